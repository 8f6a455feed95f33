/* SPDX-License-Identifier: MIT */
/*
 * null_device.c - the null engine's simulated device: the completion time
 * of every I/O from a few lines of state shared by all the threads of a
 * test (cdm/engine/null_device.h has the rule).  Times inside are ns
 * from the device's first I/O; the channels are a min-heap of the times
 * each is free again; each cap is a theoretical arrival time (ns plus a
 * remainder in 1/den ns, so that 1/iops s adds up exactly over any run).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/devspec.h"
#include "cdm/engine/null_device.h"

#define NO_EPOCH UINT64_MAX

/* a cap's next allowed time, ns + rem / den */
struct cap {
	uint64_t ns;
	uint64_t rem;
	uint64_t den;           /* the denominator rem counts in; 0 = not used yet */
};

struct cdm_null_device {
	struct cdm_devspec spec;
	int stateless;          /* no channels, no caps: no lock, no state */
	_Atomic uint64_t epoch; /* the first I/O's submit time, or NO_EPOCH */
	pthread_mutex_t lock;   /* the rest, unless stateless */
	unsigned int inflight;  /* the heap's room */
	unsigned int nch;       /* channels now */
	uint64_t *heap;         /* when each channel is free */
	struct cap iops, mbs;
};

int cdm_null_device_new(const struct cdm_devspec *spec, unsigned int inflight,
			struct cdm_null_device **out)
{
	struct cdm_null_device *d;

	*out = NULL;
	if (!spec->nphases || spec->nphases > CDM_DEVSPEC_PHASES || !inflight)
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->spec = *spec;
	d->stateless = cdm_devspec_stateless(spec);
	atomic_init(&d->epoch, NO_EPOCH);
	d->inflight = inflight;
	if (!d->stateless) {
		d->heap = calloc(inflight, sizeof(*d->heap));
		if (!d->heap || pthread_mutex_init(&d->lock, NULL)) {
			free(d->heap);
			free(d);
			return -ENOMEM;
		}
	}
	*out = d;
	return 0;
}

void cdm_null_device_free(struct cdm_null_device *d)
{
	if (!d)
		return;
	if (!d->stateless) {
		pthread_mutex_destroy(&d->lock);
		free(d->heap);
	}
	free(d);
}

/* the phase in force at @t */
static const struct cdm_devspec_phase *phase_at(const struct cdm_devspec *s, uint64_t t)
{
	unsigned int p = s->nphases - 1;

	while (p && s->phase[p].at_ns > t)
		p--;
	return &s->phase[p];
}

/* @t, or the end of the stall it falls in (the stalls are in order and apart) */
static uint64_t unstall(const struct cdm_devspec *s, uint64_t t)
{
	for (unsigned int p = 0; p < s->nphases; p++) {
		const struct cdm_devspec_phase *ph = &s->phase[p];

		if (ph->stall_ns && t >= ph->at_ns && t < ph->at_ns + ph->stall_ns)
			t = ph->at_ns + ph->stall_ns;
	}
	return t;
}

static void sift_down(uint64_t *h, unsigned int n, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, m = i;
		uint64_t x;

		if (l < n && h[l] < h[m])
			m = l;
		if (l + 1 < n && h[l + 1] < h[m])
			m = l + 1;
		if (m == i)
			return;
		x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

/*
 * @want channels from now on: new ones are free at once (pushed as 0, the
 * smallest, so they rise to the top); a device with fewer drops the ones
 * free the soonest, so that at most @want I/Os are in service from here.
 */
static void channels_set(struct cdm_null_device *d, unsigned int want)
{
	if (!want || want > d->inflight)
		want = d->inflight;
	while (d->nch > want) {
		d->heap[0] = d->heap[--d->nch];
		sift_down(d->heap, d->nch, 0);
	}
	while (d->nch < want) {
		unsigned int i = d->nch++;

		d->heap[i] = 0;
		while (i && d->heap[(i - 1) / 2] > 0) {
			uint64_t x = d->heap[i];

			d->heap[i] = d->heap[(i - 1) / 2];
			d->heap[(i - 1) / 2] = x;
			i = (i - 1) / 2;
		}
	}
}

/* the earliest a cap lets an I/O complete: its next time less the credit */
static uint64_t cap_allowed(const struct cap *c)
{
	uint64_t at = c->ns + (c->rem ? 1 : 0);

	return at > CDM_NULL_DEVICE_CREDIT_NS ? at - CDM_NULL_DEVICE_CREDIT_NS : 0;
}

/* an I/O done at @t moves the cap's next time on by @num / @den ns */
static void cap_take(struct cap *c, uint64_t t, uint64_t num, uint64_t den)
{
	if (c->den != den) {
		/* a phase with another cap: the remainder in the new unit, rounded up */
		c->rem = c->den ? (c->rem * den + c->den - 1) / c->den : 0;
		if (c->rem >= den) {
			c->rem -= den;
			c->ns++;
		}
		c->den = den;
	}
	if (t > c->ns) {
		c->ns = t;
		c->rem = 0;
	}
	c->ns += num / den;
	c->rem += num % den;
	if (c->rem >= den) {
		c->rem -= den;
		c->ns++;
	}
}

/* one I/O of @len bytes submitted at @t: when it is done (under the lock) */
static uint64_t serve_one(struct cdm_null_device *d, uint64_t t, uint32_t len)
{
	const struct cdm_devspec_phase *ph = phase_at(&d->spec, t);
	uint64_t start, done;

	channels_set(d, ph->channels);
	start = unstall(&d->spec, t > d->heap[0] ? t : d->heap[0]);
	done = start + ph->lat_ns;
	if (ph->iops && cap_allowed(&d->iops) > done)
		done = cap_allowed(&d->iops);
	if (ph->mbs && cap_allowed(&d->mbs) > done)
		done = cap_allowed(&d->mbs);
	done = unstall(&d->spec, done);
	if (ph->iops)
		cap_take(&d->iops, done, 1000000000ull, ph->iops);
	/* bytes / (mbs x 10^6 B/s) = bytes x 1000 / mbs ns */
	if (ph->mbs)
		cap_take(&d->mbs, done, (uint64_t)len * 1000, ph->mbs);
	d->heap[0] = done;
	sift_down(d->heap, d->nch, 0);
	return done;
}

void cdm_null_device_serve(struct cdm_null_device *d, uint64_t now_ns, unsigned int n,
			   const uint32_t *len, uint64_t *done)
{
	uint64_t epoch = atomic_load_explicit(&d->epoch, memory_order_relaxed), t;

	/* the first I/O of the test starts the clock; a racing thread's earlier now counts as 0 */
	if (epoch == NO_EPOCH &&
	    atomic_compare_exchange_strong(&d->epoch, &epoch, now_ns))
		epoch = now_ns;
	t = now_ns > epoch ? now_ns - epoch : 0;
	if (d->stateless) {
		for (unsigned int i = 0; i < n; i++) {
			const struct cdm_devspec_phase *ph = phase_at(&d->spec, t);

			done[i] = epoch + unstall(&d->spec, unstall(&d->spec, t) + ph->lat_ns);
		}
		return;
	}
	pthread_mutex_lock(&d->lock);
	for (unsigned int i = 0; i < n; i++)
		done[i] = epoch + serve_one(d, t, len[i]);
	pthread_mutex_unlock(&d->lock);
}
