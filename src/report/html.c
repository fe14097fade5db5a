/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report_html.c — the ledger as one self-contained HTML page (report.h):
 * inline CSS, inline SVG, no script, nothing fetched. Two kinds of plot:
 *
 *  - a forest plot per row × head arm: one line per judged metric, the
 *    paired change's median and interval over the grey noise band
 *    [-noise, +noise] and the green allowance band [0, allowance], on a
 *    log axis of the factor by which head is worse (×) or better (÷):
 *    a 26-fold gain and a 2% allowance stay visible side by side,
 *    with the FAIL threshold dashed when it differs from the allowance —
 *    so a reader sees at a glance why a cell passed, failed or could not
 *    decide;
 *  - per row, per metric, every arm's value against the rep index, one
 *    polyline per arm, block boundaries marked: drift over the run (a
 *    machine warming up, a neighbour arriving) shows as all lines moving
 *    together, a real change as one line apart from the others.
 *
 * Coordinates are computed here in plain C; every string from the artifact
 * goes through pab_report_escape().
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report.h"
#include "util.h"

#define esc pab_report_escape

/* Forest plot geometry (px). */
#define FP_W 800
#define FP_LEFT 110
#define FP_RIGHT 300
#define FP_ROW 28
#define FP_TOP 10
#define FP_AXIS 34
#define CI_MIN_PX 3.0 /* the shortest interval line drawn */

/* Trace plot geometry (px). */
#define TR_W 360
#define TR_H 190
#define TR_LEFT 62
#define TR_RIGHT 10
#define TR_TOP 24
#define TR_BOTTOM 30

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
	"#8c564b", "#e377c2", "#17becf", "#bcbd22",
};

/* The colour of arm a: base blue, null grey, heads from the palette. */
static const char *arm_color(const struct pab_experiment *e,
			     const struct pab_ledger *l, size_t a)
{
	size_t k = 0, i;

	if ((int)a == l->base)
		return palette[0];
	if ((int)a == l->null_arm)
		return "#7f7f7f";
	for (i = 0; i < a; i++)
		if ((int)i != l->base && (int)i != l->null_arm)
			k++;
	(void)e;
	return palette[1 + k % (sizeof(palette) / sizeof(palette[0]) - 1)];
}

static const char *verdict_class(enum pab_verdict v)
{
	switch (v) {
	case PAB_PASS:
		return "pass";
	case PAB_FAIL:
		return "fail";
	case PAB_INCONCLUSIVE:
		return "inc";
	case PAB_NOT_MEASURED:
		break;
	}
	return "nm";
}

/* A "nice" tick step (1, 2 or 5 × 10^k) giving about `want` ticks. */
static double nice_step(double span, int want)
{
	double raw = span / want, mag, f;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* ------------------------------------------------------------------ */
/* Forest plot                                                        */

struct scale {
	double lo, hi;      /* domain */
	double x0, x1;      /* range (px) */
};

static double sx(const struct scale *s, double v)
{
	if (isnan(v))
		v = 0;
	if (v < s->lo)
		v = s->lo;
	if (v > s->hi)
		v = s->hi;
	return s->x0 + (v - s->lo) / (s->hi - s->lo) * (s->x1 - s->x0);
}

static void widen(double *lo, double *hi, double v)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/*
 * A paired change c (percent, + = worse) on the forest plot's axis: the
 * natural log of the factor by which head is worse, 1 + c/100 for
 * lower-is-better metrics and 1 / (1 - c/100) for throughput (the same
 * reading as format.h). -inf/+inf when the factor is 0 or infinite.
 */
static double lf(enum pab_metric_id m, double c)
{
	double f;

	if (isnan(c))
		return NAN;
	if (pab_metrics[m].better == PAB_HIGHER_IS_BETTER)
		f = c < 100 ? 1.0 / (1.0 - c / 100.0) : INFINITY;
	else
		f = 1.0 + c / 100.0;
	return f > 0 ? log(f) : -INFINITY;
}

/* Tick label for log-factor t: "1", "×1.1", "÷26". */
static void factor_tick(char *buf, size_t len, double t)
{
	double f = exp(fabs(t));
	char num[24];

	if (fabs(t) < 1e-9) {
		snprintf(buf, len, "1");
		return;
	}
	if (f >= 999.5)
		pab_fmt_si(num, sizeof(num), f);
	else
		snprintf(num, sizeof(num), "%.3g", f);
	snprintf(buf, len, "%s%s", t > 0 ? "\u00d7" : "\u00f7", num);
}

/*
 * Ticks of a log-factor axis over [lo, hi] for a scale s: 1, then the
 * factors 1.01, 1.02, 1.05, ... outwards either way, each kept only when
 * it lies at least min_px from the last one kept, so labels never overlap.
 */
static size_t factor_ticks(const struct scale *s, double min_px, double *out,
			   size_t cap)
{
	static const double f[] = { 1.01, 1.02, 1.05, 1.1, 1.2, 1.5, 2, 3, 5, 10, 20,
				    50, 100, 200, 500, 1000, 1e4, 1e5, 1e6 };
	size_t n = 0, i;
	int side;

	out[n++] = 0;
	for (side = -1; side <= 1; side += 2) {
		double last = 0;

		for (i = 0; i < sizeof(f) / sizeof(f[0]) && n < cap; i++) {
			double t = side * log(f[i]);

			if (t < s->lo || t > s->hi)
				continue;
			if (fabs(sx(s, t) - sx(s, last)) < min_px)
				continue;
			out[n++] = t;
			last = t;
		}
	}
	return n;
}

/* The forest plot's scale for the cells of lr; *n_cells counts them. */
static void forest_scale(const struct pab_ledger *l, const struct pab_ledger_row *lr,
			 struct scale *s, size_t *n_cells)
{
	size_t c;
	double pad;

	*n_cells = 0;
	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];
		const struct pab_cell_result *r = &cell->res;

		if (cell->row != lr->row || cell->arm != lr->arm)
			continue;
		(*n_cells)++;
		if (r->verdict == PAB_NOT_MEASURED)
			continue;
		widen(&s->lo, &s->hi, lf(cell->metric, r->change.lo));
		widen(&s->lo, &s->hi, lf(cell->metric, r->change.hi));
		widen(&s->lo, &s->hi, lf(cell->metric, -r->noise));
		widen(&s->lo, &s->hi, lf(cell->metric, r->noise));
		widen(&s->lo, &s->hi, lf(cell->metric, r->allowance));
		widen(&s->lo, &s->hi, lf(cell->metric, r->fail_threshold));
	}
	/* at least ×/÷1.05 either way, and a margin so ends are not on the edge */
	if (s->lo > -log(1.05))
		s->lo = -log(1.05);
	if (s->hi < log(1.05))
		s->hi = log(1.05);
	pad = (s->hi - s->lo) * 0.04;
	s->lo -= pad;
	s->hi += pad;
}

/* One cell's line of the forest plot at height y: bands, interval, words. */
static void forest_cell(FILE *f, const struct scale *s, const struct pab_ledger_cell *cell,
			double y)
{
	const struct pab_cell_result *r = &cell->res;
	enum pab_metric_id m = cell->metric;
	char med[24], lo[24], hi[24], reads[128];
	double x_lo, x_hi;

	fprintf(f, "<g class=\"cell %s\">", verdict_class(r->verdict));
	fprintf(f, "<text class=\"metric\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
		FP_LEFT - 8, y + 4);
	esc(f, pab_metrics[cell->metric].label);
	fputs("</text>", f);
	if (r->verdict == PAB_NOT_MEASURED) {
		fprintf(f, "<text class=\"note\" x=\"%d\" y=\"%.1f\">not measured</text></g>\n",
			FP_LEFT + 4, y + 4);
		return;
	}
	/* noise band, allowance band, thresholds */
	fprintf(f, "<rect class=\"noise\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\">"
		"<title>noise band \xc2\xb1%.1f%%</title></rect>",
		sx(s, lf(m, -r->noise)), y - FP_ROW / 2.0 + 3,
		sx(s, lf(m, r->noise)) - sx(s, lf(m, -r->noise)), FP_ROW - 6, r->noise);
	fprintf(f, "<rect class=\"allow\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\">"
		"<title>allowance band 0..%.1f%%</title></rect>",
		sx(s, 0), y - FP_ROW / 2.0 + 6, sx(s, lf(m, r->allowance)) - sx(s, 0),
		FP_ROW - 12, r->allowance);
	if (r->fail_threshold != r->allowance)
		fprintf(f, "<line class=\"failthr\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"><title>FAIL above %.1f%%</title></line>",
			sx(s, lf(m, r->fail_threshold)), y - FP_ROW / 2.0 + 2,
			sx(s, lf(m, r->fail_threshold)), y + FP_ROW / 2.0 - 2, r->fail_threshold);
	fprintf(f, "<line class=\"zero\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		sx(s, 0), y - FP_ROW / 2.0, sx(s, 0), y + FP_ROW / 2.0);
	/* the interval (dashed when no interval exists) */
	pab_fmt_pct(med, sizeof(med), r->change.median);
	pab_fmt_pct(lo, sizeof(lo), r->change.lo);
	pab_fmt_pct(hi, sizeof(hi), r->change.hi);
	/* A tied interval ([0, 0]: every pair equal) is still drawn, as a
	 * short tick: a zero-length line would render as nothing. */
	x_lo = sx(s, lf(m, r->change.lo));
	x_hi = sx(s, lf(m, r->change.hi));
	if (x_hi - x_lo < CI_MIN_PX) {
		double mid = (x_lo + x_hi) / 2;

		x_lo = mid - CI_MIN_PX / 2;
		x_hi = mid + CI_MIN_PX / 2;
	}
	fprintf(f, "<line class=\"ci%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">"
		"<title>%s%% [%s, %s], coverage %.1f%%</title></line>",
		r->change.exists ? "" : " range", x_lo, y, x_hi, y, med, lo, hi,
		r->change.coverage * 100);
	fprintf(f, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		sx(s, lf(m, r->change.lo)), y - 5, sx(s, lf(m, r->change.lo)), y + 5,
		sx(s, lf(m, r->change.hi)), y - 5, sx(s, lf(m, r->change.hi)), y + 5);
	fprintf(f, "<circle class=\"median\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>",
		sx(s, lf(m, r->change.median)), y);
	pab_fmt_change(reads, sizeof(reads), m, &r->change, r->base_median, PAB_FMT_UTF8 |
		       (r->verdict == PAB_PASS ? 0 : PAB_FMT_NO_SAME));
	fprintf(f, "<text class=\"val\" x=\"%d\" y=\"%.1f\">", FP_W - FP_RIGHT + 10, y + 4);
	esc(f, reads);
	fprintf(f, " %s</text></g>\n", pab_verdict_name(r->verdict));
}

static void forest_plot(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l,
			const struct pab_ledger_row *lr)
{
	struct scale s = { 0, 0, FP_LEFT, FP_W - FP_RIGHT };
	size_t c, k = 0, n, n_ticks, ti;
	double h, ticks[16];

	forest_scale(l, lr, &s, &n);
	n_ticks = factor_ticks(&s, 44, ticks, 16);
	h = FP_TOP + (double)n * FP_ROW + FP_AXIS;

	fprintf(f, "<svg class=\"forest\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\" aria-label=\"forest plot: ",
		FP_W, h, FP_W, h);
	esc(f, e->rows[lr->row].name);
	fputs(" ", f);
	esc(f, e->arms[lr->arm].name);
	fputs("\">\n", f);
	/* grid and axis */
	for (ti = 0; ti < n_ticks; ti++) {
		double x = sx(&s, ticks[ti]);
		char lab[32];

		factor_tick(lab, sizeof(lab), ticks[ti]);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n",
			x, FP_TOP, x, h - FP_AXIS + 4, x, h - FP_AXIS + 18, lab);
	}
	fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
		"\u2190 head better (\u00f7) \u00b7 head worse (\u00d7) \u2192, log scale</text>\n",
		(s.x0 + s.x1) / 2, h - 3);
	for (c = 0; c < l->n_cells; c++)
		if (l->cells[c].row == lr->row && l->cells[c].arm == lr->arm)
			forest_cell(f, &s, &l->cells[c],
				    FP_TOP + (double)k++ * FP_ROW + FP_ROW / 2.0);
	fputs("</svg>\n", f);
}

/* ------------------------------------------------------------------ */
/* Traces                                                             */

/* v in the metric's display unit; *unit names it. */
static double display(enum pab_metric_id m, double v, const char **unit)
{
	*unit = pab_metrics[m].plot_unit;
	return v / pab_metrics[m].plot_div;
}

/* A trace tick with an SI prefix: "1.50 M", "320 k", "0.25". */
static const char *si_tick(double v, char *buf)
{
	pab_fmt_si(buf, 32, v);
	return buf;
}

/* Where a trace plot puts rep i and value v (display unit). */
struct trace_frame {
	double x0, x1, y0, y1;  /* plot area */
	double lo, hi, step;    /* value range and grid step */
	size_t n;               /* reps */
};

static double trace_x(const struct trace_frame *t, size_t i)
{
	return t->n > 1 ? t->x0 + (double)i / (double)(t->n - 1) * (t->x1 - t->x0) :
	       (t->x0 + t->x1) / 2;
}

static double trace_y(const struct trace_frame *t, double v)
{
	return t->y0 + (v - t->lo) / (t->hi - t->lo) * (t->y1 - t->y0);
}

/* The value range of metric m over row's reps, rounded to a grid step;
 * 0, or -1 when nothing was measured. */
static int trace_range(const struct pab_experiment *e, const struct pab_row *row,
		       enum pab_metric_id m, struct trace_frame *t)
{
	double lo = INFINITY, hi = -INFINITY;
	const char *unit;
	size_t r, a;

	for (r = 0; r < row->n_reps; r++)
		for (a = 0; a < e->n_arms; a++) {
			double v = row->reps[r].result[a].m[m];

			if (isfinite(v))
				widen(&lo, &hi, display(m, v, &unit));
		}
	if (!isfinite(lo))
		return -1;
	if (hi - lo < fabs(hi) * 1e-9 + 1e-12) {
		lo -= fabs(lo) * 0.05 + 1e-9;
		hi += fabs(hi) * 0.05 + 1e-9;
	}
	t->step = nice_step(hi - lo, 4);
	t->lo = floor(lo / t->step) * t->step;
	t->hi = ceil(hi / t->step) * t->step;
	return 0;
}

/* Arm a's line and points on the trace of metric m. */
static void trace_arm(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
		      const struct pab_row *row, enum pab_metric_id m, size_t a,
		      const struct trace_frame *t)
{
	const char *unit;
	size_t r;
	int open = 0;

	for (r = 0; r < t->n; r++) {
		double v = row->reps[r].result[a].m[m];

		if (!isfinite(v)) {
			if (open)
				fputs("\"/>\n", f);
			open = 0;
			continue;
		}
		if (!open)
			fprintf(f, "<polyline class=\"arm\" stroke=\"%s\" points=\"",
				arm_color(e, l, a));
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", trace_x(t, r),
			trace_y(t, display(m, v, &unit)));
		open = 1;
	}
	if (open)
		fputs("\"/>\n", f);
	for (r = 0; r < t->n; r++) {
		double v = row->reps[r].result[a].m[m];

		if (isfinite(v))
			fprintf(f, "<circle class=\"pt\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" "
				"r=\"2\"/>", arm_color(e, l, a), trace_x(t, r),
				trace_y(t, display(m, v, &unit)));
	}
	fputc('\n', f);
}

static void trace_plot(FILE *f, const struct pab_experiment *e,
		       const struct pab_ledger *l, const struct pab_row *row,
		       enum pab_metric_id m)
{
	struct trace_frame t = { TR_LEFT, TR_W - TR_RIGHT, TR_H - TR_BOTTOM, TR_TOP,
				 0, 0, 0, row->n_reps };
	const char *unit = "";
	size_t r, a;
	double v;
	char tick[32];

	if (trace_range(e, row, m, &t))
		return;
	display(m, 0, &unit);
	fprintf(f, "<svg class=\"trace\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"trace: ",
		TR_W, TR_H, TR_W, TR_H);
	esc(f, pab_metrics[m].label);
	fputs("\">\n<text class=\"ttitle\" x=\"4\" y=\"15\">", f);
	esc(f, pab_metrics[m].label);
	fputs(" (", f);
	esc(f, unit);
	fprintf(f, "%s)</text>\n", pab_metrics[m].better == PAB_HIGHER_IS_BETTER ?
		", higher is better" : ", lower is better");
	for (v = t.lo; v <= t.hi + t.step / 2; v += t.step) {
		double y = trace_y(&t, v);

		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			t.x0, y, t.x1, y, t.x0 - 4, y + 4,
			si_tick(fabs(v) < t.step / 1e6 ? 0.0 : v, tick));
	}
	/* block boundaries: every n_arms reps */
	for (r = e->n_arms; r < t.n; r += e->n_arms)
		fprintf(f, "<line class=\"block\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			(trace_x(&t, r - 1) + trace_x(&t, r)) / 2, t.y1,
			(trace_x(&t, r - 1) + trace_x(&t, r)) / 2, t.y0);
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"start\">rep 1</text>"
		"<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\">rep %zu</text>\n",
		t.x0, TR_H - 10, t.x1, TR_H - 10, t.n);
	for (a = 0; a < e->n_arms; a++)
		trace_arm(f, e, l, row, m, a, &t);
	fputs("</svg>\n", f);
}

/* ------------------------------------------------------------------ */
/* A parameter series                                                 */

/* Series plot geometry (px). */
#define SP_W 800
#define SP_H 260
#define SP_LEFT 62
#define SP_RIGHT 130
#define SP_TOP 14
#define SP_BOTTOM 52

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

/* Row ri's x on the series plot (the rows evenly spaced, in order). */
static double series_x(const struct pab_experiment *e, size_t ri)
{
	double w = SP_W - SP_LEFT - SP_RIGHT;

	return SP_LEFT + (e->n_rows > 1 ? w * (double)ri / (double)(e->n_rows - 1) : w / 2);
}

/* Metric m's line of head arm a: a dot at each row's median change and
 * its interval, joined in row order; the legend entry at the right. */
static void series_metric(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
			  size_t a, enum pab_metric_id m, const struct scale *s,
			  const char *color, size_t k)
{
	struct pab_strbuf path = PAB_STRBUF_INIT;
	size_t ri;

	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_ledger_cell *c = pab_ledger_find_cell(l, ri, a, m);
		double x = series_x(e, ri);

		if (!c || c->res.verdict == PAB_NOT_MEASURED)
			continue;
		pab_strbuf_addf(&path, "%s%.1f,%.1f", path.buf ? " L" : "M",
				x, sx(s, lf(m, c->res.change.median)));
		fprintf(f, "<line stroke=\"%s\" stroke-width=\"1.6\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"%s/>", color, x, sx(s, lf(m, c->res.change.lo)), x,
			sx(s, lf(m, c->res.change.hi)), c->res.change.exists ? "" :
			" stroke-dasharray=\"5 3\"");
		fprintf(f, "<circle fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>", color,
			x, sx(s, lf(m, c->res.change.median)));
		esc(f, e->rows[ri].name);
		fprintf(f, " %s: %s</title></circle>\n", pab_metrics[m].name,
			pab_verdict_name(c->res.verdict));
	}
	if (path.buf)
		fprintf(f, "<path class=\"arm\" stroke=\"%s\" d=\"%s\"/>\n", color, path.buf);
	fprintf(f, "<line stroke=\"%s\" stroke-width=\"3\" x1=\"%d\" y1=\"%.0f\" x2=\"%d\" "
		"y2=\"%.0f\"/><text x=\"%d\" y=\"%.0f\">", color, SP_W - SP_RIGHT + 12,
		SP_TOP + 8.0 + 16.0 * (double)k, SP_W - SP_RIGHT + 26, SP_TOP + 8.0 + 16.0 * (double)k,
		SP_W - SP_RIGHT + 30, SP_TOP + 12.0 + 16.0 * (double)k);
	esc(f, pab_metrics[m].label);
	fputs("</text>\n", f);
	pab_strbuf_release(&path);
}

/* The scale of the series plot of head arm a (log factor, vertical). */
static void series_scale(const struct pab_experiment *e, const struct pab_ledger *l, size_t a,
			 struct scale *s)
{
	size_t c;
	double pad;

	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];

		if (cell->arm != a || cell->res.verdict == PAB_NOT_MEASURED)
			continue;
		widen(&s->lo, &s->hi, lf(cell->metric, cell->res.change.lo));
		widen(&s->lo, &s->hi, lf(cell->metric, cell->res.change.hi));
	}
	(void)e;
	if (s->lo > -log(1.05))
		s->lo = -log(1.05);
	if (s->hi < log(1.05))
		s->hi = log(1.05);
	if (!isfinite(s->lo))
		s->lo = -log(1e6);
	if (!isfinite(s->hi))
		s->hi = log(1e6);
	pad = (s->hi - s->lo) * 0.04;
	s->lo -= pad;
	s->hi += pad;
}

/*
 * One plot per head arm of a parameter series: the paired change of
 * every judged metric (dot: median, bar: its interval) against the rows
 * in order, on the forest plots' log-factor scale, worse upwards.
 */
static void series_plot(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
			size_t a)
{
	/* The vertical axis runs from the plot's bottom (head better) up. */
	struct scale s = { 0, 0, SP_H - SP_BOTTOM, SP_TOP };
	size_t ri, m, k = 0, n_ticks, ti;
	double ticks[16];

	series_scale(e, l, a, &s);
	n_ticks = factor_ticks(&s, 16, ticks, 16);
	/* min-width inline: the stylesheet stays the one every report shares. */
	fprintf(f, "<svg class=\"series\" style=\"min-width:560px\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"change against the "
		"parameter: ", SP_W, SP_H, SP_W, SP_H);
	esc(f, e->arms[a].name);
	fputs("\">\n", f);
	for (ti = 0; ti < n_ticks; ti++) {
		double y = sx(&s, ticks[ti]);
		char lab[32];

		factor_tick(lab, sizeof(lab), ticks[ti]);
		fprintf(f, "<line class=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			ticks[ti] == 0 ? "zero" : "grid", SP_LEFT - 8, y, SP_W - SP_RIGHT, y,
			SP_LEFT - 12, y + 4, lab);
	}
	for (ri = 0; ri < e->n_rows; ri++) {
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			series_x(e, ri), SP_H - SP_BOTTOM + 18);
		esc(f, e->rows[ri].name);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">\u2191 head "
		"worse (\u00d7) \u00b7 head better (\u00f7) \u2193, log scale; one point per row</text>\n",
		(SP_LEFT + SP_W - SP_RIGHT) / 2, SP_H - 8);
	for (m = 0; m < PAB_M_COUNT; m++) {
		if (!l->judged[m])
			continue;
		series_metric(f, e, l, a, (enum pab_metric_id)m, &s,
			      palette[k % (sizeof(palette) / sizeof(palette[0]))], k);
		k++;
	}
	fputs("</svg>\n", f);
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
		fputs("</h3>\n<div class=\"scroll\">\n", f);
		series_plot(f, e, l, a);
		fputs("</div>\n", f);
	}
}

/* ------------------------------------------------------------------ */
/* The page                                                           */

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"margin:24px auto;max-width:1120px;padding:0 16px;color:#1b1f23;background:#fff}\n"
	"h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:28px 0 6px;"
	"border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px;margin:16px 0 4px}\n"
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
	".scroll{overflow-x:auto;max-width:100%}#overview td{white-space:nowrap}\n"
	"svg.forest{min-width:560px}\n"
	"td.pass{background:#dafbe1}td.fail{background:#ffebe9}td.inc{background:#fff8c5}\n"
	"svg text{font:11px system-ui,sans-serif;fill:#24292f}\n"
	"svg .tick{fill:#57606a}svg .axis{fill:#57606a}svg .ttitle{font-weight:600}\n"
	"svg .grid{stroke:#eaeef2;stroke-width:1}svg .zero{stroke:#24292f;stroke-width:1}\n"
	"svg .block{stroke:#d0d7de;stroke-dasharray:2 3}\n"
	"svg .noise{fill:#8c959f;fill-opacity:.28}svg .allow{fill:#2da44e;fill-opacity:.28}\n"
	"svg .failthr{stroke:#cf222e;stroke-dasharray:4 2;stroke-width:1.5}\n"
	"svg .ci,svg .whisker{stroke-width:2.2}svg .range{stroke-dasharray:5 3}\n"
	"svg .pass .ci,svg .pass .whisker{stroke:#1a7f37}svg .pass .median{fill:#1a7f37}\n"
	"svg .fail .ci,svg .fail .whisker{stroke:#cf222e}svg .fail .median{fill:#cf222e}\n"
	"svg .inc .ci,svg .inc .whisker{stroke:#9a6700}svg .inc .median{fill:#9a6700}\n"
	"svg .note{fill:#6e7781;font-style:italic}\n"
	"svg .arm{fill:none;stroke-width:1.6;stroke-linejoin:round}\n"
	".traces{display:flex;flex-wrap:wrap;gap:8px}.traces svg{flex:0 1 360px}\n"
	".legend span{display:inline-block;margin-right:14px}\n"
	".sw{display:inline-block;width:14px;height:4px;margin-right:4px;vertical-align:middle}\n";

static void badge(FILE *f, enum pab_verdict v)
{
	fprintf(f, "<span class=\"badge %s\">%s</span>", verdict_class(v), pab_verdict_name(v));
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

	fputs("<h2>Arms</h2>\n<div class=\"scroll\"><table><tr><th>arm</th><th>revision</th><th>sha256</th>"
	      "<th>command</th></tr>\n", f);
	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm *arm = &e->arms[a];
		size_t i;

		fprintf(f, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>",
			arm_color(e, l, a));
		esc(f, arm->name);
		fputs((int)a == l->base ? " (base)" : (int)a == l->null_arm ?
		      " (base again)" : "", f);
		fputs("</td><td>", f);
		esc(f, arm->revision ? arm->revision : "");
		fputs("</td><td><code>", f);
		if (arm->sha256) {
			char shortsha[17];

			snprintf(shortsha, sizeof(shortsha), "%s", arm->sha256);
			esc(f, shortsha);
		}
		fputs("</code></td><td><code>", f);
		for (i = 0; i < arm->argc; i++) {
			esc(f, arm->argv[i]);
			fputc(' ', f);
		}
		for (i = 0; i < arm->n_env; i++) {
			fputs("[", f);
			esc(f, arm->env[i].key);
			fputc('=', f);
			esc(f, arm->env[i].value);
			fputs("] ", f);
		}
		fputs("</code></td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

/* Every row × head arm × judged metric in one table: the overview. */
static void summary(FILE *f, const struct pab_experiment *e,
		    const struct pab_ledger *l)
{
	int judged[PAB_M_COUNT] = { 0 };
	int mixed = pab_ledger_mixed_cpus(e);
	size_t i, m;

	for (i = 0; i < l->n_cells; i++)
		judged[l->cells[i].metric] = 1;
	fputs("<h2>Overview</h2>\n<div class=\"scroll\"><table id=\"overview\"><tr><th>row</th>"
	      "<th>arm</th><th>n</th><th>saved %</th><th>verdict</th>", f);
	if (mixed)
		fputs("<th>CPU model</th>", f);
	for (m = 0; m < PAB_M_COUNT; m++)
		if (judged[m]) {
			fputs("<th>", f);
			esc(f, pab_metrics[m].label);
			fputs("</th>", f);
		}
	fputs("</tr>\n", f);
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];

		fprintf(f, "<tr><td><a href=\"#row%zu\">", lr->row);
		esc(f, e->rows[lr->row].name);
		fprintf(f, "</a>%s</td><td>", lr->control ? " (control)" : "");
		esc(f, e->arms[lr->arm].name);
		fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%.1f</td><td>",
			lr->n, lr->saved_pct);
		badge(f, lr->verdict);
		if (mixed) {
			const char *cpu = pab_row_cpu_model(e, &e->rows[lr->row]);

			fputs("</td><td>", f);
			esc(f, cpu ? cpu : "unknown");
		}
		fputs("</td>", f);
		for (m = 0; m < PAB_M_COUNT; m++) {
			const struct pab_ledger_cell *c;
			char reads[128], why[512];

			if (!judged[m])
				continue;
			c = pab_ledger_find_cell(l, lr->row, lr->arm, (enum pab_metric_id)m);
			if (!c || c->res.verdict == PAB_NOT_MEASURED) {
				fputs("<td class=\"nm\">not measured</td>", f);
				continue;
			}
			pab_fmt_change(reads, sizeof(reads), c->metric, &c->res.change,
				       c->res.base_median, PAB_FMT_UTF8 | pab_report_change_flags(c));
			pab_report_cell_reason(e, l, c, why, sizeof(why));
			fprintf(f, "<td class=\"num %s\" title=\"%s", verdict_class(c->res.verdict),
				pab_verdict_name(c->res.verdict));
			if (*why) {
				fputs(": ", f);
				esc(f, why);
			}
			fputs("\">", f);
			esc(f, reads);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static void cell_table(FILE *f, const struct pab_experiment *e,
		       const struct pab_ledger *l, const struct pab_ledger_row *lr)
{
	size_t c;
	char conf[16];

	pab_fmt_conf(conf, sizeof(conf), l->conf);
	fprintf(f, "<div class=\"scroll\"><table><tr><th>metric</th><th>base median</th>"
		"<th>head median</th><th>change [%s interval]</th><th>coverage</th><th>noise</th>"
		"<th>allowance</th><th>fail above</th><th>verdict</th><th>reason</th></tr>\n", conf);
	for (c = 0; c < l->n_cells; c++) {
		const struct pab_ledger_cell *cell = &l->cells[c];
		const struct pab_cell_result *r = &cell->res;
		char b[32], h[32], reads[128], why[512];

		if (cell->row != lr->row || cell->arm != lr->arm)
			continue;
		fputs("<tr><td>", f);
		esc(f, pab_metrics[cell->metric].name);
		if (r->verdict == PAB_NOT_MEASURED) {
			fputs("</td><td colspan=\"9\">not measured</td></tr>\n", f);
			continue;
		}
		pab_fmt_value(b, sizeof(b), cell->metric, r->base_median);
		pab_fmt_value(h, sizeof(h), cell->metric, r->head_median);
		pab_fmt_change(reads, sizeof(reads), cell->metric, &r->change, r->base_median,
			       PAB_FMT_UTF8 | pab_report_change_flags(cell));
		fputs("</td><td class=\"num\">", f);
		esc(f, b);
		fputs("</td><td class=\"num\">", f);
		esc(f, h);
		fputs("</td><td class=\"num\">", f);
		esc(f, reads);
		fprintf(f, "</td><td class=\"num\">%.1f%%</td>"
			"<td class=\"num\">%.1f%%</td><td class=\"num\">%.1f%%</td>"
			"<td class=\"num\">%.1f%%</td><td>",
			r->change.coverage * 100, r->noise, r->allowance, r->fail_threshold);
		badge(f, r->verdict);
		if (pab_report_decided_by(r))
			fprintf(f, " by %s", pab_report_decided_by(r));
		if (pab_ledger_cell_is_gain(l, cell))
			fputs(" \xc2\xb7 gain", f);
		pab_report_cell_reason(e, l, cell, why, sizeof(why));
		fputs("</td><td>", f);
		esc(f, why);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
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
		esc(f, e->arms[lr->arm].name);
		fputs(" vs ", f);
		esc(f, e->arms[l->base].name);
		fprintf(f, " \xc2\xb7 n=%zu \xc2\xb7 saved %.1f%%", lr->n, lr->saved_pct);
		if (isfinite(lr->rss_floor))
			fprintf(f, " (RSS floor %.1f MiB%s)", lr->rss_floor / 1048576.0,
				lr->floor_inconsistent ? ", inconsistent: no credit" : "");
		fputs(" ", f);
		badge(f, lr->verdict);
		fputs("</h3>\n", f);
		if (lr->n < PAB_MIN_N_95)
			fprintf(f, "<p>only %zu paired reps: no %s interval exists below %d; the "
				"dashed lines are ranges, not intervals</p>\n", lr->n, conf,
				PAB_MIN_N_95);
		fputs("<div class=\"scroll\">", f);
		forest_plot(f, e, l, lr);
		fputs("</div>\n", f);
		cell_table(f, e, l, lr);
	}
	for (i = 0; i < l->n_cells; i++)
		if (l->cells[i].row == ri)
			measured[l->cells[i].metric] = 1;
	fputs("<h3>Per-rep traces</h3>\n<p class=\"legend\">", f);
	for (a = 0; a < e->n_arms; a++) {
		fprintf(f, "<span><span class=\"sw\" style=\"background:%s\"></span>",
			arm_color(e, l, a));
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
			trace_plot(f, e, l, row, (enum pab_metric_id)m);
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
