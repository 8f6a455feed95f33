/* SPDX-License-Identifier: MIT */
/*
 * cdm_read.c - a CrystalDiskMark text report into the result model
 * (include/cdm/format/cdm_read.h): the bytes decoded to UTF-8 lines, each
 * line recognised by its form, and the first line that fits none named.
 * The forms are CDM's own printf formats (its ResultText and report
 * templates; docs/output-formats.md) and those of cdm's own text in
 * CDM's layouts (format/layout.c, cdm_write.c, cdm7_write.c, cdm6_write.c): the
 * reader is strict about the words and the punctuation and lenient about
 * the blanks between them (spaces, tabs, no-break spaces), as blog engines
 * and editors change blanks but not words, and it refuses values no
 * report prints.  This file decodes the bytes, cuts the lines, reads the
 * product lines and builds the result; the tokens, the result lines, the
 * footer and cdm's notes have a file each (src/format/cdm_rd.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/utf8.h"
#include "cdm/format/cdm_read.h"
#include "cdm/model/pass.h"
#include "cdm/model/spec.h"
#include "cdm_rd.h"

#define UTF16_LONE 0xffu        /* an unpaired UTF-16 surrogate, decoded (utf16_to_utf8()) */

/* ---- decoding ---- */

/*
 * UTF-16 (@be: big-endian) after its BOM into a new UTF-8 buffer *@out of
 * *@olen bytes, the pairs combined by cdm_utf8_utf16_pair().  An unpaired
 * surrogate becomes the byte UTF16_LONE, never UTF-8, which the copy of
 * each line (utf8_copy()) makes a '?', as any byte that is not UTF-8; an
 * odd last byte becomes U+FFFD.  -ENOMEM.
 */
static int utf16_to_utf8(const unsigned char *s, size_t len, int be, char **out, size_t *olen)
{
	unsigned char *o = malloc(len / 2 * 3 + 4);
	size_t i, n = 0;

	if (!o)
		return -ENOMEM;
	for (i = 0; i + 1 < len; i += 2) {
		uint32_t u = be ? (uint32_t)s[i] << 8 | s[i + 1] : (uint32_t)s[i + 1] << 8 | s[i];

		if (i + 3 < len) {
			uint32_t l = be ? (uint32_t)s[i + 2] << 8 | s[i + 3] :
				     (uint32_t)s[i + 3] << 8 | s[i + 2];
			uint32_t cp = cdm_utf8_utf16_pair(u, l);

			if (cp) {
				u = cp;
				i += 2;
			}
		}
		if (u >= 0xd800 && u < 0xe000)
			o[n++] = UTF16_LONE;
		else
			n += cdm_utf8_encode(u, (char *)o + n);
	}
	if (i < len)            /* an odd last byte is no UTF-16 code unit */
		n += cdm_utf8_encode(0xfffd, (char *)o + n);
	*out = (char *)o;
	*olen = n;
	return 0;
}

/* ---- header ---- */

/* "CrystalDiskMark 8.0.4 Shizuku Edition x64 (C) 2007-2021 hiyohiyo" */
static int product_line(struct rd *rd, const char *line)
{
	struct cdm_run_source *src = &rd->info.source;
	const char *p = line, *v, *c;
	unsigned int major;

	if (!cdm_cdm_lex_lit(&p, "CrystalDiskMark "))
		return 0;
	cdm_cdm_lex_blanks(&p);
	v = p;
	if (!cdm_cdm_lex_uns(&p, 99, &major) || *p != '.')
		return 0;
	while (*p && *p != ' ')
		p++;
	snprintf(src->version, sizeof(src->version), "%.*s", (int)(p - v), v);
	cdm_cdm_lex_blanks(&p);
	c = strstr(p, "(C)");
	if (!c)
		c = p + strlen(p);
	while (c > p && c[-1] == ' ')
		c--;
	snprintf(src->edition, sizeof(src->edition), "%.*s", (int)(c - p), p);
	snprintf(src->product, sizeof(src->product), "%s", line);
	src->layout = major >= 8 ? 8 : major == 7 ? 7 : major == 6 ? 6 : major == 5 ? 5 : 3;
	return 1;
}

/*
 * "a CrystalDiskMark 8.0.1 x64 report, imported" after "cdm VERSION:":
 * whose figures cdm's text printed (format/layout.c) into @origin.  That
 * of cdm's text of such a text, "a cdm 0.1.0 text of a CrystalDiskMark
 * 8.0.1 x64 report", names the same figures: "CrystalDiskMark 8.0.1 x64";
 * and "" for that of cdm's text of a run ("a cdm 0.1.0 text report").
 */
static int imported_line(const char *p, char *origin, size_t olen)
{
	static const char tail[] = " report, imported", of_a[] = " text of a ";
	const size_t t = sizeof(tail) - 1;
	const char *of;
	size_t n;

	if (!cdm_cdm_lex_lit(&p, ":") || !cdm_cdm_lex_lit(&p, "a "))
		return 0;
	n = strlen(p);
	if (n <= t || strcmp(p + n - t, tail))
		return 0;
	n -= t;
	if (!strncmp(p, "cdm ", 4)) {
		of = strstr(p, of_a);
		if (!of || of >= p + n) {
			origin[0] = '\0';
			return 1;
		}
		n -= (size_t)(of + sizeof(of_a) - 1 - p);
		p = of + sizeof(of_a) - 1;
	}
	snprintf(origin, olen, "%.*s", (int)n, p);
	return 1;
}

/* "x86_64 (io_uring, O_DIRECT)" of cdm's product line of a run, into @in */
static int run_line(const char *p, struct cdm_run_info *in)
{
	const char *m, *e;
	size_t mlen;
	int direct;

	cdm_cdm_lex_blanks(&p);
	m = p;
	while (*p && *p != ' ')
		p++;
	mlen = (size_t)(p - m);
	if (!mlen || mlen >= sizeof(in->machine) || !cdm_cdm_lex_lit(&p, "("))
		return 0;
	e = strchr(p, ',');
	if (!e || e == p || (size_t)(e - p) >= sizeof(in->engine))
		return 0;
	direct = cdm_cdm_lex_last_word(e + 1, "O_DIRECT)") ? 1 : cdm_cdm_lex_last_word(e + 1, "buffered)") ? 0 : -1;
	if (direct < 0)
		return 0;
	snprintf(in->machine, sizeof(in->machine), "%.*s", (int)mlen, m);
	snprintf(in->engine, sizeof(in->engine), "%.*s", (int)(e - p), p);
	/* cdm's text of a saved run that states neither (format/layout.c) */
	if (!strcmp(in->machine, "unknown"))
		in->machine[0] = '\0';
	if (!strcmp(in->engine, "unknown"))
		in->engine[0] = '\0';
	in->direct = direct;
	return 1;
}

/*
 * cdm's own product lines (format/layout.c, cdm_layout_head()), which
 * its text in every layout has: "cdm 0.1.0 x86_64 (io_uring, O_DIRECT)"
 * of a run (the machine, the engine, O_DIRECT or buffered), "cdm 0.1.0: a
 * CrystalDiskMark 8.0.1 x64 report, imported" of an imported report.
 * Nothing is kept from a line that is not one.
 */
static int cdm_product_line(struct rd *rd, const char *line)
{
	struct cdm_run_source *src = &rd->info.source;
	const char *p = line, *v;
	char origin[sizeof(src->origin)];
	size_t n;

	if (!cdm_cdm_lex_lit(&p, "cdm "))
		return 0;
	v = p;
	while (*p && *p != ' ' && *p != ':')
		p++;
	n = (size_t)(p - v);
	if (!n || n >= sizeof(src->version))
		return 0;
	if (*p == ':') {
		if (!imported_line(p, origin, sizeof(origin)))
			return 0;
		snprintf(src->origin, sizeof(src->origin), "%s", origin);
		rd->by = BY_CDM_IMPORT;
	} else {
		if (!run_line(p, &rd->info))
			return 0;
		rd->by = BY_CDM_RUN;
	}
	snprintf(src->version, sizeof(src->version), "%.*s", (int)n, v);
	snprintf(src->product, sizeof(src->product), "%s", line);
	return 1;
}

/* rules, the credit lines (CDM's, cdm's), the unit notes: nothing to keep */
static int chrome_line(const char *p)
{
	size_t n = strspn(p, "-");

	if (n >= 20 && !p[n])
		return 1;
	if (strstr(p, "Crystal Dew World") || !strcmp(p, "cdm - disk benchmark for Linux - MIT License"))
		return 1;
	return !strncmp(p, "* MB/s = ", 9) || !strncmp(p, "* KB = ", 7);
}

/* ---- lines ---- */

/*
 * @line with every tab and no-break space (cdm_cdm_lex_odd_blank()) as one space, in
 * place (it only shrinks): blog engines and editors put them where CDM
 * printed spaces
 */
static void spaces(char *line)
{
	unsigned char *s = (unsigned char *)line, *o = s;
	size_t k;
	uint32_t cp;

	while (*s) {
		if (*s >= 0x80 && (k = cdm_utf8_decode(s, strlen((char *)s), &cp)) && cdm_cdm_lex_odd_blank(cp)) {
			*o++ = ' ';
			s += k;
		} else {
			*o++ = *s == '\t' ? ' ' : *s;
			s++;
		}
	}
	*o = '\0';
}

/* one line (no line end, NUL-terminated, writable): 0 or -EINVAL */
static int one_line(struct rd *rd, char *line)
{
	char orig[CDM_CDM_READ_LINE_MAX + 1], *e, *s = line;
	const char *p;
	int ret, old_os = rd->old_os;

	snprintf(orig, sizeof(orig), "%s", line);
	rd->orig = orig;
	rd->bad = 0;
	for (e = s; *e; e++)
		if ((unsigned char)*e < 0x20 && *e != '\t')
			return cdm_cdm_lex_not_a_line(rd, orig);
	spaces(s);
	if (*s == '>')          /* a Markdown quote, as blog posts carry reports */
		s += 1 + (s[1] == ' ');
	e = s + strlen(s);
	while (e > s && e[-1] == ' ')
		*--e = '\0';
	p = s;
	cdm_cdm_lex_blanks(&p);
	/* blank, or a Markdown code fence around a pasted report */
	if (!*p || !strncmp(p, "```", 3))
		return 0;
	/*
	 * a note before the report ("# source: ...") never gets here
	 * (note_before()); a '#' line after the report's first line is no
	 * line of it (but CDM 6's comment, below, may be anything)
	 */
	rd->started = 1;
	rd->old_os = 0;
	if (old_os && !rd->old_comment) {
		/* CDM 6 ends with "  " + comment: free text after the OS line */
		rd->old_comment = 1;
		snprintf(rd->info.comment, sizeof(rd->info.comment), "%s", p);
		return 0;
	}
	if (chrome_line(p) || product_line(rd, p) || cdm_product_line(rd, p))
		return 0;
	ret = cdm_cdm_rows_section(rd, p);
	if (!ret)
		ret = cdm_cdm_rows_result(rd, p);
	if (!ret)
		ret = cdm_cdm_footer_line(rd, p);
	if (ret < 0)
		return ret;
	return ret ? 0 : cdm_cdm_lex_not_a_line(rd, orig);
}

/* the @m bytes at @s past the blanks one_line() skips (odd ones too): where they end */
static size_t raw_blanks(const unsigned char *s, size_t m, size_t i)
{
	size_t k;
	uint32_t cp;

	while (i < m) {
		if (s[i] == ' ' || s[i] == '\t')
			k = 1;
		else if (s[i] < 0x80 || !(k = cdm_utf8_decode(s + i, m - i, &cp)) || !cdm_cdm_lex_odd_blank(cp))
			break;
		i += k;
	}
	return i;
}

/*
 * Is the line of @m bytes at @s a note before the report, "# source: ..."
 * or a Markdown heading, after blanks and a Markdown quote?  No
 * CrystalDiskMark report starts with '#': such a line is skipped whatever
 * it holds, of any length and any bytes, NUL too.  The one home of that
 * rule: all_lines() asks it before one_line() sees the line.
 */
static int note_before(const struct rd *rd, const char *s, size_t m)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = raw_blanks(u, m, 0);

	if (rd->started)
		return 0;
	if (i < m && u[i] == '>')
		i = raw_blanks(u, m, i + 1);
	return i < m && u[i] == '#';
}

/*
 * The @m bytes of a line at @s into @buf (@m + 1 bytes), NUL-ended, each
 * byte that does not start well-formed UTF-8 (base/utf8.h: an overlong
 * form, a surrogate, a byte of an ANSI code page such as CP1252's é or
 * CP932's kanji, which a report saved by an old CrystalDiskMark or by
 * Notepad holds, a UTF-16 report's unpaired surrogate) made a '?', as
 * base/text.c makes a user's text one line.  What cdm reads as figures
 * is ASCII and checked by the row rules; only free text (a comment, a
 * drive name) can hold such a byte, so the report is read, not refused.
 */
static void utf8_copy(char *buf, const char *s, size_t m)
{
	size_t i = 0, k;

	while (i < m) {
		k = cdm_utf8_decode((const unsigned char *)s + i, m - i, NULL);
		if (k) {
			memcpy(buf + i, s + i, k);
			i += k;
		} else {
			buf[i++] = '?';
		}
	}
	buf[m] = '\0';
}

/*
 * every line of @text (UTF-8, @len bytes, BOM gone): 0 or -EINVAL.  Lines
 * end in LF or CRLF; a text without any LF has CR line ends (old Mac OS).
 */
static int all_lines(struct rd *rd, const char *text, size_t len)
{
	char buf[CDM_CDM_READ_LINE_MAX + 1];
	const char eol = memchr(text, '\n', len) || !memchr(text, '\r', len) ? '\n' : '\r';
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, eol, len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i, m = n;
		const char *nul;
		int ret;

		rd->line++;
		/* CR of CRLF, and the blanks editors leave (even after a CR) */
		while (m && (text[i + m - 1] == '\r' || text[i + m - 1] == ' ' || text[i + m - 1] == '\t'))
			m--;
		if (note_before(rd, text + i, m)) {
			i += n + (nl != NULL);
			continue;
		}
		nul = memchr(text + i, '\0', m);
		if (nul)
			return cdm_err_set(rd->err, -EINVAL, "line %u: a NUL byte (byte %zu of the line): not a CrystalDiskMark report line",
					   rd->line, (size_t)(nul - (text + i)) + 1);
		if (m > CDM_CDM_READ_LINE_MAX)
			return cdm_err_set(rd->err, -EINVAL, "line %u: longer than %d bytes, not a CrystalDiskMark report line",
					   rd->line, CDM_CDM_READ_LINE_MAX);
		utf8_copy(buf, text + i, m);
		ret = one_line(rd, buf);
		if (ret)
			return ret;
		i += n + (nl != NULL);
	}
	return 0;
}

/* "windows-san" for "/tmp/windows-san.txt" */
static void base_name(char *buf, size_t len, const char *file)
{
	const char *b = strrchr(file, '/'), *dot;

	b = b ? b + 1 : file;
	dot = strrchr(b, '.');
	if (!dot || dot == b)
		dot = b + strlen(b);
	snprintf(buf, len, "%.*s", (int)(dot - b), b);
}

/* the major version of a product line ("CrystalDiskMark 6.0.0 x64"), 0 when none */
static unsigned int product_major(const char *product)
{
	const char *p = product;
	unsigned int major;

	if (!cdm_cdm_lex_lit(&p, "CrystalDiskMark ") || !cdm_cdm_lex_uns(&p, 99, &major) || *p != '.')
		return 0;
	return major;
}

/*
 * The Measure time (ms) of a CrystalDiskMark whose reports print none: 6.x
 * and 7.x ran every DiskSpd pass for a fixed 5 s, not a setting ("-d5" in
 * each command of DiskBench.cpp in 6.0.1, and "int duration = 5;" in
 * DiskSpd() of 7.0.0 to 7.0.0h; 8.0 made it the Measure setting its Time
 * line prints).  @product is a product line or cdm's origin of one
 * ("CrystalDiskMark 7.0.0 x64"); 0 for any other (5.x and older
 * unchecked, a report without its product line: unknown).
 */
static unsigned int fixed_measure(const char *product)
{
	unsigned int major = product_major(product);

	return major == 6 || major == 7 ? 5000 : 0;
}

unsigned int cdm_cdm_read_implied_measure(const struct cdm_run_info *in)
{
	switch (in->source.kind) {
	case CDM_SOURCE_CDM_REPORT:
		return fixed_measure(in->source.product);
	case CDM_SOURCE_CDM_TEXT:
		/* cdm's text of a run (no origin) is a run's */
		if (in->source.origin[0])
			return fixed_measure(in->source.origin);
		return 5000;
	default:
		return 5000;
	}
}

/*
 * What the footer states of the marks, into info.source: whether the run
 * was admin, and its test data.  CDM 8 and 9 print [Admin] (or nothing)
 * on the Mode line, CDM 6 and 7 print it nowhere; <0Fill> is on the Mode
 * line in 8.x, on the Test line before (cdm's layouts print them where
 * CDM's do).  A text cut before that line states neither.  cdm's text of
 * an imported report prints a mark only when it was stated, and nothing
 * when it was not or when it was stated off: there only a mark states.
 */
static void marks_known(const struct rd *rd, struct cdm_run_info *in)
{
	unsigned int marks_line = in->source.layout >= 8 ? F_MODE : F_TEST;
	int imported = rd->by == BY_CDM_IMPORT;

	in->source.has_admin = in->admin || (!imported && (rd->footer & F_MODE));
	in->source.has_data = in->zero_fill || (!imported && (rd->footer & marks_line));
}

/* the result from what the lines gave; -ENOMEM */
static int build(struct rd *rd, const char *file, struct cdm_run_result **out)
{
	struct cdm_run_result *r = cdm_result_alloc(rd->nrows);
	struct cdm_run_info *in = &rd->info;

	if (!r)
		return cdm_err_set(rd->err, -ENOMEM, "out of memory");
	in->source.kind = rd->by == BY_CDM ? CDM_SOURCE_CDM_REPORT : CDM_SOURCE_CDM_TEXT;
	if (!in->source.layout)
		in->source.layout = rd->layout;
	marks_known(rd, in);
	/* every CDM's footer has a Test and a Date line, 7.x's and later a Profile line */
	in->source.no_footer = !(rd->footer & (F_PROFILE | F_TEST | F_DATE));
	/*
	 * cdm's CDM 6 and 7 layouts print <Measure N sec> when a run's
	 * passes were not those layouts' fixed 5 s: without it, 5 s
	 */
	if (rd->by == BY_CDM_RUN && !rd->measure && rd->layout >= 6 && rd->layout <= 7)
		in->time_ms = 5000;
	/* CDM 6's and 7's fixed 5 s, in their reports and in cdm's text of one */
	if (!in->time_ms && rd->by != BY_CDM_RUN)
		in->time_ms = fixed_measure(rd->by == BY_CDM ? in->source.product : in->source.origin);
	if (file)
		snprintf(in->source.file, sizeof(in->source.file), "%s", file);
	if (in->comment[0])
		snprintf(in->label, sizeof(in->label), "%.*s", (int)sizeof(in->label) - 1, in->comment);
	else if (file && file[0])
		base_name(in->label, sizeof(in->label), file);
	if (!in->label[0])
		snprintf(in->label, sizeof(in->label), "CrystalDiskMark report");
	/* CDM's test file bypasses the cache; cdm's product line says */
	if (rd->by != BY_CDM_RUN)
		in->direct = 1;
	r->info = *in;
	for (unsigned int i = 0; i < rd->nrows; i++) {
		struct cdm_test_result *t = &r->tests[i];

		t->spec = rd->rows[i].spec;
		t->dir = rd->rows[i].dir;
		t->qd_run = t->spec.qd;
		t->reported = rd->rows[i].rep;
		/*
		 * CDM 6 printed no IOPS for its sequential rows: those of cdm's
		 * text of one are cdm's, from the MB/s (format/layout.c), not
		 * the report's
		 */
		if (rd->by == BY_CDM_IMPORT && product_major(in->source.origin) == 6 &&
		    t->spec.pattern == CDM_SEQ)
			t->reported.iops = cdm_pass_no_figure();
		t->steady = rd->rows[i].steady;
		t->verify = rd->rows[i].verify;
		/* CDM prints a Mix test's total only */
		t->parts_unknown = t->dir == CDM_DIR_MIX;
	}
	*out = r;
	return 0;
}

/*
 * UTF-16 without its BOM: 1 little-endian, 2 big-endian, 0 not.  Its
 * ASCII has a NUL in every other byte, which no UTF-8 text has: the
 * first 256 bytes (or all) are pairs of a NUL and a byte that is not.
 */
static int utf16_no_bom(const unsigned char *u, size_t len)
{
	size_t n = (len < 256 ? len : 256) & ~(size_t)1, i;
	int le = n >= 2, be = n >= 2;

	for (i = 0; i < n && (le || be); i += 2) {
		le = le && u[i] && !u[i + 1];
		be = be && !u[i] && u[i + 1];
	}
	return le ? 1 : be ? 2 : 0;
}

int cdm_cdm_read(const char *text, size_t len, const char *file,
		 struct cdm_run_result **out, struct cdm_err *err)
{
	const unsigned char *u = (const unsigned char *)text;
	struct rd *rd;
	char *conv = NULL;
	int ret;

	*out = NULL;
	rd = calloc(1, sizeof(*rd));
	if (!rd)
		return cdm_err_set(err, -ENOMEM, "out of memory");
	rd->section = -1;
	rd->err = err;
	/* what no line fills is unknown, as in a result just allocated (-1 NUMA node) */
	cdm_result_info_init(&rd->info);
	if (len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff))) {
		ret = utf16_to_utf8(u + 2, len - 2, u[0] == 0xfe, &conv, &len);
		if (ret) {
			free(rd);
			return cdm_err_set(err, ret, "out of memory");
		}
		text = conv;
		rd->utf16 = 1;
	} else if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		text += 3;
		len -= 3;
	} else if ((ret = utf16_no_bom(u, len))) {
		free(rd);
		return cdm_err_set(err, -EINVAL, "UTF-16%s without a byte order mark: save the report as UTF-8, or as UTF-16 with its byte order mark (as CrystalDiskMark saves it)",
				   ret == 1 ? "LE" : "BE");
	}
	ret = all_lines(rd, text, len);
	if (!ret && !rd->nrows)
		ret = cdm_err_set(err, -EINVAL, "no result line: not a CrystalDiskMark report");
	if (!ret)
		ret = cdm_cdm_notes_check(rd);
	if (!ret)
		ret = build(rd, file, out);
	free(conv);
	free(rd);
	return ret;
}
