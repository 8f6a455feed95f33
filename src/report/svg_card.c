/* SPDX-License-Identifier: MIT */
/*
 * svg_card.c - --format svg and --svg: a run as the picture people know
 * from CrystalDiskMark's window, for a post or an issue.  A title bar with
 * the run's label and target; CDM's row of settings (count, test size,
 * target and its use, unit); per test a row with CDM's grey label box
 * ("SEQ1M" over "Q8T1") and one box per direction (Read, Write, and each
 * Mix ratio run) holding the MB/s large, the IOPS and the mean latency
 * small under it, and a meter (CDM's, on a log scale) along its foot; then
 * what measured nothing and why, and a footer naming the profile, size,
 * passes, times, date, OS, CPU, memory, device, engine and O_DIRECT.
 *
 * The figures are the result model's (cdm_result_mb_s, _iops, _lat_us
 * under r->aggregate), printed as CDM's window prints them: MB/s and
 * latency in us with two decimals, IOPS with one as in CDM's text.  A test
 * without figures shows a dash and the reason, never a 0.  Read, write
 * and mix meters differ in lightness, not only in hue, so a greyscale
 * print tells them apart; the column heads name them anyway.  800 px wide,
 * for a post's column; docs/output-formats.md shows it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/size.h"
#include "cdm/base/text.h"
#include "cdm/base/version.h"
#include "cdm/model/result.h"
#include "cdm/model/settings.h"
#include "cdm/model/spec.h"
#include "cdm/format/formatter.h"
#include "cdm/format/fmt.h"
#include "cdm/format/layout.h"
#include "svg.h"

#define DASH "\xe2\x80\x93"         /* en dash: no figure */
#define W 800                   /* document width, px */
#define WIN_X 8                 /* the window's frame */
#define IN_X 20                 /* content: left edge */
#define IN_R (W - 20)           /* content: right edge */
#define LBL_W 118               /* the label boxes' column */
#define GAP 8                   /* between boxes */
#define ROW_H 70                /* one test's row */
#define ROWS_Y 124              /* top of the first row */
#define LINE_H 17               /* a footer or note line */
#define MAX_COLS 6              /* read, write and up to 4 Mix ratios */

struct col {
	enum cdm_dir dir;
	unsigned int write_pct;         /* Mix: its ratio */
};

struct card {
	const struct cdm_run_result *r;
	struct col cols[MAX_COLS];
	unsigned int ncol;
	unsigned int *rows;             /* per row, the index of its first test */
	unsigned int nrow;
	double cw;                      /* a value box's width */
	int split;                      /* IOPS and latency on two lines (figure_lines()) */
	int head_unit, head_size;       /* the column heads' (head_style()) */
};

/* the test's shape alone: its row (Q really run aside) */
static struct cdm_spec shape(const struct cdm_spec *s)
{
	return (struct cdm_spec){ .pattern = s->pattern, .block = s->block, .qd = s->qd,
				  .threads = s->threads };
}

static int same_shape(const struct cdm_spec *a, const struct cdm_spec *b)
{
	struct cdm_spec x = shape(a), y = shape(b);

	return cdm_spec_same(&x, &y);
}

static int col_of(const struct cdm_test_result *t, const struct col *c)
{
	return t->dir == c->dir && (t->dir != CDM_DIR_MIX || t->spec.write_pct == c->write_pct);
}

/* the columns (read, write, each Mix ratio in run order) and the rows */
static int layout(struct card *k, const struct cdm_run_result *r)
{
	static const enum cdm_dir order[] = { CDM_DIR_READ, CDM_DIR_WRITE, CDM_DIR_MIX };

	memset(k, 0, sizeof(*k));
	k->r = r;
	k->rows = malloc(((size_t)r->ntests + 1) * sizeof(*k->rows));
	if (!k->rows)
		return -ENOMEM;
	for (unsigned int d = 0; d < 3; d++) {
		for (unsigned int i = 0; i < r->ntests && k->ncol < MAX_COLS; i++) {
			const struct cdm_test_result *t = &r->tests[i];
			struct col c = { order[d], t->dir == CDM_DIR_MIX ? t->spec.write_pct : 0 };
			unsigned int j;

			if (t->dir != order[d])
				continue;
			for (j = 0; j < k->ncol && !col_of(t, &k->cols[j]); j++)
				;
			if (j == k->ncol)
				k->cols[k->ncol++] = c;
		}
	}
	for (unsigned int i = 0; i < r->ntests; i++) {
		unsigned int j;

		for (j = 0; j < k->nrow && !same_shape(&r->tests[k->rows[j]].spec, &r->tests[i].spec); j++)
			;
		if (j == k->nrow)
			k->rows[k->nrow++] = i;
	}
	k->cw = k->ncol ? (IN_R - IN_X - LBL_W - (double)k->ncol * GAP) / k->ncol : 0;
	return 0;
}

/*
 * Column @c's fill, its meters' and its head's swatch: read dark, write
 * mid, the first Mix ratio light (greyscale ~70, 150, 215); each further
 * Mix ratio a pattern of its own (defs()), so that a greyscale print tells
 * every column apart and not only by its head.
 */
static const char *col_fill(const struct card *k, unsigned int c)
{
	static const char *const mix[MAX_COLS] = {
		"#c5e6bf", "url(#mix1)", "url(#mix2)", "url(#mix3)", "url(#mix4)", "url(#mix1)",
	};
	unsigned int m = 0;

	if (k->cols[c].dir != CDM_DIR_MIX)
		return k->cols[c].dir == CDM_DIR_WRITE ? "#e08a2e" : "#1d4f91";
	for (unsigned int i = 0; i < c; i++)
		m += k->cols[i].dir == CDM_DIR_MIX;
	return mix[m % MAX_COLS];
}

/* the patterns of col_fill(): stripes, dots, a grid, a checker */
static void defs(FILE *out)
{
	fputs("<defs>\n"
	      "<pattern id=\"mix1\" patternUnits=\"userSpaceOnUse\" width=\"4\" height=\"4\" patternTransform=\"rotate(45)\">"
	      "<rect width=\"4\" height=\"4\" fill=\"#c5e6bf\"/><rect width=\"2\" height=\"4\" fill=\"#2f6b2f\"/></pattern>\n"
	      "<pattern id=\"mix2\" patternUnits=\"userSpaceOnUse\" width=\"4\" height=\"4\">"
	      "<rect width=\"4\" height=\"4\" fill=\"#ffffff\"/><circle cx=\"2\" cy=\"2\" r=\"1.2\" fill=\"#1f4f1f\"/></pattern>\n"
	      "<pattern id=\"mix3\" patternUnits=\"userSpaceOnUse\" width=\"4\" height=\"4\">"
	      "<rect width=\"4\" height=\"4\" fill=\"#8fc486\"/><path d=\"M0 2H4M2 0V4\" stroke=\"#ffffff\" stroke-width=\"1\"/></pattern>\n"
	      "<pattern id=\"mix4\" patternUnits=\"userSpaceOnUse\" width=\"4\" height=\"4\">"
	      "<rect width=\"4\" height=\"4\" fill=\"#ffffff\"/><rect width=\"2\" height=\"2\" fill=\"#3d7a3d\"/>"
	      "<rect x=\"2\" y=\"2\" width=\"2\" height=\"2\" fill=\"#3d7a3d\"/></pattern>\n"
	      "</defs>\n", out);
}

static double col_x(const struct card *k, unsigned int c)
{
	return IN_X + LBL_W + GAP + c * (k->cw + GAP);
}

/* the test of row @row in column @c, or NULL when the run has none */
static const struct cdm_test_result *cell_test(const struct card *k, unsigned int row,
					       unsigned int c)
{
	const struct cdm_spec *s = &k->r->tests[k->rows[row]].spec;

	for (unsigned int i = 0; i < k->r->ntests; i++)
		if (same_shape(&k->r->tests[i].spec, s) && col_of(&k->r->tests[i], &k->cols[c]))
			return &k->r->tests[i];
	return NULL;
}

/* "Read (MB/s)", "Mix R70/W30 (MB/s)"; without @unit "Read", "Mix R70/W30" */
static void col_head(const struct col *c, char *buf, size_t len, int unit)
{
	if (c->dir == CDM_DIR_MIX)
		snprintf(buf, len, "Mix R%u/W%u%s", 100 - c->write_pct, c->write_pct,
			 unit ? " (MB/s)" : "");
	else
		snprintf(buf, len, "%s%s", cdm_result_dir_name(c->dir), unit ? " (MB/s)" : "");
}

/* "r-SEQ1M_Q8T1-read", "r-RND4K_Q1T1-mix30": an XML name for a cell */
static void cell_id(const struct cdm_test_result *t, char *buf, size_t len)
{
	struct cdm_spec s = shape(&t->spec);
	char name[64];
	int n;

	cdm_spec_name(&s, name, sizeof(name));
	for (char *p = name; *p; p++)
		if (*p == ' ')
			*p = '_';
	n = snprintf(buf, len, "r-%s-%s", name, cdm_result_dir_key(t->dir));
	if (t->dir == CDM_DIR_MIX && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%u", t->spec.write_pct);
}

static void box(FILE *out, double x, double y, double w, double h, const char *fill,
		const char *stroke)
{
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"4\" fill=\"%s\" stroke=\"%s\"/>\n",
		x, y, w, h, fill, stroke);
}

/*
 * CDM's meter: log10 of the MB/s, empty at 0.1 MB/s, full at 100,000 (a
 * decoration: the series of 2 atanh((v - 1) / (v + 1)) to 1e-4, as cdm
 * does not link libm).
 */
static double meter(double mb_s)
{
	double v = mb_s * 10.0, z, z2, term, ln = 0, decades = 0;

	if (!(v > 1.0))
		return 0.02;
	while (v >= 10.0 && decades < 6) {
		v /= 10.0;
		decades++;
	}
	z = (v - 1.0) / (v + 1.0);
	z2 = z * z;
	term = z;
	for (int i = 1; i < 60; i += 2) {
		ln += term / i;
		term *= z2;
	}
	v = (decades + 2.0 * ln / 2.302585093) / 6.0;
	return v < 0.02 ? 0.02 : v > 1.0 ? 1.0 : v;
}

/* the small figures of @t: "1234.5 IOPS" and "61.00 µs" (cdm_fmt_fig(), a dash when none) */
static void small_figures(const struct card *k, const struct cdm_test_result *t,
			  char *iops, char *lat, size_t len)
{
	cdm_fmt_fig(iops, len, 1, cdm_result_iops(t, k->r->aggregate), " IOPS", DASH " IOPS");
	cdm_fmt_fig(lat, len, 2, cdm_result_lat_us(t, k->r->aggregate), " \xc2\xb5s",
		    DASH " \xc2\xb5s");   /* CDM 6 prints none */
}

/*
 * Do the IOPS and the latency of some cell not fit on one line at 10 px
 * or more?  Then every cell has them on two lines (the card looks the
 * same throughout), under a smaller MB/s.
 */
static int figure_lines(const struct card *k)
{
	char iops[CDM_FMT_FIG_MAX], lat[CDM_FMT_FIG_MAX];

	for (unsigned int i = 0; i < k->r->ntests; i++) {
		const struct cdm_test_result *t = &k->r->tests[i];

		if (cdm_result_state(t) != CDM_PASS_MEASURED)
			continue;
		small_figures(k, t, iops, lat, sizeof(iops));
		if (cdm_svg_width(iops, 10, 0) + cdm_svg_width("  ", 10, 0) +
		    cdm_svg_width(lat, 10, 0) > k->cw - 16)
			return 1;
	}
	return 0;
}

/*
 * A measured cell: MB/s large, IOPS and latency small, the meter; each
 * figure by cdm_fmt_fig() (a dash for one the run does not have: a CDM 6
 * report's latency).  The IOPS and the latency share a line, or have one
 * each (k->split), so that no text runs into another however narrow the
 * columns are (6 of them: 99 px).
 */
static void cell_figures(FILE *out, const struct card *k, unsigned int c,
			 const struct cdm_test_result *t, double x, double y)
{
	double mb = cdm_result_mb_s(t, k->r->aggregate), cw = k->cw;
	char big[CDM_FMT_FIG_MAX], iops[CDM_FMT_FIG_MAX], lat[CDM_FMT_FIG_MAX];
	char both[2 * CDM_FMT_FIG_MAX + 2];
	int size, small;

	cdm_fmt_fig(big, sizeof(big), 2, mb, "", DASH);
	small_figures(k, t, iops, lat, sizeof(iops));
	size = cdm_svg_fit_size(big, k->split ? 22 : 30, 10, cw - 16, 1);
	cdm_svg_text_fit(out, x + cw - 8, y + (k->split ? 29 : 36), "end", size,
			 "class=\"mbs\" font-weight=\"bold\" fill=\"#111111\"", big, cw - 16);
	if (!k->split) {
		snprintf(both, sizeof(both), "%s  %s", iops, lat);
		small = cdm_svg_fit_size(both, 13, 10, cw - 16, 0);
		cdm_svg_text(out, x + 8, y + 54, "start", small, "class=\"iops\" fill=\"#333333\"", iops);
		cdm_svg_text(out, x + cw - 8, y + 54, "end", small, "class=\"lat\" fill=\"#333333\"", lat);
	} else {
		small = cdm_svg_fit_size(iops, 11, 8, cw - 16, 0);
		cdm_svg_text_fit(out, x + cw - 8, y + 43, "end", small, "class=\"iops\" fill=\"#333333\"",
				 iops, cw - 16);
		small = cdm_svg_fit_size(lat, 11, 8, cw - 16, 0);
		cdm_svg_text_fit(out, x + cw - 8, y + 55, "end", small, "class=\"lat\" fill=\"#333333\"",
				 lat, cw - 16);
	}
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"6\" fill=\"%s\" stroke=\"#444444\" stroke-width=\"0.6\"/>\n",
		x + 6, y + ROW_H - 11, (cw - 12) * meter(mb), col_fill(k, c));
}

/* one value box: figures, or a dash and why there are none */
static void cell(FILE *out, const struct card *k, unsigned int row, unsigned int c, double y)
{
	const struct cdm_test_result *t = cell_test(k, row, c);
	double x = col_x(k, c), cw = k->cw;
	char id[96];
	enum cdm_pass_state st;

	if (!t) {       /* this run has no such test in this direction */
		box(out, x, y, cw, ROW_H, "#ececec", "#bbbbbb");
		cdm_svg_text_fit(out, x + cw / 2, y + 40, "middle",
				 cdm_svg_fit_size("not in this run", 12, 9, cw - 12, 0),
				 "fill=\"#666666\"", "not in this run", cw - 12);
		return;
	}
	cell_id(t, id, sizeof(id));
	fprintf(out, "<g class=\"cell\" id=\"%s\">\n", id);
	box(out, x, y, cw, ROW_H, "#f7f7f7", "#8c8c8c");
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"6\" fill=\"#e3e3e3\"/>\n",
		x + 6, y + ROW_H - 11, cw - 12);
	st = cdm_result_state(t);
	if (st == CDM_PASS_MEASURED && !cdm_result_agg_reason(t, k->r->aggregate)) {
		cell_figures(out, k, c, t, x, y);
	} else {
		/* nothing measured, or no figure under this aggregate (a report's median) */
		cdm_svg_text(out, x + cw / 2, y + 34, "middle", 30,
			     "class=\"none\" font-weight=\"bold\" fill=\"#555555\"", DASH);
		cdm_svg_text_fit(out, x + cw / 2, y + 54, "middle", 12, "class=\"why\" fill=\"#333333\"",
				 st == CDM_PASS_MEASURED ? "best only" : cdm_pass_state_reason(st), cw - 12);
	}
	fputs("</g>\n", out);
}

/* CDM's grey label box: "SEQ1M" over "Q8T1" (and the Q really run if less) */
static void label_box(FILE *out, const struct cdm_test_result *t, double y)
{
	struct cdm_spec s = shape(&t->spec);
	char name[64], *qt, ran[32];
	double cx = IN_X + LBL_W / 2.0;

	cdm_spec_name(&s, name, sizeof(name));
	qt = strchr(name, ' ');
	if (qt)
		*qt++ = '\0';
	box(out, IN_X, y, LBL_W, ROW_H, "#d4d4d4", "#7a7a7a");
	cdm_svg_text(out, cx, y + 30, "middle", cdm_svg_fit_size(name, 19, 10, LBL_W - 10, 1),
		     "font-weight=\"bold\"", name);
	if (qt)
		cdm_svg_text(out, cx, y + 52, "middle", cdm_svg_fit_size(qt, 16, 9, LBL_W - 10, 0),
			     NULL, qt);
	if (t->qd_run && t->qd_run != t->spec.qd) {
		snprintf(ran, sizeof(ran), "ran at Q%u", t->qd_run);
		cdm_svg_text(out, cx, y + 65, "middle", 10, "fill=\"#444444\"", ran);
	}
}

/* "/mnt/x: 4% (79/1862GiB)" as CDM's drive box, or a device's size */
static void target_text(const struct cdm_run_info *in, char *buf, size_t len)
{
	char sz[32];

	if (cdm_result_imported(in)) {  /* its volume as printed: "G: 0% (0/1863GiB)" */
		snprintf(buf, len, "%s", cdm_result_known(in, CDM_INFO_VOLUME) ?
			 in->source.volume : "volume unknown");
	} else if (in->is_device) {
		cdm_size_format(in->target_dev_bytes, sz, sizeof(sz));
		snprintf(buf, len, "%s: block device, %s", in->target, sz);
	} else if (in->fs_total_bytes) {
		snprintf(buf, len, "%s: %u%% (%llu/%lluGiB)", in->target,
			 (unsigned int)(100.0 * (double)in->fs_used_bytes / (double)in->fs_total_bytes + 0.5),
			 (unsigned long long)((in->fs_used_bytes + CDM_GIB / 2) / CDM_GIB),
			 (unsigned long long)((in->fs_total_bytes + CDM_GIB / 2) / CDM_GIB));
	} else {
		snprintf(buf, len, "%s", in->target);
	}
}

/*
 * The column heads' style, the same for all: "Read (MB/s)" at 14 px, or
 * smaller down to 11 px where a column is narrow; narrower still, "Read"
 * alone (the settings row says MB/s) down to 9 px.  Sets k->head_unit and
 * k->head_size.
 */
static void head_style(struct card *k)
{
	double avail = k->cw - 4 - 20;  /* beside the swatch */
	char buf[64];

	k->head_size = 14;
	for (k->head_unit = 1; k->head_unit >= 0; k->head_unit--) {
		int min = k->head_unit ? 11 : 9, fits = 1;

		k->head_size = 14;
		for (unsigned int c = 0; c < k->ncol; c++) {
			col_head(&k->cols[c], buf, sizeof(buf), k->head_unit);
			k->head_size = cdm_svg_fit_size(buf, k->head_size, min, avail, 1);
			fits &= cdm_svg_width(buf, k->head_size, 1) <= avail;
		}
		if (fits || !k->head_unit)
			return;
	}
}

/*
 * Column @c's head: its swatch, then its name (head_style()), the pair
 * centred over the column and placed by the width of the text as
 * written, so that the swatch never covers it.
 */
static void col_headline(FILE *out, const struct card *k, unsigned int c)
{
	double avail = k->cw - 4 - 20, tw, x0;
	char buf[64];

	col_head(&k->cols[c], buf, sizeof(buf), k->head_unit);
	tw = cdm_svg_width(buf, k->head_size, 1);
	tw = tw > avail ? avail : tw;
	x0 = col_x(k, c) + (k->cw - 20 - tw) / 2;
	fprintf(out, "<rect x=\"%.1f\" y=\"102\" width=\"14\" height=\"10\" fill=\"%s\" stroke=\"#444444\" stroke-width=\"0.6\"/>\n",
		x0, col_fill(k, c));
	cdm_svg_text_fit(out, x0 + 20, 112, "start", k->head_size, "class=\"head\" font-weight=\"bold\"",
			 buf, avail);
}

/* the title bar, CDM's settings row and the column heads */
static void head(FILE *out, const struct card *k)
{
	const struct cdm_run_info *in = &k->r->info;
	char buf[4400], sz[128];
	double x = IN_X + LBL_W + GAP, right = IN_R, tw;

	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"36\" rx=\"6\" fill=\"#2e2e2e\"/>\n",
		WIN_X, WIN_X, W - 2 * WIN_X);
	/* right: whose figures, cdm's or an imported CrystalDiskMark report's */
	if (cdm_result_imported(in))
		snprintf(buf, sizeof(buf), "%s report, imported", cdm_fmt_source(sz, sizeof(sz), in));
	else
		snprintf(buf, sizeof(buf), "cdm %s %s%s", in->version[0] ? in->version : cdm_version(),
			 in->machine, in->admin ? " [Admin]" : "");
	tw = cdm_svg_width(buf, 12, 0);
	tw = tw < 210 ? 210 : tw > 330 ? 330 : tw;
	cdm_svg_text_fit(out, IN_R, 31, "end", 12, "fill=\"#dddddd\"", buf, tw);
	/* left: the label and the target (a CDM 7 report names no volume) */
	if (in->label[0] && in->target[0] && strcmp(in->label, in->target))
		snprintf(buf, sizeof(buf), "%s \xe2\x80\x94 %s", in->label, in->target);
	else
		snprintf(buf, sizeof(buf), "%s", in->label[0] ? in->label : in->target);
	cdm_svg_text_fit(out, IN_X, 32, "start", 17, "font-weight=\"bold\" fill=\"#ffffff\"", buf,
			 IN_R - IN_X - tw - 30);
	/* CDM's row: the All button, count, size, drive, unit */
	box(out, IN_X, 54, LBL_W, 30, "#d4d4d4", "#7a7a7a");
	cdm_svg_text(out, IN_X + LBL_W / 2.0, 75, "middle", 15, "font-weight=\"bold\"", "All");
	/* a count or size the report does not state: a dash, as a missing figure */
	if (cdm_result_known(in, CDM_INFO_COUNT))
		snprintf(buf, sizeof(buf), "x%u", in->count);
	else
		snprintf(buf, sizeof(buf), "x\xe2\x80\x93");
	box(out, x, 54, 52, 30, "#ffffff", "#8c8c8c");
	cdm_svg_text(out, x + 26, 74, "middle", 14, NULL, buf);
	box(out, x + 60, 54, 92, 30, "#ffffff", "#8c8c8c");
	if (cdm_result_known(in, CDM_INFO_SIZE))
		cdm_size_format(in->size, sz, sizeof(sz));
	else
		snprintf(sz, sizeof(sz), "\xe2\x80\x93");
	cdm_svg_text(out, x + 106, 74, "middle", 14, NULL, sz);
	box(out, right - 64, 54, 64, 30, "#ffffff", "#8c8c8c");
	cdm_svg_text(out, right - 32, 74, "middle", 14, NULL, "MB/s");
	box(out, x + 160, 54, right - 72 - (x + 160), 30, "#ffffff", "#8c8c8c");
	target_text(in, buf, sizeof(buf));
	cdm_svg_text_fit(out, x + 168, 74, "start", 14, NULL, buf, right - 72 - (x + 176));
	for (unsigned int c = 0; c < k->ncol; c++)
		col_headline(out, k, c);
}

/* one note under the rows, wrapped; returns its lines */
static unsigned int note(FILE *out, double y, const char *extra, const char *s)
{
	return cdm_svg_text_wrap(out, IN_X, y, 12, LINE_H, extra, s, IN_R - IN_X, 3);
}

/*
 * Under the rows: interrupted, memory under the target, tests without
 * figures and why.  @out NULL: only counted.  Returns the lines.
 */
static unsigned int notes(FILE *out, const struct card *k, double y)
{
	static const char warn[] = "font-weight=\"bold\" fill=\"#5a1a1a\"";
	const struct cdm_run_result *r = k->r;
	char line[1000], name[64], why[256];
	unsigned int n = 0;

	if (r->interrupted) {
		snprintf(line, sizeof(line), "Interrupted (signal %d): only the passes measured before it are shown",
			 r->interrupted);
		n += note(out, y + n * LINE_H, warn, line);
	}
	if (r->info.nmem_under) {
		snprintf(line, sizeof(line), "Warning: memory under the target (%s): the figures may be memory speed",
			 r->info.mem_under[0].layer);
		n += note(out, y + n * LINE_H, warn, line);
	}
	for (unsigned int i = 0; i < r->ntests; i++) {
		if (!cdm_result_agg_reason(&r->tests[i], r->aggregate))
			continue;
		/* a report under the median or the mean: said once, not per cell */
		snprintf(line, sizeof(line), "No %s figures: %s, no passes to take a %s of (--aggregate best shows them)",
			 cdm_result_aggregate_name(r->aggregate),
			 cdm_result_agg_reason(&r->tests[i], r->aggregate),
			 cdm_result_aggregate_name(r->aggregate));
		n += note(out, y + n * LINE_H, warn, line);
		break;
	}
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		if (!cdm_result_why(t, why, sizeof(why))[0])
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		snprintf(line, sizeof(line), "%s %s: %s%s", name, cdm_result_dir_name(t->dir),
			 cdm_result_state(t) == CDM_PASS_MEASURED ? "" : "nothing measured: ", why);
		n += note(out, y + n * LINE_H, "fill=\"#5a1a1a\"", line);
	}
	return n;
}

/* the footer's lines, wrapped, at @y; @out NULL: only counted */
static unsigned int footer(FILE *out, char (*l)[600], unsigned int nl, double y)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nl; i++)
		n += cdm_svg_text_wrap(out, IN_X + 10, y + n * LINE_H, 12, LINE_H,
				       "fill=\"#222222\"", l[i], IN_R - IN_X - 20, 2);
	return n;
}

#define FOOT_LINES 9
#define SEP " \xc2\xb7 "             /* U+00B7: SVG collapses runs of blanks */

/*
 * does @r have a test with figures but no latency (a CDM 6 report's)?
 * Under the best, what the report prints: its median is absent whole.
 */
static int lacks_latency(const struct cdm_run_result *r)
{
	for (unsigned int i = 0; i < r->ntests; i++)
		if (cdm_result_state(&r->tests[i]) == CDM_PASS_MEASURED &&
		    isnan(cdm_result_lat_us(&r->tests[i], CDM_AGG_BEST)))
			return 1;
	return 0;
}

/*
 * The footer's first lines, every run's: the settings, the date and the
 * OS; what an imported report does not state is "unknown" (fmt.h).
 */
static unsigned int footer_common(const struct cdm_run_result *r, char (*l)[600])
{
	const struct cdm_run_info *in = &r->info;
	char prof[CDM_FMT_SETTING_MAX], sz[CDM_FMT_SETTING_MAX], cnt[CDM_FMT_SETTING_MAX];
	char mt[CDM_FMT_SETTING_MAX], iv[CDM_FMT_SETTING_MAX], wu[CDM_FMT_SETTING_MAX];
	char start[64], os[CDM_LAYOUT_OS_MAX];

	snprintf(l[0], 600, "Profile: %s" SEP "Test: %s%s" SEP "Measure %s / Interval %s / Warm-up %s",
		 cdm_fmt_setting(prof, sizeof(prof), in, CDM_INFO_PROFILE, ""),
		 cdm_fmt_setting(sz, sizeof(sz), in, CDM_INFO_SIZE, ""),
		 cdm_fmt_count(cnt, sizeof(cnt), in),
		 cdm_fmt_setting(mt, sizeof(mt), in, CDM_INFO_TIME, " s"),
		 cdm_fmt_setting(iv, sizeof(iv), in, CDM_INFO_INTERVAL, " s"),
		 cdm_fmt_setting(wu, sizeof(wu), in, CDM_INFO_WARMUP, " s"));
	/* a run's UTC time; a report's Date as printed, its zone unknown */
	cdm_fmt_start(start, sizeof(start), in);
	snprintf(l[1], 600, "Date: %s" SEP "OS: %s", start[0] ? start : "unknown",
		 cdm_layout_os(os, sizeof(os), in));
	return 2;
}

/*
 * An imported report's last footer line: whose figures these are and
 * what it does not state of the machine and the method, said once.
 */
static unsigned int footer_source(const struct cdm_run_result *r, char (*l)[600])
{
	const struct cdm_run_info *in = &r->info;
	char src[128];

	snprintf(l[0], 600, "Measured by %s, %s" SEP "Figures: as its report printed them, the best of its passes",
		 cdm_fmt_source(src, sizeof(src), in),
		 !cdm_result_known(in, CDM_INFO_DATA) ? "test data unknown" :
		 in->zero_fill ? "zero (0Fill) data" : "random data");
	snprintf(l[1], 600, "Not stated in the report: engine, warm-up, CPU, memory, device%s",
		 lacks_latency(r) ? ", latency" : "");
	return 2;
}

/*
 * --verify's read-back in a few words (cdm_result_verify_state()): "Writes
 * verified: 2 clean, 1 with faults, 1 nothing written, 1 interrupted"
 * (the kinds found), or "Writes verified: no write test read back"
 */
static void verify_line(const struct cdm_run_result *r, char *buf, size_t len)
{
	static const char *const words[] = {
		[CDM_VERIFY_STATE_CLEAN] = "clean",
		[CDM_VERIFY_STATE_FAULTS] = "with faults",
		[CDM_VERIFY_STATE_EMPTY] = "nothing written",
		[CDM_VERIFY_STATE_INTERRUPTED] = "interrupted",
	};
	static const enum cdm_verify_state order[] = {
		CDM_VERIFY_STATE_CLEAN, CDM_VERIFY_STATE_FAULTS, CDM_VERIFY_STATE_EMPTY,
		CDM_VERIFY_STATE_INTERRUPTED,
	};
	unsigned int n[CDM_VERIFY_STATE_FAULTS + 1] = { 0 }, any = 0;
	size_t m = 0;

	cdm_text_add(buf, len, &m, "Writes verified:");
	for (unsigned int i = 0; i < r->ntests; i++)
		n[cdm_result_verify_state(&r->tests[i].verify)]++;
	for (unsigned int k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		if (!n[order[k]])
			continue;
		cdm_text_add(buf, len, &m, "%s %u %s", any ? "," : "", n[order[k]], words[order[k]]);
		any = 1;
	}
	if (!any)
		cdm_text_add(buf, len, &m, " no write test read back");
}

/*
 * The footer's line of the method of numbers that hold (docs/method.md),
 * when the run used any of it: steady state and how many tests got
 * steady, the preconditioning's time, the verification, the CPUs; 0 lines
 * when it used none
 */
static unsigned int footer_hold(const struct cdm_run_result *r, char *l)
{
	const struct cdm_run_info *in = &r->info;
	unsigned int steady = 0, rounds = 0;
	size_t m = 0;

	l[0] = '\0';
	for (unsigned int i = 0; i < r->ntests; i++) {
		rounds += r->tests[i].steady.on && cdm_result_has_data(&r->tests[i]);
		steady += r->tests[i].steady.on && r->tests[i].steady.reached_at_round;
	}
	if (in->steady_state)
		cdm_text_add(l, 600, &m, "Steady state (SNIA PTS, at most %u rounds, figures over the last %u): %u of %u tests steady",
			     in->max_rounds, CDM_STEADY_WINDOW, steady, rounds);
	if (in->precondition && !in->precondition_ns)
		cdm_text_add(l, 600, &m, "%sPreconditioning did not complete", m ? SEP : "");
	else if (in->precondition)
		cdm_text_add(l, 600, &m, "%sPreconditioned: %.1f s", m ? SEP : "", (double)in->precondition_ns / 1e9);
	if (in->verify) {
		char v[200];

		verify_line(r, v, sizeof(v));
		cdm_text_add(l, 600, &m, "%s%s", m ? SEP : "", v);
	}
	if (in->cpus[0])
		cdm_text_add(l, 600, &m, "%sCPUs: %.*s", m ? SEP : "", (int)sizeof(in->cpus), in->cpus);
	if (in->dev_numa_node >= 0)
		cdm_text_add(l, 600, &m, "%sDevice NUMA node %d", m ? SEP : "", in->dev_numa_node);
	return m != 0;
}

/*
 * The footer's line of --end-fsync's flush, when a test's passes ended
 * with it (cdm_result_end_fsync_sum()): the test whose flush took the
 * largest share of its passes, as the text's note words it, "End fsync:
 * SEQ1M Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 80.1 ms",
 * as "End fsync, worst of 4 tests: ..." when there are more; 0 lines when
 * none
 */
static unsigned int footer_end_fsync(const struct cdm_run_result *r, char *l)
{
	const struct cdm_test_result *worst = NULL;
	struct cdm_end_fsync_sum s, ws = { 0 };
	char name[64], how[CDM_FMT_END_FSYNC_MAX], more[64] = "";
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->ntests; i++) {
		if (!cdm_result_has_data(&r->tests[i]) ||
		    !cdm_result_end_fsync_sum(&r->tests[i], &r->info, &s))
			continue;
		if (!worst || s.pass_pct > ws.pass_pct) {
			worst = &r->tests[i];
			ws = s;
		}
		n++;
	}
	if (!worst)
		return 0;
	if (n > 1)
		snprintf(more, sizeof(more), ", worst of %u tests", n);
	cdm_spec_name(&worst->spec, name, sizeof(name));
	snprintf(l, 600, "End fsync%s: %s %s %s", more, name, cdm_result_dir_name(worst->dir),
		 cdm_fmt_end_fsync(how, sizeof(how), &ws));
	return 1;
}

/*
 * The footer's line of --fsync's fdatasyncs (cdm_result_fsync_sum()): the
 * test whose calls took longest on average, as the text's note words it,
 * "Fsync: RND4K Q8T2 Write 869 calls, mean 2.5 ms, max 116.0 ms", as
 * "Fsync, slowest of 2 tests: ..." when there are more; 0 lines when none
 */
static unsigned int footer_fsync(const struct cdm_run_result *r, char *l)
{
	const struct cdm_test_result *worst = NULL;
	struct cdm_fsync_sum s, ws = { 0 };
	char name[64], how[CDM_FMT_FSYNC_MAX], more[64] = "";
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->ntests; i++) {
		if (!cdm_result_has_data(&r->tests[i]) ||
		    !cdm_result_fsync_sum(&r->tests[i], &r->info, &s))
			continue;
		if (!worst || s.mean_ns > ws.mean_ns) {
			worst = &r->tests[i];
			ws = s;
		}
		n++;
	}
	if (!worst)
		return 0;
	if (n > 1)
		snprintf(more, sizeof(more), ", slowest of %u tests", n);
	cdm_spec_name(&worst->spec, name, sizeof(name));
	snprintf(l, 600, "Fsync%s: %s %s %s", more, name, cdm_result_dir_name(worst->dir),
		 cdm_fmt_fsync(how, sizeof(how), &ws));
	return 1;
}

/*
 * the "Engine:" line's words of each setting that is set, in the table's
 * order (model/settings.h, @card: --sync, --fsync, --rate-iops,
 * --end-fsync), added to the *@m bytes of @l (600; cdm_text_add())
 */
static void engine_words(const struct cdm_run_info *in, char *l, size_t *m)
{
	unsigned int n;
	const struct cdm_setting *set = cdm_settings(&n);

	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_setting *s = &set[i];
		char v[CDM_SETTINGS_TEXT_MAX];

		if (!s->card.pre || !cdm_settings_info_on(s, in))
			continue;
		if (s->card.post)
			cdm_text_add(l, 600, m, "%s%s%s", s->card.pre,
				     cdm_settings_info_text(s, in, v, sizeof(v)), s->card.post);
		else
			cdm_text_add(l, 600, m, "%s", s->card.pre);
	}
}

/* the footer's lines into @l (each 600 bytes); returns how many */
static unsigned int footer_lines(const struct cdm_run_result *r, char (*l)[600])
{
	const struct cdm_run_info *in = &r->info;
	char mem[32];
	unsigned int n = footer_common(r, l);
	size_t m = 0;

	if (cdm_result_imported(in)) {
		n += footer_source(r, l + n);
		goto comment;
	}
	cdm_text_add(l[n], 600, &m, "CPU: %s", in->cpu_model[0] ? in->cpu_model : "unknown");
	if (in->cpus_online)
		cdm_text_add(l[n], 600, &m, " (%u online%s", in->cpus_online,
			     in->cpus_allowed && in->cpus_allowed != in->cpus_online ? "" : ")");
	if (in->cpus_online && in->cpus_allowed && in->cpus_allowed != in->cpus_online)
		cdm_text_add(l[n], 600, &m, ", %u allowed)", in->cpus_allowed);
	cdm_text_add(l[n], 600, &m, SEP "Memory: %s", in->mem_total_bytes ?
		     cdm_fmt_bytes_approx(mem, sizeof(mem), in->mem_total_bytes) : "unknown");
	n++;
	snprintf(l[n++], 600, "Device: %s%s%s%s%s%s%s%s", in->dev_name[0] ? in->dev_name : "unknown",
		 in->dev_name[0] ? ", " : "", in->dev_model[0] ? in->dev_model : in->dev_name[0] ? "model unknown" : "",
		 /* what the driver says (queue/rotational), not a fact about the medium */
		 in->dev_rotational == CDM_ROT_YES ? ", reported rotational by the kernel" :
		 in->dev_rotational == CDM_ROT_NO ? ", reported non-rotational by the kernel" : "",
		 in->fs_type[0] ? SEP "Filesystem: " : "", in->fs_type,
		 in->fs_source[0] ? " on " : "", in->fs_source);
	m = 0;
	cdm_text_add(l[n], 600, &m, "Engine: %s, %s, %s data", in->engine,
		     in->direct ? "O_DIRECT" : "buffered (page cache)",
		     in->zero_fill ? "zero" : "random");
	/* a kept or reused test file (cdm_fmt_test_file()'s words) */
	if (in->test_file == CDM_TEST_FILE_KEPT || in->test_file == CDM_TEST_FILE_REUSED)
		cdm_text_add(l[n], 600, &m, ", test file %s", in->test_file == CDM_TEST_FILE_KEPT ?
			     "kept (--keep)" : "reused (--file)");
	engine_words(in, l[n], &m);
	cdm_text_add(l[n], 600, &m, SEP "Figures: %s",
		     r->aggregate == CDM_AGG_MEDIAN ? "the median of the passes" :
		     r->aggregate == CDM_AGG_MEAN ? "the mean of the passes" :
		     "the best pass (latency: the lowest)");
	n++;
	n += footer_hold(r, l[n]);
comment:
	n += footer_end_fsync(r, l[n]);
	n += footer_fsync(r, l[n]);
	if (in->comment[0] && strncmp(in->comment, in->label, sizeof(in->label)))
		snprintf(l[n++], 600, "Comment: %s", in->comment);
	return n;
}

static int card_write(FILE *out, const struct cdm_run_result *r)
{
	char lines[FOOT_LINES][600];
	struct card k;
	unsigned int nl, nn, nf;
	double y;
	int h;

	if (layout(&k, r) < 0)
		return -ENOMEM;
	k.split = figure_lines(&k);
	head_style(&k);
	nl = footer_lines(r, lines);
	nf = footer(NULL, lines, nl, 0);
	nn = notes(NULL, &k, 0);
	y = ROWS_Y + (double)k.nrow * (ROW_H + GAP) + (k.nrow ? 0 : 30);
	h = (int)(y + (nn ? nn * LINE_H + 8 : 0) + nf * LINE_H + 14 + 18);
	cdm_svg_head(out, W, h);
	defs(out);
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"#fbfbfb\" stroke=\"#8c8c8c\"/>\n",
		WIN_X, WIN_X, W - 2 * WIN_X, h - 2 * WIN_X);
	head(out, &k);
	for (unsigned int i = 0; i < k.nrow; i++) {
		double ry = ROWS_Y + i * (ROW_H + GAP);

		label_box(out, &r->tests[k.rows[i]], ry);
		for (unsigned int c = 0; c < k.ncol; c++)
			cell(out, &k, i, c, ry);
	}
	if (!k.nrow)
		cdm_svg_text(out, W / 2.0, ROWS_Y + 18, "middle", 14, NULL, "(no test in this result)");
	if (nn) {
		notes(out, &k, y + 12);
		y += nn * LINE_H + 8;
	}
	box(out, IN_X, y, IN_R - IN_X, nf * LINE_H + 14, "#eeeeee", "#b0b0b0");
	footer(out, lines, nl, y + 19);
	fputs("</svg>\n", out);
	free(k.rows);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_report_svg_card = {
	.name = "svg",
	.title = "SVG",
	.ext = "svg",
	.write = card_write,
};
