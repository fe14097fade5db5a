/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * calibrate.c — what an A/A experiment says a machine resolves
 * (pab_calibrate, pab_stats.h): the paired spread, and by resampling the
 * measured pairs into simulated adaptive runs, the half-width at each
 * look, the smallest tolerance an unchanged head PASSes at, and the
 * smallest change that FAILs (doc/method.md, "Calibration").
 *
 * Resampling whole pairs keeps whatever the machine did to a rep — a slow
 * rep slows base and head alike, a drifting rep shows in both — so the
 * simulated runs are as noisy as the measured one, offsets included.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pab_stats.h"

/* The quantile p of x[0..n) (sorted in place); NaN for n = 0. */
static double quantile(double *x, size_t n, double p)
{
	double q;

	return pab_quantile(x, n, p, &q) ? NAN : q;
}

/* The pairs with both values: their indices into d (and e). */
static size_t usable_pairs(const double *d, const double *e, size_t n, size_t *idx)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (!isnan(d[i]) && (!e || !isnan(e[i])))
			idx[m++] = i;
	return m;
}

static double spread_of(const double *d, const size_t *idx, size_t m, double *median,
			double *buf)
{
	size_t i;
	double mad;

	for (i = 0; i < m; i++)
		buf[i] = d[idx[i]];
	if (pab_median(buf, m, median))
		return NAN;
	for (i = 0; i < m; i++)
		buf[i] = fabs(d[idx[i]] - *median);
	if (pab_median(buf, m, &mad))
		return NAN;
	return 1.4826 * mad;
}

/*
 * The smoothed bootstrap's kernel width for m changes of this spread
 * (Silverman's rule, 0.9 s m^(-1/5)): resampling the m values alone puts
 * every order statistic on one of them, and a sample that happens to
 * cluster at its median would promise intervals narrower than later runs
 * get. 0 for counts that do not move.
 */
static double bandwidth(double spread, size_t m)
{
	return isfinite(spread) && spread > 0 ? 0.9 * spread * pow((double)m, -0.2) : 0.0;
}

static int args_valid(const double *d, size_t n, const size_t *looks, size_t n_looks,
		      double conf, size_t sims, const struct pab_calibration *out)
{
	size_t k;

	if (!d || !out || !looks || !n_looks || n_looks > PAB_CAL_MAX_LOOKS || !sims ||
	    !(conf > 0 && conf < 1) || !n)
		return 0;
	for (k = 0; k < n_looks; k++)
		if (!looks[k] || (k && looks[k] <= looks[k - 1]))
			return 0;
	return 1;
}

/*
 * One simulated run's looks: at look k the sign-test interval of the
 * first looks[k] changes dd (and of ee, the exact count's, when given:
 * the lower end is the lower of the two). lo[k * stride] and
 * hw[k * stride] get each look's lower end and half-width (NaN: no
 * interval). Returns the smallest tolerance at which the run PASSes at
 * one of the first pass_looks looks: t >= max(hi_k, every earlier lo_j);
 * +inf when none does.
 */
static double run_looks(const double *dd, const double *ee, const size_t *looks,
			size_t n_looks, size_t pass_looks, double conf, double *lo, double *hw,
			size_t stride)
{
	double worst_lo = -INFINITY, best = INFINITY;
	size_t k;

	for (k = 0; k < n_looks; k++) {
		struct pab_interval a, b;
		double l;

		if (pab_sign_interval(dd, looks[k], conf, &a) || !a.exists) {
			lo[k * stride] = hw[k * stride] = NAN;
			continue;
		}
		l = a.lo;
		if (ee && !pab_sign_interval(ee, looks[k], conf, &b) && b.exists && b.lo < l)
			l = b.lo;
		lo[k * stride] = l;
		hw[k * stride] = (a.hi - a.lo) / 2;
		/* PASS here at t >= max(hi_k, every earlier lo_j). */
		if (k < pass_looks && (a.hi > worst_lo ? a.hi : worst_lo) < best)
			best = a.hi > worst_lo ? a.hi : worst_lo;
		if (a.lo > worst_lo)
			worst_lo = a.lo;
	}
	return best;
}

int pab_calibrate(const double *d, const double *e, size_t n, const size_t *looks,
		  size_t n_looks, double conf, size_t sims, uint64_t seed,
		  struct pab_calibration *out)
{
	return pab_calibrate_at(d, e, n, looks, n_looks, n_looks, PAB_CAL_PASS_PROB, conf, sims,
				seed, out);
}

int pab_calibrate_at(const double *d, const double *e, size_t n, const size_t *looks,
		     size_t n_looks, size_t pass_looks, double pass_prob, double conf,
		     size_t sims, uint64_t seed, struct pab_calibration *out)
{
	size_t top, m, s, k, i, *idx = NULL, *rep_idx = NULL;
	double *dd = NULL, *ee = NULL, *t_run = NULL, *lo = NULL, *hw = NULL, *buf = NULL;
	double e_median = 0, bw_d, bw_e = 0;
	struct pab_pcg32 rng;
	int ret = PAB_ENOMEM;

	if (!args_valid(d, n, looks, n_looks, conf, sims, out) || !pass_looks ||
	    pass_looks > n_looks || !(pass_prob > 0 && pass_prob < 1))
		return PAB_EINVAL;
	memset(out, 0, sizeof(*out));
	top = looks[n_looks - 1];
	idx = malloc(n * sizeof(*idx));
	rep_idx = malloc(n * sizeof(*rep_idx));
	buf = malloc((n > sims ? n : sims) * sizeof(*buf));
	dd = malloc(top * sizeof(*dd));
	ee = malloc(top * sizeof(*ee));
	t_run = malloc(sims * sizeof(*t_run));
	lo = malloc(n_looks * sims * sizeof(*lo));
	hw = malloc(n_looks * sims * sizeof(*hw));
	if (!idx || !rep_idx || !buf || !dd || !ee || !t_run || !lo || !hw)
		goto out_free;
	m = usable_pairs(d, e, n, idx);
	if (m < 2) {
		ret = PAB_ENODATA;
		goto out_free;
	}
	out->n = m;
	out->spread = spread_of(d, idx, m, &out->median, buf);
	/* An unchanged head is unchanged: resample the changes about 0, not
	 * about this run's median, which is itself a draw (a calibration
	 * whose head happened to look faster would otherwise promise PASSes
	 * that later runs do not get). */
	bw_d = bandwidth(out->spread, m);
	if (e) {
		bw_e = bandwidth(spread_of(e, idx, m, &e_median, buf), m);
		if (!isfinite(e_median))
			e_median = 0;
	}
	out->n_looks = n_looks;
	pab_pcg32_seed(&rng, seed, 0x63616c6962ULL); /* "calib" */
	for (s = 0; s < sims; s++) {
		/* The machine this run sees: the calibration's m pairs drawn
		 * again (the calibration is itself a sample), then the run's
		 * pairs of its last look from those; each look sees the first
		 * looks[k] of them, as a run does. */
		for (i = 0; i < m; i++)
			rep_idx[i] = idx[pab_pcg32_bounded(&rng, (uint32_t)m)];
		for (i = 0; i < top; i++) {
			size_t j = rep_idx[pab_pcg32_bounded(&rng, (uint32_t)m)];

			dd[i] = d[j] - out->median + bw_d * pab_pcg32_normal(&rng);
			ee[i] = e ? e[j] - e_median + bw_e * pab_pcg32_normal(&rng) : NAN;
		}
		t_run[s] = run_looks(dd, e ? ee : NULL, looks, n_looks, pass_looks, conf, lo + s,
				     hw + s, sims);
	}
	out->tolerance = quantile(t_run, sims, pass_prob);
	if (!(out->tolerance > 0))
		out->tolerance = isnan(out->tolerance) ? NAN : 0;
	for (s = 0, i = 0; s < sims; s++)
		i += t_run[s] <= out->tolerance;
	out->pass_prob = (double)i / (double)sims;
	for (k = 0; k < n_looks; k++) {
		struct pab_calibration_look *L = &out->looks[k];

		L->n = looks[k];
		L->half_width = quantile(hw + k * sims, sims, 0.5);
		L->mde = out->tolerance - quantile(lo + k * sims, sims, 1 - PAB_CAL_FAIL_PROB);
	}
	ret = 0;
out_free:
	free(idx);
	free(rep_idx);
	free(buf);
	free(dd);
	free(ee);
	free(t_run);
	free(lo);
	free(hw);
	return ret;
}
