/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/numa.h - where the worker threads may run and where the
 * device is: the CPUs online and those the process may run on, the NUMA
 * node of each CPU and of the device under a target, and the warning
 * when --cpus (or the process's CPUs) put workers on another node than
 * the device (docs/method.md, "CPU placement").
 *
 * Read from sysfs: SYSFS/devices/system/cpu/online, the CPU list of each
 * node, SYSFS/devices/system/node/nodeN/cpulist (the kernel's
 * Documentation/ABI/stable/sysfs-devices-node), and a device's numa_node
 * (Documentation/ABI/testing/sysfs-bus-pci: the node of the PCI device,
 * -1 when the platform does not say).  Every @sysfs argument is the root
 * of sysfs, NULL for "/sys": the unit tests give a fake tree.  All of it
 * is best effort except cdm_numa_check(): what cannot be read is unknown
 * (-1, ""), and nothing here fails a run.
 */
#ifndef CDM_TARGET_NUMA_H
#define CDM_TARGET_NUMA_H

#include <stddef.h>

#include "cdm/base/cpulist.h"
#include "cdm/model/result.h"
#include "cdm/target/stack.h"

struct cdm_err;

/*
 * cdm_numa_online - the CPUs online (SYSFS/devices/system/cpu/online)
 * into @cpus (room for CDM_CPULIST_MAX), sorted, and their number into
 * *@n.  Returns 0, or -errno when the file cannot be read or is not a
 * CPU list (-ERANGE: it names a CPU of 1024 or more).
 */
int cdm_numa_online(const char *sysfs, unsigned short *cpus, unsigned int *n);

/*
 * cdm_numa_allowed - the CPUs the calling thread may run on
 * (sched_getaffinity: taskset, a cgroup's cpuset; the process's set when
 * called before any thread is pinned) into @cpus (room for
 * CDM_CPULIST_MAX), sorted, and their number into *@n.  Returns 0 or
 * -errno (sched_getaffinity's; -EINVAL on a machine of more than 1024
 * CPUs).  The one reader of the mask: cdm_sysinfo_cpus_allowed() counts
 * these.
 */
int cdm_numa_allowed(unsigned short *cpus, unsigned int *n);

/*
 * struct cdm_numa_saved - a thread's CPU mask before cdm_numa_pin(), for
 * cdm_numa_unpin(): the bits of a cpu_set_t of CDM_CPULIST_MAX CPUs.
 */
struct cdm_numa_saved {
	unsigned long bits[CDM_CPULIST_MAX / (8 * sizeof(unsigned long))];
	int saved;                      /* bits hold a mask to put back */
};

/*
 * cdm_numa_pin - pin the calling thread to the CPU of thread @i (from 0)
 * of a group placed on the @n CPUs @cpus, cdm_cpulist_thread_cpu() (fio's
 * cpus_allowed_policy=split; docs/method.md, "CPU placement").  @n 0:
 * --cpus not given, nothing changes.  @old (may be NULL): where the
 * thread's mask before is kept, for a thread that goes on to other work
 * after (the runner's own, pinned for --verify's read-back and as the
 * first of --precondition's writers).  Returns 0, or -errno
 * (pthread_setaffinity_np's: the CPU went offline or out of the cpuset
 * since the command line was checked; the mask is then unchanged).
 */
int cdm_numa_pin(const unsigned short *cpus, unsigned int n, unsigned int i,
		 struct cdm_numa_saved *old);

/*
 * cdm_numa_unpin - give the calling thread back the mask @old kept by
 * cdm_numa_pin() (nothing when it kept none).  Best effort: a mask that
 * cannot be set back leaves the thread on its one CPU.
 */
void cdm_numa_unpin(const struct cdm_numa_saved *old);

/*
 * cdm_numa_check - may worker threads be pinned to each of the @n CPUs
 * @cpus?  Each must be online (cdm_numa_online(); not checked when that
 * cannot be read) and one the process may run on (cdm_numa_allowed()).
 * Returns 0, or -EINVAL with "CPU 2 is not online (online: 0-1)" or "CPU
 * 1 is not one cdm may run on (allowed: 0; taskset or the cgroup's
 * cpuset)" in @err (may be NULL), naming the first such CPU; the caller
 * puts the option in front.
 */
int cdm_numa_check(const char *sysfs, const unsigned short *cpus, unsigned int n,
		   struct cdm_err *err);

/*
 * cdm_numa_cpu_nodes - the NUMA node of each CPU: @node_of[c] (an array
 * of CDM_CPULIST_MAX) is the N of the SYSFS/devices/system/node/nodeN
 * whose cpulist names CPU c, else -1.  Returns the number of nodes found
 * (0: a kernel without NUMA, or no sysfs).
 */
unsigned int cdm_numa_cpu_nodes(const char *sysfs, short *node_of);

/*
 * cdm_numa_disk_node - the NUMA node of the block device @disk as sysfs
 * names it ("nvme0n1"): the numa_node of its device (device/numa_node),
 * else of the nearest of its parents in SYSFS/devices that has one (a
 * virtio or SCSI disk's PCI function).  An NVMe namespace with native
 * multipath (a multipath/ directory of paths) is read through its first
 * path's controller.  Returns the node (>= 0), or -1 when sysfs says -1
 * (a platform that does not tell, a one-node machine often) or has no
 * numa_node on the way.
 */
int cdm_numa_disk_node(const char *sysfs, const char *disk);

/*
 * cdm_numa_dev_node - the NUMA node of the storage under @path (a file,
 * directory or block device): the node of every disk the stack walk
 * finds under it (cdm_stack_disks(), with @env: NULL is the real system)
 * when they all have the same known node, else -1 (none found, one
 * unknown, or disks on several nodes).  Writes the disks' names to @dev
 * (@len bytes; "nvme0n1", "nvme0n1,nvme1n1", "" when none).
 */
int cdm_numa_dev_node(const char *path, const struct cdm_stack_env *env, char *dev, size_t len);

/*
 * struct cdm_numa_view - what the warning is judged on: the device's
 * node (-1 unknown) and name, the node of each CPU (cdm_numa_cpu_nodes()),
 * the CPUs the workers run on and those the process may run on.
 */
struct cdm_numa_view {
	int dev_node;
	const char *dev;
	const short *node_of;           /* CDM_CPULIST_MAX entries */
	const unsigned short *workers;  /* sorted */
	unsigned int nworkers;
	int pinned;                     /* workers are --cpus's (else the allowed set) */
	const unsigned short *allowed;  /* sorted */
	unsigned int nallowed;
};

/*
 * cdm_numa_warning - when the device's node is known and some worker
 * CPUs whose node is known are on another node, the warning into @buf
 * (@len bytes): "worker threads on CPUs 4-7 (node 1) and the device
 * nvme0n1 on node 0: their I/O crosses the interconnect between nodes;
 * --cpus 0-3 keeps them on node 0" (unpinned: "worker threads may run
 * on ..."; no allowed CPU on the device's node: "...; no CPU cdm may run
 * on is on node 0").  Returns 1 when it wrote one, else 0 and @buf is "".
 */
int cdm_numa_warning(const struct cdm_numa_view *v, char *buf, size_t len);

/*
 * cdm_numa_fill - @in's placement fields: cpus (the @ncpus CPUs of
 * --cpus @cpus as a canonical list, "" when @ncpus is 0),
 * cpus_allowed_list (cdm_numa_allowed()), dev_numa_node
 * (cdm_numa_dev_node() of @path) and numa_warning (cdm_numa_warning(),
 * for the CPUs worker threads 0 .. @threads - 1 run on,
 * cdm_cpulist_thread_cpu(), or without --cpus the allowed set).  @env: NULL is the real system.
 * The caller prints the warning.
 */
void cdm_numa_fill(const char *path, const struct cdm_stack_env *env,
		   const unsigned short *cpus, unsigned int ncpus, unsigned int threads,
		   struct cdm_run_info *in);

#endif /* CDM_TARGET_NUMA_H */
