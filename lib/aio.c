/*
 * aio.c -- the asynchronous I/O queue (dio_aio_*): bookkeeping shared by
 * the engines, the POSIX AIO engine (portable: glibc, illumos libc), and
 * the calls into the OS backend's io_uring engine (os/linux.c).
 *
 * POSIX AIO is a feature of the C library, not of one OS, so it is
 * probed (HAVE_AIO_H, HAVE_AIO_READ...) and lives here; io_uring is Linux
 * only and lives behind os/os.h.
 */
#include "config.h"

#include <errno.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#if defined(HAVE_AIO_H) && defined(HAVE_AIO_READ) && defined(HAVE_AIO_SUSPEND)
# include <aio.h>
# define DIO__HAVE_POSIX_AIO 1
#else
# define DIO__HAVE_POSIX_AIO 0
#endif

#include "internal.h"
#include "os/os.h"

#if DIO__HAVE_POSIX_AIO
struct dio__aio_slot {
	struct aiocb cb;
	uint64_t tag;
	int busy;
};
#endif

struct dio_aio {
	int engine;                  /* DIO_AIO_IO_URING or DIO_AIO_POSIX      */
	unsigned depth;
	unsigned inflight;           /* queued or running, not yet returned    */
	struct dio__uring *ring;     /* io_uring                               */
#if DIO__HAVE_POSIX_AIO
	struct dio__aio_slot *slots; /* POSIX AIO: depth control blocks        */
	const struct aiocb **list;   /* for aio_suspend(): NULL for free slots */
	unsigned *free_idx;          /* stack of free slot numbers             */
	unsigned nfree;
	unsigned scan;               /* where the next completion scan starts  */
#endif
};

unsigned
dio_aio_engines(void)
{
	unsigned m = 0;

	if (dio__os_uring_available())
		m |= 1u << DIO_AIO_IO_URING;
	if (DIO__HAVE_POSIX_AIO)
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

/* ------------------------------------------------------------ POSIX AIO */

#if DIO__HAVE_POSIX_AIO
static int
dio__paio_init(dio_aio *q)
{
	unsigned i;

	q->slots = calloc(q->depth, sizeof(*q->slots));
	q->list = calloc(q->depth, sizeof(*q->list));
	q->free_idx = calloc(q->depth, sizeof(*q->free_idx));
	if (q->slots == NULL || q->list == NULL || q->free_idx == NULL)
		return -ENOMEM;
	for (i = 0; i < q->depth; i++)
		q->free_idx[i] = q->depth - 1 - i;
	q->nfree = q->depth;
	return 0;
}

static int
dio__paio_start(dio_aio *q, int write, int fd, void *buf, size_t len, int64_t off,
                uint64_t tag)
{
	unsigned i = q->free_idx[q->nfree - 1];
	struct dio__aio_slot *s = &q->slots[i];
	int r;

	memset(&s->cb, 0, sizeof(s->cb));
	s->cb.aio_fildes = fd;
	s->cb.aio_buf = buf;
	s->cb.aio_nbytes = len;
	s->cb.aio_offset = (off_t)off;
	s->cb.aio_sigevent.sigev_notify = SIGEV_NONE;
	s->tag = tag;
	do {
		r = write ? aio_write(&s->cb) : aio_read(&s->cb);
	} while (r != 0 && errno == EINTR);
	if (r != 0)
		return dio__fail(NULL, DIO__ERR(errno), "aio_%s of %zu bytes at offset %lld: %s",
		                 write ? "write" : "read", len, (long long)off,
		                 dio_strerror(errno));
	s->busy = 1;
	q->list[i] = &s->cb;
	q->nfree--;
	return 0;
}

/* Collect finished requests into ev[n..max); returns the new n. */
static unsigned
dio__paio_collect(dio_aio *q, struct dio_aio_event *ev, unsigned n, unsigned max)
{
	unsigned k, i;
	struct dio__aio_slot *s;
	ssize_t ret;
	int e;

	for (k = 0; k < q->depth && n < max; k++) {
		i = (q->scan + k) % q->depth;
		s = &q->slots[i];
		if (!s->busy)
			continue;
		e = aio_error(&s->cb);
		if (e == EINPROGRESS)
			continue;
		ret = aio_return(&s->cb);
		ev[n].tag = s->tag;
		ev[n].result = e == 0 ? (int64_t)ret : DIO__ERR(e < 0 ? errno : e);
		n++;
		s->busy = 0;
		q->list[i] = NULL;
		q->free_idx[q->nfree++] = i;
		q->inflight--;
	}
	q->scan = (q->scan + 1) % q->depth;
	return n;
}

static int
dio__paio_wait(dio_aio *q, struct dio_aio_event *ev, unsigned max, unsigned min)
{
	unsigned n = 0;

	for (;;) {
		n = dio__paio_collect(q, ev, n, max);
		if (n >= min || n >= max || q->inflight == 0)
			return (int)n;
		if (aio_suspend(q->list, (int)q->depth, NULL) != 0) {
			if (errno == EINTR)
				return n > 0 ? (int)n : -EINTR;
			if (errno != EAGAIN)
				return DIO__ERR(errno);
		}
	}
}

static void
dio__paio_drain(dio_aio *q)
{
	struct dio_aio_event ev[16];
	unsigned i;

	if (q->slots == NULL)
		return;
	for (i = 0; i < q->depth; i++)
		if (q->slots[i].busy)
			(void)aio_cancel(q->slots[i].cb.aio_fildes, &q->slots[i].cb);
	while (q->inflight > 0)
		(void)dio__paio_wait(q, ev, 16, 1);
}

static void
dio__paio_free(dio_aio *q)
{
	free(q->slots);
	free(q->list);
	free(q->free_idx);
}
#endif /* DIO__HAVE_POSIX_AIO */

/* ------------------------------------------------------------ the queue */

static int
dio__aio_setup(dio_aio *q, int engine)
{
	if (engine == DIO_AIO_IO_URING)
		return dio__os_uring_new(q->depth, &q->ring);
#if DIO__HAVE_POSIX_AIO
	return dio__paio_init(q);
#else
	return -ENOTSUP;
#endif
}

static void
dio__aio_teardown(dio_aio *q)
{
	if (q->ring != NULL)
		dio__os_uring_free(q->ring);
	q->ring = NULL;
#if DIO__HAVE_POSIX_AIO
	dio__paio_free(q);
	q->slots = NULL;
	q->list = NULL;
	q->free_idx = NULL;
#endif
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
		if (!DIO__HAVE_POSIX_AIO) {
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
#if DIO__HAVE_POSIX_AIO
	else
		dio__paio_drain(q);
#endif
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
#if DIO__HAVE_POSIX_AIO
		r = dio__paio_start(q, write, fd, buf, len, off, tag);
#else
		r = -ENOTSUP;
#endif
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
	if (q->engine == DIO_AIO_IO_URING) {
		r = dio__os_uring_wait(q->ring, ev, max, min);
		if (r > 0)
			q->inflight -= (unsigned)r;
		return r;
	}
#if DIO__HAVE_POSIX_AIO
	if (max == 0)
		return 0;
	return dio__paio_wait(q, ev, max, min);
#else
	return -ENOTSUP;
#endif
}
