/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * count_batch.c — counting children side by side (count_batch.h).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probe/guard.h"
#include "probe/pin.h"
#include "run/count_batch.h"
#include "term.h"
#include "test_hooks.h"
#include "util.h"

/* One job's thread: the job, and its copy of the run's measure. */
struct slot {
	struct pab_measure m;
	const struct pab_experiment *e;
	const struct pab_row *row;
	uint64_t seed;
	struct pab_count_job *job;
	pthread_t thread;
	int started;
};

static void *count_one(void *arg)
{
	struct slot *s = arg;
	struct pab_count_job *j = s->job;

	j->ret = pab_measure_arm(&s->m, s->e, s->row, j->arm, PAB_MEASURE_COUNT, s->seed,
				 j->res, &j->out, &j->f);
	return NULL;
}

/* Slot i's copy of m: its own scratch subdirectory (made here), PU and
 * limit. Returns 0, or -1 (errno) when the subdirectory cannot be made. */
static int slot_init(struct slot *s, const struct pab_measure *m, size_t i, int *stop,
		     int side_by_side)
{
	struct pab_count_job *j = s->job;

	s->m = *m;
	s->m.tmpdir = xasprintf("%s/count-%zu", m->tmpdir, i);
	s->m.report_path = xasprintf("%s/report.json", s->m.tmpdir);
	s->m.count_timeout_ns = j->timeout_ns;
	s->m.count_limit_budget = j->limit_budget;
	s->m.count_pu_given = 1;
	s->m.count_pu = j->pu;
	s->m.count_stop_shared = side_by_side ? stop : NULL;
	s->m.side_by_side = side_by_side;
	if (mkdir(s->m.tmpdir, 0700) && errno != EEXIST)
		return -1;
	return 0;
}

int pab_count_batch_run(struct pab_measure *m, const struct pab_experiment *e,
			const struct pab_row *row, uint64_t seed, struct pab_count_job *jobs,
			size_t n)
{
	struct slot *slots = xcalloc(n ? n : 1, sizeof(*slots));
	int stop = 0, ret = 0, err;
	size_t i;

	for (i = 0; i < n; i++) {
		struct slot *s = &slots[i];

		memset(&jobs[i].out, 0, sizeof(jobs[i].out));
		memset(&jobs[i].f, 0, sizeof(jobs[i].f));
		s->e = e;
		s->row = row;
		s->seed = seed;
		s->job = &jobs[i];
		if (slot_init(s, m, i, &stop, n > 1)) {
			jobs[i].ret = pab_fail_errno(&jobs[i].f, "cannot make '%s'", s->m.tmpdir);
			continue;
		}
		if (n == 1) {
			count_one(s);
			continue;
		}
		err = pthread_create(&s->thread, NULL, count_one, s);
		s->started = !err;
		if (err)
			jobs[i].ret = pab_fail(&jobs[i].f, PAB_FAIL_SYSTEM, "cannot start a thread "
					       "to count arm '%s': %s",
					       pab_term_safe(e->arms[jobs[i].arm].name), strerror(err));
	}
	for (i = 0; i < n; i++) {
		if (slots[i].started)
			pthread_join(slots[i].thread, NULL);
		ret |= jobs[i].ret;
		free(slots[i].m.tmpdir);
		free(slots[i].m.report_path);
	}
	/* What any of them left running: only now, none of them runs. */
	if (n > 1)
		pab_kill_orphans();
	free(slots);
	return ret ? -1 : 0;
}

/* 1 when arm a's program is one of jobs[0..nj)'s: it takes that count
 * after the batch. */
static int being_counted(const struct pab_count_job *jobs, size_t nj, char *const *ids, size_t a)
{
	size_t i;

	for (i = 0; ids[a] && i < nj; i++)
		if (ids[jobs[i].arm] && !strcmp(ids[jobs[i].arm], ids[a]))
			return 1;
	return 0;
}

/*
 * The next batch of row ri's rep rep_idx: arms not done (done[k], by
 * rotated position) take a count the policy gives, else become jobs, at
 * most p->n_pus. Returns how many jobs, or -1 when the budget cannot
 * cover a count (the row's counts are stopped).
 */
static ssize_t plan_batch(struct pab_count_pass *p, size_t ri, size_t rep_idx, char *const *ids,
			  int *done, struct pab_count_job *jobs)
{
	struct pab_rep *rep = &p->e->rows[ri].reps[rep_idx];
	size_t k, nj = 0;
	char *why;

	for (k = 0; k < p->e->n_arms; k++) {
		size_t a = rep->order[k];
		/* -1: no budget; a spent budget is 0 left, never "no budget". */
		int64_t left = p->budget_ns > 0 ?
			p->budget_ns - (now_monotonic_ns() - p->start_ns) : -1;

		if (done[k] || being_counted(jobs, nj, ids, a))
			continue;
		if (pab_counting_share(rep, ids, k) || pab_counting_reuse(p->c, ri, rep_idx, ids, a) ||
		    pab_counting_cached(p->c, ri, rep_idx, ids, a)) {
			done[k] = 1;
			continue;
		}
		if (nj == p->n_pus)
			continue;
		if (p->budget_ns > 0 && left < 0)
			left = 0;
		if (pab_counting_limit(p->c, ri, rep_idx, a, p->m->timeout_ns, left,
				       (double)p->budget_ns / 1e9, &jobs[nj].timeout_ns,
				       &jobs[nj].limit_budget, &why)) {
			pab_counting_stop_row(p->c, ri, why);
			free(why);
			return -1;
		}
		jobs[nj].arm = a;
		jobs[nj].pu = p->pus[nj];
		jobs[nj].res = &rep->result[a];
		done[k] = 1;
		nj++;
	}
	return (ssize_t)nj;
}

/* What the progress line says runs, after the first job's arm name. */
static char *batch_label(const struct pab_experiment *e, const struct pab_count_job *jobs,
			 size_t nj)
{
	if (nj == 1)
		return xstrdup(" (counting under valgrind)");
	if (nj == 2)
		return xasprintf(" (counting under valgrind with %s side by side)",
				 e->arms[jobs[1].arm].name);
	return xasprintf(" (counting under valgrind with %zu more side by side)", nj - 1);
}

/* After a batch: each job's outcome into the policy, in start order.
 * Returns 0, or -1 with f taken from the first job that could not run. */
static int take_batch(struct pab_count_pass *p, size_t ri, size_t rep_idx, char *const *ids,
		      struct pab_count_job *jobs, size_t nj, struct pab_failure *f)
{
	struct pab_rep *rep = &p->e->rows[ri].reps[rep_idx];
	int ret = 0;
	size_t i;

	for (i = 0; i < nj; i++) {
		struct pab_count_job *j = &jobs[i];

		if (j->ret) {
			if (!ret)
				*f = j->f;
			else
				pab_failure_release(&j->f);
			ret = -1;
			continue;
		}
		pab_pin_note_counted(p->m->pin, j->out.count_cpus);
		if (j->out.interrupted) {
			p->interrupted = j->out.interrupted;
			continue;
		}
		if (ret || p->interrupted)
			continue;
		p->counted++;
		pab_counting_spent(p->c, j->out.count_wall_s);
		if (!pab_counting_rep(p->c, ri, rep_idx))
			continue; /* an earlier job stopped the row's counts */
		if (j->out.count_stop)
			pab_counting_stop_row(p->c, ri, rep->result[j->arm].reason[PAB_M_INSTRUCTIONS]);
		else
			pab_counting_learn(p->c, ri, rep_idx, ids, j->arm);
	}
	return ret;
}

int pab_count_pass_side_by_side(struct pab_count_pass *p, size_t ri, size_t rep_idx,
				uint64_t seed, char *const *ids, struct pab_failure *f)
{
	struct pab_row *row = &p->e->rows[ri];
	struct pab_count_job *jobs = xcalloc(p->n_pus, sizeof(*jobs));
	int *done = xcalloc(p->e->n_arms ? p->e->n_arms : 1, sizeof(*done));
	ssize_t nj;
	int ret = 0;

	p->interrupted = 0;
	p->counted = 0;
	while (!row->failed && pab_counting_rep(p->c, ri, rep_idx)) {
		char *label;

		memset(jobs, 0, p->n_pus * sizeof(*jobs));
		nj = plan_batch(p, ri, rep_idx, ids, done, jobs);
		if (nj <= 0)
			break;
		if (!p->counted)
			pab_progress_counting(p->pg, ri, rep_idx,
					      pab_counting_cost_s(p->c, ri, rep_idx, jobs[0].arm));
		label = batch_label(p->e, jobs, (size_t)nj);
		pab_progress_child(p->pg, ri, rep_idx, jobs[0].arm, label);
		free(label);
		pab_crash_point("before a counting run");
		pab_count_batch_run(p->m, p->e, row, seed, jobs, (size_t)nj);
		ret = take_batch(p, ri, rep_idx, ids, jobs, (size_t)nj, f);
		if (ret || p->interrupted)
			break;
	}
	pab_pin_count_release(p->m->pin);
	free(done);
	free(jobs);
	return ret;
}

int pab_count_any_prepare(const struct pab_experiment *e, const struct pab_run_settings *use)
{
	size_t a;

	for (a = 0; a < e->n_arms; a++)
		if (e->arms[a].prepare)
			return 1;
	return use->prepare != NULL;
}
