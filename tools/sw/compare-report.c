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

/* ------------------------------------------------------------ table */

#define METHOD_W 16
#define LEFT (METHOD_W + 1 + 9 + 1 + 3)   /* method size_B wr           */
#define GROUP1 29                /* avg_us p99_us txn/s             */
#define GROUPN (GROUP1 + 15)     /* and the two ratios              */
#define FLUSH_W 10               /* flush/txn, where counted        */

static int
width_of(const struct cmp *c)
{
	return c->wide ? 0 : SW_TABLE_COLS;
}

/* 1 if some run's points carry device counts (issue 41): each run's
 * group then shows its flushes per transaction. */
static int
with_flushes(const struct cmp *c)
{
	int r, i;

	for (r = 0; r < c->nruns; r++)
		for (i = 0; i < c->runs[r].npts; i++)
			if (c->runs[r].pts[i].dev_block)
				return 1;
	return 0;
}

/* The width of run r's group of columns. */
static int
group_w(const struct cmp *c, int r)
{
	return (r == 0 ? GROUP1 : GROUPN) + (with_flushes(c) ? FLUSH_W : 0);
}

/* A point's flushes per transaction as the table says it: the figure,
 * "n/a" (not counted, or no flush count), "busy" (other I/O too large to
 * count) or "-" (a result without counts). */
static void
flush_cell(char *buf, size_t len, const struct cmp_point *p)
{
	if (p == NULL || !p->dev_block || (!p->measured && !p->partial))
		snprintf(buf, len, "-");
	else if (p->dev.state == SW_DEV_BUSY)
		snprintf(buf, len, "busy");
	else if (p->dev.state != SW_DEV_COUNTED || !p->dev.flushes_known)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f", p->dev.flushes_per_txn > 0 ?
		         p->dev.flushes_per_txn : 0.0);
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
		int w = group_w(c, r);

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
		if (with_flushes(c))
			fprintf(fp, " %9s", "flush/txn");
		if (r > 0)
			fprintf(fp, " %7s %7s", "avg_x", "txn/s_x");
	}
	fputc('\n', fp);
}

/* Under a row that a signal cut short: which runs' figures are partial
 * (as a run of one TARGET notes its interrupted row) and which runs did
 * not get to it. */
static void
row_interrupted(FILE *fp, const struct cmp *c, const struct cmp_key *k, int r0, int r1)
{
	char *t = NULL, *n;
	int r;

	for (r = r0; r < r1; r++) {
		const struct cmp_point *p = point_of(c, k, r);

		if (!p->partial && !p->not_run)
			continue;
		n = diot_strdupf("%s%srun %d %s", t ? t : "", t ? "; " : "", r + 1,
		                 p->partial ? "was stopped by a signal: its figures are "
		                 "partial" : "was not run: the run was stopped before");
		free(t);
		t = n;
	}
	if (t == NULL)
		return;
	sw_put_wrapped(fp, "                 interrupted: ", 30, t, width_of(c));
	free(t);
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
		if (p->measured || p->partial) {
			num(fp, 9, "%*.1f", p->avg_us);
			num(fp, 10, "%*.1f", p->p99_us);
			num(fp, 10, "%*.0f", p->txn_per_s);
		} else {
			fprintf(fp, "%9s %9s %9s", p->not_run ? "not run" : p->status, "-", "-");
		}
		if (with_flushes(c)) {
			char f[16];

			flush_cell(f, sizeof(f), p);
			fprintf(fp, " %9s", f);
		}
		if (r > 0) {
			num(fp, 8, "%*.2f", sw_cmp_ratio(value(p, p->avg_us),
			                                 value(first, first->avg_us)));
			num(fp, 8, "%*.2f", sw_cmp_ratio(value(p, p->txn_per_s),
			                                 value(first, first->txn_per_s)));
		}
	}
	fputc('\n', fp);
	row_interrupted(fp, c, k, r0, r1);
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
	int r, i, k, any = 0;

	for (r = 0; r < c->nruns; r++)
		for (i = 0; i < c->runs[r].npts; i++)
			any |= c->runs[r].pts[i].hint_kind != SW_HINT_NONE ||
			       c->runs[r].pts[i].dev_hint_kind[0] != SW_HINT_NONE ||
			       c->runs[r].pts[i].dev_hint_kind[1] != SW_HINT_NONE;
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
			for (k = 0; k < SW_POINT_DEV_HINTS; k++)
				rows[i].dev_kind[k] = u->pts[i].dev_hint_kind[k];
			rows[i].flushes_per_txn = u->pts[i].dev.flushes_per_txn;
			rows[i].bytes_per_txn = u->pts[i].dev.bytes_per_txn;
			rows[i].amplification = u->pts[i].dev.amplification;
			rows[i].dev_disks = u->pts[i].dev_disks;
		}
		snprintf(run, sizeof(run), "run %d: ", r + 1);
		sw_put_hints(fp, run, rows, u->npts, u->disk, u->fs, u->not_durable,
		             strcmp(u->kind, "device") == 0, width_of(c));
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
		w += 3 + group_w(c, r);
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

/* A point's device state as the results say it ("yes", "no", "busy"),
 * "" where its result has no counts. */
static const char *
dev_state_name(const struct cmp_point *p)
{
	if (!p->dev_block)
		return "";
	/* (as devcount.c's sw_dev_state_name(), which this does not link) */
	return p->dev.state == SW_DEV_COUNTED ? "yes" : p->dev.state == SW_DEV_BUSY
	       ? "busy" : "no";
}

/* Its flushes per transaction; NaN where not counted. */
static double
dev_flushes(const struct cmp_point *p)
{
	if (!p->dev_block || p->dev.state != SW_DEV_COUNTED || !p->dev.flushes_known ||
	    (!p->measured && !p->partial))
		return NAN;
	return p->dev.flushes_per_txn;
}

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
	      "txn_per_s_ratio,dev_state,dev_flushes_per_txn\n", fp);
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
			fprintf(fp, ",%s", dev_state_name(p));
			csv_num(fp, dev_flushes(p));
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
		diot_json_str(j, "device", p->dev_block ? dev_state_name(p) : NULL);
		diot_json_double(j, "flushes_per_txn", dev_flushes(p));
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
			if (p->dev_block && p->dev.state == SW_DEV_COUNTED &&
			    p->dev.flushes_known) {
				q->dev.state = SW_DEV_COUNTED;
				q->dev.flushes_known = 1;
				q->dev.flushes_per_txn = p->dev.flushes_per_txn;
			}
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
