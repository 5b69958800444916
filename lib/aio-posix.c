/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aio-posix.c -- the POSIX AIO engine of dio_aio (see aio-engine.h):
 * portable, a feature of the C library (glibc: libc or librt; illumos:
 * libc), not of one OS, so it is probed by configure and lives in lib/.
 * Each request starts when it is queued; submit has nothing to do.
 */
#include "config.h"

#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "internal.h"
#include "aio-engine.h"

struct dio__aio_slot {
	struct aiocb cb;
	uint64_t tag;
	int busy;
};

struct dio__paio {
	unsigned depth;
	unsigned inflight;           /* started, not yet collected             */
	struct dio__aio_slot *slots; /* depth control blocks                   */
	const struct aiocb **list;   /* for aio_suspend(): NULL for free slots */
	unsigned *free_idx;          /* stack of free slot numbers             */
	unsigned nfree;
	unsigned scan;               /* where the next completion scan starts  */
};

static void
dio__paio_release(struct dio__paio *p)
{
	free(p->slots);
	free(p->list);
	free(p->free_idx);
	free(p);
}

static int
dio__paio_setup(unsigned depth, void **state)
{
	struct dio__paio *p = calloc(1, sizeof(*p));
	unsigned i;

	if (p == NULL)
		return -ENOMEM;
	p->depth = depth;
	p->slots = calloc(depth, sizeof(*p->slots));
	p->list = calloc(depth, sizeof(*p->list));
	p->free_idx = calloc(depth, sizeof(*p->free_idx));
	if (p->slots == NULL || p->list == NULL || p->free_idx == NULL) {
		dio__paio_release(p);
		return -ENOMEM;
	}
	for (i = 0; i < depth; i++)
		p->free_idx[i] = depth - 1 - i;
	p->nfree = depth;
	*state = p;
	return 0;
}

static int
dio__paio_start(void *state, int write, int fd, void *buf, size_t len,
                int64_t off, uint64_t tag)
{
	struct dio__paio *p = state;
	unsigned i = p->free_idx[p->nfree - 1];
	struct dio__aio_slot *s = &p->slots[i];
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
	p->list[i] = &s->cb;
	p->nfree--;
	p->inflight++;
	return 0;
}

/* Collect finished requests into ev[n..max); returns the new n. */
static unsigned
dio__paio_collect(struct dio__paio *p, struct dio_aio_event *ev, unsigned n,
                  unsigned max)
{
	unsigned k, i;
	struct dio__aio_slot *s;
	ssize_t ret;
	int e;

	for (k = 0; k < p->depth && n < max; k++) {
		i = (p->scan + k) % p->depth;
		s = &p->slots[i];
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
		p->list[i] = NULL;
		p->free_idx[p->nfree++] = i;
		p->inflight--;
	}
	p->scan = (p->scan + 1) % p->depth;
	return n;
}

static int
dio__paio_submit(void *state)
{
	(void)state;
	return 0;
}

/* Collect at least min of max completions, suspended until they come. */
static int
dio__paio_reap(struct dio__paio *p, struct dio_aio_event *ev, unsigned max,
               unsigned min)
{
	unsigned n = 0;

	for (;;) {
		n = dio__paio_collect(p, ev, n, max);
		if (n >= min || n >= max || p->inflight == 0)
			return (int)n;
		if (aio_suspend(p->list, (int)p->depth, NULL) != 0) {
			if (errno == EINTR)
				return n > 0 ? (int)n : -EINTR;
			if (errno != EAGAIN)
				return DIO__ERR(errno);
		}
	}
}

static int
dio__paio_wait(void *state, struct dio_aio_event *ev, unsigned max, unsigned min)
{
	/* Nothing asked for: no scan (which would move where the next one
	 * starts). */
	if (max == 0)
		return 0;
	return dio__paio_reap(state, ev, max, min);
}

/* Cancel what is in flight and wait until all of it is back (this engine
 * counts its own requests), then free. */
static void
dio__paio_teardown(void *state, unsigned inflight)
{
	struct dio__paio *p = state;
	struct dio_aio_event ev[16];
	unsigned i;

	(void)inflight;
	for (i = 0; i < p->depth; i++)
		if (p->slots[i].busy)
			(void)aio_cancel(p->slots[i].cb.aio_fildes, &p->slots[i].cb);
	while (p->inflight > 0)
		(void)dio__paio_reap(p, ev, 16, 1);
	dio__paio_release(p);
}

static const struct dio__aio_ops dio__paio_engine = {
	.setup = dio__paio_setup,
	.teardown = dio__paio_teardown,
	.queue = dio__paio_start,
	.submit = dio__paio_submit,
	.wait = dio__paio_wait,
};

const struct dio__aio_ops *
dio__paio_ops(void)
{
	return &dio__paio_engine;
}
