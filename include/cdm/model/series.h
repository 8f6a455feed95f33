/* SPDX-License-Identifier: MIT */
/*
 * series.h - the time series of a test (--log-interval).  What is found
 * in a series (a burst, a ceiling) is detect.h's; docs/method.md ("Time
 * series") defines both.
 *
 * Hot path.  Each worker owns an array of interval slots, allocated and
 * zeroed before the test starts (one per interval of the warm-up and of
 * every pass); a completion adds its bytes, one I/O, its latency and one
 * count in a small histogram to the slot of the interval in which it
 * completed (the worker's own completion timestamp).  No locks, no
 * allocation per I/O.  After the test the runner merges the slots of all
 * workers into a struct cdm_series of the result model.
 */
#ifndef CDM_SERIES_H
#define CDM_SERIES_H

#include <stdint.h>

#include "cdm/base/size.h"
#include "cdm/model/hist.h"

#define CDM_SERIES_MIN_NS 100000000ull          /* shortest interval: 100 ms */
#define CDM_SERIES_MAX_NS 3600000000000ull      /* longest: 3600 s */
#define CDM_SERIES_MEM_MAX (512 * CDM_MIB)      /* bytes of slots for one test */

/*
 * Per-interval histogram: log-linear like hist.h but coarser (16
 * buckets per octave, values clamped at 2^40 ns = 18 minutes), so a slot
 * stays small: the reported p99 is within 1/32 (3.2 %) of the true value.
 */
#define CDM_SHIST_SUB_BITS 4
#define CDM_SHIST_SUB (1u << CDM_SHIST_SUB_BITS)
#define CDM_SHIST_MAX_BITS 40
#define CDM_SHIST_BUCKETS \
	(2 * CDM_SHIST_SUB + (CDM_SHIST_MAX_BITS - CDM_SHIST_SUB_BITS - 1) * CDM_SHIST_SUB)

/* one interval of one worker (hot path) */
struct cdm_series_slot {
	uint64_t bytes;
	uint64_t ios;
	uint64_t lat_sum_ns;
	uint32_t buckets[CDM_SHIST_BUCKETS];
};

/* cdm_series_hist_index - the bucket of @ns in a slot's histogram */
static inline unsigned int cdm_series_hist_index(uint64_t ns)
{
	return cdm_hist_layout_index(ns, CDM_SHIST_SUB_BITS, CDM_SHIST_MAX_BITS);
}

/* cdm_series_add - count one completed I/O of @bytes and latency @lat_ns */
static inline void cdm_series_add(struct cdm_series_slot *sl, uint64_t bytes, uint64_t lat_ns)
{
	sl->bytes += bytes;
	sl->ios++;
	sl->lat_sum_ns += lat_ns;
	sl->buckets[cdm_series_hist_index(lat_ns)]++;
}

/* cdm_series_hist_value - the midpoint of bucket @i in ns (for percentiles) */
uint64_t cdm_series_hist_value(unsigned int i);

/* one interval of a test, all workers merged */
struct cdm_series_point {
	unsigned int pass;              /* 0 = warm-up, k = measured pass k (1-based) */
	uint64_t start_ns;              /* from the start of the test (its warm-up) */
	uint64_t duration_ns;           /* the last interval of a pass may be shorter */
	uint64_t bytes;                 /* completed in this interval */
	uint64_t ios;
	uint64_t lat_sum_ns;
	uint64_t lat_p99_ns;            /* 0 when no I/O completed */
};

/* what a detector found; found == 0: nothing (the other fields are 0) */
struct cdm_burst {
	int found;
	unsigned int split;             /* index of the first point at the low level */
	double high;                    /* median before the split */
	double low;                     /* median from the split on */
	double high_iops, low_iops;     /* the IOPS medians of the same intervals,
					 * 0 when not known (a series read back) */
};

struct cdm_ceiling {
	int found;
	unsigned int from;              /* first load point on the ceiling */
	double level;                   /* mean figure of the points on it */
	double lat_ratio;               /* latency at the last point / at @from */
	double mb_s, iops;              /* the mean MB/s and IOPS of the points on it,
					 * 0 when not known (a series read back) */
};

struct cdm_series {
	uint64_t interval_ns;
	unsigned int npoints;
	struct cdm_series_point *points;        /* owned */
	struct cdm_burst burst;                 /* on MB/s, warm-up included */
	uint64_t burst_at_ns;                   /* start_ns of the split point */
	struct cdm_ceiling ceiling;             /* found: this test sits on one */
	double ceiling_mb_s;
	char ceiling_from[64];                  /* spec name of the lightest load on it */
};

/*
 * cdm_series_interval_parse - "500ms", "1s", "2s", "1.5s", or a bare number of
 * seconds (the one grammar of times, base/msec.h: at most 3 decimals),
 * into @ns; CDM_SERIES_MIN_NS..CDM_SERIES_MAX_NS.  Returns 0 or -EINVAL
 * (bad text) or -ERANGE (out of range).
 */
int cdm_series_interval_parse(const char *s, uint64_t *ns);

/*
 * cdm_series_window_slots - how many intervals of @interval_ns a window of
 * @window_ns holds (the last may be partial); 0 for an empty window.
 */
unsigned int cdm_series_window_slots(uint64_t window_ns, uint64_t interval_ns);

/*
 * cdm_series_build - merge the slots of @nthreads workers into a new
 * series.  @bounds: the test's schedule (worker.h): window w starts at
 * bounds[w] and ends at @ends[w], or without @ends (NULL) at bounds[w + 1]
 * (a gated schedule's window ends when it was drained, and the next starts
 * later); @nwin: windows kept (warm-up + complete passes); @base/@nslots:
 * first slot and slot count of each window: the last slot of a window
 * ends with the window.  Returns the series (free with cdm_series_free) or NULL
 * when out of memory.
 */
struct cdm_series *cdm_series_build(uint64_t interval_ns, const uint64_t *bounds,
				    const uint64_t *ends, unsigned int nwin, const unsigned int *base,
				    const unsigned int *nslots,
				    struct cdm_series_slot *const *slots, unsigned int nthreads);

/* cdm_series_free - free @s and its points (NULL is allowed) */
void cdm_series_free(struct cdm_series *s);

/* cdm_series_point_mb_s / _iops / _lat_us of one point (0 if empty) */
double cdm_series_point_mb_s(const struct cdm_series_point *p);
double cdm_series_point_iops(const struct cdm_series_point *p);
double cdm_series_point_lat_us(const struct cdm_series_point *p);

/*
 * cdm_series_mem - bytes of slots one worker needs for a test with a
 * warm-up of @warmup_ms, @count passes of @time_ms (ms) at @interval_ns:
 * one slot per interval begun (cdm_series_window_slots()), so a pass
 * shorter than the interval has one.
 */
uint64_t cdm_series_mem(unsigned int warmup_ms, unsigned int count, unsigned int time_ms,
			uint64_t interval_ns);

#endif /* CDM_SERIES_H */
