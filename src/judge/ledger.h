/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ledger.h — apply the verdict rules of stats/ to an experiment: one cell
 * per row × head arm × judged metric, a verdict per row and overall, the
 * disposition that follows from them. Pure: it prints nothing; the
 * renderings (text, JSON, Markdown, JUnit, HTML) are report/report.h's.
 *
 * Head arms are every arm except base (the arm named "base", else the
 * first) and "null". A metric is judged when it is in the judged set and
 * at least one pair of base/head values was measured; a metric that was
 * never measured is listed as "not measured", never judged as 0.
 *
 * Under perfab/2 each judged cell is REQUIRED or a GUARD (pab_cell_role,
 * doc/method.md "Required and guarding cells"): the required set is the
 * run's declared one ("run" -> "require", --require), else exact counts'
 * (instructions, when the run made them), else cpu: throughput, the
 * workload's own or 1/wall, is derived from wall time, which a loaded
 * machine cannot resolve, and guards; a row whose
 * throughput is only 1/wall (a plain command) does not judge it unless
 * the run named it, and shows its wall time instead (role SHOWN). Under
 * perfab/1 and rule12, and in a control row, every judged cell is
 * REQUIRED. A GUARD of CPU time (cpu, task_clock) is a time guard: the
 * row PASSes only once it has excluded a regression beyond the guard
 * tolerance (pab_guard_resolved), so exact counts that decide the row
 * never hide a slower program.
 *
 * A run the sanity gate stopped is judged too: each row × head arm that
 * tripped it FAILs with the gate's figures as its note.
 */
#ifndef PAB_LEDGER_H
#define PAB_LEDGER_H

#include "judge/disposition.h"
#include "model/experiment.h"
#include "pab_stats.h"

/*
 * Default tolerance floors of a run, recorded in its artifact ("run" ->
 * "floors"): page-granular RSS figures of a small process move by up to
 * about 116 KiB between back-to-back runs of the same binary on the
 * project's VM (doc/method.md), and fault counts by 2.
 */
#define PAB_FLOOR_BYTES (128.0 * 1024)
#define PAB_FLOOR_COUNT 4.0

/* A failed row's why when its head did not fail it (pab_ledger_row.why,
 * no_verdict): the same words in every report, run, ledger and gate. */
#define PAB_LEDGER_BASE_FAILED "no verdict: the base arm failed"
#define PAB_LEDGER_ENV_FAILED \
	"no verdict: the environment failed (a setup, prepare, cleanup or warmup run)"
/* A gated row's why (pab_ledger_row.why), before its gate_note. */
#define PAB_LEDGER_GATE_WHY "the sanity gate stopped the run"

struct pab_ledger_opts {
	enum pab_rules rules;
	double conf;                 /* 0.95 */
	const char *controls;        /* extra control-row selection, or NULL */
	int judged[PAB_M_COUNT];     /* 1 = judge this metric */
	int narrowed;                /* judged narrowed below the run's set */
	int metrics_given;           /* the run named its judged set */
	int required[PAB_M_COUNT];   /* the declared required set ... */
	int require_given;           /* ... when 1; else the default */
	int require_from_counts;     /* the required set is exact counts' default
				      * (pab_counts_default_require): a row
				      * whose counts were not measured takes
				      * the default of a run without counts */
	double floor_bytes;          /* absolute floors (0 = none), as recorded */
	double floor_count;
	double guard_tolerance;      /* percent: a time guard holds its row's
				      * PASS until it has excluded a regression
				      * beyond max(this, its allowance) (the
				      * run's --guard-tolerance, else the
				      * default; doc/method.md §8a) */
};

/*
 * Defaults: the experiment's rules (perfab/2 when its artifact records
 * none), 95%, the run's judged metrics ("run" -> "metrics", else the
 * default set) and its recorded floors (none in an artifact that records
 * none).
 */
void pab_ledger_opts_init(struct pab_ledger_opts *o,
			  const struct pab_experiment *e);

/*
 * pab_ledger_opts_require: declare the required set from list
 * (comma-separated metric names) and judge them too. Returns 0, or -1
 * with a reason (caller frees).
 */
int pab_ledger_opts_require(struct pab_ledger_opts *o, const char *list, char **why);

struct pab_ledger_cell {
	size_t row, arm;             /* indices into the experiment */
	enum pab_metric_id metric;
	enum pab_cell_role role;     /* its part in the row's verdict */
	struct pab_cell_result res;
	struct pab_outlook outlook;  /* INCONCLUSIVE: what reps up to the
				      * run's cap can do (pab_cell_outlook; a
				      * time guard's pab_guard_outlook) */
	int time_guard;              /* a GUARD of CPU time under perfab/2
				      * (pab_metric.time_guard): its resolution
				      * is part of the row's PASS */
	double guard_allowance;      /* time guards: max(guard tolerance,
				      * allowance) (pab_guard_allowance) */
	int held;                    /* a time guard that has not excluded a
				      * regression beyond guard_allowance: it
				      * holds the row's PASS (pab_combine_held) */
	int undecidable;             /* 1: a cell that holds the row's PASS (an
				      * INCONCLUSIVE required cell, a held time
				      * guard) and that no rep up to the cap
				      * decides (resolves) */
};

struct pab_ledger_row {
	size_t row, arm;             /* row × head arm */
	int control;
	double saved_pct;            /* memory credit granted (0 for controls) */
	double rss_floor;            /* median base rss_floor, NaN if unknown */
	int floor_inconsistent;      /* floor above the lowest peak: flagged */
	size_t n;                    /* paired reps */
	enum pab_verdict verdict;
	const char *why;             /* static note (failed row etc.) or NULL */
	char *gate_note;             /* the sanity gate's figures when this row
				      * × arm tripped it (owned), else NULL */
	char *exit_note;             /* the non-zero exit statuses of its base,
				      * head and null children that the run
				      * measured all the same (--ignore-failure),
				      * and in how many reps, once for the row
				      * (owned), else NULL */
	const char *credit_why;      /* why no memory credit was granted,
				      * static, or NULL */
	int wall_throughput;         /* the row's throughput is 1/wall */
	int no_verdict;              /* the row failed, not by its head arm: the
				      * base (or null) arm or the environment
				      * (a hook, a warmup run) did; INCONCLUSIVE
				      * and why says which */
	int undecidable;             /* INCONCLUSIVE, a required cell is not
				      * decidable (or a held time guard not
				      * resolvable) within the run's cap, and no
				      * undecided cell can still FAIL the row */
	size_t held;                 /* its held time guards */
	size_t cap_n;                /* the run's cap on paired reps */
	double rep_seconds;          /* seconds one rep of the row takes: the
				      * sum of every arm's median wall time;
				      * NaN when an arm has no finite median
				      * (the reasons' "about 40 more reps,
				      * ~3 min") */
};

struct pab_ledger {
	int base, null_arm;          /* arm indices; null_arm -1 when none */
	enum pab_rules rules;
	double conf;                 /* confidence of every interval (0.95) */
	int judged[PAB_M_COUNT];     /* the metrics judged */
	int narrowed;                /* fewer than the run judged */
	double floor_bytes, floor_count;
	struct pab_ledger_row *rows; /* n_rows = rows × head arms */
	size_t n_rows;
	struct pab_ledger_cell *cells;
	size_t n_cells;
	enum pab_verdict overall;
	size_t no_verdict;           /* rows failed by base or the environment */
	struct pab_disposition disposition; /* decided once, by the build */
};

/*
 * pab_ledger_opts_narrow: judge only the metrics of list (comma-separated)
 * of the run's judged set; sets o->narrowed. Returns 0, or -1 with a
 * reason (caller frees) for an unknown metric or one the run did not judge.
 */
int pab_ledger_opts_narrow(struct pab_ledger_opts *o, const char *list,
			   char **why);

/*
 * pab_ledger_build: judge e with o into l: the rows and cells, each row's
 * verdict, the overall verdict and the disposition (l->disposition), so
 * that the renderers only read. l borrows nothing from o; it indexes e's
 * rows and arms, so e must outlive it. Returns 0 (release l with
 * pab_ledger_release), or -1 with a reason (caller frees) in *why: a
 * failure leaves l zeroed with nothing allocated (releasing it again is
 * harmless).
 */
int pab_ledger_build(const struct pab_experiment *e,
		     const struct pab_ledger_opts *o, struct pab_ledger *l,
		     char **why);
/* Free l's rows and cells and zero it; l may be zeroed already. */
void pab_ledger_release(struct pab_ledger *l);

/* The cell of (experiment row, arm, metric), or NULL when l has none. */
const struct pab_ledger_cell *pab_ledger_find_cell(const struct pab_ledger *l,
						   size_t row, size_t arm,
						   enum pab_metric_id m);

/*
 * pab_ledger_fixed_look: the look a merge's history record reads (doc/
 * method.md §11), in reps: the first of e's planned looks — run.looks,
 * else planned again from e->reps and e->max_reps (pab_looks_plan) — at
 * which a 95% interval exists (PAB_MIN_N_95 reps), else its last look; 0
 * when e records no look at all.
 */
size_t pab_ledger_fixed_look(const struct pab_experiment *e);

/*
 * pab_ledger_cell_at: cell c of l (built from e) judged again on the first
 * n reps of its row (all of them when it has fewer), with the same inputs
 * — rules, confidence, floors, tolerance, the row's credit — into *out:
 * the figures a fixed design of n reps gives, whatever the run's stopping
 * rule did after (doc/method.md §11). Returns 0, or a negative PAB_E*
 * code (*out zeroed).
 */
int pab_ledger_cell_at(const struct pab_experiment *e, const struct pab_ledger *l,
		       const struct pab_ledger_cell *c, size_t n, struct pab_cell_result *out);

/* Verdict of experiment row `row` over all head arms. */
enum pab_verdict pab_ledger_row_verdict(const struct pab_ledger *l, size_t row);

/* Index of the base arm of e (arm "base", else the first arm). */
int pab_ledger_base_arm(const struct pab_experiment *e);

/* "disposition: " and d->summary, without a newline, new memory (caller
 * frees). */
char *pab_disposition_line(const struct pab_disposition *d);

/* 1 when the cell is a supported gain (see ACCEPT_GAIN above). */
int pab_ledger_cell_is_gain(const struct pab_ledger *l,
			    const struct pab_ledger_cell *c);

/*
 * pab_ledger_mixed_cpus: 1 when e's rows were measured on more than one
 * CPU model (pooled shards of a mixed fleet; pab_row_cpu_model), else 0.
 * The reports then name each row's CPU model.
 */
int pab_ledger_mixed_cpus(const struct pab_experiment *e);

/* The ledger row cell c belongs to. */
const struct pab_ledger_row *pab_ledger_cell_row(const struct pab_ledger *l,
						 const struct pab_ledger_cell *c);

/* The exit code for a verdict (PAB_EXIT_PASS, _FAIL, _INCONCLUSIVE). */
int pab_verdict_exit_code(enum pab_verdict v);

/* The exit code of ledger l, the same for run, ledger and gate: FAIL (1)
 * when the overall verdict is FAIL; else PAB_EXIT_NO_VERDICT when a row
 * failed by its base arm or the environment; else the overall verdict's. */
int pab_ledger_exit_code(const struct pab_ledger *l);

#endif /* PAB_LEDGER_H */
