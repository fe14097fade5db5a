/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pool_check.h — whether two artifacts measured one experiment (pool.h
 * merges them only then). Each check compares inputs a and b, labelled la
 * and lb in the reason, and returns 0, or -1 with the first difference
 * found in *why (new memory, caller frees; terminal-safe). Nothing is
 * printed here.
 */
#ifndef PAB_POOL_CHECK_H
#define PAB_POOL_CHECK_H

#include <stddef.h>

#include "model/experiment.h"

/* Everything but rows: the host's CPU model, the protocol, the rules, the
 * arms (name, revision, executable, command, environment) and the settings
 * that change what was measured. */
int pab_pool_same_experiment(const struct pab_experiment *a, const char *la,
			     const struct pab_experiment *b, const char *lb, char **why);

/* A row both inputs hold (x of ea, y of eb, with n_arms arms) must be the
 * same job in both: its program, arguments, parameters and executables. */
int pab_pool_same_row(const struct pab_experiment *ea, const struct pab_row *x,
		      const char *la, const struct pab_experiment *eb,
		      const struct pab_row *y, const char *lb, size_t n_arms,
		      char **why);

/*
 * Disjoint inputs share no row, but rows of the same program (or plain
 * commands) must still have measured the same metrics: a runner without a
 * PMU or a cgroup is a different measurement, not another shard. Checks
 * every row of a against b's (call it both ways).
 */
int pab_pool_same_probes(const struct pab_experiment *a, const char *la,
			 const struct pab_experiment *b, const char *lb, char **why);

#endif /* PAB_POOL_CHECK_H */
