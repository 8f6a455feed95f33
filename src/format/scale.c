/* SPDX-License-Identifier: MIT */
/*
 * scale.c - what the reports add for an aggregate of several runs
 * (cdm-mpi's ranks, `cdm merge`'s files; the aggregate itself is
 * model/merge.c): a line under the text report's header saying how many
 * runs were summed, the per-run MB/s spread after its footer, and the
 * "scale" member of the JSON with every run's figures.  Each does nothing
 * for a single run (r->scale NULL).  docs/scale-out.md shows them.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/jsonw.h"
#include "cdm/model/merge.h"
#include "cdm/model/spec.h"
#include "cdm/format/fmt.h"
#include "cdm/format/scale.h"

void cdm_scale_text_head(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_scale *sc = r->scale;
	unsigned int t = 0;
	int same = 1;

	if (!sc || !r->ntests)
		return;
	t = sc->src[0].res->tests[0].spec.threads;
	for (unsigned int i = 0; i < r->ntests; i++)
		if (sc->src[0].res->tests[i].spec.threads != t)
			same = 0;
	/* sc->unit is plural ("runs"): "1 run" without its s */
	fprintf(out, "* Aggregate: %u %.*s x T", sc->n,
		(int)strlen(sc->unit) - (sc->n == 1), sc->unit);
	if (same)
		fprintf(out, "%u", t);
	fprintf(out, "; T = total threads; each pass summed over the %s\n", sc->unit);
}

/*
 * "; nothing measured by rank 3, rank 4": the runs of @sc whose passes of
 * test @i measured nothing (left out of the spread), after the spread
 */
static void text_unmeasured(FILE *out, const struct cdm_scale *sc, unsigned int i)
{
	int any = 0;

	for (unsigned int r = 0; r < sc->n; r++) {
		const struct cdm_test_result *t = &sc->src[r].res->tests[i];

		if (!t->npasses || cdm_result_state(t) == CDM_PASS_MEASURED)
			continue;
		fprintf(out, "%s%s", any ? ", " : "; nothing measured by ", sc->src[r].name);
		any = 1;
	}
}

void cdm_scale_text_tail(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_scale *sc = r->scale;
	int any = 0;

	if (!sc)
		return;
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &sc->src[0].res->tests[i];
		double mn = 0, md = 0, mx = 0;
		unsigned int imin = 0, imax = 0;
		char name[64], fmn[CDM_FMT_FIG_MAX], fmd[CDM_FMT_FIG_MAX], fmx[CDM_FMT_FIG_MAX];

		if (!cdm_merge_spread(r, i, &mn, &md, &mx, &imin, &imax))
			continue;
		if (!any) {
			fprintf(out, "\nPer %.*s MB/s (%s of each): min / median / max\n",
				(int)strlen(sc->unit) - 1, sc->unit, cdm_result_aggregate_name(r->aggregate));
			any = 1;
		}
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "  %-12s %-5s: %10s / %10s / %10s  (min %s, max %s", name,
			cdm_result_dir_name(t->dir), cdm_fmt_fig(fmn, sizeof(fmn), 3, mn, "", "-"),
			cdm_fmt_fig(fmd, sizeof(fmd), 3, md, "", "-"),
			cdm_fmt_fig(fmx, sizeof(fmx), 3, mx, "", "-"),
			sc->src[imin].name, sc->src[imax].name);
		text_unmeasured(out, sc, i);
		fputs(")\n", out);
	}
}

/* the spread of test @i's MB/s over the runs, its lowest and highest run */
static void json_spread(struct cdm_jsonw *w, const struct cdm_run_result *r, unsigned int i)
{
	const struct cdm_scale *sc = r->scale;
	double mn = 0, md = 0, mx = 0;
	unsigned int imin = 0, imax = 0, m;
	char name[64];

	m = cdm_merge_spread(r, i, &mn, &md, &mx, &imin, &imax);
	cdm_spec_name(&sc->src[0].res->tests[i].spec, name, sizeof(name));
	cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
	cdm_jsonw_strn(w, "name", name, sizeof(name));
	cdm_jsonw_str(w, "direction", cdm_result_dir_key(r->tests[i].dir));
	cdm_jsonw_u64_if(w, "start_spread_ns", m ? cdm_merge_start_spread(r, i, NULL) : 0, m);
	/* no run measured anything: no spread (null, never 0) */
	cdm_jsonw_num(w, "min", m ? mn : NAN);
	cdm_jsonw_num(w, "median", m ? md : NAN);
	cdm_jsonw_num(w, "max", m ? mx : NAN);
	if (m) {
		cdm_jsonw_strn(w, "min_at", sc->src[imin].name, sizeof(sc->src[imin].name));
		cdm_jsonw_strn(w, "max_at", sc->src[imax].name, sizeof(sc->src[imax].name));
	} else {
		cdm_jsonw_null(w, "min_at");
		cdm_jsonw_null(w, "max_at");
	}
	cdm_jsonw_end(w);
}

/* one run of the aggregate: its tests' MB/s under r->aggregate and their passes */
static void json_source(struct cdm_jsonw *w, const struct cdm_run_result *r,
			const struct cdm_scale_source *src)
{
	const struct cdm_run_result *x = src->res;

	cdm_jsonw_object(w, NULL, 0);
	cdm_jsonw_strn(w, "name", src->name, sizeof(src->name));
	cdm_jsonw_strn(w, "label", x->info.label, sizeof(x->info.label));
	cdm_jsonw_strn(w, "target", x->info.target, sizeof(x->info.target));
	cdm_jsonw_i64(w, "start_unix", x->info.start);
	cdm_jsonw_array(w, "tests", 0);
	for (unsigned int i = 0; i < x->ntests; i++) {
		const struct cdm_test_result *t = &x->tests[i];
		char name[64];

		cdm_spec_name(&t->spec, name, sizeof(name));
		cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
		cdm_jsonw_strn(w, "name", name, sizeof(name));
		cdm_jsonw_str(w, "direction", cdm_result_dir_key(t->dir));
		/* NaN (nothing measured) prints as null */
		cdm_jsonw_num(w, "mb_s", cdm_result_mb_s(t, r->aggregate));
		if (cdm_result_state(t) == CDM_PASS_MEASURED)
			cdm_jsonw_null(w, "reason");
		else
			cdm_jsonw_strn(w, "reason", cdm_pass_state_reason(cdm_result_state(t)), 64);
		cdm_jsonw_array(w, "passes", CDM_JSONW_COMPACT);
		for (unsigned int k = 0; k < t->npasses; k++) {
			const struct cdm_pass *p = &t->passes[k];

			cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
			cdm_jsonw_u64(w, "start_unix_ns", p->start_unix_ns);
			cdm_jsonw_num(w, "duration_s", p->seconds);
			cdm_jsonw_u64(w, "bytes", p->bytes);
			cdm_jsonw_u64(w, "ios", p->ios);
			cdm_jsonw_u64(w, "lat_sum_ns", p->lat_sum_ns);
			cdm_jsonw_end(w);
		}
		cdm_jsonw_end(w);
		cdm_jsonw_end(w);
	}
	cdm_jsonw_end(w);
	cdm_jsonw_end(w);
}

void cdm_scale_json(struct cdm_jsonw *w, const struct cdm_run_result *r)
{
	const struct cdm_scale *sc = r->scale;

	if (!sc)
		return;
	cdm_jsonw_object(w, "scale", 0);
	cdm_jsonw_strn(w, "unit", sc->unit, sizeof(sc->unit));
	cdm_jsonw_u64(w, "count", sc->n);
	cdm_jsonw_array(w, "spread_mb_s", 0);
	for (unsigned int i = 0; i < r->ntests; i++)
		json_spread(w, r, i);
	cdm_jsonw_end(w);
	cdm_jsonw_array(w, "sources", 0);
	for (unsigned int s = 0; s < sc->n; s++)
		json_source(w, r, &sc->src[s]);
	cdm_jsonw_end(w);
	cdm_jsonw_end(w);
}
