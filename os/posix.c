/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * posix.c -- backend for any other POSIX system, and for
 * ./configure --with-backend=posix on Linux or illumos.
 *
 * It promises only what POSIX.1-2008 gives: there is no portable direct
 * I/O, so turning it on fails with -ENOTSUP (DIO_DIRECT_TRY opens buffered
 * and says so), and no per-write sync flag exists.  The sync open flags and
 * fdatasync()/fsync() are handled by the portable code in lib/.  There is
 * no SCSI pass-through either: os/scsi-none.c, where every SCSI operation
 * returns -ENOTSUP.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/internal.h"
#include "os/os.h"

unsigned
dio__os_caps(void)
{
	/* Direct I/O never happens here, so its state is known: off.
	 * Whether posix_fadvise() acts is the kernel's business, not
	 * POSIX's: claimed only where it is known to (Linux drops clean
	 * pages on POSIX_FADV_DONTNEED, mm/fadvise.c); elsewhere a cache
	 * drop cannot be counted on (illumos' does nothing). */
#if defined(POSIX_FADV_DONTNEED) && defined(__linux__)
	return DIO_CAP_GET_DIRECT | DIO_CAP_FADVISE;
#else
	return DIO_CAP_GET_DIRECT;
#endif
}

int
dio__os_set_direct(int fd, int on, struct dio_refusal *why)
{
	if (fcntl(fd, F_GETFL) < 0)
		return DIO__ERR(errno);
	return on ? dio__refuse(why, DIO_REFUSAL_POSIX_BACKEND, 0, NULL, NULL)
	          : DIO_MECH_NONE;
}

int
dio__os_get_direct(int fd)
{
	if (fcntl(fd, F_GETFL) < 0)
		return DIO__ERR(errno);
	return DIO_MECH_NONE;
}

int64_t
dio__os_pwrite_dsync(int fd, const void *buf, size_t len, int64_t off)
{
	(void)fd; (void)buf; (void)len; (void)off;
	return -ENOTSUP;
}

/* No device cache request is known here: the commit is fsync() alone. */
int
dio__os_flush_open(int fd, const struct stat *st, const char *path)
{
	(void)fd; (void)st; (void)path;
	return -ENOTSUP;
}

int
dio__os_flush(int fd)
{
	(void)fd;
	return -ENOTSUP;
}

int
dio__os_align(int fd, const struct stat *st, struct dio_align *a)
{
	off_t end;

	/* No direct I/O: alignment figures stay 0 with source NONE, and
	 * block sizes are unknown.  The preferred I/O size (st_blksize) is
	 * set by the caller; a device's size is where it ends. */
	if (S_ISBLK(st->st_mode)) {
		end = lseek(fd, 0, SEEK_END);
		if (end > 0)
			a->device_bytes = (uint64_t)end;
		(void)lseek(fd, 0, SEEK_SET);
	}
	return 0;
}

int
dio__os_device_in_use(const char *path, const struct stat *st, char *why,
                      size_t len)
{
	/* POSIX has no portable list of mounts. */
	(void)path; (void)st;
	if (len > 0)
		snprintf(why, len, "this platform gives no portable way to tell "
		         "whether a device is mounted");
	return -ENOTSUP;
}

int
dio__os_fs_type(int fd, const struct stat *st, char *buf, size_t len)
{
	/* statvfs() has no portable file system name. */
	(void)fd; (void)st; (void)buf; (void)len;
	return -ENOTSUP;
}

int
dio__os_file_birth(int fd, const struct stat *st, uint64_t *stamp)
{
	/* POSIX has no birth time (st_birthtim is a BSD extension) and no
	 * generation number. */
	(void)fd; (void)st; (void)stamp;
	return -ENOTSUP;
}

int
dio__os_devinfo(const char *path, const struct stat *st, struct dio_devinfo *out)
{
	/* POSIX has no interface to a device's queue, cache or driver. */
	(void)path; (void)st; (void)out;
	return -ENOTSUP;
}

/* POSIX has no per-disk counters of the block layer. */
int
dio__os_disks_find(const char *path, const struct stat *st, struct dio_disk *list,
                   int *fds, unsigned max, char *why, size_t len)
{
	(void)path; (void)st; (void)list; (void)fds; (void)max;
	if (why != NULL && len > 0)
		snprintf(why, len, "this system keeps no per-disk counters of writes and "
		         "flushes that this library reads (the posix backend)");
	return -ENOTSUP;
}

int
dio__os_disk_counts(int fd, struct dio_disk_counts *c)
{
	(void)fd;
	c->err = -ENOTSUP;
	snprintf(c->note, sizeof(c->note), "no disk counters on this system");
	return c->err;
}

/*
 * No zero-copy discard read and no kernel ring in POSIX: -ENOTSUP.  (The
 * portable POSIX AIO engine lives in lib/aio.c.)
 */
int64_t
dio__os_read_discard(int fd, int64_t off, size_t len)
{
	(void)fd; (void)off; (void)len;
	return -ENOTSUP;
}

int
dio__os_device_claim(const char *path, const struct stat *st)
{
	/* POSIX has no exclusive claim on a device. */
	(void)path; (void)st;
	return -ENOTSUP;
}

/* POSIX has no large pages to ask for. */
size_t
dio__os_large_page_size(void)
{
	return 0;
}

int
dio__os_large_pages(void *p, size_t len, size_t pg)
{
	(void)p; (void)len; (void)pg;
	return -ENOTSUP;
}
