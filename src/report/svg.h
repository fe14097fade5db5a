/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg.h — the HTML page's plots, each one inline <svg> element written
 * to f (svg.c; the page is html.h's). Pure drawing: the numbers are the
 * judged ledger's, the coordinates computed in plain C, every string from
 * the artifact escaped (pab_fmt_escape).
 */
#ifndef PAB_REPORT_SVG_H
#define PAB_REPORT_SVG_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

/* The colour of arm a in every plot and legend: base blue, null grey,
 * heads from the palette in arm order. */
const char *pab_svg_arm_color(const struct pab_experiment *e,
			      const struct pab_ledger *l, size_t a);

/* A "nice" step of an axis over span (1, 2 or 5 times a power of ten)
 * that gives about `want` ticks; 1 for an empty or non-finite span. The
 * trend page's axis uses it too. */
double pab_svg_nice_step(double span, int want);

/*
 * The forest plot of row × head arm lr: one line per cell, the paired
 * change's median and interval over the noise band and the allowance
 * band, on a log axis of the factor by which head is worse or better.
 */
void pab_svg_forest(FILE *f, const struct pab_experiment *e,
		    const struct pab_ledger *l, const struct pab_ledger_row *lr);

/* Metric m's trace on row: every arm's value against the rep index, block
 * boundaries marked. Nothing when no value of m was measured. */
void pab_svg_trace(FILE *f, const struct pab_experiment *e,
		   const struct pab_ledger *l, const struct pab_row *row,
		   enum pab_metric_id m);

/*
 * One plot of a parameter series for head arm a: the paired change of
 * every judged metric (dot: median, bar: its interval) against the rows
 * in order, on the forest plots' log-factor scale, worse upwards; then its
 * legend, an HTML paragraph (the metrics' colours and the axis' words).
 */
void pab_svg_series(FILE *f, const struct pab_experiment *e,
		    const struct pab_ledger *l, size_t a);

#endif /* PAB_REPORT_SVG_H */
