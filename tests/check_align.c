/* SPDX-License-Identifier: BSD-2-Clause */
/* check_align.c -- alignment facts and aligned allocation. */
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
#include "tests/suites.h"
#include "tests/testutil.h"

START_TEST(test_alloc)
{
	size_t aligns[] = { 0, 1, 8, 512, 4096, 65536 };
	long ps = sysconf(_SC_PAGESIZE);
	size_t i;
	char *p;

	for (i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
		p = dio_alloc(10000, aligns[i]);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq((uintptr_t)p % (aligns[i] ? aligns[i] : (size_t)ps), 0);
		memset(p, 0xa5, 10000);     /* all of it is usable */
		dio_free(p);
	}
	ck_assert_ptr_null(dio_alloc(100, 3));
	ck_assert_ptr_null(dio_alloc(100, 4097));
	p = dio_alloc(0, 0);
	ck_assert_ptr_nonnull(p);
	dio_free(p);
	dio_free(NULL);
}
END_TEST

/* First line of a small file in buf, or "" (no such file). */
static void
first_line(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");

	buf[0] = '\0';
	if (fp != NULL) {
		if (fgets(buf, (int)len, fp) == NULL)
			buf[0] = '\0';
		fclose(fp);
	}
}

/*
 * Linux: the "THPeligible:" value of the mapping of /proc/self/smaps that
 * holds p (1: its pages may be huge pages), or -1 if not found.
 */
static int
thp_eligible(const void *p)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	char line[256], perms[8];
	unsigned long lo, hi, a = (unsigned long)(uintptr_t)p;
	int in = 0, v = -1;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3)
			in = a >= lo && a < hi;     /* a mapping's first line */
		else if (in && sscanf(line, "THPeligible: %d", &v) == 1)
			break;
	}
	fclose(fp);
	return in ? v : -1;
}

START_TEST(test_alloc_large)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), pg = 12345, want = 0, pg2;
	char en[128], sz[64], *p, *q;

	/* What the platform should offer (Linux backend: transparent huge
	 * pages as sysfs describes them; POSIX backend: none). */
	if (strcmp(dio_backend_name(), "linux") == 0) {
		first_line("/sys/kernel/mm/transparent_hugepage/enabled", en, sizeof(en));
		first_line("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", sz, sizeof(sz));
		if (en[0] != '\0' && strstr(en, "[never]") == NULL && sz[0] != '\0')
			want = (size_t)strtoull(sz, NULL, 10);
	}
	p = dio_alloc_large(10000, 0, &pg);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(dio_large_page_size(), pg);
	memset(p, 0x5a, 10000);
	if (strcmp(dio_backend_name(), "posix") == 0 ||
	    strcmp(dio_backend_name(), "linux") == 0)
		ck_assert_uint_eq(pg, want);
	if (pg != 0) {
		/* a power of two above the base page, the start aligned to it,
		 * and a whole large page usable */
		ck_assert_uint_gt(pg, ps);
		ck_assert_uint_eq(pg & (pg - 1), 0);
		ck_assert_uint_eq((uintptr_t)p % pg, 0);
		memset(p, 0xa5, pg);
		if (strcmp(dio_backend_name(), "linux") == 0)
			ck_assert_int_eq(thp_eligible(p), 1);
		/* an alignment above the large page is kept */
		q = dio_alloc_large(100, pg * 2, &pg2);
		ck_assert_ptr_nonnull(q);
		ck_assert_uint_eq((uintptr_t)q % (pg * 2), 0);
		ck_assert_uint_eq(pg2, pg);
		dio_free(q);
	} else {
		ck_assert_uint_eq((uintptr_t)p % ps, 0);
		printf("dio_alloc_large: no large pages on this system (%s backend)\n",
		       dio_backend_name());
	}
	dio_free(p);
	/* a plain dio_alloc() buffer is not advised (THP "madvise": only
	 * advised memory is eligible) */
	if (want != 0 && strstr(en, "[madvise]") != NULL) {
		p = dio_alloc(want * 2, want);
		ck_assert_ptr_nonnull(p);
		memset(p, 1, want * 2);
		ck_assert_int_eq(thp_eligible(p), 0);
		dio_free(p);
	}
	/* bad alignment: NULL, *page_size 0; length 0 and no page_size: fine */
	pg = 12345;
	ck_assert_ptr_null(dio_alloc_large(100, 3, &pg));
	ck_assert_uint_eq(pg, 0);
	p = dio_alloc_large(0, 0, NULL);
	ck_assert_ptr_nonnull(p);
	dio_free(p);
}
END_TEST

START_TEST(test_regular_file)
{
	struct dio_align a, b;
	char path[512];
	struct stat st;
	dio_file *f;

	tu_path(path, sizeof(path), NULL, "align");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 0, 0600), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(dio_align_fd(dio_file_fd(f), &a), 0);
	ck_assert_int_eq(dio_align_path(path, &b), 0);
	ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
	ck_assert_int_eq(dio_file_align(f, &b), 0);
	ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
	ck_assert_uint_eq(a.preferred_io, (uint32_t)st.st_blksize);
	ck_assert_uint_eq(a.is_device, 0);
	ck_assert_uint_eq(a.device_bytes, 0);
	ck_assert_uint_le(a.source, DIO_ALIGN_SRC_GUESS);
	if (a.source != DIO_ALIGN_SRC_NONE) {
		/* Powers of two, and the granularity is at least 1. */
		ck_assert_uint_gt(a.offset_align, 0);
		ck_assert_uint_eq(a.offset_align & (a.offset_align - 1), 0);
		ck_assert_uint_gt(a.mem_align, 0);
		ck_assert_uint_eq(a.mem_align & (a.mem_align - 1), 0);
	} else {
		ck_assert_uint_eq(a.offset_align, 0);
		ck_assert_uint_eq(a.mem_align, 0);
	}
	if (!(dio_caps() & (DIO_CAP_O_DIRECT | DIO_CAP_DIRECTIO)))
		ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_NONE);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

START_TEST(test_char_device_and_errors)
{
	struct dio_align a;

	ck_assert_int_eq(dio_align_path("/dev/null", &a), 0);
	ck_assert_uint_eq(a.is_device, 1);
	ck_assert_uint_eq(a.source, DIO_ALIGN_SRC_NONE);
	ck_assert_uint_eq(a.offset_align, 0);
	ck_assert_int_eq(dio_align_path("/nonexistent/dio-test", &a), -ENOENT);
	ck_assert_int_eq(dio_align_fd(-1, &a), -EBADF);
	ck_assert_int_eq(dio_align_fd(0, NULL), -EINVAL);
	ck_assert_int_eq(dio_align_path(NULL, &a), -EINVAL);
}
END_TEST

START_TEST(test_device_in_use_errors)
{
	char why[128];

	ck_assert_int_eq(dio_device_in_use("/nonexistent/dio", why, sizeof(why)), -ENOENT);
	ck_assert_int_eq(dio_device_in_use(".", why, sizeof(why)), -ENOTBLK);
	ck_assert_int_eq(dio_device_in_use(NULL, why, sizeof(why)), -EINVAL);
	if (strcmp(dio_backend_name(), "linux") == 0) {
		/* Character devices are never mounted. */
		ck_assert_int_eq(dio_device_in_use("/dev/null", why, sizeof(why)), 0);
	}
	ck_assert_int_eq(dio_fs_type(-1, why, sizeof(why)), -EBADF);
	ck_assert_int_eq(dio_fs_type(0, NULL, 0), -EINVAL);
}
END_TEST

Suite *
align_suite(void)
{
	Suite *s = suite_create("align");
	TCase *tc = tcase_create("facts");

	tcase_add_test(tc, test_alloc);
	tcase_add_test(tc, test_alloc_large);
	tcase_add_test(tc, test_regular_file);
	tcase_add_test(tc, test_char_device_and_errors);
	tcase_add_test(tc, test_device_in_use_errors);
	suite_add_tcase(s, tc);
	return s;
}
