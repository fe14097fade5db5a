/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.h — the merge history printed: the cells a query selected as
 * text, CSV or Markdown, and a series' drift in words. The trend page is
 * report/history_html.h's, the JSON forms report/json.h's.
 * Every function writes to f and cannot fail (a write error shows at the
 * caller's fclose).
 */
#ifndef PAB_REPORT_HISTORY_H
#define PAB_REPORT_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "judge/history.h"
#include "model/history.h"

/* The series s[0..n) of a query over `merges` merges: a header per
 * series, then a line per merge, its change as the ledger reads it
 * (pab_report_history_change), within 100 columns (a long change goes on
 * a line of its own). */
void pab_report_history_text(FILE *f, const struct pab_history_series *s, size_t n,
			     size_t merges);
/* The same as CSV: a header line, then a line per merge and series, the
 * figures as recorded (percentages), every name terminal-safe. */
void pab_report_history_csv(FILE *f, const struct pab_history_series *s, size_t n);
/* The same as one Markdown table, the changes as the ledger reads them,
 * every name through pab_markdown_escape() (markdown.h). */
void pab_report_history_markdown(FILE *f, const struct pab_history_series *s, size_t n,
				 size_t merges);
/* The drift d of one series in words: the chained change, the verdicts
 * behind it, and when it is beyond the tolerance the merges behind it and
 * the A/B that confirms it; change points and steps of the level. */
void pab_report_history_drift(FILE *f, const struct pab_drift *d, size_t merges);
/* The drifts d[0..n) summed up before their blocks: a line of counts,
 * then one line per series with a chain, its word (DRIFT, GAIN, or none:
 * no whole interval beyond the tolerance), chained change and interval
 * and name, the DRIFTs first, then the GAINs, then the rest, each in
 * series order; nothing when no series has a chain. */
void pab_report_history_drift_summary(FILE *f, const struct pab_drift *d, size_t n,
				      size_t merges);
/* The drift d of one series as one Markdown line (its first text line,
 * and DRIFT or GAIN when the chained change is beyond the tolerance), the
 * names through pab_markdown_escape(): for a pull-request comment. */
void pab_report_history_drift_markdown(FILE *f, const struct pab_drift *d);
/* "#12 0123456789ab" (the merge and its commit's first 12 characters,
 * terminal-safe), or "#12"; into buf. Returns buf. */
const char *pab_report_history_commit(const struct pab_history_point *p, char *buf,
				      size_t len);
/*
 * Point p of series s: its paired change as the ledger reads it
 * (pab_fmt_change with flags, PAB_FMT_NO_SAME added unless it PASSed),
 * except that an interval of a ratio that reaches from faster to slower
 * names no direction: "unclear: 1.63x faster to 1.39x slower". "-" when
 * the change is not finite; the bare percentages for a metric this perfab
 * does not know. Into buf.
 */
void pab_report_history_change(char *buf, size_t len, const struct pab_history_series *s,
			       const struct pab_history_point *p, int flags);

#endif /* PAB_REPORT_HISTORY_H */
