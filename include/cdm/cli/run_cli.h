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

#include <stdio.h>

#include "cdm/cli/run_opts.h"

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
