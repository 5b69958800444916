/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listen.c -- sync-write --listen [HOST:]PORT --ack-log FILE: the machine
 * that keeps the acknowledgement records of a run on another machine
 * (--ack-log tcp:HOST:PORT there), so that the records survive what
 * happens to the machine under test: diskchecker's design.
 *
 * Every record is written to its run's log before it is answered
 * (tools/kit/ack-serve.c serves each connection on its own: a slow, silent or
 * hostile client cannot stall the others, and only well-formed records
 * are logged).  Each connection first says its run (the hello).  The
 * first run that sends a record goes to FILE; each other run to a log of
 * its own, FILE.RUNID, said on stderr when it starts and in the summary;
 * so every log holds one run and `sync-write --check LOG TARGET` checks
 * it.  The listener ends once the runs that logged have closed all
 * their connections (a run that only said hello keeps it no longer), or
 * on SIGINT/SIGTERM/SIGHUP (exit 128 + the signal), even while a write to
 * the log waits; the logs are synced either way.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tools/kit/ack.h"
#include "tools/kit/msg.h"
#include "tools/sw/ackrec.h"
#include "tools/sw/sw.h"

/* The log: created (an existing one only with --force, appended to), or
 * standard output.  Never waits (a FIFO is refused). */
static int
open_log(const struct sw_opts *o)
{
	char err[2 * 4096 + 512];
	int fd;

	if (strcmp(o->ack_log, "-") == 0)
		return STDOUT_FILENO;
	fd = diot_ack_open_log(o->ack_log, o->force, err, sizeof(err));
	if (fd == -EEXIST)
		diot_die(DIOT_EXIT_USAGE, "--ack-log '%s' exists: name a new log (or pass "
		         "--force to append this listener's first run after the runs "
		         "already in it)", o->ack_log);
	if (fd < 0)
		diot_die(DIOT_EXIT_USAGE, "--ack-log %s", err);
	return fd;
}

/* Descriptors enough for DIOT_ACK_MAX_CONNS connections and every run's
 * log, where the hard limit allows (else the listener takes fewer
 * connections: diot_ack_serve() fits its cap to the limit). */
static void
fd_limit(void)
{
	const rlim_t want = DIOT_ACK_MAX_CONNS + DIOT_ACK_MAX_RUNS + 32;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
		/* Kept as it is: fewer connections at once. */
	}
}

static void
say(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "%s: %s\n", diot_prog, msg);
}

/* Where each run went, and how to check it. */
static void
summary(const struct sw_opts *o, const struct diot_ack_stats *st)
{
	int i;

	fprintf(stderr, "%s: %" PRIu64 " records from %" PRIu64 " connections; cut: %"
	        PRIu64 " for a line that is not a record, %" PRIu64 " for not taking "
	        "their answers in time; %" PRIu64 " stray (no hello), %" PRIu64
	        " idle (a hello, then nothing, at the cap on connections), %" PRIu64
	        " refused\n", diot_prog, st->records, st->connections, st->bad, st->slow,
	        st->stray, st->idle, st->refused);
	for (i = 0; i < st->nruns; i++) {
		const struct diot_ack_run *R = &st->runs[i];
		const char *end = R->ended ? "" : " (it did not end: no E record)";
		char path[4200];

		if (R->log < 0)
			continue;
		if (strcmp(o->ack_log, "-") == 0) {
			fprintf(stderr, "%s: run %llx: %" PRIu64 " records on standard "
			        "output%s\n", diot_prog, (unsigned long long)R->id, R->records,
			        end);
			continue;
		}
		if (R->log)
			snprintf(path, sizeof(path), "%s.%llx", o->ack_log,
			         (unsigned long long)R->id);
		else
			snprintf(path, sizeof(path), "%s", o->ack_log);
		fprintf(stderr, "%s: run %llx: %" PRIu64 " records in '%s'%s; check it "
		        "with: sync-write --check '%s' TARGET\n", diot_prog,
		        (unsigned long long)R->id, R->records, path, end, path);
	}
}

int
sw_listen_main(const struct sw_opts *o, const volatile sig_atomic_t *sig)
{
	struct diot_ack_serve_cfg cfg;
	static struct diot_ack_stats st;
	char err[2 * 4096 + 512] = "";
	int lfd, logfd, port, r;

	fd_limit();
	lfd = diot_ack_listen(o->listen, &port, err, sizeof(err));
	if (lfd < 0)
		diot_die(lfd == -EINVAL ? DIOT_EXIT_USAGE : DIOT_EXIT_FAIL, "%s", err);
	logfd = open_log(o);
	fprintf(stderr, "%s: listening on port %d; records go to %s (a run that comes "
	        "while another is logged there: to %s.RUNID); ends when the runs are "
	        "done, or on SIGINT/SIGTERM\n", diot_prog, port,
	        strcmp(o->ack_log, "-") == 0 ? "standard output" : o->ack_log,
	        strcmp(o->ack_log, "-") == 0 ? "nowhere: refused" : o->ack_log);
	memset(&cfg, 0, sizeof(cfg));
	cfg.lfd = lfd;
	cfg.logfd = logfd;
	cfg.logpath = strcmp(o->ack_log, "-") == 0 ? NULL : o->ack_log;
	cfg.records = &sw_ackrec_records;   /* only sync-write's are logged */
	cfg.note = say;
	r = diot_ack_serve(&cfg, sig, &st, err, sizeof(err));
	close(lfd);
	if (logfd != STDOUT_FILENO && close(logfd) != 0 && r == 0) {
		r = -errno;
		snprintf(err, sizeof(err), "closing the log '%s': %s", o->ack_log,
		         dio_strerror(r));
	}
	summary(o, &st);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o->ack_log,
		         err[0] ? err : dio_strerror(r));
	if (*sig)
		return 128 + (int)*sig;
	return 0;
}
