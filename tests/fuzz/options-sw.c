/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options-sw.c -- harness: sync-write's command line (tools/sw/args.c,
 * sw_parse_args()).  The input is the words of argv after the program
 * name, separated by NUL bytes (fuzz_argv()).  The options are parsed,
 * nothing is run; a usage error is held (diot_hold_errors()), not said
 * with an exit.  What the parser allocated is freed here, so that a leak
 * is the parser's.
 */
#include "config.h"

#include <setjmp.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz.h"
#include "tools/kit/msg.h"
#include "tools/sw/sw.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sw_opts o;        /* static: kept across the longjmp */
	static struct diot_held held;
	char **argv;
	int argc;

	fuzz_quiet();                   /* --help, --version */
	argc = fuzz_argv(data, size, "sync-write", 256, &argv);
	if (argc < 0)
		return 0;
	diot_hold_errors(&held);
	if (setjmp(held.jb) == 0) {
		(void)sw_parse_args(argc, argv, &o);
		diot_hold_errors(NULL);
	}
	/* Accepted: parsed, or --help and --version (exit 0). */
	fuzz_verdict(held.status == 0, held.msg);
	fuzz_held_free(&held);
	free(o.operands);
	free(o.labels);
	free(o.methods);
	free(o.sizes);
	free(o.writers);
	free(argv);
	return 0;
}
