/* SPDX-License-Identifier: MIT */
/*
 * text.h - the one rule for a user's text in what cdm prints: a --label,
 * a --comment, a report's Comment, a label made from a file's name, a
 * path in an error line.  Such text may hold anything a file name can
 * (newlines, escapes, bytes that are not UTF-8); made one line of valid
 * UTF-8, it can neither add nor break a line of a report, a table or an
 * error message, nor make a JSON, Markdown or SVG file invalid.
 */
#ifndef CDM_BASE_TEXT_H
#define CDM_BASE_TEXT_H

#include <stddef.h>

/*
 * cdm_text_one_line - @s made one line of valid UTF-8, in place: every
 * control character (C0, DEL; newlines, tabs, escapes) becomes a space and
 * every byte that does not belong to a well-formed UTF-8 sequence
 * (cdm_utf8_decode() of base/utf8.h, RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF) becomes '?'.  Well-formed UTF-8 is
 * kept as it is.  The length never changes.  Returns the number of bytes
 * replaced.
 */
size_t cdm_text_one_line(char *s);

#endif /* CDM_BASE_TEXT_H */
