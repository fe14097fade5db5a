/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * format.c — units, SI prefixes, the wording of a change and of its
 * bounds, the row titles and the look of each verdict (format.h). Every
 * renderer calls these (and reason.c, for a cell's reason),
 * so a number reads the same in the text ledger, the Markdown comment,
 * the HTML report and the JUnit file; this file calls no renderer.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "report/format.h"
#include "term.h"
#include "util.h"

enum pab_change_kind pab_change_kind_of(enum pab_metric_id m)
{
	switch (pab_metrics[m].kind) {
	case PAB_KIND_RATE:
	case PAB_KIND_TIME:
		return PAB_CHANGE_RATIO;
	case PAB_KIND_COUNT:
	case PAB_KIND_BYTES:
		break;
	}
	return PAB_CHANGE_AMOUNT;
}

/* Head worse than base by this factor (> 1) or better (< 1). */
static double slowdown(enum pab_metric_id m, double c)
{
	if (pab_metrics[m].better == PAB_HIGHER_IS_BETTER)
		return c < 100.0 ? 1.0 / (1.0 - c / 100.0) : INFINITY;
	return 1.0 + c / 100.0;
}

/* head/base in the metric's own unit. */
static double head_over_base(enum pab_metric_id m, double c)
{
	if (pab_metrics[m].better == PAB_HIGHER_IS_BETTER)
		return 1.0 - c / 100.0;
	return 1.0 + c / 100.0;
}

void pab_change_ratio(enum pab_metric_id m, const struct pab_interval *iv,
		      struct pab_ratio *out)
{
	double r_lo, r_hi;

	out->ratio = out->ratio_low = out->ratio_high = NAN;
	out->factor = out->factor_low = out->factor_high = NAN;
	out->direction = "n/a";
	out->same = 0;
	if (!iv || !iv->n || !isfinite(iv->median) || !isfinite(iv->lo) ||
	    !isfinite(iv->hi))
		return;
	out->ratio = head_over_base(m, iv->median);
	r_lo = head_over_base(m, iv->lo);
	r_hi = head_over_base(m, iv->hi);
	out->ratio_low = r_lo < r_hi ? r_lo : r_hi;
	out->ratio_high = r_lo < r_hi ? r_hi : r_lo;
	out->same = iv->exists && iv->lo <= 0.0 && iv->hi >= 0.0 &&
		    fabs(iv->lo) < PAB_SAME_PCT && fabs(iv->hi) < PAB_SAME_PCT;
	if (pab_change_kind_of(m) == PAB_CHANGE_AMOUNT) {
		out->direction = out->same ? "same" : iv->median > 0 ? "more" :
				 iv->median < 0 ? "less" : "same";
		return;
	}
	{
		double s = slowdown(m, iv->median);
		double s_lo = slowdown(m, iv->lo), s_hi = slowdown(m, iv->hi);

		if (s >= 1.0) {
			out->direction = "slower";
			out->factor = s;
			out->factor_low = s_lo;
			out->factor_high = s_hi;
		} else {
			out->direction = "faster";
			out->factor = s > 0 ? 1.0 / s : INFINITY;
			out->factor_low = s_hi > 0 ? 1.0 / s_hi : INFINITY;
			out->factor_high = s_lo > 0 ? 1.0 / s_lo : INFINITY;
		}
		if (out->same)
			out->direction = "same";
	}
}

/* Three significant digits of a non-negative x below 1000. */
static void sig3(char *buf, size_t len, double x)
{
	if (x >= 99.95)
		snprintf(buf, len, "%.0f", x);
	else if (x >= 9.995)
		snprintf(buf, len, "%.1f", x);
	else
		snprintf(buf, len, "%.2f", x);
}

/* |v| scaled by powers of step with prefixes pre[] (pre[0] = none). */
static void scaled(char *buf, size_t len, double v, double step,
		   const char *const *pre, size_t n_pre, const char *unit)
{
	double a = fabs(v);
	size_t i = 0;
	char num[32];

	while (i + 1 < n_pre && a >= step * 0.9995)
		a /= step, i++;
	sig3(num, sizeof(num), a);
	snprintf(buf, len, "%s%s%s%s%s%s", v < 0 ? "-" : "", num,
		 *pre[i] || *unit ? " " : "", pre[i], *pre[i] && *unit ? " " : "", unit);
}

void pab_fmt_si(char *buf, size_t len, double v)
{
	static const char *const pre[] = { "", "k", "M", "G", "T", "P" };

	if (!isfinite(v)) {
		snprintf(buf, len, isnan(v) ? "n/a" : v > 0 ? "inf" : "-inf");
		return;
	}
	if (v != 0 && fabs(v) < 1) {
		snprintf(buf, len, "%.3g", v);
		return;
	}
	scaled(buf, len, v, 1000.0, pre, sizeof(pre) / sizeof(pre[0]), "");
}

/* Seconds with ns..s prefixes, minutes and hours above. */
static void fmt_seconds(char *buf, size_t len, double s)
{
	static const char *const sub[] = { "ns", "us", "ms" };
	double a = fabs(s);
	char num[32];
	size_t i;

	if (a >= 1.0 || a == 0) {
		sig3(num, sizeof(num), a);
		snprintf(buf, len, "%s%s s", s < 0 ? "-" : "", num);
		return;
	}
	a *= 1e9;
	for (i = 0; i < 2 && a >= 999.5; i++)
		a /= 1000.0;
	sig3(num, sizeof(num), a);
	snprintf(buf, len, "%s%s %s", s < 0 ? "-" : "", num, sub[i]);
}

void pab_fmt_value(char *buf, size_t len, enum pab_metric_id m, double v)
{
	static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	const struct pab_metric *met = &pab_metrics[m];
	const char *u = met->unit;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
	} else if (met->kind == PAB_KIND_BYTES) {
		double a = fabs(v);
		size_t i = 0;
		char num[32];

		while (i + 1 < sizeof(iec) / sizeof(iec[0]) && a >= 1023.5)
			a /= 1024.0, i++;
		if (i == 0)
			snprintf(num, sizeof(num), "%.0f", a);
		else
			sig3(num, sizeof(num), a);
		snprintf(buf, len, "%s%s %s", v < 0 ? "-" : "", num, iec[i]);
	} else if (met->kind == PAB_KIND_TIME) {
		fmt_seconds(buf, len, v / met->per_second);
	} else if (met->kind == PAB_KIND_COUNT) {
		pab_fmt_si(buf, len, v);
	} else if (v != 0 && fabs(v) < 1) {
		snprintf(buf, len, "%.3g %s", v, u);
	} else {
		scaled(buf, len, v, 1000.0, si, sizeof(si) / sizeof(si[0]), u);
	}
}

double pab_fmt_plot_value(enum pab_metric_id m, double v, const char **unit)
{
	*unit = pab_metrics[m].plot_unit;
	return v / pab_metrics[m].plot_div;
}

void pab_fmt_pair(char *buf, size_t len, enum pab_metric_id m, double base,
		  double head, int flags)
{
	const char *unit = pab_metrics[m].unit;
	char b[32], h[32];
	size_t bl, ul = strlen(unit);

	pab_fmt_value(b, sizeof(b), m, base);
	pab_fmt_value(h, sizeof(h), m, head);
	bl = strlen(b);
	/* "3.35 M -> 5.12 M ops/s": a long unit word once. */
	if (pab_metrics[m].kind == PAB_KIND_RATE && bl > ul + 1 && !strcmp(b + bl - ul, unit) &&
	    strlen(h) > ul && !strcmp(h + strlen(h) - ul, unit))
		b[bl - ul - 1] = '\0';
	snprintf(buf, len, "%s %s %s", b, flags & PAB_FMT_UTF8 ? "\u2192" : "->", h);
}

void pab_fmt_conf(char *buf, size_t len, double conf)
{
	snprintf(buf, len, "%g%%", conf * 100);
}

void pab_fmt_pct(char *buf, size_t len, double v)
{
	if (isinf(v))
		snprintf(buf, len, "%sinf", v > 0 ? "+" : "-");
	else if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f", v);
}

/* A ratio factor: 1.21, 23.2, 150. */
static void fmt_factor(char *buf, size_t len, double f)
{
	if (!isfinite(f))
		snprintf(buf, len, "inf");
	else if (f >= 99.95)
		snprintf(buf, len, "%.0f", f);
	else if (f >= 9.995)
		snprintf(buf, len, "%.1f", f);
	else
		snprintf(buf, len, "%.2f", f);
}

void pab_fmt_change(char *buf, size_t len, enum pab_metric_id m,
		    const struct pab_interval *iv, double base_median,
		    int flags)
{
	const char *times = flags & PAB_FMT_UTF8 ? "\u00d7" : "x";
	const char *pm = flags & PAB_FMT_UTF8 ? "\u00b1" : "+-";
	struct pab_ratio r;
	char med[24], lo[24], hi[24];

	pab_change_ratio(m, iv, &r);
	pab_fmt_pct(med, sizeof(med), iv ? iv->median : NAN);
	pab_fmt_pct(lo, sizeof(lo), iv ? iv->lo : NAN);
	pab_fmt_pct(hi, sizeof(hi), iv ? iv->hi : NAN);
	if (!strcmp(r.direction, "n/a")) {
		if (iv && iv->n && iv->exists)
			snprintf(buf, len, "%s%% [%s, %s]", med, lo, hi);
		else if (iv && iv->n)
			snprintf(buf, len, "%s%% (range %s..%s, no CI)", med, lo, hi);
		else
			snprintf(buf, len, "n/a");
		return;
	}
	if (r.same && !(flags & PAB_FMT_NO_SAME)) {
		double w = fabs(iv->lo) > fabs(iv->hi) ? fabs(iv->lo) : fabs(iv->hi);

		snprintf(buf, len, "same %s%.1f%%", pm, w);
		return;
	}
	/* Not called "same" (the cell did not PASS): its direction, as is. */
	if (r.same)
		r.direction = slowdown(m, iv->median) >= 1.0 ? "slower" : "faster";
	if (pab_change_kind_of(m) == PAB_CHANGE_RATIO) {
		char f[24], fl[24], fh[24];

		fmt_factor(f, sizeof(f), r.factor);
		fmt_factor(fl, sizeof(fl), r.factor_low);
		fmt_factor(fh, sizeof(fh), r.factor_high);
		if (iv->exists)
			snprintf(buf, len, "%s%s %s [%s, %s]", f, times, r.direction, fl, fh);
		else
			snprintf(buf, len, "%s%s %s (range %s..%s, no CI)", f, times,
				 r.direction, fl, fh);
		return;
	}
	{
		char amount[32];
		double d = isfinite(base_median) ? base_median * iv->median / 100.0 : NAN;

		if (isfinite(d)) {
			pab_fmt_value(amount + 1, sizeof(amount) - 1, m, fabs(d));
			amount[0] = d < 0 ? '-' : '+';
		} else {
			snprintf(amount, sizeof(amount), "n/a");
		}
		if (iv->exists)
			snprintf(buf, len, "%s (%s%% [%s, %s])", amount, med, lo, hi);
		else
			snprintf(buf, len, "%s (%s%%, range %s..%s, no CI)", amount, med,
				 lo, hi);
	}
}

void pab_fmt_duration(char *buf, size_t len, double seconds)
{
	if (!(seconds >= 0) || !isfinite(seconds))
		snprintf(buf, len, "unknown time");
	else if (seconds < 90)
		snprintf(buf, len, "%.0f s", seconds < 1 ? 1 : ceil(seconds));
	else if (seconds < 90 * 60)
		snprintf(buf, len, "%.0f min", ceil(seconds / 60));
	else
		snprintf(buf, len, "%.1f h", seconds / 3600);
}

void pab_fmt_name(FILE *f, const char *s)
{
	fputs(pab_term_safe(s), f);
}

void pab_fmt_row_title(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
		       const struct pab_ledger_row *lr, int with_row,
		       void (*put)(FILE *, const char *))
{
	if (with_row) {
		put(f, e->rows[lr->row].name);
		fputs(" \u00b7 ", f);
	}
	put(f, e->arms[lr->arm].name);
	fputs(" vs ", f);
	put(f, e->arms[l->base].name);
}

/* How each verdict is drawn, in enum pab_verdict's order. */
static const struct pab_verdict_look verdict_looks[] = {
	[PAB_PASS] = { "\033[32m", "\u2705 PASS", "\u2705", "pass" },
	[PAB_INCONCLUSIVE] = { "\033[33m", "\u26a0\ufe0f INCONCLUSIVE", "\u26a0\ufe0f", "inc" },
	[PAB_FAIL] = { "\033[1;31m", "\u274c FAIL", "\u274c", "fail" },
	[PAB_NOT_MEASURED] = { "", "not measured", "", "nm" },
};

const struct pab_verdict_look *pab_fmt_verdict_look(enum pab_verdict v)
{
	if ((size_t)v >= sizeof(verdict_looks) / sizeof(verdict_looks[0]))
		v = PAB_NOT_MEASURED;
	return &verdict_looks[v];
}

/*
 * A bound or interval end of metric m's cell, pct percent worse, on the
 * scale the cell's change is read on: "1.02x slower" / "1.09x faster" for
 * a ratio, "+2.0%" for an amount.
 */
void pab_fmt_bound(char *buf, size_t len, enum pab_metric_id m, double pct)
{
	char f[24];
	double s;

	if (pab_change_kind_of(m) != PAB_CHANGE_RATIO || !isfinite(pct)) {
		pab_fmt_pct(f, sizeof(f), pct);
		snprintf(buf, len, "%s%%", f);
		return;
	}
	s = slowdown(m, pct);
	if (s >= 1.0) {
		fmt_factor(f, sizeof(f), s);
		snprintf(buf, len, "%sx slower", f);
	} else {
		fmt_factor(f, sizeof(f), s > 0 ? 1.0 / s : INFINITY);
		snprintf(buf, len, "%sx faster", f);
	}
}

/* ------------------------------------------------------------------ */
/* The ledger in words                                                */

const char *pab_fmt_equivalence_name(enum pab_equivalence q)
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
char *pab_fmt_pool_note(const struct pab_experiment *e)
{
	const struct pab_pool_record *pool = &e->pool;

	if (!pool->recorded || !isfinite(pool->artifacts) || !pool->mode)
		return NULL;
	return xasprintf("pooled from %.0f artifacts (%s)", pool->artifacts,
			 pab_term_safe(pool->mode));
}

const char *pab_fmt_cpu_model(const struct pab_experiment *e,
				  const struct pab_row *row)
{
	const char *m = pab_row_cpu_model(e, row);

	return m ? m : "unknown CPU model";
}

double pab_fmt_tolerance_declared(const struct pab_experiment *e, enum pab_metric_id m)
{
	const double d = e->settings.calibration_declared[m];

	return isfinite(d) ? d : pab_metric_default_tolerance(m);
}

char *pab_fmt_calibration_warning(const struct pab_experiment *e, const struct pab_ledger *l)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	const char *file = e->settings.calibration_file;
	char *line;
	size_t m;

	for (m = 0; m < PAB_M_COUNT; m++) {
		const double declared = pab_fmt_tolerance_declared(e, (enum pab_metric_id)m);

		if (!l->judged[m] || strcmp(pab_fmt_tolerance_origin(e, (enum pab_metric_id)m),
					    "calibration") ||
		    !(e->tolerance[m] > PAB_FMT_CALIBRATION_WIDE * declared))
			continue;
		pab_strbuf_addf(&sb, "%s%s %.3g%% (%.3gx the declared %.3g%%)",
				sb.len ? ", " : "", pab_metrics[m].name, e->tolerance[m],
				declared > 0 ? e->tolerance[m] / declared : INFINITY, declared);
	}
	if (!sb.len)
		return NULL;
	line = xasprintf("warning: calibration '%s' widened the tolerance of %s: a head that "
			 "much worse can PASS", pab_term_safe(file ? file : "?"), sb.buf);
	pab_strbuf_release(&sb);
	return line;
}

const char *pab_fmt_tolerance_origin(const struct pab_experiment *e, enum pab_metric_id m)
{
	const struct pab_run_settings *s = &e->settings;

	if ((s->given & PAB_RUN_CALIBRATION) && isfinite(s->calibration_tol[m]) &&
	    s->calibration_tol[m] == e->tolerance[m] &&
	    s->calibration_tol[m] != pab_metric_default_tolerance(m))
		return "calibration";
	return e->tolerance[m] == pab_metric_default_tolerance(m) ? "default" : "declared";
}

int pab_fmt_change_flags(const struct pab_ledger_cell *c)
{
	return c->res.verdict == PAB_PASS ? 0 : PAB_FMT_NO_SAME;
}

int pab_fmt_plain_row(const struct pab_experiment *e, const struct pab_ledger_row *lr)
{
	return lr->wall_throughput && !e->rows[lr->row].workload;
}

char *pab_fmt_roles_line(const struct pab_ledger *l, const struct pab_ledger_row *lr)
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
