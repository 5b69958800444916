/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.h -- sync-write's ack log as --check reads it: the reader on its
 * own (acklog.c; for the fuzz harnesses and the unit tests), and the
 * whole check on a log already open (check.c).  Neither prints to standard output
 * except sw_check_stream()'s report, nor exits: both return a status.
 */
#ifndef SW_CHECK_H
#define SW_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* --check's exit statuses (sync-write(1), EXIT STATUS). */
#define SW_CHECK_OK     0   /* every acknowledged transaction is there    */
#define SW_CHECK_LOST   1   /* acknowledged transactions are not (FAILED) */
#define SW_CHECK_USAGE  2   /* bad command line                           */
#define SW_CHECK_CANNOT 3   /* could not check: bad log, not the run's target,
                             * unreadable log or target, nothing to check */

/*
 * A run id (sync-write's R record, every transaction's header) orders
 * runs in time: bit 63 set (the mark of such an id: no id of an older
 * sync-write has it), then the milliseconds since the epoch when the run
 * started (bits 20-62), then 20 bits of the monotonic clock's nanoseconds
 * and the process id, which only tell apart runs of one millisecond.  Of
 * two such ids, the one with the larger time part is of the later run;
 * with equal time parts, or without the mark, the order cannot be told.
 */
#define SW_RID_ORDERED  (1ull << 63)
#define SW_RID_TIME(rid) (((rid) >> 20) & ((1ull << 43) - 1))
#define SW_RID_MAKE(ms, low) (SW_RID_ORDERED | (((uint64_t)(ms) & ((1ull << 43) - 1)) << 20) \
                              | ((uint64_t)(low) & 0xfffffu))

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
