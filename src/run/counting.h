/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * counting.h — the policy of the counting pass (doc/method.md, "Exact
 * counts"): after a rep's timed children and latency replays, the runner
 * runs each arm's child again under valgrind (measure.h's
 * PAB_MEASURE_COUNT, started as the timed child was), in the rep's rotated
 * order; this module says which reps count, which arms share a count,
 * each counted child's limit, and what becomes of a row whose counts are
 * of no use. It runs nothing itself.
 *
 *   - A row counts in its first --count-reps reps, and in every later one
 *     once its counts moved (the sign test then needs the pairs).
 *   - An arm whose child is the same program as one already counted in
 *     the rep (pab_measure_identity) takes that count: no child runs.
 *   - A program whose counts in two earlier reps of the row agree takes
 *     that count in every later rep: no child runs. Counts that moved
 *     are counted in every counting rep.
 *   - With the count cache, a program the row has not counted yet whose
 *     key (its identity and the run's context: valgrind, the working
 *     directory, the input, the CPU) is in the cache takes the cached
 *     count, and a program whose counts agreed goes into the cache.
 *   - A counted child is bounded by --timeout x PAB_SIMCOUNT_SLOWDOWN and
 *     by what is left of the run's budget; a count the budget cannot
 *     cover (at the pace so far) is not started.
 *   - A count that is of no use — not exact (an exec after work,
 *     threads), timed out, failed, beyond the budget — makes every count
 *     of its row null with the reason, now and in its later reps, and the
 *     row is counted no further: the ledger judges it by time.
 */
#ifndef PAB_RUN_COUNTING_H
#define PAB_RUN_COUNTING_H

#include <stddef.h>
#include <stdint.h>

#include "model/experiment.h"
#include "store/count_cache.h"

struct pab_counting {
	struct pab_experiment *e; /* borrowed: the run's experiment */
	int active;               /* the run counts with valgrind */
	int quiet;                /* no notes */
	char **stopped;           /* per row: why its counts are of no use
				   * (owned), else NULL */
	double spent_s;           /* wall time of the counted children so far */
	size_t children;          /* counted children so far */
	/* The count cache (pab_counting_use_cache), when cache_on: */
	int cache_on;
	int cache_mkdir;          /* its directory may be made */
	int cache_save_failed;    /* said once */
	char *cache_ctx;          /* what every key of this run starts with */
	struct pab_count_cache cache;
};

/* Ready for e's rows; active: the run has a counting pass. */
void pab_counting_init(struct pab_counting *c, struct pab_experiment *e, int active, int quiet);
void pab_counting_release(struct pab_counting *c);

/* 1 when rep rep_idx of row ri counts (see above). */
int pab_counting_rep(const struct pab_counting *c, size_t ri, size_t rep_idx);

/* Before rep rep_idx's counting: a row whose counts were stopped gets
 * null counts with the reason in that rep too. */
void pab_counting_begin_rep(struct pab_counting *c, size_t ri, size_t rep_idx);

/*
 * pab_counting_share: before counting the k-th arm of rep's rotated
 * order (ids: every arm's identity, by arm index, NULL when unknown):
 * when an arm before it in the rep with the same identity has a count,
 * that count (and where it came from) becomes this arm's too and 1 is
 * returned (no child runs); else 0.
 */
int pab_counting_share(struct pab_rep *rep, char *const *ids, size_t k);

/*
 * pab_counting_reuse: before counting arm a of row ri's rep rep_idx (ids
 * as above): when at least 2 earlier reps of the row counted a's identity
 * (by a child of their own, not reused or cached) and those counts agree
 * to the resolution of an exact cell, the first of them becomes a's count
 * in this rep, marked PAB_COUNT_REUSED, and 1 is returned (no child
 * runs); else 0 — the identity is counted, so counts that moved are
 * counted in every rep and the sign test has its pairs.
 */
int pab_counting_reuse(struct pab_counting *c, size_t ri, size_t rep_idx, char *const *ids,
		       size_t a);

/*
 * pab_counting_use_cache: count with the count cache at path: load it (a
 * note says what of it was ignored) and take ctx (new memory, owned from
 * now), the text that makes a program's identity a key of this run.
 * mkdir_parent: its directory may be made when it is written.
 */
void pab_counting_use_cache(struct pab_counting *c, const char *path, int mkdir_parent,
			    char *ctx);

/*
 * pab_counting_cached: before counting arm a of row ri's rep rep_idx (ids
 * as above): when the run uses the count cache, no earlier rep of the row
 * counted a's program, and the cache holds its key, that count becomes
 * a's, marked PAB_COUNT_CACHED, and 1 is returned (no child runs); else 0.
 */
int pab_counting_cached(struct pab_counting *c, size_t ri, size_t rep_idx, char *const *ids,
			size_t a);

/* After arm a of row ri's rep rep_idx was counted: once its program's
 * counts agree in 2 reps, the count goes into the cache (written at once;
 * a failure to write is said once, in a note). */
void pab_counting_learn(struct pab_counting *c, size_t ri, size_t rep_idx, char *const *ids,
			size_t a);

/* Seconds one counted child of row ri's rep rep_idx, arm a, is expected
 * to take: the mean of the counted children so far, else valgrind's
 * start-up plus PAB_SIMCOUNT_TYPICAL_SLOWDOWN times its timed run. */
double pab_counting_cost_s(const struct pab_counting *c, size_t ri, size_t rep_idx, size_t a);

/*
 * pab_counting_limit: the limit of the counted child of row ri's rep
 * rep_idx, arm a, from timeout_ns (--timeout, 0 = none) and left_ns (what
 * is left of the budget; < 0: no budget): into *limit_ns (0 = none), and
 * *by_budget = 1 when the budget set it. Returns 0, or 1 when the budget
 * cannot cover the count: it is not started, and *why (new memory) says
 * so, for pab_counting_stop_row().
 */
int pab_counting_limit(const struct pab_counting *c, size_t ri, size_t rep_idx, size_t a,
		       int64_t timeout_ns, int64_t left_ns, double budget_s,
		       int64_t *limit_ns, int *by_budget, char **why);

/* A counted child took wall_s. */
void pab_counting_spent(struct pab_counting *c, double wall_s);

/* Row ri's counts are of no use (why, copied): every count it holds
 * becomes null with that reason, and a note says so. */
void pab_counting_stop_row(struct pab_counting *c, size_t ri, const char *why);

#endif /* PAB_RUN_COUNTING_H */
