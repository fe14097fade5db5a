/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.h — what the judge gives the merge history: a ledger's cells as
 * history records, and the drift of a series of merges (the per-merge
 * paired changes chained along it, the merges that moved it most, change
 * points of the per-merge changes, the steps of the level). The method is
 * doc/method.md §11 and §12; the figures are the ledger's,
 * nothing here computes a statistic of reps.
 */
#ifndef PAB_JUDGE_HISTORY_H
#define PAB_JUDGE_HISTORY_H

#include <stddef.h>

#include "judge/ledger.h"
#include "model/history.h"
#include "pab_stats.h"

/* The confidence of every chained interval. */
#define PAB_DRIFT_CONF 0.95
/* At most this many change points and steps of the level per series. */
#define PAB_DRIFT_MAX 16

/* The history cells of ledger l of e into new memory (*n of them); the
 * strings are borrowed from e and the static tables. */
struct pab_history_cell *pab_history_cells_of(const struct pab_experiment *e,
					      const struct pab_ledger *l, size_t *n);

/* A point as a step of the chain: its change and interval at its
 * coverage (as recorded, else, a migrated schema-1 cell, PAB_DRIFT_CONF). */
struct pab_step pab_history_point_step(const struct pab_history_point *p);

/* What drift computes for one series (s is borrowed). */
struct pab_drift {
	const struct pab_history_series *s;
	struct pab_chain chain;      /* every point chained at PAB_DRIFT_CONF */
	size_t inconclusive, fail, pass;
	double tolerance;            /* the last merge's (NaN: none) */
	int beyond;                  /* the whole interval beyond +tolerance */
	int better;                  /* ... or beyond -tolerance */
	size_t top[3], n_top;        /* points contributing most, by size */
	size_t cp_step[PAB_DRIFT_MAX], n_cp_step; /* change points (point indices) */
	double p_step[PAB_DRIFT_MAX];
	/* Steps of the level: the last PAB_DRIFT_MAX merges whose own interval
	 * lies wholly beyond their tolerance (point indices, ascending). */
	size_t jump[PAB_DRIFT_MAX], n_jump;
};

/* The drift of series s into *d. Change points are searched (seeded, so
 * the same history gives the same answer) in the last 500 chainable
 * merges only: the search is quadratic. */
void pab_drift_of(const struct pab_history_series *s, struct pab_drift *d);

#endif /* PAB_JUDGE_HISTORY_H */
