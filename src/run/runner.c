/* SPDX-License-Identifier: MIT */
/*
 * runner.c - runs the plan: probes the target, prepares the test file,
 * then runs each test in order (reads first, then writes; one test is
 * run/testrun.c's) with --interval's pause between two.  The test file
 * is removed on every way out.  The progress line is run/progress.c's,
 * the stop flag and the signal handlers run/signals.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/err.h"
#include "cdm/base/lfs.h"
#include "cdm/base/msec.h"
#include "cdm/base/msg.h"
#include "cdm/base/sig.h"
#include "cdm/base/size.h"
#include "cdm/base/version.h"
#include "cdm/plan/align.h"
#include "cdm/plan/eta.h"
#include "cdm/plan/limits.h"
#include "cdm/run/runner.h"
#include "cdm/run/verify.h"
#include "cdm/target/fileguard.h"
#include "cdm/target/numa.h"
#include "cdm/target/stack.h"
#include "cdm/target/sysinfo.h"
#include "cdm/target/target.h"
#include "cdm/target/testfile.h"
#include "progress.h"
#include "signals.h"
#include "testrun.h"
#include "watch.h"
#include "loop.h"
#include "worker.h"

unsigned int cdm_runner_batch(unsigned int asked, unsigned int qd)
{
	return cdm_testrun_batch(asked, qd);
}

void cdm_runner_request_stop(int sig)
{
	cdm_signals_request_stop(sig);
}

int cdm_runner_install_signals(void)
{
	return cdm_signals_install();
}

int cdm_runner_stop_requested(void)
{
	return cdm_signals_stop_requested();
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
	cdm_plan_info_copy(cfg, in);
	cdm_devspec_format(&cfg->null_device, in->null_device, sizeof(in->null_device));
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
 * The I/O buffers of the largest test (cdm_loop_buffer_bytes() per
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
		uint64_t per = cdm_loop_buffer_bytes(sp->qd, sp->block);

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

/* does the run write to its file or device: its tests or --precondition */
static int run_writes(const struct run *r)
{
	return cdm_plan_writer(r->cfg) != NULL;
}

/*
 * A read-only target (a filesystem mounted read-only, a device set
 * read-only) runs every workload that only reads an existing file or
 * device; what would write is refused before anything is opened, naming
 * the option that writes (docs/safety.md).
 */
static int check_read_only(const struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	const char *writer = cdm_plan_writer(cfg);
	const char *on = r->t.mount_point[0] ? r->t.mount_point : cfg->target;

	if (r->t.is_device)
		return r->t.dev.read_only && writer ?
		       cdm_err_set(err, -EROFS, "%s: the device is read-only, so %s", cfg->target,
				   writer) : 0;
	if (!r->t.read_only)
		return 0;
	if (!cfg->file)
		return cdm_err_set(err, -EROFS, "%s: read-only filesystem (%s on %s), so cdm cannot make its test file there (--file reads one kept by --keep, with --mode read)",
				   cfg->target, r->t.fs_type, on);
	if (writer)
		return cdm_err_set(err, -EROFS, "%s: read-only filesystem (%s on %s), so %s",
				   cfg->file, r->t.fs_type, on, writer);
	return 0;
}

/*
 * Of the devices under the target (a btrfs over several), the one with
 * the largest logical block size, which O_DIRECT must be aligned to on
 * all of them: its name, and the size in *@lbs (0 unknown).
 */
static const char *largest_block(const struct cdm_run_info *in, unsigned int *lbs)
{
	const char *dev = in->dev_name;

	*lbs = cdm_align_logical_block(in->dev_name);
	for (unsigned int i = 1; i < in->ndevices && i < CDM_DEVICES_MAX; i++) {
		unsigned int b = cdm_align_logical_block(in->devices[i].name);

		if (b > *lbs) {
			*lbs = b;
			dev = in->devices[i].name;
		}
	}
	return dev;
}

/*
 * Everything checked before the test file is touched: the target, the
 * O_DIRECT block sizes, memory and the limits; the run's info and test
 * list are filled, and what may distort the figures is said.
 */
static int run_check(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	const char *dev;
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
	ret = check_read_only(r, err);
	if (ret < 0)
		return ret;
	/* options only the device can answer for, before any file (engine.h) */
	ret = cdm_engine_check_options(cfg->engine, cfg->engine_options, cfg->target,
				       r->res->info.dev_name, err);
	if (ret < 0)
		return ret;
	dev = largest_block(&r->res->info, &r->lbs);
	/* a file's: the block its O_DIRECT I/O is aligned to (a device's is BLKSSZGET's) */
	if (!r->res->info.is_device)
		r->res->info.target_dev_lbs = r->lbs;
	if (cfg->direct) {
		ret = cdm_align_check(cfg->tests, cfg->ntests, r->lbs, dev, err);
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

	at.phase_left = cdm_progress_phase_left(done, total);
	cdm_progress_at(fill_cfg, &at, "Preparing test file: %3u%%",
		    (unsigned int)(done * 100 / (total ? total : 1)));
}

static void precond_progress(unsigned int pass, uint64_t done, uint64_t total)
{
	struct cdm_eta_at at = { .phase = CDM_ETA_PREPARE };

	/* the rate over every pass so far: each writes the whole file */
	at.phase_left = cdm_progress_phase_left((uint64_t)(pass - 1) * total + done,
				       (uint64_t)CDM_TESTFILE_PRECOND_PASSES * total);
	if (!done)      /* no percentage before a byte of the pass is written */
		cdm_progress_at(fill_cfg, &at, "Preconditioning: pass %u of %u", pass,
			    CDM_TESTFILE_PRECOND_PASSES);
	else
		cdm_progress_at(fill_cfg, &at, "Preconditioning: pass %u of %u, %u%%", pass,
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
	cdm_progress_phase_start(t0);
	if (!cfg->precondition) {
		if (!fresh)
			return 0;
		cdm_progress_show(cfg, "Preparing test file");	/* no percentage before a byte is written */
		return cdm_testfile_fill(&r->f, cfg->zero_fill, fill_progress, cdm_signals_stop_cb, err);
	}
	if (!cdm_plan_writes(cfg))
		cdm_msg_note("--precondition before read tests only: every block is written as SNIA PTS does before its read tests, so no read meets a block never written");
	/* the setting holds from here; its time only once it completes (0: it did not) */
	r->res->info.precondition = 1;
	r->res->info.precondition_ns = 0;
	ret = cdm_testfile_precondition(&r->f, cfg->zero_fill, fresh, cfg->cpus, cfg->ncpus,
					precond_progress, cdm_signals_stop_cb, err);
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

/*
 * --file: the data the kept file holds (its mark) is the data the run
 * asks for, so that the result's "data" is what the reads read; a file
 * whose mark names none (kept by a cdm from before it) is taken as it is
 */
static int kept_data_check(const struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	int want = cfg->zero_fill ? CDM_FILE_DATA_ZERO : CDM_FILE_DATA_RANDOM;
	const char *has = cdm_result_file_data_key(r->f.data);

	if (!has || r->f.data == want)
		return 0;
	return cdm_err_set(err, -EINVAL, "%s holds %s data (kept by a run with --data %s), but this run asks for --data %s: run with --data %s, or keep a new file",
			   cfg->file, has, has, cdm_result_file_data_key(want), has);
}

/* --file: a test file kept by an earlier run, as large as one block at least */
static int open_kept(struct run *r, struct cdm_err *err)
{
	const struct cdm_run_config *cfg = r->cfg;
	/* read-write where it may be written (an unwritten part is filled again) */
	int ret = cdm_testfile_reuse(&r->f, cfg->file, !r->t.read_only, cfg->direct, err);

	if (ret < 0)
		return ret;
	ret = kept_data_check(r, err);
	if (ret < 0)
		return ret;
	if (r->f.unwritten && r->t.read_only)
		return cdm_err_set(err, -EROFS, "%s has %s at offset %" PRIu64 " (truncated and extended, punched or fallocated since it was kept), which cdm writes all over again before the tests, but the filesystem is read-only",
				   cfg->file, r->f.unwritten_what, r->f.unwritten_at);
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
			cdm_signals_fault_arm(r->f.path);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (ret < 0)
		return ret;
	if (!r->t.is_device) {
		cdm_fileguard_open(&r->guard, r->f.path, r->f.fd);
		cdm_signals_fault_guard(&r->guard);
	}
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

/*
 * The test file again, O_DSYNC, checked to be the same inode; read-write
 * only when the run @writes (a read-only target, a device read as it is).
 * Returns the fd or -errno.
 */
static int open_dsync(const struct cdm_testfile *f, int writes, int direct)
{
	struct stat a, b;
	int fd = open(f->path, (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW | O_DSYNC |
		      (direct ? O_DIRECT : 0));

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
	/* what the figures were measured on: a new file, or a kept one, and its data */
	if (!r->t.is_device) {
		r->res->info.test_file = cfg->file ? CDM_TEST_FILE_REUSED : CDM_TEST_FILE_NEW;
		r->res->info.test_file_data = r->f.data;
	}
	if (cfg->direct && !r->lbs && (ret = probe_direct(r, err)) < 0)
		return ret;
	if (cfg->dsync) {
		/*
		 * --sync: the tests use a second descriptor opened O_DSYNC
		 * (F_SETFL cannot add it); the file was filled without it.
		 */
		r->sync_fd = open_dsync(&r->f, run_writes(r), cfg->direct);
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
	cdm_progress_at(cfg, &at, "Interval %s s before %s %s",
		    cdm_msec_format(cfg->interval_ms, s, sizeof(s)), name, cdm_result_dir_name(dir));
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
			while (!cdm_signals_stop_requested()) {
				uint64_t now = cdm_clock_now_ns();

				if (now >= until)
					break;
				if (!shown || now - shown >= CDM_PROGRESS_NS) {
					interval_progress(cfg, i, until - now, name, tr->dir);
					shown = now;
				}
				cdm_signals_sleep_until(until - now > CDM_WATCH_TICK_NS ? now + CDM_WATCH_TICK_NS : until);
			}
		}
		if (cdm_signals_stop_requested())
			return -EINTR;
		ret = cdm_testrun_run(cfg, &r->res->info, &r->f, fd, tr, i, err);
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
	cdm_progress_clear();
	if (cdm_signals_stop_requested()) {
		ret = -EINTR;
		r->res->interrupted = cdm_signals_stop_requested();
	}
	cdm_signals_fault_guard(NULL);  /* the guard's directory is closed next */
	cdm_fileguard_finish(&r->guard, r->f.fd, r->f.path);
	if (ret == 0 && cfg->keep && !cfg->file) {
		struct cdm_err kerr = { "" };

		/* a failed keep leaves the .tmp file, removed below */
		if (cdm_testfile_keep(&r->f, &kerr) == 0) {
			cdm_signals_fault_arm(NULL);        /* a kept file is the user's now */
			r->res->info.test_file = CDM_TEST_FILE_KEPT;
			cdm_msg_note("kept the test file as %s (reuse it with --file)", r->f.path);
		} else {
			cdm_msg_warn("%s; it was removed", kerr.msg);
		}
	}
	if (cdm_testfile_remove(&r->f) < 0)
		cdm_msg_warn("%s: could not remove the test file: %s", r->f.path, strerror(errno));
	cdm_signals_fault_arm(NULL);
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
	cdm_msg_progress_clear = cdm_progress_clear;
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
	cdm_progress_eta_init(res);
	ret = run_open(&r, err);
	/*
	 * Memory, a client cache or a page-cached loop device under the target
	 * (stack.h): said once the run goes ahead, so a refusal stays one line.
	 */
	if (!ret)
		cdm_stack_warn(cfg->target, res->info.mem_under, res->info.nmem_under);
	if (!ret)
		cdm_plan_note_small(res->tests, res->ntests, r.f.size, cfg->file ? cfg->file : cfg->target);
	if (!ret)
		ret = run_tests(&r, err);
	return run_finish(&r, ret);
}

