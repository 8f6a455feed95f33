/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/fileguard.h - keeps the test file removable when its path stops
 * leading to it during a run (issue 6, "Faults": the target unmounted or
 * the file removed mid-run).
 *
 * After a lazy unmount (umount -l) the run goes on through its open
 * descriptors, but the path now names a directory of the parent
 * filesystem, so removing the file by its path would miss it and leave it
 * on the volume.  The guard holds the file's directory open from the
 * start (an O_PATH descriptor, which does not keep the mount busy for a
 * plain umount any more than the open test file does) and removes the file
 * through it.  A file deleted by someone else is only reported.
 */
#ifndef CDM_FILEGUARD_H
#define CDM_FILEGUARD_H

#include <sys/types.h>

struct cdm_fileguard {
	int dirfd;              /* the test file's directory (O_PATH), or -1 */
	dev_t dev;              /* the test file's identity */
	ino_t ino;
	char name[256];         /* its name in that directory */
};

/*
 * cdm_fileguard_open - remember the directory and identity of the test
 * file @path, open as @fd.  Best effort: on any failure the guard stays
 * inert (dirfd -1) and removal falls back to the path.  Never fails.
 */
void cdm_fileguard_open(struct cdm_fileguard *g, const char *path, int fd);

/*
 * cdm_fileguard_finish - call just before the test file is removed by its
 * path.  If the file was deleted by another process, warns that it was.
 * If the path no longer leads to it (the target was unmounted or moved),
 * removes it through the directory held open, and warns.  Closes the
 * directory.  Returns 1 when it removed the file itself, else 0.
 */
int cdm_fileguard_finish(struct cdm_fileguard *g, int fd, const char *path);

#endif /* CDM_FILEGUARD_H */
