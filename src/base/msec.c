/* SPDX-License-Identifier: MIT */
/*
 * msec.c - durations as whole milliseconds: "2", "0.5", "1.5s", "500ms"
 * read exactly (no floating point: 0.1 s is 100 ms, not 100.000000001),
 * and printed back as seconds without trailing zeros
 * (include/cdm/base/msec.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/ascii.h"
#include "cdm/base/msec.h"
#include "cdm/base/uint.h"

#define DECIMALS_MAX 3

int cdm_msec_parse(const char *s, uint64_t *ms)
{
	const char *p = s;
	uint64_t whole, frac = 0, v;
	unsigned int ndec = 0;
	int over;

	if (!s || !cdm_ascii_is_digit(*p))
		return -EINVAL;
	over = cdm_uint_scan(&p, CDM_MSEC_MAX, &whole);
	if (*p == '.') {
		p++;
		if (!cdm_ascii_is_digit(*p))
			return -EINVAL;
		for (; cdm_ascii_is_digit(*p); p++, ndec++) {
			if (ndec == DECIMALS_MAX)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
		for (unsigned int i = ndec; i < DECIMALS_MAX; i++)
			frac *= 10;
	}
	if (!strcmp(p, "ms")) {
		if (ndec)
			return -EINVAL;         /* finer than a millisecond */
		v = whole;
	} else if (!strcmp(p, "s") || !*p) {
		if (whole > CDM_MSEC_MAX / 1000)
			over = 1;
		v = whole * 1000 + frac;
	} else {
		return -EINVAL;
	}
	if (over || v > CDM_MSEC_MAX)
		return -ERANGE;
	*ms = v;
	return 0;
}

char *cdm_msec_format(uint64_t ms, char *buf, size_t len)
{
	uint64_t frac = ms % 1000;
	unsigned int digits = 3;

	if (!len)
		return buf;
	if (!frac) {
		snprintf(buf, len, "%llu", (unsigned long long)(ms / 1000));
		return buf;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%llu.%0*llu", (unsigned long long)(ms / 1000), (int)digits,
		 (unsigned long long)frac);
	return buf;
}
