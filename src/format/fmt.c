/* SPDX-License-Identifier: MIT */
/*
 * fmt.c - the text helpers the writers in src/format/ and src/report/ share (fmt.h): the
 * shortest round-trip decimal of a double (the JSON writer's rule,
 * base/jsonw.c), UTC time stamps, approximate sizes, and a run's
 * settings, start and source as every report words them (what an
 * imported report does not state is "unknown": cdm_result_known()).  Kept apart from the registry
 * (report.c) so that a formatter never depends on the file that lists it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cdm/base/jsonw.h"
#include "cdm/base/msec.h"
#include "cdm/base/size.h"
#include "cdm/base/text.h"
#include "cdm/base/utf8.h"
#include "cdm/base/json.h"
#include "cdm/model/result.h"
#include "cdm/target/testfile.h"
#include "cdm/format/fmt.h"

char *cdm_fmt_num(char *buf, size_t len, double v)
{
	return cdm_jsonw_fmt_num(buf, len, v);
}

char *cdm_fmt_fig(char *buf, size_t len, int prec, double v, const char *unit,
		  const char *none)
{
	if (!isfinite(v))
		snprintf(buf, len, "%s", none);
	else
		snprintf(buf, len, "%.*f%s", prec, v, unit);
	return buf;
}

char *cdm_fmt_cv(char *buf, size_t len, double cv_pct, double threshold_pct)
{
	int above = cv_pct > threshold_pct;

	if (!isfinite(cv_pct))
		return cdm_fmt_fig(buf, len, 1, cv_pct, "", "-");
	/* the fewest decimals (one at least) at which the text says what the figure does */
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*f", prec, cv_pct);
		if ((strtod(buf, NULL) > threshold_pct) == above)
			return buf;
	}
	snprintf(buf, len, "%.17g", cv_pct);
	return buf;
}


unsigned int cdm_fmt_cut(char *buf, size_t len, const char *s, unsigned int cols)
{
	size_t n = strlen(s), keep = 0;
	unsigned int c = 0;

	if (!len)
		return 0;
	if ((unsigned int)cdm_utf8_chars(s, n) <= cols && n < len) {
		memcpy(buf, s, n + 1);
		return (unsigned int)cdm_utf8_chars(s, n);
	}
	/* the bytes of the first cols - 1 characters that leave room for the ellipsis */
	while (keep < n) {
		size_t next = keep + 1;

		while (next < n && cdm_utf8_cont((unsigned char)s[next]))
			next++;
		if (c + 1 >= cols || next + sizeof(CDM_FMT_ELLIPSIS) > len)
			break;
		keep = next;
		c++;
	}
	memcpy(buf, s, keep);
	if (keep + sizeof(CDM_FMT_ELLIPSIS) <= len) {
		memcpy(buf + keep, CDM_FMT_ELLIPSIS, sizeof(CDM_FMT_ELLIPSIS));
		return c + 1;
	}
	buf[keep] = '\0';
	return c;
}

void cdm_fmt_md_text(FILE *out, const char *s, size_t max)
{
	size_t n = strnlen(s, max), i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (strchr("\\`*_[]<>|~#!&", c))
			fputc('\\', out);
		fputc(c, out);
	}
}

char *cdm_fmt_utc(char *buf, size_t len, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (len)
		buf[0] = '\0';
	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		if (len)
			buf[0] = '\0';
	return buf;
}

char *cdm_fmt_bytes_approx(char *buf, size_t len, unsigned long long bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int i = -1;

	while (i + 1 < (int)(sizeof(units) / sizeof(units[0])) && v >= 1024.0) {
		v /= 1024.0;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu B", bytes);
	else
		snprintf(buf, len, "%.1f %s", v, units[i]);
	return buf;
}

char *cdm_fmt_setting(char *buf, size_t len, const struct cdm_run_info *in,
		      enum cdm_info_item item, const char *unit)
{
	char t[CDM_MSEC_FORMAT_MAX];
	unsigned int ms;

	if (!cdm_result_known(in, item)) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	switch (item) {
	case CDM_INFO_PROFILE:
		snprintf(buf, len, "%.*s", (int)sizeof(in->profile), in->profile);
		return buf;
	case CDM_INFO_ENGINE:
		snprintf(buf, len, "%.*s", (int)sizeof(in->engine), in->engine);
		return buf;
	case CDM_INFO_SIZE:
		return cdm_size_format(in->size, buf, len);
	case CDM_INFO_COUNT:
		snprintf(buf, len, "%u%s", in->count, unit);
		return buf;
	case CDM_INFO_TIME: ms = in->time_ms; break;
	case CDM_INFO_INTERVAL: ms = in->interval_ms; break;
	case CDM_INFO_WARMUP: ms = in->warmup_ms; break;
	default:
		snprintf(buf, len, "unknown");
		return buf;
	}
	snprintf(buf, len, "%s%s", cdm_msec_format(ms, t, sizeof(t)), unit);
	return buf;
}

char *cdm_fmt_count(char *buf, size_t len, const struct cdm_run_info *in)
{
	/* an unknown count is left out: "(xunknown)" says nothing */
	if (cdm_result_known(in, CDM_INFO_COUNT))
		snprintf(buf, len, " (x%u)", in->count);
	else if (len)
		buf[0] = '\0';
	return buf;
}

char *cdm_fmt_start(char *buf, size_t len, const struct cdm_run_info *in)
{
	char utc[32];

	if (cdm_result_imported(in)) {
		/* the report's wall time in a zone it does not name: as printed */
		if (cdm_result_known(in, CDM_INFO_DATE))
			snprintf(buf, len, "%.*s (local time)", (int)sizeof(in->source.date_text),
				 in->source.date_text);
		else if (len)
			buf[0] = '\0';
		return buf;
	}
	cdm_fmt_utc(utc, sizeof(utc), (long long)in->start);
	if (utc[0])
		snprintf(buf, len, "%.10s %.8s UTC", utc, utc + 11);
	else if (len)
		buf[0] = '\0';
	return buf;
}

char *cdm_fmt_source(char *buf, size_t len, const struct cdm_run_info *in)
{
	const struct cdm_run_source *src = &in->source;

	if (!cdm_result_imported(in)) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	if (src->kind == CDM_SOURCE_CDM_TEXT) {
		snprintf(buf, len, "cdm %.*s text%s%.*s", (int)sizeof(src->version), src->version,
			 src->origin[0] ? " of a " : "", (int)sizeof(src->origin), src->origin);
		return buf;
	}
	snprintf(buf, len, "CrystalDiskMark%s%.*s%s%.*s", src->version[0] ? " " : "",
		 (int)sizeof(src->version), src->version, src->edition[0] ? " " : "",
		 (int)sizeof(src->edition), src->edition);
	return buf;
}

size_t cdm_fmt_trimmed(const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

char *cdm_fmt_steady_window(char *buf, size_t len, const struct cdm_steady *st)
{
	char range[32], slope[32];

	if (isfinite(st->range_pct) && isfinite(st->slope_pct))
		snprintf(buf, len, "range %s %%, slope %s %%",
			 cdm_fmt_cv(range, sizeof(range), st->range_pct, CDM_STEADY_RANGE_PCT),
			 cdm_fmt_cv(slope, sizeof(slope), st->slope_pct, CDM_STEADY_SLOPE_PCT));
	else
		snprintf(buf, len, "no full window of %u measured rounds", CDM_STEADY_WINDOW);
	return buf;
}

char *cdm_fmt_steady(char *buf, size_t len, const struct cdm_test_result *t,
		     const struct cdm_run_info *in)
{
	const struct cdm_steady *st = &t->steady;
	unsigned int max = cdm_result_max_rounds(t, in);
	unsigned int rounds = t->reported.has ? max : t->npasses;
	char judged[96];
	size_t n = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!st->on)
		return buf;
	cdm_fmt_steady_window(judged, sizeof(judged), st);
	if (st->reached_at_round)
		cdm_text_add(buf, len, &n, "at round %u", st->reached_at_round);
	else    /* an imported test has no rounds: the report's count of them */
		cdm_text_add(buf, len, &n, "after %u round%s", rounds, rounds == 1 ? "" : "s");
	if (st->reached_at_round && max)
		cdm_text_add(buf, len, &n, " of %u", max);
	cdm_text_add(buf, len, &n, " (%s)", judged);
	return buf;
}

char *cdm_fmt_precondition(char *buf, size_t len)
{
	unsigned int passes = CDM_TESTFILE_PRECOND_PASSES;
	char times[16], block[32];

	if (passes == 1 || passes == 2)
		snprintf(times, sizeof(times), "%s", passes == 1 ? "once" : "twice");
	else
		snprintf(times, sizeof(times), "%u times", passes);
	cdm_size_format(CDM_TESTFILE_PRECOND_BLOCK, block, sizeof(block));
	snprintf(buf, len, "written sequentially %s in %s blocks", times, block);
	return buf;
}

/* @ns as "66.8 ms": in us below 1 ms, in ms below 1 s, else in s */
static char *fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

char *cdm_fmt_end_fsync(char *buf, size_t len, const struct cdm_end_fsync_sum *s)
{
	char mean[48], max[48];

	snprintf(buf, len, "%s per pass (%.2f %% of the pass), max %s",
		 fmt_ns(mean, sizeof(mean), s->mean_ns), s->pass_pct,
		 fmt_ns(max, sizeof(max), s->max_ns));
	return buf;
}

char *cdm_fmt_fsync(char *buf, size_t len, const struct cdm_fsync_sum *s)
{
	char mean[48], max[48];

	snprintf(buf, len, "%" PRIu64 " call%s, mean %s, max %s", s->count, s->count == 1 ? "" : "s",
		 fmt_ns(mean, sizeof(mean), s->mean_ns), fmt_ns(max, sizeof(max), s->max_ns));
	return buf;
}

char *cdm_fmt_test_file(char *buf, size_t len, const struct cdm_run_info *in)
{
	const char *data = cdm_result_file_data_key(in->test_file_data);

	if (!len)
		return buf;
	buf[0] = '\0';
	if (in->test_file != CDM_TEST_FILE_KEPT && in->test_file != CDM_TEST_FILE_REUSED)
		return buf;
	snprintf(buf, len, "%s, %s data", in->test_file == CDM_TEST_FILE_KEPT ?
		 "kept (--keep)" : "reused (--file)", data ? data : "unknown");
	return buf;
}

char *cdm_fmt_verify_sample(char *buf, size_t len, int sampled, uint64_t lo, uint64_t hi)
{
	if (!len)
		return buf;
	if (!sampled)
		buf[0] = '\0';
	else if (!lo)
		snprintf(buf, len, " (a sample)");
	else if (hi > lo)
		snprintf(buf, len, " (a sample: 1 block in %" PRIu64 " to 1 in %" PRIu64 ")", lo, hi);
	else
		snprintf(buf, len, " (a sample: 1 block in %" PRIu64 ")", lo);
	return buf;
}

/* ", 2 lost writes, the first at offset 8192" of one kind at @n of @buf; nothing when @cnt is 0 */
static size_t verify_kind(char *buf, size_t len, size_t n, uint64_t cnt, const char *one,
			  const char *many, uint64_t off)
{
	if (cnt)
		cdm_text_add(buf, len, &n, "%s%" PRIu64 " %s%sat offset %" PRIu64,
			     n ? ", " : "", cnt, cnt == 1 ? one : many,
			     cnt == 1 ? " " : ", the first ", off);
	return n;
}

char *cdm_fmt_verify_found(char *buf, size_t len, const struct cdm_verify *v)
{
	char sample[CDM_FMT_VERIFY_SAMPLE_MAX];
	size_t n = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	n = verify_kind(buf, len, n, v->lost, "lost write", "lost writes", v->first_lost);
	n = verify_kind(buf, len, n, v->misdirected, "misdirected write", "misdirected writes",
			v->first_misdirected);
	if (v->misdirected && v->meant_known)
		cdm_text_add(buf, len, &n, " (meant for offset %" PRIu64 ")", v->first_meant);
	n = verify_kind(buf, len, n, v->torn, "torn block", "torn blocks", v->first_torn);
	cdm_text_add(buf, len, &n, "%s",
		     cdm_fmt_verify_sample(sample, sizeof(sample), v->sampled, v->every, v->every));
	return buf;
}
