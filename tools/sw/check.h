/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.h -- sync-write's ack log as --check reads it (check.c): the
 * reader on its own (for the fuzz harnesses and the unit tests), and the
 * whole check on a log already open.  Neither prints to standard output
 * except sw_check_stream()'s report, nor exits: both return a status.
 */
#ifndef SW_CHECK_H
#define SW_CHECK_H

#include <stddef.h>
#include <stdio.h>

/* --check's exit statuses (sync-write(1), EXIT STATUS). */
#define SW_CHECK_OK     0   /* every acknowledged transaction is there    */
#define SW_CHECK_LOST   1   /* acknowledged transactions are not (FAILED) */
#define SW_CHECK_USAGE  2   /* bad command line                           */
#define SW_CHECK_CANNOT 3   /* could not check: bad log, not the run's target,
                             * unreadable log or target, nothing to check */

struct sw_acklog;

/*
 * Read a whole ack log from fp (name: how messages call it).  Returns 0
 * with *out (free it with sw_acklog_free()), or SW_CHECK_CANNOT with the
 * reason in err ("NAME:LINE: malformed ...") and *out NULL.  Memory grows
 * with the records read, never with what a number in the log claims.
 */
int sw_acklog_read(FILE *fp, const char *name, struct sw_acklog **out, char *err,
                   size_t errlen);
void sw_acklog_free(struct sw_acklog *g);
/* The runs the log holds (one after another: a log appended to). */
int sw_acklog_runs(const struct sw_acklog *g);

/*
 * --check on a log open as fp, against target (NULL: the path the log
 * names): the report on standard output, errors on standard error, and
 * the exit status (SW_CHECK_*).
 */
int sw_check_stream(FILE *fp, const char *logname, const char *target);

#endif
