/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c -- dio-dd's command line: --help, --version, the long options
 * and dd's KEY=VALUE operands (numbers through number.c) into struct
 * dd_opts, each operand once; the words of mode=, engine=, -f and
 * fadvise=; the options as the ranks of an MPI job compare them
 * (dd_opts_items()).
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/dd/dd.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/kit/opt.h"
#include "tools/kit/parse.h"

const char *const dd_mode_words[] = { "read", "write", "copy", NULL };
const char *const dd_engine_words[] = { "sync", "aio", "io_uring", "posix-aio", NULL };
const char *const dd_format_words[] = { "table", "csv", "json", NULL };
/* fadvise=: "none" gives no hint (the default, as dd); the others are
 * posix_fadvise() advice for the whole of every file and block device. */
const char *const dd_fadvise_words[] = { "none", "normal", "sequential", "random", NULL };
/* status= as dd spells it (DD_STATUS_DEFAULT is not given by a word). */
static const char *const status_words[] = { "", "none", "noxfer", "progress", NULL };

/* ------------------------------------------------------------ usage */

/* The MPI build (linked with tools/kit/mpi.c) is dio-dd-mpi. */
#define DD_NAME (diot_mpi_library() ? "dio-dd-mpi" : "dio-dd")

static void
usage(void)
{
	printf(
"Usage: %s [OPTIONS] OPERAND=VALUE...\n"
"Reads, writes and copies as dd does, dd's command lines included, on one or\n"
"more files or devices at once, measured: wall time, time in the I/O calls,\n"
"MB/s, per-call latency (mean, percentiles, histogram), CPU, and for SCSI\n"
"generic devices the commands where direct I/O was asked but not done.\n"
"\n"
"dd's operands:\n"
"  if=FILE[,FILE...]     read these (files, devices, pipes; default: standard\n"
"                        input)\n"
"  of=FILE[,FILE...]     write these (default: standard output); with several,\n"
"                        the copy is pairwise (if=a,b of=c,d: a to c, b to d,\n"
"                        at once)\n"
"  bs=SIZE               read and write SIZE bytes at a time (default 512)\n"
"  ibs=SIZE, obs=SIZE    without bs=: read ibs, write obs bytes at a time\n"
"                        (reblocking)\n"
"  count=N               copy N input blocks (iflag=count_bytes: bytes)\n"
"  skip=N, seek=N        skip N ibs-blocks of the input, N obs-blocks of the\n"
"                        output (iseek=, oseek=; iflag=skip_bytes,\n"
"                        oflag=seek_bytes: bytes)\n"
"  conv=LIST             fdatasync, fsync (the output made durable at the\n"
"                        end), notrunc, excl, nocreat, sync (pad short\n"
"                        blocks), noerror (pass over read errors)\n"
"  iflag=LIST            direct, dsync, sync, nocache, count_bytes,\n"
"                        skip_bytes, fullblock; dio-dd's: nocopy (read into\n"
"                        the kernel and drop), sg (SCSI READ on a block\n"
"                        device)\n"
"  oflag=LIST            direct, dsync, sync (sg: FUA), nocache, seek_bytes,\n"
"                        append; dio-dd's: sg, force (as --force), notrunc\n"
"  status=WHICH          none, noxfer, progress (a line every second)\n"
"\n"
"dio-dd's operands:\n"
"  mode=read|write|copy  read: if= only, read to nowhere; write: of= only,\n"
"                        a generated pattern; copy (the default)\n"
"  bpt=N                 blocks per transfer (default 1): each call moves\n"
"                        bs*bpt bytes\n"
"  thr=N                 threads per device (default 1)\n"
"  engine=sync|aio|io_uring|posix-aio   synchronous calls (default) or the\n"
"                        asynchronous queue; aio takes io_uring and falls\n"
"                        back to POSIX AIO, saying so\n"
"  qd=N                  requests in flight per thread for the asynchronous\n"
"                        engine (default 1; qd > 1 implies engine=aio)\n"
"  rate=SIZE[/s]         per-device rate limit in bytes per second (100M:\n"
"                        sync-write's sizes, m and M alike)\n"
"  time=0|1              1: print the timing report and the disks' counts\n"
"                        (default 0: dd's lines only; csv always has the\n"
"                        timing, json both)\n"
"  dio=0|1               sg: ask for direct transfers (SG_FLAG_DIRECT_IO)\n"
"  bufoff=BYTES          each buffer starts BYTES past an aligned boundary,\n"
"                        0 to 4095 (default: 32 when every transfer goes\n"
"                        through the page cache, otherwise 0)\n"
"  largepages=0|1        1 (default): each thread's buffers on large pages\n"
"                        where the system has them\n"
"  fadvise=none|normal|sequential|random   page-cache advice for every\n"
"                        file and block device (default none, as dd)\n"
"\n"
"Options:\n"
"  -f, --format FMT      table (default), csv or json\n"
"      --force           allow writing a device (one not in use)\n"
"      --write-unchecked=DEVICE  with --force: also write DEVICE (an of=)\n"
"                        when whether it is in use cannot be told (never\n"
"                        one in use)\n"
"      --processes       one process per device (each in a session of its\n"
"                        own, as fio runs its jobs) with its thr= threads\n"
"      --same-session    with --processes: the worker processes stay in\n"
"                        dio-dd's session\n"
"  -h, --help            this text\n"
"  -V, --version         version and backend\n"
"\n"
"dd's numbers (bs=, ibs=, obs=, count=, skip=, seek=): c=1, w=2, b=512,\n"
"  K k M G T P E (KiB...) powers of 1024, kB KB MB GB... powers of 1000, one\n"
"  product (2x512, 1xM), B for bytes (count=10MB); bs= at most 1 GiB.\n"
"An existing file is written as dd writes it (cut unless conv=notrunc);\n"
"a device only with --force, and never while it is in use (mounted,\n"
"swapped on, held). An output that is also an input is refused.\n"
"dd's closing lines go to standard error; SIGUSR1 prints them so far.\n"
"Exit status: 0 success, 1 the run failed (as dd), 2 bad usage of\n"
"dio-dd's own operands, 128+N stopped by signal N (130: SIGINT).\n"
"Across hosts, with dio-dd-mpi, the MPI build: mpirun -np N dio-dd-mpi ...\n"
"See dio-dd(1) (man dio-dd): FOR DD USERS says what differs from dd.\n",
	DD_NAME);
}

/* ------------------------------------------------------------ operands */

/* A comma-separated list into out[]: the items point into one copy of v,
 * kept to exit.  Refused before anything is allocated, so that a held
 * error (msg.h) leaves nothing behind. */
static int
split_list(const char *key, const char *v, char **out, int max)
{
	char *copy, *item, *save = NULL;
	const char *c;
	int n = 0, items = 1;

	if (*v == '\0')
		diot_usage_error("%s=: empty (name at least one file or device)", key);
	if (*v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		diot_usage_error("%s='%s': empty item in the list", key, v);
	for (c = v; *c != '\0'; c++)
		items += *c == ',';
	if (items > max)
		diot_usage_error("%s=: at most %d files or devices", key, max);
	copy = strdup(v);
	if (copy == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
		out[n++] = item;
	return n;
}

/* Whether the len bytes at item are word. */
static int
flag_is(const char *item, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(item, word, len) == 0;
}

/* The flags of iflag= and oflag=: where each is allowed (1 input, 2
 * output, 3 both) and the field it sets. */
struct flag_word {
	const char *word;
	int sides;
	size_t field;
};

#define FLAG(w, sides, f) { w, sides, offsetof(struct dd_side_flags, f) }
static const struct flag_word flag_words[] = {
	FLAG("direct", 3, direct), FLAG("dsync", 3, dsync), FLAG("sync", 3, sync),
	FLAG("nocache", 3, nocache), FLAG("sg", 3, sg),
	FLAG("count_bytes", 1, count_bytes), FLAG("skip_bytes", 1, skip_bytes),
	FLAG("fullblock", 1, fullblock), FLAG("nocopy", 1, nocopy),
	FLAG("seek_bytes", 2, seek_bytes), FLAG("append", 2, append),
	FLAG("force", 2, force), FLAG("notrunc", 2, notrunc),
};
#undef FLAG

/* dd's flags dio-dd does not take, and why. */
static const char *const flag_refused[][2] = {
	{ "nonblock", "the transfers block, one call at a time or queued (engine=)" },
	{ "noatime", "not supported" }, { "noctty", "not supported" },
	{ "nofollow", "not supported" }, { "directory", "not supported" },
	{ "nolinks", "not supported" }, { "binary", "not supported" },
	{ "text", "not supported" }, { "cio", "not supported" },
};

/* iflag= and oflag=, read in place (nothing allocated). */
static void
parse_flags(const char *key, const char *v, struct dd_side_flags *f, int is_out)
{
	const char *item, *comma;
	size_t len, k;
	int l;

	if (*v == '\0' || *v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		diot_usage_error("%s='%s': empty item in the list", key, v);
	for (item = v;; item = comma + 1) {
		comma = strchr(item, ',');
		len = comma ? (size_t)(comma - item) : strlen(item);
		l = len > INT_MAX ? INT_MAX : (int)len;
		for (k = 0; k < sizeof(flag_words) / sizeof(flag_words[0]); k++)
			if (flag_is(item, len, flag_words[k].word))
				break;
		if (k < sizeof(flag_words) / sizeof(flag_words[0])) {
			if (!(flag_words[k].sides & (is_out ? 2 : 1)))
				diot_usage_error("%s=%s: '%.*s' is an %s flag (use %s=%.*s)", key, v,
				                 l, item, is_out ? "input" : "output",
				                 is_out ? "iflag" : "oflag", l, item);
			*(int *)(void *)((char *)f + flag_words[k].field) = 1;
		} else {
			for (k = 0; k < sizeof(flag_refused) / sizeof(flag_refused[0]); k++)
				if (flag_is(item, len, flag_refused[k][0]))
					diot_usage_error("%s=%s: dd's flag '%.*s' is not taken by dio-dd "
					                 "(%s)", key, v, l, item, flag_refused[k][1]);
			diot_usage_error("%s=%s: unknown flag '%.*s' (allowed: %s)", key, v, l, item,
			                 is_out ? "direct, dsync, sync, nocache, sg, seek_bytes, "
			                          "append, force, notrunc"
			                        : "direct, dsync, sync, nocache, sg, count_bytes, "
			                          "skip_bytes, fullblock, nocopy");
		}
		if (comma == NULL)
			break;
	}
}

/* conv=: the conversions that keep the data as it is; dd's others are
 * refused by name. */
static void
parse_conv(const char *v, struct dd_conv *c)
{
	static const char *const refused[] = {
		"ascii", "ebcdic", "ibm", "block", "unblock", "lcase", "ucase", "sparse",
		"swab", NULL
	};
	const char *item, *comma;
	size_t len;
	int l, k;

	if (*v == '\0' || *v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		diot_usage_error("conv='%s': empty item in the list", v);
	for (item = v;; item = comma + 1) {
		comma = strchr(item, ',');
		len = comma ? (size_t)(comma - item) : strlen(item);
		l = len > INT_MAX ? INT_MAX : (int)len;
		if (flag_is(item, len, "fdatasync"))
			c->fdatasync = 1;
		else if (flag_is(item, len, "fsync"))
			c->fsync = 1;
		else if (flag_is(item, len, "notrunc"))
			c->notrunc = 1;
		else if (flag_is(item, len, "excl"))
			c->excl = 1;
		else if (flag_is(item, len, "nocreat"))
			c->nocreat = 1;
		else if (flag_is(item, len, "sync"))
			c->sync = 1;
		else if (flag_is(item, len, "noerror"))
			c->noerror = 1;
		else {
			for (k = 0; refused[k] != NULL; k++)
				if (flag_is(item, len, refused[k]))
					diot_usage_error("conv=%s: dd's conversion '%.*s' is not taken "
					                 "by dio-dd, which moves the data as it is "
					                 "(allowed: fdatasync, fsync, notrunc, excl, "
					                 "nocreat, sync, noerror)", v, l, item);
			diot_usage_error("conv=%s: unknown conversion '%.*s' (allowed: fdatasync, "
			                 "fsync, notrunc, excl, nocreat, sync, noerror)", v, l, item);
		}
		if (comma == NULL)
			break;
	}
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
	"bufoff", "ibs", "obs", "conv", "status", NULL
};
/* struct dd_opts has a "given" mark for each of them */
typedef char operand_marks_fit[sizeof(operand_words) / sizeof(operand_words[0]) <=
                               DD_MAX_OPERANDS ? 1 : -1];

/* KEY=VALUE: the key into key[len] (dd's iseek= and oseek= as skip= and
 * seek=); the value returned. */
static const char *
operand_key(const char *arg, char *key, size_t len)
{
	const char *eq = strchr(arg, '=');
	size_t kl;

	if (eq == NULL || eq == arg)
		diot_usage_error("'%s': operands are KEY=VALUE (if=, of=, bs=, ibs=, obs=, "
		                 "count=, skip=, seek=, conv=, iflag=, oflag=, status=, bpt=, "
		                 "thr=, mode=, engine=, qd=, rate=, time=, dio=, fadvise=, "
		                 "largepages=, bufoff=)", arg);
	kl = (size_t)(eq - arg);
	if (kl >= len)
		diot_usage_error("'%s': unknown operand", arg);
	memcpy(key, arg, kl);
	key[kl] = '\0';
	/* dd's other names of skip= and seek= */
	if (strcmp(key, "iseek") == 0)
		strcpy(key, "skip");
	else if (strcmp(key, "oseek") == 0)
		strcpy(key, "seek");
	return eq + 1;
}

/* Each operand given once, marked in dd->o.seen. */
static void
mark_operand(struct dd *dd, const char *key, const char *arg)
{
	int k;

	for (k = 0; operand_words[k] != NULL; k++)
		if (strcmp(key, operand_words[k]) == 0)
			break;
	/* conv=, iflag= and oflag= add up when given again, as dd's do */
	if (operand_words[k] != NULL && dd->o.seen[k] && strcmp(key, "conv") != 0 &&
	    strcmp(key, "iflag") != 0 && strcmp(key, "oflag") != 0) {
		if (strcmp(key, "if") == 0 || strcmp(key, "of") == 0)
			diot_usage_error("%s= given twice (list the %s in one %s=, separated "
			                 "by commas)", key, key[0] == 'i' ? "inputs" : "outputs",
			                 key);
		diot_usage_error("%s= given twice ('%s'): give each operand once", key, arg);
	}
	if (operand_words[k] != NULL)
		dd->o.seen[k] = 1;
}

/* rate=: bytes per second, "/s" after them or not. */
static void
parse_rate(const char *v, uint64_t *rate)
{
	char err[DIOT_ERR_MAX], *v2;
	size_t kl;

	v2 = strdup(v);
	if (v2 == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	kl = strlen(v2);
	if (kl > 2 && strcmp(v2 + kl - 2, "/s") == 0)
		v2[kl - 2] = '\0';
	if (diot_parse_size_range(v2, 1, UINT64_MAX / 1000000000ull, rate, err,
	                          sizeof(err)) < 0) {
		free(v2);
		diot_usage_error("rate='%s': %s (bytes per second, e.g. rate=100M)",
		                 v, err);
	}
	free(v2);
}

/* dd's own operands: 1 if key is one (its value taken), else 0. */
static int
take_dd_operand(struct dd *dd, const char *key, const char *v)
{
	char err[DIOT_ERR_MAX];
	int idx, has_b;

	if (strcmp(key, "if") == 0) {
		dd->o.nif = split_list(key, v, dd->o.ifs, DD_MAX_DEVS);
	} else if (strcmp(key, "of") == 0) {
		dd->o.nof = split_list(key, v, dd->o.ofs, DD_MAX_DEVS);
	} else if (strcmp(key, "bs") == 0) {
		dd_parse_block_size(key, v, &dd->o.bs);
		dd->o.bs_set = 1;
	} else if (strcmp(key, "ibs") == 0) {
		dd_parse_block_size(key, v, &dd->o.ibs);
	} else if (strcmp(key, "obs") == 0) {
		dd_parse_block_size(key, v, &dd->o.obs);
	} else if (strcmp(key, "count") == 0) {
		dd_parse_number(v, 0, (uint64_t)INT64_MAX, &dd->o.count, &has_b);
		dd->o.count_set = 1;
		dd->o.iflag.count_bytes |= has_b;
	} else if (strcmp(key, "skip") == 0) {
		dd_parse_number(v, 0, (uint64_t)INT64_MAX, &dd->o.skip, &has_b);
		dd->o.iflag.skip_bytes |= has_b;
	} else if (strcmp(key, "seek") == 0) {
		dd_parse_number(v, 0, (uint64_t)INT64_MAX, &dd->o.seek, &has_b);
		dd->o.oflag.seek_bytes |= has_b;
	} else if (strcmp(key, "conv") == 0) {
		parse_conv(v, &dd->o.conv);
	} else if (strcmp(key, "status") == 0) {
		if (*v == '\0' || diot_parse_word(v, status_words, &idx, err, sizeof(err)) < 0 ||
		    idx == DD_STATUS_DEFAULT)
			diot_usage_error("status='%s': allowed none (errors only), noxfer (no "
			                 "transfer line), progress (a line every second)", v);
		dd->o.status = idx;
	} else if (strcmp(key, "iflag") == 0) {
		parse_flags(key, v, &dd->o.iflag, 0);
	} else if (strcmp(key, "oflag") == 0) {
		parse_flags(key, v, &dd->o.oflag, 1);
	} else {
		return 0;
	}
	return 1;
}

/* dio-dd's operands: 1 if key is one (its value taken), else 0. */
static int
take_dio_operand(struct dd *dd, const char *key, const char *v)
{
	char err[DIOT_ERR_MAX];
	uint64_t u;
	int idx;

	if (strcmp(key, "bpt") == 0) {
		parse_u(key, v, 1, 1u << 24, &dd->o.bpt);
	} else if (strcmp(key, "thr") == 0) {
		parse_u(key, v, 1, DD_MAX_THREADS, &dd->o.thr);
	} else if (strcmp(key, "qd") == 0) {
		parse_u(key, v, 1, DD_MAX_QD, &dd->o.qd);
		dd->o.qd_set = 1;
	} else if (strcmp(key, "time") == 0) {
		parse_u(key, v, 0, 1, &u);
		dd->o.time = (int)u;
	} else if (strcmp(key, "dio") == 0) {
		parse_u(key, v, 0, 1, &u);
		dd->o.dio = (int)u;
	} else if (strcmp(key, "mode") == 0) {
		if (diot_parse_word(v, dd_mode_words, &idx, err, sizeof(err)) < 0)
			diot_usage_error("mode='%s': %s", v, err);
		dd->o.mode = idx;
		dd->o.mode_set = 1;
	} else if (strcmp(key, "engine") == 0) {
		if (diot_parse_word(v, dd_engine_words, &idx, err, sizeof(err)) < 0)
			diot_usage_error("engine='%s': %s", v, err);
		dd->o.engine = idx;
		dd->o.engine_set = 1;
	} else if (strcmp(key, "largepages") == 0) {
		parse_u(key, v, 0, 1, &u);
		dd->o.small_pages = u == 0;
	} else if (strcmp(key, "bufoff") == 0) {
		parse_u(key, v, 0, 4095, &dd->o.bufoff);
		dd->o.bufoff_set = 1;
	} else if (strcmp(key, "fadvise") == 0) {
		if (diot_parse_word(v, dd_fadvise_words, &idx, err, sizeof(err)) < 0)
			diot_usage_error("fadvise='%s': %s", v, err);
#ifndef POSIX_FADV_SEQUENTIAL
		if (idx != 0)
			diot_usage_error("fadvise=%s: this platform has no posix_fadvise()", v);
#endif
		dd->o.fadvise = idx;
	} else if (strcmp(key, "rate") == 0) {
		parse_rate(v, &dd->o.rate);
	} else {
		return 0;
	}
	return 1;
}

static void
parse_operand(struct dd *dd, const char *arg)
{
	char key[32];
	const char *v = operand_key(arg, key, sizeof(key));

	mark_operand(dd, key, arg);
	if (!take_dd_operand(dd, key, v) && !take_dio_operand(dd, key, v))
		diot_usage_error("'%s': unknown operand '%s' (allowed: if, of, bs, ibs, obs, "
		                 "count, skip (iseek), seek (oseek), conv, iflag, oflag, "
		                 "status, mode, bpt, thr, engine, qd, rate, time, dio, "
		                 "fadvise, largepages, bufoff)", arg, key);
}

enum { OPT_FORMAT = 1, OPT_FORCE, OPT_PROCESSES, OPT_SAME_SESSION, OPT_HELP,
       OPT_VERSION, OPT_UNCHECKED };

static const struct diot_opt options[] = {
	{ "format", 'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "force", 0, DIOT_NO_ARG, OPT_FORCE },
	{ "write-unchecked", 0, DIOT_REQ_ARG, OPT_UNCHECKED },
	{ "processes", 0, DIOT_NO_ARG, OPT_PROCESSES },
	{ "same-session", 0, DIOT_NO_ARG, OPT_SAME_SESSION },
	{ "help", 'h', DIOT_NO_ARG, OPT_HELP },
	{ "version", 'V', DIOT_NO_ARG, OPT_VERSION },
	{ NULL, 0, 0, 0 }
};

/* The command line into dd->o: -1 to run, or the exit status after
 * --help and --version. */
int
dd_parse_args(struct dd *dd, int argc, char **argv)
{
	struct diot_optstate st;
	char err[DIOT_ERR_MAX];
	int id, idx;

	dd->o.bs = 512;
	dd->o.ibs = dd->o.obs = 0;
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
			if (diot_parse_word(st.arg, dd_format_words, &idx, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, st.arg, err);
			dd->o.format = idx;
			break;
		case OPT_FORCE:
			dd->o.force = 1;
			break;
		case OPT_UNCHECKED:
			if (dd->o.write_unchecked != NULL)
				diot_usage_error("%s given twice: it names the one of= device "
				                 "to write unchecked", st.name);
			dd->o.write_unchecked = st.arg;
			break;
		case OPT_PROCESSES:
			dd->o.procs = 1;
			break;
		case OPT_SAME_SESSION:
			dd->o.same_session = 1;
			break;
		case OPT_HELP:
			usage();
			return dd_stdout_ok() ? 0 : DIOT_EXIT_FAIL;
		case OPT_VERSION:
			/* One line, the aio engines last (scripts take what follows). */
			printf("%s (libdirectio) %s, backend %s, %s%s, aio engines:%s%s\n",
			       DD_NAME, dio_version_string(), dio_backend_name(),
			       diot_mpi_library() ? "MPI " : "without MPI",
			       diot_mpi_library() ? diot_mpi_library() : "",
			       (dio_aio_engines() & (1u << DIO_AIO_IO_URING)) ? " io_uring" : "",
			       (dio_aio_engines() & (1u << DIO_AIO_POSIX)) ? " posix-aio" : "");
			return dd_stdout_ok() ? 0 : DIOT_EXIT_FAIL;
		}
	}
	/* Debian's dd (the dd of most Linux systems) says this once the
	 * operands are read, whatever status= says. */
	if (dd->o.oflag.append && !dd->o.conv.notrunc && !dd->o.oflag.notrunc)
		diot_warn("you probably want conv=notrunc with oflag=append");
	/* dd's words and exit: excl (the output must be new) and nocreat (it
	 * must exist) cannot both hold. */
	if (dd->o.conv.excl && dd->o.conv.nocreat)
		diot_die(DIOT_EXIT_FAIL, "cannot combine excl and nocreat");
	/* dd's rule: bs= sets both sizes (and each read is written as it
	 * came); without it ibs= and obs= (default 512) and reblocking. */
	if (dd->o.bs_set) {
		if (dd->o.ibs || dd->o.obs)
			diot_usage_error("bs= sets both block sizes: give bs= or ibs=/obs=, "
			                 "not both");
		dd->o.ibs = dd->o.obs = dd->o.bs;
	} else {
		if (dd->o.ibs == 0)
			dd->o.ibs = 512;
		if (dd->o.obs == 0)
			dd->o.obs = 512;
		dd->o.bs = dd->o.ibs;
	}
	return -1;
}

/* ------------------------------------------------------------ one job */

static char *
flags_text(const struct dd_side_flags *f)
{
	return diot_strdupf("direct %d dsync %d sync %d nocopy %d sg %d force %d "
	                    "notrunc %d count_bytes %d skip_bytes %d seek_bytes %d "
	                    "fullblock %d append %d nocache %d", f->direct, f->dsync,
	                    f->sync, f->nocopy, f->sg, f->force, f->notrunc, f->count_bytes,
	                    f->skip_bytes, f->seek_bytes, f->fullblock, f->append,
	                    f->nocache);
}

static char *
number_text(uint64_t v, int given)
{
	return given ? diot_strdupf("%" PRIu64, v) : diot_strdupf("default");
}

/*
 * The parsed options as the ranks of an MPI job compare them (mpi.h's
 * diot_mpi_same()), before %r and %h are replaced in the operands: into
 * it[] (room for DD_OPT_ITEMS), the texts kept to exit.  Returns how many.
 */
int
dd_opts_items(const struct dd *dd, struct diot_mpi_item *it)
{
	static char *owned[DD_OPT_ITEMS];
	const struct dd_opts *o = &dd->o;
	int n = 0;

#define ITEM(nm, v) (it[n].name = (nm), it[n].value = owned[n] = (v), n++)
	ITEM("if=", diot_join((const char *const *)o->ifs, o->nif, ","));
	ITEM("of=", diot_join((const char *const *)o->ofs, o->nof, ","));
	ITEM("mode=", number_text((uint64_t)o->mode, o->mode_set));
	ITEM("bs=", number_text(o->bs, 1));
	ITEM("ibs=", number_text(o->ibs, 1));
	ITEM("obs=", number_text(o->obs, 1));
	ITEM("conv=", diot_strdupf("fdatasync %d fsync %d notrunc %d excl %d nocreat %d "
	                           "sync %d noerror %d", o->conv.fdatasync, o->conv.fsync,
	                           o->conv.notrunc, o->conv.excl, o->conv.nocreat,
	                           o->conv.sync, o->conv.noerror));
	ITEM("status=", number_text((uint64_t)o->status, 1));
	ITEM("bpt=", number_text(o->bpt, 1));
	ITEM("count=", number_text(o->count, o->count_set));
	ITEM("skip=", number_text(o->skip, 1));
	ITEM("seek=", number_text(o->seek, 1));
	ITEM("iflag=", flags_text(&o->iflag));
	ITEM("oflag=", flags_text(&o->oflag));
	ITEM("thr=", number_text(o->thr, 1));
	ITEM("engine=", number_text((uint64_t)o->engine, o->engine_set));
	ITEM("qd=", number_text(o->qd, o->qd_set));
	ITEM("rate=", number_text(o->rate, 1));
	ITEM("time=", number_text((uint64_t)o->time, 1));
	ITEM("dio=", number_text((uint64_t)o->dio, 1));
	ITEM("fadvise=", number_text((uint64_t)o->fadvise, 1));
	ITEM("largepages=", number_text((uint64_t)o->small_pages, 1));
	ITEM("bufoff=", number_text(o->bufoff, o->bufoff_set));
	ITEM("--format", number_text((uint64_t)o->format, o->format_set));
	ITEM("--force", number_text((uint64_t)o->force, 1));
	ITEM("--write-unchecked", diot_strdupf("%s", o->write_unchecked ? o->write_unchecked
	                                       : "(none)"));
	ITEM("--processes", number_text((uint64_t)o->procs, 1));
	ITEM("--same-session", number_text((uint64_t)o->same_session, 1));
#undef ITEM
	return n;
}
