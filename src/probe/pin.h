/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pin.h — CPU placement with hwloc: measured children on one cpuset,
 * perfab's sampler on a PU outside it, so sampling never steals the
 * children's cycles. The binding actually obtained is what gets recorded.
 */
#ifndef PAB_PIN_H
#define PAB_PIN_H

#include <sys/types.h>

struct cJSON; /* cJSON's; a caller of pab_pin_describe() includes its header */
#include <hwloc.h>

struct pab_pin;

/* PUs whose load and lock perfab tracks (larger numbers are never chosen
 * automatically; --cpus reaches them). */
#define PAB_PIN_MAX_PUS 1024

/*
 * pab_pu_busy: each PU's busy share in percent over window_ms, from two
 * reads of /proc/stat, into busy[0..PAB_PIN_MAX_PUS) (NaN: unknown).
 * Returns 0, or -1 when /proc/stat cannot be read (all NaN).
 */
int pab_pu_busy(double *busy, unsigned window_ms);

/* What a PU's advisory lock says: free (no perfab run holds it), held by
 * another perfab run, or unknown (no lock can be trusted there). */
enum pab_pu_lock {
	PAB_PU_LOCK_FREE,
	PAB_PU_LOCK_HELD,
	PAB_PU_LOCK_UNKNOWN,
};

/*
 * pab_pu_lock_state: PU pu's advisory lock, a file perfab-pu-N.lock in
 * $PERFAB_PU_LOCK_DIR, else /tmp, flock'ed for a run's whole life: tested
 * by taking it without waiting and letting go. UNKNOWN when the directory
 * or the file cannot be trusted as a lock (a FIFO, device, symbolic link
 * or directory at the path, a file of another user than perfab's or
 * root, a directory of another user or one others can write without the
 * sticky bit) or cannot be opened: never waited on, never taken for
 * free. With why non-NULL, the reason for UNKNOWN (new string, caller
 * frees), else NULL.
 */
enum pab_pu_lock pab_pu_lock_state(unsigned pu, char **why);

/*
 * pab_topology_load: hwloc_topology_init + load for perfab's needs (CPUs,
 * caches), without hwloc's I/O and XML plugins. Returns 0, or -1 with
 * *topo NULL. The environment children inherit is left as it was.
 */
int pab_topology_load(hwloc_topology_t *topo);

/*
 * pab_pin_new: plan placement. cpus is NULL (automatic: the children get
 * one PU — the least busy over 100 ms that is not CPU 0 and whose
 * advisory lock is free (pab_pu_lock_state), which the plan then holds
 * until pab_pin_free; failing that CPU 0 on the same terms; failing that
 * the least busy, shared, its lock recorded as held by another run or
 * unknown — and the sampler the least busy other PU) or an hwloc/taskset-style list
 * like "1-3,5" for the children (the sampler then takes an allowed PU
 * outside it when one exists). With one usable PU everything runs unpinned
 * and the plan says so. Returns NULL with a reason in *why (caller frees)
 * for an unparseable or unusable list.
 */
struct pab_pin *pab_pin_new(const char *cpus, char **why);
void pab_pin_free(struct pab_pin *pin);

/* 1 when children are pinned. */
int pab_pin_active(const struct pab_pin *pin);

/* Bind the calling thread to the sampler PU (no-op when unpinned). */
int pab_pin_sampler_thread(const struct pab_pin *pin);

/*
 * pab_pin_runner_thread: bind the calling thread (perfab's runner, which
 * waits on every child) to the children's cpuset, so the wake-ups that
 * hand control between perfab and a child — the gate, the exec, the exit
 * stop, the reap — stay on one CPU instead of each costing a cross-CPU
 * interrupt inside the child's measured time. The runner sleeps while a
 * child runs, so it takes no cycles from it. No-op when unpinned.
 * Returns 0 or -1.
 */
int pab_pin_runner_thread(const struct pab_pin *pin);

/*
 * pab_pin_child: bind process pid to the children's cpuset and store the
 * binding the kernel reports back, as a list string, for the artifact.
 * Returns 0 or -1 (errno set). No-op returning 0 when unpinned.
 */
int pab_pin_child(struct pab_pin *pin, pid_t pid);

/*
 * pab_pin_count_pus: the PUs counting children (valgrind, run/counting.h)
 * may run on side by side, into pus[0..cap), in the order to use them:
 * first the spare PUs — allowed, not the children's, whose advisory lock
 * (pab_pu_lock_state) this run can take: it takes it, so another perfab
 * run does not time its children beside a count, and holds it until
 * pab_pin_count_release — then the children's own PU, which is free
 * while no timed child runs. Returns how many (0 when unpinned: one
 * usable PU, or the children have more than one PU: count one at a time
 * with the children's binding).
 */
size_t pab_pin_count_pus(struct pab_pin *pin, unsigned *pus, size_t cap);

/* Let go of the spare PUs' locks pab_pin_count_pus took. */
void pab_pin_count_release(struct pab_pin *pin);

/*
 * pab_pin_child_pu: bind process pid to PU pu alone (a counting child),
 * the binding the kernel reports back into got[0..len) as a list ("" when
 * unread). Leaves the children's recorded binding alone; only reads pin,
 * so threads may call it at once. Returns 0 or -1 (errno set).
 */
int pab_pin_child_pu(const struct pab_pin *pin, pid_t pid, unsigned pu, char *got,
		     size_t len);

/* Record that a counting child was bound to got (a list, as
 * pab_pin_child_pu reported it): binding.counting_cpus lists each
 * counting child's, in the order they started. */
void pab_pin_note_counted(struct pab_pin *pin, const char *got);

/* What the plan and the last pab_pin_child obtained, as JSON (caller owns). */
struct cJSON *pab_pin_describe(const struct pab_pin *pin);
/* The same as JSON text (new memory, caller frees). */
char *pab_pin_describe_text(const struct pab_pin *pin);

#endif /* PAB_PIN_H */
