/* SPDX-License-Identifier: MIT */
/*
 * size.c - sizes in bytes, one grammar for every option, profile key,
 * test spec and report: K/M/G/T and KiB/MiB/GiB/TiB are powers of 1024,
 * KB/MB/GB/TB powers of 1000, B or a bare number is bytes, any case, blanks
 * allowed before the unit (include/cdm/base/size.h); and the block sizes
 * of CrystalDiskMark's reports as they spell them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/ascii.h"
#include "cdm/base/size.h"
#include "cdm/base/uint.h"

/* does @s start with @word, ignoring case? */
static int has_ci(const char *s, const char *word)
{
	for (; *word; s++, word++)
		if (cdm_ascii_upper(*s) != cdm_ascii_upper(*word))
			return 0;
	return 1;
}

int cdm_size_scan(const char **sp, uint64_t *bytes)
{
	const char *p = *sp, *u;
	static const char units[] = "KMGT";
	uint64_t v, mult = 1, base = 1024;
	const char *letter;
	int overflow, unit = 1;

	if (!cdm_ascii_is_digit(*p))
		return -EINVAL;
	overflow = cdm_uint_scan(&p, UINT64_MAX, &v);
	*sp = p;
	/* blanks may separate the number from its unit, never end the size */
	u = cdm_ascii_skip_space(p);
	letter = *u ? strchr(units, cdm_ascii_upper(*u)) : NULL;
	if (letter) {
		u++;
		if (has_ci(u, "iB")) {
			u += 2;
		} else if (has_ci(u, "B")) {
			base = 1000;
			u++;
		}
		for (unsigned int i = 0; i <= (unsigned int)(letter - units); i++) {
			if (mult > UINT64_MAX / base)
				overflow = 1;
			mult *= base;
		}
	} else if (has_ci(u, "B")) {
		u++;
	} else {
		unit = 0;
		u = p;
	}
	*sp = u;
	if (overflow || v > UINT64_MAX / mult)
		return -ERANGE;
	*bytes = v * mult;
	return unit;
}

const char *cdm_size_cdm_unit(const char **sp, unsigned int which, uint64_t *bytes)
{
	static const struct {
		const char *unit;
		uint64_t bytes;
		unsigned int which;
	} units[] = {
		{ "TiB", CDM_TIB, CDM_SIZE_CDM_TEST },
		{ "GiB", CDM_GIB, CDM_SIZE_CDM_TEST },
		{ "MiB", CDM_MIB, CDM_SIZE_CDM_BLOCK | CDM_SIZE_CDM_TEST },
		{ "MB", CDM_MIB, CDM_SIZE_CDM_TEST },     /* CDM 3.x and 4.x: a test size */
		{ "KiB", CDM_KIB, CDM_SIZE_CDM_BLOCK | CDM_SIZE_CDM_TEST },
		{ "KB", CDM_KIB, CDM_SIZE_CDM_BLOCK },    /* CDM 3.x and 4.x: a block */
		{ "B", 1, CDM_SIZE_CDM_BLOCK | CDM_SIZE_CDM_TEST },
	};
	const char *p = cdm_ascii_skip_space(*sp);

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].unit);

		if ((units[i].which & which) && !strncmp(p, units[i].unit, n)) {
			*bytes = units[i].bytes;
			*sp = p + n;
			return units[i].unit;
		}
	}
	return NULL;
}

int cdm_size_scan_cdm(const char **sp, uint64_t *bytes)
{
	const char *p = cdm_ascii_skip_space(*sp);
	uint64_t v, unit;

	if (!cdm_ascii_is_digit(*p) || cdm_uint_scan(&p, CDM_SIZE_CDM_N_MAX, &v) ||
	    !cdm_size_cdm_unit(&p, CDM_SIZE_CDM_BLOCK, &unit))
		return 0;
	*bytes = v * unit;
	*sp = p;
	return 1;
}

int cdm_size_parse(const char *s, uint64_t *bytes)
{
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	r = cdm_size_scan(&s, &v);
	if (r == -ERANGE && !*s)
		return -ERANGE;
	if (r < 0 || *s || v == 0)
		return -EINVAL;
	*bytes = v;
	return 0;
}

const char *cdm_size_unit(uint64_t bytes, uint64_t *n)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) &&
	       bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	*n = bytes;
	return units[i];
}

char *cdm_size_format(uint64_t bytes, char *buf, size_t len)
{
	uint64_t n;
	const char *unit = cdm_size_unit(bytes, &n);

	if (len)
		snprintf(buf, len, "%llu %s", (unsigned long long)n, unit);
	return buf;
}
