/* SPDX-License-Identifier: MIT */
/*
 * target.c - the target: the checks made before anything is created (it
 * exists, is a directory or a block device, is writable, has room; whether
 * it is read-only), the mount it is on and what kind of filesystem that is.
 * Creates nothing; the test file is testfile.c's.  The rules are in
 * include/cdm/target/target.h and docs/safety.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/lfs.h"
#include "cdm/base/size.h"
#include "cdm/target/device.h"
#include "cdm/target/mountinfo.h"
#include "cdm/target/sysinfo.h"
#include "cdm/target/target.h"

/*
 * The mount holding @real (a canonical path), as mountinfo.c finds it.
 * When it cannot (no /proc; a chroot, whose mounts outside its root
 * /proc/self/mountinfo leaves out) the mount point is "" and the type
 * "unknown": a run goes on, and says so.
 */
static void find_mount(const char *real, struct cdm_target *t)
{
	struct cdm_mount *m = malloc(sizeof(*m));

	t->mount_point[0] = '\0';
	snprintf(t->fs_type, sizeof(t->fs_type), "unknown");
	t->mount_source[0] = '\0';
	if (!m)
		return;
	if (cdm_mountinfo_find(NULL, real, m) == 0) {
		snprintf(t->mount_point, sizeof(t->mount_point), "%s", m->point);
		snprintf(t->fs_type, sizeof(t->fs_type), "%s", m->type);
		snprintf(t->mount_source, sizeof(t->mount_source), "%s", m->source);
	}
	free(m);
}

/* a block device TARGET: its size and sectors; nothing else applies */
static int probe_device(const char *path, uint64_t size, struct cdm_target *t,
			struct cdm_err *err)
{
	char want[32], have[32];
	int r = cdm_device_query(path, &t->dev);

	if (r <= 0) {
		r = r ? r : -ENODEV;
		return cdm_err_set(err, r, "%s: cannot open the block device: %s", path,
				   strerror(-r));
	}
	t->is_device = 1;
	snprintf(t->mount_point, sizeof(t->mount_point), "%s", path);
	t->fs_type[0] = '\0';
	t->total_bytes = t->dev.size;
	t->avail_bytes = t->dev.size;
	if (size > t->dev.size) {
		cdm_size_format(size, want, sizeof(want));
		cdm_size_format(t->dev.size, have, sizeof(have));
		return cdm_err_set(err, -ENOSPC, "%s: --size %s is larger than the device (%s)",
				   path, want, have);
	}
	return 0;
}

/*
 * A directory: free space as an unprivileged user sees it; ramfs, which
 * has no size limit and reports no blocks at all (f_blocks and f_bavail
 * are 0), grows until memory runs out and its pages cannot be swapped, so
 * its limit is the memory available.
 */
static int check_room(const char *path, uint64_t size, const struct cdm_target *t,
		      struct cdm_err *err)
{
	char want[32], have[32];

	cdm_size_format(size, want, sizeof(want));
	if (!strcmp(t->fs_type, "ramfs")) {
		uint64_t mem = cdm_sysinfo_mem_available();

		if (mem && size > mem / 10 * 9)
			return cdm_err_set(err, -ENOSPC,
					   "%s: ramfs has no size limit and keeps files in memory: a %s test file does not fit in the %" PRIu64 " MiB of memory available",
					   path, want, mem >> 20);
		return 0;
	}
	if (size <= t->avail_bytes)
		return 0;
	if (t->avail_bytes >= CDM_MIB)
		snprintf(have, sizeof(have), "%" PRIu64 " MiB", t->avail_bytes >> 20);
	else
		snprintf(have, sizeof(have), "%" PRIu64 " KiB", t->avail_bytes >> 10);
	return cdm_err_set(err, -ENOSPC, "%s: no space for a %s test file (%s free)",
			   path, want, have);
}

int cdm_target_probe(const char *path, uint64_t size, struct cdm_target *t,
		     struct cdm_err *err)
{
	struct statvfs sv;
	struct stat st;
	char real[PATH_MAX];

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat(path, &st) < 0) {
		int e = errno;

		if (e == ENOENT)
			return cdm_err_set(err, -e, "%s: no such directory", path);
		return cdm_err_set(err, -e, "%s: %s", path, strerror(e));
	}
	if (S_ISBLK(st.st_mode))
		return probe_device(path, size, t, err);
	if (!S_ISDIR(st.st_mode))
		return cdm_err_set(err, -ENOTDIR, "%s: not a directory or a block device (cdm needs a directory to create its test file in)",
				   path);
	if (!realpath(path, real))
		return cdm_err_set(err, -errno, "%s: %s", path, strerror(errno));
	if (statvfs(path, &sv) < 0)
		return cdm_err_set(err, -errno, "%s: statvfs: %s", path, strerror(errno));
	find_mount(real, t);
	t->read_only = !!(sv.f_flag & ST_RDONLY);
	t->total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	t->used_bytes = (uint64_t)(sv.f_blocks - sv.f_bfree) * sv.f_frsize;
	t->avail_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (!size || t->read_only)
		return 0;       /* nothing to create, or the runner says why not */
	/* access() answers for the real user; euidaccess for who we run as */
	if (euidaccess(path, W_OK | X_OK) < 0)
		return cdm_err_set(err, -EACCES, "%s: no permission to create files here", path);
	return check_room(path, size, t, err);
}
