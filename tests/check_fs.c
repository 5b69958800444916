/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_fs.c -- direct and synchronous I/O behaviour on one real file
 * system or block device, with the expectations given on the command line
 * by the script that prepared it (tests/fs-*.sh):
 *
 *   check_fs TARGET --direct yes|no [--pagecache yes|no] [--align N]
 *
 * TARGET is a directory (files are created in it) or a block device
 * (overwritten: only ever a loop device on a scratch image).
 *   --direct     whether this file system / device accepts direct I/O
 *   --pagecache  whether residency in the page cache tells direct from
 *                buffered (not on tmpfs, whose pages are the file)
 *   --align      the offset/length granularity the kernel must report
 *   --fstype     the name dio_fs_type() must give
 *   --mounted-dev  the device mounted at TARGET (dio_device_in_use() = 1)
 *   --refusal    with --direct no: the reason (dio_refusal_name()) the
 *                backend gives for refusing it
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tests/testutil.h"

static const char *target;
static int target_is_dev;
static int want_direct = -1;
static int want_pagecache = 1;
static unsigned want_align;
static const char *want_fstype;
static const char *mounted_dev;
static const char *want_refusal;

/* Open a fresh file (or the device) for a test. */
static dio_file *
open_target(char *path, size_t len, const char *tag, int direct, int sync)
{
	dio_file *f = NULL;
	int r;

	if (target_is_dev) {
		snprintf(path, len, "%s", target);
		r = dio_open(&f, path, DIO_O_RDWR, direct, sync, 0);
	} else {
		tu_path(path, len, target, tag);
		r = dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT | DIO_O_EXCL, direct,
		             sync, 0600);
	}
	ck_assert_msg(r == 0, "open %s: %s", path, dio_strerror(r));
	return f;
}

static void
remove_target(const char *path)
{
	if (!target_is_dev)
		unlink(path);
}

START_TEST(test_direct_policy)
{
	char path[512];
	dio_file *f = NULL;
	int r, mech;

	if (!want_direct) {
		struct dio_refusal why;

		if (target_is_dev) {
			r = dio_open_why(&f, target, DIO_O_RDWR, DIO_DIRECT_ON, 0, 0, &why);
		} else {
			tu_path(path, sizeof(path), target, "refuse");
			r = dio_open_why(&f, path, DIO_O_RDWR | DIO_O_CREAT, DIO_DIRECT_ON, 0,
			                 0600, &why);
			/* The file the failed open created is gone again. */
			ck_assert_int_eq(tu_file_size(path), -1);
		}
		ck_assert_int_eq(r, -ENOTSUP);
		ck_assert_ptr_null(f);
		/* The failed open says why, as a value. */
		ck_assert_int_eq(why.err, -ENOTSUP);
		ck_assert_int_ne(why.reason, DIO_REFUSAL_NONE);
		ck_assert_int_ne(why.reason, DIO_REFUSAL_ERROR);
		if (want_refusal != NULL)
			ck_assert_str_eq(dio_refusal_name(why.reason), want_refusal);
		if (!target_is_dev) {
			/* A refused DIRECT_ON open does not truncate either. */
			int fd;

			tu_path(path, sizeof(path), target, "keep");
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
			ck_assert_int_ge(fd, 0);
			ck_assert_int_eq(write(fd, "precious", 8), 8);
			close(fd);
			ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_TRUNC,
			                          DIO_DIRECT_ON, 0, 0), -ENOTSUP);
			ck_assert_int_eq(tu_file_size(path), 8);
			/* TRY opens buffered and truncates as asked. */
			ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_TRUNC,
			                          DIO_DIRECT_TRY, 0, 0), 0);
			ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
			ck_assert_int_eq(tu_file_size(path), 0);
			ck_assert_int_eq(dio_close(f), 0);
			unlink(path);
		}
		f = open_target(path, sizeof(path), "try", DIO_DIRECT_TRY, 0);
		ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
		ck_assert_int_eq(dio_pwrite(f, "buffered", 8, 0), 8);
		ck_assert_int_eq(dio_close(f), 0);
		remove_target(path);
		return;
	}

	f = open_target(path, sizeof(path), "on", DIO_DIRECT_ON, 0);
	mech = dio_file_direct(f);
	ck_assert_int_ne(mech, DIO_MECH_NONE);
#if HAVE_DECL_O_DIRECT
	if (mech == DIO_MECH_O_DIRECT) {
		ck_assert_int_ne(tu_getfl(dio_file_fd(f)) & O_DIRECT, 0);
		ck_assert_int_eq(dio_file_set_direct(f, DIO_DIRECT_OFF), DIO_MECH_NONE);
		ck_assert_int_eq(tu_getfl(dio_file_fd(f)) & O_DIRECT, 0);
		ck_assert_int_eq(dio_fd_get_direct(dio_file_fd(f)), DIO_MECH_NONE);
		ck_assert_int_eq(dio_fd_set_direct(dio_file_fd(f), 1), DIO_MECH_O_DIRECT);
		ck_assert_int_ne(tu_getfl(dio_file_fd(f)) & O_DIRECT, 0);
		ck_assert_int_eq(dio_fd_get_direct(dio_file_fd(f)), DIO_MECH_O_DIRECT);
	}
#endif
	ck_assert_int_eq(dio_file_set_direct(f, DIO_DIRECT_ON), mech);
	ck_assert_int_eq(dio_file_direct(f), mech);
	ck_assert_int_eq(dio_close(f), 0);
	remove_target(path);

	f = open_target(path, sizeof(path), "try", DIO_DIRECT_TRY, DIO_SYNC_DATA);
	ck_assert_int_eq(dio_file_direct(f), mech);
	ck_assert_int_eq(dio_file_sync(f), DIO_SYNC_DATA);
	ck_assert_int_eq(dio_close(f), 0);
	remove_target(path);
}
END_TEST

START_TEST(test_alignment_reported)
{
	struct dio_align a;
	char path[512];
	dio_file *f;

	f = open_target(path, sizeof(path), "align", want_direct ? DIO_DIRECT_ON : 0, 0);
	ck_assert_int_eq(dio_file_align(f, &a), 0);
	printf("%s: mem_align %u offset_align %u logical %u physical %u "
	       "preferred %u source %s device %u bytes %llu\n", target,
	       a.mem_align, a.offset_align, a.logical_block, a.physical_block,
	       a.preferred_io, dio_align_source_name((int)a.source), a.is_device,
	       (unsigned long long)a.device_bytes);
	if (want_align)
		ck_assert_uint_eq(a.offset_align, want_align);
	if (want_direct) {
		ck_assert_uint_ne(a.source, DIO_ALIGN_SRC_NONE);
		ck_assert_uint_gt(a.offset_align, 0);
		ck_assert_uint_gt(a.mem_align, 0);
	}
	ck_assert_uint_eq(a.is_device, (uint32_t)target_is_dev);
	if (target_is_dev) {
		ck_assert_uint_gt(a.device_bytes, 0);
		if (strcmp(dio_backend_name(), "posix") != 0) {
			/* The posix backend has no portable sector size query. */
			ck_assert_uint_gt(a.logical_block, 0);
			ck_assert_uint_ge(a.physical_block, a.logical_block);
		}
	}
	ck_assert_int_eq(dio_close(f), 0);
	remove_target(path);
}
END_TEST

/* Direct transfers of aligned buffers land, and read back, exactly. */
START_TEST(test_direct_roundtrip)
{
	struct dio_align a;
	char path[512];
	size_t g, len;
	char *w, *r;
	dio_file *f;
	int m;

	f = open_target(path, sizeof(path), "rt", DIO_DIRECT_ON, 0);
	ck_assert_int_eq(dio_file_align(f, &a), 0);
	g = a.offset_align;
	len = 64 * g;
	w = dio_alloc(len, a.mem_align > g ? a.mem_align : g);
	r = dio_alloc(len, a.mem_align > g ? a.mem_align : g);
	tu_fill(w, len, 3);
	ck_assert_int_eq(dio_pwrite(f, w, len, (int64_t)g), (int64_t)len);
	ck_assert_int_eq(dio_pread(f, r, len, (int64_t)g), (int64_t)len);
	ck_assert_int_eq(memcmp(w, r, len), 0);
	/* Every commit method on a direct handle. */
	for (m = DIO_COMMIT_NONE; m <= DIO_COMMIT_RWF_DSYNC; m++) {
		if (dio_commit_resolve(m) < 0)
			continue;
		tu_fill(w, g, (uint32_t)m + 10);
		ck_assert_int_eq(dio_pwrite_commit(f, w, g, (int64_t)(g * (size_t)m), m),
		                 (int64_t)g);
		ck_assert_int_eq(dio_pread(f, r, g, (int64_t)(g * (size_t)m)), (int64_t)g);
		ck_assert_int_eq(memcmp(w, r, g), 0);
	}
	dio_free(w);
	dio_free(r);
	ck_assert_int_eq(dio_close(f), 0);
	remove_target(path);
}
END_TEST

/*
 * Misaligned direct transfers fail with -EINVAL and the documented detail,
 * and write nothing: the bytes on disk are those written before.
 */
START_TEST(test_misaligned_direct)
{
	struct dio_align a;
	char path[512], detail[256], want[256];
	size_t g, region;
	char *before, *buf, *after;
	dio_file *f;

	f = open_target(path, sizeof(path), "mis", DIO_DIRECT_ON, 0);
	ck_assert_int_eq(dio_file_align(f, &a), 0);
	g = a.offset_align;
	ck_assert_uint_gt(g, 1);
	region = 4 * g;
	before = dio_alloc(region, g);
	after = dio_alloc(region, g);
	buf = dio_alloc(region + g, g);
	tu_fill(before, region, 11);
	ck_assert_int_eq(dio_pwrite(f, before, region, 0), (int64_t)region);
	memset(buf, 0xee, region + g);

	/* Length: 1000 bytes at offset 512 (the example of the docs). */
	ck_assert_int_eq(dio_pwrite(f, buf, 1000, 512), -EINVAL);
	ck_assert_int_eq(dio_file_errdetail(f, detail, sizeof(detail)), -EINVAL);
	snprintf(want, sizeof(want), "direct write of 1000 bytes at offset 512: "
	         "length must be a multiple of %zu", g);
	ck_assert_str_eq(detail, want);

	/* Offset. */
	ck_assert_int_eq(dio_pwrite(f, buf, g, (int64_t)g / 2), -EINVAL);
	dio_file_errdetail(f, detail, sizeof(detail));
	snprintf(want, sizeof(want), "direct write of %zu bytes at offset %zu: "
	         "offset must be a multiple of %zu", g, g / 2, g);
	ck_assert_str_eq(detail, want);

	/* Buffer address. */
	if (a.mem_align > 1) {
		ck_assert_int_eq(dio_pwrite(f, buf + 1, g, 0), -EINVAL);
		dio_file_errdetail(f, detail, sizeof(detail));
		ck_assert_ptr_nonnull(strstr(detail, ": buffer address "));
		snprintf(want, sizeof(want), " must be a multiple of %u", a.mem_align);
		ck_assert_ptr_nonnull(strstr(detail, want));
		ck_assert_int_eq(dio_pread(f, buf + 1, g, 0), -EINVAL);
	}
	/* Reads are checked too. */
	ck_assert_int_eq(dio_pread(f, buf, 1000, 0), -EINVAL);
	dio_file_errdetail(f, detail, sizeof(detail));
	ck_assert_ptr_nonnull(strstr(detail, "direct read of 1000 bytes at offset 0: "));

	/* Nothing was written: same size (files), same bytes. */
	if (!target_is_dev)
		ck_assert_int_eq(tu_file_size(path), (int64_t)region);
	ck_assert_int_eq(dio_pread(f, after, region, 0), (int64_t)region);
	ck_assert_int_eq(memcmp(before, after, region), 0);
	dio_free(before);
	dio_free(after);
	dio_free(buf);
	ck_assert_int_eq(dio_close(f), 0);
	remove_target(path);
}
END_TEST

/*
 * Direct writes leave no pages of the file in the page cache; buffered
 * writes do.  Measured with mmap + mincore on the file afterwards.
 */
START_TEST(test_page_cache_bypassed)
{
	enum { LEN = 1 << 20 };
	long ps = sysconf(_SC_PAGESIZE), res;
	char pd[512], pb[512];
	dio_file *fd, *fb;
	char *buf = dio_alloc(LEN, 0);
	int64_t off;

	tu_fill(buf, LEN, 5);
	fd = open_target(pd, sizeof(pd), "direct", DIO_DIRECT_ON, 0);
	fb = open_target(pb, sizeof(pb), "buffered", DIO_DIRECT_OFF, 0);
	for (off = 0; off < LEN; off += 64 * 1024) {
		ck_assert_int_eq(dio_pwrite(fd, buf + off, 64 * 1024, off), 64 * 1024);
		ck_assert_int_eq(dio_pwrite(fb, buf + off, 64 * 1024, off), 64 * 1024);
	}
	/* Reading back directly must not pull pages in either. */
	ck_assert_int_eq(dio_pread(fd, buf, LEN, 0), LEN);
	res = tu_resident_pages(pd, LEN);
	ck_assert_msg(res == 0, "direct file: %ld of %ld pages resident", res,
	              LEN / ps);
	res = tu_resident_pages(pb, LEN);
	ck_assert_msg(res == LEN / ps, "buffered file: %ld of %ld pages resident",
	              res, LEN / ps);
	ck_assert_int_eq(dio_close(fd), 0);
	ck_assert_int_eq(dio_close(fb), 0);
	unlink(pd);
	unlink(pb);
	dio_free(buf);
}
END_TEST

/* O_DSYNC / O_SYNC writes, alone and with direct I/O, on this target. */
START_TEST(test_sync_writes)
{
	static const int syncs[] = { DIO_SYNC_DATA, DIO_SYNC_FULL };
	char path[512];
	size_t i;
	char *buf = dio_alloc(65536, 0), *back = dio_alloc(65536, 0);
	dio_file *f;
	int d;

	for (d = 0; d <= (want_direct ? 1 : 0); d++) {
		for (i = 0; i < 2; i++) {
			f = open_target(path, sizeof(path), "sync",
			                d ? DIO_DIRECT_ON : DIO_DIRECT_OFF, syncs[i]);
			ck_assert_int_eq(dio_file_sync(f), syncs[i]);
			ck_assert_int_ne(tu_getfl(dio_file_fd(f)) & O_SYNC, 0);
			tu_fill(buf, 65536, (uint32_t)(d * 2 + (int)i));
			ck_assert_int_eq(dio_pwrite(f, buf, 65536, 65536), 65536);
			ck_assert_int_eq(dio_pread(f, back, 65536, 65536), 65536);
			ck_assert_int_eq(memcmp(buf, back, 65536), 0);
			ck_assert_int_eq(dio_close(f), 0);
			remove_target(path);
		}
	}
	dio_free(buf);
	dio_free(back);
}
END_TEST

/* The file system type, and the device under it reported as in use. */
START_TEST(test_fs_type_and_device_in_use)
{
	char path[512], name[64], why[256], want[600];
	dio_file *f;
	int r;

	f = open_target(path, sizeof(path), "fstype", 0, 0);
	r = dio_fs_type(dio_file_fd(f), name, sizeof(name));
	if (strcmp(dio_backend_name(), "posix") == 0) {
		ck_assert_int_eq(r, -ENOTSUP);
	} else if (want_fstype != NULL) {
		ck_assert_int_eq(r, 0);
		ck_assert_str_eq(name, want_fstype);
	}
	ck_assert_int_eq(dio_close(f), 0);
	remove_target(path);
	if (target_is_dev) {
		r = dio_device_in_use(target, why, sizeof(why));
		if (strcmp(dio_backend_name(), "posix") == 0)
			ck_assert_int_eq(r, -ENOTSUP);
		else
			ck_assert_msg(r == 0, "%s in use? %d %s", target, r, why);
	}
	if (mounted_dev != NULL) {
		r = dio_device_in_use(mounted_dev, why, sizeof(why));
		if (strcmp(dio_backend_name(), "posix") == 0) {
			ck_assert_int_eq(r, -ENOTSUP);
		} else {
			ck_assert_int_eq(r, 1);
			snprintf(want, sizeof(want), "mounted on %s (%s)", target,
			         want_fstype ? want_fstype : "");
			if (want_fstype)
				ck_assert_str_eq(why, want);
		}
	}
}
END_TEST

static void
usage(void)
{
	fprintf(stderr, "usage: check_fs TARGET --direct yes|no [--pagecache yes|no] "
	        "[--align N] [--fstype NAME] [--mounted-dev DEV] [--refusal NAME]\n");
	exit(99);
}

static int
yesno(const char *v)
{
	if (v && strcmp(v, "yes") == 0)
		return 1;
	if (v && strcmp(v, "no") == 0)
		return 0;
	usage();
	return 0;
}

int
main(int argc, char **argv)
{
	struct stat st;
	Suite *s;
	TCase *tc;
	int i;

	if (argc < 2)
		usage();
	target = argv[1];
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--direct") == 0 && i + 1 < argc)
			want_direct = yesno(argv[++i]);
		else if (strcmp(argv[i], "--pagecache") == 0 && i + 1 < argc)
			want_pagecache = yesno(argv[++i]);
		else if (strcmp(argv[i], "--align") == 0 && i + 1 < argc)
			want_align = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--fstype") == 0 && i + 1 < argc)
			want_fstype = argv[++i];
		else if (strcmp(argv[i], "--mounted-dev") == 0 && i + 1 < argc)
			mounted_dev = argv[++i];
		else if (strcmp(argv[i], "--refusal") == 0 && i + 1 < argc)
			want_refusal = argv[++i];
		else
			usage();
	}
	if (want_direct < 0)
		usage();
	if (stat(target, &st) != 0) {
		perror(target);
		return 99;
	}
	target_is_dev = S_ISBLK(st.st_mode);
	if (!target_is_dev && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: neither a directory nor a block device\n", target);
		return 99;
	}
	printf("check_fs %s: direct %s, page cache check %s, backend %s\n", target,
	       want_direct ? "expected" : "refused",
	       want_direct && want_pagecache && !target_is_dev ? "on" : "off",
	       dio_backend_name());

	s = suite_create("fs");
	tc = tcase_create("behaviour");
	tcase_add_test(tc, test_direct_policy);
	tcase_add_test(tc, test_alignment_reported);
	tcase_add_test(tc, test_sync_writes);
	tcase_add_test(tc, test_fs_type_and_device_in_use);
	if (want_direct) {
		tcase_add_test(tc, test_direct_roundtrip);
		tcase_add_test(tc, test_misaligned_direct);
		if (want_pagecache && !target_is_dev)
			tcase_add_test(tc, test_page_cache_bypassed);
	}
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tu_run(srunner_create(s));
}
