/* SPDX-License-Identifier: MIT */
/*
 * cdm_footer.c - the footer of a CrystalDiskMark text (Profile, Test, Mode, Time,
 * Date, OS, Comment, NUMA) and the marks of its Test and Mode lines, in
 * CDM's layouts and cdm's own (src/format/cdm_rd.h)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/date.h"
#include "cdm/base/devspec.h"
#include "cdm/base/msec.h"
#include "cdm/base/size.h"
#include "cdm/model/settings.h"
#include "cdm/model/spec.h"
#include "cdm_rd.h"

/*
 * "G: 0% (0/1863GiB)", "I: 11.7% (14.0/119.2 GiB)": the drive and its
 * use.  cdm's text names a mount point there, "/mnt/x: 6% (16/252GiB)",
 * "/dev/sdb: block device, ...", or "/tmp/x" alone, and "unknown" when
 * its run does not state it.
 */
static void volume(struct rd *rd, const char *s, size_t n)
{
	struct cdm_run_info *in = &rd->info;
	const char *p = in->source.volume, *colon, *c;
	double pct, used, total;
	uint64_t unit;

	if (rd->by != BY_CDM && n == 7 && !strncmp(s, "unknown", 7))
		return;
	snprintf(in->source.volume, sizeof(in->source.volume), "%.*s", (int)n, s);
	colon = strchr(p, ':');
	if (rd->by != BY_CDM) {
		/* a mount point may hold a ':'; its text ends at the last ": " */
		for (colon = NULL, c = strstr(p, ": "); c; c = strstr(c + 1, ": "))
			colon = c;
		snprintf(in->target, sizeof(in->target), "%.*s",
			 (int)(colon ? (size_t)(colon - p) : strlen(p)), p);
	} else if (colon && colon != p) {
		snprintf(in->target, sizeof(in->target), "%.*s", (int)(colon + 1 - p), p);
	}
	snprintf(in->mount_point, sizeof(in->mount_point), "%s", in->target);
	if (!colon || colon == p)
		return;
	p = colon + 1;
	if (!cdm_cdm_lex_number(&p, &pct) || !cdm_cdm_lex_lit(&p, "%") || !cdm_cdm_lex_lit(&p, "(") || !cdm_cdm_lex_number(&p, &used) ||
	    !cdm_cdm_lex_lit(&p, "/") || !cdm_cdm_lex_number(&p, &total))
		return;
	unit = cdm_cdm_lex_lit(&p, "GiB") ? CDM_GIB : cdm_cdm_lex_lit(&p, "MiB") ? CDM_MIB : 0;
	if (!unit || !cdm_cdm_lex_lit(&p, ")") || !cdm_cdm_lex_at_end(p) || used > total || total > 1e9)
		return;
	in->fs_total_bytes = (uint64_t)(total * (double)unit + 0.5);
	in->fs_used_bytes = (uint64_t)(used * (double)unit + 0.5);
	in->fs_avail_bytes = in->fs_total_bytes - in->fs_used_bytes;
}

/* a mark in <> or [] this reader does not know (a later CDM's): skipped */
static int other_mark(const char **pp)
{
	const char *p = *pp, *e;

	cdm_cdm_lex_blanks(&p);
	if (*p != '<' && *p != '[')
		return 0;
	e = strchr(p, *p == '<' ? '>' : ']');
	if (!e)
		return 0;
	*pp = e + 1;
	return 1;
}

/*
 * "5 sec" of a Measure or an Interval, or "unknown" (*@has = 0), into
 * *@ms; range-checked against @min_ms..@max_ms.  cdm's own text prints a
 * fraction of a second as its decimals, "0.5 sec" (base/msec.h); a
 * CrystalDiskMark product line over it cannot: CDM's settings are whole
 * seconds, so a fraction there is refused.
 */
static int seconds(struct rd *rd, const char **p, const char *what, unsigned int min_ms,
		   unsigned int max_ms, unsigned int *ms, int *has)
{
	const char *q = *p;
	char num[32], lo[CDM_MSEC_FORMAT_MAX], hi[CDM_MSEC_FORMAT_MAX];
	uint64_t v;
	size_t n;
	int r;

	if (cdm_cdm_lex_unknown(p)) {
		*has = 0;
		return 1;
	}
	cdm_cdm_lex_blanks(&q);
	n = strspn(q, "0123456789.");
	if (!n || n >= sizeof(num))
		return 0;
	memcpy(num, q, n);
	num[n] = '\0';
	r = cdm_msec_parse(num, &v);
	if (r == -EINVAL)
		return 0;
	q += n;
	if (!cdm_cdm_lex_lit(&q, "sec"))
		return 0;
	if (r == 0 && v % 1000 && rd->by == BY_CDM && rd->info.source.product[0]) {
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %s %s sec: CrystalDiskMark prints whole seconds",
				      rd->line, what, num);
		return 0;
	}
	if (r < 0 || v < min_ms || v > max_ms) {
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %s %s sec is outside %s..%s sec",
				      rd->line, what, num, cdm_msec_format(min_ms, lo, sizeof(lo)),
				      cdm_msec_format(max_ms, hi, sizeof(hi)));
		return 0;
	}
	*p = q;
	*ms = (unsigned int)v;
	*has = 1;
	return 1;
}

/* a mark that cannot be: -EINVAL in rd->bad naming the line and the mark at @m; returns 0 */
static int mark_bad(struct rd *rd, const char *m, const char *why)
{
	const char *e = strchr(m, '>');
	int n = e ? (int)(e - m) + 1 : (int)strlen(m);

	rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: %.*s: %s", rd->line, n > 40 ? 40 : n, m,
			      why);
	return 0;
}

/*
 * "0-3,8>" of a <CPUs ...> mark: the list as --cpus takes it
 * (base/cpulist.h), stored in its canonical form; 1, or 0 with rd->bad
 * set when --cpus would refuse it
 */
static int cpu_list(struct rd *rd, const char *mark, const char **pp, char *dst, size_t len)
{
	unsigned short cpus[CDM_CPULIST_MAX];
	const char *p = *pp;
	char list[256];
	struct cdm_err e;
	unsigned int n;
	size_t k = 0;

	cdm_cdm_lex_blanks(&p);
	while (((*p >= '0' && *p <= '9') || *p == ',' || *p == '-' || *p == ':' || *p == '/') &&
	       k + 1 < sizeof(list))
		list[k++] = *p++;
	list[k] = '\0';
	if (!cdm_cdm_lex_lit(&p, ">"))
		return mark_bad(rd, mark, "not a CPU list");
	if (cdm_cpulist_parse(list, CDM_CPULIST_MAX, cpus, &n, &e) < 0)
		return mark_bad(rd, mark, e.msg);
	if (cdm_cpulist_format(cpus, n, dst, len) < 0)
		return mark_bad(rd, mark, "too long a CPU list");
	*pp = p;
	return 1;
}

/*
 * "lat=1ms,channels=1>" of a <Null device ...> mark: the null engine's
 * simulated device as --null-device takes it (base/devspec.h), stored in
 * its canonical form; 1, or 0 with rd->bad set when it is not one
 */
static int null_device(struct rd *rd, const char *mark, const char **pp, char *dst, size_t len)
{
	struct cdm_devspec spec;
	const char *p = *pp;
	char text[CDM_DEVSPEC_TEXT_MAX];
	struct cdm_err e;
	size_t k = 0;

	cdm_cdm_lex_blanks(&p);
	while (((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("=.,;", *p)) &&
	       *p && k + 1 < sizeof(text))
		text[k++] = *p++;
	text[k] = '\0';
	if (!cdm_cdm_lex_lit(&p, ">"))
		return mark_bad(rd, mark, "not a simulated device");
	if (cdm_devspec_parse(text, &spec, &e) < 0)
		return mark_bad(rd, mark, e.msg);
	cdm_devspec_format(&spec, dst, len);
	*pp = p;
	return 1;
}

/*
 * "N>" of a <Steady-state max N> mark: the most rounds, as --max-rounds
 * takes it; 1, or 0 with rd->bad set when --max-rounds would refuse it
 */
static int max_rounds(struct rd *rd, const char *mark, const char **pp)
{
	unsigned long long x;
	char why[64];

	if (cdm_cdm_lex_whole(pp, CDM_MAX_PASSES, &x) && x >= CDM_STEADY_WINDOW &&
	    cdm_cdm_lex_lit(pp, ">")) {
		rd->info.max_rounds = (unsigned int)x;
		return 1;
	}
	snprintf(why, sizeof(why), "the most rounds is %u..%u, as --max-rounds takes",
		 CDM_STEADY_WINDOW, CDM_MAX_PASSES);
	return mark_bad(rd, mark, why);
}

/* @text without the blanks at its start (@lead) or its end, into @buf */
static const char *trimmed(char *buf, size_t len, const char *text, int lead)
{
	size_t n;

	while (lead && *text == ' ')
		text++;
	n = strlen(text);
	while (!lead && n && text[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, text);
	return buf;
}

/*
 * the value after @s's mark (format/layout.c writes it: "<Rate " N
 * " IOPS>"), at *@pp: 1 and moved past it, or 0 (with rd->bad set when a
 * list, a device or a number of rounds is one its option would refuse)
 */
static int mark_value(struct rd *rd, const struct cdm_setting *s, const char *m, const char **pp)
{
	void *at = cdm_settings_info_at(s, &rd->info);
	unsigned long long x;
	char end[CDM_SETTINGS_MARK_MAX];

	switch (s->type) {
	case CDM_SETTING_CPUS:
		return cpu_list(rd, m, pp, at, s->size);
	case CDM_SETTING_DEVSPEC:
		return null_device(rd, m, pp, at, s->size);
	case CDM_SETTING_STEADY:
		if (!max_rounds(rd, m, pp))
			return 0;
		cdm_settings_info_set_u64(s, &rd->info, 1);
		return 1;
	default:
		break;
	}
	if (!cdm_cdm_lex_whole(pp, s->max, &x) || x < s->min ||
	    !cdm_cdm_lex_lit(pp, trimmed(end, sizeof(end), s->mark_end, 1)))
		return 0;
	cdm_settings_info_set_u64(s, &rd->info, x);
	return 1;
}

/*
 * the mark of a setting of the table (model/settings.h, @mark; written
 * by format/layout.c's cdm_layout_marks()): "<O_DSYNC>", "<Verify>",
 * ... set it; "<fdatasync/N>", "<Rate N IOPS>", "<Null device SPEC>",
 * "<Steady-state max N>", "<CPUs 0-3,8>" read its value.  Returns 1 and
 * moves *@pp past it, or 0 (rd->bad set when its option would refuse it).
 */
static int setting_mark(struct rd *rd, const char **pp)
{
	unsigned int n;
	const struct cdm_setting *set = cdm_settings(&n);
	const char *m = *pp;
	char lit[CDM_SETTINGS_MARK_MAX];

	cdm_cdm_lex_blanks(&m);
	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_setting *s = &set[i];
		const char *p = m;

		if (!s->mark || !cdm_cdm_lex_lit(&p, trimmed(lit, sizeof(lit), s->mark, 0)))
			continue;
		if (!s->mark_end)
			cdm_settings_info_set_u64(s, &rd->info, 1);
		else if (!mark_value(rd, s, m, &p))
			return 0;
		*pp = p;
		return 1;
	}
	return 0;
}

/*
 * A mark of the settings that change what the figures mean: CDM's
 * "<0Fill>" and "[Admin]", and cdm's own (format/layout.c,
 * cdm_layout_marks()): "<O_DSYNC>", "<fdatasync/N>", "<Rate N IOPS>",
 * "<Null device SPEC>",
 * "<EndFsync>", "<Steady-state max N>", "<Precondition>", "<Verify>",
 * "<CPUs 0-3,8>", and in its CDM 6 and 7 layouts "<Measure N sec>"
 */
static int known_mark(struct rd *rd, const char **pp)
{
	struct cdm_run_info *in = &rd->info;
	const char *p = *pp;
	int has;

	if (cdm_cdm_lex_lit(&p, "[Admin]"))
		in->admin = 1;
	else if (cdm_cdm_lex_lit(&p, "<Measure") &&
		 seconds(rd, &p, "Measure", CDM_TIME_MIN_MS, CDM_TIME_MAX_MS, &in->time_ms, &has) &&
		 has && cdm_cdm_lex_lit(&p, ">"))
		rd->measure = 1;
	else
		return setting_mark(rd, pp);
	*pp = p;
	return 1;
}

/*
 * One token of a Test: line after the size: "(x5)", "[Interval: 5 sec]"
 * (7.x), "[Interval=5 sec]" (6.x), a mark (known_mark()),
 * "<DefaultAffinity=...>", or the volume in brackets (6.x, 8.x).
 */
static int test_token(struct rd *rd, const char **pp)
{
	struct cdm_run_info *in = &rd->info;
	const char *p = *pp, *e;
	unsigned long long x;

	if (cdm_cdm_lex_lit(&p, "(x")) {
		if (cdm_cdm_lex_unknown(&p))
			return cdm_cdm_lex_lit(&p, ")") ? (*pp = p, 1) : 0;
		if (!cdm_cdm_lex_whole(&p, ~0ull, &x) || !cdm_cdm_lex_lit(&p, ")"))
			return 0;
		if (x < 1 || x > CDM_COUNT_MAX) {
			rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: (x%llu): a count outside 1..%u",
					      rd->line, x, CDM_COUNT_MAX);
			return 0;
		}
		in->count = (unsigned int)x;
		*pp = p;
		return 1;
	}
	if (cdm_cdm_lex_lit(&p, "[Interval:") || cdm_cdm_lex_lit(&p, "[Interval="))
		return seconds(rd, &p, "Interval", 0, CDM_TIME_MAX_MS, &in->interval_ms,
			       &in->source.has_interval) && cdm_cdm_lex_lit(&p, "]") ? (*pp = p, 1) : 0;
	if (known_mark(rd, pp))
		return 1;
	if (rd->bad)
		return 0;
	if (cdm_cdm_lex_lit(&p, "<"))       /* <DefaultAffinity=DISABLED> (7.x), or a later mark */
		return other_mark(pp);
	if (cdm_cdm_lex_lit(&p, "[")) {
		e = strchr(p, ']');
		/* the volume's own brackets nest no ']' before its end */
		if (!e || memchr(p, '[', (size_t)(e - p)))
			return 0;
		if (in->source.volume[0])
			return 0;
		volume(rd, p, (size_t)(e - p));
		*pp = e + 1;
		return 1;
	}
	return 0;
}

/*
 * "1 GiB (x5) [G: 0% (0/1863GiB)]", "1024 MiB [I: ...] (x5)  [Interval=5
 * sec]"; cdm's text prints its size in any of cdm_size_format()'s units
 * ("512 KiB", "2 TiB"), or "unknown".  A size outside 512 B (one block of
 * the smallest) .. 1 PiB is no report's (CDM's are 16 MiB..64 GiB).
 */
static int test_value(struct rd *rd, const char *p)
{
	unsigned long long n;
	const char *name;
	uint64_t unit;

	if (!cdm_cdm_lex_unknown(&p)) {
		if (!cdm_cdm_lex_whole(&p, ~0ull, &n))
			return 0;
		name = cdm_size_cdm_unit(&p, CDM_SIZE_CDM_TEST, &unit);
		if (!name)
			return 0;
		if (n > CDM_SIZE_MAX / unit || n * unit < CDM_SIZE_MIN || n * unit > CDM_SIZE_MAX) {
			rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: a test size of %llu %s is outside 512 B..1 PiB",
					      rd->line, n, name);
			return 0;
		}
		rd->info.size = n * unit;
	}
	while (!cdm_cdm_lex_at_end(p))
		if (!test_token(rd, &p))
			return 0;
	return 1;
}

/* "[Admin]", "<0Fill>" and cdm's marks in any order, or nothing; other marks are skipped */
static int mode_value(struct rd *rd, const char *p)
{
	while (!cdm_cdm_lex_at_end(p))
		if (!known_mark(rd, &p) && (rd->bad || !other_mark(&p)))
			return 0;
	return 1;
}

/* "Measure 5 sec / Interval 5 sec" (8.x); cdm's text: "Measure unknown" too */
static int time_value(struct rd *rd, const char *v)
{
	struct cdm_run_info *in = &rd->info;
	int has;

	return cdm_cdm_lex_lit(&v, "Measure") &&
	       seconds(rd, &v, "Measure", CDM_TIME_MIN_MS, CDM_TIME_MAX_MS, &in->time_ms, &has) &&
	       cdm_cdm_lex_lit(&v, "/") && cdm_cdm_lex_lit(&v, "Interval") &&
	       seconds(rd, &v, "Interval", 0, CDM_TIME_MAX_MS, &in->interval_ms, &in->source.has_interval) &&
	       cdm_cdm_lex_at_end(v);
}

/* @lo to @hi digits right at *@p (no blanks before), into *@v; moves *@p past them */
static int digits(const char **p, unsigned int lo, unsigned int hi, unsigned int *v)
{
	const char *q = *p;
	unsigned int n = 0, x = 0;

	for (; *q >= '0' && *q <= '9' && n < hi; q++, n++)
		x = x * 10 + (unsigned int)(*q - '0');
	if (n < lo || (*q >= '0' && *q <= '9'))
		return 0;
	*v = x;
	*p = q;
	return 1;
}

/*
 * "2021/06/26 15:42:37": kept as text, and as the time it is in UTC.  Its
 * form is CDM's exactly (a second "7" or "007" is no report's).  A
 * date that is no day of the Gregorian calendar (Feb 29 of a year that is
 * not a leap year) or a second 60 (Windows' clock, which CDM prints, has
 * no leap second) is no report's; cdm's text prints "unknown" for a
 * report without its Date.
 */
static int date_value(struct rd *rd, const char *p)
{
	struct cdm_run_info *in = &rd->info;
	struct cdm_date dt;
	const char *v = p;
	int64_t t;

	if (cdm_cdm_lex_unknown(&p) && cdm_cdm_lex_at_end(p))
		return 1;
	/*
	 * CDM's "%04d/%02d/%02d %d:%02d:%02d": each field its digits, only the
	 * hour unpadded, blanks between the day and the hour only
	 */
	cdm_cdm_lex_blanks(&p);
	cdm_cdm_lex_blanks(&v);
	if (!digits(&p, 4, 4, &dt.year) || *p++ != '/' || !digits(&p, 2, 2, &dt.month) || *p++ != '/' ||
	    !digits(&p, 2, 2, &dt.day) || (*p != ' ' && *p != '\t'))
		return 0;
	cdm_cdm_lex_blanks(&p);
	if (!digits(&p, 1, 2, &dt.hour) || *p++ != ':' || !digits(&p, 2, 2, &dt.min) || *p++ != ':' ||
	    !digits(&p, 2, 2, &dt.sec) || !cdm_cdm_lex_at_end(p))
		return 0;
	if (dt.year < 1970 || dt.sec > 59 || cdm_date_to_unix(&dt, &t)) {
		char q[QUOTE_BUF];

		cdm_cdm_lex_quote(q, sizeof(q), v);
		rd->bad = cdm_err_set(rd->err, -EINVAL, "line %u: no such date: '%s'", rd->line, q);
		return 0;
	}
	snprintf(in->source.date_text, sizeof(in->source.date_text), "%s", v);
	in->start = (time_t)t;
	return 1;
}

/* "Windows 10  [10.0 Build 19042] (x64)": os, [kernel], (machine) */
static void os_value(struct cdm_run_info *in, const char *p)
{
	const char *end = p + strlen(p), *b = strrchr(p, '['), *m = strrchr(p, '(');

	if (!strcmp(p, "unknown"))      /* cdm's text of a report without its OS line */
		return;
	if (m && end[-1] == ')' && (!b || m > b)) {
		snprintf(in->machine, sizeof(in->machine), "%.*s", (int)(end - m - 2), m + 1);
		end = m;
	}
	if (b && b < end) {
		const char *c = memchr(b, ']', (size_t)(end - b));

		if (c) {
			snprintf(in->kernel, sizeof(in->kernel), "%.*s", (int)(c - b - 1), b + 1);
			end = b;
		}
	}
	/*
	 * one blank is the separator; CDM's own name may end in one more
	 * ("Windows 10 "), kept so the line prints again as it was
	 */
	if (end > p && end[-1] == ' ')
		end--;
	/* cdm's "unknown [6.1.0] (x86_64)": a run that found no os-release */
	if (end - p == 7 && !strncmp(p, "unknown", 7))
		end = p;
	snprintf(in->os, sizeof(in->os), "%.*s", (int)(end - p), p);
}

/* "Key: value" (7.x, 8.x) or "Key : value" (3.x-6.x): the value, or NULL */
static const char *footer_key(const char *p, const char *key)
{
	if (!cdm_cdm_lex_lit(&p, key) || !cdm_cdm_lex_lit(&p, ":"))
		return NULL;
	cdm_cdm_lex_blanks(&p);
	return p;
}

/* is the report in a layout before 7.x, by its product line or its rows? */
static int old_layout(const struct rd *rd)
{
	unsigned int l = rd->info.source.layout ? rd->info.source.layout : rd->layout;

	return l && l < 7;
}

/*
 * The footer line @key (F_* @flag) is read once: a second one (a pasted
 * report's footer twice, a line edited in) would replace the first's
 * settings without a word.  0, or -EINVAL naming the line.
 */
static int footer_once(struct rd *rd, unsigned int flag, const char *key)
{
	if (rd->footer & flag)
		return cdm_err_set(rd->err, -EINVAL, "line %u: a second %s: line in the footer",
				   rd->line, key);
	rd->footer |= flag;
	return 0;
}

/* a footer line: 1, 0 (not one), or -EINVAL */
int cdm_cdm_footer_line(struct rd *rd, const char *p)
{
	struct cdm_run_info *in = &rd->info;
	const char *v;
	int ok = 1;

	/* each of these once: footer_once() */
	if ((v = footer_key(p, "Profile"))) {
		if (footer_once(rd, F_PROFILE, "Profile"))
			return -EINVAL;
		if (strcmp(v, "unknown"))       /* cdm's text of a report without one */
			snprintf(in->profile, sizeof(in->profile), "%s", v);
	} else if ((v = footer_key(p, "Test"))) {
		if (footer_once(rd, F_TEST, "Test"))
			return -EINVAL;
		ok = test_value(rd, v);
	} else if ((v = footer_key(p, "Mode"))) {
		if (footer_once(rd, F_MODE, "Mode"))
			return -EINVAL;
		ok = mode_value(rd, v);
	} else if ((v = footer_key(p, "Time"))) {
		if (footer_once(rd, F_TIME, "Time"))
			return -EINVAL;
		ok = time_value(rd, v);
	} else if ((v = footer_key(p, "Date"))) {
		if (footer_once(rd, F_DATE, "Date"))
			return -EINVAL;
		ok = date_value(rd, v);
	} else if ((v = footer_key(p, "OS"))) {
		if (footer_once(rd, F_OS, "OS"))
			return -EINVAL;
		os_value(in, v);
		/* 3.x-6.x: the line after it is the comment ("  " + comment) */
		rd->old_os = old_layout(rd);
	} else if ((v = footer_key(p, "Comment"))) {
		if (footer_once(rd, F_COMMENT, "Comment"))
			return -EINVAL;
		snprintf(in->comment, sizeof(in->comment), "%s", v);
	} else if ((v = footer_key(p, "Steady")) || (v = footer_key(p, "Not steady"))) {
		/* cdm's notes between the sections and the footer (cdm_layout_notes()) */
		ok = cdm_cdm_notes_steady(rd, v, p[0] == 'S');
	} else if ((v = footer_key(p, "Verify"))) {
		ok = cdm_cdm_notes_verify(rd, v);
	} else if ((v = footer_key(p, "EndFsync"))) {
		ok = cdm_cdm_notes_end_fsync(rd, v);
	} else if ((v = footer_key(p, "Fsync"))) {
		ok = cdm_cdm_notes_fsync(rd, v);
	} else if ((v = footer_key(p, "Test file"))) {
		ok = cdm_cdm_notes_test_file(in, v);
	} else if ((v = footer_key(p, "Precondition"))) {
		ok = cdm_cdm_notes_precondition(in, v);
	} else if ((v = footer_key(p, "NUMA"))) {
		snprintf(in->numa_warning, sizeof(in->numa_warning), "%s", v);
	} else {
		return 0;
	}
	if (rd->bad)
		return rd->bad;
	if (!ok) {
		char q[QUOTE_BUF];

		cdm_cdm_lex_quote(q, sizeof(q), rd->orig);
		return cdm_err_set(rd->err, -EINVAL, "line %u: not a CrystalDiskMark footer line: '%s'",
				   rd->line, q);
	}
	return 1;
}
