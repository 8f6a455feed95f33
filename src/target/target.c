/* SPDX-License-Identifier: MIT */
/*
 * target.c - the target directory and the test file: checks made before
 * anything is created, exclusive creation, preparation (pre-size and write
 * every byte), removal, and the removal of files left by killed runs.
 * The rules are in include/cdm/target.h and design.md's "Safety rules".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cdm/base/size.h"
#include "cdm/target/device.h"
#include "cdm/target/mountinfo.h"
#include "cdm/model/spec.h"
#include "cdm/target/sysinfo.h"
#include "cdm/target/target.h"
#include "cdm/base/clock.h"
#include "cdm/base/msg.h"

#define FILL_CHUNK (4u << 20)

/* is mount point @mp a path prefix of @path, component-wise? */
static size_t mount_prefix(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, n) != 0)
		return 0;
	if (path[n] != '\0' && path[n] != '/')
		return 0;
	return n;
}

/*
 * Find the mount holding @real (a canonical path): the longest matching
 * mount point, the later line winning on a tie (a mount over a mount).
 */
static void find_mount(const char *real, struct cdm_target *t)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0, best = 0;

	snprintf(t->mount_point, sizeof(t->mount_point), "%s", real);
	snprintf(t->fs_type, sizeof(t->fs_type), "unknown");
	t->mount_source[0] = '\0';
	if (!fp)
		return;
	while (getline(&line, &cap, fp) > 0) {
		char mp[4096], type[32], src[4096];
		unsigned int ma, mi;
		size_t n;

		if (cdm_mountinfo_parse(line, &ma, &mi, mp, sizeof(mp), type, src, sizeof(src)) < 0)
			continue;
		n = mount_prefix(mp, real);
		if (n && n >= best) {
			best = n;
			snprintf(t->mount_point, sizeof(t->mount_point), "%s", mp);
			snprintf(t->fs_type, sizeof(t->fs_type), "%s", type);
			snprintf(t->mount_source, sizeof(t->mount_source), "%s", src);
		}
	}
	free(line);
	fclose(fp);
}

enum cdm_fs_kind cdm_fs_kind(const char *type)
{
	/* network and cluster filesystems whose client caches file data */
	static const char *const net[] = {
		"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "virtiofs",
		"glusterfs", "lustre", "gpfs", "beegfs", "afs", "coda", "ncpfs",
		"orangefs", "pvfs2", "vboxsf", "vmhgfs", "ocfs2", "gfs2", NULL,
	};

	if (!strcmp(type, "tmpfs") || !strcmp(type, "ramfs"))
		return CDM_FS_MEMORY;
	/* "fuse", "fuseblk", and "fuse.<subtype>" (fuse.sshfs, fuse.ceph-fuse) */
	if (!strcmp(type, "fuse") || !strcmp(type, "fuseblk") || !strncmp(type, "fuse.", 5))
		return CDM_FS_FUSE;
	for (size_t i = 0; net[i]; i++)
		if (!strcmp(type, net[i]))
			return CDM_FS_NETWORK;
	if (!strcmp(type, "btrfs"))
		return CDM_FS_COW;
	return CDM_FS_DISK;
}

/* a block device TARGET: its size and sectors; nothing else applies */
static int probe_device(const char *path, uint64_t size, struct cdm_target *t,
			char *err, size_t err_len)
{
	char want[32], have[32];
	int r = cdm_blockdev_query(path, &t->dev);

	if (r <= 0) {
		r = r ? r : -ENODEV;
		snprintf(err, err_len, "%s: cannot open the block device: %s", path, strerror(-r));
		return r;
	}
	t->is_device = 1;
	snprintf(t->mount_point, sizeof(t->mount_point), "%s", path);
	t->fs_type[0] = '\0';
	t->total_bytes = t->dev.size;
	t->avail_bytes = t->dev.size;
	if (size > t->dev.size) {
		cdm_size_format(size, want, sizeof(want));
		cdm_size_format(t->dev.size, have, sizeof(have));
		snprintf(err, err_len, "%s: --size %s is larger than the device (%s)",
			 path, want, have);
		return -ENOSPC;
	}
	return 0;
}

int cdm_target_probe(const char *path, uint64_t size, struct cdm_target *t,
		     char *err, size_t err_len)
{
	struct statvfs sv;
	struct stat st;
	char real[PATH_MAX];
	char want[32], have[32];

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat(path, &st) < 0) {
		int e = errno;

		if (e == ENOENT)
			snprintf(err, err_len, "%s: no such directory", path);
		else
			snprintf(err, err_len, "%s: %s", path, strerror(e));
		return -e;
	}
	if (S_ISBLK(st.st_mode))
		return probe_device(path, size, t, err, err_len);
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "%s: not a directory or a block device (cdm needs a directory to create its test file in)", path);
		return -ENOTDIR;
	}
	if (!realpath(path, real)) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (statvfs(path, &sv) < 0) {
		snprintf(err, err_len, "%s: statvfs: %s", path, strerror(errno));
		return -errno;
	}
	find_mount(real, t);
	if (sv.f_flag & ST_RDONLY) {
		snprintf(err, err_len, "%s: read-only filesystem (%s on %s)", path,
			 t->fs_type, t->mount_point);
		return -EROFS;
	}
	/* access() answers for the real user; euidaccess for who we run as */
	if (euidaccess(path, W_OK | X_OK) < 0) {
		snprintf(err, err_len, "%s: no permission to create files here", path);
		return -EACCES;
	}
	t->total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	t->used_bytes = (uint64_t)(sv.f_blocks - sv.f_bfree) * sv.f_frsize;
	t->avail_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	t->memory_backed = cdm_fs_kind(t->fs_type) == CDM_FS_MEMORY;
	t->network_or_fuse = cdm_fs_kind(t->fs_type) == CDM_FS_NETWORK ||
			     cdm_fs_kind(t->fs_type) == CDM_FS_FUSE;
	/*
	 * ramfs has no size limit and reports no blocks at all (f_blocks and
	 * f_bavail are 0): it grows until memory runs out, and its pages
	 * cannot be swapped.  The limit is the memory available.
	 */
	if (!strcmp(t->fs_type, "ramfs")) {
		uint64_t mem = cdm_sysinfo_mem_available();

		if (mem && size > mem / 10 * 9) {
			cdm_size_format(size, want, sizeof(want));
			snprintf(err, err_len,
				 "%s: ramfs has no size limit and keeps files in memory: a %s test file does not fit in the %" PRIu64 " MiB of memory available",
				 path, want, mem >> 20);
			return -ENOSPC;
		}
		return 0;
	}
	if (size > t->avail_bytes) {
		cdm_size_format(size, want, sizeof(want));
		if (t->avail_bytes >= (1ull << 20))
			snprintf(have, sizeof(have), "%" PRIu64 " MiB", t->avail_bytes >> 20);
		else
			snprintf(have, sizeof(have), "%" PRIu64 " KiB", t->avail_bytes >> 10);
		snprintf(err, err_len, "%s: no space for a %s test file (%s free)",
			 path, want, have);
		return -ENOSPC;
	}
	return 0;
}

/* cdm-mpi's rank, put in the file name after the host ("-r3"); -1: none */
static int name_rank = -1;

void cdm_target_set_rank(int rank)
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

int cdm_target_clean_stale(const char *dir)
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
			cdm_note("removed %s, left by a cdm run (pid %d) that no longer exists",
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
		v = cdm_now_ns() ^ ((uint64_t)getpid() << 32);
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
			cdm_note("%s is on %s: the test file is NOCOW (as chattr +C: no copy-on-write, compression or checksums), so its blocks are rewritten in place",
				 t->path, t->fs_type);
			return;
		}
	}
	cdm_warn("%s is on %s and the test file could not be made NOCOW (%s): copy-on-write and compression may distort the figures",
		 t->path, t->fs_type, strerror(errno ? errno : EOPNOTSUPP));
}

int cdm_testfile_open_device(struct cdm_testfile *f, const struct cdm_target *t,
			     uint64_t size, int writes, int direct, char *err, size_t err_len)
{
	int fd;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->lock_fd = -1;
	f->size = size;
	f->device = 1;
	snprintf(f->path, sizeof(f->path), "%s", t->path);
	fd = cdm_blockdev_open(t->path, &t->dev, writes, direct, err, err_len);
	if (fd < 0)
		return fd;
	f->fd = fd;
	return 0;
}

int cdm_testfile_create(struct cdm_testfile *f, const struct cdm_target *t,
			uint64_t size, int direct, char *err, size_t err_len)
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
	if (fd < 0) {
		int e = errno;

		snprintf(err, err_len, "%s: cannot create test file: %s", f->path, strerror(e));
		return -e;
	}
	f->created = 1;
	f->fd = fd;
	if (cdm_fs_kind(t->fs_type) == CDM_FS_COW)
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
				snprintf(err, err_len,
					 "%s: the %s filesystem does not support O_DIRECT; run with --buffered to measure through the page cache",
					 t->path, t->fs_type);
			else
				snprintf(err, err_len, "%s: cannot open with O_DIRECT: %s",
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
		cdm_warn("%s: cannot lock the test file: %s", f->path, strerror(errno));
	return 0;
}

/* xorshift64*: fast, and its output does not compress */
static void fill_random(uint64_t *p, size_t words, uint64_t *state)
{
	uint64_t x = *state;

	for (size_t i = 0; i < words; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		p[i] = x * 0x2545F4914F6CDD1Dull;
	}
	*state = x;
}

int cdm_testfile_fill(struct cdm_testfile *f, int zero,
		      void (*progress)(uint64_t done, uint64_t total),
		      int (*stop)(void), char *err, size_t err_len)
{
	uint64_t done = 0, state = random_u64() | 1;
	void *buf;
	int ret = 0;
	char sz[32], at[32];

	cdm_size_format(f->size, sz, sizeof(sz));
	/* a device has its size already (and fallocate mode 0 is not for it) */
	if (!f->device && fallocate(f->fd, 0, 0, (off_t)f->size) < 0) {
		int e = errno;

		if (e == ENOSPC) {
			snprintf(err, err_len, "%s: no space left to pre-size a %s test file",
				 f->path, sz);
			return -ENOSPC;
		}
		/* not supported here (EOPNOTSUPP): writing the file sizes it */
	}
	buf = mmap(NULL, FILL_CHUNK, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		snprintf(err, err_len, "cannot allocate %u MiB for preparing the test file",
			 FILL_CHUNK >> 20);
		return -ENOMEM;
	}
	while (done < f->size) {
		size_t n = f->size - done < FILL_CHUNK ? (size_t)(f->size - done) : FILL_CHUNK;
		ssize_t w;

		if (stop && stop()) {
			ret = -EINTR;
			break;
		}
		if (!zero)
			fill_random(buf, n / 8, &state);
		w = pwrite(f->fd, buf, n, (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			cdm_size_format(done & ~((1ull << 20) - 1), at, sizeof(at));
			if (done == 0)
				snprintf(at, sizeof(at), "0 bytes");
			if (e == ENOSPC)
				snprintf(err, err_len,
					 "%s: no space left after writing %s of the %s test file",
					 f->path, at, sz);
			else
				snprintf(err, err_len,
					 "%s: preparing the test file failed at offset %" PRIu64 ": %s",
					 f->path, done, strerror(e));
			ret = -e;
			break;
		}
		done += (uint64_t)w;
		if (progress)
			progress(done, f->size);
	}
	munmap(buf, FILL_CHUNK);
	if (!ret && fdatasync(f->fd) < 0) {
		ret = -errno;
		snprintf(err, err_len, "%s: fdatasync: %s", f->path, strerror(errno));
	}
	return ret;
}

#define MARK_XATTR "user.cdm.testfile"

/*
 * The mark names the size and the inode: a copy of a kept file (even one
 * that copied its extended attributes) is a different inode, so it is not
 * taken for a file cdm made.
 */
static void mark_text(char *buf, size_t len, uint64_t size, uint64_t ino)
{
	snprintf(buf, len, "cdm test file v2 size=%" PRIu64 " ino=%" PRIu64, size, ino);
}

int cdm_testfile_keep(struct cdm_testfile *f, int zero)
{
	char kept[sizeof(f->path)], mark[96], side[sizeof(f->path) + 8];
	size_t n = strlen(f->path);
	struct stat st;
	int ret = 0;

	(void)zero;
	if (!f->created || n < 4)
		return -EINVAL;
	snprintf(kept, sizeof(kept), "%.*s.keep", (int)(n - 4), f->path);
	if (rename(f->path, kept) < 0)
		return -errno;
	snprintf(f->path, sizeof(f->path), "%s", kept);
	f->created = 0;         /* kept: never removed by cdm from now on */
	if (fstat(f->fd, &st) < 0)
		return -errno;
	mark_text(mark, sizeof(mark), f->size, (uint64_t)st.st_ino);
	if (fsetxattr(f->fd, MARK_XATTR, mark, strlen(mark), 0) < 0) {
		/* no user xattrs here (tmpfs before 6.6, some FUSE): a sidecar */
		FILE *fp;

		snprintf(side, sizeof(side), "%s.cdm", f->path);
		fp = fopen(side, "wxe");
		if (!fp || fprintf(fp, "%s\n", mark) < 0)
			ret = -errno;
		if (fp && fclose(fp) != 0 && !ret)
			ret = -errno;
	}
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	return ret;
}

/*
 * Does @path carry cdm's mark for its size and inode?  The extended
 * attribute; the sidecar only where the filesystem has no user xattrs
 * (so a hand-made sidecar cannot vouch for a file on ext4 or xfs).
 */
static int has_mark(const char *path, int fd, const struct stat *st)
{
	char want[96], got[128], side[4500];
	ssize_t n;
	FILE *fp;

	mark_text(want, sizeof(want), (uint64_t)st->st_size, (uint64_t)st->st_ino);
	n = fgetxattr(fd, MARK_XATTR, got, sizeof(got) - 1);
	if (n >= 0) {
		got[n] = '\0';
		return strcmp(got, want) == 0;
	}
	if (errno != ENOTSUP)
		return 0;
	snprintf(side, sizeof(side), "%s.cdm", path);
	fp = fopen(side, "re");
	if (!fp)
		return 0;
	if (!fgets(got, sizeof(got), fp))
		got[0] = '\0';
	fclose(fp);
	got[strcspn(got, "\n")] = '\0';
	return strcmp(got, want) == 0;
}

int cdm_testfile_reuse(struct cdm_testfile *f, const char *path, int direct,
		       char *err, size_t err_len)
{
	struct stat st;
	int fd;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->lock_fd = -1;
	snprintf(f->path, sizeof(f->path), "%s", path);
	/* what it is, before any read-write open (a device may react to one) */
	if (lstat(path, &st) < 0) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISBLK(st.st_mode)) {
		snprintf(err, err_len, "%s: a block device is a TARGET, not a --file: cdm %s", path, path);
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, err_len, "%s: not a regular file (a test file kept by --keep is expected)", path);
		return -EINVAL;
	}
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (direct ? O_DIRECT : 0));
	if (fd < 0) {
		int e = errno;

		if (e == EINVAL && direct)
			snprintf(err, err_len, "%s: this filesystem does not support O_DIRECT; run with --buffered", path);
		else
			snprintf(err, err_len, "%s: cannot open the test file: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, err_len, "%s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	if (!has_mark(path, fd, &st)) {
		snprintf(err, err_len,
			 "%s: not a test file that cdm prepared and kept (--keep), or its size changed; cdm writes only to files it made",
			 path);
		close(fd);
		return -EPERM;
	}
	/* the lock on its own open file, as in cdm_testfile_create() */
	f->lock_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (f->lock_fd >= 0 && flock(f->lock_fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		snprintf(err, err_len, "%s: in use by another cdm run", path);
		close(f->lock_fd);
		f->lock_fd = -1;
		close(fd);
		return -EBUSY;
	}
	f->fd = fd;
	f->size = (uint64_t)st.st_size;
	f->created = 0;         /* the user's to keep: never removed */
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
