/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history.h — the records of the merge history, typed: what a merge
 * records (its commits, labels, judged cells) and what a query of the
 * history reads back (the selected merges and, per row × arm × metric,
 * a series of points in record order). store/history_db.h keeps them in
 * SQLite; judge/history.h computes across a series; report/history.h
 * prints them. Nothing here reads or writes a file.
 */
#ifndef PAB_MODEL_HISTORY_H
#define PAB_MODEL_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "model/pool.h" /* struct pab_run_id */

struct pab_history_label {
	const char *key, *value;
};

/* What a merge records besides its cells; strings borrowed, NULL = none.
 * Its identity (store/history_db.h, "Identity"): the runs it holds, else
 * (n_runs 0) measurements_sha256, and the artifact's SHA-256. */
struct pab_history_merge {
	const char *artifact_sha256; /* required: the SHA-256 of the artifact's file */
	const struct pab_run_id *runs; /* pab_pool_runs_of() (model/pool.h) */
	size_t n_runs;
	const char *measurements_sha256; /* of pab_history_measurements(); NULL: none */
	const char *commit, *base, *branch;
	int64_t recorded_at;         /* Unix seconds */
	const char *perfab_version, *rules, *stop_reason;
	const char *cpu_model, *host_digest, *counts_source;
	const struct pab_history_label *labels;
	size_t n_labels;
};

/* One judged cell. NaN figures are stored as NULL. */
struct pab_history_cell {
	const char *row, *arm, *metric, *verdict;
	double base_median, head_median;
	double change_pct, lo_pct, hi_pct, coverage; /* positive = worse */
	double tolerance_pct;
	int64_t n;
};

/* Which merges a query reads: all of branch (NULL: every branch), after
 * the last merge whose commit starts with since (NULL: from the first),
 * only the last `last` of them (0: all); cells of row (NULL: any) and of
 * the metrics metric lists, names joined by commas ("cpu,peak_rss"; NULL:
 * any). */
struct pab_history_filter {
	const char *branch, *since, *row, *metric;
	int64_t last;
};

/* A merge a query selected (owned by its set). */
struct pab_history_merge_row {
	int64_t id, recorded_at;
	char *commit, *base, *branch;       /* NULL when not recorded */
};

/* One merge of a series. */
struct pab_history_point {
	const struct pab_history_merge_row *merge; /* in the set */
	int64_t n;
	const char *verdict;                /* pab_verdict_name()'s, or "?" */
	double base_median, head_median;
	double change_pct, lo_pct, hi_pct, coverage, tolerance_pct;
};

/* The merges of one row × arm × metric, in record order. */
struct pab_history_series {
	char *row, *arm, *metric;
	struct pab_history_point *pts;
	size_t n, alloc;
};

/* What a query read: its series ordered by row, arm and metric (each in
 * record order) and the merges it selected, which the points point to. */
struct pab_history_set {
	struct pab_history_series *series;
	size_t n, alloc;
	struct pab_history_merge_row *merge_rows; /* merges of them, in order */
	size_t merges, n_merge_rows;
};

/* Free everything set owns and zero it. */
void pab_history_set_release(struct pab_history_set *set);

/* *dst = src with copies of its strings; pab_history_merge_row_release
 * frees them (not dst). */
void pab_history_merge_row_copy(struct pab_history_merge_row *dst,
				const struct pab_history_merge_row *src);
void pab_history_merge_row_release(struct pab_history_merge_row *m);

/* The order of series: by row, then arm, then metric (strcmp's sign). */
int pab_history_names_cmp(const char *row_a, const char *arm_a, const char *metric_a,
			  const char *row_b, const char *arm_b, const char *metric_b);

struct pab_experiment;


/*
 * pab_history_measurements: what e measured, whatever the layout of the
 * file it came from: per row its name, per rep its block and every arm's
 * name, failure and every metric's value, bit for bit (every NaN alike).
 * New memory (caller frees), *len bytes; the identity of an artifact that
 * names no run, once hashed.
 */
void *pab_history_measurements(const struct pab_experiment *e, size_t *len);

#endif /* PAB_MODEL_HISTORY_H */
