/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * csv.h — the judged ledger as CSV, and an artifact's raw samples or each
 * arm's descriptive statistics as CSV or JSON (csv.c; doc/perfab.1, CSV
 * and PERFAB EXPORT). Called through report.h's dispatch.
 * Fields are quoted as RFC 4180 has them; a number is written as the JSON
 * documents write it, a value that is not measured as an empty field.
 */
#ifndef PAB_REPORT_CSV_H
#define PAB_REPORT_CSV_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

/*
 * The ledger as CSV: a header line, then one line per cell in the
 * JSON ledger's order — row, arm, base, n, row_verdict, metric, unit,
 * verdict, base_median, head_median, change, change_lo, change_hi,
 * interval_exists, coverage, tolerance, noise, allowance, ratio,
 * direction, reason — each number the JSON ledger's (base_median,
 * head_median, change.median/lo/hi/exists/coverage, tolerance, noise,
 * allowance, ratio, direction, reason), empty when not measured.
 */
void pab_report_csv(FILE *f, const struct pab_experiment *e,
		    const struct pab_ledger *l);

/*
 * pab_report_samples: e's raw samples, one per rep and arm in the order
 * the arms ran — row, rep (0-based), block, position (in the rep's
 * order), arm, failed, exit_code, then every metric of the metric table
 * in its unit — as CSV (a header line first; an unmeasured value is an
 * empty field), or with json as {"schema": "perfab-samples/1", "units":
 * {metric: unit}, "samples": [{...}]} (null for unmeasured). Each value
 * exactly, in the fewest digits that read back as it.
 */
void pab_report_samples(FILE *f, const struct pab_experiment *e, int json);

/*
 * pab_report_stats: each arm's descriptive statistics, per row, arm (in
 * e's order) and metric (in the table's): row, arm, metric, unit, n (the
 * values measured), failed (the reps the arm failed, their values left
 * out), mean, stddev (the sample's, n - 1: empty below 2 values), median,
 * min, max, each exactly as pab_report_samples writes values; a metric
 * no rep of the arm measured is left out. CSV with a header line, or with
 * json {"schema": "perfab-stats/1", "stats": [{...}]} (null for empty).
 * Nothing is judged: these are what hyperfine prints per command.
 */
void pab_report_stats(FILE *f, const struct pab_experiment *e, int json);

#endif /* PAB_REPORT_CSV_H */
