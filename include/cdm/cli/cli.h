/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what every cdm command does the same way: a usage error and its
 * "Try ... --help" line, --engine, and the test size rounded to whole
 * blocks.  Each helper prints (cli/ is the one layer that prints errors)
 * and returns the exit status to use (exit.h), so a command's steps stay
 * one line each: `if ((s = cdm_cli_engine(&cmd, name, &ops)) != CDM_CLI_GO_ON) return s;`.
 */
#ifndef CDM_CLI_CLI_H
#define CDM_CLI_CLI_H

#include "cdm/cli/exit.h"
#include "cdm/engine/engine.h"
#include "cdm/plan/plan.h"

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
 * cdm_cli_run - cdm_run() of @cfg into @res, with the error it left
 * printed ("cdm: <why>"; nothing for a stop by a signal, -EINTR).
 * Returns what cdm_run() returned.
 */
struct cdm_run_result;
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
