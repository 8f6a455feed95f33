/* SPDX-License-Identifier: MIT */
/*
 * cdm/format/result_load.h - any result a user hands cdm: a cdm JSON
 * result (result_read.h) or a CrystalDiskMark text report (cdm_read.h),
 * told apart by their content, never by the file's name.  The one entry
 * point of `cdm compare`, `cdm import`, `cdm merge` and `cdm report`
 * (which takes a saved sweep too: cdm_result_load_saved()).
 */
#ifndef CDM_FORMAT_RESULT_LOAD_H
#define CDM_FORMAT_RESULT_LOAD_H

#include <stddef.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"
#include "cdm/model/sweep.h"

/*
 * cdm_result_load - @len bytes of @text as a cdm JSON result
 * (cdm_result_read() with @flags: CDM_RESULT_READ_ONE_RUN or _AGGREGATE)
 * when it looks like JSON (its first byte after a UTF-8 BOM and blanks is
 * '{': every cdm result is an object, no CrystalDiskMark report starts
 * with one), else as a CrystalDiskMark report
 * (cdm_cdm_read(), with @file for its label and source; may be NULL) into
 * a new *@out (free with cdm_result_free(); NULL on failure).  Returns 0,
 * or what those return, with one line in @err (may be NULL) without the
 * file's name; text that is only blanks: -EINVAL "empty file, not a cdm
 * result or a CrystalDiskMark report".
 */
int cdm_result_load(const char *text, size_t len, const char *file, unsigned int flags,
		    struct cdm_run_result **out, struct cdm_err *err);

/*
 * cdm_result_load_file - cdm_result_load() on the contents of the file
 * @path (read by cdm_file_read_all(), base/file.h, whose errors it
 * returns too; -E2BIG "larger than 256 MiB, not a cdm result"),
 * with @name as the report's file name for its label and source (NULL:
 * @path; "stdin" when @path is /dev/stdin for "-").
 */
int cdm_result_load_file(const char *path, const char *name, unsigned int flags,
			 struct cdm_run_result **out, struct cdm_err *err);

/*
 * cdm_result_load_saved - cdm_result_load_file(), or, when @sweep is not
 * NULL, a sweep's JSON too (`cdm sweep --save`, cdm_sweep_json_read()):
 * then *@sweep gets it (free with cdm_sweep_json_free()) and *@out stays
 * NULL; else *@sweep is NULL.  Returns what cdm_result_load_file() or
 * cdm_sweep_json_read() returns (never -ENOMSG).
 */
int cdm_result_load_saved(const char *path, const char *name, unsigned int flags,
			  struct cdm_run_result **out, struct cdm_sweep **sweep, struct cdm_err *err);

#endif /* CDM_FORMAT_RESULT_LOAD_H */
