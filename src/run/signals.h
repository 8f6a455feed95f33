/* SPDX-License-Identifier: MIT */
/*
 * signals.h - private to run/: the run's stop flag and the signal and
 * fault handlers behind run/runner.h's cdm_runner_install_signals(),
 * cdm_runner_request_stop() and cdm_runner_stop_requested()
 * (docs/safety.md, section 4, has the table of signals).
 */
#ifndef CDM_RUN_SIGNALS_H
#define CDM_RUN_SIGNALS_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * cdm_signals_install - the handlers, as cdm_runner_install_signals()
 * documents; once per process.  Returns 0 or -errno from sigaction(2).
 */
int cdm_signals_install(void);

/*
 * cdm_signals_request_stop - set the stop flag to @sig unless set (the
 * first wins; it stays set for the process).  Async-signal-safe.
 */
void cdm_signals_request_stop(int sig);

/* cdm_signals_stop_requested - the signal that asked to stop, or 0 */
int cdm_signals_stop_requested(void);

/* cdm_signals_stop_cb - 1 when a stop was requested, else 0: a stop callback */
int cdm_signals_stop_cb(void);

/*
 * cdm_signals_stop_flag - the flag itself, for the workers to read
 * (struct cdm_test_shared.stop); static, never freed.
 */
atomic_int *cdm_signals_stop_flag(void);

/*
 * cdm_signals_fault_arm - the test file at @path (copied) is cdm's to
 * unlink if cdm itself faults (SIGSEGV ...); NULL: none is.
 */
void cdm_signals_fault_arm(const char *path);

/*
 * cdm_signals_fault_guard - the armed test file's directory held open
 * and identity (@g, copied; the directory stays @g's to close, after the
 * file is gone or disarmed): a fault, or cdm_signals_exit_now(), then
 * removes the file through it when the target was moved meanwhile, as
 * cdm_fileguard_finish() does.  NULL: forget it (cdm_signals_fault_arm()
 * forgets it too).
 */
struct cdm_fileguard;
void cdm_signals_fault_guard(const struct cdm_fileguard *g);

/*
 * cdm_signals_sleep_until - sleep until CLOCK_MONOTONIC @until_ns (ns);
 * a signal (a stop request) cuts it short: the caller checks again.
 */
void cdm_signals_sleep_until(uint64_t until_ns);

/*
 * cdm_signals_stop_count - how many stop signals (SIGINT, SIGTERM ...)
 * have arrived; a stop asked by cdm_signals_request_stop() is not one,
 * nor is SIGPIPE, which cdm's own writes to a closed pipe raise.
 */
int cdm_signals_stop_count(void);

/* cdm_signals_armed - 1 while a test file of cdm's is armed (cdm_signals_fault_arm()), else 0 */
int cdm_signals_armed(void);

/*
 * cdm_signals_exit_now - end cdm at once, as a second stop signal asks
 * while I/O the device has not completed holds the run: the test file
 * cdm owns (cdm_signals_fault_arm(), through cdm_signals_fault_guard()'s
 * directory when the target moved) is unlinked, no report is written,
 * and the process exits 128 + the first stop signal.  The kernel
 * completes or cancels the I/O in flight as the process ends.  Never
 * returns.  The run's one way out of the process besides a fault's: the
 * workers still hold buffers the kernel writes into, so nothing may be
 * freed and no layer above could end the run more cleanly.
 */
void cdm_signals_exit_now(void) __attribute__((noreturn));

#endif /* CDM_RUN_SIGNALS_H */
