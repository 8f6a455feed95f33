/* SPDX-License-Identifier: MIT */
/*
 * test_histogram.c - the latency histogram's promises: exact below 128 ns,
 * buckets that tile the whole range in order, the 1/128 error bound of the
 * reported midpoint, nearest-rank percentiles, exact merging, the clamp of
 * huge values, and an empty histogram reading as 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cdm/model/hist.h"
#include "cdm/model/pass.h"

#define LAST (CDM_HIST_BUCKETS - 1)

/* xorshift64*: a fixed seed, so a failure reproduces */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* a value spread over every magnitude below 2^max_bits, not only the top */
static uint64_t rng_value(unsigned int max_bits)
{
	uint64_t v = rng_next() & ((1ull << max_bits) - 1);

	return v >> (rng_next() % max_bits);
}

/* 22 KiB each: on the heap, not on cmocka's stack */
static struct cdm_hist *hist_new(void)
{
	struct cdm_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	cdm_hist_init(h);
	return h;
}

/* |got - want| <= want / 128, without floating point */
static int within_1_128(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d <= want / 128;
}

static void test_layout_constants(void **state)
{
	(void)state;
	/* the header's comment promises 22 KiB of counters */
	assert_int_equal(CDM_HIST_BUCKETS, 2752);
	assert_true(sizeof(((struct cdm_hist *)0)->buckets) < 22 * 1024);
	assert_int_equal(cdm_hist_index(CDM_HIST_MAX_NS - 1), LAST);
}

static void test_init_empty(void **state)
{
	struct cdm_hist *h = hist_new();
	unsigned int i;

	(void)state;
	assert_int_equal(h->count, 0);
	assert_int_equal(h->sum_ns, 0);
	assert_true(h->min_ns == UINT64_MAX);
	assert_int_equal(h->max_ns, 0);
	for (i = 0; i < CDM_HIST_BUCKETS; i++)
		assert_int_equal(h->buckets[i], 0);
	assert_int_equal(cdm_hist_percentile(h, 50.0), 0);
	assert_int_equal(cdm_hist_percentile(h, 100.0), 0);
	assert_int_equal(cdm_hist_percentile(h, 0.001), 0);
	assert_true(cdm_hist_mean(h) == 0.0);
	free(h);
}

static void test_exact_below_128(void **state)
{
	struct cdm_hist *h;
	uint64_t v;

	(void)state;
	for (v = 0; v < 128; v++) {
		assert_int_equal(cdm_hist_index(v), v);
		assert_int_equal(cdm_hist_bucket_low((unsigned int)v), v);
		assert_int_equal(cdm_hist_bucket_high((unsigned int)v), v);

		/* a lone value alongside others far away reads back exactly */
		h = hist_new();
		cdm_hist_add(h, 0);
		cdm_hist_add(h, v);
		cdm_hist_add(h, 1ull << 40);
		assert_int_equal(cdm_hist_percentile(h, 50.0), v);
		free(h);
	}
	/* 128 is the first value sharing a bucket (with 129) */
	assert_int_equal(cdm_hist_index(128), 128);
	assert_int_equal(cdm_hist_index(129), 128);
	assert_int_equal(cdm_hist_index(130), 129);
}

static void test_buckets_contiguous(void **state)
{
	unsigned int i;
	uint64_t lo, hi;

	(void)state;
	assert_int_equal(cdm_hist_bucket_low(0), 0);
	for (i = 0; i < CDM_HIST_BUCKETS; i++) {
		lo = cdm_hist_bucket_low(i);
		hi = cdm_hist_bucket_high(i);
		assert_true(lo <= hi);
		/* both edges map back to the bucket they bound */
		assert_int_equal(cdm_hist_index(lo), i);
		assert_int_equal(cdm_hist_index(hi), i);
		if (i > 0) {
			assert_int_equal(cdm_hist_index(lo - 1), i - 1);
			assert_true(cdm_hist_bucket_high(i - 1) + 1 == lo);
		}
		if (i < LAST)
			assert_int_equal(cdm_hist_index(hi + 1), i + 1);
	}
	/* the last bucket takes everything up to UINT64_MAX */
	assert_true(cdm_hist_bucket_high(LAST) == UINT64_MAX);
	assert_true(cdm_hist_bucket_low(LAST) == 127ull << 41);
}

static void test_index_monotonic(void **state)
{
	uint64_t v, prev_v;
	unsigned int k, prev = 0, cur;
	int i;

	(void)state;
	/* every value of the first 2^20 ns */
	for (v = 1; v < (1ull << 20); v++) {
		cur = cdm_hist_index(v);
		assert_true(cur == prev || cur == prev + 1);
		prev = cur;
	}
	/* around every power of two up to and past the clamp */
	prev = 0;
	for (k = 1; k < 64; k++) {
		for (i = -1; i <= 1; i++) {
			v = (1ull << k) + (uint64_t)(int64_t)i;
			cur = cdm_hist_index(v);
			assert_true(cur >= prev);
			assert_true(cur < CDM_HIST_BUCKETS);
			prev = cur;
		}
	}
	/* random pairs, ordered */
	for (k = 0; k < 100000; k++) {
		prev_v = rng_value(CDM_HIST_MAX_BITS);
		v = rng_value(CDM_HIST_MAX_BITS);
		if (v < prev_v)
			assert_true(cdm_hist_index(v) <= cdm_hist_index(prev_v));
		else
			assert_true(cdm_hist_index(v) >= cdm_hist_index(prev_v));
	}
}

/*
 * Check the bound through the public path: with one value far below and
 * one far above, the median is @v's bucket midpoint, unclamped.
 */
static void check_midpoint(struct cdm_hist *h, uint64_t v)
{
	uint64_t got, lo, hi;
	unsigned int i = cdm_hist_index(v);

	cdm_hist_init(h);
	cdm_hist_add(h, 0);
	cdm_hist_add(h, v);
	cdm_hist_add(h, UINT64_MAX);
	got = cdm_hist_percentile(h, 50.0);
	if (!within_1_128(got, v))
		fail_msg("value %llu: reported %llu, more than 1/128 off",
			 (unsigned long long)v, (unsigned long long)got);
	/* and it is inside the value's own bucket */
	lo = cdm_hist_bucket_low(i);
	hi = cdm_hist_bucket_high(i);
	assert_true(got >= lo && got <= hi);
}

static void test_error_bound(void **state)
{
	struct cdm_hist *h = hist_new();
	unsigned int k, n;
	int d;

	(void)state;
	for (k = 0; k <= CDM_HIST_MAX_BITS; k++)
		for (d = -1; d <= 1; d++)
			if (k < CDM_HIST_MAX_BITS || d < 0)
				check_midpoint(h, (1ull << k) + (uint64_t)(int64_t)d);
	for (n = 0; n < 200000; n++)
		check_midpoint(h, rng_value(47));
	/* every bucket's own edges, the worst cases */
	for (k = 0; k < LAST; k++) {
		check_midpoint(h, cdm_hist_bucket_low(k));
		check_midpoint(h, cdm_hist_bucket_high(k));
	}
	check_midpoint(h, CDM_HIST_MAX_NS - 1);
	free(h);
}

/* the value at rank pct% of n in 1..n (a whole rank for the pcts used) */
static uint64_t true_rank_uniform(double pct, uint64_t n)
{
	return (uint64_t)(pct / 100.0 * (double)n + 0.5);
}

static void test_percentile_uniform(void **state)
{
	static const double pcts[] = { 50.0, 90.0, 99.0, 99.9 };
	struct cdm_hist *h = hist_new();
	uint64_t v, want, got, d;
	unsigned int i;

	(void)state;
	for (v = 1; v <= 1000000; v++)
		cdm_hist_add(h, v);
	assert_int_equal(h->count, 1000000);
	assert_int_equal(h->min_ns, 1);
	assert_int_equal(h->max_ns, 1000000);
	assert_true(cdm_hist_mean(h) == 500000.5);

	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		want = true_rank_uniform(pcts[i], 1000000);
		got = cdm_hist_percentile(h, pcts[i]);
		d = got > want ? got - want : want - got;
		if (d * 100 > want)
			fail_msg("p%g: %llu, true %llu", pcts[i],
				 (unsigned long long)got,
				 (unsigned long long)want);
	}
	/* p100 is the exact max (clamped), the smallest rank the exact min */
	assert_int_equal(cdm_hist_percentile(h, 100.0), 1000000);
	assert_int_equal(cdm_hist_percentile(h, 0.00001), 1);
	free(h);
}

static void test_percentile_constant(void **state)
{
	static const double pcts[] = { 0.1, 1.0, 50.0, 99.0, 99.99, 100.0 };
	struct cdm_hist *h = hist_new();
	unsigned int i;

	(void)state;
	for (i = 0; i < 10000; i++)
		cdm_hist_add(h, 123456);
	/* one bucket, clamped to [min, max]: exact */
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		assert_int_equal(cdm_hist_percentile(h, pcts[i]), 123456);
	assert_true(cdm_hist_mean(h) == 123456.0);
	free(h);
}

static void test_percentile_bimodal(void **state)
{
	struct cdm_hist *h = hist_new();
	uint64_t got;
	unsigned int i;

	(void)state;
	/* 90 % fast (exact range), 10 % slow */
	for (i = 0; i < 900; i++)
		cdm_hist_add(h, 100);
	for (i = 0; i < 100; i++)
		cdm_hist_add(h, 10000000);
	assert_int_equal(cdm_hist_percentile(h, 50.0), 100);
	assert_int_equal(cdm_hist_percentile(h, 90.0), 100);   /* rank 900 */
	got = cdm_hist_percentile(h, 90.1);                    /* rank 901 */
	assert_true(within_1_128(got, 10000000));
	got = cdm_hist_percentile(h, 99.0);
	assert_true(within_1_128(got, 10000000));
	assert_int_equal(cdm_hist_percentile(h, 100.0), 10000000);
	assert_true(cdm_hist_mean(h) == (900.0 * 100 + 100.0 * 10000000) / 1000);
	free(h);
}

/* 99.9 / 100 * 1000 is 999.0000000000001 in binary: the rank is 999 */
static void test_percentile_rank_rounding(void **state)
{
	struct cdm_hist *h = hist_new();
	unsigned int i;

	(void)state;
	for (i = 0; i < 999; i++)
		cdm_hist_add(h, 50);
	cdm_hist_add(h, 5000);
	assert_int_equal(cdm_hist_percentile(h, 99.9), 50);
	assert_int_equal(cdm_hist_percentile(h, 99.95), 5000);
	/* out-of-contract pct values stay inside the data */
	assert_int_equal(cdm_hist_percentile(h, 0.0), 50);
	assert_int_equal(cdm_hist_percentile(h, 150.0), 5000);
	free(h);
}

static void assert_hist_equal(const struct cdm_hist *a, const struct cdm_hist *b)
{
	unsigned int i;

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum_ns, b->sum_ns);
	assert_int_equal(a->min_ns, b->min_ns);
	assert_int_equal(a->max_ns, b->max_ns);
	for (i = 0; i < CDM_HIST_BUCKETS; i++)
		if (a->buckets[i] != b->buckets[i])
			fail_msg("bucket %u: %llu != %llu", i,
				 (unsigned long long)a->buckets[i],
				 (unsigned long long)b->buckets[i]);
}

static void test_merge(void **state)
{
	struct cdm_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct cdm_hist *empty = hist_new(), *copy = hist_new();
	uint64_t v;
	unsigned int i;

	(void)state;
	/* different shapes: a is small values, b spans everything */
	for (i = 0; i < 50000; i++) {
		v = rng_value(20);
		cdm_hist_add(a, v);
		cdm_hist_add(all, v);
	}
	for (i = 0; i < 30000; i++) {
		v = rng_value(CDM_HIST_MAX_BITS);
		cdm_hist_add(b, v);
		cdm_hist_add(all, v);
	}
	memcpy(copy, b, sizeof(*b));
	cdm_hist_merge(a, b);
	assert_hist_equal(a, all);
	assert_hist_equal(b, copy);             /* source unchanged */

	/* merging an empty histogram changes nothing, either way round */
	cdm_hist_merge(a, empty);
	assert_hist_equal(a, all);
	cdm_hist_merge(empty, all);
	assert_hist_equal(empty, all);
	free(a);
	free(b);
	free(all);
	free(empty);
	free(copy);
}

static void test_huge_values(void **state)
{
	struct cdm_hist *h = hist_new();
	uint64_t got;

	(void)state;
	assert_int_equal(cdm_hist_index(CDM_HIST_MAX_NS), LAST);
	assert_int_equal(cdm_hist_index(CDM_HIST_MAX_NS + 12345), LAST);
	assert_int_equal(cdm_hist_index(UINT64_MAX), LAST);

	cdm_hist_add(h, 1000);
	cdm_hist_add(h, CDM_HIST_MAX_NS + 7);
	assert_int_equal(h->buckets[LAST], 1);
	assert_true(h->max_ns == CDM_HIST_MAX_NS + 7);
	assert_true(cdm_hist_percentile(h, 100.0) <= h->max_ns);
	assert_true(cdm_hist_percentile(h, 100.0) >= cdm_hist_bucket_low(LAST));

	cdm_hist_add(h, 1ull << 60);
	assert_int_equal(h->buckets[LAST], 2);
	assert_true(h->max_ns == 1ull << 60);
	got = cdm_hist_percentile(h, 100.0);
	assert_true(got >= cdm_hist_bucket_low(LAST) && got <= h->max_ns);
	/* the small value is untouched: bucket [1000, 1007], midpoint 1003 */
	assert_int_equal(cdm_hist_percentile(h, 10.0), 1003);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_constants),
		cmocka_unit_test(test_init_empty),
		cmocka_unit_test(test_exact_below_128),
		cmocka_unit_test(test_buckets_contiguous),
		cmocka_unit_test(test_index_monotonic),
		cmocka_unit_test(test_error_bound),
		cmocka_unit_test(test_percentile_uniform),
		cmocka_unit_test(test_percentile_constant),
		cmocka_unit_test(test_percentile_bimodal),
		cmocka_unit_test(test_percentile_rank_rounding),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_huge_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
