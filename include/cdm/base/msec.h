/* SPDX-License-Identifier: MIT */
/*
 * msec.h - durations in milliseconds, read and printed: the one grammar of
 * every time cdm takes in seconds (--time, --interval, --warmup, the same
 * keys of a profile, cdm sweep's, --log-interval) and the one way every
 * report prints them.
 *
 * The grammar: a whole number, or one with at most 3 decimals, then
 * optionally a unit, nothing else:
 *   "2", "0.5", "1.250" - seconds (a bare number is seconds, as CDM's
 *   Measure and fio's runtime without a unit);
 *   "1.5s" - seconds;
 *   "500ms" - milliseconds, a whole number (fio's runtime=500ms).
 * So a time is a whole number of milliseconds: finer than that is refused,
 * never rounded.  No sign, blanks, exponent, hex or leading '.'; units are
 * lower case.  What range a setting takes is its caller's
 * (plan/profile.h, cdm_profile_seconds()).  docs/cdm.1 (TIMES) says the
 * same.
 */
#ifndef CDM_BASE_MSEC_H
#define CDM_BASE_MSEC_H

#include <stddef.h>
#include <stdint.h>

#define CDM_MSEC_NS 1000000ull          /* ns in a millisecond */
#define CDM_MSEC_MAX (UINT64_MAX / CDM_MSEC_NS)  /* the most parsed: fits in ns */

/* bytes that always hold cdm_msec_format() of any value, with the NUL */
#define CDM_MSEC_FORMAT_MAX 24

/*
 * cdm_msec_parse - the whole string @s as a duration, into *@ms
 * (milliseconds).  Returns 0; -EINVAL for NULL, "", a sign, blanks, junk,
 * a unit other than "s" or "ms", more than 3 decimals, or decimals with
 * "ms"; -ERANGE when it is above CDM_MSEC_MAX ms (so that it fits in ns
 * as a uint64_t).  *@ms is set only on success.
 */
int cdm_msec_parse(const char *s, uint64_t *ms);

/*
 * cdm_msec_format - @ms as seconds, the shortest exact form: "2", "0.5",
 * "1.25", "0.001", "0" (no unit, no trailing zeros, '.' whatever the
 * locale); a whole number of seconds prints as before cdm took fractions
 * ("5"), so reports and JSON of whole-second runs are unchanged.  Writes
 * at most @len bytes including the NUL (CDM_MSEC_FORMAT_MAX always
 * hold it); returns @buf.
 */
char *cdm_msec_format(uint64_t ms, char *buf, size_t len);

#endif /* CDM_BASE_MSEC_H */
