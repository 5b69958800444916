/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-file.c -- Linux backend, the I/O on a descriptor: the capability
 * bits, O_DIRECT through fcntl(F_SETFL) (refused where statx reports that
 * the file takes no direct I/O), pwritev2 RWF_DSYNC, discard reads
 * (sendfile or splice to /dev/null); what an open file is: its file
 * system type and birth stamp; and transparent huge pages for buffers.
 * os/os.h names the files that serve the rest of the contract.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
# include <linux/fs.h>
#endif

#include "lib/internal.h"
#include "os/linux-read.h"
#include "os/linux.h"
#include "os/os.h"

#if HAVE_DECL_O_DIRECT
# define DIO__HAVE_ODIRECT 1
#else
# define DIO__HAVE_ODIRECT 0
#endif
#if defined(HAVE_PWRITEV2) && HAVE_DECL_RWF_DSYNC
# define DIO__HAVE_RWF_DSYNC 1
#else
# define DIO__HAVE_RWF_DSYNC 0
#endif

unsigned
dio__os_caps(void)
{
	unsigned caps = DIO_CAP_GET_DIRECT;

	if (DIO__HAVE_ODIRECT)
		caps |= DIO_CAP_O_DIRECT;
	if (DIO__HAVE_RWF_DSYNC)
		caps |= DIO_CAP_RWF_DSYNC;
	if (DIO__HAVE_DIOALIGN)
		caps |= DIO_CAP_DIOALIGN;
#ifdef HAVE_SCSI_SG_H
	caps |= DIO_CAP_SCSI;
#endif
#ifdef POSIX_FADV_DONTNEED
	caps |= DIO_CAP_FADVISE;        /* mm/fadvise.c drops clean pages */
#endif
	return caps;
}

/*
 * Has the kernel said that this file takes no direct I/O?  statx reports
 * STATX_DIOALIGN with an offset alignment of 0 for such regular files
 * (ext4 with data=journal, inline data, fs-verity, some encrypted files),
 * and yet fcntl(F_SETFL, O_DIRECT) succeeds there and the I/O is quietly
 * buffered.  Returns 1 if refused, 0 if not or unknown.
 */
static int
dio__statx_refuses_direct(int fd)
{
#if DIO__HAVE_DIOALIGN
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN | STATX_TYPE, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && (stx.stx_mask & STATX_TYPE) &&
	    S_ISREG(stx.stx_mode) && stx.stx_dio_offset_align == 0)
		return 1;
#else
	(void)fd;
#endif
	return 0;
}

int
dio__os_set_direct(int fd, int on, struct dio_refusal *why)
{
#if DIO__HAVE_ODIRECT
	int fl = fcntl(fd, F_GETFL), want;

	if (fl < 0)
		return DIO__ERR(errno);
	if (on && dio__statx_refuses_direct(fd))
		return dio__refuse(why, DIO_REFUSAL_STATX_NO_DIO, 0, NULL, NULL);
	want = on ? (fl | O_DIRECT) : (fl & ~O_DIRECT);
	if (want != fl && fcntl(fd, F_SETFL, want) != 0) {
		/* setfl says EINVAL when the file has no direct_IO support. */
		if (errno != EINVAL)
			return DIO__ERR(errno);
		return dio__refuse(why, DIO_REFUSAL_SETFL_EINVAL, -EINVAL, NULL, NULL);
	}
	/* Trust only what the kernel reports back. */
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return DIO__ERR(errno);
	if (on && !(fl & O_DIRECT))
		return dio__refuse(why, DIO_REFUSAL_O_DIRECT_DROPPED, 0, NULL, NULL);
	return (fl & O_DIRECT) ? DIO_MECH_O_DIRECT : DIO_MECH_NONE;
#else
	(void)fd;
	return on ? dio__refuse(why, DIO_REFUSAL_NO_O_DIRECT, 0, NULL, NULL)
	          : DIO_MECH_NONE;
#endif
}

int
dio__os_get_direct(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return DIO__ERR(errno);
#if DIO__HAVE_ODIRECT
	return (fl & O_DIRECT) ? DIO_MECH_O_DIRECT : DIO_MECH_NONE;
#else
	return DIO_MECH_NONE;
#endif
}

int64_t
dio__os_pwrite_dsync(int fd, const void *buf, size_t len, int64_t off)
{
#if DIO__HAVE_RWF_DSYNC
	struct iovec iov;
	ssize_t n;

	iov.iov_base = (void *)(uintptr_t)buf;
	iov.iov_len = len;
	n = pwritev2(fd, &iov, 1, (off_t)off, RWF_DSYNC);
	if (n >= 0)
		return n;
	/* Kernels before 4.7 have no pwritev2; unknown flags give EOPNOTSUPP. */
	if (errno == ENOSYS || errno == EOPNOTSUPP)
		return -ENOTSUP;
	return DIO__ERR(errno);
#else
	(void)fd; (void)buf; (void)len; (void)off;
	return -ENOTSUP;
#endif
}

/*
 * Linux needs no flush of its own: fsync() and fdatasync() of a block
 * device flush its cache (blkdev_fsync()), an O_DSYNC write ends in the
 * same sync (generic_write_sync()), and a file system sends its flushes
 * as it commits.
 */
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

/*
 * File system name: the mount of st_dev in /proc/self/mountinfo (exact,
 * "ext4"), else the statfs magic of the common ones (btrfs subvolumes and
 * some FUSE mounts report a device that mountinfo does not list).
 */
int
dio__os_fs_type(int fd, const struct stat *st, char *buf, size_t len)
{
	static const struct { unsigned long magic; const char *name; } magic[] = {
		{ 0xEF53, "ext2/3/4" }, { 0x58465342, "xfs" }, { 0x9123683E, "btrfs" },
		{ 0x01021994, "tmpfs" }, { 0x858458f6, "ramfs" }, { 0x6969, "nfs" },
		{ 0x794c7630, "overlay" }, { 0x2fc12fc1, "zfs" }, { 0xF2F52010, "f2fs" },
		{ 0x65735546, "fuse" }, { 0x9fa0, "proc" }, { 0x62656572, "sysfs" },
		{ 0x1cd1, "devpts" }, { 0x4d44, "vfat" }, { 0x5346544e, "ntfs" },
	};
	struct dio__mount m;
	struct statfs sfs;
	char path[PATH_MAX];
	FILE *fp;
	size_t i;

	fp = fopen(dio__sys_path(path, sizeof(path), "/proc/self/mountinfo"), "re");
	if (fp != NULL) {
		while (dio__mountinfo_next(fp, &m)) {
			if (m.dev != st->st_dev || m.fstype[0] == '\0')
				continue;
			fclose(fp);
			snprintf(buf, len, "%s", m.fstype);
			return 0;
		}
		fclose(fp);
	}
	if (fstatfs(fd, &sfs) != 0)
		return DIO__ERR(errno);
	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if ((unsigned long)sfs.f_type == magic[i].magic) {
			snprintf(buf, len, "%s", magic[i].name);
			return 0;
		}
	snprintf(buf, len, "unknown (0x%lx)", (unsigned long)sfs.f_type);
	return 0;
}

/* ------------------------------------------------------------ discard reads */

/*
 * A descriptor of /dev/null, kept between calls (opening it for every
 * read would cost two system calls).  The application may close it behind
 * the library's back (daemons close every descriptor) and the number may
 * then name a file of its own: every use checks that it is still
 * /dev/null (a character device 1:3) and opens it again if not.
 */
static int dio__devnull_fd = -1;
static pthread_mutex_t dio__devnull_lock = PTHREAD_MUTEX_INITIALIZER;

static int
dio__devnull(void)
{
	struct stat st;
	int fd;

	pthread_mutex_lock(&dio__devnull_lock);
	fd = dio__devnull_fd;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
	    st.st_rdev != makedev(1, 3)) {
		/* Not ours any more: forget it without closing it. */
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		dio__devnull_fd = fd;
	}
	pthread_mutex_unlock(&dio__devnull_lock);
	return fd;
}

/*
 * splice() through a pipe made for the call: for descriptors sendfile()
 * refuses.  The pipe holds page references, not copies.
 */
static int64_t
dio__splice_discard(int fd, int nullfd, int64_t off, size_t len)
{
	int p[2];
	loff_t lo = (loff_t)off;
	ssize_t n, m, out = 0;
	int e;

	if (pipe2(p, O_CLOEXEC) != 0)
		return DIO__ERR(errno);
	if (len > 1u << 20)
		len = 1u << 20;   /* what a pipe can be asked to hold */
	(void)fcntl(p[1], F_SETPIPE_SZ, (int)len);
	n = splice(fd, &lo, p[1], NULL, len, SPLICE_F_MOVE);
	e = errno;
	while (n > 0 && out < n) {
		m = splice(p[0], NULL, nullfd, NULL, (size_t)(n - out),
		           SPLICE_F_MOVE);
		if (m <= 0) {
			if (m < 0 && errno == EINTR)
				continue;
			e = m < 0 ? errno : EIO;
			n = -1;
			break;
		}
		out += m;
	}
	close(p[0]);
	close(p[1]);
	return n < 0 ? DIO__ERR(e == EINVAL ? ENOTSUP : e) : (int64_t)n;
}

int64_t
dio__os_read_discard(int fd, int64_t off, size_t len)
{
	off_t o = (off_t)off;
	ssize_t n;
	int nullfd = dio__devnull();

	if (nullfd < 0)
		return DIO__ERR(errno);
	if (len > 0x7ffff000u)
		len = 0x7ffff000u;   /* sendfile's largest count */
	n = sendfile(nullfd, fd, &o, len);
	if (n >= 0)
		return n;
	if (errno == EINVAL || errno == ENOSYS)
		return dio__splice_discard(fd, nullfd, off, len);
	return DIO__ERR(errno);
}

/* ------------------------------------------------------------ large pages */

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/*
 * Transparent huge pages: the PMD size, unless THP is switched off
 * ("[never]" in enabled; "madvise" and "always" both honour
 * MADV_HUGEPAGE).
 */
size_t
dio__os_large_page_size(void)
{
#ifdef MADV_HUGEPAGE
	char line[128];
	uint64_t v;

	if (dio__read_line(THP_DIR "/enabled", line, sizeof(line)) < 0 ||
	    strstr(line, "[never]") != NULL)
		return 0;
	if (dio__read_u64(THP_DIR, "hpage_pmd_size", &v) < 0 || v <= dio__pagesize() ||
	    (v & (v - 1)) != 0 || v > SIZE_MAX / 2)
		return 0;
	return (size_t)v;
#else
	return 0;
#endif
}

int
dio__os_large_pages(void *p, size_t len, size_t pg)
{
	(void)pg;
#ifdef MADV_HUGEPAGE
	if (madvise(p, len, MADV_HUGEPAGE) != 0)
		return DIO__ERR(errno);
	return 0;
#else
	(void)p;
	(void)len;
	return -ENOTSUP;
#endif
}

/*
 * The birth time (statx STX_BTIME, nanoseconds) where the file system
 * keeps one (ext4 with 256-byte inodes, xfs, btrfs, tmpfs), and the
 * inode's generation number (FS_IOC_GETVERSION: ext2/3/4, btrfs, xfs
 * give every new inode a new one), folded together; either alone when
 * only one is known.  A file that reuses an inode number was born later
 * and (on ext4) got another generation, so its stamp differs.
 */
int
dio__os_file_birth(int fd, const struct stat *st, uint64_t *stamp)
{
	uint64_t bt = 0, gen = 0;
	int have_bt = 0, have_gen = 0;
#if defined(HAVE_STATX) && HAVE_DECL_STATX && defined(STATX_BTIME)
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	if (statx(fd, "", AT_EMPTY_PATH, STATX_BTIME, &stx) == 0 &&
	    (stx.stx_mask & STATX_BTIME) && (stx.stx_btime.tv_sec || stx.stx_btime.tv_nsec)) {
		bt = (uint64_t)stx.stx_btime.tv_sec * 1000000000u + stx.stx_btime.tv_nsec;
		have_bt = 1;
	}
#endif
#if defined(FS_IOC_GETVERSION)
	{
		/* Declared as a long, written as an int by the file systems
		 * (ext4, btrfs, xfs): a long-sized slot, its first int read. */
		long v = 0;
		int g;

		if (S_ISREG(st->st_mode) && ioctl(fd, FS_IOC_GETVERSION, &v) == 0) {
			memcpy(&g, &v, sizeof(g));
			gen = (uint32_t)g;
			have_gen = gen != 0;
		}
	}
#endif
	(void)st;
	if (!have_bt && !have_gen)
		return -ENOTSUP;
	/* Tagged by source in the top bits, so that a stamp of one kind never
	 * equals one of another. */
	if (have_bt && have_gen)
		*stamp = ((bt ^ (gen * 0x9E3779B97F4A7C15ull)) & (~0ull >> 2)) | (3ull << 62);
	else if (have_bt)
		*stamp = (bt & (~0ull >> 2)) | (1ull << 62);
	else
		*stamp = gen | (2ull << 62);
	return 0;
}
