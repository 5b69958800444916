/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * point.c -- one point of a run (a method, a transaction size, a number of
 * writers): whether it applies, the team of writers (tools/kit/team.h)
 * started at once behind the gate, the progress line while they write,
 * their statistics, and the point's status and note.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/clock.h"
#include "tools/kit/fmt.h"
#include "tools/kit/msg.h"
#include "tools/kit/team.h"
#include "tools/sw/ackrec.h"
#include "tools/sw/sw.h"

static void
point_stats(struct sw_point *p, struct diot_team *t, int W)
{
	struct diot_hist *all = malloc(sizeof(*all));
	uint64_t t0 = UINT64_MAX, t1 = 0;
	double cu = 0, cs = 0;
	int k;

	p->per = calloc((size_t)W, sizeof(*p->per));
	if (p->per == NULL || all == NULL)
		diot_die(DIOT_EXIT_FAIL, "out of memory");
	diot_hist_reset(all);
	for (k = 0; k < W; k++) {
		const struct sw_wres *w = diot_team_result(t, k);

		sw_stats_from(&p->per[k], &w->hist, p->size, w->t_start, w->t_end,
		           w->cpu_user, w->cpu_sys);
		diot_hist_merge(all, &w->hist);
		if (w->t_start && w->t_start < t0)
			t0 = w->t_start;
		if (w->t_end > t1)
			t1 = w->t_end;
		cu += w->cpu_user;
		cs += w->cpu_sys;
		p->region_full |= w->region_full;
	}
	p->t_first = t0 == UINT64_MAX ? 0 : t0;
	p->t_last = t1;
	sw_stats_from(&p->agg, all, p->size, p->t_first, t1, cu, cs);
	free(all);
}

/* Transactions the writers issued, warm-up included (what the disks'
 * counts are divided by). */
static uint64_t
issued(struct diot_team *t, int W)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < W; k++)
		n += ((const struct sw_wres *)diot_team_result(t, k))->txns_total;
	return n;
}

/* ------------------------------------------------------------ progress */

/*
 * The progress line: "[12/130] fsync, 4 KiB, 1 writer: 10601 transactions;
 * 5.2s elapsed, ~48s left".  On a terminal it is redrawn in place while a
 * point runs (and wiped before the results go on); with --progress
 * elsewhere (a log), a line is written as each point ends.  What is left is
 * an estimate, said with "~", and only once a point has run: the points
 * that run writers (those not n/a, known before the run) that are still
 * to come, each taking the average time of those done, plus what is left
 * of the running one (with --count, from its share of the transactions
 * done; with --time, the average less the time it has run).
 */

static void
progress_clear(struct sw_ctx *c)
{
	if (c->progress_len) {
		fprintf(stderr, "\r%*s\r", (int)c->progress_len, "");
		c->progress_len = 0;
	}
}

/* ns as "0.4s", "45s", "3m05s" or "2h07m". */
static const char *
fmt_span(uint64_t ns, char *b, size_t len)
{
	double s = (double)ns / 1e9;
	unsigned long r = (unsigned long)(s + 0.5);

	if (s < 9.95)
		snprintf(b, len, "%.1fs", s);
	else if (r < 60)
		snprintf(b, len, "%lus", r);
	else if (r < 3600)
		snprintf(b, len, "%lum%02lus", r / 60, r % 60);
	else
		snprintf(b, len, "%luh%02lum", r / 3600, r / 60 % 60);
	return b;
}

/* The estimate of what is left, in ns; -1 before any point has run (no
 * data: nothing is said).  running: a point is under way, since point_t0,
 * with done of its planned transactions (planned 0: a timed point). */
static double
progress_left(const struct sw_progress *g, int running, uint64_t now, uint64_t done,
              uint64_t planned)
{
	double avg, cur = 0, in_point;
	int after;

	if (g->ran == 0)
		return -1;
	avg = (double)g->ran_ns / g->ran;
	after = g->planned - g->ran - (running ? 1 : 0);
	if (running) {
		in_point = now > g->point_t0 ? (double)(now - g->point_t0) : 0;
		if (planned && done)
			cur = done < planned ? in_point * (double)(planned - done) / (double)done
			                     : 0;
		else
			cur = avg > in_point ? avg - in_point : 0;
	}
	return (after > 0 ? avg * after : 0) + cur;
}

/* The line for point p of method m, n transactions so far; end: the point
 * is over (the line off a terminal). */
static void
progress_show(struct sw_ctx *c, const struct sw_point *p, const struct sw_method *m,
              uint64_t n, int end)
{
	const struct sw_progress *g = c->prog;
	uint64_t now = diot_now_ns();
	char sz[32], el[32], lf[32], tg[32] = "", line[260];
	int len, W = p->writers;
	double left = progress_left(g, !end, now, n, c->o->count ? c->o->count *
	                            (uint64_t)W : 0);

	if (g->targets > 1)             /* each point on every TARGET in turn */
		snprintf(tg, sizeof(tg), "TARGET %d: ", (g->step - 1) % g->targets + 1);
	len = snprintf(line, sizeof(line), "[%d/%d] %s%s, %s, %d writer%s: %" PRIu64
	               " transactions; %s elapsed", g->step, g->steps, tg, m->name,
	               diot_fmt_iec(p->size, sz, sizeof(sz)), W, W == 1 ? "" : "s", n,
	               fmt_span(now > g->t0 ? now - g->t0 : 0, el, sizeof(el)));
	if (left >= 0 && len > 0 && (size_t)len < sizeof(line))
		len += snprintf(line + len, sizeof(line) - (size_t)len, ", ~%s left",
		                fmt_span((uint64_t)left, lf, sizeof(lf)));
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line))
		len = (int)sizeof(line) - 1;
	if (!g->tty) {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
		return;
	}
	fprintf(stderr, "\r%s", line);
	if ((size_t)len < c->progress_len)
		fprintf(stderr, "%*s", (int)(c->progress_len - (size_t)len), "");
	c->progress_len = (size_t)len;
	fflush(stderr);
}

struct progress {
	struct sw_ctx *c;
	struct diot_team *t;
	const struct sw_point *p;
	const struct sw_method *m;
};

/* The team's tick: the line redrawn on a terminal. */
static void
progress(void *arg)
{
	const struct progress *g = arg;
	struct sw_ctx *c = g->c;
	int k, W = g->p->writers;
	uint64_t n = 0;

	sw_ranks_watch(c, g->t, W);       /* MPI ranks: one stops, all stop */
	if (!c->progress_on || c->prog == NULL || !c->prog->tty)
		return;
	for (k = 0; k < W; k++)
		n += ((const struct sw_wres *)diot_team_result(g->t, k))->progress;
	progress_show(c, g->p, g->m, n, 0);
}

/* Point p, which ran writers, is over: counted for the estimate, and off
 * a terminal its line. */
static void
progress_point_done(struct sw_ctx *c, const struct sw_point *p, const struct sw_method *m)
{
	struct sw_progress *g = c->prog;
	uint64_t now = diot_now_ns();

	if (g == NULL)
		return;
	g->ran++;
	g->ran_ns += now > g->point_t0 ? now - g->point_t0 : 0;
	if (c->progress_on && !g->tty)
		progress_show(c, p, m, p->agg.txns, 1);
}

/* ------------------------------------------------------------ one point */

/* Not applicable here: 1 with the reason in p->note. */
int
sw_point_na(const struct sw_ctx *c, struct sw_point *p, const struct sw_method *m)
{
	const struct sw_target *tg = &c->tg;
	char a[32], b[32];

	if (m->commit == DIO_COMMIT_RWF_DSYNC && dio_commit_resolve(m->commit) < 0) {
		snprintf(p->note, sizeof(p->note), "per-write data sync (pwritev2 with "
		         "RWF_DSYNC) does not exist on this system");
		return 1;
	}
	if (m->direct && tg->direct_refused) {
		snprintf(p->note, sizeof(p->note), "%s refuses direct I/O (%s)",
		         tg->is_dev ? "the device" : "the file system",
		         !(dio_caps() & (DIO_CAP_O_DIRECT | DIO_CAP_DIRECTIO))
		             ? "this build has no direct I/O mechanism"
		             : tg->direct_why[0] ? tg->direct_why
		             : dio_strerror(tg->direct_refused));
		return 1;
	}
	/* Requests the file system serves buffered though direct I/O is on
	 * (illumos UFS): the row would measure buffered writes. */
	if (m->direct && m->sync != DIO_SYNC_NONE && c->o->extend &&
	    (tg->align.direct_limits & DIO_DLIM_SYNC_EXTEND)) {
		snprintf(p->note, sizeof(p->note), "%s buffers O_SYNC/O_DSYNC writes "
		         "that extend a file even with direct I/O on: with --extend "
		         "this row would measure buffered writes", tg->fstype);
		return 1;
	}
	if (m->direct && m->sync != DIO_SYNC_NONE && tg->holes &&
	    (tg->align.direct_limits & DIO_DLIM_SYNC_HOLES)) {
		snprintf(p->note, sizeof(p->note), "%s buffers O_SYNC/O_DSYNC writes "
		         "to a file that has a hole, and the target has one: drop "
		         "--no-prefill (the prefill writes every block)", tg->fstype);
		return 1;
	}
	if (m->direct && tg->align.offset_align > 1 && p->size % tg->align.offset_align) {
		snprintf(p->note, sizeof(p->note), "%s is not a multiple of the direct "
		         "I/O granularity %s (%" PRIu32 " bytes, from %s)",
		         diot_fmt_iec(p->size, a, sizeof(a)),
		         diot_fmt_iec(tg->align.offset_align, b, sizeof(b)),
		         tg->align.offset_align, dio_align_source_name((int)tg->align.source));
		return 1;
	}
	return 0;
}

/*
 * A writer process that died before saying it was done (killed, out of
 * memory...) gets an error of its own (the team stopped the others).
 */
static void
note_deaths(struct diot_team *t, int W, int first)
{
	int k, code, how;

	for (k = 0; k < W; k++) {
		struct sw_wres *w = diot_team_result(t, k);

		how = diot_team_end(t, k, &code);
		if (w->err || (how != DIOT_END_SIGNAL && how != DIOT_END_EXIT))
			continue;
		w->err = -ECHILD;
		if (how == DIOT_END_SIGNAL)
			snprintf(w->errmsg, sizeof(w->errmsg), "writer %d was killed by "
			         "signal %d", first + k, code);
		else
			snprintf(w->errmsg, sizeof(w->errmsg), "writer %d exited (status %d) "
			         "without finishing", first + k, code);
	}
}

/* Start the writers, release them together, wait for them to end. */
static struct diot_team *
run_team(struct sw_ctx *c, struct sw_wctx *x, const struct sw_point *p,
         const struct sw_method *m)
{
	struct progress g;
	struct diot_team *t;
	int failed = 0, r;

	t = diot_team_new(x->writers, sizeof(struct sw_wres), c->o->threads
	                  ? DIOT_TEAM_THREADS : DIOT_TEAM_PROCESSES |
	                  /* A session of its own, as fio's jobs have: where the
	                   * kernel schedules sessions as groups (autogroup),
	                   * each writer is then weighed as one against the
	                   * kernel's threads, not all writers together.  The
	                   * terminal's signals reach the parent only, which
	                   * stops the writers through the team's stop flag. */
	                  DIOT_TEAM_OWN_SESSION | DIOT_TEAM_STOP_ON_DEATH, c->sig);
	if (t == NULL)
		diot_die(DIOT_EXIT_FAIL, "cannot map shared memory: %s", dio_strerror(errno));
	r = diot_team_start(t, sw_writer_main, x, &failed);
	if (r < 0 && c->o->threads)
		diot_die(DIOT_EXIT_FAIL, "cannot start writer thread %d", failed);
	if (r < 0)
		diot_die(DIOT_EXIT_FAIL, "fork: %s", dio_strerror(r));
	diot_team_await_ready(t);
	/* The disks' baseline and first read: every file is open, no writer
	 * has written (the prefill and the point's preparation are done). */
	sw_dev_before(c);
	sw_ranks_meet(c);
	diot_team_go(t, 0);
	g.c = c;
	g.t = t;
	g.p = p;
	g.m = m;
	diot_team_wait(t, 200, progress, &g);
	/* Once more with every writer ended: writers that all end at once (a
	 * rank's one writer killed) leave the wait before its next tick, and
	 * the other ranks would write on to the end of the point. */
	sw_ranks_watch(c, t, p->writers);
	/* Every rank's writers have ended before any rank reads its disks:
	 * a disk that ranks of one host share has seen all their writes. */
	sw_ranks_meet(c);
	sw_dev_after(c);
	progress_clear(c);
	note_deaths(t, x->writers, x->first);
	return t;
}

/* The point's status and note from its writers' results. */
static int
point_verdict(const struct sw_ctx *c, struct sw_point *p, const struct sw_method *m,
              struct diot_team *t)
{
	int k;

	for (k = 0; k < p->writers; k++) {
		const struct sw_wres *w = diot_team_result(t, k);

		if (w->err == 0)
			continue;
		if (w->err == -ENOTSUP && m->commit == DIO_COMMIT_RWF_DSYNC) {
			p->status = SW_NA;
			snprintf(p->note, sizeof(p->note), "the kernel rejects RWF_DSYNC");
			return 0;
		}
		p->status = SW_ERROR;
		snprintf(p->note, sizeof(p->note), "%s", w->errmsg);
		return -1;
	}
	if (*c->sig) {
		p->status = SW_INTERRUPTED;
		snprintf(p->note, sizeof(p->note), "interrupted by signal %d; partial "
		         "results", (int)*c->sig);
		return -1;
	}
	if (p->agg.txns == 0) {
		p->status = SW_NA;
		snprintf(p->note, sizeof(p->note), "no transaction was measured: the "
		         "warm-up filled the %" PRIu64 "-byte region (raise --region or "
		         "lower --warmup)", c->o->region);
		return 0;
	}
	if (p->region_full)
		snprintf(p->note, sizeof(p->note), "a writer filled its %" PRIu64
		         "-byte region before its %s (see --region)", c->o->region,
		         c->o->count ? "count was reached" : "time was up");
	return 1;
}

/*
 * A hint, not a verdict: a method that makes each transaction durable
 * (a flush, FUA or a synchronous write) whose median is below what a
 * flush on a spinning disk can cost, on a disk that says it spins.  The
 * medium is then not what answers: a volatile cache that is not flushed,
 * one that is not volatile (battery or flash backed), or a disk that
 * only claims to spin (a virtual one).
 */
#define SW_ROTATIONAL_FLUSH_US 1000.0   /* under a 7200 rpm disk's rotation */

static void
speed_hint(const struct sw_ctx *c, struct sw_point *p)
{
	if (!p->durable || c->tg.rotational != DIO_TRI_YES || p->agg.txns == 0 ||
	    p->agg.p50_us >= SW_ROTATIONAL_FLUSH_US)
		return;
	p->hint_kind = SW_HINT_FAST_FLUSH;
	snprintf(p->hint, sizeof(p->hint), "median %.0f us is faster than a flush on "
	         "a spinning disk can be (%s says it spins): a volatile cache that is "
	         "not flushed, a non-volatile one, or a virtual disk (see dio-info)",
	         p->agg.p50_us, c->tg.disk[0] ? c->tg.disk : "the disk");
}

/* A durable method on a target where nothing can be durable (tmpfs): its
 * commits return at once, and the row could be read as a fast disk. */
static void
durable_hint(const struct sw_ctx *c, struct sw_point *p)
{
	if (!p->durable || !c->tg.not_durable[0])
		return;
	p->hint_kind = SW_HINT_NOT_DURABLE;
	snprintf(p->hint, sizeof(p->hint), "%s%s", sw_durable_lead(c->tg.not_durable),
	         c->tg.not_durable);
}

/* A row without a commit whose writes are commits all the same (ZFS
 * sync=always; a direct write on illumos NFS, a stable one). */
static void
nocommit_hint(const struct sw_ctx *c, struct sw_point *p, const struct sw_method *m)
{
	int k = sw_nocommit_hint(m, c->tg.sync_always, c->tg.direct_stable);

	if (k == SW_HINT_NONE)
		return;
	p->hint_kind = k;
	if (k == SW_HINT_SYNC_ALWAYS)
		snprintf(p->hint, sizeof(p->hint), "ZFS sync=always: every write is "
		         "committed before it returns, so this row times commits");
	else
		snprintf(p->hint, sizeof(p->hint), "on NFS (illumos) a direct write is a "
		         "stable (FILE_SYNC) write: the server commits each one, so this "
		         "row times commits");
}

/* What the disks' counters over the point suggest (facts.c): no flush
 * reached a volatile cache, commits merged into fewer flushes, more bytes
 * written than the transactions; beside the hint above, not instead. */
static void
dev_hints(const struct sw_ctx *c, struct sw_point *p, const struct sw_method *m)
{
	int kind[SW_POINT_DEV_HINTS], k, n = 0;

	kind[0] = sw_dev_flush_hint(&p->dev, m, p->writers);
	kind[1] = sw_dev_amp_hint(&p->dev, m);
	if (kind[0] == SW_HINT_DEV_NO_FLUSH || kind[0] == SW_HINT_DEV_CACHE_HIDDEN)
		sw_dev_disk_names(p->dev_disks, sizeof(p->dev_disks), &p->dev, kind[0]);
	for (k = 0; k < SW_POINT_DEV_HINTS; k++) {
		if (kind[k] == SW_HINT_NONE)
			continue;
		p->dev_hint_kind[n] = kind[k];
		sw_dev_hint_text(p->dev_hint[n], sizeof(p->dev_hint[n]), kind[k], &p->dev,
		                 p->dev_disks, p->writers, p->size, c->tg.is_dev);
		n++;
	}
}

int
sw_run_point(struct sw_ctx *c, struct sw_point *p, const struct sw_method *m)
{
	const struct sw_wres *w0;
	struct diot_team *t;
	struct sw_wctx x;
	int r, cached;

	p->direct = "-";
	p->sync_flag = "-";
	p->commit = dio_commit_name(m->commit);
	p->durable = m->commit != DIO_COMMIT_NONE || m->sync != DIO_SYNC_NONE;
	if (sw_point_na(c, p, m)) {
		p->status = SW_NA;
		p->dev.state = SW_DEV_NA;
		snprintf(p->dev.why, sizeof(p->dev.why), "the point did not run");
		return 0;
	}
	if (c->prog != NULL)              /* its time, for the estimate */
		c->prog->point_t0 = diot_now_ns();
	/* What is cached as the point starts (sw_prepare_point() empties an
	 * --extend file, and drops the cache where it can). */
	c->tg.cached = c->o->extend ? SW_CACHED_NONE
	               : sw_cached_at_start(c->tg.cached, dio_caps());
	cached = c->tg.cached;
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.m = m;
	x.size = p->size;
	x.writers = p->writers;
	x.point = p->index;
	x.slots = c->o->region / p->size;
	sw_ranks_prepare_point(c, &x);
	if (SW_ACK_ON(c) && (r = sw_ackrec_point(&c->ack, p->index, m->name, p->size, x.all,
	                                          x.slots)) < 0) {
		char why[300];

		diot_die(DIOT_EXIT_FAIL, "--ack-log '%s': recording point %d: %s",
		         c->o->ack_log, p->index, diot_ack_strerror(&c->ack, r, why,
		                                                    sizeof(why)));
	}
	t = run_team(c, &x, p, m);
	point_stats(p, t, p->writers);
	sw_dev_point(c, &p->dev, issued(t, p->writers), p->size);
	w0 = diot_team_result(t, 0);
	p->direct = dio_mech_name(w0->mech);
	p->sync_flag = dio_sync_flag_name(w0->sync_flag);
	p->commit = dio_commit_name(dio_commit_resolve(m->commit) < 0
	                            ? m->commit : dio_commit_resolve(m->commit));
	r = point_verdict(c, p, m, t);
	if (r > 0 && c->o->verify)
		sw_verify_point(&x, t, p);
	r = sw_ranks_merge(c, p, t, r);     /* MPI ranks: the job's point */
	if (p->status != SW_OK && p->dev.state != SW_DEV_NA) {
		p->dev.state = SW_DEV_NA;
		snprintf(p->dev.why, sizeof(p->dev.why), "the point was not measured "
		         "whole (%s)", p->status == SW_NA ? "n/a" : p->status == SW_ERROR
		         ? "an error" : "interrupted");
	}
	if (r > 0 && SW_RANK0(c))
		durable_hint(c, p);
	if (r > 0 && SW_RANK0(c) && !p->hint[0])
		speed_hint(c, p);
	if (r > 0 && SW_RANK0(c) && !p->hint[0])
		nocommit_hint(c, p, m);
	if (r > 0 && SW_RANK0(c) && !p->hint[0] && sw_point_cached(&c->tg.align, cached,
	                                                           m->direct)) {
		static const char *const by[] = {
			"",
			"the prefill left some",
			"the file may hold some (--no-prefill)",
			("the buffered rows before left some (the cache cannot be "
			 "dropped here)")
		};

		p->hint_kind = SW_HINT_CACHED_DIRECT;
		snprintf(p->hint, sizeof(p->hint), "%s serves direct requests through "
		         "its cache while the file has any cached page, and %s: these "
		         "writes may not have been direct", c->tg.fstype, by[cached & 3]);
	}
	if (r > 0 && SW_RANK0(c))
		dev_hints(c, p, m);
	if (!m->direct && !c->tg.is_dev)  /* pages the next drop takes, if any */
		c->tg.cached = SW_CACHED_POINTS;
	if (w0->mech == DIO_MECH_DIRECTIO)
		sw_target_advice_off(c, p->writers);
	diot_team_free(t);
	progress_point_done(c, p, m);
	return r > 0 ? 0 : r;
}
