/* SPDX-License-Identifier: MIT */
/*
 * result_rd.h - private interface of the JSON result reader
 * (include/cdm/format/result_read.h) and writer, used only inside format/:
 *
 *	result_read.c		the document and its run info; its settings,
 *				which a sweep's JSON shares (sweep_json.c)
 *	result_write.c		the writer; its settings, shared the same way
 *	result_get.c		the typed getters (cdm_result_get_*: each names
 *				what it refuses, "<where>.<key>: why", in @err,
 *				and returns -EINVAL), which the others use
 *	result_read_test.c	one test: passes, histogram, reported figures,
 *				steady state, verify
 *	result_read_series.c	a test's --log-interval series
 *	result_read_scale.c	an aggregate's "scale": its runs
 */
#ifndef CDM_FORMAT_RESULT_RD_H
#define CDM_FORMAT_RESULT_RD_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/base/err.h"
#include "cdm/base/json.h"
#include "cdm/base/jsonw.h"
#include "cdm/model/result.h"

/* ---- result_read.c, result_write.c: "settings", row by row (model/settings.h) ---- */

/*
 * cdm_result_read_settings - every row of the settings table from the
 * object @set into @r (its info), each checked as its type says; with
 * @absent_ok a key not there keeps @r's value (a sweep's JSON of an
 * earlier cdm, which wrote six of them).  Returns 0 or -EINVAL, @err set.
 */
int cdm_result_read_settings(struct cdm_err *err, const struct cdm_json *set,
			     struct cdm_run_result *r, int absent_ok);

/*
 * cdm_result_write_settings - every row of the settings table of @r as
 * members of the object open in @w, null where it has no value
 * (cdm_settings_known())
 */
void cdm_result_write_settings(struct cdm_jsonw *w, const struct cdm_run_result *r);

/* ---- result_get.c ---- */

/* "not a valid cdm result: <where>: <why>" in @err; returns -EINVAL */
__attribute__((format(printf, 2, 3)))
int cdm_result_get_bad(struct cdm_err *err, const char *fmt, ...);

/* "<where>: expected object, found <type of v>"; returns -EINVAL */
int cdm_result_get_not_object(struct cdm_err *err, const char *where, const struct cdm_json *v);

/* member @key of @obj with type @type (TRUE stands for either boolean), null
 * too when @null_ok; NULL (@err set) when absent or of another type */
const struct cdm_json *cdm_result_get_mem(struct cdm_err *err, const struct cdm_json *obj, const char *where,
					  const char *key, enum cdm_json_type type, int null_ok);

/* a whole number >= 0 into *@dst: 0 or -EINVAL */
int cdm_result_get_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
		       uint64_t *dst);

/* a maximum, null in schema 2 when taken over nothing (read as 0) */
int cdm_result_get_max_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			   const char *key, uint64_t *dst);

/* a whole number up to @max into *@dst: 0 or -EINVAL */
int cdm_result_get_uint(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
		unsigned int max, unsigned int *dst);

/* a string into @dst (@dlen bytes); null gives "" when @null_ok */
int cdm_result_get_str(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
		       char *dst, size_t dlen, int null_ok);

/* true or false into *@dst (1, 0): 0 or -EINVAL */
int cdm_result_get_boolean(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			   const char *key, int *dst);

/* an optional whole number: absent or null leave *@dst */
int cdm_result_get_opt_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			   const char *key, uint64_t *dst);

/* a figure from 0 to below @max (null, NaN, when @null_ok): 0 or -EINVAL */
int cdm_result_get_figure(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			  const char *key, int null_ok, double max, double *dst);

/*
 * a time in seconds, 5 or 0.5 (whole ms, at most CDM_TIME_MAX s), into
 * *@ms; null (unknown) as 0: 0 or -EINVAL
 */
int cdm_result_get_secs(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			const char *key, unsigned int *ms);

/* ---- result_read_test.c ---- */

/* tests[@idx] of a run of @in, into @t (zeroed, its hist allocated): 0 or -EINVAL */
int cdm_result_read_test(struct cdm_err *err, const struct cdm_json *tj, unsigned int idx,
			 const struct cdm_run_info *in, unsigned int threads_max,
			 struct cdm_test_result *t);

/* ---- result_read_series.c ---- */

/* the "series" of the test @tj, if any, into @t (its passes read): 0, -EINVAL, -ENOMEM */
int cdm_result_read_series(struct cdm_err *err, const struct cdm_json *tj, const char *where,
			   struct cdm_test_result *t);

/* ---- result_read_scale.c ---- */

/*
 * the "scale" of @root, if any, into a new r->scale (its runs' names,
 * labels, targets, starts and passes; @r's tests read): 0, -EINVAL,
 * -ENOMEM.  r->scale may be set on failure too (cdm_result_free() frees it).
 */
int cdm_result_read_scale(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_result *r);

#endif /* CDM_FORMAT_RESULT_RD_H */
