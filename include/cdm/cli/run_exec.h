/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/run_exec.h - the run command's steps 4 and 5 (cli/run_cli.h):
 * the run (on every rank in cdm-mpi, run/mpi.h's cdm_mpi_hook), then its
 * notes, chart, report and exit status.
 */
#ifndef CDM_CLI_RUN_EXEC_H
#define CDM_CLI_RUN_EXEC_H

#include "cdm/cli/run_opts.h"

/*
 * cdm_run_exec_run - step 4: run the plan of @o into *@res (free it with
 * cdm_run_exec_free()); *@r is what cdm_runner_run() returned.  In cdm-mpi
 * *@res becomes the aggregate on rank 0.  Returns CDM_CLI_GO_ON, or the
 * exit status when there is nothing to report.
 */
int cdm_run_exec_run(struct cdm_cli_run_opts *o, struct cdm_run_result **res, int *r);

/*
 * cdm_run_exec_report - step 5: the notes, the chart, the report of what
 * was measured (all of it, or the rows before a stop or an I/O error),
 * and how the run ended.  @r: what cdm_runner_run() returned.  Returns
 * the exit status.
 */
int cdm_run_exec_report(const struct cdm_cli_run_opts *o, struct cdm_run_result *res, int r);

/* cdm_run_exec_free - free what cdm_run_exec_run() left in *@res. */
void cdm_run_exec_free(struct cdm_run_result *res);

#endif /* CDM_CLI_RUN_EXEC_H */
