/* SPDX-License-Identifier: MIT */
/*
 * report_cli.h - `cdm report RUN.json`: a result saved earlier (--save,
 * --format json, or the aggregate `cdm merge --save` wrote) read back and
 * printed again in any report format of the registry (report/report.h):
 * the CDM 8, 7 or 6 text, JSON, CSV, Markdown, ... (docs/output-formats.md).
 */
#ifndef CDM_CLI_REPORT_CLI_H
#define CDM_CLI_REPORT_CLI_H

/*
 * cdm_cli_report_main - `cdm report [--format F] [--output F] [--svg
 * F.svg] [--aggregate A] RUN.json`; @argv[0] is "report".  With --svg the
 * result's card too, written before the report (its Markdown links it,
 * cdm_cli_image_link(); a card that cannot be written is said, and the
 * report printed without its image line).
 * Returns the exit status (exit.h): 0; 1 when the
 * report or the card could not be written; 2 for a usage error or a file
 * that cannot be read as a result (one line naming the file and why).
 */
int cdm_cli_report_main(int argc, char **argv);

#endif /* CDM_CLI_REPORT_CLI_H */
