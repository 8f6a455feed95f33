/* SPDX-License-Identifier: MIT */
/*
 * exit.h - the exit status of every cdm command (cdm, cdm sweep, cdm
 * merge, cdm compare, cdm-mpi): one set, as cdm(1) "EXIT STATUS" and
 * docs/safety.md promise it.  Only cli/ chooses an exit status: the layers
 * below return -errno (base/err.h).
 *
 *	0        success (also --help, --version, --list-engines)
 *	1        the run failed: the target, the test file, an I/O error, an
 *	         engine that is not built in or does not work here, a
 *	         report that could not be written, or a test that measured
 *	         nothing (no I/O completed in its passes; cli.h,
 *	         cdm_cli_unmeasured())
 *	2        a usage or profile error: nothing was written to the target
 *	128 + N  interrupted by signal N (130 for Ctrl-C), as a shell reports it
 */
#ifndef CDM_CLI_EXIT_H
#define CDM_CLI_EXIT_H

#define CDM_EXIT_OK     0
#define CDM_EXIT_RUN    1
#define CDM_EXIT_USAGE  2

/* CDM_EXIT_SIGNAL - the status of a run stopped by signal @sig */
#define CDM_EXIT_SIGNAL(sig) (128 + (sig))

#endif /* CDM_CLI_EXIT_H */
