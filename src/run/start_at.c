/* SPDX-License-Identifier: MIT */
/*
 * start_at.c - --start-at: parse the time, and hold each test until its
 * scheduled wall-clock start (include/cdm/run/start_at.h has the
 * schedule).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cdm/base/clock.h"
#include "cdm/base/date.h"
#include "cdm/base/err.h"
#include "cdm/base/msec.h"
#include "cdm/base/msg.h"
#include "cdm/run/start_at.h"

#define TICK_NS 100000000ull
#define LATE_NS 50000000ull     /* later than this is worth a note */

static int digits(const char *s, int n, unsigned int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		*v = *v * 10 + (unsigned int)(s[i] - '0');
	}
	return 0;
}

int cdm_start_at_parse(const char *s, uint64_t now_ns, uint64_t *out_ns)
{
	uint64_t frac = 0, scale = 100000000ull;
	struct cdm_date dt;
	const char *p;
	int64_t t;

	if (s[0] == '+') {
		char *end;
		unsigned long long v, mul = 1;

		if (s[1] < '0' || s[1] > '9')
			return -EINVAL;
		errno = 0;
		v = strtoull(s + 1, &end, 10);
		if (errno)
			return -EINVAL;
		if (!strcmp(end, "m"))
			mul = 60;
		else if (!strcmp(end, "h"))
			mul = 3600;
		else if (strcmp(end, "s") && *end)
			return -EINVAL;
		if (v > 7ull * 24 * 3600 / mul)
			return -EINVAL;         /* a week ahead at most */
		*out_ns = now_ns + v * mul * 1000000000ull;
		return 0;
	}
	/* 2026-12-01T22:00:00Z */
	if (strlen(s) < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
	    s[13] != ':' || s[16] != ':' || digits(s, 4, &dt.year) || digits(s + 5, 2, &dt.month) ||
	    digits(s + 8, 2, &dt.day) || digits(s + 11, 2, &dt.hour) || digits(s + 14, 2, &dt.min) ||
	    digits(s + 17, 2, &dt.sec))
		return -EINVAL;
	p = s + 19;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -EINVAL;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			frac += (uint64_t)(*p - '0') * scale;
			scale /= 10;
		}
	}
	if (strcmp(p, "Z") && strcmp(p, "z") && strcmp(p, "+00:00"))
		return -EINVAL;
	/*
	 * 31 February is no day; a second 60 is the next minute's first, but
	 * 23:59:60, which ends the day, is refused (as timegm() and its check
	 * of the day did)
	 */
	if (dt.year < 1970 || cdm_date_to_unix(&dt, &t) ||
	    (dt.hour == 23 && dt.min == 59 && dt.sec == 60))
		return -EINVAL;
	*out_ns = (uint64_t)t * 1000000000ull + frac;
	return 0;
}

void cdm_start_at_plan(struct cdm_start_at *sa, const struct cdm_run_config *cfg)
{
	uint64_t ms = (uint64_t)cfg->warmup_ms + (uint64_t)cfg->count * cfg->time_ms +
		      cfg->interval_ms + CDM_START_AT_SLACK_S * 1000ull;

	sa->period_ns = ms * CDM_MSEC_NS;
}

static int sleep_until_wall(uint64_t until)
{
	for (;;) {
		uint64_t now = cdm_clock_wall_ns(), next;
		struct timespec ts;

		if (cdm_runner_stop_requested())
			return -EINTR;
		if (now >= until)
			return 0;
		next = until - now > TICK_NS ? now + TICK_NS : until;
		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
	}
}

int cdm_start_at_sync(void *arg, unsigned int step, int status, struct cdm_err *err)
{
	struct cdm_start_at *sa = arg;
	uint64_t now = cdm_clock_wall_ns(), at;

	if (status)
		return status;
	if (step == 0) {
		if (now > sa->start_ns)
			return cdm_err_set(err, -ETIME,
					   "--start-at %s: the test file was ready %.3f s after that time, so the passes would not overlap with the other hosts'; give a later time (or a smaller --size)",
					   sa->text, (double)(now - sa->start_ns) / 1e9);
		return 0;
	}
	at = sa->start_ns + (uint64_t)(step - 1) * sa->period_ns;
	if (now > at + LATE_NS)
		cdm_msg_note("--start-at: test %u started %.3f s after its scheduled time; its passes overlap the other hosts' only in part",
			 step, (double)(now - at) / 1e9);
	return sleep_until_wall(at);
}
