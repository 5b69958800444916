/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos-disk.c -- disk facts on Solaris/illumos: the dkio(4I) ioctls that
 * sd, blkdev (NVMe, virtio), cmdk and lofi answer on a raw disk node,
 * dio_devinfo(), and ZFS's sync property; and the block-layer counters of
 * dio_disks_open(), which illumos does not keep (-ENOTSUP).
 *
 * specfs answers no ioctl on a block (/dev/dsk) node (ENOTTY), so every
 * question about a block node is asked of its raw (/dev/rdsk) twin
 * (sunos-names.c finds it): the same minor of the same driver, hence the
 * same st_rdev.  Which ioctls
 * make sd talk to the device is in libdirectio.h (dio_devinfo()) and
 * doc/illumos.md.
 */
#include "config.h"

#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stropts.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef HAVE_SYS_DKIO_H
# include <sys/dkio.h>
#endif

#include "lib/internal.h"
#include "os/os.h"
#include "os/sunos.h"

/* zfs(8), which reads a dataset's properties. */
#ifndef DIO__ZFS_PATH
# define DIO__ZFS_PATH "/usr/sbin/zfs"
#endif

extern char **environ;

/* sd and ssd count dki_maxtransfer of fixed disks in logical blocks,
 * everyone else (and removable media) in DEV_BSIZE. */
static int
dio__counts_in_lbsize(const char *driver, int removable)
{
	return !removable && (strcmp(driver, "sd") == 0 || strcmp(driver, "ssd") == 0);
}

/*
 * The media facts: DKIOCGMEDIAINFOEXT, or where a driver does not know it
 * (ENOTTY) but answers the older DKIOCGMEDIAINFO (cmdk, the IDE driver
 * QEMU gives illumos by default), that one, which has no physical block
 * size.
 */
static int
dio__media_info(int fd, struct dio__sunos_media *m)
{
	struct dk_minfo_ext mx;
	struct dk_minfo mi;

	memset(&mx, 0, sizeof(mx));
	if (ioctl(fd, DKIOCGMEDIAINFOEXT, &mx) == 0) {
		m->lbsize = mx.dki_lbsize;
		m->pbsize = mx.dki_pbsize ? mx.dki_pbsize : mx.dki_lbsize;
		m->media_type = mx.dki_media_type;
		m->bytes = (uint64_t)mx.dki_capacity * mx.dki_lbsize;
		return m->lbsize ? 0 : -EIO;
	}
	if (errno != ENOTTY)
		return DIO__ERR(errno); /* answered: the medium cannot be read */
	memset(&mi, 0, sizeof(mi));
	if (ioctl(fd, DKIOCGMEDIAINFO, &mi) != 0)
		return DIO__ERR(errno);
	m->lbsize = m->pbsize = mi.dki_lbsize;
	m->media_type = mi.dki_media_type;
	m->bytes = (uint64_t)mi.dki_capacity * mi.dki_lbsize;
	return m->lbsize ? 0 : -EIO;
}

int
dio__sunos_media(int fd, struct dio__sunos_media *m)
{
#ifdef HAVE_SYS_DKIO_H
	struct extpart_info pi;
	struct stat st;
	uint64_t unit;
	int rem = 0, r;

	memset(m, 0, sizeof(*m));
	r = dio__media_info(fd, m);
	if (r < 0)
		return r;
	/* The capacity is the whole LUN whatever node is open: a slice or
	 * partition is as large as DKIOCEXTPARTINFO (x86) or, failing that,
	 * fstat() (specfs's size of an open partition) says.  cmlb counts
	 * the partitions of every fixed disk in the disk's own blocks (sd,
	 * blkdev, cmdk alike), those of removable media in DEV_BSIZE. */
	(void)ioctl(fd, DKIOCREMOVABLE, &rem);
	unit = rem ? DEV_BSIZE : m->lbsize;
	memset(&pi, 0, sizeof(pi));
	if (ioctl(fd, DKIOCEXTPARTINFO, &pi) == 0 && pi.p_length > 0)
		m->bytes = (uint64_t)pi.p_length * unit;
	else if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	         (uint64_t)st.st_size < m->bytes)
		m->bytes = (uint64_t)st.st_size;
	return 0;
#else
	(void)fd;
	memset(m, 0, sizeof(*m));
	return -ENOTSUP;
#endif
}

int
dio__sunos_driver(int fd, char *out, size_t len)
{
#ifdef HAVE_SYS_DKIO_H
	struct dk_cinfo ci;

	memset(&ci, 0, sizeof(ci));
	if (ioctl(fd, DKIOCINFO, &ci) != 0)
		return DIO__ERR(errno);
	snprintf(out, len, "%.*s", DK_DEVLEN, ci.dki_dname);
	return 0;
#else
	(void)fd;
	if (len > 0)
		out[0] = '\0';
	return -ENOTSUP;
#endif
}

/*
 * specfs passes a write's FSYNC/FDSYNC to no driver and flushes a disk's
 * cache on fsync() only when the node was written since the last one: a
 * disk node (raw, or block through its raw twin, which takes the ioctls)
 * is flushed by libdirectio itself after every commit.
 */
int
dio__os_flush_open(int fd, const struct stat *st, const char *path)
{
	char twin[PATH_MAX], drv[32];
	int tfd;

	if (S_ISCHR(st->st_mode))
		return dio__sunos_driver(fd, drv, sizeof(drv)) == 0 ? fd : -ENOTSUP;
	if (!S_ISBLK(st->st_mode))
		return -ENOTSUP;
	if (dio__sunos_raw_twin(path, st->st_rdev, twin, sizeof(twin)) != 0)
		return -ENOENT;
	tfd = open(twin, O_RDONLY | O_NONBLOCK | O_NDELAY | O_CLOEXEC);
	if (tfd < 0)
		return DIO__ERR(errno);
	if (dio__sunos_driver(tfd, drv, sizeof(drv)) != 0) {
		close(tfd);
		return -ENOTSUP;
	}
	return tfd;
}

int
dio__os_flush(int fd)
{
#ifdef HAVE_SYS_DKIO_H
	/* From user mode the request is synchronous; its argument NULL. */
	return ioctl(fd, DKIOCFLUSHWRITECACHE, NULL) == 0 ? 0 : DIO__ERR(errno);
#else
	(void)fd;
	return -ENOTSUP;
#endif
}

/* The facts of the disk node open as fd, and the driver DKIOCINFO names
 * in dname (len bytes; "" when it answers none); 1 when it is a disk. */
static int
dio__dk_facts(int fd, struct dio_devinfo *o, char *dname, size_t len)
{
#ifdef HAVE_SYS_DKIO_H
	struct dio__sunos_media m;
	struct dk_cinfo ci;
	char drv[DK_DEVLEN + 1] = "";
	int v, disk = 0, rem = 0, have_ci;

	memset(&ci, 0, sizeof(ci));
	have_ci = ioctl(fd, DKIOCINFO, &ci) == 0;
	if (have_ci) {
		disk = 1;
		snprintf(drv, sizeof(drv), "%.*s", DK_DEVLEN, ci.dki_dname);
		snprintf(o->controller, sizeof(o->controller), "%.*s%u", DK_DEVLEN,
		         ci.dki_cname, (unsigned)ci.dki_cnum);
		snprintf(o->name, sizeof(o->name), "%s%u", drv, (unsigned)ci.dki_unit);
	}
	if (ioctl(fd, DKIOCREMOVABLE, &rem) == 0)
		o->removable = rem ? DIO_TRI_YES : DIO_TRI_NO;
	if (dio__sunos_media(fd, &m) == 0) {
		disk = 1;
		o->logical_block = m.lbsize;
		o->physical_block = m.pbsize;
		o->size_bytes = m.bytes;
		o->media_type = m.media_type;
	}
	if (have_ci) {
		uint64_t unit = dio__counts_in_lbsize(drv, rem) && o->logical_block
		                ? o->logical_block : DEV_BSIZE;

		o->max_sectors_kb = (uint32_t)((uint64_t)ci.dki_maxtransfer * unit / 1024u);
	}
	v = 0;
	if (ioctl(fd, DKIOCGETWCE, &v) == 0)
		o->write_cache = v ? DIO_TRI_YES : DIO_TRI_NO;
	v = 0;
	if (ioctl(fd, DKIOCSOLIDSTATE, &v) == 0)
		o->rotational = v ? DIO_TRI_NO : DIO_TRI_YES;
	v = 0;
	if (ioctl(fd, DKIOCREADONLY, &v) == 0)
		o->read_only = v ? DIO_TRI_YES : DIO_TRI_NO;
	snprintf(dname, len, "%s", drv);
	return disk;
#else
	(void)fd; (void)o;
	snprintf(dname, len, "%s", "");
	return 0;
#endif
}

/*
 * Is path a disk node, safe to open for ioctls?  Opening some character
 * devices acts (a tape rewinds on close), so only nodes that are disks by
 * name are opened: /dev/dsk/..., /dev/rdsk/... (zvols' too), lofi's and
 * ramdisk's directories, or a /devices node whose
 * minor name is a slice or partition ("...:a", "...:a,raw", "...:q,raw",
 * "...:wd,raw").
 */
static int
dio__disk_node(const char *path)
{
	char real[PATH_MAX];
	const char *colon;

	if (strstr(path, "/dsk/") != NULL || strstr(path, "/rdsk/") != NULL ||
	    dio__sunos_pseudo_disk(path) != NULL)
		return 1;
	if (realpath(path, real) == NULL || strncmp(real, "/devices/", 9) != 0)
		return 0;
	colon = strrchr(real, ':');
	if (colon == NULL)
		return 0;
	colon++;
	if (strncmp(colon, "wd", 2) == 0)
		colon += 2;
	else if (colon[0] >= 'a' && colon[0] <= 'z')
		colon++;
	else
		return 0;
	return colon[0] == '\0' || strcmp(colon, ",raw") == 0;
}

/* ZFS's sync property of a file system or volume (zfs(8) get). */
enum dio__zfs_sync {
	DIO__ZSYNC_UNKNOWN = 0,  /* cannot be read                          */
	DIO__ZSYNC_STANDARD,     /* commits commit                          */
	DIO__ZSYNC_ALWAYS,       /* every write is committed as it is made  */
	DIO__ZSYNC_DISABLED      /* commits are acknowledged, none is made  */
};

static int
dio__zfs_sync(const char *dataset)
{
	char a0[] = "zfs", a1[] = "get", a2[] = "-H", a3[] = "-o", a4[] = "value",
	     a5[] = "sync";
	char *argv[] = { a0, a1, a2, a3, a4, a5, NULL, NULL };
	posix_spawn_file_actions_t fa;
	char out[64];
	size_t got = 0;
	ssize_t n;
	pid_t pid;
	int p[2], st, r;

	/* Close-on-exec from the start, so that a fork elsewhere in the
	 * process cannot keep the write end open (the child's standard
	 * output is a dup2(), which clears it). */
	if (dataset[0] == '\0' || dataset[0] == '-' || pipe2(p, O_CLOEXEC) != 0)
		return DIO__ZSYNC_UNKNOWN;
	argv[6] = (char *)(uintptr_t)dataset;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		close(p[0]);
		close(p[1]);
		return DIO__ZSYNC_UNKNOWN;
	}
	(void)posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	(void)posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	(void)posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	r = posix_spawn(&pid, DIO__ZFS_PATH, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (r != 0) {
		close(p[0]);
		return DIO__ZSYNC_UNKNOWN;
	}
	while (got < sizeof(out) - 1 &&
	       ((n = read(p[0], out + got, sizeof(out) - 1 - got)) > 0 ||
	        (n < 0 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	close(p[0]);
	out[got] = '\0';
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	out[strcspn(out, "\n")] = '\0';
	if (strcmp(out, "disabled") == 0)
		return DIO__ZSYNC_DISABLED;
	if (strcmp(out, "always") == 0)
		return DIO__ZSYNC_ALWAYS;
	if (strcmp(out, "standard") == 0)
		return DIO__ZSYNC_STANDARD;
	return DIO__ZSYNC_UNKNOWN;
}

/*
 * The sync property as devinfo says it.  With sync=disabled zil_commit()
 * returns at once, so nothing, DKIOCFLUSHWRITECACHE included, commits
 * (zil.c); with always, every write is committed as it is made (zfs_write,
 * zvol_write); otherwise a commit sends the flush the ZIL needs.
 */
static void
dio__zfs_sync_facts(const char *dataset, struct dio_devinfo *o)
{
	switch (dio__zfs_sync(dataset)) {
	case DIO__ZSYNC_DISABLED:
		o->sync_disabled = DIO_TRI_YES;
		o->sync_always = DIO_TRI_NO;
		o->commit_flush = DIO_TRI_NO;
		break;
	case DIO__ZSYNC_ALWAYS:
		o->sync_disabled = DIO_TRI_NO;
		o->sync_always = DIO_TRI_YES;
		o->commit_flush = DIO_TRI_YES;
		break;
	case DIO__ZSYNC_STANDARD:
		o->sync_disabled = DIO_TRI_NO;
		o->sync_always = DIO_TRI_NO;
		o->commit_flush = DIO_TRI_YES;
		break;
	default:
		break;                  /* all three stay unknown */
	}
}

/* The dataset of a zvol node: "/dev/zvol/rdsk/rpool/vol" -> "rpool/vol". */
static int
dio__zvol_dataset(const char *path, char *out, size_t len)
{
	static const char *const dirs[] = { "/dev/zvol/rdsk/", "/dev/zvol/dsk/" };
	size_t i, n;

	for (i = 0; i < 2; i++) {
		n = strlen(dirs[i]);
		if (strncmp(path, dirs[i], n) == 0 && path[n] != '\0') {
			snprintf(out, len, "%s", path + n);
			return 0;
		}
	}
	return -ENOENT;
}

/* A file: the mount holding it, and for UFS its disk's facts. */
static int
dio__file_devinfo(const struct stat *st, struct dio_devinfo *o)
{
	struct dio__sunos_mount m;
	struct stat dst;
	char drv[32];
	int fd;

	if (dio__sunos_mount_of(st->st_dev, &m) != 1 || m.lofs_hidden)
		return 0;       /* behind a lofs mount whose source is hidden */
	if (strcmp(m.fstype, "zfs") == 0) {
		o->direct_ignored = DIO_TRI_YES;
		dio__zfs_sync_facts(m.special, o);
		return 0;       /* a pool has no one disk of its own */
	}
	o->direct_ignored = DIO_TRI_NO;
	/* UFS sends no DKIOCFLUSHWRITECACHE at all (none under fs/ufs): a
	 * commit stops at the disk's cache. */
	if (strcmp(m.fstype, "ufs") == 0)
		o->commit_flush = DIO_TRI_NO;
	/* NFS sends a direct write as a stable one, FILE_SYNC (DATA_SYNC
	 * with FDSYNC): nfs3_vnops.c, nfs4_vnops.c. */
	if (strcmp(m.fstype, "nfs") == 0)
		o->direct_stable = DIO_TRI_YES;
	if (m.special[0] != '/' || stat(m.special, &dst) != 0 || !S_ISBLK(dst.st_mode))
		return 0;       /* NFS, tmpfs...: no disk here */
	snprintf(o->device, sizeof(o->device), "%s", m.special);
	if (dio__sunos_raw_twin(m.special, dst.st_rdev, o->disk, sizeof(o->disk)) != 0)
		return 0;       /* the device is known, its facts are not */
	fd = open(o->disk, O_RDONLY | O_NONBLOCK | O_NDELAY | O_CLOEXEC);
	if (fd < 0) {
		o->disk[0] = '\0';
		return 0;
	}
	(void)dio__dk_facts(fd, o, drv, sizeof(drv));
	close(fd);
	return 0;
}

int
dio__os_devinfo(const char *path, const struct stat *st, struct dio_devinfo *o)
{
	char drv[32];
	int fd, e;

	if (o->kind == DIO_DEVINFO_FILE)
		return dio__file_devinfo(st, o);
	if (!dio__disk_node(path))
		return 0;       /* a tape, a terminal...: opening it may act */
	snprintf(o->device, sizeof(o->device), "%s", path);
	snprintf(o->disk, sizeof(o->disk), "%s", path);
	if (S_ISBLK(st->st_mode) &&
	    dio__sunos_raw_twin(path, st->st_rdev, o->disk, sizeof(o->disk)) != 0) {
		/* No raw twin to ask: the size specfs keeps for an open
		 * partition is all there is. */
		struct stat bst;

		o->disk[0] = '\0';
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NDELAY | O_CLOEXEC);
		if (fd < 0)
			return DIO__ERR(errno);
		if (fstat(fd, &bst) == 0 && bst.st_size > 0 &&
		    (uint64_t)bst.st_size < (UINT64_C(1) << 62))
			o->size_bytes = (uint64_t)bst.st_size;
		close(fd);
		o->kind = DIO_DEVINFO_BLOCK;
		return 0;
	}
	fd = open(o->disk, O_RDONLY | O_NONBLOCK | O_NDELAY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		o->device[0] = o->disk[0] = '\0';
		return DIO__ERR(e);
	}
	if (!dio__dk_facts(fd, o, drv, sizeof(drv))) {
		o->device[0] = o->disk[0] = '\0';     /* not a disk */
	} else {
		char ds[256];

		if (o->kind == DIO_DEVINFO_CHAR)
			o->kind = DIO_DEVINFO_BLOCK;  /* a raw disk node */
		/* libdirectio's commits flush a disk node's cache itself
		 * (dio__os_flush_open()); a zvol's flush is a ZIL commit,
		 * which its sync property rules.  lofi answers no flush
		 * (ENOTTY) but fsyncs its backing file after every raw write
		 * (lofi.c:1444-1445): that file's file system decides.  A
		 * ramdisk is memory. */
		if (strcmp(drv, "lofi") == 0)
			o->commit_flush = DIO_TRI_UNKNOWN;
		else if (strcmp(drv, "ramdisk") == 0)
			o->commit_flush = DIO_TRI_NO;
		else
			o->commit_flush = DIO_TRI_YES;
		if (dio__zvol_dataset(path, ds, sizeof(ds)) == 0)
			dio__zfs_sync_facts(ds, o);
	}
	close(fd);
	return 0;
}

/* ------------------------------------------------------------ block-layer counters */

/*
 * illumos's sd driver keeps an I/O kstat per disk (reads, writes, bytes:
 * kstat -m sd), but no count of the SYNCHRONIZE CACHE commands it sends:
 * the flushes, which are what these counters are for.  None is read.
 */
int
dio__os_disks_find(const char *path, const struct stat *st, struct dio_disk *list,
                   int *fds, unsigned max, char *why, size_t len)
{
	(void)path; (void)st; (void)list; (void)fds; (void)max;
	if (why != NULL && len > 0)
		snprintf(why, len, "illumos keeps no per-disk flush counts this library reads "
		         "(the sd driver's kstats count reads and writes, not cache flushes)");
	return -ENOTSUP;
}

int
dio__os_disk_counts(int fd, struct dio_disk_counts *c)
{
	(void)fd;
	c->err = -ENOTSUP;
	snprintf(c->note, sizeof(c->note), "illumos keeps no per-disk flush counts");
	return c->err;
}
