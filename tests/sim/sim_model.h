/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sim_model.h — the seeded A/B noise model the statistics are calibrated
 * on, shared by tests/sim/test_stats_sim.c (assertions) and
 * tests/sim/sim_verdicts.c (the tables in doc/method.md).
 *
 * One experiment is a row measured with three arms (base, head, null) for
 * up to SIM_MAX_REPS reps. Arm a in rep r reads
 *
 *     value = 100 * shift_a * exp(rep_sigma * R[r] + arm_sigma * Z[a][r]
 *                                 + D[r]) * burst[a][r]
 *
 * with two noise terms, both standard normal in the log:
 *
 *  - R[r], shared by all arms of rep r: the noise *of the rep*, the machine
 *    state (frequency, neighbours, caches) during one rep, which the arms
 *    run back to back inside. perfab's paired, rotated design exists to
 *    cancel it, and in this multiplicative model it cancels exactly in the
 *    ratio head / base;
 *  - Z[a][r], independent per arm and rep: the residual measurement noise
 *    that pairing cannot remove (what differs between two back-to-back
 *    runs of the same binary).
 *
 * D is a Gaussian random walk shared by all arms of a rep (slow drift: the
 * machine warms up, the neighbours change), shift_a = 1 + shift for head
 * and 1 otherwise, and burst[a][r] = burst_factor on one random arm for
 * burst_len consecutive reps starting at a random rep (interference, e.g.
 * a noisy neighbour), 1 elsewhere. The metric is lower-is-better (CPU
 * seconds), so a burst and a positive shift are both "worse".
 *
 * Issue #8's model (doc/method.md, section 10): rep_sigma 5% (its "per-rep
 * multiplicative noise (sigma = 5%)"), arm_sigma 1.5% (measured on the
 * project's 2-core VM for a pinned busy loop: about 0.6% for cpu and 1.4%
 * for throughput), drift steps of 0.5%, one +20% burst of 3-6 reps.
 *
 * Every experiment draws from its own PCG32 stream (stream = experiment
 * index), so the cases of a table see the same noise (common random
 * numbers) and any one experiment can be replayed alone. R comes from a
 * second stream of its own (SIM_REP_STREAM + index), so the other draws —
 * burst, drift, Z — are the same whatever rep_sigma is.
 */
#ifndef PAB_SIM_MODEL_H
#define PAB_SIM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "pab_stats.h"

#define SIM_MAX_REPS 96
/* PCG32 stream of the shared rep noise: SIM_REP_STREAM + experiment index
 * (stream numbers are 63 bits; experiment indexes stay far below 2^62). */
#define SIM_REP_STREAM (UINT64_C(1) << 62)

enum { SIM_BASE = 0, SIM_HEAD = 1, SIM_NULL = 2, SIM_ARMS = 3 };

struct sim_model {
	double rep_sigma;      /* log sd shared by the arms of a rep (0.05 = 5%) */
	double arm_sigma;      /* log sd per arm and rep, independent (0.015) */
	double drift_step;     /* sd of the shared log drift's step per rep */
	double shift;          /* head's true change (0.10 = +10%, worse) */
	int burst;             /* 1: one interference burst per experiment */
	double burst_factor;   /* 1.20 = +20% */
	unsigned burst_min_len, burst_max_len; /* consecutive reps, inclusive */
	unsigned burst_start_max; /* start uniform in [0, burst_start_max) */
	int no_null;           /* judge without the null arm (noise 0) */
	int gaussian;          /* additive normal noise instead of the log
				* model: 100 (1 + drift + rep_sigma R +
				* arm_sigma Z), then shift, offset, burst */
	double slot_drift;     /* sd of a drift step per arm run: the machine
				* drifts WITHIN a rep too, while the arms run
				* one after another in rotate-reverse/1 order
				* (pairing does not cancel this one) */
	double offset;         /* every non-base arm (head and null) this much
				* worse for reasons unrelated to the code
				* (0.03 = +3%): the shared-offset model */
};

struct sim_experiment {
	size_t reps;
	int no_null;           /* copied from the model */
	double v[SIM_ARMS][SIM_MAX_REPS];
	int burst_arm;         /* -1 without a burst */
	unsigned burst_start, burst_len;
};

/* Fill e with reps (<= SIM_MAX_REPS) reps drawn for experiment number
 * index of the run seeded with seed. Deterministic in (m, seed, index). */
void sim_experiment_draw(const struct sim_model *m, uint64_t seed,
			 uint64_t index, size_t reps, struct sim_experiment *e);

/* 1 when e's burst hit arm within the first reps reps. */
int sim_burst_hit(const struct sim_experiment *e, int arm, size_t reps);

/* Cell input for the first reps reps of e (CPU: lower is better, credit
 * eligible, no credit, not a control, conf 0.95, no tolerance floor). */
void sim_cell_input(const struct sim_experiment *e, size_t reps,
		    enum pab_rules rules, double tolerance_pct,
		    struct pab_cell_input *in);
/* The null arm is used unless no_null; sim_judge_adaptive takes it from
 * the experiment's model. */

/*
 * Adaptive reps as the runner does them: judge after start_reps, then add
 * step reps rounded up to whole blocks of block reps while the cell is
 * INCONCLUSIVE, never beyond max_reps. Stores the reps used in *reps_used
 * and returns the final verdict (or a negative PAB_E* code).
 */
struct sim_adaptive {
	size_t start_reps, step, block, max_reps;
	int doubling;          /* 1: the runner's planned looks instead of
				* step: pab_looks_plan(start_reps, max_reps,
				* block), step ignored */
	double conf;           /* interval confidence per look; 0 = 0.95 */
};
int sim_judge_adaptive(const struct sim_experiment *e,
		       const struct sim_adaptive *a, enum pab_rules rules,
		       double tolerance_pct, size_t *reps_used);

/*
 * The five noise models the default adaptive plan is checked under
 * (doc/method.md, "Looks"), each with rep sigma 5% and the given arm
 * sigma: gaussian (additive normal noise), lognormal (the multiplicative
 * model above), burst (a +20% burst of 3-6 reps on a random arm, starting
 * in the first 48 reps), drift (drift steps of 2% per rep and 1% per arm
 * run, so arms drift apart within a rep) and offset (head and null both
 * 3% worse than base for reasons unrelated to the code).
 */
enum sim_noise {
	SIM_GAUSSIAN, SIM_LOGNORMAL, SIM_BURST, SIM_DRIFT, SIM_OFFSET,
	SIM_NOISE_COUNT
};
const char *sim_noise_name(enum sim_noise k);
struct sim_model sim_noise_model(enum sim_noise k, double arm_sigma,
				 double shift);
/* The runner's default plan: looks at 12, 24, 48, 96 reps (blocks of 3
 * arms), a plain 95% interval at every look. */
extern const struct sim_adaptive sim_default_looks;

/* Verdict counts of one case over many experiments. */
struct sim_tally {
	unsigned experiments;
	unsigned verdict[4];    /* indexed by enum pab_verdict */
	double reps_sum;        /* reps used, summed (mean = / experiments) */
	unsigned null_hit;      /* experiments whose burst hit the null arm */
	unsigned null_hit_verdict[4];
};

/*
 * sim_case_run: experiments experiments (index 0 .. experiments-1 of the
 * run seeded with seed) of model m, each judged with adaptive reps a under
 * rules. Fixed n is a with start_reps = max_reps = n. Returns 0 or a
 * negative PAB_E* code.
 */
int sim_case_run(const struct sim_model *m, uint64_t seed,
		 unsigned experiments, const struct sim_adaptive *a,
		 enum pab_rules rules, double tolerance_pct,
		 struct sim_tally *t);

/*
 * sim_coverage: share of experiments (of n reps each) whose head-vs-base
 * sign-test interval at conf contains the true median change, 100 * shift
 * (the model's per-pair change is a monotone function of Z_head - Z_base,
 * which is symmetric about 0; the shared rep noise and drift cancel in
 * the ratio). Whether an experiment covers depends only on the signs of
 * Z_head - Z_base, so the result does not depend on either sigma.
 * m must have no burst. Also returns the achieved coverage the interval
 * claims (the same for every experiment). Returns 0 or PAB_E*.
 */
int sim_coverage(const struct sim_model *m, uint64_t seed,
		 unsigned experiments, size_t n, double conf,
		 double *observed, double *claimed);

#endif /* PAB_SIM_MODEL_H */
