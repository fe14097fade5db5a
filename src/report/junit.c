/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * junit.c — the ledger as JUnit XML (junit.h), the format CI
 * dashboards (GitHub test reporters, GitLab, Jenkins) already read: a
 * testcase per row × head arm, FAIL as <failure>, INCONCLUSIVE as
 * <failure type="perfab.INCONCLUSIVE"> (as `perfab gate` fails it) or, when
 * asked, <skipped> — with the reason, never counted as a pass.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/attribution.h"
#include "report/format.h"
#include "report/reason.h"
#include "report/markup.h"
#include "report/junit.h"
#include "term.h"
#include "util.h"

/*
 * "1.21× slower [1.15, 1.29]: INCONCLUSIVE: <reason>" (n, noise and
 * allowance follow) in new memory.
 */
static char *cell_summary(const struct pab_experiment *e,
			  const struct pab_ledger *l, const struct pab_ledger_cell *c)
{
	const struct pab_cell_result *r = &c->res;
	char ch[128], why[512];

	pab_fmt_change(ch, sizeof(ch), c->metric, &r->change, r->base_median,
		       PAB_FMT_UTF8 | pab_fmt_change_flags(c));
	pab_fmt_cell_reason(e, l, c, why, sizeof(why));
	return xasprintf("%s, %s (n=%zu, noise %.1f%%, allowance %.1f%%)%s%s", ch,
			 pab_verdict_name(r->verdict), r->change.n, r->noise, r->allowance,
			 *why ? ": " : "", why);
}

static void property(FILE *f, const char *indent, const char *name,
		     const char *value)
{
	fprintf(f, "%s<property name=\"", indent);
	pab_fmt_escape(f, name);
	fputs("\" value=\"", f);
	pab_fmt_escape(f, value);
	fputs("\"/>\n", f);
}

static void propertyf(FILE *f, const char *indent, const char *name,
		      const char *fmt, ...) PAB_PRINTF(4, 5);
static void propertyf(FILE *f, const char *indent, const char *name,
		      const char *fmt, ...)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pab_strbuf_addstr(&sb, buf);
	property(f, indent, name, sb.buf);
	pab_strbuf_release(&sb);
}

/* Sum of the arm's wall time over the row's reps (s), 0 if unmeasured. */
static double total_wall(const struct pab_row *row, size_t arm)
{
	double t = 0;
	size_t r;

	for (r = 0; r < row->n_reps; r++)
		if (isfinite(row->reps[r].result[arm].m[PAB_M_WALL]))
			t += row->reps[r].result[arm].m[PAB_M_WALL];
	return t;
}

/* The cells of lr with verdict v, one "metric: summary" per line. */
static char *cells_with(const struct pab_experiment *e, const struct pab_ledger *l,
			const struct pab_ledger_row *lr, enum pab_verdict v,
			size_t *count)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	size_t c;

	*count = 0;
	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];
		char *sum, *brief;

		if (cell->row != lr->row || cell->arm != lr->arm ||
		    cell->res.verdict != v)
			continue;
		sum = cell_summary(e, l, cell);
		/* A FAIL says what moved most, as perfab gate does. */
		brief = v == PAB_FAIL ? pab_report_attribution_brief(e, e->rows[lr->row].name,
								     e->arms[lr->arm].name,
								     cell->metric) : NULL;
		pab_strbuf_addf(&sb, "%s%s: %s%s%s%s", *count ? "; " : "",
				pab_metrics[cell->metric].name, sum, brief ? " (" : "",
				brief ? brief : "", brief ? ")" : "");
		free(sum);
		free(brief);
		(*count)++;
	}
	return pab_strbuf_detach(&sb);
}

/* A classname without '/' (reporters split classnames on it). */
static void classname(FILE *f, const char *row)
{
	char *c = xstrdup(row), *p;

	for (p = c; *p; p++)
		if (*p == '/')
			*p = '_';
	pab_fmt_escape(f, c);
	free(c);
}

static void testcase(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l, const struct pab_ledger_row *lr,
		     int inconclusive_skipped)
{
	const struct pab_row *row = &e->rows[lr->row];
	size_t c, count;
	char *list, conf[16];

	pab_fmt_conf(conf, sizeof(conf), l->conf);
	fputs("    <testcase classname=\"perfab.", f);
	classname(f, row->name);
	fputs("\" name=\"", f);
	pab_fmt_row_title(f, e, l, lr, 1, pab_fmt_escape);
	fprintf(f, "\" time=\"%.6f\">\n", total_wall(row, lr->arm));
	fputs("      <properties>\n", f);
	property(f, "        ", "verdict", pab_verdict_name(lr->verdict));
	property(f, "        ", "rules", pab_rules_name(l->rules));
	propertyf(f, "        ", "n", "%zu", lr->n);
	property(f, "        ", "control", lr->control ? "true" : "false");
	propertyf(f, "        ", "saved_pct", "%.1f", lr->saved_pct);
	if (lr->floor_inconsistent)
		property(f, "        ", "rss_floor", "inconsistent: above the lowest peak, no credit");
	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];
		char *sum;

		if (cell->row != lr->row || cell->arm != lr->arm)
			continue;
		if (cell->res.verdict == PAB_NOT_MEASURED) {
			property(f, "        ", pab_metrics[cell->metric].name, "not measured");
			continue;
		}
		sum = cell_summary(e, l, cell);
		property(f, "        ", pab_metrics[cell->metric].name, sum);
		free(sum);
	}
	fputs("      </properties>\n", f);
	if (lr->verdict == PAB_FAIL) {
		if (lr->why) {
			fputs("      <failure type=\"perfab.FAIL\" message=\"", f);
			pab_fmt_escape(f, lr->why);
			if (row->fail_reason) {
				fputs(": ", f);
				pab_fmt_escape(f, row->fail_reason);
			}
			fputs("\"/>\n", f);
		} else {
			list = cells_with(e, l, lr, PAB_FAIL, &count);
			fprintf(f, "      <failure type=\"perfab.FAIL\" message=\"FAIL: %zu cell%s beyond "
				"allowance and noise\">", count, count == 1 ? "" : "s");
			pab_fmt_escape(f, list);
			fputs("</failure>\n", f);
			free(list);
		}
	} else if (lr->verdict != PAB_PASS) {
		list = cells_with(e, l, lr, PAB_INCONCLUSIVE, &count);
		fputs(inconclusive_skipped ? "      <skipped message=\"" :
		      "      <failure type=\"perfab.INCONCLUSIVE\" message=\"", f);
		fputs("INCONCLUSIVE (not a pass): ", f);
		if (lr->n < PAB_MIN_N_95)
			fprintf(f, "only %zu paired reps, no %s interval exists below %d; ", lr->n,
				conf, PAB_MIN_N_95);
		if (count)
			pab_fmt_escape(f, list);
		else
			fputs("nothing was judged", f);
		fputs("\"/>\n", f);
		free(list);
	}
	fputs("    </testcase>\n", f);
}

void pab_report_junit(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, int inconclusive_skipped)
{
	const struct pab_disposition *d = &l->disposition;
	size_t i, fails = 0, skipped = 0;
	double total = 0;
	char stamp[32] = "1970-01-01T00:00:00", host[256] = "localhost";
	time_t now = time(NULL);
	struct tm tm;

	for (i = 0; i < l->n_rows; i++) {
		int inc = l->rows[i].verdict != PAB_FAIL && l->rows[i].verdict != PAB_PASS;

		fails += l->rows[i].verdict == PAB_FAIL || (inc && !inconclusive_skipped);
		skipped += inc && inconclusive_skipped;
		total += total_wall(&e->rows[l->rows[i].row], l->rows[i].arm);
	}
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"perfab\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\" time=\"%.6f\">\n", l->n_rows, fails, skipped, total);
	fprintf(f, "  <testsuite name=\"perfab ledger\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"0\" skipped=\"%zu\" time=\"%.6f\" timestamp=\"%s\" hostname=\"",
		l->n_rows, fails, skipped, total, stamp);
	pab_fmt_escape(f, host);
	fputs("\">\n", f);
	fputs("    <properties>\n", f);
	property(f, "      ", "overall", pab_verdict_name(l->overall));
	property(f, "      ", "rules", pab_rules_name(l->rules));
	propertyf(f, "      ", "confidence", "%g", l->conf);
	property(f, "      ", "base", e->arms[l->base].name);
	property(f, "      ", "null_arm", l->null_arm >= 0 ? "true" : "false");
	property(f, "      ", "protocol", e->protocol);
	property(f, "      ", "perfab_version", e->perfab_version);
	if (e->cpu_model)
		property(f, "      ", "cpu_model",
			 e->cpu_model);
	property(f, "      ", "disposition_kind", d->name);
	property(f, "      ", "disposition", d->summary);
	fputs("    </properties>\n", f);
	for (i = 0; i < l->n_rows; i++)
		testcase(f, e, l, &l->rows[i], inconclusive_skipped);
	fputs("  </testsuite>\n</testsuites>\n", f);
}
