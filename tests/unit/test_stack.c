/* SPDX-License-Identifier: MIT */
/*
 * test_stack.c - unit tests for src/target/stack.c, the walk down the
 * block stack under a target, on a fake sysfs tree and a fake mountinfo
 * built in a temporary directory: a loop device with direct I/O off or
 * on, over a file on a disk, on tmpfs or on FUSE (the backing file's
 * filesystem walked in turn); device-mapper and md over loop devices and
 * zram; a partition of a loop device; RAM disks and null_blk; tmpfs,
 * FUSE and NFS at the top; a source named only by its /dev path; a
 * backing file deleted since; a cycle in slaves; the bound on findings;
 * a btrfs over two loop devices (/sys/fs/btrfs/UUID/devices); overlayfs
 * by its upper directory; the devices each filesystem sits on.
 * No device is touched: this machine has no device-mapper or md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/file.h"
#include "cdm/target/stack.h"
#include "cdm/target/sysinfo.h"
#include "unit.h"

/* paths that do not exist here, so that realpath() leaves them alone */
#define FK "/nonexistent-cdm-stack-test"

static const char *root;
static char mi[PATH_MAX + 16];
static struct cdm_stack_env env;

/* loop device NAME over @file with loop/dio @dio */
static void loop(const char *name, const char *majmin, const char *file, const char *dio)
{
	char rel[128], p[256];

	snprintf(rel, sizeof(rel), "virtual/block/%s", name);
	unit_fake_dev(rel, majmin);
	snprintf(p, sizeof(p), "devices/%s/loop", rel);
	unit_fake_mkdirs(p);
	snprintf(p, sizeof(p), "devices/%s/loop/backing_file", rel);
	unit_fake_put(p, file);
	if (dio) {
		snprintf(p, sizeof(p), "devices/%s/loop/dio", rel);
		unit_fake_put(p, dio);
	}
}

/* device @holder (under virtual/block) has @slave among its slaves */
static void slave(const char *holder, const char *slave_name)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "devices/virtual/block/%s/slaves/%s", holder, slave_name);
	unit_fake_mkdirs(p);
}

static int setup(void **state)
{
	(void)state;
	root = unit_fake_new("stack");
	snprintf(mi, sizeof(mi), "%s/mountinfo", root);
	env.sysfs = root;
	env.mountinfo = mi;
	unit_fake_put("mountinfo",
	    "1 0 254:0 / / rw - ext4 /dev/vda rw\n"
	    "2 1 7:0 / " FK "/san rw - ext4 /dev/loop0 rw\n"
	    "3 1 0:40 / " FK "/shm rw - tmpfs tmpfs rw\n"
	    "4 1 0:41 / " FK "/fuse rw - fuse.sshfs u@h:/ rw\n"
	    "5 1 0:42 / " FK "/nfs rw - nfs4 srv:/export rw\n"
	    "6 1 252:0 / " FK "/dm rw - xfs /dev/mapper/vg-lv rw\n"
	    "7 1 9:0 / " FK "/md rw - ext4 /dev/md0 rw\n"
	    "8 1 7:1 / " FK "/direct rw - ext4 /dev/loop1 rw\n"
	    "9 1 7:2 / " FK "/onshm rw - ext4 /dev/loop2 rw\n"
	    "10 1 7:3 / " FK "/onshm-dio rw - ext4 /dev/loop3 rw\n"
	    "11 1 259:1 / " FK "/part rw - ext4 /dev/loop4p1 rw\n"
	    "12 1 0:50 / " FK "/btr rw - btrfs /dev/cdmfake9 rw\n"
	    "13 1 7:6 / " FK "/onfuse rw - ext4 /dev/loop6 rw\n"
	    "14 1 252:9 / " FK "/cycle rw - ext4 /dev/dm-9 rw\n"
	    "15 1 0:60 / " FK "/ram rw - ramfs ramfs rw\n"
	    "16 1 7:7 / " FK "/gone rw - ext4 /dev/loop7 rw\n"
	    "17 1 0:51 / " FK "/raid0 rw - btrfs /dev/loop1 rw,space_cache=v2,subvolid=5,subvol=/\n"
	    "18 1 0:52 / " FK "/ovl rw - overlay overlay rw,lowerdir=/l,upperdir=" FK "/shm/up\\054per,workdir=" FK "/shm/w\n"
	    "19 1 0:53 / " FK "/ovl-disk rw - overlay overlay rw,lowerdir=/l,upperdir=" FK "/raid0/up,workdir=" FK "/raid0/w\n"
	    "20 1 0:54 / " FK "/ovl-ro rw - overlay overlay ro,lowerdir=" FK "/shm/a:" FK "/shm/b\n");
	/* a btrfs raid0 over loop1 (dio on) and loop0 (dio off), another over vdb */
	unit_fake_mkdirs("fs/btrfs/0c2b7d8e-raid0/devices/loop0");
	unit_fake_mkdirs("fs/btrfs/0c2b7d8e-raid0/devices/loop1");
	unit_fake_mkdirs("fs/btrfs/9f00aa11-other/devices/vdb");
	unit_fake_put("fs/btrfs/features", "");
	/* what sysinfo reads of a device */
	unit_fake_mkdirs("devices/pci0000:00/virtio1/block/vda/queue");
	unit_fake_mkdirs("devices/pci0000:00/virtio1/block/vda/device");
	unit_fake_put("devices/pci0000:00/virtio1/block/vda/device/model", "  QEMU HARDDISK   ");
	unit_fake_put("devices/pci0000:00/virtio1/block/vda/queue/rotational", "1");
	unit_fake_put("devices/pci0000:00/virtio1/block/vda/queue/scheduler", "none [mq-deadline]");
	unit_fake_put("devices/pci0000:00/virtio1/block/vda/queue/logical_block_size", "4096");
	unit_fake_dev("pci0000:00/virtio1/block/vda", "254:0");
	unit_fake_dev("pci0000:00/virtio2/block/vdb", "254:16");
	unit_fake_dev("pci0000:00/virtio2/block/vdb/vdb1", "254:17");
	unit_fake_put("devices/pci0000:00/virtio2/block/vdb/vdb1/partition", "1");
	loop("loop0", "7:0", FK "/disk/san.img", "0");          /* on vda, dio off */
	loop("loop1", "7:1", FK "/disk/direct.img", "1");       /* on vda, dio on */
	loop("loop2", "7:2", FK "/shm/img", "0");               /* on tmpfs, dio off */
	loop("loop3", "7:3", FK "/shm/img", "1");               /* on tmpfs, dio on */
	loop("loop4", "7:4", FK "/disk/parted.img", "0");
	unit_fake_dev("virtual/block/loop4/loop4p1", "259:1");
	unit_fake_put("devices/virtual/block/loop4/loop4p1/partition", "1");
	loop("loop5", "7:5", FK "/disk/other.img", "1");
	loop("loop6", "7:6", FK "/fuse/img", "0");              /* on FUSE, dio off */
	loop("loop7", "7:7", FK "/disk/gone.img (deleted)", NULL); /* no dio file: off */
	unit_fake_dev("virtual/block/dm-0", "252:0");
	unit_fake_mkdirs("devices/virtual/block/dm-0/dm");
	unit_fake_put("devices/virtual/block/dm-0/dm/name", "vg-lv");
	slave("dm-0", "loop5");
	slave("dm-0", "loop0");
	unit_fake_dev("virtual/block/md0", "9:0");
	unit_fake_mkdirs("devices/virtual/block/md0/md");
	unit_fake_put("devices/virtual/block/md0/md/level", "raid1");
	slave("md0", "vdb1");
	slave("md0", "zram1");
	unit_fake_dev("virtual/block/zram1", "253:1");
	unit_fake_dev("virtual/block/ram0", "1:0");
	unit_fake_dev("virtual/block/nullb0", "250:0");
	unit_fake_dev("virtual/block/cdmfake9", "7:9");
	loop("cdmfake9x", "7:10", FK "/disk/x.img", "0");
	slave("cdmfake9", "cdmfake9x");
	unit_fake_dev("virtual/block/dm-9", "252:9");
	slave("dm-9", "dm-9");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unit_fake_remove();
	return 0;
}

static unsigned int walk(const char *path, struct cdm_mem_under *f)
{
	memset(f, 0, sizeof(*f) * CDM_MEM_UNDER_MAX);
	return cdm_stack_walk(path, &env, f, CDM_MEM_UNDER_MAX);
}

static void test_loop_page_cache(void **state)
{
	struct cdm_mem_under f[CDM_MEM_UNDER_MAX];

	(void)state;
	/* the case: ext4 on a loop device with direct I/O off */
	assert_int_equal(walk(FK "/san/dir", f), 1);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_string_equal(f[0].layer, "loop0");
	assert_string_equal(f[0].stack, FK "/san (ext4) > loop0");
	assert_string_equal(f[0].why,
			    "loop0 reads its backing file " FK "/disk/san.img through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed");
	assert_string_equal(f[0].fix, "losetup --direct-io=on /dev/loop0 turns loop direct I/O on");
	/* the same loop device as TARGET gives the same finding */
	assert_int_equal(cdm_stack_walk_dev("loop0", &env, f, CDM_MEM_UNDER_MAX), 1);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_string_equal(f[0].stack, "loop0");
	/* direct I/O on, backing file on a disk: nothing */
	assert_int_equal(walk(FK "/direct", f), 0);
	/* no loop/dio file (before Linux 4.4): off; " (deleted)" is cut */
	assert_int_equal(walk(FK "/gone", f), 1);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_non_null(strstr(f[0].why, "backing file " FK "/disk/gone.img through"));
	/* a plain directory on the disk */
	assert_int_equal(walk(FK "/home/user", f), 0);
}

static void test_loop_on_memory(void **state)
{
	struct cdm_mem_under f[CDM_MEM_UNDER_MAX];
	const char *stack = FK "/onshm-dio (ext4) > loop3 > " FK "/shm/img > " FK "/shm (tmpfs)";

	(void)state;
	/* direct I/O on does not help a backing file in memory */
	assert_int_equal(walk(FK "/onshm-dio", f), 1);
	assert_string_equal(f[0].kind, "memory_fs");
	assert_string_equal(f[0].layer, FK "/shm (tmpfs)");
	assert_string_equal(f[0].stack, stack);
	assert_string_equal(f[0].why,
			    FK "/shm is tmpfs, which keeps files in memory: the figures are memory speed, not disk speed");
	assert_string_equal(f[0].fix, "put the backing file on a disk's filesystem");
	/* direct I/O off: memory already, so no second finding for the loop */
	assert_int_equal(walk(FK "/onshm", f), 1);
	assert_string_equal(f[0].kind, "memory_fs");
	/* a backing file on FUSE with direct I/O off: the loop first, then FUSE */
	assert_int_equal(walk(FK "/onfuse/a/b", f), 2);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_string_equal(f[0].layer, "loop6");
	assert_string_equal(f[1].kind, "fuse");
	assert_string_equal(f[1].stack, FK "/onfuse (ext4) > loop6 > " FK "/fuse/img > " FK "/fuse (fuse.sshfs)");
}

static void test_dm_md_partition(void **state)
{
	struct cdm_mem_under f[CDM_MEM_UNDER_MAX];

	(void)state;
	/* device-mapper over two loop devices, one of them page-cached */
	assert_int_equal(walk(FK "/dm", f), 1);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_string_equal(f[0].stack, FK "/dm (xfs) > dm-0 (vg-lv) > loop0");
	assert_int_equal(cdm_stack_walk_dev("dm-0", &env, f, CDM_MEM_UNDER_MAX), 1);
	assert_string_equal(f[0].stack, "dm-0 (vg-lv) > loop0");
	/* md over a disk's partition and zram */
	assert_int_equal(walk(FK "/md/x", f), 1);
	assert_string_equal(f[0].kind, "zram");
	assert_string_equal(f[0].layer, "zram1");
	assert_string_equal(f[0].stack, FK "/md (ext4) > md0 (raid1) > zram1");
	assert_string_equal(f[0].why,
			    "zram1 is a compressed RAM disk (zram): the figures are memory speed, not disk speed");
	/* a partition leads to its disk: loop4p1 to loop4 */
	assert_int_equal(walk(FK "/part", f), 1);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_string_equal(f[0].layer, "loop4");
	assert_string_equal(f[0].stack, FK "/part (ext4) > loop4p1 > loop4");
	assert_int_equal(cdm_stack_walk_dev("vdb1", &env, f, CDM_MEM_UNDER_MAX), 0);
	/* an anonymous device number (btrfs): the source's /dev name */
	assert_int_equal(walk(FK "/btr", f), 1);
	assert_string_equal(f[0].stack, FK "/btr (btrfs) > cdmfake9 > cdmfake9x");
	/* a cycle in slaves ends at the depth bound */
	assert_int_equal(walk(FK "/cycle", f), 0);
}

/* btrfs over several devices, overlayfs by its upper directory */
static void test_btrfs_overlay(void **state)
{
	struct cdm_mem_under f[CDM_MEM_UNDER_MAX];
	char d[8][CDM_STACK_NAME_MAX];

	(void)state;
	/* the case: the page-cached loop is the second device */
	assert_int_equal(walk(FK "/raid0/x", f), 1);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_string_equal(f[0].layer, "loop0");
	assert_string_equal(f[0].stack, FK "/raid0 (btrfs) > loop0");
	assert_int_equal(cdm_stack_devices(FK "/raid0", &env, d, 8), 2);
	assert_string_equal(d[0], "loop1");
	assert_string_equal(d[1], "loop0");
	/* the disks under both loops' backing files: vda once */
	assert_int_equal(cdm_stack_disks(FK "/raid0", &env, d, 8), 1);
	assert_string_equal(d[0], "vda");
	/* overlayfs: its upper directory (a comma escaped as \054) on tmpfs */
	assert_int_equal(walk(FK "/ovl/x", f), 1);
	assert_string_equal(f[0].kind, "memory_fs");
	assert_string_equal(f[0].stack,
			    FK "/ovl (overlay) > upper " FK "/shm/up,per > " FK "/shm (tmpfs)");
	assert_string_equal(f[0].fix, "run cdm on a directory of a disk's filesystem");
	assert_int_equal(cdm_stack_devices(FK "/ovl", &env, d, 8), 0);
	/* an upper directory on the btrfs raid0: its devices, its finding */
	assert_int_equal(walk(FK "/ovl-disk", f), 1);
	assert_string_equal(f[0].stack,
			    FK "/ovl-disk (overlay) > upper " FK "/raid0/up > " FK "/raid0 (btrfs) > loop0");
	assert_int_equal(cdm_stack_devices(FK "/ovl-disk", &env, d, 8), 2);
	assert_string_equal(d[0], "loop1");
	/* no upper directory (read-only, lower layers only): nothing walked */
	assert_int_equal(walk(FK "/ovl-ro", f), 0);
	assert_int_equal(cdm_stack_devices(FK "/ovl-ro", &env, d, 8), 0);
}

/* the devices a filesystem is on: md members and dm slaves after the device */
static void test_devices(void **state)
{
	char d[8][CDM_STACK_NAME_MAX];

	(void)state;
	/* dm over loop5 and loop0: the loops, not vda under their files */
	assert_int_equal(cdm_stack_devices(FK "/dm/x", &env, d, 8), 3);
	assert_string_equal(d[0], "dm-0");
	assert_true((!strcmp(d[1], "loop0") && !strcmp(d[2], "loop5")) ||
		    (!strcmp(d[1], "loop5") && !strcmp(d[2], "loop0")));
	/* md over a partition of vdb (as vdb) and zram1 */
	assert_int_equal(cdm_stack_devices(FK "/md", &env, d, 8), 3);
	assert_string_equal(d[0], "md0");
	assert_true((!strcmp(d[1], "vdb") && !strcmp(d[2], "zram1")) ||
		    (!strcmp(d[1], "zram1") && !strcmp(d[2], "vdb")));
	/* one device; a partition as its disk; a block device's own name */
	assert_int_equal(cdm_stack_devices("/", &env, d, 8), 1);
	assert_string_equal(d[0], "vda");
	assert_int_equal(cdm_stack_devices(FK "/part", &env, d, 8), 1);
	assert_string_equal(d[0], "loop4");
	assert_int_equal(cdm_stack_devices(FK "/shm", &env, d, 8), 0);
	/* room for one: the mount's own device */
	assert_int_equal(cdm_stack_devices(FK "/md", &env, d, 1), 1);
	assert_string_equal(d[0], "md0");
	assert_int_equal(cdm_stack_devices(FK "/cycle", &env, d, 8), 1);
	assert_string_equal(d[0], "dm-9");
}

/* each device described from the sysfs tree it is given */
static void test_describe(void **state)
{
	struct cdm_dev_info d;

	(void)state;
	cdm_sysinfo_device(root, "vda", &d);
	assert_string_equal(d.name, "vda");
	assert_string_equal(d.model, "QEMU HARDDISK");
	assert_int_equal(d.rotational, CDM_ROT_YES);
	assert_string_equal(d.scheduler, "mq-deadline");
	assert_int_equal(d.logical_block, 4096);
	cdm_sysinfo_device(root, "dm-0", &d);
	assert_string_equal(d.model, "device-mapper vg-lv");
	assert_int_equal(d.rotational, CDM_ROT_UNKNOWN);
	assert_string_equal(d.scheduler, "");
	assert_int_equal(d.logical_block, 0);
	/* not in the tree, or not a name: the name only */
	cdm_sysinfo_device(root, "sdz", &d);
	assert_string_equal(d.name, "sdz");
	assert_string_equal(d.model, "");
	cdm_sysinfo_device(root, "../vda", &d);
	assert_string_equal(d.model, "");
}

static void test_ram_disks(void **state)
{
	struct cdm_mem_under f[CDM_MEM_UNDER_MAX];

	(void)state;
	assert_int_equal(cdm_stack_walk_dev("ram0", &env, f, CDM_MEM_UNDER_MAX), 1);
	assert_string_equal(f[0].kind, "ram_disk");
	assert_string_equal(f[0].why,
			    "ram0 is a RAM disk (brd): the figures are memory speed, not disk speed");
	assert_int_equal(cdm_stack_walk_dev("nullb0", &env, f, CDM_MEM_UNDER_MAX), 1);
	assert_string_equal(f[0].kind, "null_blk");
	assert_int_equal(cdm_stack_walk_dev("vda", &env, f, CDM_MEM_UNDER_MAX), 0);
	/* names not in sysfs, or not names */
	assert_int_equal(cdm_stack_walk_dev("sdz", &env, f, CDM_MEM_UNDER_MAX), 0);
	assert_int_equal(cdm_stack_walk_dev("../vda", &env, f, CDM_MEM_UNDER_MAX), 0);
}

static void test_filesystems(void **state)
{
	struct cdm_mem_under f[CDM_MEM_UNDER_MAX];

	(void)state;
	assert_int_equal(walk(FK "/shm/x", f), 1);
	assert_string_equal(f[0].kind, "memory_fs");
	assert_string_equal(f[0].stack, FK "/shm (tmpfs)");
	assert_string_equal(f[0].fix, "run cdm on a directory of a disk's filesystem");
	assert_int_equal(walk(FK "/ram", f), 1);
	assert_string_equal(f[0].kind, "memory_fs");
	assert_non_null(strstr(f[0].why, " is ramfs, which keeps files in memory"));
	assert_int_equal(walk(FK "/fuse", f), 1);
	assert_string_equal(f[0].kind, "fuse");
	assert_string_equal(f[0].why,
			    FK "/fuse is a FUSE filesystem (fuse.sshfs): client-side caching may inflate the figures");
	assert_int_equal(walk(FK "/nfs/a", f), 1);
	assert_string_equal(f[0].kind, "network");
	assert_string_equal(f[0].layer, FK "/nfs (nfs4)");
}

static void test_bounds(void **state)
{
	struct cdm_mem_under f[CDM_MEM_UNDER_MAX];
	struct cdm_stack_env none = { root, "/nonexistent-cdm-mountinfo" };

	(void)state;
	/* room for one: the first found is kept */
	memset(f, 0, sizeof(f));
	assert_int_equal(cdm_stack_walk(FK "/onfuse", &env, f, 1), 1);
	assert_string_equal(f[0].kind, "loop_page_cache");
	assert_int_equal(cdm_stack_walk(FK "/onfuse", &env, f, 0), 0);
	/* no mountinfo: nothing found, nothing fails */
	assert_int_equal(cdm_stack_walk(FK "/san", &none, f, CDM_MEM_UNDER_MAX), 0);
}

/* the devices at the bottom of each stack: what the NUMA node is read from */
static void test_disks(void **state)
{
	char d[4][CDM_STACK_NAME_MAX];

	(void)state;
	/* dm over two loop devices whose files are on vda: vda, once */
	assert_int_equal(cdm_stack_disks(FK "/dm/x", &env, d, 4), 1);
	assert_string_equal(d[0], "vda");
	/* md over a partition of vdb and zram: vdb (zram has no disk) */
	assert_int_equal(cdm_stack_disks(FK "/md", &env, d, 4), 1);
	assert_string_equal(d[0], "vdb");
	assert_int_equal(cdm_stack_disks("/", &env, d, 4), 1);
	assert_string_equal(d[0], "vda");
	/* memory, FUSE and network filesystems are on no disk */
	assert_int_equal(cdm_stack_disks(FK "/shm", &env, d, 4), 0);
	assert_int_equal(cdm_stack_disks(FK "/fuse", &env, d, 4), 0);
	assert_int_equal(cdm_stack_disks(FK "/nfs", &env, d, 4), 0);
	assert_int_equal(cdm_stack_disks(FK "/ram", &env, d, 4), 0);
	/* a cycle in slaves ends; room for none: none written */
	assert_int_equal(cdm_stack_disks(FK "/cycle", &env, d, 4), 0);
	assert_int_equal(cdm_stack_disks("/", &env, d, 0), 0);
}

static void test_read_line(void **state)
{
	char buf[8], p[PATH_MAX + 16];

	(void)state;
	unit_fake_put("line", "0123456789\nsecond\n");
	snprintf(p, sizeof(p), "%s/line", root);
	assert_int_equal(cdm_file_read_line(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0123456");
	unit_fake_put("empty", "");
	snprintf(p, sizeof(p), "%s/empty", root);
	assert_int_equal(cdm_file_read_line(p, buf, sizeof(buf)), -ENODATA);
	assert_string_equal(buf, "");
	snprintf(p, sizeof(p), "%s/none", root);
	assert_int_equal(cdm_file_read_line(p, buf, sizeof(buf)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_page_cache),
		cmocka_unit_test(test_loop_on_memory),
		cmocka_unit_test(test_dm_md_partition),
		cmocka_unit_test(test_btrfs_overlay),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_ram_disks),
		cmocka_unit_test(test_filesystems),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_disks),
		cmocka_unit_test(test_read_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
