/* SPDX-License-Identifier: MIT */
/*
 * test_stamp.c - the data cdm writes (include/cdm/model/stamp.h): every
 * 512-byte sector carries a stamp that reads back as its offset and its
 * write, every byte of a sector changes from one write of a buffer to
 * the next, no sector repeats, the documented layout holds when decoded
 * by hand, and the fast and the baseline variants give the same bytes.
 * Also the 64-bit arithmetic of base/prng.h that replaced __int128.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cdm/base/prng.h"
#include "cdm/model/stamp.h"

#define SECTOR CDM_STAMP_SECTOR

static uint64_t rng = 0x1234567;

static uint8_t *random_buf(size_t len)
{
	uint64_t *p = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);

	assert_non_null(p);
	cdm_prng_fill(p, len / 8, &rng);
	return (uint8_t *)p;
}

static uint64_t word(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* every sector reads back as its own offset and the write's seq */
static void check_stamps(const uint8_t *buf, size_t len, uint64_t offset, uint64_t seq)
{
	for (size_t at = 0; at + CDM_STAMP_BYTES <= len; at += SECTOR) {
		struct cdm_stamp st;

		cdm_stamp_read(buf + at, len - at < SECTOR ? len - at : SECTOR, &st);
		assert_int_equal(st.offset, offset + at);
		assert_int_equal(st.seq, seq);
	}
}

static void test_seq(void **state)
{
	(void)state;
	assert_int_equal(cdm_stamp_seq(0, 1), (1ull << 48) | 1);
	assert_int_equal(cdm_stamp_seq(3, 77), (4ull << 48) | 77);
	assert_int_equal(cdm_stamp_seq(0, (1ull << 48) + 5), (1ull << 48) | 5);
	assert_int_equal(cdm_stamp_thread(cdm_stamp_seq(1023, 9)), 1023);
	assert_int_equal(cdm_stamp_thread(CDM_STAMP_PREP), -1);
}

static void test_every_sector_stamped(void **state)
{
	size_t len = 64 * 1024;
	uint8_t *buf = random_buf(len);
	uint64_t seq = cdm_stamp_seq(2, 77);

	(void)state;
	cdm_stamp_write(buf, len, 1ull << 40, seq, 0x9876543210ull);
	check_stamps(buf, len, 1ull << 40, seq);
	/* and again, with the next write's seq, at another offset */
	cdm_stamp_write(buf, len, 4096, seq + 1, 0x5555);
	check_stamps(buf, len, 4096, seq + 1);
	free(buf);
}

/* the layout of stamp.h decoded by hand: little-endian words, w0 ^ E, w1 ^ O */
static void test_layout(void **state)
{
	uint8_t *buf = random_buf(SECTOR);
	uint64_t e = 0, o = 0, w0 = 0, w1 = 0;

	(void)state;
	cdm_stamp_write(buf, SECTOR, 0x0102030405060708ull, 0x1112131415161718ull, 42);
	for (int i = 7; i >= 0; i--) {
		w0 = w0 << 8 | buf[i];
		w1 = w1 << 8 | buf[8 + i];
	}
	for (int j = 2; j < 64; j++) {
		uint64_t w = 0;

		for (int i = 7; i >= 0; i--)
			w = w << 8 | buf[8 * j + i];
		if (j & 1)
			o ^= w;
		else
			e ^= w;
	}
	assert_int_equal(w0 ^ e, 0x0102030405060708ull);
	assert_int_equal(w1 ^ o, 0x1112131415161718ull);
	free(buf);
}

/*
 * Two writes of the same buffer: in every sector every word changes (by
 * one key per sector, a different key in each sector), and no 512-byte
 * sector of either write equals another sector of either.
 */
static void test_every_byte_changes(void **state)
{
	size_t len = 256 * 1024, n = len / SECTOR, same = 0;
	uint8_t *buf = random_buf(len), *first = malloc(len), *orig = malloc(len);
	uint64_t *keys = calloc(n, sizeof(*keys));

	(void)state;
	assert_non_null(first);
	assert_non_null(orig);
	assert_non_null(keys);
	memcpy(orig, buf, len);
	cdm_stamp_write(buf, len, 0, cdm_stamp_seq(0, 1), cdm_prng_next(&rng));
	memcpy(first, buf, len);
	for (size_t s = 0; s < n; s++) {
		uint64_t d = word(buf + s * SECTOR + 16) ^ word(orig + s * SECTOR + 16);

		assert_int_not_equal(d, 0);
		for (size_t j = 2; j < SECTOR / 8; j++)
			assert_int_equal(word(buf + s * SECTOR + 8 * j) ^ word(orig + s * SECTOR + 8 * j), d);
		for (size_t t = 0; t < s; t++)
			assert_int_not_equal(keys[t], d);
		keys[s] = d;
	}
	cdm_stamp_write(buf, len, 0, cdm_stamp_seq(0, 2), cdm_prng_next(&rng));
	for (size_t i = 0; i < len; i++)
		same += buf[i] == first[i];
	/* a byte stays the same only by chance: 1 in 256 */
	assert_true(same < len / 128);
	/* no sector equals any other, within a write or across the two */
	for (size_t s = 0; s < n; s++)
		for (size_t t = 0; t < n; t++) {
			if (s != t)
				assert_true(memcmp(buf + s * SECTOR, buf + t * SECTOR, SECTOR));
			assert_true(memcmp(buf + s * SECTOR, first + t * SECTOR, SECTOR));
		}
	free(buf);
	free(first);
	free(orig);
	free(keys);
}

/* key 0 (the preparation's random data): only the stamps change */
static void test_key_zero(void **state)
{
	size_t len = 8192;
	uint8_t *buf = random_buf(len), *orig = malloc(len);

	(void)state;
	assert_non_null(orig);
	memcpy(orig, buf, len);
	cdm_stamp_write(buf, len, 1 << 20, CDM_STAMP_PREP, 0);
	check_stamps(buf, len, 1 << 20, CDM_STAMP_PREP);
	for (size_t s = 0; s < len; s += SECTOR)
		assert_memory_equal(buf + s + 16, orig + s + 16, SECTOR - 16);
	free(buf);
	free(orig);
}

/* a last piece shorter than a sector is stamped over its own words */
static void test_short_piece(void **state)
{
	uint8_t *buf = random_buf(4096), *orig = malloc(4096);

	(void)state;
	assert_non_null(orig);
	cdm_stamp_write(buf, 1024 + 24, 0, 9, 77);
	check_stamps(buf, 1024 + 24, 0, 9);
	memcpy(orig, buf, 4096);
	/* 8 bytes: no room for a stamp, left as they are with key 0 */
	cdm_stamp_write(buf, 8, 0, 9, 0);
	assert_memory_equal(buf, orig, 4096);
	free(buf);
	free(orig);
}

/* the variant the CPU gets (AVX2 on x86) writes what the baseline writes */
static void test_variants_agree(void **state)
{
	static const size_t lens[] = { 512, 4096, 4096 + 24, 4096 + 512 + 8, 1 << 20 };

	(void)state;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint8_t *a = random_buf(lens[i]), *b = malloc(lens[i]);
		uint64_t key = cdm_prng_next(&rng);

		assert_non_null(b);
		memcpy(b, a, lens[i]);
		cdm_stamp_write(a, lens[i], 3ull << 32, cdm_stamp_seq(5, 6), key);
		cdm_stamp_write_baseline(b, lens[i], 3ull << 32, cdm_stamp_seq(5, 6), key);
		assert_memory_equal(a, b, lens[i]);
		free(a);
		free(b);
	}
}

/* base/prng.h's 64-bit replacements of 128-bit products */
static void test_prng_mulhi(void **state)
{
	static const uint64_t v[] = { 0, 1, 2, 0xFFFFFFFFull, 0x100000000ull, 0x123456789ABCDEFull,
				      1ull << 63, UINT64_MAX - 1, UINT64_MAX };

	(void)state;
	assert_int_equal(cdm_prng_mulhi(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
	assert_int_equal(cdm_prng_mulhi(1ull << 63, 2), 1);
	assert_int_equal(cdm_prng_mulhi(1ull << 32, 1ull << 32), 1);
	assert_int_equal(cdm_prng_mulhi(0x123456789ABCDEFull, 0xFEDCBA9876543210ull),
			 0x121FA00AD77D742ull);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++) {
#ifdef __SIZEOF_INT128__
			unsigned __int128 p = (unsigned __int128)v[i] * v[j];

			assert_int_equal(cdm_prng_mulhi(v[i], v[j]), (uint64_t)(p >> 64));
#endif
			assert_int_equal(cdm_prng_mulhi(v[i], v[j]), cdm_prng_mulhi(v[j], v[i]));
		}
	for (int i = 0; i < 100000; i++) {
		uint64_t n = cdm_prng_next(&rng) >> (i % 64);

		if (n)
			assert_true(cdm_prng_below(&rng, n) < n);
	}
	assert_int_equal(cdm_prng_below(&rng, 1), 0);
}

/* floor(p x 2^64 / 100), exact for every whole percent */
static void test_prng_percent(void **state)
{
	(void)state;
	assert_int_equal(cdm_prng_percent(0), 0);
	assert_int_equal(cdm_prng_percent(1), 184467440737095516ull);
	assert_int_equal(cdm_prng_percent(50), 1ull << 63);
	assert_int_equal(cdm_prng_percent(70), 12912720851596686131ull);
	assert_int_equal(cdm_prng_percent(99), 18262276632972456099ull);
#ifdef __SIZEOF_INT128__
	for (unsigned int p = 0; p < 100; p++)
		assert_int_equal(cdm_prng_percent(p),
				 (uint64_t)(((unsigned __int128)p << 64) / 100));
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_every_sector_stamped),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_every_byte_changes),
		cmocka_unit_test(test_key_zero),
		cmocka_unit_test(test_short_piece),
		cmocka_unit_test(test_variants_agree),
		cmocka_unit_test(test_prng_mulhi),
		cmocka_unit_test(test_prng_percent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
