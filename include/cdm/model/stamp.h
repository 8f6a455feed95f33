/* SPDX-License-Identifier: MIT */
/*
 * stamp.h - the data cdm writes: the one definition of its format, for
 * the writers (the preparation in target/testfile.c, the writes in
 * run/loop.c) and for anything that reads it back (docs/method.md,
 * "Offsets and data").
 *
 * Every 512-byte sector cdm writes is unique and incompressible.  Read
 * as 64 little-endian 64-bit words w0..w63, with E the XOR of the even
 * words w2, w4 .. w62 and O the XOR of the odd words w3, w5 .. w63:
 *
 *   w0 XOR E     the byte offset of the sector in the test file
 *   w1 XOR O     the write that wrote it (cdm_stamp_seq()): 0 for the
 *                preparation; else bits 63..48 the worker thread of the
 *                test, counted from 1, and bits 47..0 that thread's
 *                number of the write in the test, counted from 1
 *   w2..w63      pseudo-random, different for every write
 *
 * The stamp (offset and seq) makes each sector unique: 512 bytes is the
 * smallest unit storage deduplicates in (a logical sector), so no sector
 * of the file is a copy of another.  Masking it with E and O, which only
 * a reader that has the sector can compute, keeps its mostly-zero bytes
 * from being compressible (about 2 % of the data otherwise): nothing in
 * the file is left for a compressor to shorten.  It also makes the stamp
 * a check of the whole sector: a change to any word of it (short of two
 * that cancel in the XOR) reads back as another offset or seq.
 * `--data zero` (CDM's 0Fill) writes zeros and no stamp.  A last piece of
 * a write shorter than 512 bytes (cdm never writes one) has the same
 * layout over its words; one shorter than 16 bytes has no stamp.
 *
 * A worker's buffer is filled with random bytes once; before each write
 * cdm_stamp_write() XORs each word of each sector with a key drawn for
 * that sector of that write, then stamps it.  XOR with a fresh key
 * changes every byte of the sector, so nothing repeats from an earlier
 * write of the same buffer (changing a few words per sector would leave
 * runs that a compressor with a large window finds: zstd --long then
 * shrinks the file of a 4 KiB random write test to a tenth or a fifth).
 * The price is one pass over the block per write (docs/method.md has
 * the measured cost).
 */
#ifndef CDM_MODEL_STAMP_H
#define CDM_MODEL_STAMP_H

#include <stddef.h>
#include <stdint.h>

#define CDM_STAMP_SECTOR 512u           /* bytes: one stamp per sector */
#define CDM_STAMP_BYTES 16u             /* bytes of the stamp at its start */
#define CDM_STAMP_PREP 0ull             /* the seq of the preparation's sectors */

/* struct cdm_stamp - a stamp as read back (cdm_stamp_read()) */
struct cdm_stamp {
	uint64_t offset;                /* bytes: where the sector was written */
	uint64_t seq;                   /* who wrote it (cdm_stamp_seq()) */
};

/*
 * cdm_stamp_seq - the seq field of write number @n (from 1; taken modulo
 * 2^48) of worker thread @thread (from 0) of a test.
 */
static inline uint64_t cdm_stamp_seq(unsigned int thread, uint64_t n)
{
	return ((uint64_t)(thread + 1) << 48) | (n & ((1ull << 48) - 1));
}

/* cdm_stamp_thread - the worker thread (from 0) of @seq; -1: the preparation */
static inline int cdm_stamp_thread(uint64_t seq)
{
	return (int)(seq >> 48) - 1;
}

/*
 * cdm_stamp_write - make the @len bytes at @buf (@len a multiple of 8)
 * the data of one write at byte @offset of the file: each sector (512
 * bytes, the last one may be shorter) is XORed word by word with a key
 * derived from @key and the sector's index (@key 0: left as it is, for
 * data that is random already), then stamped with its own offset and
 * @seq.  @key must change from one write of the same buffer to the next
 * (a draw of base/prng.h).  No error; touches nothing but the buffer.
 */
void cdm_stamp_write(void *buf, size_t len, uint64_t offset, uint64_t seq, uint64_t key);

/*
 * cdm_stamp_write_baseline - cdm_stamp_write() in the instructions every
 * CPU of the build's architecture has; cdm_stamp_write() runs a faster
 * variant where there is one (AVX2 on x86) and this one elsewhere.  Both
 * give the same bytes (tests/unit/test_stamp.c checks it).
 */
void cdm_stamp_write_baseline(void *buf, size_t len, uint64_t offset, uint64_t seq, uint64_t key);

/*
 * cdm_stamp_read - the stamp of the sector at @sector, @len bytes long
 * (CDM_STAMP_SECTOR, or the length of a last piece; at least
 * CDM_STAMP_BYTES), into *@out.  Any alignment.
 */
void cdm_stamp_read(const void *sector, size_t len, struct cdm_stamp *out);

#endif /* CDM_MODEL_STAMP_H */
