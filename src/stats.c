/* SPDX-License-Identifier: MIT */
/*
 * stats.c - the figures derived from a pass's counts (MB/s, IOPS, mean
 * latency), CDM's choice of the figure to print for a test (best MB/s,
 * lowest mean latency, each chosen separately), and the lifetime of the
 * result model that every formatter reads.
 */
#include <stdlib.h>

#include "cdm/result.h"
#include "cdm/stats.h"

double cdm_pass_mb_s(const struct cdm_pass *p)
{
	/* MB/s = 10^6 bytes/s, as CDM's header line says */
	if (!p->bytes || !(p->seconds > 0.0))
		return 0.0;
	return (double)p->bytes / p->seconds / 1e6;
}

double cdm_pass_iops(const struct cdm_pass *p)
{
	if (!p->ios || !(p->seconds > 0.0))
		return 0.0;
	return (double)p->ios / p->seconds;
}

double cdm_pass_mean_lat_ns(const struct cdm_pass *p)
{
	if (!p->ios)
		return 0.0;
	return (double)p->lat_sum_ns / (double)p->ios;
}

/* never trust npasses beyond the array it counts */
static unsigned int measured_passes(const struct cdm_test_result *t)
{
	return t->npasses < CDM_MAX_PASSES ? t->npasses : CDM_MAX_PASSES;
}

double cdm_result_best_mb_s(const struct cdm_test_result *t)
{
	unsigned int i, n = measured_passes(t);
	double best = 0.0, v;

	for (i = 0; i < n; i++) {
		v = cdm_pass_mb_s(&t->passes[i]);
		if (v > best)
			best = v;
	}
	return best;
}

double cdm_result_best_lat_us(const struct cdm_test_result *t)
{
	unsigned int i, n = measured_passes(t);
	double best = 0.0, v;
	int found = 0;

	for (i = 0; i < n; i++) {
		/*
		 * A pass in which no I/O completed has no mean latency; its
		 * 0.0 must not win as "lowest".
		 */
		if (!t->passes[i].ios)
			continue;
		v = cdm_pass_mean_lat_ns(&t->passes[i]);
		if (!found || v < best) {
			best = v;
			found = 1;
		}
	}
	return best / 1000.0;
}

struct cdm_run_result *cdm_result_alloc(unsigned int ntests)
{
	struct cdm_run_result *r;
	unsigned int i;

	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->ntests = ntests;
	if (!ntests)
		return r;

	r->tests = calloc(ntests, sizeof(*r->tests));
	if (!r->tests)
		goto fail;
	for (i = 0; i < ntests; i++) {
		r->tests[i].hist = malloc(sizeof(*r->tests[i].hist));
		if (!r->tests[i].hist)
			goto fail;
		cdm_hist_init(r->tests[i].hist);
	}
	return r;

fail:
	/* calloc left the hist pointers not yet reached NULL */
	cdm_result_free(r);
	return NULL;
}

void cdm_result_free(struct cdm_run_result *r)
{
	unsigned int i;

	if (!r)
		return;
	if (r->tests) {
		for (i = 0; i < r->ntests; i++)
			free(r->tests[i].hist);
		free(r->tests);
	}
	free(r);
}
