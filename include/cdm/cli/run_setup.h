/* SPDX-License-Identifier: MIT */
/*
 * cdm/cli/run_setup.h - the run command's steps 2 and 3 (cli/run_cli.h):
 * its configuration built from the options over the profile, checked,
 * the engine resolved; the files it writes checked before anything
 * touches the target.
 */
#ifndef CDM_CLI_RUN_SETUP_H
#define CDM_CLI_RUN_SETUP_H

#include "cdm/cli/run_opts.h"

/*
 * cdm_run_setup_config - step 2: the format, the profile with @o's
 * options over it (@o->cfg), checked; the engine.  Returns CDM_CLI_GO_ON,
 * or the exit status (2, a usage error, said on stderr).
 */
int cdm_run_setup_config(struct cdm_cli_run_opts *o);

/*
 * cdm_run_setup_outputs - step 3: --output, --save, --plot and --svg are
 * files of their own that can be written.  Returns CDM_CLI_GO_ON, or the
 * exit status (said on stderr).
 */
int cdm_run_setup_outputs(const struct cdm_cli_run_opts *o);

#endif /* CDM_CLI_RUN_SETUP_H */
