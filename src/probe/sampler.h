/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sampler.h — a background thread that samples the RSS and PSS of a whole
 * child process tree (smaps_rollup of every descendant, summed) at a fixed
 * interval and keeps the peaks. It runs on the PU pin.h reserves for it,
 * and measures its own CPU time so its cost can be reported.
 */
#ifndef PAB_SAMPLER_H
#define PAB_SAMPLER_H

#include <stdint.h>
#include <sys/types.h>

#include "probe/pin.h"

struct pab_sampler;

struct pab_tree_peaks {
	uint64_t rss_bytes, pss_bytes; /* peaks of the tree sums */
	uint64_t samples;              /* samples that read at least one process */
	uint64_t procs_peak;           /* most processes seen in the tree */
	int limit_hit;                 /* the tree passed max_procs: group killed */
	const char *why;               /* static reason when samples == 0 */
};

/* Start the thread (idle until watch). NULL on failure (errno set). */
struct pab_sampler *pab_sampler_new(const struct pab_pin *pin,
				    int64_t interval_ns);
/*
 * Begin sampling pid's tree; resets the peaks; the first sample comes one
 * interval later (a shorter child is sampled at its exit stop).
 * When max_procs > 0 and the tree holds more processes, the sampler kills
 * the child's process group (a fork bomb must not take the machine).
 */
void pab_sampler_watch(struct pab_sampler *s, pid_t pid, long max_procs);
/*
 * Called with the watched child held at its exit stop (its memory still
 * mapped): when the thread has not yet read the tree at all — a child
 * shorter than the sampler's wake-up on a busy CPU — take that one sample
 * now, in the caller's thread, so a run's tree figures do not turn null at
 * random. A no-op once the thread has a sample, so long reps pay nothing.
 */
void pab_sampler_at_exit(struct pab_sampler *s, pid_t pid);
/* Stop sampling and return the peaks of the watch period. */
void pab_sampler_unwatch(struct pab_sampler *s, struct pab_tree_peaks *out);
/* CPU time the sampler thread used so far, and the samples it took. */
void pab_sampler_cost(struct pab_sampler *s, int64_t *cpu_ns,
		      uint64_t *samples);
/* Stop and join the thread; frees s. */
void pab_sampler_free(struct pab_sampler *s);

#endif /* PAB_SAMPLER_H */
