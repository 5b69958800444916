/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c -- --check ACK-LOG [TARGET]: after a crash or a power cut, were
 * all acknowledged transactions of the last point made durable?  The log
 * is read by acklog.c, the target and its slots looked at by
 * check-target.c, one run checked and reported by check-run.c (they share
 * check-internal.h); this file picks the run and is the command.
 *
 * Which run, and is this its target?  A file is the run's target by
 * identity when its inode number and its birth stamp (dio_file_birth():
 * birth time and generation, which a new file reusing the inode number
 * does not share) are those the T line recorded.  A device is known by
 * its size alone, which any device of that size shares: a device of the
 * recorded size is only "maybe", unless it is the very node the run
 * wrote: the path the log names, with the inode number the T line
 * recorded (a power-cut test checks its raw disk so, and a cut may leave
 * nothing of the run on it).  A target that holds a transaction of
 * the run (its run id is in every transaction header) is the run's
 * target, or a copy of it.  A target that is neither is not checked for
 * that run: "not the run's target", or "cannot say" when only the inode
 * number or a device's size matches (and no birth stamp tells a new file
 * from the run's target): if it is the target, everything was lost, but
 * that is never reported as a loss.  (A writer's file of
 * --layout separate missing beside a target that is the run's by its
 * identity is a loss.)  Of several runs, the newest that the target is
 * the target of is checked (a later run wrote over what the earlier ones
 * left), and the report says which and why; without a TARGET the runs
 * must all name one, and two runs with one run id are refused.
 *
 * Of several runs, those the target holds transactions of are preferred
 * by the rule above: a device is only picked for a run it holds a
 * transaction of, a file also by its inode and birth stamp.
 *
 * Exit statuses (check.h): 0 every acknowledged transaction found (of
 * those that could be verified), 1 some lost or corrupt -- never anything
 * else --, 2 bad command line, 3 could not check (a malformed or
 * unreadable log, a target that is not the run's, cannot be told to be or
 * cannot be read, a log with nothing acknowledged to check, a target
 * another run wrote over since).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/msg.h"
#include "tools/sw/check.h"
#include "tools/sw/check-internal.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

/* ------------------------------------------------------------ which run */

/* The target to check when none is named: the path every run names. */
static const char *
default_target(const struct sw_acklog *g)
{
	int i;

	for (i = 1; i < g->nrun; i++)
		if (strcmp(g->run[i].path, g->run[0].path) != 0)
			break;
	if (i == g->nrun)
		return g->run[0].path;
	diot_warn("--check: the log holds %d runs on different targets (run %" PRIx64
	          " at line %lu on %s, run %" PRIx64 " at line %lu on %s%s): name the "
	          "TARGET to check", g->nrun, g->run[0].rid, g->run[0].line, g->run[0].path,
	          g->run[i].rid, g->run[i].line, g->run[i].path, g->nrun > 2 ? ", ..." : "");
	return NULL;
}

/* Nothing to check in run r: said, SW_CHECK_CANNOT; else 0. */
static int
nothing_to_check(const struct ckrun *r)
{
	if (r->point < 0)
		diot_warn("--check: run %" PRIx64 " recorded no point: nothing to check "
		          "(no acknowledged transaction to check)", r->rid);
	else if (sw_ck_acked_slots(r) == 0)
		diot_warn("--check: the last point of run %" PRIx64 " (point %d) has no "
		          "acknowledged transaction to check", r->rid, r->point);
	else
		return 0;
	return SW_CHECK_CANNOT;
}

int
sw_check_stream(FILE *fp, const char *logname, const char *target_arg)
{
	char err[PATH_MAX + 1024], why[PATH_MAX + 512];
	struct sw_acklog *g;
	struct cktarget t;
	const char *target;
	int i, j, id = ID_NO, h = 0, pick = -1, st;

	if (sw_acklog_read(fp, logname, &g, err, sizeof(err)) != 0) {
		diot_warn("%s", err);
		return SW_CHECK_CANNOT;
	}
	target = target_arg ? target_arg : default_target(g);
	/* One run with nothing to check: said before anything else. */
	if (target == NULL || (g->nrun == 1 && nothing_to_check(&g->run[0]) != 0)) {
		sw_acklog_free(g);
		return SW_CHECK_CANNOT;
	}
	if (sw_ck_target_facts(target, &t, why, sizeof(why)) < 0) {
		diot_warn("--check: target %s (the log names %s)", why,
		          g->run[g->nrun - 1].path);
		sw_acklog_free(g);
		return SW_CHECK_CANNOT;
	}
	/* The newest run this is the target of. */
	for (i = g->nrun - 1; i >= 0 && pick < 0; i--) {
		struct ckrun *r = &g->run[i];

		id = sw_ck_identity(r, &t, why, sizeof(why));
		if (id == ID_NO) {
			if (g->nrun == 1)
				diot_warn("--check: '%s' is not the target of run %" PRIx64 ": %s",
				          target, r->rid, why);
			else
				diot_warn("--check: run %" PRIx64 " (lines %lu-%lu): '%s' is not "
				          "its target: %s", r->rid, r->line, r->last, target, why);
			continue;
		}
		h = sw_ck_holds_run(r, target);
		if (h < 0) {
			diot_warn("--check: out of memory");
			sw_acklog_free(g);
			return SW_CHECK_CANNOT;
		}
		if (h || id == ID_YES) {
			pick = i;
			break;
		}
		if (g->nrun == 1)
			diot_warn("--check: '%s' holds no transaction of run %" PRIx64 " in any "
			          "slot the log names: %s%s", target, r->rid,
			          strncmp(why, "cannot say", 10) == 0 ? "" : "it is not that "
			          "run's target: ", why);
		else
			diot_warn("--check: run %" PRIx64 " (lines %lu-%lu): '%s' holds none of "
			          "its transactions: %s", r->rid, r->line, r->last, target, why);
	}
	if (pick < 0) {
		if (g->nrun > 1)
			diot_warn("--check: '%s' is not the target of any of the %d runs of the "
			          "log '%s': nothing to check", target, g->nrun, logname);
		sw_acklog_free(g);
		return SW_CHECK_CANNOT;
	}
	for (j = 0; j < g->nrun; j++)
		if (j != pick && g->run[j].rid == g->run[pick].rid) {
			diot_warn("--check: the runs at lines %lu and %lu have the same run id "
			          "%" PRIx64 ": the log was pieced together, and which records "
			          "belong to which run cannot be told", g->run[j].line,
			          g->run[pick].line, g->run[pick].rid);
			sw_acklog_free(g);
			return SW_CHECK_CANNOT;
		}
	if (g->nrun > 1)
		printf("the log holds %d runs; run %" PRIx64 " (lines %lu-%lu) is checked: "
		       "the newest run on '%s' (%s)%s\n", g->nrun, g->run[pick].rid,
		       g->run[pick].line, g->run[pick].last, target,
		       h ? "it holds transactions of that run" : why,
		       pick > 0 ? "; the older runs are not checked: a newer run on a "
		       "target writes over what they left" : "");
	st = nothing_to_check(&g->run[pick]);
	if (st == 0)
		st = sw_ck_check_run(&g->run[pick], target, id == ID_YES);
	sw_acklog_free(g);
	return st;
}

int
sw_check_main(const char *log, const char *target_arg)
{
	struct stat st;
	FILE *fp;
	int r;

	if (strcmp(log, "-") == 0)
		return sw_check_stream(stdin, "standard input", target_arg);
	/* Not a directory or a device, which could be read for ever (a FIFO
	 * or standard input is a stream someone means). */
	if (stat(log, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISCHR(st.st_mode) ||
	                            S_ISBLK(st.st_mode))) {
		diot_warn("--check: ack log '%s' is a %s, not a log file", log,
		          S_ISDIR(st.st_mode) ? "directory" : "device");
		return SW_CHECK_CANNOT;
	}
	fp = fopen(log, "r");
	if (fp == NULL) {
		diot_warn("--check: cannot open ack log '%s': %s", log, dio_strerror(-errno));
		return SW_CHECK_CANNOT;
	}
	r = sw_check_stream(fp, log, target_arg);
	fclose(fp);
	return r;
}
