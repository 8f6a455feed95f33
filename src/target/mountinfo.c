/* SPDX-License-Identifier: MIT */
/*
 * mountinfo.c - /proc/self/mountinfo: one line split into the fields cdm
 * reads, the mount holding a path, and what kind of filesystem a type
 * names (include/cdm/target/mountinfo.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdm/target/mountinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape_octal(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

int cdm_mountinfo_parse(const char *line, unsigned int *major, unsigned int *minor,
			char *mp, size_t mp_len, char type[32], char *src, size_t src_len)
{
	char m[4096], t[32], so[4096];
	const char *sep = strstr(line, " - ");

	if (!sep || sscanf(line, "%*s %*s %u:%u %*s %4095s", major, minor, m) != 3)
		return -EINVAL;
	if (sscanf(sep + 3, "%31s %4095s", t, so) != 2)
		return -EINVAL;
	unescape_octal(m);
	unescape_octal(so);
	snprintf(mp, mp_len, "%s", m);
	snprintf(type, 32, "%s", t);
	snprintf(src, src_len, "%s", so);
	return 0;
}

/* the super options of a mountinfo @line (the field after the source), escapes kept */
static void super_options(const char *line, char *out, size_t len)
{
	const char *p = strstr(line, " - ");

	out[0] = '\0';
	/* " - TYPE SOURCE OPTIONS": past the type, then past the source */
	if (p)
		p = strchr(p + 3, ' ');
	if (p)
		p = strchr(p + 1, ' ');
	if (p)
		snprintf(out, len, "%.*s", (int)strcspn(p + 1, " \n"), p + 1);
}

/* is mount point @mp a path prefix of @path, component-wise?  Its length */
static size_t mount_prefix(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, n) != 0)
		return 0;
	if (path[n] != '\0' && path[n] != '/')
		return 0;
	return n;
}

int cdm_mountinfo_find(const char *mountinfo, const char *real, struct cdm_mount *m)
{
	FILE *fp = fopen(mountinfo ? mountinfo : "/proc/self/mountinfo", "re");
	char *line = NULL, *mp = malloc(4096), *src = malloc(4096);
	size_t cap = 0, best = 0;
	int e = fp ? 0 : -errno;

	memset(m, 0, sizeof(*m));
	if (!fp || !mp || !src) {
		free(mp);
		free(src);
		if (fp)
			fclose(fp);
		return e ? e : -ENOMEM;
	}
	while (getline(&line, &cap, fp) > 0) {
		char type[32];
		unsigned int ma, mi;
		size_t n;

		if (cdm_mountinfo_parse(line, &ma, &mi, mp, 4096, type, src, 4096) < 0)
			continue;
		n = mount_prefix(mp, real);
		if (n && n >= best) {
			best = n;
			m->major = ma;
			m->minor = mi;
			snprintf(m->point, sizeof(m->point), "%s", mp);
			snprintf(m->type, sizeof(m->type), "%s", type);
			snprintf(m->source, sizeof(m->source), "%s", src);
			super_options(line, m->options, sizeof(m->options));
		}
	}
	free(line);
	free(mp);
	free(src);
	fclose(fp);
	return best ? 0 : -ENOENT;
}

int cdm_mountinfo_option(const struct cdm_mount *m, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);

	for (const char *o = m->options; *o; o += strcspn(o, ",") + (o[strcspn(o, ",")] == ',')) {
		size_t n = strcspn(o, ",");

		if (n > k && !strncmp(o, key, k) && o[k] == '=') {
			snprintf(out, len, "%.*s", (int)(n - k - 1), o + k + 1);
			unescape_octal(out);
			return 0;
		}
	}
	if (len)
		out[0] = '\0';
	return -ENOENT;
}

enum cdm_fs_kind cdm_mountinfo_fs_kind(const char *type)
{
	/* network and cluster filesystems whose client caches file data */
	static const char *const net[] = {
		"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "virtiofs",
		"glusterfs", "lustre", "gpfs", "beegfs", "afs", "coda", "ncpfs",
		"orangefs", "pvfs2", "vboxsf", "vmhgfs", "ocfs2", "gfs2", NULL,
	};

	if (!strcmp(type, "tmpfs") || !strcmp(type, "ramfs"))
		return CDM_FS_MEMORY;
	/* "fuse", "fuseblk", and "fuse.<subtype>" (fuse.sshfs, fuse.ceph-fuse) */
	if (!strcmp(type, "fuse") || !strcmp(type, "fuseblk") || !strncmp(type, "fuse.", 5))
		return CDM_FS_FUSE;
	for (size_t i = 0; net[i]; i++)
		if (!strcmp(type, net[i]))
			return CDM_FS_NETWORK;
	if (!strcmp(type, "btrfs"))
		return CDM_FS_COW;
	return CDM_FS_DISK;
}
