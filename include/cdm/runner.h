/* SPDX-License-Identifier: MIT */
/*
 * cdm/runner.h - runs a plan on a target and fills the result model.
 *
 * The method is CrystalDiskMark's (cdm-format.md, "How CDM arrives at its
 * figures"): one test file, prepared once; every read test, then every
 * write test; per test a discarded warm-up pass and `count` measured passes
 * of `time` seconds, time-based (the I/O wraps around the file); `interval`
 * seconds between tests.  docs/method.md says how each figure is computed.
 */
#ifndef CDM_RUNNER_H
#define CDM_RUNNER_H

#include <stdint.h>

#include "cdm/engine.h"
#include "cdm/profile.h"
#include "cdm/result.h"

struct cdm_run_config {
	const char *target;             /* directory */
	const char *file;               /* --file: a kept test file to reuse, or NULL */
	const char *profile_name;       /* Profile: line */
	unsigned int ntests;
	struct cdm_spec tests[CDM_MAX_TESTS];
	uint64_t size;                  /* test file size, bytes (already rounded) */
	unsigned int count;             /* measured passes per test, >= 1 */
	unsigned int time;              /* seconds per pass, >= 1 */
	unsigned int interval;          /* seconds between tests */
	unsigned int warmup;            /* seconds of warm-up per test; 0 = none */
	int do_read;                    /* run the read tests */
	int do_write;                   /* run the write tests */
	int zero_fill;                  /* --data zero */
	int direct;                     /* O_DIRECT (default) */
	int keep;                       /* --keep */
	int progress;                   /* show progress on stderr */
	const struct cdm_engine_ops *engine;
	unsigned int engine_options;    /* CDM_ENGINE_OPT_* */
	uint64_t null_service_ns;       /* null engine's service time, ns */
	unsigned int batch;             /* I/Os reaped and restarted per system call; 0 = auto */
	const char *comment;            /* --comment, or NULL */
	/*
	 * sync - scale-out hook (MPI barrier, --start-at), or NULL.  Called
	 * with @step 0 once the test file is ready, and with step i + 1 just
	 * before test i publishes its schedule (worker threads set up, warm-up
	 * not started); @err is this process's own -errno so far (0 = fine).
	 * Returns 0 to go on, or -errno to stop the run (the hook has said
	 * why).  include/cdm/scale.h has the hooks.
	 */
	int (*sync)(void *arg, unsigned int step, int err);
	void *sync_arg;
};

/*
 * cdm_run - prepare the test file, run every test and fill @res (allocated
 * by the caller with cdm_result_alloc(number of tests x directions)).
 * Everything measured before a failure or a stop request stays in @res.
 * The test file is removed before returning, whatever happens (unless
 * --keep, on success).
 * Returns 0; -EINTR when stopped by cdm_runner_request_stop() (res->
 * interrupted holds the signal); or another -errno after printing one line
 * on stderr that says what failed and where.
 */
int cdm_run(const struct cdm_run_config *cfg, struct cdm_run_result *res);

/*
 * cdm_runner_request_stop - ask a running cdm_run() to stop as soon as the
 * I/O in flight completes.  @sig: the signal that asked (kept in
 * res->interrupted).  Async-signal-safe: call it from a signal handler.
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

/* cdm_runner_stop_requested - the signal passed to request_stop, or 0. */
int cdm_runner_stop_requested(void);

#endif /* CDM_RUNNER_H */
