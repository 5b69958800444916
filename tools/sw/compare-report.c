/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare-report.c -- sync-write --compare's outputs: the table (a column
 * group per run, ratios against the first), CSV (a row per point and
 * run), JSON (tools/sync-write-compare.schema.json) and the plot (one line
 * per run and method, through plot.c).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/json.h"
#include "tools/kit/msg.h"
#include "tools/sw/compare.h"

/* Run r's point of key k, or NULL (only for keys not shared). */
static const struct cmp_point *
point_of(const struct cmp *c, const struct cmp_key *k, int r)
{
	return k->at[r] < 0 ? NULL : &c->runs[r].pts[k->at[r]];
}

static double
value(const struct cmp_point *p, double v)
{
	return p != NULL && p->measured ? v : NAN;
}

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

static void
hint_line(FILE *fp, const char *run, const struct sw_hint_row *rows, int n, int g,
          int width)
{
	const char *m = rows[g].method;
	int kind = rows[g].kind, i, nb = 0, cap = 0, covered = 0, same = 1, runlen = 0;
	struct hint_block *bl = NULL;
	struct sbuf text = { NULL, 0, 0 };
	uint64_t ra = 0, rb = 0;
	double lo = 0, hi = 0;

	for (i = 0; i <= n; i++) {
		int mine = i < n && strcmp(rows[i].method, m) == 0;

		if ((i == n || (mine && nb > 0 && rows[i].writers != bl[nb - 1].writers) ||
		     (mine && rows[i].kind != kind)) && nb > 0) {
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
		if (rows[i].kind != kind)
			continue;
		if (runlen++ == 0)
			ra = rows[i].size;
		rb = rows[i].size;
		lo = covered == 0 || rows[i].p50_us < lo ? rows[i].p50_us : lo;
		hi = covered == 0 || rows[i].p50_us > hi ? rows[i].p50_us : hi;
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
	} else {
		sb_add(&text, "these writes may not have been direct");
	}
	sw_put_wrapped(fp, "hint: ", 6, text.s, width);
	for (i = 0; i < nb; i++)
		free(bl[i].sizes.s);
	free(bl);
	free(text.s);
}

void
sw_put_hints(FILE *fp, const char *run, const struct sw_hint_row *rows, int n,
             const char *disk, const char *fs, int width)
{
	static const int kinds[] = { SW_HINT_FAST_FLUSH, SW_HINT_CACHED_DIRECT };
	const char **seen = NULL;
	int i, j, k, nseen = 0, said[2] = { 0, 0 };
	char *why;

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
				if (rows[j].kind == kinds[k] && strcmp(rows[j].method,
				                                       rows[i].method) == 0) {
					hint_line(fp, run, rows, n, j, width);
					said[k] = 1;
					break;
				}
	}
	free(seen);
	/* Why, once for all the lines of a kind. */
	if (said[0]) {
		why = diot_strdupf("a flush on a spinning disk (%s says it spins) takes "
		                   "longer: that is a volatile cache that is not flushed, a "
		                   "non-volatile one, or a virtual disk (see dio-info)",
		                   disk && disk[0] ? disk : "the disk");
		sw_put_wrapped(fp, "      ", 6, why, width);
		free(why);
	}
	if (said[1]) {
		why = diot_strdupf("may not have been direct: %s serves direct requests "
		                   "through its cache while the file has any cached page, and "
		                   "the prefill left some", fs && fs[0] ? fs : "the file system");
		sw_put_wrapped(fp, "      ", 6, why, width);
		free(why);
	}
}

/* ------------------------------------------------------------ table */

#define METHOD_W 16
#define LEFT (METHOD_W + 1 + 9 + 1 + 3)   /* method size_B wr           */
#define GROUP1 29                /* avg_us p99_us txn/s             */
#define GROUPN (GROUP1 + 15)     /* and the two ratios              */

static int
width_of(const struct cmp *c)
{
	return c->wide ? 0 : SW_TABLE_COLS;
}

static void
num(FILE *fp, int width, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(fp, fmt, width, v);
	else
		fprintf(fp, "%*s", width, "-");
}

static void
table_runs(FILE *fp, const struct cmp *c)
{
	char lead[32], *t;
	int r;

	if (c->interleaved)
		t = diot_strdupf("%d targets measured interleaved (each point on every "
		                 "target in turn, under the same conditions), %d point%s; "
		                 "times are microseconds per transaction (write + commit); "
		                 "x: run N / run 1", c->nruns, c->nshared,
		                 c->nshared == 1 ? "" : "s");
	else
		t = diot_strdupf("%d runs, %d point%s in all of them; times are microseconds "
		                 "per transaction (write + commit); x: run N / run 1",
		                 c->nruns, c->nshared, c->nshared == 1 ? "" : "s");
	sw_put_wrapped(fp, c->interleaved ? "sync-write: " : "sync-write --compare: ", 2, t,
	               width_of(c));
	free(t);
	for (r = 0; r < c->nruns; r++) {
		const struct cmp_run *u = &c->runs[r];
		/* Names are bytes (a TARGET with a newline): one line each. */
		char *label = diot_visible(u->label), *file = diot_visible(u->file);
		char *target = diot_visible(u->target), *host = diot_visible(u->host);

		t = diot_strdupf("%s%s%s: %s (%s, %s%s%s), host %s, %s, %s, %s backend%s",
		                 label, u->file ? " = " : "", u->file ? file : "",
		                 target, u->kind, u->fs,
		                 u->disk[0] ? " on " : "", u->disk, u->host[0] ? host : "?",
		                 u->started[0] ? u->started : "time unknown", u->config,
		                 u->backend, u->interrupted ? "; INTERRUPTED: partial results"
		                 : "");
		snprintf(lead, sizeof(lead), "run %d: ", r + 1);
		sw_put_wrapped(fp, lead, (int)strlen(lead), t, width_of(c));
		free(t);
		free(label);
		free(file);
		free(target);
		free(host);
	}
	fputc('\n', fp);
}

/* The runs [r0, r1) side by side (ratios are always against run 1). */
static void
table_header(FILE *fp, const struct cmp *c, int r0, int r1)
{
	char head[SW_LABEL_BYTES + 32];
	int r;

	fprintf(fp, "%-*s %9s %3s", METHOD_W, "", "", "");
	for (r = r0; r < r1; r++) {
		int w = r == 0 ? GROUP1 : GROUPN;

		char *label = diot_visible(c->runs[r].label);

		snprintf(head, sizeof(head), "run %d: %s", r + 1, label);
		free(label);
		/* w characters (a label is UTF-8: never cut inside one); the
		 * last group is not padded to the line's end. */
		fputs(" | ", fp);
		diot_put_cols(fp, head, w, r != r1 - 1);
	}
	fprintf(fp, "\n%-*s %9s %3s", METHOD_W, "method", "size_B", "wr");
	for (r = r0; r < r1; r++) {
		fprintf(fp, " | %9s %9s %9s", "avg_us", "p99_us", "txn/s");
		if (r > 0)
			fprintf(fp, " %7s %7s", "avg_x", "txn/s_x");
	}
	fputc('\n', fp);
}

static void
table_row(FILE *fp, const struct cmp *c, const struct cmp_key *k, int r0, int r1)
{
	const struct cmp_point *first = point_of(c, k, 0);
	int r;

	fprintf(fp, "%-*s %9" PRIu64 " %3d", METHOD_W, k->method, k->size, k->writers);
	for (r = r0; r < r1; r++) {
		const struct cmp_point *p = point_of(c, k, r);

		fputs(" | ", fp);
		if (p->measured) {
			num(fp, 9, "%*.1f", p->avg_us);
			num(fp, 10, "%*.1f", p->p99_us);
			num(fp, 10, "%*.0f", p->txn_per_s);
		} else {
			fprintf(fp, "%9s %9s %9s", p->status, "-", "-");
		}
		if (r > 0) {
			num(fp, 8, "%*.2f", sw_cmp_ratio(value(p, p->avg_us),
			                                 value(first, first->avg_us)));
			num(fp, 8, "%*.2f", sw_cmp_ratio(value(p, p->txn_per_s),
			                                 value(first, first->txn_per_s)));
		}
	}
	fputc('\n', fp);
}

/* The points not in every run, and where each is. */
static void
table_left_out(FILE *fp, const struct cmp *c)
{
	int k, r, n;

	if (c->nkeys == c->nshared)
		return;
	fprintf(fp, "\nnot in every run, so not compared above:\n");
	for (k = c->nshared; k < c->nkeys; k++) {
		const struct cmp_key *key = &c->keys[k];

		fprintf(fp, "  %-*s %9" PRIu64 " B, %d writer%s: only in run", METHOD_W,
		        key->method, key->size, key->writers, key->writers == 1 ? "" : "s");
		for (r = 0, n = 0; r < c->nruns; r++)
			if (key->at[r] >= 0)
				n++;
		fputs(n > 1 ? "s" : "", fp);
		for (r = 0, n = 0; r < c->nruns; r++)
			if (key->at[r] >= 0)
				fprintf(fp, "%s%d", n++ ? ", " : " ", r + 1);
		fputc('\n', fp);
	}
}

/* Each run's hints (a run of several TARGETs: measured now), once per
 * method, after the table. */
static void
table_hints(FILE *fp, const struct cmp *c)
{
	struct sw_hint_row *rows = NULL;
	char run[32];
	int r, i, any = 0;

	for (r = 0; r < c->nruns; r++)
		for (i = 0; i < c->runs[r].npts; i++)
			any |= c->runs[r].pts[i].hint_kind != SW_HINT_NONE;
	if (!any)
		return;
	fputc('\n', fp);
	for (r = 0; r < c->nruns; r++) {
		const struct cmp_run *u = &c->runs[r];

		rows = calloc((size_t)u->npts + 1, sizeof(*rows));
		if (rows == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		for (i = 0; i < u->npts; i++) {
			rows[i].method = u->pts[i].method;
			rows[i].size = u->pts[i].size;
			rows[i].writers = u->pts[i].writers;
			rows[i].kind = u->pts[i].hint_kind;
			rows[i].p50_us = u->pts[i].p50_us;
		}
		snprintf(run, sizeof(run), "run %d: ", r + 1);
		sw_put_hints(fp, run, rows, u->npts, u->disk, u->fs, width_of(c));
		free(rows);
	}
}

/* The runs from r0 on that fit beside it in the table's width (all of
 * them with --wide); at least r0's. */
static int
runs_that_fit(const struct cmp *c, int r0)
{
	int r = r0, w = LEFT;

	while (r < c->nruns) {
		w += 3 + (r == 0 ? GROUP1 : GROUPN);
		if (r > r0 && !c->wide && w > SW_TABLE_COLS)
			break;
		r++;
	}
	return r;
}

void
sw_cmp_table(FILE *fp, const struct cmp *c)
{
	int k, r0, r1;

	table_runs(fp, c);
	/* Runs side by side as many as fit, then the next ones below. */
	for (r0 = 0; r0 < c->nruns; r0 = r1) {
		r1 = runs_that_fit(c, r0);
		if (r0 > 0)
			fputc('\n', fp);
		table_header(fp, c, r0, r1);
		for (k = 0; k < c->nshared; k++)
			table_row(fp, c, &c->keys[k], r0, r1);
	}
	table_left_out(fp, c);
	table_hints(fp, c);
}

/* ------------------------------------------------------------ csv */

static void
csv_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, ",%.6g", v);
	else
		fputs(",", fp);
}

void
sw_cmp_csv(FILE *fp, const struct cmp *c)
{
	int k, r;

	fputs("method,size_bytes,writers,run,label,file,status,avg_us,p50_us,p99_us,"
	      "p999_us,max_us,txn_per_s,mb_per_s,cpu_us_per_txn,avg_ratio,"
	      "txn_per_s_ratio\n", fp);
	for (k = 0; k < c->nshared; k++) {
		const struct cmp_key *key = &c->keys[k];
		const struct cmp_point *first = point_of(c, key, 0);

		for (r = 0; r < c->nruns; r++) {
			const struct cmp_point *p = point_of(c, key, r);

			diot_csv_field(fp, key->method);
			fprintf(fp, ",%" PRIu64 ",%d,%d,", key->size, key->writers, r + 1);
			diot_csv_field(fp, c->runs[r].label);
			fputc(',', fp);
			diot_csv_field(fp, c->runs[r].file ? c->runs[r].file : "");
			fprintf(fp, ",%s", p->status);
			csv_num(fp, value(p, p->avg_us));
			csv_num(fp, value(p, p->p50_us));
			csv_num(fp, value(p, p->p99_us));
			csv_num(fp, value(p, p->p999_us));
			csv_num(fp, value(p, p->max_us));
			csv_num(fp, value(p, p->txn_per_s));
			csv_num(fp, value(p, p->mb_per_s));
			csv_num(fp, value(p, p->cpu_us));
			csv_num(fp, sw_cmp_ratio(value(p, p->avg_us), value(first, first->avg_us)));
			csv_num(fp, sw_cmp_ratio(value(p, p->txn_per_s),
			                         value(first, first->txn_per_s)));
			fputc('\n', fp);
		}
	}
}

/* ------------------------------------------------------------ json */

static void
json_runs(struct diot_json *j, const struct cmp *c)
{
	int r;

	diot_json_array(j, "runs");
	for (r = 0; r < c->nruns; r++) {
		const struct cmp_run *u = &c->runs[r];

		diot_json_object(j, NULL);
		diot_json_i64(j, "run", r + 1);
		diot_json_str(j, "label", u->label);
		diot_json_bool(j, "labelled", u->labelled);
		diot_json_str(j, "file", u->file);     /* NULL: measured in this run */
		diot_json_str(j, "host", u->host[0] ? u->host : NULL);
		diot_json_str(j, "started", u->started[0] ? u->started : NULL);
		diot_json_str(j, "target", u->target);
		diot_json_str(j, "kind", u->kind);
		diot_json_str(j, "fs", u->fs);
		diot_json_str(j, "disk", u->disk[0] ? u->disk : NULL);
		diot_json_str(j, "config", u->config);
		diot_json_bool(j, "interrupted", u->interrupted);
		diot_json_close(j);
	}
	diot_json_close(j);
}

static void
json_point_runs(struct diot_json *j, const struct cmp *c, const struct cmp_key *k)
{
	const struct cmp_point *first = point_of(c, k, 0);
	int r;

	diot_json_array(j, "runs");
	for (r = 0; r < c->nruns; r++) {
		const struct cmp_point *p = point_of(c, k, r);

		diot_json_object(j, NULL);
		diot_json_str(j, "status", p->status);
		diot_json_double(j, "avg_us", value(p, p->avg_us));
		diot_json_double(j, "p50_us", value(p, p->p50_us));
		diot_json_double(j, "p99_us", value(p, p->p99_us));
		diot_json_double(j, "p999_us", value(p, p->p999_us));
		diot_json_double(j, "max_us", value(p, p->max_us));
		diot_json_double(j, "txn_per_s", value(p, p->txn_per_s));
		diot_json_double(j, "mb_per_s", value(p, p->mb_per_s));
		diot_json_double(j, "cpu_us_per_txn", value(p, p->cpu_us));
		diot_json_double(j, "avg_ratio", sw_cmp_ratio(value(p, p->avg_us),
		                                              value(first, first->avg_us)));
		diot_json_double(j, "txn_per_s_ratio", sw_cmp_ratio(value(p, p->txn_per_s),
		                 value(first, first->txn_per_s)));
		diot_json_close(j);
	}
	diot_json_close(j);
}

void
sw_cmp_json(FILE *fp, const struct cmp *c)
{
	struct diot_json j;
	int k, r;

	diot_json_init(&j, fp, 2);
	diot_json_precision(&j, 6);
	diot_json_object(&j, NULL);
	diot_json_str(&j, "tool", "sync-write");
	diot_json_str(&j, "document", "compare");
	diot_json_i64(&j, "schema", 1);
	diot_json_bool(&j, "interleaved", c->interleaved);
	json_runs(&j, c);
	diot_json_array(&j, "points");
	for (k = 0; k < c->nshared; k++) {
		diot_json_object(&j, NULL);
		diot_json_str(&j, "method", c->keys[k].method);
		diot_json_u64(&j, "size_bytes", c->keys[k].size);
		diot_json_i64(&j, "writers", c->keys[k].writers);
		json_point_runs(&j, c, &c->keys[k]);
		diot_json_close(&j);
	}
	diot_json_close(&j);
	diot_json_array(&j, "left_out");
	for (k = c->nshared; k < c->nkeys; k++) {
		diot_json_object(&j, NULL);
		diot_json_str(&j, "method", c->keys[k].method);
		diot_json_u64(&j, "size_bytes", c->keys[k].size);
		diot_json_i64(&j, "writers", c->keys[k].writers);
		diot_json_array(&j, "in_runs");
		for (r = 0; r < c->nruns; r++)
			if (c->keys[k].at[r] >= 0)
				diot_json_i64(&j, NULL, r + 1);
		diot_json_close(&j);
		diot_json_close(&j);
	}
	diot_json_close(&j);
	diot_json_close(&j);
	diot_json_end(&j);
}

/* ------------------------------------------------------------ plot */

/* The shared, measured points of every run as the points of one run whose
 * methods are "label: method": plot.c then draws a line per run and
 * method.  To path (sw_cmp_plot) or to a stream (sw_cmp_plot_fp). */
static int
cmp_plot(const char *path, FILE *fp, const struct cmp *c)
{
	struct sw_point *pts = calloc((size_t)c->nshared * (size_t)c->nruns + 1,
	                              sizeof(*pts));
	char what[64];
	int k, r, n = 0, rc;

	if (pts == NULL)
		return -1;
	for (r = 0; r < c->nruns; r++)
		for (k = 0; k < c->nshared; k++) {
			const struct cmp_point *p = point_of(c, &c->keys[k], r);
			struct sw_point *q = &pts[n];

			if (!p->measured)
				continue;
			snprintf(q->method, sizeof(q->method), "%s: %s", c->runs[r].label,
			         p->method);
			q->size = p->size;
			q->writers = p->writers;
			q->status = SW_OK;
			q->agg.txns = 1;
			q->agg.avg_us = p->avg_us;
			q->agg.mb_per_s = p->mb_per_s;
			n++;
		}
	snprintf(what, sizeof(what), "%d runs compared", c->nruns);
	rc = fp != NULL ? sw_plot_fp(fp, what, pts, n) : sw_plot(path, what, pts, n);
	free(pts);
	return rc;
}

int
sw_cmp_plot(const char *path, const struct cmp *c)
{
	return cmp_plot(path, NULL, c);
}

int
sw_cmp_plot_fp(FILE *fp, const struct cmp *c)
{
	return cmp_plot(NULL, fp, c);
}
