/* SPDX-License-Identifier: MIT */
/*
 * pass.h - what one measured pass of one test counted, the figures
 * derived from those counts (MB/s, IOPS, mean latency; docs/method.md),
 * and whether there is anything to derive them from: a pass in which no
 * I/O completed, or one of no length, measured nothing, and has no
 * figures rather than figures of 0 (docs/method.md, "Nothing measured").
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
	double seconds;                 /* length of the pass: its scheduled window; with
					 * --end-fsync or --steady-state, from its start to
					 * its last completion (and its end fdatasync) */
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
	/*
	 * --end-fsync: the fdatasync that ended a write or Mix pass (fio's
	 * end_fsync), timed inside the pass (seconds includes it): calls (0
	 * or 1) and their time, ns
	 */
	uint64_t end_fsyncs;
	uint64_t end_fsync_ns;
	/*
	 * the longest any I/O still in flight when the pass ended had waited
	 * by then (ns); 0 when none was, or unknown (files of schema 1):
	 * what says why a pass in which no I/O completed measured nothing
	 */
	uint64_t pending_max_ns;
	/*
	 * --rate-iops: starts later than max(1 ms, 1 / the rate) after their
	 * time on the schedule (docs/method.md, "Fixed rate"), and the
	 * latest of them (ns), when late_known (a paced I/O started in the
	 * pass, and was counted so: not in a file of an earlier cdm)
	 */
	uint64_t late_starts;
	uint64_t late_max_ns;
	int late_known;
	/*
	 * the longest time in the pass during which cdm itself did not run
	 * (its watch woke at least 100 ms later than it asked: the process
	 * was stopped, SIGSTOP or Ctrl-Z, or not scheduled), ns: time that
	 * did not pass for the device; 0 when none, or not watched (the
	 * gated schedule; a file of an earlier cdm)
	 */
	uint64_t paused_ns;
	/*
	 * the longest time in the pass during which the engine refused to
	 * start any I/O with none in flight (the kernel answering EAGAIN or
	 * EBUSY: an AIO queue or ring with no room), ns: no I/O could
	 * complete, and not for the device's want; 0 when none, or not
	 * known (a file of an earlier cdm)
	 */
	uint64_t busy_ns;
};

/*
 * enum cdm_pass_state - whether a pass (or a test, result.h; or one part of
 * a Mix pass) has figures, and if not, why.  The text of each is
 * cdm_pass_state_reason()'s, and JSON's "reason" (docs/output-formats.md).
 */
enum cdm_pass_state {
	CDM_PASS_MEASURED = 0,          /* I/O completed in a window of some length */
	CDM_PASS_NO_IO,                 /* no I/O completed in it */
	CDM_PASS_NO_TIME,               /* a window of no length (a damaged file) */
	CDM_PASS_NO_PASS,               /* a test only: no pass completed at all */
};

/* one part of a Mix pass (cdm_pass_part) */
enum cdm_part {
	CDM_PART_ALL = 0,               /* reads and writes together */
	CDM_PART_READS,
	CDM_PART_WRITES,
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

/*
 * cdm_pass_sum_overflow - add every count of @p that a sum of passes adds
 * up (those of cdm_pass_add(), and --end-fsync's calls and time, which a
 * window of passes adds too: cdm_result_window_pass()) to *@sum, checking
 * each sum.  Returns NULL when every one fits in 64 bits, else the name
 * of the first that does not, as cdm's JSON names it ("end_fsync.time_ns",
 * "bytes"), *@sum then partly added.
 * What a reader of a file asks before any report adds the passes up.
 */
const char *cdm_pass_sum_overflow(struct cdm_pass *sum, const struct cdm_pass *p);

/*
 * cdm_pass_state - CDM_PASS_MEASURED when @p has figures: at least one
 * I/O completed (ios > 0) in a window longer than 0 s; else
 * CDM_PASS_NO_TIME (seconds <= 0) or CDM_PASS_NO_IO.
 */
enum cdm_pass_state cdm_pass_state(const struct cdm_pass *p);

/*
 * cdm_pass_state_reason - "no I/O completed", "no time elapsed", "no pass
 * completed" for a state without figures; NULL for CDM_PASS_MEASURED.
 * Static strings; JSON's and CSV's "reason".
 */
const char *cdm_pass_state_reason(enum cdm_pass_state st);

/*
 * cdm_pass_part - @part of @p as a pass of its own in *@out: its bytes,
 * I/Os and latency sum (the reads, or the writes: the rest), with @p's
 * seconds and start; CPU, fsync and largest latency are not split (0).
 * CDM_PART_ALL copies @p.
 */
void cdm_pass_part(const struct cdm_pass *p, enum cdm_part part, struct cdm_pass *out);

/*
 * The figures of a pass, defined only when cdm_pass_state() is
 * CDM_PASS_MEASURED; otherwise NaN (not a number, never a 0 that reads
 * like a measurement: cdm_fmt_num() writes it as null).
 * cdm_pass_mb_s - bytes / seconds / 1e6 (MB/s = 10^6 bytes/s).
 * cdm_pass_iops - ios / seconds.
 * cdm_pass_mean_lat_ns - lat_sum_ns / ios.
 */
double cdm_pass_mb_s(const struct cdm_pass *p);
double cdm_pass_iops(const struct cdm_pass *p);
double cdm_pass_mean_lat_ns(const struct cdm_pass *p);

/*
 * cdm_pass_no_figure - the value of a figure with nothing measured behind
 * it: NaN, which every comparison treats as false; JSON writes it as null,
 * CSV as an empty field, the text and Markdown rows as "nothing measured"
 * (docs/method.md).
 */
double cdm_pass_no_figure(void);

#endif /* CDM_MODEL_PASS_H */
