/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report-json.c -- sync-write's results as one JSON document (-f json), at
 * the end of the run, through the kit's streaming writer
 * (tools/kit/json.h): the run's target and settings, each point (its
 * statistics, per writer, per host and rank of an MPI job, its check and
 * what the disks saw) and the run's summary (summary.c).  Schema in
 * tools/sync-write.schema.json; report.c calls it (sw_report_json).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "tools/kit/json.h"
#include "tools/sw/sw.h"

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
	diot_json_str(j, "status", sw_status_name(p->status));
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
				json_stats_of(j, NULL, &p->per[k], sw_rank_of(p, k),
				              R->host[sw_rank_of(p, k)], 0);
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
void
sw_report_json(FILE *fp, const struct sw_run *r, const struct sw_point *pts, int n)
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
