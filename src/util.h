/* SPDX-License-Identifier: MIT */
/*
 * util.h - small private helpers shared by cdm's sources: the clock and the
 * one-line messages on stderr.  Not part of the public contract.
 */
#ifndef CDM_UTIL_H
#define CDM_UTIL_H

#include <stdint.h>
#include <time.h>

/* CLOCK_REALTIME in ns: wall clock, for times shown or compared across hosts */
static inline uint64_t cdm_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC in ns (vDSO: no system call). */
static inline uint64_t cdm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * cdm_error - print "cdm: <message>" on stderr; returns -1 so that
 * `return cdm_error(...)` is one line (git's error()).
 * cdm_warn - "cdm: warning: <message>".  cdm_note - "cdm: note: <message>".
 * Messages start lowercase, name their subject, and have no full stop.
 */
int cdm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cdm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cdm_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * cdm_progress_clear - erase the progress line on stderr, if one is shown,
 * before a message is printed.  Set by the progress display.
 */
extern void (*cdm_progress_clear)(void);

/*
 * cdm_msg_tag - when not empty, printed after "cdm: " in every message:
 * cdm-mpi sets it to "rank 2 (host): " so a message names its rank.
 */
extern char cdm_msg_tag[96];

#endif /* CDM_UTIL_H */
