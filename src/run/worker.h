/* SPDX-License-Identifier: MIT */
/*
 * worker.h - private interface between the runner (one test at a time) and
 * its worker threads.  One worker = one thread = one engine context keeping
 * Q I/Os in flight.
 */
#ifndef CDM_WORKER_H
#define CDM_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "cdm/engine/engine.h"
#include "cdm/model/result.h"
#include "cdm/model/series.h"
#include "cdm/model/histogram.h"
#include "cdm/model/pass.h"

/* what all workers of one test share; written by the runner before "go" */
struct cdm_test_shared {
	const struct cdm_engine_ops *engine;
	unsigned int engine_options;
	uint64_t service_ns;            /* null engine */
	struct cdm_spec spec;
	enum cdm_dir dir;
	int fd;
	int direct;
	int zero_fill;
	unsigned int fsync_every;       /* fdatasync every N writes per thread; 0 = off */
	uint64_t rate_iops;             /* total I/Os per second over all threads; 0 = no cap */
	uint64_t nblocks;               /* file size / block size */
	unsigned int count;             /* measured passes */
	unsigned int batch;             /* most I/Os reaped and restarted per call */
	/*
	 * The schedule, CLOCK_MONOTONIC ns: window w runs [bounds[w],
	 * bounds[w+1]); window 0 is the warm-up, window k+1 is measured pass
	 * k, bounds[count + 1] is the end.  An I/O counts in the window in
	 * which it completes; I/Os completing after the end are not counted.
	 */
	uint64_t bounds[CDM_MAX_PASSES + 2];
	/* --log-interval (series.h): 0 = off; first slot and slots per window */
	uint64_t series_ns;
	unsigned int series_base[CDM_MAX_PASSES + 2];
	unsigned int series_n[CDM_MAX_PASSES + 2];
	pthread_barrier_t ready;        /* workers set up (T + 1 parties) */
	pthread_barrier_t go;           /* schedule published (T + 1 parties) */
	atomic_int failed;              /* a worker hit an I/O error: all stop */
	/* the shared sequential stream (CDM 9): next block index, own line */
	_Alignas(64) atomic_uint_fast64_t seq_next;
	char pad_[64 - sizeof(atomic_uint_fast64_t)];
};

struct cdm_worker {
	struct cdm_test_shared *sh;
	unsigned int id;
	pthread_t thread;
	/* results, read by the runner after join */
	int error;                      /* 0 or -errno */
	int short_io;                   /* error was a short transfer */
	int init_failed;                /* error came from setting up */
	uint64_t error_offset;          /* bytes */
	unsigned int depth_run;         /* depth the engine kept */
	uint64_t stopped_ns;            /* when it stopped starting I/O */
	char note[160];                 /* engine's remark */
	struct cdm_pass passes[CDM_MAX_PASSES];
	struct cdm_hist hist;           /* measured passes only */
	struct cdm_series_slot *series; /* --log-interval slots (zeroed), or NULL */
	/* progress, read by the runner while the test runs */
	_Alignas(64) atomic_uint_fast64_t live_bytes;
	char pad_[64 - sizeof(atomic_uint_fast64_t)];
};

/* cdm_worker_main - thread body; @arg is a struct cdm_worker. */
void *cdm_worker_main(void *arg);

/* the stop flag set by cdm_runner_request_stop(), read once per batch */
extern atomic_int cdm_stop_signal;

#endif /* CDM_WORKER_H */
