/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json.h — the judged ledger as JSON, doc/ledger-json.md, called through
 * report.h's dispatch; the JSON forms of the merge history; and JSON
 * text for the other renderers, written the way the JSON ledger writes it,
 * so that they need no JSON library of their own (json.c). The documents
 * are indented; numbers that are not finite are null.
 */
#ifndef PAB_REPORT_JSON_H
#define PAB_REPORT_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "judge/history.h"
#include "judge/ledger.h"
#include "model/experiment.h"
#include "model/history.h"

/* The judged ledger l of e as one JSON document, to f. */
void pab_report_json(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l);

/* {"merges": N, "cells": [...]}: a cell per merge and series s[0..n). */
void pab_report_history_json(FILE *f, const struct pab_history_series *s, size_t n,
			     size_t merges);
/* {"merges": N, "series": [...], "drifted": K}: the drift d[i] of every
 * series with something chained; K of them drifted beyond the tolerance. */
void pab_report_history_drift_json(FILE *f, const struct pab_drift *d, size_t n_series,
				   size_t merges);

/* v (finite) as cJSON prints a number, digit for digit, to f. */
void pab_report_json_number(FILE *f, double v);
/* s as a JSON string (cJSON's escaping) to f. */
void pab_report_json_string(FILE *f, const char *s);

#endif /* PAB_REPORT_JSON_H */
