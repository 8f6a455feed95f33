/* SPDX-License-Identifier: MIT */
/*
 * text.c - a user's text made one line of valid UTF-8
 * (include/cdm/base/text.h).
 */
#include "cdm/base/text.h"

/*
 * The length of the well-formed UTF-8 sequence at @u (RFC 3629, table 3-7
 * of the Unicode standard), or 0 when @u does not start one.
 */
static size_t utf8_len(const unsigned char *u)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* the second byte's range rules out overlong forms, surrogates, > U+10FFFF */
	if (u[0] == 0xe0)
		lo = 0xa0;
	else if (u[0] == 0xed)
		hi = 0x9f;
	else if (u[0] == 0xf0)
		lo = 0x90;
	else if (u[0] == 0xf4)
		hi = 0x8f;
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (u[i] < 0x80 || u[i] > 0xbf)
			return 0;
	return n;
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
		/* a NUL ends the string: utf8_len() never reads past it */
		n = utf8_len(u);
		if (!n) {
			*u++ = '?';
			bad++;
			continue;
		}
		u += n;
	}
	return bad;
}
