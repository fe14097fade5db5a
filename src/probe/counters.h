/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * counters.h — hardware and software performance counters for one measured
 * child, opened with perf_event_open and, for hardware events, encoded with
 * libpfm4.
 *
 * The set is opened on a child that is held before execve (the gate of
 * pab_spawn_measure, runchild.h) with disabled=1, enable_on_exec=1 and
 * inherit=1: counting starts at the exec, so perfab's own fork/attach work
 * is not charged to the workload, and it covers every thread and process
 * the workload starts.
 *
 * Opening never fails as a whole: each event that cannot be counted carries
 * a reason, and reading it returns -1 and that reason. A counter that was
 * not opened is never read as 0 — a host without a PMU must look
 * unmeasured, not idle.
 *
 * HAVE_LIBPFM appears only in counters.c: without libpfm4 every hardware
 * event is unavailable with the reason "not built in", the software events
 * still work, and callers never #ifdef.
 *
 * Not thread-safe per set; different sets may be used from different
 * threads.
 */
#ifndef PAB_COUNTERS_H
#define PAB_COUNTERS_H

#include <stddef.h>
#include <sys/types.h>

/* "libpfm4" or "-libpfm4" (built without) for perfab --version. */
const char *pab_counters_feature(void);

struct pab_counters;

/*
 * pab_counters_open: open events on pid (normally a child stopped before
 * exec). events are libpfm4 names such as "instructions:u" or
 * "INST_RETIRED:ANY_P"; NULL means the defaults "instructions:u",
 * "cycles:u" (n_events is then ignored), an empty list none. Besides the
 * libpfm4 names, task-clock, cpu-clock, page-faults, minor-faults,
 * major-faults, context-switches and cpu-migrations are encoded by perfab
 * itself (no libpfm4 needed). The software events task-clock,
 * page-faults and context-switches are always added after them, unless
 * events already names them. Never returns NULL (dies only when out of
 * memory). The caller owns the set: pab_counters_close() it.
 *
 * The first call also holds, for the process's life, one disabled
 * software event of each kind the kernel switches on and off with a
 * static key (five descriptors, close-on-exec, counting nothing): opening
 * and closing those per child rewrote kernel text and interrupted every
 * CPU each time (counters.c).
 *
 * Reasons an event is unavailable (pab_counters_read's why):
 *   "no hardware PMU on this machine (...)"
 *   "perf_event_paranoid=N forbids it: run as root or set
 *    kernel.perf_event_paranoid<=1"
 *   "missing CAP_PERFMON (...)"
 *   "not built in: perfab was built without libpfm4"
 *   "unknown event 'x' for libpfm4: ..."
 *   "perf_event_open: <strerror>" for anything else.
 */
struct pab_counters *pab_counters_open(pid_t pid, const char *const *events,
				       size_t n_events);

/* Number of counters in the set (opened or not). */
size_t pab_counters_count(const struct pab_counters *c);

/*
 * pab_counters_name: the metric name of counter i, owned by c: the event
 * name without PMU prefix and modifiers, lowercased, '-' and '.' made '_'.
 * The defaults give "instructions", "cycles", "task_clock", "page_faults",
 * "context_switches" (the names in metrics.h).
 */
const char *pab_counters_name(const struct pab_counters *c, size_t i);

/*
 * pab_counters_read: read counter i after the child exited (and before
 * pab_counters_close); at pab_spawn_measure's ptrace exit stop works
 * too. Descendants still alive (daemonised) add their counts only when
 * they exit. Returns 0 and *value — scaled for multiplexing as
 * raw * time_enabled / time_running; task_clock is in nanoseconds — or -1
 * and *why, a string that is static or owned by c (valid until close).
 * A counter that never ran (the child never exec'd, or the PMU never had
 * room for it) is -1, never 0.
 */
int pab_counters_read(struct pab_counters *c, size_t i, double *value,
		      const char **why);

/* Close every descriptor and free the set. NULL is a no-op. */
void pab_counters_close(struct pab_counters *c);

/*
 * pab_counters_check_events: validate event names up front (for
 * --counters), without opening anything. Returns 0, or -1 and *why (new
 * memory, caller frees) naming the first bad event and what to do. An event
 * that is valid but cannot be counted on this machine (no PMU) passes: it
 * is recorded as unavailable at run time.
 */
int pab_counters_check_events(const char *const *events, size_t n, char **why);

/*
 * pab_counters_pmu_probe: does this machine let perfab count hardware
 * events? Opens (and closes) a user-only instructions counter on the
 * calling thread. Returns 1 (yes), 0 (no PMU, or no perf_event_open) or -1
 * (could not tell, e.g. not permitted), with *why a static reason for 0
 * and -1 (NULL for 1). The answer is computed once and cached.
 */
int pab_counters_pmu_probe(const char **why);

#endif /* PAB_COUNTERS_H */
