/* SPDX-License-Identifier: MIT */
/*
 * watch.h - private to run/: a running test as the runner's thread
 * watches it (run/testrun.c starts and collects it): its workers
 * (worker.h) on the published schedule, or gated, window by window.
 * Used by the runner's thread only.
 */
#ifndef CDM_RUN_WATCH_H
#define CDM_RUN_WATCH_H

#include <stdint.h>

#include "cdm/model/hist.h"
#include "cdm/model/result.h"
#include "cdm/plan/plan.h"
#include "cdm/target/testfile.h"
#include "worker.h"

#define CDM_WATCH_TICK_NS 100000000ull  /* the runner wakes at least every 100 ms */
#define CDM_PAUSE_NS 100000000ull       /* woken this much late: cdm did not run (a pause) */
#define CDM_DRAIN_SAY_NS 1000000000ull  /* a drain this long is said (cdm_watch_drain()) */
#define CDM_DRAIN_NO_PASS (~0u)         /* a drain after the schedule: its time is in no pass */

/* one test's workers, and what the runner learns while they run */
struct cdm_watch {
	const struct cdm_run_config *cfg;
	const struct cdm_run_info *info;        /* the run's, CPUs counted once */
	const struct cdm_testfile *f;
	struct cdm_test_result *tr;
	struct cdm_test_shared *sh;
	struct cdm_worker *w;
	unsigned int idx;               /* the test, 0-based in run order */
	unsigned int nthreads;
	char name[64];                  /* "RND4K Q32T1" */
	uint64_t t0, wall0;             /* the schedule's start, monotonic and wall */
	unsigned int pmark;             /* schedule boundaries passed so far */
	uint64_t puser[CDM_MAX_PASSES + 2]; /* process CPU at each boundary */
	uint64_t paused[CDM_MAX_PASSES + 2]; /* each window's longest pause of cdm's (ns) */
	uint64_t psys[CDM_MAX_PASSES + 2];
	/* the pass gate (worker.h): --end-fsync on a write or Mix test, --steady-state */
	int end_fsync;                  /* this test's windows end with an fdatasync */
	uint64_t wend[CDM_MAX_PASSES + 2]; /* gated: each window's real end (0: not ended) */
	int fsync_err;                  /* the end fdatasync's failure (-errno), or 0 */
	unsigned int fsync_win;         /* ... at the end of this window */
	struct cdm_hist *hring;         /* --steady-state: the last rounds' histograms */
	/* the longest drain of the test (the I/O in flight once the workers stop starting I/O) */
	uint64_t drain_ns;
	unsigned int drain_win;         /* ... in this gated window, or CDM_DRAIN_NO_PASS */
	unsigned int drain_inflight;    /* ... the most I/Os in flight seen in it */
	int drain_said;                 /* 1: cdm said it waits; 2: that a stop waits too (once a test) */
	int drain_on;                   /* the drain under way has been said (1 s or more) */
	int drain_stops;                /* ... and the stop signals there were then */
	unsigned int drain_peak;        /* ... the most I/Os seen in flight in it */
	uint64_t drain_from;            /* gated: the drain under way began at this window's end */
};

/* cdm_watch_process_cpu - the process's user and system CPU so far, ns (0 if unknown) */
void cdm_watch_process_cpu(uint64_t *user, uint64_t *sys);

/*
 * cdm_watch_schedule - watch @t, started on its schedule (sh->bounds),
 * until the schedule ends, a stop is requested or every worker has
 * stopped (an I/O error): the process CPU at each boundary (t->puser,
 * t->psys, t->pmark), and the progress line.
 */
void cdm_watch_schedule(struct cdm_watch *t);

/*
 * cdm_watch_gated - watch the gated test @t from window sh->gate_win:
 * each window run, drained and parked, then ended (its end fdatasync,
 * its pass summed into tr->passes, the steady-state check) and the next
 * published, starting now, until the test ends (its last window, steady,
 * an error, a stop request).  The workers are always told so
 * (cdm_worker_gate_end()), so that none is left waiting at the gate.  An
 * end fdatasync's failure is left in t->fsync_err and t->fsync_win.
 */
void cdm_watch_gated(struct cdm_watch *t);

/*
 * cdm_watch_drain - once @t's schedule has ended or a stop was requested:
 * wait until every worker thread has ended, which is when the I/O each
 * had in flight has completed (cdm never leaves I/O the kernel still
 * holds; docs/safety.md).  A drain of CDM_DRAIN_SAY_NS or more is said:
 * once on stderr, once more when a stop waits on it, and its seconds on
 * the progress line.  A stop signal that comes after that, on top of a
 * first one, ends cdm at once (cdm_signals_exit_now(): the test file
 * removed, no report, exit 128 + N): only a drain said ends so, never one
 * cdm did not say it waits for.
 * The test's longest drain (this one, or a gated window's) into
 * t->drain_ns (ns), t->drain_win and t->drain_inflight.  The drain_*
 * fields start zeroed, but drain_win at CDM_DRAIN_NO_PASS.
 */
void cdm_watch_drain(struct cdm_watch *t);

#endif /* CDM_RUN_WATCH_H */
