/* SPDX-License-Identifier: MIT */
/*
 * null.c - the "null" engine: completes every I/O without touching a file,
 * so the runner, the worker and the statistics can be tested without a
 * disk.  Like fio's null engine it is asynchronous: I/Os are queued,
 * committed and reaped, so it measures the worker's own cost per I/O.  With
 * params.service_ns == 0 an I/O is complete as soon as it is committed.
 * With a service time, each I/O completes that many nanoseconds after the
 * commit() that started it (a second service time from a given time after
 * the thread's first commit() on, params.service_change_ns: a device whose
 * speed changes part-way, the known answer of the steady-state tests), and up to the full requested depth can be in
 * flight, which makes Little's law (mean latency x IOPS = Q x T) something
 * a test can check on any machine.
 *
 * Because the service time is the same for every I/O, deadlines come out in
 * submission order: a fixed ring (FIFO) of depth entries is all the state
 * needed, and reap() only ever looks at its head.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#include "cdm/base/clock.h"
#include "cdm/engine/ops.h"

struct null_slot {
	struct cdm_io *io;
	uint64_t deadline;      /* CLOCK_MONOTONIC ns; set by commit() */
};

struct null_data {
	uint64_t service_ns;
	uint64_t after_ns;      /* service time from change_ns after the first commit on */
	uint64_t change_ns;     /* 0: never */
	uint64_t first_ns;      /* the first commit(); 0: none yet */
	unsigned int size;      /* ring entries = depth kept */
	unsigned int head;      /* oldest entry */
	unsigned int count;     /* entries in the ring */
	unsigned int committed; /* entries from head that have a deadline */
	int old_slack;          /* timer slack to restore, or -1 */
	struct null_slot *ring;
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
	nd->service_ns = p->service_ns;
	nd->change_ns = p->service_change_ns;
	nd->after_ns = nd->change_ns ? p->service_after_ns : p->service_ns;
	nd->size = p->depth;
	nd->old_slack = -1;
	nd->ring = calloc(nd->size, sizeof(*nd->ring));
	if (!nd->ring) {
		free(nd);
		return -ENOMEM;
	}
	if (nd->service_ns || nd->after_ns) {
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
	uint64_t deadline = 0, now;
	unsigned int i;

	if (nd->committed == nd->count)
		return 0;
	/* no service time: due at once, and no clock read */
	if (nd->change_ns) {
		now = cdm_clock_now_ns();
		if (!nd->first_ns)
			nd->first_ns = now;
		deadline = now + (now - nd->first_ns >= nd->change_ns ? nd->after_ns :
				  nd->service_ns);
	} else if (nd->service_ns) {
		deadline = cdm_clock_now_ns() + nd->service_ns;
	}
	for (i = nd->committed; i < nd->count; i++)
		nd->ring[ring_index(nd, i)].deadline = deadline;
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

	if (min && (nd->service_ns || nd->after_ns)) {
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
	}

	now = cdm_clock_now_ns();
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
