/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * devinfo.c -- harness: the Linux backend's assembly of device facts from
 * sysfs, /proc and the udev database (os/linux-devinfo.c,
 * dio__os_devinfo(): a disk, its partition, a loop device, an sg node, a
 * file on a partition; the queue limits, rotational, write_cache, the
 * partition's disk, the SCSI device and its sg node, the loop backing
 * file, the sg driver's state, the mount that puts a file on a device),
 * the in-use checks above them (os/linux-inuse.c: mounted, swap, backing
 * a loop device, an sg node's disk) and the file system type from
 * mountinfo (os/linux-file.c), all run on a fake tree built from the
 * input under a temporary root (os/linux.h: dio__linux_root; the
 * harness's fuzz_workdir()).
 *
 * The tree is a SCSI disk sda (8:0) with a partition sda1 (8:1), its sg
 * node sg0 (21:0), and loop0 (7:0), laid out as sysfs lays them out.  The
 * input is
 *
 *   4 bytes, little-endian: a mask of the nodes left out or bent (the
 *   table nodes[] below: links to themselves, to the wrong place, to
 *   nowhere),
 *   then the contents of the files of files[] in that order, separated by
 *   NUL bytes; the files after the input's end are not there.
 *
 * Nothing is read outside the root (every link in the tree is relative
 * and stays inside it); nothing is opened but files of the tree.  A
 * device node is made only where the harness may (as root): dev/fs-src,
 * a block node 8:1 that the mountinfo source names and that is only
 * stat()ed.  Checked: every text field ends inside its buffer, every tri
 * is a tri, every path the facts give of a file read is under the root,
 * and the numbers of the disk's queue are those its files say (when a
 * file says a plain number).  Accepted: the disk's facts were assembled
 * (a name and a logical block from its queue).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/linux.h"
#include "os/os.h"
#include "tests/fuzz/fuzz.h"

#define SCSIDEV "sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0"
#define DISK SCSIDEV "/block/sda"
#define PART DISK "/sda1"
#define SG SCSIDEV "/scsi_generic/sg0"
#define LOOP "sys/devices/virtual/block/loop0"

/* Directories, links and nodes, each left out when its bit of the mask
 * is set; a link's bent target replaces its own when bit 24 + i % 8 is. */
static const struct node {
	const char *path;
	const char *link;       /* NULL: a directory */
	const char *bent;       /* the link's bent target, or NULL */
} nodes[] = {
	/*  0 */ { "sys/dev/block/8:0", "../../devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda", "8:0" },
	/*  1 */ { "sys/dev/block/8:1", "../../devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda/sda1", "../../devices/nowhere" },
	/*  2 */ { "sys/dev/block/7:0", "../../devices/virtual/block/loop0", "../../devices/virtual" },
	/*  3 */ { "sys/dev/char/21:0", "../../devices/pci0000:00/host0/target0:0:0/0:0:0:0/scsi_generic/sg0", "../../devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda" },
	/*  4 */ { "sys/block/sda", "../devices/pci0000:00/host0/target0:0:0/0:0:0:0/block/sda", NULL },
	/*  5 */ { DISK "/queue", NULL, NULL },
	/*  6 */ { DISK "/device", "../../../0:0:0:0", "../../.." },
	/*  7 */ { SCSIDEV "/scsi_device/0:0:0:0", NULL, NULL },
	/*  8 */ { SG, NULL, NULL },
	/*  9 */ { "sys/module/sg/parameters", NULL, NULL },
	/* 10 */ { "sys/module/sg/holders", NULL, NULL },
	/* 11 */ { "sys/class/scsi_generic", NULL, NULL },
	/* 12 */ { "proc/scsi/sg", NULL, NULL },
	/* 13 */ { LOOP "/loop", NULL, NULL },
	/* 14 */ { "sys/block/loop0", "../devices/virtual/block/loop0", NULL },
	/* 15 */ { SG "/device", "../../../0:0:0:0", "../../../0:0:0:0/scsi_generic" },
	/* 16 */ { LOOP "/queue", NULL, NULL },
	/* 17 */ { "proc/self", NULL, NULL },
	/* 18 */ { "run/udev/data", NULL, NULL },
	/* 19 */ { "srv", NULL, NULL },
};
#define NNODES (sizeof(nodes) / sizeof(nodes[0]))

static const char *const files[] = {
	/*  0 */ DISK "/dev", DISK "/size", DISK "/ro", DISK "/removable", DISK "/uevent",
	/*  5 */ DISK "/wwid",
	/*  6 */ DISK "/queue/logical_block_size", DISK "/queue/physical_block_size",
	/*  8 */ DISK "/queue/minimum_io_size", DISK "/queue/optimal_io_size",
	/* 10 */ DISK "/queue/dma_alignment", DISK "/queue/max_sectors_kb",
	/* 12 */ DISK "/queue/max_hw_sectors_kb", DISK "/queue/max_segments",
	/* 14 */ DISK "/queue/nr_requests", DISK "/queue/read_ahead_kb",
	/* 16 */ DISK "/queue/rotational", DISK "/queue/fua", DISK "/queue/write_cache",
	/* 19 */ DISK "/queue/scheduler",
	/* 20 */ PART "/partition", PART "/dev", PART "/size", PART "/ro", PART "/uevent",
	/* 25 */ SCSIDEV "/wwid", SG "/uevent", SG "/dev",
	/* 28 */ LOOP "/dev", LOOP "/size", LOOP "/uevent", LOOP "/loop/backing_file",
	/* 32 */ LOOP "/loop/dio", LOOP "/queue/logical_block_size", LOOP "/queue/rotational",
	/* 35 */ LOOP "/queue/write_cache",
	/* 36 */ "sys/module/sg/parameters/allow_dio", "proc/scsi/sg/version",
	/* 38 */ "proc/scsi/sg/allow_dio", "proc/self/mountinfo", "proc/swaps",
	/* 41 */ "run/udev/data/b8:0", "srv/disk.img", "sys/module/sg/initstate",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

/* The device files that the queries name (plain files: nothing of the
 * host is ever opened through them). */
static const char *const devs[] = { "dev/sda", "dev/sda1", "dev/sg0", "dev/loop0" };

static char root[PATH_MAX];
static size_t rootlen;

static int
setup(void)
{
	const char *dir = fuzz_workdir();

	/* allow_dio_path has 64 bytes: under_root() allows a cut one. */
	if (dir == NULL)
		return -1;
	snprintf(root, sizeof(root), "%s", dir);
	rootlen = strlen(root);
	dio__linux_root = root;
	return 0;
}

static void
build(const uint8_t *data, size_t size)
{
	char path[PATH_MAX];
	uint32_t mask = (uint32_t)fuzz_take(&data, &size, 4);
	size_t i;

	fuzz_workdir_clear();
	for (i = 0; i < NNODES; i++) {
		if (mask >> i & 1)
			continue;
		fuzz_workdirs(nodes[i].path, path, sizeof(path));
		if (nodes[i].link == NULL)
			mkdir(path, 0755);
		else
			(void)symlink((mask >> (24 + i % 8) & 1) && nodes[i].bent ? nodes[i].bent
			                                                         : nodes[i].link,
			              path);
	}
	/* Always there: the block directory of the SCSI device (the disk is
	 * its entry), the device files, and what sysfs has for every disk. */
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		fuzz_workfile(devs[i], (const uint8_t *)"", 0);
	fuzz_workdirs(PART "/x", path, sizeof(path));
	if (!(mask >> 20 & 1))
		(void)mknod(fuzz_workdirs("dev/fs-src", path, sizeof(path)), S_IFBLK | 0600,
		            makedev(8, 1));
	for (i = 0; i < NFILES && size > 0; i++) {
		const uint8_t *z = memchr(data, '\0', size);
		size_t n = z ? (size_t)(z - data) : size;

		fuzz_workfile(files[i], data, n);
		data += n;
		size -= n;
		if (z != NULL) {
			data++;
			size--;
		}
	}
}

#define ENDS_IN(a) (memchr((a), '\0', sizeof(a)) != NULL)
#define TRI(v) ((v) == DIO_TRI_UNKNOWN || (v) == DIO_TRI_YES || (v) == DIO_TRI_NO)

/* A path the facts give of a file they read: under the root (as far as
 * the field holds it). */
static void
under_root(const char *p, size_t len)
{
	size_t n = rootlen < len - 1 ? rootlen : len - 1;

	if (p[0] != '\0' && strncmp(p, root, n) != 0)
		abort();
}

static void
sane(const struct dio_devinfo *o)
{
	if (!ENDS_IN(o->device) || !ENDS_IN(o->disk) || !ENDS_IN(o->name) ||
	    !ENDS_IN(o->settings_dir) || !ENDS_IN(o->scheduler) || !ENDS_IN(o->schedulers) ||
	    !ENDS_IN(o->id_serial) || !ENDS_IN(o->wwid) || !ENDS_IN(o->scsi_addr) ||
	    !ENDS_IN(o->sg_device) || !ENDS_IN(o->allow_dio_path) || !ENDS_IN(o->loop_backing))
		abort();
	if (!TRI(o->rotational) || !TRI(o->write_cache) || !TRI(o->fua) ||
	    !TRI(o->removable) || !TRI(o->read_only) || !TRI(o->sg_driver) ||
	    !TRI(o->sg_module) || !TRI(o->allow_dio) || !TRI(o->loop_direct))
		abort();
	under_root(o->settings_dir, sizeof(o->settings_dir));
	under_root(o->allow_dio_path, sizeof(o->allow_dio_path));
}

/* The plain number that file i of the input says (digits, a newline at
 * most): 1 with *v, else 0. */
static int
plain(const uint8_t *data, size_t size, size_t want, uint64_t *v)
{
	size_t i = 0, n;

	(void)fuzz_take(&data, &size, 4);
	for (;;) {
		const uint8_t *z = memchr(data, '\0', size);

		n = z ? (size_t)(z - data) : size;
		if (i == want)
			break;
		if (z == NULL)
			return 0;
		data += n + 1;
		size -= n + 1;
		i++;
	}
	if (n > 0 && data[n - 1] == '\n')
		n--;
	if (n == 0 || n > 9)
		return 0;
	for (*v = 0, i = 0; i < n; i++) {
		if (data[i] < '0' || data[i] > '9')
			return 0;
		*v = *v * 10 + (uint64_t)(data[i] - '0');
	}
	return 1;
}

static int
query(const char *dev, mode_t type, unsigned maj, unsigned min, int kind, struct dio_devinfo *o)
{
	char path[PATH_MAX], why[300];
	struct stat st;
	int r;

	memset(o, 0, sizeof(*o));
	memset(&st, 0, sizeof(st));
	snprintf(path, sizeof(path), "%s/%s", root, dev);
	st.st_mode = type | 0600;
	if (type == S_IFREG)
		st.st_dev = makedev(maj, min);
	else
		st.st_rdev = makedev(maj, min);
	o->kind = (uint32_t)kind;
	r = dio__os_devinfo(path, &st, o);
	if (r != 0)
		abort();
	sane(o);
	if (kind == DIO_DEVINFO_BLOCK && o->kind != DIO_DEVINFO_BLOCK)
		abort();
	if (kind == DIO_DEVINFO_CHAR && o->kind != DIO_DEVINFO_CHAR &&
	    o->kind != DIO_DEVINFO_SG)
		abort();
	why[0] = '\0';
	r = dio__os_device_in_use(path, &st, why, sizeof(why));
	if ((r != 0 && r != 1 && r >= 0) || !ENDS_IN(why) || (r == 1 && why[0] == '\0'))
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct dio_devinfo o;
	struct stat st;
	char fs[128], path[PATH_MAX];
	uint64_t v;
	int ok, fd;

	if (!ready) {
		if (setup() < 0)
			return 0;
		ready = 1;
	}
	build(data, size);

	/* The disk: what its queue says is what the facts say. */
	query("dev/sda", S_IFBLK, 8, 0, DIO_DEVINFO_BLOCK, &o);
	ok = o.name[0] != '\0' && o.logical_block != 0;
	if (o.settings_dir[0] != '\0' && plain(data, size, 6, &v) && o.logical_block != v)
		abort();
	if (o.settings_dir[0] != '\0' && plain(data, size, 16, &v) &&
	    o.rotational != (v ? DIO_TRI_YES : DIO_TRI_NO))
		abort();
	if (plain(data, size, 1, &v) && o.name[0] != '\0' && o.size_bytes != v * 512)
		abort();

	query("dev/sda1", S_IFBLK, 8, 1, DIO_DEVINFO_BLOCK, &o);
	query("dev/loop0", S_IFBLK, 7, 0, DIO_DEVINFO_BLOCK, &o);
	query("dev/sg0", S_IFCHR, 21, 0, DIO_DEVINFO_CHAR, &o);
	query("srv/disk.img", S_IFREG, 8, 1, DIO_DEVINFO_FILE, &o);
	query("srv/disk.img", S_IFREG, 0, 42, DIO_DEVINFO_FILE, &o);
	/* A file as it is: the loop device its backing_file names may be it. */
	if (stat(fuzz_workdirs("srv/disk.img", path, sizeof(path)), &st) == 0) {
		char why[300];
		int r;

		why[0] = '\0';
		r = dio__os_device_in_use(path, &st, why, sizeof(why));
		if (r < 0 || r > 1 || !ENDS_IN(why) || (r == 1 && strstr(why, "loop") == NULL))
			abort();
	}

	/* The file system type of a file on 8:1 and on an anonymous device. */
	fd = open(fuzz_workdirs("srv/disk.img", path, sizeof(path)), O_RDONLY | O_CREAT, 0600);
	if (fd >= 0) {
		memset(&st, 0, sizeof(st));
		st.st_dev = makedev(8, 1);
		if (dio__os_fs_type(fd, &st, fs, sizeof(fs)) == 0 && !ENDS_IN(fs))
			abort();
		st.st_dev = makedev(0, 42);
		if (dio__os_fs_type(fd, &st, fs, sizeof(fs)) == 0 && !ENDS_IN(fs))
			abort();
		close(fd);
	}
	fuzz_verdict(ok, NULL);
	return 0;
}
