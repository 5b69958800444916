/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writers.c -- one writer of a point: open the target its way, wait at the
 * team's gate, write and commit transactions through its region (the
 * warm-up unmeasured), time each, record them in the ack log, and leave
 * everything in its shared result (struct sw_wres).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tools/kit/clock.h"
#include "tools/kit/msg.h"
#include "tools/kit/team.h"
#include "tools/sw/ackrec.h"
#include "tools/sw/sw.h"
#include "tools/sw/txn.h"

static void
cpu_now(int threads, double *user, double *sys)
{
	int who = RUSAGE_SELF;

#if defined(RUSAGE_THREAD)
	if (threads)
		who = RUSAGE_THREAD;
#elif defined(RUSAGE_LWP)
	if (threads)
		who = RUSAGE_LWP;
#endif
	(void)threads;
	*user = *sys = 0;
	diot_rusage_times(who, user, sys);
}

/* A writer at work: its file, buffer and position. */
struct writer {
	const struct sw_wctx *x;
	struct diot_team *t;
	struct sw_wres *w;
	int k;                        /* among the writers of every rank */
	dio_file *f;
	unsigned char *buf;
	uint64_t j, off;
	double u0, s0;
	struct diot_ack ack;          /* records: a listener connection of its own */
	FILE *times;                  /* DIO_SW_TIMES: every measured time, or NULL */
};

/*
 * A test mode: with DIO_SW_TIMES=DIR in the environment each writer also
 * writes the time of every measured transaction (ns, a line each) to
 * DIR/p<point>.w<writer>, so that a test can recompute the statistics
 * from the raw times (e.g. of all MPI ranks).  Not for measuring.
 */
static FILE *
times_file(const struct writer *wr)
{
	const char *dir = getenv("DIO_SW_TIMES");
	char path[4096];
	FILE *fp;

	if (dir == NULL || *dir == '\0')
		return NULL;
	snprintf(path, sizeof(path), "%s/p%d.w%d", dir, wr->x->point, wr->k);
	fp = fopen(path, "w");
	if (fp == NULL)
		diot_warn("DIO_SW_TIMES: cannot write '%s': %s", path, dio_strerror(errno));
	return fp;
}

/* Open the file the method's way and make the buffer; errors in w->err. */
static void
writer_open(struct writer *wr)
{
	const struct sw_wctx *x = wr->x;
	const char *path = sw_file_of(x->c, wr->k);
	struct sw_wres *w = wr->w;
	struct dio_align a;
	size_t align;
	int rr;

	rr = dio_open(&wr->f, path, DIO_O_RDWR, x->m->direct ? DIO_DIRECT_ON : DIO_DIRECT_OFF,
	              x->m->sync, 0);
	if (rr < 0) {
		w->err = rr;
		snprintf(w->errmsg, sizeof(w->errmsg), "open %s: %s", path, dio_strerror(rr));
		return;
	}
	w->mech = dio_file_direct(wr->f);
	w->sync_flag = dio_file_sync_flag(wr->f);
	dio_file_align(wr->f, &a);
	align = a.mem_align > 4096 ? a.mem_align : 4096;
	wr->buf = dio_alloc((size_t)x->size, align);
	if (wr->buf == NULL) {
		w->err = -ENOMEM;
		snprintf(w->errmsg, sizeof(w->errmsg), "cannot allocate %" PRIu64 " bytes",
		         x->size);
		return;
	}
	/* Incompressible, the same for every writer (verify rewrites it). */
	sw_make_txn(wr->buf, (size_t)x->size, x->c->run_id, (uint32_t)x->point,
	            (uint32_t)wr->k, 0, 0);
}

/* Stamp transaction j (when it is checked later) and note its offset. */
static void
writer_stamp(struct writer *wr)
{
	const struct sw_wctx *x = wr->x;

	wr->off = sw_txn_offset(x->c, x->slots, x->all, x->size, wr->k, wr->j);
	if (x->c->o->verify || SW_ACK_ON(x->c))
		sw_make_txn(wr->buf, (size_t)x->size, x->c->run_id, (uint32_t)x->point,
		            (uint32_t)wr->k, wr->j, wr->off);
}

/* The unmeasured transactions: 0, or the -errno of a write. */
static int64_t
writer_warmup(struct writer *wr)
{
	const struct sw_wctx *x = wr->x;
	const struct sw_opts *o = x->c->o;
	int64_t r;

	for (; wr->j < o->warmup && !diot_team_stopping(wr->t); wr->j++) {
		if (o->extend && wr->j >= x->slots)
			break;
		writer_stamp(wr);
		r = dio_pwrite_commit(wr->f, wr->buf, (size_t)x->size, (int64_t)wr->off,
		                      x->m->commit);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * The measured transactions: 0 at the end (time, count, region full or a
 * stop), 1 and r an ack-log error, 2 and r a write error.
 */
static int
writer_measure(struct writer *wr, int64_t *r)
{
	const struct sw_wctx *x = wr->x;
	const struct sw_opts *o = x->c->o;
	struct sw_wres *w = wr->w;
	struct diot_ack *ack = &wr->ack;
	int k = wr->k;
	uint64_t recorded = 0, t0, t1, deadline;

	cpu_now(o->threads, &wr->u0, &wr->s0);
	w->t_start = t1 = diot_now_ns();
	deadline = w->t_start + o->time_ns;
	while (!diot_team_stopping(wr->t)) {
		if (o->count ? recorded >= o->count : t1 >= deadline)
			break;
		if (o->extend && wr->j >= x->slots) {
			w->region_full = 1;
			break;
		}
		writer_stamp(wr);
		if ((*r = sw_ackrec_issued(ack, k, wr->j, wr->off)) < 0)
			return 1;
		t0 = diot_now_ns();
		*r = dio_pwrite_commit(wr->f, wr->buf, (size_t)x->size, (int64_t)wr->off,
		                       x->m->commit);
		t1 = diot_now_ns();
		if (*r < 0)
			return 2;
		if ((*r = sw_ackrec_acked(ack, k, wr->j, wr->off)) < 0)
			return 1;
		diot_hist_add(&w->hist, t1 - t0);
		if (wr->times != NULL)
			fprintf(wr->times, "%" PRIu64 "\n", t1 - t0);
		w->progress = ++recorded;
		wr->j++;
	}
	w->t_end = t1;
	return 0;
}

/* Close the measured window (at the end, or when an error cut it). */
static void
writer_times(struct writer *wr, int cut)
{
	double u1, s1;

	if (cut && !wr->w->t_start)
		return;
	if (cut)
		wr->w->t_end = diot_now_ns();
	cpu_now(wr->x->c->o->threads, &u1, &s1);
	wr->w->cpu_user = u1 - wr->u0;
	wr->w->cpu_sys = s1 - wr->s0;
}

static void
writer_failed(struct writer *wr, int64_t r)
{
	const struct sw_wctx *x = wr->x;
	struct sw_wres *w = wr->w;
	char detail[300];

	w->err = (int)r;
	w->err_off = (int64_t)wr->off;
	dio_file_errdetail(wr->f, detail, sizeof(detail));
	snprintf(w->errmsg, sizeof(w->errmsg), "writer %d, method %s, %" PRIu64
	         "-byte transaction %" PRIu64 " at offset %" PRIu64 ": %s", wr->k,
	         x->m->name, x->size, wr->j, wr->off,
	         detail[0] ? detail : dio_strerror((int)r));
}

/* A member of the point's team: writer k. */
void
sw_writer_main(struct diot_team *t, int k, void *arg)
{
	struct writer wr;
	int64_t r = 0;
	int how;

	memset(&wr, 0, sizeof(wr));
	wr.x = arg;
	wr.t = t;
	wr.k = wr.x->first + k;
	wr.w = diot_team_result(t, k);
	diot_hist_reset(&wr.w->hist);     /* the team zeroes it: min_ns too */
	writer_open(&wr);
	wr.ack = wr.x->c->ack;
	if (!wr.w->err && diot_ack_reconnect(&wr.ack, wr.w->errmsg, sizeof(wr.w->errmsg)) < 0)
		wr.w->err = -ECONNREFUSED;
	wr.times = times_file(&wr);
	/* Ready, then wait for the start, or a stop. */
	if (diot_team_ready(t, k) != 0 || wr.w->err)
		goto out;
	r = writer_warmup(&wr);
	if (r < 0) {
		writer_failed(&wr, r);
		writer_times(&wr, 1);
		goto out;
	}
	how = writer_measure(&wr, &r);
	if (how == 0) {
		writer_times(&wr, 0);
	} else if (how == 1) {
		char why[300];

		wr.w->err = (int)r;
		snprintf(wr.w->errmsg, sizeof(wr.w->errmsg), "writer %d, method %s: writing "
		         "the ack log '%s' failed: %s", wr.k, wr.x->m->name, wr.x->c->o->ack_log,
		         diot_ack_strerror(&wr.ack, (int)r, why, sizeof(why)));
		writer_times(&wr, 1);
	} else {
		writer_failed(&wr, r);
		writer_times(&wr, 1);
	}
out:
	wr.w->txns_total = wr.j;
	if (wr.times != NULL)
		fclose(wr.times);
	dio_free(wr.buf);
	dio_close(wr.f);
	if (wr.ack.kind == DIOT_ACK_TCP && wr.ack.fd != wr.x->c->ack.fd)
		diot_ack_close(&wr.ack);
}
