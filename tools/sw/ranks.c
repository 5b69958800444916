/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ranks.c -- sync-write as the ranks of an MPI job (mpirun -np N
 * sync-write ...): one more kind of team (tools/kit/mpi.h).
 *
 * Every rank runs --writers writers of its own; writer k of rank r is
 * writer r x W + k of the whole job, so the regions (one shared file) or
 * the files (--layout separate) of all ranks are disjoint, on a path every
 * host sees.  Rank 0 prepares the target for all writers and tells the
 * others what it made; before each point rank 0 empties or uncaches it,
 * every rank starts its writers, and all release them together after a
 * barrier; each measures for the same time.  After the point every rank
 * sends rank 0 its verdict, its histogram and its measured window on
 * rank 0's clock (tools/kit/mpi.h: diot_mpi_clock_offset()): rank 0
 * merges the histograms, so the percentiles of all hosts together are
 * those of one histogram of every transaction (not an average of
 * averages), divides the job's transactions and bytes by the job's span
 * (the first writer's measured start to the last writer's end, as one
 * rank's writers are counted: never a sum of the ranks' rates), and tells
 * every rank whether the run goes on.  Each rank counts what the disks
 * under its own target saw (devcount.c), after a barrier that every
 * rank's writers have ended by; rank 0 sums them, a disk of one host once.
 * Only rank 0 reports.
 *
 * Without MPI (or not started by a launcher) the job is one rank and
 * every function here does what the run did before.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/kit/mpi.h"
#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/kit/team.h"
#include "tools/sw/sw.h"

#define ON(c) ((c)->ranks.mpi != NULL && (c)->ranks.mpi->on)

/* What every rank tells rank 0 after a point. */
struct rank_rec {
	int32_t verdict;          /* 1 measured, 0 not applicable, -1 stop */
	int32_t status;           /* SW_*                                   */
	int32_t region_full;
	char note[SW_MSG_MAX];
	struct sw_stats own;      /* the rank's own figures (its writers)   */
	uint64_t t_first, t_last; /* its measured window on rank 0's clock  */
	uint64_t clock_bound;     /* how far off that clock may be (ns)     */
	struct sw_verify verify;
	struct diot_hist hist;    /* every writer of the rank               */
};

void
sw_ranks_init(struct sw_ctx *c, struct diot_mpi *mpi)
{
	struct sw_ranks *R = &c->ranks;
	int i, k;

	R->mpi = mpi;
	R->n = mpi->size;
	R->stopped_by = -1;
	R->host = calloc((size_t)R->n, sizeof(*R->host));
	if (R->host == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	snprintf(R->host[0], sizeof(R->host[0]), "%s", mpi->host);
	if (ON(c)) {
		diot_mpi_gather(mpi, mpi->host, R->host, sizeof(R->host[0]));
		diot_mpi_bcast(mpi, R->host, sizeof(R->host[0]) * (size_t)R->n);
		/* One run: the same identity in every rank's stamps and logs. */
		diot_mpi_bcast(mpi, &c->run_id, sizeof(c->run_id));
	}
	for (i = 0, R->nhosts = 0; i < R->n; i++) {
		for (k = 0; k < i && strcmp(R->host[k], R->host[i]) != 0; k++)
			;
		R->nhosts += k == i;
	}
}

void
sw_ranks_free(struct sw_ctx *c)
{
	free(c->ranks.host);
	c->ranks.host = NULL;
}

/* What ranks cannot do (usage errors), and the ack log's name for this
 * rank ("%r" is the rank, "%h" the host). */
void
sw_ranks_check_opts(struct sw_opts *o, const struct diot_mpi *mpi)
{
	static char ack[4096];
	struct stat st;

	if (!mpi->on)
		return;
	if (o->check_log || o->compare || o->listen)
		diot_usage_error("%s is not run as MPI ranks: run it once, without mpirun",
		                 o->check_log ? "--check" : o->compare ? "--compare"
		                                           : "--listen");
	if (o->noperands > 1)
		diot_usage_error("several TARGETs are not measured as MPI ranks: name one "
		                 "file every host sees");
	if (o->target && stat(o->target, &st) == 0 && (S_ISBLK(st.st_mode) ||
	                                               S_ISCHR(st.st_mode)))
		diot_usage_error("'%s' is a device: as MPI ranks sync-write writes a file "
		                 "that every host sees (a shared file system)", o->target);
	if ((uint64_t)mpi->size * o->writers[o->nwriters - 1] > SW_MAX_WRITERS)
		diot_usage_error("%d ranks x %" PRIu64 " writers: at most %d writers in "
		                 "all", mpi->size, o->writers[o->nwriters - 1], SW_MAX_WRITERS);
	if (o->ack_log == NULL)
		return;
	if (strcmp(o->ack_log, "-") == 0 || diot_ack_is_tcp(o->ack_log))
		diot_usage_error("--ack-log '%s': as MPI ranks each rank writes a log file "
		                 "of its own: name one with %%r (the rank), e.g. "
		                 "--ack-log ack.%%r", o->ack_log);
	if (!diot_mpi_pattern_has(o->ack_log, 'r') && mpi->size > 1)
		diot_usage_error("--ack-log '%s': %d ranks would write one file: put %%r "
		                 "(the rank) in the name, e.g. --ack-log %s.%%r (%%h is "
		                 "the host)", o->ack_log, mpi->size, o->ack_log);
	o->ack_log_given = o->ack_log;
	if (diot_mpi_expand(mpi, o->ack_log, ack, sizeof(ack)) < 0)
		diot_usage_error("--ack-log '%s': the name is too long once %%r and %%h are "
		                 "replaced", o->ack_log);
	o->ack_log = ack;
}

/* Rank 0 makes the target for every writer of the job (an error said
 * once, every rank leaving in order: tools/kit/mpi.h). */
struct making {
	struct sw_ctx *c;
	uint64_t writers, size;
};

static void
make_stage(void *arg)
{
	struct making *mk = arg;

	if (mk->c->ranks.mpi->rank == 0)
		sw_setup_target(mk->c, mk->writers, mk->size);
}

/*
 * Rank 0 makes the target for the writers of all ranks (as one run would
 * for ranks x W writers) and sends the others what it made; they write
 * into it but never remove it.
 */
void
sw_ranks_setup_target(struct sw_ctx *c, uint64_t max_writers, uint64_t max_size)
{
	struct {
		struct sw_target tg;
		uint64_t region;
	} made;
	struct making mk;
	int k, all = (int)max_writers * c->ranks.n;

	if (!ON(c)) {
		sw_setup_target(c, max_writers, max_size);
		return;
	}
	mk.c = c;
	mk.writers = (uint64_t)all;
	mk.size = max_size;
	diot_mpi_each(c->ranks.mpi, make_stage, &mk);
	memset(&made, 0, sizeof(made));
	if (c->ranks.mpi->rank == 0) {
		made.tg = c->tg;
		memset(made.tg.extra, 0, sizeof(made.tg.extra));
		made.region = c->o->region;
	}
	diot_mpi_bcast(c->ranks.mpi, &made, sizeof(made));
	if (c->ranks.mpi->rank == 0)
		return;
	c->tg = made.tg;
	c->tg.created = 0;
	c->tg.claim_fd = -1;
	c->o->region = made.region;
	c->o->region_set = 1;
	for (k = 1; k < all && c->o->layout == SW_LAYOUT_SEPARATE; k++) {
		size_t len = strlen(c->tg.path) + 16;

		c->tg.extra[k] = malloc(len);
		if (c->tg.extra[k] == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
		snprintf(c->tg.extra[k], len, "%s.%d", c->tg.path, k);
	}
}

/* This rank's writers among all; rank 0 readies the target for all. */
void
sw_ranks_prepare_point(const struct sw_ctx *c, struct sw_wctx *x)
{
	int rank = ON(c) ? c->ranks.mpi->rank : 0;

	x->first = rank * x->writers;
	x->all = x->writers * c->ranks.n;
	if (c->tg.is_dev)
		sw_writeback_device(c);
	else if (rank == 0)
		sw_prepare_point(c, x->all);
	if (ON(c))
		diot_mpi_barrier(c->ranks.mpi);   /* nobody writes before that */
}

/* Every rank waits for all the others before writers are released
 * (every rank's are ready, so all start together). */
void
sw_ranks_meet(const struct sw_ctx *c)
{
	if (ON(c))
		diot_mpi_barrier(c->ranks.mpi);
}

/*
 * The one line the job says of a rank that ends before the job ended in
 * order (killed, or lost with its host): said by the rank's guard
 * (tools/kit/outfile.h), which outlives it, on the rank's standard error
 * (the launcher forwards it), naming the rank and where the files the
 * user kept are.  The ranks that the launcher stops once one died were
 * asked to stop by a signal and say nothing: one line, of that rank.
 */
void
sw_ranks_say_end(const struct sw_ctx *c)
{
	const struct sw_opts *o = c->o;
	char who[DIOT_MPI_HOST_MAX + 96], after[3 * 4096 + 256];
	int file_log = c->ack.kind == DIOT_ACK_FILE;

	if (!ON(c))
		return;
	snprintf(who, sizeof(who), "%s: %s", diot_prog, c->ranks.mpi->where);
	if (o->keep && file_log)
		snprintf(after, sizeof(after), "kept for sync-write --check LOG TARGET: the "
		         "target '%s' and every rank's ack log '%s' (this rank's: '%s')",
		         c->tg.path, o->ack_log_given ? o->ack_log_given : o->ack_log,
		         o->ack_log);
	else if (o->keep)
		snprintf(after, sizeof(after), "the target '%s' is kept (without --ack-log "
		         "there is no log to --check it against)", c->tg.path);
	else
		snprintf(after, sizeof(after), "the job's files are removed%s", file_log ?
		         " (--keep keeps the target and every rank's ack log for --check)" :
		         "");
	diot_out_guard_say(who, after);
}

/*
 * While the writers write (the team's tick): a rank whose point goes
 * wrong (a writer failed or died, a signal) tells the others at once, and
 * a rank told stops its writers, so that the point ends on every rank.
 */
void
sw_ranks_watch(struct sw_ctx *c, struct diot_team *t, int W)
{
	struct diot_mpi *m = c->ranks.mpi;
	int k, wrong;

	if (!ON(c))
		return;
	if (!m->told && c->ranks.stopped_by < 0) {
		wrong = diot_team_stopping(t);
		for (k = 0; k < W && !wrong; k++)
			wrong = ((const struct sw_wres *)diot_team_result(t, k))->err != 0;
		if (wrong)
			diot_mpi_tell_stop(m);
	}
	if (c->ranks.stopped_by < 0 && (c->ranks.stopped_by = diot_mpi_stop_asked(m)) >= 0)
		diot_team_stop(t);
}

/* ------------------------------------------------------------ merging */

/* This rank's record of the point; its window moved to rank 0's clock
 * (off: this clock minus rank 0's). */
static void
rank_rec_of(struct rank_rec *rec, const struct sw_point *p, struct diot_team *t, int r,
            int64_t off, uint64_t bound)
{
	int k;

	memset(rec, 0, sizeof(*rec));
	rec->verdict = r > 0 ? 1 : r;
	rec->status = p->status;
	rec->region_full = p->region_full;
	snprintf(rec->note, sizeof(rec->note), "%s", p->note);
	rec->verify = p->verify;
	rec->clock_bound = bound;
	diot_hist_reset(&rec->hist);
	if (p->per == NULL)          /* not applicable: nothing was run */
		return;
	for (k = 0; k < p->writers; k++)
		diot_hist_merge(&rec->hist, &((const struct sw_wres *)diot_team_result(t, k))->hist);
	rec->own = p->agg;
	if (p->t_first != 0 && p->t_last >= p->t_first) {
		rec->t_first = (uint64_t)((int64_t)p->t_first - off);
		rec->t_last = (uint64_t)((int64_t)p->t_last - off);
	}
}

/* The verdict of the job: the first rank that stopped, or that could not
 * run the point, names itself in the note. */
static int
job_verdict(const struct sw_ctx *c, struct sw_point *p, const struct rank_rec *rec)
{
	int i, want;

	for (want = -1; want <= 0; want++)
		for (i = 0; i < c->ranks.n; i++)
			if (rec[i].verdict == want) {
				p->status = rec[i].status;
				snprintf(p->note, sizeof(p->note), "rank %d on %s: %s", i,
				         c->ranks.host[i], rec[i].note);
				return want;
			}
	return 1;
}

/*
 * The statistics of the ranks on host (all ranks: NULL) together: their
 * histograms merged, and their transactions and bytes over their span,
 * from the first measured start to the last end of any of their writers
 * on rank 0's clock (as one rank's writers are counted).  Returns how
 * many ranks.
 */
static int
merge_ranks(const struct sw_ctx *c, const struct rank_rec *rec, const char *host,
            uint64_t size, struct sw_stats *s)
{
	struct diot_hist *h = malloc(sizeof(*h));
	uint64_t t0 = UINT64_MAX, t1 = 0;
	double cu = 0, cs = 0;
	int k, n = 0;

	if (h == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	diot_hist_reset(h);
	for (k = 0; k < c->ranks.n; k++) {
		if (host != NULL && strcmp(c->ranks.host[k], host) != 0)
			continue;
		diot_hist_merge(h, &rec[k].hist);
		n++;
		cu += rec[k].own.cpu_user_s;
		cs += rec[k].own.cpu_sys_s;
		if (rec[k].t_first != 0 && rec[k].t_first < t0)
			t0 = rec[k].t_first;
		if (rec[k].t_last > t1)
			t1 = rec[k].t_last;
	}
	sw_stats_from(s, h, size, t0 == UINT64_MAX ? 0 : t0, t1, cu, cs);
	free(h);
	return n;
}

/* One host's ranks together (--per-host rows), hosts in rank order. */
static void
host_rows(const struct sw_ctx *c, struct sw_point *p, const struct rank_rec *rec, int W)
{
	int i, k, n = 0;

	p->hosts = calloc((size_t)c->ranks.nhosts, sizeof(*p->hosts));
	if (p->hosts == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	for (i = 0; i < c->ranks.n; i++) {
		struct sw_host_row *row;

		for (k = 0; k < n && strcmp(p->hosts[k].host, c->ranks.host[i]) != 0; k++)
			;
		if (k < n)
			continue;           /* that host's row is made */
		row = &p->hosts[n++];
		snprintf(row->host, sizeof(row->host), "%s", c->ranks.host[i]);
		row->ranks = merge_ranks(c, rec, row->host, p->size, &row->s);
		row->writers = row->ranks * W;
	}
	p->nhosts = n;
}

/* Rank 0: the point of the whole job from every rank's record. */
static void
merge_at_rank0(const struct sw_ctx *c, struct sw_point *p, const struct rank_rec *rec,
               const struct sw_stats *per, int W)
{
	int i;

	memset(&p->verify, 0, sizeof(p->verify));
	for (i = 0; i < c->ranks.n; i++) {
		p->region_full |= rec[i].region_full;
		p->verify.done |= rec[i].verify.done;
		p->verify.checked += rec[i].verify.checked;
		p->verify.ok += rec[i].verify.ok;
		p->verify.missing += rec[i].verify.missing;
		p->verify.corrupt += rec[i].verify.corrupt;
		p->verify.stale += rec[i].verify.stale;
		p->verify.misplaced += rec[i].verify.misplaced;
	}
	merge_ranks(c, rec, NULL, p->size, &p->agg);
	free(p->per_rank);
	p->per_rank = malloc(sizeof(*p->per_rank) * (size_t)c->ranks.n);
	if (p->per_rank == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	p->clock_error_us = 0;
	for (i = 0; i < c->ranks.n; i++) {
		p->per_rank[i] = rec[i].own;
		if ((double)rec[i].clock_bound / 1e3 > p->clock_error_us)
			p->clock_error_us = (double)rec[i].clock_bound / 1e3;
	}
	free(p->per);
	p->per = malloc(sizeof(*per) * (size_t)W * (size_t)c->ranks.n);
	if (p->per == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	memcpy(p->per, per, sizeof(*per) * (size_t)W * (size_t)c->ranks.n);
	host_rows(c, p, rec, W);
}

/*
 * After a point: every rank's verdict and results to rank 0, which makes
 * the job's point (p at rank 0) and says whether the run goes on: the
 * verdict every rank returns (as point_verdict: 1, 0 or -1).
 */
int
sw_ranks_merge(struct sw_ctx *c, struct sw_point *p, struct diot_team *t, int r)
{
	struct rank_rec mine, *rec = NULL;
	struct sw_stats *per = NULL, *zero = NULL;
	struct sw_devcount *devs = NULL;
	int W = p->writers, rank0, verdict = r > 0 ? 1 : r;
	uint64_t bound;
	int64_t off;

	if (!ON(c))
		return r;
	rank0 = c->ranks.mpi->rank == 0;
	off = diot_mpi_clock_offset(c->ranks.mpi, &bound);
	rank_rec_of(&mine, p, t, r, off, bound);
	if (rank0) {
		rec = malloc(sizeof(*rec) * (size_t)c->ranks.n);
		per = calloc((size_t)W * (size_t)c->ranks.n, sizeof(*per));
		devs = malloc(sizeof(*devs) * (size_t)c->ranks.n);
		if (rec == NULL || per == NULL || devs == NULL)
			diot_die(DIOT_EXIT_FAIL, "out of memory");
	}
	if (p->per == NULL && (zero = calloc((size_t)W, sizeof(*zero))) == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	diot_mpi_gather(c->ranks.mpi, &mine, rec, sizeof(mine));
	diot_mpi_gather(c->ranks.mpi, p->per ? p->per : zero, per, sizeof(*per) * (size_t)W);
	/* What each rank's disks saw: the job's, each disk of a host once. */
	diot_mpi_gather(c->ranks.mpi, &p->dev, devs, sizeof(p->dev));
	if (rank0) {
		sw_dev_merge(&p->dev, devs, c->ranks.host, c->ranks.n, p->size);
		verdict = job_verdict(c, p, rec);
		if (verdict > 0 || p->status == SW_ERROR || p->status == SW_INTERRUPTED)
			merge_at_rank0(c, p, rec, per, W);
		p->writers = W * c->ranks.n;
		p->ranks = c->ranks.n;
	}
	diot_mpi_bcast(c->ranks.mpi, &verdict, sizeof(verdict));
	/* No stop message of this point is left for the next one. */
	diot_mpi_stop_settle(c->ranks.mpi, diot_mpi_sum(c->ranks.mpi, c->ranks.mpi->told));
	c->ranks.stopped_by = -1;
	free(rec);
	free(per);
	free(devs);
	free(zero);
	return verdict;
}

/* The run's exit status, the same at every rank: the worst of them. */
int
sw_ranks_status(const struct sw_ctx *c, int status)
{
	return ON(c) ? diot_mpi_max(c->ranks.mpi, status) : status;
}
