/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * judgeable.h — what of an experiment in memory can be judged: whether its
 * reps can be (a finished, balanced run) and the required cells a run of
 * exact counts is judged on by default. Pure: no I/O, no printing.
 */
#ifndef PAB_JUDGEABLE_H
#define PAB_JUDGEABLE_H

#include "model/experiment.h"

/* Why a loaded artifact cannot be judged (nor pooled, nor gated). */
enum pab_unjudgeable {
	PAB_JUDGEABLE = 0,
	PAB_UNJUDGEABLE_SANITY,     /* stopped by the sanity gate */
	PAB_UNJUDGEABLE_INCOMPLETE, /* "complete": false */
	PAB_UNJUDGEABLE_UNBALANCED, /* reps that are not whole blocks */
};

/*
 * pab_artifact_judgeable: whether e, loaded from label (a path), holds a
 * finished run whose reps can be judged: not stopped by the sanity gate,
 * complete, balanced (pab_experiment_check_balanced). Returns
 * PAB_JUDGEABLE (0), or what stands in the way with one sentence (caller
 * frees) in *why, the same for every command, which adds what to do:
 *   "'L' was stopped by the sanity gate: its head's memory blew up at rep 1"
 *   "'L' is incomplete (\"complete\": false): the run was interrupted
 *    before its last rep"
 *   "'L' is unbalanced: REASON; only complete blocks of the rotation count"
 */
enum pab_unjudgeable pab_artifact_judgeable(const struct pab_experiment *e,
					    const char *label, char **why);

/*
 * pab_counts_default_require: the required cells of a run that made exact
 * counts (s records a count source, pmu or sim): required[] gets
 * instructions alone, and cpu and the other time cells guard (0 in
 * required[]); returns 1. A run without counts leaves required[]
 * untouched and returns 0. The ledger's default required set starts from
 * this (doc/method.md, "Exact counts").
 */
int pab_counts_default_require(const struct pab_run_settings *s, int required[PAB_M_COUNT]);

#endif /* PAB_JUDGEABLE_H */
