/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * reason.c — why a cell is not PASS, in one line with its numbers
 * (reason.h): the bounds its verdict waits for or crossed, the reps that
 * would likely decide it, the source of an exact count. The words of each
 * number are format.c's.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/ledger.h"
#include "report/format.h"
#include "report/reason.h"
#include "term.h"
#include "util.h"

/* What a decider's bound is called in a reason. */
static const char *bound_name(enum pab_decider d)
{
	switch (d) {
	case PAB_DECIDED_TOLERANCE:
		return "tolerance";
	case PAB_DECIDED_CREDIT:
		return "memory credit";
	case PAB_DECIDED_NOISE:
		return "null arm's noise";
	case PAB_DECIDED_EQUIVALENCE:
		return "equivalence margin";
	case PAB_DECIDED_NONE:
		break;
	}
	return "allowance";
}

/*
 * A lower bound FAIL needs: the lower end of an interval must lie above
 * a threshold. Every bound the cell's rule uses is listed by fail_bounds(),
 * from the cell's own data; a rule that needs more than one interval
 * above its threshold adds one entry per interval.
 */
struct fail_bound {
	const char *what;      /* "head vs base" */
	double lo, threshold;
	enum pab_decider decider;
};

static size_t fail_bounds(const struct pab_cell_result *r,
			  struct fail_bound *b, size_t cap)
{
	size_t n = 0;

	if (n < cap)
		b[n++] = (struct fail_bound){ "head vs base", r->change.lo,
					      r->fail_threshold, r->fail_decider };
	/* perfab/2: FAIL also needs head vs the null arm above the same bound. */
	if (r->fail_guarded && r->head_null.exists && n < cap)
		b[n++] = (struct fail_bound){ "head vs null", r->head_null.lo,
					      r->fail_threshold, r->fail_decider };
	return n;
}

/* " · about 40 more reps, ~3 min" for an undecided cell, into sb. */
static void add_estimate(char *buf, size_t len, size_t more,
			 const struct pab_reason_ctx *ctx)
{
	size_t at = strlen(buf);
	char dur[32];

	if (at >= len)
		return;
	if (!more) {
		snprintf(buf + at, len - at, "; more reps will not decide it at this noise");
		return;
	}
	if (more > PAB_REASON_MAX_MORE) {
		snprintf(buf + at, len - at, "; not decidable at this noise within %d reps",
			 PAB_REASON_MAX_MORE);
		return;
	}
	if (ctx->block > 1 && more % ctx->block)
		more += ctx->block - more % ctx->block;
	if (isfinite(ctx->rep_seconds) && ctx->rep_seconds > 0) {
		pab_fmt_duration(dur, sizeof(dur), ctx->rep_seconds * (double)more);
		snprintf(buf + at, len - at, "; about %zu more reps, ~%s", more, dur);
	} else {
		snprintf(buf + at, len - at, "; about %zu more reps", more);
	}
}

/* An undecided cell's outlook after buf: a guard's accepted uncertainty,
 * or a required cell that the cap cannot decide. */
static void add_outlook(char *buf, size_t len, const struct pab_cell_result *r,
			const struct pab_reason_ctx *ctx)
{
	size_t at = strlen(buf);
	const struct pab_outlook *o = ctx->outlook;
	char tol[24];

	if (at >= len)
		return;
	if (ctx->role == PAB_ROLE_GUARD && ctx->held && !ctx->undecidable) {
		snprintf(buf + at, len - at, "; a time guard: it holds the row's PASS until its "
			 "upper end is within +%.1f%%, these reps resolve +-%.1f%%",
			 ctx->guard_allowance, r->half_width);
		add_estimate(buf, len, r->reps_needed > ctx->n ? r->reps_needed - ctx->n : 0, ctx);
		return;
	}
	if (ctx->role == PAB_ROLE_GUARD && ctx->held) {
		snprintf(buf + at, len - at, "; a time guard: it holds the row's PASS until its "
			 "upper end is within +%.1f%%, which these reps up to %zu cannot show "
			 "(they resolve +-%.1f%%)", ctx->guard_allowance, ctx->cap_n,
			 o ? o->resolves_pct : r->half_width);
		return;
	}
	if (ctx->role == PAB_ROLE_GUARD) {
		snprintf(buf + at, len - at, "; a guard: accepted uncertainty, these reps resolve "
			 "+-%.1f%% (it FAILs the row only when it proves a regression)",
			 r->half_width);
		return;
	}
	if (ctx->undecidable && o && r->exact) {
		pab_fmt_pct(tol, sizeof(tol), o->tolerance_pct);
		snprintf(buf + at, len - at, "; an exact range that straddles the tolerance "
			 "+-%.1f%%: more reps cannot narrow it; a tolerance of %s%% or more would "
			 "PASS it", r->allowance, tol + (*tol == '+'));
		return;
	}
	if (ctx->undecidable && o) {
		pab_fmt_pct(tol, sizeof(tol), o->tolerance_pct);
		snprintf(buf + at, len - at, "; not decidable at +-%.1f%% on this machine within "
			 "%zu reps (resolves +-%.1f%%): needs ~%zu reps or a tolerance of %s%%",
			 r->allowance, ctx->cap_n, o->resolves_pct, o->reps_needed, tol + (*tol == '+'));
		return;
	}
	add_estimate(buf, len, r->reps_needed > ctx->n ? r->reps_needed - ctx->n : 0, ctx);
}

/*
 * A control's equivalence, when it FAILed or holds a PASS: its interval,
 * and under the null arm's guard the one against the null arm, against
 * +-margin. A control held by that guard moved against base alone.
 */
static void control_reason(char *buf, size_t len, const struct pab_cell_result *r,
			   double margin)
{
	char lo[32], hi[32], nlo[32], nhi[32];

	pab_fmt_pct(lo, sizeof(lo), r->change.lo);
	pab_fmt_pct(hi, sizeof(hi), r->change.hi);
	pab_fmt_pct(nlo, sizeof(nlo), r->head_null.lo);
	pab_fmt_pct(nhi, sizeof(nhi), r->head_null.hi);
	if (r->verdict == PAB_FAIL && r->fail_guarded)
		snprintf(buf, len, "a control must stay within +-%.1f%%: its interval [%s, %s] "
			 "and that against the null arm [%s, %s] lie outside", margin, lo, hi,
			 nlo, nhi);
	else if (r->verdict == PAB_FAIL)
		snprintf(buf, len, "a control must stay within +-%.1f%%: its interval [%s, %s] "
			 "lies outside", margin, lo, hi);
	else if (pab_equivalent(&r->change, margin) == PAB_EQUIV_NO)
		snprintf(buf, len, "a control must be shown within +-%.1f%%: its interval [%s, %s] "
			 "lies outside, but that against the null arm [%s, %s] not on the same "
			 "side: FAIL needs both", margin, lo, hi, nlo, nhi);
	else
		snprintf(buf, len, "a control must be shown within +-%.1f%%: its interval [%s, %s] "
			 "is wider", margin, lo, hi);
}

void pab_fmt_reason(char *buf, size_t len, const struct pab_cell_result *r,
		    const struct pab_reason_ctx *ctx)
{
	struct fail_bound b[4];
	size_t nb = fail_bounds(r, b, 4), i, at;
	char lo[32], hi[32], al[32], th[32];
	enum pab_metric_id m = ctx->metric;

	buf[0] = '\0';
	if (r->verdict == PAB_PASS || r->verdict == PAB_NOT_MEASURED)
		return;
	pab_fmt_bound(lo, sizeof(lo), m, r->change.lo);
	pab_fmt_bound(hi, sizeof(hi), m, r->change.hi);
	pab_fmt_bound(al, sizeof(al), m, r->allowance);
	if (r->verdict == PAB_FAIL) {
		if (r->fail_decider == PAB_DECIDED_EQUIVALENCE) {
			control_reason(buf, len, r, ctx->margin);
			return;
		}
		snprintf(buf, len, "its lower end %s is beyond the %s %s",
			 lo, bound_name(r->pass_decider), al);
		for (i = 0; i < nb; i++) {
			at = strlen(buf);
			if ((b[i].threshold <= r->allowance && b[i].lo == r->change.lo) ||
			    at >= len)
				continue;
			pab_fmt_bound(th, sizeof(th), m, b[i].threshold);
			if (b[i].lo == r->change.lo) {
				snprintf(buf + at, len - at, " and the %s %s",
					 bound_name(b[i].decider), th);
			} else {
				pab_fmt_bound(lo, sizeof(lo), m, b[i].lo);
				snprintf(buf + at, len - at, "; %s starts at %s, beyond the %s %s",
					 b[i].what, lo, bound_name(b[i].decider), th);
			}
		}
		return;
	}
	/* INCONCLUSIVE */
	if (!r->change.exists) {
		size_t more = ctx->n < PAB_MIN_N_95 ? PAB_MIN_N_95 - ctx->n : 1;
		char conf[16];

		pab_fmt_conf(conf, sizeof(conf), ctx->conf);
		snprintf(buf, len, "no %s interval exists below %d paired reps (n=%zu)",
			 conf, PAB_MIN_N_95, ctx->n);
		add_estimate(buf, len, more, ctx);
		return;
	}
	if (r->pass_decider == PAB_DECIDED_EQUIVALENCE) {
		control_reason(buf, len, r, ctx->margin);
	} else if (r->change.lo > r->allowance) {
		/* Above the allowance: FAIL waits only for its other bounds. */
		for (i = 0; i < nb && b[i].lo > b[i].threshold; i++)
			;
		if (i == nb)
			i = 0;
		pab_fmt_bound(th, sizeof(th), m, b[i].threshold);
		pab_fmt_bound(lo, sizeof(lo), m, b[i].lo);
		snprintf(buf, len, "beyond the %s %s, but FAIL needs %s beyond the %s "
			 "%s; it starts at %s%s", bound_name(r->pass_decider), al,
			 b[i].lo == r->change.lo ? "it" : b[i].what, bound_name(b[i].decider),
			 th, lo, b[i].decider == PAB_DECIDED_NOISE || b[i].lo != r->change.lo ?
			 ": this machine's noise hides the change (see perfab env)" : "");
	} else {
		pab_fmt_bound(th, sizeof(th), m, nb ? b[0].threshold : r->fail_threshold);
		snprintf(buf, len, "PASS needs the upper end within %s (%s), it is %s; "
			 "FAIL needs the lower end beyond %s (%s), it is %s", al,
			 bound_name(r->pass_decider), hi, th,
			 bound_name(nb ? b[0].decider : r->fail_decider), lo);
	}
	add_outlook(buf, len, r, ctx);
}

const char *pab_fmt_decided_by(const struct pab_cell_result *r)
{
	if (r->verdict == PAB_PASS)
		return pab_decider_name(r->pass_decider);
	if (r->verdict == PAB_FAIL)
		return pab_decider_name(r->fail_decider);
	return NULL;
}

const char *pab_fmt_count_source(const struct pab_experiment *e)
{
	if (!(e->settings.given & PAB_RUN_COUNTS))
		return "pmu"; /* before --counts: the hardware counter */
	return pab_count_source_name(e->settings.count_source);
}

/* An exact count's cell: which source counted, and whether the counts
 * moved (exact, or judged by the sign test), after the reason. */
static void add_count_note(const struct pab_experiment *e, const struct pab_cell_result *r,
			   char *buf, size_t len)
{
	const char *src = pab_fmt_count_source(e);
	size_t at = strlen(buf);
	char spread[24];

	if (r->verdict == PAB_NOT_MEASURED || at + 1 >= len)
		return;
	snprintf(spread, sizeof(spread), "%.2g", r->spread_pct);
	snprintf(buf + at, len - at, "%scounted by %s; %s%s%s", at ? "; " : "",
		 src && !strcmp(src, "sim") ? "valgrind (sim)" : "the PMU (pmu)",
		 r->exact && r->spread_pct == 0 ? "exact: each arm's count identical in every rep" :
		 r->exact ? "exact: each arm's count moved between reps by at most " :
		 "the counts varied across reps by up to ",
		 r->exact && r->spread_pct == 0 ? "" : spread,
		 r->exact && r->spread_pct == 0 ? "" : r->exact ? "%" :
		 "%, judged by the sign test");
}

const char *pab_fmt_null_reason(const struct pab_experiment *e, const struct pab_ledger *l,
				const struct pab_ledger_cell *c)
{
	const struct pab_row *row = &e->rows[c->row];
	size_t arms[2] = { c->arm, (size_t)l->base }, k, a;

	for (a = 0; a < 2; a++)
		for (k = 0; k < row->n_reps; k++) {
			const char *why = row->reps[k].result[arms[a]].reason[c->metric];

			if (why && isnan(row->reps[k].result[arms[a]].m[c->metric]))
				return why;
		}
	return NULL;
}

void pab_fmt_cell_reason(const struct pab_experiment *e,
			    const struct pab_ledger *l,
			    const struct pab_ledger_cell *c, char *buf, size_t len)
{
	const struct pab_ledger_row *lr = pab_ledger_cell_row(l, c);
	struct pab_reason_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.metric = c->metric;
	ctx.role = c->role;
	ctx.outlook = &c->outlook;
	ctx.held = c->held;
	ctx.guard_allowance = c->guard_allowance;
	ctx.undecidable = c->undecidable;
	ctx.cap_n = lr->cap_n;
	ctx.n = lr->n;
	ctx.block = e->n_arms;
	ctx.rep_seconds = lr->rep_seconds;
	ctx.control = lr->control;
	ctx.margin = e->equivalence_margin;
	ctx.conf = l->conf;
	pab_fmt_reason(buf, len, &c->res, &ctx);
	if (pab_metrics[c->metric].exact)
		add_count_note(e, &c->res, buf, len);
	if (!strcmp(pab_fmt_tolerance_origin(e, c->metric), "calibration")) {
		size_t at = strlen(buf);

		if (at + 1 < len)
			snprintf(buf + at, len - at, "%stolerance %.3g%% from calibration '%s'",
				 at ? "; " : "", e->tolerance[c->metric],
				 pab_term_safe(e->settings.calibration_file));
	}
}
