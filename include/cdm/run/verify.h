/* SPDX-License-Identifier: MIT */
/*
 * cdm/run/verify.h - --verify: what a write or Mix test wrote, recorded
 * while it runs and read back after it (docs/method.md, "Verification").
 *
 * Every 512-byte sector cdm writes carries a stamp: its own offset and
 * the seq of the write (model/stamp.h).  While a test runs, the worker
 * threads keep, per block of the test (its block size; offsets are
 * block-aligned), the seq of the last write to it that completed, in one
 * 64-bit word: 8 bytes per block recorded.  After the test every block
 * recorded is read back and each sector's stamp checked against it.
 *
 * Overlapping writes are serialised, as fio's serialize_overlap does: a
 * write is not started on a block that has a write in flight (the word's
 * CDM_VERIFY_BUSY bit); the worker takes another block instead.  So the
 * last write that completed on a block is the one the block must hold,
 * with no either-or.
 *
 * A file of more than CDM_VERIFY_MAX_SLOTS blocks is sampled: of every k
 * blocks in a row (k = ceil(blocks / CDM_VERIFY_MAX_SLOTS)) one,
 * chosen by a hash of the run's index, is recorded and read back; the
 * others are written as usual and never checked (struct cdm_verify says
 * "sampled", and k as "every").
 */
#ifndef CDM_RUN_VERIFY_H
#define CDM_RUN_VERIFY_H

#include <stdatomic.h>
#include <stdint.h>

#include "cdm/model/result.h"
#include "cdm/plan/plan.h"

struct cdm_err;

/*
 * Most blocks recorded per test: 4 Mi words, 32 MiB; every block of a
 * 16 GiB file of 4 KiB blocks, of a 4 TiB file of 1 MiB blocks.
 */
#define CDM_VERIFY_MAX_SLOTS (1ull << 22)

/*
 * A block's word: 0 while no write of the test has completed on it;
 * else the seq (model/stamp.h: never 0, thread in bits 48..56) of the
 * last one that did, with bit 63 set while a write is in flight on it.
 */
#define CDM_VERIFY_BUSY (1ull << 63)

/* what cdm_verify_claim() says of a block */
#define CDM_VERIFY_NOT_RECORDED (-1)    /* not in the sample: write it, nothing kept */
#define CDM_VERIFY_IN_FLIGHT (-2)       /* a write to it is in flight: take another */

/* struct cdm_verify_map - one test's record; cdm_verify_map_new() */
struct cdm_verify_map {
	_Atomic uint64_t *word;         /* nslots words (see CDM_VERIFY_BUSY) */
	uint64_t nslots;                /* words */
	uint64_t nblocks;               /* blocks in the file (file size / block) */
	uint64_t block;                 /* bytes */
	uint64_t every;                 /* 1: every block recorded; k: one in k */
};

/*
 * cdm_verify_map_new - an empty record for a test of @block-byte blocks
 * on a file of @nblocks blocks (both >= 1): 8 bytes per block, or per
 * sampled block above CDM_VERIFY_MAX_SLOTS.  Returns it (free with
 * cdm_verify_map_free()), or NULL when out of memory.
 */
struct cdm_verify_map *cdm_verify_map_new(uint64_t nblocks, uint64_t block);

/* cdm_verify_map_free - free @m; NULL is allowed */
void cdm_verify_map_free(struct cdm_verify_map *m);

/*
 * cdm_verify_sample_at - the block (index) recorded for slot @slot of @m:
 * @slot itself without sampling, else one block of blocks slot*k ..
 * slot*k + k - 1, picked by a hash of @slot (splitmix64's finalizer), so
 * the sample follows no stride of a RAID or a flash page.
 */
static inline uint64_t cdm_verify_sample_at(const struct cdm_verify_map *m, uint64_t slot)
{
	uint64_t z = slot * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;

	if (m->every == 1)
		return slot;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return slot * m->every + z % m->every;
}

/*
 * cdm_verify_claim - a worker is about to write block @blk: when the
 * block is recorded and no write is in flight on it, mark it busy and
 * return its slot (>= 0, for cdm_verify_done()); CDM_VERIFY_IN_FLIGHT
 * when a write is in flight on it (the caller takes another block);
 * CDM_VERIFY_NOT_RECORDED when sampling leaves it out.  Any thread; one
 * compare-and-swap.
 */
static inline int64_t cdm_verify_claim(struct cdm_verify_map *m, uint64_t blk)
{
	uint64_t slot = blk, w;

	if (m->every != 1) {
		slot = blk / m->every;
		if (slot >= m->nslots || cdm_verify_sample_at(m, slot) != blk)
			return CDM_VERIFY_NOT_RECORDED;
	}
	w = atomic_load_explicit(&m->word[slot], memory_order_relaxed);
	do {
		if (w & CDM_VERIFY_BUSY)
			return CDM_VERIFY_IN_FLIGHT;
	} while (!atomic_compare_exchange_weak_explicit(&m->word[slot], &w, w | CDM_VERIFY_BUSY,
							memory_order_acquire, memory_order_relaxed));
	return (int64_t)slot;
}

/*
 * cdm_verify_done - the write of @seq to the block of @slot (from
 * cdm_verify_claim()) completed in full: it is the block's last, and the
 * block is free for the next write.  A write that failed is not passed
 * here: its block stays busy and is not checked (the test has failed).
 */
static inline void cdm_verify_done(struct cdm_verify_map *m, int64_t slot, uint64_t seq)
{
	atomic_store_explicit(&m->word[slot], seq, memory_order_release);
}

/*
 * cdm_verify_unclaim - the write claimed on the block of @slot (from
 * cdm_verify_claim()) was never started (held as busy when the test
 * stopped, or refused): the block is free again and its last write is
 * still the one before, which the read-back checks.
 */
static inline void cdm_verify_unclaim(struct cdm_verify_map *m, int64_t slot)
{
	atomic_fetch_and_explicit(&m->word[slot], ~CDM_VERIFY_BUSY, memory_order_release);
}

/* what cdm_verify_block() finds in one block */
enum cdm_verify_kind {
	CDM_VERIFY_OK = 0,
	CDM_VERIFY_LOST,                /* every sector holds an older (other) write of this offset */
	CDM_VERIFY_MISDIRECTED,         /* a sector holds a stamp of another offset */
	CDM_VERIFY_TORN,                /* its sectors hold different writes of this offset */
};

/*
 * cdm_verify_block - check the @len bytes at @buf (@len a multiple of 512),
 * read back from byte @offset of the test file, against @seq, the write
 * that completed last there.  Each 512-byte sector's stamp
 * (cdm_stamp_read()) must name its own offset (else MISDIRECTED: a write
 * meant for the stamp's offset landed here, or the sector is corrupt and
 * its stamp no longer decodes), all must hold the same write (else TORN:
 * part of a write reached the medium) and that write must be @seq (else
 * LOST: the block holds an older write).  A block with more than one
 * kind is counted as the first of MISDIRECTED, TORN, LOST.  When
 * MISDIRECTED and @meant is not NULL, *@meant is the offset the first
 * foreign stamp names.  No error.
 */
enum cdm_verify_kind cdm_verify_block(const void *buf, uint64_t len, uint64_t offset,
				      uint64_t seq, uint64_t *meant);

/*
 * cdm_verify_check_plan - --verify's rules for the tests of @cfg on a
 * file of @size bytes: refused with --data zero (zeros carry no stamp);
 * every write or Mix test must leave a block free: its file must have
 * more blocks than T x Q writes in flight (serialised overlaps need one
 * to go to).  Returns 0, or -EINVAL with one line in @err.  Not called
 * without --verify.
 */
int cdm_verify_check_plan(const struct cdm_run_config *cfg, uint64_t size, struct cdm_err *err);

/*
 * cdm_verify_read_back - read back, in file order, every block @m has a
 * completed write for, from @fd (the test file as the run opened it:
 * O_DIRECT when @direct, then into an aligned buffer; else through the
 * page cache, after fdatasync() and POSIX_FADV_DONTNEED have sent its
 * pages to the device and dropped them) and check each with
 * cdm_verify_block().  Fills @out (done 1, the counts, the first offset
 * of each kind, the offset the first misdirected block's stamp names
 * (first_meant), and sampled and every from @m's sample).  @progress (may
 * be NULL) is called with the blocks done
 * and the total after each read; @stop (may be NULL) ends it early when
 * it returns non-zero: then @out is all 0 but @interrupted 1 (nothing
 * checked).  Returns 0; -EINTR when stopped; -errno of a
 * failed read (or -EIO for a short one), fdatasync or allocation, with
 * "read-back failed at offset N: ..." in @err (the caller adds the path).
 */
int cdm_verify_read_back(const struct cdm_verify_map *m, int fd, int direct,
			 struct cdm_verify *out,
			 void (*progress)(uint64_t done, uint64_t total), int (*stop)(void),
			 struct cdm_err *err);

#endif /* CDM_RUN_VERIFY_H */
