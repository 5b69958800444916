/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-runs.c -- the listener's runs and their logs: a run found or added
 * at its hello, its log chosen at its first record (the first log, or one
 * of its own next to it), each record written and committed before it is
 * answered, a run refused (a bound reached, a log that failed) without
 * harm to the others, the logs synced at the end (ack.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"
#include "tools/kit/ack-serve.h"
#include "tools/kit/msg.h"

void DIOT_PRINTF(2, 3)
diot__ack_note(struct server *S, const char *fmt, ...)
{
	char msg[2 * 4096 + 512];   /* two paths and the words: never cut */
	va_list ap;

	if (S->cfg->note == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	S->cfg->note(S->cfg->note_arg, msg);
}

static const char *
log_name(const struct server *S, int run)
{
	if (S->st->runs[run].log == 1)
		return S->runs[run].path;
	return S->cfg->logpath ? S->cfg->logpath : "standard output";
}

/* Run r has no connection left and has logged no record: it takes no
 * place (the last run moves into its slot). */
void
diot__ack_run_forget(struct server *S, int r)
{
	struct diot_ack_stats *st = S->st;
	int last = --st->nruns, i;

	if (r == last)
		return;
	st->runs[r] = st->runs[last];
	S->runs[r] = S->runs[last];
	for (i = 0; i < S->n; i++)
		if (S->conn[i]->run == last)
			S->conn[i]->run = r;
}

/*
 * Refuse run r from now on (kind: DIOT_ACK_BOUND, a bound reached, or
 * DIOT_ACK_FAILED, its log failed), for the reason fmt says: kept in its
 * stats (st->runs[r].why, what its connections are answered) and noted.
 * Only the first reason is kept: it is the cause.
 */
void DIOT_PRINTF(4, 5)
diot__ack_run_refuse(struct server *S, int r, int kind, const char *fmt, ...)
{
	struct diot_ack_run *R = &S->st->runs[r];
	va_list ap;

	if (R->refused)
		return;
	va_start(ap, fmt);
	vsnprintf(R->why, sizeof(R->why), fmt, ap);
	va_end(ap);
	R->refused = kind;
	if (kind == DIOT_ACK_FAILED)
		S->st->failed++;
	diot__ack_note(S, "run %llx: refused from now on: %s", (unsigned long long)R->id,
	               R->why);
}

/* The run of a hello: found or added; -1 and *why when refused. */
int
diot__ack_run_of(struct server *S, uint64_t id, const char **why)
{
	struct diot_ack_stats *st = S->st;
	int i;

	for (i = 0; i < st->nruns; i++)
		if (st->runs[i].id == id) {
			if (st->runs[i].refused) {
				*why = st->runs[i].why;
				return -1;
			}
			return i;
		}
	if (!S->first_regular && S->first_taken) {
		*why = "this listener logs one run (its log is not a regular file) "
		       "and has one already";
		return -1;
	}
	if (S->logged >= S->max_runs || st->nruns == DIOT_ACK_RUN_SLOTS) {
		st->over_runs++;
		*why = S->why_runs;
		return -1;
	}
	memset(&st->runs[i], 0, sizeof(st->runs[i]));
	st->runs[i].id = id;
	st->runs[i].log = -1;
	memset(&S->runs[i], 0, sizeof(S->runs[i]));
	S->runs[i].fd = -1;
	st->nruns++;
	return i;
}

/* A run's first record: its log.  0, or -errno: the run is refused. */
int
diot__ack_run_log(struct server *S, int r)
{
	struct diot_ack_run *R = &S->st->runs[r];
	struct srun *sr = &S->runs[r];
	const char *base = S->cfg->logpath;
	size_t n;
	int fd;

	if (S->logged >= S->max_runs) {
		S->st->over_runs++;
		diot__ack_run_refuse(S, r, DIOT_ACK_BOUND, "%s", S->why_runs);
		return -EBUSY;
	}
	if (!S->first_taken) {
		S->first_taken = 1;
		S->logged++;
		R->log = 0;
		sr->fd = S->cfg->logfd;
		return 0;
	}
	if (!S->first_regular) {
		diot__ack_run_refuse(S, r, DIOT_ACK_BOUND, "the log is not a regular file and "
		                     "holds another run's records");
		return -EBUSY;
	}
	n = strlen(base) + 18;
	sr->path = malloc(n);
	if (sr->path == NULL) {
		diot__ack_run_refuse(S, r, DIOT_ACK_FAILED, "out of memory");
		return -ENOMEM;
	}
	snprintf(sr->path, n, "%s.%llx", base, (unsigned long long)R->id);
	fd = open(sr->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOCTTY | O_CLOEXEC |
	          O_NOFOLLOW, 0600);
	if (fd < 0) {
		int e = neg_errno();

		diot__ack_run_refuse(S, r, DIOT_ACK_FAILED, "cannot create its log '%s': %s",
		                     sr->path, dio_strerror(e));
		free(sr->path);
		sr->path = NULL;
		return e;
	}
	sr->fd = fd;
	sr->size = 0;
	R->log = 1;
	S->logged++;
	diot__ack_note(S, "run %llx: another run's records are in '%s'; this run's go to '%s'",
	     (unsigned long long)R->id, base, sr->path);
	return 0;
}

/*
 * Write a record to run r's log (ends: the record that ends the run),
 * not yet committed (diot__ack_commit_logs()).  0; 1 when the run is
 * refused (now or before: a bound, or its log could not be written: a
 * record written in part is cut off again, so the records before it stay
 * whole); -EINTR when *stop ended a write that waited.
 */
int
diot__ack_log_record(struct server *S, int r, const char *line, size_t len, int ends)
{
	struct diot_ack_run *R = &S->st->runs[r];
	struct srun *sr = &S->runs[r];
	int own = R->log == 1;
	off_t *size = own ? &sr->size : &S->first_size;
	uint64_t max = S->cfg->max_log_bytes;
	char cut[160] = "";
	int e;

	if (R->refused)
		return 1;
	if (max > 0 && R->bytes + len > max) {
		S->st->over_bytes++;
		diot__ack_run_refuse(S, r, DIOT_ACK_BOUND, "bound reached: --max-log-bytes "
		                     "%llu (the bytes a run may write to its log '%s')",
		                     (unsigned long long)max, log_name(S, r));
		return 1;
	}
	e = diot__ack_log_write(sr->fd, line, len, S->stop);
	if (e < 0) {
		if ((own || S->first_regular) && ftruncate(sr->fd, *size) != 0)
			snprintf(cut, sizeof(cut), "; the part written could not be cut off "
			         "again (%s): the log is no longer trusted",
			         dio_strerror(neg_errno()));
		if (e == -EINTR && S->stop != NULL && *S->stop)
			return e;
		diot__ack_run_refuse(S, r, DIOT_ACK_FAILED, "writing its log '%s': %s%s",
		                     log_name(S, r), dio_strerror(e), cut);
		return 1;
	}
	*size += (off_t)len;
	R->bytes += len;
	S->st->records++;
	R->records++;
	sr->dirty = 1;
	sr->waiting++;
	if (ends)
		R->ended = 1;
	return 0;
}

/*
 * Commit each log written this round, once (fdatasync(): every record
 * written to it since shares the one call), before any of their answers
 * is owed.  A log that cannot commit (standard output, a pipe, a
 * terminal, /dev/null: EINVAL) is only written.  A failed commit refuses
 * the run: its records of the round are never answered.
 */
void
diot__ack_commit_logs(struct server *S)
{
	int i, e;

	for (i = 0; i < S->st->nruns; i++) {
		struct srun *sr = &S->runs[i];

		if (!sr->dirty)
			continue;
		sr->dirty = 0;
		if (S->st->runs[i].refused == 0 && fdatasync(sr->fd) == 0) {
			S->st->commits++;
			S->st->committed += sr->waiting;
		} else if (S->st->runs[i].refused == 0 && errno != EINVAL) {
			e = neg_errno();
			diot__ack_run_refuse(S, i, DIOT_ACK_FAILED, "committing its log '%s' "
			                     "(fdatasync): %s%s", log_name(S, i), dio_strerror(e),
			                     e == -EIO ? "; the log is no longer trusted (a failed "
			                     "write-back may have dropped records answered "
			                     "before)" : "");
		}
		sr->waiting = 0;
	}
}

/* Run r's last connection closed: a run that logged has ended (counted
 * once: cfg->runs); one that logged nothing takes no place. */
void
diot__ack_run_left(struct server *S, int r)
{
	if (S->st->runs[r].log < 0) {
		diot__ack_run_forget(S, r);
		return;
	}
	if (!S->runs[r].done) {
		S->runs[r].done = 1;
		S->st->ended++;
	}
}

/* Sync the logs (and close the runs' own).  0 or the first -errno. */
int
diot__ack_sync_logs(struct server *S)
{
	int i, r = 0;

	if (S->first_taken && fsync(S->cfg->logfd) != 0 && errno != EINVAL &&
	    errno != EROFS) {
		r = neg_errno();
		snprintf(S->err, S->errlen, "syncing the log '%s': %s",
		         S->cfg->logpath ? S->cfg->logpath : "standard output",
		         dio_strerror(r));
	}
	for (i = 0; i < S->st->nruns; i++) {
		struct srun *sr = &S->runs[i];

		if (S->st->runs[i].log == 1 && (fsync(sr->fd) != 0 || close(sr->fd) != 0) &&
		    r == 0) {
			r = neg_errno();
			snprintf(S->err, S->errlen, "syncing the log '%s': %s", sr->path,
			         dio_strerror(r));
		}
		free(sr->path);
		sr->path = NULL;
	}
	return r;
}
