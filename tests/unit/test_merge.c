/* SPDX-License-Identifier: MIT */
/*
 * test_merge.c - the arithmetic of aggregates (cdm merge, cdm-mpi): pass k
 * summed over the runs, then the best pass -- never each run's best pass
 * summed (a case where the two differ); histograms summed bucket-wise;
 * plans that differ refused, naming the files; a JSON result read back
 * exactly (counts, latency sums, start times, buckets); --start-at times.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cdm/model/merge.h"
#include "cdm/report/report.h"
#include "cdm/model/result.h"
#include "cdm/format/result_read.h"
#include "cdm/run/start_at.h"

/* a run of one test (RND4K Q1T1 read) with passes of @mb[k] MB in 1 s */
static struct cdm_run_result *run_of(const double *mb, unsigned int n, uint64_t lat_ns)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_test_result *t;

	assert_non_null(r);
	r->info.size = 16u << 20;
	r->info.count = n;
	r->info.time_ms = 1000;
	r->info.direct = 1;
	snprintf(r->info.engine, sizeof(r->info.engine), "null");
	snprintf(r->info.target, sizeof(r->info.target), "/t");
	snprintf(r->info.label, sizeof(r->info.label), "x");
	r->info.start = 1796000000;
	t = &r->tests[0];
	t->spec = (struct cdm_spec){ .pattern = CDM_RND, .block = 4096, .qd = 1, .threads = 1 };
	t->qd_run = 1;
	t->npasses = n;
	for (unsigned int k = 0; k < n; k++) {
		struct cdm_pass *p = &t->passes[k];

		p->seconds = 1.0;
		p->start_unix_ns = 1796000000000000000ull + k * 1000000000ull;
		p->bytes = (uint64_t)(mb[k] * 1e6);
		p->ios = p->bytes / 4096;
		p->lat_sum_ns = p->ios * lat_ns;
		p->lat_max_ns = lat_ns;
		for (uint64_t i = 0; i < p->ios; i++)
			cdm_hist_add(t->hist, lat_ns + (i % 7) * 1000);
	}
	return r;
}

/* host A is fast in pass 1, host B in pass 2: best-of-sums 150, sum-of-bests 200 */
static void test_sum_per_pass_then_best(void **state)
{
	const double a[] = { 100.0, 50.0 }, b[] = { 50.0, 100.0 };
	struct cdm_run_result *in[2] = { run_of(a, 2, 10000), run_of(b, 2, 20000) };
	const char *names[2] = { "A.json", "B.json" };
	struct cdm_run_result *agg;
	double sum_of_bests, mn = 0, md = 0, mx = 0;
	unsigned int imin = 9, imax = 9;
	struct cdm_err err;

	(void)state;
	sum_of_bests = cdm_result_best_mb_s(&in[0]->tests[0]) + cdm_result_best_mb_s(&in[1]->tests[0]);
	assert_int_equal(cdm_merge(in, names, 2, "runs", &agg, &err), 0);
	/* each pass: 150 MB in 1 s */
	assert_int_equal(agg->tests[0].npasses, 2);
	for (unsigned int k = 0; k < 2; k++)
		assert_int_equal(agg->tests[0].passes[k].bytes,
				 agg->scale->src[0].res->tests[0].passes[k].bytes +
				 agg->scale->src[1].res->tests[0].passes[k].bytes);
	assert_true(cdm_result_best_mb_s(&agg->tests[0]) > 149.9 &&
		    cdm_result_best_mb_s(&agg->tests[0]) < 150.1);
	assert_true(sum_of_bests > 199.9);
	assert_true(cdm_result_best_mb_s(&agg->tests[0]) < sum_of_bests - 49.0);
	/* T is the total; the spread names the runs */
	assert_int_equal(agg->tests[0].spec.threads, 2);
	assert_int_equal(cdm_merge_spread(agg, 0, &mn, &md, &mx, &imin, &imax), 2);
	assert_true(mn > 99.9 && mn < 100.1 && mx > 99.9 && mx < 100.1);
	/* the median aggregate: median of the summed passes */
	agg->aggregate = CDM_AGG_MEDIAN;
	assert_true(cdm_result_mb_s(&agg->tests[0], CDM_AGG_MEDIAN) > 149.9);
	cdm_merge_free(agg);
}

/* the merged histogram is the bucket-wise sum; mean and max exact */
static void test_histograms(void **state)
{
	const double a[] = { 1.0 }, b[] = { 2.0 };
	struct cdm_run_result *in[2] = { run_of(a, 1, 10000), run_of(b, 1, 900000) };
	const char *names[2] = { "A", "B" };
	struct cdm_hist want;
	struct cdm_run_result *agg;
	struct cdm_err err;

	(void)state;
	cdm_hist_init(&want);
	cdm_hist_merge(&want, in[0]->tests[0].hist);
	cdm_hist_merge(&want, in[1]->tests[0].hist);
	assert_int_equal(cdm_merge(in, names, 2, "runs", &agg, &err), 0);
	assert_memory_equal(agg->tests[0].hist, &want, sizeof(want));
	assert_int_equal(agg->tests[0].hist->count,
			 agg->tests[0].passes[0].ios);
	assert_int_equal(agg->tests[0].passes[0].lat_max_ns, 900000);
	/* two thirds of the I/Os are B's, at ~900 us: p50 is B's */
	assert_true(cdm_hist_percentile(agg->tests[0].hist, 50.0) > 890000);
	cdm_merge_free(agg);
}

/* a run that lost its last pass: the aggregate has the passes all have */
static void test_incomplete(void **state)
{
	const double a[] = { 1.0, 1.0 }, b[] = { 1.0, 1.0 };
	struct cdm_run_result *in[2] = { run_of(a, 2, 1000), run_of(b, 2, 1000) };
	const char *names[2] = { "A", "B" };
	struct cdm_run_result *agg;
	struct cdm_err err;

	(void)state;
	in[1]->tests[0].npasses = 1;
	cdm_hist_init(in[1]->tests[0].hist);    /* no percentiles from part */
	assert_int_equal(cdm_merge(in, names, 2, "runs", &agg, &err), 0);
	assert_int_equal(agg->tests[0].npasses, 1);
	assert_false(cdm_result_has_percentiles(&agg->tests[0]));
	cdm_merge_free(agg);
}

static void refuse(void (*spoil)(struct cdm_run_result *), const char *why)
{
	const double a[] = { 1.0, 1.0 };
	struct cdm_run_result *in[3] = { run_of(a, 2, 1000), run_of(a, 2, 1000), run_of(a, 2, 1000) };
	const char *names[3] = { "a.json", "b.json", "c.json" };
	struct cdm_run_result *agg = (void *)1;
	struct cdm_err err;

	spoil(in[2]);
	assert_int_equal(cdm_merge(in, names, 3, "runs", &agg, &err), -EINVAL);
	assert_null(agg);
	assert_non_null(strstr(err.msg, "c.json does not match a.json"));
	if (!strstr(err.msg, why))
		fail_msg("'%s' does not say '%s'", err.msg, why);
}

static void spoil_count(struct cdm_run_result *r) { r->info.count = 3; }
static void spoil_time(struct cdm_run_result *r) { r->info.time_ms = 5000; }
static void spoil_size(struct cdm_run_result *r) { r->info.size = 1u << 30; }
static void spoil_block(struct cdm_run_result *r) { r->tests[0].spec.block = 8192; }
static void spoil_dir(struct cdm_run_result *r) { r->tests[0].dir = CDM_DIR_WRITE; }
static void spoil_interval(struct cdm_run_result *r) { r->info.interval_ms = 5000; }
static void spoil_end_fsync(struct cdm_run_result *r) { r->info.end_fsync = 1; }

static void test_mismatch(void **state)
{
	(void)state;
	refuse(spoil_count, "count 2 vs 3");
	refuse(spoil_time, "time_s 1 vs 5");
	refuse(spoil_size, "size_bytes");
	refuse(spoil_block, "RND4K Q1T1 Read vs RND8K Q1T1 Read");
	refuse(spoil_dir, "Read vs RND4K Q1T1 Write");
	refuse(spoil_interval, "interval_s 0 vs 5");
	refuse(spoil_end_fsync, "end_fsync 0 vs 1");
}

/* --steady-state: each run's rounds end where it got steady; never added up */
static void test_steady_refused(void **state)
{
	const double a[] = { 1.0, 1.0 };
	struct cdm_run_result *in[2] = { run_of(a, 2, 1000), run_of(a, 2, 1000) };
	const char *names[2] = { "a.json", "b.json" };
	struct cdm_run_result *agg = (void *)1;
	struct cdm_err err;

	(void)state;
	in[1]->info.steady_state = 1;
	assert_int_equal(cdm_merge(in, names, 2, "runs", &agg, &err), -EINVAL);
	assert_null(agg);
	assert_string_equal(err.msg, "b.json ran with --steady-state: its rounds cannot be added up with another run's (each gets steady at its own round)");
}

/*
 * Counts whose sum over the runs, or over the aggregate's passes, would
 * wrap: refused with the test and the count named (each file alone reads)
 */
static void test_sum_overflow(void **state)
{
	const double a[] = { 1.0, 1.0 };
	struct cdm_run_result *in[2] = { run_of(a, 2, 1000), run_of(a, 2, 1000) };
	const char *names[2] = { "a.json", "b.json" };
	struct cdm_run_result *agg = (void *)1;
	struct cdm_pass sum = { 0 }, p = { .bytes = UINT64_MAX - 5, .end_fsync_ns = 7 };
	struct cdm_err err;

	(void)state;
	/* the sum itself: each count checked, named as JSON names it */
	assert_null(cdm_pass_sum_overflow(&sum, &p));
	assert_true(sum.bytes == UINT64_MAX - 5);
	p = (struct cdm_pass){ .bytes = 5, .end_fsync_ns = UINT64_MAX - 7 };
	assert_null(cdm_pass_sum_overflow(&sum, &p));
	assert_true(sum.bytes == UINT64_MAX && sum.end_fsync_ns == UINT64_MAX);
	p = (struct cdm_pass){ .end_fsync_ns = 1 };
	assert_string_equal(cdm_pass_sum_overflow(&sum, &p), "end_fsync.time_ns");
	p = (struct cdm_pass){ .ios = 1, .bytes = 1 };
	assert_string_equal(cdm_pass_sum_overflow(&sum, &p), "bytes");
	/* pass 1 of run b: pass k's sum over the runs fits, the window's would not */
	in[1]->tests[0].passes[1].cpu_sys_ns = UINT64_MAX;
	in[0]->tests[0].passes[0].cpu_sys_ns = 1;
	assert_int_equal(cdm_merge(in, names, 2, "runs", &agg, &err), -EOVERFLOW);
	assert_null(agg);
	assert_string_equal(err.msg, "RND4K Q1T1 Read: the runs' cpu_sys_ns add up past 2^64");
}

/* JSON written by the formatter reads back to the same counts */
static void test_json_round_trip(void **state)
{
	const double a[] = { 12.5, 7.25, 3.0 };
	struct cdm_run_result *r = run_of(a, 3, 123456), *back;
	char *buf = NULL;
	struct cdm_err err;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	r->tests[0].passes[1].cpu_user_ns = 77;
	assert_int_equal(cdm_report_find("json")->write(f, r), 0);
	fclose(f);
	assert_int_equal(cdm_result_read(buf, len, CDM_RESULT_READ_ONE_RUN, &back, &err), 0);
	assert_int_equal(back->ntests, 1);
	assert_int_equal(back->tests[0].npasses, 3);
	assert_memory_equal(back->tests[0].passes, r->tests[0].passes, sizeof(struct cdm_pass) * 3);
	assert_memory_equal(back->tests[0].hist, r->tests[0].hist, sizeof(struct cdm_hist));
	assert_int_equal(back->info.count, 3);
	assert_int_equal(back->info.size, 16u << 20);
	assert_int_equal(cdm_merge_check(r, back, &err), 0);
	/* an aggregate is not merged again */
	{
		const char *names[1] = { "x" };
		struct cdm_run_result *in[1] = { back }, *agg, *again;
		char *b2 = NULL;
		size_t l2 = 0;

		assert_int_equal(cdm_merge(in, names, 1, "runs", &agg, &err), 0);
		f = open_memstream(&b2, &l2);
		assert_int_equal(cdm_report_find("json")->write(f, agg), 0);
		fclose(f);
		assert_int_equal(cdm_result_read(b2, l2, CDM_RESULT_READ_ONE_RUN, &again, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "already an aggregate"));
		/*
		 * compare and report read it: one run with the summed passes,
		 * and its runs again (the counts the scale keeps of each pass)
		 */
		assert_int_equal(cdm_result_read(b2, l2, CDM_RESULT_READ_AGGREGATE, &again, &err), 0);
		assert_memory_equal(again->tests[0].passes, agg->tests[0].passes, sizeof(struct cdm_pass) * 3);
		assert_non_null(again->scale);
		assert_string_equal(again->scale->unit, "runs");
		assert_int_equal(again->scale->n, 1);
		assert_string_equal(again->scale->src[0].name, "x");
		{
			const struct cdm_test_result *s = &again->scale->src[0].res->tests[0];
			const struct cdm_test_result *o = &back->tests[0];

			assert_int_equal(s->npasses, 3);
			assert_true(cdm_spec_same(&s->spec, &o->spec));
			assert_int_equal(s->dir, o->dir);
			for (unsigned int k = 0; k < 3; k++) {
				assert_true(s->passes[k].seconds == o->passes[k].seconds);
				assert_int_equal(s->passes[k].start_unix_ns, o->passes[k].start_unix_ns);
				assert_int_equal(s->passes[k].bytes, o->passes[k].bytes);
				assert_int_equal(s->passes[k].ios, o->passes[k].ios);
				assert_int_equal(s->passes[k].lat_sum_ns, o->passes[k].lat_sum_ns);
			}
		}
		cdm_result_free(again);
		/* a scale whose count is not its runs' is refused, naming it */
		{
			char *c = strstr(b2, "\"count\": 1");

			assert_non_null(c);
			c[9] = '2';
			assert_int_equal(cdm_result_read(b2, l2, CDM_RESULT_READ_AGGREGATE, &again, &err), -EINVAL);
			assert_non_null(strstr(err.msg, "scale.count: 2, but 1 sources"));
		}
		free(b2);
		cdm_merge_free(agg);
	}
	/* a bucket that is not one of cdm's */
	{
		char *p = strstr(buf, "\"low_ns\": ");

		assert_non_null(p);
		memcpy(p + 10, "9", 1);
		assert_int_equal(cdm_result_read(buf, len, CDM_RESULT_READ_ONE_RUN, &back, &err), -EINVAL);
	}
	free(buf);
	cdm_result_free(r);
}

/*
 * How far apart the runs started a pass: the largest spread, and its pass;
 * a tenth of the pass is the line for cdm merge's and cdm-mpi's warning;
 * a run without start times gives no spread at all.
 */
static struct cdm_run_result *merged_with_lag(uint64_t lag_ns, int times)
{
	const double a[] = { 100.0, 100.0 };
	struct cdm_run_result *in[2] = { run_of(a, 2, 10000), run_of(a, 2, 10000) };
	const char *names[2] = { "A.json", "B.json" };
	struct cdm_run_result *agg;
	struct cdm_err err;

	in[1]->tests[0].passes[1].start_unix_ns += lag_ns;
	in[1]->tests[0].passes[0].start_unix_ns += lag_ns / 2;
	for (unsigned int k = 0; !times && k < 2; k++)
		in[0]->tests[0].passes[k].start_unix_ns = 0;
	assert_int_equal(cdm_merge(in, names, 2, "runs", &agg, &err), 0);
	return agg;
}

static void test_start_overlap(void **state)
{
	struct cdm_run_result *agg = merged_with_lag(200000000, 1);
	uint64_t spread = 1, len = 1;
	unsigned int pass = 9;

	(void)state;
	assert_int_equal(cdm_merge_start_spread(agg, 0, &pass), 200000000);
	assert_int_equal(pass, 1);
	assert_int_equal(cdm_merge_overlap(agg, &spread, &len), 1);
	assert_int_equal(spread, 200000000);
	assert_int_equal(len, 1000000000);
	cdm_merge_free(agg);
	/* a tenth of the pass exactly: not yet */
	agg = merged_with_lag(100000000, 1);
	assert_int_equal(cdm_merge_overlap(agg, &spread, &len), 0);
	assert_int_equal(spread, 100000000);
	cdm_merge_free(agg);
	agg = merged_with_lag(900000000, 0);
	assert_int_equal(cdm_merge_start_spread(agg, 0, NULL), 0);
	assert_int_equal(cdm_merge_overlap(agg, &spread, &len), 0);
	cdm_merge_free(agg);
}

static void test_start_at(void **state)
{
	uint64_t t = 0;

	(void)state;
	assert_int_equal(cdm_start_at_parse("2026-12-01T22:00:00Z", 0, &t), 0);
	assert_int_equal(t, 1796162400ull * 1000000000ull);
	assert_int_equal(cdm_start_at_parse("2026-12-01T22:00:00.5Z", 0, &t), 0);
	assert_int_equal(t, 1796162400ull * 1000000000ull + 500000000ull);
	assert_int_equal(cdm_start_at_parse("2026-12-01T22:00:00+00:00", 0, &t), 0);
	assert_int_equal(cdm_start_at_parse("+30s", 1000, &t), 0);
	assert_int_equal(t, 1000 + 30000000000ull);
	assert_int_equal(cdm_start_at_parse("+2m", 0, &t), 0);
	assert_int_equal(t, 120000000000ull);
	assert_int_equal(cdm_start_at_parse("+5", 0, &t), 0);
	assert_int_equal(t, 5000000000ull);
	assert_int_equal(cdm_start_at_parse("2026-02-31T22:00:00Z", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("2026-12-01T22:00:00", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("2026-12-01T22:00:00+01:00", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("2026-12-01 22:00:00Z", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("+", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("+3x", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("+-3", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("+99999999999h", 0, &t), -EINVAL);
	assert_int_equal(cdm_start_at_parse("", 0, &t), -EINVAL);
}

/* the schedule: test i at TIME + i x (warmup + count x time + interval + slack) */
static void test_schedule(void **state)
{
	struct cdm_run_config cfg = { .warmup_ms = 2000, .count = 3, .time_ms = 5000, .interval_ms = 4000 };
	struct cdm_start_at sa = { 0 };

	(void)state;
	cdm_start_at_plan(&sa, &cfg);
	assert_int_equal(sa.period_ns, (2 + 15 + 4 + CDM_START_AT_SLACK_S) * 1000000000ull);
}

/*
 * Issue 12: runs that measured nothing.  A run whose passes of a test had
 * no I/O completed is left out of the per-run spread (not a 0 min), and
 * named in the text; pass k of the aggregate still sums what the others
 * did; when no run measured anything the aggregate has no figure (NaN)
 * and its JSON a reason.
 */
static void test_nothing_measured(void **state)
{
	const double a[] = { 100.0, 50.0 }, b[] = { 0.0, 0.0 }, c[] = { 80.0, 60.0 };
	struct cdm_run_result *in[3] = { run_of(a, 2, 10000), run_of(b, 2, 20000), run_of(c, 2, 10000) };
	const char *names[3] = { "A.json", "B.json", "C.json" };
	struct cdm_run_result *agg;
	double mn = 0, md = 0, mx = 0;
	unsigned int imin = 9, imax = 9;
	struct cdm_err err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	in[1]->tests[0].passes[0].pending_max_ns = 1000000000;
	assert_int_equal(cdm_merge(in, names, 3, "runs", &agg, &err), 0);
	/* B is left out: min 80 (C), not 0; median of 100 and 80 */
	assert_int_equal(cdm_merge_spread(agg, 0, &mn, &md, &mx, &imin, &imax), 2);
	assert_true(mn > 79.9 && mn < 80.1 && md > 89.9 && md < 90.1 && mx > 99.9);
	assert_int_equal(imin, 2);
	assert_int_equal(imax, 0);
	/* the aggregate's pass 1: A and C together, 180 MB/s */
	assert_true(cdm_result_best_mb_s(&agg->tests[0]) > 179.9);
	assert_int_equal(agg->tests[0].passes[0].pending_max_ns, 1000000000);
	f = open_memstream(&buf, &len);
	assert_int_equal(cdm_report_find("cdm")->write(f, agg), 0);
	fclose(f);
	assert_non_null(strstr(buf, "(min C.json, max A.json; nothing measured by B.json)\n"));
	free(buf);
	cdm_merge_free(agg);

	/* no run measured anything: no figure, and the JSON says why */
	in[0] = run_of(b, 2, 1000);
	in[1] = run_of(b, 2, 1000);
	assert_int_equal(cdm_merge(in, names, 2, "runs", &agg, &err), 0);
	assert_int_equal(cdm_result_state(&agg->tests[0]), CDM_PASS_NO_IO);
	assert_int_equal(cdm_merge_spread(agg, 0, &mn, &md, &mx, &imin, &imax), 0);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(cdm_report_find("json")->write(f, agg), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"mb_s\": null, \"reason\": \"no I/O completed\", \"passes\""));
	assert_non_null(strstr(buf, "\"reason\": \"no I/O completed in any of its 2 passes of 1 s\""));
	free(buf);
	cdm_merge_free(agg);
}

/*
 * Memory under any one run's target (result.h, target/stack.c) is under
 * the aggregate too: every distinct finding of every run is kept, once.
 */
static void test_memory_under(void **state)
{
	const double a[] = { 100.0 };
	struct cdm_run_result *in[3] = { run_of(a, 1, 10000), run_of(a, 1, 10000), run_of(a, 1, 10000) };
	const char *names[3] = { "A.json", "B.json", "C.json" };
	struct cdm_run_result *agg;
	struct cdm_err err;

	(void)state;
	for (unsigned int r = 1; r < 3; r++) {
		snprintf(in[r]->info.mem_under[0].kind, sizeof(in[r]->info.mem_under[0].kind), "loop_page_cache");
		snprintf(in[r]->info.mem_under[0].stack, sizeof(in[r]->info.mem_under[0].stack), "/mnt/san (ext4) > loop0");
		in[r]->info.nmem_under = 1;
	}
	snprintf(in[2]->info.mem_under[1].kind, sizeof(in[2]->info.mem_under[1].kind), "memory_fs");
	snprintf(in[2]->info.mem_under[1].stack, sizeof(in[2]->info.mem_under[1].stack), "/dev/shm (tmpfs)");
	in[2]->info.nmem_under = 2;
	assert_int_equal(cdm_merge(in, names, 3, "runs", &agg, &err), 0);
	assert_int_equal(agg->info.nmem_under, 2);
	assert_string_equal(agg->info.mem_under[0].kind, "loop_page_cache");
	assert_string_equal(agg->info.mem_under[1].kind, "memory_fs");
	cdm_merge_free(agg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum_per_pass_then_best),
		cmocka_unit_test(test_histograms),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_steady_refused),
		cmocka_unit_test(test_sum_overflow),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_start_overlap),
		cmocka_unit_test(test_start_at),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_memory_under),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
