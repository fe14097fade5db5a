/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pab_pcg32.h — the PCG32 random generator (O'Neill 2014, pcg-random.org:
 * XSH RR 64/32 output on a 64-bit LCG, multiplier 6364136223846793005).
 * Written here from the published algorithm; self-contained (pab_pcg32.c
 * has no dependency but libm) so the workload binaries can link it alone.
 * Every consumer seeds it explicitly and records the seed.
 */
#ifndef PAB_PCG32_H
#define PAB_PCG32_H

#include <stdint.h>


struct pab_pcg32 {
	uint64_t state;
	uint64_t inc; /* always odd */
};
/* As pcg32_srandom_r: state = 0, inc = 2*stream + 1, step, add seed, step.
 * Different streams give independent sequences for the same seed. */
void pab_pcg32_seed(struct pab_pcg32 *rng, uint64_t seed, uint64_t stream);
uint32_t pab_pcg32_next(struct pab_pcg32 *rng);
/* Uniform integer in [0, bound) without modulo bias; bound > 0 (0 for a
 * bound of 0 or 1). */
uint32_t pab_pcg32_bounded(struct pab_pcg32 *rng, uint32_t bound);
/* Uniform double in [0, 1) with 53 random bits. */
double pab_pcg32_double(struct pab_pcg32 *rng);
/* Standard normal deviate (Box–Muller on pab_pcg32_double); uses two
 * doubles (four outputs) per deviate and keeps no cached second value. */
double pab_pcg32_normal(struct pab_pcg32 *rng);

#endif /* PAB_PCG32_H */
