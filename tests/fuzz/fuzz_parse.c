/* SPDX-License-Identifier: MIT */
/*
 * fuzz_parse.c - libFuzzer target for cdm's own parsers: test specs, sizes,
 * whole numbers and profile files (src/plan/profile.c), and saved JSON
 * results as `cdm compare` and `cdm merge` read them (src/model/json.c,
 * src/model/result_read.c), compared and printed as compare does
 * (src/model/compare.c, src/report/compare.c).  The first byte of the
 * input chooses the parser; the rest is its text.  Built and run by
 * `make fuzz` (clang with -fsanitize=fuzzer,address,undefined); any crash
 * it finds becomes a case in the unit tests.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/uint.h"
#include "cdm/base/size.h"
#include "cdm/base/err.h"
#include "cdm/model/compare.h"
#include "cdm/plan/profile.h"
#include "cdm/model/cdm_read.h"
#include "cdm/model/result_read.h"
#include "cdm/report/compare.h"
#include "cdm/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		break;
	case 3:
		cdm_profile_parse(text, "fuzz.cdm", &prof, &perr);
		break;
	case 5: {
		/* a CrystalDiskMark report, as compare and import read it, then printed */
		static FILE *sink;
		struct cdm_run_result *res, *two[2];
		struct cdm_compare cmp;

		if (cdm_cdm_read((const char *)data + 1, size - 1, "fuzz.txt", &res, &perr) != 0)
			break;
		if (!sink)
			sink = fopen("/dev/null", "w");
		if (sink) {
			cdm_report_find("cdm")->write(sink, res);
			cdm_report_find("json")->write(sink, res);
			cdm_report_find("csv")->write(sink, res);
			cdm_report_find("markdown")->write(sink, res);
		}
		two[0] = two[1] = res;
		if (cdm_compare_init(&cmp, two, 2, CDM_AGG_BEST, CDM_COMPARE_LAT, &perr) == 0 && sink)
			cdm_report_compare_write(sink, &cmp, CDM_COMPARE_TEXT);
		cdm_compare_free(&cmp);
		cdm_result_free(res);
		break;
	}
	default: {
		/* not NUL-terminated on purpose: the reader must respect len */
		static FILE *null;              /* the reports go nowhere */
		struct cdm_run_result *res, *two[2];
		struct cdm_compare cmp;

		/* as `cdm merge` reads it */
		if (cdm_result_read((const char *)data + 1, size - 1, CDM_RESULT_READ_ONE_RUN, &res,
				    &perr) == 0)
			cdm_result_free(res);
		/* as `cdm compare` reads it, then compared with itself and printed */
		if (cdm_result_read((const char *)data + 1, size - 1, CDM_RESULT_READ_AGGREGATE, &res,
				    &perr) != 0)
			break;
		two[0] = two[1] = res;
		if (!null)
			null = fopen("/dev/null", "w");
		if (cdm_compare_init(&cmp, two, 2, CDM_AGG_MEDIAN, CDM_COMPARE_LAT, &perr) == 0 && null) {
			cdm_report_compare_write(null, &cmp, CDM_COMPARE_TEXT);
			cdm_report_compare_write(null, &cmp, CDM_COMPARE_MARKDOWN);
		}
		cdm_compare_free(&cmp);
		cdm_result_free(res);
		break;
	}
	}
	free(text);
	return 0;
}
