/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run_record.h — the records the model types besides the run's settings
 * (experiment.h): the judged set and run.pool, the run's binding and
 * costs, the sanity cells, the host's CPU model, and the JSON text of what
 * stays untyped (the host fingerprint, the other keys of "run"). Only this
 * codec turns them to and from JSON, and it alone orders the keys; the
 * model's consumers see the typed fields. The trees
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
 * (pab_run_settings_read), the judged set, the binding and costs and the
 * pool record, each given when its typed form says the artifact's value
 * again exactly.
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
 * then run_json's keys, then the binding, the costs and the pool record
 * given that run_json lacks; each given field in place of its key. pab_sanity_json: the "sanity"
 * array, or NULL for JSON null. New trees (caller deletes).
 */
struct cJSON *pab_run_json(const struct pab_experiment *e);
struct cJSON *pab_sanity_json(const struct pab_experiment *e);
/* text (JSON the model holds) parsed; NULL text: NULL, or {} when
 * empty_object. Text that does not parse is a bug. New tree. */
struct cJSON *pab_json_text_parse(const char *text, int empty_object);
/*
 * What a run records of itself (e->costs, model/run_costs.h), each key
 * written where the schema puts it: after the other keys of "run",
 * binding, sampler_cpu_s, sampler_samples, perfab_peak_rss, attribution,
 * then the pool.
 * pab_run_record_binding: the binding a run starts with (binding_json, a
 * JSON object's text); the binding of the artifact it resumes, from an
 * earlier invocation, is dropped from its place. pab_run_record_costs:
 * after the last rep, the binding again (in the place it has now) and the
 * sampler's CPU seconds and samples and perfab's peak RSS (NaN: unread,
 * not recorded), those of an earlier invocation dropped from theirs.
 */
void pab_run_record_binding(struct pab_experiment *e, const char *binding_json);
void pab_run_record_costs(struct pab_experiment *e, const char *binding_json,
			  double sampler_cpu_s, double sampler_samples, double peak_rss_bytes);
/* The attribution phase's record (record_json, a JSON object's text:
 * doc/artifact-schema.md §3 "attribution"), that of an earlier invocation
 * replaced, written after perfab_peak_rss. */
void pab_run_record_attribution(struct pab_experiment *e, const char *record_json);

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
