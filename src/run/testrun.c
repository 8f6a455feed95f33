/* SPDX-License-Identifier: MIT */
/*
 * testrun.c - one test (testrun.h): T worker threads (worker.h) started,
 * the pass schedule published and watched (progress, stop requests, the
 * process CPU at each boundary; gated, run/watch.c), the workers' counts
 * merged into the result model, the notes about them, and --verify's
 * read-back.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

#include "cdm/base/clock.h"
#include "cdm/base/msec.h"
#include "cdm/base/msg.h"
#include "cdm/engine/null_device.h"
#include "cdm/format/fmt.h"
#include "cdm/run/verify.h"
#include "cdm/target/numa.h"
#include "progress.h"
#include "signals.h"
#include "testrun.h"
#include "watch.h"

static char last_note[160];     /* an engine's remark is said once a run */

unsigned int cdm_testrun_batch(unsigned int asked, unsigned int qd)
{
	unsigned int b = asked ? asked : qd / 8;

	if (!asked && b > 16)
		b = 16;
	if (b < 1)
		b = 1;
	return b > qd ? qd : b;
}

/*
 * Say when a figure may be limited by the CPU rather than the device: a
 * worker thread busy (user + system) for more than 90 % of a pass, or the
 * whole process using more than 90 % of the CPUs it may run on
 * (affinity, cpuset, cgroup quota: cdm_sysinfo_cpus_allowed()).
 */
static void cpu_limit_note(const struct cdm_watch *t)
{
	const struct cdm_test_result *tr = t->tr;
	/* judged by the CPUs cdm may use (taskset, cpuset, quota), not those online */
	long online = t->info->cpus_online, ncpu = t->info->cpus_allowed;
	double worst = 0, proc = 0;

	for (unsigned int k = 0; k < tr->npasses; k++) {
		const struct cdm_pass *p = &tr->passes[k];
		double ns = p->seconds * 1e9;

		if (ns <= 0)
			continue;
		for (unsigned int i = 0; i < t->nthreads; i++) {
			const struct cdm_pass *wp = &t->w[i].passes[k];
			double busy = (double)(wp->cpu_user_ns + wp->cpu_sys_ns) / ns;

			if (busy > worst)
				worst = busy;
		}
		if ((double)(p->proc_user_ns + p->proc_sys_ns) / ns > proc)
			proc = (double)(p->proc_user_ns + p->proc_sys_ns) / ns;
	}
	if (worst > 0.9)
		cdm_msg_note("%s %s: a worker thread was busy %.0f%% of a pass; the figure may be limited by the CPU rather than the device",
			 t->name, cdm_result_dir_name(tr->dir), worst * 100);
	if (ncpu <= 0)
		ncpu = online;
	if (worst <= 0.9 && ncpu > 0 && proc > 0.9 * (double)ncpu)
		cdm_msg_note("%s %s: cdm used %.0f%% of the %ld CPUs it may run on (%ld online); the figure may be limited by the CPU rather than the device",
			 t->name, cdm_result_dir_name(tr->dir), proc * 100 / (double)ncpu, ncpu, online);
}

/*
 * --rate-iops: say what was achieved against what was asked, and the mean
 * latency at that rate (the text report has no column for it).
 */
static void rate_note(const char *name, const struct cdm_test_result *tr, uint64_t rate)
{
	const char *short_by = "; the device did not keep up with the requested rate";
	struct cdm_pass all;
	double iops;

	/* over the passes the figures come from (--steady-state: the last window) */
	cdm_result_window_pass(tr, &all);
	if (cdm_pass_state(&all) != CDM_PASS_MEASURED)
		return;
	iops = cdm_pass_iops(&all);
	/* short of the rate: the kernel's refusals, or cdm's own pause, before the device */
	if (all.busy_ns >= CDM_PAUSE_NS)
		short_by = "; the kernel refused to start I/O for part of it (the engine busy: EAGAIN or EBUSY), not the device";
	else if (all.paused_ns)
		short_by = "; cdm itself did not run for part of it (stopped, or not scheduled)";
	cdm_msg_note("%s %s: %.1f IOPS achieved of %" PRIu64 " requested (%.1f%%), mean latency %.2f us%s",
		 name, cdm_result_dir_name(tr->dir), iops, rate, 100.0 * (double)all.ios / all.seconds / (double)rate,
		 cdm_pass_mean_lat_ns(&all) / 1e3, iops < 0.95 * (double)rate ? short_by : "");
	/* late starts matter from 1 % of the I/Os on (docs/method.md, "Fixed rate") */
	if (all.late_starts && all.late_starts * 100 >= all.ios)
		cdm_msg_note("%s %s: %" PRIu64 " of the %" PRIu64 " starts were late, by up to %.1f ms: cdm could not start them on time (its threads waited for completions%s, or did not run); they caught up at no more than twice the rate, so the offered load was uneven",
			 name, cdm_result_dir_name(tr->dir), all.late_starts, all.ios,
			 (double)all.late_max_ns / 1e6,
			 all.busy_ns ? ", the kernel refused to start I/O" : "");
}

/*
 * A measured pass during which cdm itself did not run (its watch woke
 * 100 ms late or more: the process stopped, or was not scheduled), or
 * the kernel refused every I/O for 100 ms or more (the engine busy with
 * nothing in flight): its time counts in the pass, though nothing could
 * start.  A note per pass and cause (a pass that measured nothing says
 * so in its own message).
 */
static void pause_note(const char *name, const struct cdm_test_result *tr)
{
	const char *what = tr->steady.on ? "round" : "pass";

	for (unsigned int k = 0; k < tr->npasses && k < CDM_MAX_PASSES; k++) {
		const struct cdm_pass *p = &tr->passes[k];

		if (cdm_pass_state(p) != CDM_PASS_MEASURED)
			continue;
		if (p->paused_ns)
			cdm_msg_note("%s %s: cdm itself did not run for %.1f s of %s %u (stopped, or not scheduled): that time counts in the %s, though no I/O could start in it",
				     name, cdm_result_dir_name(tr->dir), (double)p->paused_ns / 1e9, what, k + 1, what);
		if (p->busy_ns >= CDM_PAUSE_NS)
			cdm_msg_note("%s %s: the kernel refused to start any I/O for %.1f s of %s %u (the engine busy: EAGAIN or EBUSY, nothing in flight): that time counts in the %s, though no I/O could start in it",
				     name, cdm_result_dir_name(tr->dir), (double)p->busy_ns / 1e9, what, k + 1, what);
	}
}

/*
 * The I/O in flight when the test stopped starting I/O took a second or
 * more to complete (watch.h's drain): cdm waited for the device.  After
 * the schedule that time is in no pass (a pass ends at its bound); a
 * gated window's is in its pass, which ends with its last I/O.
 */
static void drain_note(const struct cdm_watch *t)
{
	char where[48] = "no pass";

	if (t->drain_ns < CDM_DRAIN_SAY_NS)
		return;
	if (t->drain_win != CDM_DRAIN_NO_PASS && t->drain_win > 0)
		snprintf(where, sizeof(where), "%s %u", t->tr->steady.on ? "round" : "pass",
			 t->drain_win);
	if (!t->drain_inflight)         /* a sync (--fsync) or an engine's clean-up */
		cdm_msg_note("%s %s: the device took %.1f s to complete what it had when the test stopped starting I/O; cdm waited for it, and that time is in %s",
			     t->name, cdm_result_dir_name(t->tr->dir), (double)t->drain_ns / 1e9, where);
	else
		cdm_msg_note("%s %s: the device took %.1f s to complete the %u I/O%s in flight when the test stopped starting I/O; cdm waited for %s, and that time is in %s",
			     t->name, cdm_result_dir_name(t->tr->dir), (double)t->drain_ns / 1e9,
			     t->drain_inflight, t->drain_inflight == 1 ? "" : "s",
			     t->drain_inflight == 1 ? "it" : "them", where);
}

/*
 * --log-interval: one zeroed slot per interval of the warm-up and of each
 * pass, per worker, before the workers start (series.h).  Returns 0 or
 * -ENOMEM (whatever was allocated is freed).
 */
static int series_alloc(const struct cdm_run_config *cfg, struct cdm_test_shared *sh,
			struct cdm_worker *w, unsigned int nthreads)
{
	unsigned int total = 0;

	sh->series_ns = cfg->log_interval_ns;
	for (unsigned int k = 0; k <= cfg->count; k++) {
		uint64_t len = (uint64_t)(k ? cfg->time_ms : cfg->warmup_ms) * CDM_MSEC_NS;

		sh->series_base[k] = total;
		sh->series_n[k] = cdm_series_window_slots(len, cfg->log_interval_ns);
		total += sh->series_n[k];
	}
	for (unsigned int i = 0; i < nthreads; i++) {
		/* calloc, then touched: no page faults in the timed loop */
		w[i].series = calloc(total ? total : 1, sizeof(*w[i].series));
		if (!w[i].series) {
			for (unsigned int j = 0; j < i; j++)
				free(w[j].series);
			return -ENOMEM;
		}
		memset(w[i].series, 0, (total ? total : 1) * sizeof(*w[i].series));
	}
	return 0;
}

/* merge the workers' slots of the windows kept into tr->series */
static int series_collect(const struct cdm_watch *t, uint64_t stopped, struct cdm_err *err)
{
	struct cdm_series_slot **slots = calloc(t->nthreads, sizeof(*slots));
	const struct cdm_test_shared *sh = t->sh;
	unsigned int nwin;

	if (!slots)
		return cdm_err_set(err, -ENOMEM, "%s: out of memory for the time series", t->name);
	for (unsigned int i = 0; i < t->nthreads; i++)
		slots[i] = t->w[i].series;
	/* the warm-up, if it ran to its end, and the complete passes */
	if (sh->gated)
		nwin = t->wend[0] ? 1 + t->tr->npasses : 0;
	else
		nwin = sh->bounds[1] <= stopped ? 1 + t->tr->npasses : 0;
	/* gated: a window ends when it was drained (and flushed), not at its bound */
	t->tr->series = cdm_series_build(sh->series_ns, sh->bounds, sh->gated ? t->wend : NULL,
					 nwin, sh->series_base, sh->series_n, slots, t->nthreads);
	free(slots);
	if (!t->tr->series)
		return cdm_err_set(err, -ENOMEM, "%s: out of memory for the time series", t->name);
	return 0;
}

/* free what test_alloc() allocated */
static void test_free(struct cdm_watch *t)
{
	if (t->w)
		for (unsigned int i = 0; i < t->nthreads; i++)
			free(t->w[i].series);
	free(t->hring);
	if (t->sh)
		cdm_null_device_free(t->sh->null_device);
	free(t->sh);
	free(t->w);
}

/*
 * The workers' shared state (the test, the file, the options, the stop
 * flag) and T zeroed workers, cache-line aligned.  Returns 0 or -ENOMEM.
 */
static int test_alloc(struct cdm_watch *t, int fd, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = t->cfg;
	const struct cdm_spec *spec = &t->tr->spec;
	struct cdm_test_shared *sh;

	t->nthreads = spec->threads;
	cdm_spec_name(spec, t->name, sizeof(t->name));
	t->sh = aligned_alloc(64, (sizeof(*t->sh) + 63) & ~(size_t)63);
	t->w = aligned_alloc(64, ((sizeof(*t->w) * t->nthreads) + 63) & ~(size_t)63);
	if (!t->sh || !t->w) {
		free(t->sh);
		free(t->w);
		t->sh = NULL;
		t->w = NULL;
		return cdm_err_set(err, -ENOMEM, "%s: out of memory for %u worker threads",
				   t->name, t->nthreads);
	}
	sh = t->sh;
	memset(sh, 0, sizeof(*sh));
	memset(t->w, 0, sizeof(*t->w) * t->nthreads);
	sh->engine = cfg->engine;
	sh->engine_options = cfg->engine_options;
	sh->spec = *spec;
	sh->dir = t->tr->dir;
	sh->fd = fd;
	sh->fsync_every = cfg->fsync_every;
	sh->pace_ps = cfg->rate_iops ? 1000000000000ull / cfg->rate_iops : 0;
	sh->seed = cfg->seed;
	sh->direct = cfg->direct;
	sh->zero_fill = cfg->zero_fill;
	sh->nblocks = t->f->size / spec->block;
	sh->count = cfg->count;
	sh->batch = cdm_testrun_batch(cfg->batch, spec->qd);
	sh->cpus = cfg->cpus;
	sh->ncpus = cfg->ncpus;
	sh->stop = cdm_signals_stop_flag();
	atomic_init(&sh->seq_next, 0);
	t->end_fsync = cdm_result_end_fsync(t->tr, cfg->end_fsync);
	sh->gated = t->end_fsync || cfg->steady_state;
	if (cfg->steady_state) {
		t->tr->steady.on = 1;
		t->tr->steady.max_rounds = cfg->max_rounds;
		t->hring = calloc(CDM_STEADY_WINDOW, sizeof(*t->hring));
		if (!t->hring) {
			free(sh);
			free(t->w);
			t->sh = NULL;
			t->w = NULL;
			return cdm_err_set(err, -ENOMEM, "%s: out of memory for the rounds' histograms",
					   t->name);
		}
	}
	if (cfg->log_interval_ns && series_alloc(cfg, sh, t->w, t->nthreads) < 0) {
		free(sh);
		free(t->w);
		t->sh = NULL;
		t->w = NULL;
		return cdm_err_set(err, -ENOMEM, "%s: out of memory for the --log-interval slots",
				   t->name);
	}
	return 0;
}

/*
 * Start the workers, check that each set up its engine, pass the sync
 * hook, publish the schedule and let them go.  Returns 0; or -errno with
 * the message in @err, and then either no worker runs (they could not
 * start) or the schedule published ends at once, so that the workers do
 * no I/O and cdm_worker_join() returns at once.  *@started says which.
 */
static int test_start(struct cdm_watch *t, unsigned int idx, int *started, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = t->cfg;
	struct cdm_test_shared *sh = t->sh;
	uint64_t late;
	int ret;

	*started = 0;
	ret = cdm_worker_start(sh, t->w, t->nthreads, err);
	if (ret < 0)
		return cdm_err_prefix(err, ret, t->name);
	*started = 1;
	for (unsigned int i = 0; i < t->nthreads && !ret; i++)
		if (t->w[i].pin_failed)
			ret = cdm_err_set(err, t->w[i].error,
					  "%s: worker thread %u of %u cannot be pinned to CPU %u (--cpus): %s",
					  t->name, i + 1, t->nthreads,
					  cdm_cpulist_thread_cpu(cfg->cpus, cfg->ncpus, i),
					  strerror(-t->w[i].error));
		else if (t->w[i].init_failed)
			ret = cdm_err_set(err, t->w[i].error,
					  "%s: the %s engine could not be set up on %s: %s%s%s",
					  t->name, cfg->engine->name, t->f->path,
					  strerror(-t->w[i].error), t->w[i].note[0] ? "; " : "",
					  t->w[i].note);
	if (cfg->sync) {
		int e = cfg->sync(cfg->sync_arg, idx + 1, ret, ret ? NULL : err);

		if (!ret)
			ret = e;
	}
	/* publish the schedule; a failure makes every worker idle */
	t->wall0 = cdm_clock_wall_ns();
	t->t0 = cdm_clock_now_ns();
	sh->bounds[0] = t->t0;
	sh->bounds[1] = t->t0 + (uint64_t)cfg->warmup_ms * CDM_MSEC_NS;
	for (unsigned int k = 0; k < cfg->count; k++)
		sh->bounds[k + 2] = sh->bounds[k + 1] + (uint64_t)cfg->time_ms * CDM_MSEC_NS;
	if (ret)
		for (unsigned int k = 0; k < cfg->count + 2; k++)
			sh->bounds[k] = t->t0;
	/* gated: the first window, the warm-up or, without one, pass 1 */
	sh->gate_win = cfg->warmup_ms ? 0 : 1;
	/* a failure: the workers' one window ends at once, and none waits at the gate */
	if (ret && sh->gated)
		cdm_worker_gate_end(sh);
	cdm_watch_process_cpu(&t->puser[0], &t->psys[0]);
	/* the schedule starts when the last worker runs (worker.h) */
	late = cdm_worker_go(sh);
	t->t0 += late;
	t->wall0 += late;
	if (sh->gated && !cfg->warmup_ms)
		t->wend[0] = t->t0;
	return ret;
}



/*
 * The passes every worker ran to their end, summed over the workers, into
 * tr->passes (a pass counts only if no worker stopped before its end);
 * the depth the engine kept; the engine's remark.  Returns the time the
 * first worker stopped starting I/O.
 */
static uint64_t test_collect_passes(struct cdm_watch *t)
{
	const struct cdm_run_config *cfg = t->cfg;
	const struct cdm_test_shared *sh = t->sh;
	struct cdm_test_result *tr = t->tr;
	uint64_t stopped = UINT64_MAX;
	unsigned int k;
	int by_fsync = 0;

	tr->qd_run = tr->spec.qd;
	for (unsigned int i = 0; i < t->nthreads; i++) {
		if (t->w[i].depth_run < tr->qd_run) {
			tr->qd_run = t->w[i].depth_run;
			by_fsync = t->w[i].depth_fsync;
		}
		if (t->w[i].stopped_ns < stopped)
			stopped = t->w[i].stopped_ns;
	}
	if (t->w[0].note[0] && strcmp(t->w[0].note, last_note) != 0 && !t->w[0].init_failed) {
		cdm_msg_note("%s", t->w[0].note);
		snprintf(last_note, sizeof(last_note), "%s", t->w[0].note);
	}
	if (tr->qd_run < tr->spec.qd && by_fsync)
		cdm_msg_note("%s %s: with --fsync %u, at most %u writes per thread are in flight between two fdatasyncs, not %u; the report shows Q=%u",
			 t->name, cdm_result_dir_name(tr->dir), cfg->fsync_every, tr->qd_run, tr->spec.qd,
			 tr->qd_run);
	else if (tr->qd_run < tr->spec.qd)
		cdm_msg_note("%s %s: the %s engine kept %u I/O in flight per thread, not %u; the report shows Q=%u",
			 t->name, cdm_result_dir_name(tr->dir), cfg->engine->name, tr->qd_run, tr->spec.qd,
			 tr->qd_run);
	/* gated: the runner summed each pass at the gate (window_end()) */
	for (k = 0; k < cfg->count && !sh->gated; k++) {
		struct cdm_pass *p = &tr->passes[k];

		if (sh->bounds[k + 2] > stopped)
			break;
		memset(p, 0, sizeof(*p));
		p->seconds = (double)(sh->bounds[k + 2] - sh->bounds[k + 1]) / 1e9;
		p->start_unix_ns = t->wall0 + (sh->bounds[k + 1] - t->t0);
		for (unsigned int i = 0; i < t->nthreads; i++)
			cdm_pass_add(p, &t->w[i].passes[k]);
		p->paused_ns = t->paused[k + 1];
		if (k + 2 <= t->pmark) {
			p->proc_user_ns = t->puser[k + 2] - t->puser[k + 1];
			p->proc_sys_ns = t->psys[k + 2] - t->psys[k + 1];
		}
	}
	if (!sh->gated)
		tr->npasses = k;
	return stopped;
}

/* the first worker's I/O error, into tr->error and @err; 0 when none */
static int test_io_error(struct cdm_watch *t, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = t->cfg;
	struct cdm_test_result *tr = t->tr;
	const char *path = t->f->path, *dir = cdm_result_dir_name(tr->dir);
	const struct cdm_worker *w = NULL;
	int ret;

	for (unsigned int i = 0; i < t->nthreads && !w; i++)
		if (t->w[i].error)
			w = &t->w[i];
	if (!w)
		return 0;
	ret = w->error;
	tr->error = ret;
	tr->error_offset = w->error_offset;
	if (w->busy_stuck)
		return cdm_err_set(err, ret, "%s: %s %s: the %s engine stayed busy for %.1f s with no I/O in flight (the kernel kept refusing to start one: EAGAIN or EBUSY); not an I/O error",
				   path, t->name, dir, cfg->engine->name, (double)w->busy_stuck_ns / 1e9);
	if (w->short_io)
		return cdm_err_set(err, ret, "%s: %s %s: short %s at offset %" PRIu64, path,
				   t->name, dir,
				   tr->dir == CDM_DIR_READ ? "read" :
				   tr->dir == CDM_DIR_WRITE ? "write" : "I/O", w->error_offset);
	if (ret == -EOPNOTSUPP && (cfg->engine_options & CDM_ENGINE_OPT_IOPOLL))
		return cdm_err_set(err, ret, "%s: %s %s: polled I/O (--hipri) is not supported by this device or filesystem (%s); run without --hipri",
				   path, t->name, dir, strerror(-ret));
	if (ret == -EINVAL && cfg->direct)
		return cdm_err_set(err, ret, "%s: %s %s: %s at offset %" PRIu64
				   " (O_DIRECT needs the block size and offsets aligned to the device's logical block size; try --buffered)",
				   path, t->name, dir, strerror(-ret), w->error_offset);
	return cdm_err_set(err, ret, "%s: %s %s: %s at offset %" PRIu64, path, t->name, dir,
			   strerror(-ret), w->error_offset);
}

/*
 * --steady-state, after the rounds: the histogram over the rounds the
 * figures come from (the last window: cdm_result_first_pass()), and a
 * note when every round ran and none completed a steady window.
 */
static void steady_collect(struct cdm_watch *t)
{
	struct cdm_test_result *tr = t->tr;
	const struct cdm_steady *st = &tr->steady;
	char verdict[CDM_FMT_STEADY_MAX];

	for (unsigned int k = cdm_result_first_pass(tr); k < tr->npasses; k++)
		cdm_hist_merge(tr->hist, &t->hring[k % CDM_STEADY_WINDOW]);
	if (st->reached_at_round || tr->npasses < st->max_rounds)
		return;
	/* the report's own words (its "Not steady:" line) */
	cdm_msg_note("%s %s: not steady %s", t->name, cdm_result_dir_name(tr->dir),
		     cdm_fmt_steady(verdict, sizeof(verdict), tr, t->info));
}

/* --end-fsync: the fdatasync that ended a window failed; the test fails as on an I/O error */
static int end_fsync_error(struct cdm_watch *t, struct cdm_err *err)
{
	char when[32] = "the warm-up";

	if (t->fsync_win)
		snprintf(when, sizeof(when), "%s %u", t->tr->steady.on ? "round" : "pass",
			 t->fsync_win);
	t->tr->error = t->fsync_err;
	return cdm_err_set(err, t->fsync_err, "%s: %s %s: fdatasync at the end of %s: %s",
			   t->f->path, t->name, cdm_result_dir_name(t->tr->dir), when, strerror(-t->fsync_err));
}

/*
 * After the workers have been joined: the passes, the notes about them,
 * the time series and the latency histogram, then the first I/O error.
 * Returns 0, -EINTR on a stop request, or -errno with @err set.
 */
static int test_collect(struct cdm_watch *t, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = t->cfg;
	uint64_t stopped = test_collect_passes(t);
	int ret = 0;

	cpu_limit_note(t);
	pause_note(t->name, t->tr);
	drain_note(t);
	if (cfg->rate_iops)
		rate_note(t->name, t->tr, cfg->rate_iops);
	if (cfg->log_interval_ns)
		ret = series_collect(t, stopped, err);
	/*
	 * The merged histogram covers the passes kept; when a pass was cut
	 * short its I/Os are in the workers' histograms too, so only merge
	 * for complete tests.
	 */
	if (t->hring)
		steady_collect(t);
	else if (t->tr->npasses == cfg->count)
		for (unsigned int i = 0; i < t->nthreads; i++)
			cdm_hist_merge(t->tr->hist, &t->w[i].hist);
	if (!ret)
		ret = test_io_error(t, err);
	if (!ret && t->fsync_err)
		ret = end_fsync_error(t, err);
	if (!ret && cdm_signals_stop_requested())
		ret = -EINTR;
	return ret;
}

/* --verify's progress line: the test being read back (verify_after()) */
static const struct cdm_watch *verify_run;

static void verify_progress(uint64_t done, uint64_t total)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_VERIFY, .test = verify_run->idx };

	at.phase_left = cdm_progress_phase_left(done, total);
	cdm_progress_at(verify_run->cfg, &at, "verifying %s %s: %u%%", verify_run->name,
		    cdm_result_dir_name(verify_run->tr->dir), (unsigned int)(done * 100 / (total ? total : 1)));
}

/*
 * --verify: once a write or Mix test has ended well, read back every
 * block it recorded (run/verify.h) into tr->verify, and say what bent the
 * workload (blocks drawn again); the report words the faults found and
 * cli/ fails the run on one.  Returns 0, -EINTR, or
 * -errno of the read-back with @err set.
 */
static int verify_after(const struct cdm_watch *t, const struct cdm_verify_map *m,
			struct cdm_err *err)
{
	struct cdm_verify *v = &t->tr->verify;
	const char *dir = cdm_result_dir_name(t->tr->dir);
	struct cdm_eta_at at = { .phase = CDM_ETA_VERIFY, .phase_left = -1 };
	uint64_t writes = 0, redrawn = 0;
	struct cdm_numa_saved mask;
	int ret;

	for (unsigned int i = 0; i < t->nthreads; i++) {
		writes += t->w[i].verify_writes;
		redrawn += t->w[i].verify_redrawn;
	}
	if (redrawn)
		cdm_msg_note("%s %s: --verify: %" PRIu64 " of %" PRIu64 " writes (%.3g%%) took another block than the one drawn first, as a write was in flight on it",
			     t->name, dir, redrawn, writes, 100.0 * (double)redrawn / (double)writes);
	verify_run = t;
	cdm_progress_phase_start(cdm_clock_now_ns());
	/* no percentage, and no time left, before a block is read back */
	at.test = t->idx;
	cdm_progress_at(t->cfg, &at, "verifying %s %s", t->name, dir);
	/* --cpus: the read-back on worker thread 0's CPU, the runner's own thread back after */
	ret = cdm_numa_pin(t->cfg->cpus, t->cfg->ncpus, 0, &mask);
	if (ret < 0)
		return cdm_err_set(err, ret, "%s: %s %s: --verify: the read-back cannot be pinned to CPU %u (--cpus): %s",
				   t->f->path, t->name, dir,
				   cdm_cpulist_thread_cpu(t->cfg->cpus, t->cfg->ncpus, 0),
				   strerror(-ret));
	ret = cdm_verify_read_back(m, t->f->fd, t->cfg->direct, v, verify_progress, cdm_signals_stop_cb, err);
	cdm_numa_unpin(&mask);
	if (ret == -EINTR) {
		cdm_msg_warn("%s %s: --verify: the read-back was interrupted: this test is not checked",
			     t->name, dir);
		return ret;
	}
	if (ret < 0) {
		char pre[sizeof(t->f->path) + 96];

		snprintf(pre, sizeof(pre), "%s: %s %s: --verify", t->f->path, t->name, dir);
		return cdm_err_prefix(err, ret, pre);
	}
	/*
	 * The faults are told by the report (its Verify line per test, JSON's
	 * verify object) and by cli/'s closing error, one line per test with
	 * faults (cdm_cli_verify_faults()); the runner adds only that a test
	 * read back nothing.
	 */
	if (!v->blocks)
		cdm_msg_note("%s %s: --verify: no write completed, so nothing was read back or checked",
			     t->name, dir);
	return 0;
}

/*
 * Run one test: T workers on @fd through warm-up and `count` passes.
 * Fills @tr.  Returns 0, -EINTR on a stop request, or -errno with @err set.
 */
int cdm_testrun_run(const struct cdm_run_config *cfg, const struct cdm_run_info *info,
		    const struct cdm_testfile *f, int fd, struct cdm_test_result *tr,
		    unsigned int idx, struct cdm_err *err)
{
	struct cdm_watch t = { .cfg = cfg, .info = info, .f = f, .tr = tr, .idx = idx,
			       .drain_win = CDM_DRAIN_NO_PASS };
	struct cdm_verify_map *vm = NULL;
	int ret, started;

	ret = test_alloc(&t, fd, err);
	if (ret < 0)
		return ret;
	/* the null engine's simulated device: a new one, its clock not started, for each test */
	if (cfg->null_device.nphases) {
		ret = cdm_null_device_new(&cfg->null_device, tr->spec.qd * tr->spec.threads,
					  &t.sh->null_device);
		if (ret < 0) {
			test_free(&t);
			return cdm_err_set(err, ret, "%s: out of memory for the simulated device", t.name);
		}
	}
	if (cfg->verify && tr->dir != CDM_DIR_READ) {
		vm = cdm_verify_map_new(t.sh->nblocks, tr->spec.block);
		if (!vm) {
			test_free(&t);
			return cdm_err_set(err, -ENOMEM, "%s: out of memory for --verify's record of %" PRIu64 " blocks",
					   t.name, t.sh->nblocks);
		}
		t.sh->verify = vm;
	}
	if (!cfg->direct && tr->dir != CDM_DIR_WRITE)
		/* buffered reads: start from a cold page cache for this file */
		posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	ret = test_start(&t, idx, &started, err);
	if (!ret && t.sh->gated)
		cdm_watch_gated(&t);
	else if (!ret)
		cdm_watch_schedule(&t);
	if (started) {
		cdm_watch_drain(&t);
		cdm_worker_join(t.sh, t.w, t.nthreads);
	}
	if (!ret)
		ret = test_collect(&t, err);
	if (!ret && vm)
		ret = verify_after(&t, vm, err);
	cdm_verify_map_free(vm);
	test_free(&t);
	return ret;
}
