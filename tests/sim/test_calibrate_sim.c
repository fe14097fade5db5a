/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_calibrate_sim.c — the formulas of `perfab calibrate` (pab_calibrate,
 * doc/method.md "Calibration") checked on seeded synthetic data (the noise
 * model of tests/sim/sim_model.h), deterministic run to run.
 *
 * For each of two noise levels (1.5% and 5% residual per arm and rep, over
 * 5% shared per rep and drift), ten A/A calibration experiments of 96 reps
 * are drawn; each is calibrated, and its two claims are tested on fresh
 * experiments of the same model, judged as a run judges them (perfab/2,
 * looks at 12, 24, 48 and 96):
 *   - at the calibrated tolerance an unchanged head PASSes by the cap in
 *     about PAB_CAL_PASS_PROB of runs (asserted: 85% on average over the
 *     ten, 75% for each — a calibration is itself an estimate);
 *   - a head worse by the MDE of the first look FAILs there in about
 *     PAB_CAL_FAIL_PROB of runs (asserted: 70% on average);
 *   - the tolerance is at most twice the paired spread it measured.
 * The table goes to stdout (the test's log).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

#define CAL_SEED 23u
#define RUN_SEED 4242u
#define CALS 10u
#define RUNS 300u

static const size_t looks[] = { 12, 24, 48, 96 };

/* Calibrate experiment c of model m (96 reps). */
static void calibrate_one(const struct sim_model *m, unsigned c, struct pab_calibration *cal)
{
	struct sim_experiment e;
	double d[SIM_MAX_REPS], h[SIM_MAX_REPS];

	sim_experiment_draw(m, CAL_SEED, c, 96, &e);
	pab_paired_changes(e.v[SIM_BASE], e.v[SIM_HEAD], 96, PAB_LOWER_IS_BETTER, d);
	pab_paired_changes(e.v[SIM_NULL], e.v[SIM_HEAD], 96, PAB_LOWER_IS_BETTER, h);
	ck_assert_int_eq(pab_calibrate(d, h, 96, looks, 4, 0.95, 2000, c, cal), 0);
	ck_assert_uint_eq(cal->n, 96);
	ck_assert_uint_eq(cal->n_looks, 4);
}

START_TEST(calibrated_tolerance_and_mde_hold)
{
	static const double sigmas[] = { 0.015, 0.05 };
	const struct sim_adaptive first_look = {
		.start_reps = 12, .step = 0, .block = 3, .max_reps = 12, .doubling = 1, .conf = 0.95,
	};
	size_t s;
	unsigned c;

	printf("calibration: %u A/A calibrations of 96 reps per noise level, each checked on "
	       "%u fresh runs\n", CALS, RUNS);
	printf("%-6s %-3s %8s %8s %8s %8s %8s %8s\n", "arm_s", "cal", "spread%", "tol%",
	       "PASS%", "mde12%", "FAIL12%", "hw96%");
	for (s = 0; s < sizeof(sigmas) / sizeof(sigmas[0]); s++) {
		struct sim_model aa = sim_noise_model(SIM_LOGNORMAL, sigmas[s], 0);
		double pass_sum = 0, pass_min = 1, fail_sum = 0;

		for (c = 0; c < CALS; c++) {
			struct pab_calibration cal;
			struct sim_model shifted;
			struct sim_tally t;
			double pass, fail;

			calibrate_one(&aa, c, &cal);
			ck_assert(isfinite(cal.tolerance) && cal.tolerance >= 0);
			ck_assert(cal.tolerance <= 2 * cal.spread);
			ck_assert_int_eq(sim_case_run(&aa, RUN_SEED + c, RUNS, &sim_default_looks,
						      PAB_RULES_PERFAB2, cal.tolerance, &t), 0);
			pass = (double)t.verdict[PAB_PASS] / RUNS;
			shifted = aa;
			shifted.shift = cal.looks[0].mde / 100.0;
			ck_assert_int_eq(sim_case_run(&shifted, RUN_SEED + 100 + c, RUNS, &first_look,
						      PAB_RULES_PERFAB2, cal.tolerance, &t), 0);
			fail = (double)t.verdict[PAB_FAIL] / RUNS;
			printf("%-6.3f %-3u %8.2f %8.2f %8.1f %8.2f %8.1f %8.2f\n", sigmas[s], c,
			       cal.spread, cal.tolerance, 100 * pass, cal.looks[0].mde, 100 * fail,
			       cal.looks[3].half_width);
			pass_sum += pass;
			fail_sum += fail;
			if (pass < pass_min)
				pass_min = pass;
			/* Half-widths shrink with the looks. */
			ck_assert(cal.looks[3].half_width < cal.looks[0].half_width);
		}
		printf("arm sigma %.3f: mean PASS %.1f%% (min %.1f%%) at the calibrated tolerance, "
		       "mean FAIL %.1f%% at the first look's MDE\n", sigmas[s], 100 * pass_sum / CALS,
		       100 * pass_min, 100 * fail_sum / CALS);
		ck_assert(pass_sum / CALS >= 0.85);
		ck_assert(pass_min >= 0.75);
		ck_assert(fail_sum / CALS >= 0.70);
	}
}
END_TEST

START_TEST(calibrate_edges)
{
	const double d[] = { 1, NAN, 2, 3 }, one[] = { 1, NAN };
	const size_t bad_looks[] = { 12, 12 };
	struct pab_calibration cal;

	ck_assert_int_eq(pab_calibrate(one, NULL, 2, looks, 4, 0.95, 10, 1, &cal), PAB_ENODATA);
	ck_assert_int_eq(pab_calibrate(d, NULL, 4, bad_looks, 2, 0.95, 10, 1, &cal), PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate(d, NULL, 4, looks, 0, 0.95, 10, 1, &cal), PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate(d, NULL, 4, looks, 4, 1.0, 10, 1, &cal), PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate(d, NULL, 4, looks, 4, 0.95, 0, 1, &cal), PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate(NULL, NULL, 4, looks, 4, 0.95, 10, 1, &cal), PAB_EINVAL);
	/* Three usable pairs: the spread is 1.4826 x MAD of {1, 2, 3} = 1.4826. */
	ck_assert_int_eq(pab_calibrate(d, NULL, 4, looks, 4, 0.95, 50, 1, &cal), 0);
	ck_assert_uint_eq(cal.n, 3);
	ck_assert(fabs(cal.spread - 1.4826) < 1e-12 && cal.median == 2);
	/* The same seed, the same answer. */
	{
		struct pab_calibration again;

		ck_assert_int_eq(pab_calibrate(d, NULL, 4, looks, 4, 0.95, 50, 1, &again), 0);
		ck_assert(again.tolerance == cal.tolerance);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("calibrate_sim");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, calibrate_edges);
	tcase_add_test(tc, calibrated_tolerance_and_mde_hold);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
