/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pab_stats.h — the whole contract of perfab's statistics library.
 *
 * Pure computation: no I/O, no globals, no printing, no exit. Every
 * function either returns a value or 0 / a negative PAB_E* code; output
 * goes through caller-owned structs. Inputs are never modified (functions
 * that sort work on a private copy). Missing values are NaN: they are
 * skipped, never read as 0.
 *
 * Conventions shared by every function below:
 *  - A "paired change" is a percentage, signed so that POSITIVE MEANS
 *    WORSE, whatever the metric's better direction.
 *  - Intervals are distribution-free sign-test intervals on a median,
 *    built from binomial order statistics (GSL's binomial CDF), with the
 *    achieved coverage reported. Below PAB_MIN_N_95 values no 95%
 *    interval exists; the struct says so (exists = 0) and the caller must
 *    not call the range an interval.
 *  - Verdict rules follow doc/method.md §6; three rule sets exist:
 *    perfab/2 (default: an intersection-union FAIL against base and the
 *    null arm), perfab/1 (the noise floor guards FAIL) and rule12 (the
 *    seed pipeline's rule).
 */
#ifndef PAB_STATS_H
#define PAB_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "pab_pcg32.h"

/* Error codes (negative returns). */
#define PAB_EINVAL   (-1) /* bad argument: NULL pointer, n = 0, conf not in (0,1) */
#define PAB_ENOMEM   (-2) /* allocation failed */
#define PAB_ENODATA  (-3) /* no usable (non-NaN) values */

/* Smallest n for which a two-sided 95% sign-test interval exists. */
#define PAB_MIN_N_95 6

/* ------------------------------------------------------------------ */
/* Order statistics                                                   */

/*
 * pab_median: median of the non-NaN values of x[0..n). Even counts take the
 * mean of the two middle values. Returns 0 and sets *out, PAB_ENODATA if
 * every value is NaN (or n = 0), PAB_ENOMEM on allocation failure,
 * PAB_EINVAL for a NULL pointer. Infinities are values; the one result
 * that is not is the midpoint of -inf and +inf, which is NaN.
 */
int pab_median(const double *x, size_t n, double *out);

/*
 * pab_quantile: the p-quantile (0 <= p <= 1) of the non-NaN values of x,
 * Hyndman–Fan type 7 (linear interpolation; R's default, GSL's
 * gsl_stats_quantile_from_sorted_data). Same returns as pab_median, and
 * PAB_EINVAL when p is outside [0, 1] or NaN. An infinite neighbour with
 * a positive interpolation weight gives that infinity (GSL alone would
 * give 0 * inf = NaN); between -inf and +inf the result is NaN.
 */
int pab_quantile(const double *x, size_t n, double p, double *out);

/*
 * pab_sorted_finite: copy the non-NaN values of x into a new malloc'd,
 * ascending array (caller frees) and store its length in *m. *out is NULL
 * when *m is 0. Returns 0, PAB_ENOMEM, or PAB_EINVAL for a NULL pointer.
 * (Despite the name, infinite values are kept: only NaN is missing.)
 */
int pab_sorted_finite(const double *x, size_t n, double **out, size_t *m);

/* ------------------------------------------------------------------ */
/* Sign-test interval on a median                                     */

/*
 * pab_sign_ranks: the 1-based order statistics (lo_rank, hi_rank =
 * n + 1 - lo_rank) of the shortest symmetric sign-test interval whose
 * coverage is >= conf, and that coverage: 1 - 2 P(Bin(n, 1/2) <= lo_rank-1).
 * Returns 1 when such an interval exists, 0 when none does (n too small:
 * then lo_rank = 1, hi_rank = n and *coverage is the coverage of
 * [min, max], 1 - 2^(1-n)), or PAB_EINVAL.
 */
int pab_sign_ranks(size_t n, double conf, size_t *lo_rank, size_t *hi_rank,
		   double *coverage);

struct pab_interval {
	size_t n;          /* values used (NaN skipped) */
	double median;
	double lo, hi;     /* interval ends; [min, max] when !exists */
	double coverage;   /* achieved coverage of [lo, hi], in [0, 1] */
	size_t lo_rank, hi_rank; /* 1-based order statistics used */
	int exists;        /* 1 when coverage >= the requested confidence */
};

/*
 * pab_sign_interval: median and sign-test interval of the non-NaN values
 * of x at confidence conf (e.g. 0.95). Returns 0, PAB_ENODATA (no values:
 * *out zeroed with n = 0), PAB_EINVAL or PAB_ENOMEM. Infinite values are
 * legal (they are ranks like any other).
 */
int pab_sign_interval(const double *x, size_t n, double conf,
		      struct pab_interval *out);

/* ------------------------------------------------------------------ */
/* Paired changes                                                     */

enum pab_better { PAB_LOWER_IS_BETTER = 0, PAB_HIGHER_IS_BETTER = 1 };

/*
 * pab_percent_worse: the change from base to head in percent of base,
 * signed so that positive means worse:
 *   lower-is-better:  (head - base) / base * 100
 *   higher-is-better: (base - head) / base * 100
 * Edge cases (documented in doc/method.md):
 *   either value NaN            -> NaN (pair skipped downstream)
 *   base == 0 and head == 0     -> 0 (a tie)
 *   base == 0 and head != 0     -> +INFINITY when head is worse, -INFINITY
 *                                  when better (still a valid rank)
 *   base < 0                    -> uses |base| as the denominator
 *   base infinite               -> NaN (no share of infinity to measure)
 *   head infinite, base finite  -> +/-INFINITY by direction
 *   head == base                -> 0 (never -0.0)
 */
double pab_percent_worse(double base, double head, enum pab_better better);

/*
 * pab_paired_changes: out[i] = pab_percent_worse(base[i], head[i], better)
 * for i < n; pairs are matched by index (same rep). out is caller-owned
 * (n doubles). Does nothing when any pointer is NULL.
 */
void pab_paired_changes(const double *base, const double *head, size_t n,
			enum pab_better better, double *out);

/* ------------------------------------------------------------------ */
/* Noise, beyond-noise, equivalence, memory credit                     */

/*
 * pab_noise_floor: max(|lo|, |hi|) of a base-vs-null interval; 0 if n = 0
 * or the pointer is NULL. A range that is not an interval (exists = 0)
 * still gives its max(|min|, |max|): a wider guard, never a narrower one.
 */
double pab_noise_floor(const struct pab_interval *null_change);

/*
 * pab_beyond_noise: 1 when the change interval excludes 0 and
 * |median| > noise, else 0. Always 0 when no interval exists (n < 6):
 * [min, max] of a handful of values is not evidence of anything.
 */
int pab_beyond_noise(const struct pab_interval *change, double noise);

enum pab_equivalence {
	PAB_EQUIV_UNKNOWN = 0, /* interval straddles a margin edge */
	PAB_EQUIV_YES = 1,     /* whole interval inside [-margin, +margin] */
	PAB_EQUIV_NO = 2,      /* whole interval outside it (lo > m or hi < -m) */
};
/*
 * pab_equivalent: where the change interval lies relative to
 * [-margin_pct, +margin_pct] (ends inclusive for YES). UNKNOWN when no
 * interval exists (n < 6), for NULL, or for a negative or NaN margin.
 */
enum pab_equivalence pab_equivalent(const struct pab_interval *change,
				    double margin_pct);

/*
 * pab_saved_percent: share of the reducible gap closed by head,
 * clamp((base_peak - head_peak) / (base_peak - floor) * 100, 0, 100);
 * 0 when the gap is <= 0 or any input is NaN.
 */
double pab_saved_percent(double base_peak, double head_peak, double floor);

/*
 * pab_memory_credit: saved% granted only when the whole peak-RSS change
 * interval lies below 0 (regression orientation: hi < 0); else 0.
 * Medians of base and head peaks and the floor are inputs. No credit
 * when no interval exists (n < 6): an unproven fall earns nothing.
 */
double pab_memory_credit(const struct pab_interval *peak_change,
			 double base_peak_median, double head_peak_median,
			 double floor);

/* Memory buys CPU 3:1. */
#define PAB_MEMORY_TO_CPU 3.0

/* ------------------------------------------------------------------ */
/* Verdicts                                                           */

enum pab_verdict {
	PAB_PASS = 0,
	PAB_INCONCLUSIVE = 1,
	PAB_FAIL = 2,
	PAB_NOT_MEASURED = 3, /* no paired values: not judged, not a pass */
};
/* "PASS", "INCONCLUSIVE", "FAIL", "NOT MEASURED" ("invalid" otherwise). */
const char *pab_verdict_name(enum pab_verdict v);

enum pab_rules {
	PAB_RULES_PERFAB1 = 0, /* tolerance decides PASS, noise guards FAIL */
	PAB_RULES_RULE12 = 1,  /* the seed's rule: noise decides both */
	PAB_RULES_PERFAB2 = 2, /* tolerance decides PASS; FAIL needs head to
				* be worse than base AND than the null arm */
};
/* The default rule set. */
#define PAB_RULES_DEFAULT PAB_RULES_PERFAB2
/* "perfab/1", "rule12", "perfab/2"; pab_rules_parse returns 0 or
 * PAB_EINVAL. */
const char *pab_rules_name(enum pab_rules r);
int pab_rules_parse(const char *s, enum pab_rules *out);

/* Which quantity set the threshold that decided (or would decide) a cell. */
enum pab_decider {
	PAB_DECIDED_NONE = 0,  /* not judged */
	PAB_DECIDED_TOLERANCE, /* the declared tolerance */
	PAB_DECIDED_CREDIT,    /* saved%/3 memory credit */
	PAB_DECIDED_NOISE,     /* the null-arm noise floor */
	PAB_DECIDED_EQUIVALENCE, /* a control's equivalence margin */
};
const char *pab_decider_name(enum pab_decider d); /* "tolerance", ... */

struct pab_cell_input {
	const double *base;  /* per-rep values, NaN = missing; length n */
	const double *head;
	const double *null;  /* NULL when the run has no null arm */
	size_t n;
	enum pab_better better;
	int credit_eligible; /* throughput, cpu, faults: 1; memory, p99: 0 */
	int control;         /* control row: no credit, equivalence applies */
	double saved_pct;    /* the row's memory credit (0..100) */
	double tolerance_pct;/* perfab/1, perfab/2 tolerance for this metric */
	double floor_abs;    /* absolute tolerance floor in the metric's unit
			      * (bytes, count); 0 = none. perfab/1 and
			      * perfab/2 use max(tolerance_pct, 100 * floor_abs
			      * / |base median|) (no floor when that median
			      * is 0 or NaN) */
	double equivalence_margin_pct; /* controls; 3.0 by default */
	double conf;         /* interval confidence, 0.95 by default */
	enum pab_rules rules;
	int exact;           /* an exact count (instructions): values that do
			      * not move are known without sampling error */
};

struct pab_cell_result {
	enum pab_verdict verdict;
	struct pab_interval change;    /* head vs base, positive = worse */
	struct pab_interval null_change; /* null vs base; n = 0 when no null */
	struct pab_interval head_null;   /* head vs null (perfab/2's second
					  * FAIL test); n = 0 when no null */
	int has_null;
	int fail_guarded;      /* perfab/2: 1 when FAIL also needed head-vs-
				* null (a null arm with pairs), 0 when FAIL
				* rested on head-vs-base alone (unguarded) */
	int noise_infinite;    /* the null change reached +-inf (a base of 0):
				* the noise is reported as infinite but sets
				* no threshold (it would disable FAIL) */
	double base_median, head_median; /* each arm's non-NaN values; NaN
					  * when the arm has none */
	double noise;          /* pab_noise_floor(null_change), 0 without null */
	/* has_null is 0 both without a null arm and when it had no pair with
	 * both values: then the strict noise of 0 applies. */
	double tolerance;      /* as given (perfab/1, perfab/2) raised to the
				* floor, 0 under rule12 */
	double floor_pct;      /* floor_abs in percent of the base median
				* (0 without a floor) */
	double credit;         /* saved%/3 when eligible and not control, else 0 */
	double allowance;      /* PASS threshold on change.hi */
	double fail_threshold; /* FAIL threshold on change.lo */
	enum pab_decider pass_decider, fail_decider;
	int beyond_noise;
	enum pab_equivalence equivalence; /* controls only; else UNKNOWN */
	/* The interval half-width (hi - lo) / 2: the smallest change these
	 * reps resolve (set for every judged cell). For INCONCLUSIVE cells a
	 * rough total count of paired reps that would decide it,
	 * ceil(n (half_width / needed)^2) with needed = the larger of
	 * (allowance - median) and (median - fail_threshold), at least n + 1
	 * and 6; 0 when needed <= 0 (no estimate is possible); 0 otherwise. */
	double half_width;
	size_t reps_needed;
	/* exact inputs only: 1 when every interval is an exact point (see
	 * pab_judge_cell), and the largest spread of one arm's values,
	 * (max - min) / |median| * 100 over base, head and null (0 when
	 * they do not move; NaN without values). */
	int exact;
	double spread_pct;
};

/* Fewest pairs of unmoving exact counts that decide a cell. */
#define PAB_MIN_N_EXACT 2
/* How far (percent of the median) an exact count may move and still be
 * exact: a program that formats its own timings executes a few
 * instructions more or less from run to run (doc/method.md). */
#define PAB_EXACT_RESOLUTION_PCT 0.01

/*
 * pab_judge_cell: one row × head arm × metric.
 *   tolerance:  perfab/1, perfab/2: max(tolerance_pct, floor_pct);
 *               rule12: 0.
 *   allowance:  perfab/1, perfab/2: max(credit, tolerance) for
 *               credit-eligible metrics, tolerance otherwise;
 *               rule12:   max(credit, noise) / noise.
 *   FAIL  perfab/2: when change.lo > allowance AND, with a null arm that
 *         has pairs with head, head_null.lo > allowance (an
 *         intersection-union test: head is worse than both copies of the
 *         base; a head-vs-null interval of fewer than 6 pairs blocks
 *         FAIL); without a null arm, or when no rep holds both a head and
 *         a null value, change.lo > allowance alone (fail_guarded = 0).
 *         perfab/1: change.lo > fail_threshold = max(allowance, noise);
 *         rule12: change.lo > allowance;
 *   PASS  when change.hi <= allowance;
 *   INCONCLUSIVE otherwise, and always when no interval exists (n < 6).
 *   Controls: credit 0; additionally equivalence against the margin:
 *   NO -> FAIL, UNKNOWN -> at best INCONCLUSIVE.
 *   NOT_MEASURED when no pair has both values (including n = 0).
 * Under perfab/2 the noise is a reported diagnostic only (fail_threshold
 * = allowance). An infinite noise (a null change of +-inf) sets no
 * threshold under perfab/1 or rule12 either: it is reported, with
 * noise_infinite = 1, and the thresholds are those of a zero noise.
 * Deciders: perfab/1 and perfab/2 pass on tolerance or credit, whichever
 * is larger (tolerance on a tie); perfab/1 fails on noise when noise >
 * allowance, else on the pass decider, perfab/2 on the pass decider;
 * rule12 reports tolerance 0 and decides both on credit or noise (noise
 * on a tie). A control turned FAIL only by equivalence NO gets
 * fail_decider EQUIVALENCE; a PASS held back by equivalence UNKNOWN gets
 * pass_decider EQUIVALENCE.
 * Exact counts (in->exact): when at least PAB_MIN_N_EXACT pairs have
 * both values and no arm's values (base, head, the null arm) move by more
 * than PAB_EXACT_RESOLUTION_PCT of their median, the change is known
 * without sampling error: each interval is the range of its paired
 * changes (the point [c, c] when nothing moved; exists = 1, coverage 1)
 * and exact = 1, so an unchanged head PASSes and a changed one is
 * decided with two pairs. Counts that move more are judged by the sign
 * test like any metric, and spread_pct says by how much they moved.
 * Pairs are matched by index (null[i] with base[i] too); a pair with NaN
 * on either side is skipped.
 * Returns 0, PAB_ENOMEM or PAB_EINVAL (NULL pointers with n > 0, conf not
 * in (0, 1), saved_pct not in [0, 100], a negative or non-finite
 * tolerance, floor, or margin for a control, an unknown enum). *out is
 * fully written on 0 and zeroed on error.
 */
int pab_judge_cell(const struct pab_cell_input *in,
		   struct pab_cell_result *out);

/*
 * pab_combine_verdicts: FAIL if any is FAIL, else INCONCLUSIVE if any is,
 * else PASS if any is PASS, else NOT_MEASURED (nothing judged).
 */
enum pab_verdict pab_combine_verdicts(const enum pab_verdict *v, size_t n);

/*
 * What a judged cell does for its row's verdict, declared before the run
 * (doc/method.md §8a, "Required and guarding cells"):
 *   REQUIRED  the row PASSes only when it PASSes
 *   GUARD     it FAILs the row when it proves a regression; undecided, it
 *             is accepted uncertainty (listed with its interval), never a
 *             PASS and never a hold on the row's PASS — except a time
 *             guard (CPU time), which holds the row's PASS until it has
 *             excluded a regression beyond the guard allowance
 *             (pab_guard_resolved, pab_combine_held)
 *   SHOWN     reported with its interval, no part of the verdict
 */
enum pab_cell_role {
	PAB_ROLE_REQUIRED = 0,
	PAB_ROLE_GUARD = 1,
	PAB_ROLE_SHOWN = 2,
};
/* "required", "guard", "shown" ("invalid" otherwise). */
const char *pab_cell_role_name(enum pab_cell_role r);

/*
 * pab_combine_roles: a row's verdict from its cells' verdicts and roles:
 * FAIL if any REQUIRED or GUARD cell FAILs; else PASS when at least one
 * REQUIRED cell exists and every REQUIRED cell PASSes; else INCONCLUSIVE;
 * NOT_MEASURED when no REQUIRED or GUARD cell was measured. SHOWN cells
 * never count. With every cell REQUIRED this is pab_combine_verdicts().
 * NULL arrays give NOT_MEASURED. pab_combine_held(v, role, NULL, n).
 */
enum pab_verdict pab_combine_roles(const enum pab_verdict *v,
				   const enum pab_cell_role *role, size_t n);

/*
 * pab_combine_held: pab_combine_roles(), where held[i] = 1 marks a GUARD
 * cell that holds the row's PASS: a time guard that has not resolved
 * (pab_guard_resolved() 0). A row that would PASS is INCONCLUSIVE while
 * any GUARD is held; held of another role is ignored, and held NULL
 * holds nothing.
 */
enum pab_verdict pab_combine_held(const enum pab_verdict *v,
				  const enum pab_cell_role *role, const int *held,
				  size_t n);

/*
 * Time guards (doc/method.md §8a). The guard allowance of a cell is
 * max(guard_tolerance_pct, r->allowance): a memory credit that raises
 * the cell's allowance raises it too. pab_guard_allowance returns it, NaN
 * for NULL or a negative or NaN guard tolerance.
 *
 * pab_guard_resolved: 1 when the cell has excluded a regression beyond
 * its guard allowance: it PASSed, or it is INCONCLUSIVE with an interval
 * (an exact range or n >= 6) whose upper end is at most the guard
 * allowance; 0 otherwise (FAIL, NOT_MEASURED, no interval, or hi above
 * it); PAB_EINVAL as pab_guard_allowance's NaN. The guard's FAIL is its
 * cell's, at the fail threshold: only the PASS side moves. A guard
 * allowance G bounds the chance that a guard whose true change is G or
 * more resolves at some planned look by the same number as a required
 * cell's PASS at twice the tolerance (doc/method.md §8).
 */
double pab_guard_allowance(const struct pab_cell_result *r, double guard_tolerance_pct);
int pab_guard_resolved(const struct pab_cell_result *r, double guard_tolerance_pct);

/*
 * pab_cell_outlook: what reps up to cap_n can still do for an
 * INCONCLUSIVE cell, projected from its observed spread (half-widths
 * shrink like 1/sqrt(n); doc/method.md §8b, "Undecidable cells"):
 *   resolves_pct  the half-width expected at cap_n, hw sqrt(n / cap_n)
 *   reps_needed   r->reps_needed (0: no estimate)
 *   tolerance_pct the smallest tolerance at which the cell would PASS at
 *                 cap_n if its median stayed where it is:
 *                 max(median, 0) + resolves_pct (NaN when not finite)
 * Returns 1 when the cell is undecidable within cap_n: n < cap_n and
 * neither pass_reachable nor fail_reachable (an exact range that is
 * INCONCLUSIVE is undecidable at once: more reps cannot narrow it). 0
 * when more reps up to cap_n may decide it (then pass_reachable or
 * fail_reachable says which way), at or past the cap, or when the cell is
 * not INCONCLUSIVE with an interval (both reachable flags 0); PAB_EINVAL
 * for NULL or cap_n = 0.
 *
 * pab_guard_outlook: the same for a time guard, with the guard allowance
 * (pab_guard_allowance) in place of the allowance: whether the cap can
 * still resolve it (pass_reachable), the guard tolerance that would
 * resolve it at the cap (tolerance_pct) and the reps that would
 * (reps_needed, estimated against the guard allowance).
 */
struct pab_outlook {
	double resolves_pct;
	size_t reps_needed;
	double tolerance_pct;
	int pass_reachable;  /* the cap may still PASS it: it resolves 1.5 times
			      * the PASS threshold, or median + resolves <= that
			      * threshold (giving up on a PASS costs only it) */
	int fail_reachable;  /* the cap may still FAIL it: some median its
			      * interval allows could: hi - resolves > fail
			      * threshold, and under a guarded perfab/2 FAIL the
			      * same of head vs null (giving up on a FAIL would
			      * lose a regression) */
};
int pab_cell_outlook(const struct pab_cell_result *r, size_t cap_n,
		     struct pab_outlook *out);
int pab_guard_outlook(const struct pab_cell_result *r, size_t cap_n,
		      double guard_tolerance_pct, struct pab_outlook *out);

/* ------------------------------------------------------------------ */
/* Planned looks (adaptive reps)                                      */

/*
 * pab_looks_plan: the planned looks of an adaptive run: first, then
 * doubling (2 first, 4 first, ...), each rounded up to a multiple of
 * block (complete rotation blocks), the last one capped at max (itself
 * rounded up to a block). Writes at most cap looks to looks[] (strictly
 * increasing) and returns how many it wrote; 0 when first or block is 0,
 * max < first, or looks is NULL. With first = 12, max = 96 and a block of
 * 3: 12, 24, 48, 96.
 */
size_t pab_looks_plan(size_t first, size_t max, size_t block, size_t *looks,
		      size_t cap);

/*
 * pab_look_confidence: the per-look confidence that spends the error of
 * a conf interval over n_looks planned looks by Bonferroni:
 * 1 - (1 - conf) / n_looks (conf itself for one look). NaN when conf is
 * not in (0, 1) or n_looks is 0.
 */
double pab_look_confidence(double conf, size_t n_looks);

/* ------------------------------------------------------------------ */
/* Change points                                                      */

/*
 * pab_edivisive: change points of x[0..n) by E-Divisive with means
 * (Matteson & James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", JASA 109(505), 2014), alpha = 1: the
 * series is split where the scaled energy distance between the two sides,
 * q(tau) = (m k / (m + k)) * (2/(mk) sum|a_i - b_j| - mean|a_i - a_j| -
 * mean|b_i - b_j|), is largest over every current segment; the split is
 * kept when a permutation test (the observations permuted within each
 * segment, `permutations` times, generator rng) gives p <= sig_level,
 * and the search goes on in the segments, else it stops. Each side of a
 * split holds at least min_size values (>= 2). NaN values are not
 * allowed.
 *
 * Writes at most cap change points to cp[] in ascending order — a change
 * point c means x[c] is the first value of a new segment (0 < c < n) —
 * and their p-values to p[] (may be NULL); returns how many were found,
 * or PAB_EINVAL (NULL x with n > 0, NULL cp with cap > 0, NULL rng, a NaN
 * value, min_size < 2, sig_level not in (0, 1), no permutations), or
 * PAB_ENOMEM. Deterministic for a given rng state. O(n^2) work per scan,
 * a scan per permutation; the permutations stop as soon as the p-value
 * cannot come back under sig_level, so a kept split's p-value is exact
 * and an unkept one's search is cut short.
 */
int pab_edivisive(const double *x, size_t n, size_t min_size,
		  double sig_level, unsigned permutations,
		  struct pab_pcg32 *rng, size_t *cp, double *p, size_t cap);
/* Calibration (perfab calibrate)                                     */

/* pab_calibrate's: an unchanged head must PASS this often by the cap, a
 * change FAIL this often at a look, for the tolerance and the MDE it
 * states. */
#define PAB_CAL_PASS_PROB 0.90
#define PAB_CAL_FAIL_PROB 0.80
#define PAB_CAL_MAX_LOOKS 64
/* A calibration sized for the gate (perfab calibrate, doc/method.md §14):
 * every row of the gate PASSes by the look at PAB_CAL_BY_REPS pairs (the
 * last planned look at or below it) together with probability
 * PAB_CAL_GATE_PASS_PROB, so each of R rows by then with
 * PAB_CAL_GATE_PASS_PROB^(1/R). */
#define PAB_CAL_GATE_PASS_PROB 0.90
#define PAB_CAL_BY_REPS 48

struct pab_calibration_look {
	size_t n;           /* pairs at this look */
	double half_width;  /* median over the simulated runs of the
			     * change interval's (hi - lo) / 2, percent */
	double mde;         /* the smallest worsening (percent) that FAILs
			     * with probability >= PAB_CAL_FAIL_PROB at this
			     * look, at the calibrated tolerance */
};

struct pab_calibration {
	size_t n;              /* pairs with both values */
	double median;         /* median paired change, percent */
	double spread;         /* the paired spread: 1.4826 x the median
				* absolute deviation of the paired changes
				* (a standard deviation for normal data) */
	double tolerance;      /* smallest tolerance at which an unchanged head
				* PASSes in >= PAB_CAL_PASS_PROB of runs by the
				* last look (pab_calibrate_at: in >= pass_prob
				* by look pass_looks) (0 at least) */
	double pass_prob;      /* the share of simulated runs that PASS at it */
	size_t n_looks;
	struct pab_calibration_look looks[PAB_CAL_MAX_LOOKS];
};

/*
 * pab_calibrate: what an A/A experiment says this machine resolves, from
 * the paired changes of one row and metric: d[i] head vs base and, when
 * e is not NULL, e[i] head vs the null arm (perfab/2's second FAIL test),
 * percent, positive = worse, NaN = missing (a pair with either NaN is
 * skipped). Runs sims simulated adaptive runs with the planned looks
 * looks[0..n_looks) (increasing): each draws the m usable pairs again
 * with replacement (the calibration is itself a sample), then its own
 * pairs from those (seeded by seed), each change less its own
 * median (an unchanged head's true change is 0; the run's median is a
 * draw) plus a normal deviate of sd 0.9 spread n^(-1/5) (a smoothed
 * bootstrap: Silverman's width), and builds the sign-test interval at conf at every look, as the
 * ledger does.
 *   A run PASSes at tolerance t by the last look when some look k has
 *   hi_k <= t and no earlier look j FAILed (lo_j > t); its smallest such
 *   t is t_run = min_k max(hi_k, max_{j<k} lo_j) (FAIL on d alone, the
 *   stricter case), and the tolerance is the PAB_CAL_PASS_PROB quantile
 *   of t_run (at least 0).
 *   A head worse by delta shifts every change by delta (additive, in
 *   percent: the changes are small); it FAILs at look k when lo_k + delta
 *   > t on d and, with e, on e as well, so the MDE at look k is
 *   t - q(min(lo_k(d), lo_k(e))) with q the 1 - PAB_CAL_FAIL_PROB
 *   quantile over the runs.
 * Looks with fewer than PAB_MIN_N_95 pairs have no interval: their
 * half_width and mde are NaN. Returns 0 with *out filled, PAB_ENODATA
 * with fewer than 2 pairs, PAB_ENOMEM, or PAB_EINVAL (NULL d or out,
 * n_looks of 0 or above PAB_CAL_MAX_LOOKS, looks not increasing, conf
 * not in (0, 1), sims of 0).
 */
int pab_calibrate(const double *d, const double *e, size_t n, const size_t *looks,
		  size_t n_looks, double conf, size_t sims, uint64_t seed,
		  struct pab_calibration *out);

/*
 * pab_calibrate_at: pab_calibrate() for a PASS by an earlier look and at
 * another probability: the runs are simulated to the last look (the
 * half-widths and MDEs of every look), but a run counts as PASSing only
 * at one of the first pass_looks looks (1 <= pass_looks <= n_looks), and
 * the tolerance is the pass_prob quantile of t_run (pass_prob in (0, 1)).
 * A gate of R rows that must PASS together with probability P by a look
 * asks each row for P^(1/R) by that look (doc/method.md §14).
 * pab_calibrate(...) is pab_calibrate_at(..., n_looks, n_looks,
 * PAB_CAL_PASS_PROB, ...). Returns as pab_calibrate; PAB_EINVAL also for
 * pass_looks or pass_prob out of range.
 */
int pab_calibrate_at(const double *d, const double *e, size_t n, const size_t *looks,
		     size_t n_looks, size_t pass_looks, double pass_prob, double conf,
		     size_t sims, uint64_t seed, struct pab_calibration *out);

#endif /* PAB_STATS_H */
