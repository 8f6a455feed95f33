/* SPDX-License-Identifier: MIT */
/*
 * loop.h - private to run/: one worker thread's I/O loop (loop.c), which
 * worker.c's thread body sets up, runs (the whole test, or one gated
 * window at a time) and frees.  One loop for every engine and schedule:
 * a queue-and-reap engine keeps Q I/Os in flight, a sync engine
 * (CDM_ENGINE_SYNC) does one at a time inside queue(); --rate-iops starts
 * each I/O at its time on the schedule, --fsync N quiesces and syncs after
 * every N writes, and a busy engine is asked again by one rule.
 */
#ifndef CDM_RUN_LOOP_H
#define CDM_RUN_LOOP_H

#include <stdint.h>

#include "shared.h"

/* one worker's loop: its engine context, its I/O slots and where it is in the schedule */
struct cdm_loop {
	struct cdm_worker *w;
	struct cdm_test_shared *sh;
	struct cdm_engine_ctx ctx;
	int inited;                     /* ctx set up: cdm_loop_free() cleans it up */
	int sync;                       /* the engine completes each I/O in queue() */
	struct cdm_io *slots;
	struct cdm_io **out;            /* the batch queued for commit, then reap()'s */
	struct cdm_io **freel;          /* slots not in flight ... */
	unsigned int nfree;             /* ... and how many */
	struct cdm_io **held;           /* prepared, refused as busy: asked again after a reap */
	unsigned int nheld;
	uint64_t busy_since;            /* busy with nothing in flight since (ns); 0: not */
	unsigned int busy_pauses;       /* ... and the pauses since then (busy_pause()) */
	uint8_t *region;
	size_t region_len;
	uint64_t rng;                   /* cdm_prng_next() state: offsets, Mix choices */
	uint64_t data_rng;              /* ... write data and stamp keys: never --seed's */
	uint64_t write_seq;             /* writes started (model/stamp.h's seq) */
	int64_t *vslot;                 /* --verify, per I/O slot: the write's record slot ... */
	uint64_t *vseq;                 /* ... and its seq; both NULL without --verify */
	uint64_t read_below;            /* Mix: an I/O reads when a draw is < this */
	unsigned int writes_since;      /* --fsync: writes started since the last one */
	uint64_t pace_base;             /* --rate-iops: start of the schedule (ns) ... */
	uint64_t paced;                 /* ... and I/Os started on it since ... */
	uint64_t pace_tat;              /* ... and the catch-up rule's next start time (ns) */
	uint64_t late_ns;               /* a start this much after its time is late (ns) */
	unsigned int win;               /* current window (0 = warm-up) */
	uint64_t next_bound;            /* bounds[win + 1]; gated: never (UINT64_MAX) */
	uint64_t stop_at;               /* stop issuing: bounds[count + 1]; gated: bounds[win + 1] */
	struct cdm_series_slot *cur;    /* --log-interval slot of now, or NULL */
	uint64_t slot_end;              /* when cur ends (<= next_bound) */
	uint64_t cpu_at[CDM_MAX_PASSES + 2]; /* thread CPU at each boundary (ns) */
	uint64_t sys_at[CDM_MAX_PASSES + 2];
	/* one run of the loop (a test, or a gated window) */
	uint64_t now;                   /* the clock at the last completion or wait (ns) */
	uint64_t done;                  /* bytes completed without error (live_bytes) */
	unsigned int inflight;          /* started, not reaped */
	unsigned int nq;                /* queued in out[], not yet committed */
	int stopping;                   /* starts nothing more: drains what is in flight */
};

/*
 * cdm_loop_buffer_bytes - the I/O buffer region of one worker: @qd x
 * @block bytes rounded up to the 2 MiB huge page size, as each worker maps
 * it (what the runner's memory check counts, times T).
 */
uint64_t cdm_loop_buffer_bytes(unsigned int qd, uint64_t block);

/*
 * cdm_loop_setup - set @s up for worker @w, on its own thread: the seeds
 * (the draws' from --seed when given), the buffer region (2 MiB-aligned,
 * huge-page advised, every byte touched), the I/O slots and the engine
 * context (ctx.depth: what the engine can keep in flight).  @s is zeroed
 * by the caller.  Returns 0 or -errno (-ENOMEM; the engine's init()); on
 * error the caller still calls cdm_loop_free().
 */
int cdm_loop_setup(struct cdm_loop *s, struct cdm_worker *w);

/*
 * cdm_loop_free - clean up the engine context (when set up) and free
 * what cdm_loop_setup() allocated.  Safe on a partly set-up @s.
 */
void cdm_loop_free(struct cdm_loop *s);

/*
 * cdm_loop_test - the back-to-back schedule: warm-up and every pass,
 * bounds[0] to bounds[count + 1], each completion counted in the window
 * in which it completed; then each pass's thread CPU into w->passes.
 * Errors end up in w->error (the worker's first; sh->failed for all).
 */
void cdm_loop_test(struct cdm_loop *s);

/*
 * cdm_loop_window - the gated schedule's window @win (0: the warm-up):
 * runs until bounds[win + 1], then drains, every completion counted in
 * @win; the thread's CPU into its pass, and w->win_end_ns.  Does first
 * the fdatasync the last window's writes made due (--fsync).
 */
void cdm_loop_window(struct cdm_loop *s, unsigned int win);

#endif /* CDM_RUN_LOOP_H */
