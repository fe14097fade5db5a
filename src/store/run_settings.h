/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run_settings.h — the typed settings of a run (struct pab_run_settings,
 * experiment.h) and the artifact's "run" object they are written to and
 * read back from (doc/artifact-schema.md, section 3).
 *
 * The object also holds what is not a setting (metrics, floors, binding,
 * the sampler's cost, pool: typed by run_record.h; keys a newer perfab
 * wrote: JSON text, e->run_json). Read back, e->run_json keeps every key
 * as the artifact has it and the settings that read cleanly are also
 * typed; saved, every setting given is written in place of its key (or,
 * when the object lacks it, before its keys), so an artifact read and
 * saved again keeps its keys, their order and any value perfab could not
 * type.
 */
#ifndef PAB_RUN_SETTINGS_H
#define PAB_RUN_SETTINGS_H

struct cJSON; /* cJSON's; a caller passing a tree includes its header */

#include "model/experiment.h"

/*
 * pab_run_settings_read: the settings of run (an artifact's "run" object,
 * or NULL) into s (initialised by the call). What `perfab run --resume`
 * relies on is checked the way the options that set it are: each number
 * against its option's range (sample_interval_ms like --sample-interval,
 * timeout_s --timeout, scale --scale, max_procs --max-procs, a whole
 * number, budget_s in [0, a week]) before any cast; cgroup, sanity_gate
 * and ignore_failure booleans; counters and cpus strings. null or absent:
 * not given (the default). One of these out of range or of the wrong type
 * leaves all of them not given and s->invalid saying why ("run.timeout_s
 * must be ..."; owned by s). shard, looks, stop_reason and elapsed_s are
 * given when they read cleanly and left to the tree when not. Never fails
 * otherwise.
 */
void pab_run_settings_read(const struct cJSON *run, struct pab_run_settings *s);

/*
 * pab_run_settings_json: the "run" object to write: the settings given in
 * s that rest lacks, in the order of the schema, then rest's keys in order
 * (rest may be NULL), each setting given in s in place of its key. New
 * tree (caller deletes).
 */
struct cJSON *pab_run_settings_json(const struct pab_run_settings *s,
				    const struct cJSON *rest);

#endif /* PAB_RUN_SETTINGS_H */
