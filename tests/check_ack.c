/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_ack.c -- acknowledgement records (tools/kit/ack*.c, with
 * sync-write's records, tools/sw/ackrec.c): to a file,
 * and through a listener on this machine's loopback: a record counts only
 * once the listener's log holds it, senders in several processes each
 * with a connection, bad addresses and lines, a listener that goes away;
 * the record reader's strict syntax; a log per run when runs come at
 * once; strays, floods that never read their answers, the cap on
 * connections, a stop and a full log, none of which loses an answered
 * record or writes a torn one.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/libdirectio.h"
#include "tools/kit/ack.h"
#include "tools/sw/ackrec.h"
#include "tests/testutil.h"

struct server {
	int lfd, logfd, port, ret;
	volatile sig_atomic_t stop;
	struct diot_ack_serve_cfg cfg;
	struct diot_ack_stats st;
	char err[256];
	char logpath[512];
	char notes[2048];
	pthread_t thr;
	volatile sig_atomic_t done;     /* diot_ack_serve() returned */
};

static void
take_note(void *arg, const char *msg)
{
	struct server *s = arg;
	size_t n = strlen(s->notes);

	snprintf(s->notes + n, sizeof(s->notes) - n, "%s\n", msg);
}

static void *
serve(void *p)
{
	struct server *s = p;

	s->ret = diot_ack_serve(&s->cfg, &s->stop, &s->st, s->err, sizeof(s->err));
	s->done = 1;
	return NULL;
}

/* A listener on loopback logging to a new file (hello_s, stall_s: 0 for
 * the defaults); server_go() has a thread serve it. */
static void
server_init(struct server *s, int hello_s, int stall_s)
{
	memset(s, 0, sizeof(*s));
	tu_path(s->logpath, sizeof(s->logpath), tu_dir(), "acklog");
	s->logfd = open(s->logpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	ck_assert_int_ge(s->logfd, 0);
	s->lfd = diot_ack_listen("127.0.0.1:0", &s->port, s->err, sizeof(s->err));
	ck_assert_msg(s->lfd >= 0, "listen: %s", s->err);
	ck_assert_int_gt(s->port, 0);
	s->cfg.lfd = s->lfd;
	s->cfg.logfd = s->logfd;
	s->cfg.logpath = s->logpath;
	s->cfg.records = &sw_ackrec_records;
	s->cfg.hello_s = hello_s;
	s->cfg.stall_s = stall_s;
	s->cfg.note = take_note;
	s->cfg.note_arg = s;
	s->cfg.runs = 1;        /* returns once one run has ended */
}

static void
server_go(struct server *s)
{
	ck_assert_int_eq(pthread_create(&s->thr, NULL, serve, s), 0);
}

static void
server_start_t(struct server *s, int hello_s, int stall_s)
{
	server_init(s, hello_s, stall_s);
	server_go(s);
}

static void
server_start(struct server *s)
{
	server_start_t(s, 0, 0);
}

static void
server_join(struct server *s)
{
	pthread_join(s->thr, NULL);
	close(s->lfd);
	close(s->logfd);
}

/* A sender of run `run` (its hello answered). */
static void
sender(struct diot_ack *a, int port, uint64_t run)
{
	char spec[64], err[256];

	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", port);
	ck_assert_msg(diot_ack_open(a, spec, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(diot_ack_set_run(a, run, err, sizeof(err)) == 0, "%s", err);
}

/* A raw connection: the bytes a test writes are what the listener gets. */
static int
raw(int port)
{
	char spec[64], err[256];
	struct diot_ack a;

	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", port);
	ck_assert_msg(diot_ack_open(&a, spec, err, sizeof(err)) == 0, "%s", err);
	return a.fd;
}

static void
raw_send(int fd, const char *s, size_t n)
{
	ck_assert_int_eq(send(fd, s, n, MSG_NOSIGNAL), (ssize_t)n);
}

/* The connection was closed by the listener (EOF or a reset), within a
 * bounded wait. */
static int
closed_by_peer(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char c[64];

	for (;;) {
		if (poll(&p, 1, 20000) != 1)
			return 0;
		if (recv(fd, c, sizeof(c), 0) <= 0)
			return 1;
	}
}

static char *
slurp_str(const char *path)
{
	size_t n;
	char *b = tu_slurp(path, &n), *s = malloc(n + 1);

	ck_assert_ptr_nonnull(s);
	if (n)
		memcpy(s, b, n);
	s[n] = '\0';
	free(b);
	return s;
}

static int
count_lines(const char *s, const char *prefix)
{
	int n = 0;
	size_t pl = strlen(prefix);

	for (; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s))
		n += strncmp(s, prefix, pl) == 0;
	return n;
}

static void
spec_of(char *buf, size_t len, int port)
{
	snprintf(buf, len, "tcp:127.0.0.1:%d", port);
}

START_TEST(test_file)
{
	char path[512], err[256], *s;
	struct diot_ack a, b;

	tu_path(path, sizeof(path), tu_dir(), "ackfile");
	ck_assert_int_eq(diot_ack_open(&a, path, err, sizeof(err)), 0);
	ck_assert_int_eq(a.kind, DIOT_ACK_FILE);
	ck_assert_int_eq(a.created, 1);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 1 4096\n", 11), 0);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 2 8192\n", 11), 0);
	/* Not a record: no newline, a NUL inside, empty. */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 3", 5), -EINVAL);
	ck_assert_int_eq(diot_ack_send(&a, "A\0 3\n", 5), -EINVAL);
	ck_assert_int_eq(diot_ack_send(&a, "", 0), -EINVAL);
	diot_ack_close(&a);
	s = slurp_str(path);
	ck_assert_str_eq(s, "A 0 1 4096\nA 0 2 8192\n");
	free(s);
	/* An existing log is refused: it is another run's record. */
	ck_assert_int_eq(diot_ack_open(&b, path, err, sizeof(err)), -EEXIST);
	ck_assert_msg(strstr(err, "exists") != NULL, "%s", err);
	unlink(path);
}
END_TEST

/* The records' syntax, strictly: what sync-write writes, nothing else. */
START_TEST(test_record_syntax)
{
	static const char *const good[] = {
		"# sync-write ack-log 1\n", "R 1a2b shared 0 65536 /tmp/f\n",
		"R ffffffffffffffff separate 1 18446744073709551615 a b  c\n", "R 0 shared 1 1 x\n",
		"T file 123 0\n", "T device 0 1073741824\n", "T file 5 0 16060082551697615120\n", "P 0 fdatasync 4096 4 16\n",
		"P 2147483647 direct+dsync 1048576 256 18446744073709551615\n",
		"P 1 rwf-dsync 4096 1 1\n", "I 0 0 0\n", "A 255 18446744073709551615 0\n",
		"A 2147483647 0 7\n", "E\n",
	};
	static const char *const bad[] = {
		"", "\n", "E", "E \n", " E\n", "E\nE\n", "# sync-write ack-log 2\n",
		"# sync-write ack-log 1 \n", "#sync-write ack-log 1\n",
		"R 1A2B shared 0 1 p\n", "R 12345678901234567 shared 0 1 p\n",
		"R 1 both 0 1 p\n", "R 1 shared 2 1 p\n", "R 1 shared 0 01 p\n",
		"R 1 shared 0 1 \n", "R 1 shared 0 1\n", "R  1 shared 0 1 p\n", "R -1 shared 0 1 p\n",
		"R 1 shared 0 18446744073709551616 p\n", "T file -1 0\n",
		"T file 1 18446744073709551616\n", "T disk 1 0\n", "T file 1 0 \n",
		"T file  1 0\n", "T file 1\n", "T file 1 0 1 \n", "T file 1 0 1 2\n", "T file 1 0 01\n", "P 0 fdat sync 4096 4 16\n", "P 2147483648 m 1 1 1\n",
		"P 0 m 1 1\n", "P 0 m\xff 1 1 1\n", "P 0  1 1 1\n", "I 0 0\n", "I 0 0 0 0\n",
		"I +1 0 0\n", "I 00 0 0\n", "A 0 0 0x10\n", "A 2147483648 0 0\n", "X 0 0 0\n",
		"H 1 ab\n", "A\t0 0 0\n", "a 0 0 0\n", "A 0 0 0\r\n", "A 0 0 0",
	};
	char m64[128], m63[128];
	uint64_t run = 0;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(sw_ackrec_check(good[i], strlen(good[i]), NULL),
		              "refused: %s", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!sw_ackrec_check(bad[i], strlen(bad[i]), NULL),
		              "accepted: %s", bad[i]);
	ck_assert(!sw_ackrec_check("A 0\0 0 0\n", 9, NULL));
	ck_assert_int_eq(sw_ackrec_check("R abc shared 0 4096 /x\n", 23, &run), DIOT_ACK_REC_RUN);
	ck_assert_int_eq(sw_ackrec_check("E\n", 2, NULL), DIOT_ACK_REC_END);
	ck_assert_int_eq(sw_ackrec_check("A 0 0 0\n", 8, NULL), DIOT_ACK_REC_YES);
	ck_assert_uint_eq(run, 0xabc);
	snprintf(m63, sizeof(m63), "P 0 %063d 1 1 1\n", 0);
	snprintf(m64, sizeof(m64), "P 0 %064d 1 1 1\n", 0);
	ck_assert(sw_ackrec_check(m63, strlen(m63), NULL));
	ck_assert(!sw_ackrec_check(m64, strlen(m64), NULL));
	ck_assert(diot_ack_hello_check("H 1 ab\n", 7, &run) && run == 0xab);
	ck_assert(!diot_ack_hello_check("H 1 ab \n", 8, &run));
	ck_assert(!diot_ack_hello_check("H 1 AB\n", 7, &run));
	ck_assert(!diot_ack_hello_check("H 1 \n", 5, &run));
	ck_assert(!diot_ack_hello_check("H 01 ab\n", 8, &run));
}
END_TEST

/* Feed s to a new reader n bytes at a time; the kinds it says go to
 * kinds (ending in MORE or the bad reason). */
static int
feed(struct diot_ack_reader *rd, const char *s, size_t len, size_t step, int *kinds,
     int max)
{
	size_t at = 0;
	int nk = 0, k;
	const char *line;
	size_t ll;

	diot_ack_reader_init(rd, &sw_ackrec_records);
	for (;;) {
		size_t n = len - at < step ? len - at : step;

		at += diot_ack_reader_put(rd, s + at, n);
		while ((k = diot_ack_reader_next(rd, &line, &ll)) > 0) {
			ck_assert(ll > 0 && line[ll - 1] == '\n');
			ck_assert_int_lt(nk, max);
			kinds[nk++] = k;
		}
		if (k < 0 || at == len) {
			kinds[nk++] = k;
			return nk;
		}
	}
}

START_TEST(test_reader)
{
	static const char stream[] = "H 1 ab\nR ab shared 0 4096 /f\nA 0 0 0\nE\nA 0 1";
	struct diot_ack_reader *rd = malloc(sizeof(*rd));
	int k[16], n, i;
	size_t step;
	char *big;
	const char *line;
	size_t len;

	ck_assert_ptr_nonnull(rd);
	/* The same lines whatever the bytes' grouping. */
	for (step = 1; step < sizeof(stream); step++) {
		n = feed(rd, stream, sizeof(stream) - 1, step, k, 15);
		ck_assert_int_eq(n, 5);
		ck_assert_int_eq(k[0], DIOT_ACK_HELLO);
		ck_assert_int_eq(k[1], DIOT_ACK_RECORD);
		ck_assert_int_eq(k[2], DIOT_ACK_RECORD);
		ck_assert_int_eq(k[3], DIOT_ACK_RECORD);
		ck_assert_int_eq(k[4], DIOT_ACK_MORE);
		ck_assert_uint_eq(rd->run, 0xab);
	}
	/* What cuts the connection, and stays so. */
	n = feed(rd, "A 0 0 0\n", 8, 100, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_HELLO);
	ck_assert_int_eq(diot_ack_reader_next(rd, &line, &len), DIOT_ACK_BAD_HELLO);
	ck_assert_uint_eq(diot_ack_reader_put(rd, "E\n", 2), 0);
	ck_assert_int_eq(diot_ack_reader_next(rd, &line, &len), DIOT_ACK_BAD_HELLO);
	n = feed(rd, "H 1 ab\nR ac shared 0 1 p\n", 25, 100, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_RUN);
	n = feed(rd, "H 1 ab\nH 1 ab\n", 14, 3, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_HELLO);
	n = feed(rd, "H 1 ab\nA 0 0 0\nE 0\n", 19, 2, k, 15);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_RECORD);
	n = feed(rd, "H 1 ab\nA 0 \0 0\n", 15, 100, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_NUL);
	/* The longest record fits; one byte more does not. */
	big = malloc(DIOT_ACK_LINE_MAX + 16);
	ck_assert_ptr_nonnull(big);
	memcpy(big, "H 1 1\nR 1 shared 0 1 ", 21);
	for (i = 21; i < 6 + DIOT_ACK_LINE_MAX - 1; i++)
		big[i] = 'p';
	big[6 + DIOT_ACK_LINE_MAX - 1] = '\n';
	n = feed(rd, big, 6 + DIOT_ACK_LINE_MAX, 1000, k, 15);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(k[1], DIOT_ACK_RECORD);
	big[6 + DIOT_ACK_LINE_MAX - 1] = 'p';
	big[6 + DIOT_ACK_LINE_MAX] = '\n';
	n = feed(rd, big, 6 + DIOT_ACK_LINE_MAX + 1, 1000, k, 15);
	ck_assert_int_eq(k[n - 1], DIOT_ACK_BAD_LONG);
	ck_assert_str_ne(diot_ack_bad_name(NULL, DIOT_ACK_BAD_LONG), "?");
	ck_assert_str_eq(diot_ack_bad_name(&sw_ackrec_records, DIOT_ACK_BAD_RUN),
	                 "an R record of another run than its hello's");
	/* Without a tool's records the reader takes none (fails closed). */
	diot_ack_reader_init(rd, NULL);
	ck_assert_uint_eq(diot_ack_reader_put(rd, "H 1 ab\nE\n", 9), 9);
	ck_assert_int_eq(diot_ack_reader_next(rd, &line, &len), DIOT_ACK_HELLO);
	ck_assert_int_eq(diot_ack_reader_next(rd, &line, &len), DIOT_ACK_BAD_RECORD);
	free(big);
	free(rd);
}
END_TEST

/* An ack log is never waited on: a FIFO is refused (with no reader, and
 * one made after the check would fail rather than wait), so are a
 * directory and an existing log unless appending. */
START_TEST(test_open_log)
{
	char path[512], err[256];
	struct diot_ack a;
	int fd;

	tu_path(path, sizeof(path), tu_dir(), "ackfifo");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_lt(diot_ack_open_log(path, 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "FIFO") != NULL, "%s", err);
	ck_assert_int_lt(diot_ack_open_log(path, 0, err, sizeof(err)), 0);
	ck_assert_int_lt(diot_ack_open(&a, path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "FIFO") != NULL, "%s", err);
	unlink(path);
	ck_assert_int_lt(diot_ack_open_log(tu_dir(), 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "directory") != NULL, "%s", err);
	fd = diot_ack_open_log(path, 0, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(write(fd, "E\n", 2), 2);
	close(fd);
	ck_assert_int_eq(diot_ack_open_log(path, 0, err, sizeof(err)), -EEXIST);
	fd = diot_ack_open_log(path, 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(write(fd, "E\n", 2), 2);
	ck_assert_int_eq(tu_getfl(fd) & O_NONBLOCK, 0);
	close(fd);
	ck_assert_int_eq(tu_file_size(path), 4);
	unlink(path);
	fd = diot_ack_open_log("/dev/null", 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	close(fd);
}
END_TEST

START_TEST(test_listener_records)
{
	char line[64], *s;
	struct diot_ack a;
	struct server srv;
	int i;

	server_start(&srv);
	sender(&a, srv.port, 0x1234);
	ck_assert_int_eq(a.kind, DIOT_ACK_TCP);
	for (i = 0; i < 200; i++) {
		int n = snprintf(line, sizeof(line), "A 0 %d %d\n", i, i * 4096);

		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
		/* Answered, so already in the listener's log. */
		if (i % 50 == 0) {
			s = slurp_str(srv.logpath);
			ck_assert_msg(strstr(s, line) != NULL, "record %d not in the log", i);
			free(s);
		}
	}
	diot_ack_close(&a);
	server_join(&srv);      /* the only sender left: the listener ends */
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.connections, 1);
	ck_assert_uint_eq(srv.st.records, 200);
	ck_assert_uint_eq(srv.st.bad + srv.st.slow + srv.st.stray + srv.st.refused, 0);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_uint_eq(srv.st.runs[0].id, 0x1234);
	ck_assert_int_eq(srv.st.runs[0].log, 0);
	ck_assert_uint_eq(srv.st.runs[0].records, 200);
	ck_assert_int_eq(srv.st.runs[0].ended, 0);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 0 "), 200);
	ck_assert_msg(strncmp(s, "A 0 0 0\nA 0 1 4096\n", 19) == 0, "%.40s", s);
	free(s);
	unlink(srv.logpath);
}
END_TEST

/* Writer processes, each with a connection of its own after fork(), each
 * saying the run again. */
START_TEST(test_listener_processes)
{
	char err[256], *s;
	struct diot_ack a;
	struct server srv;
	pid_t pid[4];
	int k, st, parent_fd;

	server_start(&srv);
	sender(&a, srv.port, 0xabc);
	ck_assert_int_eq(diot_ack_send(&a, "P 0 fdatasync 4096 4 16\n", 24), 0);
	parent_fd = a.fd;
	for (k = 0; k < 4; k++) {
		pid[k] = fork();
		ck_assert_int_ge(pid[k], 0);
		if (pid[k] == 0) {
			char line[64];
			int i, bad = 0;

			if (diot_ack_reconnect(&a, err, sizeof(err)) != 0)
				_exit(3);
			if (a.fd == parent_fd)
				_exit(5);
			for (i = 0; i < 100; i++) {
				int n = snprintf(line, sizeof(line), "A %d %d %d\n", k, i, i);

				bad |= diot_ack_send(&a, line, (size_t)n) != 0;
			}
			_exit(bad ? 4 : 0);
		}
	}
	for (k = 0; k < 4; k++) {
		ck_assert_int_eq(waitpid(pid[k], &st, 0), pid[k]);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "sender %d: %d", k, st);
	}
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.connections, 5);
	ck_assert_uint_eq(srv.st.records, 402);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_int_eq(srv.st.runs[0].ended, 1);
	s = slurp_str(srv.logpath);
	for (k = 0; k < 4; k++) {
		char pre[8];

		snprintf(pre, sizeof(pre), "A %d ", k);
		ck_assert_int_eq(count_lines(s, pre), 100);
	}
	ck_assert_int_eq(count_lines(s, "P 0 "), 1);
	ck_assert_int_eq(count_lines(s, "E"), 1);
	free(s);
	unlink(srv.logpath);
}
END_TEST

/* What is not a record ends the connection, unanswered and unlogged: a
 * line too long, a NUL, a line of no record's syntax, a record before the
 * hello (an older sender), an R record of another run, a second hello.
 * The other senders go on. */
START_TEST(test_listener_bad_lines)
{
	static const char *const bad[] = {
		"H 1 77\nhello world\n", "H 1 77\nA 2\0 0\n", "A 1 5 0\n",
		"H 1 77\nR 78 shared 0 4096 /f\n", "H 1 77\nH 1 77\n", "H 1 77\nA 1 5 0 \n",
		"H 2 77\n", "H 1 77\nA 1 05 0\n",
	};
	char *big, *s;
	struct diot_ack b;
	struct server srv;
	size_t i;
	int fd;

	server_start(&srv);
	sender(&b, srv.port, 0x77);
	ck_assert_int_eq(diot_ack_send(&b, "A 1 0 0\n", 8), 0);
	fd = raw(srv.port);
	big = malloc(DIOT_ACK_LINE_MAX + 10);
	memset(big, 'x', DIOT_ACK_LINE_MAX + 10);
	raw_send(fd, "H 1 77\n", 7);
	ck_assert_int_gt(send(fd, big, DIOT_ACK_LINE_MAX + 10, MSG_NOSIGNAL), 0);
	ck_assert(closed_by_peer(fd));
	close(fd);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t n = strlen(bad[i]);

		if (i == 1)
			n = 14;         /* the NUL inside */
		fd = raw(srv.port);
		raw_send(fd, bad[i], n);
		ck_assert_msg(closed_by_peer(fd), "'%s' not cut", bad[i]);
		close(fd);
		ck_assert_int_eq(diot_ack_send(&b, "A 1 1 0\n", 8), 0);
	}
	diot_ack_close(&b);
	server_join(&srv);
	ck_assert_uint_eq(srv.st.bad, 1 + sizeof(bad) / sizeof(bad[0]));
	ck_assert_uint_eq(srv.st.records, 1 + sizeof(bad) / sizeof(bad[0]));
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 1 1 0"), (int)(sizeof(bad) / sizeof(bad[0])));
	ck_assert_int_eq(count_lines(s, "A 1 0 0"), 1);
	ck_assert_int_eq(count_lines(s, "A "), 1 + (int)(sizeof(bad) / sizeof(bad[0])));
	ck_assert_int_eq((int)strlen(s), 8 * (1 + (int)(sizeof(bad) / sizeof(bad[0]))));
	ck_assert_msg(strstr(srv.notes, "not a record") != NULL, "%s", srv.notes);
	free(s);
	free(big);
	unlink(srv.logpath);
}
END_TEST

/* Two runs at once: the first run's records in the log, the second's in
 * a log of its own (LOG.RUNID), said in a note; none mixed. */
START_TEST(test_listener_two_runs)
{
	char err[256], path2[600], line[64], *s, *t;
	struct diot_ack a, a2, b, b2;
	struct server srv;
	int i, n;

	server_init(&srv, 0, 0);
	srv.cfg.runs = 2;
	server_go(&srv);
	sender(&a, srv.port, 0xa1);
	sender(&b, srv.port, 0xb2);
	ck_assert_int_eq(diot_ack_send(&a, "# sync-write ack-log 1\n", 23), 0);
	ck_assert_int_eq(diot_ack_send(&b, "# sync-write ack-log 1\n", 23), 0);
	a2 = a;
	b2 = b;
	ck_assert_msg(diot_ack_reconnect(&a2, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(diot_ack_reconnect(&b2, err, sizeof(err)) == 0, "%s", err);
	for (i = 0; i < 50; i++) {
		n = snprintf(line, sizeof(line), "A 0 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&a2, line, (size_t)n), 0);
		n = snprintf(line, sizeof(line), "A 1 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&b2, line, (size_t)n), 0);
	}
	diot_ack_close(&a2);
	diot_ack_close(&b2);
	ck_assert_int_eq(diot_ack_send(&b, "E\n", 2), 0);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&b);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_int_eq(srv.st.nruns, 2);
	ck_assert_int_eq(srv.st.runs[0].log, 0);
	ck_assert_int_eq(srv.st.runs[1].log, 1);
	ck_assert_uint_eq(srv.st.runs[1].id, 0xb2);
	ck_assert(srv.st.runs[0].ended && srv.st.runs[1].ended);
	snprintf(path2, sizeof(path2), "%s.b2", srv.logpath);
	ck_assert_msg(strstr(srv.notes, path2) != NULL, "%s", srv.notes);
	s = slurp_str(srv.logpath);
	t = slurp_str(path2);
	ck_assert_int_eq(count_lines(s, "A 0 "), 50);
	ck_assert_int_eq(count_lines(s, "A 1 "), 0);
	ck_assert_int_eq(count_lines(t, "A 1 "), 50);
	ck_assert_int_eq(count_lines(t, "A 0 "), 0);
	ck_assert_msg(strncmp(s, "# sync-write ack-log 1\n", 23) == 0, "%.30s", s);
	ck_assert_msg(strncmp(t, "# sync-write ack-log 1\n", 23) == 0, "%.30s", t);
	free(s);
	free(t);
	unlink(srv.logpath);
	unlink(path2);
}
END_TEST

/* A log that is not a regular file (/dev/null here, standard output in
 * the tool) takes one run: another is refused at its hello, with the
 * reason. */
START_TEST(test_listener_one_run_log)
{
	char err[256];
	struct diot_ack a, b;
	struct server srv;

	server_init(&srv, 0, 0);
	close(srv.logfd);
	unlink(srv.logpath);
	srv.logfd = open("/dev/null", O_WRONLY);
	ck_assert_int_ge(srv.logfd, 0);
	srv.cfg.logfd = srv.logfd;
	srv.cfg.logpath = "/dev/null";
	server_go(&srv);
	sender(&a, srv.port, 1);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	{
		char spec[64];

		snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", srv.port);
		ck_assert_int_eq(diot_ack_open(&b, spec, err, sizeof(err)), 0);
	}
	ck_assert_int_eq(diot_ack_set_run(&b, 2, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "refused the run: this listener logs one run") != NULL,
	              "%s", err);
	diot_ack_close(&b);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.refused, 1);
	ck_assert_uint_eq(srv.st.records, 2);
}
END_TEST

/* Strays -- a connection closed at once, one that sends garbage, one that
 * says nothing -- do not end the listener (nor count as a run ended); the
 * run that comes after is served, the silent one is cut, and once the run
 * is done the listener ends. */
START_TEST(test_listener_strays)
{
	struct diot_ack a;
	struct server srv;
	struct timespec t0, t1;
	int fd, quiet;

	server_start_t(&srv, 1, 0);
	close(raw(srv.port));
	fd = raw(srv.port);
	raw_send(fd, "GET / HTTP/1.0\r\n\r\n", 18);
	ck_assert(closed_by_peer(fd));
	close(fd);
	quiet = raw(srv.port);
	sender(&a, srv.port, 0x5);     /* still there */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	close(raw(srv.port));           /* during the run */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 1 0\n", 8), 0);
	ck_assert(closed_by_peer(quiet));       /* cut at hello_s, 1 s */
	close(quiet);
	ck_assert(!srv.done);                   /* strays ended nothing */
	diot_ack_close(&a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	server_join(&srv);              /* the run has ended */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_msg(t1.tv_sec - t0.tv_sec < 10, "the listener took %ld s to end",
	              (long)(t1.tv_sec - t0.tv_sec));
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.records, 2);
	ck_assert_uint_eq(srv.st.stray, 3);
	ck_assert_uint_eq(srv.st.bad, 1);
	unlink(srv.logpath);
}
END_TEST

/* Past the cap on connections, when every connection's run has logged,
 * a new one is refused with the reason (not closed silently: its sender
 * would blame the versions). */
START_TEST(test_listener_cap)
{
	char spec[64], err[256];
	struct diot_ack a, b, c;
	struct server srv;

	server_init(&srv, 0, 0);
	srv.cfg.max_conns = 2;
	server_go(&srv);
	sender(&a, srv.port, 1);
	ck_assert_int_eq(diot_ack_send(&a, "# sync-write ack-log 1\n", 23), 0);
	sender(&b, srv.port, 1);        /* a writer of the run: it has logged */
	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", srv.port);
	ck_assert_int_eq(diot_ack_open(&c, spec, err, sizeof(err)), 0);
	ck_assert_int_eq(diot_ack_set_run(&c, 2, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "refused the run: listener full: 2 connections") != NULL,
	              "%s", err);
	diot_ack_close(&c);
	ck_assert_int_eq(diot_ack_send(&b, "A 0 0 0\n", 8), 0);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	diot_ack_close(&b);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.refused, 1);
	ck_assert_uint_eq(srv.st.idle, 0);
	ck_assert_uint_eq(srv.st.records, 3);
	unlink(srv.logpath);
}
END_TEST

/* A raw connection that says run's hello and takes its answer. */
static int
raw_hello(int port, uint64_t run)
{
	char line[64], c = 0;
	int fd = raw(port), n;

	n = snprintf(line, sizeof(line), "H 1 %llx\n", (unsigned long long)run);
	raw_send(fd, line, (size_t)n);
	ck_assert_int_eq(recv(fd, &c, 1, 0), 1);
	ck_assert_int_eq(c, '+');
	return fd;
}

/* Connections that say a hello and nothing more: at the cap, the oldest
 * gives its place to a new one; and they do not keep the listener once
 * the run that logged is done. */
START_TEST(test_listener_idle)
{
	struct diot_ack a;
	struct server srv;
	int x, y;

	server_init(&srv, 0, 0);
	srv.cfg.max_conns = 2;
	server_go(&srv);
	x = raw_hello(srv.port, 0x70);
	y = raw_hello(srv.port, 0x71);
	sender(&a, srv.port, 0x9);     /* takes x's place */
	ck_assert(closed_by_peer(x));
	close(x);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);              /* y, silent, does not hold it */
	ck_assert(closed_by_peer(y));
	close(y);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.idle, 1);
	ck_assert_uint_eq(srv.st.refused, 0);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_uint_eq(srv.st.runs[0].id, 0x9);
	ck_assert_uint_eq(srv.st.runs[0].records, 1);
	unlink(srv.logpath);
}
END_TEST

/* More hellos than the listener takes runs, each closed with no record:
 * none takes a place, and a real run after them is served and ends it. */
START_TEST(test_listener_hello_runs)
{
	struct diot_ack a;
	struct server srv;
	int i;

	server_start(&srv);
	for (i = 0; i < DIOT_ACK_MAX_RUNS + 36; i++)
		close(raw_hello(srv.port, 0xdead0000u + (unsigned)i));
	sender(&a, srv.port, 0xbeef);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.refused, 0);
	ck_assert_int_eq(srv.st.nruns, 1);
	ck_assert_uint_eq(srv.st.runs[0].id, 0xbeef);
	ck_assert_int_eq(srv.st.runs[0].log, 0);
	ck_assert_uint_eq(srv.st.runs[0].records, 2);
	ck_assert_int_eq(srv.st.runs[0].ended, 1);
	unlink(srv.logpath);
}
END_TEST

static void
on_usr1(int sig)
{
	(void)sig;
}

/* The log is a pipe nobody reads: the listener's write waits; a stop (a
 * signal) still ends it, at once. */
START_TEST(test_listener_stop_blocked_log)
{
	char line[80];
	struct sigaction sa;
	struct server srv;
	int p[2], fd, i, n, off, tries, queued = 0, want = 4096;

	ck_assert_int_eq(pipe(p), 0);
#ifdef F_SETPIPE_SZ
	fcntl(p[1], F_SETPIPE_SZ, 4096);
#endif
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;        /* no SA_RESTART: as sync-write's */
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	server_init(&srv, 0, 0);
	close(srv.logfd);
	unlink(srv.logpath);
	srv.logfd = p[1];
	srv.cfg.logfd = p[1];
	srv.cfg.logpath = NULL;         /* as standard output */
	server_go(&srv);
	fd = raw(srv.port);
	raw_send(fd, "H 1 5\n", 6);
	n = snprintf(line, sizeof(line), "I 2147483647 18446744073709551615 "
	             "18446744073709551615\n");
	/* Far more than the pipe holds; answers left unread (under OWED_MAX).
	 * A send that would wait (on a busy machine the loopback may not have
	 * drained the socket yet) waits a little and goes on, until the pipe
	 * is full: the first such send used to end the sending, with two
	 * records sent and the pipe never full. */
	want -= n;
	for (i = 0, off = 0, tries = 0; i < 3000 && tries < 2000; ) {
		ssize_t w = send(fd, line + off, (size_t)(n - off),
		                 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w > 0) {
			off += (int)w;
			if (off == n) {
				i++;
				off = 0;
			}
			continue;
		}
		ck_assert_msg(w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
		              errno == EINTR), "send: %s", strerror(errno));
		ck_assert_int_eq(ioctl(p[0], FIONREAD, &queued), 0);
		if (queued >= want)
			break;
		{
			struct pollfd q = { fd, POLLOUT, 0 };

			poll(&q, 1, 10);
			tries++;
		}
	}
	/* The pipe fills (to within a record: a short write is whole or
	 * waits): the listener's write waits. */
	for (i = 0; i < 2000 && queued < want; i++) {
		struct pollfd q = { p[0], POLLIN, 0 };

		poll(&q, 1, 10);
		ck_assert_int_eq(ioctl(p[0], FIONREAD, &queued), 0);
	}
	ck_assert_msg(queued >= want, "the pipe holds %d bytes", queued);
	srv.stop = 1;
	for (i = 0; i < 500 && !srv.done; i++) {
		struct pollfd q = { -1, 0, 0 };

		pthread_kill(srv.thr, SIGUSR1);
		poll(&q, 0, 10);
	}
	ck_assert_msg(srv.done, "the listener did not stop while its log write waited");
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	close(fd);
	close(p[0]);
}
END_TEST

/* A client that sends records without reading the answers stops being
 * read, then is cut after the stall time; meanwhile another sender's
 * every record is answered promptly. */
START_TEST(test_listener_flood)
{
	char line[64], path2[600];
	struct diot_ack a;
	struct server srv;
	struct timespec t0, t1;
	double worst = 0;
	int i, n, st, p[2];
	pid_t pid;

	signal(SIGPIPE, SIG_IGN);
	server_init(&srv, 0, 2);
	srv.cfg.runs = 2;               /* the flood's run ends too, when cut */
	server_go(&srv);
	sender(&a, srv.port, 0x600d);  /* first: the log is its */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* The flood: hello, then records, never reading an answer. */
		static char chunk[8 * 8192];
		char spec[64], err[256];
		struct diot_ack f;
		int fd, k, small = 4096;

		/* Not the listener's sockets: a copy here would keep the
		 * connection open once the listener closed it. */
		for (fd = 3; fd < 1024; fd++)
			if (fd != p[1])
				close(fd);
		spec_of(spec, sizeof(spec), srv.port);
		if (diot_ack_open(&f, spec, err, sizeof(err)) != 0)
			_exit(2);
		fd = f.fd;

		/* Its answers fill its kernel's buffers sooner. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));

		for (k = 0; k < 8192; k++)
			memcpy(chunk + 8 * k, "A 0 1 0\n", 8);
		if (send(fd, "H 1 bad\n", 8, MSG_NOSIGNAL) != 8 || write(p[1], "x", 1) != 1)
			_exit(3);
		while (send(fd, chunk, sizeof(chunk), MSG_NOSIGNAL) > 0)
			;
		_exit(0);       /* cut: its sends fail */
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], line, 1), 1);
	for (i = 1; i < 300; i++) {
		double took;

		n = snprintf(line, sizeof(line), "A 0 %d 0\n", i);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (took > worst)
			worst = took;
	}
	/* Well under the stall time: the flood did not hold it up. */
	ck_assert_msg(worst < 1.5, "a record waited %.2f s for its answer", worst);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);   /* cut, bounded */
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "flooder: %d", st);
	close(p[0]);
	ck_assert_int_eq(diot_ack_send(&a, "E\n", 2), 0);
	diot_ack_close(&a);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_uint_eq(srv.st.slow, 1);
	ck_assert_uint_eq(srv.st.runs[0].records, 301);
	snprintf(path2, sizeof(path2), "%s.bad", srv.logpath);
	unlink(path2);
	unlink(srv.logpath);
}
END_TEST

/* Stopped (a signal, in the tool): every answered record is in the log,
 * and no line begun and not finished is. */
START_TEST(test_listener_stop)
{
	char line[64], *s;
	struct diot_ack a;
	struct server srv;
	int i, n;

	server_start(&srv);
	sender(&a, srv.port, 0x57);
	for (i = 0; i < 100; i++) {
		n = snprintf(line, sizeof(line), "I 0 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
	}
	ck_assert_int_eq(send(a.fd, "A 0 99 ", 7, MSG_NOSIGNAL), 7);
	srv.stop = 1;
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	diot_ack_close(&a);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "I 0 "), 100);
	ck_assert_int_eq((int)strlen(s), 10 * 8 + 90 * 9);
	ck_assert(s[strlen(s) - 1] == '\n');
	free(s);
	unlink(srv.logpath);
}
END_TEST

/* The log cannot take a record (a file size limit here; a full disk):
 * the run is refused with the reason (the listener goes on), the record
 * written in part is cut off the log again, and every record answered
 * before is there, whole. */
START_TEST(test_listener_log_full)
{
	char line[64], *s;
	struct diot_ack a;
	struct server srv;
	int i, n, st, answered = 0;
	pid_t pid;

	signal(SIGPIPE, SIG_IGN);
	memset(&srv, 0, sizeof(srv));
	tu_path(srv.logpath, sizeof(srv.logpath), tu_dir(), "acklog");
	srv.logfd = open(srv.logpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	ck_assert_int_ge(srv.logfd, 0);
	srv.lfd = diot_ack_listen("127.0.0.1:0", &srv.port, srv.err, sizeof(srv.err));
	ck_assert_int_ge(srv.lfd, 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl = { 205, 205 };
		struct diot_ack_serve_cfg cfg;
		static struct diot_ack_stats fst;
		int r;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(3);
		memset(&cfg, 0, sizeof(cfg));
		cfg.lfd = srv.lfd;
		cfg.logfd = srv.logfd;
		cfg.logpath = srv.logpath;
		cfg.records = &sw_ackrec_records;
		cfg.runs = 1;
		r = diot_ack_serve(&cfg, NULL, &fst, srv.err, sizeof(srv.err));
		_exit(r == 0 && fst.failed == 1 && fst.runs[0].refused == DIOT_ACK_FAILED &&
		      strstr(fst.runs[0].why, "writing its log") &&
		      strstr(fst.runs[0].why, dio_strerror(-EFBIG)) ? 0 : 4);
	}
	sender(&a, srv.port, 0xf);
	for (i = 0; i < 100; i++) {
		n = snprintf(line, sizeof(line), "A 0 %d 4096\n", i);
		if (diot_ack_send(&a, line, (size_t)n) != 0)
			break;
		answered++;
	}
	diot_ack_close(&a);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "listener: %d", st);
	ck_assert_int_lt(answered, 100);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 0 "), answered);
	ck_assert(strlen(s) > 0 && s[strlen(s) - 1] == '\n');
	free(s);
	close(srv.lfd);
	close(srv.logfd);
	unlink(srv.logpath);
}
END_TEST

/* The bounds: a run whose next record would pass max_log_bytes is
 * refused from then on (its log holds what it had, whole), a run past
 * max_runs is refused at its hello, each with words naming the option;
 * the other run goes on and the listener with it.  Every record answered
 * was committed: fdatasync() calls counted, each for one or more. */
START_TEST(test_listener_bounds)
{
	char err[256], line[64], path2[600], *s;
	struct diot_ack a, b, c;
	struct server srv;
	int i, n;

	signal(SIGPIPE, SIG_IGN);
	server_init(&srv, 0, 0);
	srv.cfg.max_runs = 2;
	srv.cfg.max_log_bytes = 95;
	srv.cfg.runs = 2;
	server_go(&srv);
	sender(&a, srv.port, 0xa);
	sender(&b, srv.port, 0xb);
	for (i = 0; i < 10; i++) {      /* 8 bytes each: 80 of a's 95 */
		n = snprintf(line, sizeof(line), "A 0 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&a, line, (size_t)n), 0);
	}
	ck_assert_int_eq(diot_ack_send(&b, "A 1 0 0\n", 8), 0);
	/* A third run: past max_runs once a and b have logged. */
	spec_of(line, sizeof(line), srv.port);
	ck_assert_int_eq(diot_ack_open(&c, line, err, sizeof(err)), 0);
	ck_assert_int_eq(diot_ack_set_run(&c, 0xc, err, sizeof(err)), -ECONNREFUSED);
	ck_assert_msg(strstr(err, "bound reached: --max-runs 2") != NULL, "%s", err);
	diot_ack_close(&c);
	/* 9 more bytes pass for a (89), the next 9 would not (95 < 98). */
	ck_assert_int_eq(diot_ack_send(&a, "A 0 10 0\n", 9), 0);
	ck_assert_int_ne(diot_ack_send(&a, "A 0 11 0\n", 9), 0);
	diot_ack_close(&a);
	for (i = 1; i < 10; i++) {      /* b goes on: 8 bytes each, 80 */
		n = snprintf(line, sizeof(line), "A 1 %d 0\n", i);
		ck_assert_int_eq(diot_ack_send(&b, line, (size_t)n), 0);
	}
	diot_ack_close(&b);
	server_join(&srv);
	ck_assert_int_eq(srv.ret, 0);
	ck_assert_int_eq(srv.st.runs[0].refused, DIOT_ACK_BOUND);
	ck_assert_msg(strstr(srv.st.runs[0].why, "--max-log-bytes 95") != NULL, "%s",
	              srv.st.runs[0].why);
	ck_assert_uint_eq(srv.st.over_bytes, 1);
	ck_assert_uint_eq(srv.st.over_runs, 1);
	ck_assert_uint_eq(srv.st.failed, 0);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 0 "), 11);
	ck_assert_int_eq((int)strlen(s), 89);
	free(s);
	/* Every record logged was committed, and the calls were counted. */
	ck_assert_uint_eq(srv.st.committed, srv.st.records);
	ck_assert(srv.st.commits > 0 && srv.st.commits <= srv.st.records);
	snprintf(path2, sizeof(path2), "%s.b", srv.logpath);
	s = slurp_str(path2);
	ck_assert_int_eq(count_lines(s, "A 1 "), 10);
	free(s);
	unlink(path2);
	unlink(srv.logpath);
}
END_TEST

/* The listener stops: the next record fails, it is not counted. */
START_TEST(test_listener_gone)
{
	char spec[64], err[256];
	struct diot_ack a;
	struct server srv;
	int r;

	signal(SIGPIPE, SIG_IGN);
	server_start(&srv);
	spec_of(spec, sizeof(spec), srv.port);
	sender(&a, srv.port, 9);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), 0);
	srv.stop = 1;
	server_join(&srv);
	r = diot_ack_send(&a, "A 0 1 0\n", 8);
	ck_assert_msg(r == -ECONNRESET || r == -EPIPE, "send after the listener ended: %d", r);
	diot_ack_close(&a);
	/* Nobody listens there any more. */
	r = diot_ack_open(&a, spec, err, sizeof(err));
	ck_assert_int_eq(r, -ECONNREFUSED);
	ck_assert_msg(strstr(err, "cannot connect to the listener") != NULL, "%s", err);
	unlink(srv.logpath);
}
END_TEST

/* A listener that takes the connection but never answers (hung, stopped,
 * or a silent network): the send fails after the answer time, it does not
 * wait for ever. */
START_TEST(test_listener_silent)
{
	char spec[64], err[256];
	struct diot_ack a;
	struct timespec t0, t1;
	double took;
	int port, lfd, r, first;

	lfd = diot_ack_listen("127.0.0.1:0", &port, err, sizeof(err));
	ck_assert_msg(lfd >= 0, "%s", err);     /* listens, never accepts */
	spec_of(spec, sizeof(spec), port);
	ck_assert_msg(diot_ack_open(&a, spec, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(a.answer_s, DIOT_ACK_ANSWER_S);
	ck_assert_int_eq(diot_ack_set_answer_time(&a, 0), -EINVAL);
	ck_assert_int_eq(diot_ack_set_answer_time(&a, 3601), -EINVAL);
	ck_assert_int_eq(diot_ack_set_answer_time(&a, 1), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = diot_ack_send(&a, "A 0 0 0\n", 8);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_int_eq(r, -ETIMEDOUT);
	ck_assert_msg(took >= 0.9 && took < 10, "the send gave up after %.2f s, want ~1", took);
	/* A connection made for a writer keeps the handle's answer time. */
	first = a.fd;
	ck_assert_msg(diot_ack_reconnect(&a, err, sizeof(err)) == 0, "%s", err);
	close(first);
	ck_assert_int_eq(diot_ack_send(&a, "A 0 0 0\n", 8), -ETIMEDOUT);
	diot_ack_close(&a);
	close(lfd);
}
END_TEST

START_TEST(test_addresses)
{
	static const char *const bad[] = {
		"tcp:", "tcp:host", "tcp::7070", "tcp:host:", "tcp:host:0", "tcp:host:65536",
		"tcp:host:7x", "tcp:[::1", "tcp:[::1]7070", "tcp:[]:7070", "tcp:a:b:7070",
	};
	char err[256];
	struct diot_ack a;
	size_t i;
	int port, fd;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(diot_ack_open(&a, bad[i], err, sizeof(err)) == -EINVAL,
		              "'%s' accepted", bad[i]);
		ck_assert_msg(err[0] != '\0', "'%s': no message", bad[i]);
	}
	ck_assert(diot_ack_is_tcp("tcp:h:1"));
	ck_assert(!diot_ack_is_tcp("./tcp:h:1"));
	ck_assert_int_eq(diot_ack_listen("70000", &port, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(diot_ack_listen("x", &port, err, sizeof(err)), -EINVAL);
	/* IPv6 loopback where the machine has it. */
	fd = diot_ack_listen("[::1]:0", &port, err, sizeof(err));
	if (fd >= 0) {
		ck_assert_int_gt(port, 0);
		close(fd);
	}
	/* A port in use is refused with the reason. */
	fd = diot_ack_listen("127.0.0.1:0", &port, err, sizeof(err));
	ck_assert_int_ge(fd, 0);
	{
		char spec[32];
		int fd2;

		snprintf(spec, sizeof(spec), "127.0.0.1:%d", port);
		fd2 = diot_ack_listen(spec, &port, err, sizeof(err));
		ck_assert_int_eq(fd2, -EADDRINUSE);
		ck_assert_msg(strstr(err, "--listen") != NULL, "%s", err);
	}
	close(fd);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ack");
	TCase *tc = tcase_create("ack");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_file);
	tcase_add_test(tc, test_record_syntax);
	tcase_add_test(tc, test_reader);
	tcase_add_test(tc, test_open_log);
	tcase_add_test(tc, test_listener_records);
	tcase_add_test(tc, test_listener_processes);
	tcase_add_test(tc, test_listener_bad_lines);
	tcase_add_test(tc, test_listener_two_runs);
	tcase_add_test(tc, test_listener_one_run_log);
	tcase_add_test(tc, test_listener_strays);
	tcase_add_test(tc, test_listener_cap);
	tcase_add_test(tc, test_listener_idle);
	tcase_add_test(tc, test_listener_hello_runs);
	tcase_add_test(tc, test_listener_stop_blocked_log);
	tcase_add_test(tc, test_listener_flood);
	tcase_add_test(tc, test_listener_stop);
	tcase_add_test(tc, test_listener_log_full);
	tcase_add_test(tc, test_listener_bounds);
	tcase_add_test(tc, test_listener_gone);
	tcase_add_test(tc, test_listener_silent);
	tcase_add_test(tc, test_addresses);
	suite_add_tcase(s, tc);
	return tu_run(srunner_create(s));
}
