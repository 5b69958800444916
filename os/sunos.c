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
 *
 * SCSI pass-through is USCSICMD (uscsi(4I)).  The target driver (sd, st,
 * sgen) builds a buf and runs it through physio: the user pages are locked
 * and the HBA DMAs into them directly, unless its DMA attributes force a
 * bounce buffer.  That is the only path, so there is no direct / no-copy /
 * mmap choice to make (those modes give -ENOTSUP) and the transfer done
 * is reported as DIO_SCSI_XFER_AUTO: the OS chose, and does not say.
 */
#include "config.h"

#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stropts.h>
#include <sys/mnttab.h>
#include <sys/mman.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
/* swapctl() is not available to 32-bit large-file builds (sys/swap.h). */
#if defined(_LP64) || !defined(_FILE_OFFSET_BITS) || _FILE_OFFSET_BITS != 64
# include <sys/swap.h>
# define DIO__HAVE_SWAPCTL 1
#endif
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_DKIO_H
# include <sys/dkio.h>
#endif
/* libdiskmgt.h includes sys/swap.h: not in 32-bit large-file builds. */
#if defined(HAVE_LIBDISKMGT_H) && defined(HAVE_DM_INUSE) && defined(DIO__HAVE_SWAPCTL)
# include <libdiskmgt.h>
# define DIO__HAVE_DM_INUSE 1
#endif
#ifdef HAVE_SYS_SCSI_IMPL_USCSI_H
# include <sys/scsi/impl/uscsi.h>
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
	unsigned caps = DIO__HAVE_DIRECTIO ? DIO_CAP_DIRECTIO : 0;

#ifdef HAVE_SYS_SCSI_IMPL_USCSI_H
	caps |= DIO_CAP_SCSI;
#endif
	return caps;
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

/* ------------------------------------------------------------------ SCSI */

#ifdef HAVE_SYS_SCSI_IMPL_USCSI_H

/*
 * Devices are not probed with a command: USCSIMAXXFER is missing from
 * older target drivers that do take USCSICMD, and any real command could
 * clear a unit attention meant for someone else.  A non-SCSI device shows
 * up at the first dio_scsi_exec() as -ENOTTY.
 */
int
dio__os_scsi_probe(int fd, const struct stat *st, const char *path)
{
	(void)fd; (void)st; (void)path;
	return 0;
}

int
dio__os_scsi_xfer_ok(int xfer)
{
	return xfer == DIO_SCSI_XFER_INDIRECT ? 0 : -ENOTSUP;
}

/* USCSICMD failed with errno e (not EIO): say why, return -errno. */
static int
dio__uscsi_failed(struct dio__scsi_req *r, int e)
{
	switch (e) {
	case ENOTTY:
	case ENXIO:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s: not a SCSI "
		         "target driver's device", dio_strerror(e));
		return e == ENOTTY ? -ENOTTY : -ENXIO;
	case EPERM:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s: needs the "
		         "sys_devices privilege", dio_strerror(e));
		break;
	default:
		snprintf(r->detail, r->detail_len, "USCSICMD: %s", dio_strerror(e));
		break;
	}
	return DIO__ERR(e);
}

int
dio__os_scsi_exec(struct dio__scsi_req *r, int fd)
{
	struct uscsi_cmd u;
	unsigned secs;
	uint64_t t0, t1, n;
	int rc, e;

	if (r->xfer != DIO_SCSI_XFER_INDIRECT) {
		snprintf(r->detail, r->detail_len, "%s transfers do not exist with "
		         "USCSICMD (physio already DMAs into the user pages)",
		         dio_scsi_xfer_name(r->xfer));
		return -ENOTSUP;
	}
	memset(&u, 0, sizeof(u));
	/* ISOLATE: not mixed with the driver's own queue; DIAGNOSE: no
	 * retries, report the first error; SILENT: no console messages;
	 * RQENABLE: return the sense data of CHECK CONDITION in rqbuf. */
	u.uscsi_flags = USCSI_ISOLATE | USCSI_DIAGNOSE | USCSI_SILENT | USCSI_RQENABLE;
	u.uscsi_flags |= r->dir == DIO_SCSI_DIR_IN ? USCSI_READ : USCSI_WRITE;
	secs = r->timeout_ms / 1000 + (r->timeout_ms % 1000 != 0);
	u.uscsi_timeout = (short)(secs > SHRT_MAX ? SHRT_MAX : secs);
	u.uscsi_cdb = (caddr_t)(uintptr_t)r->cdb;
	u.uscsi_cdblen = (uchar_t)r->cdb_len;
	if (r->dir != DIO_SCSI_DIR_NONE) {
		u.uscsi_bufaddr = (caddr_t)r->buf;
		u.uscsi_buflen = r->len;
	}
	u.uscsi_rqbuf = (caddr_t)r->sense;
	u.uscsi_rqlen = DIO_SCSI_SENSE_MAX;

	/* uscsi reports no duration: every command is timed around the
	 * ioctl, repetitions too. */
	for (n = 0; n < r->count; n++) {
		u.uscsi_rqstatus = 0xff;        /* no REQUEST SENSE done (yet) */
		r->transport = 0;
		r->sense_len = 0;
		t0 = dio__now_ns();
		rc = ioctl(fd, USCSICMD, &u);
		t1 = dio__now_ns();
		if (rc < 0) {
			e = errno;
			if (e != EIO)
				return dio__uscsi_failed(r, e);
			/* EIO is how the driver reports any command that did not
			 * end GOOD: with a SCSI status the device answered;
			 * without one, the HBA or the driver failed it (timeout,
			 * reset, gone). */
			if (u.uscsi_status <= 0 || u.uscsi_status > 0xff)
				r->transport = 1;
		}
		r->status = u.uscsi_status > 0 && u.uscsi_status <= 0xff ?
		            u.uscsi_status : 0;
		if (r->status == DIO_SCSI_STATUS_CHECK_CONDITION &&
		    u.uscsi_rqstatus == 0 && u.uscsi_rqresid < u.uscsi_rqlen)
			r->sense_len = (size_t)(u.uscsi_rqlen - u.uscsi_rqresid);
		r->resid = (int64_t)u.uscsi_resid;
		r->duration_ns = t1 - t0;
		if (!dio__scsi_req_good(r))
			break;
		r->good++;
		r->resid_sum += (uint64_t)u.uscsi_resid;
	}
	r->duration_source = DIO_SCSI_TIME_MEASURED;
	r->xfer_done = DIO_SCSI_XFER_AUTO;
	return 0;
}

/* There is no reserved buffer to size or map behind USCSICMD. */
int64_t
dio__os_scsi_reserve(int fd, size_t len)
{
	(void)fd; (void)len;
	return -ENOTSUP;
}

int
dio__os_scsi_mmap(int fd, size_t len, void **addr)
{
	(void)fd; (void)len; (void)addr;
	return -ENOTSUP;
}

#endif /* HAVE_SYS_SCSI_IMPL_USCSI_H: else os/scsi-none.c */

/*
 * The base name of a disk node without its slice or partition suffix:
 * "/dev/rdsk/c0t0d0s2" and "/dev/dsk/c0t0d0s0" both give "c0t0d0".
 */
static void
dio__disk_stem(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	snprintf(out, len, "%s", b);
	n = strlen(out);
	while (n > 0 && out[n - 1] >= '0' && out[n - 1] <= '9')
		n--;
	if (n > 0 && n < strlen(out) && (out[n - 1] == 's' || out[n - 1] == 'p'))
		out[n - 1] = '\0';
}

/*
 * illumos: /etc/mnttab lists mounted devices; a mount of the same device
 * (same dev_t, whether block or raw node) or of another slice of the same
 * disk counts.  Swap devices come from swapctl(SC_LIST) (not in 32-bit
 * large-file builds, where sys/swap.h refuses to compile: there only
 * mounts are checked).
 */
int
dio__os_device_in_use(const char *path, const struct stat *st, char *why,
                      size_t len)
{
	char stem[256], mstem[256];
	struct mnttab m;
	struct stat mst;
	FILE *fp;
	int found = 0;

	if (S_ISREG(st->st_mode)) {
		/* Files behind lofi(4D) devices are not looked for. */
		if (len > 0)
			snprintf(why, len, "which files back lofi devices is not looked "
			         "up on this platform");
		return -ENOTSUP;
	}
	dio__disk_stem(path, stem, sizeof(stem));
	fp = fopen(MNTTAB, "r");
	if (fp == NULL)
		return DIO__ERR(errno);
	while (!found && getmntent(fp, &m) == 0) {
		if (m.mnt_special == NULL || m.mnt_special[0] != '/')
			continue;
		if (stat(m.mnt_special, &mst) != 0)
			continue;
		if (!S_ISBLK(mst.st_mode) && !S_ISCHR(mst.st_mode))
			continue;
		dio__disk_stem(m.mnt_special, mstem, sizeof(mstem));
		if (mst.st_rdev == st->st_rdev || strcmp(stem, mstem) == 0) {
			if (len > 0)
				snprintf(why, len, "%s mounted on %s (%s)", m.mnt_special,
				         m.mnt_mountp, m.mnt_fstype);
			found = 1;
		}
	}
	fclose(fp);
#ifdef DIO__HAVE_SWAPCTL
	if (!found) {
		int i, n = swapctl(SC_GETNSWP, NULL);

		if (n > 0) {
			size_t sz = sizeof(swaptbl_t) + (size_t)n * sizeof(swapent_t);
			swaptbl_t *t = calloc(1, sz);
			char *names = calloc((size_t)n, MAXPATHLEN);

			if (t != NULL && names != NULL) {
				t->swt_n = n;
				for (i = 0; i < n; i++)
					t->swt_ent[i].ste_path = names + (size_t)i * MAXPATHLEN;
				n = swapctl(SC_LIST, t);
				for (i = 0; i < n && !found; i++) {
					dio__disk_stem(t->swt_ent[i].ste_path, mstem, sizeof(mstem));
					if (strcmp(stem, mstem) == 0) {
						if (len > 0)
							snprintf(why, len, "active swap (%s)",
							         t->swt_ent[i].ste_path);
						found = 1;
					}
				}
			}
			free(t);
			free(names);
		}
	}
#endif
#ifdef DIO__HAVE_DM_INUSE
	/* What mnttab does not show: ZFS pool members, dump devices, ... as
	 * newfs(1M) asks.  Only the slice given is examined. */
	if (!found) {
		char *msg = NULL;
		int err = 0;

		if (dm_inuse((char *)(uintptr_t)path, &msg, DM_WHO_MKFS, &err) > 0) {
			if (len > 0) {
				snprintf(why, len, "%s", msg ? msg : "in use (libdiskmgt)");
				why[strcspn(why, "\n")] = '\0';
			}
			found = 1;
		}
		free(msg);
	}
#endif
	return found;
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

/* ------------------------------------------------------------ devices */

/*
 * Disk facts from the dkio(4I) ioctls, which sd, blkdev (NVMe,
 * virtio) and cmdk answer on the block and the raw node alike:
 * DKIOCINFO names the controller and drive and gives the largest
 * transfer (dki_maxtransfer, in DEV_BSIZE units), DKIOCGMEDIAINFOEXT the
 * block sizes and capacity, DKIOCGETWCE whether the write cache is on,
 * DKIOCSOLIDSTATE, DKIOCREMOVABLE and DKIOCREADONLY the rest (all three
 * and DKIOCGETWCE return an int).  Returns 1 when fd is a disk.
 */
static int
dio__dk_facts(int fd, struct dio_devinfo *o)
{
#ifdef HAVE_SYS_DKIO_H
	struct dk_cinfo ci;
	struct dk_minfo_ext mi;
	int v, disk = 0;

	memset(&ci, 0, sizeof(ci));
	if (ioctl(fd, DKIOCINFO, &ci) == 0) {
		disk = 1;
		snprintf(o->controller, sizeof(o->controller), "%.*s%u", DK_DEVLEN,
		         ci.dki_cname, (unsigned)ci.dki_cnum);
		snprintf(o->name, sizeof(o->name), "%.*s%u", DK_DEVLEN, ci.dki_dname,
		         (unsigned)ci.dki_unit);
		o->max_sectors_kb = (uint32_t)ci.dki_maxtransfer * DEV_BSIZE / 1024u;
	}
	memset(&mi, 0, sizeof(mi));
	if (ioctl(fd, DKIOCGMEDIAINFOEXT, &mi) == 0 && mi.dki_lbsize > 0) {
		struct extpart_info pi;

		disk = 1;
		o->logical_block = mi.dki_lbsize;
		o->physical_block = mi.dki_pbsize ? mi.dki_pbsize : mi.dki_lbsize;
		o->size_bytes = (uint64_t)mi.dki_capacity * mi.dki_lbsize;
		o->media_type = mi.dki_media_type;
		/* That is the whole disk's capacity: a slice or partition node
		 * is only as large as DKIOCEXTPARTINFO says. */
		memset(&pi, 0, sizeof(pi));
		if (ioctl(fd, DKIOCEXTPARTINFO, &pi) == 0 && pi.p_length > 0)
			o->size_bytes = (uint64_t)pi.p_length * mi.dki_lbsize;
	}
	v = 0;
	if (ioctl(fd, DKIOCGETWCE, &v) == 0)
		o->write_cache = v ? DIO_TRI_YES : DIO_TRI_NO;
	v = 0;
	if (ioctl(fd, DKIOCSOLIDSTATE, &v) == 0)
		o->rotational = v ? DIO_TRI_NO : DIO_TRI_YES;
	v = 0;
	if (ioctl(fd, DKIOCREMOVABLE, &v) == 0)
		o->removable = v ? DIO_TRI_YES : DIO_TRI_NO;
	v = 0;
	if (ioctl(fd, DKIOCREADONLY, &v) == 0)
		o->read_only = v ? DIO_TRI_YES : DIO_TRI_NO;
	return disk;
#else
	(void)fd; (void)o;
	return 0;
#endif
}

/*
 * Is path a disk node, safe to open for ioctls?  Opening some character
 * devices acts (a tape rewinds on close), so only nodes that are disks by
 * name are opened: /dev/dsk/..., /dev/rdsk/..., or a /devices node whose
 * minor name is a slice or partition ("...:a", "...:a,raw", "...:q,raw").
 */
static int
dio__disk_node(const char *path)
{
	char real[PATH_MAX];
	const char *colon;

	if (strstr(path, "/dsk/") != NULL || strstr(path, "/rdsk/") != NULL)
		return 1;
	if (realpath(path, real) == NULL || strncmp(real, "/devices/", 9) != 0)
		return 0;
	colon = strrchr(real, ':');
	if (colon == NULL || colon[1] < 'a' || colon[1] > 'z')
		return 0;
	return colon[2] == '\0' || strcmp(colon + 2, ",raw") == 0;
}

/* The mounted block device whose device number is dev (UFS, not ZFS). */
static int
dio__mnt_special(dev_t dev, char *buf, size_t len)
{
	struct mnttab m;
	struct stat mst;
	FILE *fp = fopen(MNTTAB, "r");
	int found = 0;

	if (fp == NULL)
		return 0;
	while (!found && getmntent(fp, &m) == 0) {
		if (m.mnt_special == NULL || m.mnt_special[0] != '/')
			continue;
		if (stat(m.mnt_special, &mst) == 0 && S_ISBLK(mst.st_mode) &&
		    mst.st_rdev == dev) {
			snprintf(buf, len, "%s", m.mnt_special);
			found = 1;
		}
	}
	fclose(fp);
	return found;
}

int
dio__os_devinfo(const char *path, const struct stat *st, struct dio_devinfo *o)
{
	const char *dsk;
	struct stat rst;
	int fd;

	if (o->kind == DIO_DEVINFO_FILE) {
		if (!dio__mnt_special(st->st_dev, o->device, sizeof(o->device)))
			return 0;       /* ZFS, tmpfs, NFS...: no disk of its own */
		/* The raw node of the same slice: /dev/dsk/X -> /dev/rdsk/X. */
		dsk = strstr(o->device, "/dsk/");
		if (dsk != NULL)
			snprintf(o->disk, sizeof(o->disk), "%.*s/rdsk/%s",
			         (int)(dsk - o->device), o->device, dsk + 5);
		if (o->disk[0] == '\0' || stat(o->disk, &rst) != 0)
			snprintf(o->disk, sizeof(o->disk), "%s", o->device);
	} else {
		if (!dio__disk_node(path))
			return 0;   /* a tape, a terminal...: opening it may act */
		snprintf(o->device, sizeof(o->device), "%s", path);
		snprintf(o->disk, sizeof(o->disk), "%s", path);
	}
	fd = open(o->disk, O_RDONLY | O_NONBLOCK | O_NDELAY | O_CLOEXEC);
	if (fd < 0) {
		if (o->kind == DIO_DEVINFO_FILE)
			return 0;       /* the device is known, its facts are not */
		o->device[0] = o->disk[0] = '\0';
		return DIO__ERR(errno);
	}
	if (!dio__dk_facts(fd, o) && o->kind != DIO_DEVINFO_FILE)
		o->device[0] = o->disk[0] = '\0';     /* not a disk */
	else if (o->kind == DIO_DEVINFO_CHAR)
		o->kind = DIO_DEVINFO_BLOCK;          /* a raw disk node */
	close(fd);
	return 0;
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

int
dio__os_device_claim(const char *path, const struct stat *st)
{
	/*
	 * illumos's nearest equivalent is an exclusive open: O_EXCL reaches
	 * the driver as FEXCL, and sd, blkdev and lofi then refuse it while
	 * the partition is open at all, and once it is held refuse every
	 * other open of that partition (a mount, zpool, and the caller's own
	 * descriptor for the I/O alike) until it is closed.  A claim held
	 * beside the caller's own descriptor, as this call promises, cannot
	 * be made that way: callers rely on dio_device_in_use().
	 */
	(void)path; (void)st;
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

int
dio__os_file_birth(int fd, const struct stat *st, uint64_t *stamp)
{
	/* illumos' stat has no birth time and no generation number for
	 * applications (UFS and ZFS keep them inside). */
	(void)fd; (void)st; (void)stamp;
	return -ENOTSUP;
}
