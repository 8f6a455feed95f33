/* SPDX-License-Identifier: MIT */
/*
 * import.c - `cdm import`: a CrystalDiskMark text report read by
 * format/cdm_read.c, then saved as cdm JSON (--save, atomically, as `cdm
 * --save` does) and/or printed with any formatter of the registry.  Here
 * only what a command does: options, the one-line errors naming the file,
 * and the exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/text.h"
#include "cdm/base/msg.h"
#include "cdm/cli/cli.h"
#include "cdm/cli/import.h"
#include "cdm/cli/options.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/report/report.h"

static const char import_usage[] =
"Usage: cdm import [OPTIONS] REPORT.txt\n"
"Read a CrystalDiskMark text report (3.x to 9.x; UTF-8, or UTF-16 as CDM 6\n"
"and 7 save it; CRLF or LF; pasted with '> ' quotes as in a blog post) and\n"
"save it as cdm JSON for later 'cdm compare', or print it.  The run keeps\n"
"only what the report printed: CDM's best-of figures, no passes, and the\n"
"settings its footer states.  REPORT.txt may be - for standard input.\n"
"\n"
"      --save FILE.json     save the run as cdm JSON (schema 3)\n"
"  -f, --format FMT         print the run in any report format:\n"
"                           %s\n"
"                           (default: cdm; with --save only, nothing is printed)\n"
"  -o, --output FILE        print to FILE (default: stdout)\n"
"      --label TEXT         the run's label (default: the report's Comment,\n"
"                           else the file's name without extension)\n"
"  -h, --help               this help\n"
"\n"
"Exit status: 0 success, 1 writing failed, 2 usage error or a file that is\n"
"not a CrystalDiskMark report.  See cdm(1).\n";

static const struct cdm_cli_cmd cmd = { "cdm import --help" };

/* what the options ask for */
struct import_opts {
	struct cdm_options_common c;    /* --output, --save, --label */
	const struct cdm_formatter *fmt;        /* NULL: not asked for */
	const char *file;
};

/* the options into @o; returns CDM_CLI_GO_ON, else the exit status */
static int parse_opts(int argc, char **argv, struct import_opts *o)
{
	/* the formats from the registry: every one it has */
	struct cdm_options_parser p = {
		CDM_OPTIONS_IMPORT, &cmd, NULL, import_usage, cdm_options_registry_format, &o->fmt,
	};
	int c = cdm_options_parse(&p, argc, argv, &o->c);

	if (c != CDM_CLI_GO_ON)
		return c;
	if (argc - optind != 1)
		return cdm_cli_usage(&cmd, "one CrystalDiskMark report expected, got %d", argc - optind);
	o->file = argv[optind];
	if (o->c.label && (!o->c.label[0] || strlen(o->c.label) >= CDM_NAME_MAX * 4))
		return cdm_cli_usage(&cmd, "--label must be 1 to %d bytes", CDM_NAME_MAX * 4 - 1);
	if (!o->fmt && (o->c.output || !o->c.save))
		o->fmt = cdm_report_find("cdm");
	return cdm_cli_files(&cmd, argv + optind, 1, "is the report to import; write to another file",
			     o->c.output, o->fmt ? o->fmt->name : NULL, o->c.save);
}

/* the report of @o->file into *@r; CDM_CLI_GO_ON or the exit status */
static int read_report(const struct import_opts *o, struct cdm_run_result **r)
{
	int ret = cdm_cli_load(o->file, CDM_RESULT_READ_ONE_RUN, r);

	if (ret < 0)
		return ret == -ENOMEM ? CDM_EXIT_RUN : CDM_EXIT_USAGE;
	if ((*r)->info.source.kind == CDM_SOURCE_RUN) {
		cdm_msg_error("%s: JSON, not a CrystalDiskMark report: a cdm result needs no import (cdm compare reads it)",
			      strcmp(o->file, "-") ? o->file : "stdin");
		cdm_result_free(*r);
		*r = NULL;
		return CDM_EXIT_USAGE;
	}
	if (o->c.label)
		snprintf((*r)->info.label, sizeof((*r)->info.label), "%s", o->c.label);
	return CDM_CLI_GO_ON;
}

/* the JSON, then the printed report; the exit status */
static int write_outputs(const struct import_opts *o, const struct cdm_run_result *r)
{
	if (cdm_cli_save(o->c.save, "json", r, "save the imported run") != CDM_EXIT_OK)
		return CDM_EXIT_RUN;
	if (!o->fmt)
		return CDM_EXIT_OK;
	return cdm_cli_report(o->c.output, o->fmt, r);
}

int cdm_cli_import_main(int argc, char **argv)
{
	struct import_opts o = { .fmt = NULL };
	struct cdm_run_result *r = NULL;
	int s;

	cdm_options_init(&o.c, NULL);
	s = parse_opts(argc, argv, &o);
	if (s == CDM_CLI_GO_ON)
		s = read_report(&o, &r);
	if (s != CDM_CLI_GO_ON)
		return s;
	s = write_outputs(&o, r);
	cdm_result_free(r);
	return s;
}
