/* SPDX-License-Identifier: MIT */
/*
 * eta.c - the time a run has left, from its plan and what the caller
 * measured (cdm/plan/eta.h), and its words on the progress line.
 */
#include <math.h>
#include <stdio.h>

#include "cdm/plan/eta.h"

int cdm_eta_gated(const struct cdm_run_config *cfg, enum cdm_dir dir)
{
	return cfg->steady_state || (cfg->end_fsync && dir != CDM_DIR_READ);
}

/* what the tests ahead add up to, and what they leave uncounted */
struct sum {
	double s;
	int at_most, approx, plus_verify;
};

/* window @win of a test (0: the warm-up), scheduled, in seconds (the plan's are ms) */
static double win_len(const struct cdm_run_config *cfg, unsigned int win)
{
	return (double)(win ? cfg->time_ms : cfg->warmup_ms) / 1e3;
}

/*
 * Windows @from .. count of a test in direction @dir, all of their
 * length, and its --verify read-back after them.
 */
static void add_windows(const struct cdm_run_config *cfg, enum cdm_dir dir, unsigned int from,
			double scale, struct sum *sum)
{
	int gated = cdm_eta_gated(cfg, dir);

	for (unsigned int w = from; w <= cfg->count; w++) {
		double len = win_len(cfg, w);

		if (len <= 0)
			continue;
		sum->s += gated && scale > 0 ? len * scale : len;
		if (gated && scale <= 0)
			sum->approx = 1;
		/* a steady test may end after any round before its last */
		if (cfg->steady_state && w >= 1)
			sum->at_most = 1;
	}
	if (cfg->verify && dir != CDM_DIR_READ)
		sum->plus_verify = 1;
}

void cdm_eta_left(const struct cdm_run_config *cfg, const enum cdm_dir *dirs,
		  unsigned int ntests, const struct cdm_eta_at *at, struct cdm_eta *out)
{
	struct sum sum = { 0 };
	double scale = at->gate_scale;
	unsigned int next = at->test + 1;      /* the first test counted whole */

	switch (at->phase) {
	case CDM_ETA_PREPARE:
		sum.s = at->phase_left;
		next = 0;
		break;
	case CDM_ETA_INTERVAL:
		sum.s = at->phase_left;
		if (at->test < ntests)
			add_windows(cfg, dirs[at->test], 0, scale, &sum);
		break;
	case CDM_ETA_WINDOW:
		if (at->test < ntests && at->win <= cfg->count) {
			int gated = cdm_eta_gated(cfg, dirs[at->test]);
			double len = win_len(cfg, at->win);

			if (gated && scale > 0)
				len *= scale;
			if (gated && scale <= 0)
				sum.approx = 1;
			sum.s = len > at->elapsed ? len - at->elapsed : 0;
			/* the current window runs to its end, steady or not */
			add_windows(cfg, dirs[at->test], at->win + 1, scale, &sum);
		}
		break;
	case CDM_ETA_VERIFY:
		sum.s = at->phase_left;
		break;
	}
	for (unsigned int i = next; i < ntests; i++) {
		if (i > 0)
			sum.s += (double)cfg->interval_ms / 1e3;
		add_windows(cfg, dirs[i], 0, scale, &sum);
	}
	out->seconds = at->phase != CDM_ETA_WINDOW && at->phase_left < 0 ? NAN : sum.s;
	out->at_most = sum.at_most;
	out->approx = sum.approx;
	out->plus_verify = sum.plus_verify;
}

size_t cdm_eta_format(const struct cdm_eta *eta, char *buf, size_t len)
{
	unsigned long long s;
	char t[48];
	int n;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (!(eta->seconds >= 0))
		return 0;       /* unknown (NaN) */
	/* rounded up: "0s left" means nothing is left */
	s = eta->seconds < 1e12 ? (unsigned long long)eta->seconds : 999999999999ull;
	if ((double)s < eta->seconds && s < 999999999999ull)
		s++;
	if (s < 60) {
		snprintf(t, sizeof(t), "%llus", s);
	} else if (s < 3600) {
		snprintf(t, sizeof(t), "%llum%02llus", s / 60, s % 60);
	} else {
		unsigned long long m = (s + 59) / 60;

		snprintf(t, sizeof(t), "%lluh%02llum", m / 60, m % 60);
	}
	n = snprintf(buf, len, "%s%s%s left%s", eta->at_most ? "at most " : "",
		     eta->approx ? "~" : "", t, eta->plus_verify ? " + verify" : "");
	if (n < 0)
		return 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}
