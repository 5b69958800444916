/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ranks.c -- dio-dd as the ranks of an MPI job (mpirun -np N dio-dd ...;
 * tools/kit/mpi.h): every rank drives its own devices, named by operands
 * in which %r is the rank and %h the host (of=/data/out.%r, if=/dev/sd%h
 * ...); all ranks release their workers together after a barrier; rank 0
 * gathers every rank's device rows and histograms and reports them as one
 * run: a row per device of every rank ("RANK@HOST:NAME") and a total
 * whose latency percentiles are those of every call on every host (the
 * histograms merged), whose bytes are the sum and whose wall time runs
 * from the common start to the last device's end, every rank's times on
 * rank 0's clock (tools/kit/mpi.h: diot_mpi_clock_offset()): its MB/s are
 * the job's bytes over the job's span, never a sum of the ranks' rates.  Without MPI every
 * function here leaves the run as it was.
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/dd/dd.h"
#include "tools/kit/mpi.h"
#include "tools/kit/msg.h"

#define ON(dd) ((dd)->mpi != NULL && (dd)->mpi->on)

/* An operand's path with %r (rank) and %h (host) replaced, malloc'd. */
static char *
expand(const struct diot_mpi *m, const char *s)
{
	char out[PATH_MAX], *t;

	if (diot_mpi_expand(m, s, out, sizeof(out)) < 0)
		diot_usage_error("'%s': too long once %%r and %%h are replaced", s);
	t = strdup(out);
	if (t == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	return t;
}

/*
 * Each rank's own operands.  Several ranks writing one output would write
 * over each other: an of= needs %r or %h.  An if= without one is read by
 * every rank (a shared input).
 */
void
dd_ranks_operands(struct dd *dd)
{
	int i;

	if (!ON(dd))
		return;
	for (i = 0; i < dd->o.nof; i++) {
		if (!diot_mpi_has_pattern(dd->o.ofs[i]) && dd->mpi->size > 1)
			diot_usage_error("of=%s: %d ranks would write one output: put %%r (the "
			                 "rank) or %%h (the host) in its name, e.g. of=%s.%%r",
			                 dd->o.ofs[i], dd->mpi->size, dd->o.ofs[i]);
		dd->o.ofs[i] = expand(dd->mpi, dd->o.ofs[i]);
	}
	for (i = 0; i < dd->o.nif; i++)
		dd->o.ifs[i] = expand(dd->mpi, dd->o.ifs[i]);
}

/* Every rank's workers ready: all are released together. */
void
dd_ranks_meet(struct dd *dd)
{
	if (ON(dd))
		diot_mpi_barrier(dd->mpi);
}

/* One device row of one rank, as bytes rank 0 can print. */
struct rank_row {
	char name[2 * PATH_MAX + 80], input[PATH_MAX], output[PATH_MAX], io[64];
	char status[16], error[DD_MSG_MAX], reason[400];
	int has_error, has_reason;
	uint64_t bytes, full, partial, wfull, wpartial, calls, sg_cmds, sg_nd;
	double wall_s, io_s, mbs, mibs, cpu_s;
	uint64_t xbytes[DD_NDIR];
	struct diot_hist hist[DD_NDIR];
};

static void
to_rank_row(struct rank_row *x, const struct dd_row *r, const struct diot_mpi *m)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "%d@%s:%s", m->rank, m->host, r->name);
	snprintf(x->input, sizeof(x->input), "%s", r->input ? r->input : "");
	snprintf(x->output, sizeof(x->output), "%s", r->output ? r->output : "");
	snprintf(x->io, sizeof(x->io), "%s", r->io ? r->io : "");
	snprintf(x->status, sizeof(x->status), "%s", r->status);
	x->has_error = r->error != NULL;
	snprintf(x->error, sizeof(x->error), "%s", r->error ? r->error : "");
	x->has_reason = r->reason != NULL;
	snprintf(x->reason, sizeof(x->reason), "%s", r->reason ? r->reason : "");
	x->bytes = r->bytes;
	x->full = r->full;
	x->partial = r->partial;
	x->wfull = r->wfull;
	x->wpartial = r->wpartial;
	x->calls = r->calls;
	x->sg_cmds = r->sg_cmds;
	x->sg_nd = r->sg_nd;
	x->wall_s = r->wall_s;
	x->io_s = r->io_s;
	x->mbs = r->mbs;
	x->mibs = r->mibs;
	x->cpu_s = r->cpu_s;
	x->hist[DD_DIR_READ] = *r->h[DD_DIR_READ];
	x->hist[DD_DIR_WRITE] = *r->h[DD_DIR_WRITE];
	x->xbytes[DD_DIR_READ] = r->xbytes[DD_DIR_READ];
	x->xbytes[DD_DIR_WRITE] = r->xbytes[DD_DIR_WRITE];
}

static void
from_rank_row(struct dd_row *r, const struct rank_row *x)
{
	memset(r, 0, sizeof(*r));
	r->name = x->name;
	r->input = x->input[0] ? x->input : NULL;
	r->output = x->output[0] ? x->output : NULL;
	r->io = x->io;
	r->h[DD_DIR_READ] = &x->hist[DD_DIR_READ];
	r->h[DD_DIR_WRITE] = &x->hist[DD_DIR_WRITE];
	r->xbytes[DD_DIR_READ] = x->xbytes[DD_DIR_READ];
	r->xbytes[DD_DIR_WRITE] = x->xbytes[DD_DIR_WRITE];
	r->bytes = x->bytes;
	r->full = x->full;
	r->partial = x->partial;
	r->wfull = x->wfull;
	r->wpartial = x->wpartial;
	r->calls = x->calls;
	r->sg_cmds = x->sg_cmds;
	r->sg_nd = x->sg_nd;
	r->wall_s = x->wall_s;
	r->io_s = x->io_s;
	r->mbs = x->mbs;
	r->mibs = x->mibs;
	r->cpu_s = x->cpu_s;
	r->status = x->status;
	r->error = x->has_error ? x->error : NULL;
	r->reason = x->has_reason ? x->reason : NULL;
}

/* What a rank adds to the job's totals besides its rows: its CPU time,
 * and its start and last end on rank 0's clock (diot_mpi_clock_offset()). */
struct rank_sum {
	double cpu_user, cpu_sys;
	uint64_t t_go, t_end;
};

/* A row of the job added to its total (the histograms apart). */
static void
add_to_total(struct dd_row *tot, const struct dd_row *r)
{
	dd_row_add(tot, r);
	if (strcmp(r->status, "ok") != 0 && strcmp(tot->status, "error") != 0)
		tot->status = r->status;
	if (tot->error == NULL && r->error != NULL)
		tot->error = r->error;
	if (tot->reason == NULL && r->reason != NULL)
		tot->reason = r->reason;
}

/* This rank's CPU time and span, its times on rank 0's clock (off). */
static void
rank_sum_of(const struct dd *dd, int64_t off, double cu, double cs, struct rank_sum *sum)
{
	int i;

	sum->cpu_user = cu;
	sum->cpu_sys = cs;
	sum->t_go = (uint64_t)((int64_t)dd->t_go - off);
	sum->t_end = 0;
	for (i = 0; i < dd->ndevs; i++)
		if (dd->devs[i].t_end > dd->t_go &&
		    (uint64_t)((int64_t)dd->devs[i].t_end - off) > sum->t_end)
			sum->t_end = (uint64_t)((int64_t)dd->devs[i].t_end - off);
}

/*
 * After the run: every rank's rows to rank 0, which makes the job's rows
 * (*rows, returned count; the storage is the ranks' records, kept until
 * exit) and total (*tot, its histogram the merge of every row's);
 * *cu and *cs become the job's CPU time.  Other ranks get -1: nothing to
 * print.  Every rank has the same devices count (the same operands).
 */
int
dd_ranks_merge(struct dd *dd, struct dd_row **rows, int n, struct dd_row *tot, double *cu,
               double *cs)
{
	static struct rank_row *all;
	static struct rank_sum *sums;
	static struct diot_hist merged[DD_NDIR];
	static struct dd_row *jrows;
	struct rank_row *mine;
	struct rank_sum sum;
	uint64_t bound, t0 = UINT64_MAX, t1 = 0;
	int64_t off;
	int i, k, N;

	if (!ON(dd))
		return n;
	N = dd->mpi->size;
	mine = calloc((size_t)n + 1, sizeof(*mine));
	if (dd->mpi->rank == 0) {
		all = calloc((size_t)n * (size_t)N + 1, sizeof(*all));
		sums = calloc((size_t)N, sizeof(*sums));
		jrows = calloc((size_t)n * (size_t)N + 1, sizeof(*jrows));
		dd->rank_hosts = calloc((size_t)N, sizeof(*dd->rank_hosts));
		if (all == NULL || sums == NULL || jrows == NULL || dd->rank_hosts == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
	}
	if (mine == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < n; i++)
		to_rank_row(&mine[i], &(*rows)[i], dd->mpi);
	off = diot_mpi_clock_offset(dd->mpi, &bound);
	rank_sum_of(dd, off, *cu, *cs, &sum);
	diot_mpi_gather(dd->mpi, mine, all, sizeof(*mine) * (size_t)n);
	diot_mpi_gather(dd->mpi, &sum, sums, sizeof(sum));
	diot_mpi_gather(dd->mpi, dd->mpi->host, dd->rank_hosts, sizeof(dd->mpi->host));
	free(mine);
	if (dd->mpi->rank != 0)
		return -1;
	/* The job: every row; totals over all of them. */
	diot_hist_reset(&merged[DD_DIR_READ]);
	diot_hist_reset(&merged[DD_DIR_WRITE]);
	memset(tot, 0, sizeof(*tot));
	tot->name = "total";
	tot->io = dd->total_io;
	tot->h[DD_DIR_READ] = &merged[DD_DIR_READ];
	tot->h[DD_DIR_WRITE] = &merged[DD_DIR_WRITE];
	tot->status = "ok";
	*cu = *cs = 0;
	/* The job's span: from the first rank's start (all are released
	 * together after a barrier) to the last device's end, on one clock. */
	for (k = 0; k < N; k++) {
		*cu += sums[k].cpu_user;
		*cs += sums[k].cpu_sys;
		if (sums[k].t_go < t0)
			t0 = sums[k].t_go;
		if (sums[k].t_end > t1)
			t1 = sums[k].t_end;
	}
	tot->wall_s = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
	for (i = 0; i < n * N; i++) {
		struct dd_row *r = &jrows[i];

		from_rank_row(r, &all[i]);
		diot_hist_merge(&merged[DD_DIR_READ], r->h[DD_DIR_READ]);
		diot_hist_merge(&merged[DD_DIR_WRITE], r->h[DD_DIR_WRITE]);
		add_to_total(tot, r);
	}
	if (tot->wall_s > 0) {
		tot->mbs = (double)tot->bytes / tot->wall_s / 1e6;
		tot->mibs = (double)tot->bytes / tot->wall_s / 1048576.0;
	}
	free(*rows);
	*rows = jrows;
	return n * N;
}

/* The run's exit status, the same at every rank: the worst of them. */
int
dd_ranks_status(const struct dd *dd, int status)
{
	return ON(dd) ? diot_mpi_max(dd->mpi, status) : status;
}
