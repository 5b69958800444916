/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c -- sync-write's results: the aligned table and CSV as points
 * finish, the JSON document at the end (through the kit's JSON writer;
 * schema in tools/sync-write.schema.json); the table's end and the JSON
 * carry the run's summary (summary.c), CSV does not (a row per point).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/json.h"
#include "tools/kit/msg.h"
#include "tools/sw/sw.h"

static const char *const status_name[] = { "ok", "n/a", "error", "interrupted" };

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

/* With MPI ranks, writer k is writer k % (writers / ranks) of rank k /
 * (writers / ranks); without, ranks is 1. */
static int
rank_of(const struct sw_point *p, int k)
{
	return p->ranks > 1 ? k / (p->writers / p->ranks) : 0;
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
				         rank_of(p, k));
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
		         "note" : status_name[p->status]);
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
	        status_name[p->status], s->txns, s->bytes, s->wall_s, s->avg_us,
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

/* ------------------------------------------------------------ json */

/* A stats object; a writer's or a rank's of an MPI job (rank >= 0) says
 * its rank and host first; the figures of several writers together (an
 * aggregate, a host's) say their span. */
static void
json_stats_of(struct diot_json *j, const char *key, const struct sw_stats *s, int rank,
              const char *host, int span)
{
	diot_json_object(j, key);
	if (rank >= 0) {
		diot_json_i64(j, "rank", rank);
		diot_json_str(j, "host", host);
	}
	diot_json_double(j, "txns", (double)s->txns);
	diot_json_double(j, "bytes", (double)s->bytes);
	diot_json_double(j, "wall_s", s->wall_s);
	if (span)
		diot_json_double(j, "span_s", s->wall_s);
	diot_json_double(j, "avg_us", s->avg_us);
	diot_json_double(j, "min_us", s->min_us);
	diot_json_double(j, "p50_us", s->p50_us);
	diot_json_double(j, "p90_us", s->p90_us);
	diot_json_double(j, "p99_us", s->p99_us);
	diot_json_double(j, "p999_us", s->p999_us);
	diot_json_double(j, "max_us", s->max_us);
	diot_json_double(j, "stddev_us", s->stddev_us);
	diot_json_double(j, "txn_per_s", s->txn_per_s);
	diot_json_double(j, "mb_per_s", s->mb_per_s);
	diot_json_double(j, "cpu_user_s", s->cpu_user_s);
	diot_json_double(j, "cpu_sys_s", s->cpu_sys_s);
	diot_json_double(j, "cpu_us_per_txn", s->cpu_us_per_txn);
	diot_json_close(j);
}

static void
json_stats(struct diot_json *j, const char *key, const struct sw_stats *s)
{
	json_stats_of(j, key, s, -1, NULL, 0);
}

/* The hosts and ranks of a point run by MPI ranks (per_host, per_rank). */
static void
json_hosts(struct diot_json *j, const struct sw_point *p, const struct sw_ranks *R)
{
	int k;

	diot_json_i64(j, "ranks", p->ranks);
	diot_json_double(j, "clock_error_us", p->clock_error_us);
	diot_json_array(j, "per_host");
	for (k = 0; k < p->nhosts; k++) {
		diot_json_object(j, NULL);
		diot_json_str(j, "host", p->hosts[k].host);
		diot_json_i64(j, "ranks", p->hosts[k].ranks);
		diot_json_i64(j, "writers", p->hosts[k].writers);
		json_stats_of(j, "stats", &p->hosts[k].s, -1, NULL, 1);
		diot_json_close(j);
	}
	diot_json_close(j);
	diot_json_array(j, "per_rank");
	for (k = 0; p->per_rank != NULL && k < p->ranks; k++)
		json_stats_of(j, NULL, &p->per_rank[k], k, R != NULL && R->host != NULL ?
		              R->host[k] : "", 0);
	diot_json_close(j);
}

/* A count of what the disks saw, or null where it is not known. */
static void
json_count(struct diot_json *j, const char *key, uint64_t v, int known)
{
	if (known)
		diot_json_u64(j, key, v);
	else
		diot_json_null(j, key);
}

static void
json_figure(struct diot_json *j, const char *key, double v, int known)
{
	if (known)
		diot_json_double(j, key, v);
	else
		diot_json_null(j, key);
}

/* "device": what the disks under the target saw during the point. */
static void
json_device(struct diot_json *j, const struct sw_devcount *d)
{
	int raw = d->state != SW_DEV_NA, ok = d->state == SW_DEV_COUNTED, k;
	int fl = raw && d->flushes_known;

	diot_json_object(j, "device");
	diot_json_str(j, "counted", sw_dev_state_name(d->state));
	if (d->state != SW_DEV_COUNTED)
		diot_json_str(j, "why", d->why);
	diot_json_u64(j, "txns", d->txns);
	json_count(j, "writes", d->writes, raw);
	json_count(j, "bytes", d->sectors * 512, raw);
	json_count(j, "flushes", d->flushes, fl);
	json_figure(j, "writes_per_txn", d->writes_per_txn, ok);
	json_figure(j, "bytes_per_txn", d->bytes_per_txn, ok);
	json_figure(j, "flushes_per_txn", d->flushes_per_txn, ok && fl);
	json_figure(j, "amplification", d->amplification, ok);
	if (raw && d->base_s > 0) {
		diot_json_object(j, "baseline");
		diot_json_double(j, "seconds", d->base_s);
		diot_json_u64(j, "writes", d->base_writes);
		diot_json_u64(j, "bytes", d->base_sectors * 512);
		json_count(j, "flushes", d->base_flushes, fl);
		diot_json_close(j);
	} else {
		diot_json_null(j, "baseline");
	}
	if (raw) {
		diot_json_array(j, "window_ns");
		diot_json_u64(j, NULL, d->from_ns);
		diot_json_u64(j, NULL, d->to_ns);
		diot_json_close(j);
	} else {
		diot_json_null(j, "window_ns");
	}
	diot_json_array(j, "disks");
	for (k = 0; raw && k < d->ndisks; k++) {
		const struct sw_dev_disk *e = &d->disks[k];

		diot_json_object(j, NULL);
		diot_json_str(j, "name", e->name);
		diot_json_str(j, "host", e->host);
		diot_json_u64(j, "writes", e->writes);
		diot_json_u64(j, "bytes", e->sectors * 512);
		json_count(j, "flushes", e->flushes, e->flushes_known);
		diot_json_str(j, "write_cache", dio_tri_name(e->write_cache));
		diot_json_str(j, "device_cache", dio_tri_name(e->device_cache));
		diot_json_str(j, "fua", dio_tri_name(e->fua));
		diot_json_close(j);
	}
	diot_json_close(j);
	diot_json_close(j);
}

static void
json_point(struct diot_json *j, const struct sw_point *p, const struct sw_ranks *R)
{
	int k;

	diot_json_object(j, NULL);
	diot_json_i64(j, "index", p->index);
	diot_json_str(j, "method", p->method);
	diot_json_u64(j, "size_bytes", p->size);
	diot_json_i64(j, "writers", p->writers);
	diot_json_str(j, "status", status_name[p->status]);
	diot_json_str(j, "note", p->note[0] ? p->note : NULL);
	diot_json_str(j, "hint", p->hint[0] ? p->hint : NULL);
	diot_json_array(j, "device_hints");
	for (k = 0; k < SW_POINT_DEV_HINTS; k++)
		if (p->dev_hint_kind[k] != SW_HINT_NONE) {
			diot_json_object(j, NULL);
			diot_json_str(j, "kind", sw_dev_hint_name(p->dev_hint_kind[k]));
			diot_json_str(j, "text", p->dev_hint[k]);
			diot_json_close(j);
		}
	diot_json_close(j);
	diot_json_str(j, "direct", p->direct);
	diot_json_str(j, "sync_flag", p->sync_flag);
	diot_json_str(j, "commit", p->commit);
	diot_json_bool(j, "region_full", p->region_full);
	if (p->ranks > 1)
		json_hosts(j, p, R);
	if (p->status == SW_NA) {
		diot_json_null(j, "aggregate");
		diot_json_array(j, "per_writer");
		diot_json_close(j);
	} else {
		json_stats_of(j, "aggregate", &p->agg, -1, NULL, 1);
		diot_json_array(j, "per_writer");
		for (k = 0; k < p->writers; k++)
			if (p->ranks > 1 && R != NULL && R->host != NULL)
				json_stats_of(j, NULL, &p->per[k], rank_of(p, k),
				              R->host[rank_of(p, k)], 0);
			else
				json_stats(j, NULL, &p->per[k]);
		diot_json_close(j);
	}
	if (p->verify.done) {
		diot_json_object(j, "verify");
		diot_json_u64(j, "checked", p->verify.checked);
		diot_json_u64(j, "ok", p->verify.ok);
		diot_json_u64(j, "missing", p->verify.missing);
		diot_json_u64(j, "corrupt", p->verify.corrupt);
		diot_json_u64(j, "stale", p->verify.stale);
		diot_json_u64(j, "misplaced", p->verify.misplaced);
		diot_json_close(j);
	} else {
		diot_json_null(j, "verify");
	}
	json_device(j, &p->dev);
	diot_json_close(j);
}

/* The summary (as the table's, summary.c): a row per size and writers;
 * none where nothing can be durable, which "cannot_be_durable" says. */
static void
json_summary(struct diot_json *j, const struct sw_run *r, const struct sw_point *pts,
             int n)
{
	int nd = r->not_durable && r->not_durable[0];
	struct sw_summary sum;
	int i;

	sw_summarize(&sum, pts, n);
	diot_json_object(j, "summary");
	diot_json_str(j, "by", "avg_us");
	diot_json_str(j, "cannot_be_durable", nd ? r->not_durable : NULL);
	diot_json_array(j, "rows");
	for (i = 0; i < sum.n && !nd; i++) {
		const struct sw_summary_row *w = &sum.rows[i];
		int cost = w->best != NULL && w->none != NULL && w->none->agg.avg_us > 0;

		diot_json_object(j, NULL);
		diot_json_u64(j, "size_bytes", w->size);
		diot_json_i64(j, "writers", w->writers);
		diot_json_str(j, "method", w->best ? w->best->method : NULL);
		if (w->best)
			diot_json_double(j, "avg_us", w->best->agg.avg_us);
		else
			diot_json_null(j, "avg_us");
		if (w->none)
			diot_json_double(j, "none_avg_us", w->none->agg.avg_us);
		else
			diot_json_null(j, "none_avg_us");
		if (cost) {
			diot_json_double(j, "added_us", w->best->agg.avg_us - w->none->agg.avg_us);
			diot_json_double(j, "ratio", w->best->agg.avg_us / w->none->agg.avg_us);
		} else {
			diot_json_null(j, "added_us");
			diot_json_null(j, "ratio");
		}
		diot_json_close(j);
	}
	diot_json_close(j);
	diot_json_close(j);
	sw_summary_free(&sum);
}

/* The whole document, at the end of the run (schema:
 * tools/sync-write.schema.json). */
static void
json_report(FILE *fp, const struct sw_run *r, const struct sw_point *pts, int n)
{
	struct diot_json j;
	int i;

	diot_json_init(&j, fp, 2);
	diot_json_precision(&j, 6);
	diot_json_object(&j, NULL);
	diot_json_str(&j, "tool", "sync-write");
	diot_json_i64(&j, "schema", 1);
	diot_json_str(&j, "version", r->version);
	diot_json_str(&j, "backend", r->backend);
	diot_json_str(&j, "os", r->os);
	diot_json_str(&j, "host", r->host);
	diot_json_str(&j, "started", r->started);
	diot_json_str(&j, "label", r->label);
	diot_json_object(&j, "target");
	diot_json_str(&j, "path", r->target);
	diot_json_str(&j, "kind", r->target_kind);
	diot_json_str(&j, "fs", r->fstype);
	diot_json_str(&j, "disk", r->disk && r->disk[0] ? r->disk : NULL);
	diot_json_u64(&j, "mem_align", r->mem_align);
	diot_json_u64(&j, "offset_align", r->offset_align);
	diot_json_str(&j, "align_source", r->align_source);
	diot_json_close(&j);
	diot_json_object(&j, "config");
	diot_json_str(&j, "layout", r->layout);
	diot_json_str(&j, "writers_are", r->mode);
	diot_json_bool(&j, "extend", r->extend);
	diot_json_u64(&j, "region_bytes", r->region);
	if (r->count) {
		diot_json_null(&j, "time_s");
		diot_json_u64(&j, "count", r->count);
	} else {
		diot_json_double(&j, "time_s", r->time_s);
		diot_json_null(&j, "count");
	}
	diot_json_u64(&j, "warmup", r->warmup);
	diot_json_bool(&j, "verify", r->verify);
	diot_json_close(&j);
	if (r->mpi_library != NULL) {
		diot_json_object(&j, "mpi");
		diot_json_str(&j, "library", r->mpi_library);
		diot_json_i64(&j, "ranks", r->ranks->n);
		diot_json_array(&j, "hosts");
		for (i = 0; i < r->ranks->n; i++)
			diot_json_str(&j, NULL, r->ranks->host[i]);
		diot_json_close(&j);
		diot_json_close(&j);
	}
	diot_json_bool(&j, "interrupted", r->interrupted);
	diot_json_str(&j, "error", r->error);
	diot_json_array(&j, "points");
	for (i = 0; i < n; i++)
		json_point(&j, &pts[i], r->ranks);
	diot_json_close(&j);
	json_summary(&j, r, pts, n);
	diot_json_end(&j);
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
	json_report(fp, r, pts, n);
}
