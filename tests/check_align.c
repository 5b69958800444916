/* check_align.c -- alignment facts and aligned allocation. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
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
	tcase_add_test(tc, test_regular_file);
	tcase_add_test(tc, test_char_device_and_errors);
	tcase_add_test(tc, test_device_in_use_errors);
	suite_add_tcase(s, tc);
	return s;
}
