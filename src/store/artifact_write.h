/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact_write.h — the experiment saved as its JSON document (schema
 * perfab-artifact/1, doc/artifact-schema.md), atomically (artifact_write.c;
 * loading is artifact_read.h).
 *
 * Saving never leaves a torn file: the document goes to a temp file in the
 * same directory, is fsync'ed, renamed over the target, and the directory
 * is fsync'ed (pab_write_file_atomic, tempfile.h). A kill -9 at any
 * instant leaves either the previous checkpoint or the new one. The
 * writer's lock is tempfile.h's.
 */
#ifndef PAB_ARTIFACT_WRITE_H
#define PAB_ARTIFACT_WRITE_H

#include "model/experiment.h"

/*
 * pab_artifact_save: write e to path atomically. Returns 0, or -1 with
 * errno set and a reason (caller frees) in *why; the previous file at path
 * is then untouched.
 */
int pab_artifact_save(const struct pab_experiment *e, const char *path,
		      char **why);

#endif /* PAB_ARTIFACT_WRITE_H */
