/* SPDX-License-Identifier: BSD-2-Clause */
/* svg.c -- SVG line charts for the tools (see svg.h). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/kit/fmt.h"
#include "tools/kit/svg.h"

#define W 900.0          /* document width                 */
#define CH 460.0         /* height of one chart            */
#define ML 80.0          /* margins of the plot area       */
#define MR 200.0
#define MT 50.0
#define MB 60.0

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
	"#000000", "#aec7e8",
};

#define YTICKS 6          /* at most this many steps on a linear axis */
#define XTICKS 8

struct axis {
	double lo, hi;  /* in axis units (log values for log axes)  */
	double step;    /* linear axes: the tick step               */
	double scale;   /* linear axes: axis units are value / scale */
	int scale_exp;  /* scale = 10^scale_exp                     */
	int log;
	double base;
};

double
diot_svg_tick_step(double span, int maxticks)
{
	double raw, mag, f;

	if (maxticks < 1)
		maxticks = 1;
	if (!(span > 0) || !isfinite(span))
		return 1;
	raw = span / maxticks;
	mag = pow(10, floor(log10(raw)));
	if (!(mag > 0) || !isfinite(mag))   /* raw beyond what a power of ten holds */
		return 1;
	f = raw / mag;
	/* f is in [1, 10); a little slack for rounding in the division */
	if (f <= 1 + 1e-9)
		return mag;
	if (f <= 2 + 1e-9)
		return 2 * mag;
	if (f <= 5 + 1e-9)
		return 5 * mag;
	return 10 * mag;
}

/* The nice step after step: 1 -> 2 -> 5 -> 10. */
static double
next_step(double step)
{
	double mag = pow(10, floor(log10(step) + 1e-9)), f = step / mag;

	return (f < 1.5 ? 2 : f < 3.5 ? 5 : 10) * mag;
}

/*
 * Linear data far from 1 (beyond 1e290 either way, or nearer 0 than
 * 1e-290) is laid out in units of a power of ten: a nice axis of 1.7e308
 * would end at 2e308, which is infinite, and steps near the smallest
 * doubles lose their digits.  In units of 10^290 (or 10^-290) the same
 * data is between about 1e-34 and 1.8e18, where the arithmetic is exact
 * enough.  Returns the exponent.
 */
static int
axis_scale_exp(double mn, double mx)
{
	double m = fmax(fabs(mn), fabs(mx));

	if (m > 1e290)
		return 290;
	if (m > 0 && m < 1e-290)
		return -290;
	return 0;
}

/*
 * The nice axis of data [mn, mx] (finite, mn <= mx, of moderate size):
 * at most 64 tries, each step larger than the last (by 2 to 2.5 times),
 * so it ends; should rounding defeat every try (a span below the values'
 * precision), the data's own ends in maxticks equal steps.
 */
static void
nice_axis(double mn, double mx, int maxticks, double *lo, double *hi, double *step)
{
	double span = mx - mn, st;
	int tries;

	if (mn > 0 && mn < span)
		mn = 0;
	span = mx - mn;
	if (span <= 0)
		span = fabs(mx) > 0 ? fabs(mx) : 1;
	st = diot_svg_tick_step(span, maxticks);
	for (tries = 0; tries < 64 && st > 0 && isfinite(st); tries++) {
		*lo = floor(mn / st) * st;
		*hi = ceil(mx / st) * st;
		if (*hi <= *lo)
			*hi = *lo + st;
		if (*hi > *lo && (*hi - *lo) / st <= maxticks + 1e-9) {
			*step = st;
			return;
		}
		st = next_step(st);
	}
	*lo = mn;
	*hi = mx > mn ? mx : mn + (fabs(mn) > 0 ? fabs(mn) : 1);
	if (!(*hi > *lo))
		*hi = nextafter(*lo, INFINITY);
	*step = (*hi - *lo) / maxticks;
}

/* The linear axis of data in [mn, mx], in units of 10^*scale_exp. */
static void
scaled_axis(double mn, double mx, int maxticks, double *lo, double *hi, double *step,
            int *scale_exp)
{
	double t, scale;

	if (maxticks < 1)
		maxticks = 1;
	if (!isfinite(mn) || !isfinite(mx)) {
		*lo = 0;
		*hi = 1;
		*step = 1.0 / maxticks;
		*scale_exp = 0;
		return;
	}
	if (mn > mx) {
		t = mn;
		mn = mx;
		mx = t;
	}
	*scale_exp = axis_scale_exp(mn, mx);
	scale = pow(10, *scale_exp);
	nice_axis(mn / scale, mx / scale, maxticks, lo, hi, step);
}

void
diot_svg_axis(double mn, double mx, int maxticks, double *lo, double *hi, double *step)
{
	double scale;
	int e;

	scaled_axis(mn, mx, maxticks, lo, hi, step, &e);
	scale = pow(10, e);
	*lo *= scale;
	*hi *= scale;
	*step *= scale;
	/* Back in real units, the ends may have rounded (near the smallest
	 * doubles) or overflowed (near the largest): held around the data. */
	if (isfinite(mn) && isfinite(mx)) {
		if (*lo > fmin(mn, mx))
			*lo = fmin(mn, mx);
		if (*hi < fmax(mn, mx))
			*hi = fmax(mn, mx);
	}
	if (*lo < -DBL_MAX)
		*lo = -DBL_MAX;
	if (*hi > DBL_MAX)
		*hi = DBL_MAX;
	if (!(*hi > *lo))
		*hi = nextafter(*lo, INFINITY);
	if (!(*step > 0) || !isfinite(*step)) {
		int m = maxticks < 1 ? 1 : maxticks;

		*step = *hi / m - *lo / m;
		if (!(*step > 0))
			*step = *hi - *lo;
		if (!isfinite(*step))
			*step = DBL_MAX;
	}
}

void
diot_svg_log_axis(double mn, double mx, double base, double *lo, double *hi)
{
	if (!(mn > 0) || !isfinite(mn))
		mn = 1;
	if (!(mx > 0) || !isfinite(mx))
		mx = mn;
	if (!(base > 1) || !isfinite(base))
		base = 10;
	*lo = floor(log(mn) / log(base) + 1e-9);
	*hi = ceil(log(mx) / log(base) - 1e-9);
	if (*hi <= *lo)
		*hi = *lo + 1;
}

static double
ax_val(const struct axis *a, double v)
{
	return a->log ? log(v) / log(a->base) : v / a->scale;
}

static void
ax_init(struct axis *a, int logscale, double base, double mn, double mx, int maxticks)
{
	a->log = logscale;
	a->base = base;
	a->step = 1;
	a->scale = 1;
	a->scale_exp = 0;
	if (logscale) {
		diot_svg_log_axis(mn, mx, base, &a->lo, &a->hi);
	} else {
		scaled_axis(mn, mx, maxticks, &a->lo, &a->hi, &a->step, &a->scale_exp);
		a->scale = pow(10, a->scale_exp);
	}
}

/* A number as mantissa and exponent, the exponent raised by e10: the
 * labels of scaled axes (2e+308 is not a double). */
static void
fmt_exp(char *buf, size_t len, double v, int e10)
{
	double m;
	int e;

	if (v == 0 || !isfinite(v)) {
		snprintf(buf, len, "0");
		return;
	}
	e = (int)floor(log10(fabs(v)));
	m = v / pow(10, e);
	if (fabs(m) >= 9.995) {
		m /= 10;
		e++;
	}
	snprintf(buf, len, "%.3ge%+d", m, e + e10);
}

static void
fmt_tick(char *buf, size_t len, double v, int fmt)
{
	if (!isfinite(v))
		snprintf(buf, len, "?");
	else if (fmt == DIOT_AXIS_BYTES && v >= 1 && v < 1.8e19)
		diot_fmt_iec((uint64_t)(v + 0.5), buf, len);
	else if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, len, "%.0e", v);
	else
		snprintf(buf, len, "%g", v);
}

/* The label of a linear axis's tick t (in axis units). */
static void
fmt_linear(char *buf, size_t len, const struct axis *a, double t, int fmt)
{
	if (a->scale_exp != 0 && t != 0)
		fmt_exp(buf, len, t, a->scale_exp);
	else
		fmt_tick(buf, len, t, fmt);
}

/* The ticks of a linear axis: at most 64 (the axis has at most maxticks
 * steps; this bounds a caller's axis too). */
static int
n_ticks(const struct axis *a)
{
	double n = floor((a->hi - a->lo) / a->step + 0.5);

	return n >= 0 && n <= 64 ? (int)n : 0;
}

/* The k-th tick of a linear axis, exactly 0 where it should be. */
static double
tick_at(const struct axis *a, int k)
{
	double t = a->lo + k * a->step;

	return fabs(t) < a->step * 1e-9 ? 0 : t;
}

/* x ticks: every power of two (skipping some when crowded) or nice steps */
static void
x_ticks(FILE *fp, const struct axis *a, int xfmt, double pw, double ph)
{
	char lab[64];
	double t, px;

	if (a->log) {
		int step = (int)ceil((a->hi - a->lo) / 12);

		for (t = a->lo; t <= a->hi + 1e-9; t += step) {
			double v = pow(2, t);

			px = ML + (t - a->lo) / (a->hi - a->lo) * pw;
			if (isfinite(v) && v >= DBL_MIN)
				fmt_tick(lab, sizeof(lab), v, xfmt);
			else
				snprintf(lab, sizeof(lab), "2^%.0f", t);
			fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#dddddd\"/>\n", px, MT, px, MT + ph);
			fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			        "font-size=\"11\">%s</text>\n", px, MT + ph + 16, lab);
		}
	} else {
		int k, n = n_ticks(a);

		for (k = 0; k <= n; k++) {
			t = tick_at(a, k);
			px = ML + (t - a->lo) / (a->hi - a->lo) * pw;
			fmt_linear(lab, sizeof(lab), a, t, xfmt);
			fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#dddddd\"/>\n", px, MT, px, MT + ph);
			fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			        "font-size=\"11\">%s</text>\n", px, MT + ph + 16, lab);
		}
	}
}

/* y ticks: decades with 2 and 5, or nice steps; over more than 12
 * decades, every few decades alone */
static void
y_ticks(FILE *fp, const struct axis *a, double pw, double ph)
{
	char lab[64];
	double t, py;

	if (a->log) {
		int every = (int)ceil((a->hi - a->lo) / 12);

		for (t = a->lo; t <= a->hi + 1e-9; t += every) {
			static const double sub[] = { 1, 2, 5 };
			size_t k;

			for (k = 0; k < (every > 1 ? 1u : 3u); k++) {
				double lv = t + log10(sub[k]), v = pow(10, lv);

				if (lv > a->hi + 1e-9)
					break;
				py = MT + ph - (lv - a->lo) / (a->hi - a->lo) * ph;
				if (isfinite(v) && v >= DBL_MIN)
					fmt_tick(lab, sizeof(lab), v, DIOT_AXIS_PLAIN);
				else if (k == 0)
					snprintf(lab, sizeof(lab), "1e%+.0f", t);
				else
					continue;
				fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				        "stroke=\"%s\"/>\n", ML, py, ML + pw, py,
				        k == 0 ? "#cccccc" : "#eeeeee");
				fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				        "font-size=\"11\">%s</text>\n", ML - 6, py + 4, lab);
			}
		}
	} else {
		int k, n = n_ticks(a);

		for (k = 0; k <= n; k++) {
			t = tick_at(a, k);
			py = MT + ph - (t - a->lo) / (a->hi - a->lo) * ph;
			fmt_linear(lab, sizeof(lab), a, t, DIOT_AXIS_PLAIN);
			fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#dddddd\"/>\n", ML, py, ML + pw, py);
			fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			        "font-size=\"11\">%s</text>\n", ML - 6, py + 4, lab);
		}
	}
}

/* A point a chart draws: finite, and above 0 on a log axis. */
static int
shown(const struct diot_chart *c, double x, double y)
{
	return isfinite(x) && isfinite(y) && !(c->xlog && x <= 0) && !(c->ylog && y <= 0);
}

static void
chart(FILE *fp, const struct diot_chart *c, double y0)
{
	double xmn = DBL_MAX, xmx = -DBL_MAX, ymn = DBL_MAX, ymx = -DBL_MAX;
	double pw = W - ML - MR, ph = CH - MT - MB, py;
	/* Legend lines 20 px apart, closer (to 11 px) when there are many. */
	double step = c->nseries > 0 ? fmax(11.0, fmin(20.0, ph / c->nseries)) : 20.0;
	struct axis ax, ay;
	int i, j, any = 0, first;

	for (i = 0; i < c->nseries; i++)
		for (j = 0; j < c->series[i].n; j++) {
			double x = c->series[i].x[j], y = c->series[i].y[j];

			if (!shown(c, x, y))
				continue;
			any = 1;
			xmn = fmin(xmn, x); xmx = fmax(xmx, x);
			ymn = fmin(ymn, y); ymx = fmax(ymx, y);
		}
	fprintf(fp, "<g transform=\"translate(0,%.1f)\">\n", y0);
	fprintf(fp, "<text x=\"%.1f\" y=\"28\" text-anchor=\"middle\" font-size=\"17\" "
	        "font-weight=\"bold\">", ML + pw / 2);
	diot_xml_text(fp, c->title);
	fputs("</text>\n", fp);
	if (!any) {
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data"
		        "</text>\n</g>\n", ML + pw / 2, MT + ph / 2);
		return;
	}
	ax_init(&ax, c->xlog, 2, xmn, xmx, XTICKS);
	ax_init(&ay, c->ylog, 10, ymn, ymx, YTICKS);
#define PX(v) (ML + (ax_val(&ax, (v)) - ax.lo) / (ax.hi - ax.lo) * pw)
#define PY(v) (MT + ph - (ax_val(&ay, (v)) - ay.lo) / (ay.hi - ay.lo) * ph)
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	        "fill=\"#ffffff\" stroke=\"#333333\"/>\n", ML, MT, pw, ph);

	x_ticks(fp, &ax, c->xfmt, pw, ph);
	y_ticks(fp, &ay, pw, ph);
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">",
	        ML + pw / 2, MT + ph + 40);
	diot_xml_text(fp, c->xlabel);
	fputs("</text>\n", fp);
	fprintf(fp, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" "
	        "transform=\"rotate(-90 18 %.1f)\">", MT + ph / 2, MT + ph / 2);
	diot_xml_text(fp, c->ylabel);
	fputs("</text>\n", fp);

	for (i = 0; i < c->nseries; i++) {
		const struct diot_series *s = &c->series[i];
		const char *col = palette[i % (int)(sizeof(palette) / sizeof(palette[0]))];

		fprintf(fp, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		        "points=\"", col);
		for (j = 0, first = 1; j < s->n; j++) {
			if (!shown(c, s->x[j], s->y[j]))
				continue;
			fprintf(fp, "%s%.1f,%.1f", first ? "" : " ", PX(s->x[j]), PY(s->y[j]));
			first = 0;
		}
		fputs("\"/>\n", fp);
		for (j = 0; j < s->n; j++) {
			if (!shown(c, s->x[j], s->y[j]))
				continue;
			fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
			        PX(s->x[j]), PY(s->y[j]), col);
		}
		py = MT + 10 + i * step;
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"3\"/>\n", ML + pw + 14, py,
		        ML + pw + 38, py, col);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", ML + pw + 44,
		        py + 4);
		diot_xml_text(fp, s->name);
		fputs("</text>\n", fp);
	}
#undef PX
#undef PY
	fputs("</g>\n", fp);
}

/* The document's width: W, wider where a legend name would not fit in the
 * right margin (about 7 px per character at 12 px). */
static double
doc_width(const struct diot_chart *charts, int ncharts)
{
	size_t longest = 0, l;
	int i, k;

	for (i = 0; i < ncharts; i++)
		for (k = 0; k < charts[i].nseries; k++)
			if (charts[i].series[k].name != NULL &&
			    (l = strlen(charts[i].series[k].name)) > longest)
				longest = l;
	return longest > 22 ? W + 7.0 * (double)(longest - 22) : W;
}

int
diot_svg_write(FILE *fp, const char *title, const struct diot_chart *charts,
               int ncharts)
{
	double w = doc_width(charts, ncharts);
	int i;

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, "
	        "sans-serif\">\n<title>", w, CH * ncharts, w, CH * ncharts);
	diot_xml_text(fp, title);
	fputs("</title>\n", fp);
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n");
	for (i = 0; i < ncharts; i++)
		chart(fp, &charts[i], CH * i);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -1 : 0;
}
