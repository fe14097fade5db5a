/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * looks.c — the adaptive-reps policy: the next look, a row's first
 * target, a step at a look (looks.h).
 */
#include "config.h"

#include "model/rotation.h"
#include "run/looks.h"

size_t pab_looks_next(const size_t *looks, size_t n_looks, size_t n)
{
	size_t k;

	for (k = 0; k < n_looks; k++)
		if (looks[k] > n)
			return looks[k];
	return 0;
}

size_t pab_looks_first_target(const size_t *looks, size_t n_looks, size_t first,
			      size_t n_arms, size_t n_reps)
{
	size_t done = pab_rotation_round_up(n_arms, n_reps);
	size_t look = done > first ? pab_looks_next(looks, n_looks, done - 1) : 0;

	if (done <= first || !n_reps)
		return first;
	return look ? look : done;
}

int pab_looks_step(const size_t *looks, size_t n_looks, const int *decided, size_t n_rows,
		   int budget_spent, size_t *target, size_t *undecided)
{
	size_t ri;
	int more = 0;

	*undecided = 0;
	for (ri = 0; ri < n_rows; ri++) {
		size_t next;

		if (decided[ri])
			continue;
		++*undecided;
		next = pab_looks_next(looks, n_looks, target[ri]);
		if (!next || budget_spent)
			continue;
		target[ri] = next;
		more = 1;
	}
	return more;
}
