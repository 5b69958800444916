/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c -- dio-rbuf's command line: usage text, options into struct opts.
 * Usage errors and bad option values exit DIOT_EXIT_USAGE (2).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/kit/msg.h"
#include "tools/kit/opt.h"
#include "tools/kit/outfile.h"
#include "tools/kit/parse.h"
#include "tools/rbuf/rbuf.h"

/* Indexed by dio_scsi_xfer. */
static const char *const mode_words[] = { "indirect", "direct", "no-copy", "mmap", NULL };
static const char *const command_words[] = { "rbuf", "read", NULL };
static const char *const format_words[] = { "table", "csv", "json", NULL };
/* The seed study's column order: simulated direct (-q), direct, indirect. */
static const int sweep_default_modes[] = {
	DIO_SCSI_XFER_NO_COPY, DIO_SCSI_XFER_DIRECT, DIO_SCSI_XFER_INDIRECT,
	DIO_SCSI_XFER_MMAP
};

void
rbuf_note(int verbose, int level, const char *fmt, ...)
{
	va_list ap;

	if (verbose < level)
		return;
	fprintf(stderr, "%s: ", RBUF_PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A bad value for an option: the parser's message, exit 2. */
static void value_error(const char *opt, const char *value, const char *msg)
	DIOT_NORETURN;

static void
value_error(const char *opt, const char *value, const char *msg)
{
	diot_usage_error("%s '%s': %s", opt, value, msg);
}

static void
usage(FILE *fp)
{
	const char *p, *e;

	fprintf(fp,
"Usage: %s [OPTIONS] DEVICE\n"
"Time SCSI READ BUFFER (or READ(10)) on DEVICE through libdirectio: elapsed\n"
"time, MB/s (10^6 bytes) and MiB/s, commands/s and CPU utilisation.\n"
"DEVICE is an sg device (/dev/sgN), a block device that accepts SG_IO\n"
"(/dev/sdX) or an illumos raw disk (/dev/rdsk/cXtYdZs2).  Nothing is written.\n"
"\n"
"  -b, --buffer EACH     bytes per command (default: the buffer capacity;\n"
"                        with --command read 64 KiB)\n"
"  -s, --size OVERALL    bytes to transfer per run (default 200 MiB; also\n"
"                        --total)\n"
"  -d, --dio             direct I/O into user memory (sg SG_FLAG_DIRECT_IO;\n"
"                        also --direct)\n"
"  -q, --quick           leave the data in the kernel (SG_FLAG_NO_DXFER;\n"
"                        also --no-copy); overrides -d\n"
"  -m, --mmap            read into the sg reserved buffer mapped here;\n"
"                        overrides -q and -d (default: indirect, the OS's\n"
"                        normal path)\n"
"  -e, --echo            READ BUFFER of the echo buffer (mode 0Ah) instead of\n"
"                        the data buffer\n"
"  -t, --time            accepted for sg_rbuf's command line: dio-rbuf always\n"
"                        times\n"
"      --sweep           time every size of --sizes in every mode of --modes\n"
"                        and derive latency and bandwidth\n"
"      --sizes LIST      sizes for --sweep (default 512K,256K,32K,16K,8K,4K\n"
"                        up to the capacity)\n"
"      --modes LIST      modes for --sweep (default no-copy,direct,indirect,mmap)\n"
"  -c, --command CMD     rbuf (READ BUFFER, default) or read (READ(10) of\n"
"                        the same few blocks, for devices without READ BUFFER)\n"
"      --lba N           first block for --command read (default 0)\n"
"      --buffer-id N     READ BUFFER buffer id (default 0)\n"
"      --timeout SEC     per-command timeout (default 60)\n"
"      --command-times   also time each command around its system call\n"
"                        (min/mean/max; two clock reads per command)\n"
"  -f, --format FMT      table (default), csv or json\n"
"  -p, --plot FILE.svg   with --sweep: plot time against size per mode\n"
"  -v, --verbose         more detail on stderr (repeat for more)\n"
"  -h, --help            this text\n"
"  -V, --version         version of the tool and library\n"
"\n"
"EACH, OVERALL, SIZE: digits with an optional suffix:\n",
	        RBUF_PROG);
	/* The kit's list, one group of suffixes a line (within 80 columns). */
	for (p = diot_size_suffixes(); (e = strstr(p, "; ")) != NULL; p = e + 2)
		fprintf(fp, "  %.*s;\n", (int)(e - p), p);
	fprintf(fp, "  %s.\n"
"sg_rbuf's command line works as it is: -b EACH -s OVERALL -t -d -q -m -e\n"
"-v and their long forms mean what they mean there (-t takes no value).\n"
"Exit status: 0 measured, 1 failure (device, data), 2 usage error (a bad\n"
"option, operand or option value).\n"
"See dio-rbuf(1) ('man dio-rbuf'): the sweep, the output, sg_rbuf users.\n", p);
}

/* ------------------------------------------------------------ options */

/* The letters and long names sg_rbuf has (-b -s -t -d -q -m -e -v) mean
 * what they mean there; dio-rbuf's own options have other names. */
enum {
	OPT_EACH = 'b', OPT_TOTAL = 's', OPT_TIME = 't', OPT_DIRECT = 'd',
	OPT_NOCOPY = 'q', OPT_MMAP = 'm', OPT_ECHO = 'e', OPT_COMMAND = 'c',
	OPT_FORMAT = 'f', OPT_PLOT = 'p', OPT_VERBOSE = 'v', OPT_HELP = 'h',
	OPT_VERSION = 'V',
	OPT_SWEEP = 256, OPT_SIZES, OPT_MODES, OPT_LBA, OPT_TIMEOUT, OPT_CMDTIMES,
	OPT_BUFID
};

static const struct diot_opt options[] = {
	{ "buffer",    'b', DIOT_REQ_ARG, OPT_EACH },
	{ "size",      's', DIOT_REQ_ARG, OPT_TOTAL },
	{ "total",     0,   DIOT_REQ_ARG, OPT_TOTAL },
	{ "time",      't', DIOT_NO_ARG,  OPT_TIME },
	{ "dio",       'd', DIOT_NO_ARG,  OPT_DIRECT },
	{ "direct",    0,   DIOT_NO_ARG,  OPT_DIRECT },
	{ "quick",     'q', DIOT_NO_ARG,  OPT_NOCOPY },
	{ "no-copy",   0,   DIOT_NO_ARG,  OPT_NOCOPY },
	{ "mmap",      'm', DIOT_NO_ARG,  OPT_MMAP },
	{ "echo",      'e', DIOT_NO_ARG,  OPT_ECHO },
	{ "sweep",     0,   DIOT_NO_ARG,  OPT_SWEEP },
	{ "sizes",     0,   DIOT_REQ_ARG, OPT_SIZES },
	{ "modes",     0,   DIOT_REQ_ARG, OPT_MODES },
	{ "command",   'c', DIOT_REQ_ARG, OPT_COMMAND },
	{ "lba",       0,   DIOT_REQ_ARG, OPT_LBA },
	{ "buffer-id", 0,   DIOT_REQ_ARG, OPT_BUFID },
	{ "timeout",   0,   DIOT_REQ_ARG, OPT_TIMEOUT },
	{ "command-times", 0, DIOT_NO_ARG, OPT_CMDTIMES },
	{ "format",    'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "plot",      'p', DIOT_REQ_ARG, OPT_PLOT },
	{ "verbose",   'v', DIOT_NO_ARG,  OPT_VERBOSE },
	{ "help",      'h', DIOT_NO_ARG,  OPT_HELP },
	{ "version",   'V', DIOT_NO_ARG,  OPT_VERSION },
	{ NULL, 0, 0, 0 }
};

/* -d, -q, -m together: as in sg_rbuf, -m overrides -q and -d, and -q
 * overrides -d. */
static int
mode_rank(int mode)
{
	return mode == DIO_SCSI_XFER_MMAP ? 3 : mode == DIO_SCSI_XFER_NO_COPY ? 2 : 1;
}

static void
set_mode(struct opts *o, int mode, const char *name)
{
	(void)name;
	if (o->mode_set && mode_rank(mode) < mode_rank(o->mode))
		return;
	o->mode = mode;
	o->mode_set = 1;
}

static void
parse_modes(struct opts *o, const char *name, const char *list)
{
	char item[32], err[DIOT_ERR_MAX];
	const char *p = list, *comma;
	size_t len, i;
	int m;

	o->nmodes = 0;
	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0 || len >= sizeof(item))
			value_error(name, list, "expected a comma-separated list of "
			            "indirect, direct, no-copy, mmap");
		memcpy(item, p, len);
		item[len] = '\0';
		if (diot_parse_word(item, mode_words, &m, err, sizeof(err)) < 0)
			value_error(name, list, err);
		for (i = 0; i < o->nmodes; i++)
			if (o->modes[i] == m)
				value_error(name, list, "a mode is listed twice");
		o->modes[o->nmodes++] = m;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
}

/* --sizes: largest first, as in the study's tables. */
static void
parse_sizes(struct opts *o, const char *name, const char *arg)
{
	char err[DIOT_ERR_MAX];
	uint64_t *list;
	int n = diot_parse_size_list(arg, 1, UINT64_MAX, &list, err, sizeof(err));

	if (n < 0)
		value_error(name, arg, err);
	if (n > MAX_SIZES) {
		free(list);     /* the error may be held, not the exit (msg.h) */
		value_error(name, arg, "more than 32 sizes");
	}
	for (o->nsizes = 0; o->nsizes < (size_t)n; o->nsizes++)
		o->sizes[o->nsizes] = list[n - 1 - (int)o->nsizes];
	free(list);
}

/* A size option: at least 1 byte. */
static void
parse_size(const char *name, const char *arg, uint64_t *out)
{
	char err[DIOT_ERR_MAX];

	if (diot_parse_size(arg, out, err, sizeof(err)) < 0)
		value_error(name, arg, err);
	if (*out == 0)
		value_error(name, arg, "must be at least 1 byte");
}

/* A number option in [min, max]. */
static uint64_t
parse_number(const char *name, const char *arg, uint64_t min, uint64_t max)
{
	char err[DIOT_ERR_MAX];
	uint64_t v;

	if (diot_parse_uint(arg, min, max, &v, err, sizeof(err)) < 0)
		value_error(name, arg, err);
	return v;
}

/* A word option: its index in words. */
static int
parse_word(const char *name, const char *arg, const char *const *words)
{
	char err[DIOT_ERR_MAX];
	int w;

	if (diot_parse_word(arg, words, &w, err, sizeof(err)) < 0)
		value_error(name, arg, err);
	return w;
}

/* An operand that is a size, not a device. */
static int
looks_like_size(const char *s)
{
	char err[DIOT_ERR_MAX];
	uint64_t v;

	return s[0] != '/' && diot_parse_size(s, &v, err, sizeof(err)) == 0;
}

/* A word given to -t as its value: a size that names no file. */
static int
size_for_t(const char *s)
{
	struct stat st;

	return s[0] != '-' && looks_like_size(s) && stat(s, &st) != 0;
}

/*
 * -t takes no value (sg_rbuf's --time).  A size given to it, as
 * "-t SIZE", "-tSIZE", "-t=SIZE" or "--time[=]SIZE", is the spelling of
 * the bytes per run of dio-rbuf's first command line (-t SIZE, -s SIZE
 * per command, -b N buffer id): a usage error that says which options to
 * write instead, with the -s and -b values of the same line.  A first
 * pass over the words only (diot_getopt() reads no values), so that the
 * hint comes before any complaint about those values (-b 0 was a buffer
 * id there).
 */
static void
refuse_old_t(int argc, char **argv)
{
	struct diot_optstate st;
	const char *t = NULL, *each = NULL, *bufid = NULL, *w;
	char as[80];
	int id;

	diot_getopt_init(&st);
	while (t == NULL && (id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		if (id == OPT_TIME && st.sub != 0) {
			/* "-tSIZE" or "-t=SIZE": the rest of the word */
			w = argv[st.ind] + st.sub;
			if (size_for_t(w + (*w == '='))) {
				t = w + (*w == '=');
				snprintf(as, sizeof(as), "-t%.60s", w);
			}
		} else if (id == OPT_TIME && st.ind < argc && size_for_t(argv[st.ind])) {
			t = argv[st.ind];
			snprintf(as, sizeof(as), "%s %.60s", st.name, t);
		} else if (id == DIOT_OPT_ERROR && strncmp(argv[st.ind - 1], "--time=", 7) == 0 &&
		           size_for_t(argv[st.ind - 1] + 7)) {
			t = argv[st.ind - 1] + 7;
			snprintf(as, sizeof(as), "%.70s", argv[st.ind - 1]);
		} else if (id == OPT_TOTAL && strcmp(st.name, "--total") != 0) {
			each = st.arg;
		} else if (id == OPT_EACH && strcmp(st.name, "-b") == 0) {
			bufid = st.arg;
		}
	}
	if (t == NULL)
		return;
	/* The -s and -b after it too. */
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		if (id == OPT_TOTAL && strcmp(st.name, "--total") != 0)
			each = st.arg;
		else if (id == OPT_EACH && strcmp(st.name, "-b") == 0)
			bufid = st.arg;
	}
	diot_usage_error("'%s': -t takes no value, as in sg_rbuf (dio-rbuf always "
	                 "times); for %s bytes per run write: %s%s%s-s %s%s%s "
	                 "(-s OVERALL is the bytes per run%s%s)", as, t,
	                 each ? "-b " : "", each ? each : "", each ? " " : "", t,
	                 bufid ? " --buffer-id " : "", bufid ? bufid : "",
	                 each ? ", -b EACH the bytes per command" : "",
	                 bufid ? ", --buffer-id N the buffer id" : "");
}

static void
print_version(void)
{
	printf("%s (libdirectio) %s, library %s, backend %s\n", RBUF_PROG,
	       PACKAGE_VERSION, dio_version_string(), dio_backend_name());
}

/* One option (id) with its argument into o; 1 after --help or --version
 * (nothing more to do), else 0. */
static int
apply_option(struct opts *o, int id, const struct diot_optstate *st, int *sizes_given,
             int *modes_given)
{
	switch (id) {
	case DIOT_OPT_ERROR:
		diot_usage_error("%s", st->err);
		break;
	case DIOT_OPT_OPERAND:
		if (o->device != NULL)
			diot_usage_error("one DEVICE only (got '%s' and '%s')%s", o->device,
			                 st->arg, looks_like_size(o->device) ||
			                 looks_like_size(st->arg) ? "; a size is not an operand: "
			                 "the bytes per run are -s OVERALL, the bytes per "
			                 "command -b EACH" : "");
		o->device = st->arg;
		break;
	case OPT_EACH:
		parse_size(st->name, st->arg, &o->size);
		o->size_set = 1;
		break;
	case OPT_TIME:          /* sg_rbuf's -t: dio-rbuf always times */
		break;
	case OPT_ECHO:
		o->echo = 1;
		break;
	case OPT_TOTAL:
		parse_size(st->name, st->arg, &o->total);
		break;
	case OPT_DIRECT:
		set_mode(o, DIO_SCSI_XFER_DIRECT, st->name);
		break;
	case OPT_NOCOPY:
		set_mode(o, DIO_SCSI_XFER_NO_COPY, st->name);
		break;
	case OPT_MMAP:
		set_mode(o, DIO_SCSI_XFER_MMAP, st->name);
		break;
	case OPT_SWEEP:
		o->sweep = 1;
		break;
	case OPT_SIZES:
		parse_sizes(o, st->name, st->arg);
		*sizes_given = 1;
		break;
	case OPT_MODES:
		parse_modes(o, st->name, st->arg);
		*modes_given = 1;
		break;
	case OPT_COMMAND:
		o->command = parse_word(st->name, st->arg, command_words);
		break;
	case OPT_LBA:
		o->lba = parse_number(st->name, st->arg, 0, UINT32_MAX);
		o->lba_set = 1;
		break;
	case OPT_BUFID:
		o->buffer_id = (int)parse_number(st->name, st->arg, 0, 255);
		break;
	case OPT_TIMEOUT:
		o->timeout_s = (unsigned)parse_number(st->name, st->arg, 1, 3600);
		break;
	case OPT_CMDTIMES:
		o->cmd_times = 1;
		break;
	case OPT_FORMAT:
		o->format = parse_word(st->name, st->arg, format_words);
		break;
	case OPT_PLOT:
		if (*st->arg == '\0')
			value_error(st->name, st->arg, "empty file name");
		o->plot = st->arg;
		break;
	case OPT_VERBOSE:
		o->verbose++;
		break;
	case OPT_HELP:
		usage(stdout);
		return 1;
	case OPT_VERSION:
		print_version();
		return 1;
	}
	return 0;
}

int
rbuf_parse_args(int argc, char **argv, struct opts *o)
{
	struct diot_optstate st;
	int id, sizes_given = 0, modes_given = 0;
	char why[200];

	refuse_old_t(argc, argv);
	memset(o, 0, sizeof(*o));
	o->total = DEFAULT_TOTAL;
	o->mode = DIO_SCSI_XFER_INDIRECT;
	o->timeout_s = 60;
	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END)
		if (apply_option(o, id, &st, &sizes_given, &modes_given))
			return fflush(stdout) == 0 && !ferror(stdout) ? 0 : DIOT_EXIT_FAIL;
	if (o->device == NULL)
		diot_usage_error("no DEVICE given");
	if (o->sweep && (o->size_set || o->mode_set))
		diot_usage_error("--sweep chooses sizes and modes itself: use --sizes and "
		                 "--modes");
	if (!o->sweep && (sizes_given || modes_given))
		diot_usage_error("--sizes and --modes need --sweep (for one run use --size "
		                 "and -d, -q or -m)");
	if (!o->sweep && o->plot)
		diot_usage_error("--plot needs --sweep");
	if (o->plot && diot_out_writable(o->plot, why, sizeof(why)) < 0)
		diot_usage_error("--plot '%s' %s", o->plot, why);
	if (o->lba_set && o->command != CMD_READ)
		diot_usage_error("--lba goes with --command read");
	if (o->command == CMD_READ && o->buffer_id != 0)
		diot_usage_error("--buffer-id goes with --command rbuf");
	if (o->sweep && !modes_given) {
		memcpy(o->modes, sweep_default_modes, sizeof(sweep_default_modes));
		o->nmodes = NMODES;
	}
	return -1;
}
