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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cdm/model/compare.h"
#include "cdm/model/result_read.h"
#include "cdm/report/compare.h"
#include "cdm/report/report.h"
#include "unit.h"
#include "cdm/target/outfile.h"

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
	in->time = 5;
	in->warmup = 5;
	in->interval = 5;
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

static char *render_compare(const struct cdm_compare *c, enum cdm_compare_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(cdm_report_compare_write(fp, c, f), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void test_compare_svg(void **state)
{
	struct cdm_run_result *runs[2] = { build("LOCAL", 1.0), build("SAN", 0.5) };
	struct cdm_compare c;
	char *svg, *text, got[64];

	(void)state;
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_MB_S, NULL), 0);
	svg = render_compare(&c, CDM_COMPARE_SVG);
	text = render_compare(&c, CDM_COMPARE_TEXT);
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
	assert_non_null(strstr(buf, "device nvme0n1 Samsung SSD 980 PRO 1TB"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_card),
		cmocka_unit_test(test_card_mix),
		cmocka_unit_test(test_compare_svg),
		cmocka_unit_test(test_mem_total_json),
		cmocka_unit_test(test_markdown_lines),
		cmocka_unit_test(test_outfile_relative),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
