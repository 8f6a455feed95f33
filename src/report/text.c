/* SPDX-License-Identifier: MIT */
/*
 * text.c - the default report: CrystalDiskMark 8's text layout, line
 * for line (see docs/output-formats.md), so that cdm's reports sit beside
 * CDM's in blogs and issue trackers and go through the same parsers.  Only
 * the product and credit lines differ: they name cdm, never CDM.
 *
 * Numbers are printed with printf, and cdm never calls setlocale(), so the
 * C locale is in force and the decimal point is always '.', as CDM's
 * parsers expect.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cdm/base/size.h"
#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/report/text.h"
#include "cdm/report/formatter.h"
#include "fmt.h"
#include "scale.h"

#ifndef CDM_VERSION
#define CDM_VERSION "unknown"
#endif

#define RULE "------------------------------------------------------------------------------"
#define CREDIT "cdm - disk benchmark for Linux - MIT License"

/* CDM 8's result line; %3u/%2u/%9.x widen rather than truncate */
#define ROW_FMT "  %s (Q=%3u, T=%2u): %9.3f MB/s [%9.1f IOPS] <%9.2f us>"

/* a row of a CrystalDiskMark report without latency (CDM 6): as CDM 6 ends it */
#define ROW_NO_LAT_FMT "  %s (Q=%3u, T=%2u): %9.3f MB/s [%9.1f IOPS]"

/*
 * A test that measured nothing (no I/O completed in any pass): the same
 * label and Q/T columns, then, right-aligned to where a row's "us>" ends,
 * what happened instead of figures, so no parser reads a 0 from it
 * (docs/output-formats.md).  47 = the width of ROW_FMT's figures.
 */
#define NOTHING_FMT "  %s (Q=%3u, T=%2u): %46s"

struct row {
	char label[32];
	double mb_s;
	double iops;
	double lat_us;
};

/* @agg: which pass figure to show, per metric (--aggregate; CDM: best) */
static void row_fill(struct row *row, const struct cdm_test_result *t,
		     enum cdm_aggregate agg)
{
	cdm_spec_label(&t->spec, row->label, sizeof(row->label));
	row->mb_s = cdm_result_mb_s(t, agg);
	row->lat_us = cdm_result_lat_us(t, agg);
	/* measured, as in every other output (docs/method.md) */
	row->iops = cdm_result_iops(t, agg);
}

/* "nothing measured: no I/O completed" for a test without figures */
static void nothing_text(char *buf, size_t len, const struct cdm_test_result *t)
{
	snprintf(buf, len, "nothing measured: %s",
		 cdm_pass_state_reason(cdm_result_state(t)));
}

int cdm_text_row(char *buf, size_t len, const struct cdm_test_result *t)
{
	struct row row;

	if (cdm_result_state(t) != CDM_PASS_MEASURED) {
		char why[64];

		cdm_spec_label(&t->spec, row.label, sizeof(row.label));
		nothing_text(why, sizeof(why), t);
		return snprintf(buf, len, NOTHING_FMT, row.label, t->qd_run, t->spec.threads, why);
	}
	row_fill(&row, t, CDM_AGG_BEST);
	return snprintf(buf, len, ROW_FMT, row.label, t->qd_run,
			t->spec.threads, row.mb_s, row.iops, row.lat_us);
}

/* whole GiB, rounded half up, without overflowing near UINT64_MAX */
static unsigned long long gib_round(uint64_t bytes)
{
	return (unsigned long long)((bytes >> 30) + ((bytes >> 29) & 1));
}

/* @write_pct: for CDM_DIR_MIX, the section's write percentage */
static void write_section(FILE *out, const struct cdm_run_result *r,
			  enum cdm_dir dir, unsigned int write_pct, const char *header)
{
	const struct cdm_test_result *t;
	struct row row;
	unsigned int i;
	int any = 0;

	for (i = 0; i < r->ntests; i++) {
		t = &r->tests[i];
		/* a test not measured (interrupted, failed) has no figures */
		if (t->dir != dir || !cdm_result_has_data(t))
			continue;
		if (dir == CDM_DIR_MIX && t->spec.write_pct != write_pct)
			continue;
		if (!any) {
			fprintf(out, "%s\n", header);
			any = 1;
		}
		if (cdm_result_state(t) != CDM_PASS_MEASURED) {
			char why[64];

			cdm_spec_label(&t->spec, row.label, sizeof(row.label));
			nothing_text(why, sizeof(why), t);
			fprintf(out, NOTHING_FMT "\n", row.label, t->qd_run, t->spec.threads, why);
			continue;
		}
		/* printed directly, not via a fixed buffer: fields may widen */
		row_fill(&row, t, r->aggregate);
		if (row.lat_us != row.lat_us) {
			/* a CDM 6 report's row: no latency, so none is printed */
			fprintf(out, ROW_NO_LAT_FMT "\n", row.label, t->qd_run,
				t->spec.threads, row.mb_s, row.iops);
			continue;
		}
		fprintf(out, ROW_FMT "\n", row.label, t->qd_run,
			t->spec.threads, row.mb_s, row.iops, row.lat_us);
	}
	if (any)
		fputc('\n', out);
}

/*
 * CDM's Mix section: "[Mix] Read 70%/Write 30%" (CDM 8/9 print it after
 * [Write], same rows, same layout; the Profile, Test and Mode lines do not
 * change).  cdm can have several ratios in one run (--mix and specs with
 * W<pct>): one section per ratio, in the order they first ran.
 */
static void write_mix_sections(FILE *out, const struct cdm_run_result *r)
{
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
		write_section(out, r, CDM_DIR_MIX, w, header);
	}
}

/* is @t measured whole: every pass it asked for, and no error? */
static int test_whole(const struct cdm_test_result *t, unsigned int count)
{
	return t->npasses >= count && t->npasses && !t->error;
}

/*
 * "interrupted after 3 of 8 tests" (a signal), "stopped by an I/O error
 * after ..." (a failed I/O), or "" for a whole run; a test cut short with
 * some passes kept (its row is shown) is named with its passes.
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

		if (test_whole(t, r->info.count))
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
		snprintf(buf + n, len - (size_t)n, "; %s %s: %u of %u passes", name,
			 cdm_result_dir_name(part->dir), part->npasses, r->info.count);
	}
}

/*
 * CDM's last line, "Comment: <text>", is the one free-text line its
 * layout and its parsers have (crystaldiskmark-parser reads it whole), so
 * it carries what says which run this is and whether it is whole: the
 * --label when given (the default label, TARGET, is not repeated), the
 * --comment, and "[interrupted after N of M tests]".  No line when there
 * is none of them, as in CDM.
 */
static void write_comment(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	/* an imported report's Comment is its own (its label is made from it or its file) */
	int label = in->label[0] && strncmp(in->label, in->target, sizeof(in->label)) != 0 &&
		    in->source.kind == CDM_SOURCE_RUN;
	const char *sep = "";
	char status[160];

	run_status(r, status, sizeof(status));
	if (!label && !in->comment[0] && !status[0])
		return;
	fputs("Comment:", out);
	if (label) {
		fprintf(out, " %.*s", (int)sizeof(in->label), in->label);
		sep = " -";
	}
	if (in->comment[0])
		fprintf(out, "%s %.*s", sep, (int)sizeof(in->comment), in->comment);
	if (status[0])
		fprintf(out, " [%s]", status);
	fputc('\n', out);
}

/*
 * The footer of a run imported from a CrystalDiskMark report, after its
 * Profile line: its volume as the report printed it (a drive letter), its
 * marks, and "unknown" for what the report did not state (CDM 6 and 7
 * print no Measure time; a trimmed report may lack Date and OS).  Its
 * Date is its wall time, kept as UTC (@tm from gmtime_r).
 */
static void write_source_footer(FILE *out, const struct cdm_run_result *r, const struct tm *tm)
{
	const struct cdm_run_info *in = &r->info;
	char size[32] = "unknown", count[16] = "?", mt[16], iv[16];

	if (in->size)
		cdm_size_format(in->size, size, sizeof(size));
	if (in->count)
		snprintf(count, sizeof(count), "%u", in->count);
	fprintf(out, "   Test: %s (x%s)", size, count);
	if (in->source.volume[0])
		fprintf(out, " [%.*s]", (int)sizeof(in->source.volume), in->source.volume);
	fprintf(out, "\n   Mode:%s%s\n", in->admin ? " [Admin]" : "", in->zero_fill ? " <0Fill>" : "");
	snprintf(mt, sizeof(mt), "%u sec", in->time);
	snprintf(iv, sizeof(iv), "%u sec", in->interval);
	fprintf(out, "   Time: Measure %s / Interval %s \n", in->time ? mt : "unknown",
		in->source.has_interval ? iv : "unknown");
	if (in->source.date_text[0])
		fprintf(out, "   Date: %04d/%02d/%02d %d:%02d:%02d\n",
			tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday,
			tm->tm_hour, tm->tm_min, tm->tm_sec);
	else
		fputs("   Date: unknown\n", out);
	if (!in->os[0] && !in->kernel[0] && !in->machine[0])
		fputs("     OS: unknown\n", out);
	else
		fprintf(out, "     OS: %.*s [%.*s] (%.*s)\n", (int)sizeof(in->os), in->os,
			(int)sizeof(in->kernel), in->kernel, (int)sizeof(in->machine), in->machine);
	write_comment(out, r);
}

static void write_footer(FILE *out, const struct cdm_run_result *r,
			 const struct tm *tm)
{
	const struct cdm_run_info *in = &r->info;
	char size[32];
	unsigned int pct = 0;

	fprintf(out, "Profile: %.*s\n", (int)sizeof(in->profile), in->profile);
	if (in->source.kind != CDM_SOURCE_RUN) {
		write_source_footer(out, r, tm);
		return;
	}

	cdm_size_format(in->size, size, sizeof(size));
	if (in->fs_total_bytes)
		pct = (unsigned int)(100.0 * (double)in->fs_used_bytes /
				     (double)in->fs_total_bytes + 0.5);
	if (in->is_device) {
		char dsz[32];

		/* a raw device has no volume usage: its size and sectors */
		cdm_size_format(in->target_dev_bytes, dsz, sizeof(dsz));
		fprintf(out, "   Test: %s (x%u) [%.*s: block device, %s, %u-byte sectors]\n",
			size, in->count, (int)sizeof(in->target), in->target, dsz,
			in->target_dev_lbs);
	} else {
		fprintf(out, "   Test: %s (x%u) [%.*s: %u%% (%llu/%lluGiB)]\n",
			size, in->count,
			(int)sizeof(in->mount_point), in->mount_point, pct,
			gib_round(in->fs_used_bytes), gib_round(in->fs_total_bytes));
	}

	/* CDM's two marks, then cdm's own for durability and a fixed rate */
	fprintf(out, "   Mode:%s%s%s", in->admin ? " [Admin]" : "",
		in->zero_fill ? " <0Fill>" : "", in->dsync ? " <O_DSYNC>" : "");
	if (in->fsync_every)
		fprintf(out, " <fdatasync/%u>", in->fsync_every);
	if (in->rate_iops)
		fprintf(out, " <Rate %llu IOPS>", (unsigned long long)in->rate_iops);
	fputc('\n', out);
	/* the trailing space is CDM's, and parsers may rely on it */
	fprintf(out, "   Time: Measure %u sec / Interval %u sec \n",
		in->time, in->interval);
	/* CDM does not pad the hour: "2021/06/23 0:05:57" */
	fprintf(out, "   Date: %04d/%02d/%02d %d:%02d:%02d\n",
		tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday,
		tm->tm_hour, tm->tm_min, tm->tm_sec);
	fprintf(out, "     OS: %.*s [%.*s] (%.*s)\n",
		(int)sizeof(in->os), in->os,
		(int)sizeof(in->kernel), in->kernel,
		(int)sizeof(in->machine), in->machine);
	write_comment(out, r);
}

static int cdm_text_write(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	struct tm tm;

	/*
	 * before the first byte, so that a bad time leaves no half report; a
	 * CrystalDiskMark report's Date is its wall time kept as UTC (its
	 * zone is unknown), shown as it was printed
	 */
	if (!(in->source.kind != CDM_SOURCE_RUN ? gmtime_r(&in->start, &tm) :
	      localtime_r(&in->start, &tm)))
		return -EOVERFLOW;

	fputs(RULE "\n", out);
	if (in->source.kind != CDM_SOURCE_RUN)
		/* no cdm run: say whose figures these are */
		fprintf(out, "cdm %s: a CrystalDiskMark%s%.*s%s%.*s report, imported\n",
			CDM_VERSION, in->source.version[0] ? " " : "",
			(int)sizeof(in->source.version), in->source.version,
			in->source.edition[0] ? " " : "",
			(int)sizeof(in->source.edition), in->source.edition);
	else
		fprintf(out, "cdm %.*s %.*s (%.*s, %s)\n",
			(int)sizeof(in->version),
			in->version[0] ? in->version : CDM_VERSION,
			(int)sizeof(in->machine), in->machine,
			(int)sizeof(in->engine), in->engine,
			in->direct ? "O_DIRECT" : "buffered");
	fprintf(out, "%78s\n", CREDIT);
	fputs(RULE "\n", out);
	fputs("* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n", out);
	fputs("* KB = 1000 bytes, KiB = 1024 bytes\n", out);
	cdm_scale_text_head(out, r);		/* aggregates only */
	fputc('\n', out);

	write_section(out, r, CDM_DIR_READ, 0, "[Read]");
	write_section(out, r, CDM_DIR_WRITE, 0, "[Write]");
	write_mix_sections(out, r);
	write_footer(out, r, &tm);
	cdm_scale_text_tail(out, r);		/* per-rank spread of an aggregate */

	/*
	 * printf's returns are not checked line by line: the stream's error
	 * flag is sticky, so one check at the end sees any failed write.
	 * Flush first, or a full disk would only show at fclose().
	 */
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_report_text = {
	.name = "cdm",
	.write = cdm_text_write,
};
