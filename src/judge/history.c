/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.c — a ledger's cells as history records, and the drift of a
 * series of merges (judge/history.h; doc/method.md §11 and §12).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/history.h"
#include "util.h"

/* Change points are searched in at most the last CP_WINDOW merges of a
 * series (the search is quadratic), with these settings. */
#define CP_WINDOW 500
#define CP_MIN_SIZE 3
#define CP_SIG 0.01
#define CP_PERMUTATIONS 499
#define CP_SEED 20140101u

/*
 * A merge's change is recorded at a look planned before the run, a fixed
 * design (pab_ledger_fixed_look: the first planned look with a 95%
 * interval, 12 reps by default): a row stops at the first look where its
 * sample looks decided, so its final change is biased toward whatever
 * decided it (an unchanged head stops when it looks fast), and chained
 * over many merges that bias swamps the interval (doc/method.md §11). A
 * row runs to that look unless it FAILed on exact counts before, so its
 * figures there are recorded whether the run went on or not; the verdict
 * recorded is the run's.
 */
struct pab_history_cell *pab_history_cells_of(const struct pab_experiment *e,
					      const struct pab_ledger *l, size_t *n)
{
	struct pab_history_cell *v = xcalloc(l->n_cells ? l->n_cells : 1, sizeof(*v));
	size_t first = pab_ledger_fixed_look(e), i;

	if (!first)
		first = SIZE_MAX; /* no look recorded: every rep */

	for (i = 0; i < l->n_cells; i++) {
		const struct pab_ledger_cell *c = &l->cells[i];
		struct pab_cell_result at;
		const struct pab_cell_result *r = &c->res;
		int judged = r->verdict != PAB_NOT_MEASURED;

		if (judged && !pab_ledger_cell_at(e, l, c, first, &at) &&
		    at.verdict != PAB_NOT_MEASURED)
			r = &at;
		else
			judged = 0;

		v[i].row = e->rows[c->row].name;
		v[i].arm = e->arms[c->arm].name;
		v[i].metric = pab_metrics[c->metric].name;
		/* A plain command's wall: its change is history, not a verdict. */
		v[i].verdict = c->role == PAB_ROLE_SHOWN ? "SHOWN" : pab_verdict_name(c->res.verdict);
		v[i].base_median = r->base_median;
		v[i].head_median = r->head_median;
		v[i].change_pct = judged ? r->change.median : NAN;
		v[i].lo_pct = judged ? r->change.lo : NAN;
		v[i].hi_pct = judged ? r->change.hi : NAN;
		v[i].coverage = judged ? r->change.coverage : NAN;
		v[i].tolerance_pct = r->tolerance;
		v[i].n = (int64_t)r->change.n;
	}
	*n = l->n_cells;
	return v;
}

/* The coverage a point's interval is read at: as recorded, else (a
 * migrated schema-1 cell) the nominal 95%. */
static double point_coverage(const struct pab_history_point *p)
{
	return isnan(p->coverage) ? PAB_DRIFT_CONF : p->coverage;
}

struct pab_step pab_history_point_step(const struct pab_history_point *p)
{
	struct pab_step s = { p->change_pct, p->lo_pct, p->hi_pct, point_coverage(p) };

	return s;
}

/* Change points of x[0..n), the last CP_WINDOW of them, as indices of x. */
static size_t change_points(const double *x, size_t n, size_t *cp, double *p)
{
	struct pab_pcg32 rng;
	size_t off = n > CP_WINDOW ? n - CP_WINDOW : 0, i;
	int k;

	pab_pcg32_seed(&rng, CP_SEED, 0);
	k = pab_edivisive(x + off, n - off, CP_MIN_SIZE, CP_SIG, CP_PERMUTATIONS, &rng, cp, p,
			  PAB_DRIFT_MAX);
	if (k < 0)
		return 0;
	for (i = 0; i < (size_t)k; i++)
		cp[i] += off;
	return (size_t)k;
}

/* The log-ratio of a point, NaN when it cannot be chained. */
static double point_log(const struct pab_history_point *p)
{
	struct pab_step st = pab_history_point_step(p);
	struct pab_chain c;

	if (pab_chain_steps(&st, 1, PAB_DRIFT_CONF, &c) || !c.n)
		return NAN;
	return c.log_sum;
}

void pab_drift_of(const struct pab_history_series *s, struct pab_drift *d)
{
	struct pab_step *steps = xcalloc(s->n ? s->n : 1, sizeof(*steps));
	double *steps_log = xcalloc(s->n ? s->n : 1, sizeof(*steps_log));
	size_t *idx = xcalloc(s->n ? s->n : 1, sizeof(*idx));
	size_t i, j, m = 0;

	memset(d, 0, sizeof(*d));
	d->s = s;
	d->tolerance = NAN;
	for (i = 0; i < s->n; i++) {
		const struct pab_history_point *p = &s->pts[i];
		double l = point_log(p);

		steps[i] = pab_history_point_step(p);
		if (!strcmp(p->verdict, "INCONCLUSIVE"))
			d->inconclusive++;
		else if (!strcmp(p->verdict, "FAIL"))
			d->fail++;
		else if (!strcmp(p->verdict, "PASS"))
			d->pass++;
		if (isfinite(p->tolerance_pct))
			d->tolerance = p->tolerance_pct;
		if (isnan(l))
			continue;
		idx[m] = i;
		steps_log[m] = l;
		m++;
	}
	pab_chain_steps(steps, s->n, PAB_DRIFT_CONF, &d->chain);
	if (d->chain.n && isfinite(d->tolerance)) {
		d->beyond = d->chain.lo_pct > d->tolerance;
		d->better = d->chain.hi_pct < -d->tolerance;
	}
	/* The merges that pushed the chain furthest in its direction: an
	 * insertion into the three largest so far. */
	for (i = 0; i < m && d->chain.n; i++) {
		double sign = d->chain.log_sum < 0 ? -1.0 : 1.0, top_v[3];

		if (steps_log[i] * sign <= 0.0)
			continue;
		for (j = 0; j < d->n_top; j++)
			top_v[j] = point_log(&s->pts[d->top[j]]) * sign;
		for (j = d->n_top; j > 0 && top_v[j - 1] < steps_log[i] * sign; j--)
			if (j < 3)
				d->top[j] = d->top[j - 1];
		if (j < 3) {
			d->top[j] = idx[i];
			if (d->n_top < 3)
				d->n_top++;
		}
	}
	d->n_cp_step = change_points(steps_log, m, d->cp_step, d->p_step);
	for (i = 0; i < d->n_cp_step; i++)
		d->cp_step[i] = idx[d->cp_step[i]];
	for (i = 0; i < s->n; i++) {
		const struct pab_history_point *p = &s->pts[i];

		if (!(isfinite(p->tolerance_pct) && (p->lo_pct > p->tolerance_pct ||
						     p->hi_pct < -p->tolerance_pct)))
			continue;
		if (d->n_jump == PAB_DRIFT_MAX) /* keep the last ones */
			memmove(d->jump, d->jump + 1, (PAB_DRIFT_MAX - 1) * sizeof(*d->jump));
		else
			d->n_jump++;
		d->jump[d->n_jump - 1] = i;
	}
	free(idx);
	free(steps_log);
	free(steps);
}
