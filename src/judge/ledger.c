/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ledger.c — the experiment judged cell by cell (ledger.h). The rules
 * themselves live in stats/ (pab_judge_cell); this file only gathers the
 * paired values, the memory credit (judge/memory_credit.h) and the
 * control flags, and classifies the result (the disposition). The
 * renderers are in report/; they only draw what this file decided.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "judge/memory_credit.h"
#include "model/sanity.h"
#include "util.h"
#include "common/suite.h"

int pab_ledger_base_arm(const struct pab_experiment *e)
{
	int b = pab_experiment_arm_index(e, "base");

	return b >= 0 ? b : 0;
}

void pab_ledger_opts_init(struct pab_ledger_opts *o,
			  const struct pab_experiment *e)
{
	const struct pab_judged_set *j = &e->judged;
	size_t i;

	memset(o, 0, sizeof(*o));
	o->rules = e->rules;
	o->conf = 0.95;
	for (i = 0; i < PAB_M_COUNT; i++)
		o->judged[i] = j->recorded & PAB_JUDGED_METRICS ?
			j->metrics[i] && i != PAB_M_RSS_FLOOR : pab_metrics[i].judged;
	o->metrics_given = j->metrics_given;
	/* A required set that names no judged metric still replaces the
	 * default: every judged cell is then required (doc/method.md §8a). */
	for (i = 0; j->recorded & PAB_JUDGED_REQUIRE && i < PAB_M_COUNT; i++)
		if (j->require[i]) {
			o->required[i] = o->judged[i];
			o->require_given = 1;
		}
	/* Exact counts made by the run decide it by default: instructions
	 * required, cpu and the time cells guard (doc/method.md 8a, 13). */
	if (!o->require_given && o->judged[PAB_M_INSTRUCTIONS] &&
	    pab_counts_default_require(&e->settings, o->required) == 1)
		o->require_given = o->require_from_counts = 1;
	o->floor_bytes = j->floor_bytes;
	o->floor_count = j->floor_count;
	/* An artifact that records no guard tolerance is judged with the
	 * default: its time guards still hold a PASS (doc/method.md §8a). */
	o->guard_tolerance = e->settings.guard_tolerance_pct;
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
	/* Narrowed to none of the required metrics: no declared set, the
	 * default's (doc/method.md §8a). */
	o->require_given = 0;
	for (i = 0; i < PAB_M_COUNT; i++) {
		o->narrowed |= o->judged[i] && !want[i];
		o->judged[i] = want[i];
		o->required[i] &= want[i];
		o->require_given |= o->required[i];
	}
	return 0;
}

int pab_ledger_opts_require(struct pab_ledger_opts *o, const char *list, char **why)
{
	int want[PAB_M_COUNT];
	size_t i;

	*why = NULL;
	if (pab_parse_metrics(list, want, why)) {
		if (!*why)
			*why = xstrdup("give at least one metric");
		return -1;
	}
	for (i = 0; i < PAB_M_COUNT; i++) {
		o->required[i] = want[i];
		o->judged[i] |= want[i];
	}
	o->require_given = 1;
	o->require_from_counts = 0;
	return 0;
}

int pab_ledger_exit_code(const struct pab_ledger *l)
{
	if (l->overall != PAB_FAIL && l->no_verdict)
		return PAB_EXIT_NO_VERDICT;
	return pab_verdict_exit_code(l->overall);
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

/*
 * The memory credit of (row, head arm a) (judge/memory_credit.h) into lr:
 * its RSS floor and whether it is consistent, why none was granted; returns
 * the credit, percent. bufs holds 4 columns.
 */
static double row_credit(const struct pab_row *row, const struct pab_ledger *l, size_t a,
			 const struct pab_ledger_opts *o, struct pab_ledger_row *lr, double *bufs)
{
	struct pab_memory_credit mc;

	pab_row_memory_credit(row, (size_t)l->base, a, l->null_arm,
			      o->floor_bytes > 0 ? o->floor_bytes : PAB_FLOOR_BYTES, o->conf, bufs, &mc);
	lr->rss_floor = mc.rss_floor;
	lr->floor_inconsistent = mc.floor_inconsistent;
	lr->credit_why = mc.why;
	return mc.saved_pct;
}

/*
 * 1 when the row's throughput is the wall clock's reciprocal (a plain
 * command: no workload report), so judging it would judge the wall time
 * twice; 0 when some arm reported its own, or nothing was measured.
 */
static int throughput_is_wall(const struct pab_row *row, size_t n_arms)
{
	size_t r, a;
	int any = 0;

	for (r = 0; r < row->n_reps; r++)
		for (a = 0; a < n_arms; a++) {
			double t = row->reps[r].result[a].m[PAB_M_THROUGHPUT];
			double w = row->reps[r].result[a].m[PAB_M_WALL];

			if (!isfinite(t) || !isfinite(w))
				continue;
			if (fabs(t * w - 1.0) > 1e-9)
				return 0;
			any = 1;
		}
	return any;
}

/*
 * The sanity gate's cell for (row, arm) as a note, new memory; NULL when
 * it did not trip there. The figures read in MiB, like the gate's rule.
 */
static char *gate_note(const struct pab_experiment *e, const struct pab_row *row,
		       const struct pab_arm *arm)
{
	size_t i;

	if (e->stopped_by != PAB_STOP_SANITY_GATE)
		return NULL;
	for (i = 0; i < e->n_sanity; i++) {
		const char *rn = e->sanity[i].row, *an = e->sanity[i].arm;
		const char *mn = e->sanity[i].metric;
		const struct pab_metric *m = mn ? pab_metric_find(mn) : NULL;
		double b = e->sanity[i].base, h = e->sanity[i].head;

		if (!rn || !an || !m || strcmp(rn, row->name) || strcmp(an, arm->name))
			continue;
		return xasprintf("the head's %s %.1f MiB > %.1f x %.1f MiB + %.0f MiB at rep 1; "
				 "if the head is meant to use more memory, run with "
				 "--no-sanity-gate or set \"sanity_gate\": false",
				 m->label, pab_bytes_mib(h), PAB_SANITY_FACTOR, pab_bytes_mib(b),
				 pab_bytes_mib(PAB_SANITY_SLACK_BYTES));
	}
	return NULL;
}

/*
 * The non-zero exit statuses row's children of arms base, a and null
 * exited with and the run measured all the same (--ignore-failure), as a
 * note: "exit status 1 ignored (--ignore-failure): base in 6 of 6 reps,
 * head in 6"; new memory, NULL when there is none.
 */
static char *exit_note(const struct pab_experiment *e, const struct pab_row *row,
		       int base, size_t a, int null_arm)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	int arms[3] = { base, (int)a, null_arm }, codes[8], more = 0;
	size_t n_reps[3] = { 0, 0, 0 }, n_codes = 0, i, k, c;

	for (i = 0; i < 3; i++)
		for (k = 0; arms[i] >= 0 && k < row->n_reps; k++) {
			const struct pab_arm_result *r = &row->reps[k].result[arms[i]];

			if (!pab_arm_result_exit_ignored(r))
				continue;
			n_reps[i]++;
			for (c = 0; c < n_codes && codes[c] != r->exit_code; c++)
				;
			if (c == n_codes && n_codes < sizeof(codes) / sizeof(codes[0]))
				codes[n_codes++] = r->exit_code;
			else if (c == n_codes)
				more = 1;
		}
	if (!n_codes)
		return NULL;
	pab_strbuf_addstr(&sb, n_codes > 1 ? "exit statuses " : "exit status ");
	for (c = 0; c < n_codes; c++)
		pab_strbuf_addf(&sb, "%s%d", c ? ", " : "", codes[c]);
	pab_strbuf_addf(&sb, "%s ignored (--ignore-failure):", more ? ", ..." : "");
	for (i = 0, c = 0; i < 3; i++) {
		if (!n_reps[i])
			continue;
		pab_strbuf_addf(&sb, "%s %s in %zu", c ? "," : "", e->arms[arms[i]].name,
				n_reps[i]);
		if (!c++)
			pab_strbuf_addf(&sb, " of %zu reps", row->n_reps);
	}
	return pab_strbuf_detach(&sb);
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

/*
 * Whether metric m gets a cell in row lr, and in which role (before the
 * required set is settled: a judged cell starts as GUARD). Under perfab/2
 * a row whose throughput is 1/wall does not judge throughput unless the
 * run named it, and shows its wall time instead. Returns 0 for no cell.
 */
static int cell_wanted(const struct pab_ledger_opts *o, const struct pab_ledger_row *lr,
		       enum pab_metric_id m, enum pab_cell_role *role)
{
	int derived = o->rules == PAB_RULES_PERFAB2 && lr->wall_throughput &&
		!o->metrics_given && !(o->require_given && o->required[PAB_M_THROUGHPUT]);

	*role = PAB_ROLE_GUARD;
	if (m == PAB_M_THROUGHPUT && derived)
		return 0;
	if (o->judged[m])
		return 1;
	*role = PAB_ROLE_SHOWN;
	return m == PAB_M_WALL && derived && o->judged[PAB_M_THROUGHPUT];
}

/* A metric only a workload's report or the latency replay can measure. */
static int workload_only(enum pab_metric_id m)
{
	return pab_metrics[m].report_key || m == PAB_M_P99;
}

/*
 * The roles of the cells [first, l->n_cells) of lr (ledger.h): under
 * perfab/2 the declared required set, else cpu (throughput, a workload's
 * own or 1/wall, is derived from wall time and guards); when none of them
 * has a cell, every judged cell is required. perfab/1 and rule12, and
 * control rows, require every judged cell.
 */
static void assign_roles(const struct pab_ledger_opts *o, struct pab_ledger *l,
			 const struct pab_ledger_row *lr, size_t first)
{
	size_t i, n_required = 0;
	int require_given = o->require_given;

	/* Counts' default, but this row has none (not exact, not counted):
	 * it is judged as a run without counts is (doc/method.md). */
	if (o->require_from_counts) {
		int counted = 0;

		for (i = first; i < l->n_cells; i++)
			counted |= l->cells[i].metric == PAB_M_INSTRUCTIONS &&
				l->cells[i].res.verdict != PAB_NOT_MEASURED;
		require_given = counted;
	}
	for (i = first; i < l->n_cells; i++) {
		struct pab_ledger_cell *c = &l->cells[i];
		int req;

		if (c->role == PAB_ROLE_SHOWN)
			continue;
		/* A control must be shown unchanged in every cell. */
		if (o->rules != PAB_RULES_PERFAB2 || lr->control)
			req = 1;
		else if (require_given)
			req = o->required[c->metric];
		else
			req = c->metric == PAB_M_CPU; /* throughput is wall's: it guards */
		c->role = req ? PAB_ROLE_REQUIRED : PAB_ROLE_GUARD;
		n_required += req;
	}
	for (i = first; !n_required && i < l->n_cells; i++)
		if (l->cells[i].role == PAB_ROLE_GUARD)
			l->cells[i].role = PAB_ROLE_REQUIRED;
	/* A guard of CPU time holds the row's PASS until it resolves. */
	for (i = first; i < l->n_cells; i++) {
		struct pab_ledger_cell *c = &l->cells[i];

		c->time_guard = o->rules == PAB_RULES_PERFAB2 && c->role == PAB_ROLE_GUARD &&
			pab_metrics[c->metric].time_guard;
		if (c->time_guard)
			c->guard_allowance = pab_guard_allowance(&c->res, o->guard_tolerance);
	}
}

/*
 * The row's verdict from its cells [first, l->n_cells): its required
 * cells, guards and held time guards (pab_combine_held); and whether a
 * cell that holds its PASS is out of the cap's reach while no undecided
 * cell can still FAIL it (doc/method.md §8b).
 */
static void row_verdict(const struct pab_ledger_opts *o, struct pab_ledger *l,
			struct pab_ledger_row *lr, size_t first)
{
	size_t n = l->n_cells - first, i;
	enum pab_verdict *vs = xcalloc(n + 1, sizeof(*vs));
	enum pab_cell_role *roles = xcalloc(n + 1, sizeof(*roles));
	int *held = xcalloc(n + 1, sizeof(*held));
	int *out_of_reach = xcalloc(n + 1, sizeof(*out_of_reach));

	for (i = 0; i < n; i++) {
		struct pab_ledger_cell *c = &l->cells[first + i];

		vs[i] = c->res.verdict;
		roles[i] = c->role;
		c->held = c->time_guard && c->res.verdict != PAB_NOT_MEASURED &&
			pab_guard_resolved(&c->res, o->guard_tolerance) != 1;
		held[i] = c->held;
		lr->held += (size_t)c->held;
		out_of_reach[i] = (c->held ?
			pab_guard_outlook(&c->res, lr->cap_n, o->guard_tolerance, &c->outlook) :
			pab_cell_outlook(&c->res, lr->cap_n, &c->outlook)) == 1;
	}
	lr->verdict = pab_combine_held(vs, roles, held, n);
	if (lr->verdict == PAB_NOT_MEASURED)
		lr->verdict = PAB_INCONCLUSIVE;
	/* Undecidable: a cell that holds the PASS (an undecided required
	 * cell, a held time guard) no longer reaches it within the cap, and
	 * no undecided cell (required or guard) can still FAIL the row. */
	if (lr->verdict == PAB_INCONCLUSIVE) {
		int no_pass = 0, may_fail = 0;

		for (i = 0; i < n; i++) {
			struct pab_ledger_cell *c = &l->cells[first + i];

			if (c->res.verdict != PAB_INCONCLUSIVE || c->role == PAB_ROLE_SHOWN)
				continue;
			c->undecidable = out_of_reach[i] && (c->held || c->role == PAB_ROLE_REQUIRED);
			no_pass |= c->undecidable;
			may_fail |= c->outlook.fail_reachable;
		}
		lr->undecidable = no_pass && !may_fail;
	}
	free(vs);
	free(roles);
	free(held);
	free(out_of_reach);
}

/*
 * Who failed row lr (marked failed): its head arm (a child of it failed in
 * some rep: FAIL, the change's fault), or not — the base or null arm, or
 * the environment (a --setup, --prepare, --cleanup or warmup run, which
 * fail a row before any of its children does): no verdict, INCONCLUSIVE.
 * A base that fails beside its head is no verdict either: the benchmark
 * itself is broken (doc/method.md, "Failed rows").
 */
static void judge_failed_row(const struct pab_experiment *e, struct pab_ledger_row *lr)
{
	const struct pab_row *row = &e->rows[lr->row];
	int head_failed = 0, other_failed = 0, base = pab_ledger_base_arm(e);
	int null_arm = pab_experiment_null_index(e);
	size_t k, a;

	/* The arm the run recorded as failing it (a child or a warmup run). */
	for (a = 0; row->failed_arm && a < e->n_arms; a++)
		if (!strcmp(e->arms[a].name, row->failed_arm)) {
			other_failed |= (int)a == base || (int)a == null_arm;
			head_failed |= (int)a != base && (int)a != null_arm;
		}
	for (k = 0; k < row->n_reps; k++)
		for (a = 0; a < e->n_arms; a++) {
			if (!row->reps[k].result[a].failed)
				continue;
			if ((int)a == base || (int)a == null_arm)
				other_failed = 1;
			else
				head_failed = 1;
		}
	lr->undecidable = 0;
	if (head_failed && !other_failed) {
		lr->verdict = PAB_FAIL;
		lr->why = "a child failed (see the row's fail_reason)";
		return;
	}
	lr->verdict = PAB_INCONCLUSIVE;
	lr->no_verdict = 1;
	lr->why = other_failed ? PAB_LEDGER_BASE_FAILED : PAB_LEDGER_ENV_FAILED;
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
		enum pab_cell_role role;

		if (!cell_wanted(o, lr, (enum pab_metric_id)m, &role))
			continue;
		cell_input(e, o, l, lr, (enum pab_metric_id)m, bufs, stride, &in);
		ALLOC_GROW(l->cells, l->n_cells + 1, *cells_alloc);
		c = &l->cells[l->n_cells];
		memset(c, 0, sizeof(*c));
		c->row = lr->row;
		c->arm = lr->arm;
		c->metric = (enum pab_metric_id)m;
		c->role = role;
		if (pab_judge_cell(&in, &c->res)) {
			*why = xasprintf("cannot judge row '%s' metric '%s'",
					 row->name, pab_metrics[m].name);
			return -1;
		}
		/* A plain command has no workload report: its report-only
		 * metrics are not listed as missing. */
		if (lr->wall_throughput && !row->workload && workload_only((enum pab_metric_id)m) &&
		    c->res.verdict == PAB_NOT_MEASURED)
			continue;
		l->n_cells++;
	}
	assign_roles(o, l, lr, first);
	row_verdict(o, l, lr, first);
	if (lr->gate_note) {
		lr->verdict = PAB_FAIL;
		lr->undecidable = 0;
		lr->why = PAB_LEDGER_GATE_WHY;
	}
	if (row->failed)
		judge_failed_row(e, lr);
	return 0;
}

/* Seconds one rep of experiment row ri takes: every arm's median wall
 * (pab_ledger_row.rep_seconds). */
static double rep_seconds(const struct pab_experiment *e, size_t ri)
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
	/* the cap on a row's paired reps: what more looks could still add */
	for (ri = 0; ri < e->n_rows && !ret; ri++) {
		const struct pab_row *row = &e->rows[ri];
		int control = row->control ||
			(o->controls && pab_suite_select(o->controls, row->name));
		double rep_s = rep_seconds(e, ri);

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
			lr->cap_n = e->max_reps > e->reps ? e->max_reps : e->reps;
			lr->rss_floor = NAN;
			lr->rep_seconds = rep_s;
			lr->wall_throughput = throughput_is_wall(row, e->n_arms);
			lr->gate_note = gate_note(e, row, &e->arms[a]);
			lr->exit_note = exit_note(e, row, l->base, a, l->null_arm);
			/* Floor and its consistency for every row; credit only
			 * for rows that are not controls. */
			lr->saved_pct = row_credit(row, l, a, o, lr, bufs);
			if (control) {
				lr->saved_pct = 0;
				lr->credit_why = NULL; /* none is due: nothing withheld */
			}
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
static char *disposition_summary(const struct pab_disposition *d);

int pab_ledger_build(const struct pab_experiment *e,
		     const struct pab_ledger_opts *o, struct pab_ledger *l,
		     char **why)
{
	size_t i;

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
	for (i = 0; i < l->n_rows; i++)
		l->no_verdict += l->rows[i].no_verdict;
	classify(e, l, &l->disposition);
	l->disposition.summary = disposition_summary(&l->disposition);
	return 0;
}

void pab_ledger_release(struct pab_ledger *l)
{
	size_t i;

	for (i = 0; i < l->n_rows; i++) {
		free(l->rows[i].gate_note);
		free(l->rows[i].exit_note);
	}
	free(l->rows);
	free(l->cells);
	free(l->disposition.summary);
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

size_t pab_ledger_fixed_look(const struct pab_experiment *e)
{
	const struct pab_run_settings *s = &e->settings;
	size_t planned[PAB_MAX_LOOKS], n = 0, k;
	const size_t *looks = planned;

	if ((s->given & PAB_RUN_LOOKS) && s->n_looks) {
		looks = s->looks;
		n = s->n_looks;
	} else if (e->reps) {
		n = pab_looks_plan(e->reps, e->max_reps > e->reps ? e->max_reps : e->reps,
				   e->n_arms ? e->n_arms : 1, planned, PAB_MAX_LOOKS);
	}
	for (k = 0; k < n; k++)
		if (looks[k] >= PAB_MIN_N_95)
			return looks[k];
	return n ? looks[n - 1] : 0;
}

int pab_ledger_cell_at(const struct pab_experiment *e, const struct pab_ledger *l,
		       const struct pab_ledger_cell *c, size_t n, struct pab_cell_result *out)
{
	const struct pab_row *row = &e->rows[c->row];
	const struct pab_ledger_row *lr = pab_ledger_cell_row(l, c);
	struct pab_ledger_opts o;
	struct pab_cell_input in;
	size_t stride = row->n_reps ? row->n_reps : 1;
	double *bufs = xcalloc(4 * stride, sizeof(*bufs));
	int ret;

	memset(&o, 0, sizeof(o));
	o.rules = l->rules;
	o.conf = l->conf;
	o.floor_bytes = l->floor_bytes;
	o.floor_count = l->floor_count;
	cell_input(e, &o, l, lr, c->metric, bufs, stride, &in);
	if (in.n > n)
		in.n = n;
	ret = pab_judge_cell(&in, out);
	free(bufs);
	return ret;
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

/* d's summary (ledger.h), new memory: its action, evidence and counts. */
static char *disposition_summary(const struct pab_disposition *d)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;

	pab_strbuf_addf(&sb, "%s (%s; %zu judged cells: %zu PASS, "
			"%zu INCONCLUSIVE, %zu FAIL; %zu supported gain%s",
			d->action, d->evidence, d->cells - d->not_measured, d->pass,
			d->inconclusive, d->fail, d->gains, d->gains == 1 ? "" : "s");
	if (d->not_measured)
		pab_strbuf_addf(&sb, "; %zu not measured", d->not_measured);
	pab_strbuf_addstr(&sb, ")");
	return pab_strbuf_detach(&sb);
}

/* What decides the disposition: rows and cells counted by class. */
struct tally {
	size_t broken, cpu_fail, other_fail, wide, limited, no_verdict;
};

/* Cell c of l (part of a verdict) counted into d and t. */
static void tally_cell(const struct pab_ledger *l, const struct pab_ledger_cell *c,
		       struct pab_disposition *d, struct tally *t)
{
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
			t->cpu_fail++;
		else
			t->other_fail++;
		break;
	case PAB_INCONCLUSIVE:
		/* An undecided required cell (or any cell of a control, or a
		 * held time guard) holds the verdict; an undecided guard is
		 * accepted uncertainty. */
		d->inconclusive++;
		if (c->role == PAB_ROLE_REQUIRED || control || c->held)
			t->wide++;
		else
			t->limited++;
		break;
	case PAB_NOT_MEASURED:
		/* A probe this row cannot have (p99 of a plain command) is
		 * not missing coverage: listed, not held. */
		d->not_measured++;
		break;
	}
}

/* The disposition of l (ledger.h), from its rows and cells. */
static void classify(const struct pab_experiment *e, const struct pab_ledger *l,
		     struct pab_disposition *d)
{
	struct tally t = { 0, 0, 0, 0, 0, 0 };
	size_t i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < l->n_rows; i++) {
		if (l->rows[i].no_verdict)
			t.no_verdict++;
		else if (e->rows[l->rows[i].row].failed)
			t.broken++;
		else if (l->rows[i].gate_note)
			t.other_fail++;
		else if (l->rows[i].n < PAB_MIN_N_95 && l->rows[i].verdict != PAB_PASS &&
			 l->rows[i].verdict != PAB_FAIL)
			t.wide++; /* too few reps, unless exact counts decided it */
	}
	for (i = 0; i < l->n_cells; i++)
		if (l->cells[i].role != PAB_ROLE_SHOWN &&
		    !pab_ledger_cell_row(l, &l->cells[i])->no_verdict)
			tally_cell(l, &l->cells[i], d, &t); /* else no part of any verdict */
	if (t.broken) {
		d->kind = PAB_DISP_REJECT_BROKEN;
		d->deciding = t.broken;
	} else if (t.no_verdict && !t.cpu_fail && !t.other_fail) {
		d->kind = PAB_DISP_NO_VERDICT;
		d->deciding = t.no_verdict;
	} else if (t.cpu_fail) {
		d->kind = PAB_DISP_REJECT_CPU;
		d->deciding = t.cpu_fail;
	} else if (t.other_fail) {
		d->kind = PAB_DISP_REJECT_OTHER;
		d->deciding = t.other_fail;
	} else if (t.wide || d->cells == d->not_measured) {
		/* Nothing judged at all is missing coverage, never an accept. */
		d->kind = PAB_DISP_FOLLOW_UP;
		d->deciding = t.wide;
	} else if (t.limited) {
		d->kind = PAB_DISP_LIMITED;
		d->deciding = t.limited;
	} else if (d->gains) {
		d->kind = PAB_DISP_ACCEPT_GAIN;
		d->deciding = d->gains;
	} else {
		d->kind = PAB_DISP_ACCEPT;
		d->deciding = d->pass;
	}
	d->name = pab_disposition_words(d->kind)->name;
	d->evidence = pab_disposition_words(d->kind)->evidence;
	d->action = pab_disposition_words(d->kind)->action;
}

char *pab_disposition_line(const struct pab_disposition *d)
{
	return xasprintf("disposition: %s", d->summary);
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

