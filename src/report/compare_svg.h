/* SPDX-License-Identifier: MIT */
/*
 * compare_svg.h - `cdm compare --format svg` (compare_svg.c): the compared
 * runs as grouped bars.  Private to report/.  The texts of the cells (a
 * figure, a ratio, why a cell has none) are compare_table.c's, handed over as
 * functions so that the picture says exactly what the text report says
 * and compare_svg.c does not use compare_table.c (which calls it) in return.
 */
#ifndef CDM_REPORT_COMPARE_SVG_H
#define CDM_REPORT_COMPARE_SVG_H

#include <stdio.h>

#include "cdm/model/compare.h"

/* compare_table.c's wording of a comparison */
struct cdm_compare_svg_texts {
	/* run @k's cell of row @row: its figure ("7427.749", "no I/O") and ratio ("1.02x" or "") */
	void (*cell)(const struct cdm_compare *c, unsigned int row, unsigned int k,
		     char *val, size_t vlen, char *ratio, size_t rlen);
	/* why @cell (not measured) has no figure: "B has no such test" */
	void (*why)(const struct cdm_compare *c, unsigned int row, unsigned int k,
		    const struct cdm_compare_cell *cell, char *buf, size_t len);
	/* "MB/s", "IOPS", "mean latency (us)" */
	const char *(*metric)(enum cdm_compare_metric m);
	/* "highest", "lowest", "median", "mean" */
	const char *(*agg)(enum cdm_aggregate a, enum cdm_compare_metric m);
};

/*
 * cdm_compare_svg_write - @c (1 to CDM_COMPARE_MAX_RUNS runs) as an SVG
 * document on @out, 800 px wide: per row of @c (a test and direction, a
 * Mix part) one bar per run, to the row's own scale from 0, each with its
 * figure and its ratio to the first run; a cell without a figure has no
 * bar but its reason.  Runs are told apart by their labels beside the
 * bars and by fills that differ in lightness and pattern (greyscale
 * prints).  Returns 0, or -EIO when writing failed.
 */
int cdm_compare_svg_write(FILE *out, const struct cdm_compare *c,
			  const struct cdm_compare_svg_texts *t);

#endif /* CDM_REPORT_COMPARE_SVG_H */
