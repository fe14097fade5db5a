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

/* A copy of point p whose merge is a copy too (drop_point frees it). */
static struct pab_history_point copy_point(const struct pab_history_point *p)
{
	struct pab_history_merge_row *m = xmalloc(sizeof(*m));
	struct pab_history_point c = *p;

	pab_history_merge_row_copy(m, p->merge);
	c.merge = m;
	return c;
}

/* Free the merge of a point copy_point made, if any. */
static void drop_point(struct pab_history_point *p)
{
	struct pab_history_merge_row *m = (struct pab_history_merge_row *)p->merge;

	if (!m)
		return;
	pab_history_merge_row_release(m);
	free(m);
	p->merge = NULL;
}

/* A point a drift in the making keeps. */
struct kept {
	struct pab_history_point p; /* a copy_point copy */
	size_t idx;                 /* its index in the series */
	double log;                 /* its log-ratio */
};

struct pab_drift_acc {
	struct pab_drift d;          /* names, counts, first and last so far */
	struct pab_chain_acc chain;
	/* The three largest chainable log-ratios of each sign ([0] positive,
	 * [1] negative) by size: which sign counts is known at the end. */
	struct kept top[2][3];
	size_t n_top[2];
	/* The last CP_WINDOW chainable points: the m-th (from 0) at
	 * ring[m % CP_WINDOW]; n_chainable of them in all. */
	struct kept *ring;
	size_t ring_alloc, n_chainable;
};

struct pab_drift_acc *pab_drift_start(const char *row, const char *arm, const char *metric)
{
	struct pab_drift_acc *a = xcalloc(1, sizeof(*a));

	a->d.row = xstrdup(row);
	a->d.arm = xstrdup(arm);
	a->d.metric = xstrdup(metric);
	a->d.tolerance = NAN;
	return a;
}

/* Insert point p (index idx, log-ratio l of sign +1 or -1) into
 * top[0..*n), the three largest of its sign by size, a later equal one
 * after the earlier; copied only when it is kept. */
static void top_insert(struct kept *top, size_t *n, const struct pab_history_point *p,
		       size_t idx, double l, double sign)
{
	size_t j;

	if (*n == 3) {
		if (!(top[2].log * sign < l * sign))
			return;
		drop_point(&top[2].p);
		(*n)--;
	}
	for (j = *n; j > 0 && top[j - 1].log * sign < l * sign; j--)
		top[j] = top[j - 1];
	top[j].p = copy_point(p);
	top[j].idx = idx;
	top[j].log = l;
	(*n)++;
}

void pab_drift_add(struct pab_drift_acc *a, const struct pab_history_point *p)
{
	struct pab_drift *d = &a->d;
	struct pab_step st = pab_history_point_step(p);
	size_t idx = d->points++;
	double l = pab_chain_add(&a->chain, &st);

	if (!idx)
		d->first = copy_point(p);
	drop_point(&d->last);
	d->last = copy_point(p);
	if (!strcmp(p->verdict, "INCONCLUSIVE"))
		d->inconclusive++;
	else if (!strcmp(p->verdict, "FAIL"))
		d->fail++;
	else if (!strcmp(p->verdict, "PASS"))
		d->pass++;
	if (isfinite(p->tolerance_pct))
		d->tolerance = p->tolerance_pct;
	if (!isnan(l)) {
		struct kept *r;

		if (l != 0.0)
			top_insert(a->top[l < 0.0], &a->n_top[l < 0.0], p, idx, l,
				   l < 0.0 ? -1.0 : 1.0);
		if (a->n_chainable < CP_WINDOW && a->n_chainable == a->ring_alloc)
			a->ring = xgrow(a->ring, sizeof(*a->ring), a->n_chainable + 1, &a->ring_alloc);
		r = &a->ring[a->n_chainable % CP_WINDOW];
		if (a->n_chainable >= CP_WINDOW)
			drop_point(&r->p);
		r->p = copy_point(p);
		r->idx = idx;
		r->log = l;
		a->n_chainable++;
	}
	/* a step of the level: its own interval wholly beyond its tolerance */
	if (isfinite(p->tolerance_pct) &&
	    (p->lo_pct > p->tolerance_pct || p->hi_pct < -p->tolerance_pct)) {
		if (d->n_jump == PAB_DRIFT_MAX) { /* keep the last ones */
			drop_point(&d->jump_pt[0]);
			memmove(d->jump, d->jump + 1, (PAB_DRIFT_MAX - 1) * sizeof(*d->jump));
			memmove(d->jump_pt, d->jump_pt + 1,
				(PAB_DRIFT_MAX - 1) * sizeof(*d->jump_pt));
		} else {
			d->n_jump++;
		}
		d->jump[d->n_jump - 1] = idx;
		d->jump_pt[d->n_jump - 1] = copy_point(p);
	}
}

void pab_drift_finish(struct pab_drift_acc *a, struct pab_drift *d)
{
	size_t n = a->n_chainable < CP_WINDOW ? a->n_chainable : CP_WINDOW;
	size_t first = a->n_chainable - n, i, side;
	double *x = xcalloc(n ? n : 1, sizeof(*x));
	size_t cp[PAB_DRIFT_MAX];
	struct pab_pcg32 rng;
	int k;

	*d = a->d;
	pab_chain_end(&a->chain, PAB_DRIFT_CONF, &d->chain);
	if (d->chain.n && isfinite(d->tolerance)) {
		d->beyond = d->chain.lo_pct > d->tolerance;
		d->better = d->chain.hi_pct < -d->tolerance;
	}
	/* The merges that pushed the chain furthest in its direction. */
	side = d->chain.log_sum < 0.0;
	for (i = 0; i < a->n_top[side] && d->chain.n; i++) {
		d->top[i] = a->top[side][i].idx;
		d->top_pt[i] = a->top[side][i].p;
		a->top[side][i].p.merge = NULL;
		d->n_top++;
	}
	for (side = 0; side < 2; side++)
		for (i = 0; i < a->n_top[side]; i++)
			drop_point(&a->top[side][i].p);
	/* Change points of the chainable log-ratios, the last CP_WINDOW. */
	for (i = 0; i < n; i++)
		x[i] = a->ring[(first + i) % CP_WINDOW].log;
	pab_pcg32_seed(&rng, CP_SEED, 0);
	k = pab_edivisive(x, n, CP_MIN_SIZE, CP_SIG, CP_PERMUTATIONS, &rng, cp, d->p_step,
			  PAB_DRIFT_MAX);
	for (i = 0; k > 0 && i < (size_t)k; i++) {
		struct kept *r = &a->ring[(first + cp[i]) % CP_WINDOW];

		d->cp_step[i] = r->idx;
		d->cp_pt[i] = r->p; /* taken from the ring, freed below otherwise */
		r->p.merge = NULL;
	}
	d->n_cp_step = k > 0 ? (size_t)k : 0;
	for (i = 0; i < n; i++)
		drop_point(&a->ring[(first + i) % CP_WINDOW].p);
	free(a->ring);
	free(x);
	free(a);
}

void pab_drift_of(const struct pab_history_series *s, struct pab_drift *d)
{
	struct pab_drift_acc *a = pab_drift_start(s->row, s->arm, s->metric);
	size_t i;

	for (i = 0; i < s->n; i++)
		pab_drift_add(a, &s->pts[i]);
	pab_drift_finish(a, d);
	d->s = s;
}

void pab_drift_release(struct pab_drift *d)
{
	size_t i;

	free(d->row);
	free(d->arm);
	free(d->metric);
	drop_point(&d->first);
	drop_point(&d->last);
	for (i = 0; i < d->n_top; i++)
		drop_point(&d->top_pt[i]);
	for (i = 0; i < d->n_cp_step; i++)
		drop_point(&d->cp_pt[i]);
	for (i = 0; i < d->n_jump; i++)
		drop_point(&d->jump_pt[i]);
	memset(d, 0, sizeof(*d));
}
