/* SPDX-License-Identifier: MIT */
/*
 * pass.h - what one measured pass of one test counted, and the figures
 * derived from those counts (MB/s, IOPS, mean latency; docs/method.md).
 */
#ifndef CDM_MODEL_PASS_H
#define CDM_MODEL_PASS_H

#include <stdint.h>

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

#endif /* CDM_MODEL_PASS_H */
