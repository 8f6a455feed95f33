/* SPDX-License-Identifier: MIT */
/*
 * run_setup.c - the run command's steps 2 and 3
 * (include/cdm/cli/run_setup.h): the options layered over the profile,
 * what they rule out refused, the engine resolved, the files the report
 * goes to checked, all before anything touches the target.
 */
#include <inttypes.h>
#include <string.h>

#include "cdm/target/outfile.h"
#include "cdm/run/verify.h"
#include "cdm/model/series.h"
#include "cdm/cli/run_setup.h"
#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/run/mpi.h"


/*
 * --steady-state: the rounds replace the passes and the warm-up (the
 * rounds before the steady window are the warm-up, PTS), so --count and
 * a --warmup other than 0 given with it are refused, and the profile's
 * are not used;
 * the schedule's passes are the most rounds (cdm_plan_steady(), which
 * also refuses --max-rounds without it);
 * --start-at cannot plan tests of unknown length.
 */
static int layer_gate(struct cdm_cli_run_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	struct cdm_err err;

	if (cdm_plan_steady(cfg, &err) < 0)
		return cdm_cli_usage(&cdm_cli_run_cmd, "%s", err.msg);
	if (!cfg->steady_state)
		return CDM_CLI_GO_ON;
	if (o->common.count)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--count cannot be used with --steady-state: each test runs rounds until steady (--max-rounds sets the most)");
	/* --warmup 0 asks for what steady state does */
	if (o->common.warmup_ms > 0)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--warmup cannot be used with --steady-state: the rounds before the steady window are the warm-up (--warmup 0 may be given)");
	if (o->start_at)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--start-at cannot be used with --steady-state: a test's length depends on when it gets steady");
	if (cdm_mpi_hook_get())
		return cdm_cli_usage(&cdm_cli_run_cmd, "--steady-state is not supported by cdm-mpi: each rank would get steady at its own round");
	return CDM_CLI_GO_ON;
}

/*
 * --start-at's schedule gives each test warm-up + count x time and 1 s
 * (docs/scale-out.md): the fdatasync that ends each pass (--end-fsync)
 * and the read-back after a write test (--verify) are time it does not
 * know, so every later test would start late, on every host.
 */
static int check_start_at(const struct cdm_cli_run_opts *o)
{
	if (!o->start_at)
		return CDM_CLI_GO_ON;
	if (o->cfg.verify)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--start-at cannot be used with --verify: the read-back after each write test has no place in its schedule");
	if (o->cfg.end_fsync)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--start-at cannot be used with --end-fsync: the fdatasync that ends each pass has no place in its schedule");
	return CDM_CLI_GO_ON;
}


/* command-line options override the profile; the profile the defaults */
static void layer_profile(struct cdm_cli_run_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	const struct cdm_profile *prof = &o->prof;
	/* --mode wins over the profile's mode (orion-simple: read) */
	const char *mode = o->mode_given || !prof->mode[0] ? o->common.mode : prof->mode;

	cfg->profile_name = prof->name[0] ? prof->name : "Custom";
	/* -t replaced the profile's tests: the run is no longer that profile */
	if (o->common.ntests && o->common.ntests != prof->ntests)
		cfg->profile_name = "Custom";
	for (unsigned int i = 0; o->common.ntests && i < o->common.ntests && i < prof->ntests; i++)
		if (!cdm_spec_same(&o->common.tests[i], &prof->tests[i]))
			cfg->profile_name = "Custom";
	if (o->common.ntests) {
		memcpy(cfg->tests, o->common.tests, sizeof(o->common.tests[0]) * o->common.ntests);
		cfg->ntests = o->common.ntests;
	} else {
		memcpy(cfg->tests, prof->tests, sizeof(prof->tests[0]) * prof->ntests);
		cfg->ntests = prof->ntests;
	}
	cfg->size = o->common.size ? o->common.size : prof->size ? prof->size : CDM_PROFILE_SIZE_DEFAULT;
	cfg->count = o->common.count ? (unsigned int)o->common.count : prof->count ? prof->count :
		     CDM_PROFILE_COUNT_DEFAULT;
	cfg->time_ms = o->common.time_ms >= 0 ? (unsigned int)o->common.time_ms :
		       prof->time_ms >= 0 ? (unsigned int)prof->time_ms : CDM_PROFILE_TIME_DEFAULT_MS;
	cfg->interval_ms = o->common.interval_ms >= 0 ? (unsigned int)o->common.interval_ms :
			   prof->interval_ms >= 0 ? (unsigned int)prof->interval_ms :
			   CDM_PROFILE_INTERVAL_DEFAULT_MS;
	cfg->warmup_ms = o->common.warmup_ms >= 0 ? (unsigned int)o->common.warmup_ms :
			 cdm_profile_warmup(prof, cfg->time_ms);
	cfg->do_read = !strcmp(mode, "all") || !strcmp(mode, "read");
	cfg->do_write = !strcmp(mode, "all") || !strcmp(mode, "write");
	cfg->do_mix = !strcmp(mode, "all") || !strcmp(mode, "mix");
	/* CDM's default ratio, R70/W30, when only --mode mix asks for a Mix */
	cfg->mix_read_pct = o->mix ? o->mix : cdm_profile_mix(prof, mode);
}

/* the engine's own switches, and the time series' memory */
static int check_engine_and_series(struct cdm_cli_run_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	uint64_t need = 0;

	if ((cfg->engine_options & (CDM_ENGINE_OPT_SQPOLL | CDM_ENGINE_OPT_IOPOLL)) &&
	    strcmp(cfg->engine->name, "io_uring") != 0)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--sqpoll and --hipri need the io_uring engine, not %s",
				     cfg->engine->name);
	if ((cfg->engine_options & CDM_ENGINE_OPT_IOPOLL) && !cfg->direct)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--hipri (polled I/O) needs O_DIRECT: drop --buffered");
	if (o->common.plot && !cfg->log_interval_ns)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--plot draws the time series: give --log-interval too");
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
		return cdm_cli_usage(&cdm_cli_run_cmd, "--log-interval: %" PRIu64 " MiB of interval counters for one test, more than %llu MiB; use a longer interval or shorter passes",
				     need >> 20, CDM_SERIES_MEM_MAX >> 20);
	return CDM_CLI_GO_ON;
}

/*
 * --verify: refused with --data zero, or on a file too small to keep a
 * block free of writes in flight (cdm_verify_check_plan(); a --file's
 * size is checked by the run); a note when no test writes.
 */
static int check_verify(struct cdm_cli_run_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	struct cdm_err err;

	if (!cfg->verify)
		return CDM_CLI_GO_ON;
	/* a --file's size is known once it is open: the run checks it then */
	if ((cfg->zero_fill || !cfg->file) && cdm_verify_check_plan(cfg, cfg->size, &err) < 0)
		return cdm_cli_usage(&cdm_cli_run_cmd, "%s", err.msg);
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
static int check_idle_options(const struct cdm_cli_run_opts *o)
{
	const struct cdm_run_config *cfg = &o->cfg;

	if (cdm_cli_null_check(&cdm_cli_run_cmd, o->common.null_service, o->common.null_device, cfg) != CDM_CLI_GO_ON)
		return CDM_EXIT_USAGE;
	if (cfg->end_fsync && !cdm_plan_writes(cfg))
		cdm_msg_note("--end-fsync ends each write or Mix pass with fdatasync(): this run has none, so nothing is synced");
	return CDM_CLI_GO_ON;
}

int cdm_run_setup_config(struct cdm_cli_run_opts *o)
{
	struct cdm_run_config *cfg = &o->cfg;
	struct cdm_err err;
	int s;

	if (cdm_cli_format(&cdm_cli_run_cmd, o->common.format, &o->fmt) != CDM_CLI_GO_ON)
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
		return cdm_cli_usage(&cdm_cli_run_cmd, "%s%s leaves no test to run (a test with W<pct> runs only in --mode all or mix)",
				     o->mode_given || !o->prof.mode[0] ? "--mode " : "the profile's mode = ",
				     o->mode_given || !o->prof.mode[0] ? o->common.mode : o->prof.mode);
	/* a block device TARGET: read by default, its size, its sectors */
	if (cdm_plan_device(cfg, o->mode_given, o->common.size != 0, &err) < 0) {
		cdm_msg_error("%s", err.msg);
		return CDM_EXIT_USAGE;
	}
	s = cdm_cli_round_size(&cdm_cli_run_cmd, cfg);
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_engine(&cdm_cli_run_cmd, o->common.engine, &cfg->engine);
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
static int check_svg(const struct cdm_cli_run_opts *o)
{
	const char *svg = o->common.svg;

	if (cdm_outfile_same(svg, o->common.save) || cdm_outfile_same(svg, o->common.output) ||
	    cdm_outfile_same(svg, o->common.plot) || cdm_outfile_same(svg, o->cfg.file))
		return cdm_cli_usage(&cdm_cli_run_cmd, "--svg '%s' names the same file as --output, --save, --plot or --file", svg);
	return cdm_cli_outfile(svg, "--svg", 1, "svg");
}

int cdm_run_setup_outputs(const struct cdm_cli_run_opts *o)
{
	const char *plot = o->common.plot, *save = o->common.save, *output = o->common.output, *file = o->cfg.file;
	int s;

	if (cdm_outfile_same(plot, save) || cdm_outfile_same(plot, output) || cdm_outfile_same(plot, file))
		return cdm_cli_usage(&cdm_cli_run_cmd, "--plot '%s' names the same file as --output, --save or --file", plot);
	s = cdm_cli_outfile(plot, "--plot", 1, "svg");
	if (s != CDM_CLI_GO_ON)
		return s;
	s = check_svg(o);
	if (s != CDM_CLI_GO_ON)
		return s;
	if (cdm_outfile_same(output, save))
		return cdm_cli_usage(&cdm_cli_run_cmd, "--output and --save name the same file '%s'", save);
	if (cdm_outfile_same(output, file) || cdm_outfile_same(save, file))
		return cdm_cli_usage(&cdm_cli_run_cmd, "'%s' is the test file: --output and --save need another file", file);
	s = cdm_cli_outfile(output, "--output", 0, o->fmt->name);
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_outfile(save, "--save", 1, "json");
	return s;
}
