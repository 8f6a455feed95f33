/* SPDX-License-Identifier: MIT */
/*
 * size.h - sizes in bytes: parsing and printing.
 *
 * K/M/G/T and KiB/MiB/GiB/TiB are powers of 1024 (CrystalDiskMark's "1GiB"
 * setting); KB/MB/GB/TB are powers of 1000 (the report header's "KB = 1000
 * bytes"); a bare number is bytes, a "B" suffix allowed.  Only the unit
 * letter is case-insensitive: "1Gb" could mean bits.
 */
#ifndef CDM_BASE_SIZE_H
#define CDM_BASE_SIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * cdm_size_parse - parse a size ("1GiB", "512MiB", "64M", "1GB", "4096").
 * Returns 0 and sets *@bytes, or -EINVAL (garbage, zero, negative) or
 * -ERANGE (overflows 64 bits).
 */
int cdm_size_parse(const char *s, uint64_t *bytes);

/*
 * cdm_size_format - "1 GiB", "64 MiB", "4 KiB" or "1000 B": the largest
 * power-of-1024 unit that divides @bytes exactly (CDM's Test: line uses GiB,
 * and MiB below 1 GiB).  Writes at most @len bytes including the NUL;
 * returns @buf.
 */
char *cdm_size_format(uint64_t bytes, char *buf, size_t len);

#endif /* CDM_BASE_SIZE_H */
