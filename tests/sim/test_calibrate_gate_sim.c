/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_calibrate_gate_sim.c — `perfab calibrate` keeps its word on a
 * gate: a calibration sized for the gate (doc/method.md §14) makes an
 * unchanged gate of 4 rows PASS by 48 reps in at least 90%, as the file
 * says, on seeded gates judged by perfab's own ledger at the runner's
 * looks (tests/sim/gate_model.h), deterministic and independent of the
 * machine.
 *
 * Each of CALIBRATIONS A/A runs of the gate (96 reps, busy noise: cpu cv
 * 3%, wall cv 6%; no counts, so cpu is the required cell) is calibrated
 * by pab_calibration_build, and its cpu tolerance — the larger of it and
 * the declared 2%, as run --calibration takes it — judges CAL_GATES
 * fresh unchanged gates of the same machine. Asserted: the gate PASSes by
 * 48 reps in >= 90% on average over the calibrations and in >= 75% for
 * each (one calibration is an estimate: tests/sim/test_calibrate_sim
 * shows its spread), and never FAILs. Printed beside it: the rule before
 * (per row 90% by the cap, the largest over the rows), from the same A/A
 * runs, and what its tolerance gives the same gates.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gate_model.h"
#include "store/calibration.h"

#define SEED 35u
#define CALIBRATIONS 8u
#define CAL_GATES 100u
#define DECLARED_PCT 2.0        /* cpu's default tolerance */

static double pct(unsigned k, unsigned n)
{
	return n ? 100.0 * k / n : 0.0;
}

/* An unchanged 4-row gate at busy noise without counts. */
static struct gate_case busy_gate(void)
{
	struct gate_case c;

	memset(&c, 0, sizeof(c));
	c.noise = gate_busy;
	c.kind = SIM_LOGNORMAL;
	c.rows = 4;
	return c;
}

/* The rule before: per row pab_calibrate (90% by the last look), the
 * largest over the rows, as pab_calibration_build computed it. */
static double old_cpu_tolerance(const struct pab_experiment *e)
{
	size_t looks[8], n_looks = pab_looks_plan(12, e->max_reps, e->n_arms, looks, 8), r, i;
	double tol = 0;

	for (r = 0; r < e->n_rows; r++) {
		const struct pab_row *row = &e->rows[r];
		double d[GATE_REPS], h[GATE_REPS];
		struct pab_calibration pc;

		ck_assert_uint_le(row->n_reps, GATE_REPS);
		for (i = 0; i < row->n_reps; i++) {
			const struct pab_arm_result *x = row->reps[i].result;

			d[i] = pab_percent_worse(x[SIM_BASE].m[PAB_M_CPU], x[SIM_HEAD].m[PAB_M_CPU],
						 PAB_LOWER_IS_BETTER);
			h[i] = pab_percent_worse(x[SIM_NULL].m[PAB_M_CPU], x[SIM_HEAD].m[PAB_M_CPU],
						 PAB_LOWER_IS_BETTER);
		}
		ck_assert_int_eq(pab_calibrate(d, h, row->n_reps, looks, n_looks, 0.95,
					       PAB_CALIBRATION_SIMS, e->seed + PAB_M_CPU, &pc), 0);
		tol = pc.tolerance > tol ? pc.tolerance : tol;
	}
	return tol;
}

/* The cpu tolerance of A/A run k's calibration, now and before. */
static void calibrate(unsigned k, double *now, double *before)
{
	const struct gate_case aa = busy_gate();
	int judged[PAB_M_COUNT] = { 0 };
	struct pab_experiment e;
	const cJSON *ex, *tol;
	char *why = NULL;
	cJSON *cal;

	gate_experiment(&aa, SEED, 1000000 + k, &e);
	judged[PAB_M_CPU] = 1;
	cal = pab_calibration_build(&e, judged, 12, NULL, &why);
	ck_assert_msg(cal != NULL, "calibration: %s", why ? why : "?");
	ex = cJSON_GetObjectItemCaseSensitive(cal, "experiment");
	tol = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cal, "tolerance"),
					       "cpu");
	ck_assert(cJSON_IsNumber(tol));
	*now = tol->valuedouble;
	*before = old_cpu_tolerance(&e);
	if (k == 0)
		printf("  its definition: %s\n  for: %g rows by %g reps, each %.4f, the gate %g\n",
		       cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cal, "definition")),
		       cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ex, "gate_rows")),
		       cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ex, "by_reps")),
		       cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ex, "pass_prob")),
		       cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ex, "gate_pass_prob")));
	cJSON_Delete(cal);
	pab_experiment_release(&e);
}

/* The share of CAL_GATES unchanged gates that PASS by 48 reps with cpu's
 * tolerance at tol (no less than the declared), and their FAILs. */
static double pass_by_48(double tol, unsigned *fails)
{
	struct gate_case c = busy_gate();
	struct gate_tally t;

	c.cpu_tolerance = tol > DECLARED_PCT ? tol : DECLARED_PCT;
	ck_assert_int_eq(gate_tally_run(&c, SEED, CAL_GATES, &t), 0);
	ck_assert_uint_eq(t.gates, CAL_GATES);
	*fails = t.overall[PAB_FAIL];
	return pct(t.pass_by_48, t.gates);
}

START_TEST(calibrated_gate_passes_by_48)
{
	double sum = 0, least = 100, tol_sum = 0, old_sum = 0, old_by48_sum = 0;
	unsigned k, fails;

	printf("calibrated 4-row gate, busy, counts off, seed %u, %u calibrations, "
	       "%u gates each\n", SEED, CALIBRATIONS, CAL_GATES);
	for (k = 0; k < CALIBRATIONS; k++) {
		double now, old, by48, old_by48;

		calibrate(k, &now, &old);
		if (k == 0)
			printf("| A/A run | cpu tolerance | gate PASS by 48 | before: tolerance | "
			       "gate PASS by 48 |\n");
		by48 = pass_by_48(now, &fails);
		ck_assert_uint_eq(fails, 0);
		old_by48 = pass_by_48(old, &fails);
		printf("| %7u | %12.2f%% | %14.1f%% | %16.2f%% | %14.1f%% |\n", k, now, by48, old,
		       old_by48);
		fflush(stdout);
		sum += by48;
		least = by48 < least ? by48 : least;
		tol_sum += now;
		old_sum += old;
		old_by48_sum += old_by48;
	}
	printf("  mean: cpu tolerance %.2f%%, gate PASS by 48 %.1f%% (least %.1f%%); "
	       "before: %.2f%%, %.1f%%\n", tol_sum / CALIBRATIONS, sum / CALIBRATIONS, least,
	       old_sum / CALIBRATIONS, old_by48_sum / CALIBRATIONS);
	ck_assert_msg(sum / CALIBRATIONS >= 90.0, "calibrated gate PASSes by 48 in %.1f%% on "
		      "average, not >= 90%%", sum / CALIBRATIONS);
	ck_assert_msg(least >= 75.0, "a calibrated gate PASSes by 48 in %.1f%%, not >= 75%%",
		      least);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("calibrate-gate-sim");
	TCase *tc = tcase_create("gate");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, calibrated_gate_passes_by_48);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
