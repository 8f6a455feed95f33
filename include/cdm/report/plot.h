/* SPDX-License-Identifier: MIT */
/*
 * cdm/report/plot.h - line charts as SVG, written by cdm itself (no plotting
 * library, no JavaScript): one or more panels stacked vertically, each with
 * axes, "nice" 1-2-5 ticks, axis labels with units, a title and a legend.
 * Used by --plot for the time series and by cdm sweep (docs/method.md).
 */
#ifndef CDM_PLOT_H
#define CDM_PLOT_H

#include <stdio.h>

/*
 * one line of a panel: @n points (x[i], y[i]), drawn with markers of its
 * colour's shape on them (struct cdm_plot_panel's markers), which its
 * legend entry shows too, so that lines are told apart without colour
 */
struct cdm_plot_line {
	const char *name;               /* legend text */
	unsigned int n;
	const double *x;
	const double *y;
	int dashed;                     /* dashed stroke, its markers white inside */
	int color;                      /* palette index; lines with the same
					 * index share a colour and a marker
					 * shape (circle, square, triangle,
					 * diamond, triangle down, plus in turn) */
	int has_knee;                   /* ring and label "knee" at point @knee */
	unsigned int knee;
	int no_legend;                  /* not listed in the legend */
	/*
	 * with x_lo < x_hi, the stretch of x the points stand for, which a
	 * linear axis covers whole (cdm_plot_x_span()): points at the middles
	 * of intervals, from the first interval's start to the last one's end
	 */
	double x_lo, x_hi;
};

/*
 * a stretch of the x axis, shaded and labelled: a pass of a test (the
 * warm-up, "pass 1", ...) from x0 to x1 in the x axis' unit
 */
struct cdm_plot_band {
	double x0, x1;
	const char *label;              /* drawn inside the band where it fits, and
					 * as the band's tooltip (<title>) unless @tip */
	const char *tip;                /* the tooltip instead of @label, or NULL */
};

/*
 * one row of a panel of lanes (struct cdm_plot_panel's lanes): the passes
 * of one test as boxes along the panel's time axis, each from x0 to x1
 * (the x axis' unit), its label (a round's number) inside where it fits,
 * its tooltip always; the boxes [win0, win1) are the window the test's
 * figures come from, dark with white labels inside one black outline
 * whose tooltip is @win_tip, so that it reads in greyscale.  Right of the
 * plot area, as in a legend: a swatch of the test's line colour and
 * marker, @name, and under it @note in smaller type.
 */
struct cdm_plot_lane {
	const char *name;
	const char *note;               /* or NULL */
	int color;                      /* palette index, as the test's line */
	unsigned int nboxes;
	const struct cdm_plot_band *boxes;
	unsigned int win0, win1;        /* win0 == win1: no window */
	const char *win_tip;            /* or NULL */
};

#define CDM_PLOT_NOTES 4

struct cdm_plot_panel {
	const char *title;
	const char *xlabel;             /* with the unit: "time (s)" */
	const char *ylabel;             /* with the unit: "MB/s" */
	unsigned int nlines;
	const struct cdm_plot_line *lines;
	int x_categories;               /* x values equally spaced, one tick each
					 * (threads 1, 2, 4, ...); else linear */
	int markers;                    /* a marker at each point; else at most
					 * 12 spread along each line (a line of
					 * one point is its marker) */
	int has_mark;                   /* a dashed vertical line at mark_x */
	double mark_x;
	const char *mark_label;
	/*
	 * bands under the lines, shaded in turn (light grey, lighter grey), a
	 * solid line where one starts, its label at its top; for a time axis
	 * (not x_categories)
	 */
	unsigned int nbands;
	const struct cdm_plot_band *bands;
	/* lines of text under the legend ("no knee: ..."); NULL = none */
	const char *note[CDM_PLOT_NOTES];
	/*
	 * lanes: the panel draws @nlanes rows of boxes (struct
	 * cdm_plot_lane), one under the other, instead of its lines, and no
	 * y axis; its lines only set its x axis (give it those of the panel
	 * above it, and the two share one axis); its height is that of its
	 * rows (CDM_PLOT_LANE_H px each) and its axes, not a line panel's
	 */
	unsigned int nlanes;
	const struct cdm_plot_lane *lanes;
	/*
	 * with x_lo < x_hi, a stretch the linear x axis covers besides its
	 * lines', bands and boxes (cdm_plot_x_span()): another panel's span,
	 * for the two to share one axis
	 */
	double x_lo, x_hi;
};

#define CDM_PLOT_LANE_H 30              /* px, one row of a panel of lanes */

/* ticks from lo to hi (both on the 1-2-5 grid) every step; n ticks */
struct cdm_ticks {
	double lo, hi, step;
	unsigned int n;
};

/*
 * cdm_plot_ticks - "nice" ticks covering [@min, @max] with about @target
 * intervals: step = 1, 2 or 5 x 10^k, the smallest such step giving at
 * most @target intervals; lo = the largest multiple of step <= @min, hi =
 * the smallest multiple >= @max.  An empty range (min == max) is widened
 * to [0, max] or, for 0, [0, 1].  @target >= 1.  Returns 0, or -EINVAL
 * (min > max, or not finite).
 */
int cdm_plot_ticks(double min, double max, unsigned int target, struct cdm_ticks *t);

/*
 * cdm_plot_tick_label - @v as a tick label with the decimals that @step
 * needs (0 for steps >= 1), "-0" printed as "0".  Returns @buf.
 */
char *cdm_plot_tick_label(char *buf, size_t len, double v, double step);

/*
 * cdm_plot_x_span - the stretch of x that panel @p's axis covers, into
 * [*@lo, *@hi] (its ticks widen it to the 1-2-5 grid): its lines' points
 * with a finite y, and on a linear axis (not x_categories) each line's
 * stretch and the panel's [x_lo, x_hi] where x_lo < x_hi, and each band
 * and each lane's box that is not empty, so that none is cut at the
 * axis' ends.  Returns 1, or 0 (and [0, 0]) when @p has nothing to cover.
 */
int cdm_plot_x_span(const struct cdm_plot_panel *p, double *lo, double *hi);

/*
 * cdm_plot_svg - write a standalone SVG document of @np panels under
 * @title (and @subtitle, may be NULL) to @out.  Returns 0, or -EIO when
 * the stream reports an error.
 */
int cdm_plot_svg(FILE *out, const char *title, const char *subtitle,
		 const struct cdm_plot_panel *p, unsigned int np);

struct cdm_run_result;

/*
 * cdm_plot_series - the --plot chart of a run with --log-interval: per
 * pattern present (SEQ, then RND), a panel of every test's MB/s (SEQ) or
 * IOPS (RND) over time (s from the start of its warm-up; each interval's
 * figure at the interval's middle, the axis from the first interval's
 * start to the last one's end) and a panel of
 * its mean (solid) and p99 (dashed) latency, in us or, above 10 ms, in ms;
 * the warm-up and each measured pass are bands labelled "warm-up", "pass
 * 1", ..., placed by the passes' start times and lengths (struct cdm_pass)
 * against the series' own clock (the start of the first interval of pass
 * 1), never by the schedule the run asked for.  With --steady-state, where
 * each test runs its own number of rounds, the two panels have no bands;
 * between them a panel of lanes (struct cdm_plot_lane) on the same time
 * axis has one row per test: its rounds as numbered boxes, placed so, and
 * the window its figures come from (cdm_result_first_pass(),
 * model/result.h) dark and outlined, the outline's tooltip "SEQ1M Q8T1
 * Read: steady window, rounds 3-7" or "...: last window (not steady),
 * rounds 21-25", and beside the row the test's name over "steady at round
 * 7, window 3-7", "not steady, last window 21-25" or, stopped before a
 * full window, "not steady, only 3 rounds".  Returns 0, -EINVAL when
 * no test has a series, -ENOMEM or -EIO.
 */
int cdm_plot_series(FILE *out, const struct cdm_run_result *r);

#endif /* CDM_PLOT_H */
