/* SPDX-License-Identifier: MIT */
/*
 * main.c - cdm's entry: `cdm NAME ...` runs subcommand NAME (compare,
 * import, merge, report, sweep: the table subcommands[], each in its own
 * file), anything else is the run command (run_cli.c,
 * include/cdm/cli/run_cli.h); `cdm --help` lists both.  Exit status:
 * include/cdm/cli/exit.h.
 */
#include <string.h>
#include <sys/stat.h>

#include "cdm/cli/compare_cli.h"
#include "cdm/cli/import.h"
#include "cdm/cli/merge_cli.h"
#include "cdm/cli/options.h"
#include "cdm/cli/report_cli.h"
#include "cdm/base/err.h"
#include "cdm/cli/run_cli.h"
#include "cdm/cli/sweep_cli.h"
#include "cdm/base/msg.h"
#include "cdm/run/mpi.h"


/*
 * The subcommands, in one table: `cdm NAME ...` runs its main() (main()),
 * `cdm -q NAME ...` is refused with where it goes (misplaced_subcommand()),
 * and cdm --help shows its synopsis and what it does (print_help()).  Each
 * has its own file, help and options (cdm NAME --help).
 */
static const struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *synopsis;           /* after "cdm NAME " in the help */
	const char *what;               /* after "'cdm NAME' ", wrapped by hand */
} subcommands[] = {
	{ "compare", cdm_cli_compare_main, "[--format cdm|markdown|svg] A B [C ...]",
	  "sets results saved with --save, and CrystalDiskMark reports,\nside by side" },
	{ "import", cdm_cli_import_main, "[--save F.json] [--format FMT] REPORT.txt",
	  "turns a CrystalDiskMark report into cdm JSON" },
	{ "merge", cdm_cli_merge_main, "[--format FMT] [--save F.json] A.json [B.json ...]",
	  "adds up runs of several hosts started with\n--start-at" },
	{ "report", cdm_cli_report_main, "[--format FMT] [--output FILE] [--svg F.svg] RUN.json",
	  "prints a saved run again in any format" },
	{ "sweep", cdm_cli_sweep_main, "--threads 1,2,4,... | --qd 1,2,4,... --test SPEC [TARGET]",
	  "runs a test at several thread counts or depths" },
};
#define NSUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

/* the help: the synopses, what cdm and each subcommand do, the options */
static const char usage_intro[] =
"Run CrystalDiskMark's tests on a test file in directory TARGET (default \".\"),\n"
"or on a block device TARGET (/dev/sdX: read tests only, unless\n"
"--allow-destructive-write)\n"
"and print MB/s, IOPS and mean latency in CrystalDiskMark's text layout.\n";

static void print_help(void)
{
	size_t i;

	fputs("Usage: cdm [OPTIONS] [TARGET]\n", stdout);
	for (i = 0; i < NSUBCOMMANDS; i++)
		printf("       cdm %s %s\n", subcommands[i].name, subcommands[i].synopsis);
	fputs(usage_intro, stdout);
	for (i = 0; i < NSUBCOMMANDS; i++)
		printf("'cdm %s' %s (cdm %s --help).\n", subcommands[i].name, subcommands[i].what,
		       subcommands[i].name);
	cdm_cli_run_print_options(stdout);
}

/*
 * "cdm -q compare a.json b.json": a subcommand after cdm's own options.
 * Its options are not cdm's, so say where they go rather than take
 * "compare" for a TARGET.  Returns the exit status, or CDM_CLI_GO_ON.
 */
static int misplaced_subcommand(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (argv[i][0] == '-' && argv[i][1]) {
			i += cdm_cli_run_takes_next(argv[i]);
			continue;
		}
		for (size_t k = 0; k < NSUBCOMMANDS; k++) {
			const char *sub = subcommands[k].name;
			struct stat st;

			/* a directory of that name is a TARGET */
			if (strcmp(argv[i], sub) || stat(argv[i], &st) == 0)
				continue;
			return cdm_cli_usage(&cdm_cli_run_cmd, "'%s' is a subcommand: put it first, with its options after it (cdm %s [OPTIONS] ...; cdm %s --help)",
					     sub, sub, sub);
		}
		return CDM_CLI_GO_ON;   /* the first operand is not a subcommand */
	}
	return CDM_CLI_GO_ON;
}

/*
 * `cdm --list-options[=CMD]`: the option table of the run or of
 * subcommand CMD, for the tests that hold each --help, docs/cdm.1 and the
 * completions to it.  Hidden: not in --help, not a getopt option of the
 * run (its abbreviations stay as they were).  CDM_CLI_GO_ON for another
 * command line.
 */
static int list_options(int argc, char **argv)
{
	static const char opt[] = "--list-options";

	if (argc < 2 || strncmp(argv[1], opt, sizeof(opt) - 1) ||
	    (argv[1][sizeof(opt) - 1] && argv[1][sizeof(opt) - 1] != '='))
		return CDM_CLI_GO_ON;
	if (argc > 2)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--list-options takes nothing else, got '%s'", argv[2]);
	return cdm_options_list(stdout, argv[1][sizeof(opt) - 1] ? argv[1] + sizeof(opt) : "");
}

int main(int argc, char **argv)
{
	const struct cdm_mpi_hook *mpi = cdm_mpi_hook_get();
	int s;

	/* a closed stderr (2>&-) must not become the test file's descriptor */
	cdm_msg_hold_std_fds();
	/* a subcommand: cdm compare A.json B.json ... */
	for (size_t k = 0; argc > 1 && k < NSUBCOMMANDS; k++)
		if (!strcmp(argv[1], subcommands[k].name)) {
			/* getopt names the program from argv[0]: "cdm: ", as every message */
			argv[1] = (char *)"cdm";
			return subcommands[k].main(argc - 1, argv + 1);
		}
	if (mpi) {
		struct cdm_err err;

		if (mpi->init(&argc, &argv, &err) < 0) {
			cdm_msg_error("%s", err.msg);
			return CDM_EXIT_RUN;
		}
	}
	s = list_options(argc, argv);
	if (s == CDM_CLI_GO_ON)
		s = misplaced_subcommand(argc, argv);
	if (s != CDM_CLI_GO_ON)
		return s;
	return cdm_cli_run_main(argc, argv, print_help);
}
