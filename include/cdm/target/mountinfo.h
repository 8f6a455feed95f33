/* SPDX-License-Identifier: MIT */
/*
 * mountinfo.h - reading /proc/self/mountinfo (the kernel's
 * Documentation/filesystems/proc.rst, "3.5 /proc/<pid>/mountinfo").
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

#endif /* CDM_TARGET_MOUNTINFO_H */
