/* SPDX-License-Identifier: MIT */
/*
 * cdm/format/formatter.h - what an output format is: its name (the --format
 * value), what it writes, the extension a file of it takes, and its write
 * function, in one row.  Each format is one file (src/report/, or
 * src/format/ beside its reader) that defines one `const struct
 * cdm_formatter`; the registry (report.c, report.h) lists them.  A formatter includes this header, never report.h,
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
	 * title - what a file of it is, as a message names it: "CDM 7 text"
	 * in "--output writes CDM 7 text".
	 */
	const char *title;
	/*
	 * ext - the extension a file of it takes, without the dot: "txt",
	 * "md"; the one --output suggests.  A name whose extension says
	 * another kind of file is refused (target/outfile.c's list of kinds:
	 * "text" is *.txt or *.text); cdm_outfile_check_format().
	 */
	const char *ext;
	/*
	 * write - print @r to @out.  Every formatter reads r->aggregate
	 * (which pass figure to show, per metric) and r->cv_threshold_pct;
	 * none prints anything on stderr.  Returns 0, or -errno when writing
	 * failed (-EIO when the stream reports an error).
	 */
	int (*write)(FILE *out, const struct cdm_run_result *r);
};

#endif /* CDM_FORMAT_FORMATTER_H */
