/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ledger.c — the experiment judged cell by cell (ledger.h). The rules
 * themselves live in stats/ (pab_judge_cell); this file only gathers the
 * paired values, the memory credit and the control flags, and renders.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "ledger.h"
#include "report.h"
#include "runconf.h"
#include "util.h"
#include "../workloads/suite.h"

/* RSS-floor consistency slack, percent (PRODUCT.md ledger rule 10). */
#define FLOOR_SLACK_PCT 5.0

int pab_ledger_base_arm(const struct pab_experiment *e)
{
	int b = pab_experiment_arm_index(e, "base");

	return b >= 0 ? b : 0;
}

void pab_ledger_opts_init(struct pab_ledger_opts *o,
			  const struct pab_experiment *e)
{
	size_t i;

	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(e->run, "metrics");
	const cJSON *floors = cJSON_GetObjectItemCaseSensitive(e->run, "floors");
	const cJSON *v;

	memset(o, 0, sizeof(*o));
	if (pab_rules_parse(e->rules, &o->rules))
		o->rules = PAB_RULES_DEFAULT;
	o->conf = 0.95;
	for (i = 0; i < PAB_M_COUNT; i++)
		o->judged[i] = cJSON_IsArray(metrics) ? 0 : pab_metrics[i].judged;
	if (!cJSON_IsArray(metrics))
		metrics = NULL;
	cJSON_ArrayForEach(v, metrics) {
		const struct pab_metric *m = cJSON_IsString(v) ?
			pab_metric_find(v->valuestring) : NULL;

		if (m && m->id != PAB_M_RSS_FLOOR)
			o->judged[m->id] = 1;
	}
	v = cJSON_GetObjectItemCaseSensitive(floors, "bytes");
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 && isfinite(v->valuedouble))
		o->floor_bytes = v->valuedouble;
	v = cJSON_GetObjectItemCaseSensitive(floors, "count");
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 && isfinite(v->valuedouble))
		o->floor_count = v->valuedouble;
}

int pab_ledger_opts_narrow(struct pab_ledger_opts *o, const char *list,
			   char **why)
{
	int want[PAB_M_COUNT];
	size_t i;

	*why = NULL;
	if (pab_parse_metrics(list, want, why)) {
		if (!*why)
			*why = xstrdup("give at least one metric");
		return -1;
	}
	for (i = 0; i < PAB_M_COUNT; i++)
		if (want[i] && !o->judged[i]) {
			*why = xasprintf("'%s' was not judged by the run (its judged metrics are "
					 "recorded in the artifact): --metrics can only narrow them",
					 pab_metrics[i].name);
			return -1;
		}
	for (i = 0; i < PAB_M_COUNT; i++) {
		o->narrowed |= o->judged[i] && !want[i];
		o->judged[i] = want[i];
	}
	return 0;
}

int pab_ledger_format_parse(const char *s, enum pab_ledger_format *out)
{
	if (!strcmp(s, "text"))
		*out = PAB_LEDGER_TEXT;
	else if (!strcmp(s, "json"))
		*out = PAB_LEDGER_JSON;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*out = PAB_LEDGER_MARKDOWN;
	else if (!strcmp(s, "junit"))
		*out = PAB_LEDGER_JUNIT;
	else if (!strcmp(s, "html"))
		*out = PAB_LEDGER_HTML;
	else
		return -1;
	return 0;
}

int pab_verdict_exit_code(enum pab_verdict v)
{
	switch (v) {
	case PAB_PASS:
		return PAB_EXIT_PASS;
	case PAB_FAIL:
		return PAB_EXIT_FAIL;
	case PAB_INCONCLUSIVE:
	case PAB_NOT_MEASURED:
		break;
	}
	return PAB_EXIT_INCONCLUSIVE;
}

static void column(const struct pab_row *row, size_t arm,
		   enum pab_metric_id m, double *out)
{
	size_t r;

	for (r = 0; r < row->n_reps; r++)
		out[r] = row->reps[r].result[arm].m[m];
}

static double median_or_nan(const double *x, size_t n)
{
	double m;

	return pab_median(x, n, &m) ? NAN : m;
}

/* Memory credit for (row, head arm); sets floor fields on lr. */
static double row_credit(const struct pab_row *row, size_t base, size_t arm,
			 double conf, struct pab_ledger_row *lr, double *bufs)
{
	double *b = bufs, *h = bufs + row->n_reps, *ch = bufs + 2 * row->n_reps;
	struct pab_interval peak;
	double bmed, hmed, lowest;

	column(row, base, PAB_M_RSS_FLOOR, b);
	lr->rss_floor = median_or_nan(b, row->n_reps);
	column(row, base, PAB_M_PEAK_RSS, b);
	column(row, arm, PAB_M_PEAK_RSS, h);
	bmed = median_or_nan(b, row->n_reps);
	hmed = median_or_nan(h, row->n_reps);
	if (!isfinite(lr->rss_floor) || !isfinite(bmed) || !isfinite(hmed))
		return 0;
	lowest = bmed < hmed ? bmed : hmed;
	if (lr->rss_floor * 100 > lowest * (100 + FLOOR_SLACK_PCT)) {
		lr->floor_inconsistent = 1;
		return 0; /* flagged, not silently credited */
	}
	pab_paired_changes(b, h, row->n_reps, PAB_LOWER_IS_BETTER, ch);
	if (pab_sign_interval(ch, row->n_reps, conf, &peak))
		return 0;
	return pab_memory_credit(&peak, bmed, hmed, lr->rss_floor);
}

int pab_ledger_build(const struct pab_experiment *e,
		     const struct pab_ledger_opts *o, struct pab_ledger *l,
		     char **why)
{
	size_t ri, a, m, max_reps = 1, cells_alloc = 0, rows_alloc = 0;
	double *bufs;

	memset(l, 0, sizeof(*l));
	*why = NULL;
	l->base = pab_ledger_base_arm(e);
	l->null_arm = pab_experiment_null_index(e);
	l->rules = o->rules;
	memcpy(l->judged, o->judged, sizeof(l->judged));
	l->narrowed = o->narrowed;
	l->floor_bytes = o->floor_bytes;
	l->floor_count = o->floor_count;
	if (e->n_arms < 2) {
		*why = xstrdup("the artifact has fewer than two arms: nothing to compare");
		return -1;
	}
	for (ri = 0; ri < e->n_rows; ri++)
		if (e->rows[ri].n_reps > max_reps)
			max_reps = e->rows[ri].n_reps;
	bufs = xcalloc(4 * max_reps, sizeof(*bufs));
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];
		int control = row->control ||
			(o->controls && pab_suite_select(o->controls, row->name));

		for (a = 0; a < e->n_arms; a++) {
			struct pab_ledger_row *lr;
			enum pab_verdict *vs;
			size_t nv = 0, first_cell;

			if ((int)a == l->base || (int)a == l->null_arm)
				continue;
			ALLOC_GROW(l->rows, l->n_rows + 1, rows_alloc);
			lr = &l->rows[l->n_rows++];
			memset(lr, 0, sizeof(*lr));
			lr->row = ri;
			lr->arm = a;
			lr->control = control;
			lr->n = row->n_reps;
			lr->rss_floor = NAN;
			/* Floor and its consistency for every row; credit only
			 * for rows that are not controls. */
			lr->saved_pct = row_credit(row, (size_t)l->base, a, o->conf, lr, bufs);
			if (control)
				lr->saved_pct = 0;
			first_cell = l->n_cells;
			for (m = 0; m < PAB_M_COUNT; m++) {
				struct pab_cell_input in;
				struct pab_ledger_cell *c;

				if (!o->judged[m])
					continue;
				column(row, (size_t)l->base, (enum pab_metric_id)m, bufs);
				column(row, a, (enum pab_metric_id)m, bufs + max_reps);
				if (l->null_arm >= 0)
					column(row, (size_t)l->null_arm,
					       (enum pab_metric_id)m, bufs + 2 * max_reps);
				memset(&in, 0, sizeof(in));
				in.base = bufs;
				in.head = bufs + max_reps;
				in.null = l->null_arm >= 0 ? bufs + 2 * max_reps : NULL;
				in.n = row->n_reps;
				in.better = pab_metrics[m].better;
				in.credit_eligible = pab_metrics[m].credit_eligible;
				in.control = control;
				in.saved_pct = lr->saved_pct;
				in.tolerance_pct = e->tolerance[m];
				if (!strcmp(pab_metrics[m].unit, "bytes"))
					in.floor_abs = o->floor_bytes;
				else if (!strcmp(pab_metrics[m].unit, "count"))
					in.floor_abs = o->floor_count;
				in.equivalence_margin_pct = e->equivalence_margin;
				in.conf = o->conf;
				in.rules = o->rules;
				ALLOC_GROW(l->cells, l->n_cells + 1, cells_alloc);
				c = &l->cells[l->n_cells];
				c->row = ri;
				c->arm = a;
				c->metric = (enum pab_metric_id)m;
				if (pab_judge_cell(&in, &c->res)) {
					free(bufs);
					*why = xasprintf("cannot judge row '%s' metric '%s'",
							 row->name, pab_metrics[m].name);
					return -1;
				}
				l->n_cells++;
			}
			vs = xcalloc(l->n_cells - first_cell + 1, sizeof(*vs));
			for (m = first_cell; m < l->n_cells; m++)
				vs[nv++] = l->cells[m].res.verdict;
			lr->verdict = pab_combine_verdicts(vs, nv);
			free(vs);
			if (lr->verdict == PAB_NOT_MEASURED)
				lr->verdict = PAB_INCONCLUSIVE;
			if (row->failed) {
				lr->verdict = PAB_FAIL;
				lr->why = "a child failed (see the row's fail_reason)";
			}
		}
	}
	free(bufs);
	{
		enum pab_verdict *vs = xcalloc(l->n_rows + 1, sizeof(*vs));

		for (a = 0; a < l->n_rows; a++)
			vs[a] = l->rows[a].verdict;
		l->overall = pab_combine_verdicts(vs, l->n_rows);
		if (l->overall == PAB_NOT_MEASURED)
			l->overall = PAB_INCONCLUSIVE;
		free(vs);
	}
	return 0;
}

void pab_ledger_release(struct pab_ledger *l)
{
	free(l->rows);
	free(l->cells);
	memset(l, 0, sizeof(*l));
}

enum pab_verdict pab_ledger_row_verdict(const struct pab_ledger *l, size_t row)
{
	enum pab_verdict v = PAB_PASS;
	size_t i;
	int any = 0;

	for (i = 0; i < l->n_rows; i++) {
		if (l->rows[i].row != row)
			continue;
		any = 1;
		if (l->rows[i].verdict == PAB_FAIL)
			return PAB_FAIL;
		if (l->rows[i].verdict != PAB_PASS)
			v = PAB_INCONCLUSIVE;
	}
	return any ? v : PAB_INCONCLUSIVE;
}

/* ------------------------------------------------------------------ */
/* Disposition (the seed's incremental-improvement table)             */

static int is_cpu_metric(enum pab_metric_id m)
{
	return m == PAB_M_THROUGHPUT || m == PAB_M_CPU;
}

static const struct pab_ledger_row *row_of_cell(const struct pab_ledger *l,
						const struct pab_ledger_cell *c)
{
	size_t i;

	for (i = 0; i < l->n_rows; i++)
		if (l->rows[i].row == c->row && l->rows[i].arm == c->arm)
			return &l->rows[i];
	BUG("ledger cell (%zu, %zu) has no row", c->row, c->arm);
}

int pab_ledger_cell_is_gain(const struct pab_ledger *l,
			    const struct pab_ledger_cell *c)
{
	const struct pab_cell_result *r = &c->res;

	return is_cpu_metric(c->metric) && !row_of_cell(l, c)->control &&
	       r->verdict == PAB_PASS && r->change.exists && r->change.hi < 0 &&
	       r->beyond_noise;
}

static const struct {
	const char *name, *evidence, *action;
} dispositions[] = {
	[PAB_DISP_ACCEPT_GAIN] = { "accept-gain",
		"supported target gains; remaining metrics PASS",
		"accept a small improvement; report its size and scope" },
	[PAB_DISP_ACCEPT] = { "accept",
		"every cell PASSes; no gain demonstrated",
		"accept: the regression gate passed, which proves neither improvement nor equality" },
	[PAB_DISP_LIMITED] = { "accept-with-uncertainty",
		"limited INCONCLUSIVE ancillary metrics; CPU/throughput and controls PASS; no confirmed FAIL",
		"accept when the full intervals fit the risk you declared acceptable, or with explicit "
		"owner acceptance of the stated uncertainty; preserve the INCONCLUSIVE labels" },
	[PAB_DISP_FOLLOW_UP] = { "follow-up",
		"wide uncertainty or missing coverage: a CPU/throughput or control cell "
		"INCONCLUSIVE, or fewer than 6 paired reps",
		"attribute or run a bounded, planned follow-up; do not claim equivalence" },
	[PAB_DISP_REJECT_CPU] = { "reject-cpu",
		"CPU/throughput FAIL beyond that cell's noise and permitted memory credit",
		"reject or revise, even if other workloads improve" },
	[PAB_DISP_REJECT_OTHER] = { "reject-other",
		"p99, peak/drain RSS, faults or a control FAIL beyond the per-cell allowance",
		"reject or revise; p99 and memory receive no memory credit" },
	[PAB_DISP_REJECT_BROKEN] = { "reject-failure",
		"a child failed (crash, timeout or non-zero exit): a correctness failure",
		"reject or fix before acceptance; an average win cannot compensate" },
};

void pab_ledger_disposition(const struct pab_experiment *e,
			    const struct pab_ledger *l,
			    struct pab_disposition *d)
{
	size_t i, broken = 0, cpu_fail = 0, other_fail = 0, wide = 0, limited = 0;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < l->n_rows; i++) {
		if (e->rows[l->rows[i].row].failed)
			broken++;
		if (l->rows[i].n < PAB_MIN_N_95)
			wide++;
	}
	for (i = 0; i < l->n_cells; i++) {
		const struct pab_ledger_cell *c = &l->cells[i];
		int control = row_of_cell(l, c)->control;

		d->cells++;
		switch (c->res.verdict) {
		case PAB_PASS:
			d->pass++;
			if (pab_ledger_cell_is_gain(l, c))
				d->gains++;
			break;
		case PAB_FAIL:
			d->fail++;
			if (is_cpu_metric(c->metric))
				cpu_fail++;
			else
				other_fail++;
			break;
		case PAB_INCONCLUSIVE:
			d->inconclusive++;
			if (is_cpu_metric(c->metric) || control)
				wide++;
			else
				limited++;
			break;
		case PAB_NOT_MEASURED:
			/* A probe this row cannot have (p99 of a plain
			 * command) is not missing coverage: listed, not held. */
			d->not_measured++;
			break;
		}
	}
	if (broken) {
		d->kind = PAB_DISP_REJECT_BROKEN;
		d->deciding = broken;
	} else if (cpu_fail) {
		d->kind = PAB_DISP_REJECT_CPU;
		d->deciding = cpu_fail;
	} else if (other_fail) {
		d->kind = PAB_DISP_REJECT_OTHER;
		d->deciding = other_fail;
	} else if (wide || d->cells == d->not_measured) {
		/* Nothing judged at all is missing coverage, never an accept. */
		d->kind = PAB_DISP_FOLLOW_UP;
		d->deciding = wide;
	} else if (limited) {
		d->kind = PAB_DISP_LIMITED;
		d->deciding = limited;
	} else if (d->gains) {
		d->kind = PAB_DISP_ACCEPT_GAIN;
		d->deciding = d->gains;
	} else {
		d->kind = PAB_DISP_ACCEPT;
		d->deciding = d->pass;
	}
	d->name = dispositions[d->kind].name;
	d->evidence = dispositions[d->kind].evidence;
	d->action = dispositions[d->kind].action;
}

char *pab_disposition_line(const struct pab_disposition *d)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;

	pab_strbuf_addf(&sb, "disposition: %s (%s; %zu judged cells: %zu PASS, "
			"%zu INCONCLUSIVE, %zu FAIL; %zu supported gain%s",
			d->action, d->evidence, d->cells - d->not_measured, d->pass,
			d->inconclusive, d->fail, d->gains, d->gains == 1 ? "" : "s");
	if (d->not_measured)
		pab_strbuf_addf(&sb, "; %zu not measured", d->not_measured);
	pab_strbuf_addstr(&sb, ")");
	return pab_strbuf_detach(&sb);
}

/* ------------------------------------------------------------------ */
/* Rendering                                                          */

void pab_ledger_fmt_pct(char *buf, size_t len, double v)
{
	pab_fmt_pct(buf, len, v);
}

#define fmt_value pab_fmt_value

static const char *equiv_name(enum pab_equivalence q)
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
static char *pool_note(const struct pab_experiment *e)
{
	const cJSON *pool = cJSON_GetObjectItemCaseSensitive(e->run, "pool");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(pool, "artifacts");
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(pool, "mode");

	if (!cJSON_IsNumber(n) || !cJSON_IsString(mode))
		return NULL;
	return xasprintf("pooled from %.0f artifacts (%s)", n->valuedouble,
			 pab_term_safe(mode->valuestring));
}

int pab_ledger_mixed_cpus(const struct pab_experiment *e)
{
	const char *first = e->n_rows ? pab_row_cpu_model(e, &e->rows[0]) : NULL, *m;
	size_t i;

	for (i = 1; i < e->n_rows; i++) {
		m = pab_row_cpu_model(e, &e->rows[i]);
		if (!first != !m || (m && strcmp(first, m)))
			return 1;
	}
	return 0;
}

static const char *cpu_or_unknown(const struct pab_experiment *e,
				  const struct pab_row *row)
{
	const char *m = pab_row_cpu_model(e, row);

	return m ? m : "unknown CPU model";
}

/* Seconds one rep of experiment row ri takes: every arm's median wall. */
static double rep_seconds(const struct pab_experiment *e, size_t ri)
{
	const struct pab_row *row = &e->rows[ri];
	double *xs = xcalloc(row->n_reps ? row->n_reps : 1, sizeof(*xs));
	double sum = 0, med;
	size_t a;

	for (a = 0; a < e->n_arms; a++) {
		column(row, a, PAB_M_WALL, xs);
		if (pab_median(xs, row->n_reps, &med) || !isfinite(med)) {
			sum = NAN;
			break;
		}
		sum += med;
	}
	free(xs);
	return sum;
}

void pab_ledger_cell_reason(const struct pab_experiment *e,
			    const struct pab_ledger *l,
			    const struct pab_ledger_cell *c, char *buf, size_t len)
{
	const struct pab_ledger_row *lr = row_of_cell(l, c);
	struct pab_reason_ctx ctx;

	ctx.n = lr->n;
	ctx.block = e->n_arms;
	ctx.rep_seconds = rep_seconds(e, c->row);
	ctx.control = lr->control;
	ctx.margin = e->equivalence_margin;
	pab_fmt_reason(buf, len, &c->res, &ctx);
}

/*
 * Write text to f folded at word boundaries to PAB_TEXT_WIDTH columns:
 * the first line after `first` (already counted as first_cols), the rest
 * indented by `rest` spaces.
 */
static void print_folded(FILE *f, size_t first_cols, size_t rest, const char *text)
{
	size_t col = first_cols;
	const char *p = text;
	int first = 1;

	while (*p == ' ')
		p++;
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t w = sp ? (size_t)(sp - p) : strlen(p);

		if (!first && col + 1 + w > PAB_TEXT_WIDTH) {
			fprintf(f, "\n%*s", (int)rest, "");
			col = rest;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		first = 0;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void print_verdict(FILE *f, enum pab_verdict v, int color, int width)
{
	const char *name = pab_verdict_name(v);

	if (color && *pab_fmt_verdict_color(v))
		fprintf(f, "%s%s\033[0m%*s", pab_fmt_verdict_color(v), name,
			width > (int)strlen(name) ? width - (int)strlen(name) : 0, "");
	else
		fprintf(f, "%-*s", width, name);
}

static void print_text(FILE *f, const struct pab_experiment *e,
		       const struct pab_ledger *l, const struct pab_text_opts *to)
{
	int mixed = pab_ledger_mixed_cpus(e);
	struct pab_disposition d;
	size_t i, c;
	char *line;

	fprintf(f, "perfab ledger · rules %s · 95%% sign-test intervals of paired changes\n",
		pab_rules_name(l->rules));
	if (l->null_arm < 0 && l->rules == PAB_RULES_PERFAB2)
		fprintf(f, "no null arm: FAIL is unguarded (head vs base alone)\n");
	else if (l->null_arm < 0)
		fprintf(f, "no null arm: noise 0, strict\n");
	else if (l->rules == PAB_RULES_PERFAB2)
		fprintf(f, "null arm: FAIL needs head beyond the allowance against base and null; "
			"noise (base vs null) is shown\n");
	else
		fprintf(f, "null arm: noise = the base-vs-null interval's largest |end|\n");
	if (l->narrowed) {
		size_t m;

		fprintf(f, "the verdict covers only:");
		for (m = 0; m < PAB_M_COUNT; m++)
			if (l->judged[m])
				fprintf(f, " %s", pab_metrics[m].name);
		fprintf(f, " (--metrics)\n");
	}
	line = pool_note(e);
	if (line)
		fprintf(f, "%s\n", line);
	free(line);
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];
		const struct pab_row *row = &e->rows[lr->row];

		fputc('\n', f);
		pab_fmt_name(f, row->name);
		fputs(" · ", f);
		pab_fmt_name(f, e->arms[lr->arm].name);
		fputs(" vs ", f);
		pab_fmt_name(f, e->arms[l->base].name);
		fprintf(f, " · n=%zu%s · saved %.1f%%", lr->n,
			lr->control ? " · control" : "", lr->saved_pct);
		if (isfinite(lr->rss_floor))
			fprintf(f, " (floor %.1f MiB)", lr->rss_floor / 1048576.0);
		fputs(" · ", f);
		print_verdict(f, lr->verdict, to->color, 0);
		fputc('\n', f);
		if (mixed)
			fprintf(f, "  measured on: %s\n", cpu_or_unknown(e, row));
		if (lr->floor_inconsistent)
			fprintf(f, "  the RSS floor is above the lowest peak: inconsistent, no memory credit\n");
		if (lr->why) {
			fprintf(f, "  %s: ", lr->why);
			print_folded(f, strlen(lr->why) + 4, 4,
				     row->fail_reason ? pab_term_safe(row->fail_reason) : "");
		}
		if (lr->n < PAB_MIN_N_95)
			fprintf(f, "  only %zu paired reps: no 95%% interval exists below %d, "
				"so no PASS or FAIL\n", lr->n, PAB_MIN_N_95);
		fprintf(f, "  %-12s %-27s %-34s %s\n", "metric", "base -> head (medians)",
			"change [95% interval]", to->wide ?
			"verdict       noise   tol  allow  coverage" : "verdict");
		for (c = 0; c < l->n_cells; c++) {
			const struct pab_ledger_cell *cell = &l->cells[c];
			const struct pab_cell_result *r = &cell->res;
			char bh[80], ch[112], why[512];

			if (cell->row != lr->row || cell->arm != lr->arm)
				continue;
			if (r->verdict == PAB_NOT_MEASURED) {
				fprintf(f, "  %-12s not measured\n", pab_metrics[cell->metric].name);
				continue;
			}
			pab_fmt_pair(bh, sizeof(bh), cell->metric, r->base_median,
				     r->head_median, 0);
			pab_fmt_change(ch, sizeof(ch), cell->metric, &r->change,
				       r->base_median, 0);
			fprintf(f, "  %-12s %-27s %-34s ", pab_metrics[cell->metric].name, bh, ch);
			if (to->wide) {
				print_verdict(f, r->verdict, to->color, 12);
				fprintf(f, " %5.1f%% %5.1f%% %5.1f%%  %5.1f%%", r->noise,
					r->tolerance, r->allowance, r->change.coverage * 100);
				if (r->verdict == PAB_PASS)
					fprintf(f, "  by %s", pab_decider_name(r->pass_decider));
				else if (r->verdict == PAB_FAIL)
					fprintf(f, "  by %s", pab_decider_name(r->fail_decider));
				if (lr->control)
					fprintf(f, " · unchanged: %s", equiv_name(r->equivalence));
			} else {
				print_verdict(f, r->verdict, to->color, 0);
			}
			fputc('\n', f);
			pab_ledger_cell_reason(e, l, cell, why, sizeof(why));
			if (*why) {
				fputs("      ", f);
				print_folded(f, 6, 8, why);
			}
		}
	}
	fprintf(f, "\noverall: ");
	print_verdict(f, l->overall, to->color, 0);
	fputc('\n', f);
	pab_ledger_disposition(e, l, &d);
	line = pab_disposition_line(&d);
	print_folded(f, 0, 2, line);
	free(line);
}

static cJSON *interval_json(const struct pab_interval *iv)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "n", (double)iv->n);
	cJSON_AddNumberToObject(o, "median", iv->median);
	cJSON_AddNumberToObject(o, "lo", iv->lo);
	cJSON_AddNumberToObject(o, "hi", iv->hi);
	cJSON_AddNumberToObject(o, "coverage", iv->coverage);
	cJSON_AddBoolToObject(o, "exists", iv->exists);
	return o;
}

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* How the cell reads (format.h): ratio, direction, the words, the reason. */
static void add_reading(cJSON *x, const struct pab_experiment *e,
			const struct pab_ledger *l, const struct pab_ledger_cell *c)
{
	const struct pab_cell_result *r = &c->res;
	struct pab_ratio q;
	char text[160], why[512];

	pab_change_ratio(c->metric, &r->change, &q);
	cJSON_AddItemToObject(x, "ratio", num_or_null(q.ratio));
	cJSON_AddItemToObject(x, "ratio_low", num_or_null(q.ratio_low));
	cJSON_AddItemToObject(x, "ratio_high", num_or_null(q.ratio_high));
	if (pab_change_kind_of(c->metric) == PAB_CHANGE_RATIO) {
		cJSON_AddItemToObject(x, "factor", num_or_null(q.factor));
		cJSON_AddItemToObject(x, "factor_low", num_or_null(q.factor_low));
		cJSON_AddItemToObject(x, "factor_high", num_or_null(q.factor_high));
	}
	cJSON_AddStringToObject(x, "direction", q.direction);
	pab_fmt_change(text, sizeof(text), c->metric, &r->change, r->base_median,
		       PAB_FMT_UTF8);
	cJSON_AddStringToObject(x, "reads", text);
	pab_ledger_cell_reason(e, l, c, why, sizeof(why));
	if (*why)
		cJSON_AddStringToObject(x, "reason", why);
}

static void print_json(FILE *f, const struct pab_experiment *e,
		       const struct pab_ledger *l)
{
	cJSON *root = cJSON_CreateObject(), *rows, *disp;
	struct pab_disposition d;
	size_t i, c;
	char *text;

	/* "schema", as the artifact and the memgate baseline name their
	 * version; "format" kept for readers of the first documents. */
	cJSON_AddStringToObject(root, "schema", "perfab-ledger/1");
	cJSON_AddStringToObject(root, "format", "perfab-ledger/1");
	cJSON_AddStringToObject(root, "rules", pab_rules_name(l->rules));
	cJSON_AddNumberToObject(root, "confidence", 0.95);
	cJSON_AddStringToObject(root, "base", e->arms[l->base].name);
	cJSON_AddBoolToObject(root, "null_arm", l->null_arm >= 0);
	cJSON_AddBoolToObject(root, "fail_unguarded",
			      l->rules == PAB_RULES_PERFAB2 && l->null_arm < 0);
	{
		cJSON *judged = cJSON_AddArrayToObject(root, "metrics"), *fl;
		size_t m;

		for (m = 0; m < PAB_M_COUNT; m++)
			if (l->judged[m])
				cJSON_AddItemToArray(judged, cJSON_CreateString(pab_metrics[m].name));
		cJSON_AddBoolToObject(root, "metrics_narrowed", l->narrowed);
		fl = cJSON_AddObjectToObject(root, "floors");
		cJSON_AddNumberToObject(fl, "bytes", l->floor_bytes);
		cJSON_AddNumberToObject(fl, "count", l->floor_count);
	}
	cJSON_AddStringToObject(root, "overall", pab_verdict_name(l->overall));
	pab_ledger_disposition(e, l, &d);
	disp = cJSON_AddObjectToObject(root, "disposition");
	cJSON_AddStringToObject(disp, "kind", d.name);
	cJSON_AddStringToObject(disp, "evidence", d.evidence);
	cJSON_AddStringToObject(disp, "action", d.action);
	cJSON_AddNumberToObject(disp, "cells", (double)(d.cells - d.not_measured));
	cJSON_AddNumberToObject(disp, "pass", (double)d.pass);
	cJSON_AddNumberToObject(disp, "inconclusive", (double)d.inconclusive);
	cJSON_AddNumberToObject(disp, "fail", (double)d.fail);
	cJSON_AddNumberToObject(disp, "not_measured", (double)d.not_measured);
	cJSON_AddNumberToObject(disp, "gains", (double)d.gains);
	rows = cJSON_AddArrayToObject(root, "rows");
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];
		cJSON *o = cJSON_CreateObject(), *cells;

		cJSON_AddStringToObject(o, "row", e->rows[lr->row].name);
		cJSON_AddStringToObject(o, "arm", e->arms[lr->arm].name);
		cJSON_AddNumberToObject(o, "n", (double)lr->n);
		cJSON_AddBoolToObject(o, "control", lr->control);
		cJSON_AddNumberToObject(o, "saved_pct", lr->saved_pct);
		cJSON_AddItemToObject(o, "rss_floor", num_or_null(lr->rss_floor));
		cJSON_AddBoolToObject(o, "floor_inconsistent", lr->floor_inconsistent);
		cJSON_AddStringToObject(o, "verdict", pab_verdict_name(lr->verdict));
		if (pab_row_cpu_model(e, &e->rows[lr->row]))
			cJSON_AddStringToObject(o, "cpu_model",
						pab_row_cpu_model(e, &e->rows[lr->row]));
		else
			cJSON_AddNullToObject(o, "cpu_model");
		if (e->rows[lr->row].failed && e->rows[lr->row].fail_reason)
			cJSON_AddStringToObject(o, "fail_reason", e->rows[lr->row].fail_reason);
		cells = cJSON_AddArrayToObject(o, "cells");
		for (c = 0; c < l->n_cells; c++) {
			const struct pab_ledger_cell *cell = &l->cells[c];
			const struct pab_cell_result *r = &cell->res;
			cJSON *x;

			if (cell->row != lr->row || cell->arm != lr->arm)
				continue;
			x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "metric", pab_metrics[cell->metric].name);
			cJSON_AddStringToObject(x, "unit", pab_metrics[cell->metric].unit);
			cJSON_AddStringToObject(x, "verdict", pab_verdict_name(r->verdict));
			if (r->verdict != PAB_NOT_MEASURED) {
				cJSON_AddItemToObject(x, "base_median", num_or_null(r->base_median));
				cJSON_AddItemToObject(x, "head_median", num_or_null(r->head_median));
				cJSON_AddItemToObject(x, "change", interval_json(&r->change));
				if (r->has_null)
					cJSON_AddItemToObject(x, "null_change",
							      interval_json(&r->null_change));
				if (r->has_null && r->head_null.n)
					cJSON_AddItemToObject(x, "head_null",
							      interval_json(&r->head_null));
				cJSON_AddItemToObject(x, "noise", num_or_null(r->noise));
				cJSON_AddBoolToObject(x, "noise_infinite", r->noise_infinite);
				cJSON_AddNumberToObject(x, "tolerance", r->tolerance);
				cJSON_AddNumberToObject(x, "floor_pct", r->floor_pct);
				cJSON_AddNumberToObject(x, "credit", r->credit);
				cJSON_AddNumberToObject(x, "allowance", r->allowance);
				cJSON_AddNumberToObject(x, "fail_threshold", r->fail_threshold);
				cJSON_AddStringToObject(x, "pass_decider", pab_decider_name(r->pass_decider));
				cJSON_AddStringToObject(x, "fail_decider", pab_decider_name(r->fail_decider));
				if (l->rules == PAB_RULES_PERFAB2)
					cJSON_AddBoolToObject(x, "fail_guarded", r->fail_guarded);
				cJSON_AddBoolToObject(x, "beyond_noise", r->beyond_noise);
				cJSON_AddBoolToObject(x, "gain", pab_ledger_cell_is_gain(l, cell));
				if (lr->control)
					cJSON_AddStringToObject(x, "unchanged", equiv_name(r->equivalence));
				if (r->verdict == PAB_INCONCLUSIVE) {
					cJSON_AddNumberToObject(x, "half_width", r->half_width);
					cJSON_AddNumberToObject(x, "reps_needed", (double)r->reps_needed);
				}
				add_reading(x, e, l, cell);
			}
			cJSON_AddItemToArray(cells, x);
		}
		cJSON_AddItemToArray(rows, o);
	}
	text = cJSON_Print(root);
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
}

/* s with Markdown's special characters backslash-escaped (GFM). */
static void md_escape(FILE *f, const char *s)
{
	for (s = pab_term_safe(s); *s; s++) {
		if (strchr("\\`*_[]<>|~&", *s))
			fputc('\\', f);
		if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

static const char *md_badge(enum pab_verdict v)
{
	switch (v) {
	case PAB_PASS:
		return "\u2705 PASS";
	case PAB_FAIL:
		return "\u274c FAIL";
	case PAB_INCONCLUSIVE:
		return "\u26a0\ufe0f INCONCLUSIVE";
	case PAB_NOT_MEASURED:
		break;
	}
	return "not measured";
}

static const char *md_mark(enum pab_verdict v)
{
	switch (v) {
	case PAB_PASS:
		return "\u2705";
	case PAB_FAIL:
		return "\u274c";
	case PAB_INCONCLUSIVE:
		return "\u26a0\ufe0f";
	case PAB_NOT_MEASURED:
		break;
	}
	return "";
}

static const struct pab_ledger_cell *find_cell(const struct pab_ledger *l,
					       size_t row, size_t arm,
					       enum pab_metric_id m)
{
	size_t c;

	for (c = 0; c < l->n_cells; c++)
		if (l->cells[c].row == row && l->cells[c].arm == arm &&
		    l->cells[c].metric == m)
			return &l->cells[c];
	return NULL;
}

/*
 * Markdown for a pull-request comment or a GitHub step summary: the
 * verdict and what to do in the heading, one compact table, the full
 * intervals folded into <details>, the disposition line last.
 */
static void print_markdown(FILE *f, const struct pab_experiment *e,
			   const struct pab_ledger *l)
{
	struct pab_disposition d;
	size_t i, c, m, n_fail = 0, n_inc = 0;
	int judged[PAB_M_COUNT] = { 0 }, mixed = pab_ledger_mixed_cpus(e);
	char *line;

	pab_ledger_disposition(e, l, &d);
	for (c = 0; c < l->n_cells; c++)
		judged[l->cells[c].metric] = 1;
	for (i = 0; i < l->n_rows; i++) {
		n_fail += l->rows[i].verdict == PAB_FAIL;
		n_inc += l->rows[i].verdict == PAB_INCONCLUSIVE;
	}
	fprintf(f, "### perfab: %s \u2014 %s\n\n", md_badge(l->overall), d.action);
	fprintf(f, "%zu row%s judged: %zu FAIL, %zu INCONCLUSIVE, %zu PASS. "
		"Rules `%s`; 95%% sign-test intervals of paired changes; %s.",
		l->n_rows, l->n_rows == 1 ? "" : "s", n_fail, n_inc,
		l->n_rows - n_fail - n_inc, pab_rules_name(l->rules),
		l->null_arm >= 0 ? "noise floor from the null arm" : "no null arm: noise 0, strict");
	line = pool_note(e);
	if (line)
		fprintf(f, " P%s.", line + 1); /* "pooled ..." starts a sentence */
	free(line);
	fprintf(f, "\n\n| row | arm | n | verdict |");
	for (m = 0; m < PAB_M_COUNT; m++)
		if (judged[m])
			fprintf(f, " %s |", pab_metrics[m].label);
	if (mixed)
		fprintf(f, " CPU model |");
	fprintf(f, "\n|---|---|--:|---|");
	for (m = 0; m < PAB_M_COUNT; m++)
		if (judged[m])
			fprintf(f, "--:|");
	if (mixed)
		fprintf(f, "---|");
	fputc('\n', f);
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];

		fputs("| ", f);
		md_escape(f, e->rows[lr->row].name);
		fprintf(f, "%s | ", lr->control ? " (control)" : "");
		md_escape(f, e->arms[lr->arm].name);
		fprintf(f, " | %zu | %s |", lr->n, md_badge(lr->verdict));
		for (m = 0; m < PAB_M_COUNT; m++) {
			const struct pab_ledger_cell *cell;
			char med[128];

			if (!judged[m])
				continue;
			cell = find_cell(l, lr->row, lr->arm, (enum pab_metric_id)m);
			if (!cell || cell->res.verdict == PAB_NOT_MEASURED) {
				fprintf(f, " \u2014 |");
				continue;
			}
			pab_fmt_change(med, sizeof(med), cell->metric, &cell->res.change,
				       cell->res.base_median, PAB_FMT_UTF8);
			fprintf(f, " %s %s%s |", med, md_mark(cell->res.verdict),
				pab_ledger_cell_is_gain(l, cell) ? " gain" : "");
		}
		if (mixed) {
			fputc(' ', f);
			md_escape(f, cpu_or_unknown(e, &e->rows[lr->row]));
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fprintf(f, "\n<details><summary>Intervals, noise and allowances</summary>\n\n");
	for (i = 0; i < l->n_rows; i++) {
		const struct pab_ledger_row *lr = &l->rows[i];
		const struct pab_row *row = &e->rows[lr->row];

		fputs("#### ", f);
		md_escape(f, row->name);
		fputs(" \u00b7 ", f);
		md_escape(f, e->arms[lr->arm].name);
		fputs(" vs ", f);
		md_escape(f, e->arms[l->base].name);
		fprintf(f, " \u00b7 n=%zu \u00b7 saved %.1f%%%s \u00b7 %s\n\n", lr->n, lr->saved_pct,
			lr->floor_inconsistent ? " (RSS floor inconsistent: no credit)" : "",
			md_badge(lr->verdict));
		if (lr->why) {
			md_escape(f, lr->why);
			if (row->fail_reason) {
				fputs(": ", f);
				md_escape(f, row->fail_reason);
			}
			fputs("\n\n", f);
		}
		if (lr->n < PAB_MIN_N_95)
			fprintf(f, "Only %zu paired reps: no 95%% interval exists below %d.\n\n",
				lr->n, PAB_MIN_N_95);
		fprintf(f, "| metric | base \u2192 head (medians) | change [95%% interval] | coverage | noise | allowance | verdict | reason |\n"
			   "|---|---|---|--:|--:|--:|---|---|\n");
		for (c = 0; c < l->n_cells; c++) {
			const struct pab_ledger_cell *cell = &l->cells[c];
			const struct pab_cell_result *r = &cell->res;
			char bh[96], ch[128], why[512];

			if (cell->row != lr->row || cell->arm != lr->arm)
				continue;
			if (r->verdict == PAB_NOT_MEASURED) {
				fprintf(f, "| %s | not measured | | | | | | |\n",
					pab_metrics[cell->metric].name);
				continue;
			}
			pab_fmt_pair(bh, sizeof(bh), cell->metric, r->base_median,
				     r->head_median, PAB_FMT_UTF8);
			pab_fmt_change(ch, sizeof(ch), cell->metric, &r->change,
				       r->base_median, PAB_FMT_UTF8);
			fprintf(f, "| %s | %s | %s | %.1f%% | %.1f%% | %.1f%% | %s",
				pab_metrics[cell->metric].name, bh, ch, r->change.coverage * 100,
				r->noise, r->allowance, md_badge(r->verdict));
			if (r->verdict == PAB_PASS)
				fprintf(f, " by %s", pab_decider_name(r->pass_decider));
			else if (r->verdict == PAB_FAIL)
				fprintf(f, " by %s", pab_decider_name(r->fail_decider));
			if (lr->control)
				fprintf(f, "; unchanged: %s", equiv_name(r->equivalence));
			pab_ledger_cell_reason(e, l, cell, why, sizeof(why));
			fputs(" | ", f);
			md_escape(f, why);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	fprintf(f, "</details>\n\n");
	line = pab_disposition_line(&d);
	/* "disposition:" -> "**Disposition:**" for the comment. */
	fprintf(f, "**Disposition:** %s\n", line + strlen("disposition: "));
	free(line);
}

void pab_ledger_print(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, enum pab_ledger_format fmt)
{
	switch (fmt) {
	case PAB_LEDGER_TEXT: {
		struct pab_text_opts to = { 0, 0 };

		print_text(f, e, l, &to);
		return;
	}
	case PAB_LEDGER_JSON:
		print_json(f, e, l);
		return;
	case PAB_LEDGER_MARKDOWN:
		print_markdown(f, e, l);
		return;
	case PAB_LEDGER_JUNIT:
		pab_report_junit(f, e, l, 0);
		return;
	case PAB_LEDGER_HTML:
		pab_report_html(f, e, l);
		return;
	}
}

void pab_ledger_print_text(FILE *f, const struct pab_experiment *e,
			   const struct pab_ledger *l,
			   const struct pab_text_opts *to)
{
	print_text(f, e, l, to);
}
