/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * edivisive.c — change points by E-Divisive with means (Matteson and
 * James, JASA 2014), written from the paper: a divisive search that
 * splits a segment where the energy distance between its two sides is
 * largest, and keeps the split only when a permutation test says a split
 * that large is unlikely without one. alpha = 1 (absolute differences),
 * which detects any change in distribution with a finite mean; the end of
 * each candidate split is the end of its segment (the paper's kappa
 * fixed at the segment's end, as MongoDB's signal-processing-algorithms
 * does), which costs O(n^2) per scan instead of O(n^3).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pab_stats.h"

/*
 * The best split of x[s..e): sets *tau (the first index of the right
 * side) and returns its q, or -1 when the segment is too short to split
 * with min_size values a side. left[] is scratch of e - s doubles.
 */
static double best_split(const double *x, size_t s, size_t e, size_t min_size,
			 double *left, size_t *tau)
{
	double total = 0.0, wl = 0.0, wr, best = -1.0;
	size_t i, j, t, len = e - s;

	if (len < 2 * min_size)
		return -1.0;
	/* left[k] = sum over i in [s, s+k) of |x_i - x_(s+k)|; the total of
	 * every pair of the segment is their sum. */
	for (j = s; j < e; j++) {
		double acc = 0.0;

		for (i = s; i < j; i++)
			acc += fabs(x[i] - x[j]);
		left[j - s] = acc;
		total += acc;
	}
	wr = total;
	/* Move x[t] from the right side to the left for t = s, s+1, ...:
	 * it joins the left's pairs (left[t]) and leaves the right's (its row
	 * sum minus left[t] is its pairs with the right side beyond it). */
	for (t = s; t + min_size < e; t++) {
		double right_of_t = 0.0, m, k, between, q;

		for (j = t + 1; j < e; j++)
			right_of_t += fabs(x[t] - x[j]);
		wl += left[t - s];
		wr -= right_of_t;
		m = (double)(t + 1 - s);
		k = (double)(e - t - 1);
		if (t + 1 - s < min_size)
			continue;
		between = total - wl - wr;
		q = (m * k / (m + k)) * (2.0 * between / (m * k) -
					 wl / (m * (m - 1) / 2.0) -
					 wr / (k * (k - 1) / 2.0));
		if (q > best) {
			best = q;
			*tau = t + 1;
		}
	}
	return best;
}

/* The largest best split over the segments bounds[0..nb] (bounds[0] = 0,
 * bounds[nb] = n); its segment index in *seg and split in *tau. */
static double best_over(const double *x, const size_t *bounds, size_t nb,
			size_t min_size, double *left, size_t *seg, size_t *tau)
{
	double best = -1.0;
	size_t i, t = 0;

	for (i = 0; i < nb; i++) {
		double q = best_split(x, bounds[i], bounds[i + 1], min_size, left, &t);

		if (q > best) {
			best = q;
			*seg = i;
			*tau = t;
		}
	}
	return best;
}

int pab_edivisive(const double *x, size_t n, size_t min_size,
		  double sig_level, unsigned permutations,
		  struct pab_pcg32 *rng, size_t *cp, double *p, size_t cap)
{
	size_t *bounds = NULL, nb = 1, i, found = 0;
	double *left = NULL, *perm = NULL, *pv = NULL;
	int ret = 0;

	if ((!x && n) || (!cp && cap) || !rng || min_size < 2 ||
	    !(sig_level > 0.0 && sig_level < 1.0) || !permutations)
		return PAB_EINVAL;
	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return PAB_EINVAL;
	if (n < 2 * min_size || !cap)
		return 0;
	bounds = malloc((n + 1) * sizeof(*bounds));
	left = malloc(n * sizeof(*left));
	perm = malloc(n * sizeof(*perm));
	pv = malloc((n + 1) * sizeof(*pv));
	if (!bounds || !left || !perm || !pv) {
		ret = PAB_ENOMEM;
		goto out_free;
	}
	bounds[0] = 0;
	bounds[1] = n;
	while (found < cap) {
		size_t seg = 0, tau = 0, s2, t2, exceed = 0;
		unsigned r;
		double q = best_over(x, bounds, nb, min_size, left, &seg, &tau);
		double pval;

		if (q < 0.0)
			break;
		for (r = 0; r < permutations; r++) {
			memcpy(perm, x, n * sizeof(*perm));
			/* Fisher–Yates within each segment: the null of no
			 * further change keeps the found segments apart. */
			for (i = 0; i < nb; i++) {
				size_t a = bounds[i], len = bounds[i + 1] - a, j;

				for (j = len; j > 1; j--) {
					size_t k = pab_pcg32_bounded(rng, (uint32_t)j);
					double tmp = perm[a + j - 1];

					perm[a + j - 1] = perm[a + k];
					perm[a + k] = tmp;
				}
			}
			if (best_over(perm, bounds, nb, min_size, left, &s2, &t2) >= q)
				exceed++;
			/* Already beyond the level whatever the rest give: the
			 * same decision, sooner (a kept split runs them all). */
			if ((double)(exceed + 1) / (double)(permutations + 1) > sig_level)
				break;
		}
		pval = (double)(exceed + 1) / (double)(permutations + 1);
		if (pval > sig_level)
			break;
		/* Insert tau as a new boundary after bounds[seg]. */
		memmove(&bounds[seg + 2], &bounds[seg + 1], (nb - seg) * sizeof(*bounds));
		bounds[seg + 1] = tau;
		memmove(&pv[seg + 2], &pv[seg + 1], (nb - seg) * sizeof(*pv));
		pv[seg + 1] = pval;
		nb++;
		found++;
	}
	/* The interior boundaries are the change points, ascending, each
	 * with the p-value of the test that kept it. */
	for (i = 0; i < found; i++) {
		cp[i] = bounds[i + 1];
		if (p)
			p[i] = pv[i + 1];
	}
	ret = (int)found;
out_free:
	free(pv);
	free(perm);
	free(left);
	free(bounds);
	return ret;
}
