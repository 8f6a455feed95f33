/* SPDX-License-Identifier: MIT */
/*
 * signals.c - the run's stop flag, set by the signals that would end the
 * process, and the fault handlers that unlink the test file before
 * handing a fault on (signals.h; docs/safety.md, section 4).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cdm/base/sig.h"
#include "cdm/target/fileguard.h"
#include "cdm/target/testfile.h"
#include "signals.h"

/* the signal that asked the run to stop, or 0; the workers read it too */
static atomic_int stop_signal;
/* the stop signals received so far (a second one can end cdm at once) */
static atomic_int stop_count;

void cdm_signals_request_stop(int sig)
{
	int expected = 0;

	/* the first signal wins; a lock-free atomic is async-signal-safe */
	atomic_compare_exchange_strong(&stop_signal, &expected, sig);
}

static void on_signal(int sig)
{
	/* cdm's own writes to a closed pipe raise SIGPIPE: never a user's second signal */
	if (sig != SIGPIPE)
		atomic_fetch_add(&stop_count, 1);
	cdm_signals_request_stop(sig);
}

/*
 * The signals whose default action ends the process, and what cdm does
 * with each (docs/safety.md, section 4, has the table).  STOP ones ask the
 * run to stop cleanly, as SIGINT does: the I/O in flight completes, the
 * test file is removed, the rows so far are reported, the exit status is
 * 128 + N.  SIGPIPE is one of them, so a write to a closed pipe returns
 * EPIPE instead of killing cdm.  FAULT ones say cdm itself went wrong:
 * on_fault() removes the test file and hands the signal on.
 */
static const int stop_sigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
static const int fault_sigs[] = CDM_FAULT_SIGNALS;
#define NFAULT (sizeof(fault_sigs) / sizeof(fault_sigs[0]))

/* what a fault signal did before cdm's handler, to hand it on */
static struct sigaction fault_old[NFAULT];
/* the test file on_fault() removes: set while cdm owns a .tmp file */
static char fault_path[sizeof(((struct cdm_testfile *)0)->path)];
static volatile sig_atomic_t fault_armed;
/* ... and, once known, its directory held open and identity (fileguard.h) */
static struct cdm_fileguard fault_guard = { .dirfd = -1 };
static volatile sig_atomic_t fault_guarded;

/*
 * Async-signal-safe: unlink the armed test file, through the directory
 * held open when that still holds this very file (the target moved or
 * was renamed meanwhile), else by its path.  Once.
 */
static void remove_armed(void)
{
	struct stat st;

	if (!fault_armed)
		return;
	fault_armed = 0;
	if (fault_guarded && fstatat(fault_guard.dirfd, fault_guard.name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == fault_guard.dev && st.st_ino == fault_guard.ino &&
	    unlinkat(fault_guard.dirfd, fault_guard.name, 0) == 0)
		return;
	unlink(fault_path);
}
/* an alternate stack, so that a stack overflow can still remove the file */
static char fault_stack[64 * 1024];

/*
 * Async-signal-safe: unlink the test file, put the previous action back,
 * and let it take the signal: a fault (si_code > 0) happens again when
 * the handler returns; a signal sent (kill, abort) is raised again.
 */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	int e = errno;

	(void)uc;
	remove_armed();
	for (size_t i = 0; i < NFAULT; i++)
		if (fault_sigs[i] == sig)
			sigaction(sig, &fault_old[i], NULL);
	if (!si || si->si_code <= 0)
		raise(sig);
	errno = e;
}

/* the test file at @path is cdm's to remove if cdm crashes (NULL: none) */
void cdm_signals_fault_arm(const char *path)
{
	fault_armed = 0;
	fault_guarded = 0;
	atomic_signal_fence(memory_order_seq_cst);
	if (path) {
		snprintf(fault_path, sizeof(fault_path), "%s", path);
		atomic_signal_fence(memory_order_seq_cst);
		fault_armed = 1;
	}
}

void cdm_signals_fault_guard(const struct cdm_fileguard *g)
{
	fault_guarded = 0;
	atomic_signal_fence(memory_order_seq_cst);
	if (g && g->dirfd >= 0) {
		fault_guard = *g;
		atomic_signal_fence(memory_order_seq_cst);
		fault_guarded = 1;
	}
}

static int install_faults(void)
{
	struct sigaction sa;
	stack_t ss;

	/* keep an alternate stack already set up (the sanitizers' own) */
	if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
		ss.ss_sp = fault_stack;
		ss.ss_size = sizeof(fault_stack);
		ss.ss_flags = 0;
		sigaltstack(&ss, NULL);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFAULT; i++) {
		if (sigaction(fault_sigs[i], NULL, &fault_old[i]) < 0)
			return -errno;
		/* one ignored from the start stays ignored (a fault ends cdm anyway) */
		if (!(fault_old[i].sa_flags & SA_SIGINFO) && fault_old[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(fault_sigs[i], &sa, NULL) < 0)
			return -errno;
	}
	return 0;
}

int cdm_signals_install(void)
{
	static int installed;
	struct sigaction sa;

	/* once: a second time would save cdm's own handler as the previous */
	if (installed)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a sleep or a blocking write returns EINTR at once */
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		if (sigaction(stop_sigs[i], &sa, NULL) < 0)
			return -errno;
	/* best effort: a tool (valgrind) may keep some real-time signals */
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	installed = 1;
	return install_faults();
}

int cdm_signals_stop_requested(void)
{
	return atomic_load(&stop_signal);
}

int cdm_signals_stop_cb(void)
{
	return cdm_signals_stop_requested() != 0;
}

/* sleep until CLOCK_MONOTONIC @until_ns, or a stop request */
void cdm_signals_sleep_until(uint64_t until_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(until_ns / 1000000000ull),
		.tv_nsec = (long)(until_ns % 1000000000ull),
	};

	/* a signal interrupts the sleep (EINTR): the caller re-checks */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

atomic_int *cdm_signals_stop_flag(void)
{
	return &stop_signal;
}

int cdm_signals_armed(void)
{
	return fault_armed;
}

int cdm_signals_stop_count(void)
{
	return atomic_load(&stop_count);
}

void cdm_signals_exit_now(void)
{
	int sig = atomic_load(&stop_signal);

	remove_armed();
	_exit(128 + (sig > 0 ? sig : SIGINT));
}
