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

struct dev *devs;
int ndevs;
size_t tsize;             /* bytes per transfer: bs * bpt                */
size_t buf_off;           /* buffers start this far past an aligned
                                  * boundary (bufoff=; set_buffer_offset())     */
int aio_engine = -1;      /* dio_aio engine in use                       */
char engine_note[300];
volatile sig_atomic_t g_stop, g_signal;

/* start gate */
pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
int gate_open, gate_ready;
uint64_t t_go;

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

	diot_init(argv[0]);
	o.bs = 512;
	o.bpt = 1;
	o.thr = 1;
	o.qd = 1;
	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		switch (id) {
		case DIOT_OPT_ERROR:
			diot_usage_error("%s", st.err);
		case DIOT_OPT_OPERAND:
			parse_operand(st.arg);
			break;
		case OPT_FORMAT:
			if (o.format_set)
				diot_usage_error("%s given twice: give the format once", st.name);
			o.format_set = 1;
			if (diot_parse_word(st.arg, format_words, &idx, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, st.arg, err);
			o.format = idx;
			break;
		case OPT_FORCE:
			o.force = 1;
			break;
		case OPT_PROCESSES:
			o.procs = 1;
			break;
		case OPT_SAME_SESSION:
			o.same_session = 1;
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
	check_operands();
	if (o.engine != ENG_SYNC)
		choose_engine();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	setup_devices();
	for (i = 0; i < ndevs; i++) {
		const char *a = side_io(&devs[i].in, 1), *b = side_io(&devs[i].out, 0);

		if (devs[i].in.kind == K_SG || devs[i].out.kind == K_SG)
			sg_any = 1;
		if (o.engine != ENG_SYNC && (devs[i].in.kind == K_SG || devs[i].out.kind == K_SG))
			fail_setup(DIOT_EXIT_USAGE, "engine=%s: '%s' is a SCSI generic device, "
			           "which dio-dd drives with engine=sync only",
			           engine_words[o.engine], devs[i].name);
		if (a && b && strcmp(a, b) != 0)
			snprintf(io_labels[i], sizeof(io_labels[i]), "%s->%s", a, b);
		else
			snprintf(io_labels[i], sizeof(io_labels[i]), "%s", a ? a : b);
		if (i == 0)
			snprintf(total_io, sizeof(total_io), "%s", io_labels[i]);
		else if (strcmp(total_io, io_labels[i]) != 0)
			snprintf(total_io, sizeof(total_io), "mixed");
	}
	if (o.dio && !sg_any)
		fail_setup(DIOT_EXIT_USAGE, "dio=1 asks the sg driver for direct transfers: it "
		           "needs an sg device (for files and block devices use iflag=direct "
		           "or oflag=direct)");

	nthr = ndevs * (int)o.thr;
	w = calloc((size_t)nthr, sizeof(*w));
	tid = calloc((size_t)nthr, sizeof(*tid));
	if (w == NULL || tid == NULL)
		fail_setup(DIOT_EXIT_FAIL, "out of memory");
	if (o.procs) {
		run_processes(w, tid, &u0, &s0);
	} else {
		if (start_threads(0, ndevs, w, tid, &started, err, sizeof(err)) < 0)
			fail_setup(DIOT_EXIT_FAIL, "%s", err);
		/* Every thread has its buffers and is waiting: measure from here. */
		await_ready(nthr);
		diot_cpu_times(&u0, &s0);
		t_go = diot_now_ns();
		open_gate();
		for (i = 0; i < nthr; i++)
			pthread_join(tid[i], NULL);
	}
	cpu_times_all(&u1, &s1);

	/* Close the outputs (buffered data stays in the page cache, as dd). */
	for (i = 0; i < ndevs; i++) {
		if (devs[i].in.f)
			dio_close(devs[i].in.f);
		else if (devs[i].in.fd >= 0)
			close(devs[i].in.fd);
		if (devs[i].out.f)
			dio_close(devs[i].out.f);
		else if (devs[i].out.fd >= 0)
			close(devs[i].out.fd);
		/* The device is released only now that nothing writes to it. */
		if (devs[i].out.claim_fd >= 0)
			close(devs[i].out.claim_fd);
	}

	rows = calloc((size_t)ndevs, sizeof(*rows));
	if (rows == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(&tot, 0, sizeof(tot));
	diot_hist_reset(&all);
	for (i = 0; i < ndevs; i++) {
		struct dev *d = &devs[i];

		if (d->t_end > t_end)
			t_end = d->t_end;
		make_row(&rows[i], d, d->t_end > t_go ? (double)(d->t_end - t_go) / 1e9 : 0);
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
	wall = t_end > t_go ? (double)(t_end - t_go) / 1e9 : 0;
	tot.name = "total";
	tot.io = total_io;
	tot.h = &all;
	tot.wall_s = wall;
	tot.mbs = wall > 0 ? (double)tot.bytes / wall / 1e6 : 0;
	tot.mibs = wall > 0 ? (double)tot.bytes / wall / 1048576.0 : 0;
	tot.status = failed ? "error" : g_signal ? "interrupted" : "ok";
	tot.error = first_err;

	switch (o.format) {
	case FMT_TABLE:
		if (o.time)
			print_table(stdout, rows, ndevs, &tot, u1 - u0, s1 - s0);
		print_records(stdout, &tot);
		break;
	case FMT_CSV:
		printf("%s\n", csv_cols);
		for (i = 0; i < ndevs; i++)
			csv_row(stdout, "device", &rows[i], -1, -1);
		csv_row(stdout, "total", &tot, u1 - u0, s1 - s0);
		break;
	case FMT_JSON:
		print_json(stdout, rows, ndevs, &tot, u1 - u0, s1 - s0);
		break;
	}
	if (!stdout_ok())
		report_lost = 1;
	for (i = 0; i < ndevs; i++)
		if (devs[i].err)
			diot_warn("%s", devs[i].errmsg);
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
