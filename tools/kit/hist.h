/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hist.h -- latency recording for the tools: exact count, sum, sum of
 * squares, min and max, plus a log-linear histogram (exact below 256 ns,
 * then 128 buckets per power of two, so percentiles are within 0.4%) in
 * fixed memory that can live in shared memory and be merged.
 */
#ifndef DIOT_HIST_H
#define DIOT_HIST_H

#include <stdint.h>

#define DIOT_HIST_SUB_BITS 7
#define DIOT_HIST_BUCKETS (256 + (64 - 8) * 128)

struct diot_hist {
	uint64_t count;
	uint64_t sum_ns;
	double sumsq;        /* sum of squares, ns^2 */
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t bucket[DIOT_HIST_BUCKETS];
};

void diot_hist_reset(struct diot_hist *h);
void diot_hist_add(struct diot_hist *h, uint64_t ns);
void diot_hist_merge(struct diot_hist *dst, const struct diot_hist *src);
/* Mean and standard deviation (population) in ns; 0 for an empty one. */
double diot_hist_mean(const struct diot_hist *h);
double diot_hist_stddev(const struct diot_hist *h);
/* The q-quantile (0 < q <= 1) in ns, e.g. 0.99; 0 for an empty one. */
double diot_hist_quantile(const struct diot_hist *h, double q);

/* Index of the bucket holding ns, and the [lo, hi] range of a bucket. */
int diot_hist_index(uint64_t ns);
void diot_hist_range(int idx, uint64_t *lo, uint64_t *hi);

#endif
