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

/* ------------------------------------------------------------ plot */

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

#define POOL(k) (pool + (size_t)(k) * ((size_t)n + 1))

int
sw_plot(const char *path, const struct sw_run *r, const struct sw_point *pts, int n)
{
	struct diot_chart charts[3];
	struct diot_series *s1, *s2, *s3;
	double *ws, *pool, pick;
	size_t used1 = 0, used2 = 0;
	char title[200], t2[200], t3[200], sz[32];
	int nm = 0, nw = 0, i, j, k, nchart = 1, rc;
	const char **meth;
	FILE *fp;

	meth = calloc((size_t)n + 1, sizeof(*meth));
	ws = calloc((size_t)n + 1, sizeof(*ws));
	s1 = calloc((size_t)n + 1, sizeof(*s1));
	s2 = calloc((size_t)n + 1, sizeof(*s2));
	s3 = calloc((size_t)n + 1, sizeof(*s3));
	/* All series together have at most n points per chart: five pools of
	 * n values (x, y for chart 1; x, y, y for charts 2 and 3) in one
	 * allocation, handed out series by series. */
	pool = calloc(5 * ((size_t)n + 1), sizeof(double));
	if (!meth || !ws || !s1 || !s2 || !s3 || !pool) {
		free(meth);
		free(ws);
		free(s1);
		free(s2);
		free(s3);
		free(pool);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < nm && strcmp(meth[j], pts[i].method) != 0; j++)
			;
		if (j == nm)
			meth[nm++] = pts[i].method;
		nw = add_unique(ws, nw, pts[i].writers);
	}
	/* Chart 1: time per transaction against size, at the fewest writers. */
	for (j = 0; j < nm; j++) {
		double *x = POOL(0) + used1, *y = POOL(1) + used1;
		int c = 0;

		for (i = 0; i < n; i++)
			if (strcmp(pts[i].method, meth[j]) == 0 && pts[i].writers == ws[0] &&
			    pts[i].status != 1 && pts[i].agg.txns) {
				x[c] = (double)pts[i].size;
				y[c++] = pts[i].agg.avg_us;
			}
		s1[j].name = meth[j];
		s1[j].n = c;
		s1[j].x = x;
		s1[j].y = y;
		used1 += (size_t)c;
	}
	snprintf(title, sizeof(title), "Average time per transaction, %g writer%s "
	         "(%s)", ws[0], ws[0] == 1 ? "" : "s", r->fstype);
	charts[0].title = title;
	charts[0].xlabel = "transaction size";
	charts[0].ylabel = "microseconds per transaction (write + commit)";
	charts[0].xlog = 1;
	charts[0].ylog = 1;
	charts[0].xfmt = DIOT_AXIS_BYTES;
	charts[0].nseries = nm;
	charts[0].series = s1;

	/* Charts 2 and 3: against writers, at 48 KiB (the study's size) if
	 * measured, else the middle size. */
	if (nw > 1) {
		double sizes[4096];
		int ns = 0;

		for (i = 0; i < n && ns < 4096; i++)
			ns = add_unique(sizes, ns, (double)pts[i].size);
		pick = sizes[ns / 2];
		for (i = 0; i < ns; i++)
			if (sizes[i] == 48 * 1024)
				pick = sizes[i];
		for (j = 0; j < nm; j++) {
			double *x = POOL(2) + used2, *y2 = POOL(3) + used2, *y3 = POOL(4) + used2;
			int c = 0;

			for (k = 0; k < nw; k++)
				for (i = 0; i < n; i++)
					if (strcmp(pts[i].method, meth[j]) == 0 &&
					    pts[i].writers == ws[k] && pts[i].size == pick &&
					    pts[i].status != 1 && pts[i].agg.txns) {
						x[c] = ws[k];
						y2[c] = pts[i].agg.mb_per_s;
						y3[c++] = pts[i].agg.avg_us;
					}
			s2[j].name = s3[j].name = meth[j];
			s2[j].n = s3[j].n = c;
			s2[j].x = s3[j].x = x;
			s2[j].y = y2;
			s3[j].y = y3;
			used2 += (size_t)c;
		}
		diot_fmt_iec((uint64_t)pick, sz, sizeof(sz));
		snprintf(t2, sizeof(t2), "Aggregate throughput against writers, %s "
		         "transactions", sz);
		snprintf(t3, sizeof(t3), "Average time per transaction against writers, %s "
		         "transactions", sz);
		charts[1].title = t2;
		charts[1].xlabel = "concurrent writers";
		charts[1].ylabel = "MB/s (all writers)";
		charts[1].xlog = 1;
		charts[1].ylog = 0;
		charts[1].xfmt = DIOT_AXIS_PLAIN;
		charts[1].nseries = nm;
		charts[1].series = s2;
		charts[2] = charts[1];
		charts[2].title = t3;
		charts[2].ylabel = "microseconds per transaction";
		charts[2].ylog = 1;
		charts[2].series = s3;
		nchart = 3;
	}
	fp = fopen(path, "w");
	rc = -1;
	if (fp != NULL) {
		rc = diot_svg_write(fp, "sync-write results", charts, nchart);
		if (fclose(fp) != 0)
			rc = -1;
	}
	free(pool);
	free(meth);
	free(ws);
	free(s1);
	free(s2);
	free(s3);
	return rc;
}
