/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * format.h — how perfab's numbers and judgments read, in one place for
 * every renderer (text, Markdown, HTML and its plots, JUnit, CSV, ledger
 * JSON): values with SI prefixes (binary ones for bytes), a paired change
 * worded as a ratio with its interval ("1.21x slower [1.15, 1.29]",
 * "23.2x faster [15.0, 29.2]", "same ±1.8%"), memory as "+6.2 MiB (+8.4%
 * [+5.0, +9.1])"; a cell's roles, the words for equivalence and the
 * source of tolerances (a cell's reason is reason.h's); a terminal-safe
 * printer for names that come from artifacts (the XML/HTML and CSV
 * escapers are markup.h's).
 * The renderers share this header and markup.h (report.h is the
 * dispatch's, which calls them, so nothing here calls back into a
 * renderer).
 *
 * The ratio is computed from the paired change itself (median and interval
 * ends of the per-rep changes, "+ = worse"), never from the arm medians: a
 * monotone map of an order-statistic interval is the interval of the mapped
 * values, so the ratio and its interval are the same statistic as the
 * percentage the verdict is taken on. For lower-is-better time-like metrics
 * the slowdown factor is 1 + c/100 (head/base); for throughput it is
 * 1 / (1 - c/100) (base/head), so a 26-fold throughput gain, c = -2500%,
 * reads "26.0x faster".
 *
 * Text output writes "x" and "->"; Markdown, HTML and JUnit write "×" and
 * "→" (PAB_FMT_UTF8). The pab_fmt_* functions that fill buf are pure apart
 * from writing it; those that take a FILE only write to it; none fails.
 */
#ifndef PAB_FORMAT_H
#define PAB_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"
#include "model/metrics.h"
#include "pab_stats.h"

/* Output flavours. */
#define PAB_FMT_UTF8 1  /* × and → and ± instead of x, -> and +- */
#define PAB_FMT_NO_SAME 2 /* never "same ±x%": the cell did not PASS, so
			   * nothing showed the change is small */

/* A change "reads the same" when its interval straddles 0 within this. */
#define PAB_SAME_PCT 5.0

/* How a metric's change is worded. */
enum pab_change_kind {
	PAB_CHANGE_RATIO,   /* time-like and throughput: "1.21x slower" */
	PAB_CHANGE_AMOUNT,  /* bytes and counts: "+6.2 MiB (+8.4%)" */
};
enum pab_change_kind pab_change_kind_of(enum pab_metric_id m);

/*
 * A paired change read as a ratio. slowdown = the factor by which head is
 * worse (> 1) or better (< 1); ratio = head/base in the metric's own unit
 * (for throughput 1 - c/100, for times 1 + c/100). factor and its ends are
 * what is printed beside the direction word: >= 1 for the median, ends in
 * the same orientation (low <= high). NaN where the change is not finite.
 */
struct pab_ratio {
	double ratio, ratio_low, ratio_high;
	double factor, factor_low, factor_high;
	const char *direction; /* "slower", "faster", "same", "more", "less",
				* or "n/a" */
	int same;              /* the interval straddles 0 within PAB_SAME_PCT */
};

/* Fill *out for metric m from the paired-change interval iv. */
void pab_change_ratio(enum pab_metric_id m, const struct pab_interval *iv,
		      struct pab_ratio *out);

/*
 * A value with an SI prefix and the metric's unit: "3.35 M ops/s",
 * "1.52 ms", "71.3 MiB", "335 k" (counts carry no unit word), "n/a" for
 * NaN. Three significant digits.
 */
void pab_fmt_value(char *buf, size_t len, enum pab_metric_id m, double v);

/*
 * "base -> head" for two medians ("3.35 M -> 5.12 M ops/s": the unit word
 * of throughput once); "→" with PAB_FMT_UTF8.
 */
void pab_fmt_pair(char *buf, size_t len, enum pab_metric_id m, double base,
		  double head, int flags);

/*
 * v in metric m's plot unit, the table's plot_div and plot_unit
 * (model/metrics.h): 71.3 with *unit "MiB" for 71.3 MiB of a byte metric.
 * For figures written with a fixed number of decimals ("%.1f MiB").
 */
double pab_fmt_plot_value(enum pab_metric_id m, double v, const char **unit);

/* A plain number with an SI prefix ("1.5 M", "320 k", "12.0", "0.5"). */
void pab_fmt_si(char *buf, size_t len, double v);

/*
 * The change as it reads: "1.21x slower [1.15, 1.29]", "same ±1.8%",
 * "+6.2 MiB (+8.4% [+5.0, +9.1])"; when no interval exists (fewer than 6
 * pairs) the range is marked "(range a..b, no CI)". base_median scales
 * amounts. flags: PAB_FMT_UTF8, PAB_FMT_NO_SAME, or 0.
 */
void pab_fmt_change(char *buf, size_t len, enum pab_metric_id m,
		    const struct pab_interval *iv, double base_median,
		    int flags);

/*
 * A confidence level for a heading: "95%" for 0.95, "97.5%" for 0.975
 * (conf × 100, up to six significant digits, and "%").
 */
void pab_fmt_conf(char *buf, size_t len, double conf);

/* A percentage: "+1.5", "+inf" / "-inf", "n/a" (NaN). */
void pab_fmt_pct(char *buf, size_t len, double v);

/*
 * A duration for people: "45 s", "3 min", "1.5 h". Rounded up, never "0".
 */
void pab_fmt_duration(char *buf, size_t len, double seconds);

/* Write s for a terminal, escaped as pab_term_safe() does (term.h). */
void pab_fmt_name(FILE *f, const char *s);

/*
 * The title of row × head arm lr of l (judging e): "ROW · ARM vs BASE",
 * or "ARM vs BASE" when with_row is 0 (a page whose heading names the row
 * already); every name written by put, the renderer's escaper
 * (pab_fmt_name, pab_fmt_escape, ...).
 */
void pab_fmt_row_title(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
		       const struct pab_ledger_row *lr, int with_row,
		       void (*put)(FILE *, const char *));

/*
 * A bound or interval end of metric m's cell, pct percent worse, on the
 * scale the cell's change is read on: "1.02x slower" / "1.09x faster" for
 * a ratio, "+2.0%" for an amount.
 */
void pab_fmt_bound(char *buf, size_t len, enum pab_metric_id m, double pct);

/*
 * How a verdict is drawn, one table for every renderer (the word itself is
 * pab_verdict_name()'s); an out-of-range v reads as NOT MEASURED.
 */
struct pab_verdict_look {
	const char *color;  /* ANSI colour of the word ("\033[32m"), "" for none */
	const char *badge;  /* Markdown's badge and word ("\u2705 PASS"; "not
			     * measured") */
	const char *mark;   /* Markdown's badge alone, "" for none */
	const char *css;    /* the HTML and SVG class: "pass", "inc", "fail",
			     * "nm" */
};
const struct pab_verdict_look *pab_fmt_verdict_look(enum pab_verdict v);

/* ------------------------------------------------------------------ */
/* The ledger in words                                                */

/* The pab_fmt_change() flags of a cell: PAB_FMT_NO_SAME unless it PASSed. */
int pab_fmt_change_flags(const struct pab_ledger_cell *c);

/* Where metric m's tolerance in e came from: "calibration" (run
 * --calibration raised it), "declared" or "default". */
const char *pab_fmt_tolerance_origin(const struct pab_experiment *e, enum pab_metric_id m);

/* A calibrated tolerance above this many times the declared one is a
 * warning in the ledger (doc/calibration.md). */
#define PAB_FMT_CALIBRATION_WIDE 1.5
/* The tolerance of metric m declared before run --calibration raised it
 * (run.calibration.declared), else the metric's default. */
double pab_fmt_tolerance_declared(const struct pab_experiment *e, enum pab_metric_id m);
/*
 * "warning: calibration 'FILE' widened the tolerance of cpu 4.1% (2.05x
 * the declared 2%), ...: a head that much worse can PASS" for the metrics l
 * judges whose tolerance the calibration raised to more than
 * PAB_FMT_CALIBRATION_WIDE times the declared one; NULL when none is
 * (caller frees). Terminal-safe; Markdown escapes it.
 */
char *pab_fmt_calibration_warning(const struct pab_experiment *e, const struct pab_ledger *l);

/* 1 when lr's row is a plain command (no workload; throughput is 1/wall). */
int pab_fmt_plain_row(const struct pab_experiment *e, const struct pab_ledger_row *lr);

/*
 * "required: cpu · guards: minor_faults, peak_rss · shown: wall" for
 * lr's cells, new memory (caller frees); NULL when every cell is required
 * (perfab/1, rule12, or nothing guards).
 */
char *pab_fmt_roles_line(const struct pab_ledger *l, const struct pab_ledger_row *lr);

/* "yes", "no" or "unknown". */
const char *pab_fmt_equivalence_name(enum pab_equivalence q);

/* "pooled from N artifacts (MODE)" for a pooled experiment, or NULL
 * (caller frees). */
char *pab_fmt_pool_note(const struct pab_experiment *e);

/* The CPU model row was measured on, or "unknown CPU model". */
const char *pab_fmt_cpu_model(const struct pab_experiment *e, const struct pab_row *row);

#endif /* PAB_FORMAT_H */
