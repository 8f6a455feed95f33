/* SPDX-License-Identifier: MIT */
/*
 * cdm7_write.c - "--format cdm7": CrystalDiskMark 7's text layout (7.0.0
 * to 7.0.0h), line for line, for setting a run beside CDM 7 reports and
 * their parsers: 78-dash rules, the credit line right-aligned to column 78,
 * rows labelled "Sequential 1MiB" / "    Random 4KiB" (right-aligned so the
 * "(Q=" columns line up), and CDM 7's footer, which has no Mode, Time or
 * volume line: "   Test: 1 GiB (x5) [Interval: 5 sec]
 * <DefaultAffinity=DISABLED>".  Where CDM 7 cannot say what cdm ran, the
 * nearest honest form is printed (docs/output-formats.md, "cdm7"); what it
 * shares with the other CDM layouts is in layout.c.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cdm/base/size.h"
#include "cdm/model/result.h"
#include "cdm/format/formatter.h"
#include "cdm/format/fmt.h"
#include "cdm/format/layout.h"

/*
 * CDM 7's label: "Sequential", "Random", then the block as a whole number
 * of MiB or KiB (bytes for a block CDM never has), right-aligned in 15
 * columns, which is where CDM 7 puts the "(": it pads "Random 4KiB" with 4
 * spaces, "Random 16KiB" with 3, "Random 128KiB" with 2.  A longer label
 * ("Sequential 128KiB", as later 7.x builds print it) widens the line.
 */
static void label7(char *buf, size_t len, const struct cdm_test_result *t)
{
	uint64_t b;
	const char *unit = cdm_size_unit(t->spec.block, &b);
	char text[48];

	snprintf(text, sizeof(text), "%s %llu%s",
		 t->spec.pattern == CDM_SEQ ? "Sequential" : "Random", (unsigned long long)b, unit);
	snprintf(buf, len, "%15s", text);
}

static void write_row(FILE *out, const struct cdm_test_result *t, enum cdm_aggregate agg)
{
	char label[48], figs[CDM_LAYOUT_FIGURES_MAX];

	label7(label, sizeof(label), t);
	cdm_layout_figures(figs, sizeof(figs), t, agg, CDM_LAYOUT_IOPS | CDM_LAYOUT_LAT);
	fprintf(out, "%s (Q=%3u, T=%2u): %s\n", label, t->qd_run, t->spec.threads, figs);
}

/* CDM 7's Peak and Real templates end after the Comment line; Default's has one more */
static int short_template(const struct cdm_run_info *in)
{
	return !strncmp(in->profile, "Peak", sizeof(in->profile)) ||
	       !strncmp(in->profile, "Real", sizeof(in->profile));
}

static void write_footer(FILE *out, const struct cdm_run_result *r, const struct tm *tm)
{
	const struct cdm_run_info *in = &r->info;
	char size[CDM_FMT_SETTING_MAX], cnt[CDM_FMT_SETTING_MAX], iv[CDM_FMT_SETTING_MAX];
	char marks[CDM_LAYOUT_MARKS_MAX];

	cdm_layout_profile(out, in);
	/*
	 * CDM 7's test mode slot holds " <0Fill>"; cdm's own marks follow it
	 * there, and the measure time when it is not CDM 7's fixed 5 s.  cdm
	 * pins no thread to a CPU: DiskSpd's default affinity is off, as in
	 * CDM 7's default.
	 */
	fprintf(out, "   Test: %s%s%s [Interval: %s] <DefaultAffinity=DISABLED>\n",
		cdm_fmt_setting(size, sizeof(size), in, CDM_INFO_SIZE, ""),
		cdm_fmt_count(cnt, sizeof(cnt), in),
		cdm_layout_marks(marks, sizeof(marks), in, CDM_LAYOUT_MEASURE),
		cdm_layout_interval(iv, sizeof(iv), in));
	cdm_layout_tail(out, r, tm);
	/* CDM 7's Default template ends with "%Comment%\r\n": one empty line more */
	if (!short_template(in))
		fputc('\n', out);
}

static int cdm7_write(FILE *out, const struct cdm_run_result *r)
{
	return cdm_layout_write(out, r, write_row, write_footer);
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_format_cdm7_write = {
	.name = "cdm7",
	.title = "CDM 7 text",
	.ext = "txt",
	.write = cdm7_write,
};
