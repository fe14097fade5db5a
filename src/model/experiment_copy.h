/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * experiment_copy.h — deep copies of an experiment (experiment.h) and of
 * its parts, for pooling (pool.h) and for the views a bisection takes of
 * one experiment. A copy shares no memory with its source and is released
 * as the source is: pab_experiment_release, pab_row_release.
 */
#ifndef PAB_EXPERIMENT_COPY_H
#define PAB_EXPERIMENT_COPY_H

#include "model/experiment.h"

/*
 * pab_experiment_copy: a deep copy of src into *dst (initialised by the
 * call; release it with pab_experiment_release): everything
 * pab_experiment_copy_without_rows copies, then every row with its reps,
 * block numbers kept.
 */
void pab_experiment_copy(struct pab_experiment *dst, const struct pab_experiment *src);

/*
 * pab_experiment_copy_without_rows: everything of src but its rows into
 * *dst (initialised by the call; no rows): schema, version, protocol,
 * rules, complete, seed, host, the run's settings, judged set, pool record
 * and untyped JSON, reps, tolerances, margin, stopped_by, the sanity cells
 * and the arms. The journal binding (journal_id, journal_folded) is not
 * copied: a copy is bound to no journal.
 */
void pab_experiment_copy_without_rows(struct pab_experiment *dst,
				      const struct pab_experiment *src);

/*
 * pab_row_copy_def: the definition of src into *dst (overwritten, not
 * released first): name, workload, program, argv, params, control, its
 * failure and its host; no reps.
 */
void pab_row_copy_def(struct pab_row *dst, const struct pab_row *src);

/*
 * pab_row_add_rep_copy: append to row a copy of rep (of an experiment with
 * n_arms arms: its order and each arm's result, strings duplicated),
 * numbered block.
 */
void pab_row_add_rep_copy(struct pab_row *row, const struct pab_rep *rep,
			  size_t n_arms, size_t block);

/*
 * pab_attributions_pool: out's attributions become every input's, in
 * order, each named by its input (labels[i], else "artifact I"; one that
 * already names its input keeps it), so that a pool keeps what each run
 * found (doc/attribution.md §5).
 */
void pab_attributions_pool(struct pab_experiment *out, const struct pab_experiment *const *in,
			   const char *const *labels, size_t n);

#endif /* PAB_EXPERIMENT_COPY_H */
