/* SPDX-License-Identifier: MIT */
/*
 * merge.c - the aggregate of several runs of one plan (cdm-mpi's ranks,
 * `cdm merge`'s files): pass k summed over the runs, histograms summed
 * bucket-wise, then the usual best/median/mean of the summed passes; and
 * the per-run spread that shows a straggler.  See include/cdm/model/merge.h;
 * format/scale.c prints what an aggregate adds to the reports.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/msec.h"
#include "cdm/model/merge.h"
#include "cdm/model/settings.h"
#include "cdm/model/spec.h"

/*
 * A setting every run must share (CDM_MERGE_SAME, CDM_MERGE_SUM of
 * model/settings.h): 0, or -EINVAL with the key and both values (a time
 * in seconds, as its JSON key names it), or the row's own words, in @err
 */
static int differ(const struct cdm_setting *s, const struct cdm_run_result *a,
		  const struct cdm_run_result *b, struct cdm_err *err)
{
	uint64_t x = cdm_settings_u64(s, a), y = cdm_settings_u64(s, b);
	char sa[CDM_MSEC_FORMAT_MAX], sb[CDM_MSEC_FORMAT_MAX];
	const char *ta, *tb;

	if (s->type == CDM_SETTING_TEXT || s->type == CDM_SETTING_DEVSPEC ||
	    s->type == CDM_SETTING_CPUS) {
		ta = cdm_settings_at_const(s, a);
		tb = cdm_settings_at_const(s, b);
		if (!strcmp(ta, tb))
			return 0;
		return cdm_err_set(err, -EINVAL, "%s '%s' vs '%s'", s->key, ta[0] ? ta : "none",
				   tb[0] ? tb : "none");
	}
	if (x == y)
		return 0;
	if (s->differ)
		return cdm_err_set(err, -EINVAL, "%s", s->differ);
	if (s->type == CDM_SETTING_MSEC)
		return cdm_err_set(err, -EINVAL, "%s %s vs %s", s->key,
				   cdm_msec_format((unsigned int)x, sa, sizeof(sa)),
				   cdm_msec_format((unsigned int)y, sb, sizeof(sb)));
	return cdm_err_set(err, -EINVAL, "%s %" PRIu64 " vs %" PRIu64, s->key, x, y);
}

int cdm_merge_check(const struct cdm_run_result *a, const struct cdm_run_result *b,
		    struct cdm_err *err)
{
	unsigned int nset;
	const struct cdm_setting *set = cdm_settings(&nset);
	char na[64], nb[64];

	for (unsigned int i = 0; i < nset; i++)
		if ((set[i].merge == CDM_MERGE_SAME || set[i].merge == CDM_MERGE_SUM) &&
		    differ(&set[i], a, b, err))
			return -EINVAL;
	if (a->ntests != b->ntests)
		return cdm_err_set(err, -EINVAL, "%u tests vs %u", a->ntests, b->ntests);
	for (unsigned int i = 0; i < a->ntests; i++) {
		const struct cdm_test_result *s = &a->tests[i], *t = &b->tests[i];

		cdm_spec_name(&s->spec, na, sizeof(na));
		cdm_spec_name(&t->spec, nb, sizeof(nb));
		if (s->dir != t->dir || !cdm_spec_same(&s->spec, &t->spec))
			return cdm_err_set(err, -EINVAL, "test %u is %s %s vs %s %s", i + 1, na,
					   cdm_result_dir_name(s->dir), nb, cdm_result_dir_name(t->dir));
	}
	return 0;
}

static void free_sources(struct cdm_run_result **in, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		cdm_result_free(in[i]);
}

void cdm_merge_free(struct cdm_run_result *agg)
{
	cdm_result_free(agg);   /* which frees agg->scale and its runs */
}

/* test @i of the aggregate from test @i of every run */
static void merge_test(struct cdm_test_result *t, struct cdm_run_result *const *in,
		       unsigned int n, unsigned int i)
{
	unsigned int np = CDM_MAX_PASSES, hists = 0;

	t->spec = in[0]->tests[i].spec;
	t->spec.threads = 0;
	t->dir = in[0]->tests[i].dir;
	t->qd_run = in[0]->tests[i].qd_run;
	for (unsigned int r = 0; r < n; r++) {
		const struct cdm_test_result *s = &in[r]->tests[i];

		t->spec.threads += s->spec.threads;
		if (s->qd_run < t->qd_run)
			t->qd_run = s->qd_run;
		if (s->npasses < np)
			np = s->npasses;
		if (s->error && !t->error) {
			t->error = s->error;
			t->error_offset = s->error_offset;
		}
		hists += cdm_result_has_percentiles(s);
		t->parts_unknown |= s->parts_unknown;
	}
	/* pass k of the aggregate: pass k of every run, summed */
	for (unsigned int k = 0; k < np; k++) {
		struct cdm_pass *p = &t->passes[k];

		memset(p, 0, sizeof(*p));
		for (unsigned int r = 0; r < n; r++) {
			const struct cdm_pass *q = &in[r]->tests[i].passes[k];

			/* the windows are the same length by schedule; keep the longest */
			if (q->seconds > p->seconds)
				p->seconds = q->seconds;
			if (q->start_unix_ns && (!p->start_unix_ns || q->start_unix_ns < p->start_unix_ns))
				p->start_unix_ns = q->start_unix_ns;
			cdm_pass_add(p, q);
		}
	}
	t->npasses = np;
	/* percentiles only from every run's histogram, never from some */
	if (hists == n)
		for (unsigned int r = 0; r < n; r++)
			cdm_hist_merge(t->hist, in[r]->tests[i].hist);
}

/*
 * The findings of memory under the target (result.h) of @from that @to
 * does not have yet: memory under any one host's target is under the
 * aggregate's figures too.  Kept to CDM_MEM_UNDER_MAX.
 */
static void add_mem_under(struct cdm_run_info *to, const struct cdm_run_info *from)
{
	for (unsigned int i = 0; i < from->nmem_under && to->nmem_under < CDM_MEM_UNDER_MAX; i++) {
		const struct cdm_mem_under *f = &from->mem_under[i];
		unsigned int k;

		for (k = 0; k < to->nmem_under; k++)
			if (!strcmp(to->mem_under[k].kind, f->kind) &&
			    !strcmp(to->mem_under[k].stack, f->stack))
				break;
		if (k == to->nmem_under)
			to->mem_under[to->nmem_under++] = *f;
	}
}

/*
 * Every count the aggregate's passes add up (pass k over the runs, then
 * its window over the passes) fits in 64 bits: all of each test's passes
 * of all runs added up, which each of those sums is a part of.  0, or
 * -EOVERFLOW naming the test and the count.
 */
static int merge_fits(struct cdm_run_result *const *in, unsigned int n, struct cdm_err *err)
{
	for (unsigned int i = 0; i < in[0]->ntests; i++) {
		struct cdm_pass sum = { 0 };
		const char *what = NULL;
		char name[64];

		for (unsigned int r = 0; r < n && !what; r++)
			for (unsigned int k = 0; k < in[r]->tests[i].npasses && !what; k++)
				what = cdm_pass_sum_overflow(&sum, &in[r]->tests[i].passes[k]);
		if (!what)
			continue;
		cdm_spec_name(&in[0]->tests[i].spec, name, sizeof(name));
		return cdm_err_set(err, -EOVERFLOW, "%s %s: the runs' %s add up past 2^64", name,
				   cdm_result_dir_name(in[0]->tests[i].dir), what);
	}
	return 0;
}

/*
 * Run @r's settings into the aggregate @agg (a copy of the first run's):
 * a sum of the runs' (the --rate-iops requested in total), or one value
 * kept only if every run shares it (a seed; else none), by the table
 */
static void merge_settings(struct cdm_run_result *agg, const struct cdm_run_result *run,
			   unsigned int r)
{
	unsigned int nset;
	const struct cdm_setting *set = cdm_settings(&nset);

	for (unsigned int i = 0; i < nset; i++) {
		const struct cdm_setting *s = &set[i];
		uint64_t v = cdm_settings_u64(s, run);

		if (s->merge == CDM_MERGE_SUM && r)
			cdm_settings_set_u64(s, agg, cdm_settings_u64(s, agg) + v);
		else if (s->merge == CDM_MERGE_SHARED && v != cdm_settings_u64(s, agg))
			cdm_settings_set_u64(s, agg, 0);
	}
}

/*
 * Whether the @n runs can be summed: runs of cdm (a CrystalDiskMark
 * report's figures are best-of, not passes), without --steady-state, each
 * matching the first (cdm_merge_check()), their sums fitting.  Returns 0,
 * or the error, said in @err.
 */
static int merge_can(struct cdm_run_result **in, const char *const *names, unsigned int n,
		     struct cdm_err *err)
{
	struct cdm_err why;

	for (unsigned int r = 0; r < n; r++) {
		if (in[r]->info.source.kind != CDM_SOURCE_RUN)
			return cdm_err_set(err, -EINVAL, "%s is an imported CrystalDiskMark report: it has no passes to add up",
					   names[r]);
		/* pass k of one run is not pass k of another when each got steady at its own round */
		if (in[r]->info.steady_state)
			return cdm_err_set(err, -EINVAL, "%s ran with --steady-state: its rounds cannot be added up with another run's (each gets steady at its own round)",
					   names[r]);
	}
	for (unsigned int r = 1; r < n; r++)
		if (cdm_merge_check(in[0], in[r], &why) < 0)
			/* the message first: @names may point into the runs */
			return cdm_err_set(err, -EINVAL, "%s does not match %s: %s", names[r],
					   names[0], why.msg);
	if (merge_fits(in, n, err) < 0)
		return -EOVERFLOW;
	return 0;
}

/* the aggregate's info from the @n runs': the first's, with what they share */
static void merge_info(struct cdm_run_result *agg, struct cdm_run_result **in, unsigned int n,
		       const char *unit)
{
	int same = 1;

	agg->info = in[0]->info;
	agg->aggregate = in[0]->aggregate;
	agg->cv_threshold_pct = in[0]->cv_threshold_pct;
	for (unsigned int r = 0; r < n; r++) {
		if (in[r]->interrupted && !agg->interrupted)
			agg->interrupted = in[r]->interrupted;
		if (strcmp(in[r]->info.engine, agg->info.engine))
			snprintf(agg->info.engine, sizeof(agg->info.engine), "mixed");
		if (in[r]->info.start < agg->info.start)
			agg->info.start = in[r]->info.start;
		agg->info.admin &= in[r]->info.admin;
		merge_settings(agg, in[r], r);
		if (r)
			add_mem_under(&agg->info, &in[r]->info);
	}
	/* one label shared by every run names the aggregate; else the target */
	for (unsigned int r = 1; r < n; r++)
		same &= !strcmp(in[r]->info.label, in[0]->info.label);
	snprintf(agg->info.label, sizeof(agg->info.label), "%.200s (%u %s)",
		 same && in[0]->info.label[0] ? in[0]->info.label : in[0]->info.target, n, unit);
}

int cdm_merge(struct cdm_run_result **in, const char *const *names, unsigned int n,
	      const char *unit, struct cdm_run_result **out, struct cdm_err *err)
{
	struct cdm_run_result *agg;
	struct cdm_scale *sc;
	int ret;

	*out = NULL;
	if (n < 1 || n > CDM_MERGE_MAX) {
		free_sources(in, n);
		return cdm_err_set(err, -EINVAL, "%u runs to merge (1-%d)", n, CDM_MERGE_MAX);
	}
	ret = merge_can(in, names, n, err);
	if (ret < 0) {
		free_sources(in, n);
		return ret;
	}
	agg = cdm_result_alloc(in[0]->ntests);
	sc = calloc(1, sizeof(*sc));
	if (!agg || !sc || !(sc->src = calloc(n, sizeof(*sc->src)))) {
		free(sc);
		cdm_result_free(agg);
		free_sources(in, n);
		return cdm_err_set(err, -ENOMEM, "out of memory");
	}
	merge_info(agg, in, n, unit);
	for (unsigned int i = 0; i < agg->ntests; i++)
		merge_test(&agg->tests[i], in, n, i);
	snprintf(sc->unit, sizeof(sc->unit), "%s", unit);
	sc->n = n;
	for (unsigned int r = 0; r < n; r++) {
		snprintf(sc->src[r].name, sizeof(sc->src[r].name), "%s", names[r]);
		sc->src[r].res = in[r];
	}
	agg->scale = sc;
	*out = agg;
	return 0;
}

unsigned int cdm_merge_spread(const struct cdm_run_result *agg, unsigned int i,
			      double *min, double *median, double *max,
			      unsigned int *imin, unsigned int *imax)
{
	const struct cdm_scale *sc = agg->scale;
	unsigned int m = 0;
	double *v;

	if (!sc || !sc->n || i >= agg->ntests)
		return 0;
	v = malloc(sizeof(*v) * sc->n);
	if (!v)
		return 0;
	for (unsigned int r = 0; r < sc->n; r++) {
		const struct cdm_test_result *t = &sc->src[r].res->tests[i];
		double x;

		/* a run that measured nothing has no MB/s: not a 0 in the spread */
		if (cdm_result_state(t) != CDM_PASS_MEASURED)
			continue;
		x = cdm_result_mb_s(t, agg->aggregate);
		if (!m || x < *min) {
			*min = x;
			*imin = r;
		}
		if (!m || x > *max) {
			*max = x;
			*imax = r;
		}
		v[m++] = x;
	}
	if (m)
		*median = cdm_result_median(v, m);
	free(v);
	return m;
}

uint64_t cdm_merge_start_spread(const struct cdm_run_result *agg, unsigned int i,
				unsigned int *pass)
{
	const struct cdm_scale *sc = agg->scale;
	uint64_t worst = 0;

	if (pass)
		*pass = 0;
	for (unsigned int k = 0; sc && i < agg->ntests && k < CDM_MAX_PASSES; k++) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (unsigned int r = 0; r < sc->n; r++) {
			const struct cdm_test_result *t = &sc->src[r].res->tests[i];

			if (k >= t->npasses || !t->passes[k].start_unix_ns)
				return worst;
			lo = t->passes[k].start_unix_ns < lo ? t->passes[k].start_unix_ns : lo;
			hi = t->passes[k].start_unix_ns > hi ? t->passes[k].start_unix_ns : hi;
		}
		if (hi - lo > worst) {
			worst = hi - lo;
			if (pass)
				*pass = k;
		}
	}
	return worst;
}

int cdm_merge_overlap(const struct cdm_run_result *agg, uint64_t *spread_ns, uint64_t *pass_ns)
{
	uint64_t worst = 0, len = 0;

	for (unsigned int i = 0; i < agg->ntests; i++) {
		unsigned int k;
		uint64_t s = cdm_merge_start_spread(agg, i, &k);

		if (s > worst && k < agg->tests[i].npasses) {
			worst = s;
			len = (uint64_t)(agg->tests[i].passes[k].seconds * 1e9);
		}
	}
	*spread_ns = worst;
	*pass_ns = len;
	return len && worst * 10 > len;
}
