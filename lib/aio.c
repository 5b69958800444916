/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aio.c -- the asynchronous I/O queue (dio_aio_*): the bookkeeping shared
 * by the engines, and the choice between them.  Each engine is a table of
 * functions (lib/aio-engine.h), picked once by dio_aio_new(); after that
 * the queue calls through the table and never asks which engine it has.
 * The engines: io_uring, Linux only, behind os/os.h (os/linux-uring.c,
 * or os/uring-none.c); and POSIX AIO, a feature of the C library rather
 * than of one OS (lib/aio-posix.c, or lib/aio-posix-none.c).  Makefile.am
 * picks the files, so this one has no #if.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "aio-engine.h"
#include "os/os.h"

struct dio_aio {
	int engine;                  /* DIO_AIO_IO_URING or DIO_AIO_POSIX      */
	unsigned depth;
	unsigned inflight;           /* queued or running, not yet returned    */
	const struct dio__aio_ops *ops; /* the engine's table, chosen once     */
	void *state;                 /* the engine's own                       */
};

/* The engines by number: each gives its table, or NULL where it is not
 * part of this build. */
static const struct dio__aio_ops *(*const dio__aio_engine[])(void) = {
	[DIO_AIO_IO_URING] = dio__os_uring_ops,
	[DIO_AIO_POSIX] = dio__paio_ops,
};
#define DIO__AIO_NENGINES (sizeof(dio__aio_engine) / sizeof(dio__aio_engine[0]))

/* engine's table, or NULL: not an engine, or not in this build. */
static const struct dio__aio_ops *
dio__aio_ops(int engine)
{
	if (engine < 0 || (unsigned)engine >= DIO__AIO_NENGINES ||
	    dio__aio_engine[engine] == NULL)
		return NULL;
	return dio__aio_engine[engine]();
}

unsigned
dio_aio_engines(void)
{
	unsigned m = 0, e;

	for (e = 0; e < DIO__AIO_NENGINES; e++)
		if (dio__aio_ops((int)e) != NULL)
			m |= 1u << e;
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

/* Set q up on engine, which this build has: 0, or the engine's -errno. */
static int
dio__aio_setup(dio_aio *q, int engine)
{
	const struct dio__aio_ops *ops = dio__aio_ops(engine);
	int r = ops->setup(q->depth, &q->state);

	if (r < 0)
		return r;
	q->engine = engine;
	q->ops = ops;
	return 0;
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
		/* io_uring where the build has it and the kernel allows it,
		 * else POSIX AIO. */
		if (dio__aio_ops(DIO_AIO_IO_URING) != NULL) {
			r = dio__aio_setup(q, DIO_AIO_IO_URING);
			if (r == 0)
				return q;
			dio__log(DIO_LOG_INFO, "aio: io_uring set-up failed (%s); "
			         "using POSIX AIO", dio_strerror(r));
		} else {
			dio__log(DIO_LOG_INFO, "aio: io_uring is not compiled in; "
			         "using POSIX AIO");
		}
		engine = DIO_AIO_POSIX;
		if (dio__aio_ops(engine) == NULL) {
			free(q);
			r = -ENOTSUP;
			goto fail;
		}
	}
	r = dio__aio_setup(q, engine);
	if (r < 0) {
		free(q);
		dio__log(DIO_LOG_ERROR, "aio: %s set-up failed: %s",
		         dio_aio_engine_name(engine), dio_strerror(r));
		goto fail;
	}
	return q;
fail:
	if (err != NULL)
		*err = r;
	return NULL;
}

void
dio_aio_free(dio_aio *q)
{
	if (q == NULL)
		return;
	/* The engine lets go only once what is in flight is back. */
	q->ops->teardown(q->state, q->inflight);
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
	r = q->ops->queue(q->state, write, fd, buf, len, off, tag);
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
	return q->ops->submit(q->state);
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
	r = q->ops->wait(q->state, ev, max, min);
	if (r > 0)
		q->inflight -= (unsigned)r;
	return r;
}
