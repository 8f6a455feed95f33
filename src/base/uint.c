/* SPDX-License-Identifier: MIT */
/*
 * uint.c - whole decimal numbers, strictly: no sign, no spaces, no locale,
 * a number too large is "out of range", never wrapped.
 */
#include <errno.h>

#include "cdm/base/ascii.h"
#include "cdm/base/uint.h"

int cdm_uint_scan(const char **sp, uint64_t cap, uint64_t *val)
{
	const char *s = *sp;
	uint64_t v = 0;
	int over = 0;

	for (; cdm_ascii_is_digit(*s); s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (!over && v <= (cap - d) / 10)
			v = v * 10 + d;
		else
			over = 1;
	}
	if (over)
		v = cap == UINT64_MAX ? cap : cap + 1;
	*val = v;
	*sp = s;
	return over;
}

int cdm_uint_parse(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out)
{
	const char *p = s;
	uint64_t v;

	if (!s || !cdm_ascii_is_digit(*s))
		return -EINVAL;
	if (cdm_uint_scan(&p, UINT64_MAX, &v)) {
		if (*p)
			return -EINVAL;
		return -ERANGE;
	}
	if (*p)
		return -EINVAL;
	if (v > (uint64_t)max || v < (uint64_t)min)
		return -ERANGE;
	*out = (unsigned long)v;
	return 0;
}
