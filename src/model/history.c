/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.c — releasing a history query's records (model/history.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/history.h"

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
	for (i = 0; i < set->n_merge_rows; i++) {
		free(set->merge_rows[i].commit);
		free(set->merge_rows[i].base);
		free(set->merge_rows[i].branch);
	}
	free(set->merge_rows);
	memset(set, 0, sizeof(*set));
}
