/* SPDX-License-Identifier: MIT */
/*
 * sig.h - the fault signals, shared by the files that must not outlive a
 * cdm that one of them ends: the test file (run/runner.c) and an output's
 * temporary (target/outfile.c).  Header only.
 */
#ifndef CDM_BASE_SIG_H
#define CDM_BASE_SIG_H

#include <signal.h>

/*
 * The fault signals: synchronous ones the kernel sends to the thread that
 * faulted (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGSYS, SIGTRAP), and SIGABRT
 * (abort()).  Each may also be sent with kill(2).  Their default action
 * ends the process (docs/safety.md, section 4).
 */
#define CDM_FAULT_SIGNALS { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP }

/*
 * cdm_sig_add_faults - add the fault signals to @set (sigaddset(3)).
 *
 * For a short window of system calls in which a file exists that a
 * signal's handler cannot yet find (created, not yet registered; written,
 * not yet renamed): blocked there, a fault signal sent with kill(2) waits
 * until the window ends and then ends cdm with the file accounted for.  A
 * real fault while it is blocked kills the process at once, as the kernel
 * does (no handler runs): keep such windows to system calls.
 */
static inline void cdm_sig_add_faults(sigset_t *set)
{
	static const int sigs[] = CDM_FAULT_SIGNALS;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
}

#endif /* CDM_BASE_SIG_H */
