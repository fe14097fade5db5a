/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * judgeable.c — whether an experiment can be judged, and the default
 * required cells of exact counts (judgeable.h).
 */
#include "config.h"

#include <stdlib.h>

#include "model/judgeable.h"
#include "util.h"

enum pab_unjudgeable pab_artifact_judgeable(const struct pab_experiment *e,
					    const char *label, char **why)
{
	char *inner;

	*why = NULL;
	if (e->stopped_by == PAB_STOP_SANITY_GATE) {
		*why = xasprintf("'%s' was stopped by the sanity gate: its head's memory "
				 "blew up at rep 1", label);
		return PAB_UNJUDGEABLE_SANITY;
	}
	if (!e->complete) {
		*why = xasprintf("'%s' is incomplete (\"complete\": false): the run was "
				 "interrupted before its last rep", label);
		return PAB_UNJUDGEABLE_INCOMPLETE;
	}
	if (pab_experiment_check_balanced(e, &inner)) {
		*why = xasprintf("'%s' is unbalanced: %s; only complete blocks of the "
				 "rotation count", label, inner);
		free(inner);
		return PAB_UNJUDGEABLE_UNBALANCED;
	}
	return PAB_JUDGEABLE;
}

int pab_counts_default_require(const struct pab_run_settings *s, int required[PAB_M_COUNT])
{
	size_t i;

	if (!(s->given & PAB_RUN_COUNTS) || s->count_source == PAB_COUNT_NONE)
		return 0;
	for (i = 0; i < PAB_M_COUNT; i++)
		required[i] = 0;
	required[PAB_M_INSTRUCTIONS] = 1;
	return 1;
}
