/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_sunos.c -- the illumos backend (os/sunos*.c) built on this system
 * against the test double of tests/illumos/, whose answers follow the
 * illumos source (doc/illumos.md): direct I/O per file system, ZFS,
 * forcedirectio mounts, raw and block disk nodes, slice sizes, transfer
 * sizes, the in-use check, ZFS's sync property and USCSICMD.
 *
 * Regular files are real temporary files (their file system type is
 * scripted); device nodes exist only in the double.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/scsi/impl/uscsi.h>
#include <unistd.h>

#include "lib/internal.h"
#include "os/os.h"

static char dir[256];
static char logbuf[4096];

static void
logfn(int level, const char *msg, void *arg)
{
	size_t n = strlen(logbuf);

	(void)level; (void)arg;
	snprintf(logbuf + n, sizeof(logbuf) - n, "%s\n", msg);
}

static void
setup(void)
{
	const char *tmp = getenv("TMPDIR");

	dbl_reset();
	snprintf(dir, sizeof(dir), "%s/check_sunos.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(dbl.zfs_path, sizeof(dbl.zfs_path), "%s/zfs", dir);
	logbuf[0] = '\0';
	dio_set_log_fn(logfn, NULL, DIO_LOG_DEBUG);
}

static void
teardown(void)
{
	static const char *names[] = { "a", "b", "c", "zfs", "zfs.args", NULL };
	char p[512];
	int i;

	for (i = 0; names[i] != NULL; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		(void)unlink(p);
	}
	(void)rmdir(dir);
	dbl_cleanup();
	dio_set_log_fn(NULL, NULL, 0);
}

/* A real file dir/name of 4 KiB whose f_basetype is type. */
static const char *
mkfile(const char *name, const char *type)
{
	static char paths[4][512];
	static int k;
	char *p = paths[k++ % 4], buf[4096];
	FILE *fp;

	snprintf(p, 512, "%s/%s", dir, name);
	fp = fopen(p, "w");
	ck_assert_ptr_nonnull(fp);
	memset(buf, 'x', sizeof(buf));
	ck_assert_uint_eq(fwrite(buf, 1, sizeof(buf), fp), sizeof(buf));
	ck_assert_int_eq(fclose(fp), 0);
	dbl_file_type(p, type);
	return p;
}

static dev_t
dev_of(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_dev;
}

/* ------------------------------------------------------------ disks */

#define SD 32u          /* sd's major */

/* The block and raw nodes of c<unit>t0d0<suffix>: minor part, sd unit. */
static struct dbl_node *
disk_pair(unsigned unit, const char *suffix, unsigned part, uint32_t lbsize,
          uint64_t capacity)
{
	char p[128];
	struct dbl_node *raw;

	snprintf(p, sizeof(p), "/dev/dsk/c%ut0d0%s", unit, suffix);
	(void)dbl_node_add(p, 0, SD, unit * 64 + part);
	snprintf(p, sizeof(p), "/dev/rdsk/c%ut0d0%s", unit, suffix);
	raw = dbl_node_add(p, 1, SD, unit * 64 + part);
	dbl_disk(raw, "sd", unit, lbsize, capacity);
	return raw;
}

/* Disk c0t0d0 (s0, s1, s2, s5, p0, the EFI whole-disk node) and c1t0d0s0. */
static void
two_disks(void)
{
	(void)disk_pair(0, "s0", 0, 512, 1000000);
	(void)disk_pair(0, "s1", 1, 512, 1000000);
	(void)disk_pair(0, "s2", 2, 512, 1000000);
	(void)disk_pair(0, "s5", 5, 512, 1000000);
	(void)disk_pair(0, "p0", 16, 512, 1000000);
	(void)disk_pair(0, "", 7, 512, 1000000);
	(void)disk_pair(1, "s0", 0, 512, 1000000);
}

static int
open_node(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	ck_assert_int_ge(fd, 0);
	return fd;
}

/* The words of refusal r, as dio_refusal_str() gives them. */
static const char *
words(const struct dio_refusal *r)
{
	static char b[256];

	return dio_refusal_str(r, b, sizeof(b));
}

/*
 * f's last refusal is reason, in words (the backend's sentence of before
 * the reason was a value); after a dio_file_set_direct() that failed
 * (set), dio_file_errdetail() ends with those words.
 */
static void
check_refusal(dio_file *f, int reason, const char *text, int set)
{
	struct dio_refusal r;
	char d[300], want[300];

	ck_assert_int_eq(dio_file_refusal(f, &r), 0);
	ck_assert_str_eq(dio_refusal_name(r.reason), dio_refusal_name(reason));
	ck_assert_str_eq(words(&r), text);
	if (!set)
		return;
	ck_assert_int_eq(dio_file_errdetail(f, d, sizeof(d)), r.err);
	snprintf(want, sizeof(want), "set direct on: %s", text);
	ck_assert_str_eq(d, want);
}

/* ------------------------------------------------ 1. ZFS and directio() */

START_TEST(zfs_direct_on_refused)
{
	static const char zfs[] = "ZFS accepts directio() and ignores it: every read "
	                          "and write goes through its cache";
	const char *f = mkfile("a", "zfs");
	struct dio_refusal why;
	struct dio_align a;
	dio_file *fp = NULL;
	char buf[256];
	int r;

	r = dio_open(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE, 0);
	ck_assert_int_eq(r, -ENOTSUP);
	ck_assert_ptr_null(fp);
	ck_assert_int_eq(dbl.ndirectio, 0);     /* ZFS would answer 0 and ignore it */
	ck_assert_ptr_nonnull(strstr(logbuf, zfs));
	/* The failed open's reason, to the caller. */
	memset(&why, 0xff, sizeof(why));
	r = dio_open_why(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE, 0, &why);
	ck_assert_int_eq(r, -ENOTSUP);
	ck_assert_ptr_null(fp);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_ZFS_IGNORES);
	ck_assert_int_eq(why.err, -ENOTSUP);
	ck_assert_int_eq(why.sys_err, 0);
	ck_assert_str_eq(why.fs, "zfs");
	ck_assert_str_eq(why.driver, "");
	ck_assert_str_eq(words(&why), zfs);

	ck_assert_int_eq(dio_open_why(&fp, f, DIO_O_RDWR, DIO_DIRECT_TRY, DIO_SYNC_NONE,
	                              0, &why), 0);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_ZFS_IGNORES);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_NONE);
	check_refusal(fp, DIO_REFUSAL_ZFS_IGNORES, zfs, 0);
	ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_ON), -ENOTSUP);
	check_refusal(fp, DIO_REFUSAL_ZFS_IGNORES, zfs, 1);
	ck_assert_int_eq(dio_fs_type(dio_file_fd(fp), buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "zfs");
	ck_assert_int_eq(dio_align_fd(dio_file_fd(fp), &a), 0);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_NONE);
	ck_assert_uint_eq(a.offset_align, 0);
	ck_assert_uint_eq(a.direct_limits, 0);
	ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_OFF), DIO_MECH_NONE);
	ck_assert_int_eq(dbl.ndirectio, 0);
	dio_close(fp);
}
END_TEST

START_TEST(directio_honoured)
{
	static const char *types[] = { "ufs", "nfs", "smbfs" };
	struct dio_refusal why;
	const char *f;
	dio_file *fp;
	int i;

	for (i = 0; i < 3; i++) {
		dbl.ndirectio = 0;
		f = mkfile("a", types[i]);
		fp = NULL;
		ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON,
		                          DIO_SYNC_NONE, 0), 0);
		ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_DIRECTIO);
		ck_assert_int_eq(dio_file_refusal(fp, &why), 0);
		ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
		ck_assert_int_eq(dbl.ndirectio, 1);
		ck_assert_int_eq(dbl.directio_call[0].fd, dio_file_fd(fp));
		ck_assert_int_eq(dbl.directio_call[0].advice, DIRECTIO_ON);
		/* Off on request: the advice is taken back. */
		ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_OFF), DIO_MECH_NONE);
		ck_assert_int_eq(dbl.ndirectio, 2);
		ck_assert_int_eq(dbl.directio_call[1].advice, DIRECTIO_OFF);
		dio_close(fp);
		dbl.nfiles = 0;
		(void)unlink(f);
	}
}
END_TEST

START_TEST(directio_refused)
{
	const char *f = mkfile("a", "tmpfs");
	struct dio_refusal why;
	dio_file *fp = NULL;
	char want[128];

	/* tmpfs: not asked at all (its ENOTTY would say nothing more). */
	ck_assert_int_eq(dio_open_why(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE,
	                              0, &why), -ENOTSUP);
	ck_assert_int_eq(dbl.ndirectio, 0);
	ck_assert_ptr_nonnull(strstr(logbuf, "open "));
	ck_assert_ptr_nonnull(strstr(logbuf, ": direct I/O requested but tmpfs is not "
	                             "known to honour directio() (ufs, nfs and smbfs do)\n"));
	ck_assert_int_eq(why.reason, DIO_REFUSAL_FS_NOT_KNOWN);
	ck_assert_str_eq(why.fs, "tmpfs");
	ck_assert_str_eq(words(&why), "tmpfs is not known to honour directio() (ufs, "
	                 "nfs and smbfs do)");

	/* ufs whose directio() fails ENOTTY (lofs over tmpfs...): refused. */
	f = mkfile("b", "ufs");
	dbl.directio_errno = ENOTTY;
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDWR, DIO_DIRECT_TRY, DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_NONE);
	ck_assert_int_eq(dbl.ndirectio, 1);
	ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_ON), -ENOTSUP);
	snprintf(want, sizeof(want), "directio(): %s", dio_strerror(ENOTTY));
	check_refusal(fp, DIO_REFUSAL_DIRECTIO_CALL, want, 1);
	ck_assert_int_eq(dio_file_refusal(fp, &why), 0);
	ck_assert_int_eq(why.sys_err, -ENOTTY);
	/* Another error is passed on as it is, and kept as the reason. */
	dbl.directio_errno = EIO;
	ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_ON), -EIO);
	ck_assert_int_eq(dbl.ndirectio, 3);
	check_refusal(fp, DIO_REFUSAL_ERROR, dio_strerror(EIO), 1);
	/* Met at last: no refusal left. */
	dbl.directio_errno = 0;
	ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_ON), DIO_MECH_DIRECTIO);
	ck_assert_int_eq(dio_file_refusal(fp, &why), 0);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
	ck_assert_str_eq(words(&why), "");
	dio_close(fp);
}
END_TEST

/* ------------------------------------------------ 2. direct_limits */

START_TEST(direct_limits)
{
	struct dio_align a;
	const char *f;
	int fd;

	f = mkfile("a", "ufs");
	fd = open(f, O_RDONLY);
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.direct_limits, DIO_DLIM_SYNC_EXTEND | DIO_DLIM_SYNC_HOLES |
	                  DIO_DLIM_MAPPED | DIO_DLIM_CACHED);
	ck_assert_uint_eq(a.offset_align, 512);
	ck_assert_uint_eq(a.mem_align, 2);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_FSRULE);
	ck_assert_int_eq(a.is_device, 0);
	close(fd);

	/* NFS (and smbfs) keep clean cached pages: any cached page keeps a
	 * request buffered (nfs3_vnops.c:576-581). */
	f = mkfile("b", "nfs");
	fd = open(f, O_RDONLY);
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.direct_limits, DIO_DLIM_MAPPED | DIO_DLIM_CACHED_ANY);
	ck_assert_uint_eq(a.offset_align, 1);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_FSRULE);
	close(fd);
	f = mkfile("c", "smbfs");
	fd = open(f, O_RDONLY);
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.direct_limits, DIO_DLIM_MAPPED | DIO_DLIM_CACHED_ANY);
	close(fd);
}
END_TEST

/* ------------------------------------------------ 3. forcedirectio */

START_TEST(forcedirectio_mount)
{
	const char *f = mkfile("a", "ufs");
	dev_t dev = dev_of(f);
	struct dbl_mount *m;
	char longopts[1100];
	dio_file *fp = NULL;
	int fd;

	/* Before it: an entry of another file system longer than
	 * MNT_LINE_MAX (filled in, MNT_TOOLONG) and a broken line. */
	memset(longopts, 'o', sizeof(longopts) - 1);
	longopts[sizeof(longopts) - 1] = '\0';
	memcpy(longopts, "rw,", 3);
	m = dbl_mount_add("rpool/export/very/long", "/export", "zfs", longopts,
	                  makedev(major(dev) + 1, 3));
	m->rc = MNT_TOOLONG;
	m = dbl_mount_add("", "", "", "", makedev(0, 0));
	m->rc = MNT_TOOFEW;
	(void)dbl_mount_add("/dev/dsk/c0t0d0s6", "/data", "ufs",
	                    "rw,intr,largefiles,logging,xattr,forcedirectio,onerror=panic,dev=1d80006",
	                    dev);

	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDONLY, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_FORCED);
	ck_assert_int_eq(dio_fd_get_direct(dio_file_fd(fp)), DIO_MECH_FORCED);
	/* Off cannot undo the mount; on has nothing to ask. */
	ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_OFF), DIO_MECH_FORCED);
	ck_assert_int_eq(dio_file_set_direct(fp, DIO_DIRECT_ON), DIO_MECH_FORCED);
	ck_assert_int_eq(dbl.ndirectio, 0);
	dio_close(fp);

	/* "noforcedirectio" is not forcedirectio. */
	snprintf(dbl.mount[2].opts, sizeof(dbl.mount[2].opts),
	         "rw,noforcedirectio,dev=1d80006");
	fd = open(f, O_RDONLY);
	ck_assert_int_eq(dio_fd_get_direct(fd), -ENOTSUP);
	close(fd);
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDONLY, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_NONE);
	dio_close(fp);

	/* The over-long entry itself counts when it is the mount. */
	dbl.mount[0].major = major(dev);
	dbl.mount[0].minor = minor(dev);
	snprintf(dbl.mount[0].fstype, sizeof(dbl.mount[0].fstype), "nfs");
	memcpy(dbl.mount[0].opts + 500, ",forcedirectio,", 15);
	fd = open(f, O_RDONLY);
	ck_assert_int_eq(dio_fd_get_direct(fd), DIO_MECH_FORCED);
	/* ZFS has no forcedirectio. */
	snprintf(dbl.mount[0].fstype, sizeof(dbl.mount[0].fstype), "zfs");
	ck_assert_int_eq(dio_fd_get_direct(fd), -ENOTSUP);
	close(fd);
	ck_assert_int_eq(dbl.ndirectio, 0);
}
END_TEST

/* ------------------------------------------------ 4. buffered opens */

START_TEST(buffered_open_leaves_advice)
{
	const char *f = mkfile("a", "ufs");
	dio_file *fp = NULL, *ad = NULL;

	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDONLY, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_NONE);
	dio_close(fp);
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDWR | DIO_O_TRUNC, DIO_DIRECT_OFF,
	                          DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_NONE);
	ck_assert_int_eq(dio_adopt(&ad, dio_file_fd(fp), 0), 0);
	ck_assert_int_eq(dio_file_direct(ad), DIO_MECH_NONE);
	dio_close(ad);
	dio_close(fp);
	ck_assert_int_eq(dbl.ndirectio, 0);
}
END_TEST

/* ------------------------------------------------ 5. raw disk nodes */

START_TEST(raw_disk_node)
{
	struct dbl_node *n = disk_pair(0, "s0", 0, 512, 1000000);
	struct dio_align a;
	dio_file *fp = NULL;
	struct dio_refusal why;
	int fd;

	(void)n;
	fd = open_node("/dev/rdsk/c0t0d0s0");
	ck_assert_int_eq(dio__os_set_direct(fd, 1, &why), DIO_MECH_RAW);
	ck_assert_int_eq(dio__os_set_direct(fd, 0, &why), DIO_MECH_RAW);
	ck_assert_int_eq(dio__os_get_direct(fd), DIO_MECH_RAW);
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.is_device, 1);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_BLKDEV);
	ck_assert_uint_eq(a.offset_align, 512);
	ck_assert_uint_eq(a.logical_block, 512);
	ck_assert_uint_eq(a.preferred_io, 8192);
	ck_assert_uint_eq(a.device_bytes, 1000000ull * 512);
	close(fd);
	ck_assert_int_eq(dio_open(&fp, "/dev/rdsk/c0t0d0s0", DIO_O_RDWR, DIO_DIRECT_ON,
	                          DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_RAW);
	dio_close(fp);
	ck_assert_int_eq(dio_open(&fp, "/dev/rdsk/c0t0d0s0", DIO_O_RDONLY, DIO_DIRECT_OFF,
	                          DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_RAW);
	dio_close(fp);

	/* A character node that is not a disk (DKIOCINFO ENOTTY). */
	(void)dbl_node_add("/dev/term/a", 1, 29, 0);
	fd = open_node("/dev/term/a");
	memset(&why, 0, sizeof(why));
	ck_assert_int_eq(dio__os_set_direct(fd, 1, &why), -ENOTSUP);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_NOT_FILE_OR_DISK);
	ck_assert_int_eq(why.err, -ENOTSUP);
	ck_assert_int_eq(dio__os_set_direct(fd, 0, &why), DIO_MECH_NONE);
	ck_assert_int_eq(dio__os_get_direct(fd), -ENOTSUP);
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_NONE);
	ck_assert_uint_eq(a.logical_block, 0);
	close(fd);
	ck_assert_int_eq(dbl.ndirectio, 0);
}
END_TEST

/* ------------------------------------------------ 6. block disk nodes */

START_TEST(block_disk_node)
{
	struct dbl_node *raw = disk_pair(0, "s0", 0, 512, 1000000);
	struct dbl_node *blk = dbl_node_find("/dev/dsk/c0t0d0s0");
	struct dio_devinfo o;
	struct dio_align a;
	struct dio_refusal rf;
	struct stat st;
	char why[160];
	int fd;

	raw->pbsize = 4096;
	raw->p_length = 4096;           /* 2 MiB slice */
	raw->part_errno = 0;
	blk->size = 1 << 20;            /* what specfs says of the open slice */
	(void)disk_pair(1, "s0", 0, 4096, 1000);

	fd = open_node("/dev/dsk/c0t0d0s0");
	memset(&rf, 0, sizeof(rf));
	ck_assert_int_eq(dio__os_set_direct(fd, 1, &rf), -ENOTSUP);
	ck_assert_int_eq(rf.reason, DIO_REFUSAL_BLOCK_NODE);
	ck_assert_str_eq(dio_refusal_str(&rf, why, sizeof(why)), "a block device node "
	                 "goes through the cache; its raw /dev/rdsk node is direct");
	ck_assert_int_eq(dio__os_set_direct(fd, 0, &rf), DIO_MECH_NONE);
	ck_assert_int_eq(dio__os_get_direct(fd), -ENOTSUP);
	ck_assert_int_eq(fstat(fd, &st), 0);
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(dio__os_align(fd, &st, &a), 0);
	/* Block sizes from the raw twin, found in /dev/rdsk by st_rdev. */
	ck_assert_uint_eq(a.logical_block, 512);
	ck_assert_uint_eq(a.physical_block, 4096);
	ck_assert_uint_eq(a.device_bytes, 1 << 20);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_NONE);        /* buffered */
	ck_assert_uint_eq(a.offset_align, 0);
	/* No size from specfs: the twin's slice size. */
	blk->size = 0;
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(dio__os_align(fd, &st, &a), 0);
	ck_assert_uint_eq(a.device_bytes, 2 << 20);
	close(fd);

	blk->size = 1 << 20;
	memset(&o, 0, sizeof(o));
	o.kind = DIO_DEVINFO_BLOCK;
	ck_assert_int_eq(stat("/dev/dsk/c0t0d0s0", &st), 0);
	ck_assert_int_eq(dio__os_devinfo("/dev/dsk/c0t0d0s0", &st, &o), 0);
	ck_assert_str_eq(o.device, "/dev/dsk/c0t0d0s0");
	ck_assert_str_eq(o.disk, "/dev/rdsk/c0t0d0s0");
	ck_assert_str_eq(o.name, "sd0");
	ck_assert_str_eq(o.controller, "ahci0");
	ck_assert_uint_eq(o.size_bytes, 2 << 20);
	ck_assert_uint_eq(o.logical_block, 512);
	ck_assert_uint_eq(o.physical_block, 4096);
	ck_assert_uint_eq(o.kind, DIO_DEVINFO_BLOCK);
	ck_assert_uint_eq(o.write_cache, DIO_TRI_YES);
	ck_assert_uint_eq(o.rotational, DIO_TRI_YES);
	ck_assert_uint_eq(o.removable, DIO_TRI_NO);
	ck_assert_uint_eq(o.read_only, DIO_TRI_NO);

	/* The public call: the same, from the raw node; a raw node is a
	 * disk (BLOCK kind). */
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c0t0d0s0", &o), 0);
	ck_assert_uint_eq(o.kind, DIO_DEVINFO_BLOCK);
	ck_assert_str_eq(o.disk, "/dev/rdsk/c0t0d0s0");
	ck_assert_uint_eq(o.size_bytes, 2 << 20);

	/* A /devices block node: its twin is the ",raw" minor. */
	(void)dbl_node_add("/devices/pci@0,0/pci1af4,2@4/sd@1,0:a", 0, SD, 64);
	raw = dbl_node_add("/devices/pci@0,0/pci1af4,2@4/sd@1,0:a,raw", 1, SD, 64);
	dbl_disk(raw, "sd", 1, 4096, 1000);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/devices/pci@0,0/pci1af4,2@4/sd@1,0:a", &o), 0);
	ck_assert_str_eq(o.disk, "/devices/pci@0,0/pci1af4,2@4/sd@1,0:a,raw");
	ck_assert_str_eq(o.name, "sd1");
	ck_assert_uint_eq(o.logical_block, 4096);

	/* Not a disk by name (a tape, a terminal): not opened at all. */
	(void)dbl_node_add("/dev/rmt/0", 1, 33, 0);
	dbl_node_find("/dev/rmt/0")->open_errno = EIO;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rmt/0", &o), 0);
	ck_assert_str_eq(o.disk, "");
	ck_assert_uint_eq(o.kind, DIO_DEVINFO_CHAR);
}
END_TEST

/* ------------------------------------------------ 7. slice sizes */

static uint64_t
raw_bytes(const char *path)
{
	struct dio_align a;
	struct dio_devinfo o;
	int fd = open_node(path);

	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	close(fd);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo(path, &o), 0);
	ck_assert_uint_eq(o.size_bytes, a.device_bytes);
	return a.device_bytes;
}

START_TEST(slice_sizes)
{
	struct dbl_node *n;

	/* 512n: capacity is the whole disk, the slice is 2048 blocks. */
	n = disk_pair(0, "s0", 0, 512, 1000000);
	n->part_errno = 0;
	n->p_length = 2048;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c0t0d0s0"), 1 << 20);

	/* sd, fixed 4Kn: p_length in 4096-byte blocks. */
	n = disk_pair(1, "s0", 0, 4096, 1000000);
	n->part_errno = 0;
	n->p_length = 256;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c1t0d0s0"), 1 << 20);

	/* Removable media: 512-byte units whatever the block size. */
	n = disk_pair(2, "s0", 0, 2048, 1000000);
	n->removable = 1;
	n->part_errno = 0;
	n->p_length = 2048;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c2t0d0s0"), 1 << 20);

	/* blkdev (NVMe) 4Kn: cmlb counts the partitions of every fixed disk
	 * in its own blocks, whatever the driver (cmlb.c:1408-1413; blkdev
	 * attaches cmlb with d_removable, blkdev.c:836-837). */
	n = dbl_node_add("/dev/rdsk/c3t0d0s0", 1, 40, 0);
	dbl_disk(n, "blkdev", 0, 4096, 1000000);
	n->part_errno = 0;
	n->p_length = 256;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c3t0d0s0"), 1 << 20);
	/* ... and a blkdev 4Kn slice of 2048 blocks is 8 MiB, not 1. */
	n->p_length = 2048;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c3t0d0s0"), 8 << 20);

	/* SPARC: no DKIOCEXTPARTINFO (ENOTTY), specfs' size of the open
	 * slice; failing that, the whole medium. */
	n = disk_pair(4, "s0", 0, 512, 1000000);
	n->size = 3 << 20;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c4t0d0s0"), 3 << 20);
	n->size = 0;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c4t0d0s0"), 1000000ull * 512);
	/* A slice of length 0 (undefined) is not taken for the size. */
	n->part_errno = 0;
	n->p_length = 0;
	n->size = 3 << 20;
	ck_assert_uint_eq(raw_bytes("/dev/rdsk/c4t0d0s0"), 3 << 20);
}
END_TEST

/* ------------------------------------------------ 8. max_sectors_kb */

static uint32_t
max_kb(const char *path)
{
	struct dio_devinfo o;

	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo(path, &o), 0);
	return o.max_sectors_kb;
}

START_TEST(max_transfer_units)
{
	struct dbl_node *n;

	n = disk_pair(0, "s0", 0, 4096, 1000000);       /* sd, fixed 4Kn */
	n->maxtransfer = 256;
	ck_assert_uint_eq(max_kb("/dev/rdsk/c0t0d0s0"), 1024);
	n = disk_pair(1, "s0", 0, 512, 1000000);        /* sd, 512n */
	n->maxtransfer = 2048;
	ck_assert_uint_eq(max_kb("/dev/rdsk/c1t0d0s0"), 1024);
	n = disk_pair(2, "s0", 0, 2048, 1000000);       /* sd, removable */
	n->removable = 1;
	n->maxtransfer = 256;
	ck_assert_uint_eq(max_kb("/dev/rdsk/c2t0d0s0"), 128);
	n = dbl_node_add("/dev/rdsk/c3t0d0s0", 1, 40, 0);
	dbl_disk(n, "blkdev", 0, 4096, 1000000);        /* NVMe: 512-byte units */
	n->maxtransfer = 2048;
	ck_assert_uint_eq(max_kb("/dev/rdsk/c3t0d0s0"), 1024);
}
END_TEST

/* ------------------------------------------------ 9. in use */

static int
in_use(const char *path, char *why, size_t len)
{
	why[0] = '\0';
	return dio_device_in_use(path, why, len);
}

/* The zfs driver's major, whose minors are the zvols (zvol.c:527-540). */
#define ZFS_MAJOR 90u

/*
 * Swap on path, a block node (swapctl refuses a character one with
 * ENOSYS, vm_swap.c:757-773) listed as given (vm_swap.c keeps the name,
 * 1247-1249); the node is made, of device maj,min, if it is not there.
 */
static void
swap_on(const char *path, unsigned maj, unsigned min)
{
	if (dbl_node_find(path) == NULL)
		(void)dbl_node_add(path, 0, maj, min);
	snprintf(dbl.swap[dbl.nswap++], sizeof(dbl.swap[0]), "%s", path);
}

START_TEST(in_use_none)
{
	static const char *slices[] = { "s0", "s1", "s2", "s5", "p0", "" };
	char why[256], p[64];
	int i;

	two_disks();
	(void)dbl_mount_add("rpool/ROOT/illumos", "/", "zfs", "rw,dev=4010002",
	                    makedev(1, 2));
	(void)dbl_mount_add("/dev/dsk/c1t0d0s0", "/other", "ufs", "rw", makedev(SD, 64));
	(void)dbl_mount_add("swap", "/tmp", "tmpfs", "xattr", makedev(5, 1));
	swap_on("/dev/zvol/dsk/rpool/swap", ZFS_MAJOR, 1);
	swap_on("/dev/dsk/c1t0d0s1", SD, 65);
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 0);
	/* Every slice and partition of the disk was shown to libdiskmgt,
	 * once, by its /dev/dsk name; nothing of the other disk. */
	for (i = 0; i < 6; i++) {
		snprintf(p, sizeof(p), "/dev/dsk/c0t0d0%s", slices[i]);
		ck_assert_msg(dbl_dm_asked(p) == 1, "%s asked %d times", p, dbl_dm_asked(p));
	}
	ck_assert_int_eq(dbl.ndm, 6);
	ck_assert_int_eq(dbl_dm_asked("/dev/dsk/c1t0d0s0"), 0);
	ck_assert_int_eq(dbl.dm_who_seen, DM_WHO_MKFS);
	ck_assert_int_gt(dbl.nswapctl, 0);
	/* The other disk is mounted: in use. */
	ck_assert_int_eq(in_use("/dev/rdsk/c1t0d0s0", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "/other"));
}
END_TEST

START_TEST(in_use_pool_member)
{
	struct dbl_node *s0;
	char why[256];

	two_disks();
	s0 = dbl_node_find("/dev/dsk/c0t0d0s0");
	s0->dm_inuse = 1;
	snprintf(s0->dm_msg, sizeof(s0->dm_msg),
	         "Slice c0t0d0s0 is part of active ZFS pool rpool. Please see zpool(8).\n");
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "c0t0d0s0"));
	ck_assert_ptr_null(strchr(why, '\n'));
	/* The EFI whole-disk node and p0 are the same disk. */
	ck_assert_int_eq(in_use("/dev/dsk/c0t0d0", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "c0t0d0s0"));
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0p0", why, sizeof(why)), 1);
	/* A /devices name of the disk: found by its /dev/dsk name (rdev). */
	(void)dbl_node_add("/devices/pci@0,0/pci1af4,2@4/sd@0,0:c,raw", 1, SD, 2);
	ck_assert_int_eq(in_use("/devices/pci@0,0/pci1af4,2@4/sd@0,0:c,raw", why,
	                        sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "c0t0d0s0"));
	/* The other disk is free. */
	ck_assert_int_eq(in_use("/dev/rdsk/c1t0d0s0", why, sizeof(why)), 0);
}
END_TEST

START_TEST(in_use_fails_closed)
{
	char why[256];

	two_disks();
	/* libdiskmgt could not look at one slice: cannot tell. */
	dbl_node_find("/dev/dsk/c0t0d0s5")->dm_errno = EIO;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), -EIO);
	ck_assert_ptr_nonnull(strstr(why, "c0t0d0s5"));
	dbl_node_find("/dev/dsk/c0t0d0s5")->dm_errno = 0;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 0);

	/* swapctl fails: cannot tell, libdiskmgt not even asked. */
	dbl.ndm = 0;
	dbl.swap_errno_count = EPERM;
	ck_assert_int_lt(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(why, "swapctl"));
	ck_assert_int_eq(dbl.ndm, 0);
	dbl.swap_errno_count = 0;
	swap_on("/dev/zvol/dsk/rpool/swap", ZFS_MAJOR, 1);
	dbl.swap_errno_list = EFAULT;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), -EFAULT);
	dbl.swap_errno_list = 0;

	/* No mount table, no /dev/dsk listing: cannot tell. */
	dbl.mnttab_errno = EACCES;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), -EACCES);
	ck_assert_ptr_nonnull(strstr(why, "mnttab"));
	dbl.mnttab_errno = 0;
	dbl.opendir_errno = EACCES;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), -EACCES);
	ck_assert_ptr_nonnull(strstr(why, "/dev/dsk"));
	dbl.opendir_errno = 0;

	/* A regular file: lofi backing files are not looked up. */
	ck_assert_int_eq(in_use(mkfile("a", "ufs"), why, sizeof(why)), -ENOTSUP);
}
END_TEST

START_TEST(in_use_mount_and_swap)
{
	char why[256];

	two_disks();
	/* Another slice of the disk mounted. */
	(void)dbl_mount_add("/dev/dsk/c0t0d0s5", "/export/home", "ufs", "rw,dev=800005",
	                    makedev(SD, 5));
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "c0t0d0s5"));
	ck_assert_ptr_nonnull(strstr(why, "/export/home"));
	ck_assert_int_eq(dbl.ndm, 0);
	ck_assert_int_eq(in_use("/dev/dsk/c0t0d0", why, sizeof(why)), 1);
	ck_assert_int_eq(in_use("/dev/rdsk/c1t0d0s0", why, sizeof(why)), 0);
	dbl.nmounts = 0;

	/* Swap on a slice of the disk. */
	swap_on("/dev/zvol/dsk/rpool/swap", ZFS_MAJOR, 1);
	swap_on("/dev/dsk/c0t0d0s1", SD, 1);
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "swap"));
	ck_assert_ptr_nonnull(strstr(why, "c0t0d0s1"));
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0p0", why, sizeof(why)), 1);
	ck_assert_int_eq(in_use("/dev/rdsk/c1t0d0s0", why, sizeof(why)), 0);

	/* The list grew between counting and listing (ENOMEM): asked again. */
	snprintf(dbl.swap[0], sizeof(dbl.swap[0]), "/dev/dsk/c0t0d0s1");
	dbl.nswap = 1;
	dbl.swap_grow = 5;
	dbl.nswapctl = 0;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 1);
	ck_assert_int_eq(dbl.nswapctl, 4);

	/* A device that is not a disk: swap and libdiskmgt by its path. */
	(void)dbl_node_add("/dev/lofi/1", 0, 150, 1);
	dbl.nswap = 0;
	dbl.ndm = 0;
	ck_assert_int_eq(in_use("/dev/lofi/1", why, sizeof(why)), 0);
	ck_assert_int_eq(dbl.ndm, 1);
	ck_assert_int_eq(dbl_dm_asked("/dev/lofi/1"), 1);
	snprintf(dbl.swap[0], sizeof(dbl.swap[0]), "/dev/lofi/1");
	dbl.nswap = 1;
	ck_assert_int_eq(in_use("/dev/lofi/1", why, sizeof(why)), 1);
}
END_TEST

/* ------------------------------------------------ 10. ZFS sync=disabled */

static void
write_zfs(const char *body)
{
	char p[512];
	FILE *fp;

	fp = fopen(dbl.zfs_path, "w");
	ck_assert_ptr_nonnull(fp);
	fprintf(fp, "#!/bin/sh\nprintf '%%s\\n' \"$@\" > '%s/zfs.args'\n%s\n",
	        dir, body);
	ck_assert_int_eq(fclose(fp), 0);
	ck_assert_int_eq(chmod(dbl.zfs_path, 0700), 0);
	snprintf(p, sizeof(p), "%s/zfs.args", dir);
	(void)unlink(p);
}

/* What dio_devinfo() gives for the file f, asked of the backend. */
static void
file_info(const char *f, struct dio_devinfo *o)
{
	struct stat st;

	ck_assert_int_eq(stat(f, &st), 0);
	memset(o, 0, sizeof(*o));
	o->kind = DIO_DEVINFO_FILE;
	ck_assert_int_eq(dio__os_devinfo(f, &st, o), 0);
}

static uint32_t
file_sync_disabled(const char *f, struct dio_devinfo *o)
{
	file_info(f, o);
	return o->sync_disabled;
}

START_TEST(zfs_sync_disabled)
{
	const char *f = mkfile("a", "zfs");
	struct dio_devinfo o;
	char p[512], *args;
	size_t n;
	FILE *fp;

	(void)dbl_mount_add("rpool/data", "/data", "zfs", "rw,xattr,dev=4010004",
	                    dev_of(f));
	write_zfs("echo disabled");
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_YES);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_YES);
	ck_assert_str_eq(o.disk, "");
	snprintf(p, sizeof(p), "%s/zfs.args", dir);
	fp = fopen(p, "r");
	ck_assert_ptr_nonnull(fp);
	args = calloc(1, 512);
	n = fread(args, 1, 511, fp);
	fclose(fp);
	ck_assert_uint_gt(n, 0);
	ck_assert_str_eq(args, "get\n-H\n-o\nvalue\nsync\nrpool/data\n");
	free(args);

	write_zfs("echo standard");
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_NO);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_YES);
	write_zfs("echo always");
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_NO);
	write_zfs("echo \"cannot open 'rpool/data': dataset does not exist\" >&2; exit 1");
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_UNKNOWN);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_YES);
	(void)unlink(dbl.zfs_path);     /* no zfs(8) at all */
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_UNKNOWN);

	/* A dataset name that zfs would take for an option is not passed. */
	write_zfs("echo disabled");
	snprintf(dbl.mount[0].special, sizeof(dbl.mount[0].special), "-x");
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_UNKNOWN);
}
END_TEST

START_TEST(ufs_file_devinfo)
{
	const char *f = mkfile("a", "ufs");
	struct dio_devinfo o;
	struct dbl_node *raw;

	raw = disk_pair(0, "s6", 6, 512, 1000000);
	raw->part_errno = 0;
	raw->p_length = 2048;
	(void)dbl_mount_add("/dev/dsk/c0t0d0s6", "/data", "ufs", "rw,dev=800006",
	                    dev_of(f));
	write_zfs("echo disabled");
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_UNKNOWN);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_NO);
	ck_assert_str_eq(o.device, "/dev/dsk/c0t0d0s6");
	ck_assert_str_eq(o.disk, "/dev/rdsk/c0t0d0s6");
	ck_assert_str_eq(o.name, "sd0");
	ck_assert_uint_eq(o.size_bytes, 1 << 20);
	/* NFS: no disk. */
	snprintf(dbl.mount[0].special, sizeof(dbl.mount[0].special), "srv:/export");
	snprintf(dbl.mount[0].fstype, sizeof(dbl.mount[0].fstype), "nfs");
	ck_assert_uint_eq(file_sync_disabled(f, &o), DIO_TRI_UNKNOWN);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_NO);
	ck_assert_str_eq(o.disk, "");
}
END_TEST

/* The block-layer counters: illumos keeps no flush counts; nothing is
 * opened, and the reason is said. */
START_TEST(disks_not_counted)
{
	const char *f = mkfile("a", "ufs");
	dio_disks *d = NULL;
	char why[300] = "";

	disk_pair(0, "s6", 6, 512, 1000000);
	ck_assert_int_eq(dio_disks_open(&d, f, why, sizeof(why)), -ENOTSUP);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(why, "illumos") != NULL && strstr(why, "flush") != NULL,
	              "why: %s", why);
	ck_assert_int_eq(dio_disks_open(&d, "/dev/rdsk/c0t0d0s6", why, sizeof(why)),
	                 -ENOTSUP);
	ck_assert_ptr_null(d);
}
END_TEST

/* ------------------------------------------------ the other branches */

START_TEST(other_answers)
{
	struct dbl_node *n, *b;
	struct dio_devinfo o;
	struct dio_align a;
	struct stat st;
	const char *f = mkfile("a", "ufs");
	struct dio_refusal rf;
	char why[160], buf[64];
	uint64_t stamp;
	dio_file *fp;
	int fd;

	ck_assert_uint_eq(dio_caps() & (DIO_CAP_DIRECTIO | DIO_CAP_SCSI),
	                  DIO_CAP_DIRECTIO | DIO_CAP_SCSI);
	/* illumos' posix_fadvise() checks its arguments and does nothing
	 * (libc port/gen/posix_fadvise.c:45-68). */
	ck_assert_uint_eq(dio_caps() & DIO_CAP_FADVISE, 0);
	ck_assert_int_eq(dio__os_scsi_xfer_ok(DIO_SCSI_XFER_INDIRECT), 0);
	ck_assert_int_eq(dio__os_scsi_xfer_ok(DIO_SCSI_XFER_MMAP), -ENOTSUP);
	ck_assert_int_eq(dio__os_scsi_reserve(0, 4096), -ENOTSUP);

	/* fstatvfs() failing is passed on. */
	fd = open(f, O_RDWR);
	dbl.statvfs_errno = EIO;
	ck_assert_int_eq(dio__os_set_direct(fd, 1, &rf), -EIO);
	ck_assert_int_eq(dio_fs_type(fd, buf, sizeof(buf)), -EIO);
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_NONE);
	dbl.statvfs_errno = 0;
	ck_assert_int_eq(dio_file_birth(fd, &stamp), -ENOTSUP);
	ck_assert_int_eq(dio__os_pwrite_dsync(fd, buf, 1, 0), -ENOTSUP);
	ck_assert_int_eq(dio__os_read_discard(fd, 0, 512), -ENOTSUP);
	close(fd);
	/* A directory is neither a file nor a disk. */
	fd = open(dir, O_RDONLY);
	memset(&rf, 0, sizeof(rf));
	ck_assert_int_eq(dio__os_set_direct(fd, 1, &rf), -ENOTSUP);
	ck_assert_int_eq(rf.reason, DIO_REFUSAL_NOT_FILE_OR_DISK);
	ck_assert_str_eq(dio_refusal_str(&rf, why, sizeof(why)),
	                 "neither a regular file nor a disk");
	ck_assert_int_eq(dio__os_set_direct(fd, 0, &rf), DIO_MECH_NONE);
	close(fd);

	/* A disk whose medium cannot be asked (no medium: EIO; lbsize 0):
	 * still a disk by DKIOCINFO, no sizes. */
	n = disk_pair(0, "s0", 0, 512, 1000000);
	n->minfo_errno = ENXIO;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c0t0d0s0", &o), 0);
	ck_assert_str_eq(o.name, "sd0");
	ck_assert_uint_eq(o.size_bytes, 0);
	ck_assert_uint_eq(o.logical_block, 0);
	ck_assert_uint_eq(o.max_sectors_kb, 128);       /* 256 x 512 */
	n->minfo_errno = 0;
	n->lbsize = 0;
	fd = open_node("/dev/rdsk/c0t0d0s0");
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.logical_block, 0);
	/* ... but its raw node is still checked, against a guess: physio
	 * moves whole blocks, the page size is a multiple of them. */
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_GUESS);
	ck_assert_uint_eq(a.offset_align, (uint32_t)sysconf(_SC_PAGESIZE));
	close(fd);
	ck_assert_int_eq(dio_open(&fp, "/dev/rdsk/c0t0d0s0", DIO_O_RDWR, DIO_DIRECT_OFF,
	                          DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_RAW);
	ck_assert_int_eq(dio_pwrite(fp, buf, 100, 0), -EINVAL);
	dio_close(fp);
	/* No physical block size reported: the logical one. */
	n->lbsize = 512;
	n->pbsize = 0;
	n->solid = 1;
	n->ro = 1;
	n->wce = DBL_NA;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c0t0d0s0", &o), 0);
	ck_assert_uint_eq(o.physical_block, 512);
	ck_assert_uint_eq(o.rotational, DIO_TRI_NO);
	ck_assert_uint_eq(o.read_only, DIO_TRI_YES);
	ck_assert_uint_eq(o.write_cache, DIO_TRI_UNKNOWN);
	/* The raw node cannot be opened: the error, no names. */
	n->open_errno = EACCES;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c0t0d0s0", &o), -EACCES);
	ck_assert_str_eq(o.disk, "");
	n->open_errno = 0;

	/* A /dev/rdsk node that is not a disk: no names kept. */
	(void)dbl_node_add("/dev/rdsk/c9t0d0s0", 1, 99, 0);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c9t0d0s0", &o), 0);
	ck_assert_str_eq(o.disk, "");
	ck_assert_str_eq(o.device, "");
	ck_assert_uint_eq(o.kind, DIO_DEVINFO_CHAR);

	/* A block node without a raw twin: specfs' size only. */
	b = dbl_node_add("/dev/dsk/c8t0d0s0", 0, SD, 8 * 64);
	b->size = 5 << 20;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/dsk/c8t0d0s0", &o), 0);
	ck_assert_str_eq(o.device, "/dev/dsk/c8t0d0s0");
	ck_assert_str_eq(o.disk, "");
	ck_assert_uint_eq(o.size_bytes, 5 << 20);
	ck_assert_uint_eq(o.kind, DIO_DEVINFO_BLOCK);
	fd = open_node("/dev/dsk/c8t0d0s0");
	ck_assert_int_eq(fstat(fd, &st), 0);
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(dio__os_align(fd, &st, &a), 0);
	ck_assert_uint_eq(a.device_bytes, 5 << 20);
	ck_assert_uint_eq(a.logical_block, 0);
	close(fd);
	b->open_errno = EBUSY;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/dsk/c8t0d0s0", &o), -EBUSY);

	/* A file on a lofs mount whose source cannot be seen (a zone's
	 * view): what is behind it is not known, not "no". */
	(void)dbl_mount_add("/export/home", "/home", "lofs", "rw", dev_of(f));
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(stat(f, &st), 0);
	o.kind = DIO_DEVINFO_FILE;
	ck_assert_int_eq(dio__os_devinfo(f, &st, &o), 0);
	ck_assert_str_eq(o.device, "");
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_UNKNOWN);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_UNKNOWN);
	/* A UFS mount whose special is not a block node: no disk. */
	snprintf(dbl.mount[0].fstype, sizeof(dbl.mount[0].fstype), "ufs");
	snprintf(dbl.mount[0].special, sizeof(dbl.mount[0].special), "/gone");
	memset(&o, 0, sizeof(o));
	o.kind = DIO_DEVINFO_FILE;
	ck_assert_int_eq(dio__os_devinfo(f, &st, &o), 0);
	ck_assert_str_eq(o.device, "");
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_NO);
	/* ... or whose raw twin is missing. */
	snprintf(dbl.mount[0].special, sizeof(dbl.mount[0].special), "/dev/dsk/c8t0d0s0");
	b->open_errno = 0;
	memset(&o, 0, sizeof(o));
	o.kind = DIO_DEVINFO_FILE;
	ck_assert_int_eq(dio__os_devinfo(f, &st, &o), 0);
	ck_assert_str_eq(o.device, "/dev/dsk/c8t0d0s0");
	ck_assert_str_eq(o.disk, "");
	/* No mount table: nothing known. */
	dbl.mnttab_errno = ENOENT;
	memset(&o, 0, sizeof(o));
	o.kind = DIO_DEVINFO_FILE;
	ck_assert_int_eq(dio__os_devinfo(f, &st, &o), 0);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_UNKNOWN);
	fd = open(f, O_RDONLY);
	ck_assert_int_eq(dio_fd_get_direct(fd), -ENOTSUP);
	close(fd);
	dbl.mnttab_errno = 0;

	/* The in-use check skips mount entries it cannot stat or that are
	 * not devices, and takes a negative dm_inuse() as "cannot tell". */
	(void)dbl_mount_add("/dev/dsk/c7t0d0s0", "/gone", "ufs", "rw", makedev(SD, 7 * 64));
	(void)dbl_mount_add(dir, "/lofs", "lofs", "rw", makedev(1, 9));
	(void)disk_pair(7, "s0", 0, 512, 1000);
	dbl.node[dbl.nnodes - 2].path[9] = 'X';        /* stat() fails */
	ck_assert_int_eq(in_use("/dev/rdsk/c7t0d0s0", why, sizeof(why)), 0);
	dbl_node_find("/dev/dsk/c0t0d0s0")->dm_inuse = -EBUSY;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s0", why, sizeof(why)), -EIO);
	ck_assert_ptr_nonnull(strstr(why, "libdiskmgt"));
}
END_TEST

/* ------------------------------------------------ 11. USCSICMD */

static uint8_t sense[DIO_SCSI_SENSE_MAX];
static char detail[256];

static void
req_init(struct dio__scsi_req *r, const uint8_t *cdb, uint64_t count)
{
	memset(r, 0, sizeof(*r));
	memset(sense, 0, sizeof(sense));
	detail[0] = '\0';
	r->cdb = cdb;
	r->cdb_len = 6;
	r->dir = DIO_SCSI_DIR_NONE;
	r->timeout_ms = 1500;
	r->xfer = DIO_SCSI_XFER_INDIRECT;
	r->count = count;
	r->sense = sense;
	r->detail = detail;
	r->detail_len = sizeof(detail);
	r->cache_fd = -1;
}

START_TEST(uscsi_outputs)
{
	static const uint8_t tur[6] = { 0 };
	struct dio__scsi_req r;
	int fd, i;

	(void)disk_pair(0, "s0", 0, 512, 1000000);
	fd = open_node("/dev/rdsk/c0t0d0s0");

	/* Three GOOD: before each, the status was reset to "none". */
	for (i = 0; i < 3; i++) {
		dbl.uscsi[i].status = 0;
		dbl.uscsi[i].resid = (size_t)i;
	}
	dbl.nuscsi = 3;
	req_init(&r, tur, 3);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), 0);
	ck_assert_uint_eq(r.good, 3);
	ck_assert_uint_eq(r.resid_sum, 3);
	ck_assert_int_eq(dbl.nuscsi_seen, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(dbl.uscsi_seen[i].status, -1);
		ck_assert_int_eq(dbl.uscsi_seen[i].rqresid, DIO_SCSI_SENSE_MAX);
	}
	ck_assert_int_eq(dbl.uscsi_seen[0].flags, USCSI_ISOLATE | USCSI_DIAGNOSE |
	                 USCSI_SILENT | USCSI_RQENABLE | USCSI_WRITE);
	ck_assert_int_eq(dbl.uscsi_seen[0].timeout, 2);
	ck_assert_int_eq(dbl.uscsi_seen[0].cdblen, 6);
	ck_assert_int_eq(dbl.uscsi_seen[0].rqlen, DIO_SCSI_SENSE_MAX);
	ck_assert_int_eq(r.xfer_done, DIO_SCSI_XFER_AUTO);
	ck_assert_int_eq(r.duration_source, DIO_SCSI_TIME_MEASURED);

	/* EIO and no status written: the HBA or the driver failed it. */
	dbl.nuscsi_seen = 0;
	dbl.uscsi[0].err = EIO;
	dbl.uscsi[0].status = DBL_NO_WRITE;
	dbl.nuscsi = 1;
	req_init(&r, tur, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), 0);
	ck_assert_int_eq(r.transport, 1);
	ck_assert_uint_eq(r.good, 0);
	ck_assert_uint_eq(r.sense_len, 0);
	/* ...also when the packet existed but came back without a status. */
	dbl.nuscsi_seen = 0;
	dbl.uscsi[0].status = 0;
	req_init(&r, tur, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), 0);
	ck_assert_int_eq(r.transport, 1);

	/* EIO with CHECK CONDITION and sense: the device's answer. */
	dbl.nuscsi_seen = 0;
	dbl.uscsi[0].err = EIO;
	dbl.uscsi[0].status = DIO_SCSI_STATUS_CHECK_CONDITION;
	dbl.uscsi[0].sense_len = 18;
	dbl.uscsi[0].sense[0] = 0x70;
	dbl.uscsi[0].sense[2] = 0x06;   /* UNIT ATTENTION */
	dbl.uscsi[0].sense[12] = 0x29;
	req_init(&r, tur, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), 0);
	ck_assert_int_eq(r.transport, 0);
	ck_assert_int_eq(r.status, DIO_SCSI_STATUS_CHECK_CONDITION);
	ck_assert_uint_eq(r.sense_len, 18);
	ck_assert_uint_eq(sense[0], 0x70);
	ck_assert_uint_eq(sense[12], 0x29);
	ck_assert_uint_eq(r.good, 0);

	/* Refusals that never reach the device. */
	dbl.nuscsi_seen = 0;
	dbl.uscsi[0].err = ENOTTY;
	req_init(&r, tur, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -ENOTTY);
	ck_assert_ptr_nonnull(strstr(detail, "USCSICMD"));
	dbl.nuscsi_seen = 0;
	dbl.uscsi[0].err = EPERM;
	req_init(&r, tur, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -EPERM);
	ck_assert_ptr_nonnull(strstr(detail, "sys_devices"));
	dbl.nuscsi_seen = 0;
	dbl.uscsi[0].err = ENXIO;
	req_init(&r, tur, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -ENXIO);
	ck_assert_str_ne(detail, "");

	/* A repeat of 3 whose second is BUSY stops there. */
	memset(dbl.uscsi, 0, sizeof(dbl.uscsi));
	dbl.nuscsi_seen = 0;
	dbl.uscsi[1].err = EIO;
	dbl.uscsi[1].status = 0x08;
	dbl.nuscsi = 3;
	req_init(&r, tur, 3);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), 0);
	ck_assert_uint_eq(r.good, 1);
	ck_assert_int_eq(r.status, 0x08);
	ck_assert_int_eq(r.transport, 0);
	ck_assert_int_eq(dbl.nuscsi_seen, 2);
	ck_assert_int_eq(dbl.uscsi_seen[1].status, -1);

	/* Transfer modes USCSICMD does not have: nothing sent. */
	dbl.nuscsi_seen = 0;
	req_init(&r, tur, 1);
	r.xfer = DIO_SCSI_XFER_DIRECT;
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -ENOTSUP);
	ck_assert_int_eq(dbl.nuscsi_seen, 0);
	close(fd);

	/* The block node takes no ioctl (specfs). */
	fd = open_node("/dev/dsk/c0t0d0s0");
	req_init(&r, tur, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -ENOTTY);
	ck_assert_int_eq(dbl.nuscsi_seen, 0);
	close(fd);
}
END_TEST

/* A character node of sd unit 2, minor part given, reached as path (real:
 * what its links resolve to, or NULL): dio_devinfo() names it want ("" when
 * it does not take it for a disk). */
static void
node_named(const char *path, const char *real, int part, const char *want)
{
	struct dio_devinfo o;
	struct dbl_node *n = dbl_node_add(path, 1, SD, 2 * 64 + part);

	if (real != NULL)
		snprintf(n->real, sizeof(n->real), "%s", real);
	dbl_disk(n, "sd", 2, 512, 1000);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo(path, &o), 0);
	ck_assert_str_eq(o.name, want);
}

START_TEST(more_answers)
{
	static const uint8_t inq[6] = { 0x12, 0, 0, 0, 36, 0 };
	struct dio__scsi_req r;
	struct dio_devinfo o;
	struct dio_align a;
	struct dbl_node *n;
	struct stat st;
	const char *f = mkfile("a", "ufs");
	uint8_t data[36];
	char why[160];
	void *addr;
	int fd;

	/* Descriptors that are not open. */
	ck_assert_int_eq(dio__os_set_direct(-1, 1, NULL), -EBADF);
	ck_assert_int_eq(dio__os_get_direct(-1), -EBADF);
	ck_assert_uint_eq(dio__os_large_page_size(), 0);        /* no memcntl here */
	ck_assert_int_eq(dio__os_large_pages(data, 0, 0), -ENOTSUP);
	ck_assert_int_eq(dio__os_scsi_mmap(0, 4096, &addr), -ENOTSUP);

	/* Claims do not exist; probing sends nothing. */
	n = disk_pair(0, "s0", 0, 512, 1000000);
	ck_assert_int_eq(dio_device_claim("/dev/rdsk/c0t0d0s0"), -ENOTSUP);
	fd = open_node("/dev/rdsk/c0t0d0s0");
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(dio__os_scsi_probe(fd, &st, "/dev/rdsk/c0t0d0s0"), 0);
	ck_assert_int_eq(dbl.nuscsi_seen, 0);

	/* A data-in command; success with no status written is GOOD. */
	dbl.uscsi[0].status = DBL_NO_WRITE;
	dbl.nuscsi = 1;
	req_init(&r, inq, 1);
	r.dir = DIO_SCSI_DIR_IN;
	r.buf = data;
	r.len = sizeof(data);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), 0);
	ck_assert_int_eq(r.status, 0);
	ck_assert_uint_eq(r.good, 1);
	ck_assert_int_eq(dbl.uscsi_seen[0].flags & USCSI_READ, USCSI_READ);
	/* The other refusals say why. */
	dbl.uscsi[0].err = EACCES;
	dbl.nuscsi_seen = 0;
	req_init(&r, inq, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -EACCES);
	ck_assert_ptr_nonnull(strstr(detail, "reserved"));
	dbl.uscsi[0].err = EAGAIN;
	dbl.nuscsi_seen = 0;
	req_init(&r, inq, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -EAGAIN);
	ck_assert_ptr_nonnull(strstr(detail, "format"));
	dbl.uscsi[0].err = EINVAL;
	dbl.nuscsi_seen = 0;
	req_init(&r, inq, 1);
	ck_assert_int_eq(dio__os_scsi_exec(&r, fd), -EINVAL);
	ck_assert_ptr_nonnull(strstr(detail, "USCSICMD"));
	close(fd);

	/* A block node whose raw twin cannot tell its medium. */
	n->minfo_errno = EIO;
	dbl_node_find("/dev/dsk/c0t0d0s0")->size = 7 << 20;
	fd = open_node("/dev/dsk/c0t0d0s0");
	ck_assert_int_eq(fstat(fd, &st), 0);
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(dio__os_align(fd, &st, &a), 0);
	ck_assert_uint_eq(a.device_bytes, 7 << 20);
	ck_assert_uint_eq(a.logical_block, 0);
	close(fd);
	n->minfo_errno = 0;

	/* A file on a UFS slice whose raw twin cannot be opened. */
	(void)dbl_mount_add("/dev/dsk/c0t0d0s0", "/data", "ufs", "rw", dev_of(f));
	n->open_errno = EACCES;
	ck_assert_int_eq(stat(f, &st), 0);
	memset(&o, 0, sizeof(o));
	o.kind = DIO_DEVINFO_FILE;
	ck_assert_int_eq(dio__os_devinfo(f, &st, &o), 0);
	ck_assert_str_eq(o.device, "/dev/dsk/c0t0d0s0");
	ck_assert_str_eq(o.disk, "");
	n->open_errno = 0;

	/* Disks named by /devices paths or links to them. */
	node_named("/devices/pci@0,0/pci1af4,2@4/sd@2,0:wd,raw", NULL, 7, "sd2");
	node_named("/dev/bootdisk", "/devices/pci@0,0/pci1af4,2@4/sd@2,0:wd,raw", 7,
	           "sd2");
	/* Not disks: a minor that is not a slice, a path outside /devices,
	 * a /devices node without a minor name. */
	node_named("/dev/ctl", "/devices/pci@0,0/pci1af4,2@4/sd@2,0:0", 60, "");
	node_named("/dev/other", "/dev/other", 61, "");
	node_named("/devices/pseudo/nominor", NULL, 62, "");

	/* Swap keeps growing faster than it is listed: cannot tell. */
	(void)disk_pair(3, "s0", 0, 512, 1000);
	snprintf(dbl.swap[0], sizeof(dbl.swap[0]), "/dev/zvol/dsk/rpool/swap");
	dbl.nswap = 1;
	dbl.swap_grow = 3;
	dbl.swap_grow_each = 1;
	ck_assert_int_eq(in_use("/dev/rdsk/c3t0d0s0", why, sizeof(why)), -ENOMEM);
	ck_assert_ptr_nonnull(strstr(why, "swapctl"));
}
END_TEST


/* No /dev/rdsk at all: a block node is known by its own size only. */
START_TEST(no_raw_directory)
{
	struct dbl_node *b = dbl_node_add("/dev/dsk/c0t0d0s0", 0, SD, 0);
	struct dio_align a;
	struct stat st;
	int fd;

	b->size = 1 << 20;
	fd = open_node("/dev/dsk/c0t0d0s0");
	ck_assert_int_eq(fstat(fd, &st), 0);
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(dio__os_align(fd, &st, &a), 0);
	ck_assert_uint_eq(a.device_bytes, 1 << 20);
	ck_assert_uint_eq(a.logical_block, 0);
	close(fd);
}
END_TEST

/* ------------------------------------------------------------ main */

/* ------------------------------------------------ 12. issue 38: illumos, safe to trust */

/* A zvol's block and raw nodes: one minor of the zfs driver for both
 * (zvol.c:527-540), the raw one a disk named "zvol" (zvol.c:1629-1639). */
static struct dbl_node *
zvol_pair(const char *name, unsigned minor)
{
	char p[128];
	struct dbl_node *raw;

	snprintf(p, sizeof(p), "/dev/zvol/dsk/%s", name);
	(void)dbl_node_add(p, 0, ZFS_MAJOR, minor);
	snprintf(p, sizeof(p), "/dev/zvol/rdsk/%s", name);
	raw = dbl_node_add(p, 1, ZFS_MAJOR, minor);
	dbl_disk(raw, "zvol", minor, 512, 4194304);
	snprintf(raw->cname, sizeof(raw->cname), "zvol");
	raw->pbsize = 8192;             /* volblocksize */
	raw->wce = 0;                   /* ZVOL_WCE starts clear (zvol.c:550) */
	return raw;
}

/* Both nodes of a zvol held open by someone: an exclusive open of either
 * is refused (zvol.c:904-915). */
static void
zvol_held(const char *name, int held)
{
	char p[128];

	snprintf(p, sizeof(p), "/dev/zvol/dsk/%s", name);
	dbl_node_find(p)->excl_busy = held;
	snprintf(p, sizeof(p), "/dev/zvol/rdsk/%s", name);
	dbl_node_find(p)->excl_busy = held;
}

START_TEST(in_use_zvol_swap_dump)
{
	char why[256];
	struct dbl_node *r;

	/* Swap on a zvol, added by its block node (swap -a takes no raw one,
	 * vm_swap.c:757-773), asked by either: the same device number. */
	(void)zvol_pair("rpool/swap", 1);
	swap_on("/dev/zvol/dsk/rpool/swap", ZFS_MAJOR, 1);
	zvol_held("rpool/swap", 1);     /* swap keeps it open (vm_swap.c:1131) */
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/rpool/swap", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "swap"));
	ck_assert_int_eq(in_use("/dev/zvol/dsk/rpool/swap", why, sizeof(why)), 1);
	/* Even were nothing holding it: the swap table says it. */
	zvol_held("rpool/swap", 0);
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/rpool/swap", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "active swap"));
	ck_assert_int_eq(dbl.ndm, 0);   /* libdiskmgt has no say on a zvol */

	/* The dump zvol: DIOCGETDEV names it as dumpadm set it, by its
	 * block node (dump.c:157-167, dumpsubr.c:1221-1222). */
	(void)zvol_pair("rpool/dump", 2);
	snprintf(dbl.dump_dev, sizeof(dbl.dump_dev), "/dev/zvol/dsk/rpool/dump");
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/rpool/dump", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "dump device"));
	ck_assert_int_eq(in_use("/dev/zvol/dsk/rpool/dump", why, sizeof(why)), 1);
	/* A dump slice: its whole disk is in use. */
	two_disks();
	snprintf(dbl.dump_dev, sizeof(dbl.dump_dev), "/dev/dsk/c0t0d0s1");
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "c0t0d0s1"));
	ck_assert_int_eq(in_use("/dev/rdsk/c1t0d0s0", why, sizeof(why)), 0);
	/* No dump device (ENODEV): nothing is in use by dump. */
	dbl.dump_dev[0] = '\0';
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/rpool/dump", why, sizeof(why)), 0);
	/* /dev/dump is 0660 root sys: a caller who cannot open it cannot
	 * tell (libdiskmgt's inuse_dump says "not in use" then). */
	dbl.dump_open_errno = EACCES;
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/rpool/dump", why, sizeof(why)), -EACCES);
	ck_assert_ptr_nonnull(strstr(why, "/dev/dump"));
	ck_assert_int_eq(in_use("/dev/rdsk/c1t0d0s0", why, sizeof(why)), -EACCES);
	dbl.dump_open_errno = 0;

	/* A zvol behind COMSTAR, a bhyve guest, a zone: held open, so the
	 * exclusive open is refused. */
	r = zvol_pair("tank/lu0", 3);
	zvol_held("tank/lu0", 1);
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/tank/lu0", why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(strstr(why, "exclusive open"));
	ck_assert_int_gt(r->nexcl, 0);
	/* Nobody holds it: free, shown by the exclusive open. */
	zvol_held("tank/lu0", 0);
	r->nexcl = 0;
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/tank/lu0", why, sizeof(why)), 0);
	ck_assert_int_eq(r->nexcl, 1);
	/* The open fails for another reason (no permission): cannot tell. */
	r->open_errno = EACCES;
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/tank/lu0", why, sizeof(why)), -EACCES);
	ck_assert_ptr_nonnull(strstr(why, "cannot be told"));
	r->open_errno = 0;
	/* The zvol named by its /devices path (zfs@0, minor "3,raw"). */
	snprintf(r->real, sizeof(r->real), "/devices/pseudo/zfs@0:3,raw");
	(void)dbl_node_add("/devices/pseudo/zfs@0:3,raw", 1, ZFS_MAJOR, 3);
	snprintf(dbl_node_find("/devices/pseudo/zfs@0:3,raw")->real, 160,
	         "/devices/pseudo/zfs@0:3,raw");
	dbl_node_find("/devices/pseudo/zfs@0:3,raw")->excl_busy = 1;
	ck_assert_int_eq(in_use("/devices/pseudo/zfs@0:3,raw", why, sizeof(why)), 1);

	/* A swap area that cannot be examined and is not the device by
	 * name: cannot tell. */
	snprintf(dbl.swap[dbl.nswap++], sizeof(dbl.swap[0]), "/dev/zvol/dsk/gone/swap");
	ck_assert_int_eq(in_use("/dev/zvol/rdsk/tank/lu0", why, sizeof(why)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(why, "gone/swap"));
}
END_TEST

START_TEST(in_use_where_libdiskmgt_is_blind)
{
	char why[256];

	two_disks();
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 0);
	ck_assert_str_eq(dbl.dlopened, "libzfs.so");    /* inuse_zpool.c's name */
	/* libdiskmgt checks nobody (no getzoneid/geteuid in its source) and
	 * says "not in use" where its opens fail. */
	dbl.euid = 1000;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), -EACCES);
	ck_assert_ptr_nonnull(strstr(why, "root"));
	dbl.euid = 0;
	dbl.zoneid = 7;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), -EPERM);
	ck_assert_ptr_nonnull(strstr(why, "zone"));
	dbl.zoneid = 0;
	/* libzfs.so not loadable: inuse_zpool.c answers 0, no error. */
	dbl.libzfs_missing = 1;
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(why, "libzfs"));
	dbl.libzfs_missing = 0;
	/* What is seen in use is still in use, whoever asks. */
	dbl.euid = 1000;
	(void)dbl_mount_add("/dev/dsk/c0t0d0s5", "/export/home", "ufs", "rw",
	                    makedev(SD, 5));
	ck_assert_int_eq(in_use("/dev/rdsk/c0t0d0s2", why, sizeof(why)), 1);
	dbl.euid = 0;
}
END_TEST

START_TEST(cached_nodes_not_direct)
{
	static const struct { const char *path, *drv, *word; } nodes[] = {
		{ "/dev/zvol/rdsk/rpool/vol", "zvol", "a zvol's reads and writes go "
		  "through the ZFS ARC: its raw node is not direct" },
		{ "/dev/rlofi/1", "lofi", "lofi reads and writes its backing file "
		  "through that file's page cache: its raw node is not direct" },
		{ "/dev/rramdisk/rd0", "ramdisk", "a ramdisk is kernel memory: there "
		  "is no device to go to: its raw node is not direct" },
	};
	struct dio_refusal why;
	struct dio_align a;
	struct dbl_node *n;
	dio_file *fp;
	size_t i;

	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		n = dbl_node_add(nodes[i].path, 1, 150 + (unsigned)i, 1);
		dbl_disk(n, nodes[i].drv, 1, 512, 1 << 20);
		logbuf[0] = '\0';
		fp = NULL;
		ck_assert_int_eq(dio_open_why(&fp, nodes[i].path, DIO_O_RDWR,
		                              DIO_DIRECT_ON, DIO_SYNC_NONE, 0, &why),
		                 -ENOTSUP);
		ck_assert_msg(strstr(logbuf, nodes[i].word) != NULL, "%s: %s",
		              nodes[i].path, logbuf);
		ck_assert_int_eq(why.reason, DIO_REFUSAL_RAW_CACHED);
		ck_assert_str_eq(why.driver, nodes[i].drv);
		ck_assert_str_eq(words(&why), nodes[i].word);
		ck_assert_int_eq(dio_open(&fp, nodes[i].path, DIO_O_RDWR, DIO_DIRECT_OFF,
		                          DIO_SYNC_NONE, 0), 0);
		ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_NONE);
		memset(&a, 0, sizeof(a));
		ck_assert_int_eq(dio_align_fd(dio_file_fd(fp), &a), 0);
		ck_assert_uint_eq(a.offset_align, 0);
		ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_NONE);
		ck_assert_uint_eq(a.logical_block, 512);
		dio_close(fp);
	}
	/* An sd slice stays raw. */
	(void)disk_pair(0, "s0", 0, 512, 1000000);
	ck_assert_int_eq(dio_open(&fp, "/dev/rdsk/c0t0d0s0", DIO_O_RDWR, DIO_DIRECT_ON,
	                          DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_RAW);
	dio_close(fp);
}
END_TEST

START_TEST(ufs_on_cached_device)
{
	static const char lofi[] = "ufs is on a device whose I/O is cached: lofi "
	                           "reads and writes its backing file through that "
	                           "file's page cache";
	const char *f = mkfile("a", "ufs");
	struct dio_refusal why;
	struct dbl_mount *m;
	dio_file *fp = NULL;

	/* UFS on a zvol: the zvol's raw node says "zvol". */
	(void)zvol_pair("rpool/ufs", 4);
	m = dbl_mount_add("/dev/zvol/dsk/rpool/ufs", "/ufs", "ufs", "rw", dev_of(f));
	ck_assert_int_eq(dio_open_why(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE,
	                              0, &why), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(logbuf, "ARC"));
	ck_assert_int_eq(why.reason, DIO_REFUSAL_FS_ON_CACHED);
	ck_assert_str_eq(why.fs, "ufs");
	ck_assert_str_eq(why.driver, "zvol");
	ck_assert_str_eq(words(&why), "ufs is on a device whose I/O is cached: a "
	                 "zvol's reads and writes go through the ZFS ARC");
	ck_assert_int_eq(dbl.ndirectio, 0);
	/* forcedirectio there is not direct either. */
	snprintf(m->opts, sizeof(m->opts), "rw,forcedirectio");
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDWR, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_NONE);
	dio_close(fp);
	/* UFS on lofi whose raw node cannot be opened: its name says it. */
	snprintf(m->special, sizeof(m->special), "/dev/lofi/2");
	snprintf(m->opts, sizeof(m->opts), "rw");
	logbuf[0] = '\0';
	ck_assert_int_eq(dio_open_why(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE,
	                              0, &why), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(logbuf, lofi));
	ck_assert_str_eq(why.driver, "lofi");
	ck_assert_str_eq(words(&why), lofi);
	/* UFS on lofi, raw node /dev/rlofi/3 asked. */
	(void)dbl_node_add("/dev/lofi/3", 0, 151, 3);
	dbl_disk(dbl_node_add("/dev/rlofi/3", 1, 151, 3), "lofi", 3, 512, 1 << 20);
	snprintf(m->special, sizeof(m->special), "/dev/lofi/3");
	logbuf[0] = '\0';
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE, 0),
	                 -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(logbuf, "page cache"));
	/* UFS on an sd slice: direct, directio() asked. */
	(void)disk_pair(0, "s0", 0, 512, 1000000);
	snprintf(m->special, sizeof(m->special), "/dev/dsk/c0t0d0s0");
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_DIRECTIO);
	ck_assert_int_eq(dbl.ndirectio, 1);
	dio_close(fp);
}
END_TEST

START_TEST(cmdk_media)
{
	struct dio_devinfo o;
	struct dio_align a;
	struct dbl_node *n;
	int fd;

	/* cmdk answers DKIOCGMEDIAINFO (cmdk.c:852-869), not ...EXT nor
	 * DKIOCGETWCE (ENOTTY from ata_disk.c:1214-1216). */
	n = dbl_node_add("/dev/rdsk/c0d0s0", 1, 102, 0);
	dbl_disk(n, "cmdk", 0, 512, 2000000);
	n->minfo_errno = ENOTTY;
	n->wce = DBL_NA;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c0d0s0", &o), 0);
	ck_assert_uint_eq(o.size_bytes, 2000000ull * 512);
	ck_assert_uint_eq(o.logical_block, 512);
	ck_assert_uint_eq(o.physical_block, 512);
	ck_assert_uint_eq(o.write_cache, DIO_TRI_UNKNOWN);
	fd = open_node("/dev/rdsk/c0d0s0");
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(dio_align_fd(fd, &a), 0);
	ck_assert_uint_eq(a.offset_align, 512);
	ck_assert_uint_eq(a.device_bytes, 2000000ull * 512);
	close(fd);
	/* Neither answered: no sizes. */
	n->minfo_plain_errno = ENOTTY;
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c0d0s0", &o), 0);
	ck_assert_uint_eq(o.size_bytes, 0);
}
END_TEST

START_TEST(device_commits_flush)
{
	struct dbl_node *raw, *blk;
	const char *f;
	char d[256];
	dio_file *fp;
	void *buf = dio_alloc(4096, 4096);

	ck_assert_ptr_nonnull(buf);
	memset(buf, 0, 4096);
	raw = disk_pair(0, "s0", 0, 512, 1000000);
	blk = dbl_node_find("/dev/dsk/c0t0d0s0");
	/* A synchronous handle on the raw node: every write is followed by
	 * DKIOCFLUSHWRITECACHE (specfs passes no FDSYNC to the driver,
	 * specvnops.c:1118-1121). */
	ck_assert_int_eq(dio_open(&fp, "/dev/rdsk/c0t0d0s0", DIO_O_RDWR, DIO_DIRECT_OFF,
	                          DIO_SYNC_DATA, 0), 0);
	ck_assert_int_eq(dio_pwrite(fp, buf, 4096, 0), 4096);
	ck_assert_int_eq(raw->nflush, 1);
	dio_close(fp);
	/* A commit: fdatasync (a flush only if the node was marked,
	 * specvnops.c:1485-1535), then the flush, always. */
	ck_assert_int_eq(dio_open(&fp, "/dev/rdsk/c0t0d0s0", DIO_O_RDWR, DIO_DIRECT_OFF,
	                          DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_pwrite(fp, buf, 4096, 0), 4096);
	ck_assert_int_eq(raw->nflush, 1);
	ck_assert_int_eq(dio_commit(fp, DIO_COMMIT_FDATASYNC), 0);
	ck_assert_int_eq(raw->nfsync, 1);
	ck_assert_int_eq(raw->nflush, 2);
	ck_assert_int_eq(dio_pwrite_commit(fp, buf, 4096, 0, DIO_COMMIT_FSYNC), 4096);
	ck_assert_int_eq(raw->nflush, 3);
	ck_assert_int_eq(dio_commit(fp, DIO_COMMIT_NONE), 0);
	ck_assert_int_eq(raw->nflush, 3);
	/* No cache to flush (blkdev without one: ENOTSUP; lofi: ENOTTY). */
	raw->flush_errno = ENOTSUP;
	ck_assert_int_eq(dio_commit(fp, DIO_COMMIT_FSYNC), 0);
	raw->flush_errno = ENOTTY;
	ck_assert_int_eq(dio_commit(fp, DIO_COMMIT_FSYNC), 0);
	/* A flush that fails fails the commit. */
	raw->flush_errno = EIO;
	ck_assert_int_eq(dio_commit(fp, DIO_COMMIT_FSYNC), -EIO);
	ck_assert_int_eq(dio_file_errdetail(fp, d, sizeof(d)), -EIO);
	ck_assert_ptr_nonnull(strstr(d, "flush"));
	raw->flush_errno = 0;
	dio_close(fp);
	/* The block node takes no ioctl (spec_ioctl: VCHR only): the flush
	 * goes to its raw twin. */
	raw->nflush = 0;
	ck_assert_int_eq(dio_open(&fp, "/dev/dsk/c0t0d0s0", DIO_O_RDWR, DIO_DIRECT_OFF,
	                          DIO_SYNC_DATA, 0), 0);
	ck_assert_int_eq(dio_pwrite(fp, buf, 4096, 0), 4096);
	ck_assert_int_eq(raw->nflush, 1);
	ck_assert_int_eq(dio_commit(fp, DIO_COMMIT_FSYNC), 0);
	ck_assert_int_eq(blk->nfsync, 1);
	ck_assert_int_eq(raw->nflush, 2);
	dio_close(fp);
	/* A file: the file system's commit, no flush of ours. */
	f = mkfile("a", "ufs");
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDWR, DIO_DIRECT_OFF, DIO_SYNC_DATA, 0), 0);
	ck_assert_int_eq(dio_pwrite(fp, buf, 4096, 0), 4096);
	ck_assert_int_eq(dio_commit(fp, DIO_COMMIT_FSYNC), 0);
	ck_assert_int_eq(raw->nflush, 2);
	dio_close(fp);
	dio_free(buf);
}
END_TEST

START_TEST(durability_facts)
{
	const char *f;
	struct dio_devinfo o;
	char p[512], args[256];
	FILE *fp;

	/* UFS sends no DKIOCFLUSHWRITECACHE (none under fs/ufs). */
	f = mkfile("a", "ufs");
	(void)disk_pair(0, "s0", 0, 512, 1000000);
	(void)dbl_mount_add("/dev/dsk/c0t0d0s0", "/data", "ufs", "rw", dev_of(f));
	file_info(f, &o);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_NO);
	ck_assert_uint_eq(o.write_cache, DIO_TRI_YES);
	ck_assert_uint_eq(o.direct_stable, DIO_TRI_UNKNOWN);
	/* NFS: a direct write is FILE_SYNC (nfs3_vnops.c:761-765). */
	snprintf(dbl.mount[0].special, sizeof(dbl.mount[0].special), "srv:/export");
	snprintf(dbl.mount[0].fstype, sizeof(dbl.mount[0].fstype), "nfs");
	file_info(f, &o);
	ck_assert_uint_eq(o.direct_stable, DIO_TRI_YES);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_UNKNOWN);
	/* ZFS sync=always: every write commits; its commits flush. */
	snprintf(dbl.mount[0].special, sizeof(dbl.mount[0].special), "rpool/data");
	snprintf(dbl.mount[0].fstype, sizeof(dbl.mount[0].fstype), "zfs");
	write_zfs("echo always");
	file_info(f, &o);
	ck_assert_uint_eq(o.sync_always, DIO_TRI_YES);
	ck_assert_uint_eq(o.sync_disabled, DIO_TRI_NO);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_YES);
	write_zfs("echo standard");
	file_info(f, &o);
	ck_assert_uint_eq(o.sync_always, DIO_TRI_NO);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_YES);
	/* A zvol: its dataset's property, read for the device. */
	(void)zvol_pair("rpool/vol", 5);
	write_zfs("echo disabled");
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/zvol/rdsk/rpool/vol", &o), 0);
	ck_assert_uint_eq(o.sync_disabled, DIO_TRI_YES);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_NO);
	snprintf(p, sizeof(p), "%s/zfs.args", dir);
	fp = fopen(p, "r");
	ck_assert_ptr_nonnull(fp);
	args[fread(args, 1, sizeof(args) - 1, fp)] = '\0';
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(args, "rpool/vol\n"));
	write_zfs("echo always");
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/zvol/dsk/rpool/vol", &o), 0);
	ck_assert_uint_eq(o.sync_always, DIO_TRI_YES);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_YES);
	/* A disk node: libdirectio's commits flush it. */
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rdsk/c0t0d0s0", &o), 0);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_YES);
	ck_assert_uint_eq(o.sync_always, DIO_TRI_UNKNOWN);
	/* lofi answers no flush: its backing file's file system decides;
	 * a ramdisk is memory. */
	dbl_disk(dbl_node_add("/dev/rlofi/1", 1, 151, 1), "lofi", 1, 512, 1 << 20);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rlofi/1", &o), 0);
	ck_assert_str_eq(o.name, "lofi1");
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_UNKNOWN);
	dbl_disk(dbl_node_add("/dev/rramdisk/rd0", 1, 152, 1), "ramdisk", 1, 512, 1 << 20);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/rramdisk/rd0", &o), 0);
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_NO);
	/* A ramdisk's block node is asked through its raw twin in
	 * /dev/rramdisk, as a lofi one's in /dev/rlofi. */
	(void)dbl_node_add("/dev/ramdisk/rd0", 0, 152, 1);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(dio_devinfo("/dev/ramdisk/rd0", &o), 0);
	ck_assert_str_eq(o.disk, "/dev/rramdisk/rd0");
	ck_assert_uint_eq(o.commit_flush, DIO_TRI_NO);
}
END_TEST

START_TEST(behind_lofs)
{
	const char *f = mkfile("a", "zfs");
	struct dio_devinfo o;
	dio_file *fp;

	/* A lofs mount has the device number of what it shows (lofs_vfsops.c
	 * copies vfs_dev): the mount of the same number that is not lofs is
	 * the one, wherever it is listed. */
	(void)dbl_mount_add(dir, "/zones/z1/root/data", "lofs", "rw,dev=4010003",
	                    dev_of(f));
	(void)dbl_mount_add("rpool/data", "/data", "zfs", "rw", dev_of(f));
	write_zfs("echo always");
	file_info(f, &o);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_YES);
	ck_assert_uint_eq(o.sync_always, DIO_TRI_YES);
	/* Only the lofs entry, its source not to be seen (a zone): not known. */
	dbl.nmounts = 1;
	snprintf(dbl.mount[0].special, sizeof(dbl.mount[0].special), "/export/none");
	file_info(f, &o);
	ck_assert_uint_eq(o.direct_ignored, DIO_TRI_UNKNOWN);
	ck_assert_uint_eq(o.sync_always, DIO_TRI_UNKNOWN);
	/* forcedirectio belongs to the UFS mount behind the lofs one. */
	dbl.nfiles = 0;
	f = mkfile("b", "ufs");
	dbl.nmounts = 0;
	(void)dbl_mount_add(dir, "/zones/z1/root/u", "lofs", "rw", dev_of(f));
	(void)dbl_mount_add("/dev/dsk/c0t0d0s6", "/u", "ufs", "rw,forcedirectio", dev_of(f));
	ck_assert_int_eq(dio_open(&fp, f, DIO_O_RDONLY, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0), 0);
	ck_assert_int_eq(dio_file_direct(fp), DIO_MECH_FORCED);
	dio_close(fp);
}
END_TEST

static Suite *
sunos_suite(void)
{
	Suite *s = suite_create("sunos");
	TCase *t = tcase_create("backend");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, zfs_direct_on_refused);
	tcase_add_test(t, directio_honoured);
	tcase_add_test(t, directio_refused);
	tcase_add_test(t, direct_limits);
	tcase_add_test(t, forcedirectio_mount);
	tcase_add_test(t, buffered_open_leaves_advice);
	tcase_add_test(t, raw_disk_node);
	tcase_add_test(t, block_disk_node);
	tcase_add_test(t, slice_sizes);
	tcase_add_test(t, max_transfer_units);
	tcase_add_test(t, in_use_none);
	tcase_add_test(t, in_use_pool_member);
	tcase_add_test(t, in_use_fails_closed);
	tcase_add_test(t, in_use_mount_and_swap);
	tcase_add_test(t, zfs_sync_disabled);
	tcase_add_test(t, ufs_file_devinfo);
	tcase_add_test(t, disks_not_counted);
	tcase_add_test(t, uscsi_outputs);
	tcase_add_test(t, other_answers);
	tcase_add_test(t, more_answers);
	tcase_add_test(t, no_raw_directory);
	tcase_add_test(t, in_use_zvol_swap_dump);
	tcase_add_test(t, in_use_where_libdiskmgt_is_blind);
	tcase_add_test(t, cached_nodes_not_direct);
	tcase_add_test(t, ufs_on_cached_device);
	tcase_add_test(t, cmdk_media);
	tcase_add_test(t, device_commits_flush);
	tcase_add_test(t, durability_facts);
	tcase_add_test(t, behind_lofs);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sunos_suite());
	int failed;

	if (strcmp(dio_backend_name(), "sunos") != 0) {
		fprintf(stderr, "check_sunos: backend %s, not the double's\n",
		        dio_backend_name());
		return 1;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
