/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/target.h - the TARGET of a run: a directory to create the
 * test file in (testfile.h), or a block device (device.h).
 *
 * Safety rules (docs/safety.md): everything is checked before anything is
 * created: the target exists, is a directory, is writable, is not on a
 * read-only mount, and has room for the test file as an unprivileged user
 * sees it (statvfs f_bavail, not f_bfree: filesystems reserve blocks).
 */
#ifndef CDM_TARGET_H
#define CDM_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/target/device.h"
#include "cdm/target/mountinfo.h"

struct cdm_err;

struct cdm_target {
	char path[4096];                /* TARGET as given */
	char mount_point[4096];         /* from /proc/self/mountinfo; "" unknown */
	char mount_source[4096];        /* device or server:/export */
	char fs_type[32];               /* "ext4", "tmpfs", "fuse.sshfs" ... */
	uint64_t total_bytes;           /* f_blocks * f_frsize */
	uint64_t used_bytes;            /* (f_blocks - f_bfree) * f_frsize */
	uint64_t avail_bytes;           /* f_bavail * f_frsize */
	int is_device;                  /* TARGET is a block device: dev holds it */
	int read_only;                  /* a directory on a filesystem mounted
					 * read-only (a device: dev.read_only) */
	struct cdm_blockdev dev;
};

/*
 * cdm_target_probe - check that @path can take a test file of @size bytes.
 * Fills @t.  Returns 0, or -ENOENT, -ENOTDIR, -EACCES, -ENOSPC or another
 * -errno with one line in @err (may be NULL) naming the path and the
 * problem ("/mnt/x: no such directory", "/mnt/x: no space for a 1 GiB
 * test file (612 MiB free)").  Creates nothing.  @size 0: no test file
 * is to be made (--file), so neither room nor the permission to create
 * files is checked.  A filesystem mounted read-only is not refused here
 * but noted in t->read_only: what may run on it depends on the plan
 * (cdm_plan_writer(); the runner refuses what writes, -EROFS).
 * A block device @path fills t->is_device and t->dev (and mount_point =
 * the device path, fs_type ""); @size must not exceed the device
 * (-ENOSPC).  On ramfs, which has no size limit and reports no free space
 * (f_bavail 0), @size is checked against the memory available instead.
 */
int cdm_target_probe(const char *path, uint64_t size, struct cdm_target *t,
		     struct cdm_err *err);

#endif /* CDM_TARGET_H */
