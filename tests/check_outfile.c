/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_outfile.c -- output-file safety (tools/kit/outfile.c) on real files
 * in a temporary directory: create, refuse an existing file, force, a
 * directory and a FIFO refused, results files opened without truncation,
 * the list of created files removing only what it holds, and the guard
 * of a process killed, stopped, aborted or ended in order: what it
 * removes, what it keeps always, and the one line it says.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/kit/outfile.h"
#include "tests/testutil.h"

static char dir[PATH_MAX];

static void
setup(void)
{
	snprintf(dir, sizeof(dir), "%s/outfile.XXXXXX", tu_dir());
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	(void)!system(cmd);
}

static const char *
at(const char *name)
{
	static char p[4][PATH_MAX];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

START_TEST(test_create_and_refuse)
{
	char why[200];
	int err;

	ck_assert_int_eq(diot_out_create(at("a"), 0, &err, why, sizeof(why)), 1);
	ck_assert_int_eq(tu_file_size(at("a")), 0);
	ck_assert_int_eq(diot_out_create(at("a"), 0, &err, why, sizeof(why)),
	                 DIOT_OUT_EXISTS);
	write_file(at("a"), "keep me");
	ck_assert_int_eq(diot_out_create(at("a"), 1, &err, why, sizeof(why)), 0);
	ck_assert_int_eq(tu_file_size(at("a")), 7);      /* not truncated */
	ck_assert_int_eq(diot_out_create(at("nodir/x"), 0, &err, why, sizeof(why)),
	                 DIOT_OUT_CREATE_FAILED);
	ck_assert_int_eq(err, ENOENT);
}
END_TEST

START_TEST(test_dir_and_fifo)
{
	int err;

	ck_assert_int_eq(mkdir(at("d"), 0755), 0);
	ck_assert_int_eq(diot_out_create(at("d"), 1, &err, NULL, 0), DIOT_OUT_IS_DIR);
	ck_assert_int_eq(diot_out_create(at("d"), 0, &err, NULL, 0), DIOT_OUT_IS_DIR);
	ck_assert_int_eq(mkfifo(at("f"), 0644), 0);
	ck_assert_int_eq(diot_out_create(at("f"), 1, &err, NULL, 0), DIOT_OUT_NOT_REGULAR);
}
END_TEST

/* What a results file may be, and two names of one file. */
START_TEST(test_writable_and_same)
{
	char why[200] = "";

	write_file(at("r"), "x");
	ck_assert_int_eq(diot_out_writable(at("r"), why, sizeof(why)), 0);
	ck_assert_int_eq(diot_out_writable(at("new"), why, sizeof(why)), 0);
	ck_assert_int_eq(diot_out_writable("/dev/null", why, sizeof(why)), 0);
	ck_assert_int_eq(mkdir(at("d"), 0755), 0);
	ck_assert_int_eq(diot_out_writable(at("d"), why, sizeof(why)), -EISDIR);
	ck_assert_str_eq(why, "is a directory");
	ck_assert_int_eq(mkfifo(at("f"), 0644), 0);
	ck_assert_int_eq(diot_out_writable(at("f"), why, sizeof(why)), -ENXIO);
	ck_assert_msg(strstr(why, "FIFO") != NULL, "%s", why);
	ck_assert_int_eq(symlink("r", at("l")), 0);      /* relative to its directory */
	ck_assert_int_eq(link(at("r"), at("h")), 0);
	ck_assert_int_eq(diot_out_same(at("r"), at("l")), 1);
	ck_assert_int_eq(diot_out_same(at("r"), at("h")), 1);
	ck_assert_int_eq(diot_out_same(at("r"), at("r")), 1);
	write_file(at("s"), "y");
	ck_assert_int_eq(diot_out_same(at("r"), at("s")), 0);
	ck_assert_int_eq(diot_out_same(at("r"), at("new")), 0);
	ck_assert_int_eq(diot_out_same("/dev/null", "/dev/null"), 0); /* may be named twice */
}
END_TEST

START_TEST(test_no_access)
{
	int err;

	if (geteuid() == 0)
		return;     /* root may write anything */
	write_file(at("ro"), "x");
	ck_assert_int_eq(chmod(at("ro"), 0444), 0);
	ck_assert_int_eq(diot_out_create(at("ro"), 1, &err, NULL, 0), DIOT_OUT_NO_ACCESS);
	ck_assert_int_eq(err, EACCES);
}
END_TEST

START_TEST(test_results)
{
	ck_assert_int_eq(diot_out_open_results(at("r")), 1);
	write_file(at("r"), "old results");
	ck_assert_int_eq(diot_out_open_results(at("r")), 0);
	ck_assert_int_eq(tu_file_size(at("r")), 11);
	ck_assert_int_eq(diot_out_open_results(at("nodir/r")), -ENOENT);
	ck_assert_int_eq(mkdir(at("rd"), 0755), 0);
	ck_assert_int_eq(diot_out_open_results(at("rd")), -EISDIR);
}
END_TEST

START_TEST(test_cleanup)
{
	struct diot_outlist l;
	int a, b;

	diot_out_init(&l);
	write_file(at("other"), "not ours");
	ck_assert_int_eq(diot_out_create(at("c1"), 0, NULL, NULL, 0), 1);
	ck_assert_int_eq(diot_out_create(at("c2"), 0, NULL, NULL, 0), 1);
	a = diot_out_created(&l, at("c1"));
	b = diot_out_created(&l, at("c2"));
	ck_assert_int_eq(a, 0);
	ck_assert_int_eq(b, 1);
	diot_out_keep(&l, b);
	diot_out_remove_created(&l);
	ck_assert_int_eq(access(at("c1"), F_OK), -1);
	ck_assert_int_eq(access(at("c2"), F_OK), 0);
	ck_assert_int_eq(access(at("other"), F_OK), 0);
	ck_assert_int_eq(l.n, 0);
	/* keep all */
	diot_out_created(&l, at("c2"));
	diot_out_keep(&l, -1);
	diot_out_remove_created(&l);
	ck_assert_int_eq(access(at("c2"), F_OK), 0);
}
END_TEST

START_TEST(test_cleanup_at_exit)
{
	static struct diot_outlist l;
	pid_t pid;
	int status;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		diot_out_init(&l);
		diot_out_create(at("e1"), 0, NULL, NULL, 0);
		diot_out_created(&l, at("e1"));
		diot_out_create(at("e2"), 0, NULL, NULL, 0);
		diot_out_keep(&l, diot_out_created(&l, at("e2")));
		diot_out_remove_at_exit(&l);
		exit(1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(access(at("e1"), F_OK), -1);
	ck_assert_int_eq(access(at("e2"), F_OK), 0);
}
END_TEST

/*
 * The guard (outfile.h) of a process that ends the way end() ends it,
 * after registering g1 (kept), g2 (kept always) and g3 (not kept) and
 * handing the guard its standard error (a pipe to this process) with
 * what to say.  Returns what the guard said: everything written on that
 * pipe until the last holder (the guard) let it go.
 */
static char said[1024];

static const char *
guarded(void (*end)(void))
{
	static struct diot_outlist l;
	int pfd[2], status;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[1]);
		if (diot_out_guard() != 0)
			_exit(99);
		diot_out_init(&l);
		diot_out_remove_at_exit(&l);
		diot_out_create(at("g1"), 0, NULL, NULL, 0);
		diot_out_keep(&l, diot_out_created(&l, at("g1")));
		diot_out_create(at("g2"), 0, NULL, NULL, 0);
		diot_out_keep_always(&l, diot_out_created(&l, at("g2")));
		diot_out_create(at("g3"), 0, NULL, NULL, 0);
		diot_out_created(&l, at("g3"));
		if (diot_out_guard_say("prog: rank 1 on hx", "kept: g2") != 0)
			_exit(98);
		end();
		_exit(97);
	}
	close(pfd[1]);
	while (n < sizeof(said) - 1 && (r = read(pfd[0], said + n, sizeof(said) - 1 - n)) > 0)
		n += (size_t)r;
	said[n] = '\0';
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!WIFEXITED(status) || WEXITSTATUS(status) < 97,
	              "the guarded process failed its set-up (%d)", WEXITSTATUS(status));
	return said;
}

static void
end_killed(void)
{
	raise(SIGKILL);
}

static void
end_stopped(void)
{
	diot_out_guard_signal(SIGTERM);   /* as a handler would */
	raise(SIGKILL);
}

static void
end_aborted(void)
{
	diot_out_guard_exit(3);
	diot_out_remove_unfinished();
	_exit(3);
}

static void
end_in_order(void)
{
	diot_out_guard_done();
	exit(0);
}

/*
 * The guard's ends: a process killed (SIGKILL) leaves what it kept always
 * and its guard says the one line; asked to stop by a signal, then killed
 * (a launcher stopping the other ranks), it leaves the same and nothing is
 * said; aborted (an MPI job's diot_die()), it removes what its guard
 * would, and the guard says the status; in order, its kept files stay and
 * nothing is said.  g3 (not kept) goes every time.
 */
static const struct {
	void (*end)(void);
	const char *said;
	int g1, g2;             /* left (1) or gone (0) */
} ends[] = {
	{ end_killed, "prog: rank 1 on hx was lost: it ended without a word before the "
	  "job ended in order (killed by SIGKILL, or it crashed); kept: g2\n", 0, 1 },
	{ end_stopped, "", 0, 1 },
	{ end_aborted, "prog: rank 1 on hx exited with status 3 before the job ended "
	  "in order; kept: g2\n", 0, 1 },
	{ end_in_order, "", 1, 1 },
};

START_TEST(test_guard)
{
	ck_assert_str_eq(guarded(ends[_i].end), ends[_i].said);
	ck_assert_int_eq(access(at("g1"), F_OK) == 0, ends[_i].g1);
	ck_assert_int_eq(access(at("g2"), F_OK) == 0, ends[_i].g2);
	ck_assert_int_eq(access(at("g3"), F_OK), -1);
}
END_TEST

static Suite *
outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("outfile");

	/* Each test's teardown runs rm -rf: more than Check's default 4 s
	 * on a loaded machine is possible. */
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_and_refuse);
	tcase_add_test(tc, test_dir_and_fifo);
	tcase_add_test(tc, test_no_access);
	tcase_add_test(tc, test_writable_and_same);
	tcase_add_test(tc, test_results);
	tcase_add_test(tc, test_cleanup);
	tcase_add_test(tc, test_cleanup_at_exit);
	tcase_add_loop_test(tc, test_guard, 0, (int)(sizeof(ends) / sizeof(ends[0])));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(outfile_suite()));
}
