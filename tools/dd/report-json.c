/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report-json.c -- the report as JSON (-f json): the run's settings, a
 * member per device and the total, through the kit's streaming writer
 * (tools/kit/json.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "tools/dd/dd.h"
#include "tools/kit/disks.h"
#include "tools/kit/json.h"

/* --format json: the run's settings, a member per device, the total
 * (keys and structure as dio-dd(1) documents them), through the kit's
 * streaming writer. */

/* One direction's calls (reads or writes), as fio keeps them apart: null
 * when there were none, else {calls, bytes, latency_us, histogram}. */
static void
json_direction(struct diot_json *j, const char *key, const struct dd_row *r, int k)
{
	const struct diot_hist *h = r->h[k];
	uint64_t cnt[DD_NLOG2];
	int i;

	if (h->count == 0) {
		diot_json_null(j, key);
		return;
	}
	diot_json_object(j, key);
	diot_json_u64(j, "calls", h->count);
	diot_json_u64(j, "bytes", r->xbytes[k]);
	diot_json_object(j, "latency_us");
	diot_json_double(j, "mean", dd_hist_us(h, 0));
	diot_json_double(j, "p50", dd_hist_us(h, 0.5));
	diot_json_double(j, "p90", dd_hist_us(h, 0.9));
	diot_json_double(j, "p99", dd_hist_us(h, 0.99));
	diot_json_double(j, "max", dd_hist_us(h, 1));
	diot_json_close(j);
	diot_json_array(j, "histogram");
	dd_log2_buckets(h, cnt);
	for (i = 0; i < DD_NLOG2; i++) {
		if (!cnt[i])
			continue;
		diot_json_object(j, NULL);
		diot_json_u64(j, "from_ns", i == 0 ? (uint64_t)0 : (uint64_t)1 << i);
		diot_json_u64(j, "below_ns", (uint64_t)1 << (i + 1));
		diot_json_u64(j, "calls", cnt[i]);
		diot_json_close(j);
	}
	diot_json_close(j);
	diot_json_close(j);
}

/* A disk's counts over the run: "flushes" null (and "flushes_why") where
 * the kernel keeps none. */
static void
json_disk_seen(struct diot_json *j, const struct dd_disk_seen *e)
{
	const struct dio_disk_counts *c = &e->delta;

	diot_json_object(j, NULL);
	diot_json_disk_id(j, e->disk);
	diot_json_u64(j, "reads", c->read_ios);
	diot_json_u64(j, "read_bytes", c->read_sectors * 512);
	diot_json_u64(j, "writes", c->write_ios);
	diot_json_u64(j, "bytes", c->write_sectors * 512);
	if (c->have & DIO_COUNTS_FLUSH) {
		diot_json_u64(j, "flushes", c->flush_ios);
	} else {
		diot_json_null(j, "flushes");
		diot_json_str(j, "flushes_why", c->note[0] ? c->note : "not counted");
	}
	diot_json_close(j);
}

/* The disks under one operand over the run (dio-dd(1), JSON): null when
 * the row has no such operand; "counted" "no" with "why" when they could
 * not be counted. */
static void
json_operand_disks(const struct dd *dd, struct diot_json *j, const char *key, const char *path,
                   const struct dd_disks *k)
{
	unsigned m;

	if (path == NULL || (k != NULL && k->state == DD_DISKS_NONE)) {
		diot_json_null(j, key);
		return;
	}
	diot_json_object(j, key);
	if (k == NULL || k->state != DD_DISKS_COUNTED) {
		diot_json_str(j, "counted", "no");
		diot_json_str(j, "why", k != NULL ? k->why : dd_disks_absent(dd));
		diot_json_close(j);
		return;
	}
	diot_json_str(j, "counted", "yes");
	diot_json_array(j, "window_ns");
	diot_json_u64(j, NULL, k->from_ns);
	diot_json_u64(j, NULL, k->to_ns);
	diot_json_close(j);
	diot_json_array(j, "disks");
	for (m = 0; m < k->n; m++)
		json_disk_seen(j, &k->seen[m]);
	diot_json_close(j);
	diot_json_close(j);
}

static void
json_row(const struct dd *dd, struct diot_json *j, const struct dd_row *r, int total)
{
	diot_json_str(j, "name", r->name);
	diot_json_str(j, "input", r->input);
	diot_json_str(j, "output", r->output);
	diot_json_str(j, "io", r->io);
	diot_json_u64(j, "bytes", r->bytes);
	diot_json_object(j, "records_in");
	diot_json_u64(j, "full", r->full);
	diot_json_u64(j, "partial", r->partial);
	diot_json_close(j);
	diot_json_object(j, "records_out");
	diot_json_u64(j, "full", r->wfull);
	diot_json_u64(j, "partial", r->wpartial);
	diot_json_close(j);
	diot_json_u64(j, "calls", r->calls);
	diot_json_double(j, "wall_s", r->wall_s);
	diot_json_double(j, "io_s", r->io_s);
	diot_json_double(j, "mb_per_s", r->mbs);
	diot_json_double(j, "mib_per_s", r->mibs);
	json_direction(j, "read", r, DD_DIR_READ);
	json_direction(j, "write", r, DD_DIR_WRITE);
	diot_json_double(j, "cpu_s", r->cpu_s);
	if (r->sg_cmds) {
		diot_json_object(j, "sg");
		diot_json_u64(j, "commands", r->sg_cmds);
		diot_json_bool(j, "direct_asked", dd->o.dio);
		diot_json_u64(j, "direct_not_done", r->sg_nd);
		diot_json_str(j, "reason", r->sg_nd ? r->reason : NULL);
		diot_json_close(j);
	} else {
		diot_json_null(j, "sg");
	}
	diot_json_str(j, "status", r->status);
	diot_json_str(j, "error", r->error);
	/* the total: none (operands may share disks; a sum would count twice) */
	if (total) {
		diot_json_null(j, "disks");
		return;
	}
	diot_json_object(j, "disks");
	json_operand_disks(dd, j, "if", r->input, r->disks[0]);
	json_operand_disks(dd, j, "of", r->output, r->disks[1]);
	diot_json_close(j);
}

static void
json_settings(struct dd *dd, struct diot_json *j)
{
	const struct dd_opts *o = &dd->o;

	diot_json_str(j, "tool", "dio-dd");
	diot_json_str(j, "version", dio_version_string());
	diot_json_str(j, "backend", dio_backend_name());
	diot_json_str(j, "mode", dd_mode_name(dd));
	diot_json_str(j, "io", dd->total_io);
	diot_json_str(j, "engine", dd_engine_name(dd));
	diot_json_str(j, "engine_note", dd->engine_note[0] ? dd->engine_note : NULL);
	diot_json_bool(j, "processes", o->procs);
	diot_json_str(j, "worker_sessions", !o->procs ? NULL : o->same_session ? "one" : "each");
	diot_json_str(j, "fadvise", dd_fadvise_words[o->fadvise]);
	diot_json_u64(j, "buffer_page_bytes", dd_buffer_page(dd));
	diot_json_u64(j, "buffer_offset", dd->buf_off);
	diot_json_u64(j, "qd", o->engine == DD_ENG_SYNC ? 1 : o->qd);
	diot_json_u64(j, "threads", o->thr);
	diot_json_u64(j, "bs", o->bs);
	diot_json_u64(j, "bpt", o->bpt);
	diot_json_u64(j, "ibs", o->ibs);
	diot_json_u64(j, "obs", o->obs);
	diot_json_u64(j, "transfer_bytes", dd->stream ? dd->o.ibs : dd->tsize);
	/* "dd": dd's loop (stream.c); "positional": transfer i at i*bs */
	diot_json_str(j, "loop", dd->stream ? "dd" : "positional");
	diot_json_u64(j, "skip", o->skip);
	diot_json_u64(j, "seek", o->seek);
	if (o->count_set)
		diot_json_u64(j, "count", o->count);
	else
		diot_json_null(j, "count");
	if (o->rate)
		diot_json_u64(j, "rate_bytes_per_s", o->rate);
	else
		diot_json_null(j, "rate_bytes_per_s");
	diot_json_bool(j, "dio", o->dio);
	diot_json_bool(j, "interrupted", *dd->signal != 0);
	if (dd->rank_hosts != NULL) {     /* an MPI job's report, at rank 0 */
		int r;

		diot_json_object(j, "mpi");
		diot_json_str(j, "library", diot_mpi_library());
		diot_json_i64(j, "ranks", dd->mpi->size);
		diot_json_array(j, "hosts");
		for (r = 0; r < dd->mpi->size; r++)
			diot_json_str(j, NULL, dd->rank_hosts[r]);
		diot_json_close(j);
		diot_json_close(j);
	}
}

void
dd_print_json(struct dd *dd, FILE *fp, const struct dd_row *rows, int n, const struct dd_row *tot,
              double cu, double cs)
{
	struct diot_json j;
	int i;

	diot_json_init(&j, fp, 0);
	diot_json_precision(&j, 6);
	diot_json_object(&j, NULL);
	json_settings(dd, &j);
	diot_json_array(&j, "devices");
	for (i = 0; i < n; i++) {
		diot_json_object(&j, NULL);
		diot_json_i64(&j, "index", i);
		json_row(dd, &j, &rows[i], 0);
		diot_json_close(&j);
	}
	diot_json_close(&j);
	diot_json_object(&j, "total");
	diot_json_i64(&j, "devices", n);
	json_row(dd, &j, tot, 1);
	diot_json_close(&j);
	diot_json_double(&j, "cpu_user_s", cu);
	diot_json_double(&j, "cpu_sys_s", cs);
	diot_json_close(&j);
	diot_json_end(&j);
}
