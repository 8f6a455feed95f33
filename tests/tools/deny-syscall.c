/* SPDX-License-Identifier: MIT */
/*
 * deny-syscall.c - a launcher for cdm's tests only: installs a seccomp
 * filter that makes the named system calls fail with EPERM, as a
 * container's seccomp profile does, then runs a command.  This lets the
 * tests check how cdm names an engine the kernel does not permit, without
 * touching a system-wide switch such as kernel.io_uring_disabled (other
 * programs on the machine use io_uring).
 *
 *   deny-syscall io_uring_setup[,io_setup] COMMAND [ARG...]
 *
 * Known names: io_uring_setup, io_setup.  Exits 125 if the filter cannot
 * be installed, 127 if COMMAND cannot be run.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "deny-syscall: add this architecture's AUDIT_ARCH_ value"
#endif

static long sysno(const char *name)
{
	if (!strcmp(name, "io_uring_setup"))
		return __NR_io_uring_setup;
	if (!strcmp(name, "io_setup"))
		return __NR_io_setup;
	return -1;
}

int main(int argc, char **argv)
{
	struct sock_filter f[16];
	struct sock_fprog prog;
	unsigned int n = 0;
	long nr[4];
	unsigned int nnr = 0;
	char list[128], *tok, *save = NULL;

	if (argc < 3) {
		fprintf(stderr, "usage: deny-syscall NAME[,NAME] COMMAND [ARG...]\n");
		return 125;
	}
	snprintf(list, sizeof(list), "%s", argv[1]);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (nnr == 4 || (nr[nnr] = sysno(tok)) < 0) {
			fprintf(stderr, "deny-syscall: unknown system call '%s'\n", tok);
			return 125;
		}
		nnr++;
	}
	/* another architecture's calls pass untouched; ours are checked */
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (unsigned int i = 0; i < nnr; i++) {
		/* equal: fall through to the EPERM below this pair */
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned int)nr[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
		perror("deny-syscall: seccomp");
		return 125;
	}
	execvp(argv[2], argv + 2);
	perror("deny-syscall: exec");
	return 127;
}
