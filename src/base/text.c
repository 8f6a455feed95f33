/* SPDX-License-Identifier: MIT */
/*
 * text.c - a user's text made one line of valid UTF-8
 * (include/cdm/base/text.h).
 */
#include <stdint.h>
#include <string.h>

#include "cdm/base/text.h"

size_t cdm_text_utf8_len(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

size_t cdm_text_one_line(char *s)
{
	unsigned char *u = (unsigned char *)s;
	size_t bad = 0, n;

	while (*u) {
		if (*u < 0x20 || *u == 0x7f) {
			*u++ = ' ';
			bad++;
			continue;
		}
		/* at most 4 bytes, never past the NUL */
		n = cdm_text_utf8_len(u, strnlen((const char *)u, 4));
		if (!n) {
			*u++ = '?';
			bad++;
			continue;
		}
		u += n;
	}
	return bad;
}
