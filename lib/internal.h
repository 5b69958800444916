/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * internal.h -- private to libdirectio: the file handle, and the helpers
 * the library's files and the backends share, grouped by the file that
 * defines them.  Everything here is dio__-prefixed and hidden from the ABI.
 */
#ifndef DIO_INTERNAL_H
#define DIO_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "libdirectio.h"

/* The one way errors are made: DIO__ERR(errno) gives the return value. */
#define DIO__ERR(x) (-(x))

/* "not a block device": ENOTBLK is not POSIX; ENODEV stands in without it. */
#ifdef ENOTBLK
# define DIO__ENOTBLK (-ENOTBLK)
#else
# define DIO__ENOTBLK (-ENODEV)
#endif

#if defined(__GNUC__)
# define DIO__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
# define DIO__PRINTF(f, a)
#endif

#define DIO__DETAIL_MAX 256

struct dio_file {
	int fd;
	int own;                 /* close fd in dio_close()                   */
	int accmode;             /* DIO_O_RDONLY / WRONLY / RDWR              */
	int append;
	int created;
	int mech;                /* dio_mech in effect                        */
	int sync;                /* dio_sync in effect                        */
	int sync_flag;           /* dio_sync_flag                             */
	struct dio_align align;  /* what direct transfers are checked against */
	/* Where the commit must also ask the device to flush its cache
	 * (dio__os_flush_open()): -1 none; fd, or a descriptor of its own. */
	int flush_fd;
	pthread_mutex_t lock;    /* guards lasterr/detail/refusal only        */
	int lasterr;
	char detail[DIO__DETAIL_MAX];
	/* Why the last request for direct I/O was not met (dio_file_refusal()). */
	struct dio_refusal refusal;
};

/* ------------------------------------------------------------ log.c */

/* Log a message if a callback is set and level <= its max level. */
void dio__log(int level, const char *fmt, ...) DIO__PRINTF(2, 3);

/* ------------------------------------------------------------ error.c */

/*
 * Record err (negative) and a printf-style detail on f (f may be NULL: then
 * the detail is only logged).  Returns err so callers can
 * `return dio__fail(f, -EINVAL, "...")`.
 */
int dio__fail(const dio_file *f, int err, const char *fmt, ...) DIO__PRINTF(3, 4);

/* ------------------------------------------------------------ refusal.c */

/*
 * Fill *why (NULL: nothing to fill) with a refusal of direct I/O: reason
 * (dio_refusal_reason), the -errno of the system call it reports (or 0)
 * and the file system and driver it names (NULL: none).  Returns -ENOTSUP,
 * for the backends' `return dio__refuse(why, ...)`.
 */
int dio__refuse(struct dio_refusal *why, int reason, int sys_err, const char *fs,
                const char *driver);

/* ------------------------------------------------------------ system.c */

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t dio__now_ns(void);

/* The page size (sysconf; 4096 if it cannot tell). */
size_t dio__pagesize(void);

/* ------------------------------------------------------------ names.c */

/* "a regular file", "a block device", ... for messages about what a
 * descriptor or path is (st: its stat()). */
struct stat;
const char *dio__kind_name(const struct stat *st);

/* ------------------------------------------------------------ disks.c */

/* dio_disks_open() of path whose stat() is st, taken as given: for the
 * tests, which make st name a device of a fake sysfs tree (os/linux.h:
 * dio__linux_root).  *dp is set only on success. */
int dio__disks_open_stat(dio_disks **dp, const char *path, const struct stat *st,
                         char *why, size_t len);

#endif /* DIO_INTERNAL_H */
