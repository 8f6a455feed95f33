/* SPDX-License-Identifier: MIT */
/*
 * faultshim.c - an LD_PRELOAD library for cdm's tests only (never linked
 * into cdm): makes one kind of I/O call fail, or come back short, after a
 * given number of calls, so the fault paths of cdm can be tested on a
 * healthy disk.  It covers the calls of the sync engine, the test-file
 * preparation and the libaio engine; io_uring enters the kernel through
 * its own ring and is not covered.
 *
 * Controlled by one variable, one fault or several separated by commas
 * (each counts its own calls):
 *
 *   CDM_FAULT=<call>:<fault>:<after>[:<len>[:<times>]][,<call>:<fault>:<after>...]
 *
 *   call   pwrite, pread, fallocate, fdatasync, io_getevents (libaio
 *          completions: the I/O fails or is short), io_submit (libaio
 *          submission: the call fails; short is not supported), io_setup
 *          (libaio context: fails, as when fs.aio-max-nr is reached),
 *          fsetxattr (--keep's mark), flock (the test file's lock,
 *          taken just after its creation) and fsync (an output file's,
 *          before its rename), "hold" only, sqpoll (io_uring: a ring set
 *          up with SQPOLL, as liburing's io_uring_queue_init_params is
 *          asked for one, fails: a kernel or sandbox that refuses the
 *          submission thread), nomark (--keep's mark on a
 *          filesystem without user xattrs: fsetxattr fails with ENOTSUP
 *          and creating the sidecar "*.cdm" fails with the fault)
 *   fault  an errno name (ENOSPC, EIO, EINVAL, EAGAIN, EROFS, ENODEV,
 *          ENOTSUP, EPERM),
 *          or "short": half the bytes are transferred (a short
 *          pread/pwrite, or a short libaio completion),
 *          or "busy" (io_submit only): the kernel takes only the first
 *          iocb of a batch, and refuses the next call with EAGAIN, in
 *          turn, as an AIO queue with no room left does,
 *          or, for --verify's tests, a write that reports success but does
 *          not do what it says (pwrite, and io_submit: each iocb counts):
 *          "misdirect" writes it to the block before (offset - length;
 *          after, offset + length, at offset 0), "drop" writes nothing,
 *          "torn" writes its first half only (whole 512-byte sectors),
 *          or "hold" (pwrite, pread, flock, fsync): the call waits until the test lets
 *          it go, then is done as asked, so that a phase of cdm lasts
 *          until the test has watched it from outside (which CPU its
 *          threads run on) however slow the machine: the first call held
 *          creates the file <call>[-<len>].held in the directory
 *          $CDM_FAULT_HOLD ("pwrite-4096.held", "pread.held"), and every
 *          call the fault covers waits until <call>[-<len>].go is there
 *          (looked for every millisecond; after 120 s the calls go on, so
 *          that a test that never answers cannot hang cdm), then the
 *          fault is spent
 *          or "term" (pread, pwrite): SIGTERM is raised during the call,
 *          which then completes (a stop request at a known point, once)
 *   after  how many matching calls (or libaio completions) succeed first
 *   len    count only calls of exactly this many bytes (e.g. 4096 for the
 *          4 KiB I/Os of a test, 4194304 for the 4 MiB writes of the
 *          preparation), so that one phase can be aimed at; 0: any
 *   times  strike only this many calls, then let them succeed again (an
 *          AIO queue that has room again); 0 or absent: no end
 *
 * Once the fault has struck it strikes every later matching call (up to
 * <times>), as a full or failing disk would; misdirect, drop and torn
 * strike once.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#ifdef CDM_HAVE_LIBAIO
#include <libaio.h>
#endif
#ifdef CDM_HAVE_LIBURING
#include <liburing.h>
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

enum call {
	C_NONE, C_PWRITE, C_PREAD, C_FALLOCATE, C_FDATASYNC, C_GETEVENTS, C_SUBMIT, C_SETUP,
	C_FSETXATTR, C_NOMARK, C_FLOCK, C_FSYNC, C_SQPOLL,
};

/* the faults that report success: ferrno values below any errno */
enum { F_BUSY = -1, F_MISDIRECT = -2, F_DROP = -3, F_TORN = -4, F_TERM = -5, F_HOLD = -100 };

#define NFAULTS 4

static struct fault {
	enum call call;
	int err;                /* an errno; 0 = short transfer; or F_* */
	long after;
	unsigned long len;      /* 0 = any length */
	long times;             /* calls struck, then no more; 0 = no end */
	atomic_long seen;
	char name[64];          /* hold: "<call>[-<len>]", its files' name */
	atomic_int released;    /* hold: the test let the calls go */
} faults[NFAULTS];
static unsigned int nfaults;

/* one "<call>:<fault>:<after>[:<len>[:<times>]]" into faults[nfaults]; 0 or -1 */
static int fault_parse(const char *v)
{
	struct fault *f = &faults[nfaults];
	char call[32], kind[32];
	long after = 0, times = 0;
	unsigned long len = 0;
	int ferr;

	if (sscanf(v, "%31[^:]:%31[^:]:%ld:%lu:%ld", call, kind, &after, &len, &times) < 3)
		return -1;
	if (!strcmp(kind, "short"))
		ferr = 0;
	else if (!strcmp(kind, "busy"))
		ferr = F_BUSY;
	else if (!strcmp(kind, "misdirect"))
		ferr = F_MISDIRECT;
	else if (!strcmp(kind, "drop"))
		ferr = F_DROP;
	else if (!strcmp(kind, "torn"))
		ferr = F_TORN;
	else if (!strcmp(kind, "hold"))
		ferr = F_HOLD;
	else if (!strcmp(kind, "term"))
		ferr = F_TERM;
	else if (!strcmp(kind, "ENOSPC"))
		ferr = ENOSPC;
	else if (!strcmp(kind, "EIO"))
		ferr = EIO;
	else if (!strcmp(kind, "EINVAL"))
		ferr = EINVAL;
	else if (!strcmp(kind, "EAGAIN"))
		ferr = EAGAIN;
	else if (!strcmp(kind, "EROFS"))
		ferr = EROFS;
	else if (!strcmp(kind, "ENODEV"))
		ferr = ENODEV;
	else if (!strcmp(kind, "ENOTSUP"))
		ferr = ENOTSUP;
	else if (!strcmp(kind, "EPERM"))
		ferr = EPERM;
	else
		return -1;
	if (!strcmp(call, "pwrite"))
		f->call = C_PWRITE;
	else if (!strcmp(call, "pread"))
		f->call = C_PREAD;
	else if (!strcmp(call, "fallocate"))
		f->call = C_FALLOCATE;
	else if (!strcmp(call, "fdatasync"))
		f->call = C_FDATASYNC;
	else if (!strcmp(call, "io_getevents"))
		f->call = C_GETEVENTS;
	else if (!strcmp(call, "io_submit"))
		f->call = C_SUBMIT;
	else if (!strcmp(call, "io_setup"))
		f->call = C_SETUP;
	else if (!strcmp(call, "fsetxattr"))
		f->call = C_FSETXATTR;
	else if (!strcmp(call, "nomark"))
		f->call = C_NOMARK;
	else if (!strcmp(call, "sqpoll") && ferr > 0)
		f->call = C_SQPOLL;
	else if (!strcmp(call, "flock") && ferr == F_HOLD)
		f->call = C_FLOCK;
	else if (!strcmp(call, "fsync") && ferr == F_HOLD)
		f->call = C_FSYNC;
	else
		return -1;
	f->err = ferr;
	f->after = after;
	f->len = len;
	f->times = times;
	if (len)
		snprintf(f->name, sizeof(f->name), "%s-%lu", call, len);
	else
		snprintf(f->name, sizeof(f->name), "%s", call);
	nfaults++;
	return 0;
}

__attribute__((constructor)) static void fault_init(void)
{
	const char *v = getenv("CDM_FAULT");

	while (v && *v && nfaults < NFAULTS && fault_parse(v) == 0) {
		v = strchr(v, ',');
		v = v ? v + 1 : NULL;
	}
}

/* strike()'s @want: the faults a call site handles */
enum { ANY, LYING, FAILING };

/* the fault (of the kinds @want) that strikes this call (of @len bytes), or NULL */
static struct fault *strike(enum call c, unsigned long len, int want)
{
	struct fault *hit = NULL;

	/* every fault of the call counts it, whichever strikes */
	for (unsigned int i = 0; i < nfaults; i++) {
		struct fault *f = &faults[i];
		long n;

		if (c != f->call || (f->len && len != f->len) || f->err == F_HOLD ||
		    (want == LYING && f->err > F_MISDIRECT) || (want == FAILING && f->err <= F_MISDIRECT))
			continue;
		n = atomic_fetch_add(&f->seen, 1);
		/* the lying writes strike once; the others from then on */
		if (!hit && (f->err <= F_MISDIRECT ? n == f->after :
			     n >= f->after && (!f->times || n < f->after + f->times)))
			hit = f;
	}
	return hit;
}

/* is a fault of @call, with error @err (0: any), asked for? */
static int asked(enum call c, int err)
{
	for (unsigned int i = 0; i < nfaults; i++)
		if (faults[i].call == c && (!err || faults[i].err == err))
			return 1;
	return 0;
}

/* the errno a failing fault @f sets: its own, or @dflt for "short" */
static int err_of(const struct fault *f, int dflt)
{
	return f->err > 0 ? f->err : dflt;
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

/*
 * "hold": a call of @c (of @len bytes) that a hold fault covers waits for
 * the test's <name>.go in $CDM_FAULT_HOLD, the first one held saying so
 * with <name>.held; once the test answers (or 120 s on) no call waits.
 */
static void hold(enum call c, unsigned long len)
{
	for (unsigned int i = 0; i < nfaults; i++) {
		struct fault *f = &faults[i];
		const char *dir = getenv("CDM_FAULT_HOLD");
		char held[4096], go[4096];
		int fd;

		if (f->err != F_HOLD || c != f->call || (f->len && len != f->len) ||
		    atomic_load(&f->released))
			continue;
		if (atomic_fetch_add(&f->seen, 1) < f->after)
			return;
		if (!dir)
			dir = ".";
		snprintf(held, sizeof(held), "%s/%s.held", dir, f->name);
		snprintf(go, sizeof(go), "%s/%s.go", dir, f->name);
		fd = open(held, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
		for (unsigned int ms = 0; ms < 120000 && access(go, F_OK) != 0; ms++)
			usleep(1000);
		atomic_store(&f->released, 1);
		return;
	}
}

/* a lying write: where it lands, and how much of it (misdirect, drop, torn) */
static void lie(int err, off_t *off, size_t *n)
{
	if (err == F_MISDIRECT)
		*off = *off >= (off_t)*n ? *off - (off_t)*n : *off + (off_t)*n;
	else if (err == F_DROP)
		*n = 0;
	else if (err == F_TORN)
		*n = *n / 2 & ~(size_t)511;
}

static ssize_t do_pwrite(int fd, const void *buf, size_t n, off_t off, const char *sym)
{
	ssize_t (*f)(int, const void *, size_t, off_t) = real(sym);
	struct fault *ft;

	hold(C_PWRITE, n);
	ft = strike(C_PWRITE, n, ANY);

	/* "term": a stop request arrives during this write, which then completes */
	if (ft && ft->err == F_TERM) {
		raise(SIGTERM);
		return f(fd, buf, n, off);
	}
	if (ft && ft->err <= F_MISDIRECT) {
		size_t len = n;
		ssize_t r;

		lie(ft->err, &off, &len);
		r = len ? f(fd, buf, len, off) : 0;
		return r < 0 ? r : (ssize_t)n;
	}
	if (ft) {
		if (ft->err) {
			errno = ft->err;
			return -1;
		}
		return f(fd, buf, n / 2 & ~(size_t)511, off);
	}
	return f(fd, buf, n, off);
}

static ssize_t do_pread(int fd, void *buf, size_t n, off_t off, const char *sym)
{
	ssize_t (*f)(int, void *, size_t, off_t) = real(sym);
	struct fault *ft;

	hold(C_PREAD, n);
	ft = strike(C_PREAD, n, LYING);
	/* "term": a stop request arrives during this read, which then completes */
	if (ft && ft->err == F_TERM)
		raise(SIGTERM);
	ft = strike(C_PREAD, n, FAILING);

	if (ft) {
		if (ft->err) {
			errno = ft->err;
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

	struct fault *ft = strike(C_FALLOCATE, (unsigned long)len, FAILING);

	if (ft) {
		errno = err_of(ft, EIO);
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

	struct fault *ft = strike(C_FDATASYNC, 0, FAILING);

	if (ft) {
		errno = err_of(ft, EIO);
		return -1;
	}
	return f(fd);
}

/* the test file's lock and an output's fsync: "hold" only */
int flock(int fd, int op)
{
	int (*f)(int, int) = real("flock");

	hold(C_FLOCK, 0);
	return f(fd, op);
}

int fsync(int fd)
{
	int (*f)(int) = real("fsync");

	hold(C_FSYNC, 0);
	return f(fd);
}

/* --keep's mark: the extended attribute */
int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags)
{
	int (*f)(int, const char *, const void *, size_t, int) = real("fsetxattr");

	struct fault *ft;

	if (asked(C_NOMARK, 0)) {
		errno = ENOTSUP;
		return -1;
	}
	ft = strike(C_FSETXATTR, 0, FAILING);
	if (ft) {
		errno = err_of(ft, EIO);
		return -1;
	}
	return f(fd, name, value, size, flags);
}

/* ENOTSUP (no user xattrs here) holds for reading the mark too */
ssize_t fgetxattr(int fd, const char *name, void *value, size_t size)
{
	ssize_t (*f)(int, const char *, void *, size_t) = real("fgetxattr");

	if (asked(C_NOMARK, 0) || asked(C_FSETXATTR, ENOTSUP)) {
		errno = ENOTSUP;
		return -1;
	}
	return f(fd, name, value, size);
}

/* nomark: creating a "*.cdm" sidecar fails; every other open goes through */
static int do_open(int dirfd, const char *path, int flags, mode_t mode, const char *sym)
{
	size_t n = strlen(path);
	struct fault *ft;

	if (asked(C_NOMARK, 0) && (flags & O_CREAT) && n > 4 && !strcmp(path + n - 4, ".cdm") &&
	    (ft = strike(C_NOMARK, 0, FAILING))) {
		errno = err_of(ft, EIO);
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
/* a torn write in flight (io_submit's torn fault) and the length it claims */
static struct iocb *_Atomic torn_cb;
static unsigned long torn_len;

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
		struct fault *ft;

		/* a torn write (io_submit) says it wrote all */
		if (cb && cb == torn_cb && ev[i].res == len) {
			ev[i].res = torn_len;
			torn_cb = NULL;
			continue;
		}
		if ((long)ev[i].res < 0 || !(ft = strike(C_GETEVENTS, len, FAILING)))
			continue;
		ev[i].res = ft->err ? (unsigned long)-(long)ft->err : len / 2;
	}
	return n;
}

/*
 * The lying faults on the writes of a batch, each iocb counted: misdirect
 * moves its offset, drop makes it a read of the same bytes (it completes
 * in full and writes nothing), torn halves it and io_getevents() reports
 * the whole.
 */
static void lie_iocbs(long n, struct iocb **cbs)
{
	for (long i = 0; i < n; i++) {
		struct iocb *cb = cbs[i];
		struct fault *ft;

		if (!cb || cb->aio_lio_opcode != IO_CMD_PWRITE ||
		    !(ft = strike(C_SUBMIT, cb->u.c.nbytes, LYING)))
			continue;
		if (ft->err == F_DROP) {
			cb->aio_lio_opcode = IO_CMD_PREAD;
		} else if (ft->err == F_TORN) {
			torn_cb = cb;
			torn_len = cb->u.c.nbytes;
			cb->u.c.nbytes = cb->u.c.nbytes / 2 & ~511ul;
		} else {
			off_t off = (off_t)cb->u.c.offset;
			size_t len = cb->u.c.nbytes;

			lie(ft->err, &off, &len);
			cb->u.c.offset = (long long)off;
		}
	}
}
/* libaio: the submission itself fails (libaio returns -errno) */
int io_submit(io_context_t ctx, long n, struct iocb **cbs)
{
	int (*f)(io_context_t, long, struct iocb **) = real("io_submit");
	unsigned long len = n > 0 && cbs[0] ? cbs[0]->u.c.nbytes : 0;

	static atomic_long turn;
	struct fault *ft;

	if (n > 0 && cbs)
		lie_iocbs(n, cbs);
	ft = strike(C_SUBMIT, len, FAILING);
	if (ft) {
		if (ft->err >= 0)
			return -err_of(ft, EIO);
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

	struct fault *ft = strike(C_SETUP, 0, FAILING);

	if (ft)
		return -err_of(ft, EAGAIN);
	return f(n, ctx);
}
#endif /* CDM_HAVE_LIBAIO */

#ifdef CDM_HAVE_LIBURING
/* io_uring: a ring with SQPOLL cannot be set up (liburing's entry point) */
int io_uring_queue_init_params(unsigned int entries, struct io_uring *ring,
			       struct io_uring_params *p)
{
	int (*f)(unsigned int, struct io_uring *, struct io_uring_params *) =
		real("io_uring_queue_init_params");
	struct fault *ft = NULL;

	if (p && (p->flags & IORING_SETUP_SQPOLL))
		ft = strike(C_SQPOLL, 0, FAILING);
	if (ft)
		return -err_of(ft, EPERM);
	return f(entries, ring, p);
}
#endif /* CDM_HAVE_LIBURING */
