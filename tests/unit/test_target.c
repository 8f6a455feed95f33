/* SPDX-License-Identifier: MIT */
/*
 * test_target.c - unit tests for src/target/: the filesystem classifier
 * behind the memory, FUSE/network and btrfs messages, the mountinfo line
 * parser behind the mount lookups, the block-device query and plan on
 * things that are not devices, the target probe's and the output check's
 * refusals (their -errno and the one line left in struct cdm_err), the
 * test file's life in a temporary directory (create, fill, keep, reuse,
 * remove; stale files of dead runs), and the O_DIRECT block-size rule
 * (plan/align.c) that the target's device imposes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/model/stamp.h"
#include "cdm/plan/align.h"
#include "cdm/plan/plan.h"
#include "cdm/target/device.h"
#include "cdm/target/mountinfo.h"
#include "cdm/target/outfile.h"
#include "cdm/target/target.h"
#include "cdm/target/testfile.h"

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
		enum cdm_fs_kind k = cdm_mountinfo_fs_kind(cases[i].type);

		if (k != cases[i].kind)
			fail_msg("'%s': kind %d, want %d", cases[i].type, k, cases[i].kind);
	}
}

/* a super option of a mount, by its whole key, escapes undone */
static void test_mountinfo_option(void **state)
{
	static struct cdm_mount m;
	char v[16];

	(void)state;
	snprintf(m.options, sizeof(m.options), "rw,upperdirx=/no,upperdir=/u\\054v,ro");
	assert_int_equal(cdm_mountinfo_option(&m, "upperdir", v, sizeof(v)), 0);
	assert_string_equal(v, "/u,v");
	assert_int_equal(cdm_mountinfo_option(&m, "upperdirx", v, sizeof(v)), 0);
	assert_string_equal(v, "/no");
	/* a flag has no value; a missing key; a value cut to the buffer */
	assert_int_equal(cdm_mountinfo_option(&m, "rw", v, sizeof(v)), -ENOENT);
	assert_string_equal(v, "");
	assert_int_equal(cdm_mountinfo_option(&m, "lowerdir", v, sizeof(v)), -ENOENT);
	snprintf(m.options, sizeof(m.options), "lowerdir=/a/very/long/path");
	assert_int_equal(cdm_mountinfo_option(&m, "lowerdir", v, 8), 0);
	assert_string_equal(v, "/a/very");
	m.options[0] = '\0';
	assert_int_equal(cdm_mountinfo_option(&m, "lowerdir", v, sizeof(v)), -ENOENT);
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

/* the temporary directories of the running test, removed by temp_cleanup() */
static char temp_dirs[8][256];
static unsigned int ntemp;

/* a fresh temporary directory for one test */
static void temp_dir(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(dir, len, "%s/cdm-target-XXXXXX", tmp);
	assert_non_null(mkdtemp(dir));
	if (ntemp < sizeof(temp_dirs) / sizeof(temp_dirs[0]))
		snprintf(temp_dirs[ntemp++], sizeof(temp_dirs[0]), "%s", dir);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	chmod(path, 0700);      /* a test may have taken its rights away */
	remove(path);
	return 0;
}

/*
 * Every test's teardown: what its temporary directories still hold, gone,
 * also when an assertion failed half-way (cmocka runs the teardown then).
 * A test that cleaned up after itself leaves nothing for it to do.
 */
static int temp_cleanup(void **state)
{
	(void)state;
	while (ntemp)
		nftw(temp_dirs[--ntemp], remove_one, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* what the probe refuses: -errno, and one line naming the path */
static void test_probe_errors(void **state)
{
	struct cdm_err err = { "" };
	struct cdm_target *t = malloc(sizeof(*t));
	char dir[256], file[300], want[600];
	int fd;

	(void)state;
	assert_non_null(t);
	temp_dir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/plain", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);

	assert_int_equal(cdm_target_probe("/no/such/dir", 1 << 20, t, &err), -ENOENT);
	assert_string_equal(err.msg, "/no/such/dir: no such directory");
	assert_int_equal(cdm_target_probe("/no/such/dir", 1 << 20, t, NULL), -ENOENT);

	assert_int_equal(cdm_target_probe(file, 1 << 20, t, &err), -ENOTDIR);
	snprintf(want, sizeof(want),
		 "%s: not a directory or a block device (cdm needs a directory to create its test file in)",
		 file);
	assert_string_equal(err.msg, want);

	/* more than any filesystem here has: 2^62 bytes */
	err.msg[0] = '\0';
	assert_int_equal(cdm_target_probe(dir, 1ull << 62, t, &err), -ENOSPC);
	snprintf(want, sizeof(want), "%s: ", dir);
	assert_memory_equal(err.msg, want, strlen(want));

	/* and what it accepts: a directory with room, nothing created in it */
	err.msg[0] = '\0';
	assert_int_equal(cdm_target_probe(dir, 4096, t, &err), 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(t->is_device, 0);
	assert_string_equal(t->path, dir);
	assert_true(t->fs_type[0] != '\0');

	unlink(file);
	assert_int_equal(rmdir(dir), 0);
	free(t);
}

/* a test file's life: create, fill, keep, reuse, remove */
static void test_testfile_life(void **state)
{
	struct cdm_err err = { "" };
	struct cdm_target *t = malloc(sizeof(*t));
	struct cdm_testfile *f = malloc(sizeof(*f)), *g = malloc(sizeof(*g));
	char dir[256], kept[4400], want[4600];
	uint64_t words[4];
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(t);
	assert_non_null(f);
	assert_non_null(g);
	temp_dir(dir, sizeof(dir));
	assert_int_equal(cdm_target_probe(dir, 1 << 20, t, &err), 0);
	assert_int_equal(cdm_testfile_create(f, t, 1 << 20, 0, &err), 0);
	assert_int_equal(f->created, 1);
	assert_true(f->fd >= 0);
	assert_memory_equal(f->path, dir, strlen(dir));
	assert_non_null(strstr(f->path, "/cdm-"));
	assert_string_equal(f->path + strlen(f->path) - 4, ".tmp");

	/* prepared: sized and written all over */
	assert_int_equal(cdm_testfile_fill(f, 0, NULL, NULL, &err), 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	/* pseudo-random data: not zeros, no word repeated */
	assert_int_equal(pread(f->fd, words, sizeof(words), 4096), (ssize_t)sizeof(words));
	assert_true(words[0] != 0 && words[0] != words[1] && words[1] != words[2]);

	/* kept: renamed .keep, marked, and then taken again by --file */
	assert_int_equal(cdm_testfile_keep(f, &err), 0);
	assert_string_equal(f->path + strlen(f->path) - 5, ".keep");
	assert_int_equal(f->created, 0);
	snprintf(kept, sizeof(kept), "%s", f->path);
	/* its run holds the lock until the end (remove: it stays, it is kept) */
	assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), -EBUSY);
	assert_int_equal(cdm_testfile_remove(f), 0);
	assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), 0);
	assert_int_equal(g->size, 1 << 20);
	assert_int_equal(g->created, 0);
	/* in use by that run: refused */
	assert_int_equal(cdm_testfile_reuse(f, kept, 1, 0, &err), -EBUSY);
	snprintf(want, sizeof(want), "%s: in use by another cdm run", kept);
	assert_string_equal(err.msg, want);
	assert_int_equal(cdm_testfile_remove(g), 0);
	assert_int_equal(stat(kept, &st), 0);   /* never removed by cdm */

	/* a file cdm did not make, and a directory, are refused */
	fd = open(kept, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);         /* its size changed */
	close(fd);
	assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), -EPERM);
	snprintf(want, sizeof(want),
		 "%s: not a test file that cdm prepared and kept (--keep), or its size changed; cdm writes only to files it made",
		 kept);
	assert_string_equal(err.msg, want);
	assert_int_equal(cdm_testfile_reuse(g, dir, 1, 0, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file (a test file kept by --keep is expected)",
		 dir);
	assert_string_equal(err.msg, want);

	unlink(kept);
	snprintf(want, sizeof(want), "%s.cdm", kept);
	unlink(want);           /* a sidecar, where there are no user xattrs */
	assert_int_equal(rmdir(dir), 0);
	free(t);
	free(f);
	free(g);
}

/* a prepared test file of @size bytes in @dir, for keep and reuse */
static void made_file(struct cdm_testfile *f, struct cdm_target *t, const char *dir,
		      uint64_t size)
{
	struct cdm_err err = { "" };

	assert_int_equal(cdm_target_probe(dir, size, t, &err), 0);
	assert_int_equal(cdm_testfile_create(f, t, size, 0, &err), 0);
	assert_int_equal(cdm_testfile_fill(f, 0, NULL, NULL, &err), 0);
}

/*
 * --keep never renames over a file, and a keep that fails leaves nothing
 * kept: the .tmp file is still cdm's to remove, no sidecar is left
 */
static void test_keep_fails_cleanly(void **state)
{
	struct cdm_err err = { "" };
	struct cdm_target *t = malloc(sizeof(*t));
	struct cdm_testfile *f = malloc(sizeof(*f));
	char dir[256], tmp[4400], kept[4400], want[9000], buf[8];
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(t);
	assert_non_null(f);
	temp_dir(dir, sizeof(dir));
	made_file(f, t, dir, 1 << 20);
	snprintf(tmp, sizeof(tmp), "%s", f->path);
	snprintf(kept, sizeof(kept), "%.*s.keep", (int)strlen(tmp) - 4, tmp);
	/* someone's file already has the .keep name */
	fd = open(kept, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "mine", 4), 4);
	close(fd);
	assert_int_equal(cdm_testfile_keep(f, &err), -EEXIST);
	snprintf(want, sizeof(want), "%s: cannot keep the test file: cannot rename it to %s: %s",
		 tmp, kept, strerror(EEXIST));
	assert_string_equal(err.msg, want);
	assert_int_equal(f->created, 1);
	assert_string_equal(f->path, tmp);
	/* the other file is untouched; no sidecar */
	assert_int_equal(stat(kept, &st), 0);
	assert_int_equal(st.st_size, 4);
	fd = open(kept, O_RDONLY);
	assert_int_equal(read(fd, buf, 4), 4);
	close(fd);
	assert_memory_equal(buf, "mine", 4);
	snprintf(want, sizeof(want), "%s.cdm", kept);
	assert_int_equal(stat(want, &st), -1);
	/* and the test file goes as any failed run's does */
	assert_int_equal(cdm_testfile_remove(f), 0);
	assert_int_equal(stat(tmp, &st), -1);
	unlink(kept);
	assert_int_equal(rmdir(dir), 0);
	free(t);
	free(f);
}

/*
 * --file on a kept file that reads without the device somewhere: a hole
 * (truncated and extended, or punched) or, where FIEMAP reports them, an
 * unwritten extent (fallocated): taken, with where it starts; after a
 * fill, taken plain.  On the temporary directory's filesystem.
 */
static void test_reuse_unwritten(void **state)
{
	struct cdm_err err = { "" };
	struct cdm_target *t = malloc(sizeof(*t));
	struct cdm_testfile *f = malloc(sizeof(*f)), *g = malloc(sizeof(*g));
	char dir[256], kept[4400], side[4500];
	const uint64_t size = 1 << 20;
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(t);
	assert_non_null(f);
	assert_non_null(g);
	temp_dir(dir, sizeof(dir));
	made_file(f, t, dir, size);
	assert_int_equal(cdm_testfile_keep(f, &err), 0);
	snprintf(kept, sizeof(kept), "%s", f->path);
	assert_int_equal(cdm_testfile_remove(f), 0);
	/* written all over: plain */
	assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), 0);
	assert_int_equal(g->unwritten, 0);
	cdm_testfile_remove(g);

	/* truncated and extended again: one hole, from 0 */
	assert_int_equal(truncate(kept, 0), 0);
	assert_int_equal(truncate(kept, (off_t)size), 0);
	assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), 0);
	assert_int_equal(g->unwritten, 1);
	assert_int_equal(g->unwritten_at, 0);
	assert_string_equal(g->unwritten_what, "a hole");
	/* filled again, as the runner does: plain */
	assert_int_equal(cdm_testfile_fill(g, 0, NULL, NULL, &err), 0);
	cdm_testfile_remove(g);
	assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), 0);
	assert_int_equal(g->unwritten, 0);

	/* a hole punched at 256 KiB (where the filesystem can) */
	if (fallocate(g->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 256 << 10, 64 << 10) == 0) {
		cdm_testfile_remove(g);
		assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), 0);
		assert_int_equal(g->unwritten, 1);
		assert_int_equal(g->unwritten_at, 256 << 10);
		assert_string_equal(g->unwritten_what, "a hole");
	}
	cdm_testfile_remove(g);

	/* truncated and fallocated: unwritten where FIEMAP says so, else a hole or data */
	assert_int_equal(truncate(kept, 0), 0);
	fd = open(kept, O_RDWR);
	assert_true(fd >= 0);
	if (fallocate(fd, 0, 0, (off_t)size) == 0) {
		close(fd);
		assert_int_equal(cdm_testfile_reuse(g, kept, 1, 0, &err), 0);
		print_message("fallocated kept file: %s\n", g->unwritten ? g->unwritten_what : "data");
		if (t->fs_type[0] && (!strcmp(t->fs_type, "ext4") || !strcmp(t->fs_type, "xfs") ||
				      !strcmp(t->fs_type, "btrfs"))) {
			assert_int_equal(g->unwritten, 1);
			assert_int_equal(g->unwritten_at, 0);
			assert_string_equal(g->unwritten_what, "an unwritten extent");
		}
		cdm_testfile_remove(g);
	} else {
		close(fd);
	}
	assert_int_equal(stat(kept, &st), 0);   /* --file: never removed */
	unlink(kept);
	snprintf(side, sizeof(side), "%s.cdm", kept);
	unlink(side);
	assert_int_equal(rmdir(dir), 0);
	free(t);
	free(f);
	free(g);
}

static int stop_now(void)
{
	return 1;
}

/* a stop request ends the preparation with -EINTR and no message; remove removes */
static void test_testfile_stop(void **state)
{
	struct cdm_err err = { "" };
	struct cdm_target *t = malloc(sizeof(*t));
	struct cdm_testfile *f = malloc(sizeof(*f));
	char dir[256], path[4400];
	struct stat st;

	(void)state;
	assert_non_null(t);
	assert_non_null(f);
	temp_dir(dir, sizeof(dir));
	assert_int_equal(cdm_target_probe(dir, 1 << 20, t, &err), 0);
	assert_int_equal(cdm_testfile_create(f, t, 1 << 20, 0, &err), 0);
	assert_int_equal(cdm_testfile_fill(f, 1, NULL, stop_now, &err), -EINTR);
	assert_string_equal(err.msg, "");
	snprintf(path, sizeof(path), "%s", f->path);
	assert_int_equal(cdm_testfile_remove(f), 0);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(cdm_testfile_remove(f), 0);    /* twice is fine */
	assert_int_equal(rmdir(dir), 0);
	free(t);
	free(f);
}

/* --precondition's progress: the passes seen, and the last count of each */
static unsigned int pc_calls, pc_starts[3];
static uint64_t pc_last[3];

static void pc_progress(unsigned int pass, uint64_t done, uint64_t total)
{
	assert_true(pass >= 1 && pass <= 2);
	assert_int_equal(total, 3u << 20);
	assert_true(done <= total && done >= pc_last[pass]);
	pc_calls++;
	if (!done)
		pc_starts[pass]++;
	pc_last[pass] = done;
}

/*
 * the sectors of @fd's first @size bytes: each stamped with its own
 * offset by the preparation (seq 0); returns a hash of the data, to see
 * that a pass rewrote it
 */
static uint64_t check_stamps(int fd, uint64_t size)
{
	static unsigned char buf[1 << 20];
	uint64_t h = 1469598103934665603ull;

	for (uint64_t off = 0; off < size; off += sizeof(buf)) {
		assert_int_equal(pread(fd, buf, sizeof(buf), (off_t)off), (ssize_t)sizeof(buf));
		for (size_t i = 0; i < sizeof(buf); i += CDM_STAMP_SECTOR) {
			struct cdm_stamp st;

			cdm_stamp_read(buf + i, CDM_STAMP_SECTOR, &st);
			assert_int_equal(st.offset, off + i);
			assert_int_equal(st.seq, CDM_STAMP_PREP);
		}
		for (size_t i = 0; i < sizeof(buf); i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	}
	return h;
}

/*
 * --precondition: a fresh file is pre-sized and written twice, an old one
 * twice more; every sector carries the preparation's stamp for its own
 * offset, with new data each time; a file whose size is not a whole
 * number of 128 KiB blocks ends in a shorter write; a stop request ends it
 */
static void test_testfile_precondition(void **state)
{
	struct cdm_err err = { "" };
	struct cdm_target *t = malloc(sizeof(*t));
	struct cdm_testfile *f = malloc(sizeof(*f));
	char dir[256], path[4400];
	uint64_t size = 3u << 20, h1, h2;
	struct stat st;

	(void)state;
	assert_non_null(t);
	assert_non_null(f);
	temp_dir(dir, sizeof(dir));
	assert_int_equal(cdm_target_probe(dir, size, t, &err), 0);
	assert_int_equal(cdm_testfile_create(f, t, size, 0, &err), 0);
	assert_int_equal(cdm_testfile_precondition(f, 0, 1, NULL, 0, pc_progress, NULL, &err), 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(fstat(f->fd, &st), 0);
	assert_int_equal(st.st_size, size);
	assert_int_equal(pc_starts[1], 1);
	assert_int_equal(pc_starts[2], 1);
	assert_int_equal(pc_last[1], size);
	assert_int_equal(pc_last[2], size);
	h1 = check_stamps(f->fd, size);
	/* an old file: both passes again, new data with the same stamps */
	assert_int_equal(cdm_testfile_precondition(f, 0, 0, NULL, 0, NULL, NULL, &err), 0);
	h2 = check_stamps(f->fd, size);
	assert_true(h1 != h2);
	/* zeros with --data zero */
	assert_int_equal(cdm_testfile_precondition(f, 1, 0, NULL, 0, NULL, NULL, &err), 0);
	{
		static unsigned char z[1 << 20], buf[1 << 20];

		for (uint64_t off = 0; off < size; off += sizeof(buf)) {
			assert_int_equal(pread(f->fd, buf, sizeof(buf), (off_t)off), (ssize_t)sizeof(buf));
			assert_memory_equal(buf, z, sizeof(buf));
		}
	}
	/* a stop request: -EINTR, no message */
	assert_int_equal(cdm_testfile_precondition(f, 0, 0, NULL, 0, NULL, stop_now, &err), -EINTR);
	assert_string_equal(err.msg, "");
	snprintf(path, sizeof(path), "%s", f->path);
	assert_int_equal(cdm_testfile_remove(f), 0);
	assert_int_equal(stat(path, &st), -1);

	/* 1 MiB + 4 KiB: the last write of each pass is 4 KiB */
	size = (1u << 20) + 4096;
	assert_int_equal(cdm_testfile_create(f, t, size, 0, &err), 0);
	assert_int_equal(cdm_testfile_precondition(f, 0, 1, NULL, 0, NULL, NULL, &err), 0);
	assert_int_equal(fstat(f->fd, &st), 0);
	assert_int_equal(st.st_size, size);
	{
		static unsigned char buf[4096];
		struct cdm_stamp sp;

		assert_int_equal(pread(f->fd, buf, sizeof(buf), 1 << 20), (ssize_t)sizeof(buf));
		cdm_stamp_read(buf + 3584, CDM_STAMP_SECTOR, &sp);
		assert_int_equal(sp.offset, (1u << 20) + 3584);
	}
	assert_int_equal(cdm_testfile_remove(f), 0);
	assert_int_equal(rmdir(dir), 0);
	free(t);
	free(f);
}

/* files of dead runs of this host go; live, other hosts' and kept files stay */
static void test_clean_stale(void **state)
{
	char dir[256], host[256], p[4][600];
	pid_t dead;
	int fd;

	(void)state;
	temp_dir(dir, sizeof(dir));
	if (gethostname(host, sizeof(host)) < 0 || !host[0])
		snprintf(host, sizeof(host), "localhost");
	for (char *c = host; *c; c++)
		if (*c == '/')
			*c = '_';
	dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	snprintf(p[0], sizeof(p[0]), "%s/cdm-%s-%d-0123abcd.tmp", dir, host, (int)dead);
	snprintf(p[1], sizeof(p[1]), "%s/cdm-%s-%d-0123abcd.tmp", dir, host, (int)getppid());
	snprintf(p[2], sizeof(p[2]), "%s/cdm-another-host-%d-0123abcd.tmp", dir, (int)dead);
	snprintf(p[3], sizeof(p[3]), "%s/cdm-%s-%d-0123abcd.keep", dir, host, (int)dead);
	for (int i = 0; i < 4; i++) {
		fd = open(p[i], O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	assert_int_equal(cdm_testfile_clean_stale(dir), 1);
	assert_int_equal(access(p[0], F_OK), -1);
	for (int i = 1; i < 4; i++) {
		assert_int_equal(access(p[i], F_OK), 0);
		unlink(p[i]);
	}
	assert_int_equal(cdm_testfile_clean_stale("/no/such/dir"), -ENOENT);
	assert_int_equal(rmdir(dir), 0);
}

/* where --output, --save and --plot may not write */
static void test_outfile_check(void **state)
{
	struct cdm_err err = { "" };
	char dir[256], fifo[300], want[700];

	(void)state;
	temp_dir(dir, sizeof(dir));
	assert_int_equal(cdm_outfile_check(dir, "--save", 1, &err), -EISDIR);
	snprintf(want, sizeof(want), "%s: is a directory, not a file for --save", dir);
	assert_string_equal(err.msg, want);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(cdm_outfile_check(fifo, "--plot", 1, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: not a regular file; --plot writes a new file and renames it into place", fifo);
	assert_string_equal(err.msg, want);
	err.msg[0] = '\0';
	assert_int_equal(cdm_outfile_check(fifo, "--output", 0, &err), 0);     /* written in place */
	assert_string_equal(err.msg, "");
	assert_int_equal(cdm_outfile_check("/no/such/dir/x.json", "--output", 0, &err), -ENOENT);
	assert_string_equal(err.msg,
			    "/no/such/dir/x.json: cannot create the file for --output: No such file or directory");
	unlink(fifo);
	assert_int_equal(rmdir(dir), 0);
}

/* a name's extension against what the option writes: its format's row */
static void test_outfile_check_format(void **state)
{
	struct cdm_err err = { "" };

	(void)state;
	assert_int_equal(cdm_outfile_check_format("r.txt", "--output", "txt", "CDM text", &err), 0);
	/* another extension of the same kind, case ignored */
	assert_int_equal(cdm_outfile_check_format("d/r.TEXT", "--output", "txt", "CDM text", &err), 0);
	assert_int_equal(cdm_outfile_check_format("r.Markdown", "--output", "md", "Markdown", &err), 0);
	/* no extension, a hidden file's name, an extension of no kind */
	assert_int_equal(cdm_outfile_check_format("r", "--output", "json", "JSON", &err), 0);
	assert_int_equal(cdm_outfile_check_format("d.x/.svg", "--svg", "svg", "SVG", &err), 0);
	assert_int_equal(cdm_outfile_check_format("r.log", "--save", "json", "JSON", &err), 0);
	/* an extension no kind lists is the format's own, and no other's */
	assert_int_equal(cdm_outfile_check_format("r.ndjson", "--output", "ndjson", "NDJSON", &err), 0);
	assert_int_equal(cdm_outfile_check_format("r.ndjson", "--output", "csv", "CSV", &err), 0);
	assert_int_equal(cdm_outfile_check_format("r.json", "--output", "ndjson", "NDJSON", &err), -EINVAL);
	assert_string_equal(err.msg,
			    "r.json: the name says JSON, but --output writes NDJSON: name it *.ndjson (or give no extension)");
	/* no format known: any name */
	assert_int_equal(cdm_outfile_check_format("r.png", "--output", NULL, NULL, &err), 0);
	assert_int_equal(cdm_outfile_check_format("x.json", "--output", "txt", "CDM text", &err), -EINVAL);
	assert_string_equal(err.msg,
			    "x.json: the name says JSON, but --output writes CDM text: name it *.txt (or give no extension)");
	assert_int_equal(cdm_outfile_check_format("c.JPEG", "--svg", "svg", "SVG", NULL), -EINVAL);
	assert_int_equal(cdm_outfile_check_format("s.ods", "--save", "json", "JSON", &err), -EINVAL);
	assert_string_equal(err.msg,
			    "s.ods: the name says a spreadsheet, but --save writes JSON: name it *.json (or give no extension)");
}

/* O_DIRECT: every test's block size a multiple of the logical block size */
static void test_align_check(void **state)
{
	struct cdm_spec tests[2] = {
		{ .pattern = CDM_SEQ, .block = 1 << 20, .qd = 8, .threads = 1 },
		{ .pattern = CDM_RND, .block = 512, .qd = 1, .threads = 1 },
	};
	struct cdm_err err = { "" };

	(void)state;
	assert_int_equal(cdm_align_check(tests, 2, 512, "vdb", &err), 0);
	assert_int_equal(cdm_align_check(tests, 2, 0, "vdb", &err), 0);        /* unknown */
	assert_string_equal(err.msg, "");
	assert_int_equal(cdm_align_check(tests, 2, 4096, "vdb", &err), -EINVAL);
	assert_string_equal(err.msg,
			    "RND512B Q1T1: block size 512 B is not a multiple of the 4096-byte logical block size of vdb, which O_DIRECT needs; use multiples of 4096 B, or --buffered");
	assert_int_equal(cdm_align_check(tests, 2, 4096, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "logical block size of the device,"));
	assert_int_equal(cdm_align_check(tests, 1, 4096, "vdb", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_fs_kind, temp_cleanup),
		cmocka_unit_test_teardown(test_mountinfo_parse, temp_cleanup),
		cmocka_unit_test(test_mountinfo_option),
		cmocka_unit_test_teardown(test_not_a_device, temp_cleanup),
		cmocka_unit_test_teardown(test_probe_errors, temp_cleanup),
		cmocka_unit_test_teardown(test_testfile_life, temp_cleanup),
		cmocka_unit_test_teardown(test_testfile_stop, temp_cleanup),
		cmocka_unit_test_teardown(test_testfile_precondition, temp_cleanup),
		cmocka_unit_test_teardown(test_keep_fails_cleanly, temp_cleanup),
		cmocka_unit_test_teardown(test_reuse_unwritten, temp_cleanup),
		cmocka_unit_test_teardown(test_clean_stale, temp_cleanup),
		cmocka_unit_test_teardown(test_outfile_check, temp_cleanup),
		cmocka_unit_test(test_outfile_check_format),
		cmocka_unit_test_teardown(test_align_check, temp_cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
