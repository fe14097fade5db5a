/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json.c — the ledger as JSON (doc/ledger-json.md; json.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "judge/history.h"
#include "judge/ledger.h"
#include "model/attribution.h"
#include "report/format.h"
#include "report/reason.h"
#include "report/json.h"
#include "util.h"


static cJSON *interval_json(const struct pab_interval *iv)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "n", (double)iv->n);
	cJSON_AddNumberToObject(o, "median", iv->median);
	cJSON_AddNumberToObject(o, "lo", iv->lo);
	cJSON_AddNumberToObject(o, "hi", iv->hi);
	cJSON_AddNumberToObject(o, "coverage", iv->coverage);
	cJSON_AddBoolToObject(o, "exists", iv->exists);
	return o;
}

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* How the cell reads (format.h): ratio, direction, the words, the reason. */
static void add_reading(cJSON *x, const struct pab_experiment *e,
			const struct pab_ledger *l, const struct pab_ledger_cell *c)
{
	const struct pab_cell_result *r = &c->res;
	struct pab_ratio q;
	char text[160], why[512];

	pab_change_ratio(c->metric, &r->change, &q);
	cJSON_AddItemToObject(x, "ratio", num_or_null(q.ratio));
	cJSON_AddItemToObject(x, "ratio_low", num_or_null(q.ratio_low));
	cJSON_AddItemToObject(x, "ratio_high", num_or_null(q.ratio_high));
	if (pab_change_kind_of(c->metric) == PAB_CHANGE_RATIO) {
		cJSON_AddItemToObject(x, "factor", num_or_null(q.factor));
		cJSON_AddItemToObject(x, "factor_low", num_or_null(q.factor_low));
		cJSON_AddItemToObject(x, "factor_high", num_or_null(q.factor_high));
	}
	cJSON_AddStringToObject(x, "direction", q.direction);
	pab_fmt_change(text, sizeof(text), c->metric, &r->change, r->base_median,
		       PAB_FMT_UTF8 | pab_fmt_change_flags(c));
	cJSON_AddStringToObject(x, "reads", text);
	pab_fmt_cell_reason(e, l, c, why, sizeof(why));
	if (*why)
		cJSON_AddStringToObject(x, "reason", why);
}

/*
 * The row's roles ("required", "guards": metric names), its accepted
 * uncertainty: each undecided guard with its interval and the smallest
 * change these reps resolve, and its held time guards ("unresolved_guards":
 * metric names; doc/ledger-json.md "rows").
 */
static void add_uncertainty(cJSON *o, const struct pab_ledger *l,
			    const struct pab_ledger_row *lr)
{
	cJSON *req = cJSON_AddArrayToObject(o, "required");
	cJSON *grd = cJSON_AddArrayToObject(o, "guards");
	cJSON *acc = cJSON_AddArrayToObject(o, "accepted_uncertainty");
	cJSON *held = cJSON_AddArrayToObject(o, "unresolved_guards");
	size_t c;

	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];
		const char *name = pab_metrics[cell->metric].name;
		cJSON *x;

		if (cell->row != lr->row || cell->arm != lr->arm)
			continue;
		if (cell->role == PAB_ROLE_REQUIRED)
			cJSON_AddItemToArray(req, cJSON_CreateString(name));
		else if (cell->role == PAB_ROLE_GUARD)
			cJSON_AddItemToArray(grd, cJSON_CreateString(name));
		if (cell->held)
			cJSON_AddItemToArray(held, cJSON_CreateString(name));
		if (cell->role != PAB_ROLE_GUARD || cell->res.verdict != PAB_INCONCLUSIVE ||
		    cell->held)
			continue;
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "metric", name);
		cJSON_AddItemToObject(x, "change", interval_json(&cell->res.change));
		cJSON_AddNumberToObject(x, "resolves", cell->res.half_width);
		cJSON_AddItemToArray(acc, x);
	}
}

/* The judged figures of a measured cell (doc/ledger-json.md "cells"). */
static void add_judged(cJSON *x, const struct pab_experiment *e, const struct pab_ledger *l,
		       const struct pab_ledger_row *lr, const struct pab_ledger_cell *cell)
{
	const struct pab_cell_result *r = &cell->res;

	cJSON_AddItemToObject(x, "base_median", num_or_null(r->base_median));
	cJSON_AddItemToObject(x, "head_median", num_or_null(r->head_median));
	cJSON_AddItemToObject(x, "change", interval_json(&r->change));
	if (r->has_null)
		cJSON_AddItemToObject(x, "null_change", interval_json(&r->null_change));
	if (r->has_null && r->head_null.n)
		cJSON_AddItemToObject(x, "head_null", interval_json(&r->head_null));
	cJSON_AddItemToObject(x, "noise", num_or_null(r->noise));
	cJSON_AddBoolToObject(x, "noise_infinite", r->noise_infinite);
	cJSON_AddNumberToObject(x, "tolerance", r->tolerance);
	if (e->settings.given & PAB_RUN_CALIBRATION)
		cJSON_AddStringToObject(x, "tolerance_origin",
					pab_fmt_tolerance_origin(e, cell->metric));
	cJSON_AddNumberToObject(x, "floor_pct", r->floor_pct);
	cJSON_AddNumberToObject(x, "credit", r->credit);
	cJSON_AddNumberToObject(x, "allowance", r->allowance);
	cJSON_AddNumberToObject(x, "fail_threshold", r->fail_threshold);
	cJSON_AddStringToObject(x, "pass_decider", pab_decider_name(r->pass_decider));
	cJSON_AddStringToObject(x, "fail_decider", pab_decider_name(r->fail_decider));
	if (l->rules == PAB_RULES_PERFAB2)
		cJSON_AddBoolToObject(x, "fail_guarded", r->fail_guarded);
	if (cell->time_guard) {
		cJSON_AddNumberToObject(x, "guard_allowance", cell->guard_allowance);
		cJSON_AddBoolToObject(x, "guard_resolved", !cell->held);
	}
	cJSON_AddBoolToObject(x, "beyond_noise", r->beyond_noise);
	cJSON_AddBoolToObject(x, "gain", pab_ledger_cell_is_gain(l, cell));
	if (lr->control)
		cJSON_AddStringToObject(x, "unchanged", pab_fmt_equivalence_name(r->equivalence));
	if (pab_metrics[cell->metric].exact) {
		const char *src = pab_fmt_count_source(e);

		cJSON_AddItemToObject(x, "source", src ? cJSON_CreateString(src) :
				      cJSON_CreateNull());
		cJSON_AddBoolToObject(x, "exact", r->exact);
		cJSON_AddItemToObject(x, "spread_pct", num_or_null(r->spread_pct));
	}
	if (r->verdict == PAB_INCONCLUSIVE) {
		cJSON_AddNumberToObject(x, "half_width", r->half_width);
		cJSON_AddNumberToObject(x, "reps_needed", (double)r->reps_needed);
	}
}

/* The row × head arm's attributions, as the artifact keeps them but only
 * what a reader of the verdict needs: metric, profile, where from, the
 * share the listed names explain, and the names that moved. */
static void add_attribution(cJSON *o, const struct pab_experiment *e, const char *row,
			    const char *arm)
{
	cJSON *list = NULL;
	size_t i, k;

	for (i = 0; i < e->n_attr; i++) {
		const struct pab_attribution *a = &e->attr[i];
		cJSON *x, *items;

		if (strcmp(a->row, row) || strcmp(a->arm, arm))
			continue;
		if (!list)
			list = cJSON_AddArrayToObject(o, "attribution");
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "metric", pab_metrics[a->metric].name);
		cJSON_AddStringToObject(x, "profiler", a->profiler);
		cJSON_AddItemToObject(x, "source", a->source ? cJSON_CreateString(a->source) :
				      cJSON_CreateNull());
		cJSON_AddItemToObject(x, "input", a->input ? cJSON_CreateString(a->input) :
				      cJSON_CreateNull());
		cJSON_AddItemToObject(x, "change", num_or_null(pab_attribution_change(a)));
		cJSON_AddItemToObject(x, "explained", num_or_null(pab_attribution_explained(a)));
		cJSON_AddItemToObject(x, "note", a->note ? cJSON_CreateString(a->note) :
				      cJSON_CreateNull());
		items = cJSON_AddArrayToObject(x, "items");
		for (k = 0; k < a->n_items; k++) {
			cJSON *it = cJSON_CreateObject();

			cJSON_AddStringToObject(it, "name", a->items[k].name);
			cJSON_AddItemToObject(it, "where", a->items[k].where ?
					      cJSON_CreateString(a->items[k].where) :
					      cJSON_CreateNull());
			cJSON_AddNumberToObject(it, "base", a->items[k].base);
			cJSON_AddNumberToObject(it, "head", a->items[k].head);
			cJSON_AddItemToArray(items, it);
		}
		cJSON_AddItemToArray(list, x);
	}
}

/* One row × head arm with its cells. */
static cJSON *row_json(const struct pab_experiment *e, const struct pab_ledger *l,
		       const struct pab_ledger_row *lr)
{
	const struct pab_row *row = &e->rows[lr->row];
	cJSON *o = cJSON_CreateObject(), *cells;
	size_t c;

	cJSON_AddStringToObject(o, "row", row->name);
	cJSON_AddStringToObject(o, "arm", e->arms[lr->arm].name);
	cJSON_AddNumberToObject(o, "n", (double)lr->n);
	cJSON_AddBoolToObject(o, "control", lr->control);
	cJSON_AddNumberToObject(o, "saved_pct", lr->saved_pct);
	cJSON_AddItemToObject(o, "rss_floor", num_or_null(lr->rss_floor));
	cJSON_AddBoolToObject(o, "floor_inconsistent", lr->floor_inconsistent);
	cJSON_AddStringToObject(o, "verdict", pab_verdict_name(lr->verdict));
	if (pab_row_cpu_model(e, row))
		cJSON_AddStringToObject(o, "cpu_model", pab_row_cpu_model(e, row));
	else
		cJSON_AddNullToObject(o, "cpu_model");
	if (row->failed && row->fail_reason)
		cJSON_AddStringToObject(o, "fail_reason", row->fail_reason);
	if (lr->gate_note)
		cJSON_AddStringToObject(o, "sanity_gate", lr->gate_note);
	if (lr->exit_note)
		cJSON_AddStringToObject(o, "exit_ignored", lr->exit_note);
	if (lr->credit_why)
		cJSON_AddStringToObject(o, "credit_withheld", lr->credit_why);
	cJSON_AddBoolToObject(o, "no_verdict", lr->no_verdict);
	cJSON_AddBoolToObject(o, "undecidable", lr->undecidable);
	add_uncertainty(o, l, lr);
	cells = cJSON_AddArrayToObject(o, "cells");
	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];
		cJSON *x;

		if (cell->row != lr->row || cell->arm != lr->arm)
			continue;
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "metric", pab_metrics[cell->metric].name);
		cJSON_AddStringToObject(x, "unit", pab_metrics[cell->metric].unit);
		cJSON_AddStringToObject(x, "verdict", pab_verdict_name(cell->res.verdict));
		cJSON_AddStringToObject(x, "role", pab_cell_role_name(cell->role));
		if (cell->undecidable) {
			cJSON *u = cJSON_AddObjectToObject(x, "undecidable");

			cJSON_AddItemToObject(u, "resolves", num_or_null(cell->outlook.resolves_pct));
			cJSON_AddNumberToObject(u, "reps_needed", (double)cell->outlook.reps_needed);
			cJSON_AddItemToObject(u, "tolerance", num_or_null(cell->outlook.tolerance_pct));
			cJSON_AddNumberToObject(u, "max_reps", (double)lr->cap_n);
		}
		if (cell->res.verdict != PAB_NOT_MEASURED) {
			add_judged(x, e, l, lr, cell);
			add_reading(x, e, l, cell);
		}
		cJSON_AddItemToArray(cells, x);
	}
	add_attribution(o, e, row->name, e->arms[lr->arm].name);
	return o;
}

/* The ledger's settings: schema, rules, confidence, arms, metrics, floors. */
static void add_settings(cJSON *root, const struct pab_experiment *e,
			 const struct pab_ledger *l)
{
	cJSON *judged, *fl;
	size_t m;

	/* "schema", as the artifact and the memgate baseline name their
	 * version; "format" kept for readers of the first documents. */
	cJSON_AddStringToObject(root, "schema", "perfab-ledger/1");
	cJSON_AddStringToObject(root, "format", "perfab-ledger/1");
	cJSON_AddStringToObject(root, "rules", pab_rules_name(l->rules));
	cJSON_AddNumberToObject(root, "confidence", l->conf);
	cJSON_AddStringToObject(root, "base", e->arms[l->base].name);
	cJSON_AddBoolToObject(root, "null_arm", l->null_arm >= 0);
	cJSON_AddBoolToObject(root, "fail_unguarded",
			      l->rules == PAB_RULES_PERFAB2 && l->null_arm < 0);
	judged = cJSON_AddArrayToObject(root, "metrics");
	for (m = 0; m < PAB_M_COUNT; m++)
		if (l->judged[m])
			cJSON_AddItemToArray(judged, cJSON_CreateString(pab_metrics[m].name));
	cJSON_AddBoolToObject(root, "metrics_narrowed", l->narrowed);
	fl = cJSON_AddObjectToObject(root, "floors");
	cJSON_AddNumberToObject(fl, "bytes", l->floor_bytes);
	cJSON_AddNumberToObject(fl, "count", l->floor_count);
}

/* The disposition object: its class, the table's columns, the counts. */
static void add_disposition(cJSON *root, const struct pab_disposition *d)
{
	cJSON *disp = cJSON_AddObjectToObject(root, "disposition");

	cJSON_AddStringToObject(disp, "kind", d->name);
	cJSON_AddStringToObject(disp, "evidence", d->evidence);
	cJSON_AddStringToObject(disp, "action", d->action);
	cJSON_AddNumberToObject(disp, "cells", (double)(d->cells - d->not_measured));
	cJSON_AddNumberToObject(disp, "pass", (double)d->pass);
	cJSON_AddNumberToObject(disp, "inconclusive", (double)d->inconclusive);
	cJSON_AddNumberToObject(disp, "fail", (double)d->fail);
	cJSON_AddNumberToObject(disp, "not_measured", (double)d->not_measured);
	cJSON_AddNumberToObject(disp, "gains", (double)d->gains);
}

void pab_report_json(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l)
{
	cJSON *root = cJSON_CreateObject(), *rows;
	size_t i;
	char *text;

	add_settings(root, e, l);
	cJSON_AddStringToObject(root, "overall", pab_verdict_name(l->overall));
	add_disposition(root, &l->disposition);
	rows = cJSON_AddArrayToObject(root, "rows");
	for (i = 0; i < l->n_rows; i++)
		cJSON_AddItemToArray(rows, row_json(e, l, &l->rows[i]));
	text = cJSON_Print(root);
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
}

/* ------------------------------------------------------------------ */
/* The merge history (report/json.h)                                  */

static void json_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void json_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void print_json(FILE *f, cJSON *root)
{
	char *text = cJSON_Print(root);

	if (!text)
		die(PAB_EXIT_RUNTIME, "out of memory");
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
}

void pab_report_history_json(FILE *f, const struct pab_history_series *s, size_t n,
			     size_t merges)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "cells");
	size_t i, j;

	cJSON_AddNumberToObject(root, "merges", (double)merges);
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "merge", (double)p->merge->id);
			json_str(o, "commit", p->merge->commit);
			json_str(o, "base", p->merge->base);
			json_str(o, "branch", p->merge->branch);
			cJSON_AddNumberToObject(o, "recorded_at", (double)p->merge->recorded_at);
			json_str(o, "row", s[i].row);
			json_str(o, "arm", s[i].arm);
			json_str(o, "metric", s[i].metric);
			json_num(o, "base_median", p->base_median);
			json_num(o, "head_median", p->head_median);
			json_num(o, "change_pct", p->change_pct);
			json_num(o, "lo_pct", p->lo_pct);
			json_num(o, "hi_pct", p->hi_pct);
			json_num(o, "coverage", p->coverage);
			json_num(o, "tolerance_pct", p->tolerance_pct);
			json_str(o, "verdict", p->verdict);
			cJSON_AddNumberToObject(o, "n", (double)p->n);
			cJSON_AddItemToArray(arr, o);
		}
	print_json(f, root);
}

static cJSON *json_cps(const struct pab_history_point *cp, const double *p, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "merge", (double)cp[i].merge->id);
		json_str(o, "commit", cp[i].merge->commit);
		cJSON_AddNumberToObject(o, "p", p[i]);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* Points pts[0..n): each merge, its commit and its own change. */
static cJSON *json_merges(const struct pab_history_point *pts, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddNumberToObject(t, "merge", (double)pts[i].merge->id);
		json_str(t, "commit", pts[i].merge->commit);
		json_num(t, "change_pct", pts[i].change_pct);
		cJSON_AddItemToArray(arr, t);
	}
	return arr;
}

static cJSON *drift_json(const struct pab_drift *d)
{
	cJSON *o = cJSON_CreateObject();

	json_str(o, "row", d->row);
	json_str(o, "arm", d->arm);
	json_str(o, "metric", d->metric);
	cJSON_AddNumberToObject(o, "merges", (double)d->chain.n);
	cJSON_AddNumberToObject(o, "skipped", (double)d->chain.skipped);
	json_num(o, "change_pct", d->chain.change_pct);
	json_num(o, "lo_pct", d->chain.lo_pct);
	json_num(o, "hi_pct", d->chain.hi_pct);
	json_num(o, "se_log", d->chain.se_log);
	cJSON_AddNumberToObject(o, "conf", PAB_DRIFT_CONF);
	json_num(o, "tolerance_pct", d->tolerance);
	cJSON_AddStringToObject(o, "drift", d->beyond ? "worse" : d->better ? "better" : "none");
	cJSON_AddNumberToObject(o, "pass", (double)d->pass);
	cJSON_AddNumberToObject(o, "inconclusive", (double)d->inconclusive);
	cJSON_AddNumberToObject(o, "fail", (double)d->fail);
	json_str(o, "first_base", d->first.merge->base);
	json_str(o, "last_commit", d->last.merge->commit);
	cJSON_AddItemToObject(o, "top", json_merges(d->top_pt, d->n_top));
	cJSON_AddItemToObject(o, "change_points", json_cps(d->cp_pt, d->p_step, d->n_cp_step));
	cJSON_AddItemToObject(o, "steps", json_merges(d->jump_pt, d->n_jump));
	return o;
}

void pab_report_history_drift_json(FILE *f, const struct pab_drift *d, size_t n_series,
				   size_t merges)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t i, flagged = 0;

	cJSON_AddNumberToObject(root, "merges", (double)merges);
	arr = cJSON_AddArrayToObject(root, "series");
	for (i = 0; i < n_series; i++) {
		if (!d[i].chain.n)
			continue;
		flagged += d[i].beyond;
		cJSON_AddItemToArray(arr, drift_json(&d[i]));
	}
	cJSON_AddNumberToObject(root, "drifted", (double)flagged);
	print_json(f, root);
}

/* ------------------------------------------------------------------ */
/* JSON text for the other renderers                                  */

/* item, unformatted, to f; item deleted. */
static void print_unformatted(FILE *f, cJSON *item)
{
	char *text = item ? cJSON_PrintUnformatted(item) : NULL;

	if (!text)
		BUG("out of memory");
	fputs(text, f);
	cJSON_free(text);
	cJSON_Delete(item);
}

void pab_report_json_number(FILE *f, double v)
{
	print_unformatted(f, cJSON_CreateNumber(v));
}

void pab_report_json_string(FILE *f, const char *s)
{
	print_unformatted(f, cJSON_CreateString(s));
}
