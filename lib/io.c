/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * io.c -- positional transfers that retry short counts and EINTR, the
 * direct-I/O alignment check, and the commit methods.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <unistd.h>

#include "internal.h"
#include "os/os.h"

/*
 * Check a transfer on a direct handle against its alignment; length first,
 * then offset, then the buffer address.  Nothing is transferred if this
 * fails.  Buffered handles accept anything.
 */
static int
dio__check_align(const dio_file *f, const char *op, const void *buf, size_t len,
                 int64_t off, int is_read)
{
	const struct dio_align *a = &f->align;
	uint32_t g = a->offset_align;

	if (f->mech == DIO_MECH_NONE)
		return 0;
	if (is_read && a->read_offset_align != 0)
		g = a->read_offset_align;
	if (g > 1 && len % g != 0)
		return dio__fail(f, -EINVAL, "direct %s of %zu bytes at offset %" PRId64
		                 ": length must be a multiple of %" PRIu32,
		                 op, len, off, g);
	if (g > 1 && !f->append && off % (int64_t)g != 0)
		return dio__fail(f, -EINVAL, "direct %s of %zu bytes at offset %" PRId64
		                 ": offset must be a multiple of %" PRIu32,
		                 op, len, off, g);
	if (a->mem_align > 1 && (uintptr_t)buf % a->mem_align != 0)
		return dio__fail(f, -EINVAL, "direct %s of %zu bytes at offset %" PRId64
		                 ": buffer address %p must be a multiple of %" PRIu32,
		                 op, len, off, buf, a->mem_align);
	return 0;
}

static int
dio__check_xfer(const dio_file *f, const char *op, const void *buf, size_t len,
                int64_t off, int is_read)
{
	if (f == NULL)
		return -EINVAL;
	if (buf == NULL && len > 0)
		return dio__fail(f, -EFAULT, "%s of %zu bytes: buffer is NULL", op, len);
	if (off < 0)
		return dio__fail(f, -EINVAL, "%s at offset %" PRId64 ": negative offset",
		                 op, off);
	if (len > (size_t)INT64_MAX || (int64_t)len > INT64_MAX - off)
		return dio__fail(f, -EOVERFLOW, "%s of %zu bytes at offset %" PRId64
		                 ": end beyond the largest offset", op, len, off);
	if (is_read && f->accmode == DIO_O_WRONLY)
		return dio__fail(f, -EBADF, "read: handle was opened write-only");
	if (!is_read && f->accmode == DIO_O_RDONLY)
		return dio__fail(f, -EBADF, "write: handle was opened read-only");
	return dio__check_align(f, op, buf, len, off, is_read);
}

/*
 * After a commit, the device flush the kernel's commit did not send
 * (dio__os_flush_open()).  A device that has no cache to flush answers
 * ENOTSUP or ENOTTY: nothing was left to lose.
 */
static int
dio__flush_after(dio_file *f, const char *what)
{
	int r;

	if (f->flush_fd < 0)
		return 0;
	do
		r = dio__os_flush(f->flush_fd);
	while (r == -EINTR);
	if (r == -ENOTSUP || r == -ENOTTY)
		return 0;
	if (r < 0)
		return dio__fail(f, r, "%s: the device's write cache flush failed: %s",
		                 what, dio_strerror(r));
	return 0;
}

static int64_t
dio__write_all(dio_file *f, const void *buf, size_t len, int64_t off, int dsync)
{
	const char *p = buf;
	size_t done = 0;
	int64_t n;

	while (done < len) {
		if (dsync) {
			n = dio__os_pwrite_dsync(f->fd, p + done, len - done,
			                         off + (int64_t)done);
			if (n == -ENOTSUP)
				return dio__fail(f, -ENOTSUP, "write with RWF_DSYNC: not "
				                 "supported by this system%s",
				                 done ? " (after a partial write)" : "");
		} else if (f->append) {
			n = write(f->fd, p + done, len - done);
			if (n < 0)
				n = DIO__ERR(errno);
		} else {
			n = pwrite(f->fd, p + done, len - done, (off_t)(off + (int64_t)done));
			if (n < 0)
				n = DIO__ERR(errno);
		}
		if (n == -EINTR)
			continue;
		if (n < 0)
			return dio__fail(f, (int)n, "%swrite of %zu bytes at offset %" PRId64
			                 " failed after %zu bytes: %s",
			                 f->mech != DIO_MECH_NONE ? "direct " : "", len, off,
			                 done, dio_strerror((int)n));
		if (n == 0)
			return dio__fail(f, -EIO, "write of %zu bytes at offset %" PRId64
			                 ": no progress after %zu bytes", len, off, done);
		done += (size_t)n;
	}
	/* A synchronous handle's write is a commit: it flushes too. */
	if (f->sync != DIO_SYNC_NONE && len > 0) {
		int r = dio__flush_after(f, "synchronous write");

		if (r < 0)
			return r;
	}
	return (int64_t)len;
}

int64_t
dio_pwrite(dio_file *f, const void *buf, size_t len, int64_t off)
{
	int r = dio__check_xfer(f, "write", buf, len, off, 0);

	if (r < 0)
		return r;
	return dio__write_all(f, buf, len, off, 0);
}

int64_t
dio_pread(dio_file *f, void *buf, size_t len, int64_t off)
{
	char *p = buf;
	size_t done = 0;
	ssize_t n;
	int r = dio__check_xfer(f, "read", buf, len, off, 1);

	if (r < 0)
		return r;
	while (done < len) {
		n = pread(f->fd, p + done, len - done, (off_t)(off + (int64_t)done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return dio__fail(f, DIO__ERR(errno), "%sread of %zu bytes at offset %"
			                 PRId64 " failed after %zu bytes: %s",
			                 f->mech != DIO_MECH_NONE ? "direct " : "", len, off,
			                 done, dio_strerror(errno));
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (int64_t)done;
}

int
dio_commit_resolve(int method)
{
	switch (method) {
	case DIO_COMMIT_NONE:
	case DIO_COMMIT_FSYNC:
		return method;
	case DIO_COMMIT_FDATASYNC:
#if HAVE_DECL_FDATASYNC && defined(HAVE_FDATASYNC)
		return DIO_COMMIT_FDATASYNC;
#else
		return DIO_COMMIT_FSYNC;
#endif
	case DIO_COMMIT_RWF_DSYNC:
		return (dio__os_caps() & DIO_CAP_RWF_DSYNC) ? DIO_COMMIT_RWF_DSYNC : -ENOTSUP;
	}
	return -EINVAL;
}

static int
dio__sync_fd(int fd, int method)
{
	int r;

	do {
#if HAVE_DECL_FDATASYNC && defined(HAVE_FDATASYNC)
		if (method == DIO_COMMIT_FDATASYNC)
			r = fdatasync(fd);
		else
#endif
			r = fsync(fd);
	} while (r != 0 && errno == EINTR);
	return r == 0 ? 0 : DIO__ERR(errno);
}

int
dio_commit(dio_file *f, int method)
{
	int m, r;

	if (f == NULL)
		return -EINVAL;
	if (method == DIO_COMMIT_RWF_DSYNC)
		method = DIO_COMMIT_FDATASYNC;
	m = dio_commit_resolve(method);
	if (m < 0)
		return dio__fail(f, m, "commit: unknown method %d", method);
	if (m == DIO_COMMIT_NONE)
		return 0;
	r = dio__sync_fd(f->fd, m);
	if (r < 0)
		return dio__fail(f, r, "%s failed: %s", dio_commit_name(m), dio_strerror(r));
	return dio__flush_after(f, dio_commit_name(m));
}

int64_t
dio_pwrite_commit(dio_file *f, const void *buf, size_t len, int64_t off, int method)
{
	int64_t n;
	int r;

	if (f == NULL)
		return -EINVAL;
	if (method == DIO_COMMIT_RWF_DSYNC) {
		r = dio__check_xfer(f, "write", buf, len, off, 0);
		if (r < 0)
			return r;
		if (f->append)
			return dio__fail(f, -EINVAL, "write with RWF_DSYNC: not usable "
			                 "on an append-only handle");
		return dio__write_all(f, buf, len, off, 1);
	}
	if (dio_commit_resolve(method) < 0)
		return dio__fail(f, -EINVAL, "write+commit: unknown method %d", method);
	n = dio_pwrite(f, buf, len, off);
	if (n < 0)
		return n;
	r = dio_commit(f, method);
	return r < 0 ? r : n;
}
