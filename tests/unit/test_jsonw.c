/* SPDX-License-Identifier: MIT */
/*
 * test_jsonw.c - the one JSON writer (base/jsonw.h): nesting, commas and
 * indentation, compact containers and their line break, the escaping of
 * every control character and of '"' and '\\', UTF-8 kept and bytes
 * outside it replaced, integers at their ends, the rule for doubles
 * (NaN and infinities are null), null, and a write error kept and
 * returned as -errno.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/jsonw.h"

/* a writer on a memory stream */
struct mem {
	struct cdm_jsonw w;
	FILE *fp;
	char *buf;
	size_t len;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	assert_non_null(m->fp);
	cdm_jsonw_init(&m->w, m->fp);
}

/* finish @m: its result must be 0 and the text written @want */
static void mem_check(struct mem *m, const char *want)
{
	assert_int_equal(cdm_jsonw_finish(&m->w), 0);
	fclose(m->fp);
	assert_string_equal(m->buf, want);
	free(m->buf);
}

static void test_nesting(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m);
	cdm_jsonw_object(&m.w, NULL, 0);
	cdm_jsonw_u64(&m.w, "a", 1);
	cdm_jsonw_object(&m.w, "b", 0);
	cdm_jsonw_str(&m.w, "c", "x");
	cdm_jsonw_array(&m.w, "d", 0);
	cdm_jsonw_bool(&m.w, NULL, 1);
	cdm_jsonw_bool(&m.w, NULL, 0);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_array(&m.w, "e", 0);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_object(&m.w, "f", 0);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_null(&m.w, "g");
	cdm_jsonw_end(&m.w);
	mem_check(&m, "{\n"
		  "  \"a\": 1,\n"
		  "  \"b\": {\n"
		  "    \"c\": \"x\",\n"
		  "    \"d\": [\n"
		  "      true,\n"
		  "      false\n"
		  "    ]\n"
		  "  },\n"
		  "  \"e\": [],\n"
		  "  \"f\": {},\n"
		  "  \"g\": null\n"
		  "}\n");
}

/* compact containers: one line, and one break where asked for */
static void test_compact(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m);
	cdm_jsonw_object(&m.w, NULL, 0);
	cdm_jsonw_array(&m.w, "items", 0);
	cdm_jsonw_object(&m.w, NULL, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(&m.w, "low", 1);
	cdm_jsonw_array(&m.w, "v", CDM_JSONW_COMPACT);
	cdm_jsonw_u64(&m.w, NULL, 2);
	cdm_jsonw_object(&m.w, NULL, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(&m.w, "n", 3);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_array(&m.w, "none", CDM_JSONW_COMPACT);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_break(&m.w);
	cdm_jsonw_null(&m.w, "next");
	cdm_jsonw_object(&m.w, "in", CDM_JSONW_COMPACT);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_end(&m.w);
	cdm_jsonw_end(&m.w);
	mem_check(&m, "{\n"
		  "  \"items\": [\n"
		  "    { \"low\": 1, \"v\": [2, { \"n\": 3 }], \"none\": [],\n"
		  "      \"next\": null, \"in\": {} }\n"
		  "  ]\n"
		  "}\n");
}

/* one value alone, not in a container: no newline after it */
static void test_value(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m);
	cdm_jsonw_strn(&m.w, NULL, "abcdef", 3);
	mem_check(&m, "\"abc\"");
}

/* every control character, '"' and '\\'; UTF-8 kept; other bytes U+FFFD */
static void test_escaping(void **state)
{
	char in[2], want[16];
	struct mem m;

	(void)state;
	for (unsigned int c = 1; c < 0x80; c++) {
		in[0] = (char)c;
		in[1] = '\0';
		if (c == '\n')
			snprintf(want, sizeof(want), "\"\\n\"");
		else if (c == '\t')
			snprintf(want, sizeof(want), "\"\\t\"");
		else if (c < 0x20 || c == 0x7f)
			snprintf(want, sizeof(want), "\"\\u%04x\"", c);
		else if (c == '"' || c == '\\')
			snprintf(want, sizeof(want), "\"\\%c\"", c);
		else
			snprintf(want, sizeof(want), "\"%c\"", c);
		mem_open(&m);
		cdm_jsonw_str(&m.w, NULL, in);
		mem_check(&m, want);
	}
	mem_open(&m);
	cdm_jsonw_str(&m.w, NULL, "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x92\xbe");
	mem_check(&m, "\"\xc3\xa9t\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x92\xbe\"");
	/* Latin-1, a lone continuation, a surrogate, a sequence cut short */
	mem_open(&m);
	cdm_jsonw_str(&m.w, NULL, "caf\xe9 \x80 \xed\xa0\x80 \xe6\x97");
	mem_check(&m, "\"caf\\ufffd \\ufffd \\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\"");
	/* keys are escaped too */
	mem_open(&m);
	cdm_jsonw_object(&m.w, NULL, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(&m.w, "a\"b", 0);
	cdm_jsonw_end(&m.w);
	mem_check(&m, "{ \"a\\\"b\": 0 }\n");
}

static void test_integers(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m);
	cdm_jsonw_array(&m.w, NULL, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(&m.w, NULL, 0);
	cdm_jsonw_u64(&m.w, NULL, UINT64_MAX);
	cdm_jsonw_i64(&m.w, NULL, 0);
	cdm_jsonw_i64(&m.w, NULL, INT64_MIN);
	cdm_jsonw_i64(&m.w, NULL, INT64_MAX);
	cdm_jsonw_u64_if(&m.w, NULL, 7, 1);
	cdm_jsonw_u64_if(&m.w, NULL, 7, 0);
	cdm_jsonw_i64_if(&m.w, NULL, -1, 1);
	cdm_jsonw_i64_if(&m.w, NULL, -1, 0);
	cdm_jsonw_end(&m.w);
	mem_check(&m, "[0, 18446744073709551615, 0, -9223372036854775808, "
		  "9223372036854775807, 7, null, -1, null]\n");
}

/* the rule: the shortest text that reads back the same; not finite is null */
static void test_doubles(void **state)
{
	static const struct {
		double v;
		const char *text;
	} cases[] = {
		{ 0.0, "0" }, { -0.0, "0" }, { 5.0, "5" }, { 1048.576, "1048.576" },
		{ 0.1, "0.1" }, { -2.5, "-2.5" }, { 1e-4, "0.0001" }, { 1.25e-7, "1.25e-07" },
		{ 1e15, "1e+15" }, { 999999999999999.0, "999999999999999" },
		{ 122.01164800000001, "122.01164800000001" }, { 1.0 / 3.0, "0.3333333333333333" },
		{ 5e-324, "5e-324" }, { 0.1 + 0.2, "0.30000000000000004" },
	};
	char buf[CDM_JSONW_NUM_MAX];
	struct mem m;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(cdm_jsonw_fmt_num(buf, sizeof(buf), cases[i].v), cases[i].text);
		assert_true(strtod(buf, NULL) == cases[i].v);
	}
	assert_string_equal(cdm_jsonw_fmt_num(buf, sizeof(buf), NAN), "null");
	assert_string_equal(cdm_jsonw_fmt_num(buf, sizeof(buf), INFINITY), "null");
	assert_string_equal(cdm_jsonw_fmt_num(buf, sizeof(buf), -INFINITY), "null");
	/* the largest text there is fits */
	assert_true(strlen(cdm_jsonw_fmt_num(buf, sizeof(buf), -1.2345678901234567e-300)) < 32);
	mem_open(&m);
	cdm_jsonw_object(&m.w, NULL, CDM_JSONW_COMPACT);
	cdm_jsonw_num(&m.w, "a", 0.5);
	cdm_jsonw_num(&m.w, "nan", NAN);
	cdm_jsonw_num(&m.w, "inf", INFINITY);
	cdm_jsonw_text(&m.w, "empty", "", 8);
	cdm_jsonw_text(&m.w, "t", "x", 8);
	cdm_jsonw_raw(&m.w, "raw", "0.5");
	cdm_jsonw_end(&m.w);
	mem_check(&m, "{ \"a\": 0.5, \"nan\": null, \"inf\": null, \"empty\": null, \"t\": \"x\", "
		  "\"raw\": 0.5 }\n");
}

/* the deep ends of a document, written to a full disk: -ENOSPC, kept */
static void test_write_error(void **state)
{
	struct cdm_jsonw w;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	cdm_jsonw_init(&w, f);
	cdm_jsonw_object(&w, NULL, 0);
	for (unsigned int i = 0; i < 10000; i++)
		cdm_jsonw_str(&w, "key", "a value long enough to fill a buffer or two");
	cdm_jsonw_end(&w);
	assert_int_equal(cdm_jsonw_finish(&w), -ENOSPC);
	/* a second finish says the same */
	assert_int_equal(cdm_jsonw_finish(&w), -ENOSPC);
	fclose(f);

	/* a small document: the error shows at the flush */
	f = fopen("/dev/full", "w");
	assert_non_null(f);
	cdm_jsonw_init(&w, f);
	cdm_jsonw_null(&w, NULL);
	assert_int_equal(cdm_jsonw_finish(&w), -ENOSPC);
	fclose(f);
}

/* misuse: a document left open, an end too many, too deep */
static void test_misuse(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m);
	cdm_jsonw_object(&m.w, NULL, 0);
	assert_int_equal(cdm_jsonw_finish(&m.w), -EINVAL);
	fclose(m.fp);
	free(m.buf);

	mem_open(&m);
	cdm_jsonw_end(&m.w);
	assert_int_equal(cdm_jsonw_finish(&m.w), -EINVAL);
	fclose(m.fp);
	free(m.buf);

	mem_open(&m);
	for (unsigned int i = 0; i <= CDM_JSONW_DEPTH; i++)
		cdm_jsonw_array(&m.w, NULL, 0);
	for (unsigned int i = 0; i < CDM_JSONW_DEPTH; i++)
		cdm_jsonw_end(&m.w);
	assert_int_equal(cdm_jsonw_finish(&m.w), -EINVAL);
	fclose(m.fp);
	free(m.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_misuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
