/* SPDX-License-Identifier: MIT */
/*
 * test_msec.c - durations (base/msec.h): every accepted form read to its
 * exact milliseconds, every refusal with its error, the overflow edge,
 * and the seconds printed back without trailing zeros, round-tripping.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/msec.h"

/* @in reads as @want ms */
static void reads(const char *in, uint64_t want)
{
	uint64_t ms = 12345;

	if (cdm_msec_parse(in, &ms) != 0)
		fail_msg("'%s' refused", in);
	if (ms != want)
		fail_msg("'%s' read as %llu ms, not %llu", in, (unsigned long long)ms,
			 (unsigned long long)want);
}

/* @in is refused with @code, *ms left alone */
static void refused(const char *in, int code)
{
	uint64_t ms = 12345;
	int r = cdm_msec_parse(in, &ms);

	if (r != code)
		fail_msg("'%s' gave %d, not %d", in ? in : "(null)", r, code);
	assert_int_equal(ms, 12345);
}

static void test_parse(void **state)
{
	(void)state;
	reads("2", 2000);
	reads("0", 0);
	reads("0.5", 500);
	reads("0.1", 100);
	reads("0.05", 50);
	reads("0.001", 1);
	reads("1.25", 1250);
	reads("1.250", 1250);
	reads("1.5s", 1500);
	reads("3600s", 3600000);
	reads("500ms", 500);
	reads("0ms", 0);
	reads("1500ms", 1500);
	reads("007", 7000);
	reads("0.000", 0);
}

static void test_refused(void **state)
{
	(void)state;
	refused(NULL, -EINVAL);
	refused("", -EINVAL);
	refused("-1", -EINVAL);
	refused("+1", -EINVAL);
	refused(" 1", -EINVAL);
	refused("1 ", -EINVAL);
	refused("1 s", -EINVAL);
	refused("abc", -EINVAL);
	refused("1x", -EINVAL);
	refused("1S", -EINVAL);
	refused("1sec", -EINVAL);
	refused("1m", -EINVAL);
	refused("1us", -EINVAL);
	refused(".5", -EINVAL);
	refused("5.", -EINVAL);
	refused("5.s", -EINVAL);
	refused("1.2345", -EINVAL);     /* finer than a millisecond */
	refused("1.0000", -EINVAL);
	refused("0.5ms", -EINVAL);
	refused("1e3", -EINVAL);
	refused("0x10", -EINVAL);
	refused("1,5", -EINVAL);
	refused("s", -EINVAL);
	refused("ms", -EINVAL);
	refused("1.5.1", -EINVAL);
}

/* the most that fits in ns, and one more, in each unit */
static void test_range(void **state)
{
	char s[64];

	(void)state;
	snprintf(s, sizeof(s), "%llums", (unsigned long long)CDM_MSEC_MAX);
	reads(s, CDM_MSEC_MAX);
	assert_true(CDM_MSEC_MAX * CDM_MSEC_NS / CDM_MSEC_NS == CDM_MSEC_MAX);
	snprintf(s, sizeof(s), "%llums", (unsigned long long)CDM_MSEC_MAX + 1);
	refused(s, -ERANGE);
	snprintf(s, sizeof(s), "%llu.%03llu", (unsigned long long)(CDM_MSEC_MAX / 1000),
		 (unsigned long long)(CDM_MSEC_MAX % 1000));
	reads(s, CDM_MSEC_MAX);
	snprintf(s, sizeof(s), "%llu.999", (unsigned long long)(CDM_MSEC_MAX / 1000));
	refused(s, -ERANGE);
	snprintf(s, sizeof(s), "%llus", (unsigned long long)(CDM_MSEC_MAX / 1000) + 1);
	refused(s, -ERANGE);
	refused("18446744073709551616", -ERANGE);
	refused("99999999999999999999999999999.5s", -ERANGE);
	refused("99999999999999999999999999999ms", -ERANGE);
	/* junk after a huge number is junk, not a range */
	refused("99999999999999999999999999999x", -EINVAL);
}

/* @ms prints as @want, and reads back as @ms */
static void prints(uint64_t ms, const char *want)
{
	char buf[CDM_MSEC_FORMAT_MAX];
	uint64_t back;

	assert_string_equal(cdm_msec_format(ms, buf, sizeof(buf)), want);
	assert_int_equal(cdm_msec_parse(buf, &back), 0);
	assert_true(back == ms);
}

static void test_format(void **state)
{
	char buf[CDM_MSEC_FORMAT_MAX], small[4];

	(void)state;
	prints(0, "0");
	prints(1, "0.001");
	prints(10, "0.01");
	prints(100, "0.1");
	prints(500, "0.5");
	prints(1000, "1");
	prints(1250, "1.25");
	prints(1005, "1.005");
	prints(5000, "5");
	prints(3600000, "3600");
	prints(3599999, "3599.999");
	prints(CDM_MSEC_MAX, "18446744073.709");
	/* the largest value there is fits the buffer */
	assert_true(strlen(cdm_msec_format(UINT64_MAX, buf, sizeof(buf))) < sizeof(buf));
	assert_string_equal(buf, "18446744073709551.615");
	/* cut, but terminated */
	assert_string_equal(cdm_msec_format(1250, small, sizeof(small)), "1.2");
	assert_ptr_equal(cdm_msec_format(1250, small, 0), small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
