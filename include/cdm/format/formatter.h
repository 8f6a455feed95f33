/* SPDX-License-Identifier: MIT */
/*
 * cdm/format/formatter.h - what an output format is: a name (the --format value)
 * and a write function.  Each format is one file in src/report/ that
 * defines one `const struct cdm_formatter`; the registry (report.c,
 * report.h) lists them.  A formatter includes this header, never report.h,
 * so that the registry depends on the formatters and not the other way
 * round.  Outside report/, find a formatter with cdm_report_find().
 */
#ifndef CDM_FORMAT_FORMATTER_H
#define CDM_FORMAT_FORMATTER_H

#include <stdio.h>

#include "cdm/model/result.h"

struct cdm_formatter {
	const char *name;               /* --format value */
	/*
	 * write - print @r to @out.  Every formatter reads r->aggregate
	 * (which pass figure to show, per metric) and r->cv_threshold_pct;
	 * none prints anything on stderr.  Returns 0, or -errno when writing
	 * failed (-EIO when the stream reports an error).
	 */
	int (*write)(FILE *out, const struct cdm_run_result *r);
};

#endif /* CDM_FORMAT_FORMATTER_H */
