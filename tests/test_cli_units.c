/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_cli_units.c — unit tests of the CLI modules linked from
 * libperfab.a: the rotate-reverse/1 protocol, shell-free argv splitting,
 * the artifact round trip and its balance check.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv_split.h"
#include "artifact.h"
#include "experiment.h"
#include "rotation.h"
#include "util.h"

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

static void make_experiment(struct pab_experiment *e, size_t reps)
{
	static const char *names[] = { "base", "head", "null" };
	size_t a, r;

	pab_experiment_init(e);
	e->seed = 42;
	e->n_arms = 3;
	e->arms = xcalloc(3, sizeof(*e->arms));
	for (a = 0; a < 3; a++) {
		e->arms[a].name = xstrdup(names[a]);
		e->arms[a].argv = xcalloc(2, sizeof(char *));
		e->arms[a].argv[0] = xstrdup("/bin/true");
		e->arms[a].argc = 1;
	}
	pab_kv_set(&e->arms[1].env, &e->arms[1].n_env, "LD_PRELOAD", "x.so");
	e->n_rows = 1;
	e->rows = xcalloc(1, sizeof(*e->rows));
	e->rows[0].name = xstrdup("row/1");
	e->rows[0].argv = xcalloc(1, sizeof(char *));
	pab_kv_set(&e->rows[0].params, &e->rows[0].n_params, "threads", "1");
	for (r = 0; r < reps; r++) {
		struct pab_rep *rep = pab_row_add_rep(&e->rows[0], 3);

		rep->block = pab_rotation_block(3, r);
		pab_rotation_order(3, r, rep->order);
		for (a = 0; a < 3; a++) {
			rep->result[a].m[PAB_M_WALL] = 1.0 + 0.01 * (double)(r + a);
			rep->result[a].m[PAB_M_MINOR_FAULTS] = 0; /* a real 0 */
			pab_arm_result_null(&rep->result[a], PAB_M_CYCLES, "no PMU");
		}
	}
	e->reps = e->max_reps = reps;
	e->complete = 1;
}

START_TEST(artifact_round_trip)
{
	struct pab_experiment e, back;
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, *file;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	make_experiment(&e, 6);
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	ck_assert_int_eq(pab_artifact_load(path, &back, &why), 0);
	ck_assert_uint_eq(back.n_arms, 3);
	ck_assert_str_eq(back.arms[1].name, "head");
	ck_assert_str_eq(pab_kv_get(back.arms[1].env, back.arms[1].n_env, "LD_PRELOAD"), "x.so");
	ck_assert_uint_eq(back.rows[0].n_reps, 6);
	ck_assert_uint_eq(back.seed, 42);
	ck_assert(back.complete);
	ck_assert_double_eq_tol(back.rows[0].reps[5].result[2].m[PAB_M_WALL], 1.07, 1e-12);
	/* A measured 0 stays 0; an unmeasured value stays NaN with its reason. */
	ck_assert(back.rows[0].reps[0].result[0].m[PAB_M_MINOR_FAULTS] == 0);
	ck_assert(isnan(back.rows[0].reps[0].result[0].m[PAB_M_CYCLES]));
	ck_assert_str_eq(back.rows[0].reps[0].result[0].reason[PAB_M_CYCLES], "no PMU");
	ck_assert_uint_eq(back.rows[0].reps[3].order[0], e.rows[0].reps[3].order[0]);
	ck_assert_int_eq(pab_experiment_check_balanced(&back, &why), 0);
	pab_experiment_release(&back);
	/* No temp file is left next to the artifact. */
	file = xasprintf("%s.tmp.%ld", path, (long)getpid());
	ck_assert_int_ne(access(file, F_OK), 0);
	free(file);
	unlink(path);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(artifact_save_failure_keeps_previous)
{
	struct pab_experiment e;
	char *why = NULL;

	make_experiment(&e, 3);
	ck_assert_int_eq(pab_artifact_save(&e, "/nonexistent-dir/x.json", &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent-dir/x.json"));
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(balance_check_rejects)
{
	struct pab_experiment e;
	char *why;

	make_experiment(&e, 5); /* not whole blocks */
	ck_assert_int_eq(pab_experiment_check_balanced(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "whole number"));
	free(why);
	pab_experiment_release(&e);
	make_experiment(&e, 6);
	e.rows[0].reps[1].order[0] = e.rows[0].reps[0].order[0];
	e.rows[0].reps[1].order[1] = e.rows[0].reps[0].order[1];
	e.rows[0].reps[1].order[2] = e.rows[0].reps[0].order[2];
	ck_assert_int_eq(pab_experiment_check_balanced(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "position"));
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(term_safe_escapes_controls)
{
	/* Control characters, DEL, C1 and broken UTF-8 escaped; UTF-8 kept. */
	ck_assert_str_eq(pab_term_safe("a\nb\033[31m\007"), "a\\nb\\x1b[31m\\x07");
	ck_assert_str_eq(pab_term_safe("t\tr\r\\"), "t\\tr\\r\\\\");
	ck_assert_str_eq(pab_term_safe("\x7f\xc2\x9b\xff"), "\\x7f\\xc2\\x9b\\xff");
	ck_assert_str_eq(pab_term_safe("r\xc3\xa9sum\xc3\xa9 \xc2\xb7 \xe2\x80\x94"),
			 "r\xc3\xa9sum\xc3\xa9 \xc2\xb7 \xe2\x80\x94");
	ck_assert_str_eq(pab_term_safe("\xed\xa0\x80"), "\\xed\\xa0\\x80"); /* a surrogate */
	ck_assert_str_eq(pab_term_safe(NULL), "(null)");
}
END_TEST

START_TEST(own_temp_names)
{
	long pid = 0;

	ck_assert(pab_is_own_temp("a.json", "a.json.tmp.123.0123456789abcdef", &pid));
	ck_assert_int_eq(pid, 123);
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.123", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.notes", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.12x.0123456789abcdef", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.123.0123456789ABCDEF", &pid));
	ck_assert(!pab_is_own_temp("a.json", "b.json.tmp.123.0123456789abcdef", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.123.0123456789abcdef0", &pid));
}
END_TEST

START_TEST(protocol_check_rejects)
{
	struct pab_experiment e;
	size_t r;
	char *why;

	pab_experiment_init(&e);
	e.arms = xcalloc(2, sizeof(*e.arms));
	e.n_arms = 2;
	e.arms[0].name = xstrdup("base");
	e.arms[1].name = xstrdup("head");
	e.rows = xcalloc(1, sizeof(*e.rows));
	e.n_rows = 1;
	e.rows[0].name = xstrdup("r");
	for (r = 0; r < 5; r++) {
		struct pab_rep *rep = pab_row_add_rep(&e.rows[0], 2);

		rep->block = pab_rotation_block(2, r);
		pab_rotation_order(2, r, rep->order);
	}
	ck_assert_int_eq(pab_experiment_check_protocol(&e, &why), 0); /* a partial block is fine */
	e.rows[0].reps[3].block = 7;
	ck_assert_int_eq(pab_experiment_check_protocol(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "block 7, not 1"));
	free(why);
	e.rows[0].reps[3].block = 1;
	e.rows[0].reps[2].order[0] = 0; /* block 1 starts reversed: head first */
	e.rows[0].reps[2].order[1] = 1;
	ck_assert_int_eq(pab_experiment_check_protocol(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "rep 3: the arm order"));
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(parse_numbers_checked)
{
	uint64_t u;
	double d;
	long l;

	ck_assert_int_eq(parse_u64("12", 0, 100, &u), 0);
	ck_assert_uint_eq(u, 12);
	ck_assert_int_eq(parse_u64("", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("12x", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("-1", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("101", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("99999999999999999999999", 0, UINT64_MAX, &u), -1);
	ck_assert_int_eq(parse_double("2.5", 0, 10, &d), 0);
	ck_assert_int_eq(parse_double("nan", 0, 10, &d), -1);
	ck_assert_int_eq(parse_double("inf", 0, 1e308, &d), -1);
	ck_assert_int_eq(parse_double("1e999", 0, 1e308, &d), -1);
	ck_assert_int_eq(parse_long("-5", -10, 10, &l), 0);
	ck_assert_int_eq(parse_long("5 ", -10, 10, &l), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli-units");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, rotation_balance);
	tcase_add_test(tc, rotation_three_arms_all_permutations);
	tcase_add_test(tc, argv_split_quoting);
	tcase_add_test(tc, argv_join_round_trip);
	tcase_add_test(tc, artifact_round_trip);
	tcase_add_test(tc, artifact_save_failure_keeps_previous);
	tcase_add_test(tc, balance_check_rejects);
	tcase_add_test(tc, parse_numbers_checked);
	tcase_add_test(tc, term_safe_escapes_controls);
	tcase_add_test(tc, own_temp_names);
	tcase_add_test(tc, protocol_check_rejects);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
