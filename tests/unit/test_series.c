/* SPDX-License-Identifier: MIT */
/*
 * test_series.c - the time-series and sweep helpers: the --log-interval
 * parser, the --threads/--qd list parser, the 1-2-5 tick chooser, the
 * per-interval histogram, the merge of worker slots (exact accounting), and
 * the detectors (burst, flat ceiling, knee) on synthetic series: each must
 * fire on its shape and stay silent on a flat series with only noise.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/report/plot.h"
#include "cdm/model/detect.h"
#include "cdm/model/series.h"
#include "cdm/cli/sweep_cli.h"

/* ---- --log-interval ---------------------------------------------------- */

static void test_interval_parse(void **state)
{
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(cdm_series_interval_parse("500ms", &ns), 0);
	assert_true(ns == 500000000ull);
	assert_int_equal(cdm_series_interval_parse("1s", &ns), 0);
	assert_true(ns == 1000000000ull);
	assert_int_equal(cdm_series_interval_parse("2s", &ns), 0);
	assert_true(ns == 2000000000ull);
	assert_int_equal(cdm_series_interval_parse("1.5s", &ns), 0);
	assert_true(ns == 1500000000ull);
	assert_int_equal(cdm_series_interval_parse("3", &ns), 0);
	assert_true(ns == 3000000000ull);
	assert_int_equal(cdm_series_interval_parse("100ms", &ns), 0);
	assert_true(ns == 100000000ull);
	assert_int_equal(cdm_series_interval_parse("99ms", &ns), -ERANGE);
	assert_int_equal(cdm_series_interval_parse("0", &ns), -ERANGE);
	assert_int_equal(cdm_series_interval_parse("3601s", &ns), -ERANGE);
	assert_int_equal(cdm_series_interval_parse("", &ns), -EINVAL);
	assert_int_equal(cdm_series_interval_parse("1x", &ns), -EINVAL);
	assert_int_equal(cdm_series_interval_parse("-1s", &ns), -EINVAL);
	assert_int_equal(cdm_series_interval_parse("s", &ns), -EINVAL);
	assert_int_equal(cdm_series_interval_parse("1 s", &ns), -EINVAL);
	assert_int_equal(cdm_series_interval_parse("nan", &ns), -EINVAL);
	assert_int_equal(cdm_series_interval_parse("1ms", &ns), -ERANGE);
}

static void test_window_slots(void **state)
{
	(void)state;
	assert_int_equal(cdm_series_window_slots(5000000000ull, 1000000000ull), 5);
	assert_int_equal(cdm_series_window_slots(5000000000ull, 2000000000ull), 3);
	assert_int_equal(cdm_series_window_slots(0, 1000000000ull), 0);
	assert_true(cdm_series_mem(1000, 2, 5000, 1000000000ull) == 11 * sizeof(struct cdm_series_slot));
}

/* ---- --threads / --qd lists --------------------------------------------- */

static void test_list_parse(void **state)
{
	unsigned int v[CDM_SWEEP_MAX_VALUES], n = 99;

	(void)state;
	assert_int_equal(cdm_cli_sweep_parse_list("1,2,4,8,16,32,64", 256, v, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[6], 64);
	assert_int_equal(cdm_cli_sweep_parse_list("3", 256, v, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0], 3);
	assert_int_equal(cdm_cli_sweep_parse_list("1,3,5,6", 256, v, &n), 0);
	assert_int_equal(n, 4);
	/* refused: empty items, spaces, order, range, length, junk */
	assert_int_equal(cdm_cli_sweep_parse_list("", 256, v, &n), -EINVAL);
	assert_int_equal(n, 0);
	assert_int_equal(cdm_cli_sweep_parse_list("1,,2", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list("1,2,", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list(",1", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list("1, 2", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list("4,2", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list("2,2", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list("0,1", 256, v, &n), -ERANGE);
	assert_int_equal(cdm_cli_sweep_parse_list("1,257", 256, v, &n), -ERANGE);
	assert_int_equal(cdm_cli_sweep_parse_list("1,1024", 1024, v, &n), 0);
	assert_int_equal(cdm_cli_sweep_parse_list("99999999999", 1024, v, &n), -ERANGE);
	assert_int_equal(cdm_cli_sweep_parse_list("1,2x", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list("-1", 256, v, &n), -EINVAL);
	assert_int_equal(cdm_cli_sweep_parse_list("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", 256, v, &n), 0);
	assert_int_equal(n, 16);
	assert_int_equal(cdm_cli_sweep_parse_list("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 256, v, &n),
			 -EINVAL);
}

/* ---- ticks -------------------------------------------------------------- */

/* is @step 1, 2 or 5 times a power of ten? */
static int nice(double step)
{
	while (step >= 10)
		step /= 10;
	while (step < 1)
		step *= 10;
	return (step > 0.999 && step < 1.001) || (step > 1.999 && step < 2.001) ||
	       (step > 4.999 && step < 5.001);
}

static void test_ticks_cases(void **state)
{
	struct cdm_ticks t;
	char buf[32];

	(void)state;
	assert_int_equal(cdm_plot_ticks(0, 10, 5, &t), 0);
	assert_true(t.step == 2 && t.lo == 0 && t.hi == 10 && t.n == 6);
	assert_int_equal(cdm_plot_ticks(0, 12345, 6, &t), 0);
	assert_true(t.step == 5000 && t.lo == 0 && t.hi == 15000 && t.n == 4);
	assert_int_equal(cdm_plot_ticks(0, 12345, 8, &t), 0);
	assert_true(t.step == 2000 && t.lo == 0 && t.hi == 14000 && t.n == 8);
	assert_int_equal(cdm_plot_ticks(0, 0.37, 6, &t), 0);
	assert_true(t.step > 0.0999 && t.step < 0.1001 && t.n == 5);
	assert_string_equal(cdm_plot_tick_label(buf, sizeof(buf), 0.3, t.step), "0.3");
	assert_int_equal(cdm_plot_ticks(0, 0.37, 8, &t), 0);
	assert_true(t.step > 0.0499 && t.step < 0.0501 && t.n == 9);
	assert_string_equal(cdm_plot_tick_label(buf, sizeof(buf), 0.35, t.step), "0.35");
	assert_int_equal(cdm_plot_ticks(0, 20, 10, &t), 0);
	assert_true(t.step == 2 && t.n == 11);
	assert_string_equal(cdm_plot_tick_label(buf, sizeof(buf), 14, t.step), "14");
	assert_int_equal(cdm_plot_ticks(0, 2.5, 10, &t), 0);
	assert_true(t.step > 0.499 && t.step < 0.501);
	assert_string_equal(cdm_plot_tick_label(buf, sizeof(buf), 1.5, t.step), "1.5");
	/* empty ranges widen; bad ranges are refused */
	assert_int_equal(cdm_plot_ticks(0, 0, 5, &t), 0);
	assert_true(t.lo == 0 && t.hi == 1);
	assert_int_equal(cdm_plot_ticks(7, 7, 5, &t), 0);
	assert_true(t.lo == 0 && t.hi >= 7);
	assert_int_equal(cdm_plot_ticks(5, 1, 5, &t), -EINVAL);
	assert_int_equal(cdm_plot_ticks(0, 1.0 / 0.0, 5, &t), -EINVAL);
	assert_int_equal(cdm_plot_ticks(0, 1, 0, &t), -EINVAL);
}

/* every range: a 1-2-5 step, covering the range, at most target intervals */
static void test_ticks_property(void **state)
{
	static const double maxes[] = { 0.001, 0.07, 0.9, 1, 3.3, 9.99, 10, 47, 123.4, 999,
					1000, 65536, 1.5e6, 2.2e9 };
	static const double mins[] = { 0, 0.5, -3 };

	(void)state;
	for (size_t i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		for (size_t k = 0; k < sizeof(mins) / sizeof(mins[0]); k++) {
			for (unsigned int target = 2; target <= 10; target++) {
				double lo = mins[k] * maxes[i], hi = maxes[i];
				struct cdm_ticks t;

				assert_int_equal(cdm_plot_ticks(lo, hi, target, &t), 0);
				assert_true(nice(t.step));
				assert_true(t.lo <= lo + t.step * 1e-6);
				assert_true(t.hi >= hi - t.step * 1e-6);
				assert_true(t.n >= 2 && t.n - 1 <= target);
				/* not needlessly coarse: the next smaller step would not fit */
				assert_true((t.hi - t.lo) / t.step > target / 5.0 - 1);
			}
		}
	}
}

/*
 * the stretch a panel's x axis covers: its points, each line's stretch (the
 * intervals its points stand for), its own span, its bands and its boxes,
 * not empty ones; a categorical axis its points only
 */
static void test_x_span(void **state)
{
	static const double xs[] = { 0.5, 1.5, 2.5 }, ys[] = { 1, 2, 0.0 / 0.0 };
	struct cdm_plot_line ln = { .name = "L", .n = 3, .x = xs, .y = ys };
	const struct cdm_plot_band bands[] = { { 1, 2.75, "pass 1", NULL }, { 9, 9, "empty", NULL } };
	const struct cdm_plot_band boxes[] = { { 0.25, 3.5, "1", NULL } };
	const struct cdm_plot_lane lane = { .name = "T", .nboxes = 1, .boxes = boxes };
	struct cdm_plot_panel p = { .nlines = 1, .lines = &ln };
	double lo, hi;

	(void)state;
	/* the last point has no y: not drawn, not covered */
	assert_int_equal(cdm_plot_x_span(&p, &lo, &hi), 1);
	assert_true(lo == 0.5 && hi == 1.5);
	ln.x_lo = 0;
	ln.x_hi = 2;
	assert_int_equal(cdm_plot_x_span(&p, &lo, &hi), 1);
	assert_true(lo == 0 && hi == 2);
	p.nbands = 2;
	p.bands = bands;
	assert_int_equal(cdm_plot_x_span(&p, &lo, &hi), 1);
	assert_true(lo == 0 && hi == 2.75);
	p.nlanes = 1;
	p.lanes = &lane;
	assert_int_equal(cdm_plot_x_span(&p, &lo, &hi), 1);
	assert_true(lo == 0 && hi == 3.5);
	p.x_lo = 0.125;
	p.x_hi = 4;
	assert_int_equal(cdm_plot_x_span(&p, &lo, &hi), 1);
	assert_true(lo == 0 && hi == 4);
	/* categories: the points alone */
	p.x_categories = 1;
	assert_int_equal(cdm_plot_x_span(&p, &lo, &hi), 1);
	assert_true(lo == 0.5 && hi == 1.5);
	p = (struct cdm_plot_panel){ .x_lo = 3, .x_hi = 3 };
	assert_int_equal(cdm_plot_x_span(&p, &lo, &hi), 0);
	assert_true(lo == 0 && hi == 0);
}

/* ---- per-interval histogram and the merge --------------------------------- */

static void test_shist(void **state)
{
	(void)state;
	/* every bucket's midpoint maps back to it, and lies within 1/32 */
	for (uint64_t v = 1; v < (1ull << 39); v = v * 3 / 2 + 1) {
		unsigned int i = cdm_series_hist_index(v);
		uint64_t mid = cdm_series_hist_value(i);
		uint64_t d = mid > v ? mid - v : v - mid;

		assert_true(i < CDM_SHIST_BUCKETS);
		assert_int_equal(cdm_series_hist_index(mid), i);
		assert_true(d * 32 <= v);
	}
	assert_int_equal(cdm_series_hist_index(1ull << 45), CDM_SHIST_BUCKETS - 1);
}

static void test_build_accounting(void **state)
{
	/* two workers, warm-up of 2 intervals, two passes of 3 (last partial) */
	uint64_t bounds[4] = { 1000, 1000 + 2000, 1000 + 2000 + 2500, 1000 + 2000 + 5000 };
	unsigned int base[3] = { 0, 2, 5 }, n[3] = { 2, 3, 3 };
	struct cdm_series_slot *slots[2];
	struct cdm_series *s;
	uint64_t bytes[3] = { 0 }, want[3] = { 0 };

	(void)state;
	for (int t = 0; t < 2; t++) {
		slots[t] = calloc(8, sizeof(**slots));
		assert_non_null(slots[t]);
		for (int k = 0; k < 8; k++) {
			for (int i = 0; i < 100 + k * 10 + t; i++)
				cdm_series_add(&slots[t][k], 4096, 1000 + (uint64_t)i * 10);
			want[k < 2 ? 0 : k < 5 ? 1 : 2] += (uint64_t)(100 + k * 10 + t) * 4096;
		}
	}
	s = cdm_series_build(1000, bounds, NULL, 3, base, n, slots, 2);
	assert_non_null(s);
	assert_int_equal(s->npoints, 8);
	for (unsigned int k = 0; k < s->npoints; k++)
		bytes[s->points[k].pass] += s->points[k].bytes;
	assert_true(bytes[0] == want[0] && bytes[1] == want[1] && bytes[2] == want[2]);
	assert_int_equal(s->points[0].pass, 0);
	assert_true(s->points[2].start_ns == 2000 && s->points[2].duration_ns == 1000);
	/* the third interval of pass 1 is cut by the pass end at 2500 */
	assert_true(s->points[4].start_ns == 4000 && s->points[4].duration_ns == 500);
	assert_true(s->points[0].ios == 201);
	/* p99 of 1000..1990 ns (+10 ns steps, twice) is about 1980 ns */
	assert_true(s->points[0].lat_p99_ns > 1900 && s->points[0].lat_p99_ns < 2050);
	cdm_series_free(s);
	free(slots[0]);
	free(slots[1]);
}

/* ---- detectors ---------------------------------------------------------- */

static uint64_t rng = 0x243f6a8885a308d3ull;

/* uniform noise in [-a, a] */
static double noise(double a)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return ((double)((rng * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0 * 2 - 1) * a;
}

static void test_burst_fires(void **state)
{
	double x[30];
	struct cdm_burst b;

	(void)state;
	/* 8 intervals at ~3000 MB/s, then ~1000 MB/s: a credit-based disk */
	for (int i = 0; i < 30; i++)
		x[i] = (i < 8 ? 3000 : 1000) * (1 + noise(0.05));
	assert_int_equal(cdm_detect_burst(x, 30, &b), 1);
	assert_int_equal(b.split, 8);
	assert_true(b.high > 2800 && b.high < 3200);
	assert_true(b.low > 950 && b.low < 1050);
	/* a short burst of two intervals is still one */
	for (int i = 0; i < 10; i++)
		x[i] = (i < 2 ? 500 : 200) * (1 + noise(0.03));
	assert_int_equal(cdm_detect_burst(x, 10, &b), 1);
	assert_int_equal(b.split, 2);
}

static void test_burst_silent(void **state)
{
	double x[60];
	struct cdm_burst b;

	(void)state;
	/* flat with +-10 % noise, many seeds */
	for (int r = 0; r < 200; r++) {
		for (int i = 0; i < 60; i++)
			x[i] = 1000 * (1 + noise(0.10));
		assert_int_equal(cdm_detect_burst(x, 60, &b), 0);
		assert_int_equal(b.found, 0);
	}
	/* one spike at the start is not a burst */
	for (int i = 0; i < 20; i++)
		x[i] = 1000 * (1 + noise(0.03));
	x[0] = 2500;
	assert_int_equal(cdm_detect_burst(x, 20, &b), 0);
	/* a rising series is not a burst */
	for (int i = 0; i < 20; i++)
		x[i] = 100 + 50 * i;
	assert_int_equal(cdm_detect_burst(x, 20, &b), 0);
	/* measured on a shared VM disk (RND4K Q1T1 write, MB/s per second): wild
	 * swings, then nearly idle while other jobs wrote; a drop, not a burst */
	{
		static const double vm[12] = { 1.2, 2.8, 18.2, 1.4, 1.2, 1.1, 0.9, 7.0, 7.4,
					       0.049, 0.045, 0.049 };

		assert_int_equal(cdm_detect_burst(vm, 12, &b), 0);
	}
	/* too short to tell */
	assert_int_equal(cdm_detect_burst(x, 5, &b), 0);
}

/*
 * A burst lasts to the end of the series: a dip that recovers is not one.
 * The field case: a busy run's series (MB/s per second) that the rule
 * before this one called "20.1 MB/s at the start, then 15.2 MB/s from
 * 7.0 s on": the last interval is back at the high level.
 */
static void test_burst_lasts(void **state)
{
	static const double field[12] = { 18.7, 19.5, 20.1, 20.7, 20.3, 19.9, 20.2,
					  17.2, 14.2, 14.7, 15.2, 20.8 };
	double x[24];
	struct cdm_burst b;

	(void)state;
	assert_int_equal(cdm_detect_burst(field, 12, &b), 0);
	assert_int_equal(b.found, 0);
	/* the same series ending low: a burst, at the same split */
	memcpy(x, field, sizeof(field));
	x[11] = 15.3;
	assert_int_equal(cdm_detect_burst(x, 12, &b), 1);
	assert_int_equal(b.split, 7);
	assert_true(b.high > 20.0 && b.high < 20.2);
	assert_true(b.low > 15.1 && b.low < 15.3);
	/* a recovery in the last two intervals (6 of the 8 low: the old rule's 75 %) */
	for (int i = 0; i < 14; i++)
		x[i] = (i < 6 || i >= 12 ? 20 : 15) * (1 + noise(0.02));
	assert_int_equal(cdm_detect_burst(x, 14, &b), 0);
	/* a recovery in the last interval of a long low level */
	for (int i = 0; i < 24; i++)
		x[i] = (i < 6 || i == 23 ? 3000 : 1000) * (1 + noise(0.03));
	assert_int_equal(cdm_detect_burst(x, 24, &b), 0);
	x[23] = 1000;
	assert_int_equal(cdm_detect_burst(x, 24, &b), 1);
	assert_int_equal(b.split, 6);
	/* a dip in the middle that recovers for a while */
	for (int i = 0; i < 20; i++)
		x[i] = (i >= 6 && i < 12 ? 1000 : 3000) * (1 + noise(0.03));
	assert_int_equal(cdm_detect_burst(x, 20, &b), 0);
	/* a single interval back at the high level inside the tail */
	for (int i = 0; i < 24; i++)
		x[i] = (i < 6 || i == 15 ? 3000 : 1000) * (1 + noise(0.03));
	assert_int_equal(cdm_detect_burst(x, 24, &b), 0);
	/* the tail's last quarter all at the low level: one stray interval there
	 * (20 % off, not high) is no burst; the same stray earlier is */
	for (int i = 0; i < 24; i++)
		x[i] = (i < 6 ? 3000 : i == 22 ? 1200 : 1000) * (1 + noise(0.01));
	assert_int_equal(cdm_detect_burst(x, 24, &b), 0);
	x[22] = 1000;
	x[10] = 1200;
	assert_int_equal(cdm_detect_burst(x, 24, &b), 1);
}

/* a load point: load, figure, latency, flatness; its MB/s and IOPS unknown */
#define LP(l, v, lat, f) { (l), (v), (lat), (f), 0, 0 }
/* one of RND4K, its figure IOPS: both MB/s and IOPS known */
#define P4K(l, v, lat, f) { (l), (v), (lat), (f), (v) * 4096 / 1e6, (v) }

static void test_ceiling(void **state)
{
	/* load 1..32: the figure reaches a cap of 5000 at load 4, latency ~ load */
	struct cdm_load_point cap[6] = {
		P4K(1, 1800, 550, 0.95), P4K(2, 3500, 570, 0.95), P4K(4, 4990, 800, 0.97),
		P4K(8, 5010, 1600, 0.99), P4K(16, 4995, 3200, 0.99), P4K(32, 5005, 6400, 1),
	};
	/* a device that keeps scaling */
	struct cdm_load_point grow[4] = {
		LP(1, 1000, 100, 0.9), LP(2, 2000, 100, 0.9), LP(4, 4000, 100, 0.9), LP(8, 7900, 101, 0.9),
	};
	/* flat figure, flat latency (noise only): no ceiling */
	struct cdm_load_point flat[4] = {
		LP(4, 1000, 400, 0.9), LP(4, 1010, 401, 0.9), LP(4, 995, 399, 0.9), LP(4, 1003, 402, 0.9),
	};
	struct cdm_ceiling c;

	(void)state;
	assert_int_equal(cdm_detect_ceiling(cap, 6, &c), 1);
	assert_int_equal(c.from, 2);
	assert_true(c.level > 4990 && c.level < 5010);
	assert_true(c.lat_ratio > 7.9 && c.lat_ratio < 8.1);
	/* its level in both units: the means of the points' own figures */
	assert_true(c.iops == c.level);
	assert_true(c.mb_s > c.iops * 4096 / 1e6 - 1e-9 && c.mb_s < c.iops * 4096 / 1e6 + 1e-9);
	assert_int_equal(cdm_detect_ceiling(grow, 4, &c), 0);
	assert_int_equal(cdm_detect_ceiling(flat, 4, &c), 0);
	/* the same cap, but the series of a point wanders: not a flat ceiling */
	cap[4].flat = 0.5;
	assert_int_equal(cdm_detect_ceiling(cap, 6, &c), 0);
	cap[4].flat = -1;       /* unknown flatness does not stop it */
	assert_int_equal(cdm_detect_ceiling(cap, 6, &c), 1);
	/* a single point on the ceiling is not enough */
	assert_int_equal(cdm_detect_ceiling(cap + 4, 1, &c), 0);
}

static void test_knee(void **state)
{
	struct cdm_load_point sat[6] = {
		LP(1, 3000, 330, -1), LP(2, 5800, 345, -1), LP(4, 9000, 440, -1),
		LP(8, 9500, 840, -1), LP(16, 9600, 1660, -1), LP(32, 9650, 3300, -1),
	};
	struct cdm_load_point grow[4] = {
		LP(1, 1000, 100, -1), LP(2, 2000, 100, -1), LP(4, 4000, 101, -1), LP(8, 8000, 102, -1),
	};
	/* IOPS stall but latency does not rise (noise): no knee */
	struct cdm_load_point stall[4] = {
		LP(1, 1000, 100, -1), LP(2, 1010, 99, -1), LP(4, 1005, 101, -1), LP(8, 1002, 98, -1),
	};
	/* a dip then growth: the dip is not the knee */
	struct cdm_load_point dip[5] = {
		LP(1, 1000, 100, -1), LP(2, 1050, 190, -1), LP(4, 2500, 160, -1),
		LP(8, 2600, 300, -1), LP(16, 2650, 600, -1),
	};

	(void)state;
	assert_int_equal(cdm_detect_knee(sat, 6), 2);
	assert_int_equal(cdm_detect_knee(grow, 4), -1);
	assert_int_equal(cdm_detect_knee(stall, 4), -1);
	assert_int_equal(cdm_detect_knee(dip, 5), 2);
	assert_int_equal(cdm_detect_knee(sat, 1), -1);
	assert_int_equal(cdm_detect_knee(sat, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_parse),
		cmocka_unit_test(test_window_slots),
		cmocka_unit_test(test_list_parse),
		cmocka_unit_test(test_ticks_cases),
		cmocka_unit_test(test_ticks_property),
		cmocka_unit_test(test_x_span),
		cmocka_unit_test(test_shist),
		cmocka_unit_test(test_build_accounting),
		cmocka_unit_test(test_burst_fires),
		cmocka_unit_test(test_burst_silent),
		cmocka_unit_test(test_burst_lasts),
		cmocka_unit_test(test_ceiling),
		cmocka_unit_test(test_knee),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
