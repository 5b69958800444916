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
 * claimed -> target preparation (target.c) -> for each point: a team of
 * writers (point.c, writers.c) that meet at a gate, run, and leave their
 * histograms in shared memory -> report (report.c: table/CSV as points
 * finish, JSON at the end; plot.c) -> optional read-back verification
 * (verify.c).  --check of an ack log is check.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "tools/kit/clock.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/sw/check.h"
#include "tools/sw/sw.h"

static volatile sig_atomic_t g_signal;

static void
on_signal(int sig)
{
	g_signal = sig;
}

static void catch_signals(void);
static void keep_outputs(struct sw_outputs *out);
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
		diot_mpi_leave(&mpi);
		return ps.r;
	}
	if (o.check_log)
		return sw_check_main(o.check_log, o.target);
	if (o.compare)
		return sw_compare_main(&o, &outs);
	if (o.listen) {
		catch_signals();
		return sw_listen_main(&o, &g_signal);
	}
	if (o.noperands > 1)
		return sw_interleave_main(&o, &outs, &g_signal);
	sw_ctx_init(&c, &o, &g_signal);
	sw_ranks_init(&c, &mpi);
	cl.c = &c;
	cl.out = &outs;
	diot_mpi_each(&mpi, claim_stage, &cl);
	/* Every rank has its outputs: rank 0 makes the target. */
	sw_ranks_setup_target(&c, o.writers[o.nwriters - 1], o.sizes[o.nsizes - 1]);
	r = sw_ranks_status(&c, (int)g_signal);     /* a signal on any rank */
	if (r) {
		sw_release(&c, NULL, 0);
		diot_mpi_leave(&mpi);
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
	diot_mpi_leave(&mpi);
	return r;
}

void
sw_ctx_init(struct sw_ctx *c, struct sw_opts *o, const volatile sig_atomic_t *sig)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->sig = sig;
	c->ack.kind = DIOT_ACK_NONE;
	c->ack.fd = -1;
	c->tg.claim_fd = -1;
	/* A job of one until sw_ranks_init() says otherwise (several TARGETs
	 * never call it): every writer count of a point is W x ranks.n. */
	c->ranks.n = 1;
	c->ranks.stopped_by = -1;
	/* Time-ordered (check.h, SW_RID_MAKE): --check tells a later run
	 * that wrote over the target from an earlier one a disk kept. */
	{
		struct timespec now;
		uint64_t ms;

		if (clock_gettime(CLOCK_REALTIME, &now) == 0)
			ms = (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
		else
			ms = (uint64_t)time(NULL) * 1000u;
		c->run_id = SW_RID_MAKE(ms, diot_now_ns() ^ ((uint64_t)getpid() * 2654435761u));
	}
}

/* What a target's run allocated, freed before main returns (the files to
 * remove at exit are in the outputs' own list). */
void
sw_release(struct sw_ctx *c, struct sw_point *pts, int n)
{
	int i;

	for (i = 0; pts != NULL && i < n; i++) {
		free(pts[i].per);
		free(pts[i].hosts);
		free(pts[i].per_rank);
	}
	free(pts);
	sw_ranks_free(c);
	for (i = 0; i < SW_MAX_WRITERS; i++)
		free(c->tg.extra[i]);
}

/* Open path for writing without truncating it; remember it if created. */
void
sw_open_results_file(struct sw_outputs *out, const char *path, const char *opt)
{
	char why[200];
	int r = diot_out_writable(path, why, sizeof(why));

	if (r < 0)
		diot_usage_error("%s '%s' %s", opt, path, why);
	r = diot_out_open_results(path);

	if (r < 0)
		diot_usage_error("%s '%s': %s", opt, path, dio_strerror(r));
	if (r == 1)
		out->kept[out->nkept++] = diot_out_created(&out->created, path);
}

/*
 * Every file named on the command line is checked, or created, before the
 * target is touched, and nothing is truncated yet: a run refused later
 * leaves them as they were and removes those it created (at exit, with
 * the target files this run created unless --keep).  Writer processes
 * leave with _exit() and skip this.  Then the signals are caught.
 */
void
sw_claim_outputs(struct sw_ctx *c, struct sw_outputs *out)
{
	const struct sw_opts *o = c->o;

	/* A record is a line: the R record's path cannot hold a newline. */
	if (o->ack_log && ((o->target && strchr(o->target, '\n')) ||
	                   (o->target == NULL && o->dir && strchr(o->dir, '\n'))))
		diot_usage_error("--ack-log: the %s has a newline in its name, which the "
		                 "log's records (lines) cannot hold: rename it", o->target ?
		                 "TARGET" : "--dir");
	diot_out_init(&out->created);
	diot_out_remove_at_exit(&out->created);
	c->created = &out->created;
	if (o->plot && SW_RANK0(c))
		sw_open_results_file(out, o->plot, "--plot");
	if (o->output && strcmp(o->output, "-") != 0 && SW_RANK0(c))
		sw_open_results_file(out, o->output, "--output");
	if (o->ack_log && diot_ack_is_tcp(o->ack_log)) {
		char why[300];

		int r = diot_ack_open(&c->ack, o->ack_log, why, sizeof(why));

		if (r == -EINVAL)
			diot_usage_error("--ack-log %s", why);
		/* Every connection says the run: the listener logs each run apart. */
		if (r == 0)
			r = diot_ack_set_run(&c->ack, c->run_id, why, sizeof(why));
		/* The log's first line at once: the listener keeps a run that has
		 * logged (and so stays up) while this one sets its target up. */
		if (r == 0 && (r = sw_ack_line(&c->ack, "# sync-write ack-log 1\n")) < 0)
			snprintf(why, sizeof(why), "%s", dio_strerror(r));
		c->ack_header_sent = r == 0;
		if (r < 0)
			diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o->ack_log, why);
	} else if (o->ack_log && strcmp(o->ack_log, "-") != 0) {
		char why[200];

		if (diot_out_writable(o->ack_log, why, sizeof(why)) < 0)
			diot_usage_error("--ack-log '%s' %s", o->ack_log, why);
		c->ack.kind = DIOT_ACK_FILE;
		/* (never waits: a FIFO made since the check above is refused) */
		c->ack.fd = diot_ack_open_log(o->ack_log, o->force, why, sizeof(why));
		if (c->ack.fd < 0)
			diot_die(DIOT_EXIT_USAGE, "--ack-log %s%s", why,
			         c->ack.fd == -EEXIST ? " (pass --force to append to an "
			         "existing log)" : "");
		if (!o->force)
			out->kept[out->nkept++] = diot_out_created(&out->created, o->ack_log);
	} else if (o->ack_log) {
		c->ack.kind = DIOT_ACK_STDOUT;
		c->ack.fd = STDOUT_FILENO;
	}
	sw_distinct_outputs(o);
	catch_signals();
}

/*
 * Two outputs that are one file would write over each other: the results
 * (-o, or standard output redirected to a file), the plot, the ack log
 * and an existing TARGET (or its separate files) must all differ.
 */
void
sw_distinct_outputs(const struct sw_opts *o)
{
	const char *name[4 + SW_MAX_TARGETS], *path[4 + SW_MAX_TARGETS];
	struct stat a, b;
	int n = 0, i, k;

	if (o->output && strcmp(o->output, "-") != 0) {
		name[n] = "--output"; path[n++] = o->output;
	}
	if (o->plot) {
		name[n] = "--plot"; path[n++] = o->plot;
	}
	if (o->ack_log && strcmp(o->ack_log, "-") != 0 && !diot_ack_is_tcp(o->ack_log)) {
		name[n] = "--ack-log"; path[n++] = o->ack_log;
	}
	for (k = 0; k < o->noperands && k < SW_MAX_TARGETS && !o->compare; k++) {
		static const char *const tname[SW_MAX_TARGETS] = { "TARGET 1", "TARGET 2",
			"TARGET 3", "TARGET 4", "TARGET 5", "TARGET 6", "TARGET 7", "TARGET 8" };

		name[n] = o->noperands > 1 ? tname[k] : "the TARGET";
		path[n++] = o->operands[k];
	}
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (diot_out_same(path[i], path[k]))
				diot_usage_error("%s '%s' and %s '%s' are the same file: each "
				                 "%s a file of its own", name[i], path[i], name[k],
				                 path[k], strncmp(name[i], "TARGET", 6) == 0 ?
				                 "TARGET must be" : "output needs");
	/* The results on standard output, redirected into one of them? */
	if ((o->output == NULL || strcmp(o->output, "-") == 0) &&
	    fstat(STDOUT_FILENO, &a) == 0 && S_ISREG(a.st_mode))
		for (i = 0; i < n; i++)
			if (stat(path[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
				diot_usage_error("standard output (the results) and %s '%s' are "
				                 "the same file: each output needs a file of its "
				                 "own", name[i], path[i]);
}

/* SIGINT, SIGTERM and SIGHUP stop the run (g_signal); SIGPIPE is an error. */
static void
catch_signals(void)
{
	diot_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
}

/* The run goes ahead: from here on the outputs are the run's. */
FILE *
sw_begin_run(struct sw_ctx *c, struct sw_outputs *out)
{
	const struct sw_opts *o = c->o;
	FILE *fp = NULL;
	struct stat st;
	uint64_t birth = 0;
	int r, fd;

	if (SW_RANK0(c))
		fp = sw_open_results(o, out);
	else                    /* a rank other than 0 reports nothing: its */
		keep_outputs(out);  /* output is its ack log */

	if (SW_ACK_ON(c)) {
		if (strchr(c->tg.path, '\n') != NULL)  /* sw_claim_outputs() refused it */
			diot_die(DIOT_EXIT_FAIL, "--ack-log: a newline in the target's name");
		r = c->ack_header_sent ? 0 : sw_ack_line(&c->ack, "# sync-write ack-log 1\n");
		if (r == 0)
			r = sw_ack_line(&c->ack, "R %llx %s %d %" PRIu64 " %s\n",
			                (unsigned long long)c->run_id,
			                o->layout == SW_LAYOUT_SEPARATE ? "separate" : "shared",
			                o->extend, o->region, c->tg.path);
		/* The target's identity, so that --check knows it again: its
		 * inode, a device's size, a file's birth stamp (another file
		 * that gets the inode number later has another; 0: unknown). */
		fd = open(c->tg.path, O_RDONLY | O_NONBLOCK);
		if (fd >= 0 && !c->tg.is_dev && dio_file_birth(fd, &birth) < 0)
			birth = 0;
		if (r == 0 && (fd >= 0 ? fstat(fd, &st) : stat(c->tg.path, &st)) == 0)
			r = sw_ack_line(&c->ack, "T %s %llu %" PRIu64 " %" PRIu64 "\n",
			                c->tg.is_dev ? "device" : "file",
			                (unsigned long long)st.st_ino,
			                c->tg.is_dev ? c->tg.dev_bytes : 0, birth);
		if (fd >= 0)
			close(fd);
		if (r < 0)
			diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o->ack_log,
			         dio_strerror(r));
	}
	/* The progress line: on a terminal, or anywhere with --progress. */
	c->progress_on = !o->quiet && (o->progress || isatty(STDERR_FILENO)) &&
	                 SW_RANK0(c);
	return fp;
}

/* The run description every format prints. */
void
sw_describe_run(const struct sw_ctx *c, struct sw_run *run)
{
	const struct sw_opts *o = c->o;
	const struct sw_target *tg = &c->tg;
	struct utsname un;
	time_t now = time(NULL);
	struct tm tm;

	memset(run, 0, sizeof(*run));
	run->version = dio_version_string();
	run->backend = dio_backend_name();
	run->target = tg->path;
	run->target_kind = tg->is_dev ? "device" : (o->target ? (tg->created ? "new file"
	                   : "existing file") : "temporary file");
	run->fstype = tg->fstype;
	run->mem_align = tg->align.mem_align;
	run->offset_align = tg->align.offset_align;
	run->align_source = dio_align_source_name((int)tg->align.source);
	run->region = o->region;
	run->layout = o->layout == SW_LAYOUT_SEPARATE ? "separate" : "shared";
	run->mode = o->threads ? "threads" : "processes";
	run->extend = o->extend;
	run->time_s = o->count ? 0 : (double)o->time_ns / 1e9;
	run->count = o->count;
	run->warmup = o->warmup;
	run->verify = o->verify;
	run->label = o->label;
	run->disk = tg->disk;
	run->ranks = &c->ranks;
	run->mpi_library = c->ranks.mpi && c->ranks.mpi->on ? diot_mpi_library() : NULL;
	if (uname(&un) == 0) {
		snprintf(run->os, sizeof(run->os), "%s %s %s", un.sysname, un.release,
		         un.machine);
		snprintf(run->host, sizeof(run->host), "%s", un.nodename);
	} else {
		snprintf(run->os, sizeof(run->os), "unknown");
		snprintf(run->host, sizeof(run->host), "unknown");
	}
	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(run->started, sizeof(run->started), "unknown");
}

/* The progress line's account: how many points, and which of them will
 * run writers (those not n/a here, on each target). */
static void
plan_progress(struct sw_ctx *c, int nt, struct sw_progress *g)
{
	const struct sw_opts *o = c[0].o;
	struct sw_point *scratch = calloc(1, sizeof(*scratch));
	int w, mi, si, k;

	if (scratch == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(g, 0, sizeof(*g));
	g->steps = o->nwriters * o->nmethods * o->nsizes * nt;
	g->targets = nt;
	for (w = 0; w < o->nwriters; w++)
		for (mi = 0; mi < o->nmethods; mi++)
			for (si = 0; si < o->nsizes; si++)
				for (k = 0; k < nt; k++) {
					scratch->size = o->sizes[si];
					scratch->writers = (int)o->writers[w];
					if (!sw_point_na(&c[k], scratch, &o->methods[mi]))
						g->planned++;
				}
	free(scratch);
	g->tty = isatty(STDERR_FILENO);
	g->t0 = diot_now_ns();
	for (k = 0; k < nt; k++)
		c[k].prog = g;
}

/* Every point, writers outermost, until one says the run must stop; with
 * several targets (nt > 1, c[k] and pts[k] each), each point on every
 * target in turn, and no report until the end. */
void
sw_run_points(struct sw_ctx *c, int nt, FILE *fp, struct sw_point **pts, int *npoints)
{
	const struct sw_opts *o = c[0].o;
	struct sw_progress prog;
	int w, mi, si, k, idx = 0, fatal = 0;

	plan_progress(c, nt, &prog);
	for (w = 0; w < o->nwriters && !fatal; w++) {
		for (mi = 0; mi < o->nmethods && !fatal; mi++) {
			for (si = 0; si < o->nsizes && !fatal; si++) {
				for (k = 0; k < nt && !fatal; k++) {
					struct sw_point *p = &pts[k][idx];

					p->index = idx;
					snprintf(p->method, sizeof(p->method), "%s",
					         o->methods[mi].name);
					p->size = o->sizes[si];
					p->writers = (int)o->writers[w];
					*npoints = idx + 1;
					prog.step++;
					if (sw_run_point(&c[k], p, &o->methods[mi]) != 0)
						fatal = 1;
				}
				if (nt == 1 && fp != NULL) {
					sw_report_point(fp, o->format, pts[0] + idx, o->per_writer,
					                o->per_host, o->wide);
					fflush(fp);
				}
				idx++;
			}
		}
	}
	for (k = 0; k < nt; k++)
		c[k].prog = NULL;
}

/* The claimed outputs are the run's from now on: kept at exit. */
static void
keep_outputs(struct sw_outputs *out)
{
	int i;

	for (i = 0; i < out->nkept; i++)
		diot_out_keep(&out->created, out->kept[i]);
}

/* The run goes ahead: the claimed outputs are the run's from now on (kept
 * at exit), and the results stream is opened (standard output or -o). */
FILE *
sw_open_results(const struct sw_opts *o, struct sw_outputs *out)
{
	FILE *fp = stdout;

	keep_outputs(out);
	if (o->output && strcmp(o->output, "-") != 0) {
		fp = fopen(o->output, "w");
		if (fp == NULL)
			diot_die(DIOT_EXIT_FAIL, "--output '%s': %s", o->output,
			         dio_strerror(errno));
	}
	return fp;
}

/* Flush and close the results (fp: standard output or --output); a
 * write that failed is said, and is the run's failure: returns -1. */
int
sw_close_results(const struct sw_opts *o, FILE *fp)
{
	int bad = 0;

	if (fflush(fp) != 0 || ferror(fp)) {
		diot_warn("%s%s%s: cannot write the results: %s", fp == stdout ?
		          "standard output" : "--output '", fp == stdout ? "" : o->output,
		          fp == stdout ? "" : "'", dio_strerror(-errno));
		bad = 1;
	}
	if (fp != stdout && fclose(fp) != 0 && !bad) {
		diot_warn("--output '%s': cannot write the results: %s", o->output,
		          dio_strerror(-errno));
		bad = 1;
	}
	return bad ? -1 : 0;
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
	if (!*c->sig && !run->error && sw_ack_line(&c->ack, "E\n") < 0)
		diot_warn("--ack-log '%s': cannot record the end of the run", o->ack_log);
	diot_ack_close(&c->ack);
	if (run->error && SW_RANK0(c))
		diot_warn("%s", run->error);
	if (verify_fail && SW_RANK0(c))
		diot_warn("verification FAILED: some transactions are missing, corrupt or "
		          "misplaced (see the verify columns)");
	if (*c->sig)
		return 128 + (int)*c->sig;
	return (run->error || verify_fail || out_fail) ? DIOT_EXIT_FAIL : 0;
}
