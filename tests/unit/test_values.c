/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_values.c — unit tests of the values a user types: numbers in both syntaxes
 * (common/numparse.c), checked integers, durations and metric lists
 * (run/runconf.c), the did-you-mean of a misspelt name, and the table of
 * test hooks, and reading a file within a bound (util.c).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/numparse.h"
#include "run/runconf.h"
#include "test_hooks.h"
#include "util.h"

#include "unit.h"

/* The one number parser keeps both callers' syntax, by flag. */
START_TEST(numparse_both_syntaxes)
{
	uint64_t u = 0;
	double d = 0;
	long l = 0;

	ck_assert_int_eq(pab_num_u64("7", 0, 100, PAB_NUM_DIGIT_FIRST, &u), 0);
	ck_assert_uint_eq(u, 7);
	ck_assert_int_eq(pab_num_u64("+7", 0, 100, 0, &u), -1);
	ck_assert_int_eq(pab_num_u64("\t7", 0, 100, PAB_NUM_DIGIT_FIRST, &u), -1);
	ck_assert_int_eq(pab_num_u64("4K", 0, UINT64_MAX, 0, &u), -1);
	ck_assert_int_eq(pab_num_u64("4K", 0, UINT64_MAX, PAB_NUM_SIZES, &u), 0);
	ck_assert_uint_eq(u, 4096);
	ck_assert_int_eq(pab_num_double("1.5", 0, 2, PAB_NUM_NO_TAB, &d), 0);
	ck_assert_double_eq(d, 1.5);
	ck_assert_int_eq(pab_num_double("\t1.5", 0, 2, PAB_NUM_NO_TAB, &d), -1);
	ck_assert_int_eq(pab_num_double(" 1.5", 0, 2, 0, &d), -1);
	ck_assert_int_eq(pab_num_long("-3", -5, 5, &l), 0);
	ck_assert_int_eq(l, -3);
	ck_assert_int_eq(pab_num_long(" 3", -5, 5, &l), -1);
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

START_TEST(durations_and_metric_lists)
{
	double sec = -1;
	int judged[PAB_M_COUNT];
	char *why = NULL;

	ck_assert_int_eq(pab_parse_duration("90", &sec), 0);
	ck_assert_double_eq(sec, 90);
	ck_assert_int_eq(pab_parse_duration("90s", &sec), 0);
	ck_assert_double_eq(sec, 90);
	ck_assert_int_eq(pab_parse_duration("10m", &sec), 0);
	ck_assert_double_eq(sec, 600);
	ck_assert_int_eq(pab_parse_duration("1.5h", &sec), 0);
	ck_assert_double_eq(sec, 5400);
	ck_assert_int_eq(pab_parse_duration("0", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("-5m", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("+5m", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("5x", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("m", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("200h", &sec), -1); /* > a week */
	ck_assert_int_eq(pab_parse_duration(NULL, &sec), -1);

	ck_assert_int_eq(pab_parse_metrics("cpu,peak_rss", judged, &why), 0);
	ck_assert_int_eq(judged[PAB_M_CPU], 1);
	ck_assert_int_eq(judged[PAB_M_PEAK_RSS], 1);
	ck_assert_int_eq(judged[PAB_M_THROUGHPUT], 0);
	ck_assert_int_eq(pab_parse_metrics("p99", judged, &why), 0);
	ck_assert_int_eq(judged[PAB_M_P99], 1);
	ck_assert_int_eq(judged[PAB_M_CPU], 0);
	ck_assert_int_eq(pab_parse_metrics("cpu,,wall", judged, &why), -1);
	ck_assert_ptr_nonnull(why);
	free(why);
	why = NULL;
	ck_assert_int_eq(pab_parse_metrics("rss_floor", judged, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "not a metric that can be judged"));
	free(why);
}
END_TEST

START_TEST(nearest_for_did_you_mean)
{
	static const char *const cmds[] = { "run", "ledger", "gate", "pool", "memgate",
					    "workloads", "env", "help" };

	ck_assert_str_eq(pab_nearest("rnu", cmds, 8), "run");
	ck_assert_str_eq(pab_nearest("legder", cmds, 8), "ledger");
	ck_assert_str_eq(pab_nearest("workload", cmds, 8), "workloads");
	ck_assert_ptr_null(pab_nearest("compare", cmds, 8));
	ck_assert_ptr_null(pab_nearest("x", cmds, 8));
}
END_TEST

/* Every PERFAB_TEST_* hook in the table: named once, described, its test
 * there, and read through the table. */
START_TEST(test_hooks_table)
{
	const char *top = getenv("top_srcdir");
	size_t i, k;

	for (i = 0; i < PAB_TEST_HOOK_COUNT; i++) {
		const struct pab_test_hook_def *h = &pab_test_hooks[i];

		ck_assert_ptr_nonnull(h->name);
		ck_assert_int_eq(strncmp(h->name, "PERFAB_TEST_", 12), 0);
		ck_assert(h->what && *h->what && h->test && *h->test);
		for (k = 0; k < i; k++)
			ck_assert_str_ne(h->name, pab_test_hooks[k].name);
		if (top) {
			char *path = xasprintf("%s/%s", top, h->test);

			ck_assert_msg(!access(path, R_OK), "%s: no %s", h->name, path);
			free(path);
		}
	}
	ck_assert_int_eq(setenv("PERFAB_TEST_HISTORY_HOLD", "x", 1), 0);
	ck_assert_str_eq(pab_test_hook(PAB_TEST_HISTORY_HOLD), "x");
	unsetenv("PERFAB_TEST_HISTORY_HOLD");
	ck_assert_ptr_null(pab_test_hook(PAB_TEST_HISTORY_HOLD));
}
END_TEST

/* read_file_max: a file of exactly the bound is read whole, one byte more
 * is EFBIG; a file whose size stat() does not know (/proc) is read to its
 * end; the result is always terminated. */
START_TEST(read_file_bounds)
{
	char path[] = "/tmp/perfab-test-read-XXXXXX";
	char big[10000];
	size_t len = 0;
	char *s;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	memset(big, 'x', sizeof(big));
	ck_assert_int_eq(write(fd, big, sizeof(big)), (int)sizeof(big));
	close(fd);
	s = read_file_max(path, sizeof(big), &len);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(len, sizeof(big));
	ck_assert_uint_eq(strlen(s), sizeof(big));
	free(s);
	errno = 0;
	ck_assert_ptr_null(read_file_max(path, sizeof(big) - 1, &len));
	ck_assert_int_eq(errno, EFBIG);
	unlink(path);
	s = read_file_max("/proc/self/status", 1 << 20, &len);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_gt(len, 0);
	ck_assert_uint_eq(strlen(s), len);
	ck_assert_ptr_nonnull(strstr(s, "VmPeak"));
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("values");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, numparse_both_syntaxes);
	tcase_add_test(tc, parse_numbers_checked);
	tcase_add_test(tc, durations_and_metric_lists);
	tcase_add_test(tc, nearest_for_did_you_mean);
	tcase_add_test(tc, test_hooks_table);
	tcase_add_test(tc, read_file_bounds);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
