/* SPDX-License-Identifier: MIT */
/*
 * main.c - the command line: parses options (getopt_long), layers them over
 * the profile, resolves the engine, installs the signal handlers, calls the
 * runner and prints the report.  The only file that calls exit().
 *
 * Exit status (design.md, "CLI contract"): 0 success; 1 the run failed;
 * 2 usage or profile error; 128 + signal number when interrupted.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/uint.h"
#include "cdm/base/size.h"
#include "cdm/cli/compare.h"
#include "cdm/target/device.h"
#include "cdm/target/outfile.h"
#include "cdm/engine/engine.h"
#include "cdm/model/merge.h"
#include "cdm/report/plot.h"
#include "cdm/plan/profile.h"
#include "cdm/report/report.h"
#include "cdm/plan/plan.h"
#include "cdm/run/runner.h"
#include "cdm/model/detect.h"
#include "cdm/model/series.h"
#include "cdm/run/start_at.h"
#include "cdm/cli/sweep.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"
#ifdef CDM_MPI
#include "cdm/run/mpi.h"
#endif

#define EXIT_RUN 1
#define EXIT_USAGE 2

enum {
	OPT_INTERVAL = 256, OPT_WARMUP, OPT_MODE, OPT_DATA, OPT_BUFFERED,
	OPT_COMMENT, OPT_LIST_ENGINES, OPT_MIX, OPT_NULL_SERVICE, OPT_NO_REGISTER,
	OPT_FILE, OPT_BATCH, OPT_SQPOLL, OPT_HIPRI, OPT_AGGREGATE, OPT_SAVE, OPT_LABEL, OPT_CV_THRESHOLD,
	OPT_ALLOW_DESTRUCTIVE, OPT_RATE_IOPS, OPT_SYNC, OPT_FSYNC,
	OPT_START_AT, OPT_SAVE_RANKS,
	OPT_LOG_INTERVAL, OPT_PLOT,
};

/* option table and its help text side by side, so they cannot drift apart */
static const struct option long_opts[] = {
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
	{ "sync",         no_argument,       NULL, OPT_SYNC },
	{ "fsync",        required_argument, NULL, OPT_FSYNC },
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
	{ "keep",         no_argument,       NULL, 'k' },
	{ "file",         required_argument, NULL, OPT_FILE },
	{ "allow-destructive-write", no_argument, NULL, OPT_ALLOW_DESTRUCTIVE },
	{ "quiet",        no_argument,       NULL, 'q' },
	{ "list-engines", no_argument,       NULL, OPT_LIST_ENGINES },
	{ "null-service-us", required_argument, NULL, OPT_NULL_SERVICE },
	{ "no-register",  no_argument,       NULL, OPT_NO_REGISTER },
	{ "batch",        required_argument, NULL, OPT_BATCH },
	{ "sqpoll",       no_argument,       NULL, OPT_SQPOLL },
	{ "hipri",        no_argument,       NULL, OPT_HIPRI },
	/* scale-out (docs/scale-out.md) */
	{ "start-at",     required_argument, NULL, OPT_START_AT },
#ifdef CDM_MPI
	{ "save-ranks",   required_argument, NULL, OPT_SAVE_RANKS },
#endif
	{ "help",         no_argument,       NULL, 'h' },
	{ "version",      no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const char usage_text[] =
"Usage: cdm [OPTIONS] [TARGET]\n"
"       cdm compare [--format cdm|markdown] A.json B.json [C.json ...]\n"
"       cdm merge [--format FMT] [--save F.json] A.json B.json ...\n"
"       cdm sweep --threads 1,2,4,... | --qd 1,2,4,... --test SPEC [TARGET]\n"
"Run CrystalDiskMark's tests on a test file in directory TARGET (default \".\"),\n"
"or on a block device TARGET (/dev/sdX: read tests only, unless\n"
"--allow-destructive-write)\n"
"and print MB/s, IOPS and mean latency in CrystalDiskMark's text layout.\n"
"'cdm compare' sets results saved with --save side by side (cdm compare --help);\n"
"'cdm merge' adds up runs of several hosts started with --start-at.\n"
"'cdm sweep' runs a test at several thread counts or depths (cdm sweep --help).\n"
"\n"
"  -p, --profile NAME|FILE  default, peak, real, demo, nvme, or a profile file\n"
"                           (default: default)\n"
"  -t, --test SPEC          a test such as \"SEQ1M Q8T1\" or \"RND4K Q32T16\";\n"
"                           repeatable; replaces the profile's tests\n"
"  -s, --size SIZE          test file size: 1GiB, 512MiB, 64M (K/M/G/T and\n"
"                           KiB..TiB = powers of 1024, KB/MB/GB/TB = of 1000)\n"
"                           (default: profile, 1GiB)\n"
"  -n, --count N            measured passes per test, 1-100\n"
"                           (default: profile, 5)\n"
"  -T, --time SEC           seconds per measured pass, 1-3600\n"
"                           (default: profile, 5)\n"
"      --interval SEC       pause between tests, 0-3600 (default: profile, 5)\n"
"      --warmup SEC         discarded warm-up pass per test, 0-3600, 0 = none\n"
"                           (default: profile, else same as --time)\n"
"      --mode MODE          all (read, then write, then mix), read, write, mix\n"
"                           (only the mixed tests) (default: all; read on a\n"
"                           block device)\n"
"      --mix PCT            also run every test as a Mix test, each I/O a read\n"
"                           with probability PCT %, 1-99 (CDM: 10-90)\n"
"                           (default: profile, else off; --mode mix: 70)\n"
"      --rate-iops N        cap the total rate at N I/Os per second, spread\n"
"                           evenly over the threads, 1-100000000; reports the\n"
"                           rate achieved and the latency at it (default: off)\n"
"      --sync               open the test file with O_DSYNC for the tests\n"
"                           (default: off)\n"
"      --fsync N            fdatasync after every N writes of each thread,\n"
"                           1-1000000, timed apart from the writes (default: off)\n"
"      --data random|zero   test data: random bytes, or zeros (CDM's 0Fill)\n"
"                           (default: random)\n"
"  -e, --engine NAME        auto, io_uring, libaio, sync, null (default: auto)\n"
"      --buffered           go through the page cache, no O_DIRECT\n"
"                           (default: off)\n"
"  -f, --format FMT         cdm (the CDM text layout), json, csv, markdown\n"
"                           (default: cdm)\n"
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
"  -k, --keep               after a successful run, keep the test file,\n"
"                           renamed to cdm-*.keep (default: delete)\n"
"      --file PATH          reuse a test file kept by an earlier --keep run\n"
"                           (no preparation; its size is the test size)\n"
"      --allow-destructive-write\n"
"                           let write tests overwrite a block device TARGET;\n"
"                           refused while it is mounted or in use (default: off)\n"
"  -q, --quiet              no progress display; notes, warnings and errors\n"
"                           still go to stderr (default: progress on a TTY)\n"
"      --list-engines       engines built in, and whether each works here\n"
"      --null-service-us N  null engine: fixed service time per I/O in\n"
"                           microseconds, 0-10000000 (default: 0; for tests)\n"
"      --no-register        io_uring: no registered buffers or file\n"
"                           (default: off)\n"
"      --batch N            completions reaped, and I/Os restarted, per engine\n"
"                           call, 1-1024 (default: Q/8, 1-16)\n"
"      --sqpoll             io_uring: a kernel thread submits (SQPOLL)\n"
"                           (default: off)\n"
"      --hipri              io_uring: polled completions (IOPOLL; needs O_DIRECT\n"
"                           and a device with poll queues) (default: off)\n"
"      --start-at TIME      prepare the test file before TIME, then start each\n"
"                           test on a schedule computed from TIME and the plan,\n"
"                           so runs on several hosts overlap (cdm merge):\n"
"                           2026-12-01T22:00:00Z (UTC) or +30s (default: none)\n"
#ifdef CDM_MPI
"      --save-ranks PREFIX  cdm-mpi: rank 0 also saves every rank's own result\n"
"                           as PREFIX.rankN.json (default: none)\n"
#endif

"  -h, --help               this help\n"
"  -V, --version            version and engines built in\n"
"\n"
"Exit status: 0 success, 1 the run failed, 2 usage or profile error,\n"
"128+N interrupted by signal N (130 for Ctrl-C).  See cdm(1).\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("cdm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'cdm --help'.\n", stderr);
	return EXIT_USAGE;
}

static int list_engines(void)
{
	const char *const *names;
	size_t n = cdm_engine_list(&names);
	const struct cdm_engine_ops *pick = cdm_engine_pick();

	printf("%-10s %-9s %-11s %s\n", "ENGINE", "BUILT IN", "WORKS HERE", "NOTES");
	for (size_t i = 0; i < n; i++) {
		const struct cdm_engine_ops *ops = cdm_engine_find(names[i], NULL);
		char why[160] = "";
		const char *works = "-";

		if (ops)
			works = cdm_engine_probe(ops, why, sizeof(why)) == 0 ? "yes" : "no";
		else if (!strcmp(names[i], "io_uring"))
			snprintf(why, sizeof(why), "install liburing-dev and rebuild");
		else if (!strcmp(names[i], "libaio"))
			snprintf(why, sizeof(why), "install libaio-dev and rebuild");
		if (ops && ops == pick)
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%sused by auto",
				 why[0] ? "; " : "");
		if (ops && (ops->flags & CDM_ENGINE_NO_IO))
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%sno I/O: measures cdm itself (tests)", why[0] ? "; " : "");
		printf("%-10s %-9s %-11s %s\n", names[i], ops ? "yes" : "no", works, why);
	}
	return 0;
}

/*
 * Resolve --engine.  Returns the ops, or NULL after printing why; *@status
 * is the exit status to use then (2 unknown name, 1 not built / not working).
 */
static const struct cdm_engine_ops *resolve_engine(const char *name, int *status)
{
	const struct cdm_engine_ops *ops;
	char why[160];
	int known = 0;

	if (!strcmp(name, "auto")) {
		const char *const *names;
		size_t n = cdm_engine_list(&names);

		ops = cdm_engine_pick();
		/* say why a preferred engine was passed over */
		for (size_t i = 0; i < n && strcmp(names[i], ops->name); i++) {
			const struct cdm_engine_ops *o = cdm_engine_find(names[i], NULL);

			if (o && cdm_engine_probe(o, why, sizeof(why)) < 0)
				cdm_note("engine %s does not work here (%s); using %s",
					 names[i], why, ops->name);
		}
		return ops;
	}
	ops = cdm_engine_find(name, &known);
	if (!ops) {
		if (!known) {
			*status = usage_error("unknown engine '%s' (auto, io_uring, libaio, sync, null)", name);
			return NULL;
		}
		cdm_error("the %s engine is not built in: install %s and rebuild", name,
			  !strcmp(name, "io_uring") ? "liburing-dev" : "libaio-dev");
		*status = EXIT_RUN;
		return NULL;
	}
	if (cdm_engine_probe(ops, why, sizeof(why)) < 0) {
		cdm_error("the %s engine does not work here: %s", name, why);
		*status = EXIT_RUN;
		return NULL;
	}
	return ops;
}

static int parse_seconds(const char *opt, const char *arg, unsigned long min,
			 unsigned long *out)
{
	int r = cdm_uint_parse(arg, min, CDM_TIME_MAX, out);

	if (r < 0)
		return usage_error("bad value for --%s: '%s' (a whole number of seconds, %lu-%u)",
				   opt, arg, min, CDM_TIME_MAX);
	return 0;
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
		char name[64];
		double cv;

		if (!cdm_result_unstable(t, res->cv_threshold_pct, &cv))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		cdm_note("%s %s is unstable: its MB/s varied by %.1f%% across %u passes (coefficient of variation; --cv-threshold %g%%)",
			 name, cdm_dir_name(t->dir), cv,
			 t->npasses, res->cv_threshold_pct);
	}
}

static int plot_write(FILE *f, const void *res)
{
	return cdm_plot_timeseries(f, res);
}

/* --plot: the time-series chart, replaced atomically (outfile.h) */
static int write_plot(const char *path, const struct cdm_run_result *res)
{
	int e = cdm_outfile_write(path, plot_write, res);

	if (e == -EINVAL)
		cdm_warn("%s: no test has a time series to plot; nothing written", path);
	else if (e < 0)
		cdm_error("%s: cannot write the plot: %s", path, strerror(-e));
	return e == -EINVAL ? 0 : e;
}

int main(int argc, char **argv)
{
	struct cdm_run_config cfg;
	struct cdm_profile prof;
	struct cdm_spec cli_tests[CDM_MAX_TESTS];
	unsigned int ncli = 0;
	const char *profile_arg = "default", *engine_arg = "auto", *format_arg = "cdm";
	const char *output = NULL, *mode = "all", *save = NULL, *label = NULL, *plot = NULL;
	const char *start_at = NULL, *save_ranks = NULL;
	static struct cdm_start_at sa;
	enum cdm_aggregate aggregate = CDM_AGG_BEST;
	double cv_threshold = CDM_CV_THRESHOLD_DEFAULT;
	uint64_t size = 0;
	unsigned long count = 0, ptime = 0, interval = ULONG_MAX, warmup = ULONG_MAX, v;
	unsigned int mix = 0;
	const struct cdm_formatter *fmt;
	struct cdm_run_result *res;
	struct cdm_err err;
	int c, r, status = 0, planned = 0, mode_given = 0, io_failed;

	/* a subcommand: cdm compare A.json B.json ... */
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cdm_compare_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return cdm_sweep_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "merge"))
		return cdm_merge_main(argc - 1, argv + 1);
#ifdef CDM_MPI
	if (cdm_mpi_init(&argc, &argv) < 0)
		return EXIT_RUN;
#endif

	memset(&cfg, 0, sizeof(cfg));
	cfg.direct = 1;
	cfg.progress = isatty(STDERR_FILENO);
#ifdef CDM_MPI
	cfg.progress = cfg.progress && cdm_mpi_rank() == 0;
#endif

	/* getopt names the program from argv[0]: make its messages say "cdm:" */
	argv[0] = (char *)"cdm";
	while ((c = getopt_long(argc, argv, "p:t:s:n:T:e:f:o:kqhV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			profile_arg = optarg;
			break;
		case 't':
			if (ncli == CDM_MAX_TESTS)
				return usage_error("too many --test options (at most %d)", CDM_MAX_TESTS);
			if (cdm_spec_parse(optarg, &cli_tests[ncli], &err) < 0)
				return usage_error("%s", err.msg);
			ncli++;
			break;
		case 's':
			r = cdm_size_parse(optarg, &size);
			if (r < 0)
				return usage_error("bad value for --size: '%s' (e.g. 1GiB, 512MiB, 64M)", optarg);
			break;
		case 'n':
			if (cdm_uint_parse(optarg, 1, CDM_COUNT_MAX, &count) < 0)
				return usage_error("bad value for --count: '%s' (1-%u)", optarg, CDM_COUNT_MAX);
			break;
		case 'T':
			if (parse_seconds("time", optarg, 1, &ptime))
				return EXIT_USAGE;
			break;
		case OPT_INTERVAL:
			if (parse_seconds("interval", optarg, 0, &interval))
				return EXIT_USAGE;
			break;
		case OPT_WARMUP:
			if (parse_seconds("warmup", optarg, 0, &warmup))
				return EXIT_USAGE;
			break;
		case OPT_MODE:
			mode = optarg;
			mode_given = 1;
			if (strcmp(mode, "all") && strcmp(mode, "read") && strcmp(mode, "write") &&
			    strcmp(mode, "mix"))
				return usage_error("bad value for --mode: '%s' (all, read, write, mix)", mode);
			break;
		case OPT_MIX:
			if (cdm_uint_parse(optarg, CDM_MIX_MIN, CDM_MIX_MAX, &v) < 0)
				return usage_error("bad value for --mix: '%s' (the read percentage, %u-%u; 0 and 100 are --mode write and --mode read)",
						   optarg, CDM_MIX_MIN, CDM_MIX_MAX);
			mix = (unsigned int)v;
			break;
		case OPT_RATE_IOPS:
			if (cdm_uint_parse(optarg, 1, 100000000, &v) < 0)
				return usage_error("bad value for --rate-iops: '%s' (I/Os per second, 1-100000000)", optarg);
			cfg.rate_iops = v;
			break;
		case OPT_SYNC:
			cfg.dsync = 1;
			break;
		case OPT_FSYNC:
			if (cdm_uint_parse(optarg, 1, 1000000, &v) < 0)
				return usage_error("bad value for --fsync: '%s' (writes between fdatasync calls, 1-1000000)", optarg);
			cfg.fsync_every = (unsigned int)v;
			break;
		case OPT_DATA:
			if (!strcmp(optarg, "zero"))
				cfg.zero_fill = 1;
			else if (!strcmp(optarg, "random"))
				cfg.zero_fill = 0;
			else
				return usage_error("bad value for --data: '%s' (random, zero)", optarg);
			break;
		case 'e':
			engine_arg = optarg;
			break;
		case OPT_BUFFERED:
			cfg.direct = 0;
			break;
		case 'f':
			format_arg = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_SAVE:
			save = optarg;
			break;
		case OPT_LABEL:
			/* one line in every report, like --comment */
			for (char *q = optarg; *q; q++)
				if ((unsigned char)*q < 0x20 || *q == 0x7f)
					*q = ' ';
			label = optarg;
			break;
		case OPT_AGGREGATE:
			if (cdm_aggregate_parse(optarg, &aggregate) < 0)
				return usage_error("bad value for --aggregate: '%s' (best, median, mean)", optarg);
			break;
		case OPT_CV_THRESHOLD: {
			char *end;

			errno = 0;
			cv_threshold = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(cv_threshold >= 0.0 && cv_threshold <= 1000.0))
				return usage_error("bad value for --cv-threshold: '%s' (a percentage, 0-1000)", optarg);
			break;
		}
		case OPT_COMMENT:
			if (strlen(optarg) >= sizeof(((struct cdm_run_info *)0)->comment))
				return usage_error("--comment is longer than %zu bytes",
						   sizeof(((struct cdm_run_info *)0)->comment) - 1);
			/* one line in the report: control characters become spaces */
			for (char *q = optarg; *q; q++)
				if ((unsigned char)*q < 0x20 || *q == 0x7f)
					*q = ' ';
			cfg.comment = optarg;
			break;
		case OPT_LOG_INTERVAL:
			if (cdm_series_interval_parse(optarg, &cfg.log_interval_ns) < 0)
				return usage_error("bad value for --log-interval: '%s' (such as 500ms, 1s, 2s; 100ms-3600s)",
						   optarg);
			break;
		case OPT_PLOT:
			plot = optarg;
			break;
		case 'k':
			cfg.keep = 1;
			break;
		case OPT_FILE:
			cfg.file = optarg;
			break;
		case OPT_ALLOW_DESTRUCTIVE:
			cfg.allow_destructive_write = 1;
			break;
		case 'q':
			cfg.progress = 0;
			break;
		case OPT_LIST_ENGINES:
			return list_engines();
		case OPT_NULL_SERVICE:
			if (cdm_uint_parse(optarg, 0, 10000000, &v) < 0)
				return usage_error("bad value for --null-service-us: '%s' (0-10000000)", optarg);
			cfg.null_service_ns = (uint64_t)v * 1000;
			break;
		case OPT_BATCH:
			if (cdm_uint_parse(optarg, 1, CDM_QD_MAX, &v) < 0)
				return usage_error("bad value for --batch: '%s' (1-%u)", optarg, CDM_QD_MAX);
			cfg.batch = (unsigned int)v;
			break;
		case OPT_SQPOLL:
			cfg.engine_options |= CDM_ENGINE_OPT_SQPOLL;
			break;
		case OPT_HIPRI:
			cfg.engine_options |= CDM_ENGINE_OPT_IOPOLL;
			break;
		case OPT_NO_REGISTER:
			cfg.engine_options |= CDM_ENGINE_OPT_NO_REGISTER;
			break;
		case OPT_START_AT:
			if (cdm_start_at_parse(optarg, cdm_wall_ns(), &sa.start_ns) < 0)
				return usage_error("bad value for --start-at: '%s' (UTC as 2026-12-01T22:00:00Z, or +30s, +5m)", optarg);
			snprintf(sa.text, sizeof(sa.text), "%s", optarg);
			start_at = optarg;
			break;
		case OPT_SAVE_RANKS:
			save_ranks = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("cdm %s (engines: %s)\n", CDM_VERSION, cdm_engine_build_info());
			return 0;
		default:
			fputs("Try 'cdm --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1)
		return usage_error("one TARGET directory expected, got %d", argc - optind);
	if ((optind < argc && !argv[optind][0]) || (output && !output[0]) ||
	    (save && !save[0]) || (cfg.file && !cfg.file[0]) || (plot && !plot[0]))
		return usage_error("an empty path was given");
	cfg.target = optind < argc ? argv[optind] : ".";
	if (cfg.file) {
		static char dir[PATH_MAX];

		if (optind < argc)
			return usage_error("--file names the test file: give no TARGET");
		if (size)
			return usage_error("--size cannot be used with --file (the file's size is the test size)");
		cdm_outfile_parent_dir(cfg.file, dir, sizeof(dir));
		cfg.target = dir;
	}

	fmt = cdm_report_find(format_arg, &planned);
	if (!fmt) {
		if (planned)
			return usage_error("--format %s is not implemented yet (available: cdm)", format_arg);
		return usage_error("unknown format '%s' (cdm, json, csv, markdown)", format_arg);
	}
	if (cdm_profile_load(profile_arg, &prof, &err) < 0) {
		fprintf(stderr, "cdm: %s\n", err.msg);
		return EXIT_USAGE;
	}

	/* command-line options override the profile; the profile the defaults */
	cfg.profile_name = prof.name[0] ? prof.name : "Custom";
	if (ncli) {
		memcpy(cfg.tests, cli_tests, sizeof(cli_tests[0]) * ncli);
		cfg.ntests = ncli;
	} else {
		memcpy(cfg.tests, prof.tests, sizeof(prof.tests[0]) * prof.ntests);
		cfg.ntests = prof.ntests;
	}
	cfg.size = size ? size : prof.size ? prof.size : 1ull << 30;
	cfg.count = count ? (unsigned int)count : prof.count ? prof.count : 5;
	cfg.time = ptime ? (unsigned int)ptime : prof.time ? prof.time : 5;
	cfg.interval = interval != ULONG_MAX ? (unsigned int)interval :
		       prof.interval >= 0 ? (unsigned int)prof.interval : 5;
	cfg.warmup = warmup != ULONG_MAX ? (unsigned int)warmup :
		     prof.warmup >= 0 ? (unsigned int)prof.warmup : cfg.time;
	cfg.do_read = !strcmp(mode, "all") || !strcmp(mode, "read");
	cfg.do_write = !strcmp(mode, "all") || !strcmp(mode, "write");
	cfg.do_mix = !strcmp(mode, "all") || !strcmp(mode, "mix");
	/* CDM's default ratio, R70/W30, when only --mode mix asks for a Mix */
	cfg.mix_read_pct = mix ? mix : prof.mix ? prof.mix : !strcmp(mode, "mix") ? 70 : 0;
	if (!cdm_plan_tests(&cfg, NULL))
		return usage_error("--mode %s leaves no test to run (a test with W<pct> runs only in --mode all or mix)",
				   mode);
	/* a block device TARGET: read by default, its size, its sectors */
	if (cdm_plan_device(&cfg, mode_given, size != 0, &err) < 0) {
		cdm_error("%s", err.msg);
		return EXIT_USAGE;
	}

	/* a whole number of the largest block, as CDM sizes its file */
	{
		uint64_t maxb = 0, rounded;
		char a[32], b[32];

		for (unsigned int i = 0; i < cfg.ntests; i++)
			if (cfg.tests[i].block > maxb)
				maxb = cfg.tests[i].block;
		if (cfg.size < maxb) {
			cdm_size_format(cfg.size, a, sizeof(a));
			cdm_size_format(maxb, b, sizeof(b));
			return usage_error("--size %s is smaller than one %s block of the tests", a, b);
		}
		rounded = cfg.size / maxb * maxb;
		if (rounded != cfg.size) {
			cdm_size_format(cfg.size, a, sizeof(a));
			cdm_size_format(rounded, b, sizeof(b));
			cdm_note("test size %s rounded down to %s, a whole number of %" PRIu64 "-byte blocks",
				 a, b, maxb);
			cfg.size = rounded;
		}
	}

	cfg.engine = resolve_engine(engine_arg, &status);
	if (!cfg.engine)
		return status;
	if ((cfg.engine_options & (CDM_ENGINE_OPT_SQPOLL | CDM_ENGINE_OPT_IOPOLL)) &&
	    strcmp(cfg.engine->name, "io_uring") != 0)
		return usage_error("--sqpoll and --hipri need the io_uring engine, not %s",
				   cfg.engine->name);
	if ((cfg.engine_options & CDM_ENGINE_OPT_IOPOLL) && !cfg.direct)
		return usage_error("--hipri (polled I/O) needs O_DIRECT: drop --buffered");
	if (plot && !cfg.log_interval_ns)
		return usage_error("--plot draws the time series: give --log-interval too");
	if (cfg.log_interval_ns) {
		uint64_t need = 0;

		for (unsigned int i = 0; i < cfg.ntests; i++) {
			uint64_t m = cdm_series_mem(cfg.warmup, cfg.count, cfg.time, cfg.log_interval_ns) *
				     cfg.tests[i].threads;

			if (m > need)
				need = m;
		}
		if (need > CDM_SERIES_MEM_MAX)
			return usage_error("--log-interval: %" PRIu64 " MiB of interval counters for one test, more than %llu MiB; use a longer interval or shorter passes",
					   need >> 20, CDM_SERIES_MEM_MAX >> 20);
	}
	if (cdm_outfile_same(plot, save) || cdm_outfile_same(plot, output) || cdm_outfile_same(plot, cfg.file))
		return usage_error("--plot '%s' names the same file as --output, --save or --file", plot);
	if (plot && cdm_outfile_check(plot, "--plot", 1, &err) < 0)
		return cdm_error("%s", err.msg), EXIT_RUN;
	if (cdm_outfile_same(output, save))
		return usage_error("--output and --save name the same file '%s'", save);
	if (cdm_outfile_same(output, cfg.file) || cdm_outfile_same(save, cfg.file))
		return usage_error("'%s' is the test file: --output and --save need another file", cfg.file);
	if (output && cdm_outfile_check(output, "--output", 0, &err) < 0)
		return cdm_error("%s", err.msg), EXIT_RUN;
	if (save && cdm_outfile_check(save, "--save", 1, &err) < 0)
		return cdm_error("%s", err.msg), EXIT_RUN;
	if (start_at) {
#ifdef CDM_MPI
		return usage_error("--start-at is for independent runs: cdm-mpi starts its ranks together by itself");
#endif
		cdm_start_at_plan(&sa, &cfg);
		cfg.sync = cdm_start_at_sync;
		cfg.sync_arg = &sa;
	}
#ifdef CDM_MPI
	cfg.sync = cdm_mpi_sync;
#endif
	(void)save_ranks;
	if (cdm_runner_install_signals() < 0)
		return cdm_error("cannot install signal handlers: %s", strerror(errno)), EXIT_RUN;

	res = cdm_result_alloc(cdm_plan_tests(&cfg, NULL));
	if (!res)
		return cdm_error("out of memory"), EXIT_RUN;
	res->aggregate = aggregate;
	res->cv_threshold_pct = cv_threshold;
	if (label)
		snprintf(res->info.label, sizeof(res->info.label), "%s", label);
	r = cdm_run(&cfg, res, &err);
	if (r < 0 && r != -EINTR && err.msg[0])
		cdm_error("%s", err.msg);
#ifdef CDM_MPI
	{
		/* every rank's result to rank 0, which reports the aggregate */
		struct cdm_run_result *agg;

		r = cdm_mpi_finish(res, r, label, save_ranks, &agg);
		if (r < 0 || !agg) {
			int sig = res->interrupted ? res->interrupted : SIGINT;

			cdm_result_free(res);
			return r == -EINTR ? 128 + sig : r < 0 ? EXIT_RUN : 0;
		}
		cdm_result_free(res);
		res = agg;
	}
#endif
	if (r == 0 || r == -EINTR)
		note_unstable(res);
	if ((r == 0 || r == -EINTR) && cfg.log_interval_ns) {
		cdm_detect_analyze(res, 1);
		if (plot && write_plot(plot, res) < 0)
			status = EXIT_RUN;
	}
	io_failed = r < 0 && r != -EINTR && run_io_failed(res);

	/* print what was measured: all of it, or the rows before a stop or an I/O error */
	if (r == 0 || r == -EINTR || io_failed) {
		FILE *out = stdout;

		if (output) {
			out = fopen(output, "w");
			if (!out) {
				int sig = cdm_runner_stop_requested();

				cdm_error("%s: cannot write the report: %s", output, strerror(errno));
				cdm_result_free(res);
				/* a signal while opening (a FIFO nobody reads) is a stop */
				return sig ? 128 + sig : EXIT_RUN;
			}
		}
		errno = 0;
		if (fmt->write(out, res) < 0 || fflush(out) != 0 || ferror(out)) {
			cdm_error("%s: writing the report failed: %s", output ? output : "stdout",
				  strerror(errno ? errno : EIO));
			status = EXIT_RUN;
		}
		if (output && fclose(out) != 0 && status == 0) {
			cdm_error("%s: writing the report failed: %s", output, strerror(errno));
			status = EXIT_RUN;
		}
		if (save) {
			int e = cdm_report_save(save, cdm_report_find("json", NULL), res);

			if (e < 0) {
				cdm_error("%s: cannot save the result: %s", save, strerror(-e));
				status = EXIT_RUN;
			}
		}
	}
	if (r == -EINTR) {
		int sig = res->interrupted ? res->interrupted : SIGINT;

		cdm_error("interrupted by %s: the report shows the tests measured before it; %s",
			  strsignal(sig), cfg.file ? "the test file given with --file was kept" :
			  res->info.is_device ? "the device was closed" : "the test file was removed");
		status = 128 + sig;
	} else if (r < 0) {
		if (io_failed)
			cdm_error("the run stopped at the first I/O error: the report shows the tests measured before it; %s",
				  cfg.file ? "the test file given with --file was kept" :
				  res->info.is_device ? "the device was closed" :
				  "the test file was removed");
		status = EXIT_RUN;
	}
#ifdef CDM_MPI
	cdm_merge_free(res);
#else
	cdm_result_free(res);
#endif
	return status;
}
