/* SPDX-License-Identifier: MIT */
/*
 * layout.h - what the three CrystalDiskMark text layouts share (layout.c):
 * CDM 8/9 (cdm_write.c, "cdm"), CDM 7 (cdm7_write.c, "cdm7") and CDM 6
 * (cdm6_write.c, "cdm6").  The header (rules, the product and credit lines
 * that name cdm, the two unit lines), the date with CDM's unpadded hour,
 * the OS line's parts, the volume's GiB, cdm's own marks, the figures of a
 * row and what a test that measured nothing prints instead, and the
 * Comment line's contents.  Each layout keeps only what is its own: its
 * labels, its column positions, its footer.  Private to report/; the
 * layouts are in docs/output-formats.md.
 */
#ifndef CDM_FORMAT_LAYOUT_H
#define CDM_FORMAT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cdm/model/result.h"

/* the rule widths: CDM 7, 8 and 9 print 78 dashes, CDM 6 prints 71 */
#define CDM_LAYOUT_WIDE 78
#define CDM_LAYOUT_NARROW 71

/*
 * cdm_layout_head - the first six lines of every CDM layout: a rule of
 * @width dashes, the product line ("cdm 0.1.0 x86_64 (io_uring, O_DIRECT)":
 * cdm's version, the machine, the engine, O_DIRECT or buffered), the credit
 * line right-aligned to column @width (as CDM right-aligns its own: to 78
 * in 7.x-9.x, to the 71 dashes of 6.x), the rule again, and CDM's two unit
 * lines ("* MB/s = 1,000,000 bytes/s ...", "* KB = 1000 bytes, ...").
 * Neither the product nor the credit line names CrystalDiskMark, its
 * author or its web site.
 */
void cdm_layout_head(FILE *out, const struct cdm_run_info *in, int width);

/*
 * cdm_layout_localtime - @in->start as local time in *@tm (an imported
 * CrystalDiskMark report's start is its Date's wall time kept as UTC, its
 * zone unknown: as UTC, so it prints as the report printed it).  Call it before
 * printing anything, so a time that cannot be converted leaves no half
 * report.  Returns 0, or -EOVERFLOW.
 */
int cdm_layout_localtime(const struct cdm_run_info *in, struct tm *tm);

/*
 * cdm_layout_date - @tm as CDM prints it on every version's Date line,
 * "2021/06/23 0:05:57": the hour NOT zero-padded; "unknown" for a report
 * @in imported without its Date.  @len >= 32 is enough.  Returns @buf.
 */
char *cdm_layout_date(char *buf, size_t len, const struct tm *tm,
		      const struct cdm_run_info *in);

/*
 * cdm_layout_os - the OS line's text, "Debian GNU/Linux 12 (bookworm)
 * [6.1.0-28-amd64] (x86_64)": the distribution's name, the kernel release
 * in brackets, the machine in parentheses (CDM: Windows' name, its build,
 * x64); "unknown" for a report imported without its OS line, and for
 * the distribution of a run that found no os-release (a chroot).
 * CDM_LAYOUT_OS_MAX bytes always hold it.  Returns @buf.
 */
#define CDM_LAYOUT_OS_MAX 512
char *cdm_layout_os(char *buf, size_t len, const struct cdm_run_info *in);

/*
 * cdm_layout_mount - the volume of the Test line: the mount point holding
 * the target, or the target as given when the mount is unknown (a chroot:
 * in->mount_point ""; JSON says null).  Points into @in.
 */
const char *cdm_layout_mount(const struct cdm_run_info *in);

/*
 * cdm_layout_gib_round - @bytes in whole GiB, rounded half up, without
 * overflowing near UINT64_MAX (the 8.x Test line's "(79/1862GiB)").
 */
unsigned long long cdm_layout_gib_round(uint64_t bytes);

/*
 * cdm_layout_interval - the footer's Interval setting, "5 sec"
 * (cdm_fmt_setting() of CDM_INFO_INTERVAL): "unknown" for a report imported
 * without it (CDM 6's and 7's Interval are on their Test lines, 8's on its
 * Time line; a trimmed report may have none).  CDM_FMT_SETTING_MAX bytes
 * always hold it.  Returns @buf.
 */
char *cdm_layout_interval(char *buf, size_t len, const struct cdm_run_info *in);

/*
 * cdm_layout_device - what a Test line says of a block device TARGET in
 * place of a volume's usage: "/dev/sdb: block device, 931 GiB, 512-byte
 * sectors" (its size and logical sector size).  CDM_LAYOUT_VOLUME_MAX
 * bytes always hold it.  Returns @buf.
 */
#define CDM_LAYOUT_VOLUME_MAX (4096 + 128)
char *cdm_layout_device(char *buf, size_t len, const struct cdm_run_info *in);

/* cdm_layout_marks()'s @what */
#define CDM_LAYOUT_ADMIN 0x1u           /* " [Admin]" first, as CDM 8's Mode line */
#define CDM_LAYOUT_MEASURE 0x2u         /* " <Measure N sec>" unless its read-back implies N */

/*
 * cdm_layout_marks - the marks of the settings that change what the figures
 * mean, each with a space before it: " <0Fill>" (--data zero, CDM's own
 * mark), then cdm's own, only when given: " <O_DSYNC>" (--sync),
 * " <fdatasync/N>" (--fsync N), " <Rate N IOPS>" (--rate-iops N); with
 * CDM_LAYOUT_ADMIN " [Admin]" (root) before them all, and with
 * CDM_LAYOUT_MEASURE " <Measure N sec>" after them when the time is known
 * and the text without it would be read back with another
 * (cdm_cdm_read_implied_measure(): a run's, a 6.x or 7.x report's 5 s need
 * none; an 8.x report's 5 s does; those layouts have no Time line).
 * Between the rate and the measure time, the method of numbers that hold
 * (docs/method.md): " <EndFsync>" (--end-fsync), " <Steady-state max N>"
 * (--steady-state, --max-rounds N), " <Precondition>", " <Verify>",
 * " <CPUs 0-3,8>" (--cpus).  "" when there is none.
 * CDM_LAYOUT_MARKS_MAX bytes always hold them.  Returns @buf.
 */
#define CDM_LAYOUT_MARKS_MAX 512
char *cdm_layout_marks(char *buf, size_t len, const struct cdm_run_info *in, unsigned int what);

/* cdm_layout_figures()'s @what: the columns after MB/s */
#define CDM_LAYOUT_IOPS 0x1u            /* " [%9.1f IOPS]" */
#define CDM_LAYOUT_LAT 0x2u             /* " <%9.2f us>" */

/*
 * cdm_layout_figures - the figures of a result row, after its colon and
 * space: "%9.3f MB/s", then " [%9.1f IOPS]" and " <%9.2f us>" as @what
 * asks, under aggregate @agg (MB/s and latency as cdm_result_mb_s() and
 * _lat_us(), IOPS the passes' measured IOPS, cdm_result_iops(); never
 * derived from a rounded MB/s).  A field that outgrows its width widens;
 * CDM_LAYOUT_FIGURES_MAX bytes always hold the widest.  A figure that does
 * not exist (NaN) prints as "-" in its field, so no parser reads a number
 * from it.  A test that measured nothing (cdm_result_state() not
 * CDM_PASS_MEASURED) has no figures: "nothing measured: no I/O completed"
 * right-aligned to the width the figures would have, so the line keeps a
 * row's width and no parser reads a 0 from it.  Returns the length
 * (as snprintf: the full length even when cut to @len).
 */
#define CDM_LAYOUT_FIGURES_MAX 1024
int cdm_layout_figures(char *buf, size_t len, const struct cdm_test_result *t,
		       enum cdm_aggregate agg, unsigned int what);

/*
 * cdm_layout_comment - what the Comment line carries, CDM's one free-text
 * line: the --label when given (not the default label, the target), " - "
 * and the --comment, then whether the run is whole:
 * "[interrupted after 3 of 8 tests; RND4K Q32T1 Read: 2 of 5 passes]" or
 * "[stopped by an I/O error after ...]".  "" when there is none of them
 * (and CDM prints no comment).  CDM_LAYOUT_COMMENT_MAX bytes always hold
 * it.  Returns the length of the text.
 */
#define CDM_LAYOUT_COMMENT_MAX 1024
size_t cdm_layout_comment(char *buf, size_t len, const struct cdm_run_result *r);

/*
 * cdm_layout_verify - what --verify's read-back found (struct cdm_verify,
 * model/result.h), as lines after the results: one per test with a
 * fault, "Verify: RND4K Q32T1 Write: 1 lost write at offset 12288, 2
 * misdirected writes, the first at offset 8192 (meant for offset 16384),
 * 1 torn block at offset 4096" (cdm_fmt_verify_found(), as cli/'s closing
 * error words it); one per test not checked, "Verify: RND4K Q1T1 Mix: no
 * write completed, nothing checked" (0 blocks is not clean) or "...: the
 * read-back was interrupted, not checked"; then, when no test found a
 * fault, one line for the clean ones, "Verify: all 3 write tests read
 * back clean, 40960 blocks" ("all" only when every test read back is
 * clean; "write and Mix tests" when there are Mix tests; " (a sample: 1
 * block in 4)" when any was sampled, cdm_fmt_verify_sample(); for tests
 * read from cdm's text, whose own blocks are unknown, the blocks its line
 * stated, source.verify_blocks, and no count when it is not known).  A run
 * with --verify and no write or Mix test has the one line "Verify: no
 * write or Mix test, nothing read back".  Each line is printed as @pre,
 * the text, "\n".  Nothing when no test was read back otherwise (no
 * --verify; the write tests stopped before their read-back).  Returns the
 * number of lines printed.
 */
unsigned int cdm_layout_verify(FILE *out, const struct cdm_run_result *r, const char *pre);

/*
 * cdm_layout_row_fn - print the row of test @t (measured passes, in the
 * section's direction) under aggregate @agg, with its newline.
 * cdm_layout_write() prints CDM 7's, 8's and 9's sections: "[Read]", "[Write]",
 * then one "[Mix] Read 70%/Write 30%" per write share, in the order each
 * first ran (cdm can run several in one run: --mix and W<pct> tests), each
 * followed by its rows in run order and one empty line.  A test without a
 * pass (never reached, or failed first) has no row, and a section without
 * rows no header.  @row prints each row.
 */
typedef void (*cdm_layout_row_fn)(FILE *out, const struct cdm_test_result *t,
				  enum cdm_aggregate agg);

/*
 * cdm_layout_notes - what CDM's rows and footer have no place for, as
 * lines of their own between the last section and the footer (cdm's
 * CrystalDiskMark reader, format/cdm_read.c, reads them back), each
 * "Key: text": per test run as rounds (--steady-state) "Steady: SEQ1M
 * Q8T1 Read at round 7 of 25 (range 4.1 %, slope 2.0 %)" or "Not steady:
 * RND4K Q32T1 Read after 25 rounds (...)" (cdm_fmt_steady()), per write
 * and Mix test whose passes ended with --end-fsync's flush "EndFsync:
 * SEQ1M Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 80.1 ms"
 * (cdm_fmt_end_fsync()), the preconditioning's time "Precondition: 41.2
 * sec (...)", and the NUMA warning of --cpus, "NUMA: ...".  Then one
 * empty line; nothing at all when there is none.
 */
void cdm_layout_notes(FILE *out, const struct cdm_run_result *r);

/*
 * cdm_layout_profile - CDM 7's, 8's and 9's "Profile: Default" line, the
 * first of the footer; "unknown" for a report imported without one (CDM 6
 * prints none).
 */
void cdm_layout_profile(FILE *out, const struct cdm_run_info *in);

/*
 * cdm_layout_tail - CDM 7's, 8's and 9's last footer lines, "   Date: "
 * (cdm_layout_date() of @tm), "     OS: " (cdm_layout_os()) and, when
 * there is something to say (cdm_layout_comment()), "Comment: ".
 */
void cdm_layout_tail(FILE *out, const struct cdm_run_result *r, const struct tm *tm);

/*
 * cdm_layout_footer_fn - print the footer of @r, its date @tm.
 * cdm_layout_write - the whole of a CDM 7, 8 or 9 layout, the write() of
 * its formatter: @r's date converted first (cdm_layout_localtime(), so a
 * bad time leaves no half report), the head (cdm_layout_head(), 78
 * columns), an aggregate's head line, an empty line, the sections with
 * @row's rows (the sections), the notes (cdm_layout_notes()), @footer, an aggregate's per-run
 * spread, then cdm_layout_end().  Returns 0, -EOVERFLOW (the date) or -EIO.
 */
typedef void (*cdm_layout_footer_fn)(FILE *out, const struct cdm_run_result *r,
				     const struct tm *tm);
int cdm_layout_write(FILE *out, const struct cdm_run_result *r, cdm_layout_row_fn row,
		     cdm_layout_footer_fn footer);

/*
 * cdm_layout_end - the end of a layout's write(): flush @out and check its
 * error flag (sticky, so one check sees any failed write).  Returns 0 or
 * -EIO.
 */
int cdm_layout_end(FILE *out);

#endif /* CDM_FORMAT_LAYOUT_H */
