/* SPDX-License-Identifier: MIT */
/*
 * cdm/format/sweep_json.h - a sweep's JSON ("kind": "sweep";
 * docs/output-formats.md, "cdm sweep JSON"): written by `cdm sweep
 * --save`, read back by `cdm report`, which renders it as the sweep did
 * (report/sweep_table.h).  format/sweep_json.c.
 */
#ifndef CDM_FORMAT_SWEEP_JSON_H
#define CDM_FORMAT_SWEEP_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "cdm/base/err.h"
#include "cdm/model/sweep.h"

/*
 * cdm_sweep_json_write - the sweep JSON of @sw on @out, flushed: the
 * target and settings of sw->res, what the chart shows (sw->plot_mb_s:
 * "metric"), every curve's points, knee and flat ceiling.  Returns 0, or
 * -EIO when the stream reports an error.
 */
int cdm_sweep_json_write(FILE *out, const struct cdm_sweep *sw);

/*
 * cdm_sweep_json_read - @len bytes of @text (no NUL needed), the JSON of
 * a sweep, into a new *@out: its curves, points (their counts, and their
 * figures as saved: the file keeps no latency counts to derive them
 * from), knees and ceilings, vary and plot_mb_s ("metric"; absent: IOPS),
 * and (*@out)->res, a result of no tests whose info holds the target
 * (path, filesystem, device) and the settings (size, count, time,
 * warm-up, engine, O_DIRECT), and interrupted 1 when the sweep was (the
 * file does not say by which signal).  Free with cdm_sweep_json_free().
 * Returns 0; -ENOMSG (@err untouched) when @text is not a sweep's JSON
 * (not JSON, or no "kind": "sweep": read it as a result instead);
 * -EINVAL, @err naming the member ("not a valid cdm result:
 * curves[0].points[2]: no \"ios\""); -EPROTONOSUPPORT for a
 * schema_version above CDM_JSON_SCHEMA_VERSION; -ENOMEM.
 */
int cdm_sweep_json_read(const char *text, size_t len, struct cdm_sweep **out, struct cdm_err *err);

/* cdm_sweep_json_free - free a sweep from cdm_sweep_json_read(); NULL ok. */
void cdm_sweep_json_free(struct cdm_sweep *sw);

#endif /* CDM_FORMAT_SWEEP_JSON_H */
