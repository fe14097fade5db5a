/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gate_model.h — a seeded gate of several rows judged by perfab's own
 * ledger (judge/ledger.h) at the runner's planned looks, as `perfab run`
 * decides it: every row is measured to its target, the ledger is built,
 * a row stops when its verdict is PASS or FAIL or it is undecidable
 * (ledger row `undecidable`), and the others go on to the next look.
 *
 * A row is a built-in workload measured with base, head and the null arm.
 * Its cpu comes from tests/sim/sim_model.h (rep noise shared by the arms,
 * residual noise per arm and rep, one of the five noise kinds); its wall
 * time is the cpu time times the machine's waiting, an independent
 * lognormal term per arm and rep, so that wall's spread is wall_sigma;
 * its throughput is the workload's own, ops / wall (derived from wall
 * time, as every built-in workload's is); peak and drain RSS move by a
 * few pages and minor faults by a couple, as measured (doc/method.md
 * §5a); instructions, with counts, are exact. A change of the head
 * scales its cpu (and so its wall and throughput) and, separately, its
 * instruction count.
 *
 * Test support code: deterministic in (model, seed, gate index), no I/O.
 */
#ifndef PAB_GATE_MODEL_H
#define PAB_GATE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "drift.h"
#include "judge/ledger.h"
#include "sim_model.h"

#define GATE_MAX_ROWS 8
#define GATE_REPS 96    /* reps drawn per row: the cap */

/* A runner's noise: the residual per arm and rep of cpu and of wall. */
struct gate_noise {
	const char *name;
	double cpu_sigma;      /* log sd of cpu per arm and rep */
	double wall_sigma;     /* log sd of wall per arm and rep (>= cpu's) */
};
/* quiet (cpu 1%, wall 1.5%), busy (cpu cv 3%, wall 6%), loaded (cpu 3%,
 * wall cv 20%: a CPU-bound loop on a loaded runner, doc/method.md §8a). */
extern const struct gate_noise gate_quiet, gate_busy, gate_loaded;

struct gate_case {
	struct gate_noise noise;
	enum sim_noise kind;   /* structure of the cpu noise (sim_model.h) */
	size_t rows;           /* rows in the gate (<= GATE_MAX_ROWS) */
	double time_shift;     /* head's cpu, hence wall, change (0.05 = +5%) */
	double count_shift;    /* head's instruction count change */
	int counts;            /* the run made exact counts */
	const char *require;   /* --require LIST, or NULL for the default */
	double guard_tolerance;/* --guard-tolerance; 0 = the default */
	int no_undecidable_stop; /* rows never stop as undecidable (the
				  * reference a stop is measured against) */
	const char *metrics;   /* --metrics LIST, or NULL for the default */
	double cpu_tolerance;  /* cpu's tolerance (a calibration's); 0 = 2% */
};

struct gate_result {
	enum pab_verdict overall;
	enum pab_verdict row[GATE_MAX_ROWS];
	size_t reps[GATE_MAX_ROWS];
	int undecidable[GATE_MAX_ROWS];
};

/*
 * gate_run: gate number index of the simulation seeded with seed, judged
 * at the looks 12, 24, 48, 96 (blocks of 3). Returns 0, or -1 when the
 * ledger cannot be built.
 */
int gate_run(const struct gate_case *c, uint64_t seed, uint64_t index,
	     struct gate_result *out);

/*
 * gate_run_recorded: gate_run(), and what the merge history records of
 * row 0's head for metric m (judge/history.h's pab_history_cells_of on
 * the run's final experiment and ledger) as a step of the chain in
 * *step (NaN figures when it records no such cell).
 */
int gate_run_recorded(const struct gate_case *c, uint64_t seed, uint64_t index,
		      enum pab_metric_id m, struct gate_result *out, struct pab_step *step);

/*
 * gate_experiment: gate number index's experiment with every rep (96 per
 * row), as gate_run draws it, into e (caller releases it): run A/A, it
 * is what `perfab calibrate` measures. e->seed is index.
 */
void gate_experiment(const struct gate_case *c, uint64_t seed, uint64_t index,
		     struct pab_experiment *e);

/* Tallies of gates and of their rows over many gates. */
struct gate_tally {
	unsigned gates, rows;
	unsigned overall[4];       /* by enum pab_verdict */
	unsigned pass_by_48;       /* gates PASSed with every row at <= 48 reps */
	unsigned row_verdict[4];
	unsigned row_pass_by_48;   /* rows PASSed at <= 48 reps */
	unsigned row_undecidable;
	double reps_sum;           /* over rows */
};
int gate_tally_run(const struct gate_case *c, uint64_t seed, unsigned gates,
		   struct gate_tally *t);

#endif /* PAB_GATE_MODEL_H */
