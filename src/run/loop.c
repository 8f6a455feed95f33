/* SPDX-License-Identifier: MIT */
/*
 * loop.c - one worker thread's I/O loop (loop.h): keeps Q I/Os in flight
 * through its engine for the whole test (warm-up and every pass back to
 * back), or for one gated window, timestamps them, and counts each
 * completion in the window during which it completed.  One loop for every
 * engine and schedule: each turn it asks a busy engine again, starts what
 * the schedule allows from the free slots (all of them; one I/O done
 * inside queue() for a sync engine; those due for --rate-iops; none while
 * an --fsync is due), commits the batch, and reaps; with nothing in flight
 * it syncs, sleeps until the next paced start, or pauses for a busy
 * engine instead.
 *
 * This is the hot path.  Per batch of completions it reads the clock twice
 * (after reap: completion time of the batch; before commit: submit time of
 * the I/Os just queued), checks the schedule once and the stop flag once.
 * Per I/O it only picks an offset, stamps write data, and adds the latency
 * to the thread's own histogram: no locks, no allocation, no system call
 * except the engine's one per batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/msec.h"
#include "cdm/base/prng.h"
#include "cdm/base/size.h"
#include "cdm/model/stamp.h"
#include "loop.h"

#define HUGE_2M (2 * CDM_MIB)
#define SEC_NS 1000000000ull

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
static inline void stamp_write(struct cdm_loop *s, struct cdm_io *io)
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
static uint64_t verify_claim(struct cdm_loop *s, struct cdm_io *io, uint64_t blk)
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

static inline void prep_io(struct cdm_loop *s, struct cdm_io *io)
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
static void series_seek(struct cdm_loop *s, uint64_t now)
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
static inline void advance(struct cdm_loop *s, uint64_t now)
{
	while (s->win <= s->sh->count && now >= s->next_bound) {
		s->win++;
		thread_cpu(&s->cpu_at[s->win], &s->sys_at[s->win]);
		/* --rate-iops: each window starts its own schedule (pace_due) */
		s->pace_base = s->sh->bounds[s->win];
		s->paced = 0;
		s->pace_tat = 0;
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
static int fail(struct cdm_loop *s, int err)
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
static void note_pending(struct cdm_loop *s, uint64_t sub)
{
	const uint64_t *b = s->sh->bounds;

	for (unsigned int k = s->win; k >= 2 && b[k] > sub; k--) {
		struct cdm_pass *p = &s->w->passes[k - 2];

		if (b[k] - sub > p->pending_max_ns)
			p->pending_max_ns = b[k] - sub;
	}
}

/* count one completion; returns 0, or -errno for a failed/short I/O */
static inline int complete(struct cdm_loop *s, struct cdm_io *io, uint64_t now)
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
static inline int fsync_due(const struct cdm_loop *s)
{
	return s->sh->fsync_every && s->writes_since >= s->sh->fsync_every;
}

/* the fdatasync itself, counted in the window in which it returns; 0 or -errno */
static int do_fsync(struct cdm_loop *s)
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
 * --rate-iops: this thread's next I/O's time on the schedule.  The total
 * rate R is spread evenly: sh->pace_ps = 10^12 / R ps apart over all
 * threads, so each of the T threads starts one I/O every T x pace_ps, on
 * an absolute schedule from the start of the window (the warm-up, then
 * each pass), thread i offset by i x pace_ps so that the threads' I/Os
 * interleave.  A lag is not carried into the next window, so a slow
 * warm-up cannot make a pass exceed the rate.
 */
static inline uint64_t pace_slot(const struct cdm_loop *s)
{
	uint64_t k = s->paced * s->sh->spec.threads + s->w->id, ps = s->sh->pace_ps;

	/* k x ps / 1000 in 64 bits: a slot is never far past now (k grows only
	 * as slots fall due), so k x (ps / 1000) stays near the window's ns */
	return s->pace_base + k * (ps / 1000) + k * (ps % 1000) / 1000;
}

/*
 * When the next paced I/O may start: at its slot; but when the thread is
 * behind (it waited for a completion, or was not run), the missed slots
 * are not sent at once.  A cell-rate rule (GCRA) lets starts come at no
 * more than twice the thread's rate, half a step apart, with a tolerance
 * of PACE_BURST starts at once: enough to start the few slots that fell
 * due while the thread waited in reap() for a completion, so that a
 * device slower than a step still gets its Q in flight, and never the
 * burst of a long lag (docs/method.md, "Fixed rate"; the bursts of
 * axboe/fio#635 are what this avoids).  s->pace_tat is the rule's
 * theoretical time of the next start.  The rate still averages out over
 * the window while the device keeps up.
 */
#define PACE_BURST 8

static inline uint64_t pace_half(const struct cdm_loop *s)
{
	return s->sh->spec.threads * (s->sh->pace_ps / 2000);
}

static inline uint64_t pace_due(const struct cdm_loop *s)
{
	uint64_t slot = pace_slot(s), tol = (PACE_BURST - 1) * pace_half(s);
	uint64_t next = s->pace_tat > tol ? s->pace_tat - tol : 0;

	return slot > next ? slot : next;
}

/* a paced I/O starts at s->now: the rule's next time; count it late in its pass when it is */
static inline void pace_start(struct cdm_loop *s)
{
	uint64_t slot = pace_slot(s), late = s->now > slot ? s->now - slot : 0;

	s->pace_tat = (s->pace_tat > s->now ? s->pace_tat : s->now) + pace_half(s);
	if (s->win >= 1 && s->win <= s->sh->count) {
		struct cdm_pass *p = &s->w->passes[s->win - 1];

		p->late_known = 1;
		if (late <= s->late_ns)
			return;
		p->late_starts++;
		if (late > p->late_max_ns)
			p->late_max_ns = late;
	}
}

static inline int stop_now(const struct cdm_loop *s, uint64_t now)
{
	return now >= s->stop_at ||
	       atomic_load_explicit(s->sh->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&s->sh->failed, memory_order_relaxed) ||
	       s->w->error;
}

/* stop starting I/O: from s->now on the worker only reaps (stopped_ns: the runner's end) */
static inline void stop_issuing(struct cdm_loop *s)
{
	s->stopping = 1;
	__atomic_store_n(&s->w->stopped_ns, s->now, __ATOMIC_RELEASE);
}

/* an error (-errno) ends the test: the worker's first is kept, and it starts nothing more */
static void give_up(struct cdm_loop *s, int err)
{
	fail(s, err);
	if (!s->stopping)
		stop_issuing(s);
}

/*
 * Sleep until @until (CLOCK_MONOTONIC ns) in steps of at most 100 ms, so a
 * stop request or the end of the test is seen within that; never spins.
 * s->now is the time after.
 */
static void pace_wait(struct cdm_loop *s, uint64_t until)
{
	uint64_t t = cdm_clock_now_ns();

	/* the end of the window or of the test comes first: its own schedule then */
	if (until > s->next_bound)
		until = s->next_bound;
	if (until > s->stop_at)
		until = s->stop_at;
	for (;;) {
		advance(s, t);
		if (t >= until || stop_now(s, t))
			break;
		{
			uint64_t to = until - t > SEC_NS / 10 ? t + SEC_NS / 10 : until;
			struct timespec ts = {
				.tv_sec = (time_t)(to / SEC_NS),
				.tv_nsec = (long)(to % SEC_NS),
			};

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
		t = cdm_clock_now_ns();
	}
	s->now = t;
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

#define BUSY_PAUSE_NS 100000ull         /* busy_pause()'s wait */
#define BUSY_PAUSES (SEC_NS / BUSY_PAUSE_NS) /* ... so many in a row: 1 s at least */

/*
 * The engine takes I/O again, at @now, after a time of busy_pause()s (or
 * the loop ends in one): that time, the longest in each pass it covers,
 * into the worker's w->passes[].busy_ns (the pass's windows: sh->bounds).
 */
static void busy_end(struct cdm_loop *s, uint64_t now)
{
	const uint64_t *b = s->sh->bounds;

	for (unsigned int k = 1; k <= s->sh->count; k++) {
		uint64_t lo = s->busy_since > b[k] ? s->busy_since : b[k];
		uint64_t hi = now < b[k + 1] ? now : b[k + 1];

		if (hi > lo && hi - lo > s->w->passes[k - 1].busy_ns)
			s->w->passes[k - 1].busy_ns = hi - lo;
	}
	s->busy_since = 0;
	s->busy_pauses = 0;
}

/*
 * The one rule for an engine that is busy with nothing of this thread's
 * in flight (ops.h), whichever call said so (queue, commit or reap):
 * there is no completion to wait for, so wait a little (100 us) before
 * the caller asks again.  Busy like that for 10,000 pauses in a row (a
 * second at least; a count, so that a loaded machine that wakes the
 * thread late asks as often before giving up), it will not recover: the
 * test ends with -EBUSY, w->busy_stuck set, so the report says the
 * engine stayed busy, not that an I/O failed.  The time goes into the
 * pass (busy_end()).  0 or -EBUSY.
 */
static int busy_pause(struct cdm_loop *s)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)BUSY_PAUSE_NS };

	if (!s->busy_since) {
		s->busy_since = cdm_clock_now_ns();
	} else if (++s->busy_pauses >= BUSY_PAUSES) {
		uint64_t now = cdm_clock_now_ns();

		if (fail(s, -EBUSY)) {
			s->w->busy_stuck = 1;
			s->w->busy_stuck_ns = now - s->busy_since;
		}
		busy_end(s, now);
		return -EBUSY;
	}
	nanosleep(&ts, NULL);
	return 0;
}

/* @io was prepared but never started: its slot back on the free list, its --verify claim undone */
static void unstart(struct cdm_loop *s, struct cdm_io *io)
{
	if (s->vslot && io->op == CDM_IO_WRITE && s->vslot[io->slot] >= 0)
		cdm_verify_unclaim(s->sh->verify, s->vslot[io->slot]);
	s->freel[s->nfree++] = io;
}

/* count @io, completed at s->now, and put its slot back on the free list */
static inline void finish(struct cdm_loop *s, struct cdm_io *io)
{
	if (complete(s, io, s->now) == 0)
		s->done += io->len;
	else if (!s->stopping)
		stop_issuing(s);
	s->freel[s->nfree++] = io;
}

/*
 * Start the prepared @io: the one way the loop starts an I/O.  A
 * queue-and-reap engine queues it for the next commit (s->out[s->nq++]);
 * a sync engine does it now, timed from just before queue() to just
 * after, so that, as with the others, the latency covers the system call
 * and the device, not cdm's own preparation (offset, write stamps).
 * Busy: @io is held (s->held) and asked again on the next turn, after a
 * reap.  Returns 0 or -errno.
 */
static inline int start(struct cdm_loop *s, struct cdm_io *io)
{
	int r;

	if (s->sync) {
		io->submit_ns = cdm_clock_now_ns();
		/* in flight while queue() does it (the drain watch counts it) */
		atomic_store_explicit(&s->w->live_inflight, 1, memory_order_relaxed);
	}
	r = s->sh->engine->queue(&s->ctx, io);
	if (r == (s->sync ? CDM_Q_COMPLETED : CDM_Q_QUEUED)) {
		if (s->busy_since)
			busy_end(s, cdm_clock_now_ns());
		if (!s->sync) {
			s->out[s->nq++] = io;
			return 0;
		}
		s->now = cdm_clock_now_ns();
		advance(s, s->now);
		finish(s, io);
		return 0;
	}
	if (!is_busy(r))
		return r < 0 ? r : -EPROTO;
	s->w->busy++;
	s->held[s->nheld++] = io;
	return 0;
}

/* ask again for the held I/Os, oldest first, until the engine is busy again; 0 or -errno */
static int start_held(struct cdm_loop *s)
{
	unsigned int n = s->nheld, i;
	int r = 0;

	s->nheld = 0;
	for (i = 0; i < n && !s->nheld; i++)
		if ((r = start(s, s->held[i])) < 0)
			return r;
	/* busy again: what was not asked stays held, after the one refused */
	memmove(s->held + s->nheld, s->held + i, (n - i) * sizeof(*s->held));
	s->nheld += n - i;
	return 0;
}

/*
 * Start I/Os from the free slots while the schedule allows: not stopping,
 * nothing held (the order of the held comes first), no --fsync due (the
 * writes started since the last sync complete first), and with
 * --rate-iops only those due by s->now.  A sync engine does one I/O per
 * turn, so that the stop flag and the schedule are checked between two.
 * Returns 0 or -errno.
 */
static inline int fill(struct cdm_loop *s)
{
	while (!s->stopping && !s->nheld && s->nfree && !fsync_due(s) &&
	       (!s->sh->pace_ps || pace_due(s) <= s->now)) {
		struct cdm_io *io = s->freel[--s->nfree];
		int r;

		prep_io(s, io);
		if (s->sh->pace_ps)
			pace_start(s);
		s->paced++;     /* its place on the schedule, even if held */
		if ((r = start(s, io)) < 0) {
			unstart(s, io);
			return r;
		}
		if (s->sync)
			break;
	}
	return 0;
}

/*
 * Stamp the batch s->out[0..s->nq) and start it; from now on it counts as
 * in flight (s->inflight).  An engine that could start none of it, with
 * nothing of this thread's in flight, answers busy (ops.h) and keeps it
 * queued: its next reap() starts it first, and a reap that is busy again
 * pauses (reap(), busy_pause()), so the one busy rule holds here too.
 * Returns 0, or -errno with the offset of the batch's first I/O.
 */
static int commit(struct cdm_loop *s)
{
	uint64_t now = cdm_clock_now_ns();
	int r;

	for (unsigned int i = 0; i < s->nq; i++)
		s->out[i]->submit_ns = now;
	r = s->sh->engine->commit(&s->ctx);
	if (r < 0 && !is_busy(r)) {
		if (fail(s, r))
			s->w->error_offset = s->out[0]->offset;
		return r;
	}
	if (r < 0)
		s->w->busy++;
	else if (s->busy_since)
		busy_end(s, now);
	s->inflight += s->nq;
	s->nq = 0;
	return 0;
}

/*
 * Wait for completions (at least one; at most --batch, 1 .. Q), count
 * each at the time the wait returned, and free its slot.  A busy answer
 * (the engine could start none of what it had queued, and has nothing in
 * flight: ops.h) pauses instead; the next turn asks again.  None at all,
 * though I/Os are in flight, is a broken engine (-EPROTO): the loop would
 * spin.  Returns 0 or -errno (then the engine can no longer tell what
 * completed).
 */
static int reap(struct cdm_loop *s)
{
	unsigned int depth = s->ctx.depth;
	int n = s->sh->engine->reap(&s->ctx, 1, s->sh->batch < depth ? s->sh->batch : depth,
				    s->out);

	if (n < 0 && is_busy(n)) {
		s->w->busy++;
		return busy_pause(s);
	}
	if (n < 0)
		return n;
	if (n == 0)
		return -EPROTO;
	s->now = cdm_clock_now_ns();
	if (s->busy_since)
		busy_end(s, s->now);
	advance(s, s->now);
	for (int i = 0; i < n; i++)
		finish(s, s->out[i]);
	s->inflight -= (unsigned int)n;
	return 0;
}

/*
 * Nothing in flight: what the loop waits for instead.  Stopping, the
 * loop ends (returns 1).  I/Os held: the engine is busy with nothing to
 * reap, pause before asking again.  An --fsync due: everything started
 * has completed, sync now.  --rate-iops: sleep until the next start is
 * due.  Returns 0 to go on.
 */
static int idle(struct cdm_loop *s)
{
	int r = 0;

	if (s->stopping)
		return 1;
	if (s->nheld || fsync_due(s)) {
		r = s->nheld ? busy_pause(s) : do_fsync(s);
		s->now = cdm_clock_now_ns();
	} else if (s->sh->pace_ps) {
		pace_wait(s, pace_due(s));
	}
	if (r < 0)
		give_up(s, r);
	return 0;
}

/* the loop, from now until the schedule's s->stop_at, a stop request or an error */
static void run(struct cdm_loop *s)
{
	int r;

	s->now = cdm_clock_now_ns();
	s->done = 0;
	s->inflight = 0;
	s->nq = 0;
	s->stopping = 0;
	/* late: more than max(1 ms, 1 / the rate) after its slot */
	s->late_ns = s->sh->pace_ps / 1000 > CDM_MSEC_NS ? s->sh->pace_ps / 1000 : CDM_MSEC_NS;
	/* one timer slack of 50 us would be a quarter of a 5000 IOPS step */
	if (s->sh->pace_ps)
		(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (;;) {
		advance(s, s->now);
		if (!s->stopping && stop_now(s, s->now))
			stop_issuing(s);
		if (s->stopping) {
			while (s->nheld)        /* never started: free again */
				unstart(s, s->held[--s->nheld]);
		} else if ((s->nheld && (r = start_held(s)) < 0) || (r = fill(s)) < 0) {
			give_up(s, r);
		}
		if (s->nq && commit(s) < 0)
			break;
		atomic_store_explicit(&s->w->live_inflight, s->inflight, memory_order_relaxed);
		if (!s->inflight) {
			if (idle(s))
				break;
		} else if ((r = reap(s)) < 0) {
			fail(s, r);
			break;
		}
		atomic_store_explicit(&s->w->live_bytes, s->done, memory_order_relaxed);
	}
	if (s->busy_since)              /* the pass ended while the engine was busy */
		busy_end(s, cdm_clock_now_ns());
	atomic_store_explicit(&s->w->live_bytes, s->done, memory_order_relaxed);
	atomic_store_explicit(&s->w->live_inflight, s->inflight, memory_order_relaxed);
	if (!s->stopping)
		__atomic_store_n(&s->w->stopped_ns, cdm_clock_now_ns(), __ATOMIC_RELEASE);
}

void cdm_loop_test(struct cdm_loop *s)
{
	const struct cdm_test_shared *sh = s->sh;
	struct cdm_worker *w = s->w;

	s->win = 0;
	s->next_bound = sh->bounds[1];
	s->stop_at = sh->bounds[sh->count + 1];
	s->pace_base = sh->bounds[0];
	thread_cpu(&s->cpu_at[0], &s->sys_at[0]);
	run(s);
	/* CPU of each measured pass whose end boundary was crossed */
	for (unsigned int k = 0; k < sh->count && k + 2 <= s->win; k++) {
		w->passes[k].cpu_user_ns = s->cpu_at[k + 2] - s->cpu_at[k + 1];
		w->passes[k].cpu_sys_ns = s->sys_at[k + 2] - s->sys_at[k + 1];
	}
}

void cdm_loop_window(struct cdm_loop *s, unsigned int win)
{
	const struct cdm_test_shared *sh = s->sh;
	struct cdm_worker *w = s->w;
	uint64_t u0 = 0, s0 = 0, u1 = 0, s1 = 0;
	int r;

	s->win = win;
	s->next_bound = UINT64_MAX;
	s->stop_at = sh->bounds[win + 1];
	/* --rate-iops: each window starts its own schedule (pace_due) */
	s->pace_base = sh->bounds[win];
	s->paced = 0;
	s->pace_tat = 0;
	series_seek(s, sh->bounds[win]);
	thread_cpu(&u0, &s0);
	/* --fsync: a sync the last window's writes made due comes first */
	if (fsync_due(s) && (r = do_fsync(s)) < 0)
		fail(s, r);
	else
		run(s);
	thread_cpu(&u1, &s1);
	w->win_end_ns = cdm_clock_now_ns();
	if (win >= 1 && win <= sh->count) {
		w->passes[win - 1].cpu_user_ns = u1 - u0;
		w->passes[win - 1].cpu_sys_ns = s1 - s0;
	}
}

uint64_t cdm_loop_buffer_bytes(unsigned int qd, uint64_t block)
{
	return ((uint64_t)qd * block + HUGE_2M - 1) & ~(HUGE_2M - 1);
}

/*
 * Per-thread seeds, never zero.  The data's differs in every run and
 * thread, so that no two runs, ranks or threads write the same bytes
 * (stamp.h).  The draws' (offsets, Mix choices) is the same in every run
 * with --seed, for thread i (fio's randseed), else the data's.
 */
static void seed(struct cdm_loop *s)
{
	const struct cdm_worker *w = s->w;

	s->data_rng = (cdm_clock_now_ns() * 0x9E3779B97F4A7C15ull) ^
		      ((uint64_t)(w->id + 1) << 40) ^ (uint64_t)(uintptr_t)w;
	if (!s->data_rng)
		s->data_rng = 1;
	s->rng = s->sh->seed ? cdm_prng_seed(s->sh->seed ^ ((uint64_t)(w->id + 1) << 40)) :
			       cdm_prng_seed(s->data_rng);
	/* Mix: a read when a draw is below (100 - W) % of 2^64 */
	if (s->sh->dir == CDM_DIR_MIX)
		s->read_below = cdm_prng_percent(100 - s->sh->spec.write_pct);
}

/*
 * One contiguous region per worker, rounded up to the 2 MiB huge page
 * size and advised as huge BEFORE it is touched, so that the first touch
 * faults in huge pages: much faster than a buffer per slot for large
 * blocks (docs/performance.md), and a 1 MiB block is then one physically
 * contiguous segment instead of 256 pages (more than a virtio disk's 254
 * segments per request).  Every byte is touched now, so reads do not
 * fault pages in while being timed.  0 or -ENOMEM.
 */
static int region(struct cdm_loop *s)
{
	const struct cdm_test_shared *sh = s->sh;
	uintptr_t base, aligned;

	/* more than the address space (a 32-bit build): the runner refuses it first */
	if (cdm_loop_buffer_bytes(sh->spec.qd, sh->spec.block) > SIZE_MAX - HUGE_2M)
		return -ENOMEM;
	s->region_len = (size_t)cdm_loop_buffer_bytes(sh->spec.qd, sh->spec.block);
	s->region = mmap(NULL, s->region_len + HUGE_2M, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->region == MAP_FAILED) {
		s->region = NULL;
		return -ENOMEM;
	}
	/* align to 2 MiB so the region can be backed by huge pages */
	base = (uintptr_t)s->region;
	aligned = (base + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1);
	if (aligned > base)
		munmap(s->region, aligned - base);
	if (aligned + s->region_len < base + s->region_len + HUGE_2M)
		munmap((void *)(aligned + s->region_len),
		       base + s->region_len + HUGE_2M - (aligned + s->region_len));
	s->region = (uint8_t *)aligned;
	madvise(s->region, s->region_len, MADV_HUGEPAGE);
	if (sh->dir != CDM_DIR_READ && !sh->zero_fill)
		cdm_prng_fill((uint64_t *)s->region, s->region_len / 8, &s->data_rng);
	else
		memset(s->region, 0, s->region_len);
	return 0;
}

/* the Q I/O slots, each with its part of the region; 0 or -ENOMEM */
static int slots(struct cdm_loop *s)
{
	const struct cdm_test_shared *sh = s->sh;
	unsigned int q = sh->spec.qd;

	s->slots = calloc(q, sizeof(*s->slots));
	s->out = calloc(q, sizeof(*s->out));
	s->freel = calloc(q, sizeof(*s->freel));
	s->held = calloc(q, sizeof(*s->held));
	if (!s->slots || !s->out || !s->freel || !s->held)
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
	return 0;
}

/* the engine context for Q in flight; then the free list holds the depth it keeps */
static int engine(struct cdm_loop *s)
{
	const struct cdm_test_shared *sh = s->sh;
	struct cdm_engine_params p;
	int r;

	memset(&p, 0, sizeof(p));
	p.fd = sh->fd;
	p.depth = sh->spec.qd;
	p.direct = sh->direct;
	p.buf_base = s->region;
	p.buf_len = s->region_len;
	p.null_device = sh->null_device;
	p.options = sh->engine_options;
	s->ctx.ops = sh->engine;
	s->ctx.fd = sh->fd;
	s->ctx.depth = sh->spec.qd;
	r = sh->engine->init(&s->ctx, &p);
	if (r < 0)
		return r;
	s->inited = 1;
	if (s->ctx.depth < 1 || s->ctx.depth > sh->spec.qd)
		s->ctx.depth = 1;
	s->sync = !!(sh->engine->flags & CDM_ENGINE_SYNC);
	/* slot 0 is started first */
	for (unsigned int i = 0; i < s->ctx.depth; i++)
		s->freel[i] = &s->slots[s->ctx.depth - 1 - i];
	s->nfree = s->ctx.depth;
	return 0;
}

int cdm_loop_setup(struct cdm_loop *s, struct cdm_worker *w)
{
	int r;

	s->w = w;
	s->sh = w->sh;
	seed(s);
	if ((r = region(s)) < 0 || (r = slots(s)) < 0)
		return r;
	return engine(s);
}

void cdm_loop_free(struct cdm_loop *s)
{
	if (s->inited)
		s->sh->engine->cleanup(&s->ctx);
	s->inited = 0;
	free(s->slots);
	free(s->out);
	free(s->freel);
	free(s->held);
	free(s->vslot);
	free(s->vseq);
	if (s->region)
		munmap(s->region, s->region_len);
	s->region = NULL;
}
