/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_devinfo.c -- dio_devinfo() on this machine's real devices.
 *
 *   check_devinfo                 argument checks, /dev/null, a missing path,
 *                                 a file here, /dev/shm (any backend)
 *   check_devinfo --dev512 DEV --img512 IMG [--part DEV]
 *                 --dev4k DEV --img4k IMG --mnt DIR
 *                                 loop devices set up by tests/devinfo-loop.sh:
 *                                 DEV 512-byte sectors on IMG (not mounted,
 *                                 buffered; --part its first partition), DEV
 *                                 4096-byte sectors on IMG with direct I/O to
 *                                 it, mounted on DIR
 *
 * The facts are compared with what the kernel shows in sysfs, read here
 * independently of the library.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tests/testutil.h"

static const char *dev512, *img512, *part512, *dev4k, *img4k, *mnt;
static int is_linux;

/* The kernel name of a /dev path: "/dev/loop3" -> "loop3". */
static const char *
kname(const char *dev)
{
	const char *s = strrchr(dev, '/');

	return s ? s + 1 : dev;
}

static unsigned long long
sysfs_num(const char *name, const char *attr)
{
	char b[64];

	tu_sysfs(name, attr, b, sizeof(b));
	ck_assert_msg(b[0] != '\0', "no /sys/block/%s/%s", name, attr);
	return strtoull(b, NULL, 10);
}

/* ------------------------------------------------------------ always */

START_TEST(test_args)
{
	struct dio_devinfo d;

	ck_assert_int_eq(dio_devinfo("/", NULL), -EINVAL);
	memset(&d, 0xff, sizeof(d));
	ck_assert_int_eq(dio_devinfo(NULL, &d), -EINVAL);
	ck_assert_uint_eq(d.kind, DIO_DEVINFO_NONE);       /* zeroed first */
	ck_assert_int_eq(dio_devinfo("", &d), -EINVAL);
	ck_assert_int_eq(dio_devinfo("/no/such/path/dio-info", &d), -ENOENT);
	ck_assert_uint_eq(d.kind, DIO_DEVINFO_NONE);
	ck_assert_str_eq(dio_devinfo_kind_name(DIO_DEVINFO_BLOCK), "block device");
	ck_assert_str_eq(dio_devinfo_kind_name(DIO_DEVINFO_SG), "sg device");
	ck_assert_str_eq(dio_devinfo_kind_name(99), "none");
	ck_assert_str_eq(dio_tri_name(DIO_TRI_YES), "yes");
	ck_assert_str_eq(dio_tri_name(DIO_TRI_NO), "no");
	ck_assert_str_eq(dio_tri_name(0), "unknown");
}
END_TEST

START_TEST(test_kinds)
{
	struct dio_devinfo d;
	int r;

	/* A regular file: its file system's device, or -ENOTSUP (posix). */
	r = dio_devinfo("Makefile", &d);
	if (!is_linux && strcmp(dio_backend_name(), "posix") == 0) {
		ck_assert_int_eq(r, -ENOTSUP);
	} else {
		ck_assert_int_eq(r, 0);
	}
	ck_assert_uint_eq(d.kind, DIO_DEVINFO_FILE);

	r = dio_devinfo("/dev/null", &d);
	ck_assert(r == 0 || r == -ENOTSUP);
	ck_assert_uint_eq(d.kind, DIO_DEVINFO_CHAR);
	ck_assert_str_eq(d.device, "");
	ck_assert_uint_eq(d.max_sectors_kb, 0);
	ck_assert_uint_eq(d.known, 0);

	if (is_linux) {
		struct stat st;

		/* tmpfs has no block device: everything about one is unknown. */
		if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode)) {
			ck_assert_int_eq(dio_devinfo("/dev/shm", &d), 0);
			ck_assert_uint_eq(d.kind, DIO_DEVINFO_FILE);
			ck_assert_str_eq(d.device, "");
			ck_assert_str_eq(d.settings_dir, "");
			ck_assert_uint_eq(d.size_bytes, 0);
			ck_assert_uint_eq(d.rotational, DIO_TRI_UNKNOWN);
		}
		/* The sg driver is there exactly when sysfs says so. */
		ck_assert_int_eq(dio_devinfo("/dev/null", &d), 0);
		if (stat("/sys/module/sg", &st) == 0) {
			ck_assert_uint_eq(d.sg_driver, DIO_TRI_YES);
			ck_assert_str_eq(d.allow_dio_path, "/sys/module/sg/parameters/allow_dio");
			ck_assert_uint_ne(d.allow_dio, DIO_TRI_UNKNOWN);
		} else if (stat("/sys/class/scsi_generic", &st) != 0 &&
		           stat("/proc/scsi/sg", &st) != 0) {
			ck_assert_uint_eq(d.sg_driver, DIO_TRI_NO);
			ck_assert_uint_eq(d.allow_dio, DIO_TRI_UNKNOWN);
			ck_assert_str_eq(d.allow_dio_path, "");
		}
	}
}
END_TEST

/* ------------------------------------------------------------ loop devices */

/* The facts of loop device dev against sysfs. */
static void
check_loop_queue(const char *dev, const struct dio_devinfo *d)
{
	const char *n = kname(dev);
	char b[256], want[300], *lb, *rb;

	ck_assert_uint_eq(d->kind, DIO_DEVINFO_BLOCK);
	ck_assert_str_eq(d->name, n);
	snprintf(want, sizeof(want), "/dev/%s", n);
	ck_assert_str_eq(d->disk, want);
	snprintf(want, sizeof(want), "/sys/block/%s/queue", n);
	ck_assert_str_eq(d->settings_dir, want);
	ck_assert_uint_eq(d->size_bytes, sysfs_num(n, "size") * 512);
	ck_assert_uint_eq(d->logical_block, sysfs_num(n, "queue/logical_block_size"));
	ck_assert_uint_eq(d->physical_block, sysfs_num(n, "queue/physical_block_size"));
	ck_assert_uint_eq(d->min_io, sysfs_num(n, "queue/minimum_io_size"));
	ck_assert_uint_eq(d->optimal_io, sysfs_num(n, "queue/optimal_io_size"));
	ck_assert_uint_eq(d->dma_align, sysfs_num(n, "queue/dma_alignment") + 1);
	ck_assert_uint_eq(d->max_sectors_kb, sysfs_num(n, "queue/max_sectors_kb"));
	ck_assert_uint_eq(d->max_hw_sectors_kb, sysfs_num(n, "queue/max_hw_sectors_kb"));
	ck_assert_uint_eq(d->max_segments, sysfs_num(n, "queue/max_segments"));
	ck_assert_uint_eq(d->nr_requests, sysfs_num(n, "queue/nr_requests"));
	ck_assert(d->known & DIO_DEVINFO_K_READ_AHEAD);
	ck_assert_uint_eq(d->read_ahead_kb, sysfs_num(n, "queue/read_ahead_kb"));
	ck_assert_uint_eq(d->rotational, sysfs_num(n, "queue/rotational") ?
	                  DIO_TRI_YES : DIO_TRI_NO);
	tu_sysfs(n, "queue/write_cache", b, sizeof(b));
	ck_assert_uint_eq(d->write_cache, strcmp(b, "write back") == 0 ? DIO_TRI_YES :
	                  DIO_TRI_NO);
	ck_assert_uint_eq(d->read_only, DIO_TRI_NO);
	ck_assert_uint_eq(d->removable, DIO_TRI_NO);
	/* scheduler: "[none] mq-deadline kyber bfq" */
	tu_sysfs(n, "queue/scheduler", b, sizeof(b));
	lb = strchr(b, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (lb != NULL && rb != NULL) {
		snprintf(want, sizeof(want), "%.*s", (int)(rb - lb - 1), lb + 1);
		ck_assert_str_eq(d->scheduler, want);
		memmove(rb, rb + 1, strlen(rb));
		memmove(lb, lb + 1, strlen(lb));
		ck_assert_str_eq(d->schedulers, b);
	}
	/* A loop device is no SCSI device. */
	ck_assert_str_eq(d->scsi_addr, "");
	ck_assert_str_eq(d->sg_device, "");
	ck_assert_str_eq(d->wwid, "");
}

START_TEST(test_loop512)
{
	struct dio_devinfo d;
	char why[256];

	ck_assert_int_eq(dio_devinfo(dev512, &d), 0);
	check_loop_queue(dev512, &d);
	ck_assert_str_eq(d.device, dev512);
	ck_assert_uint_eq(d.logical_block, 512);
	ck_assert_uint_eq(d.physical_block, 512);
	ck_assert_uint_eq(d.size_bytes, 16u << 20);
	ck_assert_str_eq(d.loop_backing, img512);
	ck_assert_uint_eq(d.loop_direct, DIO_TRI_NO);
	ck_assert_int_eq(dio_device_in_use(d.device, why, sizeof(why)), 0);
}
END_TEST

START_TEST(test_loop4k)
{
	struct dio_devinfo d;

	ck_assert_int_eq(dio_devinfo(dev4k, &d), 0);
	check_loop_queue(dev4k, &d);
	ck_assert_uint_eq(d.logical_block, 4096);
	ck_assert_uint_eq(d.physical_block, 4096);
	ck_assert_uint_eq(d.size_bytes, 32u << 20);
	ck_assert_str_eq(d.loop_backing, img4k);
	ck_assert_uint_eq(d.loop_direct, DIO_TRI_YES);
}
END_TEST

/* A partition: its own size, its disk's queue. */
START_TEST(test_partition)
{
	struct dio_devinfo d;
	char want[128];

	ck_assert_int_eq(dio_devinfo(part512, &d), 0);
	ck_assert_uint_eq(d.kind, DIO_DEVINFO_BLOCK);
	ck_assert_str_eq(d.device, part512);
	ck_assert_str_eq(d.disk, dev512);
	ck_assert_str_eq(d.name, kname(dev512));
	snprintf(want, sizeof(want), "/sys/block/%s/queue", kname(dev512));
	ck_assert_str_eq(d.settings_dir, want);
	ck_assert_uint_eq(d.size_bytes, 10u << 20);  /* the partition, not the disk */
	ck_assert_uint_eq(d.max_sectors_kb, sysfs_num(kname(dev512), "queue/max_sectors_kb"));
	ck_assert_str_eq(d.loop_backing, img512);
}
END_TEST

/* A file and the directory of a mounted file system: the loop device under it. */
START_TEST(test_file_on_loop)
{
	struct dio_devinfo d;
	char path[512], why[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/devinfo-file", mnt);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("x\n", fp);
	fclose(fp);
	ck_assert_int_eq(dio_devinfo(path, &d), 0);
	ck_assert_uint_eq(d.kind, DIO_DEVINFO_FILE);
	ck_assert_str_eq(d.device, dev4k);
	ck_assert_str_eq(d.disk, dev4k);
	ck_assert_uint_eq(d.logical_block, 4096);
	ck_assert_str_eq(d.loop_backing, img4k);
	ck_assert_int_eq(dio_device_in_use(d.device, why, sizeof(why)), 1);
	ck_assert_msg(strstr(why, mnt) != NULL, "in use because '%s'", why);
	unlink(path);

	ck_assert_int_eq(dio_devinfo(mnt, &d), 0);
	ck_assert_uint_eq(d.kind, DIO_DEVINFO_FILE);
	ck_assert_str_eq(d.device, dev4k);
}
END_TEST

/* A changed setting shows at once. */
START_TEST(test_setting_changes)
{
	struct dio_devinfo d;
	char path[256], old[32];
	const char *n = kname(dev512);
	FILE *fp;

	tu_sysfs(n, "queue/max_sectors_kb", old, sizeof(old));
	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_sectors_kb", n);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("128\n", fp);
	ck_assert_int_eq(fclose(fp), 0);
	ck_assert_int_eq(dio_devinfo(dev512, &d), 0);
	ck_assert_uint_eq(d.max_sectors_kb, 128);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fprintf(fp, "%s\n", old);
	ck_assert_int_eq(fclose(fp), 0);
	ck_assert_int_eq(dio_devinfo(dev512, &d), 0);
	ck_assert_uint_eq(d.max_sectors_kb, strtoul(old, NULL, 10));
}
END_TEST

static Suite *
devinfo_suite(void)
{
	Suite *s = suite_create("devinfo");
	TCase *tc = tcase_create("always");

	tcase_add_test(tc, test_args);
	tcase_add_test(tc, test_kinds);
	suite_add_tcase(s, tc);
	if (dev512 != NULL) {
		tc = tcase_create("loop");
		tcase_add_test(tc, test_loop512);
		tcase_add_test(tc, test_loop4k);
		if (part512 != NULL)
			tcase_add_test(tc, test_partition);
		tcase_add_test(tc, test_file_on_loop);
		tcase_add_test(tc, test_setting_changes);
		suite_add_tcase(s, tc);
	}
	return s;
}

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--dev512") == 0)
			dev512 = argv[i + 1];
		else if (strcmp(argv[i], "--img512") == 0)
			img512 = argv[i + 1];
		else if (strcmp(argv[i], "--part") == 0)
			part512 = argv[i + 1];
		else if (strcmp(argv[i], "--dev4k") == 0)
			dev4k = argv[i + 1];
		else if (strcmp(argv[i], "--img4k") == 0)
			img4k = argv[i + 1];
		else if (strcmp(argv[i], "--mnt") == 0)
			mnt = argv[i + 1];
		else {
			fprintf(stderr, "check_devinfo: unknown argument %s\n", argv[i]);
			return 99;
		}
	}
	if (i < argc) {
		fprintf(stderr, "check_devinfo: %s needs a value\n", argv[i]);
		return 99;
	}
	if (dev512 != NULL && (img512 == NULL || dev4k == NULL || img4k == NULL ||
	                       mnt == NULL)) {
		fprintf(stderr, "check_devinfo: --dev512 needs --img512, --dev4k, "
		        "--img4k and --mnt\n");
		return 99;
	}
	is_linux = strcmp(dio_backend_name(), "linux") == 0;
	if (dev512 != NULL && !is_linux)
		tu_skip("loop device facts are read the Linux way (backend %s)",
		        dio_backend_name());
	return tu_run(srunner_create(devinfo_suite()));
}
