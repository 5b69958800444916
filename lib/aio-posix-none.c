/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aio-posix-none.c -- the POSIX AIO engine of dio_aio where the C library
 * has none (see aio-posix.h): dio_aio then has io_uring or nothing, and
 * says so.
 */
#include "config.h"

#include <errno.h>

#include "aio-posix.h"

int
dio__paio_available(void)
{
	return 0;
}

int
dio__paio_new(unsigned depth, struct dio__paio **p)
{
	(void)depth; (void)p;
	return -ENOTSUP;
}

void
dio__paio_free(struct dio__paio *p)
{
	(void)p;
}

int
dio__paio_start(struct dio__paio *p, int write, int fd, void *buf, size_t len,
                int64_t off, uint64_t tag)
{
	(void)p; (void)write; (void)fd; (void)buf; (void)len; (void)off; (void)tag;
	return -ENOTSUP;
}

int
dio__paio_wait(struct dio__paio *p, struct dio_aio_event *ev, unsigned max,
               unsigned min)
{
	(void)p; (void)ev; (void)max; (void)min;
	return -ENOTSUP;
}
