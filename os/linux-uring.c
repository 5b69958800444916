/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-uring.c -- the io_uring engine of dio_aio (os/os.h) through
 * liburing: built with the linux backend when configure found liburing
 * (HAVE_LIBURING); os/uring-none.c stands in everywhere else.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <liburing.h>

#include "lib/internal.h"
#include "os/os.h"

struct dio__uring {
	struct io_uring ring;
};

int
dio__os_uring_available(void)
{
	return 1;
}

int
dio__os_uring_new(unsigned depth, struct dio__uring **r)
{
	struct dio__uring *u = calloc(1, sizeof(*u));
	int e;

	if (u == NULL)
		return -ENOMEM;
	e = -EINVAL;
#if defined(IORING_SETUP_COOP_TASKRUN) && defined(IORING_SETUP_TASKRUN_FLAG)
	/* Completions are task work: post them when this task next enters
	 * the kernel, as it does to wait, rather than interrupt it with an
	 * IPI for each; and flag the ring when some are pending, so that a
	 * reap without waiting (min 0) still enters the kernel to collect
	 * them.  Linux 5.19; older kernels refuse the flags (EINVAL). */
	e = io_uring_queue_init(depth, &u->ring, IORING_SETUP_COOP_TASKRUN |
	                                         IORING_SETUP_TASKRUN_FLAG);
#endif
	if (e == -EINVAL)
		e = io_uring_queue_init(depth, &u->ring, 0);
	if (e < 0) {
		free(u);
		return e;
	}
	*r = u;
	return 0;
}

void
dio__os_uring_free(struct dio__uring *r)
{
	if (r == NULL)
		return;
	io_uring_queue_exit(&r->ring);
	free(r);
}

int
dio__os_uring_prep(struct dio__uring *r, int write, int fd, void *buf, size_t len,
                   int64_t off, uint64_t tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
	int e;

	if (sqe == NULL) {
		/* The submission ring is full of queued requests: hand them
		 * over, then there is room. */
		e = io_uring_submit(&r->ring);
		if (e < 0)
			return e;
		sqe = io_uring_get_sqe(&r->ring);
		if (sqe == NULL)
			return -EAGAIN;
	}
	if (len > 0x7ffff000u)
		len = 0x7ffff000u;
	if (write)
		io_uring_prep_write(sqe, fd, buf, (unsigned)len, (uint64_t)off);
	else
		io_uring_prep_read(sqe, fd, buf, (unsigned)len, (uint64_t)off);
	sqe->user_data = tag;
	return 0;
}

int
dio__os_uring_submit(struct dio__uring *r)
{
	int e;

	do
		e = io_uring_submit(&r->ring);
	while (e == -EINTR);
	return e;
}

int
dio__os_uring_wait(struct dio__uring *r, struct dio_aio_event *ev, unsigned max,
                   unsigned min)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	int e;

	e = io_uring_submit_and_wait(&r->ring, min);
	if (e < 0 && e != -EBUSY && e != -EINTR)
		return e;
	io_uring_for_each_cqe(&r->ring, head, cqe) {
		if (n >= max)
			break;
		ev[n].tag = cqe->user_data;
		ev[n].result = cqe->res;
		n++;
	}
	io_uring_cq_advance(&r->ring, n);
	/*
	 * Fewer completions than asked means the wait was cut short by a
	 * signal: io_uring_enter() then returns the number it submitted, not
	 * -EINTR, when it submitted anything in the same call.
	 */
	if (n < min)
		return n > 0 ? (int)n : -EINTR;
	return (int)n;
}
