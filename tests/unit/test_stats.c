/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_stats.c — unit tests of the statistics library against values
 * computed independently: exact binomial sums (tests/data/signtest_ref.tsv,
 * from tests/data/gen_signtest_ref.py), R / Python type-7 quantiles, the
 * pcg32-demo vector, and the worked examples of doc/method.md §5 and §7.
 * Edge cases: n < 6, ties, zeros, NaN, infinities, a base of 0.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "drift.h"
#include "pab_stats.h"

#define TOL 1e-12
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* PCG32                                                              */

START_TEST(pcg32_reference_vector)
{
	/* pcg32-demo (pcg-random.org, pcg-c-basic): pcg32_srandom_r(&rng,
	 * 42u, 54u), then the first six outputs. */
	static const uint32_t want[] = {
		0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
		0x83d2f293u, 0xbfa4784bu, 0xcbed606eu,
	};
	struct pab_pcg32 rng;
	size_t i;

	pab_pcg32_seed(&rng, 42u, 54u);
	ck_assert_uint_eq(rng.inc, 109u);
	ck_assert_uint_eq(rng.state, 1753877967969059832ull);
	for (i = 0; i < NELEMS(want); i++)
		ck_assert_uint_eq(pab_pcg32_next(&rng), want[i]);
}
END_TEST

/* The bounded and double draws on the reference stream, exactly: a
 * bound of 0 or 1 draws nothing; the threshold itself is accepted (bound
 * 2^32 - r makes the stream's second output r the threshold); a double is
 * 27 + 26 bits of two outputs. */
START_TEST(pcg32_bounded_and_double_exact)
{
	struct pab_pcg32 rng;
	uint32_t r0 = 0x7b47f409u;
	int seen[2] = { 0, 0 }, i;

	pab_pcg32_seed(&rng, 42u, 54u);
	ck_assert_uint_eq(pab_pcg32_bounded(&rng, 0), 0);
	ck_assert_uint_eq(pab_pcg32_bounded(&rng, 1), 0);
	ck_assert_uint_eq(pab_pcg32_next(&rng), 0xa15c02b7u); /* nothing drawn */
	ck_assert_uint_eq(pab_pcg32_bounded(&rng, 0u - r0), r0);
	ck_assert_uint_eq(pab_pcg32_next(&rng), 0xba1d3330u);
	pab_pcg32_seed(&rng, 42u, 54u);
	ck_assert_double_eq(pab_pcg32_double(&rng),
			    ((double)(0xa15c02b7u >> 5) * 67108864.0 + (double)(0x7b47f409u >> 6)) /
			    9007199254740992.0);
	for (i = 0; i < 64; i++)
		seen[pab_pcg32_bounded(&rng, 2)]++;
	ck_assert(seen[0] > 0 && seen[1] > 0);
	/* A bound of 2^31 + 1 rejects the outputs below 2^32 mod bound =
	 * 2^31 - 1: the stream's first is taken, its second (0x7b47f409) is
	 * below the threshold and drawn again, its third taken. */
	pab_pcg32_seed(&rng, 42u, 54u);
	ck_assert_uint_eq(pab_pcg32_bounded(&rng, 0x80000001u), 0xa15c02b7u - 0x80000001u);
	ck_assert_uint_eq(pab_pcg32_bounded(&rng, 0x80000001u), 0xba1d3330u - 0x80000001u);
	ck_assert_uint_eq(pab_pcg32_next(&rng), 0x83d2f293u);
}
END_TEST

START_TEST(pcg32_streams_differ)
{
	struct pab_pcg32 a, b;
	int same = 0, i;

	pab_pcg32_seed(&a, 7, 1);
	pab_pcg32_seed(&b, 7, 2);
	for (i = 0; i < 64; i++)
		same += pab_pcg32_next(&a) == pab_pcg32_next(&b);
	ck_assert_int_lt(same, 2);
}
END_TEST

START_TEST(pcg32_bounded_uniform)
{
	/* Chi-square on 6 cells, 60000 draws: 5 degrees of freedom, the
	 * 99.99th percentile is 25.7. bound 1 and 0 are trivially 0. */
	struct pab_pcg32 rng;
	unsigned count[6] = { 0 };
	double chi2 = 0.0;
	int i;

	pab_pcg32_seed(&rng, 3, 0);
	for (i = 0; i < 60000; i++) {
		uint32_t r = pab_pcg32_bounded(&rng, 6);

		ck_assert_uint_lt(r, 6);
		count[r]++;
	}
	for (i = 0; i < 6; i++)
		chi2 += (count[i] - 10000.0) * (count[i] - 10000.0) / 10000.0;
	ck_assert_double_lt(chi2, 25.7);
	ck_assert_uint_eq(pab_pcg32_bounded(&rng, 1), 0);
	/* Worst case for modulo bias: just over 2^31. */
	for (i = 0; i < 1000; i++)
		ck_assert_uint_lt(pab_pcg32_bounded(&rng, 0x80000001u), 0x80000001u);
}
END_TEST

START_TEST(pcg32_double_and_normal_moments)
{
	struct pab_pcg32 rng;
	double sum = 0.0, nsum = 0.0, nsq = 0.0;
	const int n = 200000;
	int i;

	pab_pcg32_seed(&rng, 11, 5);
	for (i = 0; i < n; i++) {
		double u = pab_pcg32_double(&rng);

		ck_assert(u >= 0.0 && u < 1.0);
		sum += u;
	}
	/* Uniform: sd 0.2887 / sqrt(n) = 6.5e-4; allow 5 sd. */
	ck_assert_double_eq_tol(sum / n, 0.5, 5 * 6.5e-4);
	for (i = 0; i < n; i++) {
		double z = pab_pcg32_normal(&rng);

		ck_assert(isfinite(z));
		nsum += z;
		nsq += z * z;
	}
	/* Mean: sd 1/sqrt(n) = 2.2e-3; variance: sd sqrt(2/n) = 3.2e-3. */
	ck_assert_double_eq_tol(nsum / n, 0.0, 5 * 2.2e-3);
	ck_assert_double_eq_tol(nsq / n - (nsum / n) * (nsum / n), 1.0, 5 * 3.2e-3);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Order statistics                                                   */

START_TEST(median_odd_even_nan)
{
	const double odd[] = { 5, 1, 3 };
	const double even[] = { 4, 1, 3, 2 };
	const double holes[] = { NAN, 9, NAN, 1, 5, NAN };
	const double allnan[] = { NAN, NAN };
	double copy[4], m = -1;

	memcpy(copy, even, sizeof(copy));
	ck_assert_int_eq(pab_median(odd, 3, &m), 0);
	ck_assert_double_eq(m, 3);
	ck_assert_int_eq(pab_median(copy, 4, &m), 0);
	ck_assert_double_eq(m, 2.5);
	ck_assert_mem_eq(copy, even, sizeof(copy)); /* input untouched */
	ck_assert_int_eq(pab_median(holes, 6, &m), 0);
	ck_assert_double_eq(m, 5); /* NaN skipped, not read as 0 */
	ck_assert_int_eq(pab_median(allnan, 2, &m), PAB_ENODATA);
	ck_assert_int_eq(pab_median(odd, 0, &m), PAB_ENODATA);
	ck_assert_int_eq(pab_median(NULL, 3, &m), PAB_EINVAL);
	ck_assert_int_eq(pab_median(odd, 3, NULL), PAB_EINVAL);
}
END_TEST

START_TEST(median_infinities)
{
	const double a[] = { 1, INFINITY, 2 };
	const double b[] = { 1, 2, INFINITY, INFINITY };
	const double c[] = { -INFINITY, INFINITY };
	double m;

	ck_assert_int_eq(pab_median(a, 3, &m), 0);
	ck_assert_double_eq(m, 2);
	ck_assert_int_eq(pab_median(b, 4, &m), 0);
	ck_assert(isinf(m) && m > 0);
	ck_assert_int_eq(pab_median(c, 2, &m), 0);
	ck_assert(isnan(m));
}
END_TEST

START_TEST(quantile_type7)
{
	/* R: quantile(c(3,1,4,1,5,9,2,6), c(0,.1,.25,.5,.75,.9,.95,1)), and
	 * Python statistics.quantiles(..., method='inclusive'). */
	const double x[] = { 3, 1, 4, NAN, 1, 5, 9, 2, 6 };
	const double p[] = { 0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 1 };
	const double want[] = { 1, 1, 1.75, 3.5, 5.25, 6.9, 7.95, 9 };
	double q;
	size_t i;

	for (i = 0; i < NELEMS(p); i++) {
		ck_assert_int_eq(pab_quantile(x, NELEMS(x), p[i], &q), 0);
		ck_assert_double_eq_tol(q, want[i], TOL);
	}
	ck_assert_int_eq(pab_quantile(x, NELEMS(x), -0.1, &q), PAB_EINVAL);
	ck_assert_int_eq(pab_quantile(x, NELEMS(x), 1.1, &q), PAB_EINVAL);
	ck_assert_int_eq(pab_quantile(x, NELEMS(x), NAN, &q), PAB_EINVAL);
	ck_assert_int_eq(pab_quantile(x, 0, 0.5, &q), PAB_ENODATA);
	/* A single value is every quantile. */
	ck_assert_int_eq(pab_quantile(x, 1, 0.3, &q), 0);
	ck_assert_double_eq(q, 3);
}
END_TEST

START_TEST(quantile_infinities)
{
	const double x[] = { 1, 2, INFINITY };
	const double y[] = { -INFINITY, 0, 1 };
	double q;

	ck_assert_int_eq(pab_quantile(x, 3, 0.5, &q), 0);
	ck_assert_double_eq(q, 2);     /* weight 0 on +inf: not 0*inf = NaN */
	ck_assert_int_eq(pab_quantile(x, 3, 0.25, &q), 0);
	ck_assert_double_eq(q, 1.5);
	ck_assert_int_eq(pab_quantile(x, 3, 0.75, &q), 0);
	ck_assert(isinf(q) && q > 0);
	ck_assert_int_eq(pab_quantile(y, 3, 0.25, &q), 0);
	ck_assert(isinf(q) && q < 0);
	ck_assert_int_eq(pab_quantile(y, 3, 0.5, &q), 0);
	ck_assert_double_eq(q, 0);
}
END_TEST

START_TEST(sorted_finite_copy)
{
	const double x[] = { 3, NAN, -INFINITY, 1, NAN, 2 };
	const double allnan[] = { NAN };
	double *s = (double *)1;
	size_t m = 99;

	ck_assert_int_eq(pab_sorted_finite(x, NELEMS(x), &s, &m), 0);
	ck_assert_uint_eq(m, 4);
	ck_assert(isinf(s[0]) && s[0] < 0);
	ck_assert_double_eq(s[1], 1);
	ck_assert_double_eq(s[2], 2);
	ck_assert_double_eq(s[3], 3);
	free(s);
	ck_assert_int_eq(pab_sorted_finite(allnan, 1, &s, &m), 0);
	ck_assert_uint_eq(m, 0);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(pab_sorted_finite(x, 1, NULL, &m), PAB_EINVAL);
	ck_assert_int_eq(pab_sorted_finite(x, 1, &s, NULL), PAB_EINVAL);
	ck_assert_int_eq(pab_sorted_finite(NULL, 1, &s, &m), PAB_EINVAL);
	ck_assert_int_eq(pab_sorted_finite(NULL, 0, &s, &m), 0); /* nothing to read */
	ck_assert_uint_eq(m, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sign-test ranks and intervals                                      */

/* Opens tests/data/<name> under $top_srcdir (or the current directory). */
static FILE *open_data(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/%s", top ? top : ".", name);
	f = fopen(path, "r");
	if (!f)
		ck_abort_msg("cannot open '%s': %s (is top_srcdir set?)", path,
			     strerror(errno));
	return f;
}

START_TEST(sign_ranks_match_exact_binomial)
{
	/* The acceptance test: every n = 1..60 at three confidence levels,
	 * against exact rational sums computed in Python. */
	FILE *f = open_data("signtest_ref.tsv");
	char line[256];
	unsigned rows = 0, rows95 = 0;

	while (fgets(line, sizeof(line), f)) {
		double conf, want_cov, cov;
		unsigned n, exists, lo, hi;
		size_t got_lo, got_hi;
		int ret;

		if (line[0] == '#' || !strncmp(line, "conf", 4))
			continue;
		ck_assert_int_eq(sscanf(line, "%lf %u %u %u %u %lf", &conf, &n,
					&exists, &lo, &hi, &want_cov), 6);
		ret = pab_sign_ranks(n, conf, &got_lo, &got_hi, &cov);
		ck_assert_msg(ret == (int)exists && got_lo == lo && got_hi == hi,
			      "conf %g n %u: got %d (%zu, %zu), want %u (%u, %u)",
			      conf, n, ret, got_lo, got_hi, exists, lo, hi);
		ck_assert_msg(fabs(cov - want_cov) <= TOL,
			      "conf %g n %u: coverage %.17g, want %.17g",
			      conf, n, cov, want_cov);
		if (conf == 0.95) {
			rows95++;
			ck_assert_int_eq(ret, n >= PAB_MIN_N_95);
		}
		rows++;
	}
	fclose(f);
	ck_assert_uint_eq(rows95, 60); /* the file really covers 1..60 */
	ck_assert_uint_ge(rows, 180);
}
END_TEST

START_TEST(sign_ranks_seed_values)
{
	/* The seed's published order statistics (reference §2). */
	static const struct { size_t n, lo, hi; int exists; double cov; } t[] = {
		{ 1, 1, 1, 0, 0.0 },      { 3, 1, 3, 0, 0.75 },
		{ 5, 1, 5, 0, 0.9375 },   { 6, 1, 6, 1, 0.96875 },
		{ 7, 1, 7, 1, 0.984375 }, { 9, 2, 8, 1, -1 },
		{ 10, 2, 9, 1, -1 },      { 12, 3, 10, 1, -1 },
		{ 15, 4, 12, 1, 0.96484375 }, { 20, 6, 15, 1, -1 },
		{ 25, 8, 18, 1, 0.9567147493362427 }, { 30, 10, 21, 1, -1 },
	};
	size_t i, lo, hi;
	double cov;

	for (i = 0; i < NELEMS(t); i++) {
		ck_assert_int_eq(pab_sign_ranks(t[i].n, 0.95, &lo, &hi, &cov),
				 t[i].exists);
		ck_assert_uint_eq(lo, t[i].lo);
		ck_assert_uint_eq(hi, t[i].hi);
		ck_assert(cov >= 0.95 || !t[i].exists);
		if (t[i].cov >= 0)
			ck_assert_double_eq_tol(cov, t[i].cov, TOL);
	}
}
END_TEST

START_TEST(sign_ranks_invalid)
{
	size_t lo, hi;
	double cov;

	ck_assert_int_eq(pab_sign_ranks(0, 0.95, &lo, &hi, &cov), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_ranks(10, 0.0, &lo, &hi, &cov), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_ranks(10, 1.0, &lo, &hi, &cov), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_ranks(10, NAN, &lo, &hi, &cov), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_ranks(10, 0.95, NULL, &hi, &cov), PAB_EINVAL);
}
END_TEST

START_TEST(sign_interval_basic)
{
	/* 10 values and 2 holes: ranks (2, 9) of 1..10. */
	const double x[] = { 7, NAN, 3, 10, 1, 5, 9, 2, NAN, 8, 4, 6 };
	double copy[NELEMS(x)];
	struct pab_interval iv;

	memcpy(copy, x, sizeof(x));
	ck_assert_int_eq(pab_sign_interval(copy, NELEMS(x), 0.95, &iv), 0);
	ck_assert_uint_eq(iv.n, 10);
	ck_assert_int_eq(iv.exists, 1);
	ck_assert_uint_eq(iv.lo_rank, 2);
	ck_assert_uint_eq(iv.hi_rank, 9);
	ck_assert_double_eq(iv.lo, 2);
	ck_assert_double_eq(iv.hi, 9);
	ck_assert_double_eq(iv.median, 5.5);
	ck_assert_double_eq_tol(iv.coverage, 0.978515625, TOL);
	ck_assert_mem_eq(copy, x, sizeof(x));
}
END_TEST

START_TEST(sign_interval_small_n_is_no_interval)
{
	const double x[] = { 4, -2, 3, 1, 0 };
	struct pab_interval iv;

	ck_assert_int_eq(pab_sign_interval(x, 5, 0.95, &iv), 0);
	ck_assert_int_eq(iv.exists, 0);
	ck_assert_double_eq(iv.lo, -2); /* [min, max] */
	ck_assert_double_eq(iv.hi, 4);
	ck_assert_double_eq(iv.median, 1);
	ck_assert_double_eq_tol(iv.coverage, 0.9375, TOL);
	ck_assert_double_lt(iv.coverage, 0.95);
	ck_assert_int_eq(pab_sign_interval(x, 1, 0.95, &iv), 0);
	ck_assert_int_eq(iv.exists, 0);
	ck_assert_double_eq(iv.coverage, 0.0);
}
END_TEST

START_TEST(sign_interval_ties_and_infinities)
{
	const double ties[] = { 2, 2, 2, 2, 2, 2, 2 };
	const double inf[] = { 1, INFINITY, 2, INFINITY, 3, INFINITY, 4, 5 };
	const double none[] = { NAN, NAN, NAN };
	struct pab_interval iv;

	ck_assert_int_eq(pab_sign_interval(ties, 7, 0.95, &iv), 0);
	ck_assert(iv.lo == 2 && iv.hi == 2 && iv.median == 2 && iv.exists);
	/* 8 values: ranks (1, 8); infinities are ranks like any other. */
	ck_assert_int_eq(pab_sign_interval(inf, 8, 0.95, &iv), 0);
	ck_assert_double_eq(iv.lo, 1);
	ck_assert(isinf(iv.hi));
	ck_assert_double_eq(iv.median, 4.5);
	iv.n = 77;
	ck_assert_int_eq(pab_sign_interval(none, 3, 0.95, &iv), PAB_ENODATA);
	ck_assert_uint_eq(iv.n, 0);
	ck_assert_int_eq(pab_sign_interval(none, 3, 1.5, &iv), PAB_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Paired changes                                                     */

START_TEST(percent_worse_directions)
{
	ck_assert_double_eq_tol(pab_percent_worse(100, 110, PAB_LOWER_IS_BETTER), 10, TOL);
	ck_assert_double_eq_tol(pab_percent_worse(100, 90, PAB_LOWER_IS_BETTER), -10, TOL);
	/* Throughput: a drop is worse. */
	ck_assert_double_eq_tol(pab_percent_worse(100, 90, PAB_HIGHER_IS_BETTER), 10, TOL);
	ck_assert_double_eq_tol(pab_percent_worse(100, 110, PAB_HIGHER_IS_BETTER), -10, TOL);
	/* Negative base: |base| is the denominator, the direction stays. */
	ck_assert_double_eq_tol(pab_percent_worse(-10, -5, PAB_LOWER_IS_BETTER), 50, TOL);
	ck_assert_double_eq_tol(pab_percent_worse(-10, -15, PAB_HIGHER_IS_BETTER), 50, TOL);
}
END_TEST

START_TEST(percent_worse_edges)
{
	double v;

	/* Ties are 0, and +0 (never -0.0) in both directions. */
	v = pab_percent_worse(7, 7, PAB_HIGHER_IS_BETTER);
	ck_assert(v == 0 && !signbit(v));
	v = pab_percent_worse(-7, -7, PAB_LOWER_IS_BETTER);
	ck_assert(v == 0 && !signbit(v));
	/* Base 0. */
	v = pab_percent_worse(0, 0, PAB_LOWER_IS_BETTER);
	ck_assert(v == 0 && !signbit(v));
	ck_assert(isinf(pab_percent_worse(0, 5, PAB_LOWER_IS_BETTER)) &&
		  pab_percent_worse(0, 5, PAB_LOWER_IS_BETTER) > 0);
	ck_assert(pab_percent_worse(0, 5, PAB_HIGHER_IS_BETTER) == -INFINITY);
	ck_assert(pab_percent_worse(0, -5, PAB_LOWER_IS_BETTER) == -INFINITY);
	ck_assert(pab_percent_worse(0, -5, PAB_HIGHER_IS_BETTER) == INFINITY);
	ck_assert(pab_percent_worse(-0.0, 1, PAB_LOWER_IS_BETTER) == INFINITY);
	/* NaN on either side: missing. */
	ck_assert(isnan(pab_percent_worse(NAN, 1, PAB_LOWER_IS_BETTER)));
	ck_assert(isnan(pab_percent_worse(1, NAN, PAB_LOWER_IS_BETTER)));
	ck_assert(isnan(pab_percent_worse(0, NAN, PAB_LOWER_IS_BETTER)));
	/* Infinities. */
	ck_assert(isnan(pab_percent_worse(INFINITY, 1, PAB_LOWER_IS_BETTER)));
	ck_assert(isnan(pab_percent_worse(INFINITY, INFINITY, PAB_LOWER_IS_BETTER)));
	ck_assert(pab_percent_worse(1, INFINITY, PAB_LOWER_IS_BETTER) == INFINITY);
	ck_assert(pab_percent_worse(1, INFINITY, PAB_HIGHER_IS_BETTER) == -INFINITY);
}
END_TEST

START_TEST(paired_changes_by_index)
{
	const double base[] = { 100, 0, NAN, 50 };
	const double head[] = { 120, 0, 10, NAN };
	double out[4];

	pab_paired_changes(base, head, 4, PAB_LOWER_IS_BETTER, out);
	ck_assert_double_eq_tol(out[0], 20, TOL);
	ck_assert_double_eq(out[1], 0);
	ck_assert(isnan(out[2]) && isnan(out[3]));
	/* Either input missing: out is left as it was. */
	out[0] = -7;
	pab_paired_changes(NULL, head, 4, PAB_LOWER_IS_BETTER, out);
	ck_assert_double_eq(out[0], -7);
	pab_paired_changes(base, NULL, 4, PAB_LOWER_IS_BETTER, out);
	ck_assert_double_eq(out[0], -7);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Noise, beyond-noise, equivalence, memory credit                     */

static struct pab_interval mkiv(double lo, double median, double hi, int exists)
{
	struct pab_interval iv = { 0 };

	iv.n = exists ? 10 : 5;
	iv.lo = lo;
	iv.median = median;
	iv.hi = hi;
	iv.exists = exists;
	iv.coverage = exists ? 0.978515625 : 0.9375;
	return iv;
}

START_TEST(noise_floor)
{
	struct pab_interval iv = mkiv(-3, 0, 2, 1), empty = { 0 };

	ck_assert_double_eq(pab_noise_floor(&iv), 3);
	iv = mkiv(-1, 0.5, 4, 1);
	ck_assert_double_eq(pab_noise_floor(&iv), 4);
	iv = mkiv(1, 2, 4, 1); /* a biased null is all noise */
	ck_assert_double_eq(pab_noise_floor(&iv), 4);
	ck_assert_double_eq(pab_noise_floor(&empty), 0);
	ck_assert_double_eq(pab_noise_floor(NULL), 0);
}
END_TEST

START_TEST(beyond_noise)
{
	struct pab_interval up = mkiv(1, 2, 3, 1), down = mkiv(-3, -2, -1, 1);
	struct pab_interval straddle = mkiv(-1, 2, 3, 1), small = mkiv(1, 2, 3, 0);

	ck_assert_int_eq(pab_beyond_noise(&up, 1), 1);
	ck_assert_int_eq(pab_beyond_noise(&up, 2), 0);   /* |median| = noise */
	ck_assert_int_eq(pab_beyond_noise(&down, 1), 1);
	ck_assert_int_eq(pab_beyond_noise(&down, 0), 1);
	ck_assert_int_eq(pab_beyond_noise(&straddle, 0), 0);
	ck_assert_int_eq(pab_beyond_noise(&small, 0), 0); /* not an interval */
	ck_assert_int_eq(pab_beyond_noise(NULL, 0), 0);
}
END_TEST

START_TEST(equivalence)
{
	struct pab_interval in = mkiv(-3, 0, 3, 1), out_hi = mkiv(3.5, 4, 5, 1);
	struct pab_interval out_lo = mkiv(-5, -4, -3.5, 1), edge = mkiv(-1, 1, 3.5, 1);
	struct pab_interval small = mkiv(-1, 0, 1, 0);

	ck_assert_int_eq(pab_equivalent(&in, 3), PAB_EQUIV_YES); /* ends inclusive */
	ck_assert_int_eq(pab_equivalent(&out_hi, 3), PAB_EQUIV_NO);
	ck_assert_int_eq(pab_equivalent(&out_lo, 3), PAB_EQUIV_NO);
	ck_assert_int_eq(pab_equivalent(&edge, 3), PAB_EQUIV_UNKNOWN);
	ck_assert_int_eq(pab_equivalent(&edge, 4), PAB_EQUIV_YES);
	ck_assert_int_eq(pab_equivalent(&small, 3), PAB_EQUIV_UNKNOWN);
	ck_assert_int_eq(pab_equivalent(&in, NAN), PAB_EQUIV_UNKNOWN);
	ck_assert_int_eq(pab_equivalent(&in, -1), PAB_EQUIV_UNKNOWN);
}
END_TEST

START_TEST(saved_percent)
{
	/* doc/method.md §5: 200 -> 100 MiB with floor 50 closes 2/3 of the gap. */
	ck_assert_double_eq_tol(pab_saved_percent(200, 100, 50), 200.0 / 3.0, TOL);
	ck_assert_double_eq(pab_saved_percent(200, 20, 50), 100);  /* clamped */
	/* Just below 100 is not clamped: 99.99995%, the clamp's edge. */
	ck_assert_double_eq_tol(pab_saved_percent(1e8, 50, 0), 99.99995, 1e-9);
	ck_assert(pab_saved_percent(1e8, 50, 0) < 100);
	ck_assert_double_eq(pab_saved_percent(1e8, -50, 0), 100); /* just above: clamped */
	ck_assert_double_eq(pab_saved_percent(200, 220, 50), 0);   /* grew */
	ck_assert_double_eq(pab_saved_percent(50, 40, 50), 0);     /* no gap */
	ck_assert_double_eq(pab_saved_percent(40, 30, 50), 0);     /* negative gap */
	ck_assert_double_eq(pab_saved_percent(NAN, 100, 50), 0);
	ck_assert_double_eq(pab_saved_percent(200, NAN, 50), 0);
	ck_assert_double_eq(pab_saved_percent(200, 100, NAN), 0);
	ck_assert_double_eq(pab_saved_percent(INFINITY, 100, 50), 0);
}
END_TEST

START_TEST(memory_credit)
{
	struct pab_interval fell = mkiv(-55, -50, -45, 1);
	struct pab_interval touches = mkiv(-55, -50, 0, 1);
	struct pab_interval small = mkiv(-55, -50, -45, 0);

	ck_assert_double_eq_tol(pab_memory_credit(&fell, 200, 100, 50), 200.0 / 3.0, TOL);
	ck_assert_double_eq(pab_memory_credit(&touches, 200, 100, 50), 0);
	ck_assert_double_eq(pab_memory_credit(&small, 200, 100, 50), 0);
	ck_assert_double_eq(pab_memory_credit(NULL, 200, 100, 50), 0);
	/* Exactly at the floor: the whole gap, 100%; nothing saved: 0%. */
	ck_assert_double_eq_tol(pab_memory_credit(&fell, 200, 50, 50), 100, TOL);
	ck_assert_double_eq_tol(pab_saved_percent(200, 50, 50), 100, TOL);
	ck_assert_double_eq(pab_memory_credit(&fell, 200, 200, 50), 0);
	ck_assert_double_eq(pab_saved_percent(200, 200, 50), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Verdict helpers                                                    */

START_TEST(names_and_parse)
{
	enum pab_rules r = PAB_RULES_RULE12;

	ck_assert_str_eq(pab_verdict_name(PAB_PASS), "PASS");
	ck_assert_str_eq(pab_verdict_name(PAB_INCONCLUSIVE), "INCONCLUSIVE");
	ck_assert_str_eq(pab_verdict_name(PAB_FAIL), "FAIL");
	ck_assert_str_eq(pab_verdict_name(PAB_NOT_MEASURED), "NOT MEASURED");
	ck_assert_str_eq(pab_rules_name(PAB_RULES_PERFAB1), "perfab/1");
	ck_assert_str_eq(pab_rules_name(PAB_RULES_RULE12), "rule12");
	ck_assert_str_eq(pab_decider_name(PAB_DECIDED_NONE), "none");
	ck_assert_str_eq(pab_decider_name(PAB_DECIDED_TOLERANCE), "tolerance");
	ck_assert_str_eq(pab_decider_name(PAB_DECIDED_CREDIT), "credit");
	ck_assert_str_eq(pab_decider_name(PAB_DECIDED_NOISE), "noise");
	ck_assert_str_eq(pab_decider_name(PAB_DECIDED_EQUIVALENCE), "equivalence");
	ck_assert_int_eq(pab_rules_parse("perfab/1", &r), 0);
	ck_assert_int_eq(r, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_rules_parse("rule12", &r), 0);
	ck_assert_int_eq(r, PAB_RULES_RULE12);
	ck_assert_int_eq(pab_rules_parse("rule13", &r), PAB_EINVAL);
	ck_assert_int_eq(pab_rules_parse("", &r), PAB_EINVAL);
	ck_assert_int_eq(pab_rules_parse(NULL, &r), PAB_EINVAL);
}
END_TEST

START_TEST(combine)
{
	enum pab_verdict v[4];

	v[0] = PAB_PASS; v[1] = PAB_INCONCLUSIVE; v[2] = PAB_FAIL; v[3] = PAB_NOT_MEASURED;
	ck_assert_int_eq(pab_combine_verdicts(v, 4), PAB_FAIL);
	ck_assert_int_eq(pab_combine_verdicts(v, 2), PAB_INCONCLUSIVE);
	ck_assert_int_eq(pab_combine_verdicts(v, 1), PAB_PASS);
	v[1] = PAB_NOT_MEASURED;
	ck_assert_int_eq(pab_combine_verdicts(v, 2), PAB_PASS);
	ck_assert_int_eq(pab_combine_verdicts(v + 3, 1), PAB_NOT_MEASURED);
	ck_assert_int_eq(pab_combine_verdicts(v, 0), PAB_NOT_MEASURED);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Judging cells                                                      */

#define REPS 12

/*
 * Per-rep values around level with a deterministic spread of +-spread
 * (fraction), different in every rep, so intervals have width.
 */
static void fill(double *x, size_t n, double level, double spread, int phase)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = level * (1.0 + spread * sin(1.7 * (double)(i + 1) + phase));
}

static struct pab_cell_input cpu_input(const double *base, const double *head,
				       const double *null, size_t n,
				       enum pab_rules rules)
{
	struct pab_cell_input in;

	memset(&in, 0, sizeof(in));
	in.base = base;
	in.head = head;
	in.null = null;
	in.n = n;
	in.better = PAB_LOWER_IS_BETTER;
	in.credit_eligible = 1;
	in.tolerance_pct = 2.0;
	in.equivalence_margin_pct = 3.0;
	in.conf = 0.95;
	in.rules = rules;
	return in;
}

/* The 200 -> 100 MiB row: its credit, from a judged peak cell. */
static double worked_example_credit(enum pab_rules rules)
{
	double bpeak[REPS], hpeak[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;

	fill(bpeak, REPS, 200, 0.01, 0);
	fill(hpeak, REPS, 100, 0.01, 1);
	in = cpu_input(bpeak, hpeak, NULL, REPS, rules);
	in.credit_eligible = 0; /* peak RSS earns no credit itself */
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_double_lt(r.change.hi, 0);
	ck_assert_double_eq(r.credit, 0);
	return pab_memory_credit(&r.change, r.base_median, r.head_median, 50);
}

START_TEST(worked_example_credit_buys_cpu)
{
	/* doc/method.md §5: peak 200 -> 100 MiB, floor 50: 66.7% saved, so
	 * +22.2% CPU is allowed; a confirmed +20% passes and +40% fails, under
	 * both rule sets, with or without a null arm. */
	double base[REPS], h20[REPS], h40[REPS], null[REPS];
	int rules, with_null;
	size_t i;

	fill(base, REPS, 10, 0.03, 2);
	fill(null, REPS, 10, 0.03, 3);
	for (i = 0; i < REPS; i++) {
		/* +20% and +40% in every rep, give or take 0.5 points. */
		h20[i] = base[i] * (1.20 + 0.005 * sin((double)i));
		h40[i] = base[i] * (1.40 + 0.005 * cos((double)i));
	}
	for (rules = 0; rules < 3; rules++) {
		double saved = worked_example_credit((enum pab_rules)rules);

		ck_assert_double_eq_tol(saved, 200.0 / 3.0, 1.0);
		for (with_null = 0; with_null < 2; with_null++) {
			struct pab_cell_input in = cpu_input(base, h20,
				with_null ? null : NULL, REPS, (enum pab_rules)rules);
			struct pab_cell_result r;

			in.saved_pct = saved;
			ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
			ck_assert_double_eq_tol(r.credit, saved / 3.0, TOL);
			ck_assert_double_eq_tol(r.allowance, saved / 3.0, TOL);
			ck_assert_int_eq(r.pass_decider, PAB_DECIDED_CREDIT);
			ck_assert_msg(r.verdict == PAB_PASS, "+20%% %s null %d: %s",
				      pab_rules_name(rules), with_null,
				      pab_verdict_name(r.verdict));
			ck_assert_int_eq(r.has_null, with_null);

			in.head = h40;
			ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
			ck_assert_msg(r.verdict == PAB_FAIL, "+40%% %s null %d: %s",
				      pab_rules_name(rules), with_null,
				      pab_verdict_name(r.verdict));
			ck_assert_int_eq(r.fail_decider, PAB_DECIDED_CREDIT);
			ck_assert_int_eq(r.beyond_noise, 1);
			ck_assert_uint_eq(r.reps_needed, 0);
		}
	}
	/* A credit equal to the tolerance is no credit beyond it: the
	 * tolerance decides (allowance = max, the credit only when larger). */
	{
		struct pab_cell_input in = cpu_input(base, h20, NULL, REPS, PAB_RULES_PERFAB2);
		struct pab_cell_result r;

		in.tolerance_pct = 5.0;
		in.saved_pct = 15.0; /* 15 / 3 = a credit of exactly 5 */
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_double_eq(r.credit, 5.0);
		ck_assert_double_eq(r.allowance, 5.0);
		ck_assert_int_eq(r.pass_decider, PAB_DECIDED_TOLERANCE);
		ck_assert_int_eq(r.fail_decider, PAB_DECIDED_TOLERANCE);
	}
}
END_TEST

START_TEST(worked_example_control_fails)
{
	/* A control row 200 -> 200 MiB (no credit, whatever saved_pct says)
	 * with a confirmed +5% CPU fails under both rule sets. */
	double base[REPS], head[REPS];
	int rules;
	size_t i;

	fill(base, REPS, 10, 0.03, 4);
	for (i = 0; i < REPS; i++)
		head[i] = base[i] * (1.05 + 0.002 * sin((double)i));
	for (rules = 0; rules < 3; rules++) {
		struct pab_cell_input in = cpu_input(base, head, NULL, REPS,
						     (enum pab_rules)rules);
		struct pab_cell_result r;

		in.control = 1;
		in.saved_pct = 60; /* must be ignored for a control */
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_int_eq(r.verdict, PAB_FAIL);
		ck_assert_double_eq(r.credit, 0);
		ck_assert_int_eq(r.equivalence, PAB_EQUIV_NO);
		ck_assert_int_ne(r.fail_decider, PAB_DECIDED_CREDIT);
		ck_assert_double_eq(r.tolerance, rules == PAB_RULES_RULE12 ? 0 : 2);
	}
}
END_TEST

/*
 * The planned looks of an adaptive run, and the exact probability that a
 * one-sided 95% sign test at looks 12, 24, 48, 96 rejects a true median
 * at least once (doc/method.md: the bound on FAIL at the tolerance and on
 * PASS at twice it). Reference 0.046231159841218374 from exact binomial
 * sums (Python fractions, the recursion over S_n = values below the
 * median); lo ranks 3, 7, 17, 38.
 */
START_TEST(looks_plan_and_their_error)
{
	size_t looks[8], lo, hi, k, n, s, want[] = { 12, 24, 48, 96 };
	double p[97] = { 1.0 }, q[97], hit = 0.0, cov;
	size_t ranks[4], exp_ranks[] = { 3, 7, 17, 38 };

	ck_assert_uint_eq(pab_looks_plan(12, 96, 3, looks, 8), 4);
	for (k = 0; k < 4; k++)
		ck_assert_uint_eq(looks[k], want[k]);
	ck_assert_uint_eq(pab_looks_plan(12, 12, 3, looks, 8), 1);
	ck_assert_uint_eq(looks[0], 12);
	ck_assert_uint_eq(pab_looks_plan(12, 50, 5, looks, 8), 3); /* 15 30 50 */
	ck_assert_uint_eq(looks[0], 15);
	ck_assert_uint_eq(looks[1], 30);
	ck_assert_uint_eq(looks[2], 50);
	ck_assert_uint_eq(pab_looks_plan(12, 96, 3, looks, 2), 2);
	ck_assert_uint_eq(pab_looks_plan(12, 6, 3, looks, 8), 0);
	ck_assert_uint_eq(pab_looks_plan(0, 96, 3, looks, 8), 0);
	ck_assert_uint_eq(pab_looks_plan(12, 96, 0, looks, 8), 0);
	ck_assert_uint_eq(pab_looks_plan(12, 96, 3, NULL, 8), 0);
	ck_assert_double_eq_tol(pab_look_confidence(0.95, 4), 0.9875, 1e-12);
	ck_assert_double_eq_tol(pab_look_confidence(0.95, 1), 0.95, 1e-12);
	ck_assert(isnan(pab_look_confidence(0.95, 0)));
	ck_assert(isnan(pab_look_confidence(1.0, 4)));

	for (k = 0; k < 4; k++) {
		ck_assert_int_eq(pab_sign_ranks(want[k], 0.95, &lo, &hi, &cov), 1);
		ranks[k] = lo;
		ck_assert_uint_eq(ranks[k], exp_ranks[k]);
	}
	/* p[s] = P(S_n = s, no rejection yet); lo > median iff S_n < lo. */
	for (n = 0, k = 0; k < 4; k++) {
		for (; n < want[k]; n++) {
			memset(q, 0, sizeof(q));
			for (s = 0; s <= n; s++) {
				q[s] += p[s] / 2;
				q[s + 1] += p[s] / 2;
			}
			memcpy(p, q, sizeof(p));
		}
		for (s = 0; s < ranks[k]; s++) {
			hit += p[s];
			p[s] = 0;
		}
	}
	ck_assert_double_eq_tol(hit, 0.046231159841218374, 1e-12);
	ck_assert_double_le(hit, 0.05);
}
END_TEST

START_TEST(small_n_never_decides)
{
	/* Five pairs: even a +40% in every rep or an exact tie is no verdict. */
	const double base[] = { 10, 10, 10, 10, 10 };
	const double h40[] = { 14, 14.1, 13.9, 14, 14.2 };
	struct pab_cell_input in;
	struct pab_cell_result r;
	int rules;

	for (rules = 0; rules < 3; rules++) {
		in = cpu_input(base, h40, base, 5, (enum pab_rules)rules);
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
		ck_assert_int_eq(r.change.exists, 0);
		ck_assert_int_eq(r.beyond_noise, 0);
		ck_assert_uint_ge(r.reps_needed, PAB_MIN_N_95);
		in.head = base;
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	}
}
END_TEST

START_TEST(nan_pairs_are_skipped)
{
	/* 8 reps; head misses two and null misses one, each its own. */
	double base[8], head[8], null[8];
	struct pab_cell_input in;
	struct pab_cell_result r;

	fill(base, 8, 10, 0.02, 0);
	fill(head, 8, 10, 0.02, 1);
	fill(null, 8, 10, 0.02, 2);
	head[1] = NAN;
	head[6] = NAN;
	null[3] = NAN;
	base[7] = NAN;
	in = cpu_input(base, head, null, 8, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_uint_eq(r.change.n, 5);      /* reps 0, 2, 3, 4, 5 */
	ck_assert_uint_eq(r.null_change.n, 6); /* reps 0, 1, 2, 4, 5, 6 */
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE); /* 5 < 6 pairs */
	ck_assert(!isnan(r.change.median));

	/* No pair with both values: not measured, and not a pass. */
	head[0] = head[2] = head[3] = head[4] = head[5] = NAN;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_NOT_MEASURED);
	ck_assert_uint_eq(r.change.n, 0);
	ck_assert_int_eq(r.pass_decider, PAB_DECIDED_NONE);
	in.n = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_NOT_MEASURED);
}
END_TEST

START_TEST(null_without_pairs_is_no_null)
{
	double base[REPS], head[REPS], null[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;

	fill(base, REPS, 10, 0.02, 0);
	fill(head, REPS, 10, 0.02, 1);
	for (i = 0; i < REPS; i++)
		null[i] = NAN;
	in = cpu_input(base, head, null, REPS, PAB_RULES_RULE12);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.has_null, 0);
	ck_assert_double_eq(r.noise, 0);
}
END_TEST

START_TEST(ties_and_zeros)
{
	/* Identical values and zero faults: every change is 0, the interval
	 * is [0, 0] and passes under both rule sets, even with a noise of 0. */
	double base[REPS], zeros[REPS] = { 0 }, some[REPS] = { 0 };
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;
	int rules;

	fill(base, REPS, 10, 0.05, 0);
	for (rules = 0; rules < 3; rules++) {
		in = cpu_input(base, base, NULL, REPS, (enum pab_rules)rules);
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_int_eq(r.verdict, PAB_PASS);
		ck_assert(r.change.lo == 0 && r.change.hi == 0);
		in = cpu_input(zeros, zeros, zeros, REPS, (enum pab_rules)rules);
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_int_eq(r.verdict, PAB_PASS);
		ck_assert_double_eq(r.noise, 0);
	}

	/* Base 0: faults appear in every rep -> +inf changes -> FAIL. */
	for (i = 0; i < REPS; i++)
		some[i] = 3;
	in = cpu_input(zeros, some, NULL, REPS, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert(isinf(r.change.lo));
	ck_assert_uint_eq(r.reps_needed, 0);
	/* ... and vanish in every rep -> PASS (the change is -100%). */
	in = cpu_input(some, zeros, NULL, REPS, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_PASS);
	ck_assert_double_eq_tol(r.change.hi, -100, TOL);
	/* Base 0 in one rep only: its infinite change is just the top rank
	 * (rep 0: 0 -> 3 is +inf; reps 1, 2: 3 -> 0 is -100%). */
	some[1] = some[2] = 0;
	fill(base, REPS, 3, 0.005, 1);
	base[0] = 0;
	in = cpu_input(base, some, NULL, REPS, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_uint_eq(r.change.n, REPS);
	ck_assert(isfinite(r.change.lo) && isfinite(r.change.median) &&
		  isfinite(r.change.hi));
	ck_assert_double_eq_tol(r.change.median, 0, 1.0);
}
END_TEST

START_TEST(throughput_drop_fails)
{
	/* Seed test: ops/s -10% fails. */
	double base[REPS], head[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;
	int rules;

	fill(base, REPS, 1000, 0.02, 0);
	for (i = 0; i < REPS; i++)
		head[i] = base[i] * (0.90 + 0.003 * sin((double)i));
	for (rules = 0; rules < 3; rules++) {
		in = cpu_input(base, head, NULL, REPS, (enum pab_rules)rules);
		in.better = PAB_HIGHER_IS_BETTER;
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_int_eq(r.verdict, PAB_FAIL);
		ck_assert_double_gt(r.change.lo, 9);
		ck_assert_double_gt(r.head_median, 0); /* arms keep their units */
		ck_assert_double_lt(r.head_median, r.base_median);
	}
}
END_TEST

/*
 * Cells from exact paired changes: base 64, head 64 + d, so each change is
 * d * 100 / 64 = d * 1.5625 exactly (64 is a power of two).
 */
static void exact_changes(double *base, double *head, const double *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		base[i] = 64;
		head[i] = 64 + d[i];
	}
}
#define U 1.5625

START_TEST(rule_sets_differ)
{
	/* Change [-1 U, 1 U] with a null noise of 0.5 U: perfab/1 passes on
	 * its 2% tolerance (>= 1 U); rule12 cannot, its allowance is the
	 * noise, and nothing fails either: INCONCLUSIVE. */
	static const double dchg[REPS] = { -2, -1.5, -1, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, 1.25, 1.5 };
	static const double dnull[REPS] = { -0.75, -0.6, -0.5, -0.25, 0, 0, 0, 0.1, 0.2, 0.3, 0.5, 0.7 };
	double base[REPS], head[REPS], nb[REPS], null[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;

	exact_changes(base, head, dchg, REPS);
	exact_changes(nb, null, dnull, REPS);
	in = cpu_input(base, head, null, REPS, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	/* ranks (3, 10): lo = -1 U, hi = 1 U; null ranks (3, 10): [-0.5, 0.3] U */
	ck_assert_double_eq(r.change.lo, -1 * U);
	ck_assert_double_eq(r.change.hi, 1 * U);
	ck_assert_double_eq(r.noise, 0.5 * U);
	ck_assert_int_eq(r.verdict, PAB_PASS);
	ck_assert_int_eq(r.pass_decider, PAB_DECIDED_TOLERANCE);
	ck_assert_double_eq(r.allowance, 2);
	ck_assert_double_eq(r.fail_threshold, 2);

	in.rules = PAB_RULES_RULE12;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_double_eq(r.tolerance, 0);
	ck_assert_double_eq(r.allowance, 0.5 * U);
	ck_assert_int_eq(r.pass_decider, PAB_DECIDED_NOISE);
	ck_assert_int_eq(r.fail_decider, PAB_DECIDED_NOISE);
}
END_TEST

START_TEST(noise_guards_fail_under_perfab1)
{
	/* Change [3, 5] (x U) with a null noise of 6 U: perfab/1 will not
	 * call a change inside the noise a FAIL (INCONCLUSIVE, decided by
	 * noise); rule12 passes it, since the noise is also its allowance. */
	static const double dchg[REPS] = { 1, 2, 3, 3.5, 3.75, 4, 4, 4.25, 4.5, 5, 6, 7 };
	static const double dnull[REPS] = { -7, -6.5, -6, -2, -1, 0, 0, 1, 2, 3, 4, 5 };
	double base[REPS], head[REPS], nb[REPS], null[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;

	exact_changes(base, head, dchg, REPS);
	exact_changes(nb, null, dnull, REPS);
	in = cpu_input(base, head, null, REPS, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_double_eq(r.change.lo, 3 * U);
	ck_assert_double_eq(r.change.hi, 5 * U);
	ck_assert_double_eq(r.noise, 6 * U);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_int_eq(r.fail_decider, PAB_DECIDED_NOISE);
	ck_assert_double_eq(r.fail_threshold, 6 * U);
	ck_assert_int_eq(r.beyond_noise, 0);
	/* Median 4 U sits between allowance 2 and fail threshold 6 U: no
	 * number of reps is predicted to settle it. */
	ck_assert_uint_eq(r.reps_needed, 0);
	ck_assert_double_eq(r.half_width, 1 * U);

	in.rules = PAB_RULES_RULE12;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_PASS);

	/* Without the null arm perfab/1 fails it on its tolerance. */
	in.rules = PAB_RULES_PERFAB1;
	in.null = NULL;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert_int_eq(r.fail_decider, PAB_DECIDED_TOLERANCE);
	ck_assert_int_eq(r.beyond_noise, 1);
}
END_TEST

START_TEST(perfab2_intersection_union)
{
	/* Every pair +4 U (6.25%). Null = base: head is worse than both
	 * copies of the base, FAIL (guarded). Null 3 U worse than base as
	 * well (an offset every non-base arm shares): head vs null is only
	 * 100/67 = 1.49%, inside the 2% tolerance: no FAIL under perfab/2,
	 * while perfab/1 FAILs (noise 3 U = 4.69% < 6.25%). */
	static const double d[REPS] = { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };
	double base[REPS], head[REPS], null[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;

	exact_changes(base, head, d, REPS);
	in = cpu_input(base, head, base, REPS, PAB_RULES_PERFAB2);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert_int_eq(r.fail_guarded, 1);
	ck_assert_double_eq(r.change.lo, 4 * U);
	ck_assert_double_eq(r.head_null.lo, 4 * U);
	ck_assert_double_eq(r.fail_threshold, 2);
	ck_assert_int_eq(r.fail_decider, PAB_DECIDED_TOLERANCE);

	for (i = 0; i < REPS; i++)
		null[i] = 67;
	in.null = null;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_int_eq(r.fail_guarded, 1);
	ck_assert_double_eq_tol(r.head_null.lo, 100.0 / 67.0, 1e-12);
	ck_assert_double_eq_tol(r.noise, 300.0 / 64.0, 1e-12);
	ck_assert_double_eq(r.fail_threshold, 2); /* noise is a diagnostic */
	in.rules = PAB_RULES_PERFAB1;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert_int_eq(r.fail_guarded, 0);

	/* Without a null arm perfab/2 FAILs on head vs base alone, and says
	 * that FAIL was unguarded. */
	in.rules = PAB_RULES_PERFAB2;
	in.null = NULL;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert_int_eq(r.fail_guarded, 0);
	ck_assert_uint_eq(r.head_null.n, 0);

	/* A null arm with pairs but fewer than 6: no head-vs-null interval,
	 * so no guarded FAIL either. */
	for (i = 0; i < REPS; i++)
		null[i] = i < 5 ? 64 : NAN;
	in.null = null;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_int_eq(r.head_null.exists, 0);
	ck_assert_uint_eq(r.head_null.n, 5);

	/* PASS is the same as perfab/1's: the whole interval within 2%. */
	for (i = 0; i < REPS; i++)
		head[i] = 64 + (i % 2 ? 0.5 : -0.5);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_PASS);
	ck_assert_str_eq(pab_rules_name(PAB_RULES_PERFAB2), "perfab/2");
}
END_TEST

/*
 * Which end of head vs null decides a guarded FAIL (pab_stats.h,
 * pab_judge_cell: head_null.lo > allowance). Head is 68 in every rep, 4 U
 * (6.25%) above a base of 64, so head vs base alone would FAIL. The null
 * arm is spread so that head vs null, (68 - null) / null * 100, sorted,
 * has its 3rd and 10th values (the ranks of n = 12 at 95%) on either side
 * of the 2% tolerance and its median above it: only the lower end keeps
 * the FAIL back. Moving one null value from 67 to 66.5 lifts that lower
 * end to 100 * 1.5 / 66.5 = 2.26%: then it FAILs.
 */
START_TEST(perfab2_head_null_lower_end_decides)
{
	double null[REPS] = { 68, 67.5, 67, 66.5, 66, 66, 66, 66, 65.5, 65, 64.5, 64 };
	double base[REPS], head[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;

	for (i = 0; i < REPS; i++) {
		base[i] = 64;
		head[i] = 68;
	}
	in = cpu_input(base, head, null, REPS, PAB_RULES_PERFAB2);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.fail_guarded, 1);
	ck_assert_double_eq(r.change.lo, 4 * U);
	ck_assert_int_eq(r.head_null.exists, 1);
	ck_assert_uint_eq(r.head_null.lo_rank, 3);
	ck_assert_uint_eq(r.head_null.hi_rank, 10);
	ck_assert_double_eq_tol(r.head_null.lo, 100.0 * 1.0 / 67.0, 1e-12);
	ck_assert_double_eq_tol(r.head_null.median, 100.0 * 2.0 / 66.0, 1e-12);
	ck_assert_double_eq_tol(r.head_null.hi, 100.0 * 3.0 / 65.0, 1e-12);
	ck_assert_double_lt(r.head_null.lo, r.fail_threshold);
	ck_assert_double_gt(r.head_null.median, r.fail_threshold);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);

	null[2] = 66.5;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_double_eq_tol(r.head_null.lo, 100.0 * 1.5 / 66.5, 1e-12);
	ck_assert_double_gt(r.head_null.lo, r.fail_threshold);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert_int_eq(r.fail_decider, PAB_DECIDED_TOLERANCE);
}
END_TEST

START_TEST(tolerance_floor)
{
	/* 100000-byte peaks, head 0..12000 bytes above base: up to 12%, so a
	 * 2% tolerance cannot PASS it; a 16384-byte floor is 16.384% of the
	 * base median and does. rule12 has no tolerance and ignores it. */
	static const double d[REPS] = { 0, 4096, 8192, 12000, 0, 4096,
					8192, 0, 4096, 0, 8192, 4096 };
	double base[REPS], head[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;
	int rules;

	for (i = 0; i < REPS; i++) {
		base[i] = 100000;
		head[i] = 100000 + d[i];
	}
	in = cpu_input(base, head, base, REPS, PAB_RULES_PERFAB2);
	in.credit_eligible = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_double_eq(r.floor_pct, 0);
	in.floor_abs = 16384;
	for (rules = 0; rules < 3; rules++) {
		in.rules = (enum pab_rules)rules;
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		if (in.rules == PAB_RULES_RULE12) {
			ck_assert_double_eq(r.tolerance, 0);
			ck_assert_int_ne(r.verdict, PAB_PASS);
			continue;
		}
		ck_assert_double_eq_tol(r.floor_pct, 16.384, 1e-12);
		ck_assert_double_eq_tol(r.tolerance, 16.384, 1e-12);
		ck_assert_double_eq_tol(r.allowance, 16.384, 1e-12);
		ck_assert_int_eq(r.verdict, PAB_PASS);
	}
	/* A floor below the percentage changes nothing. */
	in.rules = PAB_RULES_PERFAB2;
	in.floor_abs = 1000; /* 1% */
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_double_eq(r.tolerance, 2);
	ck_assert_double_eq_tol(r.floor_pct, 1, 1e-12);
	/* A base median of 0 has no percentage floor. */
	for (i = 0; i < REPS; i++)
		base[i] = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_double_eq(r.floor_pct, 0);
	in.floor_abs = -1;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.floor_abs = INFINITY;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
}
END_TEST

START_TEST(infinite_noise_does_not_disable_fail)
{
	/* Faults: three reps with a base of 0 where null saw 3, so the null
	 * change has three +inf and the noise is +inf. Head is 100x worse.
	 * The infinite noise is reported but sets no threshold: every rule
	 * set FAILs (rule12 used to PASS it, perfab/1 could not FAIL it). */
	double base[REPS], head[REPS], null[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;
	int rules;

	for (i = 0; i < REPS; i++) {
		base[i] = i < 3 ? 0 : 50;
		null[i] = i < 3 ? 3 : 50;
		head[i] = i < 3 ? 300 : 5000;
	}
	for (rules = 0; rules < 3; rules++) {
		in = cpu_input(base, head, null, REPS, (enum pab_rules)rules);
		in.credit_eligible = 0;
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert(isinf(r.noise) && r.noise > 0);
		ck_assert_int_eq(r.noise_infinite, 1);
		ck_assert_msg(r.verdict == PAB_FAIL, "%s: %s", pab_rules_name(in.rules),
			      pab_verdict_name(r.verdict));
		ck_assert(isfinite(r.fail_threshold));
		ck_assert(isfinite(r.allowance));
	}
}
END_TEST

START_TEST(reps_needed_estimate)
{
	/* Changes -4 .. 7 (x U): ranks (3, 10) give [-2 U, 5 U], median
	 * 1.5 U, half-width 3.5 U. With tolerance 2 U the median is 0.5 U
	 * from the allowance: 12 * (3.5 / 0.5)^2 = 588 reps. */
	static const double d[REPS] = { 7, -4, 6, -3, 5, -2, 4, -1, 3, 0, 2, 1 };
	double base[REPS], head[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;

	exact_changes(base, head, d, REPS);
	in = cpu_input(base, head, NULL, REPS, PAB_RULES_PERFAB1);
	in.tolerance_pct = 2 * U;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_double_eq(r.change.median, 1.5 * U);
	ck_assert_double_eq(r.half_width, 3.5 * U);
	ck_assert_uint_eq(r.reps_needed, 588);

	/* A median far beyond the threshold: at least one more rep. */
	in.tolerance_pct = 0.0;
	in.rules = PAB_RULES_RULE12;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	/* needed = 1.5 U: 12 * (3.5 / 1.5)^2 = 65.33 -> 66. */
	ck_assert_uint_eq(r.reps_needed, 66);

	/* An estimate of exactly 2^64 reps saturates at SIZE_MAX: 16 pairs,
	 * ranks (4, 13) at +-2^31 U, median 0, needed 2 U: 16 (2^31 / 2)^2. */
	{
		static const double w = 2147483648.0; /* 2^31 */
		static const double d16[16] = { -w, -w, -w, -w, -1, -1, -1, 0, 0, 1, 1, 1, w, w, w, w };
		double b16[16], h16[16];

		exact_changes(b16, h16, d16, 16);
		in = cpu_input(b16, h16, NULL, 16, PAB_RULES_PERFAB1);
		in.tolerance_pct = 2 * U;
		ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
		ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
		ck_assert_double_eq(r.half_width, w * U);
		ck_assert_uint_eq(r.reps_needed, SIZE_MAX);
	}
}
END_TEST

START_TEST(control_equivalence)
{
	/* A control that passes on tolerance but whose interval reaches
	 * below -3% is held at INCONCLUSIVE; one that got much faster FAILs:
	 * a control must be unchanged either way. */
	static const double dwide[REPS] = { -4, -3.5, -3, -2.5, -2, -1, 0, 0.25, 0.5, 0.75, 1, 1.2 };
	static const double dfast[REPS] = { -9, -8.5, -8, -7.5, -7, -7, -6.5, -6, -5.5, -5, -4.5, -4 };
	double base[REPS], head[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;

	exact_changes(base, head, dwide, REPS);
	in = cpu_input(base, head, NULL, REPS, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_PASS); /* not a control */
	ck_assert_int_eq(r.equivalence, PAB_EQUIV_UNKNOWN);
	in.control = 1;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_int_eq(r.equivalence, PAB_EQUIV_UNKNOWN);
	ck_assert_int_eq(r.pass_decider, PAB_DECIDED_EQUIVALENCE);
	in.equivalence_margin_pct = 5;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_PASS);
	ck_assert_int_eq(r.equivalence, PAB_EQUIV_YES);

	exact_changes(base, head, dfast, REPS);
	in.equivalence_margin_pct = 3;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert_int_eq(r.equivalence, PAB_EQUIV_NO);
	ck_assert_int_eq(r.fail_decider, PAB_DECIDED_EQUIVALENCE);
}
END_TEST

/* Under perfab/2 with a null arm a control's equivalence FAIL is guarded
 * as any FAIL is: it needs head vs null outside the margin too, on the
 * same side. A control that moved against base alone is INCONCLUSIVE. */
START_TEST(control_equivalence_guarded_by_null)
{
	static const double dfast[REPS] = { -9, -8.5, -8, -7.5, -7, -7, -6.5, -6, -5.5, -5, -4.5, -4 };
	double base[REPS], head[REPS], null[REPS], slow_null[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;
	size_t i;

	exact_changes(base, head, dfast, REPS);
	for (i = 0; i < REPS; i++)
		slow_null[i] = head[i] - 10; /* head ~20% slower than null */
	in = cpu_input(base, head, base, REPS, PAB_RULES_PERFAB2);
	in.control = 1;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL); /* moved against both */
	ck_assert_int_eq(r.equivalence, PAB_EQUIV_NO);
	ck_assert_int_eq(r.fail_decider, PAB_DECIDED_EQUIVALENCE);

	memcpy(null, head, sizeof(null)); /* head vs null: no change */
	in.null = null;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert_int_eq(r.equivalence, PAB_EQUIV_UNKNOWN);
	ck_assert_int_eq(r.pass_decider, PAB_DECIDED_EQUIVALENCE);

	in.null = slow_null; /* faster than base, slower than null */
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_ne(r.verdict, PAB_FAIL);
	ck_assert_int_eq(r.equivalence, PAB_EQUIV_UNKNOWN);

	in.rules = PAB_RULES_PERFAB1; /* no guard: base alone decides */
	in.null = null;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
}
END_TEST

/* The sign-test ranks at every n and every step of them: just above the
 * confidence 1 - 2 P(Bin(n, 1/2) <= J) the lower rank is J (no interval
 * for J = 0), just below it more than J; below the minimum n the
 * coverage of [min, max] is exactly 1 - 2^(1-n). */
START_TEST(sign_ranks_at_every_step)
{
	size_t n, J, lo, hi, steps = 0;
	double cov, exact;
	int ret;

	for (n = 1; n <= 80; n++) {
		for (J = 0; 2 * J + 1 < n; J++) {
			double t = gsl_cdf_binomial_P((unsigned int)J, 0.5, (unsigned int)n);
			double prev = J ? gsl_cdf_binomial_P((unsigned int)J - 1, 0.5, (unsigned int)n) : 0;
			double next = gsl_cdf_binomial_P((unsigned int)J + 1, 0.5, (unsigned int)n);
			/* a quarter of the nearer step, in the limit (1 - conf) / 2 */
			double d = fmin(t - prev, next - t) / 4;
			double above = 1.0 - 2.0 * (t - d), below = 1.0 - 2.0 * (t + d);

			if (d < 1e-12 || !(below > 0.0) || !(above < 1.0))
				continue;
			ret = pab_sign_ranks(n, above, &lo, &hi, &cov);
			ck_assert_msg(ret == (J > 0), "n=%zu J=%zu above: %d", n, J, ret);
			if (J > 0) {
				ck_assert_msg(lo == J && hi == n + 1 - J, "n=%zu J=%zu above: %zu..%zu",
					      n, J, lo, hi);
				ck_assert(cov >= above);
			}
			ck_assert_int_eq(pab_sign_ranks(n, below, &lo, &hi, &cov), 1);
			ck_assert_msg(lo == J + 1 && hi == n - J, "n=%zu J=%zu below: %zu..%zu",
				      n, J, lo, hi);
			ck_assert(cov >= below);
			/* At the step itself, where the limit is exactly the
			 * tail (it round-trips through conf): the tail does not
			 * exceed it, so J is still a count the interval may miss. */
			exact = 1.0 - 2.0 * t;
			if ((1.0 - exact) / 2.0 == t && exact > 0.0 && exact < 1.0) {
				ck_assert_int_eq(pab_sign_ranks(n, exact, &lo, &hi, &cov), 1);
				ck_assert_msg(lo == J + 1 && hi == n - J, "n=%zu J=%zu at the step: %zu..%zu",
					      n, J, lo, hi);
				steps++;
			}
		}
	}
	ck_assert_msg(steps >= 10, "only %zu steps land exactly", steps);
	ck_assert_int_eq(pab_sign_ranks(5, 0.95, &lo, &hi, &cov), 0);
	ck_assert_uint_eq(lo, 1);
	ck_assert_uint_eq(hi, 5);
	ck_assert_double_eq(cov, 0.9375);
	ck_assert_int_eq(pab_sign_ranks(1, 0.5, &lo, &hi, &cov), 0);
	ck_assert_double_eq(cov, 0.0);
}
END_TEST

/* pab_sign_interval refuses what pab_sign_ranks does, and a NULL x. */
START_TEST(sign_interval_invalid)
{
	double x[6] = { 1, 2, 3, 4, 5, 6 };
	struct pab_interval iv;

	ck_assert_int_eq(pab_sign_interval(NULL, 6, 0.95, &iv), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_interval(x, 6, 1.0, &iv), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_interval(x, 6, 0.0, &iv), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_interval(x, 6, 0.95, NULL), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_interval(NULL, 0, 0.95, &iv), PAB_ENODATA);
	/* An invalid confidence is refused before looking for data. */
	ck_assert_int_eq(pab_sign_interval(NULL, 0, 1.0, &iv), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_interval(NULL, 0, 0.0, &iv), PAB_EINVAL);
	ck_assert_int_eq(pab_sign_interval(x, 6, 0.95, &iv), 0);
	ck_assert(iv.exists);
	ck_assert_double_eq(iv.lo, 1);
	ck_assert_double_eq(iv.hi, 6);
	ck_assert_double_eq(iv.median, 3.5);
}
END_TEST

/* The median of two values is exactly their mean, and the quantiles of a
 * wide range land exactly (type 7 interpolation, no epsilon). */
START_TEST(median_exact)
{
	double two[2] = { 0, 1e6 }, five[5] = { 50, 10, 40, 20, 30 }, q;

	ck_assert_int_eq(pab_median(two, 2, &q), 0);
	ck_assert_double_eq(q, 5e5);
	ck_assert_int_eq(pab_median(five, 5, &q), 0);
	ck_assert_double_eq(q, 30);
	ck_assert_int_eq(pab_quantile(five, 5, 0.25, &q), 0);
	ck_assert_double_eq(q, 20);
	ck_assert_int_eq(pab_quantile(five, 5, 1.0, &q), 0);
	ck_assert_double_eq(q, 50);
	ck_assert_int_eq(pab_quantile(five, 5, 0.0, &q), 0);
	ck_assert_double_eq(q, 10);
	ck_assert_int_eq(pab_quantile(five, 5, 0.9, &q), 0);
	ck_assert_double_eq_tol(q, 46, 1e-12);
	ck_assert_int_eq(pab_quantile(five, 5, nextafter(1.0, 2.0), &q), PAB_EINVAL);
	ck_assert_int_eq(pab_quantile(NULL, 5, 0.5, &q), PAB_EINVAL);
	ck_assert_int_eq(pab_quantile(NULL, 0, 0.5, &q), PAB_ENODATA);
}
END_TEST

/* pab_looks_plan near SIZE_MAX: it doubles while that cannot overflow. */
START_TEST(looks_plan_near_size_max)
{
	size_t looks[8], i;

	ck_assert_uint_eq(pab_looks_plan(SIZE_MAX / 3 + 1, SIZE_MAX, 1, looks, 8), 2);
	ck_assert_uint_eq(looks[0], SIZE_MAX / 3 + 1);
	ck_assert_uint_eq(looks[1], 2 * (SIZE_MAX / 3 + 1));
	ck_assert_uint_eq(pab_looks_plan(SIZE_MAX / 2 + 1, SIZE_MAX, 1, looks, 8), 1);
	/* At exactly SIZE_MAX / 2 the doubling still fits. */
	ck_assert_uint_eq(pab_looks_plan(SIZE_MAX / 2, SIZE_MAX, 1, looks, 8), 2);
	ck_assert_uint_eq(looks[1], SIZE_MAX - 1);
	/* A block of 7 (SIZE_MAX / 2 is a multiple of it): neither the cap
	 * rounded up nor the next look wraps round to a small number. */
	ck_assert_uint_eq((SIZE_MAX / 2) % 7, 0);
	ck_assert_uint_eq(pab_looks_plan(SIZE_MAX / 2, SIZE_MAX, 7, looks, 8), 1);
	ck_assert_uint_eq(looks[0], SIZE_MAX / 2);
	ck_assert_uint_eq(pab_looks_plan(SIZE_MAX / 4 - 5, SIZE_MAX, 7, looks, 8), 3);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(looks[i] % 7, 0);
		ck_assert(looks[i] <= SIZE_MAX / 7 * 7);
		ck_assert(!i || looks[i] > looks[i - 1]);
	}
}
END_TEST

/* pab_combine_roles at each edge: shown cells never count, one FAIL of a
 * required or guarding cell fails the row, PASS needs every required cell
 * and at least one, nothing measured is NOT_MEASURED. */
START_TEST(combine_roles_edges)
{
	const enum pab_cell_role rq = PAB_ROLE_REQUIRED, gd = PAB_ROLE_GUARD, sh = PAB_ROLE_SHOWN;
	struct {
		enum pab_verdict v[3];
		enum pab_cell_role r[3];
		size_t n;
		enum pab_verdict want;
	} c[] = {
		{ { PAB_PASS }, { rq }, 0, PAB_NOT_MEASURED },
		{ { PAB_PASS }, { rq }, 1, PAB_PASS },
		{ { PAB_FAIL }, { sh }, 1, PAB_NOT_MEASURED },
		{ { PAB_PASS, PAB_FAIL }, { rq, sh }, 2, PAB_PASS },
		{ { PAB_PASS, PAB_INCONCLUSIVE }, { rq, gd }, 2, PAB_PASS },
		{ { PAB_PASS, PAB_NOT_MEASURED }, { rq, gd }, 2, PAB_PASS },
		{ { PAB_PASS, PAB_FAIL }, { rq, gd }, 2, PAB_FAIL },
		{ { PAB_FAIL, PAB_PASS }, { rq, gd }, 2, PAB_FAIL },
		{ { PAB_PASS, PAB_INCONCLUSIVE }, { rq, rq }, 2, PAB_INCONCLUSIVE },
		{ { PAB_INCONCLUSIVE, PAB_PASS }, { rq, rq }, 2, PAB_INCONCLUSIVE },
		{ { PAB_PASS, PAB_PASS, PAB_PASS }, { rq, rq, rq }, 3, PAB_PASS },
		{ { PAB_PASS, PAB_PASS, PAB_NOT_MEASURED }, { rq, rq, rq }, 3, PAB_INCONCLUSIVE },
		{ { PAB_PASS }, { gd }, 1, PAB_INCONCLUSIVE },          /* no required cell */
		{ { PAB_NOT_MEASURED, PAB_PASS }, { rq, gd }, 2, PAB_INCONCLUSIVE },
		{ { PAB_NOT_MEASURED, PAB_NOT_MEASURED }, { rq, gd }, 2, PAB_NOT_MEASURED },
		{ { PAB_NOT_MEASURED, PAB_PASS }, { rq, sh }, 2, PAB_NOT_MEASURED },
	};
	size_t i;

	for (i = 0; i < NELEMS(c); i++)
		ck_assert_msg(pab_combine_roles(c[i].v, c[i].r, c[i].n) == c[i].want,
			      "case %zu: %s, want %s", i,
			      pab_verdict_name(pab_combine_roles(c[i].v, c[i].r, c[i].n)),
			      pab_verdict_name(c[i].want));
	ck_assert_int_eq(pab_combine_roles(NULL, c[1].r, 1), PAB_NOT_MEASURED);
	ck_assert_int_eq(pab_combine_roles(c[1].v, NULL, 1), PAB_NOT_MEASURED);
}
END_TEST

/* An INCONCLUSIVE cell at n of a cap: allowance 2%, fail threshold 2%. */
static struct pab_cell_result outlook_cell(size_t n, double median, double half_width)
{
	struct pab_cell_result r;

	memset(&r, 0, sizeof(r));
	r.verdict = PAB_INCONCLUSIVE;
	r.change.n = n;
	r.change.exists = 1;
	r.change.median = median;
	r.change.lo = median - half_width;
	r.change.hi = median + half_width;
	r.half_width = half_width;
	r.allowance = 2;
	r.fail_threshold = 2;
	r.reps_needed = 77;
	return r;
}

/* outlook_cell with the interval's upper end moved to hi (its lower end
 * where the half-width puts it): a skewed interval. */
static struct pab_cell_result skewed_cell(size_t n, double median, double half_width, double hi)
{
	struct pab_cell_result r = outlook_cell(n, median, half_width);

	r.change.hi = hi;
	r.change.lo = hi - 2 * half_width;
	return r;
}

/* pab_cell_outlook at each edge (doc/method.md §8b, "Undecidable cells"):
 * resolves = hw * sqrt(n / cap); undecidable when resolves > 1.5 x the
 * allowance, median + resolves > allowance (no PASS) and hi - resolves
 * <= fail threshold (no median the interval allows could FAIL). n = 12,
 * cap 48: resolves = hw / 2. */
START_TEST(cell_outlook_edges)
{
	struct pab_cell_result r;
	struct pab_outlook o;

	r = outlook_cell(12, 0, 6);
	ck_assert_int_eq(pab_cell_outlook(NULL, 48, &o), PAB_EINVAL);
	ck_assert_int_eq(pab_cell_outlook(&r, 0, &o), PAB_EINVAL);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, NULL), PAB_EINVAL);
	/* resolves exactly 1.5 x the allowance: still resolvable. */
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert_double_eq_tol(o.resolves_pct, 3, 1e-12);
	ck_assert_double_eq_tol(o.tolerance_pct, 3, 1e-12);
	ck_assert_uint_eq(o.reps_needed, 77);
	/* Just wider, the median at 0 reaching neither end: its upper end 6
	 * less 3 could still FAIL (the true median may be 6), so the cell
	 * goes on (the old rule, on the median, gave it up). */
	r = outlook_cell(12, 0, nextafter(6, INFINITY));
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert(o.fail_reachable && !o.pass_reachable);
	/* A symmetric interval and a cap of 4 n: no PASS (m + hw/2 > A) means
	 * a FAIL in reach (hi - hw/2 = m + hw/2 > A): never undecidable. */
	r = outlook_cell(12, 5, 40);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	/* Skewed: resolves 4, hi 6: 6 - 4 = 2 is not above the threshold 2,
	 * and no PASS: undecidable; a hair higher and a FAIL is in reach. */
	r = skewed_cell(12, 0, 8, 6);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 1);
	ck_assert(!o.fail_reachable && !o.pass_reachable);
	r = skewed_cell(12, 0, 8, nextafter(6, INFINITY));
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert(o.fail_reachable);
	/* PASS reachable exactly at median -2 (-2 + 4 <= 2) ... */
	r = skewed_cell(12, -2, 8, 6);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert_double_eq_tol(o.tolerance_pct, 4, 1e-12); /* max(median, 0) + resolves */
	r = skewed_cell(12, -1.999, 8, 6);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 1);
	/* ... and a median far above the threshold FAILs by the cap whatever
	 * the rest of the interval: at median 6 hi is at least 6. */
	r = skewed_cell(12, 6, 8, 6);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 1);
	ck_assert_double_eq_tol(o.tolerance_pct, 10, 1e-12);
	r = skewed_cell(12, 6.001, 8, 6.001);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	/* A guarded perfab/2 FAIL needs head vs null too: a head-null
	 * interval that cannot cross keeps FAIL out of reach, one that does
	 * not exist yet (fewer than 6 pairs) may still become one. */
	r = outlook_cell(12, 0, 8);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	r.fail_guarded = 1;
	r.head_null.n = 12;
	r.head_null.exists = 1;
	r.head_null.lo = -10;
	r.head_null.hi = 6;
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 1);
	r.head_null.hi = 6.5;
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	r.head_null.hi = 6;
	r.head_null.exists = 0;
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	/* At the cap there is nothing more to decide; resolves is the
	 * half-width itself (n over a cap below n counts as n). */
	r = outlook_cell(48, 0, 20);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert_double_eq_tol(o.resolves_pct, 20, 1e-12);
	r = outlook_cell(60, 0, 20);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert_double_eq_tol(o.resolves_pct, 20, 1e-12);
	r = outlook_cell(47, 0, 20);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 1);
	/* Only an INCONCLUSIVE cell with an interval has an outlook. */
	r = outlook_cell(12, 0, 20);
	r.verdict = PAB_PASS;
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert(isnan(o.resolves_pct) && isnan(o.tolerance_pct));
	ck_assert_uint_eq(o.reps_needed, 0);
	r = outlook_cell(12, 0, 20);
	r.change.exists = 0;
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert(isnan(o.resolves_pct));
	r = outlook_cell(0, 0, 20);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert(isnan(o.resolves_pct));
	/* A half-width or median that is not finite: no projection. */
	r = outlook_cell(12, 0, INFINITY);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert(isnan(o.resolves_pct) && isnan(o.tolerance_pct));
	r = outlook_cell(12, NAN, 20);
	ck_assert_int_eq(pab_cell_outlook(&r, 48, &o), 0);
	ck_assert_double_eq_tol(o.resolves_pct, 10, 1e-12);
	ck_assert(isnan(o.tolerance_pct));
}
END_TEST

/* Time guards (doc/method.md §8a): the guard allowance is the larger of
 * the guard tolerance and the cell's allowance; a guard resolves when it
 * PASSed or its interval's upper end is within the guard allowance;
 * pab_combine_held holds a row's PASS while a guard is held. */
START_TEST(time_guard_edges)
{
	const enum pab_cell_role rq = PAB_ROLE_REQUIRED, gd = PAB_ROLE_GUARD;
	enum pab_verdict v[2] = { PAB_PASS, PAB_INCONCLUSIVE };
	enum pab_cell_role role[2] = { rq, gd };
	int held[2] = { 0, 1 };
	struct pab_cell_result r = outlook_cell(24, 1, 3); /* [-2, +4] */
	struct pab_outlook o;

	ck_assert_double_eq(pab_guard_allowance(&r, 4), 4);
	ck_assert_double_eq(pab_guard_allowance(&r, 1), 2); /* never below the allowance */
	r.allowance = 10;                                  /* a memory credit */
	ck_assert_double_eq(pab_guard_allowance(&r, 4), 10);
	r.allowance = 2;
	ck_assert(isnan(pab_guard_allowance(&r, -1)));
	ck_assert(isnan(pab_guard_allowance(&r, NAN)));
	ck_assert(isnan(pab_guard_allowance(NULL, 4)));
	ck_assert_int_eq(pab_guard_resolved(NULL, 4), PAB_EINVAL);
	ck_assert_int_eq(pab_guard_resolved(&r, -1), PAB_EINVAL);
	/* hi 4 against 4: resolved (the end is inclusive, like PASS's) ... */
	ck_assert_int_eq(pab_guard_resolved(&r, 4), 1);
	/* ... against 3.999 not. */
	ck_assert_int_eq(pab_guard_resolved(&r, 3.999), 0);
	/* No interval (n < 6), FAIL, NOT MEASURED: not resolved; PASS is. */
	r.change.exists = 0;
	ck_assert_int_eq(pab_guard_resolved(&r, 100), 0);
	r.change.exists = 1;
	r.verdict = PAB_FAIL;
	ck_assert_int_eq(pab_guard_resolved(&r, 100), 0);
	r.verdict = PAB_NOT_MEASURED;
	ck_assert_int_eq(pab_guard_resolved(&r, 100), 0);
	r.verdict = PAB_PASS;
	ck_assert_int_eq(pab_guard_resolved(&r, 0), 1);
	/* The guard's outlook is against the guard allowance: median 1,
	 * resolves 3 * sqrt(24/96) = 1.5 at the cap of 96 ... */
	r = outlook_cell(24, 1, 3);
	ck_assert_int_eq(pab_guard_outlook(&r, 96, 4, &o), 0);
	ck_assert(o.pass_reachable);
	ck_assert_double_eq_tol(o.resolves_pct, 1.5, 1e-12);
	ck_assert_double_eq_tol(o.tolerance_pct, 2.5, 1e-12);
	/* ... and its estimate of reps against it: needed = 4 - 1 = 3, so
	 * 24 (3 / 3)^2 = 24 -> at least n + 1. */
	ck_assert_uint_eq(o.reps_needed, 25);
	ck_assert_int_eq(pab_guard_outlook(NULL, 96, 4, &o), PAB_EINVAL);
	ck_assert_int_eq(pab_guard_outlook(&r, 96, -1, &o), PAB_EINVAL);
	/* pab_combine_held: a held guard holds a PASS, not a FAIL. */
	ck_assert_int_eq(pab_combine_held(v, role, held, 2), PAB_INCONCLUSIVE);
	ck_assert_int_eq(pab_combine_held(v, role, NULL, 2), PAB_PASS);
	held[1] = 0;
	ck_assert_int_eq(pab_combine_held(v, role, held, 2), PAB_PASS);
	held[0] = 1; /* held of a required cell is ignored */
	ck_assert_int_eq(pab_combine_held(v, role, held, 2), PAB_PASS);
	held[1] = 1;
	v[0] = PAB_FAIL;
	ck_assert_int_eq(pab_combine_held(v, role, held, 2), PAB_FAIL);
	ck_assert_int_eq(pab_combine_held(NULL, role, held, 2), PAB_NOT_MEASURED);
}
END_TEST

/* Boundaries the mutation run (ci/mutate.sh) found untested. */

/* pab_equivalent of no interval at all is UNKNOWN, not a crash. */
START_TEST(equivalence_of_nothing)
{
	struct pab_interval none = { 0 };

	ck_assert_int_eq(pab_equivalent(NULL, 3), PAB_EQUIV_UNKNOWN);
	ck_assert_int_eq(pab_equivalent(&none, 3), PAB_EQUIV_UNKNOWN);
	none.n = 6;
	none.exists = 0;
	ck_assert_int_eq(pab_equivalent(&none, 3), PAB_EQUIV_UNKNOWN);
	none.exists = 1;
	/* Exactly at +-margin is inside (the ends are inclusive) ... */
	none.lo = -3;
	none.hi = 3;
	ck_assert_int_eq(pab_equivalent(&none, 3), PAB_EQUIV_YES);
	/* ... and a margin of exactly 0 is a margin: a point at 0 is equivalent. */
	none.lo = none.hi = 0;
	ck_assert_int_eq(pab_equivalent(&none, 0), PAB_EQUIV_YES);
	/* Just past the margin on either side, wholly: not equivalent. */
	none.lo = nextafter(3, INFINITY);
	none.hi = 5;
	ck_assert_int_eq(pab_equivalent(&none, 3), PAB_EQUIV_NO);
	none.lo = -5;
	none.hi = nextafter(-3, -INFINITY);
	ck_assert_int_eq(pab_equivalent(&none, 3), PAB_EQUIV_NO);
	/* Touching the margin from outside is not yet outside. */
	none.lo = 3;
	none.hi = 5;
	ck_assert_int_eq(pab_equivalent(&none, 3), PAB_EQUIV_UNKNOWN);
}
END_TEST

/* pab_chain_steps: conf must be inside (0, 1); a change of exactly -100%
 * and an infinite one are left out, counted; nothing skipped is 0. */
START_TEST(chain_steps_edges)
{
	struct pab_step ok = { 1.0, 0.5, 1.5, 0.95 }, s[3];
	struct pab_chain c;

	ck_assert_int_eq(pab_chain_steps(&ok, 1, 1.0, &c), PAB_EINVAL);
	ck_assert_int_eq(pab_chain_steps(&ok, 1, 0.0, &c), PAB_EINVAL);
	ck_assert_int_eq(pab_chain_steps(&ok, 1, nextafter(1.0, 0), &c), 0);
	ck_assert_int_eq(pab_chain_steps(NULL, 1, 0.95, &c), PAB_EINVAL);
	ck_assert_int_eq(pab_chain_steps(NULL, 0, 0.95, &c), 0);
	ck_assert_uint_eq(c.n, 0);
	ck_assert_uint_eq(c.skipped, 0);
	ck_assert_int_eq(pab_chain_steps(&ok, 1, 0.95, &c), 0);
	ck_assert_uint_eq(c.n, 1);
	ck_assert_uint_eq(c.skipped, 0);
	ck_assert_double_eq_tol(c.change_pct, 1.0, 1e-12);
	/* One step at the chain's own confidence: its interval comes back
	 * (log-symmetric about the change), to 1e-12. */
	{
		double half = (log(1.015) - log(1.005)) / 2;

		ck_assert_double_eq_tol(c.lo_pct, expm1(log(1.01) - half) * 100, 1e-12);
		ck_assert_double_eq_tol(c.hi_pct, expm1(log(1.01) + half) * 100, 1e-12);
	}
	s[0] = ok;
	s[1] = ok;
	s[1].change_pct = -100.0;  /* no ratio: left out */
	s[2] = ok;
	s[2].hi_pct = INFINITY;    /* no finite end: left out */
	ck_assert_int_eq(pab_chain_steps(s, 3, 0.95, &c), 0);
	ck_assert_uint_eq(c.n, 1);
	ck_assert_uint_eq(c.skipped, 2);
	s[1].change_pct = nextafter(-100.0, 0);  /* just above: a ratio */
	s[1].lo_pct = -100.0 + 1e-9;
	s[1].hi_pct = 0;
	ck_assert_int_eq(pab_chain_steps(s, 2, 0.95, &c), 0);
	ck_assert_uint_eq(c.n, 2);
	/* A step's coverage inside (0, 1), however close to an end. */
	s[1] = ok;
	s[1].coverage = 1.0;
	s[2] = ok;
	s[2].coverage = 0.0;
	ck_assert_int_eq(pab_chain_steps(s, 3, 0.95, &c), 0);
	ck_assert_uint_eq(c.n, 1);
	ck_assert_uint_eq(c.skipped, 2);
	s[1].coverage = 0.9999995;
	s[2].coverage = 1e-9;
	ck_assert_int_eq(pab_chain_steps(s, 3, 0.95, &c), 0);
	ck_assert_uint_eq(c.n, 3);
	ck_assert_uint_eq(c.skipped, 0);
}
END_TEST

/* pab_calibrate on a seeded case, against the library's own values when
 * this test was written: any change to its random stream or its formulas
 * shows here and must be made knowingly (the formulas' properties are
 * tests/sim/test_calibrate_sim's). */
START_TEST(calibrate_seeded_reference)
{
	double d[24], e[24];
	size_t looks[2] = { 12, 24 };
	struct pab_calibration c;
	int i;

	for (i = 0; i < 24; i++) {
		d[i] = ((i * 7) % 11 - 5) * 0.3;
		e[i] = ((i * 5) % 13 - 6) * 0.25;
	}
	ck_assert_int_eq(pab_calibrate(d, e, 24, looks, 2, 0.95, 200, 42, &c), 0);
	ck_assert_uint_eq(c.n, 24);
	ck_assert_double_eq_tol(c.median, 0, 1e-12);
	ck_assert_double_eq_tol(c.spread, 1.33434, 1e-9);
	ck_assert_double_eq_tol(c.tolerance, 1.1236220518046045, 1e-9);
	ck_assert_double_eq_tol(c.pass_prob, 0.9, 1e-12);
	ck_assert_double_eq_tol(c.looks[0].half_width, 0.95981493982288835, 1e-9);
	ck_assert_double_eq_tol(c.looks[1].half_width, 0.75626139156475558, 1e-9);
	ck_assert_double_eq_tol(c.looks[1].mde, 2.3623053470975881, 1e-9);
}
END_TEST

/* pab_calibrate at its edges: PAB_CAL_MAX_LOOKS looks are valid, one more
 * is not; 2 usable pairs calibrate, 1 is no data; changes that are all 0
 * give a tolerance of exactly 0. */
START_TEST(calibrate_bounds)
{
	double d[24], z[24];
	size_t looks[PAB_CAL_MAX_LOOKS + 1], i;
	struct pab_calibration c;

	for (i = 0; i < 24; i++) {
		d[i] = ((double)((i * 7) % 11) - 5) * 0.3;
		z[i] = 0;
	}
	for (i = 0; i <= PAB_CAL_MAX_LOOKS; i++)
		looks[i] = i + 1;
	ck_assert_int_eq(pab_calibrate(d, NULL, 24, looks, PAB_CAL_MAX_LOOKS, 0.95, 20, 42, &c), 0);
	ck_assert_int_eq(pab_calibrate(d, NULL, 24, looks, PAB_CAL_MAX_LOOKS + 1, 0.95, 20, 42, &c),
			 PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate(d, NULL, 2, looks, 1, 0.95, 20, 42, &c), 0);
	ck_assert_uint_eq(c.n, 2);
	ck_assert_int_eq(pab_calibrate(d, NULL, 1, looks, 1, 0.95, 20, 42, &c), PAB_ENODATA);
	ck_assert_int_eq(pab_calibrate(z, NULL, 24, looks + 11, 2, 0.95, 20, 42, &c), 0);
	ck_assert(c.tolerance == 0);
}
END_TEST

/* pab_calibrate_at: with every look and PAB_CAL_PASS_PROB it is
 * pab_calibrate; a PASS needed by an earlier look, or more often, asks a
 * tolerance at least as wide (the runs and their looks are the same
 * stream); its arguments are checked. */
START_TEST(calibrate_at_by_look_and_prob)
{
	double d[48];
	size_t looks[3] = { 12, 24, 48 }, i;
	struct pab_calibration all, at, early, often;

	for (i = 0; i < 48; i++)
		d[i] = ((double)((i * 7) % 11) - 5) * 0.3;
	ck_assert_int_eq(pab_calibrate(d, NULL, 48, looks, 3, 0.95, 400, 7, &all), 0);
	ck_assert_int_eq(pab_calibrate_at(d, NULL, 48, looks, 3, 3, PAB_CAL_PASS_PROB, 0.95, 400,
					  7, &at), 0);
	ck_assert(all.tolerance == at.tolerance && all.pass_prob == at.pass_prob);
	ck_assert(all.looks[2].mde == at.looks[2].mde);
	ck_assert_int_eq(pab_calibrate_at(d, NULL, 48, looks, 3, 2, PAB_CAL_PASS_PROB, 0.95, 400,
					  7, &early), 0);
	ck_assert(early.tolerance > all.tolerance);
	ck_assert_uint_eq(early.n_looks, 3);
	ck_assert(all.looks[2].half_width == early.looks[2].half_width);
	ck_assert_int_eq(pab_calibrate_at(d, NULL, 48, looks, 3, 3, 0.974, 0.95, 400, 7, &often),
			 0);
	ck_assert(often.tolerance > all.tolerance);
	ck_assert(often.pass_prob >= 0.974 - 1.0 / 400); /* the quantile interpolates */
	ck_assert_int_eq(pab_calibrate_at(d, NULL, 48, looks, 3, 0, 0.9, 0.95, 400, 7, &at),
			 PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate_at(d, NULL, 48, looks, 3, 4, 0.9, 0.95, 400, 7, &at),
			 PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate_at(d, NULL, 48, looks, 3, 3, 1.0, 0.95, 400, 7, &at),
			 PAB_EINVAL);
	ck_assert_int_eq(pab_calibrate_at(d, NULL, 48, looks, 3, 3, 0.0, 0.95, 400, 7, &at),
			 PAB_EINVAL);
}
END_TEST

START_TEST(judge_invalid)
{
	double x[REPS];
	struct pab_cell_input in;
	struct pab_cell_result r;

	fill(x, REPS, 1, 0.1, 0);
	in = cpu_input(x, x, NULL, REPS, PAB_RULES_PERFAB1);
	ck_assert_int_eq(pab_judge_cell(NULL, &r), PAB_EINVAL);
	ck_assert_int_eq(pab_judge_cell(&in, NULL), PAB_EINVAL);
	in.conf = 1.0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.conf = 0.95;
	in.saved_pct = NAN;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.saved_pct = 101;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.saved_pct = 0;
	in.tolerance_pct = -1;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.tolerance_pct = 2;
	in.head = NULL;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.head = x;
	in.rules = (enum pab_rules)7;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.rules = PAB_RULES_PERFAB1;
	in.control = 1;
	in.equivalence_margin_pct = NAN;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	/* Each bound itself is valid, the next value past it is not. */
	in.equivalence_margin_pct = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	in.equivalence_margin_pct = -1e-9;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.equivalence_margin_pct = INFINITY;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.control = 0;
	in.conf = nextafter(1.0, 0);
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	in.conf = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.conf = 0.95;
	in.saved_pct = 100;  /* reachable: pab_saved_percent clamps to 100 */
	in.credit_eligible = 1;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_double_eq_tol(r.credit, 100 / PAB_MEMORY_TO_CPU, 1e-12);
	in.saved_pct = nextafter(100, INFINITY);
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.saved_pct = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_double_eq(r.credit, 0);
	in.saved_pct = -1e-9;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.saved_pct = 0;
	in.tolerance_pct = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	in.tolerance_pct = INFINITY;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.tolerance_pct = 2;
	in.floor_abs = 0;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	in.floor_abs = -1e-9;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.floor_abs = INFINITY;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
	in.floor_abs = 0;
	in.better = (enum pab_better)5;
	ck_assert_int_eq(pab_judge_cell(&in, &r), PAB_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------ */

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc;

	tc = tcase_create("pcg32");
	tcase_add_test(tc, pcg32_reference_vector);
	tcase_add_test(tc, pcg32_bounded_and_double_exact);
	tcase_add_test(tc, pcg32_streams_differ);
	tcase_add_test(tc, pcg32_bounded_uniform);
	tcase_add_test(tc, pcg32_double_and_normal_moments);
	suite_add_tcase(s, tc);

	tc = tcase_create("order");
	tcase_add_test(tc, median_odd_even_nan);
	tcase_add_test(tc, median_infinities);
	tcase_add_test(tc, quantile_type7);
	tcase_add_test(tc, quantile_infinities);
	tcase_add_test(tc, sorted_finite_copy);
	suite_add_tcase(s, tc);

	tc = tcase_create("sign");
	tcase_add_test(tc, sign_ranks_match_exact_binomial);
	tcase_add_test(tc, sign_ranks_seed_values);
	tcase_add_test(tc, sign_ranks_invalid);
	tcase_add_test(tc, sign_interval_basic);
	tcase_add_test(tc, sign_interval_small_n_is_no_interval);
	tcase_add_test(tc, sign_interval_ties_and_infinities);
	suite_add_tcase(s, tc);

	tc = tcase_create("changes");
	tcase_add_test(tc, percent_worse_directions);
	tcase_add_test(tc, percent_worse_edges);
	tcase_add_test(tc, paired_changes_by_index);
	tcase_add_test(tc, noise_floor);
	tcase_add_test(tc, beyond_noise);
	tcase_add_test(tc, equivalence);
	tcase_add_test(tc, equivalence_of_nothing);
	tcase_add_test(tc, chain_steps_edges);
	tcase_add_test(tc, calibrate_seeded_reference);
	tcase_add_test(tc, calibrate_bounds);
	tcase_add_test(tc, calibrate_at_by_look_and_prob);
	tcase_add_test(tc, combine_roles_edges);
	tcase_add_test(tc, sign_ranks_at_every_step);
	tcase_add_test(tc, sign_interval_invalid);
	tcase_add_test(tc, median_exact);
	tcase_add_test(tc, looks_plan_near_size_max);
	tcase_add_test(tc, cell_outlook_edges);
	tcase_add_test(tc, time_guard_edges);
	tcase_add_test(tc, saved_percent);
	tcase_add_test(tc, memory_credit);
	suite_add_tcase(s, tc);

	tc = tcase_create("verdicts");
	tcase_add_test(tc, names_and_parse);
	tcase_add_test(tc, combine);
	tcase_add_test(tc, worked_example_credit_buys_cpu);
	tcase_add_test(tc, worked_example_control_fails);
	tcase_add_test(tc, small_n_never_decides);
	tcase_add_test(tc, looks_plan_and_their_error);
	tcase_add_test(tc, perfab2_intersection_union);
	tcase_add_test(tc, perfab2_head_null_lower_end_decides);
	tcase_add_test(tc, tolerance_floor);
	tcase_add_test(tc, infinite_noise_does_not_disable_fail);
	tcase_add_test(tc, nan_pairs_are_skipped);
	tcase_add_test(tc, null_without_pairs_is_no_null);
	tcase_add_test(tc, ties_and_zeros);
	tcase_add_test(tc, throughput_drop_fails);
	tcase_add_test(tc, rule_sets_differ);
	tcase_add_test(tc, noise_guards_fail_under_perfab1);
	tcase_add_test(tc, reps_needed_estimate);
	tcase_add_test(tc, control_equivalence);
	tcase_add_test(tc, control_equivalence_guarded_by_null);
	tcase_add_test(tc, judge_invalid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
