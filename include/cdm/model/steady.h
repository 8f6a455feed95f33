/* SPDX-License-Identifier: MIT */
/*
 * cdm/model/steady.h - steady state (--steady-state), by the rule of the
 * SNIA Solid State Storage Performance Test Specification (PTS), section
 * "Steady State": a test's passes are rounds, and the rounds are steady
 * when, over a measurement window of 5 consecutive rounds, the tracked
 * figure (IOPS for random tests, MB/s for sequential ones)
 *
 *   - has a range (largest - smallest) of at most 20 % of the window's mean,
 *   - and the least-squares line through the window's figures rises or
 *     falls, from the window's first round to its last, by at most 10 % of
 *     that mean (PTS's "slope excursion").
 *
 * docs/method.md ("Steady state") says how the runner uses it: rounds
 * until the window ending at a round is steady or --max-rounds is reached,
 * and the report's figures over the last window only.
 */
#ifndef CDM_MODEL_STEADY_H
#define CDM_MODEL_STEADY_H

#include "cdm/model/pass.h"
#include "cdm/model/spec.h"

#define CDM_STEADY_WINDOW 5u                  /* rounds in the measurement window (PTS) */
#define CDM_STEADY_RANGE_PCT 20.0             /* largest range, % of the window mean (PTS) */
#define CDM_STEADY_SLOPE_PCT 10.0             /* largest slope excursion, % of the mean (PTS) */
#define CDM_STEADY_MAX_ROUNDS_DEFAULT 25u     /* --max-rounds (PTS: 25 rounds) */

/*
 * struct cdm_steady - a test's steady-state verdict (struct
 * cdm_test_result.steady).  All 0 for a test run without --steady-state.
 * @on:               1: the test ran as rounds until steady (its passes are
 *                    the rounds, in order)
 * @max_rounds:       the most rounds it could run (--max-rounds)
 * @reached_at_round: the round (1-based) that completed the first steady
 *                    window; 0 when the rounds never got steady
 * @window_rounds:    rounds in the window the figures come from: the last
 *                    CDM_STEADY_WINDOW rounds, or all when fewer ran
 * @range_pct:        the last window judged: its range, % of its mean; NaN
 *                    when fewer than CDM_STEADY_WINDOW rounds ran, or the
 *                    window had no figure in a round
 * @slope_pct:        its slope excursion, % of its mean (absolute); NaN as
 *                    @range_pct
 */
struct cdm_steady {
	int on;
	unsigned int max_rounds;
	unsigned int reached_at_round;
	unsigned int window_rounds;
	double range_pct;
	double slope_pct;
};

/*
 * cdm_steady_figure - the figure steady state tracks for one round @p of a
 * test of @pattern: IOPS for CDM_RND, MB/s (10^6 bytes/s) for CDM_SEQ (PTS
 * tracks IOPS for its random tests and MB/s for its throughput tests).
 * Returns NaN (cdm_pass_no_figure()) when the round measured nothing.
 */
double cdm_steady_figure(const struct cdm_pass *p, enum cdm_pattern pattern);

/*
 * cdm_steady_tracked_name - the key of the figure cdm_steady_figure()
 * tracks for @pattern, as JSON and CSV name it: "iops" for CDM_RND,
 * "mb_s" for CDM_SEQ.  Static.
 */
const char *cdm_steady_tracked_name(enum cdm_pattern pattern);

/*
 * cdm_steady_window_mean - the mean of the tracked figure
 * (cdm_steady_figure()) over the rounds the figures of a test of
 * @pattern come from: passes [cdm_steady_first_pass(@st, @npasses),
 * @npasses) of @passes.  NaN when there is no such round or one of them
 * measured nothing (a window with a gap has no mean, as PTS judges none).
 */
double cdm_steady_window_mean(const struct cdm_steady *st, const struct cdm_pass *passes,
			      unsigned int npasses, enum cdm_pattern pattern);

/*
 * cdm_steady_judge - PTS's rule over the @n figures @fig[0..n) of one
 * window, in round order.  Writes the range and the slope excursion, each
 * as a % of the window's mean, to @range_pct and @slope_pct (either may be
 * NULL; NaN when @n < 2, a figure is NaN, or the mean is not > 0).
 * Returns 1 when steady (range <= CDM_STEADY_RANGE_PCT and slope excursion
 * <= CDM_STEADY_SLOPE_PCT), else 0; never steady with NaN figures.
 */
int cdm_steady_judge(const double *fig, unsigned int n, double *range_pct, double *slope_pct);

/*
 * cdm_steady_update - judge the window of @st ending at the last of the
 * @npasses rounds @passes of a test of @pattern, and keep the verdict in
 * @st: window_rounds, range_pct and slope_pct always; reached_at_round
 * (= @npasses) the first time a full window is steady, never changed
 * after.  Call after each round; @st->on must be set.  Returns 1 when
 * the rounds are steady (now or before), else 0.
 */
int cdm_steady_update(struct cdm_steady *st, const struct cdm_pass *passes, unsigned int npasses,
		      enum cdm_pattern pattern);

/*
 * cdm_steady_first_pass - the first of @npasses passes the figures of a
 * test come from: 0 without steady state (@st->on 0: every pass); with it,
 * the first round of the last window (the last CDM_STEADY_WINDOW rounds).
 */
unsigned int cdm_steady_first_pass(const struct cdm_steady *st, unsigned int npasses);

#endif /* CDM_MODEL_STEADY_H */
