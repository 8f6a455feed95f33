/* SPDX-License-Identifier: MIT */
/*
 * json.c - --format json: the whole result model in one documented,
 * versioned JSON document (docs/output-formats.md, schema_version 2), for
 * `cdm compare`, scripts, jq and spreadsheets.  Every figure is a number
 * with its unit in the key (_ns, _bytes, _s, mb_s, iops); every pass is
 * there with its CPU time; the spread of the passes, the percentiles of
 * the merged histogram and its non-empty buckets (so that runs can later
 * be merged exactly) follow.  Figures that do not exist (an interrupted
 * test has no merged histogram; a pass in which no I/O completed has no
 * MB/s) are null, with a "reason" where the figures of a pass or a test
 * are missing, never made up.  The output is
 * valid JSON in every case, including a run stopped before any test.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cdm/base/version.h"
#include "cdm/model/result.h"
#include "cdm/model/result_read.h"
#include "cdm/model/spec.h"
#include "cdm/report/formatter.h"
#include "cdm/target/testfile.h"
#include "layout.h"
#include "cdm/report/fmt.h"
#include "scale.h"
#include "series_out.h"

/* percentiles written for every complete test, and their key names */
static const struct {
	double pct;
	const char *key;
} pcts[] = {
	{ 50.0, "p50_ns" },
	{ 90.0, "p90_ns" },
	{ 99.0, "p99_ns" },
	{ 99.9, "p99_9_ns" },
	{ 99.99, "p99_99_ns" },
};

#define STR(out, field) cdm_fmt_json_str(out, field, sizeof(field))

static void num(FILE *out, double v)
{
	char buf[40];

	fputs(cdm_fmt_num(buf, sizeof(buf), v), out);
}

static void key_u64(FILE *out, const char *ind, const char *key, uint64_t v,
		    const char *end)
{
	fprintf(out, "%s\"%s\": %" PRIu64 "%s\n", ind, key, v, end);
}

/* a maximum over @n values: null when there were none (not a measured 0) */
static void key_max(FILE *out, const char *ind, const char *key, uint64_t v, uint64_t n,
		    const char *end)
{
	if (n)
		key_u64(out, ind, key, v, end);
	else
		fprintf(out, "%s\"%s\": null%s\n", ind, key, end);
}

static void key_num(FILE *out, const char *ind, const char *key, double v,
		    const char *end)
{
	fprintf(out, "%s\"%s\": ", ind, key);
	num(out, v);
	fprintf(out, "%s\n", end);
}

/* a string key; "" written as null when @empty_null */
static void key_str(FILE *out, const char *ind, const char *key, const char *s,
		    size_t max, int empty_null, const char *end)
{
	fprintf(out, "%s\"%s\": ", ind, key);
	if (empty_null && !s[0])
		fputs("null", out);
	else
		cdm_fmt_json_str(out, s, max);
	fprintf(out, "%s\n", end);
}

/*
 * target.memory_under: what under the target may make the figures memory
 * speed (target/stack.h), one object per finding; [] when nothing was
 * found, null when nothing looked (an imported report: CDM_INFO_HOST).
 */
static void write_memory_under(FILE *out, const struct cdm_run_info *in)
{
	unsigned int n = in->nmem_under < CDM_MEM_UNDER_MAX ? in->nmem_under : CDM_MEM_UNDER_MAX;

	if (!cdm_result_known(in, CDM_INFO_HOST)) {
		fputs("    \"memory_under\": null\n", out);
		return;
	}
	if (!n) {
		fputs("    \"memory_under\": []\n", out);
		return;
	}
	fputs("    \"memory_under\": [\n", out);
	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_mem_under *f = &in->mem_under[i];

		fputs("      { \"kind\": ", out);
		STR(out, f->kind);
		fputs(", \"layer\": ", out);
		STR(out, f->layer);
		fputs(", \"stack\": ", out);
		STR(out, f->stack);
		fputs(", \"why\": ", out);
		STR(out, f->why);
		fputs(", \"fix\": ", out);
		STR(out, f->fix);
		fprintf(out, " }%s\n", i + 1 < n ? "," : "");
	}
	fputs("    ]\n", out);
}

/* a number: null when an imported report does not state @item (cdm_result_known()) */
static void key_setting(FILE *out, const char *ind, const struct cdm_run_info *in,
			const char *key, uint64_t v, enum cdm_info_item item)
{
	if (!cdm_result_known(in, item))
		fprintf(out, "%s\"%s\": null,\n", ind, key);
	else
		key_u64(out, ind, key, v, ",");
}

/*
 * a time, held in ms, as seconds: 5, 0.5 (cdm_fmt_setting(): a whole
 * second as it always was); null when an imported report does not state it
 */
static void key_secs(FILE *out, const char *ind, const struct cdm_run_info *in,
		     const char *key, enum cdm_info_item item)
{
	char s[CDM_FMT_SETTING_MAX];

	if (!cdm_result_known(in, item))
		fprintf(out, "%s\"%s\": null,\n", ind, key);
	else
		fprintf(out, "%s\"%s\": %s,\n", ind, key, cdm_fmt_setting(s, sizeof(s), in, item, ""));
}

/*
 * "source" of an imported run (schema 3): the report's product line,
 * version, edition and layout, the file, and its Date: as printed and as
 * a local time without zone ("date_local"; "start_unix" holds the same
 * wall time read as UTC, so that reports of it show the same Date), its
 * volume, and the blocks of cdm's clean Verify line ("verify_blocks").
 */
static void write_source(FILE *out, const struct cdm_run_info *in)
{
	const struct cdm_run_source *src = &in->source;
	char local[32] = "";
	struct tm tm;

	if (!cdm_result_imported(in))
		return;
	/* the report's wall time, as the layouts print it (layout.c's rule) */
	if (cdm_result_known(in, CDM_INFO_DATE) && !cdm_layout_localtime(in, &tm))
		strftime(local, sizeof(local), "%Y-%m-%dT%H:%M:%S", &tm);
	fputs("  \"source\": {\n", out);
	/* cdm's own text report read back: "cdm_text", and whose figures it printed */
	if (src->kind == CDM_SOURCE_CDM_TEXT) {
		fputs("    \"kind\": \"cdm_text\",\n", out);
		key_str(out, "    ", "origin", src->origin, sizeof(src->origin), 1, ",");
	} else {
		fputs("    \"kind\": \"crystaldiskmark\",\n", out);
	}
	key_str(out, "    ", "product", src->product, sizeof(src->product), 1, ",");
	key_str(out, "    ", "version", src->version, sizeof(src->version), 1, ",");
	key_str(out, "    ", "edition", src->edition, sizeof(src->edition), 1, ",");
	if (src->layout)
		key_u64(out, "    ", "layout", src->layout, ",");
	else
		fputs("    \"layout\": null,\n", out);
	key_str(out, "    ", "file", src->file, sizeof(src->file), 1, ",");
	key_str(out, "    ", "date_text", src->date_text, sizeof(src->date_text), 1, ",");
	key_str(out, "    ", "date_local", local, sizeof(local), 1, ",");
	fputs("    \"time_zone\": null,\n", out);
	key_str(out, "    ", "volume", src->volume, sizeof(src->volume), 1, ",");
	/* cdm's text: its clean Verify line's blocks, its clean tests' together */
	if (src->verify_blocks)
		key_u64(out, "    ", "verify_blocks", src->verify_blocks, "");
	else
		fputs("    \"verify_blocks\": null\n", out);
	fputs("  },\n", out);
}

/*
 * A test of an imported report: "reported", the figures CDM printed
 * (null where the report has none: CDM 6's latency).
 */
static void write_reported(FILE *out, const struct cdm_test_result *t)
{
	const struct cdm_end_fsync_sum *e = &t->reported.end_fsync;

	if (!t->reported.has)
		return;
	fputs("      \"reported\": { \"mb_s\": ", out);
	num(out, t->reported.mb_s);
	fputs(", \"iops\": ", out);
	num(out, t->reported.iops);
	fputs(", \"lat_mean_us\": ", out);
	num(out, t->reported.lat_us);
	/* cdm's text of a run with --end-fsync: its "EndFsync:" note */
	if (t->reported.has_end_fsync) {
		fputs(",\n        \"end_fsync\": { \"mean_ns\": ", out);
		num(out, e->mean_ns);
		fputs(", \"max_ns\": ", out);
		num(out, e->max_ns);
		fputs(", \"pass_pct\": ", out);
		num(out, e->pass_pct);
		fputs(" }", out);
	}
	fputs(" },\n", out);
}

/*
 * The settings of issue 14's method (docs/method.md): --end-fsync,
 * --steady-state (its rule's constants, so a reader needs no source),
 * --precondition (and how long it took), --verify, --cpus.  Always
 * written: false or null when not used.
 */
static void write_hold_settings(FILE *out, const struct cdm_run_info *in)
{
	fprintf(out, "    \"end_fsync\": %s,\n", in->end_fsync ? "true" : "false");
	if (in->steady_state) {
		fprintf(out, "    \"steady_state\": { \"max_rounds\": %u, \"window_rounds\": %u, "
			"\"range_pct_max\": ", in->max_rounds, CDM_STEADY_WINDOW);
		num(out, CDM_STEADY_RANGE_PCT);
		fputs(", \"slope_pct_max\": ", out);
		num(out, CDM_STEADY_SLOPE_PCT);
		fprintf(out, ", \"tracked\": \"%s for RND, %s for SEQ\" },\n",
			cdm_steady_tracked_name(CDM_RND), cdm_steady_tracked_name(CDM_SEQ));
	} else {
		fputs("    \"steady_state\": null,\n", out);
	}
	if (in->precondition && !in->precondition_ns)
		/* set, but stopped before it completed: no time */
		fprintf(out, "    \"precondition\": { \"passes\": %u, \"block_bytes\": %u, "
			"\"time_ns\": null, \"complete\": false },\n", CDM_TESTFILE_PRECOND_PASSES,
			CDM_TESTFILE_PRECOND_BLOCK);
	else if (in->precondition)
		fprintf(out, "    \"precondition\": { \"passes\": %u, \"block_bytes\": %u, "
			"\"time_ns\": %" PRIu64 ", \"complete\": true },\n",
			CDM_TESTFILE_PRECOND_PASSES, CDM_TESTFILE_PRECOND_BLOCK, in->precondition_ns);
	else
		fputs("    \"precondition\": null,\n", out);
	fprintf(out, "    \"verify\": %s,\n", in->verify ? "true" : "false");
	key_str(out, "    ", "cpus", in->cpus, sizeof(in->cpus), 1, ",");
}

/* the system's side of --cpus: the CPUs allowed, the device's NUMA node, the warning */
static void write_placement(FILE *out, const struct cdm_run_info *in)
{
	key_str(out, "    ", "cpus_allowed_list", in->cpus_allowed_list,
		sizeof(in->cpus_allowed_list), 1, ",");
	if (in->dev_numa_node >= 0)
		fprintf(out, "    \"device_numa_node\": %d,\n", in->dev_numa_node);
	else
		fputs("    \"device_numa_node\": null,\n", out);
	key_str(out, "    ", "numa_warning", in->numa_warning, sizeof(in->numa_warning), 1, ",");
}

static void write_info(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	char utc[32];

	fputs("  \"settings\": {\n", out);
	key_str(out, "    ", "profile", in->profile, sizeof(in->profile),
		!cdm_result_known(in, CDM_INFO_PROFILE), ",");
	key_setting(out, "    ", in, "size_bytes", in->size, CDM_INFO_SIZE);
	key_setting(out, "    ", in, "count", in->count, CDM_INFO_COUNT);
	key_secs(out, "    ", in, "time_s", CDM_INFO_TIME);
	key_secs(out, "    ", in, "interval_s", CDM_INFO_INTERVAL);
	key_secs(out, "    ", in, "warmup_s", CDM_INFO_WARMUP);
	key_str(out, "    ", "engine", in->engine, sizeof(in->engine),
		!cdm_result_known(in, CDM_INFO_ENGINE), ",");
	fprintf(out, "    \"direct\": %s,\n", in->direct ? "true" : "false");
	/* null: an imported report that does not state it (CDM 8 cut before its Mode line) */
	if (cdm_result_known(in, CDM_INFO_DATA))
		fprintf(out, "    \"data\": \"%s\",\n", in->zero_fill ? "zero" : "random");
	else
		fputs("    \"data\": null,\n", out);
	fprintf(out, "    \"sync\": %s,\n", in->dsync ? "true" : "false");
	if (in->fsync_every)
		key_u64(out, "    ", "fsync_every", in->fsync_every, ",");
	else
		fputs("    \"fsync_every\": null,\n", out);
	if (in->rate_iops)
		key_u64(out, "    ", "rate_iops", in->rate_iops, ",");
	else
		fputs("    \"rate_iops\": null,\n", out);
	if (in->seed)
		key_u64(out, "    ", "seed", in->seed, ",");
	else
		fputs("    \"seed\": null,\n", out);
	/* the null engine's simulated device (base/devspec.h's canonical text), or null */
	key_str(out, "    ", "null_device", in->null_device, sizeof(in->null_device), 1, ",");
	write_hold_settings(out, in);
	fprintf(out, "    \"aggregate\": \"%s\",\n", cdm_result_aggregate_name(r->aggregate));
	/* cdm's own bar for "unstable": an imported report has no passes it could judge */
	if (cdm_result_imported(in))
		fputs("    \"cv_threshold_pct\": null\n", out);
	else
		key_num(out, "    ", "cv_threshold_pct", r->cv_threshold_pct, "");
	fputs("  },\n", out);

	/* an imported report without its Date states no start: null, not 1970 */
	if (cdm_result_known(in, CDM_INFO_DATE))
		fprintf(out, "  \"start_unix\": %lld,\n", (long long)in->start);
	else
		fputs("  \"start_unix\": null,\n", out);
	cdm_fmt_utc(utc, sizeof(utc), (long long)in->start);
	if (cdm_result_imported(in))
		utc[0] = '\0';         /* a report's Date has no zone: "source" */
	key_str(out, "  ", "start_utc", utc, sizeof(utc), 1, ",");

	fputs("  \"target\": {\n", out);
	/* a CDM 7 report names no volume: no path, no usage (null, never 0) */
	key_str(out, "    ", "path", in->target, sizeof(in->target),
		!cdm_result_known(in, CDM_INFO_VOLUME), ",");
	key_str(out, "    ", "mount_point", in->mount_point, sizeof(in->mount_point), 1, ",");
	key_str(out, "    ", "fs_type", in->fs_type, sizeof(in->fs_type), 1, ",");
	key_str(out, "    ", "fs_source", in->fs_source, sizeof(in->fs_source), 1, ",");
	key_setting(out, "    ", in, "fs_total_bytes", in->fs_total_bytes, CDM_INFO_VOLUME);
	key_setting(out, "    ", in, "fs_used_bytes", in->fs_used_bytes, CDM_INFO_VOLUME);
	key_setting(out, "    ", in, "fs_avail_bytes", in->fs_avail_bytes, CDM_INFO_VOLUME);
	fprintf(out, "    \"is_device\": %s,\n", in->is_device ? "true" : "false");
	if (in->is_device) {
		key_u64(out, "    ", "device_bytes", in->target_dev_bytes, ",");
		key_u64(out, "    ", "logical_block_bytes", in->target_dev_lbs, ",");
	} else {
		fputs("    \"device_bytes\": null,\n    \"logical_block_bytes\": null,\n", out);
	}
	key_str(out, "    ", "device", in->dev_name, sizeof(in->dev_name), 1, ",");
	key_str(out, "    ", "device_model", in->dev_model, sizeof(in->dev_model), 1, ",");
	fprintf(out, "    \"rotational\": %s,\n",
		in->dev_rotational == CDM_ROT_YES ? "true" :
		in->dev_rotational == CDM_ROT_NO ? "false" : "null");
	key_str(out, "    ", "scheduler", in->dev_scheduler, sizeof(in->dev_scheduler), 1, ",");
	write_memory_under(out, in);
	fputs("  },\n", out);

	fputs("  \"system\": {\n", out);
	key_str(out, "    ", "os", in->os, sizeof(in->os), 1, ",");
	key_str(out, "    ", "kernel", in->kernel, sizeof(in->kernel), 1, ",");
	key_str(out, "    ", "machine", in->machine, sizeof(in->machine), 1, ",");
	key_str(out, "    ", "cpu_model", in->cpu_model, sizeof(in->cpu_model), 1, ",");
	if (in->cpus_online)
		key_u64(out, "    ", "cpus_online", in->cpus_online, ",");
	else
		fputs("    \"cpus_online\": null,\n", out);
	if (in->cpus_allowed)
		key_u64(out, "    ", "cpus_allowed", in->cpus_allowed, ",");
	else
		fputs("    \"cpus_allowed\": null,\n", out);
	if (in->mem_total_bytes)
		key_u64(out, "    ", "mem_total_bytes", in->mem_total_bytes, ",");
	else
		fputs("    \"mem_total_bytes\": null,\n", out);
	write_placement(out, in);
	/* null: an imported report that does not say (CDM 6 and 7 never do) */
	if (cdm_result_known(in, CDM_INFO_ADMIN))
		fprintf(out, "    \"admin\": %s\n", in->admin ? "true" : "false");
	else
		fputs("    \"admin\": null\n", out);
	fputs("  },\n", out);
}

/* CPU ns per I/O, or null without I/O */
static void per_io(FILE *out, const char *key, uint64_t ns, uint64_t ios,
		   const char *end)
{
	if (ios)
		key_num(out, "          ", key, (double)ns / (double)ios, end);
	else
		fprintf(out, "          \"%s\": null%s\n", key, end);
}

/* "reason": null, or why a pass (or a part of one) has no figures */
static void reason(FILE *out, const char *why)
{
	fputs("\"reason\": ", out);
	if (why)
		cdm_fmt_json_str(out, why, 256);
	else
		fputs("null", out);
}

/*
 * One part of a Mix pass @p (its reads or its writes), or of all its
 * passes summed: bytes, I/Os, MB/s, IOPS and mean latency (null, with
 * the reason, when the part measured nothing); @ind is the indentation.
 */
static void write_part(FILE *out, const char *ind, const char *key, const struct cdm_pass *p,
		       enum cdm_part part, const char *end)
{
	struct cdm_pass q;

	cdm_pass_part(p, part, &q);
	fprintf(out, "%s\"%s\": { \"bytes\": %" PRIu64 ", \"ios\": %" PRIu64 ", \"mb_s\": ",
		ind, key, q.bytes, q.ios);
	num(out, cdm_pass_mb_s(&q));
	fputs(", \"iops\": ", out);
	num(out, cdm_pass_iops(&q));
	fputs(", \"lat_mean_ns\": ", out);
	num(out, cdm_pass_mean_lat_ns(&q));
	fputs(", ", out);
	reason(out, cdm_pass_state_reason(cdm_pass_state(&q)));
	fprintf(out, " }%s\n", end);
}

/* --fsync: the fdatasync calls of a pass (or of all passes) */
static void write_fsyncs(FILE *out, const char *ind, uint64_t n, uint64_t sum_ns,
			 uint64_t max_ns, const char *end)
{
	fprintf(out, "%s\"fsync\": { \"count\": %" PRIu64 ", \"mean_ns\": ", ind, n);
	if (n)
		num(out, (double)sum_ns / (double)n);
	else
		fputs("null", out);
	if (n)
		fprintf(out, ", \"max_ns\": %" PRIu64 " }%s\n", max_ns, end);
	else
		fprintf(out, ", \"max_ns\": null }%s\n", end);
}

/*
 * A summary's "end_fsync": --end-fsync's flushes of the passes the
 * figures come from (cdm_result_end_fsync_sum()), their count and total
 * (null for a report's, which states neither), mean, longest and share of
 * the passes' time; null for a test whose passes do not end with one
 */
static void write_end_fsync_sum(FILE *out, const struct cdm_run_result *r,
				const struct cdm_test_result *t)
{
	struct cdm_end_fsync_sum e;

	if (!cdm_result_end_fsync_sum(t, &r->info, &e)) {
		fputs("        \"end_fsync\": null,\n", out);
		return;
	}
	if (e.count)
		fprintf(out, "        \"end_fsync\": { \"count\": %" PRIu64 ", \"time_ns_total\": %"
			PRIu64 ", \"mean_ns\": ", e.count, e.total_ns);
	else
		fputs("        \"end_fsync\": { \"count\": null, \"time_ns_total\": null, \"mean_ns\": ", out);
	num(out, e.mean_ns);
	fputs(", \"max_ns\": ", out);
	num(out, e.max_ns);
	fputs(", \"pass_pct\": ", out);
	num(out, e.pass_pct);
	fputs(" },\n", out);
}

/* --end-fsync: the fdatasync that ended a write or Mix pass; null for other passes */
static void write_end_fsync(FILE *out, const struct cdm_pass *p, int end_fsync)
{
	if (end_fsync)
		fprintf(out, "          \"end_fsync\": { \"count\": %" PRIu64 ", \"time_ns\": %" PRIu64
			" },\n", p->end_fsyncs, p->end_fsync_ns);
	else
		fputs("          \"end_fsync\": null,\n", out);
}

static void write_pass(FILE *out, const struct cdm_pass *p, int mix, int fsync, int end_fsync,
		       int last)
{
	fputs("        {\n", out);
	key_num(out, "          ", "duration_s", p->seconds, ",");
	if (p->start_unix_ns)
		key_u64(out, "          ", "start_unix_ns", p->start_unix_ns, ",");
	else
		fputs("          \"start_unix_ns\": null,\n", out);
	key_u64(out, "          ", "bytes", p->bytes, ",");
	key_u64(out, "          ", "ios", p->ios, ",");
	/* null when the pass measured nothing (NaN prints as null) */
	key_num(out, "          ", "mb_s", cdm_pass_mb_s(p), ",");
	key_num(out, "          ", "iops", cdm_pass_iops(p), ",");
	key_num(out, "          ", "lat_mean_ns", cdm_pass_mean_lat_ns(p), ",");
	fputs("          ", out);
	reason(out, cdm_pass_state_reason(cdm_pass_state(p)));
	fputs(",\n", out);
	key_u64(out, "          ", "pending_max_ns", p->pending_max_ns, ",");
	key_u64(out, "          ", "lat_sum_ns", p->lat_sum_ns, ",");
	key_max(out, "          ", "lat_max_ns", p->lat_max_ns, p->ios, ",");
	key_u64(out, "          ", "cpu_user_ns", p->cpu_user_ns, ",");
	key_u64(out, "          ", "cpu_sys_ns", p->cpu_sys_ns, ",");
	per_io(out, "cpu_ns_per_io", p->cpu_user_ns + p->cpu_sys_ns, p->ios, ",");
	key_u64(out, "          ", "proc_user_ns", p->proc_user_ns, ",");
	key_u64(out, "          ", "proc_sys_ns", p->proc_sys_ns, ",");
	per_io(out, "proc_cpu_ns_per_io", p->proc_user_ns + p->proc_sys_ns, p->ios, ",");
	/* never omitted: null where the run has no such figure */
	if (mix) {
		write_part(out, "          ", "read", p, CDM_PART_READS, ",");
		write_part(out, "          ", "write", p, CDM_PART_WRITES, ",");
	} else {
		fputs("          \"read\": null,\n          \"write\": null,\n", out);
	}
	write_end_fsync(out, p, end_fsync);
	if (fsync)
		write_fsyncs(out, "          ", p->fsyncs, p->fsync_sum_ns, p->fsync_max_ns, "");
	else
		fputs("          \"fsync\": null\n", out);
	fprintf(out, "        }%s\n", last ? "" : ",");
}

static void write_spread(FILE *out, const char *key, const struct cdm_spread *sp,
			 int higher_is_better, const char *end)
{
	if (!sp->n) {
		fprintf(out, "        \"%s\": null%s\n", key, end);
		return;
	}
	fprintf(out, "        \"%s\": { \"best\": ", key);
	num(out, cdm_result_spread_pick(sp, CDM_AGG_BEST, higher_is_better));
	fputs(", \"median\": ", out);
	num(out, sp->median);
	fputs(", \"mean\": ", out);
	num(out, sp->mean);
	fputs(", \"min\": ", out);
	num(out, sp->min);
	fputs(", \"max\": ", out);
	num(out, sp->max);
	fputs(", \"stdev\": ", out);
	num(out, sp->stdev);
	fputs(", \"cv_pct\": ", out);
	num(out, sp->cv_pct);
	fprintf(out, ", \"n\": %u }%s\n", sp->n, end);
}

static void write_latency(FILE *out, const struct cdm_test_result *t)
{
	const struct cdm_hist *h = t->hist;
	unsigned int i, first = 1;
	const char *end = t->series ? ",\n" : "\n";     /* --log-interval follows */

	if (!cdm_result_has_percentiles(t)) {
		fputs("      \"latency\": null,\n", out);
		fprintf(out, "      \"histogram\": null%s", end);
		return;
	}
	fputs("      \"latency\": {\n", out);
	key_u64(out, "        ", "count", h->count, ",");
	key_num(out, "        ", "mean_ns", cdm_hist_mean(h), ",");
	key_u64(out, "        ", "min_ns", h->min_ns, ",");
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		key_u64(out, "        ", pcts[i].key, cdm_hist_percentile(h, pcts[i].pct), ",");
	key_u64(out, "        ", "max_ns", h->max_ns, "");
	fputs("      },\n", out);

	fputs("      \"histogram\": {\n", out);
	fprintf(out, "        \"layout\": \"log-linear\",\n");
	fprintf(out, "        \"sub_buckets\": %u,\n", CDM_HIST_SUB);
	key_u64(out, "        ", "count", h->count, ",");
	key_u64(out, "        ", "sum_ns", h->sum_ns, ",");
	key_u64(out, "        ", "min_ns", h->min_ns, ",");
	key_u64(out, "        ", "max_ns", h->max_ns, ",");
	fputs("        \"buckets\": [", out);
	for (i = 0; i < CDM_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		fprintf(out, "%s\n          { \"low_ns\": %" PRIu64 ", \"high_ns\": %" PRIu64
			", \"count\": %" PRIu64 " }", first ? "" : ",",
			cdm_hist_bucket_low(i), cdm_hist_bucket_high(i), h->buckets[i]);
		first = 0;
	}
	fputs(first ? "]\n" : "\n        ]\n", out);
	fprintf(out, "      }%s", end);
}

/*
 * "steady_state" of a test run as rounds (--steady-state): the verdict of
 * model/steady.h and the window the summary is over (1-based rounds);
 * null for a test run without it.
 */
static void write_steady(FILE *out, const struct cdm_test_result *t, unsigned int n)
{
	const struct cdm_steady *st = &t->steady;
	unsigned int first = cdm_result_first_pass(t);

	if (!st->on) {
		fputs("      \"steady_state\": null,\n", out);
		return;
	}
	fputs("      \"steady_state\": { \"reached_at_round\": ", out);
	if (st->reached_at_round)
		fprintf(out, "%u", st->reached_at_round);
	else
		fputs("null", out);
	fprintf(out, ", \"max_rounds\": %u, \"window_rounds\": %u, \"first_round\": %u, "
		"\"range_pct\": ", st->max_rounds, st->window_rounds, first + 1);
	num(out, st->range_pct);
	fputs(", \"slope_pct\": ", out);
	num(out, st->slope_pct);
	fprintf(out, ", \"tracked\": \"%s\", \"window_mean\": ",
		cdm_steady_tracked_name(t->spec.pattern));
	num(out, cdm_steady_window_mean(st, t->passes, n, t->spec.pattern));
	fputs(" },\n", out);
}

/* an offset of the first of @n faults: null when there was none */
static void verify_first(FILE *out, const char *key, uint64_t off, uint64_t n, const char *end)
{
	if (n)
		fprintf(out, "\"%s\": %" PRIu64 "%s", key, off, end);
	else
		fprintf(out, "\"%s\": null%s", key, end);
}

/*
 * "verify": what --verify's read-back of the test found (model/result.h,
 * struct cdm_verify: the blocks checked (null when not known: cdm's text
 * of a run, read back, states no test's own), 1 in "sample_every" of the file's
 * when "sampled", each kind's count and first offset, where the first
 * misdirected write was meant to go), led by its "status"; only the status when the
 * read-back was interrupted (nothing counted); absent when the test was
 * not read back.
 */
static void write_verify(FILE *out, const struct cdm_test_result *t)
{
	const struct cdm_verify *v = &t->verify;
	enum cdm_verify_state st = cdm_result_verify_state(v);

	if (st == CDM_VERIFY_STATE_NONE)
		return;
	fprintf(out, "      \"verify\": { \"status\": \"%s\"", cdm_result_verify_state_key(st));
	if (st == CDM_VERIFY_STATE_INTERRUPTED) {
		fputs(" },\n", out);
		return;
	}
	/* null: a text's test, which read back something, its count not stated */
	if (v->blocks_unknown)
		fputs(", \"blocks\": null", out);
	else
		fprintf(out, ", \"blocks\": %" PRIu64, v->blocks);
	fprintf(out, ", \"sampled\": %s, ", v->sampled ? "true" : "false");
	/* 1 block in k read back: 1 when every block was, null when a sample's k is unknown */
	if (v->sampled && !v->every)
		fputs("\"sample_every\": null", out);
	else
		fprintf(out, "\"sample_every\": %" PRIu64, v->sampled ? v->every : 1);
	fprintf(out, ", \"lost\": %" PRIu64 ", \"misdirected\": %" PRIu64 ", \"torn\": %" PRIu64
		",\n        ", v->lost, v->misdirected, v->torn);
	verify_first(out, "first_lost_offset", v->first_lost, v->lost, ", ");
	verify_first(out, "first_misdirected_offset", v->first_misdirected, v->misdirected, ", ");
	verify_first(out, "first_torn_offset", v->first_torn, v->torn, ", ");
	verify_first(out, "first_misdirected_meant_offset", v->first_meant, v->meant_known, " },\n");
}

static void write_test(FILE *out, const struct cdm_run_result *r,
		       const struct cdm_test_result *t, int last)
{
	struct cdm_test_summary s;
	struct cdm_pass all;
	char name[64], why[256];
	unsigned int i, n = t->npasses < CDM_MAX_PASSES ? t->npasses : CDM_MAX_PASSES;
	double cv = 0.0;
	int mix = t->dir == CDM_DIR_MIX, fsync = r->info.fsync_every != 0;
	int end_fsync = cdm_result_end_fsync(t, r->info.end_fsync);

	cdm_result_summarize(t, &s);
	cdm_spec_name(&t->spec, name, sizeof(name));
	fputs("    {\n", out);
	key_str(out, "      ", "name", name, sizeof(name), 0, ",");
	fprintf(out, "      \"direction\": \"%s\",\n", cdm_result_dir_key(t->dir));
	if (mix) {
		key_u64(out, "      ", "read_pct", 100 - t->spec.write_pct, ",");
		key_u64(out, "      ", "write_pct", t->spec.write_pct, ",");
	} else {
		fputs("      \"read_pct\": null,\n      \"write_pct\": null,\n", out);
	}
	fprintf(out, "      \"pattern\": \"%s\",\n", t->spec.pattern == CDM_RND ? "RND" : "SEQ");
	key_u64(out, "      ", "block_bytes", t->spec.block, ",");
	key_u64(out, "      ", "threads", t->spec.threads, ",");
	key_u64(out, "      ", "queue_depth", t->spec.qd, ",");
	key_u64(out, "      ", "queue_depth_run", t->qd_run, ",");
	/* with steady state, the rounds it could run; a report without its count: null */
	if (t->reported.has && !cdm_result_known(&r->info, CDM_INFO_COUNT))
		fputs("      \"passes_requested\": null,\n", out);
	else
		key_u64(out, "      ", "passes_requested", cdm_result_requested(t, &r->info), ",");
	key_u64(out, "      ", "passes_completed", n, ",");
	key_u64(out, "      ", "passes_measured", s.measured, ",");
	fprintf(out, "      \"complete\": %s,\n", cdm_result_complete(t, &r->info) ? "true" : "false");
	if (t->error) {
		int e = t->error < 0 ? -t->error : t->error;

		fprintf(out, "      \"error\": { \"errno\": %d, \"message\": ", e);
		cdm_fmt_json_str(out, strerror(e), 256);
		fprintf(out, ", \"offset_bytes\": %" PRIu64 " },\n", t->error_offset);
	} else {
		fputs("      \"error\": null,\n", out);
	}
	/* a report's test: CDM printed one figure, no passes to judge stable or not */
	if (t->reported.has)
		fputs("      \"unstable\": null,\n", out);
	else
		fprintf(out, "      \"unstable\": %s,\n",
			cdm_result_unstable(t, r->cv_threshold_pct, &cv) ? "true" : "false");
	/* why the test, or some of its passes, measured nothing */
	cdm_result_why(t, why, sizeof(why));
	fputs("      ", out);
	reason(out, why[0] ? why : NULL);
	fputs(",\n", out);
	write_steady(out, t, n);
	write_reported(out, t);
	fputs(n ? "      \"passes\": [\n" : "      \"passes\": [],\n", out);
	for (i = 0; i < n; i++)
		write_pass(out, &t->passes[i], mix, fsync, end_fsync, i + 1 == n);
	if (n)
		fputs("      ],\n", out);
	fputs("      \"summary\": {\n", out);
	if (t->reported.has) {
		/* a report states no bytes, I/Os or time: unknown, not 0 */
		fputs("        \"bytes\": null,\n        \"ios\": null,\n        \"duration_s\": null,\n", out);
	} else {
		key_u64(out, "        ", "bytes", s.bytes, ",");
		key_u64(out, "        ", "ios", s.ios, ",");
		key_num(out, "        ", "duration_s", s.seconds, ",");
	}
	write_spread(out, "mb_s", &s.mb_s, 1, ",");
	write_spread(out, "iops", &s.iops, 1, ",");
	write_spread(out, "lat_mean_ns", &s.lat_ns, 0, ",");
	/* all passes as one (of the steady window, as the spreads): the counts over their time */
	cdm_result_window_pass(t, &all);
	if (mix) {
		write_part(out, "        ", "read", &all, CDM_PART_READS, ",");
		write_part(out, "        ", "write", &all, CDM_PART_WRITES, ",");
	} else {
		fputs("        \"read\": null,\n        \"write\": null,\n", out);
	}
	if (fsync)
		write_fsyncs(out, "        ", all.fsyncs, all.fsync_sum_ns, all.fsync_max_ns, ",");
	else
		fputs("        \"fsync\": null,\n", out);
	write_end_fsync_sum(out, r, t);
	if (r->info.rate_iops) {
		key_u64(out, "        ", "rate_iops_requested", r->info.rate_iops, ",");
		key_num(out, "        ", "rate_iops_achieved", cdm_pass_iops(&all), "");
	} else {
		fputs("        \"rate_iops_requested\": null,\n        \"rate_iops_achieved\": null\n", out);
	}
	fputs("      },\n", out);
	write_verify(out, t);
	write_latency(out, t);
	if (t->series)
		cdm_series_out_json(out, t->series);
	fprintf(out, "    }%s\n", last ? "" : ",");
}

static int json_write(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	unsigned int i;

	fputs("{\n", out);
	fprintf(out, "  \"schema_version\": %d,\n",
		cdm_result_imported(in) ? CDM_JSON_SCHEMA_IMPORT : CDM_JSON_SCHEMA_VERSION);
	fputs("  \"tool\": \"cdm\",\n", out);
	key_str(out, "  ", "cdm_version", in->version[0] ? in->version : cdm_version(),
		sizeof(in->version), 0, ",");
	if (in->label[0])
		key_str(out, "  ", "label", in->label, sizeof(in->label), 0, ",");
	else
		key_str(out, "  ", "label", in->target, sizeof(in->target), 0, ",");
	fprintf(out, "  \"interrupted\": %s,\n", r->interrupted ? "true" : "false");
	if (r->interrupted)
		fprintf(out, "  \"interrupted_signal\": %d,\n", r->interrupted);
	else
		fputs("  \"interrupted_signal\": null,\n", out);
	key_str(out, "  ", "comment", in->comment, sizeof(in->comment), 1, ",");
	write_info(out, r);
	write_source(out, in);
	cdm_scale_json(out, r);		/* "scale": {...}, for aggregates only */
	if (!r->ntests) {
		fputs("  \"tests\": []\n}\n", out);
	} else {
		fputs("  \"tests\": [\n", out);
		for (i = 0; i < r->ntests; i++)
			write_test(out, r, &r->tests[i], i + 1 == r->ntests);
		fputs("  ]\n}\n", out);
	}
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_report_json = {
	.name = "json",
	.write = json_write,
};
