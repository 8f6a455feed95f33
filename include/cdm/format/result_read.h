/* SPDX-License-Identifier: MIT */
/*
 * cdm/format/result_read.h - a result saved as JSON (--save, --format json) read
 * back into the result model, counts and histograms included, with cdm's
 * own strict reader (json.h).  The one reader of results: `cdm
 * compare`, `cdm merge` and cdm-mpi's reduction all use it.  The figures
 * come back exactly (whole numbers are read as 64-bit integers; durations
 * are written as the shortest decimal that reads back), so a report of
 * the result read back shows what the report of the run showed.
 */
#ifndef CDM_FORMAT_RESULT_READ_H
#define CDM_FORMAT_RESULT_READ_H

#include <stddef.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"

/*
 * "schema_version" of the JSON result: what --format json (format/result_write.c)
 * writes for a run cdm measured.  docs/output-formats.md.
 * 2: a pass, a Mix part or a test that measured nothing has null figures
 * and a "reason" (1 wrote 0 MB/s and 0 IOPS); passes have
 * "pending_max_ns", tests "passes_measured".  Both are read.
 */
#define CDM_JSON_SCHEMA_VERSION 2

/*
 * 3: a run imported from a CrystalDiskMark report (`cdm import --save`):
 * a top-level "source", and tests with no passes and a "reported" object
 * holding the report's figures; settings the report does not state are
 * null.  Written only for imported runs (a cdm of schema 2 would read
 * their tests as tests that measured nothing); runs keep writing
 * CDM_JSON_SCHEMA_VERSION.  This reader takes 1 to
 * CDM_JSON_SCHEMA_READ_MAX.
 */
#define CDM_JSON_SCHEMA_IMPORT 3
#define CDM_JSON_SCHEMA_READ_MAX 3

/*
 * cdm_result_read()'s @flags.  CDM_RESULT_READ_ONE_RUN (none): the result
 * of one run; an aggregate of several (the result of `cdm merge --save` or
 * cdm-mpi, which has a "scale" member) is refused, since merging it again
 * would count its runs twice.  CDM_RESULT_READ_AGGREGATE: accept an
 * aggregate too, read as one run with the summed passes, and its "scale"
 * into a new r->scale (owned by the result: each run's name, label,
 * target, start and passes, from which its figures are derived again),
 * so that a report of it prints what the aggregate's own report printed.
 */
#define CDM_RESULT_READ_ONE_RUN 0x0u
#define CDM_RESULT_READ_AGGREGATE 0x1u

/*
 * cdm_result_read - parse @len bytes of @text (a cdm JSON result, schema
 * 1 to CDM_JSON_SCHEMA_READ_MAX; no NUL needed at the end) into a new
 * result *@out (free with cdm_result_free(); NULL on failure).  Pass
 * counts, latency sums (lat_sum_ns, or lat_mean_ns x ios for files written
 * before it existed), start times and histogram buckets are restored;
 * test names are not read but made again from the specs; figures (MB/s,
 * IOPS, means: numbers or null) are not read but derived again from the
 * counts, so files of schema 1, which wrote 0 where 2 writes null, give
 * the same model.  A Mix test from a file without its passes' read/write
 * parts gets parts_unknown.  A test's "series" (--log-interval), when it
 * has one, into a new t->series, owned by the result (freed with it): its
 * points' counts, each point's mean and p99 latency as the whole ns that
 * give the saved figures again, and the burst and ceiling found, so that
 * it is written again byte for byte.  Schema 3 (an imported CrystalDiskMark
 * report): "source" into info.source, each test's "reported" into
 * t->reported; its unknown settings (null) read as 0 or "".  @flags:
 * CDM_RESULT_READ_ONE_RUN or CDM_RESULT_READ_AGGREGATE.  @err (may be
 * NULL) gets one line without the file name.  Returns 0;
 * -EINVAL: "empty file, not a cdm result", "not JSON: line 3, column 7:
 * ...", "truncated JSON: ...", "not a cdm result (...)", "already an
 * aggregate of several runs: ...", "not a valid cdm result:
 * tests[0].passes[1]: no \"bytes\"";
 * -EPROTONOSUPPORT: "schema_version 4 is newer than this cdm reads (3)";
 * -E2BIG (larger than CDM_JSON_MAX_BYTES, or nested too deep); -ENOMEM.
 */
int cdm_result_read(const char *text, size_t len, unsigned int flags,
		    struct cdm_run_result **out, struct cdm_err *err);

#endif /* CDM_FORMAT_RESULT_READ_H */
