/* SPDX-License-Identifier: MIT */
/*
 * cpulist.h - lists of CPU numbers in the kernel's "cpulist" form, as
 * taskset -c, cpuset.cpus, /sys/devices/system/cpu/online and fio's
 * cpus_allowed write them: "0-3,8", "1", "0,2-3", and the kernel's
 * stride "0-15:2/4" (of each group of 4 CPUs from 0 to 15, the first 2:
 * 0-1,4-5,8-9,12-13; Documentation/admin-guide/kernel-parameters.rst,
 * "cpu lists").  One parser and one printer, for --cpus and for the
 * lists sysfs and the run info carry.
 */
#ifndef CDM_BASE_CPULIST_H
#define CDM_BASE_CPULIST_H

#include <stddef.h>

struct cdm_err;

/* CPU numbers a list holds at most: 0 .. 1023, glibc's CPU_SETSIZE */
#define CDM_CPULIST_MAX 1024

/*
 * cdm_cpulist_parse - the CPU list @text ("0-3,8") into @cpus, sorted
 * upward with each CPU once, and their number into *@n.  Items are a CPU
 * number, a range A-B (A <= B), or a range with a stride A-B:USED/GROUP
 * (1 <= USED <= GROUP), separated by commas; numbers are decimal, with no
 * sign or space.  A CPU may be named twice ("0-3,2").  @limit (at most
 * 65536) is one past the highest CPU allowed, and @cpus has room for
 * @limit numbers.
 * Returns 0; -EINVAL with "an empty list", "'x' is not a CPU number",
 * "the range 3-1 runs downward" or "the stride ':3/2' ..." in @err (may
 * be NULL); -ERANGE with "CPU 1024 is past the highest CPU cdm can use,
 * 1023" in @err.  The caller puts the option or file in front.
 */
int cdm_cpulist_parse(const char *text, unsigned int limit, unsigned short *cpus,
		      unsigned int *n, struct cdm_err *err);

/*
 * cdm_cpulist_format - the @n CPUs @cpus (sorted upward, each once, as
 * cdm_cpulist_parse() leaves them) as the shortest cpulist, the kernel's
 * canonical one: a run of two or more consecutive CPUs as A-B, the rest
 * one by one, comma separated ("0-3,8"; no CPU: "").  Writes at most
 * @len bytes including the NUL to @buf; when the list does not fit, it
 * ends after the last whole item that fits, with ",..." (or is "..."
 * when none fits), and -ENOSPC is returned; else 0.  @len must be at
 * least 5.
 */
int cdm_cpulist_format(const unsigned short *cpus, unsigned int n, char *buf, size_t len);

#endif /* CDM_BASE_CPULIST_H */
