/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * counting.c — the policy of the counting pass (counting.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "pab_stats.h"
#include "probe/simcount.h"
#include "run/counting.h"
#include "term.h"
#include "util.h"

void pab_counting_init(struct pab_counting *c, struct pab_experiment *e, int active, int quiet)
{
	memset(c, 0, sizeof(*c));
	c->e = e;
	c->active = active;
	c->quiet = quiet;
	c->stopped = xcalloc(e->n_rows ? e->n_rows : 1, sizeof(*c->stopped));
}

void pab_counting_release(struct pab_counting *c)
{
	size_t i;

	for (i = 0; c->stopped && i < c->e->n_rows; i++)
		free(c->stopped[i]);
	free(c->stopped);
	c->stopped = NULL;
	free(c->cache_ctx);
	c->cache_ctx = NULL;
	pab_count_cache_release(&c->cache);
	c->cache_on = 0;
}

/* 1 when counts from lo to hi moved beyond the resolution an exact cell
 * allows (pab_stats.h). */
static int moved(double lo, double hi)
{
	return hi > lo && (hi - lo) * 100 > PAB_EXACT_RESOLUTION_PCT * fabs(hi);
}

int pab_counting_rep(const struct pab_counting *c, size_t ri, size_t rep_idx)
{
	const struct pab_row *row = &c->e->rows[ri];
	size_t a, k;

	if (!c->active || c->stopped[ri])
		return 0;
	if (rep_idx < c->e->settings.count_reps)
		return 1;
	for (a = 0; a < c->e->n_arms; a++) {
		double lo = INFINITY, hi = -INFINITY;

		for (k = 0; k < rep_idx; k++) {
			double x = row->reps[k].result[a].m[PAB_M_INSTRUCTIONS];

			if (isnan(x))
				continue;
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		if (moved(lo, hi))
			return 1;
	}
	return 0;
}

void pab_counting_begin_rep(struct pab_counting *c, size_t ri, size_t rep_idx)
{
	size_t a;

	for (a = 0; c->stopped[ri] && a < c->e->n_arms; a++)
		pab_arm_result_null(&c->e->rows[ri].reps[rep_idx].result[a], PAB_M_INSTRUCTIONS,
				    c->stopped[ri]);
}

/* Give res the count x, from origin. */
static void take_count(struct pab_arm_result *res, double x, enum pab_count_origin origin)
{
	res->m[PAB_M_INSTRUCTIONS] = x;
	res->count_origin = origin;
	res->reason[PAB_M_INSTRUCTIONS] = NULL;
}

int pab_counting_share(struct pab_rep *rep, char *const *ids, size_t k)
{
	size_t a = rep->order[k], j;

	for (j = 0; ids[a] && j < k; j++) {
		const struct pab_arm_result *from = &rep->result[rep->order[j]];
		double x = from->m[PAB_M_INSTRUCTIONS];

		if (!ids[rep->order[j]] || strcmp(ids[rep->order[j]], ids[a]) || isnan(x))
			continue;
		take_count(&rep->result[a], x, from->count_origin);
		return 1;
	}
	return 0;
}

/*
 * The counts of ids[a]'s program in row ri's reps before upto, one per
 * rep (the arms that share a program in a rep have the same): into *n
 * how many reps counted it by a child of their own and *first the first
 * of those; *cached a count a rep took from the cache, else NaN. Returns
 * 1 when the counted ones moved, else 0.
 */
static int history(const struct pab_counting *c, size_t ri, size_t upto, char *const *ids,
		   size_t a, size_t *n, double *first, double *cached)
{
	const struct pab_row *row = &c->e->rows[ri];
	double lo = INFINITY, hi = -INFINITY;
	size_t k, b;

	*n = 0;
	*first = *cached = NAN;
	for (k = 0; ids[a] && k < upto; k++) {
		for (b = 0; b < c->e->n_arms; b++) {
			const struct pab_arm_result *res = &row->reps[k].result[b];
			double x = res->m[PAB_M_INSTRUCTIONS];

			if (!ids[b] || strcmp(ids[b], ids[a]) || isnan(x) ||
			    res->count_origin == PAB_COUNT_REUSED)
				continue;
			if (res->count_origin == PAB_COUNT_CACHED) {
				*cached = x;
				continue;
			}
			if (!(*n)++)
				*first = x;
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
			break;
		}
	}
	return *n && moved(lo, hi);
}

int pab_counting_reuse(struct pab_counting *c, size_t ri, size_t rep_idx, char *const *ids,
		       size_t a)
{
	struct pab_arm_result *res = &c->e->rows[ri].reps[rep_idx].result[a];
	double first, cached;
	size_t n;
	int mv = history(c, ri, rep_idx, ids, a, &n, &first, &cached);

	/* A count an earlier rep took from the cache stays this run's count
	 * of the program, whatever the cache holds now (a resumed run). */
	if (!isnan(cached) && !n) {
		take_count(res, cached, PAB_COUNT_CACHED);
		return 1;
	}
	/* A count taken from elsewhere is no evidence that this run's counts
	 * do not move: only counts of this run's children are. */
	if (n < 2 || mv)
		return 0;
	take_count(res, first, PAB_COUNT_REUSED);
	return 1;
}

void pab_counting_use_cache(struct pab_counting *c, const char *path, int mkdir_parent,
			    char *ctx)
{
	char *note_text;

	pab_count_cache_load(&c->cache, path, &note_text);
	if (note_text && !c->quiet)
		note("%s", note_text);
	free(note_text);
	c->cache_on = 1;
	c->cache_mkdir = mkdir_parent;
	c->cache_ctx = ctx;
}

/* The cache key of ids[a] in this run. */
static void cache_key(const struct pab_counting *c, const char *id, char key[65])
{
	char *text = xasprintf("%s%s", c->cache_ctx, id);

	pab_count_cache_key(text, key);
	free(text);
}

int pab_counting_cached(struct pab_counting *c, size_t ri, size_t rep_idx, char *const *ids,
			size_t a)
{
	double first, cached, x;
	size_t n;
	char key[65];

	if (!c->cache_on || !ids[a])
		return 0;
	history(c, ri, rep_idx, ids, a, &n, &first, &cached);
	if (n)
		return 0; /* the run counts it: its own counts decide */
	cache_key(c, ids[a], key);
	if (!pab_count_cache_get(&c->cache, key, &x))
		return 0;
	take_count(&c->e->rows[ri].reps[rep_idx].result[a], x, PAB_COUNT_CACHED);
	return 1;
}

void pab_counting_learn(struct pab_counting *c, size_t ri, size_t rep_idx, char *const *ids,
			size_t a)
{
	double first, cached, x;
	size_t n;
	char key[65], *why;

	if (!c->cache_on || !ids[a] ||
	    history(c, ri, rep_idx + 1, ids, a, &n, &first, &cached) || n < 2)
		return;
	cache_key(c, ids[a], key);
	if (pab_count_cache_get(&c->cache, key, &x) && x == first)
		return;
	pab_count_cache_put(&c->cache, key, first);
	if (pab_count_cache_save(&c->cache, c->cache_mkdir, &why)) {
		if (!c->cache_save_failed && !c->quiet)
			note("the count cache was not written: %s", why);
		c->cache_save_failed = 1;
		free(why);
	}
}

double pab_counting_cost_s(const struct pab_counting *c, size_t ri, size_t rep_idx, size_t a)
{
	double wall = c->e->rows[ri].reps[rep_idx].result[a].m[PAB_M_WALL];

	if (c->children)
		return c->spent_s / (double)c->children;
	return PAB_SIMCOUNT_START_S + PAB_SIMCOUNT_TYPICAL_SLOWDOWN * (isfinite(wall) ? wall : 0);
}

int pab_counting_limit(const struct pab_counting *c, size_t ri, size_t rep_idx, size_t a,
		       int64_t timeout_ns, int64_t left_ns, double budget_s,
		       int64_t *limit_ns, int *by_budget, char **why)
{
	int64_t limit = timeout_ns * PAB_SIMCOUNT_SLOWDOWN;
	double cost = pab_counting_cost_s(c, ri, rep_idx, a);

	*by_budget = 0;
	*why = NULL;
	if (left_ns >= 0) {
		if ((double)left_ns / 1e9 < cost) {
			*why = xasprintf("not counted: the run's budget of %.3g s had %.1f s left, "
					 "and a count takes about %.1f s (raise --budget, or "
					 "--counts off)", budget_s, (double)left_ns / 1e9, cost);
			return 1;
		}
		if (!limit || left_ns < limit) {
			limit = left_ns;
			*by_budget = 1;
		}
	}
	*limit_ns = limit;
	return 0;
}

void pab_counting_spent(struct pab_counting *c, double wall_s)
{
	c->spent_s += wall_s;
	c->children++;
}

void pab_counting_stop_row(struct pab_counting *c, size_t ri, const char *why)
{
	struct pab_row *row = &c->e->rows[ri];
	char *reason = xstrdup(why);
	size_t k, a;

	for (k = 0; k < row->n_reps; k++)
		for (a = 0; a < c->e->n_arms; a++)
			pab_arm_result_null(&row->reps[k].result[a], PAB_M_INSTRUCTIONS, reason);
	if (!c->quiet)
		note("row '%s': no exact counts: %s", pab_term_safe(row->name), reason);
	free(c->stopped[ri]);
	c->stopped[ri] = reason; /* the row's later reps say it too */
}
