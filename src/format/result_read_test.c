/* SPDX-License-Identifier: MIT */
/*
 * result_read_test.c - one test of a saved JSON result back into its
 * struct cdm_test_result: its passes, histogram, the figures of an imported
 * report, its steady state and verify (src/format/result_rd.h)
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
 * A mean (ns) times a count, back to the sum it was computed from.  The one
 * place a file's mean becomes an integer: a negative mean, or one whose sum
 * does not fit 64 bits, is refused by name (converting it would be undefined).
 */
static int mean_times(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		      const char *key, uint64_t n, uint64_t *sum)
{
	const struct cdm_json *v = cdm_result_get_mem(err, obj, where, key, CDM_JSON_NUMBER, 1);
	double s;

	if (!v)
		return -EINVAL;
	*sum = 0;
	if (v->type != CDM_JSON_NUMBER)
		return 0;
	s = v->num * (double)n + 0.5;
	if (!(v->num >= 0.0) || !(s < 18446744073709549568.0))
		return cdm_result_get_bad(err, "%s.%s: %g out of range for %" PRIu64 " I/Os", where, key, v->num, n);
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
			return cdm_result_get_not_object(err, w, rp);
		if (cdm_result_get_u64(err, rp, w, "bytes", &p->read_bytes) || cdm_result_get_u64(err, rp, w, "ios", &p->read_ios) ||
		    mean_times(err, rp, w, "lat_mean_ns", p->read_ios, &p->read_lat_sum_ns))
			return -EINVAL;
	}
	if (fs && fs->type != CDM_JSON_NULL) {
		snprintf(w, sizeof(w), "%s.fsync", where);
		if (fs->type != CDM_JSON_OBJECT)
			return cdm_result_get_not_object(err, w, fs);
		if (cdm_result_get_u64(err, fs, w, "count", &p->fsyncs) || cdm_result_get_max_u64(err, fs, w, "max_ns", &p->fsync_max_ns))
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
		return cdm_result_get_not_object(err, w, ef);
	if (cdm_result_get_u64(err, ef, w, "count", &p->end_fsyncs) || cdm_result_get_u64(err, ef, w, "time_ns", &p->end_fsync_ns))
		return -EINVAL;
	if (p->end_fsyncs > 1)
		return cdm_result_get_bad(err, "%s.count: %" PRIu64 ", a pass ends with one fdatasync at most",
					  w, p->end_fsyncs);
	if (!p->end_fsyncs && p->end_fsync_ns)
		return cdm_result_get_bad(err, "%s.time_ns: %" PRIu64 " for no fdatasync (count 0)", w, p->end_fsync_ns);
	/*
	 * timed inside the pass, whose duration includes it: never longer
	 * (duration_s is printed to round-trip; 1 ns spares the product's rounding)
	 */
	if ((double)p->end_fsync_ns > p->seconds * 1e9 + 1.0)
		return cdm_result_get_bad(err, "%s.time_ns: %" PRIu64 " ns, longer than the pass it ended (duration_s %.9g)",
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
			return cdm_result_get_bad(err, "%s.passes: their %s add up past 2^64 (at passes[%u])", where,
						  what, k);
	}
	return 0;
}

static int read_pass(struct cdm_err *err, const struct cdm_json *pj, const char *where,
		     struct cdm_pass *p)
{
	const struct cdm_json *v;

	if (pj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, pj);
	v = cdm_result_get_mem(err, pj, where, "duration_s", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	if (!(v->num >= 0.0 && v->num < 1e7))
		return cdm_result_get_bad(err, "%s.duration_s: out of range", where);
	p->seconds = v->num;
	if (cdm_result_get_u64(err, pj, where, "bytes", &p->bytes) || cdm_result_get_u64(err, pj, where, "ios", &p->ios) ||
	    cdm_result_get_max_u64(err, pj, where, "lat_max_ns", &p->lat_max_ns) ||
	    cdm_result_get_u64(err, pj, where, "cpu_user_ns", &p->cpu_user_ns) ||
	    cdm_result_get_u64(err, pj, where, "cpu_sys_ns", &p->cpu_sys_ns) ||
	    cdm_result_get_u64(err, pj, where, "proc_user_ns", &p->proc_user_ns) ||
	    cdm_result_get_u64(err, pj, where, "proc_sys_ns", &p->proc_sys_ns) ||
	    cdm_result_get_opt_u64(err, pj, where, "start_unix_ns", &p->start_unix_ns) ||
	    cdm_result_get_opt_u64(err, pj, where, "pending_max_ns", &p->pending_max_ns) ||
	    cdm_result_get_opt_u64(err, pj, where, "late_starts", &p->late_starts) ||
	    cdm_result_get_opt_u64(err, pj, where, "late_max_ns", &p->late_max_ns) ||
	    cdm_result_get_opt_u64(err, pj, where, "paused_ns", &p->paused_ns) ||
	    cdm_result_get_opt_u64(err, pj, where, "busy_ns", &p->busy_ns))
		return -EINVAL;
	p->late_known = cdm_json_get(pj, "late_starts") &&
			cdm_json_get(pj, "late_starts")->type == CDM_JSON_NUMBER;
	if (read_extras(err, pj, where, p) || read_end_fsync(err, pj, where, p))
		return -EINVAL;
	if (cdm_json_get(pj, "lat_sum_ns"))
		return cdm_result_get_u64(err, pj, where, "lat_sum_ns", &p->lat_sum_ns);
	/* files from before lat_sum_ns: the mean times the count */
	return mean_times(err, pj, where, "lat_mean_ns", p->ios, &p->lat_sum_ns);
}

static int read_hist(struct cdm_err *err, const struct cdm_json *hj, const char *where,
		     struct cdm_hist *h)
{
	const struct cdm_json *b;
	uint64_t sub, total = 0;
	char w[160];

	if (cdm_result_get_u64(err, hj, where, "sub_buckets", &sub))
		return -EINVAL;
	if (sub != CDM_HIST_SUB)
		return cdm_result_get_bad(err, "%s.sub_buckets: %" PRIu64 ", this cdm has %u", where, sub, CDM_HIST_SUB);
	if (cdm_result_get_u64(err, hj, where, "count", &h->count) || cdm_result_get_u64(err, hj, where, "sum_ns", &h->sum_ns) ||
	    cdm_result_get_u64(err, hj, where, "min_ns", &h->min_ns) || cdm_result_get_u64(err, hj, where, "max_ns", &h->max_ns))
		return -EINVAL;
	b = cdm_result_get_mem(err, hj, where, "buckets", CDM_JSON_ARRAY, 0);
	if (!b)
		return -EINVAL;
	for (size_t i = 0; i < b->n; i++) {
		uint64_t low = 0, high = 0, count = 0;
		unsigned int idx;

		snprintf(w, sizeof(w), "%s.buckets[%zu]", where, i);
		if (b->items[i].type != CDM_JSON_OBJECT)
			return cdm_result_get_not_object(err, w, &b->items[i]);
		if (cdm_result_get_u64(err, &b->items[i], w, "low_ns", &low) ||
		    cdm_result_get_u64(err, &b->items[i], w, "high_ns", &high) ||
		    cdm_result_get_u64(err, &b->items[i], w, "count", &count))
			return -EINVAL;
		idx = cdm_hist_index(low);
		if (cdm_hist_bucket_low(idx) != low || cdm_hist_bucket_high(idx) != high)
			return cdm_result_get_bad(err, "%s: [%" PRIu64 ", %" PRIu64 "] is not a bucket of cdm's histogram",
						  w, low, high);
		h->buckets[idx] += count;
		total += count;
	}
	if (total != h->count)
		return cdm_result_get_bad(err, "%s: the buckets hold %" PRIu64 " values, count says %" PRIu64,
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
		return cdm_result_get_not_object(err, w, e);
	if (t->dir == CDM_DIR_READ)
		return cdm_result_get_bad(err, "%s: a read test has nothing to flush", w);
	for (unsigned int i = 0; i < 3; i++)
		if (cdm_result_get_figure(err, e, w, keys[i], 0, i == 2 ? 100.0 + 1e-9 : 1e20, dst[i]))
			return -EINVAL;
	if (s->max_ns < s->mean_ns)
		return cdm_result_get_bad(err, "%s.max_ns: below mean_ns", w);
	t->reported.has_end_fsync = 1;
	return 0;
}

/*
 * A report's "fsync" (in "reported", @o): the "Fsync:" note of cdm's text
 * of a run with --fsync, its calls, mean and longest (ns), when the file
 * has it (absent or null: none)
 */
static int read_reported_fsync(struct cdm_err *err, const struct cdm_json *o,
			       const char *where, struct cdm_test_result *t)
{
	const struct cdm_json *e = cdm_json_get(o, "fsync");
	struct cdm_fsync_sum *s = &t->reported.fsync;
	char w[80];

	if (!e || e->type == CDM_JSON_NULL)
		return 0;
	snprintf(w, sizeof(w), "%s.fsync", where);
	if (e->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, w, e);
	if (t->dir == CDM_DIR_READ)
		return cdm_result_get_bad(err, "%s: a read test makes no fdatasync", w);
	if (cdm_result_get_u64(err, e, w, "count", &s->count) ||
	    cdm_result_get_figure(err, e, w, "mean_ns", 0, 1e20, &s->mean_ns) ||
	    cdm_result_get_figure(err, e, w, "max_ns", 0, 1e20, &s->max_ns))
		return -EINVAL;
	if (!s->count || s->max_ns < s->mean_ns)
		return cdm_result_get_bad(err, "%s: no calls, or max_ns below mean_ns", w);
	t->reported.has_fsync = 1;
	return 0;
}

/*
 * A test's "reported" (schema 3): the figures a CrystalDiskMark report
 * printed for it, MB/s required, IOPS and mean latency (us) or null, and
 * the "end_fsync" and "fsync" of cdm's text (read_reported_end_fsync(),
 * read_reported_fsync()).
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
		return cdm_result_get_not_object(err, w, o);
	if (t->npasses)
		return cdm_result_get_bad(err, "%s: a test with passes and a report's figures", w);
	/* MB/s required; IOPS and latency null where the report printed none */
	for (unsigned int i = 0; i < 3; i++)
		if (cdm_result_get_figure(err, o, w, keys[i], i > 0, 1e15, dst[i]))
			return -EINVAL;
	t->reported.has = 1;
	t->parts_unknown = t->dir == CDM_DIR_MIX;      /* CDM prints a Mix's total only */
	if (read_reported_fsync(err, o, w, t))
		return -EINVAL;
	return read_reported_end_fsync(err, o, w, t);
}

/* a percentage of the steady window, or null (NaN): never negative */
static int steady_pct(struct cdm_err *err, const struct cdm_json *o, const char *where,
		      const char *key, double *dst)
{
	return cdm_result_get_figure(err, o, where, key, 1, 1e15, dst);
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
		return cdm_result_get_not_object(err, w, o);
	v = cdm_result_get_mem(err, o, w, "reached_at_round", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER &&
	    cdm_result_get_uint(err, o, w, "reached_at_round", CDM_MAX_PASSES, &st->reached_at_round))
		return -EINVAL;
	if (cdm_result_get_uint(err, o, w, "max_rounds", CDM_MAX_PASSES, &st->max_rounds) ||
	    cdm_result_get_uint(err, o, w, "window_rounds", CDM_STEADY_WINDOW, &st->window_rounds) ||
	    steady_pct(err, o, w, "range_pct", &st->range_pct) ||
	    steady_pct(err, o, w, "slope_pct", &st->slope_pct))
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER && !st->reached_at_round)
		return cdm_result_get_bad(err, "%s.reached_at_round: 0, rounds count from 1", w);
	/* an imported report's test has no rounds, only what its text said of them */
	if (!t->reported.has && st->reached_at_round > t->npasses)
		return cdm_result_get_bad(err, "%s.reached_at_round: not one of the test's %u rounds", w, t->npasses);
	if (st->window_rounds > t->npasses)
		return cdm_result_get_bad(err, "%s.window_rounds: %u, more than the test's %u rounds", w,
					  st->window_rounds, t->npasses);
	st->on = 1;
	return 0;
}

/* a first offset: null when its count is 0, else a whole number */
static int verify_first(struct cdm_err *err, const struct cdm_json *v, const char *where,
			const char *key, uint64_t n, uint64_t *dst)
{
	const struct cdm_json *f = cdm_result_get_mem(err, v, where, key, CDM_JSON_NUMBER, 1);

	if (!f)
		return -EINVAL;
	if (!n && f->type == CDM_JSON_NULL)
		return 0;
	if (!n || f->type == CDM_JSON_NULL)
		return cdm_result_get_bad(err, "%s.%s: %s", where, key,
					  n ? "null, but its count is not 0" : "an offset, but its count is 0");
	return cdm_result_get_u64(err, v, where, key, dst);
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

	if (cdm_result_get_opt_u64(err, v, w, "sample_every", &every) ||
	    cdm_result_get_opt_u64(err, v, w, "first_misdirected_meant_offset", &meant))
		return -EINVAL;
	if (!every)
		every = r->sampled ? 0 : 1;
	else if (r->sampled != (every > 1))
		return cdm_result_get_bad(err, "%s.sample_every: %" PRIu64 ", but \"sampled\" is %s", w, every,
					  r->sampled ? "true" : "false");
	r->every = every;
	if (meant == UINT64_MAX)
		return 0;
	if (!r->misdirected)
		return cdm_result_get_bad(err, "%s.first_misdirected_meant_offset: an offset, but no write was misdirected",
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
		return cdm_result_get_not_object(err, w, v);
	if ((sj = cdm_json_get(v, "status"))) {
		if (sj->type != CDM_JSON_STRING || cdm_result_verify_state_parse(sj->str, &st) < 0)
			return cdm_result_get_bad(err, "%s.status: expected \"clean\", \"faults\", \"nothing_written\" or \"interrupted\"",
						  w);
		if (st == CDM_VERIFY_STATE_INTERRUPTED) {
			memset(out, 0, sizeof(*out));
			out->interrupted = 1;
			return 0;
		}
	}
	if (!cdm_result_get_mem(err, v, w, "blocks", CDM_JSON_NUMBER, 1))
		return -EINVAL;
	r.blocks_unknown = cdm_json_get(v, "blocks")->type == CDM_JSON_NULL;
	if (r.blocks_unknown && !imported)
		return cdm_result_get_bad(err, "%s.blocks: null, but cdm measured this run (only a text read back has no count)",
					  w);
	if ((!r.blocks_unknown && cdm_result_get_u64(err, v, w, "blocks", &r.blocks)) ||
	    cdm_result_get_boolean(err, v, w, "sampled", &r.sampled) ||
	    cdm_result_get_u64(err, v, w, "lost", &r.lost) || cdm_result_get_u64(err, v, w, "misdirected", &r.misdirected) ||
	    cdm_result_get_u64(err, v, w, "torn", &r.torn) ||
	    verify_first(err, v, w, "first_lost_offset", r.lost, &r.first_lost) ||
	    verify_first(err, v, w, "first_misdirected_offset", r.misdirected, &r.first_misdirected) ||
	    verify_first(err, v, w, "first_torn_offset", r.torn, &r.first_torn) ||
	    verify_extras(err, v, w, &r))
		return -EINVAL;
	/* each kind within what is left: a sum of the three could wrap */
	if (!r.blocks_unknown && (r.lost > r.blocks || r.misdirected > r.blocks - r.lost ||
				  r.torn > r.blocks - r.lost - r.misdirected))
		return cdm_result_get_bad(err, "%s: more faults than the %" PRIu64 " blocks read back", w, r.blocks);
	if (sj && st != cdm_result_verify_state(&r))
		return cdm_result_get_bad(err, "%s.status: \"%s\", but the counts say \"%s\"", w, sj->str,
					  cdm_result_verify_state_key(cdm_result_verify_state(&r)));
	*out = r;
	return 0;
}

/* a test's direction, its Mix share and its pattern */
static int read_kind(struct cdm_err *err, const struct cdm_json *tj, const char *where,
		     struct cdm_test_result *t)
{
	char s[16];

	if (cdm_result_get_str(err, tj, where, "direction", s, sizeof(s), 0))
		return -EINVAL;
	if (!strcmp(s, "read"))
		t->dir = CDM_DIR_READ;
	else if (!strcmp(s, "write"))
		t->dir = CDM_DIR_WRITE;
	else if (!strcmp(s, "mix"))
		t->dir = CDM_DIR_MIX;
	else
		return cdm_result_get_bad(err, "%s.direction: expected \"read\", \"write\" or \"mix\"", where);
	if (cdm_json_get(tj, "write_pct") && cdm_json_get(tj, "write_pct")->type != CDM_JSON_NULL &&
	    cdm_result_get_uint(err, tj, where, "write_pct", CDM_MIX_MAX, &t->spec.write_pct))
		return -EINVAL;
	if (cdm_result_get_str(err, tj, where, "pattern", s, sizeof(s), 0))
		return -EINVAL;
	if (strcmp(s, "SEQ") && strcmp(s, "RND"))
		return cdm_result_get_bad(err, "%s.pattern: expected \"SEQ\" or \"RND\"", where);
	t->spec.pattern = strcmp(s, "RND") ? CDM_SEQ : CDM_RND;
	return 0;
}

int cdm_result_read_test(struct cdm_err *err, const struct cdm_json *tj, unsigned int idx,
			 const struct cdm_run_info *in, unsigned int threads_max,
			 struct cdm_test_result *t)
{
	const struct cdm_json *passes, *e, *h;
	char where[48], w[80], why[96];
	unsigned int n;

	snprintf(where, sizeof(where), "tests[%u]", idx);
	if (tj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, tj);
	if (read_kind(err, tj, where, t) ||
	    cdm_result_get_u64(err, tj, where, "block_bytes", &t->spec.block) ||
	    cdm_result_get_uint(err, tj, where, "queue_depth", CDM_QD_MAX, &t->spec.qd) ||
	    cdm_result_get_uint(err, tj, where, "queue_depth_run", CDM_QD_MAX, &t->qd_run) ||
	    cdm_result_get_uint(err, tj, where, "threads", 1u << 24, &t->spec.threads))
		return -EINVAL;
	/* what a report of it prints must be a test cdm runs (and its text reader reads) */
	if (cdm_spec_check(&t->spec, threads_max, why, sizeof(why)))
		return cdm_result_get_bad(err, "%s: %s", where, why);
	if (t->dir != CDM_DIR_MIX && t->spec.write_pct)
		return cdm_result_get_bad(err, "%s.write_pct: %u, but only a Mix test has a write share", where,
					  t->spec.write_pct);
	if (t->qd_run < 1 || t->qd_run > t->spec.qd)
		return cdm_result_get_bad(err, "%s.queue_depth_run: %u is outside 1..%u (its queue_depth)", where,
					  t->qd_run, t->spec.qd);
	passes = cdm_result_get_mem(err, tj, where, "passes", CDM_JSON_ARRAY, 0);
	if (!passes)
		return -EINVAL;
	if (passes->n > CDM_MAX_PASSES)
		return cdm_result_get_bad(err, "%s.passes: %zu passes, more than %d", where, passes->n, CDM_MAX_PASSES);
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
	e = cdm_result_get_mem(err, tj, where, "error", CDM_JSON_OBJECT, 1);
	if (!e)
		return -EINVAL;
	if (e->type == CDM_JSON_OBJECT) {
		unsigned int no;

		snprintf(w, sizeof(w), "%s.error", where);
		if (cdm_result_get_uint(err, e, w, "errno", 4095, &no) ||
		    cdm_result_get_u64(err, e, w, "offset_bytes", &t->error_offset))
			return -EINVAL;
		t->error = -(int)(no ? no : EIO);
	}
	if (read_reported(err, tj, where, t) || read_steady(err, tj, where, t) ||
	    read_verify(err, tj, where, cdm_result_imported(in), &t->verify) ||
	    cdm_result_read_series(err, tj, where, t))
		return -EINVAL;
	h = cdm_result_get_mem(err, tj, where, "histogram", CDM_JSON_OBJECT, 1);
	if (!h)
		return -EINVAL;
	if (h->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.histogram", where);
		return read_hist(err, h, w, t->hist);
	}
	return 0;
}

