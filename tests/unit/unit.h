/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unit.h — what the Check unit tests of tests/unit/ share: reading a file
 * of tests/data/ and running a suite. Header-only, so a unit test stays
 * one .c file (tests/local.mk says how to register one).
 */
#ifndef PAB_TEST_UNIT_H
#define PAB_TEST_UNIT_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "util.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/*
 * unit_data: the contents of tests/data/<name> under $top_srcdir (the
 * harness exports it; "." when unset), NUL-terminated, its length in *len
 * when len is not NULL. Fails the test when the file cannot be read.
 * Caller frees.
 */
static inline char *unit_data(const char *name, size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	size_t n;
	char *text;

	snprintf(path, sizeof(path), "%s/tests/data/%s", top ? top : ".", name);
	text = read_file_max(path, (size_t)1 << 30, &n);
	if (!text)
		ck_abort_msg("cannot read '%s' (is top_srcdir set?)", path);
	if (len)
		*len = n;
	return text;
}

/*
 * The number of cases that called unit_skip, in memory shared with the
 * processes Check forks for each case (NULL before unit_run maps it).
 */
static int *unit_skipped;

/*
 * unit_skip: the calling case cannot run on this machine (no PMU, no
 * usable cgroup, not root): print "SKIP: <case>: <reason>" to stderr and
 * count it, so that unit_run exits 77 (automake's SKIP) unless a case
 * failed. The case returns after calling it.
 */
__attribute__((format(printf, 2, 3), unused))
static void unit_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "SKIP: %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (unit_skipped)
		__atomic_add_fetch(unit_skipped, 1, __ATOMIC_SEQ_CST);
}

/*
 * unit_run: run every test of s (which it frees); the exit status for main:
 * EXIT_FAILURE when a case failed, else 77 when a case called unit_skip,
 * else EXIT_SUCCESS.
 */
static inline int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed, skipped;

	unit_skipped = mmap(NULL, sizeof(*unit_skipped), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (unit_skipped == MAP_FAILED)
		unit_skipped = NULL;
	else
		*unit_skipped = 0;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	skipped = unit_skipped ? *unit_skipped : 0;
	if (failed)
		return EXIT_FAILURE;
	if (skipped) {
		fprintf(stderr, "SKIP: %d case(s) could not run here (the others passed)\n", skipped);
		return 77;
	}
	return EXIT_SUCCESS;
}

#endif /* PAB_TEST_UNIT_H */
