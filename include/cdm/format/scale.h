/* SPDX-License-Identifier: MIT */
/*
 * scale.h - the formatters' hooks for an aggregate of several runs
 * (scale.c; the aggregate is made by cdm_merge(), merge.h).  Each does
 * nothing when r->scale is NULL.  Private to report/; the layouts are in
 * docs/scale-out.md.
 */
#ifndef CDM_FORMAT_SCALE_H
#define CDM_FORMAT_SCALE_H

#include <stdio.h>

#include "cdm/model/result.h"

struct cdm_jsonw;

/*
 * cdm_scale_text_head - one "* Aggregate: N ranks x T..." line under the
 * text report's header.
 */
void cdm_scale_text_head(FILE *out, const struct cdm_run_result *r);

/*
 * cdm_scale_text_tail - the per-run MB/s spread (min / median / max under
 * r->aggregate, and which runs had the min and the max) after the text
 * report's footer.
 */
void cdm_scale_text_tail(FILE *out, const struct cdm_run_result *r);

/*
 * cdm_scale_json - the "scale" member of the JSON (the spread per test,
 * with how far apart the runs started each pass in ns, and every run's
 * passes), written to @w after "system"; nothing for a single run.
 */
void cdm_scale_json(struct cdm_jsonw *w, const struct cdm_run_result *r);

#endif /* CDM_FORMAT_SCALE_H */
