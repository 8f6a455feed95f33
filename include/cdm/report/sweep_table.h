/* SPDX-License-Identifier: MIT */
/*
 * sweep_table.h - the renderings of a sweep's curves (model/sweep.h) that
 * cdm only writes: the table (text or Markdown) and the SVG chart; the
 * sweep JSON is format/sweep_json.h.  Nothing here prints anything but
 * the rendering asked for.
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
 * cdm_sweep_table_svg - the chart on @out: IOPS (or MB/s with plot_mb_s)
 * and latency, mean and p99, against the swept value, knees marked.
 * Returns 0, or -EIO.  Not reentrant (its line buffers are static).
 */
int cdm_sweep_table_svg(FILE *out, const struct cdm_sweep *sw);

/* the kinds of a sweep's formats (bits, for cdm_sweep_table_names()) */
#define CDM_SWEEP_FORMAT_TABLE 1        /* cdm, markdown: cdm sweep --format */
#define CDM_SWEEP_FORMAT_FILE 2         /* json (--save), svg (--plot) */

/*
 * cdm_sweep_table_format - can a sweep be printed in the --format named
 * @fmt: cdm, markdown (the table: CDM_SWEEP_FORMAT_TABLE), json
 * (format/sweep_json.h) or svg (the chart: CDM_SWEEP_FORMAT_FILE)?
 * Returns its kind, or 0.  One table of rows in sweep_table.c holds
 * them, and what writes each.
 */
int cdm_sweep_table_format(const char *fmt);

/*
 * cdm_sweep_table_names - the names of the formats of @kinds (bits), in
 * the table's order, for a message: "cdm, markdown, json or svg" with
 * @last " or ", "cdm, markdown" with ", ".  Into @buf (@len bytes, cut
 * if short); returns @buf.
 */
char *cdm_sweep_table_names(char *buf, size_t len, int kinds, const char *last);

/*
 * cdm_sweep_table_write - @sw on @out in the --format named @fmt, as `cdm
 * sweep` wrote it (--format, --save, --plot).  Returns 0, -EIO, or
 * -EINVAL for a format cdm_sweep_table_format() does not know.
 */
int cdm_sweep_table_write(FILE *out, const struct cdm_sweep *sw, const char *fmt);

#endif /* CDM_REPORT_SWEEP_TABLE_H */
