/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact_rep.h — one rep as JSON: {"block", "order", "results",
 * "status", "null_reasons"[, "checksums"]} (doc/artifact-schema.md), the
 * same in the artifact's rows[i].reps[j] and in a journal record's "data"
 * (checkpoint.h), so the two cannot disagree.
 */
#ifndef PAB_ARTIFACT_REP_H
#define PAB_ARTIFACT_REP_H

#include <cjson/cJSON.h>

#include "model/experiment.h"
#include "store/json_in.h"
#include "store/json_out.h"

/* pab_artifact_write_rep: rep (of e, whose arms name its results) to w. */
void pab_artifact_write_rep(struct jw *w, const struct pab_experiment *e,
			    const struct pab_rep *rep);

/*
 * pab_artifact_read_rep: the rep o into rep (allocated for e's arms),
 * with the cursor at it (rows[i].reps[j], or a journal record's data).
 * Block, order and every arm's results are checked; what only informs
 * (exit status, null reasons, checksum) is taken when well-formed, and
 * metrics a newer perfab wrote are skipped. Returns 0, or -1 with the
 * problem recorded in the cursor; what was filled in stays for the
 * caller's pab_experiment_release().
 */
int pab_artifact_read_rep(struct pab_json_in *in, const struct pab_experiment *e,
			  const cJSON *o, struct pab_rep *rep);

#endif /* PAB_ARTIFACT_REP_H */
