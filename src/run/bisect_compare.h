/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_compare.h — one comparison of `perfab bisect` (doc/bisect.md,
 * "Comparisons"): revisions measured as `perfab run` measures arms, with
 * its plan, runner and ledger, and judged by the same rules, metrics and
 * tolerances.
 *
 * The first comparison has two arms, base (GOOD's build) and bad, and the
 * null arm: bad vs good. Each later one measures good, mid and bad in one
 * rotation, with a null arm for each of good and mid, and judges it from
 * both ends: mid vs good with good as base (guarded by good's null arm),
 * and bad vs mid with mid as base (guarded by mid's), each exactly as a
 * two-arm `perfab run` of those revisions would be judged. A revision's
 * arm runs the benchmark in its build's directory: env -C DIR -- BENCH.
 * The sanity gate is off (a memory step is a change to find, not a run to
 * stop).
 *
 * A comparison that stays undecided (bad vs good neither PASS nor FAIL;
 * for a midpoint, pab_bisect_classify() says undecided) is run again, up
 * to `retries` times, each run with the next seed, and judged on all its
 * runs pooled (model/pool.h): more reps, never a second opinion that
 * could replace the first. A run interrupted earlier is resumed from its
 * artifact and journal (`perfab run --resume`); one complete already is
 * read back, not run again.
 */
#ifndef PAB_RUN_BISECT_COMPARE_H
#define PAB_RUN_BISECT_COMPARE_H

#include <stddef.h>

#include "run/failure.h"
#include "run/plan_data.h"
#include "store/bisect_journal.h"

struct pab_bisect_cmp_opts {
	const struct pab_run_opts *run; /* the run options given (no arms,
					 * no --out, no --resume) */
	char *const *bench;             /* the benchmark's words */
	size_t bench_n;
	size_t retries;                 /* runs added to an undecided one */
	const char *runs_dir;           /* where the artifacts go */
	int followed;                   /* the metric whose change is shown
					 * (enum pab_metric_id); -1: each side's
					 * deciding cell's */
	struct pab_strlist said;        /* plan notes told already (the
					 * strings owned); release with
					 * pab_bisect_cmp_opts_release() */
};

void pab_bisect_cmp_opts_release(struct pab_bisect_cmp_opts *o);

/*
 * pab_bisect_arm_command: the command of the arm that runs the benchmark
 * in dir: env -C DIR -- BENCH..., as one command line that
 * pab_argv_split() reads back into those words (new string).
 */
char *pab_bisect_arm_command(const char *dir, char *const *bench, size_t n);

/*
 * pab_bisect_compare: compare commits[0] (good), commits[1] (mid; NULL
 * for the first comparison, bad vs good) and commits[2] (bad), whose
 * builds are in dirs[], as the comparison key (its artifacts are
 * RUNS_DIR/KEY16-N.json). *out (initialised by the call; release with
 * pab_bisect_comparison_release) gets the verdicts and changes, or, when
 * a revision's benchmark failed, that commit in out->failed and why.
 * Returns 0; 1 when a stop signal ended a run (*interrupted: the signal;
 * its artifact and journal stay for the resume); -1 with f filled when a
 * run cannot be made or carried out (run/failure.h).
 */
int pab_bisect_compare(struct pab_bisect_cmp_opts *o, const char *key,
		       const char *const commits[3], const char *const dirs[3],
		       struct pab_bisect_comparison *out, int *interrupted,
		       struct pab_failure *f);

#endif /* PAB_RUN_BISECT_COMPARE_H */
