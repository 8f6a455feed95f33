/* SPDX-License-Identifier: MIT */
/*
 * stack.c - the walk down the block stack under a target, finding what can
 * make the figures memory speed (include/cdm/target/stack.h): filesystems
 * in memory or with client caches, RAM disks, and loop devices that read
 * their backing file through the page cache, under device-mapper, md and
 * partitions.  The same walk serves a directory and a block device
 * TARGET, so both are warned about alike.
 */
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cdm/base/file.h"
#include "cdm/base/msg.h"
#include "cdm/target/mountinfo.h"
#include "cdm/target/stack.h"

#define CHAIN_MAX 640   /* sizeof(((struct cdm_mem_under *)0)->stack) */

/* names a walk collects: cdm_stack_disks()'s, cdm_stack_devices()'s */
struct names {
	char (*v)[CDM_STACK_NAME_MAX];  /* NULL: not collected */
	unsigned int max, n;
};

struct walk {
	const char *sys;                /* sysfs root */
	const char *mountinfo;          /* its file, or NULL */
	struct cdm_mem_under *out;
	unsigned int max, n;
	struct names disks, devs;
	unsigned int in_loop;           /* below a loop device's backing file */
};

static void add(struct walk *w, const char *kind, const char *layer, const char *chain,
		const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* one finding, at the end of @w's list (dropped when it is full) */
static void add(struct walk *w, const char *kind, const char *layer, const char *chain,
		const char *fix, const char *fmt, ...)
{
	struct cdm_mem_under *f;
	va_list ap;

	if (w->n >= w->max)
		return;
	f = &w->out[w->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->kind, sizeof(f->kind), "%s", kind);
	snprintf(f->layer, sizeof(f->layer), "%s", layer);
	snprintf(f->stack, sizeof(f->stack), "%s", chain);
	snprintf(f->fix, sizeof(f->fix), "%s", fix);
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

/* @chain, " > " and @layer into @out (CHAIN_MAX bytes) */
static void extend(char *out, const char *chain, const char *layer)
{
	snprintf(out, CHAIN_MAX, "%.*s%s%.*s", CHAIN_MAX / 2, chain, chain[0] ? " > " : "",
		 CHAIN_MAX / 2 - 4, layer);
}

/* the sysfs name of block device MAJ:MIN ("loop0"), or -1 */
static int name_of(const struct walk *w, unsigned int ma, unsigned int mi, char *name,
		   size_t len)
{
	char link[PATH_MAX], real[PATH_MAX];
	const char *slash;

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", w->sys, ma, mi);
	if (!realpath(link, real))
		return -1;
	slash = strrchr(real, '/');
	snprintf(name, len, "%.*s", (int)len - 1, slash ? slash + 1 : real);
	return 0;
}

/* is @name @prefix followed by a number ("zram0" of "zram")? */
static int numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && name[n] >= '0' && name[n] <= '9' &&
	       strspn(name + n, "0123456789") == strlen(name + n);
}

static int is_memory(const char *kind)
{
	return !strcmp(kind, "memory_fs") || !strcmp(kind, "zram") ||
	       !strcmp(kind, "ram_disk") || !strcmp(kind, "null_blk");
}

static void walk_dev(struct walk *w, const char *name, const char *chain, unsigned int depth);
static void walk_path(struct walk *w, const char *path, const char *chain, unsigned int depth,
		      int top);

/* the directory under @w->sys/fs/btrfs of the btrfs holding device @name: "UUID/devices" */
static int btrfs_devices(const struct walk *w, const char *name, char *dir, size_t len)
{
	char base[PATH_MAX], p[PATH_MAX * 2 + 320];
	struct dirent *de;
	DIR *d;
	int found = -1;

	snprintf(base, sizeof(base), "%s/fs/btrfs", w->sys);
	d = opendir(base);
	while (d && found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/devices/%s", base, de->d_name, name);
		if (access(p, F_OK) == 0) {
			snprintf(dir, len, "%.3800s/%.200s/devices", base, de->d_name);
			found = 0;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * A btrfs on @name (the device its mount names): @name first, then each
 * other device of the same filesystem in @w->sys/fs/btrfs/UUID/devices,
 * in name order; only @name when sysfs lists none.
 */
static void walk_btrfs(struct walk *w, const char *name, const char *chain, unsigned int depth)
{
	char dir[PATH_MAX];
	struct dirent **list;
	int n;

	walk_dev(w, name, chain, depth + 1);
	if (btrfs_devices(w, name, dir, sizeof(dir)) < 0)
		return;
	n = scandir(dir, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.' && strcmp(list[i]->d_name, name))
			walk_dev(w, list[i]->d_name, chain, depth + 1);
		free(list[i]);
	}
	if (n >= 0)
		free(list);
}

/* the sysfs name of the device of mount @m, or -1 */
static int mount_dev(const struct walk *w, const struct cdm_mount *m, char *name, size_t len)
{
	struct stat st;

	if (m->major && name_of(w, m->major, m->minor, name, len) == 0)
		return 0;
	if (m->source[0] == '/' && stat(m->source, &st) == 0 && S_ISBLK(st.st_mode) &&
	    name_of(w, major(st.st_rdev), minor(st.st_rdev), name, len) == 0)
		return 0;
	if (strncmp(m->source, "/dev/", 5) || strchr(m->source + 5, '/'))
		return -1;
	snprintf(name, len, "%s", m->source + 5);
	return 0;
}

/*
 * Below mount @m (layer chain @chain) on a disk's filesystem: its device
 * (field 3; for an anonymous 0:N, as on btrfs, the device the source
 * names), each device of a btrfs, and an overlayfs's upper directory,
 * where its files are written, walked as a path in turn (its lower
 * directories only are read: not walked, docs/safety.md).
 */
static void walk_mount(struct walk *w, const struct cdm_mount *m, const char *chain,
		       unsigned int depth, int top)
{
	char name[128], upper[PATH_MAX], layer[PATH_MAX + 8], next[CHAIN_MAX];

	if (!strcmp(m->type, "overlay")) {
		if (cdm_mountinfo_option(m, "upperdir", upper, sizeof(upper)) < 0 || upper[0] != '/')
			return;
		snprintf(layer, sizeof(layer), "upper %s", upper);
		extend(next, chain, layer);
		walk_path(w, upper, next, depth + 1, top);
		return;
	}
	if (mount_dev(w, m, name, sizeof(name)) < 0)
		return;
	if (!strcmp(m->type, "btrfs"))
		walk_btrfs(w, name, chain, depth);
	else
		walk_dev(w, name, chain, depth + 1);
}

/*
 * The filesystem holding @path: in memory or with a client cache, a
 * finding; on a block device, that device's walk.  @top: @path is the
 * TARGET (else a loop device's backing file).
 */
static void walk_path(struct walk *w, const char *path, const char *chain, unsigned int depth,
		      int top)
{
	char real[PATH_MAX], layer[4200], next[CHAIN_MAX];
	struct cdm_mount *m;

	if (depth > CDM_STACK_DEPTH_MAX || !(m = malloc(sizeof(*m))))
		return;
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	if (real[0] != '/' || cdm_mountinfo_find(w->mountinfo, real, m) < 0) {
		free(m);
		return;
	}
	snprintf(layer, sizeof(layer), "%s (%s)", m->point, m->type);
	extend(next, chain, layer);
	switch (cdm_mountinfo_fs_kind(m->type)) {
	case CDM_FS_MEMORY:
		add(w, "memory_fs", layer, next,
		    top ? "run cdm on a directory of a disk's filesystem"
			: "put the backing file on a disk's filesystem",
		    "%s is %s, which keeps files in memory: the figures are memory speed, not disk speed",
		    m->point, m->type);
		break;
	case CDM_FS_FUSE:
	case CDM_FS_NETWORK:
		add(w, cdm_mountinfo_fs_kind(m->type) == CDM_FS_FUSE ? "fuse" : "network", layer, next,
		    "to measure the storage itself, run cdm on the filesystem that holds the data, where it is local",
		    "%s is a %s filesystem (%s): client-side caching may inflate the figures", m->point,
		    cdm_mountinfo_fs_kind(m->type) == CDM_FS_FUSE ? "FUSE" : "network", m->type);
		break;
	default:
		walk_mount(w, m, next, depth, top);
		break;
	}
	free(m);
}

/*
 * Loop device @name (sysfs directory @dir) over @file: what holds the
 * file, then, with direct I/O off, the page cache of the file itself
 * (placed before what was found under it, unless that is memory anyway).
 */
static void walk_loop(struct walk *w, const char *name, const char *dir, char *file,
		      const char *chain, unsigned int depth)
{
	char p[PATH_MAX + 16], dio[16], next[CHAIN_MAX], sub[128], fix[128];
	unsigned int n0 = w->n, n1;
	size_t len = strlen(file);
	struct stat st;

	/* a backing file removed since: "/img (deleted)" */
	if (len > 10 && !strcmp(file + len - 10, " (deleted)"))
		file[len - 10] = '\0';
	extend(next, chain, file);
	w->in_loop++;
	if (stat(file, &st) == 0 && S_ISBLK(st.st_mode)) {
		if (name_of(w, major(st.st_rdev), minor(st.st_rdev), sub, sizeof(sub)) == 0)
			walk_dev(w, sub, next, depth + 1);
	} else {
		walk_path(w, file, next, depth + 1, 0);
	}
	w->in_loop--;
	snprintf(p, sizeof(p), "%s/loop/dio", dir);
	if (cdm_file_read_line(p, dio, sizeof(dio)) == 0 && dio[0] == '1')
		return;
	for (unsigned int i = n0; i < w->n; i++)
		if (is_memory(w->out[i].kind))
			return;
	snprintf(fix, sizeof(fix), "losetup --direct-io=on /dev/%s turns loop direct I/O on", name);
	/* full: the loop device, nearer the target, goes before the last found */
	if (w->n == w->max && w->n > n0)
		w->n--;
	n1 = w->n;
	add(w, "loop_page_cache", name, chain, fix,
	    "%s reads its backing file %s through the page cache (loop direct I/O is off): the figures may be memory speed, not disk speed",
	    name, file);
	/* the loop device first, then what is under its file */
	if (w->n > n1 && n1 > n0) {
		struct cdm_mem_under f = w->out[n1];

		memmove(&w->out[n0 + 1], &w->out[n0], (n1 - n0) * sizeof(f));
		w->out[n0] = f;
	}
}

/* the layer name of @name in a stack: "dm-0 (vg-lv)", "md0 (raid1)", "loop0" */
static void dev_label(const char *dir, const char *name, char *out, size_t len)
{
	char p[PATH_MAX + 16], buf[128];

	snprintf(p, sizeof(p), "%s/dm/name", dir);
	if (cdm_file_read_line(p, buf, sizeof(buf)) == 0 && buf[0]) {
		snprintf(out, len, "%s (%s)", name, buf);
		return;
	}
	snprintf(p, sizeof(p), "%s/md/level", dir);
	if (cdm_file_read_line(p, buf, sizeof(buf)) == 0 && buf[0]) {
		snprintf(out, len, "%s (%s)", name, buf);
		return;
	}
	snprintf(out, len, "%s", name);
}

/* @name into @l, once */
static void add_name(struct names *l, const char *name)
{
	if (!l->v || strlen(name) >= CDM_STACK_NAME_MAX)
		return;
	for (unsigned int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return;
	if (l->n < l->max)
		memcpy(l->v[l->n++], name, strlen(name) + 1);
}

static void walk_dev(struct walk *w, const char *name, const char *chain, unsigned int depth)
{
	char link[PATH_MAX], dir[PATH_MAX], p[PATH_MAX + 32], file[PATH_MAX];
	char label[320], next[CHAIN_MAX];
	unsigned int nslaves = 0;
	struct dirent *de;
	DIR *d;

	if (depth > CDM_STACK_DEPTH_MAX || strchr(name, '/') || name[0] == '.')
		return;
	snprintf(link, sizeof(link), "%s/class/block/%s", w->sys, name);
	if (!realpath(link, dir))
		return;
	dev_label(dir, name, label, sizeof(label));
	extend(next, chain, label);
	snprintf(p, sizeof(p), "%s/partition", dir);
	if (access(p, F_OK) == 0) {
		/* a partition's directory is inside its disk's */
		char *slash = strrchr(dir, '/');

		if (slash && slash != dir) {
			*slash = '\0';
			slash = strrchr(dir, '/');
			if (slash)
				walk_dev(w, slash + 1, next, depth + 1);
		}
		return;
	}
	/* the filesystem's own devices: not those under a loop's backing file */
	if (!w->in_loop)
		add_name(&w->devs, name);
	if (numbered(name, "zram")) {
		add(w, "zram", name, next, "run cdm on a disk, or a filesystem on one",
		    "%s is a compressed RAM disk (zram): the figures are memory speed, not disk speed", name);
		return;
	}
	if (numbered(name, "ram")) {
		add(w, "ram_disk", name, next, "run cdm on a disk, or a filesystem on one",
		    "%s is a RAM disk (brd): the figures are memory speed, not disk speed", name);
		return;
	}
	if (numbered(name, "nullb")) {
		add(w, "null_blk", name, next, "run cdm on a disk, or a filesystem on one",
		    "%s is a null_blk device, which has no media behind it: the figures are the driver's, not a disk's", name);
		return;
	}
	snprintf(p, sizeof(p), "%s/loop/backing_file", dir);
	if (cdm_file_read_line(p, file, sizeof(file)) == 0 && file[0] == '/') {
		walk_loop(w, name, dir, file, next, depth);
		return;
	}
	snprintf(p, sizeof(p), "%s/slaves", dir);
	d = opendir(p);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			walk_dev(w, de->d_name, next, depth + 1);
			nslaves++;
		}
	if (d)
		closedir(d);
	if (!nslaves)
		add_name(&w->disks, name);
}

static void start(struct walk *w, const struct cdm_stack_env *env, struct cdm_mem_under *out,
		  unsigned int max)
{
	w->sys = env && env->sysfs ? env->sysfs : "/sys";
	w->mountinfo = env ? env->mountinfo : NULL;
	w->out = out;
	w->max = max;
	w->n = 0;
	memset(&w->disks, 0, sizeof(w->disks));
	memset(&w->devs, 0, sizeof(w->devs));
	w->in_loop = 0;
}

unsigned int cdm_stack_walk_dev(const char *name, const struct cdm_stack_env *env,
				struct cdm_mem_under *out, unsigned int max)
{
	struct walk w;

	start(&w, env, out, max);
	walk_dev(&w, name, "", 0);
	return w.n;
}

/* the walk from @path, set up by start() */
static void walk_top(struct walk *w, const char *path)
{
	struct stat st;
	char name[128];

	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
		if (name_of(w, major(st.st_rdev), minor(st.st_rdev), name, sizeof(name)) == 0)
			walk_dev(w, name, "", 0);
	} else {
		walk_path(w, path, "", 0, 1);
	}
}

unsigned int cdm_stack_walk(const char *path, const struct cdm_stack_env *env,
			    struct cdm_mem_under *out, unsigned int max)
{
	struct walk w;

	start(&w, env, out, max);
	walk_top(&w, path);
	return w.n;
}

/* the walk from @path collecting @names: its devices when @devs, else its disks */
static unsigned int walk_names(const char *path, const struct cdm_stack_env *env,
			       char (*names)[CDM_STACK_NAME_MAX], unsigned int max, int devs)
{
	struct walk w;
	struct names *l = devs ? &w.devs : &w.disks;

	start(&w, env, NULL, 0);
	l->v = names;
	l->max = max;
	walk_top(&w, path);
	return l->n;
}

unsigned int cdm_stack_disks(const char *path, const struct cdm_stack_env *env,
			     char (*names)[CDM_STACK_NAME_MAX], unsigned int max)
{
	return walk_names(path, env, names, max, 0);
}

unsigned int cdm_stack_devices(const char *path, const struct cdm_stack_env *env,
			       char (*names)[CDM_STACK_NAME_MAX], unsigned int max)
{
	return walk_names(path, env, names, max, 1);
}

void cdm_stack_warn(const char *target, const struct cdm_mem_under *f, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		cdm_msg_warn("%s: %s; %s [stack: %s]", target, f[i].why, f[i].fix, f[i].stack);
}
