/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uring-none.c -- the io_uring part of the OS contract where there is
 * none: every backend but Linux with liburing.  No engine table, so
 * dio_aio then has POSIX AIO (lib/aio-posix.c) or nothing, and says so.
 */
#include "config.h"

#include <stddef.h>

#include "os/os.h"

const struct dio__aio_ops *
dio__os_uring_ops(void)
{
	return NULL;
}
