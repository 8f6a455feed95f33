/* SPDX-License-Identifier: MIT */
/*
 * test_svg.c - the pictures for a post: the result card (--format svg)
 * rendered from a fixed result, checked for its structure rather than
 * byte for byte (the layout may move; what it says may not): a document
 * with no script and no external reference, one cell per test and
 * direction with the model's figures printed as documented, a dash and
 * the reason for a test that measured nothing and no number, escaped and
 * valid-UTF-8 labels, the footer naming CPU, memory and device; the
 * comparison chart's figures and ratios equal to the text report's; the
 * memory total through JSON and back; the Markdown's image and method
 * lines; and cdm_outfile_relative().
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <limits.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cdm/model/compare.h"
#include "cdm/format/result_read.h"
#include "cdm/model/spec.h"
#include "cdm/report/compare_table.h"
#include "cdm/report/plot.h"
#include "cdm/report/report.h"
#include "unit.h"
#include "cdm/target/outfile.h"
#include "report/svg.h"         /* cdm_svg_width(): the card's own estimate */

#define MIB (1024ull * 1024)
#define KIB 1024ull

static void set_pass(struct cdm_test_result *t, unsigned int i, double seconds,
		     uint64_t bytes, uint64_t ios, uint64_t lat_ns)
{
	t->passes[i] = (struct cdm_pass){ .seconds = seconds, .bytes = bytes, .ios = ios,
					  .lat_sum_ns = ios * lat_ns, .lat_max_ns = lat_ns * 2 };
	if (t->npasses < i + 1)
		t->npasses = i + 1;
}

/*
 * SEQ1M Q8T1 read and write measured, RND4K Q1T1 read measured, its write
 * with two passes in which no I/O completed; the label holds markup and a
 * byte that is not UTF-8.  @scale multiplies the figures (a second run).
 */
static struct cdm_run_result *build(const char *label, double scale)
{
	struct cdm_run_result *r = cdm_result_alloc(4);
	struct cdm_run_info *in;
	struct cdm_test_result *t;

	assert_non_null(r);
	in = &r->info;
	snprintf(in->version, sizeof(in->version), "0.1.0");
	snprintf(in->engine, sizeof(in->engine), "io_uring");
	snprintf(in->profile, sizeof(in->profile), "Default");
	snprintf(in->target, sizeof(in->target), "/mnt/local");
	snprintf(in->mount_point, sizeof(in->mount_point), "/mnt/local");
	snprintf(in->label, sizeof(in->label), "%s", label);
	snprintf(in->dev_name, sizeof(in->dev_name), "nvme0n1");
	snprintf(in->dev_model, sizeof(in->dev_model), "Samsung SSD 980 PRO 1TB");
	snprintf(in->cpu_model, sizeof(in->cpu_model), "AMD EPYC 7B13");
	snprintf(in->os, sizeof(in->os), "Debian GNU/Linux 12 (bookworm)");
	in->cpus_online = 4;
	in->mem_total_bytes = 16697434112ull;
	in->size = 1024 * MIB;
	in->count = 2;
	in->time_ms = 5000;
	in->warmup_ms = 5000;
	in->interval_ms = 5000;
	in->direct = 1;
	in->start = 1796010078;
	for (unsigned int i = 0; i < 4; i++) {
		t = &r->tests[i];
		t->dir = i & 1 ? CDM_DIR_WRITE : CDM_DIR_READ;
		if (i < 2)
			t->spec = (struct cdm_spec){ .pattern = CDM_SEQ, .block = MIB, .qd = 8, .threads = 1 };
		else
			t->spec = (struct cdm_spec){ .pattern = CDM_RND, .block = 4 * KIB, .qd = 1, .threads = 1 };
		t->qd_run = t->spec.qd;
	}
	set_pass(&r->tests[0], 0, 5.0, (uint64_t)(5000 * scale) * MIB, (uint64_t)(5000 * scale), 8000000);
	set_pass(&r->tests[0], 1, 5.0, (uint64_t)(4900 * scale) * MIB, (uint64_t)(4900 * scale), 8100000);
	set_pass(&r->tests[1], 0, 5.0, (uint64_t)(2000 * scale) * MIB, (uint64_t)(2000 * scale), 20000000);
	set_pass(&r->tests[1], 1, 5.0, (uint64_t)(2100 * scale) * MIB, (uint64_t)(2100 * scale), 19000000);
	set_pass(&r->tests[2], 0, 5.0, (uint64_t)(80000 * scale) * 4 * KIB, (uint64_t)(80000 * scale), 62000);
	set_pass(&r->tests[2], 1, 5.0, (uint64_t)(81000 * scale) * 4 * KIB, (uint64_t)(81000 * scale), 61000);
	set_pass(&r->tests[3], 0, 5.0, 0, 0, 0);     /* no I/O completed */
	set_pass(&r->tests[3], 1, 5.0, 0, 0, 0);
	return r;
}

/* the text of the element with class @cls inside the cell @id, or NULL */
static char *cell_text(const char *svg, const char *id, const char *cls, char *buf, size_t len)
{
	char key[128];
	const char *g, *end, *p, *gt, *lt;

	snprintf(key, sizeof(key), "id=\"%s\"", id);
	g = strstr(svg, key);
	if (!g)
		return NULL;
	end = strstr(g, "</g>");
	snprintf(key, sizeof(key), "class=\"%s\"", cls);
	p = strstr(g, key);
	if (!p || p > end)
		return NULL;
	gt = strchr(p, '>');
	lt = strchr(gt, '<');
	snprintf(buf, len, "%.*s", (int)(lt - gt - 1), gt + 1);
	return buf;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_card(void **state)
{
	struct cdm_run_result *r = build("LOCAL <nvme> & \"a\" \xff", 1.0);
	char *svg = unit_render("svg", r), got[128], want[128];

	(void)state;
	/* a whole, self-contained document */
	assert_int_equal(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44), 0);
	assert_non_null(strstr(svg, "width=\"800\""));
	assert_int_equal(strcmp(svg + strlen(svg) - 7, "</svg>\n"), 0);
	assert_null(strstr(svg, "<script"));
	assert_null(strstr(svg, "href"));
	assert_null(strstr(svg, "@import"));
	assert_int_equal(count(svg, "<g"), count(svg, "</g>"));
	assert_int_equal(count(svg, "<text"), count(svg, "</text>"));
	/* the label escaped, the stray byte as U+FFFD */
	assert_non_null(strstr(svg, "LOCAL &lt;nvme&gt; &amp; &quot;a&quot; \xef\xbf\xbd"));
	assert_null(strstr(svg, "\xff"));
	/* the figures of the model, as documented: MB/s %.2f, IOPS %.1f, us %.2f */
	for (unsigned int i = 0; i < 3; i++) {
		static const char *const ids[] = { "r-SEQ1M_Q8T1-read", "r-SEQ1M_Q8T1-write",
						   "r-RND4K_Q1T1-read" };
		const struct cdm_test_result *t = &r->tests[i];

		snprintf(want, sizeof(want), "%.2f", cdm_result_mb_s(t, CDM_AGG_BEST));
		assert_string_equal(cell_text(svg, ids[i], "mbs", got, sizeof(got)), want);
		snprintf(want, sizeof(want), "%.1f IOPS", cdm_result_iops(t, CDM_AGG_BEST));
		assert_string_equal(cell_text(svg, ids[i], "iops", got, sizeof(got)), want);
		snprintf(want, sizeof(want), "%.2f \xc2\xb5s", cdm_result_lat_us(t, CDM_AGG_BEST));
		assert_string_equal(cell_text(svg, ids[i], "lat", got, sizeof(got)), want);
	}
	assert_string_equal(cell_text(svg, "r-SEQ1M_Q8T1-read", "mbs", got, sizeof(got)), "1048.58");
	/* nothing measured: a dash and the reason, no figure */
	assert_null(cell_text(svg, "r-RND4K_Q1T1-write", "mbs", got, sizeof(got)));
	assert_null(cell_text(svg, "r-RND4K_Q1T1-write", "iops", got, sizeof(got)));
	assert_string_equal(cell_text(svg, "r-RND4K_Q1T1-write", "none", got, sizeof(got)), "\xe2\x80\x93");
	assert_string_equal(cell_text(svg, "r-RND4K_Q1T1-write", "why", got, sizeof(got)), "no I/O completed");
	assert_non_null(strstr(svg, "RND4K Q1T1 Write: nothing measured: no I/O completed in any of its 2 passes"));
	/* the labels, the columns, the footer */
	assert_non_null(strstr(svg, ">SEQ1M</text>"));
	assert_non_null(strstr(svg, ">Q8T1</text>"));
	assert_non_null(strstr(svg, ">Read (MB/s)</text>"));
	assert_non_null(strstr(svg, ">Write (MB/s)</text>"));
	assert_null(strstr(svg, "Mix"));
	assert_non_null(strstr(svg, "CPU: AMD EPYC 7B13 (4 online)"));
	assert_non_null(strstr(svg, "Memory: 15.6 GiB"));
	assert_non_null(strstr(svg, "Device: nvme0n1, Samsung SSD 980 PRO 1TB"));
	assert_non_null(strstr(svg, "Engine: io_uring, O_DIRECT, random data"));
	assert_non_null(strstr(svg, "Test: 1 GiB (x2)"));
	assert_non_null(strstr(svg, "Date: 2026-11-30 03:41:18 UTC"));
	free(svg);
	/* --aggregate median: the median's figures */
	r->aggregate = CDM_AGG_MEDIAN;
	svg = unit_render("svg", r);
	snprintf(want, sizeof(want), "%.2f", cdm_result_mb_s(&r->tests[0], CDM_AGG_MEDIAN));
	assert_string_equal(cell_text(svg, "r-SEQ1M_Q8T1-read", "mbs", got, sizeof(got)), want);
	assert_string_equal(want, "1038.09");
	free(svg);
	cdm_result_free(r);
}

/* a Mix test gets its own column; a test absent from a direction says so */
static void test_card_mix(void **state)
{
	struct cdm_run_result *r = build("MIX", 1.0);
	char *svg, got[64];

	(void)state;
	r->tests[1].dir = CDM_DIR_MIX;          /* SEQ1M Q8T1 R70/W30 */
	r->tests[1].spec.write_pct = 30;
	svg = unit_render("svg", r);
	assert_non_null(strstr(svg, ">Mix R70/W30 (MB/s)</text>"));
	assert_non_null(cell_text(svg, "r-SEQ1M_Q8T1-mix30", "mbs", got, sizeof(got)));
	assert_non_null(strstr(svg, ">not in this run</text>"));      /* RND4K Q1T1 Mix */
	free(svg);
	cdm_result_free(r);
}

/* the text of the first tspan of class @cls in bar @id, or NULL */
static char *bar_text(const char *svg, const char *id, const char *cls, char *buf, size_t len)
{
	return cell_text(svg, id, cls, buf, len);
}


static void test_compare_svg(void **state)
{
	struct cdm_run_result *runs[2] = { build("LOCAL", 1.0), build("SAN", 0.5) };
	struct cdm_compare c;
	char *svg, *text, got[64];

	(void)state;
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_MB_S, NULL), 0);
	svg = unit_render_compare(&c, CDM_COMPARE_SVG);
	text = unit_render_compare(&c, CDM_COMPARE_TEXT);
	assert_null(strstr(svg, "<script"));
	assert_null(strstr(svg, "href"));
	assert_int_equal(count(svg, "<g"), count(svg, "</g>"));
	assert_non_null(strstr(svg, "cdm compare: MB/s, ratio to LOCAL"));
	/* row 1, SEQ1M Q8T1 Read: figures and the ratio as the text has them */
	assert_string_equal(bar_text(svg, "row1-run1", "val", got, sizeof(got)), "1048.576");
	assert_string_equal(bar_text(svg, "row1-run2", "val", got, sizeof(got)), "524.288");
	assert_string_equal(bar_text(svg, "row1-run2", "ratio", got, sizeof(got)), "0.50x");
	assert_non_null(strstr(text, "): 1048.576") || strstr(text, " 1048.576 "));
	assert_non_null(strstr(text, " 524.288 0.50x\n"));
	assert_null(bar_text(svg, "row1-run1", "ratio", got, sizeof(got)));
	/* the write that measured nothing: no bar, no figure, the reason */
	assert_null(bar_text(svg, "row4-run1", "val", got, sizeof(got)));
	assert_non_null(strstr(svg, "LOCAL measured nothing: no I/O completed"));
	{
		const char *g = strstr(svg, "id=\"row4-run1\""), *e = strstr(g, "</g>"), *rect = strstr(g, "<rect");

		assert_true(!rect || rect > e);
	}
	free(svg);
	free(text);
	cdm_compare_free(&c);
	cdm_result_free(runs[0]);
	cdm_result_free(runs[1]);
}

/* system.mem_total_bytes: written, read back; null is unknown */
static void test_mem_total_json(void **state)
{
	struct cdm_run_result *r = build("M", 1.0), *back = NULL;
	const struct cdm_formatter *json = cdm_report_find("json");
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		fp = open_memstream(&buf, &len);
		assert_int_equal(json->write(fp, r), 0);
		assert_int_equal(fclose(fp), 0);
		assert_non_null(strstr(buf, pass ? "\"mem_total_bytes\": null" :
					"\"mem_total_bytes\": 16697434112"));
		assert_int_equal(cdm_result_read(buf, len, 0, &back, NULL), 0);
		assert_true(back->info.mem_total_bytes == r->info.mem_total_bytes);
		cdm_result_free(back);
		free(buf);
		r->info.mem_total_bytes = 0;
	}
	cdm_result_free(r);
}

/* the Markdown report: the image line with --svg, the method always */
static void test_markdown_lines(void **state)
{
	struct cdm_run_result *r = build("POST", 1.0);
	const struct cdm_formatter *md = cdm_report_find("markdown");
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	r->image = "img/my card (1).svg";
	fp = open_memstream(&buf, &len);
	assert_int_equal(md->write(fp, r), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(buf, "\n![cdm result: POST](img/my%20card%20%281%29.svg)\n"));
	assert_non_null(strstr(buf, "\nHow measured: io_uring engine, O\\_DIRECT (no page cache), random data; a 1 GiB test file; per test a 5 s warm-up (not counted), then 2 passes of 5 s; 5 s between tests; figures: the best pass"));
	assert_non_null(strstr(buf, "\nMachine: AMD EPYC 7B13 (4 CPUs online), 15.6 GiB RAM; "));
	assert_non_null(strstr(buf, "device nvme0n1 (Samsung SSD 980 PRO 1TB)"));
	free(buf);
	r->image = NULL;
	fp = open_memstream(&buf, &len);
	assert_int_equal(md->write(fp, r), 0);
	assert_int_equal(fclose(fp), 0);
	assert_null(strstr(buf, "!["));
	assert_non_null(strstr(buf, "\nHow measured: "));
	free(buf);
	cdm_result_free(r);
}

static void test_outfile_relative(void **state)
{
	char dir[] = "/tmp/cdm-rel.XXXXXX", a[PATH_MAX], b[PATH_MAX], out[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/post", dir);
	assert_int_equal(mkdir(a, 0700), 0);
	snprintf(a, sizeof(a), "%s/post/img", dir);
	assert_int_equal(mkdir(a, 0700), 0);
	snprintf(a, sizeof(a), "%s/post/r.md", dir);
	snprintf(b, sizeof(b), "%s/post/img/c.svg", dir);
	assert_int_equal(cdm_outfile_relative(a, b, out, sizeof(out)), 0);
	assert_string_equal(out, "img/c.svg");
	snprintf(b, sizeof(b), "%s/c.svg", dir);
	assert_int_equal(cdm_outfile_relative(a, b, out, sizeof(out)), 0);
	assert_string_equal(out, "../c.svg");
	snprintf(b, sizeof(b), "%s/post/./img/../c.svg", dir);
	assert_int_equal(cdm_outfile_relative(a, b, out, sizeof(out)), 0);
	assert_string_equal(out, "c.svg");
	snprintf(a, sizeof(a), "%s/post/img/x.md", dir);
	snprintf(b, sizeof(b), "%s/c.svg", dir);
	assert_int_equal(cdm_outfile_relative(a, b, out, sizeof(out)), 0);
	assert_string_equal(out, "../../c.svg");
	assert_int_equal(cdm_outfile_relative(a, b, out, 5), -ENAMETOOLONG);
	snprintf(b, sizeof(b), "%s/none/c.svg", dir);
	assert_int_equal(cdm_outfile_relative(a, b, out, sizeof(out)), -ENOENT);
	snprintf(a, sizeof(a), "%s/post/img", dir);
	rmdir(a);
	snprintf(a, sizeof(a), "%s/post", dir);
	rmdir(a);
	rmdir(dir);
}


/*
 * Is @doc well-formed XML, as far as cdm's documents go: every '<' opens
 * a declaration, a comment or a tag with a name, attributes quoted, every
 * '&' an entity, tags balanced, no control character, valid UTF-8?  NULL,
 * or what is wrong and where.  (xmllint does this in the CLI tests; this
 * one runs wherever the unit tests do.)
 */
static const char *xml_bad(const char *doc, char *why, size_t len)
{
	static const char *const ents[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	const char *stack[256], *p = doc;
	size_t slen[256];
	unsigned int depth = 0, roots = 0;

#define BAD(msg) do { snprintf(why, len, "%s at ...%.40s", msg, p); return why; } while (0)
	while (*p) {
		unsigned char c = (unsigned char)*p;

		if (c == '&') {
			size_t i;

			for (i = 0; i < 5 && strncmp(p, ents[i], strlen(ents[i])); i++)
				;
			if (i == 5 && strncmp(p, "&#", 2))
				BAD("a bare '&'");
			p = strchr(p, ';') + 1;
			continue;
		}
		if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
			BAD("a control character");
		if (c >= 0x80) {
			unsigned int n = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : 9;

			if (n == 9)
				BAD("a byte that is not UTF-8");
			for (unsigned int i = 1; i <= n; i++)
				if (((unsigned char)p[i] & 0xc0) != 0x80)
					BAD("a cut UTF-8 sequence");
			p += n + 1;
			continue;
		}
		if (c == '>')
			BAD("a '>' outside a tag");  /* allowed by XML, never written by cdm */
		if (c != '<') {
			p++;
			continue;
		}
		if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4)) {
			const char *e = strstr(p, p[1] == '?' ? "?>" : "-->");

			if (!e)
				BAD("an unended declaration");
			p = e + 2;
			continue;
		}
		{
			int close = p[1] == '/';
			const char *name = p + 1 + close, *q = name;

			while (isalnum((unsigned char)*q) || *q == ':' || *q == '-' || *q == '_')
				q++;
			if (q == name || !isalpha((unsigned char)*name))
				BAD("a '<' that opens no tag");
			if (close) {
				if (!depth || slen[depth - 1] != (size_t)(q - name) ||
				    strncmp(stack[depth - 1], name, (size_t)(q - name)) || *q != '>')
					BAD("an end tag that ends no open tag");
				depth--;
				p = q + 1;
				continue;
			}
			for (;;) {             /* attributes: name="value" */
				while (*q == ' ' || *q == '\n')
					q++;
				if (*q == '>' || !strncmp(q, "/>", 2))
					break;
				while (isalnum((unsigned char)*q) || *q == ':' || *q == '-' || *q == '_')
					q++;
				if (q[0] != '=' || q[1] != '"')
					BAD("an attribute without a quoted value");
				for (q += 2; *q != '"'; q++) {
					if (!*q || *q == '<')
						BAD("a '<' in an attribute value");
					if (*q == '&' && strncmp(q, "&amp;", 5) && strncmp(q, "&lt;", 4) &&
					    strncmp(q, "&gt;", 4) && strncmp(q, "&quot;", 6))
						BAD("a bare '&' in an attribute value");
				}
				q++;
			}
			if (*q == '>') {
				if (depth == 256)
					BAD("too deep");
				roots += !depth;
				stack[depth] = name;
				slen[depth++] = (size_t)(strcspn(name, " />"));
				p = q + 1;
			} else {
				roots += !depth;
				p = q + 2;
			}
		}
	}
	if (depth)
		BAD("an open tag at the end");
	if (roots != 1)
		BAD("not one root element");
#undef BAD
	return NULL;
}

static void assert_xml(const char *doc, const char *what)
{
	char why[128];

	if (xml_bad(doc, why, sizeof(why)))
		fail_msg("%s: not well-formed: %s", what, why);
}

#define HOSTILE "A<b & c>\"d\" ]]> \x01\xff<0.01x"

/*
 * Every SVG writer, its text from the user, the system or a figure with a
 * '<' in it ("<0.01x", a ratio below 0.01): the card, the compare chart
 * (whose ratios are below 0.01 here) and the charts of --plot and cdm
 * sweep (cdm_plot_svg(), every text of a panel): well-formed XML.
 */
static void test_svg_escaped(void **state)
{
	struct cdm_run_result *runs[2] = { build(HOSTILE, 1.0), build(HOSTILE " 2", 0.001) };
	struct cdm_compare c;
	static const double xs[] = { 0, 1, 2 }, ys[] = { 1, 4, 2 };
	const struct cdm_plot_line line = { .name = HOSTILE, .n = 3, .x = xs, .y = ys,
					    .has_knee = 1, .knee = 1 };
	const struct cdm_plot_band band = { .x0 = 0, .x1 = 2, .label = HOSTILE };
	const struct cdm_plot_panel panel = {
		.title = HOSTILE, .xlabel = HOSTILE, .ylabel = HOSTILE, .nlines = 1, .lines = &line,
		.markers = 1, .has_mark = 1, .mark_x = 1, .mark_label = HOSTILE, .nbands = 1,
		.bands = &band, .note = { HOSTILE, HOSTILE },
	};
	char *svg = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	snprintf(runs[0]->info.comment, sizeof(runs[0]->info.comment), "%s", HOSTILE);
	snprintf(runs[0]->info.cpu_model, sizeof(runs[0]->info.cpu_model), "%s", HOSTILE);
	snprintf(runs[0]->info.target, sizeof(runs[0]->info.target), "%s", HOSTILE);
	for (unsigned int a = 0; a < 3; a++) {
		runs[0]->aggregate = (enum cdm_aggregate)a;
		svg = unit_render("svg", runs[0]);
		assert_xml(svg, "the card");
		free(svg);
	}
	for (unsigned int m = 0; m < 3; m++) {
		assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, (enum cdm_compare_metric)m,
						  NULL), 0);
		svg = unit_render_compare(&c, CDM_COMPARE_SVG);
		assert_xml(svg, "the compare chart");
		if (m == CDM_COMPARE_MB_S)      /* 0.001x: "<0.01x" */
			assert_non_null(strstr(svg, "<tspan class=\"ratio\">&lt;0.01x</tspan>"));
		free(svg);
		cdm_compare_free(&c);
	}
	fp = open_memstream(&svg, &len);
	assert_non_null(fp);
	assert_int_equal(cdm_plot_svg(fp, HOSTILE, HOSTILE, &panel, 1), 0);
	assert_int_equal(fclose(fp), 0);
	assert_xml(svg, "a chart");
	free(svg);
	/* a text longer than 200 bytes: cut at a character, with an ellipsis, not silently */
	{
		char euros[301] = "";
		const struct cdm_plot_line l2 = { .name = "L", .n = 3, .x = xs, .y = ys };
		struct cdm_plot_panel p2 = { .xlabel = "x", .ylabel = "y", .nlines = 1, .lines = &l2 };

		for (unsigned int i = 0; i < 100; i++)
			strcat(euros, "\xe2\x82\xac");
		p2.title = euros;
		fp = open_memstream(&svg, &len);
		assert_non_null(fp);
		assert_int_equal(cdm_plot_svg(fp, "T", NULL, &p2, 1), 0);
		assert_int_equal(fclose(fp), 0);
		assert_xml(svg, "a chart with a long panel title");
		assert_non_null(strstr(svg, "\xe2\x82\xac\xe2\x80\xa6</text>"));
		assert_null(strstr(svg, "\xef\xbf\xbd"));
		free(svg);
	}
	/* the checker itself: what it must refuse */
	{
		char why[128];

		assert_non_null(xml_bad("<svg><tspan><0.01x</tspan></svg>", why, sizeof(why)));
		assert_non_null(xml_bad("<svg>a & b</svg>", why, sizeof(why)));
		assert_non_null(xml_bad("<svg><g></svg>", why, sizeof(why)));
		assert_non_null(xml_bad("<svg>\xff</svg>", why, sizeof(why)));
		assert_null(xml_bad("<?xml version=\"1.0\"?>\n<svg a=\"&lt;\"><g/>&lt;&amp;</svg>\n", why, sizeof(why)));
	}
	cdm_result_free(runs[0]);
	cdm_result_free(runs[1]);
}

/* one <text> of a drawing: where it is and what it says */
struct text_el {
	double x0, x1, top, bot;        /* its box, by cdm_svg_width() */
	char cls[32], s[256];
};

/* the value of attribute @name in the tag at @tag (ending at its '>'), or NULL */
static const char *attr(const char *tag, const char *name, char *buf, size_t len)
{
	char key[48];
	const char *end = strchr(tag, '>'), *p, *q;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	if (!p || p > end)
		return NULL;
	p += strlen(key);
	q = strchr(p, '"');
	snprintf(buf, len, "%.*s", (int)(q - p), p);
	return buf;
}

/* the texts of @svg (their entities undone), at most @max; returns how many */
static unsigned int texts(const char *svg, struct text_el *t, unsigned int max)
{
	unsigned int n = 0;
	char v[64];

	for (const char *p = strstr(svg, "<text "); p && n < max; p = strstr(p + 1, "<text ")) {
		const char *gt = strchr(p, '>'), *e = strstr(gt, "</text>");
		double x = atof(attr(p, "x", v, sizeof(v))), y = atof(attr(p, "y", v, sizeof(v)));
		int size = atoi(attr(p, "font-size", v, sizeof(v)));
		int bold = attr(p, "font-weight", v, sizeof(v)) != NULL;
		const char *anchor = attr(p, "text-anchor", v, sizeof(v)) ? v : "start";
		size_t k = 0;
		double w;
		char anch[64];

		snprintf(anch, sizeof(anch), "%s", anchor);
		t[n].cls[0] = '\0';
		attr(p, "class", t[n].cls, sizeof(t[n].cls));
		for (const char *q = gt + 1; q < e && k + 1 < sizeof(t[n].s); q++) {
			static const char *const ent[][2] = { { "&amp;", "&" }, { "&lt;", "<" },
							      { "&gt;", ">" }, { "&quot;", "\"" } };
			unsigned int i;

			for (i = 0; i < 4 && strncmp(q, ent[i][0], strlen(ent[i][0])); i++)
				;
			if (i < 4) {
				t[n].s[k++] = ent[i][1][0];
				q += strlen(ent[i][0]) - 1;
			} else {
				t[n].s[k++] = *q;
			}
		}
		t[n].s[k] = '\0';
		w = cdm_svg_width(t[n].s, size, bold);
		t[n].x0 = !strcmp(anch, "end") ? x - w : !strcmp(anch, "middle") ? x - w / 2 : x;
		t[n].x1 = t[n].x0 + w;
		t[n].top = y - 0.75 * size;     /* ascent, descent: generous for DejaVu Sans */
		t[n].bot = y + 0.25 * size;
		n++;
	}
	return n;
}

static int overlap(double a0, double a1, double b0, double b1)
{
	return a0 < b1 - 0.5 && b0 < a1 - 0.5;
}

/*
 * No two texts of @svg overlap, no column head runs into a swatch, and
 * every text of a cell is inside its box: by the widths the card
 * estimates for them (cdm_svg_width(), which errs on the side of room).
 */
static void assert_no_overlap(const char *svg, const char *what)
{
	static struct text_el t[512];
	unsigned int n = texts(svg, t, 512);
	char v[32];

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++)
			if (overlap(t[i].x0, t[i].x1, t[j].x0, t[j].x1) &&
			    overlap(t[i].top, t[i].bot, t[j].top, t[j].bot))
				fail_msg("%s: '%s' [%.1f-%.1f] and '%s' [%.1f-%.1f] overlap", what,
					 t[i].s, t[i].x0, t[i].x1, t[j].s, t[j].x0, t[j].x1);
	/* the heads' swatches: a 14 x 10 rect at y 102 */
	for (const char *p = strstr(svg, "<rect "); p; p = strstr(p + 1, "<rect ")) {
		double x, y;

		if (!attr(p, "y", v, sizeof(v)))
			continue;       /* a pattern's */
		y = atof(v);
		if (y != 102.0)
			continue;
		x = atof(attr(p, "x", v, sizeof(v)));
		for (unsigned int i = 0; i < n; i++)
			if (overlap(x, x + 14, t[i].x0, t[i].x1) && overlap(102, 112, t[i].top, t[i].bot))
				fail_msg("%s: the swatch at %.1f covers '%s'", what, x, t[i].s);
	}
	/* every cell's texts inside its box (its first rect) */
	for (const char *g = strstr(svg, "<g class=\"cell\""); g; g = strstr(g + 1, "<g class=\"cell\"")) {
		const char *r = strstr(g, "<rect "), *end = strstr(g, "</g>");
		double bx = atof(attr(r, "x", v, sizeof(v))), bw = atof(attr(r, "width", v, sizeof(v)));
		struct text_el one[8];
		unsigned int m;
		char *cell = strndup(g, (size_t)(end - g));

		m = texts(cell, one, 8);
		for (unsigned int i = 0; i < m; i++)
			if (one[i].x0 < bx + 2 || one[i].x1 > bx + bw - 2)
				fail_msg("%s: '%s' [%.1f-%.1f] outside its box [%.1f-%.1f]", what, one[i].s,
					 one[i].x0, one[i].x1, bx, bx + bw);
		free(cell);
	}
}

/*
 * A run of the tests @specs ("RND4K Q1T1 W20"; a plain test gives a read
 * and a write), one pass each of 1 s at @iops I/Os per second and 60 ns:
 * the figures of the null engine, the widest a card shows.
 */
static struct cdm_run_result *build_specs(const char *const *specs, unsigned int n, double iops)
{
	struct cdm_run_result *r;
	unsigned int nt = 0;

	for (unsigned int i = 0; i < n; i++)
		nt += strstr(specs[i], " W") ? 1 : 2;
	r = build("LOCAL", 1.0);
	cdm_result_free(r);
	r = cdm_result_alloc(nt);
	assert_non_null(r);
	snprintf(r->info.label, sizeof(r->info.label), "a label long enough to be cut in the title bar of the card, and more");
	snprintf(r->info.target, sizeof(r->info.target), "/mnt/a/very/long/path/to/the/target/of/this/run");
	snprintf(r->info.engine, sizeof(r->info.engine), "null");
	snprintf(r->info.version, sizeof(r->info.version), "0.1.0");
	r->info.count = 1;
	r->info.time_ms = 1000;
	r->info.size = 16 * MIB;
	nt = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct cdm_spec sp;

		assert_int_equal(cdm_spec_parse(specs[i], &sp, NULL), 0);
		for (unsigned int d = 0; d < (sp.write_pct ? 1u : 2u); d++) {
			struct cdm_test_result *t = &r->tests[nt++];

			t->spec = sp;
			t->qd_run = sp.qd;
			t->dir = sp.write_pct ? CDM_DIR_MIX : d ? CDM_DIR_WRITE : CDM_DIR_READ;
			set_pass(t, 0, 1.0, (uint64_t)iops * sp.block, (uint64_t)iops, 60);
		}
	}
	return r;
}

/*
 * The card with 1 to 6 value columns (read, write, up to 4 Mix ratios),
 * figures as wide as the null engine's: no text runs into another, and
 * each Mix column has its own fill.
 */
static void test_card_columns(void **state)
{
	static const char *const specs[] = { "SEQ1M Q1T1", "RND4K Q1T1 W20", "RND8K Q1T1 W50",
					     "SEQ1M Q1T1 W30", "RND4K Q32T1 W40" };
	static const double rates[] = { 1, 3063, 11324212.0, 1e10 };
	char what[96];

	(void)state;
	for (unsigned int n = 1; n <= 5; n++) {
		for (unsigned int q = 0; q < 4; q++) {
			struct cdm_run_result *r = build_specs(specs, n, rates[q]);
			char *svg = unit_render("svg", r);
			const char *fills[4] = { 0 };
			unsigned int nfill = 0;

			snprintf(what, sizeof(what), "%u kinds of tests at %.0f IOPS", n, rates[q]);
			assert_xml(svg, what);
			assert_no_overlap(svg, what);
			/* the heads' swatches: as many different fills as columns */
			for (const char *p = strstr(svg, "y=\"102\""); p; p = strstr(p + 1, "y=\"102\"")) {
				const char *f = strstr(p, "fill=\"");

				for (unsigned int i = 0; i < nfill; i++)
					if (!strncmp(fills[i], f, strcspn(f + 6, "\"") + 6))
						fail_msg("%s: two columns with the fill %.20s", what, f);
				if (nfill < 4)
					fills[nfill++] = f;
			}
			assert_true(nfill == (n == 1 ? 2 : n < 4 ? n + 1 : 4));
			free(svg);
			cdm_result_free(r);
		}
	}
	{       /* the fixed card of test_card(), its labels long */
		struct cdm_run_result *r = build("LOCAL <nvme> & \"a\" \xff and a longer label than fits", 1.0);
		char *svg = unit_render("svg", r);

		assert_no_overlap(svg, "the card of test_card()");
		free(svg);
		cdm_result_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_card),
		cmocka_unit_test(test_card_mix),
		cmocka_unit_test(test_compare_svg),
		cmocka_unit_test(test_svg_escaped),
		cmocka_unit_test(test_card_columns),
		cmocka_unit_test(test_mem_total_json),
		cmocka_unit_test(test_markdown_lines),
		cmocka_unit_test(test_outfile_relative),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
