/* SPDX-License-Identifier: MIT */
/*
 * cdm/report.h - formatters.  Each output format is one file in src/report/
 * with one `const struct cdm_formatter` and one row in the registry
 * (report.c).  A formatter only prints what the result model holds.
 */
#ifndef CDM_REPORT_H
#define CDM_REPORT_H

#include <stdio.h>

#include "cdm/result.h"

struct cdm_formatter {
	const char *name;               /* --format value */
	/*
	 * write - print @r to @out.  Returns 0, or -errno when writing failed
	 * (-EIO when the stream reports an error).
	 */
	int (*write)(FILE *out, const struct cdm_run_result *r);
};

/*
 * cdm_report_find - the formatter for --format @name, or NULL.  Sets
 * *@planned to 1 when @name is a format cdm will have but this version does
 * not yet (json, csv, markdown), so the CLI can refuse it clearly.
 */
const struct cdm_formatter *cdm_report_find(const char *name, int *planned);

/*
 * cdm_text_row - one CDM 8 result line, without newline, for @t:
 * printf "  %s (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>" with the
 * label of cdm_spec_label(), Q as run, best MB/s, IOPS derived from that
 * MB/s (MB/s x 1e6 / block), and the lowest mean latency.  Fields that
 * outgrow their width widen.  Returns the length written (as snprintf).
 * Rule from CrystalDiskMark 8's text export (cdm-format.md).
 */
int cdm_text_row(char *buf, size_t len, const struct cdm_test_result *t);

#endif /* CDM_REPORT_H */
