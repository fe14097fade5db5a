/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * csv.c — the ledger as CSV, one line per cell, and an artifact's raw
 * samples as CSV or JSON, one line (object) per rep and arm, for a
 * spreadsheet or pandas (doc/perfab.1, CSV; csv.h). Fields are quoted
 * as RFC 4180 has them; a number is written as the JSON documents write
 * it (the JSON ledger's values exactly), a value that is not measured as
 * an empty field.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "report/csv.h"
#include "report/format.h"
#include "report/json.h"
#include "util.h"

/* v as the JSON documents write it (not finite: empty). */
static void csv_number(FILE *f, double v)
{
	if (!isfinite(v))
		return;
	/* Written as the JSON documents write it, digit for digit. */
	pab_report_json_number(f, v);
}

/* v exactly: the fewest digits that read back as v (not finite: empty). */
static void exact_number(FILE *f, double v)
{
	char buf[40];
	int digits;

	if (!isfinite(v))
		return;
	for (digits = 15; digits < 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (digits == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, f);
}

/* ",FIELD" */
static void sep_field(FILE *f, const char *s)
{
	fputc(',', f);
	pab_fmt_csv_field(f, s);
}

static void sep_number(FILE *f, double v)
{
	fputc(',', f);
	csv_number(f, v);
}

static const char ledger_header[] =
	"row,arm,base,n,row_verdict,metric,unit,verdict,base_median,head_median,"
	"change,change_lo,change_hi,interval_exists,coverage,tolerance,noise,allowance,"
	"ratio,direction,reason\n";

/* One cell's line. */
static void cell_line(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
		      const struct pab_ledger_row *lr, const struct pab_ledger_cell *c)
{
	const struct pab_cell_result *r = &c->res;
	int measured = r->verdict != PAB_NOT_MEASURED;
	char n[24], why[512];
	struct pab_ratio q;

	pab_fmt_csv_field(f, e->rows[lr->row].name);
	sep_field(f, e->arms[lr->arm].name);
	sep_field(f, e->arms[l->base].name);
	snprintf(n, sizeof(n), "%zu", lr->n);
	sep_field(f, n);
	sep_field(f, pab_verdict_name(lr->verdict));
	sep_field(f, pab_metrics[c->metric].name);
	sep_field(f, pab_metrics[c->metric].unit);
	sep_field(f, pab_verdict_name(r->verdict));
	if (!measured) {
		fputs(",,,,,,,,,,,,,\n", f);
		return;
	}
	pab_change_ratio(c->metric, &r->change, &q);
	pab_fmt_cell_reason(e, l, c, why, sizeof(why));
	sep_number(f, r->base_median);
	sep_number(f, r->head_median);
	sep_number(f, r->change.median);
	sep_number(f, r->change.lo);
	sep_number(f, r->change.hi);
	sep_field(f, r->change.exists ? "true" : "false");
	sep_number(f, r->change.coverage);
	sep_number(f, r->tolerance);
	sep_number(f, r->noise);
	sep_number(f, r->allowance);
	sep_number(f, q.ratio);
	sep_field(f, q.direction);
	sep_field(f, why);
	fputc('\n', f);
}

void pab_report_csv(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l)
{
	size_t i, c;

	fputs(ledger_header, f);
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];

		for (c = 0; c < l->n_cells; c++)
			if (l->cells[c].row == lr->row && l->cells[c].arm == lr->arm)
				cell_line(f, e, l, lr, &l->cells[c]);
	}
}

/* ------------------------------------------------------------------ */
/* Raw samples                                                        */

/* The position of arm a in rep's run order. */
static size_t position_of(const struct pab_rep *rep, size_t n_arms, size_t a)
{
	size_t k;

	for (k = 0; k < n_arms; k++)
		if (rep->order[k] == a)
			return k;
	BUG("arm %zu not in the rep's order", a);
}

static void samples_csv(FILE *f, const struct pab_experiment *e)
{
	size_t ri, r, k, m;

	fputs("row,rep,block,position,arm,failed,exit_code", f);
	for (m = 0; m < PAB_M_COUNT; m++)
		sep_field(f, pab_metrics[m].name);
	fputc('\n', f);
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];

		for (r = 0; r < row->n_reps; r++) {
			const struct pab_rep *rep = &row->reps[r];

			/* In the order the arms ran. */
			for (k = 0; k < e->n_arms; k++) {
				size_t a = rep->order[k];
				const struct pab_arm_result *res = &rep->result[a];

				pab_fmt_csv_field(f, row->name);
				fprintf(f, ",%zu,%zu,%zu", r, rep->block, position_of(rep, e->n_arms, a));
				sep_field(f, e->arms[a].name);
				fprintf(f, ",%s,%d", res->failed ? "true" : "false", res->exit_code);
				for (m = 0; m < PAB_M_COUNT; m++) {
					fputc(',', f);
					exact_number(f, res->m[m]);
				}
				fputc('\n', f);
			}
		}
	}
}

/* Written by hand, not by cJSON: its printer rounds some doubles to 15
 * digits, and the samples must be the artifact's exactly. */
static void samples_json(FILE *f, const struct pab_experiment *e)
{
	size_t ri, r, k, m, n = 0;

	fputs("{\n\"schema\": \"perfab-samples/1\",\n\"units\": {", f);
	for (m = 0; m < PAB_M_COUNT; m++)
		fprintf(f, "%s\"%s\": \"%s\"", m ? ", " : "", pab_metrics[m].name,
			pab_metrics[m].unit);
	fputs("},\n\"samples\": [", f);
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];

		for (r = 0; r < row->n_reps; r++) {
			const struct pab_rep *rep = &row->reps[r];

			for (k = 0; k < e->n_arms; k++) {
				size_t a = rep->order[k];
				const struct pab_arm_result *res = &rep->result[a];

				fputs(n++ ? ",\n{\"row\": " : "\n{\"row\": ", f);
				pab_report_json_string(f, row->name);
				fprintf(f, ", \"rep\": %zu, \"block\": %zu, \"position\": %zu, \"arm\": ",
					r, rep->block, k);
				pab_report_json_string(f, e->arms[a].name);
				fprintf(f, ", \"failed\": %s, \"exit_code\": %d",
					res->failed ? "true" : "false", res->exit_code);
				for (m = 0; m < PAB_M_COUNT; m++) {
					fprintf(f, ", \"%s\": ", pab_metrics[m].name);
					if (isfinite(res->m[m]))
						exact_number(f, res->m[m]);
					else
						fputs("null", f);
				}
				fputc('}', f);
			}
		}
	}
	fputs("\n]\n}\n", f);
}

void pab_report_samples(FILE *f, const struct pab_experiment *e, int json)
{
	if (json)
		samples_json(f, e);
	else
		samples_csv(f, e);
}
