/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.c — releasing a history query's records, and what identifies
 * the run a merge records (model/history.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/experiment.h"
#include "model/history.h"
#include "util.h"

void pab_history_set_release(struct pab_history_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		free(set->series[i].pts);
		free(set->series[i].row);
		free(set->series[i].arm);
		free(set->series[i].metric);
	}
	free(set->series);
	for (i = 0; i < set->n_merge_rows; i++)
		pab_history_merge_row_release(&set->merge_rows[i]);
	free(set->merge_rows);
	memset(set, 0, sizeof(*set));
}

void pab_history_merge_row_copy(struct pab_history_merge_row *dst,
				const struct pab_history_merge_row *src)
{
	*dst = *src;
	dst->commit = src->commit ? xstrdup(src->commit) : NULL;
	dst->base = src->base ? xstrdup(src->base) : NULL;
	dst->branch = src->branch ? xstrdup(src->branch) : NULL;
}

void pab_history_merge_row_release(struct pab_history_merge_row *m)
{
	free(m->commit);
	free(m->base);
	free(m->branch);
}

int pab_history_names_cmp(const char *row_a, const char *arm_a, const char *metric_a,
			  const char *row_b, const char *arm_b, const char *metric_b)
{
	int c = strcmp(row_a, row_b);

	if (!c)
		c = strcmp(arm_a, arm_b);
	return c ? c : strcmp(metric_a, metric_b);
}

/* Append the n bytes at p to sb. */
static void add_bytes(struct pab_strbuf *sb, const void *p, size_t n)
{
	pab_strbuf_add(sb, p, n);
}

/* Append v, every NaN as one pattern. */
static void add_double(struct pab_strbuf *sb, double v)
{
	if (isnan(v))
		v = NAN;
	add_bytes(sb, &v, sizeof(v));
}

void *pab_history_measurements(const struct pab_experiment *e, size_t *len)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	size_t r, k, a, m;
	uint64_t u;

	for (a = 0; a < e->n_arms; a++)
		add_bytes(&sb, e->arms[a].name, strlen(e->arms[a].name) + 1);
	for (r = 0; r < e->n_rows; r++) {
		const struct pab_row *row = &e->rows[r];

		add_bytes(&sb, row->name, strlen(row->name) + 1);
		u = row->n_reps;
		add_bytes(&sb, &u, sizeof(u));
		for (k = 0; k < row->n_reps; k++) {
			u = row->reps[k].block;
			add_bytes(&sb, &u, sizeof(u));
			for (a = 0; a < e->n_arms; a++) {
				const struct pab_arm_result *res = &row->reps[k].result[a];

				u = (uint64_t)res->failed;
				add_bytes(&sb, &u, sizeof(u));
				for (m = 0; m < PAB_M_COUNT; m++)
					add_double(&sb, res->m[m]);
			}
		}
	}
	*len = sb.len;
	return pab_strbuf_detach(&sb);
}
