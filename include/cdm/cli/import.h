/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/import.h - `cdm import REPORT.txt [--save R.json]`: a
 * CrystalDiskMark text report (format/cdm_read.h) turned into cdm's JSON
 * (schema 3, docs/output-formats.md) for later compares, or printed in any
 * report format.
 */
#ifndef CDM_CLI_IMPORT_H
#define CDM_CLI_IMPORT_H

/*
 * cdm_cli_import_main - the `cdm import` subcommand: @argv[0] is "import".
 * Prints the imported run on stdout (or --output) in --format (default
 * cdm), unless only --save was asked for; errors on stderr as "cdm: FILE:
 * why" (one line).  Returns the exit status: 0; 1 when the report or the
 * JSON could not be written; 2 for a usage error, or a file that cannot
 * be read or is not a CrystalDiskMark report.
 */
int cdm_cli_import_main(int argc, char **argv);

#endif /* CDM_CLI_IMPORT_H */
