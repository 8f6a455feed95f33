/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/compare_cli.h - `cdm compare A B [C ...]`: results saved with --save
 * (or --format json, or `cdm import --save`) and CrystalDiskMark text
 * reports set side by side, per test and direction, with each run's
 * figure under its label and the ratio to the first run.  Reading is
 * format/result_load.h's, the comparison model/compare.h's, the layouts
 * report/compare_table.h's (docs/output-formats.md shows them).
 */
#ifndef CDM_CLI_COMPARE_CLI_H
#define CDM_CLI_COMPARE_CLI_H

/*
 * cdm_cli_compare_main - the `cdm compare` subcommand: @argv[0] is "compare".
 * Prints the report on stdout (or --output), errors on stderr as
 * "cdm: FILE: why".  Returns the exit status: 0, 1 (the report could not
 * be written), 2 (usage error, or a file that cannot be read, is truncated
 * JSON, is JSON but not a cdm result, has a newer schema_version, or is
 * text that is not a CrystalDiskMark report: "cdm: FILE: line 7: ...").
 */
int cdm_cli_compare_main(int argc, char **argv);

#endif /* CDM_CLI_COMPARE_CLI_H */
