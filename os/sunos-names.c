/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sunos-names.c -- Solaris/illumos: the names of disk nodes and the mount
 * table, for the rest of the backend (sunos.c, sunos-disk.c,
 * sunos-inuse.c, sunos-swap.c), which calls here and never the other way.
 *
 * Names: a disk's stem without its slice ("c0t0d0"), the /dev/dsk and
 * /dev/rdsk directories, the pseudo disks' own directories (zvol, lofi,
 * ramdisk), the node of a device number in a directory, and the raw twin
 * of a block node.  The mount table: /etc/mnttab read entry by entry, the
 * mount of a file system's device and the mounts of a disk.
 */
#include "config.h"

#include <sys/types.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mkdev.h>
#include <sys/mntent.h>
#include <sys/mnttab.h>
#include <sys/stat.h>

#include "lib/internal.h"
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

int
dio__sunos_in_dsk(const char *path)
{
	return strncmp(path, "/dev/dsk/", 9) == 0 || strncmp(path, "/dev/rdsk/", 10) == 0;
}

const char *
dio__sunos_pseudo_disk(const char *path)
{
	static const struct { const char *dir, *driver; } dirs[] = {
		{ "/dev/zvol/", "zvol" },
		{ "/dev/lofi/", "lofi" }, { "/dev/rlofi/", "lofi" },
		{ "/dev/ramdisk/", "ramdisk" }, { "/dev/rramdisk/", "ramdisk" }
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (strncmp(path, dirs[i].dir, strlen(dirs[i].dir)) == 0)
			return dirs[i].driver;
	return NULL;
}

/* Is candidate a character (chr) or block node of device number rdev? */
static int
dio__is_node(const char *candidate, int chr, dev_t rdev)
{
	struct stat st;

	return stat(candidate, &st) == 0 && st.st_rdev == rdev &&
	       (chr ? S_ISCHR(st.st_mode) : S_ISBLK(st.st_mode));
}

int
dio__sunos_node_in(const char *dir, int chr, dev_t rdev, char *out, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int found = 0;

	if (d == NULL)
		return -ENOENT;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(out, len, "%s/%s", dir, e->d_name);
		found = dio__is_node(out, chr, rdev);
	}
	closedir(d);
	if (!found && len > 0)
		out[0] = '\0';
	return found ? 0 : -ENOENT;
}

/*
 * The raw node with device number rdev: by name from path when given
 * ("/dev/dsk/X" -> "/dev/rdsk/X", "/dev/zvol/dsk/P/V" -> "/dev/zvol/rdsk/P/V",
 * "/dev/lofi/N" -> "/dev/rlofi/N", "/devices/...:a" -> "/devices/...:a,raw"),
 * else by looking through /dev/rdsk.  0 with out set, or -ENOENT.
 */
int
dio__sunos_raw_twin(const char *path, dev_t rdev, char *out, size_t len)
{
	const char *dsk;

	if (path != NULL) {
		dsk = strstr(path, "/dsk/");
		if (dsk != NULL)
			snprintf(out, len, "%.*s/rdsk/%s", (int)(dsk - path), path, dsk + 5);
		else if (strncmp(path, "/dev/lofi/", 10) == 0)
			snprintf(out, len, "/dev/rlofi/%s", path + 10);
		else
			snprintf(out, len, "%s,raw", path);
		if (dio__is_node(out, 1, rdev))
			return 0;
	}
	return dio__sunos_node_in("/dev/rdsk", 1, rdev, out, len);
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

int
dio__sunos_mounted(dev_t rdev, const char *stem, char *why, size_t len)
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
		if (mst.st_rdev == rdev ||
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
