/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_stats_sim.c — statistical calibration on seeded synthetic data
 * (the model of tests/sim/sim_model.h), deterministic run to run:
 *
 *  issue #3: false alarms of unchanged heads and power on a +10% shift at
 *            fixed n, and the coverage of the sign-test interval on the
 *            true median for n from 6 to 60;
 *  issue #8: verdicts of adaptive runs under interference bursts, perfab/1
 *            against the requirements, rule12 printed beside it.
 *
 * The noise model (tests/sim/sim_model.h) has two terms: rep_sigma, shared by
 * the arms of a rep (the machine state during one rep; pairing cancels
 * it), and arm_sigma, independent per arm and rep (the residual pairing
 * cannot remove). Issue #8's model is rep_sigma 5% (its "per-rep noise,
 * sigma = 5%"), arm_sigma 1.5% (the residual measured on the project's VM,
 * rounded up), drift and bursts; doc/method.md, section 10, says why.
 *
 * Every table goes to stdout (the test's log). All six requirements of
 * issue #8 are asserted under that model; the sensitivity of the same
 * cases to arm_sigma (1.5% to 5%) is printed, not asserted.
 * tests/sim/sim_verdicts prints the same tables with other seeds, experiment
 * counts and sigmas.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim_model.h"

#define SEED 8u
#define EXPERIMENTS 1000u      /* per case, as issue #8 asks */
#define EXPERIMENTS_3 2000u    /* per case for the fixed-n checks */
#define EXPERIMENTS_COV 4000u  /* per n for coverage */

static double pct(unsigned k, unsigned n)
{
	return 100.0 * k / n;
}

/*
 * Issue #8's model: 5% noise shared by the arms of a rep, 1.5% residual
 * per arm and rep, 0.5% drift steps, one +20% burst of 3-6 reps on a
 * random arm, starting within the first 12 reps.
 */
#define REP_SIGMA8 0.05
#define ARM_SIGMA8 0.015
/* The worst case: 5% per arm and rep, independent, as if pairing removed
 * nothing (the reading of issue #8 that no 95% rule can satisfy). */
#define ARM_SIGMA_WORST 0.05

static struct sim_model model8(double shift)
{
	struct sim_model m = {
		.rep_sigma = REP_SIGMA8, .arm_sigma = ARM_SIGMA8,
		.drift_step = 0.005, .shift = shift,
		.burst = 1, .burst_factor = 1.20,
		.burst_min_len = 3, .burst_max_len = 6, .burst_start_max = 12,
	};
	return m;
}

static void run(const struct sim_model *m, const struct sim_adaptive *a,
		enum pab_rules rules, unsigned experiments, struct sim_tally *t)
{
	ck_assert_int_eq(sim_case_run(m, SEED, experiments, a, rules, 2.0, t), 0);
	ck_assert_uint_eq(t->experiments, experiments);
	ck_assert_uint_eq(t->verdict[PAB_NOT_MEASURED], 0);
}

/* ------------------------------------------------------------------ */
/* Issue #3                                                           */

/*
 * Issue #3: fixed n, no bursts ("noise and slow drift"), rep sigma 5%.
 * Issue #3 names no noise level, so each check states its own:
 *
 *  - A/A false alarms: at the issue #8 model's arm sigma (1.5%) and at the
 *    worst case (5% per arm). With one look at fixed n the FAIL rate of an
 *    unchanged head is distribution-free, so it must hold at both; at 1.5%
 *    perfab/1 also PASSes often, at 5% it mostly cannot.
 *  - Power (+10% at n = 15): asserted at arm sigma 1.5% and 2% (the level
 *    this test used before the two-term model); printed at 3% and 5%,
 *    where n = 15 is too few (doc/method.md tabulates it).
 */
START_TEST(aa_false_alarms_fixed_n)
{
	static const size_t ns[] = { 7, 12, 15, 30, 60 };
	static const double sigmas[] = { ARM_SIGMA8, ARM_SIGMA_WORST };
	size_t i, s;
	int r;

	int no_null;

	printf("issue #3: A/A at fixed n, rep sigma %.0f%%, no bursts, %u experiments each (FAIL%%, PASS%%)\n",
	       100 * REP_SIGMA8, EXPERIMENTS_3);
	for (s = 0; s < 2; s++) {
		for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
			for (no_null = 0; no_null < 2; no_null++) {
				struct sim_model m = model8(0.0);
				struct sim_adaptive fixed = { ns[i], 0, 1, ns[i], 0, 0 };
				struct sim_tally t;

				m.burst = 0;
				m.arm_sigma = sigmas[s];
				m.no_null = no_null;
				for (r = 0; r < 2; r++) {
					double fail;

					run(&m, &fixed, (enum pab_rules)r, EXPERIMENTS_3, &t);
					fail = pct(t.verdict[PAB_FAIL], t.experiments);
					printf("  arm sigma %3.1f%% n %2zu %-8s %-7s FAIL %5.1f%% PASS %5.1f%%\n",
					       100 * sigmas[s], ns[i],
					       pab_rules_name((enum pab_rules)r),
					       no_null ? "no null" : "null", fail,
					       pct(t.verdict[PAB_PASS], t.experiments));
					ck_assert_msg(fail <= 5.0, "A/A false alarms above 5%%");
					/*
					 * rule12 without a null arm fails when lo > 0, which
					 * for an unchanged head happens with probability
					 * (1 - coverage) / 2 <= 2.5%: check that it does
					 * happen about that often (at least 0.5% over 2000
					 * experiments), so a one-sided interval bug shows.
					 */
					if (no_null && r == PAB_RULES_RULE12)
						ck_assert_msg(fail >= 0.5 && fail <= 2.5 + 1.1,
							      "rule12 without null: %.2f%%", fail);
				}
			}
		}
	}
}
END_TEST

START_TEST(shift10_power_n15)
{
	static const double sigmas[] = { ARM_SIGMA8, 0.02, 0.03, ARM_SIGMA_WORST };
	struct sim_model m = model8(0.10);
	struct sim_adaptive fixed = { 15, 0, 1, 15, 0, 0 };
	struct sim_tally t;
	size_t s;
	int r;

	m.burst = 0;
	printf("issue #3: +10%% at n 15, rep sigma %.0f%%, no bursts, %u experiments\n",
	       100 * REP_SIGMA8, EXPERIMENTS_3);
	for (s = 0; s < sizeof(sigmas) / sizeof(sigmas[0]); s++) {
		/* Asserted up to 2% per arm; 3% and 5% are printed only. */
		int asserted = sigmas[s] <= 0.02;

		m.arm_sigma = sigmas[s];
		for (r = 0; r < 2; r++) {
			double fail;

			run(&m, &fixed, (enum pab_rules)r, EXPERIMENTS_3, &t);
			fail = pct(t.verdict[PAB_FAIL], t.experiments);
			printf("  arm sigma %3.1f%% %-8s FAIL %5.1f%% PASS %5.1f%%%s\n",
			       100 * sigmas[s], pab_rules_name((enum pab_rules)r),
			       fail, pct(t.verdict[PAB_PASS], t.experiments),
			       asserted ? "" : "  (not asserted)");
			if (!asserted)
				continue;
			ck_assert_msg(fail >= 95.0,
				      "+10%% at n = 15, arm sigma %.1f%%: FAIL %.1f%% < 95%%",
				      100 * sigmas[s], fail);
			ck_assert_uint_eq(t.verdict[PAB_PASS], 0);
		}
	}
}
END_TEST

START_TEST(coverage_of_true_median)
{
	/*
	 * The interval must cover the true median change in at least 95% of
	 * experiments, and its claimed coverage must be honest: observed and
	 * claimed agree within 4 standard errors (a wrong rank would break
	 * this in one direction or the other). Issue #8's model without
	 * bursts; whether an experiment covers depends only on the signs of
	 * Z_head - Z_base (sim_model.h), so the figures are the same at any
	 * sigma.
	 */
	static const size_t ns[] = { 6, 7, 9, 12, 15, 20, 25, 30, 40, 50, 60 };
	struct sim_model m = model8(0.05);
	size_t i;

	m.burst = 0;
	printf("issue #3: coverage of the true median (+5%%, rep sigma %.0f%%, arm sigma %.1f%%, no bursts), %u experiments per n\n",
	       100 * m.rep_sigma, 100 * m.arm_sigma, EXPERIMENTS_COV);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		double obs, claimed, se;

		ck_assert_int_eq(sim_coverage(&m, SEED, EXPERIMENTS_COV, ns[i],
					      0.95, &obs, &claimed), 0);
		se = sqrt(claimed * (1 - claimed) / EXPERIMENTS_COV);
		printf("  n %2zu claimed %.4f observed %.4f\n", ns[i], claimed, obs);
		ck_assert_double_ge(claimed, 0.95);
		ck_assert_msg(obs >= 0.95, "n %zu: coverage %.4f < 0.95", ns[i], obs);
		ck_assert_msg(fabs(obs - claimed) <= 4 * se,
			      "n %zu: observed %.4f vs claimed %.4f", ns[i], obs, claimed);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Issue #8                                                           */

static void print_tally(const char *label, enum pab_rules rules,
			const struct sim_tally *t)
{
	unsigned n = t->experiments;

	printf("| %-9s | %-8s | %4u %5.1f%% | %4u %5.1f%% | %4u %5.1f%% | %5.1f | %3u: %u/%u/%u |\n",
	       label, pab_rules_name(rules),
	       t->verdict[PAB_PASS], pct(t->verdict[PAB_PASS], n),
	       t->verdict[PAB_FAIL], pct(t->verdict[PAB_FAIL], n),
	       t->verdict[PAB_INCONCLUSIVE], pct(t->verdict[PAB_INCONCLUSIVE], n),
	       t->reps_sum / n, t->null_hit,
	       t->null_hit_verdict[PAB_PASS], t->null_hit_verdict[PAB_FAIL],
	       t->null_hit_verdict[PAB_INCONCLUSIVE]);
}

/* Prints one requirement; returns whether it is met. */
static int requirement(const char *what, double value, int met)
{
	printf("  %-24s %5.1f%%  %s\n", what, value, met ? "met" : "NOT MET");
	return met;
}

static const double shifts8[] = { 0.0, 0.01, 0.05, 0.10 };
static const char *const labels8[] = { "identical", "+1%", "+5%", "+10%" };
#define NSHIFTS8 (sizeof(shifts8) / sizeof(shifts8[0]))
/* 12 reps, then +5 rounded up to blocks of 3 (+6) while INCONCLUSIVE, to 60. */
static const struct sim_adaptive adaptive8 = { 12, 5, 3, 60, 0, 0 };

START_TEST(adaptive_verdicts_under_interference)
{
	struct sim_tally t[NSHIFTS8][2];
	size_t s;
	int r;

	printf("\nissue #8: rep sigma %.0f%%, arm sigma %.1f%%, drift, bursts; adaptive reps 12 (+6) .. 60, seed %u, %u experiments\n",
	       100 * REP_SIGMA8, 100 * ARM_SIGMA8, SEED, EXPERIMENTS);
	printf("| head      | rules    | PASS       | FAIL       | INCONCL.   | reps  | null burst P/F/I |\n");
	for (s = 0; s < NSHIFTS8; s++) {
		struct sim_model m = model8(shifts8[s]);

		for (r = 0; r < 2; r++) {
			run(&m, &adaptive8, (enum pab_rules)r, EXPERIMENTS, &t[s][r]);
			print_tally(labels8[s], (enum pab_rules)r, &t[s][r]);
			/* Bursts land in the first 12 reps, which every run uses. */
			ck_assert_uint_gt(t[s][r].null_hit, EXPERIMENTS / 5);
			ck_assert_double_ge(t[s][r].reps_sum, 12.0 * EXPERIMENTS);
			ck_assert_double_le(t[s][r].reps_sum, 60.0 * EXPERIMENTS);
		}
	}

#define P(s, v) pct(t[s][PAB_RULES_PERFAB1].verdict[v], EXPERIMENTS)
	printf("requirements (perfab/1, tolerance 2%%), all asserted:\n");
	ck_assert(requirement("identical: FAIL <= 5%", P(0, PAB_FAIL), P(0, PAB_FAIL) <= 5.0));
	ck_assert(requirement("identical: PASS >= 90%", P(0, PAB_PASS), P(0, PAB_PASS) >= 90.0));
	ck_assert(requirement("+1%: FAIL <= 5%", P(1, PAB_FAIL), P(1, PAB_FAIL) <= 5.0));
	ck_assert(requirement("+5%: FAIL >= 90%", P(2, PAB_FAIL), P(2, PAB_FAIL) >= 90.0));
	ck_assert(requirement("+10%: FAIL >= 95%", P(3, PAB_FAIL), P(3, PAB_FAIL) >= 95.0));
	ck_assert(requirement("+10%: PASS never", P(3, PAB_PASS),
			      t[3][PAB_RULES_PERFAB1].verdict[PAB_PASS] == 0));
#undef P
	/* "PASS never, also in experiments where a burst widens the null
	 * interval": implied by the line above, stated on its own. */
	ck_assert_uint_gt(t[3][PAB_RULES_PERFAB1].null_hit, 0);
	ck_assert_uint_eq(t[3][PAB_RULES_PERFAB1].null_hit_verdict[PAB_PASS], 0);

	/* With no credit, perfab/1's fail threshold max(tolerance, noise) is
	 * never below rule12's (the noise), so on the same data it should
	 * not raise more false alarms on an unchanged head. */
	ck_assert_uint_le(t[0][PAB_RULES_PERFAB1].verdict[PAB_FAIL],
			  t[0][PAB_RULES_RULE12].verdict[PAB_FAIL]);
	/* Monotone in the shift: bigger regressions fail more often. */
	for (s = 1; s < NSHIFTS8; s++)
		ck_assert_uint_ge(t[s][PAB_RULES_PERFAB1].verdict[PAB_FAIL],
				  t[s - 1][PAB_RULES_PERFAB1].verdict[PAB_FAIL]);
	fflush(stdout);
}
END_TEST

/*
 * Printed, not asserted: the issue #8 cases over arm sigma, rep sigma 5%,
 * both rule sets, so the log shows where perfab/1 stops deciding within 60
 * reps (at 5% per arm the 95% interval of a paired change is still about
 * +-2.2% wide at 60 reps, wider than the 2% tolerance). Only the runs
 * themselves are checked.
 */
START_TEST(sensitivity_to_arm_sigma)
{
	static const double sigmas[] = { ARM_SIGMA8, 0.02, 0.03, ARM_SIGMA_WORST };
	size_t i, s;
	int r;

	printf("\nsensitivity (A/A FAIL <= 1%%; perfab/1: +10%% never PASS, FAIL >= 95%%): issue #8 cases, rep sigma %.0f%%, adaptive to 60, %u experiments\n",
	       100 * REP_SIGMA8, EXPERIMENTS);
	printf("| arm sigma | rules    | ident. PASS | ident. FAIL | +1%% FAIL | +5%% FAIL | +10%% FAIL | +10%% PASS | undecided | reps  |\n");
	for (i = 0; i < sizeof(sigmas) / sizeof(sigmas[0]); i++) {
		for (r = 0; r < 2; r++) {
			struct sim_tally t[NSHIFTS8];
			unsigned inc = 0;
			double reps = 0.0;

			for (s = 0; s < NSHIFTS8; s++) {
				struct sim_model m = model8(shifts8[s]);

				m.arm_sigma = sigmas[i];
				run(&m, &adaptive8, (enum pab_rules)r, EXPERIMENTS, &t[s]);
				inc += t[s].verdict[PAB_INCONCLUSIVE];
				reps += t[s].reps_sum;
			}
			printf("| %8.1f%% | %-8s | %10.1f%% | %10.1f%% | %7.1f%% | %7.1f%% | %8.1f%% | %8.1f%% | %8.1f%% | %5.1f |\n",
			       100 * sigmas[i], pab_rules_name((enum pab_rules)r),
			       pct(t[0].verdict[PAB_PASS], EXPERIMENTS),
			       pct(t[0].verdict[PAB_FAIL], EXPERIMENTS),
			       pct(t[1].verdict[PAB_FAIL], EXPERIMENTS),
			       pct(t[2].verdict[PAB_FAIL], EXPERIMENTS),
			       pct(t[3].verdict[PAB_FAIL], EXPERIMENTS),
			       pct(t[3].verdict[PAB_PASS], EXPERIMENTS),
			       pct(inc, NSHIFTS8 * EXPERIMENTS),
			       reps / (NSHIFTS8 * EXPERIMENTS));
			/* Whatever the arm sigma: no false alarm on an
			 * unchanged head, under either rule set; perfab/1
			 * never PASSes a 10% regression and FAILs it nearly
			 * always (rule12's weakness, a PASS of it, is the
			 * table's point and only printed). */
			ck_assert_msg(pct(t[0].verdict[PAB_FAIL], EXPERIMENTS) <= 1.0,
				      "arm sigma %.1f%%, %s: A/A FAIL %.1f%%", 100 * sigmas[i],
				      pab_rules_name((enum pab_rules)r),
				      pct(t[0].verdict[PAB_FAIL], EXPERIMENTS));
			if ((enum pab_rules)r == PAB_RULES_PERFAB1) {
				ck_assert_msg(t[3].verdict[PAB_PASS] == 0,
					      "arm sigma %.1f%%: perfab/1 PASSed a +10%% head",
					      100 * sigmas[i]);
				ck_assert_msg(pct(t[3].verdict[PAB_FAIL], EXPERIMENTS) >= 95.0,
					      "arm sigma %.1f%%: perfab/1 FAILs +10%% in %.1f%%",
					      100 * sigmas[i], pct(t[3].verdict[PAB_FAIL], EXPERIMENTS));
			}
		}
	}
	fflush(stdout);
}
END_TEST

/*
 * The default adaptive plan (looks at 12, 24, 48, 96 reps, a plain 95%
 * interval at every look, a row stopping at its first decided look) under
 * perfab/2 with a 2% tolerance, in the five noise models of sim_model.h
 * at arm sigma 1.5% and 5%. Asserted, for every model and sigma:
 *   unchanged head (A/A):         FAIL <= 1%
 *   head exactly 2% worse:        FAIL <= 5%
 *   head 4% worse (2 tolerances): PASS <= 5%
 * (doc/method.md derives the distribution-free bound of both 5% lines,
 * 4.62%, which tests/unit/test_stats checks exactly). In the offset model head
 * and null are both 3% worse than base, so "2% worse" is against null and
 * the head-vs-null test alone must hold FAIL down.
 */
#define EXPERIMENTS_LOOKS 600u

START_TEST(error_rates_under_repeated_looks)
{
	static const double sigmas[] = { 0.015, 0.05 };
	size_t i;
	int k;

	printf("\nrepeated looks: perfab/2, tolerance 2%%, looks 12/24/48/96, 95%% per look, rep sigma 5%%, seed %u, %u experiments\n",
	       SEED, EXPERIMENTS_LOOKS);
	printf("| noise     | arm sigma | A/A FAIL | A/A PASS | A/A reps | +2%% FAIL | +4%% PASS | +4%% FAIL | +4%% reps |\n");
	for (k = 0; k < SIM_NOISE_COUNT; k++) {
		for (i = 0; i < sizeof(sigmas) / sizeof(sigmas[0]); i++) {
			struct sim_model m0 = sim_noise_model((enum sim_noise)k, sigmas[i], 0.0);
			struct sim_model m1 = sim_noise_model((enum sim_noise)k, sigmas[i], 0.02);
			struct sim_model m2 = sim_noise_model((enum sim_noise)k, sigmas[i], 0.04);
			struct sim_tally t0, t1, t2;

			run(&m0, &sim_default_looks, PAB_RULES_PERFAB2, EXPERIMENTS_LOOKS, &t0);
			run(&m1, &sim_default_looks, PAB_RULES_PERFAB2, EXPERIMENTS_LOOKS, &t1);
			run(&m2, &sim_default_looks, PAB_RULES_PERFAB2, EXPERIMENTS_LOOKS, &t2);
			printf("| %-9s | %8.1f%% | %7.2f%% | %7.1f%% | %8.1f | %7.2f%% | %7.2f%% | %7.1f%% | %8.1f |\n",
			       sim_noise_name((enum sim_noise)k), 100 * sigmas[i],
			       pct(t0.verdict[PAB_FAIL], EXPERIMENTS_LOOKS),
			       pct(t0.verdict[PAB_PASS], EXPERIMENTS_LOOKS),
			       t0.reps_sum / EXPERIMENTS_LOOKS,
			       pct(t1.verdict[PAB_FAIL], EXPERIMENTS_LOOKS),
			       pct(t2.verdict[PAB_PASS], EXPERIMENTS_LOOKS),
			       pct(t2.verdict[PAB_FAIL], EXPERIMENTS_LOOKS),
			       t2.reps_sum / EXPERIMENTS_LOOKS);
			ck_assert_double_le(pct(t0.verdict[PAB_FAIL], EXPERIMENTS_LOOKS), 1.0);
			ck_assert_double_le(pct(t1.verdict[PAB_FAIL], EXPERIMENTS_LOOKS), 5.0);
			ck_assert_double_le(pct(t2.verdict[PAB_PASS], EXPERIMENTS_LOOKS), 5.0);
			/* The plan really is adaptive: every run looks at 12
			 * first, none beyond 96. */
			ck_assert_double_ge(t0.reps_sum, 12.0 * EXPERIMENTS_LOOKS);
			ck_assert_double_le(t0.reps_sum, 96.0 * EXPERIMENTS_LOOKS);
		}
	}
	/* At the VM's arm sigma an unchanged head mostly PASSes at the first
	 * look and a clear 4% regression FAILs within two looks. */
	{
		struct sim_model m0 = sim_noise_model(SIM_LOGNORMAL, 0.015, 0.0);
		struct sim_model m2 = sim_noise_model(SIM_LOGNORMAL, 0.015, 0.04);
		struct sim_tally t0, t2;

		run(&m0, &sim_default_looks, PAB_RULES_PERFAB2, EXPERIMENTS_LOOKS, &t0);
		run(&m2, &sim_default_looks, PAB_RULES_PERFAB2, EXPERIMENTS_LOOKS, &t2);
		ck_assert_double_ge(pct(t0.verdict[PAB_PASS], EXPERIMENTS_LOOKS), 99.0);
		ck_assert_double_le(t0.reps_sum / EXPERIMENTS_LOOKS, 24.0);
		ck_assert_double_ge(pct(t2.verdict[PAB_FAIL], EXPERIMENTS_LOOKS), 99.0);
		ck_assert_double_le(t2.reps_sum / EXPERIMENTS_LOOKS, 30.0);
	}
	fflush(stdout);
}
END_TEST


/*
 * Required and guarding cells (doc/method.md, "Required and guarding
 * cells"; "Undecidable cells"), the row as the runner decides it: a
 * required cpu-like cell and a guarding wall-like one, drawn as two
 * experiments of one model each, judged at the planned looks 12/24/48/96;
 * the row stops at a look once pab_combine_roles() decides it or its
 * required cell is undecidable within the cap (pab_cell_outlook()).
 */
struct row_tally {
	unsigned verdict[4], first_look_stops, undecidable;
	double reps_sum;
};

static void run_row(const struct sim_model *req, const struct sim_model *guard,
		    int all_required, unsigned experiments, struct row_tally *t)
{
	size_t looks[8], n_looks = pab_looks_plan(12, 96, 3, looks, 8);
	unsigned x;

	memset(t, 0, sizeof(*t));
	for (x = 0; x < experiments; x++) {
		struct sim_experiment er, eg;
		enum pab_cell_role roles[2] = {
			PAB_ROLE_REQUIRED, all_required ? PAB_ROLE_REQUIRED : PAB_ROLE_GUARD,
		};
		enum pab_verdict v[2], row = PAB_INCONCLUSIVE;
		size_t k, n = 0;
		int undecidable = 0;

		sim_experiment_draw(req, SEED, 2 * x, SIM_MAX_REPS, &er);
		sim_experiment_draw(guard, SEED, 2 * x + 1, SIM_MAX_REPS, &eg);
		for (k = 0; k < n_looks; k++) {
			struct pab_cell_input in;
			struct pab_cell_result rr, rg;
			struct pab_outlook o;

			n = looks[k];
			sim_cell_input(&er, n, PAB_RULES_PERFAB2, 2.0, &in);
			ck_assert_int_eq(pab_judge_cell(&in, &rr), 0);
			sim_cell_input(&eg, n, PAB_RULES_PERFAB2, 2.0, &in);
			ck_assert_int_eq(pab_judge_cell(&in, &rg), 0);
			v[0] = rr.verdict;
			v[1] = rg.verdict;
			row = pab_combine_roles(v, roles, 2);
			if (row != PAB_INCONCLUSIVE)
				break;
			{
				/* The ledger's row rule (judge/ledger.c): a required
				 * cell out of reach, and no cell that may still FAIL. */
				struct pab_outlook og;
				int rr_out = pab_cell_outlook(&rr, 96, &o) == 1;
				int rg_out = pab_cell_outlook(&rg, 96, &og) == 1;
				int no_pass = (rr.verdict == PAB_INCONCLUSIVE && rr_out) ||
					(roles[1] == PAB_ROLE_REQUIRED &&
					 rg.verdict == PAB_INCONCLUSIVE && rg_out);
				int may_fail = (rr.verdict == PAB_INCONCLUSIVE && o.fail_reachable) ||
					(rg.verdict == PAB_INCONCLUSIVE && og.fail_reachable);

				if (no_pass && !may_fail) {
					undecidable = 1;
					break;
				}
			}
		}
		t->verdict[row]++;
		t->reps_sum += (double)n;
		t->undecidable += undecidable;
		t->first_look_stops += n == looks[0];
	}
}

START_TEST(required_and_guarding_cells)
{
	/* cpu-like: the VM's arm sigma; wall-like: 20%, the spread of the
	 * project's recorded wall-derived throughput under load. */
	struct sim_model aa_cpu = sim_noise_model(SIM_LOGNORMAL, 0.015, 0.0);
	struct sim_model aa_wall = sim_noise_model(SIM_LOGNORMAL, 0.20, 0.0);
	struct sim_model at_cpu = sim_noise_model(SIM_LOGNORMAL, 0.015, 0.02);
	struct sim_model at_wall = sim_noise_model(SIM_LOGNORMAL, 0.20, 0.02);
	struct sim_model slow_cpu = sim_noise_model(SIM_LOGNORMAL, 0.015, 0.10);
	struct sim_model noisy_cpu = sim_noise_model(SIM_LOGNORMAL, 0.30, 0.0);
	struct sim_model slow5_cpu = sim_noise_model(SIM_LOGNORMAL, 0.015, 0.05);
	struct row_tally aa, conj, at, slow, noisy, slow5;
	const unsigned n = EXPERIMENTS_LOOKS;

	run_row(&aa_cpu, &aa_wall, 0, n, &aa);
	run_row(&aa_cpu, &aa_wall, 1, n, &conj);
	run_row(&at_cpu, &at_wall, 0, n, &at);
	run_row(&slow_cpu, &aa_wall, 0, n, &slow);
	run_row(&noisy_cpu, &aa_wall, 0, n, &noisy);
	/* cpu +5% beside a required wall-like cell no cap can decide: the
	 * row must go on to the FAIL its cpu is heading for. */
	run_row(&slow5_cpu, &aa_wall, 1, n, &slow5);
	printf("  cpu +5%% beside an undecidable required cell: FAIL %.1f%%, reps %.1f\n",
	       pct(slow5.verdict[PAB_FAIL], n), slow5.reps_sum / n);
	ck_assert_double_ge(pct(slow5.verdict[PAB_FAIL], n), 95.0);
	{
		static const double sig[] = { 0.03, 0.05, 0.08 };
		size_t i;

		for (i = 0; i < 3; i++) {
			struct sim_model c = sim_noise_model(SIM_LOGNORMAL, sig[i], 0.0);
			struct row_tally t;

			run_row(&c, &aa_wall, 0, n, &t);
			printf("  A/A cpu at %.0f%%: PASS %.1f%%, undecidable %.1f%%, reps %.1f\n",
			       100 * sig[i], pct(t.verdict[PAB_PASS], n), pct(t.undecidable, n),
			       t.reps_sum / n);
			ck_assert_double_le(pct(t.verdict[PAB_FAIL], n), 1.0);
			/* A cell the cap resolves is never given up on: at 3% it
			 * PASSes as often as without the undecidable stop. */
			if (i == 0) {
				ck_assert_double_ge(pct(t.verdict[PAB_PASS], n), 85.0);
				ck_assert_double_le(pct(t.undecidable, n), 2.0);
			}
		}
	}
	printf("\nrequired cpu (1.5%%) + guarding wall (20%%), perfab/2, tolerance 2%%, looks 12..96, %u rows:\n"
	       "  A/A: PASS %.1f%% FAIL %.2f%% reps %.1f (every cell required: PASS %.1f%%)\n"
	       "  +2%%: FAIL %.2f%%; cpu +10%%: FAIL %.1f%%\n"
	       "  cpu at 30%%: undecidable %.1f%%, stopped at the first look %.1f%%, FAIL %.2f%%, reps %.1f\n",
	       n, pct(aa.verdict[PAB_PASS], n), pct(aa.verdict[PAB_FAIL], n), aa.reps_sum / n,
	       pct(conj.verdict[PAB_PASS], n), pct(at.verdict[PAB_FAIL], n),
	       pct(slow.verdict[PAB_FAIL], n), pct(noisy.undecidable, n),
	       pct(noisy.first_look_stops, n), pct(noisy.verdict[PAB_FAIL], n),
	       noisy.reps_sum / n);
	/* An unchanged head PASSes on its required cell although the guard
	 * cannot be decided; requiring every cell would hold it. */
	ck_assert_double_ge(pct(aa.verdict[PAB_PASS], n), 95.0);
	ck_assert_double_le(pct(conj.verdict[PAB_PASS], n), 50.0);
	ck_assert_double_le(pct(aa.verdict[PAB_FAIL], n), 1.0);
	ck_assert_double_le(aa.reps_sum / n, 24.0);
	/* Guards still FAIL what they prove; at the tolerance FAIL stays rare. */
	ck_assert_double_le(pct(at.verdict[PAB_FAIL], n), 5.0);
	ck_assert_double_ge(pct(slow.verdict[PAB_FAIL], n), 99.0);
	/* A required cell no cap can decide stops only when no median its
	 * interval allows could FAIL by the cap (doc/method.md §8b): a wide
	 * A/A interval could, so most such rows go on (on the median, the
	 * old rule stopped 48% at the first look and 91% in all). Some still
	 * stop, and none FAILs. */
	ck_assert_double_le(pct(noisy.first_look_stops, n), 10.0);
	ck_assert_double_ge(pct(noisy.undecidable, n), 10.0);
	ck_assert_double_le(pct(noisy.verdict[PAB_FAIL], n), 1.0);
	fflush(stdout);
}
END_TEST

/*
 * perfab/2 against perfab/1 on the same data, the fixed-n case of the
 * FAIL guard: at n = 12, +5% under the issue #8 model, the intersection-
 * union FAIL is never less powerful than perfab/1's max(allowance, noise)
 * guard by more than a few experiments, and in the shared-offset model it
 * holds FAIL at the tolerance where perfab/1 does not.
 */
START_TEST(perfab2_against_perfab1)
{
	struct sim_adaptive fixed12 = { 12, 0, 1, 12, 0, 0 };
	struct sim_adaptive fixed48 = { 48, 0, 1, 48, 0, 0 };
	struct sim_model m = model8(0.05);
	struct sim_model off = sim_noise_model(SIM_OFFSET, 0.015, 0.02);
	struct sim_tally p1, p2, o1, o2;

	run(&m, &fixed12, PAB_RULES_PERFAB1, EXPERIMENTS, &p1);
	run(&m, &fixed12, PAB_RULES_PERFAB2, EXPERIMENTS, &p2);
	run(&off, &fixed48, PAB_RULES_PERFAB1, EXPERIMENTS, &o1);
	run(&off, &fixed48, PAB_RULES_PERFAB2, EXPERIMENTS, &o2);
	printf("\nperfab/2 vs perfab/1: +5%% at n = 12 (issue #8 model) FAIL %.1f%% vs %.1f%%; "
	       "offset model, head 2%% worse than null, n = 48: FAIL %.1f%% vs %.1f%%\n",
	       pct(p2.verdict[PAB_FAIL], EXPERIMENTS), pct(p1.verdict[PAB_FAIL], EXPERIMENTS),
	       pct(o2.verdict[PAB_FAIL], EXPERIMENTS), pct(o1.verdict[PAB_FAIL], EXPERIMENTS));
	ck_assert_uint_ge(p2.verdict[PAB_FAIL] + EXPERIMENTS / 200, p1.verdict[PAB_FAIL]);
	ck_assert_double_le(pct(o2.verdict[PAB_FAIL], EXPERIMENTS), 5.0);
	ck_assert_uint_gt(o1.verdict[PAB_FAIL], o2.verdict[PAB_FAIL]);
	fflush(stdout);
}
END_TEST

static Suite *sim_suite(void)
{
	Suite *s = suite_create("stats-sim");
	TCase *tc = tcase_create("calibration");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, aa_false_alarms_fixed_n);
	tcase_add_test(tc, shift10_power_n15);
	tcase_add_test(tc, coverage_of_true_median);
	tcase_add_test(tc, adaptive_verdicts_under_interference);
	tcase_add_test(tc, sensitivity_to_arm_sigma);
	tcase_add_test(tc, error_rates_under_repeated_looks);
	tcase_add_test(tc, perfab2_against_perfab1);
	tcase_add_test(tc, required_and_guarding_cells);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sim_suite());
	int failed;

	/* No fork: the tables are printed in order with the results. */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
