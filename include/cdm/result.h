/* SPDX-License-Identifier: MIT */
/*
 * cdm/result.h - the result model: everything a run measured and the
 * settings it ran with.  One model feeds every formatter; a formatter never
 * recomputes a figure from anything but these counts (see docs/method.md).
 */
#ifndef CDM_RESULT_H
#define CDM_RESULT_H

#include <stdint.h>
#include <time.h>

#include "cdm/profile.h"
#include "cdm/stats.h"

#define CDM_MAX_PASSES CDM_COUNT_MAX

enum cdm_dir {
	CDM_DIR_READ = 0,
	CDM_DIR_WRITE = 1,
};

/* one test in one direction: SEQ1M Q8T1 Read */
struct cdm_test_result {
	struct cdm_spec spec;           /* as requested */
	enum cdm_dir dir;
	unsigned int qd_run;            /* queue depth really kept per thread */
	unsigned int npasses;           /* measured passes completed */
	struct cdm_pass passes[CDM_MAX_PASSES];
	struct cdm_hist *hist;          /* merged over all measured passes; owned */
	int error;                      /* 0, or -errno that stopped the test */
	uint64_t error_offset;          /* file offset of the failed I/O (bytes) */
};

/* everything about the run except the figures */
struct cdm_run_info {
	char version[32];               /* cdm version */
	char engine[16];                /* engine used */
	char profile[CDM_NAME_MAX];     /* Profile: line */
	char target[4096];              /* TARGET as given */
	char mount_point[4096];         /* mount point holding TARGET */
	char fs_type[32];               /* "ext4", "tmpfs", ... */
	uint64_t fs_total_bytes;        /* f_blocks * f_frsize */
	uint64_t fs_used_bytes;         /* (f_blocks - f_bfree) * f_frsize, before the test file */
	uint64_t fs_avail_bytes;        /* f_bavail * f_frsize, before the test file */
	uint64_t size;                  /* test file size used (bytes) */
	unsigned int count;             /* measured passes per test */
	unsigned int time;              /* seconds per pass */
	unsigned int interval;          /* seconds between tests */
	unsigned int warmup;            /* seconds of discarded warm-up per test */
	int direct;                     /* 1 = O_DIRECT */
	int zero_fill;                  /* 1 = --data zero (CDM's 0Fill) */
	int admin;                      /* 1 = ran as root (CDM's [Admin]) */
	time_t start;                   /* wall clock at start */
	char os[256];                   /* "Debian GNU/Linux 12 (bookworm)" */
	char kernel[128];               /* uname -r */
	char machine[64];               /* uname -m */
	char comment[512];              /* --comment, or "" */
};

struct cdm_run_result {
	struct cdm_run_info info;
	unsigned int ntests;
	struct cdm_test_result *tests;  /* in run order; owned */
	int interrupted;                /* signal number that stopped the run, or 0 */
};

/*
 * cdm_result_best_mb_s / cdm_result_best_lat_us - CDM's figures for a test:
 * the highest MB/s of the measured passes, and the lowest of the passes'
 * mean latencies in microseconds (each chosen separately, as CDM does).
 * 0.0 when no pass was measured.
 */
double cdm_result_best_mb_s(const struct cdm_test_result *t);
double cdm_result_best_lat_us(const struct cdm_test_result *t);

/*
 * cdm_result_alloc - a result with room for @ntests tests, each with an empty
 * histogram.  Returns NULL on allocation failure.  Free with
 * cdm_result_free() (NULL is allowed).
 */
struct cdm_run_result *cdm_result_alloc(unsigned int ntests);
void cdm_result_free(struct cdm_run_result *r);

#endif /* CDM_RESULT_H */
