/* SPDX-License-Identifier: MIT */
/*
 * test_numa.c - CPU placement and NUMA nodes (target/numa.c) on a fake
 * sysfs tree of a two-node machine built in a temporary directory: CPUs
 * 0-3 on node 0, 4-7 on node 1, a node of memory only; an NVMe disk on
 * node 0 whose controller says so, a SCSI disk on node 1 found through
 * its PCI function, an NVMe multipath namespace on node 1 read through
 * its path, a virtio disk whose PCI function says -1, and device-mapper
 * over disks on one node and on two.  The warning's every form, and the
 * refusal of CPUs not online or not allowed (the allowed set is this
 * machine's own: sched_getaffinity cannot be faked).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/cpulist.h"
#include "cdm/base/err.h"
#include "cdm/target/numa.h"
#include "unit.h"

/* paths that do not exist here, so that realpath() leaves them alone */
#define FK "/nonexistent-cdm-numa-test"

static const char *root;
static char mi[PATH_MAX + 16];
static struct cdm_stack_env env;

static int setup(void **state)
{
	char abs[PATH_MAX * 2];

	(void)state;
	root = unit_fake_new("numa");
	snprintf(mi, sizeof(mi), "%s/mountinfo", root);
	env.sysfs = root;
	env.mountinfo = mi;
	unit_fake_put("mountinfo",
	    "1 0 254:0 / / rw - ext4 /dev/vda rw\n"
	    "2 1 259:0 / " FK "/near rw - xfs /dev/nvme0n1 rw\n"
	    "3 1 8:16 / " FK "/far rw - ext4 /dev/sdb rw\n"
	    "4 1 252:0 / " FK "/split rw - xfs /dev/mapper/split rw\n"
	    "5 1 252:1 / " FK "/one rw - xfs /dev/mapper/one rw\n"
	    "6 1 259:1 / " FK "/mp rw - xfs /dev/nvme1n1 rw\n"
	    "7 1 0:40 / " FK "/shm rw - tmpfs tmpfs rw\n");
	/* the CPUs: 0-3 on node 0, 4-7 on node 1, node 2 has memory only */
	unit_fake_mkdirs("devices/system/cpu");
	unit_fake_put("devices/system/cpu/online", "0-1023\n");
	unit_fake_mkdirs("devices/system/node/node0");
	unit_fake_mkdirs("devices/system/node/node1");
	unit_fake_mkdirs("devices/system/node/node2");
	unit_fake_mkdirs("devices/system/node/power");
	unit_fake_put("devices/system/node/node0/cpulist", "0-3\n");
	unit_fake_put("devices/system/node/node1/cpulist", "4-7\n");
	unit_fake_put("devices/system/node/node2/cpulist", "\n");
	unit_fake_put("devices/system/node/online", "0-2\n");
	/* virtio: its PCI function says -1 (the platform does not tell) */
	unit_fake_dev("pci0000:00/0000:00:02.0/virtio1/block/vda", "254:0");
	unit_fake_put("devices/pci0000:00/0000:00:02.0/numa_node", "-1\n");
	/* NVMe on node 0: the controller (device/) has numa_node */
	unit_fake_dev("pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1", "259:0");
	unit_fake_put("devices/pci0000:00/0000:00:04.0/numa_node", "0\n");
	unit_fake_put("devices/pci0000:00/0000:00:04.0/nvme/nvme0/numa_node", "0\n");
	unit_fake_link("../../nvme0", "devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1/device");
	/* SCSI on node 1: no numa_node but the PCI function's, two levels up */
	unit_fake_dev("pci0000:80/0000:80:01.0/host0/target0:0:0/0:0:0:0/block/sdb", "8:16");
	unit_fake_put("devices/pci0000:80/0000:80:01.0/numa_node", "1\n");
	unit_fake_link("../../../0:0:0:0", "devices/pci0000:80/0000:80:01.0/host0/target0:0:0/0:0:0:0/block/sdb/device");
	/* NVMe multipath: the head is virtual, its path under the controller */
	unit_fake_dev("virtual/nvme-subsystem/nvme-subsys1/nvme1n1", "259:1");
	unit_fake_mkdirs("devices/pci0000:80/0000:80:02.0/nvme/nvme1/nvme1c1n1");
	unit_fake_put("devices/pci0000:80/0000:80:02.0/nvme/nvme1/numa_node", "1\n");
	unit_fake_mkdirs("devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1/multipath");
	snprintf(abs, sizeof(abs), "%s/devices/pci0000:80/0000:80:02.0/nvme/nvme1/nvme1c1n1", root);
	unit_fake_link(abs, "devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1/multipath/nvme1c1n1");
	/* device-mapper over disks on two nodes, and over two on node 1 */
	unit_fake_dev("virtual/block/dm-0", "252:0");
	unit_fake_mkdirs("devices/virtual/block/dm-0/slaves/nvme0n1");
	unit_fake_mkdirs("devices/virtual/block/dm-0/slaves/sdb");
	unit_fake_dev("virtual/block/dm-1", "252:1");
	unit_fake_mkdirs("devices/virtual/block/dm-1/slaves/sdb");
	unit_fake_mkdirs("devices/virtual/block/dm-1/slaves/nvme1n1");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unit_fake_remove();
	return 0;
}

static void test_cpu_nodes(void **state)
{
	static short node_of[CDM_CPULIST_MAX];
	static unsigned short cpus[CDM_CPULIST_MAX];
	unsigned int n = 0;

	(void)state;
	assert_int_equal(cdm_numa_cpu_nodes(root, node_of), 3);
	assert_int_equal(node_of[0], 0);
	assert_int_equal(node_of[3], 0);
	assert_int_equal(node_of[4], 1);
	assert_int_equal(node_of[7], 1);
	assert_int_equal(node_of[8], -1);
	assert_int_equal(node_of[1023], -1);
	assert_int_equal(cdm_numa_online(root, cpus, &n), 0);
	assert_int_equal(n, 1024);
	/* no NUMA in this "kernel": every node unknown */
	assert_int_equal(cdm_numa_cpu_nodes(FK, node_of), 0);
	assert_int_equal(node_of[0], -1);
	assert_int_equal(cdm_numa_online(FK, cpus, &n), -ENOENT);
}

static void test_disk_node(void **state)
{
	(void)state;
	assert_int_equal(cdm_numa_disk_node(root, "nvme0n1"), 0);
	assert_int_equal(cdm_numa_disk_node(root, "sdb"), 1);
	assert_int_equal(cdm_numa_disk_node(root, "nvme1n1"), 1);
	assert_int_equal(cdm_numa_disk_node(root, "vda"), -1);
	assert_int_equal(cdm_numa_disk_node(root, "dm-0"), -1);
	assert_int_equal(cdm_numa_disk_node(root, "nosuch"), -1);
	assert_int_equal(cdm_numa_disk_node(root, "../block/sdb"), -1);
}

static void test_dev_node(void **state)
{
	char dev[64];

	(void)state;
	assert_int_equal(cdm_numa_dev_node(FK "/near/dir", &env, dev, sizeof(dev)), 0);
	assert_string_equal(dev, "nvme0n1");
	assert_int_equal(cdm_numa_dev_node(FK "/far", &env, dev, sizeof(dev)), 1);
	assert_string_equal(dev, "sdb");
	assert_int_equal(cdm_numa_dev_node(FK "/mp", &env, dev, sizeof(dev)), 1);
	/* dm over node 1 only; over nodes 0 and 1: unknown, both named */
	assert_int_equal(cdm_numa_dev_node(FK "/one", &env, dev, sizeof(dev)), 1);
	assert_true(!strcmp(dev, "sdb,nvme1n1") || !strcmp(dev, "nvme1n1,sdb"));
	assert_int_equal(cdm_numa_dev_node(FK "/split", &env, dev, sizeof(dev)), -1);
	assert_true(!strcmp(dev, "sdb,nvme0n1") || !strcmp(dev, "nvme0n1,sdb"));
	assert_int_equal(cdm_numa_dev_node("/", &env, dev, sizeof(dev)), -1);
	assert_string_equal(dev, "vda");
	assert_int_equal(cdm_numa_dev_node(FK "/shm", &env, dev, sizeof(dev)), -1);
	assert_string_equal(dev, "");
}

static void test_warning(void **state)
{
	static short node_of[CDM_CPULIST_MAX];
	static const unsigned short all[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, far[] = { 4, 5 },
		near[] = { 0, 1 }, mixed[] = { 2, 6, 9 };
	struct cdm_numa_view v = {
		.dev_node = 0, .dev = "nvme0n1", .node_of = node_of,
		.workers = far, .nworkers = 2, .pinned = 1, .allowed = all, .nallowed = 8,
	};
	char buf[256];

	(void)state;
	assert_int_equal(cdm_numa_cpu_nodes(root, node_of), 3);
	assert_int_equal(cdm_numa_warning(&v, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "worker threads on CPUs 4-5 (node 1) and the device nvme0n1 on node 0: their I/O crosses the interconnect between nodes; --cpus 0-3 keeps them on node 0");
	/* on the device's node: nothing to say */
	v.workers = near;
	assert_int_equal(cdm_numa_warning(&v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* some near, some far, one of no known node: the far one named */
	v.workers = mixed;
	v.nworkers = 3;
	assert_int_equal(cdm_numa_warning(&v, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "worker threads on CPU 6 (node 1) and the device nvme0n1 on node 0: their I/O crosses the interconnect between nodes; --cpus 0-3 keeps them on node 0");
	/* not pinned: the allowed set is where they may run */
	v.workers = all;
	v.nworkers = 8;
	v.pinned = 0;
	assert_int_equal(cdm_numa_warning(&v, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "worker threads may run on CPUs 4-7 (node 1) and the device nvme0n1 on node 0: their I/O crosses the interconnect between nodes; --cpus 0-3 keeps them on node 0");
	/* no CPU of the device's node may be used (taskset -c 4-7) */
	v.allowed = far;
	v.nallowed = 2;
	v.workers = far;
	v.nworkers = 2;
	assert_int_equal(cdm_numa_warning(&v, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "worker threads may run on CPUs 4-5 (node 1) and the device nvme0n1 on node 0: their I/O crosses the interconnect between nodes; no CPU cdm may run on is on node 0");
	/* the device on node 1, the workers on node 0 */
	v.dev_node = 1;
	v.dev = "sdb";
	v.workers = near;
	v.allowed = all;
	v.nallowed = 8;
	v.pinned = 1;
	assert_int_equal(cdm_numa_warning(&v, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "worker threads on CPUs 0-1 (node 0) and the device sdb on node 1: their I/O crosses the interconnect between nodes; --cpus 4-7 keeps them on node 1");
	/* the device's node unknown: no warning, whatever the CPUs */
	v.dev_node = -1;
	assert_int_equal(cdm_numa_warning(&v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_fill(void **state)
{
	static const unsigned short pin[] = { 1, 5, 6 };
	static unsigned short allowed[CDM_CPULIST_MAX];
	struct cdm_run_info *in = calloc(1, sizeof(*in));
	unsigned int nallowed;
	char list[256];

	(void)state;
	assert_non_null(in);
	assert_int_equal(cdm_numa_allowed(allowed, &nallowed), 0);
	assert_true(nallowed >= 1);
	cdm_cpulist_format(allowed, nallowed, list, sizeof(list));
	/* 2 threads on --cpus 1,5-6: CPUs 1 and 5 run workers; 5 is on node 1 */
	cdm_numa_fill(FK "/near", &env, pin, 3, 2, in);
	assert_string_equal(in->cpus, "1,5-6");
	assert_string_equal(in->cpus_allowed_list, list);
	assert_int_equal(in->dev_numa_node, 0);
	assert_non_null(strstr(in->numa_warning, "worker threads on CPU 5 (node 1) and the device nvme0n1 on node 0"));
	/* 1 thread: CPU 1 only, on the device's node */
	cdm_numa_fill(FK "/near", &env, pin, 3, 1, in);
	assert_string_equal(in->numa_warning, "");
	/* the device's node unknown (virtio): no warning; not pinned: "" */
	cdm_numa_fill("/", &env, pin, 0, 4, in);
	assert_string_equal(in->cpus, "");
	assert_int_equal(in->dev_numa_node, -1);
	assert_string_equal(in->numa_warning, "");
	free(in);
}

static void test_check(void **state)
{
	static unsigned short allowed[CDM_CPULIST_MAX];
	struct cdm_err err = { "" };
	unsigned short cpu;
	unsigned int n, c;
	char want[300], list[200];

	(void)state;
	assert_int_equal(cdm_numa_allowed(allowed, &n), 0);
	/* every allowed CPU passes (the fake tree has 0-1023 online) */
	assert_int_equal(cdm_numa_check(root, allowed, n, &err), 0);
	/* this machine's first CPU not allowed to cdm */
	for (c = 0; c < CDM_CPULIST_MAX; c++) {
		unsigned int i;

		for (i = 0; i < n && allowed[i] != c; i++)
			;
		if (i == n)
			break;
	}
	if (c < CDM_CPULIST_MAX) {
		cpu = (unsigned short)c;
		cdm_cpulist_format(allowed, n, list, sizeof(list));
		snprintf(want, sizeof(want), "CPU %u is not one cdm may run on (allowed: %s; taskset or the cgroup's cpuset)",
			 c, list);
		assert_int_equal(cdm_numa_check(root, &cpu, 1, &err), -EINVAL);
		assert_string_equal(err.msg, want);
	}
	/* not online: said before "not allowed" */
	unit_fake_put("devices/system/cpu/online", "0\n");
	cpu = 1;
	assert_int_equal(cdm_numa_check(root, &cpu, 1, &err), -EINVAL);
	assert_string_equal(err.msg, "CPU 1 is not online (online: 0)");
	unit_fake_put("devices/system/cpu/online", "0-1023\n");
}

/* thread i on its CPU of the list, the caller's own mask given back after */
static void test_pin(void **state)
{
	static unsigned short allowed[CDM_CPULIST_MAX], now[CDM_CPULIST_MAX];
	struct cdm_numa_saved old;
	unsigned int n, k;
	char before[256], after[256];

	(void)state;
	assert_int_equal(cdm_numa_allowed(allowed, &n), 0);
	cdm_cpulist_format(allowed, n, before, sizeof(before));
	/* no --cpus: nothing changes, nothing to give back */
	assert_int_equal(cdm_numa_pin(allowed, 0, 3, &old), 0);
	assert_int_equal(old.saved, 0);
	/* thread n + 1 of the allowed list: cpus[(n + 1) % n] */
	assert_int_equal(cdm_cpulist_thread_cpu(allowed, n, n + 1), allowed[1 % n]);
	assert_int_equal(cdm_numa_pin(allowed, n, n + 1, &old), 0);
	assert_int_equal(old.saved, 1);
	assert_int_equal(cdm_numa_allowed(now, &k), 0);
	assert_int_equal(k, 1);
	assert_int_equal(now[0], allowed[1 % n]);
	cdm_numa_unpin(&old);
	assert_int_equal(cdm_numa_allowed(now, &k), 0);
	cdm_cpulist_format(now, k, after, sizeof(after));
	assert_string_equal(after, before);
	/* a CPU past any machine's: refused, the mask as it was */
	now[0] = CDM_CPULIST_MAX - 1;
	if (!sysconf(_SC_NPROCESSORS_CONF) || sysconf(_SC_NPROCESSORS_CONF) < CDM_CPULIST_MAX) {
		assert_true(cdm_numa_pin(now, 1, 0, &old) < 0);
		assert_int_equal(old.saved, 0);
		assert_int_equal(cdm_numa_allowed(now, &k), 0);
		cdm_cpulist_format(now, k, after, sizeof(after));
		assert_string_equal(after, before);
	}
	/* the CPUs threads 0 .. t - 1 use of a list of 3 */
	assert_int_equal(cdm_cpulist_threads_cpus(3, 2), 2);
	assert_int_equal(cdm_cpulist_threads_cpus(3, 8), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_nodes),
		cmocka_unit_test(test_disk_node),
		cmocka_unit_test(test_dev_node),
		cmocka_unit_test(test_warning),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_pin),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
