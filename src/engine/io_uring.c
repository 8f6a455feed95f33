/* SPDX-License-Identifier: MIT */
/*
 * io_uring.c - the "io_uring" engine, through liburing.  This is the engine
 * `auto` prefers and the hot path of a run, so it is built to spend as
 * little CPU per I/O as the kernel allows:
 *
 *  - the ring is created on the worker thread that drives it, with
 *    SINGLE_ISSUER | DEFER_TASKRUN, so completions are processed when the
 *    worker asks for them instead of interrupting it (falling back to
 *    COOP_TASKRUN, then to no flags, on kernels that refuse them);
 *  - the test file and the worker's whole buffer region are registered
 *    once, so the kernel neither looks up the file nor pins pages per I/O;
 *  - commit() does not enter the kernel: reap() submits and waits in one
 *    io_uring_enter(), and takes every completion available in one batch;
 *  - nothing is allocated, locked or looked up per I/O.
 *
 * Registration is an optimisation, never a requirement: if the kernel or
 * RLIMIT_MEMLOCK refuses it, the engine runs unregistered and says why in
 * ctx->note.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/file.h"
#include "cdm/engine/ops.h"
#include "sandbox.h"

#define CACHELINE 64

/*
 * On recent kernels (seen on 6.18) the rings themselves, not only registered
 * buffers, are charged to RLIMIT_MEMLOCK for users without CAP_IPC_LOCK, and
 * a closed ring's charge is released a little later, from a kernel worker.
 */
#define MEMLOCK_WHY "ring memory refused: RLIMIT_MEMLOCK too low for this user (ulimit -l)"

struct uring_data {
	/* the ring first, on its own cache lines: the hot state */
	_Alignas(CACHELINE) struct io_uring ring;
	unsigned int queued;    /* SQEs prepared but not yet submitted */
	unsigned int inflight;  /* queued or submitted, not yet reaped */
	unsigned int defer;     /* DEFER_TASKRUN in effect */
	unsigned int fixed_file;        /* file registered at index 0 */
	unsigned int fixed_buf;         /* buffer region registered at index 0 */
	int fd;                 /* what goes in sqe->fd: 0 when fixed */
	unsigned int ncqes;     /* entries in cqes[] */
	uintptr_t buf_lo;       /* the registered region: [buf_lo, buf_hi) */
	uintptr_t buf_hi;
	struct io_uring_cqe **cqes;     /* scratch for peek_batch */
};

/*
 * -ENOMEM from ring setup or buffer registration may only mean that rings
 * this process closed a moment ago are still charged to RLIMIT_MEMLOCK (the
 * charge is dropped by a kernel worker, within milliseconds).  Worth a few
 * short waits when @bytes could fit under the limit at all; init() only.
 */
static int memlock_retry(int ret, size_t bytes, unsigned int *tries)
{
	struct timespec pause = { .tv_sec = 0, .tv_nsec = 10 * 1000 * 1000 };
	struct rlimit rl;

	if (ret != -ENOMEM || *tries >= 25)
		return 0;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0)
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && bytes > rl.rlim_cur)
		return 0;
	(*tries)++;
	/* an interrupted pause just means an earlier retry */
	(void)nanosleep(&pause, NULL);
	return 1;
}

/* kernel.io_uring_disabled: 0 allowed, 1 group-restricted, 2 off; -1 unknown */
static int uring_sysctl_disabled(void)
{
	uint64_t v;

	if (cdm_file_read_u64("/proc/sys/kernel/io_uring_disabled", &v))
		return -1;      /* older kernel: no such switch */
	return v > 2 ? 2 : (int)v;
}

/* the reason io_uring_queue_init() failed with @ret, and its class */
static int uring_refused(int ret, int disabled, enum cdm_engine_cause *cause,
			 struct cdm_err *why)
{
	if (ret == -ENOSYS)
		return cdm_err_set(why, ret, "kernel has no io_uring");
	if (ret == -EPERM && disabled == 1)
		return cdm_err_set(why, ret,
				   "io_uring restricted to the group in kernel.io_uring_group (kernel.io_uring_disabled=1)");
	if (ret == -EPERM && disabled <= 0 && cdm_sandbox_seccomp_filtered()) {
		*cause = CDM_CAUSE_SECCOMP;
		return cdm_err_set(why, ret,
				   "io_uring_setup is refused with EPERM by a seccomp filter on this process, as a container's profile may do");
	}
	if (ret == -EPERM)
		return cdm_err_set(why, ret,
				   "io_uring not permitted (kernel.io_uring_disabled or a seccomp filter)");
	if (ret == -ENOMEM) {
		*cause = CDM_CAUSE_MEMLOCK;
		return cdm_err_set(why, ret, MEMLOCK_WHY);
	}
	return cdm_err_set(why, ret, "io_uring_queue_init: %s", strerror(-ret));
}

/*
 * Make and drop a two-entry ring.  When it works and locked memory is
 * charged to this user, say how much: registered buffers beyond the limit
 * are refused, and such runs go unregistered (uring_register).
 */
static int uring_probe(enum cdm_engine_cause *cause, struct cdm_err *why)
{
	struct io_uring ring;
	unsigned int waits = 0;
	uint64_t limit;
	int disabled, ret;

	disabled = uring_sysctl_disabled();
	if (disabled == 2)
		return cdm_err_set(why, -EPERM, "io_uring disabled by kernel.io_uring_disabled=2");
	do {
		ret = io_uring_queue_init(2, &ring, 0);
	} while (memlock_retry(ret, 0, &waits));
	if (ret < 0)
		return uring_refused(ret, disabled, cause, why);
	io_uring_queue_exit(&ring);
	if (cdm_sandbox_memlock_limit(&limit)) {
		*cause = CDM_CAUSE_MEMLOCK;
		cdm_err_set(why, 0,
			    "%" PRIu64 " KiB for this user (ulimit -l); a run needing more buffers goes unregistered",
			    limit / 1024);
	}
	return 0;
}

/*
 * Best setup flags first.  -EINVAL means this kernel does not know a flag
 * (DEFER_TASKRUN needs 6.1, COOP_TASKRUN 5.19): try the next set quietly.
 */
static int uring_setup(struct uring_data *ud, unsigned int entries, unsigned int options)
{
	static const unsigned int tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	/* a kernel thread submits: DEFER_TASKRUN does not go with SQPOLL */
	static const unsigned int sqpoll_tries[] = {
		IORING_SETUP_SQPOLL | IORING_SETUP_SINGLE_ISSUER,
		IORING_SETUP_SQPOLL,
	};
	const unsigned int *set = tries;
	size_t nset = sizeof(tries) / sizeof(tries[0]);
	unsigned int extra = 0;
	struct io_uring_params p;
	unsigned int waits = 0;
	size_t i;
	int ret = -EINVAL;

	if (options & CDM_ENGINE_OPT_SQPOLL) {
		set = sqpoll_tries;
		nset = sizeof(sqpoll_tries) / sizeof(sqpoll_tries[0]);
	}
	if (options & CDM_ENGINE_OPT_IOPOLL)
		extra |= IORING_SETUP_IOPOLL;

	for (i = 0; i < nset; i++) {
		do {
			memset(&p, 0, sizeof(p));
			p.flags = set[i] | extra;
			p.sq_thread_idle = 1000;        /* ms before the SQ thread sleeps */
			ret = io_uring_queue_init_params(entries, &ud->ring, &p);
		} while (memlock_retry(ret, 0, &waits));
		if (ret != -EINVAL)
			break;
	}
	if (ret < 0)
		return ret;
	ud->defer = !!(p.flags & IORING_SETUP_DEFER_TASKRUN);
	ud->ncqes = p.cq_entries;
	return 0;
}

/* why uring_setup() failed with @ret for @options, into @buf ("" if unknown) */
static void setup_refused(int ret, unsigned int options, char *buf, size_t len)
{
	if (ret == -ENOMEM)
		snprintf(buf, len, "io_uring: %s", MEMLOCK_WHY);
	else if (ret == -EINVAL && (options & (CDM_ENGINE_OPT_SQPOLL | CDM_ENGINE_OPT_IOPOLL)))
		snprintf(buf, len, "io_uring: this kernel refuses %s",
			 (options & CDM_ENGINE_OPT_SQPOLL) ? "SQPOLL (--sqpoll)" :
			 "polled I/O (--hipri)");
	else if (ret == -EPERM && (options & CDM_ENGINE_OPT_SQPOLL))
		snprintf(buf, len, "io_uring: SQPOLL not permitted for this user (--sqpoll)");
	else if (options & CDM_ENGINE_OPT_SQPOLL)
		snprintf(buf, len, "io_uring: a ring with SQPOLL (--sqpoll) cannot be set up: %s",
			 strerror(-ret));
	else if (len)
		buf[0] = '\0';
}

/*
 * --sqpoll and --hipri before the test file: a small ring set up with
 * their flags, as init() will (SQPOLL starts the kernel's submission
 * thread, and is refused where it is not permitted), then dropped.
 */
static int uring_probe_options(unsigned int options, struct cdm_err *why)
{
	struct uring_data ud;
	char msg[160];
	int ret;

	if (!(options & (CDM_ENGINE_OPT_SQPOLL | CDM_ENGINE_OPT_IOPOLL)))
		return 0;
	memset(&ud, 0, sizeof(ud));
	ret = uring_setup(&ud, 2, options);
	if (ret < 0) {
		setup_refused(ret, options, msg, sizeof(msg));
		return cdm_err_set(why, ret, "%s", msg[0] ? msg : strerror(-ret));
	}
	io_uring_queue_exit(&ud.ring);
	return 0;
}

/* Register file and buffers; on refusal, run without and say why. */
static void uring_register(struct uring_data *ud, struct cdm_engine_ctx *ctx,
			   const struct cdm_engine_params *p)
{
	unsigned int waits = 0;
	struct iovec iov;
	int ret;

	ret = io_uring_register_files(&ud->ring, &p->fd, 1);
	if (ret == 0) {
		ud->fixed_file = 1;
		ud->fd = 0;
	} else {
		snprintf(ctx->note, sizeof(ctx->note),
			 "io_uring: cannot register the file (%s); running unregistered",
			 strerror(-ret));
	}

	if (!p->buf_base || !p->buf_len)
		return;
	iov.iov_base = p->buf_base;
	iov.iov_len = p->buf_len;
	do {
		ret = io_uring_register_buffers(&ud->ring, &iov, 1);
	} while (memlock_retry(ret, p->buf_len, &waits));
	if (ret == 0) {
		ud->fixed_buf = 1;
		ud->buf_lo = (uintptr_t)p->buf_base;
		ud->buf_hi = ud->buf_lo + p->buf_len;
	} else if (ret == -ENOMEM || ret == -EPERM) {
		/* pinned pages count against RLIMIT_MEMLOCK for non-root users */
		snprintf(ctx->note, sizeof(ctx->note),
			 "io_uring: cannot register %zu KiB of buffers (%s; see ulimit -l); running unregistered",
			 p->buf_len / 1024, strerror(-ret));
	} else {
		snprintf(ctx->note, sizeof(ctx->note),
			 "io_uring: cannot register buffers (%s); running unregistered",
			 strerror(-ret));
	}
}

static int uring_init(struct cdm_engine_ctx *ctx, const struct cdm_engine_params *p)
{
	struct uring_data *ud;
	void *mem;
	int ret;

	if (!p->depth)
		return -EINVAL;
	if (posix_memalign(&mem, CACHELINE, sizeof(*ud)))
		return -ENOMEM;
	ud = mem;
	memset(ud, 0, sizeof(*ud));
	ud->fd = p->fd;

	ret = uring_setup(ud, p->depth, p->options);
	if (ret < 0) {
		setup_refused(ret, p->options, ctx->note, sizeof(ctx->note));
		free(ud);
		return ret;
	}
	ud->cqes = calloc(ud->ncqes, sizeof(*ud->cqes));
	if (!ud->cqes) {
		io_uring_queue_exit(&ud->ring);
		free(ud);
		return -ENOMEM;
	}

	/*
	 * A registered ring fd spares the kernel an fd lookup on every
	 * io_uring_enter(); older kernels lack it, which costs only that.
	 */
	(void)io_uring_register_ring_fd(&ud->ring);

	if (!(p->options & CDM_ENGINE_OPT_NO_REGISTER))
		uring_register(ud, ctx, p);

	ctx->priv = ud;
	ctx->depth = p->depth;
	return 0;
}

static int uring_queue(struct cdm_engine_ctx *ctx, struct cdm_io *io)
{
	struct uring_data *ud = ctx->priv;
	struct io_uring_sqe *sqe;
	uintptr_t at = (uintptr_t)io->buf;

	sqe = io_uring_get_sqe(&ud->ring);
	/*
	 * With SQPOLL the kernel thread publishes the SQ head only at the end
	 * of its batch, so an I/O can complete (and be reaped) before its SQE
	 * shows as consumed: the ring looks full although fewer than Q I/Os
	 * are in flight.  Wait for the thread to catch up, then retry.
	 */
	if (!sqe && (ud->ring.flags & IORING_SETUP_SQPOLL) &&
	    io_uring_sqring_wait(&ud->ring) >= 0)
		sqe = io_uring_get_sqe(&ud->ring);
	if (!sqe)
		return CDM_Q_BUSY;

	/* any address inside the one registered region is valid for index 0 */
	if (ud->fixed_buf && at >= ud->buf_lo && at <= ud->buf_hi - io->len) {
		if (io->op == CDM_IO_WRITE)
			io_uring_prep_write_fixed(sqe, ud->fd, io->buf, io->len, io->offset, 0);
		else
			io_uring_prep_read_fixed(sqe, ud->fd, io->buf, io->len, io->offset, 0);
	} else {
		if (io->op == CDM_IO_WRITE)
			io_uring_prep_write(sqe, ud->fd, io->buf, io->len, io->offset);
		else
			io_uring_prep_read(sqe, ud->fd, io->buf, io->len, io->offset);
	}
	if (ud->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	ud->queued++;
	ud->inflight++;
	return CDM_Q_QUEUED;
}

/* Submission is left to reap(), which submits and waits in one system call. */
static int uring_commit(struct cdm_engine_ctx *ctx)
{
	(void)ctx;
	return 0;
}

/*
 * Submit what is queued and wait for @wait completions: one io_uring_enter.
 * The kernel may have no room for the queued SQEs (-EAGAIN: no memory for
 * the requests; -EBUSY: the completion queue overflowed).  That is busy,
 * not broken (ops.h): while I/Os already started are in flight, wait for
 * one of them without submitting, so room comes back and the SQEs stay
 * queued for the next enter; with none in flight, answer busy and keep
 * them queued: the worker pauses and reaps again (its one rule for a busy
 * engine).  0, -EAGAIN / -EBUSY (busy), or the kernel's error.
 */
static int uring_enter(struct uring_data *ud, unsigned int wait)
{
	struct io_uring_cqe *cqe;
	int ret;

	for (;;) {
		if (wait)
			ret = io_uring_submit_and_wait(&ud->ring, wait);
		else if (ud->defer)
			/* deferred completions are only run when asked for */
			ret = io_uring_submit_and_get_events(&ud->ring);
		else
			ret = io_uring_submit(&ud->ring);
		if (ret == -EINTR)
			continue;
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		if (!ud->inflight)
			return 0;       /* nothing to start, nothing to wait for */
		if (ud->inflight <= ud->queued)
			return ret;     /* busy, nothing started in flight */
		do
			ret = io_uring_wait_cqe(&ud->ring, &cqe);
		while (ret == -EINTR);
		/* a completion is in (or an error): the caller harvests it */
		return ret < 0 ? ret : 0;
	}
	if (ret < 0)
		return ret;
	ud->queued = (unsigned int)ret >= ud->queued ? 0 : ud->queued - (unsigned int)ret;
	return 0;
}

static unsigned int uring_harvest(struct uring_data *ud, struct cdm_io **out,
				  unsigned int max)
{
	unsigned int n, i;

	if (max > ud->ncqes)
		max = ud->ncqes;
	n = io_uring_peek_batch_cqe(&ud->ring, ud->cqes, max);
	for (i = 0; i < n; i++) {
		struct cdm_io *io = io_uring_cqe_get_data(ud->cqes[i]);

		io->result = ud->cqes[i]->res;
		out[i] = io;
	}
	if (n)
		io_uring_cq_advance(&ud->ring, n);
	ud->inflight -= n;
	return n;
}

static int uring_reap(struct cdm_engine_ctx *ctx, unsigned int min,
		      unsigned int max, struct cdm_io **out)
{
	struct uring_data *ud = ctx->priv;
	unsigned int got = 0;
	int ret;

	/* the kernel would wait forever for completions that cannot come */
	if (min > ud->inflight)
		min = ud->inflight;
	if (min > max)
		min = max;
	if (!max)
		return 0;

	/*
	 * Without DEFER_TASKRUN the kernel posts completions on its own, so
	 * look before entering: often enough are already there.
	 */
	if (!ud->queued && !ud->defer) {
		got = uring_harvest(ud, out, max);
		if (got >= min)
			return (int)got;
	}
	/*
	 * Usually one pass.  The kernel may return before @min completions
	 * are in (a signal during the wait once submission succeeded): then
	 * wait again for the rest.
	 */
	for (;;) {
		ret = uring_enter(ud, min - got);
		if (ret < 0)
			return got ? (int)got : ret;
		got += uring_harvest(ud, out + got, max - got);
		if (got >= min)
			return (int)got;
	}
}

static void uring_cleanup(struct cdm_engine_ctx *ctx)
{
	struct uring_data *ud = ctx->priv;

	if (!ud)
		return;
	/*
	 * Unregister first, synchronously: the ring itself is torn down by
	 * the kernel in the background after io_uring_queue_exit(), and until
	 * then a registered file keeps the (already unlinked) test file's
	 * space in use, so a run straight after on a small volume would find
	 * no room.  Buffers likewise stay pinned until unregistered.
	 */
	if (ud->fixed_file)
		io_uring_unregister_files(&ud->ring);
	if (ud->fixed_buf)
		io_uring_unregister_buffers(&ud->ring);
	io_uring_queue_exit(&ud->ring);
	free(ud->cqes);
	free(ud);
	ctx->priv = NULL;
}

const struct cdm_engine_ops cdm_engine_io_uring = {
	.name = "io_uring",
	.version = CDM_ENGINE_VERSION,
	.probe = uring_probe,
	.probe_options = uring_probe_options,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
