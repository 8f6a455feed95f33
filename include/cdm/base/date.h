/* SPDX-License-Identifier: MIT */
/*
 * date.h - the one conversion of a civil date and time in UTC to Unix
 * seconds: for a CrystalDiskMark report's Date (format/cdm_read.c) and
 * --start-at's time (run/start_at.c).  The calendar is the proleptic
 * Gregorian one (a leap year: divisible by 4, and not by 100 unless by
 * 400; ISO 8601), the count POSIX's (every day 86400 s, no leap second:
 * timegm()'s), with no time zone, locale or environment consulted.
 */
#ifndef CDM_BASE_DATE_H
#define CDM_BASE_DATE_H

#include <stdint.h>

#define CDM_DATE_YEAR_MAX 9999  /* a year of four digits, ISO 8601's without expansion */

/* a civil date and time in UTC, as written: 2021-06-22 17:19:21 */
struct cdm_date {
	unsigned int year;      /* 0..CDM_DATE_YEAR_MAX */
	unsigned int month;     /* 1..12 */
	unsigned int day;       /* 1..28, 29, 30 or 31: a day of that month */
	unsigned int hour;      /* 0..23 */
	unsigned int min;       /* 0..59 */
	unsigned int sec;       /* 0..60 */
};

/*
 * cdm_date_leap - whether @year is a leap year of the Gregorian calendar
 * (2000 is, 1900 and 2100 are not).  Returns 1 or 0.
 */
int cdm_date_leap(unsigned int year);

/*
 * cdm_date_to_unix - the seconds since 1970-01-01 00:00:00 UTC of @d
 * into *@secs: negative before 1970 (1969-12-31 23:59:59 is -1), past
 * 2^31 after 2038-01-19 03:14:07 (64-bit).  A second 60 (a leap second's
 * name) is counted as the next minute's first, as timegm() counts it.
 * Returns 0, or -EINVAL, *@secs untouched, when a field is outside its
 * range or the day is no day of its month (April 31, February 29 of a
 * year that is not a leap year).
 */
int cdm_date_to_unix(const struct cdm_date *d, int64_t *secs);

#endif /* CDM_BASE_DATE_H */
