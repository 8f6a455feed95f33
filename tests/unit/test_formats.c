/* SPDX-License-Identifier: MIT */
/*
 * test_formats.c - the JSON, CSV and Markdown formatters against golden
 * files made from fixed numbers (tests/fixtures/formats.*), plus what a
 * golden file cannot show on its own: the spread of the passes (median,
 * mean, sample stdev, CV), --aggregate in the text report (IOPS still
 * derived from the MB/s shown), the JSON of an interrupted run and of a
 * run stopped before any test (valid, percentiles null), the JSON round
 * trip through the result reader as compare uses it (same figures,
 * exactly), escaping of
 * hostile strings, CSV quoting, and the atomic --save.
 *
 * Run from the repository root, or set CDM_SRCDIR to it.  Set
 * CDM_UPDATE_GOLDEN=1 to rewrite the golden files (then read the diff).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cdm/model/compare.h"
#include "cdm/base/json.h"
#include "cdm/plan/profile.h"
#include "cdm/format/result_read.h"
#include "cdm/model/series.h"
#include "cdm/report/plot.h"
#include "cdm/report/report.h"
#include "cdm/report/sweep_table.h"
#include "cdm/format/findings.h"
#include "cdm/format/sweep_json.h"
#include "cdm/target/outfile.h"
#include "unit.h"
#include "cdm/model/result.h"

#define MIB (1024ull * 1024)
#define KIB 1024ull
#define T_START ((time_t)1796010078)    /* 2026/11/30 3:41:18 UTC */

static void set_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

static void set_pass(struct cdm_test_result *t, unsigned int i, double seconds,
		     uint64_t bytes, uint64_t ios, uint64_t lat_ns)
{
	struct cdm_pass *p = &t->passes[i];

	p->seconds = seconds;
	p->bytes = bytes;
	p->ios = ios;
	p->lat_sum_ns = ios * lat_ns;
	p->lat_max_ns = lat_ns * 3;
	p->cpu_user_ns = ios * 100;
	p->cpu_sys_ns = ios * 900;
	p->proc_user_ns = ios * 120;
	p->proc_sys_ns = ios * 1000;
	if (t->npasses < i + 1)
		t->npasses = i + 1;
}

/* a merged histogram whose I/Os took @lat_ns, and every 100th 10x that */
static void fill_hist(struct cdm_test_result *t, uint64_t lat_ns)
{
	uint64_t i, n = 0;

	for (i = 0; i < t->npasses; i++)
		n += t->passes[i].ios;
	for (i = 0; i < n; i++)
		cdm_hist_add(t->hist, i % 100 == 99 ? lat_ns * 10 : lat_ns + (i % 7) * 1000);
}

/*
 * LOCAL, 3 passes: SEQ1M Q8T1 read steady, RND4K Q32T1 read unstable
 * (CV ~ 24 %), SEQ1M Q8T1 write interrupted after 1 pass (no histogram),
 * RND4K Q32T1 write never reached.  The label and comment hold characters
 * every format must escape.
 */
static struct cdm_run_result *build(void)
{
	struct cdm_run_result *r = cdm_result_alloc(4);
	struct cdm_run_info *in;
	struct cdm_test_result *t;

	assert_non_null(r);
	in = &r->info;
	set_str(in->version, sizeof(in->version), "0.1.0");
	set_str(in->engine, sizeof(in->engine), "io_uring");
	set_str(in->profile, sizeof(in->profile), "Default");
	set_str(in->target, sizeof(in->target), "/mnt/local/bench");
	set_str(in->mount_point, sizeof(in->mount_point), "/mnt/local");
	set_str(in->fs_type, sizeof(in->fs_type), "ext4");
	set_str(in->fs_source, sizeof(in->fs_source), "/dev/nvme0n1p2");
	set_str(in->dev_name, sizeof(in->dev_name), "nvme0n1");
	set_str(in->dev_model, sizeof(in->dev_model), "Samsung SSD 980 PRO 1TB");
	in->dev_rotational = CDM_ROT_NO;
	set_str(in->dev_scheduler, sizeof(in->dev_scheduler), "none");
	set_str(in->cpu_model, sizeof(in->cpu_model), "AMD EPYC 7B13");
	in->cpus_online = 4;
	in->cpus_allowed = 2;
	in->mem_total_bytes = 16697434112ull;   /* 15.6 GiB */
	in->fs_total_bytes = 1000204886016ull;
	in->fs_used_bytes = 960000000000ull;
	in->fs_avail_bytes = 40204886016ull;
	in->size = 1024 * MIB;
	in->count = 3;
	in->time_ms = 5000;
	in->interval_ms = 5000;
	in->warmup_ms = 5000;
	in->direct = 1;
	in->admin = 1;
	in->start = T_START;
	set_str(in->os, sizeof(in->os), "Debian GNU/Linux 12 (bookworm)");
	set_str(in->kernel, sizeof(in->kernel), "6.1.0-28-amd64");
	set_str(in->machine, sizeof(in->machine), "x86_64");
	set_str(in->label, sizeof(in->label), "LOCAL \"nvme\", a|b");
	set_str(in->comment, sizeof(in->comment), "22:00 *run*");

	t = &r->tests[0];
	t->spec = (struct cdm_spec){ .pattern = CDM_SEQ, .block = MIB, .qd = 8, .threads = 1 };
	t->dir = CDM_DIR_READ;
	t->qd_run = 8;
	set_pass(t, 0, 5.0, 5000 * MIB, 5000, 8000000);
	set_pass(t, 1, 5.0, 4900 * MIB, 4900, 8100000);
	set_pass(t, 2, 5.0, 5100 * MIB, 5100, 7900000);
	fill_hist(t, 8000000);

	t = &r->tests[1];
	t->spec = (struct cdm_spec){ .pattern = CDM_RND, .block = 4 * KIB, .qd = 32, .threads = 1 };
	t->dir = CDM_DIR_READ;
	t->qd_run = 32;
	set_pass(t, 0, 5.0, 500000 * 4 * KIB, 500000, 320000);
	set_pass(t, 1, 5.0, 300000 * 4 * KIB, 300000, 530000);
	set_pass(t, 2, 5.0, 400000 * 4 * KIB, 400000, 400000);
	fill_hist(t, 400000);

	t = &r->tests[2];
	t->spec = (struct cdm_spec){ .pattern = CDM_SEQ, .block = MIB, .qd = 8, .threads = 1 };
	t->dir = CDM_DIR_WRITE;
	t->qd_run = 8;
	set_pass(t, 0, 5.0, 2000 * MIB, 2000, 20000000);

	t = &r->tests[3];
	t->spec = (struct cdm_spec){ .pattern = CDM_RND, .block = 4 * KIB, .qd = 32, .threads = 1 };
	t->dir = CDM_DIR_WRITE;
	t->qd_run = 32;
	r->interrupted = SIGINT;
	return r;
}

static void test_golden(void **state)
{
	struct cdm_run_result *r = build();
	char *out;

	(void)state;
	out = unit_render("json", r);
	unit_golden(out, "formats.json");
	free(out);
	out = unit_render("csv", r);
	unit_golden(out, "formats.csv");
	free(out);
	out = unit_render("markdown", r);
	unit_golden(out, "formats.md");
	free(out);
	r->aggregate = CDM_AGG_MEDIAN;
	out = unit_render("cdm", r);
	unit_golden(out, "formats-median.txt");
	free(out);
	cdm_result_free(r);
}

static void test_spread(void **state)
{
	struct cdm_run_result *r = build();
	struct cdm_test_summary s;
	double cv = 0;

	(void)state;
	cdm_result_summarize(&r->tests[1], &s);
	/* 409.6, 245.76, 327.68 MB/s */
	assert_int_equal(s.npasses, 3);
	assert_true(s.mb_s.max == 500000 * 4096 / 5.0 / 1e6);
	assert_true(s.mb_s.min == 300000 * 4096 / 5.0 / 1e6);
	assert_true(s.mb_s.median == 400000 * 4096 / 5.0 / 1e6);
	assert_float_equal(s.mb_s.mean, 327.68, 1e-9);
	/* sample stdev of 409.6, 245.76, 327.68 is 81.92 */
	assert_float_equal(s.mb_s.stdev, 81.92, 1e-9);
	assert_float_equal(s.mb_s.cv_pct, 25.0, 1e-9);
	assert_true(s.lat_ns.min == 320000.0);
	assert_true(s.lat_ns.median == 400000.0);
	assert_int_equal(s.ios, 1200000);
	assert_true(cdm_result_unstable(&r->tests[1], 10.0, &cv));
	assert_float_equal(cv, 25.0, 1e-9);
	assert_false(cdm_result_unstable(&r->tests[1], 25.5, NULL));
	assert_false(cdm_result_unstable(&r->tests[0], 10.0, NULL));
	/* one pass: never unstable, stdev 0 */
	assert_false(cdm_result_unstable(&r->tests[2], 0.0, NULL));
	cdm_result_summarize(&r->tests[3], &s);
	assert_int_equal(s.mb_s.n, 0);
	assert_true(s.mb_s.max == 0.0);

	/* median of an even count: mean of the middle two */
	r->tests[1].npasses = 2;
	cdm_result_summarize(&r->tests[1], &s);
	assert_float_equal(s.mb_s.median, (409.6 + 245.76) / 2, 1e-9);

	/* aggregates per metric */
	r->tests[1].npasses = 3;
	assert_true(cdm_result_mb_s(&r->tests[1], CDM_AGG_BEST) == cdm_result_best_mb_s(&r->tests[1]));
	assert_true(cdm_result_lat_us(&r->tests[1], CDM_AGG_BEST) == 320.0);
	assert_true(cdm_result_lat_us(&r->tests[1], CDM_AGG_MEDIAN) == 400.0);
	assert_float_equal(cdm_result_lat_us(&r->tests[1], CDM_AGG_MEAN), 416.6666666, 1e-6);
	cdm_result_free(r);
}

static void test_aggregate_parse(void **state)
{
	enum cdm_aggregate a = CDM_AGG_MEAN;

	(void)state;
	assert_int_equal(cdm_result_aggregate_parse("best", &a), 0);
	assert_int_equal(a, CDM_AGG_BEST);
	assert_int_equal(cdm_result_aggregate_parse("median", &a), 0);
	assert_int_equal(a, CDM_AGG_MEDIAN);
	assert_int_equal(cdm_result_aggregate_parse("mean", &a), 0);
	assert_int_equal(a, CDM_AGG_MEAN);
	assert_int_equal(cdm_result_aggregate_parse("max", &a), -EINVAL);
	assert_int_equal(cdm_result_aggregate_parse("", &a), -EINVAL);
	assert_string_equal(cdm_result_aggregate_name(CDM_AGG_MEDIAN), "median");
}

/* JSON text parses with cdm's strict reader; returns the tree */
static struct cdm_json *parse_ok(const char *text)
{
	struct cdm_json_error e;
	struct cdm_json *root = NULL;
	int ret = cdm_json_parse(text, strlen(text), &root, &e);

	if (ret)
		fail_msg("invalid JSON (%d) at %u:%u: %s\n%s", ret, e.line, e.column, e.msg, text);
	return root;
}

static void test_json_interrupted_and_empty(void **state)
{
	struct cdm_run_result *r = build();
	const struct cdm_json *t;
	struct cdm_json *root;
	char *out;

	(void)state;
	out = unit_render("json", r);
	root = parse_ok(out);
	assert_int_equal(cdm_json_get(root, "interrupted")->type, CDM_JSON_TRUE);
	assert_int_equal(cdm_json_get(root, "interrupted_signal")->u64, SIGINT);
	t = &cdm_json_get(root, "tests")->items[2];
	assert_int_equal(cdm_json_get(t, "passes_completed")->u64, 1);
	assert_int_equal(cdm_json_get(t, "complete")->type, CDM_JSON_FALSE);
	assert_int_equal(cdm_json_get(t, "latency")->type, CDM_JSON_NULL);
	assert_int_equal(cdm_json_get(t, "histogram")->type, CDM_JSON_NULL);
	t = &cdm_json_get(root, "tests")->items[3];
	assert_int_equal(cdm_json_get(t, "passes")->n, 0);
	assert_int_equal(cdm_json_get(cdm_json_get(t, "summary"), "mb_s")->type, CDM_JSON_NULL);
	cdm_json_free(root);
	free(out);

	/* stopped before any test finished: still valid, and readable by compare */
	for (unsigned int i = 0; i < r->ntests; i++)
		r->tests[i].npasses = 0, cdm_hist_init(r->tests[i].hist);
	out = unit_render("json", r);
	cdm_json_free(parse_ok(out));
	free(out);
	cdm_result_free(r);

	/* no tests and no info at all */
	r = cdm_result_alloc(0);
	assert_non_null(r);
	out = unit_render("json", r);
	root = parse_ok(out);
	assert_int_equal(cdm_json_get(root, "tests")->n, 0);
	assert_int_equal(cdm_json_get(root, "schema_version")->u64, CDM_JSON_SCHEMA_VERSION);
	cdm_json_free(root);
	free(out);
	out = unit_render("csv", r);
	assert_int_equal(strchr(out, '\n') - out + 1, (long)strlen(out));
	free(out);
	out = unit_render("markdown", r);
	assert_non_null(strstr(out, "(no test measured)"));
	free(out);
	cdm_result_free(r);
}

/* the number at @key of @obj */
static double jnum(const struct cdm_json *obj, const char *key)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	assert_non_null(v);
	assert_int_equal(v->type, CDM_JSON_NUMBER);
	return v->num;
}

/*
 * A Mix test in JSON: its percentages, the read and write parts of each
 * pass and of the summary (from the counts: they add up to the whole), the
 * fdatasync counts and the requested and achieved rate; CSV and Markdown
 * name it with its write percentage.  Compare shows it with its parts.
 */
static void test_json_mix_parts(void **state)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_test_result *t;
	const struct cdm_json *jt, *part, *pass;
	struct cdm_json *root;
	struct cdm_run_result *back;
	struct cdm_compare cmp;
	struct cdm_err err;
	char *out;

	(void)state;
	assert_non_null(r);
	r->ntests = 1;
	r->info.count = 2;
	r->info.time_ms = 2000;            /* a run cdm measured states its time and size */
	r->info.size = 64ull << 20;
	r->info.fsync_every = 4;
	r->info.rate_iops = 500;
	t = &r->tests[0];
	t->spec.pattern = CDM_RND;
	t->spec.block = 4096;
	t->spec.qd = 4;
	t->spec.threads = 2;
	t->spec.write_pct = 30;
	t->dir = CDM_DIR_MIX;
	t->qd_run = 4;
	/* pass 1: 700 reads of 100 us, 300 writes of 300 us, in 2 s */
	set_pass(t, 0, 2.0, 1000 * 4096ull, 1000, 0);
	t->passes[0].lat_sum_ns = 700 * 100000ull + 300 * 300000ull;
	t->passes[0].read_bytes = 700 * 4096ull;
	t->passes[0].read_ios = 700;
	t->passes[0].read_lat_sum_ns = 700 * 100000ull;
	t->passes[0].fsyncs = 75;
	t->passes[0].fsync_sum_ns = 75 * 2000000ull;
	t->passes[0].fsync_max_ns = 9000000;
	/* pass 2: no write at all (lat_mean_ns of the write part is null) */
	set_pass(t, 1, 2.0, 1000 * 4096ull, 1000, 100000);
	t->passes[1].read_bytes = 1000 * 4096ull;
	t->passes[1].read_ios = 1000;
	t->passes[1].read_lat_sum_ns = 1000 * 100000ull;

	out = unit_render("json", r);
	root = parse_ok(out);
	assert_int_equal(cdm_json_get(cdm_json_get(root, "settings"), "fsync_every")->u64, 4);
	assert_int_equal(cdm_json_get(cdm_json_get(root, "settings"), "rate_iops")->u64, 500);
	jt = &cdm_json_get(root, "tests")->items[0];
	assert_string_equal(cdm_json_get(jt, "name")->str, "RND4K Q4T2 W30");
	assert_string_equal(cdm_json_get(jt, "direction")->str, "mix");
	assert_int_equal(cdm_json_get(jt, "read_pct")->u64, 70);
	assert_int_equal(cdm_json_get(jt, "write_pct")->u64, 30);
	pass = &cdm_json_get(jt, "passes")->items[0];
	part = cdm_json_get(pass, "read");
	assert_int_equal(cdm_json_get(part, "ios")->u64, 700);
	assert_true(jnum(part, "iops") == 350.0);
	assert_true(jnum(part, "mb_s") == 700 * 4096 / 2.0 / 1e6);
	assert_true(jnum(part, "lat_mean_ns") == 100000.0);
	part = cdm_json_get(pass, "write");
	assert_int_equal(cdm_json_get(part, "ios")->u64, 300);
	assert_int_equal(cdm_json_get(part, "bytes")->u64, 300 * 4096);
	assert_true(jnum(part, "lat_mean_ns") == 300000.0);
	assert_int_equal(cdm_json_get(cdm_json_get(pass, "fsync"), "count")->u64, 75);
	assert_true(jnum(cdm_json_get(pass, "fsync"), "mean_ns") == 2000000.0);
	pass = &cdm_json_get(jt, "passes")->items[1];
	assert_int_equal(cdm_json_get(cdm_json_get(pass, "write"), "lat_mean_ns")->type, CDM_JSON_NULL);
	assert_int_equal(cdm_json_get(cdm_json_get(pass, "fsync"), "mean_ns")->type, CDM_JSON_NULL);
	part = cdm_json_get(cdm_json_get(jt, "summary"), "read");
	assert_int_equal(cdm_json_get(part, "ios")->u64, 1700);
	assert_true(jnum(part, "iops") == 425.0);
	part = cdm_json_get(cdm_json_get(jt, "summary"), "write");
	assert_int_equal(cdm_json_get(part, "ios")->u64, 300);
	assert_true(jnum(part, "iops") == 75.0);
	assert_int_equal(cdm_json_get(cdm_json_get(cdm_json_get(jt, "summary"), "fsync"), "count")->u64, 75);
	assert_int_equal(cdm_json_get(cdm_json_get(jt, "summary"), "rate_iops_requested")->u64, 500);
	assert_true(jnum(cdm_json_get(jt, "summary"), "rate_iops_achieved") == 500.0);
	cdm_json_free(root);

	/* compare reads the file: the Mix test and its read and write parts */
	assert_int_equal(cdm_result_read(out, strlen(out), CDM_RESULT_READ_AGGREGATE, &back, &err), 0);
	assert_int_equal(back->ntests, 1);
	assert_int_equal(back->tests[0].dir, CDM_DIR_MIX);
	assert_int_equal(back->tests[0].spec.write_pct, 30);
	assert_int_equal(back->tests[0].parts_unknown, 0);
	assert_int_equal(cdm_compare_init(&cmp, &back, 1, CDM_AGG_BEST, CDM_COMPARE_MB_S, &err), 0);
	assert_int_equal(cmp.nrows, 3);
	assert_int_equal(cmp.rows[0].part, CDM_PART_ALL);
	assert_int_equal(cmp.rows[1].part, CDM_PART_READS);
	assert_int_equal(cmp.rows[2].part, CDM_PART_WRITES);
	cdm_compare_free(&cmp);
	cdm_result_free(back);
	free(out);

	out = unit_render("csv", r);
	assert_non_null(strstr(out, ",RND4K Q4T2 W30,mix,RND,4096,2,4,4,pass,1,"));
	free(out);
	out = unit_render("markdown", r);
	assert_non_null(strstr(out, "| RND4K Q4T2 W30 Mix | "));
	free(out);
	cdm_result_free(r);
}

/* the same figure, or both none (NaN: nothing measured) */
static int same_figure(double a, double b)
{
	return a == b || (a != a && b != b);
}

/* write JSON, read it back as compare reads it: the same figures, exactly */
static void test_round_trip(void **state)
{
	static const enum cdm_aggregate aggs[] = { CDM_AGG_BEST, CDM_AGG_MEDIAN, CDM_AGG_MEAN };
	static const enum cdm_compare_metric metrics[] = {
		CDM_COMPARE_MB_S, CDM_COMPARE_IOPS, CDM_COMPARE_LAT,
	};
	struct cdm_run_result *r = build(), *back;
	struct cdm_err err;
	char *out;
	unsigned int i, a, m;

	(void)state;
	out = unit_render("json", r);
	if (cdm_result_read(out, strlen(out), CDM_RESULT_READ_AGGREGATE, &back, &err))
		fail_msg("compare cannot read the JSON: %s", err.msg);
	assert_string_equal(back->info.label, r->info.label);
	assert_true(back->info.size == r->info.size);
	assert_int_equal(back->info.count, r->info.count);
	assert_int_equal(back->info.time_ms, r->info.time_ms);
	assert_string_equal(back->info.engine, "io_uring");
	assert_int_equal(back->info.direct, 1);
	assert_int_equal(back->interrupted, r->interrupted);
	assert_true(back->info.start == r->info.start);
	assert_int_equal(back->ntests, r->ntests);
	for (i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i], *c = &back->tests[i];
		char name[64], again[64];

		cdm_spec_name(&t->spec, name, sizeof(name));
		cdm_spec_name(&c->spec, again, sizeof(again));
		assert_string_equal(again, name);
		assert_int_equal(c->dir, t->dir);
		assert_int_equal(c->qd_run, t->qd_run);
		assert_int_equal(c->npasses, t->npasses);
		/* exactly: the JSON numbers are printed to round-trip */
		for (a = 0; a < 3; a++)
			for (m = 0; m < 3; m++)
				assert_true(same_figure(cdm_compare_figure(c, aggs[a], metrics[m]),
							cdm_compare_figure(t, aggs[a], metrics[m])));
		assert_int_equal(cdm_result_has_percentiles(c), cdm_result_has_percentiles(t));
		if (cdm_result_has_percentiles(t))
			assert_true(cdm_hist_percentile(c->hist, 99.0) ==
				    cdm_hist_percentile(t->hist, 99.0));
	}
	cdm_result_free(back);
	free(out);
	cdm_result_free(r);
}

/*
 * times of fractions of a second: written as seconds with their decimals
 * ("time_s": 0.5), read back to the same ms; a whole second as before
 * ("time_s": 5); more than 3 decimals, an exponent or a sign refused
 */
static void test_round_trip_fractions(void **state)
{
	static const char *const refused[] = { "0.1234", "5e-1", "-0.5", "\"0.5\"" };
	struct cdm_run_result *r = build(), *back;
	struct cdm_err err;
	char *out, *p, *spoilt;

	(void)state;
	r->info.time_ms = 500;
	r->info.interval_ms = 1250;
	r->info.warmup_ms = 100;
	out = unit_render("json", r);
	assert_non_null(strstr(out, "    \"time_s\": 0.5,\n"));
	assert_non_null(strstr(out, "    \"interval_s\": 1.25,\n"));
	assert_non_null(strstr(out, "    \"warmup_s\": 0.1,\n"));
	if (cdm_result_read(out, strlen(out), 0, &back, &err))
		fail_msg("cannot read the JSON back: %s", err.msg);
	assert_int_equal(back->info.time_ms, 500);
	assert_int_equal(back->info.interval_ms, 1250);
	assert_int_equal(back->info.warmup_ms, 100);
	cdm_result_free(back);
	for (unsigned int i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		spoilt = malloc(strlen(out) + 16);
		assert_non_null(spoilt);
		p = strstr(out, "\"time_s\": 0.5");
		assert_non_null(p);
		sprintf(spoilt, "%.*s\"time_s\": %s%s", (int)(p - out), out, refused[i],
			p + strlen("\"time_s\": 0.5"));
		assert_int_equal(cdm_result_read(spoilt, strlen(spoilt), 0, &back, &err), -EINVAL);
		if (!strstr(err.msg, "settings.time_s: expected"))
			fail_msg("time_s %s: %s", refused[i], err.msg);
		free(spoilt);
	}
	free(out);
	/* whole seconds: integers, as before cdm took fractions */
	r->info.time_ms = 5000;
	r->info.interval_ms = 0;
	r->info.warmup_ms = 3600000;
	out = unit_render("json", r);
	assert_non_null(strstr(out, "    \"time_s\": 5,\n"));
	assert_non_null(strstr(out, "    \"interval_s\": 0,\n"));
	assert_non_null(strstr(out, "    \"warmup_s\": 3600,\n"));
	free(out);
	r->info.warmup_ms = 3600001;
	out = unit_render("json", r);
	assert_int_equal(cdm_result_read(out, strlen(out), 0, &back, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "settings.warmup_s: 3600.001 is above 3600"));
	free(out);
	cdm_result_free(r);
}

/* the histogram's sparse buckets add up to the merged histogram, exactly */
static void test_json_histogram(void **state)
{
	struct cdm_run_result *r = build();
	const struct cdm_json *h, *b;
	struct cdm_json *root;
	struct cdm_hist back;
	uint64_t total = 0;
	char *out;
	size_t i;

	(void)state;
	out = unit_render("json", r);
	root = parse_ok(out);
	h = cdm_json_get(&cdm_json_get(root, "tests")->items[1], "histogram");
	assert_non_null(h);
	b = cdm_json_get(h, "buckets");
	assert_non_null(b);
	cdm_hist_init(&back);
	for (i = 0; i < b->n; i++) {
		uint64_t lo = cdm_json_get(&b->items[i], "low_ns")->u64;
		uint64_t hi = cdm_json_get(&b->items[i], "high_ns")->u64;
		uint64_t n = cdm_json_get(&b->items[i], "count")->u64;
		unsigned int idx = cdm_hist_index(lo);

		assert_int_equal(idx, cdm_hist_index(hi));
		back.buckets[idx] += n;
		total += n;
	}
	assert_true(total == r->tests[1].hist->count);
	assert_memory_equal(back.buckets, r->tests[1].hist->buckets, sizeof(back.buckets));
	cdm_json_free(root);
	free(out);
	cdm_result_free(r);
}

/* bytes that are not UTF-8, control characters, quotes: still valid JSON */
static void test_hostile_strings(void **state)
{
	struct cdm_run_result *r = build();
	const struct cdm_json *v;
	struct cdm_json *root;
	char *out;

	(void)state;
	set_str(r->info.target, sizeof(r->info.target), "/mnt/\xff\xfe\"x\\y\x01\n\tz\xc3\xa9");
	set_str(r->info.label, sizeof(r->info.label), "a,b \"c\"\nd");
	out = unit_render("json", r);
	root = parse_ok(out);
	v = cdm_json_get(cdm_json_get(root, "target"), "path");
	assert_string_equal(v->str, "/mnt/\xef\xbf\xbd\xef\xbf\xbd\"x\\y\x01\n\tz\xc3\xa9");
	cdm_json_free(root);
	free(out);

	/* CSV: RFC 4180 quoting of the label, quotes doubled */
	out = unit_render("csv", r);
	assert_non_null(strstr(out, "\n\"a,b \"\"c\"\"\nd\",SEQ1M Q8T1,read,"));
	free(out);

	/* the sweep JSON escapes its strings too: the target and a curve's test */
	{
		struct cdm_sweep *sw = calloc(1, sizeof(*sw));
		size_t len = 0;
		FILE *fp;

		assert_non_null(sw);
		sw->vary = CDM_SWEEP_THREADS;
		sw->res = r;
		sw->ncurves = 1;
		set_str(sw->curves[0].test, sizeof(sw->curves[0].test), "RND4K \"Q1\\\n");
		sw->curves[0].dir = CDM_DIR_WRITE;
		sw->curves[0].knee = -1;
		fp = open_memstream(&out, &len);
		assert_non_null(fp);
		assert_int_equal(cdm_sweep_json_write(fp, sw), 0);
		fclose(fp);
		root = parse_ok(out);
		v = cdm_json_get(root, "curves");
		assert_int_equal(v->n, 1);
		v = &v->items[0];
		assert_string_equal(cdm_json_get(v, "test")->str, "RND4K \"Q1\\\n");
		assert_string_equal(cdm_json_get(v, "direction")->str, "write");
		v = cdm_json_get(cdm_json_get(root, "target"), "path");
		assert_string_equal(v->str, "/mnt/\xef\xbf\xbd\xef\xbf\xbd\"x\\y\x01\n\tz\xc3\xa9");
		cdm_json_free(root);
		/* and reads back (cdm report): the texts made one line, as every result's */
		{
			struct cdm_sweep *back = NULL;
			struct cdm_err err;

			assert_int_equal(cdm_sweep_json_read(out, len, &back, &err), -EINVAL);
			assert_non_null(strstr(err.msg, "curves[0].points: 0 points, not 1..16"));
			sw->curves[0].npts = 1;
			sw->curves[0].pts[0] = (struct cdm_sweep_point){ .threads = 1, .qd = 1,
									 .state = CDM_PASS_NO_IO };
			free(out);
			fp = open_memstream(&out, &len);
			assert_non_null(fp);
			assert_int_equal(cdm_sweep_json_write(fp, sw), 0);
			fclose(fp);
			assert_int_equal(cdm_sweep_json_read(out, len, &back, &err), 0);
			assert_int_equal(back->ncurves, 1);
			assert_string_equal(back->curves[0].test, "RND4K \"Q1\\ ");
			assert_int_equal(back->curves[0].dir, CDM_DIR_WRITE);
			assert_int_equal(back->curves[0].pts[0].state, CDM_PASS_NO_IO);
			assert_false(back->curves[0].pts[0].ok);
			assert_int_equal(back->curves[0].knee, -1);
			assert_int_equal(back->vary, CDM_SWEEP_THREADS);
			assert_non_null(strstr(back->res->info.target, "/mnt/"));
			assert_null(strchr(back->res->info.target, '\n'));
			cdm_sweep_json_free(back);
			/* a run's JSON is not a sweep's: read it as a result */
			free(out);
			out = unit_render("json", r);
			assert_int_equal(cdm_sweep_json_read(out, strlen(out), &back, &err), -ENOMSG);
			assert_null(back);
		}
		free(out);
		free(sw);
	}

	/* Markdown: the label cannot break the table or start markup */
	set_str(r->info.label, sizeof(r->info.label), "x|y *z* [l](u)");
	out = unit_render("markdown", r);
	assert_non_null(strstr(out, "**cdm: x\\|y \\*z\\* \\[l\\](u)**"));
	free(out);
	cdm_result_free(r);
}

/* the sweep's knee and ceiling lines name the load as a phrase: "1 thread" */
static char *sweep_table(struct cdm_sweep *sw)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	assert_non_null(fp);
	assert_int_equal(cdm_sweep_table_table(fp, sw, 0), 0);
	fclose(fp);
	return out;
}

static void test_sweep_load_words(void **state)
{
	struct cdm_run_result *r = build();
	struct cdm_sweep *sw = calloc(1, sizeof(*sw));
	struct cdm_sweep_curve *cv;
	char *out;

	(void)state;
	assert_non_null(sw);
	sw->res = r;
	sw->ncurves = 1;
	cv = &sw->curves[0];
	set_str(cv->test, sizeof(cv->test), "RND4K Q1");
	cv->dir = CDM_DIR_READ;
	cv->npts = 2;
	for (unsigned int k = 0; k < 2; k++) {
		cv->pts[k] = (struct cdm_sweep_point){ .threads = 1 + k, .qd = 1 + 3 * k, .ok = 1,
						       .mb_s = 4.096, .iops = 1000, .lat_us = 1000 * (1 + k) };
	}
	cv->knee = 0;
	cv->block = 4096;
	cv->ceiling = (struct cdm_ceiling){ .found = 1, .from = 1, .level = 1000, .lat_ratio = 2,
					    .mb_s = 4.096, .iops = 1000 };
	sw->vary = CDM_SWEEP_THREADS;
	out = sweep_table(sw);
	assert_non_null(strstr(out, "  RND4K Q1 Read: knee at 1 thread (1000.0 IOPS, 1000.00 us)"));
	/* a block of 4 KiB: its ceiling in IOPS, the MB/s beside it */
	assert_non_null(strstr(out, "  RND4K Q1 Read: flat ceiling at 1,000 IOPS (4.1 MB/s) from 2 threads on"));
	free(out);
	sw->vary = CDM_SWEEP_QD;
	out = sweep_table(sw);
	assert_non_null(strstr(out, "  RND4K Q1 Read: knee at queue depth 1 (1000.0 IOPS"));
	assert_non_null(strstr(out, "flat ceiling at 1,000 IOPS (4.1 MB/s) from queue depth 4 on"));
	free(out);
	/* a block of 1 MiB: in MB/s, the IOPS beside it */
	set_str(cv->test, sizeof(cv->test), "SEQ1M Q1");
	cv->block = 1048576;
	cv->ceiling.mb_s = 200.0;
	cv->ceiling.iops = cv->ceiling.level = 200e6 / 1048576;
	out = sweep_table(sw);
	assert_non_null(strstr(out, "  SEQ1M Q1 Read: flat ceiling at 200.0 MB/s (190.7 IOPS) from queue depth 4 on"));
	free(out);
	free(sw);
	cdm_result_free(r);
}

/* a finding's level in its natural unit, the other beside it (format/findings.h) */
static void test_findings_level(void **state)
{
	static const struct {
		uint64_t block;
		double iops, mb_s;
		const char *text;
	} cases[] = {
		{ 4096, 5000, 20.48, "5,000 IOPS (20.5 MB/s)" },
		{ 4096, 4999.6, 20.4784, "5,000 IOPS (20.5 MB/s)" },
		{ 4096, 190.74, 0.78127, "190.7 IOPS (0.781 MB/s)" },
		{ 4096, 1234567.8, 5056.79, "1,234,568 IOPS (5,056.8 MB/s)" },
		{ 65536, 3051.76, 200.0, "3,052 IOPS (200.0 MB/s)" },        /* 64 KiB: still IOPS */
		{ 65536 + 512, 3028.1, 200.0, "200.0 MB/s (3,028 IOPS)" },
		{ 1048576, 190.73, 200.0, "200.0 MB/s (190.7 IOPS)" },
		{ 1048576, 1192.1, 1250.0, "1,250.0 MB/s (1,192 IOPS)" },
		{ 1048576, 999.4, 1048.0, "1,048.0 MB/s (999.4 IOPS)" },
		{ 4096, 0, 99.125, "99.1 MB/s" },                               /* IOPS not known */
		{ 0, 0, 99.125, "99.1 MB/s" },
		{ 1048576, 50, 0, "50.0 IOPS" },
		{ 0, 50, 52.4, "52.4 MB/s (50.0 IOPS)" },                       /* block not known */
	};
	char buf[CDM_FINDINGS_LEVEL_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(cdm_findings_level(buf, sizeof(buf), cases[i].block, cases[i].iops,
						       cases[i].mb_s), cases[i].text);
}

static void test_text_aggregate(void **state)
{
	struct cdm_run_result *r = build();
	char *best, *mean;

	(void)state;
	best = unit_render("cdm", r);
	assert_non_null(strstr(best, "  RND    4KiB (Q= 32, T= 1):   409.600 MB/s [ 100000.0 IOPS] <   320.00 us>\n"));
	r->aggregate = CDM_AGG_MEAN;
	mean = unit_render("cdm", r);
	/* 327.68 MB/s -> 80000.0 IOPS; mean latency (320+530+400)/3 us */
	assert_non_null(strstr(mean, "  RND    4KiB (Q= 32, T= 1):   327.680 MB/s [  80000.0 IOPS] <   416.67 us>\n"));
	free(best);
	free(mean);
	cdm_result_free(r);
}

/* a block device TARGET: the footer and JSON describe the device */
static void test_device_target(void **state)
{
	struct cdm_run_result *r = build();
	char *text, *json, *md;

	(void)state;
	snprintf(r->info.target, sizeof(r->info.target), "/dev/sdb");
	r->info.is_device = 1;
	r->info.target_dev_bytes = 1ull << 30;
	r->info.target_dev_lbs = 4096;
	text = unit_render("cdm", r);
	assert_non_null(strstr(text, "   Test: 1 GiB (x3) [/dev/sdb: block device, 1 GiB, 4096-byte sectors]\n"));
	json = unit_render("json", r);
	assert_non_null(strstr(json, "\"is_device\": true,\n"));
	assert_non_null(strstr(json, "\"device_bytes\": 1073741824,\n"));
	assert_non_null(strstr(json, "\"logical_block_bytes\": 4096,\n"));
	cdm_json_free(parse_ok(json));
	md = unit_render("markdown", r);
	assert_non_null(strstr(md, " (block device, 1 GiB, 4096-byte sectors)"));
	free(text);
	free(json);
	free(md);
	cdm_result_free(r);
}

/* the JSON formatter as target/outfile.h's writers take it (cli.c's --save) */
static int save_json(FILE *f, const void *arg)
{
	return cdm_report_find("json")->write(f, arg);
}

static int save(const char *path, const struct cdm_run_result *r)
{
	return cdm_outfile_write(path, save_json, r);
}

static void test_save_atomic(void **state)
{
	struct cdm_run_result *r = build();
	char dir[] = "/tmp/cdm-save-XXXXXX", path[256], *text;
	struct stat st;
	struct cdm_json *root;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(save(path, r), 0);
	text = unit_read_file(path, NULL);
	root = parse_ok(text);
	cdm_json_free(root);
	free(text);
	assert_int_equal(stat(path, &st), 0);
	assert_true((st.st_mode & 0444) != 0);

	/* a directory in the way: an error, and no temporary file left */
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_true(save(path, r) < 0);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(unlink(path), 0);
	/* the directory is empty again: rmdir fails otherwise */
	assert_int_equal(rmdir(dir), 0);

	/* a directory that does not exist */
	assert_int_equal(save("/nonexistent-cdm/r.json", r), -ENOENT);
	cdm_result_free(r);
}

static void test_write_errors(void **state)
{
	const struct cdm_formatter *fs[] = { cdm_report_find("json"), cdm_report_find("csv"), cdm_report_find("markdown") };
	struct cdm_run_result *r = build();
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		FILE *f = fopen("/dev/full", "w");

		if (!f)
			break;
		assert_int_equal(fs[i]->write(f, r), -EIO);
		fclose(f);
	}
	cdm_result_free(r);
}

/*
 * CSV's run columns of build_nothing()'s run, before "reason": no --fsync
 * figures, its settings (0 B, 3 passes of 1 s, the null engine, buffered,
 * random data, best, CV 10 %), its target (not a device, nothing else known)
 */
#define CSV_RUN_COLS ",,,,0,3,1,0,0,null,false,random,false,,,,,false,,,false,,best,10,,,,,,,false,,,,"

/*
 * Issue 12: tests in which no I/O completed, in every format.  A read test
 * with 3 empty passes, a write test with 1 of 3 passes measured, a Mix test
 * with nothing: JSON has null figures and a reason (schema 2), CSV empty
 * fields and the reason column, Markdown dashes and a line saying why, the
 * CDM text a row that says nothing was measured; the spreads are of the
 * measured passes only (the write test's median is its one pass, not 0).
 */
static struct cdm_run_result *build_nothing(void)
{
	struct cdm_run_result *r = cdm_result_alloc(3);
	struct cdm_test_result *t;
	unsigned int k, i;

	assert_non_null(r);
	set_str(r->info.label, sizeof(r->info.label), "STALL");
	set_str(r->info.engine, sizeof(r->info.engine), "null");
	r->info.count = 3;
	r->info.time_ms = 1000;
	r->info.start = T_START;
	for (i = 0; i < 3; i++) {
		t = &r->tests[i];
		t->spec.pattern = CDM_RND;
		t->spec.block = 4096;
		t->spec.qd = 1;
		t->spec.threads = 1;
		t->qd_run = 1;
		t->dir = i == 0 ? CDM_DIR_READ : i == 1 ? CDM_DIR_WRITE : CDM_DIR_MIX;
		t->spec.write_pct = i == 2 ? 30 : 0;
		for (k = 0; k < 3; k++) {
			set_pass(t, k, 1.0, 0, 0, 0);
			t->passes[k].pending_max_ns = 1000000000;
		}
	}
	/* the write test's first pass: 1000 I/Os of 1 ms in 1 s, 4.096 MB/s */
	set_pass(&r->tests[1], 0, 1.0, 1000 * 4096ull, 1000, 1000000);
	fill_hist(&r->tests[1], 1000000);
	return r;
}

static void test_nothing_measured(void **state)
{
	struct cdm_run_result *r = build_nothing();
	const struct cdm_json *tests, *t0, *t1, *t2, *p, *sm;
	struct cdm_json *root;
	char *out;

	(void)state;
	out = unit_render("json", r);
	root = parse_ok(out);
	assert_int_equal(cdm_json_get(root, "schema_version")->u64, 2);
	tests = cdm_json_get(root, "tests");
	t0 = &tests->items[0];
	t1 = &tests->items[1];
	t2 = &tests->items[2];
	assert_int_equal(cdm_json_get(t0, "passes_measured")->u64, 0);
	assert_string_equal(cdm_json_get(t0, "reason")->str,
			    "no I/O completed in any of its 3 passes of 1 s; the slowest I/O in flight had waited 1.0 s");
	p = &cdm_json_get(t0, "passes")->items[0];
	assert_int_equal(cdm_json_get(p, "mb_s")->type, CDM_JSON_NULL);
	assert_int_equal(cdm_json_get(p, "iops")->type, CDM_JSON_NULL);
	assert_int_equal(cdm_json_get(p, "lat_mean_ns")->type, CDM_JSON_NULL);
	assert_string_equal(cdm_json_get(p, "reason")->str, "no I/O completed");
	assert_int_equal(cdm_json_get(p, "pending_max_ns")->u64, 1000000000);
	sm = cdm_json_get(t0, "summary");
	assert_int_equal(cdm_json_get(sm, "mb_s")->type, CDM_JSON_NULL);
	assert_int_equal(cdm_json_get(sm, "iops")->type, CDM_JSON_NULL);
	assert_int_equal(cdm_json_get(sm, "lat_mean_ns")->type, CDM_JSON_NULL);
	/* the write test: figures of its one measured pass, no zeros in the spread */
	assert_int_equal(cdm_json_get(t1, "passes_measured")->u64, 1);
	assert_string_equal(cdm_json_get(t1, "reason")->str,
			    "no I/O completed in 2 of its 3 passes; the slowest I/O in flight had waited 1.0 s; its figures are from the other 1");
	assert_int_equal(cdm_json_get(&cdm_json_get(t1, "passes")->items[0], "reason")->type,
			 CDM_JSON_NULL);
	sm = cdm_json_get(cdm_json_get(t1, "summary"), "mb_s");
	assert_true(jnum(sm, "best") == 4.096 && jnum(sm, "median") == 4.096 &&
		    jnum(sm, "mean") == 4.096 && jnum(sm, "min") == 4.096);
	assert_int_equal(cdm_json_get(sm, "n")->u64, 1);
	/* the Mix test: its parts measured nothing either */
	p = cdm_json_get(&cdm_json_get(t2, "passes")->items[1], "read");
	assert_int_equal(cdm_json_get(p, "mb_s")->type, CDM_JSON_NULL);
	assert_string_equal(cdm_json_get(p, "reason")->str, "no I/O completed");
	p = cdm_json_get(cdm_json_get(t2, "summary"), "write");
	assert_int_equal(cdm_json_get(p, "iops")->type, CDM_JSON_NULL);
	cdm_json_free(root);
	free(out);

	out = unit_render("csv", r);
	assert_non_null(strstr(out, ",lat_p99_99_ns,verify_status,verify_blocks,verify_sample_every,verify_lost,verify_misdirected,verify_torn,fsync_count,fsync_mean_ns,fsync_max_ns,profile,"));
	assert_non_null(strstr(out, ",cv_threshold_pct,target,mount_point,fs_type,fs_source,device,device_model,is_device,logical_block_bytes,test_file,test_file_data,reason\n"));
	assert_non_null(strstr(out, "STALL,RND4K Q1T1,read,RND,4096,1,1,1,pass,2,1,0,0,,,,,0,0,,,,,,,,,,,,,,,,,,," CSV_RUN_COLS "no I/O completed\n"));
	assert_non_null(strstr(out, "STALL,RND4K Q1T1,read,RND,4096,1,1,1,median,,3,0,0,,,,,0,0,,,,,,,,,,,,,,,,,,," CSV_RUN_COLS
				    "no I/O completed in any of its 3 passes of 1 s; the slowest I/O in flight had waited 1.0 s\n"));
	assert_non_null(strstr(out, "STALL,RND4K Q1T1,write,RND,4096,1,1,1,median,,3,4096000,1000,4.096,1000,1000000,"));
	assert_non_null(strstr(out, "STALL,RND4K Q1T1 W30,mix,RND,4096,1,1,1,pass,1,1,0,0,,,,,0,0,,,,,,,,,,,,,,,,,,," CSV_RUN_COLS "no I/O completed\n"));
	free(out);

	out = unit_render("markdown", r);
	assert_non_null(strstr(out, "| RND4K Q1T1 Read | \xe2\x80\x93 | \xe2\x80\x93 | \xe2\x80\x93 | \xe2\x80\x93 | nothing measured |\n"));
	assert_non_null(strstr(out, "| RND4K Q1T1 Write | 4.096 | 1000.0 | 1000.00 | "));
	assert_non_null(strstr(out, " | \xe2\x80\x93 (1 of 3 passes) |\n"));
	assert_non_null(strstr(out, "| RND4K Q1T1 W30 Mix | \xe2\x80\x93 | "));
	assert_non_null(strstr(out, "\nRND4K Q1T1 Read: nothing measured: no I/O completed in any of its 3 passes of 1 s; "
				    "the slowest I/O in flight had waited 1.0 s.\n"));
	assert_non_null(strstr(out, "\nRND4K Q1T1 Write: no I/O completed in 2 of its 3 passes"));
	free(out);

	out = unit_render("cdm", r);
	assert_non_null(strstr(out, "[Read]\n  RND    4KiB (Q=  1, T= 1):             nothing measured: no I/O completed\n"));
	assert_non_null(strstr(out, "[Write]\n  RND    4KiB (Q=  1, T= 1):     4.096 MB/s [   1000.0 IOPS] <  1000.00 us>\n"));
	assert_non_null(strstr(out, "[Mix] Read 70%/Write 30%\n  RND    4KiB (Q=  1, T= 1):             nothing measured: no I/O completed\n"));
	assert_null(strstr(out, "0.000 MB/s"));
	free(out);
	cdm_result_free(r);
}

/*
 * Issue 12, 7: what is under the target (target/stack.h) in JSON, read back
 * the same, and in Markdown, escaped; nothing found: [] and no paragraph.
 */
static void test_memory_under(void **state)
{
	struct cdm_run_result *r = build(), *back;
	struct cdm_mem_under *f = &r->info.mem_under[1];
	struct cdm_err err;
	char *out;

	(void)state;
	out = unit_render("markdown", r);
	assert_null(strstr(out, "memory under"));
	free(out);
	snprintf(r->info.mem_under[0].kind, sizeof(f->kind), "loop_page_cache");
	snprintf(r->info.mem_under[0].layer, sizeof(f->layer), "loop0");
	snprintf(r->info.mem_under[0].stack, sizeof(f->stack), "/mnt/san (ext4) > loop0");
	snprintf(r->info.mem_under[0].why, sizeof(f->why), "loop0 reads its backing file /img through the page cache");
	snprintf(r->info.mem_under[0].fix, sizeof(f->fix), "losetup --direct-io=on /dev/loop0 turns loop direct I/O on");
	snprintf(f->kind, sizeof(f->kind), "memory_fs");
	snprintf(f->layer, sizeof(f->layer), "/dev/shm (tmpfs)");
	snprintf(f->stack, sizeof(f->stack), "/mnt/san (ext4) > loop0 > /dev/shm/a*b\"c.img > /dev/shm (tmpfs)");
	snprintf(f->why, sizeof(f->why), "/dev/shm is tmpfs, which keeps files in memory");
	snprintf(f->fix, sizeof(f->fix), "put the backing file on a disk's filesystem");
	r->info.nmem_under = 2;

	out = unit_render("json", r);
	assert_non_null(strstr(out, "    \"memory_under\": [\n      { \"kind\": \"loop_page_cache\", \"layer\": \"loop0\", \"stack\": \"/mnt/san (ext4) > loop0\", \"why\": "));
	assert_non_null(strstr(out, "\"stack\": \"/mnt/san (ext4) > loop0 > /dev/shm/a*b\\\"c.img > /dev/shm (tmpfs)\""));
	if (cdm_result_read(out, strlen(out), CDM_RESULT_READ_ONE_RUN, &back, &err))
		fail_msg("cannot read the JSON back: %s", err.msg);
	assert_int_equal(back->info.nmem_under, 2);
	for (unsigned int i = 0; i < 2; i++) {
		assert_string_equal(back->info.mem_under[i].kind, r->info.mem_under[i].kind);
		assert_string_equal(back->info.mem_under[i].layer, r->info.mem_under[i].layer);
		assert_string_equal(back->info.mem_under[i].stack, r->info.mem_under[i].stack);
		assert_string_equal(back->info.mem_under[i].why, r->info.mem_under[i].why);
		assert_string_equal(back->info.mem_under[i].fix, r->info.mem_under[i].fix);
	}
	cdm_result_free(back);
	free(out);

	out = unit_render("markdown", r);
	assert_non_null(strstr(out, "\n\n**Warning: memory under the target.** loop0 reads its backing file /img through the page cache; losetup --direct-io=on /dev/loop0 turns loop direct I/O on (stack: /mnt/san (ext4) \\> loop0).\n\n"));
	assert_non_null(strstr(out, "(stack: /mnt/san (ext4) \\> loop0 \\> /dev/shm/a\\*b\"c.img \\> /dev/shm (tmpfs)).\n\n| Test |"));
	free(out);
	cdm_result_free(r);
}

/*
 * Issue 14: a run with every setting of the method of numbers that hold
 * (unit_hold_run()) in JSON, CSV and Markdown (golden files), and what a
 * golden file cannot show: the fields are where docs/output-formats.md
 * says, the summary is over the steady window, and the steady verdicts
 * and settings name what they measured.
 */
static void test_hold_golden(void **state)
{
	struct cdm_run_result *r = unit_hold_run();
	const struct cdm_json *set, *sy, *t0, *t1, *t2, *st, *p;
	struct cdm_json *root;
	char *out;

	(void)state;
	out = unit_render("json", r);
	unit_golden(out, "formats-hold.json");
	root = parse_ok(out);
	set = cdm_json_get(root, "settings");
	assert_int_equal(cdm_json_get(set, "end_fsync")->type, CDM_JSON_TRUE);
	assert_int_equal(cdm_json_get(set, "verify")->type, CDM_JSON_TRUE);
	assert_string_equal(cdm_json_get(set, "cpus")->str, "0-1");
	st = cdm_json_get(set, "steady_state");
	assert_int_equal(cdm_json_get(st, "max_rounds")->u64, 10);
	assert_int_equal(cdm_json_get(st, "window_rounds")->u64, 5);
	assert_true(jnum(st, "range_pct_max") == 20.0 && jnum(st, "slope_pct_max") == 10.0);
	assert_int_equal(cdm_json_get(cdm_json_get(set, "precondition"), "time_ns")->u64, 41234567890ull);
	assert_int_equal(cdm_json_get(cdm_json_get(set, "precondition"), "block_bytes")->u64, 131072);
	sy = cdm_json_get(root, "system");
	assert_string_equal(cdm_json_get(sy, "cpus_allowed_list")->str, "0-3");
	assert_int_equal(cdm_json_get(sy, "device_numa_node")->u64, 0);
	assert_non_null(strstr(cdm_json_get(sy, "numa_warning")->str, "node 1"));
	t0 = &cdm_json_get(root, "tests")->items[0];
	t1 = &cdm_json_get(root, "tests")->items[1];
	t2 = &cdm_json_get(root, "tests")->items[2];
	/* SEQ1M read: steady at round 7, its window rounds 3..7; every round listed */
	st = cdm_json_get(t0, "steady_state");
	assert_int_equal(cdm_json_get(st, "reached_at_round")->u64, 7);
	assert_int_equal(cdm_json_get(st, "first_round")->u64, 3);
	assert_int_equal(cdm_json_get(st, "window_rounds")->u64, 5);
	assert_string_equal(cdm_json_get(st, "tracked")->str, "mb_s");
	/* (7000 + 7050 + 6980 + 7010 + 7020) MiB / 5 s / 10^6, over 5 rounds */
	assert_true(fabs(jnum(st, "window_mean") - 35060.0 * 1048576 / 5e6 / 5) < 1e-9);
	assert_int_equal(cdm_json_get(t0, "passes")->n, 7);
	assert_int_equal(cdm_json_get(t0, "passes_requested")->u64, 10);
	assert_int_equal(cdm_json_get(t0, "complete")->type, CDM_JSON_TRUE);
	/* the summary is the window's: its best is round 4's (7050), not round 1's (9000) */
	assert_true(jnum(cdm_json_get(cdm_json_get(t0, "summary"), "mb_s"), "best") == 7050.0 * 1048576 / 5e6);
	assert_int_equal(cdm_json_get(cdm_json_get(cdm_json_get(t0, "summary"), "mb_s"), "n")->u64, 5);
	/* a read pass has no end fsync; the RND test never got steady, IOPS tracked */
	assert_int_equal(cdm_json_get(&cdm_json_get(t0, "passes")->items[0], "end_fsync")->type, CDM_JSON_NULL);
	st = cdm_json_get(t1, "steady_state");
	assert_int_equal(cdm_json_get(st, "reached_at_round")->type, CDM_JSON_NULL);
	assert_string_equal(cdm_json_get(st, "tracked")->str, "iops");
	/* 2000k, 1500k alternating: the last window 1500, 2000, 1500, 2000, 1500 (k I/Os / 5 s) */
	assert_true(fabs(jnum(st, "range_pct") - 100.0 * 100000.0 / 340000.0) < 1e-9);
	assert_true(jnum(st, "window_mean") == 340000.0);
	/* the write's rounds: each its fdatasync, count and time */
	p = cdm_json_get(&cdm_json_get(t2, "passes")->items[4], "end_fsync");
	assert_int_equal(cdm_json_get(p, "count")->u64, 1);
	assert_int_equal(cdm_json_get(p, "time_ns")->u64, 12345678 + 4);
	assert_int_equal(cdm_json_get(cdm_json_get(t2, "steady_state"), "reached_at_round")->u64, 5);
	cdm_json_free(root);
	free(out);

	out = unit_render("csv", r);
	unit_golden(out, "formats-hold.csv");
	assert_non_null(strstr(out, ",mb_s_cv_pct,end_fsync_ns,steady_window,steady_reached_at_round,"
				    "steady_range_pct,steady_slope_pct,lat_p50_ns,"));
	free(out);
	out = unit_render("markdown", r);
	unit_golden(out, "formats-hold.md");
	assert_non_null(strstr(out, "\nSEQ1M Q8T1 Read: steady at round 7 of 10 (range "));
	assert_non_null(strstr(out, "\nRND4K Q32T1 Read: **not steady** after 10 rounds (range 29.4 %, slope "));
	assert_non_null(strstr(out, "preconditioned (the file written sequentially twice in 128 KiB blocks, 41.2 s)"));
	assert_non_null(strstr(out, "**Warning: NUMA.**"));
	free(out);
	out = unit_render("svg", r);
	assert_non_null(strstr(out, "2 of 3 tests steady"));
	assert_non_null(strstr(out, "end fsync"));
	free(out);
	cdm_result_free(r);
}

/*
 * The same run saved as JSON and read back (as `cdm report` does): the
 * model again, and every format of the registry prints the same bytes
 * from it as from the run (24-report.bats's rule, for these fields).
 */
static void test_hold_round_trip(void **state)
{
	static const char *const fmts[] = { "json", "cdm", "cdm7", "cdm6", "csv", "markdown", "svg" };
	struct cdm_run_result *r = unit_hold_run(), *back;
	struct cdm_err err;
	char *json, *a, *b;

	(void)state;
	json = unit_render("json", r);
	if (cdm_result_read(json, strlen(json), 0, &back, &err))
		fail_msg("the JSON does not read back: %s", err.msg);
	assert_int_equal(back->info.end_fsync, 1);
	assert_int_equal(back->info.steady_state, 1);
	assert_int_equal(back->info.max_rounds, 10);
	assert_int_equal(back->info.precondition, 1);
	assert_true(back->info.precondition_ns == 41234567890ull);
	assert_int_equal(back->info.verify, 1);
	assert_string_equal(back->info.cpus, "0-1");
	assert_string_equal(back->info.cpus_allowed_list, "0-3");
	assert_int_equal(back->info.dev_numa_node, 0);
	assert_string_equal(back->info.numa_warning, r->info.numa_warning);
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_steady *x = &r->tests[i].steady, *y = &back->tests[i].steady;

		assert_int_equal(y->on, 1);
		assert_int_equal(y->reached_at_round, x->reached_at_round);
		assert_int_equal(y->max_rounds, x->max_rounds);
		assert_int_equal(y->window_rounds, x->window_rounds);
		assert_true(same_figure(y->range_pct, x->range_pct));
		assert_true(same_figure(y->slope_pct, x->slope_pct));
		for (unsigned int k = 0; k < r->tests[i].npasses; k++) {
			assert_true(back->tests[i].passes[k].end_fsyncs == r->tests[i].passes[k].end_fsyncs);
			assert_true(back->tests[i].passes[k].end_fsync_ns == r->tests[i].passes[k].end_fsync_ns);
		}
	}
	for (unsigned int f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		a = unit_render(fmts[f], r);
		b = unit_render(fmts[f], back);
		unit_same_text(b, a, fmts[f]);
		free(a);
		free(b);
	}
	cdm_result_free(back);

	/* a file from before these fields: all off, the NUMA node unknown */
	{
		struct cdm_run_result *old = build(), *rd;

		free(json);
		json = unit_render("json", old);
		if (cdm_result_read(json, strlen(json), CDM_RESULT_READ_AGGREGATE, &rd, &err))
			fail_msg("%s", err.msg);
		assert_int_equal(rd->info.steady_state, 0);
		assert_int_equal(rd->info.dev_numa_node, -1);
		assert_int_equal(rd->tests[0].steady.on, 0);
		cdm_result_free(rd);
		cdm_result_free(old);
	}
	free(json);
	cdm_result_free(r);

	/* the fuzz target's seed with these fields (first byte 4: a saved run) reads as one run */
	{
		const char *dir = getenv("CDM_SRCDIR");
		char path[4096];
		size_t n;
		struct cdm_run_result *seed;

		snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/json-hold", dir && *dir ? dir : ".");
		json = unit_read_file(path, &n);
		assert_true(n > 1 && json[0] == 4);
		if (cdm_result_read(json + 1, n - 1, CDM_RESULT_READ_ONE_RUN, &seed, &err))
			fail_msg("%s: %s", path, err.msg);
		assert_int_equal(seed->tests[0].steady.reached_at_round, 7);
		assert_int_equal(seed->info.end_fsync, 1);
		cdm_result_free(seed);
		free(json);
	}
}

/* a series of one 5 s interval per round of @t, as --log-interval 5s gives it */
static void round_series(struct cdm_test_result *t)
{
	struct cdm_series *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->points = calloc(t->npasses, sizeof(*s->points));
	assert_non_null(s->points);
	s->interval_ns = 5000000000ull;
	s->npoints = t->npasses;
	for (unsigned int k = 0; k < t->npasses; k++)
		s->points[k] = (struct cdm_series_point){
			.pass = k + 1, .start_ns = k * 5000000000ull, .duration_ns = 5000000000ull,
			.bytes = t->passes[k].bytes, .ios = t->passes[k].ios,
			.lat_sum_ns = t->passes[k].lat_sum_ns, .lat_p99_ns = 9000000,
		};
	t->series = s;
}

/* the number of times @needle occurs in @hay */
static unsigned int count_of(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/*
 * @json read back as cdm_result_read() reads a file: with @msg NULL it must
 * read (the run is returned, to free), else be refused (-EINVAL) with an
 * error that says @msg (NULL is returned)
 */
static struct cdm_run_result *read_or_refused(const char *json, const char *msg)
{
	struct cdm_run_result *back = NULL;
	struct cdm_err err = { "" };
	int ret = cdm_result_read(json, strlen(json), 0, &back, &err);

	if (!msg) {
		if (ret)
			fail_msg("the file as written: %s", err.msg);
		return back;
	}
	if (ret != -EINVAL)
		fail_msg("not refused (%d): %s", ret, msg);
	if (!strstr(err.msg, msg))
		fail_msg("'%s' does not say '%s'", err.msg, msg);
	return NULL;
}

/* what test_series_refused() spoils in the series of SEQ1M Q8T1 Read (7 points of 5 s) */
static void spoil_zero(struct cdm_series *s) { s->points[1].duration_ns = 0; }
static void spoil_overlap(struct cdm_series *s) { s->points[1].start_ns = 1000; }
static void spoil_order(struct cdm_series *s) { s->points[2].start_ns = 0; }
static void spoil_pass(struct cdm_series *s) { s->points[3].pass = 1; }
static void spoil_sum(struct cdm_series *s) { s->points[0].bytes = UINT64_MAX; }
static void spoil_end(struct cdm_series *s) { s->points[6].start_ns = UINT64_MAX - 10; }
static void spoil_burst(struct cdm_series *s)
{
	s->burst = (struct cdm_burst){ .found = 1, .split = 2, .high = 10.0, .low = 20.0 };
	s->burst_at_ns = s->points[2].start_ns;
}

/*
 * series.points as the detectors and plots take them: a point of no
 * length with I/Os, points out of order (in time or passes) or
 * overlapping, counts whose sum or end is past 2^64, and a burst whose
 * high is below its low, each refused with the point or key named
 */
static void test_series_refused(void **state)
{
	static const struct {
		void (*spoil)(struct cdm_series *s);
		const char *msg;
	} bad[] = {
		{ spoil_zero, "tests[0].series.points[1]: 9000 I/Os in a duration of 0 ns" },
		{ spoil_overlap, "tests[0].series.points[1]: starts at 1000 ns, before points[0] ends at 5000000000 ns: out of order or overlapping" },
		{ spoil_order, "tests[0].series.points[2]: starts at 0 ns, before points[1] ends at 10000000000 ns" },
		{ spoil_pass, "tests[0].series.points[3]: pass 1 after points[2]'s pass 3: out of order" },
		{ spoil_sum, "tests[0].series.points: their counts add up past 2^64 (at points[1])" },
		{ spoil_end, "tests[0].series.points[6]: start_ns + duration_ns is past 2^64 ns" },
		{ spoil_burst, "tests[0].series.burst.high_mb_s: 10, below low_mb_s 20" },
	};

	(void)state;
	for (unsigned int i = 0; i <= sizeof(bad) / sizeof(bad[0]); i++) {
		const int last = i == sizeof(bad) / sizeof(bad[0]);
		struct cdm_run_result *r = unit_hold_run(), *back;
		char *json;

		r->info.log_interval_ns = 5000000000ull;
		round_series(&r->tests[0]);
		/* the last round: the series as written reads */
		if (!last)
			bad[i].spoil(r->tests[0].series);
		json = unit_render("json", r);
		back = read_or_refused(json, last ? NULL : bad[i].msg);
		if (last)
			assert_int_equal(back->tests[0].series->npoints, 7);
		cdm_result_free(back);
		free(json);
		cdm_result_free(r);
	}
}

/* what test_run_refused() spoils in a run cdm measured (unit_hold_run()) */
static void spoil_count(struct cdm_run_result *r) { r->info.count = 0; }
static void spoil_time(struct cdm_run_result *r) { r->info.time_ms = 0; }
static void spoil_short(struct cdm_run_result *r) { r->info.time_ms = 50; }
static void spoil_size(struct cdm_run_result *r) { r->info.size = 1; }
static void spoil_huge(struct cdm_run_result *r) { r->info.size = 1ull << 53; }
static void spoil_block(struct cdm_run_result *r) { r->tests[0].spec.block = 1; }
static void spoil_threads(struct cdm_run_result *r) { r->tests[0].spec.threads = 0; }
static void spoil_many(struct cdm_run_result *r) { r->tests[0].spec.threads = 300; }
static void spoil_qd(struct cdm_run_result *r) { r->tests[0].spec.qd = 0; }
static void spoil_qd_run(struct cdm_run_result *r) { r->tests[0].qd_run = 0; }
/* (a write share of a test not Mix, which the writer leaves null: test_run_refused() sets it) */
static void spoil_share(struct cdm_run_result *r) { (void)r; }

/*
 * A saved run whose report would print what cdm never runs, nor its text
 * reader reads back ("(x0)", "Measure 0 sec", "RND 0B", "T=0", "SEQ1M
 * Q1T1 W1 Write"): refused by name, each; the run as written reads
 */
static void test_run_refused(void **state)
{
	static const struct {
		void (*spoil)(struct cdm_run_result *r);
		const char *msg;
	} bad[] = {
		{ spoil_count, "settings.count: 0 is outside 1..100" },
		{ spoil_time, "settings.time_s: 0 is outside 0.1..3600" },
		{ spoil_short, "settings.time_s: 0.05 is outside 0.1..3600" },
		{ spoil_size, "settings.size_bytes: 1 is outside 512..1125899906842624" },
		{ spoil_huge, "settings.size_bytes: 9007199254740992 is outside 512..1125899906842624" },
		{ spoil_block, "tests[0]: a block of 1 bytes is outside 512..67108864" },
		{ spoil_threads, "tests[0]: T=0 is outside 1..256" },
		{ spoil_many, "tests[0]: T=300 is outside 1..256" },
		{ spoil_qd, "tests[0]: Q=0 is outside 1..1024" },
		{ spoil_qd_run, "tests[0].queue_depth_run: 0 is outside 1.." },
		{ spoil_share, "tests[0].write_pct: 1, but only a Mix test has a write share" },
	};

	(void)state;
	for (unsigned int i = 0; i <= sizeof(bad) / sizeof(bad[0]); i++) {
		const int last = i == sizeof(bad) / sizeof(bad[0]);
		struct cdm_run_result *r = unit_hold_run();
		char *json;

		assert_int_not_equal(r->tests[0].dir, CDM_DIR_MIX);
		/* the last round: the run as written reads */
		if (!last)
			bad[i].spoil(r);
		json = unit_render("json", r);
		if (!last && bad[i].spoil == spoil_share) {
			char *w = strstr(json, "\"write_pct\": null");

			assert_non_null(w);
			memcpy(w, "\"write_pct\":    1", strlen("\"write_pct\": null"));
		}
		cdm_result_free(read_or_refused(json, last ? NULL : bad[i].msg));
		free(json);
		cdm_result_free(r);
	}
}

/*
 * --plot of a run with steady state: each test has its own rounds and
 * window, so each gets a lane of its rounds (a box per round, numbered)
 * with its own window named beside it, in a rounds panel per pattern; no
 * pass bands, no window mark of one test for all
 */
static void test_hold_plot(void **state)
{
	struct cdm_run_result *r = unit_hold_run();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	r->info.log_interval_ns = 5000000000ull;
	for (unsigned int i = 0; i < r->ntests; i++)
		round_series(&r->tests[i]);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(cdm_plot_series(f, r), 0);
	fclose(f);
	/* a rounds panel per pattern, and in it each test's window: rounds 3-7 of 7, 6-10 of 10, 1-5 of 5 */
	assert_int_equal(count_of(buf, "each test's rounds and its window (dark)</text>"), 2);
	assert_non_null(strstr(buf, "<title>SEQ1M Q8T1 Read: steady window, rounds 3-7</title>"));
	assert_non_null(strstr(buf, ">steady at round 7, window 3-7</text>"));
	assert_non_null(strstr(buf, "<title>RND4K Q32T1 Read: last window (not steady), rounds 6-10</title>"));
	assert_non_null(strstr(buf, ">not steady, last window 6-10</text>"));
	assert_non_null(strstr(buf, "<title>SEQ1M Q8T1 Write: steady window, rounds 1-5</title>"));
	assert_non_null(strstr(buf, ">steady at round 5, window 1-5</text>"));
	/* a box per round of each test, its own */
	assert_int_equal(count_of(buf, "<title>SEQ1M Q8T1 Read round "), 7);
	assert_int_equal(count_of(buf, "<title>RND4K Q32T1 Read round "), 10);
	assert_int_equal(count_of(buf, "<title>SEQ1M Q8T1 Write round "), 5);
	assert_int_equal(count_of(buf, " (window)</title>"), 5 + 5 + 5);
	assert_non_null(strstr(buf, "<title>SEQ1M Q8T1 Read round 2</title>"));
	assert_non_null(strstr(buf, "<title>SEQ1M Q8T1 Read round 3 (window)</title>"));
	assert_null(strstr(buf, ">pass 1<"));
	assert_null(strstr(buf, ">round 1<"));
	free(buf);
	/* one test stopped after 3 rounds: no full window, said so (whole, not cut to the width) */
	r->tests[1].npasses = 3;
	r->tests[1].series->npoints = 3;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(cdm_plot_series(f, r), 0);
	fclose(f);
	assert_non_null(strstr(buf, ">not steady, only 3 rounds</text>"));
	assert_non_null(strstr(buf, "<title>RND4K Q32T1 Read: last window (not steady), rounds 1-3</title>"));
	free(buf);
	cdm_result_free(r);
}

/* what the reader refuses of the new fields, by name */
static void test_hold_refused(void **state)
{
	static const struct {
		const char *from, *to, *msg;
	} bad[] = {
		{ "\"reached_at_round\": 7,", "\"reached_at_round\": 700,", "reached_at_round: 700 is above" },
		{ "\"reached_at_round\": 7,", "\"reached_at_round\": 9,", "not one of the test's 7 rounds" },
		{ "\"reached_at_round\": 7,", "\"reached_at_round\": 0,", "rounds count from 1" },
		{ "\"window_rounds\": 5, \"first_round\": 3", "\"window_rounds\": 6, \"first_round\": 3",
		  "window_rounds: 6 is above 5" },
		{ "\"range_pct\": 0.", "\"range_pct\": -1.", "range_pct: out of range" },
		{ "\"count\": 1, \"time_ns\": 12345678", "\"count\": 2, \"time_ns\": 12345678",
		  "one fdatasync at most" },
		/* the end fsync is timed inside its pass of 5 s: 5 s and 2 ns is longer (1 ns is rounding) */
		{ "\"count\": 1, \"time_ns\": 12345678", "\"count\": 1, \"time_ns\": 5000000002",
		  "tests[2].passes[0].end_fsync.time_ns: 5000000002 ns, longer than the pass it ended (duration_s 5)" },
		{ "\"count\": 1, \"time_ns\": 12345678", "\"count\": 1, \"time_ns\": 18446744073709551615",
		  "longer than the pass it ended" },
		{ "\"count\": 1, \"time_ns\": 12345678", "\"count\": 0, \"time_ns\": 12345678",
		  "tests[2].passes[0].end_fsync.time_ns: 12345678 for no fdatasync (count 0)" },
		/* counts whose sum over the passes would wrap, as a report adds them */
		{ "\"bytes\": 9437184000,", "\"bytes\": 18446744073709551615,",
		  "tests[0].passes: their bytes add up past 2^64 (at passes[1])" },
		{ "\"device_numa_node\": 0", "\"device_numa_node\": 5000", "device_numa_node: 5000 is above 1023" },
		{ "\"end_fsync\": true", "\"end_fsync\": 1", "settings.end_fsync: expected boolean" },
		{ "\"steady_state\": {", "\"steady_state\": [], \"x\": {", "settings.steady_state: expected object" },
		/* a CPU list is printed into the Mode line: "1> <Verify" would forge a mark */
		{ "\"cpus\": \"0-1\"", "\"cpus\": \"1> <Verify\"", "settings.cpus: not a CPU list: '1> <Verify'" },
		{ "\"cpus\": \"0-1\"", "\"cpus\": \"3-1\"", "settings.cpus: not a CPU list: the range 3-1 runs downward" },
		{ "\"cpus_allowed_list\": \"0-3\"", "\"cpus_allowed_list\": \"0-3 \"",
		  "system.cpus_allowed_list: not a CPU list" },
	};
	struct cdm_run_result *r = unit_hold_run(), *back;
	char *json = unit_render("json", r);

	(void)state;
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *at = strstr(json, bad[i].from);
		struct cdm_err err = { "" };
		char *t;

		assert_non_null(at);
		t = malloc(strlen(json) + strlen(bad[i].to) + 1);
		assert_non_null(t);
		memcpy(t, json, (size_t)(at - json));
		strcpy(t + (at - json), bad[i].to);
		strcat(t, at + strlen(bad[i].from));
		assert_int_equal(cdm_result_read(t, strlen(t), 0, &back, &err), -EINVAL);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("%s: '%s' does not say '%s'", bad[i].to, err.msg, bad[i].msg);
		free(t);
	}
	free(json);
	cdm_result_free(r);
}

/* field @k (0-based) of the CSV row that starts with @lead, as a number */
static double csv_field(const char *csv, const char *lead, unsigned int k)
{
	const char *p = strstr(csv, lead);

	assert_non_null(p);
	p += *p == '\n';
	for (unsigned int i = 0; i < k; i++) {
		p = strpbrk(p, ",\n");
		assert_true(p && *p == ',');
		p++;
	}
	if (*p == ',' || *p == '\n')
		return NAN;
	return strtod(p, NULL);
}

/*
 * A steady-state test whose first rounds, before the window, had huge
 * latencies and CPU times: every summary figure (CSV's lat_max_ns, CPU
 * times and CPU per I/O; JSON's rate achieved) is over the window, rounds
 * 3-7 of SEQ1M Read, never mixed with the rounds before it.
 */
static void test_hold_window_summary(void **state)
{
	static const char lead[] = "\nLOCAL,SEQ1M Q8T1,read,SEQ,1048576,1,8,8,";
	static const char *kinds[] = { "best,", "median,", "mean," };
	struct cdm_run_result *r = unit_hold_run();
	struct cdm_test_result *t = &r->tests[0];
	const struct cdm_json *sum;
	struct cdm_json *root;
	char *out, row[128];

	(void)state;
	assert_int_equal(cdm_result_first_pass(t), 2);
	for (unsigned int i = 0; i < 2; i++) {
		t->passes[i].lat_max_ns = 999000000000ull;
		t->passes[i].cpu_user_ns = 7000000000000ull;
		t->passes[i].cpu_sys_ns = 7000000000000ull;
		t->passes[i].ios *= 3;          /* slow rounds would not; the sums would show it */
		t->passes[i].bytes *= 3;
	}
	r->info.rate_iops = 100000;
	out = unit_render("csv", r);
	assert_non_null(strstr(out, ",lat_max_ns,cpu_user_ns,cpu_sys_ns,cpu_ns_per_io,"));
	for (unsigned int k = 0; k < 3; k++) {
		snprintf(row, sizeof(row), "%s%s", lead, kinds[k]);
		assert_true(csv_field(out, row, 10) == 25.0);            /* duration_s: 5 rounds */
		assert_true(csv_field(out, row, 12) == 35060.0);         /* ios of rounds 3-7 */
		assert_true(csv_field(out, row, 16) == 15000000.0);      /* lat_max_ns */
		assert_true(csv_field(out, row, 17) == 3506000.0);       /* cpu_user_ns */
		assert_true(csv_field(out, row, 18) == 31554000.0);      /* cpu_sys_ns */
		assert_true(csv_field(out, row, 19) == 1000.0);          /* cpu_ns_per_io */
	}
	/* a pass row keeps its own figures */
	snprintf(row, sizeof(row), "%spass,1,", lead);
	assert_true(csv_field(out, row, 16) == 999000000000.0);
	free(out);
	out = unit_render("json", r);
	root = parse_ok(out);
	sum = cdm_json_get(&cdm_json_get(root, "tests")->items[0], "summary");
	assert_true(jnum(sum, "rate_iops_achieved") == 35060.0 / 25.0);
	assert_int_equal(cdm_json_get(sum, "ios")->u64, 35060);
	cdm_json_free(root);
	free(out);
	cdm_result_free(r);
}

static int setup_utc(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_aggregate_parse),
		cmocka_unit_test(test_json_interrupted_and_empty),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_fractions),
		cmocka_unit_test(test_json_mix_parts),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_json_histogram),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_sweep_load_words),
		cmocka_unit_test(test_findings_level),
		cmocka_unit_test(test_text_aggregate),
		cmocka_unit_test(test_device_target),
		cmocka_unit_test(test_save_atomic),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_memory_under),
		cmocka_unit_test(test_hold_golden),
		cmocka_unit_test(test_hold_round_trip),
		cmocka_unit_test(test_hold_refused),
		cmocka_unit_test(test_series_refused),
		cmocka_unit_test(test_run_refused),
		cmocka_unit_test(test_hold_window_summary),
		cmocka_unit_test(test_hold_plot),
	};

	return cmocka_run_group_tests(tests, setup_utc, NULL);
}
