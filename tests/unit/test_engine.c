/* SPDX-License-Identifier: MIT */
/*
 * test_engine.c - the engine registry and every engine built in, driven the
 * way the worker drives them (queue, commit, reap).  Each real engine writes
 * 16 distinct 4 KiB blocks to a temporary file with 4 I/Os in flight and
 * reads them back into a separate region; the null engine's service time is
 * checked as a lower bound only, since the machines running tests are shared
 * and noisy.  An engine this build or kernel lacks is skipped with a reason.
 *
 * cdm_engine_status()'s classes are checked in a child process confined the
 * way users' machines are: a seccomp filter that refuses io_uring_setup and
 * io_setup with EPERM (a container's profile, as tests/tools/deny-syscall.c
 * does for the CLI tests) or with ENOSYS (a kernel without them), and a
 * small RLIMIT_MEMLOCK without CAP_IPC_LOCK.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/devspec.h"
#include "cdm/base/err.h"
#include "cdm/engine/engine.h"
#include "cdm/engine/null_device.h"

#ifdef CDM_WRAP_URING
/*
 * io_uring's submission, made busy on purpose: while uring_busy_turns is
 * set, every other call says -EAGAIN or -EBUSY (in turn) without taking
 * anything, as a kernel without room for the requests or with an
 * overflowed completion queue does.  The engine must treat that as busy.
 */
struct io_uring;
int __real_io_uring_submit(struct io_uring *ring);
int __real_io_uring_submit_and_wait(struct io_uring *ring, unsigned int wait_nr);
int __real_io_uring_submit_and_get_events(struct io_uring *ring);
int __wrap_io_uring_submit(struct io_uring *ring);
int __wrap_io_uring_submit_and_wait(struct io_uring *ring, unsigned int wait_nr);
int __wrap_io_uring_submit_and_get_events(struct io_uring *ring);
static int uring_busy_turns;
static unsigned int uring_busy_calls, uring_busy_said;

static int busy_turn(void)
{
	if (!uring_busy_turns || uring_busy_calls++ % 2)
		return 0;
	return ++uring_busy_said % 2 ? -EAGAIN : -EBUSY;
}

int __wrap_io_uring_submit(struct io_uring *ring)
{
	int b = busy_turn();

	return b ? b : __real_io_uring_submit(ring);
}

int __wrap_io_uring_submit_and_wait(struct io_uring *ring, unsigned int wait_nr)
{
	int b = busy_turn();

	return b ? b : __real_io_uring_submit_and_wait(ring, wait_nr);
}

int __wrap_io_uring_submit_and_get_events(struct io_uring *ring)
{
	int b = busy_turn();

	return b ? b : __real_io_uring_submit_and_get_events(ring);
}
#endif

#define BLOCK   4096u
#define NBLOCKS 16u
#define DEPTH   4u
#define REGION  (BLOCK * NBLOCKS)

/* Everything a test may leave behind; teardown() frees it even on failure. */
struct fixture {
	char path[4096];
	int fd;                 /* -1: no file */
	int direct;
	unsigned char *wbuf;    /* MAP_FAILED when unmapped */
	unsigned char *rbuf;
	struct cdm_engine_ctx ctx;
	int ctx_live;           /* ctx needs cleanup() */
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	fx->fd = -1;
	fx->wbuf = MAP_FAILED;
	fx->rbuf = MAP_FAILED;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	if (fx->ctx_live)
		fx->ctx.ops->cleanup(&fx->ctx);
	if (fx->fd >= 0)
		close(fx->fd);
	if (fx->path[0])
		unlink(fx->path);
	if (fx->wbuf != MAP_FAILED)
		munmap(fx->wbuf, REGION);
	if (fx->rbuf != MAP_FAILED)
		munmap(fx->rbuf, REGION);
	free(fx);
	return 0;
}

/* The engine, or skip the test with the reason it cannot run here. */
static const struct cdm_engine_ops *need_engine(const char *name)
{
	const struct cdm_engine_ops *ops;
	struct cdm_err why;
	int known;

	ops = cdm_engine_find(name, &known);
	assert_int_equal(known, 1);
	if (!ops) {
		print_message("[  SKIP    ] %s: not built in\n", name);
		skip();
	}
	if (cdm_engine_probe(ops, &why) != 0) {
		print_message("[  SKIP    ] %s: %s\n", name, why.msg);
		skip();
	}
	return ops;
}

/* A temp file, O_DIRECT where the filesystem takes it, and two regions. */
static void make_file_and_regions(struct fixture *fx, int want_direct)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(fx->path, sizeof(fx->path), "%s/cdm-test-engine-XXXXXX", dir);
	fd = mkstemp(fx->path);
	if (fd < 0) {
		fx->path[0] = '\0';
		fail_msg("mkstemp in %s: %s", dir, strerror(errno));
	}
	fx->fd = fd;
	assert_int_equal(ftruncate(fd, REGION), 0);
	if (want_direct) {
		int dfd = open(fx->path, O_RDWR | O_DIRECT | O_CLOEXEC);

		/* tmpfs before 6.6, some FUSE: no O_DIRECT, test buffered */
		if (dfd >= 0) {
			close(fx->fd);
			fx->fd = dfd;
			fx->direct = 1;
		} else {
			assert_int_equal(errno, EINVAL);
		}
	}

	fx->wbuf = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(fx->wbuf != MAP_FAILED);
	fx->rbuf = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(fx->rbuf != MAP_FAILED);
}

/* Distinct, position-dependent bytes for block @b (xorshift). */
static void fill_block(unsigned char *p, unsigned int b)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (b + 1);
	size_t i;

	for (i = 0; i < BLOCK; i += sizeof(x)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + i, &x, sizeof(x));
	}
}

/* A completed I/O: whole length done; its slot goes back on the free list. */
static void check_done(struct cdm_io *io, unsigned int *done,
		       unsigned int *free_slots, unsigned int *nfree)
{
	assert_int_equal(io->result, (int64_t)io->len);
	assert_true(io->slot < DEPTH);
	assert_true(*nfree < DEPTH);
	free_slots[(*nfree)++] = io->slot;
	(*done)++;
}

/*
 * Move NBLOCKS blocks through the engine the way the worker does: keep up
 * to ctx.depth I/Os in flight, queue until full, commit, reap at least one.
 * A CDM_ENGINE_SYNC engine completes each I/O in queue() and is never
 * committed or reaped (run/loop.c).  commit() and reap() may answer busy
 * (-EAGAIN, -EBUSY) when the engine could start none of what it queued
 * and has nothing in flight (ops.h): ask again, as the worker does after
 * its pause (here at once, and at most a million times in all).
 */
static void run_blocks(struct fixture *fx, enum cdm_io_op op, unsigned char *region)
{
	struct cdm_engine_ctx *ctx = &fx->ctx;
	struct cdm_io ios[DEPTH], *out[DEPTH];
	unsigned int free_slots[DEPTH], nfree = DEPTH;
	unsigned int next = 0, done = 0, inflight = 0, i;
	unsigned int busy = 0;
	int ret;

	memset(ios, 0, sizeof(ios));
	for (i = 0; i < DEPTH; i++) {
		ios[i].slot = i;
		free_slots[i] = DEPTH - 1 - i;
	}

	while (done < NBLOCKS) {
		unsigned int queued = 0;

		while (next < NBLOCKS && inflight < ctx->depth && nfree) {
			struct cdm_io *io = &ios[free_slots[nfree - 1]];

			io->buf = region + (size_t)next * BLOCK;
			io->offset = (uint64_t)next * BLOCK;
			io->len = BLOCK;
			io->op = (uint8_t)op;
			io->result = INT64_MIN;
			ret = ctx->ops->queue(ctx, io);
			assert_true(ret >= 0);
			if (ret == CDM_Q_BUSY) {
				assert_true(inflight > 0 || queued > 0);
				break;
			}
			nfree--;
			next++;
			if (ret == CDM_Q_COMPLETED) {
				check_done(io, &done, free_slots, &nfree);
			} else {
				assert_int_equal(ret, CDM_Q_QUEUED);
				inflight++;
				queued++;
			}
		}
		if (queued) {
			while (((ret = ctx->ops->commit(ctx)) == -EAGAIN || ret == -EBUSY) &&
			       busy++ < 1000000)
				;
			assert_int_equal(ret, 0);
		}
		if (inflight) {
			ret = ctx->ops->reap(ctx, 1, inflight, out);
			if ((ret == -EAGAIN || ret == -EBUSY) && busy++ < 1000000)
				continue;
			assert_true(ret >= 1);
			assert_true((unsigned int)ret <= inflight);
			for (i = 0; i < (unsigned int)ret; i++)
				check_done(out[i], &done, free_slots, &nfree);
			inflight -= (unsigned int)ret;
		}
	}
	assert_int_equal(inflight, 0);
	/* nothing in flight: reap(1) must return at once, not wait forever */
	if (!(ctx->ops->flags & CDM_ENGINE_SYNC))
		assert_int_equal(ctx->ops->reap(ctx, 1, DEPTH, out), 0);
}

static void engine_start(struct fixture *fx, const struct cdm_engine_ops *ops,
			 unsigned char *region, unsigned int options)
{
	struct cdm_engine_params p = {
		.fd = fx->fd,
		.depth = DEPTH,
		.direct = fx->direct,
		.buf_base = region,
		.buf_len = REGION,
		.options = options,
	};
	int ret;

	memset(&fx->ctx, 0, sizeof(fx->ctx));
	fx->ctx.ops = ops;
	fx->ctx.fd = fx->fd;
	fx->ctx.depth = DEPTH;
	ret = ops->init(&fx->ctx, &p);
	if (ret == -ENOMEM && fx->ctx.note[0]) {
		/* io_uring under a tight RLIMIT_MEMLOCK: the machine's limit */
		print_message("[  SKIP    ] %s: %s\n", ops->name, fx->ctx.note);
		skip();
	}
	if (ret < 0)
		fail_msg("%s init: %s (%s)", ops->name, strerror(-ret), fx->ctx.note);
	fx->ctx_live = 1;
	assert_true(fx->ctx.depth >= 1 && fx->ctx.depth <= DEPTH);
	if (fx->ctx.note[0])
		print_message("[  NOTE    ] %s: %s\n", ops->name, fx->ctx.note);
}

static void engine_stop(struct fixture *fx)
{
	fx->ctx.ops->cleanup(&fx->ctx);
	fx->ctx_live = 0;
	assert_null(fx->ctx.priv);
}

static void round_trip(void **state, const char *name, int want_direct,
		       unsigned int options)
{
	struct fixture *fx = *state;
	const struct cdm_engine_ops *ops = need_engine(name);
	unsigned int b;

	make_file_and_regions(fx, want_direct);
	for (b = 0; b < NBLOCKS; b++)
		fill_block(fx->wbuf + (size_t)b * BLOCK, b);
	memset(fx->rbuf, 0xa5, REGION);

	engine_start(fx, ops, fx->wbuf, options);
	run_blocks(fx, CDM_IO_WRITE, fx->wbuf);
	engine_stop(fx);

	engine_start(fx, ops, fx->rbuf, options);
	run_blocks(fx, CDM_IO_READ, fx->rbuf);
	engine_stop(fx);

	assert_memory_equal(fx->wbuf, fx->rbuf, REGION);
}

static void test_io_uring_round_trip(void **state)
{
	round_trip(state, "io_uring", 1, 0);
}

static void test_io_uring_unregistered_round_trip(void **state)
{
	round_trip(state, "io_uring", 1, CDM_ENGINE_OPT_NO_REGISTER);
}

static void test_io_uring_buffered_round_trip(void **state)
{
	round_trip(state, "io_uring", 0, 0);
}

/*
 * io_uring answering -EAGAIN / -EBUSY to every other submission (the
 * kernel had no room): busy, not broken (ops.h); every block is written
 * and read back, and the busy answers were really given.
 */
static void test_io_uring_busy(void **state)
{
#ifdef CDM_WRAP_URING
	uring_busy_turns = 1;
	uring_busy_said = 0;
	round_trip(state, "io_uring", 1, 0);
	uring_busy_turns = 0;
	assert_true(uring_busy_said >= 4);
#else
	(void)state;
	skip();
#endif
}

static void test_libaio_round_trip(void **state)
{
	struct fixture *fx = *state;

	round_trip(state, "libaio", 1, 0);
	if (fx->direct)
		assert_int_equal(fx->ctx.depth, DEPTH);
}

static void test_libaio_buffered_round_trip(void **state)
{
	struct fixture *fx = *state;

	round_trip(state, "libaio", 0, 0);
	/* buffered AIO is synchronous: the depth must say so */
	assert_int_equal(fx->ctx.depth, 1);
	assert_true(fx->ctx.note[0] != '\0');
}

static void test_sync_round_trip(void **state)
{
	round_trip(state, "sync", 1, 0);
}

/* a simulated device of @text for @inflight I/Os (--null-device) */
static struct cdm_null_device *null_dev(const char *text, unsigned int inflight)
{
	struct cdm_devspec spec;
	struct cdm_null_device *d;
	struct cdm_err err = { "" };

	if (cdm_devspec_parse(text, &spec, &err))
		fail_msg("'%s': %s", text, err.msg);
	assert_int_equal(cdm_null_device_new(&spec, inflight, &d), 0);
	return d;
}

/* The null engine through the same loop, with and without a device. */
static void null_run(void **state, const char *device)
{
	struct fixture *fx = *state;
	const struct cdm_engine_ops *ops = need_engine("null");
	struct cdm_engine_params p = {
		.fd = -1,
		.depth = DEPTH,
		.null_device = device ? null_dev(device, DEPTH) : NULL,
	};

	assert_true(ops->flags & CDM_ENGINE_NO_IO);
	fx->wbuf = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(fx->wbuf != MAP_FAILED);
	p.buf_base = fx->wbuf;
	p.buf_len = REGION;
	fx->ctx.ops = ops;
	fx->ctx.fd = -1;
	fx->ctx.depth = DEPTH;
	assert_int_equal(ops->init(&fx->ctx, &p), 0);
	fx->ctx_live = 1;
	assert_int_equal(fx->ctx.depth, DEPTH);
	run_blocks(fx, CDM_IO_WRITE, fx->wbuf);
	run_blocks(fx, CDM_IO_READ, fx->wbuf);
	engine_stop(fx);
	cdm_null_device_free(p.null_device);
}

static void test_null_round_trip(void **state)
{
	null_run(state, NULL);
}

static void test_null_service_round_trip(void **state)
{
	null_run(state, "lat=1ms");
	null_run(state, "lat=100us,channels=2,iops=20000,mbs=100");
}

static void test_null_immediate(void **state)
{
	struct fixture *fx = *state;
	const struct cdm_engine_ops *ops = need_engine("null");
	struct cdm_engine_params p = { .fd = -1, .depth = 8 };
	char buf[512];
	struct cdm_io io = { .buf = buf, .len = sizeof(buf), .op = CDM_IO_READ };

	fx->ctx.ops = ops;
	fx->ctx.depth = 8;
	assert_int_equal(ops->init(&fx->ctx, &p), 0);
	fx->ctx_live = 1;
	assert_int_equal(fx->ctx.depth, 8);
	/* asynchronous like fio's null engine: queued, then due at commit */
	assert_int_equal(ops->queue(&fx->ctx, &io), CDM_Q_QUEUED);
	assert_int_equal(ops->commit(&fx->ctx), 0);
	{
		struct cdm_io *out[8];

		assert_int_equal(ops->reap(&fx->ctx, 1, 8, out), 1);
		assert_ptr_equal(out[0], &io);
	}
	assert_int_equal(io.result, (int64_t)sizeof(buf));
	engine_stop(fx);
}

/*
 * With a device, reap() waits for the device's time: 4 I/Os on lat=2ms
 * take 2 ms with every channel, 4 x 2 ms on one, and come back in the
 * order they went (the ring is a FIFO, even when a later I/O's device
 * time is earlier).  Lower bounds only: never assert how late a sleep
 * may wake.
 */
static void null_service(void **state, const char *device, uint64_t at_least)
{
	struct fixture *fx = *state;
	const struct cdm_engine_ops *ops = need_engine("null");
	struct cdm_engine_params p = { .fd = -1, .depth = 4, .null_device = null_dev(device, 4) };
	struct cdm_io ios[5], *out[4];
	char buf[4][512];
	uint64_t t0, t1;
	unsigned int i;
	int n;

	memset(ios, 0, sizeof(ios));
	fx->ctx.ops = ops;
	fx->ctx.depth = 4;
	assert_int_equal(ops->init(&fx->ctx, &p), 0);
	fx->ctx_live = 1;
	assert_int_equal(fx->ctx.depth, 4);

	/* the first I/O alone, then the other three in a later commit */
	t0 = cdm_clock_now_ns();
	for (i = 0; i < 4; i++) {
		ios[i].buf = buf[i];
		ios[i].len = sizeof(buf[i]);
		ios[i].slot = i;
		assert_int_equal(ops->queue(&fx->ctx, &ios[i]), CDM_Q_QUEUED);
		if (i == 0) {
			assert_int_equal(ops->commit(&fx->ctx), 0);
			while (cdm_clock_now_ns() == t0)
				;       /* the next commit is at least 1 ns later */
		}
	}
	/* the ring holds depth entries, no more */
	assert_int_equal(ops->queue(&fx->ctx, &ios[4]), CDM_Q_BUSY);

	assert_int_equal(ops->commit(&fx->ctx), 0);
	n = ops->reap(&fx->ctx, 4, 4, out);
	t1 = cdm_clock_now_ns();
	assert_int_equal(n, 4);
	assert_true(t1 - t0 >= at_least);
	for (i = 0; i < 4; i++) {
		assert_ptr_equal(out[i], &ios[i]);
		assert_int_equal(out[i]->result, 512);
	}
	/* nothing left in flight: reap must not block */
	assert_int_equal(ops->reap(&fx->ctx, 1, 4, out), 0);
	engine_stop(fx);
	cdm_null_device_free(p.null_device);
}

static void test_null_service_time(void **state)
{
	null_service(state, "lat=2ms", 2000000);
	null_service(state, "lat=2ms,channels=1", 8000000);
	/* a later phase's shorter lat: the ring stays in order all the same */
	null_service(state, "lat=4ms;at=1ns,lat=1ns", 4000000);
}

static void test_sync_keeps_depth_one(void **state)
{
	struct fixture *fx = *state;
	const struct cdm_engine_ops *ops = need_engine("sync");
	struct cdm_engine_params p = { .fd = -1, .depth = 32 };

	assert_true(ops->flags & CDM_ENGINE_SYNC);
	fx->ctx.ops = ops;
	fx->ctx.depth = 32;
	assert_int_equal(ops->init(&fx->ctx, &p), 0);
	fx->ctx_live = 1;
	assert_int_equal(fx->ctx.depth, 1);
	assert_true(fx->ctx.note[0] != '\0');
	engine_stop(fx);

	/* at Q1 there is nothing to remark on */
	memset(&fx->ctx, 0, sizeof(fx->ctx));
	p.depth = 1;
	fx->ctx.ops = ops;
	fx->ctx.depth = 1;
	assert_int_equal(ops->init(&fx->ctx, &p), 0);
	fx->ctx_live = 1;
	assert_int_equal(fx->ctx.depth, 1);
	assert_string_equal(fx->ctx.note, "");
	engine_stop(fx);
}

static void test_find_every_name(void **state)
{
	const char *const *names;
	size_t n, i;

	(void)state;
	n = cdm_engine_list(&names);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "io_uring");
	assert_string_equal(names[1], "libaio");
	assert_string_equal(names[2], "sync");
	assert_string_equal(names[3], "null");
	for (i = 0; i < n; i++) {
		const struct cdm_engine_ops *ops;
		int known = -1;

		ops = cdm_engine_find(names[i], &known);
		assert_int_equal(known, 1);
		if (!ops)
			continue;
		assert_string_equal(ops->name, names[i]);
		assert_int_equal(ops->version, CDM_ENGINE_VERSION);
		assert_non_null(ops->probe);
		assert_non_null(ops->init);
		assert_non_null(ops->queue);
		assert_non_null(ops->cleanup);
		/* SYNC engines complete in queue(): no commit, no reap */
		if (ops->flags & CDM_ENGINE_SYNC) {
			assert_null(ops->commit);
			assert_null(ops->reap);
		} else {
			assert_non_null(ops->commit);
			assert_non_null(ops->reap);
		}
	}
	/* sync and null need nothing from the build */
	assert_non_null(cdm_engine_find("sync", NULL));
	assert_non_null(cdm_engine_find("null", NULL));
}

static void test_find_unknown(void **state)
{
	int known = -1;

	(void)state;
	assert_null(cdm_engine_find("bogus", &known));
	assert_int_equal(known, 0);
	known = -1;
	assert_null(cdm_engine_find("auto", &known));
	assert_int_equal(known, 0);
	known = -1;
	assert_null(cdm_engine_find("", &known));
	assert_int_equal(known, 0);
	assert_null(cdm_engine_find("bogus", NULL));
}

static void test_find_not_built_in(void **state)
{
	const char *const *names;
	size_t n, i;
	int missing = 0;

	(void)state;
	n = cdm_engine_list(&names);
	for (i = 0; i < n; i++) {
		int known = -1;

		if (cdm_engine_find(names[i], &known))
			continue;
		assert_int_equal(known, 1);
		assert_null(strstr(cdm_engine_build_info(), names[i]));
		missing++;
	}
	if (!missing) {
		print_message("[  SKIP    ] every engine is built in\n");
		skip();
	}
}

static void test_build_info(void **state)
{
	const char *info = cdm_engine_build_info();
	char expect[64] = "";
	const char *const *names;
	size_t n, i;

	(void)state;
	n = cdm_engine_list(&names);
	for (i = 0; i < n; i++) {
		if (!cdm_engine_find(names[i], NULL))
			continue;
		if (expect[0])
			strcat(expect, " ");
		strcat(expect, names[i]);
	}
	assert_string_equal(info, expect);
	assert_ptr_equal(info, cdm_engine_build_info());
}

static void test_pick(void **state)
{
	const struct cdm_engine_ops *ops = cdm_engine_pick();
	const char *const *names;
	struct cdm_err why;
	size_t i;

	(void)state;
	assert_non_null(ops);
	assert_string_not_equal(ops->name, "null");
	assert_int_equal(cdm_engine_probe(ops, &why), 0);
	assert_string_equal(why.msg, "");

	/* nothing preferred over the pick works here */
	cdm_engine_list(&names);
	for (i = 0; strcmp(names[i], ops->name) != 0; i++) {
		const struct cdm_engine_ops *better = cdm_engine_find(names[i], NULL);

		if (better)
			assert_int_not_equal(cdm_engine_probe(better, &why), 0);
	}
}

static void test_probe_reasons(void **state)
{
	struct cdm_err why;
	int ret;

	(void)state;
	ret = cdm_engine_probe(NULL, &why);
	assert_int_equal(ret, -ENOSYS);
	assert_string_equal(why.msg, "not built in");
	/* sync and null always work */
	assert_int_equal(cdm_engine_probe(cdm_engine_find("sync", NULL), &why), 0);
	assert_int_equal(cdm_engine_probe(cdm_engine_find("null", NULL), NULL), 0);
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* every row: a name, built in or not, and a reason that starts with its class */
static void test_status_rows(void **state)
{
	const char *const *names;
	const struct cdm_engine_ops *ops;
	const char *name;
	struct cdm_err why;
	size_t n, i;
	int ret;

	(void)state;
	n = cdm_engine_list(&names);
	for (i = 0; i < n; i++) {
		ret = cdm_engine_status(i, &name, &ops, &why);
		assert_string_equal(name, names[i]);
		assert_ptr_equal(ops, cdm_engine_find(names[i], NULL));
		if (!ops) {
			assert_int_equal(ret, -ENOSYS);
			assert_true(starts_with(why.msg, "not built in: install "));
		} else if (ret < 0) {
			assert_true(starts_with(why.msg, "refused by the kernel: ") ||
				    starts_with(why.msg, "blocked by seccomp: ") ||
				    starts_with(why.msg, "RLIMIT_MEMLOCK: "));
		} else {
			assert_true(why.msg[0] == '\0' || starts_with(why.msg, "RLIMIT_MEMLOCK: "));
		}
	}
	/* sync and null: built in, working, nothing to say */
	for (i = 2; i < 4; i++) {
		assert_int_equal(cdm_engine_status(i, &name, &ops, &why), 0);
		assert_non_null(ops);
		assert_string_equal(why.msg, "");
	}
	assert_int_equal(cdm_engine_status(n, &name, &ops, &why), -EINVAL);
	assert_null(name);
	assert_null(ops);
	assert_int_equal(cdm_engine_status(2, NULL, NULL, NULL), 0);
}

/* what the registry answered inside a confined child, row by row */
#define ROWS 4
struct confined {
	int ret[ROWS];          /* cdm_engine_status() */
	int built[ROWS];
	char why[ROWS][CDM_ERR_MAX];
	int resolve_ret[ROWS];  /* cdm_engine_resolve() */
	char resolve[ROWS][CDM_ERR_MAX];
	char pick[16];          /* cdm_engine_pick() */
};

#if defined(__x86_64__)
#define SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ARCH AUDIT_ARCH_AARCH64
#endif

/* refuse io_uring_setup and io_setup with @err, as deny-syscall does */
static int confine_seccomp(long err)
{
#ifdef SECCOMP_ARCH
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_setup, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned int)err & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return -errno;
	return 0;
#else
	(void)err;
	return -ENOTSUP;
#endif
}

/*
 * RLIMIT_MEMLOCK of @bytes, and no CAP_IPC_LOCK to be exempt from it, as
 * a user of our own.  io_uring charges locked memory to the user (uid),
 * not to the process: as root, the rings of every other confined root
 * process running at the same time (another test binary, a CLI test, a
 * ring closed and not yet released by the kernel's worker) count against
 * this limit too.  A uid no other process has (from this child's pid) is
 * charged with this child's rings only.  Every other capability is kept
 * (PR_SET_KEEPCAPS), so only the limit differs from a root run.
 */
static int confine_memlock(long bytes)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[2];
	struct rlimit rl = { .rlim_cur = (rlim_t)bytes, .rlim_max = (rlim_t)bytes };
	uid_t uid = 1500000000u + (uid_t)getpid();

	if (setrlimit(RLIMIT_MEMLOCK, &rl) < 0 || prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 ||
	    setresuid(uid, uid, uid) < 0 || syscall(SYS_capget, &hdr, caps) < 0)
		return -errno;
	for (unsigned int i = 0; i < 2; i++)
		caps[i].effective = caps[i].permitted;
	caps[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
	if (syscall(SYS_capset, &hdr, caps) < 0)
		return -errno;
	return 0;
}

/*
 * Ask the registry about every row in a child confined by @confine(@arg),
 * so the confinement dies with it.  Skips the test when the child cannot
 * be confined here (no seccomp, another architecture).
 */
static void ask_confined(int (*confine)(long), long arg, struct confined *out)
{
	struct confined *shared;
	int status;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(shared != MAP_FAILED);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *const *names;
		size_t n = cdm_engine_list(&names);
		const struct cdm_engine_ops *ops;
		struct cdm_err err;

		if (confine(arg) < 0)
			_exit(77);
		for (size_t i = 0; i < n && i < ROWS; i++) {
			shared->ret[i] = cdm_engine_status(i, NULL, &ops, &err);
			shared->built[i] = ops != NULL;
			memcpy(shared->why[i], err.msg, sizeof(err.msg));
			shared->resolve_ret[i] = cdm_engine_resolve(names[i], &ops, &err);
			memcpy(shared->resolve[i], err.msg, sizeof(err.msg));
		}
		snprintf(shared->pick, sizeof(shared->pick), "%s", cdm_engine_pick()->name);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	memcpy(out, shared, sizeof(*out));
	munmap(shared, sizeof(*shared));
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("[  SKIP    ] cannot confine a process here\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

#define SECCOMP_WHY " is refused with EPERM by a seccomp filter on this process, as a container's profile may do"

/* EPERM under a filter: "blocked by seccomp"; --engine's message has no class */
static void test_status_seccomp(void **state)
{
	struct confined c;

	(void)state;
	ask_confined(confine_seccomp, EPERM, &c);
	if (c.built[0]) {
		assert_int_equal(c.ret[0], -EPERM);
		assert_string_equal(c.why[0], "blocked by seccomp: io_uring_setup" SECCOMP_WHY);
		assert_int_equal(c.resolve_ret[0], -EPERM);
		assert_string_equal(c.resolve[0],
				    "the io_uring engine does not work here: io_uring_setup" SECCOMP_WHY);
	}
	if (c.built[1]) {
		assert_int_equal(c.ret[1], -EPERM);
		assert_string_equal(c.why[1], "blocked by seccomp: io_setup" SECCOMP_WHY);
		assert_string_equal(c.resolve[1],
				    "the libaio engine does not work here: io_setup" SECCOMP_WHY);
	}
	/* sync is untouched, and auto falls back to it */
	assert_int_equal(c.ret[2], 0);
	assert_string_equal(c.pick, "sync");
}

/* ENOSYS (a kernel without the call), even under a filter: "refused by the kernel" */
static void test_status_kernel(void **state)
{
	struct confined c;

	(void)state;
	ask_confined(confine_seccomp, ENOSYS, &c);
	if (c.built[0]) {
		assert_int_equal(c.ret[0], -ENOSYS);
		assert_string_equal(c.why[0], "refused by the kernel: kernel has no io_uring");
		assert_string_equal(c.resolve[0],
				    "the io_uring engine does not work here: kernel has no io_uring");
	}
	if (c.built[1]) {
		assert_int_equal(c.ret[1], -ENOSYS);
		assert_string_equal(c.why[1],
				    "refused by the kernel: kernel without AIO (CONFIG_AIO is off)");
	}
	assert_string_equal(c.pick, "sync");
}

/*
 * No locked memory at all: on kernels that charge the ring to
 * RLIMIT_MEMLOCK (6.18 does) io_uring does not work; on others it works
 * and says that registered buffers are limited.  Either way the class is
 * RLIMIT_MEMLOCK.  64 KiB leave room for the probe's ring: works, with the
 * remark.
 */
static void test_status_memlock(void **state)
{
	struct confined c;

	(void)state;
	if (!cdm_engine_find("io_uring", NULL)) {
		print_message("[  SKIP    ] io_uring: not built in\n");
		skip();
	}
	if (geteuid() != 0) {
		/* a user's own limit cannot be raised back for the next test */
		print_message("[  SKIP    ] needs root to drop CAP_IPC_LOCK and set RLIMIT_MEMLOCK\n");
		skip();
	}
	ask_confined(confine_memlock, 0, &c);
	print_message("[  NOTE    ] io_uring with no locked memory: %s\n", c.why[0]);
	if (c.ret[0] < 0) {
		assert_int_equal(c.ret[0], -ENOMEM);
		assert_string_equal(c.why[0], "RLIMIT_MEMLOCK: ring memory refused: "
				    "RLIMIT_MEMLOCK too low for this user (ulimit -l)");
		assert_string_equal(c.resolve[0], "the io_uring engine does not work here: ring memory refused: "
				    "RLIMIT_MEMLOCK too low for this user (ulimit -l)");
		assert_string_not_equal(c.pick, "io_uring");
	} else {
		assert_true(starts_with(c.why[0], "RLIMIT_MEMLOCK: 0 KiB for this user (ulimit -l)"));
	}
	ask_confined(confine_memlock, 64 * 1024, &c);
	assert_int_equal(c.ret[0], 0);
	assert_string_equal(c.why[0], "RLIMIT_MEMLOCK: 64 KiB for this user (ulimit -l); "
			    "a run needing more buffers goes unregistered");
	assert_int_equal(c.resolve_ret[0], 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_find_every_name),
		T(test_find_unknown),
		T(test_find_not_built_in),
		T(test_build_info),
		T(test_pick),
		T(test_probe_reasons),
		T(test_status_rows),
		T(test_status_seccomp),
		T(test_status_kernel),
		T(test_status_memlock),
		T(test_io_uring_round_trip),
		T(test_io_uring_unregistered_round_trip),
		T(test_io_uring_buffered_round_trip),
		T(test_io_uring_busy),
		T(test_libaio_round_trip),
		T(test_libaio_buffered_round_trip),
		T(test_sync_round_trip),
		T(test_sync_keeps_depth_one),
		T(test_null_round_trip),
		T(test_null_service_round_trip),
		T(test_null_immediate),
		T(test_null_service_time),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
