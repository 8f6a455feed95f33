/* SPDX-License-Identifier: MIT */
/*
 * compare.c - saved runs side by side as figures (include/cdm/model/
 * compare.h): the rows (the union of the runs' tests, Mix tests with
 * their read and write parts, so that a test only some runs have is shown
 * as missing rather than dropped), the figure of each run under one
 * metric and aggregate, its ratio to the first run (never against a run
 * that measured nothing), and the settings that make the runs hard to
 * compare (the settings table's rows with a compare name, and the set of
 * tests).  Nothing here
 * prints: report/compare_table.c renders a comparison, cli/compare_cli.c loads the
 * runs with result_read.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/text.h"
#include "cdm/model/compare.h"
#include "cdm/model/settings.h"
#include "cdm/model/spec.h"

/* the set of tests: compared last, as a setting (compare.h) */
const struct cdm_setting cdm_compare_tests = {
	.key = "tests",
	.compare = { .name = "tests" },
};

/* is @t a read or write test of @run with the name @name? */
static int same_test(const struct cdm_test_result *t, enum cdm_dir dir, const char *name)
{
	char n[64];

	if (t->dir != dir)
		return 0;
	cdm_spec_name(&t->spec, n, sizeof(n));
	return !strcmp(n, name);
}

/* the index of the test of @run named @name in direction @dir, or -1 */
static int find_test(const struct cdm_run_result *run, enum cdm_dir dir, const char *name)
{
	for (unsigned int i = 0; i < run->ntests; i++)
		if (same_test(&run->tests[i], dir, name))
			return (int)i;
	return -1;
}

/* does @c already have a row for @t? */
static int has_row(const struct cdm_compare *c, const struct cdm_test_result *t)
{
	char name[64];

	cdm_spec_name(&t->spec, name, sizeof(name));
	for (unsigned int k = 0; k < c->nrows; k++)
		if (same_test(c->rows[k].key, t->dir, name))
			return 1;
	return 0;
}

/* does any run that has the Mix test of @row have its read/write parts? */
static int any_parts(const struct cdm_compare *c, const struct cdm_compare_row *row)
{
	for (unsigned int k = 0; k < c->n; k++)
		if (row->at[k] >= 0 && !c->runs[k]->tests[row->at[k]].parts_unknown)
			return 1;
	return 0;
}

/* a row for every test of direction @dir not seen yet, in first-seen order */
static void add_rows(struct cdm_compare *c, enum cdm_dir dir)
{
	char name[64];

	for (unsigned int r = 0; r < c->n; r++) {
		for (unsigned int i = 0; i < c->runs[r]->ntests; i++) {
			const struct cdm_test_result *t = &c->runs[r]->tests[i];
			struct cdm_compare_row *row = &c->rows[c->nrows];

			if (t->dir != dir || has_row(c, t))
				continue;
			cdm_spec_name(&t->spec, name, sizeof(name));
			row->key = t;
			row->part = CDM_PART_ALL;
			for (unsigned int k = 0; k < c->n; k++)
				row->at[k] = find_test(c->runs[k], dir, name);
			c->nrows++;
			/* a Mix test: its reads and its writes, as JSON keeps them */
			if (dir != CDM_DIR_MIX || !any_parts(c, row))
				continue;
			c->rows[c->nrows] = *row;
			c->rows[c->nrows++].part = CDM_PART_READS;
			c->rows[c->nrows] = *row;
			c->rows[c->nrows++].part = CDM_PART_WRITES;
		}
	}
}

int cdm_compare_init(struct cdm_compare *c, struct cdm_run_result *const *runs,
		     unsigned int n, enum cdm_aggregate aggregate,
		     enum cdm_compare_metric metric, struct cdm_err *err)
{
	unsigned int total = 0;

	memset(c, 0, sizeof(*c));
	if (n < 1 || n > CDM_COMPARE_MAX_RUNS)
		return cdm_err_set(err, -EINVAL, "%u runs to compare (1-%d)", n,
				   CDM_COMPARE_MAX_RUNS);
	c->n = n;
	c->aggregate = aggregate;
	c->metric = metric;
	for (unsigned int r = 0; r < n; r++) {
		c->runs[r] = runs[r];
		total += runs[r]->ntests;
	}
	/* each test at most 3 rows: a Mix test's whole, reads, writes */
	c->rows = calloc(total ? 3 * (size_t)total : 1, sizeof(*c->rows));
	if (!c->rows)
		return cdm_err_set(err, -ENOMEM, "out of memory");
	add_rows(c, CDM_DIR_READ);
	add_rows(c, CDM_DIR_WRITE);
	add_rows(c, CDM_DIR_MIX);
	return 0;
}

void cdm_compare_free(struct cdm_compare *c)
{
	if (!c)
		return;
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

double cdm_compare_figure(const struct cdm_test_result *t, enum cdm_aggregate aggregate,
			  enum cdm_compare_metric metric)
{
	return cdm_compare_figure_part(t, CDM_PART_ALL, aggregate, metric);
}

double cdm_compare_figure_part(const struct cdm_test_result *t, enum cdm_part part,
			       enum cdm_aggregate aggregate, enum cdm_compare_metric metric)
{
	struct cdm_test_summary s;

	/* a CrystalDiskMark report's test: its printed figures, best only */
	if (t->reported.has) {
		if (part != CDM_PART_ALL)
			return cdm_pass_no_figure();
		return metric == CDM_COMPARE_IOPS ? cdm_result_iops(t, aggregate) :
		       metric == CDM_COMPARE_LAT ? cdm_result_lat_us(t, aggregate) :
		       cdm_result_mb_s(t, aggregate);
	}
	/* the spreads hold only passes that measured something: NaN if none */
	cdm_result_summarize_part(t, part, &s);
	switch (metric) {
	case CDM_COMPARE_IOPS:
		/* the part's own I/Os (cdm_result_iops() is the whole test's) */
		return cdm_result_spread_pick(&s.iops, aggregate, 1);
	case CDM_COMPARE_LAT:
		return cdm_result_spread_pick(&s.lat_ns, aggregate, 0) / 1000.0;
	case CDM_COMPARE_MB_S:
	default:
		return cdm_result_spread_pick(&s.mb_s, aggregate, 1);
	}
}

/* what a CrystalDiskMark report's test @t has for row @rw; the figure in *@v */
static enum cdm_compare_state reported_state(const struct cdm_compare *c,
					     const struct cdm_compare_row *rw,
					     const struct cdm_test_result *t, double *v)
{
	double f;

	if (rw->part != CDM_PART_ALL)
		return CDM_COMPARE_NO_PARTS;    /* CDM prints a Mix test's total */
	if (cdm_result_agg_reason(t, c->aggregate))
		return CDM_COMPARE_BEST_ONLY;
	f = cdm_compare_figure_part(t, CDM_PART_ALL, c->aggregate, c->metric);
	if (f != f)
		return CDM_COMPARE_NOT_REPORTED;
	*v = f;
	return CDM_COMPARE_MEASURED;
}

/* what run @k has for row @rw, without the ratio; the figure in *@v */
static enum cdm_compare_state cell_state(const struct cdm_compare *c,
					 const struct cdm_compare_row *rw, unsigned int k,
					 double *v)
{
	const struct cdm_test_result *t;
	struct cdm_test_summary s;

	*v = 0.0;
	if (rw->at[k] < 0)
		return CDM_COMPARE_MISSING;
	t = &c->runs[k]->tests[rw->at[k]];
	if (t->reported.has)
		return reported_state(c, rw, t, v);
	if (!t->npasses)
		return CDM_COMPARE_NOT_MEASURED;
	if (cdm_result_state(t) != CDM_PASS_MEASURED)
		return CDM_COMPARE_NOTHING;
	if (rw->part != CDM_PART_ALL) {
		if (t->parts_unknown)
			return CDM_COMPARE_NO_PARTS;
		/* a part without I/O in any pass (no reads at all) measured nothing */
		cdm_result_summarize_part(t, rw->part, &s);
		if (!s.measured)
			return CDM_COMPARE_NOTHING;
	}
	*v = cdm_compare_figure_part(t, rw->part, c->aggregate, c->metric);
	return CDM_COMPARE_MEASURED;
}

void cdm_compare_cell(const struct cdm_compare *c, unsigned int row, unsigned int k,
		      struct cdm_compare_cell *cell)
{
	const struct cdm_compare_row *rw = &c->rows[row];
	double v0;

	memset(cell, 0, sizeof(*cell));
	cell->state = cell_state(c, rw, k, &cell->value);
	if (rw->at[k] >= 0)
		cell->test = &c->runs[k]->tests[rw->at[k]];
	if (k == 0)
		return;
	if (cell->state != CDM_COMPARE_MEASURED) {
		cell->noratio = CDM_COMPARE_RATIO_SELF;
		return;
	}
	/* no ratio against nothing: run 0 must have a figure above 0 */
	if (cell_state(c, rw, 0, &v0) != CDM_COMPARE_MEASURED) {
		cell->noratio = CDM_COMPARE_RATIO_BASE;
		return;
	}
	if (!(v0 > 0.0)) {
		cell->noratio = CDM_COMPARE_RATIO_ZERO;
		return;
	}
	cell->has_ratio = 1;
	cell->ratio = cell->value / v0;
}

int cdm_compare_known(const struct cdm_run_result *run, const struct cdm_setting *s)
{
	return s->known != CDM_KNOWN_INFO || cdm_result_known(&run->info, s->item);
}

const struct cdm_setting *cdm_compare_next(const struct cdm_setting *s)
{
	unsigned int n;
	const struct cdm_setting *set = cdm_settings(&n);

	if (s == &cdm_compare_tests)
		return NULL;
	for (unsigned int i = s ? (unsigned int)(s - set) + 1 : 0; i < n; i++)
		if (set[i].compare.name)
			return &set[i];
	return &cdm_compare_tests;
}

/* has @b every test (name and direction) that @a has? */
static int has_tests_of(const struct cdm_run_result *b, const struct cdm_run_result *a)
{
	char name[64];

	for (unsigned int i = 0; i < a->ntests; i++) {
		cdm_spec_name(&a->tests[i].spec, name, sizeof(name));
		if (find_test(b, a->tests[i].dir, name) < 0)
			return 0;
	}
	return 1;
}

unsigned int cdm_compare_common(const struct cdm_compare *c, unsigned int k)
{
	const struct cdm_run_result *a = c->runs[0], *b = c->runs[k];
	unsigned int n = 0;
	char name[64];

	for (unsigned int i = 0; i < b->ntests; i++) {
		cdm_spec_name(&b->tests[i].spec, name, sizeof(name));
		n += find_test(a, b->tests[i].dir, name) >= 0;
	}
	return n;
}

int cdm_compare_differs(const struct cdm_compare *c, const struct cdm_setting *s)
{
	const struct cdm_run_info *a = &c->runs[0]->info;

	for (unsigned int k = 1; k < c->n; k++) {
		const struct cdm_run_info *b = &c->runs[k]->info;

		if (s == &cdm_compare_tests) {
			if (!has_tests_of(c->runs[k], c->runs[0]) ||
			    !has_tests_of(c->runs[0], c->runs[k]))
				return 1;
			continue;
		}
		if (!cdm_compare_known(c->runs[0], s) || !cdm_compare_known(c->runs[k], s))
			continue;
		/* with steady state the rounds replace the count */
		if ((s->flags & CDM_SETTING_ROUNDS) && a->steady_state && b->steady_state)
			continue;
		if (!cdm_settings_info_same(s, a, b))
			return 1;
	}
	return 0;
}

unsigned int cdm_compare_mismatch(const struct cdm_compare *c, char *buf, size_t len)
{
	unsigned int found = 0;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (const struct cdm_setting *s = cdm_compare_next(NULL); s; s = cdm_compare_next(s)) {
		if (!cdm_compare_differs(c, s))
			continue;
		cdm_text_add(buf, len, &used, "%s%s", found ? ", " : "", s->compare.name);
		found++;
	}
	return found;
}
