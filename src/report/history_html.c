/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_html.c — the trend page of the merge history (history_html.h;
 * `perfab history html`): one self-contained HTML file, inline CSS and
 * SVG, no script, nothing fetched.
 *
 * At the top an index of the charts and a legend of every mark. Per row ×
 * arm × metric one chart: the chained change after each merge and its 95%
 * band (doc/method.md, "Drift"), the last merge's tolerance either way, a
 * point per merge coloured by its verdict, change points of the per-merge
 * changes as dashed lines and the steps of the level ringed. The y axis is
 * the chained change in percent, "+ = worse" whatever the metric, with
 * zero and the sign on its ticks; the x axis names the merges' commits.
 * A chart keeps a width at which its text is legible: on a narrow screen
 * it scrolls sideways in its own box while the page around it wraps.
 *
 * A merge's own change reads as the ledger reads it
 * (pab_report_history_change). Every name from the database goes through
 * pab_term_safe() and then the ledger's HTML escaper, pab_fmt_escape():
 * markup is inert and no control or bidirectional formatting character
 * reaches the page.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/markup.h"
#include "report/history.h"
#include "report/history_html.h"
#include "report/svg.h"
#include "term.h"
#include "util.h"

/* A chart's geometry (viewBox units; it is drawn at least MIN_W px wide). */
#define CH_W 800
#define CH_H 300
#define CH_L 72   /* the y axis' ticks and title */
#define CH_R 44   /* room for the last merge's ring */
#define CH_T 16
#define CH_B 50   /* the commits and the x axis' title */
#define LABEL_PX 58 /* the least distance between two commit labels */

/* A name on the page: terminal-safe, then escaped for HTML. */
static void name(FILE *f, const char *s)
{
	pab_fmt_escape(f, pab_term_safe(s ? s : ""));
}

static const char *verdict_class(const char *v)
{
	if (!strcmp(v, "PASS"))
		return "pass";
	if (!strcmp(v, "FAIL"))
		return "fail";
	if (!strcmp(v, "INCONCLUSIVE"))
		return "inconclusive";
	return "nm";
}

/* "+2.5%", "0", "\u22122.5%": a percentage with its sign, decimals as
 * the step needs, into buf. */
static void signed_pct(char *buf, size_t len, double v, double step)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) < step * 1e-6)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%s%.*f%%", v > 0 ? "+" : "\u2212", dec, fabs(v));
}

/* One series' chart: its geometry's scale and, per merge, the chained
 * level and band after it. */
struct plot {
	const struct pab_history_series *s;
	const struct pab_drift *d;
	double ymin, ymax, step;
	double *lev, *lo, *hi;
};

static double px(const struct plot *pl, size_t i)
{
	size_t n = pl->s->n;

	return CH_L + (n > 1 ? (double)i / (double)(n - 1) : 0.5) * (CH_W - CH_L - CH_R);
}

static double py(const struct plot *pl, double v)
{
	return CH_T + (pl->ymax - v) / (pl->ymax - pl->ymin) * (CH_H - CH_T - CH_B);
}

/* The chained level and band after each merge, and the y range: them, 0
 * and the tolerance either way, out to whole ticks. */
static void plot_levels(struct plot *pl)
{
	const struct pab_history_series *s = pl->s;
	struct pab_step *steps = xcalloc(s->n, sizeof(*steps));
	double tol = pl->d->tolerance;
	size_t i;

	pl->lev = xcalloc(s->n, sizeof(*pl->lev));
	pl->lo = xcalloc(s->n, sizeof(*pl->lo));
	pl->hi = xcalloc(s->n, sizeof(*pl->hi));
	pl->ymin = pl->ymax = 0.0;
	for (i = 0; i < s->n; i++) {
		struct pab_chain c;

		steps[i] = pab_history_point_step(&s->pts[i]);
		pab_chain_steps(steps, i + 1, PAB_DRIFT_CONF, &c);
		pl->lev[i] = c.n ? c.change_pct : 0.0;
		pl->lo[i] = c.n ? c.lo_pct : 0.0;
		pl->hi[i] = c.n ? c.hi_pct : 0.0;
		if (pl->lo[i] < pl->ymin)
			pl->ymin = pl->lo[i];
		if (pl->hi[i] > pl->ymax)
			pl->ymax = pl->hi[i];
	}
	if (isfinite(tol) && tol > 0) {
		pl->ymin = fmin(pl->ymin, -tol);
		pl->ymax = fmax(pl->ymax, tol);
	}
	if (pl->ymax - pl->ymin < 1.0) {
		pl->ymax += 0.5;
		pl->ymin -= 0.5;
	}
	pl->step = pab_svg_nice_step(pl->ymax - pl->ymin, 5);
	pl->ymin = floor(pl->ymin / pl->step - 1e-9) * pl->step;
	pl->ymax = ceil(pl->ymax / pl->step + 1e-9) * pl->step;
	free(steps);
}

/* The y axis: a grid line and a signed label per tick, zero drawn
 * stronger, and the axis' title with the sign convention. */
static void plot_y_axis(FILE *f, const struct plot *pl)
{
	double v;
	char lab[32];

	for (v = pl->ymin; v <= pl->ymax + pl->step / 2; v += pl->step) {
		int zero = fabs(v) < pl->step * 1e-6;

		signed_pct(lab, sizeof(lab), v, pl->step);
		fprintf(f, "<line class=\"%s\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			zero ? "zero" : "grid", CH_L, CH_W - CH_R, py(pl, v), py(pl, v), CH_L - 6,
			py(pl, v) + 4, lab);
	}
	fprintf(f, "<text class=\"axis\" transform=\"translate(16 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">chained change (+ = worse)</text>\n",
		(CH_T + CH_H - CH_B) / 2.0);
}

/* The x axis: a tick per merge and, no two closer than LABEL_PX, the
 * merges' commits (7 characters, or "#id" without one), the last merge's
 * always. */
static void plot_x_axis(FILE *f, const struct plot *pl)
{
	const struct pab_history_series *s = pl->s;
	double y = CH_H - CH_B, kept = INFINITY;
	size_t i;

	fprintf(f, "<line class=\"xaxis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", CH_L,
		CH_W - CH_R, y, y);
	for (i = s->n; i-- > 0;) {
		const struct pab_history_point *p = &s->pts[i];
		char id[32];

		fprintf(f, "<line class=\"xaxis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			px(pl, i), px(pl, i), y, y + 4);
		if (kept - px(pl, i) < LABEL_PX)
			continue;
		kept = px(pl, i);
		fprintf(f, "<text class=\"tick commit\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			px(pl, i), y + 17);
		if (p->merge->commit) {
			char c7[8];

			snprintf(c7, sizeof(c7), "%s", pab_term_safe(p->merge->commit));
			name(f, c7);
		} else {
			snprintf(id, sizeof(id), "#%lld", (long long)p->merge->id);
			name(f, id);
		}
		fputs("</text>\n", f);
	}
	fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">merges, oldest "
		"to newest, by commit</text>\n", (CH_L + CH_W - CH_R) / 2.0, CH_H - 6);
}

/* The tolerance either way: the last merge's, dashed, labelled. */
static void plot_tolerance(FILE *f, const struct plot *pl)
{
	double tol = pl->d->tolerance;

	if (!isfinite(tol) || tol <= 0)
		return;
	fprintf(f, "<line class=\"tol worse\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\">"
		"<title>tolerance +%.2f%%: a chained change wholly above it is a drift</title></line>"
		"<text class=\"tollab worse\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">tolerance "
		"+%.2g%%</text>\n", CH_L, CH_W - CH_R, py(pl, tol), py(pl, tol), tol,
		CH_W - CH_R - 4, py(pl, tol) - 4, tol);
	fprintf(f, "<line class=\"tol better\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\">"
		"<title>tolerance \u2212%.2f%%: a chained change wholly below it is a gain</title>"
		"</line><text class=\"tollab better\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
		"\u2212%.2g%%</text>\n", CH_L, CH_W - CH_R, py(pl, -tol), py(pl, -tol), tol,
		CH_W - CH_R - 4, py(pl, -tol) + 14, tol);
}

/* The band (the upper edge forward, the lower back) and the level line.
 * One merge draws its level across the chart. */
static void plot_band(FILE *f, const struct plot *pl)
{
	size_t i, n = pl->s->n;
	double L = CH_L, R = CH_W - CH_R;

	fputs("<path class=\"band\" d=\"", f);
	if (n == 1)
		fprintf(f, "M%.1f %.1f L%.1f %.1f L%.1f %.1f L%.1f %.1f ", L, py(pl, pl->hi[0]), R,
			py(pl, pl->hi[0]), R, py(pl, pl->lo[0]), L, py(pl, pl->lo[0]));
	for (i = 0; i < n && n > 1; i++)
		fprintf(f, "%s%.1f %.1f ", i ? "L" : "M", px(pl, i), py(pl, pl->hi[i]));
	for (i = n; n > 1 && i-- > 0;)
		fprintf(f, "L%.1f %.1f ", px(pl, i), py(pl, pl->lo[i]));
	fputs("Z\"/>\n<polyline class=\"level\" points=\"", f);
	if (n == 1)
		fprintf(f, "%.1f,%.1f %.1f,%.1f", L, py(pl, pl->lev[0]), R, py(pl, pl->lev[0]));
	for (i = 0; i < n && n > 1; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(pl, i), py(pl, pl->lev[i]));
	fputs("\"/>\n", f);
}

/* Change points (a dashed line before the first merge of the new
 * segment), steps of the level (a ring) and a point per merge with its
 * figures as a tooltip. */
static void plot_marks(FILE *f, const struct plot *pl)
{
	const struct pab_history_series *s = pl->s;
	const struct pab_drift *d = pl->d;
	char change[160], lev[32];
	size_t i, k;
	double x;

	for (k = 0; k < d->n_cp_step; k++) {
		x = px(pl, d->cp_step[k]) -
		    (s->n > 1 ? (CH_W - CH_L - CH_R) / (double)(s->n - 1) / 2 : 0);
		fprintf(f, "<line class=\"cp\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\">"
			"<title>change point of the per-merge changes before merge #%lld (p = %.3f)"
			"</title></line>\n", x, x, CH_T, CH_H - CH_B,
			(long long)s->pts[d->cp_step[k]].merge->id, d->p_step[k]);
	}
	for (k = 0; k < d->n_jump; k++)
		fprintf(f, "<circle class=\"step\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>\n",
			px(pl, d->jump[k]), py(pl, pl->lev[d->jump[k]]));
	for (i = 0; i < s->n; i++) {
		const struct pab_history_point *p = &s->pts[i];

		pab_report_history_change(change, sizeof(change), s, p, PAB_FMT_UTF8);
		fprintf(f, "<circle class=\"merge %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>merge #%lld"
			" ", verdict_class(p->verdict), px(pl, i), py(pl, pl->lev[i]),
			(long long)p->merge->id);
		name(f, p->merge->commit ? p->merge->commit : "(no commit)");
		fputs(": ", f);
		name(f, change);
		fputc(' ', f);
		name(f, p->verdict);
		pab_fmt_pct(lev, sizeof(lev), pl->lev[i]);
		fprintf(f, ", n = %lld; chained %s%%</title></circle>\n", (long long)p->n, lev);
	}
}

/* "+10.1% [-2.6, +24.4]" of d's chained change, into buf. */
static void chained(char *buf, size_t len, const struct pab_drift *d)
{
	char c[24], lo[24], hi[24];

	pab_fmt_pct(c, sizeof(c), d->chain.change_pct);
	pab_fmt_pct(lo, sizeof(lo), d->chain.lo_pct);
	pab_fmt_pct(hi, sizeof(hi), d->chain.hi_pct);
	snprintf(buf, len, "%s%% [%s, %s]", c, lo, hi);
}

/* "cpu of <code>row</code> [arm]" */
static void series_title(FILE *f, const struct pab_history_series *s)
{
	name(f, s->metric);
	fputs(" of <code>", f);
	name(f, s->row);
	fputs("</code> [", f);
	name(f, s->arm);
	fputs("]", f);
}

/* Series idx's section (d its drift, with something to chain). */
static void html_series(FILE *f, const struct pab_drift *d, size_t idx)
{
	struct plot pl = { d->s, d, 0, 0, 1, NULL, NULL, NULL };
	char ch[96];

	plot_levels(&pl);
	chained(ch, sizeof(ch), d);
	fprintf(f, "<section id=\"s%zu\"><h2>", idx);
	series_title(f, d->s);
	fprintf(f, "</h2>\n<p>chained %s over %zu merge%s: %zu PASS, %zu INCONCLUSIVE, %zu FAIL%s"
		" \xc2\xb7 <a href=\"#index\">index</a></p>\n", ch, d->chain.n,
		d->chain.n == 1 ? "" : "s", d->pass, d->inconclusive, d->fail, d->beyond ? " &mdash; <strong>drift beyond the "
		"tolerance</strong>" : d->better ? " &mdash; <strong>a gain beyond the "
		"tolerance</strong>" : "");
	fprintf(f, "<div class=\"plot\"><svg class=\"history\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"aria-label=\"", CH_W, CH_H);
	name(f, d->s->metric);
	fputc(' ', f);
	name(f, d->s->row);
	fputs("\">\n", f);
	plot_y_axis(f, &pl);
	plot_x_axis(f, &pl);
	plot_band(f, &pl);
	plot_tolerance(f, &pl);
	plot_marks(f, &pl);
	fputs("</svg></div>\n</section>\n", f);
	free(pl.hi);
	free(pl.lo);
	free(pl.lev);
}

static const char css[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:1em auto;max-width:70em;padding:0 1em;"
	"color:#1b1f23}\n"
	"h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.05em;margin:1.4em 0 .2em}\n"
	"h1,h2,p,li{overflow-wrap:anywhere}\n"
	".plot{overflow-x:auto;max-width:100%}\n"
	"svg.history{width:100%;min-width:640px;height:auto;display:block}\n"
	"svg text{font:12px system-ui,sans-serif}\n"
	".band{fill:#9ab;fill-opacity:.35;stroke:none}\n"
	".level{fill:none;stroke:#234;stroke-width:1.5}\n"
	".grid{stroke:#e4e8ec}.zero{stroke:#57606a;stroke-width:1.2}.xaxis{stroke:#8c959f}\n"
	".tol{stroke-width:1.5;stroke-dasharray:6 4}.tol.worse{stroke:#cf222e}"
	".tol.better{stroke:#1a7f37}\n"
	".tollab{font-size:12px}.tollab.worse{fill:#cf222e}.tollab.better{fill:#1a7f37}\n"
	".cp{stroke:#a0a;stroke-width:1.5;stroke-dasharray:5 4}\n"
	".step{fill:none;stroke:#a0a;stroke-width:2}\n"
	".tick{fill:#444}.axis{fill:#57606a}\n"
	".merge{stroke:#fff;stroke-width:1}\n"
	".pass{fill:#2a7}.fail{fill:#c33}.inconclusive{fill:#d90}.nm{fill:#999}\n"
	"#legend{margin:.6em 0;padding:.4em .8em;background:#f6f8fa;border-left:4px solid #8c959f}\n"
	"#legend ul,#index ul{margin:.3em 0;padding-left:1.2em}#legend li{list-style:none;"
	"margin:.15em 0}\n"
	"svg.sw{display:inline-block;vertical-align:middle;width:30px;height:16px;"
	"margin-right:.4em}\n";

/* Every mark of a chart, with a sample of it. */
static void legend(FILE *f)
{
	static const struct {
		const char *sample, *words;
	} item[] = {
		{ "<polyline class=\"level\" points=\"2,11 14,6 28,8\"/>",
		  "the chained change after each merge (+ = worse, whatever the metric: slower, "
		  "more memory, less throughput)" },
		{ "<rect class=\"band\" x=\"2\" y=\"3\" width=\"26\" height=\"10\"/>",
		  "its 95% interval" },
		{ "<circle class=\"merge pass\" cx=\"6\" cy=\"8\" r=\"4\"/><circle class=\"merge "
		  "inconclusive\" cx=\"15\" cy=\"8\" r=\"4\"/><circle class=\"merge fail\" cx=\"24\" "
		  "cy=\"8\" r=\"4\"/>",
		  "a merge, coloured by its own verdict: PASS, INCONCLUSIVE, FAIL (grey: not "
		  "judged); hover it for its commit and change" },
		{ "<line class=\"tol worse\" x1=\"1\" x2=\"29\" y1=\"5\" y2=\"5\"/><line class=\"tol "
		  "better\" x1=\"1\" x2=\"29\" y1=\"12\" y2=\"12\"/>",
		  "the tolerance (the last merge's), red above zero and green below: a band wholly "
		  "above the red line is a drift, wholly below the green one a gain" },
		{ "<line class=\"cp\" x1=\"15\" x2=\"15\" y1=\"1\" y2=\"15\"/>",
		  "a change point: from the next merge on, merges moved the metric differently" },
		{ "<circle class=\"step\" cx=\"15\" cy=\"8\" r=\"6\"/>",
		  "a step of the level: a merge whose own interval lies wholly beyond its "
		  "tolerance" },
	};
	size_t i;

	fputs("<div id=\"legend\"><strong>Legend</strong><ul>\n", f);
	for (i = 0; i < sizeof(item) / sizeof(item[0]); i++)
		fprintf(f, "<li><svg class=\"sw\" viewBox=\"0 0 30 16\" aria-hidden=\"true\">%s</svg>"
			"%s</li>\n", item[i].sample, item[i].words);
	fputs("</ul>The y axis is the change since before the first merge shown, in percent; "
	      "the x axis the merges in the order they were recorded, by commit.</div>\n", f);
}

void pab_report_history_html(FILE *f, const struct pab_history_series *s, size_t n, size_t merges)
{
	struct pab_drift *d = xcalloc(n ? n : 1, sizeof(*d));
	size_t i, drawn = 0;
	char ch[96];

	for (i = 0; i < n; i++) {
		pab_drift_of(&s[i], &d[i]);
		drawn += d[i].chain.n > 0;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>perfab history</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style></head><body>\n<h1>perfab history</h1>\n", f);
	fprintf(f, "<p>%zu merges, %zu series, %zu of them with a measured change, charted below: "
		"per row, arm and metric, the paired changes of the merges chained along the "
		"history.</p>\n", merges, n, drawn);
	legend(f);
	fputs("<nav id=\"index\"><strong>Charts</strong><ul>\n", f);
	for (i = 0; i < n; i++) {
		if (!d[i].chain.n)
			continue;
		chained(ch, sizeof(ch), &d[i]);
		fprintf(f, "<li><a href=\"#s%zu\">", i);
		series_title(f, &s[i]);
		fprintf(f, "</a>: %s over %zu merge%s%s</li>\n", ch, d[i].chain.n,
			d[i].chain.n == 1 ? "" : "s",
			d[i].beyond ? " &mdash; <strong>DRIFT</strong>" : d[i].better ?
			" &mdash; <strong>GAIN</strong>" : "");
	}
	fputs("</ul></nav>\n", f);
	for (i = 0; i < n; i++)
		if (d[i].chain.n)
			html_series(f, &d[i], i);
	fputs("</body></html>\n", f);
	for (i = 0; i < n; i++)
		pab_drift_release(&d[i]);
	free(d);
}
