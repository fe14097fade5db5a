/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * baseline.c — the memory gate's baseline file, "perfab-memgate/1",
 * read and written (baseline.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "store/baseline.h"
#include "store/json_in.h"
#include "store/tempfile.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Reading                                                            */

/* The scenarios of a baseline: {"ROW": BYTES, ...}, at least one. */
static int baseline_scenarios(struct pab_json_in *in, const cJSON *root,
			      struct pab_memgate_baseline *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "scenarios"), *it;

	if (!cJSON_IsObject(v) || !cJSON_GetArraySize(v))
		return pab_json_in_fail_here(in, "\"scenarios\" must be a non-empty object of "
					     "scenario -> bytes");
	b->name = xcalloc((size_t)cJSON_GetArraySize(v), sizeof(*b->name));
	b->bytes = xcalloc((size_t)cJSON_GetArraySize(v), sizeof(*b->bytes));
	pab_json_in_push_key(in, "scenarios");
	cJSON_ArrayForEach(it, v) {
		if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble <= 0) {
			pab_json_in_push_key(in, it->string);
			pab_json_in_fail(in, NULL, "must be a positive number of bytes");
			pab_json_in_pop(in);
			break;
		}
		b->name[b->n] = xstrdup(it->string);
		b->bytes[b->n++] = it->valuedouble;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* The fields of a baseline's top level, read into b. */
static int baseline_fields(struct pab_json_in *in, const cJSON *root, struct pab_memgate_baseline *b)
{
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	const cJSON *metric = cJSON_GetObjectItemCaseSensitive(root, "metric");
	const char *arm = NULL, *cpu = NULL;

	if (!cJSON_IsObject(root))
		return pab_json_in_fail_here(in, "not a JSON object");
	if (!cJSON_IsString(schema) || strcmp(schema->valuestring, PAB_MEMGATE_SCHEMA))
		return pab_json_in_fail_here(in, "\"schema\" must be \"%s\" (write one with "
					     "perfab memgate record)", PAB_MEMGATE_SCHEMA);
	if (metric && (!cJSON_IsString(metric) || strcmp(metric->valuestring, "peak_rss")))
		return pab_json_in_fail_here(in, "only \"metric\": \"peak_rss\" is supported");
	if (pab_json_in_string(in, root, "arm", PAB_JSON_NULLABLE, &arm) < 0 ||
	    pab_json_in_string(in, root, "cpu_model", PAB_JSON_NULLABLE, &cpu) < 0)
		return -1;
	b->arm = arm ? xstrdup(arm) : NULL;
	b->cpu_model = cpu ? xstrdup(cpu) : NULL;
	return baseline_scenarios(in, root, b);
}

int pab_baseline_load(const char *path, struct pab_memgate_baseline *b, char **why)
{
	size_t len;
	char *text = read_file_max(path, 64 << 20, &len), *prefix;
	struct pab_json_in in;
	cJSON *root;

	memset(b, 0, sizeof(*b));
	if (!text) {
		*why = xasprintf("cannot read baseline '%s': %s", path, strerror(errno));
		return -1;
	}
	prefix = xasprintf("baseline '%s'", path);
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, prefix, NULL);
	root = pab_json_in_parse(&in, text, len, NULL);
	free(text);
	if (root)
		baseline_fields(&in, root, b);
	*why = pab_json_in_take_why(&in);
	cJSON_Delete(root);
	pab_json_in_release(&in);
	free(prefix);
	if (*why)
		pab_memgate_baseline_release(b);
	return *why ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */

char *pab_baseline_text(const struct pab_memgate_baseline *b)
{
	cJSON *root = cJSON_CreateObject(), *sc;
	char *text;
	size_t s;

	cJSON_AddStringToObject(root, "schema", PAB_MEMGATE_SCHEMA);
	cJSON_AddStringToObject(root, "metric", "peak_rss");
	cJSON_AddStringToObject(root, "arm", b->arm);
	cJSON_AddNumberToObject(root, "runs", (double)b->runs);
	if (b->cpu_model)
		cJSON_AddStringToObject(root, "cpu_model", b->cpu_model);
	cJSON_AddStringToObject(root, "perfab_version", PACKAGE_VERSION);
	sc = cJSON_AddObjectToObject(root, "scenarios");
	for (s = 0; s < b->n; s++)
		cJSON_AddNumberToObject(sc, b->name[s], b->bytes[s]);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

static int write_text_line(FILE *f, void *arg)
{
	return fprintf(f, "%s\n", (const char *)arg) < 0 ? -1 : 0;
}

int pab_baseline_save(const char *path, const struct pab_memgate_baseline *b, char **why)
{
	char *text = pab_baseline_text(b);
	int ret = pab_write_file_atomic(path, write_text_line, text, why);

	cJSON_free(text);
	return ret;
}
