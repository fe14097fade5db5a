/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * html.h — the judged ledger as one self-contained HTML page (html.c;
 * its plots are svg.h's). Called through report.h's dispatch.
 */
#ifndef PAB_REPORT_HTML_H
#define PAB_REPORT_HTML_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

/*
 * pab_report_html: one HTML5 document with inline CSS and inline SVG, no
 * script and no external resource (a Content-Security-Policy of
 * default-src 'none' says so to the browser). Per row and head arm a
 * forest plot of the paired-change intervals per metric over the noise
 * band [-noise, +noise] and the allowance band [0, allowance]; per row,
 * per metric, a trace of every arm's value against the rep index (block
 * boundaries marked) so drift shows; when the rows are a parameter series
 * (plain command rows that all carry parameters), one plot per head arm of
 * every judged metric's change against the rows, in order. Every string
 * from the artifact is escaped (pab_fmt_escape).
 */
void pab_report_html(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l);

#endif /* PAB_REPORT_HTML_H */
