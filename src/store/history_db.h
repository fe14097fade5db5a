/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * history_db.h — the history database of `perfab history`: one SQLite
 * file holding, for every recorded merge (one judged artifact), its
 * commits, branch, labels, rules, stop reason, CPU model, host digest and
 * counts source, and per row × head arm × metric the figures its ledger
 * judged (medians, the paired change and its interval, tolerance, verdict,
 * n). The figures come from the ledger; this module only stores and reads
 * them.
 *
 * Safety: the file is in WAL mode with a busy timeout, and every write is
 * one BEGIN IMMEDIATE transaction, so two writers serialise instead of
 * failing and a kill at any instant leaves either the merge whole or not
 * there at all. A merge is keyed by its artifact's SHA-256: recording the
 * same artifact again changes nothing.
 *
 * Schema versions (PRAGMA user_version), migrated forward on open:
 *   1  merges (id, artifact_sha256, commit_sha, base_sha, branch,
 *      recorded_at, perfab_version, rules, stop_reason) and cells
 *      (merge_id, row, arm, metric, base_median, head_median, change_pct,
 *      lo_pct, hi_pct, tolerance_pct, verdict, n), keyed by merge
 *   2  adds merges.cpu_model, host_digest, counts_source, cells.coverage
 *      (NULL in migrated cells: read as the nominal 95%), the labels
 *      table (merge_id, key, value) and an index of merges by branch;
 *      drops an index of cells by series that some schema-1 files have
 *
 * Errors: every function returns 0 or -1 with a reason (caller frees) in
 * *why, naming the file; nothing here prints.
 */
#ifndef PAB_HISTORY_DB_H
#define PAB_HISTORY_DB_H

#include <stddef.h>
#include <stdint.h>

#include "model/history.h"

/* The schema this build writes. */
#define PAB_HISTORY_SCHEMA 2

struct pab_history_db;

/*
 * pab_history_open: open (creating it when absent and create is set) the
 * database at path, set WAL and the busy timeout, and create or migrate
 * its schema to PAB_HISTORY_SCHEMA. A database of a newer schema than
 * this build knows is refused. *migrated_from is set to the version found
 * when a migration ran, else 0 (may be NULL). Returns 0 with *out (close
 * with pab_history_close), or -1 with a reason.
 */
int pab_history_open(const char *path, int create, struct pab_history_db **out,
		     int *migrated_from, char **why);
void pab_history_close(struct pab_history_db *db);

/*
 * pab_history_record: add the merge m and its cells[0..n) in one
 * transaction. When an artifact of the same digest is already recorded
 * nothing is written and *already is set to 1 (else 0). *merge_id gets
 * the merge's id (the record order) either way. Returns 0 or -1.
 */
int pab_history_record(struct pab_history_db *db, const struct pab_history_merge *m,
		       const struct pab_history_cell *cells, size_t n,
		       int64_t *merge_id, int *already, char **why);

/*
 * pab_history_query: the series f selects into *out (release with
 * pab_history_set_release, model/history.h). A `since` that names no recorded commit is
 * an error. The cells are read in the order they were stored (by merge)
 * and sorted into their series here, so that a record appends to the
 * tables instead of touching one index page per series. Returns 0 or -1
 * (out then empty).
 */
int pab_history_query(struct pab_history_db *db, const struct pab_history_filter *f,
		      struct pab_history_set *out, char **why);

/* Merges recorded in the database (every branch). Returns 0 or -1. */
int pab_history_count(struct pab_history_db *db, int64_t *merges, int64_t *cells,
		      char **why);

/* A digest (SHA-256, hex) of the host fingerprint without what changes
 * from run to run on the same machine (load, free memory, running
 * processes), so two runs of one runner share it; host_json is the
 * fingerprint as the model holds it (struct pab_experiment.host_json),
 * NULL for none (then NULL). New memory. */
char *pab_history_host_digest(const char *host_json);

/* The SQLite library's version string ("3.40.1"), for --version. */
const char *pab_history_sqlite_version(void);

#endif /* PAB_HISTORY_DB_H */
