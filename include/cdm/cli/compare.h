/* SPDX-License-Identifier: MIT */
/*
 * cdm/compare.h - `cdm compare A.json B.json [C.json ...]`: results saved
 * with --save (or --format json) set side by side, per test and direction,
 * with each run's figure under its label and the ratio to the first run.
 * Tests that only some runs have are shown as missing; settings that
 * differ between the runs (size, count, time, engine, direct/buffered,
 * data) are listed as a warning at the top.  docs/output-formats.md shows
 * both layouts.
 */
#ifndef CDM_COMPARE_H
#define CDM_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cdm/model/result.h"

/* the figure compared (--metric) */
enum cdm_cmp_metric {
	CDM_CMP_MB_S = 0,               /* MB/s (10^6 bytes/s) */
	CDM_CMP_IOPS = 1,               /* measured I/Os per second */
	CDM_CMP_LAT = 2,                /* mean latency, shown in microseconds */
};

/* one test of a saved run: the figures compare needs */
struct cdm_cmp_test {
	char name[64];                  /* "SEQ1M Q8T1" */
	int write;                      /* 0 read, 1 write */
	uint64_t block;                 /* bytes */
	unsigned int qd, qd_run, threads;
	unsigned int npasses;           /* passes_completed */
	int measured;                   /* has figures (at least one pass) */
	/* indexed by enum cdm_aggregate; latency in ns */
	double mb_s[3], iops[3], lat_ns[3];
	double mb_s_cv_pct;
	int has_p99;
	double p99_ns;
};

/* one saved run */
struct cdm_cmp_run {
	char label[256];
	char version[32];
	char target[1024];
	char fs_type[32];
	char engine[16];
	char start_utc[32];
	uint64_t size;                  /* bytes */
	unsigned int count, time;       /* passes, seconds per pass */
	int direct, zero_fill, interrupted;
	unsigned int schema_version;
	unsigned int ntests;
	struct cdm_cmp_test *tests;     /* owned */
};

struct cdm_compare_opts {
	int markdown;                   /* 0 text (CDM-like layout), 1 Markdown */
	enum cdm_aggregate aggregate;   /* which figure of the passes */
	enum cdm_cmp_metric metric;
};

/*
 * cdm_compare_load - read a saved result from @len bytes of @text into
 * @run (zeroed first; free with cdm_compare_run_free(), also after a
 * failure).  On failure @err gets one line saying why, without the file
 * name: "not JSON: line 3, column 7: expected ',' or '}', found 'x'",
 * "truncated JSON: ...", "not a cdm result ...", "schema_version 2 is
 * newer than this cdm reads (1) ...", "not a valid cdm result: ...".
 * Returns 0, -EINVAL (any of those), -EPROTONOSUPPORT (a newer schema),
 * or -ENOMEM.
 */
int cdm_compare_load(const char *text, size_t len, struct cdm_cmp_run *run,
		     char *err, size_t err_len);

/*
 * cdm_compare_load_file - cdm_compare_load() on the contents of @path.
 * Also -errno of open/read (with strerror in @err), -E2BIG for a file
 * larger than CDM_JSON_MAX_BYTES.
 */
int cdm_compare_load_file(const char *path, struct cdm_cmp_run *run,
			  char *err, size_t err_len);

/* cdm_compare_run_free - free what @run owns (not @run); NULL allowed */
void cdm_compare_run_free(struct cdm_cmp_run *run);

/*
 * cdm_compare_write - the side-by-side report of @n runs (n >= 1) on @out,
 * ratios to runs[0].  Returns 0, or -EIO when writing failed.
 */
int cdm_compare_write(FILE *out, const struct cdm_cmp_run *runs, unsigned int n,
		      const struct cdm_compare_opts *o);

/*
 * cdm_compare_mismatch - the settings in which runs[1..n-1] differ from
 * runs[0], as "size, engine" (names from: size, count, time, engine,
 * direct, data) in @buf; "" when they all agree.  Returns the number of
 * settings that differ.
 */
unsigned int cdm_compare_mismatch(const struct cdm_cmp_run *runs, unsigned int n,
				  char *buf, size_t len);

/*
 * cdm_compare_main - the `cdm compare` subcommand: @argv[0] is "compare".
 * Prints the report on stdout (or --output), errors on stderr as
 * "cdm: FILE: why".  Returns the exit status: 0, 1 (the report could not
 * be written), 2 (usage error, or a file that cannot be read, is not JSON,
 * is truncated, is not a cdm result or has a newer schema_version).
 */
int cdm_compare_main(int argc, char **argv);

#endif /* CDM_COMPARE_H */
