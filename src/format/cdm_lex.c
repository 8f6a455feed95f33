/* SPDX-License-Identifier: MIT */
/*
 * cdm_lex.c - the CrystalDiskMark text reader's tokens and the quoted line of its
 * messages (src/format/cdm_rd.h).  Figures are parsed with strtod from the
 * printed text (cdm never calls setlocale, so the C locale's '.' is the
 * decimal point, as in every CDM report).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/utf8.h"
#include "cdm/model/pass.h"
#include "cdm_rd.h"

#define DIGITS_MAX 10           /* digits before a figure's point, at most */

/*
 * a blank that is not a space: the no-break spaces web pages put between
 * a report's words (U+00A0, and the figure and narrow ones, U+2007,
 * U+202F); read as a space, shown escaped in a quoted line
 */
int cdm_cdm_lex_odd_blank(uint32_t cp)
{
	return cp == 0xa0 || cp == 0x2007 || cp == 0x202f;
}

/* invisible in a terminal: shown escaped, "\u200b" (zero-width space, BOM) */
static int invisible(uint32_t cp)
{
	return cdm_cdm_lex_odd_blank(cp) || (cp >= 0x200b && cp <= 0x200f) || cp == 0x2060 || cp == 0xfeff;
}

/*
 * @line quoted for a message: at most QUOTE_MAX bytes of it; a tab as
 * "\t" and the invisible blanks as "\u00a0", so a line that looks right
 * shows why it is not; other unprintable bytes as '?'
 */
void cdm_cdm_lex_quote(char *buf, size_t blen, const char *line)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t n = strlen(line), i = 0, o = 0, k;
	uint32_t cp;

	while (i < n && o + 12 < blen && i < QUOTE_MAX) {
		if (s[i] >= 0x80 && (k = cdm_utf8_decode(s + i, n - i, &cp)) && i + k <= QUOTE_MAX) {
			if (invisible(cp)) {
				o += (size_t)snprintf(buf + o, blen - o, "\\u%04x", (unsigned int)cp);
			} else {
				memcpy(buf + o, s + i, k);
				o += k;
			}
			i += k;
			continue;
		}
		if (s[i] == '\t') {
			memcpy(buf + o, "\\t", 2);
			o += 2;
		} else {
			buf[o++] = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
		}
		i++;
	}
	if (i < n && o + 4 < blen) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
}


int cdm_cdm_lex_not_a_line(struct rd *rd, const char *line)
{
	char q[QUOTE_BUF];

	cdm_cdm_lex_quote(q, sizeof(q), line);
	return cdm_err_set(rd->err, -EINVAL, "line %u: not a CrystalDiskMark report line: '%s'",
			   rd->line, q);
}

/* ---- tokens: each moves *@p past what it read, or returns 0 and leaves it ---- */

void cdm_cdm_lex_blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/* the literal @s, after any blanks */
int cdm_cdm_lex_lit(const char **p, const char *s)
{
	const char *q = *p;
	size_t n = strlen(s);

	cdm_cdm_lex_blanks(&q);
	if (strncmp(q, s, n))
		return 0;
	*p = q + n;
	return 1;
}

/* a whole number up to @max, after any blanks */
int cdm_cdm_lex_whole(const char **p, unsigned long long max, unsigned long long *v)
{
	const char *q = *p;
	unsigned long long x = 0;

	cdm_cdm_lex_blanks(&q);
	if (*q < '0' || *q > '9')
		return 0;
	for (; *q >= '0' && *q <= '9'; q++) {
		if (x > (max - (unsigned long long)(*q - '0')) / 10)
			return 0;
		x = x * 10 + (unsigned long long)(*q - '0');
	}
	*v = x;
	*p = q;
	return 1;
}

int cdm_cdm_lex_uns(const char **p, unsigned int max, unsigned int *v)
{
	unsigned long long x;

	if (!cdm_cdm_lex_whole(p, max, &x))
		return 0;
	*v = (unsigned int)x;
	return 1;
}

/*
 * digits, and a point and digits: the text of a number at *@p (after any
 * blanks) into @tok (@tlen bytes), *@whole the digits before the point;
 * moves *@p past it.  0 when there is none or it does not fit @tok.
 */
static int scan(const char **p, char *tok, size_t tlen, size_t *whole)
{
	const char *q = *p, *s;
	size_t n;

	cdm_cdm_lex_blanks(&q);
	s = q;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q == s)
		return 0;
	*whole = (size_t)(q - s);
	if (*q == '.') {
		q++;
		if (*q < '0' || *q > '9')
			return 0;
		while (*q >= '0' && *q <= '9')
			q++;
	}
	n = (size_t)(q - s);
	if (n >= tlen)
		n = tlen - 1;
	memcpy(tok, s, n);
	tok[n] = '\0';
	*p = q;
	return 1;
}

/* a plain number, a volume's usage "11.7" */
int cdm_cdm_lex_number(const char **p, double *v)
{
	const char *q = *p;
	char tok[40];
	size_t whole;

	if (!scan(&q, tok, sizeof(tok), &whole) || whole > 20)
		return 0;
	*v = strtod(tok, NULL);
	*p = q;
	return 1;
}

/*
 * a figure as CDM prints it, "7427.749", read with strtod from its text.
 * CDM prints none wider than its disks go (cdm's own text neither): more
 * than DIGITS_MAX digits before the point is no report's, and refused
 * (rd->bad, the message in rd->err): a double would not hold it as
 * printed.
 */
static int figure(struct rd *rd, const char **p, double *v)
{
	const char *q = *p;
	char tok[64], quoted[QUOTE_BUF];
	size_t whole;

	if (!scan(&q, tok, sizeof(tok), &whole))
		return 0;
	if (whole > DIGITS_MAX) {
		cdm_cdm_lex_quote(quoted, sizeof(quoted), tok);
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: a figure of %zu digits before the point, '%s%s': no CrystalDiskMark report prints one",
				      rd->line, whole, quoted, strlen(tok) + 1 >= sizeof(tok) ? "..." : "");
		return 0;
	}
	*v = strtod(tok, NULL);
	*p = q;
	return 1;
}

/* a figure, or the "-" cdm's text prints for one it has not (NaN) */
int cdm_cdm_lex_figure_or_dash(struct rd *rd, const char **p, double *v)
{
	if (cdm_cdm_lex_lit(p, "-")) {
		*v = cdm_pass_no_figure();
		return 1;
	}
	return figure(rd, p, v);
}

/* only blanks left */
int cdm_cdm_lex_at_end(const char *p)
{
	cdm_cdm_lex_blanks(&p);
	return !*p;
}

/* the literal @s, after any blanks, and nothing after it */
int cdm_cdm_lex_last_word(const char *p, const char *s)
{
	return cdm_cdm_lex_lit(&p, s) && cdm_cdm_lex_at_end(p);
}


/* "unknown": what cdm's text prints for a setting its run does not state */
int cdm_cdm_lex_unknown(const char **p)
{
	return cdm_cdm_lex_lit(p, "unknown");
}

