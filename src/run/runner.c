/* SPDX-License-Identifier: MIT */
/*
 * runner.c - runs the plan: probes the target, prepares the test file,
 * then for each test (reads first, then writes) starts T worker threads
 * (worker.h), publishes the pass schedule, watches it (progress, stop
 * requests, the process CPU at each boundary), and merges the workers'
 * counts into the result model.  The test file is removed on every way
 * out.  It owns the run's stop flag, set by cdm_runner_request_stop() and
 * read by the workers through their shared state.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/err.h"
#include "cdm/base/lfs.h"
#include "cdm/base/msec.h"
#include "cdm/base/msg.h"
#include "cdm/base/sig.h"
#include "cdm/base/size.h"
#include "cdm/base/version.h"
#include "cdm/engine/null_device.h"
#include "cdm/plan/align.h"
#include "cdm/plan/eta.h"
#include "cdm/plan/limits.h"
#include "cdm/report/fmt.h"
#include "cdm/run/runner.h"
#include "cdm/run/verify.h"
#include "cdm/target/fileguard.h"
#include "cdm/target/numa.h"
#include "cdm/target/stack.h"
#include "cdm/target/sysinfo.h"
#include "cdm/target/target.h"
#include "cdm/target/testfile.h"
#include "worker.h"

#define TICK_NS 100000000ull    /* the runner wakes at least every 100 ms */
#define PROGRESS_NS 500000000ull

/* the signal that asked the run to stop, or 0; the workers read it too */
static atomic_int stop_signal;
static int progress_shown;
static char last_note[160];     /* an engine's remark is said once a run */

static void progress_clear(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

static void progress(const struct cdm_run_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct cdm_run_config *cfg, const char *fmt, ...)
{
	va_list ap;

	if (!cfg->progress)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = 1;
}

/*
 * The progress line's place in the run: "test N of M" and the time left
 * (plan/eta.h).  The tests' directions in run order, set once the plan is
 * known (eta_init()); the gated windows ended so far, measured and
 * scheduled; when the preparation or a read-back started.
 */
#define PROGRESS_COLS 79        /* rewritten in place: never wrap an 80-column terminal */

static struct {
	unsigned int ntests;    /* 0: no plan yet, no ETA */
	enum cdm_dir dirs[3 * CDM_MAX_TESTS];
	double gate_meas, gate_sched;
	uint64_t phase_t0;
} eta;

static void eta_init(const struct cdm_run_result *res)
{
	memset(&eta, 0, sizeof(eta));
	if (res->ntests > sizeof(eta.dirs) / sizeof(eta.dirs[0]))
		return;
	for (unsigned int i = 0; i < res->ntests; i++)
		eta.dirs[i] = res->tests[i].dir;
	eta.ntests = res->ntests;
}

/* a gated window of @sched_s seconds ended after @meas_s: the scale of those ahead */
static void eta_window_ended(double meas_s, double sched_s)
{
	eta.gate_meas += meas_s;
	eta.gate_sched += sched_s;
}

/*
 * The seconds left of a phase that has done @done of @total units since
 * eta.phase_t0, at the rate so far; -1 (unknown) before the first unit.
 */
static double eta_phase_left(uint64_t done, uint64_t total)
{
	double el = (double)(cdm_clock_now_ns() - eta.phase_t0) / 1e9;

	if (!done || total < done)
		return -1;
	return (double)(total - done) * el / (double)done;
}

/*
 * The columns the progress line may use: one less than the terminal's
 * width, so it never wraps (a wrapped line is not erased by "\r\033[K");
 * PROGRESS_COLS when the terminal does not say (a pty of width 0).
 */
static size_t progress_cols(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return PROGRESS_COLS;
	if (ws.ws_col < 41)
		return 40;
	return ws.ws_col > 200 ? 199 : (size_t)ws.ws_col - 1;
}

/*
 * The progress line at @at: "test N of M" (not while preparing), a body,
 * and the time left, within the terminal's width (progress_cols()).  The
 * body is the first of @alt[0..@n) that fits, each tried with two
 * spaces around it, then with one; when none does, the last is cut at a
 * space (never inside a number), and never is the time left.
 */
static void progress_line(const struct cdm_run_config *cfg, struct cdm_eta_at *at,
			  const char *const *alt, unsigned int n)
{
	char pre[32] = "", left[48] = "", line[384];
	size_t cols = progress_cols(), room;
	struct cdm_eta e;

	if (!cfg->progress || !n)
		return;
	if (eta.ntests) {
		at->gate_scale = eta.gate_sched > 0 ? eta.gate_meas / eta.gate_sched : 0;
		cdm_eta_left(cfg, eta.dirs, eta.ntests, at, &e);
		cdm_eta_format(&e, left, sizeof(left));
		if (at->phase != CDM_ETA_PREPARE)
			snprintf(pre, sizeof(pre), "test %u of %u", at->test + 1, eta.ntests);
	}
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int sep = 2; sep >= 1; sep--) {
			int len = snprintf(line, sizeof(line), "%s%*s%s%*s%s", pre,
					   pre[0] ? (int)sep : 0, "", alt[i],
					   left[0] ? (int)sep : 0, "", left);

			if (len > 0 && (size_t)len <= cols) {
				progress(cfg, "%s", line);
				return;
			}
		}
	/* the last body, words dropped from its end until it fits */
	room = cols > strlen(pre) + strlen(left) + 2 ? cols - strlen(pre) - strlen(left) - 2 : 0;
	snprintf(line, sizeof(line), "%s", alt[n - 1]);
	if (strlen(line) > room) {
		char *sp;
		size_t k;

		line[room] = '\0';
		sp = strrchr(line, ' ');
		*(sp ? sp : line) = '\0';
		/* "round 2/5: fdatasync" cut is "round 2/5", not "round 2/5:" */
		for (k = strlen(line); k && strchr(" :,", line[k - 1]); k--)
			line[k - 1] = '\0';
	}
	progress(cfg, "%s%s%s%s%s", pre, pre[0] ? " " : "", line, left[0] ? " " : "", left);
}

/* progress_line() with one body, formatted */
static void progress_at(const struct cdm_run_config *cfg, struct cdm_eta_at *at,
			const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void progress_at(const struct cdm_run_config *cfg, struct cdm_eta_at *at,
			const char *fmt, ...)
{
	char body[160];
	va_list ap;

	if (!cfg->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	progress_line(cfg, at, (const char *const[]){ body }, 1);
}

unsigned int cdm_runner_batch(unsigned int asked, unsigned int qd)
{
	unsigned int b = asked ? asked : qd / 8;

	if (!asked && b > 16)
		b = 16;
	if (b < 1)
		b = 1;
	return b > qd ? qd : b;
}

void cdm_runner_request_stop(int sig)
{
	int expected = 0;

	/* the first signal wins; a lock-free atomic is async-signal-safe */
	atomic_compare_exchange_strong(&stop_signal, &expected, sig);
}

static void on_signal(int sig)
{
	cdm_runner_request_stop(sig);
}

/*
 * The signals whose default action ends the process, and what cdm does
 * with each (docs/safety.md, section 4, has the table).  STOP ones ask the
 * run to stop cleanly, as SIGINT does: the I/O in flight completes, the
 * test file is removed, the rows so far are reported, the exit status is
 * 128 + N.  SIGPIPE is one of them, so a write to a closed pipe returns
 * EPIPE instead of killing cdm.  FAULT ones say cdm itself went wrong:
 * on_fault() removes the test file and hands the signal on.
 */
static const int stop_sigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
static const int fault_sigs[] = CDM_FAULT_SIGNALS;
#define NFAULT (sizeof(fault_sigs) / sizeof(fault_sigs[0]))

/* what a fault signal did before cdm's handler, to hand it on */
static struct sigaction fault_old[NFAULT];
/* the test file on_fault() removes: set while cdm owns a .tmp file */
static char fault_path[sizeof(((struct cdm_testfile *)0)->path)];
static volatile sig_atomic_t fault_armed;
/* an alternate stack, so that a stack overflow can still remove the file */
static char fault_stack[64 * 1024];

/*
 * Async-signal-safe: unlink the test file, put the previous action back,
 * and let it take the signal: a fault (si_code > 0) happens again when
 * the handler returns; a signal sent (kill, abort) is raised again.
 */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	int e = errno;

	(void)uc;
	if (fault_armed) {
		fault_armed = 0;
		unlink(fault_path);
	}
	for (size_t i = 0; i < NFAULT; i++)
		if (fault_sigs[i] == sig)
			sigaction(sig, &fault_old[i], NULL);
	if (!si || si->si_code <= 0)
		raise(sig);
	errno = e;
}

/* the test file at @path is cdm's to remove if cdm crashes (NULL: none) */
static void fault_arm(const char *path)
{
	fault_armed = 0;
	atomic_signal_fence(memory_order_seq_cst);
	if (path) {
		snprintf(fault_path, sizeof(fault_path), "%s", path);
		atomic_signal_fence(memory_order_seq_cst);
		fault_armed = 1;
	}
}

static int install_faults(void)
{
	struct sigaction sa;
	stack_t ss;

	/* keep an alternate stack already set up (the sanitizers' own) */
	if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
		ss.ss_sp = fault_stack;
		ss.ss_size = sizeof(fault_stack);
		ss.ss_flags = 0;
		sigaltstack(&ss, NULL);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFAULT; i++) {
		if (sigaction(fault_sigs[i], NULL, &fault_old[i]) < 0)
			return -errno;
		/* one ignored from the start stays ignored (a fault ends cdm anyway) */
		if (!(fault_old[i].sa_flags & SA_SIGINFO) && fault_old[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(fault_sigs[i], &sa, NULL) < 0)
			return -errno;
	}
	return 0;
}

int cdm_runner_install_signals(void)
{
	static int installed;
	struct sigaction sa;

	/* once: a second time would save cdm's own handler as the previous */
	if (installed)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a sleep or a blocking write returns EINTR at once */
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		if (sigaction(stop_sigs[i], &sa, NULL) < 0)
			return -errno;
	/* best effort: a tool (valgrind) may keep some real-time signals */
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	installed = 1;
	return install_faults();
}

int cdm_runner_stop_requested(void)
{
	return atomic_load(&stop_signal);
}

static int stop_cb(void)
{
	return cdm_runner_stop_requested() != 0;
}

/* sleep until CLOCK_MONOTONIC @until_ns, or a stop request */
static void sleep_until(uint64_t until_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(until_ns / 1000000000ull),
		.tv_nsec = (long)(until_ns % 1000000000ull),
	};

	/* a signal interrupts the sleep (EINTR): the caller re-checks */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

static void process_cpu(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	*user = *sys = 0;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		*user = tv_ns(&ru.ru_utime);
		*sys = tv_ns(&ru.ru_stime);
	}
}

static const char *dir_name(enum cdm_dir d)
{
	return cdm_result_dir_name(d);
}

/* ---- one test ---- */

/* one test's workers, and what the runner learns while they run */
struct test_run {
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
	uint64_t psys[CDM_MAX_PASSES + 2];
	/* the pass gate (worker.h): --end-fsync on a write or Mix test, --steady-state */
	int end_fsync;                  /* this test's windows end with an fdatasync */
	uint64_t wend[CDM_MAX_PASSES + 2]; /* gated: each window's real end (0: not ended) */
	int fsync_err;                  /* the end fdatasync's failure (-errno), or 0 */
	unsigned int fsync_win;         /* ... at the end of this window */
	struct cdm_hist *hring;         /* --steady-state: the last rounds' histograms */
};

/*
 * Say when a figure may be limited by the CPU rather than the device: a
 * worker thread busy (user + system) for more than 90 % of a pass, or the
 * whole process using more than 90 % of the CPUs it may run on
 * (affinity, cpuset, cgroup quota: cdm_sysinfo_cpus_allowed()).
 */
static void cpu_limit_note(const struct test_run *t)
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
			 t->name, dir_name(tr->dir), worst * 100);
	if (ncpu <= 0)
		ncpu = online;
	if (worst <= 0.9 && ncpu > 0 && proc > 0.9 * (double)ncpu)
		cdm_msg_note("%s %s: cdm used %.0f%% of the %ld CPUs it may run on (%ld online); the figure may be limited by the CPU rather than the device",
			 t->name, dir_name(tr->dir), proc * 100 / (double)ncpu, ncpu, online);
}

/*
 * --rate-iops: say what was achieved against what was asked, and the mean
 * latency at that rate (the text report has no column for it).
 */
static void rate_note(const char *name, const struct cdm_test_result *tr, uint64_t rate)
{
	struct cdm_pass all;
	double iops;

	/* over the passes the figures come from (--steady-state: the last window) */
	cdm_result_window_pass(tr, &all);
	if (cdm_pass_state(&all) != CDM_PASS_MEASURED)
		return;
	iops = cdm_pass_iops(&all);
	cdm_msg_note("%s %s: %.1f IOPS achieved of %" PRIu64 " requested (%.1f%%), mean latency %.2f us%s",
		 name, dir_name(tr->dir), iops, rate, 100.0 * (double)all.ios / all.seconds / (double)rate,
		 cdm_pass_mean_lat_ns(&all) / 1e3,
		 iops < 0.95 * (double)rate ? "; the device did not keep up with the requested rate" : "");
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
static int series_collect(const struct test_run *t, uint64_t stopped, struct cdm_err *err)
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
static void test_free(struct test_run *t)
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
static int test_alloc(struct test_run *t, int fd, struct cdm_err *err)
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
	sh->rate_iops = cfg->rate_iops;
	sh->seed = cfg->seed;
	sh->direct = cfg->direct;
	sh->zero_fill = cfg->zero_fill;
	sh->nblocks = t->f->size / spec->block;
	sh->count = cfg->count;
	sh->batch = cdm_runner_batch(cfg->batch, spec->qd);
	sh->cpus = cfg->cpus;
	sh->ncpus = cfg->ncpus;
	sh->stop = &stop_signal;
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
static int test_start(struct test_run *t, unsigned int idx, int *started, struct cdm_err *err)
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
	process_cpu(&t->puser[0], &t->psys[0]);
	/* the schedule starts when the last worker runs (worker.h) */
	late = cdm_worker_go(sh);
	t->t0 += late;
	t->wall0 += late;
	if (sh->gated && !cfg->warmup_ms)
		t->wend[0] = t->t0;
	return ret;
}

/*
 * The progress line's figure into @buf: the MB/s of the @bytes completed
 * in the last @ns, with @prec decimals (3: right-aligned in 10 columns);
 * when none completed, no figure but how long none has (@idle_ns, since
 * the last completion or the test's start): a window with nothing
 * measured is never a "0.000 MB/s" (docs/method.md).
 */
static void progress_rate(char *buf, size_t len, uint64_t bytes, uint64_t ns, uint64_t idle_ns,
			  int prec)
{
	if (bytes && ns)
		snprintf(buf, len, "%*.*f MB/s", prec == 3 ? 10 : 0, prec,
			 (double)bytes / ((double)ns / 1e9) / 1e6);
	else
		snprintf(buf, len, "no I/O completed for %.1f s", (double)idle_ns / 1e9);
}

/*
 * The progress line of window @win of test @t at @now, @bytes completed
 * in the last @ns (none for @idle_ns): "test 3 of 8  RND4K Q32T1 Read
 * pass 2/5    1234.567 MB/s  1m02s left" (a warm-up, or with
 * --steady-state a round), with @extra when the terminal has room; on a
 * narrow one the parts closer together, then the MB/s in whole numbers,
 * then no figure rather than a figure cut.
 */
static void window_progress(const struct test_run *t, unsigned int win, uint64_t now,
			    uint64_t bytes, uint64_t ns, uint64_t idle_ns, const char *extra)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_WINDOW, .test = t->idx, .win = win };
	const char *dir = dir_name(t->tr->dir), *r3 = NULL;
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
	progress_rate(rate, sizeof(rate), bytes, ns, idle_ns, 3);
	progress_rate(rate0, sizeof(rate0), bytes, ns, idle_ns, 0);
	for (r3 = rate; *r3 == ' '; r3++)
		;
	snprintf(padded, sizeof(padded), "%s %-5s %-11s %s", t->name, dir, what, rate);
	snprintf(full, sizeof(full), "%s%s", padded, extra ? extra : "");
	snprintf(tight, sizeof(tight), "%s %s %s %s", t->name, dir, what, r3);
	snprintf(whole, sizeof(whole), "%s %s %s %s", t->name, dir, what, rate0);
	snprintf(bare, sizeof(bare), "%s %s %s", t->name, dir, what);
	progress_line(t->cfg, &at, (const char *const[]){ full, padded, tight, whole, bare }, 5);
}

/*
 * Watch the running test until its schedule ends, a stop is requested or
 * every worker has stopped (an I/O error): the process CPU at each
 * boundary, and the progress line.
 */
static void test_watch(struct test_run *t)
{
	const struct cdm_run_config *cfg = t->cfg;
	const struct cdm_test_shared *sh = t->sh;
	uint64_t last_bytes = 0, last_t = t->t0, io_bytes = 0, io_t = t->t0;

	for (;;) {
		uint64_t now = cdm_clock_now_ns(), next, bytes = 0;
		int done = 1;

		while (t->pmark <= cfg->count && now >= sh->bounds[t->pmark + 1]) {
			t->pmark++;
			process_cpu(&t->puser[t->pmark], &t->psys[t->pmark]);
		}
		if (t->pmark > cfg->count || cdm_runner_stop_requested())
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
		if (now - last_t >= PROGRESS_NS) {
			window_progress(t, t->pmark, now, bytes - last_bytes, now - last_t,
					now - io_t, NULL);
			last_t = now;
			last_bytes = bytes;
		}
		next = sh->bounds[t->pmark + 1];
		if (next > now + TICK_NS)
			next = now + TICK_NS;
		sleep_until(next);
	}
}

/* ---- the gated schedule (worker.h): --end-fsync, --steady-state ---- */

/* the progress line of gated window @win: warm-up, pass or round, and the rate */
static void gated_progress(const struct test_run *t, unsigned int win, uint64_t now,
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
 * progress line meanwhile.  Returns 1 when they are, 0 on a stop request.
 */
static int gate_watch(struct test_run *t, unsigned int win)
{
	uint64_t start = cdm_clock_now_ns(), last_t = start, last_bytes = 0, io_bytes = 0;
	uint64_t io_t = start;

	for (;;) {
		uint64_t now = cdm_clock_now_ns(), bytes = 0, until;

		if (cdm_runner_stop_requested())
			return 0;
		until = last_t + PROGRESS_NS < now + TICK_NS ? last_t + PROGRESS_NS : now + TICK_NS;
		if (cdm_worker_gate_wait(t->sh, t->nthreads, until))
			return 1;
		now = cdm_clock_now_ns();
		for (unsigned int i = 0; i < t->nthreads; i++)
			bytes += atomic_load_explicit(&t->w[i].live_bytes, memory_order_relaxed);
		if (bytes != io_bytes) {        /* when an I/O last completed */
			io_bytes = bytes;
			io_t = now;
		}
		if (now - last_t >= PROGRESS_NS) {
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
static int end_fsync(struct test_run *t, unsigned int win, uint64_t *end, uint64_t *ns)
{
	uint64_t t0 = cdm_clock_now_ns();

	if (win) {
		struct cdm_eta_at at = { .phase = CDM_ETA_WINDOW, .test = t->idx, .win = win };

		at.elapsed = (double)(t0 - t->sh->bounds[win]) / 1e9;
		progress_at(t->cfg, &at, "%s %-5s %s %u/%u: fdatasync", t->name,
			    dir_name(t->tr->dir), t->tr->steady.on ? "round" : "pass", win,
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
static int steady_round(struct test_run *t, unsigned int k)
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
static int window_end(struct test_run *t, unsigned int win, uint64_t pu, uint64_t ps)
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
	if (atomic_load(&sh->failed) || cdm_runner_stop_requested())
		return 0;
	if (t->end_fsync && end_fsync(t, win, &end, &fs_ns) < 0)
		return 0;
	process_cpu(&u, &sy);
	t->wend[win] = end;
	eta_window_ended((double)(end - sh->bounds[win]) / 1e9,
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
static void test_watch_gated(struct test_run *t)
{
	struct cdm_test_shared *sh = t->sh;
	unsigned int win = sh->gate_win;
	uint64_t pu = t->puser[0], ps = t->psys[0];

	while (gate_watch(t, win) && window_end(t, win, pu, ps)) {
		uint64_t now;

		/* the workers are parked: their progress counters start again */
		for (unsigned int i = 0; i < t->nthreads; i++)
			atomic_store_explicit(&t->w[i].live_bytes, 0, memory_order_relaxed);
		process_cpu(&pu, &ps);
		now = cdm_clock_now_ns();
		cdm_worker_gate_next(sh, now, now + (uint64_t)t->cfg->time_ms * CDM_MSEC_NS);
		win++;
	}
	cdm_worker_gate_end(sh);
}

/*
 * The passes every worker ran to their end, summed over the workers, into
 * tr->passes (a pass counts only if no worker stopped before its end);
 * the depth the engine kept; the engine's remark.  Returns the time the
 * first worker stopped starting I/O.
 */
static uint64_t test_collect_passes(struct test_run *t)
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
			 t->name, dir_name(tr->dir), cfg->fsync_every, tr->qd_run, tr->spec.qd,
			 tr->qd_run);
	else if (tr->qd_run < tr->spec.qd)
		cdm_msg_note("%s %s: the %s engine kept %u I/O in flight per thread, not %u; the report shows Q=%u",
			 t->name, dir_name(tr->dir), cfg->engine->name, tr->qd_run, tr->spec.qd,
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
static int test_io_error(struct test_run *t, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = t->cfg;
	struct cdm_test_result *tr = t->tr;
	const char *path = t->f->path, *dir = dir_name(tr->dir);
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
static void steady_collect(struct test_run *t)
{
	struct cdm_test_result *tr = t->tr;
	const struct cdm_steady *st = &tr->steady;
	char verdict[CDM_FMT_STEADY_MAX];

	for (unsigned int k = cdm_result_first_pass(tr); k < tr->npasses; k++)
		cdm_hist_merge(tr->hist, &t->hring[k % CDM_STEADY_WINDOW]);
	if (st->reached_at_round || tr->npasses < st->max_rounds)
		return;
	/* the report's own words (its "Not steady:" line) */
	cdm_msg_note("%s %s: not steady %s", t->name, dir_name(tr->dir),
		     cdm_fmt_steady(verdict, sizeof(verdict), tr, t->info));
}

/* --end-fsync: the fdatasync that ended a window failed; the test fails as on an I/O error */
static int end_fsync_error(struct test_run *t, struct cdm_err *err)
{
	char when[32] = "the warm-up";

	if (t->fsync_win)
		snprintf(when, sizeof(when), "%s %u", t->tr->steady.on ? "round" : "pass",
			 t->fsync_win);
	t->tr->error = t->fsync_err;
	return cdm_err_set(err, t->fsync_err, "%s: %s %s: fdatasync at the end of %s: %s",
			   t->f->path, t->name, dir_name(t->tr->dir), when, strerror(-t->fsync_err));
}

/*
 * After the workers have been joined: the passes, the notes about them,
 * the time series and the latency histogram, then the first I/O error.
 * Returns 0, -EINTR on a stop request, or -errno with @err set.
 */
static int test_collect(struct test_run *t, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = t->cfg;
	uint64_t stopped = test_collect_passes(t);
	int ret = 0;

	cpu_limit_note(t);
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
	if (!ret && cdm_runner_stop_requested())
		ret = -EINTR;
	return ret;
}

/* --verify's progress line: the test being read back (verify_after()) */
static const struct test_run *verify_run;

static void verify_progress(uint64_t done, uint64_t total)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_VERIFY, .test = verify_run->idx };

	at.phase_left = eta_phase_left(done, total);
	progress_at(verify_run->cfg, &at, "verifying %s %s: %u%%", verify_run->name,
		    dir_name(verify_run->tr->dir), (unsigned int)(done * 100 / (total ? total : 1)));
}

/*
 * --verify: once a write or Mix test has ended well, read back every
 * block it recorded (run/verify.h) into tr->verify, and say what bent the
 * workload (blocks drawn again); the report words the faults found and
 * cli/ fails the run on one.  Returns 0, -EINTR, or
 * -errno of the read-back with @err set.
 */
static int verify_after(const struct test_run *t, const struct cdm_verify_map *m,
			struct cdm_err *err)
{
	struct cdm_verify *v = &t->tr->verify;
	const char *dir = dir_name(t->tr->dir);
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
	eta.phase_t0 = cdm_clock_now_ns();
	/* no percentage, and no time left, before a block is read back */
	at.test = t->idx;
	progress_at(t->cfg, &at, "verifying %s %s", t->name, dir);
	/* --cpus: the read-back on worker thread 0's CPU, the runner's own thread back after */
	ret = cdm_numa_pin(t->cfg->cpus, t->cfg->ncpus, 0, &mask);
	if (ret < 0)
		return cdm_err_set(err, ret, "%s: %s %s: --verify: the read-back cannot be pinned to CPU %u (--cpus): %s",
				   t->f->path, t->name, dir,
				   cdm_cpulist_thread_cpu(t->cfg->cpus, t->cfg->ncpus, 0),
				   strerror(-ret));
	ret = cdm_verify_read_back(m, t->f->fd, t->cfg->direct, v, verify_progress, stop_cb, err);
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
static int run_test(const struct cdm_run_config *cfg, const struct cdm_run_info *info,
		    const struct cdm_testfile *f, int fd, struct cdm_test_result *tr,
		    unsigned int idx, struct cdm_err *err)
{
	struct test_run t = { .cfg = cfg, .info = info, .f = f, .tr = tr, .idx = idx };
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
		test_watch_gated(&t);
	else if (!ret)
		test_watch(&t);
	if (started)
		cdm_worker_join(t.sh, t.w, t.nthreads);
	if (!ret)
		ret = test_collect(&t, err);
	if (!ret && vm)
		ret = verify_after(&t, vm, err);
	cdm_verify_map_free(vm);
	test_free(&t);
	return ret;
}

/* ---- the run ---- */

/* one run: the target, its test file and what is open on it */
struct run {
	const struct cdm_run_config *cfg;
	struct cdm_run_result *res;
	struct cdm_target t;
	struct cdm_testfile f;
	struct cdm_fileguard guard;
	unsigned int lbs;               /* the device's logical block size; 0 = unknown */
	int sync_fd;                    /* --sync: the O_DSYNC descriptor, or -1 */
};

/*
 * --cpus and the NUMA nodes in the run info (target/numa.h): the warning
 * when worker threads run on another node than the device, and the note
 * when a test has more threads than --cpus names CPUs, each once a run.
 * The runner's own thread is not pinned.
 */
static void fill_placement(const struct cdm_run_config *cfg, struct cdm_run_info *in)
{
	const struct cdm_spec *most = NULL;
	char name[64];

	for (unsigned int i = 0; i < cfg->ntests; i++)
		if (!most || cfg->tests[i].threads > most->threads)
			most = &cfg->tests[i];
	cdm_numa_fill(cfg->target, NULL, cfg->cpus, cfg->ncpus, most ? most->threads : 0, in);
	if (in->numa_warning[0])
		cdm_msg_warn("%s", in->numa_warning);
	if (most && cfg->ncpus && most->threads > cfg->ncpus) {
		cdm_spec_name(most, name, sizeof(name));
		if (cfg->ncpus == 1)
			cdm_msg_note("--cpus %s: %s has %u worker threads for 1 CPU: they all share it",
				     in->cpus, name, most->threads);
		else
			cdm_msg_note("--cpus %s: %s has %u worker threads for %u CPUs: they share them round-robin (thread i on the list's CPU i mod %u, counted from 0)",
				     in->cpus, name, most->threads, cfg->ncpus, cfg->ncpus);
	}
}

static void fill_info(const struct cdm_run_config *cfg, const struct cdm_target *t,
		      struct cdm_run_info *in)
{
	snprintf(in->version, sizeof(in->version), "%s", cdm_version());
	snprintf(in->engine, sizeof(in->engine), "%s", cfg->engine->name);
	snprintf(in->profile, sizeof(in->profile), "%s", cfg->profile_name);
	snprintf(in->target, sizeof(in->target), "%s", cfg->target);
	snprintf(in->mount_point, sizeof(in->mount_point), "%s", t->mount_point);
	snprintf(in->fs_type, sizeof(in->fs_type), "%s", t->fs_type);
	in->fs_total_bytes = t->total_bytes;
	in->fs_used_bytes = t->used_bytes;
	in->fs_avail_bytes = t->avail_bytes;
	in->size = cfg->size;
	in->count = cfg->count;
	in->time_ms = cfg->time_ms;
	in->interval_ms = cfg->interval_ms;
	in->warmup_ms = cfg->warmup_ms;
	in->log_interval_ns = cfg->log_interval_ns;
	in->direct = cfg->direct;
	in->zero_fill = cfg->zero_fill;
	in->dsync = cfg->dsync;
	in->fsync_every = cfg->fsync_every;
	in->rate_iops = cfg->rate_iops;
	in->seed = cfg->seed;
	cdm_devspec_format(&cfg->null_device, in->null_device, sizeof(in->null_device));
	in->verify = cfg->verify;
	in->end_fsync = cfg->end_fsync;
	in->steady_state = cfg->steady_state;
	in->max_rounds = cfg->steady_state ? cfg->max_rounds : 0;
	in->admin = geteuid() == 0;
	in->start = time(NULL);
	snprintf(in->comment, sizeof(in->comment), "%s", cfg->comment ? cfg->comment : "");
	/* the caller may have set --label before the run; else the target */
	if (!in->label[0])
		snprintf(in->label, sizeof(in->label), "%s", cfg->target);
	cdm_sysinfo_fill(cfg->target, t->mount_source, in);
	fill_placement(cfg, in);
}

/*
 * The I/O buffers of the largest test (cdm_worker_buffer_bytes() per
 * thread, times T) must fit in memory: checked before the test file is
 * written, so an impossible plan fails in a second.
 */
static int check_buffers(const struct cdm_run_config *cfg, struct cdm_err *err)
{
	uint64_t need = 0, avail = cdm_sysinfo_mem_available();
	const struct cdm_spec *worst = NULL;
	char name[64];

	for (unsigned int i = 0; i < cfg->ntests; i++) {
		const struct cdm_spec *sp = &cfg->tests[i];
		uint64_t per = cdm_worker_buffer_bytes(sp->qd, sp->block);

		if (per * sp->threads > need) {
			need = per * sp->threads;
			worst = sp;
		}
	}
	if (!worst)
		return 0;
	cdm_spec_name(worst, name, sizeof(name));
	/* a 32-bit process has 4 GiB of addresses for everything: half for buffers */
	if (need > SIZE_MAX / 2)
		return cdm_err_set(err, -ENOMEM,
				   "%s needs %" PRIu64 " MiB of I/O buffers (Q x T x block), more than a %u-bit build of cdm can address (%" PRIu64 " MiB)",
				   name, need >> 20, (unsigned int)sizeof(void *) * 8, ((uint64_t)SIZE_MAX / 2 + 1) >> 20);
	if (!avail || need <= avail / 10 * 9)
		return 0;
	return cdm_err_set(err, -ENOMEM,
			   "%s needs %" PRIu64 " MiB of I/O buffers (Q x T x block), more than the %" PRIu64
			   " MiB of memory available", name, need >> 20, avail >> 20);
}

/*
 * Everything checked before the test file is touched: the target, the
 * O_DIRECT block sizes, memory and the limits; the run's info and test
 * list are filled, and what may distort the figures is said.
 */
static int run_check(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	int ret;

	/*
	 * Files left by killed runs go first, so that their space counts as
	 * free in the check below (only cdm's own dead files are touched).
	 */
	if (!cfg->file)
		cdm_testfile_clean_stale(cfg->target);
	ret = cdm_target_probe(cfg->target, cfg->file ? 0 : cfg->size, &r->t, err);
	if (ret < 0)
		return ret;
	fill_info(cfg, &r->t, &r->res->info);
	/* options only the device can answer for, before any file (engine.h) */
	ret = cdm_engine_check_options(cfg->engine_options, cfg->target, r->res->info.dev_name, err);
	if (ret < 0)
		return ret;
	if (cfg->direct) {
		r->lbs = cdm_align_logical_block(r->res->info.dev_name);
		ret = cdm_align_check(cfg->tests, cfg->ntests, r->lbs, r->res->info.dev_name, err);
		if (ret < 0)
			return cdm_err_prefix(err, ret, cfg->target);
	}
	r->res->ntests = cdm_plan_tests(cfg, r->res->tests);

	if (!cfg->direct)
		cdm_msg_warn("--buffered: the page cache is measured, not only the disk, unless the test file is larger than RAM");

	/* the rounds are the schedule's passes, with no warm-up (plan/plan.h) */
	if (cfg->steady_state && (cfg->count != cfg->max_rounds || cfg->warmup_ms))
		return cdm_err_set(err, -EINVAL, "--steady-state: %u passes and a %u ms warm-up planned for %u rounds (the plan needs cdm_plan_steady())",
				   cfg->count, cfg->warmup_ms, cfg->max_rounds);
	ret = check_buffers(cfg, err);
	if (ret == 0)
		ret = cdm_limits_check(cfg, err);
	/* a new test file is written all over: past RLIMIT_FSIZE, SIGXFSZ */
	if (ret == 0 && !cfg->file && !r->t.is_device)
		ret = cdm_limits_check_fsize(cfg->target, cfg->size, err);
	return ret;
}

static const struct cdm_run_config *fill_cfg;

static void fill_progress(uint64_t done, uint64_t total)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_PREPARE };

	at.phase_left = eta_phase_left(done, total);
	progress_at(fill_cfg, &at, "Preparing test file: %3u%%",
		    (unsigned int)(done * 100 / (total ? total : 1)));
}

static void precond_progress(unsigned int pass, uint64_t done, uint64_t total)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_PREPARE };

	/* the rate over every pass so far: each writes the whole file */
	at.phase_left = eta_phase_left((uint64_t)(pass - 1) * total + done,
				       (uint64_t)CDM_TESTFILE_PRECOND_PASSES * total);
	if (!done)      /* no percentage before a byte of the pass is written */
		progress_at(fill_cfg, &at, "Preconditioning: pass %u of %u", pass,
			    CDM_TESTFILE_PRECOND_PASSES);
	else
		progress_at(fill_cfg, &at, "Preconditioning: pass %u of %u, %u%%", pass,
			    CDM_TESTFILE_PRECOND_PASSES,
			    (unsigned int)(done * 100 / (total ? total : 1)));
}

/*
 * The writing before the tests: the preparation of a @fresh file (new, or
 * kept with an unwritten part), or --precondition's passes, the first of
 * which prepares a @fresh file (target/testfile.h); timed into the run's
 * info.  Returns 0, -EINTR on a stop request, or -errno with @err set.
 */
static int write_before(struct run *r, int fresh, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	uint64_t t0 = cdm_clock_now_ns(), ns;
	char sz[32];
	int ret;

	fill_cfg = cfg;
	eta.phase_t0 = t0;
	if (!cfg->precondition) {
		if (!fresh)
			return 0;
		progress(cfg, "Preparing test file");	/* no percentage before a byte is written */
		return cdm_testfile_fill(&r->f, cfg->zero_fill, fill_progress, stop_cb, err);
	}
	if (!cdm_plan_writes(cfg))
		cdm_msg_note("--precondition before read tests only: every block is written as SNIA PTS does before its read tests, so no read meets a block never written");
	/* the setting holds from here; its time only once it completes (0: it did not) */
	r->res->info.precondition = 1;
	r->res->info.precondition_ns = 0;
	ret = cdm_testfile_precondition(&r->f, cfg->zero_fill, fresh, cfg->cpus, cfg->ncpus,
					precond_progress, stop_cb, err);
	if (ret < 0)
		return ret;
	ns = cdm_clock_now_ns() - t0;
	r->res->info.precondition_ns = ns ? ns : 1;
	cdm_size_format(r->f.size, sz, sizeof(sz));
	cdm_msg_note("preconditioned %s in %.1f s (%u sequential passes of %u KiB writes%s)",
		     sz, (double)ns / 1e9, CDM_TESTFILE_PRECOND_PASSES,
		     CDM_TESTFILE_PRECOND_BLOCK >> 10, fresh ? ", the first the preparation" : "");
	return 0;
}

/* --file: a test file kept by an earlier run, as large as one block at least */
static int open_kept(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	int ret = cdm_testfile_reuse(&r->f, cfg->file, cfg->direct, err);

	if (ret < 0)
		return ret;
	r->res->info.size = r->f.size;
	for (unsigned int i = 0; i < cfg->ntests; i++)
		if (r->f.size < cfg->tests[i].block)
			return cdm_err_set(err, -EINVAL, "%s: the file is smaller than one block of the tests",
					   cfg->file);
	/* reads there would be served without the device: written all over again */
	if (r->f.unwritten)
		cdm_msg_note("%s has %s at offset %" PRIu64 " (truncated and extended, punched or fallocated since it was kept): it is written all over again before the tests, as a new test file is",
			     cfg->file, r->f.unwritten_what, r->f.unwritten_at);
	ret = write_before(r, r->f.unwritten, err);
	if (ret == -EINVAL && cfg->direct)
		return cdm_err_set(err, ret, "%s: the filesystem accepted O_DIRECT but refused the first write (%s); run with --buffered",
				   cfg->file, strerror(EINVAL));
	return ret;
}

/* a device read as it is (device.h): never prepared, never written */
static int open_device_read(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	int ret = cdm_testfile_open_device(&r->f, &r->t, cfg->size, 0, cfg->direct, err);

	if (ret < 0)
		return ret;
	cdm_device_notes(cfg->target, &r->t.dev, r->f.fd, cfg->size);
	return 0;
}

/* a new test file (or a device the user let cdm write), written all over */
static int prepare_file(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	sigset_t set, old;
	int ret;

	/* a raw device with writes allowed is opened O_EXCL and filled as a file is */
	if (r->t.is_device) {
		ret = cdm_testfile_open_device(&r->f, &r->t, cfg->size, 1, cfg->direct, err);
	} else {
		/*
		 * The file exists from its open(2) on: a fault signal sent
		 * (kill -ABRT) before on_fault() knows its path would leave
		 * it.  Blocked until it is armed, one sent meanwhile is
		 * handled then, and removes it.  No other thread runs yet.
		 */
		sigemptyset(&set);
		cdm_sig_add_faults(&set);
		pthread_sigmask(SIG_BLOCK, &set, &old);
		ret = cdm_testfile_create(&r->f, &r->t, cfg->size, cfg->direct, err);
		if (ret >= 0)
			fault_arm(r->f.path);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (ret < 0)
		return ret;
	if (!r->t.is_device)
		cdm_fileguard_open(&r->guard, r->f.path, r->f.fd);
	ret = write_before(r, 1, err);
	if (ret == -EINVAL && cfg->direct)
		return cdm_err_set(err, ret, "%s: the %s filesystem accepted O_DIRECT but refused the first write (%s); run with --buffered",
				   cfg->target, r->t.fs_type, strerror(EINVAL));
	return ret;
}

/*
 * Where sysfs had no device to ask for its logical block size (lbs 0),
 * ask the kernel with one O_DIRECT read of the smallest block, before any
 * test.
 */
static int probe_direct(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	uint64_t minb = UINT64_MAX;
	int ret;

	for (unsigned int i = 0; i < cfg->ntests; i++)
		if (cfg->tests[i].block < minb)
			minb = cfg->tests[i].block;
	if (minb % 4096 == 0 || (ret = cdm_align_probe(r->f.fd, minb)) == 0)
		return 0;
	if (ret == -EINVAL)
		return cdm_err_set(err, ret, "%s: a %" PRIu64 "-byte block is refused by O_DIRECT on this %s filesystem (its device's logical block size is larger); use multiples of 4096 B, or --buffered",
				   cfg->target, minb, r->t.fs_type);
	return cdm_err_set(err, ret, "%s: cannot check O_DIRECT alignment: %s", r->f.path,
			   strerror(-ret));
}

/* the test file again, O_DSYNC, checked to be the same inode; fd or -errno */
static int open_dsync(const struct cdm_testfile *f, int direct)
{
	struct stat a, b;
	int fd = open(f->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_DSYNC | (direct ? O_DIRECT : 0));

	if (fd < 0)
		return -errno;
	if (fstat(fd, &a) < 0 || fstat(f->fd, &b) < 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/*
 * The file the tests run on, ready: kept (--file), a device read as it is,
 * or prepared; its O_DIRECT alignment checked; the --sync descriptor; the
 * sync hook's first step.  On failure the caller still cleans up.
 */
static int run_open(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	int ret;

	if (cfg->file)
		ret = open_kept(r, err);
	else if (r->t.is_device && !cdm_plan_writes(cfg) && !cfg->precondition)
		ret = open_device_read(r, err);
	else
		ret = prepare_file(r, err);
	if (ret < 0)
		return ret;
	if (cfg->direct && !r->lbs && (ret = probe_direct(r, err)) < 0)
		return ret;
	if (cfg->dsync) {
		/*
		 * --sync: the tests use a second descriptor opened O_DSYNC
		 * (F_SETFL cannot add it); the file was filled without it.
		 */
		r->sync_fd = open_dsync(&r->f, cfg->direct);
		if (r->sync_fd < 0)
			return cdm_err_set(err, r->sync_fd, "%s: cannot reopen the test file with O_DSYNC for --sync: %s",
					   r->f.path, strerror(-r->sync_fd));
	}
	if (cfg->sync)
		return cfg->sync(cfg->sync_arg, 0, 0, err);
	return 0;
}

/* the progress line of the pause before test @i (@name, @dir), @left_ns of it left */
static void interval_progress(const struct cdm_run_config *cfg, unsigned int i,
			      uint64_t left_ns, const char *name, enum cdm_dir dir)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_INTERVAL, .test = i };
	char s[CDM_MSEC_FORMAT_MAX];

	at.phase_left = (double)left_ns / 1e9;
	progress_at(cfg, &at, "Interval %s s before %s %s",
		    cdm_msec_format(cfg->interval_ms, s, sizeof(s)), name, dir_name(dir));
}

/* every test in run order, with the --interval pause between two */
static int run_tests(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	int fd = r->sync_fd >= 0 ? r->sync_fd : r->f.fd, ret = 0;

	/* --file: its size is known only now (cli/ checked a new file's) */
	if (cfg->verify && (ret = cdm_verify_check_plan(cfg, r->f.size, err)) < 0)
		return ret;
	for (unsigned int i = 0; i < r->res->ntests; i++) {
		struct cdm_test_result *tr = &r->res->tests[i];
		char name[64];

		if (i > 0 && cfg->interval_ms) {
			uint64_t until = cdm_clock_now_ns() + (uint64_t)cfg->interval_ms * CDM_MSEC_NS;
			uint64_t shown = 0;

			cdm_spec_name(&tr->spec, name, sizeof(name));
			while (!cdm_runner_stop_requested()) {
				uint64_t now = cdm_clock_now_ns();

				if (now >= until)
					break;
				if (!shown || now - shown >= PROGRESS_NS) {
					interval_progress(cfg, i, until - now, name, tr->dir);
					shown = now;
				}
				sleep_until(until - now > TICK_NS ? now + TICK_NS : until);
			}
		}
		if (cdm_runner_stop_requested())
			return -EINTR;
		ret = run_test(cfg, &r->res->info, &r->f, fd, tr, i, err);
		if (ret < 0)
			break;
	}
	return ret;
}

/*
 * The way out of every run that got as far as the test file: a stop
 * request wins over @ret, the file is kept (--keep) or removed (through
 * the directory held open if its path moved).  Returns the run's status.
 */
static int run_finish(struct run *r, int ret)
{
	const struct cdm_run_config *cfg = r->cfg;

	if (r->sync_fd >= 0)
		close(r->sync_fd);
	progress_clear();
	if (cdm_runner_stop_requested()) {
		ret = -EINTR;
		r->res->interrupted = cdm_runner_stop_requested();
	}
	cdm_fileguard_finish(&r->guard, r->f.fd, r->f.path);
	if (ret == 0 && cfg->keep && !cfg->file) {
		struct cdm_err kerr = { "" };

		/* a failed keep leaves the .tmp file, removed below */
		if (cdm_testfile_keep(&r->f, &kerr) == 0) {
			fault_arm(NULL);        /* a kept file is the user's now */
			cdm_msg_note("kept the test file as %s (reuse it with --file)", r->f.path);
		} else {
			cdm_msg_warn("%s; it was removed", kerr.msg);
		}
	}
	if (cdm_testfile_remove(&r->f) < 0)
		cdm_msg_warn("%s: could not remove the test file: %s", r->f.path, strerror(errno));
	fault_arm(NULL);
	return ret;
}

int cdm_runner_run(const struct cdm_run_config *cfg, struct cdm_run_result *res, struct cdm_err *err)
{
	struct run r = {
		.cfg = cfg,
		.res = res,
		.f = { .fd = -1, .lock_fd = -1 },
		.guard = { .dirfd = -1 },
		.sync_fd = -1,
	};
	int ret;

	if (err)
		err->msg[0] = '\0';
	cdm_msg_progress_clear = progress_clear;
	ret = run_check(&r, err);
	/*
	 * A block device is written only when the user said so (device.h).
	 * cdm_plan_device() refuses the same plans with a line that says
	 * which option writes; this second check, for writes and for
	 * --precondition alike, is defence in depth for a caller that did
	 * not plan through it: the data on a device is at stake.
	 */
	if (!ret && !cfg->file && r.t.is_device && (cdm_plan_writes(cfg) || cfg->precondition) &&
	    !cfg->allow_destructive_write)
		ret = cdm_err_set(err, -EPERM, "%s: a block device is written only with --allow-destructive-write",
				  cfg->target);
	if (ret < 0)
		return ret;     /* nothing opened yet */
	eta_init(res);
	ret = run_open(&r, err);
	/*
	 * Memory, a client cache or a page-cached loop device under the target
	 * (stack.h): said once the run goes ahead, so a refusal stays one line.
	 */
	if (!ret)
		cdm_stack_warn(cfg->target, res->info.mem_under, res->info.nmem_under);
	if (!ret)
		ret = run_tests(&r, err);
	return run_finish(&r, ret);
}
