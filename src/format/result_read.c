/* SPDX-License-Identifier: MIT */
/*
 * result_read.c - a saved JSON result back into struct cdm_run_result,
 * with every count the merge needs (passes, latency sums, start times,
 * histogram buckets): the one reader of cdm's results, for `cdm compare`,
 * `cdm merge` and cdm-mpi's reduction.  Uses cdm's strict JSON reader
 * (base/json.c); every member is checked for its type, and a missing or
 * mistyped one is named.  The members schema 1 gained after its first
 * release (lat_sum_ns, start_unix_ns, write_pct, the Mix parts, fsync,
 * sync, the settings rows marked CDM_SETTING_OPTIONAL in
 * model/settings.h, target.memory_under) are optional, so
 * older files still read, and so is what schema 2 added (pending_max_ns)
 * and what issue 14 added (the settings end_fsync, steady_state,
 * precondition, verify, cpus; system.cpus_allowed_list, device_numa_node,
 * numa_warning; a test's steady_state, a pass's end_fsync), and the
 * null engine's settings.null_device: absent, each
 * reads as off or unknown.  A test's --log-interval series is read too
 * (absent: none).  Figures are never read, only counts (a figure schema 2
 * writes as null, nothing measured, and schema 1 as 0 reads back the
 * same), but for what a series keeps only as figures: each point's mean
 * and p99 latency, and what the detectors found.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/devspec.h"
#include "cdm/base/err.h"
#include "cdm/base/msec.h"
#include "cdm/base/json.h"
#include "cdm/model/merge.h"
#include "cdm/format/result_read.h"
#include "cdm/model/series.h"
#include "result_rd.h"
#include "cdm/model/settings.h"

/*
 * Tests in one result at most: a run writes up to 3 x CDM_MAX_TESTS (read,
 * write and Mix of each spec); the bound, generous as compare's reader had
 * it, only keeps a hostile file from making the reader allocate without end.
 */
#define TESTS_MAX (2u * CDM_MAX_TESTS * 16)

/*
 * source.verify_blocks against the tests read: the blocks of cdm's text's
 * clean Verify line, which states no clean test's own (verify.blocks
 * null).  So a file whose clean tests have null blocks has them all null,
 * and its total, when stated, is one block a test at least (each read
 * back something); a total without such a test is no text's.  What the
 * Verify line prints again from them (format/layout.c) is then a line
 * cdm's text reader reads.
 */
static int verify_total(struct cdm_err *err, const struct cdm_run_result *r)
{
	unsigned int known = UINT32_MAX, unknown = UINT32_MAX, n = 0;
	uint64_t total = r->info.source.verify_blocks;

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_verify *v = &r->tests[i].verify;

		if (cdm_result_verify_state(v) != CDM_VERIFY_STATE_CLEAN)
			continue;
		if (v->blocks_unknown) {
			unknown = unknown == UINT32_MAX ? i : unknown;
			n++;
		} else {
			known = known == UINT32_MAX ? i : known;
		}
	}
	if (n && known != UINT32_MAX)
		return cdm_result_get_bad(err, "tests[%u].verify.blocks: null, but tests[%u]'s is a count: a text states its clean tests' blocks together",
					  unknown, known);
	if (total && !n)
		return cdm_result_get_bad(err, "source.verify_blocks: %" PRIu64 ", but no clean test's blocks are null",
					  total);
	if (total && total < n)
		return cdm_result_get_bad(err, "source.verify_blocks: %" PRIu64 " for %u clean tests, each of which read back a block at least",
					  total, n);
	return 0;
}

/*
 * target.memory_under (target/stack.h's findings), when the file has it:
 * absent or null in files from before it existed.  Each element is an
 * object of five strings; the first CDM_MEM_UNDER_MAX are kept.
 */
static int read_memory_under(struct cdm_err *err, const struct cdm_json *tg,
			     struct cdm_run_info *in)
{
	const struct cdm_json *a = cdm_json_get(tg, "memory_under");
	char w[64];

	in->nmem_under = 0;
	if (!a || a->type == CDM_JSON_NULL)
		return 0;
	if (a->type != CDM_JSON_ARRAY)
		return cdm_result_get_bad(err, "target.memory_under: expected array, found %s",
					  cdm_json_type_name(a->type));
	for (size_t i = 0; i < a->n; i++) {
		const struct cdm_json *o = &a->items[i];
		struct cdm_mem_under f;

		snprintf(w, sizeof(w), "target.memory_under[%zu]", i);
		if (o->type != CDM_JSON_OBJECT)
			return cdm_result_get_not_object(err, w, o);
		if (cdm_result_get_str(err, o, w, "kind", f.kind, sizeof(f.kind), 0) ||
		    cdm_result_get_str(err, o, w, "layer", f.layer, sizeof(f.layer), 0) ||
		    cdm_result_get_str(err, o, w, "stack", f.stack, sizeof(f.stack), 0) ||
		    cdm_result_get_str(err, o, w, "why", f.why, sizeof(f.why), 0) ||
		    cdm_result_get_str(err, o, w, "fix", f.fix, sizeof(f.fix), 0))
			return -EINVAL;
		if (in->nmem_under < CDM_MEM_UNDER_MAX)
			in->mem_under[in->nmem_under++] = f;
	}
	return 0;
}

/* "rotational": true, false, or null or absent (unknown) */
static int rotational(const struct cdm_json *v)
{
	return !v || v->type == CDM_JSON_NULL ? CDM_ROT_UNKNOWN :
	       v->type == CDM_JSON_TRUE ? CDM_ROT_YES : CDM_ROT_NO;
}

/*
 * target.devices, written when a filesystem sits on more than one device;
 * without it (one device, or files from before it existed) the one is the
 * device the target's keys name, when they name one.  The first
 * CDM_DEVICES_MAX are kept.
 */
static int read_devices(struct cdm_err *err, const struct cdm_json *tg, struct cdm_run_info *in)
{
	const struct cdm_json *a = cdm_json_get(tg, "devices");
	char w[64];
	uint64_t lbs;

	in->ndevices = 0;
	if (!a || a->type == CDM_JSON_NULL) {
		struct cdm_dev_info *d = &in->devices[0];

		if (!in->dev_name[0])
			return 0;
		memset(d, 0, sizeof(*d));
		memcpy(d->name, in->dev_name, sizeof(d->name));
		memcpy(d->model, in->dev_model, sizeof(d->model));
		d->rotational = in->dev_rotational;
		memcpy(d->scheduler, in->dev_scheduler, sizeof(d->scheduler));
		in->ndevices = 1;
		return 0;
	}
	if (a->type != CDM_JSON_ARRAY)
		return cdm_result_get_bad(err, "target.devices: expected array, found %s",
					  cdm_json_type_name(a->type));
	for (size_t i = 0; i < a->n && in->ndevices < CDM_DEVICES_MAX; i++) {
		const struct cdm_json *o = &a->items[i];
		struct cdm_dev_info *d = &in->devices[in->ndevices];

		snprintf(w, sizeof(w), "target.devices[%zu]", i);
		if (o->type != CDM_JSON_OBJECT)
			return cdm_result_get_not_object(err, w, o);
		memset(d, 0, sizeof(*d));
		lbs = 0;
		if (cdm_result_get_str(err, o, w, "name", d->name, sizeof(d->name), 0) ||
		    cdm_result_get_str(err, o, w, "model", d->model, sizeof(d->model), 1) ||
		    cdm_result_get_str(err, o, w, "scheduler", d->scheduler, sizeof(d->scheduler), 1) ||
		    cdm_result_get_opt_u64(err, o, w, "logical_block_bytes", &lbs))
			return -EINVAL;
		if (lbs > UINT32_MAX)
			return cdm_result_get_bad(err, "%s.logical_block_bytes: %" PRIu64 " is too large",
						  w, lbs);
		d->logical_block = (unsigned int)lbs;
		d->rotational = rotational(cdm_json_get(o, "rotational"));
		in->ndevices++;
	}
	return 0;
}

/*
 * A setting an imported report may not state (schema 3): null reads as
 * 0, "unknown" (info.source); else a whole number as before.
 */
static int null_u64(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		    const char *key, uint64_t *dst)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (v && v->type == CDM_JSON_NULL) {
		*dst = 0;
		return 0;
	}
	return cdm_result_get_u64(err, obj, where, key, dst);
}

/*
 * "source" (schema 3): where an imported run came from; absent or null
 * for a run cdm measured.  The kind is one cdm writes,
 * "crystaldiskmark" or "cdm_text" (cdm's own text report read back, with
 * its "origin"); its strings may be null ("").
 */
static int read_source(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_info *in)
{
	const struct cdm_json *so = cdm_json_get(root, "source"), *v;
	struct cdm_run_source *src = &in->source;
	char kind[32];
	uint64_t layout = 0;

	if (!so || so->type == CDM_JSON_NULL)
		return 0;
	if (so->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, "source", so);
	if (cdm_result_get_str(err, so, "source", "kind", kind, sizeof(kind), 0))
		return -EINVAL;
	if (!strcmp(kind, "cdm_text")) {
		/* cdm's own text report read back (cdm_read.h), and whose figures */
		src->kind = CDM_SOURCE_CDM_TEXT;
		if (cdm_json_get(so, "origin") &&
		    cdm_result_get_str(err, so, "source", "origin", src->origin, sizeof(src->origin), 1))
			return -EINVAL;
	} else if (!strcmp(kind, "crystaldiskmark")) {
		src->kind = CDM_SOURCE_CDM_REPORT;
	} else {
		return cdm_result_get_bad(err, "source.kind: \"%s\", expected \"crystaldiskmark\" or \"cdm_text\"", kind);
	}
	if (cdm_result_get_str(err, so, "source", "product", src->product, sizeof(src->product), 1) ||
	    cdm_result_get_str(err, so, "source", "version", src->version, sizeof(src->version), 1) ||
	    cdm_result_get_str(err, so, "source", "edition", src->edition, sizeof(src->edition), 1) ||
	    cdm_result_get_str(err, so, "source", "file", src->file, sizeof(src->file), 1) ||
	    cdm_result_get_str(err, so, "source", "date_text", src->date_text, sizeof(src->date_text), 1) ||
	    cdm_result_get_str(err, so, "source", "volume", src->volume, sizeof(src->volume), 1) ||
	    cdm_result_get_opt_u64(err, so, "source", "layout", &layout) ||
	    cdm_result_get_opt_u64(err, so, "source", "verify_blocks", &src->verify_blocks))
		return -EINVAL;
	if (layout > 99)
		return cdm_result_get_bad(err, "source.layout: %" PRIu64 " is no CrystalDiskMark version", layout);
	/* as cdm's text states it (format/layout.c), and its reader reads it back */
	if (src->verify_blocks > INT64_MAX)
		return cdm_result_get_bad(err, "source.verify_blocks: %" PRIu64 ", more than 2^63 - 1 blocks",
					  src->verify_blocks);
	src->layout = (unsigned int)layout;
	/* an interval, admin or test data the report did not state was written as null */
	v = cdm_json_get(cdm_json_get(root, "settings"), "interval_s");
	src->has_interval = v && v->type == CDM_JSON_NUMBER;
	v = cdm_json_get(cdm_json_get(root, "system"), "admin");
	src->has_admin = v && (v->type == CDM_JSON_TRUE || v->type == CDM_JSON_FALSE);
	v = cdm_json_get(cdm_json_get(root, "settings"), "data");
	src->has_data = v && v->type == CDM_JSON_STRING;
	return 0;
}

/* an optional boolean: absent or null leave *dst */
static int opt_bool(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		    const char *key, int *dst)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	return cdm_result_get_boolean(err, obj, where, key, dst);
}

/* an optional string: absent or null leave *dst */
static int opt_str(struct cdm_err *err, const struct cdm_json *obj, const char *where,
		   const char *key, char *dst, size_t dlen)
{
	const struct cdm_json *v = cdm_json_get(obj, key);

	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	return cdm_result_get_str(err, obj, where, key, dst, dlen, 0);
}

/*
 * A CPU list of the file (settings.cpus, system.cpus_allowed_list): ""
 * (none), or a list base/cpulist.h reads, as cdm wrote it.  A list that
 * is not one is refused by name: it would be printed into the text's
 * Mode line and the Markdown unchecked ("1> <Verify" forges a mark).
 */
static int cpu_list(struct cdm_err *err, const char *where, const char *key, const char *text)
{
	unsigned short cpus[CDM_CPULIST_MAX];
	struct cdm_err e = { "" };
	unsigned int n;

	if (!text[0] || !cdm_cpulist_parse(text, CDM_CPULIST_MAX, cpus, &n, &e))
		return 0;
	return cdm_result_get_bad(err, "%s.%s: not a CPU list: %s", where, key, e.msg);
}

/*
 * settings.null_device: null or absent (no simulated device; files from
 * before it), or a device base/devspec.h reads, kept in its canonical
 * form.  Anything else is refused by name: it is printed into the text's
 * Mode line and the Markdown unchecked.
 */
static int read_null_device(struct cdm_err *err, const struct cdm_json *set,
			    const struct cdm_setting *s, char *dst)
{
	struct cdm_devspec spec;
	struct cdm_err e = { "" };

	if (opt_str(err, set, "settings", s->key, dst, s->size))
		return -EINVAL;
	if (!dst[0])
		return 0;
	if (cdm_devspec_parse(dst, &spec, &e) < 0)
		return cdm_result_get_bad(err, "settings.%s: not a simulated device: %s", s->key, e.msg);
	cdm_devspec_format(&spec, dst, s->size);
	return 0;
}

/*
 * The settings of issue 14's method (--end-fsync, --steady-state,
 * --precondition, --verify, --cpus), all optional: absent in files from
 * before them, and read as off.
 */
/*
 * settings.precondition: { "time_ns": N, "complete": true }, or time_ns
 * null and "complete": false when it did not complete ("complete" absent
 * in files before it: a time means complete)
 */
static int read_precondition(struct cdm_err *err, const struct cdm_json *pc,
			     struct cdm_run_info *in)
{
	const struct cdm_json *t = cdm_json_get(pc, "time_ns"), *c = cdm_json_get(pc, "complete");
	int complete = !t || t->type != CDM_JSON_NULL;

	if (pc->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, "settings.precondition", pc);
	if (complete && cdm_result_get_u64(err, pc, "settings.precondition", "time_ns", &in->precondition_ns))
		return -EINVAL;
	if (complete && !in->precondition_ns)
		return cdm_result_get_bad(err, "settings.precondition.time_ns: 0 (null when it did not complete)");
	if (c && (c->type != CDM_JSON_TRUE && c->type != CDM_JSON_FALSE))
		return cdm_result_get_bad(err, "settings.precondition.complete: expected a boolean");
	if (c && (c->type == CDM_JSON_TRUE) != complete)
		return cdm_result_get_bad(err, "settings.precondition: \"complete\" is %s, but time_ns is %s",
					  complete ? "false" : "true", complete ? "a time" : "null");
	if (!complete)
		in->precondition_ns = 0;
	in->precondition = 1;
	return 0;
}

/* settings.steady_state: its rule's object, or null (off) */
static int read_steady_rule(struct cdm_err *err, const struct cdm_json *ss,
			    struct cdm_run_info *in)
{
	if (ss->type != CDM_JSON_OBJECT)
		return cdm_result_get_not_object(err, "settings.steady_state", ss);
	if (cdm_result_get_uint(err, ss, "settings.steady_state", "max_rounds", CDM_MAX_PASSES,
		     &in->max_rounds))
		return -EINVAL;
	in->steady_state = 1;
	return 0;
}

/* a whole-number setting: null reads as 0; optional ones may be absent */
static int read_number(struct cdm_err *err, const struct cdm_json *set,
		       const struct cdm_setting *s, struct cdm_run_result *r)
{
	const struct cdm_json *v = cdm_json_get(set, s->key);
	unsigned int n;
	uint64_t u = 0;

	if (s->flags & CDM_SETTING_OPTIONAL) {
		if (cdm_result_get_opt_u64(err, set, "settings", s->key, &u))
			return -EINVAL;
		/* never above the row's max (its field's width: --fsync's 2^32 - 1); --seed's min too */
		if (v && v->type != CDM_JSON_NULL &&
		    (u > s->max || ((s->flags & CDM_SETTING_RANGE) && u < s->min)))
			return cdm_result_get_bad(err, "settings.%s: out of range (%" PRIu64 "-%" PRIu64 ", or null)",
				   s->key, (s->flags & CDM_SETTING_RANGE) ? s->min : 0, s->max);
		cdm_settings_set_u64(s, r, u);
		return 0;
	}
	if (v && v->type == CDM_JSON_NULL) {
		cdm_settings_set_u64(s, r, 0);
		return 0;
	}
	if (s->type != CDM_SETTING_COUNT)
		return null_u64(err, set, "settings", s->key, cdm_settings_at(s, r));
	if (cdm_result_get_uint(err, set, "settings", s->key, (unsigned int)s->max, &n))
		return -EINVAL;
	cdm_settings_set_u64(s, r, n);
	return 0;
}

/* a flag: required, optional (absent or null: off), or anything but true off */
static int read_flag(struct cdm_err *err, const struct cdm_json *set,
		     const struct cdm_setting *s, struct cdm_run_result *r)
{
	const struct cdm_json *v = cdm_json_get(set, s->key);

	if (s->flags & CDM_SETTING_LAX) {
		cdm_settings_set_u64(s, r, v && v->type == CDM_JSON_TRUE);
		return 0;
	}
	if (s->flags & CDM_SETTING_OPTIONAL)
		return opt_bool(err, set, "settings", s->key, cdm_settings_at(s, r));
	return cdm_result_get_boolean(err, set, "settings", s->key, cdm_settings_at(s, r));
}

/* a setting whose JSON is a string: a text, the test data, the aggregate */
static int read_text(struct cdm_err *err, const struct cdm_json *set,
		     const struct cdm_setting *s, struct cdm_run_result *r)
{
	char t[16];

	switch (s->type) {
	case CDM_SETTING_CPUS:
		return opt_str(err, set, "settings", s->key, cdm_settings_at(s, r), s->size) ||
		       cpu_list(err, "settings", s->key, cdm_settings_at(s, r));
	case CDM_SETTING_DEVSPEC:
		return read_null_device(err, set, s, cdm_settings_at(s, r));
	case CDM_SETTING_DATA:
		if (cdm_result_get_str(err, set, "settings", s->key, t, sizeof(t), 1))
			return -EINVAL;
		cdm_settings_set_u64(s, r, !strcmp(t, "zero"));
		return 0;
	case CDM_SETTING_AGGREGATE:
		if (cdm_result_get_str(err, set, "settings", s->key, t, sizeof(t), 0))
			return -EINVAL;
		if (cdm_result_aggregate_parse(t, &r->aggregate) < 0)
			return cdm_result_get_bad(err, "settings.%s: \"%s\"", s->key, t);
		return 0;
	default:
		return cdm_result_get_str(err, set, "settings", s->key, cdm_settings_at(s, r), s->size, 1);
	}
}

/*
 * One setting of the table (model/settings.h) from "settings": null
 * where the run does not state it (an imported report's) or did not set
 * it; the settings newer than schema 1 may be absent, and read as off.
 */
static int read_setting(struct cdm_err *err, const struct cdm_json *set,
			const struct cdm_setting *s, struct cdm_run_result *r)
{
	const struct cdm_json *v = cdm_json_get(set, s->key);

	switch (s->type) {
	case CDM_SETTING_MSEC:
		return cdm_result_get_secs(err, set, "settings", s->key, cdm_settings_at(s, r));
	case CDM_SETTING_BOOL:
		return read_flag(err, set, s, r);
	case CDM_SETTING_STEADY:
		return v && v->type != CDM_JSON_NULL ? read_steady_rule(err, v, &r->info) : 0;
	case CDM_SETTING_PRECOND:
		return v && v->type != CDM_JSON_NULL ? read_precondition(err, v, &r->info) : 0;
	case CDM_SETTING_PCT:
		/* null: an imported report's, which has no passes to judge (the default stays) */
		v = cdm_result_get_mem(err, set, "settings", s->key, CDM_JSON_NUMBER, 1);
		if (v && v->type == CDM_JSON_NUMBER)
			*(double *)cdm_settings_at(s, r) = v->num;
		return v ? 0 : -EINVAL;
	case CDM_SETTING_U64:
	case CDM_SETTING_UINT:
	case CDM_SETTING_COUNT:
		return read_number(err, set, s, r);
	default:
		return read_text(err, set, s, r);
	}
}

/*
 * The system's side of --cpus, all optional: the CPUs allowed, the
 * device's NUMA node (null or absent: -1, unknown) and the warning.
 */
static int read_placement(struct cdm_err *err, const struct cdm_json *sy, struct cdm_run_info *in)
{
	const struct cdm_json *v = cdm_json_get(sy, "device_numa_node");
	unsigned int node;

	if (opt_str(err, sy, "system", "cpus_allowed_list", in->cpus_allowed_list,
		    sizeof(in->cpus_allowed_list)) ||
	    cpu_list(err, "system", "cpus_allowed_list", in->cpus_allowed_list) ||
	    opt_str(err, sy, "system", "numa_warning", in->numa_warning, sizeof(in->numa_warning)))
		return -EINVAL;
	in->dev_numa_node = -1;
	if (!v || v->type == CDM_JSON_NULL)
		return 0;
	/* the kernel numbers nodes below MAX_NUMNODES, at most 1 << 10 */
	if (cdm_result_get_uint(err, sy, "system", "device_numa_node", 1023, &node))
		return -EINVAL;
	in->dev_numa_node = (int)node;
	return 0;
}

/*
 * "target"'s is_device (absent in files before it: false), device_bytes
 * and logical_block_bytes (a device's sector, or the block a file's
 * O_DIRECT I/O was aligned to; null: 0, unknown)
 */
static int read_target_blocks(struct cdm_err *err, const struct cdm_json *tg,
			      struct cdm_run_info *in)
{
	uint64_t lbs = 0;

	if (cdm_json_get(tg, "is_device") &&
	    cdm_result_get_boolean(err, tg, "target", "is_device", &in->is_device))
		return -EINVAL;
	if (cdm_result_get_opt_u64(err, tg, "target", "device_bytes", &in->target_dev_bytes) ||
	    cdm_result_get_opt_u64(err, tg, "target", "logical_block_bytes", &lbs))
		return -EINVAL;
	if (lbs > UINT32_MAX)
		return cdm_result_get_bad(err, "target.logical_block_bytes: %" PRIu64 " is too large",
					  lbs);
	in->target_dev_lbs = (unsigned int)lbs;
	return 0;
}

/*
 * "target"'s test_file ("new", "kept", "reused") and test_file_data
 * ("random", "zero"): absent (files before them) or null, not stated
 */
static int read_test_file(struct cdm_err *err, const struct cdm_json *tg, struct cdm_run_info *in)
{
	static const struct {
		const char *key;
		int (*parse)(const char *s, int *v);
	} keys[] = {
		{ "test_file", cdm_result_test_file_parse },
		{ "test_file_data", cdm_result_file_data_parse },
	};
	int *dst[] = { &in->test_file, &in->test_file_data };
	char v[16];

	for (unsigned int i = 0; i < 2; i++) {
		*dst[i] = 0;
		if (!cdm_json_get(tg, keys[i].key))
			continue;
		if (cdm_result_get_str(err, tg, "target", keys[i].key, v, sizeof(v), 1))
			return -EINVAL;
		if (v[0] && keys[i].parse(v, dst[i]))
			return cdm_result_get_bad(err, "target.%s: unknown value '%s'", keys[i].key, v);
	}
	return 0;
}

/* "target": the path, its filesystem and device, the memory under it */
static int read_target(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_info *in)
{
	const struct cdm_json *tg, *v;

	tg = cdm_result_get_mem(err, root, "result", "target", CDM_JSON_OBJECT, 0);
	if (!tg)
		return -EINVAL;
	if (cdm_result_get_str(err, tg, "target", "path", in->target, sizeof(in->target), 1) ||
	    cdm_result_get_str(err, tg, "target", "mount_point", in->mount_point, sizeof(in->mount_point), 1) ||
	    cdm_result_get_str(err, tg, "target", "fs_type", in->fs_type, sizeof(in->fs_type), 1) ||
	    cdm_result_get_str(err, tg, "target", "fs_source", in->fs_source, sizeof(in->fs_source), 1) ||
	    cdm_result_get_str(err, tg, "target", "device", in->dev_name, sizeof(in->dev_name), 1) ||
	    cdm_result_get_str(err, tg, "target", "device_model", in->dev_model, sizeof(in->dev_model), 1) ||
	    cdm_result_get_str(err, tg, "target", "scheduler", in->dev_scheduler, sizeof(in->dev_scheduler), 1) ||
	    null_u64(err, tg, "target", "fs_total_bytes", &in->fs_total_bytes) ||
	    null_u64(err, tg, "target", "fs_used_bytes", &in->fs_used_bytes) ||
	    null_u64(err, tg, "target", "fs_avail_bytes", &in->fs_avail_bytes))
		return -EINVAL;
	if (read_target_blocks(err, tg, in) || read_test_file(err, tg, in) ||
	    read_memory_under(err, tg, in))
		return -EINVAL;
	v = cdm_json_get(tg, "rotational");
	in->dev_rotational = rotational(v);
	return read_devices(err, tg, in);
}

/* "system": the OS, kernel, machine, CPUs, memory and placement */
static int read_system(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_info *in)
{
	const struct cdm_json *sy, *v;
	uint64_t u;

	sy = cdm_result_get_mem(err, root, "result", "system", CDM_JSON_OBJECT, 0);
	if (!sy)
		return -EINVAL;
	if (cdm_result_get_str(err, sy, "system", "os", in->os, sizeof(in->os), 1) ||
	    cdm_result_get_str(err, sy, "system", "kernel", in->kernel, sizeof(in->kernel), 1) ||
	    cdm_result_get_str(err, sy, "system", "machine", in->machine, sizeof(in->machine), 1) ||
	    cdm_result_get_str(err, sy, "system", "cpu_model", in->cpu_model, sizeof(in->cpu_model), 1))
		return -EINVAL;
	/* null: an imported report that does not say (read_source()) */
	v = cdm_result_get_mem(err, sy, "system", "admin", CDM_JSON_TRUE, 1);
	if (!v)
		return -EINVAL;
	in->admin = v->type == CDM_JSON_TRUE;
	u = 0;
	if (cdm_result_get_opt_u64(err, sy, "system", "cpus_online", &u))
		return -EINVAL;
	in->cpus_online = u > UINT32_MAX ? 0 : (unsigned int)u;
	u = 0;          /* absent in files written before it was added */
	if (cdm_result_get_opt_u64(err, sy, "system", "cpus_allowed", &u))
		return -EINVAL;
	in->cpus_allowed = u > UINT32_MAX ? 0 : (unsigned int)u;
	in->mem_total_bytes = 0;	/* absent in files written before it was added */
	if (cdm_result_get_opt_u64(err, sy, "system", "mem_total_bytes", &in->mem_total_bytes))
		return -EINVAL;
	return read_placement(err, sy, in);
}

int cdm_result_read_settings(struct cdm_err *err, const struct cdm_json *set,
			     struct cdm_run_result *r, int absent_ok)
{
	unsigned int nset;
	const struct cdm_setting *table = cdm_settings(&nset);

	for (unsigned int i = 0; i < nset; i++) {
		if (absent_ok && !cdm_json_get(set, table[i].key))
			continue;
		if (read_setting(err, set, &table[i], r))
			return -EINVAL;
	}
	return 0;
}

static int read_info(struct cdm_err *err, const struct cdm_json *root, struct cdm_run_result *r)
{
	struct cdm_run_info *in = &r->info;
	const struct cdm_json *set, *v;

	if (cdm_result_get_str(err, root, "result", "label", in->label, sizeof(in->label), 0) ||
	    cdm_result_get_str(err, root, "result", "cdm_version", in->version, sizeof(in->version), 0) ||
	    cdm_result_get_str(err, root, "result", "comment", in->comment, sizeof(in->comment), 1))
		return -EINVAL;
	v = cdm_result_get_mem(err, root, "result", "interrupted_signal", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER) {
		unsigned int sig;

		if (cdm_result_get_uint(err, root, "result", "interrupted_signal", 64, &sig))
			return -EINVAL;
		r->interrupted = (int)sig;
	}
	/* null: an imported report without its Date (source.date_text says) */
	v = cdm_result_get_mem(err, root, "result", "start_unix", CDM_JSON_NUMBER, 1);
	if (!v)
		return -EINVAL;
	if (v->type == CDM_JSON_NUMBER && !(v->num >= 0 && v->num < 1e13))
		return cdm_result_get_bad(err, "start_unix: out of range");
	in->start = v->type == CDM_JSON_NUMBER ? (time_t)v->num : 0;

	set = cdm_result_get_mem(err, root, "result", "settings", CDM_JSON_OBJECT, 0);
	if (!set || cdm_result_read_settings(err, set, r, 0))
		return -EINVAL;

	if (read_target(err, root, in))
		return -EINVAL;
	return read_system(err, root, in);
}


/* the JSON text parsed, or -EINVAL / -ENOMEM / -E2BIG with the reason in @err */
static int parse(const char *text, size_t len, struct cdm_json **root, struct cdm_err *err)
{
	struct cdm_json_error je;
	size_t i;
	int ret;

	for (i = 0; i < len && text[i] && strchr(" \t\r\n", text[i]); i++)
		;
	if (i == len)
		return cdm_err_set(err, -EINVAL, "empty file, not a cdm result");
	ret = cdm_json_parse(text, len, root, &je);
	if (ret == -ENOMEM)
		return cdm_err_set(err, ret, "out of memory");
	if (ret && je.truncated)
		return cdm_err_set(err, ret, "truncated JSON: the text ends at byte %zu, inside a value (%s)",
				   je.offset, je.msg);
	if (ret)
		return cdm_err_set(err, ret, "not JSON: line %u, column %u: %s", je.line, je.column,
				   je.msg);
	return 0;
}

/* is @root a cdm result of a schema this reader knows, as @flags allow? */
static int check_kind(const struct cdm_json *root, unsigned int flags, struct cdm_err *err)
{
	const struct cdm_json *tool = cdm_json_get(root, "tool");
	const struct cdm_json *sv = cdm_json_get(root, "schema_version");
	const struct cdm_json *kind;

	if (!tool || tool->type != CDM_JSON_STRING || strcmp(tool->str, "cdm") || !sv)
		return cdm_err_set(err, -EINVAL, "not a cdm result (valid JSON, but not an object with \"tool\": \"cdm\" and a \"schema_version\")");
	if (sv->type != CDM_JSON_NUMBER || !sv->is_uint || sv->u64 < 1)
		return cdm_result_get_bad(err, "schema_version: expected a whole number >= 1");
	if (sv->u64 > CDM_JSON_SCHEMA_READ_MAX)
		return cdm_err_set(err, -EPROTONOSUPPORT, "schema_version %" PRIu64 " is newer than this cdm reads (%d)",
				   sv->u64, CDM_JSON_SCHEMA_READ_MAX);
	/* a sweep's points (report/sweep_table.c: "kind": "sweep") are no run */
	kind = cdm_json_get(root, "kind");
	if (kind && kind->type == CDM_JSON_STRING && !strcmp(kind->str, "sweep"))
		return cdm_err_set(err, -EINVAL, "a cdm sweep result (cdm sweep --save), not a run's (cdm --save)");
	if (cdm_json_get(root, "scale") && !(flags & CDM_RESULT_READ_AGGREGATE))
		return cdm_err_set(err, -EINVAL, "already an aggregate of several runs: merge the runs' own results");
	return 0;
}

/*
 * The settings a report of the run prints, against what cdm runs
 * (spec.h) and its text reader reads back: a run cdm measured states each
 * of them (its count, time and size); an imported one may leave one
 * unknown (0, null), and what it states is in range.
 */
static int settings_ok(struct cdm_err *err, const struct cdm_run_info *in)
{
	int imported = cdm_result_imported(in);
	char t[CDM_MSEC_FORMAT_MAX];

	if ((in->count || !imported) && (in->count < 1 || in->count > CDM_COUNT_MAX))
		return cdm_result_get_bad(err, "settings.count: %u is outside 1..%u", in->count, CDM_COUNT_MAX);
	if ((in->time_ms || !imported) && in->time_ms < CDM_TIME_MIN_MS)
		return cdm_result_get_bad(err, "settings.time_s: %s is outside 0.1..%u",
					  cdm_msec_format(in->time_ms, t, sizeof(t)), CDM_TIME_MAX);
	if ((in->size || !imported) && (in->size < CDM_SIZE_MIN || in->size > CDM_SIZE_MAX))
		return cdm_result_get_bad(err, "settings.size_bytes: %" PRIu64 " is outside %llu..%llu", in->size,
					  CDM_SIZE_MIN, CDM_SIZE_MAX);
	return 0;
}

int cdm_result_read(const char *text, size_t len, unsigned int flags,
		    struct cdm_run_result **out, struct cdm_err *err)
{
	const struct cdm_json *tests;
	struct cdm_run_result *r = NULL;
	struct cdm_json *root;
	unsigned int tmax;
	size_t n;
	int ret;

	*out = NULL;
	ret = parse(text, len, &root, err);
	if (ret)
		return ret;
	ret = check_kind(root, flags, err);
	if (ret)
		goto out;
	/* the settings are checked before the tests: their errors come first */
	tests = cdm_json_get(root, "tests");
	n = tests && tests->type == CDM_JSON_ARRAY ? tests->n : 0;
	if (n > TESTS_MAX) {
		ret = cdm_result_get_bad(err, "tests: %zu tests, more than cdm ever writes", n);
		goto out;
	}
	r = cdm_result_alloc((unsigned int)n);
	if (!r) {
		ret = cdm_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = read_info(err, root, r);
	if (!ret)
		ret = read_source(err, root, &r->info);
	if (!ret)
		ret = settings_ok(err, &r->info);
	if (!ret && !cdm_result_get_mem(err, root, "result", "tests", CDM_JSON_ARRAY, 0))
		ret = -EINVAL;
	/* an aggregate's tests sum the threads of its runs (model/merge.h) */
	tmax = cdm_json_get(root, "scale") ? CDM_THREADS_MAX * CDM_MERGE_MAX : CDM_THREADS_MAX;
	for (unsigned int i = 0; !ret && i < r->ntests; i++)
		ret = cdm_result_read_test(err, &tests->items[i], i, &r->info, tmax, &r->tests[i]);
	if (!ret)
		ret = verify_total(err, r);
	/* an aggregate's runs: what its report prints of them (format/scale.c) */
	if (!ret)
		ret = cdm_result_read_scale(err, root, r);
out:
	cdm_json_free(root);
	if (ret) {
		cdm_result_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

