/* SPDX-License-Identifier: MIT */
/*
 * cdm/base/json.h - cdm's own small, strict JSON reader (RFC 8259), under
 * the reader of saved results (result_read.h).  No library: cdm parses its
 * inputs itself, with unit tests and a fuzz target (tests/fuzz/).
 *
 * Strict: one value and nothing after it but white space; no comments, no
 * trailing commas, no single quotes, no leading zeros, no NaN/Infinity,
 * no duplicate keys in an object, strings in valid UTF-8 with no raw
 * control characters; \u escapes are decoded (surrogate pairs combined;
 * a lone surrogate and \u0000 are errors).  Bounded: nesting at most
 * CDM_JSON_MAX_DEPTH deep, input at most CDM_JSON_MAX_BYTES; it never
 * reads past @len bytes and does not need a NUL at the end.
 */
#ifndef CDM_BASE_JSON_H
#define CDM_BASE_JSON_H

#include <stddef.h>
#include <stdint.h>

#define CDM_JSON_MAX_DEPTH 64
#define CDM_JSON_MAX_BYTES (256u << 20)

enum cdm_json_type {
	CDM_JSON_NULL,
	CDM_JSON_FALSE,
	CDM_JSON_TRUE,
	CDM_JSON_NUMBER,
	CDM_JSON_STRING,
	CDM_JSON_ARRAY,
	CDM_JSON_OBJECT,
};

/*
 * One value.  Arrays and objects own @items (@n of them, in document
 * order); an object's members carry their name in @key.
 */
struct cdm_json {
	enum cdm_json_type type;
	char *key;                      /* member name (NUL-terminated UTF-8), or NULL */
	char *str;                      /* STRING: NUL-terminated UTF-8 (no NUL inside) */
	size_t len;                     /* STRING: bytes in @str */
	double num;                     /* NUMBER: the value, as strtod reads it */
	int is_uint;                    /* NUMBER: a whole number 0..UINT64_MAX in the text */
	uint64_t u64;                   /* NUMBER: exact value when @is_uint */
	int is_milli;                   /* NUMBER: >= 0 with at most 3 decimals, no exponent,
					 * and @milli fits (base/msec.h: a time in seconds) */
	uint64_t milli;                 /* NUMBER: exact value x 1000 when @is_milli
					 * (0.5 is 500, 2 is 2000) */
	struct cdm_json *items;         /* ARRAY, OBJECT: elements or members */
	size_t n;
};

/* where and why parsing failed */
struct cdm_json_error {
	size_t offset;                  /* byte offset of the error */
	unsigned int line, column;      /* 1-based */
	int truncated;                  /* 1: the text ended inside a value */
	char msg[96];                   /* "expected ',' or '}'", ... */
};

/*
 * cdm_json_parse - parse @len bytes of @text into a tree; *@root gets it
 * (free with cdm_json_free()).  Returns 0; -EINVAL for text that is not
 * JSON (@err says where and why, and err->truncated whether the text just
 * ended too early); -E2BIG for input above CDM_JSON_MAX_BYTES or nesting
 * above CDM_JSON_MAX_DEPTH (also described in @err); -ENOMEM.  @err may
 * be NULL.  On failure *@root is NULL.
 */
int cdm_json_parse(const char *text, size_t len, struct cdm_json **root,
		   struct cdm_json_error *err);

/* cdm_json_free - free a tree from cdm_json_parse(); NULL is allowed. */
void cdm_json_free(struct cdm_json *root);

/*
 * cdm_json_get - the member @key of object @obj, or NULL when @obj is NULL,
 * not an object, or has no such member.
 */
const struct cdm_json *cdm_json_get(const struct cdm_json *obj, const char *key);

/*
 * cdm_json_type_name - "null", "boolean", "number", "string", "array",
 * "object": for error messages.
 */
const char *cdm_json_type_name(enum cdm_json_type type);

#endif /* CDM_BASE_JSON_H */
