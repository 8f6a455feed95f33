/* SPDX-License-Identifier: MIT */
/*
 * hist.c - the latency histogram behind every percentile cdm prints:
 * clearing, merging, bucket ranges and the figures read back from it.  The
 * hot path (cdm_hist_index, cdm_hist_add) is inline in hist.h.
 *
 * Layout (log-linear, as in HdrHistogram and fio's stat.h).  Values below
 * 2 * CDM_HIST_SUB = 128 ns have one bucket each and are exact.  Above that,
 * each octave [2^m, 2^(m+1)), m = 7 .. 47, is cut into CDM_HIST_SUB = 64
 * equal buckets of width w = 2^(m - 6); the bucket of a value is found from
 * its top 7 bits (the leading one and the 6 bits after it), so indexing is
 * a count-leading-zeros and a shift.
 *
 * Error bound.  A value v in a bucket of width w is at least 64 * w (the
 * bucket lies in [64w, 128w)), and the bucket's midpoint is at most w / 2
 * away from v, so reporting the midpoint is off by at most
 * (w / 2) / (64 * w) = 1/128 of v (0.79 %), inside the <= 1 % that
 * docs/method.md promises.  Values >= CDM_HIST_MAX_NS (2^48 ns, about 78
 * hours) are counted in the last bucket; the exact count, sum, min and max
 * kept beside the buckets are unaffected, and percentiles are clamped to
 * [min, max], so no figure ever exceeds what was recorded.
 */
#include <stdint.h>
#include <string.h>

#include "cdm/model/hist.h"

void cdm_hist_init(struct cdm_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void cdm_hist_merge(struct cdm_hist *dst, const struct cdm_hist *src)
{
	unsigned int i;

	for (i = 0; i < CDM_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	/* an empty @src has min UINT64_MAX and max 0, so these are no-ops */
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t cdm_hist_bucket_low(unsigned int i)
{
	if (i >= CDM_HIST_BUCKETS)
		i = CDM_HIST_BUCKETS - 1;
	return cdm_hist_layout_low(i, CDM_HIST_SUB_BITS);
}

/* upper edge of bucket @i as laid out, ignoring the clamp of huge values */
static uint64_t bucket_nominal_high(unsigned int i)
{
	return cdm_hist_layout_low(i, CDM_HIST_SUB_BITS) +
	       cdm_hist_layout_width(i, CDM_HIST_SUB_BITS) - 1;
}

uint64_t cdm_hist_bucket_high(unsigned int i)
{
	/* everything >= CDM_HIST_MAX_NS also lands in the last bucket */
	if (i >= CDM_HIST_BUCKETS - 1)
		return UINT64_MAX;
	return bucket_nominal_high(i);
}

uint64_t cdm_hist_percentile(const struct cdm_hist *h, double pct)
{
	uint64_t rank, cum = 0, mid;
	double want;
	unsigned int i;

	if (!h->count)
		return 0;

	/*
	 * Nearest rank: the smallest value with at least ceil(pct% of count)
	 * values at or below it.  pct / 100 * count is computed in binary,
	 * so 99.9 % of 1000 may come out as 999.0000000000001; shaving a
	 * relative 1e-12 keeps the ceiling from moving such a rank up by one.
	 */
	want = pct / 100.0 * (double)h->count;
	want -= want * 1e-12;
	if (!(want > 0.0)) {            /* also catches NaN */
		rank = 1;
	} else if (want >= (double)h->count) {
		rank = h->count;
	} else {
		/* ceil() by hand: the cdm binary does not link libm */
		rank = (uint64_t)want;
		if ((double)rank < want)
			rank++;
	}

	for (i = 0; i < CDM_HIST_BUCKETS - 1; i++) {
		cum += h->buckets[i];
		if (cum >= rank)
			break;
	}

	/*
	 * Midpoint of the bucket (its own value below 128 ns); the last
	 * bucket uses its laid-out range so that the 1/128 bound still holds
	 * for values below 2^48.  Clamping to the exact min and max means a
	 * narrow distribution (all in one bucket) never reports a latency
	 * below its fastest or above its slowest I/O.
	 */
	mid = cdm_hist_bucket_low(i) +
	      (bucket_nominal_high(i) - cdm_hist_bucket_low(i)) / 2;
	if (mid < h->min_ns)
		mid = h->min_ns;
	if (mid > h->max_ns)
		mid = h->max_ns;
	return mid;
}

double cdm_hist_mean(const struct cdm_hist *h)
{
	if (!h->count)
		return 0.0;
	return (double)h->sum_ns / (double)h->count;
}
