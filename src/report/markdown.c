/* SPDX-License-Identifier: MIT */
/*
 * markdown.c - --format markdown: a GitHub-flavoured Markdown table ready
 * to paste into a blog post or an issue: with --svg the card's image line
 * under the title; a line saying what was measured and where, one naming
 * the machine (CPU, RAM, OS) and one saying how it was measured (engine,
 * O_DIRECT, data, size, warm-up, passes, aggregate), so that a post states
 * its method; then per test and direction the MB/s, the IOPS
 * (measured, as in every output), the mean latency, the p99
 * latency of the merged histogram, and the spread of the passes (the
 * coefficient of variation of their MB/s, "±3.1 %"), with a marker on
 * tests whose spread is above the --cv-threshold.  A test that measured
 * nothing has dashes for figures and says so, and a line under the table
 * says why.  Text from the user or
 * the system (label, paths, comment) is escaped so that it cannot break
 * the table or start a link.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/size.h"
#include "cdm/base/version.h"
#include "cdm/model/spec.h"
#include "cdm/model/result.h"
#include "cdm/model/settings.h"
#include "cdm/format/formatter.h"
#include "cdm/format/fmt.h"
#include "cdm/format/layout.h"

#define UNSTABLE_MARK "\xe2\x9a\xa0"    /* U+26A0 WARNING SIGN */

/*
 * does every test of report @r that has figures print its latency (@lat
 * 1) or its IOPS (@lat 0)?  CDM 6 prints no latency, and no IOPS on its
 * sequential rows: what the notes say of its figures follows the report.
 */
static int reported_has(const struct cdm_run_result *r, int lat)
{
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_reported *p = &r->tests[i].reported;

		if (p->has && !isfinite(lat ? p->lat_us : p->iops))
			return 0;
	}
	return 1;
}

/*
 * "How measured:" of a run imported from a CrystalDiskMark report: the
 * figures are CDM's, as its report printed them; the settings it states
 * (profile, size, passes, Measure, Interval, test data) and, by name, those it
 * does not (cdm_result_known()), never a 0 or an empty engine.
 */
static void write_source_method(FILE *out, const struct cdm_run_info *in, int lat)
{
	static const struct {
		enum cdm_info_item item;
		const char *name, *fmt, *unit;
	} set[] = {
		{ CDM_INFO_PROFILE, "profile", "profile %s", "" },
		{ CDM_INFO_SIZE, "test size", "a %s test file", "" },
		{ CDM_INFO_COUNT, "passes", "%s passes per test", "" },
		{ CDM_INFO_TIME, "Measure time", "Measure %s", " s" },
		{ CDM_INFO_INTERVAL, "Interval", "Interval %s", " s" },
		{ CDM_INFO_WARMUP, "warm-up", "warm-up %s", " s" },
		{ CDM_INFO_ENGINE, "engine", "engine %s", "" },
	};
	char src[128], v[CDM_FMT_SETTING_MAX], text[CDM_FMT_SETTING_MAX + 32];
	unsigned int i, n = 0, stated;
	const char *lead;

	fprintf(out, "How measured: by %s, not by cdm: the figures are its report's, as printed",
		cdm_fmt_source(src, sizeof(src), in));
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		if (!cdm_result_known(in, set[i].item))
			continue;
		cdm_fmt_setting(v, sizeof(v), in, set[i].item, set[i].unit);
		snprintf(text, sizeof(text), set[i].fmt, v);
		if (set[i].item == CDM_INFO_COUNT && in->count == 1)
			snprintf(text, sizeof(text), "1 pass per test");
		fputs(n++ ? ", " : "; it states ", out);
		cdm_fmt_md_text(out, text, sizeof(text));
	}
	if (cdm_result_known(in, CDM_INFO_DATA)) {
		fputs(n++ ? ", " : "; it states ", out);
		fputs(in->zero_fill ? "zero data (0Fill)" : "random data", out);
	}
	/* what it does not state, when any; "none of its settings" when it states none */
	stated = n;
	lead = stated ? "; not stated: " : "; it states none of its settings (";
	for (i = n = 0; i < sizeof(set) / sizeof(set[0]); i++)
		if (!cdm_result_known(in, set[i].item))
			fprintf(out, "%s%s", n++ ? ", " : lead, set[i].name);
	if (!cdm_result_known(in, CDM_INFO_DATA))
		fprintf(out, "%s%s", n++ ? ", " : lead, "test data");
	if (!stated)
		fputc(')', out);
	fprintf(out, "; figures: the best of its passes (MB/s the highest%s, as CrystalDiskMark prints them).\n\n",
		lat ? ", latency the lowest" : "; it prints no latency");
}

/*
 * The lines under the title for a run imported from a CrystalDiskMark
 * report: which CDM, its volume, its Date as printed (zone unknown); the
 * machine as far as the report states it (its OS line: never the CPU,
 * memory or device); how it was measured (write_source_method(); @lat:
 * the report prints latency).
 */
static void write_source_intro(FILE *out, const struct cdm_run_info *in, int lat)
{
	const struct cdm_run_source *src = &in->source;
	char buf[128];

	cdm_fmt_md_text(out, cdm_fmt_source(buf, sizeof(buf), in), sizeof(buf));
	fputs(" report, imported", out);
	if (cdm_result_known(in, CDM_INFO_VOLUME)) {
		fputs("; ", out);
		cdm_fmt_md_text(out, src->volume, sizeof(src->volume));
	}
	if (cdm_fmt_start(buf, sizeof(buf), in)[0]) {
		fputs("; ", out);
		cdm_fmt_md_text(out, buf, sizeof(buf));
	}
	fputs("\n\nMachine: ", out);
	if (cdm_result_known(in, CDM_INFO_OS)) {
		cdm_fmt_md_text(out, in->os, cdm_fmt_trimmed(in->os, sizeof(in->os)));
		fputs(" [", out);
		cdm_fmt_md_text(out, in->kernel, sizeof(in->kernel));
		fputs("] (", out);
		cdm_fmt_md_text(out, in->machine, sizeof(in->machine));
		fputs("); the report does not state the CPU, memory or device\n\n", out);
	} else {
		fputs("not stated in the report\n\n", out);
	}
	write_source_method(out, in, lat);
}

static const char *agg_words(enum cdm_aggregate agg)
{
	switch (agg) {
	case CDM_AGG_MEDIAN:
		return "median";
	case CDM_AGG_MEAN:
		return "mean";
	case CDM_AGG_BEST:
	default:
		return "best";
	}
}

/*
 * The image line of --svg: "![cdm: LABEL](card.svg)", the path as the CLI
 * gave it (relative to the Markdown file when it knows where that is),
 * its blanks and control bytes (a newline too), parentheses, '#' and '?'
 * (which a browser reads as a fragment and a query) and bytes outside
 * ASCII percent-encoded so that any path is one link destination
 * (CommonMark) to that very file.
 */
static void write_image(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	const unsigned char *p = (const unsigned char *)r->image;

	fputs("![cdm result: ", out);
	cdm_fmt_md_text(out, in->label[0] ? in->label : in->target, sizeof(in->label));
	fputs("](", out);
	for (; *p; p++) {
		if (*p > 0x20 && *p < 0x7f && !strchr("()<>\\%#?", *p))
			fputc(*p, out);
		else
			fprintf(out, "%%%02X", *p);
	}
	fputs(")\n\n", out);
}

/* "Machine: CPU (2 CPUs online), 15.6 GiB RAM; OS [kernel] (machine)" */
static void write_machine(FILE *out, const struct cdm_run_info *in)
{
	char mem[32];

	fputs("Machine: ", out);
	cdm_fmt_md_text(out, in->cpu_model[0] ? in->cpu_model : "CPU unknown", sizeof(in->cpu_model));
	if (in->cpus_online)
		fprintf(out, " (%u CPU%s online", in->cpus_online, in->cpus_online == 1 ? "" : "s");
	if (in->cpus_online && in->cpus_allowed && in->cpus_allowed != in->cpus_online)
		fprintf(out, ", %u allowed", in->cpus_allowed);
	fputs(in->cpus_online ? "), " : ", ", out);
	if (in->mem_total_bytes)
		fprintf(out, "%s RAM; ", cdm_fmt_bytes_approx(mem, sizeof(mem), in->mem_total_bytes));
	else
		fputs("RAM unknown; ", out);
	/* no os-release (a chroot, a FROM scratch container): unknown */
	cdm_fmt_md_text(out, in->os[0] ? in->os : "unknown", sizeof(in->os));
	fputs(" [", out);
	cdm_fmt_md_text(out, in->kernel, sizeof(in->kernel));
	fputs("] (", out);
	cdm_fmt_md_text(out, in->machine, sizeof(in->machine));
	fputs(")\n\n", out);
}

/*
 * "How measured:"'s words of each setting that is set, in the table's
 * order (model/settings.h, @md): --sync, --fsync, --rate-iops, the null
 * device, --end-fsync, the preconditioning and its time, --verify, --cpus
 */
static void write_setting_words(FILE *out, const struct cdm_run_info *in)
{
	unsigned int n;
	const struct cdm_setting *set = cdm_settings(&n);

	for (unsigned int i = 0; i < n; i++) {
		const struct cdm_setting *s = &set[i];
		char v[CDM_SETTINGS_TEXT_MAX], how[CDM_FMT_PRECOND_MAX];

		if (!s->md.pre || !cdm_settings_info_on(s, in))
			continue;
		if (s->type == CDM_SETTING_PRECOND && !in->precondition_ns) {
			fputs("; preconditioning did not complete", out);
		} else if (s->type == CDM_SETTING_PRECOND) {
			fprintf(out, "%s%s, %.1f s)", s->md.pre, cdm_fmt_precondition(how, sizeof(how)),
				(double)in->precondition_ns / 1e9);
		} else {
			/* a device's text has letters, digits and =.,; only (base/devspec.h) */
			fputs(s->md.pre, out);
			if (s->md.post)
				cdm_fmt_md_text(out, cdm_settings_info_text(s, in, v, sizeof(v)), sizeof(v));
			fputs(s->md.post ? s->md.post : "", out);
		}
	}
}

/*
 * "How measured: ..." - the method in one line, always, so that a post
 * quoting the table states it: engine, O_DIRECT or the page cache, the
 * data, the test file, warm-up, passes, interval, durability options and
 * which figure of the passes is shown.
 */
/*
 * "How measured:"'s words for the rest of the method of numbers that
 * hold (docs/method.md): the CPUs allowed and the device's NUMA node
 */
static void write_hold_method(FILE *out, const struct cdm_run_info *in)
{
	if (in->cpus_allowed_list[0]) {
		fputs("; CPUs allowed ", out);
		cdm_fmt_md_text(out, in->cpus_allowed_list, sizeof(in->cpus_allowed_list));
	}
	if (in->dev_numa_node >= 0)
		fprintf(out, "; device on NUMA node %d", in->dev_numa_node);
}

static void write_method(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	char size[32], t[CDM_FMT_SETTING_MAX], tf[CDM_FMT_TEST_FILE_MAX];

	cdm_size_format(in->size, size, sizeof(size));
	fprintf(out, "How measured: %.*s engine, %s, %s data; a %s test file",
		(int)sizeof(in->engine), in->engine,
		in->direct ? "O\\_DIRECT (no page cache)" : "buffered (through the page cache)",
		in->zero_fill ? "zero" : "random", size);
	/* one kept or reused: which, and the data it holds */
	if (cdm_fmt_test_file(tf, sizeof(tf), in)[0])
		fprintf(out, ", %s", tf);
	fputs("; per test ", out);
	if (in->warmup_ms)
		fprintf(out, "a %s warm-up (not counted), then ",
			cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_WARMUP, " s"));
	else
		fputs("no warm-up, ", out);
	if (in->steady_state)
		fprintf(out, "rounds of %s until %u in a row are steady by SNIA PTS's rule (range within %g %% and slope within %g %% of their mean), at most %u, the figures over the last %u",
			cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " s"), CDM_STEADY_WINDOW, CDM_STEADY_RANGE_PCT, CDM_STEADY_SLOPE_PCT,
			in->max_rounds, CDM_STEADY_WINDOW);
	else
		fprintf(out, "%u pass%s of %s", in->count, in->count == 1 ? "" : "es",
			cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_TIME, " s"));
	fprintf(out, "; %s between tests", cdm_fmt_setting(t, sizeof(t), in, CDM_INFO_INTERVAL, " s"));
	write_setting_words(out, in);
	write_hold_method(out, in);
	if (r->aggregate == CDM_AGG_BEST)
		fputs("; figures: the best pass (MB/s and IOPS the highest, latency the lowest, as CrystalDiskMark).\n\n", out);
	else
		fprintf(out, "; figures: the %s of the passes.\n\n", agg_words(r->aggregate));
}

/*
 * "NAME (MODEL), reported rotational by the kernel" of one device the
 * filesystem sits on (dev_* are as large): queue/rotational is what the
 * driver says, not a fact about the medium (virtual disks often say 1)
 */
static void write_device(FILE *out, const char *name, const char *model, int rot)
{
	cdm_fmt_md_text(out, name, sizeof(((struct cdm_dev_info *)0)->name));
	if (model[0]) {
		fputs(" (", out);
		cdm_fmt_md_text(out, model, sizeof(((struct cdm_dev_info *)0)->model));
		fputc(')', out);
	} else {
		fputs(" (model unknown)", out);
	}
	if (rot)
		fputs(rot == CDM_ROT_YES ? ", reported rotational by the kernel" :
		      ", reported non-rotational by the kernel", out);
}

static void write_intro(FILE *out, const struct cdm_run_result *r)
{
	const struct cdm_run_info *in = &r->info;
	char utc[32];

	fputs("**cdm: ", out);
	if (in->label[0])
		cdm_fmt_md_text(out, in->label, sizeof(in->label));
	else
		cdm_fmt_md_text(out, in->target, sizeof(in->target));
	fputs("**", out);
	/* an imported report's label is its Comment: said once */
	if (in->comment[0] && strncmp(in->comment, in->label, sizeof(in->label))) {
		fputs(" \xe2\x80\x94 ", out);
		cdm_fmt_md_text(out, in->comment, sizeof(in->comment));
	}
	fputs("\n\n", out);
	if (r->image)
		write_image(out, r);
	if (cdm_result_imported(in)) {
		write_source_intro(out, in, reported_has(r, 1));
		return;
	}

	cdm_fmt_md_text(out, in->target, sizeof(in->target));
	if (in->fs_type[0]) {
		fputs(" (", out);
		cdm_fmt_md_text(out, in->fs_type, sizeof(in->fs_type));
		if (in->fs_source[0]) {
			fputs(" on ", out);
			cdm_fmt_md_text(out, in->fs_source, sizeof(in->fs_source));
		}
		fputc(')', out);
	}
	if (in->is_device) {
		char dsz[32];

		cdm_size_format(in->target_dev_bytes, dsz, sizeof(dsz));
		fprintf(out, " (block device, %s, %u-byte sectors)", dsz, in->target_dev_lbs);
	}
	if (in->dev_name[0]) {
		fputs(", device ", out);
		write_device(out, in->dev_name, in->dev_model, in->dev_rotational);
	}
	/* a filesystem over several devices: the others after the first */
	for (unsigned int i = 1; in->dev_name[0] && i < in->ndevices && i < CDM_DEVICES_MAX; i++) {
		fputs(i + 1 < in->ndevices ? ", " : " and ", out);
		write_device(out, in->devices[i].name, in->devices[i].model,
			     in->devices[i].rotational);
	}
	/* a file's: the block O_DIRECT is aligned to (a device's sectors are above) */
	if (!in->is_device && in->target_dev_lbs)
		fprintf(out, ", %u-byte logical blocks", in->target_dev_lbs);
	cdm_fmt_utc(utc, sizeof(utc), (long long)in->start);
	if (utc[0])
		fprintf(out, "; %.10s %.8s UTC", utc, utc + 11);
	fprintf(out, "; cdm %.*s\n\n", (int)sizeof(in->version),
		in->version[0] ? in->version : cdm_version());
	write_machine(out, in);
	write_method(out, r);
	if (r->interrupted)
		fprintf(out, "**Interrupted** (signal %d): only the passes measured before it are shown.\n\n",
			r->interrupted);
}

/* --cpus: the worker threads run on another NUMA node than the device */
static void write_numa_warning(FILE *out, const struct cdm_run_info *in)
{
	if (!in->numa_warning[0])
		return;
	fputs("**Warning: NUMA.** ", out);
	cdm_fmt_md_text(out, in->numa_warning, sizeof(in->numa_warning));
	fputs("\n\n", out);
}

/* one paragraph per thing under the target that may be memory (stack.h) */
static void write_memory_under(FILE *out, const struct cdm_run_info *in)
{
	for (unsigned int i = 0; i < in->nmem_under && i < CDM_MEM_UNDER_MAX; i++) {
		const struct cdm_mem_under *f = &in->mem_under[i];

		fputs("**Warning: memory under the target.** ", out);
		cdm_fmt_md_text(out, f->why, sizeof(f->why));
		fputs("; ", out);
		cdm_fmt_md_text(out, f->fix, sizeof(f->fix));
		fputs(" (stack: ", out);
		cdm_fmt_md_text(out, f->stack, sizeof(f->stack));
		fputs(").\n\n", out);
	}
}

#define DASH "\xe2\x80\x93"       /* en dash: no figure */

/* the row of a test whose passes measured nothing */
static void write_nothing_row(FILE *out, const struct cdm_test_result *t)
{
	char name[64];

	cdm_spec_name(&t->spec, name, sizeof(name));
	fprintf(out, "| %s %s | " DASH " | " DASH " | " DASH " | " DASH " | nothing measured |\n",
		name, cdm_result_dir_name(t->dir));
}

/*
 * under the table: per test run as rounds (--steady-state), "steady at
 * round 7 of 25" or "not steady after 25 rounds", with the last window's
 * range and slope (cdm_fmt_steady())
 */
static void write_steady(FILE *out, const struct cdm_run_result *r)
{
	char name[64], verdict[CDM_FMT_STEADY_MAX];

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		if (!t->steady.on || !cdm_result_has_data(t))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "\n%s %s: %s %s.\n", name, cdm_result_dir_name(t->dir),
			t->steady.reached_at_round ? "steady" : "**not steady**",
			cdm_fmt_steady(verdict, sizeof(verdict), t, &r->info));
	}
}

/*
 * under the table: per write and Mix test whose passes ended with
 * --end-fsync's flush, its time per pass, share of the pass and longest
 * (cdm_result_end_fsync_sum(), cdm_fmt_end_fsync())
 */
static void write_end_fsync(FILE *out, const struct cdm_run_result *r)
{
	char name[64], how[CDM_FMT_END_FSYNC_MAX];
	struct cdm_end_fsync_sum s;

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		if (!cdm_result_has_data(t) || !cdm_result_end_fsync_sum(t, &r->info, &s))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "\n%s %s: end-of-pass fdatasync %s.\n", name,
			cdm_result_dir_name(t->dir), cdm_fmt_end_fsync(how, sizeof(how), &s));
	}
}

/*
 * under the table: per write and Mix test with --fsync's fdatasyncs,
 * their count, mean and longest (cdm_result_fsync_sum(), cdm_fmt_fsync())
 */
static void write_fsync(FILE *out, const struct cdm_run_result *r)
{
	char name[64], how[CDM_FMT_FSYNC_MAX];
	struct cdm_fsync_sum s;

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		if (!cdm_result_has_data(t) || !cdm_result_fsync_sum(t, &r->info, &s))
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "\n%s %s: fdatasync every %u writes, %s.\n", name,
			cdm_result_dir_name(t->dir), r->info.fsync_every,
			cdm_fmt_fsync(how, sizeof(how), &s));
	}
}

/* under the table: why a test, or some of its passes, measured nothing */
static void write_why(FILE *out, const struct cdm_run_result *r)
{
	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		char name[64], why[256];

		if (!t->npasses || !cdm_result_why(t, why, sizeof(why))[0])
			continue;
		cdm_spec_name(&t->spec, name, sizeof(name));
		fprintf(out, "\n%s %s: %s%s.\n", name, cdm_result_dir_name(t->dir),
			cdm_result_state(t) == CDM_PASS_MEASURED ? "" : "nothing measured: ", why);
	}
}

/*
 * the row of test @t, which has figures: each through cdm_fmt_fig() (a
 * dash for one that does not exist: a CDM 6 report's latency); a report's
 * test under the median or the mean has none, "best only" as compare says.
 * Returns 1 when the test is unstable (its spread above --cv-threshold).
 */
static int write_row(FILE *out, const struct cdm_run_result *r, const struct cdm_test_result *t)
{
	char name[64], mb[CDM_FMT_FIG_MAX], iops[CDM_FMT_FIG_MAX], lat[CDM_FMT_FIG_MAX], cv[32];
	struct cdm_test_summary s;
	double unused = 0.0;
	int bad;

	cdm_spec_name(&t->spec, name, sizeof(name));
	if (cdm_result_agg_reason(t, r->aggregate)) {
		fprintf(out, "| %s %s | " DASH " | " DASH " | " DASH " | " DASH " | best only |\n",
			name, cdm_result_dir_name(t->dir));
		return 0;
	}
	cdm_result_summarize(t, &s);
	fprintf(out, "| %s %s | %s | %s | %s | ", name, cdm_result_dir_name(t->dir),
		cdm_fmt_fig(mb, sizeof(mb), 3, cdm_result_mb_s(t, r->aggregate), "", DASH),
		cdm_fmt_fig(iops, sizeof(iops), 1, cdm_result_iops(t, r->aggregate), "", DASH),
		cdm_fmt_fig(lat, sizeof(lat), 2, cdm_result_lat_us(t, r->aggregate), "", DASH));
	if (cdm_result_has_percentiles(t))
		fprintf(out, "%.2f", (double)cdm_hist_percentile(t->hist, 99.0) / 1000.0);
	else
		fputs(DASH, out);               /* not measured */
	bad = cdm_result_unstable(t, r->cv_threshold_pct, &unused);
	if (s.measured < 2)
		fputs(" | " DASH, out);
	else    /* shown so that "above the threshold" reads true (cdm_fmt_cv()) */
		fprintf(out, " | \xc2\xb1%s %%%s",
			cdm_fmt_cv(cv, sizeof(cv), s.mb_s.cv_pct, r->cv_threshold_pct),
			bad ? " " UNSTABLE_MARK : "");
	/* the spread is of the passes that measured something */
	if (s.measured < s.npasses)
		fprintf(out, " (%u of %u %s)", s.measured, s.npasses, t->steady.on ? "rounds" : "passes");
	fputs(" |\n", out);
	return bad;
}

/*
 * under the table of a report: what its figures are, as far as it prints
 * them (CDM 6: no latency, no IOPS on its sequential rows), or, under the
 * median or the mean, why there are none
 */
static void write_source_note(FILE *out, const struct cdm_run_result *r)
{
	if (r->aggregate != CDM_AGG_BEST) {
		fprintf(out, "\nThe CrystalDiskMark report has only its best-of figures, no passes to take a %s of: --aggregate best shows them.\n",
			agg_words(r->aggregate));
		return;
	}
	fprintf(out, "\nFigures as the CrystalDiskMark report printed them: the highest MB/s%s of its passes; IOPS %s; the report has no passes, so no percentiles and no spread.\n",
		reported_has(r, 1) ? " and the lowest mean latency" : " (it prints no latency)",
		reported_has(r, 0) ? "as printed" :
		"as printed, and where it prints none derived from the MB/s as CrystalDiskMark derives it (MB/s x 10^6 / block bytes)");
}

/*
 * the rounds the steady-state figures are over (cdm_result_first_pass()):
 * "the last 5 rounds (the steady-state window)", or the rounds run when
 * the tests measured ran fewer (a stopped run)
 */
static void steady_rounds(FILE *out, const struct cdm_run_result *r)
{
	unsigned int lo = 0, hi = 0;

	for (unsigned int i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];
		unsigned int n;

		if (!cdm_result_has_data(t))
			continue;
		n = t->npasses - cdm_result_first_pass(t);
		lo = !hi || n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	if (!hi)
		hi = lo = CDM_STEADY_WINDOW;    /* nothing measured: the rule's window */
	if (lo == hi && hi == CDM_STEADY_WINDOW)
		fprintf(out, "the last %u rounds (the steady-state window)", hi);
	else if (lo == hi)
		fprintf(out, "the %u round%s run (fewer than the steady-state window of %u)", hi,
			hi == 1 ? "" : "s", CDM_STEADY_WINDOW);
	else
		fprintf(out, "the last %u rounds (the steady-state window; as few as %u where a test ran fewer)",
			hi, lo);
}

/* under the table of a run: what its figures are; @unstable: how many are marked */
static void write_run_note(FILE *out, const struct cdm_run_result *r, unsigned int unstable)
{
	const char *agg = agg_words(r->aggregate);

	if (r->info.steady_state) {
		fprintf(out, "\nMB/s: the %s of ", r->aggregate == CDM_AGG_BEST ? "highest" : agg);
		steady_rounds(out, r);
		fprintf(out, "; latency: the %s of their mean latencies; ",
			r->aggregate == CDM_AGG_BEST ? "lowest" : agg);
	}
	else if (r->info.count == 1)
		fputs("\nMB/s and latency: of the one pass (its mean latency); ", out);
	else
		fprintf(out, "\nMB/s: the %s of %u passes; latency: the %s of the passes' mean latencies; ",
			r->aggregate == CDM_AGG_BEST ? "highest" : agg, r->info.count,
			r->aggregate == CDM_AGG_BEST ? "lowest" : agg);
	fprintf(out, "IOPS: measured I/Os per second, picked as the MB/s. p99 from the merged latency histogram. "
		"Spread: coefficient of variation of the passes' MB/s%s.",
		r->info.count == 1 ? " (none with one pass)" : "");
	if (unstable) {
		char thr[40];

		fprintf(out, " " UNSTABLE_MARK " unstable: spread above %s %%.",
			cdm_fmt_num(thr, sizeof(thr), r->cv_threshold_pct));
	}
	fputc('\n', out);
}

static int md_write(FILE *out, const struct cdm_run_result *r)
{
	unsigned int i, rows = 0, unstable = 0;

	write_intro(out, r);
	write_numa_warning(out, &r->info);
	write_memory_under(out, &r->info);
	fprintf(out, "| Test | MB/s (%s) | IOPS | Latency (\xc2\xb5s) | p99 (\xc2\xb5s) | Spread |\n",
		agg_words(r->aggregate));
	fputs("|:-----|-----:|-----:|-----:|-----:|-----:|\n", out);
	for (i = 0; i < r->ntests; i++) {
		const struct cdm_test_result *t = &r->tests[i];

		if (!cdm_result_has_data(t))
			continue;
		if (cdm_result_state(t) != CDM_PASS_MEASURED)
			write_nothing_row(out, t);
		else
			unstable += (unsigned int)write_row(out, r, t);
		rows++;
	}
	if (!rows)
		fputs("| (no test measured) | | | | | |\n", out);
	if (cdm_result_imported(&r->info))
		write_source_note(out, r);
	else
		write_run_note(out, r, unstable);
	write_steady(out, r);
	write_end_fsync(out, r);
	write_fsync(out, r);
	write_why(out, r);
	cdm_layout_verify(out, r, "\n");
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

/* listed in the registry, report.c; declared in formatter.h */
const struct cdm_formatter cdm_report_markdown = {
	.name = "markdown",
	.title = "Markdown",
	.ext = "md",
	.write = md_write,
};
