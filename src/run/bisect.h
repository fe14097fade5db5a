/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect.h — the search of `perfab bisect` (doc/bisect.md): which commit
 * of a first-parent line made the program worse, when the oracle is a
 * three-way verdict and not a yes or no.
 *
 * The line is commits 0 .. n-1, oldest first: 0 is GOOD, n-1 is BAD. The
 * search starts once a comparison has found BAD worse than GOOD (a FAIL
 * of bad vs good); from then on it holds ranges (good, bad) whose bad end
 * is known worse than its good end (a FAIL, never assumed), and narrows
 * each by comparing a commit mid inside it with both ends in one rotation
 * (run/bisect_compare.h): mid vs good, and bad vs mid. Their verdicts
 * classify mid (pab_bisect_classify):
 *
 *   like good   bad vs mid FAILs, mid vs good does not: (mid, bad)
 *   like bad    mid vs good FAILs, bad vs mid does not: (good, mid)
 *   unlike both both FAIL: two changes, (good, mid) and (mid, bad) are
 *               searched, in that order
 *   spread      both PASS: mid is within the tolerance of either end, so
 *               no one commit made the change; the range ends so
 *   undecided   neither FAILs and not both PASS (after the retries the
 *               caller gives it): mid is set aside and the middle of
 *               another part of the range, first the other half, is tried
 *
 * so that a range narrows only to ends a comparison decided. A commit
 * that cannot be measured (it does not build, or its benchmark fails) is
 * skipped as `git bisect skip` does: the next choice is the commit
 * nearest the middle that is neither skipped nor undecided. A range
 * whose ends are adjacent names its bad end, the first bad commit; a
 * range with no commit left to try inside names the commits it may be.
 *
 * Pure: no I/O, no git, no measuring. The caller asks pab_bisect_next()
 * what to compare, measures it, and tells pab_bisect_record() or
 * pab_bisect_skip(), until pab_bisect_next() says the search is over.
 */
#ifndef PAB_RUN_BISECT_H
#define PAB_RUN_BISECT_H

#include <stddef.h>

#include "pab_stats.h"

/* What is known of one commit of the line. */
enum pab_bisect_mark {
	PAB_BISECT_UNTESTED = 0,
	PAB_BISECT_SKIPPED,    /* it could not be measured (set aside) */
	PAB_BISECT_UNDECIDED,  /* its comparison stayed undecided (set aside) */
	PAB_BISECT_LIKE_GOOD,
	PAB_BISECT_LIKE_BAD,
	PAB_BISECT_UNLIKE_BOTH,
	PAB_BISECT_SPREAD,     /* within the tolerance of both ends */
};

/* "untested", "skipped", "undecided", "like good", "like bad", "unlike
 * both", "between" ("invalid" otherwise). */
const char *pab_bisect_mark_name(enum pab_bisect_mark m);

/*
 * pab_bisect_classify: mid's class from the verdicts of mid vs good and
 * bad vs mid (the table above): PAB_BISECT_LIKE_GOOD, _LIKE_BAD,
 * _UNLIKE_BOTH, _SPREAD or _UNDECIDED. NOT MEASURED counts as
 * INCONCLUSIVE.
 */
enum pab_bisect_mark pab_bisect_classify(enum pab_verdict mid_vs_good,
					 enum pab_verdict bad_vs_mid);

/* How a range ended. */
enum pab_bisect_end {
	PAB_BISECT_FOUND,      /* bad = good + 1: bad is the first bad commit */
	PAB_BISECT_AMBIGUOUS,  /* no commit inside is left to try: the first
				* bad commit is one of good+1 .. bad */
	PAB_BISECT_BETWEEN,    /* a spread change: no one commit of
				* good+1 .. bad made it (a midpoint was within
				* the tolerance of both ends) */
};

/* A range of the line, by index: good < bad. */
struct pab_bisect_range {
	size_t good, bad;
};

/* A range the search finished, and how. */
struct pab_bisect_result {
	struct pab_bisect_range r;
	enum pab_bisect_end end;
};

struct pab_bisect {
	size_t n;                     /* commits of the line (>= 2) */
	enum pab_bisect_mark *mark;   /* n marks (owned) */
	struct pab_bisect_range *todo; /* ranges to narrow; the last is the
					* current one (owned) */
	size_t n_todo, todo_alloc;
	struct pab_bisect_result *done; /* finished ranges, oldest first
					 * (owned) */
	size_t n_done, done_alloc;
};

/* One step: compare commit mid with good and bad (indices). */
struct pab_bisect_step {
	size_t good, mid, bad;
};

/*
 * pab_bisect_init: a line of n >= 2 commits, nothing known; the search
 * has no range until pab_bisect_start(). Release with pab_bisect_release().
 */
void pab_bisect_init(struct pab_bisect *b, size_t n);
void pab_bisect_release(struct pab_bisect *b);

/* BAD was found worse than GOOD: the search of (0, n-1) begins. */
void pab_bisect_start(struct pab_bisect *b);

/*
 * pab_bisect_next: the next comparison into *s and 1; or 0 when no range
 * is left (b->done holds the answer, in line order). Ranges that need no
 * comparison any more (adjacent ends, nothing left to try) are moved to
 * b->done on the way. The choice: inside the current range, split at its
 * undecided commits into parts, the part with the most untested commits
 * (on a tie the later, so the other half of an undecided midpoint comes
 * first), and in it the untested commit nearest its middle (on a tie the
 * earlier).
 */
int pab_bisect_next(struct pab_bisect *b, struct pab_bisect_step *s);

/*
 * pab_bisect_record: s (from pab_bisect_next, the current range's) was
 * compared and mid classified as mark (pab_bisect_classify); the range
 * narrows, splits, ends as spread, or sets mid aside as undecided.
 */
void pab_bisect_record(struct pab_bisect *b, const struct pab_bisect_step *s,
		       enum pab_bisect_mark mark);

/* Commit i (inside the current range) cannot be measured: set aside. */
void pab_bisect_skip(struct pab_bisect *b, size_t i);

#endif /* PAB_RUN_BISECT_H */
