/* SPDX-License-Identifier: MIT */
/*
 * run_cli.c - the run command's step 1 (include/cdm/cli/run_cli.h): its
 * options (cli/options.c) parsed into struct cdm_cli_run_opts, the answers
 * that replace a run (--help, --version, --list-engines,
 * --list-profiles), then the other steps in order: run_setup.c builds
 * and checks the configuration, run_exec.c runs it and reports.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdm/base/text.h"
#include "cdm/base/uint.h"
#include "cdm/cli/list_profiles.h"
#include "cdm/cli/options.h"
#include "cdm/target/numa.h"
#include "cdm/target/outfile.h"
#include "cdm/base/cpulist.h"
#include "cdm/base/err.h"
#include "cdm/engine/engine.h"
#include "cdm/model/series.h"
#include "cdm/cli/run_cli.h"
#include "cdm/cli/run_exec.h"
#include "cdm/cli/run_setup.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"
#include "cdm/base/version.h"
#include "cdm/run/mpi.h"


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

/* an option handler's "not one of mine": the next handler tries it */
#define NOT_MINE (-2)
/* `cdm --help`, printed by cli/main.c */
static void (*print_help)(void);


static void opts_init(struct cdm_cli_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	cdm_options_init(&o->common, &o->cfg);
	o->profile = "default";
	o->common.engine = "auto";
	o->common.format = "cdm";
	o->common.mode = CDM_PROFILE_MODE_DEFAULT;
	o->cv_threshold = CDM_CV_THRESHOLD_DEFAULT;
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

/* the options that say what is measured: tests, sizes, times, the workload */
static int parse_plan_option(int c, char *arg, struct cdm_cli_run_opts *o)
{
	unsigned long v;

	switch (c) {
	case 'p':
		o->profile = arg;
		o->profile_given = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_MODE:
		o->mode_given = 1;
		if (strcmp(arg, "all") && strcmp(arg, "read") && strcmp(arg, "write") && strcmp(arg, "mix"))
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --mode: '%s' (all, read, write, mix)", arg);
		return CDM_CLI_GO_ON;
	case CDM_OPT_MIX:
		if (cdm_uint_parse(arg, CDM_MIX_MIN, CDM_MIX_MAX, &v) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --mix: '%s' (the read percentage, %u-%u; 0 and 100 are --mode write and --mode read)",
					     arg, CDM_MIX_MIN, CDM_MIX_MAX);
		o->mix = (unsigned int)v;
		return CDM_CLI_GO_ON;
	case CDM_OPT_RATE_IOPS:
		if (cdm_uint_parse(arg, 1, 100000000, &v) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --rate-iops: '%s' (I/Os per second, 1-100000000)", arg);
		o->cfg.rate_iops = v;
		return CDM_CLI_GO_ON;
	case CDM_OPT_SEED:
		if (cdm_uint_parse(arg, 1, 4294967295ul, &v) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --seed: '%s' (1-4294967295)", arg);
		o->cfg.seed = v;
		return CDM_CLI_GO_ON;
	case CDM_OPT_SYNC:
		o->cfg.dsync = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_FSYNC:
		if (cdm_uint_parse(arg, 1, 1000000, &v) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --fsync: '%s' (writes between fdatasync calls, 1-1000000)", arg);
		o->cfg.fsync_every = (unsigned int)v;
		return CDM_CLI_GO_ON;
	case CDM_OPT_VERIFY:
		o->cfg.verify = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_DATA:
		if (strcmp(arg, "zero") && strcmp(arg, "random"))
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --data: '%s' (random, zero)", arg);
		o->cfg.zero_fill = !strcmp(arg, "zero");
		return CDM_CLI_GO_ON;
	}
	return NOT_MINE;
}

/* the options that say what is reported, and where */
static int parse_report_option(int c, char *arg, struct cdm_cli_run_opts *o)
{
	char *end;

	switch (c) {
	case CDM_OPT_CV_THRESHOLD:
		errno = 0;
		o->cv_threshold = strtod(arg, &end);
		if (errno || end == arg || *end || !(o->cv_threshold >= 0.0 && o->cv_threshold <= 1000.0))
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --cv-threshold: '%s' (a percentage, 0-1000)", arg);
		return CDM_CLI_GO_ON;
	case CDM_OPT_COMMENT:
		if (strlen(arg) >= sizeof(((struct cdm_run_info *)0)->comment))
			return cdm_cli_usage(&cdm_cli_run_cmd, "--comment is longer than %zu bytes",
					     sizeof(((struct cdm_run_info *)0)->comment) - 1);
		cdm_text_one_line(arg);
		o->cfg.comment = arg;
		return CDM_CLI_GO_ON;
	case CDM_OPT_LOG_INTERVAL:
		if (cdm_series_interval_parse(arg, &o->cfg.log_interval_ns) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --log-interval: '%s' (such as 500ms, 1s, 2s; 100ms-3600s)",
					     arg);
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
		return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --cpus: '%s': %s (a CPU list such as 0-3,8)",
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
static int parse_gate_option(int c, char *arg, struct cdm_cli_run_opts *o)
{
	unsigned long v;

	switch (c) {
	case CDM_OPT_END_FSYNC:
		o->cfg.end_fsync = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_STEADY_STATE:
		o->cfg.steady_state = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_MAX_ROUNDS:
		if (cdm_uint_parse(arg, CDM_STEADY_WINDOW, CDM_MAX_PASSES, &v) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --max-rounds: '%s' (%u-%u)", arg,
					     CDM_STEADY_WINDOW, CDM_MAX_PASSES);
		o->cfg.max_rounds = (unsigned int)v;
		return CDM_CLI_GO_ON;
	}
	return NOT_MINE;
}

static int parse_run_option(int c, char *arg, struct cdm_cli_run_opts *o)
{
	unsigned long v;

	switch (c) {
	case 'k':
		o->cfg.keep = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_FILE:
		o->cfg.file = arg;
		return CDM_CLI_GO_ON;
	case CDM_OPT_ALLOW_DESTRUCTIVE:
		o->cfg.allow_destructive_write = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_PRECONDITION:
		o->cfg.precondition = 1;
		return CDM_CLI_GO_ON;
	case CDM_OPT_BATCH:
		if (cdm_uint_parse(arg, 1, CDM_QD_MAX, &v) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --batch: '%s' (1-%u)", arg, CDM_QD_MAX);
		o->cfg.batch = (unsigned int)v;
		return CDM_CLI_GO_ON;
	case CDM_OPT_SQPOLL:
		o->cfg.engine_options |= CDM_ENGINE_OPT_SQPOLL;
		return CDM_CLI_GO_ON;
	case CDM_OPT_HIPRI:
		o->cfg.engine_options |= CDM_ENGINE_OPT_IOPOLL;
		return CDM_CLI_GO_ON;
	case CDM_OPT_NO_REGISTER:
		o->cfg.engine_options |= CDM_ENGINE_OPT_NO_REGISTER;
		return CDM_CLI_GO_ON;
	case CDM_OPT_CPUS:
		return parse_cpus(arg, &o->cfg);
	case CDM_OPT_START_AT:
		if (cdm_start_at_parse(arg, cdm_clock_wall_ns(), &o->sa.start_ns) < 0)
			return cdm_cli_usage(&cdm_cli_run_cmd, "bad value for --start-at: '%s' (UTC as 2026-12-01T22:00:00Z, or +30s, +5m)", arg);
		snprintf(o->sa.text, sizeof(o->sa.text), "%s", arg);
		o->start_at = arg;
		return CDM_CLI_GO_ON;
	case CDM_OPT_SAVE_RANKS:
		o->save_ranks = arg;
		return CDM_CLI_GO_ON;
	}
	return NOT_MINE;
}

void cdm_cli_run_print_options(FILE *f)
{
	fputs(usage_text, f);
	if (cdm_mpi_hook_get())
		fputs(usage_mpi, f);
	fputs(usage_end, f);
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
static int parse_info_option(int c, struct cdm_cli_run_opts *o)
{
	switch (c) {
	case CDM_OPT_LIST_ENGINES:
	case CDM_OPT_LIST_PROFILES:
		if (o->list && o->list != c)
			return cdm_cli_usage(&cdm_cli_run_cmd, "--list-engines and --list-profiles: one at a time");
		o->list = c;
		return CDM_CLI_GO_ON;
	case 'V':
		print_version();
		return CDM_EXIT_OK;
	}
	return CDM_CLI_GO_ON;
}

/* --list-engines, --list-profiles [-p NAME|FILE]: no TARGET; the exit status */
static int list_now(int argc, char **argv, const struct cdm_cli_run_opts *o)
{
	const char *opt = o->list == CDM_OPT_LIST_ENGINES ? "--list-engines" : "--list-profiles";

	if (optind < argc)
		return cdm_cli_usage(&cdm_cli_run_cmd, "%s takes no TARGET, got '%s'", opt, argv[optind]);
	if (o->list == CDM_OPT_LIST_ENGINES)
		return list_engines();
	if (o->profile_given)
		return cdm_list_profiles_print_one(stdout, o->profile);
	return cdm_list_profiles_print(stdout);
}

/* the run's own options (cdm_options_parse() has done the shared ones) */
static int handle_option(const struct cdm_options_parser *p, int c, char *arg)
{
	struct cdm_cli_run_opts *o = p->ctx;
	int s = parse_plan_option(c, arg, o);

	if (s == NOT_MINE)
		s = parse_report_option(c, arg, o);
	if (s == NOT_MINE)
		s = parse_run_option(c, arg, o);
	if (s == NOT_MINE)
		s = parse_gate_option(c, arg, o);
	if (s == NOT_MINE)
		s = parse_info_option(c, o);
	return s;
}

/* TARGET, or --file's directory; no empty paths */
static int parse_operands(int argc, char **argv, struct cdm_cli_run_opts *o)
{
	static char dir[PATH_MAX];
	struct cdm_run_config *cfg = &o->cfg;

	if (argc - optind > 1)
		return cdm_cli_usage(&cdm_cli_run_cmd, "one TARGET directory expected, got %d", argc - optind);
	if ((optind < argc && !argv[optind][0]) || (o->common.output && !o->common.output[0]) ||
	    (o->common.save && !o->common.save[0]) || (cfg->file && !cfg->file[0]) || (o->common.plot && !o->common.plot[0]) ||
	    (o->common.svg && !o->common.svg[0]))
		return cdm_cli_usage(&cdm_cli_run_cmd, "an empty path was given");
	cfg->target = optind < argc ? argv[optind] : ".";
	if (!cfg->file)
		return CDM_CLI_GO_ON;
	if (optind < argc)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--file names the test file: give no TARGET");
	if (o->common.size)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--size cannot be used with --file (the file's size is the test size)");
	cdm_outfile_parent_dir(cfg->file, dir, sizeof(dir));
	cfg->target = dir;
	return CDM_CLI_GO_ON;
}

/* step 1: the command line into @o */
static int parse_args(int argc, char **argv, struct cdm_cli_run_opts *o)
{
	/* --save-ranks is cdm-mpi's alone */
	struct cdm_options_parser p = {
		CDM_OPTIONS_RUN | (cdm_mpi_hook_get() ? CDM_OPTIONS_MPI : 0),
		&cdm_cli_run_cmd, print_help, NULL, handle_option, o,
	};
	int s;

	/* getopt names the program from argv[0]: make its messages say "cdm:" */
	argv[0] = (char *)"cdm";
	s = cdm_options_parse(&p, argc, argv, &o->common);
	if (s != CDM_CLI_GO_ON)
		return s;
	if (o->list)
		return list_now(argc, argv, o);
	return parse_operands(argc, argv, o);
}

int cdm_cli_run_takes_next(const char *arg)
{
	return cdm_options_takes_next(CDM_OPTIONS_RUN | CDM_OPTIONS_MPI, arg);
}

int cdm_cli_run_main(int argc, char **argv, void (*help)(void))
{
	static struct cdm_cli_run_opts o;
	struct cdm_run_result *res = NULL;
	int s, r = 0;

	print_help = help;
	opts_init(&o);
	s = parse_args(argc, argv, &o);
	if (s == CDM_CLI_GO_ON)
		s = cdm_run_setup_config(&o);
	if (s == CDM_CLI_GO_ON)
		s = cdm_run_setup_outputs(&o);
	if (s == CDM_CLI_GO_ON)
		s = cdm_run_exec_run(&o, &res, &r);
	if (s != CDM_CLI_GO_ON) {
		if (res)
			cdm_run_exec_free(res);
		return s;
	}
	s = cdm_run_exec_report(&o, res, r);
	cdm_run_exec_free(res);
	return s;
}
