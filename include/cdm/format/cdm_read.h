/* SPDX-License-Identifier: MIT */
/*
 * cdm/format/cdm_read.h - a CrystalDiskMark text report read into the
 * result model, so that `cdm compare` and `cdm import` take a colleague's
 * CDM report, a review's pasted into a blog, or one's own from last year
 * beside cdm's runs.  Layouts: CDM 8.x and 9.x ("  SEQ    1MiB (Q=  8,
 * T= 1): ..."), 7.x ("Sequential 1MiB (Q=  8, T= 1): ..."), 6.x and 5.x
 * ("   Sequential Read (Q= 32,T= 1) :    91.559 MB/s"), 3.x and 4.x
 * ("   Random Read 4KB (QD=32) :");
 * docs/output-formats.md, "Reading CrystalDiskMark reports".
 *
 * cdm's own text reports in those layouts (--format cdm, cdm7, cdm6, of a
 * run or of an imported report) read back the same way: their product
 * line names cdm, and info.source.kind says CDM_SOURCE_CDM_TEXT.
 *
 * Each test of the report becomes a test with no passes and the figures
 * CDM printed (struct cdm_reported, result.h), parsed with strtod from
 * the printed text; the footer gives the settings it states (profile,
 * test size, count, Measure and Interval seconds, 0Fill, [Admin], Date,
 * OS, Comment, the volume), and info.source says where the run came from.
 */
#ifndef CDM_FORMAT_CDM_READ_H
#define CDM_FORMAT_CDM_READ_H

#include <stddef.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"

/*
 * cdm_cdm_read - parse the @len bytes of @text (no NUL needed; NULs are
 * no report's) as a CrystalDiskMark text report into a new result *@out
 * (free with cdm_result_free(); NULL on failure).
 *
 * A byte that does not start well-formed UTF-8 (base/utf8.h: an overlong
 * form, a surrogate, a byte of an ANSI code page as an old CDM or Notepad
 * saves a comment, a UTF-16 report's unpaired surrogate) is read as '?':
 * only free text can hold one, and the report is read, not refused.
 * Encoding: UTF-8 with or without its BOM, or UTF-16LE or UTF-16BE with
 * their BOM (CDM 6 and 7 save UTF-16LE); UTF-16 without a BOM (a NUL in
 * every other byte) is refused, named; CRLF, LF or (a text without any
 * LF) CR line ends; every line may carry a Markdown quote prefix ("> " or
 * ">", as in blog posts); a tab or a no-break space (U+00A0, U+2007,
 * U+202F, as web pages have them) is a blank wherever a space is;
 * leading and trailing blank lines, indentation and trailing blanks are
 * not significant; lines that begin with '#' before the report's first
 * line (and blank lines among them) are notes, skipped ("# source: ...",
 * as people annotate a saved or pasted report: no CDM report starts with
 * one), and a '#' line after it is refused as any line of no form.  A
 * report may be trimmed (no header, no footer) as long as it has a result
 * line; one without a Profile, Test or Date line (cut short before its
 * footer, or trimmed to its body) has info.source.no_footer set, so that
 * the caller can say so.  Each line is recognised by its form: rules,
 * the product line ("CrystalDiskMark 8.0.4 Shizuku Edition x64 (C) ...",
 * or cdm's: "cdm 0.1.0 x86_64 (io_uring, O_DIRECT)", "cdm 0.1.0: a
 * CrystalDiskMark 8.0.1 x64 report, imported"), the credit line (CDM's,
 * cdm's), the unit notes, the section heads ([Read], [Write],
 * "[Mix] Read 70%/Write 30%"), the result lines of each layout (and those
 * cdm's CDM 6 layout adds: "Sequential Read 1MiB (Q=  8,T= 1) :",
 * "Random Mix 4KiB R70/W30 (Q=  1,T= 1) :"), and the footer (Profile,
 * Test, Mode, Time, Date, OS, Comment; in 6.x and older the free-text line
 * after OS is the comment).  In cdm's text "unknown" is a setting its run
 * does not state, "-" a figure it has not (NaN), and a row "nothing
 * measured: ..." a test without figures, which is left out.
 *
 * Values no report prints are refused: a figure with more than 10 digits
 * before its point (a double would not hold it as printed), a count
 * outside 1..CDM_COUNT_MAX, a test size outside 512 B..1 PiB (CDM's are
 * 16 MiB..64 GiB; cdm's may be any), Measure outside 1..CDM_TIME_MAX s,
 * Interval outside 0..3600 s, a Date that is no day or time (Feb 29 of a
 * year that is not a leap year, hour 24, second 60).
 *
 * The run's label is its Comment, or @file's base name without its
 * extension ("windows-san" for "/tmp/windows-san.txt"), or "CrystalDiskMark
 * report" when @file is NULL or "".  Its start is the Date: read as UTC
 * (the report's zone is unknown; source.date_text keeps the text); its
 * aggregate is CDM_AGG_BEST; direct is 1 (CDM bypasses the page cache)
 * unless cdm's product line says "buffered"; engine, profile, time,
 * interval, size and count are ""/0 (unknown) when the report does not
 * state them (cdm's product line of a run names its engine; its CDM 6 and
 * 7 layouts print <Measure N sec> only when N is not 5, so a text of a run
 * without it has time 5), but for the time of CrystalDiskMark 6.x and 7.x,
 * which print none: theirs was a fixed 5 s (DiskBench.cpp of 6.0.1 and
 * 7.0.0-7.0.0h run every DiskSpd pass with -d5), so a report whose
 * product line (or cdm's origin of one) names 6.x or 7.x has time 5.  The
 * footer's marks: admin and the test data are known
 * (source.has_admin, has_data) only from the line that prints them.
 *
 * Returns 0; -EINVAL with one line in @err (may be NULL) naming the first
 * line that fits no form, "line 7: not a CrystalDiskMark report line:
 * '...'" (quoted up to 60 bytes: a tab as "\t", a no-break or zero-width
 * space as "\u00a0", other bytes that are not printable as '?'), a line
 * whose form is right but whose content is not ("line 9: Q=0 is outside
 * 1..1024", "line 21: (x0): a count outside 1..100", "line 23: no such
 * date: '2021/02/29 15:42:37'"), a NUL byte in a line ("line 4: a NUL
 * byte (byte 12 of the line): ...": '#' notes before the report, skipped
 * whatever they hold, aside), "UTF-16LE without a byte order mark:
 * ...", "no result line: not a CrystalDiskMark report"; -ENOMEM.
 */
int cdm_cdm_read(const char *text, size_t len, const char *file,
		 struct cdm_run_result **out, struct cdm_err *err);

/*
 * cdm_cdm_read_implied_measure - the Measure time (ms) that cdm's CDM 6
 * and 7 layouts of the run @in imply when they print no <Measure N sec>
 * mark, as cdm_cdm_read() reads such a text back: 5000 (5 s) for a run cdm
 * measured (cdm's 5 s default, and CDM 6's and 7's), and for a report of
 * CrystalDiskMark 6.x or 7.x (their fixed 5 s; its product line, or the
 * origin of cdm's text of one); 0 for any other report (8.x and later,
 * one without its product line): there no mark means the time is
 * unknown, so a known time is printed as a mark, 5 s too.  Reads only
 * @in; no error.
 */
unsigned int cdm_cdm_read_implied_measure(const struct cdm_run_info *in);

#endif /* CDM_FORMAT_CDM_READ_H */
