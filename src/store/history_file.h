/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_file.h — the history database as a file (history_db.h is the
 * database): opening it for a reader or a writer, what makes a SQLite
 * file perfab's own, and its schema, created and migrated forward by
 * writers only.
 *
 * Opening: what is at the path must be a regular file (or, for a writer,
 * nothing). Every file SQLite opens for it (the database, its write-ahead
 * log, its shared-memory index, its journal) is opened O_NONBLOCK and
 * looked at (fstat) once open, so a FIFO, socket or device node planted at
 * any of those paths is refused, never waited on.
 *
 * A reader opens the file read-only: it never creates it, never switches
 * it to WAL, never migrates it, and reads a database of an older schema as
 * it is. A reader that cannot write the directory, of a WAL database
 * with no write-ahead log there (a clean close removed it), reads the file
 * as it is (SQLite's immutable mode: nobody can write it then, a writer
 * would need that directory too).
 *
 * Perfab's own: its application id (PRAGMA application_id) is
 * PAB_HISTORY_APPLICATION_ID, which every writer sets; or, as files of
 * schema 1 and 2 were written before there was one, it has no application
 * id, the schema version 1 or 2 and exactly the tables and indexes of that
 * version. An empty database (no table, version 0) is a new one. Anything
 * else — another program's application id, a table or index perfab does
 * not make — is refused unread and unchanged, by readers and writers.
 *
 * Schema versions (PRAGMA user_version), migrated forward by a writer:
 *   1  merges (id, artifact_sha256, commit_sha, base_sha, branch,
 *      recorded_at, perfab_version, rules, stop_reason) and cells
 *      (merge_id, row, arm, metric, base_median, head_median, change_pct,
 *      lo_pct, hi_pct, tolerance_pct, verdict, n), keyed by merge
 *   2  adds merges.cpu_model, host_digest, counts_source, cells.coverage
 *      (NULL in migrated cells: read as the nominal 95%), the labels
 *      table (merge_id, key, value) and an index of merges by branch;
 *      drops an index of cells by series that some schema-1 files have
 *   3  adds the runs table (run, merge_id): the identity of every run a
 *      merge's artifact holds (history_db.h, "Identity"), and the
 *      application id; merges recorded before have none
 *
 * Errors: a function returns 0 or -1 with a reason (caller frees) that
 * names the file in *why; nothing here prints.
 */
#ifndef PAB_HISTORY_FILE_H
#define PAB_HISTORY_FILE_H

struct sqlite3; /* SQLite's connection; only the store's files include sqlite3.h */

/* The schema this build writes. */
#define PAB_HISTORY_SCHEMA 3
/* PRAGMA application_id of a perfab history database: "PFAB". */
#define PAB_HISTORY_APPLICATION_ID 0x50464142

/* How a database is opened (pab_history_file_open, pab_history_open). */
#define PAB_HISTORY_READ 0  /* read-only; the file must exist */
#define PAB_HISTORY_WRITE 1 /* created when absent, WAL, migrated */

/*
 * pab_history_file_open: open the database at path for mode (above) and
 * check that it is perfab's own and no newer than PAB_HISTORY_SCHEMA; a
 * writer then sets WAL, the busy timeout and foreign keys, and creates or
 * migrates the schema (*migrated_from: the version found when a migration
 * ran, else 0; may be NULL). *version gets the schema version the
 * connection sees (for a writer PAB_HISTORY_SCHEMA). Returns 0 with *db
 * (close with sqlite3_close), or -1 with a reason.
 */
int pab_history_file_open(const char *path, int mode, struct sqlite3 **db, int *version,
			  int *migrated_from, char **why);

#endif /* PAB_HISTORY_FILE_H */
