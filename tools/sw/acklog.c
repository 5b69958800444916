/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * acklog.c -- sync-write's ack log as --check reads it (check.c is the
 * check; check.h the reader's interface; each line is parsed by
 * sw_ackrec_parse(), ackrec.c, the records' one owner).
 *
 * The log.  Each run appends the version line, then R (run id,
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
#include "tools/sw/ackrec.h"
#include "tools/sw/check.h"
#include "tools/sw/check-internal.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

#define CK_LINE_MAX DIOT_ACK_LINE_MAX   /* the longest record a run writes */
#define CK_MAX_REGION (1ull << 50)      /* --region's bound (args.c) */
#define CK_MAX_SEQ (1ull << 62)

enum { ST_HEADER, ST_RUN, ST_BODY, ST_END };

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

/* The records below: ok says the line parsed as its type (rec); what
 * --check asks beyond that (bounds, order, the layout) is here. */
static int
log_run(struct sw_acklog *g, struct ckrun *r, int ok, const struct sw_ackrec *rec)
{
	if (r->state != ST_HEADER)
		return malformed(g, "R line: a run has one, right after its header");
	if (!ok || rec->region > CK_MAX_REGION || rec->region == 0 ||
	    rec->path_len >= PATH_MAX)
		return malformed(g, "R line (R RUN-ID shared|separate 0|1 REGION PATH, "
		                 "REGION from 1 to %llu)", CK_MAX_REGION);
	if ((r->path = malloc(rec->path_len + 1)) == NULL)
		return malformed(g, "log: out of memory");
	memcpy(r->path, rec->path, rec->path_len);
	r->path[rec->path_len] = '\0';
	r->rid = rec->run_id;
	r->region = rec->region;
	r->separate = rec->separate;
	r->extend = rec->extend;
	r->state = ST_RUN;
	return 0;
}

static int
log_identity(struct sw_acklog *g, struct ckrun *r, int ok, const struct sw_ackrec *rec)
{
	unsigned long long bytes = rec->dev_bytes;

	if (r->state != ST_RUN)
		return malformed(g, "T line: a run has one, right after its R line");
	if (!ok)
		return malformed(g, "T line (T file|device INODE DEVICE-BYTES [BIRTH])");
	r->is_dev = rec->is_dev;
	if (r->is_dev ? bytes == 0 : bytes != 0)
		return malformed(g, "T line: a %s has %s DEVICE-BYTES, not %llu",
		                 r->is_dev ? "device" : "file", r->is_dev ? "its size as" :
		                 "0 as", bytes);
	if (r->is_dev && r->separate)
		return malformed(g, "T line: a device, but the R line says --layout "
		                 "separate (files of their own)");
	r->ino = rec->ino;
	r->dev_bytes = rec->dev_bytes;
	r->birth = rec->birth;
	r->has_birth = rec->birth != 0;
	r->has_id = 1;
	r->state = ST_BODY;
	return 0;
}

/* A "P" line: a new point, its writers' records from scratch. */
static int
log_point(struct sw_acklog *g, struct ckrun *r, int ok, const struct sw_ackrec *rec)
{
	unsigned long long pt = (unsigned)rec->point, size = rec->size, slots = rec->slots;

	if (r->state == ST_HEADER || r->state == ST_END)
		return malformed(g, "P line: %s", r->state == ST_END ?
		                 "after the run's E line (its end)" : "before the run's R line");
	if (!ok || rec->method_len >= sizeof(r->method) || size > SW_MAX_SIZE ||
	    size < SW_HDR_SIZE || rec->writers > SW_MAX_WRITERS || rec->writers < 1)
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
	r->writers = rec->writers;
	r->slots = slots;
	memcpy(r->method, rec->method, rec->method_len);
	r->method[rec->method_len] = '\0';
	r->nw = 0;
	r->state = ST_BODY;
	return 0;
}

/* Where writer k's transaction seq goes (txn.c: the writers' rule). */
uint64_t
sw_ck_txn_offset(const struct ckrun *r, int k, uint64_t seq)
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
log_txn(struct sw_acklog *g, struct ckrun *r, int ok, const struct sw_ackrec *rec)
{
	unsigned long long k = (unsigned)rec->writer, seq = rec->seq, off = rec->off;
	struct ckwriter *w;
	char c = (char)rec->type;
	uint64_t want;
	int oom = 0;

	if (r->point < 0 || r->state == ST_END)
		return malformed(g, "%c line: %s", c, r->point < 0 ? "before any P line"
		                 : "after the run's E line (its end)");
	if (!ok || rec->writer > r->writers - 1 || seq > CK_MAX_SEQ)
		return malformed(g, "%c line (%c WRITER SEQUENCE OFFSET, WRITER below %d)",
		                 c, c, r->writers);
	if (r->extend && seq >= r->slots)
		return malformed(g, "%c line: transaction %llu of writer %llu, but with "
		                 "--extend a writer stops at its region's %llu slots", c, seq,
		                 k, (unsigned long long)r->slots);
	want = sw_ck_txn_offset(r, (int)k, seq);
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
	size_t h = sizeof(SW_ACKREC_VERSION) - 1;

	return n > h && strcmp(line + n - h, SW_ACKREC_VERSION) == 0;
}

/* One whole line without its newline. */
static int
log_line(struct sw_acklog *g, char *line, size_t n)
{
	struct ckrun *r = cur(g);
	struct sw_ackrec rec;
	int ok = sw_ackrec_parse(line, n, &rec);

	if (ok && rec.type == '#')
		return new_run(g);
	if (r->state != ST_HEADER && torn_header(line, n)) {
		/* The previous run's last record, cut short by a crash, then
		 * this run's header (appended with --force). */
		r->torn_tail = 1;
		return new_run(g);
	}
	r->last = g->lineno;
	switch (rec.type) {
	case 'R': return log_run(g, r, ok, &rec);
	case 'T': return log_identity(g, r, ok, &rec);
	case 'P': return log_point(g, r, ok, &rec);
	case 'I': case 'A': return log_txn(g, r, ok, &rec);
	case 'E':
		if (!ok)
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
		if (g->lineno == 1 && (rl != 1 || strcmp(line, SW_ACKREC_VERSION) != 0)) {
			snprintf(err, errlen, "'%s' is not a sync-write ack log (its first "
			         "line is not '%s')", name, SW_ACKREC_VERSION);
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
