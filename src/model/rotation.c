/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rotation.c — rotate-reverse/1 arm orders (rotation.h).
 */
#include "config.h"

#include "model/rotation.h"

size_t pab_rotation_block(size_t n_arms, size_t rep)
{
	return n_arms ? rep / n_arms : 0;
}

void pab_rotation_order(size_t n_arms, size_t rep, size_t *order)
{
	size_t j, k, block;

	if (!n_arms)
		return;
	block = rep / n_arms;
	j = rep % n_arms;
	for (k = 0; k < n_arms; k++) {
		size_t idx = (k + j) % n_arms;

		if (block % 2)
			order[n_arms - 1 - k] = idx;
		else
			order[k] = idx;
	}
}

size_t pab_rotation_round_up(size_t n_arms, size_t reps)
{
	if (!n_arms)
		return reps;
	if (reps < n_arms)
		reps = n_arms;
	return (reps + n_arms - 1) / n_arms * n_arms;
}
