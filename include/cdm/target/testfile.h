/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/testfile.h - the test file in the target directory.
 *
 * Safety rules (docs/safety.md): cdm writes only to a file it created itself
 * (O_CREAT | O_EXCL), named cdm-<host>-<pid>-<random>.tmp so that a later
 * run can recognise a file left by a killed run of this host and remove it;
 * a file kept with --keep is renamed to cdm-<host>-<pid>-<random>.keep, a
 * name no run ever removes, and marked so that --file can take it again.
 * The file is locked (flock) for the whole run, so a live run's file is
 * never taken for a dead one's.  A block device TARGET stands in for the
 * file (cdm_testfile_open_device()) and is never created or removed.
 */
#ifndef CDM_TARGET_TESTFILE_H
#define CDM_TARGET_TESTFILE_H

#include <stdint.h>

#include "cdm/target/target.h"

struct cdm_err;

/*
 * cdm_testfile_clean_stale - remove cdm-<host>-<pid>-<random>.tmp files in
 * directory @dir whose <host> is this host and whose <pid> no longer exists
 * (kill(pid, 0) fails with ESRCH).  Files of other hosts, of live processes,
 * and .keep files are never touched.  Returns the number removed (each is
 * reported with cdm_msg_note), or -errno if @dir cannot be read.
 */
int cdm_testfile_clean_stale(const char *dir);

/*
 * cdm_testfile_set_rank - cdm-mpi: put "-r<rank>" after the host in the names
 * of test files created from now on (cdm-<host>-r<rank>-<pid>-<random>.tmp),
 * so each rank's file says whose it is; a later run on this host still
 * recognises it as stale.  @rank -1 (the default) adds nothing.
 */
void cdm_testfile_set_rank(int rank);

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
	/*
	 * the data it holds (enum cdm_file_data, model/result.h): set by
	 * cdm_testfile_fill() and cdm_testfile_precondition(), written into
	 * the mark by cdm_testfile_keep() and read from it by
	 * cdm_testfile_reuse() (unknown in a mark from before it)
	 */
	int data;
	/*
	 * --file (cdm_testfile_reuse()): the kept file has a part that reads
	 * without the device (a hole, or an unwritten extent), from byte
	 * unwritten_at on; unwritten_what says which.  It must be filled
	 * again before the tests.
	 */
	int unwritten;
	uint64_t unwritten_at;
	const char *unwritten_what;     /* "a hole", "an unwritten extent" */
};

/*
 * cdm_testfile_create - exclusively create a new test file of @size bytes
 * (not written yet: cdm_testfile_fill()) in the directory @t (probed by
 * cdm_target_probe()) and open it read-write (with O_DIRECT when @direct),
 * holding its lock.  Returns 0, or -errno with a one-line reason in @err;
 * -EINVAL with @direct means the filesystem refuses O_DIRECT (the message
 * names it and suggests --buffered).  On failure nothing is left behind.
 * On btrfs the empty file gets FS_NOCOW_FL (as `chattr +C`: no
 * copy-on-write, checksums or compression) before its first write, and a
 * note says so (or a warning when it cannot be set).
 */
int cdm_testfile_create(struct cdm_testfile *f, const struct cdm_target *t,
			uint64_t size, int direct, struct cdm_err *err);

/*
 * cdm_testfile_fill - pre-size the file (fallocate; where that is not
 * supported the writes size it) and write all of it, with incompressible
 * pseudo-random bytes (cdm_prng_fill(), base/prng.h) whose every 512-byte
 * sector is stamped with its offset (model/stamp.h, seq CDM_STAMP_PREP),
 * or zeros (@zero), in
 * 4 MiB writes through f->fd, then fdatasync.  @progress (may be NULL) is
 * called with the bytes written so far.  Stops early, returning -EINTR
 * (no message), when @stop() (may be NULL) says so.  Returns 0 or -errno
 * with a reason in @err that says how far it got ("no space left after
 * writing 8 MiB of the 16 MiB test file").
 */
int cdm_testfile_fill(struct cdm_testfile *f, int zero,
		      void (*progress)(uint64_t done, uint64_t total),
		      int (*stop)(void), struct cdm_err *err);

/*
 * --precondition (docs/method.md): SNIA PTS's workload-independent
 * preconditioning writes twice the user capacity in 128 KiB sequential
 * writes; here the capacity is the test file (or the part of the device
 * the run uses).
 */
#define CDM_TESTFILE_PRECOND_PASSES 2u
#define CDM_TESTFILE_PRECOND_BLOCK (128u << 10)    /* bytes */

/*
 * cdm_testfile_precondition - write all of the file sequentially
 * CDM_TESTFILE_PRECOND_PASSES times in CDM_TESTFILE_PRECOND_BLOCK writes,
 * 8 in flight (threads of pwrite through f->fd, so O_DIRECT when the run
 * is; with @ncpus > 0, writer i pinned to the CPU of worker thread i,
 * cdm_numa_pin() of --cpus @cpus, the caller as writer 0 for the pass
 * only), with the data of cdm_testfile_fill() (every sector stamped with
 * its offset and seq CDM_STAMP_PREP, or zeros with @zero), each pass ended
 * by fdatasync.  @fresh: the file was created and never written (a new
 * test file, or a kept one with an unwritten part): it is pre-sized as
 * cdm_testfile_fill() does, and the first pass is its preparation, so it
 * is written twice, not three times; a file written already (a --file)
 * gets both passes the same way.  @progress (may be NULL) is called with
 * the pass (from 1) and 0 bytes as each pass starts, then with the bytes
 * written so far (every 4 MiB at most).  Stops early, returning -EINTR
 * (no message), when @stop() (may be NULL, called from every writing
 * thread) says so.  Returns 0, or -errno with one line in @err naming the
 * file, the lowest offset that failed and the pass ("... failed at offset
 * 131072 (preconditioning, pass 1 of 2): Input/output error"; ENOSPC says
 * how much was written, as cdm_testfile_fill() does; a writer that could
 * not be pinned: "...: preconditioning: writer thread 2 cannot be pinned
 * to CPU 3 (--cpus): Invalid argument").
 */
int cdm_testfile_precondition(struct cdm_testfile *f, int zero, int fresh,
			      const unsigned short *cpus, unsigned int ncpus,
			      void (*progress)(unsigned int pass, uint64_t done, uint64_t total),
			      int (*stop)(void), struct cdm_err *err);

/*
 * cdm_testfile_keep - mark the file as a complete cdm test file of its
 * size and inode (and of the data it holds, f->data), then rename it to its .keep name (never removed by a
 * later run), never over an existing file.  The mark is the extended
 * attribute user.cdm.testfile, or, only where the filesystem has no user
 * xattrs (ENOTSUP), a sidecar file "<kept path>.cdm" beside it.  Mark
 * first, then rename: on any failure nothing is kept (a sidecar written
 * is removed again), the file keeps its .tmp name and f->created stays 1,
 * so cdm_testfile_remove() removes it.  Returns 0 (the new name in
 * f->path, f->fd closed), or -errno with one line in @err naming the
 * step that failed ("cannot set its mark", "cannot rename it to").
 */
int cdm_testfile_keep(struct cdm_testfile *f, struct cdm_err *err);

/*
 * cdm_testfile_reuse - open a file kept by an earlier run (--file) instead
 * of creating one: read-write when @writes, else read-only (a file on a
 * read-only mount, where nothing may write to it).  It
 * must be a regular file carrying cdm's mark for its current size, since
 * write tests overwrite its content: any other file is refused, so cdm
 * never writes into a user's file.  f->size is the file's
 * size; the file is never removed.  Returns 0, or -errno with one line in
 * @err naming the path and the problem.  A marked file that has a hole
 * (SEEK_HOLE: truncated and extended again, or punched) or an unwritten
 * extent (FIEMAP_EXTENT_UNWRITTEN: fallocated, never written) is taken,
 * with f->unwritten set: its reads there would not reach the device, so
 * the caller fills it again (cdm_testfile_fill()) before any test.
 * f->data is the data its mark names (CDM_FILE_DATA_UNKNOWN when it
 * names none: kept by a cdm from before it was recorded).
 */
int cdm_testfile_reuse(struct cdm_testfile *f, const char *path, int writes, int direct,
		       struct cdm_err *err);

/*
 * cdm_testfile_open_device - use block device @t->dev as the "test file":
 * @size bytes of it from offset 0, opened by cdm_device_open() (O_RDWR |
 * O_EXCL when @writes, else O_RDONLY).  f->created stays 0, so
 * cdm_testfile_remove() only closes it.  Returns 0, or -errno with one
 * line in @err (EBUSY names what holds the device).
 */
int cdm_testfile_open_device(struct cdm_testfile *f, const struct cdm_target *t,
			     uint64_t size, int writes, int direct, struct cdm_err *err);

/*
 * cdm_testfile_remove - close and unlink the file if cdm created it.
 * Safe to call more than once.  Returns 0 or -errno from unlink.
 */
int cdm_testfile_remove(struct cdm_testfile *f);

#endif /* CDM_TARGET_TESTFILE_H */
