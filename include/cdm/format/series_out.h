/* SPDX-License-Identifier: MIT */
/*
 * series_out.h - the --log-interval time series in the JSON and CSV
 * formats (series_out.c).  Private to report/.  Both are specified in
 * docs/output-formats.md, "Time series".
 */
#ifndef CDM_FORMAT_SERIES_OUT_H
#define CDM_FORMAT_SERIES_OUT_H

#include <stdio.h>

struct cdm_jsonw;
struct cdm_series;
struct cdm_run_result;

/*
 * cdm_series_out_json - the "series" member of one test's object, to @w.
 */
void cdm_series_out_json(struct cdm_jsonw *w, const struct cdm_series *s);

/*
 * cdm_series_out_csv - the CSV time-series section of @r (a blank line,
 * its own header, one row per interval); nothing when no test has a
 * series.
 */
void cdm_series_out_csv(FILE *out, const struct cdm_run_result *r);

#endif /* CDM_FORMAT_SERIES_OUT_H */
