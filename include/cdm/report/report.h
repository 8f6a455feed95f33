/* SPDX-License-Identifier: MIT */
/*
 * cdm/report.h - formatters.  Each output format is one file in src/report/
 * with one `const struct cdm_formatter` and one row in the registry
 * (report.c).  A formatter only prints what the result model holds.
 */
#ifndef CDM_REPORT_H
#define CDM_REPORT_H

#include <stdio.h>

#include "cdm/model/result.h"

struct cdm_formatter {
	const char *name;               /* --format value */
	/*
	 * write - print @r to @out.  Returns 0, or -errno when writing failed
	 * (-EIO when the stream reports an error).
	 */
	int (*write)(FILE *out, const struct cdm_run_result *r);
};

/*
 * cdm_report_find - the formatter for --format @name ("cdm", "json",
 * "csv", "markdown"), or NULL.  Sets *@planned (may be NULL) to 1 when
 * @name is a format cdm will have but this version does not yet, so the
 * CLI can refuse it clearly; no format is planned at the moment.
 *
 * Every formatter reads r->aggregate (which pass figure to show, per
 * metric) and r->cv_threshold_pct (Markdown marks unstable tests); none
 * prints anything on stderr.  The formats are specified in
 * docs/output-formats.md; the JSON schema is versioned
 * (CDM_JSON_SCHEMA_VERSION).
 */
const struct cdm_formatter *cdm_report_find(const char *name, int *planned);

/* "schema_version" of the JSON that --format json writes */
#define CDM_JSON_SCHEMA_VERSION 1

/*
 * cdm_report_save - write @r with @fmt to the file @path atomically: to a
 * new temporary file in the same directory ("PATH.XXXXXX", mode 0666 less
 * the umask), flushed and fsync()ed, then renamed over @path.  A failure
 * at any step removes the temporary file and leaves @path as it was: never
 * a half-written file.  Returns 0, the formatter's -errno, -EIO (a write
 * failed), -ENAMETOOLONG, or the -errno of mkstemp/fsync/rename (-EACCES,
 * -ENOSPC, -EISDIR, ...).
 */
int cdm_report_save(const char *path, const struct cdm_formatter *fmt,
		    const struct cdm_run_result *r);

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
