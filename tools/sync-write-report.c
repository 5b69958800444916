/*
 * sync-write-report.c -- sync-write's outputs: aligned table, CSV and JSON
 * (schema in tools/sync-write.schema.json), and the SVG plot.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/svg.h"
#include "tools/sync-write.h"
#include "tools/kit/util.h"

static const char *const status_name[] = { "ok", "n/a", "error", "interrupted" };

/* ------------------------------------------------------------ table */

static void
table_header(FILE *fp)
{
	fprintf(fp, "%-18s %9s %3s %8s %9s %9s %9s %9s %9s %9s %9s %9s %9s %8s %7s %-9s %s\n",
	        "method", "size_B", "wr", "txns", "avg_us", "min_us", "p50_us", "p90_us",
	        "p99_us", "p99.9_us", "max_us", "stdev_us", "txn/s", "MB/s", "cpu_us",
	        "direct", "sync");
}

static void
table_row(FILE *fp, const char *label, const struct sw_point *p, int wr,
          const struct sw_stats *s)
{
	fprintf(fp, "%-18s %9" PRIu64 " %3d %8" PRIu64 " %9.1f %9.1f %9.1f %9.1f %9.1f "
	        "%9.1f %9.1f %9.1f %9.0f %8.2f %7.2f %-9s %s\n",
	        label, p->size, wr, s->txns, s->avg_us, s->min_us, s->p50_us, s->p90_us,
	        s->p99_us, s->p999_us, s->max_us, s->stddev_us, s->txn_per_s, s->mb_per_s,
	        s->cpu_us_per_txn, p->direct, p->sync_flag);
}

static void
table_point(FILE *fp, const struct sw_point *p, int per_writer)
{
	char label[40];
	int k;

	if (p->status == SW_NA) {
		fprintf(fp, "%-18s %9" PRIu64 " %3d  n/a: %s\n", p->method, p->size,
		        p->writers, p->note);
		return;
	}
	table_row(fp, p->method, p, p->writers, &p->agg);
	if (per_writer && p->writers > 1)
		for (k = 0; k < p->writers; k++) {
			snprintf(label, sizeof(label), "  writer %d", k);
			table_row(fp, label, p, 1, &p->per[k]);
		}
	if (p->verify.done)
		fprintf(fp, "%-18s verify: %" PRIu64 " slots checked, %" PRIu64 " ok, %"
		        PRIu64 " missing, %" PRIu64 " corrupt, %" PRIu64 " stale, %" PRIu64
		        " misplaced%s\n", "", p->verify.checked, p->verify.ok,
		        p->verify.missing, p->verify.corrupt, p->verify.stale,
		        p->verify.misplaced, p->verify.ok == p->verify.checked ? "" : "  FAILED");
	if (p->status != SW_OK || p->note[0])
		fprintf(fp, "%-18s %s: %s\n", "", p->status == SW_OK ? "note"
		        : status_name[p->status], p->note);
}

/* ------------------------------------------------------------ csv */

static void
csv_row(FILE *fp, const struct sw_point *p, int writer, const struct sw_stats *s)
{
	fprintf(fp, "%d,", p->index);
	diot_csv_field(fp, p->method);
	fprintf(fp, ",%" PRIu64 ",%d,", p->size, p->writers);
	if (writer < 0)
		fputs("all", fp);
	else
		fprintf(fp, "%d", writer);
	fprintf(fp, ",%s,%" PRIu64 ",%" PRIu64 ",%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
	        "%.3f,%.1f,%.3f,%.6f,%.6f,%.3f,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",",
	        status_name[p->status], s->txns, s->bytes, s->wall_s, s->avg_us,
	        s->min_us, s->p50_us, s->p90_us, s->p99_us, s->p999_us, s->max_us,
	        s->stddev_us, s->txn_per_s, s->mb_per_s, s->cpu_user_s, s->cpu_sys_s,
	        s->cpu_us_per_txn, p->direct, p->sync_flag, p->commit,
	        p->verify.checked, p->verify.ok);
	diot_csv_field(fp, p->note);
	fputc('\n', fp);
}

/* ------------------------------------------------------------ json */

static void
json_kv_num(FILE *fp, const char *k, double v, int comma)
{
	fprintf(fp, "\"%s\": ", k);
	diot_json_num(fp, v);
	if (comma)
		fputs(", ", fp);
}

static void
json_stats(FILE *fp, const struct sw_stats *s)
{
	fputs("{", fp);
	json_kv_num(fp, "txns", (double)s->txns, 1);
	json_kv_num(fp, "bytes", (double)s->bytes, 1);
	json_kv_num(fp, "wall_s", s->wall_s, 1);
	json_kv_num(fp, "avg_us", s->avg_us, 1);
	json_kv_num(fp, "min_us", s->min_us, 1);
	json_kv_num(fp, "p50_us", s->p50_us, 1);
	json_kv_num(fp, "p90_us", s->p90_us, 1);
	json_kv_num(fp, "p99_us", s->p99_us, 1);
	json_kv_num(fp, "p999_us", s->p999_us, 1);
	json_kv_num(fp, "max_us", s->max_us, 1);
	json_kv_num(fp, "stddev_us", s->stddev_us, 1);
	json_kv_num(fp, "txn_per_s", s->txn_per_s, 1);
	json_kv_num(fp, "mb_per_s", s->mb_per_s, 1);
	json_kv_num(fp, "cpu_user_s", s->cpu_user_s, 1);
	json_kv_num(fp, "cpu_sys_s", s->cpu_sys_s, 1);
	json_kv_num(fp, "cpu_us_per_txn", s->cpu_us_per_txn, 0);
	fputs("}", fp);
}

static void
json_point(FILE *fp, const struct sw_point *p)
{
	int k;

	fprintf(fp, "    {\"index\": %d, \"method\": ", p->index);
	diot_json_string(fp, p->method);
	fprintf(fp, ", \"size_bytes\": %" PRIu64 ", \"writers\": %d, \"status\": \"%s\", "
	        "\"note\": ", p->size, p->writers, status_name[p->status]);
	if (p->note[0])
		diot_json_string(fp, p->note);
	else
		fputs("null", fp);
	fprintf(fp, ",\n     \"direct\": \"%s\", \"sync_flag\": \"%s\", \"commit\": \"%s\", "
	        "\"region_full\": %s,\n     \"aggregate\": ", p->direct, p->sync_flag,
	        p->commit, p->region_full ? "true" : "false");
	if (p->status == SW_NA) {
		fputs("null, \"per_writer\": []", fp);
	} else {
		json_stats(fp, &p->agg);
		fputs(",\n     \"per_writer\": [", fp);
		for (k = 0; k < p->writers; k++) {
			fputs(k ? ",\n       " : "\n       ", fp);
			json_stats(fp, &p->per[k]);
		}
		fputs("]", fp);
	}
	fputs(",\n     \"verify\": ", fp);
	if (p->verify.done)
		fprintf(fp, "{\"checked\": %" PRIu64 ", \"ok\": %" PRIu64 ", \"missing\": %"
		        PRIu64 ", \"corrupt\": %" PRIu64 ", \"stale\": %" PRIu64
		        ", \"misplaced\": %" PRIu64 "}", p->verify.checked, p->verify.ok,
		        p->verify.missing, p->verify.corrupt, p->verify.stale,
		        p->verify.misplaced);
	else
		fputs("null", fp);
	fputs("}", fp);
}

/* ------------------------------------------------------------ entry points */

void
sw_report_begin(FILE *fp, int fmt, const struct sw_run *r, int per_writer)
{
	char reg[32];

	(void)per_writer;
	if (fmt == SW_FMT_CSV) {
		fputs("point,method,size_bytes,writers,writer,status,txns,bytes,wall_s,"
		      "avg_us,min_us,p50_us,p90_us,p99_us,p999_us,max_us,stddev_us,"
		      "txn_per_s,mb_per_s,cpu_user_s,cpu_sys_s,cpu_us_per_txn,direct,"
		      "sync_flag,commit,verify_checked,verify_ok,note\n", fp);
		return;
	}
	if (fmt != SW_FMT_TABLE)
		return;
	fprintf(fp, "sync-write %s (%s backend) on %s\n", r->version, r->backend, r->os);
	fprintf(fp, "target:  %s (%s, %s); direct I/O alignment: memory %" PRIu32
	        ", offset %" PRIu32 " bytes (%s)\n", r->target, r->target_kind, r->fstype,
	        r->mem_align, r->offset_align, r->align_source);
	fprintf(fp, "layout:  %s, %s (%" PRIu64 " bytes) per writer, %s; writers are %s\n",
	        strcmp(r->target_kind, "device") == 0 ? "disjoint regions of the device"
	        : strcmp(r->layout, "shared") == 0 ? "disjoint regions of one file"
	                                           : "one file per writer",
	        diot_fmt_iec(r->region, reg, sizeof(reg)), r->region,
	        r->extend ? "extended from empty" : strcmp(r->target_kind, "device") == 0
	        ? "overwritten" : "preallocated and overwritten", r->mode);
	if (r->count)
		fprintf(fp, "points:  %" PRIu64 " transactions per writer", r->count);
	else
		fprintf(fp, "points:  %g s each", r->time_s);
	fprintf(fp, " after %" PRIu64 " warm-up transactions; times are microseconds per "
	        "transaction (write + commit)%s\n\n", r->warmup,
	        r->verify ? "; every point verified" : "");
	table_header(fp);
}

void
sw_report_point(FILE *fp, int fmt, const struct sw_point *p, int per_writer)
{
	int k;

	if (fmt == SW_FMT_TABLE) {
		table_point(fp, p, per_writer);
	} else if (fmt == SW_FMT_CSV) {
		csv_row(fp, p, -1, &p->agg);
		if (per_writer && p->status != SW_NA)
			for (k = 0; k < p->writers; k++)
				csv_row(fp, p, k, &p->per[k]);
	}
}

void
sw_report_end(FILE *fp, int fmt, const struct sw_run *r, const struct sw_point *pts,
              int n)
{
	int i;

	if (fmt == SW_FMT_TABLE) {
		if (r->interrupted)
			fprintf(fp, "\ninterrupted: the results above are partial\n");
		return;
	}
	if (fmt != SW_FMT_JSON)
		return;
	fputs("{\n  \"tool\": \"sync-write\", \"schema\": 1, \"version\": ", fp);
	diot_json_string(fp, r->version);
	fputs(", \"backend\": ", fp);
	diot_json_string(fp, r->backend);
	fputs(", \"os\": ", fp);
	diot_json_string(fp, r->os);
	fputs(",\n  \"target\": {\"path\": ", fp);
	diot_json_string(fp, r->target);
	fputs(", \"kind\": ", fp);
	diot_json_string(fp, r->target_kind);
	fputs(", \"fs\": ", fp);
	diot_json_string(fp, r->fstype);
	fprintf(fp, ", \"mem_align\": %" PRIu32 ", \"offset_align\": %" PRIu32
	        ", \"align_source\": \"%s\"},\n", r->mem_align, r->offset_align,
	        r->align_source);
	fprintf(fp, "  \"config\": {\"layout\": \"%s\", \"writers_are\": \"%s\", "
	        "\"extend\": %s, \"region_bytes\": %" PRIu64 ", \"time_s\": ",
	        r->layout, r->mode, r->extend ? "true" : "false", r->region);
	if (r->count)
		fputs("null", fp);
	else
		diot_json_num(fp, r->time_s);
	fputs(", \"count\": ", fp);
	if (r->count)
		fprintf(fp, "%" PRIu64, r->count);
	else
		fputs("null", fp);
	fprintf(fp, ", \"warmup\": %" PRIu64 ", \"verify\": %s},\n", r->warmup,
	        r->verify ? "true" : "false");
	fprintf(fp, "  \"interrupted\": %s, \"error\": ", r->interrupted ? "true" : "false");
	if (r->error)
		diot_json_string(fp, r->error);
	else
		fputs("null", fp);
	fputs(",\n  \"points\": [\n", fp);
	for (i = 0; i < n; i++) {
		json_point(fp, &pts[i]);
		fputs(i + 1 < n ? ",\n" : "\n", fp);
	}
	fputs("  ]\n}\n", fp);
}

/* ------------------------------------------------------------ plot */

/* Distinct values of an array of doubles, sorted. */
static int
add_unique(double *v, int n, double x)
{
	int i, j;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return n;
	for (i = 0; i < n && v[i] < x; i++)
		;
	for (j = n; j > i; j--)
		v[j] = v[j - 1];
	v[i] = x;
	return n + 1;
}

#define POOL(k) (pool + (size_t)(k) * ((size_t)n + 1))

int
sw_plot(const char *path, const struct sw_run *r, const struct sw_point *pts, int n)
{
	struct diot_chart charts[3];
	struct diot_series *s1, *s2, *s3;
	double *ws, *pool, pick;
	size_t used1 = 0, used2 = 0;
	char title[200], t2[200], t3[200], sz[32];
	int nm = 0, nw = 0, i, j, k, nchart = 1, rc;
	const char **meth;
	FILE *fp;

	meth = calloc((size_t)n + 1, sizeof(*meth));
	ws = calloc((size_t)n + 1, sizeof(*ws));
	s1 = calloc((size_t)n + 1, sizeof(*s1));
	s2 = calloc((size_t)n + 1, sizeof(*s2));
	s3 = calloc((size_t)n + 1, sizeof(*s3));
	/* All series together have at most n points per chart: five pools of
	 * n values (x, y for chart 1; x, y, y for charts 2 and 3) in one
	 * allocation, handed out series by series. */
	pool = calloc(5 * ((size_t)n + 1), sizeof(double));
	if (!meth || !ws || !s1 || !s2 || !s3 || !pool) {
		free(meth);
		free(ws);
		free(s1);
		free(s2);
		free(s3);
		free(pool);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < nm && strcmp(meth[j], pts[i].method) != 0; j++)
			;
		if (j == nm)
			meth[nm++] = pts[i].method;
		nw = add_unique(ws, nw, pts[i].writers);
	}
	/* Chart 1: time per transaction against size, at the fewest writers. */
	for (j = 0; j < nm; j++) {
		double *x = POOL(0) + used1, *y = POOL(1) + used1;
		int c = 0;

		for (i = 0; i < n; i++)
			if (strcmp(pts[i].method, meth[j]) == 0 && pts[i].writers == ws[0] &&
			    pts[i].status != 1 && pts[i].agg.txns) {
				x[c] = (double)pts[i].size;
				y[c++] = pts[i].agg.avg_us;
			}
		s1[j].name = meth[j];
		s1[j].n = c;
		s1[j].x = x;
		s1[j].y = y;
		used1 += (size_t)c;
	}
	snprintf(title, sizeof(title), "Average time per transaction, %g writer%s "
	         "(%s)", ws[0], ws[0] == 1 ? "" : "s", r->fstype);
	charts[0].title = title;
	charts[0].xlabel = "transaction size";
	charts[0].ylabel = "microseconds per transaction (write + commit)";
	charts[0].xlog = 1;
	charts[0].ylog = 1;
	charts[0].xfmt = DIOT_AXIS_BYTES;
	charts[0].nseries = nm;
	charts[0].series = s1;

	/* Charts 2 and 3: against writers, at 48 KiB (the study's size) if
	 * measured, else the middle size. */
	if (nw > 1) {
		double sizes[4096];
		int ns = 0;

		for (i = 0; i < n && ns < 4096; i++)
			ns = add_unique(sizes, ns, (double)pts[i].size);
		pick = sizes[ns / 2];
		for (i = 0; i < ns; i++)
			if (sizes[i] == 48 * 1024)
				pick = sizes[i];
		for (j = 0; j < nm; j++) {
			double *x = POOL(2) + used2, *y2 = POOL(3) + used2, *y3 = POOL(4) + used2;
			int c = 0;

			for (k = 0; k < nw; k++)
				for (i = 0; i < n; i++)
					if (strcmp(pts[i].method, meth[j]) == 0 &&
					    pts[i].writers == ws[k] && pts[i].size == pick &&
					    pts[i].status != 1 && pts[i].agg.txns) {
						x[c] = ws[k];
						y2[c] = pts[i].agg.mb_per_s;
						y3[c++] = pts[i].agg.avg_us;
					}
			s2[j].name = s3[j].name = meth[j];
			s2[j].n = s3[j].n = c;
			s2[j].x = s3[j].x = x;
			s2[j].y = y2;
			s3[j].y = y3;
			used2 += (size_t)c;
		}
		diot_fmt_iec((uint64_t)pick, sz, sizeof(sz));
		snprintf(t2, sizeof(t2), "Aggregate throughput against writers, %s "
		         "transactions", sz);
		snprintf(t3, sizeof(t3), "Average time per transaction against writers, %s "
		         "transactions", sz);
		charts[1].title = t2;
		charts[1].xlabel = "concurrent writers";
		charts[1].ylabel = "MB/s (all writers)";
		charts[1].xlog = 1;
		charts[1].ylog = 0;
		charts[1].xfmt = DIOT_AXIS_PLAIN;
		charts[1].nseries = nm;
		charts[1].series = s2;
		charts[2] = charts[1];
		charts[2].title = t3;
		charts[2].ylabel = "microseconds per transaction";
		charts[2].ylog = 1;
		charts[2].series = s3;
		nchart = 3;
	}
	fp = fopen(path, "w");
	rc = -1;
	if (fp != NULL) {
		rc = diot_svg_write(fp, "sync-write results", charts, nchart);
		if (fclose(fp) != 0)
			rc = -1;
	}
	free(pool);
	free(meth);
	free(ws);
	free(s1);
	free(s2);
	free(s3);
	return rc;
}
