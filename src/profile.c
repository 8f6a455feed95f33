/* SPDX-License-Identifier: MIT */
/*
 * profile.c - what a run measures: test specs ("RND4K Q32T16"), sizes
 * ("1GiB"), small whole numbers, and profiles, either compiled in from the
 * files in profiles/ or read from a file the user names.  Everything here is
 * strict (a typo is an error, never a silent default), reports errors as
 * -errno with a one-line reason in the caller's buffer, and avoids the C
 * library's locale-dependent number parsing: the input is ASCII by design.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cdm/profile.h"

/* build/profiles.c, generated from profiles/ by src/embed-profiles.sh */
struct cdm_builtin_profile { const char *name; const char *text; };
extern const struct cdm_builtin_profile cdm_builtin_profiles[];

/*
 * The order users see in messages and help: CDM's own menu order, then the
 * preset.  tests/unit/test_profile.c checks that this list and the files in
 * profiles/ stay the same set.
 */
static const char *const builtin_names[] = {
	"default", "peak", "real", "demo", "nvme", NULL,
};

/* a profile is a few hundred bytes; anything much larger is the wrong file */
#define PROFILE_FILE_MAX (64u * 1024u)
/* longest value kept for parsing; longer values are reported, not cut */
#define VALUE_MAX 256
/* how much of an unknown key to quote back */
#define KEY_QUOTE_MAX 40

static void seterr(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

/* isspace() depends on the locale; profile files and specs are ASCII */
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char to_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static const char *skip_space(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

/*
 * Digits at *@sp into *@val, moving *@sp past every digit.  Returns 1 when
 * the number is above @cap: *@val is then @cap + 1 (or UINT64_MAX when @cap
 * is UINT64_MAX), so a caller's range check reports the limit instead of a
 * confusing "junk" error.  Returns 0 otherwise.
 */
static int scan_digits(const char **sp, uint64_t cap, uint64_t *val)
{
	const char *s = *sp;
	uint64_t v = 0;
	int over = 0;

	for (; is_digit(*s); s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (!over && v <= (cap - d) / 10)
			v = v * 10 + d;
		else
			over = 1;
	}
	if (over)
		v = cap == UINT64_MAX ? cap : cap + 1;
	*val = v;
	*sp = s;
	return over;
}

int cdm_uint_parse(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out)
{
	const char *p = s;
	uint64_t v;

	if (!s || !is_digit(*s))
		return -EINVAL;
	if (scan_digits(&p, UINT64_MAX, &v)) {
		if (*p)
			return -EINVAL;
		return -ERANGE;
	}
	if (*p)
		return -EINVAL;
	if (v > (uint64_t)max || v < (uint64_t)min)
		return -ERANGE;
	*out = (unsigned long)v;
	return 0;
}

int cdm_size_parse(const char *s, uint64_t *bytes)
{
	const char *p = s;
	uint64_t v, mult = 1;
	int overflow;

	if (!s || !is_digit(*s))
		return -EINVAL;
	overflow = scan_digits(&p, UINT64_MAX, &v);
	/*
	 * A space before the unit is allowed so that cdm_size_format()'s
	 * "1 GiB" reads back; a space with no unit after it is junk.
	 */
	if (is_space(*p)) {
		p = skip_space(p);
		if (!*p)
			return -EINVAL;
	}
	if (*p) {
		/* only the unit letter is case-insensitive: "1Gb" could be bits */
		const char *units = "KMGT";
		const char *u = strchr(units, to_upper(*p));
		unsigned int i;

		if (*p == 'B') {
			p++;
		} else if (u && *u) {
			unsigned int power = (unsigned int)(u - units) + 1;
			uint64_t base = 1024;

			p++;
			if (p[0] == 'i' && p[1] == 'B')
				p += 2;
			else if (p[0] == 'B') {
				base = 1000;
				p++;
			}
			for (i = 0; i < power; i++)
				mult *= base;
		} else {
			return -EINVAL;
		}
		if (*p)
			return -EINVAL;
	}
	if (overflow)
		return -ERANGE;
	if (v == 0)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*bytes = v * mult;
	return 0;
}

char *cdm_size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) &&
	       bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	if (len)
		snprintf(buf, len, "%llu %s", (unsigned long long)bytes, units[i]);
	return buf;
}

static const char *pattern_str(enum cdm_pattern pattern)
{
	return pattern == CDM_RND ? "RND" : "SEQ";
}

char *cdm_spec_label(const struct cdm_spec *spec, char *buf, size_t len)
{
	unsigned long long b = (unsigned long long)spec->block;
	const char *unit = "B";

	if (b && b % (1024 * 1024) == 0) {
		b /= 1024 * 1024;
		unit = "MiB";
	} else if (b && b % 1024 == 0) {
		b /= 1024;
		unit = "KiB";
	}
	/*
	 * CDM never has blocks under 4 KiB; a size that is not a whole KiB
	 * prints in bytes, padded to the same 7 columns as "   4KiB" so the
	 * "(Q=" column stays aligned.
	 */
	if (len)
		snprintf(buf, len, "%s %*llu%s", pattern_str(spec->pattern),
			 unit[0] == 'B' ? 6 : 4, b, unit);
	return buf;
}

char *cdm_spec_name(const struct cdm_spec *spec, char *buf, size_t len)
{
	unsigned long long b = (unsigned long long)spec->block;
	char unit = 'B';

	if (b && b % (1024 * 1024) == 0) {
		b /= 1024 * 1024;
		unit = 'M';
	} else if (b && b % 1024 == 0) {
		b /= 1024;
		unit = 'K';
	}
	if (len && spec->write_pct)
		snprintf(buf, len, "%s%llu%c Q%uT%u W%u", pattern_str(spec->pattern),
			 b, unit, spec->qd, spec->threads, spec->write_pct);
	else if (len)
		snprintf(buf, len, "%s%llu%c Q%uT%u", pattern_str(spec->pattern),
			 b, unit, spec->qd, spec->threads);
	return buf;
}

/* does @s start with @word, ignoring case?  (specs are case-insensitive) */
static int starts_with_ci(const char *s, const char *word)
{
	for (; *word; s++, word++)
		if (to_upper(*s) != *word)
			return 0;
	return 1;
}

/*
 * "Q<n>" or "T<n>" at *@sp, spaces allowed after the letter.  Returns 1 when
 * the letter is there (with *@val set; a missing number leaves 0, which the
 * caller rejects as out of range), 0 when it is not.
 */
static int scan_param(const char **sp, char letter, uint64_t cap, uint64_t *val)
{
	const char *s = *sp;

	if (to_upper(*s) != letter)
		return 0;
	s = skip_space(s + 1);
	*val = 0;
	scan_digits(&s, cap, val);
	*sp = skip_space(s);
	return 1;
}

int cdm_spec_parse(const char *s, struct cdm_spec *spec, char *err, size_t err_len)
{
	struct cdm_spec sp = { .qd = 1, .threads = 1 };
	const char *p;
	uint64_t n, mult, qd = 1, threads = 1, wpct = 0;
	int has_qd, has_t;

	if (!s)
		s = "";
	p = skip_space(s);
	if (!*p) {
		seterr(err, err_len, "bad test spec '%s': empty", s);
		return -EINVAL;
	}

	if (starts_with_ci(p, "SEQ")) {
		sp.pattern = CDM_SEQ;
	} else if (starts_with_ci(p, "RND")) {
		sp.pattern = CDM_RND;
	} else {
		seterr(err, err_len, "bad test spec '%s': pattern must be SEQ or RND", s);
		return -EINVAL;
	}
	p = skip_space(p + 3);

	if (!is_digit(*p)) {
		seterr(err, err_len, "bad test spec '%s': missing block size (e.g. 4K, 1M)", s);
		return -EINVAL;
	}
	scan_digits(&p, CDM_BLOCK_MAX, &n);
	p = skip_space(p);
	switch (to_upper(*p)) {
	case 'B':
		mult = 1;
		p++;
		break;
	case 'K':
		mult = 1024;
		p++;
		break;
	case 'M':
		mult = 1024 * 1024;
		p++;
		break;
	default:
		seterr(err, err_len, "bad test spec '%s': block size needs a unit (B, K or M)", s);
		return -EINVAL;
	}
	/* "4KiB" as printed in CDM's labels is accepted too */
	if (mult > 1 && to_upper(p[0]) == 'I' && to_upper(p[1]) == 'B')
		p += 2;
	p = skip_space(p);
	if (n == 0 || n > CDM_BLOCK_MAX / mult || n * mult < CDM_BLOCK_MIN ||
	    n * mult % 512) {
		seterr(err, err_len,
		       "bad test spec '%s': block size must be 512B..64M, a multiple of 512", s);
		return -EINVAL;
	}
	sp.block = n * mult;

	has_qd = scan_param(&p, 'Q', CDM_QD_MAX, &qd);
	if (has_qd && (qd < 1 || qd > CDM_QD_MAX)) {
		seterr(err, err_len, "bad test spec '%s': queue depth must be 1..%u",
		       s, CDM_QD_MAX);
		return -EINVAL;
	}
	has_t = scan_param(&p, 'T', CDM_THREADS_MAX, &threads);
	if (has_t && (threads < 1 || threads > CDM_THREADS_MAX)) {
		seterr(err, err_len, "bad test spec '%s': threads must be 1..%u",
		       s, CDM_THREADS_MAX);
		return -EINVAL;
	}
	/* ORION's write share: W0 and W100 are the plain read and write tests */
	if (scan_param(&p, 'W', 100, &wpct) && (wpct < CDM_MIX_MIN || wpct > CDM_MIX_MAX)) {
		seterr(err, err_len,
		       "bad test spec '%s': write percentage must be W%u..W%u (W0 and W100 are the plain read and write tests)",
		       s, CDM_MIX_MIN, CDM_MIX_MAX);
		return -EINVAL;
	}
	if (*p) {
		/* "T4Q8" is CDM's order turned round, not random junk */
		if ((to_upper(*p) == 'Q' || to_upper(*p) == 'T') && wpct)
			seterr(err, err_len, "bad test spec '%s': W must come after Q and T", s);
		else if (to_upper(*p) == 'Q' && !has_qd)
			seterr(err, err_len, "bad test spec '%s': Q must come before T", s);
		else
			seterr(err, err_len, "bad test spec '%s': unexpected '%s'", s, p);
		return -EINVAL;
	}
	sp.qd = (unsigned int)qd;
	sp.threads = (unsigned int)threads;
	sp.write_pct = (unsigned int)wpct;
	*spec = sp;
	return 0;
}

enum key {
	KEY_NAME,
	KEY_SIZE,
	KEY_COUNT,
	KEY_TIME,
	KEY_INTERVAL,
	KEY_WARMUP,
	KEY_MIX,
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

/*
 * One "key = value" with @key/@value already trimmed and NUL-terminated.
 * @where is "FILE:LINE" for messages.  Returns 0 or -EINVAL.
 */
static int set_key(struct cdm_profile *p, int key, const char *value,
		   const char *where, char *err, size_t err_len)
{
	char why[256];
	unsigned long v;
	uint64_t size;

	switch (key) {
	case KEY_NAME:
		if (!name_ok(value)) {
			seterr(err, err_len,
			       "%s: bad value for name: '%s' (1..%d printable characters)",
			       where, value, CDM_NAME_MAX - 1);
			return -EINVAL;
		}
		strcpy(p->name, value);
		return 0;
	case KEY_SIZE:
		if (cdm_size_parse(value, &size) || size < CDM_BLOCK_MIN) {
			seterr(err, err_len,
			       "%s: bad value for size: '%s' (512B or more, e.g. 1GiB)",
			       where, value);
			return -EINVAL;
		}
		p->size = size;
		return 0;
	case KEY_COUNT:
		if (cdm_uint_parse(value, 1, CDM_COUNT_MAX, &v)) {
			seterr(err, err_len, "%s: bad value for count: '%s' (1..%u)",
			       where, value, CDM_COUNT_MAX);
			return -EINVAL;
		}
		p->count = (unsigned int)v;
		return 0;
	case KEY_TIME:
		if (cdm_uint_parse(value, 1, CDM_TIME_MAX, &v)) {
			seterr(err, err_len, "%s: bad value for time: '%s' (1..%u seconds)",
			       where, value, CDM_TIME_MAX);
			return -EINVAL;
		}
		p->time = (unsigned int)v;
		return 0;
	case KEY_INTERVAL:
	case KEY_WARMUP:
		if (cdm_uint_parse(value, 0, CDM_TIME_MAX, &v)) {
			seterr(err, err_len, "%s: bad value for %s: '%s' (0..%u seconds)",
			       where, key_names[key], value, CDM_TIME_MAX);
			return -EINVAL;
		}
		if (key == KEY_INTERVAL)
			p->interval = (int)v;
		else
			p->warmup = (int)v;
		return 0;
	case KEY_MIX:
		if (cdm_uint_parse(value, CDM_MIX_MIN, CDM_MIX_MAX, &v)) {
			seterr(err, err_len,
			       "%s: bad value for mix: '%s' (read percent, %u..%u)",
			       where, value, CDM_MIX_MIN, CDM_MIX_MAX);
			return -EINVAL;
		}
		p->mix = (unsigned int)v;
		return 0;
	case KEY_TEST:
		if (p->ntests >= CDM_MAX_TESTS) {
			seterr(err, err_len, "%s: too many tests (at most %d)",
			       where, CDM_MAX_TESTS);
			return -EINVAL;
		}
		if (cdm_spec_parse(value, &p->tests[p->ntests], why, sizeof(why))) {
			seterr(err, err_len, "%s: %s", where, why);
			return -EINVAL;
		}
		p->ntests++;
		return 0;
	}
	return -EINVAL;
}

int cdm_profile_parse(const char *text, const char *file, struct cdm_profile *p,
		      char *err, size_t err_len)
{
	struct cdm_profile prof;
	const char *line = text;
	unsigned int lineno = 0, seen = 0;
	char where[256];
	int ret;

	/* the "not set" values of profile.h, so options can be layered on top */
	memset(&prof, 0, sizeof(prof));
	prof.interval = -1;
	prof.warmup = -1;

	/* a UTF-8 byte order mark, as some Windows editors write one */
	if (!strncmp(line, "\xef\xbb\xbf", 3))
		line += 3;

	while (*line) {
		const char *end = strchr(line, '\n');
		const char *next, *hash, *eq, *k, *ke, *v, *ve;
		char value[VALUE_MAX];
		int key;

		if (!end)
			end = line + strlen(line);
		next = *end ? end + 1 : end;
		lineno++;
		snprintf(where, sizeof(where), "%s:%u", file, lineno);

		/* '#' starts a comment wherever it is: values never contain one */
		hash = memchr(line, '#', (size_t)(end - line));
		if (hash)
			end = hash;
		k = skip_space(line);
		while (end > k && is_space(end[-1]))
			end--;
		if (k == end) {
			line = next;
			continue;
		}

		eq = memchr(k, '=', (size_t)(end - k));
		if (!eq) {
			seterr(err, err_len, "%s: missing '='", where);
			return -EINVAL;
		}
		ke = eq;
		while (ke > k && is_space(ke[-1]))
			ke--;
		if (ke == k) {
			seterr(err, err_len, "%s: missing key before '='", where);
			return -EINVAL;
		}
		key = find_key(k, (size_t)(ke - k));
		if (key < 0) {
			int n = (int)(ke - k);

			seterr(err, err_len, "%s: unknown key '%.*s%s'", where,
			       n > KEY_QUOTE_MAX ? KEY_QUOTE_MAX : n, k,
			       n > KEY_QUOTE_MAX ? "..." : "");
			return -EINVAL;
		}
		if (key != KEY_TEST && (seen & (1u << key))) {
			seterr(err, err_len, "%s: duplicate key '%s'", where, key_names[key]);
			return -EINVAL;
		}
		seen |= 1u << key;

		v = skip_space(eq + 1);
		ve = end;
		if (v > ve)
			v = ve;
		if ((size_t)(ve - v) >= sizeof(value)) {
			seterr(err, err_len, "%s: value for %s too long (at most %d characters)",
			       where, key_names[key], VALUE_MAX - 1);
			return -EINVAL;
		}
		memcpy(value, v, (size_t)(ve - v));
		value[ve - v] = '\0';

		ret = set_key(&prof, key, value, where, err, err_len);
		if (ret)
			return ret;
		line = next;
	}

	if (!prof.ntests) {
		seterr(err, err_len, "%s: no tests", file);
		return -EINVAL;
	}
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

const char *const *cdm_profile_builtin_names(void)
{
	return builtin_names;
}

/*
 * Read @path whole into a new NUL-terminated buffer (*@out, for free()).
 * Returns 0 or -errno with "PATH: reason" in @err.
 */
static int read_text(const char *path, char **out, char *err, size_t err_len)
{
	FILE *f;
	char *buf;
	size_t n;
	int ret = 0;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		seterr(err, err_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	/* one byte more than allowed, to tell "exactly 64 KiB" from "more" */
	buf = malloc(PROFILE_FILE_MAX + 2);
	if (!buf) {
		ret = -ENOMEM;
		seterr(err, err_len, "%s: %s", path, strerror(ENOMEM));
		goto out;
	}
	errno = 0;
	n = fread(buf, 1, PROFILE_FILE_MAX + 1, f);
	if (ferror(f)) {
		/* a directory opens fine and fails here with EISDIR */
		ret = errno ? -errno : -EIO;
		seterr(err, err_len, "%s: %s", path, strerror(-ret));
		goto out;
	}
	if (n > PROFILE_FILE_MAX) {
		ret = -EFBIG;
		seterr(err, err_len, "%s: larger than %u KiB, not a profile",
		       path, PROFILE_FILE_MAX / 1024);
		goto out;
	}
	/* the parser sees a C string: a NUL would silently end the file */
	if (memchr(buf, '\0', n)) {
		ret = -EINVAL;
		seterr(err, err_len, "%s: contains a NUL byte, not a profile", path);
		goto out;
	}
	buf[n] = '\0';
out:
	if (fclose(f) && !ret) {
		ret = -errno;
		seterr(err, err_len, "%s: %s", path, strerror(-ret));
	}
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	return 0;
}

int cdm_profile_load(const char *name_or_path, struct cdm_profile *p,
		     char *err, size_t err_len)
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
			return cdm_profile_parse(text, file, p, err, err_len);
		}
	}

	ret = read_text(name_or_path, &buf, err, err_len);
	if (ret == -ENOENT && !strchr(name_or_path, '/')) {
		char list[128] = "";
		const char *const *n;

		for (n = builtin_names; *n; n++) {
			if (n != builtin_names)
				strncat(list, ", ", sizeof(list) - strlen(list) - 1);
			strncat(list, *n, sizeof(list) - strlen(list) - 1);
		}
		seterr(err, err_len, "unknown profile '%s' (built-in: %s)",
		       name_or_path, list);
		return -ENOENT;
	}
	if (ret)
		return ret;
	ret = cdm_profile_parse(buf, name_or_path, p, err, err_len);
	free(buf);
	return ret;
}
