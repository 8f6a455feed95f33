/* SPDX-License-Identifier: MIT */
/*
 * test_eta.c - the time a run has left (plan/eta.c), on plans worked out
 * by hand: each phase (the preparation, an interval, a window, a
 * read-back) counts what is left of itself and then every test after it
 * whole; a window overrun counts as 0, never below; gated windows
 * (--end-fsync on writes, --steady-state) are scaled by their measured
 * length and said approximate before one is measured; --steady-state's
 * rounds make it an upper bound; read-backs ahead are named, not
 * guessed; and the words: "42s", "2m10s", "1h02m", rounded up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cdm/plan/eta.h"

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-9)
		fail_msg("%.9f s left, want %.9f", got, want);
}

static struct cdm_eta left(const struct cdm_run_config *cfg, const enum cdm_dir *dirs,
			   unsigned int n, enum cdm_eta_phase phase, unsigned int test,
			   unsigned int win, double elapsed, double phase_left, double scale)
{
	struct cdm_eta_at at = {
		.phase = phase, .test = test, .win = win, .elapsed = elapsed,
		.phase_left = phase_left, .gate_scale = scale,
	};
	struct cdm_eta e;

	memset(&e, 0x5a, sizeof(e));
	cdm_eta_left(cfg, dirs, n, &at, &e);
	return e;
}

/* CDM's schedule: warm-up 1 s, 2 passes of 3 s, 2 s between tests; 3 tests */
static void test_plain(void **state)
{
	static const enum cdm_dir dirs[] = { CDM_DIR_READ, CDM_DIR_WRITE, CDM_DIR_MIX };
	struct cdm_run_config cfg = { .count = 2, .time_ms = 3000, .warmup_ms = 1000, .interval_ms = 2000 };
	struct cdm_eta e;

	(void)state;
	/* 10 s of preparation, then 7 + (2 + 7) + (2 + 7) */
	e = left(&cfg, dirs, 3, CDM_ETA_PREPARE, 0, 0, 0, 10, 0);
	near(e.seconds, 35);
	assert_false(e.at_most || e.approx || e.plus_verify);
	/* 0.25 s into the warm-up of test 0: 0.75 + 6 + 18 */
	near(left(&cfg, dirs, 3, CDM_ETA_WINDOW, 0, 0, 0.25, -1, 0).seconds, 24.75);
	/* 1 s into pass 1 of test 1: 2 + 3, then test 2's 9 */
	near(left(&cfg, dirs, 3, CDM_ETA_WINDOW, 1, 1, 1, -1, 0).seconds, 14);
	/* the interval before test 2, 1.5 s of it left: 1.5 + 7 */
	near(left(&cfg, dirs, 3, CDM_ETA_INTERVAL, 2, 0, 0, 1.5, 0).seconds, 8.5);
	/* the last pass ran over its end (the workers' drain): 0, never below */
	e = left(&cfg, dirs, 3, CDM_ETA_WINDOW, 2, 2, 3.4, -1, 0);
	near(e.seconds, 0);
	/* the same plan without a warm-up or intervals */
	cfg.warmup_ms = 0;
	cfg.interval_ms = 0;
	near(left(&cfg, dirs, 3, CDM_ETA_PREPARE, 0, 0, 0, 0, 0).seconds, 18);
	near(left(&cfg, dirs, 3, CDM_ETA_WINDOW, 0, 1, 0.5, -1, 0).seconds, 17.5);
}

/* the preparation or a read-back with no byte done yet: no figure, not 0 */
static void test_unknown(void **state)
{
	static const enum cdm_dir dirs[] = { CDM_DIR_READ };
	struct cdm_run_config cfg = { .count = 5, .time_ms = 5000, .warmup_ms = 0, .interval_ms = 5000 };
	char buf[64];

	(void)state;
	assert_true(isnan(left(&cfg, dirs, 1, CDM_ETA_PREPARE, 0, 0, 0, -1, 0).seconds));
	assert_true(isnan(left(&cfg, dirs, 1, CDM_ETA_VERIFY, 0, 0, 0, -1, 0).seconds));
	{
		struct cdm_eta e = left(&cfg, dirs, 1, CDM_ETA_PREPARE, 0, 0, 0, -1, 0);

		assert_int_equal(cdm_eta_format(&e, buf, sizeof(buf)), 0);
		assert_string_equal(buf, "");
	}
}

/* --end-fsync gates the write and Mix tests only: their windows are scaled */
static void test_end_fsync(void **state)
{
	static const enum cdm_dir dirs[] = { CDM_DIR_READ, CDM_DIR_WRITE };
	struct cdm_run_config cfg = { .count = 2, .time_ms = 4000, .warmup_ms = 2000, .interval_ms = 1000,
				      .end_fsync = 1 };
	struct cdm_eta e;

	(void)state;
	assert_int_equal(cdm_eta_gated(&cfg, CDM_DIR_READ), 0);
	assert_int_equal(cdm_eta_gated(&cfg, CDM_DIR_WRITE), 1);
	assert_int_equal(cdm_eta_gated(&cfg, CDM_DIR_MIX), 1);
	/* in the read test, no gated window measured: 3 + 4, then 1 + 10 at face value */
	e = left(&cfg, dirs, 2, CDM_ETA_WINDOW, 0, 1, 1, -1, 0);
	near(e.seconds, 18);
	assert_true(e.approx);
	assert_false(e.at_most);
	/* the write test's windows took 1.5 times their time so far: 1 + 15 */
	e = left(&cfg, dirs, 2, CDM_ETA_WINDOW, 0, 1, 1, -1, 1.5);
	near(e.seconds, 3 + 4 + 1 + 15);
	assert_false(e.approx);
	/* in the write test's warm-up: (3 - 1) + 12 */
	near(left(&cfg, dirs, 2, CDM_ETA_WINDOW, 1, 0, 1, -1, 1.5).seconds, 14);
	/* a read test after it is not scaled */
	{
		static const enum cdm_dir wr[] = { CDM_DIR_WRITE, CDM_DIR_READ };

		near(left(&cfg, wr, 2, CDM_ETA_WINDOW, 0, 2, 6, -1, 1.5).seconds, 0 + 1 + 10);
	}
}

/* --steady-state: every test at its most rounds, so an upper bound */
static void test_steady(void **state)
{
	static const enum cdm_dir dirs[] = { CDM_DIR_READ, CDM_DIR_WRITE };
	struct cdm_run_config cfg = { .count = 25, .time_ms = 1000, .warmup_ms = 0, .interval_ms = 0,
				      .steady_state = 1, .max_rounds = 25 };
	struct cdm_eta e;
	char buf[64];

	(void)state;
	/* round 5 of test 0, half done: 0.5 + 20 + 25, approximate before a round ended */
	e = left(&cfg, dirs, 2, CDM_ETA_WINDOW, 0, 5, 0.5, -1, 0);
	near(e.seconds, 45.5);
	assert_true(e.at_most);
	assert_true(e.approx);
	cdm_eta_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "at most ~46s left");
	/* rounds took 1.2 s each (drained at the gate): every round ahead scaled */
	e = left(&cfg, dirs, 2, CDM_ETA_WINDOW, 0, 5, 0.5, -1, 1.2);
	near(e.seconds, 0.7 + 20 * 1.2 + 25 * 1.2);
	assert_false(e.approx);
	/* test 0 got steady at round 7: the next estimate is test 1's alone */
	e = left(&cfg, dirs, 2, CDM_ETA_WINDOW, 1, 1, 0, -1, 1.2);
	near(e.seconds, 25 * 1.2);
	assert_true(e.at_most);
	/* the last round of the last test runs to its end: no "at most" */
	e = left(&cfg, dirs, 2, CDM_ETA_WINDOW, 1, 25, 0.2, -1, 1.2);
	near(e.seconds, 1.0);
	assert_false(e.at_most);
}

/* --verify: a read-back under way is the caller's estimate; those ahead are named */
static void test_verify(void **state)
{
	static const enum cdm_dir dirs[] = { CDM_DIR_READ, CDM_DIR_WRITE, CDM_DIR_READ };
	struct cdm_run_config cfg = { .count = 1, .time_ms = 2000, .warmup_ms = 0, .interval_ms = 3000,
				      .verify = 1 };
	struct cdm_eta e;
	char buf[64];

	(void)state;
	e = left(&cfg, dirs, 3, CDM_ETA_WINDOW, 0, 1, 0, -1, 0);
	near(e.seconds, 2 + 5 + 5);
	assert_true(e.plus_verify);
	cdm_eta_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "12s left + verify");
	/* the write test's own pass: its read-back is still ahead */
	assert_true(left(&cfg, dirs, 3, CDM_ETA_WINDOW, 1, 1, 1, -1, 0).plus_verify);
	/* its read-back, 4 s left by its rate so far, then the last test */
	e = left(&cfg, dirs, 3, CDM_ETA_VERIFY, 1, 0, 0, 4, 0);
	near(e.seconds, 4 + 5);
	assert_false(e.plus_verify);
	/* no read-back follows a read test */
	cfg.verify = 0;
	assert_false(left(&cfg, dirs, 3, CDM_ETA_PREPARE, 0, 0, 0, 1, 0).plus_verify);
}

static void fmt(double s, int at_most, int approx, const char *want)
{
	struct cdm_eta e = { .seconds = s, .at_most = at_most, .approx = approx };
	char buf[64];

	assert_int_equal(cdm_eta_format(&e, buf, sizeof(buf)), strlen(want));
	assert_string_equal(buf, want);
}

/* the words, rounded up: "0s left" only when nothing is left */
static void test_format(void **state)
{
	struct cdm_eta e = { .seconds = 3725 };
	char small[8];

	(void)state;
	fmt(0, 0, 0, "0s left");
	fmt(0.01, 0, 0, "1s left");
	fmt(42, 0, 0, "42s left");
	fmt(41.2, 0, 0, "42s left");
	fmt(59.5, 0, 0, "1m00s left");
	fmt(130, 0, 0, "2m10s left");
	fmt(3599, 0, 0, "59m59s left");
	fmt(3600, 0, 0, "1h00m left");
	fmt(3720, 0, 0, "1h02m left");
	fmt(3661, 0, 0, "1h02m left");
	fmt(100 * 3600, 0, 0, "100h00m left");
	fmt(130, 1, 0, "at most 2m10s left");
	fmt(130, 0, 1, "~2m10s left");
	/* truncated, NUL-terminated, the length written */
	assert_int_equal(cdm_eta_format(&e, small, sizeof(small)), 7);
	assert_string_equal(small, "1h03m l");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_end_fsync),
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
