/* SPDX-License-Identifier: MIT */
/*
 * csv.c - --format csv: one header line, then per test and direction one
 * row per measured pass (kind "pass") and three summary rows (kinds
 * "best", "median", "mean": the figure each aggregate picks, per metric,
 * with the spread and the percentiles), for spreadsheets and for joining
 * the runs of several volumes on the label column.  Fields are quoted as
 * RFC 4180 says (a field with a comma, a quote or a line break is quoted,
 * its quotes doubled); lines end with "\n"; numbers use "." whatever the
 * locale; a figure that does not exist is an empty field, and the last
 * column, "reason", says why when a pass or a test measured nothing.
 * Before it, every row carries --fsync's figures, each setting of the
 * settings table (model/settings.h, by its JSON key) and the target, so
 * that a row stands on its own in the CSV of several runs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/model/settings.h"
#include "cdm/format/formatter.h"
#include "cdm/format/fmt.h"
#include "cdm/format/series_out.h"

/* the header up to the fsync columns; the settings and the target follow (run_header()) */
static const char header[] =
	"label,test,direction,pattern,block_bytes,threads,queue_depth,queue_depth_run,"
	"kind,pass,duration_s,bytes,ios,mb_s,iops,lat_mean_ns,lat_max_ns,"
	"cpu_user_ns,cpu_sys_ns,cpu_ns_per_io,mb_s_cv_pct,"
	"end_fsync_ns,steady_window,steady_reached_at_round,steady_range_pct,steady_slope_pct,"
	"lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p99_9_ns,lat_p99_99_ns,"
	"verify_status,verify_blocks,verify_sample_every,verify_lost,verify_misdirected,verify_torn,"
	"fsync_count,fsync_mean_ns,fsync_max_ns";

/* the target's columns after the settings' */
static const char target_header[] =
	"target,mount_point,fs_type,fs_source,device,device_model,is_device,logical_block_bytes,"
	"test_file,test_file_data";

static const double pcts[] = { 50.0, 90.0, 99.0, 99.9, 99.99 };

/* RFC 4180: quote a field holding ',', '"', CR or LF; double its quotes */
static void field(FILE *out, const char *s, size_t max)
{
	size_t n = strnlen(s, max), i;

	if (strcspn(s, ",\"\r\n") >= n) {
		fwrite(s, 1, n, out);
		return;
	}
	fputc('"', out);
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

static void num(FILE *out, double v)
{
	char buf[40];

	fputc(',', out);
	cdm_fmt_num(buf, sizeof(buf), v);
	if (strcmp(buf, "null"))
		fputs(buf, out);
}

static void u64(FILE *out, uint64_t v)
{
	fprintf(out, ",%" PRIu64, v);
}

/*
 * The verify columns (--verify's read-back of the test, struct
 * cdm_verify): on a summary row (@summary) its status ("clean", "faults",
 * "nothing_written", "interrupted") and, when it ran to its end, the
 * blocks checked (empty when not known), the k of its 1 block in k (1:
 * every block written) and
 * each fault kind's count; empty on pass rows, and
 * when the test was not read back
 */
static void verify_cols(FILE *out, const struct cdm_test_result *t, int summary)
{
	const struct cdm_verify *v = &t->verify;
	enum cdm_verify_state st = cdm_result_verify_state(v);

	if (!summary || st == CDM_VERIFY_STATE_NONE) {
		fputs(",,,,,,", out);
		return;
	}
	fprintf(out, ",%s", cdm_result_verify_state_key(st));
	if (st == CDM_VERIFY_STATE_INTERRUPTED) {
		fputs(",,,,,", out);
		return;
	}
	/* empty when not known (cdm's text of a run, read back, states none) */
	if (v->blocks_unknown)
		fputc(',', out);
	else
		fprintf(out, ",%" PRIu64, v->blocks);
	/* 1 block in k read back, as JSON's sample_every: empty when a sample's k is unknown */
	if (v->sampled && !v->every)
		fputc(',', out);
	else
		fprintf(out, ",%" PRIu64, v->sampled ? v->every : 1);
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, v->lost, v->misdirected, v->torn);
}

/*
 * One setting's column (model/settings.h): empty when it has no value
 * (cdm_settings_known()), else as JSON's "settings" holds it: a text, a
 * number, true or false, zero or random, --steady-state's most rounds,
 * --precondition true, the aggregate's name
 */
static void setting_col(FILE *out, const struct cdm_setting *s, const struct cdm_run_result *r)
{
	char t[CDM_FMT_SETTING_MAX > CDM_SETTINGS_TEXT_MAX ? CDM_FMT_SETTING_MAX : CDM_SETTINGS_TEXT_MAX];
	uint64_t v = cdm_settings_u64(s, r);

	fputc(',', out);
	if (!cdm_settings_known(s, r))
		return;
	switch (s->type) {
	case CDM_SETTING_MSEC:
		fputs(cdm_fmt_setting(t, sizeof(t), &r->info, s->item, ""), out);
		break;
	case CDM_SETTING_BOOL:
	case CDM_SETTING_PRECOND:
		fputs(v ? "true" : "false", out);
		break;
	case CDM_SETTING_DATA:
		fputs(v ? "zero" : "random", out);
		break;
	case CDM_SETTING_AGGREGATE:
		fputs(cdm_result_aggregate_name((enum cdm_aggregate)v), out);
		break;
	case CDM_SETTING_PCT:
		cdm_fmt_num(t, sizeof(t), *(const double *)cdm_settings_at_const(s, r));
		if (strcmp(t, "null"))
			fputs(t, out);
		break;
	default:
		/* texts as held, whole numbers in decimal, steady state its most rounds */
		field(out, cdm_settings_info_text(s, &r->info, t, sizeof(t)), sizeof(t));
		break;
	}
}

/* a text column of the target, RFC 4180 quoted */
#define TEXT_COL(out, f) (fputc(',', out), field(out, f, sizeof(f)))

/*
 * The run's columns of every row: each setting of the table, then the
 * target (its path, filesystem, device, the logical block size its
 * O_DIRECT I/O is aligned to, a new or kept test file and its data);
 * empty where not known, as JSON's null
 */
static void run_cols(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	const char *tf = cdm_result_test_file_key(in->test_file);
	const char *data = cdm_result_file_data_key(in->test_file_data);
	unsigned int n;
	const struct cdm_setting *set = cdm_settings(&n);

	for (unsigned int i = 0; i < n; i++)
		setting_col(out, &set[i], r);
	TEXT_COL(out, in->target);
	TEXT_COL(out, in->mount_point);
	TEXT_COL(out, in->fs_type);
	TEXT_COL(out, in->fs_source);
	TEXT_COL(out, in->dev_name);
	TEXT_COL(out, in->dev_model);
	if (cdm_result_known(in, CDM_INFO_HOST))
		fputs(in->is_device ? ",true" : ",false", out);
	else
		fputc(',', out);
	if (in->target_dev_lbs)
		fprintf(out, ",%u", in->target_dev_lbs);
	else
		fputc(',', out);
	fprintf(out, ",%s,%s", tf ? tf : "", data ? data : "");
}

/* the header: the figures' columns, the settings' keys, the target's, reason */
static void run_header(FILE *out)
{
	unsigned int n;
	const struct cdm_setting *set = cdm_settings(&n);

	fputs(header, out);
	for (unsigned int i = 0; i < n; i++)
		fprintf(out, ",%s", set[i].key);
	fprintf(out, ",%s,reason\n", target_header);
}

/*
 * The fsync columns (--fsync's fdatasyncs of pass @p, or of the passes
 * the figures come from as one): the calls, their mean and longest time;
 * all empty without --fsync or for a read test, the times empty without
 * a call
 */
static void fsync_cols(FILE *out, const struct cdm_run_result *r,
		       const struct cdm_test_result *t, const struct cdm_pass *p)
{
	if (!p || !r->info.fsync_every || t->dir == CDM_DIR_READ) {
		fputs(",,,", out);
		return;
	}
	u64(out, p->fsyncs);
	if (p->fsyncs) {
		num(out, (double)p->fsync_sum_ns / (double)p->fsyncs);
		u64(out, p->fsync_max_ns);
	} else {
		fputs(",,", out);
	}
}

/* the "reason" column and the line's end; @why NULL or "": empty */
static void reason_end(FILE *out, const char *why)
{
	fputc(',', out);
	if (why && why[0])
		field(out, why, 256);
	fputc('\n', out);
}

/* the columns up to and including "kind" */
static void lead(FILE *out, const struct cdm_run_result *r,
		 const struct cdm_test_result *t, const char *kind)
{
	const struct cdm_run_info *in = &r->info;
	char name[64];

	if (in->label[0])
		field(out, in->label, sizeof(in->label));
	else
		field(out, in->target, sizeof(in->target));
	cdm_spec_name(&t->spec, name, sizeof(name));
	fprintf(out, ",%s,%s,%s,%" PRIu64 ",%u,%u,%u,%s", name,
		cdm_result_dir_key(t->dir),
		t->spec.pattern == CDM_RND ? "RND" : "SEQ", t->spec.block,
		t->spec.threads, t->spec.qd, t->qd_run, kind);
}

/* a reported test's fsync columns: its "Fsync:" note's, on the row of its figures */
static void reported_fsync_cols(FILE *out, const struct cdm_run_result *r,
				const struct cdm_test_result *t, int best)
{
	struct cdm_fsync_sum f;

	if (!best || !cdm_result_fsync_sum(t, &r->info, &f)) {
		fputs(",,,", out);
		return;
	}
	u64(out, f.count);
	num(out, f.mean_ns);
	num(out, f.max_ns);
}

/*
 * A test of an imported CrystalDiskMark report: no pass rows; its "best"
 * row has the figures the report printed (no counts, CPU, spread or
 * percentiles: empty) and what cdm's Verify lines said of it, and its
 * "median" and "mean" rows are empty with the reason
 * (cdm_result_agg_reason()).
 */
static void write_reported(FILE *out, const struct cdm_run_result *r,
			   const struct cdm_test_result *t)
{
	static const enum cdm_aggregate aggs[] = { CDM_AGG_BEST, CDM_AGG_MEDIAN, CDM_AGG_MEAN };

	for (unsigned int i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++) {
		lead(out, r, t, cdm_result_aggregate_name(aggs[i]));
		fputs(",,,,", out);             /* pass, duration, bytes, I/Os */
		num(out, cdm_result_mb_s(t, aggs[i]));
		num(out, cdm_result_iops(t, aggs[i]));
		num(out, cdm_result_lat_us(t, aggs[i]) * 1000.0);
		fputs(",,,,,", out);            /* max, CPU, CV */
		fputs(",,,,,", out);            /* no passes: no end fsync, no rounds */
		fputs(",,,,,", out);            /* no percentiles */
		/* what its Verify lines said, on the row of its figures */
		verify_cols(out, t, aggs[i] == CDM_AGG_BEST);
		reported_fsync_cols(out, r, t, aggs[i] == CDM_AGG_BEST);
		run_cols(out, r);
		reason_end(out, cdm_result_agg_reason(t, aggs[i]));
	}
}

/*
 * A pass row's end_fsync_ns (--end-fsync: the time of the fdatasync that
 * ended a write or Mix pass; empty for other passes) and steady_window
 * (--steady-state: 1 when the round is in the window the figures come
 * from, else 0; empty without), then its three empty steady columns
 */
static void pass_hold(FILE *out, const struct cdm_run_result *r, const struct cdm_test_result *t,
		      unsigned int i)
{
	if (cdm_result_end_fsync(t, r->info.end_fsync) && t->passes[i].end_fsyncs)
		u64(out, t->passes[i].end_fsync_ns);
	else
		fputc(',', out);
	if (t->steady.on)
		fprintf(out, ",%d", i >= cdm_result_first_pass(t));
	else
		fputc(',', out);
	fputs(",,,", out);
}

/*
 * A summary row's end_fsync_ns, the time of --end-fsync's flushes summed
 * over the passes the figures come from (cdm_result_end_fsync_sum(), a
 * total as duration_s is; empty for a test whose passes end with none),
 * and its steady columns: steady_window, the window's rounds "3-7"
 * (1-based); the round it got steady (empty when never) and the last
 * window's range and slope, % of its mean (empty when not judged); all
 * empty without steady state
 */
static void summary_hold(FILE *out, const struct cdm_run_result *r,
			 const struct cdm_test_result *t, unsigned int n)
{
	const struct cdm_steady *st = &t->steady;
	struct cdm_end_fsync_sum e;

	if (cdm_result_end_fsync_sum(t, &r->info, &e))
		u64(out, e.total_ns);
	else
		fputc(',', out);
	if (!st->on) {
		fputs(",,,,", out);
		return;
	}
	fprintf(out, ",%u-%u", cdm_result_first_pass(t) + 1, n);
	if (st->reached_at_round)
		fprintf(out, ",%u", st->reached_at_round);
	else
		fputc(',', out);
	num(out, st->range_pct);
	num(out, st->slope_pct);
}

/*
 * The columns a row takes from pass @p (a pass, or all passes as one):
 * the latency maximum, the CPU user and system time, CPU time per I/O;
 * a maximum or a share over no I/O is an empty field.
 */
static void pass_cols(FILE *out, const struct cdm_pass *p)
{
	if (p->ios)
		u64(out, p->lat_max_ns);
	else
		fputc(',', out);
	u64(out, p->cpu_user_ns);
	u64(out, p->cpu_sys_ns);
	if (p->ios)
		num(out, (double)(p->cpu_user_ns + p->cpu_sys_ns) / (double)p->ios);
	else
		fputc(',', out);
}

/* pass @i of test @t: one row */
static void write_pass(FILE *out, const struct cdm_run_result *r,
		       const struct cdm_test_result *t, unsigned int i)
{
	const struct cdm_pass *p = &t->passes[i];

	lead(out, r, t, "pass");
	fprintf(out, ",%u", i + 1);
	num(out, p->seconds);
	u64(out, p->bytes);
	u64(out, p->ios);
	/* a pass that measured nothing: empty figures (NaN), and why */
	num(out, cdm_pass_mb_s(p));
	num(out, cdm_pass_iops(p));
	num(out, cdm_pass_mean_lat_ns(p));
	pass_cols(out, p);
	fputc(',', out);        /* no spread per pass */
	pass_hold(out, r, t, i);
	fputs(",,,,,", out);    /* no percentiles per pass */
	verify_cols(out, t, 0);
	fsync_cols(out, r, t, p);
	run_cols(out, r);
	reason_end(out, cdm_pass_state_reason(cdm_pass_state(p)));
}

static void write_test(FILE *out, const struct cdm_run_result *r,
		       const struct cdm_test_result *t)
{
	static const enum cdm_aggregate aggs[] = { CDM_AGG_BEST, CDM_AGG_MEDIAN, CDM_AGG_MEAN };
	unsigned int i, n = t->npasses < CDM_MAX_PASSES ? t->npasses : CDM_MAX_PASSES;
	struct cdm_test_summary s;
	struct cdm_pass all;
	char why[256];

	if (t->reported.has) {
		write_reported(out, r, t);
		return;
	}
	for (i = 0; i < n; i++)
		write_pass(out, r, t, i);
	if (!n)
		return;
	/* the summary rows: over the passes the figures come from (the steady window) */
	cdm_result_summarize(t, &s);
	cdm_result_window_pass(t, &all);
	cdm_result_why(t, why, sizeof(why));
	for (i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++) {
		lead(out, r, t, cdm_result_aggregate_name(aggs[i]));
		fputc(',', out);
		num(out, s.seconds);
		u64(out, s.bytes);
		u64(out, s.ios);
		/* no pass measured: no figure to pick (NaN: an empty field) */
		num(out, cdm_result_spread_pick(&s.mb_s, aggs[i], 1));
		num(out, cdm_result_iops(t, aggs[i]));
		num(out, cdm_result_spread_pick(&s.lat_ns, aggs[i], 0));
		pass_cols(out, &all);
		if (s.mb_s.n)
			num(out, s.mb_s.cv_pct);
		else
			fputc(',', out);
		summary_hold(out, r, t, n);
		for (unsigned int k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
			if (cdm_result_has_percentiles(t))
				u64(out, cdm_hist_percentile(t->hist, pcts[k]));
			else
				fputc(',', out);
		}
		verify_cols(out, t, 1);
		fsync_cols(out, r, t, &all);
		run_cols(out, r);
		reason_end(out, why);
	}
}

static int csv_write(FILE *out, const struct cdm_run_result *r)
{
	unsigned int i;

	run_header(out);
	for (i = 0; i < r->ntests; i++)
		write_test(out, r, &r->tests[i]);
	cdm_series_out_csv(out, r);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_report_csv = {
	.name = "csv",
	.title = "CSV",
	.ext = "csv",
	.write = csv_write,
};
