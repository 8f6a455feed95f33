/* SPDX-License-Identifier: MIT */
/*
 * report.c - the registry of output formats: one row per formatter, each
 * formatter in its own file in src/report/.  Adding a format is one file
 * and one row here; the CLI only ever asks cdm_report_find() (and
 * writes the files, cli.c).  The helpers the formatters share are in
 * fmt.c: a formatter never uses this file, so the registry can list them
 * all.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cdm/report/formatter.h"
#include "cdm/report/report.h"

/*
 * The formats, one row each: the --format value and the formatter's file
 * in src/report/, whose `const struct cdm_formatter cdm_report_FILE` is
 * the row's.  The declarations are made from the rows, so adding a format
 * is its file and its row, nothing else.
 */
#define CDM_REPORT_FORMATS(X)							\
	X("cdm", text)		/* CrystalDiskMark 8 text, the default */	\
	X("cdm7", text_cdm7)	/* CrystalDiskMark 7 text */			\
	X("cdm6", text_cdm6)	/* CrystalDiskMark 6 text */			\
	X("json", json)		/* the versioned schema, for compare and scripts */ \
	X("csv", csv)		/* one row per pass, plus summary rows */	\
	X("markdown", markdown)	/* a table to paste into a post */	\
	X("svg", svg_card)	/* CDM's window as a picture, for a post */

#define DECLARE(value, file) extern const struct cdm_formatter cdm_report_##file;
CDM_REPORT_FORMATS(DECLARE)
#undef DECLARE

/* --format value -> formatter */
static const struct {
	const char *name;
	const struct cdm_formatter *fmt;
} formatters[] = {
#define ROW(value, file) { value, &cdm_report_##file },
	CDM_REPORT_FORMATS(ROW)
#undef ROW
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct cdm_formatter *cdm_report_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(formatters); i++)
		if (!strcmp(formatters[i].name, name))
			return formatters[i].fmt;
	return NULL;
}

const struct cdm_formatter *cdm_report_at(unsigned int i)
{
	return i < ARRAY_SIZE(formatters) ? formatters[i].fmt : NULL;
}

char *cdm_report_names(char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(formatters); i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", formatters[i].name);

		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';	/* whole names only */
			break;
		}
		used += (size_t)n;
	}
	return buf;
}
