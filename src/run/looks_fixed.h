/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * looks_fixed.h — rows whose verdict is fixed before their first planned
 * look (doc/method.md §8, "Looks"; §13, "Exact counts").
 *
 * A row stops at a planned look (12, 24, ...) where it is decided: the
 * looks, and the plain 95% interval at each, bound its errors. A FAIL of
 * an exact count is no sampling event: once the row's counting reps are
 * done and its counts stay put (run/counting.h counts no later rep), every
 * later rep adds nothing that could move that cell, and one FAILing cell
 * FAILs the row at every look after. So such a row stops at the end of
 * the block where that holds: its verdict is the one its first look would
 * give, in every run, and no error rate changes. Nothing else stops a
 * row early: a PASS needs its time guards resolved (§8a), a sampling event
 * that an extra look would spend error on.
 */
#ifndef PAB_RUN_LOOKS_FIXED_H
#define PAB_RUN_LOOKS_FIXED_H

#include <stddef.h>

#include "judge/ledger.h"
#include "model/experiment.h"
#include "run/counting.h"

/*
 * pab_looks_fixed_fail: 1 when row ri of l's experiment e is FAILed by a
 * cell of an exact count (res.exact) and no later rep of the row counts
 * (c active, pab_counting_rep() 0 for its next rep): that FAIL is fixed.
 * Else 0.
 */
int pab_looks_fixed_fail(const struct pab_experiment *e, const struct pab_counting *c,
			 const struct pab_ledger *l, size_t ri);

/*
 * pab_looks_stop_fixed: after a pass of the run, each row at the end of a
 * block, short of its target and of first_look, whose FAIL is fixed
 * (pab_looks_fixed_fail) gets its target lowered to the reps it has, and
 * a note says so unless quiet. A row is asked once, at the first block
 * end where no later rep of it counts (after that its exact cells only
 * repeat their pairs); the ledger is built only when some row is asked.
 * Returns how many rows stopped.
 */
size_t pab_looks_stop_fixed(const struct pab_experiment *e, const struct pab_counting *c,
			    size_t first_look, size_t *row_target, int quiet);

#endif /* PAB_RUN_LOOKS_FIXED_H */
