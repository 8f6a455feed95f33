/* SPDX-License-Identifier: MIT */
/*
 * test_json.c - cdm's strict JSON reader (src/base/json.c): what it accepts
 * (RFC 8259 values, escapes, surrogate pairs, exact 64-bit integers), what
 * it refuses and where it says the error is (trailing commas, comments,
 * leading zeros, NaN, bad UTF-8, lone surrogates, duplicate keys, trailing
 * text, nesting too deep), truncation at every byte of a valid document,
 * and a fuzz-style loop of random mutations that must never crash, leak
 * or read past the buffer (run under ASan by `make test`).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cdm/base/json.h"

static struct cdm_json *ok(const char *text)
{
	struct cdm_json_error e;
	struct cdm_json *root = NULL;
	int ret = cdm_json_parse(text, strlen(text), &root, &e);

	if (ret)
		fail_msg("'%s' refused (%d): %u:%u %s", text, ret, e.line, e.column, e.msg);
	return root;
}

/* refused with @ret; returns the error for more checks */
static struct cdm_json_error refused(const char *text, int ret)
{
	struct cdm_json_error e;
	struct cdm_json *root = (struct cdm_json *)1;
	int got = cdm_json_parse(text, strlen(text), &root, &e);

	if (got != ret)
		fail_msg("'%s': got %d, want %d (%s)", text, got, ret, e.msg);
	assert_null(root);
	assert_true(e.msg[0] != '\0');
	return e;
}

static void test_values(void **state)
{
	struct cdm_json *r;
	const struct cdm_json *v;

	(void)state;
	r = ok(" { \"a\" : [1, -2.5e3, 0, true, false, null, \"x\"], \"b\": {} , \"c\": [] }\n");
	assert_int_equal(r->type, CDM_JSON_OBJECT);
	assert_int_equal(r->n, 3);
	v = cdm_json_get(r, "a");
	assert_int_equal(v->n, 7);
	assert_true(v->items[0].is_uint && v->items[0].u64 == 1);
	assert_true(v->items[1].num == -2500.0 && !v->items[1].is_uint);
	assert_int_equal(v->items[3].type, CDM_JSON_TRUE);
	assert_int_equal(v->items[4].type, CDM_JSON_FALSE);
	assert_int_equal(v->items[5].type, CDM_JSON_NULL);
	assert_string_equal(v->items[6].str, "x");
	assert_int_equal(cdm_json_get(r, "b")->type, CDM_JSON_OBJECT);
	assert_null(cdm_json_get(r, "d"));
	assert_null(cdm_json_get(v, "a"));
	cdm_json_free(r);

	/* exact 64-bit integers, beyond a double's 53 bits */
	r = ok("[18446744073709551615, 18446744073709551616, 9007199254740993, 1.0]");
	assert_true(r->items[0].is_uint && r->items[0].u64 == UINT64_MAX);
	assert_false(r->items[1].is_uint);
	assert_true(r->items[2].u64 == 9007199254740993ull);
	assert_false(r->items[3].is_uint);
	cdm_json_free(r);

	/* thousandths, exactly (a time in seconds): at most 3 decimals, no exponent, no sign */
	r = ok("[0.5, 0.1, 2, 1.250, 0.1234, 1e3, -0.5, 0, 18446744073709551615]");
	assert_true(r->items[0].is_milli && r->items[0].milli == 500);
	assert_true(r->items[1].is_milli && r->items[1].milli == 100);
	assert_true(r->items[2].is_milli && r->items[2].milli == 2000);
	assert_true(r->items[3].is_milli && r->items[3].milli == 1250);
	assert_false(r->items[4].is_milli);
	assert_false(r->items[5].is_milli);
	assert_false(r->items[6].is_milli);
	assert_true(r->items[7].is_milli && r->items[7].milli == 0);
	assert_false(r->items[8].is_milli);    /* x 1000 does not fit */
	assert_true(r->items[8].milli == 0);
	cdm_json_free(r);

	/* scalars at the top level, as RFC 8259 allows */
	cdm_json_free(ok("3"));
	cdm_json_free(ok("\"s\""));
	cdm_json_free(ok("null"));
	cdm_json_free(NULL);
	assert_string_equal(cdm_json_type_name(CDM_JSON_ARRAY), "array");
}

static void test_strings(void **state)
{
	struct cdm_json *r;

	(void)state;
	r = ok("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u20ac\\ud83d\\ude00\xc3\xa9\"");
	assert_string_equal(r->str, "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xc3\xa9");
	assert_int_equal(r->len, strlen(r->str));
	cdm_json_free(r);

	refused("\"\\ud83d\"", -EINVAL);                /* lone high surrogate */
	refused("\"\\ude00\"", -EINVAL);                /* lone low surrogate */
	refused("\"\\ud83d\\u0041\"", -EINVAL);         /* high + not low */
	refused("\"\\u00\"", -EINVAL);
	refused("\"\\u0000\"", -EINVAL);
	refused("\"\\x\"", -EINVAL);
	refused("\"a\tb\"", -EINVAL);                   /* raw control character */
	refused("\"\xff\"", -EINVAL);                   /* not UTF-8 */
	refused("\"\xc0\xaf\"", -EINVAL);               /* overlong */
	refused("\"\xed\xa0\x80\"", -EINVAL);           /* UTF-8 surrogate */
	refused("'a'", -EINVAL);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"", " ", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{a:1}", "01", "-", "1.",
		".5", "1e", "+1", "NaN", "Infinity", "tru", "nul", "[1]x", "{} {}",
		"/* c */ 1", "1e999", "-1e999", "{\"a\":1,\"a\":2}", "[", "{", "\"abc",
		"[\"a\",", "{\"a\"", "{\"a\":", "\xef\xbb\xbf{}",
	};
	struct cdm_json_error e;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i], -EINVAL);

	/* where: line and column of the error, 1-based */
	e = refused("{\n  \"a\": 1,\n  \"b\" 2\n}", -EINVAL);
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 7);
	assert_false(e.truncated);
	assert_non_null(strstr(e.msg, "':'"));

	/* truncated: the text ends inside a value */
	e = refused("{\"a\": [1, 2", -EINVAL);
	assert_true(e.truncated);
	e = refused("{\"a\": tr", -EINVAL);
	assert_true(e.truncated);
	e = refused("[1]]", -EINVAL);
	assert_false(e.truncated);
}

static void test_depth(void **state)
{
	char deep[2 * CDM_JSON_MAX_DEPTH + 8];
	unsigned int i;
	struct cdm_json_error e;

	(void)state;
	for (i = 0; i < CDM_JSON_MAX_DEPTH; i++) {
		deep[i] = '[';
		deep[2 * CDM_JSON_MAX_DEPTH - 1 - i] = ']';
	}
	deep[2 * CDM_JSON_MAX_DEPTH] = '\0';
	cdm_json_free(ok(deep));

	/* one level more is refused, cleanly */
	memmove(deep + 1, deep, strlen(deep) + 1);
	deep[0] = '[';
	strcat(deep, "]");
	e = refused(deep, -E2BIG);
	assert_non_null(strstr(e.msg, "deeper"));
}

/* a document like a saved result, for truncation and mutation */
static const char doc[] =
	"{\"schema_version\": 1, \"tool\": \"cdm\", \"label\": \"L\\u00e9\",\n"
	" \"tests\": [{\"name\": \"SEQ1M Q8T1\", \"mb_s\": 1048.576, \"p\": [1, 2e-3, -0.5]},\n"
	"  {\"x\": null, \"y\": true, \"z\": false, \"s\": \"\\ud83d\\ude00\"}]}\n";

static void test_every_prefix_truncated(void **state)
{
	size_t n = strlen(doc), i;

	(void)state;
	cdm_json_free(ok(doc));
	for (i = 0; i + 1 < n; i++) {
		struct cdm_json_error e;
		struct cdm_json *root;
		/* a copy of exactly i bytes: ASan sees any read past the end */
		char *p = malloc(i ? i : 1);

		assert_non_null(p);
		memcpy(p, doc, i);
		if (cdm_json_parse(p, i, &root, &e) == 0)
			fail_msg("prefix of %zu bytes accepted", i);
		if (!e.truncated)
			fail_msg("prefix of %zu bytes not reported as truncated: %s", i, e.msg);
		free(p);
	}
}

static void test_fuzz_mutations(void **state)
{
	static const char bytes[] = "{}[]\",:\\u0123456789eE+-.tfnrl \x80\xc3\xff\n";
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t n = strlen(doc);
	unsigned int round;

	(void)state;
	for (round = 0; round < 20000; round++) {
		struct cdm_json *root;
		char *p = malloc(n);
		unsigned int k, edits;

		assert_non_null(p);
		memcpy(p, doc, n);
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		edits = 1 + (unsigned int)(seed % 4);
		for (k = 0; k < edits; k++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			p[(seed >> 8) % n] = bytes[(seed >> 32) % (sizeof(bytes) - 1)];
		}
		if (cdm_json_parse(p, (seed >> 40) % (n + 1), &root, NULL) == 0)
			cdm_json_free(root);
		free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_every_prefix_truncated),
		cmocka_unit_test(test_fuzz_mutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
