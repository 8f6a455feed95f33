/* SPDX-License-Identifier: MIT */
/*
 * cdm/engine.h - the I/O engine contract.
 *
 * Modelled on fio's ioengine ops (fio: ioengines.h), trimmed to what cdm
 * needs.  An engine is one file in src/engine/ defining one
 * `const struct cdm_engine_ops` and one row in the registry (engine.c).
 *
 * Life of an engine on one worker thread:
 *
 *	ops->init(ctx, params)      on the worker thread that will use it
 *	loop:
 *		ops->queue(ctx, io)     once per I/O to start
 *		ops->commit(ctx)        start everything queued (one system call)
 *		ops->reap(ctx, min, max, out)  collect completions
 *	ops->cleanup(ctx)           after every I/O has been reaped
 *
 * The worker, not the engine, takes the timestamps (submit time just before
 * commit, completion time just after reap) and keeps all accounting, so every
 * engine is timed the same way.  Hooks return 0 or a count on success and
 * -errno on failure; they never print and never exit.
 *
 * Template for a new engine (what each hook must do):
 *
 *  probe   required. Say whether the engine works here (kernel, sandbox,
 *          sysctl), without a file.  Cheap: called for --list-engines and
 *          for `auto`.
 *  init    required. Set up per-thread state for ctx->depth I/Os in flight;
 *          lower ctx->depth when the engine cannot keep that many truly in
 *          flight (sync: 1).  May register ctx->fd and the buffer region.
 *  queue   required. Prepare @io.  Returns CDM_Q_QUEUED (will start at the
 *          next commit and complete through reap), CDM_Q_COMPLETED (done
 *          synchronously; io->result is set), CDM_Q_BUSY (no room: reap
 *          first), or -errno.
 *  commit  required for engines that return CDM_Q_QUEUED.  Start all queued
 *          I/Os.  An engine may defer the system call to the next reap() so
 *          that submission and waiting are one system call (io_uring's
 *          submit-and-wait): the worker always calls reap() after commit().
 *  reap    required for engines that return CDM_Q_QUEUED.  Wait until at
 *          least @min I/Os have completed, then return up to @max completed
 *          I/Os in @out (every one available, not just @min), each with
 *          io->result set.  @min may be 0 (do not block).
 *  cleanup required. Free per-thread state; no I/O is in flight any more.
 */
#ifndef CDM_ENGINE_H
#define CDM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct cdm_err;

#define CDM_ENGINE_VERSION 1

/* engine capability flags (ops->flags) */
#define CDM_ENGINE_SYNC    (1u << 0) /* queue() completes the I/O itself */
#define CDM_ENGINE_NO_IO   (1u << 1) /* touches no file (null engine) */
#define CDM_ENGINE_ALIGNED (1u << 2) /* buffers must be aligned for O_DIRECT */

enum cdm_io_op {
	CDM_IO_READ = 0,
	CDM_IO_WRITE = 1,
};

/* queue() answers */
enum cdm_queue_status {
	CDM_Q_QUEUED = 0,
	CDM_Q_COMPLETED = 1,
	CDM_Q_BUSY = 2,
};

/*
 * struct cdm_io - one I/O slot.  The worker owns an array of ctx->depth
 * slots for the whole test; an engine keeps a pointer to the slot while the
 * I/O is in flight and hands it back from reap().
 */
struct cdm_io {
	void *buf;              /* inside the worker's buffer region */
	uint64_t offset;        /* file offset, bytes */
	uint32_t len;           /* bytes */
	uint8_t op;             /* enum cdm_io_op */
	uint32_t slot;          /* index of this slot, 0 .. depth-1 */
	int64_t result;         /* set by the engine: bytes done, or -errno */
	uint64_t submit_ns;     /* set by the worker (CLOCK_MONOTONIC) */
	void *engine_data;      /* free for the engine's use */
};

/*
 * struct cdm_engine_params - what init() is given.  Owned by the caller;
 * valid for the duration of init() only (copy what is needed).
 */
struct cdm_engine_params {
	int fd;                 /* the test file, opened by the runner; -1 for null */
	unsigned int depth;     /* I/Os the worker wants in flight (Q), >= 1 */
	int direct;             /* 1 when fd was opened with O_DIRECT */
	void *buf_base;         /* the worker's I/O buffer region ... */
	size_t buf_len;         /* ... and its length in bytes (>= depth x block) */
	uint64_t service_ns;    /* null engine: fixed service time per I/O, ns */
	unsigned int options;   /* CDM_ENGINE_OPT_* */
};

/* engine options (params.options) */
#define CDM_ENGINE_OPT_NO_REGISTER (1u << 0) /* io_uring: no fixed buffers/files */
#define CDM_ENGINE_OPT_SQPOLL      (1u << 1) /* io_uring: kernel thread polls the SQ */
#define CDM_ENGINE_OPT_IOPOLL      (1u << 2) /* io_uring: polled completions (hipri) */

/*
 * struct cdm_engine_ctx - one engine instance, one per worker thread.
 * Allocated and zeroed by the caller; the engine fills depth, priv and note.
 */
struct cdm_engine_ctx {
	const struct cdm_engine_ops *ops;
	int fd;
	unsigned int depth;     /* in: requested Q; out: the depth kept (<= in) */
	void *priv;             /* engine-private state, freed by cleanup() */
	char note[160];         /* engine's one-line remark for stderr, or "" */
};

struct cdm_engine_ops {
	const char *name;
	unsigned int version;   /* CDM_ENGINE_VERSION */
	unsigned int flags;     /* CDM_ENGINE_* */
	int (*probe)(char *why, size_t why_len);
	int (*init)(struct cdm_engine_ctx *ctx, const struct cdm_engine_params *p);
	int (*queue)(struct cdm_engine_ctx *ctx, struct cdm_io *io);
	int (*commit)(struct cdm_engine_ctx *ctx);
	int (*reap)(struct cdm_engine_ctx *ctx, unsigned int min, unsigned int max,
		    struct cdm_io **out);
	void (*cleanup)(struct cdm_engine_ctx *ctx);
};

/*
 * cdm_engine_find - look up an engine by name ("io_uring", "libaio", "sync",
 * "null"; not "auto").
 * Returns the ops, or NULL when no engine of that name is built in.
 * Sets *@known to 1 when the name is a cdm engine at all (even if this build
 * lacks it), 0 for a name cdm never had; @known may be NULL.
 */
const struct cdm_engine_ops *cdm_engine_find(const char *name, int *known);

/*
 * cdm_engine_pick - resolve "auto": the first of io_uring, libaio, sync that
 * is built in and whose probe() succeeds.  Never NULL (sync always works).
 */
const struct cdm_engine_ops *cdm_engine_pick(void);

/*
 * cdm_engine_probe - run @ops->probe(); on failure write the reason to @why
 * (a short phrase such as "io_uring disabled by kernel.io_uring_disabled=2").
 * Returns 0 when the engine works here, else -errno.
 */
int cdm_engine_probe(const struct cdm_engine_ops *ops, char *why, size_t why_len);

/*
 * cdm_engine_resolve - the engine that --engine @name asks for, as every
 * command resolves it.  "auto" is cdm_engine_pick(), with a note on stderr
 * (cdm_note) for each engine preferred over the one picked that does not
 * work here, and why.  Returns 0 and sets *@ops; -EINVAL for a name cdm
 * never had ("unknown engine 'x' (auto, io_uring, ...)" in @err: a usage
 * error); -ENOSYS for an engine this build lacks ("the io_uring engine is
 * not built in: install liburing-dev and rebuild"); or the probe's -errno
 * ("the io_uring engine does not work here: <why>").  @err may be NULL.
 */
int cdm_engine_resolve(const char *name, const struct cdm_engine_ops **ops,
		       struct cdm_err *err);

/*
 * cdm_engine_list - the engines this build knows, in `auto` preference
 * order, built in or not.  Returns the number of rows; *@names points to a
 * static array of names, and cdm_engine_find() tells whether each is built.
 */
size_t cdm_engine_list(const char *const **names);

/* cdm_engine_build_info - "io_uring libaio sync null" as built; static. */
const char *cdm_engine_build_info(void);

#endif /* CDM_ENGINE_H */
