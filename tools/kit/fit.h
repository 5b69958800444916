/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit.h -- the tools' statistics (tools/kit/fit.c): a least-squares fit
 * of two terms.
 */
#ifndef DIOT_FIT_H
#define DIOT_FIT_H

#include <stddef.h>

/*
 * Least squares without intercept: y ~ a * x1 + b * x2 over n points.
 * *r2 gets the coefficient of determination 1 - SS_res / SS_tot (1 when
 * the points are all equal and fit exactly).  Returns 0, or -EDOM when
 * there are fewer than 2 points or x1, x2 are collinear.
 */
int diot_fit2(const double *x1, const double *x2, const double *y, size_t n,
              double *a, double *b, double *r2);

#endif /* DIOT_FIT_H */
