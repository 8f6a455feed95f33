/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/compare.h - `cdm compare A.json B.json [C.json ...]`: results saved
 * with --save (or --format json) set side by side, per test and direction,
 * with each run's figure under its label and the ratio to the first run.
 * Reading is model/result_read.h's, the comparison model/compare.h's, the
 * layouts report/compare.h's (docs/output-formats.md shows them).
 */
#ifndef CDM_CLI_COMPARE_H
#define CDM_CLI_COMPARE_H

/*
 * cdm_cli_compare_main - the `cdm compare` subcommand: @argv[0] is "compare".
 * Prints the report on stdout (or --output), errors on stderr as
 * "cdm: FILE: why".  Returns the exit status: 0, 1 (the report could not
 * be written), 2 (usage error, or a file that cannot be read, is not JSON,
 * is truncated, is not a cdm result or has a newer schema_version).
 */
int cdm_cli_compare_main(int argc, char **argv);

#endif /* CDM_CLI_COMPARE_H */
