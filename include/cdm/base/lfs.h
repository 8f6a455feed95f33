/* SPDX-License-Identifier: MIT */
/*
 * lfs.h - 64-bit file offsets on every build.  A test file or device is
 * routinely larger than 2 GiB, so off_t must have 64 bits: on 32-bit
 * glibc that takes -D_FILE_OFFSET_BITS=64, which the Makefile sets
 * (musl's off_t always has 64).  Without it the first I/O at 2 GiB
 * fails (EOVERFLOW/EINVAL) or lands elsewhere; this header stops such a
 * build instead.  Included by every file that hands an offset or a file
 * size to the kernel (pread, pwrite, fallocate, lseek, statvfs...).
 */
#ifndef CDM_BASE_LFS_H
#define CDM_BASE_LFS_H

#include <assert.h>
#include <sys/types.h>

static_assert(sizeof(off_t) == 8,
	      "off_t has fewer than 64 bits: build with -D_FILE_OFFSET_BITS=64 (the Makefile sets it)");

#endif /* CDM_BASE_LFS_H */
