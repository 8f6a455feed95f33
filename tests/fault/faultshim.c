/* SPDX-License-Identifier: MIT */
/*
 * faultshim.c - an LD_PRELOAD library for cdm's tests only (never linked
 * into cdm): makes one kind of I/O call fail, or come back short, after a
 * given number of calls, so the fault paths of cdm can be tested on a
 * healthy disk.  It covers the calls of the sync engine, the test-file
 * preparation and the libaio engine; io_uring enters the kernel through
 * its own ring and is not covered.
 *
 * Controlled by one variable:
 *
 *   CDM_FAULT=<call>:<fault>:<after>[:<len>]
 *
 *   call   pwrite, pread, fallocate, fdatasync, io_getevents (libaio
 *          completions: the I/O fails or is short), io_submit (libaio
 *          submission: the call fails; short is not supported), io_setup
 *          (libaio context: fails, as when fs.aio-max-nr is reached),
 *          fsetxattr (--keep's mark), nomark (--keep's mark on a
 *          filesystem without user xattrs: fsetxattr fails with ENOTSUP
 *          and creating the sidecar "*.cdm" fails with the fault)
 *   fault  an errno name (ENOSPC, EIO, EINVAL, EAGAIN, EROFS, ENODEV,
 *          ENOTSUP),
 *          or "short": half the bytes are transferred (a short
 *          pread/pwrite, or a short libaio completion),
 *          or "busy" (io_submit only): the kernel takes only the first
 *          iocb of a batch, and refuses the next call with EAGAIN, in
 *          turn, as an AIO queue with no room left does
 *   after  how many matching calls (or libaio completions) succeed first
 *   len    count only calls of exactly this many bytes (e.g. 4096 for the
 *          4 KiB I/Os of a test, 4194304 for the 4 MiB writes of the
 *          preparation), so that one phase can be aimed at
 *
 * Once the fault has struck it strikes every later matching call, as a
 * full or failing disk would.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#ifdef CDM_HAVE_LIBAIO
#include <libaio.h>
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

enum call {
	C_NONE, C_PWRITE, C_PREAD, C_FALLOCATE, C_FDATASYNC, C_GETEVENTS, C_SUBMIT, C_SETUP,
	C_FSETXATTR, C_NOMARK,
};

static enum call fcall;
static int ferrno;              /* 0 = short transfer */
static long fafter;
static unsigned long flen;      /* 0 = any length */
static atomic_long seen;

__attribute__((constructor)) static void fault_init(void)
{
	const char *v = getenv("CDM_FAULT");
	char call[32], kind[32];
	long after = 0;
	unsigned long len = 0;

	if (!v || sscanf(v, "%31[^:]:%31[^:]:%ld:%lu", call, kind, &after, &len) < 3)
		return;
	if (!strcmp(kind, "short"))
		ferrno = 0;
	else if (!strcmp(kind, "busy"))
		ferrno = -1;
	else if (!strcmp(kind, "ENOSPC"))
		ferrno = ENOSPC;
	else if (!strcmp(kind, "EIO"))
		ferrno = EIO;
	else if (!strcmp(kind, "EINVAL"))
		ferrno = EINVAL;
	else if (!strcmp(kind, "EAGAIN"))
		ferrno = EAGAIN;
	else if (!strcmp(kind, "EROFS"))
		ferrno = EROFS;
	else if (!strcmp(kind, "ENODEV"))
		ferrno = ENODEV;
	else if (!strcmp(kind, "ENOTSUP"))
		ferrno = ENOTSUP;
	else
		return;
	if (!strcmp(call, "pwrite"))
		fcall = C_PWRITE;
	else if (!strcmp(call, "pread"))
		fcall = C_PREAD;
	else if (!strcmp(call, "fallocate"))
		fcall = C_FALLOCATE;
	else if (!strcmp(call, "fdatasync"))
		fcall = C_FDATASYNC;
	else if (!strcmp(call, "io_getevents"))
		fcall = C_GETEVENTS;
	else if (!strcmp(call, "io_submit"))
		fcall = C_SUBMIT;
	else if (!strcmp(call, "io_setup"))
		fcall = C_SETUP;
	else if (!strcmp(call, "fsetxattr"))
		fcall = C_FSETXATTR;
	else if (!strcmp(call, "nomark"))
		fcall = C_NOMARK;
	fafter = after;
	flen = len;
}

/* does this call (of @len bytes) get the fault? */
static int strikes(enum call c, unsigned long len)
{
	if (c != fcall || (flen && len != flen))
		return 0;
	return atomic_fetch_add(&seen, 1) >= fafter;
}

static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "faultshim: no %s\n", name);
		abort();
	}
	return f;
}

static ssize_t do_pwrite(int fd, const void *buf, size_t n, off_t off, const char *sym)
{
	ssize_t (*f)(int, const void *, size_t, off_t) = real(sym);

	if (strikes(C_PWRITE, n)) {
		if (ferrno) {
			errno = ferrno;
			return -1;
		}
		return f(fd, buf, n / 2 & ~(size_t)511, off);
	}
	return f(fd, buf, n, off);
}

static ssize_t do_pread(int fd, void *buf, size_t n, off_t off, const char *sym)
{
	ssize_t (*f)(int, void *, size_t, off_t) = real(sym);

	if (strikes(C_PREAD, n)) {
		if (ferrno) {
			errno = ferrno;
			return -1;
		}
		return f(fd, buf, n / 2 & ~(size_t)511, off);
	}
	return f(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return do_pwrite(fd, buf, n, off, "pwrite");
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	return do_pwrite(fd, buf, n, off, "pwrite64");
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return do_pread(fd, buf, n, off, "pread");
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return do_pread(fd, buf, n, off, "pread64");
}

static int do_fallocate(int fd, int mode, off_t off, off_t len, const char *sym)
{
	int (*f)(int, int, off_t, off_t) = real(sym);

	if (strikes(C_FALLOCATE, (unsigned long)len)) {
		errno = ferrno ? ferrno : EIO;
		return -1;
	}
	return f(fd, mode, off, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	return do_fallocate(fd, mode, off, len, "fallocate");
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
	return do_fallocate(fd, mode, off, len, "fallocate64");
}

int fdatasync(int fd)
{
	int (*f)(int) = real("fdatasync");

	if (strikes(C_FDATASYNC, 0)) {
		errno = ferrno ? ferrno : EIO;
		return -1;
	}
	return f(fd);
}

/* --keep's mark: the extended attribute */
int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags)
{
	int (*f)(int, const char *, const void *, size_t, int) = real("fsetxattr");

	if (fcall == C_NOMARK) {
		errno = ENOTSUP;
		return -1;
	}
	if (strikes(C_FSETXATTR, 0)) {
		errno = ferrno ? ferrno : EIO;
		return -1;
	}
	return f(fd, name, value, size, flags);
}

/* ENOTSUP (no user xattrs here) holds for reading the mark too */
ssize_t fgetxattr(int fd, const char *name, void *value, size_t size)
{
	ssize_t (*f)(int, const char *, void *, size_t) = real("fgetxattr");

	if (fcall == C_NOMARK || (fcall == C_FSETXATTR && ferrno == ENOTSUP)) {
		errno = ENOTSUP;
		return -1;
	}
	return f(fd, name, value, size);
}

/* nomark: creating a "*.cdm" sidecar fails; every other open goes through */
static int do_open(int dirfd, const char *path, int flags, mode_t mode, const char *sym)
{
	size_t n = strlen(path);

	if (fcall == C_NOMARK && (flags & O_CREAT) && n > 4 && !strcmp(path + n - 4, ".cdm") &&
	    strikes(C_NOMARK, 0)) {
		errno = ferrno ? ferrno : EIO;
		return -1;
	}
	if (dirfd == -1000) {
		int (*f)(const char *, int, ...) = real(sym);

		return f(path, flags, mode);
	} else {
		int (*f)(int, const char *, int, ...) = real(sym);

		return f(dirfd, path, flags, mode);
	}
}

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;

	va_start(ap, flags);
	m = open_mode(flags, ap);
	va_end(ap);
	return do_open(-1000, path, flags, m, "open");
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;

	va_start(ap, flags);
	m = open_mode(flags, ap);
	va_end(ap);
	return do_open(-1000, path, flags, m, "open64");
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;

	va_start(ap, flags);
	m = open_mode(flags, ap);
	va_end(ap);
	return do_open(dirfd, path, flags, m, "openat");
}

#ifdef CDM_HAVE_LIBAIO
/* libaio: completions are changed after the kernel delivered them */
int io_getevents(io_context_t ctx, long min, long max, struct io_event *ev,
		 struct timespec *timeout)
{
	int (*f)(io_context_t, long, long, struct io_event *, struct timespec *) =
		real("io_getevents");
	int n = f(ctx, min, max, ev, timeout);

	for (int i = 0; i < n; i++) {
		struct iocb *cb = ev[i].obj;
		unsigned long len = cb ? cb->u.c.nbytes : 0;

		if ((long)ev[i].res < 0 || !strikes(C_GETEVENTS, len))
			continue;
		ev[i].res = ferrno ? (unsigned long)-(long)ferrno : len / 2;
	}
	return n;
}
/* libaio: the submission itself fails (libaio returns -errno) */
int io_submit(io_context_t ctx, long n, struct iocb **cbs)
{
	int (*f)(io_context_t, long, struct iocb **) = real("io_submit");
	unsigned long len = n > 0 && cbs[0] ? cbs[0]->u.c.nbytes : 0;

	static atomic_long turn;

	if (strikes(C_SUBMIT, len)) {
		if (ferrno >= 0)
			return -(ferrno ? ferrno : EIO);
		/* busy: one iocb taken, then no room, in turn */
		if (atomic_fetch_add(&turn, 1) % 2)
			return -EAGAIN;
		return f(ctx, n > 1 ? 1 : n, cbs);
	}
	return f(ctx, n, cbs);
}
/* libaio: a context cannot be set up */
int io_setup(int n, io_context_t *ctx)
{
	int (*f)(int, io_context_t *) = real("io_setup");

	if (strikes(C_SETUP, 0))
		return -(ferrno ? ferrno : EAGAIN);
	return f(n, ctx);
}
#endif /* CDM_HAVE_LIBAIO */
