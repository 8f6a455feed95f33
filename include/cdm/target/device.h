/* SPDX-License-Identifier: MIT */
/*
 * cdm/target/device.h - a raw block device as TARGET (`cdm /dev/sdX`).
 *
 * The one exception to "cdm writes only a file it created" (docs/safety.md): on a block device the default mode is read, reads run
 * with O_DIRECT over the device (or --size of it), and nothing is ever
 * written unless the user gave --allow-destructive-write AND the kernel
 * grants an exclusive open (O_EXCL on a block device fails with EBUSY
 * while it is mounted, holds a mounted partition, is swap, or is held by
 * device-mapper or md).  cdm never removes or prepares anything on a
 * device otherwise.  docs/safety.md lists every message.
 */
#ifndef CDM_DEVICE_H
#define CDM_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cdm_err;

struct cdm_blockdev {
	char name[64];                  /* kernel name: "loop3", "sdb1" ("" if unknown) */
	dev_t rdev;                     /* its device number */
	uint64_t size;                  /* bytes (BLKGETSIZE64) */
	unsigned int logical_block;     /* bytes (BLKSSZGET): O_DIRECT alignment */
	unsigned int physical_block;    /* bytes (BLKPBSZGET), 0 if unknown */
	int read_only;                  /* BLKROGET: the kernel refuses writes */
};

/*
 * cdm_device_query - is @path a block device?  Returns 1 and fills @bd
 * (opening it read-only, without O_EXCL, for the size ioctls), 0 when
 * @path is something else or does not exist (the target probe says why),
 * or -errno when it is a block device that cannot be opened or queried.
 */
int cdm_device_query(const char *path, struct cdm_blockdev *bd);


/*
 * cdm_device_open - open the device for a run: read-only (O_RDONLY) when
 * @writes is 0; otherwise O_RDWR | O_EXCL.  @direct adds O_DIRECT.  On
 * EBUSY the message says what holds the device (cdm_device_in_use()).
 * @bd is what cdm_device_query() found: a node that now names another
 * device is refused (-ESTALE), as is a write open of a read-only device
 * (-EROFS).  Returns the descriptor (the caller closes it), or -errno with
 * one line in @err (may be NULL) naming @path.
 */
int cdm_device_open(const char *path, const struct cdm_blockdev *bd, int writes,
		    int direct, struct cdm_err *err);

/*
 * cdm_device_in_use - what keeps the device busy, looked up in
 * /proc/self/mountinfo (the device or one of its partitions mounted),
 * /proc/swaps (swap) and /sys/dev/block/MAJ:MIN/holders (device-mapper,
 * md, or another holder), for the device and each of its partitions.
 * Writes e.g. "mounted on /mnt/x", "partition loop3p1 is mounted on /mnt/y",
 * "in use as swap", "held by device-mapper dm-0 (vg-lv)", "held by md RAID
 * md0" to @why; "" when nothing is found.  Returns 1 when found, else 0.
 */
int cdm_device_in_use(const struct cdm_blockdev *bd, char *why, size_t len);

/*
 * cdm_device_notes - before a read-only run on device @path (open as
 * @fd), what may distort the figures, on stderr (cdm_msg_note, cdm_msg_warn): a note when it is in use
 * (mounted, swap, held: cdm_device_in_use()); then, since reads of
 * blocks never written (thin-provisioned LUNs, sparse images, trimmed
 * SSDs) may not touch the media, a warning with the share of the first
 * @size bytes never written when it is a loop device over a sparse file
 * (SEEK_DATA/SEEK_HOLE on its backing file), or when 64 blocks sampled
 * evenly over that region through @fd all read back as zeros, else a
 * note; each says how to write the device first.  (A loop device without
 * direct I/O, or over memory, is target/stack.h's warning, given for read
 * and write runs alike.)  Reads at most 64 blocks of 4 KiB (or the
 * logical block).
 */
void cdm_device_notes(const char *path, const struct cdm_blockdev *bd, int fd,
		      uint64_t size);

#endif /* CDM_DEVICE_H */
