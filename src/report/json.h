/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json.h — JSON text for the other renderers, written the way the JSON
 * ledger writes it (json.c), so that they need no JSON library of their
 * own.
 */
#ifndef PAB_REPORT_JSON_H
#define PAB_REPORT_JSON_H

#include <stdio.h>

/* v (finite) as cJSON prints a number, digit for digit, to f. */
void pab_report_json_number(FILE *f, double v);
/* s as a JSON string (cJSON's escaping) to f. */
void pab_report_json_string(FILE *f, const char *s);

#endif /* PAB_REPORT_JSON_H */
