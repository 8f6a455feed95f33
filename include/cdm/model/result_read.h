/* SPDX-License-Identifier: MIT */
/*
 * cdm/result_read.h - a result saved as JSON (--save, --format json) read
 * back into the result model, counts and histograms included, with cdm's
 * own strict reader (json_read.h).  For `cdm merge` and cdm-mpi's
 * reduction: the figures come back exactly (whole numbers are read as
 * 64-bit integers; durations as the shortest decimal that reads back).
 */
#ifndef CDM_RESULT_READ_H
#define CDM_RESULT_READ_H

#include <stddef.h>

#include "cdm/model/result.h"

/*
 * "schema_version" of the JSON result: what --format json (report/json.c)
 * writes and the newest this reader accepts.  docs/output-formats.md.
 */
#define CDM_JSON_SCHEMA_VERSION 1

/*
 * cdm_result_read - parse @len bytes of @text (a cdm JSON result, schema
 * 1) into a new result *@out (free with cdm_result_free()).  Pass counts,
 * latency sums (lat_sum_ns, or lat_mean_ns x ios for files written before
 * it existed), start times and histogram buckets are restored.  Returns
 * 0; -EINVAL with one line in @err ("not JSON: line 3, column 7: ...",
 * "not a valid cdm result: tests[0].passes[1]: no \"bytes\""), -E2BIG,
 * -EPROTONOSUPPORT (a newer schema), -ENOMEM.
 */
int cdm_result_read(const char *text, size_t len, struct cdm_run_result **out,
		    char *err, size_t err_len);

/* cdm_result_read_file - cdm_result_read() on the file @path; also -errno. */
int cdm_result_read_file(const char *path, struct cdm_run_result **out,
			 char *err, size_t err_len);

#endif /* CDM_RESULT_READ_H */
