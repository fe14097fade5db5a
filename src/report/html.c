/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * html.c — the ledger as one self-contained HTML page (html.h): inline
 * CSS, inline SVG (the plots are svg.c's), no script, nothing fetched.
 * The page holds the header (rules, protocol, disposition, arms), the
 * overview of every cell, the parameter series when the rows are one, and
 * per row its forest plots, cell tables and per-rep traces.
 *
 * Every string from the artifact goes through pab_fmt_escape().
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "report/attribution.h"
#include "report/format.h"
#include "report/reason.h"
#include "report/markup.h"
#include "report/html.h"
#include "report/svg.h"
#include "util.h"

#define esc pab_fmt_escape

/* ------------------------------------------------------------------ */
/* The page                                                           */

/* 1 when e's rows are a parameter series: two or more plain command rows
 * that all carry parameters (perfab run --parameter-scan/-list). */
static int is_series(const struct pab_experiment *e)
{
	size_t ri;

	if (e->n_rows < 2)
		return 0;
	for (ri = 0; ri < e->n_rows; ri++)
		if (e->rows[ri].workload || e->rows[ri].argc || !e->rows[ri].n_params)
			return 0;
	return 1;
}

/* The series section: one plot per head arm, when the rows are one. */
static void series(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l)
{
	size_t a;

	if (!is_series(e))
		return;
	fputs("<h2>Change against the parameter</h2>\n<p class=\"meta\">One point per row, in "
	      "order: the median paired change of each judged metric, its bar the interval, on "
	      "the forest plots' scale.</p>\n", f);
	for (a = 0; a < e->n_arms; a++) {
		if ((int)a == l->base || (int)a == l->null_arm)
			continue;
		fputs("<h3>", f);
		esc(f, e->arms[a].name);
		fputs("</h3>\n", f);
		pab_svg_series(f, e, l, a);
	}
}

/*
 * The page's one stylesheet. The overview and the cell tables reflow
 * rather than scroll: a row of the overview is a grid of metric cells
 * that wraps to the width there is, each cell naming its metric, so every
 * verdict, a FAIL above all, is in view without scrolling sideways at any
 * width; below 720 px the Arms table and the cell tables (class reflow)
 * become a card per line, each value under the name of its column. The forest
 * plot is drawn narrow enough that its text stays legible on a phone.
 */
static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"margin:24px auto;max-width:1120px;padding:0 16px;color:#1b1f23;background:#fff}\n"
	"h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:28px 0 6px;"
	"border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px;margin:16px 0 4px}\n"
	"h1,h2,h3,p{overflow-wrap:anywhere}\n"
	"table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d0d7de;"
	"padding:3px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}\n"
	".badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600}\n"
	".badge.pass{background:#1a7f37}.badge.fail{background:#cf222e}"
	".badge.inc{background:#9a6700}.badge.nm{background:#6e7781}\n"
	".disp{margin:6px 0;padding:8px 12px;border-left:4px solid #57606a;background:#f6f8fa}\n"
	".meta{color:#57606a}\n"
	"svg{display:block;margin:6px 0;background:#fff;max-width:100%;height:auto}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	"td.pass{background:#dafbe1}td.fail{background:#ffebe9}td.inc{background:#fff8c5}\n"
	"#overview,#overview tbody{display:block;border:0;margin:8px 0}\n"
	"#overview tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(12.5em,1fr));"
	"gap:4px;margin:0 0 12px}\n"
	"#overview td{border:1px solid #d0d7de;border-radius:4px;padding:3px 8px;text-align:left;"
	"font-variant-numeric:tabular-nums}\n"
	"#overview td.rowhead{grid-column:1/-1;border:0;border-bottom:1px solid #d0d7de;"
	"border-radius:0;padding:2px 0}\n"
	"#overview .lbl{display:block;font-size:12px;color:#57606a}\n"
	"#overview td.fail .lbl{color:#a40e26;font-weight:600}#overview .iv{display:block}\n"
	"@media (max-width:720px){table.reflow,table.reflow tbody{display:block;border:0}"
	"table.reflow tr.hdr{display:none}table.reflow tr{display:grid;"
	"grid-template-columns:repeat(auto-fill,minmax(9em,1fr));margin:0 0 10px;"
	"border:1px solid #d0d7de;border-radius:4px}table.reflow td{border:0;text-align:left}"
	"table.reflow td.span{grid-column:1/-1}"
	"table.reflow td[data-label]::before{content:attr(data-label);display:block;"
	"font-size:12px;color:#57606a}}\n"
	"svg text{font:11px system-ui,sans-serif;fill:#24292f}svg.forest text,svg.series text{font-size:13px}\n"
	"svg .tick{fill:#57606a}svg .axis{fill:#57606a}svg .ttitle{font-weight:600}\n"
	"svg .metric{font-weight:600}svg .verdict{font-weight:600}\n"
	"svg .grid{stroke:#eaeef2;stroke-width:1}svg .zero{stroke:#24292f;stroke-width:1}\n"
	"svg .block{stroke:#d0d7de;stroke-dasharray:2 3}\n"
	"svg .noise{fill:#8c959f;fill-opacity:.28}svg .allow{fill:#2da44e;fill-opacity:.28}\n"
	"svg .failthr{stroke:#cf222e;stroke-dasharray:4 2;stroke-width:1.5}\n"
	"svg .ci,svg .whisker{stroke-width:2.2}svg .range{stroke-dasharray:5 3}\n"
	"svg .pass .ci,svg .pass .whisker{stroke:#1a7f37}svg .pass .median,"
	"svg .pass .verdict{fill:#1a7f37}\n"
	"svg .fail .ci,svg .fail .whisker{stroke:#cf222e}svg .fail .median,"
	"svg .fail .verdict{fill:#cf222e}\n"
	"svg .inc .ci,svg .inc .whisker{stroke:#9a6700}svg .inc .median,"
	"svg .inc .verdict{fill:#9a6700}\n"
	"svg .note{fill:#6e7781;font-style:italic}\n"
	"svg .arm{fill:none;stroke-width:1.6;stroke-linejoin:round}\n"
	".traces{display:flex;flex-wrap:wrap;gap:8px}.traces svg{flex:0 1 360px}\n"
	".legend span{display:inline-block;margin-right:14px}\n"
	".sw{display:inline-block;width:14px;height:4px;margin-right:4px;vertical-align:middle}\n";

static void badge(FILE *f, enum pab_verdict v)
{
	fprintf(f, "<span class=\"badge %s\">%s</span>", pab_fmt_verdict_look(v)->css, pab_verdict_name(v));
}

/*
 * What arm runs, for the Arms table: its own command line, or, for the
 * rows' built-in programs (workloads: the arm gives no argv), the program
 * it resolved to; then the environment it adds and its prepare command.
 * Never an empty cell: the base and the null arm of a workload run carry
 * no argv of their own.
 */
static void arm_command(FILE *f, const struct pab_arm *arm)
{
	size_t i;

	fputs("<code>", f);
	for (i = 0; i < arm->argc; i++) {
		esc(f, arm->argv[i]);
		fputc(' ', f);
	}
	if (!arm->argc && arm->exe) {
		esc(f, arm->exe);
		fputc(' ', f);
	}
	for (i = 0; i < arm->n_env; i++) {
		fputs("[", f);
		esc(f, arm->env[i].key);
		fputc('=', f);
		esc(f, arm->env[i].value);
		fputs("] ", f);
	}
	fputs("</code>", f);
	if (!arm->argc)
		fputs(arm->exe ? " <span class=\"meta\">with each row's parameters</span>" :
		      "<span class=\"meta\">each row's own program and parameters</span>", f);
	if (arm->prepare) {
		fputs("<br><span class=\"meta\">prepare:</span> <code>", f);
		esc(f, arm->prepare);
		fputs("</code>", f);
	}
}

static void header(FILE *f, const struct pab_experiment *e,
		   const struct pab_ledger *l)
{
	const struct pab_disposition *d = &l->disposition;
	size_t a;
	char *line, conf[16];

	fputs("<header>\n<h1>perfab ledger ", f);
	badge(f, l->overall);
	fputs("</h1>\n<p class=\"meta\">rules <code>", f);
	esc(f, pab_rules_name(l->rules));
	pab_fmt_conf(conf, sizeof(conf), l->conf);
	fprintf(f, "</code> \xc2\xb7 %s sign-test intervals on paired changes \xc2\xb7 ", conf);
	fputs(l->null_arm >= 0 ? "noise floor from the null arm" :
	      "no null arm: noise 0, strict", f);
	fputs(" \xc2\xb7 protocol <code>", f);
	esc(f, e->protocol);
	fputs("</code> \xc2\xb7 perfab ", f);
	esc(f, e->perfab_version);
	if (e->cpu_model) {
		fputs(" \xc2\xb7 CPU ", f);
		esc(f, e->cpu_model);
	}
	if (e->pool.recorded && isfinite(e->pool.artifacts) && e->pool.mode) {
		fprintf(f, " \xc2\xb7 pooled from %.0f artifacts (", e->pool.artifacts);
		esc(f, e->pool.mode);
		fputs(")", f);
	}
	fputs("</p>\n<p class=\"disp\" id=\"disposition\">", f);
	line = pab_disposition_line(d);
	esc(f, line);
	free(line);
	fputs("</p>\n</header>\n", f);

	fputs("<h2>Arms</h2>\n<div class=\"scroll\"><table class=\"reflow\"><tr class=\"hdr\">"
	      "<th>arm</th><th>revision</th><th>sha256</th><th>command</th></tr>\n", f);
	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm *arm = &e->arms[a];

		fprintf(f, "<tr><td class=\"span\"><span class=\"sw\" style=\"background:%s\"></span>",
			pab_svg_arm_color(e, l, a));
		esc(f, arm->name);
		fputs((int)a == l->base ? " (base)" : (int)a == l->null_arm ?
		      " (base again)" : "", f);
		fputs("</td><td data-label=\"revision\">", f);
		esc(f, arm->revision ? arm->revision : "");
		fputs("</td><td data-label=\"sha256\"><code>", f);
		if (arm->sha256) {
			char shortsha[17];

			snprintf(shortsha, sizeof(shortsha), "%s", arm->sha256);
			esc(f, shortsha);
		}
		fputs("</code></td><td class=\"span\" data-label=\"command\">", f);
		arm_command(f, arm);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

/* A change as it reads (pab_fmt_change), its interval on a line of its
 * own: "16.3\u00d7 faster" over "[5.85, 25.3]", so a narrow cell breaks
 * it where it reads well. */
static void change_words(FILE *f, const char *reads)
{
	const char *iv = strstr(reads, " ["), *paren = strstr(reads, " (");
	char *head;

	if (paren && (!iv || paren < iv))
		iv = paren;
	if (!iv) {
		esc(f, reads);
		return;
	}
	head = xstrndup(reads, (size_t)(iv - reads));
	esc(f, head);
	fputs(" <span class=\"iv\">", f);
	esc(f, iv + 1);
	fputs("</span>", f);
	free(head);
}

/* The overview's heading cell of lr: the row (a link to its section),
 * the arm, n, the memory credit where it applies, the verdict. */
static void overview_head(FILE *f, const struct pab_experiment *e,
			  const struct pab_ledger_row *lr, int mixed)
{
	fprintf(f, "<td class=\"rowhead\"><a href=\"#row%zu\"><strong>", lr->row);
	esc(f, e->rows[lr->row].name);
	fprintf(f, "</strong></a>%s \xc2\xb7 ", lr->control ? " (control)" : "");
	esc(f, e->arms[lr->arm].name);
	fprintf(f, " \xc2\xb7 n=%zu", lr->n);
	if (!pab_fmt_plain_row(e, lr) || lr->saved_pct > 0 || isfinite(lr->rss_floor))
		fprintf(f, " \xc2\xb7 saved %.1f%%", lr->saved_pct);
	if (mixed) {
		const char *cpu = pab_row_cpu_model(e, &e->rows[lr->row]);

		fputs(" \xc2\xb7 ", f);
		esc(f, cpu ? cpu : "unknown CPU model");
	}
	fputs(" ", f);
	badge(f, lr->verdict);
	fputs("</td>", f);
}

/*
 * Every row × head arm × judged metric: the overview. A row of it is a
 * heading cell and a cell per judged metric that names its metric; the
 * stylesheet lays the cells out as a grid that wraps to the page's width
 * (never a table wider than the page, which hid the later metrics' FAIL
 * cells behind a scroll bar), in the same order on every row so a metric
 * stays in one column while the width allows.
 */
static void summary(FILE *f, const struct pab_experiment *e,
		    const struct pab_ledger *l)
{
	int judged[PAB_M_COUNT] = { 0 };
	int mixed = pab_ledger_mixed_cpus(e);
	size_t i, m;

	for (i = 0; i < l->n_cells; i++)
		judged[l->cells[i].metric] = 1;
	fputs("<h2>Overview</h2>\n<p class=\"meta\">Per row and head arm, each judged metric's "
	      "paired change against base, coloured by its verdict (green PASS, red FAIL, "
	      "amber INCONCLUSIVE); hover a cell for its reason.</p>\n"
	      "<table id=\"overview\">\n", f);
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];

		fputs("<tr>", f);
		overview_head(f, e, lr, mixed);
		for (m = 0; m < PAB_M_COUNT; m++) {
			const struct pab_ledger_cell *c;
			char reads[128], why[512];

			if (!judged[m])
				continue;
			c = pab_ledger_find_cell(l, lr->row, lr->arm, (enum pab_metric_id)m);
			if (!c || c->res.verdict == PAB_NOT_MEASURED) {
				fputs("<td class=\"nm\"><span class=\"lbl\">", f);
				esc(f, pab_metrics[m].label);
				fputs("</span>not measured</td>", f);
				continue;
			}
			pab_fmt_change(reads, sizeof(reads), c->metric, &c->res.change,
				       c->res.base_median, PAB_FMT_UTF8 | pab_fmt_change_flags(c));
			pab_fmt_cell_reason(e, l, c, why, sizeof(why));
			fprintf(f, "<td class=\"%s\" title=\"%s", pab_fmt_verdict_look(c->res.verdict)->css,
				pab_verdict_name(c->res.verdict));
			if (*why) {
				fputs(": ", f);
				esc(f, why);
			}
			fputs("\"><span class=\"lbl\">", f);
			esc(f, pab_metrics[m].label);
			if (c->res.verdict != PAB_PASS)
				fprintf(f, " \xc2\xb7 %s", pab_verdict_name(c->res.verdict));
			fputs("</span>", f);
			change_words(f, reads);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Row × head arm lr's cells as a table: the medians, the change and its
 * interval, the bands, the verdict and its reason. Every cell carries the
 * name of its column (data-label), which the stylesheet shows when the
 * table becomes a card per metric on a narrow screen. */
static void cell_table(FILE *f, const struct pab_experiment *e,
		       const struct pab_ledger *l, const struct pab_ledger_row *lr)
{
	size_t c;
	char conf[16];

	pab_fmt_conf(conf, sizeof(conf), l->conf);
	fprintf(f, "<table class=\"reflow\"><tr class=\"hdr\"><th>metric</th><th>base median</th>"
		"<th>head median</th><th>change [%s interval]</th><th>coverage</th><th>noise</th>"
		"<th>allowance</th><th>fail above</th><th>verdict</th><th>reason</th></tr>\n", conf);
	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];
		const struct pab_cell_result *r = &cell->res;
		char b[32], h[32], reads[128], why[512];

		if (cell->row != lr->row || cell->arm != lr->arm)
			continue;
		fputs("<tr><td class=\"span\"><strong>", f);
		esc(f, pab_metrics[cell->metric].name);
		fputs("</strong>", f);
		if (r->verdict == PAB_NOT_MEASURED) {
			fputs("</td><td colspan=\"9\">not measured</td></tr>\n", f);
			continue;
		}
		pab_fmt_value(b, sizeof(b), cell->metric, r->base_median);
		pab_fmt_value(h, sizeof(h), cell->metric, r->head_median);
		pab_fmt_change(reads, sizeof(reads), cell->metric, &r->change, r->base_median,
			       PAB_FMT_UTF8 | pab_fmt_change_flags(cell));
		fputs("</td><td class=\"num\" data-label=\"base median\">", f);
		esc(f, b);
		fputs("</td><td class=\"num\" data-label=\"head median\">", f);
		esc(f, h);
		fprintf(f, "</td><td class=\"num\" data-label=\"change [%s interval]\">", conf);
		esc(f, reads);
		fprintf(f, "</td><td class=\"num\" data-label=\"coverage\">%.1f%%</td>"
			"<td class=\"num\" data-label=\"noise\">%.1f%%</td>"
			"<td class=\"num\" data-label=\"allowance\">%.1f%%</td>"
			"<td class=\"num\" data-label=\"fail above\">%.1f%%</td>"
			"<td data-label=\"verdict\">",
			r->change.coverage * 100, r->noise, r->allowance, r->fail_threshold);
		badge(f, r->verdict);
		if (pab_fmt_decided_by(r))
			fprintf(f, " by %s", pab_fmt_decided_by(r));
		if (pab_ledger_cell_is_gain(l, cell))
			fputs(" \xc2\xb7 gain", f);
		pab_fmt_cell_reason(e, l, cell, why, sizeof(why));
		fputs("</td><td class=\"span\">", f);
		esc(f, why);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void row_section(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l, size_t ri)
{
	const struct pab_row *row = &e->rows[ri];
	int measured[PAB_M_COUNT] = { 0 };
	size_t i, a, r, m;
	char conf[16];

	pab_fmt_conf(conf, sizeof(conf), l->conf);
	fprintf(f, "<section id=\"row%zu\">\n<h2>", ri);
	esc(f, row->name);
	fprintf(f, "%s ", row->control ? " (control)" : "");
	badge(f, pab_ledger_row_verdict(l, ri));
	fputs("</h2>\n", f);
	if (row->failed) {
		fputs("<p><strong>a child failed:</strong> ", f);
		esc(f, row->fail_reason ? row->fail_reason : "");
		fputs("</p>\n", f);
	}
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];

		if (lr->row != ri)
			continue;
		fputs("<h3>", f);
		pab_fmt_row_title(f, e, l, lr, 0, esc);
		fprintf(f, " \xc2\xb7 n=%zu \xc2\xb7 saved %.1f%%", lr->n, lr->saved_pct);
		if (isfinite(lr->rss_floor)) {
			const char *unit;
			double v = pab_fmt_plot_value(PAB_M_RSS_FLOOR, lr->rss_floor, &unit);

			fprintf(f, " (RSS floor %.1f %s%s)", v, unit,
				lr->floor_inconsistent ? ", inconsistent: no credit" : "");
		}
		fputs(" ", f);
		badge(f, lr->verdict);
		fputs("</h3>\n", f);
		if (lr->n < PAB_MIN_N_95)
			fprintf(f, "<p>only %zu paired reps: no %s interval exists below %d; the "
				"dashed lines are ranges, not intervals</p>\n", lr->n, conf,
				PAB_MIN_N_95);
		pab_svg_forest(f, e, l, lr);
		fputs("<div class=\"scroll\">", f);
		cell_table(f, e, l, lr);
		fputs("</div>\n", f);
		pab_report_attribution_html(f, e, row->name, e->arms[lr->arm].name);
	}
	for (i = 0; i < l->n_cells; i++)
		if (l->cells[i].row == ri)
			measured[l->cells[i].metric] = 1;
	fputs("<h3>Per-rep traces</h3>\n<p class=\"legend\">", f);
	for (a = 0; a < e->n_arms; a++) {
		fprintf(f, "<span><span class=\"sw\" style=\"background:%s\"></span>",
			pab_svg_arm_color(e, l, a));
		esc(f, e->arms[a].name);
		fputs("</span>", f);
	}
	fputs(" dotted lines: block boundaries</p>\n<div class=\"traces\">\n", f);
	for (m = 0; m < PAB_M_COUNT; m++) {
		int any = 0;

		if (!measured[m])
			continue;
		for (r = 0; r < row->n_reps && !any; r++)
			for (a = 0; a < e->n_arms; a++)
				any |= isfinite(row->reps[r].result[a].m[m]);
		if (any)
			pab_svg_trace(f, e, l, row, (enum pab_metric_id)m);
	}
	fputs("</div>\n</section>\n", f);
}

void pab_report_html(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l)
{
	size_t ri, i;
	char conf[16];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>perfab ledger: ", f);
	fputs(pab_verdict_name(l->overall), f);
	fputs("</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n", f);
	header(f, e, l);
	summary(f, e, l);
	series(f, e, l);
	pab_fmt_conf(conf, sizeof(conf), l->conf);
	fprintf(f, "<p class=\"meta\">Forest plots: the dot is the median paired change, the bar its "
	      "%s sign-test interval (dashed: fewer than 6 reps, a range, not an interval), "
	      "on a log scale of the factor by which head is worse (\xc3\x97, right) or better "
	      "(\xc3\xb7, left) than base, so small changes stay visible beside large ones; "
	      "grey band: the null arm's noise \xc2\xb1noise; green band: the allowance, 0 to "
	      "+allowance \xe2\x80\x94 PASS when the whole bar ends inside it; red dashes: the "
	      "FAIL threshold when it differs (FAIL when the whole bar lies beyond it).</p>\n", conf);
	for (ri = 0; ri < e->n_rows; ri++) {
		int judged = 0;

		for (i = 0; i < l->n_rows; i++)
			judged |= l->rows[i].row == ri;
		if (judged)
			row_section(f, e, l, ri);
	}
	fputs("</body>\n</html>\n", f);
}
