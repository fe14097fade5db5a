/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_query.c — a history query held whole (history_query.h), built
 * from the cells pab_history_scan streams.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "store/history_query.h"
#include "util.h"

/* pab_history_query's scan: the set and the merge its last point was of. */
struct query {
	struct pab_history_set *set;
	struct pab_history_merge_row *mr;
};

static void query_point(void *ctx, size_t series, const char *row, const char *arm,
			const char *metric, const struct pab_history_point *p)
{
	struct query *q = ctx;
	struct pab_history_set *set = q->set;
	struct pab_history_series *s;
	struct pab_history_point *pt;

	if (!set->merge_rows) /* sized once: the points point into it */
		set->merge_rows = xcalloc(set->merges + 1, sizeof(*set->merge_rows));
	if (series == set->n) {
		set->series = xgrow(set->series, sizeof(*set->series), set->n + 1, &set->alloc);
		s = &set->series[set->n++];
		memset(s, 0, sizeof(*s));
		s->row = xstrdup(row);
		s->arm = xstrdup(arm);
		s->metric = xstrdup(metric);
	}
	s = &set->series[series];
	if (!q->mr || q->mr->id != p->merge->id) { /* a merge, once */
		q->mr = &set->merge_rows[set->n_merge_rows++];
		pab_history_merge_row_copy(q->mr, p->merge);
	}
	/* A series holds at most one point a merge: doubled, but never past
	 * the number of merges (no slack at the end of a series that has
	 * every merge). */
	if (s->n == s->alloc) {
		size_t cap = s->alloc < 32 ? 64 : 2 * s->alloc;

		if (cap > set->merges)
			cap = set->merges;
		if (cap <= s->n)
			cap = s->n + 1;
		s->pts = xrealloc(s->pts, cap * sizeof(*s->pts));
		s->alloc = cap;
	}
	pt = &s->pts[s->n++];
	*pt = *p;
	pt->merge = q->mr;
}

static int cmp_series(const void *a, const void *b)
{
	const struct pab_history_series *x = a, *y = b;

	return pab_history_names_cmp(x->row, x->arm, x->metric, y->row, y->arm, y->metric);
}

int pab_history_query(struct pab_history_db *h, const struct pab_history_filter *f,
		      struct pab_history_set *set, char **why)
{
	struct query q = { set, NULL };

	memset(set, 0, sizeof(*set));
	if (pab_history_scan(h, f, query_point, &q, &set->merges, why)) {
		pab_history_set_release(set);
		return -1;
	}
	if (!set->merge_rows)
		set->merge_rows = xcalloc(1, sizeof(*set->merge_rows));
	if (set->n > 1)
		qsort(set->series, set->n, sizeof(*set->series), cmp_series);
	return 0;
}
