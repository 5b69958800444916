/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ack-early.c -- an LD_PRELOAD shim that turns a program into one that
 * acknowledges a transaction before its commit: the power-cut test's
 * broken build (tests/qemu/guest-sync-write-powercut.sh), made without
 * touching the product's code.  Linux only (raw system calls, so that it
 * needs neither dlsym nor libdl); for tests, never installed.
 *
 * fdatasync() and fsync() return 0 at once and the real call is owed; a
 * descriptor opened with O_DSYNC or O_SYNC is opened without it, and a
 * pwritev2() with RWF_DSYNC or RWF_SYNC is done without it, each write
 * then owing its fdatasync or fsync.  The owed commit is made at the
 * descriptor's next pwrite(), pwritev2() or close(): so a program that
 * writes, commits, then logs "acknowledged" (sync-write's I, write,
 * commit, A) now writes, logs A, logs the next I, and only then commits
 * what it has acknowledged.  A power cut in that window loses an
 * acknowledged transaction, which the test must see.  An owed commit that
 * fails makes the call that made it fail with its error (the write is
 * then not done), so that the program stops as it would have, one
 * acknowledgement too late.
 *
 * It says "ack-early: commits deferred" on standard error when loaded, so
 * that a test can tell that it was.
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE 1

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define AE_FDS 65536

enum { AE_NONE, AE_FDATASYNC, AE_FSYNC };

/* Per descriptor: the commit owed, and the commit each write owes (the
 * open flag taken away).  A descriptor is one writer's: no locking. */
static volatile unsigned char owed[AE_FDS], per_write[AE_FDS];

static int
ae_fd_ok(int fd)
{
	return fd >= 0 && fd < AE_FDS;
}

/* Make the commit fd owes, if any: 0, or -1 with errno. */
static int
ae_pay(int fd)
{
	int how;

	if (!ae_fd_ok(fd) || owed[fd] == AE_NONE)
		return 0;
	how = owed[fd];
	owed[fd] = AE_NONE;
	return syscall(how == AE_FSYNC ? SYS_fsync : SYS_fdatasync, fd) == 0 ? 0 : -1;
}

static void
ae_owe(int fd, int how)
{
	if (ae_fd_ok(fd) && how > owed[fd])
		owed[fd] = (unsigned char)how;
}

static void __attribute__((constructor))
ae_hello(void)
{
	static const char msg[] = "ack-early: commits deferred\n";

	(void)syscall(SYS_write, 2, msg, sizeof(msg) - 1);
}

static int
ae_open(const char *path, int flags, mode_t mode)
{
	int how = AE_NONE;
	long fd;

	if ((flags & O_SYNC) == O_SYNC)
		how = AE_FSYNC;
	else if (flags & O_DSYNC)
		how = AE_FDATASYNC;
	flags &= ~O_SYNC;
	flags &= ~O_DSYNC;
	fd = syscall(SYS_openat, AT_FDCWD, path, flags, mode);
	if (fd >= 0 && ae_fd_ok((int)fd)) {
		owed[fd] = AE_NONE;
		per_write[fd] = (unsigned char)how;
	}
	return (int)fd;
}

int
open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return ae_open(path, flags, mode);
}

int
open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return ae_open(path, flags, mode);
}

int
fdatasync(int fd)
{
	ae_owe(fd, AE_FDATASYNC);
	return 0;
}

int
fsync(int fd)
{
	ae_owe(fd, AE_FSYNC);
	return 0;
}

static ssize_t
ae_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	long n;

	if (ae_pay(fd) != 0)
		return -1;
	n = syscall(SYS_pwrite64, fd, buf, len, off);
	if (n >= 0 && ae_fd_ok(fd))
		ae_owe(fd, per_write[fd]);
	return (ssize_t)n;
}

ssize_t
pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return ae_pwrite(fd, buf, len, off);
}

ssize_t
pwrite64(int fd, const void *buf, size_t len, off64_t off)
{
	return ae_pwrite(fd, buf, len, (off_t)off);
}

#if defined(SYS_pwritev2) && defined(RWF_DSYNC)
ssize_t
pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	int how = AE_NONE;
	long n;

#ifdef RWF_SYNC
	if (flags & RWF_SYNC)
		how = AE_FSYNC;
	flags &= ~RWF_SYNC;
#endif
	if (how == AE_NONE && (flags & RWF_DSYNC))
		how = AE_FDATASYNC;
	flags &= ~RWF_DSYNC;
	if (ae_pay(fd) != 0)
		return -1;
	/* the kernel takes the offset as two longs, low and high */
	n = syscall(SYS_pwritev2, fd, iov, cnt, (long)off,
	            (long)((unsigned long long)off >> 32), flags);
	if (n >= 0) {
		ae_owe(fd, how);
		if (ae_fd_ok(fd))
			ae_owe(fd, per_write[fd]);
	}
	return (ssize_t)n;
}
#endif

int
close(int fd)
{
	int paid = ae_pay(fd), e = errno;
	long r;

	if (ae_fd_ok(fd))
		per_write[fd] = AE_NONE;
	r = syscall(SYS_close, fd);
	if (paid != 0) {
		errno = e;      /* the commit's error, the descriptor closed */
		return -1;
	}
	return (int)r;
}
