/* SPDX-License-Identifier: MIT */
/*
 * result_read_series.c - a test's --log-interval series of a saved JSON
 * result back into its struct cdm_series: the points, from their figures
 * where the file keeps no counts, and what the detectors found
 * (src/format/result_rd.h)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/model/hist.h"
#include "cdm/model/merge.h"
#include "cdm/model/pass.h"
#include "cdm/model/series.h"
#include "cdm/model/spec.h"
#include "result_rd.h"

/*
 * A figure of a series point back to the whole number it was computed
 * from, the file keeping no latency sum or histogram per interval: the
 * latency sum (ns) of the mean @key in us over @ios I/Os (@mean), or the
 * ns of the p99 @key in us.  Of the numbers nearest figure x 1000 (x
 * @ios), the first that gives the figure again, so that the point prints
 * as it was written.  null exactly when @ios is 0 (read as 0).
 */
static int series_ns(struct cdm_err *err, const struct cdm_json *pj, const char *where,
		     const char *key, uint64_t ios, int mean, uint64_t *dst)
{
	const struct cdm_json *v = cdm_result_get_mem(err, pj, where, key, CDM_JSON_NUMBER, 1);
	double x, scale = mean ? (double)ios : 1.0;
	uint64_t g;

	if (!v)
		return -EINVAL;
	*dst = 0;
	if (v->type == CDM_JSON_NULL || !ios)
		return (v->type == CDM_JSON_NULL) == !ios ? 0 :
		       cdm_result_get_bad(err, "%s.%s: %s", where, key, ios ? "null, but I/Os completed" :
					  "a figure, but no I/O completed");
	x = v->num;
	if (!(x >= 0.0) || !(x * 1e3 * scale < 9e18))
		return cdm_result_get_bad(err, "%s.%s: %g out of range", where, key, x);
	g = (uint64_t)(x * 1e3 * scale + 0.5);
	*dst = g;
	for (uint64_t d = 0; d <= 4; d++) {
		if (g >= d && (double)(g - d) / scale / 1e3 == x) {
			*dst = g - d;
			break;
		}
		if ((double)(g + d) / scale / 1e3 == x) {
			*dst = g + d;
			break;
		}
	}
	return 0;
}

/* one point of a series: its counts, pass 0 (the warm-up) to the test's @npasses */
static int read_point(struct cdm_err *err, const struct cdm_json *pj, const char *where,
		      unsigned int npasses, struct cdm_series_point *p)
{
	int warmup;

	if (pj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, pj);
	if (cdm_result_get_uint(err, pj, where, "pass", npasses, &p->pass) ||
	    cdm_result_get_boolean(err, pj, where, "warmup", &warmup) ||
	    cdm_result_get_u64(err, pj, where, "start_ns", &p->start_ns) ||
	    cdm_result_get_u64(err, pj, where, "duration_ns", &p->duration_ns) ||
	    cdm_result_get_u64(err, pj, where, "bytes", &p->bytes) || cdm_result_get_u64(err, pj, where, "ios", &p->ios) ||
	    series_ns(err, pj, where, "lat_mean_us", p->ios, 1, &p->lat_sum_ns) ||
	    series_ns(err, pj, where, "lat_p99_us", p->ios, 0, &p->lat_p99_ns))
		return -EINVAL;
	if (warmup != !p->pass)
		return cdm_result_get_bad(err, "%s.warmup: %s, but pass is %u", where, warmup ? "true" : "false",
					  p->pass);
	return 0;
}

/*
 * The points of series @s against each other, as the detectors and the
 * plots take them: each of some length when it has I/Os (its MB/s and
 * IOPS are over its duration), each after the one before it ends (in
 * time and in passes), and every count summed over them (the detectors'
 * windows), and each end, within 64 bits.
 */
static int series_points_ok(struct cdm_err *err, const char *where, const struct cdm_series *s)
{
	uint64_t bytes = 0, ios = 0, lat = 0, dur = 0, end;

	for (unsigned int i = 0; i < s->npoints; i++) {
		const struct cdm_series_point *p = &s->points[i], *q = i ? p - 1 : NULL;

		if (!p->duration_ns && p->ios)
			return cdm_result_get_bad(err, "%s.points[%u]: %" PRIu64 " I/Os in a duration of 0 ns", where, i,
						  p->ios);
		if (__builtin_add_overflow(p->start_ns, p->duration_ns, &end))
			return cdm_result_get_bad(err, "%s.points[%u]: start_ns + duration_ns is past 2^64 ns", where, i);
		if (q && p->start_ns < q->start_ns + q->duration_ns)
			return cdm_result_get_bad(err, "%s.points[%u]: starts at %" PRIu64 " ns, before points[%u] ends at %" PRIu64 " ns: out of order or overlapping",
						  where, i, p->start_ns, i - 1, q->start_ns + q->duration_ns);
		if (q && p->pass < q->pass)
			return cdm_result_get_bad(err, "%s.points[%u]: pass %u after points[%u]'s pass %u: out of order",
						  where, i, p->pass, i - 1, q->pass);
		if (__builtin_add_overflow(bytes, p->bytes, &bytes) ||
		    __builtin_add_overflow(ios, p->ios, &ios) ||
		    __builtin_add_overflow(lat, p->lat_sum_ns, &lat) ||
		    __builtin_add_overflow(dur, p->duration_ns, &dur))
			return cdm_result_get_bad(err, "%s.points: their counts add up past 2^64 (at points[%u])", where, i);
	}
	return 0;
}

/* a non-negative finite figure of a series' burst or ceiling */
static int series_fig(struct cdm_err *err, const struct cdm_json *o, const char *where,
		      const char *key, double *dst)
{
	return cdm_result_get_figure(err, o, where, key, 0, 1e300, dst);
}

/*
 * What the detectors found in series @s (model/detect.h), as written:
 * "burst" null or { high_mb_s, low_mb_s, low_from_ns } (the start of one of
 * its points), "ceiling" null or { mb_s, from_test, lat_ratio }
 */
static int read_found(struct cdm_err *err, const struct cdm_json *sj, const char *where,
		      struct cdm_series *s)
{
	const struct cdm_json *b = cdm_result_get_mem(err, sj, where, "burst", CDM_JSON_OBJECT, 1);
	const struct cdm_json *c = b ? cdm_result_get_mem(err, sj, where, "ceiling", CDM_JSON_OBJECT, 1) : NULL;
	char w[96];

	if (!b || !c)
		return -EINVAL;
	if (b->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.burst", where);
		if (series_fig(err, b, w, "high_mb_s", &s->burst.high) ||
		    series_fig(err, b, w, "low_mb_s", &s->burst.low) ||
		    cdm_result_get_u64(err, b, w, "low_from_ns", &s->burst_at_ns))
			return -EINVAL;
		while (s->burst.split < s->npoints &&
		       s->points[s->burst.split].start_ns != s->burst_at_ns)
			s->burst.split++;
		if (s->burst.split == s->npoints)
			return cdm_result_get_bad(err, "%s.low_from_ns: no point of the series starts there", w);
		/* a burst is a high rate, then a low one (model/detect.h) */
		if (s->burst.high < s->burst.low)
			return cdm_result_get_bad(err, "%s.high_mb_s: %g, below low_mb_s %g", w, s->burst.high,
						  s->burst.low);
		s->burst.found = 1;
	}
	if (c->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.ceiling", where);
		if (series_fig(err, c, w, "mb_s", &s->ceiling_mb_s) ||
		    series_fig(err, c, w, "lat_ratio", &s->ceiling.lat_ratio) ||
		    cdm_result_get_str(err, c, w, "from_test", s->ceiling_from, sizeof(s->ceiling_from), 0))
			return -EINVAL;
		/* its IOPS are not saved: 0, not known (model/series.h) */
		s->ceiling.level = s->ceiling.mb_s = s->ceiling_mb_s;
		s->ceiling.found = 1;
	}
	return 0;
}

/*
 * "series" (--log-interval, model/series.h), when the test has one
 * (absent: none): its interval, its points and what was found in it, into
 * a new t->series (freed with the result).
 */
int cdm_result_read_series(struct cdm_err *err, const struct cdm_json *tj, const char *where,
			   struct cdm_test_result *t)
{
	const struct cdm_json *sj = cdm_json_get(tj, "series"), *pts;
	struct cdm_series *s;
	char w[64], pw[96];

	if (!sj)
		return 0;
	snprintf(w, sizeof(w), "%s.series", where);
	if (sj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, w, sj);
	pts = cdm_result_get_mem(err, sj, w, "points", CDM_JSON_ARRAY, 0);
	if (!pts)
		return -EINVAL;
	if (pts->n > UINT32_MAX)
		return cdm_result_get_bad(err, "%s.points: %zu points, too many", w, pts->n);
	s = t->series = calloc(1, sizeof(*s));
	if (s && pts->n)
		s->points = calloc(pts->n, sizeof(*s->points));
	if (!s || (pts->n && !s->points))
		return cdm_err_set(err, -ENOMEM, "out of memory for %s", w);
	if (cdm_result_get_u64(err, sj, w, "interval_ns", &s->interval_ns))
		return -EINVAL;
	if (s->interval_ns < CDM_SERIES_MIN_NS || s->interval_ns > CDM_SERIES_MAX_NS)
		return cdm_result_get_bad(err, "%s.interval_ns: %" PRIu64 " is not an interval cdm logs at", w,
					  s->interval_ns);
	for (size_t i = 0; i < pts->n; i++) {
		snprintf(pw, sizeof(pw), "%s.points[%zu]", w, i);
		if (read_point(err, &pts->items[i], pw, t->npasses, &s->points[i]))
			return -EINVAL;
		s->npoints++;
	}
	if (series_points_ok(err, w, s))
		return -EINVAL;
	return read_found(err, sj, w, s);
}

