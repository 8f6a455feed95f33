/* SPDX-License-Identifier: MIT */
/*
 * mountinfo.h - reading /proc/self/mountinfo (the kernel's
 * Documentation/filesystems/proc.rst, "3.5 /proc/<pid>/mountinfo"): its
 * lines, the mount holding a path, and the kind of filesystem a type is.
 */
#ifndef CDM_TARGET_MOUNTINFO_H
#define CDM_TARGET_MOUNTINFO_H

#include <stddef.h>

/*
 * cdm_mountinfo_parse - split one line of /proc/self/mountinfo: the
 * device number of field 3 (@major, @minor), the mount point (@mp, field
 * 5), the type and the source after " - " (@type, @src); the kernel's
 * \ooo escapes are undone.  Each string is cut to its buffer (@mp_len,
 * 32 bytes for @type, @src_len).  Returns 0, or -EINVAL for a line of
 * another shape.  Pure, for unit tests.
 */
int cdm_mountinfo_parse(const char *line, unsigned int *major, unsigned int *minor,
			char *mp, size_t mp_len, char type[32], char *src, size_t src_len);

/* one mount, as cdm_mountinfo_find() found it */
struct cdm_mount {
	unsigned int major, minor;      /* field 3: the st_dev of its files (0:N when anonymous) */
	char point[4096];               /* mount point */
	char type[32];                  /* "ext4", "tmpfs", "fuse.sshfs" */
	char source[4096];              /* "/dev/vda1", "srv:/export", "tmpfs" */
	char options[4096];             /* super options, after the source: "rw,upperdir=/u,..." */
};

/*
 * cdm_mountinfo_find - the mount holding @real, a canonical absolute path
 * (realpath()): of the lines of @mountinfo (a file in the format of
 * /proc/self/mountinfo; NULL reads /proc/self/mountinfo) whose mount point
 * is a prefix of @real component by component, the longest, the later
 * line winning a tie (a mount over a mount).  Fills @m.  Returns 0, or
 * -ENOENT when no line matches, or -errno when @mountinfo cannot be
 * opened (@m is then zeroed).  Reading another file is what lets
 * target/stack.c's walk be tested without mounting anything.
 */
int cdm_mountinfo_find(const char *mountinfo, const char *real, struct cdm_mount *m);

/*
 * cdm_mountinfo_option - the value of super option @key of @m
 * ("upperdir" of overlayfs's "rw,lowerdir=/l,upperdir=/u,workdir=/w"),
 * with the kernel's \ooo escapes undone (seq_show_option() escapes a
 * comma in a value so), cut to @len bytes with its NUL.  Returns 0, or
 * -ENOENT when @m has no such option (@out is then "").  Pure.
 */
int cdm_mountinfo_option(const struct cdm_mount *m, const char *key, char *out, size_t len);

/* what kind of filesystem a type from mountinfo is (cdm_mountinfo_fs_kind) */
enum cdm_fs_kind {
	CDM_FS_DISK = 0,                /* ext4, xfs, ...: nothing to say */
	CDM_FS_MEMORY,                  /* tmpfs, ramfs: memory speed */
	CDM_FS_NETWORK,                 /* nfs, cifs, ceph, 9p, virtiofs...: client caching */
	CDM_FS_FUSE,                    /* fuse, fuse.*, fuseblk: client caching */
	CDM_FS_COW,                     /* btrfs: copy-on-write and compression */
};

/*
 * cdm_mountinfo_fs_kind - classify filesystem type @type as
 * /proc/self/mountinfo names it ("ext4", "fuse.sshfs", "nfs4").  Network
 * and FUSE filesystems get a warning that client-side caching may inflate
 * the figures, memory ones that the figures are memory speed (both found
 * by target/stack.h's walk, which also looks under a loop device's backing
 * file), btrfs gets NOCOW on its test file (docs/safety.md,
 * "Filesystems").  Pure.
 */
enum cdm_fs_kind cdm_mountinfo_fs_kind(const char *type);

#endif /* CDM_TARGET_MOUNTINFO_H */
