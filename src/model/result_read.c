/* SPDX-License-Identifier: MIT */
/*
 * result_read.c - a saved JSON result back into struct cdm_run_result,
 * with every count the merge needs (passes, latency sums, start times,
 * histogram buckets): the one reader of cdm's results, for `cdm compare`,
 * `cdm merge` and cdm-mpi's reduction.  Uses cdm's strict JSON reader
 * (json.c); every member is checked for its type, and a missing or
 * mistyped one is named.  The members schema 1 gained after its first
 * release (lat_sum_ns, start_unix_ns, write_pct, the Mix parts, fsync,
 * sync, fsync_every, rate_iops, target.memory_under) are optional, so
 * older files still read, and so is what schema 2 added (pending_max_ns)
 * and what issue 14 added (the settings end_fsync, steady_state,
 * precondition, verify, cpus; system.cpus_allowed_list, device_numa_node,
 * numa_warning; a test's steady_state, a pass's end_fsync), and the
 * null engine's settings.null_device: absent, each
 * reads as off or unknown.  A test's --log-interval series is read too
 * (absent: none).  Figures are never read, only counts (a figure schema 2
 * writes as null, nothing measured, and schema 1 as 0 reads back the
 * same), but for what a series keeps only as figures: each point's mean
 * and p99 latency, and what the detectors found.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/devspec.h"
#include "cdm/base/err.h"
#include "cdm/base/msec.h"
#include "cdm/model/json.h"
#include "cdm/model/merge.h"
#include "cdm/model/result_read.h"
#include "cdm/model/series.h"

/*
 * Tests in one result at most: a run writes up to 3 x CDM_MAX_TESTS (read,
 * write and Mix of each spec); the bound, generous as compare's reader had
 * it, only keeps a hostile file from making the reader allocate without end.
 */
#define TESTS_MAX (2u * CDM_MAX_TESTS * 16)

/* "not a valid cdm result: <where>: <why>" in @err; returns -EINVAL */
static int bad(struct cdm_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct cdm_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return cdm_err_prefix(err, -EINVAL, "not a valid cdm result");
}

/* "<where>: expected object, found <type of v>" */
static int not_object(struct cdm_err *err, const char *where, const struct cdm_json *v)
{
	return bad(err, "%s: expected object, found %s", where, cdm_json_type_name(v->type));
}

/* member @key of @obj with type @type (TRUE stands for either boolean) */
static const struct cdm_json *mem(struct cdm_err *err, const struct cdm_json *obj, const char *where,
				  const char *key, enum cdm_json_type type, int null_ok)
{
	const struct cdm_json *v = cdm_json_get(obj, key);
	enum cdm_json_type t;

	if (!v) {
		bad(err, "%s: no \"%s\"", where, key);
		return NULL;
	}
	t = v->type == CDM_JSON_FALSE ? CDM_JSON_TRUE : v->type;
	if ((null_ok && t == CDM_JSON_NULL) || t == type)
		return v;
	bad(err, "%s.%s: expected %s, found %s", where, key, cdm_json_type_name(type),
	    cdm_json_type_name(v->type));
	return NULL;
}

static int u64(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
	       uint64_t *dst)
{
	const struct cdm_json *v = mem(err, obj, where, key, CDM_JSON_NUMBER, 0);

	if (!v)
		return -EINVAL;
	if (!v->is_uint)
		return bad(err, "%s.%s: expected a whole number >= 0", where, key);
	*dst = v->u64;
	return 0;
}

/* a maximum, null in schema 2 when taken over nothing (read as 0) */
static int max_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		   const char *key, uint64_t *dst)
{
	const struct cdm_json *v = mem(err, obj, where, key, CDM_JSON_NUMBER, 1);

	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NULL) {
		*dst = 0;
		return 0;
	}
	return u64(err, obj, where, key, dst);
}

static int get_uint(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
		unsigned int max, unsigned int *dst)
{
	uint64_t v = 0;

	if (u64(err, obj, where, key, &v))
		return -EINVAL;
	if (v > max)
		return bad(err, "%s.%s: %" PRIu64 " is above %u", where, key, v, max);
	*dst = (unsigned int)v;
	return 0;
}

/* a string into @dst; null gives "" when @null_ok */
static int str(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
	       char *dst, size_t dlen, int null_ok)
{
	const struct cdm_json *v = mem(err, obj, where, key, CDM_JSON_STRING, null_ok);

	if (!v)
		return -EINVAL;
	snprintf(dst, dlen, "%s", v->type == CDM_JSON_STRING ? v->str : "");
	return 0;
}

static int boolean(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		   const char *key, int *dst)
{
	const struct cdm_json *v = mem(err, obj, where, key, CDM_JSON_TRUE, 0);

	if (!v)
		return -EINVAL;
	*dst = v->type == CDM_JSON_TRUE;
	return 0;
}

/* an optional whole number: absent or null leave *dst */
static int opt_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		   const char *key, uint64_t *dst)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	return u64(err, obj, where, key, dst);
}

/*
 * A figure @key of @obj: a number from 0 to below @max; null (read as NaN,
 * no figure) when @null_ok.  The one rule for the file's figures: a
 * report's, its --end-fsync note's, a steady window's, a series' finds.
 */
static int figure(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		  const char *key, int null_ok, double max, double *dst)
{
	const struct cdm_json *v = mem(err, obj, where, key, CDM_JSON_NUMBER, null_ok);

	if (!v)
		return -EINVAL;
	if (v->type != CDM_JSON_NUMBER) {
		*dst = cdm_pass_no_figure();
		return 0;
	}
	if (!(v->num >= 0.0 && v->num < max))
		return bad(err, "%s.%s: out of range", where, key);
	*dst = v->num + 0.0;    /* -0 as 0: a report prints no "-0.000" */
	return 0;
}

/*
 * A mean (ns) times a count, back to the sum it was computed from.  The one
 * place a file's mean becomes an integer: a negative mean, or one whose sum
 * does not fit 64 bits, is refused by name (converting it would be undefined).
 */
static int mean_times(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		      const char *key, uint64_t n, uint64_t *sum)
{
	const struct cdm_json *v = mem(err, obj, where, key, CDM_JSON_NUMBER, 1);
	double s;

	if (!v)
		return -EINVAL;
	*sum = 0;
	if (v->type != CDM_JSON_NUMBER)
		return 0;
	s = v->num * (double)n + 0.5;
	if (!(v->num >= 0.0) || !(s < 18446744073709549568.0))
		return bad(err, "%s.%s: %g out of range for %" PRIu64 " I/Os", where, key, v->num, n);
	*sum = (uint64_t)s;
	return 0;
}

/*
 * A Mix pass's read part and --fsync's calls, when the file has them
 * (absent in files from before they existed).  Their latency sums are
 * written as means, so they come back as mean x count (exact to a few ns).
 */
static int read_extras(struct cdm_err *err, const struct cdm_json *pj, const char *where,
		       struct cdm_pass *p)
{
	const struct cdm_json *rp = cdm_json_get(pj, "read"), *fs = cdm_json_get(pj, "fsync");
	char w[120];

	if (rp && rp->type != CDM_JSON_NULL) {
		snprintf(w, sizeof(w), "%s.read", where);
		if (rp->type != CDM_JSON_OBJECT)
			return not_object(err, w, rp);
		if (u64(err, rp, w, "bytes", &p->read_bytes) || u64(err, rp, w, "ios", &p->read_ios) ||
		    mean_times(err, rp, w, "lat_mean_ns", p->read_ios, &p->read_lat_sum_ns))
			return -EINVAL;
	}
	if (fs && fs->type != CDM_JSON_NULL) {
		snprintf(w, sizeof(w), "%s.fsync", where);
		if (fs->type != CDM_JSON_OBJECT)
			return not_object(err, w, fs);
		if (u64(err, fs, w, "count", &p->fsyncs) || max_u64(err, fs, w, "max_ns", &p->fsync_max_ns))
			return -EINVAL;
		if (mean_times(err, fs, w, "mean_ns", p->fsyncs, &p->fsync_sum_ns))
			return -EINVAL;
	}
	return 0;
}

/*
 * --end-fsync's fdatasync of a pass, "end_fsync": {count, time_ns}, when
 * the file has it (absent or null: none, and in files before it existed)
 */
static int read_end_fsync(struct cdm_err *err, const struct cdm_json *pj, const char *where,
			  struct cdm_pass *p)
{
	const struct cdm_json *ef = cdm_json_get(pj, "end_fsync");
	char w[120];

	if (!ef || ef->type == CDM_JSON_NULL)
		return 0;
	snprintf(w, sizeof(w), "%s.end_fsync", where);
	if (ef->type != CDM_JSON_OBJECT)
		return not_object(err, w, ef);
	if (u64(err, ef, w, "count", &p->end_fsyncs) || u64(err, ef, w, "time_ns", &p->end_fsync_ns))
		return -EINVAL;
	if (p->end_fsyncs > 1)
		return bad(err, "%s.count: %" PRIu64 ", a pass ends with one fdatasync at most",
			   w, p->end_fsyncs);
	if (!p->end_fsyncs && p->end_fsync_ns)
		return bad(err, "%s.time_ns: %" PRIu64 " for no fdatasync (count 0)", w, p->end_fsync_ns);
	/*
	 * timed inside the pass, whose duration includes it: never longer
	 * (duration_s is printed to round-trip; 1 ns spares the product's rounding)
	 */
	if ((double)p->end_fsync_ns > p->seconds * 1e9 + 1.0)
		return bad(err, "%s.time_ns: %" PRIu64 " ns, longer than the pass it ended (duration_s %.9g)",
			   w, p->end_fsync_ns, p->seconds);
	return 0;
}

/*
 * The passes of a test added up, as every report adds them (the window's
 * pass, the end fsync's total): a count that would wrap is refused here,
 * naming it, rather than wrap there.
 */
static int passes_fit(struct cdm_err *err, const char *where, const struct cdm_test_result *t)
{
	struct cdm_pass sum = { 0 };

	for (unsigned int k = 0; k < t->npasses; k++) {
		const char *what = cdm_pass_sum_overflow(&sum, &t->passes[k]);

		if (what)
			return bad(err, "%s.passes: their %s add up past 2^64 (at passes[%u])", where,
				   what, k);
	}
	return 0;
}

static int read_pass(struct cdm_err *err, const struct cdm_json *pj, const char *where,
		     struct cdm_pass *p)
{
	const struct cdm_json *v;

	if (pj->type != CDM_JSON_OBJECT)
		return not_object(err, where, pj);
	v = mem(err, pj, where, "duration_s", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	if (!(v->num >= 0.0 && v->num < 1e7))
		return bad(err, "%s.duration_s: out of range", where);
	p->seconds = v->num;
	if (u64(err, pj, where, "bytes", &p->bytes) || u64(err, pj, where, "ios", &p->ios) ||
	    max_u64(err, pj, where, "lat_max_ns", &p->lat_max_ns) ||
	    u64(err, pj, where, "cpu_user_ns", &p->cpu_user_ns) ||
	    u64(err, pj, where, "cpu_sys_ns", &p->cpu_sys_ns) ||
	    u64(err, pj, where, "proc_user_ns", &p->proc_user_ns) ||
	    u64(err, pj, where, "proc_sys_ns", &p->proc_sys_ns) ||
	    opt_u64(err, pj, where, "start_unix_ns", &p->start_unix_ns) ||
	    opt_u64(err, pj, where, "pending_max_ns", &p->pending_max_ns))
		return -EINVAL;
	if (read_extras(err, pj, where, p) || read_end_fsync(err, pj, where, p))
		return -EINVAL;
	if (cdm_json_get(pj, "lat_sum_ns"))
		return u64(err, pj, where, "lat_sum_ns", &p->lat_sum_ns);
	/* files from before lat_sum_ns: the mean times the count */
	return mean_times(err, pj, where, "lat_mean_ns", p->ios, &p->lat_sum_ns);
}

static int read_hist(struct cdm_err *err, const struct cdm_json *hj, const char *where,
		     struct cdm_hist *h)
{
	const struct cdm_json *b;
	uint64_t sub, total = 0;
	char w[160];

	if (u64(err, hj, where, "sub_buckets", &sub))
		return -EINVAL;
	if (sub != CDM_HIST_SUB)
		return bad(err, "%s.sub_buckets: %" PRIu64 ", this cdm has %u", where, sub, CDM_HIST_SUB);
	if (u64(err, hj, where, "count", &h->count) || u64(err, hj, where, "sum_ns", &h->sum_ns) ||
	    u64(err, hj, where, "min_ns", &h->min_ns) || u64(err, hj, where, "max_ns", &h->max_ns))
		return -EINVAL;
	b = mem(err, hj, where, "buckets", CDM_JSON_ARRAY, 0);
	if (!b)
		return -EINVAL;
	for (size_t i = 0; i < b->n; i++) {
		uint64_t low = 0, high = 0, count = 0;
		unsigned int idx;

		snprintf(w, sizeof(w), "%s.buckets[%zu]", where, i);
		if (b->items[i].type != CDM_JSON_OBJECT)
			return not_object(err, w, &b->items[i]);
		if (u64(err, &b->items[i], w, "low_ns", &low) ||
		    u64(err, &b->items[i], w, "high_ns", &high) ||
		    u64(err, &b->items[i], w, "count", &count))
			return -EINVAL;
		idx = cdm_hist_index(low);
		if (cdm_hist_bucket_low(idx) != low || cdm_hist_bucket_high(idx) != high)
			return bad(err, "%s: [%" PRIu64 ", %" PRIu64 "] is not a bucket of cdm's histogram",
				   w, low, high);
		h->buckets[idx] += count;
		total += count;
	}
	if (total != h->count)
		return bad(err, "%s: the buckets hold %" PRIu64 " values, count says %" PRIu64,
			   where, total, h->count);
	return 0;
}

/*
 * A report's "end_fsync" (in "reported", @o): the "EndFsync:" note of
 * cdm's text of a run with --end-fsync, its mean and longest (ns) and its
 * share of the pass (%), when the file has it (absent or null: none)
 */
static int read_reported_end_fsync(struct cdm_err *err, const struct cdm_json *o,
				   const char *where, struct cdm_test_result *t)
{
	const struct cdm_json *e = cdm_json_get(o, "end_fsync");
	static const char *const keys[] = { "mean_ns", "max_ns", "pass_pct" };
	struct cdm_end_fsync_sum *s = &t->reported.end_fsync;
	double *dst[] = { &s->mean_ns, &s->max_ns, &s->pass_pct };
	char w[80];

	if (!e || e->type == CDM_JSON_NULL)
		return 0;
	snprintf(w, sizeof(w), "%s.end_fsync", where);
	if (e->type != CDM_JSON_OBJECT)
		return not_object(err, w, e);
	if (t->dir == CDM_DIR_READ)
		return bad(err, "%s: a read test has nothing to flush", w);
	for (unsigned int i = 0; i < 3; i++)
		if (figure(err, e, w, keys[i], 0, i == 2 ? 100.0 + 1e-9 : 1e20, dst[i]))
			return -EINVAL;
	if (s->max_ns < s->mean_ns)
		return bad(err, "%s.max_ns: below mean_ns", w);
	t->reported.has_end_fsync = 1;
	return 0;
}

/*
 * A test's "reported" (schema 3): the figures a CrystalDiskMark report
 * printed for it, MB/s required, IOPS and mean latency (us) or null, and
 * the "end_fsync" of cdm's text (read_reported_end_fsync()).
 */
static int read_reported(struct cdm_err *err, const struct cdm_json *tj, const char *where,
			 struct cdm_test_result *t)
{
	const struct cdm_json *o = cdm_json_get(tj, "reported");
	static const char *const keys[] = { "mb_s", "iops", "lat_mean_us" };
	double *dst[] = { &t->reported.mb_s, &t->reported.iops, &t->reported.lat_us };
	char w[64];

	if (!o || o->type == CDM_JSON_NULL)
		return 0;
	snprintf(w, sizeof(w), "%s.reported", where);
	if (o->type != CDM_JSON_OBJECT)
		return not_object(err, w, o);
	if (t->npasses)
		return bad(err, "%s: a test with passes and a report's figures", w);
	/* MB/s required; IOPS and latency null where the report printed none */
	for (unsigned int i = 0; i < 3; i++)
		if (figure(err, o, w, keys[i], i > 0, 1e15, dst[i]))
			return -EINVAL;
	t->reported.has = 1;
	t->parts_unknown = t->dir == CDM_DIR_MIX;      /* CDM prints a Mix's total only */
	return read_reported_end_fsync(err, o, w, t);
}

/* a percentage of the steady window, or null (NaN): never negative */
static int steady_pct(struct cdm_err *err, const struct cdm_json *o, const char *where,
		      const char *key, double *dst)
{
	return figure(err, o, where, key, 1, 1e15, dst);
}

/*
 * A test's "steady_state" (--steady-state), when the file has it: the
 * verdict of model/steady.h over the test's @t->npasses rounds (read
 * first).  The round it got steady is one of the rounds, and the window
 * holds no more rounds than PTS's; first_round, tracked and window_mean
 * are derived from the passes, so they are not read.
 */
static int read_steady(struct cdm_err *err, const struct cdm_json *tj, const char *where,
		       struct cdm_test_result *t)
{
	const struct cdm_json *o = cdm_json_get(tj, "steady_state"), *v;
	struct cdm_steady *st = &t->steady;
	char w[64];

	if (!o || o->type == CDM_JSON_NULL)
		return 0;
	snprintf(w, sizeof(w), "%s.steady_state", where);
	if (o->type != CDM_JSON_OBJECT)
		return not_object(err, w, o);
	v = mem(err, o, w, "reached_at_round", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER &&
	    get_uint(err, o, w, "reached_at_round", CDM_MAX_PASSES, &st->reached_at_round))
		return -EINVAL;
	if (get_uint(err, o, w, "max_rounds", CDM_MAX_PASSES, &st->max_rounds) ||
	    get_uint(err, o, w, "window_rounds", CDM_STEADY_WINDOW, &st->window_rounds) ||
	    steady_pct(err, o, w, "range_pct", &st->range_pct) ||
	    steady_pct(err, o, w, "slope_pct", &st->slope_pct))
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER && !st->reached_at_round)
		return bad(err, "%s.reached_at_round: 0, rounds count from 1", w);
	/* an imported report's test has no rounds, only what its text said of them */
	if (!t->reported.has && st->reached_at_round > t->npasses)
		return bad(err, "%s.reached_at_round: not one of the test's %u rounds", w, t->npasses);
	if (st->window_rounds > t->npasses)
		return bad(err, "%s.window_rounds: %u, more than the test's %u rounds", w,
			   st->window_rounds, t->npasses);
	st->on = 1;
	return 0;
}

/* a first offset: null when its count is 0, else a whole number */
static int verify_first(struct cdm_err *err, const struct cdm_json *v, const char *where,
			const char *key, uint64_t n, uint64_t *dst)
{
	const struct cdm_json *f = mem(err, v, where, key, CDM_JSON_NUMBER, 1);

	if (!f)
		return -EINVAL;
	if (!n && f->type == CDM_JSON_NULL)
		return 0;
	if (!n || f->type == CDM_JSON_NULL)
		return bad(err, "%s.%s: %s", where, key,
			   n ? "null, but its count is not 0" : "an offset, but its count is 0");
	return u64(err, v, where, key, dst);
}

/*
 * What a verify object gained after its first release, both optional:
 * "sample_every" (1 block in k read back; absent or null: every block when
 * not "sampled", else unknown, 0) and "first_misdirected_meant_offset"
 * (where the first misdirected write was meant to go; absent or null:
 * unknown), each checked against the counts read into @r.
 */
static int verify_extras(struct cdm_err *err, const struct cdm_json *v, const char *w,
			 struct cdm_verify *r)
{
	uint64_t every = 0, meant = UINT64_MAX;

	if (opt_u64(err, v, w, "sample_every", &every) ||
	    opt_u64(err, v, w, "first_misdirected_meant_offset", &meant))
		return -EINVAL;
	if (!every)
		every = r->sampled ? 0 : 1;
	else if (r->sampled != (every > 1))
		return bad(err, "%s.sample_every: %" PRIu64 ", but \"sampled\" is %s", w, every,
			   r->sampled ? "true" : "false");
	r->every = every;
	if (meant == UINT64_MAX)
		return 0;
	if (!r->misdirected)
		return bad(err, "%s.first_misdirected_meant_offset: an offset, but no write was misdirected",
			   w);
	r->meant_known = 1;
	r->first_meant = meant;
	return 0;
}

/*
 * "verify" (--verify's read-back, struct cdm_verify): absent or null when
 * the test was not read back; else its "status" (absent in files before
 * it), only that when "interrupted", else every count, each first offset
 * null exactly when its count is 0, and the status the counts give.
 * "blocks" is null in an imported run's file only (@imported): cdm's text
 * states no test's blocks read back (blocks_unknown), so the faults are
 * then not checked against them.
 */
static int read_verify(struct cdm_err *err, const struct cdm_json *tj, const char *where,
		       int imported, struct cdm_verify *out)
{
	const struct cdm_json *v = cdm_json_get(tj, "verify"), *sj;
	struct cdm_verify r = { .done = 1 };
	enum cdm_verify_state st = CDM_VERIFY_STATE_NONE;
	char w[64];

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	snprintf(w, sizeof(w), "%s.verify", where);
	if (v->type != CDM_JSON_OBJECT)
		return not_object(err, w, v);
	if ((sj = cdm_json_get(v, "status"))) {
		if (sj->type != CDM_JSON_STRING || cdm_result_verify_state_parse(sj->str, &st) < 0)
			return bad(err, "%s.status: expected \"clean\", \"faults\", \"nothing_written\" or \"interrupted\"",
				   w);
		if (st == CDM_VERIFY_STATE_INTERRUPTED) {
			memset(out, 0, sizeof(*out));
			out->interrupted = 1;
			return 0;
		}
	}
	if (!mem(err, v, w, "blocks", CDM_JSON_NUMBER, 1))
		return -EINVAL;
	r.blocks_unknown = cdm_json_get(v, "blocks")->type == CDM_JSON_NULL;
	if (r.blocks_unknown && !imported)
		return bad(err, "%s.blocks: null, but cdm measured this run (only a text read back has no count)",
			   w);
	if ((!r.blocks_unknown && u64(err, v, w, "blocks", &r.blocks)) ||
	    boolean(err, v, w, "sampled", &r.sampled) ||
	    u64(err, v, w, "lost", &r.lost) || u64(err, v, w, "misdirected", &r.misdirected) ||
	    u64(err, v, w, "torn", &r.torn) ||
	    verify_first(err, v, w, "first_lost_offset", r.lost, &r.first_lost) ||
	    verify_first(err, v, w, "first_misdirected_offset", r.misdirected, &r.first_misdirected) ||
	    verify_first(err, v, w, "first_torn_offset", r.torn, &r.first_torn) ||
	    verify_extras(err, v, w, &r))
		return -EINVAL;
	/* each kind within what is left: a sum of the three could wrap */
	if (!r.blocks_unknown && (r.lost > r.blocks || r.misdirected > r.blocks - r.lost ||
				  r.torn > r.blocks - r.lost - r.misdirected))
		return bad(err, "%s: more faults than the %" PRIu64 " blocks read back", w, r.blocks);
	if (sj && st != cdm_result_verify_state(&r))
		return bad(err, "%s.status: \"%s\", but the counts say \"%s\"", w, sj->str,
			   cdm_result_verify_state_key(cdm_result_verify_state(&r)));
	*out = r;
	return 0;
}

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
	const struct cdm_json *v = mem(err, pj, where, key, CDM_JSON_NUMBER, 1);
	double x, scale = mean ? (double)ios : 1.0;
	uint64_t g;

	if (!v)
		return -EINVAL;
	*dst = 0;
	if (v->type == CDM_JSON_NULL || !ios)
		return (v->type == CDM_JSON_NULL) == !ios ? 0 :
		       bad(err, "%s.%s: %s", where, key, ios ? "null, but I/Os completed" :
			   "a figure, but no I/O completed");
	x = v->num;
	if (!(x >= 0.0) || !(x * 1e3 * scale < 9e18))
		return bad(err, "%s.%s: %g out of range", where, key, x);
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
		return not_object(err, where, pj);
	if (get_uint(err, pj, where, "pass", npasses, &p->pass) ||
	    boolean(err, pj, where, "warmup", &warmup) ||
	    u64(err, pj, where, "start_ns", &p->start_ns) ||
	    u64(err, pj, where, "duration_ns", &p->duration_ns) ||
	    u64(err, pj, where, "bytes", &p->bytes) || u64(err, pj, where, "ios", &p->ios) ||
	    series_ns(err, pj, where, "lat_mean_us", p->ios, 1, &p->lat_sum_ns) ||
	    series_ns(err, pj, where, "lat_p99_us", p->ios, 0, &p->lat_p99_ns))
		return -EINVAL;
	if (warmup != !p->pass)
		return bad(err, "%s.warmup: %s, but pass is %u", where, warmup ? "true" : "false",
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
			return bad(err, "%s.points[%u]: %" PRIu64 " I/Os in a duration of 0 ns", where, i,
				   p->ios);
		if (__builtin_add_overflow(p->start_ns, p->duration_ns, &end))
			return bad(err, "%s.points[%u]: start_ns + duration_ns is past 2^64 ns", where, i);
		if (q && p->start_ns < q->start_ns + q->duration_ns)
			return bad(err, "%s.points[%u]: starts at %" PRIu64 " ns, before points[%u] ends at %" PRIu64 " ns: out of order or overlapping",
				   where, i, p->start_ns, i - 1, q->start_ns + q->duration_ns);
		if (q && p->pass < q->pass)
			return bad(err, "%s.points[%u]: pass %u after points[%u]'s pass %u: out of order",
				   where, i, p->pass, i - 1, q->pass);
		if (__builtin_add_overflow(bytes, p->bytes, &bytes) ||
		    __builtin_add_overflow(ios, p->ios, &ios) ||
		    __builtin_add_overflow(lat, p->lat_sum_ns, &lat) ||
		    __builtin_add_overflow(dur, p->duration_ns, &dur))
			return bad(err, "%s.points: their counts add up past 2^64 (at points[%u])", where, i);
	}
	return 0;
}

/* a non-negative finite figure of a series' burst or ceiling */
static int series_fig(struct cdm_err *err, const struct cdm_json *o, const char *where,
		      const char *key, double *dst)
{
	return figure(err, o, where, key, 0, 1e300, dst);
}

/*
 * What the detectors found in series @s (model/detect.h), as written:
 * "burst" null or { high_mb_s, low_mb_s, low_from_ns } (the start of one of
 * its points), "ceiling" null or { mb_s, from_test, lat_ratio }
 */
static int read_found(struct cdm_err *err, const struct cdm_json *sj, const char *where,
		      struct cdm_series *s)
{
	const struct cdm_json *b = mem(err, sj, where, "burst", CDM_JSON_OBJECT, 1);
	const struct cdm_json *c = b ? mem(err, sj, where, "ceiling", CDM_JSON_OBJECT, 1) : NULL;
	char w[96];

	if (!b || !c)
		return -EINVAL;
	if (b->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.burst", where);
		if (series_fig(err, b, w, "high_mb_s", &s->burst.high) ||
		    series_fig(err, b, w, "low_mb_s", &s->burst.low) ||
		    u64(err, b, w, "low_from_ns", &s->burst_at_ns))
			return -EINVAL;
		while (s->burst.split < s->npoints &&
		       s->points[s->burst.split].start_ns != s->burst_at_ns)
			s->burst.split++;
		if (s->burst.split == s->npoints)
			return bad(err, "%s.low_from_ns: no point of the series starts there", w);
		/* a burst is a high rate, then a low one (model/detect.h) */
		if (s->burst.high < s->burst.low)
			return bad(err, "%s.high_mb_s: %g, below low_mb_s %g", w, s->burst.high,
				   s->burst.low);
		s->burst.found = 1;
	}
	if (c->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.ceiling", where);
		if (series_fig(err, c, w, "mb_s", &s->ceiling_mb_s) ||
		    series_fig(err, c, w, "lat_ratio", &s->ceiling.lat_ratio) ||
		    str(err, c, w, "from_test", s->ceiling_from, sizeof(s->ceiling_from), 0))
			return -EINVAL;
		s->ceiling.level = s->ceiling_mb_s;
		s->ceiling.found = 1;
	}
	return 0;
}

/*
 * "series" (--log-interval, model/series.h), when the test has one
 * (absent: none): its interval, its points and what was found in it, into
 * a new t->series (freed with the result).
 */
static int read_series(struct cdm_err *err, const struct cdm_json *tj, const char *where,
		       struct cdm_test_result *t)
{
	const struct cdm_json *sj = cdm_json_get(tj, "series"), *pts;
	struct cdm_series *s;
	char w[64], pw[96];

	if (!sj)
		return 0;
	snprintf(w, sizeof(w), "%s.series", where);
	if (sj->type != CDM_JSON_OBJECT)
		return not_object(err, w, sj);
	pts = mem(err, sj, w, "points", CDM_JSON_ARRAY, 0);
	if (!pts)
		return -EINVAL;
	if (pts->n > UINT32_MAX)
		return bad(err, "%s.points: %zu points, too many", w, pts->n);
	s = t->series = calloc(1, sizeof(*s));
	if (s && pts->n)
		s->points = calloc(pts->n, sizeof(*s->points));
	if (!s || (pts->n && !s->points))
		return cdm_err_set(err, -ENOMEM, "out of memory for %s", w);
	if (u64(err, sj, w, "interval_ns", &s->interval_ns))
		return -EINVAL;
	if (s->interval_ns < CDM_SERIES_MIN_NS || s->interval_ns > CDM_SERIES_MAX_NS)
		return bad(err, "%s.interval_ns: %" PRIu64 " is not an interval cdm logs at", w,
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

static int read_test(struct cdm_err *err, const struct cdm_json *tj, unsigned int idx,
		     const struct cdm_run_info *in, unsigned int threads_max,
		     struct cdm_test_result *t)
{
	const struct cdm_json *passes, *e, *h;
	char where[48], w[80], s[16], why[96];
	unsigned int n;

	snprintf(where, sizeof(where), "tests[%u]", idx);
	if (tj->type != CDM_JSON_OBJECT)
		return not_object(err, where, tj);
	if (str(err, tj, where, "direction", s, sizeof(s), 0))
		return -EINVAL;
	if (!strcmp(s, "read"))
		t->dir = CDM_DIR_READ;
	else if (!strcmp(s, "write"))
		t->dir = CDM_DIR_WRITE;
	else if (!strcmp(s, "mix"))
		t->dir = CDM_DIR_MIX;
	else
		return bad(err, "%s.direction: expected \"read\", \"write\" or \"mix\"", where);
	if (cdm_json_get(tj, "write_pct") && cdm_json_get(tj, "write_pct")->type != CDM_JSON_NULL &&
	    get_uint(err, tj, where, "write_pct", CDM_MIX_MAX, &t->spec.write_pct))
		return -EINVAL;
	if (str(err, tj, where, "pattern", s, sizeof(s), 0))
		return -EINVAL;
	if (strcmp(s, "SEQ") && strcmp(s, "RND"))
		return bad(err, "%s.pattern: expected \"SEQ\" or \"RND\"", where);
	t->spec.pattern = strcmp(s, "RND") ? CDM_SEQ : CDM_RND;
	if (u64(err, tj, where, "block_bytes", &t->spec.block) ||
	    get_uint(err, tj, where, "queue_depth", CDM_QD_MAX, &t->spec.qd) ||
	    get_uint(err, tj, where, "queue_depth_run", CDM_QD_MAX, &t->qd_run) ||
	    get_uint(err, tj, where, "threads", 1u << 24, &t->spec.threads))
		return -EINVAL;
	/* what a report of it prints must be a test cdm runs (and its text reader reads) */
	if (cdm_spec_check(&t->spec, threads_max, why, sizeof(why)))
		return bad(err, "%s: %s", where, why);
	if (t->dir != CDM_DIR_MIX && t->spec.write_pct)
		return bad(err, "%s.write_pct: %u, but only a Mix test has a write share", where,
			   t->spec.write_pct);
	if (t->qd_run < 1 || t->qd_run > t->spec.qd)
		return bad(err, "%s.queue_depth_run: %u is outside 1..%u (its queue_depth)", where,
			   t->qd_run, t->spec.qd);
	passes = mem(err, tj, where, "passes", CDM_JSON_ARRAY, 0);
	if (!passes)
		return -EINVAL;
	if (passes->n > CDM_MAX_PASSES)
		return bad(err, "%s.passes: %zu passes, more than %d", where, passes->n, CDM_MAX_PASSES);
	n = (unsigned int)passes->n;
	for (unsigned int k = 0; k < n; k++) {
		snprintf(w, sizeof(w), "%s.passes[%u]", where, k);
		if (read_pass(err, &passes->items[k], w, &t->passes[k]))
			return -EINVAL;
		/* a Mix pass saved before the parts existed: its reads are unknown */
		if (t->dir == CDM_DIR_MIX && (!cdm_json_get(&passes->items[k], "read") ||
					      cdm_json_get(&passes->items[k], "read")->type != CDM_JSON_OBJECT))
			t->parts_unknown = 1;
	}
	t->npasses = n;
	if (passes_fit(err, where, t))
		return -EINVAL;
	e = mem(err, tj, where, "error", CDM_JSON_OBJECT, 1);
	if (!e)
		return -EINVAL;
	if (e->type == CDM_JSON_OBJECT) {
		unsigned int no;

		snprintf(w, sizeof(w), "%s.error", where);
		if (get_uint(err, e, w, "errno", 4095, &no) ||
		    u64(err, e, w, "offset_bytes", &t->error_offset))
			return -EINVAL;
		t->error = -(int)(no ? no : EIO);
	}
	if (read_reported(err, tj, where, t) || read_steady(err, tj, where, t) ||
	    read_verify(err, tj, where, cdm_result_imported(in), &t->verify) ||
	    read_series(err, tj, where, t))
		return -EINVAL;
	h = mem(err, tj, where, "histogram", CDM_JSON_OBJECT, 1);
	if (!h)
		return -EINVAL;
	if (h->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.histogram", where);
		return read_hist(err, h, w, t->hist);
	}
	return 0;
}

/*
 * source.verify_blocks against the tests read: the blocks of cdm's text's
 * clean Verify line, which states no clean test's own (verify.blocks
 * null).  So a file whose clean tests have null blocks has them all null,
 * and its total, when stated, is one block a test at least (each read
 * back something); a total without such a test is no text's.  What the
 * Verify line prints again from them (report/layout.c) is then a line
 * cdm's text reader reads.
 */
static int verify_total(struct cdm_err *err, const struct cdm_run_result *r)
{
	unsigned int known = UINT32_MAX, unknown = UINT32_MAX, n = 0;
	uint64_t total = r->info.source.verify_blocks;

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_verify *v = &r->tests[i].verify;

		if (cdm_result_verify_state(v) != CDM_VERIFY_STATE_CLEAN)
			continue;
		if (v->blocks_unknown) {
			unknown = unknown == UINT32_MAX ? i : unknown;
			n++;
		} else {
			known = known == UINT32_MAX ? i : known;
		}
	}
	if (n && known != UINT32_MAX)
		return bad(err, "tests[%u].verify.blocks: null, but tests[%u]'s is a count: a text states its clean tests' blocks together",
			   unknown, known);
	if (total && !n)
		return bad(err, "source.verify_blocks: %" PRIu64 ", but no clean test's blocks are null",
			   total);
	if (total && total < n)
		return bad(err, "source.verify_blocks: %" PRIu64 " for %u clean tests, each of which read back a block at least",
			   total, n);
	return 0;
}

/*
 * target.memory_under (target/stack.h's findings), when the file has it:
 * absent or null in files from before it existed.  Each element is an
 * object of five strings; the first CDM_MEM_UNDER_MAX are kept.
 */
static int read_memory_under(struct cdm_err *err, const struct cdm_json *tg,
			     struct cdm_run_info *in)
{
	const struct cdm_json *a = cdm_json_get(tg, "memory_under");
	char w[64];

	in->nmem_under = 0;
	if (!a || a->type == CDM_JSON_NULL)
		return 0;
	if (a->type != CDM_JSON_ARRAY)
		return bad(err, "target.memory_under: expected array, found %s",
			   cdm_json_type_name(a->type));
	for (size_t i = 0; i < a->n; i++) {
		const struct cdm_json *o = &a->items[i];
		struct cdm_mem_under f;

		snprintf(w, sizeof(w), "target.memory_under[%zu]", i);
		if (o->type != CDM_JSON_OBJECT)
			return not_object(err, w, o);
		if (str(err, o, w, "kind", f.kind, sizeof(f.kind), 0) ||
		    str(err, o, w, "layer", f.layer, sizeof(f.layer), 0) ||
		    str(err, o, w, "stack", f.stack, sizeof(f.stack), 0) ||
		    str(err, o, w, "why", f.why, sizeof(f.why), 0) ||
		    str(err, o, w, "fix", f.fix, sizeof(f.fix), 0))
			return -EINVAL;
		if (in->nmem_under < CDM_MEM_UNDER_MAX)
			in->mem_under[in->nmem_under++] = f;
	}
	return 0;
}

/*
 * A setting an imported report may not state (schema 3): null reads as
 * 0, "unknown" (info.source); else a whole number as before.
 */
static int null_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		    const char *key, uint64_t *dst)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (v && v->type == CDM_JSON_NULL) {
		*dst = 0;
		return 0;
	}
	return u64(err, obj, where, key, dst);
}

/*
 * a time in seconds, 5 or 0.5 (at most 3 decimals: whole ms, as the
 * writer's cdm_msec_format() prints them), into ms; null (unknown) as 0
 */
static int null_secs(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		     const char *key, unsigned int *ms)
{
	const struct cdm_json *v = mem(err, obj, where, key, CDM_JSON_NUMBER, 1);
	char t[CDM_MSEC_FORMAT_MAX];

	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NULL) {
		*ms = 0;
		return 0;
	}
	if (!v->is_milli)
		return bad(err, "%s.%s: expected seconds >= 0 with at most 3 decimals", where, key);
	if (v->milli > CDM_TIME_MAX_MS)
		return bad(err, "%s.%s: %s is above %u", where, key,
			   cdm_msec_format(v->milli, t, sizeof(t)), CDM_TIME_MAX);
	*ms = (unsigned int)v->milli;
	return 0;
}

static int null_count(struct cdm_err *err, const struct cdm_json *set, unsigned int *dst)
{
	const struct cdm_json *v = cdm_json_get(set, "count");

	if (v && v->type == CDM_JSON_NULL) {
		*dst = 0;
		return 0;
	}
	return get_uint(err, set, "settings", "count", CDM_MAX_PASSES, dst);
}

/*
 * "source" (schema 3): where an imported run came from; absent or null
 * for a run cdm measured.  The kind is one cdm writes,
 * "crystaldiskmark" or "cdm_text" (cdm's own text report read back, with
 * its "origin"); its strings may be null ("").
 */
static int read_source(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_info *in)
{
	const struct cdm_json *so = cdm_json_get(root, "source"), *v;
	struct cdm_run_source *src = &in->source;
	char kind[32];
	uint64_t layout = 0;

	if (!so || so->type == CDM_JSON_NULL)
		return 0;
	if (so->type != CDM_JSON_OBJECT)
		return not_object(err, "source", so);
	if (str(err, so, "source", "kind", kind, sizeof(kind), 0))
		return -EINVAL;
	if (!strcmp(kind, "cdm_text")) {
		/* cdm's own text report read back (cdm_read.h), and whose figures */
		src->kind = CDM_SOURCE_CDM_TEXT;
		if (cdm_json_get(so, "origin") &&
		    str(err, so, "source", "origin", src->origin, sizeof(src->origin), 1))
			return -EINVAL;
	} else if (!strcmp(kind, "crystaldiskmark")) {
		src->kind = CDM_SOURCE_CDM_REPORT;
	} else {
		return bad(err, "source.kind: \"%s\", expected \"crystaldiskmark\" or \"cdm_text\"", kind);
	}
	if (str(err, so, "source", "product", src->product, sizeof(src->product), 1) ||
	    str(err, so, "source", "version", src->version, sizeof(src->version), 1) ||
	    str(err, so, "source", "edition", src->edition, sizeof(src->edition), 1) ||
	    str(err, so, "source", "file", src->file, sizeof(src->file), 1) ||
	    str(err, so, "source", "date_text", src->date_text, sizeof(src->date_text), 1) ||
	    str(err, so, "source", "volume", src->volume, sizeof(src->volume), 1) ||
	    opt_u64(err, so, "source", "layout", &layout) ||
	    opt_u64(err, so, "source", "verify_blocks", &src->verify_blocks))
		return -EINVAL;
	if (layout > 99)
		return bad(err, "source.layout: %" PRIu64 " is no CrystalDiskMark version", layout);
	/* as cdm's text states it (report/layout.c), and its reader reads it back */
	if (src->verify_blocks > INT64_MAX)
		return bad(err, "source.verify_blocks: %" PRIu64 ", more than 2^63 - 1 blocks",
			   src->verify_blocks);
	src->layout = (unsigned int)layout;
	/* an interval, admin or test data the report did not state was written as null */
	v = cdm_json_get(cdm_json_get(root, "settings"), "interval_s");
	src->has_interval = v && v->type == CDM_JSON_NUMBER;
	v = cdm_json_get(cdm_json_get(root, "system"), "admin");
	src->has_admin = v && (v->type == CDM_JSON_TRUE || v->type == CDM_JSON_FALSE);
	v = cdm_json_get(cdm_json_get(root, "settings"), "data");
	src->has_data = v && v->type == CDM_JSON_STRING;
	return 0;
}

/* an optional boolean: absent or null leave *dst */
static int opt_bool(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		    const char *key, int *dst)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	return boolean(err, obj, where, key, dst);
}

/* an optional string: absent or null leave *dst */
static int opt_str(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		   const char *key, char *dst, size_t dlen)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	return str(err, obj, where, key, dst, dlen, 0);
}

/*
 * A CPU list of the file (settings.cpus, system.cpus_allowed_list): ""
 * (none), or a list base/cpulist.h reads, as cdm wrote it.  A list that
 * is not one is refused by name: it would be printed into the text's
 * Mode line and the Markdown unchecked ("1> <Verify" forges a mark).
 */
static int cpu_list(struct cdm_err *err, const char *where, const char *key, const char *text)
{
	unsigned short cpus[CDM_CPULIST_MAX];
	struct cdm_err e = { "" };
	unsigned int n;

	if (!text[0] || !cdm_cpulist_parse(text, CDM_CPULIST_MAX, cpus, &n, &e))
		return 0;
	return bad(err, "%s.%s: not a CPU list: %s", where, key, e.msg);
}

/*
 * settings.null_device: null or absent (no simulated device; files from
 * before it), or a device base/devspec.h reads, kept in its canonical
 * form.  Anything else is refused by name: it is printed into the text's
 * Mode line and the Markdown unchecked.
 */
static int read_null_device(struct cdm_err *err, const struct cdm_json *set,
			    struct cdm_run_info *in)
{
	struct cdm_devspec spec;
	struct cdm_err e = { "" };

	if (opt_str(err, set, "settings", "null_device", in->null_device, sizeof(in->null_device)))
		return -EINVAL;
	if (!in->null_device[0])
		return 0;
	if (cdm_devspec_parse(in->null_device, &spec, &e) < 0)
		return bad(err, "settings.null_device: not a simulated device: %s", e.msg);
	cdm_devspec_format(&spec, in->null_device, sizeof(in->null_device));
	return 0;
}

/*
 * The settings of issue 14's method (--end-fsync, --steady-state,
 * --precondition, --verify, --cpus), all optional: absent in files from
 * before them, and read as off.
 */
/*
 * settings.precondition: { "time_ns": N, "complete": true }, or time_ns
 * null and "complete": false when it did not complete ("complete" absent
 * in files before it: a time means complete)
 */
static int read_precondition(struct cdm_err *err, const struct cdm_json *pc,
			     struct cdm_run_info *in)
{
	const struct cdm_json *t = cdm_json_get(pc, "time_ns"), *c = cdm_json_get(pc, "complete");
	int complete = !t || t->type != CDM_JSON_NULL;

	if (pc->type != CDM_JSON_OBJECT)
		return not_object(err, "settings.precondition", pc);
	if (complete && u64(err, pc, "settings.precondition", "time_ns", &in->precondition_ns))
		return -EINVAL;
	if (complete && !in->precondition_ns)
		return bad(err, "settings.precondition.time_ns: 0 (null when it did not complete)");
	if (c && (c->type != CDM_JSON_TRUE && c->type != CDM_JSON_FALSE))
		return bad(err, "settings.precondition.complete: expected a boolean");
	if (c && (c->type == CDM_JSON_TRUE) != complete)
		return bad(err, "settings.precondition: \"complete\" is %s, but time_ns is %s",
			   complete ? "false" : "true", complete ? "a time" : "null");
	if (!complete)
		in->precondition_ns = 0;
	in->precondition = 1;
	return 0;
}

static int read_hold_settings(struct cdm_err *err, const struct cdm_json *set,
			      struct cdm_run_info *in)
{
	const struct cdm_json *ss = cdm_json_get(set, "steady_state");
	const struct cdm_json *pc = cdm_json_get(set, "precondition");

	if (opt_bool(err, set, "settings", "end_fsync", &in->end_fsync) ||
	    opt_bool(err, set, "settings", "verify", &in->verify) ||
	    opt_str(err, set, "settings", "cpus", in->cpus, sizeof(in->cpus)) ||
	    cpu_list(err, "settings", "cpus", in->cpus))
		return -EINVAL;
	if (ss && ss->type != CDM_JSON_NULL) {
		if (ss->type != CDM_JSON_OBJECT)
			return not_object(err, "settings.steady_state", ss);
		if (get_uint(err, ss, "settings.steady_state", "max_rounds", CDM_MAX_PASSES,
			     &in->max_rounds))
			return -EINVAL;
		in->steady_state = 1;
	}
	if (pc && pc->type != CDM_JSON_NULL)
		return read_precondition(err, pc, in);
	return 0;
}

/*
 * The system's side of --cpus, all optional: the CPUs allowed, the
 * device's NUMA node (null or absent: -1, unknown) and the warning.
 */
static int read_placement(struct cdm_err *err, const struct cdm_json *sy, struct cdm_run_info *in)
{
	const struct cdm_json *v = cdm_json_get(sy, "device_numa_node");
	unsigned int node;

	if (opt_str(err, sy, "system", "cpus_allowed_list", in->cpus_allowed_list,
		    sizeof(in->cpus_allowed_list)) ||
	    cpu_list(err, "system", "cpus_allowed_list", in->cpus_allowed_list) ||
	    opt_str(err, sy, "system", "numa_warning", in->numa_warning, sizeof(in->numa_warning)))
		return -EINVAL;
	in->dev_numa_node = -1;
	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	/* the kernel numbers nodes below MAX_NUMNODES, at most 1 << 10 */
	if (get_uint(err, sy, "system", "device_numa_node", 1023, &node))
		return -EINVAL;
	in->dev_numa_node = (int)node;
	return 0;
}

static int read_info(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_result *r)
{
	struct cdm_run_info *in = &r->info;
	const struct cdm_json *set, *tg, *sy, *v;
	char s[16];
	uint64_t u;

	if (str(err, root, "result", "label", in->label, sizeof(in->label), 0) ||
	    str(err, root, "result", "cdm_version", in->version, sizeof(in->version), 0) ||
	    str(err, root, "result", "comment", in->comment, sizeof(in->comment), 1))
		return -EINVAL;
	v = mem(err, root, "result", "interrupted_signal", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER) {
		unsigned int sig;

		if (get_uint(err, root, "result", "interrupted_signal", 64, &sig))
			return -EINVAL;
		r->interrupted = (int)sig;
	}
	/* null: an imported report without its Date (source.date_text says) */
	v = mem(err, root, "result", "start_unix", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER && !(v->num >= 0 && v->num < 1e13))
		return bad(err, "start_unix: out of range");
	in->start = v->type == CDM_JSON_NUMBER ? (time_t)v->num : 0;

	set = mem(err, root, "result", "settings", CDM_JSON_OBJECT, 0);
	if (!set)
		return -EINVAL;
	/* null: an imported report's profile, path or volume it does not state */
	if (str(err, set, "settings", "profile", in->profile, sizeof(in->profile), 1) ||
	    null_u64(err, set, "settings", "size_bytes", &in->size) ||
	    null_count(err, set, &in->count) ||
	    null_secs(err, set, "settings", "time_s", &in->time_ms) ||
	    null_secs(err, set, "settings", "interval_s", &in->interval_ms) ||
	    null_secs(err, set, "settings", "warmup_s", &in->warmup_ms) ||
	    str(err, set, "settings", "engine", in->engine, sizeof(in->engine), 1) ||
	    boolean(err, set, "settings", "direct", &in->direct) ||
	    str(err, set, "settings", "data", s, sizeof(s), 1))
		return -EINVAL;
	in->zero_fill = !strcmp(s, "zero");
	v = cdm_json_get(set, "sync");
	in->dsync = v && v->type == CDM_JSON_TRUE;
	u = 0;
	if (opt_u64(err, set, "settings", "fsync_every", &u))
		return -EINVAL;
	in->fsync_every = u > UINT32_MAX ? UINT32_MAX : (unsigned int)u;
	if (opt_u64(err, set, "settings", "rate_iops", &in->rate_iops) ||
	    opt_u64(err, set, "settings", "seed", &in->seed) ||
	    read_null_device(err, set, in))
		return -EINVAL;
	/* --seed's range: 1-4294967295 (null: none) */
	v = cdm_json_get(set, "seed");
	if (v && v->type != CDM_JSON_NULL && (!in->seed || in->seed > UINT32_MAX))
		return bad(err, "settings.seed: out of range (1-4294967295, or null)");
	if (str(err, set, "settings", "aggregate", s, sizeof(s), 0))
		return -EINVAL;
	if (cdm_result_aggregate_parse(s, &r->aggregate) < 0)
		return bad(err, "settings.aggregate: \"%s\"", s);
	if (read_hold_settings(err, set, in))
		return -EINVAL;
	/* null: an imported report's, which has no passes to judge (the default stays) */
	v = mem(err, set, "settings", "cv_threshold_pct", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER)
		r->cv_threshold_pct = v->num;

	tg = mem(err, root, "result", "target", CDM_JSON_OBJECT, 0);
	if (!tg)
		return -EINVAL;
	if (str(err, tg, "target", "path", in->target, sizeof(in->target), 1) ||
	    str(err, tg, "target", "mount_point", in->mount_point, sizeof(in->mount_point), 1) ||
	    str(err, tg, "target", "fs_type", in->fs_type, sizeof(in->fs_type), 1) ||
	    str(err, tg, "target", "fs_source", in->fs_source, sizeof(in->fs_source), 1) ||
	    str(err, tg, "target", "device", in->dev_name, sizeof(in->dev_name), 1) ||
	    str(err, tg, "target", "device_model", in->dev_model, sizeof(in->dev_model), 1) ||
	    str(err, tg, "target", "scheduler", in->dev_scheduler, sizeof(in->dev_scheduler), 1) ||
	    null_u64(err, tg, "target", "fs_total_bytes", &in->fs_total_bytes) ||
	    null_u64(err, tg, "target", "fs_used_bytes", &in->fs_used_bytes) ||
	    null_u64(err, tg, "target", "fs_avail_bytes", &in->fs_avail_bytes))
		return -EINVAL;
	if (read_memory_under(err, tg, in))
		return -EINVAL;
	v = cdm_json_get(tg, "rotational");
	in->dev_rotational = !v || v->type == CDM_JSON_NULL ? CDM_ROT_UNKNOWN :
			     v->type == CDM_JSON_TRUE ? CDM_ROT_YES : CDM_ROT_NO;

	sy = mem(err, root, "result", "system", CDM_JSON_OBJECT, 0);
	if (!sy)
		return -EINVAL;
	if (str(err, sy, "system", "os", in->os, sizeof(in->os), 1) ||
	    str(err, sy, "system", "kernel", in->kernel, sizeof(in->kernel), 1) ||
	    str(err, sy, "system", "machine", in->machine, sizeof(in->machine), 1) ||
	    str(err, sy, "system", "cpu_model", in->cpu_model, sizeof(in->cpu_model), 1))
		return -EINVAL;
	/* null: an imported report that does not say (read_source()) */
	v = mem(err, sy, "system", "admin", CDM_JSON_TRUE, 1);
	if (!v)
		return -EINVAL;
	in->admin = v->type == CDM_JSON_TRUE;
	u = 0;
	if (opt_u64(err, sy, "system", "cpus_online", &u))
		return -EINVAL;
	in->cpus_online = u > UINT32_MAX ? 0 : (unsigned int)u;
	u = 0;          /* absent in files written before it was added */
	if (opt_u64(err, sy, "system", "cpus_allowed", &u))
		return -EINVAL;
	in->cpus_allowed = u > UINT32_MAX ? 0 : (unsigned int)u;
	in->mem_total_bytes = 0;	/* absent in files written before it was added */
	if (opt_u64(err, sy, "system", "mem_total_bytes", &in->mem_total_bytes))
		return -EINVAL;
	return read_placement(err, sy, in);
}

/* the JSON text parsed, or -EINVAL / -ENOMEM / -E2BIG with the reason in @err */
static int parse(const char *text, size_t len, struct cdm_json **root, struct cdm_err *err)
{
	struct cdm_json_error je;
	size_t i;
	int ret;

	for (i = 0; i < len && text[i] && strchr(" \t\r\n", text[i]); i++)
		;
	if (i == len)
		return cdm_err_set(err, -EINVAL, "empty file, not a cdm result");
	ret = cdm_json_parse(text, len, root, &je);
	if (ret == -ENOMEM)
		return cdm_err_set(err, ret, "out of memory");
	if (ret && je.truncated)
		return cdm_err_set(err, ret, "truncated JSON: the text ends at byte %zu, inside a value (%s)",
				   je.offset, je.msg);
	if (ret)
		return cdm_err_set(err, ret, "not JSON: line %u, column %u: %s", je.line, je.column,
				   je.msg);
	return 0;
}

/* is @root a cdm result of a schema this reader knows, as @flags allow? */
static int check_kind(const struct cdm_json *root, unsigned int flags, struct cdm_err *err)
{
	const struct cdm_json *tool = cdm_json_get(root, "tool");
	const struct cdm_json *sv = cdm_json_get(root, "schema_version");
	const struct cdm_json *kind;

	if (!tool || tool->type != CDM_JSON_STRING || strcmp(tool->str, "cdm") || !sv)
		return cdm_err_set(err, -EINVAL, "not a cdm result (valid JSON, but not an object with \"tool\": \"cdm\" and a \"schema_version\")");
	if (sv->type != CDM_JSON_NUMBER || !sv->is_uint || sv->u64 < 1)
		return bad(err, "schema_version: expected a whole number >= 1");
	if (sv->u64 > CDM_JSON_SCHEMA_READ_MAX)
		return cdm_err_set(err, -EPROTONOSUPPORT, "schema_version %" PRIu64 " is newer than this cdm reads (%d)",
				   sv->u64, CDM_JSON_SCHEMA_READ_MAX);
	/* a sweep's points (report/sweep.c: "kind": "sweep") are no run */
	kind = cdm_json_get(root, "kind");
	if (kind && kind->type == CDM_JSON_STRING && !strcmp(kind->str, "sweep"))
		return cdm_err_set(err, -EINVAL, "a cdm sweep result (cdm sweep --save), not a run's (cdm --save)");
	if (cdm_json_get(root, "scale") && !(flags & CDM_RESULT_READ_AGGREGATE))
		return cdm_err_set(err, -EINVAL, "already an aggregate of several runs: merge the runs' own results");
	return 0;
}

/*
 * The settings a report of the run prints, against what cdm runs
 * (spec.h) and its text reader reads back: a run cdm measured states each
 * of them (its count, time and size); an imported one may leave one
 * unknown (0, null), and what it states is in range.
 */
static int settings_ok(struct cdm_err *err, const struct cdm_run_info *in)
{
	int imported = cdm_result_imported(in);
	char t[CDM_MSEC_FORMAT_MAX];

	if ((in->count || !imported) && (in->count < 1 || in->count > CDM_COUNT_MAX))
		return bad(err, "settings.count: %u is outside 1..%u", in->count, CDM_COUNT_MAX);
	if ((in->time_ms || !imported) && in->time_ms < CDM_TIME_MIN_MS)
		return bad(err, "settings.time_s: %s is outside 0.1..%u",
			   cdm_msec_format(in->time_ms, t, sizeof(t)), CDM_TIME_MAX);
	if ((in->size || !imported) && (in->size < CDM_SIZE_MIN || in->size > CDM_SIZE_MAX))
		return bad(err, "settings.size_bytes: %" PRIu64 " is outside %llu..%llu", in->size,
			   CDM_SIZE_MIN, CDM_SIZE_MAX);
	return 0;
}

int cdm_result_read(const char *text, size_t len, unsigned int flags,
		    struct cdm_run_result **out, struct cdm_err *err)
{
	const struct cdm_json *tests;
	struct cdm_run_result *r = NULL;
	struct cdm_json *root;
	unsigned int tmax;
	size_t n;
	int ret;

	*out = NULL;
	ret = parse(text, len, &root, err);
	if (ret)
		return ret;
	ret = check_kind(root, flags, err);
	if (ret)
		goto out;
	/* the settings are checked before the tests: their errors come first */
	tests = cdm_json_get(root, "tests");
	n = tests && tests->type == CDM_JSON_ARRAY ? tests->n : 0;
	if (n > TESTS_MAX) {
		ret = bad(err, "tests: %zu tests, more than cdm ever writes", n);
		goto out;
	}
	r = cdm_result_alloc((unsigned int)n);
	if (!r) {
		ret = cdm_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = read_info(err, root, r);
	if (!ret)
		ret = read_source(err, root, &r->info);
	if (!ret)
		ret = settings_ok(err, &r->info);
	if (!ret && !mem(err, root, "result", "tests", CDM_JSON_ARRAY, 0))
		ret = -EINVAL;
	/* an aggregate's tests sum the threads of its runs (model/merge.h) */
	tmax = cdm_json_get(root, "scale") ? CDM_THREADS_MAX * CDM_MERGE_MAX : CDM_THREADS_MAX;
	for (unsigned int i = 0; !ret && i < r->ntests; i++)
		ret = read_test(err, &tests->items[i], i, &r->info, tmax, &r->tests[i]);
	if (!ret)
		ret = verify_total(err, r);
out:
	cdm_json_free(root);
	if (ret) {
		cdm_result_free(r);
		return ret;
	}
	*out = r;
	return 0;
}
