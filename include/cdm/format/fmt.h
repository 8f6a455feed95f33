/* SPDX-License-Identifier: MIT */
/*
 * fmt.h - the text helpers every writer in src/format/ and report/ shares: numbers
 * that read back exactly and never depend on the locale, and UTC times
 * (JSON is written by the one JSON writer, base/jsonw.h).  No figure is
 * derived here: model/result.h has them.  The formatters, the scale-out
 * and compare reports use these and nothing of the registry (report.c);
 * run/runner.c, a layer above, uses the steady-state verdict so that its
 * notes and progress line word it as the report does, and cli/ the
 * --verify faults, so that its closing error says them as the Verify line
 * does, and the CV, so that its note of an unstable test shows it as the
 * reports do.
 */
#ifndef CDM_FORMAT_FMT_H
#define CDM_FORMAT_FMT_H

#include <stddef.h>
#include <stdio.h>

#include "cdm/model/result.h"

/* the mark of a text cut short: U+2026 in UTF-8 (fmt.c, svg.c) */
#define CDM_FMT_ELLIPSIS "\xe2\x80\xa6"

/*
 * cdm_fmt_num - @v as the shortest decimal text that reads back as the
 * same double ("5", "1048.576", "1.25e-07"), "." as decimal point (cdm
 * never calls setlocale).  Not finite: "null".  @len >= 32 bytes is
 * enough.  Returns @buf.  The JSON writer's rule, cdm_jsonw_fmt_num()
 * (base/jsonw.h), for the other formats (CSV, Markdown).
 */
char *cdm_fmt_num(char *buf, size_t len, double v);

/*
 * cdm_fmt_fig - the one rule by which every writer in src/report/ prints a
 * figure: @v with @prec decimals ("%.*f", '.' as decimal point) and then
 * @unit (may be ""), or @none alone when there is no figure, @v NaN or
 * infinite: nothing measured behind it, or none under the aggregate asked
 * for (a CrystalDiskMark report has its best-of figures only, no passes
 * for a median: cdm_result_mb_s()), so that no report prints "nan", "inf"
 * or a 0 for it.  Each writer has its own @none: "-" in the CDM text
 * layouts (no parser reads a number from it), an en dash in Markdown and
 * SVG.  CDM_FMT_FIG_MAX bytes always hold it with a unit of up to 16
 * bytes ("%.3f" of the largest double is 313 bytes).  Returns @buf.
 */
#define CDM_FMT_FIG_MAX 352
char *cdm_fmt_fig(char *buf, size_t len, int prec, double v, const char *unit,
		  const char *none);

/*
 * cdm_fmt_cv - a coefficient of variation @cv_pct (percent) shown against
 * the --cv-threshold @threshold_pct, the one rule for every place that
 * calls a test unstable: one decimal ("10.4"), or as many more as it takes
 * for the shown value to be above the threshold exactly when @cv_pct is
 * (10.04 against 10: "10.04", never "10.0" beside "above 10 %"), at most
 * 17 significant digits.  Without the "%".  32 bytes always hold it.
 * Returns @buf.
 */
char *cdm_fmt_cv(char *buf, size_t len, double cv_pct, double threshold_pct);

/*
 * cdm_fmt_cut - @s (a label, a path: a user's text) for a place of at most
 * @cols characters (UTF-8 sequences, as a terminal shows them): whole when
 * it fits, else its first @cols - 1 characters and an ellipsis (U+2026),
 * cut at a character boundary, so that a text cut to fit says it was cut.
 * @buf of @len bytes (cut there too, the same way); @cols >= 1.  Returns
 * the characters in @buf, for padding a column by what it shows.
 */
unsigned int cdm_fmt_cut(char *buf, size_t len, const char *s, unsigned int cols);

/*
 * cdm_fmt_md_text - write @s (at most @max bytes, stopping at a NUL) to
 * @out as Markdown text: the characters of Markdown's inline syntax and
 * '|' (GFM tables) escaped with '\\', tabs and line breaks as spaces, so
 * that a label can neither break a table nor start markup.
 */
void cdm_fmt_md_text(FILE *out, const char *s, size_t max);

/*
 * cdm_fmt_utc - @t (seconds since the epoch) as "2024-06-22T17:19:21Z"
 * in @buf (@len >= 21 bytes), or "" when the time cannot be converted.
 * Returns @buf.
 */
char *cdm_fmt_utc(char *buf, size_t len, long long t);

/*
 * cdm_fmt_bytes_approx - @bytes in the largest power-of-1024 unit it
 * reaches, with one decimal: "15.6 GiB", "512.0 MiB", "900 B" (memory
 * sizes, which are rarely a whole number of any unit; cdm_size_format()
 * prints exact sizes).  Returns @buf.
 */
char *cdm_fmt_bytes_approx(char *buf, size_t len, unsigned long long bytes);

/*
 * cdm_fmt_setting - setting @item of @in as every report prints it: the
 * profile's name, the test size ("1 GiB", cdm_size_format()), the count
 * ("5"), the seconds of the Measure time, interval and warm-up ("5", "0.5"
 * as cdm_msec_format() prints them, and @unit: "", " s", " sec"), the
 * engine's name; "unknown" when @in does not
 * state it (cdm_result_known(): an imported report's engine, the Measure
 * time of one that names no CDM version), never a 0.  CDM_INFO_DATE, _OS, _VOLUME and _HOST
 * have their own texts (cdm_fmt_start(), the layouts): "unknown" or "".
 * CDM_FMT_SETTING_MAX bytes always hold it.  Returns @buf.
 */
#define CDM_FMT_SETTING_MAX (CDM_NAME_MAX + 16)
char *cdm_fmt_setting(char *buf, size_t len, const struct cdm_run_info *in,
		      enum cdm_info_item item, const char *unit);

/*
 * cdm_fmt_count - the passes of @in as the Test lines print them after
 * the size, " (x5)" with its space, or "" when @in does not state its
 * count (an imported report cut short): no "(xunknown)".  Reads back by
 * cdm_cdm_read() either way.  CDM_FMT_SETTING_MAX bytes always hold it.
 * Returns @buf.
 */
char *cdm_fmt_count(char *buf, size_t len, const struct cdm_run_info *in);

/*
 * cdm_fmt_start - when @in started, for a footer or a list of runs:
 * "2024-06-22 17:19:21 UTC" for a run cdm measured; for a run imported
 * from a CrystalDiskMark report its Date as the report printed it, its
 * zone being unknown: "2021/06/26 15:42:37 (local time)", never called
 * UTC; "" when there is none (a trimmed report; a time gmtime() cannot
 * convert).  48 bytes always hold it.  Returns @buf.
 */
char *cdm_fmt_start(char *buf, size_t len, const struct cdm_run_info *in);

/*
 * cdm_fmt_source - whose figures an imported run's are: "CrystalDiskMark
 * 8.0.1 x64" (the version and edition as its product line printed them,
 * each left out when the report lacked it: "CrystalDiskMark"); for cdm's
 * own text report read back (CDM_SOURCE_CDM_TEXT) "cdm 0.1.0 text", or
 * "cdm 0.1.0 text of a CrystalDiskMark 8.0.1 x64" when that text was of an
 * imported report; "" for a run cdm measured.  128 bytes hold every real
 * one (a longer one is cut).  Returns @buf.
 */
char *cdm_fmt_source(char *buf, size_t len, const struct cdm_run_info *in);

/*
 * cdm_fmt_trimmed - the length of @s (at most @max bytes) without its
 * trailing blanks: CDM prints "Windows 10 " before its "[build]", which a
 * layout keeps and a sentence does not.
 */
size_t cdm_fmt_trimmed(const char *s, size_t max);

/*
 * cdm_fmt_steady_window - the last window @st judged, as every verdict
 * and the runner's progress line word it: "range 4.1 %, slope 2.0 %",
 * each against its PTS limit as cdm_fmt_cv() shows a spread, or "no full
 * window of 5 measured rounds" when there is none (NaN).  96 bytes always
 * hold it.  Returns @buf.
 */
char *cdm_fmt_steady_window(char *buf, size_t len, const struct cdm_steady *st);

/*
 * cdm_fmt_steady - the steady-state verdict of @t (--steady-state,
 * model/steady.h), after the words "steady" or "not steady" a writer puts
 * before it: "at round 7 of 25 (range 4.1 %, slope 2.0 %)" when the
 * rounds got steady, "after 25 rounds (range 31.0 %, slope 12.0 %)" when
 * they never did, the range and slope of the last window judged, each
 * shown against its PTS limit as cdm_fmt_cv() shows a spread (20.04 never
 * "20.0"); "(no full window of 5 measured rounds)" in place of the two
 * when there was none (NaN).  "" when @t ran without steady state.  The
 * largest round number is @t's max_rounds, or @in's when the test has
 * none; an imported test (no rounds) "after N rounds" with N its
 * max_rounds.  128 bytes always hold it.  Returns @buf.
 */
#define CDM_FMT_STEADY_MAX 128
char *cdm_fmt_steady(char *buf, size_t len, const struct cdm_test_result *t,
		     const struct cdm_run_info *in);

/*
 * cdm_fmt_precondition - how --precondition wrote the test file, from
 * target/testfile.h's constants (CDM_TESTFILE_PRECOND_PASSES and _BLOCK):
 * "written sequentially twice in 128 KiB blocks".  The text's and the
 * Markdown's notes print it; JSON writes the two numbers.  64 bytes
 * always hold it.  Returns @buf.
 */
#define CDM_FMT_PRECOND_MAX 64
char *cdm_fmt_precondition(char *buf, size_t len);

/*
 * cdm_fmt_end_fsync - --end-fsync's flush of a test (@s, from
 * cdm_result_end_fsync_sum(), model/result.h) as every report words it:
 * "66.8 ms per pass (3.20 % of the pass), max 80.1 ms": the mean and the
 * longest each in us below 1 ms, in ms below 1 s, else in s (one decimal;
 * s two), and the share of the passes' time with two decimals (0.02 %: a
 * flush of 200 us in a 1 s pass).  The text's "EndFsync:" note, which
 * cdm's reader (format/cdm_read.c) reads back, Markdown's and the SVG
 * card's.  CDM_FMT_END_FSYNC_MAX bytes hold it for any flush inside its
 * pass (a longer text is cut).  Returns @buf.
 */
#define CDM_FMT_END_FSYNC_MAX 128
char *cdm_fmt_end_fsync(char *buf, size_t len, const struct cdm_end_fsync_sum *s);

/*
 * cdm_fmt_fsync - --fsync's fdatasyncs of a test (@s, from
 * cdm_result_fsync_sum(), model/result.h) as every report words it:
 * "1200 calls, mean 1.2 ms, max 4.5 ms", the times as
 * cdm_fmt_end_fsync()'s.  The text's "Fsync:" note, which cdm's reader
 * reads back, and Markdown's.  CDM_FMT_FSYNC_MAX bytes hold it.
 * Returns @buf.
 */
#define CDM_FMT_FSYNC_MAX 128
char *cdm_fmt_fsync(char *buf, size_t len, const struct cdm_fsync_sum *s);

/*
 * cdm_fmt_test_file - the test file of a run that kept one or reused
 * one (@in->test_file), as the text's "Test file:" note (which cdm's
 * reader reads back) and Markdown word it: "kept (--keep), zero data",
 * "reused (--file), random data" ("unknown data" when its mark named
 * none); "" for a new file removed after the run, a device, or one not
 * stated.  CDM_FMT_TEST_FILE_MAX bytes hold it.  Returns @buf.
 */
#define CDM_FMT_TEST_FILE_MAX 48
char *cdm_fmt_test_file(char *buf, size_t len, const struct cdm_run_info *in);

/*
 * cdm_fmt_verify_sample - how much of what was written a --verify
 * read-back checked, after the blocks it counts: "" when it read back
 * every block written (@sampled 0); " (a sample: 1 block in 4)" when it
 * read back a sample of 1 block in @lo of the file (run/verify.h), " (a
 * sample: 1 block in 4 to 1 in 16)" for tests sampled at rates @lo to
 * @hi, " (a sample)" when the rate is unknown (@lo 0: a file that did not
 * say it).  64 bytes always hold it.  Returns @buf.
 */
#define CDM_FMT_VERIFY_SAMPLE_MAX 64
char *cdm_fmt_verify_sample(char *buf, size_t len, int sampled, uint64_t lo, uint64_t hi);

/*
 * cdm_fmt_verify_found - what read-back @v found, as the text layouts'
 * Verify: line (format/layout.c) and cli/'s closing error both word it:
 * each kind found with its count and first (lowest) offset, "1 lost write
 * at offset 3932160, 2 misdirected writes, the first at offset 8192
 * (meant for offset 12288), 1 torn block at offset 4096" (where the first
 * misdirected write was meant to go when @v knows it), then
 * cdm_fmt_verify_sample()'s words; only the sample's words when @v found
 * nothing.  CDM_FMT_VERIFY_MAX bytes always hold it.  Returns @buf.
 */
#define CDM_FMT_VERIFY_MAX 384
char *cdm_fmt_verify_found(char *buf, size_t len, const struct cdm_verify *v);

#endif /* CDM_FORMAT_FMT_H */
