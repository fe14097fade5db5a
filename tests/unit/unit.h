/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unit.h — what the Check unit tests of tests/unit/ share: reading a file
 * of tests/data/ and running a suite. Header-only, so a unit test stays
 * one .c file (tests/local.mk says how to register one).
 */
#ifndef PAB_TEST_UNIT_H
#define PAB_TEST_UNIT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

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

/* unit_run: run every test of s (which it frees); the exit status for main. */
static inline int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* PAB_TEST_UNIT_H */
