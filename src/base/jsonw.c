/* SPDX-License-Identifier: MIT */
/*
 * jsonw.c - the one JSON writer (include/cdm/base/jsonw.h): containers,
 * their commas and indentation, escaped strings, integers, doubles by one
 * rule, booleans and null, streamed to a FILE with its first error kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/jsonw.h"
#include "cdm/base/utf8.h"

void cdm_jsonw_init(struct cdm_jsonw *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

/* the first error only: what follows it is its consequence */
static void fail(struct cdm_jsonw *w, int err)
{
	if (!w->err)
		w->err = err;
}

static void fail_errno(struct cdm_jsonw *w)
{
	fail(w, errno ? -errno : -EIO);
}

static void put(struct cdm_jsonw *w, const char *s)
{
	if (fputs(s, w->out) == EOF)
		fail_errno(w);
}

static void putn(struct cdm_jsonw *w, const char *s, size_t n)
{
	if (fwrite(s, 1, n, w->out) != n)
		fail_errno(w);
}

static void indent(struct cdm_jsonw *w, unsigned int depth)
{
	static const char sp[] = "                                ";

	put(w, "\n");
	for (depth *= 2; depth > sizeof(sp) - 1; depth -= sizeof(sp) - 1)
		putn(w, sp, sizeof(sp) - 1);
	putn(w, sp, depth);
}

/* @s escaped, with its quotes (jsonw.h, cdm_jsonw_strn()) */
static void string(struct cdm_jsonw *w, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strnlen(s, max), i = 0, l;
	char esc[8];

	put(w, "\"");
	while (i < n) {
		unsigned char c = p[i];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			putn(w, esc, 2);
			l = 1;
		} else if (c == '\n' || c == '\t') {
			put(w, c == '\n' ? "\\n" : "\\t");
			l = 1;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			put(w, esc);
			l = 1;
		} else if ((l = cdm_utf8_decode(p + i, n - i, NULL)) != 0) {
			putn(w, s + i, l);
		} else {
			put(w, "\\ufffd");
			l = 1;
		}
		i += l;
	}
	put(w, "\"");
}

/*
 * What comes before a value: the comma after the one before it, the line
 * break and indentation (in a compact container the space, or the break
 * cdm_jsonw_break() asked for), and "key": inside an object.
 */
static void item(struct cdm_jsonw *w, const char *key)
{
	if (w->depth) {
		struct cdm_jsonw_level *lv = &w->lv[w->depth - 1];

		if (lv->n)
			put(w, ",");
		if (!lv->compact || w->brk)
			indent(w, w->depth);
		else if (lv->n || !lv->array)
			put(w, " ");
		lv->n++;
	}
	w->brk = 0;
	if (key) {
		string(w, key, SIZE_MAX);
		put(w, ": ");
	}
}

static void begin(struct cdm_jsonw *w, const char *key, unsigned int flags, int array)
{
	item(w, key);
	put(w, array ? "[" : "{");
	if (w->depth >= CDM_JSONW_DEPTH) {
		fail(w, -EINVAL);
		return;
	}
	w->lv[w->depth].array = (unsigned char)array;
	w->lv[w->depth].compact = (flags & CDM_JSONW_COMPACT) != 0;
	w->lv[w->depth].n = 0;
	w->depth++;
}

void cdm_jsonw_object(struct cdm_jsonw *w, const char *key, unsigned int flags)
{
	begin(w, key, flags, 0);
}

void cdm_jsonw_array(struct cdm_jsonw *w, const char *key, unsigned int flags)
{
	begin(w, key, flags, 1);
}

void cdm_jsonw_end(struct cdm_jsonw *w)
{
	const char *close;

	if (!w->depth) {
		fail(w, -EINVAL);
		return;
	}
	w->depth--;
	close = w->lv[w->depth].array ? "]" : "}";
	if (w->lv[w->depth].n && !w->lv[w->depth].compact)
		indent(w, w->depth);
	else if (w->lv[w->depth].n && !w->lv[w->depth].array)
		put(w, " ");
	put(w, close);
	w->brk = 0;
	if (!w->depth)
		put(w, "\n");
}

void cdm_jsonw_break(struct cdm_jsonw *w)
{
	w->brk = 1;
}

void cdm_jsonw_strn(struct cdm_jsonw *w, const char *key, const char *s, size_t max)
{
	item(w, key);
	string(w, s, max);
}

void cdm_jsonw_str(struct cdm_jsonw *w, const char *key, const char *s)
{
	cdm_jsonw_strn(w, key, s, SIZE_MAX);
}

void cdm_jsonw_text(struct cdm_jsonw *w, const char *key, const char *s, size_t max)
{
	if (max && s[0])
		cdm_jsonw_strn(w, key, s, max);
	else
		cdm_jsonw_null(w, key);
}

void cdm_jsonw_raw(struct cdm_jsonw *w, const char *key, const char *json)
{
	item(w, key);
	put(w, json);
}

void cdm_jsonw_u64(struct cdm_jsonw *w, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	cdm_jsonw_raw(w, key, buf);
}

void cdm_jsonw_i64(struct cdm_jsonw *w, const char *key, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	cdm_jsonw_raw(w, key, buf);
}

void cdm_jsonw_u64_if(struct cdm_jsonw *w, const char *key, uint64_t v, int known)
{
	if (known)
		cdm_jsonw_u64(w, key, v);
	else
		cdm_jsonw_null(w, key);
}

void cdm_jsonw_i64_if(struct cdm_jsonw *w, const char *key, int64_t v, int known)
{
	if (known)
		cdm_jsonw_i64(w, key, v);
	else
		cdm_jsonw_null(w, key);
}

void cdm_jsonw_num(struct cdm_jsonw *w, const char *key, double v)
{
	char buf[CDM_JSONW_NUM_MAX];

	cdm_jsonw_raw(w, key, cdm_jsonw_fmt_num(buf, sizeof(buf), v));
}

void cdm_jsonw_bool(struct cdm_jsonw *w, const char *key, int v)
{
	cdm_jsonw_raw(w, key, v ? "true" : "false");
}

void cdm_jsonw_null(struct cdm_jsonw *w, const char *key)
{
	cdm_jsonw_raw(w, key, "null");
}

int cdm_jsonw_finish(struct cdm_jsonw *w)
{
	errno = 0;
	if (fflush(w->out) == EOF)
		fail_errno(w);
	if (ferror(w->out))
		fail(w, -EIO);
	if (w->depth)
		fail(w, -EINVAL);
	return w->err;
}

char *cdm_jsonw_fmt_num(char *buf, size_t len, double v)
{
	int prec;

	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return buf;
	}
	if (v == 0.0) {
		/* -0.0 prints as "-0": not wrong, but surprising */
		snprintf(buf, len, "0");
		return buf;
	}
	/* plain decimals where a reader expects them: 1000, not 1e+03 */
	if ((v > 0 ? v : -v) >= 1e-4 && (v > 0 ? v : -v) < 1e15) {
		for (prec = 0; prec <= 20; prec++) {
			snprintf(buf, len, "%.*f", prec, v);
			if (strtod(buf, NULL) == v)
				return buf;
		}
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}
