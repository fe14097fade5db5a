/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.h — the judged ledger as documents: text for a terminal, JSON
 * for tools, Markdown for a pull request, JUnit XML for CI dashboards and
 * one self-contained HTML page with SVG plots for people. Every renderer
 * reads a judged ledger (judge/ledger.h) and the experiment it judged; it
 * computes nothing the ledger has not decided, it only draws it.
 *
 * Every string that comes from an artifact (row, arm and revision names,
 * commands, reasons) is escaped; bytes that are not valid UTF-8 and
 * control characters XML 1.0 forbids are replaced, so a hostile artifact
 * cannot break out of an attribute or inject markup.
 */
#ifndef PAB_REPORT_H
#define PAB_REPORT_H

#include <stdio.h>

#include "model/experiment.h"
#include "judge/ledger.h"

enum pab_report_format {
	PAB_REPORT_TEXT,
	PAB_REPORT_JSON,
	PAB_REPORT_MARKDOWN,
	PAB_REPORT_JUNIT,
	PAB_REPORT_HTML,
	PAB_REPORT_CSV,
};
/* "text", "json", "markdown" (or "md"), "junit", "html", "csv"; 0 or -1. */
int pab_report_format_parse(const char *s, enum pab_report_format *out);

/* Render the judged ledger l of e to f in format fmt. */
void pab_report_print(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, enum pab_report_format fmt);

/* The text ledger fits this many columns unless wide. */
#define PAB_TEXT_WIDTH 100

struct pab_text_opts {
	int wide;   /* add noise, tolerance, allowance, coverage, deciders */
	int color;  /* colour the verdict words (ANSI) */
};

/* The text ledger (text.c) with options (pab_report_print uses { 0, 0 }). */
void pab_report_print_text(FILE *f, const struct pab_experiment *e,
			   const struct pab_ledger *l,
			   const struct pab_text_opts *to);

/* The ledger as JSON, doc/ledger-json.md (json.c). */
void pab_report_json(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l);

/* The ledger as GitHub-flavoured Markdown (markdown.c). */
void pab_report_markdown(FILE *f, const struct pab_experiment *e,
			 const struct pab_ledger *l);

/* Where metric m's tolerance in e came from: "calibration" (run
 * --calibration raised it), "declared" or "default". */
const char *pab_report_tolerance_origin(const struct pab_experiment *e, enum pab_metric_id m);

/* The source of e's exact counts, "pmu" or "sim" (NULL: none made). */
const char *pab_report_count_source(const struct pab_experiment *e);

/*
 * The ledger as CSV (csv.c): a header line, then one line per cell in the
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
 * {metric: unit}, "samples": [{...}]} (null for unmeasured).
 */
void pab_report_samples(FILE *f, const struct pab_experiment *e, int json);

/* Write s as one CSV field (quoted when it holds , " CR or LF; NULL:
 * empty), and v as the JSON documents write it (not finite: empty). */
void pab_report_csv_field(FILE *f, const char *s);
void pab_report_csv_number(FILE *f, double v);

/*
 * Why cell c is not PASS, in one line with its numbers and, for an
 * INCONCLUSIVE cell, an estimate of the reps (and time) that would decide
 * it (format.h, pab_fmt_reason); "" for PASS and NOT MEASURED.
 */
void pab_report_cell_reason(const struct pab_experiment *e,
			    const struct pab_ledger *l,
			    const struct pab_ledger_cell *c, char *buf, size_t len);

/* What decided cell result r ("tolerance", "noise", ...: its PASS decider
 * or its FAIL decider), NULL for INCONCLUSIVE and NOT MEASURED. */
const char *pab_report_decided_by(const struct pab_cell_result *r);

/*
 * For a CI log: one line per cell that FAILed or holds its row undecided
 * (a required cell), per gated or failed row, and per guard accepted as
 * uncertainty, each "ROW · ARM: METRIC VERDICT CHANGE: REASON" folded to
 * nothing (the log wraps). Nothing for a row that PASSed cleanly.
 */
void pab_report_gate_reasons(FILE *f, const struct pab_experiment *e,
			     const struct pab_ledger *l);

/* The pab_fmt_change() flags of a cell: PAB_FMT_NO_SAME unless it PASSed. */
int pab_report_change_flags(const struct pab_ledger_cell *c);

/* 1 when lr's row is a plain command (no workload; throughput is 1/wall). */
int pab_report_plain_row(const struct pab_experiment *e, const struct pab_ledger_row *lr);

/*
 * "required: cpu · guards: minor_faults, peak_rss · shown: wall" for
 * lr's cells, new memory; NULL when every cell is required (perfab/1,
 * rule12, or nothing guards).
 */
char *pab_report_roles_line(const struct pab_ledger *l, const struct pab_ledger_row *lr);

/* "yes", "no" or "unknown". */
const char *pab_report_equivalence_name(enum pab_equivalence q);

/* "pooled from N artifacts (MODE)" for a pooled experiment, or NULL
 * (caller frees). */
char *pab_report_pool_note(const struct pab_experiment *e);

/* The CPU model row was measured on, or "unknown CPU model". */
const char *pab_report_cpu_model(const struct pab_experiment *e,
				 const struct pab_row *row);

/*
 * pab_report_junit: one <testsuite> inside <testsuites>, with the time of
 * the report (UTC, timestamp=) and this host's name (hostname=); a
 * <testcase> per row × head arm with classname "perfab.ROW" ('/' in ROW
 * written as '_') and name "ROW · ARM vs BASE"; <failure> for FAIL;
 * INCONCLUSIVE (never a pass) as <failure type="perfab.INCONCLUSIVE">, as
 * `perfab gate` fails it, or as <skipped> when inconclusive_skipped;
 * <properties> with the rules, n, memory credit and each cell's change,
 * verdict and reason; the suite's properties carry the rules, the overall
 * verdict and the disposition. time= is the head arm's total wall time
 * over the row's reps.
 */
void pab_report_junit(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, int inconclusive_skipped);

/*
 * pab_report_html: one HTML5 document with inline CSS and inline SVG, no
 * script and no external resource (a Content-Security-Policy of
 * default-src 'none' says so to the browser). Per row and head arm a
 * forest plot of the paired-change intervals per metric over the noise
 * band [-noise, +noise] and the allowance band [0, allowance]; per row,
 * per metric, a trace of every arm's value against the rep index (block
 * boundaries marked) so drift shows; when the rows are a parameter series
 * (plain command rows that all carry parameters), one plot per head arm of
 * every judged metric's change against the rows, in order.
 */
void pab_report_html(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l);

/*
 * pab_report_escape: write s to f escaped for XML/HTML text and attribute
 * values (& < > " '); tab, newline and carriage return kept, other control
 * characters and invalid UTF-8 bytes written as U+FFFD.
 */
void pab_report_escape(FILE *f, const char *s);

#endif /* PAB_REPORT_H */
