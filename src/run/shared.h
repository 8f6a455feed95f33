/* SPDX-License-Identifier: MIT */
/*
 * shared.h - private to run/: what the runner and the worker threads of
 * one test share (struct cdm_test_shared) and each worker's own state and
 * results (struct cdm_worker); types only.  worker.h has the threads'
 * life, loop.h the I/O loop each thread runs.
 */
#ifndef CDM_RUN_SHARED_H
#define CDM_RUN_SHARED_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "cdm/base/sig.h"
#include "cdm/engine/engine.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/model/hist.h"
#include "cdm/model/pass.h"
#include "cdm/run/verify.h"

/*
 * The fault signals (base/sig.h, CDM_FAULT_SIGNALS): the runner's handler
 * for them unlinks the test file and hands the signal on (docs/safety.md,
 * section 4).  Worker threads block every other signal but leave these
 * open: a fault whose signal is blocked is not delivered but kills the
 * process at once, so the handler never ran.
 */

/* what all workers of one test share; written by the runner before "go" */
struct cdm_test_shared {
	const struct cdm_engine_ops *engine;
	unsigned int engine_options;
	struct cdm_null_device *null_device; /* null engine: the test's device, or NULL;
					      * the runner's, one per test */
	struct cdm_spec spec;
	enum cdm_dir dir;
	int fd;
	int direct;
	int zero_fill;
	unsigned int fsync_every;       /* fdatasync every N writes per thread; 0 = off */
	uint64_t pace_ps;               /* --rate-iops: ps between two starts over all threads (10^12 / the rate); 0: unpaced */
	uint64_t seed;                  /* --seed; 0: each thread seeds from the clock */
	uint64_t nblocks;               /* file size / block size */
	unsigned int count;             /* measured passes */
	unsigned int batch;             /* most I/Os reaped and restarted per call */
	const unsigned short *cpus;     /* --cpus: worker i on cdm_cpulist_thread_cpu() ... */
	unsigned int ncpus;             /* ... ; 0 = not pinned */
	/*
	 * --verify (run/verify.h): the record of the test's writes, or NULL.
	 * A write is started only on a block with no write in flight
	 * (another is drawn); each that completes stores its seq.
	 */
	struct cdm_verify_map *verify;
	/*
	 * The schedule, CLOCK_MONOTONIC ns: window w runs [bounds[w],
	 * bounds[w+1]); window 0 is the warm-up, window k+1 is measured pass
	 * k, bounds[count + 1] is the end.  An I/O counts in the window in
	 * which it completes; I/Os completing after the end are not counted.
	 */
	uint64_t bounds[CDM_MAX_PASSES + 2];
	/* --log-interval (series.h): 0 = off; first slot and slots per window */
	uint64_t series_ns;
	unsigned int series_base[CDM_MAX_PASSES + 2];
	unsigned int series_n[CDM_MAX_PASSES + 2];
	/*
	 * The owner's stop flag (the runner's cdm_runner_request_stop()):
	 * not 0 ends the test as soon as the I/O in flight completes.  Read
	 * once per batch; never written by a worker.
	 */
	atomic_int *stop;
	/*
	 * The pass gate (--end-fsync on a write or Mix test, --steady-state;
	 * docs/method.md): 0, the schedule above runs back to back.  1, the
	 * workers run one window at a time: window gate_win, [bounds[w],
	 * bounds[w + 1]), then each stops issuing, drains its I/O in flight
	 * (counted in that window, so bounds[w + 1] is when it stops issuing,
	 * not when the window ends) and parks (cdm_worker_gate_wait()); the
	 * runner then publishes the next window (cdm_worker_gate_next()) or
	 * ends the test (cdm_worker_gate_end()).  gated and the first
	 * gate_win (0, or 1 without a warm-up) are set before "go"; the rest
	 * is the gate functions' own, under the gate mutex.
	 */
	int gated;
	unsigned int gate_win;          /* the window the workers run */
	unsigned int gate_parked;       /* workers parked at its end, or ended */
	int gate_end;                   /* 1: the test is over, parked workers return */
	/*
	 * The start gate, set up by cdm_worker_start(); the caller leaves it
	 * alone.  A mutex and a condition variable rather than barriers: a
	 * barrier of T + 1 parties cannot be called off when thread k of T
	 * cannot be created, and its waiters would wait for ever.
	 */
	pthread_mutex_t gate;
	pthread_cond_t gate_cv;
	int gate_state;                 /* enum in worker.c: creating, set up, go, running, ... */
	unsigned int gate_n;            /* workers started */
	unsigned int gate_ready;        /* workers that have set up */
	unsigned int gate_running;      /* workers that have run since "go" (or gate_next) */
	unsigned int gate_ended;        /* gated: workers that have ended for good */
	unsigned int gate_gen;          /* gated: windows started by window_resume() */
	atomic_int failed;              /* a worker hit an error (I/O or engine): all stop */
	/* the shared sequential stream (CDM 9): next block index, own line */
	_Alignas(64) atomic_uint_fast64_t seq_next;
	char pad_[64 - sizeof(atomic_uint_fast64_t)];
};

/* one worker thread; zeroed by the caller, sh, id and thread set by cdm_worker_start() */
struct cdm_worker {
	struct cdm_test_shared *sh;
	unsigned int id;                /* 0 .. T-1 */
	pthread_t thread;
	/* results, read by the runner after join */
	int error;                      /* 0 or -errno */
	int short_io;                   /* error was a short transfer */
	int init_failed;                /* error came from setting up */
	int pin_failed;                 /* ... from pinning it to its CPU (--cpus) */
	uint64_t error_offset;          /* bytes */
	unsigned int depth_run;         /* depth kept: the engine's, or --fsync's N if lower */
	int depth_fsync;                /* depth_run is --fsync's N (a write test, N < Q) */
	uint64_t stopped_ns;            /* when it stopped starting I/O (gated: for good) */
	uint64_t win_end_ns;            /* gated: when it had drained the window it ran last */
	uint64_t busy;                  /* engine answers "busy" (held and queued again) */
	int busy_stuck;                 /* error was -EBUSY: the engine stayed busy, nothing in flight ... */
	uint64_t busy_stuck_ns;         /* ... for this long (10,000 pauses: 1 s at least) */
	uint64_t verify_writes;         /* --verify: writes started on a recorded block */
	uint64_t verify_redrawn;        /* --verify: blocks drawn again, a write in flight on them */
	char note[160];                 /* engine's remark */
	struct cdm_pass passes[CDM_MAX_PASSES];
	struct cdm_hist hist;           /* measured passes only */
	struct cdm_series_slot *series; /* --log-interval slots (zeroed), or NULL */
	/* progress, read by the runner while the test runs */
	_Alignas(64) atomic_uint_fast64_t live_bytes;
	atomic_uint live_inflight;      /* I/Os in flight (the drain after a stop) */
	atomic_int ended;               /* its thread is done: nothing of it in flight */
	char pad_[64 - sizeof(atomic_uint_fast64_t) - sizeof(atomic_uint) - sizeof(atomic_int)];
};

#endif /* CDM_RUN_SHARED_H */
