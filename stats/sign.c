/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sign.c — the distribution-free sign-test interval on a median.
 *
 * For n values from any continuous distribution, the number of values
 * below the true median is Bin(n, 1/2). The interval between the j+1-th
 * and the (n-j)-th order statistics therefore misses the median with
 * probability 2 P(Bin(n, 1/2) <= j), whatever the distribution: no
 * normality, no resampling. We take the largest j whose miss probability
 * stays within 1 - conf, i.e. the shortest symmetric interval that still
 * has the requested coverage, and report the coverage it actually has
 * (binomial steps make it larger than asked: 96.9% at n = 6).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "pab_stats.h"
#include "order.h"

int pab_sign_ranks(size_t n, double conf, size_t *lo_rank, size_t *hi_rank,
		   double *coverage)
{
	double limit, tail = 0.0, prev_tail = 0.0;
	size_t j;
	int found = 0;

	if (n == 0 || !lo_rank || !hi_rank || !coverage ||
	    !(conf > 0.0 && conf < 1.0) || n > UINT_MAX)
		return PAB_EINVAL;
	limit = (1.0 - conf) / 2.0;

	/*
	 * The binomial CDF grows with j, so walk up until it exceeds the
	 * limit; the last j that did not is the answer. P(Bin <= j) reaches
	 * 1/2 by j = (n-1)/2 and limit < 1/2, so the walk stops there and
	 * lo_rank <= hi_rank always holds.
	 */
	for (j = 0; j < n; j++) {
		tail = gsl_cdf_binomial_P((unsigned int)j, 0.5, (unsigned int)n);
		if (tail > limit)
			break;
		prev_tail = tail;
		found = 1;
	}

	if (found) {
		/* j is the first count over the limit; j - 1 is the answer. */
		*lo_rank = j;          /* (j - 1) + 1 */
		*hi_rank = n + 1 - j;  /* n - (j - 1) */
		*coverage = 1.0 - 2.0 * prev_tail;
	} else {
		/* Even [min, max] misses with probability 2 * 2^-n > 1 - conf. */
		*lo_rank = 1;
		*hi_rank = n;
		*coverage = 1.0 - ldexp(1.0, 1 - (int)(n < 2000 ? n : 2000));
	}
	return found;
}

int pab_sign_interval(const double *x, size_t n, double conf,
		      struct pab_interval *out)
{
	double *s = NULL;
	size_t m = 0, lo_rank, hi_rank;
	double coverage;
	int ret;

	if (!out)
		return PAB_EINVAL;
	memset(out, 0, sizeof(*out));
	if ((n && !x) || !(conf > 0.0 && conf < 1.0))
		return PAB_EINVAL;

	ret = pab_sorted_finite(x, n, &s, &m);
	if (ret < 0)
		goto out_free_sorted;
	if (m == 0) {
		ret = PAB_ENODATA;
		goto out_free_sorted;
	}
	ret = pab_sign_ranks(m, conf, &lo_rank, &hi_rank, &coverage);
	if (ret < 0)
		goto out_free_sorted;

	out->n = m;
	out->exists = ret;
	out->lo_rank = lo_rank;
	out->hi_rank = hi_rank;
	out->lo = s[lo_rank - 1];
	out->hi = s[hi_rank - 1];
	out->coverage = coverage;
	out->median = pab_quantile_sorted(s, m, 0.5);
	ret = 0;
out_free_sorted:
	free(s);
	return ret;
}
