/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact_read.h — the experiment loaded from its JSON document (schema
 * perfab-artifact/1, doc/artifact-schema.md) with validation (artifact_read.c;
 * saving is artifact_write.h). Loading trusts nothing: every field is type- and range-checked, and the first
 * problem is reported with its JSON path. The journal beside an artifact
 * is checkpoint.h.
 */
#ifndef PAB_ARTIFACT_READ_H
#define PAB_ARTIFACT_READ_H

#include "model/experiment.h"
#include "store/checkpoint.h"

/* Largest artifact perfab will read (bytes); from a pipe or device. */
#define PAB_ARTIFACT_MAX_BYTES ((size_t)2 << 30)
#define PAB_STREAM_MAX_BYTES ((size_t)256 << 20)

/* PAB_ARTIFACT_BAD_PROTOCOL, what a load returns for reps that break the
 * protocol, is checkpoint.h's (the journal's reps can break it too). */

/* The exit code for a failed load: PAB_EXIT_REFUSED for
 * PAB_ARTIFACT_BAD_PROTOCOL, else PAB_EXIT_USAGE. */
int pab_artifact_load_exit_code(int load_ret);

/*
 * pab_artifact_parse: fill e (initialised by the call) from a JSON text,
 * read with the checked reader (json_in.h). Returns 0, or -1 (or
 * PAB_ARTIFACT_BAD_PROTOCOL) with a reason (caller frees) naming the
 * offending field by its path ("rows[0] ('sort').reps[3]: field 'block'
 * must be a whole number in [0, 1000000000000]"); e is then released. Arm
 * names must be valid names (pab_valid_arm_name), the protocol is checked.
 */
int pab_artifact_parse(const char *text, size_t len,
		       struct pab_experiment *e, char **why);

/*
 * pab_artifact_load: read and parse path, and, when path is a regular file
 * with a checkpoint journal beside it (PATH.journal, journal.h), add the
 * reps the journal holds that the artifact does not yet. Same contract as
 * parse; reasons include the path. A journal that cannot be trusted (not
 * this artifact's — another id or seed —, damaged before its end, records
 * that do not continue the artifact, reps after a complete artifact) fails
 * the load with the reason; a torn last record is dropped. This is the one
 * loader: run --resume, ledger, gate, pool and memgate all read through it.
 */
int pab_artifact_load(const char *path, struct pab_experiment *e, char **why);

/*
 * pab_artifact_load_foreign: pab_artifact_load, and when the load fails
 * and the document (a JSON object) records another arm-order protocol
 * than this perfab's, that protocol in *foreign ("(none)" when it records
 * none; new string), else NULL there. One read and one parse of path.
 */
int pab_artifact_load_foreign(const char *path, struct pab_experiment *e,
			      char **foreign, char **why);

/* pab_artifact_load, also telling what came from the journal (info). */
int pab_artifact_load_journaled(const char *path, struct pab_experiment *e,
				struct pab_journal_info *info, char **why);

#endif /* PAB_ARTIFACT_READ_H */
