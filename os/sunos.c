/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos.c -- Solaris and illumos backend: direct I/O, alignment, file
 * system facts and large pages.  sunos.h lists the other files of the
 * backend; doc/illumos.md the illumos source behind each rule here.
 *
 * Direct I/O on illumos is directio(fd, DIRECTIO_ON): an _FIODIRECTIO
 * ioctl that asks the file system to bypass its cache for the file (the
 * inode: every descriptor of every process, with no permission check;
 * open(O_DIRECT) issues the same ioctl).  Which file systems honour it
 * decides what is reported, not whether the call returned 0:
 *  - ufs, nfs and smbfs honour it (DIO_MECH_DIRECTIO), each with requests
 *    it still serves through the cache (struct dio_align direct_limits);
 *  - ZFS answers 0 and changes nothing: reported as not direct;
 *  - tmpfs and others refuse it (ENOTTY, ENOSYS), or are not known to
 *    honour it: not direct;
 *  - a forcedirectio mount (ufs, nfs) is direct for every file whatever
 *    the advice (DIO_MECH_FORCED);
 *  - a raw disk node (/dev/rdsk) is always direct: physio moves data
 *    between the device and the caller's pages (DIO_MECH_RAW); but the
 *    raw nodes of a zvol, of lofi and of a ramdisk answer as disks and
 *    end in a cache (the ARC, the backing file's pages) or in memory:
 *    not direct, and neither is UFS on such a device;
 *  - a block disk node (/dev/dsk) goes through specfs's cache and takes
 *    no ioctl at all: not direct.
 * The advice cannot be read back, so only the last two show in
 * dio__os_get_direct().
 */
#include "config.h"

#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/internal.h"
#include "os/os.h"
#include "os/sunos.h"

#if defined(HAVE_DIRECTIO) && HAVE_DECL_DIRECTIO && HAVE_DECL_DIRECTIO_ON
# define DIO__HAVE_DIRECTIO 1
#else
# define DIO__HAVE_DIRECTIO 0
#endif

/* UFS's rules for a request to stay direct (ufs_directio.c). */
#define DIO__UFS_SECTOR 512u
#define DIO__UFS_MEMALIGN 2u

/* The file systems that honour directio() (doc/illumos.md). */
static int
dio__fs_honours_directio(const char *fs)
{
	return strcmp(fs, "ufs") == 0 || strcmp(fs, "nfs") == 0 ||
	       strcmp(fs, "smbfs") == 0;
}

unsigned
dio__os_caps(void)
{
	unsigned caps = DIO__HAVE_DIRECTIO ? DIO_CAP_DIRECTIO : 0;

#ifdef HAVE_SYS_SCSI_IMPL_USCSI_H
	caps |= DIO_CAP_SCSI;
#endif
	return caps;
}

/*
 * The mount of the regular file st, on a file system of type fs, where
 * directio() concerns it (ufs, nfs, smbfs): read once for
 * dio__fs_on_cached() and dio__forced().  1 with *m set, else 0.
 */
static int
dio__directio_mount(const char *fs, const struct stat *st, struct dio__sunos_mount *m)
{
	return dio__fs_honours_directio(fs) && dio__sunos_mount_of(st->st_dev, m) == 1;
}

/* Is a file of type fs, on mount m, forced direct?  Only ufs and nfs have
 * the forcedirectio option. */
static int
dio__forced(const char *fs, const struct dio__sunos_mount *m)
{
	if (strcmp(fs, "ufs") != 0 && strcmp(fs, "nfs") != 0)
		return 0;
	return m->forcedirectio &&
	       (strcmp(m->fstype, "ufs") == 0 || strcmp(m->fstype, "nfs") == 0);
}

/*
 * Is the character node fd a disk (it answers DKIOCINFO)?  Then cached
 * (len bytes) names its driver where it is not direct although it is raw
 * (a zvol, lofi, ramdisk: sunos-disk.c), or is "".
 */
static int
dio__raw_disk(int fd, char *cached, size_t len)
{
	char drv[DIO_REFUSAL_NAME_MAX];

	cached[0] = '\0';
	if (dio__sunos_driver(fd, drv, sizeof(drv)) != 0)
		return 0;
	if (dio__sunos_cached_driver(drv))
		snprintf(cached, len, "%s", drv);
	return 1;
}

/*
 * Is a file of a UFS or other disk file system on mount m not direct
 * although the file system bypasses its own cache, because the device it
 * is on keeps one (UFS on a zvol or on lofi, the usual way to have UFS on
 * a ZFS-rooted system)?  Then 1, with the device's driver in drv (len
 * bytes).  The device's raw node is asked for its driver; where it cannot
 * be opened, its name says it.  0 when not so.
 */
static int
dio__fs_on_cached(const struct dio__sunos_mount *m, char *drv, size_t len)
{
	struct stat st;
	char raw[PATH_MAX];
	const char *pseudo;
	int fd;

	drv[0] = '\0';
	if (m->special[0] != '/')
		return 0;
	if (stat(m->special, &st) == 0 && S_ISBLK(st.st_mode) &&
	    dio__sunos_raw_twin(m->special, st.st_rdev, raw, sizeof(raw)) == 0 &&
	    (fd = open(raw, O_RDONLY | O_NONBLOCK | O_NDELAY | O_CLOEXEC)) >= 0) {
		(void)dio__raw_disk(fd, drv, len);
		close(fd);
		return drv[0] != '\0';
	}
	/* Every pseudo disk is a cached one. */
	pseudo = dio__sunos_pseudo_disk(m->special);
	if (pseudo == NULL)
		return 0;
	snprintf(drv, len, "%s", pseudo);
	return 1;
}

int
dio__os_set_direct(int fd, int on, struct dio_refusal *why)
{
	struct dio__sunos_mount m;
	struct statvfs vfs;
	struct stat st;
	char cached[DIO_REFUSAL_NAME_MAX];
	int mounted;

	if (fstat(fd, &st) != 0)
		return DIO__ERR(errno);
	if (S_ISCHR(st.st_mode) && dio__raw_disk(fd, cached, sizeof(cached))) {
		if (cached[0] != '\0')
			return on ? dio__refuse(why, DIO_REFUSAL_RAW_CACHED, 0, NULL,
			                        cached) : DIO_MECH_NONE;
		return DIO_MECH_RAW;    /* on or off, it stays direct */
	}
	if (S_ISBLK(st.st_mode))
		return on ? dio__refuse(why, DIO_REFUSAL_BLOCK_NODE, 0, NULL, NULL)
		          : DIO_MECH_NONE;
	if (!S_ISREG(st.st_mode))
		return on ? dio__refuse(why, DIO_REFUSAL_NOT_FILE_OR_DISK, 0, NULL, NULL)
		          : DIO_MECH_NONE;
	if (fstatvfs(fd, &vfs) != 0)
		return DIO__ERR(errno);
	mounted = dio__directio_mount(vfs.f_basetype, &st, &m);
	if (mounted && dio__fs_on_cached(&m, cached, sizeof(cached)))
		return on ? dio__refuse(why, DIO_REFUSAL_FS_ON_CACHED, 0,
		                        vfs.f_basetype, cached) : DIO_MECH_NONE;
	if (mounted && dio__forced(vfs.f_basetype, &m))
		return DIO_MECH_FORCED; /* on or off, it stays direct */
	if (strcmp(vfs.f_basetype, "zfs") == 0)
		return on ? dio__refuse(why, DIO_REFUSAL_ZFS_IGNORES, 0, vfs.f_basetype,
		                        NULL) : DIO_MECH_NONE;
	if (!dio__fs_honours_directio(vfs.f_basetype)) {
		/* Not called: the answer would not say whether it happened. */
		return on ? dio__refuse(why, DIO_REFUSAL_FS_NOT_KNOWN, 0, vfs.f_basetype,
		                        NULL) : DIO_MECH_NONE;
	}
#if DIO__HAVE_DIRECTIO
	if (directio(fd, on ? DIRECTIO_ON : DIRECTIO_OFF) != 0) {
		int e = errno;

		if (e == ENOTTY || e == ENOTSUP || e == ENOSYS)
			return dio__refuse(why, DIO_REFUSAL_DIRECTIO_CALL, DIO__ERR(e),
			                   NULL, NULL);
		return DIO__ERR(e);
	}
	return on ? DIO_MECH_DIRECTIO : DIO_MECH_NONE;
#else
	return on ? dio__refuse(why, DIO_REFUSAL_NO_DIRECTIO, 0, NULL, NULL)
	          : DIO_MECH_NONE;
#endif
}

int
dio__os_get_direct(int fd)
{
	struct dio__sunos_mount m;
	struct statvfs vfs;
	struct stat st;
	char cached[DIO_REFUSAL_NAME_MAX];

	if (fstat(fd, &st) != 0)
		return DIO__ERR(errno);
	if (S_ISCHR(st.st_mode) && dio__raw_disk(fd, cached, sizeof(cached)))
		return cached[0] == '\0' ? DIO_MECH_RAW : DIO_MECH_NONE;
	if (S_ISREG(st.st_mode) && fstatvfs(fd, &vfs) == 0 &&
	    dio__directio_mount(vfs.f_basetype, &st, &m) &&
	    dio__forced(vfs.f_basetype, &m))
		return dio__fs_on_cached(&m, cached, sizeof(cached))
		       ? DIO_MECH_NONE : DIO_MECH_FORCED;
	return -ENOTSUP;
}

int64_t
dio__os_pwrite_dsync(int fd, const void *buf, size_t len, int64_t off)
{
	(void)fd; (void)buf; (void)len; (void)off;
	return -ENOTSUP;
}

/* Block sizes and size of a disk node open as fd. */
static void
dio__disk_align(int fd, const struct stat *st, struct dio_align *a)
{
	struct dio__sunos_media m;
	char twin[PATH_MAX], cached[DIO_REFUSAL_NAME_MAX];
	int tfd = -1, r, disk;

	if (S_ISBLK(st->st_mode)) {
		/* specfs answers no ioctl on a block node: its size is in
		 * fstat() (the partition's, while it is open), the block
		 * sizes come from the raw twin. */
		if (st->st_size > 0 && (uint64_t)st->st_size < (UINT64_C(1) << 62))
			a->device_bytes = (uint64_t)st->st_size;
		if (dio__sunos_raw_twin(NULL, st->st_rdev, twin, sizeof(twin)) == 0)
			tfd = open(twin, O_RDONLY | O_NONBLOCK | O_NDELAY | O_CLOEXEC);
		if (tfd < 0)
			return;
		r = dio__sunos_media(tfd, &m);
		close(tfd);
		if (r < 0)
			return;
		a->logical_block = m.lbsize;
		a->physical_block = m.pbsize;
		if (a->device_bytes == 0)
			a->device_bytes = m.bytes;
		return;         /* buffered: no direct I/O figures */
	}
	disk = dio__raw_disk(fd, cached, sizeof(cached));
	if (dio__sunos_media(fd, &m) < 0) {
		/* A raw disk whose medium cannot be asked still moves whole
		 * blocks: checked against the page size (a multiple of any
		 * block size up to it), said to be a guess. */
		if (disk && cached[0] == '\0') {
			a->offset_align = (uint32_t)dio__pagesize();
			a->mem_align = DIO__UFS_MEMALIGN;
			a->source = DIO_ALIGN_SRC_GUESS;
		}
		return;
	}
	a->logical_block = m.lbsize;
	a->physical_block = m.pbsize;
	a->device_bytes = m.bytes;
	if (cached[0] != '\0')
		return;         /* a zvol, lofi: no direct I/O figures */
	/* Raw disk transfers go in whole logical blocks; physio locks the
	 * user pages, the driver's DMA attributes do the rest. */
	a->offset_align = m.lbsize;
	a->mem_align = DIO__UFS_MEMALIGN;
	a->source = DIO_ALIGN_SRC_BLKDEV;
}

int
dio__os_align(int fd, const struct stat *st, struct dio_align *a)
{
	struct statvfs vfs;

	if (S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode)) {
		dio__disk_align(fd, st, a);
		return 0;
	}
	if (!S_ISREG(st->st_mode) || fstatvfs(fd, &vfs) != 0)
		return 0;
	if (strcmp(vfs.f_basetype, "ufs") == 0) {
		/* Offset and length in whole 512-byte sectors, an even buffer
		 * address (for reads; writes copy an odd one). */
		a->offset_align = DIO__UFS_SECTOR;
		a->mem_align = DIO__UFS_MEMALIGN;
		a->logical_block = DIO__UFS_SECTOR;
		a->source = DIO_ALIGN_SRC_FSRULE;
		a->direct_limits = DIO_DLIM_SYNC_EXTEND | DIO_DLIM_SYNC_HOLES |
		                   DIO_DLIM_MAPPED | DIO_DLIM_CACHED;
	} else if (strcmp(vfs.f_basetype, "nfs") == 0 ||
	           strcmp(vfs.f_basetype, "smbfs") == 0) {
		/* Any request goes direct, but only while the file is not
		 * mapped and has no cached page at all (clean ones are not
		 * dropped). */
		a->offset_align = 1;
		a->mem_align = 1;
		a->source = DIO_ALIGN_SRC_FSRULE;
		a->direct_limits = DIO_DLIM_MAPPED | DIO_DLIM_CACHED_ANY;
	}
	/* ZFS and the others: no direct I/O, source stays NONE. */
	return 0;
}

int
dio__os_fs_type(int fd, const struct stat *st, char *buf, size_t len)
{
	struct statvfs vfs;

	(void)st;
	if (fstatvfs(fd, &vfs) != 0)
		return DIO__ERR(errno);
	snprintf(buf, len, "%s", vfs.f_basetype);
	return 0;
}

int
dio__os_file_birth(int fd, const struct stat *st, uint64_t *stamp)
{
	/* illumos' stat has no birth time and no generation number for
	 * applications (UFS and ZFS keep them inside). */
	(void)fd; (void)st; (void)stamp;
	return -ENOTSUP;
}

/*
 * No zero-copy discard read is implemented for illumos (sendfile(3EXT)
 * lives in libsendfile and its use here is not worked out), and there is
 * no io_uring: -ENOTSUP.  The portable POSIX AIO engine, which illumos
 * libc has, lives in lib/aio.c.
 */
int64_t
dio__os_read_discard(int fd, int64_t off, size_t len)
{
	(void)fd; (void)off; (void)len;
	return -ENOTSUP;
}

/* ------------------------------------------------------------ large pages */

/*
 * The largest page the MMU offers up to 4 MiB (getpagesizes(3C): 2 MiB
 * on x86, 4 MiB on SPARC), asked for with memcntl(MC_HAT_ADVISE,
 * MHA_MAPSIZE_VA): the same advice ppgsz(1) and the MPSS library give.
 */
size_t
dio__os_large_page_size(void)
{
#if defined(MC_HAT_ADVISE) && defined(MHA_MAPSIZE_VA)
	size_t sz[32], best = 0, base = dio__pagesize();
	int n = getpagesizes(sz, 32), i;

	for (i = 0; i < n; i++)
		if (sz[i] > base && sz[i] <= ((size_t)4 << 20) && sz[i] > best &&
		    (sz[i] & (sz[i] - 1)) == 0)
			best = sz[i];
	return best;
#else
	return 0;
#endif
}

int
dio__os_large_pages(void *p, size_t len, size_t pg)
{
#if defined(MC_HAT_ADVISE) && defined(MHA_MAPSIZE_VA)
	struct memcntl_mha mha;

	memset(&mha, 0, sizeof(mha));
	mha.mha_cmd = MHA_MAPSIZE_VA;
	mha.mha_flags = 0;
	mha.mha_pagesize = pg;
	if (memcntl((caddr_t)p, len, MC_HAT_ADVISE, (caddr_t)&mha, 0, 0) != 0)
		return DIO__ERR(errno);
	return 0;
#else
	(void)p; (void)len; (void)pg;
	return -ENOTSUP;
#endif
}
