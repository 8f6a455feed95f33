/* SPDX-License-Identifier: MIT */
/*
 * sync.c - the "sync" engine: one pread() or pwrite() per I/O, done inside
 * queue().  It needs nothing beyond POSIX, so it always works: `auto` falls
 * back to it, and it is the baseline the asynchronous engines are judged
 * against.  The calling thread blocks in each call, so it can never have
 * more than one I/O in flight; init() says so by keeping a depth of 1
 * rather than letting the report claim a queue depth that never existed.
 *
 * Being CDM_ENGINE_SYNC, it has no commit() or reap(): the worker's loop
 * (run/loop.c) starts one I/O per turn with queue(), takes
 * the completion time when it returns, and never calls anything else
 * between init() and cleanup().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cdm/engine/ops.h"

struct sync_data {
	int fd;
};

static int sync_probe(enum cdm_engine_cause *cause, struct cdm_err *why)
{
	(void)cause;
	(void)why;
	return 0;
}

static int sync_init(struct cdm_engine_ctx *ctx, const struct cdm_engine_params *p)
{
	struct sync_data *sd;

	if (!p->depth)
		return -EINVAL;
	sd = malloc(sizeof(*sd));
	if (!sd)
		return -ENOMEM;
	sd->fd = p->fd;
	ctx->priv = sd;
	ctx->depth = 1;
	ctx->note[0] = '\0';
	if (p->depth > 1)
		snprintf(ctx->note, sizeof(ctx->note),
			 "the sync engine keeps one I/O in flight per thread (Q%u runs as Q1)",
			 p->depth);
	return 0;
}

static int sync_queue(struct cdm_engine_ctx *ctx, struct cdm_io *io)
{
	const struct sync_data *sd = ctx->priv;
	ssize_t n;

	/* a short transfer is handed back as it is: the worker decides */
	do {
		if (io->op == CDM_IO_WRITE)
			n = pwrite(sd->fd, io->buf, io->len, (off_t)io->offset);
		else
			n = pread(sd->fd, io->buf, io->len, (off_t)io->offset);
	} while (n < 0 && errno == EINTR);

	io->result = n < 0 ? -(int64_t)errno : (int64_t)n;
	return CDM_Q_COMPLETED;
}

static void sync_cleanup(struct cdm_engine_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

const struct cdm_engine_ops cdm_engine_sync = {
	.name = "sync",
	.version = CDM_ENGINE_VERSION,
	.flags = CDM_ENGINE_SYNC,
	.probe = sync_probe,
	.init = sync_init,
	.queue = sync_queue,
	/* no commit or reap: the worker never calls them for a SYNC engine */
	.cleanup = sync_cleanup,
};
