/* SPDX-License-Identifier: MIT */
/*
 * sweep.h - the results of `cdm sweep` (cli/sweep_cli.c) as curves, one per
 * test and direction (and per queue depth when threads and depths both
 * vary), each point's figures from the run's counts, with the knee and
 * flat ceiling of each curve (model/detect.h; rules in docs/method.md,
 * "Sweeps").  report/sweep_table.h renders them.
 */
#ifndef CDM_MODEL_SWEEP_H
#define CDM_MODEL_SWEEP_H

#include <stdint.h>

#include "cdm/model/detect.h"
#include "cdm/model/result.h"

#define CDM_SWEEP_MAX_VALUES 16         /* values in one --threads / --qd list */
#define CDM_SWEEP_MAX_CURVES (2 * CDM_MAX_TESTS)        /* read and write per test */

/* what a sweep varies (struct cdm_sweep.vary, bits) */
#define CDM_SWEEP_THREADS 1             /* --threads */
#define CDM_SWEEP_QD      2             /* --qd */

/* struct cdm_sweep_point - one test of the run: one thread count and depth */
struct cdm_sweep_point {
	unsigned int threads, qd;       /* qd: the depth run (qd_run) */
	int ok;                         /* figures exist: something measured, no I/O error */
	enum cdm_pass_state state;      /* CDM_PASS_NO_PASS: not reached; NO_IO: nothing measured */
	uint64_t bytes, ios;            /* over the passes that measured something */
	double seconds;                 /* their time (cdm_result_window_measured()) */
	double mb_s, iops, lat_us;      /* over the passes that measured something; mean latency in us */
	double p99_us;                  /* from the histogram, when has_p99 */
	int has_p99;
};

/* struct cdm_sweep_curve - the points of one test in one direction, by load */
struct cdm_sweep_curve {
	char test[64];                  /* "RND4K Q1": the spec without the swept part */
	enum cdm_dir dir;               /* read or write */
	uint64_t block;                 /* bytes per I/O: the unit its findings are in */
	unsigned int npts;
	struct cdm_sweep_point pts[CDM_SWEEP_MAX_VALUES];
	int knee;                       /* index into pts, or -1 */
	struct cdm_ceiling ceiling;     /* .from is an index into pts */
};

/* struct cdm_sweep - a whole sweep, as cdm_sweep_build() makes it */
struct cdm_sweep {
	int vary;                       /* CDM_SWEEP_* bits */
	int plot_mb_s;                  /* the chart's first panel: MB/s, not IOPS */
	unsigned int ncurves;
	struct cdm_sweep_curve curves[CDM_SWEEP_MAX_CURVES];
	const struct cdm_run_result *res;       /* the run, for its settings */
};

/*
 * cdm_sweep_build - the curves of @sw (vary and plot_mb_s set by the
 * caller) from @res, a run whose tests are, per direction, @nbase specs x
 * @nq depths x @nt thread counts in that order (the thread count varying
 * fastest), as cli/sweep_cli.c plans them.  Tests the run did not reach are
 * points not measured (ok 0, state CDM_PASS_NO_PASS), and so are tests
 * in which no I/O completed (ok 0, state CDM_PASS_NO_IO): neither is
 * plotted nor counted for the knee and ceiling, never as a 0.  Keeps @res
 * in sw->res: it must outlive @sw.
 */
void cdm_sweep_build(struct cdm_sweep *sw, const struct cdm_run_result *res,
		     unsigned int nbase, unsigned int nq, unsigned int nt);

/*
 * cdm_sweep_point_why - why point @p (ok 0) has no figures: "not
 * measured" (the run stopped before it, or an I/O error ended it), or
 * what its passes lacked ("no I/O completed", cdm_pass_state_reason()).
 * Static strings: the table's and the sweep JSON's "reason".
 */
const char *cdm_sweep_point_why(const struct cdm_sweep_point *p);

#endif /* CDM_MODEL_SWEEP_H */
