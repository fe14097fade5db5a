/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_ledger.c — unit tests of the ledger (judge/ledger.h) on small
 * experiments built in memory, no runs: the cells and verdicts it builds,
 * the memory credit, every class of the disposition, its confidence, the
 * cell lookup, and what a failed build leaves behind (nothing: run under
 * valgrind or LeakSanitizer, ci/sanitize.sh, a leak of its rows or cells
 * is an error).
 *
 * The values are chosen far from every threshold: a shift of 30% against
 * a tolerance of 2% and a rep-to-rep jitter of 0.2%, so that each verdict
 * follows from the rules, not from a lucky draw.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "judge/history.h"
#include "judge/ledger.h"
#include "model/experiment.h"
#include "util.h"

#include "judge/memgate.h"
#include "store/baseline.h"
#include "unit.h"

#define MIB 1048576.0

/* A small deterministic jitter of rep r of arm a, as a fraction of amp. */
static double jitter(size_t r, size_t a, double amp)
{
	return (double)((int)((r * 7 + a * 3) % 5) - 2) / 2.0 * amp;
}

/*
 * An experiment of n_rows rows "r0", "r1", ... with n_reps reps each, arms
 * base and head (and null when with_null); every metric is NaN until set.
 */
static void make_experiment(struct pab_experiment *e, size_t n_rows,
			    size_t n_reps, int with_null)
{
	static const char *const names[] = { "base", "head", "null" };
	size_t n_arms = with_null ? 3 : 2, i, r;

	pab_experiment_init(e);
	e->n_arms = n_arms;
	e->arms = xcalloc(n_arms, sizeof(*e->arms));
	for (i = 0; i < n_arms; i++)
		e->arms[i].name = xstrdup(names[i]);
	e->n_rows = n_rows;
	e->rows = xcalloc(n_rows, sizeof(*e->rows));
	for (i = 0; i < n_rows; i++) {
		e->rows[i].name = xasprintf("r%zu", i);
		for (r = 0; r < n_reps; r++)
			pab_row_add_rep(&e->rows[i], n_arms);
	}
	e->complete = 1;
}

/*
 * Metric m of row ri: value v in every arm, head shifted by shift_pct;
 * each rep jittered by up to ±jit (a fraction) around it.
 */
static void set_metric(struct pab_experiment *e, size_t ri, enum pab_metric_id m,
		       double v, double shift_pct, double jit)
{
	struct pab_row *row = &e->rows[ri];
	size_t r, a;

	for (r = 0; r < row->n_reps; r++)
		for (a = 0; a < e->n_arms; a++) {
			double x = a == 1 ? v * (1 + shift_pct / 100) : v;

			row->reps[r].result[a].m[m] = x * (1 + jitter(r, a, jit));
		}
}

/* Judge only the metrics in ms[0..n), with the default options. */
static void judge_only(const struct pab_experiment *e, struct pab_ledger_opts *o,
		       const enum pab_metric_id *ms, size_t n)
{
	size_t i;

	pab_ledger_opts_init(o, e);
	memset(o->judged, 0, sizeof(o->judged));
	for (i = 0; i < n; i++)
		o->judged[ms[i]] = 1;
}

static const enum pab_metric_id cpu_peak[] = { PAB_M_CPU, PAB_M_PEAK_RSS };

/* Build, asserting success. */
static void build(const struct pab_experiment *e, const struct pab_ledger_opts *o,
		  struct pab_ledger *l)
{
	char *why = NULL;
	int ret = pab_ledger_build(e, o, l, &why);

	ck_assert_msg(ret == 0, "pab_ledger_build failed: %s", why ? why : "(no reason)");
	ck_assert_ptr_null(why);
}

/* The verdict of (row, head arm, metric). */
static enum pab_verdict cell_verdict(const struct pab_ledger *l, size_t row,
				     enum pab_metric_id m)
{
	const struct pab_ledger_cell *c = pab_ledger_find_cell(l, row, 1, m);

	ck_assert_ptr_nonnull(c);
	return c->res.verdict;
}

/* A ledger of no row (every row left out, or none run): no verdict to
 * combine, and the overall verdict is INCONCLUSIVE, never "not measured"
 * (exit status 3: a gate must not read it as anything else). */
START_TEST(nothing_measured_is_inconclusive)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 0, 12, 1);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_uint_eq(l.n_rows, 0);
	ck_assert_int_eq(l.overall, PAB_INCONCLUSIVE);
	ck_assert_int_eq(pab_ledger_exit_code(&l), PAB_EXIT_INCONCLUSIVE);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* Head equal to base: every cell PASSes, no gain, ACCEPT. */
START_TEST(equal_arms_accept)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0.002);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_uint_eq(l.n_rows, 1);
	ck_assert_uint_eq(l.n_cells, 2);
	ck_assert_int_eq(l.base, 0);
	ck_assert_int_eq(l.null_arm, 2);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_CPU), PAB_PASS);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_PEAK_RSS), PAB_PASS);
	ck_assert_int_eq(l.rows[0].verdict, PAB_PASS);
	ck_assert_int_eq(l.overall, PAB_PASS);
	ck_assert_int_eq(pab_verdict_exit_code(l.overall), PAB_EXIT_PASS);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_ACCEPT);
	ck_assert_str_eq(l.disposition.name, "accept");
	ck_assert_uint_eq(l.disposition.pass, 2);
	ck_assert_uint_eq(l.disposition.gains, 0);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* Head 30% more CPU: cpu FAILs, the row and the run FAIL, REJECT_CPU. */
START_TEST(cpu_regression_rejects)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 30, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0.002);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_CPU), PAB_FAIL);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_PEAK_RSS), PAB_PASS);
	ck_assert_int_eq(l.overall, PAB_FAIL);
	ck_assert_int_eq(pab_verdict_exit_code(l.overall), PAB_EXIT_FAIL);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_REJECT_CPU);
	ck_assert_str_eq(l.disposition.name, "reject-cpu");
	ck_assert_uint_eq(l.disposition.fail, 1);
	ck_assert_uint_eq(l.disposition.deciding, 1);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* Head 30% more peak RSS, CPU equal: REJECT_OTHER, not REJECT_CPU. */
START_TEST(memory_regression_rejects_other)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 30, 0.002);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_PEAK_RSS), PAB_FAIL);
	ck_assert_int_eq(l.overall, PAB_FAIL);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_REJECT_OTHER);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* Head 30% less CPU: a supported gain, ACCEPT_GAIN. */
START_TEST(cpu_gain_accepts_gain)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	const struct pab_ledger_cell *c;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, -30, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0.002);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->res.verdict, PAB_PASS);
	ck_assert(pab_ledger_cell_is_gain(&l, c));
	ck_assert(!pab_ledger_cell_is_gain(&l, pab_ledger_find_cell(&l, 0, 1, PAB_M_PEAK_RSS)));
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_ACCEPT_GAIN);
	ck_assert_uint_eq(l.disposition.gains, 1);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * Memory credit: head's peak RSS 30 MiB lower (half the 60 MiB above the
 * floor: saved 50%) lets CPU rise 8% (allowance max(2%, 50%/3)); the same
 * CPU rise without the saving FAILs.
 */
START_TEST(memory_credit_allows_cpu)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	const struct pab_ledger_cell *c;

	make_experiment(&e, 2, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 8, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, -30, 0.002);
	set_metric(&e, 0, PAB_M_RSS_FLOOR, 40 * MIB, 0, 0);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 8, 0.002);
	set_metric(&e, 1, PAB_M_PEAK_RSS, 100 * MIB, 0, 0.002);
	set_metric(&e, 1, PAB_M_RSS_FLOOR, 40 * MIB, 0, 0);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_uint_eq(l.n_rows, 2);
	ck_assert_double_eq_tol(l.rows[0].rss_floor, 40 * MIB, 1);
	ck_assert_double_gt(l.rows[0].saved_pct, 45);
	ck_assert_double_lt(l.rows[0].saved_pct, 55);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU);
	ck_assert_int_eq(c->res.verdict, PAB_PASS);
	ck_assert_int_eq(c->res.pass_decider, PAB_DECIDED_CREDIT);
	ck_assert_double_eq_tol(l.rows[1].saved_pct, 0, 1e-9);
	ck_assert_int_eq(cell_verdict(&l, 1, PAB_M_CPU), PAB_FAIL);
	ck_assert_int_eq(l.rows[0].verdict, PAB_PASS);
	ck_assert_int_eq(l.rows[1].verdict, PAB_FAIL);
	ck_assert_int_eq(pab_ledger_row_verdict(&l, 0), PAB_PASS);
	ck_assert_int_eq(pab_ledger_row_verdict(&l, 1), PAB_FAIL);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_REJECT_CPU);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST


/*
 * Required and guarding cells: cpu PASSes, a noisy guard is undecided:
 * the row PASSes and the guard is accepted uncertainty (LIMITED); when
 * every cell is required (perfab/1) the same data stays INCONCLUSIVE; a
 * guard that proves a regression FAILs the row.
 */
/*
 * --metrics on a recorded run narrows its judged set: what is left keeps
 * its required flag, what is dropped is neither judged nor required, and
 * a metric the run did not judge is refused.
 */
/*
 * The history's cells of a ledger: a judged cell keeps its change and
 * interval, a cell with nothing measured has none (NaN), and each names
 * its row, arm and metric.
 */
START_TEST(history_cells_of_a_ledger)
{
	static const enum pab_metric_id ms[] = { PAB_M_CPU, PAB_M_PEAK_RSS };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	struct pab_history_cell *v;
	size_t i, n, judged = 0, unmeasured = 0;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 1.0, 30, 0.01); /* peak_rss left unmeasured */
	judge_only(&e, &o, ms, 2);
	build(&e, &o, &l);
	v = pab_history_cells_of(&e, &l, &n);
	ck_assert_uint_eq(n, l.n_cells);
	for (i = 0; i < n; i++) {
		const struct pab_cell_result *r = &l.cells[i].res;

		ck_assert_str_eq(v[i].row, "r0");
		ck_assert_str_eq(v[i].metric, pab_metrics[l.cells[i].metric].name);
		if (r->verdict == PAB_NOT_MEASURED) {
			ck_assert(isnan(v[i].change_pct) && isnan(v[i].lo_pct) && isnan(v[i].coverage));
			unmeasured++;
		} else {
			ck_assert(v[i].change_pct == r->change.median);
			ck_assert(v[i].lo_pct == r->change.lo && v[i].hi_pct == r->change.hi);
			ck_assert(v[i].change_pct > 20.0);
			ck_assert_str_eq(v[i].verdict, "FAIL");
			judged++;
		}
	}
	ck_assert_uint_gt(judged, 0);
	ck_assert_uint_gt(unmeasured, 0);
	free(v);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * A merge's history record is the change at a look planned before the run
 * (doc/method.md §11: a fixed design, which the stopping rule cannot
 * bias), whatever the run did after; the verdict is the run's. Head is
 * unchanged for its first 12 reps and 30% slower in the next 12: the
 * ledger of all 24 reps reads a median change near +15% (INCONCLUSIVE),
 * the record the first 12 (n 12, a change near 0). Without a recorded
 * look, every rep is read.
 */
START_TEST(history_records_a_fixed_look)
{
	static const enum pab_metric_id ms[] = { PAB_M_CPU };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	struct pab_history_cell *v;
	size_t n, r;

	make_experiment(&e, 1, 24, 1);
	set_metric(&e, 0, PAB_M_CPU, 1.0, 0, 0.004);
	for (r = 12; r < 24; r++)
		e.rows[0].reps[r].result[1].m[PAB_M_CPU] *= 1.3;
	e.reps = 12;
	e.max_reps = 96;
	judge_only(&e, &o, ms, 1);
	build(&e, &o, &l);
	ck_assert_int_eq(l.cells[0].res.verdict, PAB_INCONCLUSIVE);
	ck_assert(l.cells[0].res.change.median > 10.0);
	v = pab_history_cells_of(&e, &l, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(v[0].verdict, "INCONCLUSIVE");
	ck_assert_int_eq(v[0].n, 12);
	ck_assert(fabs(v[0].change_pct) < 1.0 && v[0].lo_pct < 0 && v[0].hi_pct > 0);
	ck_assert(v[0].coverage > 0.95 && v[0].coverage < 1);
	free(v);
	/* run.looks, when recorded, names the looks: the first with a 95%
	 * interval (6 reps) is read, not a first look of 3. */
	e.settings.given |= PAB_RUN_LOOKS;
	e.settings.n_looks = 3;
	e.settings.looks[0] = 3;
	e.settings.looks[1] = 6;
	e.settings.looks[2] = 12;
	ck_assert_uint_eq(pab_ledger_fixed_look(&e), 6);
	v = pab_history_cells_of(&e, &l, &n);
	ck_assert_int_eq(v[0].n, 6);
	free(v);
	e.settings.n_looks = 1;
	ck_assert_uint_eq(pab_ledger_fixed_look(&e), 3); /* no look holds one: the last */
	/* Without run.looks, planned again from reps and max_reps. */
	e.settings.given &= ~(unsigned)PAB_RUN_LOOKS;
	e.reps = 3;
	ck_assert_uint_eq(pab_ledger_fixed_look(&e), 6);
	/* Neither recorded: every rep. */
	e.reps = 0;
	ck_assert_uint_eq(pab_ledger_fixed_look(&e), 0);
	v = pab_history_cells_of(&e, &l, &n);
	ck_assert_int_eq(v[0].n, 24);
	ck_assert(v[0].change_pct == l.cells[0].res.change.median);
	free(v);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* pab_drift_of(s, d) after releasing what d held (d zeroed at first). */
static void drift_again(const struct pab_history_series *s, struct pab_drift *d)
{
	pab_drift_release(d);
	pab_drift_of(s, d);
}

/* A series' drift counts each verdict once: PASS, FAIL, INCONCLUSIVE,
 * and a shown cell as none of them. */
START_TEST(drift_counts_the_verdicts)
{
	static const char *const v[] = { "PASS", "FAIL", "INCONCLUSIVE", "PASS", "SHOWN" };
	struct pab_history_merge_row mr[5];
	struct pab_history_point pts[5];
	struct pab_history_series s;
	struct pab_drift d = { 0 };
	size_t i;

	memset(mr, 0, sizeof(mr));
	memset(pts, 0, sizeof(pts));
	for (i = 0; i < 5; i++) {
		mr[i].id = (int64_t)i + 1;
		pts[i].merge = &mr[i];
		pts[i].verdict = v[i];
		pts[i].n = 12;
		pts[i].change_pct = 1.0;
		pts[i].lo_pct = -1.0;
		pts[i].hi_pct = 3.0;
		pts[i].coverage = 0.95;
		pts[i].tolerance_pct = 2.0;
	}
	memset(&s, 0, sizeof(s));
	s.row = (char *)"r";
	s.arm = (char *)"head";
	s.metric = (char *)"cpu";
	s.pts = pts;
	s.n = 5;
	drift_again(&s, &d);
	ck_assert_uint_eq(d.pass, 2);
	ck_assert_uint_eq(d.fail, 1);
	ck_assert_uint_eq(d.inconclusive, 1);
	ck_assert_uint_eq(d.chain.n, 5);
	ck_assert_double_eq(d.tolerance, 2.0);
	pab_drift_release(&d);
}
END_TEST

/* A series of n points with the given changes, each point's interval
 * the change +- half, at 95%, and the given tolerance. */
static void drift_series(struct pab_history_series *s, struct pab_history_merge_row *mr,
			 struct pab_history_point *pts, const double *change, size_t n,
			 double tolerance)
{
	size_t i;

	memset(mr, 0, n * sizeof(*mr));
	memset(pts, 0, n * sizeof(*pts));
	for (i = 0; i < n; i++) {
		mr[i].id = (int64_t)i + 1;
		pts[i].merge = &mr[i];
		pts[i].verdict = "PASS";
		pts[i].n = 12;
		pts[i].change_pct = change[i];
		pts[i].lo_pct = change[i] - 0.5;
		pts[i].hi_pct = change[i] + 0.5;
		pts[i].coverage = 0.95;
		pts[i].tolerance_pct = tolerance;
	}
	memset(s, 0, sizeof(*s));
	s->row = (char *)"r";
	s->arm = (char *)"head";
	s->metric = (char *)"cpu";
	s->pts = pts;
	s->n = n;
}

/* The series' tolerance is its last merge's: set every point's. */
static void drift_tolerance(struct pab_history_series *s, double tolerance)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		s->pts[i].tolerance_pct = tolerance;
}

/*
 * Drift beyond the tolerance is a chained interval wholly beyond it: at
 * exactly the tolerance it is not (lo = +tolerance, hi = -tolerance), one
 * ulp inside it is. The chain does not depend on the tolerance, so the
 * edge is the chain's own bound.
 */
START_TEST(drift_beyond_and_better_at_the_edge)
{
	static const double up[] = { 1.0, 1.0, 1.0, 1.0, 1.0 };
	static const double down[] = { -1.0, -1.0, -1.0, -1.0, -1.0 };
	struct pab_history_merge_row mr[5];
	struct pab_history_point pts[5];
	struct pab_history_series s;
	struct pab_drift d = { 0 };
	double edge;

	drift_series(&s, mr, pts, up, 5, 50.0);
	drift_again(&s, &d);
	ck_assert_uint_eq(d.chain.n, 5);
	ck_assert(d.chain.lo_pct > 0.0 && d.chain.hi_pct > d.chain.lo_pct);
	ck_assert_int_eq(d.beyond, 0);
	ck_assert_int_eq(d.better, 0);
	edge = d.chain.lo_pct;
	drift_tolerance(&s, edge);
	drift_again(&s, &d);
	ck_assert(d.chain.lo_pct == edge);
	ck_assert_int_eq(d.beyond, 0);
	drift_tolerance(&s, nextafter(edge, 0.0));
	drift_again(&s, &d);
	ck_assert_int_eq(d.beyond, 1);
	ck_assert_int_eq(d.better, 0);
	/* No tolerance recorded: neither. */
	drift_tolerance(&s, NAN);
	drift_again(&s, &d);
	ck_assert(isnan(d.tolerance));
	ck_assert_int_eq(d.beyond, 0);

	drift_series(&s, mr, pts, down, 5, 50.0);
	drift_again(&s, &d);
	ck_assert(d.chain.hi_pct < 0.0);
	ck_assert_int_eq(d.better, 0);
	edge = -d.chain.hi_pct;
	drift_tolerance(&s, edge);
	drift_again(&s, &d);
	ck_assert_int_eq(d.better, 0);
	drift_tolerance(&s, nextafter(edge, 0.0));
	drift_again(&s, &d);
	ck_assert_int_eq(d.better, 1);
	ck_assert_int_eq(d.beyond, 0);
	pab_drift_release(&d);
}
END_TEST

/*
 * The merges that pushed the chain furthest, largest first: three of
 * them when more than three pushed it, none pushing the other way, and
 * an unchainable point (NaN) is skipped without shifting the others.
 */
START_TEST(drift_top_three)
{
	static const double change[] = { 1.0, 5.0, NAN, 2.0, 4.0, -6.0, 3.0, 0.5 };
	struct pab_history_merge_row mr[8];
	struct pab_history_point pts[8];
	struct pab_history_series s;
	struct pab_drift d = { 0 };

	drift_series(&s, mr, pts, change, 8, 2.0);
	drift_again(&s, &d);
	ck_assert_uint_eq(d.chain.n, 7);
	ck_assert_uint_eq(d.chain.skipped, 1);
	ck_assert_uint_eq(d.n_top, 3);
	ck_assert_uint_eq(d.top[0], 1);
	ck_assert_uint_eq(d.top[1], 4);
	ck_assert_uint_eq(d.top[2], 6);
	/* Two that push it: two. */
	drift_series(&s, mr, pts, change, 2, 2.0);
	drift_again(&s, &d);
	ck_assert_uint_eq(d.n_top, 2);
	ck_assert_uint_eq(d.top[0], 1);
	ck_assert_uint_eq(d.top[1], 0);
	pab_drift_release(&d);
}
END_TEST

/*
 * Steps of the level: every merge whose own interval lies wholly beyond
 * its tolerance, the last PAB_DRIFT_MAX of them in order; a merge whose
 * interval touches the tolerance is not one.
 */
START_TEST(drift_jumps_keep_the_last)
{
	enum { N = PAB_DRIFT_MAX + 5 };
	struct pab_history_merge_row mr[N];
	struct pab_history_point pts[N];
	struct pab_history_series s;
	struct pab_drift d = { 0 };
	double change[N];
	size_t i;

	for (i = 0; i < N; i++)
		change[i] = i % 2 ? 10.0 : -10.0; /* lo 9.5, or hi -9.5 */
	drift_series(&s, mr, pts, change, N, 9.0);
	pts[2].lo_pct = 9.0; /* touches +tolerance: no step */
	pts[2].change_pct = 9.5;
	drift_again(&s, &d);
	ck_assert_uint_eq(d.n_jump, PAB_DRIFT_MAX);
	for (i = 0; i < PAB_DRIFT_MAX; i++)
		ck_assert_uint_eq(d.jump[i], N - PAB_DRIFT_MAX + i);
	/* Fewer than the most: each in order, the ones touching +tolerance
	 * (1) and -tolerance (2) left out. */
	drift_series(&s, mr, pts, change, 6, 9.0);
	pts[1].lo_pct = 9.0;
	pts[2].hi_pct = -9.0;
	drift_again(&s, &d);
	ck_assert_uint_eq(d.n_jump, 4);
	ck_assert_uint_eq(d.jump[0], 0);
	ck_assert_uint_eq(d.jump[1], 3);
	ck_assert_uint_eq(d.jump[2], 4);
	ck_assert_uint_eq(d.jump[3], 5);
	pab_drift_release(&d);
}
END_TEST

/*
 * A step in the series' level is a change point at the first merge after
 * it, named by its index in the series (unchainable merges before it
 * counted), with its p-value; a flat series has none.
 */
START_TEST(drift_change_point_at_the_step)
{
	enum { N = 24 };
	struct pab_history_merge_row mr[N];
	struct pab_history_point pts[N];
	struct pab_history_series s;
	struct pab_drift d = { 0 };
	double change[N];
	size_t i;

	for (i = 0; i < N; i++)
		change[i] = (i < 14 ? 0.1 : 4.0) + 0.01 * (double)(i % 3);
	change[5] = NAN;
	drift_series(&s, mr, pts, change, N, 2.0);
	drift_again(&s, &d);
	ck_assert_uint_eq(d.n_cp_step, 1);
	ck_assert_uint_eq(d.cp_step[0], 14);
	ck_assert(d.p_step[0] >= 0.0 && d.p_step[0] <= 0.01);
	for (i = 0; i < N; i++)
		change[i] = 1.0 + 0.01 * (double)(i % 3);
	drift_series(&s, mr, pts, change, N, 2.0);
	drift_again(&s, &d);
	ck_assert_uint_eq(d.n_cp_step, 0);
	pab_drift_release(&d);
}
END_TEST

/*
 * A series longer than the window the change points are searched in (the
 * last 500 chainable merges): a step inside the window is found at its
 * index in the whole series (merges that cannot be chained, every 50th,
 * count in the index, not in the window), a step before the window is
 * not. The drift keeps its own copy of the point, merge and all.
 */
START_TEST(drift_change_point_in_the_window)
{
	enum { N = 530 };
	struct pab_history_merge_row *mr = xcalloc(N, sizeof(*mr));
	struct pab_history_point *pts = xcalloc(N, sizeof(*pts));
	double *change = xcalloc(N, sizeof(*change));
	struct pab_history_series s;
	struct pab_drift d = { 0 };
	size_t i;

	for (i = 0; i < N; i++)
		change[i] = (i < 10 ? 6.0 : i < 515 ? 0.1 : 4.0) + 0.01 * (double)(i % 3);
	drift_series(&s, mr, pts, change, N, 2.0);
	for (i = 7; i < N; i += 50)
		pts[i].change_pct = NAN;
	drift_again(&s, &d);
	ck_assert_uint_eq(d.chain.skipped, 11);
	ck_assert_uint_eq(d.n_cp_step, 1);
	ck_assert_uint_eq(d.cp_step[0], 515);
	free(change);
	free(pts);
	free(mr);
	ck_assert_int_eq(d.cp_pt[0].merge->id, 516);
	ck_assert_double_eq_tol(d.cp_pt[0].change_pct, 4.02, 1e-12);
	ck_assert_int_eq(d.last.merge->id, N);
	pab_drift_release(&d);
}
END_TEST

/*
 * The significance of a change point is 1% (doc/method.md section 12): a
 * step whose permutation p-value lies between 1% and 5% is not one, a step
 * just under 1% is. Twelve merges scattered by up to 0.6% around +1%,
 * then twelve more around +1.6% (p = 10/500) or +1.75% (p = 4/500). Each
 * p-value is first computed here with the settings of doc/method.md
 * section 12 (E-Divisive on the merges' log-ratios, at least 3 a side, 499
 * permutations, PCG32 seed 20140101), at a level of 50% so that every
 * permutation runs: the drift must keep the second step and not the first.
 */
static double step_p_value(const struct pab_history_series *s, size_t *at)
{
	double x[24], p;
	struct pab_pcg32 rng;
	struct pab_chain c;
	size_t i, cp;

	ck_assert_uint_eq(s->n, 24);
	for (i = 0; i < s->n; i++) {
		struct pab_step st = pab_history_point_step(&s->pts[i]);

		ck_assert_int_eq(pab_chain_steps(&st, 1, PAB_DRIFT_CONF, &c), 0);
		x[i] = c.log_sum;
	}
	pab_pcg32_seed(&rng, 20140101u, 0);
	ck_assert_int_eq(pab_edivisive(x, s->n, 3, 0.5, 499, &rng, &cp, &p, 1), 1);
	*at = cp;
	return p;
}

START_TEST(drift_change_point_at_one_percent)
{
	static const double scatter[2][12] = {
		{ 0.2, -0.4, 0.6, -0.1, 0.3, -0.6, 0.5, 0.0, -0.3, 0.4, -0.5, 0.1 },
		{ -0.2, 0.5, -0.6, 0.1, 0.4, -0.3, 0.0, 0.6, -0.5, 0.2, -0.1, 0.3 },
	};
	static const double steps[2] = { 0.6, 0.75 };
	struct pab_history_merge_row mr[24];
	struct pab_history_point pts[24];
	struct pab_history_series s;
	struct pab_drift d = { 0 };
	double change[24], p;
	size_t i, k, at;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < 24; i++)
			change[i] = 1.0 + scatter[i / 12][i % 12] + (i < 12 ? 0.0 : steps[k]);
		drift_series(&s, mr, pts, change, 24, 2.0);
		p = step_p_value(&s, &at);
		ck_assert_uint_eq(at, 12);
		drift_again(&s, &d);
		if (k == 0) {
			ck_assert_double_eq_tol(p, 10.0 / 500.0, 1e-12);
			ck_assert_uint_eq(d.n_cp_step, 0);
		} else {
			ck_assert_double_eq_tol(p, 4.0 / 500.0, 1e-12);
			ck_assert_uint_eq(d.n_cp_step, 1);
			ck_assert_uint_eq(d.cp_step[0], 12);
			ck_assert_double_eq_tol(d.p_step[0], p, 1e-12);
		}
	}
	pab_drift_release(&d);
}
END_TEST

START_TEST(opts_narrow_keeps_the_required_within)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	char *why = NULL;
	size_t i;

	pab_experiment_init(&e);
	pab_ledger_opts_init(&o, &e);
	ck_assert_int_eq(pab_ledger_opts_require(&o, "cpu,minor_faults", &why), 0);
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "cpu,throughput", &why), 0);
	ck_assert_ptr_null(why);
	ck_assert_int_eq(o.narrowed, 1);
	ck_assert_int_eq(o.require_given, 1);
	for (i = 0; i < PAB_M_COUNT; i++) {
		ck_assert_int_eq(o.judged[i], i == PAB_M_CPU || i == PAB_M_THROUGHPUT);
		ck_assert_int_eq(o.required[i], i == PAB_M_CPU);
	}
	/* Narrowed to cells none of which is required: no declared set. */
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "throughput", &why), 0);
	ck_assert_int_eq(o.require_given, 0);
	ck_assert_int_eq(o.required[PAB_M_CPU], 0);
	/* cpu is no longer judged: it cannot come back by narrowing. */
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "cpu", &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "'cpu' was not judged by the run"));
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(required_pass_with_undecided_guard)
{
	static const enum pab_metric_id ms[] = { PAB_M_CPU, PAB_M_MINOR_FAULTS };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	const struct pab_ledger_cell *c;
	size_t i;

	make_experiment(&e, 2, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 0, PAB_M_MINOR_FAULTS, 1e5, 0, 0.2);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 1, PAB_M_MINOR_FAULTS, 1e5, 40, 0.002);
	judge_only(&e, &o, ms, 2);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU);
	ck_assert_int_eq(c->role, PAB_ROLE_REQUIRED);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_MINOR_FAULTS);
	ck_assert_int_eq(c->role, PAB_ROLE_GUARD);
	ck_assert_int_eq(c->res.verdict, PAB_INCONCLUSIVE);
	ck_assert_int_eq(l.rows[0].verdict, PAB_PASS);
	ck_assert_int_eq(cell_verdict(&l, 1, PAB_M_MINOR_FAULTS), PAB_FAIL);
	ck_assert_int_eq(l.rows[1].verdict, PAB_FAIL);
	pab_ledger_release(&l);
	/* Row 0 alone: accepted uncertainty. */
	set_metric(&e, 1, PAB_M_MINOR_FAULTS, 1e5, 0, 0.002);
	build(&e, &o, &l);
	ck_assert_int_eq(l.overall, PAB_PASS);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_LIMITED);
	pab_ledger_release(&l);
	/* perfab/1: every judged cell is required. */
	o.rules = PAB_RULES_PERFAB1;
	build(&e, &o, &l);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_MINOR_FAULTS)->role,
			 PAB_ROLE_REQUIRED);
	ck_assert_int_eq(l.rows[0].verdict, PAB_INCONCLUSIVE);
	pab_ledger_release(&l);
	/* A declared required set: the faults must PASS too. */
	o.rules = PAB_RULES_PERFAB2;
	ck_assert_int_eq(pab_ledger_opts_require(&o, "cpu,minor_faults", &(char *){ NULL }), 0);
	build(&e, &o, &l);
	ck_assert_int_eq(l.rows[0].verdict, PAB_INCONCLUSIVE);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_FOLLOW_UP);
	pab_ledger_release(&l);
	/* The same set recorded by the run (run.require) is read back. */
	e.judged.recorded |= PAB_JUDGED_REQUIRE;
	e.judged.require[PAB_M_CPU] = e.judged.require[PAB_M_MINOR_FAULTS] = 1;
	judge_only(&e, &o, ms, 2);
	ck_assert(o.require_given && o.required[PAB_M_CPU] && o.required[PAB_M_MINOR_FAULTS]);
	for (i = 0; i < PAB_M_COUNT; i++) /* the recorded set, nothing more */
		ck_assert_int_eq(o.required[i], i == PAB_M_CPU || i == PAB_M_MINOR_FAULTS);
	build(&e, &o, &l);
	ck_assert_int_eq(l.rows[0].verdict, PAB_INCONCLUSIVE);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * cpu of row ri: base and null v, head v * (1 + (m + w u) / 100) with u
 * spread evenly over [-1, 1] (shuffled over the reps): a paired change
 * of median m whose interval widens with w.
 */
static void set_spread(struct pab_experiment *e, size_t ri, double m, double w)
{
	struct pab_row *row = &e->rows[ri];
	size_t r, n = row->n_reps;

	for (r = 0; r < n; r++) {
		double u = -1.0 + 2.0 * (double)((r * 5) % n) / (double)(n - 1);
		double v = 0.5 * (1 + 0.001 * (double)(r % 3));

		row->reps[r].result[0].m[PAB_M_CPU] = v;
		row->reps[r].result[2].m[PAB_M_CPU] = v;
		row->reps[r].result[1].m[PAB_M_CPU] = v * (1 + (m + w * u) / 100);
	}
}

/*
 * A row is undecidable (doc/method.md §8b) when an undecided cell that
 * holds its PASS can reach neither PASS nor FAIL by the cap and no
 * undecided cell can still FAIL it. cpu required at 2%, 12 reps of a cap
 * of 24: a change of +0.5% +- 8 reaches neither (undecidable), +0.5% +- 4
 * may still PASS, +1% +- 8 may still FAIL. Each case is judged as the
 * first row and as the second, beside another.
 */
START_TEST(row_undecidable_outlook)
{
	static const struct {
		double m, w;
		int pass, fail, undecidable;
	} k[] = {
		{ 0.5, 8, 0, 0, 1 },
		{ 0.5, 4, 1, 0, 0 },
		{ 1.0, 8, 0, 1, 0 },
	};
	static const enum pab_metric_id ms[] = { PAB_M_CPU };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t i, j;

	for (i = 0; i < 3; i++) {
		make_experiment(&e, 2, 12, 1);
		e.reps = 12;
		e.max_reps = 24;
		set_spread(&e, 0, k[i].m, k[i].w);
		set_spread(&e, 1, k[(i + 2) % 3].m, k[(i + 2) % 3].w);
		judge_only(&e, &o, ms, 1);
		build(&e, &o, &l);
		for (j = 0; j < 2; j++) {
			size_t c = j ? (i + 2) % 3 : i;
			const struct pab_ledger_cell *cell = pab_ledger_find_cell(&l, j, 1, PAB_M_CPU);

			ck_assert_int_eq(cell->role, PAB_ROLE_REQUIRED);
			ck_assert_int_eq(cell->res.verdict, PAB_INCONCLUSIVE);
			ck_assert_int_eq(l.rows[j].cap_n, 24);
			ck_assert_int_eq(cell->outlook.pass_reachable, k[c].pass);
			ck_assert_int_eq(cell->outlook.fail_reachable, k[c].fail);
			ck_assert_int_eq(cell->undecidable, k[c].undecidable);
			ck_assert_int_eq(l.rows[j].verdict, PAB_INCONCLUSIVE);
			ck_assert_int_eq(l.rows[j].undecidable, k[c].undecidable);
		}
		pab_ledger_release(&l);
		pab_experiment_release(&e);
	}
}
END_TEST

/*
 * A time guard holds a row's PASS until it is resolved (doc/method.md
 * §8a): instructions required and unchanged, cpu guarding; cpu resolved
 * within the guard tolerance lets the row PASS, cpu too noisy to resolve
 * holds it INCONCLUSIVE; the allowance the ledger shows it resolving to
 * is the guard's own (pab_guard_allowance), and no other cell has one.
 */
START_TEST(time_guard_holds_until_resolved)
{
	static const enum pab_metric_id ms[] = { PAB_M_INSTRUCTIONS, PAB_M_CPU };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	const struct pab_ledger_cell *c;
	char *why = NULL;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_INSTRUCTIONS, 1e8, 0, 0);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	judge_only(&e, &o, ms, 2);
	ck_assert_int_eq(pab_ledger_opts_require(&o, "instructions", &why), 0);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU);
	ck_assert_int_eq(c->role, PAB_ROLE_GUARD);
	ck_assert(c->time_guard && !c->held);
	ck_assert_int_eq(l.rows[0].verdict, PAB_PASS);
	/* What the ledger says a time guard resolves to: the larger of the
	 * guard tolerance and the cell's allowance; a cell that guards no
	 * time has none. */
	ck_assert(c->guard_allowance >= o.guard_tolerance && c->guard_allowance > 0);
	ck_assert(fabs(c->guard_allowance - pab_guard_allowance(&c->res, o.guard_tolerance)) < 1e-12);
	ck_assert(pab_ledger_find_cell(&l, 0, 1, PAB_M_INSTRUCTIONS)->guard_allowance == 0.0);
	pab_ledger_release(&l);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.3);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU);
	ck_assert(c->time_guard && c->held);
	ck_assert_int_eq(l.rows[0].verdict, PAB_INCONCLUSIVE);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * A plain command's throughput is 1/wall: not judged unless named (in
 * the judged metrics or the required set); its wall is shown instead,
 * with its interval, and no part of the verdict.
 */
START_TEST(plain_command_shows_wall)
{
	static const enum pab_metric_id ms[] = { PAB_M_THROUGHPUT, PAB_M_CPU };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	const struct pab_ledger_cell *c;
	size_t r, a;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 0, PAB_M_WALL, 0.6, 30, 0.2);
	for (r = 0; r < 12; r++)
		for (a = 0; a < 3; a++) {
			struct pab_arm_result *res = &e.rows[0].reps[r].result[a];

			res->m[PAB_M_THROUGHPUT] = 1.0 / res->m[PAB_M_WALL];
		}
	judge_only(&e, &o, ms, 2);
	build(&e, &o, &l);
	ck_assert_int_eq(l.rows[0].wall_throughput, 1);
	ck_assert_ptr_null(pab_ledger_find_cell(&l, 0, 1, PAB_M_THROUGHPUT));
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_WALL);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->role, PAB_ROLE_SHOWN);
	ck_assert_int_eq(l.rows[0].verdict, PAB_PASS);
	ck_assert_uint_eq(l.disposition.cells, 1);
	pab_ledger_release(&l);
	/* Named by the run: judged (a guard here, cpu is required). */
	o.metrics_given = 1;
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_THROUGHPUT);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->role, PAB_ROLE_GUARD);
	ck_assert_ptr_null(pab_ledger_find_cell(&l, 0, 1, PAB_M_WALL));
	pab_ledger_release(&l);
	/* A required set that does not name throughput leaves it 1/wall:
	 * wall shown; one that names it judges it, required. */
	o.metrics_given = 0;
	o.require_given = 1;
	o.required[PAB_M_CPU] = 1;
	build(&e, &o, &l);
	ck_assert_ptr_null(pab_ledger_find_cell(&l, 0, 1, PAB_M_THROUGHPUT));
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_WALL)->role, PAB_ROLE_SHOWN);
	pab_ledger_release(&l);
	o.required[PAB_M_THROUGHPUT] = 1;
	build(&e, &o, &l);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_THROUGHPUT)->role, PAB_ROLE_REQUIRED);
	ck_assert_ptr_null(pab_ledger_find_cell(&l, 0, 1, PAB_M_WALL));
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* Row ri's peak RSS: base, head and null in every rep, exactly. */
static void set_peaks(struct pab_experiment *e, size_t ri, double base, double head,
		      double null)
{
	size_t r;

	for (r = 0; r < e->rows[ri].n_reps; r++) {
		e->rows[ri].reps[r].result[0].m[PAB_M_PEAK_RSS] = base;
		e->rows[ri].reps[r].result[1].m[PAB_M_PEAK_RSS] = head;
		e->rows[ri].reps[r].result[2].m[PAB_M_PEAK_RSS] = null;
	}
}

#define KIB 1024.0
#define SLACK (256 * KIB) /* the kernel's RSS counter slack on 2 CPUs */
#define FLOOR_WHY "the peak fell by no more than the memory floor (at least the kernel's " \
	"RSS counter slack, 256 KiB)"
#define SPREAD_WHY "the peak fell by no more than the null arm's spread plus the kernel's " \
	"RSS counter slack"

/*
 * Memory credit needs a real saving: the median peak must fall by more
 * than the byte floor and the kernel's RSS counter slack (256 KiB on 2
 * CPUs, doc/workload-protocol.md), and by more than the null arm's
 * largest difference from base plus that slack. A 0.1 MiB drop earns
 * none; a 224 KiB dip of a 64 MiB process whose floor is near its peak
 * (saved 100%, a 33% cpu allowance, before the slack was counted) none;
 * a 600 KiB drop where one rep of the null arm sits 400 KiB off base
 * (its sign-test interval still 0) none; a 30 MiB drop the credit. Each
 * refusal keeps a +8% cpu FAIL.
 */
START_TEST(small_peak_drop_earns_no_credit)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t r;

	make_experiment(&e, 4, 12, 1);
	for (r = 0; r < 4; r++) {
		set_metric(&e, r, PAB_M_CPU, 0.5, 8, 0.002);
		set_metric(&e, r, PAB_M_RSS_FLOOR, 10 * MIB, 0, 0);
	}
	set_peaks(&e, 0, 64 * MIB, 64 * MIB - 0.1 * MIB, 64 * MIB);
	set_peaks(&e, 1, 64 * MIB, 64 * MIB - 224 * KIB, 64 * MIB);
	set_metric(&e, 1, PAB_M_RSS_FLOOR, 64 * MIB - 100 * KIB, 0, 0);
	set_peaks(&e, 2, 64 * MIB, 64 * MIB - 600 * KIB, 64 * MIB);
	e.rows[2].reps[5].result[2].m[PAB_M_PEAK_RSS] = 64 * MIB - 400 * KIB;
	set_peaks(&e, 3, 64 * MIB, 34 * MIB, 64 * MIB);
	judge_only(&e, &o, cpu_peak, 2);
	o.floor_bytes = 128 * KIB;
	build(&e, &o, &l);
	for (r = 0; r < 3; r++) {
		ck_assert_double_eq(l.rows[r].saved_pct, 0);
		ck_assert_int_eq(cell_verdict(&l, r, PAB_M_CPU), PAB_FAIL);
	}
	ck_assert_str_eq(l.rows[0].credit_why, FLOOR_WHY);
	ck_assert_str_eq(l.rows[1].credit_why, FLOOR_WHY);
	ck_assert_str_eq(l.rows[2].credit_why, SPREAD_WHY);
	ck_assert_double_gt(l.rows[3].saved_pct, 50);
	ck_assert_ptr_null(l.rows[3].credit_why);
	ck_assert_int_eq(cell_verdict(&l, 3, PAB_M_CPU), PAB_PASS);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * The tolerance floors are the artifact's: a run records the default
 * 128 KiB (test_run_plan), and the ledger applies what is recorded to
 * memory cells; an artifact that records none is judged without one, as
 * it was when it was written (doc/method.md section 5a). A 1 MiB process
 * 6% (61 KiB) fatter: FAIL on a 2% tolerance alone, PASS on the floor,
 * 12.5% of its base median.
 */
START_TEST(memory_floor_as_recorded)
{
	static const enum pab_metric_id peak[] = { PAB_M_PEAK_RSS };
	const struct pab_ledger_cell *c;
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_PEAK_RSS, MIB, 6, 0.002);
	ck_assert(!(e.judged.recorded & PAB_JUDGED_FLOORS));
	judge_only(&e, &o, peak, 1);
	ck_assert_double_eq(o.floor_bytes, 0);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_PEAK_RSS);
	ck_assert_ptr_nonnull(c);
	ck_assert_double_eq(c->res.floor_pct, 0);
	ck_assert_double_eq(c->res.tolerance, 2);
	ck_assert_int_eq(c->res.verdict, PAB_FAIL);
	pab_ledger_release(&l);

	e.judged.recorded |= PAB_JUDGED_FLOORS;
	e.judged.floor_bytes = 128 * KIB;
	e.judged.floor_count = 4;
	judge_only(&e, &o, peak, 1);
	ck_assert_double_eq(o.floor_bytes, 128 * KIB);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_PEAK_RSS);
	ck_assert_ptr_nonnull(c);
	ck_assert_double_eq_tol(c->res.floor_pct, 12.5, 1e-9);
	ck_assert_double_eq(c->res.tolerance, c->res.floor_pct);
	ck_assert_int_eq(c->res.verdict, PAB_PASS);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * The credit's edges, each one byte either side: a drop of exactly the
 * slack is no more than it, one byte more clears it (a quiet null arm);
 * a recorded floor above the slack takes its place; and with the null
 * arm 100 KiB off base in one rep, a drop of exactly that plus the slack
 * is no saving, one byte more is.
 */
START_TEST(memory_credit_edges)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	int side;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 8, 0.002);
	set_metric(&e, 0, PAB_M_RSS_FLOOR, 10 * MIB, 0, 0);
	judge_only(&e, &o, cpu_peak, 2);
	o.floor_bytes = 128 * KIB;
	set_peaks(&e, 0, 64 * MIB, 64 * MIB - SLACK, 64 * MIB);
	build(&e, &o, &l);
	ck_assert_double_eq(l.rows[0].saved_pct, 0);
	ck_assert_str_eq(l.rows[0].credit_why, FLOOR_WHY);
	pab_ledger_release(&l);
	set_peaks(&e, 0, 64 * MIB, 64 * MIB - SLACK - 1, 64 * MIB);
	build(&e, &o, &l);
	ck_assert_double_gt(l.rows[0].saved_pct, 0);
	ck_assert_ptr_null(l.rows[0].credit_why);
	pab_ledger_release(&l);
	/* A floor of 1 MiB: the slack no longer decides. */
	o.floor_bytes = MIB;
	set_peaks(&e, 0, 64 * MIB, 63 * MIB, 64 * MIB);
	build(&e, &o, &l);
	ck_assert_double_eq(l.rows[0].saved_pct, 0);
	ck_assert_str_eq(l.rows[0].credit_why, FLOOR_WHY);
	pab_ledger_release(&l);
	set_peaks(&e, 0, 64 * MIB, 63 * MIB - 1, 64 * MIB);
	build(&e, &o, &l);
	ck_assert_double_gt(l.rows[0].saved_pct, 0);
	pab_ledger_release(&l);
	/* The null arm's spread, above or below base alike. */
	o.floor_bytes = 128 * KIB;
	for (side = -1; side <= 1; side += 2) {
		set_peaks(&e, 0, 64 * MIB, 64 * MIB - 100 * KIB - SLACK, 64 * MIB);
		e.rows[0].reps[7].result[2].m[PAB_M_PEAK_RSS] = 64 * MIB + side * 100 * KIB;
		build(&e, &o, &l);
		ck_assert_double_eq(l.rows[0].saved_pct, 0);
		ck_assert_str_eq(l.rows[0].credit_why, SPREAD_WHY);
		pab_ledger_release(&l);
		set_peaks(&e, 0, 64 * MIB, 64 * MIB - 100 * KIB - SLACK - 1, 64 * MIB);
		e.rows[0].reps[7].result[2].m[PAB_M_PEAK_RSS] = 64 * MIB + side * 100 * KIB;
		build(&e, &o, &l);
		ck_assert_double_gt(l.rows[0].saved_pct, 0);
		ck_assert_ptr_null(l.rows[0].credit_why);
		pab_ledger_release(&l);
	}
	pab_experiment_release(&e);
}
END_TEST

/*
 * The null arm has pairs with base, but no rep holds both a head and a
 * null value: FAIL rests on head vs base alone, so +50% FAILs (it was
 * blocked for good before).
 */
START_TEST(null_without_head_pairs_fails_unguarded)
{
	static const enum pab_metric_id cpu[] = { PAB_M_CPU };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	const struct pab_ledger_cell *c;
	size_t r;

	make_experiment(&e, 1, 24, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 50, 0.002);
	for (r = 0; r < 24; r++)
		e.rows[0].reps[r].result[r % 2 ? 1 : 2].m[PAB_M_CPU] = NAN;
	judge_only(&e, &o, cpu, 1);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU);
	ck_assert_int_eq(c->res.has_null, 1);
	ck_assert_uint_eq(c->res.head_null.n, 0);
	ck_assert_int_eq(c->res.fail_guarded, 0);
	ck_assert_int_eq(c->res.verdict, PAB_FAIL);
	ck_assert_int_eq(l.overall, PAB_FAIL);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* A run the sanity gate stopped: the tripped row FAILs with the figures. */
START_TEST(sanity_gate_row_fails)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 2, 1, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 95 * MIB, 600, 0);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0);
	set_metric(&e, 1, PAB_M_PEAK_RSS, 95 * MIB, 0, 0);
	e.stopped_by = PAB_STOP_SANITY_GATE;
	/* Entries an artifact left without a row, an arm or a metric name
	 * nothing and are passed over. */
	pab_experiment_add_sanity(&e, NULL, "head", "peak_rss", 95 * MIB, 900 * MIB);
	pab_experiment_add_sanity(&e, "r0", NULL, "peak_rss", 95 * MIB, 900 * MIB);
	pab_experiment_add_sanity(&e, "r0", "head", NULL, 95 * MIB, 900 * MIB);
	pab_experiment_add_sanity(&e, "r0", "head", "peak_rss", 95 * MIB, 665 * MIB);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_int_eq(l.rows[0].verdict, PAB_FAIL);
	ck_assert_ptr_nonnull(l.rows[0].gate_note);
	ck_assert_ptr_nonnull(strstr(l.rows[0].gate_note, "peak RSS 665.0 MiB > 1.5 x 95.0 MiB + 8 MiB"));
	ck_assert_int_eq(l.rows[1].verdict, PAB_INCONCLUSIVE);
	ck_assert_ptr_null(l.rows[1].gate_note);
	ck_assert_int_eq(l.overall, PAB_FAIL);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_REJECT_OTHER);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* A floor above the lowest peak is flagged and earns no credit. */
START_TEST(inconsistent_floor_no_credit)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 8, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, -30, 0.002);
	set_metric(&e, 0, PAB_M_RSS_FLOOR, 90 * MIB, 0, 0);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert(l.rows[0].floor_inconsistent);
	ck_assert_double_eq_tol(l.rows[0].saved_pct, 0, 1e-9);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_CPU), PAB_FAIL);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* The floor's slack at its edge: a floor up to 5% above the lowest peak
 * is the kernel's counter slack and consistent; one byte-fraction more is
 * flagged. At the edge the saving (30 MiB of a 26.5 MiB gap) clamps to
 * exactly 100%, a valid credit. */
START_TEST(floor_slack_edge)
{
	static const double floors[] = { 73.5 * MIB, 0 };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t k, r;

	for (k = 0; k < 2; k++) {
		double floor = k ? nextafter(73.5 * MIB, INFINITY) : floors[0];

		make_experiment(&e, 1, 12, 1);
		set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
		set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0);
		set_metric(&e, 0, PAB_M_RSS_FLOOR, floor, 0, 0);
		for (r = 0; r < e.rows[0].n_reps; r++)
			e.rows[0].reps[r].result[1].m[PAB_M_PEAK_RSS] = 70 * MIB;
		judge_only(&e, &o, cpu_peak, 2);
		build(&e, &o, &l);
		ck_assert_int_eq(l.rows[0].floor_inconsistent, k);
		ck_assert_double_eq_tol(l.rows[0].saved_pct, k ? 0 : 100, 1e-9);
		pab_ledger_release(&l);
		pab_experiment_release(&e);
	}
}
END_TEST

/* The memory gate's table: a scenario a later run adds has no value (NaN,
 * not ran) in the runs before it; the spread of a scenario whose lowest
 * peak is 0 is not a number, not an infinite spread. */
START_TEST(memgate_table_edges)
{
	struct pab_experiment one, two;
	struct pab_memgate_table t;
	int s0, s1;

	make_experiment(&one, 1, 2, 0);
	set_metric(&one, 0, PAB_M_PEAK_RSS, 0, 0, 0);
	make_experiment(&two, 2, 2, 0);
	set_metric(&two, 0, PAB_M_PEAK_RSS, 10 * MIB, 0, 0);
	set_metric(&two, 1, PAB_M_PEAK_RSS, 20 * MIB, 0, 0);
	pab_memgate_table_init(&t, 3);
	pab_memgate_table_add_run(&t, 0, &one, 0);
	pab_memgate_table_add_run(&t, 1, &two, 0);
	s0 = pab_memgate_scenario_index(&t, "r0");
	s1 = pab_memgate_scenario_index(&t, "r1");
	ck_assert(s0 == 0 && s1 == 1);
	ck_assert_int_eq(pab_memgate_scenario_index(&t, "r2"), -1); /* the header's contract */
	ck_assert(pab_memgate_ran(&t, 1, 1) && !pab_memgate_ran(&t, 1, 0));
	ck_assert(isnan(pab_memgate_peak(&t, 1, 0)));
	ck_assert_double_eq(pab_memgate_peak(&t, 1, 1), 20 * MIB);
	ck_assert_double_eq(pab_memgate_scenario_min(&t, 0), 0);
	ck_assert(isnan(pab_memgate_spread_pct(&t, 0)));
	ck_assert_double_eq_tol(pab_memgate_spread_pct(&t, 1), 0, 1e-12);
	/* A third run with r1 only: each (scenario, run) is its own cell. */
	free(one.rows[0].name);
	one.rows[0].name = xstrdup("r1");
	set_metric(&one, 0, PAB_M_PEAK_RSS, 30 * MIB, 0, 0);
	pab_memgate_table_add_run(&t, 2, &one, 0);
	ck_assert(pab_memgate_ran(&t, 0, 0) && pab_memgate_ran(&t, 0, 1) && !pab_memgate_ran(&t, 0, 2));
	ck_assert(!pab_memgate_ran(&t, 1, 0) && pab_memgate_ran(&t, 1, 1) && pab_memgate_ran(&t, 1, 2));
	ck_assert_double_eq(pab_memgate_peak(&t, 0, 1), 10 * MIB);
	ck_assert_double_eq(pab_memgate_peak(&t, 1, 2), 30 * MIB);
	ck_assert(isnan(pab_memgate_peak(&t, 0, 2)));
	ck_assert_double_eq_tol(pab_memgate_spread_pct(&t, 1), 50, 1e-12);
	/* Incomplete: the first gap, scenario by scenario, is r0 in run 2. */
	{
		size_t gs = 9, gr = 9;

		ck_assert_int_eq(pab_memgate_table_complete(&t, &gs, &gr), 0);
		ck_assert(gs == 0 && gr == 2);
	}
	pab_memgate_table_release(&t);
	pab_experiment_release(&one);
	pab_experiment_release(&two);
}
END_TEST

/* One run of rows r0 (peak a) and r1 (peak b), as the memory gate reads it. */
static void memgate_run(struct pab_memgate_table *t, size_t run, double a, double b)
{
	struct pab_experiment e;

	make_experiment(&e, 2, 2, 0);
	set_metric(&e, 0, PAB_M_PEAK_RSS, a, 0, 0);
	set_metric(&e, 1, PAB_M_PEAK_RSS, b, 0, 0);
	pab_memgate_table_add_run(t, run, &e, 0);
	pab_experiment_release(&e);
}

/* The memory gate's judgment at its edges: a minimum exactly at the limit
 * is no regression, one above it is; the change is in percent of the
 * baseline; the first regression is the first one; coverage counts what
 * is missing; the baseline records a CPU model only when given one. */
START_TEST(memgate_judge_edges)
{
	struct pab_memgate_table t;
	struct pab_memgate_baseline b = { 0 }, rec;
	struct pab_memgate_result res[2];
	size_t first = 0, run = 9, sc = 9, n_missing = 9;
	char *missing = NULL, *text;

	pab_memgate_table_init(&t, 2);
	memgate_run(&t, 0, 102 * MIB, 51.5 * MIB);
	memgate_run(&t, 1, 104 * MIB, 52 * MIB);
	b.n = 2;
	b.name = xcalloc(2, sizeof(*b.name));
	b.bytes = xcalloc(2, sizeof(*b.bytes));
	b.name[0] = xstrdup("r0");
	b.name[1] = xstrdup("r1");
	b.bytes[0] = 100 * MIB;
	b.bytes[1] = 50 * MIB;
	ck_assert_int_eq(pab_memgate_coverage(&t, &b, &run, &sc, &n_missing, &missing),
			 PAB_MEMGATE_COVERED);
	ck_assert_uint_eq(n_missing, 0);
	ck_assert_ptr_null(missing);
	ck_assert_uint_eq(pab_memgate_judge(&t, &b, 2, res, &first), 1);
	ck_assert_uint_eq(first, 1);
	ck_assert_double_eq_tol(res[0].limit, 102 * MIB, 1e-6);
	ck_assert_double_eq_tol(res[0].change_pct, 2, 1e-12);
	ck_assert(!res[0].over);                 /* exactly at the limit */
	ck_assert_double_eq_tol(res[1].limit, 51 * MIB, 1e-6);
	ck_assert_double_eq_tol(res[1].change_pct, 3, 1e-12);
	ck_assert(res[1].over);
	/* Both over: two regressions, the first still the first. */
	ck_assert_uint_eq(pab_memgate_judge(&t, &b, 1, res, &first), 2);
	ck_assert_uint_eq(first, 0);
	ck_assert_uint_eq(pab_memgate_judge(&t, &b, 5, res, &first), 0);
	ck_assert_uint_eq(first, (size_t)-1);
	pab_memgate_baseline_of(&t, "head", NULL, &rec);
	text = pab_baseline_text(&rec);
	ck_assert_ptr_null(strstr(text, "cpu_model"));
	ck_assert_ptr_nonnull(strstr(text, "54001664")); /* r1: its minimum, 51.5 MiB */
	cJSON_free(text);
	pab_memgate_baseline_release(&rec);
	pab_memgate_baseline_of(&t, "head", "Test CPU", &rec);
	text = pab_baseline_text(&rec);
	ck_assert_ptr_nonnull(strstr(text, "\"Test CPU\""));
	cJSON_free(text);
	pab_memgate_baseline_release(&rec);
	pab_memgate_table_release(&t);
	/* A run without r1: filtered, one scenario missing, named. */
	pab_memgate_table_init(&t, 2);
	memgate_run(&t, 0, 100 * MIB, 50 * MIB);
	{
		struct pab_experiment e;

		make_experiment(&e, 1, 2, 0);
		set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0);
		pab_memgate_table_add_run(&t, 1, &e, 0);
		pab_experiment_release(&e);
	}
	ck_assert_int_eq(pab_memgate_coverage(&t, &b, &run, &sc, &n_missing, &missing),
			 PAB_MEMGATE_FILTERED);
	ck_assert_uint_eq(run, 1);
	ck_assert_uint_eq(n_missing, 1);
	ck_assert_str_eq(missing, "'r1'");
	free(missing);
	pab_memgate_table_release(&t);
	pab_memgate_baseline_release(&b);
}
END_TEST

/* A cell that PASSes a little worse (hi between 0 and 1%) is no gain. */
START_TEST(pass_slightly_worse_is_no_gain)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	const struct pab_ledger_cell *c;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0.5, 0.002);
	judge_only(&e, &o, cpu_peak, 1);
	build(&e, &o, &l);
	c = pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->res.verdict, PAB_PASS);
	ck_assert_msg(c->res.change.hi > 0 && c->res.change.hi < 1, "hi %g", c->res.change.hi);
	ck_assert(!pab_ledger_cell_is_gain(&l, c));
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* Fewer than 6 paired reps: no interval, INCONCLUSIVE, FOLLOW_UP. */
START_TEST(few_reps_follow_up)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 4, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 30, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0.002);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_uint_eq(l.rows[0].n, 4);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_CPU), PAB_INCONCLUSIVE);
	ck_assert_int_eq(l.overall, PAB_INCONCLUSIVE);
	ck_assert_int_eq(pab_verdict_exit_code(l.overall), PAB_EXIT_INCONCLUSIVE);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_FOLLOW_UP);
	pab_ledger_release(&l);
	/* Too few reps is missing coverage even when only an ancillary
	 * metric is judged (whose INCONCLUSIVE alone would be LIMITED). */
	judge_only(&e, &o, cpu_peak + 1, 1);
	build(&e, &o, &l);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_PEAK_RSS), PAB_INCONCLUSIVE);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_FOLLOW_UP);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * Rows measured on more than one CPU model (a pooled fleet): any row
 * whose model differs from the first row's, a known model against an
 * unknown one included; one model, or none known anywhere, is not mixed.
 * A row without a host of its own has the run's.
 */
START_TEST(mixed_cpus_by_row)
{
	static const struct {
		const char *models;  /* one letter a row, '-' unknown */
		int mixed;
	} k[] = {
		{ "A", 0 }, { "AAA", 0 }, { "AAB", 1 }, { "ABA", 1 }, { "BAA", 1 },
		{ "A-", 1 }, { "-A", 1 }, { "--", 0 },
	};
	struct pab_experiment e;
	size_t i, r;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		make_experiment(&e, strlen(k[i].models), 6, 1);
		for (r = 0; r < e.n_rows; r++) {
			e.rows[r].host_json = xstrdup("{}");
			if (k[i].models[r] != '-')
				e.rows[r].cpu_model = xasprintf("%c", k[i].models[r]);
		}
		ck_assert_msg(pab_ledger_mixed_cpus(&e) == k[i].mixed, "rows %s", k[i].models);
		pab_experiment_release(&e);
	}
	/* Rows without a host of their own: the run's model for each. */
	make_experiment(&e, 2, 6, 1);
	e.cpu_model = xstrdup("A");
	ck_assert_int_eq(pab_ledger_mixed_cpus(&e), 0);
	e.rows[1].host_json = xstrdup("{}");
	e.rows[1].cpu_model = xstrdup("B");
	ck_assert_int_eq(pab_ledger_mixed_cpus(&e), 1);
	pab_experiment_release(&e);
}
END_TEST

/* The disposition's counts say "gain" for one supported gain, else "gains". */
START_TEST(disposition_gain_words)
{
	static const char *const want[] = { "0 supported gains", "1 supported gain)",
					    "2 supported gains" };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t gains;

	for (gains = 0; gains < 3; gains++) {
		make_experiment(&e, 2, 12, 1);
		set_metric(&e, 0, PAB_M_CPU, 0.5, gains >= 1 ? -30 : 0, 0.002);
		set_metric(&e, 1, PAB_M_CPU, 0.5, gains >= 2 ? -30 : 0, 0.002);
		judge_only(&e, &o, cpu_peak, 1);
		build(&e, &o, &l);
		ck_assert_uint_eq(l.disposition.gains, gains);
		ck_assert_msg(strstr(l.disposition.summary, want[gains]), "%s lacks '%s'",
			      l.disposition.summary, want[gains]);
		pab_ledger_release(&l);
		pab_experiment_release(&e);
	}
}
END_TEST

/*
 * A run whose required set (run.require) names no judged metric: every
 * judged cell is required (doc/method.md §8a), not the default cpu.
 */
START_TEST(require_naming_no_judged_metric)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0.2);
	e.judged.recorded |= PAB_JUDGED_REQUIRE;
	e.judged.require[PAB_M_P99] = 1;
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU)->role, PAB_ROLE_REQUIRED);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_PEAK_RSS)->role, PAB_ROLE_REQUIRED);
	ck_assert_int_eq(l.rows[0].verdict, PAB_INCONCLUSIVE);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * A peak that fell by less than the memory floor earns no credit and
 * says why (credit_withheld); a control row earns none whatever its
 * peak does, so it says nothing of a floor.
 */
START_TEST(credit_withheld_not_on_controls)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, -0.15, 0.0001);
	set_metric(&e, 0, PAB_M_RSS_FLOOR, 40 * MIB, 0, 0);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_ptr_nonnull(l.rows[0].credit_why);
	ck_assert(l.rows[0].saved_pct == 0);
	pab_ledger_release(&l);
	o.controls = "=r0";
	build(&e, &o, &l);
	ck_assert(l.rows[0].control);
	ck_assert_ptr_null(l.rows[0].credit_why);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * A noisy ancillary cell (peak RSS ±10% a rep) of an ordinary row with
 * CPU PASSing is LIMITED; the same noise in a control row is missing
 * coverage, FOLLOW_UP.
 */
START_TEST(noisy_memory_limited_or_follow_up)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 0, PAB_M_PEAK_RSS, 100 * MIB, 0, 0.2);
	judge_only(&e, &o, cpu_peak, 2);
	build(&e, &o, &l);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_CPU), PAB_PASS);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_PEAK_RSS), PAB_INCONCLUSIVE);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_LIMITED);
	ck_assert_str_eq(l.disposition.name, "accept-with-uncertainty");
	pab_ledger_release(&l);

	o.controls = "=r0";
	build(&e, &o, &l);
	ck_assert(l.rows[0].control);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_PEAK_RSS), PAB_INCONCLUSIVE);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_FOLLOW_UP);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* A row whose head's child failed: the row FAILs whatever its cells,
 * REJECT_BROKEN. */
START_TEST(failed_row_rejects_failure)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 2, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 30, 0.002);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0.002);
	e.rows[1].failed = 1;
	e.rows[1].reps[11].result[1].failed = 1; /* head */
	judge_only(&e, &o, cpu_peak, 1);
	build(&e, &o, &l);
	ck_assert_int_eq(cell_verdict(&l, 1, PAB_M_CPU), PAB_PASS);
	ck_assert_int_eq(l.rows[1].verdict, PAB_FAIL);
	ck_assert_ptr_nonnull(l.rows[1].why);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_REJECT_BROKEN);
	ck_assert_uint_eq(l.disposition.deciding, 1);
	ck_assert_int_eq(l.rows[1].no_verdict, 0);
	ck_assert_int_eq(pab_ledger_exit_code(&l), PAB_EXIT_FAIL);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * A row failed by its base arm, its null arm or the environment (no
 * child failed: a hook or a warmup run did) is no verdict: INCONCLUSIVE,
 * the disposition no-verdict, exit 8 — the change is not blamed. A base
 * failing beside its head is no verdict too. A FAIL elsewhere wins.
 */
START_TEST(failed_base_or_environment_no_verdict)
{
	static const struct { size_t arm; int also_head; const char *why; } cases[] = {
		{ 0, 0, PAB_LEDGER_BASE_FAILED },
		{ 2, 0, PAB_LEDGER_BASE_FAILED },
		{ 0, 1, PAB_LEDGER_BASE_FAILED },
		{ 3, 0, PAB_LEDGER_ENV_FAILED }, /* 3: no child failed */
	};
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_experiment(&e, 2, 12, 1);
		set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
		set_metric(&e, 1, PAB_M_CPU, 0.5, 30, 0.002);
		e.rows[1].failed = 1;
		if (cases[i].arm < 3)
			e.rows[1].reps[5].result[cases[i].arm].failed = 1;
		if (cases[i].also_head)
			e.rows[1].reps[5].result[1].failed = 1;
		judge_only(&e, &o, cpu_peak, 1);
		build(&e, &o, &l);
		ck_assert_int_eq(l.rows[1].verdict, PAB_INCONCLUSIVE);
		ck_assert_int_eq(l.rows[1].no_verdict, 1);
		ck_assert_int_eq(l.no_verdict, 1);
		ck_assert_str_eq(l.rows[1].why, cases[i].why);
		ck_assert_int_eq(l.overall, PAB_INCONCLUSIVE);
		ck_assert_int_eq(l.disposition.kind, PAB_DISP_NO_VERDICT);
		ck_assert_int_eq(pab_ledger_exit_code(&l), PAB_EXIT_NO_VERDICT);
		pab_ledger_release(&l);
		/* A real regression in another row: FAIL, exit 1. */
		set_metric(&e, 0, PAB_M_CPU, 0.5, 30, 0.002);
		build(&e, &o, &l);
		ck_assert_int_eq(l.overall, PAB_FAIL);
		ck_assert_int_eq(pab_ledger_exit_code(&l), PAB_EXIT_FAIL);
		pab_ledger_release(&l);
		pab_experiment_release(&e);
	}
	/* The ledger's count of rows without a verdict counts the first row
	 * as any other. */
	make_experiment(&e, 2, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0.002);
	e.rows[0].failed = 1;
	e.rows[0].reps[5].result[0].failed = 1;
	judge_only(&e, &o, cpu_peak, 1);
	build(&e, &o, &l);
	ck_assert_int_eq(l.rows[0].no_verdict, 1);
	ck_assert_int_eq(l.rows[1].no_verdict, 0);
	ck_assert_int_eq(l.no_verdict, 1);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * Who failed a row, as the run recorded it (the arm of a failing child or
 * warmup run) or as a rep did: the head arm is FAIL with its reason; the
 * base or null arm is no verdict (the benchmark is broken); an arm the
 * run does not have is the environment's. A head that failed in the
 * first rep counts as much as in any.
 */
START_TEST(failed_row_by_recorded_arm)
{
	static const struct {
		const char *arm;  /* recorded failing arm, or NULL */
		int rep_head;     /* a head child failed in rep 0 */
		enum pab_verdict verdict;
		const char *why;
	} k[] = {
		{ "base", 0, PAB_INCONCLUSIVE, PAB_LEDGER_BASE_FAILED },
		{ "null", 0, PAB_INCONCLUSIVE, PAB_LEDGER_BASE_FAILED },
		{ "head", 0, PAB_FAIL, "a child failed (see the row's fail_reason)" },
		{ "setup", 0, PAB_INCONCLUSIVE, PAB_LEDGER_ENV_FAILED },
		{ NULL, 1, PAB_FAIL, "a child failed (see the row's fail_reason)" },
		{ "null", 1, PAB_INCONCLUSIVE, PAB_LEDGER_BASE_FAILED },
	};
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		make_experiment(&e, 2, 12, 1);
		set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
		set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0.002);
		e.rows[1].failed = 1;
		if (k[i].arm)
			e.rows[1].failed_arm = xstrdup(k[i].arm);
		if (k[i].rep_head)
			e.rows[1].reps[0].result[1].failed = 1;
		judge_only(&e, &o, cpu_peak, 1);
		build(&e, &o, &l);
		ck_assert_msg(l.rows[1].verdict == k[i].verdict, "case %zu", i);
		ck_assert_str_eq(l.rows[1].why, k[i].why);
		ck_assert_int_eq(l.rows[1].no_verdict, k[i].verdict != PAB_FAIL);
		ck_assert_int_eq(l.rows[1].undecidable, 0);
		ck_assert_int_eq(l.rows[0].verdict, PAB_PASS);
		pab_ledger_release(&l);
		pab_experiment_release(&e);
	}
}
END_TEST

/*
 * Counts' required set is a row's own: in a counted run a row with
 * instruction counts requires them (cpu and the rest guard); a row the
 * counting pass did not count (no cell measured) is judged as a run
 * without counts is, cpu required (doc/method.md 8a, 13).
 */
START_TEST(counts_require_only_counted_rows)
{
	static const enum pab_metric_id ms[] = { PAB_M_INSTRUCTIONS, PAB_M_CPU, PAB_M_PEAK_RSS };
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t ri;

	make_experiment(&e, 2, 12, 1);
	e.settings.given |= PAB_RUN_COUNTS;
	e.settings.count_source = PAB_COUNT_SIM;
	set_metric(&e, 0, PAB_M_INSTRUCTIONS, 1e8, 0, 0);
	for (ri = 0; ri < 2; ri++) {
		set_metric(&e, ri, PAB_M_CPU, 0.5, 0, 0.002);
		set_metric(&e, ri, PAB_M_PEAK_RSS, 1e7, 0, 0.002);
	}
	e.judged.recorded = PAB_JUDGED_METRICS;
	for (ri = 0; ri < 3; ri++)
		e.judged.metrics[ms[ri]] = 1;
	pab_ledger_opts_init(&o, &e);
	ck_assert_int_eq(o.require_from_counts, 1);
	build(&e, &o, &l);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_INSTRUCTIONS)->role, PAB_ROLE_REQUIRED);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_CPU)->role, PAB_ROLE_GUARD);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 0, 1, PAB_M_PEAK_RSS)->role, PAB_ROLE_GUARD);
	ck_assert_int_eq(cell_verdict(&l, 1, PAB_M_INSTRUCTIONS), PAB_NOT_MEASURED);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 1, 1, PAB_M_CPU)->role, PAB_ROLE_REQUIRED);
	ck_assert_int_eq(pab_ledger_find_cell(&l, 1, 1, PAB_M_PEAK_RSS)->role, PAB_ROLE_GUARD);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* A judged metric never measured is listed, not judged, and not held. */
START_TEST(not_measured_is_listed)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	static const enum pab_metric_id cpu_p99[] = { PAB_M_CPU, PAB_M_P99 };
	char *line;

	make_experiment(&e, 1, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	judge_only(&e, &o, cpu_p99, 2);
	build(&e, &o, &l);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_P99), PAB_NOT_MEASURED);
	ck_assert_int_eq(l.rows[0].verdict, PAB_PASS);
	ck_assert_uint_eq(l.disposition.not_measured, 1);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_ACCEPT);
	line = pab_disposition_line(&l.disposition);
	ck_assert_ptr_nonnull(strstr(line, "1 judged cells: 1 PASS"));
	ck_assert_ptr_nonnull(strstr(line, "; 1 not measured)"));
	free(line);
	/* Nothing judged at all is missing coverage, never an accept. */
	pab_ledger_release(&l);
	judge_only(&e, &o, cpu_p99 + 1, 1);
	build(&e, &o, &l);
	ck_assert_int_eq(l.overall, PAB_INCONCLUSIVE);
	ck_assert_int_eq(l.disposition.kind, PAB_DISP_FOLLOW_UP);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* Without a null arm under perfab/2 a FAIL rests on head vs base alone. */
START_TEST(no_null_arm)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 1, 12, 0);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 30, 0.002);
	judge_only(&e, &o, cpu_peak, 1);
	build(&e, &o, &l);
	ck_assert_int_eq(l.null_arm, -1);
	ck_assert_uint_eq(l.n_rows, 1);
	ck_assert_uint_eq(l.rows[0].arm, 1);
	ck_assert_int_eq(cell_verdict(&l, 0, PAB_M_CPU), PAB_FAIL);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* The ledger keeps its options' rules and confidence; the lookup finds
 * exactly the judged cells. */
START_TEST(conf_rules_and_lookup)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;

	make_experiment(&e, 2, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0.002);
	e.rules = PAB_RULES_PERFAB1;
	judge_only(&e, &o, cpu_peak, 1);
	ck_assert_int_eq(o.rules, PAB_RULES_PERFAB1);
	ck_assert_double_eq(o.conf, 0.95);
	o.conf = 0.9;
	build(&e, &o, &l);
	ck_assert_int_eq(l.rules, PAB_RULES_PERFAB1);
	ck_assert_double_eq(l.conf, 0.9);
	ck_assert_ptr_eq(pab_ledger_find_cell(&l, 1, 1, PAB_M_CPU), &l.cells[1]);
	ck_assert_ptr_null(pab_ledger_find_cell(&l, 1, 1, PAB_M_PEAK_RSS));
	ck_assert_ptr_null(pab_ledger_find_cell(&l, 1, 2, PAB_M_CPU)); /* null is no head */
	ck_assert_ptr_null(pab_ledger_find_cell(&l, 2, 1, PAB_M_CPU));
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * A build that fails after it made rows and cells (an invalid tolerance
 * on the second row's second metric) leaves l zeroed with nothing
 * allocated: under valgrind or LeakSanitizer a leak fails this test.
 */
START_TEST(failed_build_leaves_nothing)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	char *why = NULL;

	make_experiment(&e, 3, 12, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0.002);
	e.tolerance[PAB_M_PEAK_RSS] = -1;
	judge_only(&e, &o, cpu_peak, 2);
	ck_assert_int_eq(pab_ledger_build(&e, &o, &l, &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "cannot judge row 'r0' metric 'peak_rss'"));
	free(why);
	ck_assert_ptr_null(l.rows);
	ck_assert_ptr_null(l.cells);
	ck_assert_uint_eq(l.n_rows, 0);
	ck_assert_uint_eq(l.n_cells, 0);
	pab_ledger_release(&l); /* harmless on a zeroed ledger */

	/* Fewer than two arms: refused before anything is made. */
	pab_experiment_release(&e);
	make_experiment(&e, 1, 12, 0);
	e.n_arms = 1;
	judge_only(&e, &o, cpu_peak, 1);
	why = NULL;
	ck_assert_int_eq(pab_ledger_build(&e, &o, &l, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "fewer than two arms"));
	free(why);
	ck_assert_ptr_null(l.rows);
	e.n_arms = 2;
	pab_experiment_release(&e);
}
END_TEST

/* The metric table's disposition targets and sanity-gate set. */
START_TEST(metric_table_columns)
{
	size_t i, targets = 0, gated = 0;

	for (i = 0; i < PAB_M_COUNT; i++) {
		ck_assert_int_eq(pab_metrics[i].id, (int)i);
		ck_assert_ptr_nonnull(pab_metrics[i].name);
		ck_assert_ptr_nonnull(pab_metrics[i].plot_unit);
		ck_assert_double_gt(pab_metrics[i].plot_div, 0);
		ck_assert_int_eq(pab_metrics[i].kind == PAB_KIND_TIME,
				 pab_metrics[i].per_second > 0);
		targets += (size_t)pab_metrics[i].target;
		gated += (size_t)pab_metrics[i].sanity_gate;
	}
	ck_assert_uint_eq(targets, 2);
	ck_assert(pab_metrics[PAB_M_THROUGHPUT].target && pab_metrics[PAB_M_CPU].target);
	ck_assert_uint_eq(gated, 3);
	ck_assert(pab_metrics[PAB_M_PEAK_RSS].sanity_gate &&
		  pab_metrics[PAB_M_DRAIN_RSS].sanity_gate &&
		  pab_metrics[PAB_M_RELEASE_BOUND_RSS].sanity_gate);
	ck_assert_str_eq(pab_metrics[PAB_M_DRAIN_RSS].report_key, "drain_rss_bytes");
	ck_assert_ptr_null(pab_metrics[PAB_M_PEAK_RSS].report_key);
	{
		const double x[] = { 3, 1, 2, 10 };

		ck_assert_double_eq(pab_metric_aggregate(PAB_M_CPU, x, 4), 2.5);
		ck_assert(isnan(pab_metric_aggregate(PAB_M_CPU, x, 0)));
	}
}
END_TEST

/*
 * The note of exit statuses ignored (--ignore-failure): every distinct
 * status in the order met, base's, head's and null's reps counted apart
 * (the first with "of N reps"), an arm with none left out; past 8
 * statuses ", ..." stands for the rest. A failed, signalled or timed-out
 * child is a failure, not an ignored status.
 */
START_TEST(exit_note_counts_each_arm)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t r;

	make_experiment(&e, 2, 6, 1);
	set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
	set_metric(&e, 1, PAB_M_CPU, 0.5, 0, 0.002);
	/* Row 0: base exits 1 in reps 0-1, head 2 in rep 3, null 1 and 3. */
	e.rows[0].reps[0].result[0].exit_code = 1;
	e.rows[0].reps[1].result[0].exit_code = 1;
	e.rows[0].reps[3].result[1].exit_code = 2;
	e.rows[0].reps[2].result[2].exit_code = 1;
	e.rows[0].reps[4].result[2].exit_code = 3;
	/* Not ignored: a signal, a timeout. */
	e.rows[0].reps[5].result[1].exit_code = 7;
	e.rows[0].reps[5].result[1].term_signal = 9;
	e.rows[0].reps[5].result[0].exit_code = 7;
	e.rows[0].reps[5].result[0].timed_out = 1;
	/* Row 1: null alone, 9 statuses over 3 arms' reps: the 9th is "...". */
	for (r = 0; r < 6; r++)
		e.rows[1].reps[r].result[2].exit_code = (int)r + 10;
	e.rows[1].reps[0].result[1].exit_code = 16;
	e.rows[1].reps[1].result[1].exit_code = 17;
	e.rows[1].reps[2].result[1].exit_code = 18;
	judge_only(&e, &o, cpu_peak, 1);
	build(&e, &o, &l);
	ck_assert_str_eq(l.rows[0].exit_note, "exit statuses 1, 2, 3 ignored (--ignore-failure): "
			 "base in 2 of 6 reps, head in 1, null in 2");
	ck_assert_str_eq(l.rows[1].exit_note, "exit statuses 16, 17, 18, 10, 11, 12, 13, 14, ... "
			 "ignored (--ignore-failure): head in 3 of 6 reps, null in 6");
	pab_ledger_release(&l);
	/* Base alone, one status. */
	for (r = 0; r < 6; r++) {
		e.rows[0].reps[r].result[1].exit_code = e.rows[0].reps[r].result[2].exit_code = 0;
		e.rows[1].reps[r].result[1].exit_code = e.rows[1].reps[r].result[2].exit_code = 0;
	}
	build(&e, &o, &l);
	ck_assert_str_eq(l.rows[0].exit_note, "exit status 1 ignored (--ignore-failure): base in 2 of 6 reps");
	ck_assert_ptr_null(l.rows[1].exit_note);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/*
 * The options an artifact gives the ledger, and the lists that change
 * them: the base arm is the one named "base", else the first; a recorded
 * required set (throughput, the first metric, included) is taken and
 * beats exact counts; exact counts alone require instructions, but only
 * where instructions are judged and the run recorded a count source;
 * --metrics and --require refuse a bad list with its reason and an
 * unjudged metric; narrowing to every judged metric narrows nothing.
 */
START_TEST(opts_from_the_artifact_and_bad_lists)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	char *why = NULL;
	size_t i;

	make_experiment(&e, 1, 3, 0);
	ck_assert_int_eq(pab_ledger_base_arm(&e), 0);
	free(e.arms[0].name);
	e.arms[0].name = xstrdup("old");
	free(e.arms[1].name);
	e.arms[1].name = xstrdup("base");
	ck_assert_int_eq(pab_ledger_base_arm(&e), 1);
	free(e.arms[1].name);
	e.arms[1].name = xstrdup("new");
	ck_assert_int_eq(pab_ledger_base_arm(&e), 0);

	/* A recorded required set, throughput and cpu, with exact counts. */
	e.judged.recorded = PAB_JUDGED_METRICS | PAB_JUDGED_REQUIRE;
	e.judged.metrics[PAB_M_THROUGHPUT] = e.judged.metrics[PAB_M_CPU] = 1;
	e.judged.metrics[PAB_M_INSTRUCTIONS] = 1;
	e.judged.require[PAB_M_THROUGHPUT] = e.judged.require[PAB_M_CPU] = 1;
	e.settings.given |= PAB_RUN_COUNTS;
	e.settings.count_source = PAB_COUNT_SIM;
	pab_ledger_opts_init(&o, &e);
	ck_assert_int_eq(o.require_given, 1);
	ck_assert_int_eq(o.require_from_counts, 0);
	for (i = 0; i < PAB_M_COUNT; i++)
		ck_assert_int_eq(o.required[i], i == PAB_M_THROUGHPUT || i == PAB_M_CPU);
	/* None recorded: the counts require instructions alone. */
	e.judged.recorded = PAB_JUDGED_METRICS;
	pab_ledger_opts_init(&o, &e);
	ck_assert_int_eq(o.require_given, 1);
	ck_assert_int_eq(o.require_from_counts, 1);
	for (i = 0; i < PAB_M_COUNT; i++)
		ck_assert_int_eq(o.required[i], i == PAB_M_INSTRUCTIONS);
	/* No count source, or instructions not judged: no required set. */
	e.settings.count_source = PAB_COUNT_NONE;
	pab_ledger_opts_init(&o, &e);
	ck_assert_int_eq(o.require_given, 0);
	ck_assert_int_eq(o.require_from_counts, 0);
	ck_assert_int_eq(o.required[PAB_M_INSTRUCTIONS], 0);
	e.settings.count_source = PAB_COUNT_SIM;
	e.judged.metrics[PAB_M_INSTRUCTIONS] = 0;
	pab_ledger_opts_init(&o, &e);
	ck_assert_int_eq(o.require_given, 0);
	ck_assert_int_eq(o.require_from_counts, 0);
	ck_assert_int_eq(o.required[PAB_M_INSTRUCTIONS], 0);

	/* Bad lists: the parser's reason, or one of the ledger's own. */
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "cpu,bogus", &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "bogus"));
	free(why);
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "", &why), -1);
	ck_assert_ptr_nonnull(why);
	free(why);
	ck_assert_int_eq(pab_ledger_opts_require(&o, "bogus", &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "bogus"));
	free(why);
	ck_assert_int_eq(pab_ledger_opts_require(&o, "", &why), -1);
	ck_assert_ptr_nonnull(why);
	free(why);
	/* Narrowing to every judged metric narrows nothing. */
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "cpu,throughput", &why), 0);
	ck_assert_int_eq(o.narrowed, 0);
	ck_assert_int_eq(o.require_given, 0);
	/* Narrowed to cpu: throughput, the first metric, cannot come back. */
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "cpu", &why), 0);
	ck_assert_int_eq(o.narrowed, 1);
	ck_assert_int_eq(pab_ledger_opts_narrow(&o, "throughput", &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "'throughput' was not judged by the run"));
	free(why);
	/* --require throughput judges and requires it, and nothing else. */
	ck_assert_int_eq(pab_ledger_opts_require(&o, "throughput", &why), 0);
	ck_assert_ptr_null(why);
	ck_assert_int_eq(o.require_given, 1);
	ck_assert_int_eq(o.require_from_counts, 0);
	for (i = 0; i < PAB_M_COUNT; i++) {
		ck_assert_int_eq(o.required[i], i == PAB_M_THROUGHPUT);
		ck_assert_int_eq(o.judged[i], i == PAB_M_THROUGHPUT || i == PAB_M_CPU);
	}
	pab_experiment_release(&e);
}
END_TEST

/*
 * Whether a row's throughput is its wall time's reciprocal (a plain
 * command) is read from every arm and rep that has both: one arm that
 * reports its own (base here) makes it a workload's; a product off by
 * 5e-9 is its own, by 5e-10 rounding; reps without a wall time decide
 * nothing, and a row with no pair at all is not a plain command.
 */
START_TEST(wall_throughput_edges)
{
	static const enum pab_metric_id ms[] = { PAB_M_THROUGHPUT, PAB_M_CPU };
	static const struct { double off; int base_own, no_wall, want; } cases[] = {
		{ 0, 0, 0, 1 },
		{ 0, 1, 0, 0 },     /* base reports its own throughput */
		{ 5e-9, 0, 0, 0 },  /* beyond 1e-9: reported, not 1 / wall */
		{ 5e-10, 0, 0, 1 }, /* within it: rounding */
		{ 0, 0, 1, 0 },     /* no wall time anywhere: nothing to compare */
	};
	size_t k, r, a;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct pab_experiment e;
		struct pab_ledger_opts o;
		struct pab_ledger l;

		make_experiment(&e, 1, 6, 1);
		set_metric(&e, 0, PAB_M_CPU, 0.5, 0, 0.002);
		set_metric(&e, 0, PAB_M_WALL, 0.5, 0, 0.01);
		for (r = 0; r < 6; r++)
			for (a = 0; a < 3; a++) {
				struct pab_arm_result *res = &e.rows[0].reps[r].result[a];

				res->m[PAB_M_THROUGHPUT] = (1.0 + cases[k].off) / res->m[PAB_M_WALL];
				if (a == 0 && cases[k].base_own)
					res->m[PAB_M_THROUGHPUT] = 1e6;
				if (cases[k].no_wall)
					res->m[PAB_M_WALL] = NAN;
			}
		judge_only(&e, &o, ms, 2);
		build(&e, &o, &l);
		ck_assert_msg(l.rows[0].wall_throughput == cases[k].want,
			      "case %zu: wall_throughput %d, want %d", k, l.rows[0].wall_throughput,
			      cases[k].want);
		pab_ledger_release(&l);
		pab_experiment_release(&e);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ledger");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, equal_arms_accept);
	tcase_add_test(tc, nothing_measured_is_inconclusive);
	tcase_add_test(tc, opts_narrow_keeps_the_required_within);
	tcase_add_test(tc, history_cells_of_a_ledger);
	tcase_add_test(tc, history_records_a_fixed_look);
	tcase_add_test(tc, drift_counts_the_verdicts);
	tcase_add_test(tc, drift_beyond_and_better_at_the_edge);
	tcase_add_test(tc, drift_top_three);
	tcase_add_test(tc, drift_jumps_keep_the_last);
	tcase_add_test(tc, drift_change_point_at_the_step);
	tcase_add_test(tc, drift_change_point_in_the_window);
	tcase_add_test(tc, drift_change_point_at_one_percent);
	tcase_add_test(tc, cpu_regression_rejects);
	tcase_add_test(tc, memory_regression_rejects_other);
	tcase_add_test(tc, cpu_gain_accepts_gain);
	tcase_add_test(tc, memory_credit_allows_cpu);
	tcase_add_test(tc, required_pass_with_undecided_guard);
	tcase_add_test(tc, time_guard_holds_until_resolved);
	tcase_add_test(tc, row_undecidable_outlook);
	tcase_add_test(tc, plain_command_shows_wall);
	tcase_add_test(tc, small_peak_drop_earns_no_credit);
	tcase_add_test(tc, memory_credit_edges);
	tcase_add_test(tc, memory_floor_as_recorded);
	tcase_add_test(tc, null_without_head_pairs_fails_unguarded);
	tcase_add_test(tc, sanity_gate_row_fails);
	tcase_add_test(tc, inconsistent_floor_no_credit);
	tcase_add_test(tc, floor_slack_edge);
	tcase_add_test(tc, memgate_table_edges);
	tcase_add_test(tc, memgate_judge_edges);
	tcase_add_test(tc, pass_slightly_worse_is_no_gain);
	tcase_add_test(tc, few_reps_follow_up);
	tcase_add_test(tc, mixed_cpus_by_row);
	tcase_add_test(tc, disposition_gain_words);
	tcase_add_test(tc, noisy_memory_limited_or_follow_up);
	tcase_add_test(tc, require_naming_no_judged_metric);
	tcase_add_test(tc, credit_withheld_not_on_controls);
	tcase_add_test(tc, failed_row_rejects_failure);
	tcase_add_test(tc, failed_base_or_environment_no_verdict);
	tcase_add_test(tc, counts_require_only_counted_rows);
	tcase_add_test(tc, failed_row_by_recorded_arm);
	tcase_add_test(tc, not_measured_is_listed);
	tcase_add_test(tc, no_null_arm);
	tcase_add_test(tc, conf_rules_and_lookup);
	tcase_add_test(tc, failed_build_leaves_nothing);
	tcase_add_test(tc, metric_table_columns);
	tcase_add_test(tc, exit_note_counts_each_arm);
	tcase_add_test(tc, opts_from_the_artifact_and_bad_lists);
	tcase_add_test(tc, wall_throughput_edges);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
