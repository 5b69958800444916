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

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/hist.h"
#include "tools/kit/util.h"

#define MAX_DEVS 64
#define MAX_THREADS 64           /* per device */
#define MAX_QD 1024
#define MAX_BS (1ull << 30)
#define MAX_TRANSFER (1ull << 30)
#define STAMP_STEP 4096          /* write pattern: a stamp per block and 4 KiB */

enum mode { MODE_READ, MODE_WRITE, MODE_COPY };
enum path_kind { K_NONE, K_FILE, K_BLOCK, K_SG };
enum engine { ENG_SYNC, ENG_AIO, ENG_URING, ENG_POSIX };
enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

static const char *const mode_words[] = { "read", "write", "copy", NULL };
static const char *const engine_words[] = { "sync", "aio", "io_uring", "posix-aio", NULL };
static const char *const format_words[] = { "table", "csv", "json", NULL };
/* fadvise=: "none" gives no hint (the default, as dd); the others are
 * posix_fadvise() advice for the whole of every file and block device. */
static const char *const fadvise_words[] = { "none", "normal", "sequential", "random",
                                             NULL };

/* ------------------------------------------------------------ options */

struct side_flags {
	int direct, dsync, sync, nocopy, sg, force, notrunc;
};

static struct opts {
	char *ifs[MAX_DEVS], *ofs[MAX_DEVS];
	int nif, nof;
	uint64_t bs, count, skip, seek, bpt, thr, qd, rate;
	int count_set, qd_set, mode_set, mode, engine, engine_set;
	int time, dio, format, format_set, force, procs, same_session, fadvise;
	int small_pages;         /* largepages=0                                */
	uint64_t bufoff;         /* bufoff=                                     */
	int bufoff_set;
	struct side_flags iflag, oflag;
} o;

/* ------------------------------------------------------------ devices */

struct side {
	const char *path;
	int kind;                /* path_kind                                   */
	dio_file *f;             /* K_FILE / K_BLOCK                            */
	int fd;                  /* the descriptor (sg: from dio_scsi_open)     */
	int created;             /* we created this output file                 */
	uint64_t size;           /* bytes (0: unknown / new file)               */
	uint32_t sg_block;       /* sg: logical block length                    */
	uint64_t sg_blocks;      /* sg: capacity in blocks                      */
	int use16;               /* sg: READ/WRITE(16) needed                   */
	int claim_fd;            /* output device held exclusively, or -1       */
	uint32_t allow_dio;      /* sg with dio=1: the driver's allow_dio (tri) */
	char allow_dio_path[64]; /* and where it is set                         */
	struct dio_align align;
};

struct dev {
	int index;
	char name[PATH_MAX * 2 + 8];
	struct side in, out;
	uint64_t nblocks;        /* blocks to transfer                          */
	uint64_t ntransfers;     /* ceil(nblocks / bpt)                         */
	int64_t in_base, out_base;
	size_t align;            /* buffer alignment                            */
	/* shared while running, under lock */
	pthread_mutex_t lock;
	uint64_t next;           /* next transfer index                         */
	int eof;                 /* a short read: no more transfers             */
	/* results (merged from the threads under lock) */
	struct diot_hist hist;
	uint64_t bytes, rbytes, wbytes, calls;
	uint64_t io_ns, cpu_ns, t_end;
	uint64_t sg_cmds, sg_not_direct;
	size_t buf_page;         /* page size of the threads' buffers           */
	int err;
	char errmsg[512];
	char reason[400];        /* sg: why direct was not done                 */
};

static struct dev *devs;
static int ndevs;
static size_t tsize;             /* bytes per transfer: bs * bpt                */
static size_t buf_off;           /* buffers start this far past an aligned
                                  * boundary (bufoff=; set_buffer_offset())     */
static int aio_engine = -1;      /* dio_aio engine in use                       */
static char engine_note[300];
static volatile sig_atomic_t g_stop, g_signal;

/* start gate */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open, gate_ready;
static uint64_t t_go;

static void
on_signal(int sig)
{
	g_signal = sig;
	g_stop = 1;
}

/* ------------------------------------------------------------ usage */

static void
usage(void)
{
	printf(
"Usage: dio-dd [OPTIONS] OPERAND=VALUE...\n"
"Sequential reads, writes or copies on one or more files or devices at\n"
"once, measured: whole-workload wall time, time in the I/O calls, MB/s,\n"
"per-call latency (mean, percentiles, histogram), CPU, and for SCSI\n"
"generic devices the commands where direct I/O was asked but not done.\n"
"\n"
"Operands:\n"
"  if=FILE[,FILE...]     read these (files, block devices, sg devices)\n"
"  of=FILE[,FILE...]     write these; with if= the copy is pairwise\n"
"                        (if=a,b of=c,d copies a to c and b to d at once);\n"
"                        of=/dev/null means nowhere (a read)\n"
"  mode=read|write|copy  the default follows if=/of= (read: if= only,\n"
"                        write: of= only, writing a generated pattern)\n"
"  bs=SIZE               block size (default 512; sg: the device's block)\n"
"  bpt=N                 blocks per transfer (default 1): each call moves\n"
"                        bs*bpt bytes\n"
"  count=N               blocks per device (default: to the end of the\n"
"                        input; write mode: to the end of a device)\n"
"  skip=N, seek=N        blocks to skip at the start of input, output\n"
"  iflag=, oflag=LIST    direct (O_DIRECT / directio), dsync, sync\n"
"                        (oflag; on sg: FUA), nocopy (iflag: read into the\n"
"                        kernel and drop, no user copy), sg (SCSI READ/WRITE\n"
"                        on a block device too), force (oflag: as --force),\n"
"                        notrunc (oflag: do not truncate an output file to\n"
"                        seek*bs before writing)\n"
"  thr=N                 threads per device (default 1)\n"
"  engine=sync|aio|io_uring|posix-aio   synchronous calls (default) or the\n"
"                        asynchronous queue; aio takes io_uring and falls\n"
"                        back to POSIX AIO, saying so\n"
"  qd=N                  requests in flight per thread for the asynchronous\n"
"                        engine (default 1; qd > 1 implies engine=aio)\n"
"  rate=SIZE[/s]         per-device rate limit in bytes per second\n"
"  time=0|1              1: print the timing report (default 0: records and\n"
"                        the throughput line only; csv/json always have all)\n"
"  dio=0|1               sg: ask for direct transfers (SG_FLAG_DIRECT_IO)\n"
"  bufoff=BYTES          each buffer starts BYTES past an aligned boundary,\n"
"                        0 to 4095 (default: 32 when every transfer goes\n"
"                        through the page cache, where the kernel's copies\n"
"                        were measured faster than to a cache-line aligned\n"
"                        buffer; otherwise 0: with a direct side it must be\n"
"                        a multiple of the memory alignment)\n"
"  largepages=0|1        1 (default): each thread's buffers on large pages\n"
"                        where the system has them (transparent huge\n"
"                        pages), so direct transfers pin fewer pages\n"
"  fadvise=none|normal|sequential|random   page-cache advice for every\n"
"                        file and block device (default none: no hint,\n"
"                        as dd; fio gives sequential by default)\n"
"\n"
"Options:\n"
"  -f, --format FMT      table (default), csv or json\n"
"      --force           allow writing over an existing file or a device\n"
"      --processes       one process per device (each in a session of its\n"
"                        own, as fio runs its jobs) with its thr= threads;\n"
"                        default: one process, every thread in it\n"
"      --same-session    with --processes: the worker processes stay in\n"
"                        dio-dd's session (as separate dd commands would)\n"
"  -h, --help            this text\n"
"  -V, --version         version and backend\n"
"\n"
"Sizes take the suffixes %s.\n"
"A mounted or otherwise busy device is never written; an existing file or\n"
"any device only with --force (or oflag=force); new files are created.\n"
"An output file is truncated to seek*bs first (unless oflag=notrunc).  An\n"
"output that is also an input or another output (the same file or device\n"
"under another name, a disk and one of its partitions) is refused.\n"
"Exit status: 0 success, 1 the run failed (the partial results are\n"
"printed), 2 bad usage (also: an if= that does not exist, an of= in a\n"
"directory that does not exist), 130 interrupted by SIGINT (partial\n"
"results).\n",
	diot_size_suffixes());
}

/* ------------------------------------------------------------ operands */

static int
split_list(const char *key, const char *v, char **out, int max)
{
	char *copy = strdup(v), *item, *save = NULL;
	int n = 0;

	if (copy == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	if (*v == '\0')
		diot_usage_error("%s=: empty (name at least one file or device)", key);
	if (*v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		diot_usage_error("%s='%s': empty item in the list", key, v);
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (n == max)
			diot_usage_error("%s=: at most %d files or devices", key, max);
		out[n++] = item;
	}
	return n;
}

static void
parse_flags(const char *key, const char *v, struct side_flags *f, int is_out)
{
	char *copy = strdup(v), *item, *save = NULL;

	if (copy == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	if (*v == '\0' || *v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		diot_usage_error("%s='%s': empty item in the list", key, v);
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (strcmp(item, "direct") == 0)
			f->direct = 1;
		else if (strcmp(item, "sg") == 0)
			f->sg = 1;
		else if (is_out && strcmp(item, "dsync") == 0)
			f->dsync = 1;
		else if (is_out && strcmp(item, "sync") == 0)
			f->sync = 1;
		else if (is_out && strcmp(item, "force") == 0)
			f->force = 1;
		else if (is_out && strcmp(item, "notrunc") == 0)
			f->notrunc = 1;
		else if (!is_out && strcmp(item, "nocopy") == 0)
			f->nocopy = 1;
		else if (!is_out && (strcmp(item, "dsync") == 0 || strcmp(item, "sync") == 0 ||
		                     strcmp(item, "force") == 0 ||
		                     strcmp(item, "notrunc") == 0))
			diot_usage_error("iflag=%s: '%s' is an output flag (use oflag=%s)",
			                 v, item, item);
		else if (is_out && strcmp(item, "nocopy") == 0)
			diot_usage_error("oflag=%s: 'nocopy' is an input flag (iflag=nocopy "
			                 "reads into the kernel and drops the data)", v);
		else
			diot_usage_error("%s=%s: unknown flag '%s' (allowed: %s)", key, v, item,
			                 is_out ? "direct, dsync, sync, sg, force, notrunc"
			                        : "direct, nocopy, sg");
	}
	free(copy);
}

static void
parse_u(const char *key, const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	char err[DIOT_ERR_MAX];

	if (diot_parse_uint(v, min, max, out, err, sizeof(err)) < 0)
		diot_usage_error("%s='%s': %s", key, v, err);
}

/* The operands; each may be given once. */
static const char *const operand_words[] = {
	"if", "of", "mode", "bs", "bpt", "count", "skip", "seek", "iflag", "oflag",
	"thr", "engine", "qd", "rate", "time", "dio", "fadvise", "largepages",
	"bufoff", NULL
};

static void
parse_operand(const char *arg)
{
	static int seen[sizeof(operand_words) / sizeof(operand_words[0])];
	const char *eq = strchr(arg, '=');
	char key[32], err[DIOT_ERR_MAX], *v2;
	const char *v;
	uint64_t u;
	int idx, k;
	size_t kl;

	if (eq == NULL || eq == arg)
		diot_usage_error("'%s': operands are KEY=VALUE (if=, of=, bs=, count=, "
		                 "skip=, seek=, bpt=, iflag=, oflag=, thr=, mode=, engine=, "
		                 "qd=, rate=, time=, dio=, fadvise=, largepages=, bufoff=)", arg);
	kl = (size_t)(eq - arg);
	if (kl >= sizeof(key))
		diot_usage_error("'%s': unknown operand", arg);
	memcpy(key, arg, kl);
	key[kl] = '\0';
	v = eq + 1;
	for (k = 0; operand_words[k] != NULL; k++)
		if (strcmp(key, operand_words[k]) == 0)
			break;
	if (operand_words[k] != NULL && seen[k]) {
		if (strcmp(key, "if") == 0 || strcmp(key, "of") == 0)
			diot_usage_error("%s= given twice (list the %s in one %s=, separated "
			                 "by commas)", key, key[0] == 'i' ? "inputs" : "outputs",
			                 key);
		if (strcmp(key, "iflag") == 0 || strcmp(key, "oflag") == 0)
			diot_usage_error("%s= given twice (list the flags in one %s=, separated "
			                 "by commas)", key, key);
		diot_usage_error("%s= given twice ('%s'): give each operand once", key, arg);
	}
	if (operand_words[k] != NULL)
		seen[k] = 1;
	if (strcmp(key, "if") == 0) {
		o.nif = split_list(key, v, o.ifs, MAX_DEVS);
	} else if (strcmp(key, "of") == 0) {
		o.nof = split_list(key, v, o.ofs, MAX_DEVS);
	} else if (strcmp(key, "bs") == 0) {
		if (diot_parse_size_range(v, 1, MAX_BS, &o.bs, err, sizeof(err)) < 0)
			diot_usage_error("bs='%s': %s", v, err);
	} else if (strcmp(key, "count") == 0) {
		parse_u(key, v, 0, UINT64_MAX / 2, &o.count);
		o.count_set = 1;
	} else if (strcmp(key, "skip") == 0) {
		parse_u(key, v, 0, UINT64_MAX / 2, &o.skip);
	} else if (strcmp(key, "seek") == 0) {
		parse_u(key, v, 0, UINT64_MAX / 2, &o.seek);
	} else if (strcmp(key, "bpt") == 0) {
		parse_u(key, v, 1, 1u << 24, &o.bpt);
	} else if (strcmp(key, "thr") == 0) {
		parse_u(key, v, 1, MAX_THREADS, &o.thr);
	} else if (strcmp(key, "qd") == 0) {
		parse_u(key, v, 1, MAX_QD, &o.qd);
		o.qd_set = 1;
	} else if (strcmp(key, "time") == 0) {
		parse_u(key, v, 0, 1, &u);
		o.time = (int)u;
	} else if (strcmp(key, "dio") == 0) {
		parse_u(key, v, 0, 1, &u);
		o.dio = (int)u;
	} else if (strcmp(key, "iflag") == 0) {
		parse_flags(key, v, &o.iflag, 0);
	} else if (strcmp(key, "oflag") == 0) {
		parse_flags(key, v, &o.oflag, 1);
	} else if (strcmp(key, "mode") == 0) {
		if (diot_parse_word(v, mode_words, &idx, err, sizeof(err)) < 0)
			diot_usage_error("mode='%s': %s", v, err);
		o.mode = idx;
		o.mode_set = 1;
	} else if (strcmp(key, "engine") == 0) {
		if (diot_parse_word(v, engine_words, &idx, err, sizeof(err)) < 0)
			diot_usage_error("engine='%s': %s", v, err);
		o.engine = idx;
		o.engine_set = 1;
	} else if (strcmp(key, "largepages") == 0) {
		parse_u(key, v, 0, 1, &u);
		o.small_pages = u == 0;
	} else if (strcmp(key, "bufoff") == 0) {
		parse_u(key, v, 0, 4095, &o.bufoff);
		o.bufoff_set = 1;
	} else if (strcmp(key, "fadvise") == 0) {
		if (diot_parse_word(v, fadvise_words, &idx, err, sizeof(err)) < 0)
			diot_usage_error("fadvise='%s': %s", v, err);
#ifndef POSIX_FADV_SEQUENTIAL
		if (idx != 0)
			diot_usage_error("fadvise=%s: this platform has no posix_fadvise()", v);
#endif
		o.fadvise = idx;
	} else if (strcmp(key, "rate") == 0) {
		v2 = strdup(v);
		if (v2 == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		kl = strlen(v2);
		if (kl > 2 && strcmp(v2 + kl - 2, "/s") == 0)
			v2[kl - 2] = '\0';
		if (diot_parse_size_range(v2, 1, UINT64_MAX / 1000000000ull, &o.rate, err,
		                          sizeof(err)) < 0)
			diot_usage_error("rate='%s': %s (bytes per second, e.g. rate=100M)",
			                 v, err);
		free(v2);
	} else {
		diot_usage_error("'%s': unknown operand '%s' (allowed: if, of, mode, bs, "
		                 "bpt, count, skip, seek, iflag, oflag, thr, engine, qd, "
		                 "rate, time, dio, fadvise, largepages, bufoff)", arg, key);
	}
}

/* ------------------------------------------------------------ opening */

/* Remove output files this run created (on a failure before the run). */
static void
cleanup_created(void)
{
	int i;

	for (i = 0; i < ndevs; i++) {
		struct side *s = &devs[i].out;

		if (s->f != NULL)
			dio_close(s->f);
		s->f = NULL;
		if (s->created)
			unlink(s->path);
		s->created = 0;
	}
}

static void DIOT_PRINTF(2, 3) DIOT_NORETURN
fail_setup(int status, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cleanup_created();
	diot_die(status, "%s", msg);
}

/* One SCSI command on fd: returns 0 on GOOD, else -errno with msg. */
static int
sg_exec(dio_scsi *c, int fd, const uint8_t *cdb, int cdblen, int dir, void *buf,
        size_t len, char *msg, size_t msglen)
{
	char detail[256], sense[256];
	struct dio_sense ds;
	const uint8_t *sb;
	size_t sl;
	int r;

	dio_scsi_clear(c);
	dio_scsi_set_cdb(c, cdb, (size_t)cdblen);
	dio_scsi_set_data(c, dir, buf, len);
	r = dio_scsi_exec(c, fd);
	if (r < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		snprintf(msg, msglen, "%s (%s)", dio_strerror(r), detail);
		return r;
	}
	switch (dio_scsi_category(c)) {
	case DIO_SCSI_CAT_GOOD:
		return 0;
	case DIO_SCSI_CAT_SENSE:
		sb = dio_scsi_sense(c, &sl);
		if (dio_sense_decode(sb, sl, &ds) == 0)
			dio_sense_str(&ds, sense, sizeof(sense));
		else
			snprintf(sense, sizeof(sense), "undecodable sense data");
		snprintf(msg, msglen, "CHECK CONDITION: %s", sense);
		return -EIO;
	case DIO_SCSI_CAT_STATUS:
		snprintf(msg, msglen, "SCSI status %s",
		         dio_scsi_status_name(dio_scsi_status(c)));
		return -EIO;
	default:
		snprintf(msg, msglen, "transport error (host status 0x%x, driver status "
		         "0x%x)", dio_scsi_host_status(c), dio_scsi_driver_status(c));
		return -EIO;
	}
}

/* READ CAPACITY(10), then (16) when the capacity needs it. */
static void
sg_capacity(struct side *s)
{
	dio_scsi *c = dio_scsi_new();
	uint8_t cdb[16], buf[32];
	char msg[400];
	uint64_t blocks = 0;
	uint32_t blen = 0;
	int n, r;

	if (c == NULL)
		fail_setup(DIOT_EXIT_FAIL, "out of memory");
	n = dio_cdb_read_capacity10(cdb);
	r = sg_exec(c, s->fd, cdb, n, DIO_SCSI_DIR_IN, buf, 8, msg, sizeof(msg));
	if (r == 0) {
		r = dio_parse_read_capacity(buf, 8, 0, &blocks, &blen);
		if (r == -EOVERFLOW) {
			memset(buf, 0, sizeof(buf));
			n = dio_cdb_read_capacity16(cdb, 32);
			r = sg_exec(c, s->fd, cdb, n, DIO_SCSI_DIR_IN, buf, 32, msg,
			            sizeof(msg));
			if (r == 0)
				r = dio_parse_read_capacity(buf, 32, 1, &blocks, &blen);
		}
		if (r < 0 && msg[0] == '\0')
			snprintf(msg, sizeof(msg), "%s", dio_strerror(r));
	}
	dio_scsi_free(c);
	if (r < 0)
		fail_setup(DIOT_EXIT_FAIL, "'%s': READ CAPACITY failed: %s", s->path, msg);
	if (blen == 0)
		fail_setup(DIOT_EXIT_FAIL, "'%s': READ CAPACITY reports a block length of 0",
		           s->path);
	if (blocks > (uint64_t)INT64_MAX / blen)
		fail_setup(DIOT_EXIT_FAIL, "'%s': READ CAPACITY reports %" PRIu64 " blocks of %"
		           PRIu32 " bytes, more than 2^63-1 bytes", s->path, blocks, blen);
	s->sg_block = blen;
	s->sg_blocks = blocks;
	s->size = blocks * blen;
}

/* 1 if path is an sg node with no block device behind it (a tape, an
 * enclosure), as far as the library's device facts tell. */
static int
sg_without_disk(const char *path)
{
	struct dio_devinfo di;

	if (dio_devinfo(path, &di) < 0)
		return 0;
	return di.kind == DIO_DEVINFO_SG && di.device[0] == '\0';
}

/* Outputs claimed so far (names for the overlap message). */
static int nclaimed;
static char claimed_names[512];

/*
 * Hold a device output (an sg node: its disk) exclusively for the whole
 * run, so that nothing mounts it, swaps on it or claims it after the
 * check above.  Where the platform has no such claim the check is all.
 */
static void
claim_output(struct side *s)
{
	int r = dio_device_claim(s->path);
	size_t l;

	if (r >= 0) {
		s->claim_fd = r;
		l = strlen(claimed_names);
		if (l + 8 < sizeof(claimed_names))
			snprintf(claimed_names + l, sizeof(claimed_names) - l, "%sof= '%s'",
			         nclaimed ? ", " : "", s->path);
		nclaimed++;
		return;
	}
	switch (r) {
	case -ENOTSUP:      /* no claims on this platform */
	case -ENOTBLK:      /* a character device that is no sg node: refused below */
		return;
	case -EBUSY:
		if (nclaimed > 0)
			fail_setup(DIOT_EXIT_USAGE, "of= '%s' overlaps an output this run "
			           "already holds (%s): its exclusive claim failed: an "
			           "output must not be an input or another output", s->path,
			           claimed_names);
		fail_setup(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use (the "
		           "exclusive claim failed: mounted, used or claimed since it was "
		           "checked)", s->path);
	case -ENODEV:
		fail_setup(DIOT_EXIT_FAIL, "refusing to write to '%s': the block device of "
		           "this SCSI generic node cannot be determined (no disk behind "
		           "it?), so it cannot be claimed", s->path);
	default:
		fail_setup(DIOT_EXIT_FAIL, "refusing to write to '%s': cannot claim it "
		           "for the run: %s", s->path, dio_strerror(r));
	}
}

/* fadvise=: the advice for the whole file or device, or the run stops. */
static void
give_advice(const struct side *s, int is_out)
{
#ifdef POSIX_FADV_SEQUENTIAL
	static const int advice[] = { 0, POSIX_FADV_NORMAL, POSIX_FADV_SEQUENTIAL,
	                              POSIX_FADV_RANDOM };
	int r = posix_fadvise(s->fd, 0, 0, advice[o.fadvise]);

	if (r != 0)
		fail_setup(DIOT_EXIT_FAIL, "%s '%s': fadvise=%s: posix_fadvise: %s",
		           is_out ? "of=" : "if=", s->path, fadvise_words[o.fadvise],
		           dio_strerror(-r));
#else
	(void)s;
	(void)is_out;
#endif
}

/* Open one side.  is_out: output (write) side. */
static void
open_side(struct side *s, int is_out)
{
	const struct side_flags *fl = is_out ? &o.oflag : &o.iflag;
	char why[256];
	struct stat st;
	int exists, r, sync, flags;

	exists = stat(s->path, &st) == 0;
	if (!exists && (!is_out || errno != ENOENT))
		fail_setup(DIOT_EXIT_USAGE, "%s '%s': %s", is_out ? "of=" : "if=", s->path,
		           dio_strerror(errno));
	if (exists && S_ISDIR(st.st_mode))
		fail_setup(DIOT_EXIT_USAGE, "%s '%s' is a directory: name a file or a device",
		           is_out ? "of=" : "if=", s->path);
	if (exists && S_ISCHR(st.st_mode))
		s->kind = K_SG;
	else if (exists && S_ISBLK(st.st_mode))
		s->kind = fl->sg ? K_SG : K_BLOCK;
	else if (!exists || S_ISREG(st.st_mode))
		s->kind = K_FILE;
	else
		fail_setup(DIOT_EXIT_USAGE, "%s '%s' is neither a regular file nor a block "
		           "or sg device", is_out ? "of=" : "if=", s->path);
	if (fl->sg && s->kind == K_FILE)
		fail_setup(DIOT_EXIT_USAGE, "%s '%s': %sflag=sg needs a block or sg device, "
		           "not a file", is_out ? "of=" : "if=", s->path, is_out ? "o" : "i");

	/* Refusals for outputs come before anything is opened for writing. */
	if (is_out && exists) {
		if (s->kind == K_FILE && !o.force)
			fail_setup(DIOT_EXIT_USAGE, "of= '%s' exists and would be overwritten; "
			           "pass --force (or oflag=force) to allow that, or name a new "
			           "file", s->path);
		/* --force is for the file, not for a disk image in use (the
		 * file behind a loop device): that is refused like a mounted
		 * device.  Where files cannot be looked up (-ENOTSUP) they are
		 * written as before. */
		why[0] = '\0';
		if (s->kind == K_FILE && dio_device_in_use(s->path, why, sizeof(why)) == 1)
			fail_setup(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use "
			           "(%s)", s->path, why);
		if (s->kind != K_FILE) {
			if (!o.force)
				fail_setup(DIOT_EXIT_USAGE, "of= '%s' is a device: its contents "
				           "would be destroyed; pass --force (or oflag=force) to "
				           "allow that", s->path);
			/* An sg node is checked through its disk: one whose disk
			 * cannot be found cannot be checked, and is not written. */
			if (S_ISCHR(st.st_mode) && sg_without_disk(s->path))
				fail_setup(DIOT_EXIT_FAIL, "refusing to write to '%s': the block "
				           "device of this SCSI generic node cannot be determined "
				           "(no disk behind it?), so whether it is in use cannot "
				           "be checked", s->path);
			why[0] = '\0';
			r = dio_device_in_use(s->path, why, sizeof(why));
			if (r == 1)
				fail_setup(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in "
				           "use (%s)", s->path, why);
			if (r < 0)
				fail_setup(DIOT_EXIT_FAIL, "refusing to write to '%s': cannot "
				           "tell whether it is in use (%s%s%s)", s->path,
				           dio_strerror(r), why[0] ? ": " : "", why);
			claim_output(s);
		}
	}

	if (s->kind == K_SG) {
		if (fl->direct)
			fail_setup(DIOT_EXIT_USAGE, "%s '%s': %sflag=direct is for files and "
			           "block devices; for SCSI pass-through ask for direct "
			           "transfers with dio=1", is_out ? "of=" : "if=", s->path,
			           is_out ? "o" : "i");
		if (fl->nocopy)
			fail_setup(DIOT_EXIT_USAGE, "if= '%s': iflag=nocopy is for files and "
			           "block devices, not SCSI pass-through", s->path);
		r = dio_scsi_open(s->path, !is_out);
		if (r == -ENOTSUP)
			fail_setup(DIOT_EXIT_FAIL, "%s '%s': SCSI pass-through is not supported "
			           "by this build (%s backend)", is_out ? "of=" : "if=", s->path,
			           dio_backend_name());
		if (r == -ENOTTY)
			fail_setup(DIOT_EXIT_USAGE, "%s '%s' is a character device that does not "
			           "accept SCSI pass-through (dio-dd reads and writes files, "
			           "block devices and SCSI generic devices)",
			           is_out ? "of=" : "if=", s->path);
		if (r < 0)
			fail_setup(DIOT_EXIT_FAIL, "%s '%s': %s", is_out ? "of=" : "if=",
			           s->path, dio_strerror(r));
		s->fd = r;
		sg_capacity(s);
		if (o.dio) {
			/* Why the driver may not do direct transfers, asked now:
			 * the threads only report it. */
			struct dio_devinfo di;

			dio_devinfo(s->path, &di);
			s->allow_dio = di.allow_dio;
			snprintf(s->allow_dio_path, sizeof(s->allow_dio_path), "%s",
			         di.allow_dio_path);
		}
		return;
	}

	/* Files and block devices through dio_open. */
	flags = is_out ? DIO_O_WRONLY : DIO_O_RDONLY;
	if (is_out && !exists)
		flags |= DIO_O_CREAT | DIO_O_EXCL;
	sync = fl->sync ? DIO_SYNC_FULL : fl->dsync ? DIO_SYNC_DATA : DIO_SYNC_NONE;
	r = dio_open(&s->f, s->path, (unsigned)flags,
	             fl->direct ? DIO_DIRECT_ON : DIO_DIRECT_OFF, sync, 0644);
	if (r == -ENOTSUP && fl->direct)
		fail_setup(DIOT_EXIT_FAIL, "%s '%s': %sflag=direct: this file system or "
		           "platform (%s backend) refuses direct I/O", is_out ? "of=" : "if=",
		           s->path, is_out ? "o" : "i", dio_backend_name());
	if (r == -ENOTSUP && sync != DIO_SYNC_NONE)
		fail_setup(DIOT_EXIT_FAIL, "of= '%s': oflag=%s is not supported here",
		           s->path, fl->sync ? "sync" : "dsync");
	if (r == -EEXIST)
		fail_setup(DIOT_EXIT_FAIL, "of= '%s' appeared while dio-dd was starting; "
		           "not overwriting it", s->path);
	if (r < 0)
		fail_setup(DIOT_EXIT_FAIL, "cannot open %s '%s': %s",
		           is_out ? "of=" : "if=", s->path, dio_strerror(r));
	s->created = dio_file_created(s->f);
	s->fd = dio_file_fd(s->f);
	dio_file_align(s->f, &s->align);
	/* No read-ahead hint unless asked (fio gives POSIX_FADV_SEQUENTIAL by
	 * default, which doubles the window): buffered reads measure the
	 * device as it is set up, read_ahead_kb included, as dd does and as
	 * dio-info reports it. */
	if (o.fadvise != 0)
		give_advice(s, is_out);
	if (s->kind == K_BLOCK)
		s->size = s->align.device_bytes;
	else if (exists)
		s->size = (uint64_t)st.st_size;
}

/* Check bs against a side's direct-I/O granularity. */
static void
check_direct_align(const struct side *s, int is_out)
{
	uint32_t g = s->align.offset_align;
	char a[32];

	if (s->f == NULL || dio_file_direct(s->f) == DIO_MECH_NONE)
		return;
	if (!is_out && s->align.read_offset_align)
		g = s->align.read_offset_align;
	if (g > 1 && o.bs % g != 0)
		fail_setup(DIOT_EXIT_USAGE, "bs=%" PRIu64 " is not a multiple of the direct "
		           "I/O granularity of '%s' (%s, from %s); use bs=%s or a multiple "
		           "of it, or drop %sflag=direct", o.bs, s->path,
		           diot_fmt_iec(g, a, sizeof(a)),
		           dio_align_source_name((int)s->align.source), a, is_out ? "o" : "i");
}

static size_t
max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

/*
 * Where the buffers start (bufoff=).  When every transfer goes through the
 * page cache the kernel copies between its pages and the buffer, and those
 * copies (x86 rep movsb) were measured 5-10% faster with a buffer that does
 * not start on a cache line (bench/bufoff-bench.py): the default there is
 * 32, which keeps every narrower alignment.  Anything else starts aligned
 * by default: a direct transfer (iflag/oflag=direct, or sg with dio=1)
 * needs its buffer on the side's memory alignment, so a given offset must
 * be a multiple of it; SCSI pass-through on a block device maps an aligned
 * buffer and copies through a bounce buffer otherwise.
 */
static void
set_buffer_offset(void)
{
	size_t need = 0, a;
	const char *who = NULL;
	int i, k, cached = 1;

	for (i = 0; i < ndevs; i++)
		for (k = 0; k < 2; k++) {
			const struct side *s = k ? &devs[i].out : &devs[i].in;

			if (s->path == NULL)
				continue;
			if (s->kind == K_SG)
				a = o.dio ? (size_t)sysconf(_SC_PAGESIZE) : 0;
			else
				a = (k ? o.oflag.direct : o.iflag.direct) ?
				    max_sz(s->align.mem_align, 1) : 0;
			if (s->kind == K_SG || a)
				cached = 0;
			if (a > need) {     /* powers of two: the largest serves all */
				need = a;
				who = s->path;
			}
		}
	if (!o.bufoff_set) {
		buf_off = cached ? 32 : 0;
		return;
	}
	if (need && o.bufoff % need != 0)
		fail_setup(DIOT_EXIT_USAGE, "bufoff=%" PRIu64 ": direct transfers need "
		           "buffers aligned to %zu bytes (the memory alignment of '%s'); "
		           "give a multiple of %zu, or 0", o.bufoff, need, who, need);
	buf_off = (size_t)o.bufoff;
}

/* ------------------------------------------------------------ aliases */

/*
 * What a name reaches, so that an output that is also an input, or the
 * same output named twice, is refused whatever the names: a file by its
 * device and inode, an output that does not exist yet by its directory
 * and name, a device by its number (and, from the library's device
 * facts, the block device of an sg node, the whole disk of a partition
 * and the image file of a loop device).
 */
enum { ID_FILE = 1, ID_NEW, ID_DEV };

struct devno {
	int set, chr;            /* chr: a character device                     */
	dev_t rdev;
};

struct ident {
	const char *label;       /* "if=" or "of="                              */
	const char *path;
	int type;
	dev_t dev;               /* ID_FILE: st_dev; ID_NEW: its directory's    */
	ino_t ino;
	const char *base;        /* ID_NEW: the name in that directory          */
	struct devno node, blk;  /* ID_DEV: the node; the block device under it */
	struct devno disk;       /* ID_DEV: the whole disk                      */
	int has_back;            /* ID_DEV: a loop device's image file          */
	dev_t back_dev;
	ino_t back_ino;
};

static int
devno_eq(const struct devno *a, const struct devno *b)
{
	return a->set && b->set && a->chr == b->chr && a->rdev == b->rdev;
}

static void
devno_of(const char *path, struct devno *n)
{
	struct stat st;

	if (path[0] != '\0' && stat(path, &st) == 0 &&
	    (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))) {
		n->set = 1;
		n->chr = S_ISCHR(st.st_mode) != 0;
		n->rdev = st.st_rdev;
	}
}

static void
get_ident(struct ident *id, const char *label, const char *path, int is_out)
{
	struct dio_devinfo di;
	struct stat st;
	char dir[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;
	int e;

	memset(id, 0, sizeof(*id));
	id->label = label;
	id->path = path;
	if (stat(path, &st) != 0) {
		e = errno;
		if (!is_out || e != ENOENT)
			fail_setup(DIOT_EXIT_USAGE, "%s '%s': %s", label, path, dio_strerror(e));
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
			n = readlink(path, target, sizeof(target) - 1);
			target[n > 0 ? (size_t)n : 0] = '\0';
			fail_setup(DIOT_EXIT_USAGE, "of= '%s' is a symbolic link to '%s', which "
			           "does not exist: name the file itself (dio-dd does not "
			           "create files through a link)", path, target);
		}
		/* A new file: its directory must exist. */
		slash = strrchr(path, '/');
		if (slash == NULL) {
			snprintf(dir, sizeof(dir), ".");
			id->base = path;
		} else {
			if ((size_t)(slash - path) >= sizeof(dir))
				fail_setup(DIOT_EXIT_USAGE, "of= '%s': %s", path,
				           dio_strerror(-ENAMETOOLONG));
			memcpy(dir, path, (size_t)(slash - path));
			dir[slash - path] = '\0';
			if (dir[0] == '\0')
				snprintf(dir, sizeof(dir), "/");
			id->base = slash + 1;
		}
		if (stat(dir, &st) != 0)
			fail_setup(DIOT_EXIT_USAGE, "of= '%s': the directory '%s' does not exist "
			           "(%s)", path, dir, dio_strerror(errno));
		if (!S_ISDIR(st.st_mode))
			fail_setup(DIOT_EXIT_USAGE, "of= '%s': '%s' is not a directory", path,
			           dir);
		id->type = ID_NEW;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
		id->type = ID_FILE;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	id->type = ID_DEV;
	id->node.set = 1;
	id->node.chr = S_ISCHR(st.st_mode) != 0;
	id->node.rdev = st.st_rdev;
	if (S_ISBLK(st.st_mode))
		id->blk = id->node;
	/* Without device facts (the posix backend) the node alone must do. */
	if (dio_devinfo(path, &di) < 0 && di.kind == DIO_DEVINFO_NONE)
		return;
	if (di.kind == DIO_DEVINFO_SG && !id->blk.set) {
		devno_of(di.device, &id->blk);
		if (id->blk.chr)
			memset(&id->blk, 0, sizeof(id->blk));
	}
	if (id->blk.set)
		devno_of(di.disk, &id->disk);
	if (di.loop_backing[0] != '\0' && stat(di.loop_backing, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		id->has_back = 1;
		id->back_dev = st.st_dev;
		id->back_ino = st.st_ino;
	}
}

/* Whether a and b reach the same data: 1 with a message in msg. */
static int
overlap(const struct ident *a, const struct ident *b, char *msg, size_t len)
{
	const struct ident *t;

	if (a->type == ID_DEV && b->type != ID_DEV) {
		t = a;   /* the file first */
		a = b;
		b = t;
	}
	if (a->type == ID_NEW && b->type == ID_NEW) {
		if (a->dev == b->dev && a->ino == b->ino && strcmp(a->base, b->base) == 0) {
			snprintf(msg, len, "%s '%s' and %s '%s' name the same file", a->label,
			         a->path, b->label, b->path);
			return 1;
		}
		return 0;
	}
	if (a->type == ID_FILE && b->type == ID_FILE) {
		if (a->dev == b->dev && a->ino == b->ino) {
			snprintf(msg, len, "%s '%s' and %s '%s' are the same file", a->label,
			         a->path, b->label, b->path);
			return 1;
		}
		return 0;
	}
	if (a->type == ID_FILE && b->type == ID_DEV) {
		if (b->has_back && b->back_dev == a->dev && b->back_ino == a->ino) {
			snprintf(msg, len, "%s '%s' is the image file of the loop device %s '%s'",
			         a->label, a->path, b->label, b->path);
			return 1;
		}
		return 0;
	}
	if (a->type != ID_DEV || b->type != ID_DEV)
		return 0;
	if (devno_eq(&a->node, &b->node) || devno_eq(&a->blk, &b->blk)) {
		snprintf(msg, len, "%s '%s' and %s '%s' are the same device", a->label,
		         a->path, b->label, b->path);
		return 1;
	}
	/* A whole disk and one of its partitions. */
	if (devno_eq(&a->disk, &b->blk) && !devno_eq(&a->disk, &a->blk)) {
		snprintf(msg, len, "%s '%s' is a partition of %s '%s'", a->label, a->path,
		         b->label, b->path);
		return 1;
	}
	if (devno_eq(&b->disk, &a->blk) && !devno_eq(&b->disk, &b->blk)) {
		snprintf(msg, len, "%s '%s' is the whole disk holding %s '%s'", a->label,
		         a->path, b->label, b->path);
		return 1;
	}
	return 0;
}

/* Every output against every input and every other output.  (The array
 * is global so that it stays reachable when a refusal exits.) */
static struct ident *idents;

static void
check_aliases(void)
{
	char msg[PATH_MAX * 2 + 200];
	int i, j, n = 0, first_out;
	struct ident *id;

	id = idents = calloc((size_t)ndevs * 2, sizeof(*id));
	if (id == NULL)
		fail_setup(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < ndevs; i++)
		if (devs[i].in.path)
			get_ident(&id[n++], "if=", devs[i].in.path, 0);
	first_out = n;
	for (i = 0; i < ndevs; i++)
		if (devs[i].out.path)
			get_ident(&id[n++], "of=", devs[i].out.path, 1);
	for (i = first_out; i < n; i++)
		for (j = 0; j < i; j++)
			if (overlap(&id[i], &id[j], msg, sizeof(msg)))
				fail_setup(DIOT_EXIT_USAGE, "%s: an output must not be an input or "
				           "another output", msg);
	free(idents);
	idents = NULL;
}

/* A device's lock; in shared memory under --processes, though only the
 * threads of the one process that drives the device take it. */
static void
init_lock(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	if (o.procs)
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

static void
setup_devices(void)
{
	int i;
	uint64_t avail, rem, room, base;

	ndevs = o.mode == MODE_WRITE ? o.nof : o.nif;
	if (o.procs) {
		/* The devices' results are written by the worker processes:
		 * shared memory, zeroed like calloc's. */
		void *m = mmap(NULL, (size_t)ndevs * sizeof(*devs), PROT_READ | PROT_WRITE,
		               MAP_SHARED | MAP_ANON, -1, 0);

		devs = m == MAP_FAILED ? NULL : m;
	} else {
		devs = calloc((size_t)ndevs, sizeof(*devs));
	}
	if (devs == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < ndevs; i++) {
		struct dev *d = &devs[i];

		d->index = i;
		d->in.fd = d->out.fd = -1;
		d->in.claim_fd = d->out.claim_fd = -1;
		d->in.path = o.mode != MODE_WRITE ? o.ifs[i] : NULL;
		d->out.path = o.mode != MODE_READ ? o.ofs[i] : NULL;
		snprintf(d->name, sizeof(d->name), "%s%s%s", d->in.path ? d->in.path : "",
		         d->in.path && d->out.path ? "->" : "", d->out.path ? d->out.path : "");
		init_lock(&d->lock);
		diot_hist_reset(&d->hist);
	}
	/* Inputs first: they decide counts; outputs are created last. */
	for (i = 0; i < ndevs; i++)
		if (devs[i].in.path)
			open_side(&devs[i].in, 0);
	check_aliases();
	for (i = 0; i < ndevs; i++)
		if (devs[i].out.path)
			open_side(&devs[i].out, 1);

	tsize = (size_t)(o.bs * o.bpt);
	for (i = 0; i < ndevs; i++) {
		struct dev *d = &devs[i];

		/* sg: bs is the device's logical block, as sgp_dd wants it. */
		if (d->in.kind == K_SG && o.bs != d->in.sg_block)
			fail_setup(DIOT_EXIT_USAGE, "bs=%" PRIu64 " but '%s' has %" PRIu32
			           "-byte blocks: for SCSI pass-through bs must be the device's "
			           "block size (bs=%" PRIu32 "; bpt= sets the blocks per command)",
			           o.bs, d->in.path, d->in.sg_block, d->in.sg_block);
		if (d->out.kind == K_SG && o.bs != d->out.sg_block)
			fail_setup(DIOT_EXIT_USAGE, "bs=%" PRIu64 " but '%s' has %" PRIu32
			           "-byte blocks: for SCSI pass-through bs must be the device's "
			           "block size (bs=%" PRIu32 "; bpt= sets the blocks per command)",
			           o.bs, d->out.path, d->out.sg_block, d->out.sg_block);
		if (d->in.path)
			check_direct_align(&d->in, 0);
		if (d->out.path)
			check_direct_align(&d->out, 1);
		/* skip*bs and seek*bs fit in int64 (check_operands). */
		d->in_base = (int64_t)(o.skip * o.bs);
		d->out_base = (int64_t)(o.seek * o.bs);
		/* How many blocks. */
		if (d->in.path) {
			if (o.skip * o.bs > d->in.size)
				fail_setup(DIOT_EXIT_USAGE, "skip=%" PRIu64 " is beyond the end of "
				           "'%s' (%" PRIu64 " bytes = %" PRIu64 " blocks of %" PRIu64
				           ")", o.skip, d->in.path, d->in.size, d->in.size / o.bs,
				           o.bs);
			rem = d->in.size - o.skip * o.bs;
			avail = rem / o.bs + (rem % o.bs != 0);
			/* A file may grow: read count= blocks or to its end; a
			 * device ends where it ends. */
			if (!o.count_set)
				d->nblocks = avail;
			else if (d->in.kind == K_FILE || o.count < avail)
				d->nblocks = o.count;
			else
				d->nblocks = avail;
		} else if (o.count_set) {
			d->nblocks = o.count;
		} else if (d->out.kind != K_FILE) {
			if (o.seek * o.bs > d->out.size)
				fail_setup(DIOT_EXIT_USAGE, "seek=%" PRIu64 " is beyond the end of "
				           "'%s' (%" PRIu64 " bytes)", o.seek, d->out.path,
				           d->out.size);
			d->nblocks = (d->out.size - o.seek * o.bs) / o.bs;
		} else {
			fail_setup(DIOT_EXIT_USAGE, "count= is needed to write a pattern to the "
			           "file '%s' (how many blocks of bs=%" PRIu64 ")", d->out.path,
			           o.bs);
		}
		/* No offset of the run may pass 2^63-1 (a file's size may). */
		base = o.skip > o.seek ? o.skip * o.bs : o.seek * o.bs;
		if (d->nblocks > ((uint64_t)INT64_MAX - base) / o.bs)
			fail_setup(DIOT_EXIT_USAGE, "'%s': %" PRIu64 " blocks of bs=%" PRIu64
			           " after skip=/seek= end beyond the largest file offset "
			           "(2^63-1 bytes); lower count=", d->name, d->nblocks, o.bs);
		/* Room in an output device (in blocks: nothing can wrap). */
		room = d->out.size / o.bs > o.seek ? d->out.size / o.bs - o.seek : 0;
		if (d->out.path && d->out.kind != K_FILE && d->nblocks > room)
			fail_setup(DIOT_EXIT_USAGE, "'%s' (%" PRIu64 " bytes) has room for %"
			           PRIu64 " blocks of %" PRIu64 " after seek=%" PRIu64 ", not %"
			           PRIu64 "; lower count=", d->out.path, d->out.size, room,
			           o.bs, o.seek, d->nblocks);
		/* SCSI WRITE takes whole blocks: an input ending in a piece of
		 * one cannot be copied to sg whole. */
		if (d->out.kind == K_SG && d->in.path) {
			rem = d->in.size - o.skip * o.bs;
			if ((!o.count_set || o.count > rem / o.bs) && rem % o.bs != 0) {
				char hint[80] = "";

				if (rem / o.bs > 0)
					snprintf(hint, sizeof(hint), "; count=%" PRIu64 " copies the "
					         "whole blocks only", rem / o.bs);
				fail_setup(DIOT_EXIT_USAGE, "of= '%s' is written with SCSI WRITE "
				           "in whole blocks of %" PRIu64 " bytes, but the input '%s' "
				           "has %" PRIu64 " bytes to copy, %" PRIu64 " of them after "
				           "the last whole block: those cannot be written%s",
				           d->out.path, o.bs, d->in.path, rem, rem % o.bs, hint);
			}
		}
		if (d->in.path && d->nblocks == 0)
			diot_warn("if= '%s' %s: nothing to read (a file that does not report "
			          "its size, such as those under /proc, is read with count=)",
			          d->in.path, d->in.size == 0 ? "reports a size of 0 bytes"
			                                      : "has nothing after skip=");
		d->ntransfers = (d->nblocks + o.bpt - 1) / o.bpt;
		d->align = max_sz(max_sz((size_t)sysconf(_SC_PAGESIZE), d->in.align.mem_align),
		                  d->out.align.mem_align);
	}
	set_buffer_offset();
	/* Every check passed: now an output file is cut to seek*bs, as dd
	 * does, so that a copy onto a longer file leaves nothing of it behind. */
	for (i = 0; i < ndevs; i++) {
		struct side *s = &devs[i].out;

		if (s->path == NULL || s->kind != K_FILE || o.oflag.notrunc)
			continue;
		if (ftruncate(s->fd, (off_t)(o.seek * o.bs)) != 0)
			fail_setup(DIOT_EXIT_FAIL, "of= '%s': cannot truncate it to seek*bs = %"
			           PRIu64 " bytes: %s (oflag=notrunc keeps it as it is)",
			           s->path, o.seek * o.bs, dio_strerror(errno));
	}
}

/* ------------------------------------------------------------ transfers */

/* What one thread measured; merged into its device at the end. */
struct wctx {
	struct dev *d;
	int k;
	struct diot_hist hist;
	uint64_t bytes, rbytes, wbytes, calls, io_ns, cpu_ns, t_end;
	uint64_t sg_cmds, sg_not_direct;
	size_t page;             /* page size of the buffers: large or base     */
	int err;
	char errmsg[512];
	char reason[400];
	dio_scsi *sc;
};

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
sleep_until(uint64_t due)
{
	uint64_t now;
	struct timespec ts;

	while (!g_stop && (now = diot_now_ns()) < due) {
		uint64_t d = due - now;

		if (d > 100000000ull)
			d = 100000000ull;   /* look at g_stop at least 10 times a second */
		ts.tv_sec = (time_t)(d / 1000000000ull);
		ts.tv_nsec = (long)(d % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/* When transfer i may start under rate=. */
static uint64_t
rate_due(uint64_t i)
{
	return t_go + (uint64_t)((double)i * (double)tsize * 1e9 / (double)o.rate);
}

/* Take the next transfer of d; 0 when there is none (or the run stops). */
static int
grab(struct dev *d, uint64_t *i)
{
	int ok;

	pthread_mutex_lock(&d->lock);
	ok = !g_stop && !d->eof && !d->err && d->next < d->ntransfers;
	if (ok)
		*i = d->next++;
	pthread_mutex_unlock(&d->lock);
	return ok;
}

static uint64_t
peek_next(struct dev *d)
{
	uint64_t i;

	pthread_mutex_lock(&d->lock);
	i = d->next;
	pthread_mutex_unlock(&d->lock);
	return i;
}

static size_t
xfer_len(const struct dev *d, uint64_t i)
{
	uint64_t left = d->nblocks - i * o.bpt;

	return (size_t)((left < o.bpt ? left : o.bpt) * o.bs);
}

static void
set_eof(struct dev *d)
{
	pthread_mutex_lock(&d->lock);
	d->eof = 1;
	pthread_mutex_unlock(&d->lock);
}

/* Record the first error of a thread and stop its device. */
static void DIOT_PRINTF(3, 4)
wfail(struct wctx *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->err == 0) {
		w->err = err;
		va_start(ap, fmt);
		vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_lock(&w->d->lock);
	w->d->err = err;
	pthread_mutex_unlock(&w->d->lock);
}

/* The generated data: a fixed byte pattern, and at the start of every
 * block (bs) and every 4 KiB into it a stamp "dio-dd <byte offset in 16
 * hex digits>\n" (24 bytes) naming the output offset it was written to,
 * so that skip/seek can be checked block by block and any 4 KiB of a
 * written device placed; bs=512 still gets one per 512 bytes.  (A stamp
 * in every 512 bytes whatever bs, as before, cost about 2% of 128 KiB
 * buffered writes where the CPUs are the limit: every stamp's cache line
 * is rewritten just before the write.)  Blocks shorter than a stamp get
 * none.
 * fill_pattern() writes the pattern and the stamps' fixed parts once per
 * buffer; stamp() writes only the digits before each write, two at a time
 * and the upper eight once per 4 GiB. */
#define STAMP_LEN 24
#define HEX_ROW(x) x "0" x "1" x "2" x "3" x "4" x "5" x "6" x "7" \
                   x "8" x "9" x "a" x "b" x "c" x "d" x "e" x "f"
static const char hex_pairs[] = HEX_ROW("0") HEX_ROW("1") HEX_ROW("2") HEX_ROW("3")
	HEX_ROW("4") HEX_ROW("5") HEX_ROW("6") HEX_ROW("7") HEX_ROW("8") HEX_ROW("9")
	HEX_ROW("a") HEX_ROW("b") HEX_ROW("c") HEX_ROW("d") HEX_ROW("e") HEX_ROW("f");

/* Where the stamp after the one at p goes in a transfer (which starts on
 * a block): STAMP_STEP further into p's block if a whole stamp fits
 * there, else at the next block. */
static size_t
stamp_next(size_t p)
{
	size_t bs = (size_t)o.bs, end = p - p % bs + bs;

	return p + STAMP_STEP + STAMP_LEN <= end ? p + STAMP_STEP : end;
}

static void
fill_pattern(unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(' ' + (i * 7 + 3) % 94);
	if (o.bs < STAMP_LEN)
		return;
	for (i = 0; i + STAMP_LEN <= len; i = stamp_next(i)) {
		memcpy(buf + i, "dio-dd ", 7);
		buf[i + STAMP_LEN - 1] = '\n';
	}
}

/* Eight hex digits of v, most significant first. */
static void
hex8(unsigned char *d, uint32_t v)
{
	int k;

	for (k = 3; k >= 0; k--) {
		memcpy(d + 2 * k, hex_pairs + 2 * (v & 0xff), 2);
		v >>= 8;
	}
}

static void
stamp(unsigned char *buf, size_t len, uint64_t off)
{
	unsigned char upper[8];
	uint64_t hi = 0;
	size_t p;

	if (o.bs < STAMP_LEN)
		return;
	for (p = 0; p + STAMP_LEN <= len; p = stamp_next(p)) {
		uint64_t v = off + p;

		if (p == 0 || v >> 32 != hi) {
			hi = v >> 32;
			hex8(upper, (uint32_t)hi);
		}
		memcpy(buf + p + 7, upper, 8);
		hex8(buf + p + 15, (uint32_t)v);
	}
}

/* Why a transfer asked to be direct was not (allow_dio from dio_devinfo). */
static void
explain_not_direct(const dio_scsi *c, const struct side *s, char *buf, size_t len)
{
	if (dio_scsi_xfer_done(c) == DIO_SCSI_XFER_AUTO)
		snprintf(buf, len, "the OS chose the data path and does not report it");
	else if (s->allow_dio == DIO_TRI_NO)
		snprintf(buf, len, "%s is 0: the sg driver copies through its own buffer "
		         "(as root: echo 1 > %s)", s->allow_dio_path, s->allow_dio_path);
	else if (s->allow_dio == DIO_TRI_YES)
		snprintf(buf, len, "the sg driver fell back to indirect I/O although %s "
		         "is 1 (buffer alignment or size beyond what it maps directly)",
		         s->allow_dio_path);
	else
		snprintf(buf, len, "the driver did indirect I/O and gave no reason (the "
		         "sg driver's allow_dio setting is not known)");
}

/*
 * One SCSI READ or WRITE of len bytes at byte offset off: the bytes moved,
 * or a -errno.  A WRITE moves whole blocks only: of a length that is not a
 * multiple of bs (a file input that changed since it was checked) the
 * whole blocks are written, the rest is reported as an error, and the
 * count returned is what was written.
 */
static int64_t
sg_rw(struct wctx *w, const struct side *s, int write, void *buf, size_t len,
      int64_t off)
{
	uint64_t lba = (uint64_t)off / o.bs;
	uint32_t blocks = (uint32_t)(len / o.bs);
	int fua = write && (o.oflag.dsync || o.oflag.sync);
	size_t whole = (size_t)blocks * (size_t)o.bs;
	uint8_t cdb[16];
	char msg[400];
	int64_t done = 0, resid;
	int n, r;

	if (write && whole < len) {
		if (blocks > 0)
			done = sg_rw(w, s, 1, buf, whole, off);
		if (done >= 0)
			wfail(w, -EINVAL, "of= '%s': the last %zu bytes of the input are not "
			      "a whole block of %" PRIu64 " bytes: not written (SCSI WRITE "
			      "takes whole blocks)", s->path, len - whole, o.bs);
		return done;
	}

	if (!s->use16 && lba + blocks <= 0xffffffffull && blocks <= 0xffff)
		n = dio_cdb_rw10(cdb, write, (uint32_t)lba, blocks, fua);
	else
		n = dio_cdb_rw16(cdb, write, lba, blocks, fua);
	r = sg_exec(w->sc, s->fd, cdb, n, write ? DIO_SCSI_DIR_OUT : DIO_SCSI_DIR_IN,
	            buf, whole, msg, sizeof(msg));
	w->sg_cmds++;
	if (r < 0) {
		wfail(w, r, "%s of %" PRIu32 " blocks at LBA %" PRIu64 " of '%s': %s",
		      write ? "WRITE" : "READ", blocks, lba, s->path, msg);
		return r;
	}
	if (o.dio && dio_scsi_xfer_done(w->sc) != DIO_SCSI_XFER_DIRECT) {
		w->sg_not_direct++;
		if (w->reason[0] == '\0')
			explain_not_direct(w->sc, s, w->reason, sizeof(w->reason));
	}
	resid = dio_scsi_resid(w->sc);
	if (resid < 0 || resid > (int64_t)whole)
		resid = resid < 0 ? 0 : (int64_t)whole;
	/* A short WRITE is a failure, counted as what was written. */
	if (write && resid > 0)
		wfail(w, -EIO, "WRITE of %" PRIu32 " blocks at LBA %" PRIu64 " of '%s': the "
		      "device reports %" PRId64 " of %zu bytes not transferred", blocks, lba,
		      s->path, resid, whole);
	return (int64_t)whole - resid;
}

static int64_t
do_read(struct wctx *w, void *buf, size_t len, int64_t off)
{
	struct side *s = &w->d->in;
	char detail[300];
	int64_t n;

	if (s->kind == K_SG)
		return sg_rw(w, s, 0, buf, len, off);
	if (o.iflag.nocopy)
		n = dio_read_discard(s->fd, off, len);
	else
		n = dio_pread(s->f, buf, len, off);
	/* The library's detail names the read, its offset and the error. */
	if (n < 0) {
		if (!o.iflag.nocopy && dio_file_errdetail(s->f, detail, sizeof(detail)) != 0)
			wfail(w, (int)n, "if= '%s': %s", s->path, detail);
		else
			wfail(w, (int)n, "read of %zu bytes at offset %" PRId64 " of '%s': %s",
			      len, off, s->path, dio_strerror((int)n));
	}
	return n;
}

static int64_t
do_write(struct wctx *w, const void *buf, size_t len, int64_t off)
{
	struct side *s = &w->d->out;
	char detail[300];
	int64_t n;

	if (s->kind == K_SG)
		return sg_rw(w, s, 1, (void *)(uintptr_t)buf, len, off);
	n = dio_pwrite(s->f, buf, len, off);
	if (n < 0) {
		if (dio_file_errdetail(s->f, detail, sizeof(detail)) != 0)
			wfail(w, (int)n, "of= '%s': %s", s->path, detail);
		else
			wfail(w, (int)n, "write of %zu bytes at offset %" PRId64 " of '%s': %s",
			      len, off, s->path, dio_strerror((int)n));
	}
	return n;
}

/*
 * A direct output cannot take the last, short piece of an input whose
 * length is not a multiple of its granularity: like dd, write that tail
 * through a buffered descriptor of the same file.  Returns 1 if it did.
 */
static int
tail_needs_buffered(const struct dev *d, size_t n)
{
	uint32_t g = d->out.align.offset_align;

	return d->out.f != NULL && dio_file_direct(d->out.f) != DIO_MECH_NONE && g > 1 &&
	       n % g != 0;
}

static int64_t
write_tail_buffered(struct wctx *w, const void *buf, size_t n, int64_t off)
{
	struct dev *d = w->d;
	int fd = open(d->out.path, O_WRONLY);
	ssize_t m = -1;
	size_t done = 0;

	if (fd >= 0) {
		while (done < n) {
			m = pwrite(fd, (const char *)buf + done, n - done,
			           (off_t)(off + (int64_t)done));
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0)
				break;
			done += (size_t)m;
		}
	}
	if (fd < 0 || done < n) {
		int e = errno ? errno : EIO;

		wfail(w, -e, "buffered write of the last %zu bytes at offset %" PRId64
		      " of '%s': %s", n, off, d->out.path, dio_strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	close(fd);
	return (int64_t)n;
}

static void
wait_gate(void)
{
	pthread_mutex_lock(&gate_lock);
	gate_ready++;
	pthread_cond_broadcast(&gate_cond);
	while (!gate_open)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

/* The start side of the gate: wait until n threads are at it, or open it. */
static void
await_ready(int n)
{
	pthread_mutex_lock(&gate_lock);
	while (gate_ready < n)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

static void
open_gate(void)
{
	pthread_mutex_lock(&gate_lock);
	gate_open = 1;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
}

/* The synchronous engine: one call at a time. */
static void
run_sync(struct wctx *w, unsigned char *buf)
{
	struct dev *d = w->d;
	uint64_t i, t0, t1;
	int64_t n, m;
	size_t len;

	while (grab(d, &i)) {
		int64_t in_off = d->in_base + (int64_t)(i * tsize);
		int64_t out_off = d->out_base + (int64_t)(i * tsize);

		len = xfer_len(d, i);
		if (o.rate)
			sleep_until(rate_due(i));
		if (d->in.path) {
			t0 = diot_now_ns();
			n = do_read(w, buf, len, in_off);
			t1 = diot_now_ns();
			diot_hist_add(&w->hist, t1 - t0);
			w->io_ns += t1 - t0;
			w->calls++;
			if (n < 0)
				break;
			if ((size_t)n < len)
				set_eof(d);
			if (n == 0)
				break;
			w->rbytes += (uint64_t)n;
		} else {
			stamp(buf, len, (uint64_t)out_off);
			n = (int64_t)len;
		}
		if (d->out.path) {
			t0 = diot_now_ns();
			if (tail_needs_buffered(d, (size_t)n))
				m = write_tail_buffered(w, buf, (size_t)n, out_off);
			else
				m = do_write(w, buf, (size_t)n, out_off);
			t1 = diot_now_ns();
			diot_hist_add(&w->hist, t1 - t0);
			w->io_ns += t1 - t0;
			w->calls++;
			if (m < 0)
				break;
			w->wbytes += (uint64_t)m;
			n = m;      /* a copy's bytes are what was written */
		}
		w->bytes += (uint64_t)n;
		if (w->err)
			break;
	}
}

/* The asynchronous engine: up to qd requests in flight. */
struct slot {
	unsigned char *buf;
	uint64_t i, t_sub;
	size_t len, n, done;
	int64_t in_off, out_off;
	int state;                  /* 0 free, 1 reading, 2 writing */
};

static void
run_aio(struct wctx *w, struct slot *sl, unsigned qd)
{
	struct dev *d = w->d;
	struct dio_aio_event ev[MAX_QD];
	unsigned free_n = qd, k;
	uint64_t i, t0, t1, now;
	dio_aio *q;
	int r, err = 0, n, stop = 0;

	q = dio_aio_new(qd, aio_engine, &err);
	if (q == NULL) {
		wfail(w, err, "cannot set up the %s queue (depth %u): %s",
		      dio_aio_engine_name(aio_engine), qd, dio_strerror(err));
		return;
	}
	for (;;) {
		/* Fill the free slots. */
		while (free_n > 0 && !stop && !w->err) {
			struct slot *s = NULL;

			if (o.rate) {
				uint64_t due = rate_due(peek_next(d));

				if (due > diot_now_ns()) {
					if (dio_aio_inflight(q) > 0)
						break;
					sleep_until(due);
				}
			}
			if (!grab(d, &i)) {
				stop = 1;
				break;
			}
			for (k = 0; k < qd; k++)
				if (sl[k].state == 0) {
					s = &sl[k];
					break;
				}
			s->i = i;
			s->len = xfer_len(d, i);
			s->in_off = d->in_base + (int64_t)(i * tsize);
			s->out_off = d->out_base + (int64_t)(i * tsize);
			s->done = 0;
			t0 = diot_now_ns();
			if (d->in.path) {
				s->state = 1;
				r = dio_aio_read(q, d->in.fd, s->buf, s->len, s->in_off, k);
			} else {
				stamp(s->buf, s->len, (uint64_t)s->out_off);
				s->n = s->len;
				s->state = 2;
				r = dio_aio_write(q, d->out.fd, s->buf, s->len, s->out_off, k);
			}
			t1 = diot_now_ns();
			w->io_ns += t1 - t0;
			s->t_sub = t1;
			if (r < 0) {
				s->state = 0;
				wfail(w, r, "cannot queue a %s of %zu bytes on '%s': %s",
				      d->in.path ? "read" : "write", s->len,
				      d->in.path ? d->in.path : d->out.path, dio_strerror(r));
				break;
			}
			free_n--;
		}
		if (dio_aio_inflight(q) == 0)
			break;
		t0 = diot_now_ns();
		n = dio_aio_wait(q, ev, qd, 1);
		t1 = diot_now_ns();
		w->io_ns += t1 - t0;
		if (n == -EINTR)
			continue;
		if (n < 0) {
			wfail(w, n, "waiting for completions: %s", dio_strerror(n));
			break;
		}
		now = t1;
		for (k = 0; k < (unsigned)n; k++) {
			struct slot *s = &sl[ev[k].tag];
			int64_t res = ev[k].result;

			diot_hist_add(&w->hist, now - s->t_sub);
			w->calls++;
			if (res < 0) {
				wfail(w, (int)res, "%s of %zu bytes at offset %" PRId64 " of '%s': %s",
				      s->state == 1 ? "read" : "write", s->state == 1 ? s->len : s->n,
				      s->state == 1 ? s->in_off : s->out_off,
				      s->state == 1 ? d->in.path : d->out.path,
				      dio_strerror((int)res));
				s->state = 0;
				free_n++;
				continue;
			}
			if (s->state == 1) {
				if ((size_t)res < s->len)
					set_eof(d);
				if (res == 0) {
					s->state = 0;
					free_n++;
					continue;
				}
				w->rbytes += (uint64_t)res;
				if (d->out.path == NULL || w->err) {
					/* A read; or a copy that failed: not copied. */
					if (d->out.path == NULL)
						w->bytes += (uint64_t)res;
					s->state = 0;
					free_n++;
					continue;
				}
				s->n = (size_t)res;
				if (tail_needs_buffered(d, s->n)) {
					/* A synchronous call, counted as one. */
					t0 = diot_now_ns();
					r = write_tail_buffered(w, s->buf, s->n, s->out_off) > 0;
					t1 = diot_now_ns();
					diot_hist_add(&w->hist, t1 - t0);
					w->io_ns += t1 - t0;
					w->calls++;
					if (r) {
						w->wbytes += s->n;
						w->bytes += s->n;
					}
					s->state = 0;
					free_n++;
					continue;
				}
				s->state = 2;
				s->t_sub = diot_now_ns();
				r = dio_aio_write(q, d->out.fd, s->buf, s->n, s->out_off, ev[k].tag);
				if (r < 0) {
					wfail(w, r, "cannot queue a write of %zu bytes on '%s': %s",
					      s->n, d->out.path, dio_strerror(r));
					s->state = 0;
					free_n++;
				}
				continue;
			}
			/* A write completed (a short one is continued). */
			s->done += (size_t)res;
			if (s->done < s->n && res > 0 && !w->err) {
				s->t_sub = diot_now_ns();
				r = dio_aio_write(q, d->out.fd, s->buf + s->done, s->n - s->done,
				                  s->out_off + (int64_t)s->done, ev[k].tag);
				if (r == 0)
					continue;
				wfail(w, r, "cannot queue a write on '%s': %s", d->out.path,
				      dio_strerror(r));
			} else if (s->done < s->n && !w->err) {
				wfail(w, -EIO, "write of %zu bytes at offset %" PRId64 " of '%s' "
				      "made no progress", s->n, s->out_off, d->out.path);
			}
			w->wbytes += s->done;
			w->bytes += s->done;
			s->state = 0;
			free_n++;
		}
	}
	dio_aio_free(q);
}

static void *
worker(void *arg)
{
	struct wctx *w = arg;
	struct dev *d = w->d;
	unsigned qd = o.engine == ENG_SYNC ? 1 : (unsigned)o.qd, k;
	struct slot *sl = calloc(qd, sizeof(*sl));
	/* One allocation sliced into the slots' buffers, each aligned. */
	size_t stride = (tsize + d->align - 1) / d->align * d->align, page = 0;
	unsigned char *arena = NULL;
	uint64_t c0;
	int r;

	if (sl == NULL)
		wfail(w, -ENOMEM, "cannot allocate %u request slots: out of memory", qd);
	else if (stride < tsize || stride > (SIZE_MAX - buf_off) / qd)
		wfail(w, -ENOMEM, "%u buffers of %zu bytes do not fit in memory", qd, tsize);
	else if (o.small_pages)
		arena = dio_alloc(stride * qd + buf_off, d->align);
	else
		arena = dio_alloc_large(stride * qd + buf_off, d->align, &page);
	if (sl != NULL && arena == NULL && !w->err)
		wfail(w, -ENOMEM, "cannot allocate %u buffers of %zu bytes", qd, tsize);
	w->page = page ? page : (size_t)sysconf(_SC_PAGESIZE);
	for (k = 0; arena != NULL && k < qd; k++) {
		sl[k].buf = arena + buf_off + (size_t)k * stride;
		if (o.mode == MODE_WRITE)
			fill_pattern(sl[k].buf, tsize);
	}
	if (!w->err && (d->in.kind == K_SG || d->out.kind == K_SG)) {
		w->sc = dio_scsi_new();
		if (w->sc == NULL)
			wfail(w, -ENOMEM, "cannot allocate a SCSI command: out of memory");
		else if (o.dio && (r = dio_scsi_set_xfer(w->sc, DIO_SCSI_XFER_DIRECT)) < 0)
			wfail(w, r, "dio=1: direct transfers cannot be asked for here: %s",
			      dio_strerror(r));
	}
	wait_gate();
	c0 = thread_cpu_ns();
	if (!w->err) {
		if (o.engine == ENG_SYNC)
			run_sync(w, sl[0].buf);
		else
			run_aio(w, sl, qd);
	}
	w->t_end = diot_now_ns();
	w->cpu_ns = thread_cpu_ns() - c0;
	dio_free(arena);
	free(sl);
	dio_scsi_free(w->sc);
	w->sc = NULL;
	/* Merge into the device. */
	pthread_mutex_lock(&d->lock);
	diot_hist_merge(&d->hist, &w->hist);
	d->bytes += w->bytes;
	d->rbytes += w->rbytes;
	d->wbytes += w->wbytes;
	d->calls += w->calls;
	d->io_ns += w->io_ns;
	d->cpu_ns += w->cpu_ns;
	d->sg_cmds += w->sg_cmds;
	d->sg_not_direct += w->sg_not_direct;
	if (w->page > d->buf_page)
		d->buf_page = w->page;
	if (w->t_end > d->t_end)
		d->t_end = w->t_end;
	if (w->err && d->errmsg[0] == '\0') {
		d->err = w->err;
		snprintf(d->errmsg, sizeof(d->errmsg), "%s", w->errmsg);
	}
	if (w->reason[0] && d->reason[0] == '\0')
		snprintf(d->reason, sizeof(d->reason), "%s", w->reason);
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/* ------------------------------------------------------------ run */

/*
 * Start the thr= threads of devices [first, first + n): w[] and tid[] are
 * indexed device * thr + thread.  On failure the run is stopped, the gate
 * opened for the threads already waiting, and -1 returned with *started
 * the number that run.
 */
static int
start_threads(int first, int n, struct wctx **w, pthread_t *tid, int *started,
              char *why, size_t why_len)
{
	int i, k, x;

	*started = 0;
	for (i = first; i < first + n; i++)
		for (k = 0; k < (int)o.thr; k++) {
			struct wctx *c = calloc(1, sizeof(*c));

			x = i * (int)o.thr + k;
			if (c != NULL) {
				c->d = &devs[i];
				c->k = k;
				diot_hist_reset(&c->hist);
				w[x] = c;
			}
			if (c == NULL || pthread_create(&tid[x], NULL, worker, c) != 0) {
				snprintf(why, why_len, "cannot start thread %d of '%s'%s", k,
				         devs[i].name, c == NULL ? ": out of memory" : "");
				g_stop = 1;
				open_gate();
				return -1;
			}
			++*started;
		}
	return 0;
}

/* User and system CPU of the run: this process, and its worker processes
 * once they have been waited for. */
static void
cpu_times_all(double *user, double *sys)
{
	double cu, cs;

	diot_cpu_times(user, sys);
	if (o.procs && diot_rusage_times(RUSAGE_CHILDREN, &cu, &cs) == 0) {
		*user += cu;
		*sys += cs;
	}
}

static void
forward_stop(const pid_t *pid, int n, int *done)
{
	int i;

	if (*done || !g_signal)
		return;
	for (i = 0; i < n; i++)
		if (pid[i] > 0)
			kill(pid[i], SIGTERM);
	*done = 1;
}

/* A worker process: the threads of device i, then exit.  Nothing here
 * prints; what goes wrong goes into the device's shared record. */
static void
process_main(int i, struct wctx **w, pthread_t *tid, int ready_w, int go_r,
             const uint64_t *go_time)
{
	struct dev *d = &devs[i];
	int k, started;
	char c;

	if (!o.same_session)
		setsid();   /* scheduled as a group of its own, as fio's jobs are */
	if (start_threads(i, 1, w, tid, &started, d->errmsg, sizeof(d->errmsg)) < 0)
		d->err = -EAGAIN;
	else
		await_ready(started);
	while (write(ready_w, "r", 1) < 0 && errno == EINTR)
		;
	close(ready_w);     /* so that the parent sees the end once all are ready or gone */
	while (read(go_r, &c, 1) < 0 && errno == EINTR && !g_stop)
		;
	t_go = *go_time;
	open_gate();
	for (k = 0; k < started; k++)
		pthread_join(tid[i * (int)o.thr + k], NULL);
	_exit(0);
}

/*
 * --processes: fork a worker process per device; the devices' records are
 * in shared memory.  The start gate is two pipes: every process says it is
 * ready, then all start when "go" is closed.  The workers have left this
 * process's session, so a signal that stops the run is passed on.
 */
static void
run_processes(struct wctx **w, pthread_t *tid, double *u0, double *s0)
{
	pid_t *pid = calloc((size_t)ndevs, sizeof(*pid));
	uint64_t *go_time;
	int ready[2], go[2], i, nready = 0, forwarded = 0, status;
	char c;
	ssize_t n;

	go_time = mmap(NULL, sizeof(*go_time), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON,
	               -1, 0);
	if (pid == NULL || go_time == MAP_FAILED)
		fail_setup(DIOT_EXIT_FAIL, "cannot set up worker processes: out of memory");
	if (pipe(ready) != 0 || pipe(go) != 0)
		fail_setup(DIOT_EXIT_FAIL, "cannot set up worker processes: pipe: %s",
		           dio_strerror(-errno));
	fflush(NULL);
	for (i = 0; i < ndevs; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(ready[0]);
			close(go[1]);
			process_main(i, w, tid, ready[1], go[0], go_time);
		}
		if (pid[i] < 0) {
			int e = errno, k;

			for (k = 0; k < i; k++)
				kill(pid[k], SIGTERM);
			close(go[1]);
			for (k = 0; k < i; k++)
				while (waitpid(pid[k], &status, 0) < 0 && errno == EINTR)
					;
			fail_setup(DIOT_EXIT_FAIL, "cannot start a process for '%s': fork: %s",
			           devs[i].name, dio_strerror(-e));
		}
	}
	close(ready[1]);
	close(go[0]);
	/* Every worker ready (or gone: end of file). */
	while (nready < ndevs) {
		n = read(ready[0], &c, 1);
		if (n == 1)
			nready++;
		else if (n == 0 || errno != EINTR)
			break;
		forward_stop(pid, ndevs, &forwarded);
	}
	close(ready[0]);
	cpu_times_all(u0, s0);
	*go_time = t_go = diot_now_ns();
	close(go[1]);
	for (i = 0; i < ndevs; i++) {
		/* Polled, so that a signal that came between two checks is
		 * still passed on within 20 ms. */
		for (;;) {
			pid_t r;

			forward_stop(pid, ndevs, &forwarded);
			r = waitpid(pid[i], &status, WNOHANG);
			if (r == pid[i])
				break;
			if (r < 0 && errno != EINTR) {
				status = 0;
				break;
			}
			if (r == 0) {
				struct timespec ts = { 0, 20000000L };

				nanosleep(&ts, NULL);
			}
		}
		if ((WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)) &&
		    devs[i].err == 0) {
			devs[i].err = -ECHILD;
			if (WIFSIGNALED(status))
				snprintf(devs[i].errmsg, sizeof(devs[i].errmsg), "the process "
				         "for '%s' was killed by signal %d", devs[i].name,
				         WTERMSIG(status));
			else
				snprintf(devs[i].errmsg, sizeof(devs[i].errmsg), "the process "
				         "for '%s' exited with status %d", devs[i].name,
				         WEXITSTATUS(status));
		}
	}
	munmap(go_time, sizeof(*go_time));
	free(pid);
}

/* ------------------------------------------------------------ report */

struct row {
	const char *name, *input, *output, *io;
	const struct diot_hist *h;
	uint64_t bytes, full, partial, wfull, wpartial, calls, sg_cmds, sg_nd;
	double wall_s, io_s, mbs, mibs, cpu_s;
	const char *status, *error, *reason;
};

static char io_labels[MAX_DEVS][64];
static char total_io[64];

static const char *
side_io(const struct side *s, int is_in)
{
	if (s->path == NULL)
		return NULL;
	if (s->kind == K_SG)
		return o.dio ? "sg-dio" : "sg";
	if (is_in && o.iflag.nocopy)
		return "no-copy";
	if (s->f != NULL && dio_file_direct(s->f) != DIO_MECH_NONE)
		return "direct";
	return "buffered";
}

static void
make_row(struct row *r, const struct dev *d, double wall_s)
{
	memset(r, 0, sizeof(*r));
	r->name = d->name;
	r->input = d->in.path;
	r->output = d->out.path;
	r->io = io_labels[d->index];
	r->h = &d->hist;
	r->bytes = d->bytes;
	r->full = d->rbytes / o.bs;
	r->partial = d->rbytes % o.bs != 0;
	r->wfull = d->wbytes / o.bs;
	r->wpartial = d->wbytes % o.bs != 0;
	r->calls = d->calls;
	r->sg_cmds = d->sg_cmds;
	r->sg_nd = d->sg_not_direct;
	r->wall_s = wall_s;
	r->io_s = (double)d->io_ns / 1e9;
	r->mbs = wall_s > 0 ? (double)d->bytes / wall_s / 1e6 : 0;
	r->mibs = wall_s > 0 ? (double)d->bytes / wall_s / 1048576.0 : 0;
	r->cpu_s = (double)d->cpu_ns / 1e9;
	r->status = d->err ? "error" : g_signal ? "interrupted" : "ok";
	r->error = d->err ? d->errmsg : NULL;
	r->reason = d->reason[0] ? d->reason : NULL;
}

static double
us(const struct diot_hist *h, double q)
{
	if (h->count == 0)
		return 0;
	if (q <= 0)
		return diot_hist_mean(h) / 1e3;
	if (q >= 1)
		return (double)h->max_ns / 1e3;
	return diot_hist_quantile(h, q) / 1e3;
}

/* Powers of two of nanoseconds: bucket b holds [2^b, 2^(b+1)) ns. */
#define NLOG2 64
static void
log2_buckets(const struct diot_hist *h, uint64_t *cnt)
{
	uint64_t lo, hi;
	int i, b;

	memset(cnt, 0, NLOG2 * sizeof(*cnt));
	for (i = 0; i < DIOT_HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		diot_hist_range(i, &lo, &hi);
		for (b = 0; lo >> (b + 1); b++)
			;
		cnt[b] += h->bucket[i];
	}
}

static char *
fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.4g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.4g ms", ns / 1e6);
	else
		snprintf(buf, len, "%.4g s", ns / 1e9);
	return buf;
}

static void
print_hist_table(FILE *fp, const char *title, const struct diot_hist *h)
{
	uint64_t cnt[NLOG2], cum = 0;
	char a[32], b[32];
	int first = -1, last = -1, i;

	log2_buckets(h, cnt);
	for (i = 0; i < NLOG2; i++)
		if (cnt[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
	if (first < 0)
		return;
	fprintf(fp, "latency histogram, %s (%" PRIu64 " calls):\n", title, h->count);
	fprintf(fp, "  %10s  %10s  %10s  %7s  %7s\n", "from", "below", "calls", "%", "cum %");
	for (i = first; i <= last; i++) {
		cum += cnt[i];
		fprintf(fp, "  %10s  %10s  %10" PRIu64 "  %6.2f%%  %6.2f%%\n",
		        fmt_ns(i == 0 ? 0 : (double)(1ull << i), a, sizeof(a)),
		        fmt_ns((double)(1ull << (i + 1)), b, sizeof(b)), cnt[i],
		        100.0 * (double)cnt[i] / (double)h->count,
		        100.0 * (double)cum / (double)h->count);
	}
}

static const char *
mode_name(void)
{
	return mode_words[o.mode];
}

static const char *
engine_name(void)
{
	return o.engine == ENG_SYNC ? "sync" : dio_aio_engine_name(aio_engine);
}

/* The page size the threads' buffers were given (largepages=). */
static size_t
buffer_page(void)
{
	size_t pg = 0;
	int i;

	for (i = 0; i < ndevs; i++)
		if (devs[i].buf_page > pg)
			pg = devs[i].buf_page;
	return pg;
}

static void
print_table(FILE *fp, const struct row *rows, int n, const struct row *tot,
            double cpu_user, double cpu_sys)
{
	char a[32];
	size_t w = 6, l, page = buffer_page();
	int i, large = page > (size_t)sysconf(_SC_PAGESIZE);
	const struct row *r;

	fprintf(fp, "dio-dd %s: %d device%s x %" PRIu64 " thread%s%s, %s, engine %s",
	        mode_name(), n, n == 1 ? "" : "s", o.thr, o.thr == 1 ? "" : "s",
	        !o.procs ? "" : o.same_session ? " (a process per device, one session)" :
	        " (a process per device, each its own session)", total_io, engine_name());
	if (o.engine != ENG_SYNC)
		fprintf(fp, " qd=%" PRIu64, o.qd);
	fprintf(fp, ", bs=%" PRIu64 " bpt=%" PRIu64 " (%s per call)", o.bs, o.bpt,
	        diot_fmt_iec(tsize, a, sizeof(a)));
	if (large)
		fprintf(fp, ", buffers on %s pages", diot_fmt_iec(page, a, sizeof(a)));
	if (buf_off)
		fprintf(fp, "%s %zu bytes in (bufoff=)", large ? "," : ", buffers", buf_off);
	fputc('\n', fp);
	if (engine_note[0])
		fprintf(fp, "engine: %s\n", engine_note);
	if (o.rate)
		fprintf(fp, "rate limit %" PRIu64 " bytes/s per device\n", o.rate);
	for (i = 0; i < n; i++)
		if ((l = strlen(rows[i].name)) > w)
			w = l;
	fprintf(fp, "%-*s %14s %9s %9s %9s %9s %9s %9s %9s %9s %10s %7s\n", (int)w, "device",
	        "bytes", "wall s", "in-call s", "MB/s", "MiB/s", "mean us", "p50 us",
	        "p90 us", "p99 us", "max us", "cpu s");
	for (i = 0; i <= n; i++) {
		r = i < n ? &rows[i] : tot;
		fprintf(fp, "%-*s %14" PRIu64 " %9.3f %9.3f %9.1f %9.1f %9.1f %9.1f %9.1f "
		        "%9.1f %10.1f %7.3f\n", (int)w, r->name, r->bytes, r->wall_s, r->io_s,
		        r->mbs, r->mibs, us(r->h, 0), us(r->h, 0.5), us(r->h, 0.9),
		        us(r->h, 0.99), us(r->h, 1), r->cpu_s);
	}
	fprintf(fp, "cpu: user %.3f s, sys %.3f s (%.0f%% of one CPU over the wall time)\n",
	        cpu_user, cpu_sys, tot->wall_s > 0 ? 100 * (cpu_user + cpu_sys) / tot->wall_s : 0);
	if (tot->sg_cmds) {
		fprintf(fp, "sg: %" PRIu64 " commands", tot->sg_cmds);
		if (o.dio)
			fprintf(fp, "; direct I/O was asked (dio=1) but not done for %" PRIu64
			        " of them%s%s", tot->sg_nd, tot->sg_nd && tot->reason ? ": " : "",
			        tot->sg_nd && tot->reason ? tot->reason : "");
		fprintf(fp, "\n");
	}
	print_hist_table(fp, n > 1 ? "every call on every device" : "every call", tot->h);
	if (n > 1)
		for (i = 0; i < n; i++)
			print_hist_table(fp, rows[i].name, rows[i].h);
}

static void
print_records(FILE *fp, const struct row *tot)
{
	char a[32];

	if (o.mode != MODE_WRITE)
		fprintf(fp, "%" PRIu64 "+%" PRIu64 " records in\n", tot->full, tot->partial);
	if (o.mode != MODE_READ)
		fprintf(fp, "%" PRIu64 "+%" PRIu64 " records out\n", tot->wfull, tot->wpartial);
	fprintf(fp, "%" PRIu64 " bytes (%s) %s, %.3f s, %.1f MB/s, %.1f MiB/s\n", tot->bytes,
	        diot_fmt_iec(tot->bytes, a, sizeof(a)),
	        o.mode == MODE_READ ? "read" : o.mode == MODE_WRITE ? "written" : "copied",
	        tot->wall_s, tot->mbs, tot->mibs);
}

static const char *const csv_cols =
	"row,device,input,output,mode,io,engine,qd,threads,bs,bpt,bytes,records_in_full,"
	"records_in_partial,records_out_full,records_out_partial,calls,wall_s,io_s,"
	"mb_per_s,mib_per_s,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us,"
	"cpu_s,cpu_user_s,cpu_sys_s,sg_commands,sg_direct_not_done,status,error";

static void
csv_row(FILE *fp, const char *kind, const struct row *r, double cu, double cs)
{
	fprintf(fp, "%s,", kind);
	diot_csv_field(fp, r->name);
	fputc(',', fp);
	diot_csv_field(fp, r->input ? r->input : "");
	fputc(',', fp);
	diot_csv_field(fp, r->output ? r->output : "");
	fprintf(fp, ",%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	        ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	        ",%.6f,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.6f,",
	        mode_name(), r->io, engine_name(), o.engine == ENG_SYNC ? 1 : o.qd, o.thr,
	        o.bs, o.bpt, r->bytes, r->full, r->partial, r->wfull, r->wpartial, r->calls,
	        r->wall_s, r->io_s, r->mbs, r->mibs, us(r->h, 0), us(r->h, 0.5),
	        us(r->h, 0.9), us(r->h, 0.99), us(r->h, 1), r->cpu_s);
	if (cu >= 0)
		fprintf(fp, "%.6f,%.6f,", cu, cs);
	else
		fprintf(fp, ",,");
	fprintf(fp, "%" PRIu64 ",%" PRIu64 ",%s,", r->sg_cmds, r->sg_nd, r->status);
	diot_csv_field(fp, r->error ? r->error : "");
	fputc('\n', fp);
}

static void
json_str_or_null(FILE *fp, const char *s)
{
	if (s)
		diot_json_string(fp, s);
	else
		fputs("null", fp);
}

static void
json_row(FILE *fp, const struct row *r, const char *ind)
{
	uint64_t cnt[NLOG2];
	int i, first = 1;

	fprintf(fp, "%s\"name\": ", ind);
	diot_json_string(fp, r->name);
	fprintf(fp, ",\n%s\"input\": ", ind);
	json_str_or_null(fp, r->input);
	fprintf(fp, ",\n%s\"output\": ", ind);
	json_str_or_null(fp, r->output);
	fprintf(fp, ",\n%s\"io\": \"%s\",\n", ind, r->io);
	fprintf(fp, "%s\"bytes\": %" PRIu64 ",\n", ind, r->bytes);
	fprintf(fp, "%s\"records_in\": {\"full\": %" PRIu64 ", \"partial\": %" PRIu64 "},\n",
	        ind, r->full, r->partial);
	fprintf(fp, "%s\"records_out\": {\"full\": %" PRIu64 ", \"partial\": %" PRIu64 "},\n",
	        ind, r->wfull, r->wpartial);
	fprintf(fp, "%s\"calls\": %" PRIu64 ",\n", ind, r->calls);
	fprintf(fp, "%s\"wall_s\": ", ind);
	diot_json_num(fp, r->wall_s);
	fprintf(fp, ",\n%s\"io_s\": ", ind);
	diot_json_num(fp, r->io_s);
	fprintf(fp, ",\n%s\"mb_per_s\": ", ind);
	diot_json_num(fp, r->mbs);
	fprintf(fp, ",\n%s\"mib_per_s\": ", ind);
	diot_json_num(fp, r->mibs);
	fprintf(fp, ",\n%s\"latency_us\": {\"mean\": ", ind);
	diot_json_num(fp, us(r->h, 0));
	fprintf(fp, ", \"p50\": ");
	diot_json_num(fp, us(r->h, 0.5));
	fprintf(fp, ", \"p90\": ");
	diot_json_num(fp, us(r->h, 0.9));
	fprintf(fp, ", \"p99\": ");
	diot_json_num(fp, us(r->h, 0.99));
	fprintf(fp, ", \"max\": ");
	diot_json_num(fp, us(r->h, 1));
	fprintf(fp, "},\n%s\"histogram\": [", ind);
	log2_buckets(r->h, cnt);
	for (i = 0; i < NLOG2; i++) {
		if (!cnt[i])
			continue;
		fprintf(fp, "%s{\"from_ns\": %" PRIu64 ", \"below_ns\": %" PRIu64
		        ", \"calls\": %" PRIu64 "}", first ? "" : ", ",
		        i == 0 ? (uint64_t)0 : (uint64_t)1 << i, (uint64_t)1 << (i + 1),
		        cnt[i]);
		first = 0;
	}
	fprintf(fp, "],\n%s\"cpu_s\": ", ind);
	diot_json_num(fp, r->cpu_s);
	fprintf(fp, ",\n%s\"sg\": ", ind);
	if (r->sg_cmds) {
		fprintf(fp, "{\"commands\": %" PRIu64 ", \"direct_asked\": %s, "
		        "\"direct_not_done\": %" PRIu64 ", \"reason\": ", r->sg_cmds,
		        o.dio ? "true" : "false", r->sg_nd);
		json_str_or_null(fp, r->sg_nd ? r->reason : NULL);
		fputc('}', fp);
	} else {
		fputs("null", fp);
	}
	fprintf(fp, ",\n%s\"status\": \"%s\",\n%s\"error\": ", ind, r->status, ind);
	json_str_or_null(fp, r->error);
	fputc('\n', fp);
}

static void
print_json(FILE *fp, const struct row *rows, int n, const struct row *tot, double cu,
           double cs)
{
	int i;

	fprintf(fp, "{\n  \"tool\": \"dio-dd\",\n  \"version\": \"%s\",\n  \"backend\": \"%s\",\n",
	        dio_version_string(), dio_backend_name());
	fprintf(fp, "  \"mode\": \"%s\",\n  \"io\": \"%s\",\n  \"engine\": \"%s\",\n",
	        mode_name(), total_io, engine_name());
	fprintf(fp, "  \"engine_note\": ");
	json_str_or_null(fp, engine_note[0] ? engine_note : NULL);
	fprintf(fp, ",\n  \"processes\": %s", o.procs ? "true" : "false");
	fprintf(fp, ",\n  \"worker_sessions\": %s", !o.procs ? "null" :
	        o.same_session ? "\"one\"" : "\"each\"");
	fprintf(fp, ",\n  \"fadvise\": \"%s\"", fadvise_words[o.fadvise]);
	fprintf(fp, ",\n  \"buffer_page_bytes\": %zu", buffer_page());
	fprintf(fp, ",\n  \"buffer_offset\": %zu", buf_off);
	fprintf(fp, ",\n  \"qd\": %" PRIu64 ",\n  \"threads\": %" PRIu64 ",\n  \"bs\": %" PRIu64
	        ",\n  \"bpt\": %" PRIu64 ",\n  \"transfer_bytes\": %zu,\n  \"skip\": %" PRIu64
	        ",\n  \"seek\": %" PRIu64 ",\n  \"count\": ",
	        o.engine == ENG_SYNC ? 1 : o.qd, o.thr, o.bs, o.bpt, tsize, o.skip, o.seek);
	if (o.count_set)
		fprintf(fp, "%" PRIu64, o.count);
	else
		fputs("null", fp);
	fprintf(fp, ",\n  \"rate_bytes_per_s\": ");
	if (o.rate)
		fprintf(fp, "%" PRIu64, o.rate);
	else
		fputs("null", fp);
	fprintf(fp, ",\n  \"dio\": %s,\n  \"interrupted\": %s,\n  \"devices\": [\n",
	        o.dio ? "true" : "false", g_signal ? "true" : "false");
	for (i = 0; i < n; i++) {
		fprintf(fp, "    {\n      \"index\": %d,\n", i);
		json_row(fp, &rows[i], "      ");
		fprintf(fp, "    }%s\n", i + 1 < n ? "," : "");
	}
	fprintf(fp, "  ],\n  \"total\": {\n    \"devices\": %d,\n", n);
	json_row(fp, tot, "    ");
	fprintf(fp, "  },\n  \"cpu_user_s\": ");
	diot_json_num(fp, cu);
	fprintf(fp, ",\n  \"cpu_sys_s\": ");
	diot_json_num(fp, cs);
	fprintf(fp, "\n}\n");
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

/* Decide the dio_aio engine for engine=aio|io_uring|posix-aio. */
static void
choose_engine(void)
{
	unsigned have = dio_aio_engines();
	dio_aio *probe;
	int err = 0;

	if (o.engine == ENG_URING) {
		if (!(have & (1u << DIO_AIO_IO_URING)))
			diot_usage_error("engine=io_uring: not part of this build (%s; configure "
			                 "found no liburing or --without-liburing); use "
			                 "engine=aio or engine=posix-aio",
			                 strcmp(dio_backend_name(), "linux") == 0
			                 ? "linux backend" : "io_uring is Linux only");
		aio_engine = DIO_AIO_IO_URING;
	} else if (o.engine == ENG_POSIX) {
		if (!(have & (1u << DIO_AIO_POSIX)))
			diot_usage_error("engine=posix-aio: this C library has no POSIX AIO");
		aio_engine = DIO_AIO_POSIX;
	} else if (have & (1u << DIO_AIO_IO_URING)) {
		probe = dio_aio_new((unsigned)o.qd, DIO_AIO_IO_URING, &err);
		if (probe != NULL) {
			aio_engine = DIO_AIO_IO_URING;
			dio_aio_free(probe);
			return;
		}
		snprintf(engine_note, sizeof(engine_note), "io_uring is compiled in but the "
		         "kernel refused it (%s): falling back to POSIX AIO", dio_strerror(err));
	} else {
		snprintf(engine_note, sizeof(engine_note), "io_uring is not available (not "
		         "compiled into this build of libdirectio, %s backend): falling back "
		         "to POSIX AIO", dio_backend_name());
	}
	if (aio_engine < 0) {
		if (!(have & (1u << DIO_AIO_POSIX)))
			diot_die(DIOT_EXIT_FAIL, "engine=aio: no asynchronous engine in this "
			         "build (no io_uring, no POSIX AIO)");
		aio_engine = DIO_AIO_POSIX;
	}
	if (engine_note[0] != '\0')
		diot_warn("%s", engine_note);
}

/* 1 if path is the null device (by device number, whatever its name). */
static int
is_dev_null(const char *path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && S_ISCHR(a.st_mode) && stat("/dev/null", &b) == 0 &&
	       S_ISCHR(b.st_mode) && a.st_rdev == b.st_rdev;
}

/* skip=/seek= (and with count= the end of the transfer) as byte offsets
 * must fit in int64: no offset may wrap around. */
static void
check_offset(const char *key, uint64_t blocks)
{
	const uint64_t max = (uint64_t)INT64_MAX;

	if (blocks > max / o.bs)
		diot_usage_error("%s=%" PRIu64 " blocks of bs=%" PRIu64 " is beyond the "
		                 "largest file offset (2^63-1 bytes)", key, blocks, o.bs);
	if (o.count_set && o.count > (max - blocks * o.bs) / o.bs)
		diot_usage_error("%s=%" PRIu64 " + count=%" PRIu64 " blocks of bs=%" PRIu64
		                 " end beyond the largest file offset (2^63-1 bytes)", key,
		                 blocks, o.count, o.bs);
}

static void
check_operands(void)
{
	int i;

	if (!o.nif && !o.nof)
		diot_usage_error("nothing to do: name an input (if=) to read, an output "
		                 "(of=) to write, or both to copy");
	/* of=/dev/null (under any name): nowhere. */
	if (o.nof == 1 && o.nif && (!o.mode_set || o.mode == MODE_READ) &&
	    is_dev_null(o.ofs[0])) {
		o.nof = 0;
		if (!o.mode_set)
			o.mode = MODE_READ;
	}
	if (!o.mode_set)
		o.mode = o.nif && o.nof ? MODE_COPY : o.nif ? MODE_READ : MODE_WRITE;
	switch (o.mode) {
	case MODE_READ:
		if (!o.nif)
			diot_usage_error("mode=read needs if= (the files or devices to read)");
		if (o.nof)
			diot_usage_error("mode=read reads to nowhere: drop of= (or use "
			                 "mode=copy)");
		break;
	case MODE_WRITE:
		if (!o.nof)
			diot_usage_error("mode=write needs of= (the files or devices to write)");
		if (o.nif)
			diot_usage_error("mode=write writes a generated pattern: drop if= (or "
			                 "use mode=copy)");
		break;
	case MODE_COPY:
		if (!o.nif || !o.nof)
			diot_usage_error("mode=copy needs both if= and of=");
		if (o.nif != o.nof)
			diot_usage_error("copy is pairwise: if= names %d input%s but of= names "
			                 "%d output%s", o.nif, o.nif == 1 ? "" : "s", o.nof,
			                 o.nof == 1 ? "" : "s");
		break;
	}
	if (o.mode == MODE_WRITE && (o.iflag.direct || o.iflag.nocopy || o.iflag.sg))
		diot_usage_error("iflag= is given but there is no input (if=)");
	if (o.mode == MODE_READ && (o.oflag.direct || o.oflag.dsync || o.oflag.sync ||
	                            o.oflag.sg || o.oflag.notrunc))
		diot_usage_error("oflag= is given but there is no output (of=)");
	if (o.mode == MODE_WRITE && o.skip)
		diot_usage_error("skip= counts input blocks, and there is no input (if=); "
		                 "use seek= for the output");
	if (o.mode == MODE_READ && o.seek)
		diot_usage_error("seek= counts output blocks, and there is no output (of=); "
		                 "use skip= for the input");
	if (o.iflag.nocopy && o.mode != MODE_READ)
		diot_usage_error("iflag=nocopy drops the data in the kernel: it is for reads "
		                 "(if= without of=), not %s", mode_name());
	if (o.oflag.force)
		o.force = 1;
	if (o.qd > 1 && o.engine_set && o.engine == ENG_SYNC)
		diot_usage_error("qd=%" PRIu64 " needs the asynchronous engine (engine=aio); "
		                 "engine=sync does one call at a time", o.qd);
	if (o.qd > 1 && !o.engine_set)
		o.engine = ENG_AIO;
	if (o.engine != ENG_SYNC && o.iflag.nocopy)
		diot_usage_error("iflag=nocopy has no asynchronous form: use engine=sync");
	if (o.engine != ENG_SYNC && (o.iflag.sg || o.oflag.sg))
		diot_usage_error("engine=%s: SCSI pass-through runs with engine=sync",
		                 engine_words[o.engine]);
	if (o.same_session && !o.procs)
		diot_usage_error("--same-session is about the worker processes of --processes; "
		                 "give both, or neither");
	if (o.count_set && o.count == 0)
		diot_usage_error("count=0: nothing to transfer (count is in blocks of bs, "
		                 "at least 1)");
	for (i = 0; i < o.nif; i++)
		if (o.ifs[i][0] == '\0')
			diot_usage_error("if=: empty name");
	if (o.bs * o.bpt > MAX_TRANSFER)
		diot_usage_error("bs=%" PRIu64 " x bpt=%" PRIu64 " is %" PRIu64 " bytes per "
		                 "transfer; at most %llu (1 GiB)", o.bs, o.bpt, o.bs * o.bpt,
		                 (unsigned long long)MAX_TRANSFER);
	check_offset("skip", o.skip);
	check_offset("seek", o.seek);
	if ((uint64_t)o.thr * (uint64_t)(o.mode == MODE_WRITE ? o.nof : o.nif) > 1024)
		diot_usage_error("thr=%" PRIu64 " on %d devices is more than 1024 threads",
		                 o.thr, o.mode == MODE_WRITE ? o.nof : o.nif);
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
