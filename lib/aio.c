/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aio.c -- the asynchronous I/O queue (dio_aio_*): the bookkeeping shared
 * by the engines, and the choice between them.  The engines: io_uring,
 * Linux only, behind os/os.h (os/linux-uring.c, or os/uring-none.c); and
 * POSIX AIO, a feature of the C library rather than of one OS, behind
 * aio-posix.h (lib/aio-posix.c, or lib/aio-posix-none.c).  Makefile.am
 * picks the files, so this one has no #if.
 */
#include "config.h"

#include <errno.h>
#include <time.h>
#include <stdlib.h>

#include "internal.h"
#include "aio-posix.h"
#include "os/os.h"

struct dio_aio {
	int engine;                  /* DIO_AIO_IO_URING or DIO_AIO_POSIX      */
	unsigned depth;
	unsigned inflight;           /* queued or running, not yet returned    */
	struct dio__uring *ring;     /* io_uring                               */
	struct dio__paio *paio;      /* POSIX AIO                              */
};

unsigned
dio_aio_engines(void)
{
	unsigned m = 0;

	if (dio__os_uring_available())
		m |= 1u << DIO_AIO_IO_URING;
	if (dio__paio_available())
		m |= 1u << DIO_AIO_POSIX;
	return m;
}

const char *
dio_aio_engine_name(int engine)
{
	switch (engine) {
	case DIO_AIO_AUTO: return "auto";
	case DIO_AIO_IO_URING: return "io_uring";
	case DIO_AIO_POSIX: return "posix-aio";
	}
	return "unknown";
}

/* ------------------------------------------------------------ the queue */

static int
dio__aio_setup(dio_aio *q, int engine)
{
	if (engine == DIO_AIO_IO_URING)
		return dio__os_uring_new(q->depth, &q->ring);
	return dio__paio_new(q->depth, &q->paio);
}

static void
dio__aio_teardown(dio_aio *q)
{
	if (q->ring != NULL)
		dio__os_uring_free(q->ring);
	q->ring = NULL;
	/* POSIX AIO: waits for what is still in flight. */
	dio__paio_free(q->paio);
	q->paio = NULL;
}

dio_aio *
dio_aio_new(unsigned depth, int engine, int *err)
{
	dio_aio *q;
	int r;

	if (err != NULL)
		*err = 0;
	if (depth < 1 || depth > DIO_AIO_DEPTH_MAX) {
		dio__log(DIO_LOG_ERROR, "aio: depth %u out of range 1..%d", depth,
		         DIO_AIO_DEPTH_MAX);
		r = -EINVAL;
		goto fail;
	}
	if (engine != DIO_AIO_AUTO && engine != DIO_AIO_IO_URING &&
	    engine != DIO_AIO_POSIX) {
		dio__log(DIO_LOG_ERROR, "aio: unknown engine %d", engine);
		r = -EINVAL;
		goto fail;
	}
	if (engine != DIO_AIO_AUTO && !(dio_aio_engines() & (1u << engine))) {
		dio__log(DIO_LOG_ERROR, "aio: engine %s is not part of this build",
		         dio_aio_engine_name(engine));
		r = -ENOTSUP;
		goto fail;
	}
	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		r = -ENOMEM;
		goto fail;
	}
	q->depth = depth;
	if (engine == DIO_AIO_AUTO) {
		if (dio__os_uring_available()) {
			r = dio__aio_setup(q, DIO_AIO_IO_URING);
			if (r == 0) {
				q->engine = DIO_AIO_IO_URING;
				return q;
			}
			dio__aio_teardown(q);
			dio__log(DIO_LOG_INFO, "aio: io_uring set-up failed (%s); "
			         "using POSIX AIO", dio_strerror(r));
		} else {
			dio__log(DIO_LOG_INFO, "aio: io_uring is not compiled in; "
			         "using POSIX AIO");
		}
		engine = DIO_AIO_POSIX;
		if (!dio__paio_available()) {
			free(q);
			r = -ENOTSUP;
			goto fail;
		}
	}
	r = dio__aio_setup(q, engine);
	if (r < 0) {
		dio__aio_teardown(q);
		free(q);
		dio__log(DIO_LOG_ERROR, "aio: %s set-up failed: %s",
		         dio_aio_engine_name(engine), dio_strerror(r));
		goto fail;
	}
	q->engine = engine;
	return q;
fail:
	if (err != NULL)
		*err = r;
	return NULL;
}

void
dio_aio_free(dio_aio *q)
{
	struct dio_aio_event ev[16];
	int r;

	if (q == NULL)
		return;
	if (q->engine == DIO_AIO_IO_URING) {
		/* Requests in flight may still write into the caller's buffers:
		 * never tear the ring down before they are all back.  A wait
		 * that fails (other than by a signal) is retried for a while. */
		unsigned failures = 0;

		while (q->inflight > 0) {
			r = dio__os_uring_wait(q->ring, ev, 16,
			                       q->inflight < 16 ? q->inflight : 16);
			if (r > 0) {
				q->inflight -= (unsigned)r;
				failures = 0;
			} else if (r < 0 && r != -EINTR) {
				struct timespec ts = { 0, 1000000 };

				if (++failures > 10000) {
					dio__log(DIO_LOG_ERROR, "aio: %u requests still in "
					         "flight after 10 s of failing waits (%s)",
					         q->inflight, dio_strerror(r));
					break;
				}
				nanosleep(&ts, NULL);
			}
		}
	}
	dio__aio_teardown(q);
	free(q);
}

int
dio_aio_engine(const dio_aio *q)
{
	return q == NULL ? -EINVAL : q->engine;
}

unsigned
dio_aio_depth(const dio_aio *q)
{
	return q == NULL ? 0 : q->depth;
}

unsigned
dio_aio_inflight(const dio_aio *q)
{
	return q == NULL ? 0 : q->inflight;
}

static int
dio__aio_queue(dio_aio *q, int write, int fd, void *buf, size_t len, int64_t off,
               uint64_t tag)
{
	int r;

	if (q == NULL || off < 0 || (buf == NULL && len > 0) || fd < 0)
		return -EINVAL;
	if (q->inflight >= q->depth)
		return -EAGAIN;
	if (q->engine == DIO_AIO_IO_URING)
		r = dio__os_uring_prep(q->ring, write, fd, buf, len, off, tag);
	else
		r = dio__paio_start(q->paio, write, fd, buf, len, off, tag);
	if (r == 0)
		q->inflight++;
	return r;
}

int
dio_aio_read(dio_aio *q, int fd, void *buf, size_t len, int64_t off, uint64_t tag)
{
	return dio__aio_queue(q, 0, fd, buf, len, off, tag);
}

int
dio_aio_write(dio_aio *q, int fd, const void *buf, size_t len, int64_t off,
              uint64_t tag)
{
	/* The engines never write through buf; the cast only drops const. */
	return dio__aio_queue(q, 1, fd, (void *)(uintptr_t)buf, len, off, tag);
}

int
dio_aio_submit(dio_aio *q)
{
	if (q == NULL)
		return -EINVAL;
	if (q->engine == DIO_AIO_IO_URING)
		return dio__os_uring_submit(q->ring);
	return 0;
}

int
dio_aio_wait(dio_aio *q, struct dio_aio_event *ev, unsigned max, unsigned min)
{
	int r;

	if (q == NULL || (ev == NULL && max > 0))
		return -EINVAL;
	if (min > q->inflight)
		min = q->inflight;
	if (min > max)
		min = max;
	if (q->engine == DIO_AIO_IO_URING)
		r = dio__os_uring_wait(q->ring, ev, max, min);
	else if (max == 0)
		r = 0;
	else
		r = dio__paio_wait(q->paio, ev, max, min);
	if (r > 0)
		q->inflight -= (unsigned)r;
	return r;
}
