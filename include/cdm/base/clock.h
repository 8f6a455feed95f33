/* SPDX-License-Identifier: MIT */
/*
 * clock.h - the two clocks cdm reads, in ns.  Header only: both are vDSO
 * calls and sit on the I/O hot path.
 */
#ifndef CDM_BASE_CLOCK_H
#define CDM_BASE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_REALTIME in ns: wall clock, for times shown or compared across hosts */
static inline uint64_t cdm_clock_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC in ns (vDSO: no system call); every duration cdm measures */
static inline uint64_t cdm_clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif /* CDM_BASE_CLOCK_H */
