/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disks.c -- harness: the disks under a path and their block-layer
 * counters (os/linux-disks.c behind dio_disks_open(), dio_disks_read();
 * the stat file's parser, dio__parse_disk_stat() of os/linux-read.c; and
 * dio_disk_counts_diff()), run on a fake sysfs tree built from the input
 * under a temporary root (os/linux.h: dio__linux_root).
 *
 * The tree: a SCSI disk sda (8:0) with partitions sda1 (8:1) and sda2
 * (8:2), a SCSI disk sdb (8:16), a virtio disk vdb (254:16), dm-0
 * (253:0) over sda1, sdb and a slave the input names, md0 (9:0) over
 * sda1 and sda2, and loop0 (7:0) over the backing file the input names.
 * The input is
 *
 *   2 bytes, little-endian: a mask of the nodes of nodes[] left out (the
 *   last one, a link that makes a cycle, made),
 *   then the contents of the files of files[] in that order, separated by
 *   NUL bytes (the slave's name is the name of a link under dm-0/slaves;
 *   the second stat files are written between the two reads); the files
 *   after the input's end are not there.
 *
 * Nothing is read outside the root but the backing file's file system
 * (its stat()) and /proc/self/mountinfo under the root.  Checked: every
 * text ends inside its buffer, a failure leaves no handle and says why, a
 * handle has 1 to DIO_DISKS_MAX disks with plain names whose via ends in
 * the name, every tri is a tri, the have bits agree with err, the
 * counters of a stat file of 17 plain numbers are those numbers, and a
 * difference is either exact or refused with a reason.  Accepted: dm-0's
 * disks were found and the counters of one of them read.
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

#include "lib/internal.h"
#include "os/linux.h"
#include "tests/fuzz/fuzz.h"

#define SCSI "sys/devices/pci0000:00/host0/target0:0:0/0:0:0:0"
#define SDA SCSI "/block/sda"
#define SDB "sys/devices/pci0000:00/host0/target0:0:1/0:0:1:0/block/sdb"
#define VDB "sys/devices/pci0000:00/virtio3/block/vdb"
#define VIRT "sys/devices/virtual/block/"

/* Links (to root/target) and directories, each left out when its bit of
 * the mask is set, but the last, made when its bit is set. */
static const struct node {
	const char *path;
	const char *target;     /* NULL: a directory */
} nodes[] = {
	/*  0 */ { "sys/dev/block/8:0", SDA },
	/*  1 */ { "sys/dev/block/8:1", SDA "/sda1" },
	/*  2 */ { "sys/dev/block/8:16", SDB },
	/*  3 */ { "sys/dev/block/254:16", VDB },
	/*  4 */ { "sys/dev/block/253:0", VIRT "dm-0" },
	/*  5 */ { "sys/dev/block/9:0", VIRT "md0" },
	/*  6 */ { "sys/dev/block/7:0", VIRT "loop0" },
	/*  7 */ { VIRT "dm-0/slaves/sda1", SDA "/sda1" },
	/*  8 */ { VIRT "dm-0/slaves/sdb", SDB },
	/*  9 */ { VIRT "md0/slaves/sda1", SDA "/sda1" },
	/* 10 */ { VIRT "md0/slaves/sda2", SDA "/sda2" },
	/* 11 */ { SDA "/device", SCSI },
	/* 12 */ { SDA "/sda1", NULL },
	/* 13 */ { VIRT "md0/slaves/dm-0", VIRT "dm-0" },    /* dm-0 under md0 */
	/* 14 */ { "sys/dev/block/8:2", SDA "/sda2" },
	/* 15 */ { VIRT "dm-0/slaves/md0", VIRT "md0" },    /* a cycle: bit set, made */
};
#define NNODES (sizeof(nodes) / sizeof(nodes[0]))

static const char *const files[] = {
	/*  0 */ SDA "/stat", SDA "/sda1/partition", SDA "/sda2/partition", SDB "/stat",
	/*  4 */ VDB "/stat", VIRT "dm-0/stat", VIRT "md0/stat", VIRT "loop0/stat",
	/*  8 */ VIRT "loop0/loop/backing_file", SDA "/queue/write_cache",
	/* 10 */ SDA "/queue/fua", SCSI "/scsi_disk/0:0:0:0/cache_type", SDA "/uevent",
	/* 13 */ "proc/self/mountinfo",
	/* 14 */ NULL,                                   /* dm-0's third slave: a name */
	/* 15 */ SDA "/stat", SDB "/stat", VDB "/stat",  /* written between the reads */
};
#define NFILES (sizeof(files) / sizeof(files[0]))
#define NFIRST 15

static char root[PATH_MAX];
static size_t rootlen;

static const char *
at(const char *rel, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "%s/%s", root, rel);
	for (p = buf + rootlen + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	return buf;
}

static void
put(const char *rel, const uint8_t *data, size_t len)
{
	char path[PATH_MAX];
	int fd = open(at(rel, path, sizeof(path)), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return;
	if (len > 0 && write(fd, data, len) < 0)
		len = 0;
	close(fd);
}

static void
lnk(const char *rel, const char *target)
{
	char path[PATH_MAX], to[PATH_MAX];

	at(rel, path, sizeof(path));
	snprintf(to, sizeof(to), "%s/%s", root, target);
	(void)symlink(to, path);
}

/* The input's files: the part before the second stat files (first) or
 * those (!first).  Returns how many were there. */
static size_t
files_of(const uint8_t *data, size_t size, int first, const uint8_t **part, size_t *plen,
         size_t max)
{
	size_t i, n = 0;

	(void)fuzz_take(&data, &size, 2);
	for (i = 0; i < NFILES && size > 0; i++) {
		const uint8_t *z = memchr(data, '\0', size);
		size_t k = z ? (size_t)(z - data) : size;

		if ((first && i < NFIRST) || (!first && i >= NFIRST)) {
			if (n < max) {
				part[n] = data;
				plen[n] = k;
			}
			n++;
		}
		data += k;
		size -= k;
		if (z != NULL) {
			data++;
			size--;
		}
	}
	return n;
}

static void
build(const uint8_t *data, size_t size)
{
	const uint8_t *part[NFILES];
	size_t plen[NFILES], n, i;
	uint32_t mask;
	char path[PATH_MAX], name[64];
	struct stat st;

	{
		const uint8_t *d = data;
		size_t s = size;

		mask = (uint32_t)fuzz_take(&d, &s, 2);
	}
	fuzz_workdir_clear();
	for (i = 0; i < NNODES; i++) {
		if ((mask >> i & 1) != (i == NNODES - 1))
			continue;
		if (nodes[i].target == NULL)
			mkdir(at(nodes[i].path, path, sizeof(path)), 0755);
		else
			lnk(nodes[i].path, nodes[i].target);
	}
	/* Always there: the disks' directories, named as sysfs names them. */
	put(SDA "/dev", (const uint8_t *)"8:0\n", 4);
	put(SDA "/sda1/stat", (const uint8_t *)"", 0);
	put(SDA "/sda2/stat", (const uint8_t *)"", 0);
	put(VIRT "dm-0/dev", (const uint8_t *)"253:0\n", 6);
	put(VIRT "md0/dev", (const uint8_t *)"9:0\n", 4);
	put("srv/disk.img", (const uint8_t *)"", 0);
	/* The backing file's own device, as the mountinfo of the input may
	 * name it: a block node 8:0 (as root) that is only stat()ed. */
	if (stat(at("srv/disk.img", path, sizeof(path)), &st) == 0)
		(void)mknod(at("dev/fs-src", path, sizeof(path)), S_IFBLK | 0600, makedev(8, 0));
	n = files_of(data, size, 1, part, plen, NFILES);
	for (i = 0; i < n && i < NFIRST; i++) {
		if (files[i] != NULL) {
			put(files[i], part[i], plen[i]);
		} else if (plen[i] > 0 && plen[i] < sizeof(name) &&
		           memchr(part[i], '/', plen[i]) == NULL &&
		           memchr(part[i], '\0', plen[i]) == NULL) {
			char rel[128];

			memcpy(name, part[i], plen[i]);
			name[plen[i]] = '\0';
			if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
				snprintf(rel, sizeof(rel), VIRT "dm-0/slaves/%s", name);
				lnk(rel, VDB);
			}
		}
	}
}

#define ENDS_IN(a) (memchr((a), '\0', sizeof(a)) != NULL)
#define TRI(v) ((v) == DIO_TRI_UNKNOWN || (v) == DIO_TRI_YES || (v) == DIO_TRI_NO)

static void
sane_disk(const struct dio_disk *k)
{
	size_t n, v, i;

	if (!ENDS_IN(k->name) || !ENDS_IN(k->device) || !ENDS_IN(k->via))
		abort();
	if (!TRI(k->write_cache) || !TRI(k->device_cache) || !TRI(k->fua) ||
	    !TRI(k->rotational))
		abort();
	n = strlen(k->name);
	v = strlen(k->via);
	if (n == 0 || strchr(k->name, '/') != NULL || strcmp(k->name, "..") == 0)
		abort();
	for (i = 0; i < n; i++)
		if ((unsigned char)k->name[i] <= 0x20 || (unsigned char)k->name[i] > 0x7e)
			abort();
	/* The via ends in the name, unless it was cut to fit. */
	if (v + 1 < sizeof(k->via) && (v < n || strcmp(k->via + v - n, k->name) != 0))
		abort();
}

static void
sane_counts(const struct dio_disk_counts *c)
{
	if (!ENDS_IN(c->note))
		abort();
	if ((c->have & ~(uint32_t)(DIO_COUNTS_IO | DIO_COUNTS_FLUSH)) != 0)
		abort();
	if ((c->have & DIO_COUNTS_FLUSH) && !(c->have & DIO_COUNTS_IO))
		abort();
	if (c->err == 0 && !(c->have & DIO_COUNTS_IO))
		abort();
	if (c->err != 0 && (c->have != 0 || c->note[0] == '\0'))
		abort();
	if ((c->have & DIO_COUNTS_IO) && !(c->have & DIO_COUNTS_FLUSH) && c->note[0] == '\0')
		abort();
}

/* The 17 plain numbers (blanks between, a newline at the end at most) of
 * a stat file's text: 1 with them, else 0. */
static int
plain17(const uint8_t *t, size_t len, uint64_t *f)
{
	size_t i = 0;
	int n = 0;

	while (i < len && n < 17) {
		int digits = 0;

		f[n] = 0;
		while (i < len && t[i] >= '0' && t[i] <= '9' && digits < 15) {
			f[n] = f[n] * 10 + (uint64_t)(t[i++] - '0');
			digits++;
		}
		if (digits == 0 || (i < len && t[i] != ' ' && t[i] != '\n'))
			return 0;
		n++;
		while (i < len && t[i] == ' ')
			i++;
	}
	return n == 17 && (i == len || (i + 1 == len && t[i] == '\n'));
}

/* Open MAJ:MIN (a block device, or a file on it), read twice around the
 * rewrite of the second stat files, diff; 1 when a disk's counters were
 * read. */
static int
query(unsigned maj, unsigned min, int blk, const uint8_t *data, size_t size, int rewrite)
{
	static struct dio_disk_counts a[DIO_DISKS_MAX], b[DIO_DISKS_MAX];
	const uint8_t *part[NFILES];
	size_t plen[NFILES], n;
	struct dio_disk_counts x;
	char path[PATH_MAX], why[300];
	struct stat st;
	dio_disks *d = NULL;
	unsigned i, count;
	uint64_t f[17];
	int r, got;

	memset(&st, 0, sizeof(st));
	st.st_mode = (blk ? S_IFBLK : S_IFREG) | 0600;
	if (blk)
		st.st_rdev = makedev(maj, min);
	else
		st.st_dev = makedev(maj, min);
	memset(why, 0, sizeof(why));
	r = dio__disks_open_stat(&d, at("srv/disk.img", path, sizeof(path)), &st, why,
	                         sizeof(why));
	if (!ENDS_IN(why))
		abort();
	if (r != 0) {
		if (r > 0 || d != NULL || why[0] == '\0')
			abort();
		return 0;
	}
	count = dio_disks_count(d);
	if (count < 1 || count > DIO_DISKS_MAX || dio_disks_get(d, count) != NULL)
		abort();
	for (i = 0; i < count; i++)
		sane_disk(dio_disks_get(d, i));
	got = dio_disks_read(d, a, DIO_DISKS_MAX);
	if (got < 0 || (unsigned)got > count)
		abort();
	for (i = 0; i < count; i++) {
		sane_counts(&a[i]);
		/* sda's counters are the numbers its stat file says. */
		n = files_of(data, size, 1, part, plen, NFILES);
		if (strcmp(dio_disks_get(d, i)->name, "sda") == 0 && n > 0 &&
		    plain17(part[0], plen[0], f) &&
		    (a[i].have != (DIO_COUNTS_IO | DIO_COUNTS_FLUSH) || a[i].write_ios != f[4] ||
		     a[i].write_sectors != f[6] || a[i].flush_ios != f[15] ||
		     a[i].in_flight != f[8]))
			abort();
	}
	if (rewrite) {
		n = files_of(data, size, 0, part, plen, NFILES);
		for (i = 0; i < n && i < NFILES - NFIRST; i++)
			put(files[NFIRST + i], part[i], plen[i]);
	}
	if (dio_disks_read(d, b, DIO_DISKS_MAX) < 0)
		abort();
	for (i = 0; i < count; i++) {
		sane_counts(&b[i]);
		memset(why, 0, sizeof(why));
		r = dio_disk_counts_diff(&a[i], &b[i], &x, why, sizeof(why));
		if (!ENDS_IN(why) || !ENDS_IN(x.note))
			abort();
		if (r == 0 && (x.write_ios != b[i].write_ios - a[i].write_ios ||
		               x.write_sectors != b[i].write_sectors - a[i].write_sectors ||
		               ((x.have & DIO_COUNTS_FLUSH) &&
		                x.flush_ios != b[i].flush_ios - a[i].flush_ios) ||
		               (!(x.have & DIO_COUNTS_FLUSH) && x.note[0] == '\0')))
			abort();
		if (r != 0 && (r != -ERANGE && r != -ENODATA))
			abort();
		if (r != 0 && (why[0] == '\0' || x.have != 0 || x.err != r))
			abort();
	}
	dio_disks_close(d);
	return got > 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	const char *dir;
	int ok;

	if (!ready) {
		if ((dir = fuzz_workdir()) == NULL)
			return 0;
		snprintf(root, sizeof(root), "%s", dir);
		rootlen = strlen(root);
		dio__linux_root = root;
		ready = 1;
	}
	build(data, size);
	(void)query(8, 1, 1, data, size, 0);
	(void)query(8, 1, 0, data, size, 0);
	(void)query(9, 0, 1, data, size, 0);
	(void)query(7, 0, 1, data, size, 0);
	ok = query(253, 0, 1, data, size, 1);
	fuzz_verdict(ok, NULL);
	return 0;
}
