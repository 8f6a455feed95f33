/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/sysinfo.h - what a saved result says about the machine under the
 * figures: the block device holding the target's filesystem (from sysfs),
 * the CPU, and the label.  Read once, before the first test, never in the
 * I/O path.  Everything is best effort: a field that cannot be found stays
 * empty ("" / 0 / CDM_ROT_UNKNOWN), and nothing here fails a run.
 */
#ifndef CDM_SYSINFO_H
#define CDM_SYSINFO_H

#include <stddef.h>

#include "cdm/model/result.h"

/*
 * cdm_sysinfo_fill - fill @in's system fields: os (PRETTY_NAME of
 * /etc/os-release, else "Linux"), kernel and machine (uname), and dev_name,
 * dev_model, dev_rotational, dev_scheduler (for the block device of the
 * filesystem holding @path: its st_dev, or, for filesystems whose st_dev
 * is not a block device such as btrfs, the device named by the mount
 * source @mount_source, which may be "" or NULL), fs_source (a copy of
 * @mount_source), cpu_model, cpus_online and mem_total_bytes (MemTotal of
 * /proc/meminfo).  A partition is reported as
 * its whole disk ("vda", not "vda1"); a device-mapper device by its own
 * queue and its dm name.  A block device @path (cdm /dev/sdX) is
 * described itself: is_device, target_dev_bytes and target_dev_lbs are
 * set, and dev_* name it (or its whole disk).  devices[] (ndevices)
 * holds every device the filesystem sits on (target/stack.h's
 * cdm_stack_devices(): each of a btrfs's, an md or dm device's members,
 * an overlayfs's upper directory's), the one above first, each described
 * by cdm_sysinfo_device(); dev_* are devices[0]'s.  @in's other fields
 * are left as they are.
 */
void cdm_sysinfo_fill(const char *path, const char *mount_source,
		      struct cdm_run_info *in);

/*
 * cdm_sysinfo_device - describe block device @name ("loop0", "dm-0") from
 * the sysfs tree at @sysfs (NULL is "/sys"): @sysfs/class/block/NAME's
 * dm/name ("device-mapper NAME") or device/model as @d->model,
 * queue/rotational, queue/scheduler's active one, and
 * queue/logical_block_size.  What cannot be read stays "" / 0; @d->name
 * is @name.
 */
void cdm_sysinfo_device(const char *sysfs, const char *name, struct cdm_dev_info *d);

/*
 * cdm_sysinfo_scheduler - the active scheduler in the text of a sysfs
 * queue/scheduler file ("mq-deadline kyber [bfq] none" -> "bfq"; a file
 * with one name and no brackets, "none", -> "none").  Writes at most @len
 * bytes including the NUL to @out; "" when none is found.  Returns @out.
 */
char *cdm_sysinfo_scheduler(const char *text, char *out, size_t len);

/*
 * cdm_sysinfo_cpus_allowed - the CPUs this process may run on: those of
 * its affinity mask (cdm_numa_allowed(): taskset, a cgroup cpuset), capped
 * by the tightest cgroup v2 CPU quota on its way to the root (cpu.max
 * "QUOTA PERIOD": QUOTA / PERIOD CPUs, rounded up).  0 when unknown.
 * What the "may be limited by the CPU" note judges by; the run info has
 * it beside cpus_online.
 */
unsigned int cdm_sysinfo_cpus_allowed(void);

/*
 * cdm_sysinfo_mem_available - the kernel's estimate of memory available
 * for new allocations without swapping: MemAvailable of /proc/meminfo, in
 * bytes.  0 when it cannot be read.  (A memory cgroup's limit is not
 * taken into account.)  What the buffer check and ramfs's size check use.
 */
uint64_t cdm_sysinfo_mem_available(void);

#endif /* CDM_SYSINFO_H */
