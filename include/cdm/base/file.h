/* SPDX-License-Identifier: MIT */
/*
 * file.h - the one home for reading a small file whole or one value of it:
 * a profile, a saved result or CrystalDiskMark report (read whole, with a
 * limit), and the one-line files of /proc and /sys (the kernel's sysfs
 * rule: one value per file) and the "Key: value" lines of /proc/self/status
 * and /proc/meminfo.  Nothing here writes: cdm writes only files it made
 * (target/outfile.h, target/testfile.h).
 */
#ifndef CDM_BASE_FILE_H
#define CDM_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/base/err.h"

/*
 * cdm_file_read_all - the whole contents of the file @path into a new
 * buffer *@text (free() it), NUL-terminated after its *@len bytes (the
 * text may hold a NUL of its own: the caller decides what that means).
 * @max: the most bytes accepted.  Returns 0; the -errno of open() with its
 * strerror text in @err ("No such file or directory"), of a read ("read
 * error: Is a directory": a directory opens and fails on its first read);
 * -EFBIG ("larger than N bytes": callers word it for what they read) when
 * the file holds more than @max bytes; -ENOMEM.  On failure *@text is NULL
 * and *@len 0.  No message names @path: the caller knows what it read.
 */
int cdm_file_read_all(const char *path, size_t max, char **text, size_t *len,
		      struct cdm_err *err);

/*
 * cdm_file_read_line - the first line of the small (sysfs or proc) file
 * @path, without its newline, into @buf of @len bytes (cut to fit).
 * Returns 0, -errno when it cannot be opened, or -ENODATA when it is
 * empty (@buf is then "").
 */
int cdm_file_read_line(const char *path, char *buf, size_t len);

/*
 * cdm_file_read_u64 - the unsigned decimal number that starts the first
 * line of @path (leading blanks skipped: "4096\n", "1/123" gives 1) into
 * *@v.  Returns 0; -errno when it cannot be opened; -ENODATA when it is
 * empty; -EINVAL when the line does not start with a number or it is
 * above UINT64_MAX.  *@v is 0 on failure.
 */
int cdm_file_read_u64(const char *path, uint64_t *v);

/*
 * cdm_file_read_field - the value of the first line "@key: value" of
 * @path (as in /proc/self/status and /proc/meminfo: "Seccomp:\t2",
 * "MemTotal:  16384 kB"), blanks after the colon skipped and the newline
 * dropped, into @val of @len bytes (cut to fit).  Returns 0, -errno when
 * the file cannot be opened, -ENOENT when no line has the key.
 */
int cdm_file_read_field(const char *path, const char *key, char *val, size_t len);

#endif /* CDM_BASE_FILE_H */
