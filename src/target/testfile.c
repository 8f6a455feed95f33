/* SPDX-License-Identifier: MIT */
/*
 * testfile.c - the test file's life: its name (which says which host and
 * process made it), exclusive creation, preparation (pre-size and write
 * every byte), --keep and --file, removal, and the removal of files left
 * by killed runs.  A block device TARGET stands in for it (device.c opens
 * it).  The rules are in include/cdm/target/testfile.h and docs/safety.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cdm/base/clock.h"
#include "cdm/base/err.h"
#include "cdm/base/lfs.h"
#include "cdm/base/msg.h"
#include "cdm/base/prng.h"
#include "cdm/base/size.h"
#include "cdm/model/result.h"
#include "cdm/model/stamp.h"
#include "cdm/target/device.h"
#include "cdm/target/mountinfo.h"
#include "cdm/target/numa.h"
#include "cdm/target/testfile.h"

#define FILL_CHUNK (4u << 20)
/* --precondition: the writes in flight (threads of pwrite), see seq_write_pass() */
#define PRECOND_DEPTH 8u

/* cdm-mpi's rank, put in the file name after the host ("-r3"); -1: none */
static int name_rank = -1;

void cdm_testfile_set_rank(int rank)
{
	name_rank = rank;
}

/* is @host this host @me, or @me followed by cdm-mpi's "-r<rank>"? */
static int same_host(const char *host, const char *me)
{
	size_t n = strlen(me);

	if (!strcmp(host, me))
		return 1;
	if (strncmp(host, me, n) || host[n] != '-' || host[n + 1] != 'r' || !host[n + 2])
		return 0;
	return strspn(host + n + 2, "0123456789") == strlen(host + n + 2);
}

static void host_name(char *buf, size_t len)
{
	if (gethostname(buf, len) < 0 || !buf[0])
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
	/* a '/' would make the name a path; '-' is fine (parsed from the end) */
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = '_';
}

/*
 * Parse "cdm-<host>-<pid>-<hex>.tmp".  The host may contain '-', so pid and
 * random part are taken from the end.  Returns 1 and fills host/pid on a
 * match.
 */
static int parse_temp_name(const char *name, char *host, size_t host_len, pid_t *pid)
{
	size_t n = strlen(name);
	const char *end, *dash2, *dash1, *p;
	char *q;
	long v;

	if (n < 12 || strncmp(name, "cdm-", 4) != 0 || strcmp(name + n - 4, ".tmp") != 0)
		return 0;
	end = name + n - 4;
	for (dash2 = end - 1; dash2 > name + 4 && *dash2 != '-'; dash2--)
		;
	if (dash2 <= name + 4 || dash2 + 1 == end)
		return 0;
	for (p = dash2 + 1; p < end; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	for (dash1 = dash2 - 1; dash1 > name + 4 && *dash1 != '-'; dash1--)
		;
	if (dash1 <= name + 4 || dash1 + 1 == dash2)
		return 0;
	errno = 0;
	v = strtol(dash1 + 1, &q, 10);
	if (q != dash2 || errno || v <= 0 || v > INT_MAX)
		return 0;
	if ((size_t)(dash1 - (name + 4)) >= host_len)
		return 0;
	memcpy(host, name + 4, (size_t)(dash1 - (name + 4)));
	host[dash1 - (name + 4)] = '\0';
	*pid = (pid_t)v;
	return 1;
}

int cdm_testfile_clean_stale(const char *dir)
{
	char me[256], host[256], path[4400];
	struct dirent *de;
	DIR *d;
	int removed = 0, lfd;
	pid_t pid;

	host_name(me, sizeof(me));
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;

		if (!parse_temp_name(de->d_name, host, sizeof(host), &pid))
			continue;
		if (!same_host(host, me) || pid == getpid())
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;       /* alive, or not ours to judge (EPERM) */
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		/* only a file of this user (root may clean anyone's) */
		if (geteuid() != 0 && st.st_uid != geteuid())
			continue;
		/* a live run holds the lock, whatever its PID looks like here */
		lfd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (lfd < 0)
			continue;
		if (flock(lfd, LOCK_EX | LOCK_NB) < 0 && errno != ENOLCK && errno != EOPNOTSUPP) {
			close(lfd);
			continue;
		}
		if (unlink(path) == 0) {
			cdm_msg_note("removed %s, left by a cdm run (pid %d) that no longer exists",
				 path, (int)pid);
			removed++;
		}
		close(lfd);
	}
	closedir(d);
	return removed;
}

static uint64_t random_u64(void)
{
	uint64_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
			v = 0;
		close(fd);
	}
	if (!v)
		v = cdm_clock_now_ns() ^ ((uint64_t)getpid() << 32);
	return v;
}

/*
 * btrfs: copy-on-write turns every overwrite into an allocation, and
 * compression (mount option compress) makes the data written smaller than
 * the data counted.  FS_NOCOW_FL ("chattr +C") turns both off, and data
 * checksums with them, but only on a file that holds no data yet: this is
 * called on the empty file, before the first write.
 */
static void set_nocow(struct cdm_testfile *f, const struct cdm_target *t)
{
	int attr = 0;

	errno = 0;
	if (ioctl(f->fd, FS_IOC_GETFLAGS, &attr) == 0) {
		attr |= FS_NOCOW_FL;
		if (ioctl(f->fd, FS_IOC_SETFLAGS, &attr) == 0 &&
		    ioctl(f->fd, FS_IOC_GETFLAGS, &attr) == 0 && (attr & FS_NOCOW_FL)) {
			f->nocow = 1;
			cdm_msg_note("%s is on %s: the test file is NOCOW (as chattr +C: no copy-on-write, compression or checksums), so its blocks are rewritten in place",
				 t->path, t->fs_type);
			return;
		}
	}
	cdm_msg_warn("%s is on %s and the test file could not be made NOCOW (%s): copy-on-write and compression may distort the figures",
		 t->path, t->fs_type, strerror(errno ? errno : EOPNOTSUPP));
}

int cdm_testfile_open_device(struct cdm_testfile *f, const struct cdm_target *t,
			     uint64_t size, int writes, int direct, struct cdm_err *err)
{
	int fd;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->lock_fd = -1;
	f->size = size;
	f->device = 1;
	snprintf(f->path, sizeof(f->path), "%s", t->path);
	fd = cdm_device_open(t->path, &t->dev, writes, direct, err);
	if (fd < 0)
		return fd;
	f->fd = fd;
	return 0;
}

int cdm_testfile_create(struct cdm_testfile *f, const struct cdm_target *t,
			uint64_t size, int direct, struct cdm_err *err)
{
	char host[256];
	int fd, flags = O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->lock_fd = -1;
	f->size = size;
	host_name(host, sizeof(host));
	if (name_rank >= 0)
		snprintf(host + strlen(host), sizeof(host) - strlen(host), "-r%d", name_rank);
	snprintf(f->path, sizeof(f->path), "%s/cdm-%s-%d-%08" PRIx64 ".tmp",
		 t->path, host, (int)getpid(), random_u64() & 0xffffffffu);
	fd = open(f->path, flags, 0600);
	if (fd < 0)
		return cdm_err_set(err, -errno, "%s: cannot create test file: %s", f->path,
				   strerror(errno));
	f->created = 1;
	f->fd = fd;
	if (cdm_mountinfo_fs_kind(t->fs_type) == CDM_FS_COW)
		set_nocow(f, t);
	if (direct) {
		/*
		 * Reopen with O_DIRECT rather than creating with it: the file
		 * exists either way, and an EINVAL here can only mean the
		 * filesystem refuses O_DIRECT.
		 */
		int dfd = open(f->path, O_RDWR | O_DIRECT | O_CLOEXEC | O_NOFOLLOW);

		if (dfd < 0) {
			int e = errno;

			if (e == EINVAL)
				cdm_err_set(err, -e,
					    "%s: the %s filesystem does not support O_DIRECT; run with --buffered to measure through the page cache",
					    t->path, t->fs_type);
			else
				cdm_err_set(err, -e, "%s: cannot open with O_DIRECT: %s",
					    f->path, strerror(e));
			cdm_testfile_remove(f);
			return -e;
		}
		close(fd);
		f->fd = dfd;
	}
	/*
	 * Hold an exclusive lock for the whole run: a later run removes a
	 * stale file only if it can take this lock, so a live run's file is
	 * never removed, even from another PID namespace or another client
	 * of a shared mount whose hostname and PID happen to match.  The lock
	 * sits on its own open file, never handed to an engine: an io_uring
	 * ring that registered the I/O descriptor keeps it alive for a while
	 * after a kill -9, and the lock must die with the process.
	 */
	f->lock_fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (f->lock_fd >= 0 && flock(f->lock_fd, LOCK_EX | LOCK_NB) < 0 &&
	    errno != ENOLCK && errno != EOPNOTSUPP)
		cdm_msg_warn("%s: cannot lock the test file: %s", f->path, strerror(errno));
	return 0;
}

/*
 * One sequential write of the whole file, the one home of "write every
 * byte of the test file in order, with the run's data": the preparation
 * (cdm_testfile_fill(): 4 MiB writes, one at a time) and each pass of
 * --precondition (128 KiB writes, PRECOND_DEPTH in flight).  @depth
 * threads (the caller is one of them) take the next @block of the file
 * in turn from one cursor, so the writes reach the file in order, up to
 * @depth at a time, as an engine's sequential stream at Q = @depth does.
 */
struct seq_write {
	struct cdm_testfile *f;
	size_t block;
	int zero;
	int (*stop)(void);
	/* progress: the preparation's, or --precondition's with its pass */
	void (*fill_cb)(uint64_t done, uint64_t total);
	void (*pass_cb)(unsigned int pass, uint64_t done, uint64_t total);
	unsigned int pass;
	/* __atomic builtins: an _Atomic 64-bit field changes the i386 ABI's layout */
	uint64_t next;                  /* the next offset handed out */
	uint64_t done;                  /* bytes written */
	atomic_int halt;                /* a thread failed or saw a stop request */
	pthread_mutex_t lock;           /* fail_at, fail_errno */
	uint64_t fail_at;               /* the lowest offset that failed */
	int fail_errno;
	atomic_int stopped;             /* a thread saw @stop() say so */
	int nomem;                      /* the caller's buffer could not be had */
	/* --cpus: writer i on cdm_cpulist_thread_cpu() of these; ncpus 0: not pinned */
	const unsigned short *cpus;
	unsigned int ncpus;
	unsigned int ids;               /* writer numbers handed out (the caller's is 0) */
	int pin_errno;                  /* a writer could not be pinned (errno, lock) */
	unsigned int pin_writer, pin_cpu;
};

/* write @n bytes of @buf at @off whole (a short write is continued); 0 or errno */
static int write_whole(int fd, const char *buf, size_t n, uint64_t off, uint64_t *at)
{
	size_t put = 0;

	while (put < n) {
		ssize_t w = pwrite(fd, buf + put, n - put, (off_t)(off + put));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*at = off + put;
			return w < 0 ? errno : EIO;
		}
		put += (size_t)w;
	}
	return 0;
}

/* the progress callback of @s, if any, with @done of @total bytes written */
static void seq_write_progress(const struct seq_write *s, uint64_t done, uint64_t total)
{
	if (s->fill_cb)
		s->fill_cb(done, total);
	if (s->pass_cb)
		s->pass_cb(s->pass, done, total);
}

/*
 * --cpus: pin the calling writer, number @id, to its CPU as a worker
 * thread of the same number is (target/numa.h), @old as cdm_numa_pin()'s.
 * Returns 0, or -errno after halting the pass with the writer and CPU
 * that failed kept for the message.
 */
static int seq_write_pin(struct seq_write *s, unsigned int id, struct cdm_numa_saved *old)
{
	int e = cdm_numa_pin(s->cpus, s->ncpus, id, old);

	if (!e)
		return 0;
	pthread_mutex_lock(&s->lock);
	if (!s->pin_errno) {
		s->pin_errno = -e;
		s->pin_writer = id;
		s->pin_cpu = cdm_cpulist_thread_cpu(s->cpus, s->ncpus, id);
	}
	pthread_mutex_unlock(&s->lock);
	atomic_store(&s->halt, 1);
	return e;
}

/*
 * One writer's share of a sequential pass.  @main: the caller's, the one
 * that reports progress; without its buffer the pass fails (-ENOMEM),
 * while another thread without one leaves its share to the rest.
 */
static void seq_write_run(struct seq_write *s, int main)
{
	uint64_t state = random_u64() | 1, size = s->f->size, at = 0, shown = 0;
	void *buf;
	int e = 0;

	if (!main) {
		unsigned int id = __atomic_add_fetch(&s->ids, 1, __ATOMIC_RELAXED);
		char name[16];

		/* "cdm-p<i>" beside the workers' "cdm-w<i>" (top -H, /proc/PID/task) */
		snprintf(name, sizeof(name), "cdm-p%u", id);
		pthread_setname_np(pthread_self(), name);
		if (seq_write_pin(s, id, NULL))
			return;
	}
	buf = mmap(NULL, s->block, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		if (main) {
			s->nomem = 1;
			atomic_store(&s->halt, 1);
		}
		return;
	}
	while (!atomic_load(&s->halt)) {
		uint64_t off, done;
		size_t n;

		if (s->stop && s->stop()) {
			atomic_store(&s->stopped, 1);
			atomic_store(&s->halt, 1);
			break;
		}
		off = __atomic_fetch_add(&s->next, (uint64_t)s->block, __ATOMIC_RELAXED);
		if (off >= size)
			break;
		n = size - off < s->block ? (size_t)(size - off) : s->block;
		/* random, and each sector stamped as a write stamps it (model/stamp.h) */
		if (!s->zero) {
			cdm_prng_fill(buf, n / 8, &state);
			cdm_stamp_write(buf, n, off, CDM_STAMP_PREP, 0);
		}
		e = write_whole(s->f->fd, buf, n, off, &at);
		if (e)
			break;
		done = __atomic_add_fetch(&s->done, (uint64_t)n, __ATOMIC_RELAXED);
		/* every 4 MiB at most: a line per 128 KiB would flood a terminal */
		if (main && done - shown >= FILL_CHUNK && done < size) {
			shown = done;
			seq_write_progress(s, done, size);
		}
	}
	if (e) {
		atomic_store(&s->halt, 1);
		pthread_mutex_lock(&s->lock);
		if (!s->fail_errno || at < s->fail_at) {
			s->fail_at = at;
			s->fail_errno = e;
		}
		pthread_mutex_unlock(&s->lock);
	}
	munmap(buf, s->block);
}

static void *seq_write_thread(void *arg)
{
	seq_write_run(arg, 0);
	return NULL;
}

/*
 * Write the whole of @s->f once, in order, in @s->block writes, @depth at
 * a time, writer i (the caller is 0) pinned to its CPU with @s->ncpus.
 * Returns 0, -EINTR when @s->stop() said so (no message), -ENOMEM when
 * there was no buffer, -ECHILD when a writer could not be pinned
 * (@s->pin_errno and the rest say which), or an errno (positive) with
 * *@at the lowest offset that failed: every byte before it was written.
 */
static int seq_write_pass(struct seq_write *s, unsigned int depth, uint64_t *at)
{
	pthread_t th[PRECOND_DEPTH];
	struct cdm_numa_saved old;
	unsigned int started = 0;

	s->next = s->done = 0;
	atomic_init(&s->halt, 0);
	atomic_init(&s->stopped, 0);
	s->fail_errno = s->nomem = s->pin_errno = 0;
	s->ids = 0;
	pthread_mutex_init(&s->lock, NULL);
	if (depth > PRECOND_DEPTH)
		depth = PRECOND_DEPTH;
	/* the caller is writer 0: on its CPU for the pass, then as it was */
	if (seq_write_pin(s, 0, &old) == 0) {
		/* a thread that cannot be made leaves its share to the others */
		while (started + 1 < depth &&
		       pthread_create(&th[started], NULL, seq_write_thread, s) == 0)
			started++;
		seq_write_run(s, 1);
	}
	for (unsigned int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	cdm_numa_unpin(&old);
	pthread_mutex_destroy(&s->lock);
	if (s->pin_errno)
		return -ECHILD;         /* the caller reads pin_errno */
	/* the end, whichever thread wrote the last block */
	if (!s->nomem && !s->fail_errno && !atomic_load(&s->stopped))
		seq_write_progress(s, s->f->size, s->f->size);
	if (s->nomem)
		return -ENOMEM;
	if (s->fail_errno) {
		*at = s->fail_at;
		return s->fail_errno;
	}
	return atomic_load(&s->stopped) ? -EINTR : 0;
}

/*
 * Why a write of the preparation (@pass 0) or of --precondition's pass
 * @pass failed at byte @at; returns -@e.
 */
static int fill_failed(const struct cdm_testfile *f, uint64_t at, int e, unsigned int pass,
		       struct cdm_err *err)
{
	char sz[32], got[32], which[48] = "";

	cdm_size_format(f->size, sz, sizeof(sz));
	cdm_size_format(at & ~(CDM_MIB - 1), got, sizeof(got));
	if (at < CDM_MIB)
		snprintf(got, sizeof(got), "%" PRIu64 " bytes", at);
	if (pass)
		snprintf(which, sizeof(which), " (preconditioning, pass %u of %u)", pass,
			 CDM_TESTFILE_PRECOND_PASSES);
	if (e == ENOSPC)
		return cdm_err_set(err, -e, "%s: no space left after writing %s of the %s test file%s",
				   f->path, got, sz, which);
	if (pass)
		return cdm_err_set(err, -e, "%s: preconditioning the test file failed at offset %" PRIu64 " (pass %u of %u): %s",
				   f->path, at, pass, CDM_TESTFILE_PRECOND_PASSES, strerror(e));
	return cdm_err_set(err, -e, "%s: preparing the test file failed at offset %" PRIu64 ": %s",
			   f->path, at, strerror(e));
}

/* pre-size a new file (fallocate); a device has its size already.  0 or -ENOSPC */
static int presize(struct cdm_testfile *f, struct cdm_err *err)
{
	char sz[32];

	if (f->device || fallocate(f->fd, 0, 0, (off_t)f->size) == 0)
		return 0;
	/* not supported here (EOPNOTSUPP): writing the file sizes it */
	if (errno != ENOSPC)
		return 0;
	cdm_size_format(f->size, sz, sizeof(sz));
	return cdm_err_set(err, -ENOSPC, "%s: no space left to pre-size a %s test file",
			   f->path, sz);
}

int cdm_testfile_fill(struct cdm_testfile *f, int zero,
		      void (*progress)(uint64_t done, uint64_t total),
		      int (*stop)(void), struct cdm_err *err)
{
	struct seq_write s = {
		.f = f, .block = FILL_CHUNK, .zero = zero, .stop = stop, .fill_cb = progress,
	};
	uint64_t at = 0;
	int ret = presize(f, err);

	if (ret < 0)
		return ret;
	ret = seq_write_pass(&s, 1, &at);
	if (ret == -ENOMEM)
		return cdm_err_set(err, -ENOMEM, "cannot allocate %u MiB for preparing the test file",
				   FILL_CHUNK >> 20);
	if (ret > 0)
		return fill_failed(f, at, ret, 0, err);
	if (!ret && fdatasync(f->fd) < 0)
		ret = cdm_err_set(err, -errno, "%s: fdatasync: %s", f->path, strerror(errno));
	if (!ret)
		f->data = zero ? CDM_FILE_DATA_ZERO : CDM_FILE_DATA_RANDOM;
	return ret;
}

int cdm_testfile_precondition(struct cdm_testfile *f, int zero, int fresh,
			      const unsigned short *cpus, unsigned int ncpus,
			      void (*progress)(unsigned int pass, uint64_t done, uint64_t total),
			      int (*stop)(void), struct cdm_err *err)
{
	struct seq_write s = {
		.f = f, .block = CDM_TESTFILE_PRECOND_BLOCK, .zero = zero, .stop = stop,
		.pass_cb = progress, .cpus = cpus, .ncpus = ncpus,
	};
	uint64_t at = 0;
	int ret = fresh ? presize(f, err) : 0;

	for (unsigned int pass = 1; !ret && pass <= CDM_TESTFILE_PRECOND_PASSES; pass++) {
		s.pass = pass;
		if (progress)
			progress(pass, 0, f->size);
		ret = seq_write_pass(&s, PRECOND_DEPTH, &at);
		if (ret == -ECHILD)
			return cdm_err_set(err, -s.pin_errno, "%s: preconditioning: writer thread %u cannot be pinned to CPU %u (--cpus): %s",
					   f->path, s.pin_writer + 1, s.pin_cpu, strerror(s.pin_errno));
		if (ret == -ENOMEM)
			return cdm_err_set(err, -ENOMEM, "cannot allocate %u KiB for preconditioning the test file",
					   CDM_TESTFILE_PRECOND_BLOCK >> 10);
		if (ret > 0)
			return fill_failed(f, at, ret, pass, err);
		/*
		 * Each pass reaches the device before the next starts: through
		 * the page cache the second pass would overwrite the first's
		 * dirty pages and the device would see the file once.
		 */
		if (!ret && fdatasync(f->fd) < 0)
			ret = cdm_err_set(err, -errno, "%s: fdatasync (preconditioning, pass %u of %u): %s",
					  f->path, pass, CDM_TESTFILE_PRECOND_PASSES, strerror(errno));
	}
	if (!ret)
		f->data = zero ? CDM_FILE_DATA_ZERO : CDM_FILE_DATA_RANDOM;
	return ret;
}

#define MARK_XATTR "user.cdm.testfile"

/*
 * The mark names the size and the inode: a copy of a kept file (even one
 * that copied its extended attributes) is a different inode, so it is not
 * taken for a file cdm made.  After them, the data the file holds
 * (" data=random", " data=zero"; none in a mark from before it was
 * recorded, and with @data CDM_FILE_DATA_UNKNOWN).
 */
static void mark_text(char *buf, size_t len, uint64_t size, uint64_t ino, int data)
{
	const char *d = cdm_result_file_data_key(data);

	snprintf(buf, len, "cdm test file v2 size=%" PRIu64 " ino=%" PRIu64 "%s%s", size, ino,
		 d ? " data=" : "", d ? d : "");
}

/*
 * The sidecar "<kept>.cdm", for a filesystem without user xattrs: created
 * exclusively (never over another file) and removed again when it cannot
 * be written whole.  Returns 0 or -errno.
 */
static int write_sidecar(const char *side, const char *mark)
{
	char line[128];
	ssize_t w;
	size_t n;
	int fd, e = 0;

	snprintf(line, sizeof(line), "%s\n", mark);
	n = strlen(line);
	fd = open(side, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	w = write(fd, line, n);
	if (w != (ssize_t)n)
		e = w < 0 ? errno : EIO;
	if (!e && fsync(fd) < 0)
		e = errno;
	if (close(fd) < 0 && !e)
		e = errno;
	if (e)
		unlink(side);
	return -e;
}

/*
 * rename(2) that never replaces a file at @to: RENAME_NOREPLACE, or where
 * the filesystem or the kernel lacks it, a check just before a plain
 * rename.  The system call itself: musl has no renameat2() wrapper.
 */
static int rename_noreplace(const char *from, const char *to)
{
	struct stat st;

#ifdef SYS_renameat2
	if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
#endif
	if (lstat(to, &st) == 0)
		return -EEXIST;
	return rename(from, to) < 0 ? -errno : 0;
}

/*
 * Mark first, then rename: a file is never under its .keep name without
 * the mark that lets --file take it, so a failure at any step leaves the
 * .tmp file, which the caller removes (f->created stays 1).
 */
int cdm_testfile_keep(struct cdm_testfile *f, struct cdm_err *err)
{
	char kept[sizeof(f->path)], mark[128], side[sizeof(f->path) + 8];
	size_t n = strlen(f->path);
	struct stat st;
	int ret, sidecar = 0;

	if (!f->created || n < 4)
		return cdm_err_set(err, -EINVAL, "%s: not a test file this run created", f->path);
	snprintf(kept, sizeof(kept), "%.*s.keep", (int)(n - 4), f->path);
	snprintf(side, sizeof(side), "%s.cdm", kept);
	if (fstat(f->fd, &st) < 0)
		return cdm_err_set(err, -errno, "%s: cannot keep the test file: %s", f->path,
				   strerror(errno));
	mark_text(mark, sizeof(mark), f->size, (uint64_t)st.st_ino, f->data);
	if (fsetxattr(f->fd, MARK_XATTR, mark, strlen(mark), 0) < 0) {
		int e = errno;

		/*
		 * Only a filesystem without user xattrs gets a sidecar: has_mark()
		 * trusts one nowhere else, so a sidecar written after, say,
		 * ENOSPC or EDQUOT would keep a file --file refuses.
		 */
		if (e != ENOTSUP)
			return cdm_err_set(err, -e, "%s: cannot keep the test file: cannot set its mark (xattr %s): %s",
					   f->path, MARK_XATTR, strerror(e));
		ret = write_sidecar(side, mark);
		if (ret < 0)
			return cdm_err_set(err, ret, "%s: cannot keep the test file: the filesystem has no user xattrs and the mark file %s cannot be written: %s",
					   f->path, side, strerror(-ret));
		sidecar = 1;
	}
	ret = rename_noreplace(f->path, kept);
	if (ret < 0) {
		if (sidecar)
			unlink(side);
		return cdm_err_set(err, ret, "%s: cannot keep the test file: cannot rename it to %s: %s",
				   f->path, kept, strerror(-ret));
	}
	snprintf(f->path, sizeof(f->path), "%s", kept);
	f->created = 0;         /* kept: never removed by cdm from now on */
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	return 0;
}

/*
 * Does @path carry cdm's mark for its size and inode?  The extended
 * attribute; the sidecar only where the filesystem has no user xattrs
 * (so a hand-made sidecar cannot vouch for a file on ext4 or xfs).  The
 * data the mark names after them into *@data (CDM_FILE_DATA_UNKNOWN for
 * a mark from before it).
 */
static int has_mark(const char *path, int fd, const struct stat *st, int *data)
{
	char want[128], got[160], side[4500];
	ssize_t n;
	FILE *fp;
	size_t len;

	*data = CDM_FILE_DATA_UNKNOWN;
	mark_text(want, sizeof(want), (uint64_t)st->st_size, (uint64_t)st->st_ino,
		  CDM_FILE_DATA_UNKNOWN);
	n = fgetxattr(fd, MARK_XATTR, got, sizeof(got) - 1);
	if (n >= 0) {
		got[n] = '\0';
	} else {
		if (errno != ENOTSUP)
			return 0;
		snprintf(side, sizeof(side), "%s.cdm", path);
		if (!(fp = fopen(side, "re")))
			return 0;
		if (!fgets(got, sizeof(got), fp))
			got[0] = '\0';
		fclose(fp);
		got[strcspn(got, "\n")] = '\0';
	}
	len = strlen(want);
	if (strncmp(got, want, len))
		return 0;
	return !got[len] || (!strncmp(got + len, " data=", 6) &&
			     !cdm_result_file_data_parse(got + len + 6, data));
}

/*
 * The first unwritten extent before @size (FIEMAP_EXTENT_UNWRITTEN:
 * allocated by fallocate and never written, read back as zeros without a
 * device read), into *@at.  Returns 1 when there is one, else 0 (also
 * where the filesystem has no FIEMAP: tmpfs, FUSE).
 */
static int first_unwritten_extent(int fd, uint64_t size, uint64_t *at)
{
	union {
		struct fiemap fm;
		char buf[sizeof(struct fiemap) + 64 * sizeof(struct fiemap_extent)];
	} u;
	uint64_t start = 0;

	while (start < size) {
		/* the whole buffer: memcheck cannot see FIEMAP fill the extents */
		memset(&u, 0, sizeof(u));
		u.fm.fm_start = start;
		u.fm.fm_length = size - start;
		u.fm.fm_flags = FIEMAP_FLAG_SYNC;       /* delayed allocation settled first */
		u.fm.fm_extent_count = 64;
		if (ioctl(fd, FS_IOC_FIEMAP, &u.fm) < 0 || !u.fm.fm_mapped_extents)
			return 0;
		for (unsigned int i = 0; i < u.fm.fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &u.fm.fm_extents[i];

			if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN) {
				*at = e->fe_logical > start ? e->fe_logical : start;
				return 1;
			}
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				return 0;
			start = e->fe_logical + e->fe_length;
		}
	}
	return 0;
}

/*
 * The first byte before @size that reads without a device read: a hole
 * (SEEK_HOLE; a file truncated and extended again, or punched) or an
 * unwritten extent, whichever comes first (ext4's SEEK_HOLE counts an
 * unwritten extent as a hole too: FIEMAP names it).  Returns 1 with *@at
 * (bytes) and *@what ("a hole", "an unwritten extent") set, or 0 when the
 * whole file is written data or the filesystem cannot tell.
 */
static int find_unwritten(int fd, uint64_t size, uint64_t *at, const char **what)
{
	off_t h = lseek(fd, 0, SEEK_HOLE);
	uint64_t u;
	int has_u = first_unwritten_extent(fd, size, &u);

	if (has_u && (h < 0 || u <= (uint64_t)h)) {
		*at = u;
		*what = "an unwritten extent";
		return 1;
	}
	if (h >= 0 && (uint64_t)h < size) {
		*at = (uint64_t)h;
		*what = "a hole";
		return 1;
	}
	return 0;
}

int cdm_testfile_reuse(struct cdm_testfile *f, const char *path, int writes, int direct,
		       struct cdm_err *err)
{
	struct stat st;
	int fd;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->lock_fd = -1;
	snprintf(f->path, sizeof(f->path), "%s", path);
	/* what it is, before any read-write open (a device may react to one) */
	if (lstat(path, &st) < 0)
		return cdm_err_set(err, -errno, "%s: %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode))
		return cdm_err_set(err, -EINVAL, "%s: a block device is a TARGET, not a --file: cdm %s",
				   path, path);
	if (!S_ISREG(st.st_mode))
		return cdm_err_set(err, -EINVAL, "%s: not a regular file (a test file kept by --keep is expected)",
				   path);
	fd = open(path, (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
		  (direct ? O_DIRECT : 0));
	if (fd < 0) {
		int e = errno;

		if (e == EINVAL && direct)
			return cdm_err_set(err, -e, "%s: this filesystem does not support O_DIRECT; run with --buffered",
					   path);
		return cdm_err_set(err, -e, "%s: cannot open the test file: %s", path, strerror(e));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return cdm_err_set(err, -EINVAL, "%s: not a regular file", path);
	}
	if (!has_mark(path, fd, &st, &f->data)) {
		close(fd);
		return cdm_err_set(err, -EPERM,
				   "%s: not a test file that cdm prepared and kept (--keep), or its size changed; cdm writes only to files it made",
				   path);
	}
	/* the lock on its own open file, as in cdm_testfile_create() */
	f->lock_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (f->lock_fd >= 0 && flock(f->lock_fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		close(f->lock_fd);
		f->lock_fd = -1;
		close(fd);
		return cdm_err_set(err, -EBUSY, "%s: in use by another cdm run", path);
	}
	f->fd = fd;
	f->size = (uint64_t)st.st_size;
	f->created = 0;         /* the user's to keep: never removed */
	f->unwritten = find_unwritten(fd, f->size, &f->unwritten_at, &f->unwritten_what);
	return 0;
}

int cdm_testfile_remove(struct cdm_testfile *f)
{
	int ret = 0;

	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	/* unlink first, then drop the lock: no window for another run */
	if (f->created && unlink(f->path) < 0 && errno != ENOENT)
		ret = -errno;
	f->created = 0;
	if (f->lock_fd >= 0)
		close(f->lock_fd);
	f->lock_fd = -1;
	return ret;
}
