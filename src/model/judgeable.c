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
