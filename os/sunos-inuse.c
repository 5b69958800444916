/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos-inuse.c -- Solaris/illumos: whether a disk is in use, and (the
 * absence of) device claims.
 *
 * A disk is in use when any slice or partition of it is: a mount (of the
 * block or the raw node, by device number or by disk name), active swap
 * or the dump device (by device number or disk name), or whatever
 * libdiskmgt knows of (ZFS pool members...).  libdiskmgt's dm_inuse()
 * looks only at the slice it is given, so every slice of the disk in
 * /dev/dsk is given to it, and it says "not in use" where it could not
 * look, so its answer counts only where it could.  A zvol is free only
 * when an exclusive open shows nobody holds it.  Any check that cannot
 * be completed makes the answer "cannot tell" (-errno), never "free".
 */
#include "config.h"

#include <sys/types.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stropts.h>
#include <sys/dumpadm.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_ZONE_H
# include <zone.h>
#endif

#include "lib/internal.h"
#include "os/os.h"
#include "os/sunos.h"

/*
 * Ask libdiskmgt about every slice and partition of the disk named stem
 * in /dev/dsk (s0-s15, p0-p36, and the EFI whole-disk node).
 */
static int
dio__dm_disk(const char *stem, char *why, size_t len)
{
	char node[PATH_MAX], sub[256];
	struct dirent *e;
	DIR *d;
	int r = 0;

	d = opendir("/dev/dsk");
	if (d == NULL) {
		r = DIO__ERR(errno);
		if (len > 0)
			snprintf(why, len, "cannot list /dev/dsk for the slices of %s",
			         stem);
		return r;
	}
	while (r == 0 && (e = readdir(d)) != NULL) {
		dio__sunos_disk_stem(e->d_name, sub, sizeof(sub));
		if (strcmp(sub, stem) != 0)
			continue;
		snprintf(node, sizeof(node), "/dev/dsk/%s", e->d_name);
		r = dio__sunos_dm_inuse(node, why, len);
	}
	closedir(d);
	return r;
}

/*
 * The dump device, as /dev/dump names it (DIOCGETDEV gives the path
 * dumpadm(8) set, as it was spelled; ENODEV: none).  Compared by device
 * number, so that a zvol's block and raw nodes, which share one, are
 * both seen (libdiskmgt's inuse_dump compares names).  /dev/dump is
 * mode 0660 root sys: a caller who cannot open it cannot tell.
 */
static int
dio__dump_holds(const struct stat *st, const char *stem, char *why, size_t len)
{
	char dump[MAXPATHLEN], dstem[256];
	struct stat dst;
	int fd, r;

	fd = open("/dev/dump", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = DIO__ERR(errno);
		if (len > 0)
			snprintf(why, len, "the dump device cannot be asked: /dev/dump: %s",
			         dio_strerror(r));
		return r;
	}
	memset(dump, 0, sizeof(dump));
	r = ioctl(fd, DIOCGETDEV, dump) == 0 ? 0 : DIO__ERR(errno);
	close(fd);
	if (r == -ENODEV)
		return 0;               /* no dump device is configured */
	if (r < 0) {
		if (len > 0)
			snprintf(why, len, "the dump device cannot be asked: DIOCGETDEV: %s",
			         dio_strerror(r));
		return r;
	}
	dump[sizeof(dump) - 1] = '\0';
	dio__sunos_disk_stem(dump, dstem, sizeof(dstem));
	if (stat(dump, &dst) == 0 && (S_ISBLK(dst.st_mode) || S_ISCHR(dst.st_mode)) &&
	    dst.st_rdev == st->st_rdev)
		r = 1;
	else if (stem[0] != '\0' && dio__sunos_in_dsk(dump) && strcmp(dstem, stem) == 0)
		r = 1;
	if (r == 1 && len > 0)
		snprintf(why, len, "the dump device (%s)", dump);
	return r;
}

/* Is this node a zvol: one of /dev/zvol, or a minor of zfs@0, whose
 * nodes zvol.c creates as "N" and "N,raw"? */
static int
dio__is_zvol(const char *path)
{
	const char *drv = dio__sunos_pseudo_disk(path);
	char real[PATH_MAX];

	if (drv != NULL)
		return strcmp(drv, "zvol") == 0;
	return realpath(path, real) != NULL &&
	       strncmp(real, "/devices/pseudo/zfs@", 20) == 0;
}

/*
 * Whoever holds a zvol has it open: swap and dump keep it open, and so
 * do a COMSTAR logical unit, a bhyve guest, a pool on it, or a process.
 * zvol_open() refuses an exclusive open (O_EXCL reaches it as FEXCL)
 * while anyone has it open, so one that succeeds, closed at once, shows
 * it free at that moment.
 */
static int
dio__zvol_probe(const char *path, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_NDELAY | O_CLOEXEC);
	int r;

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	r = DIO__ERR(errno);
	if (r == -EBUSY) {
		if (len > 0)
			snprintf(why, len, "the zvol is open elsewhere (swap, dump, a COMSTAR "
			         "logical unit, a virtual machine, a pool or a process): an "
			         "exclusive open was refused");
		return 1;
	}
	if (len > 0)
		snprintf(why, len, "whether anything holds the zvol cannot be told: the "
		         "exclusive open that would show it failed: %s", dio_strerror(r));
	return r;
}

/*
 * libdiskmgt answers "not in use", with no error, wherever it could not
 * look (its source has no check of who asks or where): /dev/dump or the
 * slice that cannot be opened without privileges, libzfs.so that cannot
 * be loaded (inuse_zpool.c dlopen()s it by that name), and a zone that
 * sees neither.  Where that may have happened its "free" is not one.
 */
static int
dio__dm_could_look(char *why, size_t len)
{
	void *h;

	if (geteuid() != 0) {
		if (len > 0)
			snprintf(why, len, "not run as root: libdiskmgt cannot open what "
			         "it must read (pool labels, /dev/dump) and then says "
			         "\"not in use\"");
		return -EACCES;
	}
#ifdef HAVE_ZONE_H
	if (getzoneid() != GLOBAL_ZONEID) {
		if (len > 0)
			snprintf(why, len, "in a non-global zone: the pools, swap and dump "
			         "of the global zone are not visible here");
		return -EPERM;
	}
#else
	if (len > 0)
		snprintf(why, len, "this build has no zone.h to tell whether this is "
		         "the global zone, where libdiskmgt sees what it answers about");
	return -ENOTSUP;
#endif
	h = dlopen("libzfs.so", RTLD_LAZY | RTLD_LOCAL);
	if (h == NULL) {
		if (len > 0)
			snprintf(why, len, "libzfs.so cannot be loaded, so libdiskmgt sees "
			         "no ZFS pool member");
		return -ENOENT;
	}
	dlclose(h);
	return 0;
}

int
dio__os_device_in_use(const char *path, const struct stat *st, char *why,
                      size_t len)
{
	char name[PATH_MAX], stem[256];
	int disk, zvol, r;

	if (S_ISREG(st->st_mode)) {
		/* Files behind lofi(4D) devices are not looked for. */
		if (len > 0)
			snprintf(why, len, "which files back lofi devices is not looked "
			         "up on this platform");
		return -ENOTSUP;
	}
	/* A disk named another way (/devices/..., a link of one's own) is
	 * known by its /dev/dsk name, which holds the disk's name. */
	snprintf(name, sizeof(name), "%s", path);
	zvol = dio__is_zvol(path);
	disk = !zvol && (dio__sunos_in_dsk(path) ||
	       dio__sunos_node_in("/dev/dsk", 0, st->st_rdev, name, sizeof(name)) == 0);
	stem[0] = '\0';
	if (disk)
		dio__sunos_disk_stem(name, stem, sizeof(stem));
	r = dio__sunos_mounted(st->st_rdev, stem, why, len);
	if (r == 0)
		r = dio__sunos_swap_holds(stem, path, st->st_rdev, why, len);
	if (r == 0)
		r = dio__dump_holds(st, stem, why, len);
	if (r == 0 && zvol)
		return dio__zvol_probe(path, why, len);
	if (r == 0)
		r = disk ? dio__dm_disk(stem, why, len)
		         : dio__sunos_dm_inuse(path, why, len);
	if (r == 0)
		r = dio__dm_could_look(why, len);
	return r;
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
