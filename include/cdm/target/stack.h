/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/stack.h - what is under a target: the walk down the block
 * stack from a directory's mount (or from a block device TARGET) that
 * finds what can make the figures memory speed rather than the storage's.
 *
 * A directory's filesystem is looked up in mountinfo (mountinfo.h).  A
 * filesystem in memory (tmpfs, ramfs) or one whose client caches data
 * (FUSE, network: cdm_mountinfo_fs_kind()) is a finding and ends the
 * walk there.  An overlayfs leads to its upper directory (upperdir=,
 * where its files are made and written), walked as a path in turn; its
 * lower directories are not walked.  Otherwise its device (field 3 of
 * mountinfo; for an anonymous number, as on btrfs, the device the mount
 * source names) is walked in sysfs, /sys/class/block/NAME, and on btrfs
 * each other device of the same filesystem too (the entries of
 * /sys/fs/btrfs/UUID/devices/ of the UUID that lists the first, in name
 * order: a raid0 or raid1 over several devices):
 *
 *   - a partition (NAME/partition exists) leads to its parent disk;
 *   - zramN (zram), ramN (brd) and nullbN (null_blk) are findings: memory,
 *     or no media at all;
 *   - a loop device (NAME/loop/backing_file) leads to its backing file:
 *     a block device is walked as a device, a file as a path, from the
 *     mount that holds it; with loop direct I/O off (NAME/loop/dio is 0,
 *     or absent on kernels before 4.4) the loop device itself is a
 *     finding, unless what holds the backing file is memory already;
 *   - anything with slaves (device-mapper, md, bcache...) leads to each
 *     of NAME/slaves/.
 *
 * Each finding is a struct cdm_mem_under (model/result.h): its kind, the
 * layer, the stack from the top down to it, why the figures may be
 * memory speed and what to do.  The rule is docs/safety.md's
 * ("Memory under the target").  Every lookup is best effort: what cannot
 * be read ends that branch of the walk, and nothing fails.
 */
#ifndef CDM_TARGET_STACK_H
#define CDM_TARGET_STACK_H

#include <stddef.h>

#include "cdm/model/result.h"

/* where the walk reads the system: a fake tree in the unit tests */
struct cdm_stack_env {
	const char *sysfs;              /* sysfs root: NULL is "/sys" */
	const char *mountinfo;          /* NULL is "/proc/self/mountinfo" */
};

#define CDM_STACK_DEPTH_MAX 16          /* layers walked down at most */

/*
 * cdm_stack_walk - walk down from @path: a block device (its device
 * number named in sysfs, @env->sysfs/dev/block/MAJ:MIN) or a directory or
 * file (its mount in @env->mountinfo; a path realpath() cannot resolve is
 * taken as it is).  @env may be NULL (the real system).  Writes at most
 * @max findings to @out, in the order found (a loop device before what is
 * under its backing file).  Returns how many were written.
 */
unsigned int cdm_stack_walk(const char *path, const struct cdm_stack_env *env,
			    struct cdm_mem_under *out, unsigned int max);

/*
 * cdm_stack_walk_dev - the same from the block device @name as sysfs
 * names it ("loop0", "dm-1", "vda2").
 */
unsigned int cdm_stack_walk_dev(const char *name, const struct cdm_stack_env *env,
				struct cdm_mem_under *out, unsigned int max);

#define CDM_STACK_NAME_MAX 64           /* a block device's sysfs name, with its NUL */

/*
 * cdm_stack_disks - the block devices at the bottom of the same walk from
 * @path: each device reached that has no slaves and is no loop device
 * (whose backing file is walked instead), no partition (its disk is) and
 * no RAM disk, zram or null_blk; each once, in the order reached.  What a
 * directory on ext4 over LVM over two NVMe namespaces is stored on:
 * "nvme0n1", "nvme1n1".  A filesystem in memory, FUSE or network has
 * none.  Writes at most @max names to @names; returns how many.  What
 * target/numa.c takes the device's NUMA node from.
 */
unsigned int cdm_stack_disks(const char *path, const struct cdm_stack_env *env,
			     char (*names)[CDM_STACK_NAME_MAX], unsigned int max);

/*
 * cdm_stack_devices - the devices the filesystem holding @path sits on, as
 * the same walk reaches them, the device the mount names first: each of a
 * btrfs's devices, each member of an md or device-mapper device after it
 * (NAME/slaves/), what an overlayfs's upper directory is on; a partition
 * as its disk ("vda", not "vda1"); a loop device itself, not what holds
 * its backing file (another filesystem).  Each once.  A block device
 * @path: the device and what is under it.  Memory, FUSE and network
 * filesystems have none.  Writes at most @max names to @names; returns
 * how many.  What target/sysinfo.c describes each device of (the run
 * info's devices[]).
 */
unsigned int cdm_stack_devices(const char *path, const struct cdm_stack_env *env,
			       char (*names)[CDM_STACK_NAME_MAX], unsigned int max);

/*
 * cdm_stack_warn - each of the @n findings @f under @target on stderr, once:
 * "cdm: warning: <target>: <why>; <fix> [stack: <stack>]".
 */
void cdm_stack_warn(const char *target, const struct cdm_mem_under *f, unsigned int n);

#endif /* CDM_TARGET_STACK_H */
