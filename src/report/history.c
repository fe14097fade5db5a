/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.c — the merge history printed (report/history.h): the recorded
 * cells as text, CSV or Markdown, and a series' drift as text or
 * Markdown. The trend page is history_html.c; the JSON forms are in
 * report/json.c.
 *
 * A recorded change reads as the ledger reads it (format.h: "44.5x faster
 * [35.4, 62.8]", "+6.2 MiB (+8.4% [+5.0, +9.1])"), never as a second
 * scale; and a name (row, arm, commit, branch, metric, verdict: whatever a
 * database holds) leaves through the ledger's escaper for its format:
 * pab_term_safe() for text, pab_markdown_escape() for Markdown, and for
 * CSV the terminal-safe form as one field, so no control or bidirectional
 * formatting character, mention, reference or live link gets through.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "report/format.h"
#include "report/markup.h"
#include "report/history.h"
#include "report/markdown.h"
#include "term.h"
#include "util.h"

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

/* A name as one CSV field: the terminal-safe form (no raw ESC, BEL or
 * bidirectional formatting character reaches a spreadsheet or a terminal
 * that cats the file), quoted as RFC 4180 has it; NULL: an empty field. */
static void csv_name(FILE *f, const char *s)
{
	if (s)
		pab_fmt_csv_field(f, pab_term_safe(s));
}

/* Point p's paired change as the ledger's interval: it exists when its
 * coverage reaches the 95% the ledger asks (a migrated cell without a
 * coverage: when it has the pairs for one). */
static struct pab_interval point_interval(const struct pab_history_point *p)
{
	struct pab_interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.n = p->n > 0 ? (size_t)p->n : 0;
	iv.median = p->change_pct;
	iv.lo = p->lo_pct;
	iv.hi = p->hi_pct;
	iv.coverage = p->coverage;
	iv.exists = isnan(p->coverage) ? p->n >= PAB_MIN_N_95 :
		    p->coverage >= PAB_DRIFT_CONF - 1e-9;
	return iv;
}

/* One end of an interval, pct percent worse, as the ledger words a ratio
 * ("1.39x slower", "1.63x faster"): pab_fmt_change() of that one value,
 * up to its bracket. */
static void end_words(char *buf, size_t len, enum pab_metric_id m, double pct, int flags)
{
	struct pab_interval one;
	char *cut;

	memset(&one, 0, sizeof(one));
	one.n = 1;
	one.exists = 1;
	one.median = one.lo = one.hi = pct;
	pab_fmt_change(buf, len, m, &one, NAN, (flags & PAB_FMT_UTF8) | PAB_FMT_NO_SAME);
	cut = strstr(buf, " [");
	if (cut)
		*cut = '\0';
}

void pab_report_history_change(char *buf, size_t len, const struct pab_history_series *s,
			       const struct pab_history_point *p, int flags)
{
	const struct pab_metric *met = pab_metric_find(s->metric);
	struct pab_interval iv = point_interval(p);
	enum pab_metric_id m;
	struct pab_ratio r;
	char a[48], b[48];

	if (!isfinite(p->change_pct)) {
		snprintf(buf, len, "-");
		return;
	}
	if (!met) { /* a metric this perfab does not know: the bare percentages */
		hist_pct(a, sizeof(a), p->lo_pct);
		hist_pct(b, sizeof(b), p->hi_pct);
		hist_pct(buf, len, p->change_pct);
		snprintf(buf + strlen(buf), len - strlen(buf), " [%s, %s]", a, b);
		return;
	}
	m = (enum pab_metric_id)(met - pab_metrics);
	if (strcmp(p->verdict, "PASS"))
		flags |= PAB_FMT_NO_SAME; /* as the ledger: "same" only for a PASS */
	pab_change_ratio(m, &iv, &r);
	/* An interval from faster to slower has no direction to name; the
	 * ledger's "1.29x faster [0.72, 1.63]" would call faster what may be
	 * a 1.39x slowdown. Only "same" (a PASS within PAB_SAME_PCT) may
	 * straddle. */
	if (pab_change_kind_of(m) == PAB_CHANGE_RATIO && isfinite(iv.lo) && isfinite(iv.hi) &&
	    iv.lo < 0 && iv.hi > 0 && !(r.same && !(flags & PAB_FMT_NO_SAME))) {
		end_words(a, sizeof(a), m, iv.lo, flags);
		end_words(b, sizeof(b), m, iv.hi, flags);
		snprintf(buf, len, "unclear: %s to %s%s", a, b, iv.exists ? "" : " (range, no CI)");
		return;
	}
	pab_fmt_change(buf, len, m, &iv, p->base_median, flags);
}

/* "184 ms -> 181 ms" for point p of series s, "-" when its metric is
 * not known here. */
static void point_pair(char *buf, size_t len, const struct pab_history_series *s,
		       const struct pab_history_point *p, int flags)
{
	const struct pab_metric *met = pab_metric_find(s->metric);

	if (!met) {
		snprintf(buf, len, "-");
		return;
	}
	pab_fmt_pair(buf, len, (enum pab_metric_id)(met - pab_metrics), p->base_median,
		     p->head_median, flags);
}

/* The columns of a merge's line, up to where its medians start. */
#define TEXT_WIDTH 100
#define TEXT_INDENT 49

void pab_report_history_text(FILE *f, const struct pab_history_series *s, size_t n, size_t merges)
{
	char w1[80], w2[16], w3[40], pair[64], change[160], id[32], tol[32];
	size_t i, j;

	fprintf(f, "%zu merges, %zu series (row, arm, metric)\n", merges, n);
	for (i = 0; i < n; i++) {
		fprintf(f, "\n%s of '%s' [%s]\n", fit(w3, 24, s[i].metric), fit(w1, 48, s[i].row),
		       fit(w2, 12, s[i].arm));
		fprintf(f, "  %-6s %-10s %-12s %9s %4s  %s\n", "merge", "commit", "verdict",
			"tolerance", "n", "base -> head, change");
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];
			int at;

			snprintf(id, sizeof(id), "#%lld", (long long)p->merge->id);
			if (isfinite(p->tolerance_pct))
				snprintf(tol, sizeof(tol), "%.3g%%", p->tolerance_pct);
			else
				snprintf(tol, sizeof(tol), "-");
			point_pair(pair, sizeof(pair), &s[i], p, 0);
			pab_report_history_change(change, sizeof(change), &s[i], p, 0);
			/* 2+6+1+10+1+12+1+9+1+4+2 = TEXT_INDENT columns, then
			 * the medians and the change; a change that would pass
			 * TEXT_WIDTH goes under the medians. */
			at = fprintf(f, "  %-6s %-10s %-12s %9s %4lld  %s", id,
				     fit(w1, 10, p->merge->commit), fit(w3, 12, p->verdict), tol,
				     (long long)p->n, pair);
			if (at + 2 + (int)strlen(change) <= TEXT_WIDTH)
				fprintf(f, "  %s\n", change);
			else
				fprintf(f, "\n%*s%s\n", TEXT_INDENT, "", change);
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
			csv_name(f, p->merge->commit);
			fputc(',', f);
			csv_name(f, p->merge->base);
			fputc(',', f);
			csv_name(f, p->merge->branch);
			fprintf(f, ",%lld,", (long long)p->merge->recorded_at);
			csv_name(f, s[i].row);
			fputc(',', f);
			csv_name(f, s[i].arm);
			fputc(',', f);
			csv_name(f, s[i].metric);
			fputc(',', f);
			for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
				csv_num(f, v[k]);
				fputc(',', f);
			}
			csv_name(f, p->verdict);
			fprintf(f, ",%lld\n", (long long)p->n);
		}
}

/* The command that confirms a drift: the build at the first merge's base
 * against the build at the last merge, each one shell word whatever the
 * revisions are called. */
static void print_confirm(FILE *f, const struct pab_history_merge_row *first,
			  const struct pab_history_merge_row *last)
{
	char *ends[2], *cmd;

	ends[0] = xasprintf("BUILD_AT_%s", first->base ? first->base : "FIRST_BASE");
	ends[1] = xasprintf("BUILD_AT_%s", last->commit ? last->commit : "LAST_COMMIT");
	cmd = pab_argv_join(ends, 2);
	fprintf(f, "  confirm it directly, the two endpoints in one A/B on one runner:\n"
		   "    perfab run %s\n", pab_term_safe(cmd));
	free(cmd);
	free(ends[0]);
	free(ends[1]);
}

/* A Markdown table cell: the ledger's escaper, "-" for none. */
static void md_cell(FILE *f, const char *s)
{
	pab_markdown_escape(f, s ? s : "-");
}

void pab_report_history_markdown(FILE *f, const struct pab_history_series *s, size_t n,
				  size_t merges)
{
	char pair[64], change[160];
	size_t i, j;

	fprintf(f, "**%zu merges**\n\n", merges);
	fputs("| merge | commit | row | arm | metric | base \u2192 head | change | verdict | n |\n", f);
	fputs("|---:|---|---|---|---|---|---|---|---:|\n", f);
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];

			point_pair(pair, sizeof(pair), &s[i], p, PAB_FMT_UTF8);
			pab_report_history_change(change, sizeof(change), &s[i], p, PAB_FMT_UTF8);
			fprintf(f, "| %lld | ", (long long)p->merge->id);
			md_cell(f, p->merge->commit);
			fputs(" | ", f);
			md_cell(f, s[i].row);
			fputs(" | ", f);
			md_cell(f, s[i].arm);
			fputs(" | ", f);
			md_cell(f, s[i].metric);
			fputs(" | ", f);
			md_cell(f, pair);
			fputs(" | ", f);
			md_cell(f, change);
			fputs(" | ", f);
			md_cell(f, p->verdict);
			fprintf(f, " | %lld |\n", (long long)p->n);
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

static void drift_text_cps(FILE *f, const char *what, const struct pab_history_point *cp,
			   const double *p, size_t n)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	char b[64];
	size_t i;

	if (!n)
		return;
	pab_strbuf_addf(&sb, "  change points in the %s:", what);
	for (i = 0; i < n; i++)
		pab_strbuf_addf(&sb, "%s %s (p = %.3f)", i ? "," : "",
				pab_report_history_commit(&cp[i], b, sizeof(b)), p[i]);
	/* a list of merges folds under itself, never inside an item */
	pab_print_folded_list(f, 0, 4, sb.buf);
	pab_strbuf_release(&sb);
}

/* The chained change of d and the verdicts behind it, after the series'
 * name: " is +6.4% [+2.0, +11.1] over the last 23 merges" into line, the
 * verdicts ("; 19 of them were INCONCLUSIVE") into tail. */
static void drift_summary(const struct pab_drift *d, char *line, size_t len, char *tail,
			  size_t tail_len)
{
	snprintf(line, len, " is %+.1f%% [%+.1f, %+.1f] over the last %zu merge%s",
		 d->chain.change_pct, d->chain.lo_pct, d->chain.hi_pct, d->chain.n,
		 d->chain.n == 1 ? "" : "s");
	if (d->fail)
		snprintf(tail, tail_len, "; %zu of them were INCONCLUSIVE, %zu FAIL",
			 d->inconclusive, d->fail);
	else
		snprintf(tail, tail_len, "; %zu of them were INCONCLUSIVE", d->inconclusive);
}

/* The bisection that finds the commit of a step merge m (doc/bisect.md):
 * from the commit it was measured against (else its parent) to it. */
static void step_bisect(FILE *f, const struct pab_history_merge_row *m)
{
	const char *commit = m->commit ? m->commit : "COMMIT";

	fprintf(f, "  the commit of a step: perfab bisect --good %s%s --bad %s --build CMD "
		"--bench CMD\n", pab_term_safe(m->base ? m->base : commit), m->base ? "" : "^",
		pab_term_safe(commit));
}

void pab_report_history_drift(FILE *f, const struct pab_drift *d, size_t merges)
{
	char b1[32], b4[64], sum[128], line[512], tail[96];
	size_t i;

	drift_summary(d, sum, sizeof(sum), tail, sizeof(tail));
	snprintf(line, sizeof(line), "%s of '%s' [%s]%s", pab_term_safe(d->metric),
		 pab_term_safe(d->row), pab_term_safe(d->arm), sum);
	/* One line when it fits in 100 columns, else the counts below. */
	if (strlen(line) + strlen(tail) <= 100)
		fprintf(f, "%s%s\n", line, tail);
	else
		fprintf(f, "%s\n  %s\n", line, tail + 2);
	if (d->chain.skipped)
		fprintf(f, "  %zu merges left out: no finite change or interval\n", d->chain.skipped);
	if (d->points < merges)
		fprintf(f, "  (recorded in %zu of the %zu merges selected)\n", d->points, merges);
	if (d->beyond || d->better) {
		fprintf(f, "  %s: the whole interval is beyond the tolerance of %.2f%%%s\n",
		       d->beyond ? "DRIFT" : "GAIN", d->tolerance,
		       d->beyond ? " (worse)" : " (better)");
		if (d->n_top) {
			struct pab_strbuf sb = PAB_STRBUF_INIT;

			pab_strbuf_addstr(&sb, "  most of it from:");
			for (i = 0; i < d->n_top; i++) {
				hist_pct(b1, sizeof(b1), d->top_pt[i].change_pct);
				pab_strbuf_addf(&sb, "%s %s %s", i ? "," : "",
						pab_report_history_commit(&d->top_pt[i], b4,
									  sizeof(b4)), b1);
			}
			pab_print_folded_list(f, 0, 4, sb.buf);
			pab_strbuf_release(&sb);
		}
		print_confirm(f, d->first.merge, d->last.merge);
	}
	drift_text_cps(f, "per-merge changes", d->cp_pt, d->p_step, d->n_cp_step);
	if (d->n_jump) {
		struct pab_strbuf sb = PAB_STRBUF_INIT;

		pab_strbuf_addstr(&sb, "  steps of the level (a merge's own interval beyond its "
				  "tolerance):");
		for (i = 0; i < d->n_jump; i++) {
			hist_pct(b1, sizeof(b1), d->jump_pt[i].change_pct);
			pab_strbuf_addf(&sb, "%s %s %s", i ? "," : "",
					pab_report_history_commit(&d->jump_pt[i], b4, sizeof(b4)),
					b1);
		}
		pab_print_folded_list(f, 0, 4, sb.buf);
		pab_strbuf_release(&sb);
		step_bisect(f, d->jump_pt[0].merge);
	}
}

/* The word of drift d in the summary: "DRIFT", "GAIN" or "none". */
static const char *drift_word(const struct pab_drift *d)
{
	return d->beyond ? "DRIFT" : d->better ? "GAIN" : "none";
}

void pab_report_history_drift_summary(FILE *f, const struct pab_drift *d, size_t n,
				      size_t merges)
{
	static const char *const words[] = { "DRIFT", "GAIN", "none" };
	size_t count[3] = { 0 }, i, w, chained = 0;

	for (i = 0; i < n; i++) {
		if (!d[i].chain.n)
			continue;
		chained++;
		for (w = 0; w < 3; w++)
			count[w] += !strcmp(drift_word(&d[i]), words[w]);
	}
	if (!chained)
		return;
	fprintf(f, "drift of %zu series over %zu merge%s: %zu DRIFT (worse), %zu GAIN (better), "
		"%zu none\n", chained, merges, merges == 1 ? "" : "s", count[0], count[1],
		count[2]);
	for (w = 0; w < 3; w++) {
		for (i = 0; i < n; i++) {
			const struct pab_drift *x = &d[i];
			char change[96], *line;

			if (!x->chain.n || strcmp(drift_word(x), words[w]))
				continue;
			snprintf(change, sizeof(change), "%+.1f%% [%+.1f, %+.1f]",
				 x->chain.change_pct, x->chain.lo_pct, x->chain.hi_pct);
			line = xasprintf("  %-6s %-26s %s of '%s' [%s]", words[w], change,
					 pab_term_safe(x->metric), pab_term_safe(x->row),
					 pab_term_safe(x->arm));
			/* a long name folds under the name's column */
			pab_print_folded(f, 0, 36, line);
			free(line);
		}
	}
	fputc('\n', f);
}

void pab_report_history_drift_markdown(FILE *f, const struct pab_drift *d)
{
	char sum[128], tail[96];

	drift_summary(d, sum, sizeof(sum), tail, sizeof(tail));
	pab_markdown_escape(f, d->metric);
	fputs(" of '", f);
	pab_markdown_escape(f, d->row);
	fputs("' \\[", f);
	pab_markdown_escape(f, d->arm);
	fprintf(f, "\\]%s%s", sum, tail);
	if (d->beyond || d->better)
		fprintf(f, " \u2014 **%s**: the whole interval is beyond the tolerance of %.2f%% (%s)",
			d->beyond ? "DRIFT" : "GAIN", d->tolerance, d->beyond ? "worse" : "better");
	fputc('\n', f);
}
