/* SPDX-License-Identifier: MIT */
/*
 * plot_series.c - the --plot chart of a run with --log-interval
 * (include/cdm/report/plot.h).  Sequential and random tests differ by orders of magnitude
 * in MB/s and in latency, so each pattern gets its own pair of panels, as
 * CrystalDiskMark users read them: SEQ in MB/s, RND in IOPS, each with its
 * mean latency below and its p99 latency under that, each on an axis of
 * its own (a p99 ten times the mean would press the mean to the floor of
 * a shared one), a test in the same colour in all three.  Every value
 * is the interval's own figure from the result model; x is the middle of
 * the interval, in seconds from the start of the test's warm-up, and the
 * time axis runs from the first interval's start to the last one's end
 * (a pass of one interval is one point in the middle of its band).  The
 * warm-up and each pass are shaded bands, placed by the passes' own start
 * times and lengths.  With --steady-state each test has rounds and a
 * window of its own, so between the pair a panel of lanes, one per test on
 * the same time axis, shows each test's rounds and its window.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cdm/report/plot.h"
#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/format/fmt.h"

#define NAME_LEN 80
#define BAND_LABEL 24          /* "pass 4294967295" */
#define ROUND_TIP (NAME_LEN + 40)

/* the bands of one panel: the warm-up and each measured pass */
struct pass_bands {
	unsigned int n;
	struct cdm_plot_band b[CDM_MAX_PASSES + 1];
	char label[CDM_MAX_PASSES + 1][BAND_LABEL];
};

/* the texts of one test's lane of rounds (--steady-state) */
struct round_row {
	struct cdm_plot_band box[CDM_MAX_PASSES];
	char num[CDM_MAX_PASSES][12];
	char tip[CDM_MAX_PASSES][ROUND_TIP];
	char name[NAME_LEN];
	char note[80];
	char win_tip[NAME_LEN + 64];
};

/* what the chart is drawn from, gathered pattern by pattern */
struct chart {
	struct cdm_plot_line *thr, *mean, *p99; /* per test: its line in each panel */
	char (*names)[NAME_LEN];
	double **bufs;
	unsigned int nl, nb;
	struct cdm_plot_lane *lanes;            /* per test run as rounds */
	struct round_row *rows;
	unsigned int nlanes;
	struct pass_bands pb[2];                /* per pattern */
	struct cdm_plot_panel p[8];             /* per pattern: throughput, rounds, mean, p99 */
	unsigned int np;
};

/*
 * The first interval of pass 1 in @t's series, whose start is pass 1's
 * start on the chart's clock (s from the start of the test's warm-up);
 * NULL when @t has no series, no pass, or no wall clock times (0: unknown,
 * files of schema 1)
 */
static const struct cdm_series_point *pass1_point(const struct cdm_test_result *t)
{
	if (!t->series || !t->npasses || !t->passes[0].start_unix_ns)
		return NULL;
	for (unsigned int k = 0; k < t->series->npoints; k++)
		if (t->series->points[k].pass == 1)
			return &t->series->points[k];
	return NULL;
}

/* where pass @k of @t starts on the chart's clock, s: from pass 1's start (@p1), ns, then s */
static double pass_x(const struct cdm_test_result *t, const struct cdm_series_point *p1,
		     unsigned int k)
{
	return ((double)p1->start_ns +
		((double)t->passes[k].start_unix_ns - (double)t->passes[0].start_unix_ns)) / 1e9;
}

/*
 * The passes of the tests of pattern @pat as bands on the chart's time
 * axis, from the result model alone: each measured pass from its start
 * time (start_unix_ns) and its length (seconds) on the series' clock
 * (pass1_point()); the warm-up from the series' origin to pass 1.  The
 * test with the most passes gives them (without --steady-state the tests
 * of a run share one schedule; one stopped early has fewer).  A test
 * without wall clock times gives none.
 */
static void pass_bands(const struct cdm_run_result *r, int pat, struct pass_bands *pb)
{
	const struct cdm_test_result *best = NULL;
	const struct cdm_series_point *first = NULL;

	pb->n = 0;
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		const struct cdm_series_point *p1 = pass1_point(t);

		if ((int)t->spec.pattern != pat || !p1)
			continue;
		if (!best || t->npasses > best->npasses) {
			best = t;
			first = p1;
		}
	}
	if (!best)
		return;
	if (first->start_ns) {
		pb->b[pb->n] = (struct cdm_plot_band){ 0, (double)first->start_ns / 1e9, "warm-up", NULL };
		pb->n++;
	}
	for (unsigned int k = 0; k < best->npasses && k < CDM_MAX_PASSES; k++) {
		const struct cdm_pass *ps = &best->passes[k];
		double x0 = pass_x(best, first, k);

		if (!ps->start_unix_ns || !(ps->seconds > 0))
			continue;
		snprintf(pb->label[pb->n], BAND_LABEL, "pass %u", k + 1);
		pb->b[pb->n] = (struct cdm_plot_band){ x0, x0 + ps->seconds, pb->label[pb->n], NULL };
		pb->n++;
	}
}

/*
 * @t's rounds (--steady-state) as a lane of the rounds panel in *@ln, its
 * texts in @rr, in line colour @color: each round a box placed as
 * pass_bands() places a pass, numbered; the window the figures come from
 * (cdm_result_first_pass() to the last round) dark, with the note "steady
 * at round 8, window 4-8", "not steady, last window 21-25" or, with fewer
 * rounds than a window, "not steady, only 3 rounds", and the
 * tooltip "RND4K Q32T1 Read: steady window, rounds 4-8" or "...: last
 * window (not steady), rounds 21-25".  0 when @t has no lane (not run as
 * rounds, or no series or pass times).
 */
static int round_lane(const struct cdm_test_result *t, int color, struct round_row *rr,
		      struct cdm_plot_lane *ln)
{
	const struct cdm_series_point *p1 = pass1_point(t);
	unsigned int n = t->npasses < CDM_MAX_PASSES ? t->npasses : CDM_MAX_PASSES;
	unsigned int first = cdm_result_first_pass(t);
	char spec[64];

	if (!t->steady.on || !p1)
		return 0;
	cdm_spec_name(&t->spec, spec, sizeof(spec));
	snprintf(rr->name, NAME_LEN, "%s %s", spec, cdm_result_dir_name(t->dir));
	for (unsigned int k = 0; k < n; k++) {
		const struct cdm_pass *ps = &t->passes[k];
		double x0 = pass_x(t, p1, k);

		snprintf(rr->num[k], sizeof(rr->num[k]), "%u", k + 1);
		snprintf(rr->tip[k], ROUND_TIP, "%s round %u%s", rr->name, k + 1,
			 k >= first ? " (window)" : "");
		/* a round without its times: no box (an empty one is not drawn) */
		rr->box[k] = (struct cdm_plot_band){ x0, ps->start_unix_ns && ps->seconds > 0 ?
						     x0 + ps->seconds : x0, rr->num[k], rr->tip[k] };
	}
	if (t->steady.reached_at_round)
		snprintf(rr->note, sizeof(rr->note), "steady at round %u, window %u-%u",
			 t->steady.reached_at_round, first + 1, n);
	else if (n - first < CDM_STEADY_WINDOW)
		snprintf(rr->note, sizeof(rr->note), "not steady, only %u round%s", n,
			 n == 1 ? "" : "s");
	else
		snprintf(rr->note, sizeof(rr->note), "not steady, last window %u-%u", first + 1, n);
	snprintf(rr->win_tip, sizeof(rr->win_tip), "%s: %s, rounds %u-%u", rr->name,
		 t->steady.reached_at_round ? "steady window" : "last window (not steady)",
		 first + 1, n);
	*ln = (struct cdm_plot_lane){ .name = rr->name, .note = rr->note, .color = color,
				      .nboxes = n, .boxes = rr->box, .win0 = first, .win1 = n,
				      .win_tip = rr->win_tip };
	return 1;
}

/*
 * @t's lines (pattern @pat) into the chart: its MB/s (SEQ) or IOPS (RND),
 * its mean and p99 latency (us; NaN, a gap, where no I/O completed), each
 * point at the middle of its interval, each line standing for the stretch
 * from the first interval's start to the last one's end; the largest mean
 * and p99 raised into @lmax[0] and @lmax[1]; and its lane of rounds.
 * -ENOMEM.
 */
static int test_lines(struct chart *c, const struct cdm_test_result *t, int pat, double *lmax)
{
	const struct cdm_series *s = t->series;
	const struct cdm_series_point *last = &s->points[s->npoints - 1];
	double *x, *y, *lm, *lp;
	char spec[64];

	x = c->bufs[c->nb++] = malloc(s->npoints * sizeof(double));
	y = c->bufs[c->nb++] = malloc(s->npoints * sizeof(double));
	lm = c->bufs[c->nb++] = malloc(s->npoints * sizeof(double));
	lp = c->bufs[c->nb++] = malloc(s->npoints * sizeof(double));
	if (!x || !y || !lm || !lp)
		return -ENOMEM;
	for (unsigned int k = 0; k < s->npoints; k++) {
		const struct cdm_series_point *pt = &s->points[k];

		x[k] = ((double)pt->start_ns + (double)pt->duration_ns / 2) / 1e9;
		y[k] = pat == CDM_SEQ ? cdm_series_point_mb_s(pt) : cdm_series_point_iops(pt);
		/* no I/O completed: no latency (a gap, not a 0) */
		lm[k] = pt->ios ? cdm_series_point_lat_us(pt) : 0.0 / 0.0;
		lp[k] = pt->ios ? (double)pt->lat_p99_ns / 1e3 : 0.0 / 0.0;
		if (pt->ios && lm[k] > lmax[0])
			lmax[0] = lm[k];
		if (pt->ios && lp[k] > lmax[1])
			lmax[1] = lp[k];
	}
	cdm_spec_name(&t->spec, spec, sizeof(spec));
	snprintf(c->names[c->nl], NAME_LEN, "%s %s", spec, cdm_result_dir_name(t->dir));
	c->thr[c->nl] = (struct cdm_plot_line){ .name = c->names[c->nl], .n = s->npoints,
						.x = x, .y = y, .color = (int)c->nl,
		.x_lo = (double)s->points[0].start_ns / 1e9,
		.x_hi = ((double)last->start_ns + (double)last->duration_ns) / 1e9 };
	c->mean[c->nl] = c->thr[c->nl];
	c->mean[c->nl].y = lm;
	c->p99[c->nl] = c->thr[c->nl];
	c->p99[c->nl].y = lp;
	if (round_lane(t, (int)c->nl, &c->rows[c->nlanes], &c->lanes[c->nlanes]))
		c->nlanes++;
	c->nl++;
	return 0;
}

/*
 * Lines @l[0 .. @n) in ms once @max (us) passes 10 ms: shorter tick labels.
 * Returns the axis label, @us or @ms.
 */
static const char *lat_unit(const struct cdm_plot_line *l, unsigned int n, double max,
			    const char *us, const char *ms)
{
	if (max <= 10000)
		return us;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < l[i].n; k++)
			((double *)l[i].y)[k] /= 1000;
	return ms;
}

/*
 * The panels of pattern @pat, when a test of it has a series: its
 * throughput; with --steady-state each test's rounds and window under it,
 * on the same time axis (each test has its own rounds), else the passes as
 * bands in the line panels; its mean latency; its p99 latency.  Their one
 * time axis covers every interval, band and round whole
 * (cdm_plot_x_span(): the rounds' panel gives its span to the others).
 * -ENOMEM.
 */
static int pattern_panels(struct chart *c, const struct cdm_run_result *r, int pat)
{
	unsigned int first = c->nl, lfirst = c->nlanes;
	struct pass_bands *pb = &c->pb[pat == CDM_SEQ ? 0 : 1];
	struct cdm_plot_panel *p = &c->p[c->np], *lat;
	double lmax[2] = { 0, 0 };

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		if (t->series && t->series->npoints && (int)t->spec.pattern == pat &&
		    test_lines(c, t, pat, lmax))
			return -ENOMEM;
	}
	if (c->nl == first)
		return 0;
	pb->n = 0;
	if (c->nlanes == lfirst)
		pass_bands(r, pat, pb);
	p[0] = (struct cdm_plot_panel){
		.title = pat == CDM_SEQ ? "Sequential tests: throughput per interval" :
			 "Random tests: IOPS per interval",
		.xlabel = "time since the start of the test (s)",
		.ylabel = pat == CDM_SEQ ? "MB/s (10^6 bytes/s)" : "IOPS (I/Os per second)",
		.nlines = c->nl - first, .lines = c->thr + first,
		.nbands = pb->n, .bands = pb->b,
		/* without pass times (a file of schema 1), the schedule's end of warm-up */
		.has_mark = !pb->n && c->nlanes == lfirst && r->info.warmup_ms > 0,
		.mark_x = (double)r->info.warmup_ms / 1e3, .mark_label = "end of warm-up",
	};
	if (c->nlanes > lfirst) {
		p[1] = (struct cdm_plot_panel){
			.title = pat == CDM_SEQ ? "Sequential tests: each test's rounds and its window (dark)" :
				 "Random tests: each test's rounds and its window (dark)",
			.xlabel = p[0].xlabel,
			.nlines = p[0].nlines, .lines = p[0].lines,     /* the same time axis */
			.nlanes = c->nlanes - lfirst, .lanes = c->lanes + lfirst,
		};
		cdm_plot_x_span(&p[1], &p[0].x_lo, &p[0].x_hi);
		c->np++;
	}
	lat = &c->p[c->np + 1];
	lat[0] = p[0];
	lat[0].title = pat == CDM_SEQ ? "Sequential tests: mean latency per interval" :
		       "Random tests: mean latency per interval";
	lat[0].ylabel = lat_unit(c->mean + first, c->nl - first, lmax[0],
				 "mean latency (us)", "mean latency (ms)");
	lat[0].lines = c->mean + first;
	lat[1] = lat[0];
	lat[1].title = pat == CDM_SEQ ? "Sequential tests: p99 latency per interval" :
		       "Random tests: p99 latency per interval";
	lat[1].ylabel = lat_unit(c->p99 + first, c->nl - first, lmax[1],
				 "p99 latency (us)", "p99 latency (ms)");
	lat[1].lines = c->p99 + first;
	c->np += 3;
	return 0;
}

int cdm_plot_series(FILE *out, const struct cdm_run_result *r)
{
	struct chart *c = calloc(1, sizeof(*c));
	char sub[512], lbl[256];
	int ret = -ENOMEM;

	if (!c)
		return -ENOMEM;
	c->thr = calloc(r->ntests + 1, sizeof(*c->thr));
	c->mean = calloc(r->ntests + 1, sizeof(*c->mean));
	c->p99 = calloc(r->ntests + 1, sizeof(*c->p99));
	c->names = calloc(r->ntests + 1, sizeof(*c->names));
	c->bufs = calloc(4 * r->ntests + 1, sizeof(*c->bufs));
	c->lanes = calloc(r->ntests + 1, sizeof(*c->lanes));
	c->rows = calloc(r->ntests + 1, sizeof(*c->rows));
	if (!c->thr || !c->mean || !c->p99 || !c->names || !c->bufs || !c->lanes || !c->rows)
		goto out;
	if (pattern_panels(c, r, CDM_SEQ) || pattern_panels(c, r, CDM_RND))
		goto out;
	if (!c->nl) {
		ret = -EINVAL;
		goto out;
	}
	/* the label cut with an ellipsis where it is long, never silently */
	cdm_fmt_cut(lbl, sizeof(lbl), r->info.label[0] ? r->info.label : r->info.target, 60);
	snprintf(sub, sizeof(sub), "%s on %.32s (%.64s), %.16s engine, interval %g s", lbl,
		 r->info.fs_type[0] ? r->info.fs_type : "?",
		 r->info.dev_name[0] ? r->info.dev_name : "?", r->info.engine,
		 (double)r->info.log_interval_ns / 1e9);
	ret = cdm_plot_svg(out, "cdm time series", sub, c->p, c->np);
out:
	for (unsigned int i = 0; i < c->nb; i++)
		free(c->bufs[i]);
	free(c->bufs);
	free(c->names);
	free(c->thr);
	free(c->mean);
	free(c->p99);
	free(c->lanes);
	free(c->rows);
	free(c);
	return ret;
}
