/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_aio.c -- dio_read_discard() and the asynchronous queue dio_aio_*
 * on files in the test directory: every engine this build has (io_uring,
 * POSIX AIO, and AUTO) reads back what pwrite() wrote and writes what
 * pread() reads back, depth limits, bad descriptors, end of file, and the
 * -ENOTSUP answers where an engine or the discard path does not exist.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tests/testutil.h"

#define FILE_LEN (1u << 20)
#define CHUNK 4096u

static char path[512];
static unsigned char *data;

static void
make_file(void)
{
	int fd;

	data = malloc(FILE_LEN);
	ck_assert_ptr_nonnull(data);
	tu_fill(data, FILE_LEN, 42);
	tu_path(path, sizeof(path), NULL, "aio");
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, data, FILE_LEN, 0), (ssize_t)FILE_LEN);
	close(fd);
}

static void
drop_file(void)
{
	unlink(path);
	free(data);
	data = NULL;
}

/* ------------------------------------------------------------ discard */

START_TEST(test_discard)
{
	int fd = open(path, O_RDONLY);
	int64_t n;

	ck_assert_int_ge(fd, 0);
	n = dio_read_discard(fd, 0, FILE_LEN);
	if (strcmp(dio_backend_name(), "linux") != 0) {
		ck_assert_int_eq(n, -ENOTSUP);
		close(fd);
		return;
	}
	ck_assert_int_eq(n, FILE_LEN);
	/* Across the end: what is there; beyond it: 0. */
	ck_assert_int_eq(dio_read_discard(fd, FILE_LEN - 100, 4096), 100);
	ck_assert_int_eq(dio_read_discard(fd, FILE_LEN + 4096, 4096), 0);
	/* The descriptor's own offset is neither used nor moved. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 0);
	close(fd);
}
END_TEST

START_TEST(test_discard_errors)
{
	int fd = open(path, O_RDONLY);
	int expect_badf = strcmp(dio_backend_name(), "linux") == 0 ? -EBADF : -ENOTSUP;

	ck_assert_int_eq(dio_read_discard(-1, 0, 10), -EBADF);
	ck_assert_int_eq(dio_read_discard(fd, -1, 10), -EINVAL);
	close(fd);
	/* A closed descriptor (the number is free again). */
	ck_assert_int_eq(dio_read_discard(fd, 0, 10), expect_badf);
}
END_TEST

START_TEST(test_discard_write_only)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	if (strcmp(dio_backend_name(), "linux") == 0)
		ck_assert_int_eq(dio_read_discard(fd, 0, 4096), -EBADF);
	else
		ck_assert_int_eq(dio_read_discard(fd, 0, 4096), -ENOTSUP);
	close(fd);
}
END_TEST

/*
 * The library keeps a /dev/null descriptor for discard reads.  When the
 * application closes it (as daemons close every descriptor) and the number
 * names its own file next, the data must not go into that file.
 */
START_TEST(test_discard_fd_taken_over)
{
	int fd = open(path, O_RDONLY), k, app;
	char logpath[600];
	int64_t n;

	if (strcmp(dio_backend_name(), "linux") != 0) {
		close(fd);
		return;
	}
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dio_read_discard(fd, 0, CHUNK), CHUNK);
	/* Find the library's /dev/null among our descriptors and close it
	 * (only it: the test framework has descriptors of its own). */
	for (k = 3; k < 256; k++) {
		struct stat st, null;

		if (k != fd && fstat(k, &st) == 0 && stat("/dev/null", &null) == 0 &&
		    S_ISCHR(st.st_mode) && st.st_rdev == null.st_rdev)
			break;
	}
	ck_assert_int_lt(k, 256);
	close(k);
	snprintf(logpath, sizeof(logpath), "%s.applog", path);
	app = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_eq(app, k);   /* the number the library had */
	n = dio_read_discard(fd, 0, CHUNK);
	ck_assert_int_eq(n, CHUNK);
	ck_assert_int_eq(tu_file_size(logpath), 0);
	close(app);
	unlink(logpath);
	close(fd);
}
END_TEST

/* ------------------------------------------------------------ engines */

/* The engines under test: _i is the loop index over these. */
static const int engines[] = { DIO_AIO_IO_URING, DIO_AIO_POSIX, DIO_AIO_AUTO };

static dio_aio *
new_or_skip(unsigned depth, int engine)
{
	int err = 1;
	dio_aio *q = dio_aio_new(depth, engine, &err);

	if (engine != DIO_AIO_AUTO && !(dio_aio_engines() & (1u << engine))) {
		ck_assert_ptr_null(q);
		ck_assert_int_eq(err, -ENOTSUP);
		return NULL;
	}
	if (q == NULL && engine == DIO_AIO_IO_URING &&
	    (err == -ENOSYS || err == -EPERM || err == -ENOMEM)) {
		/* compiled in, refused by this kernel or sandbox */
		fprintf(stderr, "io_uring refused here: %s\n", dio_strerror(err));
		return NULL;
	}
	if (engine == DIO_AIO_AUTO && dio_aio_engines() == 0) {
		ck_assert_ptr_null(q);
		ck_assert_int_eq(err, -ENOTSUP);
		return NULL;
	}
	ck_assert_msg(q != NULL, "dio_aio_new(%u, %s): %s", depth,
	              dio_aio_engine_name(engine), dio_strerror(err));
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(dio_aio_depth(q), depth);
	if (engine != DIO_AIO_AUTO)
		ck_assert_int_eq(dio_aio_engine(q), engine);
	else
		ck_assert(dio_aio_engine(q) == DIO_AIO_IO_URING ||
		          dio_aio_engine(q) == DIO_AIO_POSIX);
	return q;
}

/* Read the whole file in CHUNK pieces with depth in flight, compare. */
START_TEST(test_read_matches_pread)
{
	unsigned depth = 8, next = 0, done = 0, nchunks = FILE_LEN / CHUNK, k;
	struct dio_aio_event ev[8];
	unsigned char *buf = malloc(FILE_LEN);
	unsigned char *ref = malloc(FILE_LEN);
	int fd = open(path, O_RDONLY), n;
	dio_aio *q = new_or_skip(depth, engines[_i]);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, ref, FILE_LEN, 0), (ssize_t)FILE_LEN);
	if (q == NULL)
		goto out;
	memset(buf, 0, FILE_LEN);
	while (done < nchunks) {
		while (next < nchunks && dio_aio_inflight(q) < depth) {
			/* Backwards, so completion order and offsets differ. */
			unsigned c = nchunks - 1 - next;

			ck_assert_int_eq(dio_aio_read(q, fd, buf + (size_t)c * CHUNK, CHUNK,
			                              (int64_t)c * CHUNK, 1000 + c), 0);
			next++;
		}
		if (dio_aio_inflight(q) == depth)
			ck_assert_int_eq(dio_aio_read(q, fd, buf, CHUNK, 0, 1), -EAGAIN);
		n = dio_aio_wait(q, ev, 8, 1);
		ck_assert_int_ge(n, 1);
		for (k = 0; k < (unsigned)n; k++) {
			ck_assert_uint_ge(ev[k].tag, 1000);
			ck_assert_uint_lt(ev[k].tag, 1000 + nchunks);
			ck_assert_int_eq(ev[k].result, CHUNK);
			done++;
		}
	}
	while (dio_aio_inflight(q) > 0) {
		n = dio_aio_wait(q, ev, 8, 1);
		ck_assert_int_ge(n, 1);
	}
	ck_assert_int_eq(memcmp(buf, ref, FILE_LEN), 0);
	ck_assert_int_eq(memcmp(buf, data, FILE_LEN), 0);
	dio_aio_free(q);
out:
	close(fd);
	free(buf);
	free(ref);
}
END_TEST

/* Write a new pattern through the queue, read it back with pread. */
START_TEST(test_write_then_pread)
{
	unsigned depth = 4, c, nchunks = 64;
	struct dio_aio_event ev[4];
	unsigned char *w = malloc(nchunks * CHUNK), *r = malloc(nchunks * CHUNK);
	int fd = open(path, O_RDWR), n;
	dio_aio *q = new_or_skip(depth, engines[_i]);

	ck_assert_int_ge(fd, 0);
	if (q == NULL)
		goto out;
	tu_fill(w, nchunks * CHUNK, 7 + (uint32_t)_i);
	for (c = 0; c < nchunks; c++) {
		if (dio_aio_inflight(q) == depth) {
			n = dio_aio_wait(q, ev, depth, depth);
			ck_assert_int_eq(n, (int)depth);
			while (n-- > 0)
				ck_assert_int_eq(ev[n].result, CHUNK);
		}
		ck_assert_int_eq(dio_aio_write(q, fd, w + c * CHUNK, CHUNK,
		                               4096 + (int64_t)c * CHUNK, c), 0);
		ck_assert_int_ge(dio_aio_submit(q), 0);
	}
	while (dio_aio_inflight(q) > 0) {
		n = dio_aio_wait(q, ev, depth, 1);
		ck_assert_int_ge(n, 1);
		while (n-- > 0)
			ck_assert_int_eq(ev[n].result, CHUNK);
	}
	ck_assert_int_eq(pread(fd, r, nchunks * CHUNK, 4096), (ssize_t)(nchunks * CHUNK));
	ck_assert_int_eq(memcmp(r, w, nchunks * CHUNK), 0);
	/* Restore the file for the other tests. */
	ck_assert_int_eq(pwrite(fd, data + 4096, nchunks * CHUNK, 4096),
	                 (ssize_t)(nchunks * CHUNK));
	dio_aio_free(q);
out:
	close(fd);
	free(w);
	free(r);
}
END_TEST

/* Errors come back as completions (bad fd, wrong direction), EOF as 0. */
START_TEST(test_errors_and_eof)
{
	struct dio_aio_event ev[4];
	char buf[CHUNK];
	int fd = open(path, O_RDONLY), n, i, seen_badf = 0, seen_eof = 0, seen_ro = 0;
	dio_aio *q = new_or_skip(4, engines[_i]);

	ck_assert_int_ge(fd, 0);
	if (q == NULL)
		goto out;
	/* Refused at queueing time: negative offset, NULL buffer, fd < 0. */
	ck_assert_int_eq(dio_aio_read(q, fd, buf, sizeof(buf), -1, 0), -EINVAL);
	ck_assert_int_eq(dio_aio_read(q, fd, NULL, sizeof(buf), 0, 0), -EINVAL);
	ck_assert_int_eq(dio_aio_read(q, -1, buf, sizeof(buf), 0, 0), -EINVAL);
	ck_assert_uint_eq(dio_aio_inflight(q), 0);
	/* Nothing in flight: wait returns 0 at once even with min 1. */
	ck_assert_int_eq(dio_aio_wait(q, ev, 4, 1), 0);

	n = dio_aio_read(q, 9999, buf, sizeof(buf), 0, 1);  /* not open */
	if (n == 0)
		seen_badf = -1;     /* reported as a completion */
	else
		ck_assert_int_eq(n, -EBADF);  /* POSIX AIO may refuse at once */
	ck_assert_int_eq(dio_aio_read(q, fd, buf, sizeof(buf), FILE_LEN + 10, 2), 0);
	ck_assert_int_eq(dio_aio_write(q, fd, buf, sizeof(buf), 0, 3), 0);
	n = 0;
	while (dio_aio_inflight(q) > 0) {
		int m = dio_aio_wait(q, ev, 4, 1);

		ck_assert_int_ge(m, 1);
		for (i = 0; i < m; i++) {
			if (ev[i].tag == 1) {
				ck_assert_int_eq(ev[i].result, -EBADF);
				seen_badf = 1;
			} else if (ev[i].tag == 2) {
				ck_assert_int_eq(ev[i].result, 0);
				seen_eof = 1;
			} else {
				ck_assert_uint_eq(ev[i].tag, 3);
				ck_assert_int_eq(ev[i].result, -EBADF);
				seen_ro = 1;
			}
		}
	}
	ck_assert(seen_badf != -1);
	ck_assert(seen_eof && seen_ro);
	dio_aio_free(q);
out:
	close(fd);
}
END_TEST

/* Reaping without waiting (min 0) collects completions as they come: a
 * loop of such reaps, doing nothing else, sees every request complete
 * with the right data. */
START_TEST(test_reap_without_waiting)
{
	struct dio_aio_event ev[8];
	struct timeval t0, t1;
	char *bufs = malloc(8 * CHUNK);
	int fd = open(path, O_RDONLY), n, i, got = 0;
	long spins = 0, ms;
	dio_aio *q = new_or_skip(8, engines[_i]);

	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(bufs);
	if (q == NULL)
		goto out;
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(dio_aio_read(q, fd, bufs + i * CHUNK, CHUNK,
		                              (int64_t)i * 3 * CHUNK, (uint64_t)i), 0);
	ck_assert_int_ge(dio_aio_submit(q), 0);
	gettimeofday(&t0, NULL);
	do {
		n = dio_aio_wait(q, ev, 8, 0);
		ck_assert_int_ge(n, 0);
		for (i = 0; i < n; i++) {
			ck_assert_int_eq(ev[i].result, (int64_t)CHUNK);
			ck_assert(memcmp(bufs + ev[i].tag * CHUNK,
			                 data + ev[i].tag * 3 * CHUNK, CHUNK) == 0);
		}
		got += n;
		spins++;
		gettimeofday(&t1, NULL);
		ms = (t1.tv_sec - t0.tv_sec) * 1000L + (t1.tv_usec - t0.tv_usec) / 1000L;
	} while (got < 8 && ms < 10000);
	ck_assert_msg(got == 8, "%d of 8 completions collected in %ld reaps over %ld ms",
	              got, spins, ms);
	ck_assert_uint_eq(dio_aio_inflight(q), 0);
	dio_aio_free(q);
out:
	free(bufs);
	close(fd);
}
END_TEST

/* Free with requests still in flight waits for them. */
START_TEST(test_free_in_flight)
{
	static char bufs[8][CHUNK];
	int fd = open(path, O_RDONLY), k;
	dio_aio *q = new_or_skip(8, engines[_i]);

	ck_assert_int_ge(fd, 0);
	if (q != NULL) {
		for (k = 0; k < 8; k++)
			ck_assert_int_eq(dio_aio_read(q, fd, bufs[k], CHUNK,
			                              (int64_t)k * CHUNK, (uint64_t)k), 0);
		ck_assert_int_eq(dio_aio_read(q, fd, bufs[0], CHUNK, 0, 99), -EAGAIN);
		ck_assert_uint_eq(dio_aio_inflight(q), 8);
		dio_aio_free(q);
	}
	close(fd);
}
END_TEST

/*
 * A signal before any completion: the wait says -EINTR (the request stays
 * in flight and completes later).  A read on an empty pipe never
 * completes by itself; an interval timer interrupts the wait.
 */
static void
on_alarm(int sig)
{
	(void)sig;
}

START_TEST(test_wait_interrupted)
{
	struct dio_aio_event ev[4];
	struct sigaction sa;
	struct itimerval it;
	char buf[16];
	int p[2], r;
	dio_aio *q = new_or_skip(4, engines[_i]);

	if (q == NULL)
		return;
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(dio_aio_read(q, p[0], buf, sizeof(buf), 0, 7), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;   /* no SA_RESTART */
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 50000;
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	r = dio_aio_wait(q, ev, 4, 1);
	ck_assert_msg(r == -EINTR, "%s: wait gave %d, not -EINTR",
	              dio_aio_engine_name(dio_aio_engine(q)), r);
	ck_assert_uint_eq(dio_aio_inflight(q), 1);
	/* Now let it complete. */
	ck_assert_int_eq(write(p[1], "hello", 5), 5);
	do
		r = dio_aio_wait(q, ev, 4, 1);
	while (r == -EINTR);
	ck_assert_int_eq(r, 1);
	ck_assert_uint_eq(ev[0].tag, 7);
	ck_assert_int_eq(ev[0].result, 5);
	dio_aio_free(q);
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(test_new_limits)
{
	int err = 0;

	ck_assert_ptr_null(dio_aio_new(0, DIO_AIO_AUTO, &err));
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_ptr_null(dio_aio_new(DIO_AIO_DEPTH_MAX + 1, DIO_AIO_AUTO, &err));
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_ptr_null(dio_aio_new(4, 7, &err));
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_ptr_null(dio_aio_new(0, DIO_AIO_AUTO, NULL));
	dio_aio_free(NULL);
	ck_assert_int_eq(dio_aio_engine(NULL), -EINVAL);
	ck_assert_uint_eq(dio_aio_inflight(NULL), 0);
	ck_assert_int_eq(dio_aio_read(NULL, 0, &err, 1, 0, 0), -EINVAL);
	ck_assert_int_eq(dio_aio_wait(NULL, NULL, 0, 0), -EINVAL);
	ck_assert_str_eq(dio_aio_engine_name(DIO_AIO_AUTO), "auto");
	ck_assert_str_eq(dio_aio_engine_name(DIO_AIO_IO_URING), "io_uring");
	ck_assert_str_eq(dio_aio_engine_name(DIO_AIO_POSIX), "posix-aio");
	ck_assert_str_eq(dio_aio_engine_name(42), "unknown");
}
END_TEST

START_TEST(test_depth_edges)
{
	dio_aio *q;
	int e = 1;

	/* Depth 1 and the largest depth both work with every engine built. */
	q = new_or_skip(1, DIO_AIO_AUTO);
	if (q != NULL) {
		char b[16];
		int fd = open(path, O_RDONLY);
		struct dio_aio_event ev;

		ck_assert_int_eq(dio_aio_read(q, fd, b, sizeof(b), 0, 5), 0);
		ck_assert_int_eq(dio_aio_read(q, fd, b, sizeof(b), 0, 6), -EAGAIN);
		ck_assert_int_eq(dio_aio_wait(q, &ev, 1, 1), 1);
		ck_assert_uint_eq(ev.tag, 5);
		ck_assert_int_eq(ev.result, 16);
		ck_assert_int_eq(memcmp(b, data, 16), 0);
		close(fd);
		dio_aio_free(q);
	}
	q = dio_aio_new(DIO_AIO_DEPTH_MAX, DIO_AIO_AUTO, &e);
	if (dio_aio_engines() != 0) {
		ck_assert_msg(q != NULL, "depth max: %s", dio_strerror(e));
		ck_assert_uint_eq(dio_aio_depth(q), DIO_AIO_DEPTH_MAX);
	}
	dio_aio_free(q);
}
END_TEST

/* Which engines exist follows the build: io_uring only on Linux. */
START_TEST(test_engines_mask)
{
	unsigned m = dio_aio_engines();
	int err = 0;

	ck_assert_uint_eq(m & 1u, 0);   /* AUTO is never a bit */
	if (strcmp(dio_backend_name(), "linux") != 0) {
		ck_assert_uint_eq(m & (1u << DIO_AIO_IO_URING), 0);
		ck_assert_ptr_null(dio_aio_new(4, DIO_AIO_IO_URING, &err));
		ck_assert_int_eq(err, -ENOTSUP);
	}
	printf("aio engines in this build:%s%s\n",
	       (m & (1u << DIO_AIO_IO_URING)) ? " io_uring" : "",
	       (m & (1u << DIO_AIO_POSIX)) ? " posix-aio" : "");
}
END_TEST

static Suite *
aio_suite(void)
{
	Suite *s = suite_create("aio");
	TCase *tc = tcase_create("discard");

	tcase_add_checked_fixture(tc, make_file, drop_file);
	tcase_add_test(tc, test_discard);
	tcase_add_test(tc, test_discard_errors);
	tcase_add_test(tc, test_discard_write_only);
	tcase_add_test(tc, test_discard_fd_taken_over);
	suite_add_tcase(s, tc);

	tc = tcase_create("queue");
	tcase_add_checked_fixture(tc, make_file, drop_file);
	tcase_add_loop_test(tc, test_read_matches_pread, 0, 3);
	tcase_add_loop_test(tc, test_write_then_pread, 0, 3);
	tcase_add_loop_test(tc, test_errors_and_eof, 0, 3);
	tcase_add_loop_test(tc, test_reap_without_waiting, 0, 3);
	tcase_add_loop_test(tc, test_free_in_flight, 0, 3);
	tcase_add_loop_test(tc, test_wait_interrupted, 0, 3);
	tcase_add_test(tc, test_new_limits);
	tcase_add_test(tc, test_depth_edges);
	tcase_add_test(tc, test_engines_mask);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(aio_suite());

	printf("libdirectio %s, backend %s, test dir %s\n", dio_version_string(),
	       dio_backend_name(), tu_dir());
	return tu_run(sr);
}
