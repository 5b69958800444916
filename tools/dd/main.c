/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dio-dd -- a dd-like sequential transfer tool for several files or
 * devices at once, measured.
 *
 * Every device named in if= / of= is driven at the same time by its own
 * threads (thr=), as the studies of O_DIRECT on many disks did: read
 * (if= only), write a generated pattern (of= only), or copy if= to of=
 * pairwise.  The data path is buffered, direct (dio_open DIO_DIRECT_ON:
 * O_DIRECT or directio()), no-copy (dio_read_discard: into the kernel and
 * dropped), or SCSI READ/WRITE through sg (the library's command object,
 * optionally with direct transfers: dio=1); the engine is synchronous
 * (one call at a time per thread) or asynchronous (dio_aio, qd= requests
 * in flight per thread).
 *
 * What is measured: the wall time of the whole workload per device and
 * in total (from the moment all threads are released at once until the
 * last one finishes), the time spent inside the I/O calls, the latency of
 * every call (histogram, percentiles), CPU time, and for sg the commands
 * where direct I/O was asked but not done.
 *
 * Structure: operands -> open and check every device (refusals first,
 * nothing written before all checks passed) -> threads wait at a start
 * gate -> run -> merge per-thread results -> report (table, csv, json);
 * with time=1 or JSON, the disks under each operand are counted over the
 * run (disks.c).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tools/dd/dd.h"
#include "tools/kit/clock.h"
#include "tools/kit/msg.h"

/* The only state outside struct dd: what the signal handlers set. */
static volatile sig_atomic_t g_stop, g_signal, g_usr1;

static void
on_signal(int sig)
{
	g_signal = sig;
	g_stop = 1;
}

/* SIGUSR1, as dd: the statistics so far, and the run goes on (said by
 * the waiting parent, workers.c; system calls are restarted). */
static void
on_usr1(int sig)
{
	(void)sig;
	g_usr1 = 1;
}

/* SIGUSR2: nothing but the end of a wait (dd_stream_wake()). */
static void
on_wake(int sig)
{
	(void)sig;
}

static void
catch_usr1(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_wake;
	sa.sa_flags = 0;
	sigaction(SIGUSR2, &sa, NULL);
}

/* The command line, each rank on its own (an error said once by one
 * rank: tools/kit/mpi.h), and what the ranks compare of it. */
struct parsing {
	struct dd *dd;
	int argc;
	char **argv;
	int r;                              /* dd_parse_args()'s              */
	struct diot_mpi_item items[DD_OPT_ITEMS + 1];
	int nitems;
};

static void
parse_stage(void *arg)
{
	struct parsing *ps = arg;
	int saved = diot_mpi_mute(ps->dd->mpi);    /* --help, --version: once */

	ps->r = dd_parse_args(ps->dd, ps->argc, ps->argv);
	diot_mpi_unmute(saved);
	ps->nitems = dd_opts_items(ps->dd, ps->items);
	ps->items[ps->nitems].name = "--help or --version";
	ps->items[ps->nitems++].value = ps->r >= 0 ? "given" : "not given";
}

/* Every device opened and checked, each rank its own (an error said
 * once); nothing is written before every check passed. */
static void
open_stage(void *arg)
{
	struct dd *dd = arg;

	dd_ranks_operands(dd);
	dd_check_operands(dd);
	if (dd->o.engine != DD_ENG_SYNC)
		dd_choose_engine(dd);

	diot_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);

	dd_setup_devices(dd);
	dd_check_opened(dd);
	dd_disks_open(dd);
}

int
main(int argc, char **argv)
{
	/* Static: what the run allocated stays reachable until exit (the
	 * stages get a pointer to it; none reads it as a global). */
	static struct dd run;
	static struct diot_mpi mpi;
	static struct parsing ps;
	struct dd *dd = &run;
	double cpu_user, cpu_sys;
	char why[300];
	int failed, status;

	diot_init(argv[0]);
	memset(&run, 0, sizeof(run));
	dd->t_start = diot_now_ns();
	dd->aio_engine = -1;
	dd->stop = &g_stop;
	dd->signal = &g_signal;
	dd->usr1 = &g_usr1;
	catch_usr1();
	diot_out_init(&dd->created);
	/* Started by mpirun: one rank of a job (ranks.c); else as alone. */
	if (diot_mpi_join(&mpi, &argc, &argv, why, sizeof(why)) < 0)
		diot_die(DIOT_EXIT_USAGE, "%s", why);
	dd->mpi = &mpi;

	ps.dd = dd;
	ps.argc = argc;
	ps.argv = argv;
	diot_mpi_each(&mpi, parse_stage, &ps);
	diot_mpi_same(&mpi, ps.items, ps.nitems);  /* every rank, one job */
	if (ps.r >= 0) {
		diot_mpi_leave(&mpi, ps.r);
		return ps.r;
	}
	/* What the open stage creates goes should the job end before it runs
	 * (another rank's setup failed: every rank leaves through exit());
	 * once every rank is ready the outputs are the run's. */
	diot_out_remove_at_exit(&dd->created);
	diot_mpi_each(&mpi, open_stage, dd);
	diot_out_keep(&dd->created, -1);
	dd_run_workers(dd, &cpu_user, &cpu_sys);
	dd_close_sides(dd);
	failed = dd_report(dd, cpu_user, cpu_sys);
	dd_disks_close(dd);

	if (g_signal) {
		/* dd says nothing more than its lines; a report that went out
		 * (time=1, CSV, JSON) is said to be partial, unless status=none */
		if (dd->o.status != DD_STATUS_NONE && (dd->o.time || dd->o.format != DD_FMT_TABLE))
			diot_warn("interrupted by signal %d: the results above are partial",
			          (int)g_signal);
		status = 128 + (int)g_signal;
	} else {
		status = failed ? DIOT_EXIT_FAIL : 0;
	}
	status = dd_ranks_status(dd, status);
	diot_mpi_leave(&mpi, status);
	/* As dd, dio-dd then dies by the signal (the shell sees 128 + it and
	 * a script's loop stops); a rank of an MPI job exits with the status. */
	if (g_signal && !mpi.on) {
		fflush(NULL);
		diot_die_by_signal((int)g_signal);
	}
	return status;
}
