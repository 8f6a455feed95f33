/* SPDX-License-Identifier: MIT */
/*
 * report.c - the registry of output formats: one row per formatter, each
 * formatter in its own file in src/report/.  Adding a format is one file
 * and one row here; the CLI only ever asks cdm_report_find().  Also the
 * helpers the formatters share (report_util.h) and the atomic --save.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cdm/model/json_read.h"
#include "cdm/target/outfile.h"
#include "cdm/report/report.h"
#include "report_util.h"

/* defined in the formatters' own files (one file each) */
extern const struct cdm_formatter cdm_format_text;
extern const struct cdm_formatter cdm_format_json;
extern const struct cdm_formatter cdm_format_csv;
extern const struct cdm_formatter cdm_format_markdown;

/* --format value -> formatter */
static const struct {
	const char *name;
	const struct cdm_formatter *fmt;
} formatters[] = {
	{ "cdm", &cdm_format_text },    /* CrystalDiskMark 8 text, the default */
	{ "json", &cdm_format_json },   /* the versioned schema, for compare and scripts */
	{ "csv", &cdm_format_csv },     /* one row per pass, plus summary rows */
	{ "markdown", &cdm_format_markdown }, /* a table to paste into a post */
};

/*
 * Formats promised in the docs but not built yet: named here so that they
 * are refused as "not yet" rather than "unknown".  None at the moment.
 */
static const char *const planned_formats[] = {
	NULL,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct cdm_formatter *cdm_report_find(const char *name, int *planned)
{
	size_t i;

	if (planned)
		*planned = 0;
	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(formatters); i++)
		if (!strcmp(formatters[i].name, name))
			return formatters[i].fmt;
	for (i = 0; i < ARRAY_SIZE(planned_formats); i++) {
		if (planned_formats[i] && !strcmp(planned_formats[i], name)) {
			if (planned)
				*planned = 1;
			break;
		}
	}
	return NULL;
}

char *cdm_report_num(char *buf, size_t len, double v)
{
	int prec;

	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return buf;
	}
	if (v == 0.0) {
		/* -0.0 prints as "-0": not wrong, but surprising */
		snprintf(buf, len, "0");
		return buf;
	}
	/* plain decimals where a reader expects them: 1000, not 1e+03 */
	if ((v > 0 ? v : -v) >= 1e-4 && (v > 0 ? v : -v) < 1e15) {
		for (prec = 0; prec <= 20; prec++) {
			snprintf(buf, len, "%.*f", prec, v);
			if (strtod(buf, NULL) == v)
				return buf;
		}
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

void cdm_report_json_str(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strnlen(s, max), i = 0, l;

	fputc('"', out);
	while (i < n) {
		unsigned char c = p[i];

		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
			i++;
		} else if (c == '\n') {
			fputs("\\n", out);
			i++;
		} else if (c == '\t') {
			fputs("\\t", out);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else if ((l = cdm_utf8_len(p + i, n - i)) != 0) {
			fwrite(p + i, 1, l, out);
			i += l;
		} else {
			fputs("\\ufffd", out);
			i++;
		}
	}
	fputc('"', out);
}

char *cdm_report_utc(char *buf, size_t len, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (len)
		buf[0] = '\0';
	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		if (len)
			buf[0] = '\0';
	return buf;
}

struct save_arg {
	const struct cdm_formatter *fmt;
	const struct cdm_run_result *r;
};

static int save_write(FILE *f, const void *arg)
{
	const struct save_arg *a = arg;

	return a->fmt->write(f, a->r);
}

int cdm_report_save(const char *path, const struct cdm_formatter *fmt,
		    const struct cdm_run_result *r)
{
	struct save_arg a = { .fmt = fmt, .r = r };

	return cdm_outfile_write(path, save_write, &a);
}

double cdm_report_iops_of(double mb_s, unsigned long long block)
{
	char printed[320];              /* "%.3f" of DBL_MAX is 313 chars */

	if (!block)
		return 0.0;
	snprintf(printed, sizeof(printed), "%.3f", mb_s);
	return strtod(printed, NULL) * 1e6 / (double)block;
}
