/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linux-devinfo.c -- Linux device facts for dio_devinfo(): sysfs, the
 * udev database, the mount that puts a file on a block device (also for
 * linux-disks.c), and the sg driver's state; and the small readers of sysfs and /proc files that
 * the other os/linux-*.c files share (os/linux.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef HAVE_SCSI_SG_H
# include <scsi/sg.h>
#endif

#include "lib/internal.h"
#include "os/linux-read.h"
#include "os/linux.h"
#include "os/os.h"

/*
 * Device facts from sysfs.  A block device's directory is the target of
 * /sys/dev/block/MAJ:MIN (a partition's is inside its disk's); the
 * disk's queue/ holds the request settings, device/ is the SCSI device
 * for sd (with scsi_generic/sgN and scsi_device/H:C:T:L), loop/ the loop
 * driver's state.  An sg node's directory is the target of
 * /sys/dev/char/MAJ:MIN, under scsi_generic, and its device/block/
 * names the disk of the same SCSI device.
 */

const char *dio__linux_root = "";

const char *
dio__sys_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len == 0)
		return buf;
	n = snprintf(buf, len, "%s", dio__linux_root);
	if (n < 0 || (size_t)n >= len)
		return buf;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return buf;
}

/* First line of a small file, trailing white space removed; 0 or -errno. */
int
dio__read_line(const char *path, char *buf, size_t len)
{
	FILE *fp;
	int r;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	fp = fopen(path, "re");
	if (fp == NULL)
		return DIO__ERR(errno);
	r = dio__read_line_fp(fp, buf, len);
	fclose(fp);
	return r;
}

/* dir/attr as an unsigned number; 0 when it could be read. */
int
dio__read_u64(const char *dir, const char *attr, uint64_t *v)
{
	char path[PATH_MAX], line[64];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, attr) >= sizeof(path))
		return -ENAMETOOLONG;
	if (dio__read_line(path, line, sizeof(line)) < 0 || line[0] == '\0')
		return -ENOENT;
	return dio__parse_u64(line, v);
}

static void
dio__set_u32(const char *dir, const char *attr, uint32_t *field, uint64_t mul)
{
	uint64_t v;

	if (dio__read_u64(dir, attr, &v) == 0 && v * mul <= UINT32_MAX)
		*field = (uint32_t)(v * mul);
}

void
dio__set_tri(const char *dir, const char *attr, uint32_t *field)
{
	uint64_t v;

	if (dio__read_u64(dir, attr, &v) == 0)
		*field = v ? DIO_TRI_YES : DIO_TRI_NO;
}

int
dio__exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The only entry (not . or ..) of a directory, or the first one. */
int
dio__first_entry(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(buf, len, "%s", e->d_name);
		found = 1;
		break;
	}
	closedir(d);
	return found;
}

/* "/dev/NAME" from the DEVNAME of sysdir/uevent (devtmpfs names). */
int
dio__devnode(const char *sysdir, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *fp;
	int found;

	snprintf(path, sizeof(path), "%s/uevent", sysdir);
	fp = fopen(path, "re");
	if (fp == NULL)
		return 0;
	found = dio__uevent_devname(fp, buf, len);
	fclose(fp);
	return found;
}

/* ID_SERIAL from the udev database entry of block device "MAJ:MIN". */
static void
dio__udev_serial(const char *majmin, struct dio_devinfo *o)
{
	char path[PATH_MAX];
	FILE *fp;

	dio__sys_path(path, sizeof(path), "/run/udev/data/b%s", majmin);
	fp = fopen(path, "re");
	if (fp == NULL)
		return;
	(void)dio__udev_serial_fp(fp, o);
	fclose(fp);
}

/* The sg node and SCSI address of the SCSI device directory scsidev. */
static void
dio__scsi_facts(const char *scsidev, struct dio_devinfo *o)
{
	char path[PATH_MAX], name[64];

	snprintf(path, sizeof(path), "%s/scsi_device", scsidev);
	if (dio__first_entry(path, name, sizeof(name)))
		snprintf(o->scsi_addr, sizeof(o->scsi_addr), "%s", name);
	snprintf(path, sizeof(path), "%s/scsi_generic", scsidev);
	if (o->sg_device[0] == '\0' && dio__first_entry(path, name, sizeof(name)))
		snprintf(o->sg_device, sizeof(o->sg_device), "/dev/%s", name);
	snprintf(path, sizeof(path), "%s/wwid", scsidev);
	if (o->wwid[0] == '\0')
		dio__read_line(path, o->wwid, sizeof(o->wwid));
}

/* Everything sysfs says about block device dev; 0 if it has a directory there. */
static int
dio__blk_facts(dev_t dev, struct dio_devinfo *o, int keep_device)
{
	char link[PATH_MAX], sys[PATH_MAX], disk[PATH_MAX], q[PATH_MAX + 8], p[PATH_MAX + 32];
	char line[256], *slash;
	uint64_t v;

	dio__sys_path(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (realpath(link, sys) == NULL)
		return DIO__ERR(errno);
	snprintf(disk, sizeof(disk), "%s", sys);
	snprintf(p, sizeof(p), "%s/partition", sys);
	if (dio__exists(p) && (slash = strrchr(disk, '/')) != NULL)
		*slash = '\0';
	if (!keep_device || o->device[0] == '\0')
		dio__devnode(sys, o->device, sizeof(o->device));
	dio__devnode(disk, o->disk, sizeof(o->disk));
	slash = strrchr(disk, '/');
	snprintf(o->name, sizeof(o->name), "%s", slash ? slash + 1 : disk);

	if (dio__read_u64(sys, "size", &v) == 0)
		o->size_bytes = v * 512u;   /* sysfs counts 512-byte sectors */
	dio__set_tri(sys, "ro", &o->read_only);
	dio__set_tri(disk, "removable", &o->removable);

	snprintf(q, sizeof(q), "%s/queue", disk);
	if (dio__exists(q)) {
		dio__sys_path(p, sizeof(p), "/sys/block/%s/queue", o->name);
		snprintf(o->settings_dir, sizeof(o->settings_dir), "%s",
		         dio__exists(p) ? p : q);
		dio__set_u32(q, "logical_block_size", &o->logical_block, 1);
		dio__set_u32(q, "physical_block_size", &o->physical_block, 1);
		dio__set_u32(q, "minimum_io_size", &o->min_io, 1);
		dio__set_u32(q, "optimal_io_size", &o->optimal_io, 1);
		if (dio__read_u64(q, "dma_alignment", &v) == 0 && v < UINT32_MAX)
			o->dma_align = (uint32_t)v + 1;   /* a mask: 511 -> 512 */
		dio__set_u32(q, "max_sectors_kb", &o->max_sectors_kb, 1);
		dio__set_u32(q, "max_hw_sectors_kb", &o->max_hw_sectors_kb, 1);
		dio__set_u32(q, "max_segments", &o->max_segments, 1);
		dio__set_u32(q, "nr_requests", &o->nr_requests, 1);
		if (dio__read_u64(q, "read_ahead_kb", &v) == 0 && v <= UINT32_MAX) {
			o->read_ahead_kb = (uint32_t)v;
			o->known |= DIO_DEVINFO_K_READ_AHEAD;
		}
		dio__set_tri(q, "rotational", &o->rotational);
		dio__set_tri(q, "fua", &o->fua);
		snprintf(p, sizeof(p), "%s/write_cache", q);
		if (dio__read_line(p, line, sizeof(line)) == 0 &&
		    dio__parse_write_cache(line) != DIO_TRI_UNKNOWN)
			o->write_cache = dio__parse_write_cache(line);
		snprintf(p, sizeof(p), "%s/scheduler", q);
		if (dio__read_line(p, line, sizeof(line)) == 0)
			dio__parse_scheduler(line, o);
	}
	snprintf(p, sizeof(p), "%s/dev", disk);
	if (dio__read_line(p, line, sizeof(line)) == 0 && line[0] != '\0')
		dio__udev_serial(line, o);
	snprintf(p, sizeof(p), "%s/device/scsi_device", disk);
	if (dio__exists(p)) {
		snprintf(p, sizeof(p), "%s/device", disk);
		dio__scsi_facts(p, o);
	}
	/* NVMe namespaces (and others) carry their wwid on the disk itself. */
	snprintf(p, sizeof(p), "%s/wwid", disk);
	if (o->wwid[0] == '\0')
		dio__read_line(p, o->wwid, sizeof(o->wwid));
	snprintf(p, sizeof(p), "%s/loop/backing_file", disk);
	if (dio__read_line(p, o->loop_backing, sizeof(o->loop_backing)) == 0) {
		snprintf(p, sizeof(p), "%s/loop", disk);
		dio__set_tri(p, "dio", &o->loop_direct);
	}
	return 0;
}

/*
 * The block device of the file system with device number dev: itself
 * when it is a block device, else the mount's source when that is one
 * (btrfs and others give files an anonymous device number).
 */
int
dio__fs_blockdev(dev_t dev, dev_t *bdev)
{
	struct dio__mount m;
	char link[PATH_MAX], src[PATH_MAX];
	struct stat st;
	FILE *fp;
	int found = 0;

	dio__sys_path(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (major(dev) != 0 && dio__exists(link)) {
		*bdev = dev;
		return 1;
	}
	fp = fopen(dio__sys_path(link, sizeof(link), "/proc/self/mountinfo"), "re");
	if (fp == NULL)
		return 0;
	while (!found && dio__mountinfo_next(fp, &m)) {
		if (m.dev != dev)
			continue;
		if (m.source[0] == '/' &&
		    stat(dio__sys_path(src, sizeof(src), "%s", m.source), &st) == 0 &&
		    S_ISBLK(st.st_mode)) {
			*bdev = st.st_rdev;
			found = 1;
		}
	}
	fclose(fp);
	return found;
}

/* The sg driver: present, module or built in, allow_dio, version. */
static void
dio__sg_driver(struct dio_devinfo *o, int sgfd)
{
	static const char *const allow[] = {
		"/sys/module/sg/parameters/allow_dio",  /* any kernel with sysfs */
		"/proc/scsi/sg/allow_dio",              /* older kernels, SCSI_PROC_FS */
	};
	char line[128], p[PATH_MAX], p2[PATH_MAX];
	uint64_t v;
	size_t i;

#define SYS(path) dio__sys_path(p, sizeof(p), "%s", (path))
	if (dio__exists(SYS("/sys/module/sg"))) {
		o->sg_driver = DIO_TRI_YES;
		/* Only loadable modules have an initstate. */
		o->sg_module = dio__exists(SYS("/sys/module/sg/initstate")) ? DIO_TRI_YES
		                                                              : DIO_TRI_NO;
	} else if (dio__exists(SYS("/sys/class/scsi_generic")) ||
	           dio__exists(SYS("/proc/scsi/sg"))) {
		o->sg_driver = DIO_TRI_YES;
	} else if (dio__exists(SYS("/sys/module"))) {
		o->sg_driver = DIO_TRI_NO;
	}
	for (i = 0; i < sizeof(allow) / sizeof(allow[0]); i++) {
		if (dio__read_line(SYS(allow[i]), line, sizeof(line)) == 0 && line[0] != '\0') {
			o->allow_dio = strtol(line, NULL, 10) != 0 ? DIO_TRI_YES : DIO_TRI_NO;
			snprintf(o->allow_dio_path, sizeof(o->allow_dio_path), "%s", p);
			break;
		}
	}
#ifdef HAVE_SCSI_SG_H
	if (sgfd >= 0) {
		int ver = 0;

		if (ioctl(sgfd, SG_GET_VERSION_NUM, &ver) == 0 && ver > 0)
			o->sg_version = (uint32_t)ver;
	}
#else
	(void)sgfd;
#endif
	/* "30536\t3.5.36 [20140603]" */
	if (o->sg_version == 0 &&
	    dio__read_u64(dio__sys_path(p2, sizeof(p2), "/proc/scsi/sg"), "version", &v) == 0 &&
	    v > 0 && v <= UINT32_MAX)
		o->sg_version = (uint32_t)v;
#undef SYS
}

int
dio__os_devinfo(const char *path, const struct stat *st, struct dio_devinfo *o)
{
	char link[PATH_MAX], sys[PATH_MAX], p[PATH_MAX + 32], name[64], line[64];
	unsigned maj, min;
	dev_t bdev;
	int sgfd = -1;

	if (o->kind == DIO_DEVINFO_BLOCK) {
		snprintf(o->device, sizeof(o->device), "%s", path);
		dio__blk_facts(st->st_rdev, o, 1);
	} else if (o->kind == DIO_DEVINFO_CHAR) {
		dio__sys_path(link, sizeof(link), "/sys/dev/char/%u:%u", major(st->st_rdev),
		              minor(st->st_rdev));
		if (realpath(link, sys) != NULL && strstr(sys, "/scsi_generic/") != NULL) {
			o->kind = DIO_DEVINFO_SG;
			snprintf(o->sg_device, sizeof(o->sg_device), "%s", path);
			/* The disk of the same SCSI device, if it has one. */
			snprintf(p, sizeof(p), "%s/device/block", sys);
			if (dio__first_entry(p, name, sizeof(name))) {
				dio__sys_path(p, sizeof(p), "/sys/block/%s/dev", name);
				if (dio__read_line(p, line, sizeof(line)) == 0 &&
				    sscanf(line, "%u:%u", &maj, &min) == 2)
					dio__blk_facts(makedev(maj, min), o, 0);
			}
			snprintf(p, sizeof(p), "%s/device", sys);
			dio__scsi_facts(p, o);
			sgfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		}
	} else if (dio__fs_blockdev(st->st_dev, &bdev)) {
		dio__blk_facts(bdev, o, 0);
	}
	if (sgfd < 0 && o->sg_device[0] != '\0')
		sgfd = open(dio__sys_path(p, sizeof(p), "%s", o->sg_device),
		            O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	dio__sg_driver(o, sgfd);
	if (sgfd >= 0)
		close(sgfd);
	return 0;
}
