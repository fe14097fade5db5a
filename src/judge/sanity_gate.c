/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sanity_gate.c — the sanity gate after rep 1 (sanity_gate.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "judge/ledger.h"
#include "judge/sanity_gate.h"
#include "model/sanity.h"

size_t pab_sanity_gate(struct pab_experiment *e)
{
	int base = pab_ledger_base_arm(e);
	size_t ri, a, m, tripped = 0;

	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_rep *rep;

		if (!e->rows[ri].n_reps)
			continue; /* failed before its first rep (setup, warmup) */
		rep = &e->rows[ri].reps[0]; /* reps is NULL until then */
		for (a = 0; a < e->n_arms; a++) {
			if ((int)a == base || !strcmp(e->arms[a].name, "null"))
				continue;
			/* The metrics the table marks for the gate, in its order. */
			for (m = 0; m < PAB_M_COUNT; m++) {
				double b = rep->result[base].m[m];
				double h = rep->result[a].m[m];

				if (!pab_metrics[m].sanity_gate || !isfinite(b) || !isfinite(h) ||
				    h <= PAB_SANITY_FACTOR * b + PAB_SANITY_SLACK_BYTES)
					continue;
				pab_experiment_add_sanity(e, e->rows[ri].name, e->arms[a].name,
							  pab_metrics[m].name, b, h);
				tripped++;
			}
		}
	}
	return tripped;
}
