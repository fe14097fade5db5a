/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * order.h — order.c's helper shared with the other stats sources; not
 * part of the public contract (pab_stats.h is), so nothing outside stats/
 * includes it.
 */
#ifndef PAB_STATS_ORDER_H
#define PAB_STATS_ORDER_H

#include <stddef.h>

/*
 * pab_quantile_sorted: type-7 p-quantile (0 <= p <= 1) of s[0..m), which
 * must be ascending, NaN-free and m > 0. Infinite values are allowed; the
 * result is NaN only when the quantile falls strictly between -inf and
 * +inf.
 */
double pab_quantile_sorted(const double *s, size_t m, double p);

#endif /* PAB_STATS_ORDER_H */
