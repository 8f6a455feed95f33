/* SPDX-License-Identifier: MIT */
/*
 * hist.h - the latency histogram.
 *
 * The latency histogram is log-linear, in the manner of HdrHistogram and
 * fio's stat.h: values below 2 * CDM_HIST_SUB (128 ns) get one bucket each
 * (exact); above that, every power-of-two range [2^k, 2^(k+1)) is split into
 * CDM_HIST_SUB (64) equal buckets.  A bucket in range k is 2^k / 64 wide, so
 * reporting its midpoint is off by at most 1/128 of the value (0.79 %), which
 * is the documented bound (<= 1 %).  Values at or above CDM_HIST_MAX_NS
 * (2^48 ns, about 78 hours) land in the last bucket; mean and max are kept
 * exactly beside the buckets.
 *
 * Memory is fixed (CDM_HIST_BUCKETS counters, 22 KiB) whatever the run
 * length, and two histograms merge by adding counts bucket by bucket, which
 * is what lets worker threads (and, later, MPI ranks) be combined exactly.
 */
#ifndef CDM_MODEL_HIST_H
#define CDM_MODEL_HIST_H

#include <stddef.h>
#include <stdint.h>

/*
 * The log-linear layout, shared by the run's histogram below and the
 * coarser per-interval one of a time series (series.h), each with its own
 * @sub_bits (buckets per octave = 2^sub_bits) and @max_bits (values at or
 * above 2^max_bits ns share the last bucket).  Values below 2^(sub_bits+1)
 * have a bucket each; bucket i above them lies in octave group
 * g = (i - 2 * SUB) / SUB, is 2^(g + 1) ns wide and starts at
 * (SUB + i % SUB) * width.
 */

/* cdm_hist_layout_index - the bucket of @ns, in [0, buckets of the layout) */
static inline unsigned int cdm_hist_layout_index(uint64_t ns, unsigned int sub_bits,
						 unsigned int max_bits)
{
	unsigned int sub = 1u << sub_bits, msb, shift;

	if (ns < 2 * sub)
		return (unsigned int)ns;
	if (ns >= (1ull << max_bits))
		return 2 * sub + (max_bits - sub_bits - 1) * sub - 1;
	msb = 63u - (unsigned int)__builtin_clzll(ns);
	shift = msb - sub_bits;
	return 2 * sub + (shift - 1) * sub + (unsigned int)((ns >> shift) & (sub - 1));
}

/* cdm_hist_layout_width - the width of bucket @i in ns (1 in the exact range) */
static inline uint64_t cdm_hist_layout_width(unsigned int i, unsigned int sub_bits)
{
	unsigned int sub = 1u << sub_bits;

	if (i < 2 * sub)
		return 1;
	return 1ull << ((i - 2 * sub) / sub + 1);
}

/* cdm_hist_layout_low - the smallest value (ns) of bucket @i */
static inline uint64_t cdm_hist_layout_low(unsigned int i, unsigned int sub_bits)
{
	unsigned int sub = 1u << sub_bits;

	if (i < 2 * sub)
		return i;
	return (uint64_t)(sub + (i & (sub - 1))) * cdm_hist_layout_width(i, sub_bits);
}

#define CDM_HIST_SUB_BITS 6
#define CDM_HIST_SUB (1u << CDM_HIST_SUB_BITS)        /* 64 buckets per octave */
#define CDM_HIST_MAX_BITS 48                          /* values < 2^48 ns */
#define CDM_HIST_MAX_NS (1ull << CDM_HIST_MAX_BITS)
/* exact range (2 * SUB values) + one group of SUB per octave above it */
#define CDM_HIST_BUCKETS \
	(2 * CDM_HIST_SUB + (CDM_HIST_MAX_BITS - CDM_HIST_SUB_BITS - 1) * CDM_HIST_SUB)

struct cdm_hist {
	uint64_t count;                 /* values recorded */
	uint64_t sum_ns;                /* exact sum, for the exact mean */
	uint64_t min_ns;                /* exact; UINT64_MAX when empty */
	uint64_t max_ns;                /* exact; 0 when empty */
	uint64_t buckets[CDM_HIST_BUCKETS];
};

/*
 * cdm_hist_index - bucket index of a latency value.
 * @ns: value in nanoseconds; values >= CDM_HIST_MAX_NS map to the last bucket.
 * Returns an index in [0, CDM_HIST_BUCKETS).  Hot path: inline, no branches
 * beyond the range checks.
 */
static inline unsigned int cdm_hist_index(uint64_t ns)
{
	return cdm_hist_layout_index(ns, CDM_HIST_SUB_BITS, CDM_HIST_MAX_BITS);
}

/*
 * cdm_hist_add - record one latency.  @h must have been cleared with
 * cdm_hist_init().  Not thread-safe: each worker owns its histogram.
 */
static inline void cdm_hist_add(struct cdm_hist *h, uint64_t ns)
{
	h->buckets[cdm_hist_index(ns)]++;
	h->count++;
	h->sum_ns += ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/* cdm_hist_init - empty @h (count 0, min UINT64_MAX, max 0). */
void cdm_hist_init(struct cdm_hist *h);

/*
 * cdm_hist_merge - add every count of @src into @dst (bucket-wise sum; sum,
 * min and max combined exactly).  @src is unchanged.
 */
void cdm_hist_merge(struct cdm_hist *dst, const struct cdm_hist *src);

/*
 * cdm_hist_bucket_low / cdm_hist_bucket_high - the range of values that map
 * to bucket @i: [low, high] in ns, both inclusive.
 */
uint64_t cdm_hist_bucket_low(unsigned int i);
uint64_t cdm_hist_bucket_high(unsigned int i);

/*
 * cdm_hist_percentile - the latency at or below which @pct percent of the
 * recorded values lie (nearest-rank on the bucket counts), in ns.
 * @pct: 0 < pct <= 100.  The value returned is the midpoint of the bucket
 * holding that rank, clamped to [min_ns, max_ns]; its relative error is at
 * most 1/128 (see above).  Returns 0 for an empty histogram.
 */
uint64_t cdm_hist_percentile(const struct cdm_hist *h, double pct);

/* cdm_hist_mean - exact mean latency in ns (sum / count); 0.0 when empty. */
double cdm_hist_mean(const struct cdm_hist *h);

#endif /* CDM_MODEL_HIST_H */
