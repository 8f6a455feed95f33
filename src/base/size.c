/* SPDX-License-Identifier: MIT */
/*
 * size.c - sizes in bytes, one grammar for every option, profile key and
 * report: K/M/G/T and KiB/MiB/GiB/TiB are powers of 1024, KB/MB/GB/TB
 * powers of 1000, a bare number is bytes (include/cdm/base/size.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/ascii.h"
#include "cdm/base/size.h"
#include "cdm/base/uint.h"

int cdm_size_parse(const char *s, uint64_t *bytes)
{
	const char *p = s;
	uint64_t v, mult = 1;
	int overflow;

	if (!s || !cdm_ascii_is_digit(*s))
		return -EINVAL;
	overflow = cdm_uint_scan(&p, UINT64_MAX, &v);
	/*
	 * A space before the unit is allowed so that cdm_size_format()'s
	 * "1 GiB" reads back; a space with no unit after it is junk.
	 */
	if (cdm_ascii_is_space(*p)) {
		p = cdm_ascii_skip_space(p);
		if (!*p)
			return -EINVAL;
	}
	if (*p) {
		/* only the unit letter is case-insensitive: "1Gb" could be bits */
		const char *units = "KMGT";
		const char *u = strchr(units, cdm_ascii_upper(*p));
		unsigned int i;

		if (*p == 'B') {
			p++;
		} else if (u && *u) {
			unsigned int power = (unsigned int)(u - units) + 1;
			uint64_t base = 1024;

			p++;
			if (p[0] == 'i' && p[1] == 'B')
				p += 2;
			else if (p[0] == 'B') {
				base = 1000;
				p++;
			}
			for (i = 0; i < power; i++)
				mult *= base;
		} else {
			return -EINVAL;
		}
		if (*p)
			return -EINVAL;
	}
	if (overflow)
		return -ERANGE;
	if (v == 0)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*bytes = v * mult;
	return 0;
}

char *cdm_size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) &&
	       bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	if (len)
		snprintf(buf, len, "%llu %s", (unsigned long long)bytes, units[i]);
	return buf;
}
