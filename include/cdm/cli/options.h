/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/options.h - every option of every cdm command in one table
 * (options.c), and the one parse loop of them all: getopt_long()'s arrays
 * and short string are built from the table for the command at hand, the
 * options shared by cdm and its subcommands (--format, --output, --save,
 * --label, --aggregate, --engine, --quiet, --help, ...) are parsed here
 * once into struct cdm_options_common, and each command's handler does
 * the rest (its own options, and what it checks of the shared ones).
 *
 * Each option has one long name, at most one short letter, and that
 * letter means the same option in every command that has it (-s is
 * --size, in cdm and cdm sweep; no other command has -s).  Adding an
 * option: a row of cdm_options_table[] (options.c), a key below for a
 * long-only one, and the code that acts on it (docs/hacking.md, "Adding
 * an option").
 */
#ifndef CDM_CLI_OPTIONS_H
#define CDM_CLI_OPTIONS_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>               /* optind */

#include "cdm/cli/cli.h"
#include "cdm/model/result.h"
#include "cdm/plan/plan.h"

/* the commands, as the bits of an option's cmds */
enum cdm_options_cmd {
	CDM_OPTIONS_RUN = 1 << 0,       /* cdm [OPTIONS] [TARGET] */
	CDM_OPTIONS_SWEEP = 1 << 1,
	CDM_OPTIONS_COMPARE = 1 << 2,
	CDM_OPTIONS_IMPORT = 1 << 3,
	CDM_OPTIONS_MERGE = 1 << 4,
	CDM_OPTIONS_REPORT = 1 << 5,
	CDM_OPTIONS_MPI = 1 << 6,       /* the run of cdm-mpi only */
};

/*
 * The keys of the options without a short letter (those with one have
 * the letter as key: 'p', 't', 's', 'n', 'T', 'e', 'f', 'o', 'k', 'q',
 * 'h', 'V'): what getopt_long() returns and a handler switches on.
 */
enum cdm_options_key {
	CDM_OPT_INTERVAL = 256, CDM_OPT_WARMUP, CDM_OPT_MODE, CDM_OPT_DATA,
	CDM_OPT_BUFFERED, CDM_OPT_COMMENT, CDM_OPT_LIST_ENGINES, CDM_OPT_MIX,
	CDM_OPT_NULL_SERVICE, CDM_OPT_NULL_DEVICE, CDM_OPT_NO_REGISTER,
	CDM_OPT_FILE, CDM_OPT_BATCH, CDM_OPT_SQPOLL, CDM_OPT_HIPRI,
	CDM_OPT_AGGREGATE, CDM_OPT_SAVE, CDM_OPT_LABEL, CDM_OPT_CV_THRESHOLD,
	CDM_OPT_ALLOW_DESTRUCTIVE, CDM_OPT_RATE_IOPS, CDM_OPT_SEED,
	CDM_OPT_SYNC, CDM_OPT_FSYNC, CDM_OPT_START_AT, CDM_OPT_SAVE_RANKS,
	CDM_OPT_LOG_INTERVAL, CDM_OPT_PLOT, CDM_OPT_SVG, CDM_OPT_LIST_PROFILES,
	CDM_OPT_CPUS, CDM_OPT_PRECONDITION, CDM_OPT_VERIFY,
	CDM_OPT_END_FSYNC, CDM_OPT_STEADY_STATE, CDM_OPT_MAX_ROUNDS,
	CDM_OPT_THREADS, CDM_OPT_QD, CDM_OPT_METRIC,
};

/*
 * struct cdm_options_opt - one option: --@name, -@key when @key is a
 * letter; @has_arg is getopt's no_argument or required_argument; @arg
 * names the argument in the help ("SIZE", "FILE"; NULL: none); @cmds the
 * commands that take it (enum cdm_options_cmd bits); @help one line of
 * what it does (`cdm --list-options`; each command's --help says more).
 */
struct cdm_options_opt {
	const char *name;
	int key;
	int has_arg;
	const char *arg;
	unsigned int cmds;
	const char *help;
};

/* the table, ended by a row with a NULL name */
extern const struct cdm_options_opt cdm_options_table[];

/*
 * struct cdm_options_common - the values of the options shared by two or
 * more commands, parsed once (cdm_options_parse()).  Strings point into
 * argv, NULL when not given (or the default the command set before).
 */
struct cdm_options_common {
	struct cdm_run_config *cfg;     /* run, sweep: set by --buffered, --quiet,
					 * --null-*; NULL for the others */
	struct cdm_spec tests[CDM_MAX_TESTS];   /* --test, in order */
	unsigned int ntests;
	const char *format, *output, *save, *label, *plot, *svg;
	const char *engine, *mode, *metric;
	const char *null_service, *null_device;         /* as given */
	enum cdm_aggregate aggregate;
	int aggregate_given;
	uint64_t size;                  /* --size, bytes; 0 = not given */
	unsigned long count;            /* --count; 0 = not given */
	int time_ms, interval_ms, warmup_ms;    /* -1 = not given */
};

/*
 * struct cdm_options_parser - a command's parse: its @cmds bits (a row
 * is the command's when row.cmds & @cmds), @cmd for its usage errors,
 * @help printing its --help on stdout, or when NULL @usage, a printf
 * format whose one %s is the registry's formats (cdm_options_help_formats()),
 * and @handle(@p, @key, @arg) called for every option after the shared
 * part is parsed (NULL @arg for one without an argument), returning
 * CDM_CLI_GO_ON or the exit status; @ctx is the handler's.
 */
struct cdm_options_parser {
	unsigned int cmds;
	const struct cdm_cli_cmd *cmd;
	void (*help)(void);
	const char *usage;
	int (*handle)(const struct cdm_options_parser *p, int key, char *arg);
	void *ctx;
};

/*
 * cdm_options_init - @c with nothing given: zeros, CDM_AGG_BEST, the
 * times -1, @cfg (may be NULL) as its cfg.
 */
void cdm_options_init(struct cdm_options_common *c, struct cdm_run_config *cfg);

/*
 * cdm_options_parse - @argv's options (from optind = 1) by @p: the shared
 * ones into @c, with their usage errors ("bad value for --size: ...",
 * "too many --test options ...", --aggregate's, --null-*'s), then
 * @p->handle for each; --help prints @p->help and stops; an option the
 * command lacks or one without its argument is getopt's own message and
 * "Try '<help>'.".  A long option may be abbreviated, as getopt_long()
 * allows ("--profil" for --profile): each abbreviation gets a note on
 * stderr naming the option it was taken as ("--profil is taken as
 * --profile").  optind is then the first operand.  Returns
 * CDM_CLI_GO_ON, or the exit status (CDM_EXIT_OK after --help,
 * CDM_EXIT_USAGE after a usage error, or what a handler returned).
 */
int cdm_options_parse(const struct cdm_options_parser *p, int argc, char **argv,
		      struct cdm_options_common *c);

/*
 * cdm_options_help_formats - a --help on stdout: @usage, a printf format
 * whose one %s is the list of the registry's formats (cdm_report_names()).
 */
void cdm_options_help_formats(const char *usage);

/*
 * cdm_options_registry_format - a handler (struct cdm_options_parser) for
 * the commands whose --format is any of the registry's: @p->ctx is a
 * const struct cdm_formatter **, set by cdm_cli_format() from -f @arg.
 */
int cdm_options_registry_format(const struct cdm_options_parser *p, int key, char *arg);

/*
 * cdm_options_takes_next - does @arg, an option of the commands @cmds as
 * written on the command line ("--size", "-qt", or an abbreviation that
 * getopt_long() takes, "--siz"), take the next word as its argument?
 * 1 or 0 (0 for an option they lack, an ambiguous abbreviation, or
 * "--name=ARG").
 */
int cdm_options_takes_next(unsigned int cmds, const char *arg);

/*
 * cdm_options_list - `cdm --list-options[=CMD]` (hidden, for the tests
 * that hold --help, docs/cdm.1 and the completions to the table): the
 * options of CMD (@cmd "" or NULL: the run; "sweep", "compare", ...),
 * one a line, "--NAME<TAB>-X or -<TAB>ARG or -<TAB>help", on @f.
 * Returns CDM_EXIT_OK, or CDM_EXIT_USAGE after a usage error for a
 * command cdm lacks.
 */
int cdm_options_list(FILE *f, const char *cmd);

#endif /* CDM_CLI_OPTIONS_H */
