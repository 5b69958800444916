/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * common.c -- version, capabilities, error names and messages, logging,
 * aligned memory, enum names.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "os/os.h"

unsigned
dio_version(void)
{
	return DIO_VERSION_HEX;
}

const char *
dio_version_string(void)
{
	return PACKAGE_VERSION;
}

const char *
dio_backend_name(void)
{
	return DIO_BACKEND_NAME;
}

unsigned
dio_caps(void)
{
	unsigned caps = dio__os_caps();

	/* The portable parts: probed POSIX flags and calls. */
#if HAVE_DECL_O_DSYNC
	caps |= DIO_CAP_O_DSYNC;
#endif
#if HAVE_DECL_O_SYNC
	caps |= DIO_CAP_O_SYNC;
#endif
#if HAVE_DECL_FDATASYNC && defined(HAVE_FDATASYNC)
	caps |= DIO_CAP_FDATASYNC;
#endif
	return caps;
}

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

/* The one piece of global mutable state (see dio_set_log_fn()). */
static dio_log_fn dio__log_fn;
static void *dio__log_arg;
static int dio__log_max;

void
dio_set_log_fn(dio_log_fn fn, void *arg, int max_level)
{
	dio__log_fn = fn;
	dio__log_arg = arg;
	dio__log_max = max_level;
}

static void
dio__vlog(int level, const char *fmt, va_list ap)
{
	char msg[DIO__DETAIL_MAX + 64];

	if (dio__log_fn == NULL || level > dio__log_max)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	dio__log_fn(level, msg, dio__log_arg);
}

void
dio__log(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dio__vlog(level, fmt, ap);
	va_end(ap);
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

uint64_t
dio__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *
dio__kind_name(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return "a regular file";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISFIFO(st->st_mode))
		return "a pipe";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a device";
}

size_t
dio__pagesize(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}

void *
dio_alloc(size_t len, size_t align)
{
	void *p = NULL;

	if (align == 0)
		align = dio__pagesize();
	if ((align & (align - 1)) != 0)
		return NULL;
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (posix_memalign(&p, align, len ? len : 1) != 0)
		return NULL;
	return p;
}

size_t
dio_large_page_size(void)
{
	return dio__os_large_page_size();
}

void *
dio_alloc_large(size_t len, size_t align, size_t *page_size)
{
	size_t lp, n = len ? len : 1;
	void *p = NULL;

	if (page_size != NULL)
		*page_size = 0;
	if (align == 0)
		align = dio__pagesize();
	if ((align & (align - 1)) != 0)
		return NULL;
	lp = dio_large_page_size();
	if (lp == 0 || n > SIZE_MAX - (lp - 1))
		return dio_alloc(len, align);
	n = (n + lp - 1) & ~(lp - 1);
	if (posix_memalign(&p, align > lp ? align : lp, n) != 0)
		return NULL;
	if (dio__os_large_pages(p, n, lp) == 0 && page_size != NULL)
		*page_size = lp;
	return p;
}

void
dio_free(void *p)
{
	free(p);
}

const char *
dio_mech_name(int mech)
{
	switch (mech) {
	case DIO_MECH_NONE:     return "none";
	case DIO_MECH_O_DIRECT: return "O_DIRECT";
	case DIO_MECH_DIRECTIO: return "directio()";
	case DIO_MECH_RAW:      return "raw device";
	case DIO_MECH_FORCED:   return "forcedirectio";
	}
	return "invalid";
}

const char *
dio_direct_limit_text(unsigned bit)
{
	switch (bit) {
	case DIO_DLIM_SYNC_EXTEND:
		return "O_SYNC/O_DSYNC writes that extend the file are buffered";
	case DIO_DLIM_SYNC_HOLES:
		return "O_SYNC/O_DSYNC writes are buffered while the file has a hole";
	case DIO_DLIM_MAPPED:
		return "requests are buffered while the file is mapped (mmap)";
	case DIO_DLIM_CACHED:
		return "requests are buffered while the file has cached pages that "
		       "cannot be dropped";
	case DIO_DLIM_CACHED_ANY:
		return "requests are buffered while the file has any cached page "
		       "(clean pages are not dropped)";
	}
	return NULL;
}

const char *
dio_sync_name(int sync)
{
	switch (sync) {
	case DIO_SYNC_NONE: return "none";
	case DIO_SYNC_DATA: return "data";
	case DIO_SYNC_FULL: return "full";
	}
	return "invalid";
}

const char *
dio_sync_flag_name(int flag)
{
	switch (flag) {
	case DIO_SYNCFLAG_NONE:    return "none";
	case DIO_SYNCFLAG_O_DSYNC: return "O_DSYNC";
	case DIO_SYNCFLAG_O_SYNC:  return "O_SYNC";
	}
	return "invalid";
}

const char *
dio_commit_name(int method)
{
	switch (method) {
	case DIO_COMMIT_NONE:      return "none";
	case DIO_COMMIT_FDATASYNC: return "fdatasync";
	case DIO_COMMIT_FSYNC:     return "fsync";
	case DIO_COMMIT_RWF_DSYNC: return "rwf-dsync";
	}
	return "invalid";
}

const char *
dio_align_source_name(int source)
{
	switch (source) {
	case DIO_ALIGN_SRC_NONE:   return "none";
	case DIO_ALIGN_SRC_STATX:  return "statx";
	case DIO_ALIGN_SRC_BLKDEV: return "blkdev";
	case DIO_ALIGN_SRC_FSRULE: return "fs-rule";
	case DIO_ALIGN_SRC_GUESS:  return "guess";
	}
	return "invalid";
}
