/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_drift_sim.c — the coverage of the chained interval
 * (pab_chain_steps, doc/method.md "Drift"), by seeded simulation: each
 * history is K merges, each merge n paired reps whose percent changes are
 * (exp(d_i + e) - 1) * 100 with a true per-merge log shift d_i and noise
 * e; each merge is judged as the ledger does (pab_sign_interval of the
 * paired changes at 95%), the merges are chained, and the interval must
 * hold the true chained change exp(sum d_i) - 1 in at least 94% of the
 * histories, for normal and heavy-tailed noise, short and long histories,
 * small and larger n. Prints the table doc/method.md quotes.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "drift.h"
#include "pab_stats.h"

#define HISTORIES 2000

struct config {
	size_t merges, n;
	double sigma;   /* noise scale on the log scale */
	int heavy;      /* 1: Student t with 3 degrees of freedom */
};

/* A t(3) deviate scaled to sigma, or a normal one. */
static double noise(struct pab_pcg32 *rng, const struct config *c)
{
	double z = pab_pcg32_normal(rng), chi = 0.0;
	int k;

	if (!c->heavy)
		return c->sigma * z;
	for (k = 0; k < 3; k++) {
		double u = pab_pcg32_normal(rng);

		chi += u * u;
	}
	return c->sigma * z / sqrt(chi / 3.0);
}

/* The share of HISTORIES histories whose interval holds the truth. */
static double coverage(const struct config *c, uint64_t seed, double *mean_width)
{
	struct pab_pcg32 rng;
	struct pab_step *steps = calloc(c->merges, sizeof(*steps));
	double *x = calloc(c->n, sizeof(*x)), width = 0.0;
	size_t h, i, j, covered = 0;

	ck_assert(steps && x);
	pab_pcg32_seed(&rng, seed, 3);
	for (h = 0; h < HISTORIES; h++) {
		struct pab_chain ch;
		double truth = 0.0;

		for (i = 0; i < c->merges; i++) {
			/* Most merges change little; some by a few percent. */
			double d = 0.01 * pab_pcg32_normal(&rng);
			struct pab_interval iv;

			truth += d;
			for (j = 0; j < c->n; j++)
				x[j] = expm1(d + noise(&rng, c)) * 100.0;
			ck_assert_int_eq(pab_sign_interval(x, c->n, 0.95, &iv), 0);
			steps[i].change_pct = iv.median;
			steps[i].lo_pct = iv.lo;
			steps[i].hi_pct = iv.hi;
			steps[i].coverage = iv.coverage;
		}
		ck_assert_int_eq(pab_chain_steps(steps, c->merges, 0.95, &ch), 0);
		ck_assert_uint_eq(ch.n, c->merges);
		truth = expm1(truth) * 100.0;
		covered += ch.lo_pct <= truth && truth <= ch.hi_pct;
		width += ch.hi_pct - ch.lo_pct;
	}
	free(x);
	free(steps);
	*mean_width = width / HISTORIES;
	return (double)covered / HISTORIES;
}

START_TEST(drift_interval_covers)
{
	static const struct config configs[] = {
		{ 5, 6, 0.02, 0 },   { 5, 12, 0.02, 0 },  { 23, 12, 0.02, 0 },
		{ 23, 24, 0.05, 0 }, { 50, 12, 0.01, 0 }, { 23, 12, 0.02, 1 },
		{ 50, 24, 0.05, 1 }, { 100, 6, 0.02, 0 },
	};
	size_t i;

	printf("drift interval coverage, %d seeded histories each (doc/method.md, Drift)\n",
	       HISTORIES);
	printf("%7s %4s %6s %-7s %9s %12s\n", "merges", "n", "sigma", "noise", "coverage",
	       "mean width");
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		const struct config *c = &configs[i];
		double w, cov = coverage(c, 1000 + i, &w);

		printf("%7zu %4zu %6.2f %-7s %8.1f%% %11.2f%%\n", c->merges, c->n, c->sigma,
		       c->heavy ? "t(3)" : "normal", 100.0 * cov, w);
		ck_assert_msg(cov >= 0.94, "coverage %.3f < 0.94 for %zu merges of n = %zu",
			      cov, c->merges, c->n);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("drift_sim");
	TCase *tc = tcase_create("coverage");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, drift_interval_covers);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
