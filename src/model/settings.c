/* SPDX-License-Identifier: MIT */
/*
 * settings.c - the table of a run's settings (model/settings.h): one row
 * per setting, in the order of JSON's "settings".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdm/model/settings.h"
#include "cdm/model/spec.h"
#include "cdm/model/steady.h"

/* every int, unsigned int and enum of a row is copied as 4 bytes */
_Static_assert(sizeof(int) == sizeof(uint32_t) && sizeof(enum cdm_aggregate) == sizeof(uint32_t),
	       "a setting's int is 4 bytes");

#define INFO(f) CDM_HOME_INFO, offsetof(struct cdm_run_info, f), sizeof(((struct cdm_run_info *)0)->f)
#define RES(f) CDM_HOME_RESULT, offsetof(struct cdm_run_result, f), \
	sizeof(((struct cdm_run_result *)0)->f)

/*
 * key, option, label, type, known, item, flags, home, offset and size, default,
 * min, max, merge, differ, mark, mark_end, Markdown's words, the card's,
 * cdm compare's name and words
 */
static const struct cdm_setting table[] = {
	{ "profile", "--profile", "Profile", CDM_SETTING_TEXT, CDM_KNOWN_INFO,
	  CDM_INFO_PROFILE, 0, INFO(profile), "default", 0, 0,
	  CDM_MERGE_FIRST, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "size_bytes", "--size", "Test size", CDM_SETTING_U64, CDM_KNOWN_INFO,
	  CDM_INFO_SIZE, 0, INFO(size), "1 GiB", CDM_SIZE_MIN, CDM_SIZE_MAX,
	  CDM_MERGE_SAME, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { "size", NULL, NULL } },
	{ "count", "--count", "passes", CDM_SETTING_COUNT, CDM_KNOWN_INFO,
	  CDM_INFO_COUNT, CDM_SETTING_ROUNDS, INFO(count), "5", 1, CDM_COUNT_MAX,
	  CDM_MERGE_SAME, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { "count", "x", NULL } },
	{ "time_s", "--time", "Measure", CDM_SETTING_MSEC, CDM_KNOWN_INFO,
	  CDM_INFO_TIME, 0, INFO(time_ms), "5 s", CDM_TIME_MIN_MS, CDM_TIME_MAX_MS,
	  CDM_MERGE_SAME, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { "time", NULL, NULL } },
	{ "interval_s", "--interval", "Interval", CDM_SETTING_MSEC, CDM_KNOWN_INFO,
	  CDM_INFO_INTERVAL, 0, INFO(interval_ms), "5 s", 0, CDM_TIME_MAX_MS,
	  CDM_MERGE_SAME, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "warmup_s", "--warmup", "warm-up", CDM_SETTING_MSEC, CDM_KNOWN_INFO,
	  CDM_INFO_WARMUP, 0, INFO(warmup_ms), "the profile's", 0, CDM_TIME_MAX_MS,
	  CDM_MERGE_SAME, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "engine", "--engine", "engine", CDM_SETTING_TEXT, CDM_KNOWN_INFO,
	  CDM_INFO_ENGINE, 0, INFO(engine), "auto", 0, 0,
	  CDM_MERGE_FIRST, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { "engine", NULL, NULL } },
	{ "direct", "--buffered", "O_DIRECT", CDM_SETTING_BOOL, CDM_KNOWN_ALWAYS,
	  0, 0, INFO(direct), "on (--buffered: off)", 0, 1,
	  CDM_MERGE_SAME, "O_DIRECT vs buffered",
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { "direct", "O_DIRECT", "buffered" } },
	{ "data", "--data", "0Fill", CDM_SETTING_DATA, CDM_KNOWN_INFO,
	  CDM_INFO_DATA, 0, INFO(zero_fill), "random", 0, 1,
	  CDM_MERGE_SAME, "data random vs zero",
	  "<0Fill>", NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { "data", "zero", "random" } },
	{ "sync", "--sync", "O_DSYNC", CDM_SETTING_BOOL, CDM_KNOWN_ALWAYS,
	  0, CDM_SETTING_LAX, INFO(dsync), "off", 0, 1,
	  CDM_MERGE_SAME, "--sync on one, not on the other",
	  "<O_DSYNC>", NULL,
	  { "; O\\_DSYNC", NULL }, { ", O_DSYNC", NULL },
	  { NULL, NULL, NULL } },
	{ "fsync_every", "--fsync", "Fsync", CDM_SETTING_UINT, CDM_KNOWN_SET,
	  0, CDM_SETTING_OPTIONAL, INFO(fsync_every), "off", 1, UINT32_MAX,
	  CDM_MERGE_SAME, NULL,
	  "<fdatasync/", ">",
	  { "; fdatasync every ", " writes" }, { ", fdatasync every ", " writes" },
	  { NULL, NULL, NULL } },
	{ "rate_iops", "--rate-iops", "Rate", CDM_SETTING_U64, CDM_KNOWN_SET,
	  0, CDM_SETTING_OPTIONAL, INFO(rate_iops), "no cap", 1, UINT64_MAX,
	  CDM_MERGE_SUM, NULL,
	  "<Rate ", " IOPS>",
	  { "; rate capped at ", " IOPS" }, { ", capped at ", " IOPS" },
	  { NULL, NULL, NULL } },
	{ "seed", "--seed", "Seed", CDM_SETTING_U64, CDM_KNOWN_SET,
	  0, CDM_SETTING_OPTIONAL | CDM_SETTING_RANGE, INFO(seed), "from the clock", 1, UINT32_MAX,
	  CDM_MERGE_SHARED, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "null_device", "--null-device", "NullDevice", CDM_SETTING_DEVSPEC, CDM_KNOWN_SET,
	  0, CDM_SETTING_OPTIONAL, INFO(null_device), "none", 0, 0,
	  CDM_MERGE_SAME, NULL,
	  "<Null device ", ">",
	  { "; a simulated device, `", "`" }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "end_fsync", "--end-fsync", "EndFsync", CDM_SETTING_BOOL, CDM_KNOWN_ALWAYS,
	  0, CDM_SETTING_OPTIONAL, INFO(end_fsync), "off", 0, 1,
	  CDM_MERGE_SAME, NULL,
	  "<EndFsync>", NULL,
	  { "; each write and Mix pass ends with an fdatasync, timed inside it (end fsync)", NULL }, { ", end fsync", NULL },
	  { "end_fsync", "with end fsync", "without" } },
	{ "steady_state", "--steady-state", "SteadyState", CDM_SETTING_STEADY, CDM_KNOWN_SET,
	  0, CDM_SETTING_OPTIONAL, INFO(steady_state), "off", 0, 1,
	  CDM_MERGE_FIRST, NULL,
	  "<Steady-state max ", ">",
	  { NULL, NULL }, { NULL, NULL },
	  { "steady_state", NULL, NULL } },
	{ "precondition", "--precondition", "Precondition", CDM_SETTING_PRECOND, CDM_KNOWN_SET,
	  0, CDM_SETTING_OPTIONAL, INFO(precondition), "off", 0, 1,
	  CDM_MERGE_FIRST, NULL,
	  "<Precondition>", NULL,
	  { "; preconditioned (the file ", NULL }, { NULL, NULL },
	  { "precondition", NULL, NULL } },
	{ "verify", "--verify", "Verify", CDM_SETTING_BOOL, CDM_KNOWN_ALWAYS,
	  0, CDM_SETTING_OPTIONAL, INFO(verify), "off", 0, 1,
	  CDM_MERGE_FIRST, NULL,
	  "<Verify>", NULL,
	  { "; every write read back and verified", NULL }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "cpus", "--cpus", "CPUs", CDM_SETTING_CPUS, CDM_KNOWN_SET,
	  0, CDM_SETTING_OPTIONAL, INFO(cpus), "not pinned", 0, 0,
	  CDM_MERGE_FIRST, NULL,
	  "<CPUs ", ">",
	  { "; worker threads pinned round-robin to CPUs ", "" }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "aggregate", "--aggregate", "aggregate", CDM_SETTING_AGGREGATE, CDM_KNOWN_ALWAYS,
	  0, 0, RES(aggregate), "best", CDM_AGG_BEST, CDM_AGG_MEAN,
	  CDM_MERGE_FIRST, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { NULL, NULL, NULL } },
	{ "cv_threshold_pct", "--cv-threshold", "CV", CDM_SETTING_PCT, CDM_KNOWN_MEASURED,
	  0, 0, RES(cv_threshold_pct), "10", 0, 0,
	  CDM_MERGE_FIRST, NULL,
	  NULL, NULL,
	  { NULL, NULL }, { NULL, NULL },
	  { NULL, NULL, NULL } },
};

const struct cdm_setting *cdm_settings(unsigned int *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct cdm_setting *cdm_settings_find(const char *key)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].key, key))
			return &table[i];
	return NULL;
}

void *cdm_settings_at(const struct cdm_setting *s, struct cdm_run_result *r)
{
	if (s->home == CDM_HOME_RESULT)
		return (char *)r + s->offset;
	return (char *)&r->info + s->offset;
}

const void *cdm_settings_at_const(const struct cdm_setting *s, const struct cdm_run_result *r)
{
	return cdm_settings_at(s, (struct cdm_run_result *)r);
}

void *cdm_settings_info_at(const struct cdm_setting *s, struct cdm_run_info *in)
{
	if (s->home != CDM_HOME_INFO)
		return NULL;
	return (char *)in + s->offset;
}

const void *cdm_settings_info_at_const(const struct cdm_setting *s, const struct cdm_run_info *in)
{
	return cdm_settings_info_at(s, (struct cdm_run_info *)in);
}

/*
 * a whole-number or flag setting: held in 8 bytes (uint64_t) or 4
 * (unsigned int, an int flag >= 0, an enum), copied by its size
 */
static int whole(const struct cdm_setting *s)
{
	return s->type != CDM_SETTING_TEXT && s->type != CDM_SETTING_CPUS &&
	       s->type != CDM_SETTING_DEVSPEC && s->type != CDM_SETTING_PCT &&
	       (s->size == sizeof(uint64_t) || s->size == sizeof(uint32_t));
}

/* @s's whole-number value held at @p */
static uint64_t value_u64(const struct cdm_setting *s, const void *p)
{
	uint32_t v32;
	uint64_t v;

	if (!whole(s))
		return 0;
	if (s->size == sizeof(v)) {
		memcpy(&v, p, sizeof(v));
		return v;
	}
	memcpy(&v32, p, sizeof(v32));
	return v32;
}

uint64_t cdm_settings_u64(const struct cdm_setting *s, const struct cdm_run_result *r)
{
	return value_u64(s, cdm_settings_at_const(s, r));
}

uint64_t cdm_settings_info_u64(const struct cdm_setting *s, const struct cdm_run_info *in)
{
	const void *p = cdm_settings_info_at_const(s, in);

	return p ? value_u64(s, p) : 0;
}

/* store @v as @s's whole-number value at @p */
static void store_u64(const struct cdm_setting *s, void *p, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (!p || !whole(s))
		return;
	if (s->size == sizeof(v))
		memcpy(p, &v, sizeof(v));
	else
		memcpy(p, &v32, sizeof(v32));
}

void cdm_settings_set_u64(const struct cdm_setting *s, struct cdm_run_result *r, uint64_t v)
{
	store_u64(s, cdm_settings_at(s, r), v);
}

void cdm_settings_info_set_u64(const struct cdm_setting *s, struct cdm_run_info *in, uint64_t v)
{
	store_u64(s, cdm_settings_info_at(s, in), v);
}

/* does @s, held at @p of a run whose info is @in, have a value? */
static int known_at(const struct cdm_setting *s, const struct cdm_run_info *in, const void *p)
{
	switch (s->known) {
	case CDM_KNOWN_ALWAYS:
		return 1;
	case CDM_KNOWN_INFO:
		return cdm_result_known(in, s->item);
	case CDM_KNOWN_MEASURED:
		return !cdm_result_imported(in);
	default:
		break;
	}
	if (s->type == CDM_SETTING_TEXT || s->type == CDM_SETTING_CPUS ||
	    s->type == CDM_SETTING_DEVSPEC)
		return *(const char *)p != '\0';
	return value_u64(s, p) != 0;
}

int cdm_settings_info_on(const struct cdm_setting *s, const struct cdm_run_info *in)
{
	if (s->known == CDM_KNOWN_SET)
		return cdm_settings_info_known(s, in);
	return cdm_settings_info_u64(s, in) != 0;
}

char *cdm_settings_info_text(const struct cdm_setting *s, const struct cdm_run_info *in,
			     char *buf, size_t len)
{
	const char *text = cdm_settings_info_at_const(s, in);

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!text)
		return buf;
	if (s->type == CDM_SETTING_STEADY)
		snprintf(buf, len, "%u", in->max_rounds);
	else if (s->type == CDM_SETTING_TEXT || s->type == CDM_SETTING_CPUS ||
		 s->type == CDM_SETTING_DEVSPEC)
		snprintf(buf, len, "%.*s", (int)s->size, text);
	else if (whole(s))
		snprintf(buf, len, "%llu", (unsigned long long)cdm_settings_info_u64(s, in));
	return buf;
}

int cdm_settings_known(const struct cdm_setting *s, const struct cdm_run_result *r)
{
	return known_at(s, &r->info, cdm_settings_at_const(s, r));
}

int cdm_settings_info_known(const struct cdm_setting *s, const struct cdm_run_info *in)
{
	const void *p = cdm_settings_info_at_const(s, in);

	return p ? known_at(s, in, p) : 0;
}

int cdm_settings_info_same(const struct cdm_setting *s, const struct cdm_run_info *a,
			   const struct cdm_run_info *b)
{
	const char *pa = cdm_settings_info_at_const(s, a), *pb = cdm_settings_info_at_const(s, b);
	uint64_t x, y;

	if (!pa || !pb)
		return 1;
	if (s->type == CDM_SETTING_TEXT || s->type == CDM_SETTING_CPUS ||
	    s->type == CDM_SETTING_DEVSPEC)
		return !strncmp(pa, pb, s->size);
	x = value_u64(s, pa);
	y = value_u64(s, pb);
	if (s->type == CDM_SETTING_BOOL || s->type == CDM_SETTING_STEADY ||
	    s->type == CDM_SETTING_PRECOND) {
		x = x != 0;
		y = y != 0;
	}
	if (s->type == CDM_SETTING_STEADY && x && y)
		return a->max_rounds == b->max_rounds;
	return x == y;
}
