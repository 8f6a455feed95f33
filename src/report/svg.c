/* SPDX-License-Identifier: MIT */
/*
 * svg.c - the SVG helpers the drawings in src/report/ share (svg.h): the
 * document head, escaped text, text cut to a width.
 */
#include <stdio.h>
#include <string.h>

#include "cdm/base/utf8.h"
#include "cdm/base/json.h"
#include "cdm/format/fmt.h"
#include "svg.h"


void cdm_svg_head(FILE *out, int w, int h)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"" CDM_SVG_FONT "\">\n",
		w, h, w, h);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

void cdm_svg_esc(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strnlen(s, max), i = 0, l;

	while (i < n) {
		switch (p[i]) {
		case '&': fputs("&amp;", out); i++; continue;
		case '<': fputs("&lt;", out); i++; continue;
		case '>': fputs("&gt;", out); i++; continue;
		case '"': fputs("&quot;", out); i++; continue;
		}
		if (p[i] < 0x20 || p[i] == 0x7f) {
			i++;    /* XML 1.0 has no place for most of them */
		} else if ((l = cdm_utf8_decode(p + i, n - i, NULL)) != 0) {
			fwrite(p + i, 1, l, out);
			i += l;
		} else {
			fputs("\xef\xbf\xbd", out);     /* U+FFFD */
			i++;
		}
	}
}

static void text_open(FILE *out, double x, double y, const char *anchor, int size,
		      const char *extra)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>",
		x, y, anchor, size, extra ? " " : "", extra ? extra : "");
}

/*
 * @s escaped, at most @max bytes of it: a longer text cut at a character
 * boundary and ended with an ellipsis, never cut silently
 */
static void esc_cut(FILE *out, const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n <= max) {
		cdm_svg_esc(out, s, n);
		return;
	}
	n = max;
	while (n && cdm_utf8_cont((unsigned char)s[n]))
		n--;
	cdm_svg_esc(out, s, n);
	fputs(CDM_FMT_ELLIPSIS, out);
}

void cdm_svg_text(FILE *out, double x, double y, const char *anchor, int size,
		  const char *extra, const char *s)
{
	text_open(out, x, y, anchor, size, extra);
	esc_cut(out, s, 200);
	fputs("</text>\n", out);
}

void cdm_svg_tspan(FILE *out, const char *extra, const char *s)
{
	fprintf(out, "<tspan%s%s>", extra ? " " : "", extra ? extra : "");
	esc_cut(out, s, 200);
	fputs("</tspan>", out);
}

/*
 * The estimated width of one character @c in em (a UTF-8 lead byte counts
 * as a capital), from DejaVu Sans's advances rounded up: digits 0.64,
 * capitals 0.72, lower case 0.62, the widest letters 0.9, the narrow ones
 * and punctuation 0.36; bold 12 % wider.
 */
static double char_em(unsigned char c, int bold)
{
	double em;

	if (strchr("mwMW@%", c) && c)
		em = 0.9;
	else if (c >= '0' && c <= '9')
		em = 0.64;
	else if ((c >= 'A' && c <= 'Z') || c >= 0x80)
		em = 0.72;
	else if (strchr(" .,:;'!|ijlft()[]/", c))
		em = 0.36;
	else
		em = 0.62;
	return bold ? em * 1.12 : em;
}

/* the estimated width in px of the first @n bytes of @s */
static double width_n(const char *s, size_t n, int size, int bold)
{
	double w = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		if (!cdm_utf8_cont((unsigned char)s[i]))
			w += char_em((unsigned char)s[i], bold) * size;
	return w;
}

double cdm_svg_width(const char *s, int size, int bold)
{
	return width_n(s, (size_t)-1, size, bold);
}

int cdm_svg_fit_size(const char *s, int size, int min, double max_w, int bold)
{
	while (size > min && cdm_svg_width(s, size, bold) > max_w)
		size--;
	return size;
}

/* how many bytes of @s (of @n) fit in @max_w px with an ellipsis after them */
static size_t fit_bytes(const char *s, size_t n, int size, int bold, double max_w)
{
	double w = char_em(0x80, bold) * size;  /* the ellipsis */
	size_t i;

	for (i = 0; i < n; i++) {
		if (cdm_utf8_cont((unsigned char)s[i]))
			continue;
		w += char_em((unsigned char)s[i], bold) * size;
		if (w > max_w)
			break;
	}
	return i;
}

void cdm_svg_text_fit(FILE *out, double x, double y, const char *anchor, int size,
		      const char *extra, const char *s, double max_w)
{
	int bold = extra && strstr(extra, "bold");
	size_t n = strnlen(s, 1000);

	text_open(out, x, y, anchor, size, extra);
	if (width_n(s, n, size, bold) <= max_w) {
		cdm_svg_esc(out, s, n);
	} else {
		cdm_svg_esc(out, s, fit_bytes(s, n, size, bold, max_w));
		fputs(CDM_FMT_ELLIPSIS, out);
	}
	fputs("</text>\n", out);
}

unsigned int cdm_svg_text_wrap(FILE *out, double x, double y, int size, double line_h,
			       const char *extra, const char *s, double max_w,
			       unsigned int max_lines)
{
	int bold = extra && strstr(extra, "bold");
	size_t n = strnlen(s, 1000), at = 0, len, cut;
	unsigned int lines = 0;

	while (at < n && lines < max_lines) {
		len = n - at;
		if (width_n(s + at, len, size, bold) > max_w && lines + 1 < max_lines) {
			/* the last blank before the width; none: cut in a word */
			cut = fit_bytes(s + at, len, size, bold, max_w);
			len = cut;
			while (len && s[at + len] != ' ')
				len--;
			if (!len)
				len = cut ? cut : 1;
		}
		if (out) {
			char part[1001];

			memcpy(part, s + at, len);
			part[len] = '\0';
			cdm_svg_text_fit(out, x, y + lines * line_h, "start", size, extra, part, max_w);
		}
		lines++;
		at += len;
		while (at < n && s[at] == ' ')
			at++;
	}
	return lines;
}
