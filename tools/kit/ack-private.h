/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-private.h -- what the ack files (ack-socket.c, ack-send.c,
 * ack-proto.c, ack-reader.c, ack-runs.c, ack-serve.c, ack-accept.c) share
 * and no user of ack.h needs: the fallbacks for older systems, -errno from errno, a socket's time limit
 * run out, the HOST:PORT and TCP socket helpers of both ends
 * (ack-socket.c) and their writes (ack-write.c).
 */
#ifndef DIOT_ACK_PRIVATE_H
#define DIOT_ACK_PRIVATE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#ifndef MSG_NOSIGNAL
# define MSG_NOSIGNAL 0     /* then the tool must ignore SIGPIPE itself */
#endif
#ifndef O_CLOEXEC
# define O_CLOEXEC 0
#endif

static inline int
neg_errno(void)
{
	return errno ? -errno : -EIO;
}

/* A socket's send or receive time limit ran out. */
static inline int
timed_out(int e)
{
	return e == EAGAIN || e == EWOULDBLOCK;
}

/* ack-socket.c (what each does is said there). */
int diot__ack_split_host_port(const char *s, int need_host, char *host, size_t hl,
                              char *port, size_t pl, char *err, size_t errlen);
int diot__ack_tcp_socket(const char *host, const char *port, int passive,
                         const char *what, char *err, size_t errlen);
int diot__ack_is_loopback(const struct sockaddr *sa);

/* ack-proto.c (what each does is said there). */
#define DIOT_ACK_AUTH_MAC "hmac-sha256"
#define DIOT_ACK_AUTH_PLAIN "plain"
int diot__ack_hex_exact(const char *p, size_t n, unsigned char *out);
int diot__ack_words_mac(const void *key, size_t klen, const char *what, uint64_t run,
                        const unsigned char *cnonce, const unsigned char *snonce,
                        unsigned char *out);
int diot__ack_record_tag(const unsigned char *k, uint64_t seq, const char *line, size_t len,
                         unsigned char *tag);
int diot__ack_answer_tag(const unsigned char *k, uint64_t seq, unsigned char *tag);

/* ack-write.c (what each does is said there). */
int diot__ack_write_all(int fd, const char *p, size_t n, int sock);
int diot__ack_log_write(int fd, const char *p, size_t n, const volatile sig_atomic_t *stop);

#endif /* DIOT_ACK_PRIVATE_H */
