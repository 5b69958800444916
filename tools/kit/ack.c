/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack.c -- acknowledgement records to a file or to a listener, and the
 * listener (ack.h).
 *
 * The listener is one thread and one poll() loop, and nothing in it waits
 * on a peer: every socket is non-blocking, a connection's input is one
 * line of room (struct diot_ack_reader), its output a count of '+'
 * answers owed, and a connection that stops taking its answers is simply
 * no longer read (its sender's writes then block in its own kernel, not
 * in the listener) until it takes them or its time runs out.  Only the
 * log writes block, and those are to a local file (or a pipe, a terminal:
 * a stop still ends a write that waits, see log_write()).  A record is written
 * to its run's log before its answer is counted as owed, so whatever
 * ends the listener (a signal, a log that cannot be written), every
 * answered record is in the log; the logs are synced on the way out.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/kit/clock.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"

#ifndef MSG_NOSIGNAL
# define MSG_NOSIGNAL 0     /* then the tool must ignore SIGPIPE itself */
#endif
#ifndef O_CLOEXEC
# define O_CLOEXEC 0
#endif

static int
neg_errno(void)
{
	return errno ? -errno : -EIO;
}

int
diot_ack_is_tcp(const char *spec)
{
	return spec != NULL && strncmp(spec, "tcp:", 4) == 0;
}

/* "HOST:PORT" or "[V6]:PORT" (need_host) or also "PORT" alone. */
static int
split_host_port(const char *s, int need_host, char *host, size_t hl, char *port,
                size_t pl, char *err, size_t errlen)
{
	const char *colon, *p;
	size_t n;

	host[0] = '\0';
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (close == NULL || close[1] != ':') {
			snprintf(err, errlen, "'%s': an IPv6 address goes in brackets, "
			         "followed by :PORT ([::1]:7070)", s);
			return -EINVAL;
		}
		n = (size_t)(close - s - 1);
		colon = close + 1;
		if (n == 0 || n >= hl)
			goto bad_host;
		memcpy(host, s + 1, n);
		host[n] = '\0';
	} else if ((colon = strrchr(s, ':')) != NULL) {
		n = (size_t)(colon - s);
		if (n == 0 || n >= hl || memchr(s, ':', n) != NULL)
			goto bad_host;
		memcpy(host, s, n);
		host[n] = '\0';
	} else if (need_host) {
		snprintf(err, errlen, "'%s': give HOST:PORT (e.g. tcp:192.0.2.7:7070)", s);
		return -EINVAL;
	} else {
		colon = s - 1;
	}
	p = colon + 1;
	n = strlen(p);
	if (n == 0 || n >= pl || strspn(p, "0123456789") != n || n > 5 ||
	    atoi(p) > 65535 || (need_host && atoi(p) == 0)) {
		snprintf(err, errlen, "'%s': the port must be a number from %d to 65535", s,
		         need_host ? 1 : 0);
		return -EINVAL;
	}
	memcpy(port, p, n + 1);
	return 0;
bad_host:
	snprintf(err, errlen, "'%s': bad host name (an IPv6 address goes in brackets: "
	         "[::1]:7070)", s);
	return -EINVAL;
}

/*
 * A TCP socket for host:port: connected to it (passive 0), or listening
 * on it (passive 1; host NULL: every address).  The first address of the
 * name that works is taken.  Returns the descriptor, or -errno with the
 * reason in err (what names the other end in the message).
 */
static int
tcp_socket(const char *host, const char *port, int passive, const char *what,
           char *err, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	int fd = -1, r, e = passive ? EADDRNOTAVAIL : ECONNREFUSED, one = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	r = getaddrinfo(host, port, &hints, &res);
	if (r != 0) {
		snprintf(err, errlen, "%s: %s", what, gai_strerror(r));
		return passive ? -EADDRNOTAVAIL : -EHOSTUNREACH;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		if (passive)
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (passive ? bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 64) == 0
		            : connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", what, dio_strerror(-e));
		return -e;
	}
	/* Records are small and each waits for its answer: no Nagle delay. */
	if (!passive)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static int
connect_to(const char *host, const char *port, char *err, size_t errlen)
{
	char what[320];

	snprintf(what, sizeof(what), "cannot connect to the listener at %s port %s",
	         host, port);
	return tcp_socket(host, port, 0, what, err, errlen);
}

int
diot_ack_open_log(const char *path, int append, char *err, size_t errlen)
{
	char why[200];
	struct stat st;
	int fd, r;

	/* Refused before the open when it is there already... */
	if (diot_out_writable(path, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "'%s' %s", path, why);
		return -EINVAL;
	}
	/* ...and a FIFO made in between does not make the open wait. */
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	          (append ? 0 : O_EXCL), 0644);
	if (fd < 0) {
		r = neg_errno();
		if (r == -EEXIST)
			snprintf(err, errlen, "'%s' exists: an ack log is one run's record; "
			         "name a new file", path);
		else
			snprintf(err, errlen, "'%s': %s", path, dio_strerror(r));
		return r;
	}
	if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
		close(fd);
		snprintf(err, errlen, "'%s' is neither a regular file nor a character "
		         "device", path);
		return -EINVAL;
	}
	/* Writes to it wait as they should (a terminal, say). */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		r = neg_errno();
		close(fd);
		snprintf(err, errlen, "'%s': %s", path, dio_strerror(r));
		return r;
	}
	return fd;
}

int
diot_ack_open(struct diot_ack *a, const char *spec, char *err, size_t errlen)
{
	int r;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (strcmp(spec, "-") == 0) {
		a->kind = DIOT_ACK_STDOUT;
		a->fd = STDOUT_FILENO;
		return 0;
	}
	if (diot_ack_is_tcp(spec)) {
		r = split_host_port(spec + 4, 1, a->host, sizeof(a->host), a->port,
		                    sizeof(a->port), err, errlen);
		if (r < 0)
			return r;
		r = connect_to(a->host, a->port, err, errlen);
		if (r < 0)
			return r;
		a->kind = DIOT_ACK_TCP;
		a->fd = r;
		return diot_ack_set_answer_time(a, DIOT_ACK_ANSWER_S);
	}
	if (strlen(spec) >= sizeof(a->path)) {
		snprintf(err, errlen, "'%s': path too long", spec);
		return -ENAMETOOLONG;
	}
	r = diot_ack_open_log(spec, 0, err, errlen);
	if (r < 0)
		return r;
	a->fd = r;
	a->kind = DIOT_ACK_FILE;
	a->created = 1;
	snprintf(a->path, sizeof(a->path), "%s", spec);
	return 0;
}

/* Receive one byte; the socket's time limit applies. */
static int
recv_byte(int fd, char *c)
{
	ssize_t r;

	while ((r = recv(fd, c, 1, 0)) < 0 && errno == EINTR)
		;
	if (r == 0)
		return -ECONNRESET;
	if (r < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : neg_errno();
	return 0;
}

static int write_all(int fd, const char *p, size_t n, int sock);

/* Say a's run on its connection and take the listener's answer. */
static int
hello(const struct diot_ack *a, char *err, size_t errlen)
{
	char line[64], why[160];
	size_t k = 0;
	int n, r;
	char c;

	n = snprintf(line, sizeof(line), "H %d %llx\n", DIOT_ACK_WIRE,
	             (unsigned long long)a->run);
	r = write_all(a->fd, line, (size_t)n, 1);
	if (r == 0)
		r = recv_byte(a->fd, &c);
	if (r == 0 && c == '+')
		return 0;
	if (r == 0 && c == '-') {
		/* Its reason, to the newline (cut short if it is long). */
		while (k + 1 < sizeof(why) && recv_byte(a->fd, &why[k]) == 0 && why[k] != '\n')
			if (why[k] >= ' ' && why[k] < 127)
				k++;
		why[k] = '\0';
		snprintf(err, errlen, "the listener at %s port %s refused the run: %s",
		         a->host, a->port, k ? why : "no reason given");
		return -ECONNREFUSED;
	}
	if (r == 0)
		r = -EPROTO;
	snprintf(err, errlen, "the listener at %s port %s did not take the run's hello: %s%s",
	         a->host, a->port, dio_strerror(r), r == -ECONNRESET ? " (a listener "
	         "older than this sender? Both need the same sync-write)" : "");
	return r;
}

int
diot_ack_set_run(struct diot_ack *a, uint64_t run, char *err, size_t errlen)
{
	a->run = run;
	a->has_run = 1;
	if (a->kind != DIOT_ACK_TCP || a->fd < 0)
		return 0;
	return hello(a, err, errlen);
}

int
diot_ack_reconnect(struct diot_ack *a, char *err, size_t errlen)
{
	int fd, r;

	if (a->kind != DIOT_ACK_TCP)
		return 0;
	fd = connect_to(a->host, a->port, err, errlen);
	if (fd < 0)
		return fd;
	a->fd = fd;
	r = diot_ack_set_answer_time(a, a->answer_s);
	if (r == 0 && a->has_run)
		r = hello(a, err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "the connection to the listener: %s", dio_strerror(r));
	if (r < 0) {
		close(fd);
		a->fd = -1;
	}
	return r;
}

int
diot_ack_set_answer_time(struct diot_ack *a, int seconds)
{
	struct timeval tv;

	if (seconds < 1 || seconds > 3600)
		return -EINVAL;
	a->answer_s = seconds;
	if (a->kind != DIOT_ACK_TCP || a->fd < 0)
		return 0;
	tv.tv_sec = seconds;
	tv.tv_usec = 0;
	if (setsockopt(a->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0 ||
	    setsockopt(a->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0)
		return neg_errno();
	return 0;
}

/* A socket's send or receive time limit ran out. */
static int
timed_out(int e)
{
	return e == EAGAIN || e == EWOULDBLOCK;
}

static int
write_all(int fd, const char *p, size_t n, int sock)
{
	ssize_t w;

	while (n > 0) {
		w = sock ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && sock && timed_out(errno))
			return -ETIMEDOUT;
		if (w <= 0)
			return w < 0 ? neg_errno() : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
diot_ack_send(const struct diot_ack *a, const char *line, size_t len)
{
	ssize_t r;
	char c;

	if (a->kind == DIOT_ACK_NONE || a->fd < 0)
		return 0;
	if (len == 0 || len > DIOT_ACK_LINE_MAX || line[len - 1] != '\n' ||
	    memchr(line, '\0', len) != NULL)
		return -EINVAL;
	if (a->kind != DIOT_ACK_TCP) {
		/* One write() per record: whole or an error, never two halves. */
		while ((r = write(a->fd, line, len)) < 0 && errno == EINTR)
			;
		if (r < 0)
			return neg_errno();
		return (size_t)r == len ? 0 : -EIO;
	}
	r = write_all(a->fd, line, len, 1);
	if (r < 0)
		return r == -EPIPE ? -ECONNRESET : (int)r;
	while ((r = recv(a->fd, &c, 1, 0)) < 0 && errno == EINTR)
		;
	if (r == 0)
		return -ECONNRESET;
	if (r < 0)
		return timed_out(errno) ? -ETIMEDOUT : neg_errno();
	return c == '+' ? 0 : -EPROTO;
}

void
diot_ack_close(struct diot_ack *a)
{
	if (a->fd > STDERR_FILENO)
		close(a->fd);
	a->fd = -1;
	a->kind = DIOT_ACK_NONE;
}

/* ------------------------------------------------------- record reader */

/* A cursor over one line, its newline excluded. */
struct cur {
	const char *p, *end;
};

static int
lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

/* One of two words, then a space. */
static int
word2(struct cur *c, const char *a, const char *b)
{
	struct cur k = *c;

	if (lit(&k, a) && lit(&k, " ")) {
		*c = k;
		return 1;
	}
	k = *c;
	if (lit(&k, b) && lit(&k, " ")) {
		*c = k;
		return 1;
	}
	return 0;
}

/* A decimal number as printf writes it: no sign, no leading zero, at
 * most max; followed by a space (consumed) or the end (last). */
static int
dec(struct cur *c, uint64_t max, int last)
{
	uint64_t v = 0;
	const char *s = c->p;

	if (s == c->end || *s < '0' || *s > '9')
		return 0;
	if (*s == '0' && s + 1 < c->end && s[1] >= '0' && s[1] <= '9')
		return 0;
	for (; s < c->end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (max - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	c->p = s;
	return last ? c->p == c->end : lit(c, " ");
}

/* A run id: 1 to 16 hex digits, lower case. */
static int
hex(struct cur *c, uint64_t *v)
{
	const char *s = c->p;
	int n = 0;

	*v = 0;
	for (; s < c->end && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')); s++) {
		if (++n > 16)
			return 0;
		*v = (*v << 4) | (uint64_t)(*s <= '9' ? *s - '0' : *s - 'a' + 10);
	}
	c->p = s;
	return n > 0;
}

/* A method's name, then a space. */
static int
method(struct cur *c)
{
	const char *s = c->p;

	while (s < c->end && s - c->p < 64 && ((*s >= 'a' && *s <= 'z') ||
	       (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
	       *s == '+' || *s == '.' || *s == '-'))
		s++;
	if (s == c->p || s - c->p > 63)
		return 0;
	c->p = s;
	return lit(c, " ");
}

/* One line of len bytes, '\n' last and nowhere else, no NUL: its cursor. */
static int
one_line(const char *line, size_t len, struct cur *c)
{
	if (len < 2 || len > DIOT_ACK_LINE_MAX || line[len - 1] != '\n' ||
	    memchr(line, '\n', len - 1) != NULL || memchr(line, '\0', len) != NULL)
		return 0;
	c->p = line;
	c->end = line + len - 1;
	return 1;
}

int
diot_ack_record_check(const char *line, size_t len, uint64_t *run)
{
	const uint64_t u64 = UINT64_MAX, i32 = INT_MAX;
	struct cur c;
	uint64_t rid;

	if (!one_line(line, len, &c))
		return 0;
	switch (line[0]) {
	case '#':
		return lit(&c, "# sync-write ack-log 1") && c.p == c.end;
	case 'R':
		if (!(lit(&c, "R ") && hex(&c, &rid) && lit(&c, " ") &&
		      word2(&c, "shared", "separate") && word2(&c, "0", "1") &&
		      dec(&c, u64, 0) && c.p < c.end))   /* PATH: the rest */
			return 0;
		if (run != NULL)
			*run = rid;
		return 1;
	case 'T':                       /* BIRTH: newer senders' */
		if (!(lit(&c, "T ") && word2(&c, "file", "device") && dec(&c, u64, 0)))
			return 0;
		if (memchr(c.p, ' ', (size_t)(c.end - c.p)) == NULL)
			return dec(&c, u64, 1);
		return dec(&c, u64, 0) && dec(&c, u64, 1);
	case 'P':
		return lit(&c, "P ") && dec(&c, i32, 0) && method(&c) && dec(&c, u64, 0) &&
		       dec(&c, i32, 0) && dec(&c, u64, 1);
	case 'I':
	case 'A':
		c.p++;
		return lit(&c, " ") && dec(&c, i32, 0) && dec(&c, u64, 0) && dec(&c, u64, 1);
	case 'E':
		return len == 2;
	default:
		return 0;
	}
}

int
diot_ack_hello_check(const char *line, size_t len, uint64_t *run)
{
	struct cur c;
	char v[16];

	snprintf(v, sizeof(v), "H %d ", DIOT_ACK_WIRE);
	return one_line(line, len, &c) && lit(&c, v) && hex(&c, run) && c.p == c.end;
}

const char *
diot_ack_bad_name(int why)
{
	switch (why) {
	case DIOT_ACK_BAD_LONG: return "a line longer than the longest record";
	case DIOT_ACK_BAD_NUL: return "a NUL byte in a line";
	case DIOT_ACK_BAD_RECORD: return "a line that is not a record";
	case DIOT_ACK_BAD_HELLO: return "no hello first (a sender older than this "
	                                "listener?), or a second hello";
	case DIOT_ACK_BAD_RUN: return "an R record of another run than its hello's";
	default: return "?";
	}
}

void
diot_ack_reader_init(struct diot_ack_reader *rd)
{
	rd->hello = rd->bad = 0;
	rd->run = 0;
	rd->start = rd->used = 0;
}

char *
diot_ack_reader_room(struct diot_ack_reader *rd, size_t *room)
{
	if (rd->start > 0) {
		memmove(rd->buf, rd->buf + rd->start, rd->used - rd->start);
		rd->used -= rd->start;
		rd->start = 0;
	}
	*room = rd->bad ? 0 : sizeof(rd->buf) - rd->used;
	return rd->buf + rd->used;
}

void
diot_ack_reader_add(struct diot_ack_reader *rd, size_t n)
{
	rd->used += n;
}

size_t
diot_ack_reader_put(struct diot_ack_reader *rd, const void *p, size_t n)
{
	size_t room;
	char *to = diot_ack_reader_room(rd, &room);

	if (n > room)
		n = room;
	if (n)
		memcpy(to, p, n);
	rd->used += n;
	return n;
}

int
diot_ack_reader_next(struct diot_ack_reader *rd, const char **line, size_t *len)
{
	const char *p = rd->buf + rd->start, *nl;
	size_t n = rd->used - rd->start;
	uint64_t run = 0;

	if (rd->bad)
		return rd->bad;
	nl = memchr(p, '\n', n);
	if (nl == NULL)
		/* No newline in a full buffer: longer than any record. */
		return n >= sizeof(rd->buf) ? (rd->bad = DIOT_ACK_BAD_LONG) : DIOT_ACK_MORE;
	n = (size_t)(nl - p) + 1;
	if (memchr(p, '\0', n) != NULL)
		return rd->bad = DIOT_ACK_BAD_NUL;
	if (!rd->hello) {
		if (!diot_ack_hello_check(p, n, &run))
			return rd->bad = DIOT_ACK_BAD_HELLO;
		rd->hello = 1;
		rd->run = run;
		rd->start += n;
		*line = p;
		*len = n;
		return DIOT_ACK_HELLO;
	}
	if (p[0] == 'H')
		return rd->bad = DIOT_ACK_BAD_HELLO;
	if (!diot_ack_record_check(p, n, &run))
		return rd->bad = DIOT_ACK_BAD_RECORD;
	if (p[0] == 'R' && run != rd->run)
		return rd->bad = DIOT_ACK_BAD_RUN;
	rd->start += n;
	*line = p;
	*len = n;
	return DIOT_ACK_RECORD;
}

/* ------------------------------------------------------------ listener */

int
diot_ack_listen(const char *spec, int *port, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[256], serv[32], what[300];
	int fd, r;

	r = split_host_port(spec, 0, host, sizeof(host), serv, sizeof(serv), err, errlen);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "--listen '%s'", spec);
	fd = tcp_socket(host[0] ? host : NULL, serv, 1, what, err, errlen);
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

#define OWED_MAX 4096           /* answers owed before reading stops      */
#define ACCEPTS_PER_ROUND 64

/* A run as the listener keeps it (its public part is in the stats). */
struct srun {
	int fd;                 /* its log; -1 until its first record      */
	off_t size;             /* its own log's length: a failed write is
	                         * cut back to it                          */
	int conns;              /* open connections that said its hello    */
	char *path;             /* its own log's name (malloc'd)           */
};

struct sconn {
	int fd;
	int run;                /* index of its run; -1 before the hello   */
	uint64_t owed;          /* '+' answers logged, not yet sent        */
	uint64_t t_open;        /* accepted (the hello's deadline)         */
	uint64_t t_stall;       /* since when answers are not taken        */
	uint64_t t_part;        /* since when a line is unfinished         */
	int backlog;            /* complete lines left in rd: owed too many */
	const char *refusal;    /* a hello refused: say why, then close    */
	struct diot_ack_reader rd;
};

struct server {
	const struct diot_ack_serve_cfg *cfg;
	struct diot_ack_stats *st;
	struct srun runs[DIOT_ACK_RUN_SLOTS];
	struct sconn **conn;
	int n, max;
	int logged;             /* runs that have a log (a record)         */
	int first_taken;        /* logfd is a run's                        */
	int first_regular;      /* logfd is a regular file: runs after the
	                         * first get their own logs next to it     */
	off_t first_size;
	uint64_t hello_ns, stall_ns;
	unsigned said;          /* bad-line reasons already noted          */
	const volatile sig_atomic_t *stop;
	char *err;
	size_t errlen;
};

static void DIOT_PRINTF(2, 3)
note(struct server *S, const char *fmt, ...)
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
static void
run_forget(struct server *S, int r)
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
		run_forget(S, c->run);
	close(c->fd);
	free(c);
	S->conn[i] = S->conn[--S->n];
}

/* The run of a hello: found or added; -1 and *why when refused. */
static int
run_of(struct server *S, uint64_t id, const char **why)
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
static int
run_log(struct server *S, int r)
{
	struct diot_ack_run *R = &S->st->runs[r];
	struct srun *sr = &S->runs[r];
	const char *base = S->cfg->logpath;
	size_t n;
	int fd;

	if (S->logged >= DIOT_ACK_MAX_RUNS) {
		note(S, "run %llx: refused: this listener has logged as many runs as it can "
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
		note(S, "run %llx: refused: the log is not a regular file and holds another "
		     "run's records", (unsigned long long)R->id);
		return -EBUSY;
	}
	n = strlen(base) + 18;
	sr->path = malloc(n);
	if (sr->path == NULL)
		return -ENOMEM;
	snprintf(sr->path, n, "%s.%llx", base, (unsigned long long)R->id);
	fd = open(sr->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0) {
		int e = neg_errno();

		note(S, "run %llx: refused: cannot create its log '%s': %s",
		     (unsigned long long)R->id, sr->path, dio_strerror(e));
		free(sr->path);
		sr->path = NULL;
		return e;
	}
	sr->fd = fd;
	sr->size = 0;
	R->log = 1;
	S->logged++;
	note(S, "run %llx: another run's records are in '%s'; this run's go to '%s'",
	     (unsigned long long)R->id, base, sr->path);
	return 0;
}

/* write() all of p to a log; a signal that sets *stop ends the wait
 * (a pipe nobody reads, a stopped terminal): -EINTR, written in part. */
static int
log_write(int fd, const char *p, size_t n, const volatile sig_atomic_t *stop)
{
	ssize_t w;

	while (n > 0) {
		if (stop != NULL && *stop)
			return -EINTR;
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? neg_errno() : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Write a record to run r's log.  0, or -errno (the log is left as it
 * was where it is a file: a record written in part is cut off again). */
static int
log_record(struct server *S, int r, const char *line, size_t len)
{
	struct srun *sr = &S->runs[r];
	int own = S->st->runs[r].log == 1;
	off_t *size = own ? &sr->size : &S->first_size;
	int e;

	e = log_write(sr->fd, line, len, S->stop);
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
	if (len == 2 && line[0] == 'E')
		S->st->runs[r].ended = 1;
	return 0;
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

			c->run = run_of(S, c->rd.run, &why);
			if (c->run < 0) {
				st->refused++;
				c->refusal = why;
				return 0;
			}
			S->runs[c->run].conns++;
		} else {
			if (S->runs[c->run].fd < 0 && run_log(S, c->run) < 0) {
				st->refused++;
				return 2;
			}
			if ((e = log_record(S, c->run, line, len)) < 0)
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
			note(S, "a connection was cut for %s (so is every other such "
			     "connection; the summary counts them)", diot_ack_bad_name(k));
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
 * to a run that has logged its R record, so they are never taken.  1 when
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
		diot_ack_reader_init(&c->rd);
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

/* Sync the logs (and close the runs' own).  0 or the first -errno. */
static int
sync_logs(struct server *S)
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
	r = sync_logs(&S);
	if (ret == 0)
		ret = r;
	free(S.conn);
	free(pfd);
	free(own);
	return ret;
}
