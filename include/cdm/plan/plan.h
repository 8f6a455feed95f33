/* SPDX-License-Identifier: MIT */
/*
 * plan.h - the plan of a run: its configuration (the profile with the
 * options layered on top, already checked), the tests it runs in CDM's
 * order, and the rules a plan must follow on a block device.  Built by
 * cli/, checked here, carried out by run/.
 */
#ifndef CDM_PLAN_PLAN_H
#define CDM_PLAN_PLAN_H

#include <stdint.h>

#include "cdm/base/devspec.h"
#include "cdm/engine/engine.h"
#include "cdm/model/result.h"
#include "cdm/model/spec.h"

struct cdm_err;

/*
 * struct cdm_run_config - everything a run needs to know, settled before
 * it starts: the tests, the test file, the schedule (docs/method.md), the
 * engine and the safety switches (docs/safety.md).
 */
#define CDM_CPUS_MAX 1024                /* --cpus: CPU numbers 0 .. 1023 (CPU_SETSIZE) */

struct cdm_run_config {
	const char *target;             /* directory, or a block device */
	const char *file;               /* --file: a kept test file to reuse, or NULL */
	const char *profile_name;       /* Profile: line */
	unsigned int ntests;
	struct cdm_spec tests[CDM_MAX_TESTS];
	uint64_t size;                  /* test file size, bytes (already rounded) */
	unsigned int count;             /* measured passes per test, >= 1 */
	unsigned int time_ms;           /* ms per pass, CDM_TIME_MIN_MS..CDM_TIME_MAX_MS */
	unsigned int interval_ms;       /* ms between tests, 0..CDM_TIME_MAX_MS */
	unsigned int warmup_ms;         /* ms of warm-up per test; 0 = none */
	int do_read;                    /* run the read tests */
	int do_write;                   /* run the write tests */
	int do_mix;                     /* run the mixed tests (specs with W, and --mix) */
	unsigned int mix_read_pct;      /* --mix: read percent of the Mix section; 0 = none */
	int dsync;                      /* --sync: open the test file O_DSYNC for the tests */
	unsigned int fsync_every;       /* --fsync N: fdatasync every N writes per thread */
	uint64_t rate_iops;             /* --rate-iops: total I/Os per second; 0 = no cap */
	uint64_t seed;                  /* --seed: the generators' seed; 0 = from the clock */
	int zero_fill;                  /* --data zero */
	int direct;                     /* O_DIRECT (default) */
	int keep;                       /* --keep */
	int allow_destructive_write;    /* --allow-destructive-write: a block device
					 * TARGET may be written (device.h) */
	int progress;                   /* show progress on stderr */
	const struct cdm_engine_ops *engine;
	unsigned int engine_options;    /* CDM_ENGINE_OPT_* */
	/* --null-device, --null-service-us: the null engine's simulated device; nphases 0 = none */
	struct cdm_devspec null_device;
	unsigned int batch;             /* I/Os reaped and restarted per system call; 0 = auto */
	const char *comment;            /* --comment, or NULL */
	/*
	 * sync - scale-out hook (MPI barrier, --start-at), or NULL.  Called
	 * with @step 0 once the test file is ready, and with step i + 1 just
	 * before test i publishes its schedule (worker threads set up, warm-up
	 * not started); @status is this process's own -errno so far (0 =
	 * fine).  Returns 0 to go on, or -errno to stop the run, with a line
	 * in @err (may be NULL) when the hook has one to say (cdm-mpi's has
	 * none when another rank failed: rank 0 names it).  The hooks are
	 * cdm_start_at_sync() (run/start_at.h) and cdm_mpi_sync() (run/mpi.h).
	 */
	int (*sync)(void *arg, unsigned int step, int status, struct cdm_err *err);
	void *sync_arg;
	uint64_t log_interval_ns;       /* --log-interval: time series; 0 = off */
	/* numbers that hold (docs/method.md): preconditioning, steady state, ... */
	int end_fsync;                  /* --end-fsync: fdatasync ends each write/Mix pass */
	int steady_state;               /* --steady-state: rounds until steady (model/steady.h) */
	unsigned int max_rounds;        /* --max-rounds: most rounds per test with steady_state */
	int precondition;               /* --precondition: write the file sequentially twice */
	int verify;                     /* --verify: read back and check each test's writes */
	unsigned int ncpus;             /* --cpus: CPUs in cpus[]; 0 = not pinned */
	unsigned short cpus[CDM_CPUS_MAX]; /* worker thread i runs on cpus[i % ncpus] */
};

/*
 * cdm_plan_engine_depth - an engine that completes every I/O inside
 * queue() (CDM_ENGINE_SYNC, engine/ops.h), or inside its submission on a
 * buffered file (CDM_ENGINE_Q1_BUFFERED with --buffered: libaio, as Linux
 * native AIO is synchronous without O_DIRECT), keeps one I/O in flight per
 * thread, so each test of @cfg runs at Q1: sets every spec's Q to 1 and
 * leaves out a test that is then the same as one earlier in the list (its
 * row would repeat that one's), and prints one note naming both kinds.
 * Other engines: nothing changes.  Call after cfg->engine is resolved.
 * Returns the number of tests left (cfg->ntests, at least 1 when it was).
 */
unsigned int cdm_plan_engine_depth(struct cdm_run_config *cfg);

/*
 * cdm_plan_engine_q1 - does @cfg's engine keep one I/O in flight per
 * thread (the rule of cdm_plan_engine_depth())?  Returns 1 or 0.
 */
int cdm_plan_engine_q1(const struct cdm_run_config *cfg);

/*
 * CDM_PLAN_INFO_COPIED - the settings (model/settings.h) a run's info
 * holds as the configuration has them, under the same name and type in
 * struct cdm_run_config and struct cdm_run_info: X(field) for each.  A
 * setting that is copied as it is needs its field here and nowhere else
 * in run/ (cdm_plan_info_copy()).
 */
#define CDM_PLAN_INFO_COPIED(X)						\
	X(size) X(count) X(time_ms) X(interval_ms) X(warmup_ms)		\
	X(log_interval_ns) X(direct) X(zero_fill) X(dsync) X(fsync_every)	\
	X(rate_iops) X(seed) X(verify) X(end_fsync) X(steady_state)

/*
 * cdm_plan_info_copy - copy each field of CDM_PLAN_INFO_COPIED from @cfg
 * into @in, by its size.  The other fields of @in are left as they are.
 */
void cdm_plan_info_copy(const struct cdm_run_config *cfg, struct cdm_run_info *in);

/*
 * cdm_plan_tests - the tests of @cfg in run order (docs/method.md): every
 * read test, every write test, then every mixed test.  A spec with W<pct>
 * is a mixed test in its own right: it runs once, in the Mix phase, at its
 * own percentage, never as a plain read or write.  With --mix, every other
 * spec also runs in the Mix phase at the --mix read percentage.  Fills
 * spec, dir and qd_run of @out[0..n) when @out is not NULL (the caller
 * sized it with a first call with @out NULL).  Returns n.
 */
unsigned int cdm_plan_tests(const struct cdm_run_config *cfg, struct cdm_test_result *out);

/* cdm_plan_writes - 1 when any test of @cfg writes (a write or a Mix test) */
int cdm_plan_writes(const struct cdm_run_config *cfg);

/*
 * cdm_plan_writer - what in @cfg writes to an existing test file or
 * device, for the refusal on a read-only target (docs/safety.md): a
 * static phrase that ends "so ..." of a sentence and names the option
 * ("write tests cannot run on it (--mode read runs only the reads)",
 * "--precondition cannot run on it (it writes the whole test file)"),
 * or NULL when the plan only reads.  Making a new test file is the
 * caller's to say (only a TARGET without --file does).
 */
const char *cdm_plan_writer(const struct cdm_run_config *cfg);

/*
 * cdm_plan_note_small - for each of the @n tests in @tests (spec and
 * qd_run filled) whose I/Os in flight (qd_run x threads) outnumber the
 * blocks of the @size bytes tested, a note naming @target: several of
 * them then hit the same block at once (SEQ1M Q8 on a 1 MiB device reads
 * one block eight times), which a cache or the device may answer once.
 */
void cdm_plan_note_small(const struct cdm_test_result *tests, unsigned int n, uint64_t size,
			 const char *target);

/*
 * cdm_plan_device - the block-device rules for a plan whose TARGET is a
 * device (does nothing and returns 0 otherwise): the default mode is read
 * (@mode_given 0: cfg->do_write and cfg->do_mix cleared); the default
 * size is the whole device (@size_given 0); a write or Mix test
 * (cdm_plan_writes()) needs cfg->allow_destructive_write, and so does
 * --precondition (cfg->precondition: it writes the device whatever the
 * tests do); --keep and a --size beyond the device are refused.  The
 * O_DIRECT block size rule is not here: the runner checks it for a device
 * as for a file (cdm_align_check()), in the same words.  Returns 0, or
 * -EINVAL with a line in @err that names the device and the problem.
 * docs/safety.md has the rules.
 */
int cdm_plan_device(struct cdm_run_config *cfg, int mode_given, int size_given,
		    struct cdm_err *err);

/*
 * cdm_plan_steady - --steady-state's schedule, the one place of the rule
 * (docs/method.md, "Steady state"; SNIA PTS): the rounds replace the
 * passes and the warm-up.  With cfg->steady_state, cfg->max_rounds (0:
 * CDM_STEADY_MAX_ROUNDS_DEFAULT, model/steady.h) becomes cfg->count, the
 * passes the schedule makes room for, and cfg->warmup_ms 0: the rounds
 * before the steady window are the warm-up.  Without it nothing changes.
 * Call it once the plan's count and warm-up are set (the caller refuses
 * --count and --warmup given with --steady-state; a profile's are
 * replaced here).  Returns 0, or -EINVAL with "--max-rounds is the most
 * rounds of --steady-state: give --steady-state too" in @err when
 * cfg->max_rounds is set without it.  cdm_runner_run() refuses a steady-state
 * plan this was not applied to.
 */
int cdm_plan_steady(struct cdm_run_config *cfg, struct cdm_err *err);

/*
 * cdm_plan_round_size - make cfg->size (bytes) a whole number of the
 * largest block of cfg->tests, as CDM sizes its test file: rounded down,
 * so the file never grows past what was asked.  Sets *@block to that
 * largest block (bytes).  Returns 0 when cfg->size was whole already, 1
 * when it was rounded down (the caller says so: the test size changed),
 * or -EINVAL with "--size 512 KiB is smaller than one 1 MiB block of the
 * tests" in @err when it is below one block (a usage error).  With no
 * test, *@block is 0 and nothing changes.
 */
int cdm_plan_round_size(struct cdm_run_config *cfg, uint64_t *block, struct cdm_err *err);

#endif /* CDM_PLAN_PLAN_H */
