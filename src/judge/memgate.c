/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * memgate.c — the memory gate's rules (memgate.h): the table of every
 * run's peaks, the minimum over runs, the coverage of a baseline and the
 * verdict per scenario.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/memgate.h"
#include "term.h"
#include "util.h"

void pab_memgate_table_init(struct pab_memgate_table *t, size_t n_runs)
{
	memset(t, 0, sizeof(*t));
	t->n_runs = n_runs;
}

void pab_memgate_table_release(struct pab_memgate_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->scenario[i]);
	free(t->scenario);
	free(t->peak);
	free(t->ran);
	memset(t, 0, sizeof(*t));
}

int pab_memgate_scenario_index(const struct pab_memgate_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->scenario[i], name))
			return (int)i;
	return -1;
}

double pab_memgate_peak(const struct pab_memgate_table *t, size_t s, size_t r)
{
	return t->peak[s * t->n_runs + r];
}

int pab_memgate_ran(const struct pab_memgate_table *t, size_t s, size_t r)
{
	return t->ran[s * t->n_runs + r];
}

/* A new scenario, no run has it yet; returns its index. */
static size_t add_scenario(struct pab_memgate_table *t, const char *name)
{
	size_t k;

	ALLOC_GROW(t->scenario, t->n + 1, t->alloc);
	t->scenario[t->n] = xstrdup(name);
	t->peak = xrealloc(t->peak, (t->n + 1) * t->n_runs * sizeof(*t->peak));
	t->ran = xrealloc(t->ran, (t->n + 1) * t->n_runs * sizeof(*t->ran));
	for (k = 0; k < t->n_runs; k++) {
		t->peak[t->n * t->n_runs + k] = NAN;
		t->ran[t->n * t->n_runs + k] = 0;
	}
	return t->n++;
}

/* Median peak_rss of arm over row's reps, NaN when never measured. */
static double row_peak(const struct pab_row *row, size_t arm)
{
	double *v = xcalloc(row->n_reps + 1, sizeof(*v)), med;
	size_t r;

	for (r = 0; r < row->n_reps; r++)
		v[r] = row->reps[r].result[arm].m[PAB_M_PEAK_RSS];
	med = pab_metric_aggregate(PAB_M_PEAK_RSS, v, row->n_reps);
	free(v);
	return med;
}

void pab_memgate_table_add_run(struct pab_memgate_table *t, size_t run,
			       const struct pab_experiment *e, size_t arm)
{
	size_t r;

	for (r = 0; r < e->n_rows; r++) {
		int s = pab_memgate_scenario_index(t, e->rows[r].name);
		size_t k = s < 0 ? add_scenario(t, e->rows[r].name) : (size_t)s;

		t->peak[k * t->n_runs + run] = row_peak(&e->rows[r], arm);
		t->ran[k * t->n_runs + run] = 1;
	}
}

double pab_memgate_scenario_min(const struct pab_memgate_table *t, size_t s)
{
	double m = NAN;
	size_t r;

	for (r = 0; r < t->n_runs; r++) {
		double v = pab_memgate_peak(t, s, r);

		if (isfinite(v) && !(v >= m))
			m = v;
	}
	return m;
}

double pab_memgate_spread_pct(const struct pab_memgate_table *t, size_t s)
{
	double lo = pab_memgate_scenario_min(t, s), hi = lo;
	size_t r;

	for (r = 0; r < t->n_runs; r++)
		if (isfinite(pab_memgate_peak(t, s, r)) && pab_memgate_peak(t, s, r) > hi)
			hi = pab_memgate_peak(t, s, r);
	return isfinite(lo) && lo > 0 ? (hi - lo) / lo * 100 : NAN;
}

int pab_memgate_table_complete(const struct pab_memgate_table *t,
			       size_t *scenario, size_t *run)
{
	size_t s, r;

	for (s = 0; s < t->n; s++)
		for (r = 0; r < t->n_runs; r++)
			if (!isfinite(pab_memgate_peak(t, s, r))) {
				*scenario = s;
				*run = r;
				return 0;
			}
	return 1;
}

void pab_memgate_baseline_of(const struct pab_memgate_table *t, const char *arm,
			     const char *cpu_model, struct pab_memgate_baseline *b)
{
	size_t s;

	memset(b, 0, sizeof(*b));
	b->name = xcalloc(t->n ? t->n : 1, sizeof(*b->name));
	b->bytes = xcalloc(t->n ? t->n : 1, sizeof(*b->bytes));
	for (s = 0; s < t->n; s++) {
		b->name[s] = xstrdup(t->scenario[s]);
		b->bytes[s] = round(pab_memgate_scenario_min(t, s));
	}
	b->n = t->n;
	b->arm = arm ? xstrdup(arm) : NULL;
	b->cpu_model = cpu_model ? xstrdup(cpu_model) : NULL;
	b->runs = t->n_runs;
}

enum pab_memgate_gap pab_memgate_coverage(const struct pab_memgate_table *t,
					  const struct pab_memgate_baseline *b,
					  size_t *run, size_t *scenario,
					  size_t *n_missing, char **missing)
{
	size_t r, s;

	*missing = NULL;
	*n_missing = 0;
	for (r = 0; r < t->n_runs; r++) {
		struct pab_strbuf miss = PAB_STRBUF_INIT;
		size_t n_miss = 0;

		for (s = 0; s < b->n; s++) {
			int k = pab_memgate_scenario_index(t, b->name[s]);
			int ran = k >= 0 && pab_memgate_ran(t, (size_t)k, r);

			if (ran && !isfinite(pab_memgate_peak(t, (size_t)k, r))) {
				pab_strbuf_release(&miss);
				*run = r;
				*scenario = s;
				return PAB_MEMGATE_NO_PEAK;
			}
			if (!ran) {
				pab_strbuf_addf(&miss, "%s'%s'", n_miss ? ", " : "",
						pab_term_safe(b->name[s]));
				n_miss++;
			}
		}
		if (n_miss) {
			*run = r;
			*n_missing = n_miss;
			*missing = pab_strbuf_detach(&miss);
			return PAB_MEMGATE_FILTERED;
		}
		pab_strbuf_release(&miss);
	}
	return PAB_MEMGATE_COVERED;
}

size_t pab_memgate_judge(const struct pab_memgate_table *t,
			 const struct pab_memgate_baseline *b, double tolerance_pct,
			 struct pab_memgate_result *out, size_t *first)
{
	size_t s, regressions = 0;

	*first = (size_t)-1;
	for (s = 0; s < b->n; s++) {
		struct pab_memgate_result *res = &out[s];
		int k = pab_memgate_scenario_index(t, b->name[s]);

		if (k < 0)
			BUG("memgate: baseline scenario '%s' not in the runs", b->name[s]);
		res->scenario = (size_t)k;
		res->limit = b->bytes[s] * (1 + tolerance_pct / 100);
		res->min = pab_memgate_scenario_min(t, res->scenario);
		res->change_pct = (res->min - b->bytes[s]) / b->bytes[s] * 100;
		res->over = res->min > res->limit;
		if (res->over && !regressions++)
			*first = s;
	}
	return regressions;
}
