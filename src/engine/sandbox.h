/* SPDX-License-Identifier: MIT */
/*
 * sandbox.h - private to the engines: what /proc/self/status says about the
 * sandbox this process runs in, so that a probe can name who refused a
 * system call (src/engine/sandbox.c).
 */
#ifndef CDM_ENGINE_SANDBOX_H
#define CDM_ENGINE_SANDBOX_H

#include <stdint.h>

/*
 * cdm_sandbox_seccomp_filtered - is a seccomp filter installed on this
 * process (the "Seccomp:" line of /proc/self/status is 2, SECCOMP_MODE_FILTER;
 * a container runtime's profile is one)?  Filters are inherited, so this
 * sees those of every ancestor too.  Used to name the cause when a system
 * call is refused with EPERM.  Returns 1, or 0 (also when /proc is missing).
 */
int cdm_sandbox_seccomp_filtered(void);

/*
 * cdm_sandbox_memlock_limit - is memory this process locks or pins (an
 * io_uring ring, registered buffers) charged against a finite
 * RLIMIT_MEMLOCK?  Not for a process with CAP_IPC_LOCK in its effective set
 * (the kernel's rule: mm/mlock.c, io_uring/rsrc.c), nor with no limit.
 * Returns 1 and sets *@bytes to the limit (the soft one, ulimit -l, in
 * bytes), or 0.  When /proc cannot be read the capability counts as absent.
 */
int cdm_sandbox_memlock_limit(uint64_t *bytes);

#endif /* CDM_ENGINE_SANDBOX_H */
