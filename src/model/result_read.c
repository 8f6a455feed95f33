/* SPDX-License-Identifier: MIT */
/*
 * result_read.c - a saved JSON result back into struct cdm_run_result,
 * with every count the merge needs (passes, latency sums, start times,
 * histogram buckets).  Uses cdm's strict JSON reader; every member is
 * checked for its type, and a missing or mistyped one is named.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/model/json_read.h"
#include "cdm/model/result_read.h"

struct rd {
	char *err;
	size_t len;
};

static int bad(struct rd *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct rd *rd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(rd->err, rd->len, "not a valid cdm result: ");

	if (n > 0 && (size_t)n < rd->len) {
		va_start(ap, fmt);
		vsnprintf(rd->err + n, rd->len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* member @key of @obj with type @type (TRUE stands for either boolean) */
static const struct cdm_json *mem(struct rd *rd, const struct cdm_json *obj, const char *where,
				  const char *key, enum cdm_json_type type, int null_ok)
{
	const struct cdm_json *v = cdm_json_get(obj, key);
	enum cdm_json_type t;

	if (!v) {
		bad(rd, "%s: no \"%s\"", where, key);
		return NULL;
	}
	t = v->type == CDM_JSON_FALSE ? CDM_JSON_TRUE : v->type;
	if ((null_ok && t == CDM_JSON_NULL) || t == type)
		return v;
	bad(rd, "%s.%s: expected %s, found %s", where, key, cdm_json_type_name(type),
	    cdm_json_type_name(v->type));
	return NULL;
}

static int u64(struct rd *rd, const struct cdm_json *obj, const char *where, const char *key,
	       uint64_t *dst)
{
	const struct cdm_json *v = mem(rd, obj, where, key, CDM_JSON_NUMBER, 0);

	if (!v)
		return -EINVAL;
	if (!v->is_uint)
		return bad(rd, "%s.%s: expected a whole number >= 0", where, key);
	*dst = v->u64;
	return 0;
}

static int get_uint(struct rd *rd, const struct cdm_json *obj, const char *where, const char *key,
		unsigned int max, unsigned int *dst)
{
	uint64_t v = 0;

	if (u64(rd, obj, where, key, &v))
		return -EINVAL;
	if (v > max)
		return bad(rd, "%s.%s: %" PRIu64 " is above %u", where, key, v, max);
	*dst = (unsigned int)v;
	return 0;
}

/* a string into @dst; null gives "" when @null_ok */
static int str(struct rd *rd, const struct cdm_json *obj, const char *where, const char *key,
	       char *dst, size_t dlen, int null_ok)
{
	const struct cdm_json *v = mem(rd, obj, where, key, CDM_JSON_STRING, null_ok);

	if (!v)
		return -EINVAL;
	snprintf(dst, dlen, "%s", v->type == CDM_JSON_STRING ? v->str : "");
	return 0;
}

static int boolean(struct rd *rd, const struct cdm_json *obj, const char *where,
		   const char *key, int *dst)
{
	const struct cdm_json *v = mem(rd, obj, where, key, CDM_JSON_TRUE, 0);

	if (!v)
		return -EINVAL;
	*dst = v->type == CDM_JSON_TRUE;
	return 0;
}

/* an optional whole number: absent or null leave *dst */
static int opt_u64(struct rd *rd, const struct cdm_json *obj, const char *where,
		   const char *key, uint64_t *dst)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	return u64(rd, obj, where, key, dst);
}

/* a mean (ns) times a count, back to the sum it was computed from */
static int mean_times(struct rd *rd, const struct cdm_json *obj, const char *where,
		      uint64_t n, uint64_t *sum)
{
	const struct cdm_json *v = mem(rd, obj, where, "lat_mean_ns", CDM_JSON_NUMBER, 1);

	if (!v)
		return -EINVAL;
	*sum = v->type == CDM_JSON_NUMBER ? (uint64_t)(v->num * (double)n + 0.5) : 0;
	return 0;
}

/*
 * A Mix pass's read part and --fsync's calls, when the file has them
 * (absent in files from before they existed).  Their latency sums are
 * written as means, so they come back as mean x count (exact to a few ns).
 */
static int read_extras(struct rd *rd, const struct cdm_json *pj, const char *where,
		       struct cdm_pass *p)
{
	const struct cdm_json *rp = cdm_json_get(pj, "read"), *fs = cdm_json_get(pj, "fsync"), *v;
	char w[120];

	if (rp && rp->type != CDM_JSON_NULL) {
		snprintf(w, sizeof(w), "%s.read", where);
		if (rp->type != CDM_JSON_OBJECT)
			return bad(rd, "%s: expected object", w);
		if (u64(rd, rp, w, "bytes", &p->read_bytes) || u64(rd, rp, w, "ios", &p->read_ios) ||
		    mean_times(rd, rp, w, p->read_ios, &p->read_lat_sum_ns))
			return -EINVAL;
	}
	if (fs && fs->type != CDM_JSON_NULL) {
		snprintf(w, sizeof(w), "%s.fsync", where);
		if (fs->type != CDM_JSON_OBJECT)
			return bad(rd, "%s: expected object", w);
		if (u64(rd, fs, w, "count", &p->fsyncs) || u64(rd, fs, w, "max_ns", &p->fsync_max_ns))
			return -EINVAL;
		v = mem(rd, fs, w, "mean_ns", CDM_JSON_NUMBER, 1);
		if (!v)
			return -EINVAL;
		p->fsync_sum_ns = v->type == CDM_JSON_NUMBER ?
				  (uint64_t)(v->num * (double)p->fsyncs + 0.5) : 0;
	}
	return 0;
}

static int read_pass(struct rd *rd, const struct cdm_json *pj, const char *where,
		     struct cdm_pass *p)
{
	const struct cdm_json *v;

	if (pj->type != CDM_JSON_OBJECT)
		return bad(rd, "%s: expected object", where);
	v = mem(rd, pj, where, "duration_s", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	if (!(v->num >= 0.0 && v->num < 1e7))
		return bad(rd, "%s.duration_s: out of range", where);
	p->seconds = v->num;
	if (u64(rd, pj, where, "bytes", &p->bytes) || u64(rd, pj, where, "ios", &p->ios) ||
	    u64(rd, pj, where, "lat_max_ns", &p->lat_max_ns) ||
	    u64(rd, pj, where, "cpu_user_ns", &p->cpu_user_ns) ||
	    u64(rd, pj, where, "cpu_sys_ns", &p->cpu_sys_ns) ||
	    u64(rd, pj, where, "proc_user_ns", &p->proc_user_ns) ||
	    u64(rd, pj, where, "proc_sys_ns", &p->proc_sys_ns) ||
	    opt_u64(rd, pj, where, "start_unix_ns", &p->start_unix_ns))
		return -EINVAL;
	if (read_extras(rd, pj, where, p))
		return -EINVAL;
	if (cdm_json_get(pj, "lat_sum_ns"))
		return u64(rd, pj, where, "lat_sum_ns", &p->lat_sum_ns);
	/* files from before lat_sum_ns: the mean times the count */
	v = mem(rd, pj, where, "lat_mean_ns", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER)
		p->lat_sum_ns = (uint64_t)(v->num * (double)p->ios + 0.5);
	return 0;
}

static int read_hist(struct rd *rd, const struct cdm_json *hj, const char *where,
		     struct cdm_hist *h)
{
	const struct cdm_json *b;
	uint64_t sub, total = 0;
	char w[160];

	if (u64(rd, hj, where, "sub_buckets", &sub))
		return -EINVAL;
	if (sub != CDM_HIST_SUB)
		return bad(rd, "%s.sub_buckets: %" PRIu64 ", this cdm has %u", where, sub, CDM_HIST_SUB);
	if (u64(rd, hj, where, "count", &h->count) || u64(rd, hj, where, "sum_ns", &h->sum_ns) ||
	    u64(rd, hj, where, "min_ns", &h->min_ns) || u64(rd, hj, where, "max_ns", &h->max_ns))
		return -EINVAL;
	b = mem(rd, hj, where, "buckets", CDM_JSON_ARRAY, 0);
	if (!b)
		return -EINVAL;
	for (size_t i = 0; i < b->n; i++) {
		uint64_t low = 0, high = 0, count = 0;
		unsigned int idx;

		snprintf(w, sizeof(w), "%s.buckets[%zu]", where, i);
		if (b->items[i].type != CDM_JSON_OBJECT)
			return bad(rd, "%s: expected object", w);
		if (u64(rd, &b->items[i], w, "low_ns", &low) ||
		    u64(rd, &b->items[i], w, "high_ns", &high) ||
		    u64(rd, &b->items[i], w, "count", &count))
			return -EINVAL;
		idx = cdm_hist_index(low);
		if (cdm_hist_bucket_low(idx) != low || cdm_hist_bucket_high(idx) != high)
			return bad(rd, "%s: [%" PRIu64 ", %" PRIu64 "] is not a bucket of cdm's histogram",
				   w, low, high);
		h->buckets[idx] += count;
		total += count;
	}
	if (total != h->count)
		return bad(rd, "%s: the buckets hold %" PRIu64 " values, count says %" PRIu64,
			   where, total, h->count);
	return 0;
}

static int read_test(struct rd *rd, const struct cdm_json *tj, unsigned int idx,
		     struct cdm_test_result *t)
{
	const struct cdm_json *passes, *e, *h;
	char where[48], w[80], s[16];
	unsigned int n;

	snprintf(where, sizeof(where), "tests[%u]", idx);
	if (tj->type != CDM_JSON_OBJECT)
		return bad(rd, "%s: expected object", where);
	if (str(rd, tj, where, "direction", s, sizeof(s), 0))
		return -EINVAL;
	if (!strcmp(s, "read"))
		t->dir = CDM_DIR_READ;
	else if (!strcmp(s, "write"))
		t->dir = CDM_DIR_WRITE;
	else if (!strcmp(s, "mix"))
		t->dir = CDM_DIR_MIX;
	else
		return bad(rd, "%s.direction: expected \"read\", \"write\" or \"mix\"", where);
	if (cdm_json_get(tj, "write_pct") && cdm_json_get(tj, "write_pct")->type != CDM_JSON_NULL &&
	    get_uint(rd, tj, where, "write_pct", CDM_MIX_MAX, &t->spec.write_pct))
		return -EINVAL;
	if (str(rd, tj, where, "pattern", s, sizeof(s), 0))
		return -EINVAL;
	if (strcmp(s, "SEQ") && strcmp(s, "RND"))
		return bad(rd, "%s.pattern: expected \"SEQ\" or \"RND\"", where);
	t->spec.pattern = strcmp(s, "RND") ? CDM_SEQ : CDM_RND;
	if (u64(rd, tj, where, "block_bytes", &t->spec.block) ||
	    get_uint(rd, tj, where, "queue_depth", CDM_QD_MAX, &t->spec.qd) ||
	    get_uint(rd, tj, where, "queue_depth_run", CDM_QD_MAX, &t->qd_run) ||
	    get_uint(rd, tj, where, "threads", 1u << 24, &t->spec.threads))
		return -EINVAL;
	passes = mem(rd, tj, where, "passes", CDM_JSON_ARRAY, 0);
	if (!passes)
		return -EINVAL;
	if (passes->n > CDM_MAX_PASSES)
		return bad(rd, "%s.passes: %zu passes, more than %d", where, passes->n, CDM_MAX_PASSES);
	n = (unsigned int)passes->n;
	for (unsigned int k = 0; k < n; k++) {
		snprintf(w, sizeof(w), "%s.passes[%u]", where, k);
		if (read_pass(rd, &passes->items[k], w, &t->passes[k]))
			return -EINVAL;
	}
	t->npasses = n;
	e = mem(rd, tj, where, "error", CDM_JSON_OBJECT, 1);
	if (!e)
		return -EINVAL;
	if (e->type == CDM_JSON_OBJECT) {
		unsigned int no;

		snprintf(w, sizeof(w), "%s.error", where);
		if (get_uint(rd, e, w, "errno", 4095, &no) ||
		    u64(rd, e, w, "offset_bytes", &t->error_offset))
			return -EINVAL;
		t->error = -(int)(no ? no : EIO);
	}
	h = mem(rd, tj, where, "histogram", CDM_JSON_OBJECT, 1);
	if (!h)
		return -EINVAL;
	if (h->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.histogram", where);
		return read_hist(rd, h, w, t->hist);
	}
	return 0;
}

static int read_info(struct rd *rd, const struct cdm_json *root, struct cdm_run_result *r)
{
	struct cdm_run_info *in = &r->info;
	const struct cdm_json *set, *tg, *sy, *v;
	char s[16];
	uint64_t u;

	if (str(rd, root, "result", "cdm_version", in->version, sizeof(in->version), 0) ||
	    str(rd, root, "result", "label", in->label, sizeof(in->label), 0) ||
	    str(rd, root, "result", "comment", in->comment, sizeof(in->comment), 1))
		return -EINVAL;
	v = mem(rd, root, "result", "interrupted_signal", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER) {
		unsigned int sig;

		if (get_uint(rd, root, "result", "interrupted_signal", 64, &sig))
			return -EINVAL;
		r->interrupted = (int)sig;
	}
	v = mem(rd, root, "result", "start_unix", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	if (!(v->num >= 0 && v->num < 1e13))
		return bad(rd, "start_unix: out of range");
	in->start = (time_t)v->num;

	set = mem(rd, root, "result", "settings", CDM_JSON_OBJECT, 0);
	if (!set)
		return -EINVAL;
	if (str(rd, set, "settings", "profile", in->profile, sizeof(in->profile), 0) ||
	    u64(rd, set, "settings", "size_bytes", &in->size) ||
	    get_uint(rd, set, "settings", "count", CDM_MAX_PASSES, &in->count) ||
	    get_uint(rd, set, "settings", "time_s", UINT32_MAX, &in->time) ||
	    get_uint(rd, set, "settings", "interval_s", UINT32_MAX, &in->interval) ||
	    get_uint(rd, set, "settings", "warmup_s", UINT32_MAX, &in->warmup) ||
	    str(rd, set, "settings", "engine", in->engine, sizeof(in->engine), 0) ||
	    boolean(rd, set, "settings", "direct", &in->direct) ||
	    str(rd, set, "settings", "data", s, sizeof(s), 0))
		return -EINVAL;
	in->zero_fill = !strcmp(s, "zero");
	v = cdm_json_get(set, "sync");
	in->dsync = v && v->type == CDM_JSON_TRUE;
	u = 0;
	if (opt_u64(rd, set, "settings", "fsync_every", &u))
		return -EINVAL;
	in->fsync_every = u > UINT32_MAX ? UINT32_MAX : (unsigned int)u;
	if (opt_u64(rd, set, "settings", "rate_iops", &in->rate_iops))
		return -EINVAL;
	if (str(rd, set, "settings", "aggregate", s, sizeof(s), 0))
		return -EINVAL;
	if (cdm_aggregate_parse(s, &r->aggregate) < 0)
		return bad(rd, "settings.aggregate: \"%s\"", s);
	v = mem(rd, set, "settings", "cv_threshold_pct", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	r->cv_threshold_pct = v->num;

	tg = mem(rd, root, "result", "target", CDM_JSON_OBJECT, 0);
	if (!tg)
		return -EINVAL;
	if (str(rd, tg, "target", "path", in->target, sizeof(in->target), 0) ||
	    str(rd, tg, "target", "mount_point", in->mount_point, sizeof(in->mount_point), 1) ||
	    str(rd, tg, "target", "fs_type", in->fs_type, sizeof(in->fs_type), 1) ||
	    str(rd, tg, "target", "fs_source", in->fs_source, sizeof(in->fs_source), 1) ||
	    str(rd, tg, "target", "device", in->dev_name, sizeof(in->dev_name), 1) ||
	    str(rd, tg, "target", "device_model", in->dev_model, sizeof(in->dev_model), 1) ||
	    str(rd, tg, "target", "scheduler", in->dev_scheduler, sizeof(in->dev_scheduler), 1) ||
	    u64(rd, tg, "target", "fs_total_bytes", &in->fs_total_bytes) ||
	    u64(rd, tg, "target", "fs_used_bytes", &in->fs_used_bytes) ||
	    u64(rd, tg, "target", "fs_avail_bytes", &in->fs_avail_bytes))
		return -EINVAL;
	v = cdm_json_get(tg, "rotational");
	in->dev_rotational = !v || v->type == CDM_JSON_NULL ? CDM_ROT_UNKNOWN :
			     v->type == CDM_JSON_TRUE ? CDM_ROT_YES : CDM_ROT_NO;

	sy = mem(rd, root, "result", "system", CDM_JSON_OBJECT, 0);
	if (!sy)
		return -EINVAL;
	if (str(rd, sy, "system", "os", in->os, sizeof(in->os), 1) ||
	    str(rd, sy, "system", "kernel", in->kernel, sizeof(in->kernel), 1) ||
	    str(rd, sy, "system", "machine", in->machine, sizeof(in->machine), 1) ||
	    str(rd, sy, "system", "cpu_model", in->cpu_model, sizeof(in->cpu_model), 1) ||
	    boolean(rd, sy, "system", "admin", &in->admin))
		return -EINVAL;
	u = 0;
	if (opt_u64(rd, sy, "system", "cpus_online", &u))
		return -EINVAL;
	in->cpus_online = u > UINT32_MAX ? 0 : (unsigned int)u;
	return 0;
}

int cdm_result_read(const char *text, size_t len, struct cdm_run_result **out,
		    char *err, size_t err_len)
{
	struct rd rd = { err, err_len };
	const struct cdm_json *tool, *sv, *tests;
	struct cdm_json_error je;
	struct cdm_json *root;
	struct cdm_run_result *r = NULL;
	int ret;

	*out = NULL;
	ret = cdm_json_parse(text, len, &root, &je);
	if (ret == -ENOMEM)
		return snprintf(err, err_len, "out of memory"), ret;
	if (ret) {
		if (je.truncated)
			snprintf(err, err_len, "truncated JSON: the text ends at byte %zu, inside a value (%s)",
				 je.offset, je.msg);
		else
			snprintf(err, err_len, "not JSON: line %u, column %u: %s", je.line, je.column,
				 je.msg);
		return ret;
	}
	tool = cdm_json_get(root, "tool");
	sv = cdm_json_get(root, "schema_version");
	if (root->type != CDM_JSON_OBJECT || !tool || tool->type != CDM_JSON_STRING ||
	    strcmp(tool->str, "cdm") || !sv || sv->type != CDM_JSON_NUMBER || !sv->is_uint) {
		snprintf(err, err_len, "not a cdm result (valid JSON, but not an object with \"tool\": \"cdm\" and a \"schema_version\")");
		ret = -EINVAL;
		goto out;
	}
	if (sv->u64 > CDM_JSON_SCHEMA_VERSION) {
		snprintf(err, err_len, "schema_version %" PRIu64 " is newer than this cdm reads (%d)",
			 sv->u64, CDM_JSON_SCHEMA_VERSION);
		ret = -EPROTONOSUPPORT;
		goto out;
	}
	if (cdm_json_get(root, "scale")) {
		snprintf(err, err_len, "already an aggregate of several runs: merge the runs' own results");
		ret = -EINVAL;
		goto out;
	}
	tests = mem(&rd, root, "result", "tests", CDM_JSON_ARRAY, 0);
	if (!tests) {
		ret = -EINVAL;
		goto out;
	}
	if (tests->n > 2u * CDM_MAX_TESTS) {
		ret = bad(&rd, "tests: %zu tests, more than cdm ever writes", tests->n);
		goto out;
	}
	r = cdm_result_alloc((unsigned int)tests->n);
	if (!r) {
		snprintf(err, err_len, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = read_info(&rd, root, r);
	for (unsigned int i = 0; !ret && i < r->ntests; i++)
		ret = read_test(&rd, &tests->items[i], i, &r->tests[i]);
out:
	cdm_json_free(root);
	if (ret) {
		cdm_result_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

int cdm_result_read_file(const char *path, struct cdm_run_result **out,
			 char *err, size_t err_len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	int ret;

	*out = NULL;
	if (!f)
		return ret = -errno, snprintf(err, err_len, "%s", strerror(-ret)), ret;
	for (;;) {
		if (len == cap) {
			if (cap >= CDM_JSON_MAX_BYTES) {
				free(buf);
				fclose(f);
				snprintf(err, err_len, "larger than %u MiB, not a cdm result",
					 CDM_JSON_MAX_BYTES >> 20);
				return -E2BIG;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return snprintf(err, err_len, "out of memory"), -ENOMEM;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return snprintf(err, err_len, "read error"), -EIO;
	}
	fclose(f);
	ret = cdm_result_read(buf ? buf : "", len, out, err, err_len);
	free(buf);
	return ret;
}
