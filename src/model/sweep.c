/* SPDX-License-Identifier: MIT */
/*
 * sweep.c - a sweep's run turned into curves, one per test and direction:
 * each point's figures from its passes' counts, then the knee and the
 * ceiling of each curve (include/cdm/model/sweep.h).
 */
#include <stdio.h>
#include <string.h>

#include "cdm/model/detect.h"
#include "cdm/model/hist.h"
#include "cdm/model/spec.h"
#include "cdm/model/sweep.h"

/* "RND4K Q1" for a thread sweep, "RND4K T8" for a depth sweep, "RND4K" for both */
static void curve_name(const struct cdm_spec *sp, int vary, char *buf, size_t len)
{
	char full[48], *sp_at;

	cdm_spec_name(sp, full, sizeof(full));
	sp_at = strchr(full, ' ');
	if (sp_at)
		*sp_at = '\0';
	if (vary == CDM_SWEEP_THREADS)
		snprintf(buf, len, "%s Q%u", full, sp->qd);
	else if (vary == CDM_SWEEP_QD)
		snprintf(buf, len, "%s T%u", full, sp->threads);
	else
		snprintf(buf, len, "%s Q%u", full, sp->qd);
}

static void fill_point(const struct cdm_test_result *t, struct cdm_sweep_point *p)
{
	struct cdm_pass all;

	memset(p, 0, sizeof(*p));
	p->threads = t->spec.threads;
	p->qd = t->qd_run;
	p->state = cdm_result_state(t);
	/* a pass that measured nothing adds no 0 to the point */
	cdm_result_window_measured(t, &all);
	p->bytes = all.bytes;
	p->ios = all.ios;
	p->seconds = all.seconds;
	p->ok = p->state == CDM_PASS_MEASURED && !t->error;
	if (!p->ok)
		return;
	p->mb_s = cdm_pass_mb_s(&all);
	p->iops = cdm_pass_iops(&all);
	p->lat_us = cdm_pass_mean_lat_ns(&all) / 1e3;
	p->has_p99 = cdm_result_has_percentiles(t);
	if (p->has_p99)
		p->p99_us = (double)cdm_hist_percentile(t->hist, 99.0) / 1e3;
}

const char *cdm_sweep_point_why(const struct cdm_sweep_point *p)
{
	if (p->state == CDM_PASS_NO_PASS || p->state == CDM_PASS_MEASURED)
		return "not measured";
	return cdm_pass_state_reason(p->state);
}

/* the curves, their knees and ceilings, from the run's tests */
void cdm_sweep_build(struct cdm_sweep *sw, const struct cdm_run_result *res,
		     unsigned int nbase, unsigned int nq, unsigned int nt)
{
	unsigned int per_dir = nbase * nq * nt, ndir = per_dir ? res->ntests / per_dir : 0;

	sw->res = res;
	sw->ncurves = 0;
	for (unsigned int d = 0; d < ndir; d++) {
		for (unsigned int b = 0; b < nbase; b++) {
			/* a thread sweep per depth when both vary, else one curve */
			unsigned int ncur = sw->vary == (CDM_SWEEP_THREADS | CDM_SWEEP_QD) ? nq : 1;

			for (unsigned int c = 0; c < ncur; c++) {
				struct cdm_sweep_curve *cv = &sw->curves[sw->ncurves++];
				struct cdm_load_point lp[CDM_SWEEP_MAX_VALUES];
				unsigned int n = 0, map[CDM_SWEEP_MAX_VALUES];
				unsigned int first = d * per_dir + b * nq * nt + c * nt;
				unsigned int cnt = ncur > 1 ? nt : nq * nt;
				struct cdm_spec sp = res->tests[first].spec;

				cv->dir = res->tests[first].dir;
				cv->block = sp.block;
				curve_name(&sp, sw->vary, cv->test, sizeof(cv->test));
				cv->npts = cnt;
				for (unsigned int k = 0; k < cnt; k++) {
					struct cdm_sweep_point *p = &cv->pts[k];

					fill_point(&res->tests[first + k], p);
					if (!p->ok)
						continue;
					lp[n].load = sw->vary == CDM_SWEEP_QD ? p->qd : p->threads;
					lp[n].value = p->iops;
					lp[n].lat = p->lat_us;
					lp[n].flat = -1;
					lp[n].mb_s = p->mb_s;
					lp[n].iops = p->iops;
					map[n++] = k;
				}
				cv->knee = cdm_detect_knee(lp, n);
				if (cv->knee >= 0)
					cv->knee = (int)map[cv->knee];
				if (cdm_detect_ceiling(lp, n, &cv->ceiling))
					cv->ceiling.from = map[cv->ceiling.from];
			}
		}
	}
}

