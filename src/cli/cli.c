/* SPDX-License-Identifier: MIT */
/*
 * cli.c - the steps every cdm command takes the same way, so that cdm and
 * its subcommands say the same thing in the same words: usage errors,
 * --engine, --format, --aggregate, the test size in whole blocks, the
 * files read and written checked, the report written to --output or
 * stdout, --save and --svg, and the run with its error printed
 * (include/cdm/cli/cli.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/devspec.h"
#include "cdm/base/err.h"
#include "cdm/base/msg.h"
#include "cdm/base/size.h"
#include "cdm/base/uint.h"
#include "cdm/cli/cli.h"
#include "cdm/model/result.h"
#include "cdm/format/result_load.h"
#include "cdm/format/result_read.h"
#include "cdm/model/spec.h"
#include "cdm/format/fmt.h"
#include "cdm/report/report.h"
#include "cdm/run/runner.h"
#include "cdm/target/outfile.h"

const struct cdm_cli_cmd cdm_cli_run_cmd = { "cdm --help" };

static int vusage(const struct cdm_cli_cmd *cmd, const char *fmt, va_list ap)
{
	cdm_msg_vusage(fmt, ap);
	return cdm_cli_try(cmd);
}

int cdm_cli_usage(const struct cdm_cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vusage(cmd, fmt, ap);
	va_end(ap);
	return r;
}

int cdm_cli_try(const struct cdm_cli_cmd *cmd)
{
	fprintf(stderr, "Try '%s'.\n", cmd->help);
	return CDM_EXIT_USAGE;
}

int cdm_cli_engine(const struct cdm_cli_cmd *cmd, const char *name,
		   const struct cdm_engine_ops **ops)
{
	struct cdm_err err;
	int r = cdm_engine_resolve(name, ops, &err);

	if (r == -EINVAL)
		return cdm_cli_usage(cmd, "%s", err.msg);
	if (r < 0) {
		cdm_msg_error("%s", err.msg);
		return CDM_EXIT_RUN;
	}
	return CDM_CLI_GO_ON;
}

int cdm_cli_format(const struct cdm_cli_cmd *cmd, const char *arg,
		   const struct cdm_formatter **fmt)
{
	char names[256];

	*fmt = cdm_report_find(arg);
	if (*fmt)
		return CDM_CLI_GO_ON;
	return cdm_cli_usage(cmd, "bad value for --format: '%s' (%s)", arg,
			     cdm_report_names(names, sizeof(names)));
}

int cdm_cli_aggregate(const struct cdm_cli_cmd *cmd, const char *arg, enum cdm_aggregate *agg)
{
	if (cdm_result_aggregate_parse(arg, agg) < 0)
		return cdm_cli_usage(cmd, "bad value for --aggregate: '%s' (best, median, mean)", arg);
	return CDM_CLI_GO_ON;
}

int cdm_cli_null_service(const struct cdm_cli_cmd *cmd, const char *arg,
			 struct cdm_run_config *cfg)
{
	if (cdm_devspec_service(arg, &cfg->null_device) < 0)
		return cdm_cli_usage(cmd, "bad value for --null-service-us: '%s' (N or N,M@S: microseconds 0-10000000, then M from S seconds on, 0.001-%u)",
				     arg, CDM_TIME_MAX);
	return CDM_CLI_GO_ON;
}

int cdm_cli_null_device(const struct cdm_cli_cmd *cmd, const char *arg,
			struct cdm_run_config *cfg)
{
	struct cdm_err err = { "" };

	if (cdm_devspec_parse(arg, &cfg->null_device, &err) < 0)
		return cdm_cli_usage(cmd, "bad value for --null-device: %s", err.msg);
	return CDM_CLI_GO_ON;
}

int cdm_cli_null_check(const struct cdm_cli_cmd *cmd, const char *service, const char *device,
		       const struct cdm_run_config *cfg)
{
	const char *opt = device ? "--null-device" : "--null-service-us";

	if (service && device)
		return cdm_cli_usage(cmd, "--null-service-us '%s' and --null-device '%s' both set the null engine's device: give one (--null-service-us N is --null-device lat=Nus)",
				     service, device);
	if ((service || device) && cfg->engine && !(cfg->engine->flags & CDM_ENGINE_NO_IO))
		return cdm_cli_usage(cmd, "%s '%s' sets the null engine's %s: this run uses the %s engine (add --engine null, or drop it)",
				     opt, device ? device : service,
				     device ? "simulated device" : "service time", cfg->engine->name);
	return CDM_CLI_GO_ON;
}

int cdm_cli_round_size(const struct cdm_cli_cmd *cmd, struct cdm_run_config *cfg)
{
	uint64_t asked = cfg->size, block;
	struct cdm_err err;
	char a[32], b[32];
	int r = cdm_plan_round_size(cfg, &block, &err);

	if (r < 0)
		return cdm_cli_usage(cmd, "%s", err.msg);
	if (r > 0) {
		cdm_size_format(asked, a, sizeof(a));
		cdm_size_format(cfg->size, b, sizeof(b));
		cdm_msg_note("test size %s rounded down to %s, a whole number of %" PRIu64 "-byte blocks",
			 a, b, block);
	}
	return CDM_CLI_GO_ON;
}

int cdm_cli_outfile(const char *path, const char *opt, int replace, const char *format)
{
	const struct cdm_formatter *f = cdm_report_find(format);
	struct cdm_err err;

	if (!path)
		return CDM_CLI_GO_ON;
	/* "-o -" is stdout; a file of its own (--save, --svg, --plot) is a file */
	if (!strcmp(path, "-") && !strcmp(opt, "--output"))
		return CDM_CLI_GO_ON;
	if (!strcmp(path, "-")) {
		cdm_msg_usage("%s -: %s writes a file, renamed into place; give it a name%s", opt, opt,
			      !strcmp(opt, "--save") ? " (--format json prints the JSON on stdout)" :
			      !strcmp(opt, "--svg") ? " (--format svg prints the card on stdout)" : "");
		return CDM_EXIT_USAGE;
	}
	/* a usage error, but one line: the path and what to name it */
	if (cdm_outfile_check_format(path, opt, f ? f->ext : NULL, f ? f->title : NULL, &err) < 0) {
		cdm_msg_error("%s", err.msg);
		return CDM_EXIT_USAGE;
	}
	if (cdm_outfile_check(path, opt, replace, &err) == 0)
		return CDM_CLI_GO_ON;
	cdm_msg_error("%s", err.msg);
	return CDM_EXIT_RUN;
}

int cdm_cli_files(const struct cdm_cli_cmd *cmd, char *const *in, unsigned int nin,
		  const char *clash, const char *output, const char *format, const char *save)
{
	unsigned int stdin_used = 0;
	int s;

	for (unsigned int i = 0; i < nin; i++)
		if (!in[i][0])
			return cdm_cli_usage(cmd, "an empty path was given");
	if ((output && !output[0]) || (save && !save[0]))
		return cdm_cli_usage(cmd, "an empty path was given");
	/* "-": standard input, which can be read once */
	for (unsigned int i = 0; i < nin; i++)
		if (!strcmp(in[i], "-") && stdin_used++)
			return cdm_cli_usage(cmd, "- (standard input) given more than once: it can be read once");
	if (output && !strcmp(output, "-"))
		output = NULL;
	if (cdm_outfile_same(output, save))
		return cdm_cli_usage(cmd, "--output and --save name the same file '%s'", save);
	for (unsigned int i = 0; i < nin; i++)
		if (strcmp(in[i], "-") &&
		    (cdm_outfile_same(output, in[i]) || cdm_outfile_same(save, in[i])))
			return cdm_cli_usage(cmd, "%s %s", in[i], clash);
	s = cdm_cli_outfile(output, "--output", 0, format);
	if (s == CDM_CLI_GO_ON)
		s = cdm_cli_outfile(save, "--save", 1, "json");
	return s;
}

int cdm_cli_load_saved(const char *arg, unsigned int flags, struct cdm_run_result **r,
		       struct cdm_sweep **sweep)
{
	const char *name = strcmp(arg, "-") ? arg : "stdin";
	struct cdm_err err;
	int e;

	/* "-" is standard input, named "stdin" in messages and labels */
	e = cdm_result_load_saved(strcmp(arg, "-") ? arg : "/dev/stdin", name, flags, r, sweep, &err);
	if (e == -EPROTONOSUPPORT)
		cdm_msg_error("%s: %s: read it with a newer cdm", name, err.msg);
	else if (e < 0)
		cdm_msg_error("%s: %s", name, err.msg);
	else if (*r && (*r)->info.source.no_footer)
		/* its figures are read, the settings unknown: it may have been cut */
		cdm_msg_note("%s: no footer (Profile/Test/Date lines): the report may be cut short",
			     name);
	return e;
}

int cdm_cli_load(const char *arg, unsigned int flags, struct cdm_run_result **r)
{
	return cdm_cli_load_saved(arg, flags, r, NULL);
}

void cdm_cli_write_error(const char *path, const char *doing, int e)
{
	if (e == -EINTR)
		cdm_msg_error("%s: not written: a signal came while cdm was writing it", path);
	else
		cdm_msg_error("%s: cannot %s: %s", path, doing, strerror(-e));
}

int cdm_cli_output(const char *path, const char *what,
		   int (*write)(FILE *f, const void *arg), const void *arg)
{
	const char *name = path && strcmp(path, "-") ? path : "stdout";
	int e = cdm_outfile_emit(path, write, arg);

	if (!e)
		return CDM_EXIT_OK;
	if (e == -EINTR)
		cdm_cli_write_error(name, what, e);
	else
		cdm_msg_error("%s: writing the %s failed: %s", name, what, strerror(-e));
	return CDM_EXIT_RUN;
}

int cdm_cli_file(const char *path, const char *doing,
		 int (*write)(FILE *f, const void *arg), const void *arg)
{
	int e;

	if (!path)
		return CDM_EXIT_OK;
	e = cdm_outfile_write(path, write, arg);
	if (!e)
		return CDM_EXIT_OK;
	cdm_cli_write_error(path, doing, e);
	return CDM_EXIT_RUN;
}

/* a formatter of the registry and a run, as the writers of outfile.h take them */
struct fmt_run {
	const struct cdm_formatter *fmt;
	const struct cdm_run_result *r;
};

static int fmt_run_write(FILE *f, const void *arg)
{
	const struct fmt_run *a = arg;

	return a->fmt->write(f, a->r);
}

int cdm_cli_report(const char *path, const struct cdm_formatter *fmt,
		   const struct cdm_run_result *r)
{
	struct fmt_run a = { fmt, r };

	return cdm_cli_output(path, "report", fmt_run_write, &a);
}

void cdm_cli_image_link(const char *output, const char *svg, char *buf, size_t len)
{
	if (output && !strcmp(output, "-"))
		output = NULL;
	if (!output || cdm_outfile_relative(output, svg, buf, len) < 0)
		snprintf(buf, len, "%s", svg);
}

int cdm_cli_save(const char *path, const char *format, const struct cdm_run_result *r,
		 const char *doing)
{
	struct fmt_run a = { cdm_report_find(format), r };

	return cdm_cli_file(path, doing, fmt_run_write, &a);
}

int cdm_cli_run_prepare(const struct cdm_run_config *cfg, struct cdm_run_result **res)
{
	int e = cdm_runner_install_signals();

	*res = NULL;
	if (e < 0) {
		cdm_msg_error("cannot install signal handlers: %s", strerror(-e));
		return CDM_EXIT_RUN;
	}
	*res = cdm_result_alloc(cdm_plan_tests(cfg, NULL));
	if (!*res) {
		cdm_msg_error("out of memory");
		return CDM_EXIT_RUN;
	}
	return CDM_CLI_GO_ON;
}

int cdm_cli_run(const struct cdm_run_config *cfg, struct cdm_run_result *res)
{
	struct cdm_err err = { "" };
	int r = cdm_runner_run(cfg, res, &err);

	/* the target's path, the label made of it, what /sys said: one line each */
	cdm_result_info_one_line(&res->info);
	if (r < 0 && r != -EINTR && err.msg[0])
		cdm_msg_error("%s", err.msg);
	return r;
}

unsigned int cdm_cli_unmeasured(const struct cdm_run_result *res, const char *what)
{
	/* the summary's hint: the worst of what cdm saw (enum cdm_cause) */
	static const char *const hint[] = {
		[CDM_CAUSE_UNSEEN] = "a stalled device, or a pass too short for one I/O (--time)",
		[CDM_CAUSE_BUSY] = "the kernel refused to start I/O, as said above",
		[CDM_CAUSE_PAUSED] = "cdm itself did not run, as said above",
	};
	enum cdm_cause cause = CDM_CAUSE_PAUSED;
	unsigned int bad = 0;

	for (unsigned int i = 0; i < res->ntests; i++) {
		const struct cdm_test_result *t = &res->tests[i];
		char name[64], why[256];
		enum cdm_cause c;

		/* a test without a complete pass is an interrupted or failed one */
		if (!t->npasses)
			continue;
		cdm_result_why(t, why, sizeof(why));
		if (!why[0])
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		if (cdm_result_state(t) == CDM_PASS_MEASURED) {
			cdm_msg_warn("%s %s: %s", name, cdm_result_dir_name(t->dir), why);
			continue;
		}
		cdm_msg_error("%s %s measured nothing: %s", name, cdm_result_dir_name(t->dir), why);
		c = cdm_result_cause(t);
		if (c < cause)
			cause = c;
		bad++;
	}
	if (bad)
		cdm_msg_error("%s has %u test%s without figures: %s", what, bad, bad == 1 ? "" : "s",
			      hint[cause]);
	return bad;
}

unsigned int cdm_cli_verify_faults(const struct cdm_run_result *res)
{
	unsigned int bad = 0;

	for (unsigned int i = 0; i < res->ntests; i++) {
		const struct cdm_test_result *t = &res->tests[i];
		char name[64], found[CDM_FMT_VERIFY_MAX];

		if (cdm_result_verify_state(&t->verify) != CDM_VERIFY_STATE_FAULTS)
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		cdm_msg_error("--verify: %s %s: %s: this storage does not return what was written",
			      name, cdm_result_dir_name(t->dir),
			      cdm_fmt_verify_found(found, sizeof(found), &t->verify));
		bad++;
	}
	return bad;
}

int cdm_cli_late_signal(int r)
{
	return r != -EINTR ? cdm_runner_stop_requested() : 0;
}

int cdm_cli_write_no_more(int r)
{
	int sig = cdm_cli_late_signal(r);

	return sig && sig != SIGPIPE;
}
