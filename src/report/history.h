/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.h — the merge history printed: the cells a query selected as
 * text, CSV or Markdown, a series' drift in words, and the trend page
 * (one self-contained HTML file). The JSON forms are report/json.h's.
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
 * series, then a line per merge (at most 83 columns). */
void pab_report_history_text(FILE *f, const struct pab_history_series *s, size_t n,
			     size_t merges);
/* The same as CSV: a header line, then a line per merge and series. */
void pab_report_history_csv(FILE *f, const struct pab_history_series *s, size_t n);
/* The same as one Markdown table. */
void pab_report_history_markdown(FILE *f, const struct pab_history_series *s, size_t n,
				 size_t merges);
/* The drift d of one series in words: the chained change, the verdicts
 * behind it, and when it is beyond the tolerance the merges behind it and
 * the A/B that confirms it; change points and steps of the level. */
void pab_report_history_drift(FILE *f, const struct pab_drift *d, size_t merges);
/* The trend page: per series its chained level and band, a point per
 * merge coloured by its verdict. */
void pab_report_history_html(FILE *f, const struct pab_history_series *s, size_t n,
			     size_t merges);
/* "#12 0123456789ab" (the merge and its commit's first 12 characters,
 * terminal-safe), or "#12"; into buf. Returns buf. */
const char *pab_report_history_commit(const struct pab_history_point *p, char *buf,
				      size_t len);

#endif /* PAB_REPORT_HISTORY_H */
