/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * workers.c -- dio-dd's workers on the kit's team (tools/kit/team.h): thr=
 * threads per device, all in this process, or (--processes) a process per
 * device, each with its device's threads (a thread team nested in a
 * process team).  Every worker sets itself up, waits at the gate, and all
 * start at one go time; a signal stops them (dd->stop, and SIGTERM passed on
 * to worker processes); a worker process that dies is reported on its
 * device.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "tools/dd/dd.h"
#include "tools/kit/clock.h"
#include "tools/kit/msg.h"
#include "tools/kit/team.h"

/*
 * While the workers run, ten times a second: SIGUSR1's statistics so far
 * (dd's lines), and with status=progress the transfer line once a second.
 */
static void
tick(void *arg)
{
	static uint64_t last;
	struct dd *dd = arg;
	uint64_t now;

	if (*dd->stop)
		dd_stream_wake(dd);
	if (*dd->usr1) {
		*dd->usr1 = 0;
		if (dd->progress_shown) {
			fputc('\n', stderr);
			dd->progress_shown = 0;
		}
		dd_say_statistics(dd);
	}
	if (dd->o.status != DD_STATUS_PROGRESS || dd->t_go == 0)
		return;
	now = diot_now_ns();
	if (now - dd->t_go >= 1000000000ull && now - last >= 1000000000ull) {
		last = now;
		dd_say_progress(dd);
	}
}


/* What the thread members of one team share: the run, and the first
 * device of the team (0 in threads mode, the process's own otherwise). */
struct crew {
	struct dd *dd;
	int first_dev;
};

/* A thread member: thread k % thr of device first_dev + k / thr. */
static void
thread_member(struct diot_team *t, int k, void *arg)
{
	const struct crew *cr = arg;
	struct dd *dd = cr->dd;
	struct dd_wctx *w = diot_team_result(t, k);
	int thr = (int)dd->o.thr;

	w->dd = dd;
	w->d = &dd->devs[cr->first_dev + k / thr];
	w->k = k % thr;
	w->team = t;
	w->member = k;
	diot_hist_reset(&w->hist[DD_DIR_READ]);
	diot_hist_reset(&w->hist[DD_DIR_WRITE]);
	dd_worker(w);
}

/* Start a thread team of n members; on failure the device's record (or,
 * with why, the caller) gets "cannot start thread K of 'X'". */
static struct diot_team *
start_threads(struct crew *cr, int n, char *why, size_t why_len)
{
	struct diot_team *t = diot_team_new(n, sizeof(struct dd_wctx), DIOT_TEAM_THREADS,
	                                    cr->dd->stop);
	int failed = 0, thr = (int)cr->dd->o.thr;

	if (t == NULL) {
		snprintf(why, why_len, "cannot start the threads: out of memory");
		return NULL;
	}
	if (diot_team_start(t, thread_member, cr, &failed) < 0) {
		snprintf(why, why_len, "cannot start thread %d of '%s'", failed % thr,
		         cr->dd->devs[cr->first_dev + failed / thr].name);
		diot_team_free(t);
		return NULL;
	}
	return t;
}

/* A process member: device i's threads, released at the parent's go
 * time.  Nothing here prints; what goes wrong goes into the device's
 * shared record. */
static void
process_member(struct diot_team *outer, int i, void *arg)
{
	struct crew cr;
	struct diot_team *inner;
	struct dd_dev *d;

	cr.dd = arg;
	cr.first_dev = i;
	d = &cr.dd->devs[i];
	inner = start_threads(&cr, (int)cr.dd->o.thr, d->errmsg, sizeof(d->errmsg));
	if (inner == NULL) {
		d->err = -EAGAIN;
		return;         /* counts as ready and done */
	}
	diot_team_await_ready(inner);
	if (diot_team_ready(outer, i) != 0)
		diot_team_stop(inner);
	cr.dd->t_go = diot_team_go_ns(outer);
	diot_team_go(inner, cr.dd->t_go);
	diot_team_wait(inner, 100, NULL, NULL);
	diot_team_free(inner);
}

/* User and system CPU of the run: this process, and its worker processes
 * once they have been waited for. */
static void
cpu_times_all(const struct dd *dd, double *user, double *sys)
{
	double cu, cs;

	diot_cpu_times(user, sys);
	if (dd->o.procs && diot_rusage_times(RUSAGE_CHILDREN, &cu, &cs) == 0) {
		*user += cu;
		*sys += cs;
	}
}

/* A worker process that died before finishing: say so on its device. */
static void
note_deaths(struct dd *dd, const struct diot_team *t)
{
	int i, code;

	for (i = 0; i < dd->ndevs; i++) {
		struct dd_dev *d = &dd->devs[i];
		int how = diot_team_end(t, i, &code);

		if (d->err != 0 || (how != DIOT_END_SIGNAL && !(how == DIOT_END_EXIT && code)))
			continue;
		d->err = -ECHILD;
		if (how == DIOT_END_SIGNAL)
			snprintf(d->errmsg, sizeof(d->errmsg), "the process for '%s' was killed "
			         "by signal %d", d->name, code);
		else
			snprintf(d->errmsg, sizeof(d->errmsg), "the process for '%s' exited "
			         "with status %d", d->name, code);
	}
}

/*
 * --processes: a process per device, each in a session of its own (as
 * fio runs its jobs) unless --same-session; a signal that stops the run
 * is passed on to them; the devices' records are in shared memory.
 */
static void
run_processes(struct dd *dd, double *u0, double *s0)
{
	int flags = DIOT_TEAM_PROCESSES | DIOT_TEAM_FORWARD_STOP, failed = 0, r;
	struct diot_team *t;

	if (!dd->o.same_session)
		flags |= DIOT_TEAM_OWN_SESSION;
	t = diot_team_new(dd->ndevs, 1, flags, dd->signal);
	if (t == NULL)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "cannot set up worker processes: out of memory");
	r = diot_team_start(t, process_member, dd, &failed);
	if (r < 0) {
		diot_team_free(t);
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "cannot start a process for '%s': fork: %s",
		              dd->devs[failed].name, dd_strerror(r));
	}
	diot_team_await_ready(t);
	dd_ranks_meet(dd);         /* MPI ranks: every rank's workers ready */
	dd_disks_before(dd);       /* the disks' counters, as late as can be */
	cpu_times_all(dd, u0, s0);
	dd->t_go = diot_team_go(t, 0);
	diot_team_wait(t, 20, tick, dd);
	note_deaths(dd, t);
	diot_team_free(t);
}

/* Every thread of every device in this process. */
static void
run_threads(struct dd *dd, double *u0, double *s0)
{
	char why[DIOT_ERR_MAX];
	struct diot_team *t;
	struct crew cr;

	cr.dd = dd;
	cr.first_dev = 0;
	t = start_threads(&cr, dd->ndevs * (int)dd->o.thr, why, sizeof(why));
	if (t == NULL)
		dd_fail_setup(dd, DIOT_EXIT_FAIL, "%s", why);
	/* Every thread has its buffers and is waiting: measure from here. */
	diot_team_await_ready(t);
	dd_ranks_meet(dd);         /* MPI ranks: every rank's workers ready */
	dd_disks_before(dd);       /* the disks' counters, as late as can be */
	diot_cpu_times(u0, s0);
	dd->t_go = diot_now_ns();
	diot_team_go(t, dd->t_go);
	diot_team_wait(t, 100, tick, dd);
	diot_team_free(t);
}

/*
 * Start every worker (threads, or a process per device), release them
 * at once, wait for all; the CPU time they used in *cpu_user, *cpu_sys.
 */
void
dd_run_workers(struct dd *dd, double *cpu_user, double *cpu_sys)
{
	double u0 = 0, s0 = 0, u1 = 0, s1 = 0;

	if (dd->o.procs)
		run_processes(dd, &u0, &s0);
	else
		run_threads(dd, &u0, &s0);
	dd_disks_after(dd);        /* every worker has ended (its syncs too) */
	cpu_times_all(dd, &u1, &s1);
	*cpu_user = u1 - u0;
	*cpu_sys = s1 - s0;
}
