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

/* Write an SVG document with the charts stacked top to bottom.  Returns 0
 * or -1 if fp reported an error. */
int diot_svg_write(FILE *fp, const char *title, const struct diot_chart *charts,
                   int ncharts);

#endif
