/* SPDX-License-Identifier: MIT */
/*
 * progress.h - private to run/: the terminal's progress line on stderr
 * (cfg->progress), rewritten in place ("\r\033[K"), never wider than the
 * terminal, and its time left (plan/eta.h).  One line for the process:
 * the state is static, used by the runner's thread only (not
 * thread-safe, not async-signal-safe).
 */
#ifndef CDM_RUN_PROGRESS_H
#define CDM_RUN_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/model/result.h"
#include "cdm/plan/eta.h"
#include "cdm/plan/plan.h"

#define CDM_PROGRESS_NS 500000000ull    /* the line is redrawn every 500 ms at most */

/* cdm_progress_clear - erase the line if one is shown (cdm_msg_progress_clear) */
void cdm_progress_clear(void);

/*
 * cdm_progress_show - the line, replaced by @fmt as it is (no width
 * check, no time left); nothing unless @cfg->progress.
 */
void cdm_progress_show(const struct cdm_run_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * cdm_progress_eta_init - the run's tests (@res->tests[0..ntests), their
 * directions) for "test N of M" and the time left; with more than the
 * line can follow, no time left is shown.  Resets what the windows
 * measured so far.
 */
void cdm_progress_eta_init(const struct cdm_run_result *res);

/*
 * cdm_progress_window_ended - a gated window of @sched_s seconds ended
 * after @meas_s seconds: the scale of the time left of those ahead.
 */
void cdm_progress_window_ended(double meas_s, double sched_s);

/*
 * cdm_progress_phase_start - a phase (the preparation, a read-back)
 * starts at @t0_ns, CLOCK_MONOTONIC ns; cdm_progress_phase_left() - its
 * seconds left after @done of @total units, at the rate so far; -1
 * (unknown) before the first unit.
 */
void cdm_progress_phase_start(uint64_t t0_ns);
double cdm_progress_phase_left(uint64_t done, uint64_t total);

/*
 * cdm_progress_line - the line at @at: "test N of M" (not while
 * preparing), a body and the time left, within the terminal's width.
 * The body is the first of @alt[0..@n) that fits, each tried with two
 * spaces around it, then one; when none does, the last is cut at a space
 * (never inside a number), and never is the time left.  @at->gate_scale
 * is set here.  Nothing unless @cfg->progress, or for @n 0.
 */
void cdm_progress_line(const struct cdm_run_config *cfg, struct cdm_eta_at *at,
		       const char *const *alt, unsigned int n);

/* cdm_progress_at - cdm_progress_line() with one body, formatted (159 bytes at most) */
void cdm_progress_at(const struct cdm_run_config *cfg, struct cdm_eta_at *at,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * cdm_progress_rate - the line's figure into @buf (@len bytes, always
 * NUL-terminated): the MB/s of the @bytes completed in the last @ns, with
 * @prec decimals (3: right-aligned in 10 columns); when none completed,
 * "no I/O completed for 1.5 s" (@idle_ns, since the last completion or
 * the test's start): a window with nothing measured is never a "0.000
 * MB/s" (docs/method.md).
 */
void cdm_progress_rate(char *buf, size_t len, uint64_t bytes, uint64_t ns, uint64_t idle_ns,
		       int prec);

#endif /* CDM_RUN_PROGRESS_H */
