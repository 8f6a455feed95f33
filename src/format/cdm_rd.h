/* SPDX-License-Identifier: MIT */
/*
 * cdm_rd.h - private interface of the CrystalDiskMark text reader
 * (include/cdm/format/cdm_read.h), used only inside model/:
 *
 *	cdm_read.c	the bytes decoded to UTF-8 lines (UTF-16 too), each line
 *			handed to the readers below, the result built
 *	cdm_lex.c	the tokens (cdm_cdm_lex_*) and the quoted line of a message
 *	cdm_rows.c	the result lines of CDM 3.x-8.x and their [Read] heads
 *	cdm_footer.c	the footer: Test, Mode, Time, Date, OS, Comment ...
 *	cdm_notes.c	cdm's own notes: Steady, Verify, EndFsync, Precondition
 *
 * Each token reader moves *@p past what it read and returns 1, or returns
 * 0 and leaves *@p as it was; "after any blanks" means spaces and tabs
 * (the odd blanks are spaces by then: cdm_cdm_lex_odd_blank()).  It
 * includes no header of cdm_read.c: the files below it use none of it.
 */
#ifndef CDM_FORMAT_CDM_RD_H
#define CDM_FORMAT_CDM_RD_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"
#include "cdm/model/spec.h"

/*
 * bytes of one line of a report at most; a longer line is no report's
 * (the reader's own limits: cdm_read.c's users need neither)
 */
#define CDM_CDM_READ_LINE_MAX 1024

/* result lines in one report at most (3 sections of CDM_MAX_TESTS) */
#define CDM_CDM_READ_TESTS_MAX (3 * CDM_MAX_TESTS)

#define QUOTE_MAX 60            /* bytes of a line quoted in an error */
#define QUOTE_BUF (QUOTE_MAX * 6 + 8)   /* a line quoted: cdm_cdm_lex_quote() */

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

/* ---- cdm_lex.c ---- */

/* U+00A0, U+2007, U+202F: a blank web pages put between words, read as a space */
int cdm_cdm_lex_odd_blank(uint32_t cp);
/* @line quoted for a message into @buf (@blen, QUOTE_BUF will do) */
void cdm_cdm_lex_quote(char *buf, size_t blen, const char *line);
/* -EINVAL "line N: not a CrystalDiskMark report line: '...'" in rd->err */
int cdm_cdm_lex_not_a_line(struct rd *rd, const char *line);
/* past spaces and tabs */
void cdm_cdm_lex_blanks(const char **p);
/* the literal @s, after any blanks */
int cdm_cdm_lex_lit(const char **p, const char *s);
/* a whole number up to @max, after any blanks */
int cdm_cdm_lex_whole(const char **p, unsigned long long max, unsigned long long *v);
/* cdm_cdm_lex_whole() into an unsigned int, up to @max */
int cdm_cdm_lex_uns(const char **p, unsigned int max, unsigned int *v);
/* a plain number ("11.7", at most 20 digits before the point) */
int cdm_cdm_lex_number(const char **p, double *v);
/* a figure as CDM prints it, or cdm's "-" (NaN); a too wide one sets rd->bad */
int cdm_cdm_lex_figure_or_dash(struct rd *rd, const char **p, double *v);
/* only blanks left */
int cdm_cdm_lex_at_end(const char *p);
/* the literal @s, after any blanks, and nothing after it */
int cdm_cdm_lex_last_word(const char *p, const char *s);
/* "unknown": what cdm's text prints for a setting its run does not state */
int cdm_cdm_lex_unknown(const char **p);

/* ---- cdm_rows.c: each 1 (read), 0 (not one) or -EINVAL (rd->err set) ---- */

/* a result line of any layout, into rd->rows */
int cdm_cdm_rows_result(struct rd *rd, const char *p);
/* "[Read]", "[Write]", "[Mix] Read 70%/Write 30%": rd->section */
int cdm_cdm_rows_section(struct rd *rd, const char *p);

/* ---- cdm_footer.c ---- */

/* a footer line, or one of cdm's notes: 1, 0 (not one), or -EINVAL */
int cdm_cdm_footer_line(struct rd *rd, const char *p);

/* ---- cdm_notes.c: the value after "Key:"; 1, or 0 (rd->bad may be set) ---- */

/* "Steady:" (@reached) or "Not steady:" */
int cdm_cdm_notes_steady(struct rd *rd, const char *p, int reached);
/* "Verify:" */
int cdm_cdm_notes_verify(struct rd *rd, const char *p);
/* "EndFsync:" */
int cdm_cdm_notes_end_fsync(struct rd *rd, const char *p);
/* "Precondition:", into @in */
int cdm_cdm_notes_precondition(struct cdm_run_info *in, const char *p);
/* "Fsync:" */
int cdm_cdm_notes_fsync(struct rd *rd, const char *p);
/* "Test file:", into @in */
int cdm_cdm_notes_test_file(struct cdm_run_info *in, const char *p);
/* the steady-state notes against the <Steady-state max N> mark: 0 or -EINVAL */
int cdm_cdm_notes_check(struct rd *rd);

#endif /* CDM_FORMAT_CDM_RD_H */
