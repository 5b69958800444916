/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c -- sync-write's results: the aligned table and CSV as points
 * finish, and at the end the table's closing lines (why a row is n/a or
 * busy, the hints, the run's summary, summary.c) or the JSON document
 * (report-json.c, which this calls).  CSV has no summary (a row per
 * point).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/sw/sw.h"

/* ------------------------------------------------------------ table */

/*
 * The table's columns.  By default those that fit SW_TABLE_COLS columns
 * (132 wide: a method name has at most 16 characters, the direct and sync
 * words 8 and 9, a size of up to 7 digits); --wide adds min_us, p90_us,
 * stdev_us, cpu_us and what the disks saw per transaction (writes, KiB,
 * amplification), and keeps every note on one line.  CSV and JSON always
 * have every figure.
 */
#define METHOD_W 16

static void
table_header(FILE *fp, int wide)
{
	if (wide)
		fprintf(fp, "%-*s %9s %3s %8s %9s %9s %9s %9s %9s %9s %9s %9s %9s %8s %7s "
		        "%9s %10s %11s %6s %-10s %s\n", METHOD_W, "method", "size_B", "wr",
		        "txns", "avg_us", "min_us", "p50_us", "p90_us", "p99_us", "p99.9_us",
		        "max_us", "stdev_us", "txn/s", "MB/s", "cpu_us", "flush/txn",
		        "dev_wr/txn", "dev_KiB/txn", "amplif", "direct", "sync");
	else
		fprintf(fp, "%-*s %7s %3s %8s %9s %9s %9s %8s %9s %8s %7s %9s %-8s %s\n",
		        METHOD_W, "method", "size_B", "wr", "txns", "avg_us", "p50_us",
		        "p99_us", "p99.9_us", "max_us", "txn/s", "MB/s", "flush/txn", "direct",
		        "sync");
}

/* A figure of what the disks saw (v, with prec decimals), as a cell:
 * "busy" or "n/a" where it is not counted (known 0: its counter is
 * missing); "-" for a row that is not a whole point's (a writer's). */
static const char *
dev_cell(char *b, size_t len, const struct sw_devcount *d, double v, int known, int prec)
{
	if (d == NULL)
		return "-";
	if (d->state == SW_DEV_BUSY)
		return "busy";
	if (d->state != SW_DEV_COUNTED || !known)
		return "n/a";
	snprintf(b, len, "%.*f", prec, v);
	return b;
}

/* How the sync is carried: the open flag (O_DSYNC, O_SYNC) or, without
 * one, the commit (fdatasync, fsync, rwf-dsync): the JSON's words. */
static const char *
sync_word(const struct sw_point *p)
{
	if (p->sync_flag && strcmp(p->sync_flag, "none") != 0 && strcmp(p->sync_flag, "-") != 0)
		return p->sync_flag;
	return p->commit ? p->commit : "none";
}

/* d: the point's device counts (NULL: a writer's or a host's row). */
static void
table_row(FILE *fp, const char *label, const struct sw_point *p, int wr,
          const struct sw_stats *s, const struct sw_devcount *d, int wide)
{
	char fl[32], dw[32], dk[32], am[32];
	const char *f = dev_cell(fl, sizeof(fl), d, d ? d->flushes_per_txn : 0,
	                         d ? d->flushes_known : 0, 2);

	if (wide)
		fprintf(fp, "%-*s %9" PRIu64 " %3d %8" PRIu64 " %9.1f %9.1f %9.1f %9.1f "
		        "%9.1f %9.1f %9.1f %9.1f %9.0f %8.2f %7.2f %9s %10s %11s %6s %-10s "
		        "%s\n", METHOD_W, label, p->size, wr, s->txns, s->avg_us, s->min_us,
		        s->p50_us, s->p90_us, s->p99_us, s->p999_us, s->max_us, s->stddev_us,
		        s->txn_per_s, s->mb_per_s, s->cpu_us_per_txn, f,
		        dev_cell(dw, sizeof(dw), d, d ? d->writes_per_txn : 0, 1, 2),
		        dev_cell(dk, sizeof(dk), d, d ? d->bytes_per_txn / 1024 : 0, 1, 2),
		        dev_cell(am, sizeof(am), d, d ? d->amplification : 0, 1, 2),
		        p->direct, sync_word(p));
	else
		fprintf(fp, "%-*s %7" PRIu64 " %3d %8" PRIu64 " %9.1f %9.1f %9.1f %8.1f "
		        "%9.1f %8.0f %7.2f %9s %-8s %s\n", METHOD_W, label, p->size, wr,
		        s->txns, s->avg_us, s->p50_us, s->p99_us, s->p999_us, s->max_us,
		        s->txn_per_s, s->mb_per_s, f, p->direct, sync_word(p));
}

/* A line of text under a row or in the header: lead, then text wrapped to
 * the table's width (--wide: one line) under its own first column. */
static void
table_text(FILE *fp, const char *lead, const char *text, int wide)
{
	sw_put_wrapped(fp, lead, (int)strlen(lead), text, wide ? 0 : SW_TABLE_COLS);
}

static void
table_point(FILE *fp, const struct sw_point *p, int per_writer, int per_host, int wide)
{
	char label[64], lead[128];
	int k;

	if (p->status == SW_NA) {
		snprintf(lead, sizeof(lead), "%-*s %*" PRIu64 " %3d  n/a: ", METHOD_W,
		         p->method, wide ? 9 : 7, p->size, p->writers);
		table_text(fp, lead, p->note, wide);
		return;
	}
	table_row(fp, p->method, p, p->writers, &p->agg, &p->dev, wide);
	for (k = 0; per_host && k < p->nhosts; k++) {
		snprintf(label, sizeof(label), "  host %.40s", p->hosts[k].host);
		table_row(fp, label, p, p->hosts[k].writers, &p->hosts[k].s, NULL, wide);
	}
	if (per_writer && p->writers > 1)
		for (k = 0; k < p->writers; k++) {
			if (p->ranks > 1)
				snprintf(label, sizeof(label), "  writer %d rank %d", k,
				         sw_rank_of(p, k));
			else
				snprintf(label, sizeof(label), "  writer %d", k);
			table_row(fp, label, p, 1, &p->per[k], NULL, wide);
		}
	if (p->verify.done)
		fprintf(fp, "%-*s verify: %" PRIu64 " slots checked, %" PRIu64 " ok, %"
		        PRIu64 " missing, %" PRIu64 " corrupt, %" PRIu64 " stale, %" PRIu64
		        " misplaced%s\n", METHOD_W, "", p->verify.checked, p->verify.ok,
		        p->verify.missing, p->verify.corrupt, p->verify.stale,
		        p->verify.misplaced, p->verify.ok == p->verify.checked ? "" : "  FAILED");
	if (p->status != SW_OK || p->note[0]) {
		snprintf(lead, sizeof(lead), "%-*s %s: ", METHOD_W, "", p->status == SW_OK ?
		         "note" : sw_status_name(p->status));
		table_text(fp, lead, p->note, wide);
	}
	/* A hint is said once for all the rows it covers, after the table. */
}

/*
 * After the table: why flush/txn says n/a or busy, once per reason (the
 * rows of a point that did not run say n/a themselves).  A busy row's
 * reason has its own figures: the first few are said, then how many more.
 */
#define DEV_BUSY_SAID 3

static void
table_devices(FILE *fp, const struct sw_point *pts, int n, int wide)
{
	char lead[160], *t;
	int i, k, rows, busy = 0, first = 1;

	for (i = 0; i < n; i++) {
		const struct sw_devcount *d = &pts[i].dev;

		if (pts[i].status == SW_NA || d->state == SW_DEV_COUNTED)
			continue;
		if (d->state == SW_DEV_BUSY) {
			if (busy++ >= DEV_BUSY_SAID)
				continue;
			if (first)
				fputc('\n', fp);
			snprintf(lead, sizeof(lead), "%s%s %" PRIu64 " B, %d writer%s: ", first ?
			         "flush/txn: busy at " : "           busy at ", pts[i].method,
			         pts[i].size, pts[i].writers, pts[i].writers == 1 ? "" : "s");
			first = 0;
			sw_put_wrapped(fp, lead, 11, d->why, wide ? 0 : SW_TABLE_COLS);
			continue;
		}
		for (k = 0; k < i; k++)           /* said with an earlier row */
			if (pts[k].status != SW_NA && pts[k].dev.state == SW_DEV_NA &&
			    strcmp(pts[k].dev.why, d->why) == 0)
				break;
		if (k < i)
			continue;
		for (k = i, rows = 0; k < n; k++)
			rows += pts[k].status != SW_NA && pts[k].dev.state == SW_DEV_NA &&
			        strcmp(pts[k].dev.why, d->why) == 0;
		t = diot_strdupf("n/a (%d row%s): %s", rows, rows == 1 ? "" : "s", d->why);
		if (first)
			fputc('\n', fp);
		sw_put_wrapped(fp, first ? "flush/txn: " : "           ", 11, t,
		               wide ? 0 : SW_TABLE_COLS);
		free(t);
		first = 0;
	}
	if (busy > DEV_BUSY_SAID)
		fprintf(fp, "           and %d more busy rows\n", busy - DEV_BUSY_SAID);
}

/* After the table: each method's hint, once, naming the rows it covers. */
static void
table_hints(FILE *fp, const struct sw_run *r, const struct sw_point *pts, int n, int wide)
{
	struct sw_hint_row *rows;
	int i, any = 0;

	for (i = 0; i < n; i++)
		any |= pts[i].hint_kind != SW_HINT_NONE ||
		       pts[i].dev_hint_kind[0] != SW_HINT_NONE ||
		       pts[i].dev_hint_kind[1] != SW_HINT_NONE;
	if (!any)
		return;
	rows = calloc((size_t)n, sizeof(*rows));
	if (rows == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < n; i++)
		sw_hint_row_of(&rows[i], &pts[i]);
	fputc('\n', fp);
	sw_put_hints(fp, "", rows, n, r->disk, r->fstype, r->not_durable,
	             strcmp(r->target_kind, "device") == 0, wide ? 0 : SW_TABLE_COLS);
	free(rows);
}

/*
 * After the table and its hints, the answer in short (summary.c): for
 * each size and number of writers, the fastest durable method and what
 * it adds to none.  Only for a run of several methods (with one, its rows
 * are the answer).  Where nothing can be durable (tmpfs), that instead:
 * there is no fastest durable method there.
 */
static void
table_summary(FILE *fp, const struct sw_run *r, const struct sw_point *pts, int n,
              int wide)
{
	const int width = wide ? 0 : SW_TABLE_COLS;
	struct sw_summary sum;
	char *t;
	int i;

	sw_summarize(&sum, pts, n);
	if (sum.methods < 2) {
		sw_summary_free(&sum);
		return;
	}
	fputc('\n', fp);
	if (r->not_durable && r->not_durable[0] && sw_durability_unknown(r->not_durable)) {
		t = diot_strdupf("%s.  So no method above is named durable: the rows time "
		                 "commits that may make nothing durable", r->not_durable);
		sw_put_wrapped(fp, "summary: ", 9, t, width);
		free(t);
	} else if (r->not_durable && r->not_durable[0]) {
		/* The target's own remedy (a write cache to turn off), or
		 * another target to measure. */
		t = diot_strdupf("nothing is durable here: %s.  The rows above time commits "
		                 "that make nothing durable%s", r->not_durable,
		                 sw_durability_remedied(r->not_durable) ? "" : ": measure on "
		                 "the file system or device that is to keep the data");
		sw_put_wrapped(fp, "summary: ", 9, t, width);
		free(t);
	} else if (sum.with_best == 0) {
		sw_put_wrapped(fp, "summary: ", 9, "no method that makes a transaction "
		               "durable was measured (none and direct alone make nothing "
		               "durable)", width);
	} else {
		/* Without none anywhere, no cost columns: said instead. */
		int cost = sum.with_none > 0;
		const char *what = cost ? "the fastest durable method at each size "
		        "and number of writers (the lowest avg_us) and its cost against "
		        "none (buffered writes, no commit): +us is the microseconds it adds "
		        "to each transaction, x its avg_us over none's" : "the fastest "
		        "durable method at each size and number of writers (the lowest "
		        "avg_us); none was not measured (add it to -m for the cost of "
		        "durability)";

		/* Where the file system is not known, neither is whether it
		 * keeps what a commit hands it (fail closed: said). */
		if (r->fs_unknown) {
			t = diot_strdupf("%s.  But this build cannot tell the target's file "
			                 "system, so it cannot tell whether anything there can "
			                 "be durable (a file system in memory, tmpfs or ramfs, "
			                 "makes nothing durable, whatever the method)", what);
			sw_put_wrapped(fp, "summary: ", 9, t, width);
			free(t);
		} else {
			sw_put_wrapped(fp, "summary: ", 9, what, width);
		}
		fprintf(fp, "%9s %3s  %-*s %9s", "size_B", "wr", METHOD_W, "fastest durable",
		        "avg_us");
		if (cost)
			fprintf(fp, " %9s %9s %8s", "none_us", "+us", "x");
		fputc('\n', fp);
		for (i = 0; i < sum.n; i++) {
			const struct sw_summary_row *w = &sum.rows[i];

			fprintf(fp, "%9" PRIu64 " %3d  ", w->size, w->writers);
			if (w->best == NULL) {
				fprintf(fp, "(no durable method measured)\n");
				continue;
			}
			fprintf(fp, "%-*s %9.1f", METHOD_W, w->best->method, w->best->agg.avg_us);
			if (cost && (w->none == NULL || w->none->agg.avg_us <= 0))
				fprintf(fp, " %9s %9s %8s", "-", "-", "-");
			else if (cost)
				fprintf(fp, " %9.1f %9.1f %8.1f", w->none->agg.avg_us,
				        w->best->agg.avg_us - w->none->agg.avg_us,
				        w->best->agg.avg_us / w->none->agg.avg_us);
			fputc('\n', fp);
		}
		if (cost && sum.with_none < sum.with_best)
			sw_put_wrapped(fp, "         ", 9, "-: none was not measured there "
			               "(n/a, or not reached)", width);
	}
	sw_summary_free(&sum);
}

/* ------------------------------------------------------------ csv */

/* What the disks saw, the row's last five fields: empty where not counted
 * (as the other n/a figures), and in a writer's or a host's row (d NULL). */
static void
csv_dev(FILE *fp, const struct sw_devcount *d)
{
	if (d == NULL) {
		fputs(",,,,,", fp);
		return;
	}
	fprintf(fp, ",%s", sw_dev_state_name(d->state));
	if (d->state != SW_DEV_COUNTED) {
		fputs(",,,,", fp);
		return;
	}
	fprintf(fp, ",%.4f,%.1f,", d->writes_per_txn, d->bytes_per_txn);
	if (d->flushes_known)
		fprintf(fp, "%.4f", d->flushes_per_txn);
	fprintf(fp, ",%.4f", d->amplification);
}

/* writer: -1 all, >= 0 that writer; host: a host's row (MPI ranks). */

/* The hint field: the point's hint and its device hints, "; " between. */
static void
csv_hints(FILE *fp, const struct sw_point *p)
{
	char all[sizeof(p->hint) + sizeof(p->dev_hint) + 8];
	size_t at;
	int k;

	at = (size_t)snprintf(all, sizeof(all), "%s", p->hint);
	for (k = 0; k < SW_POINT_DEV_HINTS && at < sizeof(all); k++)
		if (p->dev_hint_kind[k] != SW_HINT_NONE)
			at += (size_t)snprintf(all + at, sizeof(all) - at, "%s%s",
			                       at ? "; " : "", p->dev_hint[k]);
	diot_csv_field(fp, all);
}

static void
csv_row(FILE *fp, const struct sw_point *p, int writer, const char *host,
        const struct sw_stats *s)
{
	fprintf(fp, "%d,", p->index);
	diot_csv_field(fp, p->method);
	fprintf(fp, ",%" PRIu64 ",%d,", p->size, p->writers);
	if (host != NULL) {
		char f[DIOT_MPI_HOST_MAX + 8];

		snprintf(f, sizeof(f), "host:%s", host);
		diot_csv_field(fp, f);
	} else if (writer < 0) {
		fputs("all", fp);
	} else {
		fprintf(fp, "%d", writer);
	}
	fprintf(fp, ",%s,%" PRIu64 ",%" PRIu64 ",%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
	        "%.3f,%.1f,%.3f,%.6f,%.6f,%.3f,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",",
	        sw_status_name(p->status), s->txns, s->bytes, s->wall_s, s->avg_us,
	        s->min_us, s->p50_us, s->p90_us, s->p99_us, s->p999_us, s->max_us,
	        s->stddev_us, s->txn_per_s, s->mb_per_s, s->cpu_user_s, s->cpu_sys_s,
	        s->cpu_us_per_txn, p->direct, p->sync_flag, p->commit,
	        p->verify.checked, p->verify.ok);
	diot_csv_field(fp, p->note);
	fputc(',', fp);
	csv_hints(fp, p);
	csv_dev(fp, writer < 0 && host == NULL ? &p->dev : NULL);
	fputc('\n', fp);
}

/* ------------------------------------------------------------ entry points */

void
sw_report_begin(FILE *fp, int fmt, const struct sw_run *r, int wide)
{
	char reg[32], *target, *t;

	if (fmt == SW_FMT_CSV) {
		fputs("point,method,size_bytes,writers,writer,status,txns,bytes,wall_s,"
		      "avg_us,min_us,p50_us,p90_us,p99_us,p999_us,max_us,stddev_us,"
		      "txn_per_s,mb_per_s,cpu_user_s,cpu_sys_s,cpu_us_per_txn,direct,"
		      "sync_flag,commit,verify_checked,verify_ok,note,hint,dev_state,"
		      "dev_writes_per_txn,dev_bytes_per_txn,dev_flushes_per_txn,"
		      "dev_amplification\n", fp);
		return;
	}
	if (fmt != SW_FMT_TABLE)
		return;
	/* Each line of the header wrapped under its text (a path whole). */
	t = diot_strdupf("%s (%s backend) on %s", r->version, r->backend, r->os);
	table_text(fp, "sync-write ", t, wide);
	free(t);
	if (r->label) {
		t = diot_strdupf("%s (host %s, started %s)", r->label, r->host, r->started);
		table_text(fp, "label:   ", t, wide);
		free(t);
	}
	target = diot_visible(r->target);     /* one line, whatever the name */
	t = diot_strdupf("%s (%s, %s); direct I/O alignment: memory %" PRIu32 ", offset %"
	                 PRIu32 " bytes (%s)", target, r->target_kind, r->fstype,
	                 r->mem_align, r->offset_align, r->align_source);
	table_text(fp, "target:  ", t, wide);
	free(t);
	free(target);
	t = diot_strdupf("%s, %s (%" PRIu64 " bytes) per writer, %s; writers are %s",
	                 strcmp(r->target_kind, "device") == 0 ? "disjoint regions of the device"
	                 : strcmp(r->layout, "shared") == 0 ? "disjoint regions of one file"
	                 : "one file per writer",
	                 diot_fmt_iec(r->region, reg, sizeof(reg)), r->region,
	                 r->extend ? "extended from empty" : strcmp(r->target_kind, "device")
	                 == 0 ? "overwritten" : "preallocated and overwritten", r->mode);
	table_text(fp, "layout:  ", t, wide);
	free(t);
	if (r->count)
		t = diot_strdupf("%" PRIu64 " transactions per writer after %" PRIu64 " warm-up "
		                 "transactions; times are microseconds per transaction (write "
		                 "+ commit)%s", r->count, r->warmup,
		                 r->verify ? "; every point verified" : "");
	else
		t = diot_strdupf("%g s each after %" PRIu64 " warm-up transactions; times are "
		                 "microseconds per transaction (write + commit)%s", r->time_s,
		                 r->warmup, r->verify ? "; every point verified" : "");
	table_text(fp, "points:  ", t, wide);
	free(t);
	if (r->mpi_library != NULL) {
		t = diot_strdupf("%d MPI ranks on %d host%s (%s), started together at "
		                 "each point; wr counts the writers of all ranks; percentiles "
		                 "from their merged histograms; txn/s and MB/s the job's "
		                 "transactions and bytes over its span (first start to last "
		                 "end, on rank 0's clock)", r->ranks->n, r->ranks->nhosts,
		                 r->ranks->nhosts == 1 ? "" : "s", r->mpi_library);
		table_text(fp, "ranks:   ", t, wide);
		free(t);
	}
	fputc('\n', fp);
	table_header(fp, wide);
}

void
sw_report_point(FILE *fp, int fmt, const struct sw_point *p, int per_writer, int per_host,
                int wide)
{
	int k;

	if (fmt == SW_FMT_TABLE) {
		table_point(fp, p, per_writer, per_host, wide);
	} else if (fmt == SW_FMT_CSV) {
		csv_row(fp, p, -1, NULL, &p->agg);
		for (k = 0; per_host && p->status != SW_NA && k < p->nhosts; k++)
			csv_row(fp, p, -1, p->hosts[k].host, &p->hosts[k].s);
		if (per_writer && p->status != SW_NA)
			for (k = 0; k < p->writers; k++)
				csv_row(fp, p, k, NULL, &p->per[k]);
	}
}

void
sw_report_end(FILE *fp, int fmt, const struct sw_run *r, const struct sw_point *pts,
              int n, int wide)
{
	if (fmt == SW_FMT_TABLE) {
		table_devices(fp, pts, n, wide);
		table_hints(fp, r, pts, n, wide);
		table_summary(fp, r, pts, n, wide);
		if (r->interrupted)
			fprintf(fp, "\ninterrupted: the results above are partial\n");
		return;
	}
	if (fmt != SW_FMT_JSON)
		return;
	sw_report_json(fp, r, pts, n);
}
