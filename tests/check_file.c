/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_file.c -- dio_open() policies and flags, dio_adopt(), the handle
 * getters and direct on/off, on files in the test directory.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static int
have_direct(void)
{
	return (dio_caps() & (DIO_CAP_O_DIRECT | DIO_CAP_DIRECTIO)) != 0;
}

START_TEST(test_create_and_reopen)
{
	char path[512];
	dio_file *f = NULL;

	tu_path(path, sizeof(path), NULL, "create");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_WRONLY, 0, 0, 0), -ENOENT);
	ck_assert_ptr_null(f);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, DIO_DIRECT_OFF,
	                          DIO_SYNC_NONE, 0600), 0);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(dio_file_created(f), 1);
	ck_assert_int_ge(dio_file_fd(f), 0);
	ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_sync(f), DIO_SYNC_NONE);
	ck_assert_int_eq(dio_file_sync_flag(f), DIO_SYNCFLAG_NONE);
	ck_assert_int_eq(dio_close(f), 0);
	ck_assert_int_eq(tu_file_size(path), 0);

	/* It exists now: CREAT opens it without creating, EXCL refuses. */
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 0, 0600), 0);
	ck_assert_int_eq(dio_file_created(f), 0);
	ck_assert_int_eq(dio_close(f), 0);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT | DIO_O_EXCL,
	                          0, 0, 0600), -EEXIST);
	ck_assert_ptr_null(f);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(dio_close(NULL), 0);
}
END_TEST

START_TEST(test_bad_arguments)
{
	char path[512];
	dio_file *f = (dio_file *)&f;

	tu_path(path, sizeof(path), NULL, "badargs");
	ck_assert_int_eq(dio_open(NULL, path, 0, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(dio_open(&f, NULL, 0, 0, 0, 0), -EINVAL);
	ck_assert_ptr_null(f);
	ck_assert_int_eq(dio_open(&f, "", 0, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(dio_open(&f, path, 0x1000, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_WRONLY | DIO_O_RDWR, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_EXCL, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 3, 0, 0600), -EINVAL);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, -1, 0, 0600), -EINVAL);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 3, 0600), -EINVAL);
	/* None of these created the file. */
	ck_assert_int_eq(tu_file_size(path), -1);
	ck_assert_int_eq(dio_fd_set_direct(-1, 1), -EBADF);
	ck_assert_int_eq(dio_fd_get_direct(-1), -EBADF);
	ck_assert_int_eq(dio_file_direct(NULL), -EINVAL);
}
END_TEST

START_TEST(test_sync_flags_reach_the_descriptor)
{
	char path[512];
	dio_file *f;
	int fl;

	tu_path(path, sizeof(path), NULL, "sync");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_WRONLY | DIO_O_CREAT, 0,
	                          DIO_SYNC_DATA, 0600), 0);
	fl = tu_getfl(dio_file_fd(f));
	ck_assert_int_eq(dio_file_sync(f), DIO_SYNC_DATA);
#if HAVE_DECL_O_DSYNC
	ck_assert_int_eq(dio_file_sync_flag(f), DIO_SYNCFLAG_O_DSYNC);
	ck_assert_int_eq(fl & O_DSYNC, O_DSYNC);
	ck_assert_int_ne(fl & O_SYNC, O_SYNC);
#else
	ck_assert_int_eq(dio_file_sync_flag(f), DIO_SYNCFLAG_O_SYNC);
	ck_assert_int_eq(fl & O_SYNC, O_SYNC);
#endif
	ck_assert_int_eq(dio_close(f), 0);

	ck_assert_int_eq(dio_open(&f, path, DIO_O_WRONLY, 0, DIO_SYNC_FULL, 0), 0);
	fl = tu_getfl(dio_file_fd(f));
	ck_assert_int_eq(dio_file_sync(f), DIO_SYNC_FULL);
	ck_assert_int_eq(dio_file_sync_flag(f), DIO_SYNCFLAG_O_SYNC);
	ck_assert_int_eq(fl & O_SYNC, O_SYNC);
	ck_assert_int_eq(dio_close(f), 0);

	ck_assert_int_eq(dio_open(&f, path, DIO_O_WRONLY, 0, DIO_SYNC_NONE, 0), 0);
	fl = tu_getfl(dio_file_fd(f));
#if HAVE_DECL_O_DSYNC
	ck_assert_int_eq(fl & O_DSYNC, 0);
#endif
	ck_assert_int_eq(fl & O_SYNC, 0);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

START_TEST(test_access_modes_and_trunc)
{
	char path[512];
	dio_file *f;
	char buf[100];

	tu_path(path, sizeof(path), NULL, "modes");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_WRONLY | DIO_O_CREAT, 0, 0, 0600), 0);
	ck_assert_int_eq(tu_getfl(dio_file_fd(f)) & O_ACCMODE, O_WRONLY);
	memset(buf, 'a', sizeof(buf));
	ck_assert_int_eq(dio_pwrite(f, buf, sizeof(buf), 0), (int64_t)sizeof(buf));
	ck_assert_int_eq(dio_pread(f, buf, sizeof(buf), 0), -EBADF);
	ck_assert_int_eq(dio_close(f), 0);

	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDONLY, 0, 0, 0), 0);
	ck_assert_int_eq(tu_getfl(dio_file_fd(f)) & O_ACCMODE, O_RDONLY);
	ck_assert_int_eq(dio_pwrite(f, buf, sizeof(buf), 0), -EBADF);
	ck_assert_int_eq(dio_file_errdetail(f, buf, sizeof(buf)), -EBADF);
	ck_assert_str_eq(buf, "write: handle was opened read-only");
	ck_assert_int_eq(dio_close(f), 0);

	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_TRUNC, 0, 0, 0), 0);
	ck_assert_int_eq(tu_file_size(path), 0);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

START_TEST(test_append)
{
	char path[512], buf[64];
	dio_file *f;
	size_t n;
	char *data;

	tu_path(path, sizeof(path), NULL, "append");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_WRONLY | DIO_O_CREAT | DIO_O_APPEND,
	                          0, 0, 0600), 0);
	ck_assert_int_ne(tu_getfl(dio_file_fd(f)) & O_APPEND, 0);
	memcpy(buf, "first-", 6);
	ck_assert_int_eq(dio_pwrite(f, buf, 6, 0), 6);
	memcpy(buf, "second", 6);
	ck_assert_int_eq(dio_pwrite(f, buf, 6, 0), 6); /* offset ignored */
	ck_assert_int_eq(dio_close(f), 0);
	data = tu_slurp(path, &n);
	ck_assert_uint_eq(n, 12);
	ck_assert_int_eq(memcmp(data, "first-second", 12), 0);
	free(data);
	unlink(path);
}
END_TEST

START_TEST(test_adopt)
{
	char path[512];
	dio_file *f;
	int fd;

	tu_path(path, sizeof(path), NULL, "adopt");
#if HAVE_DECL_O_DSYNC
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DSYNC, 0600);
#else
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_SYNC, 0600);
#endif
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dio_adopt(&f, fd, 0), 0);
	ck_assert_int_eq(dio_file_fd(f), fd);
	ck_assert_int_eq(dio_file_created(f), 0);
#if HAVE_DECL_O_DSYNC
	ck_assert_int_eq(dio_file_sync(f), DIO_SYNC_DATA);
#else
	ck_assert_int_eq(dio_file_sync(f), DIO_SYNC_FULL);
#endif
	ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
	ck_assert_int_eq(dio_pwrite(f, "abc", 3, 0), 3);
	ck_assert_int_eq(dio_close(f), 0);
	/* Not owned: fd is still open. */
	ck_assert_int_ge(fcntl(fd, F_GETFL), 0);
	ck_assert_int_eq(dio_adopt(&f, fd, 1), 0);
	ck_assert_int_eq(dio_close(f), 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(dio_adopt(&f, fd, 1), -EBADF);
	ck_assert_ptr_null(f);
	unlink(path);
}
END_TEST

/*
 * /proc refuses O_DIRECT (procfs has no direct_IO), so on Linux it is a
 * real file system to show that ON fails and TRY falls back.  On the posix
 * backend every file refuses.
 */
START_TEST(test_direct_refused)
{
	const char *path = NULL;
	char detail[256];
	dio_file *f = NULL;
	int r;

	if (!have_direct())
		path = "/dev/null";
	else if (strcmp(dio_backend_name(), "linux") == 0)
		path = "/proc/self/status";
	r = dio_open(&f, path, DIO_O_RDONLY, DIO_DIRECT_ON, 0, 0);
	ck_assert_int_eq(r, -ENOTSUP);
	ck_assert_ptr_null(f);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDONLY, DIO_DIRECT_TRY, 0, 0), 0);
	ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
	ck_assert_int_eq(dio_fd_get_direct(dio_file_fd(f)), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_set_direct(f, DIO_DIRECT_ON), -ENOTSUP);
	ck_assert_int_eq(dio_file_errdetail(f, detail, sizeof(detail)), -ENOTSUP);
	/* The backend's own reason, not a generic one: linux names O_DIRECT
	 * or statx, the posix backend itself. */
	ck_assert_msg(strncmp(detail, "set direct on: ", 15) == 0 &&
	              (strstr(detail, "O_DIRECT") != NULL ||
	               strstr(detail, "statx") != NULL ||
	               strstr(detail, "posix backend") != NULL),
	              "reason '%s'", detail);
	ck_assert_int_eq(dio_file_set_direct(f, DIO_DIRECT_TRY), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
	ck_assert_int_gt(dio_pread(f, detail, 16, 0), -1);
	ck_assert_int_eq(dio_close(f), 0);
}
END_TEST

/* A file created by a DIRECT_ON open that then fails is removed again. */
START_TEST(test_direct_on_failure_removes_created_file)
{
	char path[512];
	dio_file *f = NULL;

	tu_path(path, sizeof(path), NULL, "refused");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, DIO_DIRECT_ON,
	                          0, 0600), -ENOTSUP);
	ck_assert_int_eq(tu_file_size(path), -1);
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, DIO_DIRECT_TRY,
	                          0, 0600), 0);
	ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_created(f), 1);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

Suite *
file_suite(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("open");

	tcase_add_test(tc, test_create_and_reopen);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_sync_flags_reach_the_descriptor);
	tcase_add_test(tc, test_access_modes_and_trunc);
	tcase_add_test(tc, test_append);
	tcase_add_test(tc, test_adopt);
	/* A file system that refuses direct I/O: with direct I/O compiled in,
	 * Linux has /proc; elsewhere the per-file-system runs (check_fs on
	 * ramfs) cover it.  Without it every file refuses. */
	if (!have_direct() || strcmp(dio_backend_name(), "linux") == 0)
		tcase_add_test(tc, test_direct_refused);
	if (!have_direct())
		tcase_add_test(tc, test_direct_on_failure_removes_created_file);
	suite_add_tcase(s, tc);
	return s;
}
