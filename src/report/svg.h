/* SPDX-License-Identifier: MIT */
/*
 * svg.h - the SVG helpers every drawing in src/report/ shares (svg.c): the
 * document's head, text elements with their characters escaped and valid
 * UTF-8 whatever bytes a label or a path holds, and text cut to a width.
 * Used by the charts (plot.c), the result card (svg_card.c) and the
 * comparison chart (compare_svg.c).  Private to report/.  Every drawing is
 * plain SVG 1.1 (rect, line, polyline, polygon, circle, text, pattern): no script,
 * no external font, image or style sheet, so that a browser, rsvg-convert
 * and a Markdown renderer show it the same.
 */
#ifndef CDM_REPORT_SVG_H
#define CDM_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/*
 * The font of every drawing: common fonts, then the generic family, so
 * that a machine without them still draws text (never a web font).
 */
#define CDM_SVG_FONT "DejaVu Sans, Arial, Helvetica, sans-serif"

/*
 * cdm_svg_head - the XML declaration and the <svg> start tag of a @w x @h
 * px document (width, height and viewBox), with CDM_SVG_FONT, then a
 * white background.  The caller ends the document with "</svg>\n".
 */
void cdm_svg_head(FILE *out, int w, int h);

/*
 * cdm_svg_esc - write at most @max bytes of @s (stopping at a NUL) as XML
 * character data or attribute text: '&', '<', '>', '"' as entities,
 * control characters dropped, bytes that are not valid UTF-8 (RFC 3629)
 * as U+FFFD, so that the document is always well-formed XML.
 */
void cdm_svg_esc(FILE *out, const char *s, size_t max);

/*
 * cdm_svg_text - one <text> element at (@x, @y) px: @anchor "start",
 * "middle" or "end", @size the font size in px, @extra more attributes
 * ("font-weight=\"bold\"", or NULL), @s the text (escaped; at most 200
 * bytes of it: a longer one is cut at a character boundary and ended with
 * an ellipsis, never cut silently).
 */
void cdm_svg_text(FILE *out, double x, double y, const char *anchor, int size,
		  const char *extra, const char *s);

/*
 * cdm_svg_tspan - one <tspan> element inside a <text> the caller opened:
 * @extra its attributes ("class=\"ratio\"", or NULL), @s its text
 * (escaped as cdm_svg_esc(); cut as cdm_svg_text()'s).  Every text of every
 * drawing goes through cdm_svg_esc(), even a figure: "<0.01x" is one.
 */
void cdm_svg_tspan(FILE *out, const char *extra, const char *s);

/*
 * cdm_svg_text_fit - cdm_svg_text(), but @s cut at a character boundary
 * and ended with an ellipsis (U+2026) when its estimated width at @size
 * (bold when @extra says "bold") is above @max_w px (cdm_svg_width()), so
 * that it never runs into what is beside it.  At most 1000 bytes of @s.
 */
void cdm_svg_text_fit(FILE *out, double x, double y, const char *anchor, int size,
		      const char *extra, const char *s, double max_w);

/*
 * cdm_svg_width - the width in px that @s takes at font size @size, @bold
 * or not, as estimated for CDM_SVG_FONT from classes of characters
 * (DejaVu Sans's advances rounded up, svg.c): an estimate that errs on the
 * side of room, as a renderer's font may differ.
 */
double cdm_svg_width(const char *s, int size, int bold);

/*
 * cdm_svg_text_wrap - @s as lines of text at (@x, @y), @line_h px apart,
 * anchored at the start, broken at blanks so that each fits in @max_w px
 * (a word wider than that is cut), at most @max_lines of them (the last
 * one cut with an ellipsis).  @out NULL: nothing is written, the lines are
 * only counted.  Returns the number of lines.
 */
unsigned int cdm_svg_text_wrap(FILE *out, double x, double y, int size, double line_h,
			       const char *extra, const char *s, double max_w,
			       unsigned int max_lines);

/*
 * cdm_svg_fit_size - the largest font size <= @size (and >= @min) at
 * which @s fits in @max_w px by cdm_svg_width(); @min when none does.
 */
int cdm_svg_fit_size(const char *s, int size, int min, double max_w, int bold);

#endif /* CDM_REPORT_SVG_H */
