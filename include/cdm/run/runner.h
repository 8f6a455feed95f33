/* SPDX-License-Identifier: MIT */
/*
 * cdm/runner.h - runs a plan on a target and fills the result model.
 *
 * The method is CrystalDiskMark's (cdm-format.md, "How CDM arrives at its
 * figures"): one test file, prepared once; every read test, then every
 * write test, then every mixed test (a spec with W<pct>, run once, and with
 * --mix every other spec at that read percent); per test a discarded warm-up pass and `count` measured passes
 * of `time` seconds, time-based (the I/O wraps around the file); `interval`
 * seconds between tests.  docs/method.md says how each figure is computed.
 */
#ifndef CDM_RUNNER_H
#define CDM_RUNNER_H

#include <stdint.h>

#include "cdm/engine/engine.h"
#include "cdm/plan/profile.h"
#include "cdm/model/result.h"

struct cdm_run_config {
	const char *target;             /* directory, or a block device */
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
	int do_mix;                     /* run the mixed tests (specs with W, and --mix) */
	unsigned int mix_read_pct;      /* --mix: read percent of the Mix section; 0 = none */
	int dsync;                      /* --sync: open the test file O_DSYNC for the tests */
	unsigned int fsync_every;       /* --fsync N: fdatasync every N writes per thread */
	uint64_t rate_iops;             /* --rate-iops: total I/Os per second; 0 = no cap */
	int zero_fill;                  /* --data zero */
	int direct;                     /* O_DIRECT (default) */
	int keep;                       /* --keep */
	int allow_destructive_write;    /* --allow-destructive-write: a block device
					 * TARGET may be written (device.h) */
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
	uint64_t log_interval_ns;       /* --log-interval: time series; 0 = off */
};

/*
 * cdm_run_plan_size - how many test results cdm_run() will fill for @cfg
 * (what to pass to cdm_result_alloc()): for each spec without W, one per
 * direction asked (read, write, and Mix when --mix); for each spec with W,
 * one Mix when mixed tests are asked.
 */
unsigned int cdm_run_plan_size(const struct cdm_run_config *cfg);

/*
 * cdm_run_plan_writes - does the plan of @cfg write: write tests, or Mix
 * tests (every Mix test writes)?  What a block device TARGET is checked
 * against (--allow-destructive-write, device.h).  Returns 1 or 0.
 */
int cdm_run_plan_writes(const struct cdm_run_config *cfg);

/*
 * cdm_run - prepare the test file, run every test and fill @res (allocated
 * by the caller with cdm_result_alloc(cdm_run_plan_size(cfg))).
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

/*
 * cdm_runner_install_signals - make SIGINT, SIGTERM and SIGHUP call
 * cdm_runner_request_stop() (without SA_RESTART, so a sleep or a blocking
 * write returns EINTR at once).  Returns 0 or -errno from sigaction(2).
 */
int cdm_runner_install_signals(void);

/* cdm_runner_stop_requested - the signal passed to request_stop, or 0. */
int cdm_runner_stop_requested(void);

#endif /* CDM_RUNNER_H */
