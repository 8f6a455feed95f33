/* SPDX-License-Identifier: MIT */
/*
 * text.c - a user's text made one line of valid UTF-8, and the one
 * bounded append (include/cdm/base/text.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

int cdm_text_add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return -ENOSPC;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0) {
		buf[*used] = '\0';
		*used = len;
		return -ENOSPC;
	}
	*used += (size_t)n;
	return *used < len ? 0 : -ENOSPC;
}
