/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * measure.c -- dio-rbuf's timed runs: the sizes to time, one (size, mode)
 * run between two clock reads (the library's repeat loop, or one command
 * at a time with --command-times), and a sweep's derived figures.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/clock.h"
#include "tools/kit/fit.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/rbuf/rbuf.h"

static const uint64_t sweep_default_sizes[] = {
	512 * 1024, 256 * 1024, 32 * 1024, 16 * 1024, 8 * 1024, 4 * 1024
};

/* The sizes to time, checked against the device. */
size_t
rbuf_choose_sizes(const struct dev *d, struct opts *o)
{
	char a[32], b[32];
	size_t i, n = 0;
	int dropped = 0;

	if (!o->sweep) {
		if (!o->size_set)
			o->size = o->command == CMD_RBUF ? d->capacity :
			          (DEFAULT_READ_SIZE < d->limit ? DEFAULT_READ_SIZE :
			           d->limit / d->block_len * d->block_len);
		o->sizes[0] = o->size;
		o->nsizes = 1;
	} else if (o->nsizes == 0) {
		for (i = 0; i < sizeof(sweep_default_sizes) / sizeof(sweep_default_sizes[0]); i++) {
			if (sweep_default_sizes[i] <= d->limit)
				o->sizes[o->nsizes++] = sweep_default_sizes[i];
			else
				dropped = 1;
		}
		/* Sizes above the capacity were dropped: time the capacity itself
		 * as the largest size, as the study's first row does. */
		if (dropped && o->command == CMD_RBUF) {
			memmove(o->sizes + 1, o->sizes, o->nsizes * sizeof(o->sizes[0]));
			o->sizes[0] = d->limit;
			o->nsizes++;
		}
		if (o->nsizes == 0)
			diot_die(DIOT_EXIT_FAIL,
			         "%s: the capacity of %llu bytes is below every default sweep "
			         "size; give --sizes", d->path, (unsigned long long)d->limit);
	}
	for (i = 0; i < o->nsizes; i++) {
		if (o->sizes[i] > d->limit)
			diot_die(DIOT_EXIT_FAIL,
			         "%s: %llu bytes (%s) per command exceeds the %s of %llu bytes "
			         "(%s)", d->path, (unsigned long long)o->sizes[i],
			         diot_fmt_iec(o->sizes[i], b, sizeof(b)),
			         o->command == CMD_RBUF ? "device's buffer capacity" :
			         "largest READ(10) here", (unsigned long long)d->limit,
			         diot_fmt_iec(d->limit, a, sizeof(a)));
		if (o->command == CMD_READ && o->sizes[i] % d->block_len != 0)
			diot_die(DIOT_EXIT_FAIL,
			         "%s: %llu bytes per command is not a multiple of the %u-byte "
			         "block", d->path, (unsigned long long)o->sizes[i], d->block_len);
		if (o->command == CMD_READ && o->sizes[i] < d->block_len)
			diot_die(DIOT_EXIT_FAIL,
			         "%s: READ(10) needs at least one %u-byte block per command",
			         d->path, d->block_len);
	}
	for (i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > o->sizes[n])
			n = i;
	return n;       /* index of the largest */
}

static int
build_cdb(const struct dev *d, const struct opts *o, uint64_t len, uint8_t *cdb)
{
	if (o->command == CMD_RBUF)
		return dio_cdb_read_buffer(cdb, o->echo ? DIO_BUF_MODE_ECHO : DIO_BUF_MODE_DATA,
		                           o->buffer_id, 0,
		                           (uint32_t)len);
	return dio_cdb_rw10(cdb, 0, (uint32_t)o->lba,
	                    (uint32_t)((len + d->block_len - 1) / d->block_len), 0);
}

void
rbuf_run_failed(struct run *r, int err, int unsupported, const char *why)
{
	r->measured = 0;
	r->err = err;
	r->unsupported = unsupported;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* Mean microseconds per command of a measured run: the commands' own
 * durations with --command-times, else the run's time over its commands. */
double
rbuf_mean_command_us(const struct run *r)
{
	if (r->timed_each)
		return (double)r->dur_sum / (double)r->commands / 1e3;
	return r->secs / (double)r->commands * 1e6;
}

/* A command that did not come back GOOD ends the run: say which. */
static int
command_failed(dio_scsi *c, struct run *r, int e, uint64_t i, uint64_t ncmd)
{
	char detail[400], why[300];

	if (e < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		rbuf_run_failed(r, e, 0, detail);
		return e;
	}
	snprintf(detail, sizeof(detail), "command %llu of %llu: the device answered: %s",
	         (unsigned long long)(i + 1), (unsigned long long)ncmd,
	         dio_scsi_outcome_str(c, why, sizeof(why)));
	rbuf_run_failed(r, -EIO, 0, detail);
	return -EIO;
}

/* n commands of len bytes as set in c (the first of them is command
 * number first of the run), back to back in the library's repeat loop:
 * nothing but the system calls between the run's two clock reads. */
static int
repeat_command(dio_scsi *c, const struct dev *d, struct run *r, uint64_t len,
               uint64_t n, uint64_t first)
{
	struct dio_scsi_tally t;
	uint64_t ncmd = r->commands;
	int e;

	e = dio_scsi_exec_repeat(c, d->fd, n, &t);
	r->bytes += t.commands * len - t.resid;
	r->not_direct += t.not_direct;
	if (e < 0 || dio_scsi_category(c) != DIO_SCSI_CAT_GOOD)
		return command_failed(c, r, e, first + t.commands, ncmd);
	r->xfer_done = dio_scsi_xfer_done(c);
	return 0;
}

/* The same, one dio_scsi_exec() at a time, with each command's duration
 * (measured by the library around its system call) in min/mean/max. */
static int
each_command(dio_scsi *c, const struct dev *d, struct run *r, uint64_t len,
             uint64_t n, uint64_t first)
{
	uint64_t i, ns;
	int e;

	for (i = 0; i < n; i++) {
		e = dio_scsi_exec(c, d->fd);
		if (e < 0 || dio_scsi_category(c) != DIO_SCSI_CAT_GOOD)
			return command_failed(c, r, e, first + i, r->commands);
		r->bytes += len - (uint64_t)dio_scsi_resid(c);
		ns = dio_scsi_duration_ns(c);
		r->dur_sum += ns;
		if (ns < r->dur_min)
			r->dur_min = ns;
		if (ns > r->dur_max)
			r->dur_max = ns;
		r->xfer_done = dio_scsi_xfer_done(c);
		if (r->mode == DIO_SCSI_XFER_DIRECT && r->xfer_done != DIO_SCSI_XFER_DIRECT)
			r->not_direct++;
	}
	r->timed_each = 1;
	return 0;
}

/* Time one (size, mode) run; io->cmap carries the mmap mapping for MMAP. */
void
rbuf_measure(const struct dev *d, const struct opts *o, struct run *r, struct io *io)
{
	dio_scsi *c = r->mode == DIO_SCSI_XFER_MMAP ? io->cmap : io->c;
	uint64_t full = o->total / r->size, rem = o->total % r->size, ncmd;
	uint8_t cdb[16], cdb_rem[16];
	double t0, t1, u0, s0, u1, s1;
	char detail[400], why[300];
	int n, n_rem = 0, e;
	void *data = r->mode == DIO_SCSI_XFER_INDIRECT || r->mode == DIO_SCSI_XFER_DIRECT ?
	             io->buf : NULL;

	if (r->mode == DIO_SCSI_XFER_MMAP && io->map_err < 0) {
		rbuf_run_failed(r, io->map_err, io->map_err == -ENOTSUP, io->map_detail);
		return;
	}

	if (o->command == CMD_READ && rem % d->block_len != 0)
		rem += d->block_len - rem % d->block_len;
	ncmd = full + (rem != 0);
	n = build_cdb(d, o, r->size, cdb);
	if (rem)
		n_rem = build_cdb(d, o, rem, cdb_rem);
	dio_scsi_clear(c);
	e = dio_scsi_set_xfer(c, r->mode);
	if (e < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		rbuf_run_failed(r, e, e == -ENOTSUP, detail);
		return;
	}
	dio_scsi_set_timeout(c, o->timeout_s * 1000u);
	dio_scsi_set_cdb(c, cdb, (size_t)n);
	dio_scsi_set_data(c, DIO_SCSI_DIR_IN, data, (size_t)r->size);

	/* One untimed command first: errors show before any timing, and
	 * the first use of a buffer does not weigh on the figures. */
	e = dio_scsi_exec(c, d->fd);
	if (e < 0) {
		dio_scsi_errdetail(c, detail, sizeof(detail));
		rbuf_run_failed(r, e, e == -ENOTSUP, detail);
		return;
	}
	if (dio_scsi_category(c) != DIO_SCSI_CAT_GOOD) {
		snprintf(detail, sizeof(detail), "the device answered: %s",
		         dio_scsi_outcome_str(c, why, sizeof(why)));
		rbuf_run_failed(r, -EIO, 0, detail);
		return;
	}

	r->dur_min = UINT64_MAX;
	r->commands = ncmd;
	diot_cpu_times(&u0, &s0);
	t0 = diot_now();
	e = 0;
	if (full)
		e = o->cmd_times ? each_command(c, d, r, r->size, full, 0) :
		                   repeat_command(c, d, r, r->size, full, 0);
	if (e == 0 && rem) {
		dio_scsi_set_cdb(c, cdb_rem, (size_t)n_rem);
		dio_scsi_set_data(c, DIO_SCSI_DIR_IN, data, (size_t)rem);
		e = o->cmd_times ? each_command(c, d, r, rem, 1, full) :
		                   repeat_command(c, d, r, rem, 1, full);
	}
	if (e < 0)
		return;
	t1 = diot_now();
	diot_cpu_times(&u1, &s1);
	r->secs = t1 - t0;
	r->user = u1 - u0;
	r->sys = s1 - s0;
	r->measured = 1;
	if (r->timed_each)
		rbuf_note(o->verbose, 1, "%s %llu bytes: %llu commands in %.6f s; per "
		          "command %.1f/%.1f/%.1f us (min/mean/max)",
		          dio_scsi_xfer_name(r->mode), (unsigned long long)r->size,
		          (unsigned long long)ncmd, r->secs, r->dur_min / 1e3,
		          rbuf_mean_command_us(r), r->dur_max / 1e3);
	else
		rbuf_note(o->verbose, 1, "%s %llu bytes: %llu commands in %.6f s",
		          dio_scsi_xfer_name(r->mode), (unsigned long long)r->size,
		          (unsigned long long)ncmd, r->secs);
}

/* ------------------------------------------------------------ derived */

int
rbuf_mode_index(const struct opts *o, int mode)
{
	size_t i;

	for (i = 0; i < o->nmodes; i++)
		if (o->modes[i] == mode)
			return (int)i;
	return -1;
}

struct run *
rbuf_run_at(struct run *runs, const struct opts *o, size_t size_i, size_t mode_i)
{
	return &runs[size_i * o->nmodes + mode_i];
}

/*
 * The study's derived rows for one mode, with its formulas:
 *   implied latency = (time at the smallest size - best time)
 *                     / commands of the smallest-size test
 *   best throughput after latency = transfer size
 *                     / (best time - implied latency * commands of the best test)
 *   best / worst raw throughput = transfer size / best / worst time
 * plus a least-squares fit time = commands * latency + bytes / bandwidth
 * over all sizes.
 */
void
rbuf_summarise(struct run *runs, const struct opts *o, size_t mode_i, struct summary *s)
{
	struct run *r, *best = NULL, *worst = NULL, *smallest = NULL;
	double x1[MAX_SIZES], x2[MAX_SIZES], y[MAX_SIZES], a, b, r2, den;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->mode = o->modes[mode_i];
	for (i = 0; i < o->nsizes; i++) {
		r = rbuf_run_at(runs, o, i, mode_i);
		if (!r->measured || r->secs <= 0)
			continue;
		x1[s->points] = (double)r->commands;
		x2[s->points] = (double)r->bytes;
		y[s->points] = r->secs;
		s->points++;
		if (best == NULL || r->secs < best->secs)
			best = r;
		if (worst == NULL || r->secs > worst->secs)
			worst = r;
		if (smallest == NULL || r->size < smallest->size)
			smallest = r;
	}
	if (best == NULL)
		return;
	s->best_raw = (double)best->bytes / best->secs;
	s->worst_raw = (double)worst->bytes / worst->secs;
	s->raw_ok = 1;
	if (s->points >= 2 && smallest != best) {
		s->latency = (smallest->secs - best->secs) / (double)smallest->commands;
		s->lat_ok = 1;
		den = best->secs - s->latency * (double)best->commands;
		if (den > 0) {
			s->after = (double)best->bytes / den;
			s->after_ok = 1;
		}
	}
	if (diot_fit2(x1, x2, y, s->points, &a, &b, &r2) == 0) {
		s->fit_latency = a;
		s->fit_r2 = r2;
		s->fit_ok = 1;
		/* Two points fit two parameters exactly: R² says nothing. */
		s->r2_ok = s->points >= 3;
		/* Noise can push the byte term below 0: no bandwidth then. */
		if (b > 0) {
			s->fit_bw = 1.0 / b;
			s->bw_ok = 1;
		}
	}
}
