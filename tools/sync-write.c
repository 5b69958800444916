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
 * Structure: options -> target preparation -> for each point: fork or
 * spawn the writers, which meet at a barrier, run, and leave their
 * histograms in shared memory -> report (table/CSV as points finish,
 * JSON and SVG at the end) -> optional read-back verification.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libdirectio.h"
#include "tools/kit/hist.h"

#define SW_ERRNO() (-errno)
#include "tools/kit/svg.h"
#include "tools/sync-write.h"
#include "tools/kit/util.h"

#define MAX_WRITERS 256
#define HDR_SIZE 64
#define DEFAULT_SIZES "512,1k,2k,4k,8k,16k,32k,48k,64k,128k,256k,512k,1m"
#define DEFAULT_TIME_NS 400000000ull     /* 0.4 s per point */
#define DEFAULT_WARMUP 8
#define DEFAULT_REGION (64ull << 20)
#define MAX_SIZE (1ull << 30)

/* ------------------------------------------------------------ methods */

struct method {
	char name[32];
	int direct;     /* 0 or 1                    */
	int sync;       /* dio_sync                  */
	int commit;     /* dio_commit                */
};

static const struct { const char *name; int sync, commit; } base_methods[] = {
	{ "none",      DIO_SYNC_NONE, DIO_COMMIT_NONE },
	{ "fsync",     DIO_SYNC_NONE, DIO_COMMIT_FSYNC },
	{ "fdatasync", DIO_SYNC_NONE, DIO_COMMIT_FDATASYNC },
	{ "dsync",     DIO_SYNC_DATA, DIO_COMMIT_NONE },
	{ "sync",      DIO_SYNC_FULL, DIO_COMMIT_NONE },
	{ "rwf-dsync", DIO_SYNC_NONE, DIO_COMMIT_RWF_DSYNC },
};

static const char *const default_methods[] = {
	"none", "fsync", "fdatasync", "dsync", "sync", "rwf-dsync",
	"direct", "direct+dsync", "direct+fdatasync", "direct+fsync",
};

#define NBASE (sizeof(base_methods) / sizeof(base_methods[0]))
#define NDEFAULT (sizeof(default_methods) / sizeof(default_methods[0]))

static int
parse_method(const char *s, struct method *m)
{
	const char *b = s;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (strncmp(s, "direct", 6) == 0 && (s[6] == '\0' || s[6] == '+')) {
		m->direct = 1;
		b = s[6] ? s + 7 : "none";
	}
	for (i = 0; i < NBASE; i++)
		if (strcmp(b, base_methods[i].name) == 0)
			break;
	if (i == NBASE)
		return -1;
	m->sync = base_methods[i].sync;
	m->commit = base_methods[i].commit;
	if (m->direct && m->sync == DIO_SYNC_NONE && m->commit == DIO_COMMIT_NONE)
		snprintf(m->name, sizeof(m->name), "direct");
	else
		snprintf(m->name, sizeof(m->name), "%s%s", m->direct ? "direct+" : "",
		         base_methods[i].name);
	return 0;
}

/* ------------------------------------------------------------ options */

enum layout { LAYOUT_SHARED, LAYOUT_SEPARATE };

static struct opts {
	const char *target;       /* NULL: temporary file in dir         */
	const char *dir;          /* --dir                               */
	int force, keep, no_prefill, time_set;
	struct method *methods;
	int nmethods;
	uint64_t *sizes;
	int nsizes;
	uint64_t *writers;
	int nwriters;
	int threads;
	int layout;
	int extend;
	uint64_t time_ns, count, warmup, region;
	int region_set;
	int format;
	const char *output, *plot;
	int verify;
	const char *ack_log;
	const char *check_log;
	int quiet, verbose, per_writer;
} o;

/* ------------------------------------------------------------ state */

/* Everything a writer reports back, in shared memory. */
struct wres {
	struct diot_hist hist;
	uint64_t txns_total;      /* including warm-up, = next sequence */
	uint64_t t_start, t_end;  /* measured window (ns, monotonic)     */
	double cpu_user, cpu_sys; /* seconds, over the measured window   */
	int err;                  /* -errno, 0 if none                   */
	int64_t err_off;
	int region_full;
	int mech, sync_flag;
	volatile int ready, done;     /* barrier and end, for the parent    */
	volatile uint64_t progress;
	char errmsg[320];
};

struct shm {
	volatile sig_atomic_t stop;
	struct wres w[MAX_WRITERS];
};

struct target {
	char path[PATH_MAX];
	int is_dev;
	int created;              /* we created path (and remove it)      */
	char fstype[64];
	struct dio_align align;
	uint64_t dev_bytes;
	char *extra[MAX_WRITERS]; /* separate layout: files 1..W-1        */
	int extra_created[MAX_WRITERS];
	int nfiles;               /* files prepared (separate layout)     */
	int claim_fd;             /* device held exclusively, or < 0      */
};

static struct target tg;
static struct shm *sh;
static volatile sig_atomic_t g_signal;
static uint64_t run_id;
static FILE *out;
static int ack_fd = -1;

/* Results of every point, for JSON/plot and the summary. */
static struct sw_point *points;
static int npoints;

static void
on_signal(int sig)
{
	g_signal = sig;
	if (sh != NULL)
		sh->stop = 1;
}

/* ------------------------------------------------------------ verify data */

static uint64_t
fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		h ^= *c++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static void
put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * Fill one transaction: a 64-byte header (magic, run, point, writer,
 * sequence, offset, size, checksum) and a payload derived from them.
 */
static void
make_txn(unsigned char *buf, size_t size, uint32_t point, uint32_t writer,
         uint64_t seq, uint64_t off)
{
	uint64_t x = run_id ^ ((uint64_t)point << 40) ^ ((uint64_t)writer << 20) ^ seq;
	size_t i;

	if (size < HDR_SIZE) {
		/* Too small to carry a header (only without --verify and
		 * --ack-log, which need one): just an incompressible pattern. */
		for (i = 0; i < size; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (unsigned char)x;
		}
		return;
	}
	memset(buf, 0, HDR_SIZE);
	memcpy(buf, "SYNCWRT1", 8);
	put64(buf + 8, run_id);
	put64(buf + 16, ((uint64_t)point << 32) | writer);
	put64(buf + 24, seq);
	put64(buf + 32, off);
	put64(buf + 40, size);
	for (i = HDR_SIZE; i + 8 <= size; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		put64(buf + i, x);
	}
	for (; i < size; i++)
		buf[i] = (unsigned char)(x >> (i & 7));
	put64(buf + 48, fnv1a(0xcbf29ce484222325ull, buf, size));
}

enum txn_state { TXN_OK, TXN_MISSING, TXN_CORRUPT };

/* Decode a transaction read back; checks magic and checksum. */
static int
read_txn(unsigned char *buf, size_t size, uint64_t *rid, uint32_t *point,
         uint32_t *writer, uint64_t *seq, uint64_t *off)
{
	uint64_t sum, want, pw;
	size_t i;

	if (memcmp(buf, "SYNCWRT1", 8) != 0) {
		for (i = 0; i < size && buf[i] == 0; i++)
			;
		return i == size ? TXN_MISSING : TXN_CORRUPT;
	}
	want = get64(buf + 48);
	put64(buf + 48, 0);
	sum = fnv1a(0xcbf29ce484222325ull, buf, size);
	put64(buf + 48, want);
	if (sum != want || get64(buf + 40) != size)
		return TXN_CORRUPT;
	*rid = get64(buf + 8);
	pw = get64(buf + 16);
	*point = (uint32_t)(pw >> 32);
	*writer = (uint32_t)pw;
	*seq = get64(buf + 24);
	*off = get64(buf + 32);
	return TXN_OK;
}

/* ------------------------------------------------------------ ack log */

static int
ack_line(const char *fmt, ...) DIOT_PRINTF(1, 2);

/*
 * One record per write(): lines from several writers never interleave.
 * Returns 0 or a -errno: a log that cannot be written must stop the run,
 * or a later --check would pass on records that were never kept.
 */
static int
ack_line(const char *fmt, ...)
{
	char line[PATH_MAX + 256];
	va_list ap;
	ssize_t w;
	int n;

	if (ack_fd < 0)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	while ((w = write(ack_fd, line, (size_t)n)) < 0 && errno == EINTR)
		;
	if (w < 0)
		return SW_ERRNO();
	return w == n ? 0 : -EIO;
}

/* ------------------------------------------------------------ writers */

struct wctx {
	const struct method *m;
	uint64_t size;
	int writers;
	int point;
	uint64_t slots;           /* transactions that fit in a region  */
	int ready_w, go_r;        /* barrier pipes                       */
};

static const char *
file_of(int k)
{
	return (o.layout == LAYOUT_SEPARATE && k > 0) ? tg.extra[k] : tg.path;
}

/* Offset of transaction j of writer k. */
static uint64_t
txn_offset(const struct wctx *c, int k, uint64_t j)
{
	uint64_t slot = o.extend ? j : j % c->slots;

	if (o.layout == LAYOUT_SEPARATE)
		return slot * c->size;
	if (o.extend)   /* writers interleave at the growing end of one file */
		return (slot * (uint64_t)c->writers + (uint64_t)k) * c->size;
	return (uint64_t)k * o.region + slot * c->size;
}

static void
cpu_now(double *user, double *sys)
{
	int who = RUSAGE_SELF;

#if defined(RUSAGE_THREAD)
	if (o.threads)
		who = RUSAGE_THREAD;
#elif defined(RUSAGE_LWP)
	if (o.threads)
		who = RUSAGE_LWP;
#endif
	*user = *sys = 0;
	diot_rusage_times(who, user, sys);
}

static void
writer_main(const struct wctx *c, int k)
{
	struct wres *w = &sh->w[k];
	const struct method *m = c->m;
	struct dio_align a;
	uint64_t j = 0, recorded = 0, t0, t1, deadline, off = 0;
	double u0 = 0, s0 = 0, u1, s1;
	size_t align;
	unsigned char *buf = NULL;
	dio_file *f = NULL;
	char detail[300], ch;
	int64_t r;
	int rr;

	rr = dio_open(&f, file_of(k), DIO_O_RDWR, m->direct ? DIO_DIRECT_ON : DIO_DIRECT_OFF,
	              m->sync, 0);
	if (rr < 0) {
		w->err = rr;
		snprintf(w->errmsg, sizeof(w->errmsg), "open %s: %s", file_of(k),
		         dio_strerror(rr));
	} else {
		w->mech = dio_file_direct(f);
		w->sync_flag = dio_file_sync_flag(f);
		dio_file_align(f, &a);
		align = a.mem_align > 4096 ? a.mem_align : 4096;
		buf = dio_alloc((size_t)c->size, align);
		if (buf == NULL) {
			w->err = -ENOMEM;
			snprintf(w->errmsg, sizeof(w->errmsg), "cannot allocate %" PRIu64
			         " bytes", c->size);
		} else {
			/* Incompressible, the same for every writer (verify rewrites it). */
			make_txn(buf, (size_t)c->size, (uint32_t)c->point, (uint32_t)k, 0, 0);
		}
	}
	/* Ready, then wait for the start (EOF on the go pipe), or a stop. */
	w->ready = 1;
	while (write(c->ready_w, "r", 1) < 0 && errno == EINTR)
		;
	for (;;) {
		struct pollfd pfd;

		pfd.fd = c->go_r;
		pfd.events = POLLIN;
		if (sh->stop)
			goto out;
		if (poll(&pfd, 1, 200) > 0 && read(c->go_r, &ch, 1) >= 0)
			break;
	}
	if (w->err)
		goto out;

	for (; j < o.warmup && !sh->stop; j++) {
		off = txn_offset(c, k, j);
		if (o.extend && j >= c->slots)
			break;
		if (o.verify || ack_fd >= 0)
			make_txn(buf, (size_t)c->size, (uint32_t)c->point, (uint32_t)k, j, off);
		r = dio_pwrite_commit(f, buf, (size_t)c->size, (int64_t)off, m->commit);
		if (r < 0)
			goto fail;
	}
	cpu_now(&u0, &s0);
	w->t_start = t1 = diot_now_ns();
	deadline = w->t_start + o.time_ns;
	while (!sh->stop) {
		if (o.count ? recorded >= o.count : t1 >= deadline)
			break;
		if (o.extend && j >= c->slots) {
			w->region_full = 1;
			break;
		}
		off = txn_offset(c, k, j);
		if (o.verify || ack_fd >= 0)
			make_txn(buf, (size_t)c->size, (uint32_t)c->point, (uint32_t)k, j, off);
		if (ack_fd >= 0 &&
		    (r = ack_line("I %d %" PRIu64 " %" PRIu64 "\n", k, j, off)) < 0)
			goto ackfail;
		t0 = diot_now_ns();
		r = dio_pwrite_commit(f, buf, (size_t)c->size, (int64_t)off, m->commit);
		t1 = diot_now_ns();
		if (r < 0)
			goto fail;
		if (ack_fd >= 0 &&
		    (r = ack_line("A %d %" PRIu64 " %" PRIu64 "\n", k, j, off)) < 0)
			goto ackfail;
		diot_hist_add(&w->hist, t1 - t0);
		w->progress = ++recorded;
		j++;
	}
	w->t_end = t1;
	cpu_now(&u1, &s1);
	w->cpu_user = u1 - u0;
	w->cpu_sys = s1 - s0;
	goto out;
ackfail:
	w->err = (int)r;
	snprintf(w->errmsg, sizeof(w->errmsg), "writer %d, method %s: writing the "
	         "ack log '%s' failed: %s", k, m->name, o.ack_log, dio_strerror((int)r));
	goto timed;
fail:
	w->err = (int)r;
	w->err_off = (int64_t)off;
	dio_file_errdetail(f, detail, sizeof(detail));
	snprintf(w->errmsg, sizeof(w->errmsg), "writer %d, method %s, %" PRIu64
	         "-byte transaction %" PRIu64 " at offset %" PRIu64 ": %s", k, m->name,
	         c->size, j, off, detail[0] ? detail : dio_strerror((int)r));
timed:
	if (w->t_start) {
		w->t_end = diot_now_ns();
		cpu_now(&u1, &s1);
		w->cpu_user = u1 - u0;
		w->cpu_sys = s1 - s0;
	}
out:
	w->txns_total = j;
	dio_free(buf);
	dio_close(f);
	w->done = 1;
	while (write(c->ready_w, "d", 1) < 0 && errno == EINTR)
		;
}

struct thr_arg {
	const struct wctx *c;
	int k;
};

static void *
writer_thread(void *p)
{
	struct thr_arg *a = p;

	writer_main(a->c, a->k);
	return NULL;
}

/* ------------------------------------------------------------ statistics */

static void
stats_from(struct sw_stats *s, const struct diot_hist *h, uint64_t size,
           uint64_t t_start, uint64_t t_end, double cu, double cs)
{
	memset(s, 0, sizeof(*s));
	s->txns = h->count;
	s->bytes = h->count * size;
	s->wall_s = t_end > t_start ? (double)(t_end - t_start) / 1e9 : 0;
	if (h->count) {
		s->avg_us = diot_hist_mean(h) / 1e3;
		s->min_us = (double)h->min_ns / 1e3;
		s->p50_us = diot_hist_quantile(h, 0.50) / 1e3;
		s->p90_us = diot_hist_quantile(h, 0.90) / 1e3;
		s->p99_us = diot_hist_quantile(h, 0.99) / 1e3;
		s->p999_us = diot_hist_quantile(h, 0.999) / 1e3;
		s->max_us = (double)h->max_ns / 1e3;
		s->stddev_us = diot_hist_stddev(h) / 1e3;
		s->cpu_us_per_txn = (cu + cs) / (double)h->count * 1e6;
	}
	if (s->wall_s > 0) {
		s->txn_per_s = (double)s->txns / s->wall_s;
		s->mb_per_s = (double)s->bytes / s->wall_s / 1e6;
	}
	s->cpu_user_s = cu;
	s->cpu_sys_s = cs;
}

static void
point_stats(struct sw_point *p, int W)
{
	static struct diot_hist all;
	uint64_t t0 = UINT64_MAX, t1 = 0;
	double cu = 0, cs = 0;
	int k;

	diot_hist_reset(&all);
	p->per = calloc((size_t)W, sizeof(*p->per));
	if (p->per == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (k = 0; k < W; k++) {
		struct wres *w = &sh->w[k];

		stats_from(&p->per[k], &w->hist, p->size, w->t_start, w->t_end,
		           w->cpu_user, w->cpu_sys);
		diot_hist_merge(&all, &w->hist);
		if (w->t_start && w->t_start < t0)
			t0 = w->t_start;
		if (w->t_end > t1)
			t1 = w->t_end;
		cu += w->cpu_user;
		cs += w->cpu_sys;
		p->region_full |= w->region_full;
	}
	stats_from(&p->agg, &all, p->size, t0 == UINT64_MAX ? 0 : t0, t1, cu, cs);
}

/* ------------------------------------------------------------ progress */

static int progress_on;
static size_t progress_len;

static void
progress_clear(void)
{
	if (progress_len) {
		fprintf(stderr, "\r%*s\r", (int)progress_len, "");
		progress_len = 0;
	}
}

static void
progress(int idx, int total, const struct method *m, uint64_t size, int W)
{
	char sz[32], line[200];
	uint64_t n = 0;
	int k, len;

	if (!progress_on)
		return;
	for (k = 0; k < W; k++)
		n += sh->w[k].progress;
	len = snprintf(line, sizeof(line), "[%d/%d] %s, %s, %d writer%s: %" PRIu64
	               " transactions", idx + 1, total, m->name,
	               diot_fmt_iec(size, sz, sizeof(sz)), W, W == 1 ? "" : "s", n);
	fprintf(stderr, "\r%s", line);
	if ((size_t)len < progress_len)
		fprintf(stderr, "%*s", (int)(progress_len - (size_t)len), "");
	progress_len = (size_t)len;
	fflush(stderr);
}

/* ------------------------------------------------------------ one point */

static int direct_refused;              /* -errno of the direct probe, or 0 */

static int
point_na(struct sw_point *p, const struct method *m)
{
	char a[32], b[32];

	if (m->commit == DIO_COMMIT_RWF_DSYNC && dio_commit_resolve(m->commit) < 0) {
		snprintf(p->note, sizeof(p->note), "per-write data sync (pwritev2 with "
		         "RWF_DSYNC) does not exist on this system");
		return 1;
	}
	if (m->direct && direct_refused) {
		snprintf(p->note, sizeof(p->note), "%s refuses direct I/O (%s)",
		         tg.is_dev ? "the device" : "the file system",
		         (dio_caps() & (DIO_CAP_O_DIRECT | DIO_CAP_DIRECTIO))
		             ? dio_strerror(direct_refused)
		             : "this build has no direct I/O mechanism");
		return 1;
	}
	if (m->direct && tg.align.offset_align > 1 && p->size % tg.align.offset_align) {
		snprintf(p->note, sizeof(p->note), "%s is not a multiple of the direct "
		         "I/O granularity %s (%" PRIu32 " bytes, from %s)",
		         diot_fmt_iec(p->size, a, sizeof(a)),
		         diot_fmt_iec(tg.align.offset_align, b, sizeof(b)),
		         tg.align.offset_align, dio_align_source_name((int)tg.align.source));
		return 1;
	}
	return 0;
}

/* Before a point: a fresh, empty file to extend, or no cached pages. */
static void
prepare_point(int W)
{
	int k, n = o.layout == LAYOUT_SEPARATE ? W : 1, fd;

	for (k = 0; k < n; k++) {
		fd = open(file_of(k), O_RDWR);
		if (fd < 0)
			diot_die(DIOT_EXIT_FAIL, "reopen %s: %s", file_of(k), dio_strerror(errno));
		if (o.extend && ftruncate(fd, 0) != 0)
			diot_die(DIOT_EXIT_FAIL, "truncate %s: %s", file_of(k), dio_strerror(errno));
		fsync(fd);
#ifdef POSIX_FADV_DONTNEED
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#endif
		close(fd);
	}
}

static void verify_point(struct sw_point *p, const struct wctx *c);

/*
 * Reap writer processes that have exited; one that died before saying it
 * was done (killed, out of memory...) gets an error of its own.
 */
static void
reap_writers(int W, const pid_t *pid, int *gone)
{
	int k, status;

	for (k = 0; k < W; k++) {
		if (gone[k] || waitpid(pid[k], &status, WNOHANG) != pid[k])
			continue;
		gone[k] = 1;
		if (sh->w[k].done || sh->w[k].err)
			continue;
		sh->w[k].err = -ECHILD;
		if (WIFSIGNALED(status))
			snprintf(sh->w[k].errmsg, sizeof(sh->w[k].errmsg), "writer %d was "
			         "killed by signal %d", k, WTERMSIG(status));
		else
			snprintf(sh->w[k].errmsg, sizeof(sh->w[k].errmsg), "writer %d "
			         "exited (status %d) without finishing", k,
			         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		sh->stop = 1;   /* the point is lost: stop the others too */
	}
}

/*
 * Wait until every writer is ready (end 0) or done (end 1), or gone; a
 * signal during the barrier stops the point.  The pipe carries wake-ups
 * only: the state is in shared memory, so a writer that dies cannot make
 * the parent wait for ever.
 */
static void
wait_writers(int rfd, int W, const pid_t *pid, int *gone, int end,
             const struct sw_point *p, const struct method *m, int total)
{
	char drain[64];
	int k, n;

	for (;;) {
		struct pollfd pfd;

		if (!o.threads)
			reap_writers(W, pid, gone);
		for (n = 0, k = 0; k < W; k++)
			n += (end ? sh->w[k].done : sh->w[k].ready) || gone[k];
		if (n == W)
			return;
		if (!end && g_signal) {
			sh->stop = 1;
			return;
		}
		pfd.fd = rfd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 200) > 0 && read(rfd, drain, sizeof(drain)) < 0 &&
		    errno != EINTR)
			return;         /* cannot happen with a pipe we own */
		if (end)
			progress(p->index, total, m, p->size, W);
	}
}

/*
 * Run one point.  Returns 0 to go on, or -1 when the run must stop (an
 * I/O error or a signal).
 */
static int
run_point(struct sw_point *p, const struct method *m, int W, int total)
{
	int ready[2], go[2], k, status = 0;
	pid_t pid[MAX_WRITERS];
	pthread_t thr[MAX_WRITERS];
	struct thr_arg targ[MAX_WRITERS];
	int gone[MAX_WRITERS];
	struct wctx c;

	p->direct = "-";
	p->sync_flag = "-";
	p->commit = dio_commit_name(m->commit);
	if (point_na(p, m)) {
		p->status = SW_NA;
		return 0;
	}
	memset(&c, 0, sizeof(c));
	c.m = m;
	c.size = p->size;
	c.writers = W;
	c.point = p->index;
	c.slots = o.region / p->size;
	for (k = 0; k < W; k++) {
		memset(&sh->w[k], 0, sizeof(sh->w[k]));
		diot_hist_reset(&sh->w[k].hist);
		gone[k] = 0;
	}
	if (!tg.is_dev)
		prepare_point(W);
	if (ack_fd >= 0)
		ack_line("P %d %s %" PRIu64 " %d %" PRIu64 "\n", p->index, m->name,
		         p->size, W, c.slots);
	if (pipe(ready) != 0 || pipe(go) != 0)
		diot_die(DIOT_EXIT_FAIL, "pipe: %s", dio_strerror(errno));
	c.ready_w = ready[1];
	c.go_r = go[0];
	fflush(NULL);
	for (k = 0; k < W; k++) {
		if (o.threads) {
			targ[k].c = &c;
			targ[k].k = k;
			if (pthread_create(&thr[k], NULL, writer_thread, &targ[k]) != 0)
				diot_die(DIOT_EXIT_FAIL, "cannot start writer thread %d", k);
			continue;
		}
		pid[k] = fork();
		if (pid[k] < 0)
			diot_die(DIOT_EXIT_FAIL, "fork: %s", dio_strerror(errno));
		if (pid[k] == 0) {
			close(ready[0]);
			close(go[1]);
			/* A session of its own, as fio's jobs have: where the kernel
			 * schedules sessions as groups (autogroup), each writer is
			 * then weighed as one against the kernel's threads, not all
			 * writers together.  The terminal's signals now reach the
			 * parent only, which stops the writers through sh->stop. */
			setsid();
			writer_main(&c, k);
			_exit(0);
		}
	}
	if (!o.threads) {
		/* Only the writers need these now. */
		close(ready[1]);
		close(go[0]);
	}
	/* Barrier: wait until every writer is ready (or gone, or a signal came),
	 * then release them all at once by closing the go pipe. */
	wait_writers(ready[0], W, pid, gone, 0, p, m, total);
	close(go[1]);
	/* Wait for the end, updating the progress line meanwhile. */
	wait_writers(ready[0], W, pid, gone, 1, p, m, total);
	if (o.threads) {
		for (k = 0; k < W; k++)
			pthread_join(thr[k], NULL);
		close(ready[1]);
		close(go[0]);
	} else {
		for (k = 0; k < W; k++)
			if (!gone[k])
				while (waitpid(pid[k], &status, 0) < 0 && errno == EINTR)
					;
	}
	close(ready[0]);
	progress_clear();

	point_stats(p, W);
	p->direct = dio_mech_name(sh->w[0].mech);
	p->sync_flag = dio_sync_flag_name(sh->w[0].sync_flag);
	p->commit = dio_commit_name(dio_commit_resolve(m->commit) < 0
	                            ? m->commit : dio_commit_resolve(m->commit));
	for (k = 0; k < W; k++) {
		struct wres *w = &sh->w[k];

		if (w->err == 0)
			continue;
		if (w->err == -ENOTSUP && m->commit == DIO_COMMIT_RWF_DSYNC) {
			p->status = SW_NA;
			snprintf(p->note, sizeof(p->note), "the kernel rejects RWF_DSYNC");
			return 0;
		}
		p->status = SW_ERROR;
		snprintf(p->note, sizeof(p->note), "%s", w->errmsg);
		return -1;
	}
	if (g_signal) {
		p->status = SW_INTERRUPTED;
		snprintf(p->note, sizeof(p->note), "interrupted by signal %d; partial "
		         "results", (int)g_signal);
		return -1;
	}
	if (p->agg.txns == 0) {
		p->status = SW_NA;
		snprintf(p->note, sizeof(p->note), "no transaction was measured: the "
		         "warm-up filled the %" PRIu64 "-byte region (raise --region or "
		         "lower --warmup)", o.region);
		return 0;
	}
	if (p->region_full)
		snprintf(p->note, sizeof(p->note), "a writer filled its %" PRIu64
		         "-byte region before its %s (see --region)", o.region,
		         o.count ? "count was reached" : "time was up");
	if (o.verify)
		verify_point(p, &c);
	return 0;
}

/* ------------------------------------------------------------ verify */

/*
 * Read back every slot the point wrote and compare it with the last
 * transaction that should be there: same run, point, writer, sequence and
 * offset, and an intact checksum.
 */
static void
verify_point(struct sw_point *p, const struct wctx *c)
{
	struct sw_verify *v = &p->verify;
	unsigned char *buf;
	int k, fd, st;

	buf = malloc((size_t)c->size);
	if (buf == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	v->done = 1;
	for (k = 0; k < c->writers; k++) {
		uint64_t n = sh->w[k].txns_total, nslots = o.extend ? n : (n < c->slots ? n : c->slots);
		uint64_t s, want, rseq, roff, rid, off;
		uint32_t rpoint, rwriter;

		fd = open(file_of(k), O_RDONLY);
		if (fd < 0)
			diot_die(DIOT_EXIT_FAIL, "verify: open %s: %s", file_of(k),
			         dio_strerror(errno));
		for (s = 0; s < nslots; s++) {
			/* the last sequence that used slot s */
			want = o.extend ? s : s + (n - 1 - s) / c->slots * c->slots;
			off = txn_offset(c, k, want);
			if (pread(fd, buf, (size_t)c->size, (off_t)off) != (ssize_t)c->size) {
				v->checked++;
				v->missing++;
				continue;
			}
			v->checked++;
			st = read_txn(buf, (size_t)c->size, &rid, &rpoint, &rwriter, &rseq, &roff);
			if (st == TXN_MISSING)
				v->missing++;
			else if (st == TXN_CORRUPT)
				v->corrupt++;
			else if (rid != run_id || rpoint != (uint32_t)c->point ||
			         (rwriter == (uint32_t)k && rseq < want && roff == off))
				v->stale++;
			else if (rwriter != (uint32_t)k || rseq != want || roff != off)
				v->misplaced++;
			else
				v->ok++;
		}
		close(fd);
	}
	free(buf);
}

/* ------------------------------------------------------------ target */

static char *tmp_template;

static void
remove_files(void)
{
	int k;

	for (k = 1; k < MAX_WRITERS; k++)
		if (tg.extra[k] && tg.extra_created[k] && !o.keep)
			unlink(tg.extra[k]);
	if (tg.created && !o.keep && tg.path[0])
		unlink(tg.path);
}

/* Create path exclusively (ours), or accept an existing regular file with
 * --force.  Returns 1 if created. */
static int
claim_file(const char *path)
{
	char why[300];
	struct stat st;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno != EEXIST)
		diot_die(DIOT_EXIT_FAIL, "cannot create '%s': %s", path, dio_strerror(errno));
	if (stat(path, &st) != 0)
		diot_die(DIOT_EXIT_FAIL, "'%s': %s", path, dio_strerror(errno));
	if (S_ISDIR(st.st_mode))
		diot_die(DIOT_EXIT_USAGE, "'%s' is a directory: name a file to create, or "
		         "use --dir %s for a temporary file there", path, path);
	if (!S_ISREG(st.st_mode))
		diot_die(DIOT_EXIT_USAGE, "'%s' is neither a regular file nor a block "
		         "device", path);
	if (!o.force)
		diot_die(DIOT_EXIT_USAGE, "'%s' exists and would be overwritten; pass "
		         "--force to allow that, or name a new file", path);
	if (access(path, W_OK) != 0)
		diot_die(DIOT_EXIT_FAIL, "'%s': %s", path, dio_strerror(errno));
	/* --force is for the file, not for a disk image somebody uses. */
	if (dio_device_in_use(path, why, sizeof(why)) == 1)
		diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use (%s)",
		         path, why);
	return 0;
}

/* Write zeros over [0, len) of path, in 1 MiB pieces, and sync. */
static void
prefill(const char *path, uint64_t len)
{
	static char zero[1 << 20];
	uint64_t off;
	dio_file *f;
	int64_t r = 0;
	int rr;

	rr = dio_open(&f, path, DIO_O_WRONLY, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0);
	if (rr < 0)
		diot_die(DIOT_EXIT_FAIL, "open %s: %s", path, dio_strerror(rr));
	for (off = 0; off < len && !g_signal; off += sizeof(zero)) {
		r = dio_pwrite(f, zero, (size_t)(len - off < sizeof(zero) ? len - off
		                                                      : sizeof(zero)),
		               (int64_t)off);
		if (r < 0)
			break;
	}
	if (r >= 0)
		r = dio_commit(f, DIO_COMMIT_FSYNC);
	if (r < 0) {
		char d[300];

		dio_file_errdetail(f, d, sizeof(d));
		dio_close(f);
		remove_files();
		diot_die(DIOT_EXIT_FAIL, "preparing %s (%" PRIu64 " bytes): %s", path, len,
		         d[0] ? d : dio_strerror((int)r));
	}
	dio_close(f);
}

static uint64_t
gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint64_t
lcm_u64(uint64_t a, uint64_t b)
{
	return a / gcd_u64(a, b) * b;
}

static void
setup_target(uint64_t max_writers, uint64_t max_size)
{
	uint64_t unit;
	char why[300];
	struct stat st;
	dio_file *f;
	int r, k, fd;

	if (o.target == NULL) {
		const char *d = o.dir ? o.dir : ".";

		if (stat(d, &st) != 0)
			diot_die(DIOT_EXIT_USAGE, "--dir '%s': %s", d, dio_strerror(errno));
		if (!S_ISDIR(st.st_mode))
			diot_die(DIOT_EXIT_USAGE, "--dir '%s' is not a directory", d);
		tmp_template = malloc(strlen(d) + 32);
		sprintf(tmp_template, "%s/sync-write.XXXXXX", d);
		fd = mkstemp(tmp_template);
		if (fd < 0)
			diot_die(DIOT_EXIT_FAIL, "cannot create a temporary file in '%s': %s",
			         d, dio_strerror(errno));
		close(fd);
		snprintf(tg.path, sizeof(tg.path), "%s", tmp_template);
		tg.created = 1;
	} else if (stat(o.target, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))) {
		snprintf(tg.path, sizeof(tg.path), "%s", o.target);
		tg.is_dev = 1;
		if (!o.force)
			diot_die(DIOT_EXIT_USAGE, "'%s' is a device: its contents would be "
			         "destroyed; pass --force to allow that", o.target);
		if (o.extend)
			diot_die(DIOT_EXIT_USAGE, "--extend needs a file, not a device");
		if (o.layout == LAYOUT_SEPARATE)
			diot_die(DIOT_EXIT_USAGE, "--layout separate needs files, not a device");
	} else {
		snprintf(tg.path, sizeof(tg.path), "%s", o.target);
		tg.created = claim_file(o.target);
	}

	/* What the target supports. */
	r = dio_open(&f, tg.path, DIO_O_RDWR, DIO_DIRECT_ON, DIO_SYNC_NONE, 0);
	if (r == -ENOTSUP || r == -EINVAL) {
		direct_refused = r;
		r = dio_open(&f, tg.path, DIO_O_RDWR, DIO_DIRECT_OFF, DIO_SYNC_NONE, 0);
	}
	if (r < 0) {
		remove_files();
		diot_die(DIOT_EXIT_FAIL, "cannot open '%s' for writing: %s", tg.path,
		         dio_strerror(r));
	}
	dio_file_align(f, &tg.align);
	tg.dev_bytes = tg.align.device_bytes;
	if (tg.is_dev)
		snprintf(tg.fstype, sizeof(tg.fstype), "%s device",
		         tg.align.is_device && S_ISBLK(st.st_mode) ? "block" : "character");
	else if (dio_fs_type(dio_file_fd(f), tg.fstype, sizeof(tg.fstype)) < 0)
		snprintf(tg.fstype, sizeof(tg.fstype), "unknown file system");
	dio_close(f);

	if (tg.is_dev) {
		/* Only opened so far, never written: now make sure it is free. */
		if (tg.dev_bytes == 0)
			diot_die(DIOT_EXIT_USAGE, "'%s' is a device that reports no size: "
			         "not a disk sync-write can write to", tg.path);
		r = dio_device_in_use(tg.path, why, sizeof(why));
		if (r == 1)
			diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use (%s)",
			         tg.path, why);
		if (r < 0)
			diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': cannot tell "
			         "whether it is in use (%s%s%s)", tg.path, dio_strerror(r),
			         why[0] ? ": " : "", why);
		/* Hold it for the whole run, so that nobody mounts it meanwhile
		 * (where the platform can: elsewhere the check above is all). */
		tg.claim_fd = dio_device_claim(tg.path);
		if (tg.claim_fd == -EBUSY)
			diot_die(DIOT_EXIT_FAIL, "refusing to write to '%s': it is in use "
			         "(the exclusive claim failed)", tg.path);
		if (tg.claim_fd < 0 && tg.claim_fd != -ENOTSUP)
			diot_die(DIOT_EXIT_FAIL, "cannot claim '%s': %s", tg.path,
			         dio_strerror(tg.claim_fd));
	}

	/* Regions: a multiple of the largest size and of the direct I/O
	 * granularity (their least common multiple), so that every region
	 * starts aligned and every transaction of an aligned size stays so. */
	unit = lcm_u64(max_size, tg.align.offset_align > 1 ? tg.align.offset_align : 1);
	if (!o.region_set)
		o.region = DEFAULT_REGION;
	o.region -= o.region % unit;
	if (o.region < unit)
		o.region = unit;
	if (tg.is_dev && o.region * max_writers > tg.dev_bytes) {
		if (o.region_set)
			diot_die(DIOT_EXIT_USAGE, "%" PRIu64 " writers x --region %" PRIu64
			         " bytes do not fit on '%s' (%" PRIu64 " bytes)",
			         max_writers, o.region, tg.path, tg.dev_bytes);
		o.region = tg.dev_bytes / max_writers;
		o.region -= o.region % unit;
		if (o.region < unit)
			diot_die(DIOT_EXIT_USAGE, "'%s' (%" PRIu64 " bytes) is too small "
			         "for %" PRIu64 " writers of %" PRIu64 "-byte transactions",
			         tg.path, tg.dev_bytes, max_writers, max_size);
	}
	if (o.layout == LAYOUT_SEPARATE) {
		for (k = 1; k < (int)max_writers; k++) {
			size_t len = strlen(tg.path) + 16;

			tg.extra[k] = malloc(len);
			snprintf(tg.extra[k], len, "%s.%d", tg.path, k);
			/* --force is for the TARGET named: files that only share
			 * its name are never overwritten. */
			if (access(tg.extra[k], F_OK) == 0)
				diot_die(DIOT_EXIT_USAGE, "'%s' exists: --layout separate "
				         "writes %s.1 ... %s.%d besides the TARGET; remove it or "
				         "name another TARGET", tg.extra[k], tg.path, tg.path,
				         (int)max_writers - 1);
			tg.extra_created[k] = claim_file(tg.extra[k]);
		}
	}
	/* Overwrite mode: write the regions once so that the transactions
	 * overwrite allocated, written blocks (no unwritten extents).  With
	 * --no-prefill an existing file is taken as it is, but it must at
	 * least be long enough. */
	if (!o.extend && !tg.is_dev && o.no_prefill) {
		for (k = 0; k < (o.layout == LAYOUT_SEPARATE ? (int)max_writers : 1); k++) {
			uint64_t need = o.layout == LAYOUT_SEPARATE ? o.region
			                                            : o.region * max_writers;

			if (stat(file_of(k), &st) != 0 || (uint64_t)st.st_size < need) {
				remove_files();
				diot_die(DIOT_EXIT_USAGE, "--no-prefill: '%s' is shorter than the "
				         "%" PRIu64 " bytes the writers overwrite", file_of(k), need);
			}
		}
	} else if (!o.extend && !tg.is_dev) {
		if (o.layout == LAYOUT_SEPARATE) {
			prefill(tg.path, o.region);
			for (k = 1; k < (int)max_writers; k++)
				prefill(tg.extra[k], o.region);
		} else {
			prefill(tg.path, o.region * max_writers);
		}
	}
}

/* ------------------------------------------------------------ --check */

/*
 * After a crash: were all acknowledged transactions of the last point in
 * the ack log made durable?  The ack log records, for each transaction, an
 * "I" line before it was issued and an "A" line once the write and commit
 * returned.  For every slot, the newest acknowledged transaction (or a
 * newer one) must be on the target, intact.  A slot whose newest issued
 * transaction was never acknowledged may hold a torn write: every sector
 * then holds either the acknowledged transaction's bytes or the issued
 * one's (both are rebuilt from the log); that is reported, not counted
 * as a loss.  Anything else, zeros included, is.
 */
struct ckslot {
	int64_t acked, issued;
	uint64_t off, issued_off;
};

/* Is buf, sector by sector, a mix of transactions a and b? */
static int
torn_mix(const unsigned char *buf, const unsigned char *a, const unsigned char *b,
         size_t size)
{
	size_t i, n;

	for (i = 0; i < size; i += 512) {
		n = size - i < 512 ? size - i : 512;
		if (memcmp(buf + i, a + i, n) != 0 && memcmp(buf + i, b + i, n) != 0)
			return 0;
	}
	return 1;
}

static int
check_main(const char *log, const char *target_arg)
{
	char line[PATH_MAX + 256], path[PATH_MAX] = "", layout[16] = "", method[32] = "";
	unsigned long long rid = 0, region = 0, size = 0, slots = 0, seq, off;
	int extend = 0, writers = 0, point = -1, w, fd, st, ended = 0;
	uint64_t n_ok = 0, n_newer = 0, n_lost = 0, n_corrupt = 0, n_torn = 0, n_acked = 0;
	struct ckslot *tab = NULL;
	unsigned char *buf, *ta, *tb;
	FILE *fp;
	int64_t i;
	char c;

	fp = strcmp(log, "-") == 0 ? stdin : fopen(log, "r");
	if (fp == NULL)
		diot_die(DIOT_EXIT_USAGE, "--check: cannot open ack log '%s': %s", log,
		         dio_strerror(errno));
	if (fgets(line, sizeof(line), fp) == NULL ||
	    strncmp(line, "# sync-write ack-log 1", 22) != 0)
		diot_die(DIOT_EXIT_FAIL, "'%s' is not a sync-write ack log", log);
	while (fgets(line, sizeof(line), fp) != NULL) {
		c = line[0];
		if (c == 'R') {
			int pos = 0;

			if (sscanf(line, "R %llx %15s %d %llu %n", &rid, layout, &extend,
			           &region, &pos) < 4 || pos == 0)
				diot_die(DIOT_EXIT_FAIL, "%s: malformed R line", log);
			snprintf(path, sizeof(path), "%s", line + pos);
			path[strcspn(path, "\n")] = '\0';
		} else if (c == 'P') {
			if (sscanf(line, "P %d %31s %llu %d %llu", &point, method, &size,
			           &writers, &slots) != 5 || writers < 1 ||
			    writers > MAX_WRITERS || size < HDR_SIZE || size > MAX_SIZE ||
			    slots == 0)
				diot_die(DIOT_EXIT_FAIL, "%s: malformed P line", log);
			if (slots > (1ull << 27) / (unsigned long long)writers)
				diot_die(DIOT_EXIT_FAIL, "%s: point too large to check", log);
			free(tab);
			tab = malloc(slots * (size_t)writers * sizeof(*tab));
			if (tab == NULL)
				diot_die(DIOT_EXIT_FAIL, "out of memory");
			for (i = 0; i < (int64_t)(slots * (uint64_t)writers); i++)
				tab[i].acked = tab[i].issued = -1;
			ended = 0;
		} else if ((c == 'I' || c == 'A') && tab != NULL) {
			struct ckslot *s;

			if (sscanf(line + 1, "%d %llu %llu", &w, &seq, &off) != 3 ||
			    w < 0 || w >= writers)
				continue;   /* a torn last line */
			s = &tab[(uint64_t)w * slots + (extend ? seq : seq % slots) % slots];
			if (extend && seq >= slots)
				continue;
			if (c == 'I' && (int64_t)seq > s->issued) {
				s->issued = (int64_t)seq;
				s->issued_off = off;
			}
			if (c == 'A' && (int64_t)seq > s->acked) {
				s->acked = (int64_t)seq;
				s->off = off;
			}
		} else if (c == 'E') {
			ended = 1;
		}
	}
	if (fp != stdin)
		fclose(fp);
	if (tab == NULL)
		diot_die(DIOT_EXIT_FAIL, "%s: no transactions were recorded", log);
	if (target_arg)
		snprintf(path, sizeof(path), "%s", target_arg);
	buf = malloc(size);
	ta = malloc(size);
	tb = malloc(size);
	if (buf == NULL || ta == NULL || tb == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	run_id = rid;   /* make_txn() rebuilds transactions of that run */
	printf("checking point %d (%s, %llu-byte transactions, %d writer%s) of run "
	       "%llx on %s%s\n", point, method, size, writers, writers == 1 ? "" : "s",
	       rid, path, ended ? " (the run had ended cleanly)" : "");
	for (w = 0; w < writers; w++) {
		char fpath[PATH_MAX + 16];

		if (strcmp(layout, "separate") == 0 && w > 0)
			snprintf(fpath, sizeof(fpath), "%s.%d", path, w);
		else
			snprintf(fpath, sizeof(fpath), "%s", path);
		fd = open(fpath, O_RDONLY);
		if (fd < 0)
			diot_die(DIOT_EXIT_FAIL, "cannot open '%s': %s", fpath,
			         dio_strerror(errno));
		for (i = 0; i < (int64_t)slots; i++) {
			struct ckslot *s = &tab[(uint64_t)w * slots + (uint64_t)i];
			uint64_t rrid, rseq, roff;
			uint32_t rpoint, rwriter;

			if (s->acked < 0)
				continue;
			n_acked++;
			if (pread(fd, buf, size, (off_t)s->off) != (ssize_t)size)
				st = TXN_MISSING;
			else
				st = read_txn(buf, size, &rrid, &rpoint, &rwriter, &rseq, &roff);
			if (st == TXN_OK && rrid == rid && rpoint == (uint32_t)point &&
			    rwriter == (uint32_t)w && roff == s->off && (int64_t)rseq >= s->acked) {
				if ((int64_t)rseq > s->acked)
					n_newer++;
				else
					n_ok++;
				continue;
			}
			if (st == TXN_CORRUPT && s->issued > s->acked) {
				make_txn(ta, size, (uint32_t)point, (uint32_t)w,
				         (uint64_t)s->acked, s->off);
				make_txn(tb, size, (uint32_t)point, (uint32_t)w,
				         (uint64_t)s->issued, s->issued_off);
				if (s->issued_off == s->off && torn_mix(buf, ta, tb, size)) {
					n_torn++;
					continue;
				}
			}
			if (st == TXN_CORRUPT)
				n_corrupt++;
			else
				n_lost++;
			if (n_lost + n_corrupt <= 10)
				printf("  %s: writer %d, transaction %" PRId64 " at offset %"
				       PRIu64 " was acknowledged but is %s\n", fpath, w, s->acked,
				       s->off, st == TXN_CORRUPT ? "corrupt" : st == TXN_MISSING
				       ? "missing" : "an older transaction");
		}
		close(fd);
	}
	free(buf);
	free(ta);
	free(tb);
	free(tab);
	if (n_acked == 0) {
		printf("FAILED: the last point has no acknowledged transaction to check\n");
		return DIOT_EXIT_FAIL;
	}
	printf("acknowledged slots: %" PRIu64 "; durable: %" PRIu64 " (%" PRIu64
	       " of them overwritten by a later transaction); torn in-flight "
	       "(never acknowledged): %" PRIu64 "; lost: %" PRIu64 "; corrupt: %"
	       PRIu64 "\n", n_acked, n_ok + n_newer, n_newer, n_torn, n_lost, n_corrupt);
	if (n_lost || n_corrupt) {
		printf("FAILED: %" PRIu64 " acknowledged transactions are not on stable "
		       "storage\n", n_lost + n_corrupt);
		return DIOT_EXIT_FAIL;
	}
	printf("OK: every acknowledged transaction is on stable storage\n");
	return 0;
}

/* ------------------------------------------------------------ main */

static void
usage(void)
{
	printf(
"Usage: sync-write [OPTION]... [TARGET]\n"
"       sync-write --check ACK-LOG [TARGET]\n"
"Time synchronous sequential writes: for every method, transaction size and\n"
"number of writers, the average time per transaction in microseconds and its\n"
"distribution.\n"
"\n"
"TARGET is a file to create (default: a temporary file in the current\n"
"directory or --dir, removed at the end) or, with --force, a block device.\n"
"An existing file or any device is only written with --force; a mounted or\n"
"otherwise busy device never.\n"
"\n"
"What to measure:\n"
"  -m, --methods=LIST    comma-separated; 'all' (default) is every method the\n"
"                        target supports: none, fsync, fdatasync, dsync, sync,\n"
"                        rwf-dsync, direct, direct+dsync, direct+fdatasync,\n"
"                        direct+fsync (also direct+sync, direct+rwf-dsync)\n"
"  -s, --sizes=LIST      transaction sizes: 512,4k,48k,1m or ranges 4k..1m\n"
"                        (doubling); default %s\n"
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
"\n"
"Output:\n"
"  -f, --format=FMT      table (default), csv or json\n"
"  -o, --output=FILE     write the results to FILE instead of stdout\n"
"      --per-writer      also show each writer's row (table, csv)\n"
"      --plot=FILE.svg   draw time per transaction against size, one line per\n"
"                        method, and throughput/latency against writers\n"
"  -q, --quiet           no progress line\n"
"\n"
"Checking:\n"
"      --verify          stamp every transaction (writer, sequence, offset,\n"
"                        checksum) and read everything back after each point\n"
"      --ack-log=FILE    record each issued and acknowledged transaction\n"
"                        ('-' for stdout) for a later --check\n"
"      --check=ACK-LOG   after a crash: are all acknowledged transactions of\n"
"                        the last point on stable storage?\n"
"\n"
"Target:\n"
"      --dir=DIR         directory for the temporary file\n"
"      --force           allow writing over an existing file or a device\n"
"      --keep            keep the files sync-write created\n"
"      --no-prefill      overwrite an existing file as it is, without writing\n"
"                        the regions first (for a file a --keep run wrote)\n"
"\n"
"  -h, --help            this help\n"
"  -V, --version         version\n"
"\n"
"Exit status: 0 success, 1 a failure during the run (I/O error, verify or\n"
"check failure), 2 bad usage, 130/143 interrupted by SIGINT/SIGTERM.\n",
	       DEFAULT_SIZES, DEFAULT_WARMUP);
}

enum {
	OPT_METHODS = 1, OPT_SIZES, OPT_WRITERS, OPT_THREADS, OPT_LAYOUT, OPT_TIME,
	OPT_COUNT, OPT_WARMUP, OPT_EXTEND, OPT_REGION, OPT_FORMAT, OPT_OUTPUT,
	OPT_PLOT, OPT_PERWRITER, OPT_QUIET, OPT_VERIFY, OPT_ACKLOG, OPT_CHECK,
	OPT_DIR, OPT_FORCE, OPT_KEEP, OPT_HELP, OPT_VERSION, OPT_VERBOSE,
	OPT_NOPREFILL
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
	{ "extend", 0, DIOT_NO_ARG, OPT_EXTEND },
	{ "region", 0, DIOT_REQ_ARG, OPT_REGION },
	{ "format", 'f', DIOT_REQ_ARG, OPT_FORMAT },
	{ "output", 'o', DIOT_REQ_ARG, OPT_OUTPUT },
	{ "plot", 0, DIOT_REQ_ARG, OPT_PLOT },
	{ "per-writer", 0, DIOT_NO_ARG, OPT_PERWRITER },
	{ "quiet", 'q', DIOT_NO_ARG, OPT_QUIET },
	{ "verify", 0, DIOT_NO_ARG, OPT_VERIFY },
	{ "ack-log", 0, DIOT_REQ_ARG, OPT_ACKLOG },
	{ "check", 0, DIOT_REQ_ARG, OPT_CHECK },
	{ "dir", 0, DIOT_REQ_ARG, OPT_DIR },
	{ "force", 0, DIOT_NO_ARG, OPT_FORCE },
	{ "keep", 0, DIOT_NO_ARG, OPT_KEEP },
	{ "no-prefill", 0, DIOT_NO_ARG, OPT_NOPREFILL },
	{ "help", 'h', DIOT_NO_ARG, OPT_HELP },
	{ "version", 'V', DIOT_NO_ARG, OPT_VERSION },
	{ "verbose", 'v', DIOT_NO_ARG, OPT_VERBOSE },
	{ NULL, 0, 0, 0 }
};

static void
parse_methods(const char *s)
{
	char *copy = strdup(s), *item, *save = NULL;
	int n = 0, i, j;

	o.methods = calloc(NDEFAULT + 64, sizeof(*o.methods));
	if (copy == NULL || o.methods == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	if (*s == '\0' || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,"))
		diot_usage_error("--methods '%s': empty item in list", s);
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (strcmp(item, "all") == 0) {
			for (i = 0; i < (int)NDEFAULT && n < (int)NDEFAULT + 63; i++)
				parse_method(default_methods[i], &o.methods[n++]);
			continue;
		}
		if (n >= (int)NDEFAULT + 63)
			diot_usage_error("--methods: too many methods");
		if (parse_method(item, &o.methods[n]) != 0)
			diot_usage_error("--methods: unknown method '%s' (allowed: all, none, "
			                 "fsync, fdatasync, dsync, sync, rwf-dsync, and direct "
			                 "or direct+ any of those)", item);
		n++;
	}
	/* drop duplicates, keep the order given */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (strcmp(o.methods[i].name, o.methods[j].name) == 0) {
				memmove(&o.methods[j], &o.methods[j + 1],
				        (size_t)(n - j - 1) * sizeof(o.methods[0]));
				n--;
				j--;
			}
	o.nmethods = n;
	free(copy);
}

static int plot_created, out_created, ack_created, committed;

/* Open path for writing without truncating it; 1 if it was created. */
static int
claim_output(const char *path, const char *opt)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644), e;

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	e = errno;
	if (e == EEXIST && (fd = open(path, O_WRONLY)) >= 0) {
		close(fd);
		return 0;
	}
	diot_usage_error("%s '%s': %s", opt, path, dio_strerror(e == EEXIST ? errno : e));
}

/*
 * At exit (normal or diot_die): remove what this run created and does not
 * keep: the target files unless --keep, and output files that a refused
 * run never wrote.  Writer processes leave with _exit() and skip this.
 */
static void
cleanup(void)
{
	remove_files();
	if (committed)
		return;
	if (plot_created)
		unlink(o.plot);
	if (out_created)
		unlink(o.output);
	if (ack_created)
		unlink(o.ack_log);
}

static int
exit_status(void)
{
	if (g_signal == SIGINT)
		return 130;
	if (g_signal)
		return 128 + (int)g_signal;
	return -1;
}

int
main(int argc, char **argv)
{
	const char *arg, *methods = "all", *sizes = DEFAULT_SIZES;
	struct diot_optstate st;
	const char *writers = "1";
	char err[300];
	struct sw_run run;
	struct sigaction sa;
	struct utsname un;
	char osbuf[300];
	int i, id, w, mi, si, fatal = 0, total, idx, verify_fail = 0;
	uint64_t max_w, max_s;
	int r;

	diot_init(argv[0]);
	o.time_ns = DEFAULT_TIME_NS;
	o.warmup = DEFAULT_WARMUP;
	o.format = SW_FMT_TABLE;
	diot_getopt_init(&st);
	while ((id = diot_getopt(argc, argv, options, &st)) != DIOT_OPT_END) {
		arg = st.arg;
		switch (id) {
		case DIOT_OPT_ERROR:
			diot_usage_error("%s", st.err);
		case DIOT_OPT_OPERAND:
			if (o.target)
				diot_usage_error("more than one target given ('%s' and '%s')",
				                 o.target, arg);
			o.target = arg;
			break;
		case OPT_METHODS: methods = arg; break;
		case OPT_SIZES: sizes = arg; break;
		case OPT_WRITERS: writers = arg; break;
		case OPT_THREADS: o.threads = 1; break;
		case OPT_LAYOUT:
			if (strcmp(arg, "shared") == 0)
				o.layout = LAYOUT_SHARED;
			else if (strcmp(arg, "separate") == 0)
				o.layout = LAYOUT_SEPARATE;
			else
				diot_usage_error("--layout '%s': allowed are 'shared' and "
				                 "'separate'", arg);
			break;
		case OPT_TIME:
			if (diot_parse_duration(arg, 86400, &o.time_ns, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			o.time_set = 1;
			break;
		case OPT_COUNT:
			if (diot_parse_uint(arg, 1, UINT32_MAX, &o.count, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			break;
		case OPT_WARMUP:
			if (diot_parse_uint(arg, 0, 1000000, &o.warmup, err, sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			break;
		case OPT_EXTEND: o.extend = 1; break;
		case OPT_REGION:
			if (diot_parse_size_range(arg, 1, 1ull << 50, &o.region, err,
			                          sizeof(err)) < 0)
				diot_usage_error("%s '%s': %s", st.name, arg, err);
			o.region_set = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(arg, "table") == 0)
				o.format = SW_FMT_TABLE;
			else if (strcmp(arg, "csv") == 0)
				o.format = SW_FMT_CSV;
			else if (strcmp(arg, "json") == 0)
				o.format = SW_FMT_JSON;
			else
				diot_usage_error("--format '%s': allowed are table, csv, json", arg);
			break;
		case OPT_OUTPUT: o.output = arg; break;
		case OPT_PLOT: o.plot = arg; break;
		case OPT_PERWRITER: o.per_writer = 1; break;
		case OPT_QUIET: o.quiet = 1; break;
		case OPT_VERBOSE: o.verbose++; break;
		case OPT_VERIFY: o.verify = 1; break;
		case OPT_ACKLOG: o.ack_log = arg; break;
		case OPT_CHECK: o.check_log = arg; break;
		case OPT_DIR: o.dir = arg; break;
		case OPT_FORCE: o.force = 1; break;
		case OPT_KEEP: o.keep = 1; break;
		case OPT_NOPREFILL: o.no_prefill = 1; break;
		case OPT_HELP: usage(); return 0;
		case OPT_VERSION:
			printf("sync-write (libdirectio) %s, backend %s\n", dio_version_string(),
			       dio_backend_name());
			return 0;
		}
	}
	if (o.check_log)
		return check_main(o.check_log, o.target);

	parse_methods(methods);
	o.nsizes = diot_parse_size_list(sizes, 1, MAX_SIZE, &o.sizes, err, sizeof(err));
	if (o.nsizes < 0)
		diot_usage_error("--sizes '%s': %s", sizes, err);
	o.nwriters = diot_parse_uint_list(writers, 1, MAX_WRITERS, &o.writers, err,
	                                  sizeof(err));
	if (o.nwriters < 0)
		diot_usage_error("--writers '%s': %s", writers, err);
	max_w = o.writers[o.nwriters - 1];
	max_s = o.sizes[o.nsizes - 1];
	if (o.verify || o.ack_log) {
		if (o.sizes[0] < HDR_SIZE)
			diot_usage_error("--%s needs transaction sizes of at least %d bytes "
			                 "(the smallest given is %" PRIu64 ")",
			                 o.verify ? "verify" : "ack-log", HDR_SIZE, o.sizes[0]);
	}
	if (o.target && o.dir)
		diot_usage_error("--dir is for the temporary file: it cannot be combined "
		                 "with a TARGET");
	if (o.target && *o.target == '\0')
		diot_usage_error("the TARGET is an empty string");
	if (o.region_set && o.region < max_s)
		diot_usage_error("--region %" PRIu64 " is smaller than the largest "
		                 "transaction size %" PRIu64, o.region, max_s);
	if (o.count && o.time_set)
		diot_usage_error("--time and --count exclude each other: measure each "
		                 "point for a time or for a number of transactions");
	if (o.no_prefill && o.extend)
		diot_usage_error("--no-prefill is for overwriting; --extend writes "
		                 "an emptied file");
	if (o.no_prefill && o.target == NULL)
		diot_usage_error("--no-prefill needs an existing TARGET (a temporary "
		                 "file is always new)");
	if (o.ack_log && strcmp(o.ack_log, "-") == 0 &&
	    (o.output == NULL || strcmp(o.output, "-") == 0))
		diot_usage_error("--ack-log - takes standard output: send the results "
		                 "elsewhere with --output FILE");

	/*
	 * Every file named on the command line is checked, or created, before
	 * the target is touched, and nothing is truncated yet: a run refused
	 * later leaves them as they were (and removes those it created).
	 */
	atexit(cleanup);
	if (o.plot)
		plot_created = claim_output(o.plot, "--plot");
	if (o.output && strcmp(o.output, "-") != 0)
		out_created = claim_output(o.output, "--output");
	if (o.ack_log && strcmp(o.ack_log, "-") != 0) {
		ack_fd = open(o.ack_log, O_WRONLY | O_CREAT | O_APPEND |
		              (o.force ? 0 : O_EXCL), 0644);
		if (ack_fd < 0) {
			int e = errno;

			diot_die(DIOT_EXIT_USAGE, "--ack-log '%s': %s%s", o.ack_log,
			         dio_strerror(e), e == EEXIST ? " (pass --force to "
			         "append to an existing log)" : "");
		}
		ack_created = !o.force;
	} else if (o.ack_log) {
		ack_fd = STDOUT_FILENO;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON, -1, 0);
	if (sh == MAP_FAILED)
		diot_die(DIOT_EXIT_FAIL, "cannot map shared memory: %s", dio_strerror(errno));
	run_id = ((uint64_t)time(NULL) << 20) ^ diot_now_ns() ^ ((uint64_t)getpid() << 40);

	setup_target(max_w, max_s);
	if (g_signal)
		return exit_status();
	/* The run goes ahead: from here on the outputs are the run's. */
	committed = 1;
	out = stdout;
	if (o.output && strcmp(o.output, "-") != 0) {
		out = fopen(o.output, "w");
		if (out == NULL)
			diot_die(DIOT_EXIT_FAIL, "--output '%s': %s", o.output,
			         dio_strerror(errno));
	}
	if (ack_fd >= 0) {
		r = ack_line("# sync-write ack-log 1\n");
		if (r == 0)
			r = ack_line("R %llx %s %d %" PRIu64 " %s\n", (unsigned long long)run_id,
			             o.layout == LAYOUT_SEPARATE ? "separate" : "shared",
			             o.extend, o.region, tg.path);
		if (r < 0)
			diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': %s", o.ack_log,
			         dio_strerror(r));
	}
	progress_on = !o.quiet && isatty(STDERR_FILENO);

	memset(&run, 0, sizeof(run));
	run.version = dio_version_string();
	run.backend = dio_backend_name();
	run.target = tg.path;
	run.target_kind = tg.is_dev ? "device" : (o.target ? (tg.created ? "new file"
	                  : "existing file") : "temporary file");
	run.fstype = tg.fstype;
	run.mem_align = tg.align.mem_align;
	run.offset_align = tg.align.offset_align;
	run.align_source = dio_align_source_name((int)tg.align.source);
	run.region = o.region;
	run.layout = o.layout == LAYOUT_SEPARATE ? "separate" : "shared";
	run.mode = o.threads ? "threads" : "processes";
	run.extend = o.extend;
	run.time_s = o.count ? 0 : (double)o.time_ns / 1e9;
	run.count = o.count;
	run.warmup = o.warmup;
	run.verify = o.verify;
	if (uname(&un) == 0)
		snprintf(osbuf, sizeof(osbuf), "%s %s %s", un.sysname, un.release, un.machine);
	else
		snprintf(osbuf, sizeof(osbuf), "unknown");
	run.os = osbuf;

	total = o.nwriters * o.nmethods * o.nsizes;
	points = calloc((size_t)total, sizeof(*points));
	if (points == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	sw_report_begin(out, o.format, &run, o.per_writer);
	idx = 0;
	for (w = 0; w < o.nwriters && !fatal; w++) {
		for (mi = 0; mi < o.nmethods && !fatal; mi++) {
			for (si = 0; si < o.nsizes && !fatal; si++) {
				struct sw_point *p = &points[idx];

				p->index = idx;
				snprintf(p->method, sizeof(p->method), "%s", o.methods[mi].name);
				p->size = o.sizes[si];
				p->writers = (int)o.writers[w];
				idx++;
				npoints = idx;
				if (run_point(p, &o.methods[mi], p->writers, total) != 0)
					fatal = 1;
				if (p->verify.done && p->verify.ok != p->verify.checked)
					verify_fail = 1;
				sw_report_point(out, o.format, p, o.per_writer);
				fflush(out);
			}
		}
	}
	for (i = 0; i < npoints; i++)
		if (points[i].status == SW_ERROR)
			run.error = points[i].note;
	run.interrupted = g_signal != 0;
	sw_report_end(out, o.format, &run, points, npoints);
	if (o.plot && sw_plot(o.plot, &run, points, npoints) != 0)
		diot_warn("--plot '%s': cannot write: %s", o.plot, dio_strerror(errno));
	if (out != stdout && fclose(out) != 0)
		diot_warn("--output '%s': %s", o.output, dio_strerror(errno));
	if (!g_signal && !run.error && ack_line("E\n") < 0)
		diot_warn("--ack-log '%s': cannot record the end of the run", o.ack_log);
	if (ack_fd > STDERR_FILENO)
		close(ack_fd);
	if (run.error)
		diot_warn("%s", run.error);
	if (verify_fail)
		diot_warn("verification FAILED: some transactions are missing, corrupt or "
		          "misplaced (see the verify columns)");
	if (g_signal)
		return exit_status();
	return (run.error || verify_fail) ? DIOT_EXIT_FAIL : 0;
}
