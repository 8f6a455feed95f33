/* SPDX-License-Identifier: MIT */
/*
 * report.c - the registry of output formats: one row per formatter, each
 * formatter in its own file (src/report/, or src/format/ beside its
 * reader).  Adding a format is one file
 * and one row here; the CLI only ever asks cdm_report_find() (and
 * writes the files, cli.c).  The helpers the formatters share are in
 * fmt.c: a formatter never uses this file, so the registry can list them
 * all.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/text.h"
#include "cdm/format/formatter.h"
#include "cdm/report/report.h"

/*
 * The formats, one row each: a `const struct cdm_formatter` of its file
 * (cdm_format_FILE in src/format/ for the formats cdm reads back,
 * cdm_report_FILE in src/report/ for the others), which holds all that
 * is known of the format: its --format value, its title, its extension
 * and its writer.  The order is the order of cdm_report_names().  The
 * declarations are made from the rows, so adding a format is its file
 * and its row, nothing else.
 */
#define CDM_REPORT_FORMATS(X)							\
	X(cdm_format_cdm_write)		/* CrystalDiskMark 8 text, the default */	\
	X(cdm_format_cdm7_write)	/* CrystalDiskMark 7 text */			\
	X(cdm_format_cdm6_write)	/* CrystalDiskMark 6 text */			\
	X(cdm_format_result_write)	/* the versioned schema, for compare and scripts */ \
	X(cdm_report_csv)		/* one row per pass, plus summary rows */	\
	X(cdm_report_markdown)		/* a table to paste into a post */		\
	X(cdm_report_svg_card)		/* CDM's window as a picture, for a post */

#define DECLARE(file) extern const struct cdm_formatter file;
CDM_REPORT_FORMATS(DECLARE)
#undef DECLARE

static const struct cdm_formatter *const formatters[] = {
#define ROW(file) &file,
	CDM_REPORT_FORMATS(ROW)
#undef ROW
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct cdm_formatter *cdm_report_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(formatters); i++)
		if (!strcmp(formatters[i]->name, name))
			return formatters[i];
	return NULL;
}

const struct cdm_formatter *cdm_report_at(unsigned int i)
{
	return i < ARRAY_SIZE(formatters) ? formatters[i] : NULL;
}

char *cdm_report_names(char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(formatters); i++) {
		size_t was = used;

		if (cdm_text_add(buf, len, &used, "%s%s", i ? ", " : "", formatters[i]->name) < 0) {
			buf[was] = '\0';	/* whole names only */
			break;
		}
	}
	return buf;
}
