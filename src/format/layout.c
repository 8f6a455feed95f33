/* SPDX-License-Identifier: MIT */
/*
 * layout.c - what the CrystalDiskMark text layouts (CDM 8/9 in cdm_write.c,
 * CDM 7 in cdm7_write.c, CDM 6 in cdm6_write.c) share, in one place: the
 * header that names cdm, the date and OS texts, the figures of a row and
 * what a test that measured nothing prints instead, the Comment line's
 * contents, and the Read/Write/Mix sections, the footer's first and last
 * lines and the whole frame of 7.x-9.x.  layout.h says
 * what each gives; docs/output-formats.md shows the layouts.
 *
 * Numbers are printed with printf, and cdm never calls setlocale(), so the
 * C locale is in force and the decimal point is always '.', as CDM's
 * parsers expect.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cdm/base/size.h"
#include "cdm/base/text.h"
#include "cdm/base/version.h"
#include "cdm/format/cdm_read.h"
#include "cdm/model/result.h"
#include "cdm/model/settings.h"
#include "cdm/model/spec.h"
#include "cdm/format/fmt.h"
#include "cdm/format/layout.h"
#include "cdm/format/scale.h"

#define CREDIT "cdm - disk benchmark for Linux - MIT License"

/* the widths of a row's figures: "%9.3f MB/s", " [%9.1f IOPS]", " <%9.2f us>" */
#define W_MBS 14
#define W_IOPS 17
#define W_LAT 15

static void rule(FILE *out, int width)
{
	for (int i = 0; i < width; i++)
		fputc('-', out);
	fputc('\n', out);
}

void cdm_layout_head(FILE *out, const struct cdm_run_info *in, int width)
{
	char src[128];

	rule(out, width);
	if (cdm_result_imported(in))
		/* no cdm run: say whose figures these are */
		fprintf(out, "cdm %s: a %s report, imported\n", cdm_version(),
			cdm_fmt_source(src, sizeof(src), in));
	else
		fprintf(out, "cdm %.*s %.*s (%.*s, %s)\n",
			(int)sizeof(in->version), in->version[0] ? in->version : cdm_version(),
			/* a saved run's null machine or engine: "unknown", as its reader takes it */
			(int)sizeof(in->machine), in->machine[0] ? in->machine : "unknown",
			(int)sizeof(in->engine), in->engine[0] ? in->engine : "unknown",
			in->direct ? "O_DIRECT" : "buffered");
	fprintf(out, "%*s\n", width, CREDIT);
	rule(out, width);
	fputs("* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n", out);
	fputs("* KB = 1000 bytes, KiB = 1024 bytes\n", out);
}

int cdm_layout_localtime(const struct cdm_run_info *in, struct tm *tm)
{
	/* a report's Date is its wall time, kept as UTC (its zone is unknown) */
	if (cdm_result_imported(in))
		return gmtime_r(&in->start, tm) ? 0 : -EOVERFLOW;
	return localtime_r(&in->start, tm) ? 0 : -EOVERFLOW;
}

char *cdm_layout_date(char *buf, size_t len, const struct tm *tm,
		      const struct cdm_run_info *in)
{
	if (!cdm_result_known(in, CDM_INFO_DATE)) {
		snprintf(buf, len, "unknown");	/* a trimmed report's */
		return buf;
	}
	/* CDM does not pad the hour: "2021/06/23 0:05:57" */
	snprintf(buf, len, "%04d/%02d/%02d %d:%02d:%02d",
		 tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday,
		 tm->tm_hour, tm->tm_min, tm->tm_sec);
	return buf;
}

char *cdm_layout_os(char *buf, size_t len, const struct cdm_run_info *in)
{
	if (!cdm_result_known(in, CDM_INFO_OS)) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	snprintf(buf, len, "%.*s [%.*s] (%.*s)",
		 (int)sizeof(in->os), in->os[0] ? in->os : "unknown",
		 (int)sizeof(in->kernel), in->kernel,
		 (int)sizeof(in->machine), in->machine);
	return buf;
}

const char *cdm_layout_mount(const struct cdm_run_info *in)
{
	return in->mount_point[0] ? in->mount_point : in->target;
}

unsigned long long cdm_layout_gib_round(uint64_t bytes)
{
	return (unsigned long long)((bytes >> 30) + ((bytes >> 29) & 1));
}

char *cdm_layout_interval(char *buf, size_t len, const struct cdm_run_info *in)
{
	return cdm_fmt_setting(buf, len, in, CDM_INFO_INTERVAL, " sec");
}

char *cdm_layout_device(char *buf, size_t len, const struct cdm_run_info *in)
{
	char dsz[32];

	/* a raw device has no volume usage: its size and sectors */
	cdm_size_format(in->target_dev_bytes, dsz, sizeof(dsz));
	snprintf(buf, len, "%.*s: block device, %s, %u-byte sectors",
		 (int)sizeof(in->target), in->target, dsz, in->target_dev_lbs);
	return buf;
}

char *cdm_layout_marks(char *buf, size_t len, const struct cdm_run_info *in, unsigned int what)
{
	unsigned int nset;
	const struct cdm_setting *set = cdm_settings(&nset);
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	/* CDM's marks, then cdm's own, in this order */
	if ((what & CDM_LAYOUT_ADMIN) && in->admin)
		cdm_text_add(buf, len, &n, " [Admin]");
	/* a mark per setting that is set, in the table's order (model/settings.h) */
	for (unsigned int i = 0; i < nset; i++) {
		const struct cdm_setting *s = &set[i];
		char v[CDM_SETTINGS_TEXT_MAX];

		if (!s->mark || !cdm_settings_info_on(s, in))
			continue;
		if (!s->mark_end)
			cdm_text_add(buf, len, &n, " %s", s->mark);
		else
			cdm_text_add(buf, len, &n, " %s%s%s", s->mark,
				     cdm_settings_info_text(s, in, v, sizeof(v)), s->mark_end);
	}
	/* unless the text read back gives that time without it (an 8.x report's 5 s: not) */
	if ((what & CDM_LAYOUT_MEASURE) && cdm_result_known(in, CDM_INFO_TIME) &&
	    in->time_ms != cdm_cdm_read_implied_measure(in)) {
		char t[CDM_FMT_SETTING_MAX];

		cdm_text_add(buf, len, &n, " <Measure %s>",
			     cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " sec"));
	}
	return buf;
}

/* one figure in its field: "%*.*f", or "-" when there is none (cdm_fmt_fig()) */
static int field(char *buf, size_t len, int width, int prec, double v)
{
	char fig[CDM_FMT_FIG_MAX];

	return snprintf(buf, len, "%*s", width, cdm_fmt_fig(fig, sizeof(fig), prec, v, "", "-"));
}

int cdm_layout_figures(char *buf, size_t len, const struct cdm_test_result *t,
		       enum cdm_aggregate agg, unsigned int what)
{
	char mbs[CDM_LAYOUT_FIGURES_MAX / 4], iops[CDM_LAYOUT_FIGURES_MAX / 4];
	char lat[CDM_LAYOUT_FIGURES_MAX / 4];

	if (cdm_result_state(t) != CDM_PASS_MEASURED) {
		int width = W_MBS + ((what & CDM_LAYOUT_IOPS) ? W_IOPS : 0) +
			    ((what & CDM_LAYOUT_LAT) ? W_LAT : 0);
		char why[96];

		snprintf(why, sizeof(why), "nothing measured: %s",
			 cdm_pass_state_reason(cdm_result_state(t)));
		return snprintf(buf, len, "%*s", width, why);
	}
	/* each of these fits: "%.3f" of the largest double is 313 bytes */
	field(mbs, sizeof(mbs), 9, 3, cdm_result_mb_s(t, agg));
	field(iops, sizeof(iops), 9, 1, cdm_result_iops(t, agg));
	field(lat, sizeof(lat), 9, 2, cdm_result_lat_us(t, agg));
	return snprintf(buf, len, "%s MB/s%s%s%s%s%s%s", mbs,
			(what & CDM_LAYOUT_IOPS) ? " [" : "", (what & CDM_LAYOUT_IOPS) ? iops : "",
			(what & CDM_LAYOUT_IOPS) ? " IOPS]" : "",
			(what & CDM_LAYOUT_LAT) ? " <" : "", (what & CDM_LAYOUT_LAT) ? lat : "",
			(what & CDM_LAYOUT_LAT) ? " us>" : "");
}

/*
 * "interrupted after 3 of 8 tests" (a signal), "stopped by an I/O error
 * after ..." (a failed I/O), or "" for a whole run; a test cut short with
 * some passes kept (its row is shown) is named with its passes (with
 * --steady-state, its rounds) of the ones it asked for.
 */
static void run_status(const struct cdm_run_result *r, char *buf, size_t len)
{
	unsigned int i, whole = 0, failed = 0;
	const struct cdm_test_result *part = NULL;
	char name[64];
	int n;

	buf[0] = '\0';
	for (i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		if (cdm_result_complete(t, &r->info))
			whole++;
		else if (t->npasses && !part)
			part = t;
		failed |= t->error != 0;
	}
	if (!r->interrupted && !failed)
		return;
	n = snprintf(buf, len, "%s after %u of %u tests",
		     r->interrupted ? "interrupted" : "stopped by an I/O error",
		     whole, r->ntests);
	if (part && n > 0 && (size_t)n < len) {
		cdm_spec_name(&part->spec, name, sizeof(name));
		snprintf(buf + n, len - (size_t)n, "; %s %s: %u of %u %s", name,
			 cdm_result_dir_name(part->dir), part->npasses,
			 cdm_result_requested(part, &r->info), part->steady.on ? "rounds" : "passes");
	}
}

/*
 * CDM's Comment line is the one free-text line its layouts and its parsers
 * have (crystaldiskmark-parser reads it whole), so it carries what says
 * which run this is and whether it is whole.
 */
size_t cdm_layout_comment(char *buf, size_t len, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	/* an imported report's Comment is its own (its label is made from it or its file) */
	int label = in->label[0] && strncmp(in->label, in->target, sizeof(in->label)) != 0 &&
		    !cdm_result_imported(in);
	const char *sep = "";
	char status[160];
	size_t n = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	run_status(r, status, sizeof(status));
	if (label) {
		cdm_text_add(buf, len, &n, "%.*s", (int)sizeof(in->label), in->label);
		sep = " - ";
	}
	if (in->comment[0])
		cdm_text_add(buf, len, &n, "%s%.*s", sep, (int)sizeof(in->comment), in->comment);
	if (status[0])
		cdm_text_add(buf, len, &n, "%s[%s]", n ? " " : "", status);
	return n < len ? n : len - 1;
}

/* one test's line when it is not clean: its faults, or why nothing was checked */
static void verify_test(FILE *out, const struct cdm_test_result *t, enum cdm_verify_state st,
			const char *pre)
{
	char name[64], found[CDM_FMT_VERIFY_MAX];

	cdm_spec_name(&t->spec, name, sizeof(name));
	fprintf(out, "%sVerify: %s %s: ", pre, name, cdm_result_dir_name(t->dir));
	if (st == CDM_VERIFY_STATE_INTERRUPTED) {
		fputs("the read-back was interrupted, not checked\n", out);
		return;
	}
	if (st == CDM_VERIFY_STATE_EMPTY) {
		fputs("no write completed, nothing checked\n", out);
		return;
	}
	fprintf(out, "%s\n", cdm_fmt_verify_found(found, sizeof(found), &t->verify));
}

/* does @r have a write or Mix test, one --verify would read back? */
static int has_writes(const struct cdm_run_result *r)
{
	for (unsigned int i = 0; i < r->ntests; i++)
		if (r->tests[i].dir != CDM_DIR_READ)
			return 1;
	return 0;
}

unsigned int cdm_layout_verify(FILE *out, const struct cdm_run_result *r, const char *pre)
{
	unsigned int seen = 0, clean = 0, bad = 0, lines = 0, mix = 0, sampled = 0, writes = 0;
	uint64_t blocks = 0, lo = 0, hi = 0;
	char sample[CDM_FMT_VERIFY_SAMPLE_MAX], count[48];
	int unknown = 0;

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		const struct cdm_verify *v = &t->verify;
		enum cdm_verify_state st = cdm_result_verify_state(v);

		if (st == CDM_VERIFY_STATE_NONE)
			continue;
		seen++;
		if (st != CDM_VERIFY_STATE_CLEAN) {
			bad += st == CDM_VERIFY_STATE_FAULTS;
			verify_test(out, t, st, pre);
			lines++;
			continue;
		}
		clean++;
		mix += t->dir == CDM_DIR_MIX;
		writes += t->dir == CDM_DIR_WRITE;
		blocks += v->blocks;
		unknown |= v->blocks_unknown;
		if (!v->sampled)
			continue;
		/* the sample's rates, of the tests that state one */
		sampled++;
		if (v->every && (!lo || v->every < lo))
			lo = v->every;
		if (v->every > hi)
			hi = v->every;
	}
	/* --verify asked, but the run wrote nothing to check: say so, not a silence */
	if (r->info.verify && !seen && !has_writes(r)) {
		fprintf(out, "%sVerify: no write or Mix test, nothing read back\n", pre);
		return 1;
	}
	/* a fault outweighs the clean tests; "all" only when every test read back is clean */
	if (!clean || bad)
		return lines;
	/*
	 * tests read from cdm's text have no blocks of their own: the total
	 * its line stated (source.verify_blocks), or none when it is not known
	 */
	if (unknown)
		blocks = r->info.source.verify_blocks;
	count[0] = '\0';
	if (blocks || !unknown)
		snprintf(count, sizeof(count), ", %" PRIu64 " block%s", blocks, blocks == 1 ? "" : "s");
	fprintf(out, "%sVerify: %s%u %s test%s read back clean%s%s\n", pre,
		clean == seen && clean > 1 ? "all " : "", clean,
		mix && writes ? "write and Mix" : mix ? "Mix" : "write", clean > 1 ? "s" : "",
		count, cdm_fmt_verify_sample(sample, sizeof(sample), sampled != 0, lo, hi));
	return lines + 1;
}

/* the rows of direction @dir (for CDM_DIR_MIX, of write share @pct) */
static void section(FILE *out, const struct cdm_run_result *r, enum cdm_dir dir,
		    unsigned int pct, const char *header, cdm_layout_row_fn row)
{
	int any = 0;

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		/* a test not measured (interrupted, failed) has no figures */
		if (t->dir != dir || !cdm_result_has_data(t))
			continue;
		if (dir == CDM_DIR_MIX && t->spec.write_pct != pct)
			continue;
		if (!any)
			fprintf(out, "%s\n", header);
		any = 1;
		row(out, t, r->aggregate);
	}
	if (any)
		fputc('\n', out);
}

static void sections(FILE *out, const struct cdm_run_result *r, cdm_layout_row_fn row)
{
	section(out, r, CDM_DIR_READ, 0, "[Read]", row);
	section(out, r, CDM_DIR_WRITE, 0, "[Write]", row);
	/*
	 * CDM 7, 8 and 9 print "[Mix] Read 70%/Write 30%" after [Write], same
	 * rows, same layout; one section per write share
	 */
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		unsigned int j, w = t->spec.write_pct;
		char header[48];

		if (t->dir != CDM_DIR_MIX || !cdm_result_has_data(t))
			continue;
		for (j = 0; j < i; j++)
			if (r->tests[j].dir == CDM_DIR_MIX && cdm_result_has_data(&r->tests[j]) &&
			    r->tests[j].spec.write_pct == w)
				break;
		if (j < i)
			continue;       /* section already written */
		snprintf(header, sizeof(header), "[Mix] Read %u%%/Write %u%%", 100 - w, w);
		section(out, r, CDM_DIR_MIX, w, header, row);
	}
}

/*
 * "Steady: SEQ1M Q8T1 Read at round 7 of 25 (...)" of each test run as
 * rounds: reads, writes, then Mix, each in run order, as the sections
 * show them (so that a text read back, its tests in its rows' order,
 * prints its notes again as they were)
 */
static unsigned int steady_notes(FILE *out, const struct cdm_run_result *r)
{
	static const enum cdm_dir dirs[] = { CDM_DIR_READ, CDM_DIR_WRITE, CDM_DIR_MIX };
	char name[64], verdict[CDM_FMT_STEADY_MAX];
	unsigned int n = 0;

	for (unsigned int k = 0; k < 3 * r->ntests; k++) {
		const struct cdm_test_result *t = &r->tests[k % r->ntests];

		if (t->dir != dirs[k / r->ntests] || !t->steady.on || !cdm_result_has_data(t))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "%s: %s %s %s\n", t->steady.reached_at_round ? "Steady" : "Not steady",
			name, cdm_result_dir_name(t->dir), cdm_fmt_steady(verdict, sizeof(verdict), t,
									  &r->info));
		n++;
	}
	return n;
}

/*
 * "EndFsync: SEQ1M Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max
 * 80.1 ms" of each write and Mix test whose passes ended with --end-fsync's
 * flush (cdm_result_end_fsync_sum()): writes, then Mix, each in run order,
 * as the sections show them
 */
static unsigned int end_fsync_notes(FILE *out, const struct cdm_run_result *r)
{
	char name[64], how[CDM_FMT_END_FSYNC_MAX];
	struct cdm_end_fsync_sum s;
	unsigned int n = 0;

	for (unsigned int k = 0; k < 2 * r->ntests; k++) {
		const struct cdm_test_result *t = &r->tests[k % r->ntests];

		if (t->dir != (k < r->ntests ? CDM_DIR_WRITE : CDM_DIR_MIX) ||
		    !cdm_result_has_data(t) || !cdm_result_end_fsync_sum(t, &r->info, &s))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "EndFsync: %s %s %s\n", name, cdm_result_dir_name(t->dir),
			cdm_fmt_end_fsync(how, sizeof(how), &s));
		n++;
	}
	return n;
}

/*
 * "Fsync: RND4K Q32T1 Write 1200 calls, mean 1.2 ms, max 4.5 ms" of each
 * write and Mix test with --fsync's fdatasyncs (cdm_result_fsync_sum()):
 * writes, then Mix, each in run order, as the sections show them
 */
static unsigned int fsync_notes(FILE *out, const struct cdm_run_result *r)
{
	char name[64], how[CDM_FMT_FSYNC_MAX];
	struct cdm_fsync_sum s;
	unsigned int n = 0;

	for (unsigned int k = 0; k < 2 * r->ntests; k++) {
		const struct cdm_test_result *t = &r->tests[k % r->ntests];

		if (t->dir != (k < r->ntests ? CDM_DIR_WRITE : CDM_DIR_MIX) ||
		    !cdm_result_has_data(t) || !cdm_result_fsync_sum(t, &r->info, &s))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "Fsync: %s %s %s\n", name, cdm_result_dir_name(t->dir),
			cdm_fmt_fsync(how, sizeof(how), &s));
		n++;
	}
	return n;
}

void cdm_layout_notes(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	char tf[CDM_FMT_TEST_FILE_MAX];
	unsigned int n = steady_notes(out, r);

	n += end_fsync_notes(out, r);
	n += fsync_notes(out, r);
	if (cdm_fmt_test_file(tf, sizeof(tf), in)[0]) {
		fprintf(out, "Test file: %s\n", tf);
		n++;
	}

	if (in->precondition && !in->precondition_ns) {
		fputs("Precondition: did not complete\n", out);
		n++;
	} else if (in->precondition) {
		char how[CDM_FMT_PRECOND_MAX];

		fprintf(out, "Precondition: %.1f sec (%s)\n", (double)in->precondition_ns / 1e9,
			cdm_fmt_precondition(how, sizeof(how)));
		n++;
	}
	if (in->numa_warning[0]) {
		fprintf(out, "NUMA: %.*s\n", (int)sizeof(in->numa_warning), in->numa_warning);
		n++;
	}
	if (n)
		fputc('\n', out);
}

void cdm_layout_profile(FILE *out, const struct cdm_run_info *in)
{
	char text[CDM_FMT_SETTING_MAX];

	/* what an imported report does not state (CDM 6 has no Profile) is unknown */
	fprintf(out, "Profile: %s\n", cdm_fmt_setting(text, sizeof(text), in, CDM_INFO_PROFILE, ""));
}

void cdm_layout_tail(FILE *out, const struct cdm_run_result *r, const struct tm *tm)
{
	char text[CDM_LAYOUT_COMMENT_MAX];

	fprintf(out, "   Date: %s\n", cdm_layout_date(text, sizeof(text), tm, &r->info));
	fprintf(out, "     OS: %s\n", cdm_layout_os(text, sizeof(text), &r->info));
	/* no Comment line when there is nothing to say, as in CDM */
	if (cdm_layout_comment(text, sizeof(text), r))
		fprintf(out, "Comment: %s\n", text);
}

int cdm_layout_write(FILE *out, const struct cdm_run_result *r, cdm_layout_row_fn row,
		     cdm_layout_footer_fn footer)
{
	struct tm tm;

	/* before the first byte, so that a bad time leaves no half report */
	if (cdm_layout_localtime(&r->info, &tm) < 0)
		return -EOVERFLOW;
	cdm_layout_head(out, &r->info, CDM_LAYOUT_WIDE);
	cdm_scale_text_head(out, r);		/* aggregates only */
	fputc('\n', out);
	sections(out, r, row);
	cdm_layout_notes(out, r);
	if (cdm_layout_verify(out, r, ""))
		fputc('\n', out);
	footer(out, r, &tm);
	cdm_scale_text_tail(out, r);		/* per-rank spread of an aggregate */
	return cdm_layout_end(out);
}

int cdm_layout_end(FILE *out)
{
	/*
	 * printf's returns are not checked line by line: the stream's error
	 * flag is sticky, so one check at the end sees any failed write.
	 * Flush first, or a full disk would only show at fclose().
	 */
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
