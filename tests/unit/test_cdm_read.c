/* SPDX-License-Identifier: MIT */
/*
 * test_cdm_read.c - CrystalDiskMark text reports read into the model
 * (format/cdm_read.c): every report in tests/fixtures/cdm-reports/ (real
 * reports of CDM 6.0.0, 7.0.0, 8.0.1, 8.0.4 Shizuku Edition, x64 and x86,
 * one trimmed to its body) is read with every figure equal to its text,
 * checked against an independent parse of each result line with sscanf,
 * and its footer against a table written by hand from the files.  Then
 * the same reports as CDM 6/7 save them (UTF-16LE with a BOM), with CRLF,
 * quoted with "> " as in a blog post, with trailing blanks, and the CDM 6
 * report without its final two spaces: each reads to the same model.
 * Then what must be refused, with the line named; the figures functions
 * of the model for a report's test (best only, never a 0); the JSON of
 * `cdm import` read back; and compare's cells.
 *
 * The first line of each fixture ("# source: ...") says where the report
 * comes from and is not part of it: each is read as stored, that line
 * and all, as the reader skips the '#' lines before a report.
 * Run from the repository root, or set CDM_SRCDIR to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cdm/base/version.h"
#include "cdm/format/cdm_read.h"
#include "cdm/model/compare.h"
#include "cdm/model/result.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/report/report.h"
#include "unit.h"

/* what each fixture's header and footer say, written by hand from the files */
struct expect {
	const char *file;
	unsigned int ntests, layout;
	const char *version, *edition, *profile;
	unsigned long long size;
	unsigned int count, time, interval, has_interval, admin, zero_fill;     /* time: 6.x, 7.x fixed 5 s */
	const char *date, *os, *kernel, *machine, *comment, *volume, *label;
	unsigned long long fs_total, fs_used;
	int says_admin, says_data;      /* a Mode line (8.x); the line of <0Fill> */
};

#define GIB (1024ull * 1024 * 1024)
#define MIB (1024ull * 1024)

static const struct expect fixtures[] = {
	{ "cdm6-default-sdcard-1.txt", 8, 6, "6.0.0", "x64", "", 1024 * MIB, 5, 5, 5, 1, 0, 0,
	  "2019/04/01 11:33:09", "Windows 10 ", "10.0 Build 14393", "x64", "",
	  "I: 11.7% (14.0/119.2 GiB)", "cdm6-default-sdcard-1",
	  (unsigned long long)(119.2 * GIB + 0.5), (unsigned long long)(14.0 * GIB + 0.5), 0, 1 },
	{ "cdm7-default-hdd-1.txt", 8, 7, "7.0.0", "x64", "Default", GIB, 5, 5, 5, 1, 0, 0,
	  "2020/01/02 13:19:48", "Windows 10 ", "10.0 Build 18363", "x64", "", "",
	  "cdm7-default-hdd-1", 0, 0, 0, 1 },
	{ "cdm7-default-nvme-1.txt", 8, 7, "7.0.0", "x64", "Default", GIB, 5, 5, 5, 1, 0, 0,
	  "2020/01/02 16:54:09", "Windows 10 ", "10.0 Build 18363", "x64", "", "",
	  "cdm7-default-nvme-1", 0, 0, 0, 1 },
	{ "cdm7-default-sata-1.txt", 8, 7, "7.0.0", "x64", "Default", GIB, 5, 5, 5, 1, 0, 0,
	  "2020/01/03 10:40:02", "Windows 10 ", "10.0 Build 18363", "x64", "", "",
	  "cdm7-default-sata-1", 0, 0, 0, 1 },
	{ "cdm8-default-hdd-usb-shizuku-1.txt", 8, 8, "8.0.4", "Shizuku Edition x64", "Default",
	  GIB, 5, 5, 5, 1, 1, 0, "2022/07/24 14:51:14", "Windows 10 Professional",
	  "10.0 Build 19044", "x64", "", "P: 14% (539/3726GiB)", "cdm8-default-hdd-usb-shizuku-1",
	  3726 * GIB, 539 * GIB, 1, 1 },
	{ "cdm8-default-nvme-1.txt", 8, 8, "8.0.1", "x64", "Default", GIB, 5, 5, 5, 1, 1, 0,
	  "2021/06/26 15:42:37", "Windows 10 ", "10.0 Build 19042", "x64",
	  "Crucial P2 2TB @ PCIe 2.0 x2", "G: 0% (0/1863GiB)", "Crucial P2 2TB @ PCIe 2.0 x2",
	  1863 * GIB, 0, 1, 1 },
	{ "cdm8-default-sata-1.txt", 8, 8, "8.0.1", "x64", "Default", GIB, 5, 5, 5, 1, 1, 0,
	  "2021/06/22 17:19:21", "Windows 10 ", "10.0 Build 19042", "x64", "WD Blue 3D 1TB",
	  "E: 96% (894/932GiB)", "WD Blue 3D 1TB", 932 * GIB, 894 * GIB, 1, 1 },
	{ "cdm8-default-sata-2.txt", 8, 8, "8.0.1", "x64", "Default", GIB, 5, 5, 5, 1, 1, 0,
	  "2021/06/22 16:34:54", "Windows 10 ", "10.0 Build 19042", "x64", "Samsung 840 EVO 120GB",
	  "C: 98% (109/111GiB)", "Samsung 840 EVO 120GB", 111 * GIB, 109 * GIB, 1, 1 },
	{ "cdm8-default-sata-x86-1.txt", 8, 8, "8.0.1", "x86", "Default", 512 * MIB, 2, 5, 5, 1, 1, 0,
	  "2021/06/23 0:05:57", "Windows 10 ", "10.0 Build 19042", "x64", "",
	  "F: 78% (182/233GiB)", "cdm8-default-sata-x86-1", 233 * GIB, 182 * GIB, 1, 1 },
	{ "cdm8-real-partial-1.txt", 4, 8, "", "", "Real", 128 * MIB, 1, 0, 0, 0, 0, 0,
	  "", "", "", "", "", "D: 9% (167/1863GiB)", "cdm8-real-partial-1", 1863 * GIB, 167 * GIB, 0, 0 },
};

#define NFIX (sizeof(fixtures) / sizeof(fixtures[0]))

/* one result line of CDM 8, under its section head */
#define CDM8 "CrystalDiskMark 8.0.1 x64 (C) 2007-2021 hiyohiyo\n"
#define ROW8 "[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"

/* the fixture @name as stored, its first line "# source: ..." too, in *@len bytes */
static char *fixture_text(const char *name, size_t *len)
{
	char path[4096], *buf;

	snprintf(path, sizeof(path), "cdm-reports/%s", name);
	buf = unit_fixture(path, len);
	assert_true(!strncmp(buf, "# source: ", 10));
	return buf;
}

static struct cdm_run_result *read_ok(const char *text, size_t len, const char *file)
{
	struct cdm_run_result *r = NULL;
	struct cdm_err err = { "" };
	int ret = cdm_cdm_read(text, len, file, &r, &err);

	if (ret)
		fail_msg("%s: %d %s", file, ret, err.msg);
	assert_non_null(r);
	return r;
}

/* @r printed by the formatter @fmt, in a new buffer of *@len bytes */
static char *render(const struct cdm_run_result *r, const char *fmt, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(cdm_report_find(fmt)->write(f, r), 0);
	fclose(f);
	return buf;
}

/* a figure as printed: the number right before @unit in @s, or NaN when absent */
static double printed_before(const char *s, const char *unit)
{
	const char *u = strstr(s, unit), *p;

	if (!u)
		return 0.0 / 0.0;
	p = u;
	while (p > s && p[-1] == ' ')
		p--;
	while (p > s && strchr("0123456789.", p[-1]))
		p--;
	return strtod(p, NULL);
}

/* the test a result line names, as cdm names it: "SEQ1M Q8T1", and its direction */
static int line_test(const char *line, const char *section, char *name, size_t len,
		     enum cdm_dir *dir)
{
	char w1[16], w2[16], unit[8];
	unsigned int n, q = 1, t = 1;

	*dir = !strcmp(section, "[Write]") ? CDM_DIR_WRITE : strstr(section, "[Mix]") ? CDM_DIR_MIX :
	       CDM_DIR_READ;
	/* 8.x */
	if (sscanf(line, " %3s %u%3s (Q=%u, T=%u)", w1, &n, unit, &q, &t) == 5 &&
	    (!strcmp(w1, "SEQ") || !strcmp(w1, "RND"))) {
		snprintf(name, len, "%s%u%c Q%uT%u", w1, n, unit[0], q, t);
		return 1;
	}
	/* 7.x */
	if (sscanf(line, " %15s %u%3s (Q=%u, T=%u)", w1, &n, unit, &q, &t) == 5) {
		snprintf(name, len, "%s%u%c Q%uT%u", strcmp(w1, "Random") ? "SEQ" : "RND", n,
			 unit[0], q, t);
		return 1;
	}
	/* 6.x: the direction is on the line; the sequential block is 128 KiB at Q32 */
	if (sscanf(line, " Random %15s %u%3s (Q=%u,T=%u)", w2, &n, unit, &q, &t) == 5) {
		*dir = strcmp(w2, "Read") ? CDM_DIR_WRITE : CDM_DIR_READ;
		snprintf(name, len, "RND%u%c Q%uT%u", n, unit[0], q, t);
		return 1;
	}
	if (sscanf(line, " Sequential %15s (Q=%u,T=%u)", w2, &q, &t) == 3) {
		*dir = strcmp(w2, "Read") ? CDM_DIR_WRITE : CDM_DIR_READ;
		snprintf(name, len, "SEQ128K Q%uT%u", q, t);
		return 1;
	}
	return 0;
}

/*
 * Every result line of @text against the tests of @r, in order: the test
 * it names, MB/s, IOPS and latency as printed (NaN where the line has none).
 */
static void check_figures(const char *text, const struct cdm_run_result *r, const char *file)
{
	char *copy = strdup(text), *save = NULL, *line, section[64] = "", name[64], got[64];
	unsigned int k = 0;

	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const struct cdm_test_result *t;
		enum cdm_dir dir;
		double mb, iops, lat;

		if (line[0] == '[')
			snprintf(section, sizeof(section), "%.*s", (int)strcspn(line, "\r"), line);
		if (!strstr(line, " MB/s") || line[0] == '*')
			continue;
		if (!line_test(line, section, name, sizeof(name), &dir))
			fail_msg("%s: the test cannot parse '%s'", file, line);
		assert_true(k < r->ntests);
		t = &r->tests[k++];
		cdm_spec_name(&t->spec, got, sizeof(got));
		if (strcmp(got, name) || t->dir != dir)
			fail_msg("%s: line '%s': read as %s %d, the line says %s %d", file, line, got,
				 t->dir, name, dir);
		mb = printed_before(line, " MB/s");
		iops = printed_before(line, " IOPS]");
		lat = printed_before(line, " us>");
		assert_true(t->reported.has);
		assert_int_equal(t->npasses, 0);
		if (!(t->reported.mb_s == mb))
			fail_msg("%s: '%s': MB/s %.17g, the text %.17g", file, line, t->reported.mb_s, mb);
		if (!(t->reported.iops == iops || (iops != iops && t->reported.iops != t->reported.iops)))
			fail_msg("%s: '%s': IOPS %.17g, the text %.17g", file, line, t->reported.iops, iops);
		if (!(t->reported.lat_us == lat || (lat != lat && t->reported.lat_us != t->reported.lat_us)))
			fail_msg("%s: '%s': latency %.17g, the text %.17g", file, line, t->reported.lat_us, lat);
	}
	assert_int_equal(k, r->ntests);
	free(copy);
}

static void check_footer(const struct cdm_run_result *r, const struct expect *e)
{
	const struct cdm_run_info *in = &r->info;

	assert_int_equal(r->ntests, e->ntests);
	assert_int_equal(in->source.kind, CDM_SOURCE_CDM_REPORT);
	assert_int_equal(in->source.layout, e->layout);
	assert_string_equal(in->source.version, e->version);
	assert_string_equal(in->source.edition, e->edition);
	assert_string_equal(in->profile, e->profile);
	assert_int_equal(in->size, e->size);
	assert_int_equal(in->count, e->count);
	assert_int_equal(in->time_ms, e->time * 1000);   /* the table is in seconds */
	assert_int_equal(in->interval_ms, e->interval * 1000);
	assert_int_equal(in->source.has_interval, e->has_interval);
	assert_int_equal(in->admin, e->admin);
	assert_int_equal(in->zero_fill, e->zero_fill);
	assert_int_equal(in->source.has_admin, e->says_admin);
	assert_int_equal(in->source.has_data, e->says_data);
	assert_string_equal(in->source.date_text, e->date);
	assert_string_equal(in->os, e->os);
	assert_string_equal(in->kernel, e->kernel);
	assert_string_equal(in->machine, e->machine);
	assert_string_equal(in->comment, e->comment);
	assert_string_equal(in->source.volume, e->volume);
	assert_string_equal(in->label, e->label);
	assert_int_equal(in->fs_total_bytes, e->fs_total);
	assert_int_equal(in->fs_used_bytes, e->fs_used);
	assert_int_equal(in->direct, 1);
	assert_string_equal(in->engine, "");
	assert_int_equal(r->aggregate, CDM_AGG_BEST);
	/* no report names the device's NUMA node: unknown, not node 0 */
	assert_int_equal(in->dev_numa_node, -1);
	/* each has its footer, the trimmed one a Profile and a Test line of it */
	assert_int_equal(in->source.no_footer, 0);
}

static void test_fixtures(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < NFIX; i++) {
		size_t len;
		char *text = fixture_text(fixtures[i].file, &len);
		struct cdm_run_result *r = read_ok(text, len, fixtures[i].file);

		check_figures(text, r, fixtures[i].file);
		check_footer(r, &fixtures[i]);
		cdm_result_free(r);
		free(text);
	}
}

/* the Date as the time kept: its wall time read as UTC (zone unknown) */
static void test_date(void **state)
{
	size_t len;
	char *text = fixture_text("cdm8-default-nvme-1.txt", &len);
	struct cdm_run_result *r = read_ok(text, len, "x.txt");

	(void)state;
	/* date -u -d '2021-06-26 15:42:37' +%s */
	assert_int_equal((long long)r->info.start, 1624722157LL);
	cdm_result_free(r);
	free(text);
}

/* are @a and @b the same reading: tests, figures and footer? */
static void assert_same(const struct cdm_run_result *a, const struct cdm_run_result *b)
{
	assert_int_equal(a->ntests, b->ntests);
	for (unsigned int i = 0; i < a->ntests; i++) {
		const struct cdm_test_result *s = &a->tests[i], *t = &b->tests[i];

		assert_true(cdm_spec_same(&s->spec, &t->spec));
		assert_int_equal(s->dir, t->dir);
		assert_true(s->reported.mb_s == t->reported.mb_s);
		assert_memory_equal(&s->reported.iops, &t->reported.iops, sizeof(double));
		assert_memory_equal(&s->reported.lat_us, &t->reported.lat_us, sizeof(double));
	}
	assert_string_equal(a->info.comment, b->info.comment);
	assert_string_equal(a->info.os, b->info.os);
	assert_string_equal(a->info.source.date_text, b->info.source.date_text);
	assert_string_equal(a->info.source.product, b->info.source.product);
	assert_string_equal(a->info.source.volume, b->info.source.volume);
	assert_int_equal(a->info.size, b->info.size);
	assert_int_equal(a->info.count, b->info.count);
	assert_int_equal(a->info.time_ms, b->info.time_ms);
	assert_int_equal(a->info.interval_ms, b->info.interval_ms);
	assert_int_equal((long long)a->info.start, (long long)b->info.start);
}

/* each line of @text through @f into a new buffer */
static char *per_line(const char *text, size_t len, size_t *olen,
		      void (*f)(FILE *out, const char *line, size_t n, int last))
{
	char *buf = NULL;
	size_t blen = 0, i = 0;
	FILE *out = open_memstream(&buf, &blen);

	assert_non_null(out);
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - text - i) : len - i;

		f(out, text + i, n, !nl);
		i += n + (nl != NULL);
	}
	fclose(out);
	*olen = blen;
	return buf;
}

static void to_crlf(FILE *out, const char *l, size_t n, int last)
{
	if (n && l[n - 1] == '\r')
		n--;
	fprintf(out, "%.*s%s", (int)n, l, last ? "" : "\r\n");
}

static void to_quoted(FILE *out, const char *l, size_t n, int last)
{
	fprintf(out, "> %.*s%s", (int)n, l, last ? "" : "\n");
}

static void to_trailing(FILE *out, const char *l, size_t n, int last)
{
	if (n && l[n - 1] == '\r')
		n--;
	fprintf(out, "%.*s  \t %s", (int)n, l, last ? "" : "\n");
}

/* the ASCII @text as CDM 6 and 7 save it: UTF-16LE after a BOM */
static char *to_utf16le(const char *text, size_t len, size_t *olen)
{
	char *o = malloc(2 * len + 2);

	assert_non_null(o);
	o[0] = (char)0xff;
	o[1] = (char)0xfe;
	for (size_t i = 0; i < len; i++) {
		o[2 + 2 * i] = text[i];
		o[3 + 2 * i] = 0;
	}
	*olen = 2 * len + 2;
	return o;
}

static void test_variants(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < NFIX; i++) {
		size_t len, vlen;
		char *text = fixture_text(fixtures[i].file, &len), *v;
		struct cdm_run_result *base = read_ok(text, len, fixtures[i].file), *r;
		void (*fs[])(FILE *, const char *, size_t, int) = { to_crlf, to_quoted, to_trailing };

		for (unsigned int k = 0; k < 3; k++) {
			v = per_line(text, len, &vlen, fs[k]);
			r = read_ok(v, vlen, fixtures[i].file);
			assert_same(base, r);
			cdm_result_free(r);
			free(v);
		}
		v = to_utf16le(text, len, &vlen);
		r = read_ok(v, vlen, fixtures[i].file);
		assert_same(base, r);
		cdm_result_free(r);
		free(v);
		/* with a UTF-8 BOM, and leading blank lines */
		v = malloc(len + 8);
		assert_non_null(v);
		memcpy(v, "\xef\xbb\xbf\n\r\n\n", 7);
		memcpy(v + 7, text, len);
		r = read_ok(v, len + 7, fixtures[i].file);
		assert_same(base, r);
		cdm_result_free(r);
		free(v);
		cdm_result_free(base);
		free(text);
	}
}

/*
 * CDM 6's file ends with its comment line, "  " + comment, and no newline
 * (the fixture as copied has a newline after it); read the same with the
 * newline, without it, and without the two spaces.
 */
static void test_cdm6_end(void **state)
{
	size_t len, k;
	char *text = fixture_text("cdm6-default-sdcard-1.txt", &len);
	struct cdm_run_result *a, *b;

	(void)state;
	while (len && text[len - 1] == '\n')
		len--;
	assert_true(len > 3 && !memcmp(text + len - 3, "\n  ", 3));
	a = read_ok(text, len + 1, "a.txt");
	for (k = 0; k <= 2; k += 2) {
		b = read_ok(text, len - k, "a.txt");
		assert_same(a, b);
		assert_string_equal(b->info.comment, "");
		cdm_result_free(b);
	}
	cdm_result_free(a);
	/* with a comment, as CDM 6 writes it: "  " + comment */
	text = realloc(text, len + 32);
	assert_non_null(text);
	strcpy(text + len, "SD card in a USB reader");
	a = read_ok(text, strlen(text), "a.txt");
	assert_string_equal(a->info.comment, "SD card in a USB reader");
	assert_string_equal(a->info.label, "SD card in a USB reader");
	cdm_result_free(a);
	free(text);
}

static void refuse(const char *text, int want, const char *msg)
{
	struct cdm_run_result *r = (struct cdm_run_result *)1;
	struct cdm_err err = { "" };
	int ret = cdm_result_load(text, strlen(text), "t.txt", CDM_RESULT_READ_AGGREGATE, &r, &err);

	if (ret != want || !strstr(err.msg, msg))
		fail_msg("'%.40s': got %d '%s', want %d '%s'", text, ret, err.msg, want, msg);
	assert_null(r);
	assert_null(strchr(err.msg, '\n'));
}

/*
 * '#' lines before a report are notes, skipped whatever they hold: 2 KiB,
 * control bytes, a NUL, after blanks and a Markdown quote.  A NUL in a
 * line of the report is named, with its line, in one line.
 */
static void notes_and_nul(void)
{
	static const char row[] = ROW8;
	char *text = calloc(1, 8192);
	struct cdm_run_result *r = NULL;
	struct cdm_err err = { "" };
	size_t n = 0;

	assert_non_null(text);
	text[n++] = '#';
	memset(text + n, 'a', 2048);
	n += 2048;
	{
		static const char notes[] = "\n# \x01\x7f\xff\x00 binary\r\n \xc2\xa0> # quoted\n";

		memcpy(text + n, notes, sizeof(notes) - 1);
		n += sizeof(notes) - 1;
	}
	memcpy(text + n, row, sizeof(row) - 1);
	n += sizeof(row) - 1;
	if (cdm_result_load(text, n, "notes.txt", CDM_RESULT_READ_AGGREGATE, &r, &err))
		fail_msg("notes: %s", err.msg);
	assert_int_equal(r->ntests, 1);
	assert_true(r->tests[0].reported.mb_s == 804.157);
	cdm_result_free(r);
	r = NULL;
	/* the same bytes in the report, after its first line: a NUL named, line and byte */
	n = 0;
	memcpy(text, row, sizeof(row) - 1);
	n += sizeof(row) - 1;
	{
		static const char bad[] = "  SEQ    1MiB (Q=\x00 1, T= 1):   804.157 MB/s\n";

		memcpy(text + n, bad, sizeof(bad) - 1);
		n += sizeof(bad) - 1;
	}
	assert_int_equal(cdm_result_load(text, n, "nul.txt", CDM_RESULT_READ_AGGREGATE, &r, &err),
			 -EINVAL);
	assert_null(r);
	assert_string_equal(err.msg, "line 3: a NUL byte (byte 18 of the line): not a CrystalDiskMark report line");
	/* a '#' line once the report has begun is no note */
	n = 0;
	memcpy(text, row, sizeof(row) - 1);
	n += sizeof(row) - 1;
	memcpy(text + n, "# \x00\n", 4);
	n += 4;
	assert_int_equal(cdm_result_load(text, n, "late.txt", CDM_RESULT_READ_AGGREGATE, &r, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "line 3: a NUL byte (byte 3 of the line): not a CrystalDiskMark report line");
	free(text);
}

static void test_refused(void **state)
{
	size_t len;
	char *text = fixture_text("cdm8-default-nvme-1.txt", &len), *p;

	(void)state;
	refuse("", -EINVAL, "empty file, not a cdm result or a CrystalDiskMark report");
	refuse(" \r\n\n", -EINVAL, "empty file");
	refuse("hello world\n", -EINVAL, "line 1: not a CrystalDiskMark report line: 'hello world'");
	refuse("{ garbage", -EINVAL, "not JSON: line 1");
	refuse("\x7f" "ELF\x02\x01\x01", -EINVAL, "line 1: not a CrystalDiskMark report line: '?ELF?\?\?'");
	refuse("-----------------------------\n\n[Read]\n", -EINVAL, "no result line: not a CrystalDiskMark report");
	refuse("  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n", -EINVAL,
	       "line 1: a result line before [Read], [Write] or [Mix]");
	refuse("[Read]\n  SEQ    1MiB (Q=  0, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n",
	       -EINVAL, "line 2: Q=0 is outside 1..1024");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n",
	       -EINVAL, "line 3: a second SEQ1M Q8T1 Read result (the first is on line 2)");
	/* each footer line once: a second would replace the first's settings unsaid */
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "   Date: 2021/02/03 15:42:37\n   Date: 2020/01/01 1:00:00\n", -EINVAL,
	       "line 4: a second Date: line in the footer");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "   Time: Measure 5 sec / Interval 5 sec\n   Time: Measure 1 sec / Interval 5 sec\n",
	       -EINVAL, "line 4: a second Time: line in the footer");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "   Mode: [Admin]\n   Mode: [Admin] <Verify>\n", -EINVAL,
	       "line 4: a second Mode: line in the footer");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "Comment: a\nComment: b\n", -EINVAL, "line 4: a second Comment: line in the footer");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "Sequential 1MiB (Q=  1, T= 1):  1181.394 MB/s [   1126.7 IOPS] <   887.18 us>\n",
	       -EINVAL, "line 3: a CDM 7 result line among CDM 8 ones");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s\n", -EINVAL,
	       "line 2: not a CrystalDiskMark report line: '  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s'");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "   Date: 2021/02/30 15:42:37\n", -EINVAL, "line 3: no such date: '2021/02/30 15:42:37'");
	/* CDM's form of a Date exactly: every field its digits but the hour, which is unpadded */
	{
		static const char *const dates[] = {
			"2021/06/26 15:42:7", "2021/06/26 15:42:007", "2021/06/26 15:4:37",
			"2021/6/26 15:42:37", "2021/06/6 15:42:37", "21/06/26 15:42:37",
			"2021/06/26 015:42:37", "2021 /06/26 15:42:37", "2021/06/26 15: 42:37",
			"2021/06/2615:42:37",
		};
		for (unsigned int i = 0; i < sizeof(dates) / sizeof(dates[0]); i++) {
			char t[256], want[128];

			snprintf(t, sizeof(t), "%s   Date: %s\n", ROW8, dates[i]);
			snprintf(want, sizeof(want), "line 3: not a CrystalDiskMark footer line: '   Date: %s'",
				 dates[i]);
			refuse(t, -EINVAL, want);
		}
	}
	/* a mangled row of a real report: its line, quoted and cut at 60 bytes */
	p = strstr(text, "  RND    4KiB (Q= 32, T= 1):   428.648 MB/s");
	assert_non_null(p);
	p[36] = 'x';
	refuse(text, -EINVAL, "line 12: not a CrystalDiskMark report line: '  RND    4KiB (Q= 32, T= 1):   428.6x8 MB/s [ 104650.4 IOPS]...'");
	free(text);
	/* a line of 2 KiB */
	text = calloc(1, 4096);
	assert_non_null(text);
	memset(text, 'a', 2048);
	refuse(text, -EINVAL, "line 1: longer than 1024 bytes");
	free(text);
	notes_and_nul();
}

/* older layouts: 5.x and 3.x rows, a Mix section, 0Fill */
static void test_other_layouts(void **state)
{
	static const char cdm5[] =
		"CrystalDiskMark 5.2.1 x64 (C) 2007-2017 hiyohiyo\n"
		"   Sequential Read (Q= 32,T= 1) :   759.442 MB/s\n"
		"  Random Read 4KiB (Q= 32,T= 1) :   259.104 MB/s [ 63257.8 IOPS]\n"
		"         Sequential Read (T= 1) :   532.511 MB/s\n"
		"    Random Read 4KiB (Q= 1,T= 1) :    27.180 MB/s [  6635.7 IOPS]\n"
		"  Test : 1024 MiB [C: 4.1% (30.5/749.4 GiB)] (x4) <0Fill> [Interval=5 sec]\n"
		"    OS : Windows 10 Professional [10.0 Build 14393] (x64)\n"
		"  my comment\n";
	static const char cdm3[] =
		"* MB/s = 1,000,000 byte/s [SATA/300 = 300,000,000 byte/s]\n"
		"           Sequential Read :   505.474 MB/s\n"
		"         Random Read 512KB :   435.024 MB/s\n"
		"   Random Write 4KB (QD=32) :   230.812 MB/s [ 56350.5 IOPS]\n"
		"  Test : 1000 MB [C: 36.4% (43.3/119.1 GB)] (x5)\n";
	/* in a Markdown code fence; a Mode mark of a later CDM is skipped */
	static const char mix[] =
		"```text\n"
		"CrystalDiskMark 8.0.4 x64 (UWP) (C) 2007-2021 hiyohiyo\n"
		"[Read]\n  SEQ    1MiB (Q=  8, T= 1):  7427.749 MB/s [   7083.7 IOPS] <   987.81 us>\n"
		"[Mix] Read 70%/Write 30%\n  SEQ    1MiB (Q=  8, T= 1):  3001.500 MB/s [   2862.5 IOPS] <  2794.10 us>\n"
		"   Mode: [Admin] <0Fill> <Some Later Mark>\n"
		"```\n";
	/* a CDM 6 report in a fence: the fence after OS is no comment */
	static const char cdm6_fenced[] =
		"```\n"
		"   Sequential Read (Q= 32,T= 1) :    91.559 MB/s\n"
		"    OS : Windows 10  [10.0 Build 14393] (x64)\n"
		"```\n";
	struct cdm_run_result *r;
	char name[64];

	(void)state;
	r = read_ok(cdm5, strlen(cdm5), "c5.txt");
	assert_int_equal(r->ntests, 4);
	assert_int_equal(r->info.source.layout, 5);
	assert_int_equal(r->tests[0].spec.block, 128 * 1024);
	assert_int_equal(r->tests[2].spec.block, MIB);
	assert_int_equal(r->tests[2].spec.qd, 1);
	assert_true(r->tests[3].reported.iops == 6635.7);
	assert_int_equal(r->info.zero_fill, 1);
	assert_true(cdm_result_known(&r->info, CDM_INFO_DATA));
	assert_false(cdm_result_known(&r->info, CDM_INFO_ADMIN));      /* 5.x prints none */
	assert_int_equal(r->info.count, 4);
	assert_string_equal(r->info.comment, "my comment");
	assert_string_equal(r->info.os, "Windows 10 Professional");
	cdm_result_free(r);

	r = read_ok(cdm3, strlen(cdm3), "c3.txt");
	assert_int_equal(r->ntests, 3);
	assert_int_equal(r->info.source.layout, 3);
	cdm_spec_name(&r->tests[1].spec, name, sizeof(name));
	assert_string_equal(name, "RND512K Q1T1");
	cdm_spec_name(&r->tests[2].spec, name, sizeof(name));
	assert_string_equal(name, "RND4K Q32T1");
	assert_int_equal(r->tests[2].dir, CDM_DIR_WRITE);
	assert_int_equal(r->info.size, 1000 * MIB);
	/* the volume's GB is not one of CDM's units later: kept as text only */
	assert_string_equal(r->info.source.volume, "C: 36.4% (43.3/119.1 GB)");
	assert_int_equal(r->info.fs_total_bytes, 0);
	cdm_result_free(r);

	r = read_ok(mix, strlen(mix), "m.txt");
	assert_string_equal(r->info.source.edition, "x64 (UWP)");
	assert_int_equal(r->ntests, 2);
	assert_int_equal(r->tests[1].dir, CDM_DIR_MIX);
	assert_int_equal(r->tests[1].spec.write_pct, 30);
	assert_int_equal(r->tests[1].parts_unknown, 1);
	cdm_spec_name(&r->tests[1].spec, name, sizeof(name));
	assert_string_equal(name, "SEQ1M Q8T1 W30");
	assert_int_equal(r->info.admin, 1);
	assert_int_equal(r->info.zero_fill, 1);
	assert_true(cdm_result_known(&r->info, CDM_INFO_ADMIN));
	assert_true(cdm_result_known(&r->info, CDM_INFO_DATA));
	cdm_result_free(r);
	/* a Mode line without marks states both: not admin, random data */
	r = read_ok(ROW8 "   Mode:\n", strlen(ROW8 "   Mode:\n"), "m.txt");
	assert_true(cdm_result_known(&r->info, CDM_INFO_ADMIN));
	assert_true(cdm_result_known(&r->info, CDM_INFO_DATA));
	assert_int_equal(r->info.admin, 0);
	assert_int_equal(r->info.zero_fill, 0);
	cdm_result_free(r);

	r = read_ok(cdm6_fenced, strlen(cdm6_fenced), "f.txt");
	assert_string_equal(r->info.comment, "");
	assert_string_equal(r->info.label, "f");
	cdm_result_free(r);
}

/* a report's test: its figures under best, none (NaN, a reason) under median and mean */
static void test_figures(void **state)
{
	size_t len;
	char *text = fixture_text("cdm6-default-sdcard-1.txt", &len);
	struct cdm_run_result *r = read_ok(text, len, "a.txt");
	const struct cdm_test_result *seq = &r->tests[0], *rnd = &r->tests[2];
	double v;

	(void)state;
	assert_int_equal(cdm_result_state(seq), CDM_PASS_MEASURED);
	assert_true(cdm_result_has_data(seq));
	assert_int_equal(cdm_result_measured(seq), 0);
	assert_true(cdm_result_mb_s(seq, CDM_AGG_BEST) == 91.559);
	/* CDM 6 prints no IOPS on a sequential row: CDM's own MB/s x 1e6 / block */
	assert_true(seq->reported.iops != seq->reported.iops);
	v = cdm_result_iops(seq, CDM_AGG_BEST);
	assert_true(v == 91.559 * 1e6 / 131072.0);
	assert_true(cdm_result_iops(rnd, CDM_AGG_BEST) == 1926.8);
	/* no latency in CDM 6: no figure, never 0 */
	v = cdm_result_lat_us(rnd, CDM_AGG_BEST);
	assert_true(v != v);
	for (int agg = CDM_AGG_MEDIAN; agg <= CDM_AGG_MEAN; agg++) {
		v = cdm_result_mb_s(rnd, (enum cdm_aggregate)agg);
		assert_true(v != v);
		v = cdm_result_iops(rnd, (enum cdm_aggregate)agg);
		assert_true(v != v);
		v = cdm_compare_figure(rnd, (enum cdm_aggregate)agg, CDM_COMPARE_MB_S);
		assert_true(v != v);
		assert_non_null(cdm_result_agg_reason(rnd, (enum cdm_aggregate)agg));
	}
	assert_null(cdm_result_agg_reason(rnd, CDM_AGG_BEST));
	assert_false(cdm_result_has_percentiles(rnd));
	assert_false(cdm_result_unstable(rnd, 0.0, NULL));
	cdm_result_free(r);
	free(text);
}

/* the JSON of `cdm import --save`, read back: the same figures and source */
static void test_json_round_trip(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < NFIX; i++) {
		size_t len, jlen = 0;
		char *text = fixture_text(fixtures[i].file, &len), *json = NULL;
		struct cdm_run_result *a = read_ok(text, len, fixtures[i].file), *b = NULL;
		struct cdm_err err = { "" };
		FILE *f = open_memstream(&json, &jlen);

		assert_non_null(f);
		assert_int_equal(cdm_report_find("json")->write(f, a), 0);
		fclose(f);
		assert_non_null(strstr(json, "\"schema_version\": 3,"));
		assert_non_null(strstr(json, "\"kind\": \"crystaldiskmark\""));
		assert_non_null(strstr(json, "\"passes\": []"));
		/* cdm's own bar for "unstable", and the verdict: no passes to judge */
		assert_non_null(strstr(json, "\"cv_threshold_pct\": null\n"));
		assert_non_null(strstr(json, "\"unstable\": null,"));
		assert_null(strstr(json, "\"unstable\": false"));
		/* nothing looked under the report's target: not "nothing found" ([]) */
		assert_non_null(strstr(json, "\"memory_under\": null\n"));
		/* a report without its Date states no start (the partial one) */
		assert_int_equal(strstr(json, "\"start_unix\": null,") != NULL, !fixtures[i].date[0]);
		if (cdm_result_load(json, jlen, "x.json", CDM_RESULT_READ_AGGREGATE, &b, &err))
			fail_msg("%s: %s", fixtures[i].file, err.msg);
		assert_same(a, b);
		assert_true(b->cv_threshold_pct == CDM_CV_THRESHOLD_DEFAULT);
		check_footer(b, &fixtures[i]);
		check_figures(text, b, fixtures[i].file);
		cdm_result_free(b);
		/* a file that states them (an older cdm wrote false and 10 there): read as it says */
		{
			char *p;

			if ((p = strstr(json, "\"admin\": null")))
				memcpy(p, "\"admin\": true", 13);
			p = strstr(json, "\"cv_threshold_pct\": null");
			assert_non_null(p);
			memcpy(p, "\"cv_threshold_pct\":   20", 24);
			if (cdm_result_load(json, jlen, "x.json", CDM_RESULT_READ_AGGREGATE, &b, &err))
				fail_msg("%s, old: %s", fixtures[i].file, err.msg);
			assert_true(b->info.source.has_admin && b->info.admin);
			assert_true(b->cv_threshold_pct == 20.0);
			cdm_result_free(b);
		}
		cdm_result_free(a);
		free(json);
		free(text);
	}
}

/*
 * a report cut before its footer (no Profile, Test or Date line) is read,
 * and says so: source.no_footer; any of those lines is a footer
 */
static void test_no_footer(void **state)
{
	static const char *const with[] = { "Profile: Default\n", "   Test: 1 GiB (x5)\n",
					     "   Date: 2021/06/26 15:42:37\n" };
	static const char *const without[] = { "", "\n\n", "   Mode: [Admin]\n",
						"     OS: Windows 10  [10.0 Build 19042] (x64)\n" };
	char text[512];
	struct cdm_run_result *r;

	(void)state;
	for (unsigned int i = 0; i < sizeof(with) / sizeof(with[0]); i++) {
		snprintf(text, sizeof(text), ROW8 "%s", with[i]);
		r = read_ok(text, strlen(text), "f.txt");
		assert_int_equal(r->info.source.no_footer, 0);
		cdm_result_free(r);
	}
	for (unsigned int i = 0; i < sizeof(without) / sizeof(without[0]); i++) {
		snprintf(text, sizeof(text), "---------------------------------\n" ROW8 "%s", without[i]);
		r = read_ok(text, strlen(text), "f.txt");
		assert_int_equal(r->info.source.no_footer, 1);
		assert_int_equal(r->ntests, 1);
		assert_true(r->tests[0].reported.mb_s == 804.157);
		cdm_result_free(r);
	}
}

/* a report cut before its footer: its JSON states no start, count or passes asked for */
static void test_json_cut(void **state)
{
	struct cdm_run_result *a = read_ok(ROW8, strlen(ROW8), "cut.txt"), *b = NULL;
	struct cdm_err err = { "" };
	size_t jlen;
	char *json;

	(void)state;
	json = render(a, "json", &jlen);
	assert_non_null(strstr(json, "\"start_unix\": null,"));
	assert_non_null(strstr(json, "\"count\": null,"));
	assert_non_null(strstr(json, "\"passes_requested\": null,"));
	assert_non_null(strstr(json, "\"size_bytes\": null,"));
	assert_non_null(strstr(json, "\"data\": null,"));
	assert_non_null(strstr(json, "\"admin\": null\n"));
	if (cdm_result_load(json, jlen, "x.json", CDM_RESULT_READ_AGGREGATE, &b, &err))
		fail_msg("%s", err.msg);
	assert_same(a, b);
	assert_false(cdm_result_known(&b->info, CDM_INFO_DATE));
	assert_false(cdm_result_known(&b->info, CDM_INFO_COUNT));
	cdm_result_free(a);
	cdm_result_free(b);
	free(json);
}

/*
 * cdm_result_known(): what each report states, by the hand-written table;
 * never an engine, a warm-up or the machine's CPU, memory and device; and
 * a run cdm measured states everything, its zeros too
 */
static void test_known(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < NFIX; i++) {
		const struct expect *e = &fixtures[i];
		size_t len;
		char *text = fixture_text(e->file, &len);
		struct cdm_run_result *r = read_ok(text, len, e->file);
		const struct cdm_run_info *in = &r->info;

		assert_true(cdm_result_imported(in));
		assert_int_equal(cdm_result_known(in, CDM_INFO_PROFILE), e->profile[0] != '\0');
		assert_int_equal(cdm_result_known(in, CDM_INFO_SIZE), e->size != 0);
		assert_int_equal(cdm_result_known(in, CDM_INFO_COUNT), e->count != 0);
		assert_int_equal(cdm_result_known(in, CDM_INFO_TIME), e->time != 0);
		assert_int_equal(cdm_result_known(in, CDM_INFO_INTERVAL), e->has_interval);
		assert_int_equal(cdm_result_known(in, CDM_INFO_DATE), e->date[0] != '\0');
		assert_int_equal(cdm_result_known(in, CDM_INFO_OS), e->os[0] != '\0');
		assert_int_equal(cdm_result_known(in, CDM_INFO_VOLUME), e->volume[0] != '\0');
		assert_int_equal(cdm_result_known(in, CDM_INFO_ADMIN), e->says_admin);
		assert_int_equal(cdm_result_known(in, CDM_INFO_DATA), e->says_data);
		assert_int_equal(cdm_compare_known(r, cdm_settings_find("data")), e->says_data);
		assert_false(cdm_result_known(in, CDM_INFO_WARMUP));
		assert_false(cdm_result_known(in, CDM_INFO_ENGINE));
		assert_false(cdm_result_known(in, CDM_INFO_HOST));
		/* compare's rule is this one */
		assert_int_equal(cdm_compare_known(r, cdm_settings_find("time_s")), e->time != 0);
		assert_false(cdm_compare_known(r, cdm_settings_find("engine")));
		cdm_result_free(r);
		free(text);
	}
	{
		struct cdm_run_result *r = cdm_result_alloc(1);

		assert_non_null(r);
		assert_false(cdm_result_imported(&r->info));
		for (int item = CDM_INFO_PROFILE; item <= CDM_INFO_HOST; item++)
			assert_true(cdm_result_known(&r->info, (enum cdm_info_item)item));
		cdm_result_free(r);
	}
}

/* compare's cells for a report: best figures, "best only", "not in report", no parts */
static void test_compare_cells(void **state)
{
	size_t l6, l8;
	char *t6 = fixture_text("cdm6-default-sdcard-1.txt", &l6);
	char *t8 = fixture_text("cdm8-default-nvme-1.txt", &l8);
	struct cdm_run_result *runs[2];
	struct cdm_compare c;
	struct cdm_compare_cell cell;
	struct cdm_err err;
	unsigned int row;

	(void)state;
	runs[0] = read_ok(t8, l8, "a.txt");
	runs[1] = read_ok(t6, l6, "b.txt");
	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_MB_S, &err), 0);
	assert_true(cdm_compare_differs(&c, &cdm_compare_tests));
	/* CDM 6 prints none, but its Measure was a fixed 5 s, as CDM 8's here */
	assert_false(cdm_compare_differs(&c, cdm_settings_find("time_s")));
	assert_false(cdm_compare_differs(&c, cdm_settings_find("engine")));
	assert_true(cdm_compare_known(runs[1], cdm_settings_find("time_s")));
	assert_int_equal(runs[1]->info.time_ms, 5000);
	/* RND4K Q32T1 and RND4K Q1T1, Read and Write */
	assert_int_equal(cdm_compare_common(&c, 1), 4);
	for (row = 0; row < c.nrows; row++) {
		char name[64];

		cdm_spec_name(&c.rows[row].key->spec, name, sizeof(name));
		if (!strcmp(name, "RND4K Q1T1") && c.rows[row].key->dir == CDM_DIR_READ)
			break;
	}
	assert_true(row < c.nrows);
	cdm_compare_cell(&c, row, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_MEASURED);
	assert_true(cell.value == 5.297);
	assert_true(cell.has_ratio);
	assert_true(cell.ratio == 5.297 / 49.699);
	cdm_compare_free(&c);

	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_BEST, CDM_COMPARE_LAT, &err), 0);
	cdm_compare_cell(&c, row, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_NOT_REPORTED);
	assert_false(cell.has_ratio);
	cdm_compare_cell(&c, row, 0, &cell);
	assert_true(cell.value == 82.19);
	cdm_compare_free(&c);

	assert_int_equal(cdm_compare_init(&c, runs, 2, CDM_AGG_MEDIAN, CDM_COMPARE_MB_S, &err), 0);
	cdm_compare_cell(&c, row, 1, &cell);
	assert_int_equal(cell.state, CDM_COMPARE_BEST_ONLY);
	assert_true(cell.value == 0.0 && !cell.has_ratio);
	cdm_compare_free(&c);
	cdm_result_free(runs[0]);
	cdm_result_free(runs[1]);
	free(t6);
	free(t8);
}

/* ---- blanks, absurd values, encodings, cdm's own text (findings M1-M4) ---- */

/*
 * @text with every space as one of @with (a tab, a no-break space), each
 * in turn (a list of one: every space the same), in a new buffer
 */
static char *spaces_as(const char *text, size_t len, const char *with, size_t *olen)
{
	size_t n = 0, k = 0, nw = strlen(with);
	char *o = malloc(len * 3 + 1);

	assert_non_null(o);
	for (size_t i = 0; i < len; i++) {
		if (text[i] == ' ') {
			/* @with: blanks separated by '|' */
			size_t b = k, e;

			while (b < nw && with[b] == '|')
				b++;
			if (b >= nw)
				b = 0;
			e = b + strcspn(with + b, "|");
			memcpy(o + n, with + b, e - b);
			n += e - b;
			k = e;
		} else {
			o[n++] = text[i];
		}
	}
	o[n] = '\0';
	*olen = n;
	return o;
}

/*
 * M1: a tab or a no-break space (U+00A0 as web pages have it; U+2007 and
 * U+202F too) is a blank wherever a space is, and a line refused with
 * such bytes in it shows them
 */
static void test_blanks(void **state)
{
	static const char *const with[] = { "\t", "\xc2\xa0", "\xe2\x80\xaf", " |\t|\xc2\xa0|\xe2\x80\x87" };

	(void)state;
	for (unsigned int i = 0; i < NFIX; i++) {
		size_t len, vlen;
		char *text = fixture_text(fixtures[i].file, &len);
		struct cdm_run_result *base = read_ok(text, len, fixtures[i].file), *r;

		for (unsigned int k = 0; k < sizeof(with) / sizeof(with[0]); k++) {
			char *v = spaces_as(text, len, with[k], &vlen);

			r = read_ok(v, vlen, fixtures[i].file);
			assert_same(base, r);
			check_footer(r, &fixtures[i]);
			cdm_result_free(r);
			free(v);
		}
		cdm_result_free(base);
		free(text);
	}
	refuse("[Read]\n\tSEQ\xc2\xa0" "1MiB (Q=  8, T= 1):   804.157 MiB/s\n", -EINVAL,
	       "line 2: not a CrystalDiskMark report line: '\\tSEQ\\u00a01MiB (Q=  8, T= 1):   804.157 MiB/s'");
	refuse("[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402.77 us>\n"
	       "   Date:\xc2\xa0" "2021/06/26\t15h42\n", -EINVAL,
	       "line 3: not a CrystalDiskMark footer line: '   Date:\\u00a02021/06/26\\t15h42'");
}

/* M2: values no CrystalDiskMark prints are refused, naming the line */
static void test_absurd(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "[Read]\n  SEQ    1MiB (Q=  8, T= 1): 99999999999999999999999999999999999.000 MB/s [    766.9 IOPS] < 10402.77 us>\n",
		  "line 2: a figure of 35 digits before the point, '99999999999999999999999999999999999.000': no CrystalDiskMark report prints one" },
		{ "[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [ 12345678901.0 IOPS] < 10402.77 us>\n",
		  "line 2: a figure of 11 digits before the point" },
		{ "[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] < 10402123456.77 us>\n",
		  "line 2: a figure of 11 digits before the point" },
		{ "   Sequential Read (Q= 32,T= 1) : 99999999999999999999.000 MB/s\n",
		  "line 1: a figure of 20 digits before the point" },
		{ ROW8 "   Test: 1 GiB (x0) [G: 0% (0/1863GiB)]\n", "line 3: (x0): a count outside 1..100" },
		{ ROW8 "   Test: 1 GiB (x101) [G: 0% (0/1863GiB)]\n", "line 3: (x101): a count outside 1..100" },
		{ ROW8 "   Test: 0 GiB (x5) [G: 0% (0/1863GiB)]\n", "line 3: a test size of 0 GiB is outside 512 B..1 PiB" },
		{ ROW8 "   Test: 1073741824 GiB (x5)\n", "line 3: a test size of 1073741824 GiB is outside 512 B..1 PiB" },
		{ ROW8 "   Test: 1025 TiB (x5)\n", "line 3: a test size of 1025 TiB is outside 512 B..1 PiB" },
		{ ROW8 "   Time: Measure 0 sec / Interval 5 sec\n", "line 3: Measure 0 sec is outside 0.1..3600 sec" },
		{ ROW8 "   Time: Measure 0.05 sec / Interval 5 sec\n",
		  "line 3: Measure 0.05 sec is outside 0.1..3600 sec" },
		{ ROW8 "   Time: Measure 99999999999999999999 sec / Interval 5 sec\n",
		  "line 3: Measure 99999999999999999999 sec is outside 0.1..3600 sec" },
		/* CrystalDiskMark's settings are whole seconds: a fraction under its product line is not its */
		{ CDM8 ROW8 "   Time: Measure 0.5 sec / Interval 5 sec\n",
		  "line 4: Measure 0.5 sec: CrystalDiskMark prints whole seconds" },
		{ CDM8 ROW8 "   Time: Measure 5 sec / Interval 1.5 sec\n",
		  "line 4: Interval 1.5 sec: CrystalDiskMark prints whole seconds" },
		{ "CrystalDiskMark 7.0.0 x64 (C) 2007-2019 hiyohiyo\n" ROW8
		  "   Test: 1 GiB (x5) [Interval: 0.5 sec] <DefaultAffinity=DISABLED>\n",
		  "line 4: Interval 0.5 sec: CrystalDiskMark prints whole seconds" },
		{ ROW8 "   Time: Measure 5 sec / Interval 3601 sec\n", "line 3: Interval 3601 sec is outside 0..3600 sec" },
		{ ROW8 "   Test: 1 GiB (x5) [Interval: 99999 sec] <DefaultAffinity=DISABLED>\n",
		  "line 3: Interval 99999 sec is outside 0..3600 sec" },
		{ ROW8 "   Date: 2021/02/29 15:42:37\n", "line 3: no such date: '2021/02/29 15:42:37'" },
		{ ROW8 "   Date: 2100/02/29 15:42:37\n", "line 3: no such date: '2100/02/29 15:42:37'" },
		{ ROW8 "   Date: 2021/06/26 15:42:60\n", "line 3: no such date: '2021/06/26 15:42:60'" },
		{ ROW8 "   Date: 9999/12/31 23:59:60\n", "line 3: no such date: '9999/12/31 23:59:60'" },
		{ ROW8 "   Date: 2021/06/26 24:00:00\n", "line 3: no such date: '2021/06/26 24:00:00'" },
		{ ROW8 "   Date: 1969/12/31 23:59:59\n", "line 3: no such date: '1969/12/31 23:59:59'" },
	};
	static const struct {
		const char *date;
		long long t;
	} good[] = {
		{ "2020/02/29 0:00:00", 1582934400LL },      /* a leap year */
		{ "2000/02/29 12:00:00", 951825600LL },      /* a leap year though a century */
		{ "9999/12/31 23:59:59", 253402300799LL },
		{ "1970/01/01 0:00:00", 0LL },
	};
	struct cdm_run_result *r;
	char text[512];

	(void)state;
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refuse(bad[i].text, -EINVAL, bad[i].msg);
	for (unsigned int i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text), ROW8 "   Date: %s\n", good[i].date);
		r = read_ok(text, strlen(text), "d.txt");
		assert_int_equal((long long)r->info.start, good[i].t);
		assert_string_equal(r->info.source.date_text, good[i].date);
		cdm_result_free(r);
	}
	/* the widest figures that are CDM's: 10 digits before the point */
	snprintf(text, sizeof(text), "[Read]\n  SEQ    1MiB (Q=  8, T= 1): 9999999999.999 MB/s [9999999999.9 IOPS] <9999999999.99 us>\n"
		 "   Test: 1024 TiB (x100)\n   Time: Measure 3600 sec / Interval 3600 sec\n");
	r = read_ok(text, strlen(text), "w.txt");
	assert_true(r->tests[0].reported.mb_s == 9999999999.999);
	assert_true(r->tests[0].reported.lat_us == 9999999999.99);
	assert_int_equal(r->info.size, 1024ull * 1024 * GIB);
	assert_int_equal(r->info.count, 100);
	assert_int_equal(r->info.time_ms, 3600000);
	cdm_result_free(r);
}

/*
 * cdm's own text prints a fraction of a second with its decimals: read
 * back exactly, under cdm's product line or none (a trimmed text); the
 * text of a whole second, CDM's, reads as ever
 */
static void test_fractions(void **state)
{
	static const struct {
		const char *text;
		unsigned int time_ms, interval_ms;
	} cases[] = {
		{ ROW8 "   Time: Measure 0.5 sec / Interval 1.25 sec \n", 500, 1250 },
		{ ROW8 "   Time: Measure 0.1 sec / Interval 0.001 sec\n", 100, 1 },
		{ ROW8 "   Time: Measure 3600 sec / Interval 0 sec\n", 3600000, 0 },
		{ "cdm 0.1.0 x86_64 (null, O_DIRECT)\n" ROW8 "   Time: Measure 0.2 sec / Interval 0 sec\n",
		  200, 0 },
		{ CDM8 ROW8 "   Time: Measure 5 sec / Interval 5 sec \n", 5000, 5000 },
		/* cdm's CDM 7 layout: the Interval on the Test line, the time as a mark */
		{ "cdm 0.1.0 x86_64 (null, O_DIRECT)\n"
		  "[Read]\nSequential 1MiB (Q=  8, T= 1):  1772.483 MB/s [   1690.4 IOPS] <  4724.85 us>\n"
		  "   Test: 16 MiB (x1) [Interval: 0.5 sec] <Measure 0.25 sec>\n", 250, 500 },
	};

	(void)state;
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_run_result *r = read_ok(cases[i].text, strlen(cases[i].text), "f.txt");

		if (r->info.time_ms != cases[i].time_ms || r->info.interval_ms != cases[i].interval_ms)
			fail_msg("case %u: Measure %u ms, Interval %u ms; want %u, %u", i,
				 r->info.time_ms, r->info.interval_ms, cases[i].time_ms,
				 cases[i].interval_ms);
		assert_true(r->info.source.has_interval);
		cdm_result_free(r);
	}
}

/*
 * A run of fractions of a second in each CDM layout: the cdm layout's
 * Time line says "Measure 0.5 sec / Interval 1.5 sec", CDM 7's and 6's
 * Interval and <Measure> mark the same; each reads back to the same ms
 */
static void test_fractions_text(void **state)
{
	static const struct {
		const char *fmt, *line;
	} fmts[] = {
		{ "cdm", "   Time: Measure 0.5 sec / Interval 1.5 sec \n" },
		{ "cdm7", " [Interval: 1.5 sec]" },
		{ "cdm6", " [Interval=1.5 sec]" },
	};
	struct cdm_run_result *r = unit_hold_run();

	(void)state;
	r->info.time_ms = 500;
	r->info.interval_ms = 1500;
	for (unsigned int k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
		size_t len;
		char *t = render(r, fmts[k].fmt, &len);
		struct cdm_run_result *b = read_ok(t, len, "frac.txt");

		if (!strstr(t, fmts[k].line))
			fail_msg("%s: no '%s' in\n%s", fmts[k].fmt, fmts[k].line, t);
		assert_int_equal(strstr(t, " <Measure 0.5 sec>") != NULL, k > 0);
		assert_int_equal(b->info.time_ms, 500);
		assert_int_equal(b->info.interval_ms, 1500);
		cdm_result_free(b);
		free(t);
	}
	cdm_result_free(r);
}

/*
 * CDM 6 and 7 print no Measure time: theirs was a fixed 5 s (DiskBench.cpp
 * of 6.0.1 and 7.0.0..7.0.0h run DiskSpd with -d5), so their reports read
 * as 5 s by their product line; 5.x (not checked), a report without its
 * product line and CDM 8 without its Time line state none
 */
static void test_measure(void **state)
{
	static const struct {
		const char *head;
		unsigned int time_ms;
	} cases[] = {
		{ "CrystalDiskMark 7.0.0h x64 (C) 2007-2020 hiyohiyo\n", 5000 },
		{ "CrystalDiskMark 6.0.2 x64 (C) 2007-2018 hiyohiyo\n", 5000 },
		{ "CrystalDiskMark 5.2.1 x64 (C) 2007-2017 hiyohiyo\n", 0 },
		{ "CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo\n", 0 },
		{ "", 0 },
		/* cdm's text of an imported CDM 7 report: whose figures, its origin says */
		{ "cdm 0.1.0: a CrystalDiskMark 7.0.0 x64 report, imported\n", 5000 },
		{ "cdm 0.1.0: a CrystalDiskMark 8.0.1 x64 report, imported\n", 0 },
	};
	static const char rows7[] =
		"[Read]\nSequential 1MiB (Q=  8, T= 1):  1772.483 MB/s [   1690.4 IOPS] <  4724.85 us>\n";
	char text[512];

	(void)state;
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdm_run_result *r;

		snprintf(text, sizeof(text), "%s%s", cases[i].head, rows7);
		r = read_ok(text, strlen(text), "m.txt");
		if (r->info.time_ms != cases[i].time_ms)
			fail_msg("'%s': Measure %u ms, want %u", cases[i].head, r->info.time_ms,
				 cases[i].time_ms);
		assert_int_equal(cdm_result_known(&r->info, CDM_INFO_TIME), cases[i].time_ms != 0);
		cdm_result_free(r);
	}
}

/*
 * Notes before a report: lines that begin with '#' (and blank lines among
 * them) before its first line are skipped, quoted or not; a '#' line after
 * the report began is refused, naming it; CDM 6's comment line may begin
 * with '#'
 */
static void test_notes(void **state)
{
	static const char notes[] =
		"# source: a colleague's mail\n\n  # saved 2021-06-26\n\n> # quoted too\n" ROW8;
	static const char cdm6[] =
		"# a note\n   Sequential Read (Q= 32,T= 1) :    91.559 MB/s\n"
		"    OS : Windows 10  [10.0 Build 14393] (x64)\n  # my SD card\n";
	struct cdm_run_result *r;

	(void)state;
	r = read_ok(notes, strlen(notes), "n.txt");
	assert_int_equal(r->ntests, 1);
	assert_true(r->tests[0].reported.mb_s == 804.157);
	cdm_result_free(r);
	r = read_ok(cdm6, strlen(cdm6), "n.txt");
	assert_string_equal(r->info.comment, "# my SD card");
	cdm_result_free(r);
	refuse("# a note\n" ROW8 "# a late note\n", -EINVAL,
	       "line 4: not a CrystalDiskMark report line: '# a late note'");
	refuse("-----------------------------\n# after the rule\n" ROW8, -EINVAL,
	       "line 2: not a CrystalDiskMark report line: '# after the rule'");
	refuse("# only a note\n\n", -EINVAL, "no result line: not a CrystalDiskMark report");
}

/* M3: UTF-16 without its BOM is named; CR-only line ends (old Mac) are read */
static void test_encodings(void **state)
{
	size_t len, vlen;
	char *text = fixture_text("cdm7-default-nvme-1.txt", &len), *v, *p;
	struct cdm_run_result *base = read_ok(text, len, "a.txt"), *r;
	struct cdm_err err = { "" };

	(void)state;
	v = to_utf16le(text, len, &vlen);
	r = (struct cdm_run_result *)1;
	assert_int_equal(cdm_cdm_read(v + 2, vlen - 2, "a.txt", &r, &err), -EINVAL);
	assert_null(r);
	assert_string_equal(err.msg, "UTF-16LE without a byte order mark: save the report as UTF-8, or as UTF-16 with its byte order mark (as CrystalDiskMark saves it)");
	/* big-endian: the same bytes one later */
	assert_int_equal(cdm_cdm_read(v + 3, vlen - 3, "a.txt", &r, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "UTF-16BE without a byte order mark"));
	free(v);
	/* CR-only line ends */
	v = strdup(text);
	assert_non_null(v);
	for (p = v; *p; p++)
		if (*p == '\n')
			*p = '\r';
	r = read_ok(v, len, "a.txt");
	assert_same(base, r);
	cdm_result_free(r);
	free(v);
	cdm_result_free(base);
	free(text);
}

/* is the figure @b read back from a text that printed @a (or a dash for NaN)? */
static void same_figure(double a, double b, int shown, const char *what)
{
	if (!shown || a != a) {
		if (b == b && shown)
			fail_msg("%s: %.17g read where none was printed", what, b);
		return;
	}
	if (!(a == b))
		fail_msg("%s: %.17g printed, %.17g read back", what, a, b);
}

/*
 * M4: cdm's own text reports (--format cdm, cdm7, cdm6) of every imported
 * fixture are read back: figures equal to the text, the footer's settings,
 * and a source that says it is cdm's text, its layout and its version
 */
static void test_cdm_text(void **state)
{
	static const struct {
		const char *fmt;
		unsigned int layout;
	} fmts[] = { { "cdm", 8 }, { "cdm7", 7 }, { "cdm6", 6 } };

	(void)state;
	for (unsigned int i = 0; i < NFIX; i++) {
		size_t len, tlen;
		char *text = fixture_text(fixtures[i].file, &len);
		struct cdm_run_result *a = read_ok(text, len, fixtures[i].file);

		for (unsigned int k = 0; k < 3; k++) {
			char *t = render(a, fmts[k].fmt, &tlen), want[160];
			struct cdm_run_result *b = read_ok(t, tlen, fixtures[i].file);
			const struct cdm_run_info *x = &a->info, *y = &b->info;

			assert_int_equal(y->source.kind, CDM_SOURCE_CDM_TEXT);
			assert_true(cdm_result_imported(y));
			assert_int_equal(y->source.layout, fmts[k].layout);
			assert_string_equal(y->source.version, cdm_version());
			snprintf(want, sizeof(want), "CrystalDiskMark%s%s%s%s", x->source.version[0] ? " " : "",
				 x->source.version, x->source.edition[0] ? " " : "", x->source.edition);
			assert_string_equal(y->source.origin, want);
			assert_int_equal(b->ntests, a->ntests);
			for (unsigned int j = 0; j < a->ntests; j++) {
				const struct cdm_test_result *s = &a->tests[j], *u = NULL;
				int rnd = s->spec.pattern == CDM_RND;

				for (unsigned int m = 0; m < b->ntests; m++)
					if (b->tests[m].dir == s->dir && cdm_spec_same(&b->tests[m].spec, &s->spec))
						u = &b->tests[m];
				if (!u)
					fail_msg("%s as %s: a test is lost", fixtures[i].file, fmts[k].fmt);
				same_figure(s->reported.mb_s, u->reported.mb_s, 1, "MB/s");
				/*
				 * CDM 6's layout: IOPS on random rows only, no latency;
				 * the IOPS cdm derives for a report that states none (CDM
				 * 6's sequential rows) read back as none
				 */
				same_figure(s->reported.iops, u->reported.iops, fmts[k].layout > 6 || rnd,
					    "IOPS");
				same_figure(s->reported.lat_us, u->reported.lat_us, fmts[k].layout > 6,
					    "latency");
			}
			assert_int_equal(y->size, x->size);
			assert_int_equal(y->count, x->count);
			assert_int_equal(y->interval_ms, x->interval_ms);
			assert_int_equal(y->source.has_interval, x->source.has_interval);
			assert_int_equal(y->zero_fill, x->zero_fill);
			/*
			 * the text of an imported report prints a mark only when it was
			 * stated: [Admin] (the cdm layout's Mode line) states admin, no
			 * mark states nothing
			 */
			assert_int_equal(y->source.has_admin, fmts[k].layout == 8 && x->admin);
			assert_int_equal(y->source.has_data, x->zero_fill);
			assert_string_equal(y->source.date_text, x->source.date_text);
			assert_int_equal((long long)y->start, (long long)x->start);
			assert_string_equal(y->os, x->os);
			assert_string_equal(y->kernel, x->kernel);
			assert_string_equal(y->machine, x->machine);
			assert_string_equal(y->comment, x->comment);
			if (fmts[k].layout != 6)
				assert_string_equal(y->profile, x->profile);
			/*
			 * the cdm layout prints Measure; the others a <Measure N sec>
			 * mark, but for CDM 6's and 7's fixed 5 s, which the origin
			 * gives: 8.x's 5 s is kept too, an unknown time stays unknown
			 */
			assert_int_equal(y->time_ms, x->time_ms);
			assert_int_equal(cdm_result_known(y, CDM_INFO_TIME), cdm_result_known(x, CDM_INFO_TIME));
			if (fmts[k].layout != 8)
				assert_int_equal(strstr(t, " <Measure 5 sec>") != NULL,
						 x->source.layout >= 8 && x->time_ms == 5000);
			if (fmts[k].layout != 7)
				assert_string_equal(y->source.volume, x->source.volume);
			/* what neither states stays unknown */
			assert_false(cdm_result_known(y, CDM_INFO_ENGINE));
			assert_false(cdm_result_known(y, CDM_INFO_HOST));
			assert_int_equal(cdm_result_known(y, CDM_INFO_DATE), cdm_result_known(x, CDM_INFO_DATE));
			assert_int_equal(cdm_result_known(y, CDM_INFO_OS), cdm_result_known(x, CDM_INFO_OS));
			/* its JSON (cdm import --save) read back: the same, and the same source */
			{
				size_t jlen;
				char *json = render(b, "json", &jlen);
				struct cdm_run_result *c = NULL;
				struct cdm_err err = { "" };

				assert_non_null(strstr(json, "\"kind\": \"cdm_text\""));
				if (cdm_result_load(json, jlen, "x.json", CDM_RESULT_READ_AGGREGATE, &c, &err))
					fail_msg("%s as %s, its JSON: %s", fixtures[i].file, fmts[k].fmt, err.msg);
				assert_same(b, c);
				assert_int_equal(c->info.source.kind, CDM_SOURCE_CDM_TEXT);
				assert_string_equal(c->info.source.origin, y->source.origin);
				assert_string_equal(c->info.source.version, y->source.version);
				cdm_result_free(c);
				free(json);
			}
			/* printed again in its layout, the text again but for the product line */
			{
				size_t ulen;
				char *u = render(b, fmts[k].fmt, &ulen);
				const char *p2 = strchr(t, '\n') + 1, *q2 = strchr(u, '\n') + 1;

				p2 = strchr(p2, '\n');
				q2 = strchr(q2, '\n');
				if (strcmp(p2, q2))
					fail_msg("%s as %s: printed again:\n%s\nwas:\n%s", fixtures[i].file,
						 fmts[k].fmt, u, t);
				free(u);
			}
			cdm_result_free(b);
			free(t);
		}
		cdm_result_free(a);
		free(text);
	}
}

/* M4: the product lines of cdm's text: of a run, of an imported report; its rows' forms */
static void test_cdm_text_lines(void **state)
{
	static const char run6[] =
		"-----------------------------------------------------------------------\n"
		"cdm 0.1.0 x86_64 (io_uring, buffered)\n"
		"                           cdm - disk benchmark for Linux - MIT License\n"
		"-----------------------------------------------------------------------\n"
		"* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
		"* KB = 1000 bytes, KiB = 1024 bytes\n"
		"\n"
		"Sequential Read 1MiB (Q=  8,T= 1) : 38754.320 MB/s\n"
		"   Sequential Read (Q=  1,T= 1) :  4983.882 MB/s\n"
		"  Random Read 4KiB (Q= 32,T= 1) :   618.807 MB/s [ 151076.0 IOPS]\n"
		"Random Mix 4KiB R70/W30 (Q=  1,T= 1) :    19.313 MB/s [   4715.0 IOPS]\n"
		"   Random Read 512B (Q=  1,T= 1) :     1.000 MB/s [   1953.1 IOPS]\n"
		"\n"
		"  Test : 16 MiB [/mnt/x: 6.5% (16.4/252.0 GiB)] (x1) <O_DSYNC> <fdatasync/4> <Rate 100 IOPS> [Interval=0 sec]\n"
		"  Date : 2026/12/01 5:02:49\n"
		"    OS : Debian GNU/Linux 12 (bookworm) [6.1.0-28-amd64] (x86_64)\n"
		"    local - a comment\n";
	static const char imp8[] =
		"cdm 0.1.0: a CrystalDiskMark report, imported\n"
		"                                  cdm - disk benchmark for Linux - MIT License\n"
		"[Read]\n  SEQ    1MiB (Q=  8, T= 1):   804.157 MB/s [    766.9 IOPS] <        - us>\n"
		"  RND    4KiB (Q=  1, T= 1):            nothing measured: no I/O completed\n"
		"Profile: unknown\n"
		"   Test: unknown (xunknown) [G: 0% (0/1863GiB)]\n"
		"   Mode:\n"
		"   Time: Measure unknown / Interval unknown \n"
		"   Date: unknown\n"
		"     OS: unknown\n";
	struct cdm_run_result *r;
	char name[64];

	(void)state;
	r = read_ok(run6, strlen(run6), "x.txt");
	assert_int_equal(r->info.source.kind, CDM_SOURCE_CDM_TEXT);
	assert_int_equal(r->info.source.layout, 6);
	assert_string_equal(r->info.source.version, "0.1.0");
	assert_string_equal(r->info.source.origin, "");
	assert_string_equal(r->info.engine, "io_uring");
	assert_int_equal(r->info.direct, 0);
	assert_int_equal(r->info.time_ms, 5000);        /* no <Measure> mark: cdm's 5 s */
	/* its Test line has the marks (no <0Fill>: random data); no Mode line, no [Admin] */
	assert_true(cdm_result_known(&r->info, CDM_INFO_DATA));
	assert_int_equal(r->info.zero_fill, 0);
	assert_false(cdm_result_known(&r->info, CDM_INFO_ADMIN));
	assert_true(cdm_result_known(&r->info, CDM_INFO_ENGINE));
	assert_true(cdm_result_known(&r->info, CDM_INFO_TIME));
	assert_int_equal(r->info.dsync, 1);
	assert_int_equal(r->info.fsync_every, 4);
	assert_int_equal(r->info.rate_iops, 100);
	assert_string_equal(r->info.target, "/mnt/x");
	assert_string_equal(r->info.comment, "local - a comment");
	assert_int_equal(r->ntests, 5);
	cdm_spec_name(&r->tests[0].spec, name, sizeof(name));
	assert_string_equal(name, "SEQ1M Q8T1");
	/* cdm's CDM 6 layout leaves out only a 128 KiB sequential block, at any Q */
	cdm_spec_name(&r->tests[1].spec, name, sizeof(name));
	assert_string_equal(name, "SEQ128K Q1T1");
	cdm_spec_name(&r->tests[3].spec, name, sizeof(name));
	assert_string_equal(name, "RND4K Q1T1 W30");
	assert_int_equal(r->tests[3].dir, CDM_DIR_MIX);
	assert_true(r->tests[3].reported.iops == 4715.0);
	assert_int_equal(r->tests[4].spec.block, 512);
	cdm_result_free(r);

	r = read_ok(imp8, strlen(imp8), "y.txt");
	assert_int_equal(r->info.source.kind, CDM_SOURCE_CDM_TEXT);
	assert_string_equal(r->info.source.origin, "CrystalDiskMark");
	/* the row that measured nothing has no figure: not a test of the result */
	assert_int_equal(r->ntests, 1);
	assert_true(r->tests[0].reported.lat_us != r->tests[0].reported.lat_us);
	for (int item = CDM_INFO_PROFILE; item <= CDM_INFO_OS; item++)
		assert_false(cdm_result_known(&r->info, (enum cdm_info_item)item));
	assert_true(cdm_result_known(&r->info, CDM_INFO_VOLUME));
	/*
	 * printed again: no "(xunknown)" (its older form above still reads),
	 * and Markdown says it states none of its settings, not "it states ;"
	 */
	{
		static const struct { const char *fmt, *want; } again[] = {
			{ "cdm", "\n   Test: unknown [G: 0% (0/1863GiB)]\n" },
			{ "cdm7", "\n   Test: unknown [Interval: unknown] <DefaultAffinity=DISABLED>\n" },
			{ "cdm6", "\n  Test : unknown [G: 0% (0/1863GiB)]  [Interval=unknown]\n" },
			{ "markdown", "as printed; it states none of its settings (profile, test size, passes, Measure time, Interval, warm-up, engine, test data); figures:" },
			{ "svg", "Test: unknown" },
		};
		for (unsigned int k = 0; k < sizeof(again) / sizeof(again[0]); k++) {
			size_t tlen;
			char *t = render(r, again[k].fmt, &tlen);

			if (!strstr(t, again[k].want))
				fail_msg("as %s: no '%s' in:\n%s", again[k].fmt, again[k].want, t);
			assert_null(strstr(t, "xunknown"));
			assert_null(strstr(t, "states ;"));
			/* the CDM text layouts read back, the count still unknown */
			if (k < 3) {
				struct cdm_run_result *b = read_ok(t, tlen, "again.txt");

				assert_false(cdm_result_known(&b->info, CDM_INFO_COUNT));
				assert_false(cdm_result_known(&b->info, CDM_INFO_SIZE));
				cdm_result_free(b);
			}
			free(t);
		}
	}
	cdm_result_free(r);
}

/* the test @name in direction @dir of @r; fails the test when there is none */
static const struct cdm_test_result *hold_find(const struct cdm_run_result *r, const char *name,
					       enum cdm_dir dir)
{
	char n[64];

	for (unsigned int i = 0; i < r->ntests; i++) {
		cdm_spec_name(&r->tests[i].spec, n, sizeof(n));
		if (r->tests[i].dir == dir && !strcmp(n, name))
			return &r->tests[i];
	}
	fail_msg("no %s %s", name, cdm_result_dir_name(dir));
	return NULL;
}

/*
 * Issue 14: cdm's text of a run with every setting of the method of
 * numbers that hold (unit_hold_run()), in each CDM layout, read back: the
 * Mode marks give the settings, the notes between the rows and the footer
 * give each test's steady verdict, the preconditioning time and the NUMA
 * warning; printed again, the same text but for the product line.  A note
 * that names no row, or says what cdm never prints, is refused.
 */
/*
 * A one-row text report with the lines @notes after its rows and, when
 * @mode is not "", a Mode line "<EndFsync> @mode": refused (-EINVAL) with
 * a message holding @want.
 */
static void hold_refused(const char *notes, const char *mode, const char *want)
{
	static const char head[] =
		"cdm 0.1.0 x86_64 (io_uring, O_DIRECT)\n[Read]\n"
		"  SEQ    1MiB (Q=  8, T= 1):  1478.492 MB/s [   1410.0 IOPS] <  5000.00 us>\n\n";
	char text[512];
	struct cdm_run_result *x = NULL;
	struct cdm_err err = { "" };

	if (mode[0])
		snprintf(text, sizeof(text), "%s%s   Mode: <EndFsync> %s\n", head, notes, mode);
	else
		snprintf(text, sizeof(text), "%s%s", head, notes);
	if (cdm_cdm_read(text, strlen(text), "bad.txt", &x, &err) != -EINVAL)
		fail_msg("read: %s", text);
	if (!strstr(err.msg, want))
		fail_msg("%s: '%s', not '%s'", text, err.msg, want);
}

/*
 * cdm's "EndFsync:" notes: read onto the write row they name, in us, ms
 * or s, the run then known to have had --end-fsync; a note naming a read
 * row, with a share above 100 % or a longest below the mean, refused
 */
static void end_fsync_notes(void)
{
	static const char head[] =
		"cdm 0.1.0 x86_64 (io_uring, O_DIRECT)\n[Read]\n"
		"  SEQ    1MiB (Q=  8, T= 1):  1478.492 MB/s [   1410.0 IOPS] <  5000.00 us>\n\n[Write]\n"
		"  SEQ    1MiB (Q=  8, T= 1):  1258.291 MB/s [   1200.0 IOPS] <  6600.00 us>\n\n";
	static const struct { const char *note; double mean, max, pct; } ok[] = {
		{ "EndFsync: SEQ1M Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 80.1 ms\n",
		  66.8e6, 80.1e6, 3.2 },
		{ "EndFsync: SEQ1M Q8T1 Write 950.5 us per pass (0.02 % of the pass), max 1.2 ms\n",
		  950.5e3, 1.2e6, 0.02 },
		{ "EndFsync:  SEQ1M Q8T1 Write 1.50 s per pass (75.00 % of the pass), max 2.25 s\n",
		  1.5e9, 2.25e9, 75.0 },
	};
	static const char *const bad[] = {
		"EndFsync: SEQ1M Q8T1 Read 66.8 ms per pass (3.20 % of the pass), max 80.1 ms\n",
		"EndFsync: SEQ1M Q8T1 Write 66.8 ms per pass (103.20 % of the pass), max 80.1 ms\n",
		"EndFsync: SEQ1M Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 60.1 ms\n",
		"EndFsync: SEQ1M Q8T1 Write 66.8 ns per pass (3.20 % of the pass), max 80.1 ms\n",
		"EndFsync: SEQ1M Q8T1 Write 66.8 ms per pass, max 80.1 ms\n",
		/* one note per test: a second names no row left */
		"EndFsync: SEQ1M Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 80.1 ms\n"
		"EndFsync: SEQ1M Q8T1 Write 66.8 ms per pass (3.20 % of the pass), max 80.1 ms\n",
	};
	char text[1024];

	for (unsigned int i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct cdm_run_result *x;
		const struct cdm_test_result *w;

		snprintf(text, sizeof(text), "%s%s", head, ok[i].note);
		x = read_ok(text, strlen(text), "e.txt");
		w = hold_find(x, "SEQ1M Q8T1", CDM_DIR_WRITE);
		assert_int_equal(x->info.end_fsync, 1);
		assert_int_equal(w->reported.has_end_fsync, 1);
		assert_true(fabs(w->reported.end_fsync.mean_ns - ok[i].mean) < 1e-6 * ok[i].mean + 1e-9);
		assert_true(fabs(w->reported.end_fsync.max_ns - ok[i].max) < 1e-6 * ok[i].max);
		assert_true(w->reported.end_fsync.pass_pct == ok[i].pct);
		assert_int_equal(hold_find(x, "SEQ1M Q8T1", CDM_DIR_READ)->reported.has_end_fsync, 0);
		cdm_result_free(x);
	}
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cdm_run_result *x = NULL;
		struct cdm_err err = { "" };

		snprintf(text, sizeof(text), "%s%s", head, bad[i]);
		if (cdm_cdm_read(text, strlen(text), "bad.txt", &x, &err) != -EINVAL)
			fail_msg("read: %s", text);
		if (!strstr(err.msg, "not a CrystalDiskMark footer line"))
			fail_msg("%s: '%s'", text, err.msg);
	}
}

static void test_hold_text(void **state)
{
	static const char *const fmts[] = { "cdm", "cdm7", "cdm6" };
	struct cdm_run_result *r = unit_hold_run();

	(void)state;
	for (unsigned int k = 0; k < 3; k++) {
		size_t len, ulen;
		char *t = render(r, fmts[k], &len), *u;
		struct cdm_run_result *b = read_ok(t, len, "hold.txt");
		const struct cdm_run_info *y = &b->info;
		const char *p2, *q2;

		assert_non_null(strstr(t, "<EndFsync> <Steady-state max 10> <Precondition> <Verify> <CPUs 0-1>"));
		assert_non_null(strstr(t, "\nSteady: SEQ1M Q8T1 Read at round 7 of 10 (range 1.0 %, slope 0.0 %)\n"));
		assert_non_null(strstr(t, "\nNot steady: RND4K Q32T1 Read after 10 rounds (range 29.4 %, slope 0.0 %)\n"));
		assert_non_null(strstr(t, "\nPrecondition: 41.2 sec (written sequentially twice in 128 KiB blocks)\n"));
		assert_int_equal(y->end_fsync, 1);
		assert_int_equal(y->steady_state, 1);
		assert_int_equal(y->max_rounds, 10);
		assert_int_equal(y->precondition, 1);
		assert_true(y->precondition_ns == 41200000000ull);
		assert_int_equal(y->verify, 1);
		assert_string_equal(y->cpus, "0-1");
		assert_string_equal(y->numa_warning, r->info.numa_warning);
		assert_int_equal(b->ntests, 3);
		/* CDM 6 orders its rows its own way: each test found by name */
		{
			const struct cdm_test_result *s0 = hold_find(b, "SEQ1M Q8T1", CDM_DIR_READ);
			const struct cdm_test_result *s1 = hold_find(b, "RND4K Q32T1", CDM_DIR_READ);
			const struct cdm_test_result *s2 = hold_find(b, "SEQ1M Q8T1", CDM_DIR_WRITE);

			assert_int_equal(s0->steady.on, 1);
			assert_int_equal(s0->steady.reached_at_round, 7);
			assert_int_equal(s0->steady.max_rounds, 10);
			assert_true(s0->steady.range_pct == 1.0);
			assert_int_equal(s1->steady.on, 1);
			assert_int_equal(s1->steady.reached_at_round, 0);
			assert_int_equal(s1->steady.max_rounds, 10);
			assert_true(s1->steady.range_pct == 29.4);
			assert_int_equal(s2->steady.reached_at_round, 5);
			/* the write test's EndFsync note, as printed */
			assert_int_equal(s0->reported.has_end_fsync, 0);
			assert_int_equal(s2->reported.has_end_fsync, 1);
			assert_true(s2->reported.end_fsync.mean_ns == 12.3e6);
			assert_true(s2->reported.end_fsync.max_ns == 12.3e6);
			assert_true(s2->reported.end_fsync.pass_pct == 0.25);
			assert_int_equal(s2->reported.end_fsync.count, 0);
		}
		assert_non_null(strstr(t, "\nEndFsync: SEQ1M Q8T1 Write 12.3 ms per pass (0.25 % of the pass), max 12.3 ms\n"));
		u = render(b, fmts[k], &ulen);
		p2 = strchr(strchr(t, '\n') + 1, '\n');
		q2 = strchr(strchr(u, '\n') + 1, '\n');
		if (strcmp(p2, q2))
			fail_msg("as %s: printed again:\n%s\nwas:\n%s", fmts[k], u, t);
		free(u);
		/* its JSON (cdm import --save) reads back, the verdicts kept */
		{
			size_t jlen;
			char *json = render(b, "json", &jlen);
			struct cdm_run_result *c = NULL;
			struct cdm_err err = { "" };

			if (cdm_result_load(json, jlen, "x.json", CDM_RESULT_READ_AGGREGATE, &c, &err))
				fail_msg("as %s, its JSON: %s", fmts[k], err.msg);
			assert_same(b, c);
			assert_int_equal(hold_find(c, "RND4K Q32T1", CDM_DIR_READ)->steady.on, 1);
			assert_int_equal(hold_find(c, "SEQ1M Q8T1", CDM_DIR_READ)->steady.reached_at_round, 7);
			u = render(c, fmts[k], &ulen);
			q2 = strchr(strchr(u, '\n') + 1, '\n');
			p2 = strchr(strchr(t, '\n') + 1, '\n');
			if (strcmp(p2, q2))
				fail_msg("as %s, through JSON: printed again:\n%s\nwas:\n%s", fmts[k], u, t);
			free(u);
			cdm_result_free(c);
			free(json);
		}
		cdm_result_free(b);
		free(t);
	}
	cdm_result_free(r);

	/* notes cdm never prints: refused by line */
	{
		static const char *const bad[] = {
			"Steady: SEQ1M Q8T1 Write at round 7 of 10 (range 1.0 %, slope 0.0 %)\n",
			"Steady: SEQ1M Q8T1 Read at round 0 of 10 (range 1.0 %, slope 0.0 %)\n",
			"Steady: SEQ1M Q8T1 Read at round 9 of 8 (range 1.0 %, slope 0.0 %)\n",
			/* PTS's earliest verdict is at the first full window, round 5 */
			"Steady: SEQ1M Q8T1 Read at round 3 of 6 (range 1.0 %, slope 0.0 %)\n",
			"Not steady: SEQ1M Q8T1 Read after 0 rounds (no full window of 5 measured rounds)\n",
			"Not steady: SEQ1M Q8T1 Read after 10 rounds (range 1.0 %)\n",
			"Precondition: soon\n",
		};
		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			hold_refused(bad[i], "", "line 5");
	}
	/*
	 * Marks and notes that --max-rounds or --cpus would refuse, or that
	 * contradict each other (the notes come before the Mode line): refused
	 * naming the line, as --max-rounds and --cpus refuse them
	 */
	{
		static const struct { const char *note, *mode, *msg; } bad[] = {
			{ "", "<Steady-state max 0>", "line 5: <Steady-state max 0>: the most rounds is 5..100" },
			{ "", "<Steady-state max -3>", "line 5: <Steady-state max -3>: the most rounds is" },
			{ "", "<Steady-state max 99999999999999999999>", "line 5: <Steady-state max 9999" },
			{ "", "<CPUs 5-1>", "line 5: <CPUs 5-1>: the range 5-1 runs downward" },
			{ "", "<CPUs 0-99999>", "line 5: <CPUs 0-99999>: CPU 99999 is past the highest CPU" },
			{ "Not steady: SEQ1M Q8T1 Read after 7 rounds (range 30.0 %, slope 0.0 %)\n",
			  "<Steady-state max 6>", "line 5: 7 rounds, but the Mode line says <Steady-state max 6>" },
			{ "Steady: SEQ1M Q8T1 Read at round 5 of 7 (range 1.0 %, slope 0.0 %)\n",
			  "<Steady-state max 6>", "line 5: of 7 rounds, but the Mode line says <Steady-state max 6>" },
		};
		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			hold_refused(bad[i].note, bad[i].mode, bad[i].msg);
	}
	end_fsync_notes();
	/* a CPU list as --cpus takes it, kept in the canonical form */
	{
		static const char text[] =
			"cdm 0.1.0 x86_64 (io_uring, O_DIRECT)\n[Read]\n"
			"  SEQ    1MiB (Q=  8, T= 1):  1478.492 MB/s [   1410.0 IOPS] <  5000.00 us>\n\n"
			"Not steady: SEQ1M Q8T1 Read after 6 rounds (range 30.0 %, slope 0.0 %)\n"
			"   Mode: <Steady-state max 6> <CPUs 3,0-2,1>\n";
		struct cdm_run_result *x = read_ok(text, strlen(text), "m.txt");

		assert_int_equal(x->info.steady_state, 1);
		assert_int_equal(x->info.max_rounds, 6);
		assert_string_equal(x->info.cpus, "0-3");
		cdm_result_free(x);
	}
}

/*
 * @json with its first @from made @to, read as cdm's JSON: refused
 * (-EINVAL) with one line holding @msg
 */
static void json_swap_refused(const char *json, const char *from, const char *to, const char *msg)
{
	const char *at = strstr(json, from);
	struct cdm_run_result *back = NULL;
	struct cdm_err err = { "" };
	char *t;

	if (!at)
		fail_msg("no '%s' in the JSON", from);
	t = malloc(strlen(json) + strlen(to) + 1);
	assert_non_null(t);
	memcpy(t, json, (size_t)(at - json));
	strcpy(t + (at - json), to);
	strcat(t, at + strlen(from));
	assert_int_equal(cdm_result_read(t, strlen(t), 0, &back, &err), -EINVAL);
	assert_null(back);
	if (!strstr(err.msg, msg) || strchr(err.msg, '\n'))
		fail_msg("%s: '%s' does not say '%s'", to, err.msg, msg);
	free(t);
}

/* @r printed in each CDM text layout holds the line @line */
static void verify_printed(const struct cdm_run_result *r, const char *line)
{
	static const char *const fmts[] = { "cdm", "cdm7", "cdm6" };

	for (unsigned int k = 0; k < 3; k++) {
		size_t len;
		char *t = render(r, fmts[k], &len);

		if (!strstr(t, line))
			fail_msg("as %s, no '%s' in:\n%s", fmts[k], line, t);
		free(t);
	}
}

/*
 * cdm's text of a run with --verify, read back: its Verify lines state no
 * test's own blocks, so each is unknown (verify.blocks_unknown, JSON's
 * "blocks": null, CSV's empty verify_blocks), and the clean line's total
 * is kept (source.verify_blocks) and printed again, through the JSON of
 * cdm import --save too.  A fault line is one test's faults, its blocks
 * unknown as well.  The JSON reader takes a null "blocks" in an imported
 * run's file only, and a total that agrees with its tests.
 */
static void test_verify_text(void **state)
{
	static const char head[] =
		"cdm 0.1.0 x86_64 (io_uring, O_DIRECT)\n"
		"[Read]\n  RND    4KiB (Q=  4, T= 1):   187.245 MB/s [  45714.0 IOPS] <    87.44 us>\n"
		"[Write]\n  RND    4KiB (Q=  4, T= 1):   139.497 MB/s [  34057.0 IOPS] <   117.09 us>\n"
		"[Mix] Read 70%/Write 30%\n"
		"  RND    4KiB (Q=  4, T= 1):   150.184 MB/s [  36666.0 IOPS] <   108.93 us>\n\n";
	static const struct {
		const char *line;       /* the Verify line */
		uint64_t total;         /* source.verify_blocks it gives */
		unsigned int faulty;    /* the test with faults, 0 none */
	} cases[] = {
		{ "Verify: all 2 write and Mix tests read back clean, 7921 blocks\n", 7921, 0 },
		{ "Verify: all 2 write and Mix tests read back clean\n", 0, 0 },
		{ "Verify: RND4K Q4T1 Write: 1 lost write at offset 4096\n", 0, 1 },
	};

	(void)state;
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024], *json, *csv;
		size_t jlen, clen;
		struct cdm_run_result *r, *c = NULL;
		struct cdm_err err = { "" };

		snprintf(text, sizeof(text), "%s%s\n   Mode: <Verify>\n", head, cases[i].line);
		r = read_ok(text, strlen(text), "v.txt");
		assert_int_equal(r->ntests, 3);
		assert_int_equal(r->tests[0].verify.done, 0);
		assert_true(r->info.source.verify_blocks == cases[i].total);
		for (unsigned int j = 1; j < 3; j++) {
			const struct cdm_verify *v = &r->tests[j].verify;

			/* the faulty test only, when the line is a fault's */
			if (cases[i].faulty && j != cases[i].faulty) {
				assert_int_equal(v->done, 0);
				continue;
			}
			assert_int_equal(v->done, 1);
			assert_int_equal(v->blocks_unknown, 1);
			assert_true(v->blocks == 0);
			assert_int_equal(cdm_result_verify_state(v), cases[i].faulty ?
					 CDM_VERIFY_STATE_FAULTS : CDM_VERIFY_STATE_CLEAN);
		}
		verify_printed(r, cases[i].line);
		/* CSV: the status, no blocks, every block (k 1), the faults */
		csv = render(r, "csv", &clen);
		assert_non_null(strstr(csv, cases[i].faulty ? ",faults,,1,1,0,0," : ",clean,,1,0,0,0,"));
		free(csv);
		/* its JSON: the blocks null, the total kept; read back, the same line */
		json = render(r, "json", &jlen);
		assert_non_null(strstr(json, "\"blocks\": null"));
		assert_null(strstr(json, "\"blocks\": 0"));
		if (cases[i].total)
			assert_non_null(strstr(json, "\"verify_blocks\": 7921\n"));
		else
			assert_non_null(strstr(json, "\"verify_blocks\": null\n"));
		if (cdm_result_load(json, jlen, "v.json", CDM_RESULT_READ_AGGREGATE, &c, &err))
			fail_msg("%s: its JSON: %s", cases[i].line, err.msg);
		assert_true(c->info.source.verify_blocks == cases[i].total);
		assert_int_equal(c->tests[cases[i].faulty ? cases[i].faulty : 2].verify.blocks_unknown, 1);
		verify_printed(c, cases[i].line);
		cdm_result_free(c);
		/* a total that no test's null blocks go with, or below one block a test */
		if (cases[i].total) {
			json_swap_refused(json, "\"verify_blocks\": 7921", "\"verify_blocks\": 1",
					  "source.verify_blocks: 1 for 2 clean tests");
			json_swap_refused(json, "\"blocks\": null", "\"blocks\": 5",
					  "tests[2].verify.blocks: null, but tests[1]'s is a count");
		}
		if (!cases[i].total && !cases[i].faulty)
			json_swap_refused(json, "\"verify_blocks\": null", "\"verify_blocks\": 1",
					  "source.verify_blocks: 1 for 2 clean tests");
		/* a total with no clean test: no text's */
		if (cases[i].faulty)
			json_swap_refused(json, "\"verify_blocks\": null", "\"verify_blocks\": 9",
					  "source.verify_blocks: 9, but no clean test's blocks are null");
		free(json);
		cdm_result_free(r);
	}
	/* a run cdm measured always counts the blocks it read back: null is refused */
	{
		struct cdm_run_result *r = unit_hold_run();
		char *json;

		r->tests[2].verify = (struct cdm_verify){ .done = 1, .blocks = 1234, .every = 1 };
		json = unit_render("json", r);
		json_swap_refused(json, "\"blocks\": 1234", "\"blocks\": null",
				  "tests[2].verify.blocks: null, but cdm measured this run");
		free(json);
		cdm_result_free(r);
	}
}

/* the fuzz corpus's CrystalDiskMark reports (first byte 5) are reports */
static void test_fuzz_seeds(void **state)
{
	static const char *const seeds[] = { "cdm-report-6-utf16", "cdm-report-7-quoted", "cdm-report-8",
					     "cdm-text-6", "cdm-text-hold" };
	const char *dir = getenv("CDM_SRCDIR");

	(void)state;
	for (unsigned int i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		char path[4096], *buf;
		struct cdm_run_result *r;
		size_t n;
		FILE *f;

		snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/%s", dir && *dir ? dir : ".", seeds[i]);
		f = fopen(path, "rb");
		if (!f)
			fail_msg("%s: %s", path, strerror(errno));
		buf = malloc(1 << 16);
		assert_non_null(buf);
		n = fread(buf, 1, 1 << 16, f);
		fclose(f);
		assert_true(n > 1 && buf[0] == 5);
		r = read_ok(buf + 1, n - 1, seeds[i]);
		assert_true(r->ntests > 0);
		cdm_result_free(r);
		free(buf);
	}
}

/*
 * The null engine's simulated device, recorded: the Mode line's "<Null
 * device SPEC>" in each CDM text layout, JSON's settings.null_device and
 * Markdown's How measured, each read back to the same canonical text; a
 * spec --null-device would refuse is refused by both readers, by name.
 */
static void test_null_device_record(void **state)
{
	static const char *const fmts[] = { "cdm", "cdm7", "cdm6" };
	static const char spec[] = "lat=100us,channels=4,iops=20000;at=2s,iops=5000";
	struct cdm_run_result *r = unit_hold_run(), *b = NULL;
	struct cdm_err err = { "" };
	size_t len;
	char *t;

	(void)state;
	snprintf(r->info.null_device, sizeof(r->info.null_device), "%s", spec);
	for (unsigned int k = 0; k < 3; k++) {
		t = render(r, fmts[k], &len);
		if (!strstr(t, " <Null device lat=100us,channels=4,iops=20000;at=2s,iops=5000>"))
			fail_msg("as %s, no mark in:\n%s", fmts[k], t);
		b = read_ok(t, len, "n.txt");
		assert_string_equal(b->info.null_device, spec);
		cdm_result_free(b);
		free(t);
	}
	t = render(r, "markdown", &len);
	assert_non_null(strstr(t, "; a simulated device, `lat=100us,channels=4,iops=20000;at=2s,iops=5000`;"));
	free(t);
	t = render(r, "json", &len);
	assert_non_null(strstr(t, "\"null_device\": \"lat=100us,channels=4,iops=20000;at=2s,iops=5000\","));
	assert_int_equal(cdm_result_read(t, len, 0, &b, &err), 0);
	assert_string_equal(b->info.null_device, spec);
	cdm_result_free(b);
	json_swap_refused(t, "iops=5000\"", "iops=abc\"",
			  "settings.null_device: not a simulated device: 'iops=abc' (iops=N|none, N 1-1000000000)");
	json_swap_refused(t, "iops=5000\"", "iops=5000> <Verify\"",
			  "settings.null_device: not a simulated device: ");
	free(t);
	/* read in its canonical form; absent or null: none */
	hold_refused("", "<Null device iops=abc>", "line 5: <Null device iops=abc>: 'iops=abc' (iops=N|none");
	hold_refused("", "<Null device lat=1ms", "line 5: <Null device lat=1ms: not a simulated device");
	{
		static const char text[] =
			"cdm 0.1.0 x86_64 (null, O_DIRECT)\n[Read]\n"
			"  SEQ    1MiB (Q=  8, T= 1):  1478.492 MB/s [   1410.0 IOPS] <  5000.00 us>\n\n"
			"   Mode: <Null device lat=1000us,channels=1> <Verify>\n";
		struct cdm_run_result *x = read_ok(text, strlen(text), "m.txt");

		assert_string_equal(x->info.null_device, "lat=1ms,channels=1");
		assert_int_equal(x->info.verify, 1);
		cdm_result_free(x);
	}
	r->info.null_device[0] = '\0';
	t = render(r, "json", &len);
	assert_non_null(strstr(t, "\"null_device\": null,"));
	assert_int_equal(cdm_result_read(t, len, 0, &b, &err), 0);
	assert_string_equal(b->info.null_device, "");
	cdm_result_free(b);
	free(t);
	cdm_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_date),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_cdm6_end),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_other_layouts),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_cut),
		cmocka_unit_test(test_no_footer),
		cmocka_unit_test(test_compare_cells),
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_blanks),
		cmocka_unit_test(test_absurd),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_fractions),
		cmocka_unit_test(test_fractions_text),
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_cdm_text),
		cmocka_unit_test(test_cdm_text_lines),
		cmocka_unit_test(test_fuzz_seeds),
		cmocka_unit_test(test_hold_text),
		cmocka_unit_test(test_verify_text),
		cmocka_unit_test(test_null_device_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
