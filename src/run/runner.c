/* SPDX-License-Identifier: MIT */
/*
 * runner.c - runs the plan: probes the target, prepares the test file,
 * then for each test (reads first, then writes) starts T worker threads,
 * publishes the pass schedule, watches it (progress, stop requests, the
 * process CPU at each boundary), and merges the workers' counts into the
 * result model.  The test file is removed on every way out.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "cdm/plan/align.h"
#include "cdm/target/fileguard.h"
#include "cdm/plan/limits.h"
#include "cdm/run/runner.h"
#include "cdm/target/sysinfo.h"
#include "cdm/target/target.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"
#include "worker.h"

#define TICK_NS 100000000ull    /* the runner wakes at least every 100 ms */
#define PROGRESS_NS 500000000ull

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
	atomic_compare_exchange_strong(&cdm_stop_signal, &expected, sig);
}

static void on_signal(int sig)
{
	cdm_runner_request_stop(sig);
}

int cdm_runner_install_signals(void)
{
	struct sigaction sa;
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a sleep or a blocking write returns EINTR at once */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL) < 0)
			return -errno;
	return 0;
}

int cdm_runner_stop_requested(void)
{
	return atomic_load(&cdm_stop_signal);
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

static const struct cdm_run_config *fill_cfg;

static void fill_progress(uint64_t done, uint64_t total)
{
	progress(fill_cfg, "Preparing test file: %3u%%",
		 (unsigned int)(done * 100 / (total ? total : 1)));
}

static void fill_info(const struct cdm_run_config *cfg, const struct cdm_target *t,
		      struct cdm_run_info *in)
{
	snprintf(in->version, sizeof(in->version), "%s", CDM_VERSION);
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
	in->time = cfg->time;
	in->interval = cfg->interval;
	in->warmup = cfg->warmup;
	in->log_interval_ns = cfg->log_interval_ns;
	in->direct = cfg->direct;
	in->zero_fill = cfg->zero_fill;
	in->dsync = cfg->dsync;
	in->fsync_every = cfg->fsync_every;
	in->rate_iops = cfg->rate_iops;
	in->admin = geteuid() == 0;
	in->start = time(NULL);
	snprintf(in->comment, sizeof(in->comment), "%s", cfg->comment ? cfg->comment : "");
	/* the caller may have set --label before the run; else the target */
	if (!in->label[0])
		snprintf(in->label, sizeof(in->label), "%s", cfg->target);
	cdm_sysinfo_fill(cfg->target, t->mount_source, in);
}

/*
 * The I/O buffers of the largest test (Q x block per thread, rounded up to
 * 2 MiB as worker.c maps them, times T) must fit in memory: checked before
 * the test file is written, so an impossible plan fails in a second.
 */
static int check_buffers(const struct cdm_run_config *cfg)
{
	uint64_t need = 0, avail = cdm_sysinfo_mem_available();
	const struct cdm_spec *worst = NULL;
	char name[64];

	for (unsigned int i = 0; i < cfg->ntests; i++) {
		const struct cdm_spec *sp = &cfg->tests[i];
		uint64_t per = ((uint64_t)sp->qd * sp->block + (2ull << 20) - 1) & ~((2ull << 20) - 1);

		if (per * sp->threads > need) {
			need = per * sp->threads;
			worst = sp;
		}
	}
	if (!worst || !avail || need <= avail / 10 * 9)
		return 0;
	cdm_spec_name(worst, name, sizeof(name));
	cdm_error("%s needs %" PRIu64 " MiB of I/O buffers (Q x T x block), more than the %" PRIu64
		  " MiB of memory available", name, need >> 20, avail >> 20);
	return -ENOMEM;
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

static const char *dir_name(enum cdm_dir d)
{
	return cdm_dir_name(d);
}

/*
 * Say when a figure may be limited by the CPU rather than the device: a
 * worker thread busy (user + system) for more than 90 % of a pass, or the
 * whole process using more than 90 % of the online CPUs.
 */
static void cpu_limit_note(const char *name, const struct cdm_test_result *tr,
			   const struct cdm_worker *w, unsigned int nthreads)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double worst = 0, proc = 0;

	for (unsigned int k = 0; k < tr->npasses; k++) {
		const struct cdm_pass *p = &tr->passes[k];
		double ns = p->seconds * 1e9;

		if (ns <= 0)
			continue;
		for (unsigned int i = 0; i < nthreads; i++) {
			double busy = (double)(w[i].passes[k].cpu_user_ns + w[i].passes[k].cpu_sys_ns) / ns;

			if (busy > worst)
				worst = busy;
		}
		if ((double)(p->proc_user_ns + p->proc_sys_ns) / ns > proc)
			proc = (double)(p->proc_user_ns + p->proc_sys_ns) / ns;
	}
	if (worst > 0.9)
		cdm_note("%s %s: a worker thread was busy %.0f%% of a pass; the figure may be limited by the CPU rather than the device",
			 name, dir_name(tr->dir), worst * 100);
	else if (ncpu > 0 && proc > 0.9 * (double)ncpu)
		cdm_note("%s %s: cdm used %.0f%% of the %ld online CPUs; the figure may be limited by the CPU rather than the device",
			 name, dir_name(tr->dir), proc * 100 / (double)ncpu, ncpu);
}

/*
 * --rate-iops: say what was achieved against what was asked, and the mean
 * latency at that rate (the text report has no column for it).
 */
static void rate_note(const char *name, const struct cdm_test_result *tr, uint64_t rate)
{
	uint64_t ios = 0, lat = 0;
	double sec = 0;

	for (unsigned int k = 0; k < tr->npasses; k++) {
		ios += tr->passes[k].ios;
		lat += tr->passes[k].lat_sum_ns;
		sec += tr->passes[k].seconds;
	}
	if (!ios || sec <= 0)
		return;
	cdm_note("%s %s: %.1f IOPS achieved of %" PRIu64 " requested (%.1f%%), mean latency %.2f us%s",
		 name, dir_name(tr->dir), (double)ios / sec, rate,
		 100.0 * (double)ios / sec / (double)rate, (double)lat / (double)ios / 1e3,
		 (double)ios / sec < 0.95 * (double)rate ? "; the device did not keep up with the requested rate" : "");
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
		uint64_t len = (uint64_t)(k ? cfg->time : cfg->warmup) * 1000000000ull;

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
static int series_collect(const struct cdm_test_shared *sh, const struct cdm_worker *w,
			  unsigned int nthreads, struct cdm_test_result *tr, const char *name)
{
	struct cdm_series_slot **slots = calloc(nthreads, sizeof(*slots));
	uint64_t stopped = UINT64_MAX;
	unsigned int nwin;

	if (!slots)
		return cdm_error("%s: out of memory for the time series", name), -ENOMEM;
	for (unsigned int i = 0; i < nthreads; i++) {
		slots[i] = w[i].series;
		if (w[i].stopped_ns < stopped)
			stopped = w[i].stopped_ns;
	}
	/* the warm-up, if it ran to its end, and the complete passes */
	nwin = sh->bounds[1] <= stopped ? 1 + tr->npasses : 0;
	tr->series = cdm_series_build(sh->series_ns, sh->bounds, nwin, sh->series_base,
				      sh->series_n, slots, nthreads);
	free(slots);
	if (!tr->series)
		return cdm_error("%s: out of memory for the time series", name), -ENOMEM;
	return 0;
}

/*
 * Run one test: T workers through warm-up and `count` passes.  Fills @tr.
 * Returns 0, -EINTR on a stop request, or -errno after printing why.
 */
static int run_test(const struct cdm_run_config *cfg, struct cdm_testfile *f,
		    int fd, struct cdm_test_result *tr, unsigned int idx)
{
	const struct cdm_spec *spec = &tr->spec;
	unsigned int nthreads = spec->threads, started = 0, k;
	uint64_t warm_ns = (uint64_t)cfg->warmup * 1000000000ull;
	uint64_t pass_ns = (uint64_t)cfg->time * 1000000000ull;
	uint64_t puser[CDM_MAX_PASSES + 2] = { 0 }, psys[CDM_MAX_PASSES + 2] = { 0 };
	unsigned int pmark = 0;
	struct cdm_test_shared *sh;
	struct cdm_worker *w;
	char name[64];
	int ret = 0;
	uint64_t stopped = UINT64_MAX, last_bytes = 0, last_t, t0, wall0;

	cdm_spec_name(spec, name, sizeof(name));
	sh = aligned_alloc(64, (sizeof(*sh) + 63) & ~(size_t)63);
	w = aligned_alloc(64, ((sizeof(*w) * nthreads) + 63) & ~(size_t)63);
	if (!sh || !w) {
		free(sh);
		free(w);
		return cdm_error("%s: out of memory for %u worker threads", name, nthreads), -ENOMEM;
	}
	memset(sh, 0, sizeof(*sh));
	memset(w, 0, sizeof(*w) * nthreads);
	sh->engine = cfg->engine;
	sh->engine_options = cfg->engine_options;
	sh->service_ns = cfg->null_service_ns;
	sh->spec = *spec;
	sh->dir = tr->dir;
	sh->fd = fd;
	sh->fsync_every = cfg->fsync_every;
	sh->rate_iops = cfg->rate_iops;
	sh->direct = cfg->direct;
	sh->zero_fill = cfg->zero_fill;
	sh->nblocks = f->size / spec->block;
	sh->count = cfg->count;
	sh->batch = cdm_runner_batch(cfg->batch, spec->qd);
	atomic_init(&sh->seq_next, 0);
	if (cfg->log_interval_ns && series_alloc(cfg, sh, w, nthreads) < 0) {
		free(sh);
		free(w);
		return cdm_error("%s: out of memory for the --log-interval slots", name), -ENOMEM;
	}
	if (pthread_barrier_init(&sh->ready, NULL, nthreads + 1) ||
	    pthread_barrier_init(&sh->go, NULL, nthreads + 1)) {
		free(sh);
		free(w);
		return cdm_error("%s: cannot set up thread barriers", name), -ENOMEM;
	}
	if (!cfg->direct && tr->dir != CDM_DIR_WRITE)
		/* buffered reads: start from a cold page cache for this file */
		posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);

	for (started = 0; started < nthreads; started++) {
		int e;

		w[started].sh = sh;
		w[started].id = started;
		cdm_hist_init(&w[started].hist);
		e = pthread_create(&w[started].thread, NULL, cdm_worker_main, &w[started]);
		if (e) {
			char hint[160];

			cdm_limits_thread_hint(hint, sizeof(hint));
			cdm_error("%s: cannot start worker thread %u of %u: %s (%s)",
				  name, started + 1, nthreads, strerror(e), hint);
			ret = -e;
			break;
		}
	}
	if (ret) {
		/*
		 * The threads already started wait at the barriers for T + 1
		 * parties that will never come; they are detached and the
		 * process exits right after this error.
		 */
		return ret;
	}
	pthread_barrier_wait(&sh->ready);
	for (unsigned int i = 0; i < nthreads; i++) {
		if (w[i].init_failed && !ret) {
			ret = w[i].error;
			cdm_error("%s: the %s engine could not be set up on %s: %s%s%s", name,
				  cfg->engine->name, f->path, strerror(-ret),
				  w[i].note[0] ? "; " : "", w[i].note);
		}
	}
	if (cfg->sync) {
		int e = cfg->sync(cfg->sync_arg, idx + 1, ret);

		if (!ret)
			ret = e;
	}
	/* publish the schedule; an engine that failed makes every worker idle */
	wall0 = cdm_wall_ns();
	t0 = cdm_now_ns();
	sh->bounds[0] = t0;
	sh->bounds[1] = t0 + warm_ns;
	for (k = 0; k < cfg->count; k++)
		sh->bounds[k + 2] = sh->bounds[k + 1] + pass_ns;
	if (ret)
		for (k = 0; k < cfg->count + 2; k++)
			sh->bounds[k] = t0;
	process_cpu(&puser[0], &psys[0]);
	pthread_barrier_wait(&sh->go);

	last_t = t0;
	while (!ret) {
		uint64_t now = cdm_now_ns(), next, bytes = 0;
		int done = 1;

		while (pmark <= cfg->count && now >= sh->bounds[pmark + 1]) {
			pmark++;
			process_cpu(&puser[pmark], &psys[pmark]);
		}
		if (pmark > cfg->count || cdm_runner_stop_requested())
			break;
		for (unsigned int i = 0; i < nthreads; i++) {
			bytes += atomic_load_explicit(&w[i].live_bytes, memory_order_relaxed);
			if (!__atomic_load_n(&w[i].stopped_ns, __ATOMIC_ACQUIRE))
				done = 0;
		}
		if (done)
			break;          /* every worker stopped (an I/O error) */
		if (now - last_t >= PROGRESS_NS) {
			double mbs = (double)(bytes - last_bytes) / ((double)(now - last_t) / 1e9) / 1e6;

			if (pmark == 0)
				progress(cfg, "%s %-5s warm-up        %10.3f MB/s", name,
					 dir_name(tr->dir), mbs);
			else
				progress(cfg, "%s %-5s pass %u/%u       %10.3f MB/s", name,
					 dir_name(tr->dir), pmark, cfg->count, mbs);
			last_t = now;
			last_bytes = bytes;
		}
		next = sh->bounds[pmark + 1];
		if (next > now + TICK_NS)
			next = now + TICK_NS;
		sleep_until(next);
	}
	for (unsigned int i = 0; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);
	pthread_barrier_destroy(&sh->ready);
	pthread_barrier_destroy(&sh->go);

	if (!ret) {
		tr->qd_run = spec->qd;
		for (unsigned int i = 0; i < nthreads; i++) {
			if (w[i].depth_run < tr->qd_run)
				tr->qd_run = w[i].depth_run;
			if (w[i].stopped_ns < stopped)
				stopped = w[i].stopped_ns;
		}
		if (w[0].note[0] && strcmp(w[0].note, last_note) != 0 && !w[0].init_failed) {
			cdm_note("%s", w[0].note);
			snprintf(last_note, sizeof(last_note), "%s", w[0].note);
		}
		if (tr->qd_run < spec->qd)
			cdm_note("%s %s: the %s engine kept %u I/O in flight per thread, not %u; the report shows Q=%u",
				 name, dir_name(tr->dir), cfg->engine->name, tr->qd_run, spec->qd,
				 tr->qd_run);
		/* a pass counts only if every worker ran to its end */
		for (k = 0; k < cfg->count; k++) {
			struct cdm_pass *p = &tr->passes[k];

			if (sh->bounds[k + 2] > stopped)
				break;
			memset(p, 0, sizeof(*p));
			p->seconds = (double)(sh->bounds[k + 2] - sh->bounds[k + 1]) / 1e9;
			p->start_unix_ns = wall0 + (sh->bounds[k + 1] - t0);
			for (unsigned int i = 0; i < nthreads; i++)
				cdm_pass_add(p, &w[i].passes[k]);
			if (k + 2 <= pmark) {
				p->proc_user_ns = puser[k + 2] - puser[k + 1];
				p->proc_sys_ns = psys[k + 2] - psys[k + 1];
			}
		}
		tr->npasses = k;
		cpu_limit_note(name, tr, w, nthreads);
		if (cfg->rate_iops)
			rate_note(name, tr, cfg->rate_iops);
		if (cfg->log_interval_ns)
			ret = series_collect(sh, w, nthreads, tr, name);
		/*
		 * The merged histogram covers the passes kept; when a pass was
		 * cut short its I/Os are in the workers' histograms too, so
		 * only merge for complete tests.
		 */
		if (tr->npasses == cfg->count)
			for (unsigned int i = 0; i < nthreads; i++)
				cdm_hist_merge(tr->hist, &w[i].hist);
		for (unsigned int i = 0; i < nthreads; i++) {
			if (w[i].error && !ret) {
				ret = w[i].error;
				tr->error = ret;
				tr->error_offset = w[i].error_offset;
				if (w[i].short_io)
					cdm_error("%s: %s %s: short %s at offset %" PRIu64,
						  f->path, name, dir_name(tr->dir),
						  tr->dir == CDM_DIR_READ ? "read" :
						  tr->dir == CDM_DIR_WRITE ? "write" : "I/O",
						  w[i].error_offset);
				else if (ret == -EOPNOTSUPP && (cfg->engine_options & CDM_ENGINE_OPT_IOPOLL))
					cdm_error("%s: %s %s: polled I/O (--hipri) is not supported by this device or filesystem (%s); run without --hipri",
						  f->path, name, dir_name(tr->dir), strerror(-ret));
				else if (ret == -EINVAL && cfg->direct)
					cdm_error("%s: %s %s: %s at offset %" PRIu64
						  " (O_DIRECT needs the block size and offsets aligned to the device's logical block size; try --buffered)",
						  f->path, name, dir_name(tr->dir), strerror(-ret),
						  w[i].error_offset);
				else
					cdm_error("%s: %s %s: %s at offset %" PRIu64, f->path, name,
						  dir_name(tr->dir), strerror(-ret), w[i].error_offset);
			}
		}
		if (!ret && cdm_runner_stop_requested())
			ret = -EINTR;
	}
	for (unsigned int i = 0; i < nthreads; i++)
		free(w[i].series);
	free(sh);
	free(w);
	return ret;
}

int cdm_run(const struct cdm_run_config *cfg, struct cdm_run_result *res)
{
	struct cdm_target t;
	struct cdm_testfile f = { .fd = -1, .lock_fd = -1 };
	struct cdm_fileguard guard = { .dirfd = -1 };
	char err[8400];
	unsigned int n = 0, lbs = 0;
	int ret, sync_fd = -1;

	cdm_progress_clear = progress_clear;
	/*
	 * Files left by killed runs go first, so that their space counts as
	 * free in the check below (only cdm's own dead files are touched).
	 */
	if (!cfg->file)
		cdm_target_clean_stale(cfg->target);
	ret = cdm_target_probe(cfg->target, cfg->file ? 0 : cfg->size, &t, err, sizeof(err));
	if (ret < 0) {
		cdm_error("%s", err);
		return ret;
	}
	fill_info(cfg, &t, &res->info);
	if (cfg->direct) {
		lbs = cdm_align_logical_block(res->info.dev_name);
		ret = cdm_align_check(cfg->tests, cfg->ntests, lbs, res->info.dev_name,
				      err, sizeof(err));
		if (ret < 0) {
			cdm_error("%s: %s", cfg->target, err);
			return ret;
		}
	}
	n = cdm_plan_tests(cfg, res->tests);
	res->ntests = n;

	if (t.memory_backed)
		cdm_warn("%s is on %s, which keeps files in memory: the figures are memory speed, not disk speed",
			 cfg->target, t.fs_type);
	if (t.network_or_fuse)
		cdm_warn("%s is on %s (a network or FUSE filesystem): client-side caching may inflate the figures",
			 cfg->target, t.fs_type);
	if (!cfg->direct)
		cdm_warn("--buffered: the page cache is measured, not only the disk, unless the test file is larger than RAM");

	ret = check_buffers(cfg);
	if (ret == 0)
		ret = cdm_limits_check(cfg);
	if (ret < 0)
		return ret;

	if (cfg->file) {
		ret = cdm_testfile_reuse(&f, cfg->file, cfg->direct, err, sizeof(err));
		if (ret < 0) {
			cdm_error("%s", err);
			return ret;
		}
		res->info.size = f.size;
		for (unsigned int i = 0; i < cfg->ntests; i++) {
			if (f.size < cfg->tests[i].block) {
				cdm_error("%s: the file is smaller than one block of the tests", cfg->file);
				ret = -EINVAL;
				goto out;
			}
		}
	} else if (t.is_device && (!cdm_plan_writes(cfg) || !cfg->allow_destructive_write)) {
		/* a raw device, read only (device.h): never prepared, never written */
		if (cdm_plan_writes(cfg))
			return cdm_error("%s: a block device is written only with --allow-destructive-write",
					 cfg->target), -EPERM;
		ret = cdm_testfile_open_device(&f, &t, cfg->size, 0, cfg->direct, err, sizeof(err));
		if (ret < 0) {
			cdm_error("%s", err);
			return ret;
		}
		cdm_blockdev_notes(cfg->target, &t.dev, f.fd, cfg->size);
	} else {
		/* a raw device with writes allowed is opened O_EXCL and filled as a file is */
		if (t.is_device)
			ret = cdm_testfile_open_device(&f, &t, cfg->size, 1, cfg->direct, err, sizeof(err));
		else
			ret = cdm_testfile_create(&f, &t, cfg->size, cfg->direct, err, sizeof(err));
		if (ret < 0) {
			cdm_error("%s", err);
			return ret;
		}
		if (!t.is_device)
			cdm_fileguard_open(&guard, f.path, f.fd);
		fill_cfg = cfg;
		progress(cfg, "Preparing test file:   0%%");
		ret = cdm_testfile_fill(&f, cfg->zero_fill, fill_progress, stop_cb, err, sizeof(err));
		if (ret < 0) {
			if (ret != -EINTR) {
				if (ret == -EINVAL && cfg->direct)
					cdm_error("%s: the %s filesystem accepted O_DIRECT but refused the first write (%s); run with --buffered",
						  cfg->target, t.fs_type, strerror(EINVAL));
				else
					cdm_error("%s", err);
			}
			goto out;
		}
	}

	if (cfg->direct && !lbs) {
		/* no device in sysfs to ask: ask the kernel, before any test */
		uint64_t minb = UINT64_MAX;

		for (unsigned int i = 0; i < cfg->ntests; i++)
			if (cfg->tests[i].block < minb)
				minb = cfg->tests[i].block;
		if (minb % 4096 && (ret = cdm_align_probe(f.fd, minb)) < 0) {
			if (ret == -EINVAL)
				cdm_error("%s: a %" PRIu64 "-byte block is refused by O_DIRECT on this %s filesystem (its device's logical block size is larger); use multiples of 4096 B, or --buffered",
					  cfg->target, minb, t.fs_type);
			else
				cdm_error("%s: cannot check O_DIRECT alignment: %s", f.path, strerror(-ret));
			goto out;
		}
	}
	if (cfg->dsync) {
		/*
		 * --sync: the tests use a second descriptor opened O_DSYNC
		 * (F_SETFL cannot add it); the file was filled without it.
		 */
		sync_fd = open_dsync(&f, cfg->direct);
		if (sync_fd < 0) {
			ret = sync_fd;
			cdm_error("%s: cannot reopen the test file with O_DSYNC for --sync: %s",
				  f.path, strerror(-ret));
			goto out;
		}
	}

	if (cfg->sync) {
		ret = cfg->sync(cfg->sync_arg, 0, 0);
		if (ret < 0)
			goto out;
	}

	for (unsigned int i = 0; i < res->ntests; i++) {
		struct cdm_test_result *tr = &res->tests[i];
		char name[64];

		if (i > 0 && cfg->interval) {
			uint64_t until = cdm_now_ns() + (uint64_t)cfg->interval * 1000000000ull;

			cdm_spec_name(&tr->spec, name, sizeof(name));
			progress(cfg, "Interval %u s before %s %s", cfg->interval, name,
				 dir_name(tr->dir));
			while (!cdm_runner_stop_requested()) {
				uint64_t now = cdm_now_ns();

				if (now >= until)
					break;
				sleep_until(until - now > TICK_NS ? now + TICK_NS : until);
			}
		}
		if (cdm_runner_stop_requested()) {
			ret = -EINTR;
			break;
		}
		ret = run_test(cfg, &f, sync_fd >= 0 ? sync_fd : f.fd, tr, i);
		if (ret < 0)
			break;
	}
out:
	if (sync_fd >= 0)
		close(sync_fd);
	progress_clear();
	if (cdm_runner_stop_requested()) {
		ret = -EINTR;
		res->interrupted = cdm_runner_stop_requested();
	}
	cdm_fileguard_finish(&guard, f.fd, f.path);
	if (ret == 0 && cfg->keep && !cfg->file) {
		int k = cdm_testfile_keep(&f, cfg->zero_fill);

		if (k == 0)
			cdm_note("kept the test file as %s (reuse it with --file)", f.path);
		else
			cdm_warn("%s: could not keep the test file: %s", f.path, strerror(-k));
	}
	if (cdm_testfile_remove(&f) < 0)
		cdm_warn("%s: could not remove the test file: %s", f.path, strerror(errno));
	return ret;
}
