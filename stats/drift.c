/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * drift.c — chaining the paired changes of successive merges into one
 * change over the history ("drift"), with an interval for it.
 *
 * Each merge's A/B measures head against its own base in one rotation,
 * so its change does not depend on which machine measured it; the chain
 * multiplies the ratios (sums their logarithms). The merges are measured
 * independently, so their errors add in quadrature; each sign-test
 * interval is read as a normal one of its achieved coverage to give a
 * standard error. doc/method.md ("Drift") states the approximation and
 * the coverage the simulation measured.
 */
#include <math.h>
#include <stddef.h>

#include <gsl/gsl_cdf.h>

#include "drift.h"
#include "pab_stats.h"

/* ln(1 + pct/100): the log-ratio of a percent change; NaN at or below
 * -100% (no ratio) and for a non-finite input. */
static double log_ratio(double pct)
{
	if (!isfinite(pct) || pct <= -100.0)
		return NAN;
	return log1p(pct / 100.0);
}

double pab_chain_add(struct pab_chain_acc *acc, const struct pab_step *s)
{
	double l = log_ratio(s->change_pct), lo = log_ratio(s->lo_pct);
	double hi = log_ratio(s->hi_pct), zi;

	if (isnan(l) || isnan(lo) || isnan(hi) || lo > hi ||
	    !(s->coverage > 0.0 && s->coverage < 1.0)) {
		acc->skipped++;
		return NAN;
	}
	zi = gsl_cdf_ugaussian_Pinv((1.0 + s->coverage) / 2.0);
	acc->log_sum += l;
	acc->var += ((hi - lo) / (2.0 * zi)) * ((hi - lo) / (2.0 * zi));
	acc->n++;
	return l;
}

int pab_chain_end(const struct pab_chain_acc *acc, double conf, struct pab_chain *out)
{
	double z;

	if (!acc || !out || !(conf > 0.0 && conf < 1.0))
		return PAB_EINVAL;
	out->n = acc->n;
	out->skipped = acc->skipped;
	out->log_sum = acc->log_sum;
	if (!out->n) {
		out->log_sum = out->se_log = NAN;
		out->change_pct = out->lo_pct = out->hi_pct = NAN;
		return 0;
	}
	z = gsl_cdf_ugaussian_Pinv((1.0 + conf) / 2.0);
	out->se_log = sqrt(acc->var);
	out->change_pct = expm1(out->log_sum) * 100.0;
	out->lo_pct = expm1(out->log_sum - z * out->se_log) * 100.0;
	out->hi_pct = expm1(out->log_sum + z * out->se_log) * 100.0;
	return 0;
}

int pab_chain_steps(const struct pab_step *steps, size_t n, double conf,
		    struct pab_chain *out)
{
	struct pab_chain_acc acc = { 0 };
	size_t i;

	if (!out || (!steps && n) || !(conf > 0.0 && conf < 1.0))
		return PAB_EINVAL;
	for (i = 0; i < n; i++)
		pab_chain_add(&acc, &steps[i]);
	return pab_chain_end(&acc, conf, out);
}
