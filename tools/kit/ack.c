/*
 * ack.c -- acknowledgement records to a file or to a listener (ack.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"

#ifndef MSG_NOSIGNAL
# define MSG_NOSIGNAL 0     /* then the tool must ignore SIGPIPE itself */
#endif

#define ACK_MAX_SENDERS 512

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
	a->fd = open(spec, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	if (a->fd < 0) {
		r = neg_errno();
		if (r == -EEXIST)
			snprintf(err, errlen, "'%s' exists: an ack log is one run's record; "
			         "name a new file", spec);
		else
			snprintf(err, errlen, "'%s': %s", spec, dio_strerror(r));
		return r;
	}
	a->kind = DIOT_ACK_FILE;
	a->created = 1;
	snprintf(a->path, sizeof(a->path), "%s", spec);
	return 0;
}

int
diot_ack_reconnect(struct diot_ack *a, char *err, size_t errlen)
{
	int fd;

	if (a->kind != DIOT_ACK_TCP)
		return 0;
	fd = connect_to(a->host, a->port, err, errlen);
	if (fd < 0)
		return fd;
	a->fd = fd;
	return diot_ack_set_answer_time(a, a->answer_s);
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

struct sender {
	int fd;
	size_t used;
	char buf[DIOT_ACK_LINE_MAX];
};

/* Write the complete lines in s's buffer to the log and answer each.
 * Returns 0, -1 to drop the sender, or -errno for a log write error. */
static int
take_lines(struct sender *s, int logfd, struct diot_ack_stats *st)
{
	char *nl, *p = s->buf;
	size_t n;
	int r;

	while ((nl = memchr(p, '\n', s->used - (size_t)(p - s->buf))) != NULL) {
		n = (size_t)(nl - p) + 1;
		if (memchr(p, '\0', n) != NULL)
			return -1;
		r = write_all(logfd, p, n, 0);
		if (r < 0)
			return r;
		st->records++;
		if (write_all(s->fd, "+", 1, 1) < 0)
			return -1;
		p += n;
	}
	n = s->used - (size_t)(p - s->buf);
	memmove(s->buf, p, n);
	s->used = n;
	return n == sizeof(s->buf) ? -1 : 0;   /* a full buffer without a newline */
}

static void
drop(struct sender **tab, int *n, int i)
{
	close(tab[i]->fd);
	free(tab[i]);
	tab[i] = tab[--*n];
}

int
diot_ack_serve(int lfd, int logfd, const volatile sig_atomic_t *stop,
               struct diot_ack_stats *stp, char *err, size_t errlen)
{
	struct sender **tab = calloc(ACK_MAX_SENDERS, sizeof(*tab));
	struct pollfd pfd[ACK_MAX_SENDERS + 1];
	struct diot_ack_stats dummy;
	struct diot_ack_stats *st = stp ? stp : &dummy;
	int n = 0, i, r, ret = 0;
	ssize_t got;

	memset(st, 0, sizeof(*st));
	if (tab == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while (!(stop != NULL && *stop) && !(st->connections > 0 && n == 0)) {
		pfd[0].fd = lfd;
		pfd[0].events = n < ACK_MAX_SENDERS ? POLLIN : 0;
		for (i = 0; i < n; i++) {
			pfd[i + 1].fd = tab[i]->fd;
			pfd[i + 1].events = POLLIN;
		}
		r = poll(pfd, (nfds_t)n + 1, 200);
		if (r < 0 && errno != EINTR) {
			ret = neg_errno();
			snprintf(err, errlen, "poll: %s", dio_strerror(ret));
			break;
		}
		if (r <= 0)
			continue;
		for (i = n - 1; i >= 0; i--) {
			struct sender *s = tab[i];

			if (pfd[i + 1].revents == 0)
				continue;
			got = read(s->fd, s->buf + s->used, sizeof(s->buf) - s->used);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {     /* gone; a torn last line was never answered */
				drop(tab, &n, i);
				continue;
			}
			s->used += (size_t)got;
			r = take_lines(s, logfd, st);
			if (r < -1) {
				ret = r;
				snprintf(err, errlen, "writing the log: %s", dio_strerror(r));
				goto out;
			}
			if (r < 0) {
				st->dropped++;
				drop(tab, &n, i);
			}
		}
		if (pfd[0].revents & POLLIN) {
			int fd = accept(lfd, NULL, NULL), one = 1;
			struct sender *s;

			if (fd < 0)
				continue;
			s = malloc(sizeof(*s));
			if (s == NULL) {
				close(fd);
				st->dropped++;
				continue;
			}
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			s->fd = fd;
			s->used = 0;
			tab[n++] = s;
			st->connections++;
		}
	}
out:
	while (n > 0)
		drop(tab, &n, n - 1);
	free(tab);
	return ret;
}
