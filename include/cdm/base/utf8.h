/* SPDX-License-Identifier: MIT */
/*
 * utf8.h - the one UTF-8 codec: a code point decoded with RFC 3629's
 * checks, a code point encoded, a buffer validated.  Well-formed UTF-8
 * (RFC 3629, section 4) has no overlong form (C0 AF for '/'), no UTF-16
 * surrogate (U+D800..U+DFFF, ED A0 80..ED BF BF), nothing above U+10FFFF
 * (F4 90 80 80 and up, F5..FF) and no sequence cut short.  Every reader
 * and writer of text uses it: base/text.c, the JSON reader (base/json.c),
 * the JSON writer (base/jsonw.c), the CrystalDiskMark report reader
 * (format/cdm_read.c, which reads what is not well-formed as '?') and the
 * SVG escaper (report/svg.c).
 */
#ifndef CDM_BASE_UTF8_H
#define CDM_BASE_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define CDM_UTF8_MAX 4          /* bytes of one code point, at most */

/*
 * cdm_utf8_decode - the code point of the well-formed UTF-8 sequence at
 * @s, of which @n bytes (>= 1) may be read, into *@cp (when @cp is not
 * NULL).  Returns its length in bytes (1-4; a NUL byte is U+0000, 1), or
 * 0 when it is not well-formed (an overlong form, a surrogate, above
 * U+10FFFF, a lone continuation byte, a sequence cut short by @n or by a
 * byte that does not continue it); *@cp is then left as it was.
 */
size_t cdm_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * cdm_utf8_encode - @cp as UTF-8 into @out (CDM_UTF8_MAX bytes of room,
 * no NUL written).  Returns the bytes written (1-4), or 0, writing
 * nothing, for a surrogate or a code point above U+10FFFF: what
 * cdm_utf8_decode() would refuse is never written.
 */
size_t cdm_utf8_encode(uint32_t cp, char *out);

/*
 * cdm_utf8_span - how many bytes of the @n at @s are well-formed UTF-8
 * from the start: @n when all are, else the offset of the first byte
 * cdm_utf8_decode() refuses.  NUL bytes are U+0000 and counted.
 */
size_t cdm_utf8_span(const char *s, size_t n);

/*
 * cdm_utf8_cont - whether byte @c continues a UTF-8 sequence (10xxxxxx)
 * rather than starting a character.  Counting the bytes that do not is how
 * the reports count a text's characters for its columns; an ill-formed byte
 * then counts as one character, as a terminal shows it.
 */
static inline int cdm_utf8_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * cdm_utf8_chars - the characters in the first @n bytes of @s (up to a NUL
 * byte): the bytes that are not cdm_utf8_cont().
 */
size_t cdm_utf8_chars(const char *s, size_t n);

/*
 * cdm_utf8_utf16_pair - the code point (U+10000..U+10FFFF) of the UTF-16
 * surrogate pair @hi (U+D800..U+DBFF) and @lo (U+DC00..U+DFFF), RFC 2781
 * section 2.2; 0 when they are no such pair, in that order.  Strict: no
 * lone surrogate is combined, and none becomes a code point; what a
 * caller makes of one is its own (base/json.c refuses it, the
 * CrystalDiskMark reader reads it as '?').  The one home of the combine.
 */
uint32_t cdm_utf8_utf16_pair(uint32_t hi, uint32_t lo);

#endif /* CDM_BASE_UTF8_H */
