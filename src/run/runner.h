/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner.h — carrying out a plan (run/plan.h): the rotate-reverse/1
 * rotation of every row's reps on the pinned CPUs, one arm at a time
 * (run/measure.h); a checkpoint after every rep (a journal record beside
 * the artifact, folded into it now and then: store/journal.h); the
 * sanity gate after the first rep of every row (judge/sanity_gate.h);
 * adaptive reps — at each planned look a row whose verdict is PASS or
 * FAIL stops, the others go on to the next look (run/looks.h) — within
 * the run's budget; and why the run ended.
 *
 * The runner reports its progress on stderr (run/progress.h) and says
 * what it notices (a failed child, a refused report, the budget spent)
 * as notes and warnings; an error that ends the run it returns, with a
 * struct pab_failure, for the command to report.
 */
#ifndef PAB_RUN_RUNNER_H
#define PAB_RUN_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "store/journal.h"
#include "run/counting.h"
#include "run/failure.h"
#include "run/hooks.h"
#include "run/looks.h"
#include "run/measure.h"
#include "run/plan.h"
#include "run/progress.h"

/* Reps (all rows) before the first fold of the journal into the artifact. */
#define PAB_FOLD_FIRST_REPS 8

struct pab_runner {
	struct pab_plan *plan;       /* borrowed: what runs, and e, its experiment */
	struct pab_experiment *e;    /* &plan->e */
	struct pab_measure m;        /* the children's shared state */
	struct pab_progress pg;
	size_t looks[PAB_MAX_LOOKS]; /* planned looks (adaptive reps) */
	size_t n_looks;
	size_t *row_target;          /* reps each row should reach */
	int *row_undecidable;        /* rows stopped as undecidable */
	int64_t start_ns, budget_ns; /* the run's start, its budget (0 = none) */
	int budget_spent;
	size_t undecided;            /* rows undecided at the last look */
	int interrupted;             /* the stop signal that ended the run, or 0 */
	/* Checkpoints: */
	size_t checkpoints;          /* artifacts written so far */
	struct pab_journal *journal; /* the checkpoint journal beside the artifact */
	char *journal_path;
	size_t total_reps;           /* reps of all rows measured so far */
	size_t folded_reps;          /* of those, in the artifact at the last fold */
	int guard_started;
	struct pab_hooks hooks;      /* setup, warmup, prepare, cleanup */
	int rep_dropped;             /* a prepare failed: the rep in progress went */
	int output_fd;               /* --output FILE, open; -1: none */
	char *count_tool;            /* valgrind for the counting pass (owned) */
	struct pab_counting counting; /* the counting pass's policy and state */
};

/* How pab_runner_run() ended. */
enum pab_run_end {
	PAB_RUN_ERROR = -1,       /* see the failure */
	PAB_RUN_ENDED = 0,        /* every row reached its target: the run is done */
	PAB_RUN_GATED,            /* the sanity gate stopped it after rep 1 */
	PAB_RUN_INTERRUPTED,      /* a stop signal (r->interrupted) ended it */
};

/*
 * pab_runner_start: everything the children need, for plan: the CPU
 * binding, the stop signals blocked (probe/runchild.h), the guard, the RSS
 * sampler, the scratch directory, each row's first target (a resumed row
 * goes on to the look it was heading for). Warns when the guard cannot
 * start or perfab cannot be bound. Returns 0, or -1 with f filled (a bad
 * --cpus: PAB_FAIL_USAGE; else PAB_FAIL_SYSTEM); pab_runner_release()
 * releases either way.
 */
int pab_runner_start(struct pab_runner *r, struct pab_plan *plan, struct pab_failure *f);

/*
 * pab_runner_run: the first checkpoint, then the reps until every row is
 * decided, at the last look or out of budget (or the sanity gate, or a
 * stop signal, stops it), each rep checkpointed as it completes. Records
 * why it ended (e->settings.stop_reason) unless interrupted. Returns how
 * it ended; PAB_RUN_ERROR with f filled when a checkpoint cannot be
 * written (PAB_FAIL_SYSTEM: the previous checkpoint is intact) or an arm
 * cannot be run.
 */
enum pab_run_end pab_runner_run(struct pab_runner *r, struct pab_failure *f);

/*
 * pab_runner_finish: after pab_runner_run() returned end (not
 * PAB_RUN_INTERRUPTED): record the binding obtained, the sampler's cost and
 * perfab's own peak; when the run ended, warn of an executable that changed
 * during it and mark the artifact complete; write the last checkpoint and
 * remove the journal (the artifact alone is the result). Returns 0, or -1
 * with f filled when the last checkpoint cannot be written.
 */
int pab_runner_finish(struct pab_runner *r, enum pab_run_end end, struct pab_failure *f);

/* Stop the sampler, kill and remove every cgroup and orphan, the scratch
 * directory, tell the guard; leaves the artifact and any journal as they
 * are. Safe after a failed pab_runner_start() and twice. */
void pab_runner_release(struct pab_runner *r);

#endif /* PAB_RUN_RUNNER_H */
