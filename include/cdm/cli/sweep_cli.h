/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/sweep_cli.h - `cdm sweep`: one or more tests run at a list of thread
 * counts and/or queue depths (SQLIO / ORION style), one result per point,
 * printed as a table (text or Markdown), saved as JSON, drawn as an SVG
 * chart; the knee of each curve is named (docs/method.md, "Sweeps").
 * The curves and their renderings are report/sweep_table.h's.
 */
#ifndef CDM_CLI_SWEEP_CLI_H
#define CDM_CLI_SWEEP_CLI_H

#include "cdm/report/sweep_table.h"   /* CDM_SWEEP_MAX_VALUES */

/*
 * cdm_cli_sweep_parse_list - "1,2,4,8" into @vals (at most
 * CDM_SWEEP_MAX_VALUES), each 1..@max, strictly increasing, no spaces or
 * empty items.  Sets *@n.  Returns 0, -EINVAL (bad text, not increasing,
 * too many) or -ERANGE (a value outside 1..@max).
 */
int cdm_cli_sweep_parse_list(const char *s, unsigned int max, unsigned int *vals, unsigned int *n);

/*
 * cdm_cli_sweep_main - the `cdm sweep` subcommand; @argv[0] is "sweep".
 * Returns the exit status (cli/exit.h: 0, 1 run failed, 2 usage,
 * 128 + signal).
 */
int cdm_cli_sweep_main(int argc, char **argv);

#endif /* CDM_CLI_SWEEP_CLI_H */
