/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * verdict.c — the verdict rules: one cell's PASS / FAIL / INCONCLUSIVE
 * from the paired-change interval and its thresholds, under each rule
 * set, and the combination of cells into a row verdict. The ledger that
 * applies them to an experiment is src/judge/ledger.c.
 *
 * The three rule sets differ in where the thresholds come from and in
 * what FAIL must show:
 *   rule12   (the seed's):  allowance = fail threshold = max(credit, noise)
 *   perfab/1:               allowance = max(credit, tolerance), and the
 *                           fail threshold max(allowance, noise)
 *   perfab/2 (default):     allowance = max(credit, tolerance); FAIL when
 *                           head is beyond it against base AND against
 *                           the null arm (a second copy of base)
 * The seed's rule ties PASS to the noise floor, which shrinks exactly as
 * fast as the interval does, so an unchanged head stays INCONCLUSIVE no
 * matter how many reps run; perfab/1 lets a declared tolerance decide
 * PASS and keeps the noise as a guard against false alarms, but its guard
 * adds a second interval's width to the first (at n = 6 one slow run sets
 * it). perfab/2 asks instead whether head differs from both copies of the
 * base: an intersection-union test whose level is that of each of its
 * two tests, with no width added and with a guard against an offset that
 * every non-base arm shares (doc/method.md).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pab_stats.h"

const char *pab_verdict_name(enum pab_verdict v)
{
	switch (v) {
	case PAB_PASS:         return "PASS";
	case PAB_INCONCLUSIVE: return "INCONCLUSIVE";
	case PAB_FAIL:         return "FAIL";
	case PAB_NOT_MEASURED: return "NOT MEASURED";
	}
	return "invalid";
}

const char *pab_rules_name(enum pab_rules r)
{
	switch (r) {
	case PAB_RULES_PERFAB1: return "perfab/1";
	case PAB_RULES_RULE12:  return "rule12";
	case PAB_RULES_PERFAB2: return "perfab/2";
	}
	return "invalid";
}

int pab_rules_parse(const char *s, enum pab_rules *out)
{
	if (!s || !out)
		return PAB_EINVAL;
	if (strcmp(s, "perfab/1") == 0)
		*out = PAB_RULES_PERFAB1;
	else if (strcmp(s, "rule12") == 0)
		*out = PAB_RULES_RULE12;
	else if (strcmp(s, "perfab/2") == 0)
		*out = PAB_RULES_PERFAB2;
	else
		return PAB_EINVAL;
	return 0;
}

const char *pab_decider_name(enum pab_decider d)
{
	switch (d) {
	case PAB_DECIDED_NONE:        return "none";
	case PAB_DECIDED_TOLERANCE:   return "tolerance";
	case PAB_DECIDED_CREDIT:      return "credit";
	case PAB_DECIDED_NOISE:       return "noise";
	case PAB_DECIDED_EQUIVALENCE: return "equivalence";
	}
	return "invalid";
}

enum pab_verdict pab_combine_verdicts(const enum pab_verdict *v, size_t n)
{
	int any_fail = 0, any_inconclusive = 0, any_pass = 0;
	size_t i;

	if (!v)
		return PAB_NOT_MEASURED;
	for (i = 0; i < n; i++) {
		any_fail |= v[i] == PAB_FAIL;
		any_inconclusive |= v[i] == PAB_INCONCLUSIVE;
		any_pass |= v[i] == PAB_PASS;
	}
	if (any_fail)
		return PAB_FAIL;
	if (any_inconclusive)
		return PAB_INCONCLUSIVE;
	if (any_pass)
		return PAB_PASS;
	return PAB_NOT_MEASURED;
}

const char *pab_cell_role_name(enum pab_cell_role r)
{
	switch (r) {
	case PAB_ROLE_REQUIRED: return "required";
	case PAB_ROLE_GUARD:    return "guard";
	case PAB_ROLE_SHOWN:    return "shown";
	}
	return "invalid";
}

enum pab_verdict pab_combine_held(const enum pab_verdict *v,
				  const enum pab_cell_role *role, const int *held,
				  size_t n)
{
	int any_fail = 0, any_measured = 0, required = 0, required_pass = 0;
	int any_held = 0;
	size_t i;

	if (!v || !role)
		return PAB_NOT_MEASURED;
	for (i = 0; i < n; i++) {
		if (role[i] != PAB_ROLE_REQUIRED && role[i] != PAB_ROLE_GUARD)
			continue;
		any_fail |= v[i] == PAB_FAIL;
		any_measured |= v[i] != PAB_NOT_MEASURED;
		any_held |= held && held[i] && role[i] == PAB_ROLE_GUARD;
		if (role[i] == PAB_ROLE_REQUIRED) {
			required++;
			required_pass += v[i] == PAB_PASS;
		}
	}
	if (any_fail)
		return PAB_FAIL;
	if (!any_measured)
		return PAB_NOT_MEASURED;
	if (required > 0 && required_pass == required && !any_held)
		return PAB_PASS;
	return PAB_INCONCLUSIVE;
}

enum pab_verdict pab_combine_roles(const enum pab_verdict *v,
				   const enum pab_cell_role *role, size_t n)
{
	return pab_combine_held(v, role, NULL, n);
}


#ifndef PAB_OUTLOOK_WIDTH
#define PAB_OUTLOOK_WIDTH 1.5
#endif

static size_t estimate_reps_at(const struct pab_cell_result *r, double pass_at);

/*
 * Whether interval iv, whose half-width at the cap is projected to be w,
 * could still lie wholly above threshold there: the true median may be
 * as high as iv->hi, and the cap's interval about it reaches down to
 * hi - w (doc/method.md §8b). An interval that does not exist yet may
 * become one.
 */
static int may_cross(const struct pab_interval *iv, double w, double threshold)
{
	return !iv->exists || !(iv->hi - w <= threshold);
}

/*
 * The outlook of r with its PASS threshold at pass_at (the allowance of
 * a required cell, the guard allowance of a time guard).
 */
static int outlook_at(const struct pab_cell_result *r, size_t cap_n, double pass_at,
		      struct pab_outlook *out)
{
	double w, scale;
	size_t n;

	if (!r || !out || !cap_n)
		return PAB_EINVAL;
	out->resolves_pct = NAN;
	out->reps_needed = 0;
	out->tolerance_pct = NAN;
	out->pass_reachable = out->fail_reachable = 0;
	n = r->change.n;
	if (r->verdict != PAB_INCONCLUSIVE || !r->change.exists || !n)
		return 0;
	if (r->exact) {
		/* An exact range is known, not estimated: more reps cannot
		 * narrow it, and only a tolerance above its upper end passes. */
		out->resolves_pct = r->half_width;
		out->tolerance_pct = r->change.hi > 0 ? r->change.hi : 0.0;
		return 1;
	}
	out->reps_needed = pass_at == r->allowance ? r->reps_needed :
		estimate_reps_at(r, pass_at);
	scale = sqrt((double)n / (double)(cap_n > n ? cap_n : n));
	if (isfinite(r->half_width))
		out->resolves_pct = r->half_width * scale;
	if (isfinite(out->resolves_pct) && isfinite(r->change.median))
		out->tolerance_pct = (r->change.median > 0 ? r->change.median : 0.0) +
			out->resolves_pct;
	if (n >= cap_n || !isfinite(out->resolves_pct) || !isfinite(r->change.median))
		return 0; /* at the cap: nothing more to decide */
	w = out->resolves_pct;
	/*
	 * PASS out of reach: at the cap the interval would still be wider
	 * than PAB_OUTLOOK_WIDTH times the threshold (the machine cannot
	 * resolve it), and with the median where it is its upper end would
	 * not come down to it. A cell that the cap resolves goes on to its
	 * looks however its median lies: at n = 12 the median itself is
	 * uncertain. Giving up on a PASS costs only the PASS.
	 */
	out->pass_reachable = w <= PAB_OUTLOOK_WIDTH * pass_at || r->change.median + w <= pass_at;
	/*
	 * FAIL out of reach only when no median the interval allows could
	 * FAIL by the cap: giving up on a FAIL would lose a regression. Under
	 * perfab/2 a guarded FAIL needs head vs null as well.
	 */
	out->fail_reachable = may_cross(&r->change, w, r->fail_threshold) &&
		(!r->fail_guarded ||
		 may_cross(&r->head_null, isfinite(r->head_null.hi - r->head_null.lo) ?
			   (r->head_null.hi - r->head_null.lo) / 2.0 * scale : INFINITY,
			   r->fail_threshold));
	return !out->pass_reachable && !out->fail_reachable;
}

int pab_cell_outlook(const struct pab_cell_result *r, size_t cap_n,
		     struct pab_outlook *out)
{
	if (!r)
		return PAB_EINVAL;
	return outlook_at(r, cap_n, r->allowance, out);
}

double pab_guard_allowance(const struct pab_cell_result *r, double guard_tolerance_pct)
{
	if (!r || !(guard_tolerance_pct >= 0.0))
		return NAN;
	return guard_tolerance_pct > r->allowance ? guard_tolerance_pct : r->allowance;
}

int pab_guard_resolved(const struct pab_cell_result *r, double guard_tolerance_pct)
{
	double at = pab_guard_allowance(r, guard_tolerance_pct);

	if (!r || isnan(at))
		return PAB_EINVAL;
	if (r->verdict == PAB_PASS)
		return 1;
	return r->verdict == PAB_INCONCLUSIVE && r->change.exists && r->change.hi <= at;
}

int pab_guard_outlook(const struct pab_cell_result *r, size_t cap_n,
		      double guard_tolerance_pct, struct pab_outlook *out)
{
	double at = pab_guard_allowance(r, guard_tolerance_pct);

	if (!r || isnan(at))
		return PAB_EINVAL;
	return outlook_at(r, cap_n, at, out);
}

/*
 * Sign-test half-widths shrink like 1/sqrt(n), so the reps that would
 * shrink the half-width below the distance from the median to the nearer
 * decision threshold it has not crossed (pass_at, the PASS threshold: the
 * allowance, or a time guard's guard allowance; or the fail threshold)
 * are about n (hw / needed)^2. Only a rough guide: the interval is not symmetric about the median and,
 * under rule12, the noise floor shrinks along with it. At least one more
 * rep than we have and at least the minimum for an interval; 0 when the
 * median sits on or beyond both thresholds (no amount of reps is
 * predicted to settle it).
 */
static size_t estimate_reps_at(const struct pab_cell_result *r, double pass_at)
{
	double to_pass = pass_at - r->change.median;
	double to_fail = r->change.median - r->fail_threshold;
	double needed = to_pass > to_fail ? to_pass : to_fail;
	double est;
	size_t floor_n = r->change.n + 1;

	if (!(needed > 0.0) || !isfinite(needed) || !isfinite(r->half_width))
		return 0;
	est = ceil((double)r->change.n * (r->half_width / needed) *
		   (r->half_width / needed));
	if (floor_n < PAB_MIN_N_95)
		floor_n = PAB_MIN_N_95;
	if (est < (double)floor_n)
		return floor_n;
	/* (double)SIZE_MAX rounds up to 2^64: anything below converts. */
	if (!(est < (double)SIZE_MAX))
		return SIZE_MAX;
	return (size_t)est;
}

static int cell_input_valid(const struct pab_cell_input *in)
{
	if (in->n && (!in->base || !in->head))
		return 0;
	if (!(in->conf > 0.0 && in->conf < 1.0))
		return 0;
	if (in->better != PAB_LOWER_IS_BETTER &&
	    in->better != PAB_HIGHER_IS_BETTER)
		return 0;
	if (in->rules != PAB_RULES_PERFAB1 && in->rules != PAB_RULES_RULE12 &&
	    in->rules != PAB_RULES_PERFAB2)
		return 0;
	if (!(in->saved_pct >= 0.0 && in->saved_pct <= 100.0))
		return 0;
	if (!(in->tolerance_pct >= 0.0) || !isfinite(in->tolerance_pct))
		return 0;
	if (!(in->floor_abs >= 0.0) || !isfinite(in->floor_abs))
		return 0;
	if (in->control && (!(in->equivalence_margin_pct >= 0.0) ||
			    !isfinite(in->equivalence_margin_pct)))
		return 0;
	return 1;
}

/* Median of one arm's own non-NaN values; NaN when it has none. */
static int arm_median(const double *x, size_t n, double *out)
{
	int ret = pab_median(x, n, out);

	if (ret == PAB_ENODATA) {
		*out = NAN;
		ret = 0;
	}
	return ret;
}

/* The largest (max - min) / |median| * 100 of one arm's values x. */
static double arm_spread(const double *x, size_t n, double median)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; x && i < n; i++) {
		if (isnan(x[i]))
			continue;
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	if (!(hi >= lo))
		return NAN;
	if (hi == lo)
		return 0.0;
	return median != 0.0 ? (hi - lo) / fabs(median) * 100.0 : INFINITY;
}

/*
 * An exact count's change from x to y: when at least PAB_MIN_N_EXACT
 * pairs have both values and neither side moves by more than
 * PAB_EXACT_RESOLUTION_PCT of its median, *iv is the range of the paired
 * changes (a point when neither moves at all), an interval with coverage
 * 1; returns 1 then, else 0 (*iv untouched).
 */
static int exact_range(const double *x, const double *y, size_t n,
		       enum pab_better better, struct pab_interval *iv)
{
	double xm, ym, lo = INFINITY, hi = -INFINITY, *c;
	size_t i, pairs = 0;
	struct pab_interval med;

	if (pab_median(x, n, &xm) || pab_median(y, n, &ym) ||
	    !(arm_spread(x, n, xm) <= PAB_EXACT_RESOLUTION_PCT) ||
	    !(arm_spread(y, n, ym) <= PAB_EXACT_RESOLUTION_PCT))
		return 0;
	c = malloc(n * sizeof(*c));
	if (!c)
		return 0;
	pab_paired_changes(x, y, n, better, c);
	for (i = 0; i < n; i++) {
		if (isnan(c[i]))
			continue;
		lo = c[i] < lo ? c[i] : lo;
		hi = c[i] > hi ? c[i] : hi;
		pairs++;
	}
	if (pairs < PAB_MIN_N_EXACT || pab_sign_interval(c, n, 0.5, &med) || !isfinite(lo) ||
	    !isfinite(hi)) {
		free(c);
		return 0;
	}
	free(c);
	memset(iv, 0, sizeof(*iv));
	iv->n = pairs;
	iv->median = med.median;
	iv->lo = lo;
	iv->hi = hi;
	iv->coverage = 1.0;
	iv->lo_rank = 1;
	iv->hi_rank = pairs;
	iv->exists = 1;
	return 1;
}

/* Exact counts that do not move: every interval a point (pab_judge_cell). */
static void apply_exact(const struct pab_cell_input *in, struct pab_cell_result *out)
{
	struct pab_interval ch, nc, hn;
	double s, nm;

	out->spread_pct = arm_spread(in->base, in->n, out->base_median);
	s = arm_spread(in->head, in->n, out->head_median);
	if (isnan(out->spread_pct) || s > out->spread_pct)
		out->spread_pct = s;
	/* Every arm's spread, the null arm's too, whether or not the counts
	 * are exact: it is what the ledger reports they moved by. */
	if (out->has_null && !pab_median(in->null, in->n, &nm)) {
		s = arm_spread(in->null, in->n, nm);
		if (isnan(out->spread_pct) || s > out->spread_pct)
			out->spread_pct = s;
	}
	if (!exact_range(in->base, in->head, in->n, in->better, &ch))
		return;
	if (out->has_null) {
		if (!exact_range(in->base, in->null, in->n, in->better, &nc) ||
		    !exact_range(in->null, in->head, in->n, in->better, &hn))
			return;
		out->null_change = nc;
		out->head_null = hn;
		out->noise = pab_noise_floor(&nc);
		out->noise_infinite = isinf(out->noise);
	}
	out->change = ch;
	out->exact = 1;
}

/*
 * Thresholds and their deciders, from noise, credit and tolerance. An
 * infinite noise (a base of 0 in a null pair) sets no threshold: taken as
 * it is, it would PASS anything under rule12 and FAIL nothing under
 * perfab/1.
 */
static void set_thresholds(const struct pab_cell_input *in,
			   struct pab_cell_result *r)
{
	double noise = r->noise_infinite ? 0.0 : r->noise;

	if (in->rules == PAB_RULES_RULE12) {
		r->tolerance = 0.0;
		if (r->credit > noise) {
			r->allowance = r->credit;
			r->pass_decider = PAB_DECIDED_CREDIT;
		} else {
			r->allowance = noise;
			r->pass_decider = PAB_DECIDED_NOISE;
		}
		r->fail_threshold = r->allowance;
		r->fail_decider = r->pass_decider;
		return;
	}

	r->tolerance = in->tolerance_pct;
	if (in->floor_abs > 0.0 && isfinite(r->base_median) &&
	    r->base_median != 0.0) {
		r->floor_pct = 100.0 * in->floor_abs / fabs(r->base_median);
		if (r->floor_pct > r->tolerance)
			r->tolerance = r->floor_pct;
	}
	if (r->credit > r->tolerance) {
		r->allowance = r->credit;
		r->pass_decider = PAB_DECIDED_CREDIT;
	} else {
		r->allowance = r->tolerance;
		r->pass_decider = PAB_DECIDED_TOLERANCE;
	}
	if (in->rules == PAB_RULES_PERFAB1 && noise > r->allowance) {
		r->fail_threshold = noise;
		r->fail_decider = PAB_DECIDED_NOISE;
	} else {
		r->fail_threshold = r->allowance;
		r->fail_decider = r->pass_decider;
	}
}

/*
 * The null arm's intervals: base against null (it sets the noise; a null
 * arm without a single usable pair is no null arm at all, and the strict
 * noise of 0 applies) and, perfab/2's second test, head against the other
 * copy of base. changes is scratch of in->n. Returns 0 or a PAB_E* code.
 */
static int null_intervals(const struct pab_cell_input *in, struct pab_cell_result *out,
			  double *changes)
{
	size_t n = in->n;
	int ret;

	if (in->null) {
		pab_paired_changes(in->base, in->null, n, in->better, changes);
		ret = pab_sign_interval(changes, n, in->conf, &out->null_change);
		if (ret == 0)
			out->has_null = 1;
		else if (ret != PAB_ENODATA)
			return ret;
	}
	out->noise = out->has_null ? pab_noise_floor(&out->null_change) : 0.0;
	out->noise_infinite = isinf(out->noise);
	if (out->has_null) {
		pab_paired_changes(in->null, in->head, n, in->better, changes);
		ret = pab_sign_interval(changes, n, in->conf, &out->head_null);
		if (ret == PAB_ENODATA)
			memset(&out->head_null, 0, sizeof(out->head_null));
		else if (ret < 0)
			return ret;
	}
	return 0;
}

/* Whether the head-vs-null interval lies outside the margin on the side
 * the head-vs-base one does. */
static int moved_alike(const struct pab_interval *change,
		       const struct pab_interval *head_null, double margin_pct)
{
	if (pab_equivalent(head_null, margin_pct) != PAB_EQUIV_NO)
		return 0;
	return (change->lo > margin_pct) == (head_null->lo > margin_pct);
}

/* The verdict of a cell whose change, thresholds and null intervals are
 * set (doc/method.md §6), and a control's equivalence (§7). */
static void decide(const struct pab_cell_input *in, struct pab_cell_result *out)
{
	/* The second test needs reps holding both a head and a null value:
	 * without any, FAIL rests on head vs base alone (it cannot be
	 * blocked for good by a test that has no data). */
	if (in->rules == PAB_RULES_PERFAB2)
		out->fail_guarded = out->has_null && out->head_null.n > 0;
	if (!out->change.exists)
		out->verdict = PAB_INCONCLUSIVE; /* no interval, no verdict */
	else if (out->change.lo > out->fail_threshold &&
		 (!out->fail_guarded ||
		  (out->head_null.exists &&
		   out->head_null.lo > out->fail_threshold)))
		out->verdict = PAB_FAIL;
	else if (out->change.hi <= out->allowance)
		out->verdict = PAB_PASS;
	else
		out->verdict = PAB_INCONCLUSIVE;

	/*
	 * A control must also be unchanged, in either direction: a control
	 * that moved is a sign the comparison itself is off. Equivalence can
	 * only make the verdict worse.
	 */
	if (in->control) {
		out->equivalence = pab_equivalent(&out->change,
						  in->equivalence_margin_pct);
		/* Guarded as a FAIL is: the control must also have moved
		 * against the null arm, the same way (doc/method.md §7). */
		if (out->equivalence == PAB_EQUIV_NO && out->fail_guarded &&
		    !moved_alike(&out->change, &out->head_null,
				 in->equivalence_margin_pct))
			out->equivalence = PAB_EQUIV_UNKNOWN;
		if (out->equivalence == PAB_EQUIV_NO &&
		    out->verdict != PAB_FAIL) {
			out->verdict = PAB_FAIL;
			out->fail_decider = PAB_DECIDED_EQUIVALENCE;
		} else if (out->equivalence == PAB_EQUIV_UNKNOWN &&
			   out->verdict == PAB_PASS) {
			out->verdict = PAB_INCONCLUSIVE;
			out->pass_decider = PAB_DECIDED_EQUIVALENCE;
		}
	}
}

int pab_judge_cell(const struct pab_cell_input *in,
		   struct pab_cell_result *out)
{
	double *changes = NULL;
	size_t n;
	int ret;

	if (!in || !out)
		return PAB_EINVAL;
	memset(out, 0, sizeof(*out));
	if (!cell_input_valid(in))
		return PAB_EINVAL;
	n = in->n;
	out->verdict = PAB_NOT_MEASURED;
	out->equivalence = PAB_EQUIV_UNKNOWN;
	out->base_median = NAN;
	out->head_median = NAN;
	if (n == 0)
		return 0;

	changes = malloc(n * sizeof(*changes));
	if (!changes) {
		ret = PAB_ENOMEM;
		goto out_clear_result;
	}

	ret = arm_median(in->base, n, &out->base_median);
	if (ret < 0)
		goto out_free_changes;
	ret = arm_median(in->head, n, &out->head_median);
	if (ret < 0)
		goto out_free_changes;
	ret = null_intervals(in, out, changes);
	if (ret < 0)
		goto out_free_changes;

	pab_paired_changes(in->base, in->head, n, in->better, changes);
	ret = pab_sign_interval(changes, n, in->conf, &out->change);
	if (ret == PAB_ENODATA) {
		/* Nothing to judge; thresholds stay 0, deciders NONE. */
		memset(&out->change, 0, sizeof(out->change));
		out->verdict = PAB_NOT_MEASURED;
		ret = 0;
		goto out_free_changes;
	}
	if (ret < 0)
		goto out_free_changes;
	if (in->exact)
		apply_exact(in, out);

	out->credit = in->credit_eligible && !in->control ?
		in->saved_pct / PAB_MEMORY_TO_CPU : 0.0;
	set_thresholds(in, out);
	out->beyond_noise = pab_beyond_noise(&out->change, out->noise);
	out->half_width = (out->change.hi - out->change.lo) / 2.0;
	decide(in, out);
	/* An exact range is no estimate: more reps would not narrow it. */
	if (out->verdict == PAB_INCONCLUSIVE && !out->exact)
		out->reps_needed = estimate_reps_at(out, out->allowance);
	ret = 0;
out_free_changes:
	free(changes);
out_clear_result:
	if (ret < 0)
		memset(out, 0, sizeof(*out)); /* never half a result */
	return ret;
}

/* x rounded up to a multiple of block (> 0); the largest multiple that
 * fits when that does not. */
static size_t round_up_to(size_t x, size_t block)
{
	if (x > SIZE_MAX - (block - 1))
		return SIZE_MAX / block * block;
	return (x + block - 1) / block * block;
}

size_t pab_looks_plan(size_t first, size_t max, size_t block, size_t *looks,
		      size_t cap)
{
	size_t k = 0, n, top;

	if (!looks || !first || !block || max < first)
		return 0;
	top = round_up_to(max, block);
	n = round_up_to(first, block);
	while (k < cap) {
		if (n >= top) {
			looks[k++] = top;
			break;
		}
		looks[k++] = n;
		/* The next look, 2n rounded up to a block, must fit. */
		if (n > (SIZE_MAX - (block - 1)) / 2)
			break;
		n = (2 * n + block - 1) / block * block;
	}
	return k;
}

double pab_look_confidence(double conf, size_t n_looks)
{
	if (!(conf > 0.0 && conf < 1.0) || n_looks == 0)
		return NAN;
	return 1.0 - (1.0 - conf) / (double)n_looks;
}
