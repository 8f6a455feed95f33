/* SPDX-License-Identifier: MIT */
/*
 * sandbox.c - what confines this process, read from /proc/self/status and
 * getrlimit(), for the engines' probes: a system call refused with EPERM
 * under a seccomp filter is "blocked by seccomp", not "refused by the
 * kernel", and io_uring's memory counts against RLIMIT_MEMLOCK only for a
 * process without CAP_IPC_LOCK.  The engine layer's own, so that engines
 * need nothing from the layers above them.
 */
#include <inttypes.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cdm/base/file.h"
#include "sandbox.h"

/* the value after "@key:" in /proc/self/status; 0, or < 0 when missing */
static int status_field(const char *key, char *val, size_t len)
{
	return cdm_file_read_field("/proc/self/status", key, val, len);
}

int cdm_sandbox_seccomp_filtered(void)
{
	char val[32];

	return status_field("Seccomp", val, sizeof(val)) == 0 && !strcmp(val, "2");
}

/* is capability @cap in this process's effective set ("CapEff:", hex)? */
static int has_cap(unsigned int cap)
{
	uint64_t mask;
	char val[32];

	if (status_field("CapEff", val, sizeof(val)) < 0 || sscanf(val, "%" SCNx64, &mask) != 1)
		return 0;
	return cap < 64 && (mask >> cap) & 1;
}

int cdm_sandbox_memlock_limit(uint64_t *bytes)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (has_cap(CAP_IPC_LOCK))
		return 0;
	*bytes = (uint64_t)rl.rlim_cur;
	return 1;
}
