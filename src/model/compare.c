/* SPDX-License-Identifier: MIT */
/*
 * compare.c - saved runs side by side as figures (include/cdm/model/
 * compare.h): the rows (the union of the runs' tests, so that a test only
 * some runs have is shown as missing rather than dropped), the figure of
 * each run under one metric and aggregate, its ratio to the first run,
 * and the settings that make the runs hard to compare.  Nothing here
 * prints: report/compare.c renders a comparison, cli/compare.c loads the
 * runs with result_read.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/model/compare.h"
#include "cdm/model/spec.h"

static const char *const setting_names[CDM_COMPARE_NSETTINGS] = {
	[CDM_COMPARE_SIZE] = "size",
	[CDM_COMPARE_COUNT] = "count",
	[CDM_COMPARE_TIME] = "time",
	[CDM_COMPARE_ENGINE] = "engine",
	[CDM_COMPARE_DIRECT] = "direct",
	[CDM_COMPARE_DATA] = "data",
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
			for (unsigned int k = 0; k < c->n; k++)
				row->at[k] = find_test(c->runs[k], dir, name);
			c->nrows++;
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
	c->rows = calloc(total ? total : 1, sizeof(*c->rows));
	if (!c->rows)
		return cdm_err_set(err, -ENOMEM, "out of memory");
	/* Mix tests (--mix, W<pct>) are not compared yet: left out, not refused */
	add_rows(c, CDM_DIR_READ);
	add_rows(c, CDM_DIR_WRITE);
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
	struct cdm_test_summary s;

	cdm_result_summarize(t, &s);
	switch (metric) {
	case CDM_COMPARE_IOPS:
		return cdm_result_iops(t, aggregate);
	case CDM_COMPARE_LAT:
		return cdm_result_spread_pick(&s.lat_ns, aggregate, 0) / 1000.0;
	case CDM_COMPARE_MB_S:
	default:
		return cdm_result_spread_pick(&s.mb_s, aggregate, 1);
	}
}

void cdm_compare_cell(const struct cdm_compare *c, unsigned int row, unsigned int k,
		      struct cdm_compare_cell *cell)
{
	const struct cdm_compare_row *rw = &c->rows[row];
	const struct cdm_test_result *t, *t0;
	double v0;

	memset(cell, 0, sizeof(*cell));
	cell->state = CDM_COMPARE_MISSING;
	if (rw->at[k] < 0)
		return;
	t = &c->runs[k]->tests[rw->at[k]];
	cell->state = CDM_COMPARE_NOT_MEASURED;
	if (!t->npasses)
		return;
	cell->state = CDM_COMPARE_MEASURED;
	cell->value = cdm_compare_figure(t, c->aggregate, c->metric);
	if (k == 0 || rw->at[0] < 0)
		return;
	t0 = &c->runs[0]->tests[rw->at[0]];
	if (!t0->npasses)
		return;
	v0 = cdm_compare_figure(t0, c->aggregate, c->metric);
	if (v0 > 0.0) {
		cell->has_ratio = 1;
		cell->ratio = cell->value / v0;
	}
}

int cdm_compare_differs(const struct cdm_compare *c, enum cdm_compare_setting s)
{
	const struct cdm_run_info *a = &c->runs[0]->info;

	for (unsigned int k = 1; k < c->n; k++) {
		const struct cdm_run_info *b = &c->runs[k]->info;
		int differ;

		switch (s) {
		case CDM_COMPARE_SIZE: differ = b->size != a->size; break;
		case CDM_COMPARE_COUNT: differ = b->count != a->count; break;
		case CDM_COMPARE_TIME: differ = b->time != a->time; break;
		case CDM_COMPARE_ENGINE: differ = strcmp(b->engine, a->engine) != 0; break;
		case CDM_COMPARE_DIRECT: differ = b->direct != a->direct; break;
		case CDM_COMPARE_DATA: differ = b->zero_fill != a->zero_fill; break;
		default: differ = 0; break;
		}
		if (differ)
			return 1;
	}
	return 0;
}

const char *cdm_compare_setting_name(enum cdm_compare_setting s)
{
	return (unsigned int)s < CDM_COMPARE_NSETTINGS ? setting_names[s] : "?";
}

unsigned int cdm_compare_mismatch(const struct cdm_compare *c, char *buf, size_t len)
{
	unsigned int found = 0;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int s = 0; s < CDM_COMPARE_NSETTINGS; s++) {
		if (!cdm_compare_differs(c, (enum cdm_compare_setting)s))
			continue;
		if (used < len) {
			int w = snprintf(buf + used, len - used, "%s%s", found ? ", " : "",
					 setting_names[s]);

			if (w > 0)
				used += (size_t)w;
		}
		found++;
	}
	return found;
}
