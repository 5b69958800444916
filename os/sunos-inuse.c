/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos-inuse.c -- Solaris/illumos: the mount table, whether a disk is in
 * use, and (the absence of) device claims.
 *
 * A disk is in use when any slice or partition of it is: a mount (of the
 * block or the raw node, by device number or by disk name), active swap,
 * or whatever libdiskmgt knows of (ZFS pool members, the dump device...).
 * libdiskmgt's dm_inuse() looks only at the slice it is given, so every
 * slice of the disk in /dev/dsk is given to it.  Any check that cannot be
 * completed makes the answer "cannot tell" (-errno), never "free".
 */
#include "config.h"

#include <sys/types.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mkdev.h>
#include <sys/mntent.h>
#include <sys/mnttab.h>
#include <sys/stat.h>

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

int
dio__sunos_mount_of(dev_t dev, struct dio__sunos_mount *out)
{
	char opt[] = MNTOPT_FORCEDIRECTIO;  /* hasmntopt() takes a char * */
	struct extmnttab m;
	struct mnttab plain;
	FILE *fp = fopen(MNTTAB, "r");
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (fp == NULL)
		return DIO__ERR(errno);
	while (!found && dio__next_mount(fp, &m)) {
		if (m.mnt_major != major(dev) || m.mnt_minor != minor(dev))
			continue;
		snprintf(out->special, sizeof(out->special), "%s",
		         m.mnt_special ? m.mnt_special : "");
		snprintf(out->mountp, sizeof(out->mountp), "%s",
		         m.mnt_mountp ? m.mnt_mountp : "");
		snprintf(out->fstype, sizeof(out->fstype), "%s",
		         m.mnt_fstype ? m.mnt_fstype : "");
		plain.mnt_special = m.mnt_special;
		plain.mnt_mountp = m.mnt_mountp;
		plain.mnt_fstype = m.mnt_fstype;
		plain.mnt_mntopts = m.mnt_mntopts;
		plain.mnt_time = m.mnt_time;
		out->forcedirectio = m.mnt_mntopts != NULL &&
		                     hasmntopt(&plain, opt) != NULL;
		found = 1;
	}
	fclose(fp);
	return found;
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

int
dio__os_device_in_use(const char *path, const struct stat *st, char *why,
                      size_t len)
{
	char name[PATH_MAX], stem[256];
	int disk, r;

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
	disk = dio__sunos_in_dsk(path) ||
	       dio__sunos_node_in("/dev/dsk", 0, st->st_rdev, name, sizeof(name)) == 0;
	stem[0] = '\0';
	if (disk)
		dio__sunos_disk_stem(name, stem, sizeof(stem));
	r = dio__mounted(st, stem, why, len);
	if (r == 0)
		r = dio__sunos_swap_holds(stem, path, why, len);
	if (r == 0)
		r = disk ? dio__dm_disk(stem, why, len)
		         : dio__sunos_dm_inuse(path, why, len);
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
