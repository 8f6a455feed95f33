/* SPDX-License-Identifier: MIT */
/*
 * report_cli.c - `cdm report RUN.json`: print a saved run again, in any
 * format of the registry, as the run itself printed it: `cdm report
 * r.json --format cdm7` for a CDM 7 layout of a run printed in CDM 8's,
 * `--format markdown` for a post.  The figures are not recomputed from
 * anything but the counts the file holds (format/result_read.h), so the
 * report is the run's own, byte for byte.  A CrystalDiskMark text report
 * is read as `cdm import` reads it (format/result_load.h): `cdm report
 * windows.txt --format svg` draws a colleague's report as a card.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/cli/cli.h"
#include "cdm/cli/options.h"
#include "cdm/cli/report_cli.h"
#include "cdm/format/findings.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/format/sweep_json.h"
#include "cdm/report/report.h"
#include "cdm/report/sweep_table.h"
#include "cdm/target/outfile.h"

static const char report_usage[] =
"Usage: cdm report [OPTIONS] RUN.json|REPORT.txt\n"
"Print a result saved with --save (or --format json, or an aggregate saved by\n"
"cdm merge --save) again in any report format, as the run printed it:\n"
"cdm report r.json --format cdm7\n"
"A CrystalDiskMark text report (as cdm import reads it) is printed the same\n"
"way, with only what it states: cdm report windows.txt --format svg\n"
"A sweep saved by cdm sweep --save is printed as cdm sweep printed it: its\n"
"table (cdm, markdown), its JSON, or its chart (svg, or --svg).\n"
"RUN.json may be - for standard input.\n"
"\n"
"  -f, --format FMT     %s\n"
"                       (default: cdm)\n"
"  -o, --output FILE    write the report to FILE (default: stdout)\n"
"      --svg FILE.svg   also draw the result as a card in FILE.svg, written\n"
"                       atomically; the Markdown report links it\n"
"      --aggregate AGG  best, median, mean (default: the run's own)\n"
"  -h, --help           this help\n"
"\n"
"Exit status: 0 success, 1 writing the report failed, 2 usage error or a\n"
"file that cannot be read as a result.  See docs/output-formats.md.\n";

static const struct cdm_cli_cmd cmd = { "cdm report --help" };

/* struct report_opts - the command line as parsed */
struct report_opts {
	struct cdm_options_common c;    /* --output, --svg, --aggregate */
	const struct cdm_formatter *fmt;
	const char *file;               /* the saved run */
	char svg_link[4096];            /* --svg as the Markdown report links it */
};

/* a saved sweep and the format to print it in, as cdm_cli_output() takes them */
struct sweep_out {
	const struct cdm_sweep *sw;
	const char *fmt;
};

static int write_sweep(FILE *f, const void *arg)
{
	const struct sweep_out *so = arg;

	return cdm_sweep_table_write(f, so->sw, so->fmt);
}

/*
 * a saved sweep (cdm sweep --save) printed as cdm sweep printed it: the
 * chart to --svg, then the table (and its ceilings' notes), the JSON or
 * the chart; another format, or --aggregate, is refused.  Returns the
 * exit status.
 */
static int report_sweep(const struct report_opts *o, const struct cdm_sweep *sw)
{
	struct sweep_out chart = { sw, "svg" }, so = { sw, o->fmt->name };
	int kind = cdm_sweep_table_format(o->fmt->name), table = kind == CDM_SWEEP_FORMAT_TABLE;
	char names[64];
	int s;

	if (!kind) {
		cdm_msg_error("%s: a saved sweep prints only as %s, not as %s", o->file,
			      cdm_sweep_table_names(names, sizeof(names),
						    CDM_SWEEP_FORMAT_TABLE | CDM_SWEEP_FORMAT_FILE, " or "),
			      o->fmt->name);
		return CDM_EXIT_USAGE;
	}
	if (o->c.aggregate_given) {
		cdm_msg_error("%s: --aggregate: a sweep's points are the sum of their measured passes, not one of them",
			      o->file);
		return CDM_EXIT_USAGE;
	}
	s = cdm_cli_file(o->c.svg, "write the chart", write_sweep, &chart);
	if (cdm_cli_output(o->c.output, "report", write_sweep, &so) != CDM_EXIT_OK)
		return CDM_EXIT_RUN;
	/* the notes the sweep gave under its table */
	if (table)
		cdm_findings_sweep_notes(sw);
	return s;
}

/* step 1: the command line into @o, the output file checked */
static int parse_args(int argc, char **argv, struct report_opts *o)
{
	/* the formats from the registry: every one it has */
	struct cdm_options_parser p = {
		CDM_OPTIONS_REPORT, &cmd, NULL, report_usage, cdm_options_registry_format, &o->fmt,
	};
	int c = cdm_options_parse(&p, argc, argv, &o->c);

	if (c != CDM_CLI_GO_ON)
		return c;
	if (argc - optind != 1)
		return cdm_cli_usage(&cmd, argc - optind ? "one saved result at a time, got %d files" :
				     "a saved result (RUN.json) expected", argc - optind);
	o->file = argv[optind];
	c = cdm_cli_files(&cmd, argv + optind, 1,
			  "is the result to report; write the report to another file",
			  o->c.output, o->fmt->name, NULL);
	if (c != CDM_CLI_GO_ON || !o->c.svg)
		return c;
	/* --svg: a file of its own, named *.svg */
	if (!o->c.svg[0])
		return cdm_cli_usage(&cmd, "an empty path was given");
	if (cdm_outfile_same(o->c.svg, o->c.output) ||
	    (strcmp(o->file, "-") && cdm_outfile_same(o->c.svg, o->file)))
		return cdm_cli_usage(&cmd, "--svg '%s' names the same file as --output or the result", o->c.svg);
	return cdm_cli_outfile(o->c.svg, "--svg", 1, "svg");
}

int cdm_cli_report_main(int argc, char **argv)
{
	struct report_opts o = { .fmt = cdm_report_find("cdm") };
	struct cdm_run_result *r = NULL;
	struct cdm_sweep *sw = NULL;
	int s, e;

	cdm_options_init(&o.c, NULL);
	s = parse_args(argc, argv, &o);
	if (s != CDM_CLI_GO_ON)
		return s;
	/*
	 * step 2: the saved run (cdm's JSON, one run or the aggregate of
	 * `cdm merge --save`, or a CrystalDiskMark report) or sweep; a file
	 * that is none is bad input
	 */
	e = cdm_cli_load_saved(o.file, CDM_RESULT_READ_AGGREGATE, &r, &sw);
	if (e < 0)
		return e == -ENOMEM ? CDM_EXIT_RUN : CDM_EXIT_USAGE;
	if (sw) {
		s = report_sweep(&o, sw);
		cdm_sweep_json_free(sw);
		return s;
	}
	/* as the run showed it, unless asked otherwise */
	if (o.c.aggregate_given)
		r->aggregate = o.c.aggregate;
	if (o.c.svg) {
		cdm_cli_image_link(o.c.output, o.c.svg, o.svg_link, sizeof(o.svg_link));
		r->image = o.svg_link;
	}
	/*
	 * step 3: the card, then the report on stdout or --output, as the
	 * run writes them: a report links only a card that is there (one that
	 * failed is said, and the report printed without its image line, exit
	 * 1), and a reader of stdout that stops early (SIGPIPE) cannot cost
	 * the card
	 */
	s = cdm_cli_save(o.c.svg, "svg", r, "write the card");
	if (s != CDM_EXIT_OK)
		r->image = NULL;
	if (cdm_cli_report(o.c.output, o.fmt, r) != CDM_EXIT_OK)
		s = CDM_EXIT_RUN;
	cdm_result_free(r);
	return s;
}
