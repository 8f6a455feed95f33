/* SPDX-License-Identifier: MIT */
/*
 * svg.c - the SVG helpers the drawings in src/report/ share (svg.h): the
 * document head, escaped text, text cut to a width.
 */
#include <stdio.h>
#include <string.h>

#include "cdm/model/json.h"
#include "svg.h"

#define ELLIPSIS "\xe2\x80\xa6"         /* U+2026 */

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
		} else if ((l = cdm_json_utf8_len(p + i, n - i)) != 0) {
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

void cdm_svg_text(FILE *out, double x, double y, const char *anchor, int size,
		  const char *extra, const char *s)
{
	text_open(out, x, y, anchor, size, extra);
	cdm_svg_esc(out, s, 200);
	fputs("</text>\n", out);
}

/* the characters of @s (UTF-8 lead bytes and stray bytes; not continuations) */
static size_t chars(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

double cdm_svg_width(const char *s, int size, int bold)
{
	return (double)chars(s, (size_t)-1) * size * (bold ? 0.70 : 0.64);
}

int cdm_svg_fit_size(const char *s, int size, int min, double max_w, int bold)
{
	while (size > min && cdm_svg_width(s, size, bold) > max_w)
		size--;
	return size;
}

void cdm_svg_text_fit(FILE *out, double x, double y, const char *anchor, int size,
		      const char *extra, const char *s, double max_w)
{
	int bold = extra && strstr(extra, "bold");
	double em = size * (bold ? 0.70 : 0.64);
	size_t n = strnlen(s, 1000), keep, i, c = 0;

	text_open(out, x, y, anchor, size, extra);
	if ((double)chars(s, n) * em <= max_w) {
		cdm_svg_esc(out, s, n);
	} else {
		/* as many whole characters as fit beside the ellipsis */
		keep = max_w > em ? (size_t)(max_w / em) - 1 : 0;
		for (i = 0; i < n; i++) {
			if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == keep)
				break;
		}
		cdm_svg_esc(out, s, i);
		fputs(ELLIPSIS, out);
	}
	fputs("</text>\n", out);
}
