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

/*
 * The disks whose I/O ends in a cache or in memory, by the directory of
 * their nodes: a block directory with its raw one (a zvol's are
 * /dev/zvol/dsk and /dev/zvol/rdsk, under one entry), and the driver.
 */
static const struct {
	const char *dir, *raw, *driver;
} dio__pseudo[] = {
	{ "/dev/zvol/", NULL, "zvol" },
	{ "/dev/lofi/", "/dev/rlofi/", "lofi" },
	{ "/dev/ramdisk/", "/dev/rramdisk/", "ramdisk" },
};
#define DIO__NPSEUDO (sizeof(dio__pseudo) / sizeof(dio__pseudo[0]))

static int
dio__starts(const char *s, const char *prefix)
{
	return prefix != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *
dio__sunos_pseudo_disk(const char *path)
{
	size_t i;

	for (i = 0; i < DIO__NPSEUDO; i++)
		if (dio__starts(path, dio__pseudo[i].dir) ||
		    dio__starts(path, dio__pseudo[i].raw))
			return dio__pseudo[i].driver;
	return NULL;
}

/* The raw directory of a pseudo disk's block node path, with the length
 * of its block directory in *n; NULL for any other path. */
static const char *
dio__pseudo_raw_dir(const char *path, size_t *n)
{
	size_t i;

	for (i = 0; i < DIO__NPSEUDO; i++)
		if (dio__pseudo[i].raw != NULL && dio__starts(path, dio__pseudo[i].dir)) {
			*n = strlen(dio__pseudo[i].dir);
			return dio__pseudo[i].raw;
		}
	return NULL;
}

int
dio__sunos_cached_driver(const char *driver)
{
	size_t i;

	for (i = 0; i < DIO__NPSEUDO; i++)
		if (strcmp(driver, dio__pseudo[i].driver) == 0)
			return 1;
	return 0;
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
 * "/dev/lofi/N" -> "/dev/rlofi/N" and the other pseudo disks' alike,
 * "/devices/...:a" -> "/devices/...:a,raw"), else by looking through
 * /dev/rdsk.  0 with out set, or -ENOENT.
 */
int
dio__sunos_raw_twin(const char *path, dev_t rdev, char *out, size_t len)
{
	const char *dsk, *raw;
	size_t n;

	if (path != NULL) {
		dsk = strstr(path, "/dsk/");
		raw = dsk == NULL ? dio__pseudo_raw_dir(path, &n) : NULL;
		if (dsk != NULL)
			snprintf(out, len, "%.*s/rdsk/%s", (int)(dsk - path), path, dsk + 5);
		else if (raw != NULL)
			snprintf(out, len, "%s%s", raw, path + n);
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
 * The entry of the mount table for device dev.  A lofs mount has the
 * device number of the file system it shows (lofs_vfsops.c copies
 * vfs_dev), so an entry of another type is taken before a lofs one: the
 * forcedirectio and the type of the file system a lofs mount shows
 * belong to that file system's mount.  Where only the lofs entry is
 * listed (a zone's mount table does not list the global zone's mounts),
 * it is kept with lofs_hidden set: the facts behind it cannot be told.
 */
int
dio__sunos_mount_of(dev_t dev, struct dio__sunos_mount *out)
{
	struct extmnttab m;
	FILE *fp;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if ((fp = fopen(MNTTAB, "r")) == NULL)
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
	if (found && strcmp(out->fstype, "lofs") == 0)
		out->lofs_hidden = 1;
	return found;
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
