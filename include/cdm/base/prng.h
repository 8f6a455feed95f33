/* SPDX-License-Identifier: MIT */
/*
 * prng.h - cdm's one pseudo-random generator: xorshift64* (Vigna, "An
 * experimental exploration of Marsaglia's xorshift generators", 2016).
 * Fast enough for the I/O hot path (random offsets, the read/write choice
 * of a Mix test) and its output does not compress (test data).  Not for
 * anything that needs unpredictability.  Header only.
 */
#ifndef CDM_BASE_PRNG_H
#define CDM_BASE_PRNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * cdm_prng_next - the next 64-bit value of the generator whose state is
 * *@state (never 0: a zero state stays zero; seed with cdm_prng_seed()).
 */
static inline uint64_t cdm_prng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* cdm_prng_seed - a state from any 64-bit @seed (0 included) */
static inline uint64_t cdm_prng_seed(uint64_t seed)
{
	seed *= 0x9E3779B97F4A7C15ull;	/* Fibonacci hashing spreads the bits */
	return seed ? seed : 1;
}

/*
 * cdm_prng_mulhi - the high 64 bits of the 128-bit product @a x @b, in
 * 64-bit arithmetic only (no __int128: 32-bit targets have none), as
 * four 32 x 32-bit products.
 */
static inline uint64_t cdm_prng_mulhi(uint64_t a, uint64_t b)
{
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/*
 * cdm_prng_below - a uniform draw in [0, @n) (@n >= 1) without a division:
 * (r x n) >> 64 (Lemire, "Fast random integer generation in an interval",
 * 2019, without the rejection step: the bias is below n / 2^64).
 */
static inline uint64_t cdm_prng_below(uint64_t *state, uint64_t n)
{
	return cdm_prng_mulhi(cdm_prng_next(state), n);
}

/*
 * cdm_prng_percent - the threshold T for which a draw of cdm_prng_next()
 * is below T with probability @pct % (0..99): floor(pct x 2^64 / 100),
 * exact, in 64 bits (2^64 = 100 x floor(2^64 / 100) + 16).
 */
static inline uint64_t cdm_prng_percent(unsigned int pct)
{
	return pct * (UINT64_MAX / 100) + pct * 16u / 100;
}

/* cdm_prng_fill - @words 64-bit values from *@state into @p */
static inline void cdm_prng_fill(uint64_t *p, size_t words, uint64_t *state)
{
	for (size_t i = 0; i < words; i++)
		p[i] = cdm_prng_next(state);
}

#endif /* CDM_BASE_PRNG_H */
