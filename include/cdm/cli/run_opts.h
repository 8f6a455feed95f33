/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/run_opts.h - the run command's options as parsed, the one type
 * its three files share (run_cli.c parses them, run_setup.c builds the
 * run from them, run_exec.c runs it): a header of types only, so that the
 * three use it and not each other (no circle: docs/hacking.md, "Layers").
 */
#ifndef CDM_CLI_RUN_OPTS_H
#define CDM_CLI_RUN_OPTS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "cdm/cli/cli.h"
#include "cdm/cli/options.h"
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
	struct cdm_options_common common;       /* the shared options (options.h) */
	struct cdm_profile prof;        /* cfg.profile_name points into it */
	const char *profile;
	int profile_given;              /* -p: --list-profiles lists that one */
	int list;                       /* CDM_OPT_LIST_ENGINES or _PROFILES, else 0 */
	char svg_link[PATH_MAX];        /* --svg as the Markdown report links it */
	int mode_given;                 /* common.mode is --mode's, not the default */
	const char *start_at, *save_ranks;
	struct cdm_start_at sa;         /* cfg.sync_arg with --start-at */
	double cv_threshold;            /* percent */
	unsigned int mix;               /* --mix read percent; 0 = the profile's */
	const struct cdm_formatter *fmt;
};

#endif /* CDM_CLI_RUN_OPTS_H */
