/* SPDX-License-Identifier: MIT */
/*
 * sweep_json.c - a sweep's JSON (include/cdm/format/sweep_json.h;
 * docs/output-formats.md, "cdm sweep JSON"): the writer of `cdm sweep
 * --save`, and its reader, so that `cdm report` prints a saved sweep as
 * `cdm sweep` printed it (report/sweep_table.c renders the curves).  The
 * reader takes the points' figures as they were saved (the mean latency
 * and the p99 have no counts in the file to be derived from) and checks
 * each against the counts it has.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/json.h"
#include "cdm/base/jsonw.h"
#include "cdm/base/text.h"
#include "cdm/base/version.h"
#include "cdm/format/fmt.h"
#include "cdm/format/result_read.h"
#include "cdm/format/sweep_json.h"
#include "result_rd.h"

/* a point of a sweep's curve: its load, its counts, its figures or why it has none */
static void json_point(struct cdm_jsonw *w, const struct cdm_sweep_point *p)
{
	cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(w, "threads", p->threads);
	cdm_jsonw_u64(w, "queue_depth", p->qd);
	cdm_jsonw_bool(w, "measured", p->ok);
	cdm_jsonw_u64(w, "bytes", p->bytes);
	cdm_jsonw_u64(w, "ios", p->ios);
	cdm_jsonw_num(w, "duration_s", p->seconds);
	/* a point that measured nothing: null figures (NaN prints as null) and why */
	cdm_jsonw_num(w, "mb_s", p->ok ? p->mb_s : NAN);
	cdm_jsonw_num(w, "iops", p->ok ? p->iops : NAN);
	cdm_jsonw_num(w, "lat_mean_us", p->ok ? p->lat_us : NAN);
	if (!p->ok)
		cdm_jsonw_strn(w, "reason", cdm_sweep_point_why(p), 64);
	cdm_jsonw_num(w, "lat_p99_us", p->ok && p->has_p99 ? p->p99_us : NAN);
	cdm_jsonw_end(w);
}

/* a curve: its test, its points, its knee and flat ceiling (null when none) */
static void json_curve(struct cdm_jsonw *w, const struct cdm_sweep_curve *cv)
{
	cdm_jsonw_object(w, NULL, 0);
	cdm_jsonw_strn(w, "test", cv->test, sizeof(cv->test));
	cdm_jsonw_str(w, "direction", cdm_result_dir_key(cv->dir));
	cdm_jsonw_array(w, "points", 0);
	for (unsigned int k = 0; k < cv->npts; k++)
		json_point(w, &cv->pts[k]);
	cdm_jsonw_end(w);
	if (cv->knee >= 0) {
		cdm_jsonw_object(w, "knee", CDM_JSONW_COMPACT);
		cdm_jsonw_i64(w, "index", cv->knee);
		cdm_jsonw_u64(w, "threads", cv->pts[cv->knee].threads);
		cdm_jsonw_u64(w, "queue_depth", cv->pts[cv->knee].qd);
		cdm_jsonw_end(w);
	} else {
		cdm_jsonw_null(w, "knee");
	}
	if (cv->ceiling.found) {
		cdm_jsonw_object(w, "ceiling", CDM_JSONW_COMPACT);
		cdm_jsonw_u64(w, "index", cv->ceiling.from);
		cdm_jsonw_num(w, "iops", cv->ceiling.level);
		cdm_jsonw_num(w, "lat_ratio", cv->ceiling.lat_ratio);
		cdm_jsonw_end(w);
	} else {
		cdm_jsonw_null(w, "ceiling");
	}
	cdm_jsonw_end(w);
}

int cdm_sweep_json_write(FILE *out, const struct cdm_sweep *sw)
{
	const struct cdm_run_result *r = sw->res;
	const struct cdm_run_info *in = &r->info;
	struct cdm_jsonw w;

	cdm_jsonw_init(&w, out);
	cdm_jsonw_object(&w, NULL, 0);
	cdm_jsonw_i64(&w, "schema_version", CDM_JSON_SCHEMA_VERSION);
	cdm_jsonw_str(&w, "tool", "cdm");
	cdm_jsonw_str(&w, "kind", "sweep");
	cdm_jsonw_str(&w, "cdm_version", cdm_version());
	cdm_jsonw_bool(&w, "interrupted", r->interrupted);
	cdm_jsonw_object(&w, "target", CDM_JSONW_COMPACT);
	cdm_jsonw_strn(&w, "path", in->target, sizeof(in->target));
	cdm_jsonw_strn(&w, "fs_type", in->fs_type, sizeof(in->fs_type));
	cdm_jsonw_strn(&w, "device", in->dev_name, sizeof(in->dev_name));
	cdm_jsonw_end(&w);
	/* what was varied, every row of the run's settings table, the chart's metric */
	cdm_jsonw_object(&w, "settings", 0);
	cdm_jsonw_str(&w, "vary", sw->vary == CDM_SWEEP_THREADS ? "threads" :
		      sw->vary == CDM_SWEEP_QD ? "qd" : "threads,qd");
	cdm_result_write_settings(&w, r);
	cdm_jsonw_str(&w, "metric", sw->plot_mb_s ? "mb_s" : "iops");
	cdm_jsonw_end(&w);
	cdm_jsonw_array(&w, "curves", 0);
	for (unsigned int c = 0; c < sw->ncurves; c++)
		json_curve(&w, &sw->curves[c]);
	cdm_jsonw_end(&w);
	cdm_jsonw_end(&w);
	return cdm_jsonw_finish(&w) ? -EIO : 0;
}

/* a point's "reason" back to the state that words it (cdm_sweep_point_why()) */
static int point_state(struct cdm_err *err, const char *where, const char *why,
		       enum cdm_pass_state *st)
{
	static const enum cdm_pass_state states[] = {
		CDM_PASS_NO_PASS, CDM_PASS_NO_IO, CDM_PASS_NO_TIME,
	};

	for (unsigned int i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		struct cdm_sweep_point p = { .state = states[i] };

		if (!strcmp(why, cdm_sweep_point_why(&p))) {
			*st = states[i];
			return 0;
		}
	}
	return cdm_result_get_bad(err, "%s.reason: \"%s\" is no reason cdm gives", where, why);
}

/* the figures of a point that measured something, or why it has none */
static int point_figures(struct cdm_err *err, const struct cdm_json *pj, const char *where,
			 struct cdm_sweep_point *p)
{
	char why[64];

	if (!p->ok) {
		if (cdm_result_get_str(err, pj, where, "reason", why, sizeof(why), 0))
			return -EINVAL;
		return point_state(err, where, why, &p->state);
	}
	if (cdm_json_get(pj, "reason"))
		return cdm_result_get_bad(err, "%s.reason: a point that measured something has none", where);
	p->state = CDM_PASS_MEASURED;
	if (cdm_result_get_figure(err, pj, where, "mb_s", 0, 1e12, &p->mb_s) ||
	    cdm_result_get_figure(err, pj, where, "iops", 0, 1e12, &p->iops) ||
	    cdm_result_get_figure(err, pj, where, "lat_mean_us", 0, 1e13, &p->lat_us) ||
	    cdm_result_get_figure(err, pj, where, "lat_p99_us", 1, 1e13, &p->p99_us))
		return -EINVAL;
	p->has_p99 = !isnan(p->p99_us);
	if (!p->has_p99)
		p->p99_us = 0;
	if (!(p->ios && p->seconds > 0))
		return cdm_result_get_bad(err, "%s: measured, but no I/O completed in no time", where);
	return 0;
}

static int read_point(struct cdm_err *err, const struct cdm_json *pj, const char *where,
		      struct cdm_sweep_point *p)
{
	const struct cdm_json *v;

	if (pj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, pj);
	if (cdm_result_get_uint(err, pj, where, "threads", CDM_THREADS_MAX, &p->threads) ||
	    cdm_result_get_uint(err, pj, where, "queue_depth", CDM_QD_MAX, &p->qd) ||
	    cdm_result_get_boolean(err, pj, where, "measured", &p->ok) ||
	    cdm_result_get_u64(err, pj, where, "bytes", &p->bytes) ||
	    cdm_result_get_u64(err, pj, where, "ios", &p->ios))
		return -EINVAL;
	if (p->threads < 1 || p->qd < 1)
		return cdm_result_get_bad(err, "%s: threads and queue_depth must be 1 or more", where);
	v = cdm_result_get_mem(err, pj, where, "duration_s", CDM_JSON_NUMBER, 0);
	if (!v)
		return -EINVAL;
	if (!(v->num >= 0.0 && v->num < 1e7))
		return cdm_result_get_bad(err, "%s.duration_s: out of range", where);
	p->seconds = v->num;
	return point_figures(err, pj, where, p);
}

/* "knee" and "ceiling" of curve @cv (its points read): null, or a point's index */
static int read_finds(struct cdm_err *err, const struct cdm_json *cj, const char *where,
		      struct cdm_sweep_curve *cv)
{
	const struct cdm_json *k = cdm_result_get_mem(err, cj, where, "knee", CDM_JSON_OBJECT, 1);
	const struct cdm_json *c = cdm_result_get_mem(err, cj, where, "ceiling", CDM_JSON_OBJECT, 1);
	char w[80];
	unsigned int i, m;

	if (!k || !c)
		return -EINVAL;
	cv->knee = -1;
	if (k->type == CDM_JSON_OBJECT) {
		snprintf(w, sizeof(w), "%s.knee", where);
		if (cdm_result_get_uint(err, k, w, "index", CDM_SWEEP_MAX_VALUES, &i))
			return -EINVAL;
		if (i >= cv->npts || !cv->pts[i].ok)
			return cdm_result_get_bad(err, "%s.index: %u is no measured point", w, i);
		cv->knee = (int)i;
	}
	if (c->type != CDM_JSON_OBJECT)
		return 0;
	snprintf(w, sizeof(w), "%s.ceiling", where);
	if (cdm_result_get_uint(err, c, w, "index", CDM_SWEEP_MAX_VALUES, &cv->ceiling.from) ||
	    cdm_result_get_figure(err, c, w, "iops", 0, 1e12, &cv->ceiling.level) ||
	    cdm_result_get_figure(err, c, w, "lat_ratio", 0, 1e12, &cv->ceiling.lat_ratio))
		return -EINVAL;
	if (cv->ceiling.from >= cv->npts || !cv->pts[cv->ceiling.from].ok)
		return cdm_result_get_bad(err, "%s.index: %u is no measured point", w, cv->ceiling.from);
	cv->ceiling.found = 1;
	/* its MB/s as the sweep found it: the mean of the measured points on it */
	cv->ceiling.iops = cv->ceiling.level;
	cv->ceiling.mb_s = 0;
	for (i = cv->ceiling.from, m = 0; i < cv->npts; i++) {
		if (!cv->pts[i].ok)
			continue;
		cv->ceiling.mb_s += cv->pts[i].mb_s;
		m++;
	}
	cv->ceiling.mb_s /= m;
	return 0;
}

static int read_curve(struct cdm_err *err, const struct cdm_json *cj, unsigned int idx,
		      struct cdm_sweep_curve *cv)
{
	const struct cdm_json *pts;
	char where[32], w[64], dir[16];

	snprintf(where, sizeof(where), "curves[%u]", idx);
	if (cj->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, where, cj);
	if (cdm_result_get_str(err, cj, where, "test", cv->test, sizeof(cv->test), 0) ||
	    cdm_result_get_str(err, cj, where, "direction", dir, sizeof(dir), 0))
		return -EINVAL;
	cdm_text_one_line(cv->test);
	if (!strcmp(dir, "read"))
		cv->dir = CDM_DIR_READ;
	else if (!strcmp(dir, "write"))
		cv->dir = CDM_DIR_WRITE;
	else
		return cdm_result_get_bad(err, "%s.direction: expected \"read\" or \"write\"", where);
	pts = cdm_result_get_mem(err, cj, where, "points", CDM_JSON_ARRAY, 0);
	if (!pts)
		return -EINVAL;
	if (pts->n < 1 || pts->n > CDM_SWEEP_MAX_VALUES)
		return cdm_result_get_bad(err, "%s.points: %zu points, not 1..%d", where, pts->n,
					  CDM_SWEEP_MAX_VALUES);
	cv->npts = (unsigned int)pts->n;
	for (unsigned int k = 0; k < cv->npts; k++) {
		snprintf(w, sizeof(w), "%s.points[%u]", where, k);
		if (read_point(err, &pts->items[k], w, &cv->pts[k]))
			return -EINVAL;
		/* the block size, for the unit of its findings: a point's bytes per I/O */
		if (!cv->block && cv->pts[k].ios)
			cv->block = cv->pts[k].bytes / cv->pts[k].ios;
	}
	return read_finds(err, cj, where, cv);
}

/* the settings every sweep's JSON has had; the other rows came later */
static const char *const sweep_settings_first[] = {
	"size_bytes", "count", "time_s", "warmup_s", "engine", "direct",
};

/* "target" and "settings": the run's info, as the renderers print it */
static int read_info(struct cdm_err *err, const struct cdm_json *root, struct cdm_sweep *sw,
		     struct cdm_run_result *r)
{
	const struct cdm_json *tg = cdm_result_get_mem(err, root, "sweep", "target", CDM_JSON_OBJECT, 0);
	const struct cdm_json *set = cdm_result_get_mem(err, root, "sweep", "settings", CDM_JSON_OBJECT, 0);
	struct cdm_run_info *in = &r->info;
	char vary[16], metric[8] = "iops";

	if (!tg || !set ||
	    cdm_result_get_str(err, tg, "target", "path", in->target, sizeof(in->target), 0) ||
	    cdm_result_get_str(err, tg, "target", "fs_type", in->fs_type, sizeof(in->fs_type), 0) ||
	    cdm_result_get_str(err, tg, "target", "device", in->dev_name, sizeof(in->dev_name), 0) ||
	    cdm_result_get_str(err, set, "settings", "vary", vary, sizeof(vary), 0))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(sweep_settings_first) / sizeof(sweep_settings_first[0]); i++) {
		const struct cdm_json *v = cdm_json_get(set, sweep_settings_first[i]);

		/* a sweep measured these: never unknown */
		if (!v || v->type == CDM_JSON_NULL)
			return cdm_result_get_bad(err, "settings.%s: %s", sweep_settings_first[i],
						  v ? "null, but a sweep states it" : "missing");
	}
	if (cdm_result_read_settings(err, set, r, 1))
		return -EINVAL;
	sw->vary = !strcmp(vary, "threads") ? CDM_SWEEP_THREADS : !strcmp(vary, "qd") ? CDM_SWEEP_QD :
		   !strcmp(vary, "threads,qd") ? CDM_SWEEP_THREADS | CDM_SWEEP_QD : 0;
	if (!sw->vary)
		return cdm_result_get_bad(err, "settings.vary: expected \"threads\", \"qd\" or \"threads,qd\"");
	if (in->count < 1 || in->time_ms < CDM_TIME_MIN_MS)
		return cdm_result_get_bad(err, "settings: count and time_s must be above 0");
	/* absent in files before it: the chart's default, IOPS */
	if (cdm_json_get(set, "metric") &&
	    cdm_result_get_str(err, set, "settings", "metric", metric, sizeof(metric), 0))
		return -EINVAL;
	if (strcmp(metric, "iops") && strcmp(metric, "mb_s"))
		return cdm_result_get_bad(err, "settings.metric: expected \"iops\" or \"mb_s\"");
	sw->plot_mb_s = !strcmp(metric, "mb_s");
	cdm_result_info_one_line(in);
	return 0;
}

/* is @root a sweep's JSON, of a schema this cdm reads? 1, 0 (not a sweep), or -errno */
static int check_kind(struct cdm_err *err, const struct cdm_json *root)
{
	const struct cdm_json *kind = cdm_json_get(root, "kind");
	const struct cdm_json *tool = cdm_json_get(root, "tool");
	const struct cdm_json *sv = cdm_json_get(root, "schema_version");

	if (root->type != CDM_JSON_OBJECT || !kind || kind->type != CDM_JSON_STRING ||
	    strcmp(kind->str, "sweep") || !tool || tool->type != CDM_JSON_STRING ||
	    strcmp(tool->str, "cdm") || !sv)
		return 0;
	if (sv->type != CDM_JSON_NUMBER || !sv->is_uint || sv->u64 < 1)
		return cdm_result_get_bad(err, "schema_version: expected a whole number >= 1");
	if (sv->u64 > CDM_JSON_SCHEMA_VERSION)
		return cdm_err_set(err, -EPROTONOSUPPORT, "schema_version %" PRIu64 " is newer than this cdm reads (%d)",
				   sv->u64, CDM_JSON_SCHEMA_VERSION);
	return 1;
}

/* the sweep of @root (check_kind() said it is one) into @sw and @r */
static int read_sweep(struct cdm_err *err, const struct cdm_json *root, struct cdm_sweep *sw,
		      struct cdm_run_result *r)
{
	const struct cdm_json *curves;
	int intr;

	if (cdm_result_get_boolean(err, root, "sweep", "interrupted", &intr) ||
	    read_info(err, root, sw, r))
		return -EINVAL;
	/* the file says only whether a signal stopped it, not which */
	r->interrupted = intr;
	curves = cdm_result_get_mem(err, root, "sweep", "curves", CDM_JSON_ARRAY, 0);
	if (!curves)
		return -EINVAL;
	if (curves->n > CDM_SWEEP_MAX_CURVES)
		return cdm_result_get_bad(err, "curves: %zu curves, more than %d", curves->n, CDM_SWEEP_MAX_CURVES);
	sw->ncurves = (unsigned int)curves->n;
	for (unsigned int c = 0; c < sw->ncurves; c++)
		if (read_curve(err, &curves->items[c], c, &sw->curves[c]))
			return -EINVAL;
	return 0;
}

int cdm_sweep_json_read(const char *text, size_t len, struct cdm_sweep **out, struct cdm_err *err)
{
	struct cdm_run_result *r = NULL;
	struct cdm_sweep *sw = NULL;
	struct cdm_json *root;
	int ret;

	*out = NULL;
	/* not JSON: not a sweep; the result reader says what it is instead */
	if (cdm_json_parse(text, len, &root, NULL))
		return -ENOMSG;
	ret = check_kind(err, root);
	if (ret <= 0) {
		cdm_json_free(root);
		return ret ? ret : -ENOMSG;
	}
	sw = calloc(1, sizeof(*sw));
	r = cdm_result_alloc(0);
	if (sw)
		sw->res = r;    /* the sweep's own (cdm_sweep_json_free()) */
	else
		cdm_result_free(r);
	if (!sw || !r)
		ret = cdm_err_set(err, -ENOMEM, "out of memory");
	else
		ret = read_sweep(err, root, sw, r);
	cdm_json_free(root);
	if (ret) {
		cdm_sweep_json_free(sw);
		return ret;
	}
	*out = sw;
	return 0;
}

void cdm_sweep_json_free(struct cdm_sweep *sw)
{
	if (!sw)
		return;
	cdm_result_free((struct cdm_run_result *)sw->res);
	free(sw);
}
