/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribute.h — the attribution phase (doc/attribution.md): after the
 * timed reps, for each row × head arm whose instructions, peak_rss,
 * cpu or wall cell FAILs (--attribute auto; every one with always; none with never),
 * a profile of base and of head and what moved between them, appended to
 * the experiment (model/attribution.h) before its last checkpoint.
 *
 *   instructions  by function and by source line, from the cachegrind
 *                 files the counting pass wrote (kept as it counts: no
 *                 run of its own), else from one extra counting run of
 *                 each arm;
 *   peak_rss      bytes live at the heap's peak by allocation site, from
 *                 one extra run of each arm under DHAT;
 *   cpu, wall     CPU time by function, from one extra run of each arm
 *                 under perf's cpu-clock sampling with call graphs, each
 *                 arm's samples scaled to its median measured cpu time.
 *
 * Attribution explains; it never judges: no verdict reads it, and a
 * profiler that is missing or fails gives the attribution a note, never a
 * failed run. It runs the children as the counting pass does (the arm's
 * command, environment, input and limits; not its prepare commands).
 */
#ifndef PAB_RUN_ATTRIBUTE_H
#define PAB_RUN_ATTRIBUTE_H

#include "model/attribution.h"
#include "run/runner.h"

struct pab_attribute {
	struct pab_runner *r;     /* borrowed: the run */
	enum pab_attr_mode mode;
	char *keep_cg;            /* where the counting pass's files are kept */
	char *keep_dhat;          /* where the DHAT runs' files go */
	char *keep_perf;          /* where the perf runs' files go */
	char *perf, *perf_why;    /* perf for time, or why there is none */
	int perf_looked_up;
	char *valgrind;           /* the valgrind of the extra runs, or NULL */
	char *valgrind_why;       /* why there is none (owned) */
	int looked_up;            /* valgrind was looked up */
	double cost_s;            /* the wall time of every extra run */
	size_t made;              /* attributions made */
	int stopped;              /* a stop signal ended an extra run */
	int run_signal;           /* the signal that ended the last extra run (0: none) */
};

/*
 * pab_attribute_start: before pab_runner_run(): with mode other than
 * never and a counting pass, make the directory the counted children's
 * files are kept in and tell r's measure to keep them.
 */
void pab_attribute_start(struct pab_attribute *at, struct pab_runner *r,
			 enum pab_attr_mode mode);

/*
 * pab_attribute_run: after the run ended (pab_runner_run), before
 * pab_runner_finish(): judge the experiment, profile what the mode asks
 * for, append an attribution per row × head arm × metric (replacing one
 * an earlier invocation made), and record the phase in the artifact's
 * run.attribution ({"mode", "cost_s", "made"}). Says each profile it
 * makes on stderr unless quiet. A stop signal during an extra run ends
 * the phase (at->stopped); the run's results stand.
 */
void pab_attribute_run(struct pab_attribute *at);

/* Free what start made; the kept files go with the scratch directory. */
void pab_attribute_release(struct pab_attribute *at);

#endif /* PAB_RUN_ATTRIBUTE_H */
