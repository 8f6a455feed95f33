/* SPDX-License-Identifier: MIT */
/*
 * report_util.h - helpers shared by the formatters in src/report/ (and by
 * cdm compare): number and string output that is exact, locale-proof and
 * valid in JSON, CSV and Markdown.  Private to the report code.
 */
#ifndef CDM_REPORT_UTIL_H
#define CDM_REPORT_UTIL_H

#include <stddef.h>
#include <stdio.h>

/*
 * cdm_report_num - @v as the shortest decimal text that reads back as the
 * same double ("5", "1048.576", "1.25e-07"), "." as decimal point (cdm
 * never calls setlocale).  Not finite: "null".  @len >= 32 is enough.
 * Returns @buf.
 */
char *cdm_report_num(char *buf, size_t len, double v);

/*
 * cdm_report_json_str - write @s (at most @max bytes, stopping at a NUL)
 * to @out as a JSON string with its quotes: '"', '\\' and control
 * characters escaped, bytes that are not valid UTF-8 replaced by U+FFFD,
 * so that the output is always valid JSON whatever a path holds.
 */
void cdm_report_json_str(FILE *out, const char *s, size_t max);

/*
 * cdm_report_utc - @t as "2024-06-22T17:19:21Z" in @buf (@len >= 21), or
 * "" when the time cannot be converted.  Returns @buf.
 */
char *cdm_report_utc(char *buf, size_t len, long long t);

/*
 * cdm_report_iops_of - IOPS derived from @mb_s as printed with "%.3f"
 * (CDM's rule: MB/s x 1e6 / @block bytes, from the rounded MB/s), as the
 * text report prints it.  0.0 when @block is 0.
 */
double cdm_report_iops_of(double mb_s, unsigned long long block);

struct cdm_series;
struct cdm_run_result;

/*
 * cdm_report_json_series - the "series" object of one test (JSON, at the
 * indentation of a test's keys, no trailing comma).
 * cdm_report_csv_series - the CSV time-series section (a blank line, its
 * own header, one row per interval), nothing when no test has a series.
 * Both specified in docs/output-formats.md, "Time series".
 */
void cdm_report_json_series(FILE *out, const struct cdm_series *s);
void cdm_report_csv_series(FILE *out, const struct cdm_run_result *r);

#endif /* CDM_REPORT_UTIL_H */
