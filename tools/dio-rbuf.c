/*
 * dio-rbuf.c -- time SCSI READ BUFFER through libdirectio: ask the device
 * for its buffer capacity (READ BUFFER descriptor mode), read the buffer
 * over and over (data mode) until a total is reached, and report elapsed
 * time, throughput, commands per second and CPU utilisation, for each of
 * the transfer modes indirect, direct, no-copy and mmap.  --sweep repeats
 * that over buffer sizes and derives the per-command latency and the
 * bandwidth, as in the sg driver's direct/indirect I/O study.  Devices
 * without READ BUFFER can be timed with READ(10) of a few blocks instead.
 *
 * READ BUFFER reads the device's buffer memory, READ(10) the medium: the
 * tool never writes.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/util.h"
#include "tools/kit/scsi.h"

#define PROG "dio-rbuf"
#define EXIT_FAIL 1
#define EXIT_USAGE 2

#define MAX_SIZES 32
#define NMODES 4                /* DIO_SCSI_XFER_INDIRECT .. MMAP */
#define DEFAULT_TOTAL (200ull * 1024 * 1024)
#define DEFAULT_READ_SIZE (64u * 1024)
#define RBUF_MAX_LEN 0xffffffu  /* READ BUFFER(10) allocation length: 24 bits */
#define READ10_MAX_BLOCKS 0xffffu

enum { CMD_RBUF, CMD_READ };
enum { FMT_TABLE, FMT_CSV, FMT_JSON };

/* Indexed by dio_scsi_xfer. */
static const char *const mode_words[] = { "indirect", "direct", "no-copy", "mmap", NULL };
static const char *const command_words[] = { "rbuf", "read", NULL };
static const char *const format_words[] = { "table", "csv", "json", NULL };
/* The seed study's column order: simulated direct (-q), direct, indirect. */
static const int sweep_default_modes[] = {
	DIO_SCSI_XFER_NO_COPY, DIO_SCSI_XFER_DIRECT, DIO_SCSI_XFER_INDIRECT,
	DIO_SCSI_XFER_MMAP
};
static const uint64_t sweep_default_sizes[] = {
	512 * 1024, 256 * 1024, 32 * 1024, 16 * 1024, 8 * 1024, 4 * 1024
};

struct opts {
	const char *device;
	uint64_t size;
	int size_set;
	uint64_t total;
	int mode;
	int mode_set;
	int sweep;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	int modes[NMODES];
	size_t nmodes;
	int command;
	uint64_t lba;
	int lba_set;
	int format;
	const char *plot;
	int verbose;
	int cmd_times;          /* --command-times: time each command       */
	unsigned timeout_s;
	int buffer_id;
};

struct dev {
	const char *path;
	int fd;
	const char *kind;
	int64_t reserved;       /* sg reserved buffer, < 0 when there is none */
	struct dio_inquiry inq;
	int have_inq;
	uint32_t capacity;      /* READ BUFFER capacity                       */
	unsigned boundary;      /* READ BUFFER offset boundary exponent       */
	uint64_t blocks;        /* READ CAPACITY                               */
	uint32_t block_len;
	uint64_t limit;         /* largest bytes per command                  */
};

struct run {
	int mode;
	uint64_t size;
	int measured;
	int err;                /* -errno when not measured                   */
	int unsupported;        /* the mode does not exist for this device    */
	char why[400];
	uint64_t commands;
	uint64_t bytes;         /* bytes transferred (asked minus residuals)  */
	double secs, user, sys;
	uint64_t not_direct;    /* DIRECT asked, something else done          */
	int xfer_done;
	int timed_each;         /* --command-times: dur_* are set             */
	uint64_t dur_sum, dur_min, dur_max;
};

struct summary {
	int mode;
	size_t points;
	int lat_ok, after_ok, raw_ok, fit_ok, bw_ok, r2_ok;
	double latency;         /* s per command, implied                     */
	double after;           /* bytes/s                                    */
	double best_raw, worst_raw;
	double fit_latency, fit_bw, fit_r2;
};

static int verbose;

static void
note(int level, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void
note(int level, const char *fmt, ...)
{
	va_list ap;

	if (verbose < level)
		return;
	fprintf(stderr, "%s: ", PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTIONS] DEVICE\n"
"Time SCSI READ BUFFER (or READ(10)) on DEVICE through libdirectio: elapsed\n"
"time, MB/s (10^6 bytes) and MiB/s, commands/s and CPU utilisation.\n"
"DEVICE is an sg device (/dev/sgN), a block device that accepts SG_IO\n"
"(/dev/sdX) or an illumos raw disk (/dev/rdsk/cXtYdZs2).  Nothing is written.\n"
"\n"
"  -s, --size SIZE       bytes per command (default: the buffer capacity;\n"
"                        with --command read 64 KiB)\n"
"  -t, --total SIZE      bytes to transfer per run (default 200 MiB)\n"
"  -d, --direct          direct I/O into user memory (sg SG_FLAG_DIRECT_IO)\n"
"  -q, --no-copy         leave the data in the kernel (SG_FLAG_NO_DXFER)\n"
"  -m, --mmap            read into the sg reserved buffer mapped here\n"
"                        (default: indirect, the OS's normal path)\n"
"      --sweep           time every size of --sizes in every mode of --modes\n"
"                        and derive latency and bandwidth\n"
"      --sizes LIST      sizes for --sweep (default 512K,256K,32K,16K,8K,4K\n"
"                        up to the capacity)\n"
"      --modes LIST      modes for --sweep (default no-copy,direct,indirect,mmap)\n"
"  -c, --command CMD     rbuf (READ BUFFER, default) or read (READ(10) of\n"
"                        the same few blocks, for devices without READ BUFFER)\n"
"      --lba N           first block for --command read (default 0)\n"
"  -b, --buffer-id N     READ BUFFER buffer id (default 0)\n"
"      --timeout SEC     per-command timeout (default 60)\n"
"      --command-times   also time each command around its system call\n"
"                        (min/mean/max; two clock reads per command)\n"
"  -f, --format FMT      table (default), csv or json\n"
"  -p, --plot FILE.svg   with --sweep: plot time against size per mode\n"
"  -v, --verbose         more detail on stderr (repeat for more)\n"
"  -h, --help            this text\n"
"  -V, --version         version of the tool and library\n"
"\n"
"SIZE: digits with an optional suffix: %s.\n"
"Exit status: 0 measured, 1 failure (device, data, input), 2 usage error.\n",
	        PROG, diot_size_suffixes());
}

/* A usage error: the message, a pointer to --help, exit 2. */
static void
usage_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((noreturn, format(printf, 1, 2)))
#endif
	;

static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", PROG);
	exit(EXIT_USAGE);
}

/* A bad value for an option: exit 1 with the parser's message. */
static void
value_error(const char *opt, const char *value, const char *msg)
{
	fprintf(stderr, "%s: %s '%s': %s\n", PROG, opt, value, msg);
	exit(EXIT_FAIL);
}

static void
fail(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((noreturn, format(printf, 1, 2)))
#endif
	;

static void
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAIL);
}

/* ------------------------------------------------------------ options */

enum {
	OPT_SIZE = 's', OPT_TOTAL = 't', OPT_DIRECT = 'd', OPT_NOCOPY = 'q',
	OPT_MMAP = 'm', OPT_COMMAND = 'c', OPT_BUFID = 'b', OPT_FORMAT = 'f',
	OPT_PLOT = 'p', OPT_VERBOSE = 'v', OPT_HELP = 'h', OPT_VERSION = 'V',
	OPT_SWEEP = 256, OPT_SIZES, OPT_MODES, OPT_LBA, OPT_TIMEOUT, OPT_CMDTIMES
};

static const struct diot_opt options[] = {
	{ "size",      's', DIOT_REQ_ARG, OPT_SIZE },
	{ "total",     't', DIOT_REQ_ARG, OPT_TOTAL },
	{ "direct",    'd', DIOT_NO_ARG,  OPT_DIRECT },
	{ "no-copy",   'q', DIOT_NO_ARG,  OPT_NOCOPY },
	{ "mmap",      'm', DIOT_NO_ARG,  OPT_MMAP },
	{ "sweep",     0,   DIOT_NO_ARG,  OPT_SWEEP },
	{ "sizes",     0,   DIOT_REQ_ARG, OPT_SIZES },
	{ "modes",     0,   DIOT_REQ_ARG, OPT_MODES },
	{ "command",   'c', DIOT_REQ_ARG, OPT_COMMAND },
	{ "lba",       0,   DIOT_REQ_ARG, OPT_LBA },
	{ "buffer-id", 'b', DIOT_REQ_ARG, OPT_BUFID },
	{ "timeout",   0,   DIOT_REQ_ARG, OPT_TIMEOUT },
	{ "command-times", 0, DIOT_NO_ARG, OPT_CMDTIMES },
	{ "format",    'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "plot",      'p', DIOT_REQ_ARG, OPT_PLOT },
	{ "verbose",   'v', DIOT_NO_ARG,  OPT_VERBOSE },
	{ "help",      'h', DIOT_NO_ARG,  OPT_HELP },
	{ "version",   'V', DIOT_NO_ARG,  OPT_VERSION },
	{ NULL, 0, 0, 0 }
};

static void
set_mode(struct opts *o, int mode, const char *name)
{
	if (o->mode_set && o->mode != mode)
		usage_error("%s: only one of -d, -q, -m may be given", name);
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

static void
parse_args(int argc, char **argv, struct opts *o)
{
	struct diot_optstate st;
	char err[DIOT_ERR_MAX];
	uint64_t v;
	int id, w, sizes_given = 0, modes_given = 0;

	memset(o, 0, sizeof(*o));
	o->total = DEFAULT_TOTAL;
	o->mode = DIO_SCSI_XFER_INDIRECT;
	o->timeout_s = 60;
	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		switch (id) {
		case DIOT_OPT_ERROR:
			usage_error("%s", st.err);
			break;
		case DIOT_OPT_OPERAND:
			if (o->device != NULL)
				usage_error("one DEVICE only (got '%s' and '%s')", o->device,
				            st.arg);
			o->device = st.arg;
			break;
		case OPT_SIZE:
			if (diot_parse_size(st.arg, &o->size, err, sizeof(err)) < 0)
				value_error(st.name, st.arg, err);
			if (o->size == 0)
				value_error(st.name, st.arg, "must be at least 1 byte");
			o->size_set = 1;
			break;
		case OPT_TOTAL:
			if (diot_parse_size(st.arg, &o->total, err, sizeof(err)) < 0)
				value_error(st.name, st.arg, err);
			if (o->total == 0)
				value_error(st.name, st.arg, "must be at least 1 byte");
			break;
		case OPT_DIRECT:
			set_mode(o, DIO_SCSI_XFER_DIRECT, st.name);
			break;
		case OPT_NOCOPY:
			set_mode(o, DIO_SCSI_XFER_NO_COPY, st.name);
			break;
		case OPT_MMAP:
			set_mode(o, DIO_SCSI_XFER_MMAP, st.name);
			break;
		case OPT_SWEEP:
			o->sweep = 1;
			break;
		case OPT_SIZES:
			{
				uint64_t *list;
				int n = diot_parse_size_list(st.arg, 1, UINT64_MAX, &list, err,
				                             sizeof(err));

				if (n < 0)
					value_error(st.name, st.arg, err);
				if (n > MAX_SIZES)
					value_error(st.name, st.arg, "more than 32 sizes");
				/* largest first, as in the study's tables */
				for (o->nsizes = 0; o->nsizes < (size_t)n; o->nsizes++)
					o->sizes[o->nsizes] = list[n - 1 - (int)o->nsizes];
				free(list);
			}
			sizes_given = 1;
			break;
		case OPT_MODES:
			parse_modes(o, st.name, st.arg);
			modes_given = 1;
			break;
		case OPT_COMMAND:
			if (diot_parse_word(st.arg, command_words, &w, err, sizeof(err)) < 0)
				value_error(st.name, st.arg, err);
			o->command = w;
			break;
		case OPT_LBA:
			if (diot_parse_uint(st.arg, 0, UINT32_MAX, &o->lba, err, sizeof(err)) < 0)
				value_error(st.name, st.arg, err);
			o->lba_set = 1;
			break;
		case OPT_BUFID:
			if (diot_parse_uint(st.arg, 0, 255, &v, err, sizeof(err)) < 0)
				value_error(st.name, st.arg, err);
			o->buffer_id = (int)v;
			break;
		case OPT_TIMEOUT:
			if (diot_parse_uint(st.arg, 1, 3600, &v, err, sizeof(err)) < 0)
				value_error(st.name, st.arg, err);
			o->timeout_s = (unsigned)v;
			break;
		case OPT_CMDTIMES:
			o->cmd_times = 1;
			break;
		case OPT_FORMAT:
			if (diot_parse_word(st.arg, format_words, &w, err, sizeof(err)) < 0)
				value_error(st.name, st.arg, err);
			o->format = w;
			break;
		case OPT_PLOT:
			if (*st.arg == '\0')
				value_error(st.name, st.arg, "empty file name");
			o->plot = st.arg;
			break;
		case OPT_VERBOSE:
			o->verbose++;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			printf("%s (libdirectio) %s, library %s, backend %s\n", PROG,
			       PACKAGE_VERSION, dio_version_string(), dio_backend_name());
			exit(0);
		}
	}
	if (o->device == NULL)
		usage_error("no DEVICE given");
	if (o->sweep && (o->size_set || o->mode_set))
		usage_error("--sweep chooses sizes and modes itself: use --sizes and "
		            "--modes");
	if (!o->sweep && (sizes_given || modes_given))
		usage_error("--sizes and --modes need --sweep (for one run use --size "
		            "and -d, -q or -m)");
	if (!o->sweep && o->plot)
		usage_error("--plot needs --sweep");
	if (o->lba_set && o->command != CMD_READ)
		usage_error("--lba goes with --command read");
	if (o->command == CMD_READ && o->buffer_id != 0)
		usage_error("--buffer-id goes with --command rbuf");
	if (o->sweep && !modes_given) {
		memcpy(o->modes, sweep_default_modes, sizeof(sweep_default_modes));
		o->nmodes = NMODES;
	}
	verbose = o->verbose;
}

/* ------------------------------------------------------------ device */

/*
 * Run one small setup command; 0 when GOOD.  Otherwise prints nothing,
 * writes why into why and returns -errno (not sent) or 1 (answered).
 */
static int
setup_cmd(struct dev *d, const uint8_t *cdb, int cdb_len, void *buf, size_t len,
          unsigned timeout_s, char *why, size_t whylen)
{
	dio_scsi *c = dio_scsi_new();
	int r;

	if (c == NULL)
		fail("out of memory");
	dio_scsi_set_timeout(c, timeout_s * 1000u);
	r = diot_scsi_run(c, d->fd, cdb, cdb_len, DIO_SCSI_DIR_IN, buf, len, why, whylen);
	if (r < 0 && dio_scsi_category(c) >= 0)
		r = 1;
	dio_scsi_free(c);
	return r;
}

static void
open_device(struct dev *d, const struct opts *o)
{
	struct stat st;
	int fd;

	d->path = o->device;
	if (stat(d->path, &st) != 0)
		fail("%s: %s", d->path, dio_strerror(-errno));
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
		fail("%s: not a device (%s); give a SCSI device: an sg device "
		     "(/dev/sgN), a SCSI disk (/dev/sdX) or an illumos raw disk "
		     "(/dev/rdsk/...)", d->path,
		     S_ISREG(st.st_mode) ? "a regular file" :
		     S_ISDIR(st.st_mode) ? "a directory" : "not a block or character device");
	fd = dio_scsi_open(d->path, 1);
	if (fd == -ENOTTY)
		fail("%s: not a SCSI device: it does not accept SCSI pass-through "
		     "(SG_IO/USCSICMD)", d->path);
	if (fd == -ENOTSUP)
		fail("%s: this build has no SCSI pass-through (libdirectio backend %s)",
		     d->path, dio_backend_name());
	if (fd < 0)
		fail("%s: cannot open: %s", d->path, dio_strerror(fd));
	d->fd = fd;
	/* Only sg has a reserved buffer: asking for 0 bytes reads its size. */
	d->reserved = dio_scsi_reserve(fd, 0);
	if (S_ISBLK(st.st_mode))
		d->kind = "block device";
	else if (d->reserved >= 0)
		d->kind = "sg character device";
	else
		d->kind = "character device";
}

static void
probe_inquiry(struct dev *d, const struct opts *o)
{
	uint8_t cdb[16], buf[96];
	char why[300];

	memset(buf, 0, sizeof(buf));
	dio_cdb_inquiry(cdb, 0, 0, sizeof(buf));
	if (setup_cmd(d, cdb, 6, buf, sizeof(buf), o->timeout_s, why, sizeof(why)) == 0 &&
	    dio_parse_inquiry(buf, sizeof(buf), &d->inq) == 0)
		d->have_inq = 1;
	else
		note(1, "%s: INQUIRY failed: %s", d->path, why);
}

static void
probe_buffer(struct dev *d, const struct opts *o)
{
	uint8_t cdb[16], buf[4] = { 0 };
	char why[300];
	int r;

	dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DESCRIPTOR, o->buffer_id, 0, sizeof(buf));
	r = setup_cmd(d, cdb, 10, buf, sizeof(buf), o->timeout_s, why, sizeof(why));
	if (r < 0)
		fail("%s: READ BUFFER (descriptor mode) could not be sent: %s", d->path, why);
	if (r > 0)
		fail("%s: the device refused READ BUFFER (descriptor mode, buffer id "
		     "%d): %s\n%s: without READ BUFFER, use --command read to time "
		     "READ(10) of a few blocks instead", d->path, o->buffer_id, why, PROG);
	dio_parse_buffer_descriptor(buf, sizeof(buf), &d->boundary, &d->capacity);
	note(1, "READ BUFFER descriptor: %02x %02x %02x %02x: offset boundary %u, "
	     "capacity %u bytes", buf[0], buf[1], buf[2], buf[3], d->boundary, d->capacity);
	if (d->capacity == 0)
		fail("%s: the device reports a READ BUFFER capacity of 0 bytes for "
		     "buffer id %d: nothing to read", d->path, o->buffer_id);
	d->limit = d->capacity;
}

static void
probe_capacity(struct dev *d, const struct opts *o)
{
	dio_scsi *c = dio_scsi_new();
	char why[300];
	int r;

	if (c == NULL)
		fail("out of memory");
	dio_scsi_set_timeout(c, o->timeout_s * 1000u);
	r = diot_scsi_capacity(c, d->fd, &d->blocks, &d->block_len, why, sizeof(why));
	dio_scsi_free(c);
	if (r < 0)
		fail("%s: %s", d->path, why);
	if (d->block_len == 0 || d->blocks == 0)
		fail("%s: READ CAPACITY gave no usable capacity (%llu blocks of %u bytes)",
		     d->path, (unsigned long long)d->blocks, d->block_len);
	note(1, "READ CAPACITY: %llu blocks of %u bytes", (unsigned long long)d->blocks,
	     d->block_len);
	if (o->lba >= d->blocks)
		fail("%s: --lba %llu is beyond the last block (%llu)", d->path,
		     (unsigned long long)o->lba, (unsigned long long)(d->blocks - 1));
	d->limit = (uint64_t)READ10_MAX_BLOCKS * d->block_len;
	if (d->blocks - o->lba < READ10_MAX_BLOCKS)
		d->limit = (d->blocks - o->lba) * d->block_len;
}

/* ------------------------------------------------------------ runs */

/* The sizes to time, checked against the device. */
static size_t
choose_sizes(const struct dev *d, struct opts *o)
{
	char a[32], b[32];
	size_t i, n = 0;
	int dropped = 0;

	if (!o->sweep) {
		if (!o->size_set)
			o->size = o->command == CMD_RBUF ? d->capacity :
			          (DEFAULT_READ_SIZE < d->limit ? DEFAULT_READ_SIZE :
			           d->limit / d->block_len * d->block_len);
		o->sizes[0] = o->size;
		o->nsizes = 1;
	} else if (o->nsizes == 0) {
		for (i = 0; i < sizeof(sweep_default_sizes) / sizeof(sweep_default_sizes[0]); i++) {
			if (sweep_default_sizes[i] <= d->limit)
				o->sizes[o->nsizes++] = sweep_default_sizes[i];
			else
				dropped = 1;
		}
		/* Sizes above the capacity were dropped: time the capacity itself
		 * as the largest size, as the study's first row does. */
		if (dropped && o->command == CMD_RBUF) {
			memmove(o->sizes + 1, o->sizes, o->nsizes * sizeof(o->sizes[0]));
			o->sizes[0] = d->limit;
			o->nsizes++;
		}
		if (o->nsizes == 0)
			fail("%s: the capacity of %llu bytes is below every default sweep "
			     "size; give --sizes", d->path, (unsigned long long)d->limit);
	}
	for (i = 0; i < o->nsizes; i++) {
		if (o->sizes[i] > d->limit)
			fail("%s: %llu bytes (%s) per command exceeds the %s of %llu bytes "
			     "(%s)", d->path, (unsigned long long)o->sizes[i],
			     diot_fmt_iec(o->sizes[i], b, sizeof(b)),
			     o->command == CMD_RBUF ? "device's buffer capacity" :
			     "largest READ(10) here", (unsigned long long)d->limit,
			     diot_fmt_iec(d->limit, a, sizeof(a)));
		if (o->command == CMD_READ && o->sizes[i] % d->block_len != 0)
			fail("%s: %llu bytes per command is not a multiple of the %u-byte "
			     "block", d->path, (unsigned long long)o->sizes[i], d->block_len);
		if (o->command == CMD_READ && o->sizes[i] < d->block_len)
			fail("%s: READ(10) needs at least one %u-byte block per command",
			     d->path, d->block_len);
	}
	for (i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > o->sizes[n])
			n = i;
	return n;       /* index of the largest */
}

static int
build_cdb(const struct dev *d, const struct opts *o, uint64_t len, uint8_t *cdb)
{
	if (o->command == CMD_RBUF)
		return dio_cdb_read_buffer(cdb, DIO_BUF_MODE_DATA, o->buffer_id, 0,
		                           (uint32_t)len);
	return dio_cdb_rw10(cdb, 0, (uint32_t)o->lba,
	                    (uint32_t)((len + d->block_len - 1) / d->block_len), 0);
}

static void
run_failed(struct run *r, int err, int unsupported, const char *fmt, const char *s)
{
	r->measured = 0;
	r->err = err;
	r->unsupported = unsupported;
	snprintf(r->why, sizeof(r->why), fmt, s);
}

/* Mean microseconds per command of a measured run: the commands' own
 * durations with --command-times, else the run's time over its commands. */
static double
mean_command_us(const struct run *r)
{
	if (r->timed_each)
		return (double)r->dur_sum / (double)r->commands / 1e3;
	return r->secs / (double)r->commands * 1e6;
}

/* A command that did not come back GOOD ends the run: say which. */
static int
command_failed(dio_scsi *c, struct run *r, int e, uint64_t i, uint64_t ncmd)
{
	char detail[400], why[300];

	if (e < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		run_failed(r, e, 0, "%s", detail);
		return e;
	}
	snprintf(detail, sizeof(detail), "command %llu of %llu: the device answered: %s",
	         (unsigned long long)(i + 1), (unsigned long long)ncmd,
	         dio_scsi_outcome_str(c, why, sizeof(why)));
	run_failed(r, -EIO, 0, "%s", detail);
	return -EIO;
}

/* n commands of len bytes as set in c (the first of them is command
 * number first of the run), back to back in the library's repeat loop:
 * nothing but the system calls between the run's two clock reads. */
static int
repeat_command(dio_scsi *c, const struct dev *d, struct run *r, uint64_t len,
               uint64_t n, uint64_t first)
{
	struct dio_scsi_tally t;
	uint64_t ncmd = r->commands;
	int e;

	e = dio_scsi_exec_repeat(c, d->fd, n, &t);
	r->bytes += t.commands * len - t.resid;
	r->not_direct += t.not_direct;
	if (e < 0 || dio_scsi_category(c) != DIO_SCSI_CAT_GOOD)
		return command_failed(c, r, e, first + t.commands, ncmd);
	r->xfer_done = dio_scsi_xfer_done(c);
	return 0;
}

/* The same, one dio_scsi_exec() at a time, with each command's duration
 * (measured by the library around its system call) in min/mean/max. */
static int
each_command(dio_scsi *c, const struct dev *d, struct run *r, uint64_t len,
             uint64_t n, uint64_t first)
{
	uint64_t i, ns;
	int e;

	for (i = 0; i < n; i++) {
		e = dio_scsi_exec(c, d->fd);
		if (e < 0 || dio_scsi_category(c) != DIO_SCSI_CAT_GOOD)
			return command_failed(c, r, e, first + i, r->commands);
		r->bytes += len - (uint64_t)dio_scsi_resid(c);
		ns = dio_scsi_duration_ns(c);
		r->dur_sum += ns;
		if (ns < r->dur_min)
			r->dur_min = ns;
		if (ns > r->dur_max)
			r->dur_max = ns;
		r->xfer_done = dio_scsi_xfer_done(c);
		if (r->mode == DIO_SCSI_XFER_DIRECT && r->xfer_done != DIO_SCSI_XFER_DIRECT)
			r->not_direct++;
	}
	r->timed_each = 1;
	return 0;
}

/* Time one (size, mode) run; c carries the mmap mapping for MMAP. */
static void
measure(const struct dev *d, const struct opts *o, struct run *r, dio_scsi *c,
        void *buf)
{
	uint64_t full = o->total / r->size, rem = o->total % r->size, ncmd;
	uint8_t cdb[16], cdb_rem[16];
	double t0, t1, u0, s0, u1, s1;
	char detail[400], why[300];
	int n, n_rem = 0, e;
	void *data = r->mode == DIO_SCSI_XFER_INDIRECT || r->mode == DIO_SCSI_XFER_DIRECT ?
	             buf : NULL;

	if (o->command == CMD_READ && rem % d->block_len != 0)
		rem += d->block_len - rem % d->block_len;
	ncmd = full + (rem != 0);
	n = build_cdb(d, o, r->size, cdb);
	if (rem)
		n_rem = build_cdb(d, o, rem, cdb_rem);
	dio_scsi_clear(c);
	e = dio_scsi_set_xfer(c, r->mode);
	if (e < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		run_failed(r, e, e == -ENOTSUP, "%s", detail);
		return;
	}
	dio_scsi_set_timeout(c, o->timeout_s * 1000u);
	dio_scsi_set_cdb(c, cdb, (size_t)n);
	dio_scsi_set_data(c, DIO_SCSI_DIR_IN, data, (size_t)r->size);

	/* One untimed command first: errors show before any timing, and
	 * the first use of a buffer does not weigh on the figures. */
	e = dio_scsi_exec(c, d->fd);
	if (e < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		run_failed(r, e, e == -ENOTSUP, "%s", detail);
		return;
	}
	if (dio_scsi_category(c) != DIO_SCSI_CAT_GOOD) {
		run_failed(r, -EIO, 0, "the device answered: %s",
		           dio_scsi_outcome_str(c, why, sizeof(why)));
		return;
	}

	r->dur_min = UINT64_MAX;
	r->commands = ncmd;
	diot_cpu_times(&u0, &s0);
	t0 = diot_now();
	e = 0;
	if (full)
		e = o->cmd_times ? each_command(c, d, r, r->size, full, 0) :
		                   repeat_command(c, d, r, r->size, full, 0);
	if (e == 0 && rem) {
		dio_scsi_set_cdb(c, cdb_rem, (size_t)n_rem);
		dio_scsi_set_data(c, DIO_SCSI_DIR_IN, data, (size_t)rem);
		e = o->cmd_times ? each_command(c, d, r, rem, 1, full) :
		                   repeat_command(c, d, r, rem, 1, full);
	}
	if (e < 0)
		return;
	t1 = diot_now();
	diot_cpu_times(&u1, &s1);
	r->secs = t1 - t0;
	r->user = u1 - u0;
	r->sys = s1 - s0;
	r->measured = 1;
	if (r->timed_each)
		note(1, "%s %llu bytes: %llu commands in %.6f s; per command "
		     "%.1f/%.1f/%.1f us (min/mean/max)", dio_scsi_xfer_name(r->mode),
		     (unsigned long long)r->size, (unsigned long long)ncmd, r->secs,
		     r->dur_min / 1e3, mean_command_us(r), r->dur_max / 1e3);
	else
		note(1, "%s %llu bytes: %llu commands in %.6f s", dio_scsi_xfer_name(r->mode),
		     (unsigned long long)r->size, (unsigned long long)ncmd, r->secs);
}

/* Why direct I/O was asked and not done, for the report: the sg driver's
 * allow_dio, as the library's device facts know it. */
static void
direct_reason(const struct dev *d, const struct run *r, char *buf, size_t len)
{
	struct dio_devinfo di;
	const char *where;

	if (r->xfer_done == DIO_SCSI_XFER_AUTO) {
		snprintf(buf, len, "the OS chose the data path and does not report it");
		return;
	}
	if (dio_devinfo(d->path, &di) < 0)
		di.allow_dio = DIO_TRI_UNKNOWN;
	where = di.allow_dio_path[0] ? di.allow_dio_path : "allow_dio";
	if (di.allow_dio == DIO_TRI_NO)
		snprintf(buf, len, "the sg driver fell back to indirect I/O because "
		         "%s is 0 (as root: echo 1 > %s)", where, where);
	else if (di.allow_dio == DIO_TRI_YES)
		snprintf(buf, len, "the sg driver fell back to indirect I/O although "
		         "%s is 1: the buffer did not meet the queue's DMA alignment or "
		         "the request needed more than the driver maps directly", where);
	else
		snprintf(buf, len, "the driver fell back to indirect I/O and did not "
		         "say why (the sg driver's allow_dio cannot be read here)");
}

/* ------------------------------------------------------------ derived */

static int
mode_index(const struct opts *o, int mode)
{
	size_t i;

	for (i = 0; i < o->nmodes; i++)
		if (o->modes[i] == mode)
			return (int)i;
	return -1;
}

static struct run *
run_at(struct run *runs, const struct opts *o, size_t size_i, size_t mode_i)
{
	return &runs[size_i * o->nmodes + mode_i];
}

/*
 * The study's derived rows for one mode, with its formulas:
 *   implied latency = (time at the smallest size - best time)
 *                     / commands of the smallest-size test
 *   best throughput after latency = transfer size
 *                     / (best time - implied latency * commands of the best test)
 *   best / worst raw throughput = transfer size / best / worst time
 * plus a least-squares fit time = commands * latency + bytes / bandwidth
 * over all sizes.
 */
static void
summarise(struct run *runs, const struct opts *o, size_t mode_i, struct summary *s)
{
	struct run *r, *best = NULL, *worst = NULL, *smallest = NULL;
	double x1[MAX_SIZES], x2[MAX_SIZES], y[MAX_SIZES], a, b, r2, den;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->mode = o->modes[mode_i];
	for (i = 0; i < o->nsizes; i++) {
		r = run_at(runs, o, i, mode_i);
		if (!r->measured || r->secs <= 0)
			continue;
		x1[s->points] = (double)r->commands;
		x2[s->points] = (double)r->bytes;
		y[s->points] = r->secs;
		s->points++;
		if (best == NULL || r->secs < best->secs)
			best = r;
		if (worst == NULL || r->secs > worst->secs)
			worst = r;
		if (smallest == NULL || r->size < smallest->size)
			smallest = r;
	}
	if (best == NULL)
		return;
	s->best_raw = (double)best->bytes / best->secs;
	s->worst_raw = (double)worst->bytes / worst->secs;
	s->raw_ok = 1;
	if (s->points >= 2 && smallest != best) {
		s->latency = (smallest->secs - best->secs) / (double)smallest->commands;
		s->lat_ok = 1;
		den = best->secs - s->latency * (double)best->commands;
		if (den > 0) {
			s->after = (double)best->bytes / den;
			s->after_ok = 1;
		}
	}
	if (diot_fit2(x1, x2, y, s->points, &a, &b, &r2) == 0) {
		s->fit_latency = a;
		s->fit_r2 = r2;
		s->fit_ok = 1;
		/* Two points fit two parameters exactly: R² says nothing. */
		s->r2_ok = s->points >= 3;
		/* Noise can push the byte term below 0: no bandwidth then. */
		if (b > 0) {
			s->fit_bw = 1.0 / b;
			s->bw_ok = 1;
		}
	}
}

/* ------------------------------------------------------------ output */

static const char *
command_name(const struct opts *o)
{
	return o->command == CMD_RBUF ? "READ BUFFER" : "READ(10)";
}

static void
print_device(const struct dev *d, const struct opts *o)
{
	char a[32], b[32];

	printf("device      %s (%s", d->path, d->kind);
	if (d->reserved >= 0)
		printf(", reserved buffer %lld bytes", (long long)d->reserved);
	printf(")");
	if (d->have_inq)
		printf(": %s %s %s", d->inq.vendor, d->inq.product, d->inq.revision);
	printf("\n");
	if (o->command == CMD_RBUF)
		printf("command     READ BUFFER data mode, buffer id %d; capacity %u bytes "
		       "(%s); offset boundary %s\n", o->buffer_id, d->capacity,
		       diot_fmt_iec(d->capacity, a, sizeof(a)),
		       d->boundary == 0xff ? "FFh (offset must be 0)" :
		       (snprintf(b, sizeof(b), "2^%u bytes", d->boundary), b));
	else
		printf("command     READ(10) at LBA %llu; %llu blocks of %u bytes (%s)\n",
		       (unsigned long long)o->lba, (unsigned long long)d->blocks,
		       d->block_len, diot_fmt_iec(d->blocks * d->block_len, a, sizeof(a)));
}

static void
print_single(const struct dev *d, const struct opts *o, const struct run *r)
{
	char a[32], b[32], why[400];

	print_device(d, o);
	printf("mode        %s (done: %s)\n", dio_scsi_xfer_name(r->mode),
	       dio_scsi_xfer_name(r->xfer_done));
	printf("transfer    %llu commands of up to %llu bytes (%s) = %llu bytes (%s)\n",
	       (unsigned long long)r->commands, (unsigned long long)r->size,
	       diot_fmt_iec(r->size, a, sizeof(a)), (unsigned long long)r->bytes,
	       diot_fmt_iec(r->bytes, b, sizeof(b)));
	printf("elapsed     %.6f s\n", r->secs);
	printf("throughput  %.2f MB/s (%.2f MiB/s)\n", (double)r->bytes / r->secs / 1e6,
	       (double)r->bytes / r->secs / 1048576.0);
	if (r->timed_each)
		printf("commands    %.1f per second; per command %.1f us on average, "
		       "%.1f min, %.1f max, measured around each system call\n",
		       (double)r->commands / r->secs, mean_command_us(r),
		       r->dur_min / 1e3, r->dur_max / 1e3);
	else
		printf("commands    %.1f per second; %.1f us per command on average "
		       "(elapsed over commands)\n", (double)r->commands / r->secs,
		       mean_command_us(r));
	printf("CPU         %.1f%% (user %.3f s, system %.3f s)\n",
	       (r->user + r->sys) / r->secs * 100.0, r->user, r->sys);
	if (r->mode == DIO_SCSI_XFER_DIRECT && r->not_direct > 0) {
		direct_reason(d, r, why, sizeof(why));
		printf("note        direct I/O was asked but not done for %llu of %llu "
		       "commands: %s\n", (unsigned long long)r->not_direct,
		       (unsigned long long)r->commands, why);
	}
}

/* Every run of mode index m is unsupported by the device. */
static int
summary_unsupported(struct run *runs, const struct opts *o, size_t m)
{
	size_t i;

	for (i = 0; i < o->nsizes; i++)
		if (!run_at(runs, o, i, m)->unsupported)
			return 0;
	return 1;
}

/* Print s right-aligned in width columns; UTF-8 continuation bytes take none. */
static void
put_right(const char *s, int width)
{
	const unsigned char *p;
	int cols = 0;

	for (p = (const unsigned char *)s; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	while (cols++ < width)
		putchar(' ');
	fputs(s, stdout);
}

static void
put_left(const char *s, int width)
{
	const unsigned char *p;
	int cols = 0;

	fputs(s, stdout);
	for (p = (const unsigned char *)s; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	while (cols++ < width)
		putchar(' ');
}

static void
fmt_or_na(char *buf, size_t len, int ok, const char *fmt, double v)
{
	if (ok)
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "n/a");
}

static void
print_sweep_table(const struct dev *d, const struct opts *o, struct run *runs,
                  const struct summary *sum)
{
	static const char *const rows[7] = {
		"latency per command (implied)", "best throughput after latency",
		"best raw throughput", "worst raw throughput",
		"fit: latency per command", "fit: bandwidth", "fit: R\xc2\xb2"
	};
	char a[32], cell[64];
	size_t i, m;
	struct run *r;
	int row;

	print_device(d, o);
	printf("\nTime in seconds (CPU utilisation) for a %llu-byte (%s) transfer per run\n\n",
	       (unsigned long long)o->total, diot_fmt_iec(o->total, a, sizeof(a)));
	printf("%-12s", "buffer size");
	for (m = 0; m < o->nmodes; m++)
		printf(" %16s", dio_scsi_xfer_name(o->modes[m]));
	printf("\n");
	for (i = 0; i < o->nsizes; i++) {
		printf("%-12s", diot_fmt_iec(o->sizes[i], a, sizeof(a)));
		for (m = 0; m < o->nmodes; m++) {
			r = run_at(runs, o, i, m);
			if (r->measured)
				snprintf(cell, sizeof(cell), "%.3f (%3.0f%%)", r->secs,
				         (r->user + r->sys) / r->secs * 100.0);
			else
				snprintf(cell, sizeof(cell), r->unsupported ? "n/a" : "failed");
			printf(" %16s", cell);
		}
		printf("\n");
	}
	printf("\n");
	put_left("", 34);
	for (m = 0; m < o->nmodes; m++) {
		putchar(' ');
		put_right(dio_scsi_xfer_name(o->modes[m]), 13);
	}
	for (row = 0; row < 7; row++) {
		printf("\n");
		put_left(rows[row], 34);
		for (m = 0; m < o->nmodes; m++) {
			const struct summary *u = &sum[m];

			switch (row) {
			case 0: fmt_or_na(cell, sizeof(cell), u->lat_ok, "%.3f ms", u->latency * 1e3); break;
			case 1: fmt_or_na(cell, sizeof(cell), u->after_ok, "%.1f MB/s", u->after / 1e6); break;
			case 2: fmt_or_na(cell, sizeof(cell), u->raw_ok, "%.1f MB/s", u->best_raw / 1e6); break;
			case 3: fmt_or_na(cell, sizeof(cell), u->raw_ok, "%.1f MB/s", u->worst_raw / 1e6); break;
			case 4: fmt_or_na(cell, sizeof(cell), u->fit_ok, "%.1f \xc2\xb5s", u->fit_latency * 1e6); break;
			case 5: fmt_or_na(cell, sizeof(cell), u->bw_ok, "%.1f MB/s", u->fit_bw / 1e6); break;
			default: fmt_or_na(cell, sizeof(cell), u->r2_ok, "%.4f", u->fit_r2); break;
			}
			putchar(' ');
			put_right(cell, 13);
		}
	}
	printf("\nMB = 10^6 bytes.  Fit: time = commands x latency + bytes / bandwidth, "
	       "least squares over the sizes.\n");
	for (m = 0; m < o->nmodes; m++)    /* a mode the device lacks: once */
		if (summary_unsupported(runs, o, m))
			printf("%s: n/a: %s\n", dio_scsi_xfer_name(o->modes[m]),
			       run_at(runs, o, 0, m)->why);
	for (i = 0; i < o->nsizes; i++)
		for (m = 0; m < o->nmodes; m++) {
			r = run_at(runs, o, i, m);
			if (!r->measured && !summary_unsupported(runs, o, m))
				printf("%s %s: %s\n", diot_fmt_iec(r->size, a, sizeof(a)),
				       dio_scsi_xfer_name(r->mode), r->why);
			else if (r->mode == DIO_SCSI_XFER_DIRECT && r->not_direct > 0) {
				char why[400];

				direct_reason(d, r, why, sizeof(why));
				printf("%s direct: not done for %llu of %llu commands: %s\n",
				       diot_fmt_iec(r->size, a, sizeof(a)),
				       (unsigned long long)r->not_direct,
				       (unsigned long long)r->commands, why);
			}
		}
}

static void
csv_num(double v, int ok)
{
	if (ok)
		printf(",%.9g", v);
	else
		printf(",");
}

static void
print_csv(const struct dev *d, const struct opts *o, struct run *runs, size_t nruns,
          const struct summary *sum)
{
	size_t i, m;
	struct run *r;

	printf("record,device,command,mode,mode_done,size,commands,bytes,seconds,"
	       "mb_per_s,mib_per_s,commands_per_s,cpu_percent,user_s,sys_s,"
	       "not_direct,mean_command_us,error\n");
	for (i = 0; i < nruns; i++) {
		r = &runs[i];
		printf("run,");
		diot_csv_field(stdout, d->path);
		printf(",%s,%s,%s,%llu", o->command == CMD_RBUF ? "rbuf" : "read",
		       dio_scsi_xfer_name(r->mode),
		       r->measured ? dio_scsi_xfer_name(r->xfer_done) : "",
		       (unsigned long long)r->size);
		if (r->measured) {
			printf(",%llu,%llu,%.9f", (unsigned long long)r->commands,
			       (unsigned long long)r->bytes, r->secs);
			csv_num((double)r->bytes / r->secs / 1e6, 1);
			csv_num((double)r->bytes / r->secs / 1048576.0, 1);
			csv_num((double)r->commands / r->secs, 1);
			csv_num((r->user + r->sys) / r->secs * 100.0, 1);
			csv_num(r->user, 1);
			csv_num(r->sys, 1);
			printf(",%llu", (unsigned long long)r->not_direct);
			csv_num(mean_command_us(r), 1);
			printf(",\n");
		} else {
			/* commands .. mean_command_us empty, then the error */
			printf(",,,,,,,,,,,,");
			diot_csv_field(stdout, r->why);
			printf("\n");
		}
	}
	if (!o->sweep)
		return;
	printf("\nrecord,mode,points,implied_latency_us,best_after_latency_mb_per_s,"
	       "best_raw_mb_per_s,worst_raw_mb_per_s,fit_latency_us,"
	       "fit_bandwidth_mb_per_s,fit_r2\n");
	for (m = 0; m < o->nmodes; m++) {
		printf("summary,%s,%zu", dio_scsi_xfer_name(sum[m].mode), sum[m].points);
		csv_num(sum[m].latency * 1e6, sum[m].lat_ok);
		csv_num(sum[m].after / 1e6, sum[m].after_ok);
		csv_num(sum[m].best_raw / 1e6, sum[m].raw_ok);
		csv_num(sum[m].worst_raw / 1e6, sum[m].raw_ok);
		csv_num(sum[m].fit_latency * 1e6, sum[m].fit_ok);
		csv_num(sum[m].fit_bw / 1e6, sum[m].bw_ok);
		csv_num(sum[m].fit_r2, sum[m].r2_ok);
		printf("\n");
	}
}

static void
json_num(const char *key, double v, int ok, int comma)
{
	printf("\"%s\": ", key);
	if (ok && isfinite(v))
		printf("%.9g", v);
	else
		printf("null");
	if (comma)
		printf(", ");
}

static void
print_json(const struct dev *d, const struct opts *o, struct run *runs, size_t nruns,
           const struct summary *sum)
{
	size_t i, m;
	struct run *r;

	printf("{\n  \"tool\": \"%s\", \"version\": \"%s\", \"backend\": \"%s\",\n", PROG,
	       PACKAGE_VERSION, dio_backend_name());
	printf("  \"device\": ");
	diot_json_string(stdout, d->path);
	printf(", \"device_kind\": \"%s\",\n  ", d->kind);
	if (d->have_inq) {
		printf("\"vendor\": ");
		diot_json_string(stdout, d->inq.vendor);
		printf(", \"product\": ");
		diot_json_string(stdout, d->inq.product);
		printf(", \"revision\": ");
		diot_json_string(stdout, d->inq.revision);
	} else {
		printf("\"vendor\": null, \"product\": null, \"revision\": null");
	}
	printf(",\n  \"command\": \"%s\", ", o->command == CMD_RBUF ? "rbuf" : "read");
	if (o->command == CMD_RBUF)
		printf("\"buffer_id\": %d, \"capacity\": %u, \"offset_boundary\": %u, ",
		       o->buffer_id, d->capacity, d->boundary);
	else
		printf("\"lba\": %llu, \"blocks\": %llu, \"block_size\": %u, ",
		       (unsigned long long)o->lba, (unsigned long long)d->blocks, d->block_len);
	printf("\"total\": %llu,\n  \"runs\": [\n", (unsigned long long)o->total);
	for (i = 0; i < nruns; i++) {
		r = &runs[i];
		printf("    {\"mode\": \"%s\", \"size\": %llu, \"measured\": %s, ",
		       dio_scsi_xfer_name(r->mode), (unsigned long long)r->size,
		       r->measured ? "true" : "false");
		if (r->measured) {
			printf("\"mode_done\": \"%s\", \"commands\": %llu, \"bytes\": %llu, ",
			       dio_scsi_xfer_name(r->xfer_done),
			       (unsigned long long)r->commands, (unsigned long long)r->bytes);
			json_num("seconds", r->secs, 1, 1);
			json_num("mb_per_s", (double)r->bytes / r->secs / 1e6, 1, 1);
			json_num("mib_per_s", (double)r->bytes / r->secs / 1048576.0, 1, 1);
			json_num("commands_per_s", (double)r->commands / r->secs, 1, 1);
			json_num("cpu_percent", (r->user + r->sys) / r->secs * 100.0, 1, 1);
			json_num("user_s", r->user, 1, 1);
			json_num("sys_s", r->sys, 1, 1);
			json_num("mean_command_us", mean_command_us(r), 1, 1);
			if (r->timed_each) {
				json_num("min_command_us", r->dur_min / 1e3, 1, 1);
				json_num("max_command_us", r->dur_max / 1e3, 1, 1);
			}
			printf("\"not_direct\": %llu}", (unsigned long long)r->not_direct);
		} else {
			printf("\"unsupported\": %s, \"error\": ",
			       r->unsupported ? "true" : "false");
			diot_json_string(stdout, r->why);
			printf("}");
		}
		printf("%s\n", i + 1 < nruns ? "," : "");
	}
	printf("  ]");
	if (o->sweep) {
		printf(",\n  \"summary\": [\n");
		for (m = 0; m < o->nmodes; m++) {
			printf("    {\"mode\": \"%s\", \"points\": %zu, ",
			       dio_scsi_xfer_name(sum[m].mode), sum[m].points);
			json_num("implied_latency_us", sum[m].latency * 1e6, sum[m].lat_ok, 1);
			json_num("best_after_latency_mb_per_s", sum[m].after / 1e6,
			         sum[m].after_ok, 1);
			json_num("best_raw_mb_per_s", sum[m].best_raw / 1e6, sum[m].raw_ok, 1);
			json_num("worst_raw_mb_per_s", sum[m].worst_raw / 1e6, sum[m].raw_ok, 1);
			json_num("fit_latency_us", sum[m].fit_latency * 1e6, sum[m].fit_ok, 1);
			json_num("fit_bandwidth_mb_per_s", sum[m].fit_bw / 1e6, sum[m].bw_ok, 1);
			json_num("fit_r2", sum[m].fit_r2, sum[m].r2_ok, 0);
			printf("}%s\n", m + 1 < o->nmodes ? "," : "");
		}
		printf("  ]");
	}
	printf("\n}\n");
}

/* ------------------------------------------------------------ plot */

static double
nice_step(double range)
{
	double raw = range / 5.0, mag, f;

	if (!(raw > 0))
		return 1.0;
	mag = pow(10.0, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static int
write_plot(const char *file, const struct dev *d, const struct opts *o,
           struct run *runs)
{
	static const char *const colour[NMODES] = { "#d62728", "#1f77b4", "#2ca02c", "#9467bd" };
	const double W = 760, H = 480, L = 80, R = 160, T = 50, B = 70;
	double pw = W - L - R, ph = H - T - B, ymax = 0, step, y, lmin = 0, lmax = 0;
	char a[32];
	size_t i, m, k;
	struct run *r;
	FILE *fp;
	int first;

	for (i = 0; i < o->nsizes; i++) {
		double l = log2((double)o->sizes[i]);

		if (i == 0 || l < lmin)
			lmin = l;
		if (i == 0 || l > lmax)
			lmax = l;
		for (m = 0; m < o->nmodes; m++) {
			r = run_at(runs, o, i, m);
			if (r->measured && r->secs > ymax)
				ymax = r->secs;
		}
	}
	step = nice_step(ymax > 0 ? ymax : 1.0);
	ymax = ceil((ymax > 0 ? ymax : 1.0) / step) * step;
	fp = fopen(file, "w");
	if (fp == NULL)
		return -errno;
#define PX(sz) (lmax > lmin ? L + (log2((double)(sz)) - lmin) / (lmax - lmin) * pw : L + pw / 2)
#define PY(t) (T + ph - (t) / ymax * ph)
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
	        W, H, W, H);
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(fp, "<text x=\"%.0f\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">",
	        L + pw / 2);
	diot_xml_text(fp, command_name(o));
	fprintf(fp, " on ");
	diot_xml_text(fp, d->path);
	fprintf(fp, ": %llu bytes (%s) per run</text>\n", (unsigned long long)o->total,
	        diot_fmt_iec(o->total, a, sizeof(a)));
	/* axes and grid */
	fprintf(fp, "<g stroke=\"#888\" stroke-width=\"1\">\n"
	        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n"
	        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n</g>\n",
	        L, T + ph, L + pw, T + ph, L, T, L, T + ph);
	for (y = 0; y <= ymax + step / 2; y += step) {
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#ddd\"/>\n", L, PY(y), L + pw, PY(y));
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
		        L - 6, PY(y) + 4, y);
	}
	for (i = 0; i < o->nsizes; i++)
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
		        PX(o->sizes[i]), T + ph + 18,
		        diot_fmt_short(o->sizes[i], a, sizeof(a)));
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">buffer size "
	        "(bytes per command, log scale)</text>\n", L + pw / 2, H - 20);
	fprintf(fp, "<text transform=\"translate(20 %.1f) rotate(-90)\" "
	        "text-anchor=\"middle\">time (s)</text>\n", T + ph / 2);
	/* one line per mode, points sorted by size */
	for (m = 0; m < o->nmodes; m++) {
		const char *col = colour[o->modes[m] % NMODES];
		size_t order[MAX_SIZES], n = 0, j;

		for (i = 0; i < o->nsizes; i++)
			if (run_at(runs, o, i, m)->measured)
				order[n++] = i;
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && o->sizes[order[j]] < o->sizes[order[j - 1]]; j--) {
				k = order[j];
				order[j] = order[j - 1];
				order[j - 1] = k;
			}
		if (n > 1) {
			fprintf(fp, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			        "points=\"", col);
			first = 1;
			for (j = 0; j < n; j++) {
				r = run_at(runs, o, order[j], m);
				fprintf(fp, "%s%.1f,%.1f", first ? "" : " ", PX(r->size),
				        PY(r->secs));
				first = 0;
			}
			fprintf(fp, "\"/>\n");
		}
		for (j = 0; j < n; j++) {
			r = run_at(runs, o, order[j], m);
			fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\">"
			        "<title>%s %llu bytes: %.6f s</title></circle>\n",
			        PX(r->size), PY(r->secs), col, dio_scsi_xfer_name(r->mode),
			        (unsigned long long)r->size, r->secs);
		}
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%.1f\">%s%s"
		        "</text>\n", L + pw + 20, T + 10 + 20.0 * (double)m, L + pw + 45,
		        T + 10 + 20.0 * (double)m, col, L + pw + 52, T + 14 + 20.0 * (double)m,
		        dio_scsi_xfer_name(o->modes[m]), n ? "" : " (n/a)");
	}
#undef PX
#undef PY
	fprintf(fp, "</svg>\n");
	if (fclose(fp) != 0)
		return -errno;
	return 0;
}

/* ------------------------------------------------------------ main */

int
main(int argc, char **argv)
{
	struct opts o;
	struct dev d;
	struct run *runs;
	struct summary sum[NMODES];
	dio_scsi *c, *cmap = NULL;
	void *buf, *map = NULL;
	char detail[300], a[32];
	size_t i, m, nruns, big;
	int map_err = 0, measured = 0, hard = 0, r;

	parse_args(argc, argv, &o);
	memset(&d, 0, sizeof(d));
	open_device(&d, &o);
	probe_inquiry(&d, &o);
	if (o.command == CMD_RBUF)
		probe_buffer(&d, &o);
	else
		probe_capacity(&d, &o);
	if (!o.sweep) {
		o.modes[0] = o.mode;
		o.nmodes = 1;
	}
	big = choose_sizes(&d, &o);

	/* sg serves indirect transfers that fit from its reserved buffer
	 * and maps that buffer for mmap: size it for the largest command. */
	if (d.reserved >= 0) {
		int64_t got = dio_scsi_reserve(d.fd, (size_t)o.sizes[big]);

		note(1, "sg reserved buffer: asked %llu bytes, have %lld",
		     (unsigned long long)o.sizes[big], (long long)got);
		if (got >= 0)
			d.reserved = got;
	}
	buf = dio_alloc((size_t)o.sizes[big], 0);
	c = dio_scsi_new();
	if (buf == NULL || c == NULL)
		fail("out of memory for a %llu-byte buffer", (unsigned long long)o.sizes[big]);
	memset(buf, 0, (size_t)o.sizes[big]);
	if (mode_index(&o, DIO_SCSI_XFER_MMAP) >= 0) {
		cmap = dio_scsi_new();
		if (cmap == NULL)
			fail("out of memory");
		map_err = dio_scsi_mmap_buf(cmap, d.fd, (size_t)o.sizes[big], &map);
		if (map_err < 0)
			dio_scsi_errdetail(cmap, detail, sizeof(detail));
		else
			note(1, "mapped %llu bytes of the reserved buffer at %p",
			     (unsigned long long)o.sizes[big], map);
	}

	nruns = o.nsizes * o.nmodes;
	runs = calloc(nruns, sizeof(*runs));
	if (runs == NULL)
		fail("out of memory");
	for (i = 0; i < o.nsizes; i++) {
		for (m = 0; m < o.nmodes; m++) {
			struct run *rr = run_at(runs, &o, i, m);

			rr->mode = o.modes[m];
			rr->size = o.sizes[i];
			if (rr->mode == DIO_SCSI_XFER_MMAP && map_err < 0)
				run_failed(rr, map_err, map_err == -ENOTSUP, "%s", detail);
			else
				measure(&d, &o, rr, rr->mode == DIO_SCSI_XFER_MMAP ? cmap : c, buf);
			if (rr->measured)
				measured++;
			else if (!rr->unsupported)
				hard++;
			if (!rr->measured && !o.sweep)
				fail("%s: %s %s of %llu bytes (%s): %s", d.path, command_name(&o),
				     dio_scsi_xfer_name(rr->mode), (unsigned long long)rr->size,
				     diot_fmt_iec(rr->size, a, sizeof(a)), rr->why);
		}
	}
	for (m = 0; m < o.nmodes; m++)
		summarise(runs, &o, m, &sum[m]);

	switch (o.format) {
	case FMT_TABLE:
		if (o.sweep)
			print_sweep_table(&d, &o, runs, sum);
		else
			print_single(&d, &o, &runs[0]);
		break;
	case FMT_CSV:
		print_csv(&d, &o, runs, nruns, sum);
		break;
	default:
		print_json(&d, &o, runs, nruns, sum);
		break;
	}
	if (fflush(stdout) != 0)
		fail("writing the report: %s", dio_strerror(-errno));
	if (o.plot) {
		r = write_plot(o.plot, &d, &o, runs);
		if (r < 0)
			fail("%s: cannot write the plot: %s", o.plot, dio_strerror(r));
		note(1, "plot written to %s", o.plot);
	}

	dio_scsi_free(cmap);
	dio_scsi_free(c);
	dio_free(buf);
	free(runs);
	close(d.fd);
	if (measured == 0) {
		fprintf(stderr, "%s: %s: nothing could be measured\n", PROG, d.path);
		return EXIT_FAIL;
	}
	return hard ? EXIT_FAIL : 0;
}
