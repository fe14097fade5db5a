/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rotation.h — the arm-order protocol "rotate-reverse/1".
 *
 * A block is n_arms consecutive reps. Rep j of a block runs the arm list
 * rotated left by j; odd blocks run the reverse of those orders. So every
 * arm takes every position exactly once per block, and for three arms one
 * two-block cycle runs all six permutations (the seed's forward/backward
 * alternation left head in the middle slot forever).
 */
#ifndef PAB_ROTATION_H
#define PAB_ROTATION_H

#include <stddef.h>

#define PAB_PROTOCOL_NAME "rotate-reverse/1"

/* Block number of rep (0-based) for n_arms arms. */
size_t pab_rotation_block(size_t n_arms, size_t rep);

/*
 * pab_rotation_order: order[k] = index (into the arm list) of the arm that
 * runs k-th in rep `rep`. order has n_arms slots, caller-owned.
 */
void pab_rotation_order(size_t n_arms, size_t rep, size_t *order);

/* reps rounded up to complete blocks (a multiple of n_arms, at least one). */
size_t pab_rotation_round_up(size_t n_arms, size_t reps);

#endif /* PAB_ROTATION_H */
