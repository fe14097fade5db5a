/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * csv.c — the ledger as CSV, one line per cell, and an artifact's raw
 * samples as CSV or JSON, one line (object) per rep and arm, or each
 * arm's mean, standard deviation, median, minimum and maximum per row and
 * metric (what hyperfine users export), for a spreadsheet or pandas
 * (doc/perfab.1, PERFAB EXPORT; csv.h). Fields are quoted
 * as RFC 4180 has them; a number is written as the JSON documents write
 * it (the JSON ledger's values exactly), a value that is not measured as
 * an empty field.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "pab_stats.h"
#include "report/csv.h"
#include "report/format.h"
#include "report/reason.h"
#include "report/markup.h"
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

/* ------------------------------------------------------------------ */
/* Each arm's descriptive statistics                                  */

/* Of one arm's values of one metric in one row: what hyperfine's summary
 * gives a command (nothing is judged). */
struct arm_stats {
	size_t n, failed;      /* values measured; reps the arm failed */
	double mean, stddev;   /* stddev: the sample's (n - 1); NaN below 2 */
	double median, min, max;
};

/*
 * The statistics of arm a's metric m over row's reps, failed reps left
 * out (counted in failed). buf holds row->n_reps values (the caller's
 * scratch). A metric no rep measured has n = 0 and NaN figures.
 */
static void arm_stats(const struct pab_row *row, size_t a, size_t m, double *buf,
		      struct arm_stats *s)
{
	double sum = 0, ss = 0;
	size_t r, i;

	s->n = s->failed = 0;
	s->mean = s->stddev = s->median = s->min = s->max = NAN;
	for (r = 0; r < row->n_reps; r++) {
		const struct pab_arm_result *res = &row->reps[r].result[a];

		if (res->failed)
			s->failed++;
		else if (isfinite(res->m[m]))
			buf[s->n++] = res->m[m];
	}
	if (!s->n)
		return;
	s->min = s->max = buf[0];
	for (i = 0; i < s->n; i++) {
		sum += buf[i];
		s->min = fmin(s->min, buf[i]);
		s->max = fmax(s->max, buf[i]);
	}
	s->mean = sum / (double)s->n;
	for (i = 0; i < s->n; i++)
		ss += (buf[i] - s->mean) * (buf[i] - s->mean);
	if (s->n > 1)
		s->stddev = sqrt(ss / (double)(s->n - 1));
	if (pab_median(buf, s->n, &s->median))
		BUG("no median of %zu values", s->n);
}

/* v exactly, or null (JSON). */
static void json_exact(FILE *f, double v)
{
	if (isfinite(v))
		exact_number(f, v);
	else
		fputs("null", f);
}

static void stats_line(FILE *f, const struct pab_experiment *e, size_t ri, size_t a,
		       size_t m, const struct arm_stats *s, int json, size_t *n_lines)
{
	const double fig[5] = { s->mean, s->stddev, s->median, s->min, s->max };
	static const char *const names[5] = { "mean", "stddev", "median", "min", "max" };
	size_t k;

	if (json) {
		fputs((*n_lines)++ ? ",\n{\"row\": " : "\n{\"row\": ", f);
		pab_report_json_string(f, e->rows[ri].name);
		fputs(", \"arm\": ", f);
		pab_report_json_string(f, e->arms[a].name);
		fprintf(f, ", \"metric\": \"%s\", \"unit\": \"%s\", \"n\": %zu, \"failed\": %zu",
			pab_metrics[m].name, pab_metrics[m].unit, s->n, s->failed);
		for (k = 0; k < 5; k++) {
			fprintf(f, ", \"%s\": ", names[k]);
			json_exact(f, fig[k]);
		}
		fputc('}', f);
		return;
	}
	pab_fmt_csv_field(f, e->rows[ri].name);
	sep_field(f, e->arms[a].name);
	fprintf(f, ",%s,%s,%zu,%zu", pab_metrics[m].name, pab_metrics[m].unit, s->n, s->failed);
	for (k = 0; k < 5; k++) {
		fputc(',', f);
		exact_number(f, fig[k]);
	}
	fputc('\n', f);
}

void pab_report_stats(FILE *f, const struct pab_experiment *e, int json)
{
	size_t ri, a, m, n_lines = 0, most = 1;
	double *buf;

	for (ri = 0; ri < e->n_rows; ri++)
		if (e->rows[ri].n_reps > most)
			most = e->rows[ri].n_reps;
	buf = xcalloc(most, sizeof(*buf));
	if (json)
		fputs("{\n\"schema\": \"perfab-stats/1\",\n\"stats\": [", f);
	else
		fputs("row,arm,metric,unit,n,failed,mean,stddev,median,min,max\n", f);
	for (ri = 0; ri < e->n_rows; ri++)
		for (a = 0; a < e->n_arms; a++)
			for (m = 0; m < PAB_M_COUNT; m++) {
				struct arm_stats s;

				arm_stats(&e->rows[ri], a, m, buf, &s);
				if (s.n)
					stats_line(f, e, ri, a, m, &s, json, &n_lines);
			}
	if (json)
		fputs("\n]\n}\n", f);
	free(buf);
}
