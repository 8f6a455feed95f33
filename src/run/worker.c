/* SPDX-License-Identifier: MIT */
/*
 * worker.c - one worker thread: keeps Q I/Os in flight through its engine
 * for the whole test (warm-up and every pass back to back), timestamps
 * them, and counts each completion in the pass during which it completed;
 * or, on the gated schedule (--end-fsync, --steady-state: worker.h), one
 * window at a time, drained into that window, parked between two.
 * Also the start, release and join of the T threads of one test (worker.h
 * has their life).
 *
 * This is the hot path.  Per batch of completions it reads the clock twice
 * (after reap: completion time of the batch; before commit: submit time of
 * the I/Os just queued), checks the schedule once and the stop flag once.
 * Per I/O it only picks an offset, stamps write data, and adds the latency
 * to the thread's own histogram: no locks, no allocation, no system call
 * except the engine's one per batch.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/prng.h"
#include "cdm/base/size.h"
#include "cdm/model/stamp.h"
#include "cdm/plan/limits.h"
#include "cdm/target/numa.h"
#include "worker.h"

#define HUGE_2M (2 * CDM_MIB)

struct wstate {
	struct cdm_worker *w;
	struct cdm_test_shared *sh;
	struct cdm_engine_ctx ctx;
	struct cdm_io *slots;
	struct cdm_io **out;
	struct cdm_io **park;           /* --fsync: I/Os held back until the sync */
	struct cdm_io **held;           /* prepared, refused as busy: queued after a reap */
	unsigned int nheld;
	uint64_t busy_since;            /* busy with nothing in flight since (ns); 0: not */
	uint8_t *region;
	size_t region_len;
	uint64_t rng;                   /* cdm_prng_next() state: offsets, Mix choices */
	uint64_t data_rng;              /* ... write data and stamp keys: never --seed's */
	uint64_t write_seq;             /* writes started (model/stamp.h's seq) */
	int64_t *vslot;                 /* --verify, per I/O slot: the write's record slot ... */
	uint64_t *vseq;                 /* ... and its seq; both NULL without --verify */
	uint64_t read_below;            /* Mix: an I/O reads when a draw is < this */
	unsigned int writes_since;      /* --fsync: writes completed since the last one */
	uint64_t pace_base;             /* --rate-iops: start of the schedule (ns) ... */
	uint64_t paced;                 /* ... and I/Os started on it since */
	unsigned int win;               /* current window (0 = warm-up) */
	uint64_t next_bound;            /* bounds[win + 1]; gated: never (UINT64_MAX) */
	uint64_t stop_at;               /* stop issuing: bounds[count + 1]; gated: bounds[win + 1] */
	struct cdm_series_slot *cur;    /* --log-interval slot of now, or NULL */
	uint64_t slot_end;              /* when cur ends (<= next_bound) */
	uint64_t cpu_at[CDM_MAX_PASSES + 2]; /* thread CPU at each boundary */
	uint64_t sys_at[CDM_MAX_PASSES + 2];
};

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

static void thread_cpu(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		*user = tv_ns(&ru.ru_utime);
		*sys = tv_ns(&ru.ru_stime);
	}
}

/*
 * Make every 512-byte sector of a write unique and every byte of it new
 * (model/stamp.h): storage that deduplicates or compresses cannot shorten
 * the work, however often the buffer is reused.
 */
static inline void stamp_write(struct wstate *s, struct cdm_io *io)
{
	uint64_t seq = cdm_stamp_seq(s->w->id, ++s->write_seq);

	if (s->vseq)
		s->vseq[io->slot] = seq;
	cdm_stamp_write(io->buf, io->len, io->offset, seq, cdm_prng_next(&s->data_rng));
}

/*
 * --verify: block @blk is where the write in @io goes unless a write is
 * in flight on it; then another is drawn as the test draws them (the
 * next of the sequential stream; a random one, and after 8 draws the
 * next block up, so a nearly full file cannot keep it drawing).  The
 * file has more blocks than T x Q (cdm_verify_check_plan()), so one is
 * always free.  Returns the block the write takes.
 */
static uint64_t verify_claim(struct wstate *s, struct cdm_io *io, uint64_t blk)
{
	struct cdm_test_shared *sh = s->sh;
	unsigned int tries = 0;
	int64_t slot;

	s->w->verify_writes++;
	while ((slot = cdm_verify_claim(sh->verify, blk)) == CDM_VERIFY_IN_FLIGHT) {
		s->w->verify_redrawn += !tries;         /* writes, not draws */
		if (sh->spec.pattern == CDM_SEQ)
			blk = atomic_fetch_add_explicit(&sh->seq_next, 1, memory_order_relaxed) %
			      sh->nblocks;
		else if (tries < 8)
			blk = cdm_prng_below(&s->rng, sh->nblocks);
		else
			blk = (blk + 1) % sh->nblocks;
		tries++;
	}
	s->vslot[io->slot] = slot;
	return blk;
}

static inline void prep_io(struct wstate *s, struct cdm_io *io)
{
	struct cdm_test_shared *sh = s->sh;
	uint64_t blk;

	if (sh->spec.pattern == CDM_SEQ)
		blk = atomic_fetch_add_explicit(&sh->seq_next, 1, memory_order_relaxed) %
		      sh->nblocks;
	else
		blk = cdm_prng_below(&s->rng, sh->nblocks);
	/* Mix: one draw per I/O, a read with probability (100 - W) % */
	if (sh->dir == CDM_DIR_MIX)
		io->op = cdm_prng_next(&s->rng) < s->read_below ? CDM_IO_READ : CDM_IO_WRITE;
	if (sh->verify && io->op == CDM_IO_WRITE)
		blk = verify_claim(s, io, blk);
	io->offset = blk * sh->spec.block;
	if (io->op == CDM_IO_WRITE) {
		s->writes_since++;      /* --fsync counts writes started */
		if (!sh->zero_fill)
			stamp_write(s, io);
	}
}

/* --log-interval: the slot of the interval holding @now (once an interval) */
static void series_seek(struct wstate *s, uint64_t now)
{
	const struct cdm_test_shared *sh = s->sh;
	uint64_t i;

	s->cur = NULL;
	s->slot_end = s->next_bound;
	if (!s->w->series || s->win > sh->count || !sh->series_n[s->win])
		return;
	i = (now - sh->bounds[s->win]) / sh->series_ns;
	if (i >= sh->series_n[s->win])
		i = sh->series_n[s->win] - 1;
	s->cur = &s->w->series[sh->series_base[s->win] + i];
	if (sh->bounds[s->win] + (i + 1) * sh->series_ns < s->slot_end)
		s->slot_end = sh->bounds[s->win] + (i + 1) * sh->series_ns;
}

/* advance the window to the one holding @now; note CPU at each boundary */
static inline void advance(struct wstate *s, uint64_t now)
{
	while (s->win <= s->sh->count && now >= s->next_bound) {
		s->win++;
		thread_cpu(&s->cpu_at[s->win], &s->sys_at[s->win]);
		/* --rate-iops: each window starts its own schedule (pace_due) */
		s->pace_base = s->sh->bounds[s->win];
		s->paced = 0;
		s->next_bound = s->win <= s->sh->count ? s->sh->bounds[s->win + 1] : UINT64_MAX;
	}
	if (now >= s->slot_end)
		series_seek(s, now);
}

/*
 * An error (-errno) of an I/O or of an engine call: the worker's first is
 * the one it reports, and any error ends the test for every worker of it
 * (sh->failed), since its figures would be incomplete.  Returns 1 when
 * @err is the worker's first error.
 */
static int fail(struct wstate *s, int err)
{
	int first = !s->w->error;

	if (first)
		s->w->error = err;
	atomic_store_explicit(&s->sh->failed, 1, memory_order_relaxed);
	return first;
}

/*
 * An I/O submitted at @sub that completes only now, in window s->win, was
 * in flight at the end of each pass that ended meanwhile (pass k ends at
 * bounds[k + 2]): keep, per pass, the longest it had waited by then, which
 * says why a pass in which nothing completed measured nothing.  Rare: only
 * for I/Os that cross a boundary.
 */
static void note_pending(struct wstate *s, uint64_t sub)
{
	const uint64_t *b = s->sh->bounds;

	for (unsigned int k = s->win; k >= 2 && b[k] > sub; k--) {
		struct cdm_pass *p = &s->w->passes[k - 2];

		if (b[k] - sub > p->pending_max_ns)
			p->pending_max_ns = b[k] - sub;
	}
}

/* count one completion; returns 0, or -errno for a failed/short I/O */
static inline int complete(struct wstate *s, struct cdm_io *io, uint64_t now)
{
	struct cdm_worker *w = s->w;

	if (io->submit_ns < s->sh->bounds[s->win])
		note_pending(s, io->submit_ns);

	if (io->result != (int64_t)io->len) {
		if (fail(s, io->result < 0 ? (int)io->result : -EIO)) {
			w->short_io = io->result >= 0;
			w->error_offset = io->offset;
		}
		return -EIO;
	}
	/* --verify: the block's last write is this one (a failed one: unknown) */
	if (s->vslot && io->op == CDM_IO_WRITE && s->vslot[io->slot] >= 0)
		cdm_verify_done(s->sh->verify, s->vslot[io->slot], s->vseq[io->slot]);
	if (s->cur)
		cdm_series_add(s->cur, io->len, now - io->submit_ns);
	if (s->win >= 1 && s->win <= s->sh->count) {
		struct cdm_pass *p = &w->passes[s->win - 1];
		uint64_t lat = now - io->submit_ns;

		p->bytes += io->len;
		p->ios++;
		p->lat_sum_ns += lat;
		if (lat > p->lat_max_ns)
			p->lat_max_ns = lat;
		if (io->op == CDM_IO_READ) {
			p->read_bytes += io->len;
			p->read_ios++;
			p->read_lat_sum_ns += lat;
		}
		cdm_hist_add(&w->hist, lat);
	}
	return 0;
}

/*
 * --fsync N: is an fdatasync() due?  After every N writes a thread has
 * started, it starts nothing more until its I/Os in flight have completed
 * (each timed as usual), then calls fdatasync() on the worker thread, as
 * fio does with fsync=N (it quiesces first).  So the sync covers those N
 * writes, and no write's latency includes it; the sync is timed on its
 * own, and the pass's MB/s and IOPS pay for it, since the thread issues
 * nothing meanwhile.
 */
static inline int fsync_due(const struct wstate *s)
{
	return s->sh->fsync_every && s->writes_since >= s->sh->fsync_every;
}

/* the fdatasync itself, counted in the window in which it returns; 0 or -errno */
static int do_fsync(struct wstate *s)
{
	uint64_t t0, t1;

	s->writes_since = 0;
	t0 = cdm_clock_now_ns();
	if (fdatasync(s->sh->fd) < 0)
		return -errno;
	t1 = cdm_clock_now_ns();
	advance(s, t1);
	if (s->win >= 1 && s->win <= s->sh->count) {
		struct cdm_pass *p = &s->w->passes[s->win - 1];

		p->fsyncs++;
		p->fsync_sum_ns += t1 - t0;
		if (t1 - t0 > p->fsync_max_ns)
			p->fsync_max_ns = t1 - t0;
	}
	return 0;
}

/*
 * --rate-iops: when this thread's next I/O is due.  The total rate R is
 * spread evenly: each of the T threads issues R / T I/Os per second, on an
 * absolute schedule from the start of the window (the warm-up, then each
 * pass), thread i offset by i / R seconds so that the threads' I/Os
 * interleave.  An I/O issued late (the thread was waiting for a completion)
 * does not move the schedule, so the rate averages out over the window as
 * long as the device keeps up; a lag is not carried into the next window,
 * so a slow warm-up cannot make a pass exceed the rate.
 */
static inline uint64_t pace_due(const struct wstate *s)
{
	const struct cdm_test_shared *sh = s->sh;
	uint64_t k = s->paced * sh->spec.threads + s->w->id;

	/* k x 1e9 / R exactly in 64 bits: R <= 10^8 (--rate-iops), (k mod R) x 1e9 < 2^64 */
	return s->pace_base + k / sh->rate_iops * 1000000000u +
	       k % sh->rate_iops * 1000000000u / sh->rate_iops;
}

static inline int stop_now(struct wstate *s, uint64_t now)
{
	return now >= s->stop_at ||
	       atomic_load_explicit(s->sh->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&s->sh->failed, memory_order_relaxed) ||
	       s->w->error;
}

/* stop starting I/O: from @now on the worker only reaps (stopped_ns: the runner's end) */
static inline void stop_issuing(struct wstate *s, int *stopping, uint64_t now)
{
	*stopping = 1;
	__atomic_store_n(&s->w->stopped_ns, now, __ATOMIC_RELEASE);
}

/*
 * Sleep until @until (CLOCK_MONOTONIC ns) in steps of at most 100 ms, so a
 * stop request or the end of the test is seen within that; never spins.
 * Returns 1 when the worker must stop, else 0.  *@now is the time after.
 */
static int pace_wait(struct wstate *s, uint64_t until, uint64_t *now)
{
	uint64_t t = cdm_clock_now_ns();

	for (;;) {
		advance(s, t);
		if (stop_now(s, t)) {
			*now = t;
			return 1;
		}
		if (t >= until)
			break;
		{
			uint64_t to = until - t > 100000000ull ? t + 100000000ull : until;
			struct timespec ts = {
				.tv_sec = (time_t)(to / 1000000000ull),
				.tv_nsec = (long)(to % 1000000000ull),
			};

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
		t = cdm_clock_now_ns();
	}
	*now = t;
	return 0;
}

/*
 * The engine answered busy (CDM_Q_BUSY, -EAGAIN, -EBUSY: no room until
 * completions are reaped; ops.h)?  Any other answer but the one its flags
 * promise is a broken engine (-EPROTO), and an error is an error.
 */
static inline int is_busy(int r)
{
	return r == CDM_Q_BUSY || r == -EAGAIN || r == -EBUSY;
}

/*
 * Queue the prepared @io for the next commit (queue-and-reap engines): the
 * one way every place of the worker starts an I/O.  When the engine is
 * busy the I/O is held (s->held) and queued again by retry_held() after
 * the next reap, as the engine contract asks.  Returns 1 when queued (put
 * in s->out[(*nq)++]), 0 when held, or -errno.
 */
static inline int submit(struct wstate *s, struct cdm_io *io, unsigned int *nq)
{
	int r = s->sh->engine->queue(&s->ctx, io);

	if (r == CDM_Q_QUEUED) {
		s->out[(*nq)++] = io;
		s->busy_since = 0;
		return 1;
	}
	if (!is_busy(r))
		return r < 0 ? r : -EPROTO;
	s->w->busy++;
	s->held[s->nheld++] = io;
	return 0;
}

/* queue the held I/Os again, oldest first; the number queued, or -errno */
static int retry_held(struct wstate *s, unsigned int *nq)
{
	unsigned int n = 0, i;
	int r = 0;

	for (i = 0; i < s->nheld; i++) {
		r = s->sh->engine->queue(&s->ctx, s->held[i]);
		if (r != CDM_Q_QUEUED)
			break;
		s->out[(*nq)++] = s->held[i];
		n++;
	}
	if (n) {
		memmove(s->held, s->held + n, (s->nheld - n) * sizeof(*s->held));
		s->nheld -= n;
		s->busy_since = 0;
	}
	if (i < s->nheld + n && !is_busy(r))
		return r < 0 ? r : -EPROTO;
	if (i < s->nheld + n)
		s->w->busy++;
	return (int)n;
}

/*
 * Busy with nothing in flight: there is no completion to reap, so wait a
 * little (100 us) before the caller asks again.  An engine busy like that
 * for a whole second will not recover: -EBUSY.  Returns 0 or -EBUSY.
 */
static int busy_pause(struct wstate *s)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 100000 };
	uint64_t now = cdm_clock_now_ns();

	if (!s->busy_since)
		s->busy_since = now;
	else if (now - s->busy_since > 1000000000ull)
		return -EBUSY;
	nanosleep(&ts, NULL);
	return 0;
}

/*
 * Nothing in flight and I/Os held: pause (busy_pause()), then queue them
 * again into s->out[*@nq..).  Returns the number queued or -errno.
 */
static int held_again(struct wstate *s, unsigned int *nq)
{
	int r = busy_pause(s);

	return r < 0 ? r : retry_held(s, nq);
}

/* stamp the batch s->out[0..@nq) and start it; 0 or -errno */
static int commit_batch(struct wstate *s, unsigned int nq)
{
	uint64_t now = cdm_clock_now_ns();

	for (unsigned int i = 0; i < nq; i++)
		s->out[i]->submit_ns = now;
	return s->sh->engine->commit(&s->ctx);
}

/*
 * Engines that complete in queue(): one I/O at a time.  The clock is read
 * after the I/O is prepared and right after it completes, so, as with the
 * queue-and-reap engines, the latency covers the system call and the
 * device, not cdm's own preparation (offset, write stamps).
 */
static void run_sync(struct wstate *s)
{
	const struct cdm_engine_ops *ops = s->sh->engine;
	struct cdm_io *io = &s->slots[0];
	uint64_t t = cdm_clock_now_ns(), done = 0;
	int r;

	advance(s, t);
	while (!stop_now(s, t)) {
		if (s->sh->rate_iops) {
			if (pace_wait(s, pace_due(s), &t))
				break;
			s->paced++;
		}
		prep_io(s, io);
		do {
			io->submit_ns = cdm_clock_now_ns();
			r = ops->queue(&s->ctx, io);
			/* busy: nothing to reap in a sync engine, so ask again */
			if (is_busy(r)) {
				s->w->busy++;
				if ((r = busy_pause(s)) == 0)
					r = CDM_Q_BUSY;
			}
		} while (r == CDM_Q_BUSY && !stop_now(s, cdm_clock_now_ns()));
		if (r == CDM_Q_BUSY)
			break;          /* stopped while the engine was busy */
		s->busy_since = 0;
		if (r != CDM_Q_COMPLETED) {
			fail(s, r < 0 ? r : -EPROTO);
			break;
		}
		t = cdm_clock_now_ns();
		advance(s, t);
		if (complete(s, io, t) == 0)
			done += io->len;
		atomic_store_explicit(&s->w->live_bytes, done, memory_order_relaxed);
		if (!s->w->error && fsync_due(s) && (r = do_fsync(s)) < 0)
			fail(s, r);
		t = cdm_clock_now_ns();
	}
	__atomic_store_n(&s->w->stopped_ns, t, __ATOMIC_RELEASE);
}

/*
 * --rate-iops with a queue-and-reap engine: up to Q in flight, each I/O
 * started when its time on the schedule comes (pace_due).  With I/Os in
 * flight the thread blocks in reap() for a completion, so completion
 * times (and latencies) stay exact; an I/O that fell due meanwhile starts
 * right after.  With none in flight it sleeps until the next is due.
 */
static void run_async_paced(struct wstate *s)
{
	const struct cdm_engine_ops *ops = s->sh->engine;
	unsigned int depth = s->ctx.depth, inflight = 0, nfree = depth, nq;
	struct cdm_io **freel = calloc(depth, sizeof(*freel));
	uint64_t now = cdm_clock_now_ns(), done = 0;
	int r, n, stopping = 0;

	if (!freel) {
		fail(s, -ENOMEM);
		__atomic_store_n(&s->w->stopped_ns, now, __ATOMIC_RELEASE);
		return;
	}
	for (unsigned int i = 0; i < depth; i++)
		freel[i] = &s->slots[depth - 1 - i];
	/* one timer slack of 50 us would be a quarter of a 5000 IOPS step */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (;;) {
		advance(s, now);
		if (!stopping && stop_now(s, now))
			stop_issuing(s, &stopping, now);
		nq = 0;
		if (stopping) {
			while (s->nheld)        /* never started: free again */
				freel[nfree++] = s->held[--s->nheld];
		} else if (s->nheld && (r = retry_held(s, &nq)) < 0) {
			fail(s, r);
			stop_issuing(s, &stopping, now);
		}
		while (!stopping && !s->nheld && nfree && !fsync_due(s) && pace_due(s) <= now) {
			struct cdm_io *io = freel[--nfree];

			prep_io(s, io);
			s->paced++;     /* its place on the schedule, even if held */
			r = submit(s, io, &nq);
			if (r < 0) {
				fail(s, r);
				stop_issuing(s, &stopping, now);
				freel[nfree++] = io;
				break;
			}
		}
		if (nq) {
			r = commit_batch(s, nq);
			now = s->out[0]->submit_ns;
			if (r < 0) {
				fail(s, r);
				break;
			}
			inflight += nq;
		}
		if (!inflight) {
			if (stopping)
				break;
			if (s->nheld) {
				/* busy with nothing in flight: ask again shortly */
				if ((r = busy_pause(s)) < 0) {
					fail(s, r);
					stop_issuing(s, &stopping, now);
				}
				now = cdm_clock_now_ns();
				continue;
			}
			if (fsync_due(s)) {
				/* everything started has completed: sync now */
				if ((r = do_fsync(s)) < 0) {
					fail(s, r);
					break;
				}
				now = cdm_clock_now_ns();
				continue;
			}
			/* nothing in flight: sleep until the next I/O is due */
			if (pace_wait(s, pace_due(s), &now)) {
				stop_issuing(s, &stopping, now);
				break;
			}
			continue;
		}
		n = ops->reap(&s->ctx, 1, s->sh->batch < depth ? s->sh->batch : depth, s->out);
		if (n < 0) {
			fail(s, n);
			break;
		}
		now = cdm_clock_now_ns();
		advance(s, now);
		for (int i = 0; i < n; i++) {
			struct cdm_io *io = s->out[i];

			inflight--;
			if (complete(s, io, now) == 0)
				done += io->len;
			else if (!stopping)
				stop_issuing(s, &stopping, now);
			freel[nfree++] = io;
		}
		atomic_store_explicit(&s->w->live_bytes, done, memory_order_relaxed);
		now = cdm_clock_now_ns();
	}
	if (!stopping)
		__atomic_store_n(&s->w->stopped_ns, cdm_clock_now_ns(), __ATOMIC_RELEASE);
	free(freel);
}

/*
 * --fsync with Q in flight (run_async): start the @nq I/Os queued before
 * the sync fell due, wait for everything in flight, parking each I/O as
 * it completes, fdatasync, then queue parked I/Os again (left in
 * s->out[0..*nq) for the caller to stamp and commit) while the next sync
 * is not due: with N < Q only N writes restart, the rest stay parked
 * until the next sync.  Returns 0 or -errno.
 */
static int quiesce_and_sync(struct wstate *s, unsigned int *inflight, unsigned int *nq,
			    unsigned int *npark, uint64_t *done)
{
	const struct cdm_engine_ops *ops = s->sh->engine;
	unsigned int depth = s->ctx.depth;
	uint64_t now;
	int r, n;

	if (*nq) {
		if ((r = commit_batch(s, *nq)) < 0)
			return r;
		*nq = 0;
	}
	/* the held writes count among the N: started and completed before the sync */
	while (*inflight || s->nheld) {
		if (s->nheld) {
			unsigned int k = 0;

			if ((r = retry_held(s, &k)) < 0)
				return r;
			if (k && (r = commit_batch(s, k)) < 0)
				return r;
			*inflight += k;
			if (!*inflight) {
				if ((r = busy_pause(s)) < 0)
					return r;
				continue;
			}
		}
		n = ops->reap(&s->ctx, 1, depth, s->out);
		if (n < 0)
			return n;
		now = cdm_clock_now_ns();
		advance(s, now);
		for (int i = 0; i < n; i++) {
			(*inflight)--;
			if (complete(s, s->out[i], now) < 0)
				return -EIO;
			*done += s->out[i]->len;
			s->park[(*npark)++] = s->out[i];
		}
	}
	if ((r = do_fsync(s)) < 0)
		return r;
	now = cdm_clock_now_ns();
	if (stop_now(s, now))
		return 0;       /* the caller sees the end on its next reap */
	while (*npark && !fsync_due(s)) {
		struct cdm_io *io = s->park[--(*npark)];

		prep_io(s, io);
		if ((r = submit(s, io, nq)) < 0)
			return r;
		*inflight += (unsigned int)r;
	}
	return 0;
}

/* queue-and-reap engines: Q in flight, batched submit and completion */
static void run_async(struct wstate *s)
{
	const struct cdm_engine_ops *ops = s->sh->engine;
	unsigned int depth = s->ctx.depth, inflight = 0, nq = 0, npark = 0;
	uint64_t now, done = 0;
	int r, stopping = 0;

	for (unsigned int i = 0; i < depth; i++) {
		if (fsync_due(s)) {
			s->park[npark++] = &s->slots[i];
			continue;
		}
		prep_io(s, &s->slots[i]);
		if ((r = submit(s, &s->slots[i], &nq)) < 0) {
			fail(s, r);
			break;
		}
	}
	now = cdm_clock_now_ns();
	inflight = nq;
	if (nq && (r = commit_batch(s, nq)) < 0) {
		if (fail(s, r))
			s->w->error_offset = s->out[0]->offset;  /* first of the batch refused */
		__atomic_store_n(&s->w->stopped_ns, now, __ATOMIC_RELEASE);
		return;         /* nothing was started */
	}
	if (s->w->error)
		s->nheld = 0;
	advance(s, now);
	while (inflight || s->nheld) {
		int n = 0;

		if (!inflight) {
			/* everything refused as busy, nothing to reap: ask again shortly */
			now = cdm_clock_now_ns();
			advance(s, now);
			nq = 0;
			r = stop_now(s, now) ? -EINTR : held_again(s, &nq);
			if (r < 0) {
				if (r != -EINTR)
					fail(s, r);
				stop_issuing(s, &stopping, now);
				s->nheld = 0;
				break;
			}
			inflight += (unsigned int)r;
			goto commit;
		}
		n = ops->reap(&s->ctx, 1, s->sh->batch < depth ? s->sh->batch : depth, s->out);

		if (n < 0) {
			fail(s, n);
			/* the engine can no longer tell what completed */
			break;
		}
		now = cdm_clock_now_ns();
		advance(s, now);
		if (!stopping && stop_now(s, now))
			stop_issuing(s, &stopping, now);
		nq = 0;
		for (int i = 0; i < n; i++) {
			struct cdm_io *io = s->out[i];

			inflight--;
			if (complete(s, io, now) == 0)
				done += io->len;
			else if (!stopping)
				stop_issuing(s, &stopping, now);
			if (stopping)
				continue;
			if (fsync_due(s)) {
				s->park[npark++] = io;  /* restarted after the sync */
				continue;
			}
			prep_io(s, io);
			r = submit(s, io, &nq);
			if (r < 0) {
				fail(s, r);
				stop_issuing(s, &stopping, now);
				continue;
			}
			inflight += (unsigned int)r;
		}
		/* after the loop: out[0..n) is read, and the reap made room */
		if (stopping) {
			s->nheld = 0;   /* never started */
		} else if (s->nheld) {
			r = retry_held(s, &nq);
			if (r < 0) {
				fail(s, r);
				stop_issuing(s, &stopping, now);
				s->nheld = 0;
			} else {
				inflight += (unsigned int)r;
			}
		}
		if (!stopping && fsync_due(s)) {
			r = quiesce_and_sync(s, &inflight, &nq, &npark, &done);
			if (r < 0) {
				fail(s, r);
				stopping = 1;
				__atomic_store_n(&s->w->stopped_ns, cdm_clock_now_ns(), __ATOMIC_RELEASE);
			}
		}
commit:
		if (nq && (r = commit_batch(s, nq)) < 0) {
			if (fail(s, r))
				s->w->error_offset = s->out[0]->offset;
			break;
		}
		atomic_store_explicit(&s->w->live_bytes, done, memory_order_relaxed);
	}
	if (!stopping)
		__atomic_store_n(&s->w->stopped_ns, cdm_clock_now_ns(), __ATOMIC_RELEASE);
}

uint64_t cdm_worker_buffer_bytes(unsigned int qd, uint64_t block)
{
	return ((uint64_t)qd * block + HUGE_2M - 1) & ~(HUGE_2M - 1);
}

static int setup(struct wstate *s)
{
	struct cdm_test_shared *sh = s->sh;
	struct cdm_engine_params p;
	unsigned int q = sh->spec.qd;
	int r;

	/*
	 * One contiguous region per worker, rounded up to the 2 MiB huge page
	 * size and advised as huge BEFORE it is touched, so that the first
	 * touch faults in huge pages: much faster than a buffer per slot for
	 * large blocks (docs/performance.md), and a 1 MiB block is then
	 * one physically contiguous segment instead of 256 pages (more than a
	 * virtio disk's 254 segments per request).  Every byte is touched now,
	 * so reads do not fault pages in while being timed.
	 */
	/* more than the address space (a 32-bit build): the runner refuses it first */
	if (cdm_worker_buffer_bytes(q, sh->spec.block) > SIZE_MAX - HUGE_2M)
		return -ENOMEM;
	s->region_len = (size_t)cdm_worker_buffer_bytes(q, sh->spec.block);
	s->region = mmap(NULL, s->region_len + HUGE_2M, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->region == MAP_FAILED) {
		s->region = NULL;
		return -ENOMEM;
	}
	{
		/* align to 2 MiB so the region can be backed by huge pages */
		uintptr_t base = (uintptr_t)s->region;
		uintptr_t aligned = (base + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1);

		if (aligned > base)
			munmap(s->region, aligned - base);
		if (aligned + s->region_len < base + s->region_len + HUGE_2M)
			munmap((void *)(aligned + s->region_len),
			       base + s->region_len + HUGE_2M - (aligned + s->region_len));
		s->region = (uint8_t *)aligned;
	}
	madvise(s->region, s->region_len, MADV_HUGEPAGE);
	if (sh->dir != CDM_DIR_READ && !sh->zero_fill)
		cdm_prng_fill((uint64_t *)s->region, s->region_len / 8, &s->data_rng);
	else
		memset(s->region, 0, s->region_len);
	s->slots = calloc(q, sizeof(*s->slots));
	s->out = calloc(q, sizeof(*s->out));
	s->park = calloc(q, sizeof(*s->park));
	s->held = calloc(q, sizeof(*s->held));
	if (!s->slots || !s->out || !s->park || !s->held)
		return -ENOMEM;
	if (sh->verify) {
		s->vslot = calloc(q, sizeof(*s->vslot));
		s->vseq = calloc(q, sizeof(*s->vseq));
		if (!s->vslot || !s->vseq)
			return -ENOMEM;
	}
	for (unsigned int i = 0; i < q; i++) {
		s->slots[i].buf = s->region + (size_t)i * sh->spec.block;
		s->slots[i].len = (uint32_t)sh->spec.block;
		s->slots[i].op = sh->dir == CDM_DIR_WRITE ? CDM_IO_WRITE : CDM_IO_READ;
		s->slots[i].slot = i;
	}
	memset(&p, 0, sizeof(p));
	p.fd = sh->fd;
	p.depth = q;
	p.direct = sh->direct;
	p.buf_base = s->region;
	p.buf_len = s->region_len;
	p.null_device = sh->null_device;
	p.options = sh->engine_options;
	s->ctx.ops = sh->engine;
	s->ctx.fd = sh->fd;
	s->ctx.depth = q;
	r = sh->engine->init(&s->ctx, &p);
	if (r < 0)
		return r;
	if (s->ctx.depth < 1 || s->ctx.depth > q)
		s->ctx.depth = 1;
	return 0;
}

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

/* the one loop of the engine's kind, until s->stop_at (or a stop or an error) */
static void run_window(struct wstate *s)
{
	if (s->sh->engine->flags & CDM_ENGINE_SYNC)
		run_sync(s);
	else if (s->sh->rate_iops)
		run_async_paced(s);
	else
		run_async(s);
}

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
static void run_gated(struct wstate *s)
{
	struct cdm_test_shared *sh = s->sh;
	struct cdm_worker *w = s->w;
	int win = (int)sh->gate_win, r;

	while (win >= 0) {
		uint64_t u0 = 0, s0 = 0, u1 = 0, s1 = 0;
		int last;

		s->win = (unsigned int)win;
		s->next_bound = UINT64_MAX;
		s->stop_at = sh->bounds[win + 1];
		/* --rate-iops: each window starts its own schedule (pace_due) */
		s->pace_base = sh->bounds[win];
		s->paced = 0;
		series_seek(s, sh->bounds[win]);
		thread_cpu(&u0, &s0);
		/* --fsync: a sync the last window's writes made due comes first */
		if (fsync_due(s) && (r = do_fsync(s)) < 0)
			fail(s, r);
		else
			run_window(s);
		thread_cpu(&u1, &s1);
		w->win_end_ns = cdm_clock_now_ns();
		if (win >= 1 && (unsigned int)win <= sh->count) {
			w->passes[win - 1].cpu_user_ns = u1 - u0;
			w->passes[win - 1].cpu_sys_ns = s1 - s0;
		}
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

/* the thread body; @arg is a struct cdm_worker */
static void *worker_main(void *arg)
{
	static const int fault_sigs[] = CDM_FAULT_SIGNALS;
	struct cdm_worker *w = arg;
	struct wstate s;
	sigset_t all;
	void *altstack;
	int r, inited = 0, go;

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
		return NULL;
	altstack = altstack_on();
	memset(&s, 0, sizeof(s));
	s.w = w;
	s.sh = w->sh;
	/*
	 * Per-thread seeds, never zero.  The data's differs in every run and
	 * thread, so that no two runs, ranks or threads write the same bytes
	 * (stamp.h).  The draws' (offsets, Mix choices) is the same in every
	 * run with --seed, for thread i (fio's randseed), else the data's.
	 */
	s.data_rng = (cdm_clock_now_ns() * 0x9E3779B97F4A7C15ull) ^
		     ((uint64_t)(w->id + 1) << 40) ^ (uint64_t)(uintptr_t)w;
	if (!s.data_rng)
		s.data_rng = 1;
	s.rng = s.sh->seed ? cdm_prng_seed(s.sh->seed ^ ((uint64_t)(w->id + 1) << 40)) :
			     cdm_prng_seed(s.data_rng);
	/* Mix: a read when a draw is below (100 - W) % of 2^64 */
	if (s.sh->dir == CDM_DIR_MIX)
		s.read_below = cdm_prng_percent(100 - s.sh->spec.write_pct);

	r = place(w);
	if (r == 0)
		r = setup(&s);
	memcpy(w->note, s.ctx.note, sizeof(w->note));
	w->note[sizeof(w->note) - 1] = '\0';
	if (r < 0) {
		w->error = r;
		w->init_failed = 1;
	} else {
		inited = 1;
		w->depth_run = s.ctx.depth;
		/* --fsync N < Q: a write test never has more than N in flight */
		if (s.sh->fsync_every && s.sh->dir == CDM_DIR_WRITE &&
		    s.sh->fsync_every < w->depth_run) {
			w->depth_run = s.sh->fsync_every;
			w->depth_fsync = 1;
		}
	}
	pthread_mutex_lock(&s.sh->gate);
	s.sh->gate_ready++;
	pthread_cond_broadcast(&s.sh->gate_cv);
	pthread_mutex_unlock(&s.sh->gate);
	/* the state under the gate's mutex, once: GATE_GO or GATE_CANCELLED */
	go = gate_wait(s.sh, GATE_GO) != GATE_CANCELLED;
	if (go)
		gate_run(s.sh);
	if (go && !w->error && s.sh->gated) {
		run_gated(&s);
	} else if (go && !w->error) {
		s.win = 0;
		s.next_bound = s.sh->bounds[1];
		s.stop_at = s.sh->bounds[s.sh->count + 1];
		s.pace_base = s.sh->bounds[0];
		thread_cpu(&s.cpu_at[0], &s.sys_at[0]);
		run_window(&s);
		/* CPU of each measured pass whose end boundary was crossed */
		for (unsigned int k = 0; k < s.sh->count && k + 2 <= s.win; k++) {
			w->passes[k].cpu_user_ns = s.cpu_at[k + 2] - s.cpu_at[k + 1];
			w->passes[k].cpu_sys_ns = s.sys_at[k + 2] - s.sys_at[k + 1];
		}
	}
	if (inited)
		s.sh->engine->cleanup(&s.ctx);
	free(s.slots);
	free(s.out);
	free(s.park);
	free(s.held);
	free(s.vslot);
	free(s.vseq);
	if (s.region)
		munmap(s.region, s.region_len);
	altstack_off(altstack);
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
