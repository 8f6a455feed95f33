/* SPDX-License-Identifier: MIT */
/*
 * series.c - time series (--log-interval): the interval parser and the
 * merge of the workers' interval slots into the result model.  What the
 * detectors find in a series is detect.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/msec.h"
#include "cdm/model/series.h"

int cdm_series_interval_parse(const char *s, uint64_t *ns)
{
	uint64_t ms;
	int r = cdm_msec_parse(s, &ms);

	if (r < 0)
		return r;
	if (ms * CDM_MSEC_NS < CDM_SERIES_MIN_NS || ms * CDM_MSEC_NS > CDM_SERIES_MAX_NS)
		return -ERANGE;
	*ns = ms * CDM_MSEC_NS;
	return 0;
}

unsigned int cdm_series_window_slots(uint64_t window_ns, uint64_t interval_ns)
{
	if (!interval_ns)
		return 0;
	return (unsigned int)((window_ns + interval_ns - 1) / interval_ns);
}

uint64_t cdm_series_mem(unsigned int warmup_ms, unsigned int count, unsigned int time_ms,
			uint64_t interval_ns)
{
	uint64_t n = cdm_series_window_slots((uint64_t)warmup_ms * CDM_MSEC_NS, interval_ns) +
		     (uint64_t)count *
		     cdm_series_window_slots((uint64_t)time_ms * CDM_MSEC_NS, interval_ns);

	return n * sizeof(struct cdm_series_slot);
}

uint64_t cdm_series_hist_value(unsigned int i)
{
	return cdm_hist_layout_low(i, CDM_SHIST_SUB_BITS) +
	       cdm_hist_layout_width(i, CDM_SHIST_SUB_BITS) / 2;
}

/* nearest-rank p99 of merged bucket counts */
static uint64_t p99(const uint64_t *b, uint64_t count)
{
	uint64_t rank = (count * 99 + 99) / 100, seen = 0;

	if (!count)
		return 0;
	if (rank < 1)
		rank = 1;
	for (unsigned int i = 0; i < CDM_SHIST_BUCKETS; i++) {
		seen += b[i];
		if (seen >= rank)
			return cdm_series_hist_value(i);
	}
	return cdm_series_hist_value(CDM_SHIST_BUCKETS - 1);
}

struct cdm_series *cdm_series_build(uint64_t interval_ns, const uint64_t *bounds,
				    const uint64_t *ends, unsigned int nwin, const unsigned int *base,
				    const unsigned int *nslots,
				    struct cdm_series_slot *const *slots, unsigned int nthreads)
{
	struct cdm_series *s = calloc(1, sizeof(*s));
	uint64_t *b = calloc(CDM_SHIST_BUCKETS, sizeof(*b));
	unsigned int total = 0, k = 0;

	if (!s || !b)
		goto fail;
	s->interval_ns = interval_ns;
	for (unsigned int w = 0; w < nwin; w++)
		total += nslots[w];
	s->points = calloc(total ? total : 1, sizeof(*s->points));
	if (!s->points)
		goto fail;
	for (unsigned int w = 0; w < nwin; w++) {
		for (unsigned int i = 0; i < nslots[w]; i++, k++) {
			struct cdm_series_point *p = &s->points[k];
			uint64_t start = bounds[w] + (uint64_t)i * interval_ns;
			uint64_t end = start + interval_ns, wend = ends ? ends[w] : bounds[w + 1];

			/* the last slot ends with the window (gated: after the drain) */
			if (end > wend || i + 1 == nslots[w])
				end = wend;
			p->pass = w;
			p->start_ns = start - bounds[0];
			p->duration_ns = end - start;
			memset(b, 0, CDM_SHIST_BUCKETS * sizeof(*b));
			for (unsigned int t = 0; t < nthreads; t++) {
				const struct cdm_series_slot *sl = &slots[t][base[w] + i];

				p->bytes += sl->bytes;
				p->ios += sl->ios;
				p->lat_sum_ns += sl->lat_sum_ns;
				for (unsigned int j = 0; j < CDM_SHIST_BUCKETS; j++)
					b[j] += sl->buckets[j];
			}
			p->lat_p99_ns = p99(b, p->ios);
		}
	}
	s->npoints = total;
	free(b);
	return s;
fail:
	free(b);
	cdm_series_free(s);
	return NULL;
}

void cdm_series_free(struct cdm_series *s)
{
	if (!s)
		return;
	free(s->points);
	free(s);
}

double cdm_series_point_mb_s(const struct cdm_series_point *p)
{
	return p->duration_ns ? (double)p->bytes * 1e3 / (double)p->duration_ns : 0.0;
}

double cdm_series_point_iops(const struct cdm_series_point *p)
{
	return p->duration_ns ? (double)p->ios * 1e9 / (double)p->duration_ns : 0.0;
}

double cdm_series_point_lat_us(const struct cdm_series_point *p)
{
	return p->ios ? (double)p->lat_sum_ns / (double)p->ios / 1e3 : 0.0;
}
