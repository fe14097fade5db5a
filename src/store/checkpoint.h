/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * checkpoint.h — the checkpoint journal (journal.h) bound to its
 * artifact: PATH.journal beside PATH, a header naming the artifact's
 * journal id and seed, then one record per rep completed since the
 * artifact was last written (doc/artifact-schema.md, "The journal").
 * `perfab run` appends the records (run/runner.c); every load of an
 * artifact (pab_artifact_load_journaled, artifact_read.h) folds them back in.
 */
#ifndef PAB_CHECKPOINT_H
#define PAB_CHECKPOINT_H

#include <stddef.h>

#include "model/experiment.h"

/* The journal's schema name, in its header record. */
#define PAB_JOURNAL_SCHEMA "perfab-journal/1"

/* pab_artifact_parse() and pab_artifact_load() return this when the JSON
 * is a well-formed artifact whose reps break the protocol
 * (pab_experiment_check_protocol): tampered or damaged data, which every
 * command refuses with PAB_EXIT_REFUSED. */
#define PAB_ARTIFACT_BAD_PROTOCOL (-2)

/* What the journal beside an artifact gave the loader. */
struct pab_journal_info {
	int present;       /* a journal file was there */
	size_t applied;    /* reps taken from it */
	int torn;          /* its torn last record was dropped */
	size_t torn_bytes;
};

/* PATH.journal (new string). */
char *pab_artifact_journal_path(const char *path);

/*
 * The journal records, as JSON payloads (new memory, *len bytes, caller
 * frees): the header binding a journal to e (its journal_id and seed), and
 * the record of row's last rep (with the row's failed state). Both cost
 * O(one rep), however many reps the experiment holds. NULL with a reason
 * (caller frees) in *why when the memory stream cannot be had.
 */
char *pab_artifact_journal_header(const struct pab_experiment *e, size_t *len,
				  char **why);
char *pab_artifact_rep_record(const struct pab_experiment *e, size_t row,
			      size_t *len, char **why);

/*
 * pab_checkpoint_apply: read path's journal (PATH.journal), if any, and
 * add the reps it holds beyond e->journal_folded to e (which was read
 * from path), advancing e->journal_folded. No journal: 0 with info left
 * as given. Else 0 with info filled, or -1 (PAB_ARTIFACT_BAD_PROTOCOL
 * when the reps together break the protocol) with a reason naming the
 * files (caller frees) in *why: a journal of another run or none, a
 * header or record damaged before the end, records that skip or do not
 * continue the artifact, reps after a complete artifact. A torn last
 * record is dropped (info->torn).
 */
int pab_checkpoint_apply(const char *path, struct pab_experiment *e,
			 struct pab_journal_info *info, char **why);

#endif /* PAB_CHECKPOINT_H */
