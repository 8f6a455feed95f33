/* SPDX-License-Identifier: MIT */
/*
 * text.c - a user's text made one line of valid UTF-8
 * (include/cdm/base/text.h).
 */
#include <string.h>

#include "cdm/base/text.h"
#include "cdm/base/utf8.h"

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
		n = cdm_utf8_decode(u, strnlen((const char *)u, CDM_UTF8_MAX), NULL);
		if (!n) {
			*u++ = '?';
			bad++;
			continue;
		}
		u += n;
	}
	return bad;
}
