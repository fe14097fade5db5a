/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * memory_credit.h — the memory credit of a row × head arm (doc/method.md
 * §5): how much smaller the head's peak RSS is, as a share of base's
 * memory above its RSS floor, granted only where the saving is real. The
 * ledger (ledger.h) passes it to every credit-eligible cell of the row.
 * Pure: it prints nothing.
 */
#ifndef PAB_MEMORY_CREDIT_H
#define PAB_MEMORY_CREDIT_H

#include <stddef.h>

#include "model/experiment.h"

struct pab_memory_credit {
	double saved_pct;        /* the credit granted, percent; 0 for none */
	double rss_floor;        /* base's median rss_floor, NaN if unknown */
	int floor_inconsistent;  /* the floor is above the lowest median peak
				  * (beyond a 5% slack): flagged, no credit */
	const char *why;         /* why a saving was not credited (static), or
				  * NULL */
};

/*
 * pab_row_memory_credit: the credit of head arm `arm` of row against arm
 * `base` into *out. A saving counts only when the median peak fell by more
 * than floor_bytes and the kernel's RSS counter slack, and by more than the
 * null arm's observed spread plus that slack (null_arm -1: no null arm): a
 * dip that the counters or the null arm show between runs of one binary
 * is no saving. conf is the confidence of the peak's interval; bufs is
 * scratch of 4 × row->n_reps doubles.
 */
void pab_row_memory_credit(const struct pab_row *row, size_t base, size_t arm, int null_arm,
			   double floor_bytes, double conf, double *bufs,
			   struct pab_memory_credit *out);

#endif /* PAB_MEMORY_CREDIT_H */
