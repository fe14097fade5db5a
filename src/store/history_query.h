/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_query.h — a history query held whole: every series f selects,
 * with its points, read through pab_history_scan (history_db.h), for the
 * commands that show or draw every merge (`history show`, `history
 * html`). `history drift` streams instead.
 */
#ifndef PAB_STORE_HISTORY_QUERY_H
#define PAB_STORE_HISTORY_QUERY_H

#include "model/history.h"
#include "store/history_db.h"

/*
 * pab_history_query: the series f selects into *out, each in record
 * order, the series ordered by row, arm and metric (release with
 * pab_history_set_release, model/history.h). Errors are
 * pab_history_scan's. Returns 0 or -1 (out then empty).
 */
int pab_history_query(struct pab_history_db *db, const struct pab_history_filter *f,
		      struct pab_history_set *out, char **why);

#endif /* PAB_STORE_HISTORY_QUERY_H */
