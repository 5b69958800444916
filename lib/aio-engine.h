/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aio-engine.h -- private to libdirectio: what an engine of dio_aio
 * provides, as one table of functions (struct dio__aio_ops).  lib/aio.c
 * picks an engine's table once, when a queue is set up, and from then on
 * calls through it without knowing which engine it has (the way fio's
 * engines each give one ops table).
 *
 * The engines, each with a stand-in for builds without it (Makefile.am
 * picks one file of each pair, so no file here has an #if):
 *   io_uring    os/linux-uring.c (Linux with liburing), os/uring-none.c:
 *               an OS part, declared in os/os.h (dio__os_uring_ops())
 *   POSIX AIO   lib/aio-posix.c where the C library has it (<aio.h>,
 *               aio_read(), aio_suspend(): glibc, illumos libc),
 *               lib/aio-posix-none.c elsewhere (configure:
 *               HAVE_POSIX_AIO): a C library part, declared here
 * A stand-in gives no table (NULL): the engine is not part of the build.
 */
#ifndef DIO_AIO_ENGINE_H
#define DIO_AIO_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "libdirectio.h"

struct dio__aio_ops {
	/* New engine state (opaque to lib/aio.c) for depth requests in
	 * flight: 0 with *state set, or -errno (-ENOMEM; the kernel may
	 * refuse io_uring: -ENOSYS, -EPERM). */
	int (*setup)(unsigned depth, void **state);

	/* Wait until the requests in flight (inflight, as the queue counts
	 * them) are all back, so that the caller's buffers are free again,
	 * then free state. */
	void (*teardown)(void *state, unsigned inflight);

	/* Queue one read (write == 0) or write; the caller keeps at most
	 * depth requests in flight.  An engine may start it at once or keep
	 * it for submit.  0, or -errno. */
	int (*queue)(void *state, int write, int fd, void *buf, size_t len,
	             int64_t off, uint64_t tag);

	/* Start what is queued; the count started, or -errno. */
	int (*submit)(void *state);

	/* Start what is queued, wait for at least min completions (min is
	 * capped by the caller at max and at the number in flight; max may
	 * be 0) and store up to max in ev.  The number stored, or -errno
	 * (-EINTR: a signal came first). */
	int (*wait)(void *state, struct dio_aio_event *ev, unsigned max,
	            unsigned min);
};

/* The POSIX AIO engine, or NULL where the C library has none. */
const struct dio__aio_ops *dio__paio_ops(void);

#endif /* DIO_AIO_ENGINE_H */
