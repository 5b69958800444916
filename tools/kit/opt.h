/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opt.h -- the tools' command-line options (tools/kit/opt.c): long and
 * short options, their arguments and the operands, in the order given,
 * with a message in the same words on every system for what is wrong.
 * Nothing here prints: the tool says st->err (diot_usage_error(), msg.h).
 */
#ifndef DIOT_OPT_H
#define DIOT_OPT_H

#include "tools/kit/msg.h"      /* DIOT_ERR_MAX */

/* Whether an option takes an argument. */
enum diot_arg { DIOT_NO_ARG = 0, DIOT_REQ_ARG = 1 };

/* One option: long name without "--" (or NULL), short letter (or 0). */
struct diot_opt {
	const char *name;
	int letter;
	int arg;        /* diot_arg */
	int id;         /* > 0, returned by diot_getopt() */
};

/* Values diot_getopt() returns besides an option's id. */
enum {
	DIOT_OPT_END = 0,       /* no more arguments                        */
	DIOT_OPT_ERROR = -1,    /* usage error: message in st->err          */
	DIOT_OPT_OPERAND = -2   /* an operand (non-option): st->arg         */
};

struct diot_optstate {
	int ind;                /* next argv index; start at 1              */
	int sub;                /* position inside bundled short options    */
	int only_operands;      /* after "--"                               */
	const char *arg;        /* the option's argument or the operand     */
	char name[64];          /* how the option was spelled: "--size", "-s" */
	char err[DIOT_ERR_MAX];
};

/* Start parsing argv[1..]. */
void diot_getopt_init(struct diot_optstate *st);

/*
 * Next option or operand.  Accepts "--name value", "--name=value",
 * "-s value", "-svalue", bundled flags "-dv", and operands anywhere
 * ("--" ends the options).  opts ends with an entry whose id is 0.
 * Long names match exactly: "--siz" is an unknown option.
 *
 * Why not getopt_long() (checked against glibc 2.36 and illumos-gate's
 * usr/src/lib/libc/port/gen/getopt_long.c, 2025-02):
 * - it always accepts unambiguous abbreviations ("--siz" is --size; its
 *   FLAG_ABBREV is set for getopt_long and getopt_long_only on illumos,
 *   and glibc has no switch either; only illumos' getopt_clip() turns it
 *   off, and that one stops at the first operand and requires a short
 *   letter for every long option).  The tools would accept what they
 *   refuse today, and a new option sharing a prefix would break scripts.
 * - its state is global: optind, optarg, optopt, opterr, plus hidden
 *   statics in libc (illumos: place, nonopt_start/end, optreset; a reset
 *   in mid-parse needs the optind = 0 convention); the tools pass all
 *   state as arguments and read no globals.
 * - it prints its own messages unless opterr = 0, in each libc's words
 *   with argv[0] ("illegal option -- x" on illumos; "invalid option --
 *   'x'", "unrecognized option '--nope'" on glibc); with opterr = 0 an
 *   unknown long option leaves optopt 0 and the caller must dig the text
 *   out of argv[optind - 1].  Here err says "unknown option '--nope'",
 *   "option '-s' needs an argument" the same everywhere, naming the
 *   option as spelled.
 * What getopt_long() could do: operands in order, anywhere (a leading '-'
 * in the option string returns each as option 1 on both libcs, on
 * illumos overriding POSIXLY_CORRECT), dd-style operands (just operands),
 * "--", "-" as an operand, bundles and "-svalue".
 */
int diot_getopt(int argc, char *const *argv, const struct diot_opt *opts,
                struct diot_optstate *st);

#endif /* DIOT_OPT_H */
