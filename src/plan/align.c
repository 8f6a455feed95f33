/* SPDX-License-Identifier: MIT */
/*
 * align.c - the O_DIRECT block-size check (cdm/plan/align.h): the logical block
 * size of the target's device from sysfs, and the tests whose block size
 * is not a multiple of it.  Where sysfs has no answer (NFS, FUSE), one
 * O_DIRECT read of the smallest block asks the kernel instead, once the
 * test file is prepared and before any test (docs/method.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/file.h"
#include "cdm/base/lfs.h"
#include "cdm/plan/align.h"

unsigned int cdm_align_logical_block(const char *dev_name)
{
	char path[256];
	uint64_t lbs;

	if (!dev_name || !dev_name[0] || strchr(dev_name, '/'))
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/logical_block_size", dev_name);
	if (cdm_file_read_u64(path, &lbs))
		return 0;
	/* a power of two from 512 up, or it is not an answer */
	if (lbs < 512 || lbs > (1u << 30) || (lbs & (lbs - 1)))
		return 0;
	return (unsigned int)lbs;
}

int cdm_align_check(const struct cdm_spec *tests, unsigned int n, unsigned int lbs,
		    const char *dev_name, struct cdm_err *err)
{
	char name[64];

	if (!lbs)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		if (tests[i].block % lbs == 0)
			continue;
		cdm_spec_name(&tests[i], name, sizeof(name));
		return cdm_err_set(err, -EINVAL,
				   "%s: block size %llu B is not a multiple of the %u-byte logical block size of %s, which O_DIRECT needs; use multiples of %u B, or --buffered",
				   name, (unsigned long long)tests[i].block, lbs,
				   dev_name && dev_name[0] ? dev_name : "the device", lbs);
	}
	return 0;
}

int cdm_align_probe(int fd, uint64_t block)
{
	size_t len = (size_t)((block + 4095) & ~4095ull);
	void *buf = aligned_alloc(4096, len);
	ssize_t n;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	n = pread(fd, buf, (size_t)block, 0);
	if (n < 0)
		ret = -errno;
	free(buf);
	return ret;
}
