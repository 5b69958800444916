/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_hist.c -- the tools' latency histograms (tools/kit/hist.c):
 * bucket index and range agree and tile the whole uint64_t range in
 * order, exact below 256 ns, quantiles within 0.4% of the exact ones of
 * the same samples, merging equals adding every sample to one histogram,
 * mean and standard deviation against values computed from the samples,
 * and an empty histogram.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kit/hist.h"
#include "tests/testutil.h"

/* ------------------------------------------------------------ helpers */

/*
 * Check's ck_assert* record their place at every call (a write to the
 * runner's pipe): in the loops below, over a million values, that was
 * 1.5 million system calls and most of the test's time.  These test the
 * condition first and fail the same way, with the same message.
 */
#define CHECK(c) \
	do { if (!(c)) ck_abort_msg("Assertion '%s' failed", #c); } while (0)
#define CHECK_MSG(c, ...) \
	do { if (!(c)) ck_abort_msg(__VA_ARGS__); } while (0)
#define CHECK_INT_EQ(a, b) \
	do { long long a_ = (a), b_ = (b); if (a_ != b_) \
		ck_abort_msg("Assertion '%s == %s' failed: %s == %lld, %s == %lld", \
		             #a, #b, #a, a_, #b, b_); } while (0)

/* xorshift64*: the same samples on every run and platform. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* Uniform in [0, 1). */
static double
rnd01(uint64_t *s)
{
	return (double)(rnd(s) >> 11) / 9007199254740992.0;
}

/* Log-uniform in [lo, hi] ns: every bucket width gets its share. */
static uint64_t
rnd_log(uint64_t *s, double lo, double hi)
{
	return (uint64_t)exp(log(lo) + rnd01(s) * (log(hi) - log(lo)));
}

static struct diot_hist *
hist_new(void)
{
	struct diot_hist *h = malloc(sizeof(*h));

	ck_assert_ptr_nonnull(h);
	diot_hist_reset(h);
	return h;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact q-quantile of sorted v[0..n), by hist.c's rank rule:
 * the ceil(q * n)-th smallest (at least the first). */
static double
exact_quantile(const uint64_t *v, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);

	if (rank < 1)
		rank = 1;
	return (double)v[rank - 1];
}

static const double quantiles[] = {
	0.0001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1.0
};
#define NQ (sizeof(quantiles) / sizeof(quantiles[0]))

/* Histogram quantiles of v[0..n) (sorted here) against the exact ones. */
static void
assert_quantiles(uint64_t *v, size_t n, double tolerance, const char *what)
{
	struct diot_hist *h = hist_new();
	double got, want;
	size_t i;

	for (i = 0; i < n; i++)
		diot_hist_add(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < NQ; i++) {
		got = diot_hist_quantile(h, quantiles[i]);
		want = exact_quantile(v, n, quantiles[i]);
		ck_assert_msg(fabs(got - want) <= tolerance * want,
		              "%s: q %g: histogram %.17g, exact %.17g (%.4f%%)", what,
		              quantiles[i], got, want,
		              want > 0 ? 100.0 * fabs(got - want) / want : 0.0);
	}
	free(h);
}

/* ------------------------------------------------------------ buckets */

START_TEST(test_index_range_round_trip)
{
	uint64_t lo, hi, prev_hi = 0;
	int i;

	for (i = 0; i < DIOT_HIST_BUCKETS; i++) {
		diot_hist_range(i, &lo, &hi);
		CHECK_MSG(lo <= hi, "bucket %d: [%llu, %llu]", i,
		          (unsigned long long)lo, (unsigned long long)hi);
		CHECK_INT_EQ(diot_hist_index(lo), i);
		CHECK_INT_EQ(diot_hist_index(hi), i);
		CHECK_INT_EQ(diot_hist_index(lo + (hi - lo) / 2), i);
		/* The buckets tile 0..UINT64_MAX in order, no gap, no overlap. */
		if (i == 0)
			ck_assert_uint_eq(lo, 0);
		else
			CHECK_MSG(lo == prev_hi + 1, "bucket %d starts at %llu, "
			          "bucket %d ended at %llu", i, (unsigned long long)lo,
			          i - 1, (unsigned long long)prev_hi);
		prev_hi = hi;
	}
	ck_assert_uint_eq(prev_hi, UINT64_MAX);
	ck_assert_int_eq(diot_hist_index(UINT64_MAX), DIOT_HIST_BUCKETS - 1);
}
END_TEST

START_TEST(test_index_monotonic)
{
	uint64_t v, s = 0x9e3779b97f4a7c15ull;
	int prev = 0, idx, e, k;

	/* Every value up to 2^20. */
	for (v = 0; v <= 1u << 20; v++) {
		idx = diot_hist_index(v);
		CHECK_MSG(idx >= prev && idx <= prev + 1, "index(%llu) = %d after %d",
		          (unsigned long long)v, idx, prev);
		prev = idx;
	}
	/* Around every power of two, and random pairs above 2^20. */
	for (e = 1; e < 64; e++) {
		v = (uint64_t)1 << e;
		ck_assert_int_le(diot_hist_index(v - 1), diot_hist_index(v));
		ck_assert_int_le(diot_hist_index(v), diot_hist_index(v + 1));
	}
	for (k = 0; k < 200000; k++) {
		uint64_t a = rnd(&s) >> (rnd(&s) % 44), b = rnd(&s) >> (rnd(&s) % 44);

		if (a > b) {
			v = a;
			a = b;
			b = v;
		}
		CHECK(diot_hist_index(a) <= diot_hist_index(b));
		idx = diot_hist_index(b);
		CHECK(idx >= 0 && idx < DIOT_HIST_BUCKETS);
	}
}
END_TEST

START_TEST(test_exact_below_256)
{
	uint64_t lo, hi, v[4096], s = 42;
	size_t i;

	for (i = 0; i < 256; i++) {
		CHECK_INT_EQ(diot_hist_index(i), (int)i);
		diot_hist_range((int)i, &lo, &hi);
		CHECK(lo == i);
		CHECK(hi == i);
	}
	/* From 256 on a bucket is 1/128 of its power of two wide: its
	 * midpoint is within 1/256 (0.39%) of anything in it. */
	for (i = 256; i < DIOT_HIST_BUCKETS; i++) {
		diot_hist_range((int)i, &lo, &hi);
		CHECK_MSG((double)(hi - lo) / 2 <= (double)lo / 256, "bucket %zu: "
		          "[%llu, %llu]", i, (unsigned long long)lo,
		          (unsigned long long)hi);
	}
	/* So quantiles of samples below 256 ns are exact. */
	for (i = 0; i < 4096; i++)
		v[i] = rnd(&s) % 256;
	assert_quantiles(v, 4096, 0.0, "below 256 ns");
}
END_TEST

/* ------------------------------------------------------------ quantiles */

START_TEST(test_quantiles_within_0_4_percent)
{
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v)), s = 7;
	size_t i;

	ck_assert_ptr_nonnull(v);
	/* 1 ns to 100 s, log-uniform. */
	for (i = 0; i < n; i++)
		v[i] = rnd_log(&s, 1, 1e11);
	assert_quantiles(v, n, 0.004, "log-uniform 1 ns..100 s");

	/* A latency-like shape: a narrow peak around 80 us and a long tail. */
	for (i = 0; i < n; i++)
		v[i] = rnd01(&s) < 0.97 ? 80000 + rnd(&s) % 4000 : rnd_log(&s, 1e5, 5e7);
	assert_quantiles(v, n, 0.004, "peak and tail");

	/* Few samples: every rank is a bucket of its own. */
	for (i = 0; i < 7; i++)
		v[i] = rnd_log(&s, 300, 1e9);
	assert_quantiles(v, 7, 0.004, "seven samples");

	/* Huge values, near the top of the range. */
	for (i = 0; i < 1000; i++)
		v[i] = UINT64_MAX - rnd(&s) % (UINT64_MAX / 4);
	assert_quantiles(v, 1000, 0.004, "near UINT64_MAX");

	/* One value: every quantile is it, exactly (clamped to min/max). */
	for (i = 0; i < 100; i++)
		v[i] = 123457;
	assert_quantiles(v, 100, 0.0, "one value");
	free(v);
}
END_TEST

/* ------------------------------------------------------------ merge */

static void
assert_same(const struct diot_hist *a, const struct diot_hist *b)
{
	int i;

	ck_assert_uint_eq(a->count, b->count);
	ck_assert_uint_eq(a->sum_ns, b->sum_ns);
	ck_assert_uint_eq(a->min_ns, b->min_ns);
	ck_assert_uint_eq(a->max_ns, b->max_ns);
	/* The sum of squares is a double added in another order. */
	ck_assert_msg(fabs(a->sumsq - b->sumsq) <= 1e-12 * fabs(b->sumsq),
	              "sumsq %.17g vs %.17g", a->sumsq, b->sumsq);
	for (i = 0; i < DIOT_HIST_BUCKETS; i++)
		CHECK_MSG(a->bucket[i] == b->bucket[i], "bucket %d: %llu vs %llu", i,
		          (unsigned long long)a->bucket[i],
		          (unsigned long long)b->bucket[i]);
}

START_TEST(test_merge_equals_adding_all)
{
	struct diot_hist *all = hist_new(), *part[4], *merged = hist_new();
	uint64_t s = 99, v;
	size_t i;
	int k;

	for (k = 0; k < 4; k++)
		part[k] = hist_new();
	/* part[3] stays empty: merging it must change nothing. */
	for (i = 0; i < 100000; i++) {
		v = rnd_log(&s, 1, 1e10);
		diot_hist_add(all, v);
		diot_hist_add(part[rnd(&s) % 3], v);
	}
	for (k = 0; k < 4; k++)
		diot_hist_merge(merged, part[k]);
	assert_same(merged, all);
	for (i = 0; i < NQ; i++)
		ck_assert(diot_hist_quantile(merged, quantiles[i]) ==
		          diot_hist_quantile(all, quantiles[i]));
	ck_assert(diot_hist_mean(merged) == diot_hist_mean(all));

	/* Merging into a non-empty one, in another order: the same again. */
	diot_hist_reset(merged);
	diot_hist_merge(merged, part[2]);
	diot_hist_merge(merged, part[3]);
	diot_hist_merge(merged, part[0]);
	diot_hist_merge(merged, part[1]);
	assert_same(merged, all);

	/* Merging an empty one into an empty one leaves it empty. */
	diot_hist_reset(merged);
	diot_hist_merge(merged, part[3]);
	ck_assert_uint_eq(merged->count, 0);
	ck_assert_uint_eq(merged->min_ns, UINT64_MAX);
	ck_assert_uint_eq(merged->max_ns, 0);

	for (k = 0; k < 4; k++)
		free(part[k]);
	free(merged);
	free(all);
}
END_TEST

/* ------------------------------------------------------------ moments */

/* Mean and population standard deviation of v, two-pass in long double. */
static void
moments(const uint64_t *v, size_t n, double *mean, double *sd)
{
	long double m = 0, d, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += (long double)v[i];
	m /= (long double)n;
	for (i = 0; i < n; i++) {
		d = (long double)v[i] - m;
		ss += d * d;
	}
	*mean = (double)m;
	*sd = (double)sqrtl(ss / (long double)n);
}

START_TEST(test_mean_stddev)
{
	static const uint64_t small[8] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v)), s = 5;
	struct diot_hist *h = hist_new();
	double mean, sd;
	size_t i;

	ck_assert_ptr_nonnull(v);
	/* The textbook case: mean 5, standard deviation 2, exactly. */
	for (i = 0; i < 8; i++)
		diot_hist_add(h, small[i]);
	ck_assert(diot_hist_mean(h) == 5.0);
	ck_assert(diot_hist_stddev(h) == 2.0);
	ck_assert_uint_eq(h->min_ns, 2);
	ck_assert_uint_eq(h->max_ns, 9);

	/* Spread-out samples (1 us .. 10 ms). */
	diot_hist_reset(h);
	for (i = 0; i < n; i++) {
		v[i] = rnd_log(&s, 1e3, 1e7);
		diot_hist_add(h, v[i]);
	}
	moments(v, n, &mean, &sd);
	ck_assert_msg(fabs(diot_hist_mean(h) - mean) <= 1e-12 * mean, "mean %.17g vs %.17g",
	              diot_hist_mean(h), mean);
	ck_assert_msg(fabs(diot_hist_stddev(h) - sd) <= 1e-9 * sd, "stddev %.17g vs %.17g",
	              diot_hist_stddev(h), sd);

	/* A narrow peak (80 us +- 2 us): sum of squares minus the squared
	 * mean cancels most digits, still well within 1e-6. */
	diot_hist_reset(h);
	for (i = 0; i < n; i++) {
		v[i] = 78000 + rnd(&s) % 4001;
		diot_hist_add(h, v[i]);
	}
	moments(v, n, &mean, &sd);
	ck_assert_msg(fabs(diot_hist_mean(h) - mean) <= 1e-12 * mean, "mean %.17g vs %.17g",
	              diot_hist_mean(h), mean);
	ck_assert_msg(fabs(diot_hist_stddev(h) - sd) <= 1e-6 * sd, "stddev %.17g vs %.17g",
	              diot_hist_stddev(h), sd);

	/* All equal: no spread (and never the root of a negative rounding). */
	diot_hist_reset(h);
	for (i = 0; i < 1000; i++)
		diot_hist_add(h, 1234567);
	ck_assert(diot_hist_mean(h) == 1234567.0);
	ck_assert(diot_hist_stddev(h) == 0.0);
	diot_hist_reset(h);
	for (i = 0; i < 3; i++)
		diot_hist_add(h, 333333333);   /* 1/3-ish: sumsq/n - m^2 may round */
	ck_assert(diot_hist_stddev(h) >= 0.0);
	ck_assert(diot_hist_stddev(h) < 1e-3 * 333333333);
	free(h);
	free(v);
}
END_TEST

START_TEST(test_empty)
{
	struct diot_hist *h = hist_new();
	int i;

	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(h->sum_ns, 0);
	ck_assert_uint_eq(h->min_ns, UINT64_MAX);   /* so that any sample is less */
	ck_assert_uint_eq(h->max_ns, 0);
	ck_assert(h->sumsq == 0.0);
	for (i = 0; i < DIOT_HIST_BUCKETS; i++)
		CHECK(h->bucket[i] == 0);
	ck_assert(diot_hist_mean(h) == 0.0);
	ck_assert(diot_hist_stddev(h) == 0.0);
	ck_assert(diot_hist_quantile(h, 0.5) == 0.0);
	ck_assert(diot_hist_quantile(h, 1.0) == 0.0);

	/* One sample of 0 ns is not empty. */
	diot_hist_add(h, 0);
	ck_assert_uint_eq(h->count, 1);
	ck_assert_uint_eq(h->min_ns, 0);
	ck_assert(diot_hist_quantile(h, 0.5) == 0.0);
	ck_assert_uint_eq(h->bucket[0], 1);

	/* reset empties it again. */
	diot_hist_add(h, 5000);
	diot_hist_reset(h);
	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(h->min_ns, UINT64_MAX);
	ck_assert(diot_hist_quantile(h, 0.99) == 0.0);
	free(h);
}
END_TEST

static Suite *
hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_index_range_round_trip);
	tcase_add_test(tc, test_index_monotonic);
	tcase_add_test(tc, test_exact_below_256);
	tcase_add_test(tc, test_quantiles_within_0_4_percent);
	tcase_add_test(tc, test_merge_equals_adding_all);
	tcase_add_test(tc, test_mean_stddev);
	tcase_add_test(tc, test_empty);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(srunner_create(hist_suite()));
}
