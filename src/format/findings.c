/* SPDX-License-Identifier: MIT */
/*
 * findings.c - the detectors' findings in words: each level in its natural
 * unit, the notes of a run and of a sweep (include/cdm/format/findings.h).
 */
#include <stdio.h>
#include <string.h>

#include "cdm/base/msg.h"
#include "cdm/format/findings.h"
#include "cdm/model/spec.h"

/*
 * @v with @prec decimals and its integer digits grouped by thousands:
 * "1,250.0"; into @buf of @len bytes (>= 64).  Returns @buf.
 */
static char *grouped(char *buf, size_t len, int prec, double v)
{
	char plain[48];
	size_t n, digits, o = 0;
	const char *p = plain;

	/* a figure past what grouping helps with (or not finite) is printed plainly */
	if (!(v >= 0 && v < 1e15)) {
		snprintf(buf, len, "%.*f", prec, v);
		return buf;
	}
	snprintf(plain, sizeof(plain), "%.*f", prec, v);
	digits = strcspn(plain, ".");
	for (n = digits; *p && o + 2 < len; p++, n--) {
		buf[o++] = *p;
		if (p < plain + digits - 1 && (n - 1) % 3 == 0)
			buf[o++] = ',';
	}
	buf[o] = '\0';
	return buf;
}

static char *iops_text(char *buf, size_t len, double iops)
{
	return grouped(buf, len, iops >= 999.5 ? 0 : 1, iops);
}

static char *mb_s_text(char *buf, size_t len, double mb_s)
{
	return grouped(buf, len, mb_s >= 0.95 ? 1 : 3, mb_s);
}

char *cdm_findings_level(char *buf, size_t len, uint64_t block, double iops, double mb_s)
{
	char a[64], b[64];
	int by_iops = block && block <= CDM_FINDINGS_IOPS_BLOCK_MAX;

	if (!(iops > 0))
		snprintf(buf, len, "%s MB/s", mb_s_text(a, sizeof(a), mb_s));
	else if (!(mb_s > 0))
		snprintf(buf, len, "%s IOPS", iops_text(a, sizeof(a), iops));
	else if (by_iops)
		snprintf(buf, len, "%s IOPS (%s MB/s)", iops_text(a, sizeof(a), iops),
			 mb_s_text(b, sizeof(b), mb_s));
	else
		snprintf(buf, len, "%s MB/s (%s IOPS)", mb_s_text(a, sizeof(a), mb_s),
			 iops_text(b, sizeof(b), iops));
	return buf;
}

void cdm_findings_ceiling_note(const char *tests, enum cdm_dir dir, uint64_t block,
			       const struct cdm_ceiling *c)
{
	char lv[CDM_FINDINGS_LEVEL_MAX];

	cdm_msg_note("%s %s: a flat ceiling at %s: more load gave no more throughput while the mean latency rose %.1fx (a throughput cap?)",
		     tests, cdm_result_dir_name(dir),
		     cdm_findings_level(lv, sizeof(lv), block, c->iops, c->mb_s), c->lat_ratio);
}

/* are tests @a and @b points of one curve: direction, pattern and block? */
static int same_curve(const struct cdm_test_result *a, const struct cdm_test_result *b)
{
	return a->dir == b->dir && a->spec.pattern == b->spec.pattern &&
	       a->spec.block == b->spec.block;
}

/* does test @t sit on a flat ceiling? */
static int on_ceiling(const struct cdm_test_result *t)
{
	return t->series && t->series->ceiling.found;
}

static double load(const struct cdm_test_result *t)
{
	return (double)t->spec.qd * t->spec.threads;
}

/* the note of the ceiling test @i is on, when @i is the first test on it */
static void ceiling_note(const struct cdm_run_result *r, unsigned int i)
{
	const struct cdm_test_result *t = &r->tests[i];
	unsigned int last = i;
	char to[64], tests[136];

	for (unsigned int j = 0; j < i; j++)
		if (same_curve(&r->tests[j], t) && on_ceiling(&r->tests[j]))
			return;
	for (unsigned int j = i + 1; j < r->ntests; j++)
		if (same_curve(&r->tests[j], t) && on_ceiling(&r->tests[j]) &&
		    load(&r->tests[j]) >= load(&r->tests[last]))
			last = j;
	cdm_spec_name(&r->tests[last].spec, to, sizeof(to));
	snprintf(tests, sizeof(tests), "%.*s to %s", (int)sizeof(t->series->ceiling_from),
		 t->series->ceiling_from, to);
	cdm_findings_ceiling_note(tests, t->dir, t->spec.block, &t->series->ceiling);
}

void cdm_findings_run_notes(const struct cdm_run_result *r)
{
	char name[64], hi[CDM_FINDINGS_LEVEL_MAX], lo[CDM_FINDINGS_LEVEL_MAX];

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		const struct cdm_series *s = t->series;

		if (!s || !s->burst.found)
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		cdm_msg_note("%s %s: burst: %s at the start, then %s from %.1f s on (a credit-based or cached burst?)",
			     name, cdm_result_dir_name(t->dir),
			     cdm_findings_level(hi, sizeof(hi), t->spec.block, s->burst.high_iops,
						s->burst.high),
			     cdm_findings_level(lo, sizeof(lo), t->spec.block, s->burst.low_iops,
						s->burst.low),
			     (double)s->burst_at_ns / 1e9);
	}
	for (unsigned int i = 0; i < r->ntests; i++)
		if (on_ceiling(&r->tests[i]))
			ceiling_note(r, i);
}

void cdm_findings_sweep_notes(const struct cdm_sweep *sw)
{
	for (unsigned int i = 0; i < sw->ncurves; i++) {
		const struct cdm_sweep_curve *cv = &sw->curves[i];

		if (cv->ceiling.found)
			cdm_findings_ceiling_note(cv->test, cv->dir, cv->block, &cv->ceiling);
	}
}
