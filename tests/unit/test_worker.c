/* SPDX-License-Identifier: MIT */
/*
 * test_worker.c - the worker threads of one test (src/run/worker.h),
 * driven as the runner drives them (cdm_worker_start, publish the
 * schedule, cdm_worker_go, cdm_worker_join) with the null engine, which
 * touches no file and, with a service time, keeps every I/O in flight for
 * that long.  A thin wrapper around it ("logged") notes when each batch of
 * completions could have been seen by the worker, and can make one I/O or
 * one engine call fail.
 *
 * Every check is a count or a relation between counts (the depth at each
 * reap, the pass windows, fdatasyncs per write); none is a duration, and
 * none needs a fixed time to hold some number of I/Os: a pass that must
 * see I/O lasts until it has (crew_end), since a loaded machine may leave
 * the workers unscheduled for all of a short pass.  A worker that never
 * stops would hang a test: alarm() ends the process instead.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/err.h"
#include "cdm/engine/engine.h"
#include "cdm/engine/null_device.h"
#include "run/loop.h"
#include "run/worker.h"

#define MS 1000000ull
#define HOUR (3600ull * 1000 * MS)
#define MAX_THREADS 4
#define MAX_RECS (1u << 17)
#define GUARD_S 120             /* a test that takes longer has hung */

/* ---- the "logged" engine: the null engine, watched ---- */

/*
 * One batch of completions returned by reap(): the worker reads its clock
 * for them after reap() returned (lo) and before its next engine call (hi),
 * so that clock reading, the one that picks their window, lies in [lo, hi].
 */
struct batch {
	uint64_t lo, hi;
	uint64_t at;                    /* when reap() was called for it */
	unsigned int before;            /* the thread's I/Os at the engine then */
	unsigned int n;
};

/* what one worker thread's engine saw */
struct elog {
	struct batch *b;
	size_t nb;
	char name[16];                  /* the thread's name when init() ran */
	cpu_set_t cpus;                 /* and the CPUs it may run on */
	int open;                       /* b[nb - 1].hi not known yet */
	int overflow;
	uint64_t reaped;                /* I/Os returned by reap() */
	uint64_t queued_after_stop;     /* queue() calls after the stop request */
	uint64_t queue_calls;           /* queue() calls, busy answers included */
	uint64_t busy;                  /* queue() calls answered busy */
	unsigned int outstanding;       /* queued and not yet reaped ... */
	unsigned int max_outstanding;   /* ... and the most there ever were */
};

/* what a test asks of the engine; reset by each test */
static struct {
	const struct cdm_engine_ops *null;
	struct elog log[MAX_THREADS];
	atomic_uint nlogs;
	int fail_init;                  /* init() fails with this (-errno) */
	uint64_t fail_io_at;            /* this completion (1-based, all threads) fails ... */
	int64_t fail_result;            /* ... with this result (-errno, or short) */
	uint64_t fail_reap_at;          /* this reap() call (1-based, all threads) fails */
	/* busy answers from queue() (not reset by crew_init; a test resets them) */
	unsigned int busy_first;        /* each thread's first N calls */
	unsigned int busy_every;        /* then every Nth call of a thread; 0: none */
	int busy_code;                  /* CDM_Q_BUSY, -EAGAIN or -EBUSY */
	atomic_uint_fast64_t completions, reaps;
	atomic_uint_fast64_t failed_offset;
	atomic_uint_fast64_t stop_at;   /* when the stop was requested; 0: not yet */
} eng;

static _Thread_local struct elog *my_log;

/* every engine call: the previous batch's worker clock reading was before now */
static void touch(void)
{
	if (my_log && my_log->open) {
		my_log->b[my_log->nb - 1].hi = cdm_clock_now_ns();
		my_log->open = 0;
	}
}

static int logged_probe(enum cdm_engine_cause *cause, struct cdm_err *why)
{
	return eng.null->probe(cause, why);
}

static int logged_init(struct cdm_engine_ctx *ctx, const struct cdm_engine_params *p)
{
	unsigned int i = atomic_fetch_add(&eng.nlogs, 1);

	if (i >= MAX_THREADS)
		return -EINVAL;
	my_log = &eng.log[i];
	pthread_getname_np(pthread_self(), my_log->name, sizeof(my_log->name));
	pthread_getaffinity_np(pthread_self(), sizeof(my_log->cpus), &my_log->cpus);
	my_log->b = calloc(MAX_RECS, sizeof(*my_log->b));
	if (!my_log->b)
		return -ENOMEM;
	if (eng.fail_init)
		return eng.fail_init;
	return eng.null->init(ctx, p);
}

static int logged_queue(struct cdm_engine_ctx *ctx, struct cdm_io *io)
{
	uint64_t call;

	touch();
	call = ++my_log->queue_calls;
	if (call <= eng.busy_first || (eng.busy_every && call % eng.busy_every == 0)) {
		my_log->busy++;
		return eng.busy_code;
	}
	if (atomic_load(&eng.stop_at))
		my_log->queued_after_stop++;
	if (++my_log->outstanding > my_log->max_outstanding)
		my_log->max_outstanding = my_log->outstanding;
	return eng.null->queue(ctx, io);
}

static int logged_commit(struct cdm_engine_ctx *ctx)
{
	touch();
	return eng.null->commit(ctx);
}

static int logged_reap(struct cdm_engine_ctx *ctx, unsigned int min, unsigned int max,
		       struct cdm_io **out)
{
	unsigned int before = my_log->outstanding;
	uint64_t at;
	int n;

	touch();
	at = cdm_clock_now_ns();
	if (atomic_fetch_add(&eng.reaps, 1) + 1 == eng.fail_reap_at)
		return -EIO;
	n = eng.null->reap(ctx, min, max, out);
	if (n <= 0)
		return n;
	for (int i = 0; i < n; i++) {
		if (atomic_fetch_add(&eng.completions, 1) + 1 == eng.fail_io_at) {
			out[i]->result = eng.fail_result;
			atomic_store(&eng.failed_offset, out[i]->offset);
		}
	}
	my_log->reaped += (uint64_t)n;
	my_log->outstanding -= (unsigned int)n;
	if (my_log->nb == MAX_RECS) {
		my_log->overflow = 1;
		return n;
	}
	my_log->b[my_log->nb++] = (struct batch){ .lo = cdm_clock_now_ns(), .at = at,
						  .before = before, .n = (unsigned int)n };
	my_log->open = 1;
	return n;
}

static void logged_cleanup(struct cdm_engine_ctx *ctx)
{
	touch();
	if (ctx->priv)
		eng.null->cleanup(ctx);
}

static const struct cdm_engine_ops logged = {
	.name = "logged",
	.version = CDM_ENGINE_VERSION,
	.flags = CDM_ENGINE_NO_IO,
	.probe = logged_probe,
	.init = logged_init,
	.queue = logged_queue,
	.commit = logged_commit,
	.reap = logged_reap,
	.cleanup = logged_cleanup,
};

/* ---- one test's workers ---- */

struct crew {
	struct cdm_test_shared *sh;
	struct cdm_worker *w;
	unsigned int n;
	atomic_int stop;
	char path[64];                  /* a temporary file for fdatasync, or "" */
};

static void *alloc64(size_t size)
{
	void *p = aligned_alloc(64, (size + 63) & ~(size_t)63);

	assert_non_null(p);
	memset(p, 0, size);
	return p;
}

/* the shared state as testrun.c's test_alloc() fills it, for the logged engine */
static void crew_init(struct crew *c, enum cdm_dir dir, unsigned int qd, unsigned int threads,
		      uint64_t service_ns, unsigned int count)
{
	struct cdm_test_shared *sh;

	memset(&eng.log, 0, sizeof(eng.log));
	atomic_store(&eng.nlogs, 0);
	atomic_store(&eng.completions, 0);
	atomic_store(&eng.reaps, 0);
	atomic_store(&eng.stop_at, 0);
	eng.fail_init = 0;
	eng.fail_io_at = 0;
	eng.fail_reap_at = 0;
	memset(c, 0, sizeof(*c));
	c->n = threads;
	c->sh = sh = alloc64(sizeof(*sh));
	c->w = alloc64(sizeof(*c->w) * threads);
	sh->engine = &logged;
	if (service_ns) {
		/* --null-service-us: a fixed service time, every I/O at once */
		struct cdm_devspec spec = { .nphases = 1 };

		spec.phase[0].lat_ns = service_ns;
		assert_int_equal(cdm_null_device_new(&spec, qd * threads, &sh->null_device), 0);
	}
	sh->spec = (struct cdm_spec){ .pattern = CDM_RND, .block = 4096, .qd = qd,
				      .threads = threads };
	sh->dir = dir;
	sh->fd = -1;
	sh->direct = 0;
	sh->nblocks = 1024;
	sh->count = count;
	sh->batch = qd;                 /* every completion restarted at once */
	sh->stop = &c->stop;
	atomic_init(&sh->seq_next, 0);
	atomic_init(&c->stop, 0);
}

/*
 * A real file for the fdatasync of --fsync, on tmpfs where there is one:
 * the test counts fdatasyncs, and on a disk shared with other work one
 * can take longer than a whole pass.
 */
static void crew_file(struct crew *c)
{
	const char *dir = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" :
			  getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd;

	snprintf(c->path, sizeof(c->path), "%.40s/cdm-worker-XXXXXX", dir);
	fd = mkstemp(c->path);
	assert_true(fd >= 0);
	/* unlinked at once: a failed assert (a longjmp) leaves nothing behind */
	unlink(c->path);
	c->sh->fd = fd;
}

static void crew_free(struct crew *c)
{
	if (c->path[0])
		close(c->sh->fd);
	for (unsigned int i = 0; i < MAX_THREADS; i++)
		free(eng.log[i].b);
	memset(&eng.log, 0, sizeof(eng.log));
	cdm_null_device_free(c->sh->null_device);
	free(c->sh);
	free(c->w);
}

/*
 * Start the workers, publish warm-up and @count passes (the last one of
 * @last_ns, the others of @pass_ns), let them go.  The schedule is
 * complete before cdm_worker_go(): a worker reads it as soon as it runs.
 */
static void crew_go_last(struct crew *c, uint64_t warm_ns, uint64_t pass_ns, uint64_t last_ns)
{
	struct cdm_err err = { "" };
	struct cdm_test_shared *sh = c->sh;
	uint64_t t0;

	assert_int_equal(cdm_worker_start(sh, c->w, c->n, &err), 0);
	assert_string_equal(err.msg, "");
	t0 = cdm_clock_now_ns();
	sh->bounds[0] = t0;
	sh->bounds[1] = t0 + warm_ns;
	for (unsigned int k = 0; k < sh->count; k++)
		sh->bounds[k + 2] = sh->bounds[k + 1] + (k + 1 < sh->count ? pass_ns : last_ns);
	cdm_worker_go(sh);
}

/* start the workers, publish warm-up and @count passes, let them go */
static void crew_go(struct crew *c, uint64_t warm_ns, uint64_t pass_ns)
{
	crew_go_last(c, warm_ns, pass_ns, pass_ns);
}

/*
 * crew_go() with the last pass open-ended (an hour): crew_end() ends it
 * once each worker has done enough I/O in it, so that pass's count comes
 * from an event, not from how much a loaded machine ran in a fixed time.
 */
static void crew_go_open(struct crew *c, uint64_t warm_ns, uint64_t pass_ns)
{
	crew_go_last(c, warm_ns, pass_ns, HOUR);
}

/*
 * Wait (alarm() bounds it) until every worker has completed at least @ios
 * I/Os of 4 KiB in the last pass, then ask them to stop and join them.
 * live_bytes counts from the worker's start: a reading taken once this
 * clock is past the last pass's start holds every byte before it, and at
 * most what completed between two of its updates, seen before the start
 * but stored after: what was in flight and what it refilled, 2 x @batch
 * at most (Q, or --fsync's quiesce: the I/Os in flight, drained at once).
 * Returns when the stop was requested (ns, this clock).
 */
static uint64_t crew_end(struct crew *c, uint64_t ios, unsigned int batch)
{
	const struct timespec ms = { 0, 1000000 };
	const uint64_t start = c->sh->bounds[c->sh->count];
	uint64_t base[MAX_THREADS], t_req;
	unsigned int ready = 0;

	while (cdm_clock_now_ns() < start)
		nanosleep(&ms, NULL);
	for (unsigned int i = 0; i < c->n; i++)
		base[i] = atomic_load(&c->w[i].live_bytes);
	while (ready < c->n && !atomic_load(&c->sh->failed)) {
		ready = 0;
		/* (one that stopped has done all it will: the test's asserts say what) */
		for (unsigned int i = 0; i < c->n; i++)
			ready += atomic_load(&c->w[i].live_bytes) - base[i] >= (ios + 2 * batch) * 4096 ||
				 __atomic_load_n(&c->w[i].stopped_ns, __ATOMIC_ACQUIRE);
		if (ready < c->n)
			nanosleep(&ms, NULL);
	}
	t_req = cdm_clock_now_ns();
	atomic_store(&c->stop, SIGTERM);
	cdm_worker_join(c->sh, c->w, c->n);
	return t_req;
}

/* the window of a worker clock reading @t: 0 warm-up, k + 1 pass k, count + 1 after */
static unsigned int window_of(const struct cdm_test_shared *sh, uint64_t t)
{
	unsigned int w = 0;

	while (w <= sh->count && t >= sh->bounds[w + 1])
		w++;
	return w;
}

static void guard(void)
{
	alarm(GUARD_S);         /* SIGALRM's default action ends the process */
}

/* ---- the tests ---- */

/*
 * An async engine keeps the requested depth in flight: the depth each
 * worker reports is Q, and every reap() it calls before the stop request
 * finds its Q I/Os at the engine (it refills what completed before it
 * waits again; sh->batch is Q).  A count of engine calls, which load
 * cannot change: a worker that kept half the depth would wait with Q / 2.
 * Only after the request may it wait with fewer (it drains).  The last
 * pass lasts until each thread has done 64 I/Os in it, so each waited at
 * least 64 / Q times before the request.  By Little's law the mean in
 * flight (sum of latencies / time) is about Q x T: printed, not asserted
 * (a thread left unscheduled between a reap and its refill lowers it).
 */
static void test_depth_in_flight(void **state)
{
	const unsigned int q = 8, t = 2, count = 2;
	uint64_t lat = 0, ios = 0, t_req;
	struct crew c;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, q, t, 2 * MS, count);
	crew_go_open(&c, 20 * MS, 50 * MS);
	t_req = crew_end(&c, 64, q);
	assert_int_equal(atomic_load(&eng.nlogs), t);
	for (unsigned int i = 0; i < t; i++) {
		const struct elog *l = &eng.log[i];
		uint64_t waits = 0;

		assert_int_equal(c.w[i].error, 0);
		assert_int_equal(c.w[i].depth_run, q);
		assert_false(l->overflow);
		assert_true(l->max_outstanding <= q);
		for (size_t j = 0; j < l->nb; j++) {
			if (l->b[j].at >= t_req)
				continue;
			assert_int_equal(l->b[j].before, q);
			waits++;
		}
		assert_true(waits >= 64 / q);
		for (unsigned int k = 0; k < count; k++) {
			lat += c.w[i].passes[k].lat_sum_ns;
			ios += c.w[i].passes[k].ios;
		}
	}
	print_message("Q=%u T=%u: %" PRIu64 " I/Os, %.2f in flight on average\n", q, t, ios,
		      (double)lat / (double)(t_req - c.sh->bounds[1]));
	crew_free(&c);
}

/*
 * Each I/O counts in the window in which the worker saw it complete: for
 * every pass, the I/Os of batches that certainly completed inside it are
 * counted there, and no more than those that may have (a batch seen
 * across a boundary may go either way).  The passes' counts and the I/Os
 * of the warm-up and after the end add up to every completion; bytes,
 * latencies and the histogram agree with the counts.  The relations hold
 * for any counts, so the warm-up and passes 0 and 1 are short and fixed
 * (on a loaded machine a window may see no I/O at all); the last pass
 * lasts until each thread has done 200 I/Os in it, so batches certainly
 * inside a pass are there for sure, and the workers stop on request in it.
 */
static void test_pass_windows(void **state)
{
	const unsigned int q = 4, t = 2, count = 3;
	uint64_t sure[CDM_MAX_PASSES + 2] = { 0 }, maybe[CDM_MAX_PASSES + 2] = { 0 };
	uint64_t total = 0, counted = 0;
	struct crew c;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, q, t, 200000, count);
	crew_go_open(&c, 20 * MS, 20 * MS);
	crew_end(&c, 200, q);
	assert_int_equal(atomic_load(&eng.nlogs), t);
	for (unsigned int i = 0; i < t; i++) {
		const struct elog *l = &eng.log[i];

		assert_false(l->overflow);
		assert_false(l->open);          /* cleanup() closed the last batch */
		total += l->reaped;
		for (size_t j = 0; j < l->nb; j++) {
			unsigned int a = window_of(c.sh, l->b[j].lo), b = window_of(c.sh, l->b[j].hi);

			assert_true(l->b[j].lo <= l->b[j].hi);
			if (a == b)
				sure[a] += l->b[j].n;
			else
				for (unsigned int w = a; w <= b; w++)
					maybe[w] += l->b[j].n;
		}
	}
	for (unsigned int k = 0; k < count; k++) {
		uint64_t ios = 0, bytes = 0;

		for (unsigned int i = 0; i < t; i++) {
			ios += c.w[i].passes[k].ios;
			bytes += c.w[i].passes[k].bytes;
			assert_int_equal(c.w[i].passes[k].read_ios, c.w[i].passes[k].ios);
		}
		print_message("pass %u: %" PRIu64 " I/Os counted, %" PRIu64 " certainly in it, %" PRIu64
			      " maybe\n", k, ios, sure[k + 1], maybe[k + 1]);
		assert_true(ios >= sure[k + 1]);
		assert_true(ios <= sure[k + 1] + maybe[k + 1]);
		assert_int_equal(bytes, ios * 4096);
		counted += ios;
	}
	assert_true(sure[count] > 0);
	/* the warm-up's and the late completions are not counted, and are the rest */
	assert_true(counted <= total);
	assert_true(total - counted >= sure[0] + sure[count + 1]);
	assert_true(total - counted <= sure[0] + sure[count + 1] + maybe[0] + maybe[count + 1]);
	for (unsigned int i = 0; i < t; i++) {
		uint64_t ios = 0, lat = 0;

		for (unsigned int k = 0; k < count; k++) {
			ios += c.w[i].passes[k].ios;
			lat += c.w[i].passes[k].lat_sum_ns;
		}
		assert_int_equal(c.w[i].hist.count, ios);
		assert_int_equal(c.w[i].hist.sum_ns, lat);
		/* the stop came in the last pass, and the worker stopped in it */
		assert_true(c.w[i].stopped_ns >= c.sh->bounds[count]);
		assert_true(c.w[i].stopped_ns < c.sh->bounds[count + 1]);
	}
	crew_free(&c);
}

/*
 * --fsync N: one fdatasync per N writes a thread starts, each after the
 * I/O in flight has completed (fio's fsync=N), whatever Q is: with N < Q
 * no more than the writes left before the next sync are in flight, so the
 * engine never holds more than N of a thread's I/Os and the worker reports
 * N as the depth it kept.  The cadence holds on every path that restarts
 * I/O: after each sync, after a --rate-iops wait, across the pass
 * boundaries (the count of writes runs on from the warm-up through every
 * pass).  A thread's completions and syncs alternate, exactly N writes
 * between two syncs, so in any stretch of them (a pass, or both passes)
 * the writes are within N of fdatasyncs x N, however few there were: a
 * count, which load cannot change.  Pass 0 is 20 ms (any count, even
 * none, on a loaded machine); pass 1 lasts until each thread has done 20 N
 * writes in it, so at least one pass has syncs in it for sure.
 */
static void fsync_check(uint64_t ios, uint64_t fsyncs, unsigned int n)
{
	assert_true(ios + n >= fsyncs * n);
	assert_true(ios <= fsyncs * n + n);
}

static void fsync_case(unsigned int q, unsigned int n, unsigned int t, uint64_t rate,
		       uint64_t service_ns)
{
	const unsigned int count = 2;
	const unsigned int kept = n < q ? n : q;
	struct crew c;

	crew_init(&c, CDM_DIR_WRITE, q, t, service_ns, count);
	crew_file(&c);
	c.sh->fsync_every = n;
	c.sh->pace_ps = rate ? 1000000000000ull / rate : 0;
	crew_go_open(&c, 10 * MS, 20 * MS);
	crew_end(&c, 20 * n, q);
	for (unsigned int i = 0; i < t; i++) {
		uint64_t ios = 0, fsyncs = 0;

		assert_int_equal(c.w[i].error, 0);
		print_message("Q=%u N=%u T=%u rate=%" PRIu64 " thread %u: depth %u, at most %u"
			      " at the engine\n", q, n, t, rate, i, c.w[i].depth_run,
			      eng.log[i].max_outstanding);
		assert_int_equal(c.w[i].depth_run, kept);
		assert_true(eng.log[i].max_outstanding <= kept);
		for (unsigned int k = 0; k < count; k++) {
			const struct cdm_pass *p = &c.w[i].passes[k];

			print_message("  pass %u: %" PRIu64 " writes, %" PRIu64 " fdatasyncs\n", k,
				      p->ios, p->fsyncs);
			assert_int_equal(p->read_ios, 0);
			fsync_check(p->ios, p->fsyncs, n);
			ios += p->ios;
			fsyncs += p->fsyncs;
		}
		assert_true(c.w[i].passes[count - 1].ios >= 20 * n);
		/* a pass boundary neither loses nor adds a sync: the whole agrees too */
		fsync_check(ios, fsyncs, n);
	}
	crew_free(&c);
}

static void test_fsync_cadence(void **state)
{
	static const struct { unsigned int q, n, t; } cases[] = {
		{ 1, 1, 1 }, { 4, 4, 1 }, { 4, 16, 1 },
		{ 32, 4, 2 }, { 4, 4, 2 }, { 2, 8, 2 }, { 8, 1, 2 },
	};

	(void)state;
	guard();
	for (size_t j = 0; j < sizeof(cases) / sizeof(cases[0]); j++)
		fsync_case(cases[j].q, cases[j].n, cases[j].t, 0, 20000);
}

/*
 * The same with --rate-iops pacing: a rate the device could not keep at
 * depth N (each I/O takes 200 us, the schedule wants one every 20 us per
 * thread), so the pacing would start more than N if it could.
 */
static void test_fsync_cadence_paced(void **state)
{
	static const struct { unsigned int q, n, t; } cases[] = {
		{ 32, 4, 2 }, { 4, 4, 2 }, { 2, 8, 2 }, { 8, 1, 2 },
	};

	(void)state;
	guard();
	for (size_t j = 0; j < sizeof(cases) / sizeof(cases[0]); j++)
		fsync_case(cases[j].q, cases[j].n, cases[j].t, 100000, 200000);
}

/*
 * An I/O that fails (or comes back short) stops its worker, which reports
 * the error and the I/O's offset, and every other worker of the test.
 */
static void test_stop_on_io_error(void **state)
{
	static const struct { int64_t result; int short_io; } cases[] = {
		{ -EIO, 0 }, { -ENOSPC, 0 }, { 2048, 1 },
	};

	(void)state;
	guard();
	for (size_t j = 0; j < sizeof(cases) / sizeof(cases[0]); j++) {
		struct crew c;
		unsigned int failed = 0;

		crew_init(&c, CDM_DIR_READ, 4, 2, 100000, 2);
		eng.fail_io_at = 500;
		eng.fail_result = cases[j].result;
		crew_go(&c, HOUR, HOUR);
		cdm_worker_join(c.sh, c.w, c.n);
		assert_int_equal(atomic_load(&c.sh->failed), 1);
		for (unsigned int i = 0; i < c.n; i++) {
			assert_true(c.w[i].stopped_ns > 0);
			assert_true(c.w[i].stopped_ns < c.sh->bounds[1]);
			if (!c.w[i].error)
				continue;
			failed++;
			assert_int_equal(c.w[i].error, cases[j].short_io ? -EIO : cases[j].result);
			assert_int_equal(c.w[i].short_io, cases[j].short_io);
			assert_int_equal(c.w[i].init_failed, 0);
			assert_int_equal(c.w[i].error_offset, atomic_load(&eng.failed_offset));
		}
		assert_int_equal(failed, 1);
		crew_free(&c);
	}
}

/*
 * An engine call that fails (reap) stops the worker with its error, and
 * the other workers of the test with it.
 */
static void test_stop_on_engine_error(void **state)
{
	struct crew c;
	unsigned int failed = 0;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, 4, 2, 100000, 1);
	eng.fail_reap_at = 300;
	crew_go(&c, HOUR, HOUR);
	cdm_worker_join(c.sh, c.w, c.n);
	assert_int_equal(atomic_load(&c.sh->failed), 1);
	for (unsigned int i = 0; i < c.n; i++) {
		assert_true(c.w[i].stopped_ns > 0);
		assert_true(c.w[i].stopped_ns < c.sh->bounds[1]);
		if (c.w[i].error) {
			failed++;
			assert_int_equal(c.w[i].error, -EIO);
			assert_int_equal(c.w[i].init_failed, 0);
		}
	}
	assert_int_equal(failed, 1);
	crew_free(&c);
}


/*
 * The schedule starts when the last worker runs (worker.h): one published
 * a second ago, as when a loaded machine runs the threads that late after
 * "go", is moved as a whole to the moment the last one ran, before any
 * I/O, so its first window is not over before they start.  The pass is
 * open-ended and crew_end() ends it on each worker's I/O count.
 */
static void test_late_start(void **state)
{
	struct cdm_err err = { "" };
	uint64_t planned, before, late;
	struct crew c;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, 4, 2, 0, 1);
	assert_int_equal(cdm_worker_start(c.sh, c.w, c.n, &err), 0);
	before = cdm_clock_now_ns();
	planned = before - 1000 * MS;
	c.sh->bounds[0] = planned;
	c.sh->bounds[1] = planned + 10 * MS;
	c.sh->bounds[2] = planned + HOUR;
	late = cdm_worker_go(c.sh);
	assert_true(late >= 1000 * MS);
	assert_int_equal(c.sh->bounds[0], planned + late);
	assert_true(c.sh->bounds[0] >= before);
	assert_int_equal(c.sh->bounds[1] - c.sh->bounds[0], 10 * MS);
	assert_int_equal(c.sh->bounds[2] - c.sh->bounds[0], HOUR);
	crew_end(&c, 16, 4);
	for (unsigned int i = 0; i < c.n; i++) {
		assert_int_equal(c.w[i].error, 0);
		assert_true(c.w[i].passes[0].ios >= 16);
		/* the engine saw no I/O before the schedule's start */
		assert_true(eng.log[i].nb > 0);
		assert_true(eng.log[i].b[0].at >= c.sh->bounds[0]);
	}
	crew_free(&c);
}

/*
 * An engine that cannot be set up: cdm_worker_start() still succeeds, the
 * worker says init_failed with the error, and an empty schedule (what the
 * runner publishes then) ends the test at once without any I/O.
 */
static void test_init_failure(void **state)
{
	struct cdm_err err = { "" };
	struct crew c;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, 4, 2, 0, 1);
	eng.fail_init = -ENODEV;
	assert_int_equal(cdm_worker_start(c.sh, c.w, c.n, &err), 0);
	for (unsigned int i = 0; i < c.n; i++) {
		assert_int_equal(c.w[i].init_failed, 1);
		assert_int_equal(c.w[i].error, -ENODEV);
	}
	for (unsigned int k = 0; k < 3; k++)
		c.sh->bounds[k] = cdm_clock_now_ns();
	cdm_worker_go(c.sh);
	cdm_worker_join(c.sh, c.w, c.n);
	assert_int_equal(atomic_load(&eng.reaps), 0);
	for (unsigned int i = 0; i < c.n; i++)
		assert_int_equal(c.w[i].passes[0].ios, 0);
	crew_free(&c);
}

/*
 * --cpus: each worker is named cdm-w<i> and, by the time its engine is set
 * up (its buffers are touched before), may run on cpus[i % ncpus] only;
 * without --cpus on every CPU the process may.  The list is this
 * machine's own allowed CPUs, so it runs anywhere: one CPU here pins all
 * four threads to it.
 */
static void test_pinned(void **state)
{
	static unsigned short cpus[CPU_SETSIZE];
	unsigned int ncpus = 0;
	cpu_set_t all;
	struct crew c;

	(void)state;
	guard();
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	for (unsigned int k = 0; k < CPU_SETSIZE; k++)
		if (CPU_ISSET(k, &all))
			cpus[ncpus++] = (unsigned short)k;
	for (unsigned int pinned = 0; pinned < 2; pinned++) {
		crew_init(&c, CDM_DIR_READ, 2, MAX_THREADS, 0, 1);
		c.sh->cpus = pinned ? cpus : NULL;
		c.sh->ncpus = pinned ? ncpus : 0;
		crew_go(&c, 0, 10 * MS);
		cdm_worker_join(c.sh, c.w, c.n);
		assert_int_equal(atomic_load(&eng.nlogs), MAX_THREADS);
		for (unsigned int i = 0; i < MAX_THREADS; i++) {
			const struct elog *l = &eng.log[i];
			unsigned int id;
			cpu_set_t want;

			assert_int_equal(c.w[i].init_failed, 0);
			assert_int_equal(sscanf(l->name, "cdm-w%u", &id), 1);
			assert_true(id < MAX_THREADS);
			CPU_ZERO(&want);
			CPU_SET(cpus[id % ncpus], &want);
			assert_true(CPU_EQUAL(&l->cpus, pinned ? &want : &all));
		}
		crew_free(&c);
	}
}

/*
 * A CPU that cannot be pinned to (none has number 1023 here): every
 * worker fails its setup with pin_failed and the kernel's error, before
 * its engine is set up, and does no I/O.
 */
static void test_pin_fails(void **state)
{
	static const unsigned short none[] = { 1023 };
	struct cdm_err err = { "" };
	struct crew c;

	(void)state;
	guard();
	if (sysconf(_SC_NPROCESSORS_CONF) > 1023)
		skip();
	crew_init(&c, CDM_DIR_READ, 2, 2, 0, 1);
	c.sh->cpus = none;
	c.sh->ncpus = 1;
	assert_int_equal(cdm_worker_start(c.sh, c.w, c.n, &err), 0);
	for (unsigned int i = 0; i < c.n; i++) {
		assert_int_equal(c.w[i].init_failed, 1);
		assert_int_equal(c.w[i].pin_failed, 1);
		assert_int_equal(c.w[i].error, -EINVAL);
	}
	assert_int_equal(atomic_load(&eng.nlogs), 0);
	for (unsigned int k = 0; k < 3; k++)
		c.sh->bounds[k] = cdm_clock_now_ns();
	cdm_worker_go(c.sh);
	cdm_worker_join(c.sh, c.w, c.n);
	assert_int_equal(atomic_load(&eng.reaps), 0);
	crew_free(&c);
}

/*
 * Setting the stop flag ends every worker long before its schedule does:
 * each stops starting I/O after the request, and starts at most one more
 * batch (Q) after it, since the flag is read once per batch.
 */
static void test_stop_on_request(void **state)
{
	const unsigned int q = 4;
	struct timespec ms = { 0, 1000000 };
	uint64_t t_req;
	struct crew c;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, q, 2, 500000, 2);
	crew_go(&c, 10 * MS, HOUR);
	/* every worker in its first pass, with I/O done */
	for (;;) {
		unsigned int going = 0;

		for (unsigned int i = 0; i < c.n; i++)
			going += atomic_load(&c.w[i].live_bytes) > 0;
		if (going == c.n && cdm_clock_now_ns() >= c.sh->bounds[1])
			break;
		nanosleep(&ms, NULL);
	}
	t_req = cdm_clock_now_ns();
	atomic_store(&eng.stop_at, t_req);
	atomic_store(&c.stop, SIGTERM);
	cdm_worker_join(c.sh, c.w, c.n);
	for (unsigned int i = 0; i < c.n; i++) {
		assert_int_equal(c.w[i].error, 0);
		assert_true(c.w[i].stopped_ns >= t_req);
		assert_true(c.w[i].stopped_ns < c.sh->bounds[2]);
		assert_true(eng.log[i].queued_after_stop <= q);
	}
	assert_int_equal(atomic_load(&c.sh->failed), 0);
	crew_free(&c);
}

/* the buffer region: Q x block rounded up to 2 MiB */
/*
 * An engine that answers "busy" (CDM_Q_BUSY, -EAGAIN, -EBUSY) at every
 * place the worker queues an I/O: the first fill of the queue (each
 * thread's first calls, with nothing in flight yet), the refill after a
 * completion, the restart after an fsync pause and after rate pacing.  The
 * worker reaps and asks again: no error, every busy answer counted, the
 * depth never exceeded, and each pass counts what completed in it (the
 * I/Os counted are no more than those reaped, and the histogram agrees).
 * Pass 0 is 20 ms (on a loaded machine a thread may do nothing in it);
 * pass 1 lasts until each thread has done 20 I/Os in it.
 */
static void busy_case(const char *what, enum cdm_dir dir, unsigned int q, uint64_t rate,
		      unsigned int fsync_every, unsigned int first, unsigned int every, int code)
{
	const unsigned int t = 2, count = 2;
	uint64_t busy_w = 0, busy_e = 0, ios_all = 0, reaped = 0;
	struct crew c;

	crew_init(&c, dir, q, t, 100000, count);
	if (fsync_every)
		crew_file(&c);
	c.sh->fsync_every = fsync_every;
	c.sh->pace_ps = rate ? 1000000000000ull / rate : 0;
	eng.busy_first = first;
	eng.busy_every = every;
	eng.busy_code = code;
	crew_go_open(&c, 10 * MS, 20 * MS);
	crew_end(&c, 20, q);
	for (unsigned int i = 0; i < t; i++) {
		const struct elog *l = &eng.log[i];
		uint64_t ios = 0, fsyncs = 0;

		for (unsigned int k = 0; k < count; k++) {
			ios += c.w[i].passes[k].ios;
			fsyncs += c.w[i].passes[k].fsyncs;
		}
		assert_true(c.w[i].passes[count - 1].ios >= 20);
		print_message("%s: thread %u: %" PRIu64 " busy answers, %" PRIu64 " I/Os counted, %"
			      PRIu64 " fdatasyncs\n", what, i, c.w[i].busy, ios, fsyncs);
		/* (the engine's logs are in the order of init(), not of the workers) */
		assert_int_equal(c.w[i].error, 0);
		assert_true(l->busy > 0);
		assert_true(l->max_outstanding <= q);
		assert_int_equal(c.w[i].hist.count, ios);
		busy_w += c.w[i].busy;
		busy_e += l->busy;
		ios_all += ios;
		reaped += l->reaped;
		if (fsync_every)
			fsync_check(ios, fsyncs, fsync_every);
	}
	assert_int_equal(busy_w, busy_e);       /* every busy answer seen and counted */
	assert_true(ios_all <= reaped);
	eng.busy_first = eng.busy_every = 0;
	crew_free(&c);
}

static void test_engine_busy(void **state)
{
	(void)state;
	guard();
	busy_case("refill, CDM_Q_BUSY", CDM_DIR_READ, 4, 0, 0, 0, 3, CDM_Q_BUSY);
	busy_case("first fill, -EAGAIN", CDM_DIR_READ, 4, 0, 0, 6, 0, -EAGAIN);
	busy_case("first fill and refill, -EBUSY", CDM_DIR_MIX, 8, 0, 0, 3, 4, -EBUSY);
	busy_case("after fsync, CDM_Q_BUSY", CDM_DIR_WRITE, 4, 0, 2, 1, 3, CDM_Q_BUSY);
	busy_case("after fsync N > Q, -EAGAIN", CDM_DIR_WRITE, 2, 0, 8, 1, 2, -EAGAIN);
	busy_case("rate pacing, CDM_Q_BUSY", CDM_DIR_READ, 4, 4000, 0, 2, 3, CDM_Q_BUSY);
	busy_case("rate pacing and fsync, -EBUSY", CDM_DIR_WRITE, 4, 4000, 2, 2, 2, -EBUSY);
}

/* ---- thread creation that fails (linked with -Wl,--wrap=pthread_create) ---- */

int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);

static atomic_uint create_fail_at;      /* this creation (1-based) fails; 0: none */
static atomic_uint creates;

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	unsigned int at = atomic_load(&create_fail_at);

	if (at && atomic_fetch_add(&creates, 1) + 1 == at)
		return EAGAIN;
	return __real_pthread_create(t, a, fn, arg);
}

/* threads of this process now (/proc/self/task) */
static unsigned int task_count(void)
{
	struct stat st;

	assert_int_equal(stat("/proc/self/task", &st), 0);
	return (unsigned int)st.st_nlink - 2;
}

/*
 * Thread k of T cannot be created (EAGAIN, as at RLIMIT_NPROC): for every
 * k, cdm_worker_start() returns at once (alarm() ends a hang) with the
 * error naming k, the k - 1 threads already started never set up an
 * engine, and every one of them was joined (the thread count is back to
 * what it was).  Then a start with every thread works, with the same
 * shared state: nothing was left behind.
 */
static void test_create_fails(void **state)
{
	const unsigned int t = 4;
	char want[256];
	struct crew c;

	(void)state;
	guard();
	for (unsigned int k = 1; k <= t; k++) {
		struct cdm_err err = { "" };
		unsigned int before = task_count();

		crew_init(&c, CDM_DIR_READ, 2, t, 0, 1);
		atomic_store(&creates, 0);
		atomic_store(&create_fail_at, k);
		assert_int_equal(cdm_worker_start(c.sh, c.w, c.n, &err), -EAGAIN);
		atomic_store(&create_fail_at, 0);
		snprintf(want, sizeof(want), "cannot start worker thread %u of %u: %s (", k, t,
			 strerror(EAGAIN));
		assert_memory_equal(err.msg, want, strlen(want));
		assert_int_equal(atomic_load(&eng.nlogs), 0);   /* no engine was set up */
		assert_int_equal(task_count(), before);
		crew_free(&c);
	}
	/*
	 * and a start that works, after all that: every worker set up its
	 * engine and ended without an error (not that each did I/O in its
	 * 50 ms: a loaded machine left a thread unscheduled for all of it)
	 */
	crew_init(&c, CDM_DIR_READ, 2, t, 0, 1);
	crew_go(&c, 10 * MS, 50 * MS);
	cdm_worker_join(c.sh, c.w, c.n);
	assert_int_equal(atomic_load(&eng.nlogs), t);
	for (unsigned int i = 0; i < t; i++) {
		assert_int_equal(c.w[i].error, 0);
		assert_true(c.w[i].stopped_ns >= c.sh->bounds[2]);
	}
	crew_free(&c);
}

static void test_buffer_bytes(void **state)
{
	(void)state;
	assert_int_equal(cdm_loop_buffer_bytes(1, 4096), 2u << 20);
	assert_int_equal(cdm_loop_buffer_bytes(512, 4096), 2u << 20);
	assert_int_equal(cdm_loop_buffer_bytes(513, 4096), 4u << 20);
	assert_int_equal(cdm_loop_buffer_bytes(8, 1u << 20), 8u << 20);
	assert_int_equal(cdm_loop_buffer_bytes(3, 1u << 20), 4u << 20);
}


/*
 * Gated: a window published with a start already past (a late runner, or
 * workers woken late) is moved as a whole to when the last worker runs
 * again (worker.h, cdm_worker_gate_next()), as the first one is.
 */
static void test_gated_late_window(void **state)
{
	struct cdm_err err = { "" };
	uint64_t now, before;
	struct crew c;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, 4, 2, 2 * MS, 2);
	c.sh->gated = 1;
	c.sh->gate_win = 1;
	assert_int_equal(cdm_worker_start(c.sh, c.w, c.n, &err), 0);
	now = cdm_clock_now_ns();
	c.sh->bounds[0] = c.sh->bounds[1] = now;
	c.sh->bounds[2] = now + 20 * MS;
	cdm_worker_go(c.sh);
	assert_true(cdm_worker_gate_wait(c.sh, c.n, cdm_clock_now_ns() + 60000 * MS));
	before = cdm_clock_now_ns();
	cdm_worker_gate_next(c.sh, before - 1000 * MS, before - 1000 * MS + 20 * MS);
	assert_true(cdm_worker_gate_wait(c.sh, c.n, cdm_clock_now_ns() + 60000 * MS));
	assert_true(c.sh->bounds[2] >= before);
	assert_int_equal(c.sh->bounds[3] - c.sh->bounds[2], 20 * MS);
	for (unsigned int i = 0; i < c.n; i++) {
		assert_int_equal(c.w[i].error, 0);
		assert_true(c.w[i].win_end_ns >= c.sh->bounds[3]);
	}
	cdm_worker_gate_end(c.sh);
	cdm_worker_join(c.sh, c.w, c.n);
	crew_free(&c);
}

/*
 * The pass gate (worker.h, --end-fsync and --steady-state): each window
 * runs to its end, then every worker drains and parks.  At each gate
 * nothing is in flight at the engine, every worker finished after its
 * window's end and has not stopped for good, and every I/O the engine
 * completed so far is counted in a pass: the ones drained after a
 * window's end count in that window; the warm-up's (window 0, when there
 * is one) in none.  Runs on the plain and the paced (--rate-iops) loops,
 * with and without a warm-up.
 */
static void gated_case(uint64_t rate, int warm)
{
	const unsigned int q = 4, t = 2, count = 3;
	struct cdm_err err = { "" };
	struct crew c;
	uint64_t now, warm_ios = 0;

	crew_init(&c, CDM_DIR_READ, q, t, 2 * MS, count);
	c.sh->gated = 1;
	c.sh->gate_win = warm ? 0 : 1;
	c.sh->pace_ps = rate ? 1000000000000ull / rate : 0;
	assert_int_equal(cdm_worker_start(c.sh, c.w, c.n, &err), 0);
	now = cdm_clock_now_ns();
	c.sh->bounds[0] = now;
	c.sh->bounds[1] = now + (warm ? 50 * MS : 0);
	c.sh->bounds[2] = c.sh->bounds[1] + 100 * MS;
	cdm_worker_go(c.sh);
	if (warm) {
		/* the warm-up parks at the gate too; its I/Os count nowhere */
		assert_true(cdm_worker_gate_wait(c.sh, t, cdm_clock_now_ns() + 60000 * MS));
		for (unsigned int i = 0; i < t; i++) {
			assert_int_equal(eng.log[i].outstanding, 0);
			assert_int_equal(c.w[i].passes[0].ios, 0);
			warm_ios += eng.log[i].reaped;
		}
		assert_true(warm_ios > 0);
		now = cdm_clock_now_ns();
		cdm_worker_gate_next(c.sh, now, now + 100 * MS);
	}
	for (unsigned int win = 1; win <= count; win++) {
		uint64_t reaped = 0, counted = warm_ios;

		assert_true(cdm_worker_gate_wait(c.sh, t, cdm_clock_now_ns() + 60000 * MS));
		for (unsigned int i = 0; i < t; i++) {
			assert_int_equal(eng.log[i].outstanding, 0);
			assert_true(c.w[i].win_end_ns >= c.sh->bounds[win + 1]);
			assert_int_equal(c.w[i].stopped_ns, 0);
			assert_int_equal(c.w[i].error, 0);
			assert_true(c.w[i].passes[win - 1].ios > 0);
			reaped += eng.log[i].reaped;
			for (unsigned int k = 0; k < win; k++)
				counted += c.w[i].passes[k].ios;
		}
		print_message("rate %" PRIu64 ", window %u: %" PRIu64 " I/Os completed, %" PRIu64
			      " counted\n", rate, win, reaped, counted);
		assert_int_equal(reaped, counted);
		if (win < count) {
			now = cdm_clock_now_ns();
			cdm_worker_gate_next(c.sh, now, now + 100 * MS);
		}
	}
	cdm_worker_gate_end(c.sh);
	cdm_worker_join(c.sh, c.w, c.n);
	for (unsigned int i = 0; i < t; i++) {
		uint64_t ios = 0;

		for (unsigned int k = 0; k < count; k++)
			ios += c.w[i].passes[k].ios;
		assert_int_equal(c.w[i].hist.count, ios);
		assert_true(c.w[i].stopped_ns != 0);    /* stopped for good once the test ended */
	}
	crew_free(&c);
}

static void test_gated_windows(void **state)
{
	(void)state;
	guard();
	gated_case(0, 0);
	gated_case(4000, 0);
	gated_case(0, 1);
	gated_case(4000, 1);
}

/*
 * A stop request while the workers are parked at the gate (the runner's
 * cdm_worker_gate_end() on a signal) releases them and they return: the
 * join comes back, and nothing ran after the gate.
 */
static void test_gate_stop_parked(void **state)
{
	const unsigned int t = 2;
	struct cdm_err err = { "" };
	struct crew c;
	uint64_t now;

	(void)state;
	guard();
	crew_init(&c, CDM_DIR_READ, 4, t, 2 * MS, 3);
	c.sh->gated = 1;
	c.sh->gate_win = 1;
	assert_int_equal(cdm_worker_start(c.sh, c.w, c.n, &err), 0);
	now = cdm_clock_now_ns();
	c.sh->bounds[0] = c.sh->bounds[1] = now;
	c.sh->bounds[2] = now + 50 * MS;
	cdm_worker_go(c.sh);
	assert_true(cdm_worker_gate_wait(c.sh, t, cdm_clock_now_ns() + 60000 * MS));
	atomic_store(&c.stop, 1);
	cdm_worker_gate_end(c.sh);
	cdm_worker_join(c.sh, c.w, c.n);
	for (unsigned int i = 0; i < t; i++) {
		assert_true(c.w[i].passes[0].ios > 0);
		assert_int_equal(c.w[i].passes[1].ios, 0);
		assert_true(c.w[i].stopped_ns != 0);
	}
	crew_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffer_bytes),
		cmocka_unit_test(test_depth_in_flight),
		cmocka_unit_test(test_pass_windows),
		cmocka_unit_test(test_fsync_cadence),
		cmocka_unit_test(test_fsync_cadence_paced),
		cmocka_unit_test(test_stop_on_io_error),
		cmocka_unit_test(test_stop_on_engine_error),
		cmocka_unit_test(test_init_failure),
		cmocka_unit_test(test_late_start),
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_pin_fails),
		cmocka_unit_test(test_stop_on_request),
		cmocka_unit_test(test_create_fails),
		cmocka_unit_test(test_engine_busy),
		cmocka_unit_test(test_gated_windows),
		cmocka_unit_test(test_gated_late_window),
		cmocka_unit_test(test_gate_stop_parked),
	};

	eng.null = cdm_engine_find("null", NULL);
	if (!eng.null) {
		fprintf(stderr, "test_worker: the null engine is not built in\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
