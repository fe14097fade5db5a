/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pool.c — merging artifacts of one experiment (pool.h). First every input
 * is checked on its own (complete, balanced, not stopped by the gate), then
 * each against the first (host, arms, protocol, settings), then the rows
 * decide how they merge: identical row sets as blocks, disjoint ones as a
 * union. The first difference found is the reason returned; nothing is
 * printed here.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/experiment_copy.h"
#include "model/judgeable.h"
#include "model/pool.h"
#include "term.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Comparisons                                                        */

static int str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static const char *or_none(const char *s)
{
	return s ? s : "(none)";
}

static int argv_eq(char *const *a, size_t na, char *const *b, size_t nb,
		   size_t from)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = from; i < na; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return 1;
}

/* Same keys with the same values, in any order. */
static int kv_eq(const struct pab_kv *a, size_t na, const struct pab_kv *b,
		 size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (!str_eq(a[i].value, pab_kv_get(b, nb, a[i].key)))
			return 0;
	return 1;
}

/* Bit m set when metric m has a value in some rep of some arm of row. */
static uint64_t row_metric_mask(const struct pab_row *row, size_t n_arms)
{
	uint64_t mask = 0;
	size_t r, a, m;

	for (r = 0; r < row->n_reps; r++)
		for (a = 0; a < n_arms; a++)
			for (m = 0; m < PAB_M_COUNT; m++)
				if (isfinite(row->reps[r].result[a].m[m]))
					mask |= (uint64_t)1 << m;
	return mask;
}

/* The first metric in a but not in b, or NULL. */
static const char *mask_extra(uint64_t a, uint64_t b)
{
	size_t m;

	for (m = 0; m < PAB_M_COUNT; m++)
		if ((a & ~b) & ((uint64_t)1 << m))
			return pab_metrics[m].name;
	return NULL;
}

int pab_pool_check_input(const struct pab_experiment *e, const char *label,
			 char **why)
{
	char *inner;
	enum pab_unjudgeable u = pab_artifact_judgeable(e, label, &inner);

	*why = NULL;
	if (u == PAB_JUDGEABLE)
		return 0;
	if (u == PAB_UNJUDGEABLE_SANITY)
		*why = xasprintf("%s, so there is nothing to add blocks to", inner);
	else if (u == PAB_UNJUDGEABLE_INCOMPLETE)
		*why = xasprintf("%s; finish it (perfab run ... --out %s) before pooling",
				 inner, label);
	else
		*why = xasprintf("%s: it cannot be pooled", inner);
	free(inner);
	return -1;
}

/* Everything but rows: host, protocol, arms, settings. */
/* What to do when one revision was built into different programs: CI
 * shards on runners of two image versions (a roll-out) get two compilers. */
#define POOL_BUILD_ADVICE "; one revision built into different programs (shards on runners of " \
	"different image versions or compilers?): pin runs-on to one image version, or build " \
	"once and give every shard job the same executables (doc/ci.md)"

/* Arm i of two inputs (labels la, lb): name, revision, executable,
 * command and environment. Returns 0 or -1 with *why. */
static int same_arm(const struct pab_arm *x, const char *la, const struct pab_arm *y,
		    const char *lb, size_t i, char **why)
{
	if (strcmp(x->name, y->name)) {
		*why = xasprintf("arms differ: arm %zu is '%s' in '%s' and '%s' in '%s' "
				 "(names and order must match)", i + 1, x->name, la,
				 y->name, lb);
		return -1;
	}
	if (!str_eq(x->revision, y->revision)) {
		/* Labels of one commit with different builds ("COMMIT files:...",
		 * as perfab's GitHub Action writes them): the builds differ. */
		size_t c = x->revision ? strcspn(x->revision, " ") : 0;
		int same_commit = c && y->revision && !strncmp(x->revision, y->revision, c) &&
				  (y->revision[c] == ' ' || !y->revision[c]);

		*why = xasprintf("arm '%s': revision differs: '%s' in '%s', '%s' in '%s'%s",
				 x->name, pab_term_safe(or_none(x->revision)), la,
				 pab_term_safe(or_none(y->revision)), lb,
				 same_commit ? POOL_BUILD_ADVICE : "");
		return -1;
	}
	if (!str_eq(x->sha256, y->sha256)) {
		*why = xasprintf("arm '%s': executable differs: sha256 %s in '%s', %s in '%s'%s",
				 x->name, or_none(x->sha256), la, or_none(y->sha256), lb,
				 POOL_BUILD_ADVICE);
		return -1;
	}
	/* The digest identifies the executable wherever it was checked
	 * out; without one, its path has to. */
	if (!argv_eq(x->argv, x->argc, y->argv, y->argc, x->sha256 ? 1 : 0)) {
		*why = xasprintf("arm '%s': command differs between '%s' and '%s'",
				 x->name, la, lb);
		return -1;
	}
	if (!kv_eq(x->env, x->n_env, y->env, y->n_env)) {
		*why = xasprintf("arm '%s': environment additions differ between '%s' and '%s'",
				 x->name, la, lb);
		return -1;
	}
	if (!str_eq(x->prepare, y->prepare)) {
		*why = xasprintf("arm '%s': prepare differs between '%s' and '%s'", x->name, la, lb);
		return -1;
	}
	return 0;
}

/* What runs beside the children and what they read: warmup, prepare,
 * setup, cleanup, input; and whether their non-zero exits were ignored.
 * Returns 0 or -1 with *why. */
static int same_hooks(const struct pab_run_settings *a, const char *la,
		      const struct pab_run_settings *b, const char *lb, char **why)
{
	const char *names[4] = { "prepare", "setup", "cleanup", "input" };
	const char *x[4] = { a->prepare, a->setup, a->cleanup, a->input };
	const char *y[4] = { b->prepare, b->setup, b->cleanup, b->input };
	size_t i;

	if (a->warmup != b->warmup) {
		*why = xasprintf("warmup differs: %llu runs in '%s', %llu in '%s'",
				 (unsigned long long)a->warmup, la, (unsigned long long)b->warmup, lb);
		return -1;
	}
	if (a->ignore_failure != b->ignore_failure) {
		*why = xasprintf("ignore_failure differs: %s in '%s', %s in '%s' (a non-zero exit "
				 "status is a measured run in one, a failure in the other)",
				 a->ignore_failure ? "true" : "false", la,
				 b->ignore_failure ? "true" : "false", lb);
		return -1;
	}
	for (i = 0; i < 4; i++)
		if (!str_eq(x[i], y[i])) {
			*why = xasprintf("%s differs: '%s' in '%s', '%s' in '%s'", names[i],
					 pab_term_safe(or_none(x[i])), la,
					 pab_term_safe(or_none(y[i])), lb);
			return -1;
		}
	return 0;
}

static int same_experiment(const struct pab_experiment *a, const char *la,
			   const struct pab_experiment *b, const char *lb,
			   char **why)
{
	const char *ca = a->cpu_model, *cb = b->cpu_model;
	size_t i, m;

	if (!ca || !cb) {
		*why = xasprintf("'%s' records no CPU model (host.cpu_model): cannot prove it ran "
				 "on the same machine type as the others", !ca ? la : lb);
		return -1;
	}
	/* Different CPU models are fine for disjoint rows (shards on a
	 * mixed fleet: each row has its base, head and null arm from one
	 * machine); blocks of one row must share one (same_row). */
	if (strcmp(a->protocol, b->protocol)) {
		*why = xasprintf("protocol differs: '%s' used %s, '%s' used %s", la, a->protocol,
				 lb, b->protocol);
		return -1;
	}
	if (a->n_arms != b->n_arms) {
		*why = xasprintf("arms differ: '%s' has %zu arms, '%s' has %zu", la, a->n_arms,
				 lb, b->n_arms);
		return -1;
	}
	for (i = 0; i < a->n_arms; i++)
		if (same_arm(&a->arms[i], la, &b->arms[i], lb, i, why))
			return -1;
	if (same_hooks(&a->settings, la, &b->settings, lb, why))
		return -1;
	if (a->settings.scale != b->settings.scale) {
		*why = xasprintf("workload scale differs: %g in '%s', %g in '%s'",
				 a->settings.scale, la, b->settings.scale, lb);
		return -1;
	}
	if (a->rules != b->rules) {
		*why = xasprintf("rules differ: %s in '%s', %s in '%s'", pab_rules_name(a->rules),
				 la, pab_rules_name(b->rules), lb);
		return -1;
	}
	for (m = 0; m < PAB_M_COUNT; m++)
		if (a->tolerance[m] != b->tolerance[m]) {
			*why = xasprintf("tolerance for %s differs: %g%% in '%s', %g%% in '%s' "
					 "(a tolerance is declared before the run, not chosen after)",
					 pab_metrics[m].name, a->tolerance[m], la,
					 b->tolerance[m], lb);
			return -1;
		}
	if ((a->settings.given & b->settings.given & PAB_RUN_COUNTS) &&
	    a->settings.count_source != b->settings.count_source) {
		const char *sa = pab_count_source_name(a->settings.count_source);
		const char *sb = pab_count_source_name(b->settings.count_source);

		*why = xasprintf("instruction counts differ in source: %s in '%s', %s in '%s' "
				 "(a simulated count and a hardware count are not one metric)",
				 sa ? sa : "none", la, sb ? sb : "none", lb);
		return -1;
	}
	if (a->equivalence_margin != b->equivalence_margin) {
		*why = xasprintf("equivalence margin differs: %g%% in '%s', %g%% in '%s'",
				 a->equivalence_margin, la, b->equivalence_margin, lb);
		return -1;
	}
	return 0;
}

static int find_row(const struct pab_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->n_rows; i++)
		if (!strcmp(e->rows[i].name, name))
			return (int)i;
	return -1;
}

/* A shared row must be the same job in both. */
static int same_row(const struct pab_experiment *ea, const struct pab_row *x,
		    const char *la, const struct pab_experiment *eb,
		    const struct pab_row *y, const char *lb, size_t n_arms,
		    char **why)
{
	const char *extra, *ca = pab_row_cpu_model(ea, x), *cb = pab_row_cpu_model(eb, y);
	uint64_t mx, my;

	if (!ca || !cb || strcmp(ca, cb)) {
		*why = xasprintf("CPU model differs: row '%s' ran on \"%s\" in '%s' and on \"%s\" "
				 "in '%s'; blocks of one row from different machine types are "
				 "not one experiment (disjoint rows, shards, may differ)",
				 pab_term_safe(x->name), pab_term_safe(or_none(ca)), la,
				 pab_term_safe(or_none(cb)), lb);
		return -1;
	}

	if (!kv_eq(x->params, x->n_params, y->params, y->n_params)) {
		*why = xasprintf("row '%s': parameters differ between '%s' and '%s'",
				 pab_term_safe(x->name), la, lb);
		return -1;
	}
	if (x->control != y->control) {
		*why = xasprintf("row '%s': a control in '%s' but not in '%s'", pab_term_safe(x->name),
				 x->control ? la : lb, x->control ? lb : la);
		return -1;
	}
	if (!str_eq(x->workload, y->workload) || !str_eq(x->program, y->program) ||
	    !argv_eq(x->argv, x->argc, y->argv, y->argc, 0)) {
		*why = xasprintf("row '%s': its workload or arguments differ between '%s' and '%s'",
				 pab_term_safe(x->name), la, lb);
		return -1;
	}
	mx = row_metric_mask(x, n_arms);
	my = row_metric_mask(y, n_arms);
	if (mx != my) {
		int in_x = mask_extra(mx, my) != NULL;

		extra = in_x ? mask_extra(mx, my) : mask_extra(my, mx);
		*why = xasprintf("metric set differs: row '%s' measured %s in '%s' and never in '%s' "
				 "(a probe missing on one runner is not noise to average over)",
				 pab_term_safe(x->name), extra, in_x ? la : lb, in_x ? lb : la);
		return -1;
	}
	return 0;
}

/*
 * Disjoint groups share no row, but rows of the same program (or plain
 * commands) must still have measured the same metrics: a runner without a
 * PMU or a cgroup is a different measurement, not another shard.
 */
static int same_probes(const struct pab_experiment *a, const char *la,
		       const struct pab_experiment *b, const char *lb, char **why)
{
	size_t i, j;

	for (i = 0; i < a->n_rows; i++) {
		uint64_t ma = 0, mb = 0;
		int seen = 0;
		const char *extra, *prog = a->rows[i].program;

		for (j = 0; j < a->n_rows; j++)
			if (str_eq(a->rows[j].program, prog))
				ma |= row_metric_mask(&a->rows[j], a->n_arms);
		for (j = 0; j < b->n_rows; j++)
			if (str_eq(b->rows[j].program, prog)) {
				mb |= row_metric_mask(&b->rows[j], b->n_arms);
				seen = 1;
			}
		if (!seen || ma == mb)
			continue;
		extra = mask_extra(ma, mb);
		*why = xasprintf("metric set differs: %s rows measured %s in '%s' and never in '%s' "
				 "(a probe missing on one runner is not noise to average over)",
				 prog ? prog : "plain-command", extra ? extra : mask_extra(mb, ma),
				 extra ? la : lb, extra ? lb : la);
		return -1;
	}
	return 0;
}

/*
 * The host row (a copy of src, a row of in) was measured on, recorded on
 * the row only when its CPU model differs from out's host: out keeps the
 * first input's fingerprint, and a shard from another machine type says
 * where its rows ran.
 */
static void row_set_host(struct pab_row *row, const struct pab_experiment *out,
			 const struct pab_experiment *in, const struct pab_row *src)
{
	const char *h = src->host_json ? src->host_json : in->host_json;
	const char *m = src->host_json ? src->cpu_model : in->cpu_model;

	pab_row_set_host(row, NULL, NULL);
	if (h && !str_eq(m, out->cpu_model))
		pab_row_set_host(row, h, m);
}

/* ------------------------------------------------------------------ */
/* The merge                                                          */

static char *strdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Highest block number in row, or -1 for a row without reps. */
static long last_block(const struct pab_row *row)
{
	long b = -1;
	size_t r;

	for (r = 0; r < row->n_reps; r++)
		if ((long)row->reps[r].block > b)
			b = (long)row->reps[r].block;
	return b;
}

/* Append src's reps to dst, block numbers continued after dst's last. */
static void row_append_reps(struct pab_row *dst, const struct pab_row *src,
			    size_t n_arms)
{
	size_t offset = (size_t)(last_block(dst) + 1), r;

	for (r = 0; r < src->n_reps; r++)
		pab_row_add_rep_copy(dst, &src->reps[r], n_arms, offset + src->reps[r].block);
	if (src->failed && !dst->failed) {
		dst->failed = 1;
		free(dst->fail_reason);
		dst->fail_reason = strdup_or_null(src->fail_reason);
		free(dst->failed_arm);
		dst->failed_arm = strdup_or_null(src->failed_arm);
	}
}

static const char *label_of(const char *const *labels, size_t i, char *buf,
			    size_t len)
{
	if (labels && labels[i])
		return labels[i];
	snprintf(buf, len, "artifact %zu", i + 1);
	return buf;
}

/* Seeds an input contributes: its recorded pool seeds, else its own. */
static void add_seeds(struct pab_pool_record *p, const struct pab_experiment *e)
{
	size_t n = e->pool.n_seeds ? e->pool.n_seeds : 1;

	p->seeds = xrealloc(p->seeds, (p->n_seeds + n) * sizeof(*p->seeds));
	if (e->pool.n_seeds)
		memcpy(p->seeds + p->n_seeds, e->pool.seeds, n * sizeof(*p->seeds));
	else
		p->seeds[p->n_seeds] = (double)e->seed;
	p->n_seeds += n;
}

static void add_run(struct pab_pool_record *p, const char *journal, double seed)
{
	p->runs = xrealloc(p->runs, (p->n_runs + 1) * sizeof(*p->runs));
	p->runs[p->n_runs].journal = strdup_or_null(journal);
	p->runs[p->n_runs++].seed = seed;
}

/*
 * The runs an input contributes to run.pool.runs: a pooled input's own
 * runs, else {journal, seed} of the input (journal null when it has no
 * id; such a pool names its runs only in part, and the next pool of it
 * falls back to comparing measurements).
 */
static void add_runs(struct pab_pool_record *p, const struct pab_experiment *e)
{
	size_t i;

	if (!e->pool.recorded)
		add_run(p, e->journal_id, (double)e->seed);
	else if (!e->pool.n_runs)
		add_run(p, NULL, (double)e->seed);
	for (i = 0; i < e->pool.n_runs; i++)
		add_run(p, e->pool.runs[i].journal, e->pool.runs[i].seed);
}

/* Sort key of a row in the unsharded order, from its shard's I/N. */
struct row_key {
	size_t row;   /* index in out */
	double key;
};

static int row_key_cmp(const void *pa, const void *pb)
{
	const struct row_key *a = pa, *b = pb;

	return a->key < b->key ? -1 : a->key > b->key ? 1 :
	       a->row < b->row ? -1 : a->row > b->row;
}

size_t pab_pool_runs_of(const struct pab_experiment *e, struct pab_run_id **ids)
{
	size_t i;

	*ids = NULL;
	if (!e->pool.recorded) {
		if (!e->journal_id)
			return 0;
		*ids = xcalloc(1, sizeof(**ids));
		(*ids)[0].journal = e->journal_id;
		(*ids)[0].seed = (double)e->seed;
		return 1;
	}
	if (!e->pool.runs_named || !e->pool.n_runs)
		return 0;
	*ids = xcalloc(e->pool.n_runs, sizeof(**ids));
	for (i = 0; i < e->pool.n_runs; i++) {
		(*ids)[i].journal = e->pool.runs[i].journal;
		(*ids)[i].seed = e->pool.runs[i].seed;
	}
	return e->pool.n_runs;
}

/* 1 when reps x and y (of rows with n_arms arms) hold the same measured
 * wall time in every arm: for inputs that name no run, the only sign of
 * one rep of one run given twice. */
static int same_rep(const struct pab_rep *x, const struct pab_rep *y, size_t n_arms)
{
	size_t a;

	for (a = 0; a < n_arms; a++) {
		double wx = x->result[a].m[PAB_M_WALL], wy = y->result[a].m[PAB_M_WALL];

		if (!isfinite(wx) || wx != wy)
			return 0;
	}
	return 1;
}

/* The fallback of distinct_runs for inputs that name no run. */
static int distinct_measurements(const struct pab_experiment *a, const char *la,
				 const struct pab_experiment *b, const char *lb,
				 char **why)
{
	size_t r, i, j;

	for (r = 0; r < a->n_rows; r++) {
		int rb = find_row(b, a->rows[r].name);
		const struct pab_row *x = &a->rows[r], *y;

		if (rb < 0)
			continue;
		y = &b->rows[rb];
		for (i = 0; i < x->n_reps; i++)
			for (j = 0; j < y->n_reps; j++)
				if (same_rep(&x->reps[i], &y->reps[j], a->n_arms)) {
					*why = xasprintf("'%s' and '%s' hold the same measurements "
							 "(row '%s', rep %zu of '%s' is rep %zu of "
							 "'%s'): the same run given twice, or a pooled "
							 "artifact with one of its sources; give each "
							 "run once", la, lb, pab_term_safe(x->name),
							 i + 1, la, j + 1, lb);
					return -1;
				}
	}
	return 0;
}

/*
 * Refuse a and b (labels la, lb) when they hold one run: the same run
 * given twice (a copy, or a copy taken before a --resume), or a pooled
 * artifact and one of its sources. A run is its journal id (random, kept
 * across resumes) and seed; pooling one twice would count the same
 * measurements twice and narrow every interval. Equal measurements of
 * independent runs (a coarse clock) are no reason to refuse; they are
 * looked at only when an input names no run.
 */
static int distinct_runs(const struct pab_experiment *a, const char *la,
			 const struct pab_experiment *b, const char *lb, char **why)
{
	struct pab_run_id *ra, *rb;
	size_t na = pab_pool_runs_of(a, &ra), nb = pab_pool_runs_of(b, &rb), i, j;
	int ret = 0;

	if (!na || !nb) {
		ret = distinct_measurements(a, la, b, lb, why);
		goto out_free;
	}
	for (i = 0; i < na && !ret; i++)
		for (j = 0; j < nb && !ret; j++)
			if (!strcmp(ra[i].journal, rb[j].journal) && ra[i].seed == rb[j].seed) {
				*why = xasprintf("'%s' and '%s' hold the same run (journal id %s, "
						 "seed %.0f): the same run given twice, or a pooled "
						 "artifact with one of its sources; give each run "
						 "once", la, lb, pab_term_safe(ra[i].journal),
						 ra[i].seed);
				ret = -1;
			}
out_free:
	free(ra);
	free(rb);
	return ret;
}

/* Every input checked on its own (unless judged: the caller did), then
 * each against the first. */
static int check_inputs(const struct pab_experiment *const *in,
			const char *const *labels, size_t n, int judged, char **why)
{
	char b1[32], b2[32];
	size_t i, j;

	for (i = 0; i < n && !judged; i++)
		if (pab_pool_check_input(in[i], label_of(labels, i, b1, sizeof(b1)), why))
			return -1;
	for (i = 1; i < n; i++)
		if (same_experiment(in[0], label_of(labels, 0, b1, sizeof(b1)), in[i],
				    label_of(labels, i, b2, sizeof(b2)), why))
			return -1;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (distinct_runs(in[i], label_of(labels, i, b1, sizeof(b1)), in[j],
					  label_of(labels, j, b2, sizeof(b2)), why))
				return -1;
	return 0;
}

/* The reason a and b (labels la, lb) share `shared` rows but not all. */
static char *partial_overlap(const struct pab_experiment *a, const char *la,
			     const struct pab_experiment *b, const char *lb,
			     size_t shared)
{
	const struct pab_experiment *big = a->n_rows > shared ? a : b;
	const struct pab_experiment *small = big == a ? b : a;
	const char *lbig = big == a ? la : lb, *lsmall = big == a ? lb : la;
	size_t r;

	for (r = 0; r < big->n_rows; r++)
		if (find_row(small, big->rows[r].name) < 0)
			break;
	return xasprintf("rows overlap only in part: row '%s' is in '%s' but not "
			 "in '%s'; pool either the same rows (more blocks) or "
			 "disjoint shards", pab_term_safe(big->rows[r].name),
			 lbig, lsmall);
}

/*
 * Input i against the first input j of an earlier group: 1 when they have
 * the same rows (i joins j's group), 0 when their rows are disjoint
 * shards, -1 with *why when they cannot be pooled.
 */
static int same_group(const struct pab_experiment *const *in,
		      const char *const *labels, size_t i, size_t j, char **why)
{
	char b1[32], b2[32];
	const char *li = label_of(labels, i, b1, sizeof(b1));
	const char *lj = label_of(labels, j, b2, sizeof(b2));
	size_t r, shared = 0;

	for (r = 0; r < in[i]->n_rows; r++) {
		int k = find_row(in[j], in[i]->rows[r].name);

		if (k < 0)
			continue;
		shared++;
		if (same_row(in[j], &in[j]->rows[k], lj, in[i], &in[i]->rows[r], li,
			     in[i]->n_arms, why))
			return -1;
	}
	if (!shared)
		return same_probes(in[j], lj, in[i], li, why) ||
		       same_probes(in[i], li, in[j], lj, why) ? -1 : 0;
	if (shared != in[i]->n_rows || shared != in[j]->n_rows) {
		*why = partial_overlap(in[i], li, in[j], lj, shared);
		return -1;
	}
	return 1;
}

/*
 * Group the inputs by row set: group[i] is the first input with i's rows.
 * Returns the number of groups, or 0 with *why.
 */
static size_t group_inputs(const struct pab_experiment *const *in,
			   const char *const *labels, size_t n, size_t *group,
			   char **why)
{
	size_t i, j, n_groups = 0;

	for (i = 0; i < n; i++) {
		group[i] = i;
		for (j = 0; j < i; j++) {
			int same;

			if (group[j] != j)
				continue;
			same = same_group(in, labels, i, j, why);
			if (same < 0)
				return 0;
			if (same) {
				group[i] = j;
				break;
			}
		}
		if (group[i] == i)
			n_groups++;
	}
	return n_groups;
}

/* The rows of out in the order of the unsharded run (their shards' I/N). */
struct shard_order {
	struct row_key *keys;  /* one per row of out */
	uint64_t shard_n;      /* N of every group's I/N, 0 before the first */
	int sortable;          /* every group said I/N with one N */
};

/*
 * Append group i's rows to out, each with the reps of every input of the
 * group, and note their place in the unsharded order in so.
 */
static void append_group(struct pab_experiment *out,
			 const struct pab_experiment *const *in, size_t n,
			 const size_t *group, size_t i, struct shard_order *so)
{
	size_t reps = 0, max_reps = 0, r, j;
	const struct pab_run_settings *s = &in[i]->settings;
	uint64_t n_shard = s->shard_count, k_shard = s->shard_index;

	if (!(s->given & PAB_RUN_SHARD) || !n_shard || (so->shard_n && n_shard != so->shard_n))
		so->sortable = 0;
	else
		so->shard_n = n_shard;
	for (r = 0; r < in[i]->n_rows; r++) {
		struct pab_row *row;

		out->rows = xrealloc(out->rows, (out->n_rows + 1) * sizeof(*out->rows));
		so->keys = xrealloc(so->keys, (out->n_rows + 1) * sizeof(*so->keys));
		so->keys[out->n_rows].row = out->n_rows;
		so->keys[out->n_rows].key = so->sortable ?
			(double)r * (double)so->shard_n + (double)(k_shard - 1) : 0;
		row = &out->rows[out->n_rows++];
		pab_row_copy_def(row, &in[i]->rows[r]);
		row_set_host(row, out, in[i], &in[i]->rows[r]);
		row->failed = 0;
		free(row->fail_reason);
		row->fail_reason = NULL;
		free(row->failed_arm);
		row->failed_arm = NULL;
		for (j = i; j < n; j++)
			if (group[j] == i)
				row_append_reps(row, &in[j]->rows[find_row(in[j], row->name)],
						out->n_arms);
	}
	for (j = i; j < n; j++)
		if (group[j] == i) {
			reps += in[j]->reps;
			max_reps += in[j]->max_reps;
		}
	if (reps > out->reps)
		out->reps = reps;
	if (max_reps > out->max_reps)
		out->max_reps = max_reps;
}

/* Put out's rows in the unsharded order, unless two groups claim a shard. */
static void sort_shards(struct pab_experiment *out, struct shard_order *so)
{
	struct pab_row *sorted = xcalloc(out->n_rows, sizeof(*sorted));
	size_t r, j;

	for (r = 0; r + 1 < out->n_rows && so->sortable; r++)
		for (j = r + 1; j < out->n_rows; j++)
			if (so->keys[r].key == so->keys[j].key)
				so->sortable = 0; /* two groups claim one shard */
	if (so->sortable) {
		qsort(so->keys, out->n_rows, sizeof(*so->keys), row_key_cmp);
		for (r = 0; r < out->n_rows; r++)
			sorted[r] = out->rows[so->keys[r].row];
		memcpy(out->rows, sorted, out->n_rows * sizeof(*sorted));
	}
	free(sorted);
}

/* out's "run" -> "pool": how many inputs, their seeds, the mode, sources;
 * its shard: every row (null). */
static void record_pool(struct pab_experiment *out,
			const struct pab_experiment *const *in,
			const char *const *labels, size_t n, size_t n_groups)
{
	struct pab_pool_record *p = &out->pool;
	char b1[32];
	size_t i, r;

	out->settings.shard_index = out->settings.shard_count = 0;
	out->settings.given |= PAB_RUN_SHARD;
	pab_pool_record_release(p);
	p->recorded = p->given = p->runs_named = 1;
	p->artifacts = (double)n;
	for (i = 0; i < n; i++)
		add_seeds(p, in[i]);
	for (i = 0; i < n; i++)
		add_runs(p, in[i]);
	for (i = 0; i < p->n_runs; i++)
		if (!p->runs[i].journal || !isfinite(p->runs[i].seed))
			p->runs_named = 0;
	p->mode = xstrdup(n_groups == 1 ? "blocks" : n_groups == n ? "shards" : "blocks+shards");
	p->sources = xcalloc(n, sizeof(*p->sources));
	p->n_sources = n;
	for (i = 0; i < n; i++) {
		struct pab_pool_source *src = &p->sources[i];
		const struct pab_run_settings *s = &in[i]->settings;
		size_t total = 0;

		src->name = xstrdup(label_of(labels, i, b1, sizeof(b1)));
		src->seed = (double)in[i]->seed;
		if ((s->given & PAB_RUN_SHARD) && s->shard_count)
			src->shard = xasprintf("%u/%u", s->shard_index, s->shard_count);
		src->rows = (double)in[i]->n_rows;
		for (r = 0; r < in[i]->n_rows; r++)
			total += in[i]->rows[r].n_reps;
		src->reps = (double)total;
	}
}

/* pab_pool, the inputs' own check skipped when judged. */
static int pool_inputs(const struct pab_experiment *const *in, const char *const *labels,
		       size_t n, int judged, struct pab_experiment *out, char **why)
{
	struct shard_order so = { NULL, 0, 1 };
	size_t *group = NULL, n_groups, i;

	*why = NULL;
	pab_experiment_init(out);
	if (!n) {
		*why = xstrdup("nothing to pool");
		goto out_release;
	}
	if (check_inputs(in, labels, n, judged, why))
		goto out_release;
	group = xcalloc(n, sizeof(*group));
	n_groups = group_inputs(in, labels, n, group, why);
	if (!n_groups)
		goto out_release;
	/* The first input's settings; rows appended group by group. */
	pab_experiment_release(out);
	pab_experiment_copy_without_rows(out, in[0]);
	out->rows = xcalloc(1, sizeof(*out->rows));
	out->reps = out->max_reps = 0;
	out->complete = 1;
	for (i = 0; i < n; i++)
		if (group[i] == i)
			append_group(out, in, n, group, i, &so);
	/* Shards back in the order of the unsharded run, when all said I/N. */
	if (so.sortable && n_groups > 1)
		sort_shards(out, &so);
	for (i = 0; i < n; i++)
		if (in[i]->stopped_by && !out->stopped_by)
			out->stopped_by = in[i]->stopped_by;
	/* The first input's settings with the pool's shard (every row): a ledger
	 * of several files judges what a ledger of the written pool would. */
	record_pool(out, in, labels, n, n_groups);
	pab_attributions_pool(out, in, labels, n);
	free(so.keys);
	free(group);
	return 0;
out_release:
	free(group);
	pab_experiment_release(out);
	return -1;
}

int pab_pool(const struct pab_experiment *const *in, const char *const *labels,
	     size_t n, struct pab_experiment *out, char **why)
{
	return pool_inputs(in, labels, n, 0, out, why);
}

int pab_pool_judged(const struct pab_experiment *const *in, const char *const *labels,
		    size_t n, struct pab_experiment *out, char **why)
{
	return pool_inputs(in, labels, n, 1, out, why);
}
