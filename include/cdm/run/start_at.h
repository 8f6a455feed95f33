/* SPDX-License-Identifier: MIT */
/*
 * cdm/run/start_at.h - --start-at TIME: independent cdm processes (pdsh,
 * Ansible, a Kubernetes Indexed Job) that overlap pass by pass.
 *
 * The schedule depends on the plan alone, so every host computes the same
 * one (docs/scale-out.md): the test file is prepared before TIME; test i
 * (0-based, in run order: every read test, then every write test) starts
 * its warm-up at
 *
 *     TIME + i x (warmup + count x time + interval + CDM_START_AT_SLACK_S)
 *
 * and its measured passes follow on the runner's schedule (pass k at that
 * start + warmup + k x time).  The slack covers the end of the previous
 * test (I/O in flight completing, threads joined) and the next one's set-up.
 * A host whose file is ready only after TIME fails, saying how late it was.
 */
#ifndef CDM_START_AT_H
#define CDM_START_AT_H

#include <stdint.h>

#include "cdm/run/runner.h"

#define CDM_START_AT_SLACK_S 1u         /* seconds added per test */

struct cdm_start_at {
	uint64_t start_ns;              /* TIME, CLOCK_REALTIME ns */
	uint64_t period_ns;             /* from one test's start to the next */
	char text[64];                  /* TIME as given, for messages */
};

/*
 * cdm_start_at_parse - @s as an absolute UTC time in RFC 3339 form,
 * "2026-12-01T22:00:00Z" (fraction of a second allowed; "Z" or "+00:00"),
 * or "+N", "+Ns", "+Nm", "+Nh" after @now_ns (wall clock, ns).  *@out_ns
 * gets the time in ns since the Unix epoch.  Returns 0 or -EINVAL.
 */
int cdm_start_at_parse(const char *s, uint64_t now_ns, uint64_t *out_ns);

/*
 * cdm_start_at_plan - fill @sa's period from @cfg (warmup_ms, count,
 * time_ms, interval_ms: exact in ns, for fractions of a second too).
 */
void cdm_start_at_plan(struct cdm_start_at *sa, const struct cdm_run_config *cfg);

/*
 * cdm_start_at_sync - the runner's sync hook (struct cdm_run_config) for
 * --start-at; @arg is a struct cdm_start_at.  A @status other than 0 (this
 * process failed) is returned as it is.  Step 0: fails with -ETIME, with
 * one line in @err saying how late, when the file was ready after TIME.
 * Step i + 1: sleeps until test i's start (a stop request ends the sleep:
 * -EINTR, no message); a test that could only start late is noted
 * (cdm_msg_note).
 */
int cdm_start_at_sync(void *arg, unsigned int step, int status, struct cdm_err *err);

#endif /* CDM_START_AT_H */
