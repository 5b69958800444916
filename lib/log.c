/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * log.c -- the caller's log callback (dio_set_log_fn()) and dio__log(),
 * which the rest of the library writes its messages through.  It calls
 * nothing of the library's own.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

/* The one piece of global mutable state (see dio_set_log_fn()). */
static dio_log_fn dio__log_fn;
static void *dio__log_arg;
static int dio__log_max;

void
dio_set_log_fn(dio_log_fn fn, void *arg, int max_level)
{
	dio__log_fn = fn;
	dio__log_arg = arg;
	dio__log_max = max_level;
}

static void
dio__vlog(int level, const char *fmt, va_list ap)
{
	char msg[DIO__DETAIL_MAX + 64];

	if (dio__log_fn == NULL || level > dio__log_max)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	dio__log_fn(level, msg, dio__log_arg);
}

void
dio__log(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dio__vlog(level, fmt, ap);
	va_end(ap);
}
