/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ledger.c — the experiment judged cell by cell (ledger.h). The rules
 * themselves live in stats/ (pab_judge_cell); this file only gathers the
 * paired values, the memory credit and the control flags, and classifies
 * the result (the disposition). The renderers are in report/.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "util.h"
#include "common/suite.h"

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
	o->rules = e->rules;
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

/* Memory credit for (row, head arm); sets floor fields on lr. */
static double row_credit(const struct pab_row *row, size_t base, size_t arm,
			 double conf, struct pab_ledger_row *lr, double *bufs)
{
	double *b = bufs, *h = bufs + row->n_reps, *ch = bufs + 2 * row->n_reps;
	struct pab_interval peak;
	double bmed, hmed, lowest;

	column(row, base, PAB_M_RSS_FLOOR, b);
	lr->rss_floor = pab_metric_aggregate(PAB_M_RSS_FLOOR, b, row->n_reps);
	column(row, base, PAB_M_PEAK_RSS, b);
	column(row, arm, PAB_M_PEAK_RSS, h);
	bmed = pab_metric_aggregate(PAB_M_PEAK_RSS, b, row->n_reps);
	hmed = pab_metric_aggregate(PAB_M_PEAK_RSS, h, row->n_reps);
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

/* The inputs of pab_judge_cell for metric m of row ri × head arm a. */
static void cell_input(const struct pab_experiment *e,
		       const struct pab_ledger_opts *o, const struct pab_ledger *l,
		       const struct pab_ledger_row *lr, enum pab_metric_id m,
		       double *bufs, size_t stride, struct pab_cell_input *in)
{
	const struct pab_row *row = &e->rows[lr->row];

	column(row, (size_t)l->base, m, bufs);
	column(row, lr->arm, m, bufs + stride);
	if (l->null_arm >= 0)
		column(row, (size_t)l->null_arm, m, bufs + 2 * stride);
	memset(in, 0, sizeof(*in));
	in->base = bufs;
	in->head = bufs + stride;
	in->null = l->null_arm >= 0 ? bufs + 2 * stride : NULL;
	in->n = row->n_reps;
	in->better = pab_metrics[m].better;
	in->credit_eligible = pab_metrics[m].credit_eligible;
	in->control = lr->control;
	in->saved_pct = lr->saved_pct;
	in->tolerance_pct = e->tolerance[m];
	if (pab_metrics[m].kind == PAB_KIND_BYTES)
		in->floor_abs = o->floor_bytes;
	else if (pab_metrics[m].kind == PAB_KIND_COUNT)
		in->floor_abs = o->floor_count;
	in->equivalence_margin_pct = e->equivalence_margin;
	in->conf = o->conf;
	in->rules = o->rules;
	in->exact = pab_metrics[m].exact;
}

/* The combined verdict of the cells [first, l->n_cells) of one row. */
static enum pab_verdict combine_cells(const struct pab_ledger *l, size_t first)
{
	enum pab_verdict *vs = xcalloc(l->n_cells - first + 1, sizeof(*vs)), v;
	size_t i, nv = 0;

	for (i = first; i < l->n_cells; i++)
		vs[nv++] = l->cells[i].res.verdict;
	v = pab_combine_verdicts(vs, nv);
	free(vs);
	return v;
}

/*
 * Judge every judged metric of lr into new cells of l, then lr's verdict.
 * Returns 0, or -1 with a reason in *why (the cells made so far stay in l
 * for the caller to release).
 */
static int judge_row(const struct pab_experiment *e,
		     const struct pab_ledger_opts *o, struct pab_ledger *l,
		     struct pab_ledger_row *lr, double *bufs, size_t stride,
		     size_t *cells_alloc, char **why)
{
	const struct pab_row *row = &e->rows[lr->row];
	size_t m, first = l->n_cells;

	for (m = 0; m < PAB_M_COUNT; m++) {
		struct pab_cell_input in;
		struct pab_ledger_cell *c;

		if (!o->judged[m])
			continue;
		cell_input(e, o, l, lr, (enum pab_metric_id)m, bufs, stride, &in);
		ALLOC_GROW(l->cells, l->n_cells + 1, *cells_alloc);
		c = &l->cells[l->n_cells];
		c->row = lr->row;
		c->arm = lr->arm;
		c->metric = (enum pab_metric_id)m;
		if (pab_judge_cell(&in, &c->res)) {
			*why = xasprintf("cannot judge row '%s' metric '%s'",
					 row->name, pab_metrics[m].name);
			return -1;
		}
		l->n_cells++;
	}
	lr->verdict = combine_cells(l, first);
	if (lr->verdict == PAB_NOT_MEASURED)
		lr->verdict = PAB_INCONCLUSIVE;
	if (row->failed) {
		lr->verdict = PAB_FAIL;
		lr->why = "a child failed (see the row's fail_reason)";
	}
	return 0;
}

/* Judge every row × head arm of e into l. Returns 0 or -1 with *why. */
static int judge_rows(const struct pab_experiment *e,
		      const struct pab_ledger_opts *o, struct pab_ledger *l,
		      char **why)
{
	size_t ri, a, max_reps = 1, cells_alloc = 0, rows_alloc = 0;
	double *bufs;
	int ret = 0;

	for (ri = 0; ri < e->n_rows; ri++)
		if (e->rows[ri].n_reps > max_reps)
			max_reps = e->rows[ri].n_reps;
	bufs = xcalloc(4 * max_reps, sizeof(*bufs));
	for (ri = 0; ri < e->n_rows && !ret; ri++) {
		const struct pab_row *row = &e->rows[ri];
		int control = row->control ||
			(o->controls && pab_suite_select(o->controls, row->name));

		for (a = 0; a < e->n_arms && !ret; a++) {
			struct pab_ledger_row *lr;

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
			ret = judge_row(e, o, l, lr, bufs, max_reps, &cells_alloc, why);
		}
	}
	free(bufs);
	return ret;
}

/* The overall verdict: every ledger row's, combined. */
static enum pab_verdict overall_verdict(const struct pab_ledger *l)
{
	enum pab_verdict *vs = xcalloc(l->n_rows + 1, sizeof(*vs)), v;
	size_t i;

	for (i = 0; i < l->n_rows; i++)
		vs[i] = l->rows[i].verdict;
	v = pab_combine_verdicts(vs, l->n_rows);
	free(vs);
	return v == PAB_NOT_MEASURED ? PAB_INCONCLUSIVE : v;
}

static void classify(const struct pab_experiment *e, const struct pab_ledger *l,
		     struct pab_disposition *d);

int pab_ledger_build(const struct pab_experiment *e,
		     const struct pab_ledger_opts *o, struct pab_ledger *l,
		     char **why)
{
	memset(l, 0, sizeof(*l));
	*why = NULL;
	if (e->n_arms < 2) {
		*why = xstrdup("the artifact has fewer than two arms: nothing to compare");
		return -1;
	}
	l->base = pab_ledger_base_arm(e);
	l->null_arm = pab_experiment_null_index(e);
	l->rules = o->rules;
	l->conf = o->conf;
	memcpy(l->judged, o->judged, sizeof(l->judged));
	l->narrowed = o->narrowed;
	l->floor_bytes = o->floor_bytes;
	l->floor_count = o->floor_count;
	if (judge_rows(e, o, l, why)) {
		pab_ledger_release(l);
		return -1;
	}
	l->overall = overall_verdict(l);
	classify(e, l, &l->disposition);
	return 0;
}

void pab_ledger_release(struct pab_ledger *l)
{
	free(l->rows);
	free(l->cells);
	memset(l, 0, sizeof(*l));
}

const struct pab_ledger_cell *pab_ledger_find_cell(const struct pab_ledger *l,
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

const struct pab_ledger_row *pab_ledger_cell_row(const struct pab_ledger *l,
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

	return pab_metrics[c->metric].target && !pab_ledger_cell_row(l, c)->control &&
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

/* The disposition of l (ledger.h), from its rows and cells. */
static void classify(const struct pab_experiment *e, const struct pab_ledger *l,
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
		int control = pab_ledger_cell_row(l, c)->control;

		d->cells++;
		switch (c->res.verdict) {
		case PAB_PASS:
			d->pass++;
			if (pab_ledger_cell_is_gain(l, c))
				d->gains++;
			break;
		case PAB_FAIL:
			d->fail++;
			if (pab_metrics[c->metric].target)
				cpu_fail++;
			else
				other_fail++;
			break;
		case PAB_INCONCLUSIVE:
			d->inconclusive++;
			if (pab_metrics[c->metric].target || control)
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

/* Seconds one rep of experiment row ri takes: every arm's median wall. */
double pab_ledger_rep_seconds(const struct pab_experiment *e, size_t ri)
{
	const struct pab_row *row = &e->rows[ri];
	double *xs = xcalloc(row->n_reps ? row->n_reps : 1, sizeof(*xs));
	double sum = 0, med;
	size_t a;

	for (a = 0; a < e->n_arms; a++) {
		column(row, a, PAB_M_WALL, xs);
		med = pab_metric_aggregate(PAB_M_WALL, xs, row->n_reps);
		if (!isfinite(med)) {
			sum = NAN;
			break;
		}
		sum += med;
	}
	free(xs);
	return sum;
}
