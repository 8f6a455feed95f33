/* SPDX-License-Identifier: MIT */
/*
 * result_read_scale.c - the "scale" of an aggregate (cdm merge --save,
 * cdm-mpi --save; format/scale.c writes it) read back into r->scale: each
 * run's name, label, target, start and its tests' passes, so that the
 * report of the saved aggregate prints what the aggregate printed (the
 * "Aggregate:" line, the per-run spread, the JSON's "scale").  Only the
 * counts are read; the figures ("spread_mb_s", each test's "mb_s" and
 * "reason") are derived again from them, as for a run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/json.h"
#include "cdm/base/text.h"
#include "cdm/model/merge.h"
#include "cdm/model/pass.h"
#include "cdm/model/spec.h"
#include "result_rd.h"

/* the five counts a run's pass keeps in the scale */
static int read_pass(struct cdm_err *err, const struct cdm_json *pj, const char *where,
		     struct cdm_pass *p)
{
	const struct cdm_json *v;

	if (pj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, pj);
	v = cdm_result_get_mem(err, pj, where, "duration_s", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	if (!(v->num >= 0.0 && v->num < 1e7))
		return cdm_result_get_bad(err, "%s.duration_s: out of range", where);
	p->seconds = v->num;
	if (cdm_result_get_opt_u64(err, pj, where, "start_unix_ns", &p->start_unix_ns) ||
	    cdm_result_get_u64(err, pj, where, "bytes", &p->bytes) ||
	    cdm_result_get_u64(err, pj, where, "ios", &p->ios) ||
	    cdm_result_get_u64(err, pj, where, "lat_sum_ns", &p->lat_sum_ns))
		return -EINVAL;
	return 0;
}

/*
 * test @i of a run: the aggregate's test @agg with this run's threads
 * (its "name" says them), in the same direction, and its passes
 */
static int read_test(struct cdm_err *err, const struct cdm_json *tj, const char *where,
		     const struct cdm_test_result *agg, struct cdm_test_result *t)
{
	const struct cdm_json *passes;
	struct cdm_spec spec;
	struct cdm_pass sum = { 0 };
	char name[64], dir[16], w[112];

	if (tj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, tj);
	if (cdm_result_get_str(err, tj, where, "name", name, sizeof(name), 0) ||
	    cdm_result_get_str(err, tj, where, "direction", dir, sizeof(dir), 0))
		return -EINVAL;
	spec = agg->spec;
	if (cdm_spec_parse(name, &spec, NULL) || spec.pattern != agg->spec.pattern ||
	    spec.block != agg->spec.block || spec.qd != agg->spec.qd ||
	    spec.write_pct != agg->spec.write_pct || spec.threads > agg->spec.threads)
		return cdm_result_get_bad(err, "%s.name: \"%s\" is not a run of the aggregate's test", where, name);
	if (strcmp(dir, cdm_result_dir_key(agg->dir)))
		return cdm_result_get_bad(err, "%s.direction: \"%s\", but the aggregate's test is \"%s\"", where,
					  dir, cdm_result_dir_key(agg->dir));
	t->spec = spec;
	t->dir = agg->dir;
	t->qd_run = agg->qd_run;
	passes = cdm_result_get_mem(err, tj, where, "passes", CDM_JSON_ARRAY, 0);
	if (!passes)
		return -EINVAL;
	if (passes->n > CDM_MAX_PASSES)
		return cdm_result_get_bad(err, "%s.passes: %zu passes, more than %d", where, passes->n, CDM_MAX_PASSES);
	t->npasses = (unsigned int)passes->n;
	for (unsigned int k = 0; k < t->npasses; k++) {
		const char *what;

		snprintf(w, sizeof(w), "%s.passes[%u]", where, k);
		if (read_pass(err, &passes->items[k], w, &t->passes[k]))
			return -EINVAL;
		what = cdm_pass_sum_overflow(&sum, &t->passes[k]);
		if (what)
			return cdm_result_get_bad(err, "%s: its %s add up past 2^64", w, what);
	}
	return 0;
}

/* sources[@idx] of the aggregate @agg into @src (its name, and a new result src->res) */
static int read_source(struct cdm_err *err, const struct cdm_json *sj, unsigned int idx,
		       const struct cdm_run_result *agg, struct cdm_scale_source *src)
{
	const struct cdm_json *tests, *v;
	struct cdm_run_result *x;
	char where[48], w[80];

	snprintf(where, sizeof(where), "scale.sources[%u]", idx);
	if (sj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, sj);
	tests = cdm_result_get_mem(err, sj, where, "tests", CDM_JSON_ARRAY, 0);
	if (!tests)
		return -EINVAL;
	if (tests->n != agg->ntests)
		return cdm_result_get_bad(err, "%s.tests: %zu tests, but the aggregate has %u", where, tests->n,
					  agg->ntests);
	x = src->res = cdm_result_alloc(agg->ntests);
	if (!x)
		return cdm_err_set(err, -ENOMEM, "out of memory");
	if (cdm_result_get_str(err, sj, where, "name", src->name, sizeof(src->name), 0) ||
	    cdm_result_get_str(err, sj, where, "label", x->info.label, sizeof(x->info.label), 1) ||
	    cdm_result_get_str(err, sj, where, "target", x->info.target, sizeof(x->info.target), 1))
		return -EINVAL;
	v = cdm_result_get_mem(err, sj, where, "start_unix", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	if (!v->is_uint || v->u64 >= 10000000000000ull)
		return cdm_result_get_bad(err, "%s.start_unix: out of range", where);
	x->info.start = (time_t)v->u64;
	/* a name or label is printed in the reports: one line each */
	cdm_text_one_line(src->name);
	cdm_result_info_one_line(&x->info);
	for (unsigned int i = 0; i < agg->ntests; i++) {
		snprintf(w, sizeof(w), "%s.tests[%u]", where, i);
		if (read_test(err, &tests->items[i], w, &agg->tests[i], &x->tests[i]))
			return -EINVAL;
	}
	return 0;
}

/* an aggregate's test runs the threads of all its runs (model/merge.h) */
static int threads_add_up(struct cdm_err *err, const struct cdm_run_result *r)
{
	for (unsigned int i = 0; i < r->ntests; i++) {
		uint64_t t = 0;

		for (unsigned int k = 0; k < r->scale->n; k++)
			t += r->scale->src[k].res->tests[i].spec.threads;
		if (t != r->tests[i].spec.threads)
			return cdm_result_get_bad(err, "scale.sources: the runs' threads of tests[%u] add up to %" PRIu64 ", not its %u",
						  i, t, r->tests[i].spec.threads);
	}
	return 0;
}

int cdm_result_read_scale(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_result *r)
{
	const struct cdm_json *sj = cdm_json_get(root, "scale"), *srcs;
	struct cdm_scale *sc;
	unsigned int n;

	if (!sj)
		return 0;
	if (sj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, "scale", sj);
	srcs = cdm_result_get_mem(err, sj, "scale", "sources", CDM_JSON_ARRAY, 0);
	if (!srcs || cdm_result_get_uint(err, sj, "scale", "count", CDM_MERGE_MAX, &n))
		return -EINVAL;
	if (n < 1 || n != srcs->n)
		return cdm_result_get_bad(err, "scale.count: %u, but %zu sources", n, srcs->n);
	sc = calloc(1, sizeof(*sc));
	if (!sc || !(sc->src = calloc(n, sizeof(*sc->src)))) {
		free(sc);
		return cdm_err_set(err, -ENOMEM, "out of memory");
	}
	/* the result holds it from here: cdm_result_free() frees what was read */
	r->scale = sc;
	if (cdm_result_get_str(err, sj, "scale", "unit", sc->unit, sizeof(sc->unit), 0))
		return -EINVAL;
	if (strcmp(sc->unit, "runs") && strcmp(sc->unit, "ranks"))
		return cdm_result_get_bad(err, "scale.unit: expected \"runs\" or \"ranks\"");
	for (unsigned int i = 0; i < n; i++) {
		int ret;

		sc->n = i + 1;
		ret = read_source(err, &srcs->items[i], i, r, &sc->src[i]);
		if (ret)
			return ret;
	}
	return threads_add_up(err, r);
}
