/* SPDX-License-Identifier: MIT */
/*
 * plot_series.c - the --plot chart of a run with --log-interval: per test,
 * MB/s over time in one panel, mean and p99 latency over time in another
 * (cdm/plot.h).  Every value is the interval's own figure from the result
 * model; x is the middle of the interval, in seconds from the start of the
 * test's warm-up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cdm/plot.h"
#include "cdm/profile.h"
#include "cdm/result.h"
#include "cdm/series.h"

int cdm_plot_timeseries(FILE *out, const struct cdm_run_result *r)
{
	struct cdm_plot_line *thr = NULL, *lat = NULL;
	char (*names)[2][80] = NULL;
	double **bufs = NULL;
	unsigned int nl = 0, nb = 0;
	struct cdm_plot_panel p[2];
	char sub[256];
	int ret = -ENOMEM;

	thr = calloc(r->ntests + 1, sizeof(*thr));
	lat = calloc(2 * r->ntests + 1, sizeof(*lat));
	names = calloc(r->ntests + 1, sizeof(*names));
	bufs = calloc(4 * r->ntests + 1, sizeof(*bufs));
	if (!thr || !lat || !names || !bufs)
		goto out;
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		const struct cdm_series *s = t->series;
		double *x, *y, *lm, *lp;
		char spec[64];

		if (!s || !s->npoints)
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
			y[k] = cdm_series_point_mb_s(pt);
			/* no I/O completed: no latency (a gap is not drawn as 0) */
			lm[k] = pt->ios ? cdm_series_point_lat_us(pt) : 0.0 / 0.0;
			lp[k] = pt->ios ? (double)pt->lat_p99_ns / 1e3 : 0.0 / 0.0;
		}
		cdm_spec_name(&t->spec, spec, sizeof(spec));
		snprintf(names[nl][0], sizeof(names[nl][0]), "%s %s", spec,
			 t->dir == CDM_DIR_WRITE ? "Write" : "Read");
		snprintf(names[nl][1], sizeof(names[nl][1]), "%.70s p99", names[nl][0]);
		thr[nl] = (struct cdm_plot_line){ names[nl][0], s->npoints, x, y, 0, (int)nl, 0, 0 };
		lat[2 * nl] = (struct cdm_plot_line){ names[nl][0], s->npoints, x, lm, 0, (int)nl, 0, 0 };
		lat[2 * nl + 1] = (struct cdm_plot_line){ names[nl][1], s->npoints, x, lp, 1, (int)nl, 0, 0 };
		nl++;
	}
	if (!nl) {
		ret = -EINVAL;
		goto out;
	}
	p[0] = (struct cdm_plot_panel){
		.title = "Throughput per interval", .xlabel = "time since the start of the test (s)",
		.ylabel = "MB/s (10^6 bytes/s)", .nlines = nl, .lines = thr,
		.has_mark = r->info.warmup > 0, .mark_x = (double)r->info.warmup,
		.mark_label = "end of warm-up",
	};
	p[1] = p[0];
	p[1].title = "Latency per interval: mean (solid), p99 (dashed)";
	p[1].ylabel = "latency (us)";
	p[1].nlines = 2 * nl;
	p[1].lines = lat;
	snprintf(sub, sizeof(sub), "%.100s on %.32s (%.64s), %.16s engine, interval %g s", r->info.label[0] ?
		 r->info.label : r->info.target, r->info.fs_type[0] ? r->info.fs_type : "?",
		 r->info.dev_name[0] ? r->info.dev_name : "?", r->info.engine,
		 (double)r->info.log_interval_ns / 1e9);
	ret = cdm_plot_svg(out, "cdm time series", sub, p, 2);
out:
	for (unsigned int i = 0; i < nb; i++)
		free(bufs[i]);
	free(bufs);
	free(names);
	free(thr);
	free(lat);
	return ret;
}
