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
#include "cdm/model/sweep.h"
#include "cdm/plan/plan.h"
#include "cdm/format/formatter.h"

/* a step's "carry on": not an exit status (those are >= 0) */
#define CDM_CLI_GO_ON (-1)

/*
 * struct cdm_cli_cmd - where a command's usage errors send the user: every
 * error line of every command is "cdm: <message>" (base/msg.h: the
 * subcommand is not repeated, the message names its subject), and a usage
 * error is followed by "Try '<help>'.".
 */
struct cdm_cli_cmd {
	const char *help;       /* "cdm --help", "cdm sweep --help" */
};

/*
 * cdm_cli_run_cmd - the run's command: its usage errors end "Try 'cdm
 * --help'."  Here, not in run_cli.c, so that the run command's files
 * (run_cli.c, run_setup.c, run_exec.c) share it without using each other
 * in a circle.
 */
extern const struct cdm_cli_cmd cdm_cli_run_cmd;

/*
 * cdm_cli_usage - print the usage error "cdm: <message>" (one line:
 * base/msg.h) and the line "Try '<help>'." on stderr.  Returns
 * CDM_EXIT_USAGE.
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
 * cdm_cli_null_service - --null-service-us @arg into @cfg->null_device,
 * for cdm and cdm sweep alike: "N" (N us per I/O, 0-10000000) or "N,M@S"
 * (M us for the I/Os started S seconds, 0.001-CDM_TIME_MAX to the ms, or
 * more after the test's first): shorthand for --null-device lat=Nus,
 * channels=all (and ;at=Ss,lat=Mus), read by cdm_devspec_service().
 * Returns CDM_CLI_GO_ON, or CDM_EXIT_USAGE after the usage error "bad
 * value for --null-service-us".
 */
int cdm_cli_null_service(const struct cdm_cli_cmd *cmd, const char *arg,
			 struct cdm_run_config *cfg);

/*
 * cdm_cli_null_device - --null-device @arg (cdm/base/devspec.h's grammar)
 * into @cfg->null_device, for cdm and cdm sweep alike.  Returns
 * CDM_CLI_GO_ON, or CDM_EXIT_USAGE after the usage error "bad value for
 * --null-device: 'iops=abc' (iops=N|none, ...)", naming the bad part.
 */
int cdm_cli_null_device(const struct cdm_cli_cmd *cmd, const char *arg,
			struct cdm_run_config *cfg);

/*
 * cdm_cli_null_check - the two options of the null engine's device, as
 * given (@service: --null-service-us, @device: --null-device; NULL when
 * not given), against each other and against @cfg->engine once resolved
 * (NULL: not yet, not checked): both together, or either with an engine
 * that does I/O, are refused.  Returns CDM_CLI_GO_ON, or CDM_EXIT_USAGE
 * after the usage error.
 */
int cdm_cli_null_check(const struct cdm_cli_cmd *cmd, const char *service, const char *device,
		       const struct cdm_run_config *cfg);

/*
 * cdm_cli_round_size - cdm_plan_round_size() on @cfg, with a note on
 * stderr when the size was rounded down.  Returns CDM_CLI_GO_ON, or
 * CDM_EXIT_USAGE after a usage error for a size below one block.
 */
int cdm_cli_round_size(const struct cdm_cli_cmd *cmd, struct cdm_run_config *cfg);

/*
 * cdm_cli_outfile - may @path be written for option @opt (NULL @path:
 * nothing to check)?  First the name: cdm_outfile_check_format() with
 * the extension and title of @format, the format @opt writes ("cdm",
 * "json", "csv", "markdown", "svg": its registry row; NULL: any); then cdm_outfile_check() with @replace.  Every command
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
 * @clash" ("is the report to import; write to another file"); "-" (stdin)
 * is in @in at most once; then cdm_cli_outfile() of @output and @save
 * ("json").  Returns CDM_CLI_GO_ON, CDM_EXIT_USAGE
 * after a usage error, or CDM_EXIT_RUN (a file that cannot be written).
 */
int cdm_cli_files(const struct cdm_cli_cmd *cmd, char *const *in, unsigned int nin,
		  const char *clash, const char *output, const char *format, const char *save);

/*
 * cdm_cli_load - the result a user named @arg, read with
 * cdm_result_load() (cdm JSON, or a CrystalDiskMark report, by its
 * content; @flags: CDM_RESULT_READ_ONE_RUN or _AGGREGATE) into a new *@r:
 * "-" is standard input, named "stdin" (in messages, and in the label of a
 * report without a Comment).  Every command that reads a result a user
 * names reads it here.  Returns 0, or the reader's -errno after one line
 * "cdm: <file>: <why>" on stderr (-EPROTONOSUPPORT: "...: read it with a
 * newer cdm").  A CrystalDiskMark report without its footer
 * (info.source.no_footer) is read, with one line "cdm: note: <file>: no
 * footer (Profile/Test/Date lines): the report may be cut short".
 */
int cdm_cli_load(const char *arg, unsigned int flags, struct cdm_run_result **r);

/*
 * cdm_cli_load_saved - cdm_cli_load(), or a sweep's JSON into a new
 * *@sweep when @sweep is not NULL (cdm_result_load_saved(): *@r then
 * stays NULL; free the sweep with cdm_sweep_json_free()), with the same
 * messages.  For `cdm report`.  Returns 0, or the reader's -errno after
 * its one line on stderr, as cdm_cli_load() does.
 */
int cdm_cli_load_saved(const char *arg, unsigned int flags, struct cdm_run_result **r,
		       struct cdm_sweep **sweep);

/*
 * cdm_cli_write_error - say why the file @path was not written: "cdm:
 * <path>: cannot <doing>: <why>" for the -errno @e (ENOSPC: "No space left
 * on device"), or, for -EINTR, "cdm: <path>: not written: a signal came
 * while cdm was writing it".
 */
void cdm_cli_write_error(const char *path, const char *doing, int e);

/*
 * cdm_cli_output - a command's report, rendered by @write(@f, @arg), to
 * --output @path or, when @path is NULL or "-", to stdout
 * (cdm_outfile_emit(): a file is replaced atomically, stdout is a stream).
 * @what names it in the error ("report", "comparison").  Returns
 * CDM_EXIT_OK, or CDM_EXIT_RUN after "cdm: <path or stdout>: writing the
 * <what> failed: <why>" (EPIPE, ENOSPC: the errno of the write that
 * failed) or cdm_cli_write_error()'s line for a signal.
 */
int cdm_cli_output(const char *path, const char *what,
		   int (*write)(FILE *f, const void *arg), const void *arg);

/*
 * cdm_cli_report - cdm_cli_output() of @r in the format @fmt, "report".
 */
int cdm_cli_report(const char *path, const struct cdm_formatter *fmt,
		   const struct cdm_run_result *r);

/*
 * cdm_cli_file - a file of its own (--save, --svg, --plot), rendered by
 * @write(@f, @arg), written to @path atomically (cdm_outfile_write(): a
 * failure or a signal leaves @path as it was and no temporary file); NULL
 * @path: nothing to write.  @doing says what failed: "save the result",
 * "write the card".  Returns CDM_EXIT_OK, or CDM_EXIT_RUN after
 * cdm_cli_write_error().
 */
int cdm_cli_file(const char *path, const char *doing,
		 int (*write)(FILE *f, const void *arg), const void *arg);

/*
 * cdm_cli_save - cdm_cli_file() of @r with the formatter named @format
 * ("json" for --save, "svg" for --svg).
 */
int cdm_cli_save(const char *path, const char *format, const struct cdm_run_result *r,
		 const char *doing);

/*
 * cdm_cli_image_link - into @buf (@len bytes) the path of the card @svg
 * (--svg) as a Markdown report written to @output (NULL or "-": stdout,
 * the current directory) links it: relative to @output's directory where
 * cdm_outfile_relative() can say it, else @svg as given, byte for byte
 * (the Markdown writer percent-encodes what a link cannot hold).  The run
 * and `cdm report` set it as the result's image.
 */
void cdm_cli_image_link(const char *output, const char *svg, char *buf, size_t len);

/*
 * cdm_cli_run_prepare - what every run does before cdm_cli_run(): the
 * stop signals' handlers installed, and *@res allocated for @cfg's tests
 * (the caller frees it with cdm_result_free(); NULL on failure).  Returns
 * CDM_CLI_GO_ON, or CDM_EXIT_RUN with the error said on stderr.
 */
int cdm_cli_run_prepare(const struct cdm_run_config *cfg, struct cdm_run_result **res);

/*
 * cdm_cli_run - cdm_runner_run() of @cfg into @res, with the error it left
 * printed ("cdm: <why>"; nothing for a stop by a signal, -EINTR), and
 * @res's texts made one line (cdm_result_info_one_line(): a TARGET path
 * with a newline is the default label).
 * Returns what cdm_runner_run() returned.
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

/*
 * cdm_cli_late_signal - the signal that asked cdm to stop after the run
 * ended, while its outputs were written (@r: what cdm_runner_run() returned; a
 * stop during the run is -EINTR and not "late"), or 0.  The command then
 * writes no further file and exits 128 + N (docs/safety.md, section 4);
 * SIGPIPE only says stdout is gone, so the files are still written, but
 * the exit status is still 128 + SIGPIPE.
 */
int cdm_cli_late_signal(int r);

/*
 * cdm_cli_write_no_more - 1 when cdm_cli_late_signal(@r) is a signal other
 * than SIGPIPE: the outputs not yet written are left unwritten (SIGPIPE
 * says only that stdout is gone; the files are still written), else 0.
 */
int cdm_cli_write_no_more(int r);

/*
 * cdm_cli_verify_faults - with --verify: for each test of @res whose
 * read-back found lost, misdirected or torn writes (struct cdm_verify),
 * one error line on stderr naming the test and what was found, worded
 * as the text report's Verify: line words it (cdm_fmt_verify_found()):
 * "--verify: SEQ128K Q1T1 Write: 1 lost write at offset 1310720, 1 torn
 * block at offset 2621440: this storage does not return what was
 * written".  The only place stderr tells the faults (the runner does
 * not).  Returns the number of such tests: the caller exits CDM_EXIT_RUN
 * when it is not 0 (docs/method.md, "Verification").
 */
unsigned int cdm_cli_verify_faults(const struct cdm_run_result *res);

#endif /* CDM_CLI_CLI_H */
