/* SPDX-License-Identifier: MIT */
/*
 * compare_svg.c - `cdm compare --format svg` (compare_svg.h): the runs
 * compared as horizontal grouped bars, one group per row of the comparison
 * (a test and direction, a Mix test's reads and writes), one bar per run
 * in the order given.  Each group has its own scale from 0 (SEQ1M in GB/s
 * and RND4K Q1T1 in tens of MB/s share no useful axis), so bars compare
 * within a group; the figure and the ratio to the first run are printed
 * at each bar's end, in the words of the text report (compare_table.c).  A run
 * without a figure for a row gets no bar, never a bar of length 0, and
 * its reason in its place.  Every bar has its run's label beside it, and
 * the fills differ in lightness, then in pattern, so a greyscale print
 * still tells the runs apart.  Warnings (settings that differ, interrupted
 * runs, memory under a target) come first, the runs' settings last.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/size.h"
#include "cdm/model/spec.h"
#include "compare_svg.h"
#include "cdm/format/fmt.h"
#include "svg.h"

#define W 800
#define X_LBL 16                /* run labels: left edge */
#define X_BAR 176               /* bars start */
#define X_END (W - 200)         /* the longest bar ends; its text after it */
#define BAR_H 18
#define BAR_GAP 4
#define HEAD_H 24               /* a group's heading */
#define GROUP_GAP 12
#define LINE_H 17
#define NSTYLES 6

/* fills: three lightness steps, then three patterns (defined in defs()) */
static const char *const fills[NSTYLES] = {
	"#1d4f91", "#e08a2e", "#c5e6bf", "url(#p3)", "url(#p4)", "url(#p5)",
};

static void defs(FILE *out)
{
	fputs("<defs>\n"
	      "<pattern id=\"p3\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" patternTransform=\"rotate(45)\">"
	      "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><rect width=\"3\" height=\"6\" fill=\"#1d4f91\"/></pattern>\n"
	      "<pattern id=\"p4\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\">"
	      "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><path d=\"M0 3H6M3 0V6\" stroke=\"#8a4f10\" stroke-width=\"1.6\"/></pattern>\n"
	      "<pattern id=\"p5\" patternUnits=\"userSpaceOnUse\" width=\"5\" height=\"5\">"
	      "<rect width=\"5\" height=\"5\" fill=\"#e4e4e4\"/><circle cx=\"2.5\" cy=\"2.5\" r=\"1.3\" fill=\"#222222\"/></pattern>\n"
	      "</defs>\n", out);
}

static void swatch(FILE *out, double x, double y, double w, double h, unsigned int k)
{
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"#333333\" stroke-width=\"0.8\"/>\n",
		x, y, w, h, fills[k % NSTYLES]);
}

/* the warnings at the top, as lines (@out NULL: counted only) */
static unsigned int warnings(FILE *out, const struct cdm_compare *c, double y)
{
	static const char bold[] = "font-weight=\"bold\" fill=\"#5a1a1a\"";
	char list[128], line[700];
	unsigned int n = 0, k;

	if (cdm_compare_mismatch(c, list, sizeof(list))) {
		snprintf(line, sizeof(line), "Warning: the runs differ in %s: their figures may not be comparable (see the runs below)",
			 list);
		n += cdm_svg_text_wrap(out, X_LBL, y + n * LINE_H, 12, LINE_H, bold, line, W - 2 * X_LBL, 2);
	}
	for (k = 0; k < c->n; k++) {
		const struct cdm_run_info *in = &c->runs[k]->info;

		if (c->runs[k]->interrupted) {
			snprintf(line, sizeof(line), "Warning: %s was interrupted: some of its tests are incomplete or missing",
				 in->label);
			n += cdm_svg_text_wrap(out, X_LBL, y + n * LINE_H, 12, LINE_H, bold, line, W - 2 * X_LBL, 2);
		}
		if (in->nmem_under) {
			snprintf(line, sizeof(line), "Warning: %s: memory under its target (%s): its figures may be memory speed",
				 in->label, in->mem_under[0].layer);
			n += cdm_svg_text_wrap(out, X_LBL, y + n * LINE_H, 12, LINE_H, bold, line, W - 2 * X_LBL, 2);
		}
	}
	return n;
}

/* the legend: a swatch and "1: LABEL" per run, flowed over lines */
static unsigned int legend(FILE *out, const struct cdm_compare *c, double y)
{
	double x = X_LBL;
	unsigned int lines = 1;
	char buf[300];

	for (unsigned int k = 0; k < c->n; k++) {
		double w;

		snprintf(buf, sizeof(buf), "%u: %s", k + 1, c->runs[k]->info.label);
		w = cdm_svg_width(buf, 13, 0);
		w = 22 + (w > 220 ? 220 : w) + 18;
		if (x + w > W - X_LBL && x > X_LBL) {
			x = X_LBL;
			lines++;
		}
		if (out) {
			swatch(out, x, y + (lines - 1) * 22 - 11, 16, 13, k);
			cdm_svg_text_fit(out, x + 22, y + (lines - 1) * 22, "start", 13, NULL, buf, 220);
		}
		x += w;
	}
	return lines;
}

/* "SEQ1M Q8T1 Read", "RND4K Q1T1 W30 Mix (reads)": a row's heading */
static void row_name(const struct cdm_compare *c, unsigned int i, char *buf, size_t len)
{
	const struct cdm_test_result *t = c->rows[i].key;
	char name[64];

	cdm_spec_name(&t->spec, name, sizeof(name));
	snprintf(buf, len, "%s %s%s", name, cdm_result_dir_name(t->dir),
		 c->rows[i].part == CDM_PART_READS ? " (reads)" :
		 c->rows[i].part == CDM_PART_WRITES ? " (writes)" : "");
}

/* one group: its heading, then per run a bar with its figure and ratio, or why none */
static double group(FILE *out, const struct cdm_compare *c, const struct cdm_compare_svg_texts *t,
		    unsigned int i, double y)
{
	char name[96], val[48], ratio[24], lbl[500], why[400], id[96];
	double max = 0;
	unsigned int k;

	for (k = 0; k < c->n; k++) {
		struct cdm_compare_cell cell;

		cdm_compare_cell(c, i, k, &cell);
		if (cell.state == CDM_COMPARE_MEASURED && cell.value > max)
			max = cell.value;
	}
	row_name(c, i, name, sizeof(name));
	snprintf(id, sizeof(id), "row%u", i + 1);
	fprintf(out, "<g class=\"row\" id=\"%s\">\n", id);
	cdm_svg_text(out, X_LBL, y + 16, "start", 14, "font-weight=\"bold\" class=\"test\"", name);
	y += HEAD_H;
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555555\"/>\n",
		X_BAR, y - 2, X_BAR, y + c->n * (BAR_H + BAR_GAP) - BAR_GAP + 2);
	for (k = 0; k < c->n; k++, y += BAR_H + BAR_GAP) {
		struct cdm_compare_cell cell;
		double len;

		cdm_compare_cell(c, i, k, &cell);
		snprintf(lbl, sizeof(lbl), "%u: %s", k + 1, c->runs[k]->info.label);
		cdm_svg_text_fit(out, X_BAR - 8, y + 13, "end", 12, "fill=\"#222222\"", lbl,
				 X_BAR - 8 - X_LBL);
		fprintf(out, "<g class=\"bar\" id=\"%s-run%u\">\n", id, k + 1);
		t->cell(c, i, k, val, sizeof(val), ratio, sizeof(ratio));
		if (cell.state != CDM_COMPARE_MEASURED) {
			/* no figure: no bar, a dash and the reason */
			t->why(c, i, k, &cell, why, sizeof(why));
			snprintf(lbl, sizeof(lbl), "\xe2\x80\x93 %s", why[0] ? why : val);
			cdm_svg_text_fit(out, X_BAR + 6, y + 13, "start", 12,
					 "class=\"none\" fill=\"#555555\" font-style=\"italic\"", lbl,
					 W - X_BAR - 20);
			fputs("</g>\n", out);
			continue;
		}
		len = max > 0 ? cell.value / max * (X_END - X_BAR) : 0;
		swatch(out, X_BAR, y, len < 1 ? 1 : len, BAR_H, k);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">",
			X_BAR + (len < 1 ? 1 : len) + 6, y + 13);
		cdm_svg_tspan(out, "class=\"val\" font-weight=\"bold\"", val);
		/* a ratio below 0.01 is "<0.01x": escaped as every text is */
		if (ratio[0]) {
			fputc(' ', out);
			cdm_svg_tspan(out, "class=\"ratio\"", ratio);
		} else if (!k && c->n > 1) {
			fputc(' ', out);
			cdm_svg_tspan(out, "fill=\"#555555\"", "(base)");
		}
		fputs("</text>\n</g>\n", out);
	}
	fputs("</g>\n", out);
	return y - BAR_GAP + GROUP_GAP;
}

/*
 * "io_uring, O_DIRECT, 1 GiB (x5), 5 s" of a run cdm measured;
 * "CrystalDiskMark 8.0.1 x64 report, 1 GiB (x5), 5 s" of an imported one,
 * what it does not state said so (fmt.h), never a 0 or an empty engine
 */
static void run_settings(const struct cdm_run_info *in, char *buf, size_t len)
{
	char size[CDM_FMT_SETTING_MAX], cnt[CDM_FMT_SETTING_MAX], t[CDM_FMT_SETTING_MAX];
	char src[128];

	cdm_fmt_setting(size, sizeof(size), in, CDM_INFO_SIZE, "");
	cdm_fmt_count(cnt, sizeof(cnt), in);
	cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " s");
	if (cdm_result_imported(in))
		snprintf(buf, len, "%s report, %s%s, Measure %s", cdm_fmt_source(src, sizeof(src), in),
			 size, cnt, t);
	else
		snprintf(buf, len, "%s, %s, %s%s, Measure %s", in->engine,
			 in->direct ? "O_DIRECT" : "buffered", size, cnt, t);
}

/* the runs' settings, one line each (@out NULL: counted only) */
static unsigned int runs(FILE *out, const struct cdm_compare *c, double y)
{
	char start[64], set[400], line[5000], vol[4200];
	unsigned int n = 0;

	for (unsigned int k = 0; k < c->n; k++) {
		const struct cdm_run_info *in = &c->runs[k]->info;

		/* a run's UTC start; a report's Date as printed (its zone unknown) */
		cdm_fmt_start(start, sizeof(start), in);
		run_settings(in, set, sizeof(set));
		/* a report's volume as printed; a CDM 7 report names none */
		if (!cdm_result_imported(in))
			snprintf(vol, sizeof(vol), " = %s%s%s%s", in->target, in->fs_type[0] ? " (" : "",
				 in->fs_type, in->fs_type[0] ? ")" : "");
		else if (cdm_result_known(in, CDM_INFO_VOLUME))
			snprintf(vol, sizeof(vol), " = %s", in->source.volume);
		else
			vol[0] = '\0';
		snprintf(line, sizeof(line), "%u: %s%s \xc2\xb7 %s \xc2\xb7 %s%s", k + 1, in->label, vol,
			 set, start[0] ? start : "date unknown",
			 c->runs[k]->interrupted ? " (interrupted)" : "");
		n += cdm_svg_text_wrap(out, X_LBL, y + n * LINE_H, 12, LINE_H, "fill=\"#222222\"",
				       line, W - 2 * X_LBL, 2);
	}
	return n;
}

int cdm_compare_svg_write(FILE *out, const struct cdm_compare *c,
			  const struct cdm_compare_svg_texts *t)
{
	const char *metric = t->metric(c->metric);
	char title[400], axis[300];
	unsigned int nw = warnings(NULL, c, 0), nl = legend(NULL, c, 0), nr = runs(NULL, c, 0);
	double y, h;

	h = 64 + (nw ? nw * LINE_H + 6 : 0) + nl * 22 + 30 + nr * LINE_H + 30;
	for (unsigned int i = 0; i < c->nrows; i++)
		h += HEAD_H + c->n * (BAR_H + BAR_GAP) - BAR_GAP + GROUP_GAP;
	if (!c->nrows)
		h += 30;
	cdm_svg_head(out, W, (int)h);
	defs(out);
	snprintf(title, sizeof(title), "cdm compare: %s, ratio to %s", metric, c->runs[0]->info.label);
	cdm_svg_text_fit(out, X_LBL, 26, "start", 18, "font-weight=\"bold\"", title, W - 2 * X_LBL);
	snprintf(axis, sizeof(axis), "%s, the %s of the passes%s \xc2\xb7 each test's bars to its own scale from 0",
		 metric, t->agg(c->aggregate, c->metric),
		 c->metric == CDM_COMPARE_LAT ? " (lower is better)" : "");
	cdm_svg_text_fit(out, X_LBL, 48, "start", 13, "class=\"axis\" fill=\"#333333\"", axis, W - 2 * X_LBL);
	y = 72;
	if (nw) {
		warnings(out, c, y);
		y += nw * LINE_H + 6;
	}
	legend(out, c, y);
	y += nl * 22 + 6;
	for (unsigned int i = 0; i < c->nrows; i++)
		y = group(out, c, t, i, y);
	if (!c->nrows) {
		cdm_svg_text(out, X_LBL, y + 16, "start", 13, NULL, "(no tests in these results)");
		y += 30;
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#bbbbbb\"/>\n",
		X_LBL, y, W - X_LBL, y);
	runs(out, c, y + 18);
	fputs("</svg>\n", out);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
