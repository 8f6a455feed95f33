/* SPDX-License-Identifier: MIT */
/*
 * test_target.c - unit tests for the pure parts of src/target.c and
 * src/device.c: the filesystem classifier behind the memory, FUSE/network
 * and btrfs messages, the mountinfo line parser behind the mount lookups,
 * and the block-device query and plan on things that are not devices.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "cdm/target/device.h"
#include "cdm/target/mountinfo.h"
#include "cdm/plan/plan.h"
#include "cdm/target/target.h"

static void test_fs_kind(void **state)
{
	static const struct { const char *type; enum cdm_fs_kind kind; } cases[] = {
		{ "ext4", CDM_FS_DISK }, { "xfs", CDM_FS_DISK }, { "f2fs", CDM_FS_DISK },
		{ "overlay", CDM_FS_DISK }, { "", CDM_FS_DISK }, { "unknown", CDM_FS_DISK },
		{ "tmpfs", CDM_FS_MEMORY }, { "ramfs", CDM_FS_MEMORY },
		{ "fuse", CDM_FS_FUSE }, { "fuseblk", CDM_FS_FUSE },
		{ "fuse.sshfs", CDM_FS_FUSE }, { "fuse.bindfs", CDM_FS_FUSE },
		{ "fuse.ceph-fuse", CDM_FS_FUSE }, { "fuse.glusterfs", CDM_FS_FUSE },
		{ "nfs", CDM_FS_NETWORK }, { "nfs4", CDM_FS_NETWORK },
		{ "cifs", CDM_FS_NETWORK }, { "smb3", CDM_FS_NETWORK },
		{ "smbfs", CDM_FS_NETWORK }, { "ceph", CDM_FS_NETWORK },
		{ "9p", CDM_FS_NETWORK }, { "virtiofs", CDM_FS_NETWORK },
		{ "glusterfs", CDM_FS_NETWORK }, { "lustre", CDM_FS_NETWORK },
		{ "afs", CDM_FS_NETWORK }, { "vboxsf", CDM_FS_NETWORK },
		{ "btrfs", CDM_FS_COW },
		/* prefixes are not enough: only "fuse." names a FUSE subtype */
		{ "fusectl", CDM_FS_DISK }, { "nfsd", CDM_FS_DISK },
		{ "btrfsx", CDM_FS_DISK }, { "tmpfs2", CDM_FS_DISK },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum cdm_fs_kind k = cdm_target_fs_kind(cases[i].type);

		if (k != cases[i].kind)
			fail_msg("'%s': kind %d, want %d", cases[i].type, k, cases[i].kind);
	}
}

static void test_mountinfo_parse(void **state)
{
	char mp[64], type[32], src[64];
	unsigned int ma = 0, mi = 0;

	(void)state;
	assert_int_equal(cdm_mountinfo_parse(
		"36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n",
		&ma, &mi, mp, sizeof(mp), type, src, sizeof(src)), 0);
	assert_int_equal(ma, 98);
	assert_int_equal(mi, 0);
	assert_string_equal(mp, "/mnt/parent");
	assert_string_equal(type, "ext3");
	assert_string_equal(src, "/dev/root");

	/* no optional fields; escapes in the mount point and the source */
	assert_int_equal(cdm_mountinfo_parse(
		"42 27 259:1 / /tmp/a\\040b\\011c rw,relatime - fuse.sshfs me@h:/x\\134y rw",
		&ma, &mi, mp, sizeof(mp), type, src, sizeof(src)), 0);
	assert_int_equal(ma, 259);
	assert_int_equal(mi, 1);
	assert_string_equal(mp, "/tmp/a b\tc");
	assert_string_equal(type, "fuse.sshfs");
	assert_string_equal(src, "me@h:/x\\y");

	/* several optional fields before the separator */
	assert_int_equal(cdm_mountinfo_parse(
		"50 1 0:45 / /srv rw shared:7 master:3 propagate_from:2 - btrfs /dev/vdb1 rw,compress=zstd:3",
		&ma, &mi, mp, sizeof(mp), type, src, sizeof(src)), 0);
	assert_int_equal(ma, 0);
	assert_int_equal(mi, 45);
	assert_string_equal(type, "btrfs");
	assert_string_equal(src, "/dev/vdb1");

	/* a long mount point is cut to the buffer, not overrun */
	assert_int_equal(cdm_mountinfo_parse(
		"1 2 8:1 / /a/very/long/mount/point/that/does/not/fit/in/sixteen rw - xfs /dev/sda1 rw",
		&ma, &mi, mp, 16, type, src, sizeof(src)), 0);
	assert_int_equal(strlen(mp), 15);

	/* other shapes */
	assert_int_equal(cdm_mountinfo_parse("", &ma, &mi, mp, sizeof(mp), type, src, sizeof(src)),
			 -EINVAL);
	assert_int_equal(cdm_mountinfo_parse("36 35 98:0 /mnt1 /mnt rw - ext4",
					     &ma, &mi, mp, sizeof(mp), type, src, sizeof(src)), -EINVAL);
	assert_int_equal(cdm_mountinfo_parse("36 35 xx /mnt1 /mnt rw - ext4 /dev/x rw",
					     &ma, &mi, mp, sizeof(mp), type, src, sizeof(src)), -EINVAL);
	assert_int_equal(cdm_mountinfo_parse("36 35 98:0 /mnt1 /mnt rw ext4 /dev/x rw",
					     &ma, &mi, mp, sizeof(mp), type, src, sizeof(src)), -EINVAL);
}

/* not a block device: nothing filled, and the plan is left as it was */
static void test_not_a_device(void **state)
{
	struct cdm_blockdev bd;
	struct cdm_run_config cfg;

	(void)state;
	assert_int_equal(cdm_device_query("/", &bd), 0);
	assert_int_equal(cdm_device_query("/dev/null", &bd), 0);
	assert_int_equal(cdm_device_query("/no/such/path", &bd), 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.target = "/";
	cfg.size = 1 << 20;
	cfg.do_read = cfg.do_write = 1;
	cfg.keep = 1;
	assert_int_equal(cdm_plan_device(&cfg, 0, 0, NULL), 0);
	assert_int_equal(cfg.do_write, 1);
	assert_int_equal(cfg.size, 1 << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_kind),
		cmocka_unit_test(test_mountinfo_parse),
		cmocka_unit_test(test_not_a_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
