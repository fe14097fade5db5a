/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * judgeable.h — whether an experiment in memory can be judged: a finished,
 * balanced run that the sanity gate did not stop. Pure: no I/O, no
 * printing.
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

#endif /* PAB_JUDGEABLE_H */
