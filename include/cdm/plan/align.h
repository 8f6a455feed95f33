/* SPDX-License-Identifier: MIT */
/*
 * cdm/plan/align.h - O_DIRECT needs every I/O's offset, length and buffer
 * aligned to the device's logical block size (512 or 4096 bytes).  cdm's
 * offsets are whole blocks and its buffers are 2 MiB aligned, so the block
 * size of each test is what must be a multiple of it: checked from sysfs
 * before anything is created (or, where sysfs knows no device, by one probe
 * read before any test), so a "RND512B" test on a 4Kn disk is refused with
 * one line instead of failing with EINVAL halfway through a run.
 */
#ifndef CDM_ALIGN_H
#define CDM_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "cdm/model/spec.h"

struct cdm_err;

/*
 * cdm_align_logical_block - the logical block size in bytes of block
 * device @dev_name ("vda", "nvme0n1", "dm-0": a name under /sys/block, as
 * cdm_sysinfo_fill() finds it), read from its queue/logical_block_size.
 * Returns the size, or 0 when it cannot be found (no device: tmpfs, NFS,
 * FUSE; sysfs absent).
 */
unsigned int cdm_align_logical_block(const char *dev_name);

/*
 * cdm_align_check - is the block size of every test in @tests (@n of them)
 * a multiple of @lbs bytes?  @dev_name names the device in the message
 * (NULL or "": "the device").  Returns 0 (also when @lbs is 0: unknown),
 * or -EINVAL with one line in @err (may be NULL) naming the first test
 * that is not and what would fit ("RND512B Q1T1: block size 512 B is not
 * a multiple of the 4096-byte logical block size of vdb, which O_DIRECT
 * needs; use multiples of 4096 B, or --buffered").
 */
int cdm_align_check(const struct cdm_spec *tests, unsigned int n, unsigned int lbs,
		    const char *dev_name, struct cdm_err *err);

/*
 * cdm_align_probe - where sysfs has no answer (FUSE, NFS: the
 * filesystem's st_dev is not a block device), ask the kernel instead: one
 * O_DIRECT read of @block bytes at offset 0 of the prepared test file @fd
 * (opened O_DIRECT), into a 4096-byte-aligned buffer.  Returns 0 when it is
 * accepted, -EINVAL when O_DIRECT refuses that size here, another -errno
 * (-ENOMEM) otherwise.  Reads only; the file must hold @block bytes.
 */
int cdm_align_probe(int fd, uint64_t block);

#endif /* CDM_ALIGN_H */
