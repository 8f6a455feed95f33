/* SPDX-License-Identifier: MIT */
/*
 * cdm/report/compare_table.h - a comparison of saved runs (model/compare.h) printed:
 * the text layout, CDM-like rows with one column per run headed by its
 * label and the ratio to the first run, a Markdown table, or an SVG
 * chart of grouped bars with the same figures and ratios.  Settings
 * that differ and interrupted runs are warned about at the top.
 * docs/output-formats.md shows both layouts.
 */
#ifndef CDM_REPORT_COMPARE_TABLE_H
#define CDM_REPORT_COMPARE_TABLE_H

#include <stdio.h>

#include "cdm/model/compare.h"

/* the layout of cdm_compare_table_write() (--format) */
enum cdm_compare_format {
	CDM_COMPARE_TEXT = 0,           /* "cdm": CDM-like rows */
	CDM_COMPARE_MARKDOWN = 1,       /* "markdown": a GFM table */
	CDM_COMPARE_SVG = 2,            /* "svg": grouped bars (compare_svg.c) */
};

/*
 * cdm_compare_table_write - @c (at least one run) on @out in @format.  Labels
 * wider than 24 characters are cut in the text layout's column heads.
 * Returns 0, -EINVAL when @c has no run, or -EIO when writing failed.
 */
int cdm_compare_table_write(FILE *out, const struct cdm_compare *c, enum cdm_compare_format format);

#endif /* CDM_REPORT_COMPARE_TABLE_H */
