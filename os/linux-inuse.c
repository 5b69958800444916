/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-inuse.c -- Linux: whether a device or file is in use (mounted,
 * active swap, backing a loop device, held exclusively by the kernel),
 * for block devices, the sg nodes of disks and regular files; and device
 * claims with an O_EXCL open.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/internal.h"
#include "os/linux-read.h"
#include "os/linux.h"
#include "os/os.h"

/*
 * An O_EXCL open of a block device.  It also fails with EBUSY for the
 * moment another process holds its own O_EXCL open, such as this very
 * probe or claim run by another program at the same time (seen with two
 * test suites side by side): so EBUSY is retried for about 20 ms, which
 * such a moment does not outlast, where a kernel holder (a mount, md, dm)
 * stays.  Returns the descriptor or -1 with errno.
 */
static int
dio__open_excl(const char *path)
{
	struct timespec pause = { 0, 2000000 };   /* 2 ms */
	int fd, e, tries = 0;

	while ((fd = open(path, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC)) < 0 &&
	       (e = errno) == EBUSY && ++tries < 10)
		nanosleep(&pause, NULL);
	if (fd < 0)
		errno = e;   /* the open's own, not nanosleep's */
	return fd;
}

/*
 * Linux: /proc/self/mountinfo names the device of every mount as MAJ:MIN
 * (field 3); /proc/swaps lists active swap; and an O_EXCL open of a block
 * device fails with EBUSY while anything holds it (a mounted file system,
 * including one on a partition of this disk, md, dm, swap).
 */
static int
dio__mounted_on(const struct stat *st, char *why, size_t len)
{
	struct dio__mount m;
	char p[PATH_MAX];
	FILE *fp = fopen(dio__sys_path(p, sizeof(p), "/proc/self/mountinfo"), "re");
	int found = 0;

	if (fp == NULL)
		return 0;
	while (!found && dio__mountinfo_next(fp, &m)) {
		if (m.dev != st->st_rdev)
			continue;
		if (len > 0)
			snprintf(why, len, "mounted on %s (%s)", m.mnt,
			         m.fstype[0] != '\0' ? m.fstype : "?");
		found = 1;
	}
	fclose(fp);
	return found;
}

static int
dio__swap_on(const char *path, const struct stat *st, char *why, size_t len)
{
	char name[1024], p[PATH_MAX];
	struct stat sst;
	FILE *fp = fopen(dio__sys_path(p, sizeof(p), "/proc/swaps"), "re");
	int found = 0;

	if (fp == NULL)
		return 0;
	while (!found && dio__swaps_next(fp, name, sizeof(name))) {
		if (stat(dio__sys_path(p, sizeof(p), "%s", name), &sst) == 0 &&
		    S_ISBLK(sst.st_mode) &&
		    sst.st_rdev == st->st_rdev) {
			if (len > 0)
				snprintf(why, len, "active swap (%s)", path);
			found = 1;
		}
	}
	fclose(fp);
	return found;
}

/*
 * Does the file or block device st back an attached loop device?  Each
 * /sys/block/loopN/loop/backing_file names one; compared by identity
 * (device and inode for files, device number for block devices).
 */
static int
dio__loop_backing(const struct stat *st, char *why, size_t len)
{
	char p[PATH_MAX + 64], backing[PATH_MAX];
	struct dirent *de;
	struct stat bst;
	DIR *dir = opendir(dio__sys_path(p, sizeof(p), "/sys/block"));
	int found = 0;

	if (dir == NULL)
		return 0;
	while (!found && (de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, "loop", 4) != 0)
			continue;
		dio__sys_path(p, sizeof(p), "/sys/block/%s/loop/backing_file", de->d_name);
		if (dio__read_line(p, backing, sizeof(backing)) != 0 || backing[0] != '/')
			continue;
		if (stat(dio__sys_path(p, sizeof(p), "%s", backing), &bst) != 0)
			continue;
		if (S_ISREG(st->st_mode) ? (S_ISREG(bst.st_mode) && bst.st_dev == st->st_dev &&
		                            bst.st_ino == st->st_ino)
		                         : (S_ISBLK(bst.st_mode) && bst.st_rdev == st->st_rdev)) {
			if (len > 0)
				snprintf(why, len, "backs the loop device /dev/%s", de->d_name);
			found = 1;
		}
	}
	closedir(dir);
	return found;
}

/*
 * The disk of an sg node: /sys/dev/char/M:m is under scsi_generic, and its
 * SCSI device has a block device.  Returns 1 with the /dev path, 0 for an
 * sg node without a disk (tape, enclosure...), -1 for anything else.
 */
static int
dio__sg_disk(const struct stat *st, char *blk, size_t len)
{
	char link[PATH_MAX], sys[PATH_MAX], p[PATH_MAX + 32], name[64];

	dio__sys_path(link, sizeof(link), "/sys/dev/char/%u:%u", major(st->st_rdev),
	              minor(st->st_rdev));
	if (realpath(link, sys) == NULL || strstr(sys, "/scsi_generic/") == NULL)
		return -1;
	snprintf(p, sizeof(p), "%s/device/block", sys);
	if (!dio__first_entry(p, name, sizeof(name)))
		return 0;
	dio__sys_path(blk, len, "/dev/%s", name);
	return 1;
}

int
dio__os_device_in_use(const char *path, const struct stat *st, char *why,
                      size_t len)
{
	char blk[PATH_MAX], sub[256];
	struct stat bst;
	int fd, r;

	if (S_ISREG(st->st_mode))
		return dio__loop_backing(st, why, len);
	if (S_ISCHR(st->st_mode)) {
		/* An sg node reaches the disk under every file system on it. */
		if (dio__sg_disk(st, blk, sizeof(blk)) != 1)
			return 0;   /* no disk behind it: nothing to mount */
		if (stat(blk, &bst) != 0 || !S_ISBLK(bst.st_mode))
			return 0;
		r = dio__os_device_in_use(blk, &bst, sub, sizeof(sub));
		if (r == 1 && len > 0)
			snprintf(why, len, "its disk %s: %s", blk, sub);
		return r;
	}
	if (!S_ISBLK(st->st_mode))
		return 0;
	if (dio__mounted_on(st, why, len) || dio__swap_on(path, st, why, len) ||
	    dio__loop_backing(st, why, len))
		return 1;
	fd = dio__open_excl(path);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EBUSY) {
		if (len > 0)
			snprintf(why, len, "held exclusively by the kernel (a mounted "
			         "partition, RAID or device-mapper member)");
		return 1;
	}
	return DIO__ERR(errno);
}

int
dio__os_device_claim(const char *path, const struct stat *st)
{
	char blk[PATH_MAX];
	int fd;

	if (S_ISCHR(st->st_mode)) {
		switch (dio__sg_disk(st, blk, sizeof(blk))) {
		case 1:
			path = blk;
			break;
		case 0:
			return dio__fail(NULL, -ENODEV, "claim %s: an sg node with no "
			                 "disk behind it", path);
		default:
			return DIO__ENOTBLK;
		}
	}
	fd = dio__open_excl(path);
	if (fd < 0)
		return dio__fail(NULL, DIO__ERR(errno), "claim %s: %s", path,
		                 dio_strerror(errno));
	return fd;
}
