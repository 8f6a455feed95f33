/* SPDX-License-Identifier: MIT */
/*
 * steady.c - PTS's steady-state rule over a window of rounds (steady.h):
 * range and least-squares slope excursion, each against the window mean.
 */
#include "cdm/model/steady.h"

double cdm_steady_figure(const struct cdm_pass *p, enum cdm_pattern pattern)
{
	if (cdm_pass_state(p) != CDM_PASS_MEASURED)
		return cdm_pass_no_figure();
	return pattern == CDM_RND ? cdm_pass_iops(p) : cdm_pass_mb_s(p);
}

const char *cdm_steady_tracked_name(enum cdm_pattern pattern)
{
	return pattern == CDM_RND ? "iops" : "mb_s";
}

double cdm_steady_window_mean(const struct cdm_steady *st, const struct cdm_pass *passes,
			      unsigned int npasses, enum cdm_pattern pattern)
{
	unsigned int first = cdm_steady_first_pass(st, npasses), i;
	double sum = 0.0;

	if (first >= npasses)
		return cdm_pass_no_figure();
	for (i = first; i < npasses; i++)
		sum += cdm_steady_figure(&passes[i], pattern);    /* NaN stays NaN */
	return sum / (double)(npasses - first);
}

static double abs_d(double x)
{
	return x < 0 ? -x : x;
}

int cdm_steady_judge(const double *fig, unsigned int n, double *range_pct, double *slope_pct)
{
	double sum = 0, lo = 0, hi = 0, mean, xm, sxy = 0, sxx = 0, range, slope;
	unsigned int i;

	if (range_pct)
		*range_pct = cdm_pass_no_figure();
	if (slope_pct)
		*slope_pct = cdm_pass_no_figure();
	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		if (fig[i] != fig[i])
			return 0;
		if (!i || fig[i] < lo)
			lo = fig[i];
		if (!i || fig[i] > hi)
			hi = fig[i];
		sum += fig[i];
	}
	mean = sum / n;
	if (!(mean > 0))
		return 0;
	/* least squares over x = 0 .. n-1: slope = sum((x - xm)(y - ym)) / sum((x - xm)^2) */
	xm = (double)(n - 1) / 2.0;
	for (i = 0; i < n; i++) {
		sxy += ((double)i - xm) * (fig[i] - mean);
		sxx += ((double)i - xm) * ((double)i - xm);
	}
	slope = sxy / sxx;
	range = 100.0 * (hi - lo) / mean;
	/* the excursion: how far the line moves from the window's first round to its last */
	slope = 100.0 * abs_d(slope * (double)(n - 1)) / mean;
	if (range_pct)
		*range_pct = range;
	if (slope_pct)
		*slope_pct = slope;
	return range <= CDM_STEADY_RANGE_PCT && slope <= CDM_STEADY_SLOPE_PCT;
}

int cdm_steady_update(struct cdm_steady *st, const struct cdm_pass *passes, unsigned int npasses,
		      enum cdm_pattern pattern)
{
	double fig[CDM_STEADY_WINDOW];
	unsigned int first = cdm_steady_first_pass(st, npasses), i;
	int steady;

	st->window_rounds = npasses - first;
	if (st->window_rounds < CDM_STEADY_WINDOW) {
		cdm_steady_judge(fig, 0, &st->range_pct, &st->slope_pct);
		return st->reached_at_round != 0;
	}
	for (i = 0; i < CDM_STEADY_WINDOW; i++)
		fig[i] = cdm_steady_figure(&passes[first + i], pattern);
	steady = cdm_steady_judge(fig, CDM_STEADY_WINDOW, &st->range_pct, &st->slope_pct);
	if (steady && !st->reached_at_round)
		st->reached_at_round = npasses;
	return st->reached_at_round != 0;
}

unsigned int cdm_steady_first_pass(const struct cdm_steady *st, unsigned int npasses)
{
	if (!st->on || npasses <= CDM_STEADY_WINDOW)
		return 0;
	return npasses - CDM_STEADY_WINDOW;
}
