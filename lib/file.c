/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * file.c -- opening files and devices with a direct-I/O and sync policy,
 * and the handle's getters.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "os/os.h"

#ifndef O_CLOEXEC
# define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
# define O_NOCTTY 0
#endif

#define DIO__OPEN_KNOWN (DIO_O_WRONLY | DIO_O_RDWR | DIO_O_CREAT | DIO_O_EXCL | \
                         DIO_O_TRUNC | DIO_O_APPEND)

/*
 * The open flag for a sync policy: O_DSYNC for data integrity, O_SYNC for
 * file integrity, and O_SYNC standing in for O_DSYNC where the latter does
 * not exist (it gives more than asked, never less).
 */
static int
dio__sync_oflag(int sync, int *flag)
{
	switch (sync) {
	case DIO_SYNC_NONE:
		*flag = DIO_SYNCFLAG_NONE;
		return 0;
	case DIO_SYNC_DATA:
#if HAVE_DECL_O_DSYNC
		*flag = DIO_SYNCFLAG_O_DSYNC;
		return O_DSYNC;
#endif
		/* FALLTHROUGH: no O_DSYNC here */
	case DIO_SYNC_FULL:
#if HAVE_DECL_O_SYNC
		*flag = DIO_SYNCFLAG_O_SYNC;
		return O_SYNC;
#else
		*flag = DIO_SYNCFLAG_NONE;
		return -ENOTSUP;
#endif
	}
	return -EINVAL;
}

/* Read the sync policy back from an open descriptor's status flags. */
static void
dio__sync_from_fl(int fl, int *sync, int *flag)
{
	*sync = DIO_SYNC_NONE;
	*flag = DIO_SYNCFLAG_NONE;
#if HAVE_DECL_O_SYNC
	/* On Linux O_SYNC contains the O_DSYNC bit: test it first. */
	if ((fl & O_SYNC) == O_SYNC) {
		*sync = DIO_SYNC_FULL;
		*flag = DIO_SYNCFLAG_O_SYNC;
		return;
	}
#endif
#if HAVE_DECL_O_DSYNC
	if ((fl & O_DSYNC) == O_DSYNC) {
		*sync = DIO_SYNC_DATA;
		*flag = DIO_SYNCFLAG_O_DSYNC;
	}
#endif
	(void)fl;
}

static dio_file *
dio__file_new(int fd, int own)
{
	dio_file *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return NULL;
	if (pthread_mutex_init(&f->lock, NULL) != 0) {
		free(f);
		return NULL;
	}
	f->fd = fd;
	f->own = own;
	f->flush_fd = -1;
	return f;
}

/*
 * Where a commit of f does not by itself flush the device's cache
 * (dio__os_flush_open()), keep the descriptor the flush goes to.  A
 * device that needs one but cannot be given one is logged: its commits
 * then end in the kernel's, which may leave data in the cache.
 */
static void
dio__flush_setup(dio_file *f, const char *path)
{
	struct stat st;
	int r;

	if (fstat(f->fd, &st) != 0)
		return;
	r = dio__os_flush_open(f->fd, &st, path);
	if (r >= 0)
		f->flush_fd = r;
	else if (r != -ENOTSUP)
		dio__log(DIO_LOG_WARN, "%s: commits cannot ask the device to flush "
		         "its write cache: %s", path ? path : "adopted descriptor",
		         dio_strerror(r));
}

static void
dio__file_free(dio_file *f)
{
	if (f->flush_fd >= 0 && f->flush_fd != f->fd)
		close(f->flush_fd);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

/*
 * open() that also tells whether it created the file.  For CREAT without
 * EXCL, first try to open an existing file, then create exclusively; a
 * race with another creator just goes round again.  A dangling symlink
 * (ENOENT, then EEXIST for ever) ends in a plain O_CREAT open whose
 * creation cannot be told, so *created stays 0 there.
 */
static int
dio__open_created(const char *path, int oflags, unsigned flags, unsigned mode,
                  int *created)
{
	int fd, tries;

	*created = 0;
	if (!(flags & DIO_O_CREAT))
		return open(path, oflags);
	if (flags & DIO_O_EXCL) {
		fd = open(path, oflags | O_CREAT | O_EXCL, (mode_t)mode);
		*created = fd >= 0;
		return fd;
	}
	for (tries = 0; tries < 4; tries++) {
		fd = open(path, oflags);
		if (fd >= 0 || errno != ENOENT)
			return fd;
		fd = open(path, oflags | O_CREAT | O_EXCL, (mode_t)mode);
		if (fd >= 0) {
			*created = 1;
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return open(path, oflags | O_CREAT, (mode_t)mode);
}

/*
 * Ask the backend to turn direct I/O on or off for fd.  On failure, the
 * words for a message go to text (len bytes): the refusal's, else the
 * errno's (os.h: a backend's -ENOTSUP always comes with a refusal); and a
 * request for direct I/O keeps its refusal in *rf, a failure that was no
 * refusal as DIO_REFUSAL_ERROR.
 */
static int
dio__set_direct(int fd, int on, struct dio_refusal *rf, char *text, size_t len)
{
	int r;

	memset(rf, 0, sizeof(*rf));
	r = dio__os_set_direct(fd, on, rf);
	if (r >= 0)
		return r;
	if (rf->reason != DIO_REFUSAL_NONE)
		dio_refusal_str(rf, text, len);
	else
		snprintf(text, len, "%s", dio_strerror(r));
	if (on && rf->reason == DIO_REFUSAL_NONE) {
		rf->reason = DIO_REFUSAL_ERROR;
		rf->err = r;
	}
	return r;
}

/* Keep rf as f's last refusal of direct I/O (dio_file_refusal()). */
static void
dio__keep_refusal(dio_file *f, const struct dio_refusal *rf)
{
	pthread_mutex_lock(&f->lock);
	f->refusal = *rf;
	pthread_mutex_unlock(&f->lock);
}

int
dio_open(dio_file **fp, const char *path, unsigned flags, int direct, int sync,
         unsigned mode)
{
	return dio_open_why(fp, path, flags, direct, sync, mode, NULL);
}

int
dio_open_why(dio_file **fp, const char *path, unsigned flags, int direct,
             int sync, unsigned mode, struct dio_refusal *why)
{
	int oflags, syncfl, flag, fd, fl, created, r;
	struct dio_refusal rf;
	char text[160];
	dio_file *f;

	if (why != NULL)
		memset(why, 0, sizeof(*why));
	if (fp == NULL)
		return dio__fail(NULL, -EINVAL, "dio_open: fp is NULL");
	*fp = NULL;
	if (path == NULL || *path == '\0')
		return dio__fail(NULL, -EINVAL, "dio_open: empty path");
	if (flags & ~(unsigned)DIO__OPEN_KNOWN)
		return dio__fail(NULL, -EINVAL, "dio_open %s: unknown flag bits 0x%x",
		                 path, flags & ~(unsigned)DIO__OPEN_KNOWN);
	if ((flags & (DIO_O_WRONLY | DIO_O_RDWR)) == (DIO_O_WRONLY | DIO_O_RDWR))
		return dio__fail(NULL, -EINVAL, "dio_open %s: WRONLY and RDWR both given", path);
	if ((flags & DIO_O_EXCL) && !(flags & DIO_O_CREAT))
		return dio__fail(NULL, -EINVAL, "dio_open %s: EXCL needs CREAT", path);
	if (direct < DIO_DIRECT_OFF || direct > DIO_DIRECT_TRY)
		return dio__fail(NULL, -EINVAL, "dio_open %s: direct policy %d is not "
		                 "OFF, ON or TRY", path, direct);
	if (sync < DIO_SYNC_NONE || sync > DIO_SYNC_FULL)
		return dio__fail(NULL, -EINVAL, "dio_open %s: sync policy %d is not "
		                 "NONE, DATA or FULL", path, sync);

	oflags = O_CLOEXEC | O_NOCTTY;
	oflags |= (flags & DIO_O_RDWR) ? O_RDWR :
	          (flags & DIO_O_WRONLY) ? O_WRONLY : O_RDONLY;
	/* O_TRUNC is not passed to open(): the file is truncated only once
	 * the direct I/O policy has been met, so that a refused DIRECT_ON
	 * leaves the file as it was. */
	if (flags & DIO_O_APPEND)
		oflags |= O_APPEND;
	syncfl = dio__sync_oflag(sync, &flag);
	if (syncfl < 0)
		return dio__fail(NULL, syncfl, "dio_open %s: sync policy '%s' has no "
		                 "open flag on this system", path, dio_sync_name(sync));
	oflags |= syncfl;

	fd = dio__open_created(path, oflags, flags, mode, &created);
	if (fd < 0)
		return dio__fail(NULL, DIO__ERR(errno), "open %s: %s", path,
		                 dio_strerror(errno));

	f = dio__file_new(fd, 1);
	if (f == NULL) {
		close(fd);
		if (created)
			unlink(path);
		return -ENOMEM;
	}
	f->accmode = (int)(flags & (DIO_O_WRONLY | DIO_O_RDWR));
	f->append = (flags & DIO_O_APPEND) != 0;
	f->created = created;

	/* What is really in effect, read back from the kernel. */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		dio__sync_from_fl(fl, &f->sync, &f->sync_flag);
	if (sync != DIO_SYNC_NONE && f->sync < sync)
		dio__log(DIO_LOG_WARN, "open %s: asked sync '%s' but the descriptor "
		         "reports '%s'", path, dio_sync_name(sync),
		         dio_sync_name(f->sync));
	(void)flag;
	dio__flush_setup(f, path);

	r = dio_align_fd(fd, &f->align);
	if (r < 0)
		memset(&f->align, 0, sizeof(f->align));

	if (direct == DIO_DIRECT_OFF) {
		/* Nothing is switched off: where direct I/O is advice kept on
		 * the file (directio()), it belongs to every user of the file,
		 * and a reader must not take it from a database.  What is in
		 * effect anyway (a raw disk, a forcedirectio mount) is said. */
		r = dio__os_get_direct(fd);
		f->mech = r > 0 ? r : DIO_MECH_NONE;
	} else {
		r = dio__set_direct(fd, 1, &rf, text, sizeof(text));
		if (r >= 0) {
			f->mech = r;
		} else if (direct == DIO_DIRECT_TRY) {
			dio__log(DIO_LOG_INFO, "open %s: direct I/O not available (%s); "
			         "using buffered I/O", path, text);
			f->mech = DIO_MECH_NONE;
			f->refusal = rf;
			if (why != NULL)
				*why = rf;
		} else {
			dio__fail(NULL, r, "open %s: direct I/O requested but %s", path,
			          text);
			if (why != NULL)
				*why = rf;
			close(fd);
			if (created)
				unlink(path);
			dio__file_free(f);
			return r;
		}
	}
	if ((flags & DIO_O_TRUNC) && (flags & (DIO_O_WRONLY | DIO_O_RDWR))) {
		struct stat st;

		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
		    ftruncate(fd, 0) != 0) {
			r = DIO__ERR(errno);
			dio__fail(NULL, r, "open %s: truncate: %s", path, dio_strerror(r));
			close(fd);
			dio__file_free(f);
			return r;
		}
	}
	*fp = f;
	return 0;
}

int
dio_adopt(dio_file **fp, int fd, int own)
{
	dio_file *f;
	int fl, r;

	if (fp == NULL)
		return -EINVAL;
	*fp = NULL;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return dio__fail(NULL, DIO__ERR(errno), "adopt fd %d: %s", fd,
		                 dio_strerror(errno));
	f = dio__file_new(fd, own != 0);
	if (f == NULL)
		return -ENOMEM;
	switch (fl & O_ACCMODE) {
	case O_WRONLY: f->accmode = DIO_O_WRONLY; break;
	case O_RDWR:   f->accmode = DIO_O_RDWR; break;
	default:       f->accmode = DIO_O_RDONLY; break;
	}
	f->append = (fl & O_APPEND) != 0;
	dio__sync_from_fl(fl, &f->sync, &f->sync_flag);
	dio__flush_setup(f, NULL);
	r = dio__os_get_direct(fd);
	f->mech = r > 0 ? r : DIO_MECH_NONE;
	if (dio_align_fd(fd, &f->align) < 0)
		memset(&f->align, 0, sizeof(f->align));
	*fp = f;
	return 0;
}

int
dio_close(dio_file *f)
{
	int r = 0;

	if (f == NULL)
		return 0;
	if (f->own && close(f->fd) != 0 && errno != EINTR)
		r = DIO__ERR(errno);
	dio__file_free(f);
	return r;
}

int
dio_file_fd(const dio_file *f)
{
	return f ? f->fd : -EINVAL;
}

int
dio_file_direct(const dio_file *f)
{
	return f ? f->mech : -EINVAL;
}

int
dio_file_sync(const dio_file *f)
{
	return f ? f->sync : -EINVAL;
}

int
dio_file_sync_flag(const dio_file *f)
{
	return f ? f->sync_flag : -EINVAL;
}

int
dio_file_created(const dio_file *f)
{
	return f ? f->created : -EINVAL;
}

int
dio_file_set_direct(dio_file *f, int direct)
{
	struct dio_refusal rf;
	char text[160];
	int r;

	if (f == NULL)
		return -EINVAL;
	if (direct < DIO_DIRECT_OFF || direct > DIO_DIRECT_TRY)
		return dio__fail(f, -EINVAL, "set direct: policy %d is not OFF, ON or TRY",
		                 direct);
	r = dio__set_direct(f->fd, direct != DIO_DIRECT_OFF, &rf, text, sizeof(text));
	/* Only a request for direct I/O is remembered: met, it clears the
	 * last refusal; not met, it is the last refusal. */
	if (direct != DIO_DIRECT_OFF)
		dio__keep_refusal(f, &rf);
	if (r >= 0) {
		f->mech = r;
		return r;
	}
	if (direct == DIO_DIRECT_TRY) {
		/* Whatever failed, the descriptor is still buffered. */
		f->mech = DIO_MECH_NONE;
		return DIO_MECH_NONE;
	}
	return dio__fail(f, r, "set direct %s: %s", direct ? "on" : "off", text);
}

int
dio_fd_set_direct(int fd, int on)
{
	if (fd < 0)
		return -EBADF;
	return dio__os_set_direct(fd, on != 0, NULL);
}

int
dio_fd_get_direct(int fd)
{
	if (fd < 0)
		return -EBADF;
	return dio__os_get_direct(fd);
}

int
dio_file_errdetail(const dio_file *cf, char *buf, size_t len)
{
	dio_file *f = (dio_file *)cf;
	int err;

	if (f == NULL)
		return -EINVAL;
	pthread_mutex_lock(&f->lock);
	err = f->lasterr;
	if (len > 0) {
		strncpy(buf, f->detail, len - 1);
		buf[len - 1] = '\0';
	}
	pthread_mutex_unlock(&f->lock);
	return err;
}

int
dio_file_refusal(const dio_file *cf, struct dio_refusal *r)
{
	dio_file *f = (dio_file *)cf;

	if (f == NULL || r == NULL)
		return -EINVAL;
	pthread_mutex_lock(&f->lock);
	*r = f->refusal;
	pthread_mutex_unlock(&f->lock);
	return 0;
}

/* ------------------------------------------------------------ alignment */

int
dio_align_fd(int fd, struct dio_align *a)
{
	struct stat st;

	if (a == NULL)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	if (fstat(fd, &st) != 0)
		return DIO__ERR(errno);
	if (st.st_blksize > 0)
		a->preferred_io = (uint32_t)st.st_blksize;
	a->is_device = S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode);
	return dio__os_align(fd, &st, a);
}

int
dio_align_path(const char *path, struct dio_align *a)
{
	int fd, r;

	if (path == NULL || a == NULL)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return DIO__ERR(errno);
	r = dio_align_fd(fd, a);
	close(fd);
	return r;
}

int
dio_fs_type(int fd, char *buf, size_t len)
{
	struct stat st;

	if (buf == NULL || len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (fstat(fd, &st) != 0)
		return DIO__ERR(errno);
	return dio__os_fs_type(fd, &st, buf, len);
}

int
dio_file_birth(int fd, uint64_t *stamp)
{
	struct stat st;

	if (stamp == NULL)
		return -EINVAL;
	*stamp = 0;
	if (fstat(fd, &st) != 0)
		return DIO__ERR(errno);
	return dio__os_file_birth(fd, &st, stamp);
}

int
dio_device_in_use(const char *path, char *why, size_t len)
{
	struct stat st;

	if (why != NULL && len > 0)
		why[0] = '\0';
	if (path == NULL)
		return -EINVAL;
	if (stat(path, &st) != 0)
		return DIO__ERR(errno);
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISREG(st.st_mode))
		return DIO__ENOTBLK;
	return dio__os_device_in_use(path, &st, why, why ? len : 0);
}

int
dio_device_claim(const char *path)
{
	struct stat st;

	if (path == NULL)
		return -EINVAL;
	if (stat(path, &st) != 0)
		return DIO__ERR(errno);
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		return DIO__ENOTBLK;
	return dio__os_device_claim(path, &st);
}

int
dio_file_align(const dio_file *f, struct dio_align *a)
{
	if (f == NULL || a == NULL)
		return -EINVAL;
	*a = f->align;
	return 0;
}
