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

/*
 * pab_report_attribution_brief: one line of what moved most in the cell
 * of metric m of row × arm ("moved most: sort_keys +1.50 M, 99.9% of the
 * change (cachegrind, the counting pass)"; a cpu or wall cell reads the
 * profile of time), for the gate's reasons; NULL when e has none with a
 * name. New memory.
 */
char *pab_report_attribution_brief(const struct pab_experiment *e, const char *row,
				   const char *arm, enum pab_metric_id m);

/* As HTML, under the row's cells in the HTML report: a heading, a table
 * of the top names, and for a profile of time a differential flame graph
 * of its folded stacks (an SVG, every name escaped). */
void pab_report_attribution_html(FILE *f, const struct pab_experiment *e, const char *row,
				 const char *arm);

/* The pieces the Markdown report shares (report/markdown.c). */
/* Names listed of each attribution (the artifact keeps PAB_ATTR_TOP). */
#define PAB_REPORT_ATTR_SHOWN 5
/* "+2.40 M", "-32.0 MiB": a signed amount of metric m. */
void pab_report_attr_signed(char *buf, size_t len, enum pab_metric_id m, double v);
/* The last component of a path (a profile's file names are the build's). */
const char *pab_report_attr_base_name(const char *path);
/* The blocks of a heap item, " · in 1 block ...", or "" for other kinds. */
struct pab_attr_item;
void pab_report_attr_blocks(char *buf, size_t len, const struct pab_attr_item *x);
/* The heading sentence of a, starting "what moved in" (new memory). */
struct pab_attribution;
char *pab_report_attr_heading(const struct pab_attribution *a);

#endif /* PAB_REPORT_ATTRIBUTION_H */
