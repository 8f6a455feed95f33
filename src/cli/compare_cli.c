/* SPDX-License-Identifier: MIT */
/*
 * compare_cli.c - `cdm compare`: its options, then the results read with the
 * one entry point for results (format/result_load.c: cdm JSON, including
 * an aggregate of `cdm merge`, or a CrystalDiskMark text report), compared
 * (model/compare.c) and printed
 * (report/compare_table.c).  Here only what a command does: usage errors, the
 * messages naming each file, and the exit status.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/cli/cli.h"
#include "cdm/cli/compare_cli.h"
#include "cdm/cli/options.h"
#include "cdm/model/compare.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/report/compare_table.h"
#include "cdm/target/outfile.h"

static const char compare_usage[] =
"Usage: cdm compare [OPTIONS] A B [C ...]\n"
"Set results side by side: per test and direction (Read, Write, Mix with\n"
"its reads and writes), each run's figure under its label and the ratio to\n"
"the first run; what has no figure or no ratio (a missing test, a run that\n"
"measured nothing) is named with why.  Each of A, B, ... is a result saved\n"
"with 'cdm --save FILE.json' (or 'cdm import --save') or a CrystalDiskMark\n"
"text report (3.x to 9.x, as saved or pasted), in any mix and order; one\n"
"of them may be - for standard input.\n"
"\n"
"  -f, --format FMT         cdm (text, CDM-like rows), markdown, or svg (grouped\n"
"                           bars with the figures and ratios) (default: cdm)\n"
"      --aggregate AGG      best, median or mean of the passes (default: best)\n"
"      --metric M           mb_s, iops or latency (default: mb_s)\n"
"  -o, --output FILE        write the comparison to FILE (default: stdout)\n"
"  -h, --help               this help\n"
"\n"
"Exit status: 0 success, 1 writing failed, 2 usage error or a file that is\n"
"neither a readable cdm result nor a CrystalDiskMark report.  See cdm(1).\n";

/* what the options ask for */
struct opts {
	struct cdm_options_common c;    /* --output (NULL: stdout), --aggregate */
	enum cdm_compare_format format;
	enum cdm_compare_metric metric;
};

static const struct cdm_cli_cmd cmd = { "cdm compare --help" };

static void print_help(void)
{
	fputs(compare_usage, stdout);
}

/* --format and --metric, the words of a comparison */
static int handle_option(const struct cdm_options_parser *p, int key, char *arg)
{
	struct opts *o = p->ctx;

	switch (key) {
	case 'f':
		if (!strcmp(arg, "markdown"))
			o->format = CDM_COMPARE_MARKDOWN;
		else if (!strcmp(arg, "cdm"))
			o->format = CDM_COMPARE_TEXT;
		else if (!strcmp(arg, "svg"))
			o->format = CDM_COMPARE_SVG;
		else
			return cdm_cli_usage(&cmd, "bad value for --format: '%s' (cdm, markdown, svg)", arg);
		break;
	case CDM_OPT_METRIC:
		if (!strcmp(arg, "mb_s"))
			o->metric = CDM_COMPARE_MB_S;
		else if (!strcmp(arg, "iops"))
			o->metric = CDM_COMPARE_IOPS;
		else if (!strcmp(arg, "latency"))
			o->metric = CDM_COMPARE_LAT;
		else
			return cdm_cli_usage(&cmd, "bad value for --metric: '%s' (mb_s, iops, latency)", arg);
		break;
	}
	return CDM_CLI_GO_ON;
}

/* the options into @o; returns -1 to go on, else the exit status */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	struct cdm_options_parser p = { CDM_OPTIONS_COMPARE, &cmd, print_help, NULL, handle_option, o };

	cdm_options_init(&o->c, NULL);
	return cdm_options_parse(&p, argc, argv, &o->c);
}

/* the @n results named @paths into @runs; 0 or the exit status */
static int load_runs(char **paths, unsigned int n, struct cdm_run_result **runs)
{
	/* cdm JSON or a CrystalDiskMark report, by its content; "-" is stdin */
	for (unsigned int i = 0; i < n; i++)
		if (cdm_cli_load(paths[i], CDM_RESULT_READ_AGGREGATE, &runs[i]) < 0)
			return CDM_EXIT_USAGE;
	return 0;
}

/* struct compare_out - a comparison and its layout, as cdm_cli_output() takes them */
struct compare_out {
	const struct cdm_compare *c;
	enum cdm_compare_format format;
};

static int compare_write(FILE *f, const void *arg)
{
	const struct compare_out *a = arg;

	return cdm_compare_table_write(f, a->c, a->format);
}

/* @c on --output or stdout; 0 or the exit status */
static int write_report(const struct cdm_compare *c, const struct opts *o)
{
	struct compare_out a = { c, o->format };

	return cdm_cli_output(o->c.output, "comparison", compare_write, &a);
}

/* the @n runs compared, warned about and written; 0 or the exit status */
static int compare(struct cdm_run_result *const *runs, unsigned int n, const struct opts *o)
{
	struct cdm_compare cmp;
	struct cdm_err err;
	char list[128];
	int status;

	if (cdm_compare_init(&cmp, runs, n, o->c.aggregate, o->metric, &err) < 0) {
		cdm_compare_free(&cmp);
		cdm_msg_error("%s", err.msg);
		return CDM_EXIT_RUN;
	}
	if (cdm_compare_mismatch(&cmp, list, sizeof(list)))
		cdm_msg_warn("the runs differ in %s: their figures may not be comparable", list);
	status = write_report(&cmp, o);
	cdm_compare_free(&cmp);
	return status;
}

int cdm_cli_compare_main(int argc, char **argv)
{
	struct cdm_run_result *runs[CDM_COMPARE_MAX_RUNS] = { NULL };
	struct opts o = { .format = CDM_COMPARE_TEXT };
	unsigned int n, i;
	int status;

	status = parse_opts(argc, argv, &o);
	if (status != CDM_CLI_GO_ON)
		return status;
	if (argc - optind < 2)
		return cdm_cli_usage(&cmd, "two or more saved results (FILE.json) or CrystalDiskMark reports expected, got %d",
				     argc - optind);
	if (argc - optind > CDM_COMPARE_MAX_RUNS)
		return cdm_cli_usage(&cmd, "at most %d results at once, got %d",
				     CDM_COMPARE_MAX_RUNS, argc - optind);
	n = (unsigned int)(argc - optind);
	status = cdm_cli_files(&cmd, argv + optind, n,
			       "is one of the results to compare; write the comparison to another file",
			       o.c.output, o.format == CDM_COMPARE_MARKDOWN ? "markdown" :
			       o.format == CDM_COMPARE_SVG ? "svg" : "cdm", NULL);
	if (status != CDM_CLI_GO_ON)
		return status;
	status = load_runs(argv + optind, n, runs);
	if (!status)
		status = compare(runs, n, &o);
	for (i = 0; i < n; i++)
		cdm_result_free(runs[i]);
	return status;
}
