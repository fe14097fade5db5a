/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pab_pcg32.c — PCG32 (XSH RR 64/32), written from the published algorithm
 * (M. E. O'Neill, "PCG: A Family of Simple Fast Space-Efficient
 * Statistically Good Algorithms for Random Number Generation", 2014).
 *
 * Self-contained on purpose: the workload binaries compile this file on
 * its own, so it includes nothing of ours but its header and needs only
 * libm (for pab_pcg32_normal). Seeding follows pcg32_srandom_r exactly,
 * so a (seed, stream) pair gives the same sequence as the reference
 * implementation (tests check the pcg32-demo vector for 42, 54).
 */
#include <math.h>

#include "pab_pcg32.h"

#define PCG32_MULT 6364136223846793005ULL

/* 2*pi spelled out: M_PI is not in C11 and this file is built without
 * feature macros. */
#define PCG32_TWO_PI 6.283185307179586476925286766559

void pab_pcg32_seed(struct pab_pcg32 *rng, uint64_t seed, uint64_t stream)
{
	rng->state = 0;
	rng->inc = (stream << 1) | 1u;
	(void)pab_pcg32_next(rng);
	rng->state += seed;
	(void)pab_pcg32_next(rng);
}

uint32_t pab_pcg32_next(struct pab_pcg32 *rng)
{
	uint64_t old = rng->state;
	uint32_t xorshifted, rot;

	rng->state = old * PCG32_MULT + rng->inc;
	/* Output from the old state: the multiply above does not delay it. */
	xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
	rot = (uint32_t)(old >> 59);
	return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

uint32_t pab_pcg32_bounded(struct pab_pcg32 *rng, uint32_t bound)
{
	/*
	 * Reject the lowest 2^32 mod bound outputs so that what remains is
	 * a whole number of copies of [0, bound): r % bound is then uniform.
	 * (0u - bound) % bound computes 2^32 mod bound in 32-bit arithmetic.
	 */
	uint32_t threshold, r;

	if (bound <= 1)
		return 0;
	threshold = (0u - bound) % bound;
	for (;;) {
		r = pab_pcg32_next(rng);
		if (r >= threshold)
			return r % bound;
	}
}

double pab_pcg32_double(struct pab_pcg32 *rng)
{
	/* 27 + 26 = 53 bits, the full precision of a double in [0, 1). */
	uint32_t a = pab_pcg32_next(rng) >> 5;
	uint32_t b = pab_pcg32_next(rng) >> 6;

	return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

double pab_pcg32_normal(struct pab_pcg32 *rng)
{
	/*
	 * Box–Muller, keeping one of the pair: the generator struct has no
	 * room for a cached second deviate, and statelessness keeps every
	 * draw a pure function of (state, inc). u1 is taken from (0, 1] so
	 * log(u1) is finite.
	 */
	double u1 = 1.0 - pab_pcg32_double(rng);
	double u2 = pab_pcg32_double(rng);

	return sqrt(-2.0 * log(u1)) * cos(PCG32_TWO_PI * u2);
}
