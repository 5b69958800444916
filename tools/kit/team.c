/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * team.c -- a team of threads or processes with a ready/go gate (team.h).
 *
 * The state every member and the parent share is in one mapping: the stop
 * flag, the go time, each member's ready and done flags, then the result
 * area.  Two pipes carry wake-ups only: members write a byte on "ready" when
 * they are ready and when they are done, and wait for "go" to be closed.
 * As the state is in shared memory, a member that dies cannot make the
 * parent wait for ever: the parent reaps processes while it waits.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/kit/clock.h"
#include "tools/kit/team.h"

struct member_state {
	volatile sig_atomic_t ready, done;
};

struct shared {
	volatile sig_atomic_t stop;
	volatile uint64_t go_ns;
	/* then n struct member_state, then n results */
};

struct member {
	struct diot_team *t;
	int k;
	pid_t pid;
	pthread_t thr;
	int started, gone, how, code;
};

struct diot_team {
	int n, flags, forwarded;
	size_t result_size, stride, map_len;
	const volatile sig_atomic_t *intr;
	struct shared *sh;
	struct member_state *st;
	unsigned char *res;
	struct member *m;
	diot_team_fn *fn;
	void *arg;
	int ready_r, ready_w, go_r, go_w;
	pid_t parent;             /* the parent, seen from a member process */
	int in_member;            /* this copy is a member process's        */
};

#define ALIGN_UP(x) (((x) + 63) / 64 * 64)

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

struct diot_team *
diot_team_new(int n, size_t result_size, int flags, const volatile sig_atomic_t *intr)
{
	struct diot_team *t;
	int p[2], q[2];
	void *mem;

	if (n < 1) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->n = n;
	t->flags = flags;
	t->intr = intr;
	t->result_size = result_size;
	t->stride = ALIGN_UP(result_size ? result_size : 1);
	t->map_len = ALIGN_UP(sizeof(struct shared)) +
	             ALIGN_UP((size_t)n * sizeof(struct member_state)) +
	             (size_t)n * t->stride;
	t->m = calloc((size_t)n, sizeof(*t->m));
	t->ready_r = t->ready_w = t->go_r = t->go_w = -1;
	if (t->m == NULL) {
		free(t);
		return NULL;
	}
	if (flags & DIOT_TEAM_PROCESSES) {
		mem = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON,
		           -1, 0);
		if (mem == MAP_FAILED)
			mem = NULL;
	} else {
		mem = calloc(1, t->map_len);
	}
	if (mem == NULL || pipe(p) != 0) {
		int e = errno;

		if (mem != NULL && (flags & DIOT_TEAM_PROCESSES))
			munmap(mem, t->map_len);
		else
			free(mem);
		diot_team_free(t);   /* sh is still NULL */
		errno = e;
		return NULL;
	}
	if (pipe(q) != 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		if (flags & DIOT_TEAM_PROCESSES)
			munmap(mem, t->map_len);
		else
			free(mem);
		diot_team_free(t);
		errno = e;
		return NULL;
	}
	memset(mem, 0, t->map_len);
	t->sh = mem;
	t->st = (struct member_state *)((unsigned char *)mem + ALIGN_UP(sizeof(struct shared)));
	t->res = (unsigned char *)t->st + ALIGN_UP((size_t)n * sizeof(struct member_state));
	t->ready_r = p[0];
	t->ready_w = p[1];
	t->go_r = q[0];
	t->go_w = q[1];
	return t;
}

void
diot_team_free(struct diot_team *t)
{
	if (t == NULL)
		return;
	close_fd(&t->ready_r);
	close_fd(&t->ready_w);
	close_fd(&t->go_r);
	close_fd(&t->go_w);
	if (t->sh != NULL) {
		if (t->flags & DIOT_TEAM_PROCESSES)
			munmap(t->sh, t->map_len);
		else
			free(t->sh);
	}
	free(t->m);
	free(t);
}

int
diot_team_size(const struct diot_team *t)
{
	return t->n;
}

void *
diot_team_result(struct diot_team *t, int k)
{
	return t->res + (size_t)k * t->stride;
}

uint64_t
diot_team_go_ns(const struct diot_team *t)
{
	return t->sh->go_ns;
}

int
diot_team_stopping(const struct diot_team *t)
{
	/* A member process whose parent died (SIGKILL, a rank of an MPI job
	 * killed) stops too, rather than write on for nobody: asked every 64th
	 * time, as getppid() is a system call.  (Threads of one member that
	 * poll the outer team, as dio-dd's, share the count: an increment
	 * lost between them only makes the check a little rarer.) */
	static volatile unsigned polls;

	if (t->in_member && (++polls & 63) == 0 && getppid() != t->parent)
		return 1;
	return t->sh->stop || (t->intr != NULL && *t->intr);
}

void
diot_team_stop(struct diot_team *t)
{
	t->sh->stop = 1;
}

static void
wake_parent(struct diot_team *t, char c)
{
	while (write(t->ready_w, &c, 1) < 0 && errno == EINTR)
		;
}

int
diot_team_ready(struct diot_team *t, int k)
{
	char ch;

	if (!t->st[k].ready) {
		t->st[k].ready = 1;
		wake_parent(t, 'r');
	}
	/* Wait for the go (end of file on the go pipe), or a stop. */
	for (;;) {
		struct pollfd pfd;

		pfd.fd = t->go_r;
		pfd.events = POLLIN;
		if (diot_team_stopping(t))
			return -1;
		if (poll(&pfd, 1, 200) > 0 && read(t->go_r, &ch, 1) >= 0)
			return 0;
	}
}

/* A member's life, in a thread or a process. */
static void
member_run(struct member *m)
{
	struct diot_team *t = m->t;

	m->t->fn(t, m->k, t->arg);
	if (!t->st[m->k].ready) {
		t->st[m->k].ready = 1;
		wake_parent(t, 'r');
	}
	t->st[m->k].done = 1;
	wake_parent(t, 'd');
}

static void *
member_thread(void *p)
{
	member_run(p);
	return NULL;
}

/* Send SIGTERM once to the member processes still running, if asked. */
static void
forward(struct diot_team *t)
{
	int k;

	if (t->forwarded || !(t->flags & DIOT_TEAM_FORWARD_STOP) ||
	    !(t->flags & DIOT_TEAM_PROCESSES))
		return;
	for (k = 0; k < t->n; k++)
		if (t->m[k].started && !t->m[k].gone && t->m[k].pid > 0)
			kill(t->m[k].pid, SIGTERM);
	t->forwarded = 1;
}

/* Record how a reaped process ended. */
static void
reaped(struct diot_team *t, int k, int status)
{
	struct member *m = &t->m[k];

	m->gone = 1;
	if (t->st[k].done) {
		m->how = DIOT_END_FINISHED;
		return;
	}
	if (WIFSIGNALED(status)) {
		m->how = DIOT_END_SIGNAL;
		m->code = WTERMSIG(status);
	} else {
		m->how = DIOT_END_EXIT;
		m->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	}
	if (t->flags & DIOT_TEAM_STOP_ON_DEATH)
		t->sh->stop = 1;
}

static void
reap(struct diot_team *t, int block)
{
	int k, status;
	pid_t r;

	if (!(t->flags & DIOT_TEAM_PROCESSES))
		return;
	for (k = 0; k < t->n; k++) {
		if (!t->m[k].started || t->m[k].gone)
			continue;
		r = waitpid(t->m[k].pid, &status, block ? 0 : WNOHANG);
		while (r < 0 && errno == EINTR && block)
			r = waitpid(t->m[k].pid, &status, 0);
		if (r == t->m[k].pid)
			reaped(t, k, status);
		else if (r < 0 && errno != EINTR)
			t->m[k].gone = 1;    /* cannot happen with our own children */
	}
}

/* Members started that are ready (end 0) or done (end 1), or gone. */
static int
count(const struct diot_team *t, int end)
{
	int k, n = 0;

	for (k = 0; k < t->n; k++)
		n += !t->m[k].started || t->m[k].gone ||
		     (end ? t->st[k].done : t->st[k].ready);
	return n;
}

/* Sleep until a member writes a wake-up, a signal or ms pass. */
static void
doze(struct diot_team *t, int ms)
{
	struct pollfd pfd;
	char drain[64];

	pfd.fd = t->ready_r;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, ms) > 0)
		(void)!read(t->ready_r, drain, sizeof(drain));
}

void
diot_team_await_ready(struct diot_team *t)
{
	for (;;) {
		reap(t, 0);
		if (count(t, 0) == t->n)
			return;
		if (t->intr != NULL && *t->intr) {
			t->sh->stop = 1;
			forward(t);
			return;
		}
		doze(t, 200);
	}
}

uint64_t
diot_team_go(struct diot_team *t, uint64_t go_ns)
{
	t->sh->go_ns = go_ns ? go_ns : diot_now_ns();
	close_fd(&t->go_w);
	return t->sh->go_ns;
}

void
diot_team_wait(struct diot_team *t, int tick_ms, void (*tick)(void *), void *arg)
{
	int k;

	if (t->go_w >= 0 && !t->sh->stop)
		t->sh->stop = 1;     /* never released: release them to stop */
	close_fd(&t->go_w);
	for (;;) {
		reap(t, 0);
		if (t->intr != NULL && *t->intr) {
			t->sh->stop = 1;
			forward(t);
		}
		if (count(t, 1) == t->n)
			break;
		doze(t, tick_ms > 0 ? tick_ms : 200);
		if (tick != NULL)
			tick(arg);
	}
	if (t->flags & DIOT_TEAM_PROCESSES) {
		reap(t, 1);
		return;
	}
	for (k = 0; k < t->n; k++)
		if (t->m[k].started && !t->m[k].gone) {
			pthread_join(t->m[k].thr, NULL);
			t->m[k].gone = 1;
			t->m[k].how = DIOT_END_FINISHED;
		}
}

int
diot_team_start(struct diot_team *t, diot_team_fn *fn, void *arg, int *failed)
{
	int k, e;

	t->fn = fn;
	t->arg = arg;
	fflush(NULL);
	for (k = 0; k < t->n; k++) {
		struct member *m = &t->m[k];

		m->t = t;
		m->k = k;
		if (!(t->flags & DIOT_TEAM_PROCESSES)) {
			e = pthread_create(&m->thr, NULL, member_thread, m);
			if (e != 0)
				goto fail;
			m->started = 1;
			continue;
		}
		t->parent = getpid();
		m->pid = fork();
		if (m->pid < 0) {
			e = errno;
			goto fail;
		}
		if (m->pid == 0) {
			t->in_member = 1;
			close_fd(&t->ready_r);
			close_fd(&t->go_w);
			if (t->flags & DIOT_TEAM_OWN_SESSION)
				setsid();
			member_run(m);
			_exit(0);
		}
		m->started = 1;
	}
	return 0;
fail:
	if (failed != NULL)
		*failed = k;
	t->sh->stop = 1;
	if (t->flags & DIOT_TEAM_PROCESSES) {
		for (k = 0; k < t->n; k++)
			if (t->m[k].started && (t->flags & DIOT_TEAM_FORWARD_STOP))
				kill(t->m[k].pid, SIGTERM);
	}
	diot_team_wait(t, 200, NULL, NULL);
	return -e;
}

int
diot_team_end(const struct diot_team *t, int k, int *code)
{
	if (code != NULL)
		*code = t->m[k].code;
	return t->m[k].how;
}
