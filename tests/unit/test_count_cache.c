/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_count_cache.c — the count cache file (store/count_cache.h): a
 * round trip through the file, what a file that is not a cache and
 * malformed entries become (ignored, with a note, never served), a second
 * writer's entries kept by the next save, and the default path's rules.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/count_cache.h"
#include "util.h"

#include "unit.h"

static const char key_a[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char key_b[] = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

/* A new scratch path (the file absent). */
static char *scratch(void)
{
	char tmpl[] = "/tmp/test_count_cache.XXXXXX";
	int fd = mkstemp(tmpl);

	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(tmpl);
	return xstrdup(tmpl);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(round_trip)
{
	struct pab_count_cache c, d;
	char *path = scratch(), *note = NULL, *why = NULL, key[65];
	double x = 0;

	ck_assert_int_eq(pab_count_cache_load(&c, path, &note), 0);
	ck_assert_ptr_null(note); /* absent: empty, nothing to say */
	ck_assert(!pab_count_cache_get(&c, key_a, &x));
	pab_count_cache_put(&c, key_a, 25052171);
	ck_assert(pab_count_cache_get(&c, key_a, &x) && x == 25052171);
	ck_assert_int_eq(pab_count_cache_save(&c, 0, &why), 0);
	ck_assert_int_eq(pab_count_cache_load(&d, path, &note), 0);
	ck_assert_ptr_null(note);
	ck_assert(pab_count_cache_get(&d, key_a, &x) && x == 25052171);
	ck_assert(!pab_count_cache_get(&d, key_b, &x));
	/* A key is the SHA-256 of its text. */
	pab_count_cache_key("abc", key);
	ck_assert_str_eq(key, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	pab_count_cache_release(&c);
	pab_count_cache_release(&d);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(not_a_cache_ignored)
{
	static const char *const texts[] = {
		"{\"schema\": \"perfab-count-cache/1\", \"entries\": [",
		"{\"schema\": \"perfab-artifact/1\", \"entries\": []}",
		"[]",
		"",
	};
	struct pab_count_cache c;
	char *path = scratch(), *note = NULL;
	double x;
	size_t i;

	for (i = 0; i < NELEMS(texts); i++) {
		write_text(path, texts[i]);
		ck_assert_int_eq(pab_count_cache_load(&c, path, &note), 0);
		ck_assert_msg(note && strstr(note, "is ignored"), "text %zu: %s", i,
			      note ? note : "(no note)");
		ck_assert(!pab_count_cache_get(&c, key_a, &x));
		free(note);
		pab_count_cache_release(&c);
	}
	unlink(path);
	free(path);
}
END_TEST

START_TEST(malformed_entries_skipped)
{
	struct pab_count_cache c;
	char *path = scratch(), *note = NULL, *text;
	double x = 0;

	/* A key in upper case, one too short, a count that is negative, one
	 * not whole, one too large to be exact, one a string: 6 skipped; the
	 * sound entry is served. */
	text = xasprintf("{\"schema\": \"perfab-count-cache/1\", \"entries\": ["
			 "{\"key\": \"%.64s\", \"instructions\": 5},"
			 "{\"key\": \"abc\", \"instructions\": 5},"
			 "{\"key\": \"%s\", \"instructions\": -5},"
			 "{\"key\": \"%s\", \"instructions\": 5.5},"
			 "{\"key\": \"%s\", \"instructions\": 1e300},"
			 "{\"key\": \"%s\", \"instructions\": \"many\"},"
			 "{\"key\": \"%s\", \"instructions\": 1234}]}",
			 "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
			 key_a, key_a, key_a, key_a, key_b);
	write_text(path, text);
	ck_assert_int_eq(pab_count_cache_load(&c, path, &note), 0);
	ck_assert_ptr_nonnull(note);
	ck_assert_msg(strstr(note, "6 malformed entries ignored"), "%s", note);
	ck_assert(!pab_count_cache_get(&c, key_a, &x));
	ck_assert(pab_count_cache_get(&c, key_b, &x) && x == 1234);
	free(note);
	free(text);
	pab_count_cache_release(&c);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(second_writer_kept)
{
	struct pab_count_cache one, two, after;
	char *path = scratch(), *note = NULL, *why = NULL;
	double x = 0;

	/* Both read the empty file; the first writes key_a, then the second
	 * writes key_b: the file keeps both. */
	ck_assert_int_eq(pab_count_cache_load(&one, path, &note), 0);
	ck_assert_int_eq(pab_count_cache_load(&two, path, &note), 0);
	pab_count_cache_put(&one, key_a, 100);
	ck_assert_int_eq(pab_count_cache_save(&one, 0, &why), 0);
	pab_count_cache_put(&two, key_b, 200);
	ck_assert_int_eq(pab_count_cache_save(&two, 0, &why), 0);
	ck_assert_int_eq(pab_count_cache_load(&after, path, &note), 0);
	ck_assert(pab_count_cache_get(&after, key_a, &x) && x == 100);
	ck_assert(pab_count_cache_get(&after, key_b, &x) && x == 200);
	pab_count_cache_release(&after);
	/* A key written again holds its newest count, once. */
	pab_count_cache_put(&one, key_b, 300);
	ck_assert_int_eq(pab_count_cache_save(&one, 0, &why), 0);
	ck_assert_int_eq(pab_count_cache_load(&after, path, &note), 0);
	ck_assert(pab_count_cache_get(&after, key_b, &x) && x == 300);
	ck_assert_uint_eq(after.n, 2);
	pab_count_cache_release(&one);
	pab_count_cache_release(&two);
	pab_count_cache_release(&after);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(default_path)
{
	char *p;

	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	setenv("HOME", "/home/u", 1);
	p = pab_count_cache_default_path();
	ck_assert_str_eq(p, "/x/cache/perfab/counts.json");
	free(p);
	/* A relative XDG_CACHE_HOME is ignored (the XDG rules). */
	setenv("XDG_CACHE_HOME", "rel", 1);
	p = pab_count_cache_default_path();
	ck_assert_str_eq(p, "/home/u/.cache/perfab/counts.json");
	free(p);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	ck_assert_ptr_null(pab_count_cache_default_path());
}
END_TEST

int main(void)
{
	Suite *s = suite_create("count_cache");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, not_a_cache_ignored);
	tcase_add_test(tc, malformed_entries_skipped);
	tcase_add_test(tc, second_writer_kept);
	tcase_add_test(tc, default_path);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
