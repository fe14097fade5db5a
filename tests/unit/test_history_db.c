/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_history_db.c — the history database (store/history_db.h) on a
 * scratch file: a record reads back figure for figure (NaN as NULL as
 * NaN), the same artifact digest twice is one merge, the series come
 * sorted by row, arm and metric with their points in record order, the
 * filters (branch, since, last, row, metric) select what they say, an
 * unknown `since` and a newer schema are refused, a missing file is not
 * created by a reader (a newer schema is written with the SQLite API); a
 * merge is the runs it holds (journal id and seed) or its measurements:
 * the same runs under another digest are the merge recorded, runs shared
 * with recorded merges are refused, and a reader records nothing; a FIFO
 * that takes the database's place after the look is refused by the open.
 */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "model/pool.h"
#include "store/history_db.h"
#include "store/history_query.h"
#include "unit.h"

static char dir[] = "/tmp/perfab-history-db.XXXXXX";
static char path[64];

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/h.db", dir);
}

static void teardown(void)
{
	pab_remove_tree(dir);
	memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
}

/* Record merge `sha` with commit `commit` on `branch`: cells of rows b
 * and a (in that order) x metrics cpu and wall, change = base_change + k. */
static int64_t record(struct pab_history_db *db, const char *sha, const char *commit,
		      const char *branch, double base_change, int *already)
{
	struct pab_history_cell c[4];
	const struct pab_history_label lab[] = { { "runner", "vm1" } };
	struct pab_history_merge m = { 0 };
	char *why;
	int64_t id;
	int k;

	for (k = 0; k < 4; k++) {
		c[k].row = k < 2 ? "b" : "a";
		c[k].arm = "head";
		c[k].metric = k % 2 ? "wall" : "cpu";
		c[k].verdict = "INCONCLUSIVE";
		c[k].base_median = 1.0;
		c[k].head_median = NAN;
		c[k].change_pct = base_change + k;
		c[k].lo_pct = base_change + k - 1;
		c[k].hi_pct = base_change + k + 1;
		c[k].coverage = 0.96875;
		c[k].tolerance_pct = 2.0;
		c[k].n = 6;
	}
	m.artifact_sha256 = sha;
	m.commit = commit;
	m.branch = branch;
	m.recorded_at = 1700000000;
	m.labels = lab;
	m.n_labels = 1;
	ck_assert_msg(pab_history_record(db, &m, c, 4, &id, already, &why) == 0, "%s", why);
	return id;
}

START_TEST(record_and_read_back)
{
	struct pab_history_filter f = { 0 };
	struct pab_history_set set;
	struct pab_history_db *db;
	int already, migrated = -1;
	char *why;

	ck_assert_int_eq(pab_history_open(path, 1, &db, &migrated, &why), 0);
	ck_assert_int_eq(migrated, 0);
	ck_assert_int_eq(record(db, "s1", "c1", "main", 1.0, &already), 1);
	ck_assert_int_eq(already, 0);
	ck_assert_int_eq(record(db, "s2", "c2", "main", 2.0, &already), 2);
	ck_assert_int_eq(record(db, "s1", "other", "main", 9.0, &already), 1);
	ck_assert_int_eq(already, 1);
	ck_assert_int_eq(pab_history_query(db, &f, &set, &why), 0);
	ck_assert_uint_eq(set.merges, 2);
	ck_assert_uint_eq(set.n, 4);
	/* Sorted: (a, cpu), (a, wall), (b, cpu), (b, wall). */
	ck_assert_str_eq(set.series[0].row, "a");
	ck_assert_str_eq(set.series[0].metric, "cpu");
	ck_assert_str_eq(set.series[1].metric, "wall");
	ck_assert_str_eq(set.series[3].row, "b");
	ck_assert_uint_eq(set.series[0].n, 2);
	/* Row a, cpu is k = 2: change 1 + 2 then 2 + 2; c1 kept its commit. */
	ck_assert_double_eq(set.series[0].pts[0].change_pct, 3.0);
	ck_assert_double_eq(set.series[0].pts[1].change_pct, 4.0);
	ck_assert_str_eq(set.series[0].pts[0].merge->commit, "c1");
	ck_assert_str_eq(set.series[0].pts[1].merge->commit, "c2");
	ck_assert_ptr_null(set.series[0].pts[0].merge->base);
	ck_assert(isnan(set.series[0].pts[0].head_median));
	ck_assert_double_eq(set.series[0].pts[0].coverage, 0.96875);
	ck_assert_str_eq(set.series[0].pts[0].verdict, "INCONCLUSIVE");
	pab_history_set_release(&set);
	pab_history_close(db);
}
END_TEST

/* What a scan gave, point by point. */
struct seen {
	size_t n, series[16];
	char names[16][32];
	int64_t merge[16];
	double change[16];
	size_t merges_at_first; /* *merges as on_point first saw it */
	const size_t *merges;
};

static void see(void *ctx, size_t series, const char *row, const char *arm,
		const char *metric, const struct pab_history_point *p)
{
	struct seen *s = ctx;

	ck_assert_uint_lt(s->n, 16);
	if (!s->n)
		s->merges_at_first = *s->merges;
	s->series[s->n] = series;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s/%s/%s", row, arm, metric);
	s->merge[s->n] = p->merge->id;
	s->change[s->n] = p->change_pct;
	s->n++;
}

/*
 * The scan `history drift` streams: every cell once, merge by merge in
 * record order, each series numbered in the order it is first met (the
 * cells of a merge in the order the file holds them: by row, arm, metric),
 * the number of merges known before the first cell, the filters applied.
 */
START_TEST(scan_streams_the_cells)
{
	struct pab_history_filter f = { 0 };
	struct pab_history_db *db;
	struct seen s = { 0 };
	size_t merges = 99;
	int already;
	char *why;

	ck_assert_int_eq(pab_history_open(path, 1, &db, NULL, &why), 0);
	record(db, "s1", "c1", "main", 1.0, &already);
	record(db, "s2", "c2", "main", 2.0, &already);
	record(db, "s3", "c3", "main", 3.0, &already);
	s.merges = &merges;
	ck_assert_int_eq(pab_history_scan(db, &f, see, &s, &merges, &why), 0);
	ck_assert_uint_eq(merges, 3);
	ck_assert_uint_eq(s.merges_at_first, 3);
	ck_assert_uint_eq(s.n, 12);
	/* The first merge's cells, then the second's: series 0-3 again. */
	ck_assert_str_eq(s.names[0], "a/head/cpu");
	ck_assert_uint_eq(s.series[0], 0);
	ck_assert_str_eq(s.names[3], "b/head/wall");
	ck_assert_uint_eq(s.series[3], 3);
	ck_assert_int_eq(s.merge[3], 1);
	ck_assert_str_eq(s.names[4], "a/head/cpu");
	ck_assert_uint_eq(s.series[4], 0);
	ck_assert_int_eq(s.merge[4], 2);
	ck_assert_uint_eq(s.series[11], 3);
	ck_assert_int_eq(s.merge[11], 3);
	/* Row a, cpu is k = 2: 1 + 2, then 2 + 2, then 3 + 2. */
	ck_assert_double_eq(s.change[0], 3.0);
	ck_assert_double_eq(s.change[8], 5.0);
	/* --last 2 --row b: the last two merges' b cells, series from 0. */
	memset(&s, 0, sizeof(s));
	s.merges = &merges;
	f.last = 2;
	f.row = "b";
	ck_assert_int_eq(pab_history_scan(db, &f, see, &s, &merges, &why), 0);
	ck_assert_uint_eq(merges, 2);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_str_eq(s.names[0], "b/head/cpu");
	ck_assert_uint_eq(s.series[0], 0);
	ck_assert_uint_eq(s.series[3], 1);
	ck_assert_int_eq(s.merge[0], 2);
	ck_assert_int_eq(s.merge[3], 3);
	/* An unknown --since is an error before any cell. */
	memset(&s, 0, sizeof(s));
	s.merges = &merges;
	f.last = 0;
	f.since = "nope";
	ck_assert_int_eq(pab_history_scan(db, &f, see, &s, &merges, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "no merge of commit 'nope'"));
	ck_assert_uint_eq(s.n, 0);
	free(why);
	pab_history_close(db);
}
END_TEST

START_TEST(filters)
{
	struct pab_history_filter f = { 0 };
	struct pab_history_set set;
	struct pab_history_db *db;
	int already;
	char *why;

	ck_assert_int_eq(pab_history_open(path, 1, &db, NULL, &why), 0);
	record(db, "s1", "aaa1", "main", 0.0, &already);
	record(db, "s2", "bbb2", "feature", 0.0, &already);
	record(db, "s3", "ccc3", "main", 0.0, &already);
	record(db, "s4", "ddd4", "main", 0.0, &already);

	f.branch = "main";
	ck_assert_int_eq(pab_history_query(db, &f, &set, &why), 0);
	ck_assert_uint_eq(set.merges, 3);
	ck_assert_uint_eq(set.series[0].n, 3);
	pab_history_set_release(&set);

	f.last = 2;
	ck_assert_int_eq(pab_history_query(db, &f, &set, &why), 0);
	ck_assert_uint_eq(set.merges, 2);
	ck_assert_str_eq(set.series[0].pts[0].merge->commit, "ccc3");
	pab_history_set_release(&set);

	memset(&f, 0, sizeof(f));
	f.since = "bbb";
	f.row = "a";
	f.metric = "wall";
	ck_assert_int_eq(pab_history_query(db, &f, &set, &why), 0);
	ck_assert_uint_eq(set.merges, 2);
	ck_assert_uint_eq(set.n, 1);
	ck_assert_uint_eq(set.series[0].n, 2);
	ck_assert_str_eq(set.series[0].pts[0].merge->commit, "ccc3");
	pab_history_set_release(&set);

	f.since = "zzz";
	ck_assert_int_eq(pab_history_query(db, &f, &set, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "no merge of commit 'zzz'"));
	free(why);
	ck_assert_uint_eq(set.n, 0);
	pab_history_close(db);
}
END_TEST

START_TEST(refusals)
{
	struct pab_history_db *db;
	sqlite3 *raw;
	char *why;
	int newer;

	/* A reader does not create the file. */
	ck_assert_int_eq(pab_history_open(path, PAB_HISTORY_READ, &db, NULL, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "does not exist"));
	free(why);
	ck_assert_int_ne(access(path, F_OK), 0);
	/* A newer schema: the next one, and one far ahead. */
	ck_assert_int_eq(pab_history_open(path, PAB_HISTORY_WRITE, &db, NULL, &why), 0);
	pab_history_close(db);
	for (newer = PAB_HISTORY_SCHEMA + 1; newer <= 9; newer += 9 - PAB_HISTORY_SCHEMA - 1) {
		char sql[64], want[80];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", newer);
		snprintf(want, sizeof(want), "has schema %d, newer than this perfab's %d", newer,
			 PAB_HISTORY_SCHEMA);
		ck_assert_int_eq(sqlite3_open(path, &raw), SQLITE_OK);
		ck_assert_int_eq(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(raw);
		ck_assert_int_eq(pab_history_open(path, PAB_HISTORY_WRITE, &db, NULL, &why), -1);
		ck_assert_msg(strstr(why, want), "schema %d: %s", newer, why);
		free(why);
	}
	/* A schema below 0, the nearest and a far one: no perfab writes one. */
	for (newer = -1; newer >= -256; newer -= 255) {
		char sql[64];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", newer);
		ck_assert_int_eq(sqlite3_open(path, &raw), SQLITE_OK);
		ck_assert_int_eq(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(raw);
		ck_assert_int_eq(pab_history_open(path, PAB_HISTORY_READ, &db, NULL, &why), -1);
		ck_assert_msg(strstr(why, "which no perfab writes"), "schema %d: %s", newer, why);
		free(why);
	}
}
END_TEST

/* Record a merge of digest sha holding runs[0..n) (measurements msha when
 * n is 0) with one cell; *already as pab_history_record says. */
static int64_t record_runs(struct pab_history_db *db, const char *sha,
			   const struct pab_run_id *runs, size_t n, const char *msha,
			   int *already)
{
	struct pab_history_cell c = { "r", "head", "cpu", "PASS", 1, 1, 0, -1, 1, 0.95, 2, 6 };
	struct pab_history_merge m = { 0 };
	int64_t id = -1;
	char *why;

	m.artifact_sha256 = sha;
	m.runs = runs;
	m.n_runs = n;
	m.measurements_sha256 = msha;
	m.recorded_at = 1700000000;
	ck_assert_msg(pab_history_record(db, &m, &c, 1, &id, already, &why) == 0, "%s", why);
	return id;
}

START_TEST(identity)
{
	const struct pab_run_id r1 = { "j1", 1 }, r2 = { "j2", 2 }, r1_other_seed = { "j1", 5 };
	const struct pab_run_id both[2] = { r1, r2 };
	struct pab_history_db *db;
	int64_t merges, cells, id;
	int already;
	char *why;

	ck_assert_int_eq(pab_history_open(path, PAB_HISTORY_WRITE, &db, NULL, &why), 0);
	ck_assert_int_eq(record_runs(db, "s1", &r1, 1, NULL, &already), 1);
	ck_assert_int_eq(already, 0);
	/* Another file of the same run: merge 1. */
	ck_assert_int_eq(record_runs(db, "s2", &r1, 1, NULL, &already), 1);
	ck_assert_int_eq(already, 1);
	/* The same journal with another seed is another run. */
	ck_assert_int_eq(record_runs(db, "s3", &r1_other_seed, 1, NULL, &already), 2);
	ck_assert_int_eq(already, 0);
	/* A pool of j1 and j2: shares j1 with merge 1. */
	record_runs(db, "s4", both, 2, NULL, &already);
	ck_assert_int_eq(already, 2);
	ck_assert_int_eq(record_runs(db, "s5", &r2, 1, NULL, &already), 3);
	/* Both recorded, but as two merges: still refused. */
	record_runs(db, "s6", both, 2, NULL, &already);
	ck_assert_int_eq(already, 2);
	/* No run named: the measurements. */
	ck_assert_int_eq(record_runs(db, "s7", NULL, 0, "m1", &already), 4);
	ck_assert_int_eq(record_runs(db, "s8", NULL, 0, "m1", &already), 4);
	ck_assert_int_eq(already, 1);
	ck_assert_int_eq(pab_history_count(db, &merges, &cells, &why), 0);
	ck_assert_int_eq(merges, 4);
	pab_history_close(db);

	/* A reader records nothing. */
	ck_assert_int_eq(pab_history_open(path, PAB_HISTORY_READ, &db, NULL, &why), 0);
	{
		struct pab_history_cell c = { "r", "head", "cpu", "PASS", 1, 1, 0, -1, 1, 0.95, 2, 6 };
		struct pab_history_merge m = { 0 };

		m.artifact_sha256 = "s9";
		ck_assert_int_eq(pab_history_record(db, &m, &c, 1, &id, &already, &why), -1);
		free(why);
	}
	pab_history_close(db);
}
END_TEST

/*
 * The look before the open cannot see a FIFO that takes a path's place
 * after it: every open SQLite makes once perfab has opened a history
 * database is non-blocking and checked, so a FIFO is refused by the open
 * itself. The test holds the FIFO's other end open, so that an unchecked
 * open would not block (the test would not hang) but succeed.
 */
START_TEST(fifo_refused_by_the_open)
{
	struct pab_history_db *db;
	char fifo[80];
	sqlite3 *raw = NULL;
	char *why;
	int hold;

	ck_assert_int_eq(pab_history_open(path, PAB_HISTORY_WRITE, &db, NULL, &why), 0);
	pab_history_close(db);
	snprintf(fifo, sizeof(fifo), "%s/fifo.db", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	hold = open(fifo, O_RDWR | O_NONBLOCK);
	ck_assert_int_ge(hold, 0);
	ck_assert_int_eq(sqlite3_open_v2(fifo, &raw, SQLITE_OPEN_READONLY, NULL), SQLITE_CANTOPEN);
	sqlite3_close(raw);
	ck_assert_int_eq(sqlite3_open_v2(fifo, &raw, SQLITE_OPEN_READWRITE, NULL), SQLITE_CANTOPEN);
	sqlite3_close(raw);
	close(hold);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("history_db");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, record_and_read_back);
	tcase_add_test(tc, filters);
	tcase_add_test(tc, scan_streams_the_cells);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, identity);
	tcase_add_test(tc, fifo_refused_by_the_open);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
