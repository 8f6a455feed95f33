/* SPDX-License-Identifier: MIT */
/*
 * profile.h - profiles: a named set of tests (model/spec.h) and settings,
 * built in or from a file.
 *
 * Profile files: one `key = value` per line, '#' comments, `test` repeated
 * in run order; keys name, size, count, time, interval, warmup, mix, mode,
 * test.  See docs/profile-format.md; docs/profiles.md has the built-ins.  The files in profiles/ are compiled into the
 * binary (one source of truth).
 */
#ifndef CDM_PLAN_PROFILE_H
#define CDM_PLAN_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/base/size.h"
#include "cdm/model/spec.h"

struct cdm_err;

struct cdm_profile {
	char name[CDM_NAME_MAX];        /* printed on the Profile: line */
	uint64_t size;                  /* bytes; 0 = not set */
	unsigned int count;             /* 0 = not set */
	int time_ms;                    /* ms per pass; -1 = not set */
	int interval_ms;                /* ms between tests; -1 = not set */
	int warmup_ms;                  /* ms of warm-up; -1 = not set (same as time) */
	unsigned int mix;               /* Mix read percent (CDM_MIX_MIN..MAX); 0 = not set */
	char mode[8];                   /* "all", "read", "write" or "mix", as --mode; "" = not set */
	unsigned int ntests;
	struct cdm_spec tests[CDM_MAX_TESTS];
};

/*
 * What a run takes for a setting neither its profile nor the command line
 * gives (docs/profile-format.md's table): CDM's own defaults, a 1 GiB
 * test file, 5 passes of 5 s, 5 s between tests, every test read, written
 * and (with a share) mixed.
 */
#define CDM_PROFILE_SIZE_DEFAULT CDM_GIB        /* bytes */
#define CDM_PROFILE_COUNT_DEFAULT 5
#define CDM_PROFILE_TIME_DEFAULT_MS 5000u       /* ms */
#define CDM_PROFILE_INTERVAL_DEFAULT_MS 5000u   /* ms */
#define CDM_PROFILE_MODE_DEFAULT "all"

/*
 * cdm_profile_warmup - the warm-up of a run of @p whose passes last
 * @time_ms: @p's warmup when set, else one pass's length (CDM warms up as
 * long as it measures).  Returns ms.
 */
unsigned int cdm_profile_warmup(const struct cdm_profile *p, unsigned int time_ms);

/* the settings that are times, each with its range (cdm_profile_seconds()) */
enum cdm_profile_time {
	CDM_PROFILE_TIME,               /* time, --time: a pass, 0.1-3600 s */
	CDM_PROFILE_INTERVAL,           /* interval, --interval: a pause, 0-3600 s */
	CDM_PROFILE_WARMUP,             /* warmup, --warmup: 0 (none) or 0.1-3600 s */
};

/*
 * cdm_profile_seconds - @text as the time of setting @which, into *@ms:
 * the grammar of base/msec.h ("2", "0.5", "1.5s", "500ms"; a bare number
 * is seconds) and the setting's range, the one place of both for the
 * command line (cdm's and cdm sweep's --time, --interval, --warmup) and
 * profile files.  The range: a pass (CDM_PROFILE_TIME) CDM_TIME_MIN_MS
 * to CDM_TIME_MAX_MS, as shorter ones measure thread start and stop more
 * than the disk; a warm-up 0 or the same; an interval 0 to
 * CDM_TIME_MAX_MS.  Returns 0, or -EINVAL (not a time) or -ERANGE (out of
 * range) with one line in @err naming the setting as @name ("--time",
 * "time"), the text and the range: "bad value for --time: '0.05' (0.1-3600
 * s, such as 0.5, 2, 1500ms)".
 */
int cdm_profile_seconds(enum cdm_profile_time which, const char *name, const char *text,
			unsigned int *ms, struct cdm_err *err);

/*
 * cdm_profile_mix - the Mix read share of a run of @p in mode @mode ("all",
 * "read", "write", "mix"): @p's mix when set, else CDM's R70/W30 (70) when
 * @mode is "mix" (a Mix section asked for without a share), else 0: no
 * Mix section.  Returns a percentage.
 */
unsigned int cdm_profile_mix(const struct cdm_profile *p, const char *mode);

/*
 * cdm_profile_parse - parse profile text.
 * @text: the file's contents (NUL-terminated); @file: the name used in
 * errors ("peak.cdm").  On failure @err gets "FILE:LINE: reason", e.g.
 * "peak.cdm:4: unknown key 'szie'".  Unknown keys, duplicate keys (other
 * than test), malformed values and a profile without tests are errors.
 * Returns 0 or -EINVAL.
 */
int cdm_profile_parse(const char *text, const char *file, struct cdm_profile *p,
		      struct cdm_err *err);

/*
 * cdm_profile_load - a built-in profile by name (cdm_profile_builtin_names():
 * default, peak, ..., orion-advanced), or, when @name_or_path contains '/' or names no built-in, a file.
 * Returns 0, -ENOENT (no such built-in and no such file: @err says so and
 * lists the built-ins), -EINVAL (parse error, in @err), or another -errno
 * from reading the file (in @err, with the path).
 */
int cdm_profile_load(const char *name_or_path, struct cdm_profile *p,
		     struct cdm_err *err);

/*
 * cdm_profile_builtin - the text of built-in profile @name, compiled in from
 * profiles/<name>.cdm, or NULL.  cdm_profile_builtin_names: NULL-terminated
 * list of their names, in a fixed order.  Both static.
 */
const char *cdm_profile_builtin(const char *name);
const char *const *cdm_profile_builtin_names(void);

/*
 * cdm_profile_builtin_about - what built-in profile @name imitates, from
 * the first line of its file, "# NAME.cdm - WHAT." (WHAT without the full
 * stop, e.g. "CrystalDiskMark 7 \"Peak\" profile"), for --list-profiles.
 * Copies at most @len bytes including the NUL into @buf and returns @buf;
 * returns NULL when there is no such built-in or its first line is not of
 * that form (tests/unit/test_profile.c checks every built-in has one).
 */
char *cdm_profile_builtin_about(const char *name, char *buf, size_t len);

#endif /* CDM_PLAN_PROFILE_H */
