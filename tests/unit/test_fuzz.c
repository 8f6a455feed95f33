/* SPDX-License-Identifier: MIT */
/*
 * test_fuzz.c - the fuzz target (tests/fuzz/fuzz_parse.c), built here
 * without libFuzzer and fed a CrystalDiskMark report and a cdm JSON
 * result: what it prints ($CDM_FUZZ_SINK) holds the output of every
 * formatter of the registry (cdm_report_at()) under every aggregate, and
 * of every compare layout and metric, so that a writer added to
 * src/report/ is fuzzed on what the parsers accept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "unit.h"

#include "../fuzz/fuzz_parse.c"

static char sink_path[] = "/tmp/cdm-fuzz-sink.XXXXXX";


/* the fixture @name without its "# source:" line */
static char *fixture(const char *name, size_t *len)
{
	const char *dir = getenv("CDM_SRCDIR");
	char path[4096], *all, *nl, *body;
	size_t n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/cdm-reports/%s", dir && *dir ? dir : ".", name);
	all = unit_read_file(path, &n);
	nl = strchr(all, '\n');
	assert_non_null(nl);
	*len = n - (size_t)(nl + 1 - all);
	body = malloc(*len + 1);
	assert_non_null(body);
	memcpy(body, nl + 1, *len + 1);
	free(all);
	return body;
}

/* run the fuzz target on @sel then @text; returns what it printed in all */
static char *fuzz(unsigned char sel, const char *text, size_t len)
{
	uint8_t *in = malloc(len + 1);

	assert_non_null(in);
	in[0] = sel;
	memcpy(in + 1, text, len);
	assert_int_equal(LLVMFuzzerTestOneInput(in, len + 1), 0);
	free(in);
	return unit_read_file(sink_path, NULL);
}



/* @printed holds what every formatter and compare layout writes of @r */
static void assert_all_printed(const char *printed, struct cdm_run_result *r, const char *what)
{
	struct cdm_run_result *two[2] = { r, r };
	unsigned int nfmt = 0;

	for (unsigned int a = CDM_AGG_BEST; a <= CDM_AGG_MEAN; a++) {
		r->aggregate = (enum cdm_aggregate)a;
		for (unsigned int k = 0; cdm_report_at(k); k++, nfmt++) {
			char *want = unit_render_with(cdm_report_at(k), r);

			if (!strstr(printed, want))
				fail_msg("%s: the fuzz target did not run --format %s --aggregate %s", what,
					 cdm_report_at(k)->name, cdm_result_aggregate_name(r->aggregate));
			free(want);
		}
		for (unsigned int m = CDM_COMPARE_MB_S; m <= CDM_COMPARE_LAT; m++) {
			struct cdm_compare c;

			assert_int_equal(cdm_compare_init(&c, two, 2, (enum cdm_aggregate)a,
							  (enum cdm_compare_metric)m, NULL), 0);
			for (unsigned int l = CDM_COMPARE_TEXT; l <= CDM_COMPARE_SVG; l++) {
				char *want = unit_render_compare(&c, (enum cdm_compare_format)l);

				if (!strstr(printed, want))
					fail_msg("%s: the fuzz target did not run compare layout %u metric %u", what, l, m);
				free(want);
			}
			cdm_compare_free(&c);
		}
	}
	assert_true(nfmt >= 3 * 7);     /* cdm, cdm7, cdm6, json, csv, markdown, svg */
}

/* a CDM report (selector 5) and the same as cdm JSON (selector 4) */
static void test_every_writer(void **state)
{
	static const char *const reports[] = { "cdm8-default-nvme-1.txt", "cdm6-default-sdcard-1.txt" };

	(void)state;
	for (unsigned int i = 0; i < 2; i++) {
		size_t len, jlen = 0;
		char *text = fixture(reports[i], &len), *printed, *json = NULL;
		struct cdm_run_result *r = NULL, *back = NULL;
		FILE *fp;

		assert_int_equal(truncate(sink_path, 0), 0);
		printed = fuzz(5, text, len);
		assert_int_equal(cdm_cdm_read(text, len, "fuzz.txt", &r, NULL), 0);
		assert_all_printed(printed, r, reports[i]);
		free(printed);
		/* its JSON, as compare and report read it */
		r->aggregate = CDM_AGG_BEST;
		fp = open_memstream(&json, &jlen);
		assert_non_null(fp);
		assert_int_equal(cdm_report_find("json")->write(fp, r), 0);
		assert_int_equal(fclose(fp), 0);
		assert_int_equal(truncate(sink_path, 0), 0);
		printed = fuzz(4, json, jlen);
		assert_int_equal(cdm_result_read(json, jlen, CDM_RESULT_READ_AGGREGATE, &back, NULL), 0);
		assert_all_printed(printed, back, "its JSON");
		free(printed);
		free(json);
		cdm_result_free(back);
		cdm_result_free(r);
		free(text);
	}
}

static int setup(void **state)
{
	int fd = mkstemp(sink_path);

	(void)state;
	if (fd < 0)
		return -1;
	close(fd);
	return setenv("CDM_FUZZ_SINK", sink_path, 1);
}

static int teardown(void **state)
{
	(void)state;
	unlink(sink_path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_writer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
