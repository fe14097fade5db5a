/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * looks.h — the adaptive-reps policy (doc/method.md §8): at each planned
 * look the rows decided stop and the others go on to the next look, until
 * the last look or the budget. Pure: the runner (runner.h) keeps the
 * targets and asks.
 */
#ifndef PAB_RUN_LOOKS_H
#define PAB_RUN_LOOKS_H

#include <stddef.h>

/* The planned look after n: the first of looks[0..n_looks) above n, or 0
 * when n is at or past the last. */
size_t pab_looks_next(const size_t *looks, size_t n_looks, size_t n);

/*
 * pab_looks_first_target: the target of a row that holds n_reps reps when
 * the run (re)starts with the first look `first` in blocks of n_arms: the
 * first look, or for a resumed row past it the look it was heading for
 * (its reps rounded up to a whole block when that is the last).
 */
size_t pab_looks_first_target(const size_t *looks, size_t n_looks, size_t first,
			      size_t n_arms, size_t n_reps);

/*
 * pab_looks_step: adaptive reps at a look. A row i with decided[i] (its
 * verdict is PASS or FAIL over all its head arms, or it failed) stops;
 * every other row is undecided and goes on to the next planned look above
 * target[i], unless budget_spent or it is at the last look. target[] is
 * updated in place; *undecided gets the undecided rows. Returns 1 when any
 * row's target rose, else 0.
 */
int pab_looks_step(const size_t *looks, size_t n_looks, const int *decided, size_t n_rows,
		   int budget_spent, size_t *target, size_t *undecided);

#endif /* PAB_RUN_LOOKS_H */
