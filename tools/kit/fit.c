/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit.c -- the tools' least-squares fit; see fit.h.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "tools/kit/fit.h"

int
diot_fit2(const double *x1, const double *x2, const double *y, size_t n,
          double *a, double *b, double *r2)
{
	double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0, det;
	double mean = 0, ss_tot = 0, ss_res = 0, e;
	size_t i;

	if (n < 2)
		return -EDOM;
	for (i = 0; i < n; i++) {
		s11 += x1[i] * x1[i];
		s12 += x1[i] * x2[i];
		s22 += x2[i] * x2[i];
		s1y += x1[i] * y[i];
		s2y += x2[i] * y[i];
		mean += y[i];
	}
	det = s11 * s22 - s12 * s12;
	/* Collinear (or nearly so, relative to the scale of the data). */
	if (!(fabs(det) > 1e-12 * s11 * s22))
		return -EDOM;
	*a = (s1y * s22 - s2y * s12) / det;
	*b = (s2y * s11 - s1y * s12) / det;
	mean /= (double)n;
	for (i = 0; i < n; i++) {
		e = y[i] - (*a * x1[i] + *b * x2[i]);
		ss_res += e * e;
		ss_tot += (y[i] - mean) * (y[i] - mean);
	}
	*r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res == 0 ? 1.0 : 0.0);
	return 0;
}
