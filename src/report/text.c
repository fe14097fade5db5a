/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * text.c — the ledger as text for a terminal of PAB_TERM_WIDTH columns,
 * and the CI log's reasons of `perfab gate` (text.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "report/attribution.h"
#include "report/format.h"
#include "report/reason.h"
#include "report/text.h"
#include "term.h"
#include "util.h"


static void print_verdict(FILE *f, enum pab_verdict v, int color, int width)
{
	const char *name = pab_verdict_name(v);

	if (color && *pab_fmt_verdict_look(v)->color)
		fprintf(f, "%s%s\033[0m%*s", pab_fmt_verdict_look(v)->color, name,
			width > (int)strlen(name) ? width - (int)strlen(name) : 0, "");
	else
		fprintf(f, "%-*s", width, name);
}

/* The heading: the rules, the confidence, how the null arm is used, any
 * narrowing of the metrics, the pool note and a calibration that widened
 * a tolerance. */
static void text_heading(FILE *f, const struct pab_experiment *e,
			 const struct pab_ledger *l, const char *conf)
{
	char *line;

	fprintf(f, "perfab ledger · rules %s · %s sign-test intervals of paired changes\n",
		pab_rules_name(l->rules), conf);
	if (l->null_arm < 0 && l->rules == PAB_RULES_PERFAB2)
		fprintf(f, "no null arm: FAIL is unguarded (head vs base alone)\n");
	else if (l->null_arm < 0)
		fprintf(f, "no null arm: noise 0, strict\n");
	else if (l->rules == PAB_RULES_PERFAB2)
		fprintf(f, "null arm: FAIL needs head beyond the allowance against base and null; "
			"noise (base vs null) is shown\n");
	else
		fprintf(f, "null arm: noise = the base-vs-null interval's largest |end|\n");
	if (l->narrowed) {
		size_t m;

		fprintf(f, "the verdict covers only:");
		for (m = 0; m < PAB_M_COUNT; m++)
			if (l->judged[m])
				fprintf(f, " %s", pab_metrics[m].name);
		fprintf(f, " (--metrics)\n");
	}
	line = pab_fmt_pool_note(e);
	if (line)
		fprintf(f, "%s\n", line);
	free(line);
	line = pab_fmt_calibration_warning(e, l);
	if (line)
		pab_print_folded(f, 0, 2, line);
	free(line);
}

/* 1 when an exact count of lr is PASS or FAIL (it needs 2 pairs, not 6). */
static int exact_decided(const struct pab_ledger *l, const struct pab_ledger_row *lr)
{
	size_t c;

	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];

		if (cell->row == lr->row && cell->arm == lr->arm && cell->res.exact &&
		    (cell->res.verdict == PAB_PASS || cell->res.verdict == PAB_FAIL))
			return 1;
	}
	return 0;
}

/* Where a cell line's columns start: "  %-12s %-27s %-34s " (metric,
 * medians, change, verdict); --wide's figures go under the medians. */
#define CELL_WIDE_COL 15
#define CELL_CHANGE_COL 43
#define CELL_VERDICT_COL 78

/*
 * One cell's line (its change folded under its column when the line would
 * pass PAB_TERM_WIDTH), with --wide its figures on a line of their own
 * (noise, tolerance, allowance, coverage, what decided it), then its
 * reason, folded, below it.
 */
static void text_cell(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, const struct pab_ledger_row *lr,
		      const struct pab_ledger_cell *cell, const struct pab_text_opts *to)
{
	const struct pab_cell_result *r = &cell->res;
	char bh[80], ch[112], why[512], *rest = NULL;
	size_t verdict_w;

	if (r->verdict == PAB_NOT_MEASURED) {
		const char *null_why = pab_metrics[cell->metric].exact ?
			pab_fmt_null_reason(e, l, cell) : NULL;

		fprintf(f, "  %-12s not measured\n", pab_metrics[cell->metric].name);
		if (null_why) {
			fputs("      ", f);
			pab_print_folded(f, 6, 8, pab_term_safe(null_why));
		}
		return;
	}
	pab_fmt_pair(bh, sizeof(bh), cell->metric, r->base_median, r->head_median, 0);
	pab_fmt_change(ch, sizeof(ch), cell->metric, &r->change, r->base_median,
		       pab_fmt_change_flags(cell));
	verdict_w = cell->role == PAB_ROLE_SHOWN ? strlen("shown, not judged") :
		strlen(pab_verdict_name(r->verdict));
	/* A change wider than its column pushes the verdict right; past the
	 * width it folds under its column instead, the verdict kept on the
	 * first line where the eye looks for it. */
	if (CELL_CHANGE_COL + pab_term_columns(ch, strlen(ch)) + 1 + verdict_w <= PAB_TERM_WIDTH) {
		fprintf(f, "  %-12s %-27s %-34s ", pab_metrics[cell->metric].name, bh, ch);
	} else {
		struct pab_strbuf sb = PAB_STRBUF_INIT;
		size_t first;

		pab_fold(&sb, ch, CELL_CHANGE_COL, CELL_CHANGE_COL, CELL_VERDICT_COL - 1);
		first = strcspn(sb.buf, "\n");
		fprintf(f, "  %-12s %-27s %-34.*s ", pab_metrics[cell->metric].name, bh,
			(int)first, sb.buf);
		rest = sb.buf[first] ? xstrdup(sb.buf + first) : NULL;
		pab_strbuf_release(&sb);
	}
	if (cell->role == PAB_ROLE_SHOWN)
		fputs("shown, not judged", f);
	else
		print_verdict(f, r->verdict, to->color, 0);
	fprintf(f, "%s\n", rest ? rest : "");
	free(rest);
	if (cell->role == PAB_ROLE_SHOWN)
		return;
	if (to->wide) {
		char *nums = xasprintf("noise %.1f%% · tol %.1f%% · allow %.1f%% · coverage %.1f%%%s%s%s%s",
				       r->noise, r->tolerance, r->allowance,
				       r->change.coverage * 100, pab_fmt_decided_by(r) ? " · by " : "",
				       pab_fmt_decided_by(r) ? pab_fmt_decided_by(r) : "",
				       lr->control ? " · unchanged: " : "", lr->control ?
				       pab_fmt_equivalence_name(r->equivalence) : "");

		fprintf(f, "%*s", CELL_WIDE_COL, "");
		pab_print_folded(f, CELL_WIDE_COL, CELL_WIDE_COL, nums);
		free(nums);
	}
	pab_fmt_cell_reason(e, l, cell, why, sizeof(why));
	if (*why) {
		fputs("      ", f);
		pab_print_folded(f, 6, 8, why);
	}
}

/* A row × head arm: its line, its notes, the column heads and its cells. */
static void text_row(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l, const struct pab_ledger_row *lr,
		     const struct pab_text_opts *to, const char *conf, int mixed)
{
	const struct pab_row *row = &e->rows[lr->row];
	char change_head[48], *roles;
	size_t c;

	fputc('\n', f);
	pab_fmt_row_title(f, e, l, lr, 1, pab_fmt_name);
	fprintf(f, " · n=%zu%s", lr->n, lr->control ? " · control" : "");
	/* Memory credit needs a floor or a saving: a plain command's row
	 * has neither to speak of. */
	if (!pab_fmt_plain_row(e, lr) || lr->saved_pct > 0 || isfinite(lr->rss_floor))
		fprintf(f, " · saved %.1f%%", lr->saved_pct);
	if (isfinite(lr->rss_floor)) {
		const char *unit;
		double v = pab_fmt_plot_value(PAB_M_RSS_FLOOR, lr->rss_floor, &unit);

		fprintf(f, " (floor %.1f %s)", v, unit);
	}
	fputs(" · ", f);
	print_verdict(f, lr->verdict, to->color, 0);
	fputc('\n', f);
	if (mixed)
		fprintf(f, "  measured on: %s\n", pab_fmt_cpu_model(e, row));
	if (lr->floor_inconsistent)
		fprintf(f, "  the RSS floor is above the lowest peak: inconsistent, no memory credit\n");
	if (lr->credit_why) {
		fputs("  no memory credit: ", f);
		pab_print_folded(f, strlen("  no memory credit: "), 4, lr->credit_why);
	}
	if (lr->gate_note) {
		fprintf(f, "  %s: ", PAB_LEDGER_GATE_WHY);
		pab_print_folded(f, strlen(PAB_LEDGER_GATE_WHY) + 4, 4, lr->gate_note);
	}
	if (lr->exit_note) {
		fputs("  ", f);
		pab_print_folded(f, 2, 4, pab_term_safe(lr->exit_note));
	}
	if (lr->why && (!lr->gate_note || row->failed)) {
		fprintf(f, "  %s: ", lr->why);
		pab_print_folded(f, strlen(lr->why) + 4, 4,
			     row->fail_reason ? pab_term_safe(row->fail_reason) : "");
	}
	if (lr->n < PAB_MIN_N_95 && !lr->gate_note && exact_decided(l, lr) &&
	    lr->verdict == PAB_FAIL)
		fprintf(f, "  only %zu paired reps: too few for a %s interval (%d), so only the "
			"exact counts decide\n", lr->n, conf, PAB_MIN_N_95);
	else if (lr->n < PAB_MIN_N_95 && !lr->gate_note && exact_decided(l, lr))
		/* doc/method.md 13: exact counts FAIL a row early, never PASS
		 * one: a PASS also needs the time guards' intervals. */
		fprintf(f, "  only %zu paired reps: the counts are exact, but a time guard "
			"needs %d for a %s interval\n", lr->n, PAB_MIN_N_95, conf);
	else if (lr->n < PAB_MIN_N_95 && !lr->gate_note)
		fprintf(f, "  only %zu paired reps: no %s interval exists below %d, "
			"so no PASS or FAIL\n", lr->n, conf, PAB_MIN_N_95);
	roles = pab_fmt_roles_line(l, lr);
	if (roles) {
		fputs("  ", f);
		pab_print_folded(f, 2, 4, roles);
		free(roles);
	}
	snprintf(change_head, sizeof(change_head), "change [%s interval]", conf);
	fprintf(f, "  %-12s %-27s %-34s %s\n", "metric", "base -> head (medians)",
		change_head, "verdict");
	for (c = 0; c < l->n_cells; c++)
		if (l->cells[c].row == lr->row && l->cells[c].arm == lr->arm)
			text_cell(f, e, l, lr, &l->cells[c], to);
	pab_report_attribution_text(f, e, row->name, e->arms[lr->arm].name);
}

void pab_report_print_text(FILE *f, const struct pab_experiment *e,
			   const struct pab_ledger *l,
			   const struct pab_text_opts *to)
{
	int mixed = pab_ledger_mixed_cpus(e);
	char *line, conf[16];
	size_t i;

	pab_fmt_conf(conf, sizeof(conf), l->conf);
	text_heading(f, e, l, conf);
	for (i = 0; i < l->n_rows; i++)
		text_row(f, e, l, &l->rows[i], to, conf, mixed);
	fprintf(f, "\noverall: ");
	print_verdict(f, l->overall, to->color, 0);
	fputc('\n', f);
	if (l->overall == PAB_INCONCLUSIVE && e->settings.stop_reason == PAB_STOP_BUDGET)
		pab_print_folded(f, 0, 2, "the run's budget stopped it before its rows reached their "
			     "next look: the budget, not the noise, left them undecided (raise "
			     "--budget)");
	line = pab_disposition_line(&l->disposition);
	pab_print_folded(f, 0, 2, line);
	free(line);
}

/* One reason of the CI log, indented, folded under itself; frees line. */
static void gate_reason(FILE *f, char *line)
{
	fputs("  ", f);
	pab_print_folded(f, 2, 4, line);
	free(line);
}

void pab_report_gate_reasons(FILE *f, const struct pab_experiment *e,
			     const struct pab_ledger *l)
{
	char ch[128], why[512], *line;
	size_t i, c;

	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];
		const char *row = pab_term_safe(e->rows[lr->row].name);

		if (lr->no_verdict) {
			/* Its cells say nothing of the head: only why. */
			line = xasprintf("%s · %s: %s: %s", row, pab_term_safe(e->arms[lr->arm].name),
					 lr->why, e->rows[lr->row].fail_reason ?
					 pab_term_safe(e->rows[lr->row].fail_reason) : "");
			gate_reason(f, line);
			continue;
		}
		if (lr->gate_note || e->rows[lr->row].failed) {
			line = xasprintf("%s · %s: FAIL: %s", row, pab_term_safe(e->arms[lr->arm].name),
					 lr->gate_note ? lr->gate_note : e->rows[lr->row].fail_reason ?
					 pab_term_safe(e->rows[lr->row].fail_reason) : lr->why);
			gate_reason(f, line);
		}
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
				what = cell->held ? "undecided (a time guard: holds the PASS)" :
					cell->role == PAB_ROLE_GUARD ?
					"undecided (a guard: accepted uncertainty)" : "undecided";
			pab_fmt_change(ch, sizeof(ch), cell->metric, &cell->res.change,
				       cell->res.base_median, PAB_FMT_NO_SAME);
			pab_fmt_cell_reason(e, l, cell, why, sizeof(why));
			line = xasprintf("%s · %s: %s %s %s%s%s", row,
					 pab_term_safe(e->arms[lr->arm].name),
					 pab_metrics[cell->metric].name, what, ch, *why ? ": " : "", why);
			gate_reason(f, line);
			line = cell->res.verdict != PAB_FAIL ? NULL : pab_report_attribution_brief(e,
				e->rows[lr->row].name, e->arms[lr->arm].name, cell->metric);
			if (line)
				gate_reason(f, xasprintf("%s · %s: %s %s", row,
					    pab_term_safe(e->arms[lr->arm].name),
					    pab_metrics[cell->metric].name, line));
			free(line);
		}
	}
}
