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
#include "drift.h"
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

/*
 * What drift computes for one series. It owns copies of what its reports
 * name (the series' names, and the points at its indices with their
 * merges), so it outlives the series it was computed from: release it
 * with pab_drift_release.
 */
struct pab_drift {
	const struct pab_history_series *s; /* the series when held whole
					      * (pab_drift_of: the HTML plots
					      * it), else NULL; borrowed */
	char *row, *arm, *metric;
	size_t points;               /* merges the series has a point in */
	struct pab_history_point first, last; /* its first and last points */
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
	/* The points at top[], cp_step[] and jump[]. */
	struct pab_history_point top_pt[3], cp_pt[PAB_DRIFT_MAX], jump_pt[PAB_DRIFT_MAX];
};

/*
 * The drift of a series read point by point (a history streamed from its
 * database): pab_drift_start with the series' names (copied), pab_drift_add
 * for each point in record order (p and its merge are copied where kept;
 * nothing is borrowed past the call), then pab_drift_finish, which fills
 * *d and frees acc. Memory is bounded whatever the number of points: the
 * change points are searched (seeded, so the same history gives the same
 * answer) in the last 500 chainable merges only, the search being
 * quadratic.
 */
struct pab_drift_acc;
struct pab_drift_acc *pab_drift_start(const char *row, const char *arm, const char *metric);
void pab_drift_add(struct pab_drift_acc *acc, const struct pab_history_point *p);
void pab_drift_finish(struct pab_drift_acc *acc, struct pab_drift *d);

/* The drift of series s, held whole, into *d (d->s = s). */
void pab_drift_of(const struct pab_history_series *s, struct pab_drift *d);

/* Free what d owns and zero it. */
void pab_drift_release(struct pab_drift *d);

#endif /* PAB_JUDGE_HISTORY_H */
