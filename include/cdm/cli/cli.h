/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what every cdm command does the same way: a usage error and its
 * "Try ... --help" line, --engine, --format and --aggregate, the test size
 * rounded to whole blocks, the files a command reads and writes checked
 * before any I/O, and the report written to --output or stdout, --save
 * and --svg.  Each helper prints (cli/ is the one layer that prints errors)
 * and returns the exit status to use (exit.h), so a command's steps stay
 * one line each: `if ((s = cdm_cli_engine(&cmd, name, &ops)) != CDM_CLI_GO_ON) return s;`.
 */
#ifndef CDM_CLI_CLI_H
#define CDM_CLI_CLI_H

#include <stdio.h>

#include "cdm/cli/exit.h"
#include "cdm/engine/engine.h"
#include "cdm/model/result.h"
#include "cdm/plan/plan.h"
#include "cdm/report/formatter.h"

/* a step's "carry on": not an exit status (those are >= 0) */
#define CDM_CLI_GO_ON (-1)

/*
 * struct cdm_cli_cmd - how a command names itself in its usage errors:
 * "<prefix>: <message>" then "Try '<help>'.".
 */
struct cdm_cli_cmd {
	const char *prefix;     /* "cdm", "cdm sweep", "cdm: merge" */
	const char *help;       /* "cdm --help", "cdm sweep --help" */
};

/*
 * cdm_cli_usage - print the usage error "<prefix>: <message>" and the line
 * "Try '<help>'." on stderr.  Returns CDM_EXIT_USAGE.
 */
int cdm_cli_usage(const struct cdm_cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * cdm_cli_try - only the "Try '<help>'." line, after getopt has said what
 * was wrong itself.  Returns CDM_EXIT_USAGE.
 */
int cdm_cli_try(const struct cdm_cli_cmd *cmd);

/*
 * cdm_cli_engine - --engine @name, resolved by cdm_engine_resolve() into
 * *@ops.  Returns CDM_CLI_GO_ON; CDM_EXIT_USAGE after a usage error for a
 * name cdm never had; CDM_EXIT_RUN after "cdm: <why>" for an engine not
 * built in or not working here.
 */
int cdm_cli_engine(const struct cdm_cli_cmd *cmd, const char *name,
		   const struct cdm_engine_ops **ops);

/*
 * cdm_cli_format - --format @arg: the formatter of the registry
 * (report/report.h) named @arg into *@fmt.  Returns CDM_CLI_GO_ON, or
 * CDM_EXIT_USAGE after the usage error "bad value for --format: '@arg'
 * (cdm, cdm7, ...)", which lists every format of the registry
 * (cdm_report_names()).
 */
int cdm_cli_format(const struct cdm_cli_cmd *cmd, const char *arg,
		   const struct cdm_formatter **fmt);

/*
 * cdm_cli_aggregate - --aggregate @arg ("best", "median", "mean";
 * cdm_result_aggregate_parse()) into *@agg.  Returns CDM_CLI_GO_ON, or
 * CDM_EXIT_USAGE after the usage error "bad value for --aggregate: ...".
 */
int cdm_cli_aggregate(const struct cdm_cli_cmd *cmd, const char *arg, enum cdm_aggregate *agg);

/*
 * cdm_cli_one_line - @s (an option's argument: --label, --comment) made
 * one line in every report, in place: control characters (newlines, tabs,
 * escapes) become spaces, so no text a user gives can add or break a line
 * of a report or its parsers.
 */
void cdm_cli_one_line(char *s);

/*
 * cdm_cli_round_size - cdm_plan_round_size() on @cfg, with a note on
 * stderr when the size was rounded down.  Returns CDM_CLI_GO_ON, or
 * CDM_EXIT_USAGE after a usage error for a size below one block.
 */
int cdm_cli_round_size(const struct cdm_cli_cmd *cmd, struct cdm_run_config *cfg);

/*
 * cdm_cli_outfile - may @path be written for option @opt (NULL @path:
 * nothing to check)?  First the name: cdm_outfile_check_format() with
 * @format, the format @opt writes ("cdm", "json", "csv", "markdown",
 * "svg"; NULL: any); then cdm_outfile_check() with @replace.  Every command
 * checks every output file here, before any I/O.  Returns CDM_CLI_GO_ON,
 * or after one line "cdm: <why>" on stderr CDM_EXIT_USAGE (a name that
 * says another format) or CDM_EXIT_RUN (a file that cannot be written).
 */
int cdm_cli_outfile(const char *path, const char *opt, int replace, const char *format);

/*
 * cdm_cli_files - the files of a command that reads @nin results @in and
 * writes a report to @output (NULL: stdout) in the format named @format
 * and a JSON copy to @save (NULL: none), checked before any is read or
 * written: no path is empty; @output and @save are two files; no file of
 * @in is @output or @save, which the usage error names as "<file>
 * @clash" ("is the report to import; write to another file"); then
 * cdm_cli_outfile() of @output (not replaced atomically) and @save
 * (replaced atomically, "json").  Returns CDM_CLI_GO_ON, CDM_EXIT_USAGE
 * after a usage error, or CDM_EXIT_RUN (a file that cannot be written).
 */
int cdm_cli_files(const struct cdm_cli_cmd *cmd, char *const *in, unsigned int nin,
		  const char *clash, const char *output, const char *format, const char *save);

/*
 * cdm_cli_open_output - the stream a command's report goes to: @path
 * opened for writing (created or truncated, as a shell's ">" does), or
 * stdout when @path is NULL; errno is 0 on return, so that
 * cdm_cli_close_output() names the cause of a failed write.  @what names
 * the report in the error ("report", "comparison").  Returns the stream,
 * or NULL after "cdm: <path>: cannot write the <what>: <why>" on stderr
 * (errno kept).
 */
FILE *cdm_cli_open_output(const char *path, const char *what);

/*
 * cdm_cli_close_output - the end of a report written to @out from
 * cdm_cli_open_output(@path, @what): @wrote is what the writer returned (0
 * or -errno); @out is flushed, its error flag checked and, unless stdout,
 * closed.  A failed write is named by errno when the stream set it (ENOSPC
 * on a full disk, EPIPE), else by @wrote, else EIO.  Returns CDM_EXIT_OK,
 * or CDM_EXIT_RUN after "cdm: <path or stdout>: writing the <what> failed:
 * <why>" on stderr.
 */
int cdm_cli_close_output(FILE *out, const char *path, const char *what, int wrote);

/*
 * cdm_cli_save - @r written to the file @path with the formatter named
 * @format ("json" for --save, "svg" for --svg), atomically
 * (cdm_report_save(): a failure leaves @path as it was); NULL @path:
 * nothing to write.  @doing says what failed: "save the result", "write
 * the card".  Returns CDM_EXIT_OK, or CDM_EXIT_RUN after "cdm: <path>:
 * cannot <doing>: <why>" on stderr.
 */
int cdm_cli_save(const char *path, const char *format, const struct cdm_run_result *r,
		 const char *doing);

/*
 * cdm_cli_run - cdm_run() of @cfg into @res, with the error it left
 * printed ("cdm: <why>"; nothing for a stop by a signal, -EINTR).
 * Returns what cdm_run() returned.
 */
int cdm_cli_run(const struct cdm_run_config *cfg, struct cdm_run_result *res);

/*
 * cdm_cli_unmeasured - say on stderr, per test of @res that has passes
 * but measured nothing (model/result.h, cdm_result_state()), why:
 * "RND4K Q1T1 Read measured nothing: no I/O completed in the 1 s pass;
 * the slowest I/O in flight had waited 1.0 s"; and warn about a test some
 * of whose passes measured nothing.  @what: "the run", "the aggregate".
 * Returns the number of tests that measured nothing: the caller exits
 * CDM_EXIT_RUN when it is not 0 (docs/method.md, "Nothing measured").
 */
unsigned int cdm_cli_unmeasured(const struct cdm_run_result *res, const char *what);

#endif /* CDM_CLI_CLI_H */
