/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fsync-once.c -- an LD_PRELOAD shim for bench/mpi-ior.py: fsync() of a
 * descriptor that has not been written since its last fsync() returns 0
 * without calling the kernel.
 *
 * Why: IOR's -Y (fsync per write) calls fsync twice per transfer with its
 * POSIX backend (once in the backend's transfer, once in the generic
 * write loop), and on a disk with a volatile cache each fsync is a cache
 * flush: two flushes per transaction where sync-write -m fsync issues
 * one.  With this shim IOR flushes once per write, the same work as
 * sync-write; the second call, having nothing new to make durable, is
 * the one left out.  The bench checks the result with the block layer's
 * flush counter and strace.
 *
 * Any write-like call on a descriptor marks it written; descriptors
 * above FO_MAX are always passed through.  Not thread-aware beyond
 * plain stores (IOR's POSIX backend is one thread per rank).
 *
 * Built by bench/mpi-ior.py: cc -shared -fPIC -o fsync-once.so
 * fsync-once.c -ldl.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define FO_MAX 4096

static unsigned char written[FO_MAX];

static void
mark(int fd)
{
	if (fd >= 0 && fd < FO_MAX)
		written[fd] = 1;
}

static void *
next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t))next("write");
	mark(fd);
	return real(fd, buf, n);
}

ssize_t
pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t, off_t))next("pwrite");
	mark(fd);
	return real(fd, buf, n, off);
}

ssize_t
pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t, off_t))next("pwrite64");
	mark(fd);
	return real(fd, buf, n, off);
}

ssize_t
writev(int fd, const struct iovec *iov, int n)
{
	static ssize_t (*real)(int, const struct iovec *, int);

	if (real == NULL)
		real = (ssize_t (*)(int, const struct iovec *, int))next("writev");
	mark(fd);
	return real(fd, iov, n);
}

int
fsync(int fd)
{
	static int (*real)(int);

	if (real == NULL)
		real = (int (*)(int))next("fsync");
	if (fd >= 0 && fd < FO_MAX) {
		if (!written[fd])
			return 0;
		written[fd] = 0;
	}
	return real(fd);
}
