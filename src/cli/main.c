/* SPDX-License-Identifier: MIT */
/*
 * main.c - the command line of a run, in five steps: parse the options
 * (getopt_long) into struct main_opts; build the run's configuration (the
 * options layered over the profile, checked, the engine resolved); check
 * the output files before anything is written to the target; run; print
 * the report.  The subcommands (compare, import, merge, report, sweep: the
 * table subcommands[]) have their own files.  Exit status:
 * include/cdm/cli/exit.h.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/err.h"
#include "cdm/base/text.h"
#include "cdm/base/uint.h"
#include "cdm/base/size.h"
#include "cdm/cli/cli.h"
#include "cdm/cli/compare_cli.h"
#include "cdm/cli/import.h"
#include "cdm/cli/list_profiles.h"
#include "cdm/cli/merge_cli.h"
#include "cdm/cli/report_cli.h"
#include "cdm/target/device.h"
#include "cdm/target/numa.h"
#include "cdm/target/outfile.h"
#include "cdm/engine/engine.h"
#include "cdm/model/merge.h"
#include "cdm/report/fmt.h"
#include "cdm/report/plot.h"
#include "cdm/plan/profile.h"
#include "cdm/report/report.h"
#include "cdm/plan/plan.h"
#include "cdm/run/runner.h"
#include "cdm/run/verify.h"
#include "cdm/model/detect.h"
#include "cdm/model/series.h"
#include "cdm/run/start_at.h"
#include "cdm/cli/sweep_cli.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"
#include "cdm/base/version.h"
#include "cdm/run/mpi.h"

enum {
	OPT_INTERVAL = 256, OPT_WARMUP, OPT_MODE, OPT_DATA, OPT_BUFFERED,
	OPT_COMMENT, OPT_LIST_ENGINES, OPT_MIX, OPT_NULL_SERVICE, OPT_NULL_DEVICE, OPT_NO_REGISTER,
	OPT_FILE, OPT_BATCH, OPT_SQPOLL, OPT_HIPRI, OPT_AGGREGATE, OPT_SAVE, OPT_LABEL, OPT_CV_THRESHOLD,
	OPT_ALLOW_DESTRUCTIVE, OPT_RATE_IOPS, OPT_SEED, OPT_SYNC, OPT_FSYNC,
	OPT_START_AT, OPT_SAVE_RANKS,
	OPT_LOG_INTERVAL, OPT_PLOT, OPT_SVG, OPT_LIST_PROFILES,
	OPT_CPUS, OPT_PRECONDITION, OPT_VERIFY,
	OPT_END_FSYNC, OPT_STEADY_STATE, OPT_MAX_ROUNDS,
};

/*
 * The subcommands, in one table: `cdm NAME ...` runs its main() (main()),
 * `cdm -q NAME ...` is refused with where it goes (misplaced_subcommand()),
 * and cdm --help shows its synopsis and what it does (print_help()).  Each
 * has its own file, help and options (cdm NAME --help).
 */
static const struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *synopsis;           /* after "cdm NAME " in the help */
	const char *what;               /* after "'cdm NAME' ", wrapped by hand */
} subcommands[] = {
	{ "compare", cdm_cli_compare_main, "[--format cdm|markdown|svg] A B [C ...]",
	  "sets results saved with --save, and CrystalDiskMark reports,\nside by side" },
	{ "import", cdm_cli_import_main, "[--save F.json] [--format FMT] REPORT.txt",
	  "turns a CrystalDiskMark report into cdm JSON" },
	{ "merge", cdm_cli_merge_main, "[--format FMT] [--save F.json] A.json [B.json ...]",
	  "adds up runs of several hosts started with\n--start-at" },
	{ "report", cdm_cli_report_main, "[--format FMT] [--output FILE] [--svg F.svg] RUN.json",
	  "prints a saved run again in any format" },
	{ "sweep", cdm_cli_sweep_main, "--threads 1,2,4,... | --qd 1,2,4,... --test SPEC [TARGET]",
	  "runs a test at several thread counts or depths" },
};
#define NSUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

/* the help: the synopses, what cdm and each subcommand do, the options */
static const char usage_intro[] =
"Run CrystalDiskMark's tests on a test file in directory TARGET (default \".\"),\n"
"or on a block device TARGET (/dev/sdX: read tests only, unless\n"
"--allow-destructive-write)\n"
"and print MB/s, IOPS and mean latency in CrystalDiskMark's text layout.\n";

/*
 * The option table, with the help text right after it: one place to change
 * both (01-options.bats checks every option is in the help).
 */
static struct option long_opts[] = {
	{ "profile",      required_argument, NULL, 'p' },
	{ "test",         required_argument, NULL, 't' },
	{ "size",         required_argument, NULL, 's' },
	{ "count",        required_argument, NULL, 'n' },
	{ "time",         required_argument, NULL, 'T' },
	{ "interval",     required_argument, NULL, OPT_INTERVAL },
	{ "warmup",       required_argument, NULL, OPT_WARMUP },
	{ "mode",         required_argument, NULL, OPT_MODE },
	{ "mix",          required_argument, NULL, OPT_MIX },
	{ "data",         required_argument, NULL, OPT_DATA },
	{ "rate-iops",    required_argument, NULL, OPT_RATE_IOPS },
	{ "seed",         required_argument, NULL, OPT_SEED },
	{ "sync",         no_argument,       NULL, OPT_SYNC },
	{ "fsync",        required_argument, NULL, OPT_FSYNC },
	{ "verify",       no_argument,       NULL, OPT_VERIFY },
	{ "end-fsync",    no_argument,       NULL, OPT_END_FSYNC },
	{ "steady-state", no_argument,       NULL, OPT_STEADY_STATE },
	{ "max-rounds",   required_argument, NULL, OPT_MAX_ROUNDS },
	{ "engine",       required_argument, NULL, 'e' },
	{ "buffered",     no_argument,       NULL, OPT_BUFFERED },
	{ "format",       required_argument, NULL, 'f' },
	{ "output",       required_argument, NULL, 'o' },
	{ "save",         required_argument, NULL, OPT_SAVE },
	{ "label",        required_argument, NULL, OPT_LABEL },
	{ "aggregate",    required_argument, NULL, OPT_AGGREGATE },
	{ "cv-threshold", required_argument, NULL, OPT_CV_THRESHOLD },
	{ "comment",      required_argument, NULL, OPT_COMMENT },
	{ "log-interval", required_argument, NULL, OPT_LOG_INTERVAL },
	{ "plot",         required_argument, NULL, OPT_PLOT },
	{ "svg",          required_argument, NULL, OPT_SVG },
	{ "keep",         no_argument,       NULL, 'k' },
	{ "file",         required_argument, NULL, OPT_FILE },
	{ "allow-destructive-write", no_argument, NULL, OPT_ALLOW_DESTRUCTIVE },
	{ "precondition", no_argument,       NULL, OPT_PRECONDITION },
	{ "quiet",        no_argument,       NULL, 'q' },
	{ "list-engines", no_argument,       NULL, OPT_LIST_ENGINES },
	{ "list-profiles", no_argument,      NULL, OPT_LIST_PROFILES },
	{ "null-service-us", required_argument, NULL, OPT_NULL_SERVICE },
	{ "null-device",  required_argument, NULL, OPT_NULL_DEVICE },
	{ "no-register",  no_argument,       NULL, OPT_NO_REGISTER },
	{ "batch",        required_argument, NULL, OPT_BATCH },
	{ "sqpoll",       no_argument,       NULL, OPT_SQPOLL },
	{ "hipri",        no_argument,       NULL, OPT_HIPRI },
	{ "cpus",         required_argument, NULL, OPT_CPUS },
	/* scale-out (docs/scale-out.md) */
	{ "start-at",     required_argument, NULL, OPT_START_AT },
	{ "help",         no_argument,       NULL, 'h' },
	{ "version",      no_argument,       NULL, 'V' },
	/* cdm-mpi's alone: cut off in cdm (parse_args()) */
	{ "save-ranks",   required_argument, NULL, OPT_SAVE_RANKS },
	{ NULL, 0, NULL, 0 },
};

static const char usage_text[] =
"\n"
"  -p, --profile NAME|FILE  default, peak, real, demo, nvme, flash (CDM 8/9),\n"
"                           cdm7, cdm7-peak, cdm6 (older CDM), sqlio,\n"
"                           orion-simple, orion-advanced, or a profile file\n"
"                           (default: default; cdm --list-profiles)\n"
"  -t, --test SPEC          a test such as \"SEQ1M Q8T1\" or \"RND4K Q32T16\";\n"
"                           repeatable; replaces the profile's tests\n"
"  -s, --size SIZE          test file size: 1GiB, 512MiB, 64M (K/M/G/T and\n"
"                           KiB..TiB = powers of 1024, KB/MB/GB/TB = of 1000)\n"
"                           (default: profile, 1GiB)\n"
"  -n, --count N            measured passes per test, 1-100\n"
"                           (default: profile, 5)\n"
"  -T, --time SEC           seconds per measured pass, 0.1-3600: 2, 0.5, 1.5s,\n"
"                           500ms (at most 3 decimals) (default: profile, 5)\n"
"      --interval SEC       pause between tests, 0-3600 (default: profile, 5)\n"
"      --warmup SEC         discarded warm-up pass per test, 0 = none, or\n"
"                           0.1-3600 (default: profile, else same as --time)\n"
"      --mode MODE          all (read, then write, then mix), read, write, mix\n"
"                           (only the mixed tests) (default: all; read on a\n"
"                           block device)\n"
"      --mix PCT            also run every test as a Mix test, each I/O a read\n"
"                           with probability PCT %, 1-99 (CDM: 10-90)\n"
"                           (default: profile, else off; --mode mix: 70)\n"
"      --rate-iops N        cap the total rate at N I/Os per second, spread\n"
"                           evenly over the threads, 1-100000000; reports the\n"
"                           rate achieved and the latency at it (default: off)\n"
"      --seed N             seed the random offsets and the Mix read/write\n"
"                           choice, 1-4294967295: the same N, the same I/O\n"
"                           sequence per thread (default: new each run)\n"
"      --sync               open the test file with O_DSYNC for the tests\n"
"                           (default: off)\n"
"      --fsync N            fdatasync after every N writes of each thread,\n"
"                           1-1000000, timed apart from the writes (default: off)\n"
"      --end-fsync          end each write and Mix pass (and warm-up) with one\n"
"                           fdatasync of the test file, timed inside the pass\n"
"                           (fio's end_fsync) (default: off)\n"
"      --steady-state       run each test as rounds of --time seconds until 5 in\n"
"                           a row are steady by SNIA PTS's rule (range <= 20 %,\n"
"                           slope <= 10 % of their mean); the rounds replace\n"
"                           the warm-up and the passes; the report uses the\n"
"                           last 5 (default: off)\n"
"      --max-rounds N       with --steady-state: at most N rounds per test,\n"
"                           5-100 (default: 25)\n"
"      --data random|zero   test data: random bytes, or zeros (CDM's 0Fill)\n"
"                           (default: random)\n"
"      --verify             after each write or Mix test, read back every block\n"
"                           it wrote and check it holds the last write: lost,\n"
"                           misdirected and torn writes fail the run\n"
"                           (default: off)\n"
"  -e, --engine NAME        auto, io_uring, libaio, sync, null (default: auto)\n"
"      --buffered           go through the page cache, no O_DIRECT\n"
"                           (default: off)\n"
"  -f, --format FMT         cdm (CrystalDiskMark 8's text layout), cdm7, cdm6\n"
"                           (CDM 7's, 6's), json, csv, markdown, svg (the\n"
"                           result as a picture) (default: cdm)\n"
"  -o, --output FILE        write the report to FILE (default: stdout)\n"
"      --save FILE.json     also save the result as JSON in FILE.json, written\n"
"                           atomically, for cdm compare (default: none)\n"
"      --label TEXT         name of this run in JSON and compare, such as LOCAL\n"
"                           or SAN (default: the TARGET path)\n"
"      --aggregate AGG      which pass figure the report shows: best (highest\n"
"                           MB/s, lowest latency), median, mean (default: best)\n"
"      --cv-threshold PCT   note tests whose MB/s varies across passes by more\n"
"                           than PCT % (coefficient of variation) (default: 10)\n"
"      --comment TEXT       the report's Comment line (default: none)\n"
"      --log-interval IVAL  time series: MB/s, IOPS, mean and p99 latency every\n"
"                           IVAL (500ms, 1s, 2s; 100ms-3600s) of every pass and\n"
"                           warm-up, in JSON and CSV; notes bursts and ceilings\n"
"                           (default: off)\n"
"      --plot FILE.svg      draw the time series as an SVG chart (needs\n"
"                           --log-interval) (default: none)\n"
"      --svg FILE.svg       also draw the result as a CrystalDiskMark-like card\n"
"                           in FILE.svg, written atomically; the Markdown\n"
"                           report links it (default: none)\n"
"  -k, --keep               after a successful run, keep the test file,\n"
"                           renamed to cdm-*.keep (default: delete)\n"
"      --file PATH          reuse a test file kept by an earlier --keep run\n"
"                           (no preparation; its size is the test size)\n"
"      --allow-destructive-write\n"
"                           let write tests overwrite a block device TARGET;\n"
"                           refused while it is mounted or in use (default: off)\n"
"      --precondition       before the tests, write the whole test file (or\n"
"                           device) sequentially twice in 128 KiB writes, as\n"
"                           SNIA PTS preconditions; the first pass is the\n"
"                           preparation of a new file (default: off)\n"
"  -q, --quiet              no progress display; notes, warnings and errors\n"
"                           still go to stderr (default: progress on a TTY)\n"
"      --list-engines       engines built in, and whether each works here\n"
"      --list-profiles      built-in profiles: settings and tests of each\n"
"      --null-service-us N[,M@S]\n"
"                           null engine: fixed service time per I/O in\n"
"                           microseconds, 0-10000000; with ,M@S, M from S\n"
"                           seconds after the test's first I/O on (a speed\n"
"                           that changes part-way); = --null-device\n"
"                           lat=Nus[;at=Ss,lat=Mus] (default: 0; for tests)\n"
"      --null-device SPEC   null engine: a simulated device shared by the\n"
"                           test's threads; phases split by ';', each of\n"
"                           lat=DUR (per I/O), channels=N|all (served at\n"
"                           once), iops=N|none, mbs=N|none (caps),\n"
"                           at=DUR (start, from the test's first I/O),\n"
"                           stall=DUR (nothing completes); DUR 100us, 2s:\n"
"                           \"lat=100us,channels=4,iops=20000;at=2s,iops=5000\"\n"
"                           (default: none: every I/O done at once)\n"
"      --no-register        io_uring: no registered buffers or file\n"
"                           (default: off)\n"
"      --batch N            completions reaped, and I/Os restarted, per engine\n"
"                           call, 1-1024 (default: Q/8, 1-16)\n"
"      --sqpoll             io_uring: a kernel thread submits (SQPOLL)\n"
"                           (default: off)\n"
"      --hipri              io_uring: polled completions (IOPOLL; needs O_DIRECT\n"
"                           and a device with poll queues) (default: off)\n"
"      --cpus LIST          pin worker thread i of each test to the i-th CPU of\n"
"                           LIST, round-robin (0-3,8; the kernel's cpulist);\n"
"                           warns when the device is on another NUMA node\n"
"                           (default: not pinned)\n"
"      --start-at TIME      prepare the test file before TIME, then start each\n"
"                           test on a schedule computed from TIME and the plan,\n"
"                           so runs on several hosts overlap (cdm merge):\n"
"                           2026-12-01T22:00:00Z (UTC) or +30s (default: none)\n"
;

static const char usage_mpi[] =
"      --save-ranks PREFIX  cdm-mpi: rank 0 also saves every rank's own result\n"
"                           as PREFIX.rankN.json (default: none)\n";

static const char usage_end[] =
"  -h, --help               this help\n"
"  -V, --version            version, engines and how cdm was built\n"
"\n"
"Exit status: 0 success, 1 the run failed, 2 usage or profile error,\n"
"128+N interrupted by signal N (130 for Ctrl-C).  See cdm(1).\n";

static const struct cdm_cli_cmd cmd = { "cdm --help" };

/* an option handler's "not one of mine": the next handler tries it */
#define NOT_MINE (-2)

/*
 * struct main_opts - the command line as parsed, and the run built from
 * it.  Options that map straight onto the run's configuration are set in
 * @cfg while parsing; the rest wait here until build_config() layers them
 * over the profile.
 */
struct main_opts {
	struct cdm_run_config cfg;
	struct cdm_profile prof;        /* cfg.profile_name points into it */
	struct cdm_spec tests[CDM_MAX_TESTS];   /* --test, in order */
	unsigned int ntests;
	const char *profile, *engine, *format;
	int profile_given;              /* -p: --list-profiles lists that one */
	int list;                       /* OPT_LIST_ENGINES or _PROFILES, else 0 */
	const char *output, *save, *label, *plot, *svg;
	char svg_link[PATH_MAX];        /* --svg as the Markdown report links it */
	const char *mode;
	int mode_given;
	const char *start_at, *save_ranks;
	struct cdm_start_at sa;         /* cfg.sync_arg with --start-at */
	enum cdm_aggregate aggregate;
	double cv_threshold;            /* percent */
	uint64_t size;                  /* --size, bytes; 0 = the profile's */
	unsigned long count;            /* 0 = the profile's */
	int time_ms, interval_ms, warmup_ms;    /* -1 = the profile's */
	unsigned int mix;               /* --mix read percent; 0 = the profile's */
	const struct cdm_formatter *fmt;
	const char *null_service;       /* --null-service-us as given, or NULL */
	const char *null_device;        /* --null-device as given, or NULL */
};

static void main_opts_init(struct main_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->profile = "default";
	o->engine = "auto";
	o->format = "cdm";
	o->mode = CDM_PROFILE_MODE_DEFAULT;
	o->aggregate = CDM_AGG_BEST;
	o->cv_threshold = CDM_CV_THRESHOLD_DEFAULT;
	o->time_ms = -1;
	o->interval_ms = -1;
	o->warmup_ms = -1;
	o->cfg.direct = 1;
	o->cfg.progress = isatty(STDERR_FILENO);
	if (cdm_mpi_hook_get())
		o->cfg.progress = o->cfg.progress && cdm_mpi_hook_get()->rank() == 0;
}

static int list_engines(void)
{
	const struct cdm_engine_ops *pick = cdm_engine_pick();
	size_t n = cdm_engine_list(NULL);

	printf("%-10s %-9s %-11s %s\n", "ENGINE", "BUILT IN", "WORKS HERE", "NOTES");
	for (size_t i = 0; i < n; i++) {
		const struct cdm_engine_ops *ops;
		struct cdm_err why = { "" };
		const char *name, *works = "-";
		char notes[CDM_ERR_MAX + 64];
		int r = cdm_engine_status(i, &name, &ops, &why);

		if (ops)
			works = r == 0 ? "yes" : "no";
		snprintf(notes, sizeof(notes), "%s%s%s%s", why.msg,
			 ops == pick ? (why.msg[0] ? "; used by auto" : "used by auto") : "",
			 ops && (ops->flags & CDM_ENGINE_NO_IO) && (why.msg[0] || ops == pick) ? "; " : "",
			 ops && (ops->flags & CDM_ENGINE_NO_IO) ? "no I/O: measures cdm itself (tests)" : "");
		printf("%-10s %-9s %-11s %s\n", name, ops ? "yes" : "no", works, notes);
	}
	return CDM_EXIT_OK;
}

/* --time, --interval, --warmup: a time in its range (cdm_profile_seconds()) */
static int parse_seconds(enum cdm_profile_time which, const char *opt, const char *arg,
			 int *out)
{
	struct cdm_err err;
	unsigned int ms;

	if (cdm_profile_seconds(which, opt, arg, &ms, &err) < 0)
		return cdm_cli_usage(&cmd, "%s", err.msg);
	*out = (int)ms;
	return CDM_CLI_GO_ON;
}

/* the options that say what is measured: tests, sizes, times, the workload */
static int parse_plan_option(int c, char *arg, struct main_opts *o)
{
	struct cdm_err err;
	unsigned long v;

	switch (c) {
	case 'p':
		o->profile = arg;
		o->profile_given = 1;
		return CDM_CLI_GO_ON;
	case 't':
		if (o->ntests == CDM_MAX_TESTS)
			return cdm_cli_usage(&cmd, "too many --test options (at most %d)", CDM_MAX_TESTS);
		if (cdm_spec_parse(arg, &o->tests[o->ntests], &err) < 0)
			return cdm_cli_usage(&cmd, "%s", err.msg);
		o->ntests++;
		return CDM_CLI_GO_ON;
	case 's':
		if (cdm_size_parse(arg, &o->size) < 0)
			return cdm_cli_usage(&cmd, "bad value for --size: '%s' (e.g. 1GiB, 512MiB, 64M)", arg);
		return CDM_CLI_GO_ON;
	case 'n':
		if (cdm_uint_parse(arg, 1, CDM_COUNT_MAX, &o->count) < 0)
			return cdm_cli_usage(&cmd, "bad value for --count: '%s' (1-%u)", arg, CDM_COUNT_MAX);
		return CDM_CLI_GO_ON;
	case 'T':
		return parse_seconds(CDM_PROFILE_TIME, "--time", arg, &o->time_ms);
	case OPT_INTERVAL:
		return parse_seconds(CDM_PROFILE_INTERVAL, "--interval", arg, &o->interval_ms);
	case OPT_WARMUP:
		return parse_seconds(CDM_PROFILE_WARMUP, "--warmup", arg, &o->warmup_ms);
	case OPT_MODE:
		o->mode = arg;
		o->mode_given = 1;
		if (strcmp(arg, "all") && strcmp(arg, "read") && strcmp(arg, "write") && strcmp(arg, "mix"))
			return cdm_cli_usage(&cmd, "bad value for --mode: '%s' (all, read, write, mix)", arg);
		return CDM_CLI_GO_ON;
	case OPT_MIX:
		if (cdm_uint_parse(arg, CDM_MIX_MIN, CDM_MIX_MAX, &v) < 0)
			return cdm_cli_usage(&cmd, "bad value for --mix: '%s' (the read percentage, %u-%u; 0 and 100 are --mode write and --mode read)",
					     arg, CDM_MIX_MIN, CDM_MIX_MAX);
		o->mix = (unsigned int)v;
		return CDM_CLI_GO_ON;
	case OPT_RATE_IOPS:
		if (cdm_uint_parse(arg, 1, 100000000, &v) < 0)
			return cdm_cli_usage(&cmd, "bad value for --rate-iops: '%s' (I/Os per second, 1-100000000)", arg);
		o->cfg.rate_iops = v;
		return CDM_CLI_GO_ON;
	case OPT_SEED:
		if (cdm_uint_parse(arg, 1, 4294967295ul, &v) < 0)
			return cdm_cli_usage(&cmd, "bad value for --seed: '%s' (1-4294967295)", arg);
		o->cfg.seed = v;
		return CDM_CLI_GO_ON;
	case OPT_SYNC:
		o->cfg.dsync = 1;
		return CDM_CLI_GO_ON;
	case OPT_FSYNC:
		if (cdm_uint_parse(arg, 1, 1000000, &v) < 0)
			return cdm_cli_usage(&cmd, "bad value for --fsync: '%s' (writes between fdatasync calls, 1-1000000)", arg);
		o->cfg.fsync_every = (unsigned int)v;
		return CDM_CLI_GO_ON;
	case OPT_VERIFY:
		o->cfg.verify = 1;
		return CDM_CLI_GO_ON;
	case OPT_DATA:
		if (strcmp(arg, "zero") && strcmp(arg, "random"))
			return cdm_cli_usage(&cmd, "bad value for --data: '%s' (random, zero)", arg);
		o->cfg.zero_fill = !strcmp(arg, "zero");
		return CDM_CLI_GO_ON;
	}
	return NOT_MINE;
}

/* the options that say what is reported, and where */
static int parse_report_option(int c, char *arg, struct main_opts *o)
{
	char *end;

	switch (c) {
	case 'f':
		o->format = arg;
		return CDM_CLI_GO_ON;
	case 'o':
		o->output = arg;
		return CDM_CLI_GO_ON;
	case OPT_SAVE:
		o->save = arg;
		return CDM_CLI_GO_ON;
	case OPT_LABEL:
		cdm_text_one_line(arg);
		o->label = arg;
		return CDM_CLI_GO_ON;
	case OPT_AGGREGATE:
		return cdm_cli_aggregate(&cmd, arg, &o->aggregate);
	case OPT_CV_THRESHOLD:
		errno = 0;
		o->cv_threshold = strtod(arg, &end);
		if (errno || end == arg || *end || !(o->cv_threshold >= 0.0 && o->cv_threshold <= 1000.0))
			return cdm_cli_usage(&cmd, "bad value for --cv-threshold: '%s' (a percentage, 0-1000)", arg);
		return CDM_CLI_GO_ON;
	case OPT_COMMENT:
		if (strlen(arg) >= sizeof(((struct cdm_run_info *)0)->comment))
			return cdm_cli_usage(&cmd, "--comment is longer than %zu bytes",
					     sizeof(((struct cdm_run_info *)0)->comment) - 1);
		cdm_text_one_line(arg);
		o->cfg.comment = arg;
		return CDM_CLI_GO_ON;
	case OPT_LOG_INTERVAL:
		if (cdm_series_interval_parse(arg, &o->cfg.log_interval_ns) < 0)
			return cdm_cli_usage(&cmd, "bad value for --log-interval: '%s' (such as 500ms, 1s, 2s; 100ms-3600s)",
					     arg);
		return CDM_CLI_GO_ON;
	case OPT_PLOT:
		o->plot = arg;
		return CDM_CLI_GO_ON;
	case OPT_SVG:
		o->svg = arg;
		return CDM_CLI_GO_ON;
	case 'q':
		o->cfg.progress = 0;
		return CDM_CLI_GO_ON;
	}
	return NOT_MINE;
}

/*
 * --cpus LIST: the kernel's cpulist form (base/cpulist.h); each CPU online
 * and one this process may run on (taskset, cpuset), or refused here,
 * before anything touches the target
 */
static int parse_cpus(const char *arg, struct cdm_run_config *cfg)
{
	struct cdm_err err;
	unsigned int n;

	if (cdm_cpulist_parse(arg, CDM_CPUS_MAX, cfg->cpus, &n, &err) < 0)
		return cdm_cli_usage(&cmd, "bad value for --cpus: '%s': %s (a CPU list such as 0-3,8)",
				     arg, err.msg);
	if (cdm_numa_check(NULL, cfg->cpus, n, &err) < 0) {
		cdm_msg_usage("--cpus %s: %s", arg, err.msg);
		return CDM_EXIT_USAGE;
	}
	cfg->ncpus = n;
	return CDM_CLI_GO_ON;
}

/*
 * The pass gate's options (--end-fsync, --steady-state, --max-rounds);
 * what they rule out is checked by layer_gate(), once the line is read.
 */
static int parse_gate_option(int c, char *arg, struct main_opts *o)
{
	unsigned long v;

	switch (c) {
	case OPT_END_FSYNC:
		o->cfg.end_fsync = 1;
		return CDM_CLI_GO_ON;
	case OPT_STEADY_STATE:
		o->cfg.steady_state = 1;
		return CDM_CLI_GO_ON;
	case OPT_MAX_ROUNDS:
		if (cdm_uint_parse(arg, CDM_STEADY_WINDOW, CDM_MAX_PASSES, &v) < 0)
			return cdm_cli_usage(&cmd, "bad value for --max-rounds: '%s' (%u-%u)", arg,
					     CDM_STEADY_WINDOW, CDM_MAX_PASSES);
		o->cfg.max_rounds = (unsigned int)v;
		return CDM_CLI_GO_ON;
	}
	return NOT_MINE;
}

/*
 * --steady-state: the rounds replace the passes and the warm-up (the
 * rounds before the steady window are the warm-up, PTS), so --count and
 * --warmup given with it are refused, and the profile's are not used;
 * the schedule's passes are the most rounds (cdm_plan_steady(), which
 * also refuses --max-rounds without it);
 * --start-at cannot plan tests of unknown length.
 */
static int layer_gate(struct main_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	struct cdm_err err;

	if (cdm_plan_steady(cfg, &err) < 0)
		return cdm_cli_usage(&cmd, "%s", err.msg);
	if (!cfg->steady_state)
		return CDM_CLI_GO_ON;
	if (o->count)
		return cdm_cli_usage(&cmd, "--count cannot be used with --steady-state: each test runs rounds until steady (--max-rounds sets the most)");
	if (o->warmup_ms >= 0)
		return cdm_cli_usage(&cmd, "--warmup cannot be used with --steady-state: the rounds before the steady window are the warm-up");
	if (o->start_at)
		return cdm_cli_usage(&cmd, "--start-at cannot be used with --steady-state: a test's length depends on when it gets steady");
	if (cdm_mpi_hook_get())
		return cdm_cli_usage(&cmd, "--steady-state is not supported by cdm-mpi: each rank would get steady at its own round");
	return CDM_CLI_GO_ON;
}

/*
 * --start-at's schedule gives each test warm-up + count x time and 1 s
 * (docs/scale-out.md): the fdatasync that ends each pass (--end-fsync)
 * and the read-back after a write test (--verify) are time it does not
 * know, so every later test would start late, on every host.
 */
static int check_start_at(const struct main_opts *o)
{
	if (!o->start_at)
		return CDM_CLI_GO_ON;
	if (o->cfg.verify)
		return cdm_cli_usage(&cmd, "--start-at cannot be used with --verify: the read-back after each write test has no place in its schedule");
	if (o->cfg.end_fsync)
		return cdm_cli_usage(&cmd, "--start-at cannot be used with --end-fsync: the fdatasync that ends each pass has no place in its schedule");
	return CDM_CLI_GO_ON;
}

/* the options that say how the run goes: engine, test file, schedule */
static int parse_run_option(int c, char *arg, struct main_opts *o)
{
	unsigned long v;

	switch (c) {
	case 'e':
		o->engine = arg;
		return CDM_CLI_GO_ON;
	case OPT_BUFFERED:
		o->cfg.direct = 0;
		return CDM_CLI_GO_ON;
	case 'k':
		o->cfg.keep = 1;
		return CDM_CLI_GO_ON;
	case OPT_FILE:
		o->cfg.file = arg;
		return CDM_CLI_GO_ON;
	case OPT_ALLOW_DESTRUCTIVE:
		o->cfg.allow_destructive_write = 1;
		return CDM_CLI_GO_ON;
	case OPT_PRECONDITION:
		o->cfg.precondition = 1;
		return CDM_CLI_GO_ON;
	case OPT_NULL_SERVICE:
		o->null_service = arg;
		return cdm_cli_null_service(&cmd, arg, &o->cfg);
	case OPT_NULL_DEVICE:
		o->null_device = arg;
		return cdm_cli_null_device(&cmd, arg, &o->cfg);
	case OPT_BATCH:
		if (cdm_uint_parse(arg, 1, CDM_QD_MAX, &v) < 0)
			return cdm_cli_usage(&cmd, "bad value for --batch: '%s' (1-%u)", arg, CDM_QD_MAX);
		o->cfg.batch = (unsigned int)v;
		return CDM_CLI_GO_ON;
	case OPT_SQPOLL:
		o->cfg.engine_options |= CDM_ENGINE_OPT_SQPOLL;
		return CDM_CLI_GO_ON;
	case OPT_HIPRI:
		o->cfg.engine_options |= CDM_ENGINE_OPT_IOPOLL;
		return CDM_CLI_GO_ON;
	case OPT_NO_REGISTER:
		o->cfg.engine_options |= CDM_ENGINE_OPT_NO_REGISTER;
		return CDM_CLI_GO_ON;
	case OPT_CPUS:
		return parse_cpus(arg, &o->cfg);
	case OPT_START_AT:
		if (cdm_start_at_parse(arg, cdm_clock_wall_ns(), &o->sa.start_ns) < 0)
			return cdm_cli_usage(&cmd, "bad value for --start-at: '%s' (UTC as 2026-12-01T22:00:00Z, or +30s, +5m)", arg);
		snprintf(o->sa.text, sizeof(o->sa.text), "%s", arg);
		o->start_at = arg;
		return CDM_CLI_GO_ON;
	case OPT_SAVE_RANKS:
		o->save_ranks = arg;
		return CDM_CLI_GO_ON;
	}
	return NOT_MINE;
}

static void print_help(void)
{
	size_t i;

	fputs("Usage: cdm [OPTIONS] [TARGET]\n", stdout);
	for (i = 0; i < NSUBCOMMANDS; i++)
		printf("       cdm %s %s\n", subcommands[i].name, subcommands[i].synopsis);
	fputs(usage_intro, stdout);
	for (i = 0; i < NSUBCOMMANDS; i++)
		printf("'cdm %s' %s (cdm %s --help).\n", subcommands[i].name, subcommands[i].what,
		       subcommands[i].name);
	fputs(usage_text, stdout);
	if (cdm_mpi_hook_get())
		fputs(usage_mpi, stdout);
	fputs(usage_end, stdout);
}

/*
 * --version: the version alone on the first line (scripts read it), then
 * one "key: value" line per build fact, as fio's and gcc's say what they
 * are (docs/cdm.1, --version).
 */
static void print_version(void)
{
	const char *uring = cdm_version_liburing();

	printf("cdm %s\n", cdm_version());
	printf("engines: %s\n", cdm_engine_build_info());
	if (uring[0])
		printf("liburing: %s\n", uring);
	puts(cdm_mpi_hook_get() ? "mpi: yes (cdm-mpi)" : "mpi: no (cdm-mpi is built by make WITH_MPI=yes)");
	printf("compiler: %s\n", cdm_version_compiler());
	printf("libc: %s\n", cdm_version_libc());
	printf("linked: %s\n", cdm_version_static() ? "static" : "dynamic");
}

/*
 * The options that answer instead of a run: --help and --version at once
 * (whatever else the line has, as GNU tools do); --list-engines and
 * --list-profiles once the line is read (list_now()), so that what they
 * cannot use is refused and -p NAME|FILE is the profile listed.
 */
static int parse_info_option(int c, struct main_opts *o)
{
	switch (c) {
	case OPT_LIST_ENGINES:
	case OPT_LIST_PROFILES:
		if (o->list && o->list != c)
			return cdm_cli_usage(&cmd, "--list-engines and --list-profiles: one at a time");
		o->list = c;
		return CDM_CLI_GO_ON;
	case 'h':
		print_help();
		return CDM_EXIT_OK;
	case 'V':
		print_version();
		return CDM_EXIT_OK;
	}
	return cdm_cli_try(&cmd);        /* getopt has said what is wrong */
}

/* --list-engines, --list-profiles [-p NAME|FILE]: no TARGET; the exit status */
static int list_now(int argc, char **argv, const struct main_opts *o)
{
	const char *opt = o->list == OPT_LIST_ENGINES ? "--list-engines" : "--list-profiles";

	if (optind < argc)
		return cdm_cli_usage(&cmd, "%s takes no TARGET, got '%s'", opt, argv[optind]);
	if (o->list == OPT_LIST_ENGINES)
		return list_engines();
	if (o->profile_given)
		return cdm_list_profiles_print_one(stdout, o->profile);
	return cdm_list_profiles_print(stdout);
}

/* TARGET, or --file's directory; no empty paths */
static int parse_operands(int argc, char **argv, struct main_opts *o)
{
	static char dir[PATH_MAX];
	struct cdm_run_config *cfg = &o->cfg;

	if (argc - optind > 1)
		return cdm_cli_usage(&cmd, "one TARGET directory expected, got %d", argc - optind);
	if ((optind < argc && !argv[optind][0]) || (o->output && !o->output[0]) ||
	    (o->save && !o->save[0]) || (cfg->file && !cfg->file[0]) || (o->plot && !o->plot[0]) ||
	    (o->svg && !o->svg[0]))
		return cdm_cli_usage(&cmd, "an empty path was given");
	cfg->target = optind < argc ? argv[optind] : ".";
	if (!cfg->file)
		return CDM_CLI_GO_ON;
	if (optind < argc)
		return cdm_cli_usage(&cmd, "--file names the test file: give no TARGET");
	if (o->size)
		return cdm_cli_usage(&cmd, "--size cannot be used with --file (the file's size is the test size)");
	cdm_outfile_parent_dir(cfg->file, dir, sizeof(dir));
	cfg->target = dir;
	return CDM_CLI_GO_ON;
}

/* step 1: the command line into @o */
static int parse_args(int argc, char **argv, struct main_opts *o)
{
	int c, s;

	/* getopt names the program from argv[0]: make its messages say "cdm:" */
	argv[0] = (char *)"cdm";
	if (!cdm_mpi_hook_get())
		memset(&long_opts[sizeof(long_opts) / sizeof(long_opts[0]) - 2], 0, sizeof(long_opts[0]));
	while ((c = getopt_long(argc, argv, "p:t:s:n:T:e:f:o:kqhV", long_opts, NULL)) != -1) {
		s = parse_plan_option(c, optarg, o);
		if (s == NOT_MINE)
			s = parse_report_option(c, optarg, o);
		if (s == NOT_MINE)
			s = parse_run_option(c, optarg, o);
		if (s == NOT_MINE)
			s = parse_gate_option(c, optarg, o);
		if (s == NOT_MINE)
			s = parse_info_option(c, o);
		if (s != CDM_CLI_GO_ON)
			return s;
	}
	if (o->list)
		return list_now(argc, argv, o);
	return parse_operands(argc, argv, o);
}

/* command-line options override the profile; the profile the defaults */
static void layer_profile(struct main_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	const struct cdm_profile *prof = &o->prof;
	/* --mode wins over the profile's mode (orion-simple: read) */
	const char *mode = o->mode_given || !prof->mode[0] ? o->mode : prof->mode;

	cfg->profile_name = prof->name[0] ? prof->name : "Custom";
	/* -t replaced the profile's tests: the run is no longer that profile */
	if (o->ntests && o->ntests != prof->ntests)
		cfg->profile_name = "Custom";
	for (unsigned int i = 0; o->ntests && i < o->ntests && i < prof->ntests; i++)
		if (!cdm_spec_same(&o->tests[i], &prof->tests[i]))
			cfg->profile_name = "Custom";
	if (o->ntests) {
		memcpy(cfg->tests, o->tests, sizeof(o->tests[0]) * o->ntests);
		cfg->ntests = o->ntests;
	} else {
		memcpy(cfg->tests, prof->tests, sizeof(prof->tests[0]) * prof->ntests);
		cfg->ntests = prof->ntests;
	}
	cfg->size = o->size ? o->size : prof->size ? prof->size : CDM_PROFILE_SIZE_DEFAULT;
	cfg->count = o->count ? (unsigned int)o->count : prof->count ? prof->count :
		     CDM_PROFILE_COUNT_DEFAULT;
	cfg->time_ms = o->time_ms >= 0 ? (unsigned int)o->time_ms :
		       prof->time_ms >= 0 ? (unsigned int)prof->time_ms : CDM_PROFILE_TIME_DEFAULT_MS;
	cfg->interval_ms = o->interval_ms >= 0 ? (unsigned int)o->interval_ms :
			   prof->interval_ms >= 0 ? (unsigned int)prof->interval_ms :
			   CDM_PROFILE_INTERVAL_DEFAULT_MS;
	cfg->warmup_ms = o->warmup_ms >= 0 ? (unsigned int)o->warmup_ms :
			 cdm_profile_warmup(prof, cfg->time_ms);
	cfg->do_read = !strcmp(mode, "all") || !strcmp(mode, "read");
	cfg->do_write = !strcmp(mode, "all") || !strcmp(mode, "write");
	cfg->do_mix = !strcmp(mode, "all") || !strcmp(mode, "mix");
	/* CDM's default ratio, R70/W30, when only --mode mix asks for a Mix */
	cfg->mix_read_pct = o->mix ? o->mix : cdm_profile_mix(prof, mode);
}

/* the engine's own switches, and the time series' memory */
static int check_engine_and_series(struct main_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	uint64_t need = 0;

	if ((cfg->engine_options & (CDM_ENGINE_OPT_SQPOLL | CDM_ENGINE_OPT_IOPOLL)) &&
	    strcmp(cfg->engine->name, "io_uring") != 0)
		return cdm_cli_usage(&cmd, "--sqpoll and --hipri need the io_uring engine, not %s",
				     cfg->engine->name);
	if ((cfg->engine_options & CDM_ENGINE_OPT_IOPOLL) && !cfg->direct)
		return cdm_cli_usage(&cmd, "--hipri (polled I/O) needs O_DIRECT: drop --buffered");
	if (o->plot && !cfg->log_interval_ns)
		return cdm_cli_usage(&cmd, "--plot draws the time series: give --log-interval too");
	if (!cfg->log_interval_ns)
		return CDM_CLI_GO_ON;
	for (unsigned int i = 0; i < cfg->ntests; i++) {
		uint64_t m = cdm_series_mem(cfg->warmup_ms, cfg->count, cfg->time_ms,
					    cfg->log_interval_ns) *
			     cfg->tests[i].threads;

		if (m > need)
			need = m;
	}
	if (need > CDM_SERIES_MEM_MAX)
		return cdm_cli_usage(&cmd, "--log-interval: %" PRIu64 " MiB of interval counters for one test, more than %llu MiB; use a longer interval or shorter passes",
				     need >> 20, CDM_SERIES_MEM_MAX >> 20);
	return CDM_CLI_GO_ON;
}

/*
 * --verify: refused with --data zero, or on a file too small to keep a
 * block free of writes in flight (cdm_verify_check_plan(); a --file's
 * size is checked by the run); a note when no test writes.
 */
static int check_verify(struct main_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	struct cdm_err err;

	if (!cfg->verify)
		return CDM_CLI_GO_ON;
	/* a --file's size is known once it is open: the run checks it then */
	if ((cfg->zero_fill || !cfg->file) && cdm_verify_check_plan(cfg, cfg->size, &err) < 0)
		return cdm_cli_usage(&cmd, "%s", err.msg);
	if (!cdm_plan_writes(cfg))
		cdm_msg_note("--verify checks what write and Mix tests wrote: this run has none, so nothing is read back");
	return CDM_CLI_GO_ON;
}

/*
 * Options that would do nothing in this run: --null-service-us or
 * --null-device with an engine other than null is refused (they set only
 * the null engine's device), and so are both together
 * (cdm_cli_null_check()); --end-fsync without a write or Mix test gets a
 * note, as --verify does (a profile may set it for runs of every mode).
 */
static int check_idle_options(const struct main_opts *o)
{
	const struct cdm_run_config *cfg = &o->cfg;

	if (cdm_cli_null_check(&cmd, o->null_service, o->null_device, cfg) != CDM_CLI_GO_ON)
		return CDM_EXIT_USAGE;
	if (cfg->end_fsync && !cdm_plan_writes(cfg))
		cdm_msg_note("--end-fsync ends each write or Mix pass with fdatasync(): this run has none, so nothing is synced");
	return CDM_CLI_GO_ON;
}

/* step 2: the format, the profile with the options over it, checked; the engine */
static int build_config(struct main_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	struct cdm_err err;
	int s;

	if (cdm_cli_format(&cmd, o->format, &o->fmt) != CDM_CLI_GO_ON)
		return CDM_EXIT_USAGE;
	if (cdm_profile_load(o->profile, &o->prof, &err) < 0) {
		/* a usage error: like those, not tagged with cdm-mpi's rank */
		cdm_msg_usage("%s", err.msg);
		return CDM_EXIT_USAGE;
	}
	layer_profile(o);
	if (layer_gate(o) != CDM_CLI_GO_ON || check_start_at(o) != CDM_CLI_GO_ON)
		return CDM_EXIT_USAGE;
	if (!cdm_plan_tests(cfg, NULL))
		return cdm_cli_usage(&cmd, "%s%s leaves no test to run (a test with W<pct> runs only in --mode all or mix)",
				     o->mode_given || !o->prof.mode[0] ? "--mode " : "the profile's mode = ",
				     o->mode_given || !o->prof.mode[0] ? o->mode : o->prof.mode);
	/* a block device TARGET: read by default, its size, its sectors */
	if (cdm_plan_device(cfg, o->mode_given, o->size != 0, &err) < 0) {
		cdm_msg_error("%s", err.msg);
		return CDM_EXIT_USAGE;
	}
	s = cdm_cli_round_size(&cmd, cfg);
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_engine(&cmd, o->engine, &cfg->engine);
	if (s == CDM_CLI_GO_ON)
		cdm_plan_engine_depth(cfg);
	if (s == CDM_CLI_GO_ON)
		s = check_engine_and_series(o);
	if (s == CDM_CLI_GO_ON)
		s = check_verify(o);
	if (s == CDM_CLI_GO_ON)
		s = check_idle_options(o);
	return s;
}

/* --svg: a file of its own, named *.svg, writable (the card is written atomically) */
static int check_svg(const struct main_opts *o)
{
	const char *svg = o->svg;

	if (cdm_outfile_same(svg, o->save) || cdm_outfile_same(svg, o->output) ||
	    cdm_outfile_same(svg, o->plot) || cdm_outfile_same(svg, o->cfg.file))
		return cdm_cli_usage(&cmd, "--svg '%s' names the same file as --output, --save, --plot or --file", svg);
	return cdm_cli_outfile(svg, "--svg", 1, "svg");
}

/* step 3: the files the report goes to, before anything touches the target */
static int check_outputs(const struct main_opts *o)
{
	const char *plot = o->plot, *save = o->save, *output = o->output, *file = o->cfg.file;
	int s;

	if (cdm_outfile_same(plot, save) || cdm_outfile_same(plot, output) || cdm_outfile_same(plot, file))
		return cdm_cli_usage(&cmd, "--plot '%s' names the same file as --output, --save or --file", plot);
	s = cdm_cli_outfile(plot, "--plot", 1, "svg");
	if (s != CDM_CLI_GO_ON)
		return s;
	s = check_svg(o);
	if (s != CDM_CLI_GO_ON)
		return s;
	if (cdm_outfile_same(output, save))
		return cdm_cli_usage(&cmd, "--output and --save name the same file '%s'", save);
	if (cdm_outfile_same(output, file) || cdm_outfile_same(save, file))
		return cdm_cli_usage(&cmd, "'%s' is the test file: --output and --save need another file", file);
	s = cdm_cli_outfile(output, "--output", 0, o->fmt->name);
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_outfile(save, "--save", 1, "json");
	return s;
}

/* the hook that starts the tests together: --start-at's clock, or MPI's barrier */
static int set_schedule(struct main_opts *o)
{
	const struct cdm_mpi_hook *mpi = cdm_mpi_hook_get();

	if (o->start_at && mpi)
		return cdm_cli_usage(&cmd, "--start-at is for independent runs: cdm-mpi starts its ranks together by itself");
	if (o->start_at) {
		cdm_start_at_plan(&o->sa, &o->cfg);
		o->cfg.sync = cdm_start_at_sync;
		o->cfg.sync_arg = &o->sa;
	}
	if (mpi)
		o->cfg.sync = mpi->sync;
	return CDM_CLI_GO_ON;
}

/* --save-ranks: every rank's own result, for cdm merge; 0 or -EIO (each failure printed) */
static int save_rank_files(const char *prefix, const struct cdm_run_result *agg)
{
	const struct cdm_scale *sc = agg->scale;
	int ret = 0;

	for (unsigned int r = 0; r < sc->n; r++) {
		char path[4200];
		char doing[64];

		snprintf(path, sizeof(path), "%s.rank%u.json", prefix, r);
		snprintf(doing, sizeof(doing), "save rank %u's result", r);
		if (cdm_cli_save(path, "json", sc->src[r].res, doing) != CDM_EXIT_OK)
			ret = -EIO;
	}
	return ret;
}

/*
 * Every rank's result to rank 0, which reports the aggregate: *@res
 * becomes it there.  Returns CDM_CLI_GO_ON on rank 0 after a run, else
 * the exit status (the other ranks report nothing).
 */
static int mpi_finish(const struct main_opts *o, struct cdm_run_result **res, int *r)
{
	struct cdm_run_result *agg;
	struct cdm_err err;
	int sig = (*res)->interrupted ? (*res)->interrupted : SIGINT;

	*r = cdm_mpi_hook_get()->finish(*res, *r, o->label, &agg, &err);
	if (*r < 0 && err.msg[0])
		cdm_msg_error("%s", err.msg);
	if (*r == 0 && agg && o->save_ranks) {
		*r = save_rank_files(o->save_ranks, agg);
		if (*r < 0) {
			cdm_merge_free(agg);
			agg = NULL;
		}
	}
	cdm_result_free(*res);
	*res = agg;
	if (*r < 0 || !agg)
		return *r == -EINTR ? CDM_EXIT_SIGNAL(sig) : *r < 0 ? CDM_EXIT_RUN : CDM_EXIT_OK;
	return CDM_CLI_GO_ON;
}

/*
 * step 4: run the plan into *@res (the caller frees it); *@r is what
 * cdm_runner_run() returned.  Returns CDM_CLI_GO_ON, or the exit status when
 * there is nothing to report.
 */
static int run(struct main_opts *o, struct cdm_run_result **res, int *r)
{
	int e;

	*res = NULL;
	e = set_schedule(o);
	if (e != CDM_CLI_GO_ON)
		return e;
	e = cdm_runner_install_signals();
	if (e < 0) {
		cdm_msg_error("cannot install signal handlers: %s", strerror(-e));
		return CDM_EXIT_RUN;
	}
	*res = cdm_result_alloc(cdm_plan_tests(&o->cfg, NULL));
	if (!*res) {
		cdm_msg_error("out of memory");
		return CDM_EXIT_RUN;
	}
	(*res)->aggregate = o->aggregate;
	(*res)->cv_threshold_pct = o->cv_threshold;
	if (o->label)
		snprintf((*res)->info.label, sizeof((*res)->info.label), "%s", o->label);
	if (o->svg) {
		/* the Markdown beside its card: the path from --output's directory */
		cdm_cli_image_link(o->output, o->svg, o->svg_link, sizeof(o->svg_link));
		(*res)->image = o->svg_link;
	}
	*r = cdm_cli_run(&o->cfg, *res);
	if (cdm_mpi_hook_get())
		return mpi_finish(o, res, r);
	return CDM_CLI_GO_ON;
}

/* did a test stop on a failed I/O (its error is in the result)? */
static int run_io_failed(const struct cdm_run_result *res)
{
	for (unsigned int i = 0; i < res->ntests; i++)
		if (res->tests[i].error)
			return 1;
	return 0;
}

/* say which tests' MB/s varied across passes by more than --cv-threshold */
static void note_unstable(const struct cdm_run_result *res)
{
	for (unsigned int i = 0; i < res->ntests; i++) {
		const struct cdm_test_result *t = &res->tests[i];
		char name[64], cvs[32];
		double cv;

		if (!cdm_result_unstable(t, res->cv_threshold_pct, &cv))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		/* shown so that "above the threshold" reads true: 10.04%, not 10.0% */
		/* under --steady-state the passes are rounds, the figures the last window's */
		cdm_msg_note("%s %s is unstable: its MB/s varied by %s%% across %s%u %s (coefficient of variation; --cv-threshold %g%%)",
			 name, cdm_result_dir_name(t->dir),
			 cdm_fmt_cv(cvs, sizeof(cvs), cv, res->cv_threshold_pct),
			 t->steady.on ? "the last " : "", cdm_result_measured(t),
			 t->steady.on ? "rounds" : "passes", res->cv_threshold_pct);
	}
}

static int plot_write(FILE *f, const void *res)
{
	return cdm_plot_series(f, res);
}

/* --plot: the time-series chart, replaced atomically (outfile.h) */
static int write_plot(const char *path, const struct cdm_run_result *res)
{
	int e = cdm_outfile_write(path, plot_write, res);

	if (e == -EINVAL)
		cdm_msg_warn("%s: no test has a time series to plot; nothing written", path);
	else if (e < 0)
		cdm_cli_write_error(path, "write the plot", e);
	return e == -EINVAL ? 0 : e;
}

/*
 * After --plot's chart: --svg's card, then the report on stdout or
 * --output, then --save, each written atomically (outfile.h).  The card
 * comes first so that the Markdown report links only a card that is
 * there: one that could not be written is said (one line, exit 1) and the
 * report, whose measurements cost the run, is printed without its image
 * line.  A signal after the run ended stops what is left: report() says
 * so.  Returns the exit status so far (0 or 1).
 */
static int write_report(const struct main_opts *o, struct cdm_run_result *res, int r)
{
	int status = CDM_EXIT_OK;

	/* a signal while --plot was written (report() writes it first) */
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_save(o->svg, "svg", res, "write the card") != CDM_EXIT_OK) {
		status = CDM_EXIT_RUN;
		res->image = NULL;
	}
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_report(o->output, o->fmt, res) != CDM_EXIT_OK)
		status = CDM_EXIT_RUN;
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_save(o->save, "json", res, "save the result") != CDM_EXIT_OK)
		status = CDM_EXIT_RUN;
	return status;
}

/* what became of the test file when the run ended early */
static const char *file_fate(const struct main_opts *o, const struct cdm_run_result *res)
{
	return o->cfg.file ? "the test file given with --file was kept" :
	       res->info.is_device ? "the device was closed" : "the test file was removed";
}

/*
 * step 5: the notes, the chart, the report of what was measured (all of
 * it, or the rows before a stop or an I/O error), and how the run ended.
 * @r: what cdm_runner_run() returned.  Returns the exit status.
 */
static int report(const struct main_opts *o, struct cdm_run_result *res, int r)
{
	int status = CDM_EXIT_OK, io_failed, late;

	if (r == 0 || r == -EINTR)
		note_unstable(res);
	/* a test that measured nothing fails the run (method.md) */
	if ((r == 0 || r == -EINTR) && cdm_cli_unmeasured(res, "the run"))
		status = CDM_EXIT_RUN;
	/* --verify: a write the storage lost, misplaced or tore fails the run */
	if (o->cfg.verify && cdm_cli_verify_faults(res))
		status = CDM_EXIT_RUN;
	if ((r == 0 || r == -EINTR) && o->cfg.log_interval_ns) {
		cdm_detect_analyze(res, 1);
		if (o->plot && write_plot(o->plot, res) < 0)
			status = CDM_EXIT_RUN;
	}
	io_failed = r < 0 && r != -EINTR && run_io_failed(res);
	if (r == 0 || r == -EINTR || io_failed) {
		int s = write_report(o, res, r);

		if (s != CDM_EXIT_OK)
			status = s;
	}
	if (r == -EINTR) {
		int sig = res->interrupted ? res->interrupted : SIGINT;

		cdm_msg_error("interrupted by %s: the report shows the tests measured before it; %s",
			  strsignal(sig), file_fate(o, res));
		status = CDM_EXIT_SIGNAL(sig);
	} else if (r < 0) {
		if (io_failed)
			cdm_msg_error("the run stopped at the first I/O error: the report shows the tests measured before it; %s",
				  file_fate(o, res));
		status = CDM_EXIT_RUN;
	}
	/* a signal after the last test (SIGPIPE from the report): 128 + N */
	late = cdm_cli_late_signal(r);
	if (late) {
		cdm_msg_error("interrupted by %s after the run ended; %s", strsignal(late),
			  file_fate(o, res));
		status = CDM_EXIT_SIGNAL(late);
	}
	return status;
}

static void free_result(struct cdm_run_result *res)
{
	if (cdm_mpi_hook_get())
		cdm_merge_free(res);    /* the aggregate */
	else
		cdm_result_free(res);
}

/* does the option @arg (as written on the command line) take the next word? */
static int takes_next(const char *arg)
{
	static const char short_with_arg[] = "ptsnTefo";

	if (!strncmp(arg, "--", 2)) {
		for (const struct option *lo = long_opts; lo->name; lo++)
			if (!strcmp(arg + 2, lo->name))
				return lo->has_arg == required_argument;
		return 0;
	}
	/* "-qt SPEC": the last letter of a cluster, with nothing after it */
	for (const char *c = arg + 1; *c; c++)
		if (strchr(short_with_arg, *c))
			return c[1] == '\0';
	return 0;
}

/*
 * "cdm -q compare a.json b.json": a subcommand after cdm's own options.
 * Its options are not cdm's, so say where they go rather than take
 * "compare" for a TARGET.  Returns the exit status, or CDM_CLI_GO_ON.
 */
static int misplaced_subcommand(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (argv[i][0] == '-' && argv[i][1]) {
			i += takes_next(argv[i]);
			continue;
		}
		for (size_t k = 0; k < NSUBCOMMANDS; k++) {
			const char *sub = subcommands[k].name;
			struct stat st;

			/* a directory of that name is a TARGET */
			if (strcmp(argv[i], sub) || stat(argv[i], &st) == 0)
				continue;
			return cdm_cli_usage(&cmd, "'%s' is a subcommand: put it first, with its options after it (cdm %s [OPTIONS] ...; cdm %s --help)",
					     sub, sub, sub);
		}
		return CDM_CLI_GO_ON;   /* the first operand is not a subcommand */
	}
	return CDM_CLI_GO_ON;
}

int main(int argc, char **argv)
{
	static struct main_opts o;
	struct cdm_run_result *res = NULL;
	int s, r = 0;

	/* a closed stderr (2>&-) must not become the test file's descriptor */
	cdm_msg_hold_std_fds();
	/* a subcommand: cdm compare A.json B.json ... */
	for (size_t k = 0; argc > 1 && k < NSUBCOMMANDS; k++)
		if (!strcmp(argv[1], subcommands[k].name)) {
			/* getopt names the program from argv[0]: "cdm: ", as every message */
			argv[1] = (char *)"cdm";
			return subcommands[k].main(argc - 1, argv + 1);
		}
	if (cdm_mpi_hook_get()) {
		struct cdm_err err;

		if (cdm_mpi_hook_get()->init(&argc, &argv, &err) < 0) {
			cdm_msg_error("%s", err.msg);
			return CDM_EXIT_RUN;
		}
	}
	main_opts_init(&o);
	s = misplaced_subcommand(argc, argv);
	if (s == CDM_CLI_GO_ON)
		s = parse_args(argc, argv, &o);
	if (s == CDM_CLI_GO_ON)
		s = build_config(&o);
	if (s == CDM_CLI_GO_ON)
		s = check_outputs(&o);
	if (s == CDM_CLI_GO_ON)
		s = run(&o, &res, &r);
	if (s != CDM_CLI_GO_ON) {
		if (res)
			free_result(res);
		return s;
	}
	s = report(&o, res, r);
	free_result(res);
	return s;
}
