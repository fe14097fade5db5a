/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_gate_sim.c — the promises of the gate's rules, on seeded gates
 * judged by perfab's own ledger at the runner's looks (tests/sim/
 * gate_model.h), deterministic and independent of the machine:
 *
 *  - an unchanged gate of 4 rows never FAILs (<= 1%) and, with exact
 *    counts, PASSes by 48 reps (>= 90% busy, >= 80% loaded); without
 *    counts the figure is printed: cpu at +-2% cannot do it at busy noise
 *    (doc/method.md §8a);
 *  - a head exactly at the tolerance FAILs <= 5%;
 *  - a +5% cpu regression with unchanged instruction counts does not
 *    PASS (<= 5%, busy and loaded) and FAILs (>= 90% busy): counts never
 *    hide a time regression (doc/method.md §8a, time guards), and the
 *    default guard tolerance is where that holds at the least cost
 *    (printed for 3, 3.5, 4 and 5%);
 *  - a real +5% regression is not lost to the undecidable stop (<= 1% of
 *    rows, at every noise level and kind; doc/method.md §8b).
 *
 * The noise levels are the gate model's quiet, busy (cpu cv 3%) and
 * loaded (wall cv 20%). Every table goes to the test's log.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate_model.h"

#define SEED 35u
#define GATES 300u              /* gates of 4 rows per case */

static double pct(unsigned k, unsigned n)
{
	return n ? 100.0 * k / n : 0.0;
}

/* Targets not met in the current test: each is printed when it is
 * checked, and the test fails at its end, so the log shows every one. */
static unsigned unmet;

static void target(int met, const char *what, const char *noise, double value)
{
	if (!met) {
		printf("  NOT MET: %s (%s): %.1f%%\n", what, noise, value);
		unmet++;
	}
}

static const struct gate_noise *const levels[] = { &gate_quiet, &gate_busy, &gate_loaded };
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

static struct gate_case gate4(const struct gate_noise *n, double time_shift, int counts)
{
	struct gate_case c;

	memset(&c, 0, sizeof(c));
	c.noise = *n;
	c.kind = SIM_LOGNORMAL;
	c.rows = 4;
	c.time_shift = time_shift;
	c.counts = counts;
	return c;
}

static void tally(const struct gate_case *c, unsigned gates, struct gate_tally *t)
{
	ck_assert_int_eq(gate_tally_run(c, SEED, gates, t), 0);
	ck_assert_uint_eq(t->gates, gates);
}

/*
 * An unchanged gate and a head exactly at the tolerance, with counts and
 * without, at each noise level: A/A FAIL <= 1% (gates), FAIL at the
 * tolerance <= 5% (rows), and with counts PASS by 48 reps >= 90% busy and
 * >= 80% loaded (gates). Without counts cpu is required at +-2%: at cpu
 * cv 3% a row PASSes by 48 reps about 70% of the time, a gate of four
 * about a quarter, which no valid test improves much (doc/method.md
 * §8a): printed, not asserted.
 */
START_TEST(unchanged_gate)
{
	/* The run's configurations: without counts (cpu required), with
	 * counts (instructions required, cpu a time guard), and without
	 * counts requiring the workload's wall-derived throughput too. */
	static const struct { int counts; const char *require, *label; } cfg[] = {
		{ 0, NULL, "off" }, { 1, NULL, "on" }, { 0, "cpu,throughput", "off, cpu+tput" },
	};
	size_t i, k;

	unmet = 0;

	printf("unchanged 4-row gate, tolerance 2%%, looks 12/24/48/96, seed %u, %u gates\n",
	       SEED, GATES);
	printf("| noise  | counts        | A/A FAIL | PASS by 48 | PASS | row PASS by 48 | row reps | undecidable rows | +2%% row FAIL |\n");
	for (i = 0; i < NLEVELS; i++)
		for (k = 0; k < sizeof(cfg) / sizeof(cfg[0]); k++) {
			struct gate_case aa = gate4(levels[i], 0.0, cfg[k].counts);
			struct gate_case at = gate4(levels[i], 0.02, cfg[k].counts);
			struct gate_tally t0, t2;
			double fail, by48, atfail;

			aa.require = at.require = cfg[k].require;
			tally(&aa, GATES, &t0);
			tally(&at, GATES, &t2);
			fail = pct(t0.overall[PAB_FAIL], t0.gates);
			by48 = pct(t0.pass_by_48, t0.gates);
			atfail = pct(t2.row_verdict[PAB_FAIL], t2.rows);
			printf("| %-6s | %-13s | %7.1f%% | %9.1f%% | %5.1f%% | %13.1f%% | %8.1f | %15.1f%% | %11.1f%% |\n",
			       levels[i]->name, cfg[k].label, fail, by48,
			       pct(t0.overall[PAB_PASS], t0.gates),
			       pct(t0.row_pass_by_48, t0.rows), t0.reps_sum / t0.rows,
			       pct(t0.row_undecidable, t0.rows), atfail);
			fflush(stdout);
			target(fail <= 1.0, "A/A gate FAIL <= 1%", levels[i]->name, fail);
			target(atfail <= 5.0, "row FAIL at the tolerance <= 5%", levels[i]->name,
			       atfail);
			if (cfg[k].counts && levels[i] == &gate_busy)
				target(by48 >= 90.0, "PASS by 48 >= 90%, counts on", levels[i]->name,
				       by48);
			if (cfg[k].counts && levels[i] == &gate_loaded)
				target(by48 >= 80.0, "PASS by 48 >= 80%, counts on", levels[i]->name,
				       by48);
			/* Without counts cpu alone is required: a row PASSes by 48
			 * far more often than when its wall-derived throughput is
			 * required too. */
			if (!cfg[k].counts && !cfg[k].require && levels[i] != &gate_quiet)
				target(pct(t0.row_pass_by_48, t0.rows) >= 60.0,
				       "counts off: row PASS by 48 >= 60%", levels[i]->name,
				       pct(t0.row_pass_by_48, t0.rows));
		}
	ck_assert_uint_eq(unmet, 0);
}
END_TEST

/*
 * A +5% cpu regression with unchanged instruction counts (a cache, lock
 * or I/O change): with counts, instructions are the required cell and
 * cpu guards; the row must not PASS (<= 5% of rows, busy and loaded) and
 * must FAIL (>= 90% of rows busy).
 */
START_TEST(counts_hide_no_time_regression)
{
	size_t i;

	unmet = 0;

	printf("\n+5%% cpu, unchanged counts, counts on, seed %u, %u gates of 4 rows\n", SEED, GATES);
	printf("| noise  | row PASS | row FAIL | row INCONCL. | undecidable | row reps |\n");
	for (i = 0; i < NLEVELS; i++) {
		struct gate_case c = gate4(levels[i], 0.05, 1);
		struct gate_tally t;
		double pass, fail;

		tally(&c, GATES, &t);
		pass = pct(t.row_verdict[PAB_PASS], t.rows);
		fail = pct(t.row_verdict[PAB_FAIL], t.rows);
		printf("| %-6s | %7.1f%% | %7.1f%% | %11.1f%% | %10.1f%% | %8.1f |\n",
		       levels[i]->name, pass, fail, pct(t.row_verdict[PAB_INCONCLUSIVE], t.rows),
		       pct(t.row_undecidable, t.rows), t.reps_sum / t.rows);
		fflush(stdout);
		target(pass <= 5.0, "+5% cpu, equal counts: row PASS <= 5%", levels[i]->name, pass);
		if (levels[i] != &gate_loaded)
			target(fail >= 90.0, "+5% cpu, equal counts: row FAIL >= 90%",
			       levels[i]->name, fail);
	}
	ck_assert_uint_eq(unmet, 0);
}
END_TEST

/*
 * A real +5% regression (cpu, wall, throughput; no counts) is not lost to
 * the undecidable stop: the rows that FAIL when every row runs to the
 * cap but not with the stop are <= 1% of rows, at every noise level and
 * every noise kind of sim_model.h, with the default required set and
 * with throughput required (--require cpu,throughput).
 */
START_TEST(undecidable_stop_loses_no_regression)
{
	static const char *const requires[] = { NULL, "cpu,throughput" };
	size_t i, q;
	int kind;

	unmet = 0;

	printf("\n+5%% regression lost to the undecidable stop, no counts, seed %u, %u gates of 4 rows\n",
	       SEED, GATES / 2);
	printf("| noise  | kind      | require        | FAIL to the cap | FAIL | lost | undecidable |\n");
	for (q = 0; q < 2; q++)
		for (i = 0; i < NLEVELS; i++)
			for (kind = 0; kind < SIM_NOISE_COUNT; kind++) {
				struct gate_case c = gate4(levels[i], 0.05, 0);
				struct gate_case ref;
				unsigned g, rows = 0, fail = 0, fail_ref = 0, lost = 0, und = 0;

				c.kind = (enum sim_noise)kind;
				c.require = requires[q];
				ref = c;
				ref.no_undecidable_stop = 1;
				for (g = 0; g < GATES / 2; g++) {
					struct gate_result a, b;
					size_t k;

					ck_assert_int_eq(gate_run(&c, SEED, g, &a), 0);
					ck_assert_int_eq(gate_run(&ref, SEED, g, &b), 0);
					for (k = 0; k < c.rows; k++) {
						rows++;
						fail += a.row[k] == PAB_FAIL;
						fail_ref += b.row[k] == PAB_FAIL;
						lost += b.row[k] == PAB_FAIL && a.row[k] != PAB_FAIL;
						und += a.undecidable[k];
					}
				}
				printf("| %-6s | %-9s | %-14s | %14.1f%% | %4.1f%% | %4.1f%% | %10.1f%% |\n",
				       levels[i]->name, sim_noise_name((enum sim_noise)kind),
				       requires[q] ? requires[q] : "(default)", pct(fail_ref, rows),
				       pct(fail, rows), pct(lost, rows), pct(und, rows));
				fflush(stdout);
				target(pct(lost, rows) <= 1.0, "+5% rows lost to the undecidable stop <= 1%",
				       levels[i]->name, pct(lost, rows));
			}
	ck_assert_uint_eq(unmet, 0);
}
END_TEST

/*
 * The guard tolerance's choice (doc/method.md §8a): with counts, at busy
 * and loaded noise, an unchanged gate's PASS by 48 reps, and the rows of a
 * cpu regression exactly at the guard tolerance and of +5% that PASS.
 * Printed for 3, 3.5, 4 and 5%; asserted at the default: a regression at
 * the guard tolerance PASSes about as often as the sequential bound of
 * 4.62% allows (<= 6.5% of 600 rows), +5% <= 5%.
 */
START_TEST(guard_tolerance_choice)
{
	static const double gs[] = { 3.0, 3.5, 4.0, 5.0 };
	const unsigned gates = GATES / 2;
	size_t i, k;

	unmet = 0;
	printf("\nguard tolerance, counts on, unchanged counts, seed %u, %u gates of 4 rows\n",
	       SEED, gates);
	printf("| guard tolerance | noise  | A/A PASS by 48 | A/A row reps | +3%% row PASS | +G row PASS | +5%% row PASS | +5%% row reps |\n");
	for (k = 0; k < sizeof(gs) / sizeof(gs[0]); k++)
		for (i = 1; i < NLEVELS; i++) {
			struct gate_case aa = gate4(levels[i], 0.0, 1);
			struct gate_case atg, at5, at3;
			struct gate_tally t0, tg, t5, t3;
			int dflt = gs[k] == PAB_RUN_GUARD_TOLERANCE_DEFAULT;

			aa.guard_tolerance = gs[k];
			atg = aa;
			atg.time_shift = gs[k] / 100.0;
			at5 = aa;
			at5.time_shift = 0.05;
			at3 = aa;
			at3.time_shift = 0.03;
			tally(&aa, gates, &t0);
			tally(&at3, gates, &t3);
			tally(&atg, gates, &tg);
			tally(&at5, gates, &t5);
			printf("| %14.1f%% | %-6s | %13.1f%% | %12.1f | %11.1f%% | %10.1f%% | %11.1f%% | %12.1f |%s\n",
			       gs[k], levels[i]->name, pct(t0.pass_by_48, t0.gates),
			       t0.reps_sum / t0.rows, pct(t3.row_verdict[PAB_PASS], t3.rows),
			       pct(tg.row_verdict[PAB_PASS], tg.rows),
			       pct(t5.row_verdict[PAB_PASS], t5.rows), t5.reps_sum / t5.rows,
			       dflt ? " default" : "");
			fflush(stdout);
			if (!dflt)
				continue;
			target(pct(tg.row_verdict[PAB_PASS], tg.rows) <= 6.5,
			       "a cpu regression at the guard tolerance: row PASS <= 6.5%",
			       levels[i]->name, pct(tg.row_verdict[PAB_PASS], tg.rows));
			target(pct(t5.row_verdict[PAB_PASS], t5.rows) <= 5.0,
			       "+5% cpu: row PASS <= 5%", levels[i]->name,
			       pct(t5.row_verdict[PAB_PASS], t5.rows));
		}
	ck_assert_uint_eq(unmet, 0);
}
END_TEST

/*
 * Drift over chained merges (doc/method.md §11), each merge recorded as a
 * real run records it: one row measured at the runner's looks and
 * stopped at its first decided look by the ledger, its cpu cell taken
 * into the history by pab_history_cells_of, the merges chained by
 * pab_chain_steps. Each merge's true change is lognormal, sd 1% (log), at
 * busy noise (cpu cv 3%), without counts. The chained 95% interval must
 * cover the true chained change, exp(sum d) - 1, in >= 93% of histories
 * of 10, 50 and 200 merges; its mean error is printed (a stopping rule
 * that records a run's change where it stopped biases it).
 */
#define DRIFT_HISTORIES 60u

START_TEST(drift_of_adaptive_merges)
{
	static const size_t ks[] = { 10, 50, 200 };
	struct gate_case c = gate4(&gate_busy, 0.0, 0);
	size_t i;

	unmet = 0;
	c.rows = 1;
	c.metrics = "cpu";
	printf("\ndrift of merges stopped adaptively, recorded as runs record them: busy, cpu, true change sd 1%%/merge, seed %u, %u histories\n",
	       SEED, DRIFT_HISTORIES);
	printf("| merges | coverage | mean error (points) | mean width | DRIFT | GAIN | truly past +2%% | truly past -2%% |\n");
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		unsigned h, covered = 0, drift = 0, gain = 0, up = 0, down = 0;
		double err = 0, width = 0;

		for (h = 0; h < DRIFT_HISTORIES; h++) {
			struct pab_step steps[200];
			struct pab_pcg32 rng;
			struct pab_chain ch;
			double sum = 0, truth;
			size_t k;

			pab_pcg32_seed(&rng, SEED, (UINT64_C(1) << 40) + 1000 * i + h);
			for (k = 0; k < ks[i]; k++) {
				struct gate_result g;
				double d = 0.01 * pab_pcg32_normal(&rng);

				sum += d;
				c.time_shift = exp(d) - 1.0;
				ck_assert_int_eq(gate_run_recorded(&c, SEED, (1000 * i + h) * 256 + k,
								   PAB_M_CPU, &g, &steps[k]), 0);
			}
			ck_assert_int_eq(pab_chain_steps(steps, ks[i], 0.95, &ch), 0);
			truth = 100.0 * (exp(sum) - 1.0);
			covered += ch.lo_pct <= truth && truth <= ch.hi_pct;
			err += ch.change_pct - truth;
			width += ch.hi_pct - ch.lo_pct;
			drift += ch.lo_pct > 2.0;
			gain += ch.hi_pct < -2.0;
			up += truth > 2.0;
			down += truth < -2.0;
		}
		printf("| %6zu | %7.1f%% | %19.2f | %9.2f%% | %4.1f%% | %4.1f%% | %13.1f%% | %13.1f%% |\n",
		       ks[i], pct(covered, DRIFT_HISTORIES), err / DRIFT_HISTORIES,
		       width / DRIFT_HISTORIES, pct(drift, DRIFT_HISTORIES),
		       pct(gain, DRIFT_HISTORIES), pct(up, DRIFT_HISTORIES),
		       pct(down, DRIFT_HISTORIES));
		fflush(stdout);
		target(pct(covered, DRIFT_HISTORIES) >= 93.0, "chained coverage >= 93%", "busy",
		       pct(covered, DRIFT_HISTORIES));
	}
	ck_assert_uint_eq(unmet, 0);
}
END_TEST

static Suite *gate_suite(void)
{
	Suite *s = suite_create("gate-sim");
	TCase *tc = tcase_create("promises");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, unchanged_gate);
	tcase_add_test(tc, counts_hide_no_time_regression);
	tcase_add_test(tc, guard_tolerance_choice);
	tcase_add_test(tc, drift_of_adaptive_merges);
	tcase_add_test(tc, undecidable_stop_loses_no_regression);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(gate_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
