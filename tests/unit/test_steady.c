/* SPDX-License-Identifier: MIT */
/*
 * test_steady.c - steady state by PTS's rule (model/steady.c) on windows
 * computed by hand: a constant window is steady; a range of 25 % of the
 * mean is not; a straight ramp whose line moves 12 % of the mean across
 * the window is not, one that moves 8 % is; a window with a round that
 * measured nothing is not, and fewer than 5 rounds are never judged.  The
 * round it got steady is fixed at the first steady window, and the
 * figures of model/result.h come from the last window only (a test whose
 * first rounds were fast shows the window's best, not round 1's).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "cdm/model/result.h"
#include "cdm/model/steady.h"
#include "cdm/plan/plan.h"
#include "unit.h"

#define MB 1000000ull

/* a 1 s pass of @mb_s MB/s in 1 MB I/Os (SEQ) or of @mb_s x 1000 IOPS (RND: 1 KB I/Os) */
static struct cdm_pass pass_of(double mb_s)
{
	struct cdm_pass p = { 0 };
	uint64_t ios = (uint64_t)llround(mb_s * 1000.0);

	p.seconds = 1.0;
	p.ios = ios;
	p.bytes = ios * 1000;
	p.lat_sum_ns = ios * 1000;
	return p;
}

static void judge(const double *fig, unsigned int n, int want, double range, double slope)
{
	double r = 0, s = 0;

	assert_int_equal(cdm_steady_judge(fig, n, &r, &s), want);
	if (isnan(range)) {
		assert_true(isnan(r) && isnan(s));
		return;
	}
	assert_true(fabs(r - range) < 1e-9);
	assert_true(fabs(s - slope) < 1e-9);
}

/* PTS's two limits, each alone, on windows worked out by hand */
static void test_judge(void **state)
{
	/* the same figure 5 times: no range, a flat line */
	static const double flat[] = { 100, 100, 100, 100, 100 };
	/* mean 100, 115 - 90 = 25 % of it; slope sum((x-2)(y-100))/10 = 0.5, x4 = 2 % */
	static const double wide[] = { 90, 115, 95, 100, 100 };
	/* a ramp of 3 a round: the line moves 12 over the window, 12 % of 100; range 12 % */
	static const double ramp12[] = { 94, 97, 100, 103, 106 };
	/* the same falling by 2 a round: 8 % and 8 %, within both limits */
	static const double ramp8[] = { 104, 102, 100, 98, 96 };
	/* the range limit itself: 20 % is steady (at most, not below); slope (20 - 10)/10 x4 = 4 % */
	static const double edge[] = { 90, 110, 100, 100, 100 };
	double nan_win[] = { 100, 100, NAN, 100, 100 };
	double r, s;

	(void)state;
	judge(flat, 5, 1, 0.0, 0.0);
	judge(wide, 5, 0, 25.0, 2.0);
	judge(ramp12, 5, 0, 12.0, 12.0);
	judge(ramp8, 5, 1, 8.0, 8.0);
	judge(edge, 5, 1, 20.0, 4.0);
	/* a round without a figure: never steady, no range or slope */
	judge(nan_win, 5, 0, NAN, NAN);
	/* one figure is no window; NULL outputs are allowed */
	judge(flat, 1, 0, NAN, NAN);
	assert_int_equal(cdm_steady_judge(flat, 5, NULL, NULL), 1);
	/* a mean of 0 (nothing moved) is no steady state either */
	{
		static const double zero[] = { 0, 0, 0, 0, 0 };

		assert_int_equal(cdm_steady_judge(zero, 5, &r, &s), 0);
		assert_true(isnan(r));
	}
}

/* IOPS for random tests, MB/s for sequential ones, NaN for a round that measured nothing */
static void test_figure(void **state)
{
	struct cdm_pass p = pass_of(250.0), none = { .seconds = 1.0 };

	(void)state;
	assert_true(cdm_steady_figure(&p, CDM_SEQ) == 250.0);
	assert_true(cdm_steady_figure(&p, CDM_RND) == 250000.0);
	assert_true(isnan(cdm_steady_figure(&none, CDM_SEQ)));
}

/*
 * Rounds of 200, 200, then 100 MB/s: the first full windows hold the fast
 * rounds and are not steady; round 7's (3..7) is.  A fast round 8 after it
 * makes the last window unsteady, but the round it got steady stays 7.
 */
static void test_update(void **state)
{
	static const double mb[] = { 200, 200, 100, 100, 100, 100, 100, 150 };
	struct cdm_pass passes[8];
	struct cdm_steady st = { .on = 1, .max_rounds = 25 };

	(void)state;
	for (unsigned int i = 0; i < 8; i++)
		passes[i] = pass_of(mb[i]);
	for (unsigned int n = 1; n <= 4; n++) {
		assert_int_equal(cdm_steady_update(&st, passes, n, CDM_SEQ), 0);
		assert_int_equal(st.window_rounds, n);  /* fewer than 5: all, not judged */
		assert_true(isnan(st.range_pct) && isnan(st.slope_pct));
		assert_int_equal(st.reached_at_round, 0);
	}
	assert_int_equal(cdm_steady_update(&st, passes, 5, CDM_SEQ), 0);
	/* 200, 200, 100, 100, 100: mean 140, range 100/140 */
	assert_true(fabs(st.range_pct - 100.0 / 140.0 * 100.0) < 1e-9);
	assert_int_equal(cdm_steady_update(&st, passes, 6, CDM_SEQ), 0);
	assert_int_equal(cdm_steady_update(&st, passes, 7, CDM_SEQ), 1);
	assert_int_equal(st.reached_at_round, 7);
	assert_int_equal(st.window_rounds, CDM_STEADY_WINDOW);
	assert_true(st.range_pct == 0.0 && st.slope_pct == 0.0);
	assert_int_equal(cdm_steady_update(&st, passes, 8, CDM_SEQ), 1);
	assert_int_equal(st.reached_at_round, 7);       /* fixed at the first steady round */
	assert_true(st.range_pct > CDM_STEADY_RANGE_PCT);

	/* a constant test: steady at round 5, the first full window */
	{
		struct cdm_steady c = { .on = 1 };

		for (unsigned int i = 0; i < 5; i++)
			passes[i] = pass_of(300.0);
		for (unsigned int n = 1; n <= 4; n++)
			cdm_steady_update(&c, passes, n, CDM_RND);
		assert_int_equal(cdm_steady_update(&c, passes, 5, CDM_RND), 1);
		assert_int_equal(c.reached_at_round, 5);
	}
}

static void test_first_pass(void **state)
{
	struct cdm_steady off = { 0 }, on = { .on = 1 };

	(void)state;
	assert_int_equal(cdm_steady_first_pass(&off, 25), 0);   /* every pass */
	assert_int_equal(cdm_steady_first_pass(&on, 3), 0);     /* fewer than a window: all */
	assert_int_equal(cdm_steady_first_pass(&on, 5), 0);
	assert_int_equal(cdm_steady_first_pass(&on, 7), 2);     /* rounds 3..7 */
	assert_int_equal(cdm_steady_first_pass(&on, 25), 20);
}

/*
 * A test whose rounds 1 and 2 ran at 200 MB/s and 3..7 at about 100: its
 * figures are the window's.  CDM's best-of is 101 (round 4), not 200; the
 * spread is of 5 rounds; the same test without steady state shows 200.
 */
static void test_result_window(void **state)
{
	static const double mb[] = { 200, 200, 100, 101, 99, 100, 100 };
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_test_result *t;
	struct cdm_test_summary s;

	(void)state;
	assert_non_null(r);
	t = &r->tests[0];
	t->spec = (struct cdm_spec){ .pattern = CDM_SEQ, .block = MB, .qd = 8, .threads = 1 };
	t->dir = CDM_DIR_READ;
	t->qd_run = 8;
	t->steady.on = 1;
	t->steady.max_rounds = 25;
	for (unsigned int i = 0; i < 7; i++) {
		t->passes[i] = pass_of(mb[i]);
		t->npasses = i + 1;
		cdm_steady_update(&t->steady, t->passes, t->npasses, CDM_SEQ);
	}
	assert_int_equal(t->steady.reached_at_round, 7);
	assert_int_equal(cdm_result_first_pass(t), 2);
	assert_true(cdm_result_best_mb_s(t) == 101.0);
	assert_true(cdm_result_mb_s(t, CDM_AGG_BEST) == 101.0);
	assert_true(cdm_result_mb_s(t, CDM_AGG_MEDIAN) == 100.0);
	assert_int_equal(cdm_result_measured(t), 5);
	cdm_result_summarize(t, &s);
	assert_int_equal(s.npasses, 5);
	assert_int_equal(s.mb_s.n, 5);
	assert_true(s.mb_s.max == 101.0 && s.mb_s.min == 99.0);
	assert_true(s.bytes == 500 * MB);       /* the window's bytes only */

	t->steady.on = 0;                       /* the same passes as fixed passes */
	assert_int_equal(cdm_result_first_pass(t), 0);
	assert_true(cdm_result_best_mb_s(t) == 200.0);
	cdm_result_free(r);
}

/* rounds 200, 200, then five of about 100 MB/s: steady at round 7, the window rounds 3-7 */
static struct cdm_test_result *window_test(struct cdm_run_result *r, enum cdm_pattern pat)
{
	static const double mb[] = { 200, 200, 100, 101, 99, 100, 100 };
	struct cdm_test_result *t = &r->tests[0];

	t->spec = (struct cdm_spec){ .pattern = pat, .block = MB, .qd = 8, .threads = 1 };
	t->dir = CDM_DIR_WRITE;
	t->qd_run = 8;
	t->steady = (struct cdm_steady){ .on = 1, .max_rounds = 25 };
	t->npasses = 0;
	for (unsigned int i = 0; i < 7; i++) {
		t->passes[i] = pass_of(mb[i]);
		/* the rounds before the window: huge, so a sum over them shows */
		t->passes[i].lat_max_ns = i < 2 ? 9000000 : 1000 + i;
		t->passes[i].cpu_user_ns = i < 2 ? 7000000 : 10;
		t->passes[i].fsyncs = 1;
		t->passes[i].end_fsyncs = 1;
		t->passes[i].end_fsync_ns = i < 2 ? 5000000 : 100;
		t->passes[i].start_unix_ns = 1000 + i;
		t->npasses = i + 1;
		cdm_steady_update(&t->steady, t->passes, t->npasses, pat);
	}
	return t;
}

/*
 * The passes the figures come from as one pass: the window's rounds only
 * (counts, times, largest latency, end fsyncs); the tracked figure's name
 * and its mean over the window (NaN with a round that measured nothing).
 */
static void test_window_pass(void **state)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_test_result *t;
	struct cdm_pass all;

	(void)state;
	assert_non_null(r);
	t = window_test(r, CDM_SEQ);
	assert_int_equal(t->steady.reached_at_round, 7);
	cdm_result_window_pass(t, &all);
	assert_true(all.seconds == 5.0);
	assert_true(all.bytes == 500 * MB);
	assert_int_equal(all.ios, 500000);
	assert_int_equal(all.lat_max_ns, 1006);
	assert_int_equal(all.cpu_user_ns, 50);
	assert_int_equal(all.fsyncs, 5);
	assert_int_equal(all.end_fsyncs, 5);
	assert_int_equal(all.end_fsync_ns, 500);
	assert_int_equal(all.start_unix_ns, 1002);
	assert_string_equal(cdm_steady_tracked_name(CDM_SEQ), "mb_s");
	assert_string_equal(cdm_steady_tracked_name(CDM_RND), "iops");
	assert_true(cdm_steady_window_mean(&t->steady, t->passes, t->npasses, CDM_SEQ) == 100.0);
	/* a random test tracks IOPS: 1 KB I/Os, 1000 IOPS per MB/s */
	t = window_test(r, CDM_RND);
	assert_true(cdm_steady_window_mean(&t->steady, t->passes, t->npasses, CDM_RND) == 100000.0);
	t->passes[4].ios = 0;                   /* a round of the window measured nothing */
	assert_true(isnan(cdm_steady_window_mean(&t->steady, t->passes, t->npasses, CDM_RND)));
	assert_true(isnan(cdm_steady_window_mean(&t->steady, t->passes, 0, CDM_RND)));
	/* without steady state: every pass */
	t->steady.on = 0;
	cdm_result_window_pass(t, &all);
	assert_true(all.seconds == 7.0);
	assert_int_equal(all.lat_max_ns, 9000000);
	t->npasses = 0;
	cdm_result_window_pass(t, &all);
	assert_true(all.seconds == 0.0 && all.ios == 0 && all.end_fsyncs == 0);
	cdm_result_free(r);
}

/*
 * --end-fsync's flushes of a test, the one computation every report
 * shows: over the window's rounds only (the first two's 5 ms left out),
 * their count, total, mean, longest and share of the rounds' time; none
 * for a read test, a run without it, or passes without their flush
 */
static void test_end_fsync_sum(void **state)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_end_fsync_sum s;
	struct cdm_test_result *t;

	(void)state;
	assert_non_null(r);
	t = window_test(r, CDM_SEQ);
	t->passes[6].end_fsync_ns = 300;
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 0);        /* no --end-fsync */
	r->info.end_fsync = 1;
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 1);
	assert_int_equal(s.count, 5);
	assert_int_equal(s.total_ns, 700);
	assert_true(s.mean_ns == 140.0);
	assert_true(s.max_ns == 300.0);
	/* 700 ns of the rounds' 5 s */
	assert_true(fabs(s.pass_pct - 100.0 * 700 / 5e9) < 1e-15);
	/* a round without its flush counts neither its time nor a flush */
	t->passes[5].end_fsyncs = 0;
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 1);
	assert_int_equal(s.count, 4);
	assert_int_equal(s.total_ns, 600);
	assert_true(fabs(s.pass_pct - 100.0 * 600 / 4e9) < 1e-15);
	/* without steady state: every pass */
	t->steady.on = 0;
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 1);
	assert_int_equal(s.count, 6);
	assert_true(s.max_ns == 5000000.0);
	for (unsigned int i = 0; i < t->npasses; i++)
		t->passes[i].end_fsyncs = 0;
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 0);
	assert_int_equal(s.count, 0);
	/* a read test flushes nothing */
	t = window_test(r, CDM_SEQ);
	t->dir = CDM_DIR_READ;
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 0);
	/* a report's: its note as read, no count */
	t->dir = CDM_DIR_WRITE;
	t->npasses = 0;
	t->reported = (struct cdm_reported){ .has = 1, .mb_s = 100 };
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 0);
	t->reported.has_end_fsync = 1;
	t->reported.end_fsync = (struct cdm_end_fsync_sum){ .mean_ns = 66.8e6, .max_ns = 80.1e6,
							    .pass_pct = 3.2 };
	assert_int_equal(cdm_result_end_fsync_sum(t, &r->info, &s), 1);
	assert_int_equal(s.count, 0);
	assert_true(s.mean_ns == 66.8e6 && s.max_ns == 80.1e6 && s.pass_pct == 3.2);
	cdm_result_free(r);
}

/* whole or not, the most rounds, the passes asked for, and whose passes end with a flush */
static void test_complete(void **state)
{
	struct cdm_run_result *r = cdm_result_alloc(1);
	struct cdm_run_info *in;
	struct cdm_test_result *t;

	(void)state;
	assert_non_null(r);
	in = &r->info;
	in->count = 5;
	in->max_rounds = 9;
	t = window_test(r, CDM_SEQ);            /* steady at round 7 of 25 */
	assert_int_equal(cdm_result_max_rounds(t, in), 25);
	assert_int_equal(cdm_result_requested(t, in), 25);
	assert_true(cdm_result_complete(t, in));
	t->steady.reached_at_round = 0;         /* not steady after 7 of 25 rounds: cut short */
	assert_false(cdm_result_complete(t, in));
	t->steady.max_rounds = 0;               /* a file without its own: the run's 9 */
	assert_int_equal(cdm_result_max_rounds(t, in), 9);
	assert_false(cdm_result_complete(t, in));
	in->max_rounds = 7;                     /* every round it could run */
	assert_true(cdm_result_complete(t, in));
	t->error = -EIO;
	assert_false(cdm_result_complete(t, in));
	t->error = 0;
	t->steady.on = 0;                       /* fixed passes: --count */
	assert_int_equal(cdm_result_requested(t, in), 5);
	assert_true(cdm_result_complete(t, in));
	t->npasses = 4;
	assert_false(cdm_result_complete(t, in));
	t->npasses = 0;
	assert_false(cdm_result_complete(t, in));
	t->reported.has = 1;                    /* a report's figures are all there is */
	assert_true(cdm_result_complete(t, in));

	assert_true(cdm_result_end_fsync(t, 1));        /* a write test */
	assert_false(cdm_result_end_fsync(t, 0));
	t->dir = CDM_DIR_MIX;
	assert_true(cdm_result_end_fsync(t, 1));
	t->dir = CDM_DIR_READ;
	assert_false(cdm_result_end_fsync(t, 1));
	cdm_result_free(r);
}

/* --steady-state's schedule is set in plan/ alone: rounds as passes, no warm-up */
static void test_plan_steady(void **state)
{
	struct cdm_run_config cfg = { .count = 5, .warmup_ms = 1000 };
	struct cdm_err err;

	(void)state;
	/* without it nothing changes */
	assert_int_equal(cdm_plan_steady(&cfg, &err), 0);
	assert_int_equal(cfg.count, 5);
	assert_int_equal(cfg.warmup_ms, 1000);
	assert_int_equal(cfg.max_rounds, 0);
	/* --max-rounds alone is refused */
	cfg.max_rounds = 7;
	assert_int_equal(cdm_plan_steady(&cfg, &err), -EINVAL);
	assert_string_equal(err.msg, "--max-rounds is the most rounds of --steady-state: give --steady-state too");
	assert_int_equal(cfg.count, 5);
	/* with it: the most rounds are the passes, the profile's warm-up goes */
	cfg.steady_state = 1;
	assert_int_equal(cdm_plan_steady(&cfg, &err), 0);
	assert_int_equal(cfg.count, 7);
	assert_int_equal(cfg.warmup_ms, 0);
	assert_int_equal(cfg.max_rounds, 7);
	/* and the default most, PTS's 25 */
	cfg.max_rounds = 0;
	cfg.count = 5;
	assert_int_equal(cdm_plan_steady(&cfg, &err), 0);
	assert_int_equal(cfg.max_rounds, CDM_STEADY_MAX_ROUNDS_DEFAULT);
	assert_int_equal(cfg.count, CDM_STEADY_MAX_ROUNDS_DEFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_figure),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_first_pass),
		cmocka_unit_test(test_result_window),
		cmocka_unit_test(test_window_pass),
		cmocka_unit_test(test_end_fsync_sum),
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_plan_steady),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
