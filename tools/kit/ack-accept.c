/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-accept.c -- the listener's connections coming and going: who it
 * lets in (ack-serve.c's loop calls diot__ack_accept() when a listening
 * socket is readable: a new connection is taken, given the place of the
 * oldest one that has logged nothing, or refused with the reason, under
 * the cap on connections and the one per peer address,
 * --max-conns-per-host) and diot__ack_conn_close().
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tools/kit/ack.h"
#include "tools/kit/ack-private.h"
#include "tools/kit/ack-serve.h"

/* Close connection i; cut (abort): at once, with a reset, whatever its
 * kernel still holds (a peer that does not read would never see a FIN
 * queued behind the answers it does not take). */
void
diot__ack_conn_close(struct server *S, int i, int cut)
{
	struct sconn *c = S->conn[i];
	struct linger lg = { 1, 0 };

	if (cut)
		setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	if (c->run >= 0 && --S->runs[c->run].conns == 0)
		diot__ack_run_left(S, c->run);
	close(c->fd);
	free(c);
	S->conn[i] = S->conn[--S->n];
}

/* Has c's run logged a record?  (Not yet, or no hello: it may give its
 * place to a new connection.) */
static int
conn_logged(const struct server *S, const struct sconn *c)
{
	return c->run >= 0 && S->st->runs[c->run].log >= 0;
}

/* Is c from the peer address (family, addr)? */
static int
same_host(const struct sconn *c, int family, const unsigned char *addr)
{
	return c->family == family && memcmp(c->addr, addr, sizeof(c->addr)) == 0;
}

/* At max_conns (or at max_per_host from one address: addr not NULL, only
 * that address's): make room by cutting the oldest connection whose run
 * has logged nothing (a hello and silence, or no hello yet).  A run's
 * connections that wait at its start while the target is prepared belong
 * to a run that has logged its first record, so they are never taken.  1 when
 * room was made, 0 when every connection's run has logged. */
static int
make_room(struct server *S, int family, const unsigned char *addr)
{
	int i, old = -1;

	for (i = 0; i < S->n; i++)
		if (!conn_logged(S, S->conn[i]) &&
		    (addr == NULL || same_host(S->conn[i], family, addr)) &&
		    (old < 0 || S->conn[i]->t_open < S->conn[old]->t_open))
			old = i;
	if (old < 0)
		return 0;
	S->st->idle++;
	diot__ack_conn_close(S, old, 1);
	return 1;
}

/* Refuse a new connection past a cap: say why (its sender reads this as
 * the answer to its hello: "-listener full: N connections[ from this
 * address (--max-conns-per-host)]"), then close. */
static void
refuse_full(int fd, int n_conns, int per_host)
{
	char msg[128], junk[256];
	int n = snprintf(msg, sizeof(msg), "-listener full: %d connections%s\n", n_conns,
	                 per_host ? " from this address (--max-conns-per-host)" : "");

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

/* The peer's address, as max_per_host counts it (an IPv4-mapped IPv6
 * address is its IPv4 one; the port is not part of it). */
static void
peer_key(const struct sockaddr_storage *ss, int *family, unsigned char addr[16])
{
	memset(addr, 0, 16);
	*family = ss->ss_family;
	if (ss->ss_family == AF_INET) {
		memcpy(addr, &((const struct sockaddr_in *)ss)->sin_addr, 4);
	} else if (ss->ss_family == AF_INET6) {
		const struct in6_addr *a6 = &((const struct sockaddr_in6 *)ss)->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(a6)) {
			*family = AF_INET;
			memcpy(addr, a6->s6_addr + 12, 4);
		} else {
			memcpy(addr, a6->s6_addr, 16);
		}
	}
}

/*
 * Room for a new connection from (family, addr) under max_per_host (its
 * address's oldest connection that logged nothing gives its place) and
 * max_conns: 1, or 0 when refused (answered why, counted; the first
 * refusal of an address over max_per_host is noted, with the address).
 */
static int
admit(struct server *S, int fd, int family, const unsigned char *addr)
{
	char text[INET6_ADDRSTRLEN] = "?";
	int i, from = 0;

	for (i = 0; S->max_host < S->max && i < S->n; i++)
		from += same_host(S->conn[i], family, addr);
	if (S->max_host < S->max && from >= S->max_host && !make_room(S, family, addr)) {
		S->st->refused++;
		S->st->over_host++;
		if (!(S->said & SAID_HOST)) {
			S->said |= SAID_HOST;
			inet_ntop(family, addr, text, sizeof(text));
			diot__ack_note(S, "connections from %s refused: %d at once, the bound "
			               "(--max-conns-per-host; the summary counts the refused)",
			               text, S->max_host);
		}
		refuse_full(fd, from, 1);
		return 0;
	}
	if (S->n >= S->max && !make_room(S, 0, NULL)) {
		S->st->refused++;
		refuse_full(fd, S->n, 0);
		return 0;
	}
	return 1;
}

void
diot__ack_accept(struct server *S, int lfd, uint64_t now)
{
	int k, fd, one = 1, sndbuf = 8192, family;
	unsigned char addr[16];
	struct sockaddr_storage ss;
	socklen_t sl;
	struct sconn *c;

	for (k = 0; k < ACCEPTS_PER_ROUND; k++) {
		sl = sizeof(ss);
		memset(&ss, 0, sizeof(ss));
		fd = accept(lfd, (struct sockaddr *)&ss, &sl);
		if (fd < 0)
			return;         /* EAGAIN: none left; anything else: next round */
		S->st->connections++;
		peer_key(&ss, &family, addr);
		if (!admit(S, fd, family, addr))
			continue;
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
		c->refusal[0] = '\0';
		c->out_len = c->out_off = 0;
		c->loopback = diot__ack_is_loopback((struct sockaddr *)&ss);
		c->pending = 0;
		c->family = family;
		memcpy(c->addr, addr, sizeof(c->addr));
		diot_ack_reader_init(&c->rd, S->cfg->records, S->cfg->token);
		S->conn[S->n++] = c;
	}
}
