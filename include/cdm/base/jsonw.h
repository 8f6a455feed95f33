/* SPDX-License-Identifier: MIT */
/*
 * jsonw.h - the one JSON writer: every JSON document cdm writes (a
 * result, --format json and --save; an aggregate's "scale"; the time
 * series; a sweep's --save) is written through it, streaming to a FILE.
 *
 * The writer places the commas, the line breaks and the indentation
 * itself, in the layout cdm's JSON has always had (docs/output-formats.md):
 * two spaces per level, one member or item per line, and a container
 * opened with CDM_JSONW_COMPACT on one line, `{ "a": 1, "b": null }` or
 * `[1, 2]`; an empty container is `{}` or `[]`; the document ends with a
 * newline.
 *
 * Values: strings escaped by one rule (cdm_jsonw_strn()), integers as
 * they are, doubles by one rule (cdm_jsonw_fmt_num()), booleans and null:
 * a figure not measured is null, never 0.
 *
 * Errors: the first write error is remembered (every call after it still
 * returns, writing what it can) and cdm_jsonw_finish() returns it as a
 * negative errno.  Misuse (a container not ended, more than
 * CDM_JSONW_DEPTH levels, an end with nothing open) is -EINVAL there too.
 */
#ifndef CDM_BASE_JSONW_H
#define CDM_BASE_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* the deepest nesting the writer follows (cdm's result goes to 8) */
#define CDM_JSONW_DEPTH 16

/* cdm_jsonw_object()'s and cdm_jsonw_array()'s flags: the container on one line */
#define CDM_JSONW_COMPACT 1u

/* enough for any text of cdm_jsonw_fmt_num() */
#define CDM_JSONW_NUM_MAX 40

/* a writer: set up by cdm_jsonw_init(), its fields private */
struct cdm_jsonw {
	FILE *out;
	int err;                /* the first error, -errno; 0 */
	unsigned int depth;     /* containers open */
	int brk;                /* the next member of a compact container starts a line */
	struct cdm_jsonw_level {
		unsigned char array, compact;
		unsigned int n;         /* members or items written so far */
	} lv[CDM_JSONW_DEPTH];
};

/* cdm_jsonw_init - a writer of one document (or of one value) to @out */
void cdm_jsonw_init(struct cdm_jsonw *w, FILE *out);

/*
 * cdm_jsonw_finish - flush @w's stream; returns 0, or the first error:
 * -errno of the write that failed (-ENOSPC on a full disk; -EIO when the
 * stream's error has no errno), -EINVAL for a document not closed or a
 * misuse.  The stream stays open (the caller's).
 */
int cdm_jsonw_finish(struct cdm_jsonw *w);

/*
 * Every value below is a member of the object open in @w when @key is
 * not NULL ("key": value), an item of the array open (or the document's
 * one value) when it is NULL.  @key is written escaped like a string.
 */

/* cdm_jsonw_object, cdm_jsonw_array - open a container; @flags: CDM_JSONW_COMPACT or 0 */
void cdm_jsonw_object(struct cdm_jsonw *w, const char *key, unsigned int flags);
void cdm_jsonw_array(struct cdm_jsonw *w, const char *key, unsigned int flags);

/* cdm_jsonw_end - close the container opened last */
void cdm_jsonw_end(struct cdm_jsonw *w);

/*
 * cdm_jsonw_break - in a compact container, start the next member on a
 * line of its own, indented as a member of a multi-line one (a long
 * compact object that wraps once)
 */
void cdm_jsonw_break(struct cdm_jsonw *w);

/*
 * cdm_jsonw_strn - @s (at most @max bytes, stopping at a NUL) as a JSON
 * string with its quotes: '"' and '\\' escaped, \n and \t as such, every
 * other control character (C0 and DEL) as \u00XX, well-formed UTF-8 as it
 * is (cdm_utf8_decode(), base/utf8.h), each byte outside it as \ufffd
 * (RFC 8259, RFC 3629): the output is always valid JSON.
 */
void cdm_jsonw_strn(struct cdm_jsonw *w, const char *key, const char *s, size_t max);

/* cdm_jsonw_str - cdm_jsonw_strn() of a NUL-terminated @s */
void cdm_jsonw_str(struct cdm_jsonw *w, const char *key, const char *s);

/* cdm_jsonw_text - cdm_jsonw_strn(), but null when @s is "" (a text not known) */
void cdm_jsonw_text(struct cdm_jsonw *w, const char *key, const char *s, size_t max);

/* cdm_jsonw_u64, cdm_jsonw_i64 - an integer, in decimal */
void cdm_jsonw_u64(struct cdm_jsonw *w, const char *key, uint64_t v);
void cdm_jsonw_i64(struct cdm_jsonw *w, const char *key, int64_t v);

/*
 * cdm_jsonw_u64_if, cdm_jsonw_i64_if - @v when @known, else null (a count,
 * an offset or a time that does not exist, or is not known)
 */
void cdm_jsonw_u64_if(struct cdm_jsonw *w, const char *key, uint64_t v, int known);
void cdm_jsonw_i64_if(struct cdm_jsonw *w, const char *key, int64_t v, int known);

/* cdm_jsonw_num - a double by cdm_jsonw_fmt_num()'s rule: null when not finite */
void cdm_jsonw_num(struct cdm_jsonw *w, const char *key, double v);

/* cdm_jsonw_bool - true or false */
void cdm_jsonw_bool(struct cdm_jsonw *w, const char *key, int v);

/* cdm_jsonw_null - null */
void cdm_jsonw_null(struct cdm_jsonw *w, const char *key);

/*
 * cdm_jsonw_raw - @json written as it is: a number the caller worded by
 * a rule of its own (a setting's seconds, cdm_fmt_setting()), which must
 * be one valid JSON value
 */
void cdm_jsonw_raw(struct cdm_jsonw *w, const char *key, const char *json);

/*
 * cdm_jsonw_fmt_num - @v as the shortest decimal text that reads back as
 * the same double: plain decimals from 1e-4 to 1e15 ("5", "1048.576"),
 * else the shortest %g ("1.25e-07"), at most 17 digits; 0 and -0 as "0";
 * "." as decimal point (cdm never calls setlocale).  Not finite: "null".
 * @len >= 32 bytes is enough (CDM_JSONW_NUM_MAX).  Returns @buf.  The one
 * rule for a double in cdm's JSON, and in its CSV (format/fmt.h's
 * cdm_fmt_num()).
 */
char *cdm_jsonw_fmt_num(char *buf, size_t len, double v);

#endif /* CDM_BASE_JSONW_H */
