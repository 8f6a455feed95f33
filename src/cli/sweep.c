/* SPDX-License-Identifier: MIT */
/*
 * sweep.c - `cdm sweep`: runs each --test at every thread count of
 * --threads and/or queue depth of --qd (SQLIO / ORION style thread sweeps)
 * and shows one result per point: a table in text or Markdown, the knee of
 * each curve, JSON with --save, an SVG chart with --plot.
 *
 * All points are the tests of ONE cdm_run: the test file is prepared once,
 * then every read point, then every write point, each with its warm-up and
 * passes, exactly as the tests of a profile run (docs/method.md, "Sweeps").
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
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
#include "cdm/engine/engine.h"
#include "cdm/target/outfile.h"
#include "cdm/report/plot.h"
#include "cdm/plan/profile.h"
#include "cdm/report/report.h"
#include "cdm/run/runner.h"
#include "cdm/model/detect.h"
#include "cdm/model/result_read.h"
#include "cdm/model/series.h"
#include "cdm/cli/sweep.h"
#include "../report/fmt.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"

#define EXIT_RUN 1
#define EXIT_USAGE 2
#define MAX_CURVES (2 * CDM_MAX_TESTS)

enum { VARY_THREADS = 1, VARY_QD = 2 };

struct point {
	unsigned int threads, qd;
	int ok;                         /* every pass measured */
	uint64_t bytes, ios;
	double seconds, mb_s, iops, lat_us, p99_us;
	int has_p99;
};

struct curve {
	char test[64];                  /* "RND4K Q1": the spec without the swept part */
	enum cdm_dir dir;
	unsigned int npts;
	struct point pts[CDM_SWEEP_MAX_VALUES];
	int knee;                       /* index, or -1 */
	struct cdm_ceiling ceiling;
};

struct sweep {
	int vary;                       /* VARY_* bits */
	int plot_mb_s;                  /* --metric mb_s */
	unsigned int ncurves;
	struct curve curves[MAX_CURVES];
	const struct cdm_run_result *res;
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
"  -T, --time SEC           seconds per pass, 1-3600 (default: 5)\n"
"      --warmup SEC         warm-up per point, 0-3600 (default: 1)\n"
"      --interval SEC       pause between points, 0-3600 (default: 0)\n"
"      --mode MODE          all (read, then write), read, write (default: all)\n"
"  -e, --engine NAME        auto, io_uring, libaio, sync, null (default: auto)\n"
"      --null-service-us N  null engine: service time per I/O (default: 0)\n"
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

static int sweep_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int sweep_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("cdm sweep: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'cdm sweep --help'.\n", stderr);
	return EXIT_USAGE;
}

int cdm_sweep_parse_list(const char *s, unsigned int max, unsigned int *vals, unsigned int *n)
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

/* "RND4K Q1" for a thread sweep, "RND4K T8" for a depth sweep, "RND4K" for both */
static void curve_name(const struct cdm_spec *sp, int vary, char *buf, size_t len)
{
	char full[48], *sp_at;

	cdm_spec_name(sp, full, sizeof(full));
	sp_at = strchr(full, ' ');
	if (sp_at)
		*sp_at = '\0';
	if (vary == VARY_THREADS)
		snprintf(buf, len, "%s Q%u", full, sp->qd);
	else if (vary == VARY_QD)
		snprintf(buf, len, "%s T%u", full, sp->threads);
	else
		snprintf(buf, len, "%s Q%u", full, sp->qd);
}

static void fill_point(const struct cdm_test_result *t, struct point *p)
{
	uint64_t lat = 0;

	memset(p, 0, sizeof(*p));
	p->threads = t->spec.threads;
	p->qd = t->qd_run;
	for (unsigned int k = 0; k < t->npasses; k++) {
		p->bytes += t->passes[k].bytes;
		p->ios += t->passes[k].ios;
		p->seconds += t->passes[k].seconds;
		lat += t->passes[k].lat_sum_ns;
	}
	p->ok = t->npasses > 0 && p->seconds > 0 && !t->error;
	if (!p->ok)
		return;
	p->mb_s = (double)p->bytes / p->seconds / 1e6;
	p->iops = (double)p->ios / p->seconds;
	p->lat_us = p->ios ? (double)lat / (double)p->ios / 1e3 : 0.0;
	p->has_p99 = cdm_result_has_percentiles(t);
	if (p->has_p99)
		p->p99_us = (double)cdm_hist_percentile(t->hist, 99.0) / 1e3;
}

/* the curves, their knees and ceilings, from the run's tests */
static void build_curves(struct sweep *sw, const struct cdm_run_result *res,
			 unsigned int nbase,
			 unsigned int nq, unsigned int nt)
{
	unsigned int per_dir = nbase * nq * nt, ndir = per_dir ? res->ntests / per_dir : 0;

	sw->ncurves = 0;
	for (unsigned int d = 0; d < ndir; d++) {
		for (unsigned int b = 0; b < nbase; b++) {
			/* a thread sweep per depth when both vary, else one curve */
			unsigned int ncur = sw->vary == (VARY_THREADS | VARY_QD) ? nq : 1;

			for (unsigned int c = 0; c < ncur; c++) {
				struct curve *cv = &sw->curves[sw->ncurves++];
				struct cdm_load_point lp[CDM_SWEEP_MAX_VALUES];
				unsigned int n = 0, map[CDM_SWEEP_MAX_VALUES];
				unsigned int first = d * per_dir + b * nq * nt + c * nt;
				unsigned int cnt = ncur > 1 ? nt : nq * nt;
				struct cdm_spec sp = res->tests[first].spec;

				cv->dir = res->tests[first].dir;
				curve_name(&sp, sw->vary, cv->test, sizeof(cv->test));
				cv->npts = cnt;
				for (unsigned int k = 0; k < cnt; k++) {
					struct point *p = &cv->pts[k];

					fill_point(&res->tests[first + k], p);
					if (!p->ok)
						continue;
					lp[n].load = sw->vary == VARY_QD ? p->qd : p->threads;
					lp[n].value = p->iops;
					lp[n].lat = p->lat_us;
					lp[n].flat = -1;
					map[n++] = k;
				}
				cv->knee = cdm_detect_knee(lp, n);
				if (cv->knee >= 0)
					cv->knee = (int)map[cv->knee];
				if (cdm_detect_ceiling(lp, n, &cv->ceiling))
					cv->ceiling.from = map[cv->ceiling.from];
			}
		}
	}
}

static const char *dir_name(enum cdm_dir d)
{
	return d == CDM_DIR_WRITE ? "Write" : "Read";
}

static unsigned int xval(const struct sweep *sw, const struct point *p)
{
	return sw->vary == VARY_QD ? p->qd : p->threads;
}

static const char *xname(const struct sweep *sw)
{
	return sw->vary == VARY_QD ? "queue depth" : "threads";
}

static void write_table(FILE *out, const struct sweep *sw, int md)
{
	const struct cdm_run_info *in = &sw->res->info;

	if (md)
		fprintf(out, "## cdm sweep\n\n%s on %s (%s), %s engine, %" PRIu64
			" MiB test file, %u x %u s per point%s\n",
			in->label[0] ? in->label : in->target, in->fs_type[0] ? in->fs_type : "?",
			in->dev_name[0] ? in->dev_name : "?", in->engine, in->size >> 20,
			in->count, in->time, in->direct ? "" : ", buffered");
	else
		fprintf(out, "cdm sweep: %s on %s (%s), %s engine, %" PRIu64
			" MiB test file, %u x %u s per point%s\n",
			in->label[0] ? in->label : in->target, in->fs_type[0] ? in->fs_type : "?",
			in->dev_name[0] ? in->dev_name : "?", in->engine, in->size >> 20,
			in->count, in->time, in->direct ? "" : ", buffered");
	for (unsigned int c = 0; c < sw->ncurves; c++) {
		const struct curve *cv = &sw->curves[c];

		if (md)
			fprintf(out, "\n### %s %s\n\n| Threads | QD | MB/s | IOPS | mean (us) | p99 (us) | |\n"
				"|---:|---:|---:|---:|---:|---:|:---|\n", cv->test, dir_name(cv->dir));
		else
			fprintf(out, "\n%s %s\n  Threads    QD         MB/s          IOPS     mean us      p99 us\n",
				cv->test, dir_name(cv->dir));
		for (unsigned int k = 0; k < cv->npts; k++) {
			const struct point *p = &cv->pts[k];
			char p99[32] = "-";

			if (!p->ok) {
				fprintf(out, md ? "| %u | %u | | | | | not measured |\n" :
					"  %7u %5u  (not measured)\n", p->threads, p->qd);
				continue;
			}
			if (p->has_p99)
				snprintf(p99, sizeof(p99), "%.2f", p->p99_us);
			if (md)
				fprintf(out, "| %u | %u | %.3f | %.1f | %.2f | %s | %s |\n", p->threads,
					p->qd, p->mb_s, p->iops, p->lat_us, p99,
					(int)k == cv->knee ? "**knee**" : "");
			else
				fprintf(out, "  %7u %5u %12.3f %13.1f %11.2f %11s%s\n", p->threads, p->qd,
					p->mb_s, p->iops, p->lat_us, p99,
					(int)k == cv->knee ? "  <- knee" : "");
		}
		if (cv->knee >= 0) {
			const struct point *p = &cv->pts[cv->knee];

			fprintf(out, "%s%s %s: knee at %u %s (%.1f IOPS, %.2f us): more load raised IOPS by less than 10 %% while latency kept rising\n",
				md ? "\n" : "  ", cv->test, dir_name(cv->dir), xval(sw, p), xname(sw),
				p->iops, p->lat_us);
		} else {
			fprintf(out, "%s%s %s: no knee: IOPS still grew by 10 %% or more, or latency did not rise\n",
				md ? "\n" : "  ", cv->test, dir_name(cv->dir));
		}
		if (cv->ceiling.found)
			fprintf(out, "%s%s %s: flat ceiling at %.1f IOPS from %u %s on (latency x%.1f)\n",
				md ? "\n" : "  ", cv->test, dir_name(cv->dir), cv->ceiling.level,
				xval(sw, &cv->pts[cv->ceiling.from]), xname(sw), cv->ceiling.lat_ratio);
	}
}

/* --save: the sweep as JSON (docs/output-formats.md, "Sweep JSON") */
static const struct sweep *save_sweep;

static void jnum(FILE *out, const char *key, double v, const char *end)
{
	char buf[40];

	fprintf(out, "\"%s\": %s%s", key, cdm_fmt_num(buf, sizeof(buf), v), end);
}

static int sweep_json(FILE *out, const struct cdm_run_result *r)
{
	const struct sweep *sw = save_sweep;
	const struct cdm_run_info *in = &r->info;

	fprintf(out, "{\n  \"schema_version\": %d,\n  \"tool\": \"cdm\",\n  \"kind\": \"sweep\",\n",
		CDM_JSON_SCHEMA_VERSION);
	fprintf(out, "  \"cdm_version\": \"%s\",\n  \"interrupted\": %s,\n", CDM_VERSION,
		r->interrupted ? "true" : "false");
	fputs("  \"target\": { \"path\": ", out);
	cdm_fmt_json_str(out, in->target, sizeof(in->target));
	fputs(", \"fs_type\": ", out);
	cdm_fmt_json_str(out, in->fs_type, sizeof(in->fs_type));
	fputs(", \"device\": ", out);
	cdm_fmt_json_str(out, in->dev_name, sizeof(in->dev_name));
	fputs(" },\n", out);
	fprintf(out, "  \"settings\": { \"vary\": \"%s\", \"size_bytes\": %" PRIu64
		", \"count\": %u, \"time_s\": %u, \"warmup_s\": %u, \"engine\": \"%s\", \"direct\": %s },\n",
		sw->vary == VARY_THREADS ? "threads" : sw->vary == VARY_QD ? "qd" : "threads,qd",
		in->size, in->count, in->time, in->warmup, in->engine, in->direct ? "true" : "false");
	fputs("  \"curves\": [", out);
	for (unsigned int c = 0; c < sw->ncurves; c++) {
		const struct curve *cv = &sw->curves[c];

		fprintf(out, "%s\n    {\n      \"test\": \"%s\",\n      \"direction\": \"%s\",\n      \"points\": [\n",
			c ? "," : "", cv->test, cv->dir == CDM_DIR_WRITE ? "write" : "read");
		for (unsigned int k = 0; k < cv->npts; k++) {
			const struct point *p = &cv->pts[k];

			fprintf(out, "        { \"threads\": %u, \"queue_depth\": %u, \"measured\": %s, \"bytes\": %" PRIu64
				", \"ios\": %" PRIu64 ", ", p->threads, p->qd, p->ok ? "true" : "false",
				p->bytes, p->ios);
			jnum(out, "duration_s", p->seconds, ", ");
			if (p->ok) {
				jnum(out, "mb_s", p->mb_s, ", ");
				jnum(out, "iops", p->iops, ", ");
				jnum(out, "lat_mean_us", p->lat_us, ", ");
			} else {
				fputs("\"mb_s\": null, \"iops\": null, \"lat_mean_us\": null, ", out);
			}
			if (p->ok && p->has_p99)
				jnum(out, "lat_p99_us", p->p99_us, "");
			else
				fputs("\"lat_p99_us\": null", out);
			fprintf(out, " }%s\n", k + 1 < cv->npts ? "," : "");
		}
		fputs("      ],\n", out);
		if (cv->knee >= 0)
			fprintf(out, "      \"knee\": { \"index\": %d, \"threads\": %u, \"queue_depth\": %u },\n",
				cv->knee, cv->pts[cv->knee].threads, cv->pts[cv->knee].qd);
		else
			fputs("      \"knee\": null,\n", out);
		if (cv->ceiling.found) {
			fprintf(out, "      \"ceiling\": { \"index\": %u, ", cv->ceiling.from);
			jnum(out, "iops", cv->ceiling.level, ", ");
			jnum(out, "lat_ratio", cv->ceiling.lat_ratio, " }\n");
		} else {
			fputs("      \"ceiling\": null\n", out);
		}
		fputs("    }", out);
	}
	fputs(sw->ncurves ? "\n  ]\n}\n" : "]\n}\n", out);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

struct plot_arg {
	const char *sub;
	const struct cdm_plot_panel *p;
};

static int plot_write(FILE *f, const void *arg)
{
	const struct plot_arg *a = arg;

	return cdm_plot_svg(f, "cdm sweep", a->sub, a->p, 2);
}

/* --plot: the sweep's chart, replaced atomically (outfile.h) */
static int write_plot(const char *path, const struct sweep *sw)
{
	struct plot_arg pa;
	struct cdm_plot_line thr[MAX_CURVES], lat[2 * MAX_CURVES];
	static double xs[MAX_CURVES][CDM_SWEEP_MAX_VALUES], ys[MAX_CURVES][CDM_SWEEP_MAX_VALUES];
	static double lm[MAX_CURVES][CDM_SWEEP_MAX_VALUES], lq[MAX_CURVES][CDM_SWEEP_MAX_VALUES];
	static char names[MAX_CURVES][1][96];
	struct cdm_plot_panel p[2];
	char sub[256], xl[96];
	unsigned int nl = 0;
	double lmax = 0, div;
	int e;

	for (unsigned int c = 0; c < sw->ncurves; c++) {
		const struct curve *cv = &sw->curves[c];
		unsigned int n = 0;
		int knee = -1;

		for (unsigned int k = 0; k < cv->npts; k++) {
			const struct point *pt = &cv->pts[k];

			if (!pt->ok)
				continue;
			if ((int)k == cv->knee)
				knee = (int)n;
			xs[c][n] = xval(sw, pt);
			ys[c][n] = sw->plot_mb_s ? pt->mb_s : pt->iops;
			lm[c][n] = pt->lat_us;
			lq[c][n] = pt->has_p99 ? pt->p99_us : 0.0 / 0.0;
			n++;
		}
		snprintf(names[c][0], sizeof(names[c][0]), "%s %s", cv->test, dir_name(cv->dir));
		thr[nl] = (struct cdm_plot_line){ .name = names[c][0], .n = n, .x = xs[c],
						  .y = ys[c], .color = (int)c, .has_knee = knee >= 0,
						  .knee = knee >= 0 ? (unsigned int)knee : 0 };
		lat[2 * nl] = thr[nl];
		lat[2 * nl].y = lm[c];
		lat[2 * nl + 1] = lat[2 * nl];
		lat[2 * nl + 1].y = lq[c];
		lat[2 * nl + 1].dashed = 1;
		lat[2 * nl + 1].has_knee = 0;
		lat[2 * nl + 1].no_legend = 1;
		for (unsigned int k = 0; k < n; k++)
			if (lq[c][k] > lmax)
				lmax = lq[c][k];
		nl++;
	}
	/* latency in ms once it passes 10 ms: shorter tick labels */
	div = lmax > 10000 ? 1000 : 1;
	for (unsigned int c = 0; c < sw->ncurves; c++)
		for (unsigned int k = 0; k < CDM_SWEEP_MAX_VALUES; k++) {
			lm[c][k] /= div;
			lq[c][k] /= div;
		}
	snprintf(xl, sizeof(xl), "%s%s", sw->vary == VARY_QD ? "queue depth per thread (Q)" :
		 "threads (T)", sw->vary == (VARY_THREADS | VARY_QD) ? "; one line per Q" : "");
	p[0] = (struct cdm_plot_panel){
		.title = sw->plot_mb_s ? "Throughput (knee: more load adds < 10 % IOPS, latency rises)" :
			 "IOPS (knee: more load adds < 10 % IOPS, latency rises)",
		.xlabel = xl, .ylabel = sw->plot_mb_s ? "MB/s (10^6 bytes/s)" : "IOPS (I/Os per second)",
		.nlines = nl, .lines = thr, .x_categories = 1, .markers = 1,
	};
	p[1] = p[0];
	p[1].title = "Latency: mean (solid), p99 (dashed)";
	p[1].ylabel = div > 1 ? "latency (ms)" : "latency (us)";
	p[1].nlines = 2 * nl;
	p[1].lines = lat;
	snprintf(sub, sizeof(sub), "%.100s on %.32s (%.64s), %.16s engine, %u x %u s per point",
		 sw->res->info.label[0] ? sw->res->info.label : sw->res->info.target,
		 sw->res->info.fs_type, sw->res->info.dev_name[0] ? sw->res->info.dev_name : "?",
		 sw->res->info.engine, sw->res->info.count, sw->res->info.time);
	pa.sub = sub;
	pa.p = p;
	e = cdm_outfile_write(path, plot_write, &pa);
	if (e < 0)
		cdm_error("%s: cannot write the plot: %s", path, strerror(-e));
	return e;
}

static const struct cdm_engine_ops *engine_of(const char *name, int *status)
{
	const struct cdm_engine_ops *ops;
	char why[160];
	int known = 0;

	if (!strcmp(name, "auto"))
		return cdm_engine_pick();
	ops = cdm_engine_find(name, &known);
	if (!ops) {
		if (!known) {
			*status = sweep_usage_error("unknown engine '%s' (auto, io_uring, libaio, sync, null)", name);
			return NULL;
		}
		cdm_error("the %s engine is not built in", name);
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

int cdm_sweep_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 'H' },
		{ "qd", required_argument, NULL, 'Q' },
		{ "test", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "time", required_argument, NULL, 'T' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "interval", required_argument, NULL, 'I' },
		{ "mode", required_argument, NULL, 'M' },
		{ "engine", required_argument, NULL, 'e' },
		{ "null-service-us", required_argument, NULL, 'N' },
		{ "buffered", no_argument, NULL, 'B' },
		{ "format", required_argument, NULL, 'f' },
		{ "save", required_argument, NULL, 'S' },
		{ "plot", required_argument, NULL, 'P' },
		{ "metric", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct cdm_run_config cfg;
	static struct sweep sw;
	struct cdm_spec base[CDM_MAX_TESTS];
	unsigned int nbase = 0, tv[CDM_SWEEP_MAX_VALUES], qv[CDM_SWEEP_MAX_VALUES];
	unsigned int nt = 0, nq = 0;
	unsigned long v, count = 1, ptime = 5, warmup = 1, interval = 0;
	const char *engine = "auto", *mode = "all", *save = NULL, *plot = NULL;
	struct cdm_run_result *res;
	uint64_t size = 1ull << 30;
	int c, md = 0, status = 0, r;
	struct cdm_err err;

	memset(&cfg, 0, sizeof(cfg));
	memset(&sw, 0, sizeof(sw));
	cfg.direct = 1;
	cfg.progress = isatty(STDERR_FILENO);
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:s:n:T:e:f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			if ((r = cdm_sweep_parse_list(optarg, CDM_THREADS_MAX, tv, &nt)) < 0)
				return sweep_usage_error("bad value for --threads: '%s' (increasing whole numbers 1-%u, comma-separated, at most %d)",
							 optarg, CDM_THREADS_MAX, CDM_SWEEP_MAX_VALUES);
			sw.vary |= VARY_THREADS;
			break;
		case 'Q':
			if ((r = cdm_sweep_parse_list(optarg, CDM_QD_MAX, qv, &nq)) < 0)
				return sweep_usage_error("bad value for --qd: '%s' (increasing whole numbers 1-%u, comma-separated, at most %d)",
							 optarg, CDM_QD_MAX, CDM_SWEEP_MAX_VALUES);
			sw.vary |= VARY_QD;
			break;
		case 't':
			if (nbase == CDM_MAX_TESTS)
				return sweep_usage_error("too many --test options (at most %d)", CDM_MAX_TESTS);
			if (cdm_spec_parse(optarg, &base[nbase], &err) < 0)
				return sweep_usage_error("%s", err.msg);
			if (base[nbase].write_pct)
				return sweep_usage_error("--test '%s': a sweep runs read and write tests; a test with W<pct> (a Mix) cannot be swept",
							 optarg);
			nbase++;
			break;
		case 's':
			if (cdm_size_parse(optarg, &size) < 0)
				return sweep_usage_error("bad value for --size: '%s' (e.g. 1GiB, 512MiB, 64M)", optarg);
			break;
		case 'n':
			if (cdm_uint_parse(optarg, 1, CDM_COUNT_MAX, &count) < 0)
				return sweep_usage_error("bad value for --count: '%s' (1-%u)", optarg, CDM_COUNT_MAX);
			break;
		case 'T':
		case 'W':
		case 'I':
			if (cdm_uint_parse(optarg, c == 'T' ? 1 : 0, CDM_TIME_MAX, &v) < 0)
				return sweep_usage_error("bad value for --%s: '%s' (a whole number of seconds, %d-%u)",
							 c == 'T' ? "time" : c == 'W' ? "warmup" : "interval",
							 optarg, c == 'T', CDM_TIME_MAX);
			*(c == 'T' ? &ptime : c == 'W' ? &warmup : &interval) = v;
			break;
		case 'M':
			mode = optarg;
			if (strcmp(mode, "all") && strcmp(mode, "read") && strcmp(mode, "write"))
				return sweep_usage_error("bad value for --mode: '%s' (all, read, write)", mode);
			break;
		case 'e':
			engine = optarg;
			break;
		case 'N':
			if (cdm_uint_parse(optarg, 0, 10000000, &v) < 0)
				return sweep_usage_error("bad value for --null-service-us: '%s' (0-10000000)", optarg);
			cfg.null_service_ns = (uint64_t)v * 1000;
			break;
		case 'B':
			cfg.direct = 0;
			break;
		case 'f':
			if (!strcmp(optarg, "markdown"))
				md = 1;
			else if (strcmp(optarg, "cdm"))
				return sweep_usage_error("bad value for --format: '%s' (cdm, markdown)", optarg);
			break;
		case 'S':
			save = optarg;
			break;
		case 'P':
			plot = optarg;
			break;
		case 'm':
			if (!strcmp(optarg, "mb_s"))
				sw.plot_mb_s = 1;
			else if (strcmp(optarg, "iops"))
				return sweep_usage_error("bad value for --metric: '%s' (iops, mb_s)", optarg);
			break;
		case 'q':
			cfg.progress = 0;
			break;
		case 'h':
			fputs(sweep_usage, stdout);
			return 0;
		default:
			fputs("Try 'cdm sweep --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (!sw.vary)
		return sweep_usage_error("nothing to sweep: give --threads LIST and/or --qd LIST");
	if (argc - optind > 1)
		return sweep_usage_error("one TARGET directory expected, got %d", argc - optind);
	if ((optind < argc && !argv[optind][0]) || (save && !save[0]) || (plot && !plot[0]))
		return sweep_usage_error("an empty path was given");
	if (cdm_outfile_same(save, plot))
		return sweep_usage_error("--save and --plot name the same file '%s'", save);
	if (!nbase) {
		cdm_spec_parse("RND4K", &base[0], &err);
		nbase = 1;
	}
	if (!nt)
		tv[nt++] = 0;           /* each spec's own T */
	if (!nq)
		qv[nq++] = 0;           /* each spec's own Q */
	if (nbase * nq * nt > CDM_MAX_TESTS)
		return sweep_usage_error("%u points (tests x depths x thread counts) is more than the %d of one run",
					 nbase * nq * nt, CDM_MAX_TESTS);
	for (unsigned int b = 0; b < nbase; b++)
		for (unsigned int q = 0; q < nq; q++)
			for (unsigned int t = 0; t < nt; t++) {
				struct cdm_spec *sp = &cfg.tests[cfg.ntests++];

				*sp = base[b];
				if (qv[q])
					sp->qd = qv[q];
				if (tv[t])
					sp->threads = tv[t];
			}
	{
		uint64_t maxb = 0;

		for (unsigned int i = 0; i < cfg.ntests; i++)
			if (cfg.tests[i].block > maxb)
				maxb = cfg.tests[i].block;
		if (size < maxb)
			return sweep_usage_error("--size is smaller than one block of the tests");
		size = size / maxb * maxb;
	}
	cfg.engine = engine_of(engine, &status);
	if (!cfg.engine)
		return status;
	if ((save && cdm_outfile_check(save, "--save", 1) < 0) ||
	    (plot && cdm_outfile_check(plot, "--plot", 1) < 0))
		return EXIT_RUN;
	cfg.target = optind < argc ? argv[optind] : ".";
	cfg.profile_name = "Sweep";
	cfg.size = size;
	cfg.count = (unsigned int)count;
	cfg.time = (unsigned int)ptime;
	cfg.warmup = (unsigned int)warmup;
	cfg.interval = (unsigned int)interval;
	cfg.do_read = strcmp(mode, "write") != 0;
	cfg.do_write = strcmp(mode, "read") != 0;
	if (cdm_runner_install_signals() < 0)
		return cdm_error("cannot install signal handlers: %s", strerror(errno)), EXIT_RUN;

	res = cdm_result_alloc(cdm_plan_tests(&cfg, NULL));
	if (!res)
		return cdm_error("out of memory"), EXIT_RUN;
	r = cdm_run(&cfg, res);
	if (r == 0 || r == -EINTR) {
		/* an interrupted run: the points after the stop are "not measured" */
		sw.res = res;
		build_curves(&sw, res, nbase, nq, nt);
		write_table(stdout, &sw, md);
		if (fflush(stdout) || ferror(stdout))
			status = EXIT_RUN;
		for (unsigned int i = 0; i < sw.ncurves; i++)
			if (sw.curves[i].ceiling.found)
				cdm_note("%s %s: a flat ceiling at %.1f IOPS: more load gave no more while latency rose %.1fx",
					 sw.curves[i].test, dir_name(sw.curves[i].dir),
					 sw.curves[i].ceiling.level, sw.curves[i].ceiling.lat_ratio);
		if (save) {
			static const struct cdm_formatter fmt = { "sweep-json", sweep_json };
			int e;

			save_sweep = &sw;
			e = cdm_report_save(save, &fmt, res);
			if (e < 0) {
				cdm_error("%s: cannot save the sweep: %s", save, strerror(-e));
				status = EXIT_RUN;
			}
		}
		if (plot && write_plot(plot, &sw) < 0)
			status = EXIT_RUN;
	}
	if (r == -EINTR) {
		int sig = res->interrupted ? res->interrupted : SIGINT;

		cdm_error("interrupted by %s: the table shows the points measured before it",
			  strsignal(sig));
		status = 128 + sig;
	} else if (r < 0) {
		status = EXIT_RUN;
	}
	cdm_result_free(res);
	return status;
}
