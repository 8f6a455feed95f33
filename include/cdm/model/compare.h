/* SPDX-License-Identifier: MIT */
/*
 * cdm/model/compare.h - saved runs set side by side (`cdm compare A.json B.json
 * ...`), as figures, before any printing: one row per test and direction
 * that any run has, where that test is in each run (or that it is
 * missing), the figure each run has for it under one metric and
 * aggregate, the ratio to the first run, and the settings in which the
 * runs differ.  Users compare LOCAL and SAN, 22:00 and 08:00: a test only
 * some runs have is a row with cells missing, never dropped; a Mix test
 * is a row too, followed by its read and write parts; and whatever a row
 * lacks (a run without the test, a run that measured nothing, a run saved
 * without a Mix's parts) is a cell that says so, which the report names
 * with its reason.  The rendering is report/compare_table.h's.
 */
#ifndef CDM_MODEL_COMPARE_H
#define CDM_MODEL_COMPARE_H

#include <stddef.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"
#include "cdm/model/settings.h"

#define CDM_COMPARE_MAX_RUNS 64         /* runs in one comparison */

/* the figure compared (--metric) */
enum cdm_compare_metric {
	CDM_COMPARE_MB_S = 0,           /* MB/s (10^6 bytes/s) */
	CDM_COMPARE_IOPS = 1,           /* measured I/Os per second */
	CDM_COMPARE_LAT = 2,            /* mean latency, in microseconds */
};

/*
 * The settings whose difference makes figures hard to compare: the rows
 * of the settings table (model/settings.h) with a compare name (size,
 * count, time, engine, direct, data, end_fsync, steady_state,
 * precondition), in its order, and last the set of tests (name and
 * direction), which is no setting but is compared as one: this row, its
 * key and compare name "tests".  Walk them with cdm_compare_next().
 */
extern const struct cdm_setting cdm_compare_tests;

/* one row: a test and direction (and part), and where it is in each run */
struct cdm_compare_row {
	const struct cdm_test_result *key;      /* as the first run that has it has it */
	enum cdm_part part;                     /* a Mix test's reads or writes, or all of it */
	int at[CDM_COMPARE_MAX_RUNS];           /* index in runs[k]->tests, or -1: missing */
};

/* a comparison of @n runs; rows made by cdm_compare_init() */
struct cdm_compare {
	const struct cdm_run_result *runs[CDM_COMPARE_MAX_RUNS]; /* not owned */
	unsigned int n;
	enum cdm_aggregate aggregate;   /* which figure of the passes (--aggregate) */
	enum cdm_compare_metric metric;
	struct cdm_compare_row *rows;   /* owned: reads, writes, then Mix (each with its parts) */
	unsigned int nrows;
};

/* what a run has for a row */
enum cdm_compare_state {
	CDM_COMPARE_MISSING,            /* the run has no such test */
	CDM_COMPARE_NOT_MEASURED,       /* it has, but no pass completed */
	CDM_COMPARE_MEASURED,
	CDM_COMPARE_NOTHING,            /* passes ran, but measured nothing (no I/O completed) */
	CDM_COMPARE_NO_PARTS,           /* a Mix part row: the run was saved without the parts
					 * (or is a CrystalDiskMark report: CDM prints the total) */
	CDM_COMPARE_BEST_ONLY,          /* a CrystalDiskMark report under median or mean: it
					 * has only its best-of figures */
	CDM_COMPARE_NOT_REPORTED,       /* a CrystalDiskMark report without the metric's
					 * figure (CDM 6 prints no latency) */
};

/* why a cell of run k > 0 has no ratio (has_ratio 0) */
enum cdm_compare_noratio {
	CDM_COMPARE_RATIO_OK = 0,       /* it has one */
	CDM_COMPARE_RATIO_SELF,         /* this run has no figure (its state says why) */
	CDM_COMPARE_RATIO_BASE,         /* the first run has no figure for the row */
	CDM_COMPARE_RATIO_ZERO,         /* the first run's figure is 0 */
};

struct cdm_compare_cell {
	enum cdm_compare_state state;
	const struct cdm_test_result *test;     /* the run's test, or NULL when missing */
	double value;                   /* MEASURED: in the metric's unit */
	int has_ratio;                  /* value / the first run's is known */
	double ratio;
	enum cdm_compare_noratio noratio;       /* k > 0 without a ratio: why */
};

/*
 * cdm_compare_init - compare the @n runs @runs (1 <= n <=
 * CDM_COMPARE_MAX_RUNS; runs[0] is the one ratios are to) under
 * @aggregate and @metric: fills @c (which does not own the runs; they
 * must outlive it).  The rows are the union of the runs' tests, matched
 * by name (cdm_spec_name(), which has a Mix test's write percentage) and
 * direction: reads, writes, then Mix tests, each in the order the runs
 * first have them; after each Mix row its reads and its writes
 * (CDM_PART_READS, _WRITES) when any run that has it has those parts.
 * Returns 0; -EINVAL for a bad @n (@err says so); -ENOMEM.  Free with
 * cdm_compare_free(), also after a failure.
 */
int cdm_compare_init(struct cdm_compare *c, struct cdm_run_result *const *runs,
		     unsigned int n, enum cdm_aggregate aggregate,
		     enum cdm_compare_metric metric, struct cdm_err *err);

/* cdm_compare_free - free what @c owns (the rows, not the runs); NULL ok */
void cdm_compare_free(struct cdm_compare *c);

/*
 * cdm_compare_figure - the figure of @t under @aggregate and @metric: MB/s,
 * IOPS, or mean latency in microseconds; CDM_AGG_BEST picks the highest
 * MB/s and IOPS and the lowest latency, as CDM does.  NaN (no figure)
 * when no pass measured anything.  A test read from a CrystalDiskMark
 * report has its report's figures under CDM_AGG_BEST and NaN under the
 * median or the mean (cdm_result_mb_s()).  cdm_compare_figure_part - the
 * same for a part of a Mix test (cdm_pass_part()); NaN for a report's.
 */
double cdm_compare_figure(const struct cdm_test_result *t, enum cdm_aggregate aggregate,
			  enum cdm_compare_metric metric);
double cdm_compare_figure_part(const struct cdm_test_result *t, enum cdm_part part,
			       enum cdm_aggregate aggregate, enum cdm_compare_metric metric);

/*
 * cdm_compare_cell - what run @k has for row @row of @c, in @cell: missing,
 * not measured (no pass), nothing measured (passes without I/O), no parts,
 * or its figure and, for k > 0, its ratio to run 0's when run 0 has a
 * figure above 0 for the row; else @cell->noratio says why there is none.
 * There is never a ratio against nothing.
 */
void cdm_compare_cell(const struct cdm_compare *c, unsigned int row, unsigned int k,
		      struct cdm_compare_cell *cell);

/*
 * cdm_compare_differs - does any run of @c differ from runs[0] in @s (a
 * row of cdm_compare_next())?  The values as cdm_settings_info_same()
 * compares them; a setting a run does not state (cdm_compare_known():
 * a CrystalDiskMark report's engine; its time, size, count or test data
 * when its footer lacks them) differs from nothing.  Runs that both have
 * steady state (their rounds replace --count) do not differ in a
 * CDM_SETTING_ROUNDS setting (count); steady_state: one run has steady
 * state and another has not (another method: rounds until steady, figures
 * over the last window), or their --max-rounds differ.
 * &cdm_compare_tests: a test (name and direction) one of the two runs has
 * and the other has not.
 */
int cdm_compare_differs(const struct cdm_compare *c, const struct cdm_setting *s);

/*
 * cdm_compare_common - how many tests (name and direction) of run @k of
 * @c the first run has too: what the "tests" warning names.
 */
unsigned int cdm_compare_common(const struct cdm_compare *c, unsigned int k);

/*
 * cdm_compare_known - does @run state setting @s?  A run cdm measured
 * states all; a setting a run may not state (CDM_KNOWN_INFO of
 * model/settings.h: a CrystalDiskMark report's (info.source) engine, and
 * its test size, count, Measure time and test data when its footer lacks
 * them) only when cdm_result_known() says so; any other, the set of tests
 * among them, always (a setting not set is off).
 */
int cdm_compare_known(const struct cdm_run_result *run, const struct cdm_setting *s);

/*
 * cdm_compare_next - the setting compared after @s (NULL: the first):
 * the settings table's rows with a compare name in its order, then
 * &cdm_compare_tests, then NULL.
 */
const struct cdm_setting *cdm_compare_next(const struct cdm_setting *s);

/*
 * cdm_compare_mismatch - the settings in which the runs of @c differ from
 * runs[0], as "size, engine" in @buf (@len bytes; cut if too short); ""
 * when they all agree.  Returns the number of settings that differ.
 */
unsigned int cdm_compare_mismatch(const struct cdm_compare *c, char *buf, size_t len);

#endif /* CDM_MODEL_COMPARE_H */
