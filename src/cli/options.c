/* SPDX-License-Identifier: MIT */
/*
 * options.c - the option table of every cdm command and its one parse
 * loop (include/cdm/cli/options.h): getopt_long()'s arrays built per
 * command from the table, the shared options parsed here, the rest
 * handed to the command's handler.
 */
#include <getopt.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/base/size.h"
#include "cdm/base/text.h"
#include "cdm/base/uint.h"
#include "cdm/cli/options.h"
#include "cdm/plan/profile.h"
#include "cdm/report/report.h"
#include "cdm/run/mpi.h"

#define RUN CDM_OPTIONS_RUN
#define SWEEP CDM_OPTIONS_SWEEP
#define COMPARE CDM_OPTIONS_COMPARE
#define IMPORT CDM_OPTIONS_IMPORT
#define MERGE CDM_OPTIONS_MERGE
#define REPORT CDM_OPTIONS_REPORT
#define MPI CDM_OPTIONS_MPI
#define REQ required_argument
#define NO no_argument

/*
 * Each option once, in the order of cdm --help (--threads and --qd first,
 * as cdm sweep's help has them).  A command's getopt_long() array holds
 * its rows in this order, and getopt names the candidates of an ambiguous
 * abbreviation in it ("--t": '--threads' '--test' '--time'): a new row
 * goes where that order stays the same for every command.
 */
const struct cdm_options_opt cdm_options_table[] = {
	{ "threads", CDM_OPT_THREADS, REQ, "LIST", SWEEP, "thread counts, such as 1,2,4,8" },
	{ "qd", CDM_OPT_QD, REQ, "LIST", SWEEP, "queue depths per thread, such as 1,2,4,8" },
	{ "profile", 'p', REQ, "NAME|FILE", RUN, "the profile: a built-in's name or a profile file" },
	{ "test", 't', REQ, "SPEC", RUN | SWEEP, "a test such as \"SEQ1M Q8T1\"; repeatable" },
	{ "size", 's', REQ, "SIZE", RUN | SWEEP, "test file size: 1GiB, 512MiB, 64M" },
	{ "count", 'n', REQ, "N", RUN | SWEEP, "measured passes per test, 1-100" },
	{ "time", 'T', REQ, "SEC", RUN | SWEEP, "seconds per measured pass, 0.1-3600" },
	{ "interval", CDM_OPT_INTERVAL, REQ, "SEC", RUN | SWEEP, "pause between tests, 0-3600" },
	{ "warmup", CDM_OPT_WARMUP, REQ, "SEC", RUN | SWEEP, "discarded warm-up pass per test" },
	{ "mode", CDM_OPT_MODE, REQ, "MODE", RUN | SWEEP, "all, read, write (cdm: mix)" },
	{ "mix", CDM_OPT_MIX, REQ, "PCT", RUN, "also run every test as a Mix test, PCT % reads" },
	{ "data", CDM_OPT_DATA, REQ, "random|zero", RUN, "test data: random bytes, or zeros" },
	{ "rate-iops", CDM_OPT_RATE_IOPS, REQ, "N", RUN, "cap the total rate at N I/Os per second" },
	{ "seed", CDM_OPT_SEED, REQ, "N", RUN, "seed the random offsets and Mix choices" },
	{ "sync", CDM_OPT_SYNC, NO, NULL, RUN, "open the test file with O_DSYNC" },
	{ "fsync", CDM_OPT_FSYNC, REQ, "N", RUN, "fdatasync after every N writes of each thread" },
	{ "verify", CDM_OPT_VERIFY, NO, NULL, RUN, "read back and check what each write test wrote" },
	{ "end-fsync", CDM_OPT_END_FSYNC, NO, NULL, RUN, "end each write pass with one fdatasync" },
	{ "steady-state", CDM_OPT_STEADY_STATE, NO, NULL, RUN, "rounds until steady (SNIA PTS)" },
	{ "max-rounds", CDM_OPT_MAX_ROUNDS, REQ, "N", RUN, "with --steady-state: at most N rounds" },
	{ "engine", 'e', REQ, "NAME", RUN | SWEEP, "auto, io_uring, libaio, sync, null" },
	{ "buffered", CDM_OPT_BUFFERED, NO, NULL, RUN | SWEEP, "go through the page cache, no O_DIRECT" },
	{ "format", 'f', REQ, "FMT", RUN | SWEEP | COMPARE | IMPORT | MERGE | REPORT, "the report's format" },
	{ "output", 'o', REQ, "FILE", RUN | COMPARE | IMPORT | MERGE | REPORT, "write the report to FILE" },
	{ "save", CDM_OPT_SAVE, REQ, "FILE.json", RUN | SWEEP | IMPORT | MERGE, "also save the result as JSON" },
	{ "label", CDM_OPT_LABEL, REQ, "TEXT", RUN | IMPORT, "the run's name in JSON and compare" },
	{ "aggregate", CDM_OPT_AGGREGATE, REQ, "AGG", RUN | COMPARE | MERGE | REPORT, "best, median, mean" },
	{ "cv-threshold", CDM_OPT_CV_THRESHOLD, REQ, "PCT", RUN, "note tests whose MB/s varies more" },
	{ "comment", CDM_OPT_COMMENT, REQ, "TEXT", RUN, "the report's Comment line" },
	{ "log-interval", CDM_OPT_LOG_INTERVAL, REQ, "IVAL", RUN, "a time series every IVAL" },
	{ "plot", CDM_OPT_PLOT, REQ, "FILE.svg", RUN | SWEEP, "draw the time series (sweep: the curves)" },
	{ "svg", CDM_OPT_SVG, REQ, "FILE.svg", RUN | REPORT, "also draw the result as a card" },
	{ "keep", 'k', NO, NULL, RUN, "keep the test file after a successful run" },
	{ "file", CDM_OPT_FILE, REQ, "PATH", RUN, "reuse a test file kept by --keep" },
	{ "allow-destructive-write", CDM_OPT_ALLOW_DESTRUCTIVE, NO, NULL, RUN, "write tests on a block device" },
	{ "precondition", CDM_OPT_PRECONDITION, NO, NULL, RUN, "write the test file twice first" },
	{ "quiet", 'q', NO, NULL, RUN | SWEEP, "no progress display" },
	{ "list-engines", CDM_OPT_LIST_ENGINES, NO, NULL, RUN, "engines built in, and whether each works" },
	{ "list-profiles", CDM_OPT_LIST_PROFILES, NO, NULL, RUN, "built-in profiles" },
	{ "null-service-us", CDM_OPT_NULL_SERVICE, REQ, "N[,M@S]", RUN | SWEEP, "null engine: service time per I/O" },
	{ "null-device", CDM_OPT_NULL_DEVICE, REQ, "SPEC", RUN | SWEEP, "null engine: a simulated device" },
	{ "no-register", CDM_OPT_NO_REGISTER, NO, NULL, RUN, "io_uring: no registered buffers or file" },
	{ "batch", CDM_OPT_BATCH, REQ, "N", RUN, "completions reaped per engine call, 1-1024" },
	{ "sqpoll", CDM_OPT_SQPOLL, NO, NULL, RUN, "io_uring: a kernel thread submits" },
	{ "hipri", CDM_OPT_HIPRI, NO, NULL, RUN, "io_uring: polled completions" },
	{ "cpus", CDM_OPT_CPUS, REQ, "LIST", RUN, "pin worker threads to the CPUs of LIST" },
	{ "start-at", CDM_OPT_START_AT, REQ, "TIME", RUN, "start the tests on a schedule from TIME" },
	{ "metric", CDM_OPT_METRIC, REQ, "METRIC", SWEEP | COMPARE, "the figure shown: mb_s, iops (compare: latency)" },
	{ "help", 'h', NO, NULL, RUN | SWEEP | COMPARE | IMPORT | MERGE | REPORT, "this help" },
	{ "version", 'V', NO, NULL, RUN, "version, engines and how cdm was built" },
	{ "save-ranks", CDM_OPT_SAVE_RANKS, REQ, "PREFIX", MPI, "cdm-mpi: also save every rank's result" },
	{ NULL, 0, 0, NULL, 0, NULL },
};

#define NOPTS (sizeof(cdm_options_table) / sizeof(cdm_options_table[0]) - 1)

/* the commands by name, for --list-options=CMD */
static const struct {
	const char *name;
	unsigned int cmds;
} commands[] = {
	{ "", RUN }, { "sweep", SWEEP }, { "compare", COMPARE }, { "import", IMPORT },
	{ "merge", MERGE }, { "report", REPORT },
};

void cdm_options_init(struct cdm_options_common *c, struct cdm_run_config *cfg)
{
	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->aggregate = CDM_AGG_BEST;
	c->time_ms = -1;
	c->interval_ms = -1;
	c->warmup_ms = -1;
}

/* getopt_long()'s arrays for @cmds: @lo (NOPTS + 1 rows), @so */
static void build(unsigned int cmds, struct option *lo, char *so)
{
	const struct cdm_options_opt *t;

	for (t = cdm_options_table; t->name; t++) {
		if (!(t->cmds & cmds))
			continue;
		*lo++ = (struct option){ t->name, t->has_arg, NULL, t->key };
		if (t->key < 256) {
			*so++ = (char)t->key;
			if (t->has_arg == required_argument)
				*so++ = ':';
		}
	}
	*lo = (struct option){ NULL, 0, NULL, 0 };
	*so = '\0';
}

/* --time, --interval, --warmup: a time in its range (cdm_profile_seconds()) */
static int parse_seconds(const struct cdm_cli_cmd *cmd, enum cdm_profile_time which,
			 const char *opt, const char *arg, int *out)
{
	struct cdm_err err;
	unsigned int ms;

	if (cdm_profile_seconds(which, opt, arg, &ms, &err) < 0)
		return cdm_cli_usage(cmd, "%s", err.msg);
	*out = (int)ms;
	return CDM_CLI_GO_ON;
}

/* the shared options of what a run measures: --test, --size, the times */
static int parse_plan(const struct cdm_cli_cmd *cmd, int key, char *arg,
		      struct cdm_options_common *c)
{
	struct cdm_err err;

	switch (key) {
	case 't':
		if (c->ntests == CDM_MAX_TESTS)
			return cdm_cli_usage(cmd, "too many --test options (at most %d)", CDM_MAX_TESTS);
		if (cdm_spec_parse(arg, &c->tests[c->ntests], &err) < 0)
			return cdm_cli_usage(cmd, "%s", err.msg);
		c->ntests++;
		break;
	case 's':
		if (cdm_size_parse(arg, &c->size) < 0)
			return cdm_cli_usage(cmd, "bad value for --size: '%s' (e.g. 1GiB, 512MiB, 64M)", arg);
		break;
	case 'n':
		if (cdm_uint_parse(arg, 1, CDM_COUNT_MAX, &c->count) < 0)
			return cdm_cli_usage(cmd, "bad value for --count: '%s' (1-%u)", arg, CDM_COUNT_MAX);
		break;
	case 'T':
		return parse_seconds(cmd, CDM_PROFILE_TIME, "--time", arg, &c->time_ms);
	case CDM_OPT_INTERVAL:
		return parse_seconds(cmd, CDM_PROFILE_INTERVAL, "--interval", arg, &c->interval_ms);
	case CDM_OPT_WARMUP:
		return parse_seconds(cmd, CDM_PROFILE_WARMUP, "--warmup", arg, &c->warmup_ms);
	}
	return CDM_CLI_GO_ON;
}

/* the shared options that name a file, a format, an engine: kept as given */
static const char **string_of(int key, struct cdm_options_common *c)
{
	switch (key) {
	case 'f': return &c->format;
	case 'o': return &c->output;
	case 'e': return &c->engine;
	case CDM_OPT_SAVE: return &c->save;
	case CDM_OPT_LABEL: return &c->label;
	case CDM_OPT_PLOT: return &c->plot;
	case CDM_OPT_SVG: return &c->svg;
	case CDM_OPT_MODE: return &c->mode;
	case CDM_OPT_METRIC: return &c->metric;
	}
	return NULL;
}

/* the shared options of how it is run and reported */
static int parse_shared(const struct cdm_options_parser *p, int key, char *arg,
			struct cdm_options_common *c)
{
	const char **s = string_of(key, c);

	if (s) {
		if (key == CDM_OPT_LABEL)
			cdm_text_one_line(arg);
		*s = arg;
		return CDM_CLI_GO_ON;
	}
	switch (key) {
	case CDM_OPT_AGGREGATE:
		c->aggregate_given = 1;
		return cdm_cli_aggregate(p->cmd, arg, &c->aggregate);
	case CDM_OPT_BUFFERED:
		c->cfg->direct = 0;
		break;
	case 'q':
		c->cfg->progress = 0;
		break;
	case CDM_OPT_NULL_SERVICE:
		c->null_service = arg;
		return cdm_cli_null_service(p->cmd, arg, c->cfg);
	case CDM_OPT_NULL_DEVICE:
		c->null_device = arg;
		return cdm_cli_null_device(p->cmd, arg, c->cfg);
	case 'h':
		if (p->help)
			p->help();
		else
			cdm_options_help_formats(p->usage);
		return CDM_EXIT_OK;
	}
	return parse_plan(p->cmd, key, arg, c);
}

/*
 * getopt_long() took long option @o (with its argument, if any, just
 * before argv[optind]) as typed: when it was an abbreviation ("--profil
 * peak", "--siz=1G"), which GNU getopt takes as GNU tools do, say which
 * option it was, so that what ran is never a guess
 */
static void say_abbreviation(char **argv, const struct option *o)
{
	const char *t = argv[optind - 1];
	size_t n;

	/*
	 * "--name ARG": the option is the word before its argument, which is
	 * the whole word getopt gave as optarg ("--comment --a=b" too); in
	 * "--name=ARG" optarg points inside the word
	 */
	if (o->has_arg != no_argument && optarg && optarg == t && optind >= 2)
		t = argv[optind - 2];
	if (t[0] != '-' || t[1] != '-')
		return;
	n = strcspn(t + 2, "=");
	if (n < strlen(o->name))
		cdm_msg_note("--%.*s is taken as --%s", (int)n, t + 2, o->name);
}

int cdm_options_parse(const struct cdm_options_parser *p, int argc, char **argv,
		      struct cdm_options_common *c)
{
	struct option lo[NOPTS + 1];
	char so[2 * NOPTS + 1];
	int key, s, li;

	build(p->cmds, lo, so);
	optind = 1;
	while ((li = -1, key = getopt_long(argc, argv, so, lo, &li)) != -1) {
		if (key == '?' || key == ':')
			return cdm_cli_try(p->cmd);     /* getopt has said what is wrong */
		if (li >= 0)
			say_abbreviation(argv, &lo[li]);
		s = parse_shared(p, key, optarg, c);
		if (s == CDM_CLI_GO_ON && p->handle)
			s = p->handle(p, key, optarg);
		if (s != CDM_CLI_GO_ON)
			return s;
	}
	return CDM_CLI_GO_ON;
}

void cdm_options_help_formats(const char *usage)
{
	char names[256];

	printf(usage, cdm_report_names(names, sizeof(names)));
}

int cdm_options_registry_format(const struct cdm_options_parser *p, int key, char *arg)
{
	if (key == 'f')
		return cdm_cli_format(p->cmd, arg, p->ctx);
	return CDM_CLI_GO_ON;
}

int cdm_options_takes_next(unsigned int cmds, const char *arg)
{
	const struct cdm_options_opt *t, *found = NULL;
	unsigned int matches = 0;
	size_t n;

	if (!strncmp(arg, "--", 2)) {
		/* as getopt_long() reads it: the whole name, or a prefix of one only */
		if (strchr(arg, '='))
			return 0;
		n = strlen(arg + 2);
		for (t = cdm_options_table; t->name; t++) {
			if (!(t->cmds & cmds) || strncmp(arg + 2, t->name, n))
				continue;
			if (!t->name[n])
				return t->has_arg == required_argument;
			found = t;
			matches++;
		}
		/* an ambiguous one is getopt's error */
		return matches == 1 && found->has_arg == required_argument;
	}
	/* "-qt SPEC": the last letter of a cluster, with nothing after it */
	for (const char *l = arg + 1; *l; l++)
		for (t = cdm_options_table; t->name; t++)
			if ((t->cmds & cmds) && t->key == *l && t->has_arg == required_argument)
				return l[1] == '\0';
	return 0;
}

int cdm_options_list(FILE *f, const char *cmd)
{
	static const struct cdm_cli_cmd run = { "cdm --help" };
	const struct cdm_options_opt *t;
	unsigned int cmds = 0;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd ? cmd : "", commands[i].name))
			cmds = commands[i].cmds;
	if (cmds == RUN && cdm_mpi_hook_get())
		cmds |= MPI;    /* --save-ranks */
	if (!cmds)
		return cdm_cli_usage(&run, "bad value for --list-options: '%s' (sweep, compare, import, merge, report, or none: cdm's)",
				     cmd);
	for (t = cdm_options_table; t->name; t++)
		if (t->cmds & cmds)
			fprintf(f, "--%s\t%s%c\t%s\t%s\n", t->name, t->key < 256 ? "-" : "",
				t->key < 256 ? t->key : '-', t->arg ? t->arg : "-", t->help);
	return CDM_EXIT_OK;
}
