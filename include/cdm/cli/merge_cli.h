/* SPDX-License-Identifier: MIT */
/*
 * merge_cli.h - `cdm merge`: the results of one plan run on several hosts
 * at once (each started with --start-at, saved with --save) combined into
 * one aggregate by cdm_merge() (model/merge.h), exactly as cdm-mpi
 * combines its ranks (docs/scale-out.md).
 */
#ifndef CDM_CLI_MERGE_CLI_H
#define CDM_CLI_MERGE_CLI_H

/*
 * cdm_cli_merge_main - `cdm merge [--format F] [--output F] [--save F.json]
 * [--aggregate A] A.json B.json ...`; @argv[0] is "merge".  Returns the
 * exit status (exit.h): 0; 1 when the report or the aggregate could not be
 * written; 2 for a usage error, or a file that cannot be read or whose
 * plan differs from the others'.
 */
int cdm_cli_merge_main(int argc, char **argv);

#endif /* CDM_CLI_MERGE_CLI_H */
