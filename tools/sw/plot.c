/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plot.c -- sync-write's --plot: an SVG of the time per transaction
 * against the size, one line per method, of throughput and latency
 * against the number of writers, and of the cache flushes per transaction
 * that reached the disks where they were counted (tools/kit/svg.h).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/svg.h"
#include "tools/sw/compare.h"
#include "tools/sw/sw.h"

/*
 * Every step is a sort or a pass (n log n in the points), so that a
 * hostile --compare input of a million distinct methods, sizes or writer
 * counts draws in seconds, not years; svg.c keeps the axes finite and
 * small whatever the numbers are.
 */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* v[0..n) sorted, without repeats; returns the new n. */
static int
sort_unique(double *v, int n)
{
	int i, k = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		if (k == 0 || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* The series of the charts; all series together have at most n points per
 * chart: seven pools of n values (x, y for chart 1; x, y, y for charts 2
 * and 3; x, y for the flushes' chart) in one allocation, handed out series
 * by series. */
struct plot {
	const struct sw_point *pts;
	int n, nm, nw;
	const char **meth;        /* the methods, in order of appearance   */
	int *mi;                  /* each point's method, an index of meth */
	int *idx;                 /* point indices, sorted for a chart     */
	double *ws;               /* the numbers of writers, sorted        */
	double pick;              /* the size of charts 2, 3 (and 4)      */
	struct diot_series *s1, *s2, *s3, *s4;
	double *pool;
	struct diot_chart charts[4];
	char title[200], t2[200], t3[200], t4[200];
};

#define NPOOLS 7

#define POOL(g, k) ((g)->pool + (size_t)(k) * ((size_t)(g)->n + 1))

static void
plot_free(struct plot *g)
{
	free(g->pool);
	free(g->meth);
	free(g->mi);
	free(g->idx);
	free(g->ws);
	free(g->s1);
	free(g->s2);
	free(g->s3);
	free(g->s4);
}

/* For qsort: by method name, then by index (the first one first). */
static const struct sw_point *sort_pts;
static const int *sort_mi;

static int
by_name(const void *a, const void *b)
{
	int i = *(const int *)a, k = *(const int *)b;
	int c = strcmp(sort_pts[i].method, sort_pts[k].method);

	return c != 0 ? c : (i > k) - (i < k);
}

/* By method (its index), writers, then the order of the points. */
static int
by_series(const void *a, const void *b)
{
	int i = *(const int *)a, k = *(const int *)b;

	if (sort_mi[i] != sort_mi[k])
		return sort_mi[i] < sort_mi[k] ? -1 : 1;
	if (sort_pts[i].writers != sort_pts[k].writers)
		return sort_pts[i].writers < sort_pts[k].writers ? -1 : 1;
	return (i > k) - (i < k);
}

static int
plot_init(struct plot *g, const struct sw_point *pts, int n)
{
	int i, j, *num;

	memset(g, 0, sizeof(*g));
	g->pts = pts;
	g->n = n;
	g->meth = calloc((size_t)n + 1, sizeof(*g->meth));
	g->mi = calloc((size_t)n + 1, sizeof(*g->mi));
	g->idx = calloc((size_t)n + 1, sizeof(*g->idx));
	g->ws = calloc((size_t)n + 1, sizeof(*g->ws));
	g->s1 = calloc((size_t)n + 1, sizeof(*g->s1));
	g->s2 = calloc((size_t)n + 1, sizeof(*g->s2));
	g->s3 = calloc((size_t)n + 1, sizeof(*g->s3));
	g->s4 = calloc((size_t)n + 1, sizeof(*g->s4));
	g->pool = calloc(NPOOLS * ((size_t)n + 1), sizeof(double));
	if (!g->meth || !g->mi || !g->idx || !g->ws || !g->s1 || !g->s2 || !g->s3 ||
	    !g->s4 || !g->pool) {
		plot_free(g);
		return -1;
	}
	/* The methods in order of appearance: the points sorted by name
	 * (then index), each takes its name's first point; the first points,
	 * in order, number the names (num: pool 0 as scratch). */
	num = (int *)POOL(g, 0);
	for (i = 0; i < n; i++)
		g->idx[i] = i;
	sort_pts = pts;
	qsort(g->idx, (size_t)n, sizeof(int), by_name);
	for (i = 0, j = 0; i < n; i++) {
		if (i == 0 || strcmp(pts[g->idx[i]].method, pts[g->idx[i - 1]].method) != 0)
			j = g->idx[i];
		g->mi[g->idx[i]] = j;
	}
	for (i = 0; i < n; i++)
		if (g->mi[i] == i) {
			num[i] = g->nm;
			g->meth[g->nm++] = pts[i].method;
		}
	for (i = 0; i < n; i++)
		g->mi[i] = num[g->mi[i]];
	for (i = 0; i < n; i++)
		g->ws[i] = pts[i].writers;
	g->nw = sort_unique(g->ws, n);
	return 0;
}

/* A point a chart shows. */
static int
usable(const struct sw_point *p)
{
	return p->status != 1 && p->agg.txns;
}

/* The series of a chart from the points in idx[0..c) (sorted by method):
 * s[j] for method j gets its run of them, x and y from the pools. */
static void
fill_series(struct plot *g, struct diot_series *s, int c, int xpool, int ypool,
            int y2pool, struct diot_series *s2, int by_writers)
{
	double *x = POOL(g, xpool), *y = POOL(g, ypool), *y2 = y2pool ? POOL(g, y2pool) : NULL;
	int j, at = 0;

	for (j = 0; j < g->nm; j++) {
		int start = at;

		while (at < c && g->mi[g->idx[at]] == j) {
			const struct sw_point *p = &g->pts[g->idx[at]];

			x[at] = by_writers ? (double)p->writers : (double)p->size;
			y[at] = by_writers ? p->agg.mb_per_s : p->agg.avg_us;
			if (y2 != NULL)
				y2[at] = p->agg.avg_us;
			at++;
		}
		s[j].name = g->meth[j];
		s[j].n = at - start;
		s[j].x = x + start;
		s[j].y = y + start;
		if (s2 != NULL) {
			s2[j] = s[j];
			s2[j].y = y2 + start;
		}
	}
}

/* Chart 1: time per transaction against size, at the fewest writers. */
static void
chart_by_size(struct plot *g, const char *what)
{
	int i, c = 0, j, *count, *at;

	/* A counting sort by method keeps each method's points in order. */
	count = (int *)POOL(g, 2);
	at = (int *)POOL(g, 3);
	for (j = 0; j <= g->nm; j++)
		count[j] = 0;
	for (i = 0; i < g->n; i++)
		if (g->pts[i].writers == g->ws[0] && usable(&g->pts[i]))
			count[g->mi[i] + 1]++;
	for (j = 0; j < g->nm; j++)
		count[j + 1] += count[j];
	for (i = 0; i < g->n; i++)
		if (g->pts[i].writers == g->ws[0] && usable(&g->pts[i])) {
			at[count[g->mi[i]]++] = i;
			c++;
		}
	memcpy(g->idx, at, (size_t)c * sizeof(int));
	fill_series(g, g->s1, c, 0, 1, 0, NULL, 0);
	snprintf(g->title, sizeof(g->title), "Average time per transaction, %g writer%s "
	         "(%s)", g->ws[0], g->ws[0] == 1 ? "" : "s", what);
	g->charts[0].title = g->title;
	g->charts[0].xlabel = "transaction size";
	g->charts[0].ylabel = "microseconds per transaction (write + commit)";
	g->charts[0].xlog = 1;
	g->charts[0].ylog = 1;
	g->charts[0].xfmt = DIOT_AXIS_BYTES;
	g->charts[0].nseries = g->nm;
	g->charts[0].series = g->s1;
}

/* The size charts 2 and 3 are drawn at: 48 KiB (the study's size) if
 * measured, else the middle size. */
static double
pick_size(struct plot *g)
{
	double *sizes = POOL(g, 4), pick;
	int i, ns;

	for (i = 0; i < g->n; i++)
		sizes[i] = (double)g->pts[i].size;
	ns = sort_unique(sizes, g->n);
	if (ns == 0)
		return 0;
	pick = sizes[ns / 2];
	for (i = 0; i < ns; i++)
		if (sizes[i] == 48 * 1024)
			pick = sizes[i];
	return pick;
}

/* Charts 2 and 3: throughput and time per transaction against writers. */
static void
charts_by_writers(struct plot *g)
{
	double pick = g->pick = pick_size(g);
	char sz[32];
	int i, c = 0;

	for (i = 0; i < g->n; i++)
		if ((double)g->pts[i].size == pick && usable(&g->pts[i]))
			g->idx[c++] = i;
	sort_pts = g->pts;
	sort_mi = g->mi;
	qsort(g->idx, (size_t)c, sizeof(int), by_series);
	fill_series(g, g->s2, c, 2, 3, 4, g->s3, 1);
	diot_fmt_iec((uint64_t)pick, sz, sizeof(sz));
	snprintf(g->t2, sizeof(g->t2), "Aggregate throughput against writers, %s "
	         "transactions", sz);
	snprintf(g->t3, sizeof(g->t3), "Average time per transaction against writers, %s "
	         "transactions", sz);
	g->charts[1].title = g->t2;
	g->charts[1].xlabel = "concurrent writers";
	g->charts[1].ylabel = "MB/s (all writers)";
	g->charts[1].xlog = 1;
	g->charts[1].ylog = 0;
	g->charts[1].xfmt = DIOT_AXIS_PLAIN;
	g->charts[1].nseries = g->nm;
	g->charts[1].series = g->s2;
	g->charts[2] = g->charts[1];
	g->charts[2].title = g->t3;
	g->charts[2].ylabel = "microseconds per transaction";
	g->charts[2].ylog = 1;
	g->charts[2].series = g->s3;
}

/* A point whose flushes per transaction the disks counted. */
static int
flushes_counted(const struct sw_point *p)
{
	return usable(p) && p->dev.state == SW_DEV_COUNTED && p->dev.flushes_known;
}

/*
 * The flushes' chart (issue 41): cache flushes that reached the disks per
 * transaction, against the number of writers at the size of charts 2 and
 * 3 (with one number of writers, against the size): 1 where each commit
 * sent its own, fewer where the block layer merged several writers'
 * commits, 0 where none reached the disk.  Only where some point was
 * counted; returns 0 if none was (no chart).
 */
static int
chart_flushes(struct plot *g, struct diot_chart *ch)
{
	/* g->pick: pick_size()'s scratch pool is chart 3's by now. */
	double pick = g->pick, *x = POOL(g, 5), *y = POOL(g, 6);
	int i, j, c = 0, at = 0, by_writers = g->nw > 1;
	char sz[32];

	for (i = 0; i < g->n; i++)
		if (flushes_counted(&g->pts[i]) &&
		    (by_writers ? (double)g->pts[i].size == pick
		     : g->pts[i].writers == g->ws[0]))
			g->idx[c++] = i;
	if (c == 0)
		return 0;
	sort_pts = g->pts;
	sort_mi = g->mi;
	qsort(g->idx, (size_t)c, sizeof(int), by_series);
	for (j = 0; j < g->nm; j++) {
		int start = at;

		while (at < c && g->mi[g->idx[at]] == j) {
			const struct sw_point *p = &g->pts[g->idx[at]];

			x[at] = by_writers ? (double)p->writers : (double)p->size;
			y[at] = p->dev.flushes_per_txn > 0 ? p->dev.flushes_per_txn : 0;
			at++;
		}
		g->s4[j].name = g->meth[j];
		g->s4[j].n = at - start;
		g->s4[j].x = x + start;
		g->s4[j].y = y + start;
	}
	if (by_writers) {
		diot_fmt_iec((uint64_t)pick, sz, sizeof(sz));
		snprintf(g->t4, sizeof(g->t4), "Cache flushes per transaction against "
		         "writers, %s transactions (block layer counts)", sz);
	} else {
		snprintf(g->t4, sizeof(g->t4), "Cache flushes per transaction, %g writer%s "
		         "(block layer counts)", g->ws[0], g->ws[0] == 1 ? "" : "s");
	}
	memset(ch, 0, sizeof(*ch));
	ch->title = g->t4;
	ch->xlabel = by_writers ? "concurrent writers" : "transaction size";
	ch->ylabel = "flushes that reached the disks per transaction";
	ch->xlog = 1;
	ch->ylog = 0;
	ch->xfmt = by_writers ? DIOT_AXIS_PLAIN : DIOT_AXIS_BYTES;
	ch->nseries = g->nm;
	ch->series = g->s4;
	return 1;
}

int
sw_plot_fp(FILE *fp, const char *what, const struct sw_point *pts, int n)
{
	struct plot *g = malloc(sizeof(*g));
	int rc, nchart = 1;

	if (g == NULL || plot_init(g, pts, n) != 0) {
		free(g);
		return -1;
	}
	if (n > 0) {
		chart_by_size(g, what);
		if (g->nw > 1) {
			charts_by_writers(g);
			nchart = 3;
		}
		nchart += chart_flushes(g, &g->charts[nchart]);
	} else {
		g->charts[0].title = "no points";
	}
	rc = diot_svg_write(fp, "sync-write results", g->charts, nchart);
	plot_free(g);
	free(g);
	return rc;
}

int
sw_plot(const char *path, const char *what, const struct sw_point *pts, int n)
{
	FILE *fp = fopen(path, "w");
	int rc;

	if (fp == NULL)
		return -1;
	rc = sw_plot_fp(fp, what, pts, n);
	if (fclose(fp) != 0)
		rc = -1;
	return rc;
}
