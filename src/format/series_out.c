/* SPDX-License-Identifier: MIT */
/*
 * series_out.c - the --log-interval time series in the JSON and CSV
 * formats (docs/output-formats.md, "Time series"): one object per test in
 * JSON, one CSV section after the pass rows.  Figures come from the merged
 * interval counts only: MB/s = bytes / duration / 1e6, IOPS = ios /
 * duration, mean latency = latency sum / ios.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/jsonw.h"
#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/format/fmt.h"
#include "cdm/format/series_out.h"

void cdm_series_out_json(struct cdm_jsonw *w, const struct cdm_series *s)
{
	cdm_jsonw_object(w, "series", 0);
	cdm_jsonw_u64(w, "interval_ns", s->interval_ns);
	cdm_jsonw_array(w, "points", 0);
	for (unsigned int i = 0; i < s->npoints; i++) {
		const struct cdm_series_point *p = &s->points[i];

		cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
		cdm_jsonw_u64(w, "pass", p->pass);
		cdm_jsonw_bool(w, "warmup", !p->pass);
		cdm_jsonw_u64(w, "start_ns", p->start_ns);
		cdm_jsonw_u64(w, "duration_ns", p->duration_ns);
		cdm_jsonw_u64(w, "bytes", p->bytes);
		cdm_jsonw_u64(w, "ios", p->ios);
		cdm_jsonw_num(w, "mb_s", cdm_series_point_mb_s(p));
		cdm_jsonw_num(w, "iops", cdm_series_point_iops(p));
		/* no I/O completed in the interval: no latency (null, never 0) */
		cdm_jsonw_num(w, "lat_mean_us", p->ios ? cdm_series_point_lat_us(p) : NAN);
		cdm_jsonw_num(w, "lat_p99_us", p->ios ? (double)p->lat_p99_ns / 1e3 : NAN);
		cdm_jsonw_end(w);
	}
	cdm_jsonw_end(w);
	if (s->burst.found) {
		cdm_jsonw_object(w, "burst", CDM_JSONW_COMPACT);
		cdm_jsonw_num(w, "high_mb_s", s->burst.high);
		cdm_jsonw_num(w, "low_mb_s", s->burst.low);
		cdm_jsonw_u64(w, "low_from_ns", s->burst_at_ns);
		cdm_jsonw_end(w);
	} else {
		cdm_jsonw_null(w, "burst");
	}
	if (s->ceiling.found) {
		cdm_jsonw_object(w, "ceiling", CDM_JSONW_COMPACT);
		cdm_jsonw_num(w, "mb_s", s->ceiling_mb_s);
		cdm_jsonw_strn(w, "from_test", s->ceiling_from, sizeof(s->ceiling_from));
		cdm_jsonw_num(w, "lat_ratio", s->ceiling.lat_ratio);
		cdm_jsonw_end(w);
	} else {
		cdm_jsonw_null(w, "ceiling");
	}
	cdm_jsonw_end(w);
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
