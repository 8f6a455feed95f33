/* SPDX-License-Identifier: MIT */
/*
 * cdm/model/result.h - the result model: everything a run measured and the
 * settings it ran with.  One model feeds every formatter; a formatter never
 * recomputes a figure from anything but these counts (see docs/method.md).
 */
#ifndef CDM_RESULT_H
#define CDM_RESULT_H

#include <stdint.h>
#include <time.h>

#include "cdm/base/devspec.h"
#include "cdm/model/spec.h"
#include "cdm/model/hist.h"
#include "cdm/model/pass.h"
#include "cdm/model/steady.h"

#define CDM_MAX_PASSES CDM_COUNT_MAX

struct cdm_series;
struct cdm_run_result;

/* one run of an aggregate (model/merge.h) */
struct cdm_scale_source {
	char name[256];                 /* "rank 2 (node7)", or the file name */
	struct cdm_run_result *res;     /* owned */
};

/*
 * what an aggregate result (res->scale) knows about its runs: made by
 * cdm_merge(), or read back from a saved aggregate's "scale"
 * (format/result_read.h)
 */
struct cdm_scale {
	char unit[16];                  /* "ranks" (MPI) or "runs" (cdm merge) */
	unsigned int n;
	struct cdm_scale_source *src;   /* n of them, owned */
};

enum cdm_dir {
	CDM_DIR_READ = 0,
	CDM_DIR_WRITE = 1,
	CDM_DIR_MIX = 2,                /* reads and writes: spec.write_pct % writes */
};

/* which pass figure a report shows (--aggregate); chosen per metric */
enum cdm_aggregate {
	CDM_AGG_BEST = 0,               /* CDM: highest MB/s/IOPS, lowest latency */
	CDM_AGG_MEDIAN = 1,
	CDM_AGG_MEAN = 2,
};

/* struct cdm_run_info.dev_rotational (0 = not known, as calloc leaves it) */
enum cdm_rotational {
	CDM_ROT_UNKNOWN = 0,
	CDM_ROT_NO = 1,                 /* SSD, NVMe, virtual disk saying so */
	CDM_ROT_YES = 2,                /* spinning disk (or a disk that says so) */
};

#define CDM_CV_THRESHOLD_DEFAULT 10.0  /* percent; --cv-threshold */

/*
 * struct cdm_end_fsync_sum - --end-fsync's fdatasyncs over the passes a
 * test's figures come from (cdm_result_end_fsync_sum()):
 * @count:    the fdatasyncs, one per pass that ended with one; 0 for a test
 *            read from cdm's text, which states only the last three
 * @total_ns: their time summed, ns; 0 with @count 0
 * @mean_ns:  their mean, ns: the flush's time per pass
 * @max_ns:   the longest of them, ns
 * @pass_pct: their time in % of the time of the passes they ended (each
 *            pass's seconds, which include its flush): the share of a pass
 *            the flush took
 */
struct cdm_end_fsync_sum {
	uint64_t count;
	uint64_t total_ns;
	double mean_ns;
	double max_ns;
	double pass_pct;
};

/*
 * struct cdm_fsync_sum - --fsync's fdatasyncs of a test over the passes
 * its figures come from (cdm_result_fsync_sum()):
 * @count:   the calls that completed
 * @mean_ns: their mean time, ns
 * @max_ns:  the longest of them, ns
 */
struct cdm_fsync_sum {
	uint64_t count;
	double mean_ns;
	double max_ns;
};

/*
 * struct cdm_reported - the figures a CrystalDiskMark report printed for a
 * test (format/cdm_read.h), for a test read from a report rather than
 * measured: no passes, no counts, only what CDM printed, parsed exactly as
 * printed.  CDM prints the best of its passes (highest MB/s, lowest mean
 * latency; docs/method.md), so these are figures under the aggregate best
 * only.  A figure the report lacks (CDM 6 prints no latency, and no IOPS
 * on its sequential rows) is NaN (cdm_pass_no_figure()), never 0.
 */
struct cdm_reported {
	int has;                        /* 1: the test is a report's, these are its figures */
	double mb_s;                    /* MB/s (10^6 bytes/s) as printed */
	double iops;                    /* IOPS as printed, or NaN */
	double lat_us;                  /* mean latency (us) as printed, or NaN */
	/* cdm's text of a run with --end-fsync: a write test's "EndFsync:" note */
	int has_end_fsync;              /* 1: it printed one, @end_fsync holds it */
	struct cdm_end_fsync_sum end_fsync;     /* its count and total 0 (not stated) */
	/* cdm's text of a run with --fsync: a write or Mix test's "Fsync:" note */
	int has_fsync;                  /* 1: it printed one, @fsync holds it */
	struct cdm_fsync_sum fsync;
};

/*
 * struct cdm_verify - --verify's read-back of a write or Mix test
 * (docs/method.md, "Verification"): every block the test wrote (warm-up
 * included) read back after it, each 512-byte sector's stamp
 * (model/stamp.h) checked against the last write to that block.  All 0
 * when the test was not verified (@done 0 and @interrupted 0).
 * @done:         1: verified (the read-back ran to its end)
 * @interrupted:  1: the read-back was cut short by a stop request (SIGINT,
 *                SIGTERM): nothing it read counts, the test is not checked;
 *                @done is then 0
 * @blocks:       blocks read back and checked; 0 when @blocks_unknown
 * @blocks_unknown: 1: how many blocks the test read back is not known (a
 *                test read from cdm's text, whose Verify lines give a
 *                faulty test's faults only and the clean tests' blocks
 *                all together, in source.verify_blocks): it read back
 *                something, but no count of it is a fact.  0 for a run
 *                cdm measured
 * @sampled:      1: a sample of the blocks written (a huge file), else all
 * @every:        when @sampled, the sample's rate: 1 block in @every of
 *                the file was recorded and read back; 0 when it is unknown
 *                (a file or report that did not say it).  Not used when
 *                not @sampled (every block written was read back)
 * @lost:         blocks holding an older write than the last one (a lost write)
 * @misdirected:  blocks holding a write meant for another offset
 * @torn:         blocks whose sectors do not all hold the same write
 * @first_*:      the file offset (bytes) of the first of each kind; valid
 *                when its count is not 0
 * @meant_known:  1: @first_meant is known (@misdirected not 0, and the run
 *                or its file said it)
 * @first_meant:  the offset the first misdirected block's stamp names:
 *                where that write was meant to go
 */
struct cdm_verify {
	int done;
	int interrupted;
	int sampled;
	int meant_known;
	int blocks_unknown;
	uint64_t blocks;
	uint64_t every;
	uint64_t lost, misdirected, torn;
	uint64_t first_lost, first_misdirected, first_torn;
	uint64_t first_meant;
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
	struct cdm_series *series;      /* --log-interval time series (series.h), or NULL; owned */
	int parts_unknown;              /* Mix: read from a file without the read/write parts */
	struct cdm_reported reported;   /* imported from a CDM report (has = 1), else all 0 */
	struct cdm_steady steady;       /* --steady-state: the rounds' verdict (steady.h); else 0 */
	struct cdm_verify verify;       /* --verify: what reading back the writes found; else 0 */
};

/*
 * Memory under the target: one thing found under the target's filesystem
 * (or under a block device TARGET) that can make the figures memory speed
 * rather than the storage's: a loop device reading its backing file
 * through the page cache, a filesystem in memory (tmpfs, ramfs), a RAM
 * disk (zram, brd, null_blk), or a FUSE or network filesystem whose client
 * caches data.  Found by target/stack.h's walk down the block stack;
 * printed as a warning, written to JSON ("memory_under"), Markdown and
 * `cdm compare`.  Every string is "" when not known.
 */
#define CDM_MEM_UNDER_MAX 8             /* findings kept per run; more are dropped */

struct cdm_mem_under {
	char kind[24];                  /* "loop_page_cache", "memory_fs", "zram", "ram_disk",
					 * "null_blk", "fuse", "network" */
	char layer[160];                /* where it is: "loop0", "/dev/shm (tmpfs)" */
	char stack[640];                /* the layers from the top down to it:
					 * "/mnt/san (ext4) > loop0" */
	char why[480];                  /* why the figures may be memory speed */
	char fix[240];                  /* what to do: "losetup --direct-io=on /dev/loop0 ..." */
};

/*
 * A device the target's filesystem sits on (target/stack.h's
 * cdm_stack_devices(): each of a btrfs's devices, an md or dm device and
 * its members, a block device TARGET), as sysfs describes it; filled by
 * cdm_sysinfo_fill(), written to JSON as target.devices when a run has
 * more than one.  Every string is "" and every number 0 when not known.
 */
#define CDM_DEVICES_MAX 8               /* devices kept per run; more are dropped */

struct cdm_dev_info {
	char name[64];                  /* kernel name: "loop0", "nvme0n1", "dm-0" */
	char model[128];                /* device/model, or "device-mapper NAME" */
	int rotational;                 /* enum cdm_rotational (queue/rotational) */
	char scheduler[32];             /* the active one of queue/scheduler */
	unsigned int logical_block;     /* queue/logical_block_size in bytes, 0 unknown */
};

/*
 * struct cdm_run_source - where an imported run came from: a text report
 * in one of CrystalDiskMark's layouts read by format/cdm_read.h (`cdm
 * import`, `cdm compare REPORT.txt ...`), printed by CrystalDiskMark or by
 * cdm itself (--format cdm, cdm7 or cdm6, whose product line names cdm).
 * kind is CDM_SOURCE_RUN (0, calloc's) for a run cdm measured; then every
 * other field is "" / 0.  Either imported kind has only the figures its
 * text printed (struct cdm_reported) and states only what its text states
 * (cdm_result_known()).
 */
enum cdm_source_kind {
	CDM_SOURCE_RUN = 0,             /* measured by cdm */
	CDM_SOURCE_CDM_REPORT = 1,      /* a CrystalDiskMark text report */
	CDM_SOURCE_CDM_TEXT = 2,        /* cdm's own text report in a CDM layout */
};

struct cdm_run_source {
	int kind;                       /* enum cdm_source_kind */
	unsigned int layout;            /* the report's layout: 3, 5, 6, 7 or 8 (8.x and 9.x);
					 * cdm's text: 6, 7 or 8 (cdm6, cdm7, cdm) */
	char product[160];              /* its product line, "" when trimmed */
	char version[32];               /* "8.0.1", "7.0.0h"; cdm's text: cdm's, "0.1.0";
					 * "" when unknown */
	char edition[64];               /* "x64", "Shizuku Edition x64", "ARM64"; "" */
	char origin[96];                /* cdm's text of an imported report: whose figures,
					 * "CrystalDiskMark 8.0.1 x64"; else "" */
	char file[256];                 /* the file it was read from, as given */
	char date_text[32];             /* its Date: as printed, "" when absent */
	char volume[96];                /* its volume as printed, "G: 0% (0/1863GiB)"; "" */
	uint64_t verify_blocks;         /* cdm's text: the blocks its clean Verify line
					 * states, its clean tests' together (each one's
					 * own is unknown, verify.blocks_unknown); 0 none */
	int has_interval;               /* it states its Interval (info.interval_ms; 0 is one) */
	int has_admin;                  /* it states whether it ran as admin (info.admin) */
	int has_data;                   /* it states its test data (info.zero_fill) */
	int no_footer;                  /* a text without a Profile, Test or Date line: cut
					 * short, or trimmed to its body; the figures it has
					 * are read, the rest unknown (not in the JSON) */
};

/*
 * struct cdm_run_info.test_file - the test file a run measured on:
 * @CDM_TEST_FILE_UNKNOWN: not stated (a block device TARGET, an imported
 *                         report, a run stopped before its file, a file
 *                         from before it was recorded)
 * @CDM_TEST_FILE_NEW:     made for the run and removed after it
 * @CDM_TEST_FILE_KEPT:    made for the run and kept (--keep)
 * @CDM_TEST_FILE_REUSED:  one kept by an earlier run (--file)
 * struct cdm_run_info.test_file_data - the data the file holds:
 * @CDM_FILE_DATA_UNKNOWN: not known (a kept file from before cdm
 *                         recorded it, or no file)
 * @CDM_FILE_DATA_RANDOM:  incompressible stamped data (--data random)
 * @CDM_FILE_DATA_ZERO:    zeros (--data zero)
 */
enum cdm_test_file {
	CDM_TEST_FILE_UNKNOWN = 0,
	CDM_TEST_FILE_NEW,
	CDM_TEST_FILE_KEPT,
	CDM_TEST_FILE_REUSED,
};

enum cdm_file_data {
	CDM_FILE_DATA_UNKNOWN = 0,
	CDM_FILE_DATA_RANDOM,
	CDM_FILE_DATA_ZERO,
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
	unsigned int time_ms;           /* ms per pass (JSON's time_s, in seconds) */
	unsigned int interval_ms;       /* ms between tests */
	unsigned int warmup_ms;         /* ms of discarded warm-up per test */
	int direct;                     /* 1 = O_DIRECT */
	int zero_fill;                  /* 1 = --data zero (CDM's 0Fill) */
	int dsync;                      /* 1 = --sync: the test file opened O_DSYNC */
	unsigned int fsync_every;       /* --fsync N: fdatasync every N writes per thread; 0 = off */
	uint64_t rate_iops;             /* --rate-iops: requested total I/Os per second; 0 = no cap */
	uint64_t seed;                  /* --seed; 0 = none given (seeded from the clock) */
	char null_device[CDM_DEVSPEC_TEXT_MAX]; /* the null engine's simulated device in
					 * canonical form (base/devspec.h); "" = none */
	int admin;                      /* 1 = ran as root (CDM's [Admin]) */
	time_t start;                   /* wall clock at start */
	char os[256];                   /* "Debian GNU/Linux 12 (bookworm)" */
	char kernel[128];               /* uname -r */
	char machine[64];               /* uname -m */
	char comment[512];              /* --comment, or "" */
	/* filled by cdm_sysinfo_fill() (sysinfo.h); "" / 0 when not found */
	char label[256];                /* --label, default TARGET */
	char fs_source[256];            /* mount source: "/dev/vda1", "srv:/export" */
	char dev_name[64];              /* block device of the filesystem: "vda", "nvme0n1" */
	char dev_model[128];            /* /sys/block/DEV/device/model */
	int dev_rotational;             /* enum cdm_rotational */
	char dev_scheduler[32];         /* active I/O scheduler: "mq-deadline", "none" */
	/* every device the filesystem sits on; devices[0] is dev_name's, as above */
	unsigned int ndevices;          /* 0..CDM_DEVICES_MAX */
	struct cdm_dev_info devices[CDM_DEVICES_MAX];
	int is_device;                  /* TARGET is a block device (device.h) */
	uint64_t target_dev_bytes;      /* its size in bytes (BLKGETSIZE64) */
	unsigned int target_dev_lbs;    /* its logical block size in bytes (BLKSSZGET); for a
					 * file, the largest of the devices under its
					 * filesystem, which O_DIRECT is aligned to; 0 unknown */
	char cpu_model[128];            /* /proc/cpuinfo model name */
	unsigned int cpus_online;       /* sysconf(_SC_NPROCESSORS_ONLN) */
	unsigned int cpus_allowed;      /* cdm_sysinfo_cpus_allowed(): affinity, cgroup quota; 0 unknown */
	uint64_t mem_total_bytes;       /* MemTotal of /proc/meminfo (the RAM the kernel manages); 0 unknown */
	uint64_t log_interval_ns;       /* --log-interval, 0 = no time series */
	int test_file;                  /* enum cdm_test_file */
	int test_file_data;             /* enum cdm_file_data: what the test file holds */
	/* issue 14: numbers that hold (docs/method.md) */
	int end_fsync;                  /* --end-fsync: each write/Mix pass ends with fdatasync */
	int steady_state;               /* --steady-state: rounds until steady (steady.h) */
	unsigned int max_rounds;        /* --max-rounds (with steady_state) */
	int precondition;               /* --precondition: the file written sequentially twice */
	uint64_t precondition_ns;       /* how long the preconditioning took, ns; 0 = none,
					 * or, with @precondition, it did not complete
					 * (a stop request or an error during it) */
	int verify;                     /* --verify: writes read back and checked */
	char cpus[256];                 /* --cpus as a canonical list ("0-3,8"); "" = not pinned */
	char cpus_allowed_list[256];    /* CPUs the process may run on ("0-1"); "" unknown */
	int dev_numa_node;              /* NUMA node of the device (sysfs numa_node); -1 =
					 * unknown or none (cdm_result_info_init() sets -1) */
	char numa_warning[256];         /* the threads run on another node than the device: why; "" */
	/* filled by cdm_sysinfo_fill() (target/stack.h's walk) */
	unsigned int nmem_under;        /* findings in mem_under[], 0..CDM_MEM_UNDER_MAX */
	struct cdm_mem_under mem_under[CDM_MEM_UNDER_MAX];
	/*
	 * an imported report (source.kind != CDM_SOURCE_RUN): settings it does
	 * not state are unknown, kept as 0 (time_ms, interval_ms, size, count) or ""
	 * (engine, profile); start is its Date: read as UTC, the zone being
	 * unknown (docs/output-formats.md, "Reading CrystalDiskMark reports")
	 */
	struct cdm_run_source source;
};

struct cdm_run_result {
	struct cdm_run_info info;
	unsigned int ntests;
	struct cdm_test_result *tests;  /* in run order; owned */
	int interrupted;                /* signal number that stopped the run, or 0 */
	/* how a report presents the figures (set by the CLI) */
	enum cdm_aggregate aggregate;   /* --aggregate; CDM_AGG_BEST from alloc */
	double cv_threshold_pct;        /* --cv-threshold; CDM_CV_THRESHOLD_DEFAULT */
	const char *image;              /* --svg: the card's path as the Markdown
					 * report links it, or NULL; not owned */
	/* an aggregate of several runs (cdm-mpi, cdm merge), or NULL; merge.h */
	const struct cdm_scale *scale;
};

/*
 * struct cdm_spread - one metric across the measured passes of a test.
 * @n: number of passes the metric has a value for: a pass that measured
 * nothing (cdm_pass_state(): no I/O completed, or no time) has no MB/s,
 * IOPS or latency and is left out, never counted as a 0;
 * all other fields are 0 when @n is 0.  @stdev is the sample standard
 * deviation (n - 1 in the denominator; 0 for one pass), @cv_pct the
 * coefficient of variation, 100 * stdev / mean (0 when the mean is 0).
 * @median is the middle value, or the mean of the two middle values.
 */
struct cdm_spread {
	unsigned int n;
	double min, max, mean, median, stdev, cv_pct;
};

/*
 * cdm_result_median - the median of the @n values @v, which it sorts in
 * place (ascending): the middle value, or the mean of the two middle
 * values; NaN when @n is 0.  The one median of cdm: a test's spread
 * (struct cdm_spread), an aggregate's spread over its runs (model/merge.h)
 * and the burst detector's levels (model/detect.h).
 */
double cdm_result_median(double *v, unsigned int n);

/*
 * struct cdm_test_summary - the spread of a test's passes, per metric:
 * MB/s (10^6 bytes/s), IOPS (I/Os per second) and mean latency (ns), plus
 * the totals over the passes.
 */
struct cdm_test_summary {
	unsigned int npasses;
	unsigned int measured;          /* passes with figures (the spreads' n) */
	uint64_t bytes;                 /* sum over the measured passes */
	uint64_t ios;
	double seconds;
	struct cdm_spread mb_s;
	struct cdm_spread iops;
	struct cdm_spread lat_ns;
};

/*
 * cdm_result_first_pass - the first of @t's passes its figures come from
 * (cdm_steady_first_pass(), model/steady.h): 0, or with --steady-state
 * the first round of the last window.  Every figure and spread of this
 * header is over passes [cdm_result_first_pass(t), t->npasses); JSON and
 * CSV list every pass.
 */
unsigned int cdm_result_first_pass(const struct cdm_test_result *t);

/*
 * cdm_result_window_pass - @t's passes the figures come from (passes
 * [cdm_result_first_pass(t), t->npasses)) as one pass, in @all: their
 * counts added by cdm_pass_add(), their times (seconds) and --end-fsync's
 * fdatasyncs (end_fsyncs, end_fsync_ns) summed; start_unix_ns is the
 * first one's.  Every "all passes as one" figure of a summary (JSON's
 * bytes, ios and duration_s, read/write parts, fsync and
 * rate_iops_achieved; CSV's lat_max and CPU time per I/O; the run's
 * --rate-iops note) comes from it, so a summary never mixes the rounds
 * before a steady window with the window.  All 0 for a test without
 * passes (or one read from a report).
 */
void cdm_result_window_pass(const struct cdm_test_result *t, struct cdm_pass *all);

/*
 * cdm_result_window_measured - cdm_result_window_pass() over only those
 * passes that measured something (cdm_pass_state() CDM_PASS_MEASURED):
 * a pass in which no I/O completed adds no time, so the figures of @all
 * are those of the I/O measured (a sweep's points, model/sweep.h).
 * start_unix_ns is the first such pass's; all 0 when none measured.
 */
void cdm_result_window_measured(const struct cdm_test_result *t, struct cdm_pass *all);

/*
 * cdm_result_max_rounds - the most rounds @t could run under
 * --steady-state: its own (struct cdm_steady.max_rounds), or when it has
 * none (a file that did not say) the run's --max-rounds (@in).
 * cdm_result_requested - the passes @t asked for: with steady state,
 * cdm_result_max_rounds(); else the run's --count.
 * cdm_result_complete - is @t whole: 1 for a test read from a report
 * (its figures are all there is); 0 when no pass completed or an error
 * stopped it; with steady state, 1 once the rounds got steady or ran
 * cdm_result_max_rounds(); else 1 when every pass of --count completed.
 * JSON's "complete" and passes_requested, and the text's run status
 * ("interrupted after 3 of 8 tests") come from these.
 */
unsigned int cdm_result_max_rounds(const struct cdm_test_result *t, const struct cdm_run_info *in);
unsigned int cdm_result_requested(const struct cdm_test_result *t, const struct cdm_run_info *in);
int cdm_result_complete(const struct cdm_test_result *t, const struct cdm_run_info *in);

/*
 * cdm_result_end_fsync - do @t's passes end with --end-fsync's fdatasync
 * when the run asked for it (@end_fsync != 0): only write and Mix tests
 * write anything to flush (docs/method.md, "End-of-pass flush"); a read
 * test never does.  Returns 1 or 0.
 */
int cdm_result_end_fsync(const struct cdm_test_result *t, int end_fsync);

/*
 * cdm_result_end_fsync_sum - --end-fsync's fdatasyncs of @t in *@s
 * (struct cdm_end_fsync_sum): over the passes its figures come from
 * (cdm_result_first_pass() on, as every figure of a test), those that
 * ended with one and have a length; for a test read from cdm's text, its
 * "EndFsync:" note (struct cdm_reported).  The one computation every
 * report shows (the text's "EndFsync:" notes, Markdown, the SVG card,
 * JSON's and CSV's summaries).  Returns 1 when there is one to show: the
 * run asked for it (@in->end_fsync), @t ends its passes with it
 * (cdm_result_end_fsync()) and at least one did; else 0, *@s all 0.
 */
int cdm_result_end_fsync_sum(const struct cdm_test_result *t, const struct cdm_run_info *in,
			     struct cdm_end_fsync_sum *s);

/*
 * cdm_result_fsync_sum - --fsync's fdatasyncs of @t in *@s: over the
 * passes its figures come from (cdm_result_window_pass()), or for a test
 * read from cdm's text its "Fsync:" note (struct cdm_reported).  The one
 * computation the text's "Fsync:" notes and Markdown show.  Returns 1
 * when there is one to show: the run asked for it (@in->fsync_every),
 * @t writes (not a read test) and at least one call completed; else 0,
 * *@s all 0.
 */
int cdm_result_fsync_sum(const struct cdm_test_result *t, const struct cdm_run_info *in,
			 struct cdm_fsync_sum *s);

/*
 * cdm_result_test_file_key - "new", "kept" or "reused" for @tf (enum
 * cdm_test_file), as JSON and CSV write it; NULL for UNKNOWN.
 * cdm_result_file_data_key - "random" or "zero" for @d (enum
 * cdm_file_data); NULL for UNKNOWN.  Static strings.
 * cdm_result_test_file_parse / cdm_result_file_data_parse - the value
 * named @s (one of those keys) into *@v: 0, or -EINVAL for another text.
 */
const char *cdm_result_test_file_key(int tf);
const char *cdm_result_file_data_key(int d);
int cdm_result_test_file_parse(const char *s, int *v);
int cdm_result_file_data_parse(const char *s, int *v);

/*
 * enum cdm_verify_state - what a test's --verify read-back says, as every
 * format words it (docs/method.md, "Verification"):
 * @CDM_VERIFY_STATE_NONE:        not read back (a read test, no --verify)
 * @CDM_VERIFY_STATE_INTERRUPTED: the read-back was cut short: not checked
 * @CDM_VERIFY_STATE_EMPTY:       read back, but no write had completed:
 *                                0 blocks checked, so not "clean"
 * @CDM_VERIFY_STATE_CLEAN:       every block read back held its last write
 *                                (blocks_unknown: a text said it read back
 *                                clean, and not how many blocks)
 * @CDM_VERIFY_STATE_FAULTS:      lost, misdirected or torn blocks found
 */
enum cdm_verify_state {
	CDM_VERIFY_STATE_NONE,
	CDM_VERIFY_STATE_INTERRUPTED,
	CDM_VERIFY_STATE_EMPTY,
	CDM_VERIFY_STATE_CLEAN,
	CDM_VERIFY_STATE_FAULTS,
};

/*
 * cdm_result_verify_state - the state of read-back @v (never NULL).
 * cdm_result_verify_state_key - its JSON name ("clean", "faults",
 * "nothing_written", "interrupted"; NULL for NONE), as
 * docs/output-formats.md lists them.
 * cdm_result_verify_state_parse - the state named @s (one of those keys):
 * 0, or -EINVAL for another string.
 */
enum cdm_verify_state cdm_result_verify_state(const struct cdm_verify *v);
const char *cdm_result_verify_state_key(enum cdm_verify_state st);
int cdm_result_verify_state_parse(const char *s, enum cdm_verify_state *st);

/*
 * cdm_result_summarize - fill @s with the spread of @t's measured passes
 * (t->npasses of them, at most CDM_MAX_PASSES): the totals over all of
 * them, the spreads over those that measured something.  Never fails; a
 * test without passes gives an all-zero summary.
 * cdm_result_summarize_part - the same for one part of a Mix test's passes
 * (cdm_pass_part()); CDM_PART_ALL is cdm_result_summarize().
 */
void cdm_result_summarize(const struct cdm_test_result *t, struct cdm_test_summary *s);
void cdm_result_summarize_part(const struct cdm_test_result *t, enum cdm_part part,
			       struct cdm_test_summary *s);

/*
 * cdm_result_state - whether @t has figures: CDM_PASS_MEASURED when at
 * least one of its passes measured something; CDM_PASS_NO_PASS when no
 * pass completed (interrupted or failed first); else CDM_PASS_NO_IO (no
 * I/O completed in any pass) or CDM_PASS_NO_TIME.  A test that is not
 * MEASURED has no MB/s, IOPS or latency: every report says so instead of
 * printing a figure, and the run exits 1 (docs/method.md, "Nothing
 * measured").
 * cdm_result_measured - how many of @t's passes measured something.
 */
enum cdm_pass_state cdm_result_state(const struct cdm_test_result *t);
unsigned int cdm_result_measured(const struct cdm_test_result *t);

/*
 * cdm_result_has_data - does @t have anything to show: passes (measured
 * or not), or a CrystalDiskMark report's figures (t->reported)?  0 for a
 * test the run never reached; the reports skip it.  A reported test is
 * CDM_PASS_MEASURED for cdm_result_state() and has 0 passes
 * (cdm_result_measured()).
 */
int cdm_result_has_data(const struct cdm_test_result *t);

/*
 * cdm_result_agg_reason - why @t has no figures under aggregate @agg
 * although it has data: a test read from a CrystalDiskMark report has
 * only CDM's best-of figures, no passes to take a median or a mean of
 * ("a CrystalDiskMark report has only its best-of figures").  NULL when
 * @t's figures under @agg are its passes' or its report's; static text.
 */
const char *cdm_result_agg_reason(const struct cdm_test_result *t, enum cdm_aggregate agg);

/* what kept a pass from measuring, as far as cdm saw (cdm_result_cause()) */
enum cdm_cause {
	CDM_CAUSE_UNSEEN,       /* nothing cdm saw: the device, or a pass too short */
	CDM_CAUSE_BUSY,         /* the kernel refused to start I/O (pass busy_ns) */
	CDM_CAUSE_PAUSED,       /* cdm itself did not run (pass paused_ns) */
};

/*
 * cdm_result_cause - what kept the passes of @t without figures from
 * measuring: CDM_CAUSE_UNSEEN when one of them shows nothing cdm saw,
 * else CDM_CAUSE_PAUSED when cdm itself did not run in one, else
 * CDM_CAUSE_BUSY (the engine was refused in each).  CDM_CAUSE_UNSEEN
 * too when every pass measured something.
 */
enum cdm_cause cdm_result_cause(const struct cdm_test_result *t);

/*
 * cdm_result_why - why @t (or some of its passes) measured nothing, as one
 * line in @buf (@len bytes; cut if short): "no I/O completed in the 1 s
 * pass; the slowest I/O in flight had waited 1.0 s", "no I/O completed in
 * any of its 3 passes of 1 s; ...", "no I/O completed in 1 of its 3 passes
 * (pass 2); ...; its figures are from the other 2", "no pass completed".
 * "" when every pass measured something.  The text starts with
 * cdm_pass_state_reason()'s.  Returns @buf.
 */
char *cdm_result_why(const struct cdm_test_result *t, char *buf, size_t len);

/*
 * cdm_result_spread_pick - the figure of @sp that aggregate @agg shows: for
 * CDM_AGG_BEST the max when @higher_is_better (MB/s, IOPS), else the min
 * (latency); the median or the mean otherwise.  NaN (no figure) when
 * sp->n is 0.
 */
double cdm_result_spread_pick(const struct cdm_spread *sp, enum cdm_aggregate agg,
		       int higher_is_better);

/*
 * cdm_result_mb_s / cdm_result_lat_us - the MB/s and the mean latency in
 * microseconds of @t under aggregate @agg (each metric chosen on its own);
 * with CDM_AGG_BEST exactly cdm_result_best_mb_s() / _best_lat_us().
 * NaN (no figure) when no pass measured anything (cdm_result_state()).
 * A test read from a CrystalDiskMark report (t->reported.has) has its
 * report's figures under CDM_AGG_BEST, and none (NaN; the reason is
 * cdm_result_agg_reason()'s) under the median or the mean; NaN also for a
 * figure the report lacks (CDM 6's latency).
 */
double cdm_result_mb_s(const struct cdm_test_result *t, enum cdm_aggregate agg);
double cdm_result_lat_us(const struct cdm_test_result *t, enum cdm_aggregate agg);

/*
 * cdm_result_iops - the IOPS of @t under aggregate @agg: the pick of the
 * passes' measured IOPS (I/Os / seconds, cdm_pass_iops()), as the JSON
 * summary's spread and the CSV rows hold them.  The one derivation every
 * report uses (docs/method.md); never derived from a rounded MB/s.  With
 * one block size (every cdm test) the best IOPS comes from the pass of the
 * best MB/s.  NaN (cdm_pass_no_figure()) when no pass was measured.
 * A test read from a CrystalDiskMark report: as cdm_result_mb_s(); when
 * the report printed no IOPS (CDM 6's sequential rows) it is derived as
 * CDM derives every IOPS it prints, MB/s x 10^6 / block bytes.
 */
double cdm_result_iops(const struct cdm_test_result *t, enum cdm_aggregate agg);

/*
 * cdm_result_dir_name - "Read", "Write" or "Mix" (the CDM section names); static.
 * cdm_result_dir_key - "read", "write" or "mix" (JSON and CSV); static.
 */
const char *cdm_result_dir_name(enum cdm_dir dir);
const char *cdm_result_dir_key(enum cdm_dir dir);

/*
 * cdm_result_aggregate_name / cdm_result_aggregate_parse - "best", "median", "mean".
 * parse returns 0 and sets *@agg, or -EINVAL for any other text.
 */
const char *cdm_result_aggregate_name(enum cdm_aggregate agg);
int cdm_result_aggregate_parse(const char *s, enum cdm_aggregate *agg);

/*
 * cdm_result_unstable - is @t unstable: at least two passes that measured
 * something and a coefficient of variation of their MB/s above
 * @threshold_pct percent?  When
 * it is and @cv_pct is not NULL, *@cv_pct gets that CV.
 */
int cdm_result_unstable(const struct cdm_test_result *t, double threshold_pct,
			double *cv_pct);

/*
 * cdm_result_has_percentiles - does @t have a merged latency histogram to
 * take percentiles from?  The runner merges one only when every pass of
 * the test completed; an interrupted test has none (its percentiles are
 * reported as unknown, never computed from part of the data).
 */
int cdm_result_has_percentiles(const struct cdm_test_result *t);

/*
 * cdm_result_best_mb_s / cdm_result_best_lat_us - CDM's figures for a test:
 * the highest MB/s of the measured passes, and the lowest of the passes'
 * mean latencies in microseconds (each chosen separately, as CDM does),
 * over the passes that measured something.  NaN (no figure) when none did.
 * A test read from a CrystalDiskMark report: the report's figures.
 */
double cdm_result_best_mb_s(const struct cdm_test_result *t);
double cdm_result_best_lat_us(const struct cdm_test_result *t);

/*
 * What a run states about itself (cdm_result_known()'s @item): a run cdm
 * measured states every one of them; a run imported from a
 * CrystalDiskMark report only what the report printed.
 */
enum cdm_info_item {
	CDM_INFO_PROFILE,               /* profile[]: 8.x's Profile line */
	CDM_INFO_SIZE,                  /* size: the Test line's size */
	CDM_INFO_COUNT,                 /* count: its (xN) */
	CDM_INFO_TIME,                  /* time_ms: 8.x's Measure seconds (6.x, 7.x print none:
					 * their fixed 5 s, by the product line) */
	CDM_INFO_INTERVAL,              /* interval_ms: source.has_interval */
	CDM_INFO_WARMUP,                /* warmup_ms: no report states one */
	CDM_INFO_ENGINE,                /* engine[]: no report names one */
	CDM_INFO_DATE,                  /* start: the Date line (its zone is never stated) */
	CDM_INFO_OS,                    /* os[], kernel[], machine[]: the OS line */
	CDM_INFO_VOLUME,                /* the volume and its use: source.volume */
	CDM_INFO_ADMIN,                 /* admin: 8.x's Mode line, [Admin] or not (6.x,
					 * 7.x print none); source.has_admin */
	CDM_INFO_DATA,                  /* zero_fill: the line <0Fill> would be on (8.x's
					 * Mode, older ones' Test); source.has_data */
	CDM_INFO_HOST,                  /* CPU, memory, device, filesystem: no report has them */
};

/*
 * cdm_result_imported - is @in a run imported from a CrystalDiskMark
 * report (in->source.kind != CDM_SOURCE_RUN)?  1 or 0.
 * cdm_result_known - does @in state @item?  Always 1 for a run cdm
 * measured (a field it could not find, such as an unknown device model,
 * is "" there and each report says so itself); for an imported run 1 only
 * when the report printed it.  The one rule every report follows: what an
 * imported run does not state is shown as unknown (or left out, or null),
 * never as the 0 or "" the model keeps for it
 * (docs/output-formats.md, "Reading CrystalDiskMark reports").
 */
int cdm_result_imported(const struct cdm_run_info *in);
int cdm_result_known(const struct cdm_run_info *in, enum cdm_info_item item);

/*
 * cdm_result_info_init - @in as nothing is known of it yet: every field 0
 * or "", but dev_numa_node -1 (unknown: 0 is a node).  The one start of
 * an info that is filled field by field (cdm_result_alloc(), and the
 * CrystalDiskMark reader's, format/cdm_read.c, which copies its own over
 * the result's), so that a field nothing fills is unknown, never a 0 that
 * would be a fact.
 */
void cdm_result_info_init(struct cdm_run_info *in);

/*
 * cdm_result_alloc - a result with room for @ntests tests, each with an empty
 * histogram, its info as cdm_result_info_init() leaves it; aggregate best,
 * CV threshold CDM_CV_THRESHOLD_DEFAULT.
 * Returns NULL on allocation failure.  Free with
 * cdm_result_free() (NULL is allowed).
 */
struct cdm_run_result *cdm_result_alloc(unsigned int ntests);

/*
 * cdm_result_free - free @r, its tests and their histograms and time
 * series, and an aggregate's r->scale with its runs (NULL is allowed).
 */
void cdm_result_free(struct cdm_run_result *r);

/*
 * cdm_result_info_one_line - every text of @in (the label, the comment, the
 * target, a report's file name and product line, what /sys and
 * /proc said) made one line of valid UTF-8 in place by cdm_text_one_line()
 * (base/text.h): a file name with a newline or bytes that are not UTF-8,
 * taken for a label, can then break no line of a report, a table or a
 * JSON, Markdown or SVG file.  Called on every result read
 * (format/result_load.c) and on every run's (cli/cli.c, cdm_cli_run()).
 */
void cdm_result_info_one_line(struct cdm_run_info *in);

#endif /* CDM_RESULT_H */
