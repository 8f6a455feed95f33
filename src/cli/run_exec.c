/* SPDX-License-Identifier: MIT */
/*
 * run_exec.c - the run command's steps 4 and 5
 * (include/cdm/cli/run_exec.h): the tests started on --start-at's
 * schedule or cdm-mpi's checkpoints, run; in cdm-mpi every rank's result
 * gathered on rank 0 (run/mpi.h's cdm_mpi_hook); then the notes, the
 * chart, the report, --svg and --save, and how the run ended.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cdm/target/outfile.h"
#include "cdm/model/merge.h"
#include "cdm/format/findings.h"
#include "cdm/format/fmt.h"
#include "cdm/report/plot.h"
#include "cdm/model/detect.h"
#include "cdm/cli/run_exec.h"
#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/run/mpi.h"


/* the hook that starts the tests together: --start-at's clock, or MPI's barrier */
static int set_schedule(struct cdm_cli_run_opts *o)
{
	const struct cdm_mpi_hook *mpi = cdm_mpi_hook_get();

	if (o->start_at && mpi)
		return cdm_cli_usage(&cdm_cli_run_cmd, "--start-at is for independent runs: cdm-mpi starts its ranks together by itself");
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
static int mpi_finish(const struct cdm_cli_run_opts *o, struct cdm_run_result **res, int *r)
{
	struct cdm_run_result *agg;
	struct cdm_err err;
	int sig = (*res)->interrupted ? (*res)->interrupted : SIGINT;

	*r = cdm_mpi_hook_get()->finish(*res, *r, o->common.label, &agg, &err);
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

int cdm_run_exec_run(struct cdm_cli_run_opts *o, struct cdm_run_result **res, int *r)
{
	int e;

	*res = NULL;
	e = set_schedule(o);
	if (e != CDM_CLI_GO_ON)
		return e;
	e = cdm_cli_run_prepare(&o->cfg, res);
	if (e != CDM_CLI_GO_ON)
		return e;
	(*res)->aggregate = o->common.aggregate;
	(*res)->cv_threshold_pct = o->cv_threshold;
	if (o->common.label)
		snprintf((*res)->info.label, sizeof((*res)->info.label), "%s", o->common.label);
	if (o->common.svg) {
		/* the Markdown beside its card: the path from --output's directory */
		cdm_cli_image_link(o->common.output, o->common.svg, o->svg_link, sizeof(o->svg_link));
		(*res)->image = o->svg_link;
	}
	*r = cdm_cli_run(&o->cfg, *res);
	if (cdm_mpi_hook_get())
		return mpi_finish(o, res, r);
	return CDM_CLI_GO_ON;
}

/*
 * did a test stop on an error (its error is in the result)?  1 for a
 * failed I/O, 2 for an engine the kernel kept busy (-EBUSY: no I/O
 * failed), else 0
 */
static int run_io_failed(const struct cdm_run_result *res)
{
	for (unsigned int i = 0; i < res->ntests; i++)
		if (res->tests[i].error)
			return res->tests[i].error == -EBUSY ? 2 : 1;
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
static int write_report(const struct cdm_cli_run_opts *o, struct cdm_run_result *res, int r)
{
	int status = CDM_EXIT_OK;

	/* a signal while --plot was written (cdm_run_exec_report() writes it first) */
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_save(o->common.svg, "svg", res, "write the card") != CDM_EXIT_OK) {
		status = CDM_EXIT_RUN;
		res->image = NULL;
	}
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_report(o->common.output, o->fmt, res) != CDM_EXIT_OK)
		status = CDM_EXIT_RUN;
	if (cdm_cli_write_no_more(r))
		return CDM_EXIT_RUN;
	if (cdm_cli_save(o->common.save, "json", res, "save the result") != CDM_EXIT_OK)
		status = CDM_EXIT_RUN;
	return status;
}

/* what became of the test file when the run ended early */
static const char *file_fate(const struct cdm_cli_run_opts *o, const struct cdm_run_result *res)
{
	return o->cfg.file ? "the test file given with --file was kept" :
	       res->info.is_device ? "the device was closed" : "the test file was removed";
}

int cdm_run_exec_report(const struct cdm_cli_run_opts *o, struct cdm_run_result *res, int r)
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
		cdm_detect_analyze(res);
		cdm_findings_run_notes(res);
		if (o->common.plot && write_plot(o->common.plot, res) < 0)
			status = CDM_EXIT_RUN;
	}
	io_failed = r < 0 && r != -EINTR ? run_io_failed(res) : 0;
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
			cdm_msg_error("the run stopped at the first %s: the report shows the tests measured before it; %s",
				  io_failed == 2 ? "engine that stayed busy" : "I/O error", file_fate(o, res));
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

void cdm_run_exec_free(struct cdm_run_result *res)
{
	if (cdm_mpi_hook_get())
		cdm_merge_free(res);    /* the aggregate */
	else
		cdm_result_free(res);
}
