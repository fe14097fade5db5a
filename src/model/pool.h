/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pool.h — merge artifacts of one experiment into one (`perfab pool`, and
 * `perfab ledger`/`gate` given several files).
 *
 * Two artifacts are the same experiment when they both record a CPU
 * model, ran the same arms (names in the same order, revisions, SHA-256
 * of each executable, arguments after argv[0], environment additions),
 * under the same protocol, scale and judging settings, and measured the
 * same metric set. Rows decide how they merge:
 *
 *  - artifacts holding exactly the same rows (same parameters, argv,
 *    program, control flag) merge as additional blocks: each row's reps
 *    are concatenated in input order and their block numbers continued,
 *    so complete, balanced inputs give a complete, balanced result; the
 *    blocks of one row must come from one CPU model;
 *  - artifacts holding no row in common (shards: `perfab run --shard I/N`)
 *    merge as a union of rows, in the original row order when every shard
 *    recorded its I/N; they may come from different CPU models (each
 *    row's arms, null arm included, ran on one machine): a row from a
 *    machine type other than the first input's records it in its "host";
 *  - both at once: inputs group by row set, each group merges as blocks,
 *    and the groups must be disjoint. Any partial overlap is refused.
 *
 * Every input must be complete, balanced and not stopped by the sanity
 * gate: such data can be resumed, never pooled (doc/artifact-schema.md §9).
 * No two inputs may share a rep (the same wall time, to the nanosecond, in
 * every arm of a row's rep): that is one run given twice, or a pooled
 * artifact given with one of its sources, whose measurements would count
 * twice.
 *
 * The result records what was pooled in its "run" object under "pool":
 *   { "artifacts": N, "seeds": [each input's seed, in input order],
 *     "mode": "blocks" | "shards" | "blocks+shards",
 *     "sources": [ { "name": label, "seed": S, "shard": "I/N" | null,
 *                    "rows": R, "reps": total reps } ... ] }
 * and "shard" is reset to null. An input that was itself pooled
 * contributes its recorded seeds, so pooling is associative in what it
 * records. Pure: no I/O, no printing, no exit.
 */
#ifndef PAB_POOL_H
#define PAB_POOL_H

#include <stddef.h>

#include "model/experiment.h"

/* A run an artifact holds, as pool identifies it: its journal id
 * (borrowed from the experiment) and seed, as the artifact records it. */
struct pab_run_id {
	const char *journal;
	double seed;
};

/*
 * pab_pool_runs_of: the runs artifact e holds, in *ids (caller frees): a
 * pooled artifact's run.pool.runs when it names every one, else e's own
 * journal id and seed. Returns how many; 0 and NULL when e does not say
 * (a pool written before pools recorded their runs, or a run with no
 * journal id), so that only its measurements can tell.
 */
size_t pab_pool_runs_of(const struct pab_experiment *e, struct pab_run_id **ids);

/*
 * pab_pool: merge in[0..n) (n >= 1) into *out, which the call initialises.
 * labels[i] names in[i] in reasons (a file name; NULL gives "artifact i").
 * Returns 0, or -1 with *why set to the reason for the refusal (caller
 * frees; it names the artifacts, the field and both values) and *out
 * released. The inputs are only read; *out shares no memory with them.
 */
int pab_pool(const struct pab_experiment *const *in, const char *const *labels,
	     size_t n, struct pab_experiment *out, char **why);

/*
 * pab_pool_judged: pab_pool for inputs each found judgeable already
 * (pab_artifact_judgeable, judgeable.h, by a caller that refuses them in
 * its own words): the same, without checking them on their own again.
 */
int pab_pool_judged(const struct pab_experiment *const *in, const char *const *labels,
		    size_t n, struct pab_experiment *out, char **why);

/*
 * pab_pool_check_input: 0 when e may be pooled (complete, balanced, not
 * stopped by the sanity gate), else -1 with a reason (caller frees) that
 * starts with label.
 */
int pab_pool_check_input(const struct pab_experiment *e, const char *label,
			 char **why);

#endif /* PAB_POOL_H */
