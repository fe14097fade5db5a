/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * memgate.h — the rules of the memory gate (doc/memgate.md): not a paired
 * A/B comparison but an absolute check of one arm's peak RSS against a
 * committed baseline, for the slow creep that paired runs never see
 * because base and head creep together.
 *
 * Per scenario (row), each run contributes the median over its reps of
 * the arm's peak_rss (the metric table's aggregate); the gate takes the
 * minimum over runs (noise only ever adds memory, so the minimum of N
 * runs is the steadiest estimate; PAB_MEMGATE_RUNS_EXPECTED runs
 * expected) and a scenario regresses when that minimum exceeds
 * baseline × (1 + tolerance%). A run that measured only some of the
 * baseline's scenarios (a filtered run) cannot be gated: the baseline's
 * figures describe the full battery.
 *
 * Pure: nothing here reads a file, prints or exits; `perfab memgate`
 * (cmd_memgate.c) loads the runs and the baseline (store/baseline.h),
 * says what is wrong and maps it to an exit code.
 *
 * The baseline (model/memgate_baseline.h) is read and written as its
 * file, "perfab-memgate/1", by store/baseline.h.
 */
#ifndef PAB_MEMGATE_H
#define PAB_MEMGATE_H

#include <stddef.h>

#include "model/experiment.h"
#include "model/memgate_baseline.h"

#define PAB_MEMGATE_RUNS_EXPECTED 8

/*
 * Every run's peak per scenario, scenarios in first-seen order. The table
 * owns its names and arrays; a zeroed table is empty and valid.
 */
struct pab_memgate_table {
	char **scenario;     /* n names */
	size_t n, alloc;
	size_t n_runs;
	double *peak;        /* n × n_runs, row-major by scenario; NaN = no value */
	unsigned char *ran;  /* same shape: 1 when the run has that row */
};

/* An empty table for n_runs runs. */
void pab_memgate_table_init(struct pab_memgate_table *t, size_t n_runs);
/* Free what t owns and zero it. */
void pab_memgate_table_release(struct pab_memgate_table *t);

/*
 * Record run `run` (< t->n_runs): for each row of e, the median peak_rss
 * of arm `arm` over its reps (NaN when never measured), adding scenarios
 * t has not seen. e is only read.
 */
void pab_memgate_table_add_run(struct pab_memgate_table *t, size_t run,
			       const struct pab_experiment *e, size_t arm);

/* Index of scenario name in t, or -1. */
int pab_memgate_scenario_index(const struct pab_memgate_table *t, const char *name);

/* Run r's peak of scenario s (NaN = none), and whether run r has it. */
double pab_memgate_peak(const struct pab_memgate_table *t, size_t s, size_t r);
int pab_memgate_ran(const struct pab_memgate_table *t, size_t s, size_t r);

/* Minimum over runs of scenario s, NaN when no run measured it. */
double pab_memgate_scenario_min(const struct pab_memgate_table *t, size_t s);

/* How far apart the runs of scenario s are, (max - min) / min in percent;
 * NaN when no run measured it or the minimum is not positive. */
double pab_memgate_spread_pct(const struct pab_memgate_table *t, size_t s);

/*
 * pab_memgate_table_complete: 1 when every run has a peak for every
 * scenario; else 0 with the first gap in *scenario and *run (scenario
 * by scenario, runs in order).
 */
int pab_memgate_table_complete(const struct pab_memgate_table *t,
			       size_t *scenario, size_t *run);

/*
 * pab_memgate_baseline_of: the baseline `perfab memgate record` writes
 * for t (store/baseline.h) into *b (initialised by the call): every
 * scenario's minimum, rounded to bytes, gating arm `arm`, recorded on
 * cpu_model (NULL: not recorded), from t's runs.
 */
void pab_memgate_baseline_of(const struct pab_memgate_table *t, const char *arm,
			     const char *cpu_model, struct pab_memgate_baseline *b);

/* Why a run cannot be gated against a baseline. */
enum pab_memgate_gap {
	PAB_MEMGATE_COVERED,   /* every run has every baseline scenario */
	PAB_MEMGATE_NO_PEAK,   /* a run ran a scenario but has no peak */
	PAB_MEMGATE_FILTERED,  /* a run did not run some scenarios */
};

/*
 * pab_memgate_coverage: the first run (in order) that cannot be gated
 * against b, and why. For PAB_MEMGATE_NO_PEAK, *run and *scenario (an
 * index into b) name the first scenario without a peak; for
 * PAB_MEMGATE_FILTERED, *run, *n_missing and *missing, the missing
 * scenarios "'a', 'b'" (terminal-safe; new memory, caller frees). A
 * scenario without a peak is reported before the run's missing ones.
 * *missing is NULL unless FILTERED.
 */
enum pab_memgate_gap pab_memgate_coverage(const struct pab_memgate_table *t,
					  const struct pab_memgate_baseline *b,
					  size_t *run, size_t *scenario,
					  size_t *n_missing, char **missing);

/* One baseline scenario judged. */
struct pab_memgate_result {
	size_t scenario;     /* its index in the table */
	double min;          /* minimum over runs, bytes */
	double limit;        /* baseline × (1 + tolerance%), bytes */
	double change_pct;   /* (min - baseline) / baseline × 100 */
	int over;            /* min > limit: a regression */
};

/*
 * pab_memgate_judge: judge every scenario of b (which t must cover,
 * pab_memgate_coverage) into out[0..b->n). Returns the number of
 * regressions; *first is the index into b of the first one, (size_t)-1
 * when none.
 */
size_t pab_memgate_judge(const struct pab_memgate_table *t,
			 const struct pab_memgate_baseline *b, double tolerance_pct,
			 struct pab_memgate_result *out, size_t *first);

#endif /* PAB_MEMGATE_H */
