/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/run_cli.h - the run command, `cdm [OPTIONS] [TARGET]`, in five
 * steps: its options parsed (run_cli.c), the configuration built from
 * them and the files it writes checked (run_setup.c, cli/run_setup.h),
 * the run and its report (run_exec.c, cli/run_exec.h).  cli/main.c
 * dispatches to it.  Exit status: include/cdm/cli/exit.h.
 */
#ifndef CDM_CLI_RUN_CLI_H
#define CDM_CLI_RUN_CLI_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "cdm/cli/cli.h"
#include "cdm/model/result.h"
#include "cdm/plan/plan.h"
#include "cdm/plan/profile.h"
#include "cdm/format/formatter.h"
#include "cdm/run/start_at.h"

/*
 * struct cdm_cli_run_opts - the command line as parsed (run_cli.c), and
 * the run built from it (run_setup.c).  Options that map straight onto
 * the run's configuration are set in @cfg while parsing; the rest wait
 * here until cdm_run_setup_config() layers them over the profile.
 */
struct cdm_cli_run_opts {
	struct cdm_run_config cfg;
	struct cdm_profile prof;        /* cfg.profile_name points into it */
	struct cdm_spec tests[CDM_MAX_TESTS];   /* --test, in order */
	unsigned int ntests;
	const char *profile, *engine, *format;
	int profile_given;              /* -p: --list-profiles lists that one */
	int list;                       /* OPT_LIST_ENGINES or _PROFILES, else 0 */
	const char *output, *save, *label, *plot, *svg;
	char svg_link[PATH_MAX];        /* --svg as the Markdown report links it */
	const char *mode;
	int mode_given;
	const char *start_at, *save_ranks;
	struct cdm_start_at sa;         /* cfg.sync_arg with --start-at */
	enum cdm_aggregate aggregate;
	double cv_threshold;            /* percent */
	uint64_t size;                  /* --size, bytes; 0 = the profile's */
	unsigned long count;            /* 0 = the profile's */
	int time_ms, interval_ms, warmup_ms;    /* -1 = the profile's */
	unsigned int mix;               /* --mix read percent; 0 = the profile's */
	const struct cdm_formatter *fmt;
	const char *null_service;       /* --null-service-us as given, or NULL */
	const char *null_device;        /* --null-device as given, or NULL */
};

/* cdm_cli_run_cmd - the run's usage errors end "Try 'cdm --help'." */
extern const struct cdm_cli_cmd cdm_cli_run_cmd;

/*
 * cdm_cli_run_main - the run command: @argv as main() has it (argv[0] is
 * renamed "cdm" for getopt's messages); @help prints `cdm --help` (the
 * synopses are cli/main.c's, the options cdm_cli_run_print_options()).
 * Returns the exit status (exit.h).
 */
int cdm_cli_run_main(int argc, char **argv, void (*help)(void));

/* cdm_cli_run_print_options - the options part of `cdm --help`, to @f. */
void cdm_cli_run_print_options(FILE *f);

/*
 * cdm_cli_run_takes_next - does the run option @arg, as written on the
 * command line ("--size", "-qt"), take the next word as its argument?
 * 1 or 0 (0 for an option the run does not know).
 */
int cdm_cli_run_takes_next(const char *arg);

#endif /* CDM_CLI_RUN_CLI_H */
