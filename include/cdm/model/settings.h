/* SPDX-License-Identifier: MIT */
/*
 * cdm/model/settings.h - the table of a run's settings: each setting
 * described once (its option, its type, its JSON key in "settings", the
 * label the text formats print, its default and range, and when it is
 * "known"), in the style of fio's option table (fio's options.c).  The
 * JSON writer (format/result_write.c) and reader (format/result_read.c) of
 * "settings", CSV's columns (report/csv.c), cdm merge and cdm compare loop
 * over it instead of naming
 * each setting; a setting that
 * only changes what runs is one row here plus the code that acts on it
 * (docs/hacking.md, "Adding a setting").
 */
#ifndef CDM_MODEL_SETTINGS_H
#define CDM_MODEL_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/model/result.h"

/*
 * enum cdm_setting_type - how a setting is held in struct cdm_run_result
 * and written in JSON:
 * @CDM_SETTING_TEXT:   char[size]: a JSON string; "" is null when not known
 * @CDM_SETTING_U64:    uint64_t: a whole number
 * @CDM_SETTING_UINT:   unsigned int: a whole number (read: above @max is @max)
 * @CDM_SETTING_COUNT:  unsigned int: a whole number 0..@max, an error above
 * @CDM_SETTING_MSEC:   unsigned int ms: seconds, 5 or 0.5 (cdm_fmt_setting())
 * @CDM_SETTING_BOOL:   int flag: true or false
 * @CDM_SETTING_DATA:   int zero_fill: "zero" or "random"
 * @CDM_SETTING_STEADY: int steady_state with info.max_rounds: an object of
 *                      its rule's constants (model/steady.h), or null
 * @CDM_SETTING_PRECOND: int precondition with info.precondition_ns: an
 *                      object of its passes, block and time, or null
 * @CDM_SETTING_CPUS:   char[size]: a CPU list (base/cpulist.h), or null
 * @CDM_SETTING_DEVSPEC: char[size]: a simulated device (base/devspec.h), or null
 * @CDM_SETTING_AGGREGATE: enum cdm_aggregate: its name (cdm_result_aggregate_name())
 * @CDM_SETTING_PCT:    double: a number
 */
enum cdm_setting_type {
	CDM_SETTING_TEXT,
	CDM_SETTING_U64,
	CDM_SETTING_UINT,
	CDM_SETTING_COUNT,
	CDM_SETTING_MSEC,
	CDM_SETTING_BOOL,
	CDM_SETTING_DATA,
	CDM_SETTING_STEADY,
	CDM_SETTING_PRECOND,
	CDM_SETTING_CPUS,
	CDM_SETTING_DEVSPEC,
	CDM_SETTING_AGGREGATE,
	CDM_SETTING_PCT,
};

/*
 * enum cdm_setting_known - when a setting has a value (JSON: else null):
 * @CDM_KNOWN_ALWAYS:   always (a flag that is off is false)
 * @CDM_KNOWN_INFO:     when the run states it: cdm_result_known(@item); a
 *                      run cdm measured states it, an imported report may not
 * @CDM_KNOWN_SET:      when it is set: not 0, not "" (an option not given)
 * @CDM_KNOWN_MEASURED: for a run cdm measured, never for an imported one
 */
enum cdm_setting_known {
	CDM_KNOWN_ALWAYS,
	CDM_KNOWN_INFO,
	CDM_KNOWN_SET,
	CDM_KNOWN_MEASURED,
};

/*
 * enum cdm_setting_merge - a setting of an aggregate of runs (model/merge.h):
 * @CDM_MERGE_FIRST:  the first run's
 * @CDM_MERGE_SAME:   every run must have the same (cdm_merge_check())
 * @CDM_MERGE_SUM:    the same in every run, and the aggregate's is their sum
 * @CDM_MERGE_SHARED: kept only if every run shares it, else 0
 */
enum cdm_setting_merge {
	CDM_MERGE_FIRST,
	CDM_MERGE_SAME,
	CDM_MERGE_SUM,
	CDM_MERGE_SHARED,
};

/*
 * enum cdm_setting_home - the struct a setting is held in, and so what
 * struct cdm_setting.offset is measured from:
 * @CDM_HOME_INFO:   struct cdm_run_info (a result's info, or one on its own)
 * @CDM_HOME_RESULT: struct cdm_run_result, outside its info
 */
enum cdm_setting_home {
	CDM_HOME_INFO,
	CDM_HOME_RESULT,
};

/*
 * struct cdm_setting_words - what a text format writes of a setting when
 * it is set (cdm_settings_info_on()): @pre, or with @post, @pre, its
 * value (cdm_settings_info_text()) and @post.  @pre NULL: nothing.
 */
struct cdm_setting_words {
	const char *pre;
	const char *post;
};

/*
 * struct cdm_setting_compare - what `cdm compare` makes of a setting in
 * which runs that differ are hard to compare (model/compare.h): @name,
 * the name its warning gives it ("size"; NULL: not compared); for a flag
 * (types BOOL, DATA) the words of its value @on and @off ("O_DIRECT",
 * "buffered"), for a setting of another type but STEADY and PRECOND
 * (their words are compare_table.c's) @on, or NULL, before its value as
 * every report prints it (cdm_fmt_setting() of @item): "x" for the
 * count's "x5".  Only a row known by CDM_KNOWN_INFO or a flag, STEADY or
 * PRECOND may have a @name (test_settings.c holds the table to it).
 */
struct cdm_setting_compare {
	const char *name;
	const char *on;
	const char *off;
};

#define CDM_SETTINGS_MARK_MAX 32        /* struct cdm_setting.mark, .mark_end with the NUL */

/* struct cdm_setting.flags */
#define CDM_SETTING_OPTIONAL 0x1        /* the reader takes it absent (files before it) */
#define CDM_SETTING_LAX      0x2        /* the reader takes anything but true as false */
#define CDM_SETTING_RANGE    0x4        /* the reader refuses a value outside @min..@max */
#define CDM_SETTING_ROUNDS   0x8        /* cdm compare: runs that both have steady state
					   do not differ in it (their rounds replace it) */

/*
 * struct cdm_setting - one row of the table.
 * @key:     its key in the JSON's "settings" (docs/output-formats.md)
 * @option:  the command-line option that sets it ("--size"), or NULL
 * @label:   what the text formats call it ("Test size"), or NULL
 * @type:    how it is held and written (enum cdm_setting_type)
 * @known:   when it has a value (enum cdm_setting_known)
 * @item:    with CDM_KNOWN_INFO, the item cdm_result_known() is asked about
 * @flags:   CDM_SETTING_OPTIONAL, CDM_SETTING_LAX, CDM_SETTING_RANGE,
 *           CDM_SETTING_ROUNDS
 * @home:    the struct it is held in (enum cdm_setting_home)
 * @offset:  where it is held: offsetof(struct cdm_run_info, ...) or, with
 *           CDM_HOME_RESULT, offsetof(struct cdm_run_result, ...)
 * @size:    its size in bytes (a text's array size)
 * @def:     its default as the option's help prints it ("1 GiB", "off")
 * @min:     its least value when set (whole-number types), else 0
 * @max:     its greatest value (whole-number types), else 0
 * @merge:   what an aggregate of runs keeps (enum cdm_setting_merge)
 * @differ:  cdm_merge_check()'s words when two runs' differ, or NULL: the
 *           key and both values
 * @mark:    the CDM text's mark of it when set (format/layout.c,
 *           cdm_layout_marks()): "<O_DSYNC>", or with @mark_end the part
 *           before its value ("<Rate ", the value, " IOPS>"); NULL: none
 * @mark_end: the part after the value, or NULL for a mark without one;
 *           each at most CDM_SETTINGS_MARK_MAX bytes with its NUL
 * @md:      Markdown's words of it in "How measured:" (report/markdown.c)
 * @card:    the SVG card's on its "Engine:" line (report/svg_card.c)
 * @compare: cdm compare's name and words of it (struct cdm_setting_compare)
 */
struct cdm_setting {
	const char *key;
	const char *option;
	const char *label;
	enum cdm_setting_type type;
	enum cdm_setting_known known;
	enum cdm_info_item item;
	unsigned int flags;
	enum cdm_setting_home home;
	size_t offset;
	size_t size;
	const char *def;
	uint64_t min;
	uint64_t max;
	enum cdm_setting_merge merge;
	const char *differ;
	const char *mark;
	const char *mark_end;
	struct cdm_setting_words md;
	struct cdm_setting_words card;
	struct cdm_setting_compare compare;
};

/*
 * cdm_settings - the table, in the order of JSON's "settings", and its
 * number of rows in *@n.  Static, never NULL.
 */
const struct cdm_setting *cdm_settings(unsigned int *n);

/*
 * cdm_settings_find - the row whose JSON key is @key, or NULL.
 */
const struct cdm_setting *cdm_settings_find(const char *key);

/*
 * cdm_settings_at - where @s is held in @r: @r's info or @r plus
 * s->offset (struct cdm_setting.home).
 * cdm_settings_at_const - the same, read-only.
 */
void *cdm_settings_at(const struct cdm_setting *s, struct cdm_run_result *r);
const void *cdm_settings_at_const(const struct cdm_setting *s, const struct cdm_run_result *r);

/*
 * cdm_settings_info_at - where @s is held in @in: (char *)in + s->offset,
 * or NULL for a setting held outside the info (CDM_HOME_RESULT).  For a
 * caller that has a struct cdm_run_info without its result.
 * cdm_settings_info_at_const - the same, read-only.
 */
void *cdm_settings_info_at(const struct cdm_setting *s, struct cdm_run_info *in);
const void *cdm_settings_info_at_const(const struct cdm_setting *s, const struct cdm_run_info *in);

/*
 * cdm_settings_known - does @r have a value for @s (enum
 * cdm_setting_known)?  Returns 1 or 0.
 */
int cdm_settings_known(const struct cdm_setting *s, const struct cdm_run_result *r);

/*
 * cdm_settings_info_known - cdm_settings_known() from an info alone: 0
 * for a setting held outside it (CDM_HOME_RESULT).
 */
int cdm_settings_info_known(const struct cdm_setting *s, const struct cdm_run_info *in);

/*
 * cdm_settings_info_on - is @s set in @in, so that the text formats
 * name it: its value known (cdm_settings_known()) for a setting known
 * when set, else not 0.  Returns 1 or 0; 0 for one held outside @in.
 */
int cdm_settings_info_on(const struct cdm_setting *s, const struct cdm_run_info *in);

/*
 * cdm_settings_info_text - @s's value in @in as the text formats print
 * it, into @buf of @len bytes: a whole number in decimal, a text as it
 * is held, a steady state its most rounds (info.max_rounds).  Returns
 * @buf ("" for one held outside @in, or a type without a text).  A
 * buffer of CDM_SETTINGS_TEXT_MAX bytes holds any setting's.
 */
#define CDM_SETTINGS_TEXT_MAX 256        /* cdm_settings_info_text()'s @buf: any value fits */
char *cdm_settings_info_text(const struct cdm_setting *s, const struct cdm_run_info *in,
			     char *buf, size_t len);

/*
 * cdm_settings_info_same - do @a and @b hold the same value of @s?  A
 * text (types TEXT, CPUS, DEVSPEC) as it is held, a flag (BOOL, STEADY,
 * PRECOND) on or off, and two steady states also their most rounds
 * (info.max_rounds), any other whole number its value.  Whether either
 * states it is the caller's to ask (cdm_settings_info_known()).  Returns
 * 1 or 0; 1 for a setting held outside the info (CDM_HOME_RESULT).
 */
int cdm_settings_info_same(const struct cdm_setting *s, const struct cdm_run_info *a,
			   const struct cdm_run_info *b);

/*
 * cdm_settings_u64 - a whole-number or flag setting's value in @r
 * (types U64, UINT, COUNT, MSEC in ms, BOOL, DATA, STEADY, PRECOND,
 * AGGREGATE); 0 for the others.
 */
uint64_t cdm_settings_u64(const struct cdm_setting *s, const struct cdm_run_result *r);

/*
 * cdm_settings_info_u64 - cdm_settings_u64() from an info alone: 0 for a
 * setting held outside it (CDM_HOME_RESULT).
 */
uint64_t cdm_settings_info_u64(const struct cdm_setting *s, const struct cdm_run_info *in);

/*
 * cdm_settings_set_u64 - store @v as @s's value in @r (the types of
 * cdm_settings_u64(); a 4-byte field keeps @v's low 32 bits: the caller
 * checks the range).  Does nothing for the other types.
 */
void cdm_settings_set_u64(const struct cdm_setting *s, struct cdm_run_result *r, uint64_t v);

/*
 * cdm_settings_info_set_u64 - cdm_settings_set_u64() into an info alone:
 * does nothing for a setting held outside it (CDM_HOME_RESULT).
 */
void cdm_settings_info_set_u64(const struct cdm_setting *s, struct cdm_run_info *in, uint64_t v);

#endif /* CDM_MODEL_SETTINGS_H */
