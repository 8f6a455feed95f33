/* SPDX-License-Identifier: MIT */
/*
 * test_passes.c - "all passes as one", the aggregate of a test's passes
 * (model/result.h): cdm_result_window_pass() adds up every pass the
 * figures come from, one in which no I/O completed too (its time counts:
 * JSON's summary, the --rate-iops note); cdm_result_window_measured()
 * only those that measured something (a sweep's points), so a stalled
 * pass adds no time; both agree with cdm_result_summarize()'s totals, and
 * a sweep's point has the figures of the measured passes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <cmocka.h>

#include "cdm/model/result.h"
#include "cdm/model/sweep.h"
#include "unit.h"

#define MB 1000000ull

/* a 2 s pass of @ios 1 MB I/Os, 100 us each, started at @start */
static struct cdm_pass pass_of(uint64_t ios, uint64_t start)
{
	struct cdm_pass p = { 0 };

	p.seconds = 2.0;
	p.start_unix_ns = start;
	p.ios = ios;
	p.bytes = ios * MB;
	p.lat_sum_ns = ios * 100000;
	p.lat_max_ns = 1000 + ios;
	p.fsyncs = 1;
	p.end_fsyncs = 1;
	p.end_fsync_ns = 10;
	return p;
}

/* three passes of 1000, 0 (no I/O completed) and 3000 I/Os */
static struct cdm_test_result *stalled_test(struct cdm_run_result *r)
{
	struct cdm_test_result *t = &r->tests[0];

	t->spec = (struct cdm_spec){ .pattern = CDM_SEQ, .block = MB, .qd = 8, .threads = 1 };
	t->dir = CDM_DIR_READ;
	t->qd_run = 8;
	t->passes[0] = pass_of(1000, 100);
	t->passes[1] = pass_of(0, 200);
	t->passes[2] = pass_of(3000, 300);
	t->npasses = 3;
	return t;
}

static void test_window_sums(void **state)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_test_summary s;
	struct cdm_test_result *t;
	struct cdm_pass all, meas;

	(void)state;
	assert_non_null(r);
	t = stalled_test(r);
	cdm_result_window_pass(t, &all);
	assert_true(all.seconds == 6.0);
	assert_int_equal(all.ios, 4000);
	assert_true(all.bytes == 4000 * MB);
	assert_int_equal(all.lat_sum_ns, 400000000);
	assert_int_equal(all.lat_max_ns, 4000);
	assert_int_equal(all.fsyncs, 3);
	assert_int_equal(all.end_fsyncs, 3);
	assert_int_equal(all.end_fsync_ns, 30);
	assert_int_equal(all.start_unix_ns, 100);
	/* the summary's totals are the same sums */
	cdm_result_summarize(t, &s);
	assert_true(s.bytes == all.bytes && s.ios == all.ios && s.seconds == all.seconds);
	assert_int_equal(s.measured, 2);

	cdm_result_window_measured(t, &meas);
	assert_true(meas.seconds == 4.0);       /* the stalled pass's 2 s left out */
	assert_int_equal(meas.ios, 4000);
	assert_true(meas.bytes == 4000 * MB);
	assert_int_equal(meas.end_fsyncs, 2);
	assert_true(cdm_pass_mb_s(&meas) == 1000.0);
	assert_true(cdm_pass_iops(&meas) == 1000.0);
	assert_true(cdm_pass_mean_lat_ns(&meas) == 100000.0);

	/* the first pass measured nothing: the start is the first measured one's */
	t->passes[0] = pass_of(0, 100);
	cdm_result_window_measured(t, &meas);
	assert_int_equal(meas.start_unix_ns, 300);
	assert_true(meas.seconds == 2.0);

	/* nothing measured, or no pass: all 0, and no figures */
	t->passes[2] = pass_of(0, 300);
	cdm_result_window_measured(t, &meas);
	assert_true(meas.seconds == 0.0 && meas.ios == 0 && meas.start_unix_ns == 0);
	assert_true(isnan(cdm_pass_mb_s(&meas)));
	t->npasses = 0;
	cdm_result_window_pass(t, &all);
	assert_true(all.seconds == 0.0 && all.ios == 0 && all.end_fsyncs == 0);
	cdm_result_free(r);
}

/* a sweep's point: the measured passes' I/O over their time */
static void test_sweep_point(void **state)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_sweep *sw = calloc(1, sizeof(*sw));
	const struct cdm_sweep_point *p;

	(void)state;
	assert_non_null(r);
	assert_non_null(sw);
	stalled_test(r);
	r->ntests = 1;
	sw->vary = CDM_SWEEP_THREADS;
	cdm_sweep_build(sw, r, 1, 1, 1);
	assert_int_equal(sw->ncurves, 1);
	p = &sw->curves[0].pts[0];
	assert_true(p->ok);
	assert_true(p->seconds == 4.0);
	assert_int_equal(p->ios, 4000);
	assert_true(p->mb_s == 1000.0);
	assert_true(p->iops == 1000.0);
	assert_true(p->lat_us == 100.0);
	free(sw);
	cdm_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_sums),
		cmocka_unit_test(test_sweep_point),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
