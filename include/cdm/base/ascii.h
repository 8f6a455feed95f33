/* SPDX-License-Identifier: MIT */
/*
 * ascii.h - character classes for cdm's own parsers (sizes, test specs,
 * profiles).  The C library's isspace()/isdigit()/toupper() depend on the
 * locale; cdm's inputs are ASCII by design.  Header only.
 */
#ifndef CDM_BASE_ASCII_H
#define CDM_BASE_ASCII_H

/*
 * cdm_ascii_is_space - 1 when @c is a blank within a line (space, tab, CR,
 * VT, FF; not '\n', which ends a profile's line), else 0.
 */
static inline int cdm_ascii_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* cdm_ascii_is_digit - 1 when @c is '0'..'9', else 0 */
static inline int cdm_ascii_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* cdm_ascii_upper - @c with 'a'..'z' as 'A'..'Z'; any other byte as it is */
static inline char cdm_ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* cdm_ascii_skip_space - @s past any blanks (cdm_ascii_is_space()); never past the NUL */
static inline const char *cdm_ascii_skip_space(const char *s)
{
	while (cdm_ascii_is_space(*s))
		s++;
	return s;
}

#endif /* CDM_BASE_ASCII_H */
