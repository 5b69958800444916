/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-socket.c -- where a listener is ("tcp:HOST:PORT", "[V6ADDR]:PORT")
 * and the TCP sockets to it: the sender's connection (ack-send.c) and the
 * listener's listening sockets (diot_ack_listen(): loopback unless an
 * address is named), and whether an address is loopback.
 */
#include "config.h"

#include <errno.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"

int
diot_ack_is_tcp(const char *spec)
{
	return spec != NULL && strncmp(spec, "tcp:", 4) == 0;
}

/* "HOST:PORT" or "[V6]:PORT" (need_host) or also "PORT" alone. */
int
diot__ack_split_host_port(const char *s, int need_host, char *host, size_t hl,
                          char *port, size_t pl, char *err, size_t errlen)
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
int
diot__ack_tcp_socket(const char *host, const char *port, int passive, const char *what,
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

/* Is sa a loopback address (127.0.0.0/8, ::1, or ::ffff:127.x.y.z)? */
int
diot__ack_is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)sa;

		return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)sa;
		const unsigned char *b = a->sin6_addr.s6_addr;
		static const unsigned char v4map[12] = { 0,0,0,0,0,0,0,0,0,0,0xff,0xff };

		if (IN6_IS_ADDR_LOOPBACK(&a->sin6_addr))
			return 1;
		return memcmp(b, v4map, 12) == 0 && b[12] == 127;
	}
	return 0;
}

/* The port of a bound socket, 0 if it cannot say. */
static int
bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}

/* Bind and listen on ai at port (0: any); the descriptor or -errno. */
static int
bind_one(const struct addrinfo *ai, int port)
{
	struct sockaddr_storage ss;
	int fd, one = 1, e;

	if (ai->ai_addrlen > sizeof(ss))
		return -EINVAL;
	memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
	if (ss.ss_family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
	else if (ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
	fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	if (fd < 0)
		return neg_errno();
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
		e = neg_errno();
		close(fd);
		return e;
	}
	return fd;
}

/* "ADDRESS:PORT" of ai ("[V6]:PORT"). */
static void
name_of(const struct addrinfo *ai, int port, char *out, size_t n)
{
	char host[INET6_ADDRSTRLEN + 1] = "?";

	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof(host), NULL, 0,
	                NI_NUMERICHOST) != 0)
		snprintf(host, sizeof(host), "?");
	snprintf(out, n, ai->ai_family == AF_INET6 ? "[%s]:%d" : "%s:%d", host, port);
}

void
diot_ack_unlisten(struct diot_ack_listening *l)
{
	while (l->n > 0)
		close(l->fd[--l->n]);
}

int
diot_ack_listen(const char *spec, struct diot_ack_listening *l, char *err, size_t errlen)
{
	static const char *const loop[2] = { "127.0.0.1", "::1" };
	struct addrinfo hints, *res[2] = { NULL, NULL }, *ai;
	char host[256], serv[32];
	int nres, k, r, fd, port, first_port = 0, e = -EADDRNOTAVAIL;

	memset(l, 0, sizeof(*l));
	r = diot__ack_split_host_port(spec, 0, host, sizeof(host), serv, sizeof(serv), err,
	                              errlen);
	if (r < 0)
		return r;
	port = atoi(serv);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	/* No address named: loopback only, each family the system has. */
	nres = host[0] ? 1 : 2;
	for (k = 0; k < nres; k++) {
		if (!host[0])
			hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
		r = getaddrinfo(host[0] ? host : loop[k], serv, &hints, &res[k]);
		if (r != 0 && host[0]) {
			snprintf(err, errlen, "--listen '%s': %s", spec, gai_strerror(r));
			return -EADDRNOTAVAIL;
		}
		if (r != 0) {
			res[k] = NULL;
			snprintf(l->note, sizeof(l->note), "not listening on %s: %s", loop[k],
			         gai_strerror(r));
		}
	}
	for (k = 0; k < nres; k++)
		for (ai = res[k]; ai != NULL && l->n < DIOT_ACK_MAX_LISTEN; ai = ai->ai_next) {
			int i, dup = 0;

			/* A name may resolve to one address twice. */
			for (i = 0; i < l->n && !dup; i++) {
				struct sockaddr_storage ss;
				socklen_t sl = sizeof(ss);

				dup = getsockname(l->fd[i], (struct sockaddr *)&ss, &sl) == 0 &&
				      ss.ss_family == ai->ai_family && ai->ai_family == AF_INET &&
				      ((struct sockaddr_in *)&ss)->sin_addr.s_addr ==
				      ((struct sockaddr_in *)(void *)ai->ai_addr)->sin_addr.s_addr;
			}
			if (dup)
				continue;
			/* PORT 0: the port the first socket got, on the others too
			 * where it is free there, else any. */
			fd = bind_one(ai, port ? port : first_port);
			if (fd < 0 && !port && first_port)
				fd = bind_one(ai, 0);
			if (fd < 0) {
				e = fd;
				/* Loopback of a family the system lacks: said, not fatal. */
				if (!host[0] && (fd == -EADDRNOTAVAIL || fd == -EAFNOSUPPORT)) {
					snprintf(l->note, sizeof(l->note), "not listening on %s: %s",
					         loop[k], dio_strerror(fd));
					continue;
				}
				snprintf(err, errlen, "--listen '%s': %s", spec, dio_strerror(fd));
				goto fail;
			}
			l->loopback[l->n] = diot__ack_is_loopback(ai->ai_addr);
			if (!first_port)
				first_port = bound_port(fd);
			name_of(ai, bound_port(fd), l->name[l->n], sizeof(l->name[0]));
			l->fd[l->n++] = fd;
		}
	if (l->n == 0) {
		snprintf(err, errlen, "--listen '%s': %s", spec, dio_strerror(e));
		goto fail;
	}
	freeaddrinfo(res[0]);
	if (res[1])
		freeaddrinfo(res[1]);
	return 0;
fail:
	diot_ack_unlisten(l);
	if (res[0])
		freeaddrinfo(res[0]);
	if (res[1])
		freeaddrinfo(res[1]);
	return e;
}
