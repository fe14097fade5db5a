/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cgroup.h — a memory cgroup of its own for each measured child, so that
 * cgroup_peak is the high-water mark of everything the child and its
 * descendants charged (anonymous memory, page cache, kernel memory),
 * which no per-process figure sums correctly.
 *
 * Where: a fresh directory perfab-<perfab pid>-<n> created *below perfab's
 * own cgroup* in the hierarchy that holds the memory controller (read from
 * /proc/self/cgroup and /proc/self/mountinfo). Nesting keeps the child
 * inside whatever limits the operator put perfab under, and it is the only
 * place cgroup v2 delegation lets perfab create anything.
 *
 * Which: cgroup v2 when its memory controller is available there
 * (memory.peak, Linux >= 5.19), else the v1 memory controller
 * (memory.max_usage_in_bytes). Nothing is available to unprivileged users
 * without delegation, on a read-only cgroupfs, or without a memory
 * controller: pab_cgroup_new() then returns NULL and a reason, and the
 * runner records cgroup_peak as null with that reason.
 *
 * PERFAB_CGROUP_ROOT, when set and non-empty, names the parent directory
 * to create cgroups in instead (its version is read from its files). It
 * exists so tests can force the unavailable path (a missing or non-cgroup
 * directory) and so operators can point perfab at a delegated subtree.
 *
 * Usage: new once per arm; per child: attach (while the child is held
 * before exec), let it run, reap it, peak, reset (kills what is left,
 * empties it for the next child); free at the end. Nothing a child starts
 * outlives its cgroup: reset and free kill everything still inside,
 * setsid daemons included, instead of moving it out.
 */
#ifndef PAB_CGROUP_H
#define PAB_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

struct pab_cgroup;

/*
 * pab_cgroup_new: create a fresh, empty memory cgroup. Returns it (caller
 * frees with pab_cgroup_free), or NULL and *why (new memory, caller frees):
 * what was tried, why it failed, what to do. Thread-safe.
 */
struct pab_cgroup *pab_cgroup_new(char **why);

/*
 * pab_cgroup_attach: move process pid (all its threads) into cg. Memory
 * the process charged before stays with its old cgroup, so attach before
 * exec. Returns 0, or -1 with errno set.
 */
int pab_cgroup_attach(struct pab_cgroup *cg, pid_t pid);

/*
 * pab_cgroup_peak: the cgroup's memory high-water mark in bytes, read
 * after the child exited. Returns 0 and *bytes, or -1 and *why (static or
 * owned by cg, valid until pab_cgroup_free). Never 0 bytes: a cgroup that
 * never held memory (nothing attached, or nothing ran) is -1.
 */
int pab_cgroup_peak(struct pab_cgroup *cg, double *bytes, const char **why);

/* "v1" or "v2". */
const char *pab_cgroup_version(const struct pab_cgroup *cg);

/* The cgroup's directory (owned by cg). */
const char *pab_cgroup_path(const struct pab_cgroup *cg);

/*
 * The v1 freezer cgroup made beside it (same name, in the freezer
 * hierarchy) so that killing can freeze everything first, or NULL (v2,
 * no freezer mounted, or it could not be used). Owned by cg.
 */
const char *pab_cgroup_freezer_path(const struct pab_cgroup *cg);

/*
 * pab_cgroup_kill_path: SIGKILL every process in the cgroup directory dir
 * (cgroup.kill on v2; a v1 freezer cgroup is frozen, its processes killed
 * frozen, then thawed; then, or else, cgroup.procs read and killed until
 * it lists nothing). Returns 0 once it is empty, -1 when it stayed populated or
 * could not be read. Usable without a struct pab_cgroup (stale cgroups,
 * the guard process).
 */
int pab_cgroup_kill_path(const char *dir);

/* pab_cgroup_kill_path() on cg. */
int pab_cgroup_kill(struct pab_cgroup *cg);

/*
 * pab_cgroup_reset: make cg ready for the next child: kill what is inside,
 * release the memory still charged to it and restart its high-water mark.
 * Returns 0, or -1 (errno set) when it cannot be reused — always on cgroup
 * v2, whose memory.peak cannot be restarted for a new reader: free it and
 * create a new one.
 */
int pab_cgroup_reset(struct pab_cgroup *cg);

/*
 * pab_cgroup_free: kill every process still inside, remove the directory
 * (retrying while the kernel finishes tearing down exited tasks) and free
 * cg. Best effort: a directory that cannot be removed is left behind under
 * its perfab-<pid>-<n> name for pab_cgroup_clean_stale(). NULL is a no-op.
 */
void pab_cgroup_free(struct pab_cgroup *cg);

/*
 * pab_cgroup_clean_stale: remove the cgroups perfab-<pid>-<n> that perfab
 * processes no longer running left under the place pab_cgroup_new() uses
 * (killed first). Returns how many were removed.
 */
size_t pab_cgroup_clean_stale(void);

/*
 * pab_cgroup_probe: where and how pab_cgroup_new() would create cgroups,
 * without creating anything (for `perfab env`). Returns 0, *version ("v1"
 * or "v2", static) and *parent (new memory), or -1 and *why (new memory).
 * A 0 here is not a promise: creating can still fail (see *why of
 * pab_cgroup_new()).
 */
int pab_cgroup_probe(const char **version, char **parent, char **why);

#endif /* PAB_CGROUP_H */
