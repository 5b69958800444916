/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_io.c -- dio_pwrite()/dio_pread() retry rules, commit methods and
 * dio_pwrite_commit(), on files in the test directory (buffered handles;
 * direct transfers are covered per file system by check_fs).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tests/suites.h"
#include "tests/testutil.h"

START_TEST(test_roundtrip_and_eof)
{
	char path[512];
	size_t len = 300000;
	char *w = malloc(len), *r = malloc(len + 100);
	dio_file *f;

	tu_fill(w, len, 7);
	tu_path(path, sizeof(path), NULL, "rt");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 0, 0600), 0);
	ck_assert_int_eq(dio_pwrite(f, w, len, 1000), (int64_t)len);
	ck_assert_int_eq(tu_file_size(path), 1000 + (int64_t)len);
	/* A read across EOF returns what is there. */
	ck_assert_int_eq(dio_pread(f, r, len + 100, 1000), (int64_t)len);
	ck_assert_int_eq(memcmp(r, w, len), 0);
	ck_assert_int_eq(dio_pread(f, r, 10, 1000 + (int64_t)len), 0);
	/* The hole reads as zeros. */
	ck_assert_int_eq(dio_pread(f, r, 1000, 0), 1000);
	ck_assert_int_eq(r[0] | r[999], 0);
	ck_assert_int_eq(dio_pwrite(f, w, 0, 5), 0);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
	free(w);
	free(r);
}
END_TEST

START_TEST(test_bad_transfers)
{
	char path[512], detail[256], buf[16];
	dio_file *f;

	tu_path(path, sizeof(path), NULL, "badxfer");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 0, 0600), 0);
	ck_assert_int_eq(dio_file_errdetail(f, detail, sizeof(detail)), 0);
	ck_assert_str_eq(detail, "");
	ck_assert_int_eq(dio_pwrite(f, buf, sizeof(buf), -512), -EINVAL);
	ck_assert_int_eq(dio_file_errdetail(f, detail, sizeof(detail)), -EINVAL);
	ck_assert_str_eq(detail, "write at offset -512: negative offset");
	ck_assert_int_eq(dio_pwrite(f, NULL, 16, 0), -EFAULT);
	ck_assert_int_eq(dio_pread(f, NULL, 16, 0), -EFAULT);
	ck_assert_int_eq(dio_pwrite(f, buf, 16, INT64_MAX - 8), -EOVERFLOW);
	ck_assert_int_eq(dio_pwrite(NULL, buf, 16, 0), -EINVAL);
	ck_assert_int_eq(dio_commit(f, 99), -EINVAL);
	ck_assert_int_eq(dio_pwrite_commit(f, buf, 16, 0, 99), -EINVAL);
	/* Nothing was written by any of these. */
	ck_assert_int_eq(tu_file_size(path), 0);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

START_TEST(test_commit_methods)
{
	char path[512], buf[4096];
	dio_file *f;
	int m;

	ck_assert_int_eq(dio_commit_resolve(DIO_COMMIT_NONE), DIO_COMMIT_NONE);
	ck_assert_int_eq(dio_commit_resolve(DIO_COMMIT_FSYNC), DIO_COMMIT_FSYNC);
	m = dio_commit_resolve(DIO_COMMIT_FDATASYNC);
	ck_assert_int_eq(m, (dio_caps() & DIO_CAP_FDATASYNC) ? DIO_COMMIT_FDATASYNC
	                                                      : DIO_COMMIT_FSYNC);
	m = dio_commit_resolve(DIO_COMMIT_RWF_DSYNC);
	ck_assert_int_eq(m, (dio_caps() & DIO_CAP_RWF_DSYNC) ? DIO_COMMIT_RWF_DSYNC
	                                                      : -ENOTSUP);
	ck_assert_int_eq(dio_commit_resolve(-1), -EINVAL);

	tu_path(path, sizeof(path), NULL, "commit");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 0, 0600), 0);
	for (m = DIO_COMMIT_NONE; m <= DIO_COMMIT_RWF_DSYNC; m++) {
		tu_fill(buf, sizeof(buf), (uint32_t)m);
		ck_assert_int_eq(dio_commit(f, m), 0);
		if (m == DIO_COMMIT_RWF_DSYNC && !(dio_caps() & DIO_CAP_RWF_DSYNC)) {
			ck_assert_int_eq(dio_pwrite_commit(f, buf, sizeof(buf),
			                                   4096 * m, m), -ENOTSUP);
			continue;
		}
		ck_assert_int_eq(dio_pwrite_commit(f, buf, sizeof(buf), 4096 * m, m),
		                 (int64_t)sizeof(buf));
	}
	for (m = DIO_COMMIT_NONE; m <= DIO_COMMIT_RWF_DSYNC; m++) {
		char want[4096];

		if (m == DIO_COMMIT_RWF_DSYNC && !(dio_caps() & DIO_CAP_RWF_DSYNC))
			break;
		tu_fill(want, sizeof(want), (uint32_t)m);
		ck_assert_int_eq(dio_pread(f, buf, sizeof(buf), 4096 * m), 4096);
		ck_assert_int_eq(memcmp(buf, want, sizeof(buf)), 0);
	}
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

/*
 * A short write (here: the file size limit cuts a write in two) is retried,
 * and the failure of the retry is reported with how far it got.
 */
START_TEST(test_short_write_then_error)
{
	char path[512], detail[256];
	struct rlimit rl, old;
	static char buf[8192];
	dio_file *f;

	signal(SIGXFSZ, SIG_IGN);
	tu_path(path, sizeof(path), NULL, "fsize");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 0, 0600), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	rl = old;
	rl.rlim_cur = 4196;     /* soft limit only: it can be restored */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	ck_assert_int_eq(dio_pwrite(f, buf, sizeof(buf), 0), -EFBIG);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_int_eq(dio_file_errdetail(f, detail, sizeof(detail)), -EFBIG);
	ck_assert_str_eq(detail, "write of 8192 bytes at offset 0 failed after 4196 "
	                 "bytes: file too large");
	ck_assert_int_eq(tu_file_size(path), 4196);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

static void
on_alarm(int sig)
{
	(void)sig;
}

/*
 * Writes into a pipe that a slow reader drains, while an interval timer
 * interrupts the writer every 200 us without SA_RESTART: write() then
 * returns short counts and EINTR, and dio_pwrite() must still deliver
 * every byte exactly once.
 */
START_TEST(test_eintr_and_short_writes_on_a_pipe)
{
	enum { LEN = 1 << 20 };
	struct sigaction sa;
	struct itimerval it;
	char *w = malloc(LEN), *r = malloc(LEN);
	int p[2], status;
	size_t got = 0;
	pid_t pid;
	dio_file *f;

	tu_fill(w, LEN, 99);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Reader: slow, small reads, then send everything back by exit
		 * status: 0 if the data matched. */
		ssize_t n;

		close(p[1]);
		while (got < LEN && (n = read(p[0], r + got, 4096)) > 0) {
			got += (size_t)n;
			if ((got & 0xffff) == 0)
				usleep(1000);   /* the slow reader is the workload, not a wait */
		}
		_exit(got == LEN && memcmp(r, w, LEN) == 0 ? 0 : 1);
	}
	close(p[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;    /* no SA_RESTART */
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	it.it_interval.tv_sec = it.it_value.tv_sec = 0;
	it.it_interval.tv_usec = it.it_value.tv_usec = 200;
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);

	/* O_APPEND makes dio_pwrite() use write(): pipes cannot pwrite. */
	ck_assert_int_eq(fcntl(p[1], F_SETFL, O_APPEND), 0);
	ck_assert_int_eq(dio_adopt(&f, p[1], 1), 0);
	ck_assert_int_eq(dio_pwrite(f, w, LEN, 0), LEN);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	ck_assert_int_eq(dio_close(f), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	free(w);
	free(r);
}
END_TEST

/* Many threads share one handle: positional transfers and commits from all
 * of them land exactly, and failure details stay whole strings. */
struct share_arg {
	dio_file *f;
	int id;
	int bad;
};

static void *
share_thread(void *p)
{
	struct share_arg *a = p;
	char buf[8192], back[8192], detail[256];
	int i;

	for (i = 0; i < 50; i++) {
		int64_t off = ((int64_t)a->id * 50 + i) * (int64_t)sizeof(buf);

		tu_fill(buf, sizeof(buf), (uint32_t)(a->id * 1000 + i));
		if (dio_pwrite_commit(a->f, buf, sizeof(buf), off,
		                      i % 2 ? DIO_COMMIT_FDATASYNC : DIO_COMMIT_NONE)
		    != (int64_t)sizeof(buf))
			a->bad++;
		if (dio_pread(a->f, back, sizeof(back), off) != (int64_t)sizeof(back) ||
		    memcmp(buf, back, sizeof(buf)) != 0)
			a->bad++;
		/* a failing call, and a read of the shared detail */
		if (dio_pwrite(a->f, buf, 1, -1) != -EINVAL)
			a->bad++;
		dio_file_errdetail(a->f, detail, sizeof(detail));
		if (strcmp(detail, "write at offset -1: negative offset") != 0)
			a->bad++;
	}
	return NULL;
}

START_TEST(test_threads_share_a_handle)
{
	enum { N = 8 };
	struct share_arg args[N];
	pthread_t t[N];
	char path[512];
	dio_file *f;
	int i;

	tu_path(path, sizeof(path), NULL, "threads");
	ck_assert_int_eq(dio_open(&f, path, DIO_O_RDWR | DIO_O_CREAT, 0, 0, 0600), 0);
	for (i = 0; i < N; i++) {
		args[i].f = f;
		args[i].id = i;
		args[i].bad = 0;
		ck_assert_int_eq(pthread_create(&t[i], NULL, share_thread, &args[i]), 0);
	}
	for (i = 0; i < N; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_int_eq(args[i].bad, 0);
	}
	ck_assert_int_eq(tu_file_size(path), N * 50 * 8192);
	ck_assert_int_eq(dio_close(f), 0);
	unlink(path);
}
END_TEST

/* The log callback receives the library's messages, filtered by level. */
struct log_capture {
	int n;
	int level;
	char last[300];
};

static void
capture(int level, const char *msg, void *arg)
{
	struct log_capture *c = arg;

	c->n++;
	c->level = level;
	snprintf(c->last, sizeof(c->last), "%s", msg);
}

START_TEST(test_log_callback)
{
	struct log_capture c;
	dio_file *f = NULL;

	memset(&c, 0, sizeof(c));
	dio_set_log_fn(capture, &c, DIO_LOG_DEBUG);
	ck_assert_int_eq(dio_open(&f, "/nonexistent/dio/x", DIO_O_RDONLY, 0, 0, 0), -ENOENT);
	ck_assert_int_eq(c.n, 1);
	ck_assert_int_eq(c.level, DIO_LOG_DEBUG);
	ck_assert_str_eq(c.last, "open /nonexistent/dio/x: no such file or directory");
	/* above the maximum level: not produced */
	dio_set_log_fn(capture, &c, DIO_LOG_WARN);
	ck_assert_int_eq(dio_open(&f, "/nonexistent/dio/x", DIO_O_RDONLY, 0, 0, 0), -ENOENT);
	ck_assert_int_eq(c.n, 1);
	/* removed: nothing */
	dio_set_log_fn(NULL, NULL, 0);
	ck_assert_int_eq(dio_open(&f, "/nonexistent/dio/x", DIO_O_RDONLY, 0, 0, 0), -ENOENT);
	ck_assert_int_eq(c.n, 1);
}
END_TEST

Suite *
io_suite(void)
{
	Suite *s = suite_create("io");
	TCase *tc = tcase_create("transfers");

	tcase_add_test(tc, test_roundtrip_and_eof);
	tcase_add_test(tc, test_bad_transfers);
	tcase_add_test(tc, test_commit_methods);
	tcase_add_test(tc, test_short_write_then_error);
	tcase_add_test(tc, test_eintr_and_short_writes_on_a_pipe);
	tcase_add_test(tc, test_threads_share_a_handle);
	tcase_add_test(tc, test_log_callback);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
