/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * change.c — paired changes and what the ledger reads off their
 * intervals: the noise floor, "beyond noise", equivalence for controls,
 * and the memory credit.
 *
 * Every change is a percentage signed so that positive means worse, so
 * the rules downstream never need to know a metric's better direction.
 * The quantities read off an interval refuse to conclude anything from a
 * range that is not a 95% interval (exists = 0, fewer than 6 values):
 * the ledger may not call [min, max] of five values an interval, so it
 * may not act on it either.
 */
#include <math.h>
#include <stddef.h>

#include "pab_stats.h"

double pab_percent_worse(double base, double head, enum pab_better better)
{
	double diff;

	if (isnan(base) || isnan(head))
		return NAN;
	if (base == 0.0) {
		/*
		 * No percentage of nothing exists, but the direction does:
		 * keep it as an infinite change so that the pair still counts
		 * (it is a rank like any other for the sign test) instead of
		 * vanishing or inventing a size, as the seed's 100% did.
		 */
		if (head == 0.0)
			return 0.0;
		if ((head > 0.0) == (better == PAB_LOWER_IS_BETTER))
			return INFINITY;
		return -INFINITY;
	}
	/*
	 * An infinite base has no finite share to measure, and the formula
	 * below says so with NaN (inf / inf) — the pair is skipped. An
	 * infinite head on a finite base is an infinite change.
	 */
	diff = better == PAB_HIGHER_IS_BETTER ? base - head : head - base;
	if (diff == 0.0)
		return 0.0; /* a tie, and never -0.0 */
	return diff / fabs(base) * 100.0;
}

void pab_paired_changes(const double *base, const double *head, size_t n,
			enum pab_better better, double *out)
{
	size_t i;

	if (!base || !head || !out)
		return;
	for (i = 0; i < n; i++)
		out[i] = pab_percent_worse(base[i], head[i], better);
}

double pab_noise_floor(const struct pab_interval *null_change)
{
	double lo, hi;

	if (!null_change || null_change->n == 0)
		return 0.0;
	lo = fabs(null_change->lo);
	hi = fabs(null_change->hi);
	return lo > hi ? lo : hi;
}

int pab_beyond_noise(const struct pab_interval *change, double noise)
{
	if (!change || change->n == 0 || !change->exists)
		return 0;
	if (!(change->lo > 0.0 || change->hi < 0.0))
		return 0;
	/* NaN (no median between -inf and +inf) compares false: not beyond. */
	return fabs(change->median) > noise;
}

enum pab_equivalence pab_equivalent(const struct pab_interval *change,
				    double margin_pct)
{
	if (!change || change->n == 0 || !change->exists ||
	    !(margin_pct >= 0.0))
		return PAB_EQUIV_UNKNOWN;
	if (change->lo > margin_pct || change->hi < -margin_pct)
		return PAB_EQUIV_NO;
	if (change->lo >= -margin_pct && change->hi <= margin_pct)
		return PAB_EQUIV_YES;
	return PAB_EQUIV_UNKNOWN;
}

double pab_saved_percent(double base_peak, double head_peak, double floor)
{
	double gap, saved;

	gap = base_peak - floor;
	/* !(gap > 0) also catches NaN inputs. */
	if (!(gap > 0.0) || isnan(head_peak))
		return 0.0;
	saved = (base_peak - head_peak) / gap * 100.0;
	if (isnan(saved) || saved < 0.0)
		return 0.0; /* NaN: infinite base over infinite gap */
	return saved > 100.0 ? 100.0 : saved;
}

double pab_memory_credit(const struct pab_interval *peak_change,
			 double base_peak_median, double head_peak_median,
			 double floor)
{
	/*
	 * Credit only a fall beyond doubt: the whole interval below 0. A
	 * range that is not a 95% interval proves nothing and earns nothing.
	 */
	if (!peak_change || peak_change->n == 0 || !peak_change->exists ||
	    !(peak_change->hi < 0.0))
		return 0.0;
	return pab_saved_percent(base_peak_median, head_peak_median, floor);
}
