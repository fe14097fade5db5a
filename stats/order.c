/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * order.c — order statistics on data with holes: sorted copies, medians
 * and type-7 quantiles of the non-NaN values.
 *
 * Everything sorts a private copy (inputs are const and stay untouched)
 * with GSL's gsl_sort. NaN is a missing value and is dropped before
 * sorting: it has no place in an order, and a comparison sort fed NaN
 * gives an arbitrary permutation. Infinities are ordinary values here.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "pab_stats.h"
#include "order.h"

int pab_sorted_finite(const double *x, size_t n, double **out, size_t *m)
{
	double *copy = NULL;
	size_t i, k = 0;
	int ret = 0;

	if (!out || !m || (n && !x))
		return PAB_EINVAL;
	*out = NULL;
	*m = 0;
	for (i = 0; i < n; i++)
		if (!isnan(x[i]))
			k++;
	if (k == 0)
		goto out;

	copy = malloc(k * sizeof(*copy));
	if (!copy) {
		ret = PAB_ENOMEM;
		goto out;
	}
	k = 0;
	for (i = 0; i < n; i++)
		if (!isnan(x[i]))
			copy[k++] = x[i];
	gsl_sort(copy, 1, k);
	*out = copy;
	*m = k;
out:
	return ret;
}

/*
 * GSL interpolates as (1 - d) * a + d * b, which turns an infinite
 * neighbour with weight 0 into 0 * inf = NaN; we only hand it finite
 * neighbours and interpolate infinities ourselves: an infinite end wins
 * whenever its weight is positive, and the type-7 value between -inf and
 * +inf is undefined (NaN), the one case where the result is not a value.
 */
double pab_quantile_sorted(const double *s, size_t m, double p)
{
	double index = p * (double)(m - 1);
	size_t lhs = (size_t)index;
	double delta = index - (double)lhs;
	double a, b;

	if (lhs >= m - 1)
		return s[m - 1];
	a = s[lhs];
	b = s[lhs + 1];
	if (isfinite(a) && isfinite(b))
		return gsl_stats_quantile_from_sorted_data(s, 1, m, p);
	if (delta == 0.0 || a == b)
		return a;
	if (isinf(a) && isinf(b))
		return NAN; /* -inf on the left, +inf on the right */
	return isinf(a) ? a : b;
}

int pab_quantile(const double *x, size_t n, double p, double *out)
{
	double *s = NULL;
	size_t m = 0;
	int ret;

	if (!out || (n && !x) || !(p >= 0.0 && p <= 1.0))
		return PAB_EINVAL;
	ret = pab_sorted_finite(x, n, &s, &m);
	if (ret < 0)
		goto out_free_sorted;
	if (m == 0) {
		ret = PAB_ENODATA;
		goto out_free_sorted;
	}
	*out = pab_quantile_sorted(s, m, p);
out_free_sorted:
	free(s);
	return ret;
}

int pab_median(const double *x, size_t n, double *out)
{
	/* For type 7, p = 1/2 is exactly the textbook median: the middle
	 * value, or the mean of the two middle values. */
	return pab_quantile(x, n, 0.5, out);
}
