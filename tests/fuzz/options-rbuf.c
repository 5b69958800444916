/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options-rbuf.c -- harness: dio-rbuf's command line (tools/rbuf/args.c,
 * rbuf_parse_args()).  The input is the words of argv after the program
 * name, separated by NUL bytes.  Nothing is opened; a usage error is held
 * (diot_hold_errors()), not said with an exit.
 */
#include "config.h"

#include <setjmp.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/msg.h"
#include "tools/rbuf/rbuf.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct opts o;           /* static: kept across the longjmp */
	static struct diot_held held;
	char **argv;
	int argc;

	fuzz_quiet();                   /* --help, --version */
	argc = fuzz_argv(data, size, "dio-rbuf", 256, &argv);
	if (argc < 0)
		return 0;
	diot_hold_errors(&held);
	if (setjmp(held.jb) == 0) {
		(void)rbuf_parse_args(argc, argv, &o);
		diot_hold_errors(NULL);
	}
	/* Accepted: parsed, or --help and --version (exit 0). */
	fuzz_verdict(held.status == 0, held.msg);
	fuzz_held_free(&held);
	free(argv);
	return 0;
}
