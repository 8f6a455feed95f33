/* SPDX-License-Identifier: MIT */
/*
 * detect.c - the burst, ceiling and knee detectors and their run over a
 * whole result (include/cdm/model/detect.h; rules in docs/method.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/model/detect.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/model/spec.h"

/* ---- detectors -------------------------------------------------------- */

/* no libm: cdm links libc only */
static inline double absd(double v)
{
	return v < 0 ? -v : v;
}

/* median of x[0..n) using @tmp (n doubles) */
static double median(const double *x, unsigned int n, double *tmp)
{
	if (!n)
		return 0.0;
	memcpy(tmp, x, n * sizeof(*x));
	return cdm_result_median(tmp, n);
}

int cdm_detect_burst(const double *x, unsigned int n, struct cdm_burst *b)
{
	double *tmp, best = INFINITY, H = 0, L = 0;
	unsigned int d, bd = 0, hi = 0, steady = 0, last;

	memset(b, 0, sizeof(*b));
	if (n < 6)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return 0;
	for (d = 2; d + 3 <= n; d++) {
		double h = median(x, d, tmp), l = median(x + d, n - d, tmp), cost = 0;

		for (unsigned int i = 0; i < n; i++)
			cost += absd(x[i] - (i < d ? h : l));
		if (cost < best) {
			best = cost;
			bd = d;
			H = h;
			L = l;
		}
	}
	free(tmp);
	if (!(L > 0) || H < 1.3 * L)
		return 0;
	for (unsigned int i = 0; i < bd; i++)
		hi += x[i] > 1.15 * L && absd(x[i] - H) <= 0.2 * H;
	for (unsigned int i = bd; i < n; i++)
		steady += absd(x[i] - L) <= 0.15 * L;
	if (hi * 4 < bd * 3 || steady * 4 < (n - bd) * 3)
		return 0;
	/* it lasts to the end: the last max(2, a quarter of the tail) at the
	 * low level, and no interval of the tail back at the high one */
	last = (n - bd + 3) / 4;
	if (last < 2)
		last = 2;
	for (unsigned int i = bd; i < n; i++)
		if ((i >= n - last && absd(x[i] - L) > 0.15 * L) ||
		    (x[i] > 1.15 * L && x[i] >= 0.8 * H))
			return 0;
	b->found = 1;
	b->split = bd;
	b->high = H;
	b->low = L;
	return 1;
}

int cdm_detect_knee(const struct cdm_load_point *p, unsigned int n)
{
	for (unsigned int i = 0; i + 1 < n; i++) {
		int knee = 1;

		for (unsigned int j = i + 1; j < n && knee; j++)
			if (p[j].value >= 1.10 * p[i].value || !(p[j].lat > p[i].lat))
				knee = 0;
		if (knee)
			return (int)i;
	}
	return -1;
}

int cdm_detect_ceiling(const struct cdm_load_point *p, unsigned int n, struct cdm_ceiling *c)
{
	double m = 0, sum = 0, mb_s = 0, iops = 0;
	unsigned int i, from = n;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++)
		if (p[i].value > m)
			m = p[i].value;
	if (!(m > 0))
		return 0;
	for (i = 0; i < n; i++) {
		if (p[i].value >= 0.95 * m) {
			from = i;
			break;
		}
	}
	if (from + 2 > n)
		return 0;
	for (i = from; i < n; i++) {
		if (p[i].value < 0.95 * m)
			return 0;
		if (p[i].flat >= 0 && p[i].flat < 0.8)
			return 0;
		sum += p[i].value;
		mb_s += p[i].mb_s;
		iops += p[i].iops;
	}
	if (!(p[from].lat > 0) || p[n - 1].lat < 1.25 * p[from].lat)
		return 0;
	c->found = 1;
	c->from = from;
	c->level = sum / (n - from);
	c->mb_s = mb_s / (n - from);
	c->iops = iops / (n - from);
	c->lat_ratio = p[n - 1].lat / p[from].lat;
	return 1;
}

/* ---- analysis of a run ------------------------------------------------ */

/*
 * MB/s (or with @iops, IOPS) of each point, @max points at most
 * (neighbours merged by time)
 */
static unsigned int series_rate(const struct cdm_series *s, int measured_only, int iops,
				double *x, unsigned int max, unsigned int *map)
{
	unsigned int n = 0, m = 0, per;
	uint64_t bytes = 0, ios = 0, dur = 0;

	for (unsigned int i = 0; i < s->npoints; i++)
		n += !measured_only || s->points[i].pass > 0;
	per = (n + max - 1) / (max ? max : 1);
	if (per < 1)
		per = 1;
	for (unsigned int i = 0, k = 0; i < s->npoints; i++) {
		const struct cdm_series_point *p = &s->points[i];

		if (measured_only && !p->pass)
			continue;
		if (k % per == 0) {
			bytes = ios = dur = 0;
			if (map)
				map[m] = i;
		}
		bytes += p->bytes;
		ios += p->ios;
		dur += p->duration_ns;
		k++;
		if (k % per == 0 || k == n)
			x[m++] = !dur ? 0.0 : iops ? (double)ios * 1e9 / (double)dur :
				 (double)bytes * 1e3 / (double)dur;
	}
	return m;
}

/* share of the measured intervals (full length) within 5 % of their max */
static double flatness(const struct cdm_series *s)
{
	double m = 0;
	unsigned int n = 0, in = 0;

	for (unsigned int i = 0; i < s->npoints; i++)
		if (s->points[i].pass && cdm_series_point_mb_s(&s->points[i]) > m &&
		    s->points[i].duration_ns == s->interval_ns)
			m = cdm_series_point_mb_s(&s->points[i]);
	for (unsigned int i = 0; i < s->npoints; i++) {
		const struct cdm_series_point *p = &s->points[i];

		if (!p->pass || p->duration_ns != s->interval_ns)
			continue;
		n++;
		in += cdm_series_point_mb_s(p) >= 0.95 * m;
	}
	return n ? (double)in / n : -1.0;
}

#define ANALYZE_MAX 600

static int cmp_load(const void *a, const void *b)
{
	const struct cdm_load_point *x = a, *y = b;

	return (x->load > y->load) - (x->load < y->load);
}

/*
 * each test's burst from its own series, its levels in MB/s and, from the
 * same intervals' I/Os, in IOPS (x, y and map: ANALYZE_MAX each)
 */
static void analyze_bursts(struct cdm_run_result *r, double *x, double *y, unsigned int *map)
{
	for (unsigned int i = 0; i < r->ntests; i++) {
		struct cdm_series *s = r->tests[i].series;
		unsigned int n, d;

		if (!s || !s->npoints)
			continue;
		n = series_rate(s, 0, 0, x, ANALYZE_MAX, map);
		if (!cdm_detect_burst(x, n, &s->burst))
			continue;
		d = s->burst.split;
		s->burst_at_ns = s->points[map[d]].start_ns;
		series_rate(s, 0, 1, x, ANALYZE_MAX, NULL);
		s->burst.high_iops = median(x, d, y);
		s->burst.low_iops = median(x + d, n - d, y);
	}
}

/*
 * The load points of test @i's group (same direction, pattern and block,
 * not yet @done; each marked done) into @lp, their test indexes into @idx:
 * a point per test with I/O in its passes, its load Q x T.  Returns the
 * points.
 */
static unsigned int group_points(const struct cdm_run_result *r, unsigned int i, char *done,
				 struct cdm_load_point *lp, unsigned int *idx)
{
	const struct cdm_test_result *a = &r->tests[i];
	unsigned int n = 0;

	for (unsigned int j = i; j < r->ntests; j++) {
		const struct cdm_test_result *b = &r->tests[j];
		const struct cdm_series *s = b->series;
		uint64_t bytes = 0, ios = 0, lat = 0, dur = 0;

		if (done[j] || !s || b->dir != a->dir || b->spec.pattern != a->spec.pattern ||
		    b->spec.block != a->spec.block)
			continue;
		done[j] = 1;
		for (unsigned int k = 0; k < s->npoints; k++) {
			if (!s->points[k].pass)
				continue;
			bytes += s->points[k].bytes;
			ios += s->points[k].ios;
			lat += s->points[k].lat_sum_ns;
			dur += s->points[k].duration_ns;
		}
		if (!ios || !dur)
			continue;
		lp[n].load = (double)b->spec.qd * b->spec.threads;
		lp[n].value = (double)bytes * 1e3 / (double)dur;
		lp[n].mb_s = lp[n].value;
		lp[n].iops = (double)ios * 1e9 / (double)dur;
		lp[n].lat = (double)lat / (double)ios;
		lp[n].flat = flatness(s);
		idx[n] = j;
		n++;
	}
	return n;
}

/* the @n points by load; an insertion sort keeps the test index beside each */
static void sort_points(struct cdm_load_point *lp, unsigned int *idx, unsigned int n)
{
	for (unsigned int k = 1; k < n; k++) {
		struct cdm_load_point v = lp[k];
		unsigned int vi = idx[k], m = k;

		while (m > 0 && cmp_load(&lp[m - 1], &v) > 0) {
			lp[m] = lp[m - 1];
			idx[m] = idx[m - 1];
			m--;
		}
		lp[m] = v;
		idx[m] = vi;
	}
}

/* ceiling @c found over the @n sorted points: marked on the series it covers */
static void mark_ceiling(struct cdm_run_result *r, const struct cdm_ceiling *c,
			 const unsigned int *idx, unsigned int n)
{
	for (unsigned int k = c->from; k < n; k++) {
		struct cdm_series *s = r->tests[idx[k]].series;

		s->ceiling = *c;
		s->ceiling_mb_s = c->level;
		cdm_spec_name(&r->tests[idx[c->from]].spec, s->ceiling_from,
			      sizeof(s->ceiling_from));
	}
}

void cdm_detect_analyze(struct cdm_run_result *r)
{
	double *x = malloc(ANALYZE_MAX * sizeof(*x)), *y = malloc(ANALYZE_MAX * sizeof(*y));
	unsigned int *map = malloc(ANALYZE_MAX * sizeof(*map));
	struct cdm_load_point *lp = malloc(r->ntests * sizeof(*lp) + 1);
	unsigned int *idx = malloc(r->ntests * sizeof(*idx) + 1);
	char *done = calloc(r->ntests + 1, 1);

	if (!x || !y || !map || !lp || !idx || !done)
		goto out;
	analyze_bursts(r, x, y, map);
	/* groups: same direction, pattern and block; loads Q x T */
	for (unsigned int i = 0; i < r->ntests; i++) {
		struct cdm_ceiling c;
		unsigned int n;

		if (done[i] || !r->tests[i].series)
			continue;
		n = group_points(r, i, done, lp, idx);
		if (n < 2)
			continue;
		sort_points(lp, idx, n);
		if (cdm_detect_ceiling(lp, n, &c))
			mark_ceiling(r, &c, idx, n);
	}
out:
	free(x);
	free(y);
	free(map);
	free(lp);
	free(idx);
	free(done);
}
