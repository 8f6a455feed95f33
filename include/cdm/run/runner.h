/* SPDX-License-Identifier: MIT */
/*
 * runner.h - runs a plan (plan/plan.h) on a target and fills the result
 * model.
 *
 * The method is CrystalDiskMark's (docs/method.md, "How CDM arrives at its
 * figures"): one test file, prepared once; every read test, then every
 * write test, then every mixed test (a spec with W<pct>, run once, and with
 * --mix every other spec at that read percent); per test a discarded
 * warm-up pass and `count` measured passes of `time` seconds, time-based
 * (the I/O wraps around the file); `interval` seconds between tests.
 * docs/method.md says how each figure is computed.
 */
#ifndef CDM_RUN_RUNNER_H
#define CDM_RUN_RUNNER_H

#include "cdm/model/result.h"
#include "cdm/plan/plan.h"

struct cdm_err;

/*
 * cdm_runner_run - check the target and the plan, prepare the test file, run
 * every test and fill @res (allocated by the caller with
 * cdm_result_alloc(cdm_plan_tests(cfg, NULL))).  Everything measured
 * before a failure or a stop request stays in @res; a test stopped by an
 * I/O error has tr->error and tr->error_offset set.  The test file is
 * removed before returning, whatever happens (unless --keep, on success;
 * never a --file or a device).  Notes and warnings (cdm_msg_note, cdm_msg_warn)
 * and the progress line (cfg->progress) go to stderr as the run goes.
 * Returns 0; -EINTR when stopped by cdm_runner_request_stop() (res->
 * interrupted holds the signal; no message); or another -errno with one
 * line in @err (may be NULL) that says what failed and where, for the
 * caller to print.  @err's message is "" only when cfg->sync failed
 * without one (cdm-mpi: another rank failed, and rank 0 says which).
 */
int cdm_runner_run(const struct cdm_run_config *cfg, struct cdm_run_result *res, struct cdm_err *err);

/*
 * cdm_runner_request_stop - ask a running cdm_runner_run() to stop as soon as the
 * I/O in flight completes (the workers read the flag once per batch).
 * @sig: the signal that asked (kept in res->interrupted); the first one
 * wins, and a stop once requested stays requested for the process.
 * Async-signal-safe: call it from a signal handler.
 */
void cdm_runner_request_stop(int sig);

/*
 * cdm_runner_batch - how many completions a worker reaps, and so restarts,
 * per engine call: @asked (--batch) when not 0, else Q / 8 clamped to
 * 1..16; never more than @qd.  Small batches keep a virtio disk's queue
 * steadily full (measured in docs/performance.md: at RND4K Q32T1, reaping
 * all 32 at once gave ~25 % fewer IOPS than batches of 4), at a small CPU
 * cost per I/O.
 */
unsigned int cdm_runner_batch(unsigned int asked, unsigned int qd);

/*
 * cdm_runner_install_signals - make every catchable signal whose default
 * action ends the process end it cleanly (docs/safety.md, section 4):
 * SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
 * SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT and the
 * real-time signals call cdm_runner_request_stop() (without SA_RESTART,
 * so a sleep or a blocking write returns EINTR at once; a write to a
 * closed pipe returns EPIPE).  The faults of cdm itself (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP) unlink the test file, async-
 * signal-safely, and are handed to the action they had before.  Once per
 * process; later calls do nothing.  Returns 0 or -errno from sigaction(2).
 */
int cdm_runner_install_signals(void);

/* cdm_runner_stop_requested - the signal passed to request_stop, or 0. */
int cdm_runner_stop_requested(void);

#endif /* CDM_RUN_RUNNER_H */
