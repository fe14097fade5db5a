/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * baseline.h — the memory gate's baseline file (doc/memgate.md), which
 * `perfab memgate record` writes and `perfab memgate check` reads:
 *
 *   { "schema": "perfab-memgate/1", "metric": "peak_rss", "arm": "head",
 *     "runs": 8, "cpu_model": "...", "perfab_version": "...",
 *     "scenarios": { "ROW": BYTES, ... } }
 *
 * Only schema and scenarios are required.
 */
#ifndef PAB_BASELINE_H
#define PAB_BASELINE_H

#include "model/memgate_baseline.h"

#define PAB_MEMGATE_SCHEMA "perfab-memgate/1"

/*
 * pab_baseline_load: read the baseline at path into *b (initialised by
 * the call) with the checked reader (json_in.h): the schema, a metric of
 * peak_rss when given, arm and cpu_model strings or null, a non-empty
 * object of positive byte counts. Returns 0, or -1 with a reason naming
 * the file and the field (caller frees) and b released.
 */
int pab_baseline_load(const char *path, struct pab_memgate_baseline *b, char **why);

/* pab_baseline_text: b as the file's JSON text (arm and cpu_model written
 * when recorded, perfab_version this perfab's); caller frees with
 * cJSON_free. */
char *pab_baseline_text(const struct pab_memgate_baseline *b);

/*
 * pab_baseline_save: write b's text and a newline to path through the
 * safe writer (pab_write_file_atomic, tempfile.h; the caller holds the
 * lock). Returns 0, or -1 with errno set and a reason (caller frees).
 */
int pab_baseline_save(const char *path, const struct pab_memgate_baseline *b, char **why);

#endif /* PAB_BASELINE_H */
