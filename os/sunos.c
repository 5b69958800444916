/*
 * sunos.c -- Solaris and illumos backend.
 *
 * Direct I/O is directio(fd, DIRECTIO_ON): advice to the file system, per
 * file (not per descriptor), which UFS and the NFS client honour and other
 * file systems refuse with ENOTTY.  UFS still buffers any single request
 * that breaks its rules (usr/src/uts/common/fs/ufs/ufs_directio.c): offset
 * and length must be multiples of DEV_BSIZE (512) and the buffer 2-byte
 * aligned; a synchronous (O_SYNC/O_DSYNC) write that extends the file or
 * fills a hole is also buffered.  dio_align_fd() reports those rules so
 * that the library's alignment check keeps requests on the direct path.
 *
 * The advice cannot be read back, so dio__os_get_direct() says -ENOTSUP.
 * Devices: DKIOCGMEDIAINFOEXT gives the logical and physical block sizes.
 */
#include "config.h"

#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <stropts.h>
#ifdef HAVE_SYS_DKIO_H
# include <sys/dkio.h>
#endif

#include "lib/internal.h"
#include "os/os.h"

#if defined(HAVE_DIRECTIO) && HAVE_DECL_DIRECTIO && HAVE_DECL_DIRECTIO_ON
# define DIO__HAVE_DIRECTIO 1
#else
# define DIO__HAVE_DIRECTIO 0
#endif

/* UFS's rules for a request to stay direct (ufs_directio.c). */
#define DIO__UFS_SECTOR 512u
#define DIO__UFS_MEMALIGN 2u

unsigned
dio__os_caps(void)
{
	return DIO__HAVE_DIRECTIO ? DIO_CAP_DIRECTIO : 0;
}

int
dio__os_set_direct(int fd, int on)
{
#if DIO__HAVE_DIRECTIO
	if (directio(fd, on ? DIRECTIO_ON : DIRECTIO_OFF) != 0) {
		/* ENOTTY: the file system has no directio support (ZFS, tmpfs). */
		if (errno == ENOTTY || errno == ENOTSUP || errno == ENOSYS)
			return -ENOTSUP;
		return DIO__ERR(errno);
	}
	return on ? DIO_MECH_DIRECTIO : DIO_MECH_NONE;
#else
	if (fcntl(fd, F_GETFL) < 0)
		return DIO__ERR(errno);
	return on ? -ENOTSUP : DIO_MECH_NONE;
#endif
}

int
dio__os_get_direct(int fd)
{
	if (fcntl(fd, F_GETFL) < 0)
		return DIO__ERR(errno);
	return -ENOTSUP;
}

int64_t
dio__os_pwrite_dsync(int fd, const void *buf, size_t len, int64_t off)
{
	(void)fd; (void)buf; (void)len; (void)off;
	return -ENOTSUP;
}

int
dio__os_align(int fd, const struct stat *st, struct dio_align *a)
{
	struct statvfs vfs;

	if (S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode)) {
#if defined(HAVE_SYS_DKIO_H) && defined(DKIOCGMEDIAINFOEXT)
		struct dk_minfo_ext mi;

		memset(&mi, 0, sizeof(mi));
		if (ioctl(fd, DKIOCGMEDIAINFOEXT, &mi) == 0 && mi.dki_lbsize > 0) {
			a->logical_block = mi.dki_lbsize;
			a->physical_block = mi.dki_pbsize ? mi.dki_pbsize : mi.dki_lbsize;
			a->device_bytes = (uint64_t)mi.dki_capacity * mi.dki_lbsize;
			/* Raw disk transfers go in whole sectors; physio locks
			 * the user pages, so the address needs no alignment
			 * beyond what UFS asks of its own direct path. */
			a->offset_align = mi.dki_lbsize;
			a->mem_align = DIO__UFS_MEMALIGN;
			a->source = DIO_ALIGN_SRC_BLKDEV;
		}
#endif
		return 0;
	}
	if (!S_ISREG(st->st_mode))
		return 0;
	if (fstatvfs(fd, &vfs) == 0) {
		if (strcmp(vfs.f_basetype, "ufs") == 0) {
			a->offset_align = DIO__UFS_SECTOR;
			a->mem_align = DIO__UFS_MEMALIGN;
			a->logical_block = DIO__UFS_SECTOR;
			a->source = DIO_ALIGN_SRC_FSRULE;
		} else if (strcmp(vfs.f_basetype, "nfs") == 0) {
			/* The NFS client's direct path takes any request. */
			a->offset_align = 1;
			a->mem_align = 1;
			a->source = DIO_ALIGN_SRC_FSRULE;
		}
		/* Others (zfs, tmpfs) refuse directio(): source stays NONE. */
	}
	return 0;
}
