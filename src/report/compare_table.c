/* SPDX-License-Identifier: MIT */
/*
 * compare_table.c - `cdm compare`'s report (include/cdm/report/compare_table.h): a
 * comparison made by model/compare.c printed as CDM-like text rows with
 * one column per run, headed by its label, and the ratio to the first
 * run; or as a Markdown table with the runs listed under it.  Settings
 * that differ and interrupted runs are flagged at the top, so that a
 * ratio is never read without knowing what it compares; every cell
 * without a figure or a ratio is named under the rows with its reason.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/size.h"
#include "cdm/base/text.h"
#include "cdm/model/spec.h"
#include "cdm/report/compare_table.h"
#include "compare_svg.h"
#include "cdm/format/fmt.h"

#define LABEL_COL_MAX 24        /* a label wider than this (in characters) is cut, with "…" */

static int metric_prec(enum cdm_compare_metric m)
{
	return m == CDM_COMPARE_IOPS ? 1 : m == CDM_COMPARE_LAT ? 2 : 3;
}

static const char *metric_name(enum cdm_compare_metric m)
{
	return m == CDM_COMPARE_IOPS ? "IOPS" :
	       m == CDM_COMPARE_LAT ? "mean latency (us)" : "MB/s";
}

static const char *agg_word(enum cdm_aggregate a, enum cdm_compare_metric m)
{
	if (a == CDM_AGG_MEDIAN)
		return "median";
	if (a == CDM_AGG_MEAN)
		return "mean";
	return m == CDM_COMPARE_LAT ? "lowest" : "highest";
}

/*
 * @v with @prec decimals and @suffix ("x" for a ratio), except that a
 * figure above 0 that would print as 0 ("0.000", "0.00x": 512 B in 3 s, a
 * ratio of 0.0008) prints as "<0.001", "<0.01x": something was measured,
 * and a 0 reads as nothing (docs/output-formats.md, "cdm compare").
 */
static void fig_text(char *buf, size_t len, int prec, const char *suffix, double v)
{
	double unit = 1.0;

	for (int i = 0; i < prec; i++)
		unit /= 10.0;
	if (v > 0 && v < unit / 2)
		snprintf(buf, len, "<%.*f%s", prec, unit, suffix);
	else    /* a cell without a figure has its words (cell_text()); never "nan" */
		cdm_fmt_fig(buf, len, prec, v, suffix, "-");
}

/* the cell of run @k in row @row: value text and ratio text ("" when none) */
static void cell_text(const struct cdm_compare *c, unsigned int row, unsigned int k,
		      char *val, size_t vlen, char *ratio, size_t rlen)
{
	struct cdm_compare_cell cell;

	cdm_compare_cell(c, row, k, &cell);
	ratio[0] = '\0';
	if (cell.state == CDM_COMPARE_MISSING) {
		snprintf(val, vlen, "missing");
		return;
	}
	if (cell.state == CDM_COMPARE_NOT_MEASURED) {
		snprintf(val, vlen, "not measured");
		return;
	}
	if (cell.state == CDM_COMPARE_NOTHING) {
		/* passes ran, nothing completed: no figure, never a 0 */
		snprintf(val, vlen, "%s", cdm_result_state(cell.test) == CDM_PASS_NO_TIME ?
			 "no time" : "no I/O");
		return;
	}
	if (cell.state == CDM_COMPARE_NO_PARTS) {
		snprintf(val, vlen, "no parts");
		return;
	}
	if (cell.state == CDM_COMPARE_BEST_ONLY || cell.state == CDM_COMPARE_NOT_REPORTED) {
		/* a CrystalDiskMark report's: no figure, never a 0 */
		snprintf(val, vlen, "%s", cell.state == CDM_COMPARE_BEST_ONLY ? "best only" :
			 "not in report");
		return;
	}
	fig_text(val, vlen, metric_prec(c->metric), "", cell.value);
	if (cell.has_ratio)
		fig_text(ratio, rlen, 2, "x", cell.ratio);
}

/* the value of setting @s for @run, for the warning's detail */
static void setting_text(const struct cdm_run_result *run, const struct cdm_setting *s,
			 char *buf, size_t len)
{
	const struct cdm_run_info *in = &run->info;
	uint64_t v = cdm_settings_info_u64(s, in);

	if (s == &cdm_compare_tests) {
		snprintf(buf, len, "%u tests", run->ntests);
		return;
	}
	if (!cdm_compare_known(run, s)) {
		snprintf(buf, len, "unknown");
		return;
	}
	switch (s->type) {
	case CDM_SETTING_BOOL:
	case CDM_SETTING_DATA:
		snprintf(buf, len, "%s", v ? s->compare.on : s->compare.off);
		break;
	case CDM_SETTING_STEADY:
		/* another method: rounds until steady, the figures over the last window */
		if (v)
			snprintf(buf, len, "steady state (at most %u rounds)", in->max_rounds);
		else
			snprintf(buf, len, "fixed passes, no steady state");
		break;
	case CDM_SETTING_PRECOND:
		snprintf(buf, len, "%s", !v ? "not preconditioned" :
			 in->precondition_ns ? "preconditioned" : "preconditioning did not complete");
		break;
	default: {
		/* as every report prints it (@on before it: "x5" for the count) */
		char t[CDM_FMT_SETTING_MAX];

		snprintf(buf, len, "%s%s", s->compare.on ? s->compare.on : "",
			 cdm_fmt_setting(t, sizeof(t), in, s->item,
					 s->type == CDM_SETTING_MSEC ? " s" : ""));
		break;
	}
	}
}

/* @label as Markdown, or as it is */
static void put_label(FILE *out, const struct cdm_run_info *in, int markdown)
{
	if (markdown)
		cdm_fmt_md_text(out, in->label, sizeof(in->label));
	else
		fputs(in->label, out);
}

static void write_warnings(FILE *out, const struct cdm_compare *c, int md)
{
	const struct cdm_setting *s;
	char val[64];
	unsigned int k;

	if (cdm_compare_mismatch(c, NULL, 0)) {
		fputs(md ? "> **Warning:** the runs were measured with different settings; their figures may not be comparable:\n"
			 : "Warning: the runs were measured with different settings; their figures may not be comparable:\n", out);
		for (s = cdm_compare_next(NULL); s; s = cdm_compare_next(s)) {
			if (!cdm_compare_differs(c, s))
				continue;
			fprintf(out, md ? "> - %s:" : "  %s:", s->compare.name);
			for (k = 0; k < c->n; k++) {
				setting_text(c->runs[k], s, val, sizeof(val));
				if (s == &cdm_compare_tests && k)
					snprintf(val + strlen(val), sizeof(val) - strlen(val),
						 " (%u in common)", cdm_compare_common(c, k));
				fputs(k ? ", " : " ", out);
				put_label(out, &c->runs[k]->info, md);
				fprintf(out, " %s", val);
			}
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	for (k = 0; k < c->n; k++) {
		if (!c->runs[k]->interrupted)
			continue;
		fputs(md ? "> **Warning:** " : "Warning: ", out);
		put_label(out, &c->runs[k]->info, md);
		fputs(" was interrupted: some of its tests are incomplete or missing.\n\n", out);
	}
}

/*
 * The marker beside the cells of run @k when memory is under its target
 * (target/stack.h): "*" for it, " " for the other runs when any has one
 * (so that the columns stay aligned), "" when none has.
 */
static const char *mem_mark(const struct cdm_compare *c, unsigned int k)
{
	unsigned int any = 0;

	for (unsigned int i = 0; i < c->n; i++)
		any += c->runs[i]->info.nmem_under;
	if (!any)
		return "";
	return c->runs[k]->info.nmem_under ? "*" : " ";
}

/* what the marker means: one line per finding of each run that has one */
static void write_memory_under(FILE *out, const struct cdm_compare *c, int md)
{
	unsigned int k, i, lines = 0;

	for (k = 0; k < c->n; k++) {
		const struct cdm_run_info *in = &c->runs[k]->info;

		for (i = 0; i < in->nmem_under && i < CDM_MEM_UNDER_MAX; i++) {
			const struct cdm_mem_under *f = &in->mem_under[i];

			fputs(md ? "> \\* " : "* ", out);
			put_label(out, in, md);
			fputs(": memory under its target: ", out);
			if (md) {
				cdm_fmt_md_text(out, f->why, sizeof(f->why));
				fputs(" (stack: ", out);
				cdm_fmt_md_text(out, f->stack, sizeof(f->stack));
				fputs(")\n", out);
			} else {
				fprintf(out, "%s [stack: %s]\n", f->why, f->stack);
			}
			lines++;
		}
	}
	if (lines)
		fputc('\n', out);
}

/* @line without trailing blanks, and a newline */
static void put_trimmed(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

/* is @in cdm's own text report read back (not CrystalDiskMark's)? */
static int cdm_text(const struct cdm_run_info *in)
{
	return in->source.kind == CDM_SOURCE_CDM_TEXT;
}

/* what an imported run is, for the notes under the rows */
static const char *report_kind(const struct cdm_run_info *in)
{
	return cdm_text(in) ? "cdm's text report" : "a CrystalDiskMark report";
}

/*
 * An imported CrystalDiskMark report among the runs (@md: in the Markdown
 * list): its label, its Date as printed (its zone is unknown), its volume,
 * the CDM version, and the settings its footer states.
 */
static void write_source_run(FILE *out, unsigned int k, const struct cdm_run_result *run, int md)
{
	const struct cdm_run_info *in = &run->info;
	const struct cdm_run_source *src = &in->source;
	char size[32] = "size unknown", start[64], product[128], t[CDM_FMT_SETTING_MAX];
	const char *sep = md ? ", " : "  ";

	/* what the report does not state is left out (cdm_result_known()) */
	if (cdm_result_known(in, CDM_INFO_SIZE))
		cdm_size_format(in->size, size, sizeof(size));
	if (md) {
		fputs(k ? "; " : " ", out);
		put_label(out, in, 1);
		fputs(" = ", out);
	} else {
		fprintf(out, "  %u: %s  ", k + 1, in->label);
	}
	if (cdm_fmt_start(start, sizeof(start), in)[0])
		fprintf(out, "%s%s", start, sep);
	if (cdm_result_known(in, CDM_INFO_VOLUME) && md)
		cdm_fmt_md_text(out, src->volume, sizeof(src->volume));
	else if (cdm_result_known(in, CDM_INFO_VOLUME))
		fputs(src->volume, out);
	fprintf(out, "%s%s report, %s", cdm_result_known(in, CDM_INFO_VOLUME) ? sep : "",
		cdm_fmt_source(product, sizeof(product), in), size);
	if (cdm_result_known(in, CDM_INFO_COUNT))
		fprintf(out, " (x%u)", in->count);
	if (cdm_result_known(in, CDM_INFO_TIME))
		fprintf(out, ", %s", cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " s"));
	if (!md)
		fputc('\n', out);
}

/* the runs, one a line: label, start, target, settings */
static void write_text_runs(FILE *out, const struct cdm_compare *c)
{
	char size[32], utc[32], t[CDM_FMT_SETTING_MAX];

	for (unsigned int k = 0; k < c->n; k++) {
		const struct cdm_run_info *in = &c->runs[k]->info;

		if (cdm_result_imported(in)) {
			write_source_run(out, k, c->runs[k], 0);
			continue;
		}
		cdm_size_format(in->size, size, sizeof(size));
		cdm_fmt_utc(utc, sizeof(utc), (long long)in->start);
		fprintf(out, "  %u: %s  %s%s%s%s%s%s  %s, %s, %s (x%u), %s%s\n", k + 1,
			in->label, utc, utc[0] ? "  " : "", in->target,
			in->fs_type[0] ? " (" : "", in->fs_type, in->fs_type[0] ? ")" : "",
			in->engine, in->direct ? "O_DIRECT" : "buffered", size, in->count,
			cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " s"),
			c->runs[k]->interrupted ? "  (interrupted)" : "");
	}
	fputc('\n', out);
}

/* " (reads)", " (writes)" or "": which part of a Mix test a row is */
static const char *part_suffix(enum cdm_part part)
{
	return part == CDM_PART_READS ? " (reads)" : part == CDM_PART_WRITES ? " (writes)" : "";
}

/* "[Read]", "[Write]", "[Mix] Read 70%/Write 30%": the section of @t, as CDM heads it */
static void section_head(char *buf, size_t len, const struct cdm_test_result *t)
{
	if (t->dir == CDM_DIR_MIX)
		snprintf(buf, len, "[Mix] Read %u%%/Write %u%%", 100 - t->spec.write_pct,
			 t->spec.write_pct);
	else
		snprintf(buf, len, "%s", t->dir == CDM_DIR_WRITE ? "[Write]" : "[Read]");
}

/* is row @i the first of its section (direction, and a Mix test's ratio)? */
static int first_of_section(const struct cdm_compare *c, unsigned int i)
{
	const struct cdm_test_result *t = c->rows[i].key;

	for (unsigned int j = 0; j < i; j++) {
		const struct cdm_test_result *u = c->rows[j].key;

		if (u->dir == t->dir && (t->dir != CDM_DIR_MIX || u->spec.write_pct == t->spec.write_pct))
			return 0;
	}
	return 1;
}

/* is row @j in the section of row @i? */
static int same_section(const struct cdm_compare *c, unsigned int i, unsigned int j)
{
	const struct cdm_test_result *t = c->rows[i].key, *u = c->rows[j].key;

	return u->dir == t->dir && (t->dir != CDM_DIR_MIX || u->spec.write_pct == t->spec.write_pct);
}

/* the rows of the section that row @first opens, under their head */
static void write_text_rows(FILE *out, const struct cdm_compare *c, unsigned int first,
			    const int *w)
{
	char val[48], ratio[24], label[LABEL_COL_MAX * 4 + 4], head[48];
	char line[CDM_COMPARE_MAX_RUNS * (LABEL_COL_MAX * 4 + 16) + 64];
	unsigned int k, i;
	size_t used;

	/*
	 * the head padded to the width of a row's label ("  SEQ    1MiB (Q=  8, T= 1):",
	 * 28 characters), so that each label ends over its column; each run after
	 * the first has its ratio to the first in a column of its own, headed
	 * "ratio" (right-aligned over " %5s" as the rows print it)
	 */
	section_head(head, sizeof(head), c->rows[first].key);
	used = 0;
	cdm_text_add(line, sizeof(line), &used, "%-28s", head);
	for (k = 0; k < c->n; k++) {
		/* a label wider than its column cut with an ellipsis, padded by what it shows */
		unsigned int shown = cdm_fmt_cut(label, sizeof(label), c->runs[k]->info.label,
						  LABEL_COL_MAX);

		cdm_text_add(line, sizeof(line), &used, "%s%*s%s%s%s",
			     k ? "  " : " ", w[k] > (int)shown ? w[k] - (int)shown : 0, "",
			     label, k ? " ratio" : "", mem_mark(c, k)[0] ? " " : "");
	}
	put_trimmed(out, line);
	for (i = first; i < c->nrows; i++) {
		const struct cdm_test_result *t = c->rows[i].key;
		/* the label as CDM's rows have it, from the test's shape alone */
		struct cdm_spec sp = { .block = t->spec.block, .qd = t->spec.qd,
				       .threads = t->spec.threads, .pattern = t->spec.pattern };

		if (!same_section(c, first, i))
			continue;
		cdm_spec_label(&sp, label, sizeof(label));
		used = 0;
		if (c->rows[i].part == CDM_PART_ALL)
			cdm_text_add(line, sizeof(line), &used, "  %s (Q=%3u, T=%2u):", label,
				     t->spec.qd, t->spec.threads);
		else    /* a Mix test's part, under its row, ending where its label ends */
			cdm_text_add(line, sizeof(line), &used, "%27s:",
				     c->rows[i].part == CDM_PART_READS ? "reads" : "writes");
		for (k = 0; k < c->n; k++) {
			cell_text(c, i, k, val, sizeof(val), ratio, sizeof(ratio));
			cdm_text_add(line, sizeof(line), &used, "%s%*s", k ? "  " : " ", w[k], val);
			if (k)
				cdm_text_add(line, sizeof(line), &used, " %5s", ratio);
			cdm_text_add(line, sizeof(line), &used, "%s", mem_mark(c, k));
		}
		put_trimmed(out, line);
	}
	fputc('\n', out);
}

/* "B has no such test", "B measured nothing: <why>": cell @k of row @i */
static void why_text(const struct cdm_compare *c, unsigned int i, unsigned int k,
		     const struct cdm_compare_cell *cell, char *buf, size_t len)
{
	char why[256];

	switch (cell->state) {
	case CDM_COMPARE_MISSING:
		snprintf(buf, len, "%s has no such test", c->runs[k]->info.label);
		break;
	case CDM_COMPARE_NOT_MEASURED:
		snprintf(buf, len, "%s completed no pass of it", c->runs[k]->info.label);
		break;
	case CDM_COMPARE_NOTHING:
		if (c->rows[i].part != CDM_PART_ALL && cdm_result_state(cell->test) == CDM_PASS_MEASURED)
			snprintf(buf, len, "%s measured no %s", c->runs[k]->info.label,
				 c->rows[i].part == CDM_PART_READS ? "read" : "write");
		else
			snprintf(buf, len, "%s measured nothing: %s", c->runs[k]->info.label,
				 cdm_result_why(cell->test, why, sizeof(why)));
		break;
	case CDM_COMPARE_NO_PARTS:
		if (cell->test && cell->test->reported.has)
			snprintf(buf, len, "%s is %s: %s a Mix test's total only",
				 c->runs[k]->info.label, report_kind(&c->runs[k]->info),
				 cdm_text(&c->runs[k]->info) ? "its CDM layout prints" : "CDM prints");
		else
			snprintf(buf, len, "%s was saved without a Mix test's read and write parts (a cdm before they existed)",
				 c->runs[k]->info.label);
		break;
	case CDM_COMPARE_BEST_ONLY:
		snprintf(buf, len, "%s is %s: it has only its best-of figures, no passes for a %s",
			 c->runs[k]->info.label, report_kind(&c->runs[k]->info),
			 agg_word(c->aggregate, c->metric));
		break;
	case CDM_COMPARE_NOT_REPORTED:
		if (c->runs[k]->info.source.kind == CDM_SOURCE_CDM_TEXT) {
			char src[128];

			/* cdm's own text in CDM 6's layout prints no latency either */
			snprintf(buf, len, "%s is a %s report in CDM %u's layout, which prints no %s",
				 c->runs[k]->info.label, cdm_fmt_source(src, sizeof(src), &c->runs[k]->info),
				 c->runs[k]->info.source.layout, metric_name(c->metric));
			break;
		}
		snprintf(buf, len, "%s is a CrystalDiskMark %s report, which prints no %s",
			 c->runs[k]->info.label, c->runs[k]->info.source.version[0] ?
			 c->runs[k]->info.source.version : "", metric_name(c->metric));
		break;
	default:
		buf[0] = '\0';
		break;
	}
}

/*
 * Under the rows: per row, every run without a figure and why, and that
 * the row has no ratios when the first run is one of them ("no ratio
 * against nothing").  @md: as a Markdown list.
 */
static void write_skipped(FILE *out, const struct cdm_compare *c, int md)
{
	char name[64], why[400], line[2048];
	int any = 0;

	for (unsigned int i = 0; i < c->nrows; i++) {
		size_t used = 0;
		int base = 0;

		line[0] = '\0';
		for (unsigned int k = 0; k < c->n && used < sizeof(line); k++) {
			struct cdm_compare_cell cell;

			cdm_compare_cell(c, i, k, &cell);
			if (cell.state == CDM_COMPARE_MEASURED)
				continue;
			/* a part's cell whose whole test has no figure: named on its row */
			if (c->rows[i].part != CDM_PART_ALL &&
			    (!cell.test || cdm_result_state(cell.test) != CDM_PASS_MEASURED))
				continue;
			why_text(c, i, k, &cell, why, sizeof(why));
			cdm_text_add(line, sizeof(line), &used, "%s%s", used ? "; " : "", why);
			base |= k == 0;
		}
		if (!line[0])
			continue;
		if (base && c->n > 1 && used < sizeof(line))
			snprintf(line + used, sizeof(line) - used, "; no ratios to %s",
				 c->runs[0]->info.label);
		if (!any)
			fputs(md ? "\nNot compared:\n\n" : "Not compared:\n", out);
		any = 1;
		cdm_spec_name(&c->rows[i].key->spec, name, sizeof(name));
		fprintf(out, md ? "- %s %s%s: " : "  %s %s%s: ", name,
			cdm_result_dir_name(c->rows[i].key->dir), part_suffix(c->rows[i].part));
		if (md)
			cdm_fmt_md_text(out, line, sizeof(line));
		else
			fputs(line, out);
		fputc('\n', out);
	}
}

static void write_text(FILE *out, const struct cdm_compare *c)
{
	char label[LABEL_COL_MAX * 4 + 4];
	int w[CDM_COMPARE_MAX_RUNS];

	fputs("------------------------------------------------------------------------------\n", out);
	cdm_fmt_cut(label, sizeof(label), c->runs[0]->info.label, LABEL_COL_MAX);
	fprintf(out, "cdm compare: %s, the %s of the passes; ratio to %s\n",
		metric_name(c->metric), agg_word(c->aggregate, c->metric), label);
	fputs("------------------------------------------------------------------------------\n", out);
	write_text_runs(out, c);
	write_warnings(out, c, 0);
	write_memory_under(out, c, 0);
	for (unsigned int k = 0; k < c->n; k++) {
		/* a column as wide as its label shows (cut to LABEL_COL_MAX characters) */
		int lw = (int)cdm_fmt_cut(label, sizeof(label), c->runs[k]->info.label, LABEL_COL_MAX);

		w[k] = lw;
		if (w[k] < 12)
			w[k] = 12;
	}
	for (unsigned int i = 0; i < c->nrows; i++)
		if (first_of_section(c, i))
			write_text_rows(out, c, i, w);
	/* "no tests" only when no run has any; else what was left out, and why */
	if (!c->nrows)
		fputs("(no tests in these results)\n", out);
	else
		write_skipped(out, c, 0);
}

/* "| Test | A | B | B / A |" and the alignment row under it */
static void write_md_head(FILE *out, const struct cdm_compare *c)
{
	const struct cdm_run_info *in0 = &c->runs[0]->info;
	unsigned int k;

	fputs("| Test |", out);
	for (k = 0; k < c->n; k++) {
		fputc(' ', out);
		put_label(out, &c->runs[k]->info, 1);
		fputs(" |", out);
		if (k) {
			fputc(' ', out);
			put_label(out, &c->runs[k]->info, 1);
			fputs(" / ", out);
			put_label(out, in0, 1);
			fputs(" |", out);
		}
	}
	fputs("\n|:-----|", out);
	for (k = 0; k < c->n; k++)
		fputs(k ? "-----:|-----:|" : "-----:|", out);
	fputc('\n', out);
}

/* "Runs: A = /mnt/a, io_uring, O\_DIRECT, 1 GiB x5, 5 s, <start>; ..." */
static void write_md_runs(FILE *out, const struct cdm_compare *c)
{
	char size[32], utc[32], t[CDM_FMT_SETTING_MAX];

	fputs("\nRuns:", out);
	for (unsigned int k = 0; k < c->n; k++) {
		const struct cdm_run_info *in = &c->runs[k]->info;

		if (cdm_result_imported(in)) {
			write_source_run(out, k, c->runs[k], 1);
			continue;
		}

		cdm_size_format(in->size, size, sizeof(size));
		cdm_fmt_utc(utc, sizeof(utc), (long long)in->start);
		fputs(k ? "; " : " ", out);
		put_label(out, in, 1);
		fputs(" = ", out);
		cdm_fmt_md_text(out, in->target, sizeof(in->target));
		fprintf(out, ", %s, %s, %s x%u, %s", in->engine,
			in->direct ? "O\\_DIRECT" : "buffered", size, in->count,
			cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " s"));
		if (utc[0])
			fprintf(out, ", %s", utc);
	}
	fputs(".\n", out);
}

static void write_markdown(FILE *out, const struct cdm_compare *c)
{
	char val[48], ratio[24], name[64];
	unsigned int k, i;

	fprintf(out, "**cdm compare**: %s, the %s of the passes; ratio to ",
		metric_name(c->metric), agg_word(c->aggregate, c->metric));
	put_label(out, &c->runs[0]->info, 1);
	fputs(".\n\n", out);
	write_warnings(out, c, 1);
	write_memory_under(out, c, 1);
	write_md_head(out, c);
	for (i = 0; i < c->nrows; i++) {
		const struct cdm_test_result *t = c->rows[i].key;

		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "| %s %s%s |", name, cdm_result_dir_name(t->dir),
			part_suffix(c->rows[i].part));
		for (k = 0; k < c->n; k++) {
			cell_text(c, i, k, val, sizeof(val), ratio, sizeof(ratio));
			fprintf(out, " %s%s |", val, !k && mem_mark(c, k)[0] == '*' ? " \\*" : "");
			if (k)
				fprintf(out, " %s%s |", ratio[0] ? ratio : "\xe2\x80\x93",
					mem_mark(c, k)[0] == '*' ? " \\*" : "");
		}
		fputc('\n', out);
	}
	if (!c->nrows) {
		fputs("| (no tests) |", out);
		for (k = 0; k < c->n; k++)
			fputs(k ? " | |" : " |", out);
		fputc('\n', out);
	}
	write_skipped(out, c, 1);
	write_md_runs(out, c);
}

/* the SVG chart says what the text says: these texts (compare_svg.h) */
static const struct cdm_compare_svg_texts svg_texts = {
	.cell = cell_text, .why = why_text, .metric = metric_name, .agg = agg_word,
};

int cdm_compare_table_write(FILE *out, const struct cdm_compare *c, enum cdm_compare_format format)
{
	if (!c->n || c->n > CDM_COMPARE_MAX_RUNS)
		return -EINVAL;
	if (format == CDM_COMPARE_SVG)
		return cdm_compare_svg_write(out, c, &svg_texts);
	if (format == CDM_COMPARE_MARKDOWN)
		write_markdown(out, c);
	else
		write_text(out, c);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
