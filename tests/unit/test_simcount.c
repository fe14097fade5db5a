/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_simcount.c — exact counts: reading cachegrind's output files
 * (probe/simcount.h) and judging exact cells (pab_judge_cell with
 * exact = 1, stats/verdict.c).
 *
 * The parser is fed what valgrind 3.19 writes with --cache-sim=no, and
 * files of more events (Ir not first), without a summary (a killed run),
 * of another tool and with junk; the collector sums the files of one
 * process tree and removes them. The exact cells: unmoving counts decide
 * at n = 2 with a point interval, a 1% change FAILs, counts that move
 * beyond PAB_EXACT_RESOLUTION_PCT fall back to the sign test (no interval
 * with 3 pairs), and spread_pct says how far they moved.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pab_stats.h"
#include "probe/simcount.h"
#include "util.h"

#include "unit.h"

static const char cg_319[] =
	"desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
	"cmd: /bin/true\n"
	"events: Ir\n"
	"fl=???\n"
	"fn=0x0000000000001100\n"
	"0 21\n"
	"summary: 129339\n";

START_TEST(parse_valgrind_319)
{
	double ir = 0;
	char *why = NULL;

	ck_assert_int_eq(pab_simcount_parse(cg_319, strlen(cg_319), &ir, &why), 0);
	ck_assert(ir == 129339.0);
	ck_assert_ptr_null(why);
}
END_TEST

START_TEST(parse_ir_column)
{
	static const char t[] = "events: Dr Dw Ir\nsummary: 5 6 7000\n";
	static const char t2[] = "events: Ir Dr\nsummary: 42 9";
	double ir = 0;
	char *why = NULL;

	ck_assert_int_eq(pab_simcount_parse(t, strlen(t), &ir, &why), 0);
	ck_assert(ir == 7000.0);
	/* no final newline, not NUL-terminated inside the length */
	ck_assert_int_eq(pab_simcount_parse(t2, strlen(t2), &ir, &why), 0);
	ck_assert(ir == 42.0);
}
END_TEST

START_TEST(parse_refusals)
{
	static const char *const bad[] = {
		"cmd: x\nevents: Ir\n",              /* no summary: a killed run */
		"summary: 12\n",                     /* no events line */
		"events: Dr Dw\nsummary: 1 2\n",     /* no Ir */
		"events: Ir\nsummary: 12x\n",        /* junk */
		"events: Ir\nsummary: -3\n",
		"events: Dr Ir\nsummary: 4\n",       /* too few columns */
		"",
	};
	size_t i;

	for (i = 0; i < NELEMS(bad); i++) {
		double ir = -1;
		char *why = NULL;

		ck_assert_msg(pab_simcount_parse(bad[i], strlen(bad[i]), &ir, &why) == -1,
			      "accepted case %zu", i);
		ck_assert_ptr_nonnull(why);
		ck_assert(ir == -1);
		free(why);
	}
}
END_TEST

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* Whether pab_simcount_collect finds threads in a tree of one file,
 * PREFIX.100, holding fn_line among the lines of a one-process count. */
static int threads_in(const char *prefix, const char *path, const char *fn_line)
{
	struct pab_simcount_tree t;
	char *text = xasprintf("cmd: /bin/prog\nevents: Ir\n%s\nsummary: 10\n", fn_line), *why = NULL;
	int threads;

	write_text(path, text);
	free(text);
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, "/bin/prog", &t, &why), 0);
	threads = t.threads;
	pab_simcount_tree_release(&t);
	return threads;
}

START_TEST(collect_sums_the_tree)
{
	char dir[] = "/tmp/pab-simcount.XXXXXX", *prefix, *p1, *p2, *other, *why = NULL;
	struct pab_simcount_tree t;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	prefix = xasprintf("%s/count", dir);
	p1 = xasprintf("%s.100", prefix);
	p2 = xasprintf("%s.101", prefix);
	other = xasprintf("%s/counter.7", dir); /* another prefix: not ours */
	write_text(p1, "cmd: /bin/prog a b\nevents: Ir\nsummary: 1000\n");
	write_text(p2, "cmd: /bin/child\nevents: Ir\nsummary: 234\n");
	write_text(other, "events: Ir\nsummary: 99\n");
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, "/bin/prog", &t, &why), 0);
	ck_assert(t.ir == 1234.0);
	ck_assert_uint_eq(t.n_files, 2);
	ck_assert_int_eq(t.replaced, 0); /* a child of another program is no exec */
	ck_assert_int_eq(t.threads, 0);
	ck_assert_str_eq(t.top_cmd, "/bin/prog a b");
	pab_simcount_tree_release(&t);
	ck_assert(access(p1, F_OK) && access(p2, F_OK)); /* removed */
	ck_assert(!access(other, F_OK));
	/* None left: the child did not run under valgrind. */
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, "/bin/prog", &t, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "no count"));
	free(why);
	why = NULL;
	/* One that does not parse refuses the sum, and both files go. */
	write_text(p1, "events: Ir\nsummary: 1000\n");
	write_text(p2, "events: Ir\n");
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, NULL, &t, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "summary"));
	ck_assert(access(p1, F_OK) && access(p2, F_OK));
	free(why);
	unlink(other);
	rmdir(dir);
	free(prefix);
	free(p1);
	free(p2);
	free(other);
}
END_TEST

/* What valgrind cannot count as a PMU does: the top process that ended as
 * another program (an exec after it started; a longer path that only
 * starts alike is another program too), and threads in any process. */
START_TEST(collect_tells_exec_and_threads)
{
	char dir[] = "/tmp/pab-simcount.XXXXXX", *prefix, *p1, *p2, *why = NULL;
	struct pab_simcount_tree t;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	prefix = xasprintf("%s/count", dir);
	p1 = xasprintf("%s.100", prefix);
	p2 = xasprintf("%s.101", prefix);
	write_text(p1, "cmd: /bin/prog2 x\nevents: Ir\nsummary: 10\n");
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, "/bin/prog", &t, &why), 0);
	ck_assert_int_eq(t.replaced, 1);
	ck_assert_int_eq(t.threads, 0);
	pab_simcount_tree_release(&t);
	/* env (or nice, taskset, ...) only execs its command: no replacement;
	 * a program merely named like one elsewhere is judged by its name. */
	write_text(p1, "cmd: /bin/prog2 x\nevents: Ir\nsummary: 10\n");
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, "/usr/bin/env", &t, &why), 0);
	ck_assert_int_eq(t.replaced, 0);
	pab_simcount_tree_release(&t);
	write_text(p1, "cmd: /bin/prog2 x\nevents: Ir\nsummary: 10\n");
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, "/usr/bin/envoy", &t, &why), 0);
	ck_assert_int_eq(t.replaced, 1);
	pab_simcount_tree_release(&t);
	write_text(p1, "cmd: /bin/prog\nevents: Ir\nsummary: 10\n");
	write_text(p2, "cmd: /bin/w\nevents: Ir\nfn=start_thread\n1 5\nsummary: 10\n");
	ck_assert_int_eq(pab_simcount_collect(prefix, 100, "/bin/prog", &t, &why), 0);
	ck_assert_int_eq(t.replaced, 0);
	ck_assert_int_eq(t.threads, 1);
	ck_assert(t.ir == 20.0);
	pab_simcount_tree_release(&t);
	/* A function that only starts alike is no thread. */
	ck_assert_int_eq(threads_in(prefix, p1, "fn=start_thread_pool"), 0);
	/* Without libc's debug information there is no start_thread; its
	 * dynamic symbol pthread_create, plain or versioned, tells. */
	ck_assert_int_eq(threads_in(prefix, p1, "fn=pthread_create"), 1);
	ck_assert_int_eq(threads_in(prefix, p1, "fn=pthread_create@@GLIBC_2.34"), 1);
	ck_assert_int_eq(threads_in(prefix, p1, "fn=pthread_create_ex"), 0);
	rmdir(dir);
	free(prefix);
	free(p1);
	free(p2);
}
END_TEST

START_TEST(tool_missing)
{
	char *why = NULL, *tool;

	setenv(PAB_SIMCOUNT_ENV, "/nonexistent/valgrind", 1);
	tool = pab_simcount_tool(&why);
	ck_assert_ptr_null(tool);
	ck_assert_ptr_nonnull(strstr(why, "valgrind is not available ('/nonexistent/valgrind'"));
	free(why);
	unsetenv(PAB_SIMCOUNT_ENV);
}
END_TEST

START_TEST(argv_wraps_the_command)
{
	char *const cmd[] = { "xz", "-6", NULL };
	char **opts, **argv = pab_simcount_argv("/usr/bin/valgrind", "/tmp/d/count", cmd, &opts);
	size_t n = 0, i;
	int tool = 0, nosim = 0, out = 0, novgdb = 0, geometry = 0;

	while (argv[n])
		n++;
	ck_assert_str_eq(argv[0], "/usr/bin/valgrind");
	ck_assert_str_eq(argv[n - 2], "xz");
	ck_assert_str_eq(argv[n - 1], "-6");
	for (i = 0; i < n; i++) {
		tool |= !strcmp(argv[i], "--tool=cachegrind");
		nosim |= !strcmp(argv[i], "--cache-sim=no");
		out |= !strcmp(argv[i], "--cachegrind-out-file=/tmp/d/count.%p");
		novgdb |= !strcmp(argv[i], "--vgdb=no"); /* no FIFOs left in /tmp */
		/* no unused cache model sized from the host's L3 */
		geometry += !strcmp(argv[i], "--I1=32768,8,64") +
			!strcmp(argv[i], "--D1=32768,8,64") + !strcmp(argv[i], "--LL=262144,8,64");
	}
	ck_assert(tool && nosim && out && novgdb);
	ck_assert_int_eq(geometry, 3);
	pab_simcount_argv_free(argv, opts);
}
END_TEST

/* An exact cell of n pairs: base, head and null arrays. */
static void judge(const double *b, const double *h, const double *nl, size_t n,
		  struct pab_cell_result *r)
{
	struct pab_cell_input in;

	memset(&in, 0, sizeof(in));
	in.base = b;
	in.head = h;
	in.null = nl;
	in.n = n;
	in.better = PAB_LOWER_IS_BETTER;
	in.tolerance_pct = 0.5;
	in.conf = 0.95;
	in.rules = PAB_RULES_PERFAB2;
	in.exact = 1;
	ck_assert_int_eq(pab_judge_cell(&in, r), 0);
}

START_TEST(exact_cells)
{
	const double b[] = { 1e8, 1e8, 1e8 }, same[] = { 1e8, 1e8, 1e8 };
	const double up1[] = { 1.01e8, 1.01e8, 1.01e8 };
	const double near[] = { 1e8, 1e8 + 5, 1e8 - 3 };  /* moves 8 ppb-ish: exact */
	const double moved[] = { 1e8, 1.002e8, 0.999e8 }; /* 0.3%: not exact */
	const double gap[] = { 1e8, NAN, 1e8 };
	struct pab_cell_result r;

	judge(b, same, same, 3, &r);
	ck_assert_int_eq(r.verdict, PAB_PASS);
	ck_assert(r.exact && r.change.exists && r.change.lo == 0 && r.change.hi == 0);
	ck_assert(r.spread_pct == 0);
	judge(b, same, same, 2, &r); /* two pairs decide */
	ck_assert_int_eq(r.verdict, PAB_PASS);
	judge(b, up1, same, 3, &r);
	ck_assert_int_eq(r.verdict, PAB_FAIL);
	ck_assert(r.exact && fabs(r.change.lo - 1.0) < 1e-9 && r.change.lo == r.change.hi);
	judge(b, near, same, 3, &r);
	ck_assert_int_eq(r.verdict, PAB_PASS);
	ck_assert(r.exact && r.change.lo < 0 && r.change.hi > 0 && r.spread_pct > 0 &&
		  r.spread_pct <= PAB_EXACT_RESOLUTION_PCT);
	judge(b, moved, same, 3, &r);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert(!r.exact && !r.change.exists);
	ck_assert(fabs(r.spread_pct - 0.3) < 1e-6);
	judge(moved, same, same, 3, &r); /* a base that moves is not exact either */
	ck_assert(!r.exact && !r.change.exists);
	judge(moved, same, NULL, 3, &r); /* nor without a null arm */
	ck_assert(!r.exact && !r.change.exists);
	judge(b, same, moved, 3, &r); /* a null arm that moves: no exact guard */
	ck_assert(!r.exact);
	ck_assert(fabs(r.spread_pct - 0.3) < 1e-6); /* and its spread is the cell's */
	judge(gap, same, same, 3, &r); /* a missing value: its pair is left out, two decide */
	ck_assert_int_eq(r.verdict, PAB_PASS);
	ck_assert(r.exact && r.change.n == 2 && r.change.lo == 0 && r.change.hi == 0);
	judge(b, same, same, 1, &r); /* one pair is not enough */
	ck_assert(!r.exact);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
}
END_TEST

/*
 * An exact range is the interval of every paired change: coverage exactly
 * 1, ranks 1 and n, its ends the smallest and largest change; the cell's
 * spread is the arm's (max - min) / median to the last digit. Bad inputs
 * are refused: a confidence of 0 or 1, values missing on one side.
 */
START_TEST(exact_range_fields)
{
	const double b[] = { 1e8, 1e8, 1e8 }, same[] = { 1e8, 1e8, 1e8 };
	const double near[] = { 1e8, 1e8 + 5, 1e8 - 3 };
	struct pab_cell_input in;
	struct pab_cell_result r;

	judge(b, near, same, 3, &r);
	ck_assert(r.exact);
	ck_assert(r.change.coverage == 1.0);
	ck_assert_uint_eq(r.change.lo_rank, 1);
	ck_assert_uint_eq(r.change.hi_rank, 3);
	ck_assert_int_eq(r.change.exists, 1);
	ck_assert_uint_eq(r.change.n, 3);
	ck_assert(fabs(r.change.lo - -3e-6) < 1e-15 && fabs(r.change.hi - 5e-6) < 1e-15);
	ck_assert(fabs(r.spread_pct - 8e-6) < 8e-6 * 1e-12);
	memset(&in, 0, sizeof(in));
	in.base = b;
	in.head = near;
	in.n = 3;
	in.better = PAB_LOWER_IS_BETTER;
	in.tolerance_pct = 0.5;
	in.rules = PAB_RULES_PERFAB2;
	in.exact = 1;
	in.conf = 1.0;
	ck_assert_int_ne(pab_judge_cell(&in, &r), 0);
	in.conf = 0.0;
	ck_assert_int_ne(pab_judge_cell(&in, &r), 0);
	in.conf = 0.95;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	in.head = NULL;
	ck_assert_int_ne(pab_judge_cell(&in, &r), 0);
}
END_TEST

/*
 * An exact range that straddles the tolerance is undecidable at once:
 * more reps cannot narrow it, so no estimate of reps, and the tolerance
 * that would PASS it is its upper end. A head at the tolerance itself,
 * whatever the rounding of its change, is decided or undecidable at once.
 */
START_TEST(exact_straddle_undecidable)
{
	const double b[] = { 1e8, 1e8, 1e8 };
	const double h[] = { 1.00499e8, 1.00501e8, 1.005e8 }; /* moves 0.002%: exact */
	const double at[] = { 1.005e8, 1.005e8, 1.005e8 };
	struct pab_cell_result r;
	struct pab_outlook o;

	judge(b, h, b, 3, &r);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert(r.exact);
	ck_assert_uint_eq(r.reps_needed, 0);
	ck_assert_int_eq(pab_cell_outlook(&r, 96, &o), 1);
	ck_assert_uint_eq(o.reps_needed, 0);
	ck_assert(fabs(o.tolerance_pct - 0.501) < 1e-6);
	ck_assert(!o.fail_reachable);
	judge(b, at, b, 3, &r);
	ck_assert(r.exact);
	ck_assert(r.verdict != PAB_INCONCLUSIVE || pab_cell_outlook(&r, 96, &o) == 1);
}
END_TEST

/* Without exact, identical values are judged as before (no interval < 6). */
START_TEST(not_exact_unchanged)
{
	const double b[] = { 5, 5, 5 };
	struct pab_cell_input in;
	struct pab_cell_result r;

	memset(&in, 0, sizeof(in));
	in.base = b;
	in.head = b;
	in.n = 3;
	in.tolerance_pct = 2;
	in.conf = 0.95;
	ck_assert_int_eq(pab_judge_cell(&in, &r), 0);
	ck_assert_int_eq(r.verdict, PAB_INCONCLUSIVE);
	ck_assert(!r.exact);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("simcount");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_valgrind_319);
	tcase_add_test(tc, parse_ir_column);
	tcase_add_test(tc, parse_refusals);
	tcase_add_test(tc, collect_sums_the_tree);
	tcase_add_test(tc, collect_tells_exec_and_threads);
	tcase_add_test(tc, exact_straddle_undecidable);
	tcase_add_test(tc, tool_missing);
	tcase_add_test(tc, argv_wraps_the_command);
	tcase_add_test(tc, exact_cells);
	tcase_add_test(tc, exact_range_fields);
	tcase_add_test(tc, not_exact_unchanged);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
