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
};
/* "text", "json", "markdown" (or "md"), "junit", "html"; 0 or -1. */
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
 * boundaries marked) so drift shows.
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
