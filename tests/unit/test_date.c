/* SPDX-License-Identifier: MIT */
/*
 * test_date.c - a civil date and time in UTC to Unix seconds (base/date.h):
 * the epoch, leap days (2000 is a leap year, 1900 and 2100 are not),
 * before 1970, past 2038, the ends of the range, every field's limits,
 * and every day of 1970..2400 against the C library's timegm().
 */
#define _DEFAULT_SOURCE         /* timegm() */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cdm/base/date.h"

static int64_t secs(unsigned int y, unsigned int mo, unsigned int d, unsigned int h,
		    unsigned int mi, unsigned int s)
{
	const struct cdm_date dt = { .year = y, .month = mo, .day = d, .hour = h, .min = mi, .sec = s };
	int64_t t = 12345;

	assert_int_equal(cdm_date_to_unix(&dt, &t), 0);
	return t;
}

static void refused(unsigned int y, unsigned int mo, unsigned int d, unsigned int h,
		    unsigned int mi, unsigned int s)
{
	const struct cdm_date dt = { .year = y, .month = mo, .day = d, .hour = h, .min = mi, .sec = s };
	int64_t t = 12345;

	assert_int_equal(cdm_date_to_unix(&dt, &t), -EINVAL);
	assert_int_equal(t, 12345);     /* untouched */
}

static void test_epoch(void **state)
{
	(void)state;
	assert_int_equal(secs(1970, 1, 1, 0, 0, 0), 0);
	assert_int_equal(secs(1970, 1, 1, 0, 0, 1), 1);
	assert_int_equal(secs(1970, 1, 2, 0, 0, 0), 86400);
	/* a CrystalDiskMark report's Date (tests/fixtures/cdm-reports/cdm8-default-sata-1.txt) */
	assert_int_equal(secs(2021, 6, 22, 17, 19, 21), 1624382361);
}

static void test_leap_days(void **state)
{
	(void)state;
	assert_true(cdm_date_leap(2000));
	assert_true(cdm_date_leap(2024));
	assert_false(cdm_date_leap(1900));
	assert_false(cdm_date_leap(2100));
	assert_false(cdm_date_leap(2023));
	assert_int_equal(secs(2000, 2, 29, 0, 0, 0), 951782400);
	assert_int_equal(secs(2000, 3, 1, 0, 0, 0) - secs(2000, 2, 28, 0, 0, 0), 2 * 86400);
	assert_int_equal(secs(2100, 3, 1, 0, 0, 0), 4107542400);
	assert_int_equal(secs(2100, 3, 1, 0, 0, 0) - secs(2100, 2, 28, 0, 0, 0), 86400);
	assert_int_equal(secs(2024, 2, 29, 12, 0, 0), 1709208000);
	refused(2100, 2, 29, 0, 0, 0);
	refused(1900, 2, 29, 0, 0, 0);
	refused(2023, 2, 29, 0, 0, 0);
	refused(2024, 2, 30, 0, 0, 0);
}

static void test_before_1970(void **state)
{
	(void)state;
	assert_int_equal(secs(1969, 12, 31, 23, 59, 59), -1);
	assert_int_equal(secs(1969, 12, 31, 0, 0, 0), -86400);
	assert_int_equal(secs(1900, 1, 1, 0, 0, 0), -2208988800);
	assert_int_equal(secs(0, 1, 1, 0, 0, 0), -62167219200);        /* ISO 8601's year 0 */
	assert_int_equal(secs(0, 2, 29, 0, 0, 0), -62162121600);       /* a leap year */
}

static void test_past_2038(void **state)
{
	(void)state;
	assert_int_equal(secs(2038, 1, 19, 3, 14, 7), INT32_MAX);
	assert_int_equal(secs(2038, 1, 19, 3, 14, 8), (int64_t)INT32_MAX + 1);
	assert_int_equal(secs(2106, 2, 7, 6, 28, 16), (int64_t)UINT32_MAX + 1);
	assert_int_equal(secs(9999, 12, 31, 23, 59, 59), 253402300799);
	refused(CDM_DATE_YEAR_MAX + 1, 1, 1, 0, 0, 0);
}

static void test_fields(void **state)
{
	(void)state;
	/* a second 60 is the next minute's first, as timegm() counts it */
	assert_int_equal(secs(2016, 12, 31, 23, 59, 60), secs(2017, 1, 1, 0, 0, 0));
	refused(2021, 1, 1, 0, 0, 61);
	refused(2021, 1, 1, 0, 60, 0);
	refused(2021, 1, 1, 24, 0, 0);
	refused(2021, 0, 1, 0, 0, 0);
	refused(2021, 13, 1, 0, 0, 0);
	refused(2021, 1, 0, 0, 0, 0);
	refused(2021, 1, 32, 0, 0, 0);
	refused(2021, 4, 31, 0, 0, 0);
	refused(2021, 6, 31, 0, 0, 0);
	refused(2021, 9, 31, 0, 0, 0);
	refused(2021, 11, 31, 0, 0, 0);
	assert_int_equal(secs(2021, 12, 31, 23, 59, 59), 1640995199);
}

/* every day of 1970..2400, at a time that changes with it, as timegm() has it */
static void test_timegm(void **state)
{
	static const unsigned char mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned int n = 0;

	(void)state;
	for (unsigned int y = 1970; y <= 2400; y++) {
		for (unsigned int mo = 1; mo <= 12; mo++) {
			unsigned int last = mdays[mo - 1] + (mo == 2 && cdm_date_leap(y));

			for (unsigned int d = 1; d <= last; d++, n++) {
				struct tm tm;

				memset(&tm, 0, sizeof(tm));
				tm.tm_year = (int)y - 1900;
				tm.tm_mon = (int)mo - 1;
				tm.tm_mday = (int)d;
				tm.tm_hour = (int)(n % 24);
				tm.tm_min = (int)(n % 60);
				tm.tm_sec = (int)(n % 61);
				assert_int_equal(secs(y, mo, d, n % 24, n % 60, n % 61), (int64_t)timegm(&tm));
			}
		}
	}
	assert_int_equal(n, 157420);    /* 431 years, 105 of them leap years */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epoch),
		cmocka_unit_test(test_leap_days),
		cmocka_unit_test(test_before_1970),
		cmocka_unit_test(test_past_2038),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_timegm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
