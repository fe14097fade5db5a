/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_compare.c — one comparison of `perfab bisect` (bisect_compare.h):
 * the arms of the revisions, the run (or the resume of an interrupted
 * one) through the plan and the runner as `perfab run` makes it, the
 * retries of an undecided comparison pooled with the first run, and the
 * judging from both ends.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/ledger.h"
#include "model/argv_split.h"
#include "model/experiment_copy.h"
#include "model/metrics.h"
#include "model/pool.h"
#include "run/bisect.h"
#include "run/bisect_compare.h"
#include "run/plan.h"
#include "run/runner.h"
#include "store/artifact_read.h"
#include "store/tempfile.h"
#include "term.h"
#include "util.h"

/*
 * The arms of a comparison, by name: good is base (its null arm the
 * automatic "null"), mid has a null arm of its own ("midnull") for the
 * judging with mid as base. The names a view with mid as base gives them.
 */
#define ARM_GOOD "base"
#define ARM_MID "mid"
#define ARM_MID_NULL "midnull"
#define ARM_BAD "bad"
#define ARM_NULL "null"

void pab_bisect_cmp_opts_release(struct pab_bisect_cmp_opts *o)
{
	size_t i;

	for (i = 0; i < o->said.n; i++)
		free((char *)o->said.v[i]);
	pab_strlist_release(&o->said);
}

char *pab_bisect_arm_command(const char *dir, char *const *bench, size_t n)
{
	char **argv = xcalloc(n + 5, sizeof(*argv)), *cmd;
	size_t i;

	argv[0] = "env";
	argv[1] = "-C";
	argv[2] = (char *)dir;
	argv[3] = "--";
	for (i = 0; i < n; i++)
		argv[4 + i] = bench[i];
	cmd = pab_argv_join(argv, n + 4);
	free(argv);
	return cmd;
}

/* The plan's messages, each note or warning told once per bisection. */
static void tell_plan(struct pab_bisect_cmp_opts *o, const struct pab_plan *p)
{
	size_t i, j;

	for (i = 0; i < p->n_msgs; i++) {
		const struct pab_plan_msg *m = &p->msgs[i];

		for (j = 0; j < o->said.n && strcmp(o->said.v[j], m->text); j++)
			;
		if (j < o->said.n)
			continue;
		pab_strlist_push(&o->said, xstrdup(m->text));
		if (m->kind == PAB_PLAN_NOTE)
			note("%s", m->text);
		else if (m->kind == PAB_PLAN_WARNING)
			warning("%s", m->text);
		else if (!o->run->quiet)
			fputs(m->text, stderr);
	}
}

/*
 * One run of the comparison into *e (initialised by the call): artifact
 * read back when it is complete, resumed when it is not, else run afresh
 * with the arms specs and seed offset k. Returns 0, 1 when interrupted
 * (*interrupted), -1 with f filled.
 */
static int one_run(struct pab_bisect_cmp_opts *o, const struct pab_strlist *specs,
		   const char *artifact, size_t k, struct pab_experiment *e, int *interrupted,
		   struct pab_failure *f)
{
	struct pab_run_opts ro;
	struct pab_plan plan;
	struct pab_runner r;
	enum pab_run_end end;
	char *why = NULL;
	int lock_fd, ret = -1;

	if (!access(artifact, F_OK)) {
		if (!pab_artifact_load(artifact, e, &why) && e->complete)
			return 0;
		if (!why)
			pab_experiment_release(e);
	}
	if (why) {
		/* Not this run's any more (damaged, or another perfab's): afresh. */
		char *journal = xasprintf("%s.journal", artifact);

		unlink(artifact);
		unlink(journal);
		free(journal);
		free(why);
		why = NULL;
	}
	if (!access(artifact, F_OK)) {
		/* Resumed: the run's own settings, the arms again. */
		pab_run_opts_init(&ro);
		ro.resume = artifact;
		ro.cpus = o->run->cpus;
		ro.timeout_s = o->run->timeout_s;
		ro.no_null_arm = o->run->no_null_arm;
		ro.literal_argv = o->run->literal_argv;
		ro.quiet = o->run->quiet;
	} else {
		ro = *o->run;
		ro.out = artifact;
		ro.no_sanity = 1;
		if (ro.seed != UINT64_MAX)
			ro.seed += k;
	}
	ro.table = o->run->table;
	ro.arm_specs = *specs;
	lock_fd = pab_artifact_lock(artifact, &why);
	if (lock_fd < 0) {
		pab_fail(f, PAB_FAIL_SYSTEM, "%s", why);
		free(why);
		return -1;
	}
	ret = pab_plan_make(&plan, &ro, f);
	tell_plan(o, &plan);
	if (ret) {
		pab_plan_release(&plan);
		goto out_unlock;
	}
	end = pab_runner_start(&r, &plan, f) ? PAB_RUN_ERROR : pab_runner_run(&r, f);
	if (end == PAB_RUN_INTERRUPTED) {
		*interrupted = r.interrupted;
		ret = 1;
	} else if (end == PAB_RUN_GATED) {
		BUG("the sanity gate is off in a comparison");
	} else if (end == PAB_RUN_ERROR || pab_plan_recheck(&plan, f) ||
		   pab_runner_finish(&r, end, f)) {
		ret = -1;
	}
	pab_runner_release(&r);
	if (!ret)
		pab_experiment_copy(e, &plan.e);
	pab_plan_release(&plan);
out_unlock:
	pab_artifact_unlock(artifact, lock_fd);
	return ret;
}

/* The ledger row of head arm `arm` (row 0), or NULL. */
static const struct pab_ledger_row *row_of(const struct pab_ledger *l, int arm)
{
	size_t i;

	for (i = 0; i < l->n_rows; i++)
		if (l->rows[i].row == 0 && (int)l->rows[i].arm == arm)
			return &l->rows[i];
	return NULL;
}

/*
 * The cell whose change a side shows: the followed metric's; else the
 * first FAIL among the required cells, then the guards, else the first
 * required cell, else the first judged one.
 */
static const struct pab_ledger_cell *shown_cell(const struct pab_ledger *l, int arm, int followed)
{
	const struct pab_ledger_cell *first_fail_guard = NULL, *first_req = NULL, *first = NULL;
	size_t i;

	if (followed >= 0)
		return pab_ledger_find_cell(l, 0, (size_t)arm, (enum pab_metric_id)followed);
	for (i = 0; i < l->n_cells; i++) {
		const struct pab_ledger_cell *c = &l->cells[i];

		if (c->row || (int)c->arm != arm || c->role == PAB_ROLE_SHOWN)
			continue;
		if (c->res.verdict == PAB_FAIL && c->role == PAB_ROLE_REQUIRED)
			return c;
		if (c->res.verdict == PAB_FAIL && !first_fail_guard)
			first_fail_guard = c;
		if (c->role == PAB_ROLE_REQUIRED && !first_req)
			first_req = c;
		if (!first)
			first = c;
	}
	return first_fail_guard ? first_fail_guard : first_req ? first_req : first;
}

/* Judge head arm `head` of e (base by name) into *s. Returns 0, or -1
 * with f filled. */
static int judge_side(const struct pab_experiment *e, const char *head, int followed,
		      struct pab_bisect_side *s, struct pab_failure *f)
{
	struct pab_ledger_opts lo;
	struct pab_ledger l;
	const struct pab_ledger_row *lr;
	const struct pab_ledger_cell *c;
	int arm = pab_experiment_arm_index(e, head);
	char *why;

	memset(s, 0, sizeof(*s));
	s->metric = -1;
	s->verdict = PAB_NOT_MEASURED;
	s->change.median = s->change.lo = s->change.hi = s->base_median = s->head_median = NAN;
	pab_ledger_opts_init(&lo, e);
	if (arm < 0)
		BUG("no arm '%s' in a comparison", head);
	if (pab_ledger_build(e, &lo, &l, &why)) {
		pab_fail(f, PAB_FAIL_REFUSED, "no verdict in a comparison: %s", why);
		free(why);
		return -1;
	}
	lr = row_of(&l, arm);
	c = shown_cell(&l, arm, followed);
	if (lr)
		s->verdict = lr->verdict;
	if (c) {
		s->metric = (int)c->metric;
		s->change = c->res.change;
		s->base_median = c->res.base_median;
		s->head_median = c->res.head_median;
		s->exact = c->res.exact;
	}
	pab_ledger_release(&l);
	return 0;
}

/* Rename arm `from` of e to `to`. */
static void rename_arm(struct pab_experiment *e, const char *from, const char *to)
{
	int i = pab_experiment_arm_index(e, from);

	if (i < 0)
		return;
	free(e->arms[i].name);
	e->arms[i].name = xstrdup(to);
}

/*
 * Judge e into out: bad vs good, and with a mid, mid vs good and bad vs
 * mid (a copy of e in which mid is base and its null arm the null arm).
 */
static int judge(const struct pab_experiment *e, int with_mid, int followed,
		 struct pab_bisect_comparison *out, struct pab_failure *f)
{
	struct pab_experiment view;
	int ret;

	if (judge_side(e, ARM_BAD, followed, &out->bad_good, f))
		return -1;
	if (!with_mid)
		return 0;
	if (judge_side(e, ARM_MID, followed, &out->mid_good, f))
		return -1;
	pab_experiment_copy(&view, e);
	rename_arm(&view, ARM_GOOD, "good");
	rename_arm(&view, ARM_NULL, "goodnull");
	rename_arm(&view, ARM_MID, ARM_GOOD);
	rename_arm(&view, ARM_MID_NULL, ARM_NULL);
	ret = judge_side(&view, ARM_BAD, followed, &out->bad_mid, f);
	pab_experiment_release(&view);
	return ret;
}

/* 1 when the comparison needs more reps: it decided nothing usable. */
static int undecided(const struct pab_bisect_comparison *c)
{
	if (!c->mid)
		return c->bad_good.verdict != PAB_PASS && c->bad_good.verdict != PAB_FAIL;
	return pab_bisect_classify(c->mid_good.verdict, c->bad_mid.verdict) ==
		PAB_BISECT_UNDECIDED;
}

/* A failed row: the commit whose benchmark failed it, or -1 with f filled. */
static int take_failure(const struct pab_experiment *e, const char *const commits[3],
			struct pab_bisect_comparison *out, struct pab_failure *f)
{
	const struct pab_row *row = &e->rows[0];
	const char *who = row->failed_arm, *commit = NULL;

	if (who && (!strcmp(who, ARM_GOOD) || !strcmp(who, ARM_NULL)))
		commit = commits[0];
	else if (who && (!strcmp(who, ARM_MID) || !strcmp(who, ARM_MID_NULL)))
		commit = commits[1];
	else if (who && !strcmp(who, ARM_BAD))
		commit = commits[2];
	if (!commit)
		return pab_fail(f, PAB_FAIL_SYSTEM, "a comparison failed outside the benchmark: %s",
				row->fail_reason ? row->fail_reason : "no reason recorded");
	out->failed = xstrdup(commit);
	out->failed_why = xstrdup(row->fail_reason ? row->fail_reason : "it failed");
	return 0;
}

int pab_bisect_compare(struct pab_bisect_cmp_opts *o, const char *key,
		       const char *const commits[3], const char *const dirs[3],
		       struct pab_bisect_comparison *out, int *interrupted,
		       struct pab_failure *f)
{
	static const char *const names[3] = { ARM_GOOD, ARM_MID, ARM_BAD };
	struct pab_experiment *runs = xcalloc(o->retries + 1, sizeof(*runs));
	const struct pab_experiment **in = xcalloc(o->retries + 1, sizeof(*in));
	struct pab_strlist specs = { 0 };
	char *spec_text[4] = { NULL, NULL, NULL, NULL };
	size_t n = 0, i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->key = xstrdup(key);
	out->good = xstrdup(commits[0]);
	out->mid = commits[1] ? xstrdup(commits[1]) : NULL;
	out->bad = xstrdup(commits[2]);
	for (i = 0; i < 3; i++) {
		char *cmd;

		if (!commits[i])
			continue;
		cmd = pab_bisect_arm_command(dirs[i], o->bench, o->bench_n);
		spec_text[i] = xasprintf("%s=%s", names[i], cmd);
		pab_strlist_push(&specs, spec_text[i]);
		if (i == 1 && !o->run->no_null_arm) {
			spec_text[3] = xasprintf("%s=%s", ARM_MID_NULL, cmd);
			pab_strlist_push(&specs, spec_text[3]);
		}
		free(cmd);
	}
	while (n <= o->retries) {
		struct pab_experiment pooled;
		const struct pab_experiment *e = &runs[n];
		char *artifact = xasprintf("%s/%.16s-%zu.json", o->runs_dir, key, n), *why;

		ret = one_run(o, &specs, artifact, n, &runs[n], interrupted, f);
		free(out->artifact);
		out->artifact = artifact;
		if (ret)
			break;
		in[n] = &runs[n];
		out->seconds += runs[n].settings.elapsed_s;
		n++;
		if (e->n_rows != 1)
			BUG("a comparison of %zu rows", e->n_rows);
		if (e->rows[0].failed) {
			ret = take_failure(e, commits, out, f);
			break;
		}
		memset(&pooled, 0, sizeof(pooled));
		if (n > 1 && pab_pool(in, NULL, n, &pooled, &why)) {
			warning("the runs of a comparison cannot be pooled (%s): judged on the "
				"last alone", why);
			free(why);
		} else if (n > 1) {
			e = &pooled;
		}
		out->runs = n;
		out->reps = e->rows[0].n_reps;
		ret = judge(e, commits[1] != NULL, o->followed, out, f);
		if (e == &pooled)
			pab_experiment_release(&pooled);
		if (ret || !undecided(out))
			break;
		if (n <= o->retries && !o->run->quiet)
			note("undecided after %zu reps: running the comparison again, pooled with "
			     "what it measured (%zu of %zu)", out->reps, n, o->retries);
	}
	for (i = 0; i < n; i++)
		pab_experiment_release(&runs[i]);
	free(runs);
	free(in);
	for (i = 0; i < 4; i++)
		free(spec_text[i]);
	pab_strlist_release(&specs);
	return ret;
}
