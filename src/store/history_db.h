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
 * there at all. Readers open it read-only and write nothing, and only a
 * file that is perfab's own is read or written (history_file.h: the
 * checked open, perfab's own, the schema versions).
 *
 * Identity: a merge is the runs its artifact holds, as `perfab pool`
 * names a run (its journal id and seed: model/pool.c), so a copy of an
 * artifact, reformatted or not, is the merge already recorded. An
 * artifact that names no run (written before runs had a journal id, or a
 * pool of such) is identified by a digest of its measurements. A record
 * of runs that are all one merge's, and all of it, is that merge (nothing
 * changes); one that shares some of its runs with recorded merges (a
 * pooled artifact and one of its sources) is refused, so that drift never
 * chains a run twice. The artifact's SHA-256 is kept too, and the same
 * file again is the same merge whatever it names (the only identity of
 * merges recorded before schema 3).
 *
 * Errors: every function returns 0 or -1 with a reason (caller frees) in
 * *why, naming the file; nothing here prints.
 */
#ifndef PAB_HISTORY_DB_H
#define PAB_HISTORY_DB_H

#include <stddef.h>
#include <stdint.h>

#include "model/history.h"
#include "store/history_file.h"

struct pab_history_db;

/*
 * pab_history_open: open the database at path (pab_history_file_open):
 * mode PAB_HISTORY_WRITE creates it when absent, sets WAL and the busy
 * timeout and creates or migrates its schema to PAB_HISTORY_SCHEMA
 * (*migrated_from: the version found when a migration ran, else 0; may be
 * NULL); PAB_HISTORY_READ opens an existing file read-only, as it is. A
 * file that is not perfab's own, or of a newer schema than this build
 * knows, is refused. Returns 0 with *out (close with pab_history_close),
 * or -1 with a reason.
 */
int pab_history_open(const char *path, int mode, struct pab_history_db **out,
		     int *migrated_from, char **why);
void pab_history_close(struct pab_history_db *db);

/*
 * pab_history_record: add the merge m and its cells[0..n) in one
 * transaction, unless it is recorded already ("Identity" above). *already
 * is set to 0 when it was added; 1 when the same file or the same runs
 * are merge *merge_id already (nothing is written); 2 when some of its
 * runs, not all or not only them, are recorded, in merge *merge_id among
 * others (nothing is written: the caller refuses it). *merge_id gets the
 * new merge's id (the record order) when added. Returns 0, or -1 with a
 * reason (on a database opened for reading, always).
 */
int pab_history_record(struct pab_history_db *db, const struct pab_history_merge *m,
		       const struct pab_history_cell *cells, size_t n,
		       int64_t *merge_id, int *already, char **why);

/*
 * pab_history_scan: the cells f selects, each given to on_point without
 * the history held in memory, in the order they were stored (merge by
 * merge: a record appends to the tables instead of touching one index
 * page per series). series is the index of the cell's row, arm and
 * metric (0, 1, ... in the order they are first met); the names, and the
 * point with its merge, are borrowed for the call. *merges, how many
 * merges f selects, is set before the first call. A `since` that names
 * no recorded commit is an error. Returns 0 or -1 (then *why; on_point
 * may have seen some of the cells).
 */
typedef void (*pab_history_point_fn)(void *ctx, size_t series, const char *row,
				     const char *arm, const char *metric,
				     const struct pab_history_point *p);
int pab_history_scan(struct pab_history_db *db, const struct pab_history_filter *f,
		     pab_history_point_fn on_point, void *ctx, size_t *merges, char **why);

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
