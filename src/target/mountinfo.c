/* SPDX-License-Identifier: MIT */
/*
 * mountinfo.c - one line of /proc/self/mountinfo, split into the fields
 * cdm reads (include/cdm/target/mountinfo.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/target/mountinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape_octal(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

int cdm_mountinfo_parse(const char *line, unsigned int *major, unsigned int *minor,
			char *mp, size_t mp_len, char type[32], char *src, size_t src_len)
{
	char m[4096], t[32], so[4096];
	const char *sep = strstr(line, " - ");

	if (!sep || sscanf(line, "%*s %*s %u:%u %*s %4095s", major, minor, m) != 3)
		return -EINVAL;
	if (sscanf(sep + 3, "%31s %4095s", t, so) != 2)
		return -EINVAL;
	unescape_octal(m);
	unescape_octal(so);
	snprintf(mp, mp_len, "%s", m);
	snprintf(type, 32, "%s", t);
	snprintf(src, src_len, "%s", so);
	return 0;
}
