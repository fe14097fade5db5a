/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gate_model.c — the seeded gate of gate_model.h: an experiment built in
 * memory, judged by the ledger at every planned look as the runner's
 * adaptive step judges it (src/run/runner.c). Test support code.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate_model.h"
#include "judge/history.h"
#include "model/experiment.h"
#include "util.h"

const struct gate_noise gate_quiet = { "quiet", 0.01, 0.015 };
const struct gate_noise gate_busy = { "busy", 0.03, 0.06 };
const struct gate_noise gate_loaded = { "loaded", 0.03, 0.20 };

#define GATE_FIRST 12
#define GATE_BLOCK 3
#define GATE_COUNT_REPS 3     /* the counting pass's default: one block */
#define MIB 1048576.0

static const char *const arm_names[SIM_ARMS] = { "base", "head", "null" };

/* An experiment of c->rows rows of GATE_REPS reps, values NaN. */
static void gate_experiment_init(struct pab_experiment *e, const struct gate_case *c)
{
	size_t i, r, a;

	pab_experiment_init(e);
	e->n_arms = SIM_ARMS;
	e->arms = xcalloc(SIM_ARMS, sizeof(*e->arms));
	for (a = 0; a < SIM_ARMS; a++)
		e->arms[a].name = xstrdup(arm_names[a]);
	e->n_rows = c->rows;
	e->rows = xcalloc(c->rows, sizeof(*e->rows));
	for (i = 0; i < c->rows; i++) {
		e->rows[i].name = xasprintf("row%zu", i);
		e->rows[i].workload = xstrdup("spin");
		for (r = 0; r < GATE_REPS; r++) {
			struct pab_rep *rep = pab_row_add_rep(&e->rows[i], SIM_ARMS);

			rep->block = r / GATE_BLOCK;
			for (a = 0; a < SIM_ARMS; a++)
				rep->order[a] = (a + r) % SIM_ARMS;
		}
	}
	e->complete = 1;
	e->reps = GATE_FIRST;
	e->max_reps = GATE_REPS;
	/* The run's judged set as it records it: the default, and the
	 * instructions its counts made. */
	e->judged.recorded |= PAB_JUDGED_METRICS;
	for (i = 0; i < PAB_M_COUNT; i++)
		e->judged.metrics[i] = pab_metrics[i].judged;
	if (c->metrics) {
		char *why = NULL;

		if (pab_parse_metrics(c->metrics, e->judged.metrics, &why) == 0) {
			e->judged.recorded |= PAB_JUDGED_METRICS_GIVEN;
			e->judged.metrics_given = 1;
		}
		free(why);
	}
	e->judged.floor_bytes = PAB_FLOOR_BYTES;
	e->judged.floor_count = PAB_FLOOR_COUNT;
	e->judged.recorded |= PAB_JUDGED_FLOORS;
	if (c->counts) {
		e->judged.metrics[PAB_M_INSTRUCTIONS] = 1;
		e->settings.given |= PAB_RUN_COUNTS;
		e->settings.counts_mode = PAB_COUNTS_SIM;
		e->settings.count_source = PAB_COUNT_SIM;
		e->settings.count_reps = GATE_COUNT_REPS;
	}
	if (c->cpu_tolerance > 0)
		e->tolerance[PAB_M_CPU] = c->cpu_tolerance;
	if (c->guard_tolerance > 0) {
		e->settings.guard_tolerance_pct = c->guard_tolerance;
		e->settings.given |= PAB_RUN_GUARD_TOLERANCE;
	}
	if (c->require) {
		char *why = NULL;

		if (pab_parse_metrics(c->require, e->judged.require, &why) == 0)
			e->judged.recorded |= PAB_JUDGED_REQUIRE;
		free(why);
	}
}

/* Fill row k of e with gate `index`'s draws. */
static void gate_row_draw(struct pab_experiment *e, const struct gate_case *c,
			  uint64_t seed, uint64_t index, size_t k)
{
	struct sim_model mc = sim_noise_model(c->kind, c->noise.cpu_sigma, c->time_shift);
	struct sim_model mw = sim_noise_model(SIM_LOGNORMAL, 0.0, 0.0);
	struct sim_experiment cpu, wait;
	uint64_t base = (index * GATE_MAX_ROWS + k) * 4;
	struct pab_pcg32 rng;
	size_t r, a;

	/* The waiting that wall adds to cpu: independent per arm and rep,
	 * with no rep noise or drift of its own (the rep's is in cpu). */
	mw.rep_sigma = 0.0;
	mw.drift_step = 0.0;
	mw.arm_sigma = c->noise.wall_sigma > c->noise.cpu_sigma ?
		sqrt(c->noise.wall_sigma * c->noise.wall_sigma -
		     c->noise.cpu_sigma * c->noise.cpu_sigma) : 0.0;
	sim_experiment_draw(&mc, seed, base, GATE_REPS, &cpu);
	sim_experiment_draw(&mw, seed, base + 1, GATE_REPS, &wait);
	pab_pcg32_seed(&rng, seed, base + 2);
	for (r = 0; r < GATE_REPS; r++)
		for (a = 0; a < SIM_ARMS; a++) {
			struct pab_arm_result *x = &e->rows[k].reps[r].result[a];
			double cpu_s = cpu.v[a][r] / 1000.0;
			double wall_s = cpu_s * 1.02 * wait.v[a][r] / 100.0;

			x->m[PAB_M_CPU] = cpu_s;
			x->m[PAB_M_WALL] = wall_s;
			x->m[PAB_M_THROUGHPUT] = 1e6 / wall_s;
			x->m[PAB_M_PEAK_RSS] = 64 * MIB +
				4096.0 * ((double)pab_pcg32_bounded(&rng, 17) - 8);
			x->m[PAB_M_DRAIN_RSS] = 48 * MIB +
				4096.0 * ((double)pab_pcg32_bounded(&rng, 17) - 8);
			x->m[PAB_M_MINOR_FAULTS] = 5000.0 +
				((double)pab_pcg32_bounded(&rng, 5) - 2);
			x->m[PAB_M_INSTRUCTIONS] = NAN;
			if (c->counts && r < GATE_COUNT_REPS)
				x->m[PAB_M_INSTRUCTIONS] = 1e9 *
					(a == SIM_HEAD ? 1.0 + c->count_shift : 1.0);
		}
}

void gate_experiment(const struct gate_case *c, uint64_t seed, uint64_t index,
		     struct pab_experiment *e)
{
	size_t k;

	gate_experiment_init(e, c);
	e->seed = index;
	for (k = 0; k < c->rows; k++)
		gate_row_draw(e, c, seed, index, k);
}

/* 1 when the ledger says row ri stops as undecidable (runner.c). */
static int row_is_undecidable(const struct pab_ledger *l, size_t ri)
{
	size_t i;

	for (i = 0; i < l->n_rows; i++)
		if (l->rows[i].row == ri && l->rows[i].undecidable)
			return 1;
	return 0;
}

static int build(const struct pab_experiment *e, struct pab_ledger *l)
{
	struct pab_ledger_opts o;
	char *why = NULL;
	int ret;

	pab_ledger_opts_init(&o, e);
	ret = pab_ledger_build(e, &o, l, &why);
	free(why);
	return ret;
}

/* What the history records of row 0's head for m, as a step. */
static void record_step(const struct pab_experiment *e, const struct pab_ledger *l,
			enum pab_metric_id m, struct pab_step *step)
{
	size_t n = 0, i;
	struct pab_history_cell *cells = pab_history_cells_of(e, l, &n);

	step->change_pct = step->lo_pct = step->hi_pct = step->coverage = NAN;
	for (i = 0; i < n; i++)
		if (!strcmp(cells[i].row, e->rows[0].name) && !strcmp(cells[i].arm, "head") &&
		    !strcmp(cells[i].metric, pab_metrics[m].name)) {
			step->change_pct = cells[i].change_pct;
			step->lo_pct = cells[i].lo_pct;
			step->hi_pct = cells[i].hi_pct;
			step->coverage = cells[i].coverage;
		}
	free(cells);
}

int gate_run(const struct gate_case *c, uint64_t seed, uint64_t index,
	     struct gate_result *out)
{
	return gate_run_recorded(c, seed, index, PAB_M_COUNT, out, NULL);
}

int gate_run_recorded(const struct gate_case *c, uint64_t seed, uint64_t index,
		      enum pab_metric_id m, struct gate_result *out, struct pab_step *step)
{
	size_t looks[8], n_looks = pab_looks_plan(GATE_FIRST, GATE_REPS, GATE_BLOCK, looks, 8);
	size_t target[GATE_MAX_ROWS], look[GATE_MAX_ROWS], k;
	int done[GATE_MAX_ROWS] = { 0 }, ret = -1, more = 1;
	struct pab_experiment e;
	struct pab_ledger l;

	if (c->rows == 0 || c->rows > GATE_MAX_ROWS)
		return -1;
	memset(out, 0, sizeof(*out));
	gate_experiment_init(&e, c);
	for (k = 0; k < c->rows; k++) {
		gate_row_draw(&e, c, seed, index, k);
		target[k] = looks[0];
		look[k] = 0;
	}
	while (more) {
		more = 0;
		for (k = 0; k < c->rows; k++)
			e.rows[k].n_reps = target[k];
		if (build(&e, &l))
			goto out_restore;
		for (k = 0; k < c->rows; k++) {
			enum pab_verdict v;

			if (done[k])
				continue;
			v = pab_ledger_row_verdict(&l, k);
			if (v == PAB_PASS || v == PAB_FAIL) {
				done[k] = 1;
			} else if (!c->no_undecidable_stop && row_is_undecidable(&l, k)) {
				done[k] = 1;
				out->undecidable[k] = 1;
			} else if (look[k] + 1 < n_looks) {
				target[k] = looks[++look[k]];
				more = 1;
			} else {
				done[k] = 1;
			}
		}
		if (more)
			pab_ledger_release(&l);
	}
	out->overall = l.overall;
	for (k = 0; k < c->rows; k++) {
		out->row[k] = pab_ledger_row_verdict(&l, k);
		out->reps[k] = target[k];
	}
	if (step)
		record_step(&e, &l, m, step);
	pab_ledger_release(&l);
	ret = 0;
out_restore:
	for (k = 0; k < c->rows; k++)
		e.rows[k].n_reps = GATE_REPS;
	pab_experiment_release(&e);
	return ret;
}

int gate_tally_run(const struct gate_case *c, uint64_t seed, unsigned gates,
		   struct gate_tally *t)
{
	struct gate_result g;
	unsigned i;
	size_t k;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < gates; i++) {
		int by48 = 1;

		if (gate_run(c, seed, i, &g))
			return -1;
		t->gates++;
		t->overall[g.overall]++;
		for (k = 0; k < c->rows; k++) {
			t->rows++;
			t->row_verdict[g.row[k]]++;
			t->row_undecidable += g.undecidable[k];
			t->reps_sum += (double)g.reps[k];
			t->row_pass_by_48 += g.row[k] == PAB_PASS && g.reps[k] <= 48;
			by48 &= g.reps[k] <= 48;
		}
		t->pass_by_48 += g.overall == PAB_PASS && by48;
	}
	return 0;
}
