/* SPDX-License-Identifier: MIT */
/*
 * test_null_device.c - the simulated device of the null engine: its text
 * (base/devspec.h: every key, carry-over, the canonical form read back,
 * each refusal with its message, --null-service-us as shorthand) and the
 * model (engine/null_device.h) on an injected clock: the times passed in
 * are the test's, so every figure is exact, whatever the machine's load.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cdm/base/devspec.h"
#include "cdm/base/err.h"
#include "cdm/engine/null_device.h"

#define US 1000ull
#define MS 1000000ull
#define S 1000000000ull

static struct cdm_devspec spec;

/* @in is taken, and its canonical form is @want, which reads back the same */
static void accepted(const char *in, const char *want)
{
	struct cdm_err err = { "" };
	struct cdm_devspec again;
	char out[CDM_DEVSPEC_TEXT_MAX];

	if (cdm_devspec_parse(in, &spec, &err))
		fail_msg("'%s' refused: %s", in, err.msg);
	cdm_devspec_format(&spec, out, sizeof(out));
	assert_string_equal(out, want);
	assert_int_equal(cdm_devspec_parse(out, &again, &err), 0);
	assert_memory_equal(&again, &spec, sizeof(spec));
}

static void test_parse(void **state)
{
	const struct cdm_devspec_phase *p = spec.phase;

	(void)state;
	accepted("lat=100us,channels=4,iops=20000;at=2s,iops=5000",
		 "lat=100us,channels=4,iops=20000;at=2s,iops=5000");
	assert_int_equal(spec.nphases, 2);
	assert_int_equal(p[0].at_ns, 0);
	assert_int_equal(p[0].lat_ns, 100 * US);
	assert_int_equal(p[0].channels, 4);
	assert_int_equal(p[0].iops, 20000);
	assert_int_equal(p[0].mbs, 0);
	/* carried over: lat and channels; given: at and iops */
	assert_int_equal(p[1].at_ns, 2 * S);
	assert_int_equal(p[1].lat_ns, 100 * US);
	assert_int_equal(p[1].channels, 4);
	assert_int_equal(p[1].iops, 5000);
	assert_int_equal(p[1].given, CDM_DEVSPEC_AT | CDM_DEVSPEC_IOPS);

	accepted("iops=1000;at=500ms,stall=300ms", "iops=1000;at=500ms,stall=300ms");
	assert_int_equal(p[1].stall_ns, 300 * MS);
	assert_int_equal(p[1].iops, 1000);
	/* a stall is an event of its phase: it does not carry over */
	accepted("stall=1s;at=2s,lat=1ms;at=3s,mbs=50", "stall=1s;at=2s,lat=1ms;at=3s,mbs=50");
	assert_int_equal(p[0].stall_ns, 1 * S);
	assert_int_equal(p[1].stall_ns, 0);
	assert_int_equal(p[2].stall_ns, 0);
	assert_int_equal(p[2].lat_ns, 1 * MS);
	assert_int_equal(p[2].mbs, 50);

	/* the defaults, the words, the units, the canonical order and units */
	accepted("mbs=none,iops=none,channels=all,lat=2000us", "lat=2ms,channels=all,iops=none,mbs=none");
	assert_int_equal(p[0].channels, 0);
	accepted("at=0s,lat=1.5ms", "at=0s,lat=1500us");
	assert_int_equal(p[0].lat_ns, 1500 * US);
	accepted("lat=0.000000001s", "lat=1ns");
	accepted("lat=2.5s;at=90000ms,lat=0ns", "lat=2500ms;at=90s,lat=0s");
	accepted("lat=3600s,channels=1000000,iops=1000000000,mbs=10000000;at=86400s",
		 "lat=3600s,channels=1000000,iops=1000000000,mbs=10000000;at=86400s");
	/* at after the previous stall's end, exactly */
	accepted("stall=1s;at=1s,stall=1s;at=2s", "stall=1s;at=1s,stall=1s;at=2s");
	assert_int_equal(p[0].lat_ns, 0);
	assert_int_equal(p[0].iops, 0);
}

/* @in is refused with exactly @msg, and leaves no phase */
static void refused(const char *in, const char *msg)
{
	struct cdm_err err = { "" };

	assert_int_equal(cdm_devspec_parse(in, &spec, &err), -EINVAL);
	assert_string_equal(err.msg, msg);
	assert_int_equal(spec.nphases, 0);
}

static void test_refused(void **state)
{
	char many[CDM_DEVSPEC_TEXT_MAX], lng[CDM_DEVSPEC_TEXT_MAX + 8];

	(void)state;
	refused("iops=abc", "'iops=abc' (iops=N|none, N 1-1000000000)");
	refused("iops=0", "'iops=0' (iops=N|none, N 1-1000000000)");
	refused("mbs=1.5", "'mbs=1.5' (mbs=N|none, N 1-10000000 (MB/s))");
	refused("channels=0", "'channels=0' (channels=N|all, N 1-1000000)");
	refused("channels=none", "'channels=none' (channels=N|all, N 1-1000000)");
	refused("lat=5", "'lat=5' (lat=DUR: a number and ns, us, ms or s, up to 3600s)");
	refused("lat=1.5ns", "'lat=1.5ns' (lat=DUR: a number and ns, us, ms or s, up to 3600s)");
	refused("lat=3601s", "'lat=3601s' (lat=DUR: a number and ns, us, ms or s, up to 3600s)");
	refused("lat=-1ms", "'lat=-1ms' (lat=DUR: a number and ns, us, ms or s, up to 3600s)");
	refused("lat=1e3us", "'lat=1e3us' (lat=DUR: a number and ns, us, ms or s, up to 3600s)");
	refused("lat=.5s", "'lat=.5s' (lat=DUR: a number and ns, us, ms or s, up to 3600s)");
	refused("lat=", "'lat=' (lat=DUR: a number and ns, us, ms or s, up to 3600s)");
	refused("iops=1;at=86401s", "'at=86401s' (at=DUR: a number and ns, us, ms or s, up to 86400s)");
	refused("foo=1", "'foo=1' (KEY=VALUE, KEY one of at, stall, lat, channels, iops, mbs)");
	refused("lat", "'lat' (KEY=VALUE, KEY one of at, stall, lat, channels, iops, mbs)");
	refused("Lat=1ms", "'Lat=1ms' (KEY=VALUE, KEY one of at, stall, lat, channels, iops, mbs)");
	refused("lat=1ms,lat=2ms", "'lat=2ms' (lat= given twice in phase 1)");
	refused("", "phase 1 is empty (KEY=VALUE,...)");
	refused("lat=1ms;", "phase 2 is empty (KEY=VALUE,...)");
	refused("lat=1ms,", "'' (KEY=VALUE, KEY one of at, stall, lat, channels, iops, mbs)");
	refused("at=1s,lat=1ms", "'at=1s' (the first phase starts at 0: at= belongs to a later phase)");
	refused("lat=1ms;iops=5,lat=2ms", "'iops=5,lat=2ms' (phase 2 needs at=DUR: when it starts)");
	refused("lat=1ms;at=2s;at=2s", "'at=2s' (phase 3 must start after phase 2)");
	refused("lat=1ms;at=2s;at=1s", "'at=1s' (phase 3 must start after phase 2)");
	refused("stall=1s;at=500ms", "'at=500ms' (phase 2 must start after phase 1 and its stall)");
	/* the sixteenth phase is the last */
	snprintf(many, sizeof(many), "lat=1ms");
	for (unsigned int i = 1; i < CDM_DEVSPEC_PHASES; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), ";at=%us", i);
	accepted(many, many);
	assert_int_equal(spec.nphases, CDM_DEVSPEC_PHASES);
	snprintf(many + strlen(many), sizeof(many) - strlen(many), ";at=99s");
	assert_int_equal(cdm_devspec_parse(many, &spec, NULL), -EINVAL);
	memset(lng, 'x', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	refused(lng, "'xxxxxxxxxxxxxxxxxxxx...' (at most 255 characters)");
	/* short enough as given, too long as written back: "1.5s" is "1500ms" */
	snprintf(many, sizeof(many), "lat=1.5s");
	for (unsigned int i = 1; i <= 12; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), ";at=%u.5s,lat=1.5s", i);
	assert_true(strlen(many) < CDM_DEVSPEC_TEXT_MAX);
	refused(many, "'lat=1.5s;at=1.5s,lat...' (at most 255 characters as cdm writes it: lat=1500ms;at=1500ms...)");
}

/* --null-service-us N[,M@S]: lat=N us, channels=all, then at=S s, lat=M us */
static void test_service(void **state)
{
	static const char *const bad[] = {
		"", "x", "-1", "10000001", "1,", "1,2", "1,2@", "1,2@0", "1,2@0.0001",
		"1,2@3601", "1,2@3.7501", "1,2@3m", "1,2@3s", "1,2@1e1", "1,x@3", "1,2@3@4",
		"1,10000001@3",
	};
	char out[CDM_DEVSPEC_TEXT_MAX];

	(void)state;
	assert_int_equal(cdm_devspec_service("1000", &spec), 0);
	assert_string_equal(cdm_devspec_format(&spec, out, sizeof(out)), "lat=1ms,channels=all");
	assert_true(cdm_devspec_stateless(&spec));
	assert_int_equal(cdm_devspec_service("0", &spec), 0);
	assert_string_equal(cdm_devspec_format(&spec, out, sizeof(out)), "lat=0s,channels=all");
	assert_int_equal(cdm_devspec_service("1500000,1000@3.75", &spec), 0);
	assert_string_equal(cdm_devspec_format(&spec, out, sizeof(out)),
			    "lat=1500ms,channels=all;at=3750ms,lat=1ms");
	assert_int_equal(spec.phase[1].channels, 0);
	assert_int_equal(cdm_devspec_service("10000000,0@3600", &spec), 0);
	assert_string_equal(cdm_devspec_format(&spec, out, sizeof(out)),
			    "lat=10s,channels=all;at=3600s,lat=0s");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (cdm_devspec_service(bad[i], &spec) != -EINVAL)
			fail_msg("'%s' taken", bad[i]);
		assert_int_equal(spec.nphases, 0);
	}
	assert_int_equal(cdm_devspec_parse("iops=5", &spec, NULL), 0);
	assert_false(cdm_devspec_stateless(&spec));
	cdm_devspec_format(&(struct cdm_devspec){ 0 }, out, sizeof(out));
	assert_string_equal(out, "");
}

static struct cdm_null_device *device(const char *text, unsigned int inflight)
{
	struct cdm_null_device *d;
	struct cdm_err err = { "" };

	if (cdm_devspec_parse(text, &spec, &err))
		fail_msg("'%s': %s", text, err.msg);
	assert_int_equal(cdm_null_device_new(&spec, inflight, &d), 0);
	return d;
}

static uint64_t one(struct cdm_null_device *d, uint64_t now, uint32_t len)
{
	uint64_t done;

	cdm_null_device_serve(d, now, 1, &len, &done);
	return done;
}

/*
 * A closed loop of @q slots, as the worker keeps them: each slot's next
 * I/O is submitted when its last is done (at once: the machine is
 * perfectly fast), from @t0 until @end; every completion time in @done
 * (room for @max), sorted.  Returns how many.
 */
static unsigned int loop(struct cdm_null_device *d, unsigned int q, uint64_t t0, uint64_t end,
			 uint32_t len, uint64_t *done, unsigned int max)
{
	uint64_t next[64];
	unsigned int n = 0;

	assert_true(q <= 64);
	for (unsigned int i = 0; i < q; i++)
		next[i] = t0;
	for (;;) {
		unsigned int s = 0;

		for (unsigned int i = 1; i < q; i++)
			if (next[i] < next[s])
				s = i;
		if (next[s] >= end || n == max)
			break;
		next[s] = one(d, next[s], len);
		done[n++] = next[s];
	}
	/* insertion sort: the completions of different slots interleave */
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j && done[j - 1] > done[j]; j--) {
			uint64_t x = done[j];

			done[j] = done[j - 1];
			done[j - 1] = x;
		}
	return n;
}

/* completions in [@a, @b) */
static unsigned int within(const uint64_t *done, unsigned int n, uint64_t a, uint64_t b)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++)
		k += done[i] >= a && done[i] < b;
	return k;
}

static uint64_t done[200000];

/* one channel of 1 ms: 8 I/Os at once are done 1 ms apart; Little's law at Q8 */
static void test_channels(void **state)
{
	struct cdm_null_device *d = device("channels=1,lat=1ms", 8);
	uint32_t len[8] = { 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096 };
	uint64_t t[8];
	unsigned int n;

	(void)state;
	/* the clock is the test's: 5 s is where its first I/O is */
	cdm_null_device_serve(d, 5 * S, 8, len, t);
	for (unsigned int i = 0; i < 8; i++)
		assert_int_equal(t[i], 5 * S + (i + 1) * MS);
	/* a ninth, later: after the eighth */
	assert_int_equal(one(d, 5 * S + 3 * MS, 4096), 5 * S + 9 * MS);
	cdm_null_device_free(d);

	d = device("channels=1,lat=1ms", 8);
	n = loop(d, 8, 0, 2 * S, 4096, done, 200000);
	/* 1000 IOPS, each I/O waits for the 7 ahead of it: 8 ms */
	assert_int_equal(within(done, n, 1 * S, 2 * S), 1000);
	cdm_null_device_free(d);

	/* two channels of 1 ms: twice that */
	d = device("channels=2,lat=1ms", 8);
	n = loop(d, 8, 0, 2 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 2 * S), 2000);
	cdm_null_device_free(d);

	/* all: every one of Q at once, the old fixed service time */
	d = device("lat=1ms", 8);
	n = loop(d, 8, 0, 2 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 2 * S), 8000);
	cdm_null_device_free(d);
	d = device("lat=1ms,channels=all", 8);
	cdm_null_device_serve(d, 0, 8, len, t);
	for (unsigned int i = 0; i < 8; i++)
		assert_int_equal(t[i], 1 * MS);
	cdm_null_device_free(d);
}

/* at most cap x (W + credit) + 1 completions in any window of W from @done */
static void window_bound(const uint64_t *t, unsigned int n, double per_s, uint64_t w)
{
	unsigned int j = 0;

	for (unsigned int i = 0; i < n; i++) {
		while (t[i] - t[j] >= w)
			j++;
		assert_true(i - j + 1 <= per_s * (double)(w + CDM_NULL_DEVICE_CREDIT_NS) / 1e9 + 1);
	}
}

/* an IOPS cap: exact over a window, at every depth, with a fraction of a ns per I/O */
static void test_iops(void **state)
{
	static const unsigned int qs[] = { 1, 8, 32 };
	struct cdm_null_device *d;
	unsigned int n;

	(void)state;
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		d = device("iops=1000", qs[k]);
		n = loop(d, qs[k], 0, 3 * S, 4096, done, 200000);
		assert_int_equal(within(done, n, 1 * S, 2 * S), 1000);
		assert_int_equal(within(done, n, 1 * S + 500 * US, 2 * S + 500 * US), 1000);
		window_bound(done, n, 1000, 100 * MS);
		cdm_null_device_free(d);
	}
	/* 7 IOPS: 142857142.857 ns apart, and still 49 in 7 s */
	d = device("iops=7", 4);
	n = loop(d, 4, 0, 10 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 8 * S), 49);
	cdm_null_device_free(d);
	/* under a channel limit that allows more: the cap holds */
	d = device("lat=100us,channels=4,iops=20000", 32);
	n = loop(d, 32, 0, 2 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 2 * S), 20000);
	window_bound(done, n, 20000, 10 * MS);
	cdm_null_device_free(d);
	/* a cap above what the channels allow: the channels rule (4 / 1 ms) */
	d = device("lat=1ms,channels=4,iops=20000", 32);
	n = loop(d, 32, 0, 2 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 2 * S), 4000);
	cdm_null_device_free(d);
}

/* the credit: a thread back late after a pause gets up to credit's worth at once */
static void test_credit(void **state)
{
	struct cdm_null_device *d = device("iops=1000", 64);
	uint64_t t;

	(void)state;
	/* 1 ms apart: the first three (0, 1 and 2 ms of credit) at once */
	for (unsigned int i = 0; i < 10; i++) {
		t = one(d, 0, 4096);
		assert_int_equal(t, i < 3 ? 0 : (i - 2) * MS);
	}
	/* idle until 1 s: again three at once, then 1 ms apart */
	for (unsigned int i = 0; i < 5; i++)
		assert_int_equal(one(d, 1 * S, 4096), 1 * S + (i < 3 ? 0 : (i - 2) * MS));
	cdm_null_device_free(d);
}

/* an MB/s cap: bytes over time, for any size of I/O */
static void test_mbs(void **state)
{
	struct cdm_null_device *d;
	unsigned int n;

	(void)state;
	/* 100 MB/s of 1 MB I/Os: 100 per s, 10 ms apart */
	d = device("mbs=100", 8);
	n = loop(d, 8, 0, 3 * S, 1000000, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 2 * S), 100);
	cdm_null_device_free(d);
	/* 1 MiB I/Os: 100e6 / 1048576 = 95.367 per s, 953.67 in 10 s: 953 or 954 */
	d = device("mbs=100", 8);
	n = loop(d, 8, 0, 12 * S, 1048576, done, 200000);
	assert_in_range(within(done, n, 1 * S, 11 * S), 953, 954);
	assert_in_range(within(done, n, 1 * S + 5 * MS, 11 * S + 5 * MS), 953, 954);
	cdm_null_device_free(d);
	/* the lower of the two caps rules: 4 KiB at 10 MB/s is 2441 IOPS */
	d = device("iops=5000,mbs=10", 32);
	n = loop(d, 32, 0, 3 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 2 * S), 2441);
	cdm_null_device_free(d);
	d = device("iops=2000,mbs=10", 32);
	n = loop(d, 32, 0, 3 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 1 * S, 2 * S), 2000);
	cdm_null_device_free(d);
}

/* a stall: nothing completes in it, what was held completes at its end */
static void test_stall(void **state)
{
	struct cdm_null_device *d = device("iops=1000;at=500ms,stall=300ms", 4);
	unsigned int n;

	(void)state;
	n = loop(d, 4, 0, 2 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 500 * MS, 800 * MS), 0);
	/* at its end, the credit's worth at once (2 ms at 1 ms: 3), then 1000 per s again */
	assert_int_equal(within(done, n, 800 * MS, 800 * MS + 1), 3);
	assert_int_equal(within(done, n, 900 * MS, 1900 * MS), 1000);
	assert_int_equal(within(done, n, 100 * MS, 500 * MS), 400);
	cdm_null_device_free(d);

	/* stateless: a fixed service time with a stall from the first I/O */
	d = device("lat=1ms,stall=10ms", 4);
	assert_int_equal(one(d, 7 * S, 4096), 7 * S + 11 * MS);        /* starts at its end */
	assert_int_equal(one(d, 7 * S + 10 * MS, 4096), 7 * S + 11 * MS);
	assert_int_equal(one(d, 7 * S + 20 * MS, 4096), 7 * S + 21 * MS);
	cdm_null_device_free(d);
	/* a completion that falls in a stall waits for its end */
	d = device("lat=10ms;at=5ms,stall=20ms", 4);
	assert_int_equal(one(d, 0, 4096), 25 * MS);
	assert_int_equal(one(d, 26 * MS, 4096), 36 * MS);
	cdm_null_device_free(d);
}

/* phases: a change at at= (device-wide, from the first I/O), keys carried over */
static void test_phases(void **state)
{
	struct cdm_null_device *d = device("lat=1ms,channels=1;at=100ms,lat=2ms", 4);
	unsigned int n;

	(void)state;
	n = loop(d, 4, 0, 300 * MS, 4096, done, 200000);
	/* channels=1 carried over: one at a time, 1 ms then 2 ms apart */
	assert_int_equal(within(done, n, 50 * MS, 100 * MS), 50);
	assert_int_equal(within(done, n, 150 * MS, 250 * MS), 50);
	cdm_null_device_free(d);

	/* a burst then a cap: 20000 IOPS for 1 s, then 5000 */
	d = device("lat=100us,channels=4,iops=20000;at=1s,iops=5000", 32);
	n = loop(d, 32, 0, 3 * S, 4096, done, 200000);
	assert_int_equal(within(done, n, 200 * MS, 900 * MS), 14000);
	assert_int_equal(within(done, n, 1100 * MS, 2100 * MS), 5000);
	cdm_null_device_free(d);

	/* stateless phases: the phase in force at the submit time */
	d = device("lat=1ms;at=10ms,lat=2ms", 4);
	assert_int_equal(one(d, 1 * S, 4096), 1 * S + 1 * MS);
	assert_int_equal(one(d, 1 * S + 9 * MS, 4096), 1 * S + 10 * MS);
	assert_int_equal(one(d, 1 * S + 10 * MS, 4096), 1 * S + 12 * MS);
	cdm_null_device_free(d);

	/* fewer channels from a phase on: no more than that many in service */
	d = device("lat=10ms,channels=4;at=5ms,channels=1", 8);
	for (unsigned int i = 0; i < 4; i++)
		assert_int_equal(one(d, 0, 4096), 10 * MS);
	assert_int_equal(one(d, 6 * MS, 4096), 20 * MS);
	assert_int_equal(one(d, 6 * MS, 4096), 30 * MS);
	cdm_null_device_free(d);
	/* more channels: the new ones free at once */
	d = device("lat=10ms,channels=1;at=5ms,channels=3", 8);
	assert_int_equal(one(d, 0, 4096), 10 * MS);
	assert_int_equal(one(d, 6 * MS, 4096), 16 * MS);
	assert_int_equal(one(d, 6 * MS, 4096), 16 * MS);
	assert_int_equal(one(d, 6 * MS, 4096), 20 * MS);
	cdm_null_device_free(d);
}

/* ---- threads: one device, every thread's I/Os on its one channel ---- */

#define THREADS 4
#define PER_THREAD 5000

struct runner {
	struct cdm_null_device *d;
	uint64_t *done;
};

static void *serve_thread(void *arg)
{
	struct runner *r = arg;
	uint32_t len[5] = { 4096, 4096, 4096, 4096, 4096 };

	for (unsigned int i = 0; i < PER_THREAD; i += 5)
		cdm_null_device_serve(r->d, 1000 * S, 5, len, r->done + i);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_threads(void **state)
{
	struct cdm_null_device *d = device("channels=1,lat=1us", THREADS * 5);
	struct runner r[THREADS];
	pthread_t th[THREADS];

	(void)state;
	for (unsigned int i = 0; i < THREADS; i++) {
		r[i] = (struct runner){ d, done + i * PER_THREAD };
		assert_int_equal(pthread_create(&th[i], NULL, serve_thread, &r[i]), 0);
	}
	for (unsigned int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	/* one channel shared: every I/O its own microsecond, none lost or doubled */
	qsort(done, THREADS * PER_THREAD, sizeof(done[0]), cmp_u64);
	for (unsigned int i = 0; i < THREADS * PER_THREAD; i++)
		assert_int_equal(done[i], 1000 * S + (i + 1) * US);
	cdm_null_device_free(d);
	/* what a device is not */
	assert_int_equal(cdm_null_device_new(&spec, 0, &d), -EINVAL);
	assert_null(d);
	assert_int_equal(cdm_null_device_new(&(struct cdm_devspec){ 0 }, 1, &d), -EINVAL);
	cdm_null_device_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_service),
		cmocka_unit_test(test_channels),
		cmocka_unit_test(test_iops),
		cmocka_unit_test(test_credit),
		cmocka_unit_test(test_mbs),
		cmocka_unit_test(test_stall),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
