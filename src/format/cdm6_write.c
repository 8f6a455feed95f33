/* SPDX-License-Identifier: MIT */
/*
 * cdm6_write.c - "--format cdm6": CrystalDiskMark 6's text layout, line for
 * line, for setting a run beside CDM 6 reports and their parsers: 71-dash
 * rules, the credit line right-aligned to them, no sections and no
 * latency, each test's Read row then its Write row with the labels
 * right-aligned on the colon ("   Sequential Read (Q= 32,T= 1) :",
 * " Random Write 4KiB (Q=  8,T= 8) :"), and CDM 6's footer:
 * "  Test : 1024 MiB [/mnt/x: 11.7% (14.0/119.2 GiB)] (x5)  [Interval=5 sec]",
 * Date, OS, and a last line of two spaces (the comment after them), with
 * no newline when there is no comment.  Where CDM 6 cannot say what cdm
 * ran, the nearest honest form is printed (docs/output-formats.md,
 * "cdm6"); what it shares with the other CDM layouts is in layout.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cdm/base/size.h"
#include "cdm/model/result.h"
#include "cdm/model/spec.h"
#include "cdm/format/formatter.h"
#include "cdm/format/fmt.h"
#include "cdm/format/layout.h"
#include "cdm/format/scale.h"

/*
 * CDM 6's label, right-aligned in 18 columns so the colons line up:
 * "Sequential Read", "Random Write 4KiB".  CDM 6 ran its sequential test
 * with 128 KiB blocks and named no size; any other sequential block is
 * named ("Sequential Read 1MiB"), and a random block is always named, so a
 * reader never takes a 1 MiB test for CDM 6's 128 KiB one or an 8 KiB test
 * for a 4 KiB one.  A Mix row (CDM 6 has none) names its share:
 * "Random Mix 4KiB R70/W30".  A longer label widens the line.
 */
static void label6(char *buf, size_t len, const struct cdm_test_result *t)
{
	int seq = t->spec.pattern == CDM_SEQ;
	char text[96], size[32] = "", share[24] = "";

	if (!seq || t->spec.block != 128 * CDM_KIB) {
		uint64_t n;
		const char *unit = cdm_size_unit(t->spec.block, &n);

		/* "1MiB", "4KiB", "512B" */
		snprintf(size, sizeof(size), " %llu%s", (unsigned long long)n, unit);
	}
	if (t->dir == CDM_DIR_MIX)
		snprintf(share, sizeof(share), " R%u/W%u", 100 - t->spec.write_pct,
			 t->spec.write_pct);
	snprintf(text, sizeof(text), "%s %s%s%s", seq ? "Sequential" : "Random",
		 cdm_result_dir_name(t->dir), size, share);
	snprintf(buf, len, "%18s", text);
}

static void write_row(FILE *out, const struct cdm_test_result *t, enum cdm_aggregate agg)
{
	char label[128], figs[CDM_LAYOUT_FIGURES_MAX];

	label6(label, sizeof(label), t);
	/* CDM 6: IOPS on random rows only, no latency anywhere */
	cdm_layout_figures(figs, sizeof(figs), t, agg,
			   t->spec.pattern == CDM_RND ? CDM_LAYOUT_IOPS : 0);
	fprintf(out, "%s (Q=%3u,T=%2u) : %s\n", label, t->qd_run, t->spec.threads, figs);
}

/* the same test in another direction: pattern, block, Q, T (not the share) */
static int same_test(const struct cdm_test_result *a, const struct cdm_test_result *b)
{
	return a->spec.pattern == b->spec.pattern && a->spec.block == b->spec.block &&
	       a->spec.qd == b->spec.qd && a->spec.threads == b->spec.threads;
}

/*
 * CDM 6's order: per test, its Read row then its Write row ("Sequential
 * Read, Sequential Write, Random Read 4KiB, ..."), then its Mix rows; the
 * tests in the order they first ran.
 */
static void write_rows(FILE *out, const struct cdm_run_result *r)
{
	static const enum cdm_dir dirs[] = { CDM_DIR_READ, CDM_DIR_WRITE, CDM_DIR_MIX };

	for (unsigned int i = 0; i < r->ntests; i++) {
		unsigned int j;

		for (j = 0; j < i; j++)
			if (same_test(&r->tests[j], &r->tests[i]))
				break;
		if (j < i)
			continue;               /* its rows are written */
		for (unsigned int d = 0; d < 3; d++)
			for (j = i; j < r->ntests; j++) {
				const struct cdm_test_result *t = &r->tests[j];

				/* a test without a pass has no figures: no row */
				if (t->dir == dirs[d] && cdm_result_has_data(t) && same_test(t, &r->tests[i]))
					write_row(out, t, r->aggregate);
			}
	}
}

/*
 * CDM 6's drive info, "I: 11.7% (14.0/119.2 GiB)" (MiB below 8 GiB), with
 * the mount point for the drive letter; a block device is said so
 */
static void volume(char *buf, size_t len, const struct cdm_run_info *in)
{
	double used = (double)in->fs_used_bytes, total = (double)in->fs_total_bytes;
	int mib = in->fs_total_bytes < 8 * CDM_GIB;

	if (in->is_device) {
		cdm_layout_device(buf, len, in);
		return;
	}
	if (cdm_result_imported(in)) {	/* an imported report's, as printed (7.x: none) */
		snprintf(buf, len, "%.*s", (int)sizeof(in->source.volume),
			 cdm_result_known(in, CDM_INFO_VOLUME) ? in->source.volume : "unknown");
		return;
	}
	if (!in->fs_total_bytes) {      /* no usage known: no figure for it */
		snprintf(buf, len, "%.*s", (int)sizeof(in->mount_point), cdm_layout_mount(in));
		return;
	}
	snprintf(buf, len, "%.*s: %.1f%% (%.1f/%.1f %s)",
		 (int)sizeof(in->mount_point), cdm_layout_mount(in), 100.0 * used / total,
		 used / (double)(mib ? CDM_MIB : CDM_GIB), total / (double)(mib ? CDM_MIB : CDM_GIB),
		 mib ? "MiB" : "GiB");
}

static void write_footer(FILE *out, const struct cdm_run_result *r, const struct tm *tm)
{
	const struct cdm_run_info *in = &r->info;
	char size[CDM_FMT_SETTING_MAX], text[CDM_LAYOUT_COMMENT_MAX], marks[CDM_LAYOUT_MARKS_MAX];
	char vol[CDM_LAYOUT_VOLUME_MAX], iv[CDM_FMT_SETTING_MAX], cnt[CDM_FMT_SETTING_MAX];

	/* CDM 6 gives the size in MiB, "1024 MiB" */
	if (in->size && in->size % CDM_MIB == 0)
		snprintf(size, sizeof(size), "%llu MiB", (unsigned long long)(in->size / CDM_MIB));
	else
		cdm_fmt_setting(size, sizeof(size), in, CDM_INFO_SIZE, "");
	/*
	 * "(x5) %TestMode% [": the mode is "" or "<0Fill>", hence CDM 6's
	 * double space; cdm's own marks and a measure time that is not CDM
	 * 6's fixed 5 s go there too
	 */
	cdm_layout_marks(marks, sizeof(marks), in, CDM_LAYOUT_MEASURE);
	volume(vol, sizeof(vol), in);
	fprintf(out, "  Test : %s [%s]%s %s [Interval=%s]\n", size, vol,
		cdm_fmt_count(cnt, sizeof(cnt), in),
		marks[0] ? marks + 1 : "",
		cdm_layout_interval(iv, sizeof(iv), in));
	fprintf(out, "  Date : %s\n", cdm_layout_date(text, sizeof(text), tm, in));
	fprintf(out, "    OS : %s\n", cdm_layout_os(text, sizeof(text), in));
	cdm_scale_text_tail(out, r);		/* per-rank spread of an aggregate */
	/*
	 * CDM 6's template ends "  %Comment%", the comment being "  " + text +
	 * CRLF: four spaces and the comment, or two spaces and no newline
	 */
	if (cdm_layout_comment(text, sizeof(text), r))
		fprintf(out, "    %s\n", text);
	else
		fputs("  ", out);
}

static int cdm6_write(FILE *out, const struct cdm_run_result *r)
{
	struct tm tm;

	if (cdm_layout_localtime(&r->info, &tm) < 0)
		return -EOVERFLOW;
	cdm_layout_head(out, &r->info, CDM_LAYOUT_NARROW);
	cdm_scale_text_head(out, r);		/* aggregates only */
	fputc('\n', out);
	write_rows(out, r);
	fputc('\n', out);
	cdm_layout_notes(out, r);
	if (cdm_layout_verify(out, r, ""))
		fputc('\n', out);
	write_footer(out, r, &tm);
	return cdm_layout_end(out);
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_format_cdm6_write = {
	.name = "cdm6",
	.title = "CDM 6 text",
	.ext = "txt",
	.write = cdm6_write,
};
