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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/text.h"
#include "cdm/cli/cli.h"
#include "cdm/cli/merge_cli.h"
#include "cdm/cli/options.h"
#include "cdm/model/merge.h"
#include "cdm/target/outfile.h"
#include "cdm/report/report.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/base/msg.h"

static const char merge_usage[] =
"Usage: cdm merge [OPTIONS] A.json [B.json ...]\n"
"Combine results of the same plan run at the same time on several hosts\n"
"(each started with --start-at, saved with --save) into one aggregate: pass k\n"
"of the aggregate is the sum of pass k of every file, then the best (or\n"
"median, mean) of those passes is shown; percentiles come from the merged\n"
"histograms.  Files whose settings or tests differ are refused.  One file\n"
"may be - for standard input.\n"
"\n"
"  -f, --format FMT     %s\n"
"                       (default: cdm)\n"
"  -o, --output FILE    write the report to FILE (default: stdout)\n"
"      --save FILE.json also save the aggregate as JSON (default: none)\n"
"      --aggregate AGG  best, median, mean (default: best)\n"
"  -h, --help           this help\n"
"\n"
"Exit status: 0 success, 1 writing failed or a test of the aggregate\n"
"measured nothing, 2 usage error or a file that cannot be read or does\n"
"not match.  See docs/scale-out.md.\n";

static const struct cdm_cli_cmd cmd = { "cdm merge --help" };

/* struct merge_opts - the command line as parsed */
struct merge_opts {
	struct cdm_options_common c;    /* --output, --save, --aggregate */
	const struct cdm_formatter *fmt;
	char **files;                   /* the results to merge */
	unsigned int n;
};

/* warn when the files' pass k started further apart than a tenth of a pass */
static void check_overlap(const struct cdm_run_result *agg)
{
	uint64_t worst, len;

	if (cdm_merge_overlap(agg, &worst, &len))
		cdm_msg_warn("the files' passes started up to %.3f s apart (passes last %.3f s): they overlapped only in part, so the aggregate is below what the hosts did together; start the runs with --start-at",
			 (double)worst / 1e9, (double)len / 1e9);
}

/* step 1: the command line into @o, the files checked */
static int parse_args(int argc, char **argv, struct merge_opts *o)
{
	/* the formats from the registry: every one it has */
	struct cdm_options_parser p = {
		CDM_OPTIONS_MERGE, &cmd, NULL, merge_usage, cdm_options_registry_format, &o->fmt,
	};
	int s = cdm_options_parse(&p, argc, argv, &o->c);

	if (s != CDM_CLI_GO_ON)
		return s;
	if (argc - optind < 1)
		return cdm_cli_usage(&cmd, "one or more saved results (FILE.json) expected");
	if (argc - optind > CDM_MERGE_MAX)
		return cdm_cli_usage(&cmd, "at most %d results at once, got %d", CDM_MERGE_MAX, argc - optind);
	o->files = argv + optind;
	o->n = (unsigned int)(argc - optind);
	/* each run once */
	for (unsigned int i = 0; i < o->n; i++)
		for (unsigned int j = 0; j < i; j++)
			if (o->files[i][0] && strcmp(o->files[i], "-") &&
			    cdm_outfile_same(o->files[j], o->files[i]))
				return cdm_cli_usage(&cmd, "%s and %s are the same file: each run is merged once",
						     o->files[j], o->files[i]);
	return cdm_cli_files(&cmd, o->files, o->n,
			     "is one of the results to merge; write the aggregate to another file",
			     o->c.output, o->fmt->name, o->c.save);
}

static void free_inputs(struct cdm_run_result **in, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		cdm_result_free(in[i]);
	free(in);
}

/* step 2: the saved results, read back; *@in is NULL after a failure */
static int read_inputs(const struct merge_opts *o, struct cdm_run_result ***in)
{
	*in = calloc(o->n, sizeof(**in));
	if (!*in) {
		cdm_msg_error("out of memory");
		return CDM_EXIT_RUN;
	}
	for (unsigned int i = 0; i < o->n; i++) {
		if (cdm_cli_load(o->files[i], CDM_RESULT_READ_ONE_RUN, &(*in)[i]) < 0) {
			free_inputs(*in, i);
			*in = NULL;
			return CDM_EXIT_USAGE;
		}
		if ((*in)[i]->info.source.kind != CDM_SOURCE_RUN) {
			cdm_msg_error("%s: a CrystalDiskMark report, not a cdm run: it has only CDM's best-of figures, no passes to add up",
				      strcmp(o->files[i], "-") ? o->files[i] : "stdin");
			free_inputs(*in, i + 1);
			*in = NULL;
			return CDM_EXIT_USAGE;
		}
		(*in)[i]->aggregate = o->c.aggregate;
	}
	return CDM_CLI_GO_ON;
}

/*
 * step 3: @in (freed here: the aggregate takes the results over) merged
 * into *@res.  Runs are named by their labels when those tell them apart,
 * else by file; the ranks' own files of a cdm-mpi run (--save-ranks) are
 * ranks again.
 */
static int merge_inputs(const struct merge_opts *o, struct cdm_run_result **in,
			struct cdm_run_result **res)
{
	const char **names = calloc(o->n, sizeof(*names));
	int labels = 1, ranks = 1, ret;
	struct cdm_err err;

	if (!names) {
		free_inputs(in, o->n);
		cdm_msg_error("out of memory");
		return CDM_EXIT_RUN;
	}
	for (unsigned int i = 0; i < o->n; i++) {
		unsigned int rk;
		char open_paren;

		if (!in[i]->info.label[0])
			labels = 0;
		for (unsigned int j = 0; j < i; j++)
			if (!strcmp(in[j]->info.label, in[i]->info.label))
				labels = 0;
		if (sscanf(in[i]->info.label, "rank %u (%c", &rk, &open_paren) != 2)
			ranks = 0;
	}
	/* a file's name as a run's name: one line (base/text.h), stdin for "-" */
	for (unsigned int i = 0; i < o->n; i++) {
		cdm_text_one_line(o->files[i]);
		names[i] = labels ? in[i]->info.label : strcmp(o->files[i], "-") ? o->files[i] : "stdin";
	}
	ret = cdm_merge(in, names, o->n, ranks ? "ranks" : "runs", res, &err);
	free(in);
	free(names);
	if (ret < 0) {
		cdm_msg_error("%s", err.msg);
		return ret == -ENOMEM ? CDM_EXIT_RUN : CDM_EXIT_USAGE;
	}
	return CDM_CLI_GO_ON;
}

/* step 4: the report on stdout or --output, and --save; the exit status */
static int write_outputs(const struct merge_opts *o, const struct cdm_run_result *res)
{
	int status = cdm_cli_report(o->c.output, o->fmt, res);

	if (cdm_cli_save(o->c.save, "json", res, "save the aggregate") != CDM_EXIT_OK)
		status = CDM_EXIT_RUN;
	return status;
}

int cdm_cli_merge_main(int argc, char **argv)
{
	struct merge_opts o = { .fmt = cdm_report_find("cdm") };
	struct cdm_run_result **in, *res = NULL;
	int s;

	cdm_options_init(&o.c, NULL);
	s = parse_args(argc, argv, &o);
	if (s == CDM_CLI_GO_ON)
		s = read_inputs(&o, &in);
	if (s == CDM_CLI_GO_ON)
		s = merge_inputs(&o, in, &res);
	if (s != CDM_CLI_GO_ON)
		return s;
	check_overlap(res);
	s = write_outputs(&o, res);
	/* a test of the aggregate that measured nothing fails, as in a run */
	if (cdm_cli_unmeasured(res, "the aggregate") && s == CDM_EXIT_OK)
		s = CDM_EXIT_RUN;
	cdm_merge_free(res);
	return s;
}
