/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_team.c -- the tools' worker team (tools/kit/team.c), as threads and
 * as processes: the gate holds members until go, results reach the parent,
 * a member that dies or exits early is reported and stops the others, the
 * stop flag and the tool's signal flag reach the members, the tick runs.
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/kit/clock.h"
#include "tools/kit/team.h"
#include "tests/testutil.h"

struct res {
	uint64_t after_gate;      /* diot_now_ns() right after the gate */
	uint64_t go_seen;
	int gate_rc, k, stopped, loops;
};

static void
nap_ms(int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

/* The bound of every wait for a condition here (as tests/lib.sh's
 * wait_for): generous, as it costs nothing when the condition comes, and
 * under the test case's time limit. */
#define WAIT_NS (60 * 1000000000ULL)

/* Every member but skip (-1: none) has looped at least once (results in
 * shared memory, written by the members as they run). */
static int
looped(struct diot_team *t, int skip)
{
	int k;

	for (k = 0; k < diot_team_size(t); k++)
		if (k != skip && ((volatile struct res *)diot_team_result(t, k))->loops == 0)
			return 0;
	return 1;
}

/* Ready, then record when the gate let it through. */
static void
m_gate(struct diot_team *t, int k, void *arg)
{
	struct res *r = diot_team_result(t, k);

	(void)arg;
	r->k = k;
	r->gate_rc = diot_team_ready(t, k);
	r->after_gate = diot_now_ns();
	r->go_seen = diot_team_go_ns(t);
}

static void
gate_case(int flags)
{
	struct diot_team *t = diot_team_new(4, sizeof(struct res), flags, NULL);
	uint64_t go;
	int k, code, failed = -1;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(diot_team_size(t), 4);
	ck_assert_int_eq(diot_team_start(t, m_gate, NULL, &failed), 0);
	diot_team_await_ready(t);
	/* Not a wait for anything: the time in which members that the gate
	 * did not hold would run ahead (their after_gate before go). */
	nap_ms(100);
	go = diot_team_go(t, 0);
	diot_team_wait(t, 20, NULL, NULL);
	for (k = 0; k < 4; k++) {
		struct res *r = diot_team_result(t, k);

		ck_assert_int_eq(r->k, k);
		ck_assert_int_eq(r->gate_rc, 0);
		ck_assert_uint_ge(r->after_gate, go);
		ck_assert_uint_eq(r->go_seen, go);
		ck_assert_int_eq(diot_team_end(t, k, &code), DIOT_END_FINISHED);
	}
	diot_team_free(t);
}

START_TEST(test_gate_threads)
{
	gate_case(DIOT_TEAM_THREADS);
}
END_TEST

START_TEST(test_gate_processes)
{
	gate_case(DIOT_TEAM_PROCESSES | DIOT_TEAM_OWN_SESSION);
	gate_case(DIOT_TEAM_PROCESSES);
}
END_TEST

START_TEST(test_go_time_given)
{
	struct diot_team *t = diot_team_new(2, sizeof(struct res), DIOT_TEAM_PROCESSES, NULL);

	ck_assert_int_eq(diot_team_start(t, m_gate, NULL, NULL), 0);
	diot_team_await_ready(t);
	ck_assert_uint_eq(diot_team_go(t, 12345), 12345);
	diot_team_wait(t, 20, NULL, NULL);
	ck_assert_uint_eq(((struct res *)diot_team_result(t, 1))->go_seen, 12345);
	diot_team_free(t);
}
END_TEST

/* Run until stopped. */
static void
m_loop(struct diot_team *t, int k, void *arg)
{
	struct res *r = diot_team_result(t, k);

	(void)arg;
	if (diot_team_ready(t, k) != 0) {
		r->stopped = 2;
		return;
	}
	while (!diot_team_stopping(t)) {
		r->loops++;
		nap_ms(5);               /* the member's work: paced, until stopped */
	}
	r->stopped = 1;
}

/* Member 1 dies by a signal, or exits early, after the gate. */
static void
m_die(struct diot_team *t, int k, void *arg)
{
	int how = *(int *)arg;

	if (k != 1) {
		m_loop(t, k, arg);
		return;
	}
	diot_team_ready(t, k);
	/* Once the others loop (past the gate: a stop before they pass it
	 * would stop them there, stopped 2), bounded; then die. */
	{
		uint64_t end = diot_now_ns() + WAIT_NS;

		while (!looped(t, k) && diot_now_ns() < end)
			nap_ms(5);
	}
	if (how == 0)
		kill(getpid(), SIGKILL);
	_exit(3);
}

static void
death_case(int how)
{
	struct diot_team *t = diot_team_new(3, sizeof(struct res), DIOT_TEAM_PROCESSES |
	                                    DIOT_TEAM_OWN_SESSION | DIOT_TEAM_STOP_ON_DEATH,
	                                    NULL);
	int code = -1;

	ck_assert_int_eq(diot_team_start(t, m_die, &how, NULL), 0);
	diot_team_await_ready(t);
	diot_team_go(t, 0);
	diot_team_wait(t, 20, NULL, NULL);   /* would hang if nobody stopped */
	if (how == 0) {
		ck_assert_int_eq(diot_team_end(t, 1, &code), DIOT_END_SIGNAL);
		ck_assert_int_eq(code, SIGKILL);
	} else {
		ck_assert_int_eq(diot_team_end(t, 1, &code), DIOT_END_EXIT);
		ck_assert_int_eq(code, 3);
	}
	ck_assert_int_eq(diot_team_end(t, 0, &code), DIOT_END_FINISHED);
	ck_assert_int_eq(diot_team_end(t, 2, &code), DIOT_END_FINISHED);
	ck_assert_int_eq(((struct res *)diot_team_result(t, 0))->stopped, 1);
	ck_assert_int_eq(((struct res *)diot_team_result(t, 2))->stopped, 1);
	diot_team_free(t);
}

START_TEST(test_member_killed)
{
	death_case(0);
}
END_TEST

START_TEST(test_member_exits)
{
	death_case(1);
}
END_TEST

static int ticks;
static uint64_t tick_end;

/* The fifth tick or a later one stops the team, once every member loops
 * (on a loaded machine one may not have run by the fifth) or at the
 * bound (the assertions then say which did not). */
static void
on_tick(void *arg)
{
	struct diot_team *t = arg;

	if (++ticks >= 5 && (looped(t, -1) || diot_now_ns() >= tick_end))
		diot_team_stop(t);
}

/* The stop flag reaches members; the tick runs while waiting. */
static void
stop_case(int flags)
{
	struct diot_team *t = diot_team_new(3, sizeof(struct res), flags, NULL);
	int k;

	ticks = 0;
	tick_end = diot_now_ns() + WAIT_NS;
	ck_assert_int_eq(diot_team_start(t, m_loop, NULL, NULL), 0);
	diot_team_await_ready(t);
	diot_team_go(t, 0);
	diot_team_wait(t, 10, on_tick, t);
	ck_assert_int_ge(ticks, 5);
	for (k = 0; k < 3; k++) {
		ck_assert_int_eq(((struct res *)diot_team_result(t, k))->stopped, 1);
		ck_assert_int_gt(((struct res *)diot_team_result(t, k))->loops, 0);
	}
	diot_team_free(t);
}

START_TEST(test_stop_threads)
{
	stop_case(DIOT_TEAM_THREADS);
}
END_TEST

START_TEST(test_stop_processes)
{
	stop_case(DIOT_TEAM_PROCESSES | DIOT_TEAM_OWN_SESSION);
}
END_TEST

/* A signal before go: the members are stopped at the gate. */
static volatile sig_atomic_t intr_flag;

START_TEST(test_intr_before_go)
{
	struct diot_team *t;
	int k;

	intr_flag = 1;
	t = diot_team_new(2, sizeof(struct res), DIOT_TEAM_THREADS, &intr_flag);
	ck_assert_int_eq(diot_team_start(t, m_loop, NULL, NULL), 0);
	diot_team_await_ready(t);
	diot_team_go(t, 0);
	diot_team_wait(t, 10, NULL, NULL);
	for (k = 0; k < 2; k++)
		ck_assert_int_eq(((struct res *)diot_team_result(t, k))->stopped, 2);
	diot_team_free(t);
	intr_flag = 0;
}
END_TEST

/* A signal flag set in the parent is forwarded as SIGTERM to processes. */
static volatile sig_atomic_t child_term;

static void
on_term(int sig)
{
	child_term = sig;
}

static void
m_term(struct diot_team *t, int k, void *arg)
{
	struct res *r = diot_team_result(t, k);
	uint64_t end;

	(void)arg;
	signal(SIGTERM, on_term);
	diot_team_ready(t, k);
	end = diot_now_ns() + WAIT_NS;
	while (!child_term && diot_now_ns() < end)   /* bounded: 0 if none came */
		nap_ms(5);
	r->stopped = (int)child_term;
}

static void
set_intr(void *arg)
{
	(void)arg;
	intr_flag = 1;
}

START_TEST(test_forward_stop)
{
	struct diot_team *t = diot_team_new(2, sizeof(struct res), DIOT_TEAM_PROCESSES |
	                                    DIOT_TEAM_FORWARD_STOP, &intr_flag);
	int k;

	intr_flag = 0;
	ck_assert_int_eq(diot_team_start(t, m_term, NULL, NULL), 0);
	diot_team_await_ready(t);
	diot_team_go(t, 0);
	diot_team_wait(t, 10, set_intr, NULL);
	for (k = 0; k < 2; k++)
		ck_assert_msg(((struct res *)diot_team_result(t, k))->stopped == SIGTERM,
		              "member %d got signal %d, want SIGTERM (0: none within 60 s)",
		              k, ((struct res *)diot_team_result(t, k))->stopped);
	diot_team_free(t);
	intr_flag = 0;
}
END_TEST

/* A process member running a thread team of its own (dio-dd). */
static void
m_inner(struct diot_team *t, int k, void *arg)
{
	struct diot_team *outer = arg;
	struct res *r = diot_team_result(t, k);

	r->gate_rc = diot_team_ready(t, k);
	r->go_seen = diot_team_go_ns(t);
	r->after_gate = diot_now_ns();
	(void)outer;
}

static void
m_outer(struct diot_team *t, int k, void *arg)
{
	struct diot_team *in = diot_team_new(3, sizeof(struct res), DIOT_TEAM_THREADS, NULL);
	struct res *r = diot_team_result(t, k);
	int i, ok = 1;

	(void)arg;
	if (in == NULL || diot_team_start(in, m_inner, t, NULL) != 0)
		return;
	diot_team_await_ready(in);
	diot_team_ready(t, k);
	diot_team_go(in, diot_team_go_ns(t));
	diot_team_wait(in, 20, NULL, NULL);
	for (i = 0; i < 3; i++) {
		struct res *x = diot_team_result(in, i);

		ok &= x->gate_rc == 0 && x->go_seen == diot_team_go_ns(t) &&
		      x->after_gate >= diot_team_go_ns(t);
	}
	r->loops = ok ? 3 : -1;
	diot_team_free(in);
}

START_TEST(test_nested)
{
	struct diot_team *t = diot_team_new(2, sizeof(struct res), DIOT_TEAM_PROCESSES, NULL);

	ck_assert_int_eq(diot_team_start(t, m_outer, NULL, NULL), 0);
	diot_team_await_ready(t);
	diot_team_go(t, 0);
	diot_team_wait(t, 20, NULL, NULL);
	ck_assert_int_eq(((struct res *)diot_team_result(t, 0))->loops, 3);
	ck_assert_int_eq(((struct res *)diot_team_result(t, 1))->loops, 3);
	diot_team_free(t);
}
END_TEST

static Suite *
team_suite(void)
{
	Suite *s = suite_create("team");
	TCase *tc = tcase_create("team");

	tcase_set_timeout(tc, 120);   /* over the 60 s bound of a wait */
	tcase_add_test(tc, test_gate_threads);
	tcase_add_test(tc, test_gate_processes);
	tcase_add_test(tc, test_go_time_given);
	tcase_add_test(tc, test_member_killed);
	tcase_add_test(tc, test_member_exits);
	tcase_add_test(tc, test_stop_threads);
	tcase_add_test(tc, test_stop_processes);
	tcase_add_test(tc, test_intr_before_go);
	tcase_add_test(tc, test_forward_stop);
	tcase_add_test(tc, test_nested);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(team_suite()));
}
