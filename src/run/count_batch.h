/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * count_batch.h — a rep's counting children side by side (doc/method.md
 * §13, "Exact counts"): each distinct program the counting pass must
 * count (run/counting.h decides which) runs under valgrind at the same
 * time as the others, each bound to a PU of its own
 * (pab_pin_count_pus: spare PUs first, the timed children's PU last; no
 * timed child runs meanwhile), so a rep's pass lasts about as long as
 * its slowest count instead of their sum.
 *
 * Each child is a counting run of measure.h (PAB_MEASURE_COUNT) as one
 * alone would be — the same limit, the same result slot — with its own
 * copy of the run's struct pab_measure: its own scratch subdirectory (its
 * valgrind output and workload report apart from the others'), one
 * thread waiting on it. A stop signal any wait takes stops them all
 * (runchild.h's stop_shared). What the children left behind is killed
 * once all are reaped.
 */
#ifndef PAB_RUN_COUNT_BATCH_H
#define PAB_RUN_COUNT_BATCH_H

/* At most this many counting children side by side. */
#define PAB_MAX_SIDE_BY_SIDE 64

#include <stddef.h>
#include <stdint.h>

#include "model/experiment.h"
#include "run/counting.h"
#include "run/failure.h"
#include "run/measure.h"
#include "run/progress.h"

/* One counting child of the batch. */
struct pab_count_job {
	size_t arm;                 /* the arm whose child is counted */
	int64_t timeout_ns;         /* its limit (0 = none), and 1 when */
	int limit_budget;           /* the run's budget set it */
	unsigned pu;                /* the PU it runs on */
	struct pab_arm_result *res; /* borrowed: its slot in the rep */
	/* Out: */
	struct pab_measured out;    /* as pab_measure_arm() tells it */
	int ret;                    /* pab_measure_arm()'s return, */
	struct pab_failure f;       /* and its failure when -1 (release it) */
};

/*
 * pab_count_batch_run: the n jobs of row's rep (workload seed seed), each
 * on its PU, at the same time (n = 1: in the calling thread). m is the
 * run's (its tmpdir gets the subdirectories count-0, count-1, ...; it is
 * not changed otherwise). Returns 0 when every job ran (each job's ret,
 * out and res tell how), or -1 when a job could not start (its f says
 * why; the other jobs still ran and were reaped).
 */
int pab_count_batch_run(struct pab_measure *m, const struct pab_experiment *e,
			const struct pab_row *row, uint64_t seed, struct pab_count_job *jobs,
			size_t n);

/* 1 when a prepare command (use's --prepare, an arm's own) runs before
 * the arms' children: then they are counted one at a time, each after
 * its prepare, which would otherwise run while another arm's child
 * counts. */
int pab_count_any_prepare(const struct pab_experiment *e, const struct pab_run_settings *use);

/* What the counting pass of a rep works with: the runner's, borrowed. */
struct pab_count_pass {
	struct pab_experiment *e;
	struct pab_measure *m;
	struct pab_counting *c;
	struct pab_progress *pg;
	int64_t budget_ns, start_ns; /* the run's budget (0 = none) and start */
	const unsigned *pus;         /* pab_pin_count_pus()'s, in its order */
	size_t n_pus;                /* at least 1 */
	int interrupted;             /* out: the stop signal that came, or 0 */
	size_t counted;              /* out: children counted */
};

/*
 * pab_count_pass_side_by_side: the counting pass of row ri's rep rep_idx
 * (ids: each arm's program identity, pab_measure_identity) with its
 * children side by side, as run/counting.h says: in the rep's rotated
 * order each arm takes a count shared, reused or cached where the policy
 * gives one; the others are counted, at most n_pus at a time, one on each
 * PU (an arm whose program is being counted takes that count after). A
 * count the budget cannot cover, or one of no use, stops the row's
 * counts. The caller runs no prepare command (they would run while a
 * child counts). Records each child's PU with pab_pin_note_counted(),
 * and lets go of the spare PUs' locks at the end
 * (pab_pin_count_release).
 * Returns 0 (p->interrupted when a stop signal came), or -1 with f filled.
 */
int pab_count_pass_side_by_side(struct pab_count_pass *p, size_t ri, size_t rep_idx,
				uint64_t seed, char *const *ids, struct pab_failure *f);

#endif /* PAB_RUN_COUNT_BATCH_H */
