/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * experiment.h — the in-memory experiment: arms, rows, reps and their
 * measurements. `perfab run` fills it, store/ saves and loads it, the
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

#include "model/file_id.h"
#include "model/metrics.h"
#include "model/run_costs.h"

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
	char *prepare;    /* the config's per-arm "prepare": a command line run
			   * before each of this arm's measured runs, after
			   * the run's --prepare; NULL: none */
};

/*
 * Where an arm's instructions count of a rep came from (doc/method.md,
 * "Exact counts"): its own counted child, or one of the same program in
 * the same rep (COUNTED); an earlier rep's count of the same program,
 * whose counts had agreed (REUSED); the count cache (CACHED).
 */
enum pab_count_origin {
	PAB_COUNT_COUNTED = 0,
	PAB_COUNT_REUSED,
	PAB_COUNT_CACHED,
};

/* "counted", "reused" or "cached"; NULL for no such origin. */
const char *pab_count_origin_name(enum pab_count_origin o);
/* The origin called s into *o. Returns 0, or -1 when s names none. */
int pab_count_origin_parse(const char *s, enum pab_count_origin *o);

struct pab_arm_result {
	double m[PAB_M_COUNT];      /* NaN = not measured */
	enum pab_count_origin count_origin; /* of m[PAB_M_INSTRUCTIONS] */
	const char *reason[PAB_M_COUNT]; /* why m[i] is NaN, else NULL; pooled (model/reasons.h) */
	int exit_code;              /* -1 when killed by a signal */
	int term_signal;            /* 0 unless killed by a signal */
	int timed_out;
	int tree_limit;             /* killed for passing --max-procs */
	int failed;                 /* non-zero exit (unless the run ignores
				     * them, --ignore-failure), signal,
				     * timeout, spawn */
	char *checksum;             /* workload operation checksum, or NULL */
	char *stderr_tail;          /* last lines of stderr of a failed child */
};

struct pab_rep {
	size_t block;
	size_t *order;                 /* n_arms arm indices, run order */
	struct pab_arm_result *result; /* n_arms, indexed by arm index */
};

/*
 * A file a row's arm reads besides its program: an argument that names a
 * regular file, an LD_PRELOAD library, a script's interpreter. Digested at
 * the run's start, checked before each exec and at the end, and again by
 * --resume.
 */
struct pab_input_file {
	char *path;
	char *role;              /* "argument", "LD_PRELOAD" or "interpreter" */
	char *sha256;
	struct pab_file_id id;   /* not saved; zeroed when loaded */
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
	/* Per arm (as exes): the files its run depends on besides the
	 * program, with their SHA-256 at the run's start (rows[].executables
	 * ARM.inputs); NULL when not recorded. */
	struct pab_input_file **inputs;
	size_t *n_inputs;
	/* Per arm, not saved: the identity of exes[a] when it was digested
	 * (pab_file_id), for the check before each exec; NULL: none. */
	struct pab_file_id *exe_id;
	struct pab_rep *reps;
	size_t n_reps, reps_alloc;
	int failed;           /* some child failed: no verdict */
	char *fail_reason;
	char *failed_arm;     /* the arm whose child or warmup run failed the
			       * row (owned); NULL: a hook did, or unknown */
	/* The host this row was measured on, when its CPU model differs from
	 * the experiment's (a pooled shard): its fingerprint as JSON text,
	 * which only the artifact codec reads, and its CPU model (NULL: none
	 * recorded). host_json NULL: the experiment's host. Owned. */
	char *host_json;
	char *cpu_model;
};

/*
 * Why a run ended. run.stop_reason holds any of them once the run ends;
 * the top-level stopped_by only PAB_STOP_SANITY_GATE (or none).
 */
enum pab_stop_reason {
	PAB_STOP_NONE = 0,    /* not ended, or not recorded (JSON null) */
	PAB_STOP_DECIDED,     /* "decided": every row PASS or FAIL, or failed */
	PAB_STOP_MAX_REPS,    /* "max-reps": undecided rows reached the last look */
	PAB_STOP_BUDGET,      /* "budget": the run's budget was spent */
	PAB_STOP_SANITY_GATE, /* "sanity-gate": a head's memory blew up at rep 1 */
	PAB_STOP_UNDECIDABLE, /* "undecidable": every undecided row has a
			       * required cell no rep up to the cap decides */
};

/* The artifact's name of r ("decided", ...); NULL for PAB_STOP_NONE. */
const char *pab_stop_reason_name(enum pab_stop_reason r);
/* The reason called s into *r. Returns 0, or -1 when s names none. */
int pab_stop_reason_parse(const char *s, enum pab_stop_reason *r);

/*
 * The ranges and defaults of the run settings. The options of `perfab
 * run` that set them declare these ranges, and a setting read back from
 * an artifact (--resume) is checked against the same ones.
 */
#define PAB_RUN_INTERVAL_MIN_MS 0.1
#define PAB_RUN_INTERVAL_MAX_MS 60000.0
#define PAB_RUN_INTERVAL_DEFAULT_MS 10.0
#define PAB_RUN_TIMEOUT_MAX_S 1e7
#define PAB_RUN_TIMEOUT_DEFAULT_S 600.0
#define PAB_RUN_SCALE_MIN 1e-6
#define PAB_RUN_SCALE_MAX 1e6
#define PAB_RUN_MAX_PROCS_MAX 1000000
#define PAB_RUN_MAX_PROCS_DEFAULT 512
#define PAB_RUN_BUDGET_MAX_S (7 * 86400.0) /* a week */
#define PAB_RUN_SHARD_MAX 1000
#define PAB_MAX_LOOKS 64
#define PAB_RUN_WARMUP_MAX 1000000
/* --guard-tolerance: how far a time guard must exclude a regression before
 * its row may PASS, percent (doc/method.md §8a chooses the default). */
#define PAB_RUN_GUARD_TOLERANCE_DEFAULT 4.0
#define PAB_RUN_GUARD_TOLERANCE_MAX 1000.0

/* Which settings a struct pab_run_settings holds (its `given` bits). */
enum pab_run_key {
	PAB_RUN_INTERVAL = 1 << 0,    /* sample_interval_ms */
	PAB_RUN_TIMEOUT = 1 << 1,     /* timeout_s */
	PAB_RUN_SCALE = 1 << 2,       /* scale */
	PAB_RUN_MAX_PROCS = 1 << 3,   /* max_procs */
	PAB_RUN_CGROUP = 1 << 4,      /* cgroup */
	PAB_RUN_SANITY_GATE = 1 << 5, /* sanity_gate */
	PAB_RUN_SHARD = 1 << 6,       /* shard */
	PAB_RUN_COUNTERS = 1 << 7,    /* counters */
	PAB_RUN_CPUS = 1 << 8,        /* cpus */
	PAB_RUN_BUDGET = 1 << 9,      /* budget_s */
	PAB_RUN_LOOKS = 1 << 10,      /* looks */
	PAB_RUN_STOP = 1 << 11,       /* stop_reason */
	PAB_RUN_ELAPSED = 1 << 12,    /* elapsed_s */
	PAB_RUN_WARMUP = 1 << 13,     /* warmup */
	PAB_RUN_PREPARE = 1 << 14,    /* prepare */
	PAB_RUN_SETUP = 1 << 15,      /* setup */
	PAB_RUN_CLEANUP = 1 << 16,    /* cleanup */
	PAB_RUN_INPUT = 1 << 17,      /* input */
	PAB_RUN_OUTPUT = 1 << 18,     /* output */
	PAB_RUN_COUNTS = 1 << 19,     /* counts */
	PAB_RUN_CALIBRATION = 1 << 20,/* calibration (only with --calibration) */
	PAB_RUN_GUARD_TOLERANCE = 1 << 21, /* guard_tolerance */
	PAB_RUN_IGNORE_FAILURE = 1 << 22, /* ignore_failure */
};
/* What a fresh run records when it starts (stop_reason, elapsed_s: at its end). */
#define PAB_RUN_AT_START (((1u << 11) - 1) | PAB_RUN_WARMUP | PAB_RUN_PREPARE | \
			  PAB_RUN_SETUP | PAB_RUN_CLEANUP | PAB_RUN_INPUT | PAB_RUN_OUTPUT | \
			  PAB_RUN_COUNTS | PAB_RUN_GUARD_TOLERANCE | PAB_RUN_IGNORE_FAILURE)

/* --counts: how exact instruction counts are made (doc/method.md). */
enum pab_counts_mode {
	PAB_COUNTS_AUTO = 0, /* pmu where a PMU works, else sim, else off */
	PAB_COUNTS_PMU,      /* instructions:u in the timed children */
	PAB_COUNTS_SIM,      /* a counting pass under valgrind's cachegrind */
	PAB_COUNTS_OFF,
};
/* Which source made a run's counts: none, the PMU or the simulation. */
enum pab_count_source {
	PAB_COUNT_NONE = 0,
	PAB_COUNT_PMU,
	PAB_COUNT_SIM,
};
/* "auto", "pmu", "sim", "off"; pab_counts_mode_parse returns 0 or -1. */
const char *pab_counts_mode_name(enum pab_counts_mode m);
int pab_counts_mode_parse(const char *s, enum pab_counts_mode *m);
/* "pmu", "sim"; NULL for PAB_COUNT_NONE. */
const char *pab_count_source_name(enum pab_count_source s);
/* Largest --count-reps. */
#define PAB_RUN_COUNT_REPS_MAX 100000

/*
 * How a run is carried out: the typed settings of the artifact's "run"
 * object (doc/artifact-schema.md, section 3). A setting is recorded when
 * its bit is in `given`; one not given keeps its default here (the
 * defaults above; shard 0/0, counters and cpus NULL, no looks) and is
 * not written. The strings are owned.
 */
struct pab_run_settings {
	unsigned given;             /* enum pab_run_key bits */
	double sample_interval_ms;  /* tree RSS/PSS sampling period */
	double timeout_s;           /* per child; 0 = none */
	double scale;               /* built-in workloads' work */
	uint64_t max_procs;         /* process-tree limit per child */
	int cgroup;                 /* children in memory cgroups of their own */
	int sanity_gate;            /* the sanity gate is on */
	unsigned shard_index;       /* --shard I/N: I (1-based), N; 0, 0: */
	unsigned shard_count;       /*   every row (JSON null) */
	char *counters;             /* --counters as given; NULL: the default */
	char *cpus;                 /* --cpus as given; NULL: automatic */
	double budget_s;            /* the whole run's time; 0 = none */
	size_t looks[PAB_MAX_LOOKS];/* the planned looks */
	size_t n_looks;
	enum pab_stop_reason stop_reason; /* why the run ended */
	double elapsed_s;           /* first rep to the end of the run */
	uint64_t warmup;            /* unmeasured runs of every arm of a row
				     * before its first block here */
	char *prepare;              /* command lines (split, never a shell), */
	char *setup;                /*   NULL: none: before each measured run, */
	char *cleanup;              /*   before a row's first rep, after its last */
	char *input;                /* the children's stdin; NULL: /dev/null */
	char *output;               /* their stdout: NULL or "null" (counted and
				     * dropped), "inherit" (perfab's stderr), or
				     * a file appended to */
	/* counts: the mode asked for, the source it resolved to and the
	 * counting pass's reps per row (sim; 0 with no pass). */
	enum pab_counts_mode counts_mode;
	enum pab_count_source count_source;
	size_t count_reps;
	/* calibration (--calibration): the file, its SHA-256 and CPU model,
	 * per metric the tolerance it recommends (NaN: none; the run's
	 * tolerance is the larger of it and the declared one) and the
	 * tolerance declared before it (NaN: not recorded, an artifact
	 * written before it was). Owned. */
	char *calibration_file, *calibration_sha256, *calibration_cpu;
	double calibration_tol[PAB_M_COUNT];
	double calibration_declared[PAB_M_COUNT];
	/* the guard tolerance, percent: a time guard holds its row's PASS
	 * until it has excluded a regression beyond it (doc/method.md §8a);
	 * an artifact that records none is judged with the default */
	double guard_tolerance_pct;
	/* --ignore-failure: a measured child's non-zero exit status is a
	 * measured run, not a failure (pab_arm_result_exit_ignored); a
	 * signal, a timeout or a failing hook still fails its row. An
	 * artifact that records none did not ignore failures. */
	int ignore_failure;
	char *invalid;              /* why the run object read back holds no
				     * usable settings (owned), else NULL */
};

/* No setting given, each at its default. */
void pab_run_settings_init(struct pab_run_settings *s);
/* Free the strings s owns and set it to pab_run_settings_init()'s state. */
void pab_run_settings_release(struct pab_run_settings *s);
/* A deep copy of src into dst (which is initialised by the call). */
void pab_run_settings_copy(struct pab_run_settings *dst,
			   const struct pab_run_settings *src);

/*
 * The verdict's cells the run recorded in "run" (doc/artifact-schema.md,
 * section 3): metrics, metrics_given, require and floors. `recorded` says
 * which keys the artifact holds in a form read here (metrics and require
 * arrays, metrics_given a boolean, floors an object); `given` which ones
 * the codec writes from these fields. A key recorded in a form these
 * fields cannot say again exactly (a metric name this perfab does not
 * know) is not given: the artifact's own value is written back.
 */
enum pab_judged_key {
	PAB_JUDGED_METRICS = 1 << 0,
	PAB_JUDGED_METRICS_GIVEN = 1 << 1,
	PAB_JUDGED_REQUIRE = 1 << 2,
	PAB_JUDGED_FLOORS = 1 << 3,
};
struct pab_judged_set {
	unsigned recorded, given;     /* enum pab_judged_key bits */
	int metrics[PAB_M_COUNT];     /* named by run.metrics (1); all 0 when
				       * not recorded */
	int metrics_given;            /* --metrics or the config chose them */
	int require[PAB_M_COUNT];     /* named by run.require */
	double floor_bytes;           /* floors.bytes, floors.count: the */
	double floor_count;           /*   absolute floors; 0: none */
};

/* One run of a pool: its journal id (owned; NULL: not known) and seed. */
struct pab_pool_run {
	char *journal;
	double seed;
};
/* One input of a pool: its label, seed, shard ("I/N" or NULL), rows, reps. */
struct pab_pool_source {
	char *name;
	double seed;
	char *shard;
	double rows, reps;
};
/*
 * run.pool of a pooled artifact (doc/artifact-schema.md, section 3).
 * recorded: run.pool is an object; given: the codec writes it from here
 * (else as the artifact has it). runs_named: every run entry has a string
 * journal and a number seed (a pool that names its runs). Owned.
 */
struct pab_pool_record {
	int recorded, given;
	double artifacts;            /* NaN: not recorded */
	double *seeds;
	size_t n_seeds;
	struct pab_pool_run *runs;
	size_t n_runs;
	int runs_named;
	char *mode;                  /* "blocks", "shards", "blocks+shards"; NULL */
	struct pab_pool_source *sources;
	size_t n_sources;
};
/* Free what pool owns and zero it (artifacts NaN). */
void pab_pool_record_release(struct pab_pool_record *pool);
/* A deep copy of src into dst (initialised by the call). */
void pab_pool_record_copy(struct pab_pool_record *dst, const struct pab_pool_record *src);

/*
 * pab_counts_default_require: the required cells of a run that made exact
 * counts (s records a count source, pmu or sim): required[] gets
 * instructions alone, and cpu and the other time cells guard (0 in
 * required[]); returns 1. A run without counts leaves required[]
 * untouched and returns 0. The ledger's default required set starts from
 * this (doc/method.md, "Exact counts").
 */
int pab_counts_default_require(const struct pab_run_settings *s, int required[PAB_M_COUNT]);

/*
 * pab_shard_parse: "I/N" with 1 <= I <= N <= PAB_RUN_SHARD_MAX (checked
 * numbers, no junk) into *index and *count. Returns 0 or -1 (both left
 * untouched).
 */
int pab_shard_parse(const char *spec, unsigned *index, unsigned *count);

struct pab_experiment {
	char *schema;
	char *perfab_version;
	char *protocol;
	int complete;
	uint64_t seed;
	/* The host fingerprint as JSON text, read and written only by the
	 * artifact codec (NULL: "{}"), and its CPU model (NULL: none
	 * recorded). Owned. */
	char *host_json;
	char *cpu_model;
	struct pab_run_settings settings; /* the typed part of "run" */
	struct pab_judged_set judged;     /* run.metrics, require, floors */
	struct pab_pool_record pool;      /* run.pool */
	struct pab_run_costs costs;       /* binding, sampler's cost, peak RSS */
	/* "run" as JSON text, read and written only by the codec: every key
	 * as the artifact has it, so what the fields above do not type is
	 * kept; saved, a field given above is written in place of its key
	 * (store/run_record.h). NULL: {}. Owned. */
	char *run_json;
	struct pab_arm *arms;
	size_t n_arms;
	struct pab_row *rows;
	size_t n_rows;
	size_t reps;          /* requested, rounded up to complete blocks */
	size_t max_reps;
	enum pab_rules rules; /* the artifact's "rules", pab_rules_name() */
	double tolerance[PAB_M_COUNT]; /* percent, per metric */
	double equivalence_margin;     /* percent, controls */
	enum pab_stop_reason stopped_by; /* PAB_STOP_NONE or _SANITY_GATE */
	/* The offending cells when the gate tripped (model/sanity.h; owned);
	 * NULL with has_sanity 0: none recorded (JSON null). */
	struct pab_sanity_cell *sanity;
	size_t n_sanity;
	int has_sanity;
	/* The checkpoint journal bound to this artifact (journal.h): its id
	 * (32 hex digits, owned; NULL: none) and the sequence number of the
	 * last journal record whose rep this experiment already holds. */
	char *journal_id;
	uint64_t journal_folded;
	struct pab_attribution *attr; size_t n_attr; /* model/attribution.h, owned */
};

/* Zero e and set defaults (schema, protocol, rules, 2% tolerance, 3% margin,
 * nothing recorded in judged or pool). */
void pab_experiment_init(struct pab_experiment *e);
void pab_experiment_release(struct pab_experiment *e);

/* Free everything arm owns and zero it. */
void pab_arm_release(struct pab_arm *arm);

/* Index of the arm called name, or -1; of the null arm, or -1 when none. */
int pab_experiment_arm_index(const struct pab_experiment *e, const char *name);
int pab_experiment_null_index(const struct pab_experiment *e);

/* Free everything row owns (its reps have n_arms results each). */
void pab_row_release(struct pab_row *row, size_t n_arms);

/* Free n input files and the array v (NULL is a no-op). */
void pab_input_files_free(struct pab_input_file *v, size_t n);

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
/* 1 when r is a child that exited with a non-zero status and was not
 * failed for it (a run with --ignore-failure measured it), else 0. */
int pab_arm_result_exit_ignored(const struct pab_arm_result *r);

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
 * exempt, even with no rep: it stopped at its failure and is judged by who
 * failed it, judge/ledger.h); else -1 with a reason
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

/* Append a sanity-gate cell to e (strings copied; has_sanity set). */
void pab_experiment_add_sanity(struct pab_experiment *e, const char *row, const char *arm,
			       const char *metric, double base, double head);
/* Replace row's host by a copy of the given one (host_json NULL: none). */
void pab_row_set_host(struct pab_row *row, const char *host_json, const char *cpu_model);

#endif /* PAB_EXPERIMENT_H */
