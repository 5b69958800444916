/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c -- --check ACK-LOG [TARGET]: after a crash or a power cut, were
 * all acknowledged transactions of the last point made durable?
 *
 * The log.  Each run appends "# sync-write ack-log 1", then R (run id,
 * layout, --extend, region, target path), T (the target's identity:
 * kind, inode, device size, birth stamp), and per point a P line (point,
 * method, size, writers, slots) followed by its writers' records: writer
 * k writes "I k seq off" before it issues transaction seq and "A k seq
 * off" once the write and its commit returned (writers.c); records of
 * different writers interleave.  E ends a run that ended in order.  A log
 * may hold several runs one after another (--force appends), and its
 * last line may be cut short by the crash.
 *
 * Reading (sw_acklog_read(), no exit, no output: the fuzz harnesses call
 * it).  Strict: anything the writers cannot have written is refused with
 * its line number, as a malformed log, before the target is looked at.
 * So every record is where its run's layout puts it (the offset follows
 * from writer, sequence, region, size and --extend, as sw_txn_offset()
 * computes it); a P line's slots are its region over its size; per
 * writer the sequences are consecutive, and each A acknowledges the I
 * just before it of that writer (an I while one is unacknowledged, an A
 * without its I, a duplicate, a gap or records out of order are all
 * refused).  Lines are read with a bound (a record is at most
 * DIOT_ACK_LINE_MAX bytes), and the memory kept is the last point's
 * writers of each run: because sequences are consecutive, a writer's
 * first issued, last issued and whether that one was acknowledged say
 * which transaction every slot must hold, and no table of slots is ever
 * allocated.  A last line without its newline (what a crash leaves; also
 * just before the next run's header, when a run was appended to a log
 * cut short) is ignored, and said so; so are NUL bytes from some point to
 * the end of the log (what ext4 or XFS leave after a power cut when the
 * file's size got ahead of its data), after a line cut short or not.  A
 * NUL byte with anything but NUL bytes after it is malformed.
 *
 * Checking.  For every slot, the newest acknowledged transaction (or a
 * newer one) must be on the target, intact.  A slot whose newest issued
 * transaction was never acknowledged is in flight: it may hold the old
 * transaction, the new one, or (sector by sector) a mix of both, all of
 * which are reported and none counted as a loss.  Run ids order runs in
 * time (check.h, SW_RID_TIME): an intact transaction of a LATER run in an
 * acknowledged slot means that run wrote over the target since; it is
 * counted as "overwritten by a later run", neither verified nor lost, and
 * once another run that is not known to be earlier wrote over the target,
 * a slot holding no intact transaction (that run's fill, or its
 * transactions of another size) is not verifiable either.  So is a
 * transaction of a run whose order cannot be told (the same millisecond,
 * an id of an older sync-write).  When no acknowledged slot could be
 * verified so, the check could not check (3).  Anything else, zeros
 * included, is a loss: an older transaction of the run, or an intact one
 * of an EARLIER run (what a lying disk leaves on a device or a file
 * system used again).  Reads are the slots the records name, inside
 * the run's region; a target that is not a regular file or a block
 * device (a FIFO, /dev/zero) is refused before it is read.
 *
 * Which run, and is this its target?  A file is the run's target by
 * identity when its inode number and its birth stamp (dio_file_birth():
 * birth time and generation, which a new file reusing the inode number
 * does not share) are those the T line recorded.  A device is known by
 * its size alone, which any device of that size shares: a device of the
 * recorded size is only "maybe", unless it is the very node the run
 * wrote: the path the log names, with the inode number the T line
 * recorded (a power-cut test checks its raw disk so, and a cut may leave
 * nothing of the run on it).  A target that holds a transaction of
 * the run (its run id is in every transaction header) is the run's
 * target, or a copy of it.  A target that is neither is not checked for
 * that run: "not the run's target", or "cannot say" when only the inode
 * number or a device's size matches (and no birth stamp tells a new file
 * from the run's target): if it is the target, everything was lost, but
 * that is never reported as a loss.  (A writer's file of
 * --layout separate missing beside a target that is the run's by its
 * identity is a loss.)  Of several runs, the newest that the target is
 * the target of is checked (a later run wrote over what the earlier ones
 * left), and the report says which and why; without a TARGET the runs
 * must all name one, and two runs with one run id are refused.
 *
 * Of several runs, those the target holds transactions of are preferred
 * by the rule above: a device is only picked for a run it holds a
 * transaction of, a file also by its inode and birth stamp.
 *
 * Exit statuses (check.h): 0 every acknowledged transaction found (of
 * those that could be verified), 1 some lost or corrupt -- never anything
 * else --, 2 bad command line, 3 could not check (a malformed or
 * unreadable log, a target that is not the run's, cannot be told to be or
 * cannot be read, a log with nothing acknowledged to check, a target
 * another run wrote over since).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/kit/ack.h"
#include "tools/kit/msg.h"
#include "tools/sw/check.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

#define CK_LINE_MAX DIOT_ACK_LINE_MAX   /* the longest record a run writes */
#define CK_HEADER "# sync-write ack-log 1"
#define CK_MAX_REGION (1ull << 50)      /* --region's bound (args.c) */
#define CK_MAX_SEQ (1ull << 62)

#ifndef O_NOCTTY
# define O_NOCTTY 0
#endif
#ifndef O_NONBLOCK
# define O_NONBLOCK 0
#endif

/* One writer's records in the last point of a run. */
struct ckwriter {
	int k;
	uint64_t first, issued;   /* its first and its last issued sequence */
	int seen;                 /* an I line of it: first and issued set  */
	int pending;              /* the last issued is not acknowledged    */
};

enum { ST_HEADER, ST_RUN, ST_BODY, ST_END };

/* One run of the log, as far as its last point. */
struct ckrun {
	unsigned long line, last;     /* its header's line, its last line    */
	char *path;
	uint64_t rid, region;
	int separate, extend;
	int has_id, is_dev, has_birth;
	uint64_t ino, dev_bytes, birth;
	int point;                    /* the last point, -1 before any       */
	char method[32];
	uint64_t size, slots;
	int writers;
	struct ckwriter *w;           /* sorted by k                         */
	int nw, capw;
	int ended, state;
	int torn_tail;                /* 1 a last line cut short, 2 NULs     */
};

struct sw_acklog {
	const char *name;
	struct ckrun *run;
	int nrun, caprun;
	unsigned long lineno;
	char *err;
	size_t errlen;
};

/* A slot to check: its newest acknowledged transaction (-1: none) and
 * its newest issued one. */
struct ckslot {
	int64_t acked, issued;
	uint64_t off, issued_off;
};

/* The counts of the check, in all and for one writer. */
struct cksum {
	uint64_t ok, newer, lost, corrupt, acked;
	uint64_t flight, flight_old, flight_new, flight_torn;
	/* not verifiable, none a loss: a later run's transaction, a run's of
	 * no known order, no intact transaction where another run wrote */
	uint64_t later, unordered, gap;
	uint64_t later_rid, unordered_rid;
	int64_t newest_ok, first_missing;
};

/* ------------------------------------------------------------ reading */

static int DIOT_PRINTF(2, 3)
malformed(struct sw_acklog *g, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(g->err, g->errlen, "%s:%lu: malformed %s; the log is not checked", g->name,
	         g->lineno, msg);
	return SW_CHECK_CANNOT;
}

/* A number in full: digits of base (10: no leading zero; 16: lower or
 * upper case), nothing else, not above max. */
static int
num(const char *s, int base, unsigned long long max, unsigned long long *out)
{
	const char *digits = base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
	size_t n = strlen(s);
	char *end;

	if (n == 0 || n > 20 || strspn(s, digits) != n || (base == 10 && s[0] == '0' && n > 1))
		return -1;
	errno = 0;
	*out = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0' || *out > max)
		return -1;
	return 0;
}

/* Split line into at most max fields separated by single spaces; the
 * last takes the rest of the line when rest is set (a path may hold
 * spaces).  Returns the count, or -1 for more fields than max. */
static int
split(char *line, char **f, int max, int rest)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		f[n++] = p;
		if (rest && n == max)
			return n;
		p = strchr(p, ' ');
		if (p == NULL)
			return n;
		*p++ = '\0';
	}
	return -1;
}

static struct ckrun *
cur(struct sw_acklog *g)
{
	return g->nrun ? &g->run[g->nrun - 1] : NULL;
}

static void
run_free(struct ckrun *r)
{
	free(r->path);
	free(r->w);
}

/* A header line: a new run (one that recorded nothing, not even its R
 * line, is dropped: a crash between its first two records). */
static int
new_run(struct sw_acklog *g)
{
	struct ckrun *r = cur(g);

	if (r != NULL && r->state == ST_HEADER) {
		run_free(r);
		g->nrun--;
	}
	if (g->nrun == g->caprun) {
		int cap = g->caprun ? g->caprun * 2 : 4;
		struct ckrun *n = realloc(g->run, (size_t)cap * sizeof(*n));

		if (n == NULL)
			return malformed(g, "log: out of memory");
		g->run = n;
		g->caprun = cap;
	}
	r = &g->run[g->nrun++];
	memset(r, 0, sizeof(*r));
	r->line = r->last = g->lineno;
	r->point = -1;
	r->state = ST_HEADER;
	return 0;
}

static int
log_run(struct sw_acklog *g, struct ckrun *r, char *line)
{
	unsigned long long rid, ext, region;
	char *f[6];

	if (r->state != ST_HEADER)
		return malformed(g, "R line: a run has one, right after its header");
	if (split(line, f, 6, 1) != 6 || num(f[1], 16, ~0ull, &rid) ||
	    (strcmp(f[2], "shared") && strcmp(f[2], "separate")) ||
	    num(f[3], 10, 1, &ext) || num(f[4], 10, CK_MAX_REGION, &region) ||
	    region == 0 || f[5][0] == '\0' || strlen(f[5]) >= PATH_MAX)
		return malformed(g, "R line (R RUN-ID shared|separate 0|1 REGION PATH, "
		                 "REGION from 1 to %llu)", CK_MAX_REGION);
	if ((r->path = strdup(f[5])) == NULL)
		return malformed(g, "log: out of memory");
	r->rid = rid;
	r->region = region;
	r->separate = strcmp(f[2], "separate") == 0;
	r->extend = (int)ext;
	r->state = ST_RUN;
	return 0;
}

static int
log_identity(struct sw_acklog *g, struct ckrun *r, char *line)
{
	unsigned long long ino, bytes, birth = 0;
	char *f[5];
	int n = split(line, f, 5, 0);

	if (r->state != ST_RUN)
		return malformed(g, "T line: a run has one, right after its R line");
	if ((n != 4 && n != 5) || (strcmp(f[1], "file") && strcmp(f[1], "device")) ||
	    num(f[2], 10, ~0ull, &ino) || num(f[3], 10, ~0ull, &bytes) ||
	    (n == 5 && num(f[4], 10, ~0ull, &birth)))
		return malformed(g, "T line (T file|device INODE DEVICE-BYTES [BIRTH])");
	r->is_dev = strcmp(f[1], "device") == 0;
	if (r->is_dev ? bytes == 0 : bytes != 0)
		return malformed(g, "T line: a %s has %s DEVICE-BYTES, not %llu",
		                 f[1], r->is_dev ? "its size as" : "0 as", bytes);
	if (r->is_dev && r->separate)
		return malformed(g, "T line: a device, but the R line says --layout "
		                 "separate (files of their own)");
	r->ino = ino;
	r->dev_bytes = bytes;
	r->birth = birth;
	r->has_birth = birth != 0;
	r->has_id = 1;
	r->state = ST_BODY;
	return 0;
}

/* A "P" line: a new point, its writers' records from scratch. */
static int
log_point(struct sw_acklog *g, struct ckrun *r, char *line)
{
	unsigned long long pt, size, w, slots;
	char *f[6];

	if (r->state == ST_HEADER || r->state == ST_END)
		return malformed(g, "P line: %s", r->state == ST_END ?
		                 "after the run's E line (its end)" : "before the run's R line");
	if (split(line, f, 6, 0) != 6 || num(f[1], 10, INT32_MAX, &pt) ||
	    strlen(f[2]) >= sizeof(r->method) || f[2][0] == '\0' ||
	    num(f[3], 10, SW_MAX_SIZE, &size) || size < SW_HDR_SIZE ||
	    num(f[4], 10, SW_MAX_WRITERS, &w) || w < 1 || num(f[5], 10, ~0ull, &slots))
		return malformed(g, "P line (P POINT METHOD SIZE WRITERS SLOTS, SIZE from "
		                 "%d to %llu, WRITERS from 1 to %d)", SW_HDR_SIZE,
		                 SW_MAX_SIZE, SW_MAX_WRITERS);
	if ((int)pt <= r->point)
		return malformed(g, "P line: point %llu after point %d (points only go "
		                 "up)", pt, r->point);
	if (slots != r->region / size || slots == 0)
		return malformed(g, "P line: %llu slots, but the run's %llu-byte region "
		                 "(R line, line %lu) holds %llu %llu-byte transactions", slots,
		                 (unsigned long long)r->region, r->line + 1,
		                 (unsigned long long)(r->region / size), size);
	r->point = (int)pt;
	r->size = size;
	r->writers = (int)w;
	r->slots = slots;
	snprintf(r->method, sizeof(r->method), "%s", f[2]);
	r->nw = 0;
	r->state = ST_BODY;
	return 0;
}

/* Where writer k's transaction seq goes (txn.c: the writers' rule). */
static uint64_t
txn_offset(const struct ckrun *r, int k, uint64_t seq)
{
	return sw_layout_offset(r->separate, r->extend, r->region, r->slots, r->writers,
	                        r->size, k, seq);
}

/* Writer k of the last point: its entry, made when make is set. */
static struct ckwriter *
writer_of(struct ckrun *r, int k, int make, int *oom)
{
	int lo = 0, hi = r->nw, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (r->w[mid].k == k)
			return &r->w[mid];
		if (r->w[mid].k < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!make)
		return NULL;
	if (r->nw == r->capw) {
		int cap = r->capw ? r->capw * 2 : 4;
		struct ckwriter *n = realloc(r->w, (size_t)cap * sizeof(*n));

		if (n == NULL) {
			*oom = 1;
			return NULL;
		}
		r->w = n;
		r->capw = cap;
	}
	memmove(&r->w[lo + 1], &r->w[lo], (size_t)(r->nw - lo) * sizeof(*r->w));
	r->nw++;
	memset(&r->w[lo], 0, sizeof(r->w[lo]));
	r->w[lo].k = k;
	return &r->w[lo];
}

/* An "I" or "A" line: the next step of its writer. */
static int
log_txn(struct sw_acklog *g, struct ckrun *r, char *line)
{
	unsigned long long k, seq, off;
	struct ckwriter *w;
	char c = line[0], *f[4];
	uint64_t want;
	int oom = 0;

	if (r->point < 0 || r->state == ST_END)
		return malformed(g, "%c line: %s", c, r->point < 0 ? "before any P line"
		                 : "after the run's E line (its end)");
	if (split(line, f, 4, 0) != 4 || num(f[1], 10, (unsigned)r->writers - 1, &k) ||
	    num(f[2], 10, CK_MAX_SEQ, &seq) || num(f[3], 10, ~0ull, &off))
		return malformed(g, "%c line (%c WRITER SEQUENCE OFFSET, WRITER below %d)",
		                 c, c, r->writers);
	if (r->extend && seq >= r->slots)
		return malformed(g, "%c line: transaction %llu of writer %llu, but with "
		                 "--extend a writer stops at its region's %llu slots", c, seq,
		                 k, (unsigned long long)r->slots);
	want = txn_offset(r, (int)k, seq);
	if (off != want)
		return malformed(g, "%c line: writer %llu's transaction %llu at offset %llu, "
		                 "but the run's layout puts it at %" PRIu64 " (%s%s, %llu-byte "
		                 "region, %llu-byte transactions)", c, k, seq, off, want,
		                 r->separate ? "separate" : "shared", r->extend ? ", --extend" : "",
		                 (unsigned long long)r->region, (unsigned long long)r->size);
	if (r->is_dev && off + r->size > r->dev_bytes)
		return malformed(g, "%c line: offset %llu is beyond the end of the device "
		                 "(%llu bytes, T line)", c, off, (unsigned long long)r->dev_bytes);
	w = writer_of(r, (int)k, c == 'I', &oom);
	if (oom)
		return malformed(g, "log: out of memory");
	if (c == 'A') {
		if (w == NULL || !w->pending || w->issued != seq)
			return malformed(g, "A line: writer %llu acknowledges transaction %llu, "
			                 "which it did not issue just before (%s)", k, seq,
			                 w == NULL ? "no I line of that writer in this point" :
			                 !w->pending ? "its last issued was acknowledged already"
			                 : "another one is in flight");
		w->pending = 0;
		return 0;
	}
	if (w->seen && w->pending)
		return malformed(g, "I line: writer %llu issues transaction %llu while "
		                 "transaction %" PRIu64 " is not acknowledged (a writer has "
		                 "one in flight at a time)", k, seq, w->issued);
	if (w->seen && seq != w->issued + 1)
		return malformed(g, "I line: writer %llu issues transaction %llu after "
		                 "%" PRIu64 " (a writer's sequences follow each other)", k, seq,
		                 w->issued);
	if (!w->seen)
		w->first = seq;
	w->seen = 1;
	w->issued = seq;
	w->pending = 1;
	return 0;
}

/* A torn line followed by a header: an appended run after a log cut short. */
static int
torn_header(const char *line, size_t n)
{
	size_t h = sizeof(CK_HEADER) - 1;

	return n > h && strcmp(line + n - h, CK_HEADER) == 0;
}

/* One whole line without its newline. */
static int
log_line(struct sw_acklog *g, char *line, size_t n)
{
	struct ckrun *r = cur(g);

	if (strcmp(line, CK_HEADER) == 0)
		return new_run(g);
	if (r->state != ST_HEADER && torn_header(line, n)) {
		/* The previous run's last record, cut short by a crash, then
		 * this run's header (appended with --force). */
		r->torn_tail = 1;
		return new_run(g);
	}
	r->last = g->lineno;
	switch (line[0]) {
	case 'R': return log_run(g, r, line);
	case 'T': return log_identity(g, r, line);
	case 'P': return log_point(g, r, line);
	case 'I': case 'A': return log_txn(g, r, line);
	case 'E':
		if (strcmp(line, "E") != 0)
			return malformed(g, "E line");
		if (r->state == ST_HEADER || r->state == ST_END)
			return malformed(g, "E line: %s", r->state == ST_END ? "a second one" :
			                 "before the run's R line");
		r->ended = 1;
		r->state = ST_END;
		return 0;
	default:
		if (r->state == ST_HEADER)
			return malformed(g, "line: an R line must follow the header, not "
			                 "'%.20s'", line);
		return malformed(g, "line: unknown record '%.20s'", line);
	}
}

/*
 * One line of at most cap - 1 bytes into buf, its newline dropped:
 * 1 a line, 2 a last line without its newline, 0 the end, -1 a line too
 * long (not read further), -2 a read error.
 */
static int
read_line(FILE *fp, char *buf, size_t cap, size_t *len)
{
	size_t n = 0;
	int c;

	while ((c = getc(fp)) != EOF) {
		if (c == '\n') {
			buf[n] = '\0';
			*len = n;
			return 1;
		}
		if (n + 1 >= cap) {
			ungetc(c, fp);  /* the rest is looked at (nul_tail()) */
			*len = n;
			return -1;
		}
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	*len = n;
	if (ferror(fp))
		return -2;
	return n ? 2 : 0;
}

/*
 * A line holding a NUL byte: is it where the log's torn tail begins?  What
 * a file system leaves after a power cut when the file's size got ahead of
 * its data is NUL bytes to the end: so from the line's first NUL on, every
 * byte of the line and of the rest of the stream is NUL (at most
 * CK_NUL_TAIL_MAX bytes are read: a stream of NULs without end is not a
 * tail).  1 yes, 0 no (a NUL with something after it: malformed), -2 a
 * read error.
 */
#define CK_NUL_TAIL_MAX (1ull << 30)
static int
nul_tail(FILE *fp, const char *line, size_t n, int rl)
{
	const char *p = memchr(line, '\0', n);
	char buf[65536];
	unsigned long long total = 0;
	size_t i, got;

	if (rl == 1)            /* a newline after the NUL: more follows */
		return 0;
	for (i = (size_t)(p - line); i < n; i++)
		if (line[i] != '\0')
			return 0;
	if (rl == 2)            /* the line ended at the end of the stream */
		return 1;
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0) {
		for (i = 0; i < got; i++)
			if (buf[i] != '\0')
				return 0;
		total += got;
		if (total > CK_NUL_TAIL_MAX)
			return 0;
	}
	return ferror(fp) ? -2 : 1;
}

void
sw_acklog_free(struct sw_acklog *g)
{
	int i;

	if (g == NULL)
		return;
	for (i = 0; i < g->nrun; i++)
		run_free(&g->run[i]);
	free(g->run);
	free(g);
}

int
sw_acklog_runs(const struct sw_acklog *g)
{
	return g->nrun;
}

int
sw_acklog_read(FILE *fp, const char *name, struct sw_acklog **out, char *err, size_t errlen)
{
	struct sw_acklog *g;
	char *line;
	size_t n;
	int r = 0, rl;

	*out = NULL;
	g = calloc(1, sizeof(*g));
	line = malloc(CK_LINE_MAX + 1);
	if (g == NULL || line == NULL) {
		free(g);
		free(line);
		snprintf(err, errlen, "%s: out of memory", name);
		return SW_CHECK_CANNOT;
	}
	g->name = name;
	g->err = err;
	g->errlen = errlen;
	while (r == 0 && (rl = read_line(fp, line, CK_LINE_MAX + 1, &n)) != 0) {
		g->lineno++;
		if (g->lineno == 1 && (rl != 1 || strcmp(line, CK_HEADER) != 0)) {
			snprintf(err, errlen, "'%s' is not a sync-write ack log (its first "
			         "line is not '%s')", name, CK_HEADER);
			r = SW_CHECK_CANNOT;
		} else if (rl == -2) {
			snprintf(err, errlen, "%s: read error: %s", name, dio_strerror(-errno));
			r = SW_CHECK_CANNOT;
		} else if (memchr(line, '\0', n) != NULL) {
			int t = nul_tail(fp, line, n, rl);

			if (t == 1) {
				/* NUL bytes to the end: the torn tail a file
				 * system leaves after a power cut, ignored. */
				cur(g)->torn_tail = 2;
				break;
			}
			if (t == -2) {
				snprintf(err, errlen, "%s: read error: %s", name,
				         dio_strerror(-errno));
				r = SW_CHECK_CANNOT;
			} else {
				r = malformed(g, "line: it holds a NUL byte with more than "
				              "NUL bytes after it (only a torn tail, NUL "
				              "bytes to the end of the log, is ignored)");
			}
		} else if (rl == -1) {
			r = malformed(g, "line: longer than %d bytes (a record is shorter)",
			              CK_LINE_MAX);
		} else if (rl == 2) {
			/* Cut short by the crash: the last write of a record
			 * that never completed, ignored. */
			cur(g)->torn_tail = 1;
			break;
		} else {
			r = log_line(g, line, n);
		}
	}
	if (r == 0 && g->lineno == 0) {
		snprintf(err, errlen, "'%s' is not a sync-write ack log (it is empty)", name);
		r = SW_CHECK_CANNOT;
	}
	if (r == 0 && cur(g)->state == ST_HEADER) {   /* a run with no R line: dropped */
		run_free(cur(g));
		g->nrun--;
	}
	if (r == 0 && g->nrun == 0) {
		snprintf(err, errlen, "%s: no R line: the log does not say what the run wrote",
		         name);
		r = SW_CHECK_CANNOT;
	}
	free(line);
	if (r != 0) {
		sw_acklog_free(g);
		return r;
	}
	g->err = NULL;
	*out = g;
	return 0;
}

/* ------------------------------------------------------------ the target */

/* What the named target is. */
struct cktarget {
	const char *path;
	int is_dev, has_birth;
	uint64_t ino, bytes, birth;
	dev_t dev;
};

/* Open a file of the target for reading: a regular file or a block
 * device only (stat first: no other kind of node is ever opened); -1
 * with the reason in why. */
static int
open_part(const char *path, struct stat *st, char *why, size_t len)
{
	struct stat a;
	int fd;

	if (stat(path, &a) != 0) {
		int e = errno;

		snprintf(why, len, "'%s': %s", path, dio_strerror(-e));
		errno = e;
		return -1;
	}
	if (S_ISDIR(a.st_mode)) {
		snprintf(why, len, "'%s' is a directory, not the run's target", path);
		return -1;
	}
	if (!S_ISREG(a.st_mode) && !S_ISBLK(a.st_mode)) {
		snprintf(why, len, "'%s' is neither a regular file nor a block device, so "
		         "it is not the run's target", path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, len, "cannot open '%s': %s", path, dio_strerror(-errno));
		return -1;
	}
	if (fstat(fd, st) != 0 || st->st_dev != a.st_dev || st->st_ino != a.st_ino) {
		snprintf(why, len, "'%s' changed while it was opened", path);
		close(fd);
		return -1;
	}
	return fd;
}

static int
target_facts(const char *path, struct cktarget *t, char *why, size_t len)
{
	struct stat st;
	int fd = open_part(path, &st, why, len);

	memset(t, 0, sizeof(*t));
	t->path = path;
	if (fd < 0)
		return -1;
	t->is_dev = S_ISBLK(st.st_mode);
	t->ino = (uint64_t)st.st_ino;
	t->dev = st.st_dev;
	if (t->is_dev) {
		struct dio_align a;

		if (dio_align_fd(fd, &a) == 0)
			t->bytes = a.device_bytes;
	} else {
		t->has_birth = dio_file_birth(fd, &t->birth) == 0;
	}
	close(fd);
	return 0;
}

/* The file writer k of run r wrote, under the target's name. */
static void
part_path(const struct ckrun *r, const char *target, int k, char *buf, size_t len)
{
	if (r->separate && k > 0)
		snprintf(buf, len, "%s.%d", target, k);
	else
		snprintf(buf, len, "%s", target);
}

enum { ID_NO, ID_MAYBE, ID_YES };

/*
 * Is t run r's target by its identity?  ID_YES (the same file, the same
 * device node of the same size), ID_NO
 * (another kind of thing, another size), or ID_MAYBE: only the
 * transactions on it can tell (a copy, a file that reused the inode
 * number, a device of the right size -- any device of that size has it --,
 * no identity to compare).  why says which.
 */
static int
identity(const struct ckrun *r, const struct cktarget *t, char *why, size_t len)
{
	if (!r->has_id) {
		snprintf(why, len, "the log names %s and records no identity of it: if it "
		         "is the target, everything was lost", r->path);
		return ID_MAYBE;
	}
	if (r->is_dev != t->is_dev) {
		snprintf(why, len, "it is a %s, but the run wrote a %s (%s)",
		         t->is_dev ? "device" : "file", r->is_dev ? "device" : "file", r->path);
		return ID_NO;
	}
	if (t->is_dev) {
		if (t->bytes == 0) {
			snprintf(why, len, "its size cannot be read (the run's device, %s, "
			         "had %" PRIu64 " bytes)", r->path, r->dev_bytes);
			return ID_MAYBE;
		}
		if (t->bytes != r->dev_bytes) {
			snprintf(why, len, "it has %" PRIu64 " bytes, the run's target (%s) "
			         "had %" PRIu64, t->bytes, r->path, r->dev_bytes);
			return ID_NO;
		}
		if (t->ino == r->ino && strcmp(t->path, r->path) == 0) {
			/* The very node the run wrote, by its name and inode
			 * number, of its size (a power-cut test checks its raw
			 * disk so, where a cut may leave nothing of the run). */
			snprintf(why, len, "the device node the run wrote (%s, inode %" PRIu64
			         ") and of its size, %" PRIu64 " bytes", r->path, r->ino,
			         t->bytes);
			return ID_YES;
		}
		snprintf(why, len, "cannot say whether it is: it is a device of the size "
		         "of the run's target (%s, %" PRIu64 " bytes), and a device is known "
		         "by nothing else; if it is the run's target, everything was lost",
		         r->path, t->bytes);
		return ID_MAYBE;
	}
	if (t->ino != r->ino) {
		snprintf(why, len, "it is another file than the run's target (%s: inode "
		         "%" PRIu64 ", this one %" PRIu64 ")", r->path, r->ino, t->ino);
		return ID_MAYBE;
	}
	if (r->has_birth && t->has_birth && r->birth == t->birth) {
		snprintf(why, len, "the run's file by its inode number and birth stamp");
		return ID_YES;
	}
	if (r->has_birth && t->has_birth)
		snprintf(why, len, "it has the inode number of the run's target (%s, "
		         "inode %" PRIu64 ") but another birth stamp: a new file that got "
		         "the number after the run's target was removed", r->path, r->ino);
	else
		snprintf(why, len, "cannot say whether it is: it has the inode number of "
		         "the run's target (%s, inode %" PRIu64 "), but without a birth "
		         "stamp (%s) nothing tells the run's target that lost every "
		         "transaction from a new file that reused the number", r->path, r->ino,
		         !r->has_birth ? "the log records none" : "the file system keeps none");
	return ID_MAYBE;
}

/* ------------------------------------------------------------ slots */

/*
 * Every slot writer w's records name in run r's last point, in order,
 * handed to fn until it returns non-zero (which is returned).  The
 * newest acknowledged transaction of a slot is one of the last `slots`
 * acknowledged (sequences are consecutive); the one in flight, if any,
 * shares a slot with the acknowledged one slots before it.
 */
static int
writer_slots(const struct ckrun *r, const struct ckwriter *w,
             int (*fn)(const struct ckslot *s, void *arg), void *arg)
{
	int acked = w->seen && !(w->pending && w->issued == w->first);
	uint64_t a = w->pending ? w->issued - 1 : w->issued, span = 0, s;
	int shares = 0, x;
	struct ckslot sl;

	if (acked) {
		span = a - w->first + 1;
		if (!r->extend && span > r->slots)
			span = r->slots;
		shares = w->pending && !r->extend && span == r->slots;
	}
	for (s = a - span + 1; acked && s <= a; s++) {
		sl.acked = (int64_t)s;
		sl.off = txn_offset(r, w->k, s);
		sl.issued = shares && s + r->slots == w->issued ? (int64_t)w->issued : (int64_t)s;
		sl.issued_off = txn_offset(r, w->k, (uint64_t)sl.issued);
		if ((x = fn(&sl, arg)) != 0)
			return x;
	}
	if (w->seen && w->pending && !shares) {
		sl.acked = -1;
		sl.issued = (int64_t)w->issued;
		sl.issued_off = sl.off = txn_offset(r, w->k, w->issued);
		return fn(&sl, arg);
	}
	return 0;
}

/* Acknowledged slots of the run's last point. */
static uint64_t
acked_slots(const struct ckrun *r)
{
	uint64_t n = 0, span;
	int i;

	for (i = 0; i < r->nw; i++) {
		const struct ckwriter *w = &r->w[i];

		if (!w->seen || (w->pending && w->issued == w->first))
			continue;
		span = (w->pending ? w->issued - 1 : w->issued) - w->first + 1;
		n += !r->extend && span > r->slots ? r->slots : span;
	}
	return n;
}

/* Does the slot hold a transaction of the run (any point, writer)? */
struct holds {
	const struct ckrun *r;
	int fd;
	unsigned char *buf;
};

/* The run id of the intact transaction in slot s: 1 and *rid, or 0. */
static int
slot_rid(const struct holds *h, const struct ckslot *s, uint64_t *rid)
{
	uint64_t rseq, roff;
	uint32_t rpoint, rwriter;
	size_t size = (size_t)h->r->size;

	return pread(h->fd, h->buf, size, (off_t)s->off) == (ssize_t)size &&
	       sw_read_txn(h->buf, size, rid, &rpoint, &rwriter, &rseq, &roff) ==
	       SW_TXN_OK;
}

static int
holds_slot(const struct ckslot *s, void *arg)
{
	struct holds *h = arg;
	uint64_t rrid;

	return slot_rid(h, s, &rrid) && rrid == h->r->rid;
}

/*
 * The order of run id other against mine (check.h, SW_RID_TIME): 1 other
 * is of a later run, -1 of an earlier one, 0 cannot be told (the same
 * millisecond, or an id that is not time-ordered).
 */
static int
rid_order(uint64_t mine, uint64_t other)
{
	if (!(mine & SW_RID_ORDERED) || !(other & SW_RID_ORDERED) ||
	    SW_RID_TIME(mine) == SW_RID_TIME(other))
		return 0;
	return SW_RID_TIME(other) > SW_RID_TIME(mine) ? 1 : -1;
}

/* Does the slot hold an intact transaction of another run that is not
 * known to be earlier than run r (a run that may have written over the
 * target since)? */
static int
over_slot(const struct ckslot *s, void *arg)
{
	struct holds *h = arg;
	uint64_t rrid;

	return slot_rid(h, s, &rrid) && rrid != h->r->rid && rid_order(h->r->rid, rrid) >= 0;
}

/* Does any slot the log names answer fn (holds_slot, over_slot)?  Stops
 * at the first: 1, 0, or -1 out of memory. */
static int
scan_run(const struct ckrun *r, const char *target,
         int (*fn)(const struct ckslot *s, void *arg))
{
	char fpath[PATH_MAX + 16], why[PATH_MAX + 64];
	struct holds h;
	struct stat st;
	int i, found = 0;

	if (r->point < 0 || r->nw == 0)
		return 0;
	h.r = r;
	h.buf = malloc((size_t)r->size);
	if (h.buf == NULL)
		return -1;
	for (i = 0; i < r->nw && !found; i++) {
		part_path(r, target, r->w[i].k, fpath, sizeof(fpath));
		if ((h.fd = open_part(fpath, &st, why, sizeof(why))) < 0)
			continue;
		found = writer_slots(r, &r->w[i], fn, &h);
		close(h.fd);
	}
	free(h.buf);
	return found;
}

/* Does any slot the log names hold a transaction of run r? */
static int
holds_run(const struct ckrun *r, const char *target)
{
	return scan_run(r, target, holds_slot);
}

/* ------------------------------------------------------------ checking */

struct ckw {
	const struct ckrun *r;
	int k, fd;
	int over;                 /* another run (not earlier) wrote there  */
	const char *fpath;
	unsigned char *buf[3];
	struct cksum *n;
};

/* Compare one acknowledged or in-flight slot with what the target holds. */
static int
check_slot(const struct ckslot *s, void *arg)
{
	struct ckw *c = arg;
	const struct ckrun *g = c->r;
	struct cksum *n = c->n;
	size_t size = (size_t)g->size;
	uint64_t rrid = 0, rseq = 0, roff = 0, at = s->acked >= 0 ? s->off : s->issued_off;
	uint32_t rpoint = 0, rwriter = 0;
	int st, flight = s->issued > s->acked, mine, w = c->k;

	if (pread(c->fd, c->buf[0], size, (off_t)at) != (ssize_t)size)
		st = SW_TXN_MISSING;
	else
		st = sw_read_txn(c->buf[0], size, &rrid, &rpoint, &rwriter, &rseq, &roff);
	mine = st == SW_TXN_OK && rrid == g->rid && rpoint == (uint32_t)g->point &&
	       rwriter == (uint32_t)w && roff == at;
	n->flight += flight;
	if (s->acked < 0) {         /* never acknowledged: old or new data */
		if (mine && (int64_t)rseq == s->issued)
			n->flight_new++;
		else
			n->flight_old++;
		return 0;
	}
	n->acked++;
	if (mine && (int64_t)rseq >= s->acked) {
		if ((int64_t)rseq > s->acked)
			n->newer++;
		else
			n->ok++;
		if (flight && (int64_t)rseq == s->issued)
			n->flight_new++;
		else if (flight)
			n->flight_old++;
		if (s->acked > n->newest_ok)
			n->newest_ok = s->acked;
		return 0;
	}
	if (flight && st == SW_TXN_CORRUPT && s->issued_off == s->off) {
		/* sector by sector the acknowledged or the issued transaction */
		sw_make_txn(c->buf[1], size, g->rid, (uint32_t)g->point, (uint32_t)w,
		            (uint64_t)s->acked, s->off);
		sw_make_txn(c->buf[2], size, g->rid, (uint32_t)g->point, (uint32_t)w,
		            (uint64_t)s->issued, s->issued_off);
		if (sw_torn_mix(c->buf[0], c->buf[1], c->buf[2], size)) {
			n->flight_torn++;
			return 0;
		}
	}
	if (st == SW_TXN_OK && rrid != g->rid && rid_order(g->rid, rrid) >= 0) {
		/* A later run's transaction (or one of a run whose order
		 * cannot be told): that run wrote over this one's slot, which
		 * says nothing of this run's durability; not verifiable. */
		n->flight -= flight;
		if (rid_order(g->rid, rrid) > 0) {
			n->later++;
			if (n->later_rid == 0 || SW_RID_TIME(rrid) > SW_RID_TIME(n->later_rid))
				n->later_rid = rrid;
		} else {
			n->unordered++;
			n->unordered_rid = rrid;
		}
		return 0;
	}
	if (st != SW_TXN_OK && c->over) {
		/* No intact transaction, on a target another run wrote over
		 * since: its fill or its transactions of another size may
		 * be what is there; not verifiable. */
		n->flight -= flight;
		n->gap++;
		return 0;
	}
	/* A loss, whatever was in flight: zeros or garbage on a target no
	 * other run wrote over since, an older transaction of this run, or
	 * one of an earlier run (what a lying disk leaves on a device or
	 * file system used again). */
	n->flight -= flight;
	if (st == SW_TXN_CORRUPT)
		n->corrupt++;
	else
		n->lost++;
	if (n->first_missing < 0 || s->acked < n->first_missing)
		n->first_missing = s->acked;
	if (n->lost + n->corrupt <= 10)
		printf("  %s: writer %d, transaction %" PRId64 " at offset %" PRIu64
		       " was acknowledged but is %s\n", c->fpath, w, s->acked, s->off,
		       st == SW_TXN_CORRUPT ? "corrupt" : st == SW_TXN_MISSING ? "missing"
		       : rrid != g->rid ? "a transaction of an earlier run" : "an older transaction");
	return 0;
}

static void
add(struct cksum *t, const struct cksum *n)
{
	t->ok += n->ok;
	t->newer += n->newer;
	t->lost += n->lost;
	t->corrupt += n->corrupt;
	t->acked += n->acked;
	t->flight += n->flight;
	t->flight_old += n->flight_old;
	t->flight_new += n->flight_new;
	t->flight_torn += n->flight_torn;
	t->later += n->later;
	t->unordered += n->unordered;
	t->gap += n->gap;
	if (n->later_rid != 0 && (t->later_rid == 0 ||
	                          SW_RID_TIME(n->later_rid) > SW_RID_TIME(t->later_rid)))
		t->later_rid = n->later_rid;
	if (n->unordered_rid != 0)
		t->unordered_rid = n->unordered_rid;
}

/* Check writer w's slots in its file and say what was found; -1 when the
 * file cannot be read (said).  mine: the target is the run's by its
 * identity, so a writer's file (--layout separate) that is not there was
 * lost with everything in it. */
static int
check_writer(const struct ckrun *r, const struct ckwriter *w, const char *target,
             int mine, int over, unsigned char *buf[3], struct cksum *total)
{
	char fpath[PATH_MAX + 16], why[PATH_MAX + 64];
	struct cksum n;
	struct stat st;
	struct ckw c;

	memset(&n, 0, sizeof(n));
	n.newest_ok = n.first_missing = -1;
	part_path(r, target, w->k, fpath, sizeof(fpath));
	c.fd = open_part(fpath, &st, why, sizeof(why));
	if (c.fd < 0 && mine && errno == ENOENT && w->k > 0) {
		printf("  %s: no such file: all of writer %d's transactions are missing\n",
		       fpath, w->k);
	} else if (c.fd < 0) {
		diot_warn("--check: writer %d's file: %s: cannot check", w->k, why);
		return -1;
	}
	c.r = r;
	c.over = over;
	c.k = w->k;
	c.fpath = fpath;
	memcpy(c.buf, buf, sizeof(c.buf));
	c.n = &n;
	writer_slots(r, w, check_slot, &c);
	if (c.fd >= 0)
		close(c.fd);
	if (n.acked > 0) {
		printf("  writer %d: %" PRIu64 " acknowledged slots; newest acknowledged "
		       "transaction found: ", w->k, n.acked);
		if (n.newest_ok >= 0)
			printf("%" PRId64, n.newest_ok);
		else
			printf("none");
		if (n.first_missing >= 0)
			printf("; first missing: %" PRId64, n.first_missing);
		else
			printf("; none missing");
		if (n.later + n.unordered + n.gap)
			printf("; %" PRIu64 " not verifiable (another run wrote there)",
			       n.later + n.unordered + n.gap);
		printf("\n");
	}
	add(total, &n);
	return 0;
}

static int
verdict(const struct ckrun *r, const struct cksum *n)
{
	uint64_t unver = n->later + n->unordered + n->gap, found = n->ok + n->newer;

	printf("acknowledged slots: %" PRIu64 "; durable: %" PRIu64 " (%" PRIu64
	       " of them overwritten by a later transaction); torn in-flight "
	       "(never acknowledged): %" PRIu64 "; lost: %" PRIu64 "; corrupt: %"
	       PRIu64 "\n", n->acked, n->ok + n->newer, n->newer, n->flight_torn, n->lost,
	       n->corrupt);
	printf("in flight (issued, not acknowledged): %" PRIu64 ", holding the new "
	       "data %" PRIu64 ", the old %" PRIu64 ", torn %" PRIu64 " (none of these is "
	       "a loss)\n", n->flight, n->flight_new, n->flight_old, n->flight_torn);
	if (unver) {
		printf("not verifiable (none of them a loss): %" PRIu64 " acknowledged "
		       "slots", unver);
		if (n->later)
			printf("; %" PRIu64 " slots overwritten by a later run %" PRIx64,
			       n->later, n->later_rid);
		if (n->unordered)
			printf("; %" PRIu64 " slots hold a transaction of run %" PRIx64 ", "
			       "which cannot be told to be earlier or later than run %" PRIx64,
			       n->unordered, n->unordered_rid, r->rid);
		if (n->gap)
			printf("; %" PRIu64 " slots hold no intact transaction, on a target "
			       "another run wrote over since", n->gap);
		printf("\n");
	}
	if (n->lost || n->corrupt) {
		printf("FAILED: %" PRIu64 " acknowledged transactions are not on stable "
		       "storage\n", n->lost + n->corrupt);
		return SW_CHECK_LOST;
	}
	if (unver && found == 0) {
		diot_warn("--check: could not check: another run (%" PRIx64 ") wrote over "
		          "this target since run %" PRIx64 ", so none of its %" PRIu64
		          " acknowledged slots could be verified", n->later_rid ? n->later_rid
		          : n->unordered_rid, r->rid, n->acked);
		return SW_CHECK_CANNOT;
	}
	if (unver) {
		printf("OK: every acknowledged transaction that could be verified (%" PRIu64
		       " of %" PRIu64 ") is on stable storage\n", found, n->acked);
		return SW_CHECK_OK;
	}
	printf("OK: every acknowledged transaction is on stable storage\n");
	return SW_CHECK_OK;
}

/* Check run r's last point on target (mine: the run's by its identity). */
static int
check_run(const struct ckrun *r, const char *target, int mine)
{
	unsigned char *buf[3];
	struct cksum n;
	int i, bad = 0, over;

	printf("checking point %d (%s, %" PRIu64 "-byte transactions, %d writer%s) of "
	       "run %" PRIx64 " on %s%s\n", r->point, r->method, r->size, r->writers,
	       r->writers == 1 ? "" : "s", r->rid, target,
	       r->ended ? " (the run had ended cleanly)" : "");
	if (r->torn_tail == 2)
		printf("  the log ends in NUL bytes (a file system's tail after a crash, "
		       "where the log's size got ahead of its data): ignored\n");
	else if (r->torn_tail)
		printf("  the log's last line was cut short (the crash): ignored\n");
	for (i = 0; i < 3; i++)
		buf[i] = malloc((size_t)r->size);
	if (buf[0] == NULL || buf[1] == NULL || buf[2] == NULL) {
		diot_warn("--check: out of memory");
		bad = 1;
	}
	memset(&n, 0, sizeof(n));
	/* Has another run, not known to be earlier, written over the target
	 * since?  Then a slot without an intact transaction is no proof of a
	 * loss. */
	over = bad ? 0 : scan_run(r, target, over_slot);
	if (over < 0) {
		diot_warn("--check: out of memory");
		bad = 1;
	}
	for (i = 0; i < r->nw && !bad; i++)
		bad = check_writer(r, &r->w[i], target, mine, over, buf, &n) < 0;
	for (i = 0; i < 3; i++)
		free(buf[i]);
	return bad ? SW_CHECK_CANNOT : verdict(r, &n);
}

/* ------------------------------------------------------------ which run */

/* The target to check when none is named: the path every run names. */
static const char *
default_target(const struct sw_acklog *g)
{
	int i;

	for (i = 1; i < g->nrun; i++)
		if (strcmp(g->run[i].path, g->run[0].path) != 0)
			break;
	if (i == g->nrun)
		return g->run[0].path;
	diot_warn("--check: the log holds %d runs on different targets (run %" PRIx64
	          " at line %lu on %s, run %" PRIx64 " at line %lu on %s%s): name the "
	          "TARGET to check", g->nrun, g->run[0].rid, g->run[0].line, g->run[0].path,
	          g->run[i].rid, g->run[i].line, g->run[i].path, g->nrun > 2 ? ", ..." : "");
	return NULL;
}

/* Nothing to check in run r: said, SW_CHECK_CANNOT; else 0. */
static int
nothing_to_check(const struct ckrun *r)
{
	if (r->point < 0)
		diot_warn("--check: run %" PRIx64 " recorded no point: nothing to check "
		          "(no acknowledged transaction to check)", r->rid);
	else if (acked_slots(r) == 0)
		diot_warn("--check: the last point of run %" PRIx64 " (point %d) has no "
		          "acknowledged transaction to check", r->rid, r->point);
	else
		return 0;
	return SW_CHECK_CANNOT;
}

int
sw_check_stream(FILE *fp, const char *logname, const char *target_arg)
{
	char err[PATH_MAX + 1024], why[PATH_MAX + 512];
	struct sw_acklog *g;
	struct cktarget t;
	const char *target;
	int i, j, id = ID_NO, h = 0, pick = -1, st;

	if (sw_acklog_read(fp, logname, &g, err, sizeof(err)) != 0) {
		diot_warn("%s", err);
		return SW_CHECK_CANNOT;
	}
	target = target_arg ? target_arg : default_target(g);
	/* One run with nothing to check: said before anything else. */
	if (target == NULL || (g->nrun == 1 && nothing_to_check(&g->run[0]) != 0)) {
		sw_acklog_free(g);
		return SW_CHECK_CANNOT;
	}
	if (target_facts(target, &t, why, sizeof(why)) < 0) {
		diot_warn("--check: target %s (the log names %s)", why,
		          g->run[g->nrun - 1].path);
		sw_acklog_free(g);
		return SW_CHECK_CANNOT;
	}
	/* The newest run this is the target of. */
	for (i = g->nrun - 1; i >= 0 && pick < 0; i--) {
		struct ckrun *r = &g->run[i];

		id = identity(r, &t, why, sizeof(why));
		if (id == ID_NO) {
			if (g->nrun == 1)
				diot_warn("--check: '%s' is not the target of run %" PRIx64 ": %s",
				          target, r->rid, why);
			else
				diot_warn("--check: run %" PRIx64 " (lines %lu-%lu): '%s' is not "
				          "its target: %s", r->rid, r->line, r->last, target, why);
			continue;
		}
		h = holds_run(r, target);
		if (h < 0) {
			diot_warn("--check: out of memory");
			sw_acklog_free(g);
			return SW_CHECK_CANNOT;
		}
		if (h || id == ID_YES) {
			pick = i;
			break;
		}
		if (g->nrun == 1)
			diot_warn("--check: '%s' holds no transaction of run %" PRIx64 " in any "
			          "slot the log names: %s%s", target, r->rid,
			          strncmp(why, "cannot say", 10) == 0 ? "" : "it is not that "
			          "run's target: ", why);
		else
			diot_warn("--check: run %" PRIx64 " (lines %lu-%lu): '%s' holds none of "
			          "its transactions: %s", r->rid, r->line, r->last, target, why);
	}
	if (pick < 0) {
		if (g->nrun > 1)
			diot_warn("--check: '%s' is not the target of any of the %d runs of the "
			          "log '%s': nothing to check", target, g->nrun, logname);
		sw_acklog_free(g);
		return SW_CHECK_CANNOT;
	}
	for (j = 0; j < g->nrun; j++)
		if (j != pick && g->run[j].rid == g->run[pick].rid) {
			diot_warn("--check: the runs at lines %lu and %lu have the same run id "
			          "%" PRIx64 ": the log was pieced together, and which records "
			          "belong to which run cannot be told", g->run[j].line,
			          g->run[pick].line, g->run[pick].rid);
			sw_acklog_free(g);
			return SW_CHECK_CANNOT;
		}
	if (g->nrun > 1)
		printf("the log holds %d runs; run %" PRIx64 " (lines %lu-%lu) is checked: "
		       "the newest run on '%s' (%s)%s\n", g->nrun, g->run[pick].rid,
		       g->run[pick].line, g->run[pick].last, target,
		       h ? "it holds transactions of that run" : why,
		       pick > 0 ? "; the older runs are not checked: a newer run on a "
		       "target writes over what they left" : "");
	st = nothing_to_check(&g->run[pick]);
	if (st == 0)
		st = check_run(&g->run[pick], target, id == ID_YES);
	sw_acklog_free(g);
	return st;
}

int
sw_check_main(const char *log, const char *target_arg)
{
	struct stat st;
	FILE *fp;
	int r;

	if (strcmp(log, "-") == 0)
		return sw_check_stream(stdin, "standard input", target_arg);
	/* Not a directory or a device, which could be read for ever (a FIFO
	 * or standard input is a stream someone means). */
	if (stat(log, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISCHR(st.st_mode) ||
	                            S_ISBLK(st.st_mode))) {
		diot_warn("--check: ack log '%s' is a %s, not a log file", log,
		          S_ISDIR(st.st_mode) ? "directory" : "device");
		return SW_CHECK_CANNOT;
	}
	fp = fopen(log, "r");
	if (fp == NULL) {
		diot_warn("--check: cannot open ack log '%s': %s", log, dio_strerror(-errno));
		return SW_CHECK_CANNOT;
	}
	r = sw_check_stream(fp, log, target_arg);
	fclose(fp);
	return r;
}
