/* SPDX-License-Identifier: MIT */
/*
 * detect.h - the detectors that read a time series or a load curve: a
 * burst (a fast start that falls to a lower steady level), a flat ceiling
 * (a cap the load cannot raise) and the knee of a load curve.  The rules
 * are docs/method.md's ("Time series").
 */
#ifndef CDM_MODEL_DETECT_H
#define CDM_MODEL_DETECT_H

#include <stdint.h>

#include "cdm/model/result.h"
#include "cdm/model/series.h"

/*
 * cdm_detect_burst - does @x (n values in time order) start high and fall
 * to a lower steady level?  Rule (docs/method.md): n >= 6; the split d
 * (2 <= d <= n - 3) that best fits two levels (least absolute deviation
 * from the medians H of x[0..d) and L of x[d..n)); a burst when H >= 1.3 L,
 * at least 75 % of the head is above 1.15 L and within 20 % of H, and at
 * least 75 % of the tail is within 15 % of L; and the low level lasts to
 * the end: the last max(2, ceil(tail / 4)) values are all within 15 % of
 * L and no value of the tail is back above both 1.15 L and 0.8 H (a dip
 * that recovers is no burst).  Fills @b; returns b->found.
 */
int cdm_detect_burst(const double *x, unsigned int n, struct cdm_burst *b);

/* one point of a load curve: Q x T, a throughput figure, mean latency */
struct cdm_load_point {
	double load;
	double value;                   /* IOPS or MB/s */
	double lat;                     /* mean latency, any unit */
	double flat;                    /* share of its intervals within 5 % of its
					 * own maximum, 0..1; < 0 when unknown */
	double mb_s, iops;              /* its MB/s and IOPS, for the finding's
					 * text (the ceiling's mb_s and iops); 0
					 * when unknown */
};

/*
 * cdm_detect_knee - @p sorted by load: the first point i (not the last)
 * after which no point raises the value by 10 % or more over p[i] while
 * every later point has a higher latency.  Returns i, or -1 (no knee: the
 * figure still grows, or latency does not rise).
 */
int cdm_detect_knee(const struct cdm_load_point *p, unsigned int n);

/*
 * cdm_detect_ceiling - @p sorted by load: a flat ceiling when, M being the
 * highest value, the points from the first one at >= 0.95 M on all stay
 * >= 0.95 M, there are at least two of them, the latency at the last is
 * at least 1.25 x the latency at the first, and each of them whose
 * flatness is known has flat >= 0.8.  Fills @c (c->mb_s and c->iops: the
 * means of the points' own mb_s and iops); returns c->found.
 */
int cdm_detect_ceiling(const struct cdm_load_point *p, unsigned int n, struct cdm_ceiling *c);

/*
 * cdm_detect_analyze - run the burst detector on every test's series and
 * the ceiling detector on every group of tests with the same direction,
 * pattern and block (loads Q x T), storing what was found in the series,
 * each level in MB/s and in IOPS, both from the measured counts.  Tests
 * without a series are skipped.  Nothing is printed: the notes that say
 * the findings are format/findings.h's (cdm_findings_run_notes()).
 */
void cdm_detect_analyze(struct cdm_run_result *r);

#endif /* CDM_MODEL_DETECT_H */
