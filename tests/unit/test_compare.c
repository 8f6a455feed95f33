/* SPDX-License-Identifier: MIT */
/*
 * test_compare.c - `cdm compare`: results written by the JSON formatter,
 * read back by the result reader (result_read.c, as compare reads them),
 * compared (model/compare.c) and printed (report/compare_table.c), against
 * golden files (tests/fixtures/compare-*): two runs (LOCAL, SAN) and three
 * runs with a test only some have (shown as missing) and settings that
 * differ (listed at the top).  Then the cells on their own, and every kind
 * of input compare must refuse with a clear reason: not JSON, truncated,
 * foreign JSON, a newer schema, a cdm result with a field of the wrong
 * type, an empty or missing file.
 *
 * Run from the repository root, or set CDM_SRCDIR to it; CDM_UPDATE_GOLDEN=1
 * rewrites the golden files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cdm/model/compare.h"
#include "cdm/model/result.h"
#include "cdm/model/settings.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/report/compare_table.h"
#include "cdm/report/report.h"
#include "unit.h"

#define MIB (1024ull * 1024)
#define KIB 1024ull

/* users.md's LOCAL/SAN figures (MB/s) for 4 tests; 0 = test not run */
static struct cdm_run_result *build(const char *label, time_t start, const double mb[4],
				    const char *engine, uint64_t size)
{
	static const struct cdm_spec specs[4] = {
		{ .pattern = CDM_SEQ, .block = MIB, .qd = 8, .threads = 1 },
		{ .pattern = CDM_RND, .block = 4 * KIB, .qd = 32, .threads = 16 },
		{ .pattern = CDM_SEQ, .block = MIB, .qd = 8, .threads = 1 },
		{ .pattern = CDM_RND, .block = 16 * KIB, .qd = 32, .threads = 16 },
	};
	struct cdm_run_result *r;
	unsigned int i, k, n = 0;

	for (i = 0; i < 4; i++)
		n += mb[i] > 0;
	r = cdm_result_alloc(n);
	assert_non_null(r);
	snprintf(r->info.version, sizeof(r->info.version), "0.1.0");
	snprintf(r->info.engine, sizeof(r->info.engine), "%s", engine);
	snprintf(r->info.label, sizeof(r->info.label), "%s", label);
	snprintf(r->info.target, sizeof(r->info.target), "/mnt/%s", label);
	snprintf(r->info.fs_type, sizeof(r->info.fs_type), "ext4");
	r->info.size = size;
	r->info.count = 5;
	r->info.time_ms = 5000;
	r->info.direct = 1;
	r->info.start = start;
	for (i = 0, n = 0; i < 4; i++) {
		struct cdm_test_result *t;

		if (!(mb[i] > 0))
			continue;
		t = &r->tests[n++];
		t->spec = specs[i];
		t->dir = i < 2 ? CDM_DIR_READ : CDM_DIR_WRITE;
		t->qd_run = specs[i].qd;
		for (k = 0; k < 5; k++) {
			/* passes at 100 %, 98 %, 96 %, 94 %, 92 % of the best */
			double rate = mb[i] * 1e6 * (1.0 - 0.02 * k);
			struct cdm_pass *p = &t->passes[k];

			p->seconds = 5.0;
			p->ios = (uint64_t)(rate * 5.0 / (double)specs[i].block + 0.5);
			p->bytes = p->ios * specs[i].block;
			p->lat_sum_ns = p->ios * 1000000;
		}
		t->npasses = 5;
		cdm_hist_add(t->hist, 1000000);
	}
	return r;
}

/* @r through the JSON formatter and back, as compare reads it */
static struct cdm_run_result *to_run(struct cdm_run_result *r)
{
	struct cdm_run_result *back;
	struct cdm_err err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cdm_report_find("json")->write(f, r), 0);
	assert_int_equal(fclose(f), 0);
	if (cdm_result_read(buf, len, CDM_RESULT_READ_AGGREGATE, &back, &err))
		fail_msg("%s", err.msg);
	free(buf);
	cdm_result_free(r);
	return back;
}

static void free_runs(struct cdm_run_result **runs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		cdm_result_free(runs[i]);
}

static char *render_with(struct cdm_run_result *const *runs, unsigned int n,
			 enum cdm_compare_format format, enum cdm_aggregate agg,
			 enum cdm_compare_metric metric)
{
	struct cdm_compare c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cdm_compare_init(&c, runs, n, agg, metric, NULL), 0);
	assert_int_equal(cdm_compare_table_write(f, &c, format), 0);
	assert_int_equal(fclose(f), 0);
	cdm_compare_free(&c);
	return buf;
}

static char *render(struct cdm_run_result *const *runs, unsigned int n, int markdown)
{
	return render_with(runs, n, markdown ? CDM_COMPARE_MARKDOWN : CDM_COMPARE_TEXT,
			   CDM_AGG_BEST, CDM_COMPARE_MB_S);
}

/* the settings that differ, as compare lists them */
static unsigned int mismatch(struct cdm_run_result *const *runs, unsigned int n,
			     char *list, size_t len)
{
	struct cdm_compare c;
	unsigned int found;

	assert_int_equal(cdm_compare_init(&c, runs, n, CDM_AGG_BEST, CDM_COMPARE_MB_S, NULL), 0);
	found = cdm_compare_mismatch(&c, list, len);
	cdm_compare_free(&c);
	return found;
}

static const double local22[4] = { 649.0, 144.4, 589.5, 407.5 };
static const double san22[4] = { 403.7, 59.9, 248.1, 23.4 };
static const double san08[4] = { 212.5, 0, 199.9, 87.0 };    /* RND4K read missing */

static void test_two_runs(void **state)
{
	struct cdm_run_result *runs[2];
	char list[64], *out;

	(void)state;
	runs[0] = to_run(build("LOCAL", 1796065200, local22, "io_uring", 1024 * MIB));
	runs[1] = to_run(build("SAN", 1796065800, san22, "io_uring", 1024 * MIB));
	assert_int_equal(mismatch(runs, 2, list, sizeof(list)), 0);
	assert_string_equal(list, "");
	out = render(runs, 2, 0);
	/* whole 1 MiB I/Os: 649.069 and 403.702 MB/s; 0.622 */
	assert_non_null(strstr(out, "  SEQ    1MiB (Q=  8, T= 1):      649.069       403.702 0.62x\n"));
	assert_null(strstr(out, "Warning"));
	unit_golden(out, "compare-2.txt");
	free(out);
	out = render(runs, 2, 1);
	assert_non_null(strstr(out, "| SEQ1M Q8T1 Read | 649.069 | 403.702 | 0.62x |\n"));
	free(out);
	free_runs(runs, 2);
}

static void test_three_runs_missing_and_mismatch(void **state)
{
	struct cdm_run_result *runs[3];
	char list[64], *out;

	(void)state;
	runs[0] = to_run(build("LOCAL 22:00", 1796065200, local22, "io_uring", 1024 * MIB));
	runs[1] = to_run(build("SAN 22:00", 1796065800, san22, "io_uring", 1024 * MIB));
	runs[2] = to_run(build("SAN 08:00", 1796108400, san08, "libaio", 512 * MIB));
	/* SAN 08:00 lacks a test the others have: "tests" too */
	assert_int_equal(mismatch(runs, 3, list, sizeof(list)), 3);
	assert_string_equal(list, "size, engine, tests");

	out = render(runs, 3, 0);
	assert_non_null(strstr(out, "Warning: the runs were measured with different settings"));
	assert_non_null(strstr(out, "  size: LOCAL 22:00 1 GiB, SAN 22:00 1 GiB, SAN 08:00 512 MiB\n"));
	assert_non_null(strstr(out, "  engine: LOCAL 22:00 io_uring, SAN 22:00 io_uring, SAN 08:00 libaio\n"));
	assert_non_null(strstr(out, "  tests: LOCAL 22:00 4 tests, SAN 22:00 4 tests (4 in common), SAN 08:00 3 tests (3 in common)\n"));
	assert_non_null(strstr(out, "  RND    4KiB (Q= 32, T=16):      144.400        59.900 0.41x       missing\n"));
	unit_golden(out, "compare-3.txt");
	free(out);

	out = render(runs, 3, 1);
	assert_non_null(strstr(out, "| Test | LOCAL 22:00 | SAN 22:00 | SAN 22:00 / LOCAL 22:00 | SAN 08:00 | SAN 08:00 / LOCAL 22:00 |\n"));
	assert_non_null(strstr(out, "| RND4K Q32T16 Read | 144.400 | 59.900 | 0.41x | missing | \xe2\x80\x93 |\n"));
	assert_non_null(strstr(out, "> **Warning:**"));
	unit_golden(out, "compare-3.md");
	free(out);
	free_runs(runs, 3);
}

static void test_metric_and_aggregate(void **state)
{
	struct cdm_run_result *runs[2];
	char *buf;

	(void)state;
	runs[0] = to_run(build("A", 0, local22, "sync", MIB));
	runs[1] = to_run(build("B", 0, local22, "sync", MIB));
	buf = render_with(runs, 2, CDM_COMPARE_TEXT, CDM_AGG_MEDIAN, CDM_COMPARE_IOPS);
	/* median pass: 96 % of 649 MB/s in 1 MiB I/Os = 594.2 IOPS */
	assert_non_null(strstr(buf, "cdm compare: IOPS, the median of the passes"));
	assert_non_null(strstr(buf, "594.2"));
	assert_non_null(strstr(buf, " 1.00x"));
	free(buf);
	/* latency: 1 ms per I/O in every pass; "best" is the lowest */
	buf = render_with(runs, 2, CDM_COMPARE_TEXT, CDM_AGG_BEST, CDM_COMPARE_LAT);
	assert_non_null(strstr(buf, "cdm compare: mean latency (us), the lowest of the passes"));
	assert_non_null(strstr(buf, "1000.00"));
	free(buf);
	free_runs(runs, 2);
}

/*
 * A run a thousand times slower than the first: its figures and ratios are
 * above 0 and never print as 0 ("0.00x", "0.000"), in either format.
 */
static void test_tiny_not_zero(void **state)
{
	static const double slow[4] = { 0.5, 0.0008, 0.5, 0.5 };
	struct cdm_run_result *runs[2], *r;
	char *out;

	(void)state;
	runs[0] = to_run(build("FAST", 0, local22, "sync", 1024 * MIB));
	r = build("SLOW", 0, slow, "sync", 1024 * MIB);
	/* RND4K read: one 4 KiB I/O in each 50 s pass, 0.00008 MB/s */
	for (unsigned int k = 0; k < r->tests[1].npasses; k++)
		r->tests[1].passes[k].seconds = 50.0;
	runs[1] = to_run(r);
	for (int md = 0; md < 2; md++) {
		out = render(runs, 2, md);
		assert_null(strstr(out, "0.00x"));
		assert_null(strstr(out, " 0.000 "));
		assert_null(strstr(out, "| 0.000 |"));
		/* SEQ1M read: 2 MiB in 5 s, 0.419 MB/s, 0.00065 of 649.069 */
		assert_non_null(strstr(out, md ? "| 0.419 | <0.01x |" : "0.419 <0.01x\n"));
		assert_non_null(strstr(out, md ? "| <0.001 | <0.01x |" : "<0.001 <0.01x\n"));
		free(out);
	}
	free_runs(runs, 2);
}

/* the cells as figures: missing, not measured, measured with a ratio */
static void test_cells(void **state)
{
	static const double half[4] = { 324.5, 0, 0, 0 };
	struct cdm_run_result *runs[3];
	struct cdm_compare c;
	struct cdm_compare_cell cell;

	(void)state;
	runs[0] = to_run(build("A", 0, local22, "sync", MIB));
	runs[1] = to_run(build("B", 0, half, "sync", MIB));
	runs[2] = to_run(build("C", 0, local22, "sync", MIB));
	runs[2]->tests[0].npasses = 0;
	assert_int_equal(cdm_compare_init(&c, runs, 3, CDM_AGG_BEST, CDM_COMPARE_MB_S, NULL), 0);
	/* reads first (SEQ1M, RND4K), then writes (SEQ1M, RND16K) */
	assert_int_equal(c.nrows, 4);
	assert_int_equal(c.rows[0].key->dir, CDM_DIR_READ);
	assert_int_equal(c.rows[2].key->dir, CDM_DIR_WRITE);
	assert_int_equal(c.rows[1].at[1], -1);
	cdm_compare_cell(&c, 0, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_MEASURED);
	assert_int_equal(cell.has_ratio, 1);
	assert_true(cell.ratio > 0.49 && cell.ratio < 0.51);
	cdm_compare_cell(&c, 1, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_MISSING);
	cdm_compare_cell(&c, 0, 2, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_NOT_MEASURED);
	cdm_compare_cell(&c, 0, 0, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_MEASURED);
	assert_int_equal(cell.has_ratio, 0);
	assert_true(cell.value == cdm_result_best_mb_s(&runs[0]->tests[0]));
	assert_string_equal(cdm_settings_find("data")->compare.name, "data");
	cdm_compare_free(&c);
	assert_int_equal(cdm_compare_init(&c, runs, 0, CDM_AGG_BEST, CDM_COMPARE_MB_S, NULL), -EINVAL);
	cdm_compare_free(&c);
	free_runs(runs, 3);
}

/* @b's value of @s made other than @a's: a flag turned, a number one more */
static void set_other(const struct cdm_setting *s, struct cdm_run_info *b)
{
	uint64_t v = cdm_settings_info_u64(s, b);

	if (s->type == CDM_SETTING_TEXT) {
		snprintf(cdm_settings_info_at(s, b), s->size, "other");
		return;
	}
	if (s->type == CDM_SETTING_BOOL || s->type == CDM_SETTING_DATA ||
	    s->type == CDM_SETTING_STEADY || s->type == CDM_SETTING_PRECOND)
		cdm_settings_info_set_u64(s, b, !v);
	else
		cdm_settings_info_set_u64(s, b, v + 1000);
}

/* each compared setting of the table, differing alone, is the one named */
static void test_each_setting_named(void **state)
{
	struct cdm_run_result *runs[2];
	unsigned int nnamed = 0;
	char list[64], want[64], *out;

	(void)state;
	for (const struct cdm_setting *s = cdm_compare_next(NULL); s; s = cdm_compare_next(s)) {
		runs[0] = build("a", 1000, local22, "io_uring", 1024 * MIB);
		runs[1] = build("b", 2000, s == &cdm_compare_tests ? san08 : local22, "io_uring",
				1024 * MIB);
		assert_non_null(s->compare.name);
		if (s != &cdm_compare_tests)
			set_other(s, &runs[1]->info);
		assert_int_equal(mismatch(runs, 2, list, sizeof(list)), 1);
		assert_string_equal(list, s->compare.name);
		/* and the warning's line of it, in the text and in Markdown */
		out = render(runs, 2, 0);
		snprintf(want, sizeof(want), "\n  %s: a ", s->compare.name);
		if (!strstr(out, want))
			fail_msg("%s: no line \"%s\" in\n%s", s->key, want + 1, out);
		free(out);
		out = render(runs, 2, 1);
		snprintf(want, sizeof(want), "\n> - %s: a ", s->compare.name);
		if (!strstr(out, want))
			fail_msg("%s: no line \"%s\" in\n%s", s->key, want + 1, out);
		free(out);
		free_runs(runs, 2);
		nnamed++;
	}
	/* size, count, time, engine, direct, data, end_fsync, steady_state, precondition, tests */
	assert_int_equal(nnamed, 10);

	/* with steady state the rounds replace the count: runs do not differ in it */
	runs[0] = build("a", 1000, local22, "io_uring", 1024 * MIB);
	runs[1] = build("b", 2000, local22, "io_uring", 1024 * MIB);
	runs[0]->info.steady_state = runs[1]->info.steady_state = 1;
	runs[0]->info.max_rounds = runs[1]->info.max_rounds = 25;
	runs[1]->info.count = 3;
	assert_int_equal(mismatch(runs, 2, list, sizeof(list)), 0);
	/* but in their most rounds */
	runs[1]->info.max_rounds = 10;
	assert_int_equal(mismatch(runs, 2, list, sizeof(list)), 1);
	assert_string_equal(list, "steady_state");
	/* cut to the buffer, the count whole */
	runs[1]->info.direct = 0;
	runs[1]->info.size = MIB;
	assert_int_equal(mismatch(runs, 2, list, 8), 3);
	assert_string_equal(list, "size, d");
	free_runs(runs, 2);
}

/* @text refused with @ret and a reason containing @why */
static void refuse(const char *text, int ret, const char *why)
{
	struct cdm_run_result *run;
	struct cdm_err err = { "" };
	int got = cdm_result_read(text, strlen(text), CDM_RESULT_READ_AGGREGATE, &run, &err);

	assert_null(run);
	if (got != ret || !strstr(err.msg, why))
		fail_msg("got %d '%s', want %d '%s'", got, err.msg, ret, why);
}

static void test_bad_inputs(void **state)
{
	struct cdm_run_result *run;
	struct cdm_err err;
	char *good, *p, *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	refuse("", -EINVAL, "empty file");
	refuse("hello", -EINVAL, "not JSON: line 1, column 1");
	refuse("{\"tool\": \"cdm\",\n \"schema_version\": 1,, }", -EINVAL, "not JSON: line 2, column 22");
	refuse("{\"tool\": \"cdm\", \"schema_version\": 1, \"label\": \"x", -EINVAL, "truncated JSON");
	refuse("[1, 2, 3]", -EINVAL, "not a cdm result");
	refuse("{\"name\": \"fio\", \"jobs\": []}", -EINVAL, "not a cdm result");
	refuse("{\"tool\": \"fio\", \"schema_version\": 1}", -EINVAL, "not a cdm result");
	refuse("{\"tool\": \"cdm\", \"schema_version\": 4}", -EPROTONOSUPPORT,
	       "schema_version 4 is newer than this cdm reads (3)");
	refuse("{\"tool\": \"cdm\", \"schema_version\": \"1\"}", -EINVAL, "schema_version");
	refuse("{\"tool\": \"cdm\", \"schema_version\": 1}", -EINVAL, "not a valid cdm result: result: no \"label\"");
	/* a sweep's saved points: said so, not "no label" */
	refuse("{\"schema_version\": 2, \"tool\": \"cdm\", \"kind\": \"sweep\", \"curves\": []}", -EINVAL,
	       "a cdm sweep result (cdm sweep --save), not a run's (cdm --save)");

	/* a real result with one field of the wrong type */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	{
		struct cdm_run_result *r = build("X", 0, local22, "sync", MIB);

		assert_int_equal(cdm_report_find("json")->write(f, r), 0);
		cdm_result_free(r);
	}
	fclose(f);
	good = buf;
	assert_int_equal(cdm_result_read(good, len, CDM_RESULT_READ_AGGREGATE, &run, &err), 0);
	cdm_result_free(run);
	p = strstr(good, "\"block_bytes\": 1048576");
	assert_non_null(p);
	memcpy(p + 15, "\"10485\"", 7);
	refuse(good, -EINVAL, "tests[0].block_bytes: expected number, found string");
	free(buf);

	assert_int_equal(cdm_result_load_file("/nonexistent/x.json", NULL,
					      CDM_RESULT_READ_AGGREGATE, &run, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "No such file"));
	assert_int_equal(cdm_result_load_file("/", NULL, CDM_RESULT_READ_AGGREGATE, &run, &err) < 0, 1);
	assert_non_null(strstr(err.msg, "read error"));
}

/* a run @label with one test @dir (RND4K Q32T1, W30 for Mix) of 2 passes */
static struct cdm_run_result *one_test(const char *label, enum cdm_dir dir, uint64_t ios)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_test_result *t = &r->tests[0];

	assert_non_null(r);
	snprintf(r->info.label, sizeof(r->info.label), "%s", label);
	snprintf(r->info.engine, sizeof(r->info.engine), "null");
	r->info.count = 2;
	r->info.time_ms = 1000;
	r->info.size = 64 * MIB;
	r->info.start = 1796010078;
	t->spec = (struct cdm_spec){ .pattern = CDM_RND, .block = 4 * KIB, .qd = 32, .threads = 1,
				     .write_pct = dir == CDM_DIR_MIX ? 30 : 0 };
	t->dir = dir;
	t->qd_run = 32;
	for (unsigned int k = 0; k < 2; k++) {
		struct cdm_pass *p = &t->passes[k];

		p->seconds = 1.0;
		p->ios = ios;
		p->bytes = ios * 4 * KIB;
		p->lat_sum_ns = ios * 1000;
		/* a Mix: 70 % of the I/Os are reads */
		p->read_ios = dir == CDM_DIR_MIX ? ios * 7 / 10 : dir == CDM_DIR_READ ? ios : 0;
		p->read_bytes = p->read_ios * 4 * KIB;
		p->read_lat_sum_ns = p->read_ios * 1000;
		p->pending_max_ns = ios ? 0 : 1000000000;
	}
	t->npasses = 2;
	return r;
}

/*
 * Issue 12: two runs of `--mode mix --mix 70 -t RND4K` side by side, as
 * Read and Write are: a [Mix] section, the test's row, its reads and its
 * writes, each with a ratio; never "(no tests in these results)".
 */
static void test_mix_side_by_side(void **state)
{
	struct cdm_run_result *runs[2];
	struct cdm_compare c;
	struct cdm_compare_cell cell;
	char *out;

	(void)state;
	runs[0] = to_run(one_test("A", CDM_DIR_MIX, 1000));
	runs[1] = to_run(one_test("B", CDM_DIR_MIX, 2000));
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_MB_S, NULL), 0);
	assert_int_equal(c.nrows, 3);
	assert_int_equal(c.rows[1].part, CDM_PART_READS);
	cdm_compare_cell(&c, 0, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_MEASURED);
	assert_true(cell.value == 2000 * 4096 / 1e6);
	assert_true(cell.has_ratio && cell.ratio == 2.0);
	cdm_compare_cell(&c, 1, 0, &cell);
	assert_true(cell.value == 700 * 4096 / 1e6);             /* the reads */
	cdm_compare_cell(&c, 2, 1, &cell);
	assert_true(cell.value == 600 * 4096 / 1e6 && cell.ratio == 2.0);     /* the writes */
	cdm_compare_free(&c);
	/* --metric iops: each part its own I/Os, not the whole test's */
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_IOPS, NULL), 0);
	cdm_compare_cell(&c, 0, 0, &cell);
	assert_true(cell.value == 1000.0);
	cdm_compare_cell(&c, 1, 0, &cell);
	assert_true(cell.value == 700.0);
	cdm_compare_cell(&c, 2, 1, &cell);
	assert_true(cell.value == 600.0 && cell.ratio == 2.0);
	cdm_compare_free(&c);

	out = render(runs, 2, 0);
	assert_non_null(strstr(out, "[Mix] Read 70%/Write 30%                A             B ratio\n"
				    "  RND    4KiB (Q= 32, T= 1):        4.096         8.192 2.00x\n"
				    "                      reads:        2.867         5.734 2.00x\n"
				    "                     writes:        1.229         2.458 2.00x\n"));
	assert_null(strstr(out, "no tests"));
	assert_null(strstr(out, "Not compared"));
	free(out);
	out = render(runs, 2, 1);
	assert_non_null(strstr(out, "| RND4K Q32T1 W30 Mix | 4.096 | 8.192 | 2.00x |\n"
				    "| RND4K Q32T1 W30 Mix (reads) | 2.867 | 5.734 | 2.00x |\n"
				    "| RND4K Q32T1 W30 Mix (writes) | 1.229 | 2.458 | 2.00x |\n"));
	free(out);
	free_runs(runs, 2);

	/* a Mix run against a read run: both sections, and what was not compared */
	runs[0] = to_run(one_test("MIX", CDM_DIR_MIX, 1000));
	runs[1] = to_run(one_test("RD", CDM_DIR_READ, 1000));
	out = render(runs, 2, 0);
	assert_non_null(strstr(out, "[Read]"));
	assert_non_null(strstr(out, "[Mix] Read 70%/Write 30%"));
	assert_non_null(strstr(out, "Not compared:\n"
				    "  RND4K Q32T1 Read: MIX has no such test; no ratios to MIX\n"
				    "  RND4K Q32T1 W30 Mix: RD has no such test\n"));
	assert_null(strstr(out, "no tests"));
	free(out);
	free_runs(runs, 2);

	/* a run saved without the parts (parts_unknown): its part cells say so */
	runs[0] = to_run(one_test("A", CDM_DIR_MIX, 1000));
	runs[1] = to_run(one_test("OLD", CDM_DIR_MIX, 1000));
	runs[1]->tests[0].parts_unknown = 1;
	out = render(runs, 2, 0);
	assert_non_null(strstr(out, "                      reads:        2.867      no parts\n"));
	assert_non_null(strstr(out, "  RND4K Q32T1 W30 Mix (reads): OLD was saved without a Mix test's read and write parts"));
	free(out);
	free_runs(runs, 2);
}

/*
 * Issue 12: a run that measured nothing (no I/O completed in its passes)
 * has no figure and no ratio, in either place; the report says why.
 */
static void test_nothing_no_ratio(void **state)
{
	struct cdm_run_result *runs[2];
	struct cdm_compare c;
	struct cdm_compare_cell cell;
	char *out;

	(void)state;
	runs[0] = to_run(one_test("OK", CDM_DIR_READ, 1000));
	runs[1] = to_run(one_test("STALL", CDM_DIR_READ, 0));
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_IOPS, NULL), 0);
	cdm_compare_cell(&c, 0, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_NOTHING);
	assert_false(cell.has_ratio);
	assert_int_equal(cell.noratio, CDM_COMPARE_RATIO_SELF);
	cdm_compare_free(&c);
	out = render(runs, 2, 0);
	assert_non_null(strstr(out, "  RND    4KiB (Q= 32, T= 1):        4.096        no I/O\n"));
	assert_non_null(strstr(out, "  RND4K Q32T1 Read: STALL measured nothing: no I/O completed in any of its 2 passes of 1 s; "
				    "the slowest I/O in flight had waited 1.0 s\n"));
	free(out);
	free_runs(runs, 2);

	runs[0] = to_run(one_test("STALL", CDM_DIR_READ, 0));
	runs[1] = to_run(one_test("OK", CDM_DIR_READ, 1000));
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_MEDIAN, CDM_COMPARE_LAT, NULL), 0);
	cdm_compare_cell(&c, 0, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_MEASURED);
	assert_true(cell.value == 1.0);
	assert_false(cell.has_ratio);
	assert_int_equal(cell.noratio, CDM_COMPARE_RATIO_BASE);
	cdm_compare_free(&c);
	out = render(runs, 2, 1);
	assert_non_null(strstr(out, "| RND4K Q32T1 Read | no I/O | 4.096 | \xe2\x80\x93 |\n"));
	assert_non_null(strstr(out, "; no ratios to STALL\n"));
	free(out);
	free_runs(runs, 2);
}

/*
 * Files of schema_version 1 (cdm before issue 12, tests/fixtures/
 * result-v1-*.json) still read: a Mix run with its parts, and a stalled run
 * whose pass says "mb_s": 0, which reads back as nothing measured.
 */
static void test_schema_1(void **state)
{
	struct cdm_run_result *runs[3];
	struct cdm_err err;
	char path[512], *out;
	const char *dir = getenv("CDM_SRCDIR");
	static const char *const files[] = { "result-v1-mix-A.json", "result-v1-mix-B.json",
					     "result-v1-stall.json" };

	(void)state;
	for (unsigned int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/tests/fixtures/%s", dir && *dir ? dir : ".", files[i]);
		if (cdm_result_load_file(path, NULL, CDM_RESULT_READ_AGGREGATE, &runs[i], &err))
			fail_msg("%s: %s", path, err.msg);
	}
	assert_int_equal(runs[0]->tests[0].dir, CDM_DIR_MIX);
	assert_int_equal(runs[0]->tests[0].parts_unknown, 0);
	assert_int_equal(cdm_result_state(&runs[2]->tests[0]), CDM_PASS_NO_IO);
	assert_true(isnan(cdm_result_mb_s(&runs[2]->tests[0], CDM_AGG_BEST)));
	out = render(runs, 3, 0);
	assert_non_null(strstr(out, "                      reads:"));
	assert_non_null(strstr(out, "no I/O"));
	assert_null(strstr(out, " 0.000"));
	free(out);
	free_runs(runs, 3);
}

/* @r with a loop device with direct I/O off under its target (target/stack.h) */
static struct cdm_run_result *on_loop(struct cdm_run_result *r)
{
	struct cdm_mem_under *f = &r->info.mem_under[0];

	snprintf(f->kind, sizeof(f->kind), "loop_page_cache");
	snprintf(f->layer, sizeof(f->layer), "loop0");
	snprintf(f->stack, sizeof(f->stack), "/mnt/SAN (ext4) > loop0");
	snprintf(f->why, sizeof(f->why),
		 "loop0 reads its backing file /img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed");
	snprintf(f->fix, sizeof(f->fix), "losetup --direct-io=on /dev/loop0 turns loop direct I/O on");
	r->info.nmem_under = 1;
	return r;
}

/*
 * Issue 12, 7: a run with memory under its target (read back from its JSON)
 * gets a marker beside its ratio and a line saying what is under it.
 */
static void test_memory_under(void **state)
{
	struct cdm_run_result *runs[2], *run;
	struct cdm_err err;
	char *out, *p, *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	runs[0] = to_run(build("LOCAL", 1796065200, local22, "io_uring", 1024 * MIB));
	runs[1] = to_run(on_loop(build("SAN", 1796065800, san22, "io_uring", 1024 * MIB)));
	assert_int_equal(runs[0]->info.nmem_under, 0);
	assert_int_equal(runs[1]->info.nmem_under, 1);
	assert_string_equal(runs[1]->info.mem_under[0].kind, "loop_page_cache");
	assert_string_equal(runs[1]->info.mem_under[0].stack, "/mnt/SAN (ext4) > loop0");
	out = render(runs, 2, 0);
	assert_non_null(strstr(out, "  SEQ    1MiB (Q=  8, T= 1):      649.069        403.702 0.62x*\n"));
	assert_non_null(strstr(out, "\n* SAN: memory under its target: loop0 reads its backing file /img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed [stack: /mnt/SAN (ext4) > loop0]\n"));
	free(out);
	out = render(runs, 2, 1);
	assert_non_null(strstr(out, "| SEQ1M Q8T1 Read | 649.069 | 403.702 | 0.62x \\* |\n"));
	assert_non_null(strstr(out, "> \\* SAN: memory under its target: loop0 reads"));
	free(out);
	/* the base run has it: the marker is beside its figure */
	run = runs[0];
	runs[0] = runs[1];
	runs[1] = run;
	out = render(runs, 2, 1);
	assert_non_null(strstr(out, "| SEQ1M Q8T1 Read | 403.702 \\* | 649.069 | 1.61x |\n"));
	free(out);
	free_runs(runs, 2);

	/* absent or null: nothing under it; another type is refused */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	{
		struct cdm_run_result *r = build("X", 0, local22, "sync", MIB);

		assert_int_equal(cdm_report_find("json")->write(f, r), 0);
		cdm_result_free(r);
	}
	fclose(f);
	p = strstr(buf, "\"memory_under\": []");
	assert_non_null(p);
	memcpy(p, "\"memory_unde_\"", 14);
	assert_int_equal(cdm_result_read(buf, len, CDM_RESULT_READ_AGGREGATE, &run, &err), 0);
	assert_int_equal(run->info.nmem_under, 0);
	cdm_result_free(run);
	memcpy(p, "\"memory_under\": 7 ", 18);
	refuse(buf, -EINVAL, "target.memory_under: expected array, found number");
	memcpy(p, "\"memory_under\": [7]", 19);
	refuse(buf, -EINVAL, "target.memory_under[0]: expected object, found number");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_runs),
		cmocka_unit_test(test_three_runs_missing_and_mismatch),
		cmocka_unit_test(test_each_setting_named),
		cmocka_unit_test(test_metric_and_aggregate),
		cmocka_unit_test(test_tiny_not_zero),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_mix_side_by_side),
		cmocka_unit_test(test_nothing_no_ratio),
		cmocka_unit_test(test_schema_1),
		cmocka_unit_test(test_memory_under),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
