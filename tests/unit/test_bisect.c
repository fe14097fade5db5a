/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_bisect.c — the search of `perfab bisect` (src/run/bisect.h) driven
 * by a model oracle: a line of commits, each with a level of work, some
 * that do not build, some whose comparisons stay undecided. A comparison
 * FAILs when its head's level exceeds its base's by more than 2%, PASSes
 * otherwise, and is INCONCLUSIVE when it involves an undecided commit.
 * Checked: the commit named, the changes found in line order, the number
 * of comparisons (at most ceil(log2 n) for one step), skips, the other
 * half tried after an undecided midpoint, spread changes, and the
 * classification table.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/bisect.h"
#include "util.h"

#include "unit.h"

#define MAXN 64

struct model {
	size_t n;
	double level[MAXN];
	int broken[MAXN];     /* does not build */
	int noisy[MAXN];      /* every comparison with it is undecided */
	size_t steps;         /* comparisons made */
	size_t tried[MAXN];   /* the mids, in order */
};

static enum pab_verdict verdict(const struct model *m, size_t base, size_t head)
{
	if (m->noisy[base] || m->noisy[head])
		return PAB_INCONCLUSIVE;
	return m->level[head] / m->level[base] - 1 > 0.02 ? PAB_FAIL : PAB_PASS;
}

/* Run the search to its end on m; b holds the answer (caller releases). */
static void drive(struct model *m, struct pab_bisect *b)
{
	struct pab_bisect_step s;

	pab_bisect_init(b, m->n);
	ck_assert_int_eq(verdict(m, 0, m->n - 1), PAB_FAIL);
	pab_bisect_start(b);
	while (pab_bisect_next(b, &s)) {
		ck_assert(s.good < s.mid && s.mid < s.bad);
		ck_assert_int_eq(b->mark[s.mid], PAB_BISECT_UNTESTED);
		if (m->broken[s.mid]) {
			pab_bisect_skip(b, s.mid);
			continue;
		}
		ck_assert_uint_lt(m->steps, MAXN);
		m->tried[m->steps++] = s.mid;
		pab_bisect_record(b, &s, pab_bisect_classify(verdict(m, s.good, s.mid),
							     verdict(m, s.mid, s.bad)));
	}
}

/* n commits of level 1, and from commit k on 1 + step (k = 0: none). */
static void one_step(struct model *m, size_t n, size_t k, double step)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->n = n;
	for (i = 0; i < n; i++)
		m->level[i] = i >= k ? 1 + step : 1;
}

/* Every position of one 10% step in 16 commits: found, in at most
 * ceil(log2 15) = 4 comparisons after the first. */
START_TEST(single_step_anywhere)
{
	size_t k = (size_t)_i;
	struct model m;
	struct pab_bisect b;

	one_step(&m, 16, k, 0.10);
	drive(&m, &b);
	ck_assert_uint_eq(b.n_done, 1);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_FOUND);
	ck_assert_uint_eq(b.done[0].r.bad, k);
	ck_assert_uint_eq(b.done[0].r.good, k - 1);
	ck_assert_uint_le(m.steps, 4);
	pab_bisect_release(&b);
}
END_TEST

/* Adjacent ends need no comparison at all. */
START_TEST(adjacent_ends)
{
	struct model m;
	struct pab_bisect b;

	one_step(&m, 2, 1, 0.10);
	drive(&m, &b);
	ck_assert_uint_eq(m.steps, 0);
	ck_assert_uint_eq(b.n_done, 1);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_FOUND);
	ck_assert_uint_eq(b.done[0].r.bad, 1);
	pab_bisect_release(&b);
}
END_TEST

/* Two steps: both found, the earlier first. */
START_TEST(two_steps)
{
	struct model m;
	struct pab_bisect b;
	size_t i;

	one_step(&m, 16, 0, 0);
	for (i = 5; i < 16; i++)
		m.level[i] = i >= 12 ? 1.21 : 1.10;
	drive(&m, &b);
	ck_assert_uint_eq(b.n_done, 2);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_FOUND);
	ck_assert_uint_eq(b.done[0].r.bad, 5);
	ck_assert_int_eq(b.done[1].end, PAB_BISECT_FOUND);
	ck_assert_uint_eq(b.done[1].r.bad, 12);
	pab_bisect_release(&b);
}
END_TEST

/* A commit that does not build, away from the step: skipped, and the
 * neighbour nearest the middle taken instead. */
START_TEST(skip_away_from_step)
{
	struct model m;
	struct pab_bisect b;
	size_t i;

	one_step(&m, 16, 11, 0.10);
	m.broken[7] = 1;
	drive(&m, &b);
	ck_assert_uint_eq(b.n_done, 1);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_FOUND);
	ck_assert_uint_eq(b.done[0].r.bad, 11);
	ck_assert_int_eq(b.mark[7], PAB_BISECT_SKIPPED);
	ck_assert_uint_eq(m.tried[0], 8);
	for (i = 0; i < m.steps; i++)
		ck_assert_uint_ne(m.tried[i], 7);
	ck_assert_uint_le(m.steps, 5);
	pab_bisect_release(&b);
}
END_TEST

/* The parent of the step does not build: the answer is one of two. */
START_TEST(skip_next_to_step)
{
	struct model m;
	struct pab_bisect b;

	one_step(&m, 16, 8, 0.10);
	m.broken[7] = 1;
	drive(&m, &b);
	ck_assert_uint_eq(b.n_done, 1);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_AMBIGUOUS);
	ck_assert_uint_eq(b.done[0].r.good, 6);
	ck_assert_uint_eq(b.done[0].r.bad, 8);
	pab_bisect_release(&b);
}
END_TEST

/* An undecided midpoint: the middle of the other half comes next, and
 * the step is still found. */
START_TEST(undecided_tries_other_half)
{
	struct model m;
	struct pab_bisect b;

	one_step(&m, 16, 12, 0.10);
	m.noisy[7] = 1;
	drive(&m, &b);
	ck_assert_uint_eq(m.tried[0], 7);
	ck_assert_uint_eq(m.tried[1], 11);
	ck_assert_int_eq(b.mark[7], PAB_BISECT_UNDECIDED);
	ck_assert_uint_eq(b.n_done, 1);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_FOUND);
	ck_assert_uint_eq(b.done[0].r.bad, 12);
	pab_bisect_release(&b);
}
END_TEST

/* Every commit inside undecided: the search gives up on the whole range. */
START_TEST(all_undecided)
{
	struct model m;
	struct pab_bisect b;
	size_t i;

	one_step(&m, 8, 4, 0.10);
	for (i = 1; i < 7; i++)
		m.noisy[i] = 1;
	drive(&m, &b);
	ck_assert_uint_eq(m.steps, 6);
	ck_assert_uint_eq(b.n_done, 1);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_AMBIGUOUS);
	ck_assert_uint_eq(b.done[0].r.good, 0);
	ck_assert_uint_eq(b.done[0].r.bad, 7);
	pab_bisect_release(&b);
}
END_TEST

/* A drift of 0.2% a commit: BAD is 3% worse, but the midpoint is within
 * the tolerance of both ends, so the range ends as spread. */
START_TEST(spread_change)
{
	struct model m;
	struct pab_bisect b;
	size_t i;

	one_step(&m, 16, 0, 0);
	for (i = 0; i < 16; i++)
		m.level[i] = 1 + 0.002 * (double)i;
	drive(&m, &b);
	ck_assert_uint_eq(b.n_done, 1);
	ck_assert_int_eq(b.done[0].end, PAB_BISECT_BETWEEN);
	ck_assert_uint_eq(m.steps, 1);
	pab_bisect_release(&b);
}
END_TEST

/* bisect.h's table, every pair of verdicts. */
START_TEST(classify_table)
{
	static const enum pab_verdict v[] = { PAB_PASS, PAB_INCONCLUSIVE, PAB_FAIL,
					      PAB_NOT_MEASURED };
	/* [mid vs good][bad vs mid] */
	static const enum pab_bisect_mark want[4][4] = {
		{ PAB_BISECT_SPREAD, PAB_BISECT_UNDECIDED, PAB_BISECT_LIKE_GOOD,
		  PAB_BISECT_UNDECIDED },
		{ PAB_BISECT_UNDECIDED, PAB_BISECT_UNDECIDED, PAB_BISECT_LIKE_GOOD,
		  PAB_BISECT_UNDECIDED },
		{ PAB_BISECT_LIKE_BAD, PAB_BISECT_LIKE_BAD, PAB_BISECT_UNLIKE_BOTH,
		  PAB_BISECT_LIKE_BAD },
		{ PAB_BISECT_UNDECIDED, PAB_BISECT_UNDECIDED, PAB_BISECT_LIKE_GOOD,
		  PAB_BISECT_UNDECIDED },
	};
	size_t i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			ck_assert_msg(pab_bisect_classify(v[i], v[j]) == want[i][j],
				      "mid vs good %s, bad vs mid %s: %s", pab_verdict_name(v[i]),
				      pab_verdict_name(v[j]),
				      pab_bisect_mark_name(pab_bisect_classify(v[i], v[j])));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bisect");
	TCase *tc = tcase_create("search");

	tcase_add_loop_test(tc, single_step_anywhere, 1, 16);
	tcase_add_test(tc, adjacent_ends);
	tcase_add_test(tc, two_steps);
	tcase_add_test(tc, skip_away_from_step);
	tcase_add_test(tc, skip_next_to_step);
	tcase_add_test(tc, undecided_tries_other_half);
	tcase_add_test(tc, all_undecided);
	tcase_add_test(tc, spread_change);
	tcase_add_test(tc, classify_table);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
