/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_workloads_suite.c — unit tests of the suite table and selection
 * (common/suite.h) and of the workload programs' checked parsers
 * (workloads/wl.h). Plain C with a tiny CHECK macro: it must run where
 * the Check framework is not installed, like the programs it tests.
 */
#include "common/suite.h"
#include "wl.h"
#include "wl_params.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__,       \
				__LINE__, #cond);                            \
			failures++;                                          \
		}                                                            \
	} while (0)

static const char *const expected_rows[] = {
	"large-class/8", "large-class-ephemeral/8", "random-large/8",
	"random-large-bursty/8", "random-large/1", "small/8", "larson/1",
	"larson/8", "spin",
};
#define N_EXPECTED (sizeof(expected_rows) / sizeof(expected_rows[0]))

/* How many rows `sel` selects. */
static size_t count_selected(const char *sel)
{
	size_t n = 0;

	for (size_t i = 0; i < pab_suite_count(); i++)
		n += (size_t)pab_suite_select(sel, pab_suite_row(i)->name);
	return n;
}

static void test_table(void)
{
	const struct pab_row_def *first_alloc = pab_suite_find("large-class/8");

	CHECK(pab_suite_count() == N_EXPECTED);
	CHECK(pab_suite_row(pab_suite_count()) == NULL);
	CHECK(pab_suite_find("nope") == NULL);
	CHECK(pab_suite_find(NULL) == NULL);
	CHECK(pab_suite_find("larson") == NULL); /* exact names only */
	for (size_t i = 0; i < N_EXPECTED; i++) {
		const struct pab_row_def *row = pab_suite_row(i);
		const char *slash;

		CHECK(row && strcmp(row->name, expected_rows[i]) == 0);
		if (!row)
			continue;
		CHECK(pab_suite_find(row->name) == row);
		CHECK(row->description && *row->description);
		CHECK(row->n_params > 0 && row->n_params <= PAB_WL_MAX_PARAMS);
		CHECK(row->control == (strcmp(row->name, "small/8") == 0));
		for (size_t k = 0; k < row->n_params; k++) {
			CHECK(row->params[k].key && row->params[k].value &&
			      row->params[k].help && *row->params[k].help);
			/* No value may break PERFAB_PARAMS's k=v,k=v. */
			CHECK(!strchr(row->params[k].value, ','));
			CHECK(pab_row_param(row, row->params[k].key) ==
			      &row->params[k]);
		}
		CHECK(pab_row_param(row, "nope") == NULL);
		slash = strchr(row->name, '/');
		if (strcmp(row->program, "perfab-spin") == 0) {
			CHECK(!slash);
			CHECK(pab_row_param(row, "work") != NULL);
			continue;
		}
		CHECK(strcmp(row->program, "perfab-alloc") == 0);
		/* threads is the /N of the name ... */
		CHECK(slash && pab_row_param(row, "threads") &&
		      strcmp(pab_row_param(row, "threads")->value, slash + 1) == 0);
		/* ... and every allocator row records its parameters in the
		 * same order. */
		CHECK(row->n_params == first_alloc->n_params);
		for (size_t k = 0; k < row->n_params && k < first_alloc->n_params; k++)
			CHECK(strcmp(row->params[k].key, first_alloc->params[k].key) == 0);
	}
	CHECK(strcmp(pab_suite_find("spin")->program, "perfab-spin") == 0);
}

static void test_select(void)
{
	CHECK(count_selected(NULL) == N_EXPECTED);
	CHECK(count_selected("") == N_EXPECTED);
	CHECK(count_selected("|") == 0);
	CHECK(count_selected(" | ") == 0);
	CHECK(count_selected("nope") == 0);
	CHECK(count_selected("=larson/1") == 1);
	CHECK(pab_suite_select("=larson/1", "larson/1"));
	CHECK(!pab_suite_select("=larson/1", "larson/8"));
	CHECK(count_selected("=larson") == 0); /* exact, not a prefix */
	CHECK(count_selected("larson") == 2);
	CHECK(count_selected("large") == 5);
	CHECK(count_selected("/8") == 6);
	CHECK(count_selected("small|=spin") == 2);
	CHECK(count_selected(" =spin | small ") == 2); /* blanks trimmed */
	CHECK(count_selected("small||spin") == 2);    /* empty term ignored */
	CHECK(count_selected("larson|larson/1") == 2); /* no double count */
	CHECK(pab_suite_select("=random-large/1", "random-large/1"));
	CHECK(!pab_suite_select("=random-large/1", "random-large/10"));
	CHECK(!pab_suite_select("large", NULL));
	CHECK(pab_suite_select("x", "x"));
	CHECK(!pab_suite_select("xy", "x"));
	CHECK(!pab_suite_select("=", "x"));
}

static void test_parse(void)
{
	uint64_t v = 7;
	double d = 7;

	CHECK(pab_parse_u64("42", 0, 100, 0, &v) == 0 && v == 42);
	CHECK(pab_parse_u64("0", 0, 100, 0, &v) == 0 && v == 0);
	CHECK(pab_parse_u64("18446744073709551615", 0, UINT64_MAX, 0, &v) == 0 &&
	      v == UINT64_MAX);
	v = 7;
	CHECK(pab_parse_u64("", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64(NULL, 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("abc", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("-1", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("+1", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64(" 1", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("1 ", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("12x", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("0x10", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("101", 0, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("4", 5, 100, 0, &v) < 0);
	CHECK(pab_parse_u64("18446744073709551616", 0, UINT64_MAX, 0, &v) < 0);
	CHECK(v == 7); /* untouched on failure */
	CHECK(pab_parse_u64("96K", 0, UINT64_MAX, 0, &v) < 0); /* no suffix */
	CHECK(pab_parse_u64("96K", 0, UINT64_MAX, 1, &v) == 0 && v == 98304);
	CHECK(pab_parse_u64("4M", 0, UINT64_MAX, 1, &v) == 0 && v == 4194304);
	CHECK(pab_parse_u64("1G", 0, UINT64_MAX, 1, &v) == 0 && v == 1073741824);
	CHECK(pab_parse_u64("1k", 0, UINT64_MAX, 1, &v) < 0);
	CHECK(pab_parse_u64("1KB", 0, UINT64_MAX, 1, &v) < 0);
	CHECK(pab_parse_u64("K", 0, UINT64_MAX, 1, &v) < 0);
	CHECK(pab_parse_u64("17179869184G", 0, UINT64_MAX, 1, &v) < 0);
	CHECK(pab_parse_u64("2G", 0, 1ULL << 30, 1, &v) < 0);

	CHECK(pab_parse_double("0.05", 1e-9, 1e6, &d) == 0 && d == 0.05);
	CHECK(pab_parse_double("1", 1e-9, 1e6, &d) == 0 && d == 1.0);
	d = 7;
	CHECK(pab_parse_double("", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double("0", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double("-1", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double("nan", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double("inf", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double("1e400", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double("1,5", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double(" 1", 1e-9, 1e6, &d) < 0);
	CHECK(pab_parse_double("1 ", 1e-9, 1e6, &d) < 0);
	CHECK(d == 7);
}

static void test_stride(void)
{
	CHECK(pab_wl_latency_stride(0, 0) == 1);
	CHECK(pab_wl_latency_stride(1, 0) == 1);
	CHECK(pab_wl_latency_stride(4096, 0) == 1);
	CHECK(pab_wl_latency_stride(4097, 0) == 2);
	CHECK(pab_wl_latency_stride(8192, 0) == 2);
	CHECK(pab_wl_latency_stride(8193, 0) == 4);
	CHECK(pab_wl_latency_stride(1000000, 0) == 256);
	CHECK(pab_wl_latency_stride(100, 3) == 4);   /* rounded up to 2^k */
	CHECK(pab_wl_latency_stride(100, 64) == 64);
	CHECK(pab_wl_latency_stride(1ULL << 40, 1) == 1ULL << 28);
	for (uint64_t n = 1; n < 100000; n = n * 3 + 1) {
		uint64_t s = pab_wl_latency_stride(n, 0);

		CHECK((s & (s - 1)) == 0);
		CHECK((n + s - 1) / s <= PAB_LATENCY_MAX_SAMPLES);
		CHECK(s == 1 || (n + s / 2 - 1) / (s / 2) > PAB_LATENCY_MAX_SAMPLES);
	}
}

int main(void)
{
	test_table();
	test_select();
	test_parse();
	test_stride();
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	puts("ok: suite table, selection, parsers, latency stride");
	return 0;
}
