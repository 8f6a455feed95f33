/* SPDX-License-Identifier: MIT */
/*
 * text.h - the one rule for a user's text in what cdm prints: a --label,
 * a --comment, a report's Comment, a label made from a file's name, a
 * path in an error line.  Such text may hold anything a file name can
 * (newlines, escapes, bytes that are not UTF-8); made one line of valid
 * UTF-8, it can neither add nor break a line of a report, a table or an
 * error message, nor make a JSON, Markdown or SVG file invalid.  And the
 * one bounded append of a text to a buffer, cdm_text_add().
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

/*
 * cdm_text_add - printf(3)'s @fmt appended to @buf (@len bytes) at
 * *@used, the length of what the buffer holds so far (0 at the start),
 * and *@used advanced by the length of the whole text, as snprintf(3)
 * counts it.  The rule of truncation: a text that does not fit is cut
 * where the buffer ends, as snprintf cuts it (a byte count, not a whole
 * character or word), and every later call adds nothing, so *@used >=
 * @len says the buffer was cut; @buf is always terminated when @len is
 * not 0 (with @len 0 nothing is written).  An encoding error of @fmt
 * ends the text where it was and sets *@used to @len.  Returns 0 when
 * the whole text fit, -ENOSPC when it (or an earlier one) did not.
 */
__attribute__((format(printf, 4, 5)))
int cdm_text_add(char *buf, size_t len, size_t *used, const char *fmt, ...);

#endif /* CDM_BASE_TEXT_H */
