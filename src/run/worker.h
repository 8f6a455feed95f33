/* SPDX-License-Identifier: MIT */
/*
 * worker.h - private interface between the runner (one test at a time) and
 * its worker threads.  One worker = one thread = one engine context keeping
 * Q I/Os in flight.
 *
 * A test's life, as runner.c drives it (and tests/unit/test_worker.c):
 *
 *	fill a struct cdm_test_shared (zeroed) and T struct cdm_worker (zeroed)
 *	cdm_worker_start(sh, w, T, err)   T threads, each sets up its engine
 *	publish sh->bounds                the schedule, CLOCK_MONOTONIC ns
 *	cdm_worker_go(sh)                 the workers start their I/O
 *	... watch w[i].live_bytes, w[i].stopped_ns; set *sh->stop to end early
 *	    (gated, sh->gated: per window, cdm_worker_gate_wait(), read and
 *	    reset what the window counted, then cdm_worker_gate_next(); at the
 *	    end, or on a stop request, cdm_worker_gate_end())
 *	cdm_worker_join(sh, w, T)         every thread has returned
 *	read w[i].passes, hist, error ...
 */
#ifndef CDM_WORKER_H
#define CDM_WORKER_H

#include "cdm/base/err.h"
#include "shared.h"

/*
 * cdm_worker_start - start @n worker threads on @sh (filled by the caller,
 * bounds not yet: see above), w[i].sh = @sh and w[i].id = i, and wait
 * until every one has set up its buffers and its engine.  Each thread is
 * named "cdm-w<i>" and, with sh->ncpus, pinned to its CPU (cdm_numa_pin())
 * (fio's cpus_allowed_policy=split) before it touches its buffers, so
 * they are allocated on that CPU's node.  A worker that could not be
 * pinned (pin_failed) or whose engine could not be set up has
 * init_failed, error (-errno) and note set and will do no I/O: the caller
 * says so, and publishes a schedule that ends at once (every bound the
 * same) before cdm_worker_go().
 * Returns 0, or -errno when a thread cannot be created (pthread_create's
 * error, e.g. -EAGAIN at RLIMIT_NPROC) or the start gate cannot be set up,
 * with "cannot start worker thread 3 of 4: <strerror> (<the thread limits,
 * cdm_limits_thread_hint()>)" in @err; then no thread is left: those
 * already started were told to return and were joined.
 */
int cdm_worker_start(struct cdm_test_shared *sh, struct cdm_worker *w, unsigned int n,
		     struct cdm_err *err);

/*
 * cdm_worker_go - let the workers of a successful cdm_worker_start() run
 * the schedule in sh->bounds, which must be published before this call,
 * and wait until the schedule has started.  It starts when the last of
 * the workers is running: a thread woken late (a busy machine can take
 * tens of ms to run it) would otherwise miss the start of the first
 * window, and a short pass could end before any I/O of it completed.
 * So the last worker to run after "go" moves every bound later by the
 * time from bounds[0] to then, before any I/O starts.  Returns that
 * delay (ns, 0 when it ran before bounds[0]): the caller adds it to
 * whatever it derived from bounds[0] (the wall-clock start).
 */
uint64_t cdm_worker_go(struct cdm_test_shared *sh);

/*
 * cdm_worker_join - wait until the @n workers have ended (at the end of the
 * schedule, on *sh->stop, or on an error; each that ran its loop has
 * stopped_ns set) and release what cdm_worker_start() set up.  w[i]'s
 * results are then final.
 */
void cdm_worker_join(struct cdm_test_shared *sh, struct cdm_worker *w, unsigned int n);

/*
 * cdm_worker_gate_wait - gated schedule (sh->gated): wait until all @n
 * workers of a started test are parked at the end of window sh->gate_win
 * (each drained, win_end_ns set) or have ended (an error, a stop request),
 * or until CLOCK_MONOTONIC @until_ns, whichever comes first.  Returns 1
 * when they are all parked (their passes[], hist and series slots are
 * then the runner's to read and reset until the next call below), else 0.
 */
int cdm_worker_gate_wait(struct cdm_test_shared *sh, unsigned int n, uint64_t until_ns);

/*
 * cdm_worker_gate_next - release the parked workers into the next window,
 * sh->gate_win + 1, which starts at @start_ns and stops issuing at
 * @end_ns (CLOCK_MONOTONIC ns): its bounds.  As in cdm_worker_go(), the
 * last worker to run again moves both later by the time from @start_ns
 * to then, so read the window's start from sh->bounds once they have
 * parked again.  Call only after cdm_worker_gate_wait() returned 1, and
 * with gate_win + 1 <= sh->count.
 */
void cdm_worker_gate_next(struct cdm_test_shared *sh, uint64_t start_ns, uint64_t end_ns);

/*
 * cdm_worker_gate_end - the gated test is over (the last window, an error,
 * a stop request): parked workers return, and a worker still running
 * returns at its window's end instead of parking.  Any time after "go".
 */
void cdm_worker_gate_end(struct cdm_test_shared *sh);

#endif /* CDM_WORKER_H */
