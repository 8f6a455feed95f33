/* SPDX-License-Identifier: MIT */
/*
 * size.h - sizes in bytes: parsing and printing.
 *
 * The one grammar of every size cdm reads (--size, the size key of a
 * profile, the block size of a test spec, in cdm and cdm sweep): a whole
 * number, then optionally blanks and a unit, nothing else:
 *   K M G T and KiB MiB GiB TiB - powers of 1024 (CrystalDiskMark's "1GiB"
 *   setting; 1G = 1GiB);
 *   KB MB GB TB - powers of 1000 (the report header's "KB = 1000 bytes",
 *   as MB/s is 10^6 bytes/s), so 1GB is 10^9 bytes, never taken as GiB;
 *   B, or no unit - bytes.
 * Units are case-insensitive ("1gb" = "1 GB" = "1Gb" = 10^9: B is always
 * bytes, cdm has no bits).  Fractions, signs, exponents, hex and blanks
 * before the number or after the unit are refused.  docs/cdm.1 (SIZES)
 * and docs/profile-format.md say the same.
 */
#ifndef CDM_BASE_SIZE_H
#define CDM_BASE_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* the binary units, for a size's arithmetic (KIB was defined in two files) */
#define CDM_KIB 1024ull
#define CDM_MIB (1024ull * CDM_KIB)
#define CDM_GIB (1024ull * CDM_MIB)
#define CDM_TIB (1024ull * CDM_GIB)
#define CDM_PIB (1024ull * CDM_TIB)

#define CDM_SIZE_CDM_N_MAX (1ull << 20)         /* cdm_size_scan_cdm()'s number, at most */

/*
 * cdm_size_scan - read the size at *@sp (a digit must be there): the
 * number, and blanks and a unit when a unit follows; *@sp is left after
 * what was read (after the number when no unit follows, blanks not taken).
 * Sets *@bytes (may be 0).  Returns 1 when a unit was read, 0 when not,
 * -EINVAL when *@sp does not start with a digit, -ERANGE when the size
 * overflows 64 bits.  For sizes inside longer text (a test spec).
 */
int cdm_size_scan(const char **sp, uint64_t *bytes);

/*
 * cdm_size_scan_cdm - a block size as a CrystalDiskMark report's result
 * rows spell it, which is not the grammar above: at *@sp, blanks
 * (cdm_ascii_is_space()), a whole number of at most CDM_SIZE_CDM_N_MAX,
 * blanks, and a unit as printed, case and all: "KiB" or "MiB" ("4KiB",
 * "1MiB": CDM 5.x and later, and cdm's rows, cdm_size_unit()), "KB",
 * which CDM 3.x and 4.x print for KiB ("Random Read 4KB", "512KB": their
 * KB is 1024 bytes, where this header's is 1000), or "B" (cdm's "512B").
 * Returns 1, *@bytes set and *@sp moved past the unit, or 0 when no such
 * size is there (another unit, "4K", "4kib", a larger number), *@sp and
 * *@bytes left as they were.
 */
int cdm_size_scan_cdm(const char **sp, uint64_t *bytes);

/* the units of CrystalDiskMark's sizes (cdm_size_cdm_unit()'s @which) */
#define CDM_SIZE_CDM_BLOCK 0x1u /* a result row's block: MiB KiB KB B */
#define CDM_SIZE_CDM_TEST 0x2u  /* a footer's Test size: TiB GiB MiB MB KiB B */

/*
 * cdm_size_cdm_unit - the one table of the units CrystalDiskMark's reports
 * and cdm's text in their layouts print, case and all: at *@sp, blanks
 * (cdm_ascii_is_space()) and a unit of those @which takes.  A row's block
 * is as cdm_size_scan_cdm() says; a Test line's size is in any of
 * cdm_size_format()'s units ("512 KiB", "2 TiB") or "MB", which 3.x and
 * 4.x print for CDM's MiB ("1000 MB").  Returns the unit as printed, for
 * a message, with *@bytes its size and *@sp moved past it; NULL when no
 * such unit is there, *@sp and *@bytes left as they were.
 */
const char *cdm_size_cdm_unit(const char **sp, unsigned int which, uint64_t *bytes);

/*
 * cdm_size_parse - parse a whole string as a size ("1GiB", "512 MiB",
 * "64m", "1GB", "4096").  Returns 0 and sets *@bytes, or -EINVAL (garbage,
 * zero, negative, anything after the unit) or -ERANGE (overflows 64 bits).
 */
int cdm_size_parse(const char *s, uint64_t *bytes);

/*
 * cdm_size_unit - the unit @bytes is printed in: the largest power of 1024
 * that divides it exactly, "B", "KiB", "MiB", "GiB" or "TiB" (0 is "B"),
 * with *@n the number of them (@bytes / the unit).  Every size cdm prints
 * takes its unit here: cdm_size_format()'s "4 KiB", CDM's row labels
 * "4KiB" (whose first letter is a test spec's, "RND4K").  Returns the unit.
 */
const char *cdm_size_unit(uint64_t bytes, uint64_t *n);

/*
 * cdm_size_format - "1 GiB", "64 MiB", "4 KiB" or "1000 B": the largest
 * power-of-1024 unit that divides @bytes exactly (CDM's Test: line uses GiB,
 * and MiB below 1 GiB).  Writes at most @len bytes including the NUL;
 * returns @buf.
 */
char *cdm_size_format(uint64_t bytes, char *buf, size_t len);

#endif /* CDM_BASE_SIZE_H */
