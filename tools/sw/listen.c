/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * listen.c -- sync-write --listen [HOST:]PORT --ack-log FILE: the machine
 * that keeps the acknowledgement records of a run on another machine
 * (--ack-log tcp:HOST:PORT there), so that the records survive what
 * happens to the machine under test: diskchecker's design.
 *
 * Every record is written to its run's log and committed (fdatasync)
 * before it is answered (tools/kit/ack-serve.c serves each connection on
 * its own: a slow, silent or hostile client cannot stall the others, and
 * only well-formed records are logged).  Each connection first says its
 * run (the hello).  The first run that sends a record goes to FILE; each
 * other run to a log of its own, FILE.RUNID, said on stderr when it
 * starts and in the summary; so every log holds one run and `sync-write
 * --check LOG TARGET` checks it.  The bounds (--max-runs, --max-log-bytes,
 * --max-conns-per-host) refuse a run or a connection, never end the
 * listener; nor does a log that fails (a full disk): that run is refused.
 * The listener ends on SIGINT/SIGTERM/SIGHUP (exit 128 + the signal),
 * even while a write to the log waits, or once --runs N runs ended (exit
 * 0); exit 1 when a run's log failed.  The logs are synced either way.
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

/* The listener's token: --token-file's (made there if missing), else a
 * new one in LOG.token (./sync-write-ack.token for standard output),
 * created exclusively (replaced only with --force, never through a
 * symlink).  Where it is, in where. */
static void
listener_token(const struct sw_opts *o, struct diot_ack_token *t, char *where, size_t n)
{
	char err[4096 + 300], path[4096 + 16];
	int r;

	if (o->token_file) {
		r = diot_ack_token_read(o->token_file, t, err, sizeof(err));
		if (r == -ENOENT && (r = diot_ack_token_create(o->token_file, 0, t, err,
		                                               sizeof(err))) == 0) {
			snprintf(where, n, "'%s' (new)", o->token_file);
			return;
		}
		if (r < 0)
			diot_die(DIOT_EXIT_USAGE, "--token-file %s", err);
		snprintf(where, n, "'%s'", o->token_file);
		return;
	}
	if (strcmp(o->ack_log, "-") == 0)
		snprintf(path, sizeof(path), "sync-write-ack.token");
	else
		snprintf(path, sizeof(path), "%s.token", o->ack_log);
	r = diot_ack_token_create(path, o->force, t, err, sizeof(err));
	if (r < 0)
		diot_die(DIOT_EXIT_USAGE, "the listener's token: %s", err);
	snprintf(where, n, "'%s'", path);
}

/* Without a MAC library, records from another host could be forged by
 * anyone on the path: loopback only. */
static void
loopback_only(const struct diot_ack_listening *l)
{
	int i;

	for (i = 0; i < l->n && !diot_ack_has_mac(); i++)
		if (!l->loopback[i])
			diot_die(DIOT_EXIT_USAGE, "built without a MAC library (configure found "
			         "neither OpenSSL's libcrypto nor libsodium): a listener on %s "
			         "would take records anyone can forge; use loopback, or rebuild "
			         "with libssl-dev", l->name[i]);
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

	fprintf(stderr, "%s: %" PRIu64 " records committed by %" PRIu64 " fdatasync calls "
	        "(%.1f records each); bounds reached: %" PRIu64 " runs refused at "
	        "--max-runs, %" PRIu64 " records at --max-log-bytes, %" PRIu64
	        " connections at --max-conns-per-host; logs failed: %" PRIu64 "\n",
	        diot_prog, st->committed, st->commits,
	        st->commits ? (double)st->committed / (double)st->commits : 0.0,
	        st->over_runs, st->over_bytes, st->over_host, st->failed);
	fprintf(stderr, "%s: %" PRIu64 " records from %" PRIu64 " connections; cut: %"
	        PRIu64 " for a line that is not a record, %" PRIu64 " for not taking "
	        "their answers in time, %" PRIu64 " for a bad token, %" PRIu64 " for a "
	        "bad MAC, %" PRIu64 " for another's run, %" PRIu64 " of another protocol; %"
	        PRIu64 " stray (no hello), %" PRIu64 " idle (a hello, then nothing, at "
	        "the cap on connections), %" PRIu64 " refused\n", diot_prog, st->records,
	        st->connections, st->bad, st->slow, st->bad_token, st->bad_mac, st->stolen,
	        st->old, st->stray, st->idle, st->refused);
	for (i = 0; i < st->nruns; i++) {
		const struct diot_ack_run *R = &st->runs[i];
		const char *end = R->ended ? "" : " (it did not end: no E record)";
		char path[4200], why[300] = "";

		if (R->refused)
			snprintf(why, sizeof(why), "; refused: %s", R->why);

		if (R->log < 0)
			continue;
		if (strcmp(o->ack_log, "-") == 0) {
			fprintf(stderr, "%s: run %llx: %" PRIu64 " records on standard "
			        "output%s%s\n", diot_prog, (unsigned long long)R->id, R->records,
			        end, why);
			continue;
		}
		if (R->log)
			snprintf(path, sizeof(path), "%s.%llx", o->ack_log,
			         (unsigned long long)R->id);
		else
			snprintf(path, sizeof(path), "%s", o->ack_log);
		fprintf(stderr, "%s: run %llx: %" PRIu64 " records in '%s'%s%s; check it "
		        "with: sync-write --check '%s' TARGET\n", diot_prog,
		        (unsigned long long)R->id, R->records, path, end, why, path);
	}
}

int
sw_listen_main(const struct sw_opts *o, const volatile sig_atomic_t *sig)
{
	struct diot_ack_serve_cfg cfg;
	static struct diot_ack_stats st;
	struct diot_ack_listening l;
	struct diot_ack_token tok;
	char err[2 * 4096 + 512] = "", where[DIOT_ACK_MAX_LISTEN * 66], tokw[4200];
	char ends[100];
	size_t w = 0;
	int i, logfd, r;

	fd_limit();
	r = diot_ack_listen(o->listen, &l, err, sizeof(err));
	if (r < 0)
		diot_die(r == -EINVAL ? DIOT_EXIT_USAGE : DIOT_EXIT_FAIL, "%s", err);
	loopback_only(&l);
	if (l.note[0])
		fprintf(stderr, "%s: %s\n", diot_prog, l.note);

	where[0] = '\0';
	for (i = 0; i < l.n; i++)
		w += (size_t)snprintf(where + w, sizeof(where) - w, "%s%s", i ? ", " : "",
		                      l.name[i]);
	logfd = open_log(o);
	listener_token(o, &tok, tokw, sizeof(tokw));
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_runs = o->max_runs ? o->max_runs : DIOT_ACK_MAX_RUNS;
	cfg.max_per_host = o->max_per_host ? o->max_per_host : SW_LISTEN_PER_HOST;
	cfg.max_log_bytes = o->max_log_bytes ? o->max_log_bytes : SW_LISTEN_LOG_BYTES;
	cfg.runs = o->end_runs;
	if (o->end_runs)
		snprintf(ends, sizeof(ends), "%d run%s ended, or SIGINT/SIGTERM",
		         o->end_runs, o->end_runs == 1 ? " has" : "s have");
	else
		snprintf(ends, sizeof(ends), "SIGINT/SIGTERM (no --runs N)");
	fprintf(stderr, "%s: listening on %s (port %s), protocol %d%s; token in %s "
	        "(senders: --ack-token FILE or DIO_ACK_TOKEN)\n", diot_prog, where,
	        strrchr(l.name[0], ':') + 1, DIOT_ACK_WIRE, diot_ack_has_mac() ?
	        ", HMAC-SHA-256" : ", plain (no MAC library: loopback only)", tokw);
	fprintf(stderr, "%s: records go to %s (a run that comes while another is logged "
	        "there: to %s.RUNID), %s before each is answered; bounds: --max-runs %d, "
	        "--max-log-bytes %" PRIu64 ", --max-conns-per-host %d; serves until %s\n",
	        diot_prog, strcmp(o->ack_log, "-") == 0 ? "standard output" : o->ack_log,
	        strcmp(o->ack_log, "-") == 0 ? "nowhere: refused" : o->ack_log,
	        strcmp(o->ack_log, "-") == 0 ? "written (standard output cannot "
	        "commit)" : "committed (fdatasync)", cfg.max_runs, cfg.max_log_bytes,
	        cfg.max_per_host, ends);
	cfg.lfd = l.fd;
	cfg.nlfd = l.n;
	cfg.logfd = logfd;
	cfg.logpath = strcmp(o->ack_log, "-") == 0 ? NULL : o->ack_log;
	cfg.records = &sw_ackrec_records;   /* only sync-write's are logged */
	cfg.token = &tok;
	cfg.note = say;
	r = diot_ack_serve(&cfg, sig, &st, err, sizeof(err));
	diot_ack_unlisten(&l);
	if (logfd != STDOUT_FILENO && close(logfd) != 0 && r == 0) {
		r = -errno;
		snprintf(err, sizeof(err), "closing the log '%s': %s", o->ack_log,
		         dio_strerror(r));
	}
	summary(o, &st);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o->ack_log,
		         err[0] ? err : dio_strerror(r));
	if (st.failed > 0)
		diot_die(DIOT_EXIT_FAIL, "%" PRIu64 " %s failed (written or committed in "
		         "part: see above); the others are whole", st.failed,
		         st.failed == 1 ? "run's log" : "runs' logs");
	if (*sig)
		return 128 + (int)*sig;
	return 0;
}
