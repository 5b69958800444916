/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-serve.h -- the listener's own state, shared by its connections and
 * loop (ack-serve.c) and its runs and their logs (ack-runs.c).
 */
#ifndef DIOT_ACK_SERVE_H
#define DIOT_ACK_SERVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tools/kit/ack.h"
#include "tools/kit/msg.h"

#define OWED_MAX 4096           /* answers owed before reading stops      */
#define ACCEPTS_PER_ROUND 64
#define SAID_HOST (1u << 16)     /* S->said: a host over max_per_host noted */

/* A run as the listener keeps it (its public part is in the stats). */
struct srun {
	int fd;                 /* its log; -1 until its first record      */
	off_t size;             /* its own log's length: a failed write is
	                         * cut back to it                          */
	int conns;              /* open connections that said its hello    */
	int dirty;              /* written this round, not yet committed   */
	uint64_t waiting;       /* records of this round, to be committed  */
	int done;               /* counted ended (logged, all closed)      */
	unsigned char key[DIOT_ACK_KEY];        /* the run's key (RK)      */
	char *path;             /* its own log's name (malloc'd)           */
};

struct sconn {
	int fd;
	int run;                /* index of its run; -1 before the hello   */
	uint64_t owed;          /* '+' answers committed, not yet sent     */
	uint64_t pending;       /* records written this round: owed once
	                         * their log is committed                  */
	uint64_t t_open;        /* accepted (the hello's deadline)         */
	uint64_t t_stall;       /* since when answers are not taken        */
	uint64_t t_part;        /* since when a line is unfinished         */
	int backlog;            /* complete lines left in rd: owed too many */
	int loopback;           /* its peer is a loopback address          */
	char refusal[200];      /* refused: say why ("-" it), then close   */
	size_t out_len, out_off;        /* lines to send: out[out_off, out_len) */
	char out[512];
	unsigned char addr[16]; /* the peer's address (max_per_host)       */
	int family;
	struct diot_ack_reader rd;
};

struct server {
	const struct diot_ack_serve_cfg *cfg;
	struct diot_ack_stats *st;
	struct srun runs[DIOT_ACK_RUN_SLOTS];
	struct sconn **conn;
	int n, max;
	int max_runs, max_host; /* the bounds (cfg's, defaults applied)    */
	int logged;             /* runs that have a log (a record)         */
	int first_taken;        /* logfd is a run's                        */
	int first_regular;      /* logfd is a regular file: runs after the
	                         * first get their own logs next to it     */
	off_t first_size;
	char why_runs[160];     /* the refusal at max_runs                 */
	uint64_t hello_ns, stall_ns;
	unsigned said;          /* bad-line reasons already noted          */
	const volatile sig_atomic_t *stop;
	char *err;
	size_t errlen;
};

/* ack-serve.c: refuse what c sent last (its run, a record): the answers
 * it is owed go first, then "-REASON" (fmt), then the connection is
 * closed; nothing more of it is read or logged. */
void DIOT_PRINTF(2, 3) diot__ack_refuse(struct sconn *c, const char *fmt, ...);

/* ack-accept.c: take the new connections waiting on lfd, or refuse
 * them; close connection i (cut: at once, with a reset). */
void diot__ack_accept(struct server *S, int lfd, uint64_t now);
void diot__ack_conn_close(struct server *S, int i, int cut);

/* ack-runs.c: the runs and their logs (what each does is said there). */
void DIOT_PRINTF(2, 3) diot__ack_note(struct server *S, const char *fmt, ...);
void diot__ack_run_forget(struct server *S, int r);
int diot__ack_run_of(struct server *S, uint64_t id, const char **why);
int diot__ack_run_log(struct server *S, int r);
void DIOT_PRINTF(4, 5) diot__ack_run_refuse(struct server *S, int r, int kind,
                                          const char *fmt, ...);
int diot__ack_log_record(struct server *S, int r, const char *line, size_t len,
                         int ends);
void diot__ack_commit_logs(struct server *S);
void diot__ack_run_left(struct server *S, int r);
int diot__ack_sync_logs(struct server *S);

#endif /* DIOT_ACK_SERVE_H */
