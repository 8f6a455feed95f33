/* SPDX-License-Identifier: MIT */
/*
 * scale.c - what the reports add for an aggregate of several runs
 * (cdm-mpi's ranks, `cdm merge`'s files; the aggregate itself is
 * model/merge.c): a line under the text report's header saying how many
 * runs were summed, the per-run MB/s spread after its footer, and the
 * "scale" member of the JSON with every run's figures.  Each does nothing
 * for a single run (r->scale NULL).  docs/scale-out.md shows them.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/jsonw.h"
#include "cdm/model/merge.h"
#include "cdm/model/spec.h"
#include "cdm/report/fmt.h"
#include "scale.h"

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

static void jnum(FILE *out, double v)
{
	char buf[40];

	fputs(cdm_fmt_num(buf, sizeof(buf), v), out);
}

/*
 * how far apart the runs started the same pass of test @i: the largest,
 * over its passes, of latest start - earliest start (ns; 0 if unknown)
 */
static uint64_t start_spread(const struct cdm_scale *sc, unsigned int i)
{
	uint64_t worst = 0;

	for (unsigned int k = 0; k < CDM_MAX_PASSES; k++) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (unsigned int r = 0; r < sc->n; r++) {
			const struct cdm_test_result *t = &sc->src[r].res->tests[i];

			if (k >= t->npasses || !t->passes[k].start_unix_ns)
				return worst;
			lo = t->passes[k].start_unix_ns < lo ? t->passes[k].start_unix_ns : lo;
			hi = t->passes[k].start_unix_ns > hi ? t->passes[k].start_unix_ns : hi;
		}
		if (hi - lo > worst)
			worst = hi - lo;
	}
	return worst;
}

void cdm_scale_json(struct cdm_jsonw *w, const struct cdm_run_result *r)
{
	const struct cdm_scale *sc = r->scale;
	FILE *out = w->out;

	if (!sc)
		return;
	cdm_jsonw_raw(w, "scale", "");
	fputs("{\n", out);
	fputs("    \"unit\": ", out);
	cdm_fmt_json_str(out, sc->unit, sizeof(sc->unit));
	fprintf(out, ",\n    \"count\": %u,\n", sc->n);
	fputs("    \"spread_mb_s\": [", out);
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		double mn = 0, md = 0, mx = 0;
		unsigned int imin = 0, imax = 0, m;
		char name[64];

		m = cdm_merge_spread(r, i, &mn, &md, &mx, &imin, &imax);
		cdm_spec_name(&sc->src[0].res->tests[i].spec, name, sizeof(name));
		fprintf(out, "%s\n      { \"name\": ", i ? "," : "");
		cdm_fmt_json_str(out, name, sizeof(name));
		fprintf(out, ", \"direction\": \"%s\", ", cdm_result_dir_key(t->dir));
		if (!m) {
			fputs("\"start_spread_ns\": null, \"min\": null, \"median\": null, \"max\": null, \"min_at\": null, \"max_at\": null }", out);
			continue;
		}
		fprintf(out, "\"start_spread_ns\": %" PRIu64 ", \"min\": ", start_spread(sc, i));
		jnum(out, mn);
		fputs(", \"median\": ", out);
		jnum(out, md);
		fputs(", \"max\": ", out);
		jnum(out, mx);
		fputs(", \"min_at\": ", out);
		cdm_fmt_json_str(out, sc->src[imin].name, sizeof(sc->src[imin].name));
		fputs(", \"max_at\": ", out);
		cdm_fmt_json_str(out, sc->src[imax].name, sizeof(sc->src[imax].name));
		fputs(" }", out);
	}
	fputs(r->ntests ? "\n    ],\n" : "],\n", out);
	fputs("    \"sources\": [", out);
	for (unsigned int s = 0; s < sc->n; s++) {
		const struct cdm_run_result *x = sc->src[s].res;

		fprintf(out, "%s\n      {\n        \"name\": ", s ? "," : "");
		cdm_fmt_json_str(out, sc->src[s].name, sizeof(sc->src[s].name));
		fputs(",\n        \"label\": ", out);
		cdm_fmt_json_str(out, x->info.label, sizeof(x->info.label));
		fputs(",\n        \"target\": ", out);
		cdm_fmt_json_str(out, x->info.target, sizeof(x->info.target));
		fprintf(out, ",\n        \"start_unix\": %lld,\n        \"tests\": [",
			(long long)x->info.start);
		for (unsigned int i = 0; i < x->ntests; i++) {
			const struct cdm_test_result *t = &x->tests[i];
			char name[64];

			cdm_spec_name(&t->spec, name, sizeof(name));
			fprintf(out, "%s\n          { \"name\": ", i ? "," : "");
			cdm_fmt_json_str(out, name, sizeof(name));
			fprintf(out, ", \"direction\": \"%s\", \"mb_s\": ", cdm_result_dir_key(t->dir));
			/* NaN (nothing measured) prints as null */
			jnum(out, cdm_result_mb_s(t, r->aggregate));
			fputs(", \"reason\": ", out);
			if (cdm_result_state(t) == CDM_PASS_MEASURED)
				fputs("null", out);
			else
				cdm_fmt_json_str(out, cdm_pass_state_reason(cdm_result_state(t)), 64);
			fputs(", \"passes\": [", out);
			for (unsigned int k = 0; k < t->npasses; k++) {
				const struct cdm_pass *p = &t->passes[k];

				fprintf(out, "%s{ \"start_unix_ns\": %" PRIu64 ", \"duration_s\": ",
					k ? ", " : "", p->start_unix_ns);
				jnum(out, p->seconds);
				fprintf(out, ", \"bytes\": %" PRIu64 ", \"ios\": %" PRIu64
					", \"lat_sum_ns\": %" PRIu64 " }", p->bytes, p->ios, p->lat_sum_ns);
			}
			fputs("] }", out);
		}
		fputs(x->ntests ? "\n        ]\n      }" : "]\n      }", out);
	}
	fputs(sc->n ? "\n    ]\n  }" : "]\n  }", out);
}
