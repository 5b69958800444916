/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine.c -- the positional engine: a worker thread of a device takes
 * transfer after transfer, each at its own offset, one call at a time
 * (engine=sync) or up to qd= in flight (dio_aio), at rate= if given, and
 * records its calls; dd's loop (stream.c) runs instead where this one
 * cannot.  The last thread of a device makes its output
 * durable (conv=fdatasync, conv=fsync).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "tools/dd/dd.h"
#include "tools/kit/clock.h"
#include "tools/kit/team.h"

/* The asynchronous engine: up to qd requests in flight. */
struct slot {
	unsigned char *buf;
	uint64_t i, t_sub;
	size_t len, n, done;
	int64_t in_off, out_off;
	int state;                  /* 0 free, 1 reading, 2 writing */
};

/*
 * conv=fdatasync / conv=fsync: once the device's last thread is done, its
 * output is made durable (inside the measured time, as dd counts it).
 */
static void
finish_output(struct dd_wctx *w)
{
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;
	int last, r;

	pthread_mutex_lock(&d->lock);
	last = --d->active == 0;
	pthread_mutex_unlock(&d->lock);
	if (!last || d->out.path == NULL || d->err || (!dd->o.conv.fdatasync && !dd->o.conv.fsync))
		return;
	if (d->out.f != NULL)
		r = dio_commit(d->out.f, dd->o.conv.fsync ? DIO_COMMIT_FSYNC : DIO_COMMIT_FDATASYNC);
	else
		r = (dd->o.conv.fsync ? fsync(d->out.fd) : fdatasync(d->out.fd)) == 0 ? 0 : -errno;
	/* A pipe or terminal has nothing to make durable (dd says nothing). */
	if (r == -EINVAL || r == -EROFS)
		return;
	if (r < 0) {
		char *name = dd_side_name(dd, &d->out, DD_Q_NAME);

		dd_wfail(w, r, "%s failed for %s: %s", dd->o.conv.fsync ? "fsync" : "fdatasync",
		         name, dd_strerror(r));
		free(name);
	}
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
sleep_until(const volatile sig_atomic_t *stop, uint64_t due)
{
	uint64_t now;
	struct timespec ts;

	while (!*stop && (now = diot_now_ns()) < due) {
		uint64_t d = due - now;

		if (d > 100000000ull)
			d = 100000000ull;   /* look at *stop at least 10 times a second */
		ts.tv_sec = (time_t)(d / 1000000000ull);
		ts.tv_nsec = (long)(d % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/* When transfer i may start under rate=. */
static uint64_t
rate_due(struct dd *dd, uint64_t i)
{
	return dd->t_go + (uint64_t)((double)i * (double)dd->tsize * 1e9 / (double)dd->o.rate);
}

/* Take the next transfer of d; 0 when there is none (or the run stops). */
static int
grab(const volatile sig_atomic_t *stop, struct dd_dev *d, uint64_t *i)
{
	int ok;

	pthread_mutex_lock(&d->lock);
	ok = !*stop && !d->eof && !d->err && d->next < d->ntransfers;
	if (ok)
		*i = d->next++;
	pthread_mutex_unlock(&d->lock);
	return ok;
}

static uint64_t
peek_next(struct dd_dev *d)
{
	uint64_t i;

	pthread_mutex_lock(&d->lock);
	i = d->next;
	pthread_mutex_unlock(&d->lock);
	return i;
}

static size_t
xfer_len(struct dd *dd, const struct dd_dev *d, uint64_t i)
{
	uint64_t left = d->nblocks - i * dd->o.bpt;

	return (size_t)((left < dd->o.bpt ? left : dd->o.bpt) * dd->o.bs);
}

static void
set_eof(struct dd_dev *d)
{
	pthread_mutex_lock(&d->lock);
	d->eof = 1;
	pthread_mutex_unlock(&d->lock);
}

/* The synchronous engine: one call at a time. */
static void
run_sync(struct dd_wctx *w, unsigned char *buf)
{
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;
	uint64_t i, t0, t1;
	int64_t n, m;
	size_t len;

	while (grab(dd->stop, d, &i)) {
		int64_t in_off = d->in_base + (int64_t)(i * dd->tsize);
		int64_t out_off = d->out_base + (int64_t)(i * dd->tsize);

		len = xfer_len(dd, d, i);
		if (dd->o.rate)
			sleep_until(dd->stop, rate_due(dd, i));
		if (d->in.path) {
			t0 = diot_now_ns();
			n = do_read(w, &d->in, buf, len, in_off);
			t1 = diot_now_ns();
			diot_hist_add(&w->hist[DD_DIR_READ], t1 - t0);
			w->io_ns += t1 - t0;
			w->calls++;
			if (n < 0)
				break;
			if ((size_t)n < len)
				set_eof(d);
			if (n == 0)
				break;
			w->rbytes += (uint64_t)n;
			dd_count_records(d, 0, (uint64_t)n, dd->o.bs);
			if (dd->o.iflag.nocache)
				dd_drop_cache(&d->in, in_off, n);
		} else {
			dd_stamp(buf, len, (size_t)dd->o.bs, (uint64_t)out_off);
			n = (int64_t)len;
		}
		if (d->out.path) {
			t0 = diot_now_ns();
			if (dd_tail_needs_buffered(d, (size_t)n))
				m = dd_write_tail_buffered(w, buf, (size_t)n, out_off);
			else
				m = do_write(w, &d->out, buf, (size_t)n, out_off);
			t1 = diot_now_ns();
			diot_hist_add(&w->hist[DD_DIR_WRITE], t1 - t0);
			w->io_ns += t1 - t0;
			w->calls++;
			if (m < 0)
				break;
			w->wbytes += (uint64_t)m;
			dd_count_records(d, 1, (uint64_t)m, dd->o.bs);
			if (dd->o.oflag.nocache)
				dd_drop_cache(&d->out, out_off, m);
			n = m;      /* a copy's bytes are what was written */
		}
		w->bytes += (uint64_t)n;
		if (w->err)
			break;
	}
}

/* Queue transfers in the free slots (reads, or stamped writes) until
 * none is free, the device is done (*stop) or the rate says wait. */
static void
aio_fill(struct dd_wctx *w, dio_aio *q, struct slot *sl, unsigned qd, unsigned *free_n,
         int *stop)
{
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;
	uint64_t i, t0, t1;
	unsigned k;
	int r;

	while (*free_n > 0 && !*stop && !w->err) {
		struct slot *s = NULL;

		if (dd->o.rate) {
			uint64_t due = rate_due(dd, peek_next(d));

			if (due > diot_now_ns()) {
				if (dio_aio_inflight(q) > 0)
					break;
				sleep_until(dd->stop, due);
			}
		}
		if (!grab(dd->stop, d, &i)) {
			*stop = 1;
			break;
		}
		for (k = 0; k < qd; k++)
			if (sl[k].state == 0) {
				s = &sl[k];
				break;
			}
		s->i = i;
		s->len = xfer_len(dd, d, i);
		s->in_off = d->in_base + (int64_t)(i * dd->tsize);
		s->out_off = d->out_base + (int64_t)(i * dd->tsize);
		s->done = 0;
		t0 = diot_now_ns();
		if (d->in.path) {
			s->state = 1;
			r = dio_aio_read(q, d->in.fd, s->buf, s->len, s->in_off, k);
		} else {
			dd_stamp(s->buf, s->len, (size_t)dd->o.bs, (uint64_t)s->out_off);
			s->n = s->len;
			s->state = 2;
			r = dio_aio_write(q, d->out.fd, s->buf, s->len, s->out_off, k);
		}
		t1 = diot_now_ns();
		w->io_ns += t1 - t0;
		s->t_sub = t1;
		if (r < 0) {
			s->state = 0;
			dd_wfail(w, r, "cannot queue a %s of %zu bytes on '%s': %s",
			         d->in.path ? "read" : "write", s->len,
			         d->in.path ? d->in.path : d->out.path, dd_strerror(r));
			break;
		}
		(*free_n)--;
	}
}

/* A read completed (res bytes, >= 0): the end of the input when short;
 * its bytes written (queued, or a buffered tail at once), or counted
 * where nothing is written. */
static void
aio_read_done(struct dd_wctx *w, dio_aio *q, struct slot *s, const struct dio_aio_event *e,
              unsigned *free_n)
{
	struct dd_dev *d = w->d;
	int64_t res = e->result;
	uint64_t t0, t1;
	int r;

	if ((size_t)res < s->len)
		set_eof(d);
	if (res == 0) {
		s->state = 0;
		(*free_n)++;
		return;
	}
	w->rbytes += (uint64_t)res;
	dd_count_records(d, 0, (uint64_t)res, w->dd->o.bs);
	if (d->out.path == NULL || w->err) {
		/* A read; or a copy that failed: not copied. */
		if (d->out.path == NULL)
			w->bytes += (uint64_t)res;
		s->state = 0;
		(*free_n)++;
		return;
	}
	s->n = (size_t)res;
	if (dd_tail_needs_buffered(d, s->n)) {
		/* A synchronous call, counted as one. */
		t0 = diot_now_ns();
		r = dd_write_tail_buffered(w, s->buf, s->n, s->out_off) > 0;
		t1 = diot_now_ns();
		diot_hist_add(&w->hist[DD_DIR_WRITE], t1 - t0);
		w->io_ns += t1 - t0;
		w->calls++;
		if (r) {
			w->wbytes += s->n;
			w->bytes += s->n;
			dd_count_records(d, 1, s->n, w->dd->o.bs);
		}
		s->state = 0;
		(*free_n)++;
		return;
	}
	s->state = 2;
	s->t_sub = diot_now_ns();
	r = dio_aio_write(q, d->out.fd, s->buf, s->n, s->out_off, e->tag);
	if (r < 0) {
		dd_wfail(w, r, "cannot queue a write of %zu bytes on '%s': %s",
		         s->n, d->out.path, dd_strerror(r));
		s->state = 0;
		(*free_n)++;
	}
}

/* One completion: a read is followed by its write (queued, or the
 * buffered tail), a short write is continued; a finished slot is freed. */
static void
aio_done(struct dd_wctx *w, dio_aio *q, struct slot *sl, const struct dio_aio_event *e,
         uint64_t now, unsigned *free_n)
{
	struct dd_dev *d = w->d;
	struct slot *s = &sl[e->tag];
	int64_t res = e->result;
	int r;

	diot_hist_add(&w->hist[s->state == 1 ? DD_DIR_READ : DD_DIR_WRITE], now - s->t_sub);
	w->calls++;
	if (res < 0) {
		dd_io_error(w, s->state == 1 ? &d->in : &d->out, s->state != 1, (int)res);
		s->state = 0;
		(*free_n)++;
		return;
	}
	if (s->state == 1) {
		aio_read_done(w, q, s, e, free_n);
		return;
	}
	/* A write completed (a short one is continued). */
	s->done += (size_t)res;
	if (s->done < s->n && res > 0 && !w->err) {
		s->t_sub = diot_now_ns();
		r = dio_aio_write(q, d->out.fd, s->buf + s->done, s->n - s->done,
		                  s->out_off + (int64_t)s->done, e->tag);
		if (r == 0)
			return;
		dd_wfail(w, r, "cannot queue a write on '%s': %s", d->out.path,
		         dd_strerror(r));
	} else if (s->done < s->n && !w->err) {
		dd_wfail(w, -EIO, "write of %zu bytes at offset %" PRId64 " of '%s' "
		         "made no progress", s->n, s->out_off, d->out.path);
	}
	w->wbytes += s->done;
	w->bytes += s->done;
	if (s->done > 0)
		dd_count_records(d, 1, s->done, w->dd->o.bs);
	s->state = 0;
	(*free_n)++;
}

static void
run_aio(struct dd_wctx *w, struct slot *sl, unsigned qd)
{
	struct dd *dd = w->dd;
	struct dio_aio_event ev[DD_MAX_QD];
	unsigned free_n = qd, k;
	uint64_t t0, t1;
	dio_aio *q;
	int err = 0, n, stop = 0;

	q = dio_aio_new(qd, dd->aio_engine, &err);
	if (q == NULL) {
		dd_wfail(w, err, "cannot set up the %s queue (depth %u): %s",
		         dio_aio_engine_name(dd->aio_engine), qd, dd_strerror(err));
		return;
	}
	for (;;) {
		aio_fill(w, q, sl, qd, &free_n, &stop);
		if (dio_aio_inflight(q) == 0)
			break;
		t0 = diot_now_ns();
		n = dio_aio_wait(q, ev, qd, 1);
		t1 = diot_now_ns();
		w->io_ns += t1 - t0;
		if (n == -EINTR)
			continue;
		if (n < 0) {
			dd_wfail(w, n, "waiting for completions: %s", dd_strerror(n));
			break;
		}
		for (k = 0; k < (unsigned)n; k++)
			aio_done(w, q, sl, &ev[k], t1, &free_n);
	}
	dio_aio_free(q);
}

void *
dd_worker(void *arg)
{
	struct dd_wctx *w = arg;
	struct dd *dd = w->dd;
	struct dd_dev *d = w->d;
	unsigned qd = dd->o.engine == DD_ENG_SYNC ? 1 : (unsigned)dd->o.qd, k;
	struct slot *sl = calloc(qd, sizeof(*sl));
	/* One allocation sliced into the slots' buffers, each aligned. */
	size_t stride = (dd->tsize + d->align - 1) / d->align * d->align, page = 0;
	unsigned char *arena = NULL;
	uint64_t c0;
	int r, stopped;

	if (sl == NULL)
		dd_wfail(w, -ENOMEM, "cannot allocate %u request slots: out of memory", qd);
	else if (stride < dd->tsize || stride > (SIZE_MAX - dd->buf_off) / qd)
		dd_wfail(w, -ENOMEM, "%u buffers of %zu bytes do not fit in memory", qd, dd->tsize);
	else if (dd->o.small_pages)
		arena = dio_alloc(stride * qd + dd->buf_off, d->align);
	else
		arena = dio_alloc_large(stride * qd + dd->buf_off, d->align, &page);
	if (sl != NULL && arena == NULL && !w->err)
		dd_wfail(w, -ENOMEM, "cannot allocate %u buffers of %zu bytes", qd, dd->tsize);
	w->page = page ? page : (size_t)sysconf(_SC_PAGESIZE);
	for (k = 0; arena != NULL && k < qd; k++) {
		sl[k].buf = arena + dd->buf_off + (size_t)k * stride;
		if (dd->o.mode == DD_MODE_WRITE)
			dd_fill_pattern(sl[k].buf, dd->tsize, (size_t)dd->o.bs);
	}
	if (!w->err && (d->in.kind == DD_KIND_SG || d->out.kind == DD_KIND_SG)) {
		w->sc = dio_scsi_new();
		if (w->sc == NULL)
			dd_wfail(w, -ENOMEM, "cannot allocate a SCSI command: out of memory");
		else if (dd->o.dio && (r = dio_scsi_set_xfer(w->sc, DIO_SCSI_XFER_DIRECT)) < 0)
			dd_wfail(w, r, "dio=1: direct transfers cannot be asked for here: %s",
			         dd_strerror(r));
	}
	stopped = diot_team_ready(w->team, w->member) != 0;
	c0 = thread_cpu_ns();
	/* (a device whose plan failed, as dd's run fails: past_largest()) */
	if (!w->err && !stopped && !d->err) {
		if (dd->stream)
			dd_run_stream(w, sl[0].buf);
		else if (dd->o.engine == DD_ENG_SYNC)
			run_sync(w, sl[0].buf);
		else
			run_aio(w, sl, qd);
	}
	finish_output(w);
	w->t_end = diot_now_ns();
	w->cpu_ns = thread_cpu_ns() - c0;
	dio_free(arena);
	free(sl);
	dio_scsi_free(w->sc);
	w->sc = NULL;
	/* Merge into the device. */
	pthread_mutex_lock(&d->lock);
	diot_hist_merge(&d->hist[DD_DIR_READ], &w->hist[DD_DIR_READ]);
	diot_hist_merge(&d->hist[DD_DIR_WRITE], &w->hist[DD_DIR_WRITE]);
	d->bytes += w->bytes;
	d->rbytes += w->rbytes;
	d->wbytes += w->wbytes;
	d->calls += w->calls;
	d->io_ns += w->io_ns;
	d->cpu_ns += w->cpu_ns;
	d->sg_cmds += w->sg_cmds;
	d->sg_not_direct += w->sg_not_direct;
	if (w->page > d->buf_page)
		d->buf_page = w->page;
	if (w->t_end > d->t_end)
		d->t_end = w->t_end;
	if (w->err && d->errmsg[0] == '\0') {
		d->err = w->err;
		snprintf(d->errmsg, sizeof(d->errmsg), "%s", w->errmsg);
	}
	if (w->reason[0] && d->reason[0] == '\0')
		snprintf(d->reason, sizeof(d->reason), "%s", w->reason);
	pthread_mutex_unlock(&d->lock);
	return NULL;
}
