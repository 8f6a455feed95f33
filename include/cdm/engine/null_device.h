/* SPDX-License-Identifier: MIT */
/*
 * null_device.h - the null engine's simulated device (--null-device SPEC,
 * the grammar in cdm/base/devspec.h): one per test, shared by every
 * worker thread of it, which tells each I/O when it completes.  A device
 * with a known speed, a cap, a stall, a burst or steady rounds, so tests
 * and users get exact figures from the model, not from a disk and the
 * scheduler (docs/engines.md, "The simulated device").
 *
 * The runner (run/runner.c) makes one for each test, warm-up included,
 * and hands it to every thread's engine in struct cdm_engine_params; the
 * null engine (engine/null.c) asks it for each I/O's completion time at
 * commit() and sleeps until then in reap().  The device's clock starts at
 * the test's first I/O (device-wide), so at= counts from there, through
 * the warm-up and every pass or round.
 *
 * The rule for one I/O, submitted at t (all of it device-wide):
 *
 *   - the phase in force at t gives lat, channels and the caps;
 *   - it starts at max(t, the earliest time a channel is free), where the
 *     device has `channels` channels, each serving one I/O at a time
 *     (all: as many as can be in flight, Q x T: no I/O waits);
 *   - it is done at start + lat, or later when a cap says so: each cap is
 *     an absolute schedule (a token bucket, the GCRA of ATM networks) in
 *     which every I/O moves the next allowed completion on by 1/iops s,
 *     or by its bytes/(mbs x 10^6) s, with CDM_NULL_DEVICE_CREDIT_NS of
 *     credit, so a thread that comes back late to the device does not lose
 *     its turn, while over any window of W ns at most
 *     cap x (W + credit) + 1 I/Os complete;
 *   - a start or a completion that falls inside a stall, [at, at + stall)
 *     of its phase, is moved to the stall's end;
 *   - its channel is busy until it is done.
 *
 * With no channel limit and no cap in any phase the completion depends
 * only on the submit time: no lock is taken (cdm_devspec_stateless()).
 * Else one mutex per device serialises the I/Os, one lock per batch.
 */
#ifndef CDM_ENGINE_NULL_DEVICE_H
#define CDM_ENGINE_NULL_DEVICE_H

#include <stdint.h>

#include "cdm/base/devspec.h"

/* a cap's credit: the I/Os it lets through at once after a pause, in ns of the cap */
#define CDM_NULL_DEVICE_CREDIT_NS 2000000ull

struct cdm_null_device;

/*
 * cdm_null_device_new - a device of @spec (copied; 1 or more phases) for
 * at most @inflight I/Os in flight at once (the test's Q x T, >= 1), into
 * *@out.  Returns 0, -EINVAL (no phase, @inflight 0) or -ENOMEM.
 */
int cdm_null_device_new(const struct cdm_devspec *spec, unsigned int inflight,
			struct cdm_null_device **out);

/* cdm_null_device_free - free @d (NULL: nothing); no thread may still use it */
void cdm_null_device_free(struct cdm_null_device *d);

/*
 * cdm_null_device_serve - @n I/Os of @len[i] bytes each, submitted at
 * @now_ns, in that order: when each is done, into @done[i], in ns on the
 * clock of @now_ns (CLOCK_MONOTONIC in the engine; any clock that never
 * goes back, in the unit tests: the clock is injected).  The first call
 * starts the device's clock.  Any thread may call it at any time.
 * A thread's own completions are not always in order (a shorter lat in a
 * later phase): the engine keeps its own FIFO (engine/null.c).
 */
void cdm_null_device_serve(struct cdm_null_device *d, uint64_t now_ns, unsigned int n,
			   const uint32_t *len, uint64_t *done);

#endif /* CDM_ENGINE_NULL_DEVICE_H */
