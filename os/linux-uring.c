/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-uring.c -- the io_uring engine of dio_aio (os/os.h,
 * lib/aio-engine.h) through liburing: built with the linux backend when
 * configure found liburing (HAVE_LIBURING); os/uring-none.c stands in
 * everywhere else.  Requests are queued on the ring and handed to the
 * kernel by submit or wait.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <liburing.h>

#include "lib/internal.h"
#include "lib/aio-engine.h"
#include "os/os.h"

struct dio__uring {
	struct io_uring ring;
};

static int
dio__uring_setup(unsigned depth, void **state)
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
	*state = u;
	return 0;
}

static int
dio__uring_queue(void *state, int write, int fd, void *buf, size_t len,
                 int64_t off, uint64_t tag)
{
	struct dio__uring *r = state;
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

static int
dio__uring_submit(void *state)
{
	struct dio__uring *r = state;
	int e;

	do
		e = io_uring_submit(&r->ring);
	while (e == -EINTR);
	return e;
}

static int
dio__uring_wait(void *state, struct dio_aio_event *ev, unsigned max, unsigned min)
{
	struct dio__uring *r = state;
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

static void
dio__uring_teardown(void *state, unsigned inflight)
{
	struct dio__uring *r = state;
	struct dio_aio_event ev[16];
	unsigned failures = 0;
	int n;

	/* Requests in flight may still write into the caller's buffers:
	 * never tear the ring down before they are all back.  A wait that
	 * fails (other than by a signal) is retried for a while. */
	while (inflight > 0) {
		n = dio__uring_wait(r, ev, 16, inflight < 16 ? inflight : 16);
		if (n > 0) {
			inflight -= (unsigned)n;
			failures = 0;
		} else if (n < 0 && n != -EINTR) {
			struct timespec ts = { 0, 1000000 };

			if (++failures > 10000) {
				dio__log(DIO_LOG_ERROR, "aio: %u requests still in "
				         "flight after 10 s of failing waits (%s)",
				         inflight, dio_strerror(n));
				break;
			}
			nanosleep(&ts, NULL);
		}
	}
	io_uring_queue_exit(&r->ring);
	free(r);
}

static const struct dio__aio_ops dio__uring_engine = {
	.setup = dio__uring_setup,
	.teardown = dio__uring_teardown,
	.queue = dio__uring_queue,
	.submit = dio__uring_submit,
	.wait = dio__uring_wait,
};

const struct dio__aio_ops *
dio__os_uring_ops(void)
{
	return &dio__uring_engine;
}
