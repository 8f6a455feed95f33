/* SPDX-License-Identifier: MIT */
/*
 * report.c - the registry of output formats: one row per formatter, each
 * formatter in its own file in src/report/.  Adding a format is one file
 * and one row here; the CLI only ever asks cdm_report_find().
 */
#include <stddef.h>
#include <string.h>

#include "cdm/report.h"

/* defined in the formatters' own files (one file each) */
extern const struct cdm_formatter cdm_format_text;

/* --format value -> formatter */
static const struct {
	const char *name;
	const struct cdm_formatter *fmt;
} formatters[] = {
	{ "cdm", &cdm_format_text },    /* CrystalDiskMark 8 text, the default */
};

/*
 * Formats promised in the docs but not built yet: named here so that
 * `--format json` is refused as "not yet" rather than "unknown".
 */
static const char *const planned_formats[] = {
	"json",
	"csv",
	"markdown",
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
		if (!strcmp(planned_formats[i], name)) {
			if (planned)
				*planned = 1;
			break;
		}
	}
	return NULL;
}
