/* SPDX-License-Identifier: MIT */
/*
 * device.c - a raw block device as TARGET: its size and sectors, the
 * exclusive open that refuses a device in use and the lookup that says
 * who uses it, and the warning about blocks that were never written.
 * (The rules a plan must follow on a device are plan/plan.c's.)  The rules
 * are in include/cdm/target/device.h and docs/safety.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/file.h"
#include "cdm/base/lfs.h"
#include "cdm/base/msg.h"
#include "cdm/base/size.h"
#include "cdm/target/device.h"
#include "cdm/target/mountinfo.h"

#define SAMPLES 64

static void sys_dir(dev_t dev, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/dev/block/%u:%u", major(dev), minor(dev));
}

int cdm_device_query(const char *path, struct cdm_blockdev *bd)
{
	char link[64], real[PATH_MAX];
	struct stat st;
	uint64_t bytes = 0;
	int fd, lbs = 0, ro = 0;
	unsigned int pbs = 0;

	memset(bd, 0, sizeof(*bd));
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	/* read-only and without O_EXCL: asking the size changes nothing */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (ioctl(fd, BLKPBSZGET, &pbs) < 0)
		pbs = 0;
	if (ioctl(fd, BLKROGET, &ro) < 0)
		ro = 0;
	close(fd);
	bd->rdev = st.st_rdev;
	bd->size = bytes;
	bd->logical_block = lbs > 0 ? (unsigned int)lbs : 512;
	bd->physical_block = pbs;
	bd->read_only = ro != 0;
	sys_dir(st.st_rdev, link, sizeof(link));
	if (realpath(link, real)) {
		const char *slash = strrchr(real, '/');

		snprintf(bd->name, sizeof(bd->name), "%.*s", (int)sizeof(bd->name) - 1,
			 slash ? slash + 1 : real);
	}
	return 1;
}

/* the device and its partitions: names and numbers */
struct devlist {
	unsigned int n;
	char name[64][64];
	dev_t dev[64];
};

static void list_parts(const struct cdm_blockdev *bd, struct devlist *l)
{
	char dir[64], real[PATH_MAX], file[PATH_MAX + 300], buf[64];
	struct dirent *de;
	unsigned int ma, mi;
	DIR *d;

	l->n = 1;
	snprintf(l->name[0], sizeof(l->name[0]), "%s", bd->name);
	l->dev[0] = bd->rdev;
	sys_dir(bd->rdev, dir, sizeof(dir));
	if (!realpath(dir, real))
		return;
	d = opendir(real);
	if (!d)
		return;
	while ((de = readdir(d)) && l->n < 64) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/partition", real, de->d_name);
		if (access(file, F_OK) < 0)
			continue;
		snprintf(file, sizeof(file), "%s/%s/dev", real, de->d_name);
		if (cdm_file_read_line(file, buf, sizeof(buf)) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
			continue;
		snprintf(l->name[l->n], sizeof(l->name[0]), "%.63s", de->d_name);
		l->dev[l->n++] = makedev(ma, mi);
	}
	closedir(d);
}

/* "" for the device itself, "partition sdb1 " for one of its partitions */
static void who(const struct devlist *l, unsigned int i, char *buf, size_t len)
{
	if (i == 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "its partition %s ", l->name[i]);
}

static int find_in(const struct devlist *l, dev_t dev)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->dev[i] == dev)
			return (int)i;
	return -1;
}

static int mounted(const struct devlist *l, char *why, size_t len)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, mp[4096], type[32], src[4096], w[96];
	size_t cap = 0;
	unsigned int ma, mi;
	int found = 0, i;

	if (!fp)
		return 0;
	while (!found && getline(&line, &cap, fp) > 0) {
		struct stat st;

		if (cdm_mountinfo_parse(line, &ma, &mi, mp, sizeof(mp), type, src, sizeof(src)) < 0)
			continue;
		i = find_in(l, makedev(ma, mi));
		/* btrfs and others show an anonymous number: try the source */
		if (i < 0 && src[0] == '/' && stat(src, &st) == 0 && S_ISBLK(st.st_mode))
			i = find_in(l, st.st_rdev);
		if (i < 0)
			continue;
		who(l, (unsigned int)i, w, sizeof(w));
		snprintf(why, len, "%s%smounted on %s (%s)", w, i ? "is " : "", mp, type);
		found = 1;
	}
	free(line);
	fclose(fp);
	return found;
}

static int swap(const struct devlist *l, char *why, size_t len)
{
	FILE *fp = fopen("/proc/swaps", "re");
	char line[4200], name[4096], w[96];
	int found = 0, i;

	if (!fp)
		return 0;
	while (!found && fgets(line, sizeof(line), fp)) {
		struct stat st;

		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		if (stat(name, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		i = find_in(l, st.st_rdev);
		if (i < 0)
			continue;
		who(l, (unsigned int)i, w, sizeof(w));
		snprintf(why, len, "%s%sin use as swap (swapoff %s to free it)", w,
			 i ? "is " : "", name);
		found = 1;
	}
	fclose(fp);
	return found;
}

static int held(const struct devlist *l, char *why, size_t len)
{
	char dir[128], file[400], buf[256], w[96];
	struct dirent *de;
	DIR *d;

	for (unsigned int i = 0; i < l->n; i++) {
		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
			 major(l->dev[i]), minor(l->dev[i]));
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			who(l, i, w, sizeof(w));
			snprintf(file, sizeof(file), "/sys/block/%.200s/dm/name", de->d_name);
			if (cdm_file_read_line(file, buf, sizeof(buf)) == 0)
				snprintf(why, len, "%s%sheld by device-mapper %.64s (%.100s)", w,
					 i ? "is " : "", de->d_name, buf);
			else if (!strncmp(de->d_name, "md", 2))
				snprintf(why, len, "%s%spart of the md RAID %.64s", w, i ? "is " : "",
					 de->d_name);
			else
				snprintf(why, len, "%s%sheld by %.64s", w, i ? "is " : "", de->d_name);
			closedir(d);
			return 1;
		}
		closedir(d);
	}
	return 0;
}

int cdm_device_in_use(const struct cdm_blockdev *bd, char *why, size_t len)
{
	struct devlist *l = malloc(sizeof(*l));
	int r;

	why[0] = '\0';
	if (!l)
		return 0;
	list_parts(bd, l);
	r = mounted(l, why, len) || swap(l, why, len) || held(l, why, len);
	free(l);
	return r;
}

int cdm_device_open(const char *path, const struct cdm_blockdev *bd, int writes,
		    int direct, struct cdm_err *err)
{
	int flags = (writes ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC | (direct ? O_DIRECT : 0);
	char why[4300];
	struct stat st;
	int fd, e;

	/* the kernel lets a read-only device be opened O_RDWR; writes then fail */
	if (writes && bd->read_only)
		return cdm_err_set(err, -EROFS, "%s: the device is read-only, so write tests cannot run on it",
				   path);
	fd = open(path, flags);
	if (fd < 0) {
		e = errno;
		if (e == EBUSY && writes && cdm_device_in_use(bd, why, sizeof(why)))
			return cdm_err_set(err, -e, "%s: in use, so cdm will not write to it: %s",
					   path, why);
		if (e == EBUSY && writes)
			return cdm_err_set(err, -e,
					   "%s: in use, so cdm will not write to it: another program holds it exclusively (a filesystem, LVM, RAID, or another cdm run)",
					   path);
		if (e == EINVAL && direct)
			return cdm_err_set(err, -e, "%s: the device does not support O_DIRECT; run with --buffered",
					   path);
		if (writes && (e == EROFS || e == EACCES || e == EPERM))
			return cdm_err_set(err, -e, "%s: cannot open the device for writing: %s",
					   path, strerror(e));
		return cdm_err_set(err, -e, "%s: cannot open the device: %s", path, strerror(e));
	}
	/* the node may have changed since it was probed */
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != bd->rdev) {
		close(fd);
		return cdm_err_set(err, -ESTALE, "%s: changed since it was checked; not a run on it",
				   path);
	}
	return fd;
}

/*
 * A loop device over a file: how much of [offset, offset + size) of its
 * backing file holds data (SEEK_DATA/SEEK_HOLE).  Returns 0 and fills
 * @data and @file, or -1 when @bd is not a loop device or it cannot say.
 */
static int loop_data(const struct cdm_blockdev *bd, uint64_t size, uint64_t *data,
		     char *file, size_t len)
{
	char dir[64], p[128], buf[64];
	unsigned long long off = 0;
	off_t pos, end, hole;
	struct stat st;
	int fd;

	sys_dir(bd->rdev, dir, sizeof(dir));
	snprintf(p, sizeof(p), "%s/loop/backing_file", dir);
	if (cdm_file_read_line(p, file, len) < 0 || file[0] != '/')
		return -1;
	snprintf(p, sizeof(p), "%s/loop/offset", dir);
	if (cdm_file_read_line(p, buf, sizeof(buf)) == 0)
		off = strtoull(buf, NULL, 10);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* a loop over a device or a filesystem without SEEK_DATA cannot say */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || lseek(fd, 0, SEEK_HOLE) < 0) {
		close(fd);
		return -1;
	}
	*data = 0;
	pos = (off_t)off;
	end = (off_t)(off + size);
	while (pos < end) {
		pos = lseek(fd, pos, SEEK_DATA);
		if (pos < 0 && errno != ENXIO) {
			close(fd);
			return -1;
		}
		if (pos < 0 || pos >= end)
			break;          /* ENXIO: only holes from here on */
		hole = lseek(fd, pos, SEEK_HOLE);
		if (hole < 0 || hole > end)
			hole = end;
		*data += (uint64_t)(hole - pos);
		pos = hole;
	}
	close(fd);
	return 0;
}

/* 1 when SAMPLES blocks spread over the region all read as zeros */
static int sampled_zero(int fd, const struct cdm_blockdev *bd, uint64_t size)
{
	size_t len = bd->logical_block > 4096 ? bd->logical_block : 4096;
	uint64_t step;
	unsigned char *buf;
	int zero = 1;

	if (size < (uint64_t)len * SAMPLES)
		return 0;
	step = size / SAMPLES / len * len;
	if (posix_memalign((void **)&buf, len, len))
		return 0;
	for (unsigned int i = 0; zero && i < SAMPLES; i++) {
		if (pread(fd, buf, len, (off_t)(step * i)) != (ssize_t)len) {
			zero = 0;
			break;
		}
		for (size_t k = 0; k < len; k++)
			if (buf[k]) {
				zero = 0;
				break;
			}
	}
	free(buf);
	return zero;
}

void cdm_device_notes(const char *path, const struct cdm_blockdev *bd, int fd,
		      uint64_t size)
{
	char why[4300], file[4096], sz[32], how[1024];
	uint64_t data = 0;

	if (cdm_device_in_use(bd, why, sizeof(why)))
		cdm_msg_note("%s: %s: its users' own I/O may disturb the figures", path, why);
	cdm_size_format(size, sz, sizeof(sz));
	snprintf(how, sizeof(how),
		 "write it first: cdm --mode write --allow-destructive-write %s (which fills it), or dd if=/dev/urandom of=%s bs=1M oflag=direct",
		 path, path);
	if (loop_data(bd, size, &data, file, sizeof(file)) == 0) {
		if (data < size) {
			cdm_msg_warn("%s: %" PRIu64 "%% of the %s tested was never written (a loop device over the sparse file %s): reading never-written blocks returns zeros without touching the media; %s",
				 path, (size - data) * 100 / size + ((size - data) * 100 % size != 0),
				 sz, file, how);
		}
		return;
	}
	if (sampled_zero(fd, bd, size))
		cdm_msg_warn("%s: all %d blocks sampled over the %s tested read back as zeros: it may never have been written (a thin-provisioned LUN, a sparse image, a trimmed SSD), and such reads may not touch the media; %s",
			 path, SAMPLES, sz, how);
	else
		cdm_msg_note("%s: reads of blocks that were never written (thin-provisioned LUNs, sparse images, trimmed SSDs) may not touch the media; if it was never written, %s",
			 path, how);
}
