/* SPDX-License-Identifier: MIT */
/*
 * json.c - a small, strict JSON reader (RFC 8259) for the results
 * cdm reads back (result_read.c: compare, merge, cdm-mpi): recursive
 * descent over a length-bounded buffer into a tree of struct cdm_json.
 * Written for hostile input (a saved result may be truncated, edited by
 * hand or not JSON at all): every read is checked against the end of the
 * buffer, nesting is bounded so the recursion is too, every allocation is
 * checked, and every error says where it is and whether the text merely
 * ended too early.  The contract is in include/cdm/base/json.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/msec.h"
#include "cdm/base/utf8.h"
#include "cdm/base/json.h"

#define NUM_MAX 512     /* longest number literal accepted, in bytes */

struct parser {
	const char *s;
	size_t len, pos;
	unsigned int depth;
	int ret;                        /* first error, kept */
	struct cdm_json_error *err;
};

static int fail(struct parser *p, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, int ret, const char *fmt, ...)
{
	va_list ap;

	if (p->ret)
		return p->ret;
	p->ret = ret;
	if (p->err) {
		size_t i;

		p->err->offset = p->pos;
		p->err->truncated = p->pos >= p->len && ret == -EINVAL;
		p->err->line = 1;
		p->err->column = 1;
		for (i = 0; i < p->pos && i < p->len; i++) {
			if (p->s[i] == '\n') {
				p->err->line++;
				p->err->column = 1;
			} else {
				p->err->column++;
			}
		}
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* "the end of the text" or "'x'", for messages */
static const char *what_is_here(struct parser *p, char *buf, size_t len)
{
	unsigned char c;

	if (p->pos >= p->len)
		return "the end of the text";
	c = (unsigned char)p->s[p->pos];
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

/* four hex digits at p->pos; -1 when they are not there */
static long hex4(struct parser *p)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c;

		if (p->pos >= p->len)
			return -1;
		c = p->s[p->pos];
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return -1;
		p->pos++;
	}
	return v;
}

/* a string at p->pos (on its opening quote) into a new NUL-terminated buffer */
/*
 * A \u escape, p->pos past its "u", of a string ending at @end: its code
 * point (a surrogate pair combined) as UTF-8 at @d + *@n, *@n advanced.
 * Returns 0 or -EINVAL (a bad or lone escape, or U+0000).
 */
static int parse_u(struct parser *p, size_t end, char *d, size_t *n)
{
	long cp = hex4(p), lo;

	if (cp < 0)
		return fail(p, -EINVAL, "\\u needs four hex digits");
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(p, -EINVAL, "unpaired UTF-16 surrogate in a \\u escape");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		/* a high surrogate must be followed by \u and a low one */
		if (p->pos + 1 >= end || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
			return fail(p, -EINVAL, "unpaired UTF-16 surrogate in a \\u escape");
		p->pos += 2;
		lo = hex4(p);
		if (lo < 0)
			return fail(p, -EINVAL, "\\u needs four hex digits");
		cp = cdm_utf8_utf16_pair((uint32_t)cp, (uint32_t)lo);
		if (!cp)
			return fail(p, -EINVAL, "unpaired UTF-16 surrogate in a \\u escape");
	}
	if (cp == 0)
		return fail(p, -EINVAL, "\\u0000 in a string is not accepted");
	*n += cdm_utf8_encode((uint32_t)cp, d + *n);
	return 0;
}

/*
 * One character of a string ending at @end, at p->pos: a UTF-8 sequence
 * copied or an escape decoded, to @d + *@n, both advanced.  Returns 0 or
 * -EINVAL.
 */
static int parse_char(struct parser *p, size_t end, char *d, size_t *n)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	unsigned char c = (unsigned char)p->s[p->pos];
	const char *e;
	size_t l;

	if (c < 0x20)
		return fail(p, -EINVAL, "control character 0x%02x in a string (must be escaped)", c);
	if (c != '\\') {
		l = cdm_utf8_decode((const unsigned char *)p->s + p->pos, end - p->pos, NULL);
		if (!l)
			return fail(p, -EINVAL, "invalid UTF-8 in a string");
		memcpy(d + *n, p->s + p->pos, l);
		*n += l;
		p->pos += l;
		return 0;
	}
	p->pos++;
	c = (unsigned char)p->s[p->pos++];
	if (c == 'u')
		return parse_u(p, end, d, n);
	/* the escapes in pairs: the letter after the backslash, its byte */
	for (e = esc; *e; e += 2)
		if ((unsigned char)e[0] == c) {
			d[(*n)++] = e[1];
			return 0;
		}
	p->pos--;
	return fail(p, -EINVAL, "bad escape in a string");
}

static int parse_string(struct parser *p, char **out, size_t *outlen)
{
	size_t start = ++p->pos, end, n = 0;
	char *d;
	int ret;

	/* find the closing quote first: the decoded text is never longer */
	for (end = start; end < p->len && p->s[end] != '"'; end++)
		if (p->s[end] == '\\')
			end++;
	if (end >= p->len) {
		p->pos = p->len;
		return fail(p, -EINVAL, "unterminated string");
	}
	d = malloc(end - start + 1);
	if (!d)
		return fail(p, -ENOMEM, "out of memory");
	while (p->pos < end) {
		ret = parse_char(p, end, d, &n);
		if (ret) {
			free(d);
			return ret;
		}
	}
	p->pos = end + 1;
	d[n] = '\0';
	*out = d;
	if (outlen)
		*outlen = n;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The digits of a number from p->s[*i] on (a sign already passed): the
 * integer part, then a fraction and an exponent if there are, *@i moved
 * past them and *@whole cleared by either.  Returns 0 or -EINVAL (p->pos
 * at the fault).
 */
static int scan_number(struct parser *p, size_t *i, int *whole)
{
	size_t k = *i;
	const char *why = NULL;

	if (k < p->len && p->s[k] == '0') {
		if (++k < p->len && is_digit(p->s[k]))
			why = "leading zero in a number";
	} else if (k < p->len && is_digit(p->s[k])) {
		while (k < p->len && is_digit(p->s[k]))
			k++;
	} else {
		why = "a number needs digits";
	}
	if (!why && k < p->len && p->s[k] == '.') {
		*whole = 0;
		if (++k >= p->len || !is_digit(p->s[k]))
			why = "a digit must follow the decimal point";
		while (!why && k < p->len && is_digit(p->s[k]))
			k++;
	}
	if (!why && k < p->len && (p->s[k] == 'e' || p->s[k] == 'E')) {
		*whole = 0;
		if (++k < p->len && (p->s[k] == '+' || p->s[k] == '-'))
			k++;
		if (k >= p->len || !is_digit(p->s[k]))
			why = "an exponent needs digits";
		while (!why && k < p->len && is_digit(p->s[k]))
			k++;
	}
	if (why) {
		p->pos = k;
		return fail(p, -EINVAL, "%s", why);
	}
	*i = k;
	return 0;
}

/* @buf, the digits of a whole number, exactly as v->u64 when it fits */
static void exact_uint(struct cdm_json *v, const char *buf)
{
	uint64_t u = 0;

	v->is_uint = 1;
	for (size_t k = 0; buf[k]; k++) {
		unsigned int dgt = (unsigned int)(buf[k] - '0');

		if (u > (UINT64_MAX - dgt) / 10) {
			v->is_uint = 0;
			break;
		}
		u = u * 10 + dgt;
	}
	v->u64 = v->is_uint ? u : 0;
}

static int parse_number(struct parser *p, struct cdm_json *v)
{
	size_t start = p->pos, i = p->pos;
	char buf[NUM_MAX + 1], *end;
	int whole = 1, neg = 0, ret;

	if (i < p->len && p->s[i] == '-') {
		neg = 1;
		i++;
	}
	ret = scan_number(p, &i, &whole);
	if (ret)
		return ret;
	if (i - start > NUM_MAX)
		return fail(p, -EINVAL, "number longer than %d characters", NUM_MAX);
	memcpy(buf, p->s + start, i - start);
	buf[i - start] = '\0';
	v->type = CDM_JSON_NUMBER;
	v->num = strtod(buf, &end);
	if (end != buf + (i - start) || v->num > 1.7976931348623157e308 ||
	    v->num < -1.7976931348623157e308)
		return fail(p, -EINVAL, "number out of range");
	if (whole && !neg)
		exact_uint(v, buf);
	/* a time in seconds, "0.5", read exactly: 500 thousandths, not 0.49999... */
	v->is_milli = !neg && cdm_msec_parse(buf, &v->milli) == 0;
	if (!v->is_milli)
		v->milli = 0;
	p->pos = i;
	return 0;
}

static int parse_value(struct parser *p, struct cdm_json *v);

/* append a zeroed item to @v's items; returns it or NULL */
static struct cdm_json *push(struct parser *p, struct cdm_json *v, size_t *cap)
{
	if (v->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		struct cdm_json *n = realloc(v->items, ncap * sizeof(*n));

		if (!n) {
			fail(p, -ENOMEM, "out of memory");
			return NULL;
		}
		v->items = n;
		*cap = ncap;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	return &v->items[v->n++];
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* strict: an object's member names are unique (O(n log n)) */
static int check_unique(struct parser *p, const struct cdm_json *v)
{
	char **keys;
	size_t i;
	int ret = 0;

	if (v->n < 2)
		return 0;
	keys = malloc(v->n * sizeof(*keys));
	if (!keys)
		return fail(p, -ENOMEM, "out of memory");
	for (i = 0; i < v->n; i++)
		keys[i] = v->items[i].key;
	qsort(keys, v->n, sizeof(*keys), cmp_key);
	for (i = 1; i < v->n && !ret; i++)
		if (!strcmp(keys[i - 1], keys[i]))
			ret = fail(p, -EINVAL, "duplicate key \"%.40s\" in an object", keys[i]);
	free(keys);
	return ret;
}

static int parse_container(struct parser *p, struct cdm_json *v, int object)
{
	char close = object ? '}' : ']', here[16];
	size_t cap = 0;
	int ret;

	if (++p->depth > CDM_JSON_MAX_DEPTH)
		return fail(p, -E2BIG, "nested deeper than %d levels", CDM_JSON_MAX_DEPTH);
	v->type = object ? CDM_JSON_OBJECT : CDM_JSON_ARRAY;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		p->depth--;
		return 0;
	}
	for (;;) {
		struct cdm_json *item = push(p, v, &cap);

		if (!item)
			return p->ret;
		if (object) {
			skip_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return fail(p, -EINVAL, "expected a member name in quotes, found %s",
					    what_is_here(p, here, sizeof(here)));
			ret = parse_string(p, &item->key, NULL);
			if (ret)
				return ret;
			skip_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return fail(p, -EINVAL, "expected ':' after a member name, found %s",
					    what_is_here(p, here, sizeof(here)));
			p->pos++;
		}
		ret = parse_value(p, item);
		if (ret)
			return ret;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			break;
		}
		return fail(p, -EINVAL, "expected ',' or '%c', found %s", close,
			    what_is_here(p, here, sizeof(here)));
	}
	p->depth--;
	return object ? check_unique(p, v) : 0;
}

static int literal(struct parser *p, const char *word, enum cdm_json_type type,
		   struct cdm_json *v)
{
	size_t n = strlen(word), i;

	for (i = 0; i < n; i++) {
		if (p->pos + i >= p->len) {
			p->pos = p->len;
			return fail(p, -EINVAL, "unexpected end of the text in '%s'", word);
		}
		if (p->s[p->pos + i] != word[i])
			return fail(p, -EINVAL, "unexpected text (a value was expected)");
	}
	p->pos += n;
	v->type = type;
	return 0;
}

static int parse_value(struct parser *p, struct cdm_json *v)
{
	char here[16];

	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, -EINVAL, "expected a value, found the end of the text");
	switch (p->s[p->pos]) {
	case '{':
		return parse_container(p, v, 1);
	case '[':
		return parse_container(p, v, 0);
	case '"':
		v->type = CDM_JSON_STRING;
		return parse_string(p, &v->str, &v->len);
	case 't':
		return literal(p, "true", CDM_JSON_TRUE, v);
	case 'f':
		return literal(p, "false", CDM_JSON_FALSE, v);
	case 'n':
		return literal(p, "null", CDM_JSON_NULL, v);
	default:
		if (p->s[p->pos] == '-' || is_digit(p->s[p->pos]))
			return parse_number(p, v);
		return fail(p, -EINVAL, "expected a value, found %s",
			    what_is_here(p, here, sizeof(here)));
	}
}

static void free_value(struct cdm_json *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free_value(&v->items[i]);
	free(v->items);
	free(v->key);
	free(v->str);
}

void cdm_json_free(struct cdm_json *root)
{
	if (!root)
		return;
	free_value(root);
	free(root);
}

int cdm_json_parse(const char *text, size_t len, struct cdm_json **root,
		   struct cdm_json_error *err)
{
	struct parser p = { .s = text, .len = len, .err = err };
	struct cdm_json *v;
	char here[16];
	int ret;

	*root = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	if (len > CDM_JSON_MAX_BYTES)
		return fail(&p, -E2BIG, "larger than %u MiB", CDM_JSON_MAX_BYTES >> 20);
	v = calloc(1, sizeof(*v));
	if (!v)
		return fail(&p, -ENOMEM, "out of memory");
	ret = parse_value(&p, v);
	if (!ret) {
		skip_ws(&p);
		if (p.pos < p.len)
			ret = fail(&p, -EINVAL, "unexpected %s after the value",
				   what_is_here(&p, here, sizeof(here)));
	}
	if (ret) {
		cdm_json_free(v);
		return ret;
	}
	*root = v;
	return 0;
}

const struct cdm_json *cdm_json_get(const struct cdm_json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != CDM_JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->items[i].key, key))
			return &obj->items[i];
	return NULL;
}

const char *cdm_json_type_name(enum cdm_json_type type)
{
	switch (type) {
	case CDM_JSON_NULL:
		return "null";
	case CDM_JSON_FALSE:
	case CDM_JSON_TRUE:
		return "boolean";
	case CDM_JSON_NUMBER:
		return "number";
	case CDM_JSON_STRING:
		return "string";
	case CDM_JSON_ARRAY:
		return "array";
	case CDM_JSON_OBJECT:
		return "object";
	}
	return "value";
}
