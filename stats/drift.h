/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * drift.h — chaining the paired changes of successive merges into one
 * change over a history, with its interval (stats/drift.c; included by
 * pab_stats.h, whose error codes it returns).
 */
#ifndef PAB_STATS_DRIFT_H
#define PAB_STATS_DRIFT_H

#include <stddef.h>

/*
 * One merge's judged change as the chain reads it: the median paired
 * change and its interval in percent (positive = worse) and the
 * interval's achieved coverage (pab_interval.coverage).
 */
struct pab_step {
	double change_pct, lo_pct, hi_pct;
	double coverage;
};

struct pab_chain {
	size_t n;            /* steps chained */
	size_t skipped;      /* steps left out: NaN or infinite figures, a
			      * change of -100% or less, a coverage outside
			      * (0, 1) */
	double log_sum;      /* sum of ln(1 + change/100) */
	double se_log;       /* its standard error (see pab_chain_steps) */
	double change_pct;   /* exp(log_sum) - 1, in percent */
	double lo_pct, hi_pct; /* the conf interval of the chained change */
};

/*
 * pab_chain_steps: chain steps[0..n) at confidence conf (e.g. 0.95). Each
 * step becomes a log-ratio l_i = ln(1 + change_i/100); the chained change
 * is exp(sum l_i) - 1. Each interval gives a standard error on the log
 * scale, se_i = (ln(1 + hi_i/100) - ln(1 + lo_i/100)) / (2 z_i) with
 * z_i = Phi^-1((1 + coverage_i) / 2) (a sign-test interval's achieved
 * coverage, never below its nominal one); the sum's standard error is
 * sqrt(sum se_i^2) (the merges are measured independently), and the
 * interval is exp(sum l_i -+ z se) - 1 with z = Phi^-1((1 + conf) / 2).
 * The approximation and its simulated coverage: doc/method.md, "Drift".
 * Steps that cannot be chained are counted in skipped. Returns 0 (with
 * out->n = 0 and NaN figures when no step could be chained),
 * PAB_EINVAL (NULL out, NULL steps with n > 0, conf not in (0, 1)).
 */
int pab_chain_steps(const struct pab_step *steps, size_t n, double conf,
		    struct pab_chain *out);

/*
 * The same chain one step at a time, for a history read as it streams:
 * a zeroed pab_chain_acc, pab_chain_add for each step in order, then
 * pab_chain_end (the figures of pab_chain_steps over the same steps, bit
 * for bit). pab_chain_add returns the step's log-ratio, NaN when the step
 * cannot be chained (it is counted in skipped).
 */
struct pab_chain_acc {
	size_t n, skipped;
	double log_sum, var;
};
double pab_chain_add(struct pab_chain_acc *acc, const struct pab_step *step);
/* Returns 0, PAB_EINVAL (NULL acc or out, conf not in (0, 1)). */
int pab_chain_end(const struct pab_chain_acc *acc, double conf, struct pab_chain *out);

#endif /* PAB_STATS_DRIFT_H */
