/* SPDX-License-Identifier: MIT */
/*
 * sweep_cli.c - `cdm sweep`: runs each --test at every thread count of
 * --threads and/or queue depth of --qd (SQLIO / ORION style thread sweeps)
 * and shows one result per point: a table in text or Markdown, the knee of
 * each curve, JSON with --save, an SVG chart with --plot.  Here: parse the
 * options, plan the points, run them, hand the result to the renderers of
 * report/sweep_table.c.
 *
 * All points are the tests of ONE cdm_runner_run: the test file is prepared once,
 * then every read point, then every write point, each with its warm-up and
 * passes, exactly as the tests of a profile run (docs/method.md, "Sweeps").
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cdm/base/size.h"
#include "cdm/cli/cli.h"
#include "cdm/cli/options.h"
#include "cdm/cli/sweep_cli.h"
#include "cdm/engine/engine.h"
#include "cdm/target/outfile.h"
#include "cdm/plan/profile.h"
#include "cdm/format/findings.h"
#include "cdm/format/sweep_json.h"
#include "cdm/report/sweep_table.h"
#include "cdm/run/runner.h"
#include "cdm/base/msg.h"

static const struct cdm_cli_cmd cmd = { "cdm sweep --help" };

/*
 * struct sweep_opts - the command line as parsed, and the run planned from
 * it.  Options that map straight onto the run's configuration are set in
 * @cfg while parsing.
 */
struct sweep_opts {
	struct cdm_run_config cfg;
	struct cdm_options_common c;    /* the shared options; c.tests: --test */
	unsigned int tv[CDM_SWEEP_MAX_VALUES], nt;      /* --threads; 0 = the spec's */
	unsigned int qv[CDM_SWEEP_MAX_VALUES], nq;      /* --qd; 0 = the spec's */
	int vary;                       /* CDM_SWEEP_* bits */
	int plot_mb_s;                  /* --metric mb_s */
	const char *format;             /* --format: a table row of sweep_table.c's */
};

static const char sweep_usage[] =
"Usage: cdm sweep [OPTIONS] --test SPEC [--test SPEC ...] [TARGET]\n"
"Run each test at every thread count of --threads and/or queue depth of --qd\n"
"on one test file in directory TARGET (default \".\"); print one row per point\n"
"(MB/s, IOPS, mean and p99 latency) and the knee: the first point after which\n"
"more load raises IOPS by less than 10 % while latency keeps rising.\n"
"\n"
"      --threads LIST       thread counts, such as 1,2,4,8,16,32,64 (increasing,\n"
"                           1-256)\n"
"      --qd LIST            queue depths per thread, such as 1,2,4,8,16,32\n"
"                           (increasing, 1-1024); with --threads: every pair\n"
"  -t, --test SPEC          a test such as \"RND8K\" or \"SEQ64K Q4\"; repeatable;\n"
"                           its Q or T is replaced by the swept values\n"
"                           (default: RND4K)\n"
"  -s, --size SIZE          test file size (default: 1GiB)\n"
"  -n, --count N            measured passes per point, 1-100 (default: 1)\n"
"  -T, --time SEC           seconds per pass, 0.1-3600: 2, 0.5, 1.5s, 500ms\n"
"                           (default: 5)\n"
"      --warmup SEC         warm-up per point, 0 = none, or 0.1-3600\n"
"                           (default: 1)\n"
"      --interval SEC       pause between points, 0-3600 (default: 0)\n"
"      --mode MODE          all (read, then write), read, write (default: all)\n"
"  -e, --engine NAME        auto, io_uring, libaio, sync, null (default: auto)\n"
"      --null-service-us N[,M@S]\n"
"                           null engine: service time per I/O, as for cdm\n"
"                           (default: 0)\n"
"      --null-device SPEC   null engine: a simulated device, as for cdm\n"
"                           (default: none)\n"
"      --buffered           go through the page cache, no O_DIRECT\n"
"  -f, --format FMT         cdm (text table), markdown (default: cdm)\n"
"      --save FILE.json     save the points as JSON (default: none)\n"
"      --plot FILE.svg      draw IOPS (or --metric mb_s) and latency against the\n"
"                           swept value as an SVG chart (default: none)\n"
"      --metric METRIC      what the chart's first panel shows: iops, mb_s\n"
"                           (default: iops)\n"
"  -q, --quiet              no progress display\n"
"  -h, --help               this help\n"
"\n"
"Exit status: 0 success, 1 the run failed, 2 usage error, 128+N interrupted\n"
"by signal N.  See cdm(1).\n";

int cdm_cli_sweep_parse_list(const char *s, unsigned int max, unsigned int *vals, unsigned int *n)
{
	unsigned int k = 0;

	*n = 0;
	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		unsigned long v = 0;
		const char *p = s;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (unsigned long)(*p - '0');
			if (v > 1000000)
				return -ERANGE;
			p++;
		}
		if (*p && *p != ',')
			return -EINVAL;
		if (v < 1 || v > max)
			return -ERANGE;
		if (k == CDM_SWEEP_MAX_VALUES || (k && v <= vals[k - 1]))
			return -EINVAL;
		vals[k++] = (unsigned int)v;
		if (!*p)
			break;
		s = p + 1;
	}
	*n = k;
	return 0;
}


static void print_help(void)
{
	fputs(sweep_usage, stdout);
}

/* the sweep's own options (cdm_options_parse() has done the shared ones) */
static int handle_option(const struct cdm_options_parser *p, int key, char *arg)
{
	struct sweep_opts *o = p->ctx;

	switch (key) {
	case CDM_OPT_THREADS:
		if (cdm_cli_sweep_parse_list(arg, CDM_THREADS_MAX, o->tv, &o->nt) < 0)
			return cdm_cli_usage(&cmd, "bad value for --threads: '%s' (increasing whole numbers 1-%u, comma-separated, at most %d)",
					     arg, CDM_THREADS_MAX, CDM_SWEEP_MAX_VALUES);
		o->vary |= CDM_SWEEP_THREADS;
		break;
	case CDM_OPT_QD:
		if (cdm_cli_sweep_parse_list(arg, CDM_QD_MAX, o->qv, &o->nq) < 0)
			return cdm_cli_usage(&cmd, "bad value for --qd: '%s' (increasing whole numbers 1-%u, comma-separated, at most %d)",
					     arg, CDM_QD_MAX, CDM_SWEEP_MAX_VALUES);
		o->vary |= CDM_SWEEP_QD;
		break;
	case 't':
		if (o->c.tests[o->c.ntests - 1].write_pct)
			return cdm_cli_usage(&cmd, "--test '%s': a sweep runs read and write tests; a test with W<pct> (a Mix) cannot be swept",
					     arg);
		break;
	case CDM_OPT_MODE:
		if (strcmp(arg, "all") && strcmp(arg, "read") && strcmp(arg, "write"))
			return cdm_cli_usage(&cmd, "bad value for --mode: '%s' (all, read, write)", arg);
		break;
	case 'f':
		if (cdm_sweep_table_format(arg) != CDM_SWEEP_FORMAT_TABLE) {
			char names[64];

			return cdm_cli_usage(&cmd, "bad value for --format: '%s' (%s)", arg,
					     cdm_sweep_table_names(names, sizeof(names),
								   CDM_SWEEP_FORMAT_TABLE, ", "));
		}
		o->format = arg;
		break;
	case CDM_OPT_METRIC:
		if (strcmp(arg, "mb_s") && strcmp(arg, "iops"))
			return cdm_cli_usage(&cmd, "bad value for --metric: '%s' (iops, mb_s)", arg);
		o->plot_mb_s = !strcmp(arg, "mb_s");
		break;
	}
	return CDM_CLI_GO_ON;
}

/* step 1: the command line into @o */
static int parse_args(int argc, char **argv, struct sweep_opts *o)
{
	struct cdm_options_parser p = { CDM_OPTIONS_SWEEP, &cmd, print_help, NULL, handle_option, o };
	int s = cdm_options_parse(&p, argc, argv, &o->c);

	if (s != CDM_CLI_GO_ON)
		return s;
	if (!o->vary)
		return cdm_cli_usage(&cmd, "nothing to sweep: give --threads LIST and/or --qd LIST");
	if (argc - optind > 1)
		return cdm_cli_usage(&cmd, "one TARGET directory expected, got %d", argc - optind);
	if ((optind < argc && !argv[optind][0]) || (o->c.save && !o->c.save[0]) || (o->c.plot && !o->c.plot[0]))
		return cdm_cli_usage(&cmd, "an empty path was given");
	if (cdm_outfile_same(o->c.save, o->c.plot))
		return cdm_cli_usage(&cmd, "--save and --plot name the same file '%s'", o->c.save);
	o->cfg.target = optind < argc ? argv[optind] : ".";
	return CDM_CLI_GO_ON;
}

/*
 * step 2: the run's tests, every spec x depth x thread count (thread count
 * fastest, as cdm_sweep_build() reads them back), the size, the engine,
 * the output files checked.
 */
static int build_plan(struct sweep_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	int s;

	if (!o->c.ntests) {
		cdm_spec_parse("RND4K", &o->c.tests[0], NULL);
		o->c.ntests = 1;
	}
	if (!o->nt)
		o->tv[o->nt++] = 0;     /* each spec's own T */
	if (!o->nq)
		o->qv[o->nq++] = 0;     /* each spec's own Q */
	if (o->c.ntests * o->nq * o->nt > CDM_MAX_TESTS)
		return cdm_cli_usage(&cmd, "%u points (tests x depths x thread counts) is more than the %d of one run",
				     o->c.ntests * o->nq * o->nt, CDM_MAX_TESTS);
	for (unsigned int b = 0; b < o->c.ntests; b++)
		for (unsigned int q = 0; q < o->nq; q++)
			for (unsigned int t = 0; t < o->nt; t++) {
				struct cdm_spec *sp = &cfg->tests[cfg->ntests++];

				*sp = o->c.tests[b];
				if (o->qv[q])
					sp->qd = o->qv[q];
				if (o->tv[t])
					sp->threads = o->tv[t];
			}
	cfg->size = o->c.size;
	s = cdm_cli_round_size(&cmd, cfg);
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_engine(&cmd, o->c.engine, &cfg->engine);
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_null_check(&cmd, o->c.null_service, o->c.null_device, cfg);
	if (s != CDM_CLI_GO_ON)
		return s;
	/* every point would run at Q1 and the curve would say nothing */
	for (unsigned int i = 0; i < cfg->ntests && cdm_plan_engine_q1(cfg); i++)
		if (cfg->tests[i].qd > 1)
			return cdm_cli_usage(&cmd, "the %s engine keeps one I/O in flight per thread%s, so %s runs at Q1: sweep with --engine io_uring or libaio%s",
					     cfg->engine->name,
					     cfg->direct ? "" : " on a buffered file",
					     o->vary & CDM_SWEEP_QD ? "every --qd point" : "a Q>1 test",
					     cfg->direct ? "" : " without --buffered");
	s = cdm_cli_outfile(o->c.save, "--save", 1, "json");
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_outfile(o->c.plot, "--plot", 1, "svg");
	if (s != CDM_CLI_GO_ON)
		return s;
	cfg->profile_name = "Sweep";
	cfg->count = o->c.count ? (unsigned int)o->c.count : 1;
	cfg->time_ms = o->c.time_ms >= 0 ? (unsigned int)o->c.time_ms : 5000;
	cfg->warmup_ms = o->c.warmup_ms >= 0 ? (unsigned int)o->c.warmup_ms : 1000;
	cfg->interval_ms = o->c.interval_ms >= 0 ? (unsigned int)o->c.interval_ms : 0;
	cfg->do_read = strcmp(o->c.mode, "write") != 0;
	cfg->do_write = strcmp(o->c.mode, "read") != 0;
	return CDM_CLI_GO_ON;
}

/*
 * step 3: run the points into *@res (the caller frees it); *@r is what
 * cdm_runner_run() returned.  Returns CDM_CLI_GO_ON or the exit status.
 */
static int run(const struct sweep_opts *o, struct cdm_run_result **res, int *r)
{
	int e = cdm_cli_run_prepare(&o->cfg, res);

	if (e != CDM_CLI_GO_ON)
		return e;
	*r = cdm_cli_run(&o->cfg, *res);
	return CDM_CLI_GO_ON;
}

static int write_json(FILE *f, const void *sw)
{
	return cdm_sweep_json_write(f, sw);
}

static int write_svg(FILE *f, const void *sw)
{
	return cdm_sweep_table_svg(f, sw);
}

/* struct sweep_table - the table's arguments, as cdm_cli_output() takes them */
struct sweep_table {
	const struct cdm_sweep *sw;
	const char *format;             /* --format's row in sweep_table.c */
};

static int write_table(FILE *f, const void *arg)
{
	const struct sweep_table *t = arg;

	return cdm_sweep_table_write(f, t->sw, t->format);
}

/*
 * the table, the ceilings' notes, --save, --plot (atomically); 0 or
 * CDM_EXIT_RUN.  After a signal that came once the run ended (@r), no
 * further file is written: report() says so.
 */
static int write_outputs(const struct sweep_opts *o, const struct cdm_sweep *sw, int r)
{
	struct sweep_table t = { sw, o->format };
	int status;

	status = cdm_cli_output(NULL, "table", write_table, &t);
	cdm_findings_sweep_notes(sw);
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_file(o->c.save, "save the sweep", write_json, sw) != CDM_EXIT_OK)
		status = CDM_EXIT_RUN;
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_file(o->c.plot, "write the plot", write_svg, sw) != CDM_EXIT_OK)
		status = CDM_EXIT_RUN;
	return status;
}

/*
 * step 4: the points measured (after a stop, the later ones "not
 * measured"), and how the run ended.  Returns the exit status.
 */
static int report(const struct sweep_opts *o, const struct cdm_run_result *res, int r)
{
	static struct cdm_sweep sw;
	int status = CDM_EXIT_OK;

	if (r == 0 || r == -EINTR) {
		memset(&sw, 0, sizeof(sw));
		sw.vary = o->vary;
		sw.plot_mb_s = o->plot_mb_s;
		cdm_sweep_build(&sw, res, o->c.ntests, o->nq, o->nt);
		status = write_outputs(o, &sw, r);
		/* a point that measured nothing fails the sweep, as a run */
		if (cdm_cli_unmeasured(res, "the sweep") && status == CDM_EXIT_OK)
			status = CDM_EXIT_RUN;
	}
	if (r == -EINTR) {
		int sig = res->interrupted ? res->interrupted : SIGINT;

		cdm_msg_error("interrupted by %s: the table shows the points measured before it",
			  strsignal(sig));
		status = CDM_EXIT_SIGNAL(sig);
	} else if (r < 0) {
		status = CDM_EXIT_RUN;
	}
	/* a signal after the last point (SIGPIPE from the table): 128 + N */
	if (cdm_cli_late_signal(r)) {
		cdm_msg_error("interrupted by %s after the sweep ended; the test file was removed",
			      strsignal(cdm_cli_late_signal(r)));
		status = CDM_EXIT_SIGNAL(cdm_cli_late_signal(r));
	}
	return status;
}

int cdm_cli_sweep_main(int argc, char **argv)
{
	static struct sweep_opts o;
	struct cdm_run_result *res = NULL;
	int s, r = 0;

	memset(&o, 0, sizeof(o));
	cdm_options_init(&o.c, &o.cfg);
	o.c.engine = "auto";
	o.c.mode = "all";
	o.format = "cdm";
	o.c.size = CDM_GIB;
	o.cfg.direct = 1;
	o.cfg.progress = isatty(STDERR_FILENO);
	s = parse_args(argc, argv, &o);
	if (s == CDM_CLI_GO_ON)
		s = build_plan(&o);
	if (s == CDM_CLI_GO_ON)
		s = run(&o, &res, &r);
	if (s == CDM_CLI_GO_ON)
		s = report(&o, res, r);
	cdm_result_free(res);
	return s;
}
