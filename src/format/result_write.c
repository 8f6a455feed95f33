/* SPDX-License-Identifier: MIT */
/*
 * result_write.c - --format json: the whole result model in one documented,
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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cdm/base/jsonw.h"
#include "cdm/base/version.h"
#include "cdm/model/result.h"
#include "cdm/format/result_read.h"
#include "cdm/model/settings.h"
#include "result_rd.h"
#include "cdm/model/spec.h"
#include "cdm/format/formatter.h"
#include "cdm/target/testfile.h"
#include "cdm/format/layout.h"
#include "cdm/format/fmt.h"
#include "cdm/format/scale.h"
#include "cdm/format/series_out.h"

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

/* a text field of the model, @field an array: null when "" */
#define TEXT(w, key, field) cdm_jsonw_text(w, key, field, sizeof(field))

/* a text an imported report may not state: null when not @known and "" */
static void known_text(struct cdm_jsonw *w, const char *key, const char *s, size_t max,
		       int known)
{
	if (known)
		cdm_jsonw_strn(w, key, s, max);
	else
		cdm_jsonw_text(w, key, s, max);
}

/* "rotational": true, false, or null when the kernel does not say */
static void write_rotational(struct cdm_jsonw *w, int rot)
{
	if (rot == CDM_ROT_YES || rot == CDM_ROT_NO)
		cdm_jsonw_bool(w, "rotational", rot == CDM_ROT_YES);
	else
		cdm_jsonw_null(w, "rotational");
}

/*
 * target.devices: every device the filesystem sits on (the first is
 * device, device_model... above), only when there is more than one, so
 * that a one-device run's JSON is as before.
 */
static void write_devices(struct cdm_jsonw *w, const struct cdm_run_info *in)
{
	unsigned int n = in->ndevices < CDM_DEVICES_MAX ? in->ndevices : CDM_DEVICES_MAX;

	if (n < 2)
		return;
	cdm_jsonw_array(w, "devices", 0);
	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_dev_info *d = &in->devices[i];

		cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
		TEXT(w, "name", d->name);
		TEXT(w, "model", d->model);
		write_rotational(w, d->rotational);
		TEXT(w, "scheduler", d->scheduler);
		cdm_jsonw_u64_if(w, "logical_block_bytes", d->logical_block, d->logical_block != 0);
		cdm_jsonw_end(w);
	}
	cdm_jsonw_end(w);
}

/*
 * target.memory_under: what under the target may make the figures memory
 * speed (target/stack.h), one object per finding; [] when nothing was
 * found, null when nothing looked (an imported report: CDM_INFO_HOST).
 */
static void write_memory_under(struct cdm_jsonw *w, const struct cdm_run_info *in)
{
	unsigned int n = in->nmem_under < CDM_MEM_UNDER_MAX ? in->nmem_under : CDM_MEM_UNDER_MAX;

	if (!cdm_result_known(in, CDM_INFO_HOST)) {
		cdm_jsonw_null(w, "memory_under");
		return;
	}
	cdm_jsonw_array(w, "memory_under", 0);
	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_mem_under *f = &in->mem_under[i];

		cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
		cdm_jsonw_strn(w, "kind", f->kind, sizeof(f->kind));
		cdm_jsonw_strn(w, "layer", f->layer, sizeof(f->layer));
		cdm_jsonw_strn(w, "stack", f->stack, sizeof(f->stack));
		cdm_jsonw_strn(w, "why", f->why, sizeof(f->why));
		cdm_jsonw_strn(w, "fix", f->fix, sizeof(f->fix));
		cdm_jsonw_end(w);
	}
	cdm_jsonw_end(w);
}

/*
 * "source" of an imported run (schema 3): the report's product line,
 * version, edition and layout, the file, and its Date: as printed and as
 * a local time without zone ("date_local"; "start_unix" holds the same
 * wall time read as UTC, so that reports of it show the same Date), its
 * volume, and the blocks of cdm's clean Verify line ("verify_blocks").
 */
static void write_source(struct cdm_jsonw *w, const struct cdm_run_info *in)
{
	const struct cdm_run_source *src = &in->source;
	char local[32] = "";
	struct tm tm;

	if (!cdm_result_imported(in))
		return;
	/* the report's wall time, as the layouts print it (layout.c's rule) */
	if (cdm_result_known(in, CDM_INFO_DATE) && !cdm_layout_localtime(in, &tm))
		strftime(local, sizeof(local), "%Y-%m-%dT%H:%M:%S", &tm);
	cdm_jsonw_object(w, "source", 0);
	/* cdm's own text report read back: "cdm_text", and whose figures it printed */
	if (src->kind == CDM_SOURCE_CDM_TEXT) {
		cdm_jsonw_str(w, "kind", "cdm_text");
		TEXT(w, "origin", src->origin);
	} else {
		cdm_jsonw_str(w, "kind", "crystaldiskmark");
	}
	TEXT(w, "product", src->product);
	TEXT(w, "version", src->version);
	TEXT(w, "edition", src->edition);
	cdm_jsonw_u64_if(w, "layout", src->layout, src->layout != 0);
	TEXT(w, "file", src->file);
	TEXT(w, "date_text", src->date_text);
	TEXT(w, "date_local", local);
	cdm_jsonw_null(w, "time_zone");
	TEXT(w, "volume", src->volume);
	/* cdm's text: its clean Verify line's blocks, its clean tests' together */
	cdm_jsonw_u64_if(w, "verify_blocks", src->verify_blocks, src->verify_blocks != 0);
	cdm_jsonw_end(w);
}

/*
 * @key: the "Fsync:" note of cdm's text of a run with --fsync, its calls,
 * mean and longest as printed; null without one (a report states no
 * count, so none is written as 0)
 */
static void write_reported_fsync(struct cdm_jsonw *w, const char *key,
				 const struct cdm_test_result *t)
{
	const struct cdm_fsync_sum *f = &t->reported.fsync;

	if (!t->reported.has_fsync) {
		cdm_jsonw_null(w, key);
		return;
	}
	cdm_jsonw_object(w, key, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(w, "count", f->count);
	cdm_jsonw_num(w, "mean_ns", f->mean_ns);
	cdm_jsonw_num(w, "max_ns", f->max_ns);
	cdm_jsonw_end(w);
}

/*
 * A test of an imported report: "reported", the figures CDM printed
 * (null where the report has none: CDM 6's latency).
 */
static void write_reported(struct cdm_jsonw *w, const struct cdm_test_result *t)
{
	const struct cdm_end_fsync_sum *e = &t->reported.end_fsync;

	if (!t->reported.has)
		return;
	cdm_jsonw_object(w, "reported", CDM_JSONW_COMPACT);
	cdm_jsonw_num(w, "mb_s", t->reported.mb_s);
	cdm_jsonw_num(w, "iops", t->reported.iops);
	cdm_jsonw_num(w, "lat_mean_us", t->reported.lat_us);
	/* cdm's text of a run with --end-fsync: its "EndFsync:" note */
	if (t->reported.has_end_fsync) {
		cdm_jsonw_break(w);
		cdm_jsonw_object(w, "end_fsync", CDM_JSONW_COMPACT);
		cdm_jsonw_num(w, "mean_ns", e->mean_ns);
		cdm_jsonw_num(w, "max_ns", e->max_ns);
		cdm_jsonw_num(w, "pass_pct", e->pass_pct);
		cdm_jsonw_end(w);
	}
	/* cdm's text of a run with --fsync: its "Fsync:" note */
	if (t->reported.has_fsync) {
		cdm_jsonw_break(w);
		write_reported_fsync(w, "fsync", t);
	}
	cdm_jsonw_end(w);
}

/* --steady-state: its rule's constants, so a reader needs no source */
static void write_steady_rule(struct cdm_jsonw *w, const char *key,
			      const struct cdm_run_info *in)
{
	char tracked[64];

	cdm_jsonw_object(w, key, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(w, "max_rounds", in->max_rounds);
	cdm_jsonw_u64(w, "window_rounds", CDM_STEADY_WINDOW);
	cdm_jsonw_num(w, "range_pct_max", CDM_STEADY_RANGE_PCT);
	cdm_jsonw_num(w, "slope_pct_max", CDM_STEADY_SLOPE_PCT);
	snprintf(tracked, sizeof(tracked), "%s for RND, %s for SEQ",
		 cdm_steady_tracked_name(CDM_RND), cdm_steady_tracked_name(CDM_SEQ));
	cdm_jsonw_str(w, "tracked", tracked);
	cdm_jsonw_end(w);
}

/* --precondition: its passes and block, and how long it took (set, but stopped: no time) */
static void write_precondition(struct cdm_jsonw *w, const char *key, const struct cdm_run_info *in)
{
	cdm_jsonw_object(w, key, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(w, "passes", CDM_TESTFILE_PRECOND_PASSES);
	cdm_jsonw_u64(w, "block_bytes", CDM_TESTFILE_PRECOND_BLOCK);
	cdm_jsonw_u64_if(w, "time_ns", in->precondition_ns, in->precondition_ns != 0);
	cdm_jsonw_bool(w, "complete", in->precondition_ns != 0);
	cdm_jsonw_end(w);
}

/*
 * One setting of the table (model/settings.h) with a value: a text, a
 * number, a flag, or the object of --steady-state and --precondition
 */
static void write_setting(struct cdm_jsonw *w, const struct cdm_setting *s,
			  const struct cdm_run_result *r)
{
	const void *p = cdm_settings_at_const(s, r);
	uint64_t v = cdm_settings_u64(s, r);
	char t[CDM_FMT_SETTING_MAX];

	switch (s->type) {
	case CDM_SETTING_TEXT:
	case CDM_SETTING_CPUS:
	case CDM_SETTING_DEVSPEC:
		cdm_jsonw_strn(w, s->key, p, s->size);
		break;
	case CDM_SETTING_MSEC:
		/* 5, 0.5 (cdm_fmt_setting(): a whole second as it always was) */
		cdm_jsonw_raw(w, s->key, cdm_fmt_setting(t, sizeof(t), &r->info, s->item, ""));
		break;
	case CDM_SETTING_BOOL:
		cdm_jsonw_bool(w, s->key, (int)v);
		break;
	case CDM_SETTING_DATA:
		cdm_jsonw_str(w, s->key, v ? "zero" : "random");
		break;
	case CDM_SETTING_STEADY:
		write_steady_rule(w, s->key, &r->info);
		break;
	case CDM_SETTING_PRECOND:
		write_precondition(w, s->key, &r->info);
		break;
	case CDM_SETTING_AGGREGATE:
		cdm_jsonw_str(w, s->key, cdm_result_aggregate_name((enum cdm_aggregate)v));
		break;
	case CDM_SETTING_PCT:
		cdm_jsonw_num(w, s->key, *(const double *)p);
		break;
	default:
		cdm_jsonw_u64(w, s->key, v);
		break;
	}
}

/*
 * The rows of "settings", null where a row has no value
 * (cdm_settings_known(): an option not given, a setting an imported
 * report does not state, cdm's own bar for "unstable" on a report's
 * figures, which have no passes it could judge)
 */
void cdm_result_write_settings(struct cdm_jsonw *w, const struct cdm_run_result *r)
{
	unsigned int n;
	const struct cdm_setting *set = cdm_settings(&n);

	for (unsigned int i = 0; i < n; i++) {
		if (cdm_settings_known(&set[i], r))
			write_setting(w, &set[i], r);
		else
			cdm_jsonw_null(w, set[i].key);
	}
}

/* "settings": every row of the table */
static void write_settings(struct cdm_jsonw *w, const struct cdm_run_result *r)
{
	cdm_jsonw_object(w, "settings", 0);
	cdm_result_write_settings(w, r);
	cdm_jsonw_end(w);
}

static void write_target(struct cdm_jsonw *w, const struct cdm_run_info *in)
{
	const char *key;
	int volume = cdm_result_known(in, CDM_INFO_VOLUME);

	cdm_jsonw_object(w, "target", 0);
	/* a CDM 7 report names no volume: no path, no usage (null, never 0) */
	known_text(w, "path", in->target, sizeof(in->target), volume);
	TEXT(w, "mount_point", in->mount_point);
	TEXT(w, "fs_type", in->fs_type);
	TEXT(w, "fs_source", in->fs_source);
	cdm_jsonw_u64_if(w, "fs_total_bytes", in->fs_total_bytes, volume);
	cdm_jsonw_u64_if(w, "fs_used_bytes", in->fs_used_bytes, volume);
	cdm_jsonw_u64_if(w, "fs_avail_bytes", in->fs_avail_bytes, volume);
	cdm_jsonw_bool(w, "is_device", in->is_device);
	cdm_jsonw_u64_if(w, "device_bytes", in->target_dev_bytes, in->is_device);
	cdm_jsonw_u64_if(w, "logical_block_bytes", in->target_dev_lbs, in->target_dev_lbs != 0);
	TEXT(w, "device", in->dev_name);
	TEXT(w, "device_model", in->dev_model);
	write_rotational(w, in->dev_rotational);
	TEXT(w, "scheduler", in->dev_scheduler);
	write_devices(w, in);
	/* a new or a kept file, and the data it holds: null when not stated */
	key = cdm_result_test_file_key(in->test_file);
	cdm_jsonw_text(w, "test_file", key ? key : "", 16);
	key = cdm_result_file_data_key(in->test_file_data);
	cdm_jsonw_text(w, "test_file_data", key ? key : "", 16);
	write_memory_under(w, in);
	cdm_jsonw_end(w);
}

static void write_system(struct cdm_jsonw *w, const struct cdm_run_info *in)
{
	cdm_jsonw_object(w, "system", 0);
	TEXT(w, "os", in->os);
	TEXT(w, "kernel", in->kernel);
	TEXT(w, "machine", in->machine);
	TEXT(w, "cpu_model", in->cpu_model);
	cdm_jsonw_u64_if(w, "cpus_online", in->cpus_online, in->cpus_online != 0);
	cdm_jsonw_u64_if(w, "cpus_allowed", in->cpus_allowed, in->cpus_allowed != 0);
	cdm_jsonw_u64_if(w, "mem_total_bytes", in->mem_total_bytes, in->mem_total_bytes != 0);
	/* the system's side of --cpus: the CPUs allowed, the device's NUMA node, the warning */
	TEXT(w, "cpus_allowed_list", in->cpus_allowed_list);
	cdm_jsonw_i64_if(w, "device_numa_node", in->dev_numa_node, in->dev_numa_node >= 0);
	TEXT(w, "numa_warning", in->numa_warning);
	/* null: an imported report that does not say (CDM 6 and 7 never do) */
	if (cdm_result_known(in, CDM_INFO_ADMIN))
		cdm_jsonw_bool(w, "admin", in->admin);
	else
		cdm_jsonw_null(w, "admin");
	cdm_jsonw_end(w);
}

static void write_info(struct cdm_jsonw *w, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	char utc[32];

	write_settings(w, r);
	/* an imported report without its Date states no start: null, not 1970 */
	cdm_jsonw_i64_if(w, "start_unix", in->start, cdm_result_known(in, CDM_INFO_DATE));
	cdm_fmt_utc(utc, sizeof(utc), (long long)in->start);
	if (cdm_result_imported(in))
		utc[0] = '\0';         /* a report's Date has no zone: "source" */
	TEXT(w, "start_utc", utc);
	write_target(w, in);
	write_system(w, in);
}

/* CPU ns per I/O, or null without I/O */
static void per_io(struct cdm_jsonw *w, const char *key, uint64_t ns, uint64_t ios)
{
	if (ios)
		cdm_jsonw_num(w, key, (double)ns / (double)ios);
	else
		cdm_jsonw_null(w, key);
}

/* "reason": null, or why a pass (or a part of one) has no figures */
static void reason(struct cdm_jsonw *w, const char *why)
{
	if (why)
		cdm_jsonw_strn(w, "reason", why, 256);
	else
		cdm_jsonw_null(w, "reason");
}

/*
 * One part of a Mix pass @p (its reads or its writes), or of all its
 * passes summed: bytes, I/Os, MB/s, IOPS and mean latency (null, with
 * the reason, when the part measured nothing).
 */
static void write_part(struct cdm_jsonw *w, const char *key, const struct cdm_pass *p,
		       enum cdm_part part)
{
	struct cdm_pass q;

	cdm_pass_part(p, part, &q);
	cdm_jsonw_object(w, key, CDM_JSONW_COMPACT);
	cdm_jsonw_u64(w, "bytes", q.bytes);
	cdm_jsonw_u64(w, "ios", q.ios);
	cdm_jsonw_num(w, "mb_s", cdm_pass_mb_s(&q));
	cdm_jsonw_num(w, "iops", cdm_pass_iops(&q));
	cdm_jsonw_num(w, "lat_mean_ns", cdm_pass_mean_lat_ns(&q));
	reason(w, cdm_pass_state_reason(cdm_pass_state(&q)));
	cdm_jsonw_end(w);
}

/* "read" and "write" of a Mix pass @p (or of all its passes); null for other tests */
static void write_parts(struct cdm_jsonw *w, const struct cdm_pass *p, int mix)
{
	if (mix) {
		write_part(w, "read", p, CDM_PART_READS);
		write_part(w, "write", p, CDM_PART_WRITES);
	} else {
		cdm_jsonw_null(w, "read");
		cdm_jsonw_null(w, "write");
	}
}

/* --fsync: the fdatasync calls of a pass (or of all passes); null without it */
static void write_fsyncs(struct cdm_jsonw *w, const struct cdm_pass *p, int fsync)
{
	uint64_t n = p->fsyncs;

	if (!fsync) {
		cdm_jsonw_null(w, "fsync");
		return;
	}
	cdm_jsonw_object(w, "fsync", CDM_JSONW_COMPACT);
	cdm_jsonw_u64(w, "count", n);
	if (n)
		cdm_jsonw_num(w, "mean_ns", (double)p->fsync_sum_ns / (double)n);
	else
		cdm_jsonw_null(w, "mean_ns");
	cdm_jsonw_u64_if(w, "max_ns", p->fsync_max_ns, n != 0);
	cdm_jsonw_end(w);
}

/*
 * A summary's "end_fsync": --end-fsync's flushes of the passes the
 * figures come from (cdm_result_end_fsync_sum()), their count and total
 * (null for a report's, which states neither), mean, longest and share of
 * the passes' time; null for a test whose passes do not end with one
 */
static void write_end_fsync_sum(struct cdm_jsonw *w, const struct cdm_run_result *r,
				const struct cdm_test_result *t)
{
	struct cdm_end_fsync_sum e;

	if (!cdm_result_end_fsync_sum(t, &r->info, &e)) {
		cdm_jsonw_null(w, "end_fsync");
		return;
	}
	cdm_jsonw_object(w, "end_fsync", CDM_JSONW_COMPACT);
	cdm_jsonw_u64_if(w, "count", e.count, e.count != 0);
	cdm_jsonw_u64_if(w, "time_ns_total", e.total_ns, e.count != 0);
	cdm_jsonw_num(w, "mean_ns", e.mean_ns);
	cdm_jsonw_num(w, "max_ns", e.max_ns);
	cdm_jsonw_num(w, "pass_pct", e.pass_pct);
	cdm_jsonw_end(w);
}

/* --end-fsync: the fdatasync that ended a write or Mix pass; null for other passes */
static void write_end_fsync(struct cdm_jsonw *w, const struct cdm_pass *p, int end_fsync)
{
	if (!end_fsync) {
		cdm_jsonw_null(w, "end_fsync");
		return;
	}
	cdm_jsonw_object(w, "end_fsync", CDM_JSONW_COMPACT);
	cdm_jsonw_u64(w, "count", p->end_fsyncs);
	cdm_jsonw_u64(w, "time_ns", p->end_fsync_ns);
	cdm_jsonw_end(w);
}

/* --rate-iops: a pass's starts later than their time on the schedule; nothing unpaced */
static void write_late(struct cdm_jsonw *w, const struct cdm_pass *p, int paced)
{
	if (!paced)
		return;
	cdm_jsonw_u64_if(w, "late_starts", p->late_starts, p->late_known);
	cdm_jsonw_u64_if(w, "late_max_ns", p->late_max_ns, p->late_known && p->late_starts);
}

static void write_pass(struct cdm_jsonw *w, const struct cdm_pass *p, int mix, int fsync,
		       int end_fsync, int paced)
{
	cdm_jsonw_object(w, NULL, 0);
	cdm_jsonw_num(w, "duration_s", p->seconds);
	cdm_jsonw_u64_if(w, "start_unix_ns", p->start_unix_ns, p->start_unix_ns != 0);
	cdm_jsonw_u64(w, "bytes", p->bytes);
	cdm_jsonw_u64(w, "ios", p->ios);
	/* null when the pass measured nothing (NaN prints as null) */
	cdm_jsonw_num(w, "mb_s", cdm_pass_mb_s(p));
	cdm_jsonw_num(w, "iops", cdm_pass_iops(p));
	cdm_jsonw_num(w, "lat_mean_ns", cdm_pass_mean_lat_ns(p));
	reason(w, cdm_pass_state_reason(cdm_pass_state(p)));
	cdm_jsonw_u64(w, "pending_max_ns", p->pending_max_ns);
	/* only when cdm paused in the pass: absent, it did not (or was not watched) */
	if (p->paused_ns)
		cdm_jsonw_u64(w, "paused_ns", p->paused_ns);
	/* only when the engine was refused with nothing in flight: absent, it was not */
	if (p->busy_ns)
		cdm_jsonw_u64(w, "busy_ns", p->busy_ns);
	write_late(w, p, paced);
	cdm_jsonw_u64(w, "lat_sum_ns", p->lat_sum_ns);
	/* a maximum over no I/O is null, not a measured 0 */
	cdm_jsonw_u64_if(w, "lat_max_ns", p->lat_max_ns, p->ios != 0);
	cdm_jsonw_u64(w, "cpu_user_ns", p->cpu_user_ns);
	cdm_jsonw_u64(w, "cpu_sys_ns", p->cpu_sys_ns);
	per_io(w, "cpu_ns_per_io", p->cpu_user_ns + p->cpu_sys_ns, p->ios);
	cdm_jsonw_u64(w, "proc_user_ns", p->proc_user_ns);
	cdm_jsonw_u64(w, "proc_sys_ns", p->proc_sys_ns);
	per_io(w, "proc_cpu_ns_per_io", p->proc_user_ns + p->proc_sys_ns, p->ios);
	/* never omitted: null where the run has no such figure */
	write_parts(w, p, mix);
	write_end_fsync(w, p, end_fsync);
	write_fsyncs(w, p, fsync);
	cdm_jsonw_end(w);
}

static void write_spread(struct cdm_jsonw *w, const char *key, const struct cdm_spread *sp,
			 int higher_is_better)
{
	if (!sp->n) {
		cdm_jsonw_null(w, key);
		return;
	}
	cdm_jsonw_object(w, key, CDM_JSONW_COMPACT);
	cdm_jsonw_num(w, "best", cdm_result_spread_pick(sp, CDM_AGG_BEST, higher_is_better));
	cdm_jsonw_num(w, "median", sp->median);
	cdm_jsonw_num(w, "mean", sp->mean);
	cdm_jsonw_num(w, "min", sp->min);
	cdm_jsonw_num(w, "max", sp->max);
	cdm_jsonw_num(w, "stdev", sp->stdev);
	cdm_jsonw_num(w, "cv_pct", sp->cv_pct);
	cdm_jsonw_u64(w, "n", sp->n);
	cdm_jsonw_end(w);
}

static void write_latency(struct cdm_jsonw *w, const struct cdm_test_result *t)
{
	const struct cdm_hist *h = t->hist;
	unsigned int i;

	if (!cdm_result_has_percentiles(t)) {
		cdm_jsonw_null(w, "latency");
		cdm_jsonw_null(w, "histogram");
		return;
	}
	cdm_jsonw_object(w, "latency", 0);
	cdm_jsonw_u64(w, "count", h->count);
	cdm_jsonw_num(w, "mean_ns", cdm_hist_mean(h));
	cdm_jsonw_u64(w, "min_ns", h->min_ns);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		cdm_jsonw_u64(w, pcts[i].key, cdm_hist_percentile(h, pcts[i].pct));
	cdm_jsonw_u64(w, "max_ns", h->max_ns);
	cdm_jsonw_end(w);

	cdm_jsonw_object(w, "histogram", 0);
	cdm_jsonw_str(w, "layout", "log-linear");
	cdm_jsonw_u64(w, "sub_buckets", CDM_HIST_SUB);
	cdm_jsonw_u64(w, "count", h->count);
	cdm_jsonw_u64(w, "sum_ns", h->sum_ns);
	cdm_jsonw_u64(w, "min_ns", h->min_ns);
	cdm_jsonw_u64(w, "max_ns", h->max_ns);
	cdm_jsonw_array(w, "buckets", 0);
	for (i = 0; i < CDM_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		cdm_jsonw_object(w, NULL, CDM_JSONW_COMPACT);
		cdm_jsonw_u64(w, "low_ns", cdm_hist_bucket_low(i));
		cdm_jsonw_u64(w, "high_ns", cdm_hist_bucket_high(i));
		cdm_jsonw_u64(w, "count", h->buckets[i]);
		cdm_jsonw_end(w);
	}
	cdm_jsonw_end(w);
	cdm_jsonw_end(w);
}

/*
 * "steady_state" of a test run as rounds (--steady-state): the verdict of
 * model/steady.h and the window the summary is over (1-based rounds);
 * null for a test run without it.
 */
static void write_steady(struct cdm_jsonw *w, const struct cdm_test_result *t, unsigned int n)
{
	const struct cdm_steady *st = &t->steady;

	if (!st->on) {
		cdm_jsonw_null(w, "steady_state");
		return;
	}
	cdm_jsonw_object(w, "steady_state", CDM_JSONW_COMPACT);
	cdm_jsonw_u64_if(w, "reached_at_round", st->reached_at_round, st->reached_at_round != 0);
	cdm_jsonw_u64(w, "max_rounds", st->max_rounds);
	cdm_jsonw_u64(w, "window_rounds", st->window_rounds);
	cdm_jsonw_u64(w, "first_round", cdm_result_first_pass(t) + 1);
	cdm_jsonw_num(w, "range_pct", st->range_pct);
	cdm_jsonw_num(w, "slope_pct", st->slope_pct);
	cdm_jsonw_str(w, "tracked", cdm_steady_tracked_name(t->spec.pattern));
	cdm_jsonw_num(w, "window_mean", cdm_steady_window_mean(st, t->passes, n, t->spec.pattern));
	cdm_jsonw_end(w);
}

/*
 * "verify": what --verify's read-back of the test found (model/result.h,
 * struct cdm_verify: the blocks checked (null when not known: cdm's text
 * of a run, read back, states no test's own), 1 in "sample_every" of the file's
 * when "sampled", each kind's count and first offset (null when there was
 * none), where the first misdirected write was meant to go), led by its
 * "status"; only the status when the read-back was interrupted (nothing
 * counted); absent when the test was not read back.
 */
static void write_verify(struct cdm_jsonw *w, const struct cdm_test_result *t)
{
	const struct cdm_verify *v = &t->verify;
	enum cdm_verify_state st = cdm_result_verify_state(v);

	if (st == CDM_VERIFY_STATE_NONE)
		return;
	cdm_jsonw_object(w, "verify", CDM_JSONW_COMPACT);
	cdm_jsonw_str(w, "status", cdm_result_verify_state_key(st));
	if (st == CDM_VERIFY_STATE_INTERRUPTED) {
		cdm_jsonw_end(w);
		return;
	}
	/* null: a text's test, which read back something, its count not stated */
	cdm_jsonw_u64_if(w, "blocks", v->blocks, !v->blocks_unknown);
	cdm_jsonw_bool(w, "sampled", v->sampled);
	/* 1 block in k read back: 1 when every block was, null when a sample's k is unknown */
	cdm_jsonw_u64_if(w, "sample_every", v->sampled ? v->every : 1, !v->sampled || v->every);
	cdm_jsonw_u64(w, "lost", v->lost);
	cdm_jsonw_u64(w, "misdirected", v->misdirected);
	cdm_jsonw_u64(w, "torn", v->torn);
	cdm_jsonw_break(w);
	cdm_jsonw_u64_if(w, "first_lost_offset", v->first_lost, v->lost != 0);
	cdm_jsonw_u64_if(w, "first_misdirected_offset", v->first_misdirected, v->misdirected != 0);
	cdm_jsonw_u64_if(w, "first_torn_offset", v->first_torn, v->torn != 0);
	cdm_jsonw_u64_if(w, "first_misdirected_meant_offset", v->first_meant, v->meant_known != 0);
	cdm_jsonw_end(w);
}

/* a test's members from its name to its "reason": what it is and whether it completed */
static void write_test_head(struct cdm_jsonw *w, const struct cdm_run_result *r,
			    const struct cdm_test_result *t, unsigned int n, unsigned int measured)
{
	char name[64], why[256];
	double cv = 0.0;

	cdm_spec_name(&t->spec, name, sizeof(name));
	cdm_jsonw_strn(w, "name", name, sizeof(name));
	cdm_jsonw_str(w, "direction", cdm_result_dir_key(t->dir));
	cdm_jsonw_u64_if(w, "read_pct", 100 - t->spec.write_pct, t->dir == CDM_DIR_MIX);
	cdm_jsonw_u64_if(w, "write_pct", t->spec.write_pct, t->dir == CDM_DIR_MIX);
	cdm_jsonw_str(w, "pattern", t->spec.pattern == CDM_RND ? "RND" : "SEQ");
	cdm_jsonw_u64(w, "block_bytes", t->spec.block);
	cdm_jsonw_u64(w, "threads", t->spec.threads);
	cdm_jsonw_u64(w, "queue_depth", t->spec.qd);
	cdm_jsonw_u64(w, "queue_depth_run", t->qd_run);
	/* with steady state, the rounds it could run; a report without its count: null */
	cdm_jsonw_u64_if(w, "passes_requested", cdm_result_requested(t, &r->info),
			 !t->reported.has || cdm_result_known(&r->info, CDM_INFO_COUNT));
	cdm_jsonw_u64(w, "passes_completed", n);
	cdm_jsonw_u64(w, "passes_measured", measured);
	cdm_jsonw_bool(w, "complete", cdm_result_complete(t, &r->info));
	if (t->error) {
		int e = t->error < 0 ? -t->error : t->error;

		cdm_jsonw_object(w, "error", CDM_JSONW_COMPACT);
		cdm_jsonw_i64(w, "errno", e);
		cdm_jsonw_strn(w, "message", strerror(e), 256);
		cdm_jsonw_u64(w, "offset_bytes", t->error_offset);
		cdm_jsonw_end(w);
	} else {
		cdm_jsonw_null(w, "error");
	}
	/* a report's test: CDM printed one figure, no passes to judge stable or not */
	if (t->reported.has)
		cdm_jsonw_null(w, "unstable");
	else
		cdm_jsonw_bool(w, "unstable", cdm_result_unstable(t, r->cv_threshold_pct, &cv));
	/* why the test, or some of its passes, measured nothing */
	cdm_result_why(t, why, sizeof(why));
	reason(w, why[0] ? why : NULL);
}

/* a test's "summary": its passes (of the steady window) as one, and their spread */
static void write_summary(struct cdm_jsonw *w, const struct cdm_run_result *r,
			  const struct cdm_test_result *t, const struct cdm_test_summary *s)
{
	struct cdm_pass all;

	/* all passes as one (of the steady window, as the spreads): the counts over their time */
	cdm_result_window_pass(t, &all);
	cdm_jsonw_object(w, "summary", 0);
	/* a report states no bytes, I/Os or time: unknown, not 0 */
	cdm_jsonw_u64_if(w, "bytes", all.bytes, !t->reported.has);
	cdm_jsonw_u64_if(w, "ios", all.ios, !t->reported.has);
	if (t->reported.has)
		cdm_jsonw_null(w, "duration_s");
	else
		cdm_jsonw_num(w, "duration_s", all.seconds);
	write_spread(w, "mb_s", &s->mb_s, 1);
	write_spread(w, "iops", &s->iops, 1);
	write_spread(w, "lat_mean_ns", &s->lat_ns, 0);
	write_parts(w, &all, t->dir == CDM_DIR_MIX);
	if (t->reported.has)
		write_reported_fsync(w, "fsync", t);
	else
		write_fsyncs(w, &all, r->info.fsync_every != 0);
	write_end_fsync_sum(w, r, t);
	/* no rate asked: both null */
	cdm_jsonw_u64_if(w, "rate_iops_requested", r->info.rate_iops, r->info.rate_iops != 0);
	cdm_jsonw_num(w, "rate_iops_achieved", r->info.rate_iops ? cdm_pass_iops(&all) : NAN);
	cdm_jsonw_end(w);
}

static void write_test(struct cdm_jsonw *w, const struct cdm_run_result *r,
		       const struct cdm_test_result *t)
{
	struct cdm_test_summary s;
	unsigned int i, n = t->npasses < CDM_MAX_PASSES ? t->npasses : CDM_MAX_PASSES;
	int mix = t->dir == CDM_DIR_MIX, fsync = r->info.fsync_every != 0;
	int end_fsync = cdm_result_end_fsync(t, r->info.end_fsync);

	cdm_result_summarize(t, &s);
	cdm_jsonw_object(w, NULL, 0);
	write_test_head(w, r, t, n, s.measured);
	write_steady(w, t, n);
	write_reported(w, t);
	cdm_jsonw_array(w, "passes", 0);
	for (i = 0; i < n; i++)
		write_pass(w, &t->passes[i], mix, fsync, end_fsync, r->info.rate_iops != 0);
	cdm_jsonw_end(w);
	write_summary(w, r, t, &s);
	write_verify(w, t);
	write_latency(w, t);
	if (t->series)
		cdm_series_out_json(w, t->series);
	cdm_jsonw_end(w);
}

static int json_write(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	struct cdm_jsonw w;

	cdm_jsonw_init(&w, out);
	cdm_jsonw_object(&w, NULL, 0);
	cdm_jsonw_i64(&w, "schema_version",
		      cdm_result_imported(in) ? CDM_JSON_SCHEMA_IMPORT : CDM_JSON_SCHEMA_VERSION);
	cdm_jsonw_str(&w, "tool", "cdm");
	cdm_jsonw_strn(&w, "cdm_version", in->version[0] ? in->version : cdm_version(),
		       sizeof(in->version));
	if (in->label[0])
		cdm_jsonw_strn(&w, "label", in->label, sizeof(in->label));
	else
		cdm_jsonw_strn(&w, "label", in->target, sizeof(in->target));
	cdm_jsonw_bool(&w, "interrupted", r->interrupted);
	cdm_jsonw_i64_if(&w, "interrupted_signal", r->interrupted, r->interrupted != 0);
	TEXT(&w, "comment", in->comment);
	write_info(&w, r);
	write_source(&w, in);
	cdm_scale_json(&w, r);		/* "scale": {...}, for aggregates only */
	cdm_jsonw_array(&w, "tests", 0);
	for (unsigned int i = 0; i < r->ntests; i++)
		write_test(&w, r, &r->tests[i]);
	cdm_jsonw_end(&w);
	cdm_jsonw_end(&w);
	/* the stream's error, as every formatter reports it (formatter.h) */
	return cdm_jsonw_finish(&w) ? -EIO : 0;
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_format_result_write = {
	.name = "json",
	.title = "JSON",
	.ext = "json",
	.write = json_write,
};
