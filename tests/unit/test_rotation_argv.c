/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_rotation_argv.c — unit tests of the balanced rotation (model/rotation.c) and shell-free argv
 * splitting, placeholders, joining and the shell-syntax check
 * (model/argv_split.c).
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "model/rotation.h"
#include "util.h"

#include "unit.h"

/* Every arm in every position exactly once per block, for 1..6 arms. */
START_TEST(rotation_balance)
{
	size_t n, rep, k, block;

	for (n = 1; n <= 6; n++) {
		for (block = 0; block < 4; block++) {
			size_t count[6][6] = { { 0 } };

			for (rep = block * n; rep < (block + 1) * n; rep++) {
				size_t order[6], seen[6] = { 0 };

				pab_rotation_order(n, rep, order);
				ck_assert_uint_eq(pab_rotation_block(n, rep), block);
				for (k = 0; k < n; k++) {
					ck_assert_uint_lt(order[k], n);
					seen[order[k]]++;
					count[order[k]][k]++;
				}
				for (k = 0; k < n; k++)
					ck_assert_uint_eq(seen[k], 1); /* a permutation */
			}
			for (k = 0; k < n * n; k++)
				ck_assert_uint_eq(count[k / n][k % n], 1);
		}
	}
}
END_TEST

/* Three arms: two blocks run all six permutations; odd blocks reverse. */
START_TEST(rotation_three_arms_all_permutations)
{
	int seen[3][3][3] = { { { 0 } } };
	size_t rep, k, order[3], fwd[3];

	for (rep = 0; rep < 6; rep++) {
		pab_rotation_order(3, rep, order);
		seen[order[0]][order[1]][order[2]]++;
	}
	for (rep = 0; rep < 27; rep++) {
		size_t a = rep / 9, b = rep / 3 % 3, c = rep % 3;

		ck_assert_int_eq(seen[a][b][c], a != b && b != c && a != c);
	}
	for (rep = 0; rep < 3; rep++) {
		pab_rotation_order(3, rep, fwd);
		pab_rotation_order(3, rep + 3, order);
		for (k = 0; k < 3; k++)
			ck_assert_uint_eq(order[k], fwd[2 - k]);
	}
	ck_assert_uint_eq(pab_rotation_round_up(3, 7), 9);
	ck_assert_uint_eq(pab_rotation_round_up(3, 6), 6);
	/* No arms: every rep is in block 0, and reps are not rounded. */
	ck_assert_uint_eq(pab_rotation_block(0, 5), 0);
	ck_assert_uint_eq(pab_rotation_round_up(0, 5), 5);
	ck_assert_uint_eq(pab_rotation_round_up(3, 1), 3);
	ck_assert_uint_eq(pab_rotation_round_up(2, 5), 6);
}
END_TEST

static void check_split(const char *cmd, const char *const *want, size_t n)
{
	char **argv;
	size_t argc, i;
	const char *why;

	ck_assert_msg(!pab_argv_split(cmd, &argv, &argc, &why), "split '%s'", cmd);
	ck_assert_uint_eq(argc, n);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(argv[i], want[i]);
	ck_assert_ptr_null(argv[n]);
	pab_argv_free(argv);
}

START_TEST(argv_split_quoting)
{
	static const char *const w1[] = { "a", "b", "c" };
	static const char *const w2[] = { "x y", "q\"z", "a\\b" };
	static const char *const w3[] = { "abc", "" };
	static const char *const w4[] = { "$(rm", "-rf", "/)", ";", "`id`", "|", "&&" };
	static const char *const w5[] = { "it's", "a b" };
	char **argv;
	size_t argc;
	const char *why;

	check_split("  a \tb\nc  ", w1, 3);
	check_split("'x y' \"q\\\"z\" 'a\\b'", w2, 3);
	check_split("a'b'\"c\" ''", w3, 2);
	check_split("$(rm -rf /) ; `id` | &&", w4, 7);
	check_split("it\\'s a\\ b", w5, 2);
	ck_assert_int_eq(pab_argv_split("'open", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "unterminated single quote");
	ck_assert_int_eq(pab_argv_split("\"open", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "unterminated double quote");
	ck_assert_int_eq(pab_argv_split("   ", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "empty command");
	ck_assert_int_eq(pab_argv_split("x\\", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "trailing backslash");
}
END_TEST

/* pab_argv_join renders words that split back to themselves. */
/* {NAME} put in for the parameters named, nothing else touched. */
START_TEST(argv_expand_placeholders)
{
	const char *names[] = { "n", "mode" }, *values[] = { "8", "fast" };
	static const char *const cases[] = {
		"{n}", "8",
		"--threads={n},{mode}", "--threads=8,fast",
		"{n}{n}", "88",
		"{N} {x} {} {n", "{N} {x} {} {n",
		"{{n}}", "{8}",
		"", "",
		"{mode}s/{nn}", "fasts/{nn}",
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i += 2) {
		char *got = pab_argv_expand(cases[i], names, values, 2);

		ck_assert_str_eq(got, cases[i + 1]);
		free(got);
	}
	ck_assert_int_eq(pab_argv_mentions("a{n}b", "n"), 1);
	ck_assert_int_eq(pab_argv_mentions("a{nn}b {n", "n"), 0);
	ck_assert_int_eq(pab_argv_mentions("{mode}", "mod"), 0);
}
END_TEST

START_TEST(argv_join_round_trip)
{
	char *words[] = { "plain", "with space", "it's", "$(x)", "", NULL };
	char *joined = pab_argv_join(words, 5), **back;
	size_t argc, i;
	const char *why;

	ck_assert_int_eq(pab_argv_split(joined, &back, &argc, &why), 0);
	ck_assert_uint_eq(argc, 5);
	for (i = 0; i < 5; i++)
		ck_assert_str_eq(back[i], words[i]);
	pab_argv_free(back);
	free(joined);
}
END_TEST

START_TEST(argv_shell_syntax_caught)
{
	static const char *const bad[] = { "|", "||", "&&", ";", ">", ">>", "<", "2>&1", "&",
					   "$HOME", "~/bin", "x$(id)", "`id`", NULL };
	static const char *const fine[] = { "a|b", "--x=1", "x=1", "2>1x", "a;b", "100%",
					    NULL };
	const char *hint;
	char *argv[3] = { "./a", NULL, NULL };
	size_t i;

	for (i = 0; bad[i]; i++) {
		argv[1] = (char *)bad[i];
		ck_assert_msg(pab_argv_shell_syntax(argv, 2, &hint) == 1, "%s", bad[i]);
		ck_assert_ptr_nonnull(hint);
	}
	for (i = 0; fine[i]; i++) {
		argv[1] = (char *)fine[i];
		ck_assert_msg(pab_argv_shell_syntax(argv, 2, &hint) == -1, "%s", fine[i]);
	}
	/* A shell's script is the shell's business. */
	{
		char *sh[] = { "/bin/sh", "-c", "a | b; x=$(id) > f", "$0", NULL };
		char *bash[] = { "bash", "-ec", "`id`", NULL };
		char *notsh[] = { "./a", "-c", "$HOME", NULL };
		char *before[] = { "sh", "$X", "-c", "y", NULL };

		ck_assert_int_eq(pab_argv_shell_syntax(sh, 4, &hint), -1);
		ck_assert_int_eq(pab_argv_shell_syntax(bash, 3, &hint), -1);
		ck_assert_int_eq(pab_argv_shell_syntax(notsh, 3, &hint), 2);
		ck_assert_int_eq(pab_argv_shell_syntax(before, 4, &hint), 1);
	}
	/* NAME=value only in front of the command. */
	argv[0] = "FOO=1";
	argv[1] = "./a";
	ck_assert_int_eq(pab_argv_shell_syntax(argv, 2, &hint), 0);
	ck_assert_ptr_nonnull(strstr(hint, "\"env\""));
	argv[0] = "./a";
	argv[1] = "FOO=1";
	ck_assert_int_eq(pab_argv_shell_syntax(argv, 2, &hint), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rotation-argv");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rotation_balance);
	tcase_add_test(tc, rotation_three_arms_all_permutations);
	tcase_add_test(tc, argv_split_quoting);
	tcase_add_test(tc, argv_expand_placeholders);
	tcase_add_test(tc, argv_join_round_trip);
	tcase_add_test(tc, argv_shell_syntax_caught);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
