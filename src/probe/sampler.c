/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sampler.c — the tree RSS/PSS sampler thread (sampler.h).
 *
 * One mutex guards the watched pid and the peaks; the /proc reads happen
 * outside it so the runner never waits on a slow smaps_rollup.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/proc.h"
#include "probe/sampler.h"
#include "test_hooks.h"
#include "util.h"

#define MAX_TREE 4096

struct pab_sampler {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	const struct pab_pin *pin;
	int64_t interval_ns;
	pid_t pid;           /* 0 = idle */
	long max_procs;
	uint64_t generation; /* bumps on every watch, so stale samples are dropped */
	int quit;
	int idle_for_test; /* PERFAB_TEST_SAMPLER_IDLE: the thread never samples */
	long fold_delay_ms_for_test; /* PERFAB_TEST_SAMPLER_FOLD_DELAY_MS */
	struct pab_tree_peaks peaks;
	int64_t cpu_ns;
	uint64_t total_samples;
	pid_t tree[MAX_TREE];      /* the sampler thread's scratch */
	pid_t exit_tree[MAX_TREE]; /* pab_sampler_at_exit's (runner thread) */
};

/*
 * Sum smaps_rollup over pid's tree, listed into tree[MAX_TREE]; 0 when
 * nothing could be read, or when the tree has more than max_procs
 * processes (*procs says so; the caller kills it).
 */
static int sample_tree(pid_t *tree, pid_t pid, long max_procs,
		       uint64_t *rss, uint64_t *pss, int *procs)
{
	int n = pab_proc_tree(pid, tree, MAX_TREE), i, got = 0;

	*rss = *pss = 0;
	*procs = n;
	if (max_procs > 0 && n > max_procs)
		return 0; /* measure never */
	for (i = 0; i < n && i < MAX_TREE; i++) {
		uint64_t r, p;

		if (!pab_proc_smaps_rollup(tree[i], &r, &p)) {
			*rss += r;
			*pss += p;
			got = 1;
		}
	}
	return got;
}

/*
 * Sample pid's tree into tree[] and fold the sample, taken in watch
 * generation gen, into the peaks (a sample of an earlier watch is dropped);
 * its CPU time counts as the sampler's cost. Called without s->lock (the
 * /proc reads must not block the runner); returns holding it.
 */
static void sample_and_fold(struct pab_sampler *s, pid_t *tree, pid_t pid,
			    uint64_t gen, long max_procs)
{
	int64_t c0 = now_thread_cpu_ns();
	uint64_t rss, pss;
	int procs, got = sample_tree(tree, pid, max_procs, &rss, &pss, &procs);

	if (s->fold_delay_ms_for_test) {
		struct timespec d = { s->fold_delay_ms_for_test / 1000,
				      (s->fold_delay_ms_for_test % 1000) * 1000000 };

		nanosleep(&d, NULL);
	}
	pthread_mutex_lock(&s->lock);
	s->cpu_ns += now_thread_cpu_ns() - c0;
	if (gen != s->generation || s->pid != pid)
		return;
	if (procs > 0 && (uint64_t)procs > s->peaks.procs_peak)
		s->peaks.procs_peak = (uint64_t)procs;
	if (max_procs > 0 && procs > max_procs) {
		/*
		 * The reason first, then the kill, both under the lock: the
		 * runner reads the peaks (pab_sampler_unwatch) only after the
		 * child is dead, so it cannot see the death without the reason.
		 * Killed outside the lock, the child could die and be unwatched
		 * before the flag was set, and the reason was lost
		 * (tests/e2e/reliability_hostile_children.sh widens that window with
		 * PERFAB_TEST_SAMPLER_FOLD_DELAY_MS). The group is the child's
		 * own, and the watch still names it.
		 */
		s->peaks.limit_hit = 1;
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		return;
	}
	if (!got)
		return;
	if (rss > s->peaks.rss_bytes)
		s->peaks.rss_bytes = rss;
	if (pss > s->peaks.pss_bytes)
		s->peaks.pss_bytes = pss;
	s->peaks.samples++;
	s->total_samples++;
}

static void *sampler_main(void *arg)
{
	struct pab_sampler *s = arg;
	struct timespec next;

	uint64_t started = 0; /* the watch whose first interval has passed */

	pab_pin_sampler_thread(s->pin);
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->lock);
	while (!s->quit) {
		pid_t pid = s->pid;
		long max_procs = s->max_procs;
		uint64_t gen = s->generation;

		if (!pid || s->idle_for_test) {
			pthread_cond_wait(&s->wake, &s->lock);
			clock_gettime(CLOCK_MONOTONIC, &next);
			continue;
		}
		if (started != gen) {
			/* A new child: its first sample one interval in. A child
			 * shorter than that is sampled at its exit stop, outside its
			 * measured time, instead of having /proc read under its exec. */
			started = gen;
			clock_gettime(CLOCK_MONOTONIC, &next);
		} else {
			pthread_mutex_unlock(&s->lock);
			sample_and_fold(s, s->tree, pid, gen, max_procs);
		}
		/* A drift-free schedule: the next tick, not now + interval. */
		next.tv_nsec += s->interval_ns % 1000000000;
		next.tv_sec += s->interval_ns / 1000000000 + next.tv_nsec / 1000000000;
		next.tv_nsec %= 1000000000;
		while (!s->quit && s->pid == pid && gen == s->generation) {
			if (pthread_cond_timedwait(&s->wake, &s->lock, &next) ==
			    ETIMEDOUT)
				break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

struct pab_sampler *pab_sampler_new(const struct pab_pin *pin,
				    int64_t interval_ns)
{
	struct pab_sampler *s = xcalloc(1, sizeof(*s));
	pthread_condattr_t ca;
	int err;

	s->pin = pin;
	s->interval_ns = interval_ns;
	/* Test hook: a sampler starved of CPU for the whole run
	 * (tests/e2e/measure_tree_sample.sh). */
	s->idle_for_test = pab_test_hook(PAB_TEST_SAMPLER_IDLE) != NULL;
	/* Test hook: a sampler slow between its look at the tree and acting on it. */
	if (pab_test_hook(PAB_TEST_SAMPLER_FOLD_DELAY_MS) &&
	    parse_long(pab_test_hook(PAB_TEST_SAMPLER_FOLD_DELAY_MS), 0, 10000,
		       &s->fold_delay_ms_for_test))
		s->fold_delay_ms_for_test = 0;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	err = pthread_create(&s->thread, NULL, sampler_main, s);
	if (err) {
		errno = err;
		free(s);
		return NULL;
	}
	return s;
}

void pab_sampler_watch(struct pab_sampler *s, pid_t pid, long max_procs)
{
	pthread_mutex_lock(&s->lock);
	s->pid = pid;
	s->max_procs = max_procs;
	s->generation++;
	memset(&s->peaks, 0, sizeof(s->peaks));
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

void pab_sampler_at_exit(struct pab_sampler *s, pid_t pid)
{
	uint64_t gen;

	pthread_mutex_lock(&s->lock);
	if (s->pid != pid || s->peaks.samples) {
		pthread_mutex_unlock(&s->lock);
		return;
	}
	gen = s->generation;
	pthread_mutex_unlock(&s->lock);
	sample_and_fold(s, s->exit_tree, pid, gen, 0);
	pthread_mutex_unlock(&s->lock);
}

void pab_sampler_unwatch(struct pab_sampler *s, struct pab_tree_peaks *out)
{
	pthread_mutex_lock(&s->lock);
	*out = s->peaks;
	if (!out->samples)
		out->why = "the sampler could not read the child's smaps_rollup while it "
			   "ran, nor at its exit stop (where ptrace allows one)";
	s->pid = 0;
	s->generation++;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

void pab_sampler_cost(struct pab_sampler *s, int64_t *cpu_ns,
		      uint64_t *samples)
{
	pthread_mutex_lock(&s->lock);
	*cpu_ns = s->cpu_ns;
	*samples = s->total_samples;
	pthread_mutex_unlock(&s->lock);
}

void pab_sampler_free(struct pab_sampler *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->quit = 1;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->wake);
	free(s);
}
