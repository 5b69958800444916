/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * aio-posix-none.c -- the POSIX AIO engine of dio_aio where the C library
 * has none (see aio-engine.h): no table, so dio_aio then has io_uring or
 * nothing, and says so.
 */
#include "config.h"

#include <stddef.h>

#include "aio-engine.h"

const struct dio__aio_ops *
dio__paio_ops(void)
{
	return NULL;
}
