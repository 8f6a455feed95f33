/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - checks and atomic writes for the files cdm writes at the
 * user's request (include/cdm/target/outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/target/outfile.h"

void cdm_outfile_parent_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int cdm_outfile_check(const char *path, const char *opt, int replace, struct cdm_err *err)
{
	char dir[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return cdm_err_set(err, -EISDIR, "%s: is a directory, not a file for %s",
					   path, opt);
		if (replace && !S_ISREG(st.st_mode))
			return cdm_err_set(err, -EINVAL,
					   "%s: not a regular file; %s writes a new file and renames it into place",
					   path, opt);
		if (access(path, W_OK) < 0)
			return cdm_err_set(err, -errno, "%s: cannot write to it for %s: %s", path,
					   opt, strerror(errno));
		return 0;
	}
	cdm_outfile_parent_dir(path, dir, sizeof(dir));
	if (access(dir, W_OK | X_OK) < 0)
		return cdm_err_set(err, -errno, "%s: cannot create the file for %s: %s", path, opt,
				   strerror(errno));
	return 0;
}

int cdm_outfile_same(const char *a, const char *b)
{
	char da[PATH_MAX], db[PATH_MAX];
	const char *ba, *bb;
	struct stat sa, sb;

	if (!a || !b)
		return 0;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ba = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
	bb = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
	if (strcmp(ba, bb))
		return 0;
	cdm_outfile_parent_dir(a, da, sizeof(da));
	cdm_outfile_parent_dir(b, db, sizeof(db));
	if (stat(da, &sa) == 0 && stat(db, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return strcmp(a, b) == 0;
}

int cdm_outfile_write(const char *path, int (*write)(FILE *f, const void *arg),
		      const void *arg)
{
	char tmp[PATH_MAX];
	mode_t mask;
	FILE *f;
	int fd, ret = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	/* same directory as @path, so that rename() is atomic */
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	/* mkstemp makes 0600; an output is as readable as any report */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	ret = write(f, arg);
	if (!ret && (fflush(f) || ferror(f)))
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	errno = 0;
	if (fclose(f) != 0 && !ret)
		ret = errno ? -errno : -EIO;
	if (ret)
		goto fail;
	if (rename(tmp, path) < 0) {
		ret = -errno;
		goto fail;
	}
	return 0;
fail:
	unlink(tmp);
	return ret;
}
