/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c -- what a run says at its end and while it runs: a row per
 * device and the total (an MPI job's through ranks.c), the timing table
 * (time=1), dd's closing lines ("records in/out", the transfer line),
 * status=progress and SIGUSR1's statistics, CSV; the JSON is
 * report-json.c's.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/clock.h"
#include "tools/kit/disks.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"

static void
make_row(struct dd *dd, struct dd_row *r, const struct dd_dev *d, double wall_s)
{
	memset(r, 0, sizeof(*r));
	r->name = d->name;
	r->input = d->in.path;
	r->output = d->out.path;
	r->io = dd->io_labels[d->index];
	r->h[DD_DIR_READ] = &d->hist[DD_DIR_READ];
	r->h[DD_DIR_WRITE] = &d->hist[DD_DIR_WRITE];
	r->xbytes[DD_DIR_READ] = d->rbytes;
	r->xbytes[DD_DIR_WRITE] = d->wbytes;
	r->bytes = d->bytes;
	r->full = d->rfull;
	r->partial = d->rpart;
	r->wfull = d->wfull;
	r->wpartial = d->wpart;
	r->calls = d->calls;
	r->sg_cmds = d->sg_cmds;
	r->sg_nd = d->sg_not_direct;
	r->wall_s = wall_s;
	r->io_s = (double)d->io_ns / 1e9;
	r->mbs = wall_s > 0 ? (double)d->bytes / wall_s / 1e6 : 0;
	r->mibs = wall_s > 0 ? (double)d->bytes / wall_s / 1048576.0 : 0;
	r->cpu_s = (double)d->cpu_ns / 1e9;
	r->status = d->err ? "error" : *dd->signal ? "interrupted" : "ok";
	r->error = d->err ? d->errmsg : NULL;
	r->reason = d->reason[0] ? d->reason : NULL;
	r->disks[0] = &d->disks[0];
	r->disks[1] = &d->disks[1];
}

static char *
fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.4g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.4g ms", ns / 1e6);
	else
		snprintf(buf, len, "%.4g s", ns / 1e9);
	return buf;
}

static const char *const dir_words[DD_NDIR] = { "read", "write" };

static void
print_hist_table(FILE *fp, const char *title, const char *name, const struct diot_hist *h)
{
	uint64_t cnt[DD_NLOG2], cum = 0;
	char a[32], b[32];
	int first = -1, last = -1, i;

	dd_log2_buckets(h, cnt);
	for (i = 0; i < DD_NLOG2; i++)
		if (cnt[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
	if (first < 0)
		return;
	fprintf(fp, "latency histogram, %s%s%s (%" PRIu64 " calls):\n", title, name ? " on " : "",
	        name ? name : "", h->count);
	fprintf(fp, "  %10s  %10s  %10s  %7s  %7s\n", "from", "below", "calls", "%", "cum %");
	for (i = first; i <= last; i++) {
		cum += cnt[i];
		fprintf(fp, "  %10s  %10s  %10" PRIu64 "  %6.2f%%  %6.2f%%\n",
		        fmt_ns(i == 0 ? 0 : (double)(1ull << i), a, sizeof(a)),
		        fmt_ns((double)(1ull << (i + 1)), b, sizeof(b)), cnt[i],
		        100.0 * (double)cnt[i] / (double)h->count,
		        100.0 * (double)cum / (double)h->count);
	}
}

/* The latency of each direction that had calls: a row per device and
 * direction, the total's rows, then a histogram per direction (and per
 * device and direction with several devices), as fio keeps reads and
 * writes apart. */
static void
print_latency(FILE *fp, const struct dd_row *rows, char **names, int n, const struct dd_row *tot,
              int w)
{
	const struct dd_row *r;
	int i, k;

	fprintf(fp, "%-*s %-5s %10s %14s %9s %9s %9s %9s %10s\n", w, "latency", "op", "calls",
	        "bytes", "mean us", "p50 us", "p90 us", "p99 us", "max us");
	for (i = 0; i <= n; i++) {
		r = i < n ? &rows[i] : tot;
		if (i == n && n == 1)
			break;          /* one device: its rows are the total's */
		for (k = 0; k < DD_NDIR; k++) {
			if (r->h[k]->count == 0)
				continue;
			fprintf(fp, "%-*s %-5s %10" PRIu64 " %14" PRIu64 " %9.1f %9.1f %9.1f %9.1f "
			        "%10.1f\n", w, i < n ? names[i] : "total", dir_words[k],
			        r->h[k]->count, r->xbytes[k], dd_hist_us(r->h[k], 0), dd_hist_us(r->h[k], 0.5),
			        dd_hist_us(r->h[k], 0.9), dd_hist_us(r->h[k], 0.99), dd_hist_us(r->h[k], 1));
		}
	}
	for (k = 0; k < DD_NDIR; k++)
		print_hist_table(fp, k == DD_DIR_READ ? "reads" : "writes",
		                 n > 1 ? "every device" : NULL, tot->h[k]);
	if (n > 1)
		for (i = 0; i < n; i++)
			for (k = 0; k < DD_NDIR; k++)
				print_hist_table(fp, k == DD_DIR_READ ? "reads" : "writes", names[i],
				                 rows[i].h[k]);
}

/* One operand's disks: a line per disk, or its n/a and why. */
static void
print_operand_disks(FILE *fp, const char *label, const struct dd_disks *k, const char *absent,
                    int w)
{
	char fl[24];
	unsigned m;

	if (k == NULL || k->state == DD_DISKS_NA || k->state == DD_DISKS_NONE) {
		fprintf(fp, "%-*s n/a: %s\n", w, label, k != NULL && k->state == DD_DISKS_NA ?
		        k->why : absent);
		return;
	}
	for (m = 0; m < k->n; m++) {
		const struct dd_disk_seen *e = &k->seen[m];
		const struct dio_disk_counts *c = &e->delta;
		char *name = diot_quoted(e->disk->name);

		if (c->have & DIO_COUNTS_FLUSH)
			snprintf(fl, sizeof(fl), "%" PRIu64, c->flush_ios);
		else
			snprintf(fl, sizeof(fl), "n/a");
		fprintf(fp, "%-*s %-10s %9" PRIu64 " %14" PRIu64 " %9" PRIu64 " %14" PRIu64
		        " %8s  %s, FUA %s\n", w, m == 0 ? label : "", name, c->read_ios,
		        c->read_sectors * 512, c->write_ios, c->write_sectors * 512, fl,
		        diot_disk_cache_word(e->disk), dio_tri_name((int)e->disk->fua));
		free(name);
	}
	for (m = 0; m < k->n; m++)
		if (!(k->seen[m].delta.have & DIO_COUNTS_FLUSH))
			fprintf(fp, "%-*s flushes of %s n/a: %s\n", w, "", k->seen[m].disk->name,
			        k->seen[m].delta.note);
}

/*
 * time=1: what the disks under each operand saw over the run, as the
 * block layer counts it (disks.c); nothing when no operand has a disk
 * to count and none was asked (a row of another MPI rank: n/a).
 */
static void
print_disks(struct dd *dd, FILE *fp, const struct dd_row *rows, int n)
{
	static const char *const key[2] = { "if=", "of=" };
	char **labels;
	int i, k, w = 7, l;

	labels = calloc((size_t)n * 2 + 1, sizeof(*labels));
	if (labels == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++) {
			const char *p = k == 0 ? rows[i].input : rows[i].output;
			char *q;

			if (p == NULL || (rows[i].disks[k] != NULL &&
			                  rows[i].disks[k]->state == DD_DISKS_NONE))
				continue;
			q = diot_quoted(p);
			labels[i * 2 + k] = diot_strdupf("%s%s", key[k], q);
			free(q);
			if ((l = (int)strlen(labels[i * 2 + k])) > w)
				w = l;
		}
	fprintf(fp, "disks over the run (block layer counts, raw: other I/O to these disks "
	        "is in them too):\n");
	fprintf(fp, "%-*s %-10s %9s %14s %9s %14s %8s  %s\n", w, "operand", "disk", "reads",
	        "read bytes", "writes", "write bytes", "flushes", "cache");
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++)
			if (labels[i * 2 + k] != NULL) {
				print_operand_disks(fp, labels[i * 2 + k], rows[i].disks[k],
				                    dd_disks_absent(dd), w);
				free(labels[i * 2 + k]);
			}
	free(labels);
}

static void
print_table(struct dd *dd, FILE *fp, const struct dd_row *rows, int n, const struct dd_row *tot,
            double cpu_user, double cpu_sys)
{
	char a[32], **names;
	size_t w = 7, l, page = dd_buffer_page(dd);
	int i, large = page > (size_t)sysconf(_SC_PAGESIZE);
	const struct dd_row *r;

	fprintf(fp, "dio-dd %s: %d device%s x %" PRIu64 " thread%s%s, %s, engine %s",
	        dd_mode_name(dd), n, n == 1 ? "" : "s", dd->o.thr, dd->o.thr == 1 ? "" : "s",
	        !dd->o.procs ? "" : dd->o.same_session ? " (a process per device, one session)" :
	        " (a process per device, each its own session)", dd->total_io, dd_engine_name(dd));
	if (dd->o.engine != DD_ENG_SYNC)
		fprintf(fp, " qd=%" PRIu64, dd->o.qd);
	if (dd->stream && dd->o.ibs != dd->o.obs)
		fprintf(fp, ", dd's loop, ibs=%" PRIu64 " obs=%" PRIu64, dd->o.ibs, dd->o.obs);
	else if (dd->stream)
		fprintf(fp, ", dd's loop, bs=%" PRIu64, dd->o.bs);
	else
		fprintf(fp, ", bs=%" PRIu64 " bpt=%" PRIu64 " (%s per call)", dd->o.bs, dd->o.bpt,
		        diot_fmt_iec(dd->tsize, a, sizeof(a)));
	if (large)
		fprintf(fp, ", buffers on %s pages", diot_fmt_iec(page, a, sizeof(a)));
	if (dd->buf_off)
		fprintf(fp, "%s %zu bytes in (bufoff=)", large ? "," : ", buffers", dd->buf_off);
	fputc('\n', fp);
	if (dd->engine_note[0])
		fprintf(fp, "engine: %s\n", dd->engine_note);
	if (dd->o.rate)
		fprintf(fp, "rate limit %" PRIu64 " bytes/s per device\n", dd->o.rate);
	/* (the names as diot_quoted() shows them: one column each) */
	names = calloc((size_t)n + 1, sizeof(*names));
	if (names == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < n; i++) {
		names[i] = diot_quoted(rows[i].name);
		if ((l = strlen(names[i])) > w)
			w = l;
	}
	fprintf(fp, "%-*s %14s %9s %9s %9s %9s %10s %7s\n", (int)w, "device", "bytes", "wall s",
	        "in-call s", "MB/s", "MiB/s", "calls", "cpu s");
	for (i = 0; i <= n; i++) {
		r = i < n ? &rows[i] : tot;
		fprintf(fp, "%-*s %14" PRIu64 " %9.3f %9.3f %9.1f %9.1f %10" PRIu64 " %7.3f\n",
		        (int)w, i < n ? names[i] : "total", r->bytes, r->wall_s, r->io_s, r->mbs,
		        r->mibs, r->calls, r->cpu_s);
	}
	fprintf(fp, "cpu: user %.3f s, sys %.3f s (%.0f%% of one CPU over the wall time)\n",
	        cpu_user, cpu_sys, tot->wall_s > 0 ? 100 * (cpu_user + cpu_sys) / tot->wall_s : 0);
	if (tot->sg_cmds) {
		fprintf(fp, "sg: %" PRIu64 " commands", tot->sg_cmds);
		if (dd->o.dio)
			fprintf(fp, "; direct I/O was asked (dio=1) but not done for %" PRIu64
			        " of them%s%s", tot->sg_nd, tot->sg_nd && tot->reason ? ": " : "",
			        tot->sg_nd && tot->reason ? tot->reason : "");
		fprintf(fp, "\n");
	}
	print_latency(fp, rows, names, n, tot, (int)w);
	print_disks(dd, fp, rows, n);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * A count of bytes as dd shows it beside the exact figure: autoscaled in
 * base 1000 ("3.1 MB") or 1024 ("3.0 MiB"), rounded to the nearest (a
 * half to the even), one decimal below 10.  Returns 0 when n is below
 * the base (dd then shows no such figure).
 */
static int
dd_size(uint64_t n, unsigned base, char *buf, size_t len)
{
	const char *pfx = base == 1024 ? "KMGTPE" : "kMGTPE";
	const char *i = base == 1024 ? "i" : "";
	uint64_t amt = n;
	unsigned tenths = 0, rounding = 0, r10, r2;
	int exp = 0;

	if (amt < base)
		return 0;
	/* Divide, keeping the tenth and how the rest compares to a half
	 * (0 none, 1 below, 2 a half, 3 above). */
	do {
		r10 = (unsigned)(amt % base) * 10 + tenths;
		r2 = (r10 % base) * 2 + (rounding >> 1);
		amt /= base;
		tenths = r10 / base;
		rounding = r2 < base ? (r2 != 0) : 2 + (base < r2);
		exp++;
	} while (amt >= base && exp < 6);
	if (amt < 10) {
		if (rounding + (tenths & 1) > 2) {
			tenths++;
			rounding = 0;
			if (tenths == 10) {
				amt++;
				tenths = 0;
			}
		}
		if (amt < 10) {
			snprintf(buf, len, "%u.%u %c%sB", (unsigned)amt, tenths, pfx[exp - 1], i);
			return 1;
		}
		tenths = rounding = 0;
	}
	if (tenths + (rounding + (amt & 1) > 0) > 5) {
		amt++;
		if (amt == base && exp < 6) {
			exp++;
			snprintf(buf, len, "1.0 %c%sB", pfx[exp - 1], i);
			return 1;
		}
	}
	snprintf(buf, len, "%" PRIu64 " %c%sB", amt, pfx[exp - 1], i);
	return 1;
}

/* A rate as dd shows it: base 1000, at least kB/s, one decimal below 100. */
static void
dd_rate(uint64_t bytes, double secs, char *buf, size_t len)
{
	static const char pfx[] = "kMGTPEZY";
	double v, e = 1000;
	int exp = 1;

	if (secs <= 0) {
		snprintf(buf, len, "Infinity B/s");
		return;
	}
	v = (double)bytes / secs;
	while (e * 1000 <= v && exp < 8) {
		e *= 1000;
		exp++;
	}
	v /= e;
	snprintf(buf, len, "%.1f %cB/s", v, pfx[exp - 1]);
	if (strchr(buf, ' ') - buf > 4)
		snprintf(buf, len, "%.0f %cB/s", v, pfx[exp - 1]);
}

/* dd's transfer line: "N bytes (SI, IEC) copied, T s, R" (progress: whole
 * seconds), into buf; its length. */
static int
dd_xfer_line(char *buf, size_t len, uint64_t bytes, double secs, int progress)
{
	char si[32], iec[32], rate[48], t[32];

	dd_rate(bytes, secs, rate, sizeof(rate));
	snprintf(t, sizeof(t), progress ? "%.0f s" : "%g s", secs);
	if (!dd_size(bytes, 1000, si, sizeof(si)))
		return snprintf(buf, len, "%" PRIu64 " byte%s copied, %s, %s", bytes,
		                bytes == 1 ? "" : "s", t, rate);
	if (!dd_size(bytes, 1024, iec, sizeof(iec)))
		return snprintf(buf, len, "%" PRIu64 " bytes (%s) copied, %s, %s", bytes, si, t,
		                rate);
	return snprintf(buf, len, "%" PRIu64 " bytes (%s, %s) copied, %s, %s", bytes, si, iec,
	                t, rate);
}

/*
 * dd's closing lines, on fp: the records in (where there is an input) and
 * out (where there is an output), then the transfer line (not with
 * status=noxfer; nothing at all with status=none).
 */
void
dd_print_records(struct dd *dd, FILE *fp, const struct dd_row *tot)
{
	char line[256];

	if (dd->o.status == DD_STATUS_NONE)
		return;
	if (dd->progress_shown) {
		fputc('\n', fp);
		dd->progress_shown = 0;
	}
	if (dd->o.mode != DD_MODE_WRITE)
		fprintf(fp, "%" PRIu64 "+%" PRIu64 " records in\n", tot->full, tot->partial);
	if (dd->o.mode != DD_MODE_READ)
		fprintf(fp, "%" PRIu64 "+%" PRIu64 " records out\n", tot->wfull, tot->wpartial);
	if (dd->o.status == DD_STATUS_NOXFER)
		return;
	dd_xfer_line(line, sizeof(line), tot->bytes, tot->wall_s, 0);
	fprintf(fp, "%s\n", line);
}

/* The figures so far, from the devices' counters (under their locks). */
static void
so_far(struct dd *dd, struct dd_row *r)
{
	uint64_t now = diot_now_ns();
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < dd->ndevs; i++) {
		struct dd_dev *d = &dd->devs[i];

		pthread_mutex_lock(&d->lock);
		r->full += d->rfull;
		r->partial += d->rpart;
		r->wfull += d->wfull;
		r->wpartial += d->wpart;
		r->bytes += d->done;
		pthread_mutex_unlock(&d->lock);
	}
	r->wall_s = dd->t_go && now > dd->t_go ? (double)(now - dd->t_go) / 1e9 : 0;
}

/* SIGUSR1 (and conv=noerror after a read error): dd's lines so far, on
 * standard error; the run goes on. */
void
dd_say_statistics(struct dd *dd)
{
	struct dd_row r;

	so_far(dd, &r);
	dd_print_records(dd, stderr, &r);
	fflush(stderr);
}

/* status=progress: the transfer line so far, over the last one. */
void
dd_say_progress(struct dd *dd)
{
	static int width;
	char line[256];
	struct dd_row r;
	int n;

	so_far(dd, &r);
	n = dd_xfer_line(line, sizeof(line), r.bytes, r.wall_s, 1);
	fprintf(stderr, "\r%s%*s", line, n < width ? width - n : 0, "");
	width = n;
	fflush(stderr);
	dd->progress_shown = 1;
}

static const char *const csv_cols =
	"row,device,input,output,mode,io,engine,qd,threads,bs,bpt,bytes,records_in_full,"
	"records_in_partial,records_out_full,records_out_partial,calls,wall_s,io_s,"
	"mb_per_s,mib_per_s,read_calls,read_bytes,read_lat_mean_us,read_lat_p50_us,"
	"read_lat_p90_us,read_lat_p99_us,read_lat_max_us,write_calls,write_bytes,"
	"write_lat_mean_us,write_lat_p50_us,write_lat_p90_us,write_lat_p99_us,"
	"write_lat_max_us,cpu_s,cpu_user_s,cpu_sys_s,sg_commands,sg_direct_not_done,"
	"status,error";

static void
csv_row(struct dd *dd, FILE *fp, const char *kind, const struct dd_row *r, double cu, double cs)
{
	int k;

	fprintf(fp, "%s,", kind);
	diot_csv_field(fp, r->name);
	fputc(',', fp);
	diot_csv_field(fp, r->input ? r->input : "");
	fputc(',', fp);
	diot_csv_field(fp, r->output ? r->output : "");
	fprintf(fp, ",%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	        ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	        ",%.6f,%.6f,%.3f,%.3f,",
	        dd_mode_name(dd), r->io, dd_engine_name(dd),
	        dd->o.engine == DD_ENG_SYNC ? 1 : dd->o.qd, dd->o.thr,
	        dd->o.bs, dd->o.bpt, r->bytes, r->full, r->partial, r->wfull, r->wpartial, r->calls,
	        r->wall_s, r->io_s, r->mbs, r->mibs);
	/* each direction: its calls, bytes and latency (empty: no such calls) */
	for (k = 0; k < DD_NDIR; k++) {
		const struct diot_hist *h = r->h[k];

		if (h->count == 0)
			fprintf(fp, "0,0,,,,,,");
		else
			fprintf(fp, "%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.3f,", h->count,
			        r->xbytes[k], dd_hist_us(h, 0), dd_hist_us(h, 0.5),
			        dd_hist_us(h, 0.9), dd_hist_us(h, 0.99), dd_hist_us(h, 1));
	}
	fprintf(fp, "%.6f,", r->cpu_s);
	if (cu >= 0)
		fprintf(fp, "%.6f,%.6f,", cu, cs);
	else
		fprintf(fp, ",,");
	fprintf(fp, "%" PRIu64 ",%" PRIu64 ",%s,", r->sg_cmds, r->sg_nd, r->status);
	diot_csv_field(fp, r->error ? r->error : "");
	fputc('\n', fp);
}

/* The report (or --help, --version) must have reached standard output:
 * a full disk or a closed pipe is a failure, not a success. */
int
dd_stdout_ok(void)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 1;
	e = errno ? errno : EIO;
	diot_warn("cannot write to standard output: %s", dd_strerror(e));
	return 0;
}

/* The report in the format asked: the table (and dd's closing lines), CSV
 * or JSON; rows: n devices, tot their total. */
static void
print_report(struct dd *dd, const struct dd_row *rows, int n, const struct dd_row *tot,
             double cu, double cs)
{
	int i;

	switch (dd->o.format) {
	case DD_FMT_TABLE:
		if (dd->mpi != NULL && dd->mpi->on)
			printf("ranks: %d MPI ranks (%s), started together; rows RANK@HOST:DEVICE; "
			       "the total's times from every call of every rank, its MB/s the "
			       "job's bytes over its span (first start to last end, on rank 0's "
			       "clock)\n", dd->mpi->size, diot_mpi_library());
		/* The timing table on standard output, unless the data went
		 * there; dd's closing lines on standard error, as dd's. */
		if (dd->o.time)
			print_table(dd, dd->data_stdout ? stderr : stdout, rows, n, tot, cu, cs);
		dd_print_records(dd, stderr, tot);
		break;
	case DD_FMT_CSV:
		printf("%s\n", csv_cols);
		for (i = 0; i < n; i++)
			csv_row(dd, stdout, "device", &rows[i], -1, -1);
		csv_row(dd, stdout, "total", tot, cu, cs);
		break;
	case DD_FMT_JSON:
		dd_print_json(dd, stdout, rows, n, tot, cu, cs);
		break;
	}
}

/*
 * The results: a row per device and the total, in the format asked,
 * then each device's error.  Returns 1 if a device failed or the report
 * could not be written.
 */
int
dd_report(struct dd *dd, double cu, double cs)
{
	struct dd_row *rows, tot;
	struct diot_hist *all = malloc(DD_NDIR * sizeof(*all));
	double wall;
	uint64_t t_end = 0;
	int i, n, failed = 0, report_lost = 0;
	const char *first_err = NULL;

	if (all == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	rows = calloc((size_t)dd->ndevs, sizeof(*rows));
	if (rows == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memset(&tot, 0, sizeof(tot));
	diot_hist_reset(&all[DD_DIR_READ]);
	diot_hist_reset(&all[DD_DIR_WRITE]);
	for (i = 0; i < dd->ndevs; i++) {
		struct dd_dev *d = &dd->devs[i];

		if (d->t_end > t_end)
			t_end = d->t_end;
		make_row(dd, &rows[i], d,
		         d->t_end > dd->t_go ? (double)(d->t_end - dd->t_go) / 1e9 : 0);
		diot_hist_merge(&all[DD_DIR_READ], &d->hist[DD_DIR_READ]);
		diot_hist_merge(&all[DD_DIR_WRITE], &d->hist[DD_DIR_WRITE]);
		dd_row_add(&tot, &rows[i]);
		if (d->err) {
			failed = 1;
			if (first_err == NULL)
				first_err = d->errmsg;
		}
		if (tot.reason == NULL && d->reason[0])
			tot.reason = d->reason;
	}
	wall = t_end > dd->t_go ? (double)(t_end - dd->t_go) / 1e9 : 0;
	tot.name = "total";
	tot.io = dd->total_io;
	tot.h[DD_DIR_READ] = &all[DD_DIR_READ];
	tot.h[DD_DIR_WRITE] = &all[DD_DIR_WRITE];
	tot.wall_s = wall;
	tot.mbs = wall > 0 ? (double)tot.bytes / wall / 1e6 : 0;
	tot.mibs = wall > 0 ? (double)tot.bytes / wall / 1048576.0 : 0;
	tot.status = failed ? "error" : *dd->signal ? "interrupted" : "ok";
	tot.error = first_err;
	/* MPI ranks: rank 0 reports every rank's rows (n < 0 elsewhere). */
	n = dd_ranks_merge(dd, &rows, dd->ndevs, &tot, &cu, &cs);

	/* Each device's error first, then the figures (as dd says them). */
	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].err)
			diot_warn("%s", dd->devs[i].errmsg);
	if (n >= 0)
		print_report(dd, rows, n, &tot, cu, cs);
	if (n >= 0 && !dd_stdout_ok())
		report_lost = 1;
	free(rows);
	free(all);
	return failed || report_lost;
}
