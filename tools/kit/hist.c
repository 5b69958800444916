/* SPDX-License-Identifier: BSD-2-Clause */
/* hist.c -- latency histograms for the tools (see hist.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tools/kit/hist.h"

static int
diot_msb(uint64_t v)
{
	int e = 0;

	while (v >>= 1)
		e++;
	return e;
}

int
diot_hist_index(uint64_t ns)
{
	int e;

	if (ns < 256)
		return (int)ns;
	e = diot_msb(ns);                      /* 8..63 */
	return 256 + (e - 8) * 128 + (int)(ns >> (e - DIOT_HIST_SUB_BITS)) - 128;
}

void
diot_hist_range(int idx, uint64_t *lo, uint64_t *hi)
{
	int e, m;

	if (idx < 256) {
		*lo = *hi = (uint64_t)idx;
		return;
	}
	e = 8 + (idx - 256) / 128;
	m = 128 + (idx - 256) % 128;
	*lo = (uint64_t)m << (e - DIOT_HIST_SUB_BITS);
	*hi = *lo + ((uint64_t)1 << (e - DIOT_HIST_SUB_BITS)) - 1;
}

void
diot_hist_reset(struct diot_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void
diot_hist_add(struct diot_hist *h, uint64_t ns)
{
	h->count++;
	h->sum_ns += ns;
	h->sumsq += (double)ns * (double)ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->bucket[diot_hist_index(ns)]++;
}

void
diot_hist_merge(struct diot_hist *dst, const struct diot_hist *src)
{
	int i;

	if (src->count == 0)
		return;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	dst->sumsq += src->sumsq;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (i = 0; i < DIOT_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

double
diot_hist_mean(const struct diot_hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0;
}

double
diot_hist_stddev(const struct diot_hist *h)
{
	double m, var;

	if (h->count == 0)
		return 0;
	m = diot_hist_mean(h);
	var = h->sumsq / (double)h->count - m * m;
	return var > 0 ? sqrt(var) : 0;
}

double
diot_hist_quantile(const struct diot_hist *h, double q)
{
	uint64_t rank, seen = 0, lo, hi;
	double v;
	int i;

	if (h->count == 0)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < DIOT_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == DIOT_HIST_BUCKETS)
		return (double)h->max_ns;
	diot_hist_range(i, &lo, &hi);
	v = ((double)lo + (double)hi) / 2;
	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	return v;
}
