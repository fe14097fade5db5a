/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * text.h — the judged ledger as text for a terminal, and the CI log's
 * reasons of `perfab gate` (text.c). Called through report.h's dispatch.
 * Names from the artifact are written terminal-safe (pab_fmt_name).
 */
#ifndef PAB_REPORT_TEXT_H
#define PAB_REPORT_TEXT_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

/* The text ledger fits PAB_TERM_WIDTH (term.h) columns, wide or not, but
 * for a name from the artifact that is itself too long. */
struct pab_text_opts {
	int wide;   /* add noise, tolerance, allowance, coverage, deciders */
	int color;  /* colour the verdict words (ANSI) */
};

/* The judged ledger l of e as text, to f. */
void pab_report_print_text(FILE *f, const struct pab_experiment *e,
			   const struct pab_ledger *l,
			   const struct pab_text_opts *to);

/*
 * For a CI log: one line per cell that FAILed or holds its row undecided
 * (a required cell), per gated or failed row, and per guard accepted as
 * uncertainty, each "ROW · ARM: METRIC VERDICT CHANGE: REASON", indented
 * by 2 and folded under itself (pab_print_folded) to PAB_TERM_WIDTH
 * columns. Nothing for a row that PASSed cleanly.
 */
void pab_report_gate_reasons(FILE *f, const struct pab_experiment *e,
			     const struct pab_ledger *l);

#endif /* PAB_REPORT_TEXT_H */
