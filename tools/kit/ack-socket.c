/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-socket.c -- where a listener is ("tcp:HOST:PORT", "[V6ADDR]:PORT")
 * and the TCP sockets to it: the sender's connection (ack-send.c) and the
 * listener's listening socket (ack-serve.c).
 */
#include "config.h"

#include <errno.h>
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
