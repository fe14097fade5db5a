/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.c — the renderers' shared pieces and the format dispatch
 * (report.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge/ledger.h"
#include "report/format.h"
#include "report/report.h"
#include "term.h"
#include "util.h"


int pab_report_format_parse(const char *s, enum pab_report_format *out)
{
	if (!strcmp(s, "text"))
		*out = PAB_REPORT_TEXT;
	else if (!strcmp(s, "json"))
		*out = PAB_REPORT_JSON;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*out = PAB_REPORT_MARKDOWN;
	else if (!strcmp(s, "junit"))
		*out = PAB_REPORT_JUNIT;
	else if (!strcmp(s, "html"))
		*out = PAB_REPORT_HTML;
	else if (!strcmp(s, "csv"))
		*out = PAB_REPORT_CSV;
	else
		return -1;
	return 0;
}

void pab_report_print(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, enum pab_report_format fmt)
{
	switch (fmt) {
	case PAB_REPORT_TEXT: {
		struct pab_text_opts to = { 0, 0 };

		pab_report_print_text(f, e, l, &to);
		return;
	}
	case PAB_REPORT_JSON:
		pab_report_json(f, e, l);
		return;
	case PAB_REPORT_MARKDOWN:
		pab_report_markdown(f, e, l);
		return;
	case PAB_REPORT_JUNIT:
		pab_report_junit(f, e, l, 0);
		return;
	case PAB_REPORT_HTML:
		pab_report_html(f, e, l);
		return;
	case PAB_REPORT_CSV:
		pab_report_csv(f, e, l);
		return;
	}
}

const char *pab_report_decided_by(const struct pab_cell_result *r)
{
	if (r->verdict == PAB_PASS)
		return pab_decider_name(r->pass_decider);
	if (r->verdict == PAB_FAIL)
		return pab_decider_name(r->fail_decider);
	return NULL;
}

const char *pab_report_equivalence_name(enum pab_equivalence q)
{
	switch (q) {
	case PAB_EQUIV_YES:
		return "yes";
	case PAB_EQUIV_NO:
		return "no";
	case PAB_EQUIV_UNKNOWN:
		break;
	}
	return "unknown";
}

/* "pooled from N artifacts (mode), seeds a, b" for a pooled experiment, or NULL. */
char *pab_report_pool_note(const struct pab_experiment *e)
{
	const cJSON *pool = cJSON_GetObjectItemCaseSensitive(e->run, "pool");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(pool, "artifacts");
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(pool, "mode");

	if (!cJSON_IsNumber(n) || !cJSON_IsString(mode))
		return NULL;
	return xasprintf("pooled from %.0f artifacts (%s)", n->valuedouble,
			 pab_term_safe(mode->valuestring));
}

const char *pab_report_cpu_model(const struct pab_experiment *e,
				  const struct pab_row *row)
{
	const char *m = pab_row_cpu_model(e, row);

	return m ? m : "unknown CPU model";
}

const char *pab_report_count_source(const struct pab_experiment *e)
{
	if (!(e->settings.given & PAB_RUN_COUNTS))
		return "pmu"; /* before --counts: the hardware counter */
	return pab_count_source_name(e->settings.count_source);
}

/* An exact count's cell: which source counted, and whether the counts
 * moved (exact, or judged by the sign test), after the reason. */
static void add_count_note(const struct pab_experiment *e, const struct pab_cell_result *r,
			   char *buf, size_t len)
{
	const char *src = pab_report_count_source(e);
	size_t at = strlen(buf);
	char spread[24];

	if (r->verdict == PAB_NOT_MEASURED || at + 1 >= len)
		return;
	snprintf(spread, sizeof(spread), "%.2g", r->spread_pct);
	snprintf(buf + at, len - at, "%scounted by %s; %s%s%s", at ? "; " : "",
		 src && !strcmp(src, "sim") ? "valgrind (sim)" : "the PMU (pmu)",
		 r->exact && r->spread_pct == 0 ? "exact: the counts did not move" :
		 r->exact ? "exact: the counts moved by at most " :
		 "the counts varied across reps by up to ",
		 r->exact && r->spread_pct == 0 ? "" : spread,
		 r->exact && r->spread_pct == 0 ? "" : r->exact ? "%" :
		 "%, judged by the sign test");
}

void pab_report_cell_reason(const struct pab_experiment *e,
			    const struct pab_ledger *l,
			    const struct pab_ledger_cell *c, char *buf, size_t len)
{
	const struct pab_ledger_row *lr = pab_ledger_cell_row(l, c);
	struct pab_reason_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.metric = c->metric;
	ctx.role = c->role;
	ctx.outlook = &c->outlook;
	ctx.undecidable = c->undecidable;
	ctx.cap_n = lr->cap_n;
	ctx.n = lr->n;
	ctx.block = e->n_arms;
	ctx.rep_seconds = pab_ledger_rep_seconds(e, c->row);
	ctx.control = lr->control;
	ctx.margin = e->equivalence_margin;
	ctx.conf = l->conf;
	pab_fmt_reason(buf, len, &c->res, &ctx);
	if (pab_metrics[c->metric].exact)
		add_count_note(e, &c->res, buf, len);
	if (!strcmp(pab_report_tolerance_origin(e, c->metric), "calibration")) {
		size_t at = strlen(buf);

		if (at + 1 < len)
			snprintf(buf + at, len - at, "%stolerance %.3g%% from calibration '%s'",
				 at ? "; " : "", e->tolerance[c->metric],
				 pab_term_safe(e->settings.calibration_file));
	}
}

const char *pab_report_tolerance_origin(const struct pab_experiment *e, enum pab_metric_id m)
{
	const struct pab_run_settings *s = &e->settings;

	if ((s->given & PAB_RUN_CALIBRATION) && isfinite(s->calibration_tol[m]) &&
	    s->calibration_tol[m] == e->tolerance[m] &&
	    s->calibration_tol[m] != pab_metric_default_tolerance(m))
		return "calibration";
	return e->tolerance[m] == pab_metric_default_tolerance(m) ? "default" : "declared";
}

int pab_report_change_flags(const struct pab_ledger_cell *c)
{
	return c->res.verdict == PAB_PASS ? 0 : PAB_FMT_NO_SAME;
}

int pab_report_plain_row(const struct pab_experiment *e, const struct pab_ledger_row *lr)
{
	return lr->wall_throughput && !e->rows[lr->row].workload;
}

char *pab_report_roles_line(const struct pab_ledger *l, const struct pab_ledger_row *lr)
{
	static const enum pab_cell_role order[] = {
		PAB_ROLE_REQUIRED, PAB_ROLE_GUARD, PAB_ROLE_SHOWN,
	};
	static const char *const heads[] = { "required:", "guards:", "shown:" };
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	size_t k, c, n, other = 0;

	for (c = 0; c < l->n_cells; c++)
		if (l->cells[c].row == lr->row && l->cells[c].arm == lr->arm)
			other += l->cells[c].role != PAB_ROLE_REQUIRED;
	if (!other)
		return NULL;
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		n = 0;
		for (c = 0; c < l->n_cells; c++) {
			const struct pab_ledger_cell *cell = &l->cells[c];

			if (cell->row != lr->row || cell->arm != lr->arm || cell->role != order[k])
				continue;
			pab_strbuf_addf(&sb, "%s%s%s %s", n ? "," : "", !n && sb.len ? " · " : "",
					!n ? heads[k] : "", pab_metrics[cell->metric].name);
			n++;
		}
	}
	return pab_strbuf_detach(&sb);
}

void pab_report_gate_reasons(FILE *f, const struct pab_experiment *e,
			     const struct pab_ledger *l)
{
	char ch[128], why[512];
	size_t i, c;

	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];
		const char *row = pab_term_safe(e->rows[lr->row].name);

		if (lr->gate_note || e->rows[lr->row].failed)
			fprintf(f, "  %s · %s: FAIL: %s\n", row, pab_term_safe(e->arms[lr->arm].name),
				lr->gate_note ? lr->gate_note : e->rows[lr->row].fail_reason ?
				pab_term_safe(e->rows[lr->row].fail_reason) : lr->why);
		for (c = 0; c < l->n_cells; c++) {
			const struct pab_ledger_cell *cell = &l->cells[c];
			const char *what;

			if (cell->row != lr->row || cell->arm != lr->arm || cell->role == PAB_ROLE_SHOWN)
				continue;
			if (cell->res.verdict == PAB_FAIL)
				what = "FAIL";
			else if (cell->res.verdict != PAB_INCONCLUSIVE)
				continue;
			else
				what = cell->role == PAB_ROLE_GUARD ?
					"undecided (a guard: accepted uncertainty)" : "undecided";
			pab_fmt_change(ch, sizeof(ch), cell->metric, &cell->res.change,
				       cell->res.base_median, PAB_FMT_NO_SAME);
			pab_report_cell_reason(e, l, cell, why, sizeof(why));
			fprintf(f, "  %s · %s: %s %s %s%s%s\n", row,
				pab_term_safe(e->arms[lr->arm].name), pab_metrics[cell->metric].name,
				what, ch, *why ? ": " : "", why);
		}
	}
}
