/* SPDX-License-Identifier: MIT */
/*
 * cdm/engine/ops.h - the I/O engine contract: what an engine file in
 * src/engine/ implements, and nothing else.  Types and hooks only, no
 * functions: an engine includes this header and no other engine header, so
 * the registry (engine.c, which names every engine's ops) and the engines
 * never use each other in a circle.  The registry's functions are in
 * cdm/engine/engine.h.
 *
 * Modelled on fio's ioengine ops (fio: ioengines.h, and its template
 * engines/skeleton_external.c), trimmed to what cdm needs.  An engine is one
 * file defining one `const struct cdm_engine_ops cdm_engine_<name>` (all
 * else static) plus one row in the registry (engine.c) and, when it needs
 * a library, one knob in the Makefile (docs/engines.md, "Adding an engine").
 *
 * Life of an engine:
 *
 *	ops->probe(cause, why)         any thread, no file: does it work here?
 *	ops->probe_options(options, why)  and with these options? (optional)
 *	on each worker thread, for one test:
 *	ops->init(ctx, params)         set up ctx->depth I/Os in flight
 *	loop:
 *		ops->queue(ctx, io)    once per I/O to start
 *		ops->commit(ctx)       start everything queued
 *		ops->reap(ctx, min, max, out)  collect completions
 *	ops->cleanup(ctx)              free it all
 *
 * An engine flagged CDM_ENGINE_SYNC does each I/O inside queue(); the
 * worker's loop (run/loop.c) then calls only queue(), never commit() or
 * reap().
 *
 * "Busy" (no room now) is an answer, not an error, and the worker has the
 * one rule for it: queue() answers it for one I/O, which the worker holds
 * and asks again after a reap; commit() and reap() answer it (-EAGAIN or
 * -EBUSY) only when the kernel took none of what is queued and nothing of
 * this context is in flight, the I/Os staying queued.  Then there is no
 * completion to wait for: the worker pauses 100 us and asks again, and
 * after 1 s of that ends the test with -EBUSY ("the engine stayed busy").
 * An engine never sleeps or retries on its own.
 *
 * The worker, not the engine, takes the timestamps (submit time just before
 * commit(), completion time just after reap()) and keeps all accounting, so
 * every engine is timed the same way.  Hooks return 0 or a count on success
 * and a negative errno on failure; they never print and never exit (the
 * error rule, cdm/base/err.h).  A remark for the user goes in ctx->note.
 */
#ifndef CDM_ENGINE_OPS_H
#define CDM_ENGINE_OPS_H

#include <stddef.h>
#include <stdint.h>

/* offsets reach the kernel as off_t: 64 bits on every build */
#include "cdm/base/lfs.h"

struct cdm_err;
struct cdm_null_device;

/* the contract's version: a table of another version is refused (engine.c) */
#define CDM_ENGINE_VERSION 2

/* engine flags (ops->flags) */
#define CDM_ENGINE_SYNC    (1u << 0) /* queue() does the I/O: no commit/reap */
#define CDM_ENGINE_NO_IO   (1u << 1) /* touches no file: gets fd -1 (null) */
/* without O_DIRECT, submission does the I/O: one in flight per thread (libaio) */
#define CDM_ENGINE_Q1_BUFFERED (1u << 2)

enum cdm_io_op {
	CDM_IO_READ = 0,
	CDM_IO_WRITE = 1,
};

/* queue()'s answers (>= 0; a failure is -errno) */
enum cdm_queue_status {
	CDM_Q_QUEUED = 0,       /* starts at the next commit(), ends in reap() */
	CDM_Q_COMPLETED = 1,    /* done inside queue(): io->result is set */
	CDM_Q_BUSY = 2,         /* no room: reap first */
};

/*
 * struct cdm_io - one I/O slot.  The worker owns an array of ctx->depth
 * slots for the whole test and fills buf, offset, len, op and slot before
 * queue().  An engine keeps a pointer to the slot while the I/O is in
 * flight, sets result, and hands the pointer back from reap().
 */
struct cdm_io {
	void *buf;              /* inside the worker's buffer region */
	uint64_t offset;        /* file offset, bytes */
	uint32_t len;           /* bytes */
	uint8_t op;             /* enum cdm_io_op */
	uint32_t slot;          /* index of this slot, 0 .. params.depth - 1 */
	int64_t result;         /* set by the engine: bytes done, or -errno */
	uint64_t submit_ns;     /* set by the worker (CLOCK_MONOTONIC); engines ignore it */
};

/*
 * struct cdm_engine_params - what init() is given.  Owned by the caller;
 * valid for the duration of init() only (copy what is needed).  The fd and
 * the buffer region outlive the engine: they are freed after cleanup().
 */
struct cdm_engine_params {
	int fd;                 /* the test file, opened by the runner; -1 for NO_IO */
	unsigned int depth;     /* I/Os the worker wants in flight (Q), >= 1 */
	int direct;             /* 1 when fd was opened with O_DIRECT */
	void *buf_base;         /* the worker's I/O buffer region, page-aligned ... */
	size_t buf_len;         /* ... and its length in bytes (>= depth x block) */
	/*
	 * null engine: the test's simulated device (--null-device and
	 * --null-service-us; cdm/engine/null_device.h), shared by every
	 * thread of the test and owned by the runner; NULL: every I/O is
	 * done at once.  Other engines ignore it.
	 */
	struct cdm_null_device *null_device;
	unsigned int options;   /* CDM_ENGINE_OPT_* */
};

/* engine options (params.options), from the command line */
#define CDM_ENGINE_OPT_NO_REGISTER (1u << 0) /* io_uring: no fixed buffers/files */
#define CDM_ENGINE_OPT_SQPOLL      (1u << 1) /* io_uring: kernel thread polls the SQ */
#define CDM_ENGINE_OPT_IOPOLL      (1u << 2) /* io_uring: polled completions (hipri) */

/*
 * struct cdm_engine_ctx - one engine instance, one per worker thread.
 * Allocated and zeroed by the caller, who sets ops, fd and depth (= the
 * requested Q) before init(); the engine fills depth, priv and note.
 */
struct cdm_engine_ctx {
	const struct cdm_engine_ops *ops;
	int fd;                 /* = params.fd; engines read params.fd */
	unsigned int depth;     /* in: requested Q; out: the depth kept, 1 .. in */
	void *priv;             /* engine-private state, freed by cleanup() */
	char note[160];         /* engine's one-line remark for stderr, or "" */
};

/*
 * enum cdm_engine_cause - the class of a probe's answer, which
 * cdm_engine_status() puts in front of the message for --list-engines.
 */
enum cdm_engine_cause {
	CDM_CAUSE_KERNEL = 0,   /* "refused by the kernel": no support, a sysctl, a limit */
	CDM_CAUSE_SECCOMP,      /* "blocked by seccomp": EPERM under a seccomp filter */
	CDM_CAUSE_MEMLOCK,      /* "RLIMIT_MEMLOCK": locked memory for the ring or buffers */
};

struct cdm_engine_ops {
	const char *name;       /* as on the command line; = the registry row's */
	unsigned int version;   /* CDM_ENGINE_VERSION */
	unsigned int flags;     /* CDM_ENGINE_* */

	/*
	 * probe - does this engine work here (kernel, sysctl, sandbox,
	 * limits)?  Required.  No file is involved; it must be cheap (it
	 * runs for --list-engines and for every `auto`) and leave nothing
	 * behind (create and destroy a small context, as io_uring and libaio
	 * do).  Called on the main thread before any worker exists, but
	 * keeps no state, so any thread may call it.
	 * @cause, @why: never NULL.  @why->msg is "" and *@cause is
	 * CDM_CAUSE_KERNEL on entry.
	 * Returns 0 when the engine works here; it may then leave a remark
	 * in @why with its *@cause (a limit that will make some runs go
	 * without an optimisation), which --list-engines shows.  Else a
	 * negative errno, with *@cause set to the class and in @why one
	 * phrase naming what refused and where to change it, without the
	 * class ("io_uring disabled by kernel.io_uring_disabled=2").
	 */
	int (*probe)(enum cdm_engine_cause *cause, struct cdm_err *why);

	/*
	 * probe_options - can the engine options @options (CDM_ENGINE_OPT_*)
	 * be set up here?  Optional: an engine without options has none.
	 * Like probe(): no file, cheap, nothing left behind, no state; the
	 * runner calls it on the main thread before the test file is made,
	 * so that a refusal init() would meet comes first (io_uring makes and
	 * drops a small ring with --sqpoll's and --hipri's setup flags).
	 * @why: never NULL, "" on entry.
	 * Returns 0, or a negative errno with in @why the phrase init()
	 * would leave in ctx->note for it ("io_uring: SQPOLL not permitted
	 * for this user (--sqpoll)").
	 */
	int (*probe_options)(unsigned int options, struct cdm_err *why);

	/*
	 * init - set up per-thread state for up to @p->depth I/Os in
	 * flight.  Required.  Called on the worker thread that will call
	 * every other hook of this @ctx, and only there (io_uring's
	 * SINGLE_ISSUER relies on it).  Allocate everything here, never
	 * per I/O.  May register @p->fd and the buffer region with the
	 * kernel.  Sets ctx->priv, and ctx->depth to the depth it can truly
	 * keep in flight, 1 .. @p->depth (sync: 1; the report prints it).
	 * May leave a one-line remark in ctx->note, on success or failure;
	 * the worker shows it.
	 * Returns 0, or a negative errno after freeing all it allocated:
	 * cleanup() is not called for a failed init().
	 */
	int (*init)(struct cdm_engine_ctx *ctx, const struct cdm_engine_params *p);

	/*
	 * queue - prepare @io (buf, offset, len, op and slot are set).
	 * Required.  The engine keeps @io until it returns it from reap().
	 * Returns CDM_Q_QUEUED (starts at the next commit()), CDM_Q_COMPLETED
	 * (done now, io->result set: what a CDM_ENGINE_SYNC engine must
	 * answer, and only it), CDM_Q_BUSY (no room now), or a negative
	 * errno.  "Busy" is CDM_Q_BUSY, -EAGAIN or -EBUSY: the engine did not
	 * take @io, and the worker (run/loop.c, start()) holds it, commits
	 * what it queued, reaps, and asks again, at every place it queues (the
	 * first fill, the refill, after an fsync or a rate pause).  With
	 * nothing of its own in flight it asks again every 100 us, and ends
	 * the test with -EBUSY after 1 s of that; a sync engine is asked again
	 * the same way.  Any other answer but the one the engine's flags
	 * promise is a broken engine (-EPROTO).
	 */
	int (*queue)(struct cdm_engine_ctx *ctx, struct cdm_io *io);

	/*
	 * commit - start every I/O queued since the last commit().
	 * Required unless CDM_ENGINE_SYNC.  Called once per batch, right
	 * after the worker stamped the batch's submit time.  The engine may
	 * leave the system call to the next reap(), so that submitting and
	 * waiting are one call (io_uring): after a commit() the worker
	 * always calls reap() while I/Os are in flight.
	 * A kernel that takes only part of the batch, or says it has no room
	 * (EAGAIN) while I/Os of this context are in flight, is busy, not
	 * broken: the engine keeps the rest queued and starts it at the next
	 * commit() or reap() (libaio.c and io_uring.c do), and returns 0.
	 * When it took none and nothing of this context is in flight, the
	 * engine keeps it all queued and answers busy (-EAGAIN or -EBUSY):
	 * the worker pauses and calls commit() again (the busy rule above).
	 * Returns 0, busy, or a negative errno: the worker then ends the
	 * test; what could not be started may stay queued until cleanup().
	 */
	int (*commit)(struct cdm_engine_ctx *ctx);

	/*
	 * reap - wait until at least @min of the started I/Os have
	 * completed, then put up to @max completed I/Os in @out (every one
	 * available, not only @min), each with io->result set (bytes done,
	 * or -errno: a failed I/O is a completion, not a failure of reap).
	 * Required unless CDM_ENGINE_SYNC.  The worker passes @min 1 and
	 * @max at most ctx->depth; @min 0 means "do not block".  With fewer
	 * than @min I/Os in flight, return what there is instead of waiting
	 * for completions that cannot come.  Retry EINTR, and resume a wait a
	 * signal cut short.
	 * An engine that submits here (io_uring) answers busy (-EAGAIN or
	 * -EBUSY) as commit() does, when the kernel took none of what is
	 * queued and nothing started is in flight; the worker pauses and
	 * reaps again.
	 * Returns the number put in @out (0 .. @max), busy, or a negative
	 * errno when the engine can no longer tell what completed (the
	 * worker then ends the test and calls cleanup()).
	 */
	int (*reap)(struct cdm_engine_ctx *ctx, unsigned int min, unsigned int max,
		    struct cdm_io **out);

	/*
	 * cleanup - free everything init() set up, and set ctx->priv to
	 * NULL.  Required.  Called once, on the thread that called init(),
	 * after a successful init() only.  Normally nothing is in flight;
	 * after a failed commit() or reap() some I/Os may be: cleanup must
	 * still return (the kernel cancels or finishes them when the context
	 * is destroyed) before the worker frees the buffers.
	 */
	void (*cleanup)(struct cdm_engine_ctx *ctx);
};

#endif /* CDM_ENGINE_OPS_H */
