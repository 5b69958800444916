/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uring-none.c -- the io_uring part of the OS contract where there is
 * none: every backend but Linux with liburing.  dio_aio then has POSIX
 * AIO (lib/aio.c) or nothing, and says so.
 */
#include "config.h"

#include <errno.h>

#include "lib/internal.h"
#include "os/os.h"

int
dio__os_uring_available(void)
{
	return 0;
}

int
dio__os_uring_new(unsigned depth, struct dio__uring **r)
{
	(void)depth; (void)r;
	return -ENOTSUP;
}

void
dio__os_uring_free(struct dio__uring *r)
{
	(void)r;
}

int
dio__os_uring_prep(struct dio__uring *r, int write, int fd, void *buf, size_t len,
                   int64_t off, uint64_t tag)
{
	(void)r; (void)write; (void)fd; (void)buf; (void)len; (void)off; (void)tag;
	return -ENOTSUP;
}

int
dio__os_uring_submit(struct dio__uring *r)
{
	(void)r;
	return -ENOTSUP;
}

int
dio__os_uring_wait(struct dio__uring *r, struct dio_aio_event *ev, unsigned max,
                   unsigned min)
{
	(void)r; (void)ev; (void)max; (void)min;
	return -ENOTSUP;
}
