/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * discard.c -- dio_read_discard(): reads that bring data into the kernel
 * and drop it without a copy to user memory (the OS path is in os/).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>

#include "internal.h"
#include "os/os.h"

int64_t
dio_read_discard(int fd, int64_t off, size_t len)
{
	size_t done = 0;
	int64_t n;

	if (fd < 0)
		return -EBADF;
	if (off < 0)
		return -EINVAL;
	if (len > (size_t)INT64_MAX || (int64_t)len > INT64_MAX - off)
		return -EOVERFLOW;
	while (done < len) {
		n = dio__os_read_discard(fd, off + (int64_t)done, len - done);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return n;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (int64_t)done;
}
