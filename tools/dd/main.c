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
 * gate -> run -> merge per-thread results -> report (table, csv, json).
 */
#include "config.h"

#include "tools/dd/dd.h"

volatile sig_atomic_t g_stop, g_signal;

static void
on_signal(int sig)
{
	g_signal = sig;
	g_stop = 1;
}

/* The report (or --help, --version) must have reached standard output:
 * a full disk or a closed pipe is a failure, not a success. */
static int
stdout_ok(void)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 1;
	e = errno ? errno : EIO;
	diot_warn("cannot write to standard output: %s", dio_strerror(e));
	return 0;
}

/* ------------------------------------------------------------ main */

enum { OPT_FORMAT = 1, OPT_FORCE, OPT_PROCESSES, OPT_SAME_SESSION, OPT_HELP,
       OPT_VERSION };

static const struct diot_opt options[] = {
	{ "format", 'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "force", 0, DIOT_NO_ARG, OPT_FORCE },
	{ "processes", 0, DIOT_NO_ARG, OPT_PROCESSES },
	{ "same-session", 0, DIOT_NO_ARG, OPT_SAME_SESSION },
	{ "help", 'h', DIOT_NO_ARG, OPT_HELP },
	{ "version", 'V', DIOT_NO_ARG, OPT_VERSION },
	{ NULL, 0, 0, 0 }
};

int
main(int argc, char **argv)
{
	struct diot_optstate st;
	char err[DIOT_ERR_MAX];
	struct sigaction sa;
	struct wctx **w;
	pthread_t *tid;
	struct row *rows, tot;
	static struct diot_hist all;
	double u0 = 0, s0 = 0, u1 = 0, s1 = 0, wall;
	uint64_t t_end = 0;
	int id, idx, i, started, nthr, failed = 0, sg_any = 0, report_lost = 0;
	const char *first_err = NULL;
	struct dd run;
	struct dd *dd = &run;

	diot_init(argv[0]);
	memset(&run, 0, sizeof(run));
	dd->aio_engine = -1;
	pthread_mutex_init(&dd->gate_lock, NULL);
	pthread_cond_init(&dd->gate_cond, NULL);
	dd->o.bs = 512;
	dd->o.bpt = 1;
	dd->o.thr = 1;
	dd->o.qd = 1;
	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		switch (id) {
		case DIOT_OPT_ERROR:
			diot_usage_error("%s", st.err);
		case DIOT_OPT_OPERAND:
			parse_operand(dd, st.arg);
			break;
		case OPT_FORMAT:
			if (dd->o.format_set)
				diot_usage_error("%s given twice: give the format once", st.name);
			dd->o.format_set = 1;
			if (diot_parse_word(st.arg, format_words, &idx, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, st.arg, err);
			dd->o.format = idx;
			break;
		case OPT_FORCE:
			dd->o.force = 1;
			break;
		case OPT_PROCESSES:
			dd->o.procs = 1;
			break;
		case OPT_SAME_SESSION:
			dd->o.same_session = 1;
			break;
		case OPT_HELP:
			usage();
			return stdout_ok() ? 0 : DIOT_EXIT_FAIL;
		case OPT_VERSION:
			printf("dio-dd (libdirectio) %s, backend %s, aio engines:%s%s\n",
			       dio_version_string(), dio_backend_name(),
			       (dio_aio_engines() & (1u << DIO_AIO_IO_URING)) ? " io_uring" : "",
			       (dio_aio_engines() & (1u << DIO_AIO_POSIX)) ? " posix-aio" : "");
			return stdout_ok() ? 0 : DIOT_EXIT_FAIL;
		}
	}
	check_operands(dd);
	if (dd->o.engine != ENG_SYNC)
		choose_engine(dd);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	setup_devices(dd);
	for (i = 0; i < dd->ndevs; i++) {
		const char *a = side_io(dd, &dd->devs[i].in, 1), *b = side_io(dd, &dd->devs[i].out, 0);

		if (dd->devs[i].in.kind == K_SG || dd->devs[i].out.kind == K_SG)
			sg_any = 1;
		if (dd->o.engine != ENG_SYNC && (dd->devs[i].in.kind == K_SG || dd->devs[i].out.kind == K_SG))
			fail_setup(dd, DIOT_EXIT_USAGE, "engine=%s: '%s' is a SCSI generic device, "
			           "which dio-dd drives with engine=sync only",
			           engine_words[dd->o.engine], dd->devs[i].name);
		if (a && b && strcmp(a, b) != 0)
			snprintf(dd->io_labels[i], sizeof(dd->io_labels[i]), "%s->%s", a, b);
		else
			snprintf(dd->io_labels[i], sizeof(dd->io_labels[i]), "%s", a ? a : b);
		if (i == 0)
			snprintf(dd->total_io, sizeof(dd->total_io), "%s", dd->io_labels[i]);
		else if (strcmp(dd->total_io, dd->io_labels[i]) != 0)
			snprintf(dd->total_io, sizeof(dd->total_io), "mixed");
	}
	if (dd->o.dio && !sg_any)
		fail_setup(dd, DIOT_EXIT_USAGE, "dio=1 asks the sg driver for direct transfers: it "
		           "needs an sg device (for files and block devices use iflag=direct "
		           "or oflag=direct)");

	nthr = dd->ndevs * (int)dd->o.thr;
	w = calloc((size_t)nthr, sizeof(*w));
	tid = calloc((size_t)nthr, sizeof(*tid));
	if (w == NULL || tid == NULL)
		fail_setup(dd, DIOT_EXIT_FAIL, "out of memory");
	if (dd->o.procs) {
		run_processes(dd, w, tid, &u0, &s0);
	} else {
		if (start_threads(dd, 0, dd->ndevs, w, tid, &started, err, sizeof(err)) < 0)
			fail_setup(dd, DIOT_EXIT_FAIL, "%s", err);
		/* Every thread has its buffers and is waiting: measure from here. */
		await_ready(dd, nthr);
		diot_cpu_times(&u0, &s0);
		dd->t_go = diot_now_ns();
		open_gate(dd);
		for (i = 0; i < nthr; i++)
			pthread_join(tid[i], NULL);
	}
	cpu_times_all(dd, &u1, &s1);

	/* Close the outputs (buffered data stays in the page cache, as dd). */
	for (i = 0; i < dd->ndevs; i++) {
		if (dd->devs[i].in.f)
			dio_close(dd->devs[i].in.f);
		else if (dd->devs[i].in.fd >= 0)
			close(dd->devs[i].in.fd);
		if (dd->devs[i].out.f)
			dio_close(dd->devs[i].out.f);
		else if (dd->devs[i].out.fd >= 0)
			close(dd->devs[i].out.fd);
		/* The device is released only now that nothing writes to it. */
		if (dd->devs[i].out.claim_fd >= 0)
			close(dd->devs[i].out.claim_fd);
	}

	rows = calloc((size_t)dd->ndevs, sizeof(*rows));
	if (rows == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(&tot, 0, sizeof(tot));
	diot_hist_reset(&all);
	for (i = 0; i < dd->ndevs; i++) {
		struct dev *d = &dd->devs[i];

		if (d->t_end > t_end)
			t_end = d->t_end;
		make_row(dd, &rows[i], d, d->t_end > dd->t_go ? (double)(d->t_end - dd->t_go) / 1e9 : 0);
		diot_hist_merge(&all, &d->hist);
		tot.bytes += d->bytes;
		tot.full += rows[i].full;
		tot.partial += rows[i].partial;
		tot.wfull += rows[i].wfull;
		tot.wpartial += rows[i].wpartial;
		tot.calls += d->calls;
		tot.sg_cmds += d->sg_cmds;
		tot.sg_nd += d->sg_not_direct;
		tot.io_s += (double)d->io_ns / 1e9;
		tot.cpu_s += (double)d->cpu_ns / 1e9;
		if (d->err) {
			failed = 1;
			if (first_err == NULL)
				first_err = d->errmsg;
		}
		if (tot.reason == NULL && d->reason[0])
			tot.reason = d->reason;
	}
	wall = t_end > dd->t_go ? (double)(t_end - dd->t_go) / 1e9 : 0;
	tot.name = "total";
	tot.io = dd->total_io;
	tot.h = &all;
	tot.wall_s = wall;
	tot.mbs = wall > 0 ? (double)tot.bytes / wall / 1e6 : 0;
	tot.mibs = wall > 0 ? (double)tot.bytes / wall / 1048576.0 : 0;
	tot.status = failed ? "error" : g_signal ? "interrupted" : "ok";
	tot.error = first_err;

	switch (dd->o.format) {
	case FMT_TABLE:
		if (dd->o.time)
			print_table(dd, stdout, rows, dd->ndevs, &tot, u1 - u0, s1 - s0);
		print_records(dd, stdout, &tot);
		break;
	case FMT_CSV:
		printf("%s\n", csv_cols);
		for (i = 0; i < dd->ndevs; i++)
			csv_row(dd, stdout, "device", &rows[i], -1, -1);
		csv_row(dd, stdout, "total", &tot, u1 - u0, s1 - s0);
		break;
	case FMT_JSON:
		print_json(dd, stdout, rows, dd->ndevs, &tot, u1 - u0, s1 - s0);
		break;
	}
	if (!stdout_ok())
		report_lost = 1;
	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].err)
			diot_warn("%s", dd->devs[i].errmsg);
	for (i = 0; i < nthr; i++)
		free(w[i]);
	free(w);
	free(tid);
	free(rows);
	if (g_signal) {
		diot_warn("interrupted by signal %d: the results above are partial",
		          (int)g_signal);
		return g_signal == SIGINT ? 130 : 128 + (int)g_signal;
	}
	return failed || report_lost ? DIOT_EXIT_FAIL : 0;
}
