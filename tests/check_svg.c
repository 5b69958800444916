/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_svg.c -- the tools' SVG charts (tools/kit/svg.c): nice tick steps
 * (1, 2 or 5 x 10^n) that cover the range, linear and logarithmic axes,
 * and a written document that is well-formed XML (tags balanced here;
 * parsed by python3's xml.etree too when python3 is there).
 */
#include "config.h"
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/kit/svg.h"
#include "tests/testutil.h"

/* step is 1, 2 or 5 x 10^n */
static int
is_nice(double step)
{
	double mag = pow(10, floor(log10(step) + 1e-9)), f = step / mag;

	return fabs(f - 1) < 1e-9 || fabs(f - 2) < 1e-9 || fabs(f - 5) < 1e-9;
}

/* The nice step just below step. */
static double
prev_nice(double step)
{
	double mag = pow(10, floor(log10(step) + 1e-9)), f = step / mag;

	return f < 1.5 ? 0.5 * mag : f < 3.5 ? mag : 2 * mag;
}

static const double spans[] = {
	1e-7, 3.3e-6, 0.001, 0.0042, 0.07, 0.5, 0.99, 1, 1.01, 2.5, 3, 7, 9.99, 10,
	11, 12, 19, 42, 99, 100, 101, 333, 999, 1234, 5000, 6001, 65536, 1e6, 3e9,
	7.7e12
};

START_TEST(test_tick_step)
{
	size_t i;
	int maxticks;

	for (maxticks = 1; maxticks <= 12; maxticks++)
		for (i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
			double span = spans[i], st = diot_svg_tick_step(span, maxticks);

			ck_assert_msg(is_nice(st), "span %g/%d: step %g", span, maxticks, st);
			ck_assert_msg(st * maxticks >= span * (1 - 1e-9),
			              "span %g/%d: step %g does not cover", span, maxticks, st);
			ck_assert_msg(prev_nice(st) * maxticks < span * (1 + 1e-9),
			              "span %g/%d: step %g is not the smallest", span,
			              maxticks, st);
		}
	ck_assert_double_eq(diot_svg_tick_step(0, 5), 1);
	ck_assert_double_eq(diot_svg_tick_step(-3, 5), 1);
	ck_assert_double_eq(diot_svg_tick_step(NAN, 5), 1);
	ck_assert_double_eq(diot_svg_tick_step(INFINITY, 5), 1);
	ck_assert_double_eq(diot_svg_tick_step(10, 0), 10);
	ck_assert_double_eq(diot_svg_tick_step(10, 5), 2);
	ck_assert_double_eq(diot_svg_tick_step(0.3, 6), 0.05);
}
END_TEST

START_TEST(test_linear_axis)
{
	static const double data[][2] = {
		{ 0, 1 }, { 0.12, 0.97 }, { 3, 17 }, { 0.5, 0.51 }, { 100, 101 },
		{ -5, 5 }, { -17, -3 }, { 7, 7 }, { 0, 0 }, { 1e-6, 3e-6 },
		{ 12345, 98765 }, { 0.001, 250 }, { -0.2, 1e5 }
	};
	double lo, hi, st;
	size_t i;
	int maxticks;

	for (maxticks = 2; maxticks <= 10; maxticks++)
		for (i = 0; i < sizeof(data) / sizeof(data[0]); i++) {
			double mn = data[i][0], mx = data[i][1], n;

			diot_svg_axis(mn, mx, maxticks, &lo, &hi, &st);
			n = (hi - lo) / st;
			ck_assert_msg(is_nice(st), "[%g, %g]: step %g", mn, mx, st);
			ck_assert_msg(lo <= mn && hi >= mx && hi > lo,
			              "[%g, %g]: axis [%g, %g]", mn, mx, lo, hi);
			ck_assert_msg(n <= maxticks + 1e-9 && fabs(n - floor(n + 0.5)) < 1e-6,
			              "[%g, %g]/%d: %g steps of %g", mn, mx, maxticks, n, st);
			ck_assert_msg(fabs(lo / st - floor(lo / st + 0.5)) < 1e-6,
			              "[%g, %g]: lo %g not a multiple of %g", mn, mx, lo, st);
		}
	/* data close to 0 gets an axis from 0; far from it does not */
	diot_svg_axis(0.12, 0.97, 6, &lo, &hi, &st);
	ck_assert_double_eq(lo, 0);
	ck_assert_double_eq_tol(hi, 1, 1e-12);
	ck_assert_double_eq_tol(st, 0.2, 1e-12);
	diot_svg_axis(100, 101, 6, &lo, &hi, &st);
	ck_assert_double_eq_tol(lo, 100, 1e-9);
	ck_assert_double_eq_tol(hi, 101, 1e-9);
	ck_assert_double_eq_tol(st, 0.2, 1e-12);
}
END_TEST

START_TEST(test_log_axis)
{
	double lo, hi;

	diot_svg_log_axis(4096, 524288, 2, &lo, &hi);
	ck_assert_double_eq(lo, 12);
	ck_assert_double_eq(hi, 19);
	diot_svg_log_axis(5000, 600000, 2, &lo, &hi);
	ck_assert_double_eq(lo, 12);
	ck_assert_double_eq(hi, 20);
	diot_svg_log_axis(0.02, 3, 10, &lo, &hi);
	ck_assert_double_eq(lo, -2);
	ck_assert_double_eq(hi, 1);
	diot_svg_log_axis(1000, 1000, 10, &lo, &hi);
	ck_assert_double_eq(lo, 3);
	ck_assert_double_eq(hi, 4);
	diot_svg_log_axis(1, 1e6, 10, &lo, &hi);
	ck_assert_double_eq(lo, 0);
	ck_assert_double_eq(hi, 6);
}
END_TEST

/*
 * Tags balanced, attributes quoted, no bare '<' or '&' in text: enough
 * to catch what a writer gets wrong.  0 when well-formed.
 */
static int
xml_balanced(const char *s, char *why, size_t len)
{
	char stack[32][32];
	int depth = 0, roots = 0;
	const char *p = s, *q;

	while ((p = strpbrk(p, "<&")) != NULL) {
		if (*p == '&') {
			if (strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) &&
			    strncmp(p, "&gt;", 4) && strncmp(p, "&quot;", 6) &&
			    strncmp(p, "&apos;", 6)) {
				snprintf(why, len, "bare & at %.20s", p);
				return -1;
			}
			p++;
			continue;
		}
		q = strchr(p, '>');
		if (q == NULL) {
			snprintf(why, len, "unclosed tag at %.20s", p);
			return -1;
		}
		if (p[1] == '?') {
			p = q + 1;
			continue;
		}
		if (p[1] == '/') {
			size_t n = strcspn(p + 2, " >");

			if (depth == 0 || strlen(stack[depth - 1]) != n ||
			    strncmp(stack[depth - 1], p + 2, n) != 0) {
				snprintf(why, len, "unbalanced %.20s", p);
				return -1;
			}
			depth--;
		} else if (q[-1] != '/') {
			size_t n = strcspn(p + 1, " >");

			if (depth == 32 || n >= 32) {
				snprintf(why, len, "too deep at %.20s", p);
				return -1;
			}
			if (depth == 0)
				roots++;
			memcpy(stack[depth], p + 1, n);
			stack[depth++][n] = '\0';
		} else if (depth == 0) {
			roots++;
		}
		p = q + 1;
	}
	if (depth != 0 || roots != 1) {
		snprintf(why, len, "depth %d at the end, %d root elements", depth, roots);
		return -1;
	}
	return 0;
}

START_TEST(test_document)
{
	static const double x[] = { 4096, 8192, 16384, 524288 };
	static const double y1[] = { 0.5, 0.25, 0.125, 0.01 };
	static const double y2[] = { 1.5, NAN, 0.5, 0.2 };
	static const double y3[] = { 0, -1, 3, 4 };
	struct diot_series s[3] = {
		{ "indirect <&> \"x\"", 4, x, y1 },
		{ "direct", 4, x, y2 },
		{ "none", 0, x, y1 },
	};
	struct diot_series s3 = { "neg & zero", 4, x, y3 };
	struct diot_chart c[3];
	char path[512], why[128], cmd[1200];
	size_t n;
	char *doc;
	FILE *fp;

	memset(c, 0, sizeof(c));
	c[0].title = "READ BUFFER on /dev/sg<1>: 1 MiB & more";
	c[0].xlabel = "size";
	c[0].ylabel = "time (s)";
	c[0].xlog = 1;
	c[0].xfmt = DIOT_AXIS_BYTES;
	c[0].nseries = 3;
	c[0].series = s;
	c[1] = c[0];
	c[1].ylog = 1;
	c[1].xlog = 0;
	c[2] = c[1];
	c[2].nseries = 1;
	c[2].series = &s3;
	tu_path(path, sizeof(path), tu_dir(), "svg");
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(diot_svg_write(fp, "a <title> & \"quotes\"", c, 3), 0);
	ck_assert_int_eq(fclose(fp), 0);
	doc = tu_slurp(path, &n);
	ck_assert_ptr_nonnull(doc);
	ck_assert_msg(xml_balanced(doc, why, sizeof(why)) == 0, "%s", why);
	ck_assert_ptr_nonnull(strstr(doc, "&lt;&amp;&gt;"));
	ck_assert_ptr_null(strstr(doc, "nan"));
	ck_assert_ptr_null(strstr(doc, "inf"));
	free(doc);
	if (system("python3 -c 'pass' >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "python3 -c 'import sys, xml.etree.ElementTree "
		         "as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if "
		         "r.tag.endswith(\"svg\") else 1)' '%s'", path);
		ck_assert_msg(system(cmd) == 0, "python3 xml.etree rejects %s", path);
	}
	unlink(path);
}
END_TEST

/* Any data ends, and gives a small document of finite numbers: the
 * largest and smallest doubles, both signs, equal values, one point,
 * spans below the values' precision, infinities and NaN (not drawn).
 * (Before: 1.7e308 spun in the axis code; infinity wrote "-nan" without
 * end.)  Check's timeout catches a hang. */
START_TEST(test_extremes)
{
	static const double sets[][4] = {
		{ 1.7e308, 1.7e308, 1.7e308, 1.7e308 },
		{ -1.7e308, 1.7e308, 0, 1 },
		{ DBL_MAX, -DBL_MAX, DBL_MAX, -DBL_MAX },
		{ 5e-324, 5e-324, 5e-324, 5e-324 },
		{ 0, 5e-324, 1e-320, 2.2e-308 },
		{ 1e-300, 1e300, 1, 1e-300 },
		{ 1, 1 + 2.3e-16, 1, 1 },
		{ 1e18, 1e18 + 256, 1e18, 1e18 },
		{ 1e300, 1e300 * (1 + 2.3e-16), 1e300, 1e300 },
		{ INFINITY, 1, -INFINITY, NAN },
		{ NAN, NAN, NAN, NAN },
		{ 0, 0, 0, 0 },
		{ -3, -3, -3, -3 },
		{ -1e-310, 1e-310, 0, 0 },
	};
	size_t i, k, n;
	int xlog, ylog, maxticks;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		for (n = 1; n <= 4; n++)
			for (xlog = 0; xlog <= 1; xlog++)
				for (ylog = 0; ylog <= 1; ylog++) {
					struct diot_series s = { "s", (int)n, sets[i], sets[i] };
					struct diot_series s2 = { "t", (int)n, sets[(i + 1) %
					                          (sizeof(sets) / sizeof(sets[0]))],
					                          sets[i] };
					struct diot_series both[2];
					struct diot_chart c;
					char *doc = NULL, why[128];
					size_t len = 0;
					FILE *fp = open_memstream(&doc, &len);

					both[0] = s;
					both[1] = s2;
					memset(&c, 0, sizeof(c));
					c.title = c.xlabel = c.ylabel = "t";
					c.xlog = xlog;
					c.ylog = ylog;
					c.xfmt = xlog ? DIOT_AXIS_BYTES : DIOT_AXIS_PLAIN;
					c.nseries = 2;
					c.series = both;
					ck_assert_ptr_nonnull(fp);
					ck_assert_int_eq(diot_svg_write(fp, "x", &c, 1), 0);
					ck_assert_int_eq(fclose(fp), 0);
					ck_assert_msg(len < 16384, "set %zu/%zu (log %d %d): %zu bytes",
					              i, n, xlog, ylog, len);
					ck_assert_msg(strstr(doc, "nan") == NULL && strstr(doc, "inf") ==
					              NULL, "set %zu/%zu (log %d %d): %s", i, n, xlog,
					              ylog, doc);
					ck_assert_msg(xml_balanced(doc, why, sizeof(why)) == 0, "%s", why);
					free(doc);
				}
		/* The axis alone: finite, in order, around the finite data. */
		for (maxticks = 1; maxticks <= 8; maxticks++) {
			double mn = INFINITY, mx = -INFINITY, lo, hi, st, tiny = nextafter(0, 1);

			for (k = 0; k < 4; k++)
				if (isfinite(sets[i][k])) {
					mn = fmin(mn, sets[i][k]);
					mx = fmax(mx, sets[i][k]);
				}
			diot_svg_axis(mn, mx, maxticks, &lo, &hi, &st);
			ck_assert_msg(isfinite(lo) && isfinite(hi) && isfinite(st) && hi > lo &&
			              st > 0, "set %zu: [%g, %g] step %g", i, lo, hi, st);
			if (isfinite(mn))
				ck_assert_msg(lo <= mn && hi >= mx, "set %zu: [%g, %g] for [%g, %g]",
				              i, lo, hi, mn, mx);
			if (isfinite(mn))
				diot_svg_log_axis(fmax(mn, tiny), fmax(mx, tiny), 10, &lo, &hi);
			else
				diot_svg_log_axis(mn, mx, 10, &lo, &hi);
			ck_assert(isfinite(lo) && isfinite(hi) && hi > lo && hi - lo < 700);
		}
	}
}
END_TEST

/* A legend name longer than the right margin holds widens the document
 * (by about 7 px a character); short names keep it 900 px wide. */
START_TEST(test_width)
{
	static const double x[] = { 1, 2 }, y[] = { 1, 2 };
	struct diot_series s = { "short", 2, x, y };
	struct diot_chart c;
	char *doc = NULL;
	size_t n = 0;
	FILE *fp;

	memset(&c, 0, sizeof(c));
	c.title = c.xlabel = c.ylabel = "t";
	c.nseries = 1;
	c.series = &s;
	fp = open_memstream(&doc, &n);
	ck_assert_int_eq(diot_svg_write(fp, "w", &c, 1), 0);
	fclose(fp);
	ck_assert_msg(strstr(doc, "width=\"900\" height=\"460\"") != NULL, "%.300s", doc);
	free(doc);
	s.name = "ext4 on vda @host-one: direct+fdatasync";    /* 39 characters */
	fp = open_memstream(&doc, &n);
	ck_assert_int_eq(diot_svg_write(fp, "w", &c, 1), 0);
	fclose(fp);
	ck_assert_msg(strstr(doc, "width=\"1019\" height=\"460\"") != NULL, "%.300s", doc);
	free(doc);
}
END_TEST

static Suite *
svg_suite(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("svg");

	/* test_document runs python3: slow on a loaded machine. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tick_step);
	tcase_add_test(tc, test_linear_axis);
	tcase_add_test(tc, test_log_axis);
	tcase_add_test(tc, test_document);
	tcase_add_test(tc, test_width);
	tcase_add_test(tc, test_extremes);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(svg_suite()));
}
