/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-serve.c -- the listener (ack.h): its socket, its connections and
 * its loop; its runs and their logs are in ack-runs.c.
 *
 * The listener is one thread and one poll() loop, and nothing in it waits
 * on a peer: every socket is non-blocking, a connection's input is one
 * line of room (struct diot_ack_reader), its output a count of '+'
 * answers owed, and a connection that stops taking its answers is simply
 * no longer read (its sender's writes then block in its own kernel, not
 * in the listener) until it takes them or its time runs out.  Only the
 * log writes block, and those are to a local file (or a pipe, a terminal:
 * a stop still ends a write that waits, see log_write() in ack-runs.c).
 * A record is written to its run's log before its answer is counted as
 * owed, so whatever
 * ends the listener (a signal, a log that cannot be written), every
 * answered record is in the log; the logs are synced on the way out.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

/* ------------------------------------------------------------ listener */

int
diot_ack_listen(const char *spec, int *port, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[256], serv[32], what[300];
	int fd, r;

	r = diot__ack_split_host_port(spec, 0, host, sizeof(host), serv, sizeof(serv), err,
	                              errlen);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "--listen '%s'", spec);
	fd = diot__ack_tcp_socket(host[0] ? host : NULL, serv, 1, what, err, errlen);
	if (fd < 0)
		return fd;
	*port = 0;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET)
			*port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		else if (ss.ss_family == AF_INET6)
			*port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	}
	return fd;
}

/* Close connection i; cut (abort): at once, with a reset, whatever its
 * kernel still holds (a peer that does not read would never see a FIN
 * queued behind the answers it does not take). */
static void
conn_close(struct server *S, int i, int cut)
{
	struct sconn *c = S->conn[i];
	struct linger lg = { 1, 0 };

	if (cut)
		setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	if (c->run >= 0 && --S->runs[c->run].conns == 0 && S->st->runs[c->run].log < 0)
		diot__ack_run_forget(S, c->run);
	close(c->fd);
	free(c);
	S->conn[i] = S->conn[--S->n];
}

/* Send what c is owed, never waiting.  0, or -1: the connection broke. */
static int
flush_answers(struct sconn *c)
{
	char plus[256];
	ssize_t w;

	memset(plus, '+', sizeof(plus));
	while (c->owed > 0) {
		w = send(c->fd, plus, c->owed < sizeof(plus) ? (size_t)c->owed : sizeof(plus),
		         MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (w <= 0)
			return -1;
		c->owed -= (uint64_t)w;
	}
	return 0;
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
 * that lost its power, holds that one): more than two there, or any here,
 * is a peer that does not read.  Only that ending ends the wait: a peer
 * that takes a byte now and then is no reader. */
static int
stalled(struct sconn *c, uint64_t now, uint64_t limit)
{
	if (c->owed == 0 && answers_in_kernel(c->fd) <= 2) {
		c->t_stall = 0;
		return 0;
	}
	if (c->t_stall == 0)
		c->t_stall = now;
	return now - c->t_stall > limit;
}

/* Read what c sent (when readable), log its records, count its answers
 * (up to OWED_MAX owed: the lines after wait in rd, its backlog).  0 to
 * keep it, 1 to close it (gone), 2 to cut it, -errno when a log could not
 * be written. */
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
			const char *why = NULL;

			c->run = diot__ack_run_of(S, c->rd.run, &why);
			if (c->run < 0) {
				st->refused++;
				c->refusal = why;
				return 0;
			}
			S->runs[c->run].conns++;
		} else {
			if (S->runs[c->run].fd < 0 && diot__ack_run_log(S, c->run) < 0) {
				st->refused++;
				return 2;
			}
			if ((e = diot__ack_log_record(S, c->run, line, len, c->rd.ends)) < 0)
				return e;
		}
		c->owed++;
		if (c->owed >= OWED_MAX)
			break;
	}
	c->backlog = k > 0;
	if (k < 0) {
		st->bad++;
		if (!(S->said & (1u << -k))) {
			S->said |= 1u << -k;
			diot__ack_note(S, "a connection was cut for %s (so is every other such "
			     "connection; the summary counts them)",
			     diot_ack_bad_name(S->cfg->records, k));
		}
		return 2;
	}
	if (k == DIOT_ACK_MORE)
		c->t_part = c->rd.used > c->rd.start ? (c->t_part ? c->t_part : now) : 0;
	return 0;
}

/* Send a refused hello its reason (it is closed then). */
static void
refuse(struct sconn *c)
{
	char msg[200];
	int n = snprintf(msg, sizeof(msg), "-%s\n", c->refusal);

	if (send(c->fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		/* Nothing more to do: the sender sees the connection end. */
	}
}

/* Has c's run logged a record?  (Not yet, or no hello: it may give its
 * place to a new connection.) */
static int
conn_logged(const struct server *S, const struct sconn *c)
{
	return c->run >= 0 && S->st->runs[c->run].log >= 0;
}

/* At max_conns: make room by cutting the oldest connection whose run has
 * logged nothing (a hello and silence, or no hello yet).  A run's
 * connections that wait at its start while the target is prepared belong
 * to a run that has logged its first record, so they are never taken.  1 when
 * room was made, 0 when every connection's run has logged. */
static int
make_room(struct server *S)
{
	int i, old = -1;

	for (i = 0; i < S->n; i++)
		if (!conn_logged(S, S->conn[i]) &&
		    (old < 0 || S->conn[i]->t_open < S->conn[old]->t_open))
			old = i;
	if (old < 0)
		return 0;
	S->st->idle++;
	conn_close(S, old, 1);
	return 1;
}

/* Refuse a new connection past the cap: say why (its sender reads this
 * as the answer to its hello), then close. */
static void
refuse_full(struct server *S, int fd)
{
	char msg[96], junk[256];
	int n = snprintf(msg, sizeof(msg), "-listener full: %d connections\n", S->n);

	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 &&
	    send(fd, msg, (size_t)n, MSG_NOSIGNAL) == n) {
		shutdown(fd, SHUT_WR);
		/* Take what came (the hello): unread bytes would make close()
		 * reset the connection, and the refusal could be lost. */
		while (recv(fd, junk, sizeof(junk), MSG_DONTWAIT) > 0)
			;
	}
	close(fd);
}

static void
accept_new(struct server *S, uint64_t now)
{
	int k, fd, one = 1, sndbuf = 8192;
	struct sconn *c;

	for (k = 0; k < ACCEPTS_PER_ROUND; k++) {
		fd = accept(S->cfg->lfd, NULL, NULL);
		if (fd < 0)
			return;         /* EAGAIN: none left; anything else: next round */
		S->st->connections++;
		if (S->n >= S->max && !make_room(S)) {
			S->st->refused++;
			refuse_full(S, fd);
			continue;
		}
		c = malloc(sizeof(*c));
		if (c == NULL || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
			S->st->refused++;
			close(fd);
			free(c);
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		/* Answers are a byte each and a sender waits for each: a small
		 * kernel buffer bounds what one that never reads holds there. */
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
		c->fd = fd;
		c->run = -1;
		c->owed = 0;
		c->t_open = now;
		c->t_stall = c->t_part = 0;
		c->backlog = 0;
		c->refusal = NULL;
		diot_ack_reader_init(&c->rd, S->cfg->records);
		S->conn[S->n++] = c;
	}
}

/* Is every connection left one whose run said hello and logged nothing?
 * (A connection with no hello yet is waited for: hello_s bounds it.) */
static int
only_idle(const struct server *S)
{
	int i;

	for (i = 0; i < S->n; i++)
		if (S->conn[i]->run < 0 || conn_logged(S, S->conn[i]))
			return 0;
	return 1;
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
	int i, r, ret = 0;

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
	S.hello_ns = (uint64_t)(cfg->hello_s > 0 ? cfg->hello_s : DIOT_ACK_HELLO_S) *
	             1000000000u;
	S.stall_ns = (uint64_t)(cfg->stall_s > 0 ? cfg->stall_s : DIOT_ACK_STALL_S) *
	             1000000000u;
	if (cfg->logpath != NULL && fstat(cfg->logfd, &lst) == 0 && S_ISREG(lst.st_mode)) {
		S.first_regular = 1;
		S.first_size = lst.st_size;
	}
	S.conn = calloc((size_t)S.max, sizeof(*S.conn));
	pfd = calloc((size_t)S.max + 1, sizeof(*pfd));
	if (S.conn == NULL || pfd == NULL) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (fcntl(cfg->lfd, F_SETFL, fcntl(cfg->lfd, F_GETFL) | O_NONBLOCK) != 0) {
		ret = neg_errno();
		snprintf(err, errlen, "the listening socket: %s", dio_strerror(ret));
		goto out;
	}
	/* Until a run has logged a record and nothing is left open but the
	 * connections of runs that have logged none. */
	while (!(stop != NULL && *stop) && !(S.first_taken && only_idle(&S))) {
		int wait = 200;

		pfd[0].fd = cfg->lfd;
		pfd[0].events = POLLIN;
		for (i = 0; i < S.n; i++) {
			struct sconn *c = S.conn[i];

			if (c->backlog && c->owed < OWED_MAX)
				wait = 0;       /* lines to take without reading */
			pfd[i + 1].fd = c->fd;
			/* One that is owed too many answers is not read. */
			pfd[i + 1].events = (short)((c->owed < OWED_MAX ? POLLIN : 0) |
			                            (c->owed > 0 ? POLLOUT : 0));
			pfd[i + 1].revents = 0;
		}
		r = poll(pfd, (nfds_t)S.n + 1, wait);
		if (r < 0 && errno != EINTR) {
			ret = neg_errno();
			snprintf(err, errlen, "poll: %s", dio_strerror(ret));
			break;
		}
		now = diot_now_ns();
		/* Backwards: conn_close() moves the last one into i's place. */
		for (i = S.n - 1; r >= 0 && i >= 0; i--) {
			struct sconn *c = S.conn[i];
			short ev = pfd[i + 1].revents;
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
			if (!gone && c->refusal != NULL) {
				refuse(c);
				gone = 1;
			}
			if (!gone && c->owed > 0 && flush_answers(c) < 0)
				gone = 2;
			if (gone)
				conn_close(&S, i, gone == 2);
		}
		/* Time limits, ten times a second (not at every record). */
		for (i = S.n - 1; now - checked >= 100000000u && i >= 0; i--) {
			struct sconn *c = S.conn[i];

			if (c->run < 0 && now - c->t_open > S.hello_ns) {
				S.st->stray++;
				conn_close(&S, i, 1);
			} else if (stalled(c, now, S.stall_ns) ||
			           (c->t_part && now - c->t_part > S.stall_ns)) {
				S.st->slow++;
				conn_close(&S, i, 1);
			}
		}
		if (now - checked >= 100000000u)
			checked = now;
		if (r > 0 && (pfd[0].revents & POLLIN))
			accept_new(&S, now);
	}
out:
	while (S.n > 0)
		conn_close(&S, S.n - 1, 0);
	r = diot__ack_sync_logs(&S);
	if (ret == 0)
		ret = r;
	free(S.conn);
	free(pfd);
	free(own);
	return ret;
}
