/* SPDX-License-Identifier: MIT */
/*
 * result_get.c - the typed getters of cdm's JSON result reader
 * (src/format/result_rd.h): a member of a given type, each refusal named
 * "not a valid cdm result: <where>.<key>: <why>" in @err, -EINVAL.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "cdm/base/json.h"
#include "cdm/base/msec.h"
#include "cdm/model/pass.h"
#include "cdm/model/spec.h"
#include "result_rd.h"

/* "not a valid cdm result: <where>: <why>" in @err; returns -EINVAL */
int cdm_result_get_bad(struct cdm_err *err, const char *fmt, ...)
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
int cdm_result_get_not_object(struct cdm_err *err, const char *where, const struct cdm_json *v)
{
	return cdm_result_get_bad(err, "%s: expected object, found %s", where, cdm_json_type_name(v->type));
}

/* member @key of @obj with type @type (TRUE stands for either boolean) */
const struct cdm_json *cdm_result_get_mem(struct cdm_err *err, const struct cdm_json *obj, const char *where,
					  const char *key, enum cdm_json_type type, int null_ok)
{
	const struct cdm_json *v = cdm_json_get(obj, key);
	enum cdm_json_type t;

	if (!v) {
		cdm_result_get_bad(err, "%s: no \"%s\"", where, key);
		return NULL;
	}
	t = v->type == CDM_JSON_FALSE ? CDM_JSON_TRUE : v->type;
	if ((null_ok && t == CDM_JSON_NULL) || t == type)
		return v;
	cdm_result_get_bad(err, "%s.%s: expected %s, found %s", where, key, cdm_json_type_name(type),
			   cdm_json_type_name(v->type));
	return NULL;
}

int cdm_result_get_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
		       uint64_t *dst)
{
	const struct cdm_json *v = cdm_result_get_mem(err, obj, where, key, CDM_JSON_NUMBER, 0);

	if (!v)
		return -EINVAL;
	if (!v->is_uint)
		return cdm_result_get_bad(err, "%s.%s: expected a whole number >= 0", where, key);
	*dst = v->u64;
	return 0;
}

/* a maximum, null in schema 2 when taken over nothing (read as 0) */
int cdm_result_get_max_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			   const char *key, uint64_t *dst)
{
	const struct cdm_json *v = cdm_result_get_mem(err, obj, where, key, CDM_JSON_NUMBER, 1);

	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NULL) {
		*dst = 0;
		return 0;
	}
	return cdm_result_get_u64(err, obj, where, key, dst);
}

int cdm_result_get_uint(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
		unsigned int max, unsigned int *dst)
{
	uint64_t v = 0;

	if (cdm_result_get_u64(err, obj, where, key, &v))
		return -EINVAL;
	if (v > max)
		return cdm_result_get_bad(err, "%s.%s: %" PRIu64 " is above %u", where, key, v, max);
	*dst = (unsigned int)v;
	return 0;
}

/* a string into @dst; null gives "" when @null_ok */
int cdm_result_get_str(struct cdm_err *err, const struct cdm_json *obj, const char *where, const char *key,
		       char *dst, size_t dlen, int null_ok)
{
	const struct cdm_json *v = cdm_result_get_mem(err, obj, where, key, CDM_JSON_STRING, null_ok);

	if (!v)
		return -EINVAL;
	snprintf(dst, dlen, "%s", v->type == CDM_JSON_STRING ? v->str : "");
	return 0;
}

int cdm_result_get_boolean(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			   const char *key, int *dst)
{
	const struct cdm_json *v = cdm_result_get_mem(err, obj, where, key, CDM_JSON_TRUE, 0);

	if (!v)
		return -EINVAL;
	*dst = v->type == CDM_JSON_TRUE;
	return 0;
}

/* an optional whole number: absent or null leave *dst */
int cdm_result_get_opt_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			   const char *key, uint64_t *dst)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	return cdm_result_get_u64(err, obj, where, key, dst);
}

/*
 * A figure @key of @obj: a number from 0 to below @max; null (read as NaN,
 * no figure) when @null_ok.  The one rule for the file's figures: a
 * report's, its --end-fsync note's, a steady window's, a series' finds.
 */
int cdm_result_get_figure(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			  const char *key, int null_ok, double max, double *dst)
{
	const struct cdm_json *v = cdm_result_get_mem(err, obj, where, key, CDM_JSON_NUMBER, null_ok);

	if (!v)
		return -EINVAL;
	if (v->type != CDM_JSON_NUMBER) {
		*dst = cdm_pass_no_figure();
		return 0;
	}
	if (!(v->num >= 0.0 && v->num < max))
		return cdm_result_get_bad(err, "%s.%s: out of range", where, key);
	*dst = v->num + 0.0;    /* -0 as 0: a report prints no "-0.000" */
	return 0;
}

/*
 * a time in seconds, 5 or 0.5 (at most 3 decimals: whole ms, as the
 * writer's cdm_msec_format() prints them), into ms; null (unknown) as 0
 */
int cdm_result_get_secs(struct cdm_err *err, const struct cdm_json *obj, const char *where,
			const char *key, unsigned int *ms)
{
	const struct cdm_json *v = cdm_result_get_mem(err, obj, where, key, CDM_JSON_NUMBER, 1);
	char t[CDM_MSEC_FORMAT_MAX];

	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NULL) {
		*ms = 0;
		return 0;
	}
	if (!v->is_milli)
		return cdm_result_get_bad(err, "%s.%s: expected seconds >= 0 with at most 3 decimals", where, key);
	if (v->milli > CDM_TIME_MAX_MS)
		return cdm_result_get_bad(err, "%s.%s: %s is above %u", where, key,
					  cdm_msec_format(v->milli, t, sizeof(t)), CDM_TIME_MAX);
	*ms = (unsigned int)v->milli;
	return 0;
}
