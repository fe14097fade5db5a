/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg.c — the HTML page's plots as inline SVG (svg.h; the page is
 * html.c). Three kinds:
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
 *    together, a real change as one line apart from the others;
 *  - for a parameter series, per head arm, every judged metric's change
 *    against the rows in order.
 *
 * Coordinates are computed here in plain C; every string from the artifact
 * goes through pab_fmt_escape().
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report/format.h"
#include "report/markup.h"
#include "report/svg.h"
#include "util.h"

#define esc pab_fmt_escape

/*
 * Forest plot geometry (px). Narrow on purpose: the plot is drawn at
 * FP_W and shrinks with the page, and its 13 px text must stay legible on
 * a 390 px phone (358 px of page: 10 px text), so each cell's words are
 * on lines of their own above its interval rather than in columns beside
 * it. Per cell, from its top: the metric and the verdict, the change as
 * it reads, then the interval over its bands.
 */
#define FP_W 460
#define FP_PAD 10     /* left and right of the axis */
#define FP_ROW 58
#define FP_LABEL_Y 14 /* baselines and the interval, from a cell's top */
#define FP_VALUE_Y 30
#define FP_LINE_Y 45
#define FP_TOP 6
#define FP_AXIS 40
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

const char *pab_svg_arm_color(const struct pab_experiment *e,
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

double pab_svg_nice_step(double span, int want)
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

/* One cell of the forest plot, its top at y0: its words, then its bands
 * and interval on the line below them. */
static void forest_cell(FILE *f, const struct scale *s, const struct pab_ledger_cell *cell,
			double y0)
{
	const struct pab_cell_result *r = &cell->res;
	enum pab_metric_id m = cell->metric;
	char med[24], lo[24], hi[24], reads[128];
	double x_lo, x_hi, y = y0 + FP_LINE_Y;

	fprintf(f, "<g class=\"cell %s\">", pab_fmt_verdict_look(r->verdict)->css);
	fprintf(f, "<text class=\"metric\" x=\"%d\" y=\"%.1f\">", FP_PAD, y0 + FP_LABEL_Y);
	esc(f, pab_metrics[cell->metric].label);
	fputs("</text>", f);
	if (r->verdict == PAB_NOT_MEASURED) {
		fprintf(f, "<text class=\"note\" x=\"%d\" y=\"%.1f\">not measured</text></g>\n",
			FP_PAD, y0 + FP_VALUE_Y);
		return;
	}
	fprintf(f, "<text class=\"verdict\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
		FP_W - FP_PAD, y0 + FP_LABEL_Y, pab_verdict_name(r->verdict));
	pab_fmt_change(reads, sizeof(reads), m, &r->change, r->base_median, PAB_FMT_UTF8 |
		       (r->verdict == PAB_PASS ? 0 : PAB_FMT_NO_SAME));
	fprintf(f, "<text class=\"val\" x=\"%d\" y=\"%.1f\">", FP_PAD, y0 + FP_VALUE_Y);
	esc(f, reads);
	fputs("</text>", f);
	/* noise band, allowance band, thresholds */
	fprintf(f, "<rect class=\"noise\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\">"
		"<title>noise band \xc2\xb1%.1f%%</title></rect>",
		sx(s, lf(m, -r->noise)), y - 7, sx(s, lf(m, r->noise)) - sx(s, lf(m, -r->noise)),
		r->noise);
	fprintf(f, "<rect class=\"allow\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\">"
		"<title>allowance band 0..%.1f%%</title></rect>",
		sx(s, 0), y - 4, sx(s, lf(m, r->allowance)) - sx(s, 0), r->allowance);
	if (r->fail_threshold != r->allowance)
		fprintf(f, "<line class=\"failthr\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"><title>FAIL above %.1f%%</title></line>",
			sx(s, lf(m, r->fail_threshold)), y - 9, sx(s, lf(m, r->fail_threshold)),
			y + 9, r->fail_threshold);
	fprintf(f, "<line class=\"zero\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		sx(s, 0), y - 10, sx(s, 0), y + 10);
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
	fprintf(f, "<circle class=\"median\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/></g>\n",
		sx(s, lf(m, r->change.median)), y);
}

void pab_svg_forest(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l,
			const struct pab_ledger_row *lr)
{
	struct scale s = { 0, 0, FP_PAD, FP_W - FP_PAD };
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
			"<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"%s\">%s</text>\n",
			x, FP_TOP, x, h - FP_AXIS + 4, x, h - FP_AXIS + 19,
			x < FP_PAD + 20 ? "start" : x > FP_W - FP_PAD - 20 ? "end" : "middle", lab);
	}
	fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%.0f\" text-anchor=\"middle\">"
		"\u2190 head better (\u00f7) \u00b7 head worse (\u00d7) \u2192, log scale</text>\n",
		FP_W / 2, h - 4);
	for (c = 0; c < l->n_cells; c++)
		if (l->cells[c].row == lr->row && l->cells[c].arm == lr->arm)
			forest_cell(f, &s, &l->cells[c], FP_TOP + (double)k++ * FP_ROW);
	fputs("</svg>\n", f);
}

/* ------------------------------------------------------------------ */
/* Traces                                                             */

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
				widen(&lo, &hi, pab_fmt_plot_value(m, v, &unit));
		}
	if (!isfinite(lo))
		return -1;
	if (hi - lo < fabs(hi) * 1e-9 + 1e-12) {
		lo -= fabs(lo) * 0.05 + 1e-9;
		hi += fabs(hi) * 0.05 + 1e-9;
	}
	t->step = pab_svg_nice_step(hi - lo, 4);
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
				pab_svg_arm_color(e, l, a));
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", trace_x(t, r),
			trace_y(t, pab_fmt_plot_value(m, v, &unit)));
		open = 1;
	}
	if (open)
		fputs("\"/>\n", f);
	for (r = 0; r < t->n; r++) {
		double v = row->reps[r].result[a].m[m];

		if (isfinite(v))
			fprintf(f, "<circle class=\"pt\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" "
				"r=\"2\"/>", pab_svg_arm_color(e, l, a), trace_x(t, r),
				trace_y(t, pab_fmt_plot_value(m, v, &unit)));
	}
	fputc('\n', f);
}

void pab_svg_trace(FILE *f, const struct pab_experiment *e,
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
	pab_fmt_plot_value(m, 0, &unit);
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

/* Series plot geometry (px): as narrow as the forest plot, for the same
 * reason (13 px text that stays legible on a phone); the legend and the
 * axis' words are HTML below it, which wraps. */
#define SP_W 480
#define SP_H 250
#define SP_LEFT 50
#define SP_RIGHT 16
#define SP_TOP 12
#define SP_BOTTOM 28
#define SP_CHAR_PX 7.5 /* a generous width of one character of a label */

/* Row ri's x on the series plot (the rows evenly spaced, in order). */
static double series_x(const struct pab_experiment *e, size_t ri)
{
	double w = SP_W - SP_LEFT - SP_RIGHT;

	return SP_LEFT + (e->n_rows > 1 ? w * (double)ri / (double)(e->n_rows - 1) : w / 2);
}

/* Metric m's line of head arm a: a dot at each row's median change and
 * its interval, joined in row order. */
static void series_metric(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
			  size_t a, enum pab_metric_id m, const struct scale *s,
			  const char *color)
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

/* The rows' names under the series plot, every k-th one so that no two
 * overlap (the first and the last always). */
static void series_labels(FILE *f, const struct pab_experiment *e)
{
	double widest = 0, gap = e->n_rows > 1 ?
		(double)(SP_W - SP_LEFT - SP_RIGHT) / (double)(e->n_rows - 1) : SP_W;
	size_t ri, k;

	for (ri = 0; ri < e->n_rows; ri++)
		if (strlen(e->rows[ri].name) * SP_CHAR_PX > widest)
			widest = (double)strlen(e->rows[ri].name) * SP_CHAR_PX;
	k = (size_t)ceil((widest + 8) / gap);
	if (k < 1)
		k = 1;
	for (ri = 0; ri < e->n_rows; ri++) {
		if (ri % k && ri + 1 != e->n_rows)
			continue;
		if (ri + 1 == e->n_rows && ri % k && (ri % k) * gap < widest + 8)
			continue; /* the last one would overlap the one kept before it */
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">",
			series_x(e, ri), SP_H - SP_BOTTOM + 18, e->n_rows == 1 ? "middle" :
			ri == 0 ? "start" : ri + 1 == e->n_rows ? "end" : "middle");
		esc(f, e->rows[ri].name);
		fputs("</text>\n", f);
	}
}

void pab_svg_series(FILE *f, const struct pab_experiment *e, const struct pab_ledger *l,
			size_t a)
{
	/* The vertical axis runs from the plot's bottom (head better) up. */
	struct scale s = { 0, 0, SP_H - SP_BOTTOM, SP_TOP };
	size_t m, k = 0, n_ticks, ti;
	double ticks[16];

	series_scale(e, l, a, &s);
	n_ticks = factor_ticks(&s, 18, ticks, 16);
	fprintf(f, "<svg class=\"series\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
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
			ticks[ti] == 0 ? "zero" : "grid", SP_LEFT - 6, y, SP_W - SP_RIGHT, y,
			SP_LEFT - 9, y + 4, lab);
	}
	series_labels(f, e);
	for (m = 0; m < PAB_M_COUNT; m++)
		if (l->judged[m])
			series_metric(f, e, l, a, (enum pab_metric_id)m, &s,
				      palette[k++ % (sizeof(palette) / sizeof(palette[0]))]);
	fputs("</svg>\n<p class=\"legend\">", f);
	for (m = 0, k = 0; m < PAB_M_COUNT; m++) {
		if (!l->judged[m])
			continue;
		fprintf(f, "<span><span class=\"sw\" style=\"background:%s\"></span>",
			palette[k++ % (sizeof(palette) / sizeof(palette[0]))]);
		esc(f, pab_metrics[m].label);
		fputs("</span>", f);
	}
	fputs(" \xe2\x86\x91 head worse (\xc3\x97) \xc2\xb7 head better (\xc3\xb7) \xe2\x86\x93, log "
	      "scale; one point per row, its bar the interval (dashed: a range)</p>\n", f);
}
