/* SPDX-License-Identifier: MIT */
/*
 * test_figures.c - one rule for a figure or its absence, in every writer
 * of src/report/: every CrystalDiskMark report of tests/fixtures/, read as
 * `cdm import` reads it, printed in every registered format
 * (cdm_report_at()) and compared in every compare layout under every
 * aggregate, never prints "nan" or "inf" (a report has no median: its
 * figures are absent, and said so); the words under the Markdown table
 * match the report and the count; a text compare says when it cut a label;
 * a CV shown as "unstable" reads as above the threshold (cdm_fmt_cv(),
 * which the run's note uses too).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "unit.h"

#include "cdm/base/err.h"
#include "cdm/format/cdm_read.h"
#include "cdm/model/compare.h"
#include "cdm/model/spec.h"
#include "cdm/report/compare_table.h"
#include "cdm/format/fmt.h"
#include "cdm/report/report.h"

#define NFIX_MAX 32

/* tests/fixtures/cdm-reports/ (from the repository root or $CDM_SRCDIR) */
static void fixture_dir(char *buf, size_t len)
{
	const char *dir = getenv("CDM_SRCDIR");

	snprintf(buf, len, "%s/tests/fixtures/cdm-reports", dir && *dir ? dir : ".");
}

/* the fixture @name read as `cdm import` reads it (its "# source:" line cut) */
static struct cdm_run_result *fixture(const char *name)
{
	char dir[4096], path[4400], *buf, *nl;
	struct cdm_run_result *r = NULL;
	struct cdm_err err = { "" };
	long sz;
	FILE *f;

	fixture_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: %s (run from the repository root or set CDM_SRCDIR)", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)sz + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)sz, f), (size_t)sz);
	fclose(f);
	nl = strchr(buf, '\n');
	assert_non_null(nl);
	if (cdm_cdm_read(nl + 1, (size_t)sz - (size_t)(nl + 1 - buf), name, &r, &err) != 0)
		fail_msg("%s: %s", name, err.msg);
	free(buf);
	return r;
}

/* the names of the fixtures, sorted; returns how many */
static unsigned int fixture_names(char names[][256])
{
	char dir[4096];
	struct dirent *e;
	unsigned int n = 0;
	DIR *d;

	fixture_dir(dir, sizeof(dir));
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)) && n < NFIX_MAX) {
		size_t l = strlen(e->d_name);

		if (l > 4 && !strcmp(e->d_name + l - 4, ".txt"))
			snprintf(names[n++], 256, "%s", e->d_name);
	}
	closedir(d);
	qsort(names, n, 256, (int (*)(const void *, const void *))strcmp);
	assert_true(n >= 10);
	return n;
}



/* does @s hold @word (case ignored) not inside a longer word? */
static const char *has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; *p; p++) {
		if (strncasecmp(p, word, n))
			continue;
		if ((p == s || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[n]))
			return p;
	}
	return NULL;
}

/* @out, the output of @what, has no "nan" and no "inf": a figure is a number or absent */
static void no_nan(const char *out, const char *what)
{
	const char *p;

	if ((p = has_word(out, "nan")) || (p = has_word(out, "inf")) ||
	    (p = has_word(out, "infinity")))
		fail_msg("%s: prints a figure that does not exist: ...%.60s", what, p > out + 30 ? p - 30 : out);
}

static const enum cdm_aggregate aggs[] = { CDM_AGG_BEST, CDM_AGG_MEDIAN, CDM_AGG_MEAN };

/* every fixture, every format, every aggregate: no "nan" */
static void test_every_format(void **state)
{
	char names[NFIX_MAX][256], what[512];
	unsigned int n = fixture_names(names), formats = 0;

	(void)state;
	for (unsigned int i = 0; i < n; i++) {
		struct cdm_run_result *r = fixture(names[i]);

		for (unsigned int a = 0; a < 3; a++) {
			r->aggregate = aggs[a];
			for (unsigned int k = 0; cdm_report_at(k); k++) {
				char *out = unit_render_with(cdm_report_at(k), r);

				snprintf(what, sizeof(what), "%.255s --aggregate %s --format %s", names[i],
					 cdm_result_aggregate_name(aggs[a]), cdm_report_at(k)->name);
				no_nan(out, what);
				free(out);
				formats = k + 1;
			}
		}
		cdm_result_free(r);
	}
	/* the registry has them all: cdm, cdm7, cdm6, json, csv, markdown, svg */
	assert_true(formats >= 7);
}

/* every fixture against the NVMe report, every layout, aggregate and metric */
static void test_every_compare(void **state)
{
	static const enum cdm_compare_format layouts[] = { CDM_COMPARE_TEXT, CDM_COMPARE_MARKDOWN,
							    CDM_COMPARE_SVG };
	static const enum cdm_compare_metric metrics[] = { CDM_COMPARE_MB_S, CDM_COMPARE_IOPS,
							    CDM_COMPARE_LAT };
	char names[NFIX_MAX][256], what[512];
	unsigned int n = fixture_names(names);
	struct cdm_run_result *nvme = fixture("cdm8-default-nvme-1.txt");

	(void)state;
	for (unsigned int i = 0; i < n; i++) {
		struct cdm_run_result *runs[2] = { nvme, fixture(names[i]) };

		for (unsigned int a = 0; a < 3; a++) {
			for (unsigned int m = 0; m < 3; m++) {
				struct cdm_compare c;

				assert_int_equal(cdm_compare_init(&c, runs, 2, aggs[a], metrics[m], NULL), 0);
				for (unsigned int l = 0; l < 3; l++) {
					char *out = unit_render_compare(&c, layouts[l]);

					snprintf(what, sizeof(what), "compare %.255s (%u/%u/%u)", names[i], a, m, l);
					no_nan(out, what);
					free(out);
				}
				cdm_compare_free(&c);
			}
		}
		cdm_result_free(runs[1]);
	}
	cdm_result_free(nvme);
}

/* the one median: odd and even counts, unsorted input sorted in place, none */
static void test_median(void **state)
{
	double odd[] = { 9.5, 1.0, 4.0 }, even[] = { 8.0, 2.0, 6.0, 4.0 }, one[] = { 3.25 };

	(void)state;
	assert_true(cdm_result_median(odd, 3) == 4.0);
	assert_true(odd[0] == 1.0 && odd[1] == 4.0 && odd[2] == 9.5);
	assert_true(cdm_result_median(even, 4) == 5.0);
	assert_true(even[0] == 2.0 && even[3] == 8.0);
	assert_true(cdm_result_median(one, 1) == 3.25);
	assert_true(isnan(cdm_result_median(one, 0)));
}

/*
 * under the median an imported report has no figures: the Markdown rows
 * and the card's cells say so ("best only", as compare does) and the note
 * names why, once; the figures are not printed as anything else
 */
static void test_median_absent(void **state)
{
	struct cdm_run_result *r = fixture("cdm8-default-nvme-1.txt");
	char *md, *svg, *text;

	(void)state;
	r->aggregate = CDM_AGG_MEDIAN;
	md = unit_render_with(cdm_report_find("markdown"), r);
	assert_non_null(strstr(md, "| SEQ1M Q8T1 Read | \xe2\x80\x93 | \xe2\x80\x93 | \xe2\x80\x93 | \xe2\x80\x93 | best only |\n"));
	assert_non_null(strstr(md, "has only its best-of figures"));
	assert_null(strstr(md, "804.157"));
	svg = unit_render_with(cdm_report_find("svg"), r);
	assert_null(strstr(svg, "class=\"mbs\""));
	assert_null(strstr(svg, "class=\"iops\""));
	assert_non_null(strstr(svg, ">best only</text>"));
	assert_non_null(strstr(svg, "has only its best-of figures"));
	assert_null(strstr(svg, "804.16"));
	text = unit_render_with(cdm_report_find("cdm"), r);
	assert_non_null(strstr(text, "  SEQ    1MiB (Q=  8, T= 1):         - MB/s [        - IOPS] <        - us>\n"));
	free(md);
	free(svg);
	free(text);
	/* the best: the report's figures */
	r->aggregate = CDM_AGG_BEST;
	md = unit_render_with(cdm_report_find("markdown"), r);
	assert_non_null(strstr(md, "| SEQ1M Q8T1 Read | 804.157 | 766.9 | 10402.77 |"));
	assert_null(strstr(md, "best only"));
	free(md);
	cdm_result_free(r);
}


/*
 * a run @label of one test, RND4K Q1T1 Read, with @n passes of 1 s at
 * @mb_s[i] MB/s (4 KiB I/Os; 50 us each)
 */
static struct cdm_run_result *run_of(const char *label, unsigned int n, const double *mb_s)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_test_result *t;

	assert_non_null(r);
	snprintf(r->info.label, sizeof(r->info.label), "%s", label);
	snprintf(r->info.target, sizeof(r->info.target), "/mnt/x");
	snprintf(r->info.engine, sizeof(r->info.engine), "io_uring");
	snprintf(r->info.version, sizeof(r->info.version), "0.1.0");
	r->info.count = n;
	r->info.time_ms = 1000;
	r->info.size = 1ull << 30;
	r->info.direct = 1;
	r->cv_threshold_pct = 10.0;
	t = &r->tests[0];
	t->spec = (struct cdm_spec){ .pattern = CDM_RND, .block = 4096, .qd = 1, .threads = 1 };
	t->qd_run = 1;
	t->dir = CDM_DIR_READ;
	for (unsigned int i = 0; i < n; i++) {
		uint64_t ios = (uint64_t)(mb_s[i] * 1e6 / 4096.0);

		t->passes[i] = (struct cdm_pass){ .seconds = 1.0, .bytes = ios * 4096, .ios = ios,
						  .lat_sum_ns = ios * 50000, .lat_max_ns = 100000 };
	}
	t->npasses = n;
	return r;
}

/*
 * the words under the Markdown table follow what is there: a CDM 6 report
 * prints no latency (and no IOPS on its sequential rows), a CDM 8 report
 * both; a run of one pass is not "the highest of 1 passes", in any format
 */
static void test_notes_follow(void **state)
{
	struct cdm_run_result *r = fixture("cdm6-default-sdcard-1.txt");
	static const double one[] = { 100.0 };
	char *md;

	(void)state;
	md = unit_render_with(cdm_report_find("markdown"), r);
	assert_null(strstr(md, "lowest mean latency"));
	assert_null(strstr(md, "latency the lowest"));
	assert_non_null(strstr(md, "the highest MB/s (it prints no latency) of its passes"));
	assert_non_null(strstr(md, "(MB/s the highest; it prints no latency, as CrystalDiskMark prints them)"));
	assert_non_null(strstr(md, "IOPS as printed, and where it prints none derived from the MB/s"));
	free(md);
	cdm_result_free(r);
	r = fixture("cdm8-default-nvme-1.txt");
	md = unit_render_with(cdm_report_find("markdown"), r);
	assert_non_null(strstr(md, "the highest MB/s and the lowest mean latency of its passes; IOPS as printed;"));
	assert_non_null(strstr(md, "(MB/s the highest, latency the lowest, as CrystalDiskMark prints them)"));
	free(md);
	cdm_result_free(r);
	r = run_of("ONE", 1, one);
	for (unsigned int a = 0; a < 3; a++) {
		r->aggregate = aggs[a];
		for (unsigned int k = 0; cdm_report_at(k); k++) {
			char *out = unit_render_with(cdm_report_at(k), r);

			if (has_word(out, "1 passes") || strstr(out, " 1 passes"))
				fail_msg("--format %s: \"1 passes\"", cdm_report_at(k)->name);
			free(out);
		}
	}
	md = unit_render_with(cdm_report_find("markdown"), r);
	assert_non_null(strstr(md, "\nMB/s and latency: of the one pass (its mean latency); "));
	assert_non_null(strstr(md, "1 pass of 1 s"));
	free(md);
	cdm_result_free(r);
}

/*
 * a text compare cuts a label wider than its column with an ellipsis, at a
 * character boundary, and keeps the columns aligned by what they show
 */
static void test_compare_cut(void **state)
{
	static const double mb[] = { 100.0, 100.0 };
	struct cdm_run_result *runs[2] = {
		run_of("Crucial P2 2TB @ PCIe 2.0 x2", 2, mb),
		run_of("\xc3\x9c" "ber-l\xc3\xa4ngliches Etikett f\xc3\xbcr eine Platte", 2, mb),
	};
	struct cdm_compare c;
	char *text, *head, *row;

	(void)state;
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_MB_S, NULL), 0);
	text = unit_render_compare(&c, CDM_COMPARE_TEXT);
	assert_non_null(strstr(text, "; ratio to Crucial P2 2TB @ PCIe 2\xe2\x80\xa6\n"));
	head = strstr(text, "\n[Read] ");
	assert_non_null(head);
	assert_non_null(strstr(head, " Crucial P2 2TB @ PCIe 2\xe2\x80\xa6  \xc3\x9c" "ber-l\xc3\xa4ngliches Etikett\xe2\x80\xa6 ratio\n"));
	/* the value column ends where its label ends, counted in characters */
	row = strstr(head, "\n  RND    4KiB");
	assert_non_null(row);
	{
		const char *lbl_end = strstr(head, "\xe2\x80\xa6  ") + 3, *val_end = strstr(row, "100.000") + 7;
		unsigned int hc = 0, rc = 0;

		for (const char *p = head + 1; p < lbl_end; p++)
			hc += ((unsigned char)*p & 0xc0) != 0x80;
		for (const char *p = row + 1; p < val_end; p++)
			rc += ((unsigned char)*p & 0xc0) != 0x80;
		assert_int_equal(hc, rc);
	}
	free(text);
	cdm_compare_free(&c);
	cdm_result_free(runs[0]);
	cdm_result_free(runs[1]);
}

/*
 * "unstable" reads true: a CV of 10.02 % against --cv-threshold 10 shows
 * as 10.02, not 10.0; a CV that is not above it never shows above it
 */
static void test_cv_digits(void **state)
{
	/* two passes whose sample CV is 10.02 %: sqrt(2) |a - b| / (a + b) */
	double x = 0.1002 / 1.41421356237, mb[2] = { 1000.0, 1000.0 * (1 + x) / (1 - x) };
	struct cdm_run_result *r = run_of("CV", 2, mb);
	struct cdm_test_summary s;
	char buf[32], *md;
	double cv = 0;

	(void)state;
	assert_string_equal(cdm_fmt_cv(buf, sizeof(buf), 10.04, 10.0), "10.04");
	assert_string_equal(cdm_fmt_cv(buf, sizeof(buf), 10.4, 10.0), "10.4");
	assert_string_equal(cdm_fmt_cv(buf, sizeof(buf), 10.0, 10.0), "10.0");
	assert_string_equal(cdm_fmt_cv(buf, sizeof(buf), 9.96, 9.97), "9.96");
	assert_string_equal(cdm_fmt_cv(buf, sizeof(buf), 10.000001, 10.0), "10.000001");
	assert_string_equal(cdm_fmt_cv(buf, sizeof(buf), 3.14159, 10.0), "3.1");
	cdm_result_summarize(&r->tests[0], &s);
	assert_true(s.mb_s.cv_pct > 10.0 && s.mb_s.cv_pct < 10.05);
	assert_true(cdm_result_unstable(&r->tests[0], 10.0, &cv));
	md = unit_render_with(cdm_report_find("markdown"), r);
	assert_non_null(strstr(md, "| \xc2\xb1" "10.02 % \xe2\x9a\xa0 |"));
	assert_non_null(strstr(md, "unstable: spread above 10 %."));
	free(md);
	cdm_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_format),
		cmocka_unit_test(test_every_compare),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_median_absent),
		cmocka_unit_test(test_notes_follow),
		cmocka_unit_test(test_compare_cut),
		cmocka_unit_test(test_cv_digits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
