/* SPDX-License-Identifier: MIT */
/*
 * test_utf8.c - the one UTF-8 codec (base/utf8.h), RFC 3629: each
 * boundary of the 1- to 4-byte forms decoded and encoded back, every
 * class of ill-formed input refused (overlong forms, surrogates, above
 * U+10FFFF, lone continuation bytes, sequences cut short), and a buffer's
 * valid span.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/utf8.h"

/* @s (@n bytes) decodes to @cp in @n bytes, and @cp encodes to @s */
static void round_trip(const char *s, size_t n, uint32_t cp)
{
	char out[CDM_UTF8_MAX + 1] = "";
	uint32_t got = 0;

	assert_int_equal(cdm_utf8_decode((const unsigned char *)s, n, &got), n);
	assert_int_equal(got, cp);
	/* extra bytes after it are not read as its own */
	assert_int_equal(cdm_utf8_decode((const unsigned char *)s, CDM_UTF8_MAX, NULL), n);
	assert_int_equal(cdm_utf8_encode(cp, out), n);
	assert_memory_equal(out, s, n);
	assert_int_equal(cdm_utf8_span(s, n), n);
}

/* @s (@n bytes) is refused; *cp is left as it was */
static void refused(const char *s, size_t n)
{
	uint32_t cp = 0x1234;

	assert_int_equal(cdm_utf8_decode((const unsigned char *)s, n, &cp), 0);
	assert_int_equal(cp, 0x1234);
	assert_int_equal(cdm_utf8_span(s, n), 0);
}

static void test_boundaries(void **state)
{
	(void)state;
	round_trip("\0", 1, 0);
	round_trip("\x7f", 1, 0x7f);                    /* U+007F, the last of 1 byte */
	round_trip("\xc2\x80", 2, 0x80);                /* U+0080, the first of 2 */
	round_trip("\xdf\xbf", 2, 0x7ff);               /* U+07FF, the last of 2 */
	round_trip("\xe0\xa0\x80", 3, 0x800);           /* U+0800, the first of 3 */
	round_trip("\xed\x9f\xbf", 3, 0xd7ff);          /* below the surrogates */
	round_trip("\xee\x80\x80", 3, 0xe000);          /* above them */
	round_trip("\xef\xbf\xbf", 3, 0xffff);          /* U+FFFF, the last of 3 */
	round_trip("\xf0\x90\x80\x80", 4, 0x10000);     /* U+10000, the first of 4 */
	round_trip("\xf4\x8f\xbf\xbf", 4, 0x10ffff);    /* U+10FFFF, the last of all */
	round_trip("\xc3\xa9", 2, 0xe9);
	round_trip("\xf0\x9f\x92\xbe", 4, 0x1f4be);
}

static void test_overlong(void **state)
{
	(void)state;
	refused("\xc0\xaf", 2);                         /* '/' in 2 bytes */
	refused("\xc0\x80", 2);                         /* U+0000 in 2 bytes */
	refused("\xc1\xbf", 2);                         /* U+007F in 2 bytes */
	refused("\xe0\x80\xaf", 3);                     /* '/' in 3 bytes */
	refused("\xe0\x9f\xbf", 3);                     /* U+07FF in 3 bytes */
	refused("\xf0\x80\x80\xaf", 4);                 /* '/' in 4 bytes */
	refused("\xf0\x8f\xbf\xbf", 4);                 /* U+FFFF in 4 bytes */
}

static void test_surrogates(void **state)
{
	char out[CDM_UTF8_MAX] = "x";

	(void)state;
	refused("\xed\xa0\x80", 3);                     /* U+D800 */
	refused("\xed\xaf\xbf", 3);                     /* U+DBFF */
	refused("\xed\xb0\x80", 3);                     /* U+DC00 */
	refused("\xed\xbf\xbf", 3);                     /* U+DFFF */
	refused("\xed\xa0\xbd\xed\xb2\xbe", 6);         /* a pair, as CESU-8 writes it */
	assert_int_equal(cdm_utf8_encode(0xd800, out), 0);
	assert_int_equal(cdm_utf8_encode(0xdfff, out), 0);
	assert_int_equal(out[0], 'x');                  /* nothing written */
}

static void test_above_max(void **state)
{
	char out[CDM_UTF8_MAX] = "x";

	(void)state;
	refused("\xf4\x90\x80\x80", 4);                 /* U+110000 */
	refused("\xf5\x80\x80\x80", 4);
	refused("\xf7\xbf\xbf\xbf", 4);
	refused("\xf8\x88\x80\x80\x80", 5);             /* the old 5-byte form */
	refused("\xfc\x84\x80\x80\x80\x80", 6);         /* the old 6-byte form */
	refused("\xfe", 1);
	refused("\xff", 1);
	assert_int_equal(cdm_utf8_encode(0x110000, out), 0);
	assert_int_equal(cdm_utf8_encode(UINT32_MAX, out), 0);
	assert_int_equal(out[0], 'x');
}

static void test_malformed(void **state)
{
	(void)state;
	/* lone continuation bytes */
	refused("\x80", 1);
	refused("\xbf", 1);
	/* cut short by the end of the bytes that may be read */
	refused("\xc3", 1);
	refused("\xe6\x97", 2);
	refused("\xf0\x9f\x92", 3);
	/* cut short by a byte that does not continue it */
	refused("\xc3" "a", 2);
	refused("\xe6\x97" "a", 3);
	refused("\xf0\x9f\x92\xc3\xa9", 5);
	refused("\xe6\xc3\xa9", 3);
}

/* characters as the reports count them for columns: lead and stray bytes */
static void test_chars(void **state)
{
	static const char s[] = "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x92\xbe";

	(void)state;
	assert_int_equal(cdm_utf8_chars(s, sizeof(s) - 1), 8);
	/* a cut sequence: its lead byte still counts */
	assert_int_equal(cdm_utf8_chars(s, 4), 4);
	assert_int_equal(cdm_utf8_chars(s, 5), 4);
	/* a stray continuation byte is no character; a stray lead byte is */
	assert_int_equal(cdm_utf8_chars("a\x80\xc3", 3), 2);
	/* stops at NUL */
	assert_int_equal(cdm_utf8_chars("ab\0cd", 5), 2);
	assert_true(cdm_utf8_cont(0x80) && cdm_utf8_cont(0xbf));
	assert_false(cdm_utf8_cont(0x7f) || cdm_utf8_cont(0xc0));
}

static void test_span(void **state)
{
	static const char ok[] = "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x92\xbe";

	(void)state;
	assert_int_equal(cdm_utf8_span("", 0), 0);
	assert_int_equal(cdm_utf8_span(ok, sizeof(ok) - 1), sizeof(ok) - 1);
	/* NUL is U+0000 */
	assert_int_equal(cdm_utf8_span("a\0b", 3), 3);
	/* the offset of the first byte refused */
	assert_int_equal(cdm_utf8_span("ab\xc0\xaf" "cd", 6), 2);
	assert_int_equal(cdm_utf8_span("caf\xe9", 4), 3);
	assert_int_equal(cdm_utf8_span("\xc3\xa9\xed\xa0\x80", 5), 2);
	/* a sequence cut short by @n */
	assert_int_equal(cdm_utf8_span("x\xe6\x97\xa5", 3), 1);
}

/* the one combine of a UTF-16 surrogate pair: strict, no lone surrogate */
static void test_utf16_pair(void **state)
{
	(void)state;
	assert_int_equal(cdm_utf8_utf16_pair(0xd800, 0xdc00), 0x10000);
	assert_int_equal(cdm_utf8_utf16_pair(0xd83d, 0xde00), 0x1f600);
	assert_int_equal(cdm_utf8_utf16_pair(0xdbff, 0xdfff), 0x10ffff);
	/* a low surrogate first, a high one twice, a surrogate and a letter */
	assert_int_equal(cdm_utf8_utf16_pair(0xdc00, 0xd800), 0);
	assert_int_equal(cdm_utf8_utf16_pair(0xd800, 0xd800), 0);
	assert_int_equal(cdm_utf8_utf16_pair(0xd800, 'a'), 0);
	assert_int_equal(cdm_utf8_utf16_pair('a', 0xdc00), 0);
	assert_int_equal(cdm_utf8_utf16_pair(0xd7ff, 0xdc00), 0);
	assert_int_equal(cdm_utf8_utf16_pair(0xd800, 0xe000), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_overlong),
		cmocka_unit_test(test_surrogates),
		cmocka_unit_test(test_above_max),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_chars),
		cmocka_unit_test(test_utf16_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
