/* SPDX-License-Identifier: MIT */
/*
 * uint.h - whole decimal numbers, as cdm's options and profile keys take
 * them (count, time, Q, T, percentages).
 */
#ifndef CDM_BASE_UINT_H
#define CDM_BASE_UINT_H

#include <stdint.h>

/*
 * cdm_uint_parse - a whole decimal number in [@min, @max] with nothing
 * after it, into *@out.  Returns 0, -EINVAL (not a number) or -ERANGE (out
 * of range).
 */
int cdm_uint_parse(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out);

/*
 * cdm_uint_scan - the digits at *@sp into *@val, moving *@sp past every
 * digit (none: *@val = 0).  Returns 1 when the number is above @cap:
 * *@val is then @cap + 1 (or UINT64_MAX when @cap is UINT64_MAX), so the
 * caller's range check names the limit instead of reporting junk; else 0.
 * For parsers that read a number inside a longer text (test specs).
 */
int cdm_uint_scan(const char **sp, uint64_t cap, uint64_t *val);

#endif /* CDM_BASE_UINT_H */
