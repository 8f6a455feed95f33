/* SPDX-License-Identifier: MIT */
/*
 * watch.c - a running test watched by the runner's thread (watch.h): on
 * its schedule, or gated (worker.h's pass gate: --end-fsync on a write
 * or Mix test, --steady-state) window by window, each drained and parked,
 * then ended by the runner (the end fdatasync, the pass summed, PTS's
 * steady-state rule) before the next is published; the progress line
 * meanwhile, and the process CPU at each boundary.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/msec.h"
#include "cdm/base/msg.h"
#include "cdm/model/steady.h"
#include "cdm/format/fmt.h"
#include "progress.h"
#include "signals.h"
#include "watch.h"

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

void cdm_watch_process_cpu(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	*user = *sys = 0;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		*user = tv_ns(&ru.ru_utime);
		*sys = tv_ns(&ru.ru_stime);
	}
}

/*
 * The progress line of window @win of test @t at @now, @bytes completed
 * in the last @ns (none for @idle_ns): "test 3 of 8  RND4K Q32T1 Read
 * pass 2/5    1234.567 MB/s  1m02s left" (a warm-up, or with
 * --steady-state a round), with @extra when the terminal has room; on a
 * narrow one the parts closer together, then the MB/s in whole numbers,
 * then no figure rather than a figure cut.
 */
static void window_progress(const struct cdm_watch *t, unsigned int win, uint64_t now,
			    uint64_t bytes, uint64_t ns, uint64_t idle_ns, const char *extra)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_WINDOW, .test = t->idx, .win = win };
	const char *dir = cdm_result_dir_name(t->tr->dir), *r3 = NULL;
	char full[256], padded[192], tight[192], whole[192], bare[128], what[32], rate[64];
	char rate0[64];

	if (!t->cfg->progress)
		return;
	if (now > t->sh->bounds[win])
		at.elapsed = (double)(now - t->sh->bounds[win]) / 1e9;
	if (win == 0)
		snprintf(what, sizeof(what), "warm-up");
	else
		snprintf(what, sizeof(what), "%s %u/%u", t->tr->steady.on ? "round" : "pass", win,
			 t->sh->count);
	cdm_progress_rate(rate, sizeof(rate), bytes, ns, idle_ns, 3);
	cdm_progress_rate(rate0, sizeof(rate0), bytes, ns, idle_ns, 0);
	for (r3 = rate; *r3 == ' '; r3++)
		;
	snprintf(padded, sizeof(padded), "%s %-5s %-11s %s", t->name, dir, what, rate);
	snprintf(full, sizeof(full), "%s%s", padded, extra ? extra : "");
	snprintf(tight, sizeof(tight), "%s %s %s %s", t->name, dir, what, r3);
	snprintf(whole, sizeof(whole), "%s %s %s %s", t->name, dir, what, rate0);
	snprintf(bare, sizeof(bare), "%s %s %s", t->name, dir, what);
	cdm_progress_line(t->cfg, &at, (const char *const[]){ full, padded, tight, whole, bare }, 5);
}

/*
 * The watch asked to wake at @asked and woke at @now: a wake 100 ms or
 * more late is a pause of cdm's own (the process stopped, or not run), not
 * of the device.  Keep, per window, the longest part of it that fell in
 * that window.
 */
static void note_pause(struct cdm_watch *t, uint64_t asked, uint64_t now)
{
	const uint64_t *b = t->sh->bounds;

	if (now < asked + CDM_PAUSE_NS)
		return;
	for (unsigned int k = 0; k <= t->cfg->count; k++) {
		uint64_t lo = asked > b[k] ? asked : b[k], hi = now < b[k + 1] ? now : b[k + 1];

		if (hi > lo && hi - lo > t->paused[k])
			t->paused[k] = hi - lo;
	}
}

/* the longest pause of cdm's in gated window @win: woken at @now, asked for @asked */
static void note_pause_in(struct cdm_watch *t, unsigned int win, uint64_t asked, uint64_t now)
{
	if (now >= asked + CDM_PAUSE_NS && now - asked > t->paused[win])
		t->paused[win] = now - asked;
}

/*
 * Watch the running test until its schedule ends, a stop is requested or
 * every worker has stopped (an I/O error): the process CPU at each
 * boundary, cdm's own pauses, and the progress line.
 */
void cdm_watch_schedule(struct cdm_watch *t)
{
	const struct cdm_run_config *cfg = t->cfg;
	const struct cdm_test_shared *sh = t->sh;
	uint64_t last_bytes = 0, last_t = t->t0, io_bytes = 0, io_t = t->t0;

	for (;;) {
		uint64_t now = cdm_clock_now_ns(), next, bytes = 0;
		int done = 1;

		while (t->pmark <= cfg->count && now >= sh->bounds[t->pmark + 1]) {
			t->pmark++;
			cdm_watch_process_cpu(&t->puser[t->pmark], &t->psys[t->pmark]);
		}
		if (t->pmark > cfg->count || cdm_signals_stop_requested())
			break;
		for (unsigned int i = 0; i < t->nthreads; i++) {
			bytes += atomic_load_explicit(&t->w[i].live_bytes, memory_order_relaxed);
			if (!__atomic_load_n(&t->w[i].stopped_ns, __ATOMIC_ACQUIRE))
				done = 0;
		}
		if (done)
			break;          /* every worker stopped (an I/O error) */
		if (bytes != io_bytes) {        /* when an I/O last completed */
			io_bytes = bytes;
			io_t = now;
		}
		if (now - last_t >= CDM_PROGRESS_NS) {
			window_progress(t, t->pmark, now, bytes - last_bytes, now - last_t,
					now - io_t, NULL);
			last_t = now;
			last_bytes = bytes;
		}
		next = sh->bounds[t->pmark + 1];
		if (next > now + CDM_WATCH_TICK_NS)
			next = now + CDM_WATCH_TICK_NS;
		cdm_signals_sleep_until(next);
		note_pause(t, next, cdm_clock_now_ns());
	}
}



/* ---- the drain: what the device still holds once the workers stop starting I/O ---- */

/* what the drain waits for: "3 I/Os in flight", or a sync (--fsync) or an engine's clean-up */
static const char *drain_what(char *buf, size_t len, unsigned int n)
{
	if (n)
		snprintf(buf, len, "%u I/O%s in flight", n, n == 1 ? "" : "s");
	else
		snprintf(buf, len, "an fdatasync or the engine's clean-up");
	return buf;
}

/* the I/Os in flight of the workers not ended (parked ones have none); *@left: how many */
static unsigned int drain_inflight(const struct cdm_watch *t, unsigned int *left)
{
	unsigned int n = 0;

	*left = 0;
	for (unsigned int i = 0; i < t->nthreads; i++) {
		if (atomic_load_explicit(&t->w[i].ended, memory_order_acquire))
			continue;
		(*left)++;
		n += atomic_load_explicit(&t->w[i].live_inflight, memory_order_relaxed);
	}
	return n;
}

/* what a drain says: once that cdm waits, once that a stop waits too; the seconds on the progress line */
static void drain_say(struct cdm_watch *t, unsigned int n, uint64_t ns)
{
	const char *dir = cdm_result_dir_name(t->tr->dir);
	char what[64];

	drain_what(what, sizeof(what), n);
	if (!(t->drain_said & 1)) {
		cdm_progress_clear();
		cdm_msg_note("%s %s: waiting for %s, %.1f s after it stopped starting I/O: the device has not completed %s (a second signal, such as Ctrl-C twice, ends cdm at once)",
			     t->name, dir, what, (double)ns / 1e9, n > 1 ? "them" : "it");
		t->drain_said |= 1;
	}
	if (!(t->drain_said & 2) && cdm_signals_stop_requested()) {
		cdm_progress_clear();
		cdm_msg_note("stopping once the device completes %s; a second signal ends cdm at once, without a report",
			     what);
		t->drain_said |= 2;
	}
	cdm_progress_show(t->cfg, "%s %s: waiting for %s  %.0f s", t->name, dir, what,
			  (double)ns / 1e9);
}

/*
 * The longest drain of the test so far into t->drain_*: this one (of
 * window @win, begun at @start, @n in flight now, drain_peak the most
 * seen in it) when it is now the longest.
 */
static void drain_record(struct cdm_watch *t, unsigned int win, uint64_t start, uint64_t now,
			 unsigned int n)
{
	if (n > t->drain_peak)
		t->drain_peak = n;
	if (now - start > t->drain_ns) {
		t->drain_ns = now - start;
		t->drain_win = win;
		t->drain_inflight = t->drain_peak;
	}
}

/* a stop signal on top of the first, after the wait was said: end cdm now */
static void drain_give_up(const struct cdm_watch *t, unsigned int n)
{
	int stops = cdm_signals_stop_count();
	char what[64];

	if (stops < 2 || stops <= t->drain_stops)
		return;
	cdm_progress_clear();
	cdm_msg_error("%s %s: ended at once by a second signal while waiting for %s; no report%s",
		      t->name, cdm_result_dir_name(t->tr->dir), drain_what(what, sizeof(what), n),
		      cdm_signals_armed() ? ", the test file removed" : "");
	cdm_signals_exit_now();
}

/*
 * One look at a drain of window @win (the schedule's end: CDM_DRAIN_NO_PASS)
 * that began at @start, @n I/Os in flight at @now: recorded; from
 * CDM_DRAIN_SAY_NS on it is said (drain_say()), and a stop signal that
 * comes after that, on top of a first one, ends cdm at once.  Returns 1
 * when said.
 */
static int drain_look(struct cdm_watch *t, unsigned int win, uint64_t start, uint64_t now,
		      unsigned int n)
{
	drain_record(t, win, start, now, n);
	if (now - start < CDM_DRAIN_SAY_NS && !t->drain_on)
		return 0;
	if (!t->drain_on) {
		t->drain_on = 1;
		t->drain_stops = cdm_signals_stop_count();
	}
	drain_give_up(t, n);
	drain_say(t, n, now - start);
	return 1;
}

void cdm_watch_drain(struct cdm_watch *t)
{
	/* a stop in a gated window's drain: the same drain goes on, from the window's end */
	uint64_t now = cdm_clock_now_ns(), start = t->drain_from ? t->drain_from : now;
	unsigned int left, n;

	if (!t->drain_from) {           /* a drain of its own, not a gated window's going on */
		t->drain_on = 0;
		t->drain_peak = 0;
	}
	while ((n = drain_inflight(t, &left), left)) {
		drain_look(t, CDM_DRAIN_NO_PASS, start, now, n);
		cdm_signals_sleep_until(now + CDM_WATCH_TICK_NS);
		now = cdm_clock_now_ns();
	}
	drain_record(t, CDM_DRAIN_NO_PASS, start, now, 0);
	cdm_progress_clear();
}

/* ---- the gated schedule (worker.h): --end-fsync, --steady-state ---- */

/* the progress line of gated window @win: warm-up, pass or round, and the rate */
static void gated_progress(const struct cdm_watch *t, unsigned int win, uint64_t now,
			   uint64_t bytes, uint64_t ns, uint64_t idle_ns)
{
	const struct cdm_steady *st = &t->tr->steady;
	char window[128] = "", judged[96];

	/* the last window judged, when there is one with figures */
	if (st->on && st->range_pct == st->range_pct && win > CDM_STEADY_WINDOW)
		snprintf(window, sizeof(window), "  (last window: %s)",
			 cdm_fmt_steady_window(judged, sizeof(judged), st));
	window_progress(t, win, now, bytes, ns, idle_ns, window);
}

/*
 * Wait until every worker is parked at the end of window @win, with the
 * progress line meanwhile, and past the window's end its drain
 * (drain_look()).  Returns 1 when they are, 0 on a stop request.
 */
static int gate_watch(struct cdm_watch *t, unsigned int win)
{
	uint64_t start = cdm_clock_now_ns(), last_t = start, last_bytes = 0, io_bytes = 0;
	uint64_t io_t = start, end = t->sh->bounds[win + 1];
	unsigned int left;
	int parked;

	for (;;) {
		uint64_t now = cdm_clock_now_ns(), bytes = 0, until;

		if (cdm_signals_stop_requested())
			return 0;
		until = last_t + CDM_PROGRESS_NS < now + CDM_WATCH_TICK_NS ? last_t + CDM_PROGRESS_NS : now + CDM_WATCH_TICK_NS;
		parked = cdm_worker_gate_wait(t->sh, t->nthreads, until);
		now = cdm_clock_now_ns();
		note_pause_in(t, win, until, now);
		if (parked) {
			t->drain_from = 0;      /* drained: the next window's starts afresh */
			t->drain_on = 0;
			return 1;
		}
		for (unsigned int i = 0; i < t->nthreads; i++)
			bytes += atomic_load_explicit(&t->w[i].live_bytes, memory_order_relaxed);
		if (bytes != io_bytes) {        /* when an I/O last completed */
			io_bytes = bytes;
			io_t = now;
		}
		/* past the window's end, the workers drain it: the drain's line, at the same pace */
		if (now > end) {
			if (!t->drain_from)     /* the window's drain begins */
				t->drain_peak = 0;
			t->drain_from = end;
			if (drain_look(t, win, end, now, drain_inflight(t, &left))) {
				last_t = now;
				continue;
			}
		}
		if (now - last_t >= CDM_PROGRESS_NS) {
			gated_progress(t, win, now, bytes - last_bytes, now - last_t, now - io_t);
			last_t = now;
			last_bytes = bytes;
		}
	}
}

/*
 * --end-fsync: the fdatasync that ends window @win of a write or Mix
 * test, once every worker has drained; its time into *@ns and its return
 * into *@end.  Returns 0 or -errno (kept for test_io_error()).
 */
static int end_fsync(struct cdm_watch *t, unsigned int win, uint64_t *end, uint64_t *ns)
{
	uint64_t t0 = cdm_clock_now_ns();

	if (win) {
		struct cdm_eta_at at = { .phase = CDM_ETA_WINDOW, .test = t->idx, .win = win };

		at.elapsed = (double)(t0 - t->sh->bounds[win]) / 1e9;
		cdm_progress_at(t->cfg, &at, "%s %-5s %s %u/%u: fdatasync", t->name,
			    cdm_result_dir_name(t->tr->dir), t->tr->steady.on ? "round" : "pass", win,
			    t->sh->count);
	}
	if (fdatasync(t->sh->fd) < 0) {
		t->fsync_err = -errno;
		t->fsync_win = win;
		return t->fsync_err;
	}
	*end = cdm_clock_now_ns();
	*ns = *end - t0;
	return 0;
}

/*
 * --steady-state, after round @k (0-based) is in tr->passes: the
 * workers' histograms of it into the ring of the last rounds (and theirs
 * emptied), and PTS's rule over the window ending at it.  Returns 1 when
 * the rounds are steady.
 */
static int steady_round(struct cdm_watch *t, unsigned int k)
{
	struct cdm_hist *h = &t->hring[k % CDM_STEADY_WINDOW];

	cdm_hist_init(h);
	for (unsigned int i = 0; i < t->nthreads; i++) {
		cdm_hist_merge(h, &t->w[i].hist);
		cdm_hist_init(&t->w[i].hist);
	}
	return cdm_steady_update(&t->tr->steady, t->tr->passes, k + 1, t->tr->spec.pattern);
}

/*
 * Every worker is parked at the end of window @win (started at
 * sh->bounds[win], process CPU then @pu/@ps): what ends it.  The end
 * fdatasync, the window's real end (the last worker's drain, or the
 * fdatasync's return), and for a pass its counts summed over the workers
 * into tr->passes, and the steady-state check.  Returns 1 when the next
 * window runs, 0 when the test ends here (its last window, steady, an
 * error, a stop request).
 */
static int window_end(struct cdm_watch *t, unsigned int win, uint64_t pu, uint64_t ps)
{
	const struct cdm_test_shared *sh = t->sh;
	struct cdm_test_result *tr = t->tr;
	uint64_t end = sh->bounds[win], fs_ns = 0, u, sy;
	struct cdm_pass *p;

	for (unsigned int i = 0; i < t->nthreads; i++) {
		if (t->w[i].error)
			return 0;
		if (t->w[i].win_end_ns > end)
			end = t->w[i].win_end_ns;
	}
	if (atomic_load(&sh->failed) || cdm_signals_stop_requested())
		return 0;
	if (t->end_fsync && end_fsync(t, win, &end, &fs_ns) < 0)
		return 0;
	cdm_watch_process_cpu(&u, &sy);
	t->wend[win] = end;
	cdm_progress_window_ended((double)(end - sh->bounds[win]) / 1e9,
			 (double)(win ? t->cfg->time_ms : t->cfg->warmup_ms) / 1e3);
	if (win == 0)
		return 1;               /* the warm-up: nothing kept */
	p = &tr->passes[win - 1];
	memset(p, 0, sizeof(*p));
	/* the pass is all the I/O it started: to its last completion, or its flush */
	p->seconds = (double)(end - sh->bounds[win]) / 1e9;
	p->start_unix_ns = t->wall0 + (sh->bounds[win] - t->t0);
	for (unsigned int i = 0; i < t->nthreads; i++)
		cdm_pass_add(p, &t->w[i].passes[win - 1]);
	p->paused_ns = t->paused[win];
	p->end_fsyncs = t->end_fsync ? 1 : 0;
	p->end_fsync_ns = fs_ns;
	p->proc_user_ns = u - pu;
	p->proc_sys_ns = sy - ps;
	tr->npasses = win;
	if (tr->steady.on && steady_round(t, win - 1))
		return 0;
	return win < sh->count;
}

/*
 * Watch a gated test: each window run, drained and parked, then ended
 * (window_end()) and the next published, starting now, until the test
 * ends.  The workers are always told so (cdm_worker_gate_end()), so that
 * none is left waiting at the gate.
 */
void cdm_watch_gated(struct cdm_watch *t)
{
	struct cdm_test_shared *sh = t->sh;
	unsigned int win = sh->gate_win;
	uint64_t pu = t->puser[0], ps = t->psys[0];

	while (gate_watch(t, win) && window_end(t, win, pu, ps)) {
		uint64_t now;

		/* the workers are parked: their progress counters start again */
		for (unsigned int i = 0; i < t->nthreads; i++)
			atomic_store_explicit(&t->w[i].live_bytes, 0, memory_order_relaxed);
		cdm_watch_process_cpu(&pu, &ps);
		now = cdm_clock_now_ns();
		cdm_worker_gate_next(sh, now, now + (uint64_t)t->cfg->time_ms * CDM_MSEC_NS);
		win++;
	}
	cdm_worker_gate_end(sh);
}
