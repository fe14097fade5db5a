/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_looks_fixed.c — unit tests of run/looks_fixed.c: a row stops
 * before its first look only when a cell of exact counts FAILs it and no
 * later rep counts, at the end of a block; never on a PASS, never while
 * its counting reps go on, never without a counting pass.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "judge/ledger.h"
#include "model/experiment.h"
#include "run/counting.h"
#include "run/looks_fixed.h"
#include "util.h"

#include "unit.h"

/* One row of n reps of arms base, head and null: base and null count
 * 1e8 instructions and take 1 s of cpu, head counts head_ir and takes
 * 1 s too (counted in the first `counted` reps, null after, as a run
 * leaves them); the counting reps of the run are count_reps. */
static void row_experiment(struct pab_experiment *e, size_t n, double head_ir, size_t counted,
			   size_t count_reps)
{
	static const char *const names[] = { "base", "head", "null" };
	size_t a, k;

	pab_experiment_init(e);
	e->arms = xcalloc(3, sizeof(*e->arms));
	for (a = 0; a < 3; a++)
		e->arms[a].name = xstrdup(names[a]);
	e->n_arms = 3;
	e->reps = 12;
	e->max_reps = 96;
	e->settings.count_reps = count_reps;
	/* A run that counted under valgrind and judges cpu and the counts. */
	e->settings.count_source = PAB_COUNT_SIM;
	e->settings.given |= PAB_RUN_COUNTS;
	e->judged.recorded |= PAB_JUDGED_METRICS;
	e->judged.metrics[PAB_M_CPU] = e->judged.metrics[PAB_M_INSTRUCTIONS] = 1;
	e->rows = xcalloc(1, sizeof(*e->rows));
	e->rows[0].name = xstrdup("row");
	e->n_rows = 1;
	for (k = 0; k < n; k++) {
		struct pab_rep *rep = pab_row_add_rep(&e->rows[0], 3);

		rep->block = k / 3;
		for (a = 0; a < 3; a++) {
			rep->order[a] = a;
			/* A whisker of noise: an interval, not a tie. */
			rep->result[a].m[PAB_M_CPU] = 1.0 + 1e-4 * (double)((k * 3 + a) % 5);
			if (k < counted)
				rep->result[a].m[PAB_M_INSTRUCTIONS] = a == 1 ? head_ir : 1e8;
		}
	}
}

/* pab_looks_stop_fixed on e with the first look 12: how many rows
 * stopped; *target gets row 0's target, 12 before. */
static size_t stop(struct pab_experiment *e, int active, size_t *target)
{
	struct pab_counting c;
	size_t stopped;

	*target = 12;
	pab_counting_init(&c, e, active, 1);
	stopped = pab_looks_stop_fixed(e, &c, 12, target, 1);
	pab_counting_release(&c);
	return stopped;
}

/* The ledger's verdict of row 0. */
static enum pab_verdict verdict(const struct pab_experiment *e)
{
	struct pab_ledger l;
	struct pab_ledger_opts lo;
	enum pab_verdict v;
	char *why = NULL;

	pab_ledger_opts_init(&lo, e);
	ck_assert_int_eq(pab_ledger_build(e, &lo, &l, &why), 0);
	v = pab_ledger_row_verdict(&l, 0);
	pab_ledger_release(&l);
	return v;
}

START_TEST(exact_fail_stops_after_the_counting_reps)
{
	struct pab_experiment e;
	size_t target;

	/* Counts +5%, counted in reps 1-3 of 3 counting reps: fixed. */
	row_experiment(&e, 3, 1.05e8, 3, 3);
	ck_assert_int_eq(verdict(&e), PAB_FAIL);
	ck_assert_uint_eq(stop(&e, 1, &target), 1);
	ck_assert_uint_eq(target, 3);
	/* Without a counting pass (counts from a PMU, every rep): no. */
	ck_assert_uint_eq(stop(&e, 0, &target), 0);
	ck_assert_uint_eq(target, 12);
	pab_experiment_release(&e);

	/* The same FAIL while the row's counting reps go on (6): no. */
	row_experiment(&e, 3, 1.05e8, 3, 6);
	ck_assert_int_eq(verdict(&e), PAB_FAIL);
	ck_assert_uint_eq(stop(&e, 1, &target), 0);
	ck_assert_uint_eq(target, 12);
	pab_experiment_release(&e);

	/* Counted in reps 1-3 of 3 and asked again at the next block end
	 * (6 reps): its counts were settled at 3, where it was asked, and
	 * nothing that decides the question has moved since: not asked
	 * again (the ledger is not built at every block end). */
	row_experiment(&e, 6, 1.05e8, 3, 3);
	ck_assert_int_eq(verdict(&e), PAB_FAIL);
	ck_assert_uint_eq(stop(&e, 1, &target), 0);
	ck_assert_uint_eq(target, 12);
	pab_experiment_release(&e);

	/* Counts that settle later (4 counting reps): first asked at the
	 * block end after the last counting rep, 6. */
	row_experiment(&e, 6, 1.05e8, 4, 4);
	ck_assert_uint_eq(stop(&e, 1, &target), 1);
	ck_assert_uint_eq(target, 6);
	pab_experiment_release(&e);

	/* Mid-block (4 reps): the rotation stays balanced, no. */
	row_experiment(&e, 4, 1.05e8, 3, 3);
	ck_assert_uint_eq(stop(&e, 1, &target), 0);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(pass_never_stops_early)
{
	struct pab_experiment e;
	size_t target;

	/* Equal counts and cpu within a whisker at 6 reps: the ledger PASSes
	 * (the cpu guard has its interval), yet the row goes on to 12. */
	row_experiment(&e, 6, 1e8, 3, 3);
	ck_assert_int_eq(verdict(&e), PAB_PASS);
	ck_assert_uint_eq(stop(&e, 1, &target), 0);
	ck_assert_uint_eq(target, 12);
	pab_experiment_release(&e);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("looks-fixed");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, exact_fail_stops_after_the_counting_reps);
	tcase_add_test(tc, pass_never_stops_early);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
