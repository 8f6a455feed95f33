/* SPDX-License-Identifier: MIT */
/*
 * test_text.c - the one rule for a user's text (base/text.h): control
 * characters become spaces, bytes outside well-formed UTF-8 become '?',
 * well-formed UTF-8 is kept, the length never changes; and the one
 * bounded append, cdm_text_add().
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/text.h"

/* @in made one line must be @want, with @bad bytes replaced */
static void check(const char *in, const char *want, size_t bad)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s", in);
	assert_int_equal(cdm_text_one_line(buf), bad);
	assert_string_equal(buf, want);
	assert_int_equal(strlen(buf), strlen(in));
}

/* the bounded append: whole, exact fit, cut, then nothing more */
static void test_add(void **state)
{
	char buf[8], one[1] = { 'x' };
	size_t used = 0;

	(void)state;
	assert_int_equal(cdm_text_add(buf, sizeof(buf), &used, "%s", ""), 0);
	assert_int_equal(used, 0);
	assert_string_equal(buf, "");
	assert_int_equal(cdm_text_add(buf, sizeof(buf), &used, "ab%d", 1), 0);
	assert_int_equal(cdm_text_add(buf, sizeof(buf), &used, "%s", "cde"), 0);
	assert_int_equal(used, 6);
	/* exact fit: 7 bytes and the NUL in 8 */
	assert_int_equal(cdm_text_add(buf, sizeof(buf), &used, "f"), 0);
	assert_int_equal(used, 7);
	assert_string_equal(buf, "ab1cdef");
	/* no room for one more byte: cut, counted, terminated */
	assert_int_equal(cdm_text_add(buf, sizeof(buf), &used, "gh"), -ENOSPC);
	assert_int_equal(used, 9);
	assert_string_equal(buf, "ab1cdef");
	/* cut in the middle of a text */
	used = 5;
	assert_int_equal(cdm_text_add(buf, sizeof(buf), &used, "%s", "wxyz"), -ENOSPC);
	assert_int_equal(used, 9);
	assert_string_equal(buf, "ab1cdwx");
	/* once cut, nothing more, even a text that would fit */
	assert_int_equal(cdm_text_add(buf, sizeof(buf), &used, "%s", ""), -ENOSPC);
	assert_int_equal(used, 9);
	assert_string_equal(buf, "ab1cdwx");
	/* an empty buffer: nothing written */
	used = 0;
	assert_int_equal(cdm_text_add(one, 0, &used, "abc"), -ENOSPC);
	assert_int_equal(used, 0);
	assert_int_equal(one[0], 'x');
	/* a buffer of one byte holds the NUL */
	assert_int_equal(cdm_text_add(one, sizeof(one), &used, "%s", ""), 0);
	assert_int_equal(one[0], '\0');
	assert_int_equal(cdm_text_add(one, sizeof(one), &used, "a"), -ENOSPC);
	assert_int_equal(used, 1);
	assert_int_equal(one[0], '\0');
}

static void test_controls(void **state)
{
	(void)state;
	check("bad\nrow\ttab\r\x1b[31m\x7f", "bad row tab  [31m ", 5);
	check("plain ASCII, kept", "plain ASCII, kept", 0);
	check("", "", 0);
}

static void test_utf8_kept(void **state)
{
	(void)state;
	/* 2, 3 and 4 bytes; the edges of each range; U+00A0 (NBSP) is no control */
	check("\xc3\xa9t\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x92\xbe", "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x92\xbe", 0);
	check("\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
	      "\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", 0);
	check("a\xc2\xa0" "b", "a\xc2\xa0" "b", 0);
}

static void test_not_utf8(void **state)
{
	(void)state;
	/* Latin-1, a lone continuation, overlong forms, a surrogate, above U+10FFFF */
	check("row\xff.txt", "row?.txt", 1);
	check("caf\xe9", "caf?", 1);
	check("\x80x", "?x", 1);
	check("\xc0\xaf\xc1\xbf", "????", 4);
	check("\xe0\x80\xaf", "???", 3);
	check("\xed\xa0\x80", "???", 3);
	check("\xf4\x90\x80\x80\xf5\x80", "??????", 6);
	/* a sequence cut short: by the end, by a control, by another lead byte */
	check("ok\xe6\x97", "ok??", 2);
	check("\xe6\n\xe6\x97\xa5", "? \xe6\x97\xa5", 2);
	check("\xc3\xc3\xa9", "?\xc3\xa9", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8_kept),
		cmocka_unit_test(test_not_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
