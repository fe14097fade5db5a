/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * load.h — the inputs of `perfab pool`, `perfab ledger` and `perfab gate`:
 * artifacts loaded (artifact_read.h, journal included), checked once each for
 * what the command needs of them (judgeable.h), and pooled in memory
 * (pool.h) when several are given.
 *
 * Never prints, never exits: each function returns 0, or the exit status
 * to leave with (PAB_EXIT_*) and a message in *why (caller frees) that is
 * printed after "perfab: " as it is: "error: ...", "refused to pool: ..."
 * or "no verdict: ...", perhaps several lines, without the last newline.
 * On failure every experiment the call filled is released.
 */
#ifndef PAB_LOAD_H
#define PAB_LOAD_H

#include <stddef.h>

#include "model/experiment.h"

/*
 * pab_load_pool_input: load one input of a pool into *e (initialised by
 * the call). Fails with PAB_EXIT_REFUSED for an artifact of another (or
 * no) arm-order protocol — not poolable, whatever else it holds — or
 * whose reps break the protocol, and PAB_EXIT_USAGE for anything else
 * that cannot be loaded. The protocol is the one the load read: the file
 * is read and parsed once.
 */
int pab_load_pool_input(const char *path, struct pab_experiment *e, char **why);

/*
 * pab_load_pool: load paths[0..n) (pab_load_pool_input) and pool them
 * into *out (pab_pool, which checks each input can be pooled). Fails
 * with pab_load_pool_input's status, or PAB_EXIT_REFUSED when pooling is
 * refused.
 */
int pab_load_pool(const char *const *paths, size_t n, struct pab_experiment *out,
		  char **why);

/*
 * pab_load_judgeable: load paths[0..n) for a verdict into *e: one artifact
 * as it is (pab_artifact_load), several pooled in memory (each loaded by
 * pab_load_pool_input). Each is checked for judgeability once, on its
 * own, so a run stopped by the sanity gate given with others fails with
 * PAB_EXIT_SANITY and its cells in the message (given alone, it is
 * judged: its gated rows FAIL), an incomplete or unbalanced one with
 * PAB_EXIT_REFUSED and what to do; then the pool's refusals fail with
 * PAB_EXIT_REFUSED. A file that cannot be loaded: pab_artifact_load's
 * status (pab_artifact_load_exit_code) alone, pab_load_pool_input's
 * among several.
 */
int pab_load_judgeable(const char *const *paths, size_t n, struct pab_experiment *e,
		       char **why);

#endif /* PAB_LOAD_H */
