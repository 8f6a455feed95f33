/* SPDX-License-Identifier: MIT */
/*
 * findings.h - what the detectors found (model/detect.h: a burst, a flat
 * ceiling) as cdm words it: each level in its natural unit with the other
 * beside it, and the notes a run and a sweep give on stderr: the notes'
 * one wording (cli/run_exec.c prints a run's, cli/sweep_cli.c and
 * cli/report_cli.c a sweep's), and the level of the sweep table's
 * ceiling line (report/sweep_table.c words the rest of it).  Rules: docs/method.md,
 * "Each finding in its natural unit".
 */
#ifndef CDM_FORMAT_FINDINGS_H
#define CDM_FORMAT_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/model/sweep.h"

/* blocks up to this many bytes are counted in IOPS, larger ones in MB/s */
#define CDM_FINDINGS_IOPS_BLOCK_MAX 65536

/*
 * cdm_findings_level - a level a detector found (a ceiling, a burst's high
 * or low level) in its natural unit, the other one beside it: IOPS for
 * @block up to CDM_FINDINGS_IOPS_BLOCK_MAX bytes, "5,000 IOPS (20.5
 * MB/s)", MB/s for larger blocks (and for @block 0, not known), "200.0
 * MB/s (190.7 IOPS)".  @iops and @mb_s are both figures from the measured
 * counts, neither derived from the other's text; one that is not above 0
 * (not known: its IOPS are not saved with a series) is left out, "99.1
 * MB/s".  IOPS whole from 1,000 on, one decimal below; MB/s one decimal,
 * three below 1 ("0.004 MB/s"); both grouped by thousands with ','
 * ("1,250.0 MB/s").  CDM_FINDINGS_LEVEL_MAX bytes always hold it.
 * Returns @buf.
 */
#define CDM_FINDINGS_LEVEL_MAX 128
char *cdm_findings_level(char *buf, size_t len, uint64_t block, double iops, double mb_s);

/*
 * cdm_findings_ceiling_note - say flat ceiling @c on stderr (cdm_msg_note):
 * @tests (the test or range of tests it covers, "RND4K Q1T1 to RND4K
 * Q32T1", or a sweep's curve, "RND4K Q1") in direction @dir, its level
 * (cdm_findings_level(), of @block), how much the mean latency rose.
 */
void cdm_findings_ceiling_note(const char *tests, enum cdm_dir dir, uint64_t block,
			       const struct cdm_ceiling *c);

/*
 * cdm_findings_run_notes - the notes of what cdm_detect_analyze() found in
 * @r, on stderr: each test's burst, in test order, then each flat
 * ceiling, once per curve (the tests of one direction, pattern and block),
 * as the range from the lightest test on it to the one with the most load
 * Q x T (of equal loads, the later test).
 */
void cdm_findings_run_notes(const struct cdm_run_result *r);

/* cdm_findings_sweep_notes - the note of each curve of @sw with a flat ceiling */
void cdm_findings_sweep_notes(const struct cdm_sweep *sw);

#endif /* CDM_FORMAT_FINDINGS_H */
