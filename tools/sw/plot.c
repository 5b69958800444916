/*
 * plot.c -- sync-write's --plot: an SVG of the time per transaction
 * against the size, one line per method, and of throughput and latency
 * against the number of writers (tools/kit/svg.h).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/svg.h"
#include "tools/kit/util.h"
#include "tools/sw/sw.h"

/* Distinct values of an array of doubles, sorted. */
static int
add_unique(double *v, int n, double x)
{
	int i, j;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return n;
	for (i = 0; i < n && v[i] < x; i++)
		;
	for (j = n; j > i; j--)
		v[j] = v[j - 1];
	v[i] = x;
	return n + 1;
}

/* The series of the charts; all series together have at most n points per
 * chart: five pools of n values (x, y for chart 1; x, y, y for charts 2
 * and 3) in one allocation, handed out series by series. */
struct plot {
	const struct sw_point *pts;
	int n, nm, nw;
	const char **meth;        /* the methods, in order of appearance   */
	double *ws;               /* the numbers of writers, sorted        */
	struct diot_series *s1, *s2, *s3;
	double *pool;
	struct diot_chart charts[3];
	char title[200], t2[200], t3[200];
};

#define POOL(g, k) ((g)->pool + (size_t)(k) * ((size_t)(g)->n + 1))

static void
plot_free(struct plot *g)
{
	free(g->pool);
	free(g->meth);
	free(g->ws);
	free(g->s1);
	free(g->s2);
	free(g->s3);
}

static int
plot_init(struct plot *g, const struct sw_point *pts, int n)
{
	int i, j;

	memset(g, 0, sizeof(*g));
	g->pts = pts;
	g->n = n;
	g->meth = calloc((size_t)n + 1, sizeof(*g->meth));
	g->ws = calloc((size_t)n + 1, sizeof(*g->ws));
	g->s1 = calloc((size_t)n + 1, sizeof(*g->s1));
	g->s2 = calloc((size_t)n + 1, sizeof(*g->s2));
	g->s3 = calloc((size_t)n + 1, sizeof(*g->s3));
	g->pool = calloc(5 * ((size_t)n + 1), sizeof(double));
	if (!g->meth || !g->ws || !g->s1 || !g->s2 || !g->s3 || !g->pool) {
		plot_free(g);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < g->nm && strcmp(g->meth[j], pts[i].method) != 0; j++)
			;
		if (j == g->nm)
			g->meth[g->nm++] = pts[i].method;
		g->nw = add_unique(g->ws, g->nw, pts[i].writers);
	}
	return 0;
}

/* Chart 1: time per transaction against size, at the fewest writers. */
static void
chart_by_size(struct plot *g, const char *what)
{
	const struct sw_point *pts = g->pts;
	size_t used = 0;
	int i, j;

	for (j = 0; j < g->nm; j++) {
		double *x = POOL(g, 0) + used, *y = POOL(g, 1) + used;
		int c = 0;

		for (i = 0; i < g->n; i++)
			if (strcmp(pts[i].method, g->meth[j]) == 0 && pts[i].writers == g->ws[0] &&
			    pts[i].status != 1 && pts[i].agg.txns) {
				x[c] = (double)pts[i].size;
				y[c++] = pts[i].agg.avg_us;
			}
		g->s1[j].name = g->meth[j];
		g->s1[j].n = c;
		g->s1[j].x = x;
		g->s1[j].y = y;
		used += (size_t)c;
	}
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
pick_size(const struct sw_point *pts, int n)
{
	double sizes[4096], pick;
	int i, ns = 0;

	for (i = 0; i < n && ns < 4096; i++)
		ns = add_unique(sizes, ns, (double)pts[i].size);
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
	const struct sw_point *pts = g->pts;
	double pick = pick_size(pts, g->n);
	size_t used = 0;
	char sz[32];
	int i, j, k;

	for (j = 0; j < g->nm; j++) {
		double *x = POOL(g, 2) + used, *y2 = POOL(g, 3) + used, *y3 = POOL(g, 4) + used;
		int c = 0;

		for (k = 0; k < g->nw; k++)
			for (i = 0; i < g->n; i++)
				if (strcmp(pts[i].method, g->meth[j]) == 0 &&
				    pts[i].writers == g->ws[k] && pts[i].size == pick &&
				    pts[i].status != 1 && pts[i].agg.txns) {
					x[c] = g->ws[k];
					y2[c] = pts[i].agg.mb_per_s;
					y3[c++] = pts[i].agg.avg_us;
				}
		g->s2[j].name = g->s3[j].name = g->meth[j];
		g->s2[j].n = g->s3[j].n = c;
		g->s2[j].x = g->s3[j].x = x;
		g->s2[j].y = y2;
		g->s3[j].y = y3;
		used += (size_t)c;
	}
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

int
sw_plot(const char *path, const char *what, const struct sw_point *pts, int n)
{
	struct plot *g = malloc(sizeof(*g));
	int rc = -1, nchart = 1;
	FILE *fp;

	if (g == NULL || plot_init(g, pts, n) != 0) {
		free(g);
		return -1;
	}
	chart_by_size(g, what);
	if (g->nw > 1) {
		charts_by_writers(g);
		nchart = 3;
	}
	fp = fopen(path, "w");
	if (fp != NULL) {
		rc = diot_svg_write(fp, "sync-write results", g->charts, nchart);
		if (fclose(fp) != 0)
			rc = -1;
	}
	plot_free(g);
	free(g);
	return rc;
}
