/* SPDX-License-Identifier: MIT */
/*
 * unit.c - the helpers every unit test program may use (unit.h): render a
 * result, read a fixture, compare with a golden file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cdm/report/compare.h"
#include "cdm/report/report.h"
#include "unit.h"

char *unit_render(const char *format, const struct cdm_run_result *r)
{
	const struct cdm_formatter *f = cdm_report_find(format);

	if (!f)
		fail_msg("no format '%s' in the registry", format);
	return unit_render_with(f, r);
}

char *unit_render_compare(const struct cdm_compare *c, enum cdm_compare_format format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(cdm_report_compare_write(fp, c, format), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(buf);
	return buf;
}

char *unit_render_with(const struct cdm_formatter *f, const struct cdm_run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(f->write(fp, r), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	return buf;
}

static void fixture_path(char *path, size_t len, const char *name)
{
	const char *dir = getenv("CDM_SRCDIR");

	snprintf(path, len, "%s/tests/fixtures/%s", dir && *dir ? dir : ".", name);
}

char *unit_read_file(const char *path, size_t *len)
{
	char *buf;
	long n;
	FILE *f = fopen(path, "rb");

	if (!f)
		fail_msg("%s: %s (run from the repository root or set CDM_SRCDIR)",
			 path, strerror(errno));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

char *unit_fixture(const char *name, size_t *len)
{
	char path[4096];

	fixture_path(path, sizeof(path), name);
	return unit_read_file(path, len);
}

void unit_same_text(const char *got, const char *want, const char *what)
{
	const char *g = got, *w = want;
	unsigned int line = 1;

	while (*g && *w) {
		const char *ge = strchrnul(g, '\n'), *we = strchrnul(w, '\n');

		if (ge - g != we - w || memcmp(g, w, (size_t)(ge - g)) || *ge != *we)
			fail_msg("%s, line %u:\n got: '%.*s'\nwant: '%.*s'", what, line,
				 (int)(ge - g), g, (int)(we - w), w);
		g = *ge ? ge + 1 : ge;
		w = *we ? we + 1 : we;
		line++;
	}
	if (*g || *w)
		fail_msg("%s: %s has extra lines from line %u: '%s'", what,
			 *g ? "output" : "golden file", line, *g ? g : w);
}

void unit_golden(const char *got, const char *name)
{
	char path[4096], *want;

	if (getenv("CDM_UPDATE_GOLDEN")) {
		FILE *f;

		fixture_path(path, sizeof(path), name);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		assert_int_equal(fclose(f), 0);
	}
	want = unit_fixture(name, NULL);
	unit_same_text(got, want, name);
	free(want);
}
