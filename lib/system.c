/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * system.c -- what the library asks of the system itself: a monotonic
 * clock (dio__now_ns(), which times SCSI commands in the backends) and the
 * page size (dio__pagesize(), the default alignment).  It calls nothing
 * of the library's, so that lib/memory.c and the backends it calls can
 * both ask for the page size without calling each other back.
 */
#include "config.h"

#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

uint64_t
dio__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

size_t
dio__pagesize(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}
