/* SPDX-License-Identifier: MIT */
/*
 * cdm/format/cdm_write.h - the default report, CrystalDiskMark 8's text layout
 * (cdm_write.c, formatter "cdm"): its result line on its own, for callers
 * that print single tests.
 */
#ifndef CDM_FORMAT_CDM_WRITE_H
#define CDM_FORMAT_CDM_WRITE_H

#include <stddef.h>

#include "cdm/model/result.h"

/*
 * cdm_cdm_write_row - one CDM 8 result line, without newline, for @t:
 * printf "  %s (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>" with the
 * label of cdm_spec_label(), Q as run, best MB/s, IOPS derived from that
 * MB/s (MB/s x 1e6 / block bytes), and the lowest mean latency in
 * microseconds.  Fields that outgrow their width widen.  A test that
 * measured nothing (cdm_result_state() not CDM_PASS_MEASURED) keeps the
 * label and Q/T columns and, right-aligned to the same width, "nothing
 * measured: no I/O completed" instead of figures.  Returns the
 * length written (as snprintf).  Rule from CrystalDiskMark 8's text export
 * (docs/method.md).
 */
int cdm_cdm_write_row(char *buf, size_t len, const struct cdm_test_result *t);

#endif /* CDM_FORMAT_CDM_WRITE_H */
