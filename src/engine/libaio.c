/* SPDX-License-Identifier: MIT */
/*
 * libaio.c - the "libaio" engine: Linux native AIO through libaio
 * (io_setup, io_submit, io_getevents).  It is what `auto` uses where
 * io_uring is missing or forbidden (older kernels, containers whose seccomp
 * profile blocks io_uring).
 *
 * Native AIO is only asynchronous on files opened with O_DIRECT.  On a
 * buffered file io_submit() does the whole read or write before it returns,
 * so a "queue depth" there would be a fiction: the engine keeps a depth of 1
 * and says why in ctx->note.
 *
 * Everything is allocated in init(): one iocb per worker slot, the array of
 * iocbs waiting for the next io_submit(), and the event array for
 * io_getevents().  The I/O path allocates nothing.
 */
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/engine/ops.h"
#include "sandbox.h"

struct libaio_data {
	io_context_t aio;
	int fd;
	unsigned int depth;     /* I/Os in flight at most (kept depth) */
	unsigned int slots;     /* iocbs[] entries: the requested depth */
	unsigned int npending;  /* queued, waiting for commit() */
	unsigned int inflight;  /* submitted, not yet reaped */
	struct iocb *iocbs;     /* indexed by cdm_io.slot */
	struct iocb **pending;
	struct io_event *events;
};

static void aio_free(struct libaio_data *ad)
{
	free(ad->iocbs);
	free(ad->pending);
	free(ad->events);
	free(ad);
}

static int aio_probe(enum cdm_engine_cause *cause, struct cdm_err *why)
{
	io_context_t aio = 0;
	int ret;

	ret = io_setup(1, &aio);
	if (ret == -ENOSYS)
		return cdm_err_set(why, ret, "kernel without AIO (CONFIG_AIO is off)");
	if (ret == -EAGAIN)
		return cdm_err_set(why, ret, "fs.aio-max-nr reached (see /proc/sys/fs/aio-max-nr)");
	if (ret == -EPERM && cdm_sandbox_seccomp_filtered()) {
		*cause = CDM_CAUSE_SECCOMP;
		return cdm_err_set(why, ret,
				   "io_setup is refused with EPERM by a seccomp filter on this process, as a container's profile may do");
	}
	if (ret == -EPERM)
		return cdm_err_set(why, ret, "io_setup not permitted (a seccomp filter?)");
	if (ret < 0)
		return cdm_err_set(why, ret, "io_setup: %s", strerror(-ret));
	ret = io_destroy(aio);
	return ret < 0 ? cdm_err_set(why, ret, "io_destroy: %s", strerror(-ret)) : 0;
}

static int aio_init(struct cdm_engine_ctx *ctx, const struct cdm_engine_params *p)
{
	struct libaio_data *ad;
	int ret;

	if (!p->depth)
		return -EINVAL;
	ad = calloc(1, sizeof(*ad));
	if (!ad)
		return -ENOMEM;
	ad->fd = p->fd;
	ad->slots = p->depth;
	ad->depth = p->direct ? p->depth : 1;

	/*
	 * Slots are indexed by cdm_io.slot, which the worker numbers up to the
	 * depth it asked for; only ad->depth of them are ever in flight.
	 */
	ad->iocbs = calloc(ad->slots, sizeof(*ad->iocbs));
	ad->pending = calloc(ad->depth, sizeof(*ad->pending));
	ad->events = calloc(ad->depth, sizeof(*ad->events));
	if (!ad->iocbs || !ad->pending || !ad->events) {
		aio_free(ad);
		return -ENOMEM;
	}

	ret = io_setup((int)ad->depth, &ad->aio);
	if (ret < 0) {
		if (ret == -EAGAIN)
			snprintf(ctx->note, sizeof(ctx->note),
				 "libaio: io_setup(%u) exceeds the system-wide limit in /proc/sys/fs/aio-max-nr",
				 ad->depth);
		aio_free(ad);
		return ret;
	}

	ctx->priv = ad;
	ctx->depth = ad->depth;
	if (!p->direct && p->depth > 1)
		snprintf(ctx->note, sizeof(ctx->note),
			 "libaio submits synchronously on buffered files, so it keeps one I/O in flight per thread (Q%u runs as Q1)",
			 p->depth);
	return 0;
}

static int aio_queue(struct cdm_engine_ctx *ctx, struct cdm_io *io)
{
	struct libaio_data *ad = ctx->priv;
	struct iocb *cb;

	if (io->slot >= ad->slots)
		return -EINVAL;
	if (ad->npending + ad->inflight >= ad->depth)
		return CDM_Q_BUSY;
	cb = &ad->iocbs[io->slot];
	if (io->op == CDM_IO_WRITE)
		io_prep_pwrite(cb, ad->fd, io->buf, io->len, (long long)io->offset);
	else
		io_prep_pread(cb, ad->fd, io->buf, io->len, (long long)io->offset);
	cb->data = io;
	ad->pending[ad->npending++] = cb;
	return CDM_Q_QUEUED;
}

/*
 * Start what is queued, in order.  The kernel may take fewer than asked,
 * or refuse with EAGAIN when its AIO queue has no room: while I/Os of ours
 * are in flight, room comes back as they complete, so the rest stays
 * queued and is started by the next commit() or reap() (a busy answer, not
 * an error: ops.h).  With nothing in flight, say busy (-EAGAIN), the rest
 * still queued: the worker pauses and asks again (its one rule for a busy
 * engine).  0, -EAGAIN, or io_submit's error.
 */
static int aio_submit_pending(struct libaio_data *ad)
{
	unsigned int done = 0;
	int ret = 0;

	while (done < ad->npending) {
		ret = io_submit(ad->aio, (long)(ad->npending - done), ad->pending + done);
		if (ret > 0) {
			done += (unsigned int)ret;
			ad->inflight += (unsigned int)ret;
			ret = 0;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == 0)   /* took nothing: as good as no room */
			ret = -EAGAIN;
		break;
	}
	/* what the kernel did not take stays queued, in order, for the next try */
	if (done && done < ad->npending)
		memmove(ad->pending, ad->pending + done,
			(ad->npending - done) * sizeof(*ad->pending));
	ad->npending -= done;
	return ret == -EAGAIN && ad->inflight ? 0 : ret;
}

static int aio_commit(struct cdm_engine_ctx *ctx)
{
	return aio_submit_pending(ctx->priv);
}

static int aio_reap(struct cdm_engine_ctx *ctx, unsigned int min,
		    unsigned int max, struct cdm_io **out)
{
	struct libaio_data *ad = ctx->priv;
	unsigned int got = 0, i;
	int ret;

	/* what an earlier commit() could not start goes first */
	if (ad->npending && (ret = aio_submit_pending(ad)) < 0)
		return ret;
	if (max > ad->inflight)
		max = ad->inflight;
	if (min > max)
		min = max;
	if (!max)
		return 0;

	/* a signal can end the wait early, with fewer than min events */
	do {
		ret = io_getevents(ad->aio, (long)(min > got ? min - got : 0),
				   (long)(max - got), ad->events, NULL);
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			return got ? (int)got : ret;
		for (i = 0; i < (unsigned int)ret; i++) {
			struct io_event *ev = &ad->events[i];
			struct cdm_io *io = ev->data;

			/* res carries bytes done, or -errno, in an unsigned field */
			io->result = (int64_t)(long)ev->res;
			out[got++] = io;
		}
		ad->inflight -= (unsigned int)ret;
	} while (got < min);
	return (int)got;
}

static void aio_cleanup(struct cdm_engine_ctx *ctx)
{
	struct libaio_data *ad = ctx->priv;

	if (!ad)
		return;
	/* nothing is in flight, so io_destroy cannot fail in a way that matters */
	(void)io_destroy(ad->aio);
	aio_free(ad);
	ctx->priv = NULL;
}

const struct cdm_engine_ops cdm_engine_libaio = {
	.name = "libaio",
	.version = CDM_ENGINE_VERSION,
	.flags = CDM_ENGINE_Q1_BUFFERED,
	.probe = aio_probe,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
