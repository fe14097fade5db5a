/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cgroup_reset.h — pab_cgroup_reset() done by a thread of its own, on the
 * sampler's PU, so that readying an arm's cgroup for its next child
 * overlaps the children of the other arms instead of delaying them. On
 * cgroup v1 the reset gives back the page cache the last child left
 * charged (memory.force_empty): ~0.25 ms of kernel work a child, a sixth of
 * what perfab spends around a /bin/true. The reset stays complete — the
 * next child of the arm starts only once its cgroup is empty and its
 * high-water mark restarted — so cgroup_peak stays exact.
 *
 * Usage: new once per run (only where the children are pinned: the thread
 * then has a PU of its own; else reset in line); per child: kill what is
 * left in the cgroup, start; before the cgroup is used or freed again,
 * wait. A cgroup has at most one reset in flight.
 */
#ifndef PAB_CGROUP_RESET_H
#define PAB_CGROUP_RESET_H

#include "probe/cgroup.h"
#include "probe/pin.h"

struct pab_cgroup_resetter;

/*
 * pab_cgroup_resetter_new: start the thread, bound to pin's sampler PU.
 * NULL when pin is not active (one usable PU: the thread would take the
 * children's) or the thread cannot start (errno set).
 */
struct pab_cgroup_resetter *pab_cgroup_resetter_new(const struct pab_pin *pin);

/* pab_cgroup_resetter_start: have pab_cgroup_reset(cg) done; cg is the
 * thread's until pab_cgroup_resetter_wait(r, cg). */
void pab_cgroup_resetter_start(struct pab_cgroup_resetter *r, struct pab_cgroup *cg);

/*
 * pab_cgroup_resetter_wait: wait until cg's reset (if one was started) is
 * done. Returns what pab_cgroup_reset returned: 0 (or no reset in
 * flight), or -1 with errno set (cg cannot be reused: free it).
 */
int pab_cgroup_resetter_wait(struct pab_cgroup_resetter *r, const struct pab_cgroup *cg);

/* pab_cgroup_resetter_free: finish the resets in flight, stop the
 * thread. NULL is a no-op. */
void pab_cgroup_resetter_free(struct pab_cgroup_resetter *r);

#endif /* PAB_CGROUP_RESET_H */
