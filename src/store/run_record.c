/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run_record.c — the records the model types besides the settings, to and
 * from the artifact's JSON (run_record.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "model/sanity.h"
#include "store/json_in.h"
#include "store/run_record.h"
#include "store/run_settings.h"
#include "util.h"

static cJSON *string_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* The metric names of set[] (1 = named), in the table's order. */
static cJSON *metric_names_json(const int set[PAB_M_COUNT])
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < PAB_M_COUNT; i++)
		if (set[i])
			cJSON_AddItemToArray(arr, cJSON_CreateString(pab_metrics[i].name));
	return arr;
}

static void metric_names_read(const cJSON *arr, int set[PAB_M_COUNT])
{
	const cJSON *v;

	cJSON_ArrayForEach(v, arr) {
		const struct pab_metric *m = cJSON_IsString(v) ?
			pab_metric_find(v->valuestring) : NULL;

		if (m)
			set[m->id] = 1;
	}
}

static cJSON *number_or_null(double x)
{
	return isfinite(x) ? cJSON_CreateNumber(x) : cJSON_CreateNull();
}

static double number_or_nan(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static char *string_dup(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

	return s ? xstrdup(s) : NULL;
}

/* The JSON of run.pool as the record says it. */
static cJSON *pool_json(const struct pab_pool_record *p)
{
	cJSON *pool = cJSON_CreateObject(), *arr;
	size_t i;

	cJSON_AddItemToObject(pool, "artifacts", number_or_null(p->artifacts));
	arr = cJSON_AddArrayToObject(pool, "seeds");
	for (i = 0; i < p->n_seeds; i++)
		cJSON_AddItemToArray(arr, number_or_null(p->seeds[i]));
	arr = cJSON_AddArrayToObject(pool, "runs");
	for (i = 0; i < p->n_runs; i++) {
		cJSON *one = cJSON_CreateObject();

		cJSON_AddItemToObject(one, "journal", string_or_null(p->runs[i].journal));
		cJSON_AddItemToObject(one, "seed", number_or_null(p->runs[i].seed));
		cJSON_AddItemToArray(arr, one);
	}
	cJSON_AddItemToObject(pool, "mode", string_or_null(p->mode));
	arr = cJSON_AddArrayToObject(pool, "sources");
	for (i = 0; i < p->n_sources; i++) {
		const struct pab_pool_source *s = &p->sources[i];
		cJSON *src = cJSON_CreateObject();

		cJSON_AddItemToObject(src, "name", string_or_null(s->name));
		cJSON_AddItemToObject(src, "seed", number_or_null(s->seed));
		cJSON_AddItemToObject(src, "shard", string_or_null(s->shard));
		cJSON_AddItemToObject(src, "rows", number_or_null(s->rows));
		cJSON_AddItemToObject(src, "reps", number_or_null(s->reps));
		cJSON_AddItemToArray(arr, src);
	}
	return pool;
}

static void pool_read(const cJSON *v, struct pab_pool_record *p)
{
	const cJSON *arr, *it;
	size_t n;

	pab_pool_record_release(p);
	if (!cJSON_IsObject(v))
		return;
	p->recorded = 1;
	p->artifacts = number_or_nan(v, "artifacts");
	arr = cJSON_GetObjectItemCaseSensitive(v, "seeds");
	n = cJSON_IsArray(arr) ? (size_t)cJSON_GetArraySize(arr) : 0;
	p->seeds = n ? xcalloc(n, sizeof(*p->seeds)) : NULL;
	cJSON_ArrayForEach(it, (n ? arr : NULL))
		if (cJSON_IsNumber(it))
			p->seeds[p->n_seeds++] = it->valuedouble;
	arr = cJSON_GetObjectItemCaseSensitive(v, "runs");
	n = cJSON_IsArray(arr) ? (size_t)cJSON_GetArraySize(arr) : 0;
	p->runs = n ? xcalloc(n, sizeof(*p->runs)) : NULL;
	p->runs_named = n > 0;
	cJSON_ArrayForEach(it, (n ? arr : NULL)) {
		struct pab_pool_run *r = &p->runs[p->n_runs++];

		r->journal = string_dup(it, "journal");
		r->seed = number_or_nan(it, "seed");
		if (!r->journal || !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(it, "seed")))
			p->runs_named = 0;
	}
	p->mode = string_dup(v, "mode");
	arr = cJSON_GetObjectItemCaseSensitive(v, "sources");
	n = cJSON_IsArray(arr) ? (size_t)cJSON_GetArraySize(arr) : 0;
	p->sources = n ? xcalloc(n, sizeof(*p->sources)) : NULL;
	cJSON_ArrayForEach(it, (n ? arr : NULL)) {
		struct pab_pool_source *s = &p->sources[p->n_sources++];

		s->name = string_dup(it, "name");
		s->seed = number_or_nan(it, "seed");
		s->shard = string_dup(it, "shard");
		s->rows = number_or_nan(it, "rows");
		s->reps = number_or_nan(it, "reps");
	}
}

/* The typed record keys of "run", in the order a fresh run writes them:
 * the judged set before run_json's other keys, the binding and the costs
 * after them (from COSTS_KEY, bit i - COSTS_KEY of enum pab_cost_key),
 * the pool last (doc/artifact-schema.md §3). */
static const char *const record_keys[] = {
	"metrics", "metrics_given", "require", "floors",
	"binding", "sampler_cpu_s", "sampler_samples", "perfab_peak_rss", "attribution",
	"pool",
};
#define N_RECORD_KEYS (sizeof(record_keys) / sizeof(record_keys[0]))
#define COSTS_KEY 4 /* record_keys[COSTS_KEY]: "binding" */
#define ATTRIBUTION_KEY 8 /* record_keys[ATTRIBUTION_KEY]: "attribution" */
#define POOL_KEY 9  /* record_keys[POOL_KEY]: "pool" */

/* Cost key i (COSTS_KEY <= i < POOL_KEY) of e as JSON when given, else NULL. */
static cJSON *cost_json(const struct pab_run_costs *c, size_t i)
{
	const double numbers[] = { c->sampler_cpu_s, c->sampler_samples,
				   c->perfab_peak_rss_bytes };

	if (!(c->given & (1u << (i - COSTS_KEY))))
		return NULL;
	if (i == COSTS_KEY)
		return pab_json_text_parse(c->binding_json, 1);
	if (i == ATTRIBUTION_KEY)
		return pab_json_text_parse(c->attribution_json, 1);
	return cJSON_CreateNumber(numbers[i - COSTS_KEY - 1]);
}

/* The binding and costs of run into c, each given when it has its type. */
static void costs_read(const cJSON *run, struct pab_run_costs *c)
{
	double *numbers[] = { &c->sampler_cpu_s, &c->sampler_samples,
			      &c->perfab_peak_rss_bytes };
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, "binding");
	size_t i;

	pab_run_costs_release(c);
	if (cJSON_IsObject(v)) {
		c->binding_json = cJSON_PrintUnformatted(v);
		c->given |= PAB_COST_BINDING;
	}
	for (i = 0; i < 3; i++) {
		v = cJSON_GetObjectItemCaseSensitive(run, record_keys[COSTS_KEY + 1 + i]);
		if (cJSON_IsNumber(v)) {
			*numbers[i] = v->valuedouble;
			c->given |= 1u << (i + 1);
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(run, "attribution");
	if (cJSON_IsObject(v)) {
		c->attribution_json = cJSON_PrintUnformatted(v);
		c->given |= PAB_COST_ATTRIBUTION;
	}
}

/* Record key i of e as JSON when e gives it, else NULL. */
static cJSON *record_json(const struct pab_experiment *e, size_t i)
{
	const struct pab_judged_set *j = &e->judged;
	cJSON *floors;

	switch (i) {
	case 0:
		return j->given & PAB_JUDGED_METRICS ? metric_names_json(j->metrics) : NULL;
	case 1:
		return j->given & PAB_JUDGED_METRICS_GIVEN ?
			cJSON_CreateBool(j->metrics_given) : NULL;
	case 2:
		return j->given & PAB_JUDGED_REQUIRE ? metric_names_json(j->require) : NULL;
	case 3:
		if (!(j->given & PAB_JUDGED_FLOORS))
			return NULL;
		floors = cJSON_CreateObject();
		cJSON_AddNumberToObject(floors, "bytes", j->floor_bytes);
		cJSON_AddNumberToObject(floors, "count", j->floor_count);
		return floors;
	case POOL_KEY:
		return e->pool.given ? pool_json(&e->pool) : NULL;
	default:
		return cost_json(&e->costs, i);
	}
}

/* The judged set and pool of run into e; a key is given when its typed
 * form says it again exactly. */
static void records_read(const cJSON *run, struct pab_experiment *e)
{
	struct pab_judged_set *j = &e->judged;
	const cJSON *v;
	size_t i;

	memset(j, 0, sizeof(*j));
	v = cJSON_GetObjectItemCaseSensitive(run, "metrics");
	if (cJSON_IsArray(v)) {
		j->recorded |= PAB_JUDGED_METRICS;
		metric_names_read(v, j->metrics);
	}
	v = cJSON_GetObjectItemCaseSensitive(run, "metrics_given");
	if (cJSON_IsBool(v))
		j->recorded |= PAB_JUDGED_METRICS_GIVEN;
	j->metrics_given = cJSON_IsTrue(v);
	v = cJSON_GetObjectItemCaseSensitive(run, "require");
	if (cJSON_IsArray(v)) {
		j->recorded |= PAB_JUDGED_REQUIRE;
		metric_names_read(v, j->require);
	}
	v = cJSON_GetObjectItemCaseSensitive(run, "floors");
	if (cJSON_IsObject(v)) {
		const double b = number_or_nan(v, "bytes"), c = number_or_nan(v, "count");

		j->recorded |= PAB_JUDGED_FLOORS;
		j->floor_bytes = isfinite(b) && b >= 0 ? b : 0;
		j->floor_count = isfinite(c) && c >= 0 ? c : 0;
	}
	pool_read(cJSON_GetObjectItemCaseSensitive(run, "pool"), &e->pool);
	costs_read(run, &e->costs);
	j->given = j->recorded;
	e->pool.given = e->pool.recorded;
	for (i = 0; i < N_RECORD_KEYS; i++) {
		cJSON *mine = record_json(e, i);

		v = cJSON_GetObjectItemCaseSensitive(run, record_keys[i]);
		if (mine && !cJSON_Compare(mine, v, 1)) {
			if (i < COSTS_KEY)
				j->given &= ~(1u << i);
			else if (i < POOL_KEY)
				e->costs.given &= ~(1u << (i - COSTS_KEY));
			else
				e->pool.given = 0;
		}
		cJSON_Delete(mine);
	}
}

const char *pab_host_cpu_model(const cJSON *host)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(host, "cpu_model"));
}

void pab_records_read(const cJSON *host, const cJSON *sanity, const cJSON *run,
		      struct pab_experiment *e)
{
	const cJSON *it;

	free(e->host_json);
	free(e->cpu_model);
	e->host_json = cJSON_IsObject(host) ? cJSON_PrintUnformatted(host) : NULL;
	e->cpu_model = string_dup(host, "cpu_model");
	if (sanity && !cJSON_IsNull(sanity)) {
		e->has_sanity = 1;
		cJSON_ArrayForEach(it, (cJSON_IsArray(sanity) ? sanity : NULL)) {
			char *row = string_dup(it, "row"), *arm = string_dup(it, "arm");
			char *met = string_dup(it, "metric");

			pab_experiment_add_sanity(e, row, arm, met, number_or_nan(it, "base"),
						  number_or_nan(it, "head"));
			free(row);
			free(arm);
			free(met);
		}
	}
	free(e->run_json);
	e->run_json = cJSON_IsObject(run) ? cJSON_PrintUnformatted(run) : NULL;
	pab_run_settings_read(run, &e->settings);
	records_read(run, e);
}

void pab_row_host_read(const cJSON *host, struct pab_row *row)
{
	char *cpu = string_dup(host, "cpu_model");
	char *text = cJSON_PrintUnformatted(host);

	pab_row_set_host(row, text, cpu);
	free(cpu);
	cJSON_free(text);
}

cJSON *pab_json_text_parse(const char *text, int empty_object)
{
	cJSON *v = text ? cJSON_Parse(text) : NULL;

	if (!text && empty_object)
		v = cJSON_CreateObject();
	if (text && !v)
		BUG("unreadable JSON text in the model");
	return v;
}

cJSON *pab_sanity_json(const struct pab_experiment *e)
{
	cJSON *arr;
	size_t i;

	if (!e->has_sanity)
		return NULL;
	arr = cJSON_CreateArray();
	for (i = 0; i < e->n_sanity; i++) {
		const struct pab_sanity_cell *c = &e->sanity[i];
		cJSON *cell = cJSON_CreateObject();

		cJSON_AddItemToObject(cell, "row", string_or_null(c->row));
		cJSON_AddItemToObject(cell, "arm", string_or_null(c->arm));
		cJSON_AddItemToObject(cell, "metric", string_or_null(c->metric));
		cJSON_AddItemToObject(cell, "base", number_or_null(c->base));
		cJSON_AddItemToObject(cell, "head", number_or_null(c->head));
		cJSON_AddItemToArray(arr, cell);
	}
	return arr;
}

cJSON *pab_run_json(const struct pab_experiment *e)
{
	cJSON *rest = pab_json_text_parse(e->run_json, 1), *front = cJSON_CreateObject();
	cJSON *out, *it;
	size_t i;

	for (i = 0; i < N_RECORD_KEYS; i++) {
		cJSON *mine = record_json(e, i);

		if (!mine)
			continue;
		if (cJSON_GetObjectItemCaseSensitive(rest, record_keys[i]))
			cJSON_ReplaceItemInObjectCaseSensitive(rest, record_keys[i], mine);
		else if (i >= COSTS_KEY)
			cJSON_AddItemToObject(rest, record_keys[i], mine); /* made last */
		else
			cJSON_AddItemToObject(front, record_keys[i], mine);
	}
	while ((it = rest->child)) {
		cJSON_DetachItemViaPointer(rest, it);
		cJSON_AddItemToObject(front, it->string, it);
	}
	cJSON_Delete(rest);
	out = pab_run_settings_json(&e->settings, front);
	cJSON_Delete(front);
	return out;
}

/* key dropped from e->run_json: the typed field is written in its stead,
 * where a fresh run writes it. */
static void run_json_drop(struct pab_experiment *e, const char *key)
{
	cJSON *run;

	if (!e->run_json)
		return;
	run = pab_json_text_parse(e->run_json, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(run, key);
	free(e->run_json);
	e->run_json = cJSON_PrintUnformatted(run);
	cJSON_Delete(run);
}

void pab_run_record_binding(struct pab_experiment *e, const char *binding_json)
{
	run_json_drop(e, "binding");
	free(e->costs.binding_json);
	e->costs.binding_json = xstrdup(binding_json);
	e->costs.given |= PAB_COST_BINDING;
}

void pab_run_record_costs(struct pab_experiment *e, const char *binding_json,
			  double sampler_cpu_s, double sampler_samples, double peak_rss_bytes)
{
	struct pab_run_costs *c = &e->costs;
	size_t i;

	free(c->binding_json);
	c->binding_json = xstrdup(binding_json);
	c->given |= PAB_COST_BINDING;
	for (i = COSTS_KEY + 1; i < ATTRIBUTION_KEY; i++)
		run_json_drop(e, record_keys[i]);
	c->sampler_cpu_s = sampler_cpu_s;
	c->sampler_samples = sampler_samples;
	c->perfab_peak_rss_bytes = peak_rss_bytes;
	c->given |= PAB_COST_SAMPLER_CPU | PAB_COST_SAMPLER_SAMPLES;
	c->given &= ~PAB_COST_PEAK_RSS;
	if (isfinite(peak_rss_bytes))
		c->given |= PAB_COST_PEAK_RSS;
}

void pab_run_record_attribution(struct pab_experiment *e, const char *record_json)
{
	run_json_drop(e, "attribution");
	free(e->costs.attribution_json);
	e->costs.attribution_json = xstrdup(record_json);
	e->costs.given |= PAB_COST_ATTRIBUTION;
}

char *pab_fingerprint_load(const char *path, char **why)
{
	size_t len;
	char *text = read_file_max(path, 1 << 28, &len), *inner = NULL, *out;
	cJSON *root, *host;

	*why = NULL;
	if (!text) {
		*why = xasprintf("cannot read fingerprint '%s': %s", path, strerror(errno));
		return NULL;
	}
	root = pab_json_parse(text, len, &inner);
	free(text);
	if (!cJSON_IsObject(root)) {
		*why = xasprintf("fingerprint '%s' is not a JSON object%s%s%s: give an "
				 "artifact or the output of perfab env --format json", path,
				 inner ? " (" : "", inner ? inner : "", inner ? ")" : "");
		free(inner);
		cJSON_Delete(root);
		return NULL;
	}
	/* `perfab env --format json` output: {"host": ..., "checklist": ...};
	 * an artifact has "host" too. */
	host = cJSON_DetachItemFromObjectCaseSensitive(root, "host");
	if (host) {
		cJSON_Delete(root);
		root = host;
	}
	/* An artifact's host carries the checklist judged when it ran; it is
	 * judged again, so the stored copy must not pass as a field. */
	cJSON_DeleteItemFromObjectCaseSensitive(root, "checklist");
	if (!cJSON_IsObject(root) || (!pab_host_cpu_model(root) &&
	    !cJSON_GetObjectItemCaseSensitive(root, "kernel"))) {
		*why = xasprintf("'%s' holds no host fingerprint (no cpu_model, no "
				 "kernel): give an artifact or perfab env --format json output",
				 path);
		cJSON_Delete(root);
		return NULL;
	}
	out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!out)
		BUG("out of memory");
	return out;
}
