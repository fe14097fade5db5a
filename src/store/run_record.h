/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run_record.h — the records the model types besides the run's settings
 * (experiment.h): the judged set and run.pool, the sanity cells, the
 * host's CPU model, and the JSON text of what stays untyped (the host
 * fingerprint, the other keys of "run"). Only this codec turns them to and
 * from JSON; the model's consumers see the typed fields, and set an
 * untyped key through pab_run_json_set() without a JSON tree. The trees
 * below are cJSON's (declared, not included: a file that passes one
 * includes cJSON's header itself).
 */
#ifndef PAB_RUN_RECORD_H
#define PAB_RUN_RECORD_H

#include "model/experiment.h"

struct cJSON;

/*
 * pab_records_read: the artifact's "host", "sanity" and "run" values
 * (any may be NULL) into e: host_json and cpu_model, the sanity cells,
 * run_json (the whole "run" object as read), the settings
 * (pab_run_settings_read) and the judged set and pool record, each given
 * when its typed form says the artifact's value again exactly.
 */
void pab_records_read(const struct cJSON *host, const struct cJSON *sanity,
		      const struct cJSON *run,
		      struct pab_experiment *e);
/* The CPU model string of a fingerprint (owned by host), or NULL. */
const char *pab_host_cpu_model(const struct cJSON *host);
/* A row's "host" object into row->host_json and row->cpu_model. */
void pab_row_host_read(const struct cJSON *host, struct pab_row *row);
/*
 * pab_run_json: the "run" object to write: the settings given (as
 * pab_run_settings_json), then the judged set given that run_json lacks,
 * then run_json's keys, then the pool record when run_json lacks it;
 * each given field in place of its key. pab_sanity_json: the "sanity"
 * array, or NULL for JSON null. New trees (caller deletes).
 */
struct cJSON *pab_run_json(const struct pab_experiment *e);
struct cJSON *pab_sanity_json(const struct pab_experiment *e);
/* text (JSON the model holds) parsed; NULL text: NULL, or {} when
 * empty_object. Text that does not parse is a bug. New tree. */
struct cJSON *pab_json_text_parse(const char *text, int empty_object);
/*
 * An untyped key of "run" (binding, the sampler's cost) set to the JSON
 * text value_json: pab_run_json_set removes key and appends it (NULL
 * value_json: only removes it); pab_run_json_replace replaces it in
 * place (appended when absent).
 */
void pab_run_json_set(struct pab_experiment *e, const char *key, const char *value_json);
void pab_run_json_replace(struct pab_experiment *e, const char *key, const char *value_json);

/*
 * pab_fingerprint_load: the host fingerprint stored in the file at path
 * (an artifact's "host", `perfab env --format json` output's, or a bare
 * fingerprint object), its stored "checklist" removed, as JSON text (new
 * memory). NULL with a sentence in *why (caller frees) when path cannot
 * be read, is not a JSON object or holds no fingerprint (no cpu_model,
 * no kernel).
 */
char *pab_fingerprint_load(const char *path, char **why);

#endif /* PAB_RUN_RECORD_H */
