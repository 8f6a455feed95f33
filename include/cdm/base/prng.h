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

/* cdm_prng_fill - @words 64-bit values from *@state into @p */
static inline void cdm_prng_fill(uint64_t *p, size_t words, uint64_t *state)
{
	for (size_t i = 0; i < words; i++)
		p[i] = cdm_prng_next(state);
}

#endif /* CDM_BASE_PRNG_H */
