/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos-inuse.c -- Solaris/illumos: the mount table, whether a disk is in
 * use, and (the absence of) device claims.
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
#include <sys/mkdev.h>
#include <sys/mntent.h>
#include <sys/mnttab.h>
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
 * The base name of a disk node without its slice or partition suffix:
 * "/dev/rdsk/c0t0d0s2", "/dev/dsk/c0t0d0p1" and the EFI whole-disk node
 * "/dev/dsk/c0t0d0" all give "c0t0d0".
 */
void
dio__sunos_disk_stem(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n, all;

	b = b ? b + 1 : path;
	snprintf(out, len, "%s", b);
	all = n = strlen(out);
	while (n > 0 && out[n - 1] >= '0' && out[n - 1] <= '9')
		n--;
	if (n > 1 && n < all && (out[n - 1] == 's' || out[n - 1] == 'p'))
		out[n - 1] = '\0';
}

/*
 * Read the next entry of the mount table.  getextmntent() fills an entry
 * longer than MNT_LINE_MAX too (MNT_TOOLONG): it is used, not taken for
 * the end, so that long ZFS and NFS option lists hide nothing after them.
 * 1 with *m set, 0 at the end.
 */
static int
dio__next_mount(FILE *fp, struct extmnttab *m)
{
	int r;

	for (;;) {
		r = getextmntent(fp, m, sizeof(*m));
		if (r == 0 || r == MNT_TOOLONG)
			return 1;
		if (r == -1)
			return 0;
		/* MNT_TOOMANY, MNT_TOOFEW: a line that is not an entry. */
	}
}

/*
 * Is name one of the comma-separated options of opts ("rw,forcedirectio,
 * dev=..."), alone or with a value ("name=...")?  Read in place: libc's
 * hasmntopt() copies the options into a 1024-byte buffer on its stack,
 * and an entry of /etc/mnttab can be longer (getmntent.c).
 */
static int
dio__has_opt(const char *opts, const char *name)
{
	size_t n = strlen(name), k;
	const char *p = opts;

	while (p != NULL && *p != '\0') {
		k = strcspn(p, ",");
		if (k >= n && strncmp(p, name, n) == 0 && (k == n || p[n] == '='))
			return 1;
		p = p[k] == ',' ? p + k + 1 : NULL;
	}
	return 0;
}

/*
 * The entry of the mount table for device dev: 1 found, 0 not, -errno.
 * A lofs mount has the device number of the file system it shows
 * (lofs_vfsops.c copies vfs_dev), so an entry of another type is taken
 * before a lofs one.
 */
static int
dio__mount_entry(dev_t dev, struct dio__sunos_mount *out)
{
	struct extmnttab m;
	FILE *fp = fopen(MNTTAB, "r");
	int found = 0;

	if (fp == NULL)
		return DIO__ERR(errno);
	while ((found == 0 || strcmp(out->fstype, "lofs") == 0) &&
	       dio__next_mount(fp, &m)) {
		if (m.mnt_major != major(dev) || m.mnt_minor != minor(dev))
			continue;
		if (found && m.mnt_fstype != NULL && strcmp(m.mnt_fstype, "lofs") == 0)
			continue;
		snprintf(out->special, sizeof(out->special), "%s",
		         m.mnt_special ? m.mnt_special : "");
		snprintf(out->mountp, sizeof(out->mountp), "%s",
		         m.mnt_mountp ? m.mnt_mountp : "");
		snprintf(out->fstype, sizeof(out->fstype), "%s",
		         m.mnt_fstype ? m.mnt_fstype : "");
		out->forcedirectio = m.mnt_mntopts != NULL &&
		                     dio__has_opt(m.mnt_mntopts, MNTOPT_FORCEDIRECTIO);
		found = 1;
	}
	fclose(fp);
	return found;
}

/*
 * A lofs mount (a zone's file systems, a loopback mount) has options of
 * its own: the forcedirectio of the file system it shows, and that file
 * system's type, belong to that file system's mount, which has the same
 * device number and is taken first (dio__mount_entry).  Where only the
 * lofs entry is listed (a zone's mount table does not list the global
 * zone's mounts), it is kept with lofs_hidden set: the facts behind it
 * cannot be told.
 */
int
dio__sunos_mount_of(dev_t dev, struct dio__sunos_mount *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	r = dio__mount_entry(dev, out);
	if (r == 1 && strcmp(out->fstype, "lofs") == 0)
		out->lofs_hidden = 1;
	return r;
}

/* A mount of the device st (either node) or, for a disk (stem not ""),
 * of another slice of it. */
static int
dio__mounted(const struct stat *st, const char *stem, char *why, size_t len)
{
	struct extmnttab m;
	struct stat mst;
	char mstem[256];
	FILE *fp = fopen(MNTTAB, "r");
	int found = 0;

	if (fp == NULL) {
		if (len > 0)
			snprintf(why, len, "cannot read %s", MNTTAB);
		return DIO__ERR(errno);
	}
	while (!found && dio__next_mount(fp, &m)) {
		if (m.mnt_special == NULL || m.mnt_special[0] != '/')
			continue;
		if (stat(m.mnt_special, &mst) != 0)
			continue;
		if (!S_ISBLK(mst.st_mode) && !S_ISCHR(mst.st_mode))
			continue;
		dio__sunos_disk_stem(m.mnt_special, mstem, sizeof(mstem));
		if (mst.st_rdev == st->st_rdev ||
		    (stem[0] != '\0' && strcmp(stem, mstem) == 0)) {
			if (len > 0)
				snprintf(why, len, "%s mounted on %s (%s)", m.mnt_special,
				         m.mnt_mountp, m.mnt_fstype);
			found = 1;
		}
	}
	fclose(fp);
	return found;
}

int
dio__sunos_in_dsk(const char *path)
{
	return strncmp(path, "/dev/dsk/", 9) == 0 || strncmp(path, "/dev/rdsk/", 10) == 0;
}

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
	r = dio__mounted(st, stem, why, len);
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
