/* SPDX-License-Identifier: MIT */
/*
 * numa.c - CPU placement and NUMA nodes (include/cdm/target/numa.h): the
 * CPUs --cpus may name (online, and allowed to this process), the node
 * of each CPU and of the disks under the target, and the warning when
 * the workers run on another node than the device.  Read once, before
 * the first test, never in the I/O path.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/err.h"
#include "cdm/base/file.h"
#include "cdm/base/text.h"
#include "cdm/target/numa.h"
#include "cdm/target/stack.h"

#define DISKS_MAX 16            /* disks under one target looked at */

static const char *root_of(const char *sysfs)
{
	return sysfs ? sysfs : "/sys";
}

/* the CPU list in the sysfs file @rel under @sysfs into @cpus, *@n */
static int read_list(const char *sysfs, const char *rel, unsigned short *cpus, unsigned int *n)
{
	char path[PATH_MAX], buf[4096];
	int r;

	snprintf(path, sizeof(path), "%s/%s", root_of(sysfs), rel);
	r = cdm_file_read_line(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	return cdm_cpulist_parse(buf, CDM_CPULIST_MAX, cpus, n, NULL);
}

int cdm_numa_online(const char *sysfs, unsigned short *cpus, unsigned int *n)
{
	return read_list(sysfs, "devices/system/cpu/online", cpus, n);
}

int cdm_numa_allowed(unsigned short *cpus, unsigned int *n)
{
	cpu_set_t set;
	unsigned int k = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	for (unsigned int c = 0; c < CDM_CPULIST_MAX && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[k++] = (unsigned short)c;
	*n = k;
	return 0;
}

_Static_assert(sizeof(cpu_set_t) == sizeof(((struct cdm_numa_saved *)0)->bits),
	       "struct cdm_numa_saved holds a cpu_set_t");

int cdm_numa_pin(const unsigned short *cpus, unsigned int n, unsigned int i,
		 struct cdm_numa_saved *old)
{
	cpu_set_t set, was;
	int e;

	if (old)
		old->saved = 0;
	if (!n)
		return 0;
	if (old && pthread_getaffinity_np(pthread_self(), sizeof(was), &was) == 0) {
		memcpy(old->bits, &was, sizeof(was));
		old->saved = 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cdm_cpulist_thread_cpu(cpus, n, i), &set);
	e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (e && old)
		old->saved = 0;
	return -e;
}

void cdm_numa_unpin(const struct cdm_numa_saved *old)
{
	cpu_set_t was;

	if (!old->saved)
		return;
	memcpy(&was, old->bits, sizeof(was));
	pthread_setaffinity_np(pthread_self(), sizeof(was), &was);
}

/* is @cpu among the @n sorted @cpus? */
static int has(const unsigned short *cpus, unsigned int n, unsigned int cpu)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (cpus[mid] == cpu)
			return 1;
		if (cpus[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int cdm_numa_check(const char *sysfs, const unsigned short *cpus, unsigned int n,
		   struct cdm_err *err)
{
	static unsigned short online[CDM_CPULIST_MAX], allowed[CDM_CPULIST_MAX];
	unsigned int non = 0, nal = 0;
	char list[128];
	int have_online = cdm_numa_online(sysfs, online, &non) == 0;
	int have_allowed = cdm_numa_allowed(allowed, &nal) == 0;

	for (unsigned int i = 0; i < n; i++) {
		if (have_online && !has(online, non, cpus[i])) {
			cdm_cpulist_format(online, non, list, sizeof(list));
			return cdm_err_set(err, -EINVAL, "CPU %u is not online (online: %s)",
					   cpus[i], list);
		}
		if (have_allowed && !has(allowed, nal, cpus[i])) {
			cdm_cpulist_format(allowed, nal, list, sizeof(list));
			return cdm_err_set(err, -EINVAL,
					   "CPU %u is not one cdm may run on (allowed: %s; taskset or the cgroup's cpuset)",
					   cpus[i], list);
		}
	}
	return 0;
}

unsigned int cdm_numa_cpu_nodes(const char *sysfs, short *node_of)
{
	static unsigned short cpus[CDM_CPULIST_MAX];
	char dir[PATH_MAX], rel[320];
	unsigned int nodes = 0, n;
	struct dirent *de;
	DIR *d;

	for (unsigned int c = 0; c < CDM_CPULIST_MAX; c++)
		node_of[c] = -1;
	snprintf(dir, sizeof(dir), "%s/devices/system/node", root_of(sysfs));
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long node;

		if (strncmp(de->d_name, "node", 4) || de->d_name[4] < '0' || de->d_name[4] > '9')
			continue;
		node = strtol(de->d_name + 4, &end, 10);
		if (*end || node > SHRT_MAX)
			continue;
		snprintf(rel, sizeof(rel), "devices/system/node/%s/cpulist", de->d_name);
		nodes++;
		/* a node of memory only has an empty cpulist */
		if (read_list(sysfs, rel, cpus, &n) < 0)
			continue;
		for (unsigned int i = 0; i < n; i++)
			node_of[cpus[i]] = (short)node;
	}
	closedir(d);
	return nodes;
}

/* the numa_node file of directory @dir: 1 and *@node when there is one */
static int numa_node_at(const char *dir, int *node)
{
	char path[PATH_MAX + 16], buf[32], *end;
	long v;

	snprintf(path, sizeof(path), "%s/numa_node", dir);
	if (cdm_file_read_line(path, buf, sizeof(buf)) < 0)
		return 0;
	v = strtol(buf, &end, 10);
	*node = end != buf && !*end && v >= 0 && v <= SHRT_MAX ? (int)v : -1;
	return 1;
}

/* an NVMe multipath head's first path (SYSFS/.../nvme0n1/multipath/nvme0c0n1) */
static void first_path(char *dir, size_t len)
{
	char sub[PATH_MAX + 320], real[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(sub, sizeof(sub), "%s/multipath", dir);
	d = opendir(sub);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/multipath/%s", dir, de->d_name);
		if (realpath(sub, real))
			snprintf(dir, len, "%s", real);
		break;
	}
	closedir(d);
}

int cdm_numa_disk_node(const char *sysfs, const char *disk)
{
	char link[PATH_MAX + 96], dir[PATH_MAX], top[PATH_MAX], dev[PATH_MAX + 16];
	size_t ntop;
	int node;

	if (strchr(disk, '/') || disk[0] == '.' || !realpath(root_of(sysfs), top))
		return -1;
	snprintf(link, sizeof(link), "%s/class/block/%s", top, disk);
	if (!realpath(link, dir))
		return -1;
	first_path(dir, sizeof(dir));
	snprintf(dev, sizeof(dev), "%s/device", dir);
	if (numa_node_at(dev, &node))
		return node;
	/* up from the disk to the device that has one: a PCI function */
	ntop = strlen(top);
	while (strlen(dir) > ntop && !strncmp(dir, top, ntop)) {
		char *slash;

		if (numa_node_at(dir, &node))
			return node;
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return -1;
}

int cdm_numa_dev_node(const char *path, const struct cdm_stack_env *env, char *dev, size_t len)
{
	char disks[DISKS_MAX][CDM_STACK_NAME_MAX];
	unsigned int n = cdm_stack_disks(path, env, disks, DISKS_MAX);
	const char *sysfs = env ? env->sysfs : NULL;
	size_t at = 0;
	int node = -1, mixed = 0;

	if (len)
		dev[0] = '\0';
	for (unsigned int i = 0; i < n; i++) {
		int k = cdm_numa_disk_node(sysfs, disks[i]);

		cdm_text_add(dev, len, &at, "%s%s", i ? "," : "", disks[i]);
		/* one disk of unknown node, or two on different nodes: unknown */
		if (k < 0 || (i && k != node))
			mixed = 1;
		node = k;
	}
	return mixed ? -1 : node;
}

/* "CPU 4" or "CPUs 4-7": the @n sorted @cpus after @what, into @buf */
static void cpus_text(const char *what, const unsigned short *cpus, unsigned int n,
		      char *buf, size_t len)
{
	char list[64];

	cdm_cpulist_format(cpus, n, list, sizeof(list));
	snprintf(buf, len, "%s%s %s", what, n == 1 ? "" : "s", list);
}

int cdm_numa_warning(const struct cdm_numa_view *v, char *buf, size_t len)
{
	unsigned short off[CDM_CPULIST_MAX], near[CDM_CPULIST_MAX], nodes[CDM_CPULIST_MAX];
	unsigned int noff = 0, nnear = 0, nnodes = 0;
	char where[96], nodes_text[96], fix[96];
	unsigned char seen[CDM_CPULIST_MAX] = { 0 };

	if (len)
		buf[0] = '\0';
	if (v->dev_node < 0 || !v->node_of)
		return 0;
	for (unsigned int i = 0; i < v->nworkers; i++) {
		unsigned int c = v->workers[i];
		int k = c < CDM_CPULIST_MAX ? v->node_of[c] : -1;

		if (k < 0 || k == v->dev_node)
			continue;
		off[noff++] = (unsigned short)c;
		if (k < CDM_CPULIST_MAX)
			seen[k] = 1;
	}
	if (!noff)
		return 0;
	for (unsigned int k = 0; k < CDM_CPULIST_MAX; k++)
		if (seen[k])
			nodes[nnodes++] = (unsigned short)k;
	for (unsigned int i = 0; i < v->nallowed; i++)
		if (v->allowed[i] < CDM_CPULIST_MAX && v->node_of[v->allowed[i]] == v->dev_node)
			near[nnear++] = v->allowed[i];
	cpus_text("CPU", off, noff, where, sizeof(where));
	cpus_text("node", nodes, nnodes, nodes_text, sizeof(nodes_text));
	if (nnear) {
		char list[64];

		cdm_cpulist_format(near, nnear, list, sizeof(list));
		snprintf(fix, sizeof(fix), "--cpus %s keeps them on node %d", list, v->dev_node);
	} else {
		snprintf(fix, sizeof(fix), "no CPU cdm may run on is on node %d", v->dev_node);
	}
	snprintf(buf, len,
		 "worker threads %s %s (%s) and the device %.64s on node %d: their I/O crosses the interconnect between nodes; %s",
		 v->pinned ? "on" : "may run on", where, nodes_text, v->dev && v->dev[0] ? v->dev : "",
		 v->dev_node, fix);
	return 1;
}

void cdm_numa_fill(const char *path, const struct cdm_stack_env *env,
		   const unsigned short *cpus, unsigned int ncpus, unsigned int threads,
		   struct cdm_run_info *in)
{
	static unsigned short allowed[CDM_CPULIST_MAX];
	static short node_of[CDM_CPULIST_MAX];
	struct cdm_numa_view v = { .node_of = node_of };
	unsigned int nallowed = 0;
	char dev[128];

	cdm_cpulist_format(cpus, ncpus, in->cpus, sizeof(in->cpus));
	if (cdm_numa_allowed(allowed, &nallowed) == 0)
		cdm_cpulist_format(allowed, nallowed, in->cpus_allowed_list,
				   sizeof(in->cpus_allowed_list));
	in->dev_numa_node = cdm_numa_dev_node(path, env, dev, sizeof(dev));
	in->numa_warning[0] = '\0';
	if (in->dev_numa_node < 0 || !cdm_numa_cpu_nodes(env ? env->sysfs : NULL, node_of))
		return;
	v.dev_node = in->dev_numa_node;
	v.dev = dev;
	v.allowed = allowed;
	v.nallowed = nallowed;
	v.pinned = ncpus > 0;
	v.workers = ncpus ? cpus : allowed;
	v.nworkers = ncpus ? cdm_cpulist_threads_cpus(ncpus, threads) : nallowed;
	cdm_numa_warning(&v, in->numa_warning, sizeof(in->numa_warning));
}
