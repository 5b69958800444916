/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c -- the statistics of a histogram of transaction times over a
 * window: counts, rates, mean, quantiles and CPU time per transaction.
 * point.c makes a point's (per writer and in all) with it, ranks.c a
 * rank's.
 */
#include "config.h"

#include <string.h>

#include "tools/kit/hist.h"
#include "tools/sw/sw.h"

void
sw_stats_from(struct sw_stats *s, const struct diot_hist *h, uint64_t size,
           uint64_t t_start, uint64_t t_end, double cu, double cs)
{
	memset(s, 0, sizeof(*s));
	s->txns = h->count;
	s->bytes = h->count * size;
	s->wall_s = t_end > t_start ? (double)(t_end - t_start) / 1e9 : 0;
	if (h->count) {
		s->avg_us = diot_hist_mean(h) / 1e3;
		s->min_us = (double)h->min_ns / 1e3;
		s->p50_us = diot_hist_quantile(h, 0.50) / 1e3;
		s->p90_us = diot_hist_quantile(h, 0.90) / 1e3;
		s->p99_us = diot_hist_quantile(h, 0.99) / 1e3;
		s->p999_us = diot_hist_quantile(h, 0.999) / 1e3;
		s->max_us = (double)h->max_ns / 1e3;
		s->stddev_us = diot_hist_stddev(h) / 1e3;
		s->cpu_us_per_txn = (cu + cs) / (double)h->count * 1e6;
	}
	if (s->wall_s > 0) {
		s->txn_per_s = (double)s->txns / s->wall_s;
		s->mb_per_s = (double)s->bytes / s->wall_s / 1e6;
	}
	s->cpu_user_s = cu;
	s->cpu_sys_s = cs;
}
