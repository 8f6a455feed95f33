/* SPDX-License-Identifier: MIT */
/*
 * profile.c - what a run measures: a named set of tests and settings,
 * either compiled in from the files in profiles/ or read from a file the
 * user names.  Strict (a typo is an error, never a silent default); errors
 * are -errno with a one-line reason in the caller's struct cdm_err.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cdm/base/ascii.h"
#include "cdm/base/err.h"
#include "cdm/base/file.h"
#include "cdm/base/msec.h"
#include "cdm/base/size.h"
#include "cdm/base/uint.h"
#include "cdm/plan/profile.h"

/* build/profiles.c, generated from profiles/ by src/plan/embed-profiles.sh */
struct cdm_builtin_profile { const char *name; const char *text; };
extern const struct cdm_builtin_profile cdm_builtin_profiles[];

/*
 * The order users see in messages, help and --list-profiles: CDM 8/9's own
 * menu order and its presets, then the older CDM versions, then the other
 * tools' profiles.  tests/unit/test_profile.c checks that this list and the
 * files in profiles/ stay the same set.
 */
static const char *const builtin_names[] = {
	"default", "peak", "real", "demo", "nvme", "flash",
	"cdm7", "cdm7-peak", "cdm6",
	"sqlio", "orion-simple", "orion-advanced", NULL,
};

/* a profile is a few hundred bytes; anything much larger is the wrong file */
#define PROFILE_FILE_MAX (64u * 1024u)
/* longest value kept for parsing; longer values are reported, not cut */
#define VALUE_MAX 256
/* how much of an unknown key to quote back */
#define KEY_QUOTE_MAX 40

enum key {
	KEY_NAME,
	KEY_SIZE,
	KEY_COUNT,
	KEY_TIME,
	KEY_INTERVAL,
	KEY_WARMUP,
	KEY_MIX,
	KEY_MODE,
	KEY_TEST,
	KEY_NR,
};

static const char *const key_names[KEY_NR] = {
	[KEY_NAME] = "name",
	[KEY_SIZE] = "size",
	[KEY_COUNT] = "count",
	[KEY_TIME] = "time",
	[KEY_INTERVAL] = "interval",
	[KEY_WARMUP] = "warmup",
	[KEY_MIX] = "mix",
	[KEY_MODE] = "mode",
	[KEY_TEST] = "test",
};

static int find_key(const char *key, size_t len)
{
	int i;

	for (i = 0; i < KEY_NR; i++)
		if (strlen(key_names[i]) == len && !memcmp(key_names[i], key, len))
			return i;
	return -1;
}

/* the name is printed on a report line: one line of printable text */
static int name_ok(const char *v)
{
	size_t len = strlen(v);

	if (len < 1 || len >= CDM_NAME_MAX)
		return 0;
	for (; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return 0;
	return 1;
}

/* the ranges and words of cdm_profile_seconds(), by enum cdm_profile_time */
static const struct {
	unsigned int min_ms;            /* the least, but for 0 */
	int zero;                       /* 0 is allowed: none */
	const char *range;
} time_ranges[] = {
	[CDM_PROFILE_TIME] = { CDM_TIME_MIN_MS, 0, "0.1-3600 s" },
	[CDM_PROFILE_INTERVAL] = { 0, 1, "0-3600 s" },
	[CDM_PROFILE_WARMUP] = { CDM_TIME_MIN_MS, 1, "0 = none, or 0.1-3600 s" },
};

int cdm_profile_seconds(enum cdm_profile_time which, const char *name, const char *text,
			unsigned int *ms, struct cdm_err *err)
{
	uint64_t v;
	int r = cdm_msec_parse(text, &v);

	if (r == 0 && (v > CDM_TIME_MAX_MS || (v < time_ranges[which].min_ms &&
						!(v == 0 && time_ranges[which].zero))))
		r = -ERANGE;
	if (r < 0)
		return cdm_err_set(err, r, "bad value for %s: '%s' (%s, such as 0.5, 2, 1500ms)",
				   name, text ? text : "", time_ranges[which].range);
	*ms = (unsigned int)v;
	return 0;
}

/* time, interval, warmup = a time (cdm_profile_seconds()); @where is "FILE:LINE" */
static int set_time(struct cdm_profile *p, int key, const char *value, const char *where,
		    struct cdm_err *err)
{
	enum cdm_profile_time which = key == KEY_TIME ? CDM_PROFILE_TIME :
				      key == KEY_INTERVAL ? CDM_PROFILE_INTERVAL : CDM_PROFILE_WARMUP;
	unsigned int ms;

	if (cdm_profile_seconds(which, key_names[key], value, &ms, err) < 0)
		return cdm_err_prefix(err, -EINVAL, where);
	*(key == KEY_TIME ? &p->time_ms : key == KEY_INTERVAL ? &p->interval_ms :
	  &p->warmup_ms) = (int)ms;
	return 0;
}

/*
 * One "key = value" with @key/@value already trimmed and NUL-terminated.
 * @where is "FILE:LINE" for messages.  Returns 0 or -EINVAL.
 */
static int set_key(struct cdm_profile *p, int key, const char *value,
		   const char *where, struct cdm_err *err)
{
	unsigned long v;
	uint64_t size;

	switch (key) {
	case KEY_NAME:
		if (!name_ok(value))
			return cdm_err_set(err, -EINVAL,
					   "%s: bad value for name: '%s' (1..%d printable characters)",
					   where, value, CDM_NAME_MAX - 1);
		strcpy(p->name, value);
		return 0;
	case KEY_SIZE:
		if (cdm_size_parse(value, &size) || size < CDM_BLOCK_MIN)
			return cdm_err_set(err, -EINVAL,
					   "%s: bad value for size: '%s' (512B or more, e.g. 1GiB)",
					   where, value);
		p->size = size;
		return 0;
	case KEY_COUNT:
		if (cdm_uint_parse(value, 1, CDM_COUNT_MAX, &v))
			return cdm_err_set(err, -EINVAL, "%s: bad value for count: '%s' (1..%u)",
					   where, value, CDM_COUNT_MAX);
		p->count = (unsigned int)v;
		return 0;
	case KEY_TIME:
	case KEY_INTERVAL:
	case KEY_WARMUP:
		return set_time(p, key, value, where, err);
	case KEY_MIX:
		if (cdm_uint_parse(value, CDM_MIX_MIN, CDM_MIX_MAX, &v))
			return cdm_err_set(err, -EINVAL,
					   "%s: bad value for mix: '%s' (read percent, %u..%u)",
					   where, value, CDM_MIX_MIN, CDM_MIX_MAX);
		p->mix = (unsigned int)v;
		return 0;
	case KEY_MODE:
		/* --mode's values: ORION's simple run reads only */
		if (strcmp(value, "all") && strcmp(value, "read") && strcmp(value, "write") &&
		    strcmp(value, "mix"))
			return cdm_err_set(err, -EINVAL,
					   "%s: bad value for mode: '%s' (all, read, write, mix)",
					   where, value);
		strcpy(p->mode, value);
		return 0;
	case KEY_TEST:
		if (p->ntests >= CDM_MAX_TESTS)
			return cdm_err_set(err, -EINVAL, "%s: too many tests (at most %d)",
					   where, CDM_MAX_TESTS);
		if (cdm_spec_parse(value, &p->tests[p->ntests], err))
			return cdm_err_prefix(err, -EINVAL, where);
		p->ntests++;
		return 0;
	}
	return -EINVAL;
}

/*
 * One line of a profile, @line to @end without its newline, into @prof;
 * @where names it in errors ("file:line"), @seen holds the keys already
 * given.  Returns 0 (a blank or comment line too) or -EINVAL.
 */
static int parse_line(struct cdm_profile *prof, const char *line, const char *end,
		      const char *where, unsigned int *seen, struct cdm_err *err)
{
	const char *hash, *eq, *k, *ke, *v;
	char value[VALUE_MAX];
	int key;

	/* '#' starts a comment wherever it is: values never contain one */
	hash = memchr(line, '#', (size_t)(end - line));
	if (hash)
		end = hash;
	k = cdm_ascii_skip_space(line);
	while (end > k && cdm_ascii_is_space(end[-1]))
		end--;
	if (k == end)
		return 0;

	eq = memchr(k, '=', (size_t)(end - k));
	if (!eq)
		return cdm_err_set(err, -EINVAL, "%s: missing '='", where);
	ke = eq;
	while (ke > k && cdm_ascii_is_space(ke[-1]))
		ke--;
	if (ke == k)
		return cdm_err_set(err, -EINVAL, "%s: missing key before '='", where);
	key = find_key(k, (size_t)(ke - k));
	if (key < 0) {
		int n = (int)(ke - k);

		return cdm_err_set(err, -EINVAL, "%s: unknown key '%.*s%s'", where,
				   n > KEY_QUOTE_MAX ? KEY_QUOTE_MAX : n, k,
				   n > KEY_QUOTE_MAX ? "..." : "");
	}
	if (key != KEY_TEST && (*seen & (1u << key)))
		return cdm_err_set(err, -EINVAL, "%s: duplicate key '%s'", where, key_names[key]);
	*seen |= 1u << key;

	v = cdm_ascii_skip_space(eq + 1);
	if (v > end)
		v = end;
	if ((size_t)(end - v) >= sizeof(value))
		return cdm_err_set(err, -EINVAL, "%s: value for %s too long (at most %d characters)",
				   where, key_names[key], VALUE_MAX - 1);
	memcpy(value, v, (size_t)(end - v));
	value[end - v] = '\0';
	return set_key(prof, key, value, where, err);
}

int cdm_profile_parse(const char *text, const char *file, struct cdm_profile *p,
		      struct cdm_err *err)
{
	struct cdm_profile prof;
	const char *line = text;
	unsigned int lineno = 0, seen = 0;
	char where[256];
	int ret;

	/* the "not set" values of profile.h, so options can be layered on top */
	memset(&prof, 0, sizeof(prof));
	prof.time_ms = -1;
	prof.interval_ms = -1;
	prof.warmup_ms = -1;

	/* a UTF-8 byte order mark, as some Windows editors write one */
	if (!strncmp(line, "\xef\xbb\xbf", 3))
		line += 3;

	while (*line) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		lineno++;
		snprintf(where, sizeof(where), "%s:%u", file, lineno);
		ret = parse_line(&prof, line, end, where, &seen, err);
		if (ret)
			return ret;
		line = *end ? end + 1 : end;
	}

	if (!prof.ntests)
		return cdm_err_set(err, -EINVAL, "%s: no tests", file);
	*p = prof;
	return 0;
}

const char *cdm_profile_builtin(const char *name)
{
	const struct cdm_builtin_profile *b;

	if (!name)
		return NULL;
	for (b = cdm_builtin_profiles; b->name; b++)
		if (!strcasecmp(b->name, name))
			return b->text;
	return NULL;
}

unsigned int cdm_profile_warmup(const struct cdm_profile *p, unsigned int time_ms)
{
	return p->warmup_ms >= 0 ? (unsigned int)p->warmup_ms : time_ms;
}

unsigned int cdm_profile_mix(const struct cdm_profile *p, const char *mode)
{
	return p->mix ? p->mix : !strcmp(mode, "mix") ? 70 : 0;
}

const char *const *cdm_profile_builtin_names(void)
{
	return builtin_names;
}

char *cdm_profile_builtin_about(const char *name, char *buf, size_t len)
{
	const char *text = cdm_profile_builtin(name), *what, *end;
	size_t n = strlen(name), w;

	/* "# NAME.cdm - WHAT.\n": the head line every file in profiles/ has */
	if (!text || strncmp(text, "# ", 2) || strncasecmp(text + 2, name, n) ||
	    strncmp(text + 2 + n, ".cdm - ", 7) || !len)
		return NULL;
	what = text + 2 + n + 7;
	end = strchr(what, '\n');
	if (!end)
		end = what + strlen(what);
	if (end > what && end[-1] == '.')
		end--;
	if (end == what)
		return NULL;
	w = (size_t)(end - what) < len - 1 ? (size_t)(end - what) : len - 1;
	memcpy(buf, what, w);
	buf[w] = '\0';
	return buf;
}

/*
 * Read @path whole into a new NUL-terminated buffer (*@out, for free()).
 * Returns 0 or -errno with "PATH: reason" in @err.
 */
static int read_text(const char *path, char **out, struct cdm_err *err)
{
	size_t n;
	int ret = cdm_file_read_all(path, PROFILE_FILE_MAX, out, &n, err);

	if (ret == -EFBIG)
		return cdm_err_set(err, ret, "%s: larger than %u KiB, not a profile",
				   path, PROFILE_FILE_MAX / 1024);
	if (ret)
		return cdm_err_set(err, ret, "%s: %s", path, strerror(-ret));
	/* the parser sees a C string: a NUL would silently end the file */
	if (memchr(*out, '\0', n)) {
		free(*out);
		*out = NULL;
		return cdm_err_set(err, -EINVAL, "%s: contains a NUL byte, not a profile", path);
	}
	return 0;
}

int cdm_profile_load(const char *name_or_path, struct cdm_profile *p,
		     struct cdm_err *err)
{
	const char *text;
	char *buf = NULL;
	int ret;

	/* a built-in wins over a same-named file unless a path is spelt out */
	if (!strchr(name_or_path, '/')) {
		text = cdm_profile_builtin(name_or_path);
		if (text) {
			char file[CDM_NAME_MAX + 8];

			snprintf(file, sizeof(file), "%s.cdm", name_or_path);
			return cdm_profile_parse(text, file, p, err);
		}
	}

	ret = read_text(name_or_path, &buf, err);
	if (ret == -ENOENT && !strchr(name_or_path, '/')) {
		char list[256] = "";
		const char *const *n;

		for (n = builtin_names; *n; n++) {
			if (n != builtin_names)
				strncat(list, ", ", sizeof(list) - strlen(list) - 1);
			strncat(list, *n, sizeof(list) - strlen(list) - 1);
		}
		return cdm_err_set(err, -ENOENT, "unknown profile '%s' (built-in: %s)",
				   name_or_path, list);
	}
	if (ret)
		return ret;
	ret = cdm_profile_parse(buf, name_or_path, p, err);
	free(buf);
	return ret;
}
