/* SPDX-License-Identifier: MIT */
/*
 * test_verify.c - --verify (include/cdm/run/verify.h): the check of one
 * block read back (a clean block, an older write, a write meant for
 * another offset, a torn block, and which kind wins), the record the
 * workers keep (a block with a write in flight is refused, the sample of
 * a huge file), the read-back of a real file with faults put in it (and
 * of a sample, on a sparse file), and the plan's rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/base/prng.h"
#include "cdm/model/stamp.h"
#include "cdm/engine/engine.h"
#include "cdm/run/verify.h"

#define BLOCK 4096u
#define SECTORS (BLOCK / CDM_STAMP_SECTOR)

static uint64_t rng = 0x9e3779b9;

/* @buf as write @seq of the block at @off would leave it */
static void stamp(uint8_t *buf, uint64_t off, uint64_t seq)
{
	cdm_prng_fill((uint64_t *)buf, BLOCK / 8, &rng);
	cdm_stamp_write(buf, BLOCK, off, seq, cdm_prng_next(&rng));
}

static void test_block_kinds(void **state)
{
	static uint8_t a[BLOCK], b[BLOCK];
	uint64_t s1 = cdm_stamp_seq(0, 1), s2 = cdm_stamp_seq(1, 7), meant = 0;

	(void)state;
	stamp(a, 8192, s1);
	assert_int_equal(cdm_verify_block(a, BLOCK, 8192, s1, &meant), CDM_VERIFY_OK);
	/* an older write of the same offset: the last one was lost */
	assert_int_equal(cdm_verify_block(a, BLOCK, 8192, s2, &meant), CDM_VERIFY_LOST);
	/* the preparation's data where a write of the test should be */
	stamp(b, 8192, CDM_STAMP_PREP);
	assert_int_equal(cdm_verify_block(b, BLOCK, 8192, s1, &meant), CDM_VERIFY_LOST);
	/* the write meant for the next block landed here */
	stamp(b, 8192 + BLOCK, s2);
	assert_int_equal(cdm_verify_block(b, BLOCK, 8192, s2, &meant), CDM_VERIFY_MISDIRECTED);
	assert_int_equal(meant, 8192 + BLOCK);
	/* the first half of a new write over an old one: torn, even though half is the last */
	stamp(b, 8192, s2);
	memcpy(b + BLOCK / 2, a + BLOCK / 2, BLOCK / 2);
	assert_int_equal(cdm_verify_block(b, BLOCK, 8192, s2, NULL), CDM_VERIFY_TORN);
	assert_int_equal(cdm_verify_block(b, BLOCK, 8192, s1, NULL), CDM_VERIFY_TORN);
	/* one foreign sector in a torn block: misdirected wins */
	stamp(a, 0, s1);
	memcpy(b + CDM_STAMP_SECTOR * (SECTORS - 1), a, CDM_STAMP_SECTOR);
	meant = 1;
	assert_int_equal(cdm_verify_block(b, BLOCK, 8192, s2, &meant), CDM_VERIFY_MISDIRECTED);
	assert_int_equal(meant, 0);
	/* one flipped bit anywhere in a sector spoils its stamp */
	stamp(b, 8192, s2);
	b[3 * CDM_STAMP_SECTOR + 100] ^= 0x10;
	assert_int_not_equal(cdm_verify_block(b, BLOCK, 8192, s2, NULL), CDM_VERIFY_OK);
}

static void test_claim(void **state)
{
	struct cdm_verify_map *m = cdm_verify_map_new(16, BLOCK);
	int64_t slot;

	(void)state;
	assert_non_null(m);
	assert_int_equal(m->every, 1);
	assert_int_equal(m->nslots, 16);
	slot = cdm_verify_claim(m, 5);
	assert_int_equal(slot, 5);
	/* in flight: a second write to it must go elsewhere */
	assert_int_equal(cdm_verify_claim(m, 5), CDM_VERIFY_IN_FLIGHT);
	assert_int_equal(cdm_verify_claim(m, 6), 6);
	cdm_verify_done(m, slot, cdm_stamp_seq(2, 3));
	assert_int_equal(m->word[5], cdm_stamp_seq(2, 3));
	/* free again, and the last seq stays until the next write completes */
	assert_int_equal(cdm_verify_claim(m, 5), 5);
	assert_true(m->word[5] & CDM_VERIFY_BUSY);
	assert_int_equal(m->word[5] & ~CDM_VERIFY_BUSY, cdm_stamp_seq(2, 3));
	cdm_verify_map_free(m);
	cdm_verify_map_free(NULL);
	assert_null(cdm_verify_map_new(0, BLOCK));
}

static void test_sample(void **state)
{
	uint64_t n = CDM_VERIFY_MAX_SLOTS * 3 + 5, hits[3] = { 0, 0, 0 }, recorded = 0;
	struct cdm_verify_map *m = cdm_verify_map_new(n, BLOCK);

	(void)state;
	assert_non_null(m);
	assert_int_equal(m->every, 4);
	assert_true(m->nslots <= CDM_VERIFY_MAX_SLOTS);
	/* one block of every 4, the same for the claim as for the read-back */
	for (uint64_t slot = 0; slot < 4096; slot++) {
		uint64_t blk = cdm_verify_sample_at(m, slot);

		assert_true(blk / 4 == slot);
		for (uint64_t b = slot * 4; b < slot * 4 + 4; b++) {
			int64_t r = cdm_verify_claim(m, b);

			if (b == blk) {
				assert_int_equal(r, (int64_t)slot);
				recorded++;
			} else {
				assert_int_equal(r, CDM_VERIFY_NOT_RECORDED);
			}
		}
		if (blk % 4 < 3)
			hits[blk % 4]++;
	}
	assert_int_equal(recorded, 4096);
	/* a hash, not a stride: every position in the run is taken */
	assert_true(hits[0] > 800 && hits[1] > 800 && hits[2] > 800);
	cdm_verify_map_free(m);
}

static int never_stop(void)
{
	return 0;
}

/* a real file of 32 blocks, each written by the test or left as prepared */
static void test_read_back(void **state)
{
	static uint8_t buf[BLOCK], old[BLOCK];
	char path[] = "/tmp/cdm-test-verify-XXXXXX";
	struct cdm_verify_map *m = cdm_verify_map_new(32, BLOCK);
	struct cdm_verify v;
	struct cdm_err err = { "" };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_non_null(m);
	for (uint64_t b = 0; b < 32; b++) {
		stamp(buf, b * BLOCK, CDM_STAMP_PREP);
		assert_int_equal(pwrite(fd, buf, BLOCK, (off_t)(b * BLOCK)), BLOCK);
	}
	/* the test wrote blocks 2..29 (not 0, 1, 30, 31); block 20's last write is in flight */
	for (uint64_t b = 2; b < 30; b++) {
		uint64_t seq = cdm_stamp_seq(0, b);

		assert_int_equal(cdm_verify_claim(m, b), (int64_t)b);
		if (b == 20)
			continue;
		stamp(buf, b * BLOCK, seq);
		/* faults: 7 and 9 lost, 12's write landed on 1, 15 torn */
		if (b == 7 || b == 9)
			;
		else if (b == 12)
			assert_int_equal(pwrite(fd, buf, BLOCK, 1 * BLOCK), BLOCK);
		else if (b == 15)
			assert_int_equal(pwrite(fd, buf, BLOCK / 2, (off_t)(b * BLOCK)), BLOCK / 2);
		else
			assert_int_equal(pwrite(fd, buf, BLOCK, (off_t)(b * BLOCK)), BLOCK);
		cdm_verify_done(m, (int64_t)b, seq);
	}
	/* block 1 is not recorded: its misdirected data is not checked; 12 is lost */
	assert_int_equal(cdm_verify_read_back(m, fd, 0, &v, NULL, never_stop, &err), 0);
	assert_int_equal(v.done, 1);
	assert_int_equal(v.sampled, 0);
	assert_int_equal(v.every, 1);
	assert_int_equal(v.meant_known, 0);
	assert_int_equal(v.blocks, 27);
	assert_int_equal(v.lost, 3);
	assert_int_equal(v.first_lost, 7 * BLOCK);
	assert_int_equal(v.misdirected, 0);
	assert_int_equal(v.torn, 1);
	assert_int_equal(v.first_torn, 15 * BLOCK);
	/* now the write for 12 lands on 13, a recorded block */
	assert_int_equal(pread(fd, old, BLOCK, 1 * BLOCK), BLOCK);
	assert_int_equal(pwrite(fd, old, BLOCK, 13 * BLOCK), BLOCK);
	assert_int_equal(cdm_verify_read_back(m, fd, 0, &v, NULL, NULL, &err), 0);
	assert_int_equal(v.misdirected, 1);
	assert_int_equal(v.first_misdirected, 13 * BLOCK);
	assert_int_equal(v.meant_known, 1);
	assert_int_equal(v.first_meant, 12 * BLOCK);
	/* a file shorter than the record: the read fails, named by its offset */
	assert_int_equal(ftruncate(fd, 10 * BLOCK), 0);
	assert_int_equal(cdm_verify_read_back(m, fd, 0, &v, NULL, NULL, &err), -EIO);
	assert_non_null(strstr(err.msg, "at offset 8192"));
	cdm_verify_map_free(m);
	close(fd);
}

/*
 * a sampled record (one block in 4 of a file of 4 x CDM_VERIFY_MAX_SLOTS
 * blocks, a sparse file): the read-back says it is a sample and its rate
 */
static void test_read_back_sample(void **state)
{
	static uint8_t buf[BLOCK];
	char path[] = "/tmp/cdm-test-verify-XXXXXX";
	uint64_t n = CDM_VERIFY_MAX_SLOTS * 4, slots[3] = { 0, 1000000, CDM_VERIFY_MAX_SLOTS - 1 };
	struct cdm_verify_map *m = cdm_verify_map_new(n, BLOCK);
	struct cdm_verify v;
	struct cdm_err err = { "" };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_non_null(m);
	assert_int_equal(m->every, 4);
	assert_int_equal(ftruncate(fd, (off_t)(n * BLOCK)), 0);
	/* three sampled blocks written, far apart; the second one's write lost */
	for (unsigned int i = 0; i < 3; i++) {
		uint64_t slot = slots[i], b = cdm_verify_sample_at(m, slot);
		uint64_t seq = cdm_stamp_seq(0, slot + 1);

		assert_int_equal(cdm_verify_claim(m, b), (int64_t)slot);
		stamp(buf, b * BLOCK, i == 1 ? CDM_STAMP_PREP : seq);
		assert_int_equal(pwrite(fd, buf, BLOCK, (off_t)(b * BLOCK)), BLOCK);
		cdm_verify_done(m, (int64_t)slot, seq);
	}
	assert_int_equal(cdm_verify_read_back(m, fd, 0, &v, NULL, NULL, &err), 0);
	assert_int_equal(v.done, 1);
	assert_int_equal(v.sampled, 1);
	assert_int_equal(v.every, 4);
	assert_int_equal(v.blocks, 3);
	assert_int_equal(v.lost, 1);
	assert_int_equal(v.first_lost, cdm_verify_sample_at(m, slots[1]) * BLOCK);
	cdm_verify_map_free(m);
	close(fd);
}

static void test_plan(void **state)
{
	struct cdm_run_config cfg;
	struct cdm_err err = { "" };

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.ntests = 1;
	cfg.tests[0] = (struct cdm_spec){ .pattern = CDM_RND, .block = 4096, .qd = 32, .threads = 4 };
	/* a run that reads only holds nothing back: any size */
	cfg.do_read = 1;
	assert_int_equal(cdm_verify_check_plan(&cfg, 128 * 4096, &err), 0);
	/* 128 writes in flight: 129 blocks are enough, 128 are not */
	cfg.do_write = 1;
	assert_int_equal(cdm_verify_check_plan(&cfg, 129 * 4096, &err), 0);
	assert_int_equal(cdm_verify_check_plan(&cfg, 128 * 4096, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "128 writes in flight on a file of 128 blocks"));
	/* an engine that writes nothing: every block would read back lost */
	cfg.engine = cdm_engine_find("null", NULL);
	assert_non_null(cfg.engine);
	assert_int_equal(cdm_verify_check_plan(&cfg, 1 << 30, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "the null engine writes nothing"));
	cfg.engine = NULL;
	cfg.zero_fill = 1;
	assert_int_equal(cdm_verify_check_plan(&cfg, 1 << 30, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--data zero"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_kinds),
		cmocka_unit_test(test_claim),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_read_back_sample),
		cmocka_unit_test(test_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
