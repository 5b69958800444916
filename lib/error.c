/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * error.c -- errors: the errno values this library names with its own
 * messages (dio_strerror(), dio_strerror_r(), dio_err_name()), and
 * dio__fail(), the one way a failure is recorded on a handle and logged.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * The errno values this library names, with its own messages (strerror()
 * is neither thread-safe nor the same text everywhere).  Values that are
 * equal on some systems (ENOTSUP/EOPNOTSUPP, EAGAIN/EWOULDBLOCK on Linux)
 * are looked up in order, so the first one wins.  Every name is guarded so
 * that a system lacking one still builds.
 */
struct dio__errent {
	int code;
	const char *name;
	const char *msg;
};

#define DIO__E(n, m) { n, #n, m },
static const struct dio__errent dio__errtab[] = {
	{ 0, "OK", "success" },
	DIO__E(EPERM,        "operation not permitted")
	DIO__E(ENOENT,       "no such file or directory")
	DIO__E(EINTR,        "interrupted system call")
	DIO__E(EIO,          "input/output error")
	DIO__E(ENXIO,        "no such device or address")
	DIO__E(E2BIG,        "argument list too long")
	DIO__E(EBADF,        "bad file descriptor")
	DIO__E(EAGAIN,       "resource temporarily unavailable")
	DIO__E(ENOMEM,       "out of memory")
	DIO__E(EACCES,       "permission denied")
	DIO__E(EFAULT,       "bad address")
	DIO__E(EBUSY,        "device or resource busy")
	DIO__E(EEXIST,       "file exists")
	DIO__E(EXDEV,        "cross-device link")
	DIO__E(ENODEV,       "no such device")
	DIO__E(ENOTDIR,      "not a directory")
	DIO__E(EISDIR,       "is a directory")
	DIO__E(EINVAL,       "invalid argument")
	DIO__E(ENFILE,       "too many open files in system")
	DIO__E(EMFILE,       "too many open files")
	DIO__E(ENOTTY,       "inappropriate ioctl for device")
	DIO__E(ETXTBSY,      "text file busy")
	DIO__E(EFBIG,        "file too large")
	DIO__E(ENOSPC,       "no space left on device")
	DIO__E(ESPIPE,       "illegal seek")
	DIO__E(EROFS,        "read-only file system")
	DIO__E(EPIPE,        "broken pipe")
	DIO__E(ERANGE,       "result out of range")
	DIO__E(EDOM,         "argument out of domain")
	DIO__E(ENAMETOOLONG, "file name too long")
	DIO__E(ENOSYS,       "function not implemented")
	DIO__E(ENOTEMPTY,    "directory not empty")
	DIO__E(ELOOP,        "too many levels of symbolic links")
	DIO__E(EOVERFLOW,    "value too large for defined data type")
	DIO__E(ENOTSUP,      "operation not supported")
#if defined(EOPNOTSUPP)
	DIO__E(EOPNOTSUPP,   "operation not supported")
#endif
	DIO__E(ETIMEDOUT,    "operation timed out")
	DIO__E(ECANCELED,    "operation canceled")
	DIO__E(EILSEQ,       "illegal byte sequence")
	DIO__E(EPROTO,       "protocol error")
	DIO__E(ECONNREFUSED, "connection refused")
	DIO__E(ECONNRESET,   "connection reset by peer")
	DIO__E(ECONNABORTED, "connection aborted")
	DIO__E(EHOSTUNREACH, "no route to host")
	DIO__E(ENETUNREACH,  "network is unreachable")
	DIO__E(EADDRINUSE,   "address already in use")
	DIO__E(EADDRNOTAVAIL, "cannot assign requested address")
#if defined(ENOTBLK)
	DIO__E(ENOTBLK,      "block device required")
#endif
#if defined(EDQUOT)
	DIO__E(EDQUOT,       "disk quota exceeded")
#endif
#if defined(EREMOTEIO)
	DIO__E(EREMOTEIO,    "remote I/O error")
#endif
#if defined(ENOMEDIUM)
	DIO__E(ENOMEDIUM,    "no medium found")
#endif
#if defined(EBADFD)
	DIO__E(EBADFD,       "file descriptor in bad state")
#endif
};
#undef DIO__E

static const struct dio__errent *
dio__errfind(int err)
{
	size_t i;

	if (err == INT_MIN)
		return NULL;
	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(dio__errtab) / sizeof(dio__errtab[0]); i++)
		if (dio__errtab[i].code == err)
			return &dio__errtab[i];
	return NULL;
}

const char *
dio_strerror(int err)
{
	const struct dio__errent *e = dio__errfind(err);

	return e ? e->msg : "unknown error";
}

char *
dio_strerror_r(int err, char *buf, size_t len)
{
	const struct dio__errent *e = dio__errfind(err);

	if (len == 0)
		return buf;
	if (e)
		snprintf(buf, len, "%s", e->msg);
	else
		snprintf(buf, len, "unknown error %lld", err < 0 ? -(long long)err : (long long)err);
	return buf;
}

const char *
dio_err_name(int err)
{
	const struct dio__errent *e = dio__errfind(err);

	return e ? e->name : "EUNKNOWN";
}

int
dio__fail(const dio_file *cf, int err, const char *fmt, ...)
{
	/* The detail is bookkeeping, not the handle's logical state. */
	dio_file *f = (dio_file *)cf;
	char msg[DIO__DETAIL_MAX];
	va_list ap;

	/* Format outside the lock and log the local copy: another thread may
	 * fail on the same handle and rewrite f->detail meanwhile. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (f) {
		pthread_mutex_lock(&f->lock);
		f->lasterr = err;
		memcpy(f->detail, msg, sizeof(f->detail));
		pthread_mutex_unlock(&f->lock);
	}
	dio__log(DIO_LOG_DEBUG, "%s", msg);
	return err;
}
