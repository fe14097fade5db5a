/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * reason.h — why a cell is not PASS, in one line with its numbers, for
 * every renderer (the text ledger, Markdown, HTML, CSV and JUnit say the
 * same words).
 */
#ifndef PAB_REASON_H
#define PAB_REASON_H

#include <stddef.h>

#include "judge/ledger.h"

/*
 * What a reason needs besides the cell: the paired reps so far, the
 * rotation's block (reps come in multiples of it), the measured seconds
 * one rep of the row takes (all arms; NaN when unknown), whether the row is
 * a control and its equivalence margin.
 */
struct pab_reason_ctx {
	enum pab_metric_id metric; /* bounds read on its scale: "1.02x slower"
				    * for a ratio, "+2.0%" for an amount */
	enum pab_cell_role role;   /* a GUARD's undecided cell is accepted
				    * uncertainty, not a wait */
	const struct pab_outlook *outlook; /* the cell's, or NULL */
	int held;                  /* a time guard that holds the row's PASS
				    * until its upper end is within
				    * guard_allowance (doc/method.md 8a) */
	double guard_allowance;
	int undecidable;           /* not decidable within cap_n */
	size_t cap_n;
	size_t n, block;
	double rep_seconds;
	int control;
	double margin;
	double conf;   /* the ledger's confidence (0.95) */
};

/* More reps than this are "not decidable at this noise". */
#define PAB_REASON_MAX_MORE 1000

/*
 * The reason a cell is not PASS, in one line with its numbers: which bound
 * the verdict waits for (or which bounds a FAIL crossed), and for an
 * INCONCLUSIVE cell how many more reps would likely decide it and how long
 * that takes ("about 40 more reps, ~3 min"), or that it is not decidable
 * at this noise within PAB_REASON_MAX_MORE reps. The bounds are read from
 * the cell (its allowance, fail threshold and their deciders), not from a
 * rule name. An empty string for PASS and NOT MEASURED.
 */
void pab_fmt_reason(char *buf, size_t len, const struct pab_cell_result *r,
		    const struct pab_reason_ctx *ctx);

/*
 * Why cell c of l (judging e) is not PASS, in one line with its numbers
 * (pab_fmt_reason), then which source counted an exact count and where a
 * tolerance raised by calibration came from; "" for PASS and NOT
 * MEASURED. Truncated to len.
 */
void pab_fmt_cell_reason(const struct pab_experiment *e,
			 const struct pab_ledger *l,
			 const struct pab_ledger_cell *c, char *buf, size_t len);

/* What decided cell result r ("tolerance", "noise", ...: its PASS decider
 * or its FAIL decider), NULL for INCONCLUSIVE and NOT MEASURED. */
const char *pab_fmt_decided_by(const struct pab_cell_result *r);

/* Why cell c of l (NOT_MEASURED) has no values: the first reason its head
 * arm, then its base arm, records for a null of its metric; NULL when
 * none is recorded. Borrowed from e. */
const char *pab_fmt_null_reason(const struct pab_experiment *e, const struct pab_ledger *l,
				const struct pab_ledger_cell *c);
/* The source of e's exact counts, "pmu" or "sim" (NULL: none made). */
const char *pab_fmt_count_source(const struct pab_experiment *e);

#endif /* PAB_REASON_H */
