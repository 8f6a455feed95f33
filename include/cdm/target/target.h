/* SPDX-License-Identifier: MIT */
/*
 * cdm/target.h - the target directory and the test file in it.
 *
 * Safety rules (design.md): cdm writes only to a file it created itself
 * (O_CREAT | O_EXCL), named cdm-<host>-<pid>-<random>.tmp so that a later
 * run can recognise a file left by a killed run of this host and remove it;
 * a file kept with --keep is renamed to cdm-<host>-<pid>-<random>.keep, a
 * name no run ever removes.  Everything is checked before anything is
 * created: the target exists, is a directory, is writable, is not on a
 * read-only mount, and has room for the test file as an unprivileged user
 * sees it (statvfs f_bavail, not f_bfree: filesystems reserve blocks).
 */
#ifndef CDM_TARGET_H
#define CDM_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/target/device.h"

/* what kind of filesystem a type from mountinfo is (cdm_fs_kind) */
enum cdm_fs_kind {
	CDM_FS_DISK = 0,                /* ext4, xfs, ...: nothing to say */
	CDM_FS_MEMORY,                  /* tmpfs, ramfs: memory speed */
	CDM_FS_NETWORK,                 /* nfs, cifs, ceph, 9p, virtiofs...: client caching */
	CDM_FS_FUSE,                    /* fuse, fuse.*, fuseblk: client caching */
	CDM_FS_COW,                     /* btrfs: copy-on-write and compression */
};

struct cdm_target {
	char path[4096];                /* TARGET as given */
	char mount_point[4096];         /* from /proc/self/mountinfo */
	char mount_source[4096];        /* device or server:/export */
	char fs_type[32];               /* "ext4", "tmpfs", "fuse.sshfs" ... */
	uint64_t total_bytes;           /* f_blocks * f_frsize */
	uint64_t used_bytes;            /* (f_blocks - f_bfree) * f_frsize */
	uint64_t avail_bytes;           /* f_bavail * f_frsize */
	int memory_backed;              /* tmpfs, ramfs */
	int network_or_fuse;            /* nfs, cifs, fuse.*, ceph, 9p ... */
	int is_device;                  /* TARGET is a block device: dev holds it */
	struct cdm_blockdev dev;
};

/*
 * cdm_fs_kind - classify filesystem type @type as /proc/self/mountinfo
 * names it ("ext4", "fuse.sshfs", "nfs4").  Network and FUSE filesystems
 * get a warning that client-side caching may inflate the figures, memory
 * ones that the figures are memory speed, btrfs gets NOCOW on its test
 * file (docs/safety.md, "Filesystems").
 */
enum cdm_fs_kind cdm_fs_kind(const char *type);

/*
 * cdm_target_probe - check that @path can take a test file of @size bytes.
 * Fills @t.  On failure writes one line to @err naming the path and the
 * problem ("/mnt/x: no such directory", "/mnt/x: no space for a 1 GiB test
 * file (612 MiB free)") and returns -ENOENT, -ENOTDIR, -EACCES, -EROFS,
 * -ENOSPC or another -errno.  Creates nothing.
 * A block device @path fills t->is_device and t->dev (and mount_point =
 * the device path, fs_type ""); @size must not exceed the device
 * (-ENOSPC).  On ramfs, which has no size limit and reports no free space
 * (f_bavail 0), @size is checked against the memory available instead.
 */
int cdm_target_probe(const char *path, uint64_t size, struct cdm_target *t,
		     char *err, size_t err_len);

/*
 * cdm_target_clean_stale - remove cdm-<host>-<pid>-<random>.tmp files in
 * directory @dir whose <host> is this host and whose <pid> no longer exists
 * (kill(pid, 0) fails with ESRCH).  Files of other hosts, of live processes,
 * and .keep files are never touched.  Returns the number removed (each is
 * reported with cdm_note), or -errno if @dir cannot be read.
 */
int cdm_target_clean_stale(const char *dir);

/*
 * cdm_target_set_rank - cdm-mpi: put "-r<rank>" after the host in the names
 * of test files created from now on (cdm-<host>-r<rank>-<pid>-<random>.tmp),
 * so each rank's file says whose it is; a later run on this host still
 * recognises it as stale.  @rank -1 (the default) adds nothing.
 */
void cdm_target_set_rank(int rank);

/*
 * struct cdm_testfile - the test file.  path is the name it has now.
 */
struct cdm_testfile {
	char path[4400];
	int fd;                         /* -1 when closed */
	int lock_fd;                    /* holds the run's flock; -1 when none */
	uint64_t size;                  /* bytes */
	int created;                    /* 1 once cdm created it (so removes it) */
	int device;                     /* a block device: never created, filled
					 * only when writes are allowed, never removed */
	int nocow;                      /* btrfs: NOCOW was set before any write */
};

/*
 * cdm_testfile_create - exclusively create a new test file in @dir and open
 * it read-write (with O_DIRECT when @direct).  Returns 0, or -errno with a
 * one-line reason in @err; -EINVAL with @direct means the filesystem refuses
 * O_DIRECT (the message names it and suggests --buffered).  On failure
 * nothing is left behind.  On btrfs the empty file gets FS_NOCOW_FL (as
 * `chattr +C`: no copy-on-write, checksums or compression) before its
 * first write, and a note says so (or a warning when it cannot be set).
 */
int cdm_testfile_create(struct cdm_testfile *f, const struct cdm_target *t,
			uint64_t size, int direct, char *err, size_t err_len);

/*
 * cdm_testfile_fill - pre-size the file (fallocate, else ftruncate) and write
 * all of it, with incompressible pseudo-random bytes or zeros (@zero), in
 * 4 MiB O_DIRECT writes, then fdatasync.  @progress (may be NULL) is called
 * with the bytes written so far.  Stops early, returning -EINTR, when
 * @stop() says so.  Returns 0 or -errno with a reason in @err that says how
 * far it got ("no space left after 612 MiB of 1 GiB").
 */
int cdm_testfile_fill(struct cdm_testfile *f, int zero,
		      void (*progress)(uint64_t done, uint64_t total),
		      int (*stop)(void), char *err, size_t err_len);

/*
 * cdm_testfile_keep - rename the file to its .keep name (never removed by a
 * later run) and mark it as a complete cdm test file of its size: the
 * extended attribute user.cdm.testfile, or, where the filesystem has no
 * user xattrs, a sidecar file "<path>.cdm" beside it.  Returns 0 or
 * -errno.  The new name is in f->path.
 */
int cdm_testfile_keep(struct cdm_testfile *f, int zero);

/*
 * cdm_testfile_reuse - open a file kept by an earlier run (--file) instead
 * of creating one.  It must be a regular file carrying cdm's mark for its
 * current size, since write tests overwrite its content: any other file is
 * refused, so cdm never writes into a user's file.  f->size is the file's
 * size; the file is never removed.  Returns 0, or -errno with one line in
 * @err naming the path and the problem.
 */
int cdm_testfile_reuse(struct cdm_testfile *f, const char *path, int direct,
		       char *err, size_t err_len);

/*
 * cdm_testfile_open_device - use block device @t->dev as the "test file":
 * @size bytes of it from offset 0, opened by cdm_blockdev_open() (O_RDWR |
 * O_EXCL when @writes, else O_RDONLY).  f->created stays 0, so
 * cdm_testfile_remove() only closes it.  Returns 0, or -errno with one
 * line in @err (EBUSY names what holds the device).
 */
int cdm_testfile_open_device(struct cdm_testfile *f, const struct cdm_target *t,
			     uint64_t size, int writes, int direct, char *err, size_t err_len);

/*
 * cdm_testfile_remove - close and unlink the file if cdm created it.
 * Safe to call more than once.  Returns 0 or -errno from unlink.
 */
int cdm_testfile_remove(struct cdm_testfile *f);

#endif /* CDM_TARGET_H */
