/* SPDX-License-Identifier: MIT */
/*
 * progress.c - the terminal's progress line and its time left
 * (progress.h): one line on stderr, rewritten in place, never wider than
 * the terminal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "progress.h"

static int progress_shown;

void cdm_progress_clear(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

void cdm_progress_show(const struct cdm_run_config *cfg, const char *fmt, ...)
{
	va_list ap;

	if (!cfg->progress)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = 1;
}

/*
 * The progress line's place in the run: "test N of M" and the time left
 * (plan/eta.h).  The tests' directions in run order, set once the plan is
 * known (cdm_progress_eta_init()); the gated windows ended so far, measured and
 * scheduled; when the preparation or a read-back started.
 */
#define PROGRESS_COLS 79        /* rewritten in place: never wrap an 80-column terminal */

static struct {
	unsigned int ntests;    /* 0: no plan yet, no ETA */
	enum cdm_dir dirs[3 * CDM_MAX_TESTS];
	double gate_meas, gate_sched;
	uint64_t phase_t0;
} eta;

void cdm_progress_eta_init(const struct cdm_run_result *res)
{
	memset(&eta, 0, sizeof(eta));
	if (res->ntests > sizeof(eta.dirs) / sizeof(eta.dirs[0]))
		return;
	for (unsigned int i = 0; i < res->ntests; i++)
		eta.dirs[i] = res->tests[i].dir;
	eta.ntests = res->ntests;
}

/* a gated window of @sched_s seconds ended after @meas_s: the scale of those ahead */
void cdm_progress_window_ended(double meas_s, double sched_s)
{
	eta.gate_meas += meas_s;
	eta.gate_sched += sched_s;
}

/*
 * The seconds left of a phase that has done @done of @total units since
 * eta.phase_t0, at the rate so far; -1 (unknown) before the first unit.
 */
double cdm_progress_phase_left(uint64_t done, uint64_t total)
{
	double el = (double)(cdm_clock_now_ns() - eta.phase_t0) / 1e9;

	if (!done || total < done)
		return -1;
	return (double)(total - done) * el / (double)done;
}

/*
 * The columns the progress line may use: one less than the terminal's
 * width, so it never wraps (a wrapped line is not erased by "\r\033[K");
 * PROGRESS_COLS when the terminal does not say (a pty of width 0).
 */
static size_t progress_cols(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return PROGRESS_COLS;
	if (ws.ws_col < 41)
		return 40;
	return ws.ws_col > 200 ? 199 : (size_t)ws.ws_col - 1;
}

/*
 * The progress line at @at: "test N of M" (not while preparing), a body,
 * and the time left, within the terminal's width (progress_cols()).  The
 * body is the first of @alt[0..@n) that fits, each tried with two
 * spaces around it, then with one; when none does, the last is cut at a
 * space (never inside a number), and never is the time left.
 */
void cdm_progress_line(const struct cdm_run_config *cfg, struct cdm_eta_at *at,
		       const char *const *alt, unsigned int n)
{
	char pre[32] = "", left[48] = "", line[384];
	size_t cols = progress_cols(), room;
	struct cdm_eta e;

	if (!cfg->progress || !n)
		return;
	if (eta.ntests) {
		at->gate_scale = eta.gate_sched > 0 ? eta.gate_meas / eta.gate_sched : 0;
		cdm_eta_left(cfg, eta.dirs, eta.ntests, at, &e);
		cdm_eta_format(&e, left, sizeof(left));
		if (at->phase != CDM_ETA_PREPARE)
			snprintf(pre, sizeof(pre), "test %u of %u", at->test + 1, eta.ntests);
	}
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int sep = 2; sep >= 1; sep--) {
			int len = snprintf(line, sizeof(line), "%s%*s%s%*s%s", pre,
					   pre[0] ? (int)sep : 0, "", alt[i],
					   left[0] ? (int)sep : 0, "", left);

			if (len > 0 && (size_t)len <= cols) {
				cdm_progress_show(cfg, "%s", line);
				return;
			}
		}
	/* the last body, words dropped from its end until it fits */
	room = cols > strlen(pre) + strlen(left) + 2 ? cols - strlen(pre) - strlen(left) - 2 : 0;
	snprintf(line, sizeof(line), "%s", alt[n - 1]);
	if (strlen(line) > room) {
		char *sp;
		size_t k;

		line[room] = '\0';
		sp = strrchr(line, ' ');
		*(sp ? sp : line) = '\0';
		/* "round 2/5: fdatasync" cut is "round 2/5", not "round 2/5:" */
		for (k = strlen(line); k && strchr(" :,", line[k - 1]); k--)
			line[k - 1] = '\0';
	}
	cdm_progress_show(cfg, "%s%s%s%s%s", pre, pre[0] ? " " : "", line, left[0] ? " " : "", left);
}

/* cdm_progress_line() with one body, formatted */
void cdm_progress_at(const struct cdm_run_config *cfg, struct cdm_eta_at *at,
		     const char *fmt, ...)
{
	char body[160];
	va_list ap;

	if (!cfg->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	cdm_progress_line(cfg, at, (const char *const[]){ body }, 1);
}

/*
 * The progress line's figure into @buf: the MB/s of the @bytes completed
 * in the last @ns, with @prec decimals (3: right-aligned in 10 columns);
 * when none completed, no figure but how long none has (@idle_ns, since
 * the last completion or the test's start): a window with nothing
 * measured is never a "0.000 MB/s" (docs/method.md).
 */
void cdm_progress_rate(char *buf, size_t len, uint64_t bytes, uint64_t ns, uint64_t idle_ns,
		       int prec)
{
	if (bytes && ns)
		snprintf(buf, len, "%*.*f MB/s", prec == 3 ? 10 : 0, prec,
			 (double)bytes / ((double)ns / 1e9) / 1e6);
	else
		snprintf(buf, len, "no I/O completed for %.1f s", (double)idle_ns / 1e9);
}

void cdm_progress_phase_start(uint64_t t0_ns)
{
	eta.phase_t0 = t0_ns;
}
