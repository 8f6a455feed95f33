/* SPDX-License-Identifier: MIT */
/*
 * sweep_table.c - the renderings of a sweep's curves (model/sweep.c) that
 * cdm only writes: the table in text or Markdown, the SVG chart
 * (include/cdm/report/sweep_table.h); its JSON, which cdm reads back, is
 * format/sweep_json.c.  cli/sweep_cli.c plans and runs the sweep.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/text.h"
#include "cdm/format/findings.h"
#include "cdm/format/sweep_json.h"
#include "cdm/report/plot.h"
#include "cdm/report/report.h"
#include "cdm/report/sweep_table.h"
#include "cdm/format/fmt.h"

static unsigned int xval(const struct cdm_sweep *sw, const struct cdm_sweep_point *p)
{
	return sw->vary == CDM_SWEEP_QD ? p->qd : p->threads;
}

/* "4 threads", "1 thread", "queue depth 8": a load of @v as a phrase */
static void at_load(char *buf, size_t len, const struct cdm_sweep *sw, unsigned int v)
{
	if (sw->vary == CDM_SWEEP_QD)
		snprintf(buf, len, "queue depth %u", v);
	else
		snprintf(buf, len, "%u thread%s", v, v == 1 ? "" : "s");
}

/* the points of @cv with figures (the knee and ceiling are of these only) */
static unsigned int measured_points(const struct cdm_sweep_curve *cv)
{
	unsigned int n = 0;

	for (unsigned int k = 0; k < cv->npts; k++)
		n += cv->pts[k].ok != 0;
	return n;
}

/* the table's first line: what ran, where, for how long per point */
static void table_head(FILE *out, const struct cdm_sweep *sw, int md)
{
	const struct cdm_run_info *in = &sw->res->info;
	char t[CDM_FMT_SETTING_MAX];

	cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " s");
	fprintf(out, "%s%s on %s (%s), %s engine, %" PRIu64
		" MiB test file, %u x %s per point%s\n", md ? "## cdm sweep\n\n" : "cdm sweep: ",
		in->label[0] ? in->label : in->target, in->fs_type[0] ? in->fs_type : "?",
		in->dev_name[0] ? in->dev_name : "?", in->engine, in->size >> 20,
		in->count, t, in->direct ? "" : ", buffered");
}

/* point @k of curve @cv: one row, its figures or why it has none */
static void table_point(FILE *out, const struct cdm_sweep_curve *cv, unsigned int k, int md)
{
	const struct cdm_sweep_point *p = &cv->pts[k];
	char p99[CDM_FMT_FIG_MAX] = "-", mb[CDM_FMT_FIG_MAX], iops[CDM_FMT_FIG_MAX];
	char lat[CDM_FMT_FIG_MAX];

	if (!p->ok) {
		fprintf(out, md ? "| %u | %u | | | | | %s |\n" :
			"  %7u %5u  (%s)\n", p->threads, p->qd, cdm_sweep_point_why(p));
		return;
	}
	/* each figure by the one rule (cdm_fmt_fig()): "-" when there is none */
	if (p->has_p99)
		cdm_fmt_fig(p99, sizeof(p99), 2, p->p99_us, "", "-");
	cdm_fmt_fig(mb, sizeof(mb), 3, p->mb_s, "", "-");
	cdm_fmt_fig(iops, sizeof(iops), 1, p->iops, "", "-");
	cdm_fmt_fig(lat, sizeof(lat), 2, p->lat_us, "", "-");
	if (md)
		fprintf(out, "| %u | %u | %s | %s | %s | %s | %s |\n", p->threads,
			p->qd, mb, iops, lat, p99,
			(int)k == cv->knee ? "**knee**" : "");
	else
		fprintf(out, "  %7u %5u %12s %13s %11s %11s%s\n", p->threads, p->qd,
			mb, iops, lat, p99,
			(int)k == cv->knee ? "  <- knee" : "");
}

/* under curve @cv's rows: its knee or why it has none, its flat ceiling */
static void table_findings(FILE *out, const struct cdm_sweep *sw,
			   const struct cdm_sweep_curve *cv, int md)
{
	char at[48], lv[CDM_FINDINGS_LEVEL_MAX];

	if (cv->knee >= 0) {
		const struct cdm_sweep_point *p = &cv->pts[cv->knee];

		at_load(at, sizeof(at), sw, xval(sw, p));
		fprintf(out, "%s%s %s: knee at %s (%.1f IOPS, %.2f us): more load raised IOPS by less than 10 %% while latency kept rising\n",
			md ? "\n" : "  ", cv->test, cdm_result_dir_name(cv->dir), at,
			p->iops, p->lat_us);
	} else if (measured_points(cv) < 2) {
		/* a knee needs two points with figures: not "IOPS still grew" */
		fprintf(out, "%s%s %s: no knee: %u of its %u points measured something, and a knee needs 2\n",
			md ? "\n" : "  ", cv->test, cdm_result_dir_name(cv->dir),
			measured_points(cv), cv->npts);
	} else {
		fprintf(out, "%s%s %s: no knee: IOPS still grew by 10 %% or more, or latency did not rise\n",
			md ? "\n" : "  ", cv->test, cdm_result_dir_name(cv->dir));
	}
	if (cv->ceiling.found) {
		at_load(at, sizeof(at), sw, xval(sw, &cv->pts[cv->ceiling.from]));
		fprintf(out, "%s%s %s: flat ceiling at %s from %s on (latency x%.1f)\n",
			md ? "\n" : "  ", cv->test, cdm_result_dir_name(cv->dir),
			cdm_findings_level(lv, sizeof(lv), cv->block, cv->ceiling.iops,
					   cv->ceiling.mb_s),
			at, cv->ceiling.lat_ratio);
	}
}

int cdm_sweep_table_table(FILE *out, const struct cdm_sweep *sw, int md)
{
	table_head(out, sw, md);
	for (unsigned int c = 0; c < sw->ncurves; c++) {
		const struct cdm_sweep_curve *cv = &sw->curves[c];

		if (md)
			fprintf(out, "\n### %s %s\n\n| Threads | QD | MB/s | IOPS | mean (us) | p99 (us) | |\n"
				"|---:|---:|---:|---:|---:|---:|:---|\n", cv->test, cdm_result_dir_name(cv->dir));
		else
			fprintf(out, "\n%s %s\n  Threads    QD         MB/s          IOPS     mean us      p99 us\n",
				cv->test, cdm_result_dir_name(cv->dir));
		for (unsigned int k = 0; k < cv->npts; k++)
			table_point(out, cv, k, md);
		table_findings(out, sw, cv, md);
	}
	return ferror(out) ? -EIO : 0;
}

/* the chart's series: per curve x, the first panel's y, mean and p99 latency */
static double xs[CDM_SWEEP_MAX_CURVES][CDM_SWEEP_MAX_VALUES];
static double ys[CDM_SWEEP_MAX_CURVES][CDM_SWEEP_MAX_VALUES];
static double lm[CDM_SWEEP_MAX_CURVES][CDM_SWEEP_MAX_VALUES];
static double lq[CDM_SWEEP_MAX_CURVES][CDM_SWEEP_MAX_VALUES];
static char names[CDM_SWEEP_MAX_CURVES][96];

/*
 * Curve @c's measured points into the series above and its lines: @thr
 * (the first panel), @mean and @p99 (a latency panel each, so that the
 * p99, often ten times the mean, does not press the mean to the floor).
 * Returns its knee's index among the measured points, or -1.
 */
static int svg_curve(const struct cdm_sweep *sw, unsigned int c, struct cdm_plot_line *thr,
		     struct cdm_plot_line *mean, struct cdm_plot_line *p99)
{
	const struct cdm_sweep_curve *cv = &sw->curves[c];
	unsigned int n = 0;
	int knee = -1;

	for (unsigned int k = 0; k < cv->npts; k++) {
		const struct cdm_sweep_point *pt = &cv->pts[k];

		if (!pt->ok)
			continue;
		if ((int)k == cv->knee)
			knee = (int)n;
		xs[c][n] = xval(sw, pt);
		ys[c][n] = sw->plot_mb_s ? pt->mb_s : pt->iops;
		lm[c][n] = pt->lat_us;
		lq[c][n] = pt->has_p99 ? pt->p99_us : 0.0 / 0.0;
		n++;
	}
	/* a curve without a knee says so in the legend; the notes say why */
	snprintf(names[c], sizeof(names[c]), "%s %s%s", cv->test,
		 cdm_result_dir_name(cv->dir), knee >= 0 ? "" : ": no knee");
	*thr = (struct cdm_plot_line){ .name = names[c], .n = n, .x = xs[c],
				       .y = ys[c], .color = (int)c, .has_knee = knee >= 0,
				       .knee = knee >= 0 ? (unsigned int)knee : 0 };
	*mean = *thr;
	mean->y = lm[c];
	*p99 = *thr;
	p99->y = lq[c];
	p99->has_knee = 0;
	return knee;
}

/*
 * The latencies @v of the @n curves in ms once the largest passes 10 ms
 * (shorter tick labels), else in us: the panel's axis label.
 */
static const char *svg_lat_unit(double (*v)[CDM_SWEEP_MAX_VALUES], unsigned int n,
				const char *us, const char *ms)
{
	double vmax = 0;

	for (unsigned int c = 0; c < n; c++)
		for (unsigned int k = 0; k < CDM_SWEEP_MAX_VALUES; k++)
			if (v[c][k] > vmax)
				vmax = v[c][k];
	if (vmax <= 10000)
		return us;
	for (unsigned int c = 0; c < n; c++)
		for (unsigned int k = 0; k < CDM_SWEEP_MAX_VALUES; k++)
			v[c][k] /= 1000;
	return ms;
}

int cdm_sweep_table_svg(FILE *out, const struct cdm_sweep *sw)
{
	struct cdm_plot_line thr[CDM_SWEEP_MAX_CURVES], mean[CDM_SWEEP_MAX_CURVES],
			     p99[CDM_SWEEP_MAX_CURVES];
	struct cdm_plot_panel p[3];
	char sub[256], xl[96], t[CDM_FMT_SETTING_MAX];
	unsigned int nl = 0, flat = 0, few = 0;

	memset(lm, 0, sizeof(lm));
	memset(lq, 0, sizeof(lq));
	for (unsigned int c = 0; c < sw->ncurves; c++, nl++) {
		if (svg_curve(sw, c, &thr[nl], &mean[nl], &p99[nl]) >= 0)
			continue;
		if (measured_points(&sw->curves[c]) < 2)
			few++;
		else
			flat++;
	}
	snprintf(xl, sizeof(xl), "%s%s", sw->vary == CDM_SWEEP_QD ? "queue depth per thread (Q)" :
		 "threads (T)", sw->vary == (CDM_SWEEP_THREADS | CDM_SWEEP_QD) ? "; one line per Q" : "");
	p[0] = (struct cdm_plot_panel){
		.title = sw->plot_mb_s ? "Throughput (knee: more load adds < 10 % IOPS, latency rises)" :
			 "IOPS (knee: more load adds < 10 % IOPS, latency rises)",
		.xlabel = xl, .ylabel = sw->plot_mb_s ? "MB/s (10^6 bytes/s)" : "IOPS (I/Os per second)",
		.nlines = nl, .lines = thr, .x_categories = 1, .markers = 1,
	};
	/* why a curve has no knee, as the text report says it (the first panel) */
	if (flat) {
		p[0].note[0] = "no knee: each step still added";
		p[0].note[1] = "10 % IOPS or more, or latency";
		p[0].note[2] = "did not rise";
	}
	if (few)
		p[0].note[flat ? 3 : 0] = "no knee: < 2 points measured";
	/* the mean and the p99 each on an axis of its own */
	p[1] = p[0];
	memset(p[1].note, 0, sizeof(p[1].note));
	p[1].title = "Mean latency";
	p[1].ylabel = svg_lat_unit(lm, nl, "mean latency (us)", "mean latency (ms)");
	p[1].lines = mean;
	p[2] = p[1];
	p[2].title = "p99 latency (99 % of the I/Os completed within it)";
	p[2].ylabel = svg_lat_unit(lq, nl, "p99 latency (us)", "p99 latency (ms)");
	p[2].lines = p99;
	snprintf(sub, sizeof(sub), "%.100s on %.32s (%.64s), %.16s engine, %u x %s per point",
		 sw->res->info.label[0] ? sw->res->info.label : sw->res->info.target,
		 sw->res->info.fs_type, sw->res->info.dev_name[0] ? sw->res->info.dev_name : "?",
		 sw->res->info.engine, sw->res->info.count,
		 cdm_fmt_setting(t, sizeof(t), &sw->res->info, CDM_INFO_TIME, " s"));
	return cdm_plot_svg(out, "cdm sweep", sub, p, 3);
}

static int write_cdm(FILE *out, const struct cdm_sweep *sw)
{
	return cdm_sweep_table_table(out, sw, 0);
}

static int write_markdown(FILE *out, const struct cdm_sweep *sw)
{
	return cdm_sweep_table_table(out, sw, 1);
}

/* the formats of a sweep, one row each, in the order messages list them */
static const struct {
	const char *name;
	int kind;                       /* CDM_SWEEP_FORMAT_TABLE or _FILE */
	int (*write)(FILE *out, const struct cdm_sweep *sw);
} sweep_formats[] = {
	{ "cdm", CDM_SWEEP_FORMAT_TABLE, write_cdm },
	{ "markdown", CDM_SWEEP_FORMAT_TABLE, write_markdown },
	{ "json", CDM_SWEEP_FORMAT_FILE, cdm_sweep_json_write },
	{ "svg", CDM_SWEEP_FORMAT_FILE, cdm_sweep_table_svg },
};
#define NFORMATS (sizeof(sweep_formats) / sizeof(sweep_formats[0]))

int cdm_sweep_table_format(const char *fmt)
{
	for (unsigned int i = 0; i < NFORMATS; i++)
		if (!strcmp(fmt, sweep_formats[i].name))
			return sweep_formats[i].kind;
	return 0;
}

char *cdm_sweep_table_names(char *buf, size_t len, int kinds, const char *last)
{
	unsigned int n = 0, k = 0;
	size_t used = 0;

	for (unsigned int i = 0; i < NFORMATS; i++)
		n += (sweep_formats[i].kind & kinds) != 0;
	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; i < NFORMATS; i++) {
		if (!(sweep_formats[i].kind & kinds))
			continue;
		k++;
		cdm_text_add(buf, len, &used, "%s%s", k == 1 ? "" : k == n ? last : ", ",
			     sweep_formats[i].name);
	}
	return buf;
}

int cdm_sweep_table_write(FILE *out, const struct cdm_sweep *sw, const char *fmt)
{
	for (unsigned int i = 0; i < NFORMATS; i++)
		if (!strcmp(fmt, sweep_formats[i].name))
			return sweep_formats[i].write(out, sw);
	return -EINVAL;
}
