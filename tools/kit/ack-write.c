/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-write.c -- all of a buffer written: a record to the listener's
 * socket (the sender, ack-send.c) and a record to a log (the listener,
 * ack-runs.c).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tools/kit/ack-private.h"

int
diot__ack_write_all(int fd, const char *p, size_t n, int sock)
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

/* write() all of p to a log; a signal that sets *stop ends the wait
 * (a pipe nobody reads, a stopped terminal): -EINTR, written in part. */
int
diot__ack_log_write(int fd, const char *p, size_t n,
                    const volatile sig_atomic_t *stop)
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
