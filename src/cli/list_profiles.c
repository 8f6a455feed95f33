/* SPDX-License-Identifier: MIT */
/*
 * list_profiles.c - `cdm --list-profiles` (cli/list_profiles.h): the
 * built-in profiles, each with the settings and tests a run with no option
 * takes from it.  The defaults for a setting a profile leaves unset are
 * plan/profile.h's, the ones cli/run_setup.c's layer_profile() applies.
 */
#include <stdio.h>
#include <string.h>

#include "cdm/base/err.h"
#include "cdm/base/msec.h"
#include "cdm/base/msg.h"
#include "cdm/base/size.h"
#include "cdm/cli/exit.h"
#include "cdm/cli/list_profiles.h"
#include "cdm/plan/profile.h"

/* the phases one test runs in, under the profile's mode and mix */
static void phases(const struct cdm_profile *p, const struct cdm_spec *sp,
		   char *buf, size_t len)
{
	const char *mode = p->mode[0] ? p->mode : CDM_PROFILE_MODE_DEFAULT;
	int all = !strcmp(mode, "all");
	unsigned int mix = cdm_profile_mix(p, mode);
	size_t n = 0;

	buf[0] = '\0';
	if (sp->write_pct) {
		/* a W test runs once, in the Mix phase, at its own share */
		if (all || !strcmp(mode, "mix"))
			snprintf(buf, len, "mix R%u/W%u", 100 - sp->write_pct, sp->write_pct);
		else
			snprintf(buf, len, "not run (--mode %s skips W tests)", mode);
		return;
	}
	if (all || !strcmp(mode, "read"))
		n += (size_t)snprintf(buf + n, len - n, "read");
	if ((all || !strcmp(mode, "write")) && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%swrite", n ? ", " : "");
	if ((all || !strcmp(mode, "mix")) && mix && n < len)
		snprintf(buf + n, len - n, "%smix R%u/W%u", n ? ", " : "", mix, 100 - mix);
}

/*
 * The Mix ratios the run takes, as its Test lines say them: the profile's
 * mix over its plain tests, and each W test's own share ("R80/W20"), each
 * ratio once; "none" when no test runs in the Mix phase.
 */
static void mixes(const struct cdm_profile *p, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < p->ntests && n < len; i++) {
		char one[96], ratio[24];
		const char *m;

		/* what phases() says of the test: its "mix R../W.." part */
		phases(p, &p->tests[i], one, sizeof(one));
		m = strstr(one, "mix R");
		if (!m)
			continue;
		snprintf(ratio, sizeof(ratio), "%s", m + 4);
		if (!strstr(buf, ratio))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", ratio);
	}
	if (!n)
		snprintf(buf, len, "none");
}

static void print_one(FILE *out, const char *name, const char *about,
		      const struct cdm_profile *p)
{
	unsigned int time = p->time_ms >= 0 ? (unsigned int)p->time_ms : CDM_PROFILE_TIME_DEFAULT_MS;
	char size[32], spec[64], runs[96], t[CDM_MSEC_FORMAT_MAX];

	fprintf(out, "%s: %s\n", name, about);
	fprintf(out, "  %-11s %s\n", "Profile:", p->name[0] ? p->name : "Custom");
	fprintf(out, "  %-11s %s\n", "Size:",
		cdm_size_format(p->size ? p->size : CDM_PROFILE_SIZE_DEFAULT, size, sizeof(size)));
	fprintf(out, "  %-11s %u\n", "Count:", p->count ? p->count : CDM_PROFILE_COUNT_DEFAULT);
	fprintf(out, "  %-11s %s s\n", "Time:", cdm_msec_format(time, t, sizeof(t)));
	fprintf(out, "  %-11s %s s\n", "Warm-up:",
		cdm_msec_format(cdm_profile_warmup(p, time), t, sizeof(t)));
	fprintf(out, "  %-11s %s s\n", "Interval:",
		cdm_msec_format(p->interval_ms >= 0 ? (unsigned int)p->interval_ms :
				CDM_PROFILE_INTERVAL_DEFAULT_MS, t, sizeof(t)));
	mixes(p, runs, sizeof(runs));
	fprintf(out, "  %-11s %s\n", "Mix:", runs);
	fprintf(out, "  %-11s %s\n", "Mode:", p->mode[0] ? p->mode : CDM_PROFILE_MODE_DEFAULT);
	for (unsigned int i = 0; i < p->ntests; i++) {
		phases(p, &p->tests[i], runs, sizeof(runs));
		fprintf(out, "  %-11s %-16s %s\n", "Test:",
			cdm_spec_name(&p->tests[i], spec, sizeof(spec)), runs);
	}
}

int cdm_list_profiles_print(FILE *out)
{
	const char *const *names = cdm_profile_builtin_names();
	int status = CDM_EXIT_OK;

	for (size_t i = 0; names[i]; i++) {
		struct cdm_profile p;
		struct cdm_err err = { "" };
		char about[128];

		if (cdm_profile_load(names[i], &p, &err) < 0) {
			/* only a broken build gets here: say which file */
			cdm_msg_error("built-in profile %s: %s", names[i], err.msg);
			status = CDM_EXIT_RUN;
			continue;
		}
		if (i)
			fputc('\n', out);
		print_one(out, names[i],
			  cdm_profile_builtin_about(names[i], about, sizeof(about)) ?
			  about : "(no description)", &p);
	}
	if (fflush(out) || ferror(out))
		status = CDM_EXIT_RUN;
	return status;
}

int cdm_list_profiles_print_one(FILE *out, const char *name_or_path)
{
	struct cdm_profile p;
	struct cdm_err err = { "" };
	char about[128];

	if (cdm_profile_load(name_or_path, &p, &err) < 0) {
		/* as a run with that -p says it */
		cdm_msg_usage("%s", err.msg);
		return CDM_EXIT_USAGE;
	}
	print_one(out, name_or_path,
		  cdm_profile_builtin_about(name_or_path, about, sizeof(about)) ? about :
		  strchr(name_or_path, '/') || !cdm_profile_builtin(name_or_path) ?
		  "a profile file" : "(no description)", &p);
	if (fflush(out) || ferror(out))
		return CDM_EXIT_RUN;
	return CDM_EXIT_OK;
}
