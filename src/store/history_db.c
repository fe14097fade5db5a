/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_db.c — the history database on SQLite (history_db.h): the
 * one-transaction record with its identity check, and the scan of the
 * cells the history commands read (history_query.c holds one whole).
 * Opening the file, what makes it perfab's and its schema are
 * history_file.c's; with it, the only file that includes sqlite3.h.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "store/digest.h"
#include "store/history_db.h"
#include "store/history_file.h"
#include "term.h"
#include "test_hooks.h"
#include "util.h"

/* The statements a record runs, prepared once per connection (a process
 * that records many merges, ci/bench-history, would otherwise spend a
 * good part of each record compiling them). */
enum stmt_id {
	ST_FIND, ST_FIND_RUN, ST_MERGE_RUNS, ST_MERGE, ST_LABEL, ST_CELL, ST_RUN, ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
	"SELECT id FROM merges WHERE artifact_sha256 = ?",
	"SELECT merge_id FROM runs WHERE run = ?",
	"SELECT count(*) FROM runs WHERE merge_id = ?",
	"INSERT INTO merges (artifact_sha256, commit_sha, base_sha, branch,"
	" recorded_at, perfab_version, rules, stop_reason, cpu_model,"
	" host_digest, counts_source) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO labels (merge_id, key, value) VALUES (?,?,?)",
	"INSERT INTO cells (merge_id, row, arm, metric, base_median,"
	" head_median, change_pct, lo_pct, hi_pct, coverage, tolerance_pct,"
	" verdict, n) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO runs (run, merge_id) VALUES (?,?)",
};

struct pab_history_db {
	sqlite3 *db;
	char *path;
	int version; /* the schema the file has (a reader's may be older) */
	sqlite3_stmt *stmt[ST_COUNT];
};

/* Statement id of h, prepared on first use, its bindings cleared; the
 * caller resets it after use (an unreset SELECT holds a read lock).
 * NULL on error (SQLite's message in the handle). */
static sqlite3_stmt *stmt(struct pab_history_db *h, enum stmt_id id)
{
	if (!h->stmt[id] &&
	    sqlite3_prepare_v2(h->db, stmt_sql[id], -1, &h->stmt[id], NULL) != SQLITE_OK)
		return NULL;
	sqlite3_clear_bindings(h->stmt[id]);
	return h->stmt[id];
}

static int fail(struct pab_history_db *h, char **why, const char *what)
{
	*why = xasprintf("history database '%s': %s: %s", h->path, what,
			 sqlite3_errmsg(h->db));
	return -1;
}

static int exec(struct pab_history_db *h, const char *sql, char **why, const char *what)
{
	if (sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return fail(h, why, what);
	return 0;
}

static void rollback(struct pab_history_db *h)
{
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

int pab_history_open(const char *path, int mode, struct pab_history_db **out,
		     int *migrated_from, char **why)
{
	struct pab_history_db *h;
	sqlite3 *db;
	int version;

	*out = NULL;
	if (pab_history_file_open(path, mode, &db, &version, migrated_from, why))
		return -1;
	h = xcalloc(1, sizeof(*h));
	h->db = db;
	h->path = xstrdup(path);
	h->version = version;
	*out = h;
	return 0;
}

void pab_history_close(struct pab_history_db *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(h->stmt[i]);
	sqlite3_close(h->db);
	free(h->path);
	free(h);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Step statement id bound to text (or, when text is NULL, to num): 1 with
 * its first column in *out, 0 when it returns no row, -1 on error. */
static int lookup(struct pab_history_db *h, enum stmt_id id, const char *text, int64_t num,
		  int64_t *out, char **why)
{
	sqlite3_stmt *st;
	int rc, ret;

	if (!(st = stmt(h, id)))
		return fail(h, why, "cannot look a merge up");
	if (text)
		bind_text(st, 1, text);
	else
		sqlite3_bind_int64(st, 1, num);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		ret = 1;
	} else {
		ret = rc == SQLITE_DONE ? 0 : fail(h, why, "cannot look a merge up");
	}
	sqlite3_reset(st);
	return ret;
}

/* The runs table's keys of what identifies m (history_db.h, "Identity"):
 * "journal ID seed S" per run it holds, else "measurements SHA256", else
 * none. New strings in *keys (free_keys); returns how many. */
static size_t run_keys(const struct pab_history_merge *m, char ***keys)
{
	size_t i;

	*keys = NULL;
	if (m->n_runs) {
		*keys = xcalloc(m->n_runs, sizeof(**keys));
		for (i = 0; i < m->n_runs; i++)
			(*keys)[i] = xasprintf("journal %s seed %.0f", m->runs[i].journal,
					       m->runs[i].seed);
		return m->n_runs;
	}
	if (!m->measurements_sha256)
		return 0;
	*keys = xcalloc(1, sizeof(**keys));
	(*keys)[0] = xasprintf("measurements %s", m->measurements_sha256);
	return 1;
}

static void free_keys(char **keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/*
 * Where the runs keys[0..n) are recorded: 0 none of them is; 1 every one,
 * as the runs of one merge that holds no other (*merge_id); 2 some are
 * (*merge_id: the merge of the first found) but not as one merge of
 * exactly these. -1 on error.
 */
static int find_runs(struct pab_history_db *h, char **keys, size_t n, int64_t *merge_id,
		     char **why)
{
	int64_t id, first = 0, count = 0;
	size_t i, found = 0;
	int one = 1, r;

	for (i = 0; i < n; i++) {
		r = lookup(h, ST_FIND_RUN, keys[i], 0, &id, why);
		if (r < 0)
			return -1;
		if (!r)
			one = 0;
		else if (!found++)
			first = id;
		else if (id != first)
			one = 0;
	}
	if (!found)
		return 0;
	*merge_id = first;
	if (!one)
		return 2;
	if (lookup(h, ST_MERGE_RUNS, NULL, first, &count, why) < 0)
		return -1;
	return count == (int64_t)n ? 1 : 2;
}

/*
 * Test hook (tests/e2e/history_concurrent.sh): with
 * PERFAB_TEST_HISTORY_HOLD=FILE, a record creates FILE once its write
 * transaction holds the lock and waits (at most a minute) until FILE is
 * removed before committing, so a test can start a second writer while
 * the first holds the database. Without the variable: nothing.
 */
static void test_hold(void)
{
	const char *path = pab_test_hook(PAB_TEST_HISTORY_HOLD);
	FILE *f;
	int i;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fclose(f);
	for (i = 0; i < 6000 && !access(path, F_OK); i++)
		usleep(10000);
}

/* Why a write failed, into *why (SQLite's message is read before the
 * statement st, when there is one, is reset). Returns -1. */
static int write_failed(struct pab_history_db *h, sqlite3_stmt *st, char **why)
{
	fail(h, why, "cannot record the merge");
	if (st)
		sqlite3_reset(st);
	return -1;
}

/* Insert merge m's row; its id into *merge_id. 0, or -1 with why (the
 * caller rolls back). */
static int insert_merge(struct pab_history_db *h, const struct pab_history_merge *m,
			int64_t *merge_id, char **why)
{
	sqlite3_stmt *st = stmt(h, ST_MERGE);

	if (!st)
		return write_failed(h, NULL, why);
	bind_text(st, 1, m->artifact_sha256);
	bind_text(st, 2, m->commit);
	bind_text(st, 3, m->base);
	bind_text(st, 4, m->branch);
	sqlite3_bind_int64(st, 5, m->recorded_at);
	bind_text(st, 6, m->perfab_version);
	bind_text(st, 7, m->rules);
	bind_text(st, 8, m->stop_reason);
	bind_text(st, 9, m->cpu_model);
	bind_text(st, 10, m->host_digest);
	bind_text(st, 11, m->counts_source);
	if (sqlite3_step(st) != SQLITE_DONE)
		return write_failed(h, st, why);
	sqlite3_reset(st);
	*merge_id = sqlite3_last_insert_rowid(h->db);
	return 0;
}

/* Insert the labels of merge m (id merge_id). 0 or -1, as insert_merge. */
static int insert_labels(struct pab_history_db *h, const struct pab_history_merge *m,
			 int64_t merge_id, char **why)
{
	sqlite3_stmt *st = stmt(h, ST_LABEL);
	size_t i;

	if (!st)
		return write_failed(h, NULL, why);
	for (i = 0; i < m->n_labels; i++) {
		sqlite3_bind_int64(st, 1, merge_id);
		bind_text(st, 2, m->labels[i].key);
		bind_text(st, 3, m->labels[i].value);
		if (sqlite3_step(st) != SQLITE_DONE)
			return write_failed(h, st, why);
		sqlite3_reset(st);
	}
	return 0;
}

/* Insert the runs keys[0..n) of merge merge_id. 0 or -1, as insert_merge. */
static int insert_runs(struct pab_history_db *h, char **keys, size_t n, int64_t merge_id,
		       char **why)
{
	sqlite3_stmt *st = stmt(h, ST_RUN);
	size_t i;

	if (!st)
		return write_failed(h, NULL, why);
	for (i = 0; i < n; i++) {
		bind_text(st, 1, keys[i]);
		sqlite3_bind_int64(st, 2, merge_id);
		if (sqlite3_step(st) != SQLITE_DONE)
			return write_failed(h, st, why);
		sqlite3_reset(st);
	}
	return 0;
}

/* Insert cells[0..n) of merge merge_id. 0 or -1, as insert_merge. */
static int insert_cells(struct pab_history_db *h, const struct pab_history_cell *cells,
			size_t n, int64_t merge_id, char **why)
{
	sqlite3_stmt *st = stmt(h, ST_CELL);
	size_t i;

	if (!st)
		return write_failed(h, NULL, why);
	for (i = 0; i < n; i++) {
		const struct pab_history_cell *c = &cells[i];

		/* The crash matrix's point: half the cells written, nothing
		 * committed (tests/e2e/history_kill.sh). */
		if (i == n / 2)
			pab_crash_point("history record: cells half written");
		sqlite3_bind_int64(st, 1, merge_id);
		bind_text(st, 2, c->row);
		bind_text(st, 3, c->arm);
		bind_text(st, 4, c->metric);
		bind_real(st, 5, c->base_median);
		bind_real(st, 6, c->head_median);
		bind_real(st, 7, c->change_pct);
		bind_real(st, 8, c->lo_pct);
		bind_real(st, 9, c->hi_pct);
		bind_real(st, 10, c->coverage);
		bind_real(st, 11, c->tolerance_pct);
		bind_text(st, 12, c->verdict);
		sqlite3_bind_int64(st, 13, c->n);
		if (sqlite3_step(st) != SQLITE_DONE)
			return write_failed(h, st, why);
		sqlite3_reset(st);
	}
	return 0;
}

int pab_history_record(struct pab_history_db *h, const struct pab_history_merge *m,
		       const struct pab_history_cell *cells, size_t n,
		       int64_t *merge_id, int *already, char **why)
{
	char **keys;
	size_t n_keys = run_keys(m, &keys);
	int found, ret = -1;

	*why = NULL;
	*already = 0;
	if (exec(h, "BEGIN IMMEDIATE", why, "cannot lock it for writing"))
		goto out_keys;
	/* The same file, then the same runs (a copy, reformatted). */
	found = lookup(h, ST_FIND, m->artifact_sha256, 0, merge_id, why);
	if (!found && n_keys)
		found = find_runs(h, keys, n_keys, merge_id, why);
	if (found) {
		rollback(h);
		*already = found > 0 ? found : 0;
		ret = found > 0 ? 0 : -1;
		goto out_keys;
	}
	if (insert_merge(h, m, merge_id, why) || insert_labels(h, m, *merge_id, why) ||
	    insert_runs(h, keys, n_keys, *merge_id, why) ||
	    insert_cells(h, cells, n, *merge_id, why)) {
		rollback(h);
		goto out_keys;
	}
	test_hold();
	if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		write_failed(h, NULL, why);
		rollback(h);
		goto out_keys;
	}
	ret = 0;
out_keys:
	free_keys(keys, n_keys);
	return ret;
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* The first merge id f selects into *lo (none: a value past every id) and
 * their number into *count. Returns 0 or -1. */
static int window(struct pab_history_db *h, const struct pab_history_filter *f,
		  int64_t *lo, size_t *count, char **why)
{
	sqlite3_stmt *st;
	int64_t after = 0;
	int rc;

	if (f->since) {
		if (sqlite3_prepare_v2(h->db,
				       "SELECT max(id) FROM merges WHERE substr(commit_sha, 1, length(?1)) = ?1"
				       " AND (?2 IS NULL OR branch = ?2)", -1, &st, NULL) != SQLITE_OK)
			return fail(h, why, "cannot read it");
		bind_text(st, 1, f->since);
		bind_text(st, 2, f->branch);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW || sqlite3_column_type(st, 0) == SQLITE_NULL) {
			sqlite3_finalize(st);
			*why = xasprintf("no merge of commit '%s' is recorded%s%s in '%s': "
					 "see perfab history show --db %s", f->since,
					 f->branch ? " on branch " : "", f->branch ? f->branch : "",
					 h->path, h->path);
			return -1;
		}
		after = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	/* The last `last` merges after `after`: the smallest id among them. */
	if (sqlite3_prepare_v2(h->db,
			       "SELECT min(id), count(*) FROM (SELECT id FROM merges WHERE id > ?1"
			       " AND (?2 IS NULL OR branch = ?2) ORDER BY id DESC LIMIT ?3)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(h, why, "cannot read it");
	sqlite3_bind_int64(st, 1, after);
	bind_text(st, 2, f->branch);
	sqlite3_bind_int64(st, 3, f->last > 0 ? f->last : -1);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return fail(h, why, "cannot read it");
	}
	*lo = sqlite3_column_type(st, 0) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 0);
	*count = (size_t)sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	return 0;
}

/* Column i as a name: "" for SQL NULL (perfab writes none; a file not
 * written by it may hold one). Borrowed from st. */
static const char *col_name(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

/* The static name of a stored verdict ("?" for none perfab writes). */
static const char *verdict_of(const unsigned char *t)
{
	static const char *const names[] = { "PASS", "INCONCLUSIVE", "FAIL", "NOT MEASURED",
					     "SHOWN" };
	size_t i;

	for (i = 0; t && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp((const char *)t, names[i]))
			return names[i];
	return "?";
}

/* The series a scan has met: their names and the last merge each had a
 * point in, and an open-addressed table from the names to an index. */
struct scan_series {
	char *row, *arm, *metric;
	int64_t last_merge;
};
struct series_map {
	struct scan_series *v;
	size_t n, alloc;
	size_t *slot;   /* series index + 1; 0 = empty */
	size_t cap;
};

static uint64_t hash3(const char *a, const char *b, const char *c)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	const char *p[3] = { a, b, c };
	size_t i;

	for (i = 0; i < 3; i++) {
		const unsigned char *s = (const unsigned char *)p[i];

		for (; *s; s++)
			h = (h ^ *s) * 1099511628211u;
		h = (h ^ 0xff) * 1099511628211u;
	}
	return h;
}

/* The index of series (row, arm, metric) in m, added when new. */
static size_t series_for(struct series_map *m, const char *row, const char *arm,
			 const char *met)
{
	struct scan_series *s;
	size_t i;

	if (2 * (m->n + 1) > m->cap) { /* grow and rehash */
		size_t cap = m->cap ? 2 * m->cap : 64, j;

		free(m->slot);
		m->slot = xcalloc(cap, sizeof(*m->slot));
		m->cap = cap;
		for (j = 0; j < m->n; j++) {
			s = &m->v[j];
			i = hash3(s->row, s->arm, s->metric) & (cap - 1);
			while (m->slot[i])
				i = (i + 1) & (cap - 1);
			m->slot[i] = j + 1;
		}
	}
	for (i = hash3(row, arm, met) & (m->cap - 1); m->slot[i]; i = (i + 1) & (m->cap - 1)) {
		s = &m->v[m->slot[i] - 1];
		if (!strcmp(s->row, row) && !strcmp(s->arm, arm) && !strcmp(s->metric, met))
			return m->slot[i] - 1;
	}
	m->v = xgrow(m->v, sizeof(*m->v), m->n + 1, &m->alloc);
	s = &m->v[m->n];
	s->row = xstrdup(row);
	s->arm = xstrdup(arm);
	s->metric = xstrdup(met);
	s->last_merge = INT64_MIN;
	m->slot[i] = ++m->n;
	return m->n - 1;
}

static void series_map_release(struct series_map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].row);
		free(m->v[i].arm);
		free(m->v[i].metric);
	}
	free(m->v);
	free(m->slot);
}

/* The cells of the window, merge by merge; schema 1 has no coverage: NULL,
 * read as the nominal 95%. */
#define CELLS_SQL(coverage) \
	"SELECT c.row, c.arm, c.metric, m.id, m.recorded_at, c.n, m.commit_sha," \
	" m.base_sha, m.branch, c.verdict, c.base_median, c.head_median," \
	" c.change_pct, c.lo_pct, c.hi_pct, " coverage ", c.tolerance_pct" \
	" FROM merges m JOIN cells c ON c.merge_id = m.id" \
	" WHERE m.id >= ?1 AND (?2 IS NULL OR m.branch = ?2)" \
	" AND (?3 IS NULL OR c.row = ?3)" \
	" AND (?4 IS NULL OR instr(',' || ?4 || ',', ',' || c.metric || ',') > 0)" \
	" ORDER BY m.id"
static const char cells_sql[] = CELLS_SQL("c.coverage");
static const char cells_sql_v1[] = CELLS_SQL("NULL");

/* The merge and the point of result row st, borrowed from st. */
static void read_point(sqlite3_stmt *st, struct pab_history_merge_row *m,
		       struct pab_history_point *p)
{
	m->id = sqlite3_column_int64(st, 3);
	m->recorded_at = sqlite3_column_int64(st, 4);
	m->commit = (char *)sqlite3_column_text(st, 6);
	m->base = (char *)sqlite3_column_text(st, 7);
	m->branch = (char *)sqlite3_column_text(st, 8);
	p->merge = m;
	p->n = sqlite3_column_int64(st, 5);
	p->verdict = verdict_of(sqlite3_column_text(st, 9));
	p->base_median = col_real(st, 10);
	p->head_median = col_real(st, 11);
	p->change_pct = col_real(st, 12);
	p->lo_pct = col_real(st, 13);
	p->hi_pct = col_real(st, 14);
	p->coverage = col_real(st, 15);
	p->tolerance_pct = col_real(st, 16);
}

int pab_history_scan(struct pab_history_db *h, const struct pab_history_filter *f,
		     pab_history_point_fn on_point, void *ctx, size_t *merges, char **why)
{
	struct series_map map = { 0 };
	sqlite3_stmt *st;
	int64_t lo = INT64_MAX, last_id = 0;
	size_t met = 0;
	int rc;

	*why = NULL;
	/* One read transaction: the window and the cells see one snapshot
	 * (WAL), whatever a writer commits meanwhile. */
	if (exec(h, "BEGIN", why, "cannot read it"))
		return -1;
	if (window(h, f, &lo, merges, why)) {
		rollback(h);
		return -1;
	}
	if (sqlite3_prepare_v2(h->db, h->version >= 2 ? cells_sql : cells_sql_v1, -1, &st,
			       NULL) != SQLITE_OK) {
		fail(h, why, "cannot read it");
		rollback(h);
		return -1;
	}
	sqlite3_bind_int64(st, 1, lo);
	bind_text(st, 2, f->branch);
	bind_text(st, 3, f->row);
	bind_text(st, 4, f->metric);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pab_history_merge_row m;
		struct pab_history_point p;
		struct scan_series *s;
		size_t i;

		read_point(st, &m, &p);
		if (!met || m.id != last_id) { /* a merge: the window's, or one recorded since */
			if (met == *merges)
				break;
			met++;
			last_id = m.id;
		}
		i = series_for(&map, col_name(st, 0), col_name(st, 1), col_name(st, 2));
		s = &map.v[i];
		/* perfab writes one cell per row, arm and metric of a merge: only
		 * a damaged file holds two */
		if (s->last_merge == m.id) {
			*why = xasprintf("history database '%s' is damaged: merge #%lld holds two "
					 "cells of row '%.60s', arm '%.60s', metric '%.60s': restore "
					 "it from a copy", h->path, (long long)m.id,
					 pab_term_safe(s->row), pab_term_safe(s->arm),
					 pab_term_safe(s->metric));
			break;
		}
		s->last_merge = m.id;
		on_point(ctx, i, s->row, s->arm, s->metric, &p);
	}
	sqlite3_finalize(st);
	series_map_release(&map);
	if (*why || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		if (!*why)
			fail(h, why, "cannot read it");
		rollback(h);
		return -1;
	}
	rollback(h); /* the end of a read-only transaction */
	return 0;
}

char *pab_history_host_digest(const char *host_json)
{
	static const char *const volatile_keys[] = {
		"load_1min", "load_5min", "load_15min", "procs_running", "mem_available_bytes",
	};
	cJSON *copy;
	char *text, *sum;
	size_t i;

	if (!host_json)
		return NULL;
	copy = cJSON_Parse(host_json);
	if (!copy) /* the codec wrote it: only memory can fail */
		die(PAB_EXIT_RUNTIME, "out of memory");
	for (i = 0; i < sizeof(volatile_keys) / sizeof(volatile_keys[0]); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(copy, volatile_keys[i]);
	text = cJSON_PrintUnformatted(copy);
	cJSON_Delete(copy);
	if (!text)
		die(PAB_EXIT_RUNTIME, "out of memory");
	sum = pab_sha256_buf(text, strlen(text));
	cJSON_free(text);
	return sum;
}

int pab_history_count(struct pab_history_db *h, int64_t *merges, int64_t *cells, char **why)
{
	sqlite3_stmt *st;
	int ok;

	*why = NULL;
	if (sqlite3_prepare_v2(h->db, "SELECT (SELECT count(*) FROM merges),"
			       " (SELECT count(*) FROM cells)", -1, &st, NULL) != SQLITE_OK)
		return fail(h, why, "cannot read it");
	ok = sqlite3_step(st) == SQLITE_ROW;
	if (ok) {
		*merges = sqlite3_column_int64(st, 0);
		*cells = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return ok ? 0 : fail(h, why, "cannot read it");
}

const char *pab_history_sqlite_version(void)
{
	return sqlite3_libversion();
}
