/* SPDX-License-Identifier: MIT */
/*
 * null.c - the "null" engine: completes every I/O without touching a file,
 * so the runner, the worker and the statistics can be tested without a
 * disk.  Like fio's null engine it is asynchronous: I/Os are queued,
 * committed and reaped, so it measures the worker's own cost per I/O.
 * Without a simulated device (params.null_device NULL) an I/O is complete
 * as soon as it is committed, and no clock is read.  With one
 * (--null-device SPEC, or --null-service-us as its shorthand;
 * engine/null_device.c), commit() asks the device, which all threads of
 * the test share, when each I/O is done: a fixed service time with up to
 * the full depth in flight (Little's law, mean latency x IOPS = Q x T, an
 * identity a test can check on any machine), a number of channels, an
 * IOPS or MB/s cap, a stall, phases that change these part-way.
 *
 * The device answers in device-wide order; this thread's own deadlines
 * are kept in submission order (each at least the one before it), so a
 * fixed ring (FIFO) of depth entries is all the state needed, and reap()
 * only ever looks at its head.  A deadline raised that way (a shorter lat
 * from a later phase on) only delays this thread's completion.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#include "cdm/base/clock.h"
#include "cdm/engine/null_device.h"
#include "cdm/engine/ops.h"

struct null_slot {
	struct cdm_io *io;
	uint64_t deadline;      /* CLOCK_MONOTONIC ns; set by commit() */
};

struct null_data {
	struct cdm_null_device *dev;    /* the test's device, or NULL: due at once */
	uint64_t last;          /* the latest deadline given; the next is no earlier */
	unsigned int size;      /* ring entries = depth kept */
	unsigned int head;      /* oldest entry */
	unsigned int count;     /* entries in the ring */
	unsigned int committed; /* entries from head that have a deadline */
	int old_slack;          /* timer slack to restore, or -1 */
	struct null_slot *ring;
	uint32_t *len;          /* with a device: a batch's lengths ... */
	uint64_t *done;         /* ... and its completion times, depth each */
};

static int null_probe(enum cdm_engine_cause *cause, struct cdm_err *why)
{
	(void)cause;
	(void)why;
	return 0;
}

static int null_init(struct cdm_engine_ctx *ctx, const struct cdm_engine_params *p)
{
	struct null_data *nd;
	int slack;

	if (!p->depth)
		return -EINVAL;
	nd = calloc(1, sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	nd->dev = p->null_device;
	nd->size = p->depth;
	nd->old_slack = -1;
	nd->ring = calloc(nd->size, sizeof(*nd->ring));
	if (nd->dev) {
		nd->len = calloc(nd->size, sizeof(*nd->len));
		nd->done = calloc(nd->size, sizeof(*nd->done));
	}
	if (!nd->ring || (nd->dev && (!nd->len || !nd->done))) {
		free(nd->ring);
		free(nd->len);
		free(nd->done);
		free(nd);
		return -ENOMEM;
	}
	if (nd->dev) {
		/*
		 * The default 50 us timer slack stretches every sleep; lower it
		 * for this thread so a 1 ms service time stays close to 1 ms.
		 * The old value is put back by cleanup().
		 */
		slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
		if (slack >= 0 && prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) == 0)
			nd->old_slack = slack;
		else
			snprintf(ctx->note, sizeof(ctx->note),
				 "null engine: cannot lower the timer slack; service times may overshoot");
	}
	ctx->priv = nd;
	ctx->depth = p->depth;
	return 0;
}

static inline unsigned int ring_index(const struct null_data *nd, unsigned int i)
{
	unsigned int at = nd->head + i;

	return at >= nd->size ? at - nd->size : at;
}

static int null_queue(struct cdm_engine_ctx *ctx, struct cdm_io *io)
{
	struct null_data *nd = ctx->priv;
	struct null_slot *s;

	if (nd->count == nd->size)
		return CDM_Q_BUSY;
	s = &nd->ring[ring_index(nd, nd->count)];
	s->io = io;
	s->deadline = 0;
	nd->count++;
	return CDM_Q_QUEUED;
}

static int null_commit(struct cdm_engine_ctx *ctx)
{
	struct null_data *nd = ctx->priv;
	unsigned int i, n = nd->count - nd->committed;

	if (!n)
		return 0;
	if (!nd->dev) {
		/* no device: due at once (queue() set deadline 0), and no clock read */
		nd->committed = nd->count;
		return 0;
	}
	for (i = 0; i < n; i++)
		nd->len[i] = nd->ring[ring_index(nd, nd->committed + i)].io->len;
	cdm_null_device_serve(nd->dev, cdm_clock_now_ns(), n, nd->len, nd->done);
	for (i = 0; i < n; i++) {
		/* this thread's completions stay in order: the ring is a FIFO */
		if (nd->done[i] > nd->last)
			nd->last = nd->done[i];
		nd->ring[ring_index(nd, nd->committed + i)].deadline = nd->last;
	}
	nd->committed = nd->count;
	return 0;
}

static int null_reap(struct cdm_engine_ctx *ctx, unsigned int min,
		     unsigned int max, struct cdm_io **out)
{
	struct null_data *nd = ctx->priv;
	struct null_slot *s;
	unsigned int n = 0;
	uint64_t now;

	/* only committed I/Os can complete; never wait for more than that */
	if (max > nd->committed)
		max = nd->committed;
	if (min > max)
		min = max;
	if (!max)
		return 0;

	/* no device: every deadline is 0, and the clock is not read */
	now = nd->dev ? cdm_clock_now_ns() : 0;
	if (min && nd->dev && nd->ring[ring_index(nd, min - 1)].deadline > now) {
		/* deadlines are in order: the min-th one is the one to wait for */
		uint64_t until = nd->ring[ring_index(nd, min - 1)].deadline;
		struct timespec ts = {
			.tv_sec = (time_t)(until / 1000000000u),
			.tv_nsec = (long)(until % 1000000000u),
		};
		int err;

		/* returns an error number, not -1 and errno */
		do {
			err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		} while (err == EINTR);
		if (err)
			return -err;
		now = cdm_clock_now_ns();
	}

	while (n < max) {
		s = &nd->ring[nd->head];
		if (s->deadline > now)
			break;
		s->io->result = s->io->len;
		out[n++] = s->io;
		nd->head = ring_index(nd, 1);
		nd->count--;
		nd->committed--;
	}
	return (int)n;
}

static void null_cleanup(struct cdm_engine_ctx *ctx)
{
	struct null_data *nd = ctx->priv;

	if (!nd)
		return;
	/* best effort: a failure here leaves only this thread's slack lower */
	if (nd->old_slack >= 0)
		(void)prctl(PR_SET_TIMERSLACK, (unsigned long)nd->old_slack, 0, 0, 0);
	free(nd->ring);
	free(nd->len);
	free(nd->done);
	free(nd);
	ctx->priv = NULL;
}

const struct cdm_engine_ops cdm_engine_null = {
	.name = "null",
	.version = CDM_ENGINE_VERSION,
	.flags = CDM_ENGINE_NO_IO,
	.probe = null_probe,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
