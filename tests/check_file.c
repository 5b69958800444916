/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_file.c -- dio_open() policies and flags, dio_adopt(), the handle
 * getters and direct on/off, on files in the test directory; refusals of
 * direct I/O as values and in words.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
	const char *path = NULL, *text;
	char detail[256], words[256], want[300];
	struct dio_refusal why, kept;
	dio_file *f = NULL;
	int r, reason;

	/* The backend's own reason, not a generic one, as a value and in
	 * the words it had as text: procfs answers F_SETFL EINVAL, a build
	 * without O_DIRECT and the posix backend say so themselves. */
	if (!have_direct()) {
		path = "/dev/null";
		if (strcmp(dio_backend_name(), "linux") == 0) {
			reason = DIO_REFUSAL_NO_O_DIRECT;
			text = "this build has no O_DIRECT";
		} else {
			reason = DIO_REFUSAL_POSIX_BACKEND;
			text = "the posix backend has no direct I/O";
		}
	} else {
		path = "/proc/self/status";
		reason = DIO_REFUSAL_SETFL_EINVAL;
		text = "fcntl(F_SETFL, O_DIRECT) says EINVAL: the file system has no "
		       "direct I/O";
	}
	r = dio_open(&f, path, DIO_O_RDONLY, DIO_DIRECT_ON, 0, 0);
	ck_assert_int_eq(r, -ENOTSUP);
	ck_assert_ptr_null(f);
	memset(&why, 0x55, sizeof(why));
	r = dio_open_why(&f, path, DIO_O_RDONLY, DIO_DIRECT_ON, 0, 0, &why);
	ck_assert_int_eq(r, -ENOTSUP);
	ck_assert_ptr_null(f);
	ck_assert_str_eq(dio_refusal_name(why.reason), dio_refusal_name(reason));
	ck_assert_int_eq(why.err, -ENOTSUP);
	ck_assert_int_eq(why.sys_err, reason == DIO_REFUSAL_SETFL_EINVAL ? -EINVAL : 0);
	ck_assert_str_eq(why.fs, "");
	ck_assert_str_eq(why.driver, "");
	ck_assert_str_eq(dio_refusal_str(&why, words, sizeof(words)), text);

	ck_assert_int_eq(dio_open_why(&f, path, DIO_O_RDONLY, DIO_DIRECT_TRY, 0, 0,
	                              &why), 0);
	ck_assert_int_eq(why.reason, reason);
	ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_refusal(f, &kept), 0);
	ck_assert_int_eq(memcmp(&kept, &why, sizeof(why)), 0);
	ck_assert_int_eq(dio_fd_get_direct(dio_file_fd(f)), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_set_direct(f, DIO_DIRECT_ON), -ENOTSUP);
	ck_assert_int_eq(dio_file_errdetail(f, detail, sizeof(detail)), -ENOTSUP);
	snprintf(want, sizeof(want), "set direct on: %s", text);
	ck_assert_str_eq(detail, want);
	ck_assert_int_eq(dio_file_refusal(f, &kept), 0);
	ck_assert_int_eq(kept.reason, reason);
	ck_assert_int_eq(dio_file_set_direct(f, DIO_DIRECT_TRY), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_direct(f), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_refusal(f, &kept), 0);
	ck_assert_int_eq(kept.reason, reason);
	/* Turning it off is no request for direct I/O: the refusal stays. */
	ck_assert_int_eq(dio_file_set_direct(f, DIO_DIRECT_OFF), DIO_MECH_NONE);
	ck_assert_int_eq(dio_file_refusal(f, &kept), 0);
	ck_assert_int_eq(kept.reason, reason);
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

/*
 * Every reason in the words its backend wrote before the reason was a
 * value, byte for byte (tools quote them), and its name.
 */
START_TEST(test_refusal_words)
{
	static const struct {
		int reason, sys_err;
		const char *fs, *driver, *name, *text;
	} t[] = {
		{ DIO_REFUSAL_NONE, 0, "", "", "none", "" },
		{ DIO_REFUSAL_ERROR, 0, "", "", "error", NULL },
		{ DIO_REFUSAL_NO_O_DIRECT, 0, "", "", "no-o-direct",
		  "this build has no O_DIRECT" },
		{ DIO_REFUSAL_STATX_NO_DIO, 0, "", "", "statx-no-dio",
		  "statx reports no direct I/O alignment for it" },
		{ DIO_REFUSAL_SETFL_EINVAL, -EINVAL, "", "", "setfl-einval",
		  "fcntl(F_SETFL, O_DIRECT) says EINVAL: the file system has no "
		  "direct I/O" },
		{ DIO_REFUSAL_O_DIRECT_DROPPED, 0, "", "", "o-direct-dropped",
		  "O_DIRECT did not stay set on the descriptor" },
		{ DIO_REFUSAL_POSIX_BACKEND, 0, "", "", "posix-backend",
		  "the posix backend has no direct I/O" },
		{ DIO_REFUSAL_RAW_CACHED, 0, "", "zvol", "raw-cached",
		  "a zvol's reads and writes go through the ZFS ARC: its raw node "
		  "is not direct" },
		{ DIO_REFUSAL_RAW_CACHED, 0, "", "ramdisk", "raw-cached",
		  "a ramdisk is kernel memory: there is no device to go to: its raw "
		  "node is not direct" },
		{ DIO_REFUSAL_BLOCK_NODE, 0, "", "", "block-node",
		  "a block device node goes through the cache; its raw /dev/rdsk "
		  "node is direct" },
		{ DIO_REFUSAL_NOT_FILE_OR_DISK, 0, "", "", "not-file-or-disk",
		  "neither a regular file nor a disk" },
		{ DIO_REFUSAL_FS_ON_CACHED, 0, "ufs", "lofi", "fs-on-cached",
		  "ufs is on a device whose I/O is cached: lofi reads and writes its "
		  "backing file through that file's page cache" },
		{ DIO_REFUSAL_ZFS_IGNORES, 0, "zfs", "", "zfs-ignores",
		  "ZFS accepts directio() and ignores it: every read and write goes "
		  "through its cache" },
		{ DIO_REFUSAL_FS_NOT_KNOWN, 0, "tmpfs", "", "fs-not-known",
		  "tmpfs is not known to honour directio() (ufs, nfs and smbfs do)" },
		{ DIO_REFUSAL_DIRECTIO_CALL, -ENOTTY, "", "", "directio-call", NULL },
		{ DIO_REFUSAL_NO_DIRECTIO, 0, "", "", "no-directio",
		  "this build has no directio()" },
	};
	struct dio_refusal r;
	char buf[300], want[300];
	size_t i, j;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&r, 0, sizeof(r));
		r.reason = t[i].reason;
		r.err = t[i].reason == DIO_REFUSAL_ERROR ? -EIO :
		        t[i].reason == DIO_REFUSAL_NONE ? 0 : -ENOTSUP;
		r.sys_err = t[i].sys_err;
		snprintf(r.fs, sizeof(r.fs), "%s", t[i].fs);
		snprintf(r.driver, sizeof(r.driver), "%s", t[i].driver);
		if (t[i].reason == DIO_REFUSAL_ERROR)
			snprintf(want, sizeof(want), "%s", dio_strerror(EIO));
		else if (t[i].reason == DIO_REFUSAL_DIRECTIO_CALL)
			snprintf(want, sizeof(want), "directio(): %s", dio_strerror(ENOTTY));
		else
			snprintf(want, sizeof(want), "%s", t[i].text);
		ck_assert_ptr_eq(dio_refusal_str(&r, buf, sizeof(buf)), buf);
		ck_assert_str_eq(buf, want);
		ck_assert_str_eq(dio_refusal_name(t[i].reason), t[i].name);
		/* Cut to the room given, NUL included. */
		memset(buf, 'x', sizeof(buf));
		dio_refusal_str(&r, buf, 6);
		ck_assert_uint_eq(strlen(buf), strlen(want) < 5 ? strlen(want) : 5);
		ck_assert_int_eq(strncmp(buf, want, strlen(buf)), 0);
		/* One name a reason. */
		for (j = 0; j < i; j++)
			if (t[j].reason != t[i].reason)
				ck_assert_str_ne(t[j].name, t[i].name);
	}
	ck_assert_str_eq(dio_refusal_name(-1), "invalid");
	ck_assert_str_eq(dio_refusal_name(DIO_REFUSAL_NO_DIRECTIO + 1), "invalid");
	ck_assert_ptr_null(dio_refusal_str(&r, NULL, 0));
	ck_assert_str_eq(dio_refusal_str(NULL, buf, sizeof(buf)), "");
}
END_TEST

/* A value the caller made up, its names without a terminating NUL: the
 * words stop at the arrays' ends. */
START_TEST(test_refusal_unterminated)
{
	struct dio_refusal why;
	char buf[256], want[256];

	memset(&why, 'x', sizeof(why));
	why.reason = DIO_REFUSAL_FS_NOT_KNOWN;
	snprintf(want, sizeof(want), "%.*s is not known to honour directio() "
	         "(ufs, nfs and smbfs do)", (int)sizeof(why.fs), why.fs);
	ck_assert_str_eq(dio_refusal_str(&why, buf, sizeof(buf)), want);
	why.reason = DIO_REFUSAL_RAW_CACHED;
	snprintf(want, sizeof(want), "the I/O of driver %.*s ends in a cache: its "
	         "raw node is not direct", (int)sizeof(why.driver), why.driver);
	ck_assert_str_eq(dio_refusal_str(&why, buf, sizeof(buf)), want);
}
END_TEST

/*
 * What is kept when nothing was refused: a buffered open, an adopted
 * descriptor, an open that failed before direct I/O was asked, and
 * arguments that are not there.
 */
START_TEST(test_refusal_none)
{
	struct dio_refusal why;
	char path[512];
	dio_file *f = NULL;
	int fd, r;

	tu_path(path, sizeof(path), NULL, "refusal");
	memset(&why, 0x55, sizeof(why));
	ck_assert_int_eq(dio_open_why(&f, path, DIO_O_RDONLY, DIO_DIRECT_ON, 0, 0,
	                              &why), -ENOENT);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
	ck_assert_int_eq(why.err, 0);
	ck_assert_int_eq(dio_open_why(NULL, path, DIO_O_RDONLY, 0, 0, 0, &why), -EINVAL);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
	memset(&why, 0x55, sizeof(why));
	ck_assert_int_eq(dio_open_why(&f, path, DIO_O_RDWR | DIO_O_CREAT, DIO_DIRECT_OFF,
	                              0, 0600, &why), 0);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
	ck_assert_int_eq(dio_file_refusal(f, &why), 0);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
	ck_assert_int_eq(dio_file_refusal(f, NULL), -EINVAL);
	ck_assert_int_eq(dio_file_refusal(NULL, &why), -EINVAL);
	ck_assert_int_eq(dio_close(f), 0);
	/* Where the test directory takes direct I/O, a met request says
	 * nothing was refused. */
	r = dio_open_why(&f, path, DIO_O_RDWR, DIO_DIRECT_TRY, 0, 0, &why);
	ck_assert_int_eq(r, 0);
	if (dio_file_direct(f) != DIO_MECH_NONE)
		ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
	else
		ck_assert_int_ne(why.reason, DIO_REFUSAL_NONE);
	ck_assert_int_eq(dio_close(f), 0);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dio_adopt(&f, fd, 1), 0);
	memset(&why, 0x55, sizeof(why));
	ck_assert_int_eq(dio_file_refusal(f, &why), 0);
	ck_assert_int_eq(why.reason, DIO_REFUSAL_NONE);
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
	tcase_add_test(tc, test_refusal_words);
	tcase_add_test(tc, test_refusal_none);
	tcase_add_test(tc, test_refusal_unterminated);
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
