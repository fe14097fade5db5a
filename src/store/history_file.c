/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_file.c — the history database as a file (history_file.h): the
 * checked open of every file SQLite opens for it, the read-only open of
 * readers, what makes a file perfab's own, and the schema and its
 * migrations. With history_db.c, the only file that includes sqlite3.h.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/history_file.h"
#include "term.h"
#include "test_hooks.h"
#include "util.h"

/* How long a writer waits for another's transaction before giving up. */
#define BUSY_TIMEOUT_MS 60000

static const char schema_v1[] =
	"CREATE TABLE merges ("
	" id INTEGER PRIMARY KEY,"
	" artifact_sha256 TEXT NOT NULL UNIQUE,"
	" commit_sha TEXT, base_sha TEXT, branch TEXT,"
	" recorded_at INTEGER NOT NULL,"
	" perfab_version TEXT, rules TEXT, stop_reason TEXT);"
	"CREATE TABLE cells ("
	" merge_id INTEGER NOT NULL REFERENCES merges(id) ON DELETE CASCADE,"
	" row TEXT NOT NULL, arm TEXT NOT NULL, metric TEXT NOT NULL,"
	" base_median REAL, head_median REAL,"
	" change_pct REAL, lo_pct REAL, hi_pct REAL, tolerance_pct REAL,"
	" verdict TEXT NOT NULL, n INTEGER NOT NULL,"
	" PRIMARY KEY (merge_id, row, arm, metric)) WITHOUT ROWID;";

/* Version 1 -> 2. */
static const char migrate_v2[] =
	"ALTER TABLE merges ADD COLUMN cpu_model TEXT;"
	"ALTER TABLE merges ADD COLUMN host_digest TEXT;"
	"ALTER TABLE merges ADD COLUMN counts_source TEXT;"
	"ALTER TABLE cells ADD COLUMN coverage REAL;"
	"CREATE TABLE labels ("
	" merge_id INTEGER NOT NULL REFERENCES merges(id) ON DELETE CASCADE,"
	" key TEXT NOT NULL, value TEXT NOT NULL,"
	" PRIMARY KEY (merge_id, key)) WITHOUT ROWID;"
	"CREATE INDEX merges_branch ON merges (branch, id);"
	/* Schema 1's index by series cost a page write per series per
	 * record; the queries sort the cells into series themselves. */
	"DROP INDEX IF EXISTS cells_series;";

/* Version 2 -> 3: the runs each merge holds (history_db.h, "Identity"). */
static const char migrate_v3[] =
	"CREATE TABLE runs ("
	" run TEXT PRIMARY KEY,"
	" merge_id INTEGER NOT NULL REFERENCES merges(id) ON DELETE CASCADE) WITHOUT ROWID;"
	"CREATE INDEX runs_merge ON runs (merge_id);";

/* What schemas 1 and 2 hold, as perfab wrote them before it set an
 * application id (SQLite's own sqlite_* objects aside). */
static const char *const objects_v1[] = { "cells", "cells_series", "merges", NULL };
static const char *const objects_v2[] = { "cells", "labels", "merges", "merges_branch", NULL };

/* ------------------------------------------------------------------ */
/* The checked open                                                   */

static sqlite3_syscall_ptr real_open;

/*
 * The open(2) of SQLite's unix VFS, for every file it opens (database,
 * write-ahead log, shared-memory index, journal, directory, /dev/urandom):
 * the same call with O_NONBLOCK, then a look at what was opened. A FIFO,
 * socket or device node (but /dev/urandom, SQLite's randomness) is closed
 * and the open fails (EINVAL), so a file planted at one of those paths
 * neither blocks the open nor is read.
 */
static int checked_open(const char *path, int flags, int mode)
{
	int (*sys_open)(const char *, int, int) = (int (*)(const char *, int, int))real_open;
	int fd = sys_open(path, flags | O_NONBLOCK, mode);
	struct stat st;

	if (fd < 0)
		return fd;
	if (!fstat(fd, &st) && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
				(S_ISCHR(st.st_mode) && !strcmp(path, "/dev/urandom")))) {
		if (!(flags & O_NONBLOCK))
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		return fd;
	}
	close(fd);
	errno = EINVAL;
	return -1;
}

/* Route the unix VFS's opens through checked_open, once per process. On
 * a SQLite without it (another default VFS) the look before the open
 * (look_at) is all there is. */
static void guard_opens(void)
{
	static int done;
	sqlite3_vfs *vfs;

	if (done)
		return;
	done = 1;
	vfs = sqlite3_vfs_find(NULL);
	if (!vfs || vfs->iVersion < 3 || !vfs->xGetSystemCall || !vfs->xSetSystemCall)
		return;
	real_open = vfs->xGetSystemCall(vfs, "open");
	if (real_open &&
	    vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)checked_open) != SQLITE_OK)
		real_open = NULL;
}

/* The files SQLite keeps beside a database: 0 when each is a regular file
 * or absent, else -1 with a reason naming it. */
static int look_beside(const char *path, char **why)
{
	static const char *const suffixes[] = { "-wal", "-shm", "-journal" };
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *side = xasprintf("%s%s", path, suffixes[i]);
		int bad = !stat(side, &st) && !S_ISREG(st.st_mode);

		if (bad)
			*why = xasprintf("history database '%s': '%s' beside it is %s, not a "
					 "regular file: remove it (SQLite keeps its log there)",
					 path, side, pab_file_kind(st.st_mode));
		free(side);
		if (bad)
			return -1;
	}
	return 0;
}

/* What is at path, for mode: 0 a regular file, 1 nothing there (a writer
 * creates it), -1 with a reason (anything else, or nothing for a reader;
 * a FIFO or the like where SQLite keeps its log beside it). */
static int look_at(const char *path, int mode, char **why)
{
	struct stat st;

	if (look_beside(path, why))
		return -1;

	if (stat(path, &st)) {
		if (errno == ENOENT && mode == PAB_HISTORY_WRITE)
			return 1;
		if (errno == ENOENT)
			*why = xasprintf("history database '%s' does not exist: record a run into it "
					 "first (perfab history record RUN.json --db %s)", path, path);
		else
			*why = xasprintf("history database '%s': cannot read it: %s", path,
					 strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = xasprintf("history database '%s' is %s, not a regular file: perfab keeps "
				 "its history only in a regular file", path,
				 pab_file_kind(st.st_mode));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Perfab's own                                                       */

/* Why SQLite failed on db at path, doing what: into *why. Returns -1. */
static int fail(sqlite3 *db, const char *path, char **why, const char *what)
{
	*why = xasprintf("history database '%s': %s: %s", path, what,
			 db ? sqlite3_errmsg(db) : "out of memory");
	return -1;
}

static int exec(sqlite3 *db, const char *path, const char *sql, char **why, const char *what)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return fail(db, path, why, what);
	return 0;
}

/* The integer a PRAGMA (or any one-value SELECT) sql returns, into *v:
 * 0, or -1 (SQLite's error in db). */
static int pragma_int(sqlite3 *db, const char *sql, int *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int listed(const char *name, const char *const *list)
{
	for (; list && *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

/* The tables, indexes, views and triggers of db (SQLite's own aside):
 * how many, whether merges and cells are among them, and those not in
 * known (NULL: none is) named, the first three, into *strangers.
 * Returns 0, or -1 (SQLite's error in db). */
static int objects_of(sqlite3 *db, const char *const *known, int *n, int *core,
		      struct pab_strbuf *strangers)
{
	sqlite3_stmt *st;
	int rc, n_strange = 0;

	*n = *core = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite!_%'"
			       " ESCAPE '!' ORDER BY name", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		name = name ? name : "";
		(*n)++;
		*core += !strcmp(name, "merges") || !strcmp(name, "cells");
		if (listed(name, known))
			continue;
		if (n_strange++ < 3)
			pab_strbuf_addf(strangers, "%s'%.60s'", strangers->len ? ", " : "",
					pab_term_safe(name));
	}
	sqlite3_finalize(st);
	if (n_strange > 3)
		pab_strbuf_addf(strangers, " and %d more", n_strange - 3);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * inspect: the schema version of db at path when it is perfab's own and
 * no newer than this build (0: an empty database, a new one); -1 with a
 * reason when it is not, or is newer; -2 with a reason when it cannot be
 * read at all (*rc: SQLite's extended code). Reads only.
 */
static int inspect(sqlite3 *db, const char *path, int *rc, char **why)
{
	struct pab_strbuf strangers = PAB_STRBUF_INIT;
	int app, v, n, core, ret = -1;

	if (pragma_int(db, "PRAGMA application_id", &app) ||
	    pragma_int(db, "PRAGMA user_version", &v) ||
	    objects_of(db, v == 1 ? objects_v1 : v == 2 ? objects_v2 : NULL, &n, &core,
		       &strangers)) {
		*rc = sqlite3_extended_errcode(db);
		fail(db, path, why, "cannot read it");
		ret = -2;
		goto out_release;
	}
	if (app && app != PAB_HISTORY_APPLICATION_ID)
		*why = xasprintf("history database '%s' is another program's SQLite database "
				 "(application id 0x%08x), not perfab's: it was left as it is; give "
				 "--db a file of perfab's own (a new path makes one)", path,
				 (unsigned)app);
	else if (!app && (n || v) && (strangers.len || core < 2 || (v != 1 && v != 2)))
		*why = xasprintf("history database '%s' is not perfab's: it holds %s, which "
				 "perfab does not make, and no perfab mark; it was left as it is: "
				 "give --db a file of perfab's own (a new path makes one)", path,
				 strangers.len ? strangers.buf : "no history tables");
	else if (v > PAB_HISTORY_SCHEMA)
		*why = xasprintf("history database '%s' has schema %d, newer than this perfab's "
				 "%d: use a newer perfab", path, v, PAB_HISTORY_SCHEMA);
	else if (v < 0) /* no perfab writes one: a damaged header */
		*why = xasprintf("history database '%s' has schema %d, which no perfab writes: "
				 "it is damaged; it was left as it is: restore it from a copy", path,
				 v);
	else
		ret = v;
out_release:
	pab_strbuf_release(&strangers);
	return ret;
}

/* inspect() in one read transaction: its three queries read one
 * snapshot, never a file another writer creates between them (which read
 * as "tables but no perfab mark": not perfab's). */
static int inspect_snapshot(sqlite3 *db, const char *path, int *rc, char **why)
{
	int v;

	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		*rc = sqlite3_extended_errcode(db);
		fail(db, path, why, "cannot read it");
		return -2;
	}
	v = inspect(db, path, rc, why);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return v;
}

/* ------------------------------------------------------------------ */
/* The schema                                                         */

static void rollback(sqlite3 *db)
{
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

/* Create or migrate the schema, in one write transaction so that two
 * processes opening a new file do not both create it; what is there is
 * looked at again inside it. */
static int update_schema(sqlite3 *db, const char *path, int *migrated_from, char **why)
{
	char *sql;
	int v, rc;

	if (exec(db, path, "BEGIN IMMEDIATE", why, "cannot lock it"))
		return -1;
	v = inspect(db, path, &rc, why);
	if (v < 0)
		goto out_rollback;
	if (v == PAB_HISTORY_SCHEMA) {
		rollback(db);
		return 0;
	}
	if (v >= 1 && migrated_from)
		*migrated_from = v;
	if ((v == 0 && exec(db, path, schema_v1, why, "cannot create its schema")) ||
	    (v <= 1 && exec(db, path, migrate_v2, why, "cannot migrate it to schema 2")) ||
	    (v <= 2 && exec(db, path, migrate_v3, why, "cannot migrate it to schema 3")))
		goto out_rollback;
	sql = xasprintf("PRAGMA application_id = %d; PRAGMA user_version = %d",
			PAB_HISTORY_APPLICATION_ID, PAB_HISTORY_SCHEMA);
	v = exec(db, path, sql, why, "cannot set its schema version");
	free(sql);
	if (v || exec(db, path, "COMMIT", why, "cannot commit its schema"))
		goto out_rollback;
	return 0;
out_rollback:
	rollback(db);
	return -1;
}

static int on_busy(void *unused, int n);

/* A writer's settings. WAL: readers never block the writer;
 * synchronous=NORMAL in WAL keeps the file consistent through any crash
 * (a power cut may lose the last commits, a killed process loses nothing
 * committed). Set only once the file is known to be perfab's. */
static int set_up_writer(sqlite3 *db, const char *path, char **why)
{
	int rc, n = 0;

	/* The switch takes its write lock inside the statement's own read
	 * transaction, where SQLite does not call the busy handler (it could
	 * deadlock): another writer creating the file meanwhile makes it
	 * SQLITE_BUSY at once. So it waits here as the handler would. */
	while ((rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) & 0xff) ==
		       SQLITE_BUSY &&
	       on_busy(NULL, n++))
		;
	if (rc != SQLITE_OK)
		return fail(db, path, why, "cannot switch it to WAL");
	return exec(db, path, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", why,
		    "cannot set it up");
}

/* ------------------------------------------------------------------ */
/* Opening                                                            */

/* The URI that opens path read-only as it is ("file:PATH?immutable=1",
 * the path percent-encoded); new memory. */
static char *immutable_uri(const char *path)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	const unsigned char *p;

	pab_strbuf_addstr(&sb, path[0] == '/' ? "file://" : "file:");
	for (p = (const unsigned char *)path; *p; p++)
		if (isalnum(*p) || strchr("/-._~", *p))
			pab_strbuf_add(&sb, (const char *)p, 1);
		else
			pab_strbuf_addf(&sb, "%%%02X", *p);
	pab_strbuf_addstr(&sb, "?immutable=1");
	return pab_strbuf_detach(&sb);
}

/* 1 when a reader that could not read path (SQLite's code rc) may read it
 * as it is: SQLite could not make the shared-memory index of a WAL file
 * beside it (a directory this user cannot write), and no write-ahead log
 * is there, so everything committed is in the file and nobody can write
 * it meanwhile (a writer would make the log in that directory). */
static int readable_as_it_is(const char *path, int rc)
{
	char *wal, *dir;
	int ret;

	if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN)
		return 0;
	wal = xasprintf("%s-wal", path);
	dir = pab_dir_of(path);
	ret = access(wal, F_OK) && errno == ENOENT && access(dir, W_OK);
	free(wal);
	free(dir);
	return ret;
}

/*
 * SQLite's busy handler: wait for another connection's lock in steps of
 * 10 ms, up to BUSY_TIMEOUT_MS, then give up (SQLITE_BUSY). Test hook
 * PERFAB_TEST_HISTORY_BUSY=FILE: FILE is created at the first wait, so a
 * test sees that a writer waited rather than guess it from a sleep.
 */
static int on_busy(void *unused, int n)
{
	const char *mark = pab_test_hook(PAB_TEST_HISTORY_BUSY);

	(void)unused;
	if (n == 0 && mark && *mark) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
	}
	if ((long)n * 10 >= BUSY_TIMEOUT_MS)
		return 0;
	usleep(10000);
	return 1;
}

/* sqlite3_open_v2 of name (path, or a URI of it) with flags into *db, the
 * busy handler and extended codes set. 0, or -1 with a reason naming path. */
static int open_db(const char *name, const char *path, int flags, sqlite3 **db, char **why)
{
	if (sqlite3_open_v2(name, db, flags, NULL) != SQLITE_OK) {
		fail(*db, path, why, "cannot open it");
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	sqlite3_busy_handler(*db, on_busy, NULL);
	sqlite3_extended_result_codes(*db, 1);
	return 0;
}

int pab_history_file_open(const char *path, int mode, sqlite3 **out, int *version,
			  int *migrated_from, char **why)
{
	sqlite3 *db = NULL;
	int v, rc = 0;

	*out = NULL;
	*why = NULL;
	if (migrated_from)
		*migrated_from = 0;
	guard_opens();
	if (look_at(path, mode, why) < 0)
		return -1;
	if (open_db(path, path, mode == PAB_HISTORY_WRITE ?
		    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY, &db, why))
		return -1;
	/* SQLite opens a file it may not write read-only, silently. */
	if (mode == PAB_HISTORY_WRITE && sqlite3_db_readonly(db, "main") == 1) {
		*why = xasprintf("history database '%s': cannot write it: it is read-only to this "
				 "user (a record needs to write the file and its directory)", path);
		goto out_close;
	}
	v = inspect_snapshot(db, path, &rc, why);
	if (v == -2 && mode == PAB_HISTORY_READ && readable_as_it_is(path, rc)) {
		char *uri = immutable_uri(path);

		free(*why);
		*why = NULL;
		sqlite3_close(db);
		v = open_db(uri, path, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, &db, why);
		free(uri);
		if (v)
			return -1;
		v = inspect_snapshot(db, path, &rc, why);
	}
	if (v == -2 && mode == PAB_HISTORY_WRITE && (rc & 0xff) == SQLITE_READONLY) {
		free(*why);
		*why = xasprintf("history database '%s': cannot write it: %s (a record needs to "
				 "write the file and its directory)", path, sqlite3_errmsg(db));
	}
	if (v < 0)
		goto out_close;
	if (mode == PAB_HISTORY_READ && v == 0) {
		*why = xasprintf("history database '%s' holds no history yet: record a run into it "
				 "first (perfab history record RUN.json --db %s)", path, path);
		goto out_close;
	}
	if (mode == PAB_HISTORY_WRITE) {
		if (set_up_writer(db, path, why) || update_schema(db, path, migrated_from, why))
			goto out_close;
		v = PAB_HISTORY_SCHEMA;
	}
	*version = v;
	*out = db;
	return 0;
out_close:
	sqlite3_close(db);
	return -1;
}
