/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * experiment.h — the in-memory experiment: arms, rows, reps and their
 * measurements. `perfab run` fills it, artifact.c saves and loads it, the
 * ledger judges it. One struct for all three so none of them can disagree
 * about what an artifact holds.
 *
 * Ownership: the experiment owns every string and array reachable from it;
 * pab_experiment_release() frees them all. Missing measurements are NaN
 * (JSON null) with an owned reason string; a measured 0 is a real 0.
 */
#ifndef PAB_EXPERIMENT_H
#define PAB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "model/metrics.h"

#define PAB_SCHEMA "perfab-artifact/1"

struct pab_kv {
	char *key;
	char *value;
};

struct pab_arm {
	char *name;
	char **argv;      /* NULL-terminated; argc 0 = "the row's built-in program" */
	size_t argc;
	struct pab_kv *env; /* additions to the inherited environment */
	size_t n_env;
	char *revision;   /* label, may be NULL */
	char *exe;        /* resolved executable path (NULL until resolved) */
	char *sha256;     /* hex digest of exe (NULL until computed) */
	char *preserved;  /* path of the preserved copy, or NULL */
};

struct pab_arm_result {
	double m[PAB_M_COUNT];      /* NaN = not measured */
	char *reason[PAB_M_COUNT];  /* why m[i] is NaN (owned), else NULL */
	int exit_code;              /* -1 when killed by a signal */
	int term_signal;            /* 0 unless killed by a signal */
	int timed_out;
	int tree_limit;             /* killed for passing --max-procs */
	int failed;                 /* non-zero exit, signal, timeout, spawn */
	char *checksum;             /* workload operation checksum, or NULL */
	char *stderr_tail;          /* last lines of stderr of a failed child */
};

struct pab_rep {
	size_t block;
	size_t *order;                 /* n_arms arm indices, run order */
	struct pab_arm_result *result; /* n_arms, indexed by arm index */
};

struct pab_row {
	char *name;
	char *workload;   /* built-in row name, or NULL for a plain command */
	char *program;    /* built-in program name ("perfab-alloc"), or NULL */
	char **argv;      /* extra args appended to the arm's argv */
	size_t argc;
	struct pab_kv *params;
	size_t n_params;
	int control;
	/* Per arm (n_arms entries, or NULL when not recorded): the executable
	 * that arm runs for this row and its SHA-256 at the run's start. */
	char **exes;
	char **exe_sha256;
	struct pab_rep *reps;
	size_t n_reps, reps_alloc;
	int failed;           /* some child failed: no verdict */
	char *fail_reason;
	cJSON *host;          /* the host fingerprint this row was measured on,
			       * when its CPU model differs from the
			       * experiment's (a pooled shard); NULL: the
			       * experiment's host (owned) */
};

struct pab_experiment {
	char *schema;
	char *perfab_version;
	char *protocol;
	int complete;
	uint64_t seed;
	cJSON *host;          /* host fingerprint (owned) */
	cJSON *run;           /* run settings: binding, interval, scale (owned) */
	struct pab_arm *arms;
	size_t n_arms;
	struct pab_row *rows;
	size_t n_rows;
	size_t reps;          /* requested, rounded up to complete blocks */
	size_t max_reps;
	enum pab_rules rules; /* the artifact's "rules", pab_rules_name() */
	double tolerance[PAB_M_COUNT]; /* percent, per metric */
	double equivalence_margin;     /* percent, controls */
	char *stopped_by;     /* NULL or "sanity-gate" */
	cJSON *sanity;        /* offending cells when the gate tripped (owned) */
	/* The checkpoint journal bound to this artifact (journal.h): its id
	 * (32 hex digits, owned; NULL: none) and the sequence number of the
	 * last journal record whose rep this experiment already holds. */
	char *journal_id;
	uint64_t journal_folded;
};

/* Zero e and set defaults (schema, protocol, rules, 2% tolerance, 3% margin). */
void pab_experiment_init(struct pab_experiment *e);
void pab_experiment_release(struct pab_experiment *e);

/* Free everything arm owns and zero it. */
void pab_arm_release(struct pab_arm *arm);

/* Index of the arm called name, or -1. */
int pab_experiment_arm_index(const struct pab_experiment *e, const char *name);
/* Index of the null arm, or -1 when the run has none. */
int pab_experiment_null_index(const struct pab_experiment *e);

/* Free everything row owns (its reps have n_arms results each). */
void pab_row_release(struct pab_row *row, size_t n_arms);

/* The CPU model row was measured on: its own host's, else e's; or NULL
 * when neither records one. Owned by e. */
const char *pab_row_cpu_model(const struct pab_experiment *e,
			      const struct pab_row *row);

/* Append a new rep to row (order and results allocated, results NaN). */
struct pab_rep *pab_row_add_rep(struct pab_row *row, size_t n_arms);
/* Result slots start as "not measured" with reason NULL. */
void pab_arm_result_init(struct pab_arm_result *r);
void pab_arm_result_release(struct pab_arm_result *r);
/* Mark metric unmeasured with a reason (copied). */
void pab_arm_result_null(struct pab_arm_result *r, enum pab_metric_id id,
			 const char *reason);

/* The value of key in kv[0..n), or NULL. */
const char *pab_kv_get(const struct pab_kv *kv, size_t n, const char *key);
/* Set key (replacing an existing value); strings copied. */
void pab_kv_set(struct pab_kv **kv, size_t *n, const char *key,
		const char *value);
void pab_kv_release(struct pab_kv *kv, size_t n);

/*
 * Balance check: 0 when every row holds at least one rep, a whole number
 * of blocks, and within it every arm ran in every position equally often
 * (adaptive reps may give rows different counts; a row marked failed is
 * exempt: it stopped at its failure and is judged FAIL); else -1 with a reason
 * (owned by the caller) in *why.
 */
int pab_experiment_check_balanced(const struct pab_experiment *e, char **why);

/*
 * Protocol check: 0 when every row's reps are the rotate-reverse/1 reps in
 * sequence — rep r has block r / n_arms (consecutive block numbers, no rep
 * missing in the middle) and the order of its place in that block, so each
 * block is balanced. The last block of a row may be partial (an
 * interrupted run, a failed row). A pooled artifact (run.pool recorded)
 * keeps the orders of the runs it merged, so a block of it may be the
 * reversed or the plain rotation whatever its number. Else -1 with a
 * reason (owned by the caller) in *why.
 */
int pab_experiment_check_protocol(const struct pab_experiment *e, char **why);

/* 1 when name is a valid arm name: [A-Za-z0-9_.-]+, at most 64 chars, not
 * starting with '.' or '-' (so never "." or ".."). */
int pab_valid_arm_name(const char *name);

/* The CPU model string of a fingerprint (owned by host), or NULL. */
const char *pab_host_cpu_model(const cJSON *host);

#endif /* PAB_EXPERIMENT_H */
