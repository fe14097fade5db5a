/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.c — the merge history printed (report/history.h): the recorded
 * cells as text, CSV or Markdown, a series' drift as text, and the trend
 * page. The JSON forms are in report/json.c.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/history.h"
#include "term.h"
#include "util.h"

#define esc pab_fmt_escape

/* "+1.23%" or "-" for NaN, into buf. */
static void hist_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v > 0 ? "+" : "-");
	else
		snprintf(buf, len, "%+.2f%%", v);
}

/* s cut to at most w bytes on a character boundary, "~" marking a cut,
 * made safe for a terminal; into buf (of at least w + 1 bytes). */
static const char *fit(char *buf, size_t w, const char *s)
{
	const char *safe = pab_term_safe(s ? s : "-");
	size_t n = strlen(safe);

	if (n <= w)
		return safe;
	n = w - 1;
	while (n && ((unsigned char)safe[n] & 0xC0) == 0x80)
		n--;
	memcpy(buf, safe, n);
	buf[n] = '~';
	buf[n + 1] = '\0';
	return buf;
}

/* A Markdown table cell: | and backslash escaped (and what would start
 * emphasis, code, links or HTML), & as &amp;, control characters and
 * newlines as spaces. */
static void md_field(FILE *f, const char *s)
{
	for (s = s ? s : "-"; *s; s++) {
		if (*s == '&') { /* an entity would render as its character */
			fputs("&amp;", f);
			continue;
		}
		if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_' ||
		    *s == '[' || *s == ']' || *s == '<' || *s == '>')
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
	}
}

void pab_report_history_text(FILE *f, const struct pab_history_series *s, size_t n, size_t merges)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32], w1[80], w2[16], w3[40];
	size_t i, j;

	fprintf(f, "%zu merges, %zu series (row, arm, metric)\n", merges, n);
	for (i = 0; i < n; i++) {
		/* A header per series, then at most 2+8+13+10+22+10+13+5 = 83
		 * columns a merge. */
		fprintf(f, "\n%s of '%s' [%s]\n", fit(w3, 24, s[i].metric), fit(w1, 48, s[i].row),
		       fit(w2, 12, s[i].arm));
		fprintf(f, "  %-7s %-12s %9s %-21s %9s %-12s %4s\n", "merge", "commit", "change",
		       "interval", "tolerance", "verdict", "n");
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];
			char iv[80];

			hist_pct(b1, sizeof(b1), p->change_pct);
			hist_pct(b2, sizeof(b2), p->lo_pct);
			hist_pct(b3, sizeof(b3), p->hi_pct);
			if (isnan(p->lo_pct))
				snprintf(iv, sizeof(iv), "-");
			else
				snprintf(iv, sizeof(iv), "[%s, %s]", b2, b3);
			snprintf(b4, sizeof(b4), "#%lld", (long long)p->merge->id);
			if (isfinite(p->tolerance_pct))
				snprintf(b5, sizeof(b5), "%.2f%%", p->tolerance_pct);
			else
				snprintf(b5, sizeof(b5), "-");
			fprintf(f, "  %-7s %-12s %9s %-21s %9s %-12s %4lld\n", b4, fit(w1, 12, p->merge->commit),
			       b1, iv, b5, p->verdict, (long long)p->n);
		}
	}
}

/* %.17g of v, or nothing for NaN (an empty CSV field). */
static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
}

void pab_report_history_csv(FILE *f, const struct pab_history_series *s, size_t n)
{
	size_t i, j;

	fputs("merge,commit,base,branch,recorded_at,row,arm,metric,base_median,head_median,"
	      "change_pct,lo_pct,hi_pct,coverage,tolerance_pct,verdict,n\n", f);
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];
			const double v[] = { p->base_median, p->head_median, p->change_pct,
					     p->lo_pct, p->hi_pct, p->coverage, p->tolerance_pct };
			size_t k;

			fprintf(f, "%lld,", (long long)p->merge->id);
			pab_fmt_csv_field(f, p->merge->commit);
			fputc(',', f);
			pab_fmt_csv_field(f, p->merge->base);
			fputc(',', f);
			pab_fmt_csv_field(f, p->merge->branch);
			fprintf(f, ",%lld,", (long long)p->merge->recorded_at);
			pab_fmt_csv_field(f, s[i].row);
			fputc(',', f);
			pab_fmt_csv_field(f, s[i].arm);
			fprintf(f, ",%s,", s[i].metric);
			for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
				csv_num(f, v[k]);
				fputc(',', f);
			}
			fprintf(f, "%s,%lld\n", p->verdict, (long long)p->n);
		}
}

void pab_report_history_markdown(FILE *f, const struct pab_history_series *s, size_t n,
				  size_t merges)
{
	char b1[32], b2[32], b3[32];
	size_t i, j;

	fprintf(f, "**%zu merges**\n\n", merges);
	fputs("| merge | commit | row | arm | metric | change | interval | verdict | n |" "\n", f);
	fputs("|---:|---|---|---|---|---:|---|---|---:|" "\n", f);
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];

			hist_pct(b1, sizeof(b1), p->change_pct);
			hist_pct(b2, sizeof(b2), p->lo_pct);
			hist_pct(b3, sizeof(b3), p->hi_pct);
			fprintf(f, "| %lld | ", (long long)p->merge->id);
			md_field(f, p->merge->commit);
			fputs(" | ", f);
			md_field(f, s[i].row);
			fputs(" | ", f);
			md_field(f, s[i].arm);
			fprintf(f, " | %s | %s | [%s, %s] | %s | %lld |\n", s[i].metric, b1, b2, b3,
			       p->verdict, (long long)p->n);
		}
}

const char *pab_report_history_commit(const struct pab_history_point *p, char *buf, size_t len)
{
	if (!p->merge->commit)
		snprintf(buf, len, "#%lld", (long long)p->merge->id);
	else
		snprintf(buf, len, "#%lld %.12s", (long long)p->merge->id, pab_term_safe(p->merge->commit));
	return buf;
}

static void drift_text_cps(FILE *f, const char *what, const struct pab_history_series *s,
			   const size_t *cp, const double *p, size_t n)
{
	char b[64];
	size_t i;

	if (!n)
		return;
	fprintf(f, "  change points in the %s:", what);
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s (p = %.3f)", i ? "," : "", pab_report_history_commit(&s->pts[cp[i]], b, sizeof(b)),
		       p[i]);
	fputc('\n', f);
}

void pab_report_history_drift(FILE *f, const struct pab_drift *d, size_t merges)
{
	const struct pab_history_series *s = d->s;
	const struct pab_history_point *first = &s->pts[0], *last = &s->pts[s->n - 1];
	char b1[32], b2[32], b3[32], b4[64];
	size_t i;

	char line[512], tail[96];

	snprintf(b1, sizeof(b1), "%+.1f%%", d->chain.change_pct);
	snprintf(b2, sizeof(b2), "%+.1f", d->chain.lo_pct);
	snprintf(b3, sizeof(b3), "%+.1f", d->chain.hi_pct);
	snprintf(line, sizeof(line), "%s of '%s' [%s] is %s [%s, %s] over the last %zu merge%s",
		 s->metric, pab_term_safe(s->row), pab_term_safe(s->arm), b1, b2, b3, d->chain.n,
		 d->chain.n == 1 ? "" : "s");
	if (d->fail)
		snprintf(tail, sizeof(tail), "; %zu of them were INCONCLUSIVE, %zu FAIL",
			 d->inconclusive, d->fail);
	else
		snprintf(tail, sizeof(tail), "; %zu of them were INCONCLUSIVE", d->inconclusive);
	/* One line when it fits in 100 columns, else the counts below. */
	if (strlen(line) + strlen(tail) <= 100)
		fprintf(f, "%s%s\n", line, tail);
	else
		fprintf(f, "%s\n  %s\n", line, tail + 2);
	if (d->chain.skipped)
		fprintf(f, "  %zu merges left out: no finite change or interval\n", d->chain.skipped);
	if (s->n < merges)
		fprintf(f, "  (recorded in %zu of the %zu merges selected)\n", s->n, merges);
	if (d->beyond || d->better) {
		fprintf(f, "  %s: the whole interval is beyond the tolerance of %.2f%%%s\n",
		       d->beyond ? "DRIFT" : "GAIN", d->tolerance,
		       d->beyond ? " (worse)" : " (better)");
		if (d->n_top) {
			fprintf(f, "  most of it from:");
			for (i = 0; i < d->n_top; i++) {
				hist_pct(b1, sizeof(b1), s->pts[d->top[i]].change_pct);
				fprintf(f, "%s %s %s", i ? "," : "",
				       pab_report_history_commit(&s->pts[d->top[i]], b4, sizeof(b4)), b1);
			}
			fputc('\n', f);
		}
		fprintf(f, "  confirm it directly, the two endpoints in one A/B on one runner:\n"
		       "    perfab run BUILD_AT_%s BUILD_AT_%s\n",
		       first->merge->base ? pab_term_safe(first->merge->base) : "FIRST_BASE",
		       last->merge->commit ? pab_term_safe(last->merge->commit) : "LAST_COMMIT");
	}
	drift_text_cps(f, "per-merge changes", s, d->cp_step, d->p_step, d->n_cp_step);
	if (d->n_jump) {
		fprintf(f, "  steps of the level (a merge's own interval beyond its tolerance):");
		for (i = 0; i < d->n_jump; i++) {
			hist_pct(b1, sizeof(b1), s->pts[d->jump[i]].change_pct);
			fprintf(f, "%s %s %s", i ? "," : "", pab_report_history_commit(&s->pts[d->jump[i]], b4, sizeof(b4)),
			       b1);
		}
		fputc('\n', f);
	}
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

/* One series' plot: its geometry (viewBox units) and, per merge, the
 * chained level and band after it. */
struct plot {
	const struct pab_history_series *s;
	double W, H, L, R, T, B;
	double ymin, ymax;
	double *lev, *lo, *hi;
};

static double px(const struct plot *pl, size_t i)
{
	size_t n = pl->s->n;

	return pl->L + (n > 1 ? (double)i / (double)(n - 1) : 0.5) * (pl->W - pl->L - pl->R);
}

static double py(const struct plot *pl, double v)
{
	return pl->T + (pl->ymax - v) / (pl->ymax - pl->ymin) * (pl->H - pl->T - pl->B);
}

/* The chained level and band after each merge, and the range they span
 * (at least 1 percentage point, 0 included). */
static void plot_levels(struct plot *pl)
{
	const struct pab_history_series *s = pl->s;
	struct pab_step *steps = xcalloc(s->n, sizeof(*steps));
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
	if (pl->ymax - pl->ymin < 1.0) {
		pl->ymax += 0.5;
		pl->ymin -= 0.5;
	}
	free(steps);
}

/* The series' heading, its summary line and the opening of its svg. */
static void plot_head(FILE *f, const struct plot *pl, const struct pab_drift *d, size_t idx)
{
	const struct pab_history_series *s = pl->s;
	char b1[32], b2[32], b3[32];

	hist_pct(b1, sizeof(b1), d->chain.change_pct);
	hist_pct(b2, sizeof(b2), d->chain.lo_pct);
	hist_pct(b3, sizeof(b3), d->chain.hi_pct);
	fputs("<section><h2>", f);
	esc(f, s->metric);
	fputs(" of <code>", f);
	esc(f, s->row);
	fputs("</code> [", f);
	esc(f, s->arm);
	fprintf(f, "]</h2>\n<p>chained %s [%s, %s] over %zu merges: %zu PASS, %zu INCONCLUSIVE, "
		"%zu FAIL%s</p>\n", b1, b2, b3, d->chain.n, d->pass, d->inconclusive, d->fail,
		d->beyond ? " &mdash; <strong>drift beyond the tolerance</strong>" : "");
	fprintf(f, "<svg class=\"history\" id=\"s%zu\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"aria-label=\"", idx, pl->W, pl->H);
	esc(f, s->metric);
	fputs(" ", f);
	esc(f, s->row);
	fputs("\">\n", f);
}

/* Axes: zero, the range's ends, the first and last merge. */
static void plot_axes(FILE *f, const struct plot *pl)
{
	double L = pl->L, W = pl->W, R = pl->R, H = pl->H;

	fprintf(f, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", L,
		W - R, py(pl, 0.0), py(pl, 0.0));
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%+.1f%%</text>\n",
		L - 4, py(pl, pl->ymax) + 4, pl->ymax);
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%+.1f%%</text>\n",
		L - 4, py(pl, pl->ymin), pl->ymin);
	/* 0, unless it would overprint an end's label. */
	if (py(pl, 0.0) - py(pl, pl->ymax) > 14 && py(pl, pl->ymin) - py(pl, 0.0) > 14)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">0</text>\n",
			L - 4, py(pl, 0.0) + 4);
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">merge 1</text>\n", L, H - 8);
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">merge %zu</text>\n",
		W - R, H - 8, pl->s->n);
}

/* The band (the upper edge forward, the lower back) and the level line.
 * One merge draws its level across the plot. */
static void plot_band(FILE *f, const struct plot *pl)
{
	size_t i, n = pl->s->n;
	double L = pl->L, W = pl->W, R = pl->R;

	fputs("<path class=\"band\" d=\"", f);
	if (n == 1)
		fprintf(f, "M%.1f %.1f L%.1f %.1f L%.1f %.1f L%.1f %.1f ", L, py(pl, pl->hi[0]), W - R,
			py(pl, pl->hi[0]), W - R, py(pl, pl->lo[0]), L, py(pl, pl->lo[0]));
	for (i = 0; i < n && n > 1; i++)
		fprintf(f, "%s%.1f %.1f ", i ? "L" : "M", px(pl, i), py(pl, pl->hi[i]));
	for (i = n; n > 1 && i-- > 0;)
		fprintf(f, "L%.1f %.1f ", px(pl, i), py(pl, pl->lo[i]));
	fputs("Z\"/>\n<polyline class=\"level\" points=\"", f);
	if (n == 1)
		fprintf(f, "%.1f,%.1f %.1f,%.1f", L, py(pl, pl->lev[0]), W - R, py(pl, pl->lev[0]));
	for (i = 0; i < n && n > 1; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(pl, i), py(pl, pl->lev[i]));
	fputs("\"/>\n", f);
}

/* Change points (a dashed line before the first merge of the new
 * segment), steps of the level (a ring) and a point per merge with its
 * figures as a tooltip. */
static void plot_marks(FILE *f, const struct plot *pl, const struct pab_drift *d)
{
	const struct pab_history_series *s = pl->s;
	char b1[32], b2[32], b3[32];
	size_t i, k;
	double x;

	for (k = 0; k < d->n_cp_step; k++) {
		x = px(pl, d->cp_step[k]) -
		    (s->n > 1 ? (pl->W - pl->L - pl->R) / (double)(s->n - 1) / 2 : 0);
		fprintf(f, "<line class=\"cp\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\">"
			"<title>change point of the per-merge changes before merge #%lld (p = %.3f)"
			"</title></line>\n",
			x, x, pl->T, pl->H - pl->B, (long long)s->pts[d->cp_step[k]].merge->id,
			d->p_step[k]);
	}
	for (k = 0; k < d->n_jump; k++)
		fprintf(f, "<circle class=\"step\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>\n",
			px(pl, d->jump[k]), py(pl, pl->lev[d->jump[k]]));
	for (i = 0; i < s->n; i++) {
		const struct pab_history_point *p = &s->pts[i];

		hist_pct(b1, sizeof(b1), p->change_pct);
		hist_pct(b2, sizeof(b2), p->lo_pct);
		hist_pct(b3, sizeof(b3), p->hi_pct);
		fprintf(f, "<circle class=\"merge %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>merge #%lld"
			" ", verdict_class(p->verdict), px(pl, i), py(pl, pl->lev[i]),
			(long long)p->merge->id);
		esc(f, p->merge->commit ? p->merge->commit : "(no commit)");
		fprintf(f, ": %s [%s, %s] %s, n = %lld; chained ", b1, b2, b3, p->verdict,
			(long long)p->n);
		hist_pct(b1, sizeof(b1), pl->lev[i]);
		fprintf(f, "%s</title></circle>\n", b1);
	}
}

/* One series' section: nothing when no merge of it has a change to
 * chain. */
static void html_series(FILE *f, const struct pab_history_series *s, size_t idx)
{
	struct plot pl = { s, 800, 240, 64, 12, 14, 30, 0, 0, NULL, NULL, NULL };
	struct pab_drift d;

	pab_drift_of(s, &d);
	if (!d.chain.n)
		return;
	plot_levels(&pl);
	plot_head(f, &pl, &d, idx);
	plot_axes(f, &pl);
	plot_band(f, &pl);
	plot_marks(f, &pl, &d);
	fputs("</svg>\n</section>\n", f);
	free(pl.hi);
	free(pl.lo);
	free(pl.lev);
}

void pab_report_history_html(FILE *f, const struct pab_history_series *s, size_t n, size_t merges)
{
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>perfab history</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:1em auto;max-width:70em;padding:0 1em}\n"
	      "h2{font-size:1.05em;margin:1.2em 0 .2em;overflow-wrap:anywhere}\n"
	      "p{overflow-wrap:anywhere}\n"
	      "svg.history{width:100%;height:auto;display:block}\n"
	      ".band{fill:#9ab;fill-opacity:.35;stroke:none}\n"
	      ".level{fill:none;stroke:#234;stroke-width:1.5}\n"
	      ".zero{stroke:#888;stroke-dasharray:2 3}\n"
	      ".cp{stroke:#a0a;stroke-width:1.5;stroke-dasharray:5 4}\n"
	      ".step{fill:none;stroke:#a0a;stroke-width:2}\n"
	      ".tick{font-size:11px;fill:#444}\n"
	      ".merge{stroke:#fff;stroke-width:1}\n"
	      ".pass{fill:#2a7}.fail{fill:#c33}.inconclusive{fill:#d90}.nm{fill:#999}\n"
	      "</style></head><body>\n<h1>perfab history</h1>\n", f);
	fprintf(f, "<p>%zu merges, %zu series (those with a measured change are drawn). "
		"Each point is one merge, at the chained change "
		"after it, coloured by its verdict (green PASS, amber INCONCLUSIVE, red FAIL); "
		"the band is the chained 95%% interval.</p>\n", merges, n);
	for (i = 0; i < n; i++)
		html_series(f, &s[i], i);
	fputs("</body></html>\n", f);
}
