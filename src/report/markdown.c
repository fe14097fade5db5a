/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * markdown.c — the ledger as GitHub-flavoured Markdown, fit for a
 * pull-request comment or a job summary (markdown.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "model/attribution.h"
#include "report/attribution.h"
#include "report/format.h"
#include "report/reason.h"
#include "report/markdown.h"
#include "term.h"
#include "util.h"

#define md_escape pab_markdown_escape

/*
 * 1 when GitHub would start a link right after s[0] in text: a mention or
 * an e-mail address ("@" and a name), an issue reference ("#" and a digit), a bare
 * URL ("scheme:" before "//", or the last "w" of "www.").
 */
static int md_autolinks_after(const char *s, const char *start)
{
	if (*s == '@' && ((s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z') ||
			  (s[1] >= '0' && s[1] <= '9') || s[1] == '-' || s[1] == '_'))
		return 1;
	if (*s == '#' && s[1] >= '0' && s[1] <= '9')
		return 1;
	if (*s == ':' && s[1] == '/' && s[2] == '/')
		return 1;
	return s - start >= 2 && (s[0] | 0x20) == 'w' && (s[-1] | 0x20) == 'w' &&
	       (s[-2] | 0x20) == 'w' && s[1] == '.';
}

/*
 * s with Markdown's special characters backslash-escaped (GFM), and what
 * GitHub would turn into a mention, an issue link or a link broken by a
 * zero-width space (an entity, so the text reads the same): a row or arm
 * name in a pull-request comment must not notify anyone or link anywhere.
 * The one Markdown escaper: the history's Markdown calls it too.
 */
void pab_markdown_escape(FILE *f, const char *s)
{
	const char *start;

	for (s = start = pab_term_safe(s); *s; s++) {
		if (strchr("\\`*_[]<>|~&", *s))
			fputc('\\', f);
		if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
		if (md_autolinks_after(s, start))
			fputs("&#8203;", f);
	}
}

/* The heading (verdict and action), the sentence that counts rows and a
 * calibration that widened a tolerance. */
static void md_heading(FILE *f, const struct pab_experiment *e,
		       const struct pab_ledger *l, const char *conf)
{
	size_t i, n_fail = 0, n_inc = 0;
	char *line;

	for (i = 0; i < l->n_rows; i++) {
		n_fail += l->rows[i].verdict == PAB_FAIL;
		n_inc += l->rows[i].verdict == PAB_INCONCLUSIVE;
	}
	fprintf(f, "### perfab: %s \u2014 %s\n\n", pab_fmt_verdict_look(l->overall)->badge, l->disposition.action);
	fprintf(f, "%zu row%s judged: %zu FAIL, %zu INCONCLUSIVE, %zu PASS. "
		"Rules `%s`; %s sign-test intervals of paired changes; %s.",
		l->n_rows, l->n_rows == 1 ? "" : "s", n_fail, n_inc,
		l->n_rows - n_fail - n_inc, pab_rules_name(l->rules), conf,
		l->null_arm >= 0 ? "noise floor from the null arm" : "no null arm: noise 0, strict");
	line = pab_fmt_pool_note(e);
	if (line)
		fprintf(f, " P%s.", line + 1); /* "pooled ..." starts a sentence */
	free(line);
	line = pab_fmt_calibration_warning(e, l);
	if (line) {
		fputs("\n\n> \u26a0\ufe0f **Warning:** ", f);
		md_escape(f, line + strlen("warning: "));
	}
	free(line);
}

/* One line of the compact table: a row × head arm, a column per metric. */
static void md_overview_row(FILE *f, const struct pab_experiment *e,
			    const struct pab_ledger *l, const struct pab_ledger_row *lr,
			    const int *judged, int mixed)
{
	size_t m;

	fputs("| ", f);
	md_escape(f, e->rows[lr->row].name);
	fprintf(f, "%s | ", lr->control ? " (control)" : "");
	md_escape(f, e->arms[lr->arm].name);
	fprintf(f, " | %zu | %s |", lr->n, pab_fmt_verdict_look(lr->verdict)->badge);
	for (m = 0; m < PAB_M_COUNT; m++) {
		const struct pab_ledger_cell *cell;
		char med[128];

		if (!judged[m])
			continue;
		cell = pab_ledger_find_cell(l, lr->row, lr->arm, (enum pab_metric_id)m);
		if (!cell || cell->res.verdict == PAB_NOT_MEASURED) {
			fprintf(f, " \u2014 |");
			continue;
		}
		pab_fmt_change(med, sizeof(med), cell->metric, &cell->res.change,
			       cell->res.base_median, PAB_FMT_UTF8 | pab_fmt_change_flags(cell));
		fprintf(f, " %s %s%s |", med, pab_fmt_verdict_look(cell->res.verdict)->mark,
			pab_ledger_cell_is_gain(l, cell) ? " gain" : "");
	}
	if (mixed) {
		fputc(' ', f);
		md_escape(f, pab_fmt_cpu_model(e, &e->rows[lr->row]));
		fputs(" |", f);
	}
	fputc('\n', f);
}

/* The compact table: every row × head arm, a column per judged metric. */
static void md_overview(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l)
{
	int judged[PAB_M_COUNT] = { 0 }, mixed = pab_ledger_mixed_cpus(e);
	size_t i, c, m;

	for (c = 0; c < l->n_cells; c++)
		judged[l->cells[c].metric] = 1;
	fprintf(f, "\n\n| row | arm | n | verdict |");
	for (m = 0; m < PAB_M_COUNT; m++)
		if (judged[m])
			fprintf(f, " %s |", pab_metrics[m].label);
	if (mixed)
		fprintf(f, " CPU model |");
	fprintf(f, "\n|---|---|--:|---|");
	for (m = 0; m < PAB_M_COUNT; m++)
		if (judged[m])
			fprintf(f, "--:|");
	if (mixed)
		fprintf(f, "---|");
	fputc('\n', f);
	for (i = 0; i < l->n_rows; i++)
		md_overview_row(f, e, l, &l->rows[i], judged, mixed);
}

/* One cell's line of a row's detail table. */
static void md_detail_cell(FILE *f, const struct pab_experiment *e,
			   const struct pab_ledger *l, const struct pab_ledger_row *lr,
			   const struct pab_ledger_cell *cell)
{
	const struct pab_cell_result *r = &cell->res;
	char bh[96], ch[128], why[512];

	if (r->verdict == PAB_NOT_MEASURED) {
		const char *null_why = pab_metrics[cell->metric].exact ?
			pab_fmt_null_reason(e, l, cell) : NULL;

		fprintf(f, "| %s | not measured | | | | | | ", pab_metrics[cell->metric].name);
		md_escape(f, null_why ? null_why : "");
		fputs(" |\n", f);
		return;
	}
	pab_fmt_pair(bh, sizeof(bh), cell->metric, r->base_median,
		     r->head_median, PAB_FMT_UTF8);
	pab_fmt_change(ch, sizeof(ch), cell->metric, &r->change,
		       r->base_median, PAB_FMT_UTF8 | pab_fmt_change_flags(cell));
	if (cell->role == PAB_ROLE_SHOWN) {
		fprintf(f, "| %s | %s | %s | %.1f%% | | | shown, not judged | |\n",
			pab_metrics[cell->metric].name, bh, ch, r->change.coverage * 100);
		return;
	}
	fprintf(f, "| %s | %s | %s | %.1f%% | %.1f%% | %.1f%% | %s%s",
		pab_metrics[cell->metric].name, bh, ch, r->change.coverage * 100,
		r->noise, r->allowance, pab_fmt_verdict_look(r->verdict)->badge,
		cell->role == PAB_ROLE_GUARD ? " (guard)" : "");
	if (pab_fmt_decided_by(r))
		fprintf(f, " by %s", pab_fmt_decided_by(r));
	if (lr->control)
		fprintf(f, "; unchanged: %s", pab_fmt_equivalence_name(r->equivalence));
	pab_fmt_cell_reason(e, l, cell, why, sizeof(why));
	fputs(" | ", f);
	md_escape(f, why);
	fputs(" |\n", f);
}

/* A row × head arm in full: its heading, notes and a table of its cells. */
static void md_detail(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, const struct pab_ledger_row *lr,
		      const char *conf)
{
	const struct pab_row *row = &e->rows[lr->row];
	char *roles;
	size_t c;

	fputs("#### ", f);
	pab_fmt_row_title(f, e, l, lr, 1, md_escape);
	fprintf(f, " \u00b7 n=%zu", lr->n);
	/* Memory credit needs a floor or a saving: a plain command's row
	 * has neither to speak of (as in the text ledger). */
	if (!pab_fmt_plain_row(e, lr) || lr->saved_pct > 0 || isfinite(lr->rss_floor))
		fprintf(f, " \u00b7 saved %.1f%%", lr->saved_pct);
	fprintf(f, "%s \u00b7 %s\n\n", lr->floor_inconsistent ?
		" (RSS floor inconsistent: no credit)" : "", pab_fmt_verdict_look(lr->verdict)->badge);
	roles = pab_fmt_roles_line(l, lr);
	if (roles) {
		md_escape(f, roles);
		fputs("\n\n", f);
		free(roles);
	}
	if (lr->credit_why)
		fprintf(f, "No memory credit: %s.\n\n", lr->credit_why);
	if (lr->gate_note) {
		md_escape(f, PAB_LEDGER_GATE_WHY);
		fputs(": ", f);
		md_escape(f, lr->gate_note);
		fputs("\n\n", f);
	}
	if (lr->exit_note) {
		md_escape(f, lr->exit_note);
		fputs(".\n\n", f);
	}
	if (lr->why && (!lr->gate_note || row->failed)) {
		md_escape(f, lr->why);
		if (row->fail_reason) {
			fputs(": ", f);
			md_escape(f, row->fail_reason);
		}
		fputs("\n\n", f);
	}
	if (lr->n < PAB_MIN_N_95 && !lr->gate_note)
		fprintf(f, "Only %zu paired reps: no %s interval exists below %d.\n\n",
			lr->n, conf, PAB_MIN_N_95);
	fprintf(f, "| metric | base \u2192 head (medians) | change [%s interval] | coverage | noise | allowance | verdict | reason |\n"
		   "|---|---|---|--:|--:|--:|---|---|\n", conf);
	for (c = 0; c < l->n_cells; c++)
		if (l->cells[c].row == lr->row && l->cells[c].arm == lr->arm)
			md_detail_cell(f, e, l, lr, &l->cells[c]);
	fputc('\n', f);
}

/*
 * Under the table: each undecided guard (accepted uncertainty) and each
 * required cell that holds a verdict, with its interval and reason, so a
 * reader sees what was not shown without opening the details.
 */
/* Cells listed under the table; the rest are counted (a comment has a
 * size limit, and the details hold them all). */
#define MD_LISTED_CELLS 20

static void md_accepted(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l)
{
	size_t c, n = 0;
	char ch[128], why[512];

	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];

		if (cell->res.verdict != PAB_INCONCLUSIVE && cell->res.verdict != PAB_FAIL)
			continue;
		if (cell->role == PAB_ROLE_SHOWN)
			continue;
		if (++n > MD_LISTED_CELLS)
			continue;
		if (n == 1)
			fputs("\n", f);
		pab_fmt_change(ch, sizeof(ch), cell->metric, &cell->res.change,
			       cell->res.base_median, PAB_FMT_UTF8 | PAB_FMT_NO_SAME);
		pab_fmt_cell_reason(e, l, cell, why, sizeof(why));
		fputs("- ", f);
		md_escape(f, e->rows[cell->row].name);
		fprintf(f, " \u00b7 %s: %s %s%s \u2014 ", pab_metrics[cell->metric].name, ch,
			pab_fmt_verdict_look(cell->res.verdict)->badge,
			cell->held ? " (time guard, holds the PASS)" :
			cell->role == PAB_ROLE_GUARD && cell->res.verdict == PAB_INCONCLUSIVE ?
			" (guard, accepted uncertainty)" : "");
		md_escape(f, why);
		fputs("\n", f);
	}
	if (n > MD_LISTED_CELLS)
		fprintf(f, "- \u2026 and %zu more undecided or failing cells: see the intervals below\n",
			n - MD_LISTED_CELLS);
}

/* One attribution: a paragraph and a table of its top names. */
static void md_attribution(FILE *f, const struct pab_attribution *a)
{
	double d = pab_attribution_change(a);
	char *line = pab_report_attr_heading(a), ch[64], base[48], head[48], blocks[96];
	size_t i;

	/* "what" -> "What" for a paragraph. */
	fputs("W", f);
	md_escape(f, line + 1);
	fputs(".\n\n", f);
	free(line);
	if (a->n_items)
		fputs("| change | share | name | base \u2192 head | where |\n"
		      "|--:|--:|---|---|---|\n", f);
	for (i = 0; i < a->n_items && i < PAB_REPORT_ATTR_SHOWN; i++) {
		const struct pab_attr_item *x = &a->items[i];

		pab_report_attr_signed(ch, sizeof(ch), a->metric, x->head - x->base);
		pab_fmt_value(base, sizeof(base), a->metric, x->base);
		pab_fmt_value(head, sizeof(head), a->metric, x->head);
		pab_report_attr_blocks(blocks, sizeof(blocks), x);
		fprintf(f, "| %s | %.1f%% | ", ch, d != 0 ? (x->head - x->base) / d * 100 : 0.0);
		md_escape(f, x->name);
		fprintf(f, " | %s \u2192 %s", base, head);
		md_escape(f, blocks);
		fputs(" | ", f);
		md_escape(f, x->where ? pab_report_attr_base_name(x->where) : "");
		fputs(" |\n", f);
	}
	if (a->n_items)
		fputc('\n', f);
	if (a->note) {
		fputs("Attribution note: ", f);
		md_escape(f, a->note);
		fputs(".\n\n", f);
	}
}

/* Every attribution of e under "What moved", outside the intervals'
 * details: it is what a reader of a FAIL wants first (doc/attribution.md
 * §5). Each shows its first mover in a line and folds its table, so that a
 * comment stays short; a truncated comment drops the folds first. */
static void md_what_moved(FILE *f, const struct pab_experiment *e)
{
	int stacks = 0;
	size_t i;

	if (e->n_attr)
		fputs("\n### What moved\n", f);
	for (i = 0; i < e->n_attr; i++) {
		const struct pab_attribution *a = &e->attr[i];
		double d = pab_attribution_change(a);
		char ch[64];

		fputs("\n**", f);
		md_escape(f, a->row);
		fputs(" \u00b7 ", f);
		md_escape(f, a->arm);
		fprintf(f, "**, %s: ", pab_metrics[a->metric].name);
		if (!a->n_items) {
			md_escape(f, a->note ? a->note : "nothing moved");
			fputs(".\n", f);
			continue;
		}
		pab_report_attr_signed(ch, sizeof(ch), a->metric, a->items[0].head - a->items[0].base);
		md_escape(f, a->items[0].name);
		fprintf(f, " %s, %.0f%% of the change\n\n<details><summary>top %zu movers</summary>\n\n",
			ch, d != 0 ? (a->items[0].head - a->items[0].base) / d * 100 : 0.0,
			a->n_items < PAB_REPORT_ATTR_SHOWN ? a->n_items : (size_t)PAB_REPORT_ATTR_SHOWN);
		md_attribution(f, a);
		fputs("</details>\n", f);
		stacks |= a->n_stacks > 0;
	}
	if (stacks)
		fputs("\nThe differential flame graphs of time are in the HTML report "
		      "(`perfab ledger --format html`).\n", f);
}

/*
 * Markdown for a pull-request comment or a GitHub step summary: the
 * verdict and what to do in the heading, one compact table, the full
 * intervals folded into <details>, the disposition line last.
 */
void pab_report_markdown(FILE *f, const struct pab_experiment *e,
			 const struct pab_ledger *l)
{
	char conf[16];
	size_t i;

	pab_fmt_conf(conf, sizeof(conf), l->conf);
	md_heading(f, e, l, conf);
	md_overview(f, e, l);
	md_accepted(f, e, l);
	md_what_moved(f, e);
	fprintf(f, "\n<details><summary>Intervals, noise and allowances</summary>\n\n");
	for (i = 0; i < l->n_rows; i++)
		md_detail(f, e, l, &l->rows[i], conf);
	fprintf(f, "</details>\n\n");
	fprintf(f, "**Disposition:** %s\n", l->disposition.summary);
}
