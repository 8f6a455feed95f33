/* SPDX-License-Identifier: MIT */
/*
 * sweep_table.h - the three renderings of a sweep's curves (model/sweep.h):
 * the table (text or Markdown), the sweep JSON (docs/output-formats.md,
 * "Sweep JSON") and the SVG chart.  Nothing here prints anything but the
 * rendering asked for.
 */
#ifndef CDM_REPORT_SWEEP_TABLE_H
#define CDM_REPORT_SWEEP_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "cdm/model/sweep.h"


/*
 * cdm_sweep_table_table - the table of every curve on @out: one row per
 * point (MB/s, IOPS, mean and p99 latency in us), then the knee and any
 * flat ceiling; as text (@markdown 0) or Markdown.  Returns 0, or -EIO
 * when the stream reports an error.
 */
int cdm_sweep_table_table(FILE *out, const struct cdm_sweep *sw, int markdown);

/*
 * cdm_sweep_table_json - the sweep JSON ("kind": "sweep",
 * docs/output-formats.md) on @out, flushed.  Returns 0, or -EIO.
 */
int cdm_sweep_table_json(FILE *out, const struct cdm_sweep *sw);

/*
 * cdm_sweep_table_svg - the chart on @out: IOPS (or MB/s with plot_mb_s)
 * and latency, mean and p99, against the swept value, knees marked.
 * Returns 0, or -EIO.  Not reentrant (its line buffers are static).
 */
int cdm_sweep_table_svg(FILE *out, const struct cdm_sweep *sw);

#endif /* CDM_REPORT_SWEEP_TABLE_H */
