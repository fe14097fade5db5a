/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect.c — the search of `perfab bisect`: ranges of a first-parent line
 * narrowed by three-way comparisons, with skipped and undecided commits
 * set aside (bisect.h has the rules; doc/bisect.md explains them).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "run/bisect.h"
#include "util.h"

const char *pab_bisect_mark_name(enum pab_bisect_mark m)
{
	switch (m) {
	case PAB_BISECT_UNTESTED: return "untested";
	case PAB_BISECT_SKIPPED: return "skipped";
	case PAB_BISECT_UNDECIDED: return "undecided";
	case PAB_BISECT_LIKE_GOOD: return "like good";
	case PAB_BISECT_LIKE_BAD: return "like bad";
	case PAB_BISECT_UNLIKE_BOTH: return "unlike both";
	case PAB_BISECT_SPREAD: return "between";
	}
	return "invalid";
}

enum pab_bisect_mark pab_bisect_classify(enum pab_verdict mid_vs_good,
					 enum pab_verdict bad_vs_mid)
{
	int worse_than_good = mid_vs_good == PAB_FAIL;
	int better_than_bad = bad_vs_mid == PAB_FAIL;

	if (worse_than_good && better_than_bad)
		return PAB_BISECT_UNLIKE_BOTH;
	if (worse_than_good)
		return PAB_BISECT_LIKE_BAD;
	if (better_than_bad)
		return PAB_BISECT_LIKE_GOOD;
	if (mid_vs_good == PAB_PASS && bad_vs_mid == PAB_PASS)
		return PAB_BISECT_SPREAD;
	return PAB_BISECT_UNDECIDED;
}

void pab_bisect_init(struct pab_bisect *b, size_t n)
{
	if (n < 2)
		BUG("a line of %zu commits cannot be bisected", n);
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->mark = xcalloc(n, sizeof(*b->mark));
}

void pab_bisect_release(struct pab_bisect *b)
{
	free(b->mark);
	free(b->todo);
	free(b->done);
	memset(b, 0, sizeof(*b));
}

static void push_todo(struct pab_bisect *b, size_t good, size_t bad)
{
	ALLOC_GROW(b->todo, b->n_todo + 1, b->todo_alloc);
	b->todo[b->n_todo].good = good;
	b->todo[b->n_todo].bad = bad;
	b->n_todo++;
}

/* The current range ends as end. */
static void finish(struct pab_bisect *b, enum pab_bisect_end end)
{
	ALLOC_GROW(b->done, b->n_done + 1, b->done_alloc);
	b->done[b->n_done].r = b->todo[--b->n_todo];
	b->done[b->n_done].end = end;
	b->n_done++;
}

void pab_bisect_start(struct pab_bisect *b)
{
	if (b->n_todo || b->n_done)
		BUG("the search started twice");
	push_todo(b, 0, b->n - 1);
}

/* Untested commits strictly between lo and hi. */
static size_t untested_between(const struct pab_bisect *b, size_t lo, size_t hi)
{
	size_t i, k = 0;

	for (i = lo + 1; i < hi; i++)
		k += b->mark[i] == PAB_BISECT_UNTESTED;
	return k;
}

/*
 * The commit to try in range r: its parts are cut at undecided commits;
 * the part with the most untested commits (the later on a tie), and in it
 * the untested one nearest the middle (the earlier on a tie). Returns 0
 * when none is left.
 */
static int choose(const struct pab_bisect *b, struct pab_bisect_range r, size_t *mid)
{
	size_t lo = r.good, best_lo = 0, best_hi = 0, best_k = 0, i;
	size_t best = 0, best_dist = (size_t)-1;

	for (i = r.good + 1; i <= r.bad; i++) {
		size_t k;

		if (i < r.bad && b->mark[i] != PAB_BISECT_UNDECIDED)
			continue;
		k = untested_between(b, lo, i);
		if (k && k >= best_k) {
			best_k = k;
			best_lo = lo;
			best_hi = i;
		}
		lo = i;
	}
	if (!best_k)
		return 0;
	for (i = best_lo + 1; i < best_hi; i++) {
		size_t twice = 2 * i, centre = best_lo + best_hi;
		size_t dist = twice > centre ? twice - centre : centre - twice;

		if (b->mark[i] == PAB_BISECT_UNTESTED && dist < best_dist) {
			best_dist = dist;
			best = i;
		}
	}
	*mid = best;
	return 1;
}

int pab_bisect_next(struct pab_bisect *b, struct pab_bisect_step *s)
{
	while (b->n_todo) {
		struct pab_bisect_range r = b->todo[b->n_todo - 1];

		if (r.bad - r.good == 1) {
			finish(b, PAB_BISECT_FOUND);
			continue;
		}
		if (!choose(b, r, &s->mid)) {
			finish(b, PAB_BISECT_AMBIGUOUS);
			continue;
		}
		s->good = r.good;
		s->bad = r.bad;
		return 1;
	}
	return 0;
}

void pab_bisect_record(struct pab_bisect *b, const struct pab_bisect_step *s,
		       enum pab_bisect_mark mark)
{
	struct pab_bisect_range *cur;

	if (!b->n_todo || b->todo[b->n_todo - 1].good != s->good ||
	    b->todo[b->n_todo - 1].bad != s->bad || s->mid <= s->good || s->mid >= s->bad)
		BUG("a step outside the current range");
	cur = &b->todo[b->n_todo - 1];
	b->mark[s->mid] = mark;
	switch (mark) {
	case PAB_BISECT_LIKE_GOOD:
		cur->good = s->mid;
		break;
	case PAB_BISECT_LIKE_BAD:
		cur->bad = s->mid;
		break;
	case PAB_BISECT_UNLIKE_BOTH:
		/* (mid, bad) waits beneath (good, mid), which goes on first. */
		cur->good = s->mid;
		push_todo(b, s->good, s->mid);
		break;
	case PAB_BISECT_SPREAD:
		finish(b, PAB_BISECT_BETWEEN);
		break;
	case PAB_BISECT_UNDECIDED:
		break;
	default:
		BUG("mark '%s' is no outcome of a comparison", pab_bisect_mark_name(mark));
	}
}

void pab_bisect_skip(struct pab_bisect *b, size_t i)
{
	if (i >= b->n)
		BUG("commit %zu of a line of %zu", i, b->n);
	b->mark[i] = PAB_BISECT_SKIPPED;
}
