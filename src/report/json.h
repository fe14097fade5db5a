/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json.h — the judged ledger as JSON, doc/ledger-json.md (json.c).
 * Called through report.h's dispatch.
 */
#ifndef PAB_REPORT_JSON_H
#define PAB_REPORT_JSON_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

/* The judged ledger l of e as one JSON document, to f. */
void pab_report_json(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l);

#endif /* PAB_REPORT_JSON_H */
