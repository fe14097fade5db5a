/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact.h — the experiment as a JSON document (schema perfab-artifact/1,
 * doc/artifact-schema.md), saved atomically and loaded with validation:
 * pab_artifact_save() is artifact_write.c, the rest artifact_read.c.
 *
 * Saving never leaves a torn file: the document goes to a temp file in the
 * same directory, is fsync'ed, renamed over the target, and the directory
 * is fsync'ed (pab_write_file_atomic, tempfile.h). A kill -9 at any
 * instant leaves either the previous checkpoint or the new one. Loading
 * trusts nothing: every field is type- and range-checked, and the first
 * problem is reported with its JSON path. The journal beside an artifact
 * is checkpoint.h; the writer's lock, tempfile.h.
 */
#ifndef PAB_ARTIFACT_H
#define PAB_ARTIFACT_H

#include <cjson/cJSON.h>

#include "model/experiment.h"

/* Largest artifact perfab will read (bytes); from a pipe or device. */
#define PAB_ARTIFACT_MAX_BYTES ((size_t)2 << 30)
#define PAB_STREAM_MAX_BYTES ((size_t)256 << 20)

/*
 * pab_artifact_save: write e to path atomically. Returns 0, or -1 with
 * errno set and a reason (caller frees) in *why; the previous file at path
 * is then untouched.
 */
int pab_artifact_save(const struct pab_experiment *e, const char *path,
		      char **why);

/* pab_artifact_parse() and pab_artifact_load() return this when the JSON
 * is a well-formed artifact whose reps break the protocol
 * (pab_experiment_check_protocol): tampered or damaged data, which every
 * command refuses with PAB_EXIT_REFUSED. */
#define PAB_ARTIFACT_BAD_PROTOCOL (-2)

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

/* What the journal beside an artifact gave the loader. */
struct pab_journal_info {
	int present;       /* a journal file was there */
	size_t applied;    /* reps taken from it */
	int torn;          /* its torn last record was dropped */
	size_t torn_bytes;
};

/* pab_artifact_load, also telling what came from the journal (info). */
int pab_artifact_load_journaled(const char *path, struct pab_experiment *e,
				struct pab_journal_info *info, char **why);

#endif /* PAB_ARTIFACT_H */
