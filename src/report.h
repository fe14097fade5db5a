/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.h — the ledger as documents for other tools: JUnit XML for CI
 * dashboards and one self-contained HTML page with SVG plots for people.
 * Both read a judged ledger (ledger.h) and the experiment it judged; they
 * compute nothing the ledger has not decided, they only draw it.
 *
 * Every string that comes from an artifact (row, arm and revision names,
 * commands, reasons) is escaped; bytes that are not valid UTF-8 and
 * control characters XML 1.0 forbids are replaced, so a hostile artifact
 * cannot break out of an attribute or inject markup.
 */
#ifndef PAB_REPORT_H
#define PAB_REPORT_H

#include <stdio.h>

#include "experiment.h"
#include "ledger.h"

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
