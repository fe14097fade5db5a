/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pool.c — merging artifacts of one experiment (pool.h). First every input
 * is checked on its own (complete, balanced, not stopped by the gate), then
 * each against the first (host, arms, protocol, settings: pool_check.h),
 * then the rows decide how they merge: identical row sets as blocks,
 * disjoint ones as a union. The first difference found is the reason returned; nothing is
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
#include "model/pool_check.h"
#include "term.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Checks (each input against the first: pool_check.h)                */

static int str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
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

static int find_row(const struct pab_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->n_rows; i++)
		if (!strcmp(e->rows[i].name, name))
			return (int)i;
	return -1;
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
		if (pab_pool_same_experiment(in[0], label_of(labels, 0, b1, sizeof(b1)), in[i],
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
		if (pab_pool_same_row(in[j], &in[j]->rows[k], lj, in[i], &in[i]->rows[r], li,
			     in[i]->n_arms, why))
			return -1;
	}
	if (!shared)
		return pab_pool_same_probes(in[j], lj, in[i], li, why) ||
		       pab_pool_same_probes(in[i], li, in[j], lj, why) ? -1 : 0;
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
