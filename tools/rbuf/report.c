/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c -- dio-rbuf's report on stdout (table, CSV, JSON through the
 * kit's JSON writer) and the sweep's SVG plot (the kit's charts).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/json.h"
#include "tools/kit/msg.h"
#include "tools/kit/svg.h"
#include "tools/rbuf/rbuf.h"

const char *
rbuf_command_name(const struct opts *o)
{
	return o->command == CMD_RBUF ? "READ BUFFER" : "READ(10)";
}

static void
print_device(const struct dev *d, const struct opts *o)
{
	char a[32], b[32];

	printf("device      %s (%s", d->path, d->kind);
	if (d->reserved >= 0)
		printf(", reserved buffer %lld bytes", (long long)d->reserved);
	printf(")");
	if (d->have_inq)
		printf(": %s %s %s", d->inq.vendor, d->inq.product, d->inq.revision);
	printf("\n");
	if (o->command == CMD_RBUF)
		printf("command     READ BUFFER %s mode, buffer id %d; capacity %u bytes "
		       "(%s); offset boundary %s\n", o->echo ? "echo buffer" : "data",
		       o->buffer_id, d->capacity,
		       diot_fmt_iec(d->capacity, a, sizeof(a)),
		       d->boundary == 0xff ? "FFh (offset must be 0)" :
		       (snprintf(b, sizeof(b), "2^%u bytes", d->boundary), b));
	else
		printf("command     READ(10) at LBA %llu; %llu blocks of %u bytes (%s)\n",
		       (unsigned long long)o->lba, (unsigned long long)d->blocks,
		       d->block_len, diot_fmt_iec(d->blocks * d->block_len, a, sizeof(a)));
}

static void
print_single(const struct dev *d, const struct opts *o, const struct run *r)
{
	char a[32], b[32], why[400];

	print_device(d, o);
	printf("mode        %s (done: %s)\n", dio_scsi_xfer_name(r->mode),
	       dio_scsi_xfer_name(r->xfer_done));
	printf("transfer    %llu commands of up to %llu bytes (%s) = %llu bytes (%s)\n",
	       (unsigned long long)r->commands, (unsigned long long)r->size,
	       diot_fmt_iec(r->size, a, sizeof(a)), (unsigned long long)r->bytes,
	       diot_fmt_iec(r->bytes, b, sizeof(b)));
	printf("elapsed     %.6f s\n", r->secs);
	printf("throughput  %.2f MB/s (%.2f MiB/s)\n", (double)r->bytes / r->secs / 1e6,
	       (double)r->bytes / r->secs / 1048576.0);
	if (r->timed_each)
		printf("commands    %.1f per second; per command %.1f us on average, "
		       "%.1f min, %.1f max, measured around each system call\n",
		       (double)r->commands / r->secs, rbuf_mean_command_us(r),
		       r->dur_min / 1e3, r->dur_max / 1e3);
	else
		printf("commands    %.1f per second; %.1f us per command on average "
		       "(elapsed over commands)\n", (double)r->commands / r->secs,
		       rbuf_mean_command_us(r));
	printf("CPU         %.1f%% (user %.3f s, system %.3f s)\n",
	       (r->user + r->sys) / r->secs * 100.0, r->user, r->sys);
	/* sg_rbuf's own line, so that what reads its output reads this too */
	printf("time to read data from buffer was %.6f secs, %.2f MB/sec, %.2f IOPS\n",
	       r->secs, (double)r->bytes / r->secs / 1e6, (double)r->commands / r->secs);
	if (r->mode == DIO_SCSI_XFER_DIRECT && r->not_direct > 0) {
		rbuf_direct_reason(d, r, why, sizeof(why));
		printf("note        direct I/O was asked but not done for %llu of %llu "
		       "commands: %s\n", (unsigned long long)r->not_direct,
		       (unsigned long long)r->commands, why);
	}
}

/* Every run of mode index m is unsupported by the device. */
static int
summary_unsupported(struct run *runs, const struct opts *o, size_t m)
{
	size_t i;

	for (i = 0; i < o->nsizes; i++)
		if (!rbuf_run_at(runs, o, i, m)->unsupported)
			return 0;
	return 1;
}

/* Print s right-aligned in width columns; UTF-8 continuation bytes take none. */
static void
put_right(const char *s, int width)
{
	const unsigned char *p;
	int cols = 0;

	for (p = (const unsigned char *)s; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	while (cols++ < width)
		putchar(' ');
	fputs(s, stdout);
}

static void
put_left(const char *s, int width)
{
	const unsigned char *p;
	int cols = 0;

	fputs(s, stdout);
	for (p = (const unsigned char *)s; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	while (cols++ < width)
		putchar(' ');
}

static void
fmt_or_na(char *buf, size_t len, int ok, const char *fmt, double v)
{
	if (ok)
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "n/a");
}

static void
print_sweep_table(const struct dev *d, const struct opts *o, struct run *runs,
                  const struct summary *sum)
{
	static const char *const rows[7] = {
		"latency per command (implied)", "best throughput after latency",
		"best raw throughput", "worst raw throughput",
		"fit: latency per command", "fit: bandwidth", "fit: R\xc2\xb2"
	};
	char a[32], cell[64];
	size_t i, m;
	struct run *r;
	int row;

	print_device(d, o);
	printf("\nTime in seconds (CPU utilisation) for a %llu-byte (%s) transfer per run\n\n",
	       (unsigned long long)o->total, diot_fmt_iec(o->total, a, sizeof(a)));
	printf("%-12s", "buffer size");
	for (m = 0; m < o->nmodes; m++)
		printf(" %16s", dio_scsi_xfer_name(o->modes[m]));
	printf("\n");
	for (i = 0; i < o->nsizes; i++) {
		printf("%-12s", diot_fmt_iec(o->sizes[i], a, sizeof(a)));
		for (m = 0; m < o->nmodes; m++) {
			r = rbuf_run_at(runs, o, i, m);
			if (r->measured)
				snprintf(cell, sizeof(cell), "%.3f (%3.0f%%)", r->secs,
				         (r->user + r->sys) / r->secs * 100.0);
			else
				snprintf(cell, sizeof(cell), r->unsupported ? "n/a" : "failed");
			printf(" %16s", cell);
		}
		printf("\n");
	}
	printf("\n");
	put_left("", 34);
	for (m = 0; m < o->nmodes; m++) {
		putchar(' ');
		put_right(dio_scsi_xfer_name(o->modes[m]), 13);
	}
	for (row = 0; row < 7; row++) {
		printf("\n");
		put_left(rows[row], 34);
		for (m = 0; m < o->nmodes; m++) {
			const struct summary *u = &sum[m];

			switch (row) {
			case 0: fmt_or_na(cell, sizeof(cell), u->lat_ok, "%.3f ms", u->latency * 1e3); break;
			case 1: fmt_or_na(cell, sizeof(cell), u->after_ok, "%.1f MB/s", u->after / 1e6); break;
			case 2: fmt_or_na(cell, sizeof(cell), u->raw_ok, "%.1f MB/s", u->best_raw / 1e6); break;
			case 3: fmt_or_na(cell, sizeof(cell), u->raw_ok, "%.1f MB/s", u->worst_raw / 1e6); break;
			case 4: fmt_or_na(cell, sizeof(cell), u->fit_ok, "%.1f \xc2\xb5s", u->fit_latency * 1e6); break;
			case 5: fmt_or_na(cell, sizeof(cell), u->bw_ok, "%.1f MB/s", u->fit_bw / 1e6); break;
			default: fmt_or_na(cell, sizeof(cell), u->r2_ok, "%.4f", u->fit_r2); break;
			}
			putchar(' ');
			put_right(cell, 13);
		}
	}
	printf("\nMB = 10^6 bytes.  Fit: time = commands x latency + bytes / bandwidth, "
	       "least squares over the sizes.\n");
	for (m = 0; m < o->nmodes; m++)    /* a mode the device lacks: once */
		if (summary_unsupported(runs, o, m))
			printf("%s: n/a: %s\n", dio_scsi_xfer_name(o->modes[m]),
			       rbuf_run_at(runs, o, 0, m)->why);
	for (i = 0; i < o->nsizes; i++)
		for (m = 0; m < o->nmodes; m++) {
			r = rbuf_run_at(runs, o, i, m);
			if (!r->measured && !summary_unsupported(runs, o, m))
				printf("%s %s: %s\n", diot_fmt_iec(r->size, a, sizeof(a)),
				       dio_scsi_xfer_name(r->mode), r->why);
			else if (r->mode == DIO_SCSI_XFER_DIRECT && r->not_direct > 0) {
				char why[400];

				rbuf_direct_reason(d, r, why, sizeof(why));
				printf("%s direct: not done for %llu of %llu commands: %s\n",
				       diot_fmt_iec(r->size, a, sizeof(a)),
				       (unsigned long long)r->not_direct,
				       (unsigned long long)r->commands, why);
			}
		}
}

static void
csv_num(double v, int ok)
{
	if (ok)
		printf(",%.9g", v);
	else
		printf(",");
}

static void
print_csv(const struct dev *d, const struct opts *o, struct run *runs, size_t nruns,
          const struct summary *sum)
{
	size_t i, m;
	struct run *r;

	printf("record,device,command,mode,mode_done,size,commands,bytes,seconds,"
	       "mb_per_s,mib_per_s,commands_per_s,cpu_percent,user_s,sys_s,"
	       "not_direct,mean_command_us,error\n");
	for (i = 0; i < nruns; i++) {
		r = &runs[i];
		printf("run,");
		diot_csv_field(stdout, d->path);
		printf(",%s,%s,%s,%llu", o->command == CMD_RBUF ? "rbuf" : "read",
		       dio_scsi_xfer_name(r->mode),
		       r->measured ? dio_scsi_xfer_name(r->xfer_done) : "",
		       (unsigned long long)r->size);
		if (r->measured) {
			printf(",%llu,%llu,%.9f", (unsigned long long)r->commands,
			       (unsigned long long)r->bytes, r->secs);
			csv_num((double)r->bytes / r->secs / 1e6, 1);
			csv_num((double)r->bytes / r->secs / 1048576.0, 1);
			csv_num((double)r->commands / r->secs, 1);
			csv_num((r->user + r->sys) / r->secs * 100.0, 1);
			csv_num(r->user, 1);
			csv_num(r->sys, 1);
			printf(",%llu", (unsigned long long)r->not_direct);
			csv_num(rbuf_mean_command_us(r), 1);
			printf(",\n");
		} else {
			/* commands .. mean_command_us empty, then the error */
			printf(",,,,,,,,,,,,");
			diot_csv_field(stdout, r->why);
			printf("\n");
		}
	}
	if (!o->sweep)
		return;
	printf("\nrecord,mode,points,implied_latency_us,best_after_latency_mb_per_s,"
	       "best_raw_mb_per_s,worst_raw_mb_per_s,fit_latency_us,"
	       "fit_bandwidth_mb_per_s,fit_r2\n");
	for (m = 0; m < o->nmodes; m++) {
		printf("summary,%s,%zu", dio_scsi_xfer_name(sum[m].mode), sum[m].points);
		csv_num(sum[m].latency * 1e6, sum[m].lat_ok);
		csv_num(sum[m].after / 1e6, sum[m].after_ok);
		csv_num(sum[m].best_raw / 1e6, sum[m].raw_ok);
		csv_num(sum[m].worst_raw / 1e6, sum[m].raw_ok);
		csv_num(sum[m].fit_latency * 1e6, sum[m].fit_ok);
		csv_num(sum[m].fit_bw / 1e6, sum[m].bw_ok);
		csv_num(sum[m].fit_r2, sum[m].r2_ok);
		printf("\n");
	}
}

/* A number, or null when it could not be derived. */
static void
json_num(struct diot_json *j, const char *key, double v, int ok)
{
	if (ok)
		diot_json_double(j, key, v);
	else
		diot_json_null(j, key);
}

static void
json_run(struct diot_json *j, const struct run *r)
{
	diot_json_object(j, NULL);
	diot_json_str(j, "mode", dio_scsi_xfer_name(r->mode));
	diot_json_u64(j, "size", r->size);
	diot_json_bool(j, "measured", r->measured);
	if (!r->measured) {
		diot_json_bool(j, "unsupported", r->unsupported);
		diot_json_str(j, "error", r->why);
		diot_json_close(j);
		return;
	}
	diot_json_str(j, "mode_done", dio_scsi_xfer_name(r->xfer_done));
	diot_json_u64(j, "commands", r->commands);
	diot_json_u64(j, "bytes", r->bytes);
	diot_json_double(j, "seconds", r->secs);
	diot_json_double(j, "mb_per_s", (double)r->bytes / r->secs / 1e6);
	diot_json_double(j, "mib_per_s", (double)r->bytes / r->secs / 1048576.0);
	diot_json_double(j, "commands_per_s", (double)r->commands / r->secs);
	diot_json_double(j, "cpu_percent", (r->user + r->sys) / r->secs * 100.0);
	diot_json_double(j, "user_s", r->user);
	diot_json_double(j, "sys_s", r->sys);
	diot_json_double(j, "mean_command_us", rbuf_mean_command_us(r));
	if (r->timed_each) {
		diot_json_double(j, "min_command_us", r->dur_min / 1e3);
		diot_json_double(j, "max_command_us", r->dur_max / 1e3);
	}
	diot_json_u64(j, "not_direct", r->not_direct);
	diot_json_close(j);
}

static void
json_summary(struct diot_json *j, const struct summary *s)
{
	diot_json_object(j, NULL);
	diot_json_str(j, "mode", dio_scsi_xfer_name(s->mode));
	diot_json_u64(j, "points", s->points);
	json_num(j, "implied_latency_us", s->latency * 1e6, s->lat_ok);
	json_num(j, "best_after_latency_mb_per_s", s->after / 1e6, s->after_ok);
	json_num(j, "best_raw_mb_per_s", s->best_raw / 1e6, s->raw_ok);
	json_num(j, "worst_raw_mb_per_s", s->worst_raw / 1e6, s->raw_ok);
	json_num(j, "fit_latency_us", s->fit_latency * 1e6, s->fit_ok);
	json_num(j, "fit_bandwidth_mb_per_s", s->fit_bw / 1e6, s->bw_ok);
	json_num(j, "fit_r2", s->fit_r2, s->r2_ok);
	diot_json_close(j);
}

static int
print_json(const struct dev *d, const struct opts *o, struct run *runs, size_t nruns,
           const struct summary *sum)
{
	struct diot_json j;
	size_t i, m;

	/* One line: tests/qemu/guest-scsi.sh looks for a run's members side by
	 * side, as the old layout (a run per line) had them. */
	diot_json_init(&j, stdout, 0);
	diot_json_precision(&j, 9);
	diot_json_object(&j, NULL);
	diot_json_str(&j, "tool", RBUF_PROG);
	diot_json_str(&j, "version", PACKAGE_VERSION);
	diot_json_str(&j, "backend", dio_backend_name());
	diot_json_str(&j, "device", d->path);
	diot_json_str(&j, "device_kind", d->kind);
	diot_json_str(&j, "vendor", d->have_inq ? d->inq.vendor : NULL);
	diot_json_str(&j, "product", d->have_inq ? d->inq.product : NULL);
	diot_json_str(&j, "revision", d->have_inq ? d->inq.revision : NULL);
	diot_json_str(&j, "command", o->command == CMD_RBUF ? "rbuf" : "read");
	if (o->command == CMD_RBUF) {
		diot_json_i64(&j, "buffer_id", o->buffer_id);
		diot_json_u64(&j, "capacity", d->capacity);
		diot_json_u64(&j, "offset_boundary", d->boundary);
	} else {
		diot_json_u64(&j, "lba", o->lba);
		diot_json_u64(&j, "blocks", d->blocks);
		diot_json_u64(&j, "block_size", d->block_len);
	}
	diot_json_u64(&j, "total", o->total);
	diot_json_array(&j, "runs");
	for (i = 0; i < nruns; i++)
		json_run(&j, &runs[i]);
	diot_json_close(&j);
	if (o->sweep) {
		diot_json_array(&j, "summary");
		for (m = 0; m < o->nmodes; m++)
			json_summary(&j, &sum[m]);
		diot_json_close(&j);
	}
	return diot_json_end(&j);
}

void
rbuf_report(const struct dev *d, const struct opts *o, struct run *runs, size_t nruns,
            const struct summary *sum)
{
	int r = 0;

	switch (o->format) {
	case FMT_TABLE:
		if (o->sweep)
			print_sweep_table(d, o, runs, sum);
		else
			print_single(d, o, &runs[0]);
		break;
	case FMT_CSV:
		print_csv(d, o, runs, nruns, sum);
		break;
	default:
		r = print_json(d, o, runs, nruns, sum);
		if (r == -EINVAL)
			diot_die(DIOT_EXIT_FAIL, "internal error: JSON writer misuse");
		break;
	}
	if (fflush(stdout) != 0 || r < 0)
		diot_die(DIOT_EXIT_FAIL, "writing the report: %s", dio_strerror(-errno));
}

/* ------------------------------------------------------------ plot */

/*
 * The sweep's plot: time against size per mode, sizes on a log axis; a
 * mode with nothing measured is listed in the legend as "(n/a)".
 */
int
rbuf_write_plot(const char *file, const struct dev *d, const struct opts *o,
                struct run *runs)
{
	double xs[NMODES][MAX_SIZES], ys[NMODES][MAX_SIZES];
	char names[NMODES][32], title[512], a[32];
	struct diot_series series[NMODES];
	struct diot_chart chart;
	size_t i, m, n, k;
	struct run *r;
	FILE *fp;
	int e;

	for (m = 0; m < o->nmodes; m++) {
		/* measured points sorted by size */
		for (i = 0, n = 0; i < o->nsizes; i++) {
			r = rbuf_run_at(runs, o, i, m);
			if (!r->measured)
				continue;
			for (k = n; k > 0 && xs[m][k - 1] > (double)r->size; k--) {
				xs[m][k] = xs[m][k - 1];
				ys[m][k] = ys[m][k - 1];
			}
			xs[m][k] = (double)r->size;
			ys[m][k] = r->secs;
			n++;
		}
		snprintf(names[m], sizeof(names[m]), "%s%s", dio_scsi_xfer_name(o->modes[m]),
		         n ? "" : " (n/a)");
		series[m].name = names[m];
		series[m].n = (int)n;
		series[m].x = xs[m];
		series[m].y = ys[m];
	}
	snprintf(title, sizeof(title), "%s on %s: %llu bytes (%s) per run",
	         rbuf_command_name(o), d->path, (unsigned long long)o->total,
	         diot_fmt_iec(o->total, a, sizeof(a)));
	memset(&chart, 0, sizeof(chart));
	chart.title = title;
	chart.xlabel = "buffer size (bytes per command, log scale)";
	chart.ylabel = "time (s)";
	chart.xlog = 1;
	chart.xfmt = DIOT_AXIS_BYTES;
	chart.nseries = (int)o->nmodes;
	chart.series = series;
	fp = fopen(file, "w");
	if (fp == NULL)
		return -errno;
	e = diot_svg_write(fp, title, &chart, 1) < 0 ? -errno : 0;
	if (fclose(fp) != 0 && e == 0)
		e = -errno;
	return e < 0 ? e : 0;
}
