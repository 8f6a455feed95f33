/* SPDX-License-Identifier: MIT */
/*
 * worker.c - the life of a test's T worker threads (worker.h): their
 * start, the start gate, the release of the schedule and the join; each
 * thread's body, which names and pins it, sets up and runs its I/O loop
 * (loop.c) for the whole test or, on the gated schedule (--end-fsync,
 * --steady-state: worker.h), one window at a time, parked between two.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/clock.h"
#include "cdm/plan/limits.h"
#include "cdm/target/numa.h"
#include "loop.h"
#include "worker.h"

/*
 * Name the thread "cdm-w<id>" (top -H, ps -L, /proc/PID/task/TID/comm)
 * and, with --cpus, pin it to thread @id's CPU (cdm_numa_pin(): fio's
 * cpus_allowed_policy=split) before setup() touches the buffers, so the
 * kernel's first touch allocates them on that CPU's NUMA node.  Returns 0
 * or -errno (pthread_setaffinity_np's: the CPU went offline or out of the
 * cpuset since the command line was checked).
 */
static int place(struct cdm_worker *w)
{
	const struct cdm_test_shared *sh = w->sh;
	char name[16];
	int e;

	snprintf(name, sizeof(name), "cdm-w%u", w->id);
	pthread_setname_np(pthread_self(), name);
	e = cdm_numa_pin(sh->cpus, sh->ncpus, w->id, NULL);
	if (e)
		w->pin_failed = 1;
	return e;
}

/* the start gate's states (sh->gate_state), in the order they come */
enum { GATE_CREATING, GATE_SETUP, GATE_GO, GATE_RUNNING, GATE_CANCELLED };

/*
 * Under the gate mutex: move bounds[@lo..@hi] later by the time from
 * bounds[@lo] to now, when that is past (cdm_worker_go()'s rule).
 */
static void bounds_from_now(struct cdm_test_shared *sh, unsigned int lo, unsigned int hi)
{
	uint64_t now = cdm_clock_now_ns(), late;

	if (now <= sh->bounds[lo])
		return;
	late = now - sh->bounds[lo];
	for (unsigned int k = lo; k <= hi; k++)
		sh->bounds[k] += late;
}

/*
 * Gated, under the gate mutex: gate_run()'s rule for window @win, which
 * the runner has just published: the last of the workers that go on to
 * run again starts it, so that one woken late does not miss its start.
 * The test's end (gate_end) lets a waiting worker go, as then not all
 * the others come.
 */
static void window_resume(struct cdm_test_shared *sh, unsigned int win)
{
	unsigned int gen = sh->gate_gen;

	if (++sh->gate_running >= sh->gate_n - sh->gate_ended) {
		sh->gate_running = 0;
		sh->gate_gen++;
		bounds_from_now(sh, win, win + 1);
		pthread_cond_broadcast(&sh->gate_cv);
		return;
	}
	while (sh->gate_gen == gen && !sh->gate_end)
		pthread_cond_wait(&sh->gate_cv, &sh->gate);
}

/*
 * Gated: park at the end of window @win (@last: this worker has ended, by
 * an error or a stop request, and only reports so); wait until the runner
 * publishes the next window or ends the test.  Returns the window to run
 * next, or -1 to return (0 is the warm-up: a window like the others).
 */
static int gate_park(struct cdm_test_shared *sh, unsigned int win, int last)
{
	int next = -1;

	pthread_mutex_lock(&sh->gate);
	sh->gate_parked++;
	if (last)
		sh->gate_ended++;
	pthread_cond_broadcast(&sh->gate_cv);
	while (!last && !sh->gate_end && sh->gate_win == win)
		pthread_cond_wait(&sh->gate_cv, &sh->gate);
	if (!last && !sh->gate_end) {
		next = (int)sh->gate_win;
		window_resume(sh, sh->gate_win);
	}
	pthread_mutex_unlock(&sh->gate);
	return next;
}

/*
 * The gated schedule (worker.h): each window is one call of the engine's
 * loop with its end as the stop time, and advance() never crossing a
 * window, so the I/O drained after the end counts in the window that
 * started it; then the worker parks until the runner, having done what
 * ends the window (--end-fsync's fdatasync, the steady-state check),
 * publishes the next.  Per window: the thread's CPU, and when it had
 * drained (win_end_ns).  stopped_ns is set only when the worker ends.
 */
static void run_gated(struct cdm_loop *s)
{
	struct cdm_test_shared *sh = s->sh;
	struct cdm_worker *w = s->w;
	int win = (int)sh->gate_win;

	while (win >= 0) {
		int last;

		cdm_loop_window(s, (unsigned int)win);
		last = w->error || atomic_load_explicit(&sh->failed, memory_order_relaxed) ||
		       atomic_load_explicit(sh->stop, memory_order_relaxed);
		if (!last)
			__atomic_store_n(&w->stopped_ns, 0, __ATOMIC_RELEASE);
		win = gate_park(sh, (unsigned int)win, last);
	}
	if (!__atomic_load_n(&w->stopped_ns, __ATOMIC_ACQUIRE))
		__atomic_store_n(&w->stopped_ns, w->win_end_ns, __ATOMIC_RELEASE);
}

/* wait until the gate is at @state or later; returns the state it is at */
static int gate_wait(struct cdm_test_shared *sh, int state)
{
	int at;

	pthread_mutex_lock(&sh->gate);
	while (sh->gate_state < state)
		pthread_cond_wait(&sh->gate_cv, &sh->gate);
	at = sh->gate_state;
	pthread_mutex_unlock(&sh->gate);
	return at;
}

/*
 * Past "go": count this worker as running; the last one starts the
 * schedule now (cdm_worker_go()), moving every bound by the delay, and
 * lets the others and the caller on.  Returns when it has started.
 */
static void gate_run(struct cdm_test_shared *sh)
{
	pthread_mutex_lock(&sh->gate);
	if (++sh->gate_running == sh->gate_n) {
		sh->gate_running = 0;
		bounds_from_now(sh, 0, sh->count + 1);
		sh->gate_state = GATE_RUNNING;
		pthread_cond_broadcast(&sh->gate_cv);
	}
	while (sh->gate_state < GATE_RUNNING)
		pthread_cond_wait(&sh->gate_cv, &sh->gate);
	pthread_mutex_unlock(&sh->gate);
}

/*
 * An alternate signal stack for this thread, so that a stack overflow in a
 * worker still reaches the runner's fault handler (which removes the test
 * file): sigaltstack() is per thread, and the runner set up only the main
 * thread's.  Returns the memory to give to altstack_off(), or NULL (then
 * the thread runs without one, as before).
 */
static void *altstack_on(void)
{
	/* SIGSTKSZ: glibc's asks the kernel (sysconf), musl's is a constant */
	size_t len = (size_t)SIGSTKSZ + 64 * 1024;
	stack_t ss = { .ss_flags = 0, .ss_size = len };

	ss.ss_sp = malloc(len);
	if (ss.ss_sp && sigaltstack(&ss, NULL) < 0) {
		free(ss.ss_sp);
		return NULL;
	}
	return ss.ss_sp;
}

static void altstack_off(void *mem)
{
	stack_t ss = { .ss_flags = SS_DISABLE };

	if (!mem)
		return;
	sigaltstack(&ss, NULL);
	free(mem);
}

/*
 * After set-up: the depth this worker keeps, and its engine's remark.
 * --fsync N < Q: a write test never has more than N in flight.
 */
static void setup_done(struct cdm_loop *s, int r)
{
	struct cdm_worker *w = s->w;
	const struct cdm_test_shared *sh = s->sh;

	memcpy(w->note, s->ctx.note, sizeof(w->note));
	w->note[sizeof(w->note) - 1] = '\0';
	if (r < 0) {
		w->error = r;
		w->init_failed = 1;
		return;
	}
	w->depth_run = s->ctx.depth;
	if (sh->fsync_every && sh->dir == CDM_DIR_WRITE && sh->fsync_every < w->depth_run) {
		w->depth_run = sh->fsync_every;
		w->depth_fsync = 1;
	}
}

/* the thread's work; @w->ended is set when it returns */
static void worker_run(struct cdm_worker *w)
{
	static const int fault_sigs[] = CDM_FAULT_SIGNALS;
	struct cdm_loop s;
	sigset_t all;
	void *altstack;
	int r, go;

	/*
	 * Signals go to the main thread, which asks the workers to stop; the
	 * fault signals stay open, so a fault here reaches the runner's
	 * handler (worker.h) instead of killing cdm with its file left.
	 */
	sigfillset(&all);
	for (size_t i = 0; i < sizeof(fault_sigs) / sizeof(fault_sigs[0]); i++)
		sigdelset(&all, fault_sigs[i]);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	/* wait until every thread exists; if one could not be created, go */
	if (gate_wait(w->sh, GATE_SETUP) == GATE_CANCELLED)
		return;
	altstack = altstack_on();
	memset(&s, 0, sizeof(s));
	s.w = w;
	s.sh = w->sh;
	r = place(w);
	if (r == 0)
		r = cdm_loop_setup(&s, w);
	setup_done(&s, r);
	pthread_mutex_lock(&s.sh->gate);
	s.sh->gate_ready++;
	pthread_cond_broadcast(&s.sh->gate_cv);
	pthread_mutex_unlock(&s.sh->gate);
	/* the state under the gate's mutex, once: GATE_GO or GATE_CANCELLED */
	go = gate_wait(s.sh, GATE_GO) != GATE_CANCELLED;
	if (go)
		gate_run(s.sh);
	if (go && !w->error && s.sh->gated)
		run_gated(&s);
	else if (go && !w->error)
		cdm_loop_test(&s);
	cdm_loop_free(&s);
	altstack_off(altstack);
}

/*
 * The thread body; @arg is a struct cdm_worker.  Its end, once the
 * engine's clean-up has returned (so the I/O it had in flight has
 * completed), is what cdm_watch_drain() waits for.
 */
static void *worker_main(void *arg)
{
	struct cdm_worker *w = arg;

	worker_run(w);
	atomic_store_explicit(&w->ended, 1, memory_order_release);
	return NULL;
}

/* undo cdm_worker_start()'s set-up (no thread is running) */
static void teardown(struct cdm_test_shared *sh)
{
	pthread_cond_destroy(&sh->gate_cv);
	pthread_mutex_destroy(&sh->gate);
}

/* open the gate to @state (GATE_SETUP, GATE_GO or GATE_CANCELLED) */
static void gate_open(struct cdm_test_shared *sh, int state)
{
	pthread_mutex_lock(&sh->gate);
	sh->gate_state = state;
	pthread_cond_broadcast(&sh->gate_cv);
	pthread_mutex_unlock(&sh->gate);
}

int cdm_worker_start(struct cdm_test_shared *sh, struct cdm_worker *w, unsigned int n,
		     struct cdm_err *err)
{
	pthread_condattr_t ca;
	unsigned int started;
	char hint[160];
	int e = 0;

	if (pthread_mutex_init(&sh->gate, NULL))
		return cdm_err_set(err, -ENOMEM, "cannot set up the worker threads' start gate");
	/* CLOCK_MONOTONIC: cdm_worker_gate_wait()'s deadline is on the schedule's clock */
	if (pthread_condattr_init(&ca)) {
		pthread_mutex_destroy(&sh->gate);
		return cdm_err_set(err, -ENOMEM, "cannot set up the worker threads' start gate");
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	e = pthread_cond_init(&sh->gate_cv, &ca);
	pthread_condattr_destroy(&ca);
	if (e) {
		pthread_mutex_destroy(&sh->gate);
		return cdm_err_set(err, -ENOMEM, "cannot set up the worker threads' start gate");
	}
	/*
	 * The threads wait at the gate before they set anything up, so that
	 * when one cannot be created the others are sent home (GATE_CANCELLED)
	 * and joined: none is left waiting, nothing is left allocated.
	 */
	sh->gate_state = GATE_CREATING;
	sh->gate_n = n;
	sh->gate_ready = 0;
	sh->gate_running = 0;
	sh->gate_ended = 0;
	sh->gate_gen = 0;
	for (started = 0; started < n; started++) {
		w[started].sh = sh;
		w[started].id = started;
		cdm_hist_init(&w[started].hist);
		e = pthread_create(&w[started].thread, NULL, worker_main, &w[started]);
		if (e)
			break;
	}
	if (e) {
		gate_open(sh, GATE_CANCELLED);
		for (unsigned int i = 0; i < started; i++)
			pthread_join(w[i].thread, NULL);
		teardown(sh);
		cdm_limits_thread_hint(hint, sizeof(hint));
		return cdm_err_set(err, -e, "cannot start worker thread %u of %u: %s (%s)",
				   started + 1, n, strerror(e), hint);
	}
	gate_open(sh, GATE_SETUP);
	pthread_mutex_lock(&sh->gate);
	while (sh->gate_ready < n)
		pthread_cond_wait(&sh->gate_cv, &sh->gate);
	pthread_mutex_unlock(&sh->gate);
	return 0;
}

uint64_t cdm_worker_go(struct cdm_test_shared *sh)
{
	uint64_t planned = sh->bounds[0], started;

	gate_open(sh, GATE_GO);
	pthread_mutex_lock(&sh->gate);
	while (sh->gate_state < GATE_RUNNING)
		pthread_cond_wait(&sh->gate_cv, &sh->gate);
	started = sh->bounds[0];
	pthread_mutex_unlock(&sh->gate);
	return started - planned;
}

void cdm_worker_join(struct cdm_test_shared *sh, struct cdm_worker *w, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	teardown(sh);
}

int cdm_worker_gate_wait(struct cdm_test_shared *sh, unsigned int n, uint64_t until_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(until_ns / 1000000000ull),
		.tv_nsec = (long)(until_ns % 1000000000ull),
	};
	int all, r = 0;

	pthread_mutex_lock(&sh->gate);
	while (sh->gate_parked < n && r != ETIMEDOUT)
		r = pthread_cond_timedwait(&sh->gate_cv, &sh->gate, &ts);
	all = sh->gate_parked >= n;
	pthread_mutex_unlock(&sh->gate);
	return all;
}

void cdm_worker_gate_next(struct cdm_test_shared *sh, uint64_t start_ns, uint64_t end_ns)
{
	pthread_mutex_lock(&sh->gate);
	sh->bounds[sh->gate_win + 1] = start_ns;
	sh->bounds[sh->gate_win + 2] = end_ns;
	sh->gate_parked = 0;
	sh->gate_win++;
	pthread_cond_broadcast(&sh->gate_cv);
	pthread_mutex_unlock(&sh->gate);
}

void cdm_worker_gate_end(struct cdm_test_shared *sh)
{
	pthread_mutex_lock(&sh->gate);
	sh->gate_end = 1;
	pthread_cond_broadcast(&sh->gate_cv);
	pthread_mutex_unlock(&sh->gate);
}
