/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribution_json.h — the artifact's "attribution" list
 * (doc/artifact-schema.md §8a): each row × head arm × metric's profile
 * difference (model/attribution.h), written after "rows" when the
 * experiment has any, and read back checked, so that `perfab ledger`
 * shows it without running anything.
 */
#ifndef PAB_STORE_ATTRIBUTION_JSON_H
#define PAB_STORE_ATTRIBUTION_JSON_H

#include <cjson/cJSON.h>

#include "model/experiment.h"
#include "store/json_in.h"
#include "store/json_out.h"

/* ,"attribution":[...] when e has attributions, else nothing. */
void pab_attribution_json_write(struct jw *w, const struct pab_experiment *e);

/* root's "attribution" (absent: none) into e->attr. Returns 0, or -1
 * with the problem recorded in in (a wrong type, an unknown metric). */
int pab_attribution_json_read(struct pab_json_in *in, const cJSON *root,
			      struct pab_experiment *e);

#endif /* PAB_STORE_ATTRIBUTION_JSON_H */
