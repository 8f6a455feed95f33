/* SPDX-License-Identifier: MIT */
/*
 * cdm/plan/limits.h - the kernel's and the user's limits that a plan can run
 * into (issue 6, "Resource limits"), checked before the test file is
 * written, so that an impossible Q x T fails in a second with the name of
 * the limit instead of after minutes of preparation.
 *
 * Checked here: threads (RLIMIT_NPROC for a non-root user, and
 * kernel.threads-max), descriptors (RLIMIT_NOFILE: io_uring takes one ring
 * descriptor per worker thread), and libaio's system-wide event limit
 * (fs.aio-max-nr - fs.aio-nr, against the sum of the depths of one
 * test's threads).  Memory for the I/O buffers is run/runner.c's
 * check_buffers().
 * The size of a new test file is checked against RLIMIT_FSIZE
 * (cdm_limits_check_fsize()).
 * A memlock limit is not checked: io_uring runs unregistered under a small
 * one and says so (engine.c / io_uring.c).
 */
#ifndef CDM_LIMITS_H
#define CDM_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/plan/plan.h"

/*
 * cdm_limits_check - can every test of @cfg start its threads, open its
 * engine's descriptors and set up its libaio contexts under the limits in
 * force now?  Reads /proc (missing files are skipped: the check is then
 * left to the setup of each test).
 * Returns 0, or -EAGAIN / -EMFILE with one line in @err (may be NULL) that
 * names the test, what it needs and the limit (with where to change it).
 */
int cdm_limits_check(const struct cdm_run_config *cfg, struct cdm_err *err);

/*
 * cdm_limits_check_fsize - may this process write a new test file of
 * @size bytes in @target under RLIMIT_FSIZE (ulimit -f)?  Past the limit
 * the kernel fails the write with EFBIG and sends SIGXFSZ.  Returns 0, or
 * -EFBIG with one line in @err (may be NULL) naming the target, both sizes
 * and the limit.
 */
int cdm_limits_check_fsize(const char *target, uint64_t size, struct cdm_err *err);

/*
 * cdm_limits_thread_hint - describe the thread limits in force, for the
 * message when pthread_create() fails anyway (another process of the user
 * took the room): "RLIMIT_NPROC (ulimit -u) is 20; kernel.threads-max is
 * 192000".  Writes a NUL-terminated string of at most @len bytes to @buf.
 */
void cdm_limits_thread_hint(char *buf, size_t len);

#endif /* CDM_LIMITS_H */
