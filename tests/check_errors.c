/* SPDX-License-Identifier: BSD-2-Clause */
/* check_errors.c -- error names and messages, version, enum names. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libdirectio.h"
#include "tests/suites.h"

START_TEST(test_names_and_messages)
{
	ck_assert_str_eq(dio_err_name(-EINVAL), "EINVAL");
	ck_assert_str_eq(dio_err_name(EINVAL), "EINVAL");
	ck_assert_str_eq(dio_err_name(-ENOSPC), "ENOSPC");
	ck_assert_str_eq(dio_err_name(-ENOTSUP), "ENOTSUP");
	ck_assert_str_eq(dio_err_name(0), "OK");
	ck_assert_str_eq(dio_strerror(-EIO), "input/output error");
	ck_assert_str_eq(dio_strerror(-ENOTSUP), "operation not supported");
	ck_assert_str_eq(dio_strerror(-EROFS), "read-only file system");
	ck_assert_str_eq(dio_strerror(0), "success");
}
END_TEST

START_TEST(test_unknown_errors)
{
	char buf[64];

	ck_assert_str_eq(dio_err_name(-99999), "EUNKNOWN");
	ck_assert_str_eq(dio_strerror(-99999), "unknown error");
	ck_assert_ptr_eq(dio_strerror_r(-99999, buf, sizeof(buf)), buf);
	ck_assert_str_eq(buf, "unknown error 99999");
	/* Truncation keeps a terminated string and never overruns. */
	memset(buf, 'x', sizeof(buf));
	dio_strerror_r(-EINVAL, buf, 8);
	ck_assert_str_eq(buf, "invalid");
	ck_assert_int_eq(buf[8], 'x');
	ck_assert_ptr_eq(dio_strerror_r(-EINVAL, NULL, 0), NULL);
}
END_TEST

START_TEST(test_every_name_has_a_message)
{
	static const int codes[] = { EPERM, ENOENT, EINTR, EIO, ENXIO, EBADF,
		EAGAIN, ENOMEM, EACCES, EFAULT, EBUSY, EEXIST, ENODEV, ENOTDIR,
		EISDIR, EINVAL, EMFILE, ENOTTY, EFBIG, ENOSPC, EROFS, ENOSYS,
		ENOTSUP, ETIMEDOUT, EOVERFLOW, ENAMETOOLONG, EPIPE, ECONNREFUSED,
		ECONNRESET, ECONNABORTED, EHOSTUNREACH, ENETUNREACH, EADDRINUSE,
		EADDRNOTAVAIL };
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		ck_assert_str_ne(dio_err_name(-codes[i]), "EUNKNOWN");
		ck_assert_str_ne(dio_strerror(-codes[i]), "unknown error");
	}
}
END_TEST

START_TEST(test_version_and_names)
{
	ck_assert_uint_eq(dio_version(), DIO_VERSION_HEX);
	ck_assert_str_eq(dio_version_string(), PACKAGE_VERSION);
	{
		/* The header's numbers are the release's (configure.ac). */
		char v[32];

		snprintf(v, sizeof(v), "%d.%d.%d", DIO_VERSION_MAJOR,
		         DIO_VERSION_MINOR, DIO_VERSION_PATCH);
		ck_assert_str_eq(v, PACKAGE_VERSION);
	}
	ck_assert(strcmp(dio_backend_name(), "linux") == 0 ||
	          strcmp(dio_backend_name(), "sunos") == 0 ||
	          strcmp(dio_backend_name(), "posix") == 0);
	ck_assert_str_eq(dio_mech_name(DIO_MECH_O_DIRECT), "O_DIRECT");
	ck_assert_str_eq(dio_mech_name(DIO_MECH_DIRECTIO), "directio()");
	ck_assert_str_eq(dio_mech_name(DIO_MECH_NONE), "none");
	ck_assert_str_eq(dio_mech_name(42), "invalid");
	ck_assert_str_eq(dio_sync_flag_name(DIO_SYNCFLAG_O_DSYNC), "O_DSYNC");
	ck_assert_str_eq(dio_sync_name(DIO_SYNC_FULL), "full");
	ck_assert_str_eq(dio_commit_name(DIO_COMMIT_RWF_DSYNC), "rwf-dsync");
	ck_assert_str_eq(dio_align_source_name(DIO_ALIGN_SRC_STATX), "statx");
}
END_TEST

Suite *
errors_suite(void)
{
	Suite *s = suite_create("errors");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_names_and_messages);
	tcase_add_test(tc, test_unknown_errors);
	tcase_add_test(tc, test_every_name_has_a_message);
	tcase_add_test(tc, test_version_and_names);
	suite_add_tcase(s, tc);
	return s;
}
