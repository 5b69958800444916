/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options-dd.c -- harness: dio-dd's command line (tools/dd/args.c,
 * dd_parse_args(), and the checks of the operands that need no device,
 * dd_check_operands() in tools/dd/check.c).  The input is the words of argv
 * after the program name, separated by NUL bytes.  Nothing is opened or
 * run; a usage error is held (diot_hold_errors()), not said with an exit.
 */
#include "config.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tools/dd/dd.h"
#include "tools/kit/msg.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dd dd;            /* static: kept across the longjmp */
	static struct diot_held held;
	char **argv;
	int argc;

	fuzz_quiet();                   /* --help, --version */
	argc = fuzz_argv(data, size, "dio-dd", 256, &argv);
	if (argc < 0)
		return 0;
	memset(&dd, 0, sizeof(dd));
	diot_hold_errors(&held);
	if (setjmp(held.jb) == 0) {
		if (dd_parse_args(&dd, argc, argv) < 0)
			dd_check_operands(&dd);
		diot_hold_errors(NULL);
	}
	/* Accepted: parsed, or --help and --version (exit 0). */
	fuzz_verdict(held.status == 0, held.msg);
	fuzz_held_free(&held);
	/* The lists of if= and of= point into one copy each, kept to exit. */
	free(dd.o.ifs[0]);
	free(dd.o.ofs[0]);
	free(argv);
	return 0;
}
