/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sim_model.c — the seeded noise model of sim_model.h and adaptive reps.
 * Test support code: deterministic, no I/O.
 */
#include <math.h>
#include <string.h>

#include "sim_model.h"

void sim_experiment_draw(const struct sim_model *m, uint64_t seed,
			 uint64_t index, size_t reps, struct sim_experiment *e)
{
	struct pab_pcg32 rng, rep_rng;
	double drift = 0.0, slot_walk = 0.0;
	size_t r;
	int a;

	if (reps > SIM_MAX_REPS)
		reps = SIM_MAX_REPS;
	memset(e, 0, sizeof(*e));
	e->reps = reps;
	e->no_null = m->no_null;
	e->burst_arm = -1;
	pab_pcg32_seed(&rng, seed, index);
	pab_pcg32_seed(&rep_rng, seed, SIM_REP_STREAM + index);

	/* The burst is drawn first so that it does not depend on reps. */
	if (m->burst) {
		unsigned span = m->burst_max_len - m->burst_min_len + 1;

		e->burst_arm = (int)pab_pcg32_bounded(&rng, SIM_ARMS);
		e->burst_len = m->burst_min_len + pab_pcg32_bounded(&rng, span);
		e->burst_start = pab_pcg32_bounded(&rng, m->burst_start_max);
	}
	for (r = 0; r < reps; r++) {
		/* Shared by the arms of rep r: slow drift and rep noise. */
		double shared, slot[SIM_ARMS] = { 0 };

		drift += m->drift_step * pab_pcg32_normal(&rng);
		shared = drift + m->rep_sigma * pab_pcg32_normal(&rep_rng);
		if (m->slot_drift > 0) {
			/* rotate-reverse/1: position k of rep r runs arm
			 * (k + r mod 3) mod 3, odd blocks backwards. */
			size_t k, block = r / SIM_ARMS, j = r % SIM_ARMS;

			for (k = 0; k < SIM_ARMS; k++) {
				size_t pos = block % 2 ? SIM_ARMS - 1 - k : k;

				slot_walk += m->slot_drift * pab_pcg32_normal(&rng);
				slot[(pos + j) % SIM_ARMS] = slot_walk;
			}
		}
		for (a = 0; a < SIM_ARMS; a++) {
			double z = m->arm_sigma * pab_pcg32_normal(&rng) + slot[a];
			double v = m->gaussian ? 100.0 * (1.0 + shared + z)
					       : 100.0 * exp(z + shared);

			if (a == SIM_HEAD)
				v *= 1.0 + m->shift;
			if (a != SIM_BASE)
				v *= 1.0 + m->offset;
			if (a == e->burst_arm && r >= e->burst_start &&
			    r < (size_t)e->burst_start + e->burst_len)
				v *= m->burst_factor;
			e->v[a][r] = v;
		}
	}
}

int sim_burst_hit(const struct sim_experiment *e, int arm, size_t reps)
{
	return e->burst_arm == arm && e->burst_len > 0 &&
	       e->burst_start < reps;
}

void sim_cell_input(const struct sim_experiment *e, size_t reps,
		    enum pab_rules rules, double tolerance_pct,
		    struct pab_cell_input *in)
{
	memset(in, 0, sizeof(*in));
	in->base = e->v[SIM_BASE];
	in->head = e->v[SIM_HEAD];
	in->null = e->no_null ? NULL : e->v[SIM_NULL];
	in->n = reps;
	in->better = PAB_LOWER_IS_BETTER;
	in->credit_eligible = 1;
	in->control = 0;
	in->saved_pct = 0.0;
	in->tolerance_pct = tolerance_pct;
	in->equivalence_margin_pct = 3.0;
	in->conf = 0.95;
	in->rules = rules;
}

int sim_judge_adaptive(const struct sim_experiment *e,
		       const struct sim_adaptive *a, enum pab_rules rules,
		       double tolerance_pct, size_t *reps_used)
{
	struct pab_cell_input in;
	struct pab_cell_result res;
	size_t n = a->start_reps, add, looks[64], n_looks = 0, look = 0;
	int ret;

	add = (a->step + a->block - 1) / a->block * a->block;
	if (a->doubling) {
		n_looks = pab_looks_plan(a->start_reps, a->max_reps, a->block,
					 looks, 64);
		if (!n_looks)
			return PAB_EINVAL;
		n = looks[0];
	}
	for (;;) {
		if (n > e->reps)
			n = e->reps;
		sim_cell_input(e, n, rules, tolerance_pct, &in);
		if (a->conf > 0)
			in.conf = a->conf;
		ret = pab_judge_cell(&in, &res);
		if (ret < 0)
			goto out;
		ret = (int)res.verdict;
		if (res.verdict != PAB_INCONCLUSIVE || n >= a->max_reps ||
		    n >= e->reps)
			break;
		if (a->doubling) {
			if (++look >= n_looks)
				break;
			n = looks[look];
			continue;
		}
		n += add;
		if (n > a->max_reps)
			n = a->max_reps;
	}
	*reps_used = n;
out:
	return ret;
}

int sim_case_run(const struct sim_model *m, uint64_t seed,
		 unsigned experiments, const struct sim_adaptive *a,
		 enum pab_rules rules, double tolerance_pct,
		 struct sim_tally *t)
{
	struct sim_experiment e;
	size_t used = 0;
	unsigned i;
	int v = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < experiments; i++) {
		sim_experiment_draw(m, seed, i, a->max_reps, &e);
		v = sim_judge_adaptive(&e, a, rules, tolerance_pct, &used);
		if (v < 0)
			goto out;
		t->experiments++;
		t->verdict[v]++;
		t->reps_sum += (double)used;
		if (sim_burst_hit(&e, SIM_NULL, used)) {
			t->null_hit++;
			t->null_hit_verdict[v]++;
		}
	}
	v = 0;
out:
	return v;
}

int sim_coverage(const struct sim_model *m, uint64_t seed,
		 unsigned experiments, size_t n, double conf,
		 double *observed, double *claimed)
{
	struct sim_experiment e;
	struct pab_interval iv;
	double changes[SIM_MAX_REPS];
	double truth = 100.0 * m->shift;
	unsigned i, covered = 0;
	int ret = PAB_EINVAL;

	if (m->burst || n == 0 || n > SIM_MAX_REPS || experiments == 0)
		goto out;
	for (i = 0; i < experiments; i++) {
		sim_experiment_draw(m, seed, i, n, &e);
		pab_paired_changes(e.v[SIM_BASE], e.v[SIM_HEAD], n,
				   PAB_LOWER_IS_BETTER, changes);
		ret = pab_sign_interval(changes, n, conf, &iv);
		if (ret < 0)
			goto out;
		covered += iv.lo <= truth && truth <= iv.hi;
	}
	*observed = (double)covered / (double)experiments;
	*claimed = iv.coverage;
	ret = 0;
out:
	return ret;
}

const struct sim_adaptive sim_default_looks = {
	.start_reps = 12, .step = 0, .block = 3, .max_reps = 96,
	.doubling = 1, .conf = 0.95,
};

const char *sim_noise_name(enum sim_noise k)
{
	static const char *const names[SIM_NOISE_COUNT] = {
		"gaussian", "lognormal", "burst", "drift", "offset",
	};

	return k < SIM_NOISE_COUNT ? names[k] : "invalid";
}

struct sim_model sim_noise_model(enum sim_noise k, double arm_sigma,
				 double shift)
{
	struct sim_model m = {
		.rep_sigma = 0.05, .arm_sigma = arm_sigma,
		.drift_step = 0.005, .shift = shift,
	};

	switch (k) {
	case SIM_GAUSSIAN:
		m.gaussian = 1;
		break;
	case SIM_LOGNORMAL:
	case SIM_NOISE_COUNT:
		break;
	case SIM_BURST:
		m.burst = 1;
		m.burst_factor = 1.20;
		m.burst_min_len = 3;
		m.burst_max_len = 6;
		m.burst_start_max = 48;
		break;
	case SIM_DRIFT:
		m.drift_step = 0.02;
		m.slot_drift = 0.01;
		break;
	case SIM_OFFSET:
		m.offset = 0.03;
		break;
	}
	return m;
}
