/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opt.c -- the tools' command-line options; see opt.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tools/kit/opt.h"

void
diot_getopt_init(struct diot_optstate *st)
{
	memset(st, 0, sizeof(*st));
	st->ind = 1;
}

static const struct diot_opt *
diot_find_long(const struct diot_opt *opts, const char *name, size_t len)
{
	for (; opts->id != 0; opts++)
		if (opts->name && strlen(opts->name) == len &&
		    strncmp(opts->name, name, len) == 0)
			return opts;
	return NULL;
}

static const struct diot_opt *
diot_find_short(const struct diot_opt *opts, int letter)
{
	for (; opts->id != 0; opts++)
		if (opts->letter == letter)
			return opts;
	return NULL;
}

int
diot_getopt(int argc, char *const *argv, const struct diot_opt *opts,
            struct diot_optstate *st)
{
	const struct diot_opt *o;
	const char *a, *eq;

	st->arg = NULL;
	st->err[0] = '\0';
	if (st->sub == 0) {
		if (st->ind >= argc)
			return DIOT_OPT_END;
		a = argv[st->ind];
		if (st->only_operands || a[0] != '-' || a[1] == '\0') {
			st->ind++;
			st->arg = a;    /* "-" alone is an operand (stdin by convention) */
			return DIOT_OPT_OPERAND;
		}
		if (a[1] == '-' && a[2] == '\0') {
			st->ind++;
			st->only_operands = 1;
			return diot_getopt(argc, argv, opts, st);
		}
		if (a[1] == '-') {
			eq = strchr(a + 2, '=');
			o = diot_find_long(opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			snprintf(st->name, sizeof(st->name), "--%.*s",
			         (int)(eq ? (size_t)(eq - a - 2) : strlen(a + 2)), a + 2);
			st->ind++;
			if (o == NULL) {
				snprintf(st->err, sizeof(st->err), "unknown option '%s'", st->name);
				return DIOT_OPT_ERROR;
			}
			if (o->arg == DIOT_NO_ARG) {
				if (eq) {
					snprintf(st->err, sizeof(st->err), "option '%s' takes no "
					         "argument", st->name);
					return DIOT_OPT_ERROR;
				}
				return o->id;
			}
			if (eq) {
				st->arg = eq + 1;
				return o->id;
			}
			if (st->ind >= argc) {
				snprintf(st->err, sizeof(st->err), "option '%s' needs an "
				         "argument", st->name);
				return DIOT_OPT_ERROR;
			}
			st->arg = argv[st->ind++];
			return o->id;
		}
		st->sub = 1;
	}
	/* Inside a bundle of short options: argv[st->ind] + st->sub. */
	a = argv[st->ind];
	o = diot_find_short(opts, (unsigned char)a[st->sub]);
	snprintf(st->name, sizeof(st->name), "-%c", a[st->sub]);
	st->sub++;
	if (o == NULL) {
		snprintf(st->err, sizeof(st->err), "unknown option '%s'", st->name);
		if (a[st->sub] == '\0') {
			st->sub = 0;
			st->ind++;
		}
		return DIOT_OPT_ERROR;
	}
	if (o->arg == DIOT_REQ_ARG) {
		if (a[st->sub] != '\0') {
			st->arg = a + st->sub;
			st->sub = 0;
			st->ind++;
			return o->id;
		}
		st->sub = 0;
		st->ind++;
		if (st->ind >= argc) {
			snprintf(st->err, sizeof(st->err), "option '%s' needs an argument",
			         st->name);
			return DIOT_OPT_ERROR;
		}
		st->arg = argv[st->ind++];
		return o->id;
	}
	if (a[st->sub] == '\0') {
		st->sub = 0;
		st->ind++;
	}
	return o->id;
}
