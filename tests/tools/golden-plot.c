/* SPDX-License-Identifier: MIT */
/*
 * golden-plot.c - `build/tests/golden-plot RUN.json`: the --plot chart of
 * a saved run with --log-interval (report/plot_series.c's
 * cdm_plot_series()) on standard output.  cdm draws that chart only
 * during a run; drawn here from a saved one (read as cdm report reads it,
 * format/result_load.h), it has a golden file like every other rendering
 * (tests/golden/golden.sh).  A test tool (make tools), never part of cdm.
 * Exit status: 0, 1 the chart failed (no test has a series), 2 usage or a
 * file that is not a result; the error on stderr, one line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/model/result.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/report/plot.h"

int main(int argc, char **argv)
{
	struct cdm_run_result *r = NULL;
	struct cdm_err err = { "" };
	int e;

	if (argc != 2) {
		fputs("usage: golden-plot RUN.json\n", stderr);
		return 2;
	}
	e = cdm_result_load_file(argv[1], NULL, CDM_RESULT_READ_AGGREGATE, &r, &err);
	if (e < 0) {
		fprintf(stderr, "golden-plot: %s: %s\n", argv[1], err.msg[0] ? err.msg : strerror(-e));
		return 2;
	}
	e = cdm_plot_series(stdout, r);
	cdm_result_free(r);
	if (e < 0 || fflush(stdout)) {
		fprintf(stderr, "golden-plot: %s: no chart (%s)\n", argv[1], strerror(e < 0 ? -e : EIO));
		return 1;
	}
	return 0;
}
