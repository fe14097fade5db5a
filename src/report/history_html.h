/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_html.h — the trend page of the merge history (history_html.c),
 * `perfab history html`. Writes to f and cannot fail (a write error shows
 * at the caller's fclose).
 */
#ifndef PAB_REPORT_HISTORY_HTML_H
#define PAB_REPORT_HISTORY_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "model/history.h"

/*
 * pab_report_history_html: the series s[0..n) of a query over `merges`
 * merges as one self-contained HTML page (inline CSS and SVG, no script,
 * nothing fetched): an index of the charts, a legend of their marks, and
 * per series with a change to chain its chained level and band, the last
 * merge's tolerance either way, a point per merge coloured by its verdict
 * (its change as the ledger reads it on hover), change points and steps of
 * the level, signed y ticks with zero ("+ = worse"), the merges' commits
 * along the x axis. Every name goes through pab_term_safe() and
 * pab_fmt_escape().
 */
void pab_report_history_html(FILE *f, const struct pab_history_series *s, size_t n,
			     size_t merges);

#endif /* PAB_REPORT_HISTORY_HTML_H */
