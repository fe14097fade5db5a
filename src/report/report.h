/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.h — the judged ledger as documents, through one dispatch: text
 * for a terminal, JSON for tools, Markdown for a pull request, JUnit XML
 * for CI dashboards, CSV for a spreadsheet and one self-contained HTML
 * page with SVG plots for people; and an artifact's raw samples or each
 * arm's descriptive statistics as CSV or JSON, and the CI log's reasons of
 * `perfab gate`. Every caller prints
 * through pab_report_print(); the format table (names, and what each
 * format can print) is report.c's alone, and report.c is the only file
 * that calls a renderer (text.h, json.h, markdown.h, junit.h, html.h,
 * csv.h). A renderer reads a judged ledger (judge/ledger.h) and the
 * experiment it judged; it computes nothing the ledger has not decided,
 * it only draws it.
 *
 * Every string that comes from an artifact (row, arm and revision names,
 * commands, reasons) is escaped; bytes that are not valid UTF-8 and
 * control characters XML 1.0 forbids are replaced, so a hostile artifact
 * cannot break out of an attribute or inject markup.
 */
#ifndef PAB_REPORT_H
#define PAB_REPORT_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

enum pab_report_format {
	PAB_REPORT_TEXT,
	PAB_REPORT_JSON,
	PAB_REPORT_MARKDOWN,
	PAB_REPORT_JUNIT,
	PAB_REPORT_HTML,
	PAB_REPORT_CSV,
};

/* What is printed. */
enum pab_report_what {
	PAB_REPORT_LEDGER,       /* the judged ledger: every format */
	PAB_REPORT_SAMPLES,      /* the raw samples, no ledger: csv, json */
	PAB_REPORT_GATE_REASONS, /* why the gate did not pass, for a CI
				  * log (text.h): text */
	PAB_REPORT_STATS,        /* each arm's mean, stddev, median, min
				  * and max per row and metric, no
				  * ledger: csv, json */
};

/* How to print: the format and what the renderers take. */
struct pab_report_opts {
	enum pab_report_format format;
	enum pab_report_what what;
	int wide;          /* text: add noise, tolerance, allowance,
			    * coverage, deciders */
	int color;         /* text: colour the verdict words (ANSI) */
	int junit_skipped; /* junit: INCONCLUSIVE as <skipped>, not as
			    * <failure type="perfab.INCONCLUSIVE"> */
};

/* *o for the ledger in format fmt, every option off. */
void pab_report_opts_init(struct pab_report_opts *o, enum pab_report_format fmt);

/* "text", "json", "markdown" (or "md"), "junit", "html", "csv"; 0 or -1. */
int pab_report_format_parse(const char *s, enum pab_report_format *out);

/* The name pab_report_format_parse reads fmt by ("markdown"). */
const char *pab_report_format_name(enum pab_report_format fmt);

/* 1 when format fmt can print what, else 0. */
int pab_report_can(enum pab_report_format fmt, enum pab_report_what what);

/*
 * Print what o asks to f: of e, judged as l (l is not read for the
 * samples and the statistics, and may be NULL there). Returns 0, or -1 printing nothing when
 * o's format cannot print what (pab_report_can). The caller checks f's
 * errors (fclose, fflush).
 */
int pab_report_print(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l, const struct pab_report_opts *o);

#endif /* PAB_REPORT_H */
