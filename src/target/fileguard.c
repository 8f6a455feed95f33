/* SPDX-License-Identifier: MIT */
/*
 * fileguard.c - finds out, at the end of a run, whether the test file is
 * still where cdm created it, and removes it through its directory when
 * the path no longer leads there (a lazy unmount of the target).  See
 * cdm/target/fileguard.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdm/base/msg.h"
#include "cdm/target/fileguard.h"

void cdm_fileguard_open(struct cdm_fileguard *g, const char *path, int fd)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat st;

	memset(g, 0, sizeof(*g));
	g->dirfd = -1;
	if (fd < 0 || fstat(fd, &st) < 0)
		return;
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) ? (int)(slash - path) : 1, path);
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(g->name, sizeof(g->name), "%s", slash ? slash + 1 : path);
	g->dev = st.st_dev;
	g->ino = st.st_ino;
	g->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static int same(const struct stat *st, const struct cdm_fileguard *g)
{
	return st->st_dev == g->dev && st->st_ino == g->ino;
}

int cdm_fileguard_finish(struct cdm_fileguard *g, int fd, const char *path)
{
	struct stat st;
	int removed = 0;

	if (g->dirfd < 0)
		return 0;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_nlink == 0) {
		cdm_msg_warn("%s: the test file was deleted by another process during the run; cdm measured it to the end through its open descriptor",
			 path);
	} else if ((stat(path, &st) < 0 || !same(&st, g)) &&
		   fstatat(g->dirfd, g->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && same(&st, g)) {
		/* the path leads elsewhere now, the directory cdm holds does not */
		if (unlinkat(g->dirfd, g->name, 0) == 0) {
			removed = 1;
			cdm_msg_warn("%s: the target was unmounted or moved during the run; the test file was removed through the directory cdm held open",
				 path);
		} else {
			cdm_msg_warn("%s: the target was unmounted or moved during the run, and the test file could not be removed: %s",
				 path, strerror(errno));
		}
	}
	close(g->dirfd);
	g->dirfd = -1;
	return removed;
}
