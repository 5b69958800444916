/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_disks.c -- the block-layer counters of the disks under a path
 * (dio_disks_open(), dio_disks_read(), dio_disk_counts_diff()):
 *
 *   - the arguments, and the difference of two reads (any backend);
 *   - on this machine's real disks (Linux): a file in /tmp finds the disk
 *     sysfs says holds it, and a 4 KiB write with its fdatasync() between
 *     two reads shows its 8 sectors and, on a disk whose cache is
 *     volatile, its flush; the counters agree with the stat file read
 *     here; /dev/shm and /proc have no local disk; a character device is
 *     no disk; as root, a loop device over a file in /tmp is counted on
 *     that file's disk, and 64 KiB written to it reach that disk;
 *   - on a fake sysfs tree (the Linux backend, CHECK_DISKS_FAKE: the
 *     program is linked with the library's copy whose internals are
 *     visible, tests/fuzz/libdio-fuzz.la, and sets dio__linux_root): a
 *     partition to its disk, device-mapper over two slaves, md over two
 *     partitions of one disk, multipath (two paths, both counted), a loop
 *     device whose backing file is on another disk, a loop that backs
 *     itself, stat files of 11 fields, 4 fields and garbage, names with
 *     odd characters, a disk that is not there, more disks than
 *     DIO_DISKS_MAX, counters that go backwards.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/sysmacros.h>
#endif

#include "libdirectio.h"
#include "tests/testutil.h"
#ifdef CHECK_DISKS_FAKE
# include "lib/internal.h"
# include "os/linux.h"
#endif

static int is_linux;

/* ------------------------------------------------------------ any backend */

START_TEST(test_args)
{
	struct dio_disk_counts c[2];
	dio_disks *d = (dio_disks *)&c;   /* must be set to NULL */
	char why[200];

	ck_assert_int_eq(dio_disks_open(NULL, "/", why, sizeof(why)), -EINVAL);
	ck_assert(why[0] != '\0');
	ck_assert_int_eq(dio_disks_open(&d, NULL, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(dio_disks_open(&d, "", NULL, 0), -EINVAL);
	ck_assert_int_eq(dio_disks_open(&d, "/no/such/path/here", why, sizeof(why)), -ENOENT);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(why, "/no/such/path/here") != NULL, "why: %s", why);
	ck_assert_uint_eq(dio_disks_count(NULL), 0);
	ck_assert_ptr_null(dio_disks_get(NULL, 0));
	ck_assert_int_eq(dio_disks_read(NULL, c, 2), -EINVAL);
	dio_disks_close(NULL);
}
END_TEST

static struct dio_disk_counts
counts(uint64_t at, uint64_t w, uint64_t s, uint64_t f, uint32_t have)
{
	struct dio_disk_counts c;

	memset(&c, 0, sizeof(c));
	c.have = have;
	c.at_ns = at;
	c.read_ios = 10;
	c.read_sectors = 80;
	c.write_ios = w;
	c.write_merges = 1;
	c.write_sectors = s;
	c.write_ms = 7;
	c.flush_ios = f;
	c.flush_ms = 3;
	c.in_flight = 2;
	return c;
}

START_TEST(test_diff)
{
	const uint32_t both = DIO_COUNTS_IO | DIO_COUNTS_FLUSH;
	struct dio_disk_counts a = counts(1000, 100, 800, 40, both), b, x;
	char why[200];

	b = counts(3500, 102, 808, 41, both);
	b.write_ms = 9;
	b.in_flight = 5;
	ck_assert_int_eq(dio_disk_counts_diff(&a, &b, &x, why, sizeof(why)), 0);
	ck_assert_uint_eq(x.have, both);
	ck_assert_int_eq(x.err, 0);
	ck_assert_uint_eq(x.at_ns, 2500);
	ck_assert_uint_eq(x.write_ios, 2);
	ck_assert_uint_eq(x.write_sectors, 8);
	ck_assert_uint_eq(x.flush_ios, 1);
	ck_assert_uint_eq(x.write_ms, 2);
	ck_assert_uint_eq(x.read_ios, 0);
	ck_assert_uint_eq(x.in_flight, 5);   /* a level: the second read's */
	ck_assert_str_eq(x.note, "");

	/* A disk removed and added again: its counters start from 0. */
	b = counts(3500, 3, 24, 1, both);
	ck_assert_int_eq(dio_disk_counts_diff(&a, &b, &x, why, sizeof(why)), -ERANGE);
	ck_assert_msg(strstr(why, "went backwards") != NULL && strstr(why, "100") != NULL,
	              "why: %s", why);
	ck_assert_uint_eq(x.have, 0);
	ck_assert_int_eq(x.err, -ERANGE);
	ck_assert(x.note[0] != '\0');
	/* Only the flushes went back. */
	b = counts(3500, 102, 808, 39, both);
	ck_assert_int_eq(dio_disk_counts_diff(&a, &b, &x, NULL, 0), -ERANGE);
	ck_assert_msg(strstr(x.note, "flushes") != NULL, "note: %s", x.note);

	/* No flush counts in one read: the rest is there, the note says why. */
	b = counts(3500, 102, 808, 0, DIO_COUNTS_IO);
	snprintf(b.note, sizeof(b.note), "the stat file has 11 fields: no flush counts");
	ck_assert_int_eq(dio_disk_counts_diff(&a, &b, &x, why, sizeof(why)), 0);
	ck_assert_uint_eq(x.have, DIO_COUNTS_IO);
	ck_assert_uint_eq(x.write_ios, 2);
	ck_assert_uint_eq(x.flush_ios, 0);
	ck_assert_msg(strstr(x.note, "11 fields") != NULL, "note: %s", x.note);

	/* A read that failed: its note is the reason. */
	b = counts(3500, 0, 0, 0, 0);
	b.err = -EPROTO;
	snprintf(b.note, sizeof(b.note), "the stat file is not a list of numbers");
	ck_assert_int_eq(dio_disk_counts_diff(&a, &b, &x, why, sizeof(why)), -ENODATA);
	ck_assert_msg(strstr(why, "not a list of numbers") != NULL, "why: %s", why);
	ck_assert_int_eq(dio_disk_counts_diff(&b, &a, &x, why, sizeof(why)), -ENODATA);
	ck_assert_int_eq(dio_disk_counts_diff(NULL, &a, &x, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(dio_disk_counts_diff(&a, &a, NULL, why, sizeof(why)), -EINVAL);
}
END_TEST

/* Not Linux: -ENOTSUP with the reason. */
START_TEST(test_not_counted)
{
	dio_disks *d = NULL;
	char why[300] = "";

	ck_assert_int_eq(dio_disks_open(&d, ".", why, sizeof(why)), -ENOTSUP);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(why, "flush") != NULL, "why: %s", why);
}
END_TEST

/* ------------------------------------------------------------ this machine */

#ifdef __linux__
/* /sys/block/NAME/ATTR's first line, trimmed ("" when unreadable). */
static char *
sysattr(const char *name, const char *attr, char *buf, size_t len)
{
	char path[512];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/sys/block/%s/%s", name, attr);
	buf[0] = '\0';
	if ((fp = fopen(path, "r")) == NULL)
		return buf;
	if (fgets(buf, (int)len, fp) == NULL)
		buf[0] = '\0';
	fclose(fp);
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return buf;
}

/* The disk sysfs says holds the file system of dir, found here on our own:
 * 1 with its kernel name, 0 when dir is on no block device. */
static int
disk_of(const char *dir, char *name, size_t len)
{
	char link[128], real[PATH_MAX], p[PATH_MAX + 16], *s;
	struct stat st;

	if (stat(dir, &st) != 0)
		return 0;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev),
	         minor(st.st_dev));
	if (realpath(link, real) == NULL)
		return 0;
	snprintf(p, sizeof(p), "%s/partition", real);
	if (access(p, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	s = strrchr(real, '/');
	snprintf(name, len, "%s", s + 1);
	return 1;
}

/* The fields of /sys/block/NAME/stat, read here: their number. */
static int
stat_fields(const char *name, uint64_t *f, int max)
{
	char line[1024], *p, *e;
	int n = 0;

	sysattr(name, "stat", line, sizeof(line));
	for (p = line; n < max; p = e) {
		unsigned long long v = strtoull(p, &e, 10);

		if (e == p)
			break;
		f[n++] = v;
	}
	return n;
}

START_TEST(test_real_file)
{
	struct dio_disk_counts a[DIO_DISKS_MAX], b[DIO_DISKS_MAX], x;
	const struct dio_disk *k = NULL;
	char name[64], why[300], path[PATH_MAX], wc[64], buf[4096], dev[64];
	uint64_t f[20];
	dio_disks *d;
	unsigned i, n;
	int fd, nf;

	if (!disk_of("/tmp", name, sizeof(name))) {
		printf("check_disks: SKIP the real disk: /tmp is on no block device\n");
		return;
	}
	ck_assert_msg(dio_disks_open(&d, "/tmp", why, sizeof(why)) == 0, "why: %s", why);
	n = dio_disks_count(d);
	ck_assert_uint_ge(n, 1);
	ck_assert_ptr_null(dio_disks_get(d, n));
	for (i = 0; i < n; i++)
		if (strcmp(dio_disks_get(d, i)->name, name) == 0)
			k = dio_disks_get(d, i);
	ck_assert_msg(k != NULL, "%s not among the %u disks of /tmp", name, n);
	ck_assert_msg(strlen(k->via) >= strlen(name) &&
	              strcmp(k->via + strlen(k->via) - strlen(name), name) == 0,
	              "via %s does not end in %s", k->via, name);
	sysattr(name, "queue/write_cache", wc, sizeof(wc));
	ck_assert_uint_eq(k->write_cache, strcmp(wc, "write back") == 0 ? DIO_TRI_YES :
	                  strcmp(wc, "write through") == 0 ? DIO_TRI_NO : DIO_TRI_UNKNOWN);

	/* The library's counters and the file's, read between them, agree. */
	ck_assert_int_eq(dio_disks_read(d, a, n - 1), -EINVAL);
	ck_assert_int_eq(dio_disks_read(d, a, DIO_DISKS_MAX), (int)n);
	nf = stat_fields(name, f, 20);
	ck_assert_int_ge(nf, 11);
	tu_path(path, sizeof(path), "/tmp", "check_disks");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	memset(buf, 0x5a, sizeof(buf));
	ck_assert_int_eq(pwrite(fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	ck_assert_int_eq(fdatasync(fd), 0);
	ck_assert_int_eq(dio_disks_read(d, b, DIO_DISKS_MAX), (int)n);
	close(fd);
	unlink(path);
	i = (unsigned)(k - dio_disks_get(d, 0));
	ck_assert_uint_le(a[i].write_ios, f[4]);
	ck_assert_uint_le(a[i].write_sectors, f[6]);
	ck_assert_uint_ge(b[i].write_sectors, f[6] + 8);
	ck_assert_uint_le(a[i].read_ios, f[0]);
	ck_assert_uint_ge(b[i].at_ns, a[i].at_ns);
	ck_assert_msg(dio_disk_counts_diff(&a[i], &b[i], &x, why, sizeof(why)) == 0,
	              "why: %s", why);
	/* The file's 8 sectors (more: its metadata, other writers). */
	ck_assert_uint_ge(x.write_sectors, 8);
	ck_assert_uint_ge(x.write_ios, 1);
	ck_assert_uint_gt(x.at_ns, 0);
	if (nf < 17) {
		ck_assert_uint_eq(x.have, DIO_COUNTS_IO);
		ck_assert_msg(strstr(x.note, "5.5") != NULL, "note: %s", x.note);
		printf("check_disks: SKIP the flush: %s's stat file has %d fields (no flush "
		       "counts before Linux 5.5)\n", name, nf);
	} else if (strcmp(wc, "write back") != 0) {
		ck_assert_uint_eq(x.have, DIO_COUNTS_IO | DIO_COUNTS_FLUSH);
		printf("check_disks: SKIP the flush: %s's queue/write_cache is \"%s\": the "
		       "kernel sends it no flush\n", name, wc);
	} else {
		/* A flush without data is counted as a write too: 2 at least. */
		ck_assert_uint_eq(x.have, DIO_COUNTS_IO | DIO_COUNTS_FLUSH);
		ck_assert_uint_ge(x.flush_ios, 1);
		ck_assert_uint_ge(x.write_ios, 2);
	}
	snprintf(dev, sizeof(dev), "%s", k->device);
	dio_disks_close(d);

	/* The disk itself, as a block device, is that disk. */
	if (dev[0] != '\0' && access(dev, F_OK) == 0) {
		ck_assert_msg(dio_disks_open(&d, dev, why, sizeof(why)) == 0, "why: %s", why);
		ck_assert_uint_eq(dio_disks_count(d), 1);
		ck_assert_str_eq(dio_disks_get(d, 0)->name, name);
		ck_assert_str_eq(dio_disks_get(d, 0)->via, name);
		dio_disks_close(d);
	}
}
END_TEST

START_TEST(test_no_local_disk)
{
	dio_disks *d = NULL;
	char why[300], path[PATH_MAX];
	int fd;

	if (access("/dev/shm", W_OK) == 0) {
		tu_path(path, sizeof(path), "/dev/shm", "check_disks");
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		ck_assert_int_ge(fd, 0);
		close(fd);
		ck_assert_int_eq(dio_disks_open(&d, path, why, sizeof(why)), -ENODEV);
		unlink(path);
		ck_assert_ptr_null(d);
		ck_assert_msg(strstr(why, "no local disk") != NULL && strstr(why, "tmpfs") != NULL,
		              "why: %s", why);
	}
	ck_assert_int_eq(dio_disks_open(&d, "/proc/self", why, sizeof(why)), -ENODEV);
	ck_assert_msg(strstr(why, "no local disk") != NULL && strstr(why, "proc") != NULL,
	              "why: %s", why);
	ck_assert_int_eq(dio_disks_open(&d, "/dev/null", why, sizeof(why)), -ENODEV);
	ck_assert_msg(strstr(why, "character device") != NULL, "why: %s", why);
}
END_TEST

/* Root: a loop device over a file in /tmp is counted on the file's disk. */
START_TEST(test_real_loop)
{
	struct dio_disk_counts a[DIO_DISKS_MAX], b[DIO_DISKS_MAX], x;
	char name[64], img[PATH_MAX], cmd[PATH_MAX + 64], loop[64], why[300], want[PATH_MAX + 8];
	char *buf;
	dio_disks *d;
	FILE *fp;
	size_t n;
	int fd, r;

	if (geteuid() != 0 || !disk_of("/tmp", name, sizeof(name)) ||
	    system("losetup --version >/dev/null 2>&1") != 0) {
		printf("check_disks: SKIP the loop device: %s\n",
		       geteuid() != 0 ? "not root" : "no losetup, or /tmp on no disk");
		return;
	}
	tu_path(img, sizeof(img), "/tmp", "check_disks-loop");
	fd = open(img, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4 << 20), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s' 2>&1", img);
	fp = popen(cmd, "r");
	ck_assert_ptr_nonnull(fp);
	if (fgets(loop, sizeof(loop), fp) == NULL)
		loop[0] = '\0';
	pclose(fp);
	n = strlen(loop);
	if (n > 0 && loop[n - 1] == '\n')
		loop[--n] = '\0';
	if (strncmp(loop, "/dev/loop", 9) != 0) {
		unlink(img);
		printf("check_disks: SKIP the loop device: losetup said: %s\n", loop);
		return;
	}
	d = NULL;
	r = dio_disks_open(&d, loop, why, sizeof(why));
	if (r == 0) {
		/* 64 KiB to the loop device, and its fsync: they reach the disk. */
		int dev = open(loop, O_WRONLY | O_CLOEXEC);

		ck_assert_int_eq(dio_disks_read(d, a, DIO_DISKS_MAX), 1);
		buf = malloc(65536);
		memset(buf, 0xa5, 65536);
		ck_assert_int_eq(pwrite(dev, buf, 65536, 0), 65536);
		ck_assert_int_eq(fsync(dev), 0);
		close(dev);
		free(buf);
		ck_assert_int_eq(dio_disks_read(d, b, DIO_DISKS_MAX), 1);
	}
	snprintf(cmd, sizeof(cmd), "losetup -d %s", loop);
	(void)system(cmd);
	unlink(img);
	ck_assert_msg(r == 0, "%s: %s", loop, why);
	ck_assert_uint_eq(dio_disks_count(d), 1);
	ck_assert_str_eq(dio_disks_get(d, 0)->name, name);
	/* "loop3 > /tmp/check_disks-loop.123.0 > vda" (a partition between) */
	snprintf(want, sizeof(want), "%s > %s > ", loop + 5, img);
	ck_assert_msg(strncmp(dio_disks_get(d, 0)->via, want, strlen(want)) == 0,
	              "via %s, not %s...", dio_disks_get(d, 0)->via, want);
	ck_assert_int_eq(dio_disk_counts_diff(&a[0], &b[0], &x, why, sizeof(why)), 0);
	ck_assert_uint_ge(x.write_sectors, 128);
	dio_disks_close(d);
}
END_TEST
#endif /* __linux__ */

/* ------------------------------------------------------------ a fake sysfs */

#ifdef CHECK_DISKS_FAKE
static char root[PATH_MAX];
static dev_t here;      /* the real device of the files made under root */
static int here_ok;     /* it is a block device's number (not tmpfs's) */

static const char *
at(const char *rel, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "%s/%s", root, rel);
	for (p = buf + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	return buf;
}

static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *fp = fopen(at(rel, path, sizeof(path)), "w");

	ck_assert_msg(fp != NULL, "%s", path);
	fputs(text, fp);
	ck_assert_int_eq(fclose(fp), 0);
}

/* rel a link to root/target (absolute: realpath() follows it to root). */
static void
lnk(const char *rel, const char *target)
{
	char path[PATH_MAX], to[PATH_MAX];

	at(rel, path, sizeof(path));
	unlink(path);
	snprintf(to, sizeof(to), "%s/%s", root, target);
	ck_assert_int_eq(symlink(to, path), 0);
}

#define FULL "100 2 800 5 1000 10 8000 70 0 90 160 0 0 0 0 400 30\n"

/* A block device at sys/devices/.../NAME (dir), MAJ:MIN, its stat text. */
static void
blockdev(const char *dir, const char *majmin, const char *stat, int part)
{
	char p[PATH_MAX], t[256];
	const char *name = strrchr(dir, '/') + 1;

	snprintf(p, sizeof(p), "%s/dev", dir);
	snprintf(t, sizeof(t), "%s\n", majmin);
	put(p, t);
	snprintf(p, sizeof(p), "%s/uevent", dir);
	snprintf(t, sizeof(t), "DEVNAME=%s\nDEVTYPE=%s\n", name, part ? "partition" : "disk");
	put(p, t);
	snprintf(p, sizeof(p), "%s/stat", dir);
	put(p, stat);
	if (part) {
		snprintf(p, sizeof(p), "%s/partition", dir);
		put(p, "1\n");
	} else {
		snprintf(p, sizeof(p), "sys/block/%s", name);
		lnk(p, dir);
	}
	snprintf(p, sizeof(p), "sys/dev/block/%s", majmin);
	lnk(p, dir);
}

static void
queue(const char *dir, const char *wc, const char *fua, const char *rot)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/queue/write_cache", dir);
	put(p, wc);
	snprintf(p, sizeof(p), "%s/queue/fua", dir);
	put(p, fua);
	snprintf(p, sizeof(p), "%s/queue/rotational", dir);
	put(p, rot);
}

#define SCSI(n) "sys/devices/pci0000:00/host0/target0:0:" #n "/0:0:" #n ":0"
#define SDA SCSI(0) "/block/sda"
#define SDB SCSI(1) "/block/sdb"
#define SDC SCSI(2) "/block/sdc"
#define VDB "sys/devices/pci0000:00/virtio3/block/vdb"
#define VDX "sys/devices/pci0000:00/virtio4/block/vdx"
#define VIRT "sys/devices/virtual/block/"

/* A SCSI disk: its queue and its own word on its cache. */
static void
scsi_disk(const char *scsidev, const char *disk, const char *majmin, const char *cache)
{
	char p[PATH_MAX], addr[32];

	blockdev(disk, majmin, FULL, 0);
	queue(disk, "write back\n", "1\n", "1\n");
	snprintf(addr, sizeof(addr), "%s", strrchr(scsidev, '/') + 1);
	snprintf(p, sizeof(p), "%s/scsi_disk/%s/cache_type", scsidev, addr);
	put(p, cache);
	snprintf(p, sizeof(p), "%s/device", disk);
	lnk(p, scsidev);
}

static void
fake_setup(void)
{
	char p[PATH_MAX], t[64];
	struct stat st;
	int i;

	/* The loop cases want the tree's own files on a block device. */
	static const char *const dirs[] = { NULL, "/var/tmp", "/tmp" };

	for (i = 0; i < 3; i++) {
		const char *dir = dirs[i] != NULL ? dirs[i] : tu_dir();

		if (stat(dir, &st) == 0 && major(st.st_dev) != 0 && access(dir, W_OK) == 0)
			break;
	}
	tu_path(root, sizeof(root), i < 3 && dirs[i] != NULL ? dirs[i] : tu_dir(),
	        "check_disks-sys");
	ck_assert_int_eq(mkdir(root, 0755), 0);
	ck_assert_ptr_nonnull(realpath(root, p));
	snprintf(root, sizeof(root), "%s", p);
	dio__linux_root = root;

	scsi_disk(SCSI(0), SDA, "8:0", "write back\n");
	blockdev(SDA "/sda1", "8:1", FULL, 1);
	blockdev(SDA "/sda2", "8:2", FULL, 1);
	scsi_disk(SCSI(1), SDB, "8:16", "write back, no read (daft)\n");
	scsi_disk(SCSI(2), SDC, "8:32", "write through\n");
	blockdev(VDB, "254:16", FULL, 0);
	queue(VDB, "write through\n", "0\n", "0\n");
	blockdev(VDX, "254:32", FULL, 0);
	queue(VDX, "write back\n", "0\n", "0\n");

	/* multipath: dm-0 over two paths, sdb and sdc */
	blockdev(VIRT "dm-0", "253:0", FULL, 0);
	lnk(VIRT "dm-0/slaves/sdc", SDC);
	lnk(VIRT "dm-0/slaves/sdb", SDB);
	/* LVM: dm-1 over sda1 and vdb */
	blockdev(VIRT "dm-1", "253:1", FULL, 0);
	lnk(VIRT "dm-1/slaves/sda1", SDA "/sda1");
	lnk(VIRT "dm-1/slaves/vdb", VDB);
	/* md0 over two partitions of one disk */
	blockdev(VIRT "md0", "9:0", FULL, 0);
	lnk(VIRT "md0/slaves/sda1", SDA "/sda1");
	lnk(VIRT "md0/slaves/sda2", SDA "/sda2");
	/* dm-2 over md0 and dm-0: two layers */
	blockdev(VIRT "dm-2", "253:2", FULL, 0);
	lnk(VIRT "dm-2/slaves/md0", VIRT "md0");
	lnk(VIRT "dm-2/slaves/dm-0", VIRT "dm-0");
	/* dm-3: a slave that is not there */
	blockdev(VIRT "dm-3", "253:3", FULL, 0);
	lnk(VIRT "dm-3/slaves/sdz", "sys/devices/nowhere/sdz");
	/* dm-4: a slave with a blank in its name */
	blockdev(VIRT "dm-4", "253:4", FULL, 0);
	lnk(VIRT "dm-4/slaves/sd b", SDB);

	/* loop0 over a file on this file system, which sysfs here puts on vdx */
	blockdev(VIRT "loop0", "7:0", FULL, 0);
	put(VIRT "loop0/loop/backing_file", "/srv/disk.img\n");
	put("srv/disk.img", "");
	ck_assert_int_eq(stat(at("srv/disk.img", p, sizeof(p)), &st), 0);
	here = st.st_dev;
	here_ok = major(here) != 0;
	if (!here_ok)
		printf("check_disks: SKIP the fake loop devices: %s is on no block device\n",
		       root);
	snprintf(t, sizeof(t), "sys/dev/block/%u:%u", major(here), minor(here));
	lnk(t, VDX);
	/* loop1 over a file that is gone; loop2 over itself (see test_fake_cycle) */
	blockdev(VIRT "loop1", "7:1", FULL, 0);
	put(VIRT "loop1/loop/backing_file", "/srv/gone.img (deleted)\n");
	blockdev(VIRT "loop2", "7:2", FULL, 0);
	put(VIRT "loop2/loop/backing_file", "/srv/disk.img\n");

	/* stat files of an old kernel, a short one, garbage */
	blockdev(SCSI(3) "/block/sdd", "8:48", "1 2 3 4 5 6 7 8 9 10 11\n", 0);
	blockdev(SCSI(4) "/block/sde", "8:64", "1 2 3 4\n", 0);
	blockdev(SCSI(5) "/block/sdf", "8:80", "1 2 3 4 x5 6 7 8 9 10 11 0 0 0 0 1 2\n", 0);
	/* names no kernel gives */
	blockdev(SCSI(6) "/block/sd\001g", "8:96", FULL, 0);
	blockdev(SCSI(7) "/block/nvme0n1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "259:0", FULL, 0);
	/* dm-9 over 70 disks */
	blockdev(VIRT "dm-9", "253:9", FULL, 0);
	for (i = 0; i < DIO_DISKS_MAX + 6; i++) {
		char d[128], mm[16];

		snprintf(d, sizeof(d), VIRT "ram%d", i);
		snprintf(mm, sizeof(mm), "1:%d", i);
		blockdev(d, mm, FULL, 0);
		snprintf(p, sizeof(p), VIRT "dm-9/slaves/ram%d", i);
		lnk(p, d);
	}
}

static void
fake_teardown(void)
{
	char cmd[PATH_MAX + 16];

	dio__linux_root = "";
	if (root[0] != '\0' && strstr(root, "check_disks-sys") != NULL) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		(void)system(cmd);
	}
}

/* dio_disks_open() of a block device MAJ:MIN (blk) or a file on it. */
static int
fake_open(dio_disks **d, unsigned maj, unsigned min, int blk, char *why, size_t len)
{
	struct stat st;
	char path[PATH_MAX];

	memset(&st, 0, sizeof(st));
	st.st_mode = (blk ? S_IFBLK : S_IFREG) | 0600;
	if (blk)
		st.st_rdev = makedev(maj, min);
	else
		st.st_dev = makedev(maj, min);
	why[0] = '\0';
	*d = NULL;
	return dio__disks_open_stat(d, at(blk ? "dev/x" : "srv/disk.img", path, sizeof(path)),
	                            &st, why, len);
}

static const struct dio_disk *
find(const dio_disks *d, const char *name)
{
	unsigned i;

	for (i = 0; i < dio_disks_count(d); i++)
		if (strcmp(dio_disks_get(d, i)->name, name) == 0)
			return dio_disks_get(d, i);
	return NULL;
}

#define OPEN_OK(d, maj, min, blk) do { \
	int r_ = fake_open(&(d), (maj), (min), (blk), why, sizeof(why)); \
	ck_assert_msg(r_ == 0, "%u:%u: %d %s", (unsigned)(maj), (unsigned)(min), r_, why); \
} while (0)

START_TEST(test_fake_partition)
{
	const struct dio_disk *k;
	struct dio_disk_counts c[DIO_DISKS_MAX];
	char why[300];
	dio_disks *d;

	OPEN_OK(d, 8, 1, 1);
	ck_assert_uint_eq(dio_disks_count(d), 1);
	k = dio_disks_get(d, 0);
	ck_assert_str_eq(k->name, "sda");
	ck_assert_str_eq(k->device, "/dev/sda");
	ck_assert_str_eq(k->via, "sda1 > sda");
	ck_assert_uint_eq(k->write_cache, DIO_TRI_YES);
	ck_assert_uint_eq(k->device_cache, DIO_TRI_YES);
	ck_assert_uint_eq(k->fua, DIO_TRI_YES);
	ck_assert_uint_eq(k->rotational, DIO_TRI_YES);
	ck_assert_int_eq(dio_disks_read(d, c, DIO_DISKS_MAX), 1);
	ck_assert_uint_eq(c[0].have, DIO_COUNTS_IO | DIO_COUNTS_FLUSH);
	ck_assert_int_eq(c[0].err, 0);
	ck_assert_uint_eq(c[0].read_ios, 100);
	ck_assert_uint_eq(c[0].read_sectors, 800);
	ck_assert_uint_eq(c[0].write_ios, 1000);
	ck_assert_uint_eq(c[0].write_merges, 10);
	ck_assert_uint_eq(c[0].write_sectors, 8000);
	ck_assert_uint_eq(c[0].write_ms, 70);
	ck_assert_uint_eq(c[0].in_flight, 0);
	ck_assert_uint_eq(c[0].flush_ios, 400);
	ck_assert_uint_eq(c[0].flush_ms, 30);
	ck_assert_uint_gt(c[0].at_ns, 0);
	dio_disks_close(d);

	/* A file on the partition; the whole disk. */
	OPEN_OK(d, 8, 1, 0);
	ck_assert_str_eq(dio_disks_get(d, 0)->via, "sda1 > sda");
	dio_disks_close(d);
	OPEN_OK(d, 8, 0, 1);
	ck_assert_str_eq(dio_disks_get(d, 0)->via, "sda");
	dio_disks_close(d);
	/* Another SCSI disk reports its cache as write-through; a virtio disk
	 * reports nothing of its own. */
	OPEN_OK(d, 8, 32, 1);
	ck_assert_uint_eq(dio_disks_get(d, 0)->device_cache, DIO_TRI_NO);
	dio_disks_close(d);
	OPEN_OK(d, 254, 16, 1);
	ck_assert_uint_eq(dio_disks_get(d, 0)->device_cache, DIO_TRI_UNKNOWN);
	ck_assert_uint_eq(dio_disks_get(d, 0)->write_cache, DIO_TRI_NO);
	ck_assert_uint_eq(dio_disks_get(d, 0)->fua, DIO_TRI_NO);
	ck_assert_uint_eq(dio_disks_get(d, 0)->rotational, DIO_TRI_NO);
	dio_disks_close(d);
}
END_TEST

START_TEST(test_fake_layers)
{
	const struct dio_disk *k;
	char why[300];
	dio_disks *d;

	/* LVM over a partition and a disk: both disks. */
	OPEN_OK(d, 253, 1, 1);
	ck_assert_uint_eq(dio_disks_count(d), 2);
	ck_assert_ptr_nonnull(k = find(d, "sda"));
	ck_assert_str_eq(k->via, "dm-1 > sda1 > sda");
	ck_assert_ptr_nonnull(k = find(d, "vdb"));
	ck_assert_str_eq(k->via, "dm-1 > vdb");
	dio_disks_close(d);

	/* md over two partitions of one disk: the disk once. */
	OPEN_OK(d, 9, 0, 0);
	ck_assert_uint_eq(dio_disks_count(d), 1);
	ck_assert_str_eq(dio_disks_get(d, 0)->via, "md0 > sda1 > sda");
	dio_disks_close(d);

	/* multipath: two paths to one unit, both counted, in name order. */
	OPEN_OK(d, 253, 0, 1);
	ck_assert_uint_eq(dio_disks_count(d), 2);
	ck_assert_str_eq(dio_disks_get(d, 0)->name, "sdb");
	ck_assert_str_eq(dio_disks_get(d, 0)->via, "dm-0 > sdb");
	ck_assert_uint_eq(dio_disks_get(d, 0)->device_cache, DIO_TRI_YES);
	ck_assert_str_eq(dio_disks_get(d, 1)->name, "sdc");
	dio_disks_close(d);

	/* dm over md and multipath. */
	OPEN_OK(d, 253, 2, 1);
	ck_assert_uint_eq(dio_disks_count(d), 3);
	ck_assert_ptr_nonnull(k = find(d, "sdc"));
	ck_assert_str_eq(k->via, "dm-2 > dm-0 > sdc");
	ck_assert_ptr_nonnull(k = find(d, "sda"));
	ck_assert_str_eq(k->via, "dm-2 > md0 > sda1 > sda");
	dio_disks_close(d);

	/* loop0's backing file is on vdx. */
	if (!here_ok)
		return;
	OPEN_OK(d, 7, 0, 1);
	ck_assert_uint_eq(dio_disks_count(d), 1);
	ck_assert_str_eq(dio_disks_get(d, 0)->name, "vdx");
	ck_assert_str_eq(dio_disks_get(d, 0)->via, "loop0 > /srv/disk.img > vdx");
	dio_disks_close(d);
}
END_TEST

START_TEST(test_fake_refused)
{
	char why[300];
	dio_disks *d;

	/* A slave that is not there; a backing file that is gone. */
	ck_assert_int_eq(fake_open(&d, 253, 3, 1, why, sizeof(why)), -ENODEV);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(why, "disk not found: dm-3 > sdz") != NULL, "why: %s", why);
	ck_assert_int_eq(fake_open(&d, 7, 1, 1, why, sizeof(why)), -ENODEV);
	ck_assert_msg(strstr(why, "disk not found: loop1") != NULL &&
	              strstr(why, "(deleted)") != NULL, "why: %s", why);
	/* No such device in sysfs: a block device, a file on it. */
	ck_assert_int_eq(fake_open(&d, 8, 112, 1, why, sizeof(why)), -ENODEV);
	ck_assert_msg(strstr(why, "disk not found") != NULL && strstr(why, "8:112") != NULL,
	              "why: %s", why);
	ck_assert_int_eq(fake_open(&d, 0, 77, 0, why, sizeof(why)), -ENODEV);
	ck_assert_msg(strstr(why, "no local disk") != NULL, "why: %s", why);
	/* Names that are no plain names: a control character, a blank, too long. */
	ck_assert_int_eq(fake_open(&d, 8, 96, 1, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "sd\\x01g") != NULL, "why: %s", why);
	ck_assert_int_eq(fake_open(&d, 253, 4, 1, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "\"sd b\"") != NULL, "why: %s", why);
	ck_assert_int_eq(fake_open(&d, 259, 0, 1, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "nvme0n1") != NULL, "why: %s", why);
	/* More disks than DIO_DISKS_MAX. */
	ck_assert_int_eq(fake_open(&d, 253, 9, 1, why, sizeof(why)), -E2BIG);
	ck_assert_msg(strstr(why, "more than 64") != NULL, "why: %s", why);
	ck_assert_ptr_null(d);
}
END_TEST

/* loop2's backing file is on a device that sysfs says is loop2. */
START_TEST(test_fake_cycle)
{
	char why[300], t[64];
	dio_disks *d;

	if (!here_ok)
		return;
	snprintf(t, sizeof(t), "sys/dev/block/%u:%u", major(here), minor(here));
	lnk(t, VIRT "loop2");
	ck_assert_int_eq(fake_open(&d, 7, 2, 1, why, sizeof(why)), -ELOOP);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(why, "cycle: loop2 > /srv/disk.img > loop2") != NULL,
	              "why: %s", why);
	lnk(t, VDX);
}
END_TEST

START_TEST(test_fake_stat_files)
{
	struct dio_disk_counts c[DIO_DISKS_MAX], c2[DIO_DISKS_MAX], x;
	char why[300];
	dio_disks *d;

	/* 11 fields: writes, no flushes. */
	OPEN_OK(d, 8, 48, 1);
	ck_assert_int_eq(dio_disks_read(d, c, DIO_DISKS_MAX), 1);
	ck_assert_uint_eq(c[0].have, DIO_COUNTS_IO);
	ck_assert_int_eq(c[0].err, 0);
	ck_assert_uint_eq(c[0].write_ios, 5);
	ck_assert_uint_eq(c[0].write_sectors, 7);
	ck_assert_uint_eq(c[0].in_flight, 9);
	ck_assert_str_eq(c[0].note, "the stat file has 11 fields: no flush counts before "
	                 "Linux 5.5");
	ck_assert_int_eq(dio_disks_read(d, c2, DIO_DISKS_MAX), 1);
	ck_assert_int_eq(dio_disk_counts_diff(&c[0], &c2[0], &x, why, sizeof(why)), 0);
	ck_assert_uint_eq(x.have, DIO_COUNTS_IO);
	ck_assert_msg(strstr(x.note, "11 fields") != NULL, "note: %s", x.note);
	dio_disks_close(d);

	/* 4 fields: nothing. */
	OPEN_OK(d, 8, 64, 1);
	ck_assert_int_eq(dio_disks_read(d, c, DIO_DISKS_MAX), 0);
	ck_assert_uint_eq(c[0].have, 0);
	ck_assert_int_eq(c[0].err, -ENODATA);
	ck_assert_msg(strstr(c[0].note, "4 fields") != NULL, "note: %s", c[0].note);
	ck_assert_int_eq(dio_disk_counts_diff(&c[0], &c[0], &x, why, sizeof(why)), -ENODATA);
	ck_assert_msg(strstr(why, "4 fields") != NULL, "why: %s", why);
	dio_disks_close(d);

	/* Garbage. */
	OPEN_OK(d, 8, 80, 1);
	ck_assert_int_eq(dio_disks_read(d, c, DIO_DISKS_MAX), 0);
	ck_assert_int_eq(c[0].err, -EPROTO);
	ck_assert_uint_eq(c[0].have, 0);
	ck_assert_msg(strstr(c[0].note, "field 5 is \"x5\"") != NULL, "note: %s", c[0].note);
	dio_disks_close(d);

	/* The file is read again from its start at each read: new numbers,
	 * then smaller ones (the disk removed and added again). */
	OPEN_OK(d, 254, 32, 1);
	ck_assert_int_eq(dio_disks_read(d, c, DIO_DISKS_MAX), 1);
	put(VDX "/stat", "100 2 800 5 1003 10 8024 71 1 90 160 0 0 0 0 401 31\n");
	ck_assert_int_eq(dio_disks_read(d, c2, DIO_DISKS_MAX), 1);
	ck_assert_int_eq(dio_disk_counts_diff(&c[0], &c2[0], &x, why, sizeof(why)), 0);
	ck_assert_uint_eq(x.write_ios, 3);
	ck_assert_uint_eq(x.write_sectors, 24);
	ck_assert_uint_eq(x.flush_ios, 1);
	ck_assert_uint_eq(x.in_flight, 1);
	put(VDX "/stat", "1 0 8 0 2 0 16 0 0 0 0 0 0 0 0 1 0\n");
	ck_assert_int_eq(dio_disks_read(d, c2, DIO_DISKS_MAX), 1);
	ck_assert_int_eq(dio_disk_counts_diff(&c[0], &c2[0], &x, why, sizeof(why)), -ERANGE);
	ck_assert_msg(strstr(why, "went backwards") != NULL, "why: %s", why);
	put(VDX "/stat", FULL);
	dio_disks_close(d);
}
END_TEST
#endif /* CHECK_DISKS_FAKE */

static Suite *
disks_suite(void)
{
	Suite *s = suite_create("disks");
	TCase *tc = tcase_create("any");

	tcase_add_test(tc, test_args);
	tcase_add_test(tc, test_diff);
	if (!is_linux)
		tcase_add_test(tc, test_not_counted);
	suite_add_tcase(s, tc);
#ifdef __linux__
	if (is_linux) {
		tc = tcase_create("real");
		tcase_set_timeout(tc, 60);
		tcase_add_test(tc, test_real_file);
		tcase_add_test(tc, test_no_local_disk);
		tcase_add_test(tc, test_real_loop);
		suite_add_tcase(s, tc);
	}
#endif
#ifdef CHECK_DISKS_FAKE
	tc = tcase_create("fake");
	tcase_add_unchecked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_test(tc, test_fake_partition);
	tcase_add_test(tc, test_fake_layers);
	tcase_add_test(tc, test_fake_refused);
	tcase_add_test(tc, test_fake_cycle);
	tcase_add_test(tc, test_fake_stat_files);
	suite_add_tcase(s, tc);
#endif
	return s;
}

int
main(void)
{
	is_linux = strcmp(dio_backend_name(), "linux") == 0;
	return tu_run(srunner_create(disks_suite()));
}
