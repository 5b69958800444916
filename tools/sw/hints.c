/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hints.c -- the tables' text: lines wrapped to the table's width, and
 * the hint lines under a table (what a point's figures suggest: a flush
 * that cannot be that fast, writes that may not have been direct, commits
 * on a target where nothing is durable or where that cannot be told, rows
 * without a commit whose writes are commits all the same; and what the
 * disks' counters show: no flush reached a volatile cache, commits merged
 * into fewer flushes, more bytes written than the transactions), for
 * report.c (a run's table) and compare-report.c (a comparison's).
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/sw/sw.h"

/* ------------------------------------------------------------ text */

/* A string that grows (dies when out of memory). */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) DIOT_PRINTF(2, 3);

static void
sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = 2 * (b->len + (size_t)n + 1);
		char *t = realloc(b->s, cap);

		if (t == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		b->s = t;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Columns of s[0..len): UTF-8 characters (a byte that continues one
 * does not count). */
static int
cols(const char *s, size_t len)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

void
sw_put_wrapped(FILE *fp, const char *lead, int indent, const char *text, int width)
{
	int col = cols(lead, strlen(lead)), words = 0;
	const char *p = text;

	fputs(lead, fp);
	while (*p != '\0') {
		size_t len = strcspn(p, " ");
		int w = cols(p, len);

		if (len == 0) {                 /* a space: kept within a line */
			p++;
			continue;
		}
		if (words > 0 && width > 0 && col + 1 + w > width) {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
			words = 0;
		} else if (words > 0) {
			fputc(' ', fp);
			col++;
		}
		fwrite(p, 1, len, fp);
		col += w;
		words++;
		p += len;
	}
	fputc('\n', fp);
}

/* ------------------------------------------------------------ hints */

/*
 * A hint is said once per method (and target): "hint: fsync at 512..1048576
 * B with 1 writer (13 rows): medians 33..662 us, faster than a flush can
 * be", and after a run's hints, once, why that matters.  The
 * rows it covers are named by their sizes (a..b: every row from a to b, in
 * the table's order) for each number of writers.  Rows are in the table's
 * order, writers outermost, so a method's rows with one number of writers
 * follow each other.
 */

/* The sizes of a run of rows, a to b (n of them), after what sizes has. */
static void
sizes_run(struct sbuf *sizes, uint64_t a, uint64_t b, int n)
{
	if (n == 0)
		return;
	sb_add(sizes, "%s%" PRIu64, sizes->len ? ", " : "", a);
	if (n > 1)
		sb_add(sizes, "%s%" PRIu64, n > 2 ? ".." : ", ", b);
}

/* For method m and hint kind k: a block per number of writers, the sizes
 * of its rows with the hint; "" for a block without. */
struct hint_block {
	int writers;
	struct sbuf sizes;
};

/* A row has a hint of kind k (its own or one of its device hints). */
static int
has_kind(const struct sw_hint_row *r, int k)
{
	int i;

	if (r->kind == k)
		return 1;
	for (i = 0; i < SW_POINT_DEV_HINTS; i++)
		if (r->dev_kind[i] == k && k != SW_HINT_NONE)
			return 1;
	return 0;
}

/* The figure a line of kind k gives the range of. */
static double
figure(const struct sw_hint_row *r, int k)
{
	switch (k) {
	case SW_HINT_DEV_NO_FLUSH:
	case SW_HINT_DEV_CACHE_HIDDEN:
	case SW_HINT_DEV_MERGED:
		return r->flushes_per_txn > 0 ? r->flushes_per_txn : 0.0;
	case SW_HINT_DEV_AMPLIFIED:
		return r->amplification;
	default:
		return r->p50_us;
	}
}

/* "lo..hi" in format fmt (one number where both print the same). */
static void
range(char *buf, size_t len, const char *fmt, double lo, double hi)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), fmt, lo);
	snprintf(b, sizeof(b), fmt, hi);
	if (strcmp(a, b) == 0)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s..%s", a, b);
}

/* Min and max of x over the rows of method m with kind k. */
struct span {
	double lo, hi;
	int n;
};

static void
span_add(struct span *s, double x)
{
	s->lo = s->n == 0 || x < s->lo ? x : s->lo;
	s->hi = s->n == 0 || x > s->hi ? x : s->hi;
	s->n++;
}

static void
hint_line(FILE *fp, const char *run, const struct sw_hint_row *rows, int n, int g,
          int kind, int width)
{
	const char *m = rows[g].method;
	int i, nb = 0, cap = 0, covered = 0, same = 1, runlen = 0;
	struct hint_block *bl = NULL;
	struct sbuf text = { NULL, 0, 0 };
	struct span bytes = { 0, 0, 0 }, size = { 0, 0, 0 };
	uint64_t ra = 0, rb = 0;
	double lo = 0, hi = 0;

	for (i = 0; i <= n; i++) {
		int mine = i < n && strcmp(rows[i].method, m) == 0;

		if ((i == n || (mine && nb > 0 && rows[i].writers != bl[nb - 1].writers) ||
		     (mine && !has_kind(&rows[i], kind))) && nb > 0) {
			sizes_run(&bl[nb - 1].sizes, ra, rb, runlen);
			runlen = 0;
		}
		if (!mine)
			continue;
		if (nb == 0 || rows[i].writers != bl[nb - 1].writers) {
			if (nb == cap) {
				struct hint_block *t;

				cap = cap ? 2 * cap : 8;
				t = realloc(bl, (size_t)cap * sizeof(*bl));
				if (t == NULL)
					diot_die(DIOT_EXIT_FAIL, "out of memory");
				bl = t;
			}
			memset(&bl[nb], 0, sizeof(bl[nb]));
			bl[nb++].writers = rows[i].writers;
		}
		if (!has_kind(&rows[i], kind))
			continue;
		if (runlen++ == 0)
			ra = rows[i].size;
		rb = rows[i].size;
		lo = covered == 0 || figure(&rows[i], kind) < lo ? figure(&rows[i], kind) : lo;
		hi = covered == 0 || figure(&rows[i], kind) > hi ? figure(&rows[i], kind) : hi;
		span_add(&bytes, rows[i].bytes_per_txn);
		span_add(&size, (double)rows[i].size);
		covered++;
	}
	/* The blocks with rows covered: one list of sizes for all, or each's. */
	for (i = 0; i < nb; i++)
		if (bl[i].sizes.len == 0) {
			free(bl[i].sizes.s);
			memmove(&bl[i], &bl[i + 1], (size_t)(nb - i - 1) * sizeof(*bl));
			nb--;
			i--;
		}
	for (i = 1; i < nb; i++)
		same &= strcmp(bl[i].sizes.s, bl[0].sizes.s) == 0;
	sb_add(&text, "%s%s at ", run, m);
	for (i = 0; i < nb; i++) {
		if (same && i > 0)
			sb_add(&text, "%s%d", i == nb - 1 ? " and " : ", ", bl[i].writers);
		else
			sb_add(&text, "%s%s B with %d", i ? "; " : "", bl[i].sizes.s,
			       bl[i].writers);
		if (!same || i == nb - 1)
			sb_add(&text, " writer%s", same ? (nb > 1 || bl[i].writers > 1 ? "s" : "")
			       : bl[i].writers > 1 ? "s" : "");
	}
	sb_add(&text, " (%d row%s): ", covered, covered == 1 ? "" : "s");
	if (kind == SW_HINT_FAST_FLUSH) {
		char v[64];

		if (covered == 1 || (int)(lo + 0.5) == (int)(hi + 0.5))
			snprintf(v, sizeof(v), "%.0f", hi);
		else
			snprintf(v, sizeof(v), "%.0f..%.0f", lo, hi);
		sb_add(&text, "median%s %s us, faster than a flush can be", covered == 1 ?
		       "" : "s", v);
	} else if (kind == SW_HINT_SYNC_ALWAYS) {
		sb_add(&text, "without a commit, yet every write is committed");
	} else if (kind == SW_HINT_STABLE_DIRECT) {
		sb_add(&text, "without a commit, yet each direct write is a stable one");
	} else if (kind == SW_HINT_DEV_NO_FLUSH || kind == SW_HINT_DEV_CACHE_HIDDEN) {
		char v[64];

		range(v, sizeof(v), "%.2f", lo, hi);
		sb_add(&text, "not durable: %s flushes per transaction reached %s", v,
		       rows[g].dev_disks && rows[g].dev_disks[0] ? rows[g].dev_disks
		       : "the disk");
	} else if (kind == SW_HINT_DEV_MERGED) {
		char v[64];

		range(v, sizeof(v), "%.2f", lo, hi);
		sb_add(&text, "the device merged commits: %s flushes per transaction", v);
	} else if (kind == SW_HINT_DEV_AMPLIFIED) {
		char v[64], b[64], z[64];

		range(v, sizeof(v), "%.2f", lo, hi);
		range(b, sizeof(b), "%.0f", bytes.lo, bytes.hi);
		range(z, sizeof(z), "%.0f", size.lo, size.hi);
		sb_add(&text, "the device wrote %s bytes per transaction of %s (x%s)", b, z,
		       v);
	} else {
		sb_add(&text, "these writes may not have been direct");
	}
	sw_put_wrapped(fp, "hint: ", 6, text.s, width);
	for (i = 0; i < nb; i++)
		free(bl[i].sizes.s);
	free(bl);
	free(text.s);
}

/* The rows of SW_HINT_NOT_DURABLE: one line for all their methods (the
 * target is the reason, not a method), e.g. "hint: fsync, dsync (26
 * rows): nothing is durable here: tmpfs keeps its files in memory only:
 * ...". */
static void
not_durable_line(FILE *fp, const char *run, const struct sw_hint_row *rows, int n,
                 const char *why, int width)
{
	struct sbuf text = { NULL, 0, 0 };
	int i, j, covered = 0, names = 0;

	for (i = 0; i < n; i++) {
		if (rows[i].kind != SW_HINT_NOT_DURABLE)
			continue;
		covered++;
		for (j = 0; j < i; j++)
			if (rows[j].kind == SW_HINT_NOT_DURABLE &&
			    strcmp(rows[j].method, rows[i].method) == 0)
				break;
		if (j == i)
			sb_add(&text, "%s%s", names++ ? ", " : run, rows[i].method);
	}
	if (covered == 0)
		return;
	sb_add(&text, " (%d row%s): %s%s", covered, covered == 1 ? "" : "s",
	       sw_durable_lead(why), why && why[0] ? why : "this file system "
	       "makes nothing durable");
	sw_put_wrapped(fp, "hint: ", 6, text.s, width);
	free(text.s);
}

const char *
sw_dev_hint_name(int kind)
{
	switch (kind) {
	case SW_HINT_DEV_NO_FLUSH:
		return "no_flush";
	case SW_HINT_DEV_CACHE_HIDDEN:
		return "cache_hidden";
	case SW_HINT_DEV_MERGED:
		return "merged";
	case SW_HINT_DEV_AMPLIFIED:
		return "amplified";
	default:
		return "none";
	}
}

void
sw_hint_row_of(struct sw_hint_row *row, const struct sw_point *p)
{
	int i;

	memset(row, 0, sizeof(*row));
	row->method = p->method;
	row->size = p->size;
	row->writers = p->writers;
	row->kind = p->hint_kind;
	row->p50_us = p->agg.p50_us;
	for (i = 0; i < SW_POINT_DEV_HINTS; i++)
		row->dev_kind[i] = p->dev_hint_kind[i];
	row->flushes_per_txn = p->dev.flushes_per_txn;
	row->bytes_per_txn = p->dev.bytes_per_txn;
	row->amplification = p->dev.amplification;
	row->dev_disks = p->dev_disks;
}

void
sw_put_hints(FILE *fp, const char *run, const struct sw_hint_row *rows, int n,
             const char *disk, const char *fs, const char *not_durable, int is_dev,
             int width)
{
	/* The device's "not durable" first: it is what matters most. */
	static const int kinds[] = { SW_HINT_DEV_NO_FLUSH, SW_HINT_DEV_CACHE_HIDDEN,
	                             SW_HINT_FAST_FLUSH, SW_HINT_CACHED_DIRECT,
	                             SW_HINT_SYNC_ALWAYS, SW_HINT_STABLE_DIRECT,
	                             SW_HINT_DEV_MERGED, SW_HINT_DEV_AMPLIFIED };
	const char **seen = NULL;
	const char *disks[sizeof(kinds) / sizeof(kinds[0])] = { NULL };
	int i, j, k, nseen = 0, said[sizeof(kinds) / sizeof(kinds[0])] = { 0 };
	char *why;

	not_durable_line(fp, run, rows, n, not_durable, width);
	/* In the order of the methods in the table (a few: the list of those
	 * seen is short); a line per kind. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < nseen; j++)
			if (strcmp(seen[j], rows[i].method) == 0)
				break;
		if (j < nseen)
			continue;
		if (nseen % 16 == 0) {
			const char **t = realloc(seen, (size_t)(nseen + 16) * sizeof(*seen));

			if (t == NULL)
				diot_die(DIOT_EXIT_FAIL, "out of memory");
			seen = t;
		}
		seen[nseen++] = rows[i].method;
		for (k = 0; k < (int)(sizeof(kinds) / sizeof(kinds[0])); k++)
			for (j = i; j < n; j++)
				if (has_kind(&rows[j], kinds[k]) && strcmp(rows[j].method,
				                                           rows[i].method) == 0) {
					hint_line(fp, run, rows, n, j, kinds[k], width);
					said[k] = 1;
					if (disks[k] == NULL)
						disks[k] = rows[j].dev_disks;
					break;
				}
	}
	free(seen);
	/* Why, once for all the lines of a kind. */
	for (k = 0; k < (int)(sizeof(kinds) / sizeof(kinds[0])); k++)
		if (said[k] && (kinds[k] == SW_HINT_DEV_NO_FLUSH ||
		                kinds[k] == SW_HINT_DEV_CACHE_HIDDEN)) {
			why = sw_dev_hint_why(kinds[k], disks[k], is_dev);
			sw_put_wrapped(fp, "      ", 6, why, width);
			free(why);
		}
	if (said[2]) {
		why = diot_strdupf("a flush on a spinning disk (%s says it spins) takes "
		                   "longer: that is a volatile cache that is not flushed, a "
		                   "non-volatile one, or a virtual disk (see dio-info)",
		                   disk && disk[0] ? disk : "the disk");
		sw_put_wrapped(fp, "      ", 6, why, width);
		free(why);
	}
	if (said[3]) {
		why = diot_strdupf("may not have been direct: %s serves direct requests "
		                   "through its cache while the file has any cached page, and "
		                   "the file had some as these rows began (left by the "
		                   "prefill, by --no-prefill's file, or by buffered rows "
		                   "before them where the cache cannot be dropped)",
		                   fs && fs[0] ? fs : "the file system");
		sw_put_wrapped(fp, "      ", 6, why, width);
		free(why);
	}
	if (said[4])
		sw_put_wrapped(fp, "      ", 6, "ZFS sync=always: every write is committed "
		               "before it returns, so these rows time commits, not "
		               "buffered or plain direct writes", width);
	if (said[5])
		sw_put_wrapped(fp, "      ", 6, "on NFS (illumos) a direct write is a "
		               "stable (FILE_SYNC) write: the server commits each one "
		               "before it answers, so these rows time commits", width);
	for (k = 6; k < (int)(sizeof(kinds) / sizeof(kinds[0])); k++)
		if (said[k]) {
			why = sw_dev_hint_why(kinds[k], disks[k], is_dev);
			sw_put_wrapped(fp, "      ", 6, why, width);
			free(why);
		}
}
