/* SPDX-License-Identifier: MIT */
/*
 * cdm_read.c - a CrystalDiskMark text report into the result model
 * (include/cdm/model/cdm_read.h): the bytes decoded to UTF-8 lines, each
 * line recognised by its form, and the first line that fits none named.
 * The forms are CDM's own printf formats (its ResultText and report
 * templates; docs/output-formats.md) and those of cdm's own text in
 * CDM's layouts (report/layout.c, text.c, text_cdm7.c, text_cdm6.c): the
 * reader is strict about the words and the punctuation and lenient about
 * the blanks between them (spaces, tabs, no-break spaces), as blog engines
 * and editors change blanks but not words, and it refuses values no
 * report prints.  Figures are
 * parsed with strtod from the printed text (cdm never calls setlocale,
 * so the C locale's '.' is the decimal point, as in every CDM report).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/date.h"
#include "cdm/base/devspec.h"
#include "cdm/base/msec.h"
#include "cdm/base/size.h"
#include "cdm/base/utf8.h"
#include "cdm/model/cdm_read.h"
#include "cdm/model/pass.h"
#include "cdm/model/spec.h"

#define UTF16_LONE 0xffu        /* an unpaired UTF-16 surrogate, decoded (utf16_to_utf8()) */
#define QUOTE_MAX 60            /* bytes of a line quoted in an error */
#define DIGITS_MAX 10           /* digits before a figure's point, at most */

/* what the product line says printed the text */
enum by {
	BY_CDM = 0,                     /* CrystalDiskMark, or not stated (trimmed) */
	BY_CDM_RUN,                     /* cdm, of a run it measured */
	BY_CDM_IMPORT,                  /* cdm, of a report it imported */
};

/* the footer lines read (struct rd.footer) */
#define F_PROFILE 0x01u
#define F_TEST 0x02u
#define F_MODE 0x04u
#define F_TIME 0x08u
#define F_DATE 0x10u
#define F_OS 0x20u
#define F_COMMENT 0x40u

/* one result line as read */
struct row {
	struct cdm_spec spec;
	enum cdm_dir dir;
	struct cdm_reported rep;
	struct cdm_steady steady;       /* cdm's text: its "Steady:" note (cdm_layout_notes()) */
	struct cdm_verify verify;       /* cdm's text: its "Verify:" line of faults (cdm_layout_verify()) */
	unsigned int line;
	unsigned int steady_line;       /* the line of its steady-state note, 0 none */
};

/* the reader's state over the lines */
struct rd {
	struct row rows[CDM_CDM_READ_TESTS_MAX];
	unsigned int nrows;
	int section;                    /* enum cdm_dir of the last head, or -1 */
	unsigned int mix_write_pct;     /* of the last [Mix] head */
	unsigned int layout;            /* of the result lines: 3, 6, 7, 8; 0 none yet */
	int old_os;                     /* an old-layout "OS :" line was the last */
	int old_comment;                /* its comment line was read */
	unsigned int line;              /* number of the line being read, from 1 */
	const char *orig;               /* that line as read, for the messages */
	int bad;                        /* -EINVAL: a token reader refused a value (err set) */
	enum by by;                     /* of the product line */
	int measure;                    /* a <Measure N sec> mark was read */
	int started;                    /* a line of the report was read (not blank, no note) */
	int utf16;                      /* the text was UTF-16, decoded (utf16_to_utf8()) */
	unsigned int footer;            /* F_*: the footer lines read */
	struct cdm_run_info info;
	struct cdm_err *err;
};

/* ---- decoding ---- */

/*
 * UTF-16 (@be: big-endian) after its BOM into a new UTF-8 buffer *@out of
 * *@olen bytes.  An unpaired surrogate is refused as JSON's "\ud800" is
 * (model/json.c): it becomes the byte UTF16_LONE, never UTF-8, which the
 * check of each line (all_lines()) refuses, naming its line.  -ENOMEM.
 */
static int utf16_to_utf8(const unsigned char *s, size_t len, int be, char **out, size_t *olen)
{
	unsigned char *o = malloc(len / 2 * 3 + 4);
	size_t i, n = 0;

	if (!o)
		return -ENOMEM;
	for (i = 0; i + 1 < len; i += 2) {
		uint32_t u = be ? (uint32_t)s[i] << 8 | s[i + 1] : (uint32_t)s[i + 1] << 8 | s[i];

		if (u >= 0xd800 && u < 0xdc00 && i + 3 < len) {
			uint32_t l = be ? (uint32_t)s[i + 2] << 8 | s[i + 3] :
				     (uint32_t)s[i + 3] << 8 | s[i + 2];

			if (l >= 0xdc00 && l < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) + (l - 0xdc00);
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

/* ---- messages ---- */

/*
 * a blank that is not a space: the no-break spaces web pages put between
 * a report's words (U+00A0, and the figure and narrow ones, U+2007,
 * U+202F); read as a space, shown escaped in a quoted line
 */
static int odd_blank(uint32_t cp)
{
	return cp == 0xa0 || cp == 0x2007 || cp == 0x202f;
}

/* invisible in a terminal: shown escaped, "\u200b" (zero-width space, BOM) */
static int invisible(uint32_t cp)
{
	return odd_blank(cp) || (cp >= 0x200b && cp <= 0x200f) || cp == 0x2060 || cp == 0xfeff;
}

/*
 * @line quoted for a message: at most QUOTE_MAX bytes of it; a tab as
 * "\t" and the invisible blanks as "\u00a0", so a line that looks right
 * shows why it is not; other unprintable bytes as '?'
 */
static void quote(char *buf, size_t blen, const char *line)
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

/* the one place a line is quoted: the line as read, not as cleaned */
#define QUOTE_BUF (QUOTE_MAX * 6 + 8)

static int not_a_line(struct rd *rd, const char *line)
{
	char q[QUOTE_BUF];

	quote(q, sizeof(q), line);
	return cdm_err_set(rd->err, -EINVAL, "line %u: not a CrystalDiskMark report line: '%s'",
			   rd->line, q);
}

/* ---- tokens: each moves *@p past what it read, or returns 0 and leaves it ---- */

static void blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/* the literal @s, after any blanks */
static int lit(const char **p, const char *s)
{
	const char *q = *p;
	size_t n = strlen(s);

	blanks(&q);
	if (strncmp(q, s, n))
		return 0;
	*p = q + n;
	return 1;
}

/* a whole number up to @max, after any blanks */
static int whole(const char **p, unsigned long long max, unsigned long long *v)
{
	const char *q = *p;
	unsigned long long x = 0;

	blanks(&q);
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

static int uns(const char **p, unsigned int max, unsigned int *v)
{
	unsigned long long x;

	if (!whole(p, max, &x))
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

	blanks(&q);
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
static int number(const char **p, double *v)
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
		quote(quoted, sizeof(quoted), tok);
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: a figure of %zu digits before the point, '%s%s': no CrystalDiskMark report prints one",
				      rd->line, whole, quoted, strlen(tok) + 1 >= sizeof(tok) ? "..." : "");
		return 0;
	}
	*v = strtod(tok, NULL);
	*p = q;
	return 1;
}

/* a figure, or the "-" cdm's text prints for one it has not (NaN) */
static int figure_or_dash(struct rd *rd, const char **p, double *v)
{
	if (lit(p, "-")) {
		*v = cdm_pass_no_figure();
		return 1;
	}
	return figure(rd, p, v);
}

/* only blanks left */
static int at_end(const char *p)
{
	blanks(&p);
	return !*p;
}

/* the literal @s, after any blanks, and nothing after it */
static int last_word(const char *p, const char *s)
{
	return lit(&p, s) && at_end(p);
}

/* ---- result lines ---- */

/* "(Q=  8, T= 1)" (7.x, 8.x) or "(Q= 32,T= 1)" (5.x, 6.x) */
static int qt(const char **p, unsigned int *q, unsigned int *t)
{
	const char *s = *p;

	if (lit(&s, "(") && lit(&s, "Q=") && uns(&s, 100000, q) && lit(&s, ",") && lit(&s, "T=") &&
	    uns(&s, 100000, t) && lit(&s, ")")) {
		*p = s;
		return 1;
	}
	return 0;
}

/*
 * The figures of a row, from its MB/s on: 1 read (rep->has = 0 when the
 * row has none: cdm's "nothing measured: ..." and "-" in place of MB/s),
 * 0 not a row's figures.  @what: IOPS and latency as in 7.x-9.x
 * (" [...IOPS] <... us>", both required), or as in 3.x-6.x (IOPS optional,
 * no latency).  A "-" in place of a figure is cdm's for a figure its run
 * has not (an imported CDM 6 report's latency): NaN.
 */
static int row_figures(struct rd *rd, const char *p, struct cdm_reported *rep, int with_lat)
{
	if (lit(&p, "nothing measured:")) {    /* cdm's row of a test without figures */
		rep->has = 0;
		return !at_end(p);
	}
	if (!figure_or_dash(rd, &p, &rep->mb_s) || !lit(&p, "MB/s"))
		return 0;
	if (with_lat) {
		if (!lit(&p, "[") || !figure_or_dash(rd, &p, &rep->iops) || !lit(&p, "IOPS]") ||
		    !lit(&p, "<") || !figure_or_dash(rd, &p, &rep->lat_us) || !lit(&p, "us>"))
			return 0;
	} else if (lit(&p, "[") && !(figure_or_dash(rd, &p, &rep->iops) && lit(&p, "IOPS]"))) {
		return 0;
	}
	if (!at_end(p))
		return 0;
	if (rep->mb_s != rep->mb_s)
		rep->has = 0;
	return 1;
}

/* 8.x: "SEQ    1MiB (Q=  8, T= 1): ..."; 7.x: "Sequential 1MiB (Q=  8, T= 1): ..." */
static int row_new(struct rd *rd, const char *p, struct row *rw, unsigned int *layout)
{
	uint64_t b;

	if (lit(&p, "SEQ ") || lit(&p, "RND ")) {
		*layout = 8;
		rw->spec.pattern = strstr(p - 4, "RND") == p - 4 ? CDM_RND : CDM_SEQ;
	} else if (lit(&p, "Sequential ")) {
		*layout = 7;
		rw->spec.pattern = CDM_SEQ;
	} else if (lit(&p, "Random ")) {
		*layout = 7;
		rw->spec.pattern = CDM_RND;
	} else {
		return 0;
	}
	/* "Sequential Read": an older layout */
	if (!cdm_size_scan_cdm(&p, &b) || !qt(&p, &rw->spec.qd, &rw->spec.threads) || !lit(&p, ":"))
		return 0;
	rw->spec.block = b;
	return row_figures(rd, p, &rw->rep, 1);
}

/* "R70/W30" of cdm's CDM 6 layout of a Mix test: its write share */
static int mix_share(const char **p, unsigned int *w)
{
	const char *q = *p;
	unsigned int r;

	if (!lit(&q, "R") || !uns(&q, 100, &r) || !lit(&q, "/W") || !uns(&q, 100, w) ||
	    r + *w != 100 || *w < CDM_MIX_MIN || *w > CDM_MIX_MAX)
		return 0;
	*p = q;
	return 1;
}

/*
 * 3.x to 6.x: "   Sequential Read (Q= 32,T= 1) :    91.559 MB/s",
 * "  Random Read 4KiB (Q=  8,T= 8) :     7.892 MB/s [   1926.8 IOPS]",
 * "         Sequential Read (T= 1) :", "   Random Read 4KB (QD=32) :",
 * "         Random Read 512KB :".  The direction is in the line.  A
 * sequential block is printed only by cdm's CDM 6 layout, for a block
 * other than CDM 6's ("Sequential Read 1MiB (Q=  8,T= 1) :"), and its Mix
 * tests have their share ("Random Mix 4KiB R70/W30 (Q=  1,T= 1) :").
 * Otherwise the block is CDM's: 5.x and 6.x read "Sequential (Q=..,T=..)"
 * in 128 KiB blocks at any Q (6.x lets Q and T be set), the plain
 * "Sequential" of 5.x ("(T= 1)") and of 3.x and 4.x in 1 MiB blocks
 * (cdm-format.md, the tests per profile).
 */
static int row_old(struct rd *rd, const char *p, struct row *rw, unsigned int *layout)
{
	uint64_t b = CDM_MIB;
	int seq, has_block;

	if (lit(&p, "Sequential "))
		seq = 1;
	else if (lit(&p, "Random "))
		seq = 0;
	else
		return 0;
	if (lit(&p, "Read"))
		rw->dir = CDM_DIR_READ;
	else if (lit(&p, "Write"))
		rw->dir = CDM_DIR_WRITE;
	else if (lit(&p, "Mix"))
		rw->dir = CDM_DIR_MIX;
	else
		return 0;
	has_block = cdm_size_scan_cdm(&p, &b);
	if (!seq && !has_block)
		return 0;
	if (rw->dir == CDM_DIR_MIX && !mix_share(&p, &rw->spec.write_pct))
		return 0;
	rw->spec.pattern = seq ? CDM_SEQ : CDM_RND;
	rw->spec.qd = rw->spec.threads = 1;
	*layout = 3;
	if (qt(&p, &rw->spec.qd, &rw->spec.threads)) {         /* 5.x, 6.x */
		*layout = 6;
		if (seq && !has_block)
			b = 128 * CDM_KIB;
	} else if (lit(&p, "(T=")) {                            /* 5.x */
		*layout = 6;
		if (!uns(&p, 100000, &rw->spec.threads) || !lit(&p, ")"))
			return 0;
	} else if (lit(&p, "(QD=")) {                           /* 3.x, 4.x */
		if (!uns(&p, 100000, &rw->spec.qd) || !lit(&p, ")"))
			return 0;
	}
	rw->spec.block = b;
	if (!lit(&p, ":"))
		return 0;
	return row_figures(rd, p, &rw->rep, 0);
}

/* the tests's limits, as cdm's own specs have them (spec.h) */
static int row_check(struct rd *rd, const struct row *rw)
{
	char name[64], why[96];

	if (cdm_spec_check(&rw->spec, CDM_THREADS_MAX, why, sizeof(why)))
		return cdm_err_set(rd->err, -EINVAL, "line %u: %s", rd->line, why);
	for (unsigned int i = 0; i < rd->nrows; i++) {
		if (rd->rows[i].dir == rw->dir && cdm_spec_same(&rd->rows[i].spec, &rw->spec)) {
			cdm_spec_name(&rw->spec, name, sizeof(name));
			return cdm_err_set(rd->err, -EINVAL, "line %u: a second %s %s result (the first is on line %u)",
					   rd->line, name, cdm_result_dir_name(rw->dir),
					   rd->rows[i].line);
		}
	}
	if (rd->nrows >= CDM_CDM_READ_TESTS_MAX)
		return cdm_err_set(rd->err, -EINVAL, "line %u: more than %d result lines", rd->line,
				   CDM_CDM_READ_TESTS_MAX);
	return 0;
}

/* a result line of any layout: 1, 0 (not one), or -EINVAL */
static int result_line(struct rd *rd, const char *p)
{
	struct row rw;
	unsigned int layout = 0;
	int ret;

	memset(&rw, 0, sizeof(rw));
	rw.rep.has = 1;
	rw.rep.iops = rw.rep.lat_us = cdm_pass_no_figure();
	if (row_new(rd, p, &rw, &layout)) {
		if (rd->section < 0)
			return cdm_err_set(rd->err, -EINVAL, "line %u: a result line before [Read], [Write] or [Mix]",
					   rd->line);
		rw.dir = (enum cdm_dir)rd->section;
		if (rw.dir == CDM_DIR_MIX)
			rw.spec.write_pct = rd->mix_write_pct;
	} else if (!row_old(rd, p, &rw, &layout)) {
		return rd->bad;         /* not a row, or one with a figure no report has */
	}
	/* one report, one layout: a CDM 7 row among CDM 8 rows is no report's */
	if (rd->layout && (rd->layout >= 7 || layout >= 7) && rd->layout != layout)
		return cdm_err_set(rd->err, -EINVAL, "line %u: a CDM %u result line among CDM %u ones",
				   rd->line, layout, rd->layout);
	if (!rd->layout || layout > rd->layout)
		rd->layout = layout;
	ret = row_check(rd, &rw);
	if (ret)
		return ret;
	/* a row without figures (cdm's "nothing measured") is no test of the result */
	if (!rw.rep.has)
		return 1;
	rw.line = rd->line;
	rd->rows[rd->nrows++] = rw;
	return 1;
}

/* "[Read]", "[Write]", "[Mix] Read 70%/Write 30%" */
static int section_line(struct rd *rd, const char *p)
{
	unsigned int r, w;

	if (!strcmp(p, "[Read]") || !strcmp(p, "[Write]")) {
		rd->section = p[1] == 'R' ? CDM_DIR_READ : CDM_DIR_WRITE;
		return 1;
	}
	if (!lit(&p, "[Mix]"))
		return 0;
	if (!lit(&p, "Read") || !uns(&p, 100, &r) || !lit(&p, "%/Write") || !uns(&p, 100, &w) ||
	    !lit(&p, "%") || !at_end(p))
		return 0;
	if (r + w != 100 || w < CDM_MIX_MIN || w > CDM_MIX_MAX)
		return cdm_err_set(rd->err, -EINVAL, "line %u: a Mix of Read %u%%/Write %u%%", rd->line,
				   r, w);
	rd->section = CDM_DIR_MIX;
	rd->mix_write_pct = w;
	return 1;
}

/* ---- header ---- */

/* "CrystalDiskMark 8.0.4 Shizuku Edition x64 (C) 2007-2021 hiyohiyo" */
static int product_line(struct rd *rd, const char *line)
{
	struct cdm_run_source *src = &rd->info.source;
	const char *p = line, *v, *c;
	unsigned int major;

	if (!lit(&p, "CrystalDiskMark "))
		return 0;
	blanks(&p);
	v = p;
	if (!uns(&p, 99, &major) || *p != '.')
		return 0;
	while (*p && *p != ' ')
		p++;
	snprintf(src->version, sizeof(src->version), "%.*s", (int)(p - v), v);
	blanks(&p);
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
 * whose figures cdm's text printed (report/layout.c) into @origin.  That
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

	if (!lit(&p, ":") || !lit(&p, "a "))
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

	blanks(&p);
	m = p;
	while (*p && *p != ' ')
		p++;
	mlen = (size_t)(p - m);
	if (!mlen || mlen >= sizeof(in->machine) || !lit(&p, "("))
		return 0;
	e = strchr(p, ',');
	if (!e || e == p || (size_t)(e - p) >= sizeof(in->engine))
		return 0;
	direct = last_word(e + 1, "O_DIRECT)") ? 1 : last_word(e + 1, "buffered)") ? 0 : -1;
	if (direct < 0)
		return 0;
	snprintf(in->machine, sizeof(in->machine), "%.*s", (int)mlen, m);
	snprintf(in->engine, sizeof(in->engine), "%.*s", (int)(e - p), p);
	/* cdm's text of a saved run that states neither (report/layout.c) */
	if (!strcmp(in->machine, "unknown"))
		in->machine[0] = '\0';
	if (!strcmp(in->engine, "unknown"))
		in->engine[0] = '\0';
	in->direct = direct;
	return 1;
}

/*
 * cdm's own product lines (report/layout.c, cdm_layout_head()), which
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

	if (!lit(&p, "cdm "))
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

/* ---- footer ---- */

/* "unknown": what cdm's text prints for a setting its run does not state */
static int unknown(const char **p)
{
	return lit(p, "unknown");
}

/*
 * "G: 0% (0/1863GiB)", "I: 11.7% (14.0/119.2 GiB)": the drive and its
 * use.  cdm's text names a mount point there, "/mnt/x: 6% (16/252GiB)",
 * "/dev/sdb: block device, ...", or "/tmp/x" alone, and "unknown" when
 * its run does not state it.
 */
static void volume(struct rd *rd, const char *s, size_t n)
{
	struct cdm_run_info *in = &rd->info;
	const char *p = in->source.volume, *colon, *c;
	double pct, used, total;
	uint64_t unit;

	if (rd->by != BY_CDM && n == 7 && !strncmp(s, "unknown", 7))
		return;
	snprintf(in->source.volume, sizeof(in->source.volume), "%.*s", (int)n, s);
	colon = strchr(p, ':');
	if (rd->by != BY_CDM) {
		/* a mount point may hold a ':'; its text ends at the last ": " */
		for (colon = NULL, c = strstr(p, ": "); c; c = strstr(c + 1, ": "))
			colon = c;
		snprintf(in->target, sizeof(in->target), "%.*s",
			 (int)(colon ? (size_t)(colon - p) : strlen(p)), p);
	} else if (colon && colon != p) {
		snprintf(in->target, sizeof(in->target), "%.*s", (int)(colon + 1 - p), p);
	}
	snprintf(in->mount_point, sizeof(in->mount_point), "%s", in->target);
	if (!colon || colon == p)
		return;
	p = colon + 1;
	if (!number(&p, &pct) || !lit(&p, "%") || !lit(&p, "(") || !number(&p, &used) ||
	    !lit(&p, "/") || !number(&p, &total))
		return;
	unit = lit(&p, "GiB") ? CDM_GIB : lit(&p, "MiB") ? CDM_MIB : 0;
	if (!unit || !lit(&p, ")") || !at_end(p) || used > total || total > 1e9)
		return;
	in->fs_total_bytes = (uint64_t)(total * (double)unit + 0.5);
	in->fs_used_bytes = (uint64_t)(used * (double)unit + 0.5);
	in->fs_avail_bytes = in->fs_total_bytes - in->fs_used_bytes;
}

/* a mark in <> or [] this reader does not know (a later CDM's): skipped */
static int other_mark(const char **pp)
{
	const char *p = *pp, *e;

	blanks(&p);
	if (*p != '<' && *p != '[')
		return 0;
	e = strchr(p, *p == '<' ? '>' : ']');
	if (!e)
		return 0;
	*pp = e + 1;
	return 1;
}

/*
 * "5 sec" of a Measure or an Interval, or "unknown" (*@has = 0), into
 * *@ms; range-checked against @min_ms..@max_ms.  cdm's own text prints a
 * fraction of a second as its decimals, "0.5 sec" (base/msec.h); a
 * CrystalDiskMark product line over it cannot: CDM's settings are whole
 * seconds, so a fraction there is refused.
 */
static int seconds(struct rd *rd, const char **p, const char *what, unsigned int min_ms,
		   unsigned int max_ms, unsigned int *ms, int *has)
{
	const char *q = *p;
	char num[32], lo[CDM_MSEC_FORMAT_MAX], hi[CDM_MSEC_FORMAT_MAX];
	uint64_t v;
	size_t n;
	int r;

	if (unknown(p)) {
		*has = 0;
		return 1;
	}
	blanks(&q);
	n = strspn(q, "0123456789.");
	if (!n || n >= sizeof(num))
		return 0;
	memcpy(num, q, n);
	num[n] = '\0';
	r = cdm_msec_parse(num, &v);
	if (r == -EINVAL)
		return 0;
	q += n;
	if (!lit(&q, "sec"))
		return 0;
	if (r == 0 && v % 1000 && rd->by == BY_CDM && rd->info.source.product[0]) {
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %s %s sec: CrystalDiskMark prints whole seconds",
				      rd->line, what, num);
		return 0;
	}
	if (r < 0 || v < min_ms || v > max_ms) {
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %s %s sec is outside %s..%s sec",
				      rd->line, what, num, cdm_msec_format(min_ms, lo, sizeof(lo)),
				      cdm_msec_format(max_ms, hi, sizeof(hi)));
		return 0;
	}
	*p = q;
	*ms = (unsigned int)v;
	*has = 1;
	return 1;
}

/* a mark that cannot be: -EINVAL in rd->bad naming the line and the mark at @m; returns 0 */
static int mark_bad(struct rd *rd, const char *m, const char *why)
{
	const char *e = strchr(m, '>');
	int n = e ? (int)(e - m) + 1 : (int)strlen(m);

	rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %.*s: %s", rd->line, n > 40 ? 40 : n, m,
			      why);
	return 0;
}

/*
 * "0-3,8>" of a <CPUs ...> mark: the list as --cpus takes it
 * (base/cpulist.h), stored in its canonical form; 1, or 0 with rd->bad
 * set when --cpus would refuse it
 */
static int cpu_list(struct rd *rd, const char *mark, const char **pp, char *dst, size_t len)
{
	unsigned short cpus[CDM_CPULIST_MAX];
	const char *p = *pp;
	char list[256];
	struct cdm_err e;
	unsigned int n;
	size_t k = 0;

	blanks(&p);
	while (((*p >= '0' && *p <= '9') || *p == ',' || *p == '-' || *p == ':' || *p == '/') &&
	       k + 1 < sizeof(list))
		list[k++] = *p++;
	list[k] = '\0';
	if (!lit(&p, ">"))
		return mark_bad(rd, mark, "not a CPU list");
	if (cdm_cpulist_parse(list, CDM_CPULIST_MAX, cpus, &n, &e) < 0)
		return mark_bad(rd, mark, e.msg);
	if (cdm_cpulist_format(cpus, n, dst, len) < 0)
		return mark_bad(rd, mark, "too long a CPU list");
	*pp = p;
	return 1;
}

/*
 * "lat=1ms,channels=1>" of a <Null device ...> mark: the null engine's
 * simulated device as --null-device takes it (base/devspec.h), stored in
 * its canonical form; 1, or 0 with rd->bad set when it is not one
 */
static int null_device(struct rd *rd, const char *mark, const char **pp, char *dst, size_t len)
{
	struct cdm_devspec spec;
	const char *p = *pp;
	char text[CDM_DEVSPEC_TEXT_MAX];
	struct cdm_err e;
	size_t k = 0;

	blanks(&p);
	while (((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("=.,;", *p)) &&
	       *p && k + 1 < sizeof(text))
		text[k++] = *p++;
	text[k] = '\0';
	if (!lit(&p, ">"))
		return mark_bad(rd, mark, "not a simulated device");
	if (cdm_devspec_parse(text, &spec, &e) < 0)
		return mark_bad(rd, mark, e.msg);
	cdm_devspec_format(&spec, dst, len);
	*pp = p;
	return 1;
}

/*
 * cdm's marks of the method of numbers that hold (report/layout.c):
 * "<EndFsync>", "<Steady-state max N>", "<Precondition>", "<Verify>",
 * "<CPUs 0-3,8>"; one of the last two that --max-rounds or --cpus would
 * refuse is refused (rd->bad)
 */
static int hold_mark(struct rd *rd, const char **pp)
{
	struct cdm_run_info *in = &rd->info;
	const char *p = *pp, *m;
	unsigned long long x;

	blanks(&p);
	m = p;
	if (lit(&p, "<EndFsync>")) {
		in->end_fsync = 1;
	} else if (lit(&p, "<Steady-state max")) {
		if (!whole(&p, CDM_MAX_PASSES, &x) || x < CDM_STEADY_WINDOW || !lit(&p, ">")) {
			char why[64];

			snprintf(why, sizeof(why), "the most rounds is %u..%u, as --max-rounds takes",
				 CDM_STEADY_WINDOW, CDM_MAX_PASSES);
			return mark_bad(rd, m, why);
		}
		in->steady_state = 1;
		in->max_rounds = (unsigned int)x;
	} else if (lit(&p, "<Precondition>")) {
		in->precondition = 1;
	} else if (lit(&p, "<Verify>")) {
		in->verify = 1;
	} else if (lit(&p, "<CPUs")) {
		if (!cpu_list(rd, m, &p, in->cpus, sizeof(in->cpus)))
			return 0;
	} else {
		return 0;
	}
	*pp = p;
	return 1;
}

/*
 * A mark of the settings that change what the figures mean: CDM's
 * "<0Fill>" and "[Admin]", and cdm's own (report/layout.c,
 * cdm_layout_marks()): "<O_DSYNC>", "<fdatasync/N>", "<Rate N IOPS>",
 * "<Null device SPEC>",
 * "<EndFsync>", "<Steady-state max N>", "<Precondition>", "<Verify>",
 * "<CPUs 0-3,8>", and in its CDM 6 and 7 layouts "<Measure N sec>"
 */
static int known_mark(struct rd *rd, const char **pp)
{
	struct cdm_run_info *in = &rd->info;
	const char *p = *pp;
	unsigned long long x;
	int has;

	if (lit(&p, "<0Fill>"))
		in->zero_fill = 1;
	else if (lit(&p, "[Admin]"))
		in->admin = 1;
	else if (lit(&p, "<O_DSYNC>"))
		in->dsync = 1;
	else if (lit(&p, "<fdatasync/") && whole(&p, ~0u, &x) && x && lit(&p, ">"))
		in->fsync_every = (unsigned int)x;
	else if (lit(&p, "<Rate") && whole(&p, ~0ull, &x) && x && lit(&p, "IOPS>"))
		in->rate_iops = x;
	else if (lit(&p, "<Null device")) {
		const char *m = *pp;

		blanks(&m);
		if (!null_device(rd, m, &p, in->null_device, sizeof(in->null_device)))
			return 0;
	}
	else if (lit(&p, "<Measure") &&
		 seconds(rd, &p, "Measure", CDM_TIME_MIN_MS, CDM_TIME_MAX_MS, &in->time_ms, &has) &&
		 has && lit(&p, ">"))
		rd->measure = 1;
	else if (!hold_mark(rd, &p))
		return 0;
	*pp = p;
	return 1;
}

/*
 * One token of a Test: line after the size: "(x5)", "[Interval: 5 sec]"
 * (7.x), "[Interval=5 sec]" (6.x), a mark (known_mark()),
 * "<DefaultAffinity=...>", or the volume in brackets (6.x, 8.x).
 */
static int test_token(struct rd *rd, const char **pp)
{
	struct cdm_run_info *in = &rd->info;
	const char *p = *pp, *e;
	unsigned long long x;

	if (lit(&p, "(x")) {
		if (unknown(&p))
			return lit(&p, ")") ? (*pp = p, 1) : 0;
		if (!whole(&p, ~0ull, &x) || !lit(&p, ")"))
			return 0;
		if (x < 1 || x > CDM_COUNT_MAX) {
			rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: (x%llu): a count outside 1..%u",
					      rd->line, x, CDM_COUNT_MAX);
			return 0;
		}
		in->count = (unsigned int)x;
		*pp = p;
		return 1;
	}
	if (lit(&p, "[Interval:") || lit(&p, "[Interval="))
		return seconds(rd, &p, "Interval", 0, CDM_TIME_MAX_MS, &in->interval_ms,
			       &in->source.has_interval) && lit(&p, "]") ? (*pp = p, 1) : 0;
	if (known_mark(rd, pp))
		return 1;
	if (rd->bad)
		return 0;
	if (lit(&p, "<"))       /* <DefaultAffinity=DISABLED> (7.x), or a later mark */
		return other_mark(pp);
	if (lit(&p, "[")) {
		e = strchr(p, ']');
		/* the volume's own brackets nest no ']' before its end */
		if (!e || memchr(p, '[', (size_t)(e - p)))
			return 0;
		if (in->source.volume[0])
			return 0;
		volume(rd, p, (size_t)(e - p));
		*pp = e + 1;
		return 1;
	}
	return 0;
}

/*
 * "1 GiB (x5) [G: 0% (0/1863GiB)]", "1024 MiB [I: ...] (x5)  [Interval=5
 * sec]"; cdm's text prints its size in any of cdm_size_format()'s units
 * ("512 KiB", "2 TiB"), or "unknown".  A size outside 512 B (one block of
 * the smallest) .. 1 PiB is no report's (CDM's are 16 MiB..64 GiB).
 */
static int test_value(struct rd *rd, const char *p)
{
	static const struct {
		const char *unit;
		unsigned long long bytes;
	} units[] = {
		{ "TiB", 1024 * CDM_GIB }, { "GiB", CDM_GIB }, { "MiB", CDM_MIB },
		{ "MB", CDM_MIB },      /* 3.x and 4.x print "1000 MB" for CDM's MiB */
		{ "KiB", CDM_KIB }, { "B", 1 },
	};
	unsigned long long n;
	unsigned int i;

	if (!unknown(&p)) {
		if (!whole(&p, ~0ull, &n))
			return 0;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (lit(&p, units[i].unit))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return 0;
		if (n > CDM_SIZE_MAX / units[i].bytes || n * units[i].bytes < CDM_SIZE_MIN ||
		    n * units[i].bytes > CDM_SIZE_MAX) {
			rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: a test size of %llu %s is outside 512 B..1 PiB",
					      rd->line, n, units[i].unit);
			return 0;
		}
		rd->info.size = n * units[i].bytes;
	}
	while (!at_end(p))
		if (!test_token(rd, &p))
			return 0;
	return 1;
}

/* "[Admin]", "<0Fill>" and cdm's marks in any order, or nothing; other marks are skipped */
static int mode_value(struct rd *rd, const char *p)
{
	while (!at_end(p))
		if (!known_mark(rd, &p) && (rd->bad || !other_mark(&p)))
			return 0;
	return 1;
}

/* "Measure 5 sec / Interval 5 sec" (8.x); cdm's text: "Measure unknown" too */
static int time_value(struct rd *rd, const char *v)
{
	struct cdm_run_info *in = &rd->info;
	int has;

	return lit(&v, "Measure") &&
	       seconds(rd, &v, "Measure", CDM_TIME_MIN_MS, CDM_TIME_MAX_MS, &in->time_ms, &has) &&
	       lit(&v, "/") && lit(&v, "Interval") &&
	       seconds(rd, &v, "Interval", 0, CDM_TIME_MAX_MS, &in->interval_ms, &in->source.has_interval) &&
	       at_end(v);
}

/* @lo to @hi digits right at *@p (no blanks before), into *@v; moves *@p past them */
static int digits(const char **p, unsigned int lo, unsigned int hi, unsigned int *v)
{
	const char *q = *p;
	unsigned int n = 0, x = 0;

	for (; *q >= '0' && *q <= '9' && n < hi; q++, n++)
		x = x * 10 + (unsigned int)(*q - '0');
	if (n < lo || (*q >= '0' && *q <= '9'))
		return 0;
	*v = x;
	*p = q;
	return 1;
}

/*
 * "2021/06/26 15:42:37": kept as text, and as the time it is in UTC.  Its
 * form is CDM's exactly (a second "7" or "007" is no report's).  A
 * date that is no day of the Gregorian calendar (Feb 29 of a year that is
 * not a leap year) or a second 60 (Windows' clock, which CDM prints, has
 * no leap second) is no report's; cdm's text prints "unknown" for a
 * report without its Date.
 */
static int date_value(struct rd *rd, const char *p)
{
	struct cdm_run_info *in = &rd->info;
	struct cdm_date dt;
	const char *v = p;
	int64_t t;

	if (unknown(&p) && at_end(p))
		return 1;
	/*
	 * CDM's "%04d/%02d/%02d %d:%02d:%02d": each field its digits, only the
	 * hour unpadded, blanks between the day and the hour only
	 */
	blanks(&p);
	blanks(&v);
	if (!digits(&p, 4, 4, &dt.year) || *p++ != '/' || !digits(&p, 2, 2, &dt.month) || *p++ != '/' ||
	    !digits(&p, 2, 2, &dt.day) || (*p != ' ' && *p != '\t'))
		return 0;
	blanks(&p);
	if (!digits(&p, 1, 2, &dt.hour) || *p++ != ':' || !digits(&p, 2, 2, &dt.min) || *p++ != ':' ||
	    !digits(&p, 2, 2, &dt.sec) || !at_end(p))
		return 0;
	if (dt.year < 1970 || dt.sec > 59 || cdm_date_to_unix(&dt, &t)) {
		char q[QUOTE_BUF];

		quote(q, sizeof(q), v);
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: no such date: '%s'", rd->line, q);
		return 0;
	}
	snprintf(in->source.date_text, sizeof(in->source.date_text), "%s", v);
	in->start = (time_t)t;
	return 1;
}

/* "Windows 10  [10.0 Build 19042] (x64)": os, [kernel], (machine) */
static void os_value(struct cdm_run_info *in, const char *p)
{
	const char *end = p + strlen(p), *b = strrchr(p, '['), *m = strrchr(p, '(');

	if (!strcmp(p, "unknown"))      /* cdm's text of a report without its OS line */
		return;
	if (m && end[-1] == ')' && (!b || m > b)) {
		snprintf(in->machine, sizeof(in->machine), "%.*s", (int)(end - m - 2), m + 1);
		end = m;
	}
	if (b && b < end) {
		const char *c = memchr(b, ']', (size_t)(end - b));

		if (c) {
			snprintf(in->kernel, sizeof(in->kernel), "%.*s", (int)(c - b - 1), b + 1);
			end = b;
		}
	}
	/*
	 * one blank is the separator; CDM's own name may end in one more
	 * ("Windows 10 "), kept so the line prints again as it was
	 */
	if (end > p && end[-1] == ' ')
		end--;
	/* cdm's "unknown [6.1.0] (x86_64)": a run that found no os-release */
	if (end - p == 7 && !strncmp(p, "unknown", 7))
		end = p;
	snprintf(in->os, sizeof(in->os), "%.*s", (int)(end - p), p);
}

/* "Key: value" (7.x, 8.x) or "Key : value" (3.x-6.x): the value, or NULL */
static const char *footer_key(const char *p, const char *key)
{
	if (!lit(&p, key) || !lit(&p, ":"))
		return NULL;
	blanks(&p);
	return p;
}

/* is the report in a layout before 7.x, by its product line or its rows? */
static int old_layout(const struct rd *rd)
{
	unsigned int l = rd->info.source.layout ? rd->info.source.layout : rd->layout;

	return l && l < 7;
}

/* the kinds of cdm's notes that name a row (note_row()): one of each per row */
enum note { NOTE_STEADY, NOTE_VERIFY, NOTE_END_FSYNC };

/*
 * The row a note of @kind names at *@pp ("SEQ1M Q8T1 Write", then a blank,
 * or ':' for a Verify note): the first row read before that has no such
 * note yet (a test run twice has a note each), and for Verify and
 * EndFsync a write or Mix row; *@pp is moved past its name (and ':').
 * NULL when the note names none.
 */
static struct row *note_row(struct rd *rd, const char **pp, enum note kind)
{
	char name[64];

	for (unsigned int i = 0; i < rd->nrows; i++) {
		struct row *rw = &rd->rows[i];
		const char *q = *pp;
		int taken = kind == NOTE_STEADY ? rw->steady.on :
			    kind == NOTE_VERIFY ? rw->verify.done || rw->verify.interrupted :
			    rw->rep.has_end_fsync;

		if (taken || (kind != NOTE_STEADY && rw->dir == CDM_DIR_READ))
			continue;
		cdm_spec_name(&rw->spec, name, sizeof(name));
		if (lit(&q, name) && lit(&q, cdm_result_dir_name(rw->dir)) &&
		    (kind == NOTE_VERIFY ? lit(&q, ":") : *q == ' ')) {
			*pp = q;
			return rw;
		}
	}
	return NULL;
}

/*
 * "(range 4.1 %, slope 2.0 %)" of a steady-state note, or "(no full window
 * of 5 measured rounds)": the percentages into @st (NaN for the latter)
 */
static int steady_judged(const char **pp, struct cdm_steady *st)
{
	const char *p = *pp;
	unsigned long long w;

	if (!lit(&p, "("))
		return 0;
	if (lit(&p, "no full window of") && whole(&p, 99, &w) && w == CDM_STEADY_WINDOW &&
	    lit(&p, "measured rounds)")) {
		st->range_pct = st->slope_pct = cdm_pass_no_figure();
	} else if (!(lit(&p, "range") && number(&p, &st->range_pct) && lit(&p, "%") && lit(&p, ",") &&
		     lit(&p, "slope") && number(&p, &st->slope_pct) && lit(&p, "%") && lit(&p, ")"))) {
		return 0;
	}
	*pp = p;
	return at_end(p);
}

/*
 * cdm's note of a test run as rounds (report/layout.c, cdm_layout_notes()):
 * "SEQ1M Q8T1 Read at round 7 of 25 (...)" after "Steady:", "RND4K Q32T1
 * Read after 25 rounds (...)" after "Not steady:", for a row read before.
 * An imported test has no rounds: the rounds a test that never got steady
 * ran are kept as its max_rounds, so the note prints again as it was.
 */
/* a steady-state note that cannot be: -EINVAL in rd->bad naming the line; returns 0 */
__attribute__((format(printf, 2, 3)))
static int steady_bad(struct rd *rd, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %s", rd->line, msg);
	return 0;
}

static int steady_note(struct rd *rd, const char *p, int reached)
{
	struct row *rw = note_row(rd, &p, NOTE_STEADY);
	struct cdm_steady st = { .on = 1 };
	unsigned long long x, m = 0;

	if (!rw)
		return 0;
	if (reached) {
		if (!lit(&p, "at round") || !whole(&p, CDM_MAX_PASSES, &x) || !x)
			return 0;
		/* PTS judges a full window: no test is steady before its last round */
		if (x < CDM_STEADY_WINDOW)
			return steady_bad(rd, "steady at round %llu, before the first full window of %u rounds",
					  x, CDM_STEADY_WINDOW);
		/* "of M": the most rounds, when the run stated it */
		if (lit(&p, "of") && (!whole(&p, CDM_MAX_PASSES, &m) || m < x))
			return 0;
		st.reached_at_round = (unsigned int)x;
	} else if (!lit(&p, "after") || !whole(&p, CDM_MAX_PASSES, &m) ||
		   !lit(&p, m == 1 ? "round" : "rounds")) {
		return 0;
	} else if (!m) {
		return steady_bad(rd, "not steady after 0 rounds: a test judged ran one at least");
	}
	st.max_rounds = (unsigned int)m;
	if (!steady_judged(&p, &st))
		return 0;
	rw->steady = st;
	rw->steady_line = rd->line;
	return 1;
}

/*
 * The steady-state notes against the <Steady-state max N> mark (read
 * after them, on the Mode line), when there is one: no test ran more
 * rounds than the most, and "of M" is that most.  0, or -EINVAL naming
 * the note's line.
 */
static int steady_check(struct rd *rd)
{
	const struct cdm_run_info *in = &rd->info;

	for (unsigned int i = 0; i < rd->nrows; i++) {
		const struct row *rw = &rd->rows[i];
		const struct cdm_steady *st = &rw->steady;
		unsigned int ran = st->reached_at_round ? st->reached_at_round : st->max_rounds;

		/* a text cut before its footer states no most: nothing to check against */
		if (!st->on || !in->steady_state)
			continue;
		if (ran > in->max_rounds)
			return cdm_err_set(rd->err, -EINVAL, "line %u: %u rounds, but the Mode line says <Steady-state max %u>",
					   rw->steady_line, ran, in->max_rounds);
		if (st->reached_at_round && st->max_rounds && st->max_rounds != in->max_rounds)
			return cdm_err_set(rd->err, -EINVAL, "line %u: of %u rounds, but the Mode line says <Steady-state max %u>",
					   rw->steady_line, st->max_rounds, in->max_rounds);
	}
	return 0;
}

/*
 * ", 2 lost writes, the first at offset 8192" or "1 torn block at offset
 * 0" of a "Verify:" line (cdm_layout_verify()): one kind's count and first
 * offset, when the line has that kind next; 1, 0 (not that kind next) or
 * -1 (that kind, badly written)
 */
static int verify_kind(const char **pp, const char *one, const char *many, uint64_t *n,
		       uint64_t *first)
{
	const char *p = *pp;
	unsigned long long c, off;

	if (**pp == ',' && !lit(&p, ","))
		return -1;
	if (!whole(&p, ~0ull >> 1, &c) || !c)
		return 0;
	if (!lit(&p, c == 1 ? one : many))
		return 0;
	if ((c > 1 && !(lit(&p, ",") && lit(&p, "the first"))) || !lit(&p, "at offset") ||
	    !whole(&p, ~0ull >> 1, &off))
		return -1;
	*n = c;
	*first = off;
	*pp = p;
	return 1;
}

/*
 * " (a sample: 1 block in 4)", " (a sample: 1 block in 4 to 1 in 16)" or
 * " (a sample)" of a "Verify:" line (cdm_fmt_verify_sample()), when the
 * line has it next: *@lo and *@hi the rates (0 when not said), 1; 0 when
 * it is badly written; 1 and *@sampled left 0 when there is none
 */
static int verify_sample(const char **pp, int *sampled, uint64_t *lo, uint64_t *hi)
{
	const char *p = *pp;
	unsigned long long a = 0, b = 0;

	if (!lit(&p, "(a sample"))
		return 1;
	if (lit(&p, ":")) {
		if (!lit(&p, "1 block in") || !whole(&p, ~0ull >> 1, &a) || a < 2)
			return 0;
		b = a;
		if (lit(&p, "to 1 in") && (!whole(&p, ~0ull >> 1, &b) || b <= a))
			return 0;
	}
	if (!lit(&p, ")"))
		return 0;
	*sampled = 1;
	*lo = a;
	*hi = b;
	*pp = p;
	return 1;
}

/*
 * "all 6 write tests read back clean, 8192 blocks[ (a sample...)]": every
 * write and Mix row read back clean.  The line states the blocks of all of
 * them, not each row's: each row's are unknown (verify.blocks_unknown),
 * the total is the text's (source.verify_blocks).  cdm's text of such a
 * text, whose total is unknown, has no ", N blocks".
 */
static int verify_clean(struct rd *rd, const char *p)
{
	unsigned long long n, blocks = 0;
	unsigned int rows = 0, kinds = 0, said;
	struct row *first = NULL, *last = NULL;
	uint64_t lo = 0, hi = 0;
	int sampled = 0;

	lit(&p, "all");
	if (!whole(&p, CDM_CDM_READ_TESTS_MAX, &n) || !n)
		return 0;
	/* the kinds the line names: 1 write, 2 Mix, 3 both */
	said = lit(&p, "write and Mix") ? 3 : lit(&p, "write") ? 1 : lit(&p, "Mix") ? 2 : 0;
	if (!said || !lit(&p, n == 1 ? "test" : "tests") || !lit(&p, "read back clean"))
		return 0;
	if (lit(&p, ",") && (!whole(&p, ~0ull >> 1, &blocks) || blocks < n ||
			     !lit(&p, blocks == 1 ? "block" : "blocks")))
		return 0;
	/* the tests verified are the first ones run (a stopped run verifies no more) */
	for (unsigned int i = 0; i < rd->nrows && rows < n; i++) {
		struct row *rw = &rd->rows[i];

		if (rw->dir == CDM_DIR_READ || rw->verify.done || rw->verify.interrupted)
			continue;
		rw->verify.done = 1;
		rw->verify.blocks_unknown = 1;
		if (!first)
			first = rw;
		last = rw;
		rows++;
		kinds |= rw->dir == CDM_DIR_MIX ? 2 : 1;
	}
	if (rows != n || !first || kinds != said)
		return 0;
	rd->info.source.verify_blocks = blocks;
	/* the sample's rates: the lowest on the first row, the highest on the last */
	if (!verify_sample(&p, &sampled, &lo, &hi) || (hi > lo && first == last))
		return 0;
	first->verify.sampled = last->verify.sampled = sampled;
	first->verify.every = lo;
	last->verify.every = hi;
	return at_end(p);
}

/*
 * cdm's "Verify:" lines (report/layout.c, cdm_layout_verify()): "all 6
 * write tests read back clean, 8192 blocks" says the run was verified
 * (which blocks each test read back, the line does not say); "RND4K Q32T1
 * Write: 1 lost write at offset 4096, ..." is one row's faults (and not
 * its blocks read back, unknown); "RND4K
 * Q1T1 Mix: no write completed, nothing checked" and "...: the read-back
 * was interrupted, not checked" one row's read-back that checked nothing;
 * "no write or Mix test, nothing read back" a run with --verify and no
 * row to read back.
 */
static int verify_note(struct rd *rd, const char *p)
{
	struct cdm_verify v = { .done = 1 };
	struct row *rw;
	uint64_t hi = 0;
	int k, any = 0;

	rd->info.verify = 1;
	/* with its blocks, or without when the total is unknown */
	if (strstr(p, " read back clean"))
		return verify_clean(rd, p);
	/* --verify on a run with no write or Mix row: nothing to read back */
	if (lit(&p, "no write or Mix test, nothing read back")) {
		for (unsigned int i = 0; i < rd->nrows; i++)
			if (rd->rows[i].dir != CDM_DIR_READ)
				return 0;
		return at_end(p);
	}
	rw = note_row(rd, &p, NOTE_VERIFY);
	if (!rw)
		return 0;
	/* a test not checked (cdm_layout_verify()): nothing written, or cut short */
	if (lit(&p, "no write completed, nothing checked") && at_end(p)) {
		rw->verify = v;
		return 1;
	}
	if (lit(&p, "the read-back was interrupted, not checked") && at_end(p)) {
		rw->verify = (struct cdm_verify){ .interrupted = 1 };
		return 1;
	}
	if ((k = verify_kind(&p, "lost write", "lost writes", &v.lost, &v.first_lost)) < 0)
		return 0;
	any |= k;
	if ((k = verify_kind(&p, "misdirected write", "misdirected writes", &v.misdirected,
			     &v.first_misdirected)) < 0)
		return 0;
	any |= k;
	/* where the first misdirected write was meant to go, when the line says it */
	if (k && lit(&p, "(meant for offset")) {
		unsigned long long off;

		if (!whole(&p, ~0ull >> 1, &off) || !lit(&p, ")"))
			return 0;
		v.meant_known = 1;
		v.first_meant = off;
	}
	if ((k = verify_kind(&p, "torn block", "torn blocks", &v.torn, &v.first_torn)) < 0)
		return 0;
	any |= k;
	if (!verify_sample(&p, &v.sampled, &v.every, &hi) || hi != v.every)
		return 0;
	if (!any || !at_end(p))
		return 0;
	if (!v.sampled)
		v.every = 1;
	/* the line names the faults, not the blocks read back */
	v.blocks_unknown = 1;
	rw->verify = v;
	return 1;
}

/* "41.2 sec (...)" of cdm's "Precondition:" note: the time it took */
static int precondition_note(struct cdm_run_info *in, const char *p)
{
	double s;

	if (last_word(p, "did not complete")) {
		in->precondition = 1;
		in->precondition_ns = 0;
		return 1;
	}
	if (!number(&p, &s) || !lit(&p, "sec") || s > 1e9)
		return 0;
	in->precondition = 1;
	/* "0.0 sec" ran, briefly: 0 would say it did not complete */
	in->precondition_ns = s > 0 ? (uint64_t)(s * 1e9 + 0.5) : 1;
	return 1;
}

/* "66.8 ms" of an "EndFsync:" note: a time in us, ms or s, into *@ns */
static int note_time(const char **pp, double *ns)
{
	const char *p = *pp;
	double v;

	if (!number(&p, &v))
		return 0;
	if (lit(&p, "us"))
		v *= 1e3;
	else if (lit(&p, "ms"))
		v *= 1e6;
	else if (lit(&p, "s"))
		v *= 1e9;
	else
		return 0;
	*ns = v;
	*pp = p;
	return 1;
}

/*
 * cdm's "EndFsync:" note (report/layout.c, cdm_layout_notes()): "SEQ1M
 * Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 80.1 ms" of a
 * write or Mix row read before, the first without one (a test run twice
 * has a note each), into its struct cdm_reported; it says the run had
 * --end-fsync.  A share above 100 % (the flush is timed inside the pass)
 * or a longest below the mean cannot be.
 */
static int end_fsync_note(struct rd *rd, const char *p)
{
	struct cdm_end_fsync_sum s = { 0 };
	struct row *rw = note_row(rd, &p, NOTE_END_FSYNC);

	if (!rw || !note_time(&p, &s.mean_ns) || !lit(&p, "per pass") || !lit(&p, "(") ||
	    !number(&p, &s.pass_pct) || !lit(&p, "%") || !lit(&p, "of the pass)") ||
	    !lit(&p, ",") || !lit(&p, "max") || !note_time(&p, &s.max_ns) || !at_end(p) ||
	    s.pass_pct > 100 || s.max_ns < s.mean_ns)
		return 0;
	rw->rep.has_end_fsync = 1;
	rw->rep.end_fsync = s;
	rd->info.end_fsync = 1;
	return 1;
}

/*
 * The footer line @key (F_* @flag) is read once: a second one (a pasted
 * report's footer twice, a line edited in) would replace the first's
 * settings without a word.  0, or -EINVAL naming the line.
 */
static int footer_once(struct rd *rd, unsigned int flag, const char *key)
{
	if (rd->footer & flag)
		return cdm_err_set(rd->err, -EINVAL, "line %u: a second %s: line in the footer",
				   rd->line, key);
	rd->footer |= flag;
	return 0;
}

/* a footer line: 1, 0 (not one), or -EINVAL */
static int footer_line(struct rd *rd, const char *p)
{
	struct cdm_run_info *in = &rd->info;
	const char *v;
	int ok = 1;

	/* each of these once: footer_once() */
	if ((v = footer_key(p, "Profile"))) {
		if (footer_once(rd, F_PROFILE, "Profile"))
			return -EINVAL;
		if (strcmp(v, "unknown"))       /* cdm's text of a report without one */
			snprintf(in->profile, sizeof(in->profile), "%s", v);
	} else if ((v = footer_key(p, "Test"))) {
		if (footer_once(rd, F_TEST, "Test"))
			return -EINVAL;
		ok = test_value(rd, v);
	} else if ((v = footer_key(p, "Mode"))) {
		if (footer_once(rd, F_MODE, "Mode"))
			return -EINVAL;
		ok = mode_value(rd, v);
	} else if ((v = footer_key(p, "Time"))) {
		if (footer_once(rd, F_TIME, "Time"))
			return -EINVAL;
		ok = time_value(rd, v);
	} else if ((v = footer_key(p, "Date"))) {
		if (footer_once(rd, F_DATE, "Date"))
			return -EINVAL;
		ok = date_value(rd, v);
	} else if ((v = footer_key(p, "OS"))) {
		if (footer_once(rd, F_OS, "OS"))
			return -EINVAL;
		os_value(in, v);
		/* 3.x-6.x: the line after it is the comment ("  " + comment) */
		rd->old_os = old_layout(rd);
	} else if ((v = footer_key(p, "Comment"))) {
		if (footer_once(rd, F_COMMENT, "Comment"))
			return -EINVAL;
		snprintf(in->comment, sizeof(in->comment), "%s", v);
	} else if ((v = footer_key(p, "Steady")) || (v = footer_key(p, "Not steady"))) {
		/* cdm's notes between the sections and the footer (cdm_layout_notes()) */
		ok = steady_note(rd, v, p[0] == 'S');
	} else if ((v = footer_key(p, "Verify"))) {
		ok = verify_note(rd, v);
	} else if ((v = footer_key(p, "EndFsync"))) {
		ok = end_fsync_note(rd, v);
	} else if ((v = footer_key(p, "Precondition"))) {
		ok = precondition_note(in, v);
	} else if ((v = footer_key(p, "NUMA"))) {
		snprintf(in->numa_warning, sizeof(in->numa_warning), "%s", v);
	} else {
		return 0;
	}
	if (rd->bad)
		return rd->bad;
	if (!ok) {
		char q[QUOTE_BUF];

		quote(q, sizeof(q), rd->orig);
		return cdm_err_set(rd->err, -EINVAL, "line %u: not a CrystalDiskMark footer line: '%s'",
				   rd->line, q);
	}
	return 1;
}

/* ---- lines ---- */

/*
 * @line with every tab and no-break space (odd_blank()) as one space, in
 * place (it only shrinks): blog engines and editors put them where CDM
 * printed spaces
 */
static void spaces(char *line)
{
	unsigned char *s = (unsigned char *)line, *o = s;
	size_t k;
	uint32_t cp;

	while (*s) {
		if (*s >= 0x80 && (k = cdm_utf8_decode(s, strlen((char *)s), &cp)) && odd_blank(cp)) {
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
			return not_a_line(rd, orig);
	spaces(s);
	if (*s == '>')          /* a Markdown quote, as blog posts carry reports */
		s += 1 + (s[1] == ' ');
	e = s + strlen(s);
	while (e > s && e[-1] == ' ')
		*--e = '\0';
	p = s;
	blanks(&p);
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
	ret = section_line(rd, p);
	if (!ret)
		ret = result_line(rd, p);
	if (!ret)
		ret = footer_line(rd, p);
	if (ret < 0)
		return ret;
	return ret ? 0 : not_a_line(rd, orig);
}

/* the @m bytes at @s past the blanks one_line() skips (odd ones too): where they end */
static size_t raw_blanks(const unsigned char *s, size_t m, size_t i)
{
	size_t k;
	uint32_t cp;

	while (i < m) {
		if (s[i] == ' ' || s[i] == '\t')
			k = 1;
		else if (s[i] < 0x80 || !(k = cdm_utf8_decode(s + i, m - i, &cp)) || !odd_blank(cp))
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

	if (!lit(&p, "CrystalDiskMark ") || !uns(&p, 99, &major) || *p != '.')
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
		 * text of one are cdm's, from the MB/s (report/layout.c), not
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
		ret = steady_check(rd);
	if (!ret)
		ret = build(rd, file, out);
	free(conv);
	free(rd);
	return ret;
}
