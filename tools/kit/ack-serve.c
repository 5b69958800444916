/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-serve.c -- the listener (ack.h): its connections and its loop;
 * its connections' coming and going ack-accept.c's, its runs and their logs ack-runs.c's.
 *
 * The listener is one thread and one poll() loop, and nothing in it waits
 * on a peer: every socket is non-blocking, a connection's input is one
 * line of room (struct diot_ack_reader), its output a count of '+'
 * answers owed, and a connection that stops taking its answers is simply
 * no longer read (its sender's writes then block in its own kernel, not
 * in the listener) until it takes them or its time runs out.  Only the
 * log writes block, and those are to a local file (or a pipe, a terminal:
 * a stop still ends a write that waits, see log_write() in ack-runs.c).
 * A round of the loop writes every complete record of every connection
 * to its run's log, commits each log written once (grouped: the writers
 * share the fdatasync()), and only then counts their answers as owed
 * (settle()), so whatever ends the listener, or the logger's host, every
 * answered record is on its stable storage.  A run whose log fails, or
 * that reaches a bound, is refused (ack-runs.c); the loop goes on.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"
#include "tools/kit/ack-serve.h"
#include "tools/kit/clock.h"
#include "tools/kit/mac.h"

#define ANSWER_BYTES (2 + 2 * DIOT_ACK_TAG)     /* "+MAC'\n" */

/* Has c lines to send (answers owed, or a line queued)? */
static int
pending(const struct sconn *c)
{
	return c->owed > 0 || c->out_off < c->out_len;
}

/* Queue a line for c (the challenge, the listener's proof). */
static void
queue(struct sconn *c, const char *line, size_t n)
{
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
	if (n <= sizeof(c->out) - c->out_len) {
		memcpy(c->out + c->out_len, line, n);
		c->out_len += n;
	}
}

/* Send c's queued lines and the answers it is owed (each made as it goes
 * out: its MAC counts the answers), never waiting.  0, or -1: the
 * connection broke. */
static int
flush_answers(struct sconn *c)
{
	ssize_t w;

	for (;;) {
		if (c->out_off == c->out_len) {
			c->out_off = c->out_len = 0;
			while (c->owed > 0 && sizeof(c->out) - c->out_len >= 2 * DIOT_ACK_TAG + 8) {
				c->out_len += diot_ack_reader_answer(&c->rd, c->out + c->out_len,
				                                     sizeof(c->out) - c->out_len);
				c->owed--;
			}
			if (c->out_len == 0)
				return 0;
		}
		w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
		         MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (w <= 0)
			return -1;
		c->out_off += (size_t)w;
	}
}

/*
 * Answers sent but not taken by c's peer, in this machine's kernel: the
 * socket's send queue where the system says (Linux: TIOCOUTQ, which is
 * SIOCOUTQ on a socket; the BSDs: FIONWRITE), else 0.  Without it, a peer
 * that stops reading is seen only once the kernel's buffer is full and
 * answers wait here.
 */
static int
answers_in_kernel(int fd)
{
	int n = 0;

#if defined(__linux__) && defined(TIOCOUTQ)
	if (ioctl(fd, TIOCOUTQ, &n) != 0)
		n = 0;
#elif defined(FIONWRITE)
	if (ioctl(fd, FIONWRITE, &n) != 0)
		n = 0;
#else
	(void)fd;
#endif
	return n;
}

/* Are c's answers waiting, here or in the kernel, since more than limit?
 * A sender waits for each answer before it sends its next record, so one
 * answer in flight is the most it leaves (a slow network, or a machine
 * that lost its power, holds that one): more than two there (or the
 * handshake's lines, which a sender reads at once), or any here,
 * is a peer that does not read.  Only that ending ends the wait: a peer
 * that takes a byte now and then is no reader. */
static int
stalled(struct sconn *c, uint64_t now, uint64_t limit)
{
	if (!pending(c) && answers_in_kernel(c->fd) <= 2 * ANSWER_BYTES) {
		c->t_stall = 0;
		return 0;
	}
	if (c->t_stall == 0)
		c->t_stall = now;
	return now - c->t_stall > limit;
}

void DIOT_PRINTF(2, 3)
diot__ack_refuse(struct sconn *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->refusal, sizeof(c->refusal), fmt, ap);
	va_end(ap);
	if (c->refusal[0] == '\0')
		snprintf(c->refusal, sizeof(c->refusal), "refused");
}

/* The run of that id the listener has, or -1. */
static int
find_run(const struct server *S, uint64_t id)
{
	int i;

	for (i = 0; i < S->st->nruns; i++)
		if (S->st->runs[i].id == id)
			return i;
	return -1;
}

/* A hello: challenge it (or refuse an AUTH this listener cannot take). */
static void
hello_taken(struct server *S, struct sconn *c)
{
	unsigned char sn[DIOT_ACK_NONCE];
	char line[64];
	size_t n;

	if (c->rd.plain && !c->loopback) {
		S->st->refused++;
		diot__ack_refuse(c, "plain authentication (a sender built without a MAC "
		                 "library) is taken from loopback only");
		return;
	}
	if (!c->rd.plain && !diot_ack_has_mac()) {
		S->st->refused++;
		diot__ack_refuse(c, "this listener was built without a MAC library: it takes "
		                 "plain authentication from loopback only");
		return;
	}
	if (diot_random(sn, sizeof(sn)) < 0) {
		S->st->refused++;
		diot__ack_refuse(c, "the listener has no random bytes");
		return;
	}
	n = diot_ack_reader_challenge(&c->rd, sn, line, sizeof(line));
	queue(c, line, n);
}

/* A proof: of the token, and to join a run, of the run's key.  0 (c is
 * the run's, or refused), or the enum diot_ack_bad it is cut for. */
static int
proof_taken(struct server *S, struct sconn *c)
{
	struct diot_ack_reader *rd = &c->rd;
	int r = find_run(S, rd->run), e;
	const char *why = NULL;
	char line[2 * DIOT_ACK_KEY + 8];

	e = diot_ack_reader_prove(rd, rd->join && r >= 0 ? S->runs[r].key : NULL, line,
	                          sizeof(line));
	if (e < 0)
		return e;
	if (r >= 0 && S->st->runs[r].refused) {
		/* Its reason, not "already open": a bound, a failed log. */
		S->st->refused++;
		diot__ack_refuse(c, "%s", S->st->runs[r].why);
		return 0;
	}
	if (!rd->join && r >= 0) {
		S->st->stolen++;
		diot__ack_refuse(c, "run %llx is already open (a run is opened once; its "
		                 "writers join it)", (unsigned long long)rd->run);
		return 0;
	}
	if (rd->join && r < 0) {
		S->st->stolen++;
		diot__ack_refuse(c, "run %llx is not open here", (unsigned long long)rd->run);
		return 0;
	}
	if (!rd->join) {
		r = diot__ack_run_of(S, rd->run, &why);
		if (r < 0) {
			S->st->refused++;
			diot__ack_refuse(c, "%s", why);
			return 0;
		}
		memcpy(S->runs[r].key, rd->rk, sizeof(S->runs[r].key));
	}
	c->run = r;
	S->runs[r].conns++;
	queue(c, line, strlen(line));
	return 0;
}

/* c is cut for why (enum diot_ack_bad): counted, said once per reason.
 * One whose handshake failed is told why (2: cut at once; 0: refused). */
static int
cut_for(struct server *S, struct sconn *c, int why)
{
	struct diot_ack_stats *st = S->st;

	switch (why) {
	case DIOT_ACK_BAD_TOKEN: st->bad_token++; break;
	case DIOT_ACK_BAD_STOLEN: st->stolen++; break;
	case DIOT_ACK_BAD_MAC: st->bad_mac++; break;
	case DIOT_ACK_BAD_VERSION: st->old++; break;
	default: st->bad++; break;
	}
	if (!(S->said & (1u << -why))) {
		S->said |= 1u << -why;
		diot__ack_note(S, "a connection was cut for %s (so is every other such "
		               "connection; the summary counts them)",
		               diot_ack_bad_name(S->cfg->records, why));
	}
	switch (why) {
	case DIOT_ACK_BAD_VERSION:
		diot__ack_refuse(c, "this listener speaks ack protocol %d (libdirectio %s); "
		                 "the sender spoke protocol %d: run one protocol on both ends",
		                 DIOT_ACK_WIRE, dio_version_string(), c->rd.version);
		return 0;
	case DIOT_ACK_BAD_TOKEN:
		diot__ack_refuse(c, "the proof does not show this listener's token");
		return 0;
	case DIOT_ACK_BAD_STOLEN:
		diot__ack_refuse(c, "run %llx: the connection does not prove the run's key "
		                 "(only the connection that opened a run and its writers "
		                 "may add to it)", (unsigned long long)c->rd.run);
		return 0;
	default:
		return 2;
	}
}

/* Read what c sent (when readable), write its records to their logs
 * (pending: answered once the logs are committed, up to OWED_MAX in all:
 * the lines after wait in rd, its backlog).  0 to keep it, 1 to close it
 * (gone), 2 to cut it, -EINTR when a stop ended a log write. */
static int
take_input(struct server *S, struct sconn *c, int readable, uint64_t now)
{
	struct diot_ack_stats *st = S->st;
	const char *line;
	size_t room, len;
	char *to;
	ssize_t got;
	int k, e;

	to = diot_ack_reader_room(&c->rd, &room);
	if (readable && room > 0) {
		got = recv(c->fd, to, room, MSG_DONTWAIT);
		if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (got <= 0) {
			/* Gone; an unfinished last line was never answered. */
			st->stray += c->run < 0;
			return 1;
		}
		diot_ack_reader_add(&c->rd, (size_t)got);
	}
	while ((k = diot_ack_reader_next(&c->rd, &line, &len)) > 0) {
		if (k == DIOT_ACK_HELLO) {
			hello_taken(S, c);
			if (c->refusal[0])
				return 0;
			continue;
		}
		if (k == DIOT_ACK_PROOF) {
			if ((k = proof_taken(S, c)) < 0)
				break;
			if (c->refusal[0])
				return 0;
			continue;
		}
		e = 0;
		if (S->runs[c->run].fd < 0 && !st->runs[c->run].refused)
			e = diot__ack_run_log(S, c->run);
		if (e == 0)
			e = diot__ack_log_record(S, c->run, line, len, c->rd.ends);
		if (e == -EINTR)
			return e;
		if (e != 0 || st->runs[c->run].refused) {
			st->refused++;
			diot__ack_refuse(c, "%s", st->runs[c->run].why);
			return 0;
		}
		c->pending++;
		if (c->owed + c->pending >= OWED_MAX)
			break;
	}
	c->backlog = k > 0;
	if (k < 0)
		return cut_for(S, c, k);
	if (k == DIOT_ACK_MORE)
		c->t_part = c->rd.used > c->rd.start ? (c->t_part ? c->t_part : now) : 0;
	return 0;
}

/* Send a refused connection what it is owed, then its reason; it is
 * closed then (its input taken first: unread bytes would make close()
 * reset the connection, and the reason could be lost). */
static void
refuse(struct sconn *c)
{
	char msg[sizeof(c->refusal) + 4], junk[256];
	int n = snprintf(msg, sizeof(msg), "-%s\n", c->refusal);

	if (flush_answers(c) == 0 && !pending(c) &&
	    send(c->fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) == n) {
		shutdown(c->fd, SHUT_WR);
		while (recv(c->fd, junk, sizeof(junk), MSG_DONTWAIT) > 0)
			;
	}
}

/* After a round's records are committed (or their run refused): what c
 * is owed, or its refusal; then its answers go out.  0 to keep it, 1 to
 * close it, 2 to cut it. */
static int
settle(struct server *S, struct sconn *c)
{
	if (c->pending > 0) {
		if (S->st->runs[c->run].refused) {
			if (!c->refusal[0]) {   /* (counted once) */
				S->st->refused++;
				diot__ack_refuse(c, "%s", S->st->runs[c->run].why);
			}
		} else {
			c->owed += c->pending;
		}
		c->pending = 0;
	}
	if (pending(c) && flush_answers(c) < 0)
		return 2;
	if (c->refusal[0]) {
		refuse(c);
		return 1;
	}
	return 0;
}

/* The bounds the cfg sets, defaults applied, and the words of a refusal
 * at max_runs. */
static void
bounds(struct server *S, const struct diot_ack_serve_cfg *cfg)
{
	S->max_runs = cfg->max_runs > 0 && cfg->max_runs < DIOT_ACK_MAX_RUNS ? cfg->max_runs :
	              DIOT_ACK_MAX_RUNS;
	S->max_host = cfg->max_per_host > 0 && cfg->max_per_host < S->max ?
	              cfg->max_per_host : S->max;
	snprintf(S->why_runs, sizeof(S->why_runs), "bound reached: --max-runs %d (the runs "
	         "this listener logs)", S->max_runs);
}

/* The connections the descriptors this process may open leave room for
 * (besides the runs' own logs, the standard ones, the listening socket
 * and the first log): never so many that accept() fails for want of a
 * descriptor, which would leave a new connection unanswered, not refused. */
static int
fd_room(int max)
{
	struct rlimit rl;
	const rlim_t keep = DIOT_ACK_MAX_RUNS + 16;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return max;
	if (rl.rlim_cur <= keep + 1)
		return 1;
	if (rl.rlim_cur - keep - 1 < (rlim_t)max)
		return (int)(rl.rlim_cur - keep - 1);
	return max;
}

int
diot_ack_serve(const struct diot_ack_serve_cfg *cfg, const volatile sig_atomic_t *stop,
               struct diot_ack_stats *stp, char *err, size_t errlen)
{
	struct diot_ack_stats *own = NULL;
	struct server S;
	struct pollfd *pfd;
	struct stat lst;
	uint64_t now, checked = 0;
	int i, r, nl, ret = 0;

	memset(&S, 0, sizeof(S));
	S.cfg = cfg;
	S.st = stp ? stp : (own = malloc(sizeof(*own)));
	if (S.st == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(S.st, 0, sizeof(*S.st));
	S.err = err;
	S.errlen = errlen;
	S.stop = stop;
	S.max = cfg->max_conns > 0 && cfg->max_conns < DIOT_ACK_MAX_CONNS ? cfg->max_conns :
	        DIOT_ACK_MAX_CONNS;
	S.max = fd_room(S.max);
	bounds(&S, cfg);
	S.hello_ns = (uint64_t)(cfg->hello_s > 0 ? cfg->hello_s : DIOT_ACK_HELLO_S) *
	             1000000000u;
	S.stall_ns = (uint64_t)(cfg->stall_s > 0 ? cfg->stall_s : DIOT_ACK_STALL_S) *
	             1000000000u;
	if (cfg->logpath != NULL && fstat(cfg->logfd, &lst) == 0 && S_ISREG(lst.st_mode)) {
		S.first_regular = 1;
		S.first_size = lst.st_size;
	}
	S.conn = calloc((size_t)S.max, sizeof(*S.conn));
	nl = cfg->nlfd;
	pfd = calloc((size_t)S.max + (size_t)nl, sizeof(*pfd));
	if (S.conn == NULL || pfd == NULL) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < nl; i++)
		if (fcntl(cfg->lfd[i], F_SETFL, fcntl(cfg->lfd[i], F_GETFL) | O_NONBLOCK) != 0) {
			ret = neg_errno();
			snprintf(err, errlen, "the listening socket: %s", dio_strerror(ret));
			goto out;
		}
	/* Until a signal, or until cfg->runs runs have ended. */
	while (!(stop != NULL && *stop) && !(cfg->runs > 0 && S.st->ended >= cfg->runs)) {
		int wait = 200;

		for (i = 0; i < nl; i++) {
			pfd[i].fd = cfg->lfd[i];
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		for (i = 0; i < S.n; i++) {
			struct sconn *c = S.conn[i];

			if (c->backlog && c->owed < OWED_MAX)
				wait = 0;       /* lines to take without reading */
			pfd[i + nl].fd = c->fd;
			/* One that is owed too many answers is not read. */
			pfd[i + nl].events = (short)((c->owed < OWED_MAX ? POLLIN : 0) |
			                            (pending(c) ? POLLOUT : 0));
			pfd[i + nl].revents = 0;
		}
		r = poll(pfd, (nfds_t)S.n + (nfds_t)nl, wait);
		if (r < 0 && errno != EINTR) {
			ret = neg_errno();
			snprintf(err, errlen, "poll: %s", dio_strerror(ret));
			break;
		}
		now = diot_now_ns();
		/* Backwards: diot__ack_conn_close() moves the last one into i's place. */
		for (i = S.n - 1; r >= 0 && i >= 0; i--) {
			struct sconn *c = S.conn[i];
			short ev = pfd[i + nl].revents;
			int gone = 0;

			if (c->owed < OWED_MAX && ((ev & (POLLIN | POLLHUP | POLLERR)) || c->backlog))
				gone = take_input(&S, c, (ev & (POLLIN | POLLHUP | POLLERR)) != 0,
				                  now);
			else if (ev & (POLLHUP | POLLERR))
				gone = 1;
			if (gone == -EINTR && stop != NULL && *stop)
				goto out;       /* stopped while a log write waited */
			if (gone < 0) {
				ret = gone;
				goto out;
			}
			if (gone)
				diot__ack_conn_close(&S, i, gone == 2);
		}
		/* The round's records committed, one fdatasync() per log, and
		 * only then answered. */
		diot__ack_commit_logs(&S);
		for (i = S.n - 1; i >= 0; i--) {
			int gone = settle(&S, S.conn[i]);

			if (gone)
				diot__ack_conn_close(&S, i, gone == 2);
		}
		/* Time limits, ten times a second (not at every record). */
		for (i = S.n - 1; now - checked >= 100000000u && i >= 0; i--) {
			struct sconn *c = S.conn[i];

			if (c->run < 0 && now - c->t_open > S.hello_ns) {
				S.st->stray++;
				diot__ack_conn_close(&S, i, 1);
			} else if (stalled(c, now, S.stall_ns) ||
			           (c->t_part && now - c->t_part > S.stall_ns)) {
				S.st->slow++;
				diot__ack_conn_close(&S, i, 1);
			}
		}
		if (now - checked >= 100000000u)
			checked = now;
		for (i = 0; r > 0 && i < nl; i++)
			if (pfd[i].revents & POLLIN)
				diot__ack_accept(&S, cfg->lfd[i], now);
	}
out:
	while (S.n > 0)
		diot__ack_conn_close(&S, S.n - 1, 0);
	r = diot__ack_sync_logs(&S);
	if (ret == 0)
		ret = r;
	free(S.conn);
	free(pfd);
	free(own);
	return ret;
}
