/*
 * check_ack.c -- acknowledgement records (tools/kit/ack.c): to a file,
 * and through a listener on this machine's loopback: a record counts only
 * once the listener's log holds it, senders in several processes each
 * with a connection, bad addresses and lines, a listener that goes away.
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
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/kit/ack.h"
#include "tests/testutil.h"

struct server {
	int lfd, logfd, port, ret;
	volatile sig_atomic_t stop;
	struct diot_ack_stats st;
	char err[256];
	char logpath[512];
	pthread_t thr;
};

static void *
serve(void *p)
{
	struct server *s = p;

	s->ret = diot_ack_serve(s->lfd, s->logfd, &s->stop, &s->st, s->err, sizeof(s->err));
	return NULL;
}

static void
server_start(struct server *s)
{
	memset(s, 0, sizeof(*s));
	tu_path(s->logpath, sizeof(s->logpath), tu_dir(), "acklog");
	s->logfd = open(s->logpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	ck_assert_int_ge(s->logfd, 0);
	s->lfd = diot_ack_listen("127.0.0.1:0", &s->port, s->err, sizeof(s->err));
	ck_assert_msg(s->lfd >= 0, "listen: %s", s->err);
	ck_assert_int_gt(s->port, 0);
	ck_assert_int_eq(pthread_create(&s->thr, NULL, serve, s), 0);
}

static void
server_join(struct server *s)
{
	pthread_join(s->thr, NULL);
	close(s->lfd);
	close(s->logfd);
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

START_TEST(test_listener_records)
{
	char spec[64], err[256], line[64], *s;
	struct diot_ack a;
	struct server srv;
	int i;

	server_start(&srv);
	spec_of(spec, sizeof(spec), srv.port);
	ck_assert_msg(diot_ack_open(&a, spec, err, sizeof(err)) == 0, "%s", err);
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
	ck_assert_uint_eq(srv.st.dropped, 0);
	s = slurp_str(srv.logpath);
	ck_assert_int_eq(count_lines(s, "A 0 "), 200);
	ck_assert_msg(strncmp(s, "A 0 0 0\nA 0 1 4096\n", 19) == 0, "%.40s", s);
	free(s);
	unlink(srv.logpath);
}
END_TEST

/* Writer processes, each with a connection of its own after fork(). */
START_TEST(test_listener_processes)
{
	char spec[64], err[256], *s;
	struct diot_ack a;
	struct server srv;
	pid_t pid[4];
	int k, st, parent_fd;

	server_start(&srv);
	spec_of(spec, sizeof(spec), srv.port);
	ck_assert_msg(diot_ack_open(&a, spec, err, sizeof(err)) == 0, "%s", err);
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

/* A line too long or with a NUL ends the connection: the sender sees an
 * error, the log does not get the line, other senders go on. */
START_TEST(test_listener_bad_lines)
{
	char spec[64], err[256], *big, *s;
	struct diot_ack a, b;
	struct server srv;
	int fd;
	ssize_t r;
	char c;

	server_start(&srv);
	spec_of(spec, sizeof(spec), srv.port);
	ck_assert_int_eq(diot_ack_open(&b, spec, err, sizeof(err)), 0);
	ck_assert_int_eq(diot_ack_send(&b, "A 1 0 0\n", 8), 0);
	/* Bypass diot_ack_send's own checks with a raw connection. */
	ck_assert_int_eq(diot_ack_open(&a, spec, err, sizeof(err)), 0);
	fd = a.fd;
	big = malloc(DIOT_ACK_LINE_MAX + 10);
	memset(big, 'x', DIOT_ACK_LINE_MAX + 10);
	r = send(fd, big, DIOT_ACK_LINE_MAX + 10, 0);
	ck_assert_int_gt(r, 0);
	ck_assert_int_le(recv(fd, &c, 1, 0), 0);        /* dropped (EOF or reset) */
	diot_ack_close(&a);
	ck_assert_int_eq(diot_ack_open(&a, spec, err, sizeof(err)), 0);
	ck_assert_int_eq(send(a.fd, "A 2\0 0\n", 7, 0), 7);
	ck_assert_int_le(recv(a.fd, &c, 1, 0), 0);
	diot_ack_close(&a);
	ck_assert_int_eq(diot_ack_send(&b, "A 1 1 0\n", 8), 0);
	diot_ack_close(&b);
	server_join(&srv);
	ck_assert_uint_eq(srv.st.dropped, 2);
	ck_assert_uint_eq(srv.st.records, 2);
	s = slurp_str(srv.logpath);
	ck_assert_str_eq(s, "A 1 0 0\nA 1 1 0\n");
	free(s);
	free(big);
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
	ck_assert_int_eq(diot_ack_open(&a, spec, err, sizeof(err)), 0);
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
	tcase_add_test(tc, test_listener_records);
	tcase_add_test(tc, test_listener_processes);
	tcase_add_test(tc, test_listener_bad_lines);
	tcase_add_test(tc, test_listener_gone);
	tcase_add_test(tc, test_listener_silent);
	tcase_add_test(tc, test_addresses);
	suite_add_tcase(s, tc);
	return tu_run(srunner_create(s));
}
