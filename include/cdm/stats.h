/* SPDX-License-Identifier: MIT */
/*
 * cdm/stats.h - latency histogram and per-pass counters.
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
#ifndef CDM_STATS_H
#define CDM_STATS_H

#include <stdint.h>
#include <stddef.h>

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
	unsigned int msb, shift;

	if (ns < 2 * CDM_HIST_SUB)
		return (unsigned int)ns;
	if (ns >= CDM_HIST_MAX_NS)
		return CDM_HIST_BUCKETS - 1;
	msb = 63u - (unsigned int)__builtin_clzll(ns);
	shift = msb - CDM_HIST_SUB_BITS;
	return 2 * CDM_HIST_SUB + (shift - 1) * CDM_HIST_SUB +
	       (unsigned int)((ns >> shift) & (CDM_HIST_SUB - 1));
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

/*
 * struct cdm_pass - what one measured pass of one test produced, summed over
 * its worker threads.  Filled by the runner; every figure a formatter prints
 * is derived from these counts and this duration.
 */
struct cdm_pass {
	double seconds;                 /* length of the pass (scheduled window) */
	uint64_t start_unix_ns;         /* wall clock (CLOCK_REALTIME) at its start, ns; 0 = unknown */
	uint64_t bytes;                 /* bytes of I/Os completed inside it */
	uint64_t ios;                   /* I/Os completed inside it */
	uint64_t lat_sum_ns;            /* sum of their latencies (ns) */
	uint64_t lat_max_ns;            /* largest latency (ns) */
	uint64_t cpu_user_ns;           /* worker threads' user CPU (RUSAGE_THREAD) */
	uint64_t cpu_sys_ns;            /* worker threads' system CPU */
	uint64_t proc_user_ns;          /* whole process, RUSAGE_SELF */
	uint64_t proc_sys_ns;
	/* the reads among bytes/ios/lat_sum_ns (the writes are the rest) */
	uint64_t read_bytes;
	uint64_t read_ios;
	uint64_t read_lat_sum_ns;
	/* --fsync: fdatasync calls that completed inside the pass, and their time */
	uint64_t fsyncs;
	uint64_t fsync_sum_ns;
	uint64_t fsync_max_ns;
};

/*
 * cdm_pass_add - add the counts of @src to @dst: bytes, I/Os, latency sum,
 * CPU times (threads and process), the read part, fsync count and time;
 * the largest latency and fsync time are kept.  @seconds and
 * @start_unix_ns are left to the caller (the threads of a pass share one
 * window; runs merged by cdm merge each have their own).  Used for the
 * threads of a pass (runner) and the runs of an aggregate (merge.h).
 */
void cdm_pass_add(struct cdm_pass *dst, const struct cdm_pass *src);

/* cdm_pass_mb_s - bytes / seconds / 1e6 (MB/s = 10^6 bytes/s); 0 if empty. */
double cdm_pass_mb_s(const struct cdm_pass *p);

/* cdm_pass_iops - ios / seconds; 0 if the pass is empty. */
double cdm_pass_iops(const struct cdm_pass *p);

/* cdm_pass_mean_lat_ns - lat_sum_ns / ios; 0 when no I/O completed. */
double cdm_pass_mean_lat_ns(const struct cdm_pass *p);

#endif /* CDM_STATS_H */
