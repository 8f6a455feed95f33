/* SPDX-License-Identifier: MIT */
/*
 * series_out.c - the --log-interval time series in the JSON and CSV
 * formats (docs/output-formats.md, "Time series"): one object per test in
 * JSON, one CSV section after the pass rows.  Figures come from the merged
 * interval counts only: MB/s = bytes / duration / 1e6, IOPS = ios /
 * duration, mean latency = latency sum / ios.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/jsonw.h"
#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/report/fmt.h"
#include "series_out.h"

static void num(FILE *out, const char *pre, double v)
{
	char buf[40];

	fprintf(out, "%s%s", pre, cdm_fmt_num(buf, sizeof(buf), v));
}

void cdm_series_out_json(struct cdm_jsonw *w, const struct cdm_series *s)
{
	FILE *out = w->out;

	cdm_jsonw_raw(w, "series", "");
	fputs("{\n", out);
	fprintf(out, "        \"interval_ns\": %" PRIu64 ",\n", s->interval_ns);
	fputs(s->npoints ? "        \"points\": [\n" : "        \"points\": [],\n", out);
	for (unsigned int i = 0; i < s->npoints; i++) {
		const struct cdm_series_point *p = &s->points[i];

		fprintf(out, "          { \"pass\": %u, \"warmup\": %s, \"start_ns\": %" PRIu64
			", \"duration_ns\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"ios\": %" PRIu64,
			p->pass, p->pass ? "false" : "true", p->start_ns, p->duration_ns,
			p->bytes, p->ios);
		num(out, ", \"mb_s\": ", cdm_series_point_mb_s(p));
		num(out, ", \"iops\": ", cdm_series_point_iops(p));
		if (p->ios) {
			num(out, ", \"lat_mean_us\": ", cdm_series_point_lat_us(p));
			num(out, ", \"lat_p99_us\": ", (double)p->lat_p99_ns / 1e3);
		} else {
			fputs(", \"lat_mean_us\": null, \"lat_p99_us\": null", out);
		}
		fprintf(out, " }%s\n", i + 1 < s->npoints ? "," : "");
	}
	if (s->npoints)
		fputs("        ],\n", out);
	if (s->burst.found) {
		num(out, "        \"burst\": { \"high_mb_s\": ", s->burst.high);
		num(out, ", \"low_mb_s\": ", s->burst.low);
		fprintf(out, ", \"low_from_ns\": %" PRIu64 " },\n", s->burst_at_ns);
	} else {
		fputs("        \"burst\": null,\n", out);
	}
	if (s->ceiling.found) {
		num(out, "        \"ceiling\": { \"mb_s\": ", s->ceiling_mb_s);
		fputs(", \"from_test\": ", out);
		cdm_fmt_json_str(out, s->ceiling_from, sizeof(s->ceiling_from));
		num(out, ", \"lat_ratio\": ", s->ceiling.lat_ratio);
		fputs(" }\n", out);
	} else {
		fputs("        \"ceiling\": null\n", out);
	}
	fputs("      }", out);
}

/* RFC 4180 quoting, as csv.c does */
static void field(FILE *out, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	if (strcspn(s, ",\"\r\n") >= n) {
		fwrite(s, 1, n, out);
		return;
	}
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

void cdm_series_out_csv(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	int any = 0;

	for (unsigned int i = 0; i < r->ntests; i++)
		any |= r->tests[i].series != NULL;
	if (!any)
		return;
	fputs("\nlabel,test,direction,pass,warmup,start_ns,duration_ns,bytes,ios,mb_s,iops,"
	      "lat_mean_us,lat_p99_us\n", out);
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		char name[64], buf[40];

		if (!t->series)
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		for (unsigned int k = 0; k < t->series->npoints; k++) {
			const struct cdm_series_point *p = &t->series->points[k];

			if (in->label[0])
				field(out, in->label, sizeof(in->label));
			else
				field(out, in->target, sizeof(in->target));
			fprintf(out, ",%s,%s,%u,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				name, cdm_result_dir_key(t->dir), p->pass,
				!p->pass, p->start_ns, p->duration_ns, p->bytes, p->ios);
			fprintf(out, ",%s", cdm_fmt_num(buf, sizeof(buf), cdm_series_point_mb_s(p)));
			fprintf(out, ",%s", cdm_fmt_num(buf, sizeof(buf), cdm_series_point_iops(p)));
			if (p->ios) {
				fprintf(out, ",%s", cdm_fmt_num(buf, sizeof(buf),
								   cdm_series_point_lat_us(p)));
				fprintf(out, ",%s\n", cdm_fmt_num(buf, sizeof(buf),
								     (double)p->lat_p99_ns / 1e3));
			} else {
				fputs(",,\n", out);
			}
		}
	}
}
