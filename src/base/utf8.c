/* SPDX-License-Identifier: MIT */
/*
 * utf8.c - the one UTF-8 codec, RFC 3629 (include/cdm/base/utf8.h).
 */
#include <stdint.h>

#include "cdm/base/utf8.h"

size_t cdm_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	size_t len, i;

	if (s[0] < 0x80) {
		len = 1, c = s[0];
	} else if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, c = s[0] & 0x07;
	} else {
		return 0;       /* a continuation byte, C0/C1 (overlong), F5..FF */
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	if (cp)
		*cp = c;
	return len;
}

size_t cdm_utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;

	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t cdm_utf8_span(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n && (k = cdm_utf8_decode(u + i, n - i, NULL)))
		i += k;
	return i;
}

size_t cdm_utf8_chars(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		c += !cdm_utf8_cont((unsigned char)s[i]);
	return c;
}

uint32_t cdm_utf8_utf16_pair(uint32_t hi, uint32_t lo)
{
	if (hi < 0xd800 || hi > 0xdbff || lo < 0xdc00 || lo > 0xdfff)
		return 0;
	return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
}
