/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hooks.h — what a run executes beside its measured children, unmeasured:
 * --setup before a row's first rep and --cleanup after its last (once
 * per row and invocation; the cleanup also after the row failed, after an
 * error and after a stop signal), --warmup N runs of every arm of a row
 * before its first rep (in the rotation's orders, results dropped), and
 * --prepare then the arm's own "prepare" before every measured run (and
 * every warmup run). None of them is inside a child's measured window:
 * each is a process of its own, reaped before the measured child is
 * spawned (doc/perfab.1, WARMUP AND HOOKS).
 *
 * A setup, warmup run or prepare that fails marks its row failed with
 * what failed, its exit status and the last line of its stderr (a warning
 * shows its last lines); a cleanup that fails is a warning.
 */
#ifndef PAB_RUN_HOOKS_H
#define PAB_RUN_HOOKS_H

#include <stddef.h>

#include "model/experiment.h"
#include "run/failure.h"
#include "run/measure.h"
#include "run/progress.h"

struct pab_hooks {
	/* Borrowed: */
	struct pab_measure *m;
	struct pab_experiment *e;
	const struct pab_run_settings *use; /* warmup, prepare, setup, cleanup */
	struct pab_progress *pg;
	/* Owned, per row: */
	unsigned char *started;  /* setup (and warmup) ran in this invocation */
	unsigned char *cleaned;  /* its cleanup ran */
	int interrupted;         /* a stop signal ended a hook, or 0 */
	int warming;             /* in a row's warmup runs */
};

/* Ready h for e's rows; nothing runs yet. */
void pab_hooks_init(struct pab_hooks *h, struct pab_measure *m, struct pab_experiment *e,
		    const struct pab_run_settings *use, struct pab_progress *pg);
void pab_hooks_release(struct pab_hooks *h);

/*
 * pab_hooks_row_begin: before row ri's first rep in this invocation: its
 * setup, then its warmup runs; nothing when it began already. A failure of
 * either marks the row failed (the caller gives it no reps). Returns 0
 * (h->interrupted: a stop signal came), or -1 with f filled when a command
 * cannot be run at all.
 */
int pab_hooks_row_begin(struct pab_hooks *h, size_t ri, struct pab_failure *f);

/*
 * pab_hooks_prepare: before arm arm's measured run in row ri: --prepare,
 * then the arm's prepare. Returns 0 when they succeeded (or there are
 * none), 1 when one failed (the row is marked failed) or a stop signal
 * came (h->interrupted), -1 with f filled when one cannot be run.
 */
int pab_hooks_prepare(struct pab_hooks *h, size_t ri, size_t arm, struct pab_failure *f);

/* After row ri's last rep (or its failure): its cleanup, once, when its
 * setup ran in this invocation. */
void pab_hooks_row_end(struct pab_hooks *h, size_t ri);

/* Every row's cleanup still due (the run ended, failed or was stopped). */
void pab_hooks_end_all(struct pab_hooks *h);

#endif /* PAB_RUN_HOOKS_H */
