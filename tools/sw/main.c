/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sync-write -- synchronous sequential write benchmark.
 *
 * For every combination of commit method x transaction size x number of
 * writers ("a point"), writers write transactions sequentially through
 * their own region of the target and commit each one the method's way;
 * the time of every transaction (write + commit) is recorded.  The answer
 * is the average time per transaction in microseconds and its
 * distribution, as asked by the Solaris UFS study of large synchronous
 * sequential writes, for any method the platform offers.
 *
 * The path of a run, top to bottom: options (args.c) -> the output files
 * claimed (output.c) -> target preparation (target.c) -> the run begun and
 * each point run in turn (run.c) -> for each point: a team of
 * writers (point.c, writers.c) that meet at a gate, run, and leave their
 * histograms in shared memory -> report (report.c: table/CSV as points
 * finish, JSON at the end, the summary of both, summary.c; plot.c) ->
 * optional read-back verification (verify.c).  --check of an ack log is
 * check.c.  A closed pipe on the results ends the run as a filter's
 * (output.c, signals.c: killed by SIGPIPE, after removing its files).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/sw/ackrec.h"
#include "tools/sw/sw.h"

static int finish_run(struct sw_ctx *c, FILE *fp, struct sw_run *run,
                      const struct sw_point *pts, int n);

/* The command line, each rank on its own (tools/kit/mpi.h: an error is
 * said once, by one rank): the options, what ranks compare of them, and
 * what ranks cannot do. */
struct parsing {
	int argc;
	char **argv;
	struct sw_opts *o;
	struct diot_mpi *mpi;
	int r;                              /* sw_parse_args()'s             */
	struct diot_mpi_item items[SW_OPT_ITEMS];
	int nitems;
};

static void
parse_stage(void *arg)
{
	struct parsing *ps = arg;
	int saved = diot_mpi_mute(ps->mpi);  /* --help, --version: said once */

	ps->r = sw_parse_args(ps->argc, ps->argv, ps->o);
	diot_mpi_unmute(saved);
	ps->nitems = sw_opts_items(ps->o, ps->items);
	ps->items[ps->nitems].name = "--help or --version";
	ps->items[ps->nitems++].value = ps->r >= 0 ? "given" : "not given";
	if (ps->r < 0)
		sw_ranks_check_opts(ps->o, ps->mpi);
}

/* The output files, each rank its own (an error said once). */
struct claiming {
	struct sw_ctx *c;
	struct sw_outputs *out;
};

static void
claim_stage(void *arg)
{
	struct claiming *cl = arg;

	sw_claim_outputs(cl->c, cl->out);
}

int
main(int argc, char **argv)
{
	static struct sw_outputs outs;
	static struct sw_opts o;     /* static: what it holds stays reachable to exit */
	static struct parsing ps;
	struct claiming cl;
	struct sw_ctx c;
	static struct sw_run run;
	static struct diot_mpi mpi;
	struct sw_point *pts;
	int r, total, n = 0;
	char why[300];
	FILE *fp;

	diot_init(argv[0]);
	/* A rank of an MPI job: whatever kills it, the files the job created
	 * go unless it ended in order (outfile.h's guard, started before MPI
	 * opens descriptors); then the job (ranks.c). */
	if (diot_mpi_launched() && (r = diot_out_guard()) < 0)
		diot_warn("cannot start the guard that removes the job's files should "
		          "this rank be killed: %s", dio_strerror(r));
	if (diot_mpi_join(&mpi, &argc, &argv, why, sizeof(why)) < 0)
		diot_die(DIOT_EXIT_USAGE, "%s", why);
	ps.argc = argc;
	ps.argv = argv;
	ps.o = &o;
	ps.mpi = &mpi;
	diot_mpi_each(&mpi, parse_stage, &ps);
	diot_mpi_same(&mpi, ps.items, ps.nitems);     /* every rank, one job */
	if (ps.r >= 0) {
		diot_mpi_leave(&mpi, ps.r);
		return ps.r;
	}
	if (o.check_log)
		return sw_check_main(o.check_log, o.target);
	if (o.compare)
		return sw_exit_status(sw_compare_main(&o, &outs));
	if (o.listen) {
		sw_catch_signals();
		return sw_listen_main(&o, &sw_signal);
	}
	if (o.noperands > 1)
		return sw_exit_status(sw_interleave_main(&o, &outs, &sw_signal));
	sw_ctx_init(&c, &o, &sw_signal);
	sw_ranks_init(&c, &mpi);
	cl.c = &c;
	cl.out = &outs;
	diot_mpi_each(&mpi, claim_stage, &cl);
	/* Every rank has its outputs: rank 0 makes the target. */
	sw_ranks_setup_target(&c, o.writers[o.nwriters - 1], o.sizes[o.nsizes - 1]);
	r = sw_ranks_status(&c, (int)sw_signal);     /* a signal on any rank */
	if (r) {
		sw_release(&c, NULL, 0);
		diot_mpi_leave(&mpi, 128 + r);
		return 128 + r;                 /* 130 for SIGINT, 143 for SIGTERM */
	}
	fp = sw_begin_run(&c, &outs);
	sw_describe_run(&c, &run);
	total = o.nwriters * o.nmethods * o.nsizes;
	pts = calloc((size_t)total, sizeof(*pts));
	if (pts == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	if (fp != NULL)
		sw_report_begin(fp, o.format, &run, o.wide);
	sw_run_points(&c, 1, fp, &pts, &n);
	r = sw_ranks_status(&c, finish_run(&c, fp, &run, pts, n));
	sw_release(&c, pts, total);
	free(o.methods);
	free(o.sizes);
	free(o.writers);
	diot_mpi_leave(&mpi, r);
	return sw_exit_status(r);   /* a reader that left: killed by SIGPIPE */
}

/* The end of the report, the plot, the warnings; the exit status. */
static int
finish_run(struct sw_ctx *c, FILE *fp, struct sw_run *run,
           const struct sw_point *pts, int n)
{
	const struct sw_opts *o = c->o;
	int i, verify_fail = 0, out_fail = 0;

	for (i = 0; i < n; i++) {
		if (pts[i].status == SW_ERROR)
			run->error = pts[i].note;
		if (pts[i].verify.done && pts[i].verify.ok != pts[i].verify.checked)
			verify_fail = 1;
	}
	run->interrupted = *c->sig != 0;
	/* Results that could not be written are a failed run.  (fp NULL: a
	 * rank other than 0, which reports nothing.) */
	if (fp != NULL)
		sw_report_end(fp, o->format, run, pts, n, o->wide);
	if (fp != NULL && o->plot && sw_plot(o->plot, run->fstype, pts, n) != 0) {
		diot_warn("--plot '%s': cannot write the plot: %s", o->plot,
		          dio_strerror(-errno));
		out_fail = 1;
	}
	if (fp != NULL && sw_close_results(o, fp) != 0)
		out_fail = 1;
	if (!*c->sig && !run->error && sw_ackrec_end(&c->ack) < 0)
		diot_warn("--ack-log '%s': cannot record the end of the run", o->ack_log);
	diot_ack_close(&c->ack);
	/* (the error names its rank: said for the job, not as rank 0's) */
	if (run->error && SW_RANK0(c))
		diot_warn_job("%s", run->error);
	if (verify_fail && SW_RANK0(c))
		diot_warn("verification FAILED: some transactions are missing, corrupt or "
		          "misplaced (see the verify columns)");
	if (*c->sig)
		return 128 + (int)*c->sig;
	return (run->error || verify_fail || out_fail) ? DIOT_EXIT_FAIL : 0;
}

