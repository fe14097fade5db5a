/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * junit.h — the judged ledger as JUnit XML for CI dashboards (junit.c).
 * Called through report.h's dispatch.
 */
#ifndef PAB_REPORT_JUNIT_H
#define PAB_REPORT_JUNIT_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

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
 * over the row's reps. Strings are escaped (pab_fmt_escape).
 */
void pab_report_junit(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, int inconclusive_skipped);

#endif /* PAB_REPORT_JUNIT_H */
