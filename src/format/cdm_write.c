/* SPDX-License-Identifier: MIT */
/*
 * cdm_write.c - the default report: CrystalDiskMark 8's text layout, line
 * for line (see docs/output-formats.md), so that cdm's reports sit beside
 * CDM's in blogs and issue trackers and go through the same parsers.  Only
 * the product and credit lines differ: they name cdm, never CDM.  What
 * this layout shares with CDM 7's and 6's (cdm7_write.c, cdm6_write.c) is in
 * layout.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cdm/base/size.h"
#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/format/cdm_write.h"
#include "cdm/format/formatter.h"
#include "cdm/format/fmt.h"
#include "cdm/format/layout.h"

/* CDM 8's result line before its figures; %3u/%2u widen rather than truncate */
#define ROW_FMT "  %s (Q=%3u, T=%2u): %s"

/* the row of @t under @agg into @buf, as snprintf */
static int row_text(char *buf, size_t len, const struct cdm_test_result *t,
		    enum cdm_aggregate agg)
{
	char label[32], figs[CDM_LAYOUT_FIGURES_MAX];

	cdm_spec_label(&t->spec, label, sizeof(label));
	cdm_layout_figures(figs, sizeof(figs), t, agg, CDM_LAYOUT_IOPS | CDM_LAYOUT_LAT);
	return snprintf(buf, len, ROW_FMT, label, t->qd_run, t->spec.threads, figs);
}

int cdm_cdm_write_row(char *buf, size_t len, const struct cdm_test_result *t)
{
	return row_text(buf, len, t, CDM_AGG_BEST);
}

static void write_row(FILE *out, const struct cdm_test_result *t, enum cdm_aggregate agg)
{
	char row[CDM_LAYOUT_FIGURES_MAX + 64];

	row_text(row, sizeof(row), t, agg);
	fprintf(out, "%s\n", row);
}

static void write_footer(FILE *out, const struct cdm_run_result *r,
			 const struct tm *tm)
{
	const struct cdm_run_info *in = &r->info;
	char size[32], text[CDM_LAYOUT_COMMENT_MAX], dev[CDM_LAYOUT_VOLUME_MAX];
	char mt[CDM_FMT_SETTING_MAX], iv[CDM_FMT_SETTING_MAX];
	unsigned int pct = 0;

	cdm_layout_profile(out, in);
	cdm_size_format(in->size, size, sizeof(size));
	if (in->fs_total_bytes)
		pct = (unsigned int)(100.0 * (double)in->fs_used_bytes /
				     (double)in->fs_total_bytes + 0.5);
	if (cdm_result_imported(in)) {
		/* an imported report: its volume as it printed it (a drive letter) */
		fprintf(out, "   Test: %s%s%s%.*s%s\n",
			cdm_fmt_setting(iv, sizeof(iv), in, CDM_INFO_SIZE, ""),
			cdm_fmt_count(mt, sizeof(mt), in),
			cdm_result_known(in, CDM_INFO_VOLUME) ? " [" : "", (int)sizeof(in->source.volume),
			in->source.volume, cdm_result_known(in, CDM_INFO_VOLUME) ? "]" : "");
	} else if (in->is_device) {
		fprintf(out, "   Test: %s (x%u) [%s]\n", size, in->count,
			cdm_layout_device(dev, sizeof(dev), in));
	} else {
		fprintf(out, "   Test: %s (x%u) [%.*s: %u%% (%llu/%lluGiB)]\n",
			size, in->count,
			(int)sizeof(in->mount_point), cdm_layout_mount(in), pct,
			cdm_layout_gib_round(in->fs_used_bytes),
			cdm_layout_gib_round(in->fs_total_bytes));
	}

	/* CDM's two marks, then cdm's own for durability and a fixed rate */
	fprintf(out, "   Mode:%s\n", cdm_layout_marks(text, sizeof(text), in, CDM_LAYOUT_ADMIN));
	/* the trailing space is CDM's, and parsers may rely on it */
	fprintf(out, "   Time: Measure %s / Interval %s \n",
		cdm_fmt_setting(mt, sizeof(mt), in, CDM_INFO_TIME, " sec"),
		cdm_layout_interval(iv, sizeof(iv), in));
	cdm_layout_tail(out, r, tm);
}

static int cdm_text_write(FILE *out, const struct cdm_run_result *r)
{
	return cdm_layout_write(out, r, write_row, write_footer);
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_format_cdm_write = {
	.name = "cdm",
	.title = "CDM text",
	.ext = "txt",
	.write = cdm_text_write,
};
