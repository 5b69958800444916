/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c -- sync-write's command line: the usage text, the options, and
 * their checks, into a struct sw_opts.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/ack.h"
#include "tools/kit/fmt.h"
#include "tools/kit/json.h"
#include "tools/kit/msg.h"
#include "tools/kit/opt.h"
#include "tools/kit/outfile.h"
#include "tools/kit/parse.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

/* ------------------------------------------------------------ usage */

/* The MPI build (linked with tools/kit/mpi.c) is sync-write-mpi. */
#define SW_NAME (diot_mpi_library() ? "sync-write-mpi" : "sync-write")

static void
usage(void)
{
	printf(
"Usage: %s [OPTION]... [TARGET]...\n"
"       %s --check ACK-LOG [TARGET]\n"
"       %s --compare RESULT.json RESULT.json... [OPTION]...\n"
"Time synchronous sequential writes: for every method, transaction size and\n"
"number of writers, the average time per transaction in microseconds and its\n"
"distribution.\n"
"\n"
"TARGET is a file to create (default: a temporary file in the current\n"
"directory or --dir, removed at the end) or, with --force, a block device.\n"
"An existing file or any device is only written with --force; a mounted or\n"
"otherwise busy device never.  Several TARGETs (up to %d) are measured\n"
"interleaved, each point on every TARGET in turn, and reported side by\n"
"side as --compare does.\n"
"\n"
"What to measure:\n"
"  -m, --methods=LIST    comma-separated; 'all' (default) is every method the\n"
"                        target supports: none, fsync, fdatasync, dsync, sync,\n"
"                        rwf-dsync, direct, direct+dsync, direct+fdatasync,\n"
"                        direct+fsync (also direct+sync, direct+rwf-dsync);\n"
"                        PostgreSQL's open_datasync and open_sync are dsync\n"
"                        and sync (rows say dsync and sync)\n"
"  -s, --sizes=LIST      transaction sizes: 512,4k,48k,1m or ranges 4k..1m\n"
"                        (doubling); default:\n"
"                        %s\n"
"                        suffixes: b=512, k/K/KiB=1024, kB/KB=1000, m/M/MiB,\n"
"                        MB, g/G/GiB, GB\n"
"  -w, --writers=LIST    concurrent writers, e.g. 1,2,4,8 or 1..8 (default 1)\n"
"      --threads         writers are threads (default: processes)\n"
"      --layout=L        shared: disjoint regions of one file (default);\n"
"                        separate: one file per writer (TARGET, TARGET.1, ...)\n"
"  -t, --time=DURATION   measure each point this long (default 0.4s; units\n"
"                        ns, us, ms, s, m, h)\n"
"  -n, --count=N         or: N transactions per writer per point\n"
"      --warmup=N        unmeasured transactions first (default %d)\n"
"      --extend          extend the file (emptied before each point) instead\n"
"                        of overwriting preallocated, written blocks\n"
"      --region=SIZE     bytes per writer (default 64 MiB)\n"
"      --baseline=DURATION  idle this long before each point to measure the\n"
"                        disks' other I/O, subtracted from what they saw\n"
"                        (default 0.05s; 0: none, nothing subtracted)\n"
"\n"
"Output:\n"
"  -f, --format=FMT      table (default; no line wider than 132 columns; it\n"
"                        ends with a summary: the fastest durable method per\n"
"                        size and writers, its cost against none), csv or\n"
"                        json (every column; json has the summary too)\n"
"  -o, --output=FILE     write the results to FILE instead of stdout\n"
"      --per-writer      also show each writer's row (table, csv)\n"
"      --plot=FILE.svg   draw time per transaction against size, one line per\n"
"                        method, and throughput/latency against writers\n"
"      --wide            the table with every column (min_us, p90_us,\n"
"                        stdev_us and cpu_us too) and its notes on one line\n"
"                        each, however long\n"
"  -q, --quiet           no progress line (shown on a terminal: the point,\n"
"                        the time elapsed and an estimate of the time left)\n"
"      --progress        show it even when standard error is not a terminal\n"
"                        (a line as each point ends)\n"
"      --label=TEXT      name the run in its results (up to %d characters):\n"
"                        --compare shows runs by their labels; once per\n"
"                        TARGET when there are several\n"
"\n"
"Comparing runs:\n"
"      --compare         the operands are results saved with -f json: show\n"
"                        them side by side (-f table, csv or json; --plot),\n"
"                        with ratios against the first; points not in every\n"
"                        run are listed; -m, -s, -w pick points to show\n"
"\n"
"Checking:\n"
"      --verify          stamp every transaction (writer, sequence, offset,\n"
"                        checksum) and read everything back after each point\n"
"      --ack-log=FILE    record each issued and acknowledged transaction\n"
"                        ('-' for stdout) for a later --check; or\n"
"                        tcp:HOST:PORT: send the records to a listener on\n"
"                        another machine (each one answered before the run\n"
"                        goes on), off the failure domain of this one\n"
"      --ack-commit      with --ack-log FILE: fdatasync each record before it\n"
"                        counts (without: a killed process loses none, a\n"
"                        kernel crash or power cut of this machine may)\n"
"      --ack-token=FILE  the listener's token (or DIO_ACK_TOKEN=HEX)\n"
"      --listen=[HOST:]PORT  be that listener: write the records senders\n"
"                        send to --ack-log FILE, each committed (fdatasync)\n"
"                        before it is answered; serves until SIGINT/SIGTERM\n"
"                        or until --runs N runs ended; PORT alone: loopback\n"
"      --token-file=FILE  its token (made if missing; default: a new one\n"
"                        in the --ack-log FILE.token, mode 0600)\n"

"      --check=ACK-LOG   after a crash: are all acknowledged transactions of\n"
"                        the last point on stable storage?\n"
"\n"
"Listener bounds (a run or connection past one is refused, told why):\n"
"      --runs=N          end once N runs ended (logged, then all closed)\n"
"      --max-log-bytes=SIZE  bytes a run may write to its log (default 1GiB)\n"
"      --max-runs=N      runs one listener logs, 1 to %d (default %d)\n"
"      --max-conns-per-host=N  connections at once from one address, 1 to\n"
"                        %d (default %d: a run's writers fit twice)\n"
"\n"
"Target:\n"
"      --dir=DIR         directory for the temporary file\n"
"      --force           allow writing over an existing file or a device\n"
"      --write-unchecked=DEVICE  with --force: also write DEVICE (a TARGET)\n"
"                        when whether it is in use cannot be told (never\n"
"                        one in use)\n"
"      --keep            keep the files sync-write created\n"
"      --no-prefill      overwrite an existing file as it is, without writing\n"
"                        the regions first (for a file a --keep run wrote)\n"
"\n"
"Across hosts (MPI; see sync-write(1)), with sync-write-mpi, the MPI build:\n"
"  mpirun -np N sync-write-mpi ...\n"
"                        every rank runs --writers writers of its own\n"
"                        (N x W in all) on a file every host sees; points\n"
"                        start together; rank 0 merges the histograms and\n"
"                        reports the job's work over its span; --ack-log\n"
"                        needs %%r (the rank) in its name, %%h is the host;\n"
"                        under Slurm: srun --mpi=pmix (or pmi2) sync-write-mpi\n"
"      --per-host        also show each host's row (table, csv)\n"
"\n"
"  -h, --help            this help\n"
"  -V, --version         version\n"
"\n"
"Exit status: 0 success, 1 a failure during the run (I/O error, verify\n"
"failure) or a target in use, 2 bad usage, 130/143 interrupted by\n"
"SIGINT/SIGTERM; the results' reader gone (a closed pipe): killed by\n"
"SIGPIPE, quietly, as a filter; --check:\n"
"0 OK, 1 acknowledged transactions lost (FAILED), 3 could not check (bad or\n"
"unreadable log, not the run's target, nothing acknowledged to check).\n"
"\n"
"The methods, every column, the hints and the summary, pg_test_fsync's\n"
"tests as sync-write lines, --check and the power-cut test, runs across\n"
"hosts: see sync-write(1) ('man sync-write').\n",
	       SW_NAME, SW_NAME, SW_NAME, SW_MAX_TARGETS, SW_DEFAULT_SIZES, SW_DEFAULT_WARMUP,
	       SW_LABEL_MAX, DIOT_ACK_MAX_RUNS, DIOT_ACK_MAX_RUNS, DIOT_ACK_MAX_CONNS,
	       SW_LISTEN_PER_HOST);
}

enum {
	OPT_METHODS = 1, OPT_SIZES, OPT_WRITERS, OPT_THREADS, OPT_LAYOUT, OPT_TIME,
	OPT_COUNT, OPT_WARMUP, OPT_EXTEND, OPT_REGION, OPT_FORMAT, OPT_OUTPUT,
	OPT_PLOT, OPT_PERWRITER, OPT_QUIET, OPT_VERIFY, OPT_ACKLOG, OPT_CHECK,
	OPT_DIR, OPT_FORCE, OPT_KEEP, OPT_HELP, OPT_VERSION, OPT_VERBOSE,
	OPT_NOPREFILL, OPT_LISTEN, OPT_LABEL, OPT_COMPARE, OPT_PERHOST, OPT_WIDE,
	OPT_PROGRESS, OPT_UNCHECKED, OPT_ACKCOMMIT, OPT_RUNS, OPT_MAXLOGBYTES,
	OPT_MAXRUNS, OPT_MAXPERHOST, OPT_ACKTOKEN, OPT_TOKENFILE, OPT_BASELINE
};

static const struct diot_opt options[] = {
	{ "methods", 'm', DIOT_REQ_ARG, OPT_METHODS },
	{ "sizes", 's', DIOT_REQ_ARG, OPT_SIZES },
	{ "writers", 'w', DIOT_REQ_ARG, OPT_WRITERS },
	{ "threads", 0, DIOT_NO_ARG, OPT_THREADS },
	{ "layout", 0, DIOT_REQ_ARG, OPT_LAYOUT },
	{ "time", 't', DIOT_REQ_ARG, OPT_TIME },
	{ "count", 'n', DIOT_REQ_ARG, OPT_COUNT },
	{ "warmup", 0, DIOT_REQ_ARG, OPT_WARMUP },
	{ "baseline", 0, DIOT_REQ_ARG, OPT_BASELINE },
	{ "extend", 0, DIOT_NO_ARG, OPT_EXTEND },
	{ "region", 0, DIOT_REQ_ARG, OPT_REGION },
	{ "format", 'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "output", 'o', DIOT_REQ_ARG, OPT_OUTPUT },
	{ "plot", 0, DIOT_REQ_ARG, OPT_PLOT },
	{ "per-writer", 0, DIOT_NO_ARG, OPT_PERWRITER },
	{ "per-host", 0, DIOT_NO_ARG, OPT_PERHOST },
	{ "quiet", 'q', DIOT_NO_ARG, OPT_QUIET },
	{ "progress", 0, DIOT_NO_ARG, OPT_PROGRESS },
	{ "wide", 0, DIOT_NO_ARG, OPT_WIDE },
	{ "verify", 0, DIOT_NO_ARG, OPT_VERIFY },
	{ "ack-log", 0, DIOT_REQ_ARG, OPT_ACKLOG },
	{ "check", 0, DIOT_REQ_ARG, OPT_CHECK },
	{ "listen", 0, DIOT_REQ_ARG, OPT_LISTEN },
	{ "ack-commit", 0, DIOT_NO_ARG, OPT_ACKCOMMIT },
	{ "runs", 0, DIOT_REQ_ARG, OPT_RUNS },
	{ "max-log-bytes", 0, DIOT_REQ_ARG, OPT_MAXLOGBYTES },
	{ "max-runs", 0, DIOT_REQ_ARG, OPT_MAXRUNS },
	{ "max-conns-per-host", 0, DIOT_REQ_ARG, OPT_MAXPERHOST },
	{ "ack-token", 0, DIOT_REQ_ARG, OPT_ACKTOKEN },
	{ "token-file", 0, DIOT_REQ_ARG, OPT_TOKENFILE },
	{ "label", 0, DIOT_REQ_ARG, OPT_LABEL },
	{ "compare", 0, DIOT_NO_ARG, OPT_COMPARE },
	{ "dir", 0, DIOT_REQ_ARG, OPT_DIR },
	{ "force", 0, DIOT_NO_ARG, OPT_FORCE },
	{ "write-unchecked", 0, DIOT_REQ_ARG, OPT_UNCHECKED },
	{ "keep", 0, DIOT_NO_ARG, OPT_KEEP },
	{ "no-prefill", 0, DIOT_NO_ARG, OPT_NOPREFILL },
	{ "help", 'h', DIOT_NO_ARG, OPT_HELP },
	{ "version", 'V', DIOT_NO_ARG, OPT_VERSION },
	{ "verbose", 'v', DIOT_NO_ARG, OPT_VERBOSE },
	{ NULL, 0, 0, 0 }
};

/* A label is shown in tables and charts and saved in JSON: UTF-8 text
 * without control characters, at most SW_LABEL_MAX characters (code
 * points, not bytes). */
static void
check_label(const char *s)
{
	const unsigned char *c;
	size_t n, chars = 0;

	if (*s == '\0')
		diot_usage_error("--label: the label is empty");
	for (c = (const unsigned char *)s; *c; c += n, chars++) {
		n = diot_utf8_len(c);
		if (n == 0)
			diot_usage_error("--label: byte %zu (0x%02x) is not UTF-8: a label "
			                 "is UTF-8 text (it is saved in JSON results)",
			                 (size_t)(c - (const unsigned char *)s) + 1, *c);
		if (*c < 0x20 || *c == 0x7f || (c[0] == 0xc2 && c[1] < 0xa0))
			diot_usage_error("--label: control characters are not allowed "
			                 "(a label is shown in tables and charts)");
	}
	if (chars > SW_LABEL_MAX)
		diot_usage_error("--label '%s': %zu characters, at most %d allowed", s,
		                 chars, SW_LABEL_MAX);
}

/* A listener's bound (--runs, --max-*): its number, in its range. */
static void
listener_bound(struct sw_opts *o, int id, const char *name, const char *arg)
{
	char err[300];
	uint64_t v;
	int r;

	if (id == OPT_MAXLOGBYTES)
		r = diot_parse_size_range(arg, 1, 1ull << 50, &o->max_log_bytes, err,
		                          sizeof(err));
	else
		r = diot_parse_uint(arg, 1, id == OPT_MAXRUNS ? DIOT_ACK_MAX_RUNS :
		                    id == OPT_MAXPERHOST ? DIOT_ACK_MAX_CONNS : 1000000, &v,
		                    err, sizeof(err));
	if (r < 0)
		diot_usage_error("%s '%s': %s", name, arg, err);
	if (id == OPT_RUNS)
		o->end_runs = (int)v;
	else if (id == OPT_MAXRUNS)
		o->max_runs = (int)v;
	else if (id == OPT_MAXPERHOST)
		o->max_per_host = (int)v;
	o->bound_given = id == OPT_RUNS ? "--runs" : id == OPT_MAXRUNS ? "--max-runs" :
	                 id == OPT_MAXPERHOST ? "--max-conns-per-host" : "--max-log-bytes";
}

/* A duration of 0 ("0", "0.0", "0s", "0ms"...): --baseline's "none". */
static int
zero_duration(const char *s)
{
	static const char *const unit[] = { "", "ns", "us", "ms", "s", "m", "h" };
	size_t n = strspn(s, "0"), i;

	if (n == 0)
		return 0;
	if (s[n] == '.')
		n += 1 + strspn(s + n + 1, "0");
	for (i = 0; i < sizeof(unit) / sizeof(unit[0]); i++)
		if (strcmp(s + n, unit[i]) == 0)
			return 1;
	return 0;
}

/* Parse the options; -1: run (or --check), else the exit status. */
static int
parse_options(int argc, char **argv, struct sw_opts *o, const char **methods,
              const char **sizes, const char **writers)
{
	struct diot_optstate st;
	char err[300];
	const char *arg;
	int id;

	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		arg = st.arg;
		switch (id) {
		case DIOT_OPT_ERROR:
			diot_usage_error("%s", st.err);
		case DIOT_OPT_OPERAND:
			o->operands[o->noperands++] = arg;
			break;
		case OPT_METHODS: *methods = arg; o->methods_given = 1; break;
		case OPT_SIZES: *sizes = arg; o->sizes_given = 1; break;
		case OPT_WRITERS: *writers = arg; o->writers_given = 1; break;
		case OPT_THREADS: o->threads = 1; break;
		case OPT_LAYOUT:
			if (strcmp(arg, "shared") == 0)
				o->layout = SW_LAYOUT_SHARED;
			else if (strcmp(arg, "separate") == 0)
				o->layout = SW_LAYOUT_SEPARATE;
			else
				diot_usage_error("--layout '%s': allowed are 'shared' and "
				                 "'separate'", arg);
			break;
		case OPT_TIME:
			if (diot_parse_duration(arg, 86400, &o->time_ns, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			o->time_set = 1;
			break;
		case OPT_BASELINE:
			if (zero_duration(arg))
				o->baseline_ns = 0;
			else if (diot_parse_duration(arg, 60, &o->baseline_ns, err,
			                             sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s (or 0: no idle interval)",
				                 st.name, arg, err);
			break;
		case OPT_COUNT:
			if (diot_parse_uint(arg, 1, UINT32_MAX, &o->count, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			break;
		case OPT_WARMUP:
			if (diot_parse_uint(arg, 0, 1000000, &o->warmup, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			break;
		case OPT_EXTEND: o->extend = 1; break;
		case OPT_REGION:
			if (diot_parse_size_range(arg, 1, 1ull << 50, &o->region, err,
			                          sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			o->region_set = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(arg, "table") == 0)
				o->format = SW_FMT_TABLE;
			else if (strcmp(arg, "csv") == 0)
				o->format = SW_FMT_CSV;
			else if (strcmp(arg, "json") == 0)
				o->format = SW_FMT_JSON;
			else
				diot_usage_error("--format '%s': allowed are table, csv, json", arg);
			break;
		case OPT_OUTPUT: o->output = arg; break;
		case OPT_PLOT: o->plot = arg; break;
		case OPT_PERWRITER: o->per_writer = 1; break;
		case OPT_PERHOST: o->per_host = 1; break;
		case OPT_QUIET: o->quiet = 1; break;
		case OPT_PROGRESS: o->progress = 1; break;
		case OPT_WIDE: o->wide = 1; break;
		case OPT_VERBOSE: o->verbose++; break;
		case OPT_VERIFY: o->verify = 1; break;
		case OPT_ACKLOG: o->ack_log = arg; break;
		case OPT_CHECK: o->check_log = arg; break;
		case OPT_LISTEN: o->listen = arg; break;
		case OPT_ACKCOMMIT: o->ack_commit = 1; break;
		case OPT_RUNS:
		case OPT_MAXLOGBYTES:
		case OPT_MAXRUNS:
		case OPT_MAXPERHOST:
			listener_bound(o, id, st.name, arg);
			break;
		case OPT_ACKTOKEN: o->ack_token = arg; break;
		case OPT_TOKENFILE: o->token_file = arg; break;
		case OPT_LABEL:
			check_label(arg);
			o->labels[o->nlabels++] = arg;
			o->label = o->labels[0];
			break;
		case OPT_COMPARE: o->compare = 1; break;
		case OPT_DIR: o->dir = arg; break;
		case OPT_FORCE: o->force = 1; break;
		case OPT_UNCHECKED:
			if (o->write_unchecked != NULL)
				diot_usage_error("%s given twice: it names the one TARGET "
				                 "device to write unchecked", st.name);
			o->write_unchecked = arg;
			break;
		case OPT_KEEP: o->keep = 1; break;
		case OPT_NOPREFILL: o->no_prefill = 1; break;
		case OPT_HELP: usage(); return 0;
		case OPT_VERSION:
			printf("%s (libdirectio) %s, backend %s\n", SW_NAME, dio_version_string(),
			       dio_backend_name());
			if (diot_mpi_library() != NULL)
				printf("MPI: %s (the MPI build: runs as the ranks of a job)\n",
				       diot_mpi_library());
			else
				printf("MPI: none (sync-write-mpi is the MPI build)\n");
			return 0;
		}
	}
	return -1;
}

/* The lists, and the options that exclude or need each other. */
static void
check_options(struct sw_opts *o, const char *methods, const char *sizes,
              const char *writers)
{
	uint64_t max_s;
	char err[300];

	sw_parse_methods(o, methods);
	o->nsizes = diot_parse_size_list(sizes, 1, SW_MAX_SIZE, &o->sizes, err, sizeof(err));
	if (o->nsizes < 0)
		diot_usage_error("--sizes '%s': %s", sizes, err);
	o->nwriters = diot_parse_uint_list(writers, 1, SW_MAX_WRITERS, &o->writers, err,
	                                  sizeof(err));
	if (o->nwriters < 0)
		diot_usage_error("--writers '%s': %s", writers, err);
	max_s = o->sizes[o->nsizes - 1];
	if (o->verify || o->ack_log) {
		if (o->sizes[0] < SW_HDR_SIZE)
			diot_usage_error("--%s needs transaction sizes of at least %d bytes "
			                 "(the smallest given is %" PRIu64 ")",
			                 o->verify ? "verify" : "ack-log", SW_HDR_SIZE, o->sizes[0]);
	}
	if (o->target && o->dir)
		diot_usage_error("--dir is for the temporary file: it cannot be combined "
		                 "with a TARGET");
	if (o->target && *o->target == '\0')
		diot_usage_error("the TARGET is an empty string");
	if (o->region_set && o->region < max_s)
		diot_usage_error("--region %" PRIu64 " is smaller than the largest "
		                 "transaction size %" PRIu64, o->region, max_s);
	if (o->quiet && o->progress)
		diot_usage_error("--quiet and --progress exclude each other: the progress "
		                 "line is either off or on");
	if (o->wide && o->format != SW_FMT_TABLE)
		diot_usage_error("--wide is for the table: -f csv and json always have "
		                 "every column");
	if (o->count && o->time_set)
		diot_usage_error("--time and --count exclude each other: measure each "
		                 "point for a time or for a number of transactions");
	if (o->no_prefill && o->extend)
		diot_usage_error("--no-prefill is for overwriting; --extend writes "
		                 "an emptied file");
	if (o->no_prefill && o->target == NULL)
		diot_usage_error("--no-prefill needs an existing TARGET (a temporary "
		                 "file is always new)");
	if (o->ack_log && strcmp(o->ack_log, "-") == 0 &&
	    (o->output == NULL || strcmp(o->output, "-") == 0))
		diot_usage_error("--ack-log - takes standard output: send the results "
		                 "elsewhere with --output FILE");
}

/* Several TARGETs: measured interleaved, point by point; each needs a
 * name of its own, so --label is given once per TARGET or not at all. */
static void
check_targets(const struct sw_opts *o)
{
	int i;

	if (o->noperands > SW_MAX_TARGETS)
		diot_usage_error("%d TARGETs given; at most %d are measured interleaved in "
		                 "one run", o->noperands, SW_MAX_TARGETS);
	if (o->nlabels != 0 && o->nlabels != o->noperands)
		diot_usage_error("%d --label for %d TARGETs: give one per TARGET, in the same "
		                 "order, or none", o->nlabels, o->noperands);
	if (o->ack_log || o->listen)
		diot_usage_error("--ack-log records one TARGET's transactions: with several "
		                 "TARGETs, run each with its own --ack-log");
	if (o->format == SW_FMT_CSV && o->per_writer)
		diot_usage_error("--per-writer: several TARGETs are reported side by side, "
		                 "by point, without writers' rows");
	for (i = 0; i < o->noperands; i++)
		if (*o->operands[i] == '\0')
			diot_usage_error("TARGET %d is an empty string", i + 1);
}

/*
 * --write-unchecked DEVICE: the second, explicit option that lets --force
 * write a device whose in-use state cannot be told; it names a device
 * that is one of the TARGETs (the same path or device number).  A device
 * in use is never written (target.c).
 */
static void
check_unchecked(const struct sw_opts *o)
{
	diot_out_unchecked_option(o->write_unchecked, o->force, NULL,
	                          o->operands, o->noperands, "TARGET");
}

/* --compare: the operands are results; -m, -s and -w pick the points; the
 * options of a measuring run have no meaning here. */
static int
check_compare(struct sw_opts *o, const char *methods, const char *sizes,
              const char *writers)
{
	char err[300];

	if (o->noperands < 2)
		diot_usage_error("--compare needs at least two results (files written with "
		                 "-f json); %d given", o->noperands);
	if (o->check_log || o->listen || o->ack_log || o->verify || o->label ||
	    o->time_set || o->count || o->dir || o->keep || o->extend || o->threads ||
	    o->force || o->region_set || o->no_prefill || o->per_writer || o->per_host ||
	    o->progress || o->write_unchecked)
		diot_usage_error("--compare shows saved results; it takes only -m, -s, -w "
		                 "(which points), -f, -o, --plot, --wide and -q");
	if (o->wide && o->format != SW_FMT_TABLE)
		diot_usage_error("--wide is for the table: -f csv and json always have "
		                 "every column");
	if (o->methods_given)
		sw_parse_methods(o, methods);
	if (o->sizes_given) {
		o->nsizes = diot_parse_size_list(sizes, 1, SW_MAX_SIZE, &o->sizes, err,
		                                 sizeof(err));
		if (o->nsizes < 0)
			diot_usage_error("--sizes '%s': %s", sizes, err);
	}
	if (o->writers_given) {
		o->nwriters = diot_parse_uint_list(writers, 1, SW_MAX_WRITERS, &o->writers,
		                                  err, sizeof(err));
		if (o->nwriters < 0)
			diot_usage_error("--writers '%s': %s", writers, err);
	}
	return -1;
}

/* Names are bytes, JSON is UTF-8: say so when a name the JSON results
 * hold is not UTF-8 (json.h: its bytes that are not are written as
 * U+FFFD, so the name there is not the file's). */
static void
warn_not_utf8(const struct sw_opts *o)
{
	size_t bad;
	int i;

	if (o->format != SW_FMT_JSON)
		return;
	for (i = 0; i <= o->noperands; i++) {
		const char *name = i < o->noperands ? o->operands[i] : o->dir;

		if (name != NULL && (bad = diot_utf8_invalid(name)) > 0)
			diot_warn("%s '%s': %zu byte%s of the name %s not UTF-8: the JSON "
			          "results write %s as U+FFFD", i < o->noperands ? (o->compare
			          ? "RESULT" : "TARGET") : "--dir", name, bad, bad == 1 ? ""
			          : "s", bad == 1 ? "is" : "are", bad == 1 ? "it" : "each");
	}
}

int
sw_parse_args(int argc, char **argv, struct sw_opts *o)
{
	const char *methods = "all", *sizes = SW_DEFAULT_SIZES, *writers = "1";
	int r;

	memset(o, 0, sizeof(*o));
	o->operands = calloc((size_t)argc + 1, sizeof(*o->operands));
	o->labels = calloc((size_t)argc + 1, sizeof(*o->labels));
	if (o->operands == NULL || o->labels == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	o->time_ns = SW_DEFAULT_TIME_NS;
	o->baseline_ns = SW_DEFAULT_BASELINE_NS;
	o->warmup = SW_DEFAULT_WARMUP;
	o->format = SW_FMT_TABLE;
	r = parse_options(argc, argv, o, &methods, &sizes, &writers);
	if (r >= 0)
		return r;
	if (o->compare) {
		warn_not_utf8(o);
		return check_compare(o, methods, sizes, writers);
	}
	o->target = o->noperands ? o->operands[0] : NULL;
	if (o->check_log) {
		if (o->noperands > 1)
			diot_usage_error("--check takes one TARGET, the log's ('%s' and '%s' "
			                 "given)", o->operands[0], o->operands[1]);
		return -1;
	}
	if (o->noperands > 1)
		check_targets(o);
	else if (o->nlabels > 1)
		diot_usage_error("--label given %d times for one TARGET (once per TARGET)",
		                 o->nlabels);
	if (o->listen) {
		if (o->target)
			diot_usage_error("--listen takes no TARGET: it only writes the records "
			                 "other runs send to --ack-log FILE");
		if (o->ack_log == NULL || diot_ack_is_tcp(o->ack_log))
			diot_usage_error("--listen needs --ack-log FILE (or -): where the "
			                 "records it receives go");
		if (o->ack_commit)
			diot_usage_error("--ack-commit is the sender's: the listener commits "
			                 "every record before it answers it");
		if (o->ack_token)
			diot_usage_error("--ack-token is a sender's: a listener makes its token, "
			                 "or reads it with --token-file FILE");
		return -1;
	}
	if (o->bound_given)
		diot_usage_error("%s is the listener's (with --listen)", o->bound_given);
	if (o->ack_commit && (o->ack_log == NULL || strcmp(o->ack_log, "-") == 0 ||
	                      diot_ack_is_tcp(o->ack_log)))
		diot_usage_error("--ack-commit needs --ack-log FILE (a listener, tcp:, "
		                 "commits each record itself; standard output cannot)");
	if (o->token_file)
		diot_usage_error("--token-file is the listener's (--listen): a sender takes "
		                 "its token with --ack-token FILE");
	if (o->ack_token && !(o->ack_log && diot_ack_is_tcp(o->ack_log)))
		diot_usage_error("--ack-token is the token of a listener: it goes with "
		                 "--ack-log tcp:HOST:PORT");

	check_options(o, methods, sizes, writers);
	check_unchecked(o);
	if (o->noperands > 1)
		sw_targets_named_apart(o);
	warn_not_utf8(o);
	return -1;
}

/* ------------------------------------------------------------ one job */

/* A list of numbers as text, malloc'd. */
static char *
list_text(const uint64_t *v, int n)
{
	size_t len = 24 * (size_t)(n > 0 ? n : 1) + 1, at = 0;
	char *t = malloc(len);
	int i;

	if (t == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	t[0] = '\0';
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(t + at, len - at, "%s%" PRIu64, i ? "," : "", v[i]);
	return t;
}

/*
 * The parsed options as the ranks of an MPI job compare them (mpi.h's
 * diot_mpi_same()): a name and a canonical text each, into it[] (room for
 * SW_OPT_ITEMS); the texts are allocated once and kept to exit.  Returns
 * how many.  -q, -v, --progress and --wide are left out: they change only
 * what rank 0 shows.
 */
int
sw_opts_items(const struct sw_opts *o, struct diot_mpi_item *it)
{
	static char *owned[SW_OPT_ITEMS];
	const char *names[SW_METHODS_MAX];
	int n = 0, i;

	for (i = 0; i < o->nmethods; i++)
		names[i] = o->methods[i].name;
#define ITEM(nm, v) (it[n].name = (nm), it[n].value = owned[n] = (v), n++)
#define FLAG(nm, v) ITEM(nm, diot_strdupf("%s", (v) ? "on" : "off"))
#define STR(nm, v) ITEM(nm, diot_strdupf("%s", (v) ? (v) : "(none)"))
	ITEM("--methods", diot_join(names, o->nmethods, ","));
	ITEM("--sizes", list_text(o->sizes, o->nsizes));
	ITEM("--writers", list_text(o->writers, o->nwriters));
	FLAG("--threads", o->threads);
	ITEM("--layout", diot_strdupf("%s", o->layout == SW_LAYOUT_SEPARATE ? "separate"
	                              : "shared"));
	ITEM("--baseline", diot_strdupf("%" PRIu64 " ns", o->baseline_ns));
	ITEM("--time", diot_strdupf("%" PRIu64 " ns", o->count ? 0 : o->time_ns));
	ITEM("--count", diot_strdupf("%" PRIu64, o->count));
	ITEM("--warmup", diot_strdupf("%" PRIu64, o->warmup));
	FLAG("--extend", o->extend);
	ITEM("--region", o->region_set ? diot_strdupf("%" PRIu64, o->region)
	                               : diot_strdupf("default"));
	ITEM("--format", diot_strdupf("%s", o->format == SW_FMT_JSON ? "json" :
	                              o->format == SW_FMT_CSV ? "csv" : "table"));
	STR("--output", o->output);
	STR("--plot", o->plot);
	FLAG("--per-writer", o->per_writer);
	FLAG("--per-host", o->per_host);
	FLAG("--verify", o->verify);
	STR("--ack-log", o->ack_log);
	FLAG("--ack-commit", o->ack_commit);
	STR("--dir", o->dir);
	FLAG("--force", o->force);
	STR("--write-unchecked", o->write_unchecked);
	FLAG("--keep", o->keep);
	FLAG("--no-prefill", o->no_prefill);
	STR("--label", o->label);
	STR("the TARGET", o->target);
#undef ITEM
#undef FLAG
#undef STR
	return n;
}
