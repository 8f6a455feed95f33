/* SPDX-License-Identifier: MIT */
/*
 * cdm/plan/eta.h - the time a run has left, from its plan: what the
 * progress line on a terminal ends with ("2m10s left"), as fio's eta.
 *
 * The plan fixes most of a run's length: per test a warm-up and `count`
 * passes of `time` seconds (docs/method.md, "Order and schedule"), and
 * `interval` seconds between two tests.  What the plan cannot know, the
 * caller measures and hands in: how long the preparation or a --verify
 * read-back still takes (from its rate so far), and how much longer than
 * `time` a gated window (--end-fsync, --steady-state) really runs, drain
 * and flush included.  With --steady-state every test runs at most
 * `count` rounds (its --max-rounds) and ends early when steady, so the
 * time left is an upper bound.  Pure arithmetic: nothing here reads a
 * clock.
 */
#ifndef CDM_PLAN_ETA_H
#define CDM_PLAN_ETA_H

#include <stddef.h>

#include "cdm/model/result.h"
#include "cdm/plan/plan.h"

/* where a run is, for cdm_eta_left() */
enum cdm_eta_phase {
	CDM_ETA_PREPARE,        /* writing the test file (or --precondition) before test 0 */
	CDM_ETA_INTERVAL,       /* the --interval pause before test `test` */
	CDM_ETA_WINDOW,         /* test `test`, window `win` */
	CDM_ETA_VERIFY,         /* --verify's read-back after test `test` */
};

struct cdm_eta_at {
	enum cdm_eta_phase phase;
	unsigned int test;      /* the test, 0-based in run order (PREPARE: 0) */
	unsigned int win;       /* WINDOW: 0 = the warm-up, k = pass or round k (1 .. count) */
	double elapsed;         /* WINDOW: seconds since the window started */
	/*
	 * PREPARE, INTERVAL, VERIFY: seconds of that phase still to come, as
	 * the caller measured it (the interval's clock, the rate of the bytes
	 * written or read so far); negative when it cannot be known yet (no
	 * byte done): then the answer is unknown too.
	 */
	double phase_left;
	/*
	 * Gated windows (--end-fsync on a write or Mix test, --steady-state):
	 * their measured length over their scheduled one, summed over every
	 * gated window the run has ended so far (>= 1: drain and flush only
	 * add); 0 when none has ended yet: then a gated window counts as its
	 * `time` and the answer is approximate.
	 */
	double gate_scale;
};

/* what cdm_eta_left() answers */
struct cdm_eta {
	double seconds;         /* left, >= 0; NaN when unknown (phase_left < 0) */
	int at_most;            /* --steady-state rounds ahead, counted at their most */
	int approx;             /* gated windows ahead counted at their `time` (none measured) */
	int plus_verify;        /* --verify read-backs ahead, not counted (their size is unknown) */
};

/*
 * cdm_eta_gated - does test @dir of a run with @cfg run the gated
 * schedule (--steady-state on every test, --end-fsync on a write or Mix
 * test)?  The runner's rule (run/runner.c, test_alloc()).  Returns 1 or 0.
 */
int cdm_eta_gated(const struct cdm_run_config *cfg, enum cdm_dir dir);

/*
 * cdm_eta_left - the seconds a run of @cfg has left at @at: what is left
 * of the current phase (of its window: the window's length less
 * at->elapsed, never below 0; gated, the length times at->gate_scale),
 * the rest of the current test's windows, its --verify read-back, then
 * for each test after it the interval before it, its warm-up and its
 * `count` passes (cfg->warmup_ms, cfg->time_ms, cfg->interval_ms; the
 * result in seconds).
 * @dirs[0..@ntests) are the tests' directions in run order
 * (cdm_plan_tests()).  A read-back not yet started is not counted (sets
 * plus_verify); one under way is at->phase_left.  Fills *@out.
 */
void cdm_eta_left(const struct cdm_run_config *cfg, const enum cdm_dir *dirs,
		  unsigned int ntests, const struct cdm_eta_at *at, struct cdm_eta *out);

/*
 * cdm_eta_format - @eta as the progress line's words into @buf (@len
 * bytes, NUL-terminated, truncated if too small): "42s left", "2m10s
 * left", "1h02m left" (seconds rounded up, so "0s left" only at the very
 * end; minutes rounded up above an hour), "at most 2m10s left" with
 * --steady-state rounds ahead, "~2m10s left" when approximate,
 * "2m10s left + verify" when read-backs are not counted; "" when the
 * seconds are unknown.  Returns the length written.
 */
size_t cdm_eta_format(const struct cdm_eta *eta, char *buf, size_t len);

#endif /* CDM_PLAN_ETA_H */
