/* SPDX-License-Identifier: MIT */
/*
 * sysinfo.c - the run information a saved result carries so that two runs
 * can be told apart later: which block device the target's filesystem is
 * on (model, rotational, I/O scheduler, from /sys/dev/block/MAJ:MIN), what
 * under it may be memory (stack.c's walk), and which CPU ran cdm.  Called once by the runner before the test file is
 * made; every lookup is best effort and a missing file leaves its field
 * empty.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cdm/base/file.h"
#include "cdm/target/device.h"
#include "cdm/target/numa.h"
#include "cdm/target/stack.h"
#include "cdm/target/sysinfo.h"

/* strip leading and trailing blanks in place (sysfs pads SCSI models) */
static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
}

char *cdm_sysinfo_scheduler(const char *text, char *out, size_t len)
{
	const char *open = strchr(text, '['), *close;
	size_t n;

	if (!len)
		return out;
	out[0] = '\0';
	if (open) {
		close = strchr(open + 1, ']');
		if (!close)
			return out;
		n = (size_t)(close - open - 1);
		snprintf(out, len, "%.*s", (int)n, open + 1);
		return out;
	}
	/* one scheduler and no choice: the kernel prints it bare */
	n = strcspn(text, " \t\n");
	if (n && text[n + strspn(text + n, " \t\n")] == '\0')
		snprintf(out, len, "%.*s", (int)n, text);
	return out;
}

/* the device number of the block device under @path, or 0 */
static dev_t block_dev_of(const char *path, const char *mount_source)
{
	struct stat st;

	/* a block device TARGET is its own device */
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		return st.st_rdev;
	if (stat(path, &st) == 0 && major(st.st_dev) != 0)
		return st.st_dev;
	/* btrfs, overlay...: an anonymous st_dev; try the mount source */
	if (mount_source && !strncmp(mount_source, "/dev/", 5) &&
	    stat(mount_source, &st) == 0 && S_ISBLK(st.st_mode))
		return st.st_rdev;
	return 0;
}

/* the sysfs name of the block device under @path, a partition as its disk; -1 */
static int first_device(const char *path, const char *mount_source, char *name, size_t len)
{
	char link[64], sys[PATH_MAX], file[PATH_MAX + 16];
	dev_t dev = block_dev_of(path, mount_source);
	struct stat st;
	char *slash;

	if (!dev)
		return -1;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, sys))
		return -1;
	/* a partition's queue and model belong to its parent disk */
	snprintf(file, sizeof(file), "%s/partition", sys);
	if (stat(file, &st) == 0) {
		slash = strrchr(sys, '/');
		if (slash && slash != sys)
			*slash = '\0';
	}
	slash = strrchr(sys, '/');
	snprintf(name, len, "%.*s", (int)len - 1, slash ? slash + 1 : sys);
	return 0;
}

void cdm_sysinfo_device(const char *sysfs, const char *name, struct cdm_dev_info *d)
{
	char sys[PATH_MAX], file[PATH_MAX + 64], buf[256];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%.*s", (int)sizeof(d->name) - 1, name);
	snprintf(file, sizeof(file), "%s/class/block/%s", sysfs ? sysfs : "/sys", name);
	if (strchr(name, '/') || !realpath(file, sys))
		return;
	snprintf(file, sizeof(file), "%s/dm/name", sys);
	if (cdm_file_read_line(file, buf, sizeof(buf)) == 0 && buf[0])
		snprintf(d->model, sizeof(d->model), "device-mapper %.*s",
			 (int)sizeof(d->model) - 15, buf);
	snprintf(file, sizeof(file), "%s/device/model", sys);
	if (!d->model[0] && cdm_file_read_line(file, buf, sizeof(buf)) == 0) {
		trim(buf);
		snprintf(d->model, sizeof(d->model), "%.*s", (int)sizeof(d->model) - 1, buf);
	}
	snprintf(file, sizeof(file), "%s/queue/rotational", sys);
	if (cdm_file_read_line(file, buf, sizeof(buf)) == 0)
		d->rotational = buf[0] == '1' ? CDM_ROT_YES :
				buf[0] == '0' ? CDM_ROT_NO : CDM_ROT_UNKNOWN;
	snprintf(file, sizeof(file), "%s/queue/scheduler", sys);
	if (cdm_file_read_line(file, buf, sizeof(buf)) == 0)
		cdm_sysinfo_scheduler(buf, d->scheduler, sizeof(d->scheduler));
	snprintf(file, sizeof(file), "%s/queue/logical_block_size", sys);
	if (cdm_file_read_line(file, buf, sizeof(buf)) == 0)
		d->logical_block = (unsigned int)strtoul(buf, NULL, 10);
}

/*
 * Each device the filesystem of @path sits on: the one its st_dev (or
 * mount source) names first, as before there was a list, then the rest
 * of target/stack.c's walk; the first also in the dev_* fields.
 */
static void fill_devices(const char *path, const char *mount_source,
			 struct cdm_run_info *in)
{
	char names[CDM_DEVICES_MAX + 1][CDM_STACK_NAME_MAX];
	unsigned int n = 0, k;

	if (first_device(path, mount_source, names[0], sizeof(names[0])) == 0)
		n = 1;
	k = cdm_stack_devices(path, NULL, names + n, CDM_DEVICES_MAX);
	in->ndevices = 0;
	for (unsigned int i = 0; i < n + k && in->ndevices < CDM_DEVICES_MAX; i++) {
		if (i && n && !strcmp(names[i], names[0]))
			continue;
		cdm_sysinfo_device(NULL, names[i], &in->devices[in->ndevices++]);
	}
	if (!in->ndevices)
		return;
	memcpy(in->dev_name, in->devices[0].name, sizeof(in->dev_name));
	memcpy(in->dev_model, in->devices[0].model, sizeof(in->dev_model));
	in->dev_rotational = in->devices[0].rotational;
	memcpy(in->dev_scheduler, in->devices[0].scheduler, sizeof(in->dev_scheduler));
}

static void fill_cpu(struct cdm_run_info *in)
{
	FILE *fp = fopen("/proc/cpuinfo", "re");
	char line[512];
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	in->cpus_online = n > 0 ? (unsigned int)n : 0;
	in->cpus_allowed = cdm_sysinfo_cpus_allowed();
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');

		/* x86 "model name", POWER "cpu", some ARM kernels "Model" */
		if (!colon || (strncmp(line, "model name", 10) &&
			       strncmp(line, "Model", 5) && strncmp(line, "cpu\t", 4)))
			continue;
		colon++;
		colon[strcspn(colon, "\n")] = '\0';
		trim(colon);
		if (*colon) {
			snprintf(in->cpu_model, sizeof(in->cpu_model), "%s", colon);
			break;
		}
	}
	fclose(fp);
}

/*
 * The distribution's PRETTY_NAME from /etc/os-release, else from
 * /usr/lib/os-release (os-release(5)'s order); "" (unknown) when neither
 * is there, as in an empty chroot or a FROM scratch container: os-release(5)
 * would default to "Linux", but that names no distribution, and the kernel
 * release beside it says Linux already.
 */
static void read_os_name(char *buf, size_t len)
{
	FILE *fp = fopen("/etc/os-release", "re");
	char line[256];

	buf[0] = '\0';
	if (!fp)
		fp = fopen("/usr/lib/os-release", "re");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *v, *e;

		if (strncmp(line, "PRETTY_NAME=", 12) != 0)
			continue;
		v = line + 12;
		v[strcspn(v, "\n")] = '\0';
		if (*v == '"' || *v == '\'') {
			e = strrchr(v + 1, *v);
			if (e)
				*e = '\0';
			v++;
		}
		if (*v)
			snprintf(buf, len, "%s", v);
		break;
	}
	fclose(fp);
}

/* the OS line: distribution, kernel release, machine (uname) */
static void fill_os(struct cdm_run_info *in)
{
	struct utsname u;

	read_os_name(in->os, sizeof(in->os));
	if (uname(&u) == 0) {
		snprintf(in->kernel, sizeof(in->kernel), "%s", u.release);
		snprintf(in->machine, sizeof(in->machine), "%.63s", u.machine);
	}
}

/* @key ("MemTotal") of /proc/meminfo, in bytes; 0 when not found */
static uint64_t meminfo_bytes(const char *key)
{
	char val[64];

	if (cdm_file_read_field("/proc/meminfo", key, val, sizeof(val)))
		return 0;
	return (uint64_t)strtoull(val, NULL, 10) << 10;        /* "16318412 kB" */
}

void cdm_sysinfo_fill(const char *path, const char *mount_source,
		      struct cdm_run_info *in)
{
	struct cdm_blockdev bd;

	fill_os(in);
	if (cdm_device_query(path, &bd) > 0) {
		in->is_device = 1;
		in->target_dev_bytes = bd.size;
		in->target_dev_lbs = bd.logical_block;
	}
	snprintf(in->fs_source, sizeof(in->fs_source), "%s",
		 mount_source ? mount_source : "");
	fill_devices(path, mount_source, in);
	fill_cpu(in);
	in->mem_total_bytes = meminfo_bytes("MemTotal");
	in->nmem_under = cdm_stack_walk(path, NULL, in->mem_under, CDM_MEM_UNDER_MAX);
}

uint64_t cdm_sysinfo_mem_available(void)
{
	return meminfo_bytes("MemAvailable");
}

/* this process's cgroup v2 directory under /sys/fs/cgroup, or "" */
static void cgroup_dir(char *buf, size_t len)
{
	FILE *fp = fopen("/proc/self/cgroup", "re");
	char line[1024];

	buf[0] = '\0';
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "/sys/fs/cgroup%s", strcmp(line + 3, "/") ? line + 3 : "");
		break;
	}
	fclose(fp);
}

unsigned int cdm_sysinfo_cpus_allowed(void)
{
	unsigned short allowed[CDM_CPULIST_MAX];
	char dir[1200], file[1300], buf[128];
	unsigned int n = 0;

	/* the affinity mask (taskset, and the cgroup cpuset: it sets the mask) */
	if (cdm_numa_allowed(allowed, &n) < 0)
		n = 0;
	/* cgroup v2 cpu.max "QUOTA PERIOD" of this cgroup and each above it */
	cgroup_dir(dir, sizeof(dir));
	while (dir[0] && strcmp(dir, "/sys/fs/cgroup") != 0) {
		unsigned long long quota, period;
		char *slash;

		snprintf(file, sizeof(file), "%s/cpu.max", dir);
		if (cdm_file_read_line(file, buf, sizeof(buf)) == 0 &&
		    sscanf(buf, "%llu %llu", &quota, &period) == 2 && period) {
			unsigned long long cpus = (quota + period - 1) / period;

			if (cpus < 1)
				cpus = 1;
			if (!n || cpus < n)
				n = (unsigned int)cpus;
		}
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return n;
}
