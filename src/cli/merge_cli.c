/* SPDX-License-Identifier: MIT */
/*
 * merge_cli.c - `cdm merge A.json B.json ...`: the results of one plan run
 * on several hosts at once (pdsh, Ansible, a Kubernetes Indexed Job, each
 * started with --start-at) read back with result_read.c and combined by
 * cdm_merge(), exactly as cdm-mpi combines its ranks; printed in any
 * report format.  Files whose plans differ are refused, naming them; runs
 * whose pass windows did not overlap get a warning.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/model/merge.h"
#include "cdm/target/outfile.h"
#include "cdm/report/report.h"
#include "cdm/model/result_read.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2

static const char merge_usage[] =
"Usage: cdm merge [OPTIONS] A.json B.json [C.json ...]\n"
"Combine results of the same plan run at the same time on several hosts\n"
"(each started with --start-at, saved with --save) into one aggregate: pass k\n"
"of the aggregate is the sum of pass k of every file, then the best (or\n"
"median, mean) of those passes is shown; percentiles come from the merged\n"
"histograms.  Files whose settings or tests differ are refused.\n"
"\n"
"  -f, --format FMT     cdm, json, csv, markdown (default: cdm)\n"
"  -o, --output FILE    write the report to FILE (default: stdout)\n"
"      --save FILE.json also save the aggregate as JSON (default: none)\n"
"      --aggregate AGG  best, median, mean (default: best)\n"
"  -h, --help           this help\n"
"\n"
"Exit status: 0 success, 1 writing failed, 2 usage error or a file that\n"
"cannot be read or does not match.  See docs/scale-out.md.\n";

static int merge_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int merge_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("cdm: merge: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'cdm merge --help'.\n", stderr);
	return EXIT_USAGE;
}

/* warn when the files' pass k started further apart than a tenth of a pass */
static void check_overlap(const struct cdm_run_result *agg)
{
	const struct cdm_scale *sc = agg->scale;
	uint64_t worst = 0, len = 0;

	for (unsigned int i = 0; i < agg->ntests; i++) {
		for (unsigned int k = 0; k < agg->tests[i].npasses; k++) {
			uint64_t lo = UINT64_MAX, hi = 0;

			for (unsigned int r = 0; r < sc->n; r++) {
				uint64_t s = sc->src[r].res->tests[i].passes[k].start_unix_ns;

				if (!s)
					return;         /* files without start times */
				lo = s < lo ? s : lo;
				hi = s > hi ? s : hi;
			}
			if (hi - lo > worst) {
				worst = hi - lo;
				len = (uint64_t)(agg->tests[i].passes[k].seconds * 1e9);
			}
		}
	}
	if (len && worst * 10 > len)
		cdm_warn("merge: the files' passes started up to %.3f s apart (passes last %.3f s): they overlapped only in part, so the aggregate is below what the hosts did together; start the runs with --start-at",
			 (double)worst / 1e9, (double)len / 1e9);
}

int cdm_merge_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "save", required_argument, NULL, 's' },
		{ "aggregate", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cdm_formatter *fmt = cdm_report_find("cdm", NULL);
	const char *output = NULL, *save = NULL;
	enum cdm_aggregate agg = CDM_AGG_BEST;
	struct cdm_run_result **in, *res = NULL;
	const char **names;
	unsigned int n;
	int labels, ranks = 1;
	struct cdm_err err;
	int c, status = 0, ret;
	FILE *out = stdout;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fmt = cdm_report_find(optarg, NULL);
			if (!fmt)
				return merge_usage_error("bad value for --format: '%s' (cdm, json, csv, markdown)", optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 's':
			save = optarg;
			break;
		case 'a':
			if (cdm_aggregate_parse(optarg, &agg) < 0)
				return merge_usage_error("bad value for --aggregate: '%s' (best, median, mean)", optarg);
			break;
		case 'h':
			fputs(merge_usage, stdout);
			return 0;
		default:
			fputs("Try 'cdm merge --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 1)
		return merge_usage_error("one or more saved results (FILE.json) expected");
	if (argc - optind > CDM_MERGE_MAX)
		return merge_usage_error("at most %d results at once, got %d", CDM_MERGE_MAX, argc - optind);
	if ((output && !output[0]) || (save && !save[0]))
		return merge_usage_error("an empty path was given");
	n = (unsigned int)(argc - optind);
	/* never write over an input, and never count one run twice */
	if (cdm_outfile_same(output, save))
		return merge_usage_error("--output and --save name the same file '%s'", save);
	for (unsigned int i = 0; i < n; i++) {
		const char *a = argv[optind + i];

		if (cdm_outfile_same(output, a) || cdm_outfile_same(save, a))
			return merge_usage_error("%s is one of the results to merge; write the aggregate to another file",
						 a);
		for (unsigned int j = 0; j < i; j++)
			if (cdm_outfile_same(argv[optind + j], a))
				return merge_usage_error("%s and %s are the same file: each run is merged once",
							 argv[optind + j], a);
	}
	if ((output && cdm_outfile_check(output, "--output", 0) < 0) ||
	    (save && cdm_outfile_check(save, "--save", 1) < 0))
		return EXIT_RUN;
	in = calloc(n, sizeof(*in));
	if (!in)
		return cdm_error("out of memory"), EXIT_RUN;
	for (unsigned int i = 0; i < n; i++) {
		ret = cdm_result_read_file(argv[optind + i], CDM_RESULT_READ_ONE_RUN, &in[i], &err);
		if (ret < 0) {
			cdm_error("merge: %s: %s", argv[optind + i], err.msg);
			for (unsigned int j = 0; j < i; j++)
				cdm_result_free(in[j]);
			free(in);
			return EXIT_USAGE;
		}
		in[i]->aggregate = agg;
	}
	/* runs are named by their labels when those tell them apart, else by file */
	names = calloc(n, sizeof(*names));
	if (!names) {
		for (unsigned int i = 0; i < n; i++)
			cdm_result_free(in[i]);
		free(in);
		return cdm_error("out of memory"), EXIT_RUN;
	}
	labels = 1;
	for (unsigned int i = 0; i < n; i++) {
		if (!in[i]->info.label[0])
			labels = 0;
		for (unsigned int j = 0; j < i; j++)
			if (!strcmp(in[j]->info.label, in[i]->info.label))
				labels = 0;
	}
	for (unsigned int i = 0; i < n; i++)
		names[i] = labels ? in[i]->info.label : argv[optind + i];
	/* the ranks' own files of a cdm-mpi run (--save-ranks) are ranks again */
	for (unsigned int i = 0; i < n; i++) {
		unsigned int rk;
		char open_paren;

		if (sscanf(in[i]->info.label, "rank %u (%c", &rk, &open_paren) != 2)
			ranks = 0;
	}
	ret = cdm_merge(in, names, n, ranks ? "ranks" : "runs", &res, &err);
	free(in);
	free(names);
	if (ret < 0) {
		cdm_error("merge: %s", err.msg);
		return ret == -ENOMEM ? EXIT_RUN : EXIT_USAGE;
	}
	check_overlap(res);
	if (output) {
		out = fopen(output, "w");
		if (!out) {
			cdm_error("%s: cannot write the report: %s", output, strerror(errno));
			cdm_merge_free(res);
			return EXIT_RUN;
		}
	}
	if (fmt->write(out, res) < 0 || fflush(out)) {
		cdm_error("%s: writing the report failed", output ? output : "stdout");
		status = EXIT_RUN;
	}
	if (output && fclose(out))
		status = EXIT_RUN;
	if (save) {
		ret = cdm_report_save(save, cdm_report_find("json", NULL), res);
		if (ret < 0) {
			cdm_error("%s: cannot save the aggregate: %s", save, strerror(-ret));
			status = EXIT_RUN;
		}
	}
	cdm_merge_free(res);
	return status;
}
