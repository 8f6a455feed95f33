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

/*
 * cdm_cpulist_thread_cpu - the CPU thread @i (from 0) of a group runs on
 * when pinned to the @n CPUs @cpus (n >= 1): cpus[i % n], round-robin
 * over the list, fio's cpus_allowed_policy=split.  The one home of the
 * rule: worker threads (run/worker.c), --precondition's writers
 * (target/testfile.c), the read-back of --verify (thread 0), and the
 * messages and run info that name the CPUs.
 */
static inline unsigned int cdm_cpulist_thread_cpu(const unsigned short *cpus, unsigned int n,
						  unsigned int i)
{
	return cpus[i % n];
}

/*
 * cdm_cpulist_threads_cpus - how many CPUs of a list of @n the threads
 * 0 .. @threads - 1 run on by cdm_cpulist_thread_cpu(): the first
 * min(@threads, @n) of the list, each once.
 */
static inline unsigned int cdm_cpulist_threads_cpus(unsigned int n, unsigned int threads)
{
	return threads < n ? threads : n;
}

#endif /* CDM_BASE_CPULIST_H */
