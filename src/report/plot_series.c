/* SPDX-License-Identifier: MIT */
/*
 * plot_series.c - the --plot chart of a run with --log-interval
 * (include/cdm/report/plot.h).  Sequential and random tests differ by orders of magnitude
 * in MB/s and in latency, so each pattern gets its own pair of panels, as
 * CrystalDiskMark users read them: SEQ in MB/s, RND in IOPS, each with its
 * latency (mean solid, p99 dashed, in the same colour) below.  Every value
 * is the interval's own figure from the result model; x is the middle of
 * the interval, in seconds from the start of the test's warm-up.  The
 * warm-up and each pass are shaded bands, placed by the passes' own start
 * times and lengths.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cdm/report/plot.h"
#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/report/fmt.h"

#define NAME_LEN 80
#define BAND_LABEL 24          /* "round 4294967295" */

/*
 * the bands of one panel: the warm-up and each measured pass (with
 * --steady-state, each round); and where the window the figures come
 * from starts, for the panel's mark
 */
struct pass_bands {
	unsigned int n;
	struct cdm_plot_band b[CDM_MAX_PASSES + 1];
	char label[CDM_MAX_PASSES + 1][BAND_LABEL];
	int has_window;
	double window_x;
	char window_label[128];
};

/*
 * The mark of the window of @t's rounds the figures come from
 * (cdm_result_first_pass()), starting at @x: "SEQ1M Q8T1 Read: steady
 * window, rounds 3-7" or "...: last window (not steady), rounds 21-25"
 */
static void window_mark(struct pass_bands *pb, const struct cdm_test_result *t, double x)
{
	char name[64];

	cdm_spec_name(&t->spec, name, sizeof(name));
	snprintf(pb->window_label, sizeof(pb->window_label), "%s %s: %s, rounds %u-%u", name,
		 cdm_result_dir_name(t->dir),
		 t->steady.reached_at_round ? "steady window" : "last window (not steady)",
		 cdm_result_first_pass(t) + 1, t->npasses);
	pb->has_window = 1;
	pb->window_x = x;
}

/*
 * The passes of the tests of pattern @pat as bands on the chart's time
 * axis (s from the start of the test's warm-up), from the result model
 * alone: each measured pass from its start time (start_unix_ns) and its
 * length (seconds); the axis' origin from the series, whose first interval
 * of pass 1 starts when pass 1 does; the warm-up from the series' origin
 * to there.  The test with the most passes gives them (the tests of a run
 * share one schedule; one stopped early has fewer).  A test without wall
 * clock times (0: unknown) gives none.
 */
static void pass_bands(const struct cdm_run_result *r, int pat, struct pass_bands *pb)
{
	const struct cdm_test_result *best = NULL;
	const struct cdm_series_point *first = NULL;

	pb->n = 0;
	pb->has_window = 0;
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		const struct cdm_series_point *p1 = NULL;

		if (!t->series || (int)t->spec.pattern != pat || !t->npasses ||
		    !t->passes[0].start_unix_ns)
			continue;
		for (unsigned int k = 0; k < t->series->npoints && !p1; k++)
			if (t->series->points[k].pass == 1)
				p1 = &t->series->points[k];
		if (p1 && (!best || t->npasses > best->npasses)) {
			best = t;
			first = p1;
		}
	}
	if (!best)
		return;
	if (first->start_ns) {
		pb->b[pb->n] = (struct cdm_plot_band){ 0, (double)first->start_ns / 1e9, "warm-up" };
		pb->n++;
	}
	for (unsigned int k = 0; k < best->npasses; k++) {
		const struct cdm_pass *ps = &best->passes[k];
		/* from pass 1's start on the series' clock: ns, then s */
		double x0 = ((double)first->start_ns +
			     ((double)ps->start_unix_ns - (double)best->passes[0].start_unix_ns)) / 1e9;

		if (!ps->start_unix_ns || !(ps->seconds > 0))
			continue;
		snprintf(pb->label[pb->n], BAND_LABEL, "%s %u", best->steady.on ? "round" : "pass",
			 k + 1);
		if (best->steady.on && k == cdm_result_first_pass(best))
			window_mark(pb, best, x0);
		pb->b[pb->n] = (struct cdm_plot_band){ x0, x0 + ps->seconds, pb->label[pb->n] };
		pb->n++;
	}
}

int cdm_plot_series(FILE *out, const struct cdm_run_result *r)
{
	struct cdm_plot_line *thr = NULL, *lat = NULL;
	char (*names)[NAME_LEN] = NULL;
	double **bufs = NULL;
	unsigned int nl = 0, nb = 0, np = 0;
	struct cdm_plot_panel p[4];
	struct pass_bands *pb = NULL;
	char sub[512], lbl[256];
	int ret = -ENOMEM;

	thr = calloc(r->ntests + 1, sizeof(*thr));
	lat = calloc(2 * r->ntests + 1, sizeof(*lat));
	names = calloc(r->ntests + 1, sizeof(*names));
	bufs = calloc(4 * r->ntests + 1, sizeof(*bufs));
	pb = calloc(2, sizeof(*pb));
	if (!thr || !lat || !names || !bufs || !pb)
		goto out;
	for (int pat = CDM_SEQ; pat <= CDM_RND; pat++) {
		unsigned int first = nl;
		double lmax = 0, div;

		for (unsigned int i = 0; i < r->ntests; i++) {
			const struct cdm_test_result *t = &r->tests[i];
			const struct cdm_series *s = t->series;
			double *x, *y, *lm, *lp;
			char spec[64];

			if (!s || !s->npoints || (int)t->spec.pattern != pat)
				continue;
			x = bufs[nb++] = malloc(s->npoints * sizeof(double));
			y = bufs[nb++] = malloc(s->npoints * sizeof(double));
			lm = bufs[nb++] = malloc(s->npoints * sizeof(double));
			lp = bufs[nb++] = malloc(s->npoints * sizeof(double));
			if (!x || !y || !lm || !lp)
				goto out;
			for (unsigned int k = 0; k < s->npoints; k++) {
				const struct cdm_series_point *pt = &s->points[k];

				x[k] = ((double)pt->start_ns + (double)pt->duration_ns / 2) / 1e9;
				y[k] = pat == CDM_SEQ ? cdm_series_point_mb_s(pt) :
				       cdm_series_point_iops(pt);
				/* no I/O completed: no latency (a gap, not a 0) */
				lm[k] = pt->ios ? cdm_series_point_lat_us(pt) : 0.0 / 0.0;
				lp[k] = pt->ios ? (double)pt->lat_p99_ns / 1e3 : 0.0 / 0.0;
				if (pt->ios && lp[k] > lmax)
					lmax = lp[k];
			}
			cdm_spec_name(&t->spec, spec, sizeof(spec));
			snprintf(names[nl], NAME_LEN, "%s %s", spec,
				 cdm_result_dir_name(t->dir));
			thr[nl] = (struct cdm_plot_line){ .name = names[nl], .n = s->npoints,
							  .x = x, .y = y, .color = (int)nl };
			lat[2 * nl] = thr[nl];
			lat[2 * nl].y = lm;
			lat[2 * nl + 1] = lat[2 * nl];
			lat[2 * nl + 1].y = lp;
			lat[2 * nl + 1].dashed = 1;
			lat[2 * nl + 1].no_legend = 1;
			nl++;
		}
		if (nl == first)
			continue;
		/* latency in ms once it passes 10 ms: shorter tick labels */
		div = lmax > 10000 ? 1000 : 1;
		for (unsigned int l = 2 * first; l < 2 * nl; l++)
			for (unsigned int k = 0; k < lat[l].n; k++)
				((double *)lat[l].y)[k] /= div;
		pass_bands(r, pat, &pb[np / 2]);
		p[np] = (struct cdm_plot_panel){
			.title = pat == CDM_SEQ ? "Sequential tests: throughput per interval" :
				 "Random tests: IOPS per interval",
			.xlabel = "time since the start of the test (s)",
			.ylabel = pat == CDM_SEQ ? "MB/s (10^6 bytes/s)" : "IOPS (I/Os per second)",
			.nlines = nl - first, .lines = thr + first,
			.nbands = pb[np / 2].n, .bands = pb[np / 2].b,
			/* without pass times (a file of schema 1), the schedule's end of warm-up */
			.has_mark = !pb[np / 2].n && r->info.warmup > 0,
			.mark_x = (double)r->info.warmup, .mark_label = "end of warm-up",
		};
		if (pb[np / 2].has_window) {    /* --steady-state: where the window starts */
			p[np].has_mark = 1;
			p[np].mark_x = pb[np / 2].window_x;
			p[np].mark_label = pb[np / 2].window_label;
		}
		p[np + 1] = p[np];
		p[np + 1].title = pat == CDM_SEQ ?
			"Sequential tests: latency per interval, mean (solid) and p99 (dashed)" :
			"Random tests: latency per interval, mean (solid) and p99 (dashed)";
		p[np + 1].ylabel = div > 1 ? "latency (ms)" : "latency (us)";
		p[np + 1].nlines = 2 * (nl - first);
		p[np + 1].lines = lat + 2 * first;
		np += 2;
	}
	if (!nl) {
		ret = -EINVAL;
		goto out;
	}
	/* the label cut with an ellipsis where it is long, never silently */
	cdm_fmt_cut(lbl, sizeof(lbl), r->info.label[0] ? r->info.label : r->info.target, 60);
	snprintf(sub, sizeof(sub), "%s on %.32s (%.64s), %.16s engine, interval %g s", lbl,
		 r->info.fs_type[0] ? r->info.fs_type : "?",
		 r->info.dev_name[0] ? r->info.dev_name : "?", r->info.engine,
		 (double)r->info.log_interval_ns / 1e9);
	ret = cdm_plot_svg(out, "cdm time series", sub, p, np);
out:
	for (unsigned int i = 0; i < nb; i++)
		free(bufs[i]);
	free(bufs);
	free(pb);
	free(names);
	free(thr);
	free(lat);
	return ret;
}
