/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sanity_gate.h — the sanity gate applied after rep 1 (its rule and cells:
 * model/sanity.h): a head whose memory blew up stops the run before it
 * spends its budget measuring a broken change. Pure: the runner prints the
 * cells and stops.
 */
#ifndef PAB_SANITY_GATE_H
#define PAB_SANITY_GATE_H

#include <stddef.h>

#include "model/experiment.h"

/*
 * pab_sanity_gate: after rep 1 of every row, each head arm (not base, not
 * null) whose peak_rss, drain_rss or release_bound_rss in that rep exceeds
 * PAB_SANITY_FACTOR x base's + PAB_SANITY_SLACK_BYTES is appended to
 * e->sanity as a {row, arm, metric, base, head} cell. Returns the number
 * of cells appended (0: the gate stays open).
 */
size_t pab_sanity_gate(struct pab_experiment *e);

#endif /* PAB_SANITY_GATE_H */
