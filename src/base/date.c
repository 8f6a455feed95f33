/* SPDX-License-Identifier: MIT */
/*
 * date.c - a civil date and time in UTC to Unix seconds
 * (include/cdm/base/date.h).
 */
#include <errno.h>

#include "cdm/base/date.h"

int cdm_date_leap(unsigned int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/*
 * days since 1970-01-01 of a valid date of the proleptic Gregorian
 * calendar: Howard Hinnant's days_from_civil(), on years from March
 * ("chrono-Compatible Low-Level Date Algorithms"), an era being the 400
 * years after which the calendar repeats (146097 days)
 */
static int64_t days_civil(int64_t y, unsigned int m, unsigned int d)
{
	int64_t era;
	unsigned int yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned int)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	return era * 146097 + (int64_t)yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

int cdm_date_to_unix(const struct cdm_date *d, int64_t *secs)
{
	static const unsigned char mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (d->year > CDM_DATE_YEAR_MAX || d->month < 1 || d->month > 12 || d->day < 1 ||
	    d->day > mdays[d->month - 1] || (d->month == 2 && d->day == 29 && !cdm_date_leap(d->year)) ||
	    d->hour > 23 || d->min > 59 || d->sec > 60)
		return -EINVAL;
	*secs = days_civil(d->year, d->month, d->day) * 86400 + d->hour * 3600 + d->min * 60 + d->sec;
	return 0;
}
