/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * memory_credit.c — the memory credit of a row × head arm
 * (memory_credit.h): the peaks and the floor gathered, the credit from
 * stats/ (pab_memory_credit), and the checks that keep a dip of the
 * counters or of the machine from being credited.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "judge/memory_credit.h"
#include "pab_stats.h"

/* RSS-floor consistency slack, percent (doc/ledger-json.md "Rows",
 * floor_inconsistent; the floor itself: doc/method.md §5). */
#define FLOOR_SLACK_PCT 5.0

/*
 * The kernel's RSS counter slack: Linux keeps up to max(32, 2 x CPUs)
 * pages per CPU in per-CPU counters not yet folded into the total that
 * VmHWM and statm read (doc/workload-protocol.md), 2 x 32 pages of 4 KiB
 * on 2 CPUs. A peak that fell by no more than this may not have fallen.
 */
#define CREDIT_SLACK_BYTES (2 * 32 * 4096.0)

static void column(const struct pab_row *row, size_t arm, enum pab_metric_id m, double *out)
{
	size_t r;

	for (r = 0; r < row->n_reps; r++)
		out[r] = row->reps[r].result[arm].m[m];
}

/*
 * The null arm's observed spread on peak RSS: the largest |base - null|
 * of a rep, in bytes; 0 without a null arm or a rep that measured both.
 * b holds base's peaks; nu is scratch.
 */
static double peak_spread(const struct pab_row *row, int null_arm, const double *b,
			  double *nu)
{
	double spread = 0;
	size_t r;

	if (null_arm < 0)
		return 0;
	column(row, (size_t)null_arm, PAB_M_PEAK_RSS, nu);
	for (r = 0; r < row->n_reps; r++)
		if (isfinite(b[r]) && isfinite(nu[r]) && fabs(b[r] - nu[r]) > spread)
			spread = fabs(b[r] - nu[r]);
	return spread;
}

/* The credit as pab_row_memory_credit() grants it, out's other fields set. */
static double credit(const struct pab_row *row, size_t base, size_t arm, int null_arm,
		     double floor_bytes, double conf, double *bufs,
		     struct pab_memory_credit *out)
{
	double *b = bufs, *h = bufs + row->n_reps, *ch = bufs + 2 * row->n_reps;
	double *nu = bufs + 3 * row->n_reps;
	struct pab_interval peak;
	double bmed, hmed, lowest, saved;

	floor_bytes = fmax(floor_bytes, CREDIT_SLACK_BYTES);
	column(row, base, PAB_M_RSS_FLOOR, b);
	out->rss_floor = pab_metric_aggregate(PAB_M_RSS_FLOOR, b, row->n_reps);
	column(row, base, PAB_M_PEAK_RSS, b);
	column(row, arm, PAB_M_PEAK_RSS, h);
	bmed = pab_metric_aggregate(PAB_M_PEAK_RSS, b, row->n_reps);
	hmed = pab_metric_aggregate(PAB_M_PEAK_RSS, h, row->n_reps);
	if (!isfinite(out->rss_floor) || !isfinite(bmed) || !isfinite(hmed))
		return 0;
	lowest = bmed < hmed ? bmed : hmed;
	if (out->rss_floor * 100 > lowest * (100 + FLOOR_SLACK_PCT)) {
		out->floor_inconsistent = 1;
		return 0; /* flagged, not silently credited */
	}
	pab_paired_changes(b, h, row->n_reps, PAB_LOWER_IS_BETTER, ch);
	if (pab_sign_interval(ch, row->n_reps, conf, &peak))
		return 0;
	saved = pab_memory_credit(&peak, bmed, hmed, out->rss_floor);
	if (saved <= 0)
		return 0;
	if (bmed - hmed <= floor_bytes) {
		out->why = "the peak fell by no more than the memory floor "
			   "(at least the kernel's RSS counter slack, 256 KiB)";
		return 0;
	}
	if (bmed - hmed <= peak_spread(row, null_arm, b, nu) + CREDIT_SLACK_BYTES) {
		out->why = "the peak fell by no more than the null arm's spread "
			   "plus the kernel's RSS counter slack";
		return 0;
	}
	return saved;
}

void pab_row_memory_credit(const struct pab_row *row, size_t base, size_t arm, int null_arm,
			   double floor_bytes, double conf, double *bufs,
			   struct pab_memory_credit *out)
{
	memset(out, 0, sizeof(*out));
	out->rss_floor = NAN;
	out->saved_pct = credit(row, base, arm, null_arm, floor_bytes, conf, bufs, out);
}
