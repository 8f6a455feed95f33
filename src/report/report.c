/* SPDX-License-Identifier: MIT */
/*
 * report.c - the registry of output formats: one row per formatter, each
 * formatter in its own file in src/report/.  Adding a format is one file
 * and one row here; the CLI only ever asks cdm_report_find().  Also the
 * atomic --save.  The helpers the formatters share are in fmt.c: a
 * formatter never uses this file, so the registry can list them all.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cdm/target/outfile.h"
#include "cdm/report/formatter.h"
#include "cdm/report/report.h"

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
