/* SPDX-License-Identifier: MIT */
/*
 * cdm/report/report.h - the registry of output formats.  Each format is one file
 * in src/report/ with one `const struct cdm_formatter` (formatter.h) and
 * one row in the registry (report.c); the CLI only ever asks
 * cdm_report_find().  A formatter only prints what the result model holds.
 */
#ifndef CDM_REPORT_H
#define CDM_REPORT_H

#include <stddef.h>

#include "cdm/model/result.h"
#include "cdm/format/formatter.h"

/*
 * cdm_report_find - the formatter for --format @name ("cdm", "cdm7",
 * "json", "svg", ...), or NULL for a name no row of the registry has.
 *
 * The formats are specified in docs/output-formats.md; the JSON schema is
 * versioned (CDM_JSON_SCHEMA_VERSION, result_read.h).
 */
const struct cdm_formatter *cdm_report_find(const char *name);

/*
 * cdm_report_at - the formatter of row @i of the registry (0, 1, ...), in
 * the order of cdm_report_names(); NULL past the last.  For callers that
 * must cover every format (the tests, the fuzz target).
 */
const struct cdm_formatter *cdm_report_at(unsigned int i);

/*
 * cdm_report_names - the --format values, in the registry's order, as
 * "cdm, cdm7, cdm6, json, csv, markdown, svg" (for messages and help),
 * into @buf of @len bytes (as many whole names as fit, always
 * terminated).  Returns @buf.
 */
char *cdm_report_names(char *buf, size_t len);

#endif /* CDM_REPORT_H */
