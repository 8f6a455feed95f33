/* SPDX-License-Identifier: MIT */
/*
 * result.c - the result model every formatter reads: CDM's choice of the
 * figure to print for a test (best MB/s, lowest mean latency, each chosen
 * separately), the spread of the passes (median, mean, min, max, standard
 * deviation, coefficient of variation) that --aggregate and the JSON, CSV
 * and Markdown reports use, and the model's lifetime.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/text.h"
#include "cdm/model/pass.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"

/* never trust npasses beyond the array it counts */
static unsigned int measured_passes(const struct cdm_test_result *t)
{
	return t->npasses < CDM_MAX_PASSES ? t->npasses : CDM_MAX_PASSES;
}

/*
 * The first pass the figures come from: every pass, or with --steady-state
 * the last window of rounds (model/steady.h); the figures below are over
 * passes [first_pass(), measured_passes()).
 */
static unsigned int first_pass(const struct cdm_test_result *t)
{
	return cdm_steady_first_pass(&t->steady, measured_passes(t));
}

unsigned int cdm_result_first_pass(const struct cdm_test_result *t)
{
	return first_pass(t);
}

/*
 * All passes as one: the passes [first_pass(), measured_passes()), or
 * with @measured_only those of them that measured something, added up.
 */
static void window_sum(const struct cdm_test_result *t, int measured_only, struct cdm_pass *all)
{
	unsigned int i, n = measured_passes(t), added = 0;

	memset(all, 0, sizeof(*all));
	for (i = first_pass(t); i < n; i++) {
		const struct cdm_pass *p = &t->passes[i];

		if (measured_only && cdm_pass_state(p) != CDM_PASS_MEASURED)
			continue;
		if (!added++)
			all->start_unix_ns = p->start_unix_ns;
		cdm_pass_add(all, p);
		all->seconds += p->seconds;
		all->end_fsyncs += p->end_fsyncs;
		all->end_fsync_ns += p->end_fsync_ns;
	}
}

void cdm_result_window_pass(const struct cdm_test_result *t, struct cdm_pass *all)
{
	window_sum(t, 0, all);
}

void cdm_result_window_measured(const struct cdm_test_result *t, struct cdm_pass *all)
{
	window_sum(t, 1, all);
}

unsigned int cdm_result_max_rounds(const struct cdm_test_result *t, const struct cdm_run_info *in)
{
	return t->steady.max_rounds ? t->steady.max_rounds : in->max_rounds;
}

unsigned int cdm_result_requested(const struct cdm_test_result *t, const struct cdm_run_info *in)
{
	return t->steady.on ? cdm_result_max_rounds(t, in) : in->count;
}

int cdm_result_complete(const struct cdm_test_result *t, const struct cdm_run_info *in)
{
	unsigned int n = measured_passes(t);

	if (t->reported.has)
		return 1;
	if (!n || t->error)
		return 0;
	/* steady: it stopped because it got steady, or it ran every round it could */
	if (t->steady.on && t->steady.reached_at_round)
		return 1;
	return n >= cdm_result_requested(t, in);
}

int cdm_result_end_fsync(const struct cdm_test_result *t, int end_fsync)
{
	return end_fsync && t->dir != CDM_DIR_READ;
}

int cdm_result_end_fsync_sum(const struct cdm_test_result *t, const struct cdm_run_info *in,
			     struct cdm_end_fsync_sum *s)
{
	unsigned int i, n = measured_passes(t);
	double pass_ns = 0;

	memset(s, 0, sizeof(*s));
	if (!cdm_result_end_fsync(t, in->end_fsync))
		return 0;
	if (t->reported.has) {
		if (!t->reported.has_end_fsync)
			return 0;
		*s = t->reported.end_fsync;
		return 1;
	}
	for (i = first_pass(t); i < n; i++) {
		const struct cdm_pass *p = &t->passes[i];

		/* a pass without its flush, or of no length, has no share to give */
		if (!p->end_fsyncs || !(p->seconds > 0))
			continue;
		s->count += p->end_fsyncs;
		s->total_ns += p->end_fsync_ns;
		if ((double)p->end_fsync_ns > s->max_ns)
			s->max_ns = (double)p->end_fsync_ns;
		pass_ns += p->seconds * 1e9;
	}
	if (!s->count) {
		memset(s, 0, sizeof(*s));
		return 0;
	}
	s->mean_ns = (double)s->total_ns / (double)s->count;
	s->pass_pct = 100.0 * (double)s->total_ns / pass_ns;
	return 1;
}

/*
 * A report's IOPS, or when it printed none (CDM 6's sequential rows) the
 * one CDM would have printed: CDM derives the IOPS on every row from its
 * MB/s, MB/s x 10^6 / block bytes (docs/method.md).
 */
static double reported_iops(const struct cdm_test_result *t)
{
	if (t->reported.iops == t->reported.iops || !t->spec.block)
		return t->reported.iops;
	return t->reported.mb_s * 1e6 / (double)t->spec.block;
}

double cdm_result_best_mb_s(const struct cdm_test_result *t)
{
	unsigned int i, n = measured_passes(t);
	double best = 0.0, v;
	int found = 0;

	if (t->reported.has)
		return t->reported.mb_s;

	for (i = first_pass(t); i < n; i++) {
		/* a pass that measured nothing has no MB/s, not one of 0 */
		if (cdm_pass_state(&t->passes[i]) != CDM_PASS_MEASURED)
			continue;
		v = cdm_pass_mb_s(&t->passes[i]);
		if (!found || v > best) {
			best = v;
			found = 1;
		}
	}
	return found ? best : cdm_pass_no_figure();
}

double cdm_result_best_lat_us(const struct cdm_test_result *t)
{
	unsigned int i, n = measured_passes(t);
	double best = 0.0, v;
	int found = 0;

	if (t->reported.has)
		return t->reported.lat_us;
	for (i = first_pass(t); i < n; i++) {
		/*
		 * A pass in which no I/O completed has no mean latency; it
		 * must not win as "lowest".
		 */
		if (cdm_pass_state(&t->passes[i]) != CDM_PASS_MEASURED)
			continue;
		v = cdm_pass_mean_lat_ns(&t->passes[i]);
		if (!found || v < best) {
			best = v;
			found = 1;
		}
	}
	return found ? best / 1000.0 : cdm_pass_no_figure();
}

enum cdm_pass_state cdm_result_state(const struct cdm_test_result *t)
{
	unsigned int i, n = measured_passes(t), no_time = 0;

	/* a report's row: CDM printed figures for it (cdm_read.c requires MB/s) */
	if (t->reported.has)
		return CDM_PASS_MEASURED;
	if (!n)
		return CDM_PASS_NO_PASS;
	for (i = first_pass(t); i < n; i++) {
		enum cdm_pass_state st = cdm_pass_state(&t->passes[i]);

		if (st == CDM_PASS_MEASURED)
			return st;
		no_time += st == CDM_PASS_NO_TIME;
	}
	return no_time == n ? CDM_PASS_NO_TIME : CDM_PASS_NO_IO;
}

unsigned int cdm_result_measured(const struct cdm_test_result *t)
{
	unsigned int i, n = measured_passes(t), m = 0;

	for (i = first_pass(t); i < n; i++)
		m += cdm_pass_state(&t->passes[i]) == CDM_PASS_MEASURED;
	return m;
}

int cdm_result_imported(const struct cdm_run_info *in)
{
	return in->source.kind != CDM_SOURCE_RUN;
}

int cdm_result_known(const struct cdm_run_info *in, enum cdm_info_item item)
{
	const struct cdm_run_source *src = &in->source;

	if (!cdm_result_imported(in))
		return 1;
	/* format/cdm_read.c keeps what the report does not state as 0 or "" */
	switch (item) {
	case CDM_INFO_PROFILE: return in->profile[0] != '\0';
	case CDM_INFO_SIZE: return in->size != 0;
	case CDM_INFO_COUNT: return in->count != 0;
	case CDM_INFO_TIME: return in->time_ms != 0;
	case CDM_INFO_INTERVAL: return src->has_interval;
	case CDM_INFO_ENGINE: return in->engine[0] != '\0';
	case CDM_INFO_DATE: return src->date_text[0] != '\0';
	case CDM_INFO_OS: return in->os[0] || in->kernel[0] || in->machine[0];
	case CDM_INFO_VOLUME: return src->volume[0] != '\0';
	case CDM_INFO_ADMIN: return src->has_admin;
	case CDM_INFO_DATA: return src->has_data;
	case CDM_INFO_WARMUP:
	case CDM_INFO_HOST:
	default: return 0;
	}
}

int cdm_result_has_data(const struct cdm_test_result *t)
{
	return t->npasses || t->reported.has;
}

const char *cdm_result_agg_reason(const struct cdm_test_result *t, enum cdm_aggregate agg)
{
	if (t->reported.has && agg != CDM_AGG_BEST)
		return "a CrystalDiskMark report has only its best-of figures";
	return NULL;
}

/* "1 s", "0.5 s": a pass's length as the user gave it, or near */
static void secs_text(char *buf, size_t len, double s)
{
	if (s == (double)(unsigned long long)s)
		snprintf(buf, len, "%llu s", (unsigned long long)s);
	else
		snprintf(buf, len, "%.3g s", s);
}

enum cdm_cause cdm_result_cause(const struct cdm_test_result *t)
{
	enum cdm_cause c = CDM_CAUSE_UNSEEN;

	for (unsigned int i = first_pass(t); i < measured_passes(t); i++) {
		const struct cdm_pass *p = &t->passes[i];

		if (cdm_pass_state(p) == CDM_PASS_MEASURED)
			continue;
		if (p->paused_ns)
			c = CDM_CAUSE_PAUSED;
		else if (p->busy_ns && c != CDM_CAUSE_PAUSED)
			c = CDM_CAUSE_BUSY;
		else if (!p->busy_ns)
			return CDM_CAUSE_UNSEEN;
	}
	return c;
}

char *cdm_result_why(const struct cdm_test_result *t, char *buf, size_t len)
{
	unsigned int i, n = measured_passes(t), m = 0, first = 0;
	enum cdm_pass_state st = cdm_result_state(t);
	uint64_t pending = 0, paused = 0, busy = 0;
	char secs[32], which[40] = "";
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	if (!len || st == CDM_PASS_NO_PASS) {
		if (len)
			snprintf(buf, len, "%s", cdm_pass_state_reason(CDM_PASS_NO_PASS));
		return buf;
	}
	for (i = first_pass(t); i < n; i++) {
		const struct cdm_pass *p = &t->passes[i];

		if (cdm_pass_state(p) == CDM_PASS_MEASURED) {
			m++;
			continue;
		}
		if (!first)
			first = i + 1;
		if (p->pending_max_ns > pending)
			pending = p->pending_max_ns;
		if (p->paused_ns > paused)
			paused = p->paused_ns;
		if (p->busy_ns > busy)
			busy = p->busy_ns;
		if (st == CDM_PASS_MEASURED && cdm_pass_state(p) == CDM_PASS_NO_TIME)
			st = CDM_PASS_NO_TIME;  /* a partial test: name what was missing */
	}
	n -= first_pass(t);             /* the passes the figures come from */
	if (m == n)
		return buf;
	if (st == CDM_PASS_MEASURED)
		st = CDM_PASS_NO_IO;
	secs_text(secs, sizeof(secs), t->passes[first - 1].seconds);
	if (n == 1)
		cdm_text_add(buf, len, &used, "%s in the %s pass", cdm_pass_state_reason(st), secs);
	else if (!m)
		cdm_text_add(buf, len, &used, "%s in any of its %u passes of %s",
			     cdm_pass_state_reason(st), n, secs);
	else {
		if (n - m == 1)
			snprintf(which, sizeof(which), " (pass %u)", first);
		cdm_text_add(buf, len, &used, "%s in %u of its %u passes%s",
			     cdm_pass_state_reason(st), n - m, n, which);
	}
	/* busy: the I/O "in flight" is what the kernel would not take */
	if (pending && !busy)
		cdm_text_add(buf, len, &used, "; the slowest I/O in flight had waited %.1f s",
			     (double)pending / 1e9);
	if (paused)
		cdm_text_add(buf, len, &used, "; cdm itself did not run for %.1f s of it (stopped, or not scheduled): time that did not pass for the device",
			     (double)paused / 1e9);
	if (busy)
		cdm_text_add(buf, len, &used, "; the kernel refused to start any I/O for %.1f s of it (the engine busy: EAGAIN or EBUSY, nothing in flight), not the device",
			     (double)busy / 1e9);
	if (m)
		cdm_text_add(buf, len, &used, "; its figures are from the other %u", m);
	return buf;
}

/*
 * Square root of @x >= 0 by Newton's method, from above: the iterates
 * fall monotonically to sqrt(x), so stop when they stop falling.  cdm is
 * linked without libm (the Makefile's link line), and this runs a few
 * times per test, never in the I/O loop.
 */
static double sqrt_pos(double x)
{
	double r, next;
	int i;

	if (!(x > 0.0) || x != x)
		return 0.0;
	r = x > 1.0 ? x : 1.0;
	for (i = 0; i < 2100; i++) {
		next = 0.5 * (r + x / r);
		if (!(next < r))
			break;
		r = next;
	}
	return r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double cdm_result_median(double *v, unsigned int n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* the spread of @n values (sorted in place) */
static void spread_of(double *v, unsigned int n, struct cdm_spread *sp)
{
	double sum = 0.0, dev = 0.0;
	unsigned int i;

	memset(sp, 0, sizeof(*sp));
	if (!n)
		return;
	sp->median = cdm_result_median(v, n);
	sp->n = n;
	sp->min = v[0];
	sp->max = v[n - 1];
	for (i = 0; i < n; i++)
		sum += v[i];
	sp->mean = sum / n;
	if (n > 1) {
		for (i = 0; i < n; i++)
			dev += (v[i] - sp->mean) * (v[i] - sp->mean);
		sp->stdev = sqrt_pos(dev / (n - 1));
	}
	if (sp->mean > 0.0)
		sp->cv_pct = 100.0 * sp->stdev / sp->mean;
}

void cdm_result_summarize_part(const struct cdm_test_result *t, enum cdm_part part,
			       struct cdm_test_summary *s)
{
	double mb[CDM_MAX_PASSES], io[CDM_MAX_PASSES], lat[CDM_MAX_PASSES];
	unsigned int i, m = 0, n = measured_passes(t);

	memset(s, 0, sizeof(*s));
	s->npasses = n - first_pass(t);
	for (i = first_pass(t); i < n; i++) {
		struct cdm_pass p;

		cdm_pass_part(&t->passes[i], part, &p);
		s->bytes += p.bytes;
		s->ios += p.ios;
		s->seconds += p.seconds;
		/* a pass that measured nothing is not a 0 in the spread */
		if (cdm_pass_state(&p) != CDM_PASS_MEASURED)
			continue;
		mb[m] = cdm_pass_mb_s(&p);
		io[m] = cdm_pass_iops(&p);
		lat[m++] = cdm_pass_mean_lat_ns(&p);
	}
	s->measured = m;
	spread_of(mb, m, &s->mb_s);
	spread_of(io, m, &s->iops);
	spread_of(lat, m, &s->lat_ns);
}

void cdm_result_summarize(const struct cdm_test_result *t, struct cdm_test_summary *s)
{
	cdm_result_summarize_part(t, CDM_PART_ALL, s);
}

double cdm_result_spread_pick(const struct cdm_spread *sp, enum cdm_aggregate agg,
		       int higher_is_better)
{
	if (!sp->n)
		return cdm_pass_no_figure();
	switch (agg) {
	case CDM_AGG_MEDIAN:
		return sp->median;
	case CDM_AGG_MEAN:
		return sp->mean;
	case CDM_AGG_BEST:
	default:
		return higher_is_better ? sp->max : sp->min;
	}
}

double cdm_result_mb_s(const struct cdm_test_result *t, enum cdm_aggregate agg)
{
	struct cdm_test_summary s;

	if (agg == CDM_AGG_BEST)
		return cdm_result_best_mb_s(t);
	if (t->reported.has)
		return cdm_pass_no_figure();    /* no passes: cdm_result_agg_reason() */
	cdm_result_summarize(t, &s);
	return cdm_result_spread_pick(&s.mb_s, agg, 1);
}

/*
 * The one IOPS of a test that every output shows: from the measured I/Os
 * and time of each pass (cdm_pass_iops), picked as the MB/s is, never from
 * a rounded MB/s, so that text, Markdown, CSV, JSON and compare agree.
 */
double cdm_result_iops(const struct cdm_test_result *t, enum cdm_aggregate agg)
{
	struct cdm_test_summary s;

	if (t->reported.has)
		return agg == CDM_AGG_BEST ? reported_iops(t) : cdm_pass_no_figure();
	cdm_result_summarize(t, &s);
	return cdm_result_spread_pick(&s.iops, agg, 1);
}

double cdm_result_lat_us(const struct cdm_test_result *t, enum cdm_aggregate agg)
{
	struct cdm_test_summary s;

	if (agg == CDM_AGG_BEST)
		return cdm_result_best_lat_us(t);
	if (t->reported.has)
		return cdm_pass_no_figure();
	cdm_result_summarize(t, &s);
	return cdm_result_spread_pick(&s.lat_ns, agg, 0) / 1000.0;
}

static const char *const agg_names[] = {
	[CDM_AGG_BEST] = "best",
	[CDM_AGG_MEDIAN] = "median",
	[CDM_AGG_MEAN] = "mean",
};

const char *cdm_result_dir_name(enum cdm_dir dir)
{
	return dir == CDM_DIR_MIX ? "Mix" : dir == CDM_DIR_WRITE ? "Write" : "Read";
}

const char *cdm_result_dir_key(enum cdm_dir dir)
{
	return dir == CDM_DIR_MIX ? "mix" : dir == CDM_DIR_WRITE ? "write" : "read";
}

const char *cdm_result_aggregate_name(enum cdm_aggregate agg)
{
	if ((unsigned int)agg < sizeof(agg_names) / sizeof(agg_names[0]))
		return agg_names[agg];
	return "best";
}

int cdm_result_aggregate_parse(const char *s, enum cdm_aggregate *agg)
{
	unsigned int i;

	for (i = 0; s && i < sizeof(agg_names) / sizeof(agg_names[0]); i++) {
		if (!strcmp(s, agg_names[i])) {
			*agg = (enum cdm_aggregate)i;
			return 0;
		}
	}
	return -EINVAL;
}

int cdm_result_unstable(const struct cdm_test_result *t, double threshold_pct,
			double *cv_pct)
{
	struct cdm_test_summary s;

	if (measured_passes(t) - first_pass(t) < 2)
		return 0;
	cdm_result_summarize(t, &s);
	if (s.mb_s.n < 2 || !(s.mb_s.cv_pct > threshold_pct))
		return 0;
	if (cv_pct)
		*cv_pct = s.mb_s.cv_pct;
	return 1;
}

int cdm_result_has_percentiles(const struct cdm_test_result *t)
{
	return t->hist && t->hist->count > 0;
}

void cdm_result_info_init(struct cdm_run_info *in)
{
	memset(in, 0, sizeof(*in));
	in->dev_numa_node = -1;         /* 0 is a node: unknown until found */
}

struct cdm_run_result *cdm_result_alloc(unsigned int ntests)
{
	struct cdm_run_result *r;
	unsigned int i;

	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->aggregate = CDM_AGG_BEST;
	r->cv_threshold_pct = CDM_CV_THRESHOLD_DEFAULT;
	cdm_result_info_init(&r->info);
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
		for (i = 0; i < r->ntests; i++) {
			free(r->tests[i].hist);
			cdm_series_free(r->tests[i].series);
		}
		free(r->tests);
	}
	/* an aggregate owns its runs (cdm_merge(), or a saved one read back) */
	if (r->scale) {
		struct cdm_scale *sc = (struct cdm_scale *)r->scale;

		for (i = 0; i < sc->n; i++)
			cdm_result_free(sc->src[i].res);
		free(sc->src);
		free(sc);
	}
	free(r);
}

/* a text field of the model: the one rule for a user's text (base/text.h) */
#define ONE_LINE(field) cdm_text_one_line(field)

void cdm_result_info_one_line(struct cdm_run_info *in)
{
	struct cdm_run_source *src = &in->source;

	ONE_LINE(in->version);
	ONE_LINE(in->engine);
	ONE_LINE(in->profile);
	ONE_LINE(in->target);
	ONE_LINE(in->mount_point);
	ONE_LINE(in->fs_type);
	ONE_LINE(in->os);
	ONE_LINE(in->kernel);
	ONE_LINE(in->machine);
	ONE_LINE(in->comment);
	ONE_LINE(in->label);
	ONE_LINE(in->fs_source);
	ONE_LINE(in->dev_name);
	ONE_LINE(in->dev_model);
	ONE_LINE(in->dev_scheduler);
	ONE_LINE(in->cpu_model);
	for (unsigned int i = 0; i < in->ndevices && i < CDM_DEVICES_MAX; i++) {
		ONE_LINE(in->devices[i].name);
		ONE_LINE(in->devices[i].model);
		ONE_LINE(in->devices[i].scheduler);
	}
	for (unsigned int i = 0; i < in->nmem_under && i < CDM_MEM_UNDER_MAX; i++) {
		ONE_LINE(in->mem_under[i].kind);
		ONE_LINE(in->mem_under[i].layer);
		ONE_LINE(in->mem_under[i].stack);
		ONE_LINE(in->mem_under[i].why);
		ONE_LINE(in->mem_under[i].fix);
	}
	ONE_LINE(src->product);
	ONE_LINE(src->version);
	ONE_LINE(src->edition);
	ONE_LINE(src->file);
	ONE_LINE(src->date_text);
	ONE_LINE(src->volume);
}

/* ---- --verify's read-back (docs/method.md, "Verification") ---- */

enum cdm_verify_state cdm_result_verify_state(const struct cdm_verify *v)
{
	if (v->interrupted)
		return CDM_VERIFY_STATE_INTERRUPTED;
	if (!v->done)
		return CDM_VERIFY_STATE_NONE;
	if (v->lost || v->misdirected || v->torn)
		return CDM_VERIFY_STATE_FAULTS;
	/*
	 * 0 blocks checked is no evidence either way: never "clean"; blocks
	 * not known are a text's, which said the test read back clean
	 */
	return v->blocks || v->blocks_unknown ? CDM_VERIFY_STATE_CLEAN : CDM_VERIFY_STATE_EMPTY;
}

static const char *const verify_state_keys[] = {
	[CDM_VERIFY_STATE_INTERRUPTED] = "interrupted",
	[CDM_VERIFY_STATE_EMPTY] = "nothing_written",
	[CDM_VERIFY_STATE_CLEAN] = "clean",
	[CDM_VERIFY_STATE_FAULTS] = "faults",
};

const char *cdm_result_verify_state_key(enum cdm_verify_state st)
{
	return (unsigned int)st < sizeof(verify_state_keys) / sizeof(verify_state_keys[0]) ?
	       verify_state_keys[st] : NULL;
}

int cdm_result_verify_state_parse(const char *s, enum cdm_verify_state *st)
{
	for (unsigned int i = 0; i < sizeof(verify_state_keys) / sizeof(verify_state_keys[0]); i++)
		if (verify_state_keys[i] && !strcmp(s, verify_state_keys[i])) {
			*st = (enum cdm_verify_state)i;
			return 0;
		}
	return -EINVAL;
}

int cdm_result_fsync_sum(const struct cdm_test_result *t, const struct cdm_run_info *in,
			 struct cdm_fsync_sum *s)
{
	struct cdm_pass all;

	memset(s, 0, sizeof(*s));
	if (!in->fsync_every || t->dir == CDM_DIR_READ)
		return 0;
	if (t->reported.has) {
		if (!t->reported.has_fsync)
			return 0;
		*s = t->reported.fsync;
		return 1;
	}
	cdm_result_window_pass(t, &all);
	if (!all.fsyncs)
		return 0;
	s->count = all.fsyncs;
	s->mean_ns = (double)all.fsync_sum_ns / (double)all.fsyncs;
	s->max_ns = (double)all.fsync_max_ns;
	return 1;
}

static const char *const test_file_keys[] = { NULL, "new", "kept", "reused" };
static const char *const file_data_keys[] = { NULL, "random", "zero" };

const char *cdm_result_test_file_key(int tf)
{
	return tf > 0 && tf < 4 ? test_file_keys[tf] : NULL;
}

const char *cdm_result_file_data_key(int d)
{
	return d > 0 && d < 3 ? file_data_keys[d] : NULL;
}

/* @s among the @n @keys (the first, NULL, is none): its index into *@v */
static int key_parse(const char *const *keys, int n, const char *s, int *v)
{
	for (int i = 1; i < n; i++)
		if (!strcmp(s, keys[i])) {
			*v = i;
			return 0;
		}
	return -EINVAL;
}

int cdm_result_test_file_parse(const char *s, int *v)
{
	return key_parse(test_file_keys, 4, s, v);
}

int cdm_result_file_data_parse(const char *s, int *v)
{
	return key_parse(file_data_keys, 3, s, v);
}
