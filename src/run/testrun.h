/* SPDX-License-Identifier: MIT */
/*
 * testrun.h - private to run/: one test of a run, as run/runner.c drives
 * it: its T workers (worker.h) set up, started through the warm-up and
 * `count` passes, watched (run/watch.h), then their counts merged into
 * the result model, with the notes about them and --verify's read-back.
 */
#ifndef CDM_RUN_TESTRUN_H
#define CDM_RUN_TESTRUN_H

#include "cdm/base/err.h"
#include "cdm/model/result.h"
#include "cdm/plan/plan.h"
#include "cdm/target/testfile.h"

/*
 * cdm_testrun_run - run test @idx (0-based in run order) of the run @info
 * on @f through @fd (@f's own, or --sync's O_DSYNC descriptor): fills
 * @tr, which the caller owns.  Returns 0, -EINTR on a stop request, or
 * -errno with @err set.  Everything allocated is freed before it returns.
 */
int cdm_testrun_run(const struct cdm_run_config *cfg, const struct cdm_run_info *info,
		    const struct cdm_testfile *f, int fd, struct cdm_test_result *tr,
		    unsigned int idx, struct cdm_err *err);

/* cdm_testrun_batch - cdm_runner_batch() (run/runner.h), which returns it */
unsigned int cdm_testrun_batch(unsigned int asked, unsigned int qd);

#endif /* CDM_RUN_TESTRUN_H */
