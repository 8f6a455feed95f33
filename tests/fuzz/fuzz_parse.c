/* SPDX-License-Identifier: MIT */
/*
 * fuzz_parse.c - libFuzzer target for cdm's own parsers: test specs, sizes,
 * whole numbers, times (base/msec.h, printed and read back) and profile
 * files (src/plan/profile.c), and saved JSON
 * results as `cdm compare` and `cdm merge` read them (src/base/json.c,
 * src/format/result_read.c) and CrystalDiskMark text reports
 * (src/format/cdm_read.c); what parses is printed by every registered
 * formatter (cdm_report_at(): the CDM 8, 7 and 6 text, JSON, CSV, Markdown,
 * the SVG card) under every aggregate, and compared with itself in every
 * compare layout (text, Markdown, SVG) and metric (src/model/compare.c,
 * src/report/compare_table.c, compare_svg.c).  The first byte of the input
 * chooses the parser; the rest is its text.  Built and run by `make fuzz`
 * (clang with -fsanitize=fuzzer,address,undefined); any crash it finds
 * becomes a case in the unit tests.  The printed reports go to /dev/null,
 * or to the file $CDM_FUZZ_SINK names (tests/unit/test_fuzz.c checks with
 * it that every writer runs).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/msec.h"
#include "cdm/base/uint.h"
#include "cdm/base/size.h"
#include "cdm/base/err.h"
#include "cdm/model/compare.h"
#include "cdm/plan/profile.h"
#include "cdm/format/cdm_read.h"
#include "cdm/format/result_read.h"
#include "cdm/report/compare_table.h"
#include "cdm/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * where the reports go: /dev/null, or $CDM_FUZZ_SINK (appended to, so that
 * a test may empty it between inputs); NULL when neither opens
 */
static FILE *fuzz_sink(void)
{
	static FILE *sink;

	if (!sink) {
		const char *path = getenv("CDM_FUZZ_SINK");

		sink = fopen(path && *path ? path : "/dev/null", "a");
	}
	return sink;
}

/*
 * @res printed by every formatter of the registry under every aggregate,
 * then compared with itself in every layout and metric: every writer of
 * src/report/ runs on what a parser accepted
 */
static void print_all(struct cdm_run_result *res)
{
	static const enum cdm_compare_format layouts[] = { CDM_COMPARE_TEXT, CDM_COMPARE_MARKDOWN,
							    CDM_COMPARE_SVG };
	struct cdm_run_result *two[2] = { res, res };
	FILE *out = fuzz_sink();

	if (!out)
		return;
	for (unsigned int a = CDM_AGG_BEST; a <= CDM_AGG_MEAN; a++) {
		res->aggregate = (enum cdm_aggregate)a;
		for (unsigned int k = 0; cdm_report_at(k); k++)
			cdm_report_at(k)->write(out, res);
		for (unsigned int m = CDM_COMPARE_MB_S; m <= CDM_COMPARE_LAT; m++) {
			struct cdm_compare cmp;

			if (cdm_compare_init(&cmp, two, 2, (enum cdm_aggregate)a,
					     (enum cdm_compare_metric)m, NULL) != 0)
				continue;
			for (unsigned int l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++)
				cdm_compare_table_write(out, &cmp, layouts[l]);
			cdm_compare_free(&cmp);
		}
	}
	fflush(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdm_profile prof;
	struct cdm_spec spec;
	unsigned long v;
	uint64_t bytes;
	char label[64], name[64];
	struct cdm_err perr;
	char *text;

	if (size < 1 || size > 70000)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 6) {
	case 0:
		if (cdm_spec_parse(text, &spec, &perr) == 0) {
			/* what parses must print and parse back to the same */
			struct cdm_spec again;

			cdm_spec_label(&spec, label, sizeof(label));
			cdm_spec_name(&spec, name, sizeof(name));
			if (cdm_spec_parse(name, &again, &perr) != 0 ||
			    memcmp(&again, &spec, sizeof(spec)) != 0)
				abort();
		}
		break;
	case 1:
		if (cdm_size_parse(text, &bytes) == 0)
			cdm_size_format(bytes, label, sizeof(label));
		break;
	case 2:
		cdm_uint_parse(text, 0, 3600, &v);
		/* a time: what parses prints and parses back to the same ms */
		if (cdm_msec_parse(text, &bytes) == 0) {
			uint64_t again;

			if (cdm_msec_parse(cdm_msec_format(bytes, label, sizeof(label)), &again) != 0 ||
			    again != bytes)
				abort();
		}
		break;
	case 3:
		cdm_profile_parse(text, "fuzz.cdm", &prof, &perr);
		break;
	case 5: {
		/* a CrystalDiskMark report, as compare and import read it, then printed */
		struct cdm_run_result *res;

		if (cdm_cdm_read((const char *)data + 1, size - 1, "fuzz.txt", &res, &perr) != 0)
			break;
		print_all(res);
		cdm_result_free(res);
		break;
	}
	default: {
		/* not NUL-terminated on purpose: the reader must respect len */
		struct cdm_run_result *res;

		/* as `cdm merge` reads it */
		if (cdm_result_read((const char *)data + 1, size - 1, CDM_RESULT_READ_ONE_RUN, &res,
				    &perr) == 0)
			cdm_result_free(res);
		/* as `cdm compare` and `cdm report` read it, then printed */
		if (cdm_result_read((const char *)data + 1, size - 1, CDM_RESULT_READ_AGGREGATE, &res,
				    &perr) != 0)
			break;
		print_all(res);
		cdm_result_free(res);
		break;
	}
	}
	free(text);
	return 0;
}
