/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-runs.c -- the listener's runs and their logs: a run found or added
 * at its hello, its log chosen at its first record (the first log, or one
 * of its own next to it), each record written before it is answered, the
 * logs synced at the end (ack.h).
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

/* The run of a hello: found or added; -1 and *why when refused. */
int
diot__ack_run_of(struct server *S, uint64_t id, const char **why)
{
	struct diot_ack_stats *st = S->st;
	int i;

	for (i = 0; i < st->nruns; i++)
		if (st->runs[i].id == id)
			return i;
	if (!S->first_regular && S->first_taken) {
		*why = "this listener logs one run (its log is not a regular file) "
		       "and has one already";
		return -1;
	}
	if (S->logged >= DIOT_ACK_MAX_RUNS || st->nruns == DIOT_ACK_RUN_SLOTS) {
		*why = "this listener has taken as many runs as it can";
		return -1;
	}
	memset(&st->runs[i], 0, sizeof(st->runs[i]));
	st->runs[i].id = id;
	st->runs[i].log = -1;
	S->runs[i].fd = -1;
	S->runs[i].path = NULL;
	S->runs[i].conns = 0;
	st->nruns++;
	return i;
}

/* A run's first record: its log.  0, or -errno with a note said. */
int
diot__ack_run_log(struct server *S, int r)
{
	struct diot_ack_run *R = &S->st->runs[r];
	struct srun *sr = &S->runs[r];
	const char *base = S->cfg->logpath;
	size_t n;
	int fd;

	if (S->logged >= DIOT_ACK_MAX_RUNS) {
		diot__ack_note(S, "run %llx: refused: this listener has logged as many runs as it can "
		     "(%d)", (unsigned long long)R->id, DIOT_ACK_MAX_RUNS);
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
		diot__ack_note(S, "run %llx: refused: the log is not a regular file and holds another "
		     "run's records", (unsigned long long)R->id);
		return -EBUSY;
	}
	n = strlen(base) + 18;
	sr->path = malloc(n);
	if (sr->path == NULL)
		return -ENOMEM;
	snprintf(sr->path, n, "%s.%llx", base, (unsigned long long)R->id);
	fd = open(sr->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOCTTY | O_CLOEXEC |
	          O_NOFOLLOW, 0600);
	if (fd < 0) {
		int e = neg_errno();

		diot__ack_note(S, "run %llx: refused: cannot create its log '%s': %s",
		     (unsigned long long)R->id, sr->path, dio_strerror(e));
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

/* Write a record to run r's log (ends: the record that ends the run).
 * 0, or -errno (the log is left as it was where it is a file: a record
 * written in part is cut off again). */
int
diot__ack_log_record(struct server *S, int r, const char *line, size_t len, int ends)
{
	struct srun *sr = &S->runs[r];
	int own = S->st->runs[r].log == 1;
	off_t *size = own ? &sr->size : &S->first_size;
	int e;

	e = diot__ack_log_write(sr->fd, line, len, S->stop);
	if (e < 0) {
		if ((own || S->first_regular) && ftruncate(sr->fd, *size) != 0)
			e = neg_errno();
		snprintf(S->err, S->errlen, "writing the log '%s': %s", log_name(S, r),
		         dio_strerror(e));
		return e;
	}
	*size += (off_t)len;
	S->st->records++;
	S->st->runs[r].records++;
	if (ends)
		S->st->runs[r].ended = 1;
	return 0;
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
