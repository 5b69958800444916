/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * svg.h -- small, dependency-free SVG line charts for the tools' --plot:
 * several series per chart, linear or logarithmic axes, legend, and
 * several charts stacked in one document.
 */
#ifndef DIOT_SVG_H
#define DIOT_SVG_H

#include <stdio.h>

enum diot_axis_fmt {
	DIOT_AXIS_PLAIN = 0,  /* numbers as they are          */
	DIOT_AXIS_BYTES = 1   /* sizes: 512 B, 4 KiB, 1 MiB   */
};

struct diot_series {
	const char *name;
	int n;                /* points                       */
	const double *x;
	const double *y;      /* a y <= 0 on a log axis is skipped */
};

struct diot_chart {
	const char *title;
	const char *xlabel;
	const char *ylabel;
	int xlog, ylog;       /* logarithmic axes (x base 2, y base 10) */
	int xfmt;             /* diot_axis_fmt of x tick labels */
	int nseries;
	const struct diot_series *series;
};

/*
 * Axes.  A linear axis has ticks every step, a "nice" step: 1, 2 or 5
 * times a power of ten.  diot_svg_tick_step() is the smallest such step
 * that covers span in at most maxticks steps (1 for a span <= 0, NaN or
 * infinite; maxticks below 1 counts as 1).  diot_svg_axis() chooses the
 * axis for data in [mn, mx]: *lo and *hi are multiples of *step with
 * *lo <= mn, *hi >= mx, *hi > *lo and at most maxticks steps between
 * them; data that starts above 0 but closer to 0 than its own span gets
 * an axis from 0.  diot_svg_log_axis() gives a logarithmic axis (base b,
 * mn > 0) as whole exponents: *lo = floor(log_b mn), *hi = ceil(log_b mx),
 * *hi > *lo.  The charts use these.
 *
 * Any data ends and stays small: the axes take at most 64 tries and the
 * charts draw at most 65 ticks on a linear axis and 13 labelled decades
 * on a logarithmic one; values that are NaN or infinite are not drawn.
 * Linear data beyond 1e290 (or nearer 0 than 1e-290) is laid out in
 * units of 10^290 (10^-290), its ticks labelled "2e+308"; diot_svg_axis()
 * then gives the axis in real units, its ends held to +-DBL_MAX.  The
 * axis of NaN or infinite ends is [0, 1].
 */
double diot_svg_tick_step(double span, int maxticks);
void diot_svg_axis(double mn, double mx, int maxticks, double *lo, double *hi,
                   double *step);
void diot_svg_log_axis(double mn, double mx, double base, double *lo, double *hi);

/* Write an SVG document with the charts stacked top to bottom, each 460
 * px high; 900 px wide, wider (about 7 px a character) where a series
 * name is longer than the 22 characters the legend's margin holds.
 * Returns 0 or -1 if fp reported an error. */
int diot_svg_write(FILE *fp, const char *title, const struct diot_chart *charts,
                   int ncharts);

#endif
