/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribution.h — what moved, under a row of the ledger (doc/attribution.md
 * §5): each attribution the experiment holds for the row × head arm (one
 * per pooled input that made one), its top movers with their change and
 * share of the row's total change, how much of the change they explain,
 * and its note. Nothing is printed for a row without one, so a ledger of
 * an artifact without attribution is what it was.
 */
#ifndef PAB_REPORT_ATTRIBUTION_H
#define PAB_REPORT_ATTRIBUTION_H

#include <stdio.h>

#include "model/experiment.h"

/* As text, 2 columns in, each line within the output width. */
void pab_report_attribution_text(FILE *f, const struct pab_experiment *e, const char *row,
				 const char *arm);

/* Every attribution of e as Markdown, under a heading "What moved": a
 * paragraph and a table each (outside the folded details: it is what a
 * reader of a FAIL wants first). */
void pab_report_attribution_markdown(FILE *f, const struct pab_experiment *e);

#endif /* PAB_REPORT_ATTRIBUTION_H */
