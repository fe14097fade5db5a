/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_history_report.c — the merge history printed (report/history.h) on
 * series built by hand: a recorded change reads on the ledger's scale
 * (a 44-fold throughput gain as "44.5x faster [35.4, 62.8]", never
 * "-4352.70%"; memory as an amount), an interval from faster to slower
 * names no direction, "same" only for a PASS; and a hostile name (a
 * mention, a reference, a bare and a Markdown link, ESC, BEL, U+202E)
 * leaves the Markdown, CSV, trend page and drift line inert.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/history.h"
#include "report/history_html.h"
#include "unit.h"

#define RLO "\xe2\x80\xae" /* U+202E RIGHT-TO-LEFT OVERRIDE */

static struct pab_history_merge_row merge = { 7, 0, "c0ffee1234", "base1", "main" };

/* A one-point series of metric m: change c [lo, hi] with verdict v. */
static void one(struct pab_history_series *s, struct pab_history_point *p, const char *m,
		double c, double lo, double hi, const char *v)
{
	memset(s, 0, sizeof(*s));
	memset(p, 0, sizeof(*p));
	s->row = "r";
	s->arm = "head";
	s->metric = (char *)m;
	s->pts = p;
	s->n = 1;
	p->merge = &merge;
	p->n = 6;
	p->verdict = v;
	p->base_median = 1048576;
	p->head_median = 1048576 * (1 + c / 100);
	p->change_pct = c;
	p->lo_pct = lo;
	p->hi_pct = hi;
	p->coverage = 0.96875;
	p->tolerance_pct = 2;
}

/* Series of metric m with change c [lo, hi] and verdict v printed as
 * text and as Markdown: each holds want (in Markdown with \u00d7, \u00b1
 * and \u2192 for x, +- and ->, and its brackets escaped). */
static void reads(const char *m, double c, double lo, double hi, const char *v,
		  const char *want)
{
	struct pab_history_series s;
	struct pab_history_point p;
	struct pab_strbuf md = PAB_STRBUF_INIT;
	char *text, *mdout;
	size_t len;
	FILE *f;
	const char *w;

	one(&s, &p, m, c, lo, hi, v);
	f = open_memstream(&text, &len);
	pab_report_history_text(f, &s, 1, 1);
	fclose(f);
	ck_assert_msg(strstr(text, want), "text: want '%s' in:\n%s", want, text);
	f = open_memstream(&mdout, &len);
	pab_report_history_markdown(f, &s, 1, 1);
	fclose(f);
	for (w = want; *w; w++) {
		if (*w == 'x' && w > want && w[-1] >= '0' && w[-1] <= '9')
			pab_strbuf_addf(&md, "\u00d7");
		else if (*w == '[' || *w == ']')
			pab_strbuf_addf(&md, "\\%c", *w);
		else if (*w == '+' && w[1] == '-')
			pab_strbuf_addf(&md, "\u00b1"), w++;
		else if (*w == '-' && w[1] == '>')
			pab_strbuf_addf(&md, "\u2192"), w++;
		else
			pab_strbuf_addf(&md, "%c", *w);
	}
	ck_assert_msg(strstr(mdout, md.buf), "markdown: want '%s' in:\n%s", md.buf, mdout);
	pab_strbuf_release(&md);
	free(mdout);
	free(text);
}

START_TEST(ledger_scale)
{
	/* The figures of a real throughput cell: -4352.70% is 44.5x. */
	reads("throughput", -4352.70, -6183.96, -3442.34, "PASS", "44.5x faster [35.4, 62.8]");
	reads("cpu", 29.4026, 24.8659, 39.9440, "FAIL", "1.29x slower [1.25, 1.40]");
	/* 1 MiB base, +8.5%: an amount, its interval in percent. */
	reads("peak_rss", 8.5, -2.3, 25.5, "INCONCLUSIVE", "+87.0 KiB (+8.5% [-2.3, +25.5])");
	reads("cpu", -1, -3, 2, "PASS", "same +-3.0%");
	/* The medians beside it, as the ledger writes them. */
	reads("peak_rss", 8.5, -2.3, 25.5, "INCONCLUSIVE", "1.00 MiB -> 1.08 MiB");
	/* A metric this perfab does not know: the recorded percentages. */
	reads("frob", 1, 0, 2, "PASS", "+1.00% [+0.00%, +2.00%]");
}
END_TEST

START_TEST(no_direction_across_zero)
{
	/* The ledger would say "1.29x faster [0.72, 1.63]": an interval
	 * that starts at a 1.39x slowdown. */
	reads("wall", -22.5, -38.7, 38.9, "INCONCLUSIVE", "unclear: 1.63x faster to 1.39x slower");
	/* Within 5% but not a PASS: not "same", and no direction either. */
	reads("cpu", 1, -2, 4, "INCONCLUSIVE", "unclear: 1.02x faster to 1.04x slower");
	/* Throughput: the better end is the lower change too. */
	reads("throughput", -10, -40, 20, "INCONCLUSIVE", "unclear: 1.40x faster to 1.25x slower");
	/* Wholly one side: the ledger's words. */
	reads("wall", -22.5, -38.7, -1, "PASS", "1.29x faster [1.01, 1.63]");
}
END_TEST

/* What f wrote, after fn ran with it; caller frees. */
#define CAPTURE(out, call) do { \
		size_t len_; \
		FILE *f = open_memstream(&(out), &len_); \
		ck_assert_ptr_nonnull(f); \
		call; \
		fclose(f); \
	} while (0)

static const char hostile[] = "@octocat fixes #1, see https://e.x and www.e.x "
			      "[c](https://e.y) " RLO "cba\x1b[31m\x07";

/* Nothing of the hostile name left live or raw in out. */
static void inert(const char *out, int markdown)
{
	ck_assert_ptr_null(strstr(out, RLO));
	ck_assert_ptr_null(strchr(out, '\x1b'));
	ck_assert_ptr_null(strchr(out, '\x07'));
	if (!markdown)
		return;
	ck_assert_ptr_null(strstr(out, "@octocat"));
	ck_assert_ptr_null(strstr(out, "#1"));
	ck_assert_ptr_null(strstr(out, "://"));
	ck_assert_ptr_null(strstr(out, "www."));
	ck_assert_ptr_null(strstr(out, "[c]("));
	ck_assert_ptr_nonnull(strstr(out, "@&#8203;octocat"));
}

START_TEST(hostile_names_inert)
{
	struct pab_history_merge_row m = { 3, 0, (char *)hostile, "b", (char *)hostile };
	struct pab_history_series s;
	struct pab_history_point p;
	char *out;

	one(&s, &p, "cpu", 29.4, 24.9, 39.9, "FAIL");
	s.row = s.arm = (char *)hostile;
	p.merge = &m;
	CAPTURE(out, pab_report_history_markdown(f, &s, 1, 1));
	inert(out, 1);
	ck_assert_ptr_nonnull(strstr(out, "1.29\xc3\x97 slower"));
	free(out);
	CAPTURE(out, pab_report_history_csv(f, &s, 1));
	inert(out, 0);
	free(out);
	CAPTURE(out, pab_report_history_text(f, &s, 1, 1));
	inert(out, 0);
	free(out);
	CAPTURE(out, pab_report_history_html(f, &s, 1, 1));
	inert(out, 0);
	ck_assert_ptr_nonnull(strstr(out, "\\xe2\\x80\\xaecba"));
	free(out);
}
END_TEST

/* pab_drift_of(s, d) after releasing what d held (d zeroed at first). */
static void drift_again(const struct pab_history_series *s, struct pab_drift *d)
{
	pab_drift_release(d);
	pab_drift_of(s, d);
}

/* The drift line a pull-request comment carries. */
START_TEST(drift_line_inert)
{
	struct pab_history_series s;
	struct pab_history_point p;
	struct pab_drift d = { 0 };
	char *out;

	one(&s, &p, "cpu", 29.4, 24.9, 39.9, "FAIL");
	s.row = s.arm = (char *)hostile;
	drift_again(&s, &d);
	CAPTURE(out, pab_report_history_drift_markdown(f, &d));
	inert(out, 1);
	ck_assert_ptr_nonnull(strstr(out, "**DRIFT**"));
	free(out);
	pab_drift_release(&d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("history_report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ledger_scale);
	tcase_add_test(tc, no_direction_across_zero);
	tcase_add_test(tc, hostile_names_inert);
	tcase_add_test(tc, drift_line_inert);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
