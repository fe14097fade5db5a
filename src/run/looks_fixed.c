/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * looks_fixed.c — rows whose FAIL is fixed before their first planned
 * look (looks_fixed.h).
 */
#include "config.h"

#include <stdlib.h>

#include "diag.h"
#include "run/looks_fixed.h"
#include "term.h"
#include "util.h"

int pab_looks_fixed_fail(const struct pab_experiment *e, const struct pab_counting *c,
			 const struct pab_ledger *l, size_t ri)
{
	size_t i;

	if (!c->active || pab_counting_rep(c, ri, e->rows[ri].n_reps))
		return 0; /* a later rep counts: its pairs could move the cell */
	for (i = 0; i < l->n_cells; i++) {
		const struct pab_ledger_cell *cell = &l->cells[i];

		if (cell->row == ri && cell->res.exact && cell->res.verdict == PAB_FAIL)
			return 1;
	}
	return 0;
}

/* 1 when row ri may stop now if its FAIL is fixed: a whole number of
 * blocks (the rotation stays balanced), short of its target and the first
 * look, not failed. */
static int may_stop(const struct pab_experiment *e, size_t ri, size_t first_look,
		    const size_t *row_target)
{
	const struct pab_row *row = &e->rows[ri];

	return !row->failed && row->n_reps && e->n_arms && row->n_reps % e->n_arms == 0 &&
		row->n_reps < row_target[ri] && row->n_reps < first_look;
}

/* 1 at the first block end of row ri where no later rep counts (the
 * block before it ended with a rep still to count, or this is the first).
 * From then on the exact cells' pairs only repeat, so whether a count
 * FAILs the row cannot change: asked once, not at every block end (each
 * ask builds the ledger, which sorts every cell: with --reps 1600 that
 * was ~5% of perfab's CPU). */
static int counts_settle_now(const struct pab_experiment *e, const struct pab_counting *c,
			     size_t ri)
{
	size_t n = e->rows[ri].n_reps;

	return !pab_counting_rep(c, ri, n) &&
		(n <= e->n_arms || pab_counting_rep(c, ri, n - e->n_arms));
}

size_t pab_looks_stop_fixed(const struct pab_experiment *e, const struct pab_counting *c,
			    size_t first_look, size_t *row_target, int quiet)
{
	struct pab_ledger l;
	struct pab_ledger_opts lo;
	size_t ri, stopped = 0;
	char *why;

	if (!c->active)
		return 0;
	for (ri = 0; ri < e->n_rows && !(may_stop(e, ri, first_look, row_target) &&
					 counts_settle_now(e, c, ri)); ri++)
		;
	if (ri == e->n_rows)
		return 0;
	pab_ledger_opts_init(&lo, e);
	if (pab_ledger_build(e, &lo, &l, &why)) {
		free(why);
		return 0;
	}
	for (ri = 0; ri < e->n_rows; ri++) {
		if (!may_stop(e, ri, first_look, row_target) || !counts_settle_now(e, c, ri) ||
		    pab_ledger_row_verdict(&l, ri) != PAB_FAIL || !pab_looks_fixed_fail(e, c, &l, ri))
			continue;
		if (!quiet)
			note("row '%s' FAILs on its exact counts after %zu reps, and no later rep "
			     "can change that: stopping the row before its look at %zu",
			     pab_term_safe(e->rows[ri].name), e->rows[ri].n_reps, row_target[ri]);
		row_target[ri] = e->rows[ri].n_reps;
		stopped++;
	}
	pab_ledger_release(&l);
	return stopped;
}
